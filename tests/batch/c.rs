//! `hornbeam batch` over C programs (a module of `tests/batch.rs`): small programs of
//! `tests/data/c` copied into a scratch directory, with an SV-COMP-style `expected.tsv`
//! (`path`, `category`, `expected` = `safe`/`unsafe`) written at test time. Verdicts are
//! recorded as `safe`/`unsafe`; a wrong expectation is a wrong answer (exit status 1); a
//! program outside the subset is an `error` record with its located message; a `.i` file and a
//! clause system in the same directory are picked up too; a forged model is a failed witness.

use super::{hornbeam, load, scratch};
use ::hornbeam::batch::Run;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/data/c/<rel>`.
fn program(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/c")
        .join(rel)
}

/// A scratch folder `progs/` with safe and unsafe programs (a `.i` copy among them), a program
/// outside the subset and a clause system; returns it.
fn programs(dir: &Path) -> PathBuf {
    let progs = dir.join("progs");
    std::fs::create_dir_all(&progs).expect("mkdir");
    for (from, to) in [
        ("safe/arith.c", "arith.c"),
        ("safe/arith.c", "arith-preprocessed.i"),
        ("unsafe/counter.c", "counter.c"),
        ("unsafe/assert-fail.c", "assert-fail.c"),
        ("error/pointer.c", "pointer.c"),
    ] {
        std::fs::copy(program(from), progs.join(to)).expect("copy");
    }
    let smt2 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/batch/suite/sat/counter.smt2");
    std::fs::copy(smt2, progs.join("counter.smt2")).expect("copy");
    progs
}

/// An SV-COMP-style table beside `progs/`: `(name, expected)` rows.
fn table(path: &Path, rows: &[(&str, &str)]) {
    let mut text = String::from("path\tcategory\texpected\tlines\n");
    for (name, expected) in rows {
        text.push_str(&format!("progs/{name}\tprogs\t{expected}\t10\n"));
    }
    std::fs::write(path, text).expect("write table");
}

const HONEST: [(&str, &str); 5] = [
    ("arith.c", "safe"),
    ("arith-preprocessed.i", "safe"),
    ("counter.c", "unsafe"),
    ("assert-fail.c", "unsafe"),
    ("counter.smt2", "sat"),
];

fn batch(progs: &Path, tsv: &Path, json: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "batch",
        progs.to_str().expect("utf-8"),
        "--jobs",
        "2",
        "--timeout",
        "60",
        "--expected",
        tsv.to_str().expect("utf-8"),
        "--json",
        json.to_str().expect("utf-8"),
    ];
    args.extend(extra);
    hornbeam(&args)
}

fn answers(run: &Run) -> Vec<(String, String)> {
    run.results
        .iter()
        .map(|r| {
            let name = Path::new(&r.path).file_name().expect("name");
            (name.to_string_lossy().into_owned(), r.answer.clone())
        })
        .collect()
}

#[test]
fn c_programs_are_verified_and_checked_against_an_svcomp_table() {
    let dir = scratch("c-programs");
    let progs = programs(&dir);
    let tsv = dir.join("expected.tsv");
    table(&tsv, &HONEST);
    let (json, csv, html) = (dir.join("c.json"), dir.join("c.csv"), dir.join("c.html"));
    let out = batch(
        &progs,
        &tsv,
        &json,
        &[
            "--csv",
            csv.to_str().expect("utf-8"),
            "--report",
            html.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("sat 1 unsat 0 safe 2 unsafe 2 unknown 0 error 1 wrong 0"),
        "{stderr}"
    );
    let run = load(&json);
    let expected: Vec<(String, String)> = [
        ("arith-preprocessed.i", "safe"),
        ("arith.c", "safe"),
        ("assert-fail.c", "unsafe"),
        ("counter.c", "unsafe"),
        ("counter.smt2", "sat"),
        ("pointer.c", "error"),
    ]
    .iter()
    .map(|(n, a)| (n.to_string(), a.to_string()))
    .collect();
    assert_eq!(answers(&run), expected, "{run:?}");
    for r in &run.results {
        assert!(!r.wrong, "{r:?}");
        assert_eq!(r.track, "progs");
        if r.solved() {
            assert_eq!(r.validation, "validated", "{r:?}");
            assert!(r.engine.is_some(), "{r:?}");
            assert_eq!(r.expected.as_deref(), Some(r.answer.as_str()), "{r:?}");
        }
    }
    // `counter.c` has no nondet value: the first concrete run reaches the error.
    let counter = &run.results[3];
    assert_eq!(counter.engine.as_deref(), Some("testing"), "{counter:?}");
    let pointer = &run.results[5];
    assert!(
        pointer
            .reason
            .contains("pointer.c:4:12: unsupported: conversions of integers to pointers"),
        "{pointer:?}"
    );
    assert_eq!(pointer.expected, None);
    // The CSV holds the same records; the report counts safe with sat, unsafe with unsat.
    let from_csv = load(&csv);
    assert_eq!(answers(&from_csv), answers(&run));
    let page = std::fs::read_to_string(&html).expect("report written");
    assert!(
        page.contains("<th>sat / safe</th><th>unsat / unsafe</th>"),
        "{page}"
    );
    assert!(
        page.contains("<td class=\"l\">progs</td><td class=\"l\">hornbeam</td><td>6</td><td>3</td><td>2</td><td>5</td><td>0</td><td>1</td><td>0</td>"),
        "{page}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_expectation_is_a_wrong_answer_and_runs_compare() {
    let dir = scratch("c-wrong");
    let progs = programs(&dir);
    let lying = dir.join("lying.tsv");
    // SV-COMP's verdict words are read as Hornbeam's (`true` is `safe`).
    let mut rows = HONEST.to_vec();
    rows[2] = ("counter.c", "true");
    table(&lying, &rows);
    let json = dir.join("lying.json");
    let out = batch(&progs, &lying, &json, &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("WRONG ANSWER: ")
            && stderr.contains("counter.c answered unsafe, expected true"),
        "{stderr}"
    );
    assert!(stderr.contains("1 WRONG ANSWER(S)"), "{stderr}");
    let run = load(&json);
    let wrong: Vec<_> = run.results.iter().filter(|r| r.wrong).collect();
    assert_eq!(wrong.len(), 1, "{run:?}");
    assert!(wrong[0].path.ends_with("counter.c"), "{:?}", wrong[0]);

    // The report compares it with an honest run: the wrong answer is not solved there.
    let honest = dir.join("expected.tsv");
    table(&honest, &HONEST);
    let json2 = dir.join("honest.json");
    let out = batch(&progs, &honest, &json2, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let html = dir.join("cmp.html");
    let a = format!("lying={}", json.display());
    let b = format!("honest={}", json2.display());
    let out = hornbeam(&["report", &a, &b, "--out", html.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let page = std::fs::read_to_string(&html).expect("report written");
    assert!(page.contains("File by file"), "{page}");
    assert!(
        page.contains("<td class=\"bad\">1</td>"),
        "no wrong count: {page}"
    );
    assert!(page.contains("counter.c"), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_stats_and_a_forged_model_of_a_program() {
    // `verify --stats`: one JSON line on stderr, in `solve --stats`' shape.
    let out = hornbeam(&[
        "verify",
        program("safe/arith.c").to_str().expect("utf-8"),
        "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("safe")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("stats line");
    let stats: serde_json::Value = serde_json::from_str(line).expect("JSON");
    assert_eq!(stats["answer"], "safe", "{stats}");
    assert!(stats["engine"].is_string(), "{stats}");
    assert!(stats["reason_kind"].is_null(), "{stats}");
    assert!(stats["time_ms"]["total"].is_u64(), "{stats}");

    // A forged model (the empty one) fails its check (the program has a loop, so its clauses
    // have a fact): the batch counts a failed witness.
    let dir = scratch("c-forged");
    let progs = dir.join("progs");
    std::fs::create_dir_all(&progs).expect("mkdir");
    std::fs::copy(program("safe/fs-fig1.c"), progs.join("fs-fig1.c")).expect("copy");
    let json = dir.join("forged.json");
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(["batch", progs.to_str().expect("utf-8"), "--jobs", "1"])
        .args(["--json", json.to_str().expect("utf-8")])
        .env("HORNBEAM_TEST_FORGE", "model")
        .output()
        .expect("run hornbeam");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("WITNESS FAILED its check"), "{stderr}");
    let run = load(&json);
    let [r] = run.results.as_slice() else {
        panic!("{run:?}")
    };
    assert_eq!(r.answer, "unknown", "{r:?}");
    assert!(r.witness_failed(), "{r:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
