//! `hornbeam batch` over SV-COMP tasks (a module of `tests/batch.rs`): the folder
//! `tests/data/svcomp/tasks` and its set file `all.set` give one record per (task, property)
//! Hornbeam checks, with the task's expected verdict, scored as SV-COMP scores; the programs
//! beside the tasks are not run on their own; `--property` selects; `--witness-dir` keeps the
//! witnesses; tasks that lie about their verdict (written at test time) are wrong answers, a
//! wrong subproperty included, in the records, the scores, the report and the exit status.

use super::{hornbeam, load, scratch};
use ::hornbeam::batch::{Record, Run};
use std::path::{Path, PathBuf};

fn tasks() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/svcomp/tasks")
}

/// Runs a batch writing JSON to `dir/r.json`; returns (the run, stderr, exit status).
fn batch(dir: &Path, inputs: &[&Path], extra: &[&str]) -> (Run, String, i32) {
    let json = dir.join("r.json");
    let mut args = vec!["batch", "--timeout", "20", "--jobs", "2"];
    args.extend(inputs.iter().map(|p| p.to_str().expect("utf-8")));
    args.extend(["--json", json.to_str().expect("utf-8")]);
    args.extend(extra);
    let out = hornbeam(&args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(json.is_file(), "{err}");
    (load(&json), err, out.status.code().unwrap_or(-1))
}

/// `task.yml#property` → (answer, expected) of each record, sorted.
fn outcomes(run: &Run) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = run
        .results
        .iter()
        .map(|r: &Record| {
            let name = Path::new(&r.path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let key = format!("{name}#{}", r.property.clone().unwrap_or_default());
            (key, r.verdict(), r.expected.clone().unwrap_or_default())
        })
        .collect();
    v.sort();
    v
}

const HONEST: [(&str, &str, &str); 5] = [
    ("arith.yml#unreach-call", "true", "true"),
    ("count-up.yml#unreach-call", "false", "false"),
    ("dll.yml#unreach-call", "true", "true"),
    ("dll.yml#valid-memsafety", "true", "true"),
    (
        "double-free.yml#valid-memsafety",
        "false(valid-free)",
        "false(valid-free)",
    ),
];

fn honest() -> Vec<(String, String, String)> {
    HONEST
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

#[test]
fn a_folder_of_tasks_runs_each_property_and_scores_it() {
    let dir = scratch("tasks-folder");
    let (run, err, code) = batch(&dir, &[&tasks()], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(outcomes(&run), honest(), "{err}");
    assert!(run.results.iter().all(|r| !r.wrong));
    // Not run: termination; the programs beside the tasks are run only through them.
    assert!(
        err.contains("not run, Hornbeam does not check the property: termination 1"),
        "{err}"
    );
    assert!(!run.results.iter().any(|r| r.path.ends_with(".c")));
    // 2 + 1 + 2 + 2 + 1, per category and overall, in the summary and the JSON.
    assert!(err.contains("heap"), "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).expect("json"))
            .expect("valid JSON");
    assert_eq!(json["scores"]["svcomp_total"]["score"], 8);
    assert_eq!(json["scores"]["svcomp"]["heap"]["score"], 5);
    assert_eq!(json["scores"]["svcomp"]["loops"]["score"], 3);
    // The set file names the same tasks.
    let dir = scratch("tasks-set");
    let (run, err, code) = batch(&dir, &[&tasks().join("all.set")], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(outcomes(&run), honest(), "{err}");
}

#[test]
fn a_property_is_selected_and_witnesses_are_kept() {
    let dir = scratch("tasks-witnesses");
    let witnesses = dir.join("w");
    let (run, err, code) = batch(
        &dir,
        &[&tasks()],
        &[
            "--property",
            "../properties/unreach-call.prp",
            "--witness-dir",
            witnesses.to_str().expect("utf-8"),
            "--csv",
            dir.join("r.csv").to_str().expect("utf-8"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let keys: Vec<String> = outcomes(&run).into_iter().map(|o| o.0).collect();
    assert_eq!(
        keys,
        [
            "arith.yml#unreach-call",
            "count-up.yml#unreach-call",
            "dll.yml#unreach-call"
        ]
    );
    for r in &run.results {
        let w = r.witness.as_deref().unwrap_or_else(|| panic!("{r:?}"));
        assert!(Path::new(w).is_file(), "{w}");
        assert!(w.contains("/loops/") || w.contains("/heap/"), "{w}");
    }
    let csv = std::fs::read_to_string(dir.join("r.csv")).expect("csv");
    let header = csv
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap_or_default();
    assert!(
        header.ends_with(",property,violated,witness,score"),
        "{header}"
    );
}

/// Copies the task folder into `dir` with `find` replaced by `with` in the task `rel`.
fn lying_copy(dir: &Path, rel: &str, find: &str, with: &str) -> PathBuf {
    let root = dir.join("tasks");
    super::copy_dir(&tasks(), &root);
    let task = root.join(rel);
    let text = std::fs::read_to_string(&task).expect("task");
    assert!(text.contains(find));
    std::fs::write(&task, text.replacen(find, with, 1)).expect("write");
    root
}

#[test]
fn an_answer_against_the_task_s_verdict_is_wrong_everywhere() {
    // `count-up` claims its error unreachable: the answer `false` is wrong (-16).
    let dir = scratch("tasks-lying");
    let root = lying_copy(
        &dir,
        "loops/count-up.yml",
        "expected_verdict: false",
        "expected_verdict: true",
    );
    let report = dir.join("r.html");
    let (run, err, code) = batch(
        &dir,
        &[&root.join("loops")],
        &["--report", report.to_str().expect("utf-8")],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("WRONG ANSWER"), "{err}");
    let wrong: Vec<&Record> = run.results.iter().filter(|r| r.wrong).collect();
    assert_eq!(wrong.len(), 1, "{err}");
    assert_eq!(wrong[0].property.as_deref(), Some("unreach-call"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).expect("json"))
            .expect("valid JSON");
    assert_eq!(json["scores"]["svcomp"]["loops"]["score"], 2 - 16);
    assert_eq!(json["scores"]["svcomp_total"]["wrong_false"], 1);
    let html = std::fs::read_to_string(&report).expect("report");
    assert!(
        html.contains("<td class=\"bad\">1</td>") && html.contains("<td>-14</td>"),
        "the report shows the wrong answer and the score"
    );

    // A violation of another subproperty than the task's is wrong too.
    let dir = scratch("tasks-subproperty");
    let root = lying_copy(
        &dir,
        "heap/double-free.yml",
        "subproperty: valid-free",
        "subproperty: valid-deref",
    );
    let (run, err, code) = batch(
        &dir,
        &[&root.join("heap")],
        &["--property", "valid-memsafety"],
    );
    assert_eq!(code, 1, "{err}");
    let wrong: Vec<&Record> = run.results.iter().filter(|r| r.wrong).collect();
    assert_eq!(wrong.len(), 1, "{err}");
    assert_eq!(wrong[0].verdict(), "false(valid-free)");
    assert_eq!(wrong[0].expected.as_deref(), Some("false(valid-deref)"));
}

#[test]
fn a_task_that_cannot_be_read_is_its_own_error_record() {
    let dir = scratch("tasks-broken");
    let root = lying_copy(
        &dir,
        "loops/arith.yml",
        "expected_verdict: true",
        "expected_verdict: maybe",
    );
    let (run, err, code) = batch(&dir, &[&root.join("loops")], &[]);
    assert_eq!(code, 0, "{err}");
    let broken = run
        .results
        .iter()
        .find(|r| r.path.ends_with("arith.yml"))
        .expect("a record");
    assert_eq!(broken.answer, "error");
    assert!(
        broken.reason.contains("arith.yml:8:5: expected_verdict"),
        "{}",
        broken.reason
    );
    assert!(run
        .results
        .iter()
        .any(|r| r.path.ends_with("count-up.yml") && r.answer == "unsafe"));
}
