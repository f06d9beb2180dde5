//! `hornbeam batch` and `hornbeam report` end to end, on `tests/data/batch` (see its README):
//! isolation (a memory-hungry instance costs only its own result), wrong answers against an
//! expected-answers table, the JSON and CSV shapes, `.smt2.gz` inputs, the report page, and
//! hostile directories (dangling links, loops of links, FIFOs, names that are not UTF-8,
//! unreadable directories: made at test time, never committed) that cost only their own paths.
//! C programs (`.c`, `.i`) are in the module `c` (`tests/batch/c.rs`), hostile directories in
//! `hostile` (`tests/batch/hostile.rs`), batches stopped by signals, killed and resumed in
//! `stopping` (`tests/batch/stopping.rs`), SV-COMP task definitions and set files in `tasks`
//! (`tests/batch/tasks.rs`).

#[path = "batch/c.rs"]
mod c;
mod common;
#[path = "batch/hostile.rs"]
mod hostile;
#[path = "batch/stopping.rs"]
mod stopping;
#[path = "batch/tasks.rs"]
mod tasks;

use hornbeam::batch::{output, Run};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `hornbeam ARGS...`; a batch runs its instances with `--deterministic`, since the tests
/// assert their answers (which then do not depend on the machine's load).
fn hornbeam(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hornbeam"));
    cmd.args(args);
    if args.first() == Some(&"batch") {
        cmd.arg("--deterministic");
    }
    cmd.output().expect("run hornbeam")
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("test-batch", name)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir") {
        let p = e.expect("entry").path();
        let target = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).expect("copy");
        }
    }
}

fn load(p: &Path) -> Run {
    output::load(p).unwrap_or_else(|e| panic!("{e}"))
}

/// The check for a batch over `suite/`: every file's answer is its track (the expected
/// answer), validated, with the engine that answered.
fn check_suite_answers(run: &Run, skip: &str) {
    for r in run.results.iter().filter(|r| !r.path.contains(skip)) {
        assert_eq!(r.answer, r.track, "{r:?}");
        assert_eq!(r.validation, "validated", "{r:?}");
        assert!(r.engine.is_some(), "{r:?}");
    }
}

/// A clause with a 400 000-conjunct constraint: about 5 MB of text, over 200 MB of resident
/// memory within a second of parsing (1.5 GB at its peak), so it exceeds a 100 MB limit under
/// which the small files run.
fn write_memory_hungry(path: &Path) {
    let mut s = String::from("(set-logic HORN)\n(declare-fun P (Int) Bool)\n");
    s.push_str("(assert (forall ((x Int)) (=> (and");
    for i in 0..400_000 {
        s.push_str(&format!(" (<= x {i})"));
    }
    s.push_str(") (P x))))\n(assert (forall ((x Int)) (=> (and (P x) (> x 5)) false)))\n");
    s.push_str("(check-sat)\n");
    std::fs::write(path, s).expect("write");
}

/// `--memory` is the resident set an instance may reach, not its address space (which counts
/// the solver thread's 512 MB stack reservation): 100 MB is enough for the small files, and
/// the hungry one is killed as soon as its resident set passes 100 MB.
#[test]
fn a_memory_hungry_instance_costs_only_its_own_result() {
    let dir = scratch("memory");
    copy_dir(&common::data_dir("batch/suite"), &dir.join("suite"));
    let hungry = dir.join("suite/sat/hungry.smt2");
    write_memory_hungry(&hungry);
    let json = dir.join("out.json");
    let out = hornbeam(&[
        "batch",
        dir.join("suite").to_str().expect("utf-8"),
        "--jobs",
        "2",
        "--timeout",
        "60",
        "--memory",
        "100",
        "--json",
        json.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let run = load(&json);
    assert_eq!(run.results.len(), 5, "{run:?}");
    let h = run
        .results
        .iter()
        .find(|r| r.path.ends_with("hungry.smt2"))
        .expect("hungry result");
    assert_eq!(h.answer, "error", "{h:?}");
    assert!(
        h.reason.contains("out of memory (RSS above 100 MB"),
        "{h:?}"
    );
    assert!(h.time < 30.0, "not stopped by the memory limit: {h:?}");
    check_suite_answers(&run, "hungry");
    assert_eq!(run.memory_mb, Some(100));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_answer_is_reported_and_fails_the_batch() {
    let data = common::data_dir("batch");
    let dir = scratch("wrong");
    let json = dir.join("out.json");
    let out = hornbeam(&[
        "batch",
        data.join("suite").to_str().expect("utf-8"),
        "--jobs",
        "2",
        "--expected",
        data.join("lying.tsv").to_str().expect("utf-8"),
        "--json",
        json.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("WRONG ANSWER") && stderr.contains("head_conjunction.smt2"),
        "{stderr}"
    );
    let run = load(&json);
    let wrong: Vec<_> = run.results.iter().filter(|r| r.wrong).collect();
    assert_eq!(wrong.len(), 1, "{run:?}");
    assert!(wrong[0].path.ends_with("head_conjunction.smt2"));
    assert_eq!(wrong[0].expected.as_deref(), Some("unsat"));

    // The honest table: every expectation met, exit status 0.
    let out = hornbeam(&[
        "batch",
        data.join("suite").to_str().expect("utf-8"),
        "--jobs",
        "2",
        "--expected",
        data.join("suite/expected.tsv").to_str().expect("utf-8"),
        "--json",
        json.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let run = load(&json);
    assert!(run
        .results
        .iter()
        .all(|r| r.expected.as_deref() == Some(r.track.as_str())));
    assert!(run.results.iter().all(|r| !r.wrong));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_and_csv_have_the_same_records_and_gz_inputs_are_read() {
    let dir = scratch("shape");
    copy_dir(&common::data_dir("batch/suite"), &dir.join("suite"));
    // A gzip-compressed copy of one file, in its own track directory.
    let gz_dir = dir.join("suite/unsat-gz");
    std::fs::create_dir_all(&gz_dir).expect("mkdir");
    let text = std::fs::read(dir.join("suite/unsat/divmod.smt2")).expect("read");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &text).expect("gzip");
    std::fs::write(gz_dir.join("divmod.smt2.gz"), enc.finish().expect("gzip")).expect("write");
    let (json, csv) = (dir.join("r.json"), dir.join("r.csv"));
    let out = hornbeam(&[
        "batch",
        dir.join("suite").to_str().expect("utf-8"),
        "--jobs",
        "1",
        "--json",
        json.to_str().expect("utf-8"),
        "--csv",
        csv.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("json");
    for key in [
        "solver",
        "timeout",
        "memory_mb",
        "jobs",
        "wall_time",
        "interrupted",
        "results",
    ] {
        assert!(value.get(key).is_some(), "no {key} in {value}");
    }
    let first = &value["results"][0];
    // A record's score is derived: the JSON has the scores of the run under `scores`.
    assert!(value.get("scores").is_some(), "no scores in {value}");
    // Where and how the run was made.
    for key in ["version", "date", "host", "cpu", "cores", "command"] {
        assert!(value["meta"].get(key).is_some(), "no meta.{key} in {value}");
    }
    assert!(value["meta"]["version"]
        .as_str()
        .is_some_and(|v| v.contains("commit")));
    for key in output::CSV_COLUMNS.iter().filter(|k| **k != "score") {
        assert!(first.get(key).is_some(), "no {key} in {first}");
    }
    let run = load(&json);
    assert_eq!(run.results.len(), 5);
    let gz = run
        .results
        .iter()
        .find(|r| r.path.ends_with("divmod.smt2.gz"))
        .expect("gz result");
    assert_eq!(gz.answer, "unsat", "{gz:?}");
    assert_eq!(gz.track, "unsat-gz");
    let csv_text = std::fs::read_to_string(&csv).expect("csv");
    // The run's metadata as `# ` lines, then the header.
    let mut lines = csv_text.lines().skip_while(|l| l.starts_with("# "));
    assert!(csv_text.starts_with("# version: "), "{csv_text}");
    assert_eq!(lines.next(), Some(output::CSV_COLUMNS.join(",").as_str()));
    assert_eq!(
        output::load(&csv).expect("csv loads").meta,
        load(&json).meta
    );
    let from_csv = output::from_csv(&csv_text, &csv).expect("csv parses");
    assert_eq!(from_csv.len(), run.results.len());
    for (a, b) in from_csv.iter().zip(&run.results) {
        assert_eq!(
            (&a.path, &a.answer, &a.engine, &a.reason),
            (&b.path, &b.answer, &b.engine, &b.reason)
        );
        assert!((a.time - b.time).abs() < 1e-3);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_report_compares_runs_in_a_table_and_a_cactus_plot() {
    let dir = scratch("report");
    let suite = common::data_dir("batch/suite");
    let json = dir.join("hb.json");
    let out = hornbeam(&[
        "batch",
        suite.to_str().expect("utf-8"),
        "--jobs",
        "2",
        "--json",
        json.to_str().expect("utf-8"),
        "--report",
        dir.join("one.html").to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let one = std::fs::read_to_string(dir.join("one.html")).expect("report");
    assert!(one.contains("<table") && one.contains("<svg"), "{one}");

    // A second run in the same shape (here: the first with every answer turned unknown).
    let mut other = load(&json);
    other.solver = "other".into();
    for r in &mut other.results {
        r.answer = "unknown".into();
    }
    let other_path = dir.join("other.json");
    std::fs::write(&other_path, output::to_json(&other)).expect("write");
    let html = dir.join("both.html");
    let out = hornbeam(&[
        "report",
        json.to_str().expect("utf-8"),
        &format!("baseline={}", other_path.display()),
        "--out",
        html.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let page = std::fs::read_to_string(&html).expect("report");
    assert!(
        page.contains("<svg") && page.contains("<polyline"),
        "{page}"
    );
    assert!(
        page.contains(">hb<") && page.contains(">baseline<"),
        "{page}"
    );
    // One summary row per track and run, plus the totals: the run that answered has 2 sat in
    // the sat track, the other none.
    assert!(
        page.contains("<td class=\"l\">sat</td><td class=\"l\">hb</td><td>2</td><td>2</td>"),
        "{page}"
    );
    assert!(
        page.contains("<td class=\"l\">sat</td><td class=\"l\">baseline</td><td>2</td><td>0</td>"),
        "{page}"
    );
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_option_reaches_every_instance() {
    // BMC never answers `sat`: with `--engine bmc` the unsat files are refuted by BMC and the
    // sat files stay unknown, where the default portfolio proves them.
    let dir = scratch("engine");
    let json = dir.join("bmc.json");
    let out = hornbeam(&[
        "batch",
        common::data_dir("batch/suite").to_str().expect("utf-8"),
        "--jobs",
        "1",
        "--timeout",
        "5",
        "--engine",
        "bmc",
        "--json",
        json.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let run = load(&json);
    assert_eq!(run.results.len(), 4);
    for r in &run.results {
        if r.track == "unsat" {
            assert_eq!(
                (r.answer.as_str(), r.engine.as_deref()),
                ("unsat", Some("bmc")),
                "{r:?}"
            );
        } else {
            assert_eq!(r.answer, "unknown", "{r:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without a terminal, a summary line every `--progress-every` seconds, besides the line per
/// finished instance: a batch of one instance that runs to its 1 s limit prints several.
#[test]
fn a_summary_line_every_few_seconds_without_a_terminal() {
    let dir = scratch("progress");
    std::fs::write(
        dir.join("slow.smt2"),
        "(set-logic HORN)\n(declare-fun inv (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (inv x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))\n\
         (assert (forall ((x Int)) (=> (and (inv x) (= x 1000000)) false)))\n(check-sat)\n",
    )
    .expect("write");
    let out = hornbeam(&[
        "batch",
        dir.to_str().expect("utf-8"),
        "--timeout",
        "1",
        "--progress-every",
        "0.2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summaries: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(summaries.len() >= 2, "{stderr}");
    assert!(
        summaries[0].starts_with("progress: 0/1 done (sat 0 unsat 0 unknown 0 error 0 wrong 0), ")
            && summaries[0].ends_with(" s elapsed"),
        "{stderr}"
    );
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.starts_with("[1/1] unknown"))
            .count(),
        1
    );
    let bad = hornbeam(&[
        "batch",
        dir.to_str().expect("utf-8"),
        "--progress-every",
        "-1",
    ]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_forged_witness_is_a_witness_failure_not_an_unknown() {
    // HORNBEAM_TEST_FORGE makes every `solve` child put a wrong witness in place of its
    // engine's: the empty model after `sat`, the empty derivation after `unsat`. The checks
    // are those of every answer (the driver's validation and replay); the batch learns the
    // failure from the child's `reason_kind`, never from the reason's text.
    let data = common::data_dir("batch");
    let dir = scratch("forged");
    for (forge, track) in [("model", "sat"), ("derivation", "unsat")] {
        let json = dir.join(format!("{forge}.json"));
        let csv = dir.join(format!("{forge}.csv"));
        let html = dir.join(format!("{forge}.html"));
        let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
            .args([
                "batch",
                "--deterministic",
                data.join("suite").join(track).to_str().expect("utf-8"),
            ])
            .args(["--jobs", "2", "--json", json.to_str().unwrap()])
            .args([
                "--csv",
                csv.to_str().unwrap(),
                "--report",
                html.to_str().unwrap(),
            ])
            .env("HORNBEAM_TEST_FORGE", forge)
            .output()
            .expect("run hornbeam");
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("WITNESS FAILED its check"), "{stderr}");
        assert!(
            stderr.contains("WITNESS(ES) FAILED THEIR CHECK"),
            "{stderr}"
        );
        let run = load(&json);
        assert!(!run.results.is_empty());
        for r in &run.results {
            assert_eq!(r.answer, "unknown", "{r:?}");
            assert!(r.witness_failed(), "{r:?}");
            assert!(r.reason.starts_with("internal error: "), "{r:?}");
        }
        // The CSV keeps the kind, and the report has it in its own column.
        let kinds = |r: &Run| -> Vec<_> { r.results.iter().map(|x| x.reason_kind).collect() };
        assert_eq!(kinds(&load(&csv)), kinds(&run));
        let page = std::fs::read_to_string(&html).expect("report written");
        assert!(page.contains("<th>witness failed</th>"), "{page}");
        let n = run.results.len();
        // The summary's total row: n files, none sat, unsat, solved, unknown, error or wrong;
        // n witness failures.
        let row = format!(
            "<td>{n}</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td class=\"bad\">{n}</td>"
        );
        let all = page
            .lines()
            .find(|l| l.starts_with("<tr class=\"all\">"))
            .expect("a total row");
        assert!(all.contains(&row), "{forge}: {all}");
        // The JSON names the kind itself, not only a reason text.
        let raw: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("json");
        for r in raw["results"].as_array().expect("results") {
            assert_eq!(r["reason_kind"], "witness-failed", "{r}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
