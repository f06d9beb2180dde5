//! `hornbeam report` on hand-written result files (`tests/data/report`, see its README): shards
//! merged into one run (and the errors of merging what does not belong together), the per-file
//! comparison of several runs, other solvers' CSV with only `path`, `answer` and `time`, and
//! result files written before `cpu_secs`, `peak_rss_mb` and `shard` existed.

mod common;

use hornbeam::batch::merge::{self, MergeError, MergeWarning, ResultFile};
use hornbeam::batch::output::{self, LoadError};
use hornbeam::batch::report::{self, compare};
use hornbeam::batch::{Run, Shard};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    common::data_dir("report").join(name)
}

fn file(name: &str, given: Option<&str>) -> ResultFile {
    let path = data(name);
    ResultFile {
        name: given.map(str::to_string),
        run: output::load(&path).unwrap_or_else(|e| panic!("{e}")),
        file: PathBuf::from(name),
    }
}

fn hornbeam(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(args)
        .output()
        .expect("run hornbeam")
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("test-report", name)
}

/// The three runs of the comparison: the merged shards, an old result file, another solver's
/// minimal CSV.
fn three_runs() -> Vec<(String, Run)> {
    let grouped = merge::group(vec![
        file("hb-1.json", None),
        file("old.json", None),
        file("hb-2.json", None),
        file("z3.csv", None),
    ])
    .expect("merges");
    assert!(grouped.warnings.is_empty(), "{:?}", grouped.warnings);
    grouped.runs
}

#[test]
fn shards_of_one_solver_merge_into_one_run_sorted_by_path() {
    let grouped = merge::group(vec![file("hb-2.json", None), file("hb-1.json", None)])
        .expect("the shards merge");
    assert!(grouped.warnings.is_empty());
    let [(name, run)] = grouped.runs.as_slice() else {
        panic!("one run expected: {:?}", grouped.runs);
    };
    assert_eq!(name, "hornbeam");
    assert_eq!((run.jobs, run.wall_time, run.shard), (4, 31.5, None));
    insta::assert_snapshot!("merged_shards", output::to_json(run));
}

#[test]
fn a_missing_shard_is_a_warning_and_a_lone_one_stays_as_it_is() {
    let mut two = file("hb-2.json", None);
    two.run.shard = Some(Shard::new(2, 3).expect("shard"));
    let mut one = file("hb-1.json", None);
    one.run.shard = Some(Shard::new(1, 3).expect("shard"));
    let grouped = merge::group(vec![one, two]).expect("merges");
    assert_eq!(
        grouped.warnings,
        vec![MergeWarning::MissingShards {
            run: "hornbeam".into(),
            count: 3,
            missing: vec![3]
        }]
    );
    let lone = merge::group(vec![file("hb-1.json", None)]).expect("one part");
    assert_eq!(lone.runs[0].1.shard, Some(Shard::new(1, 2).expect("shard")));
}

#[test]
fn what_does_not_belong_together_is_not_merged() {
    let err = merge::group(vec![file("hb-1.json", None), file("overlap.json", None)])
        .expect_err("overlapping shards");
    assert_eq!(
        err,
        MergeError::Duplicate {
            run: "hornbeam".into(),
            path: "bench/sat/a.smt2".into(),
            first: "hb-1.json".into(),
            second: "overlap.json".into()
        }
    );
    assert!(err
        .to_string()
        .contains("is in both hb-1.json and overlap.json"));
    let err = merge::group(vec![file("hb-1.json", None), file("hb-1.json", None)])
        .expect_err("one shard twice");
    assert!(matches!(err, MergeError::SameShard { .. }), "{err}");
    // Explicit names merge any files, but not runs made under other limits.
    let mut other = file("old.json", Some("x"));
    other.run.timeout = 10.0;
    let err = merge::group(vec![file("z3.csv", Some("x")), other]).expect_err("limits differ");
    assert_eq!(
        err.to_string(),
        "run `x`: z3.csv and old.json cannot be merged: different solver (`` and `hornbeam`); \
         name them apart with NAME=FILE to compare them"
    );
}

#[test]
fn the_file_by_file_comparison_as_text_and_html() {
    let runs = three_runs();
    let names: Vec<&str> = runs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["hornbeam", "old", "z3"]);
    let c = compare::compare(&runs);
    assert_eq!(c.rows.len(), 6);
    insta::assert_snapshot!("comparison_text", c.to_text());
    insta::assert_snapshot!(
        "comparison_html",
        format!("{}{}", c.summary_html(), c.table_html())
    );
}

#[test]
fn the_page_has_the_comparison_and_a_log_scale_cactus_plot() {
    let page = report::render(&three_runs());
    assert!(page.contains("<h2>File by file</h2>"));
    assert!(page.contains("time per instance (s, log scale)"));
    for decade in [">0.001<", ">0.01<", ">0.1<", ">1<", ">10<", ">100<"] {
        assert!(page.contains(decade), "no tick {decade}");
    }
    assert_eq!(page.matches("<polyline").count(), 3);
    // The merged shards' CPU seconds and largest peak RSS; none recorded for the others.
    assert!(
        page.contains("<td>31.5</td><td>26.7</td><td>312</td>"),
        "{page}"
    );
    assert!(page.contains("<td>40.0</td><td>-</td><td>-</td>"), "{page}");
    // One page: a single inline script (sorting, filtering), nothing fetched.
    assert_eq!(page.matches("<script").count(), 1);
    assert!(!page.contains("<script src") && !page.contains("http://www.w3.org/1999"));
    // A scatter plot per run after the first, a point per file both have a record of.
    assert_eq!(page.matches("<h2>Scatter plots</h2>").count(), 1);
    assert!(page.contains("<circle"), "{page}");
    // One run: no comparison.
    let one = report::render(&three_runs()[..1]);
    assert!(!one.contains("File by file"));
}

#[test]
fn other_solvers_csv_needs_only_path_answer_and_time() {
    let run = output::load(&data("z3.csv")).expect("minimal CSV");
    assert_eq!(run.results.len(), 6);
    let c = &run.results[2];
    assert_eq!(
        (c.path.as_str(), c.track.as_str(), c.answer.as_str(), c.time),
        ("bench/sat/c.smt2", "sat", "sat", 4.0)
    );
    assert_eq!((c.cpu_secs, c.peak_rss_mb, c.wrong), (None, None, false));
    let no_time = output::load(&data("no-time.csv")).expect_err("no time column");
    assert!(matches!(
        no_time,
        LoadError::MissingColumn { column: "time", .. }
    ));
    assert!(no_time
        .to_string()
        .ends_with("no `time` column (needed: path, answer, time)"));
    let bad = output::load(&data("bad-time.csv")).expect_err("bad time");
    assert!(bad
        .to_string()
        .ends_with(":2: bad time `fast` (seconds or MB as a decimal number)"));
    // Written and read back, a run keeps its new fields.
    let merged = &three_runs()[0].1;
    let back = output::from_csv(&output::to_csv(merged), Path::new("x.csv")).expect("csv");
    assert_eq!(back[0].cpu_secs, Some(0.38));
    assert_eq!(back[0].peak_rss_mb, Some(51.2));
}

#[test]
fn old_result_files_are_still_read() {
    let run = output::load(&data("old.json")).expect("old JSON");
    assert_eq!(run.shard, None);
    assert!(run
        .results
        .iter()
        .all(|r| r.cpu_secs.is_none() && r.peak_rss_mb.is_none()));
}

#[test]
fn the_command_merges_shards_and_refuses_overlaps() {
    let dir = scratch("cli");
    let merged = dir.join("merged.json");
    let html = dir.join("r.html");
    let s = |p: &Path| p.to_str().expect("utf-8").to_string();
    let out = hornbeam(&[
        "report",
        &s(&data("hb-1.json")),
        &s(&data("hb-2.json")),
        &format!("z3={}", s(&data("z3.csv"))),
        "--out",
        &s(&html),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let page = std::fs::read_to_string(&html).expect("page");
    assert!(page.contains(">hornbeam (4)<") && page.contains(">z3 (5)<"));
    // --json needs one run.
    let out = hornbeam(&[
        "report",
        &s(&data("hb-1.json")),
        &s(&data("z3.csv")),
        "--json",
        &s(&merged),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("make 2 (hornbeam, z3)"));
    let out = hornbeam(&[
        "report",
        &s(&data("hb-1.json")),
        &s(&data("overlap.json")),
        "--json",
        &s(&merged),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`bench/sat/a.smt2` is in both"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
