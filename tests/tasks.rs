//! `hornbeam verify TASK.yml` on the SV-COMP task definitions of `tests/data/svcomp/tasks`
//! (laid out as in sv-benchmarks: `CATEGORY/NAME.yml` beside its program, property files in
//! `properties/`): every property Hornbeam checks is answered, one it does not is reported as
//! unsupported; `--property` selects one and prints a program's output; task files that are
//! wrong are located errors (exit status 2), written at test time.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tasks(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/svcomp/tasks")
        .join(rel)
}

fn hornbeam(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(args)
        .output()
        .expect("run hornbeam")
}

fn verify(task: &Path, extra: &[&str]) -> (String, String, i32) {
    let mut args = vec!["verify", task.to_str().expect("utf-8"), "--deterministic"];
    args.extend(extra);
    let out = hornbeam(&args);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn each_property_of_a_task_gets_its_verdict() {
    let (out, _, code) = verify(&tasks("heap/dll.yml"), &[]);
    assert_eq!(
        (out.as_str(), code),
        ("unreach-call: safe\nvalid-memsafety: safe\n", 0)
    );
    let (out, _, code) = verify(&tasks("loops/arith.yml"), &[]);
    assert_eq!((out.as_str(), code), ("unreach-call: safe\n", 0));
    let (out, _, code) = verify(&tasks("heap/double-free.yml"), &[]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("valid-memsafety: unsafe\n  valid-free: double free at "),
        "{out}"
    );
}

#[test]
fn a_property_hornbeam_does_not_check_is_reported_never_answered() {
    let (out, err, code) = verify(&tasks("loops/count-up.yml"), &[]);
    assert_eq!(
        (out.as_str(), code),
        ("unreach-call: unsafe\ntermination: unsupported\n", 0)
    );
    assert!(err.contains("termination: property `termination`"), "{err}");
    let (_, err, code) = verify(&tasks("loops/count-up.yml"), &["--property", "termination"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("termination.prp: property `termination`"),
        "{err}"
    );
}

#[test]
fn a_selected_property_prints_as_a_program_does() {
    for selected in ["valid-memsafety", "../properties/valid-memsafety.prp"] {
        let (out, _, code) = verify(&tasks("heap/dll.yml"), &["--property", selected]);
        assert_eq!((out.as_str(), code), ("safe\n", 0), "{selected}");
    }
    let (_, err, code) = verify(&tasks("heap/dll.yml"), &["--property", "no-overflow"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "the task has no property `no-overflow` (it has unreach-call, valid-memsafety)"
        ),
        "{err}"
    );
    // The task says LP64.
    let (_, err, code) = verify(&tasks("heap/dll.yml"), &["--data-model", "ILP32"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("contradicts the task's data model LP64"),
        "{err}"
    );
    let (_, err, code) = verify(&tasks("heap/dll.yml"), &["--witness", "/dev/null"]);
    assert_eq!(code, 2);
    assert!(err.contains("--witness needs one property"), "{err}");
}

#[test]
fn a_selected_property_writes_its_witness() {
    let dir = common::scratch("test-tasks", "witness");
    let w = dir.join("w.yml");
    let (out, err, code) = verify(
        &tasks("loops/count-up.yml"),
        &[
            "--property",
            "unreach-call",
            "--witness",
            w.to_str().expect("utf-8"),
        ],
    );
    assert_eq!((out.as_str(), code), ("unsafe\n", 0), "{err}");
    let text = std::fs::read_to_string(&w).expect("witness written");
    assert!(text.contains("violation_sequence"), "{text}");
    // The witness names the program, not the task.
    assert!(text.contains("count-up.c"), "{text}");
}

/// Writes `text` as `NAME.yml` in a scratch folder beside a copy of a program and the
/// property files; returns the task's path.
fn scratch_task(name: &str, text: &str) -> PathBuf {
    let dir = common::scratch("test-tasks", name);
    std::fs::create_dir_all(dir.join("properties")).expect("mkdir");
    std::fs::create_dir_all(dir.join("c")).expect("mkdir");
    for p in ["unreach-call.prp", "valid-memsafety.prp"] {
        std::fs::copy(
            tasks(&format!("properties/{p}")),
            dir.join("properties").join(p),
        )
        .expect("copy");
    }
    std::fs::copy(tasks("loops/arith.c"), dir.join("c/arith.c")).expect("copy");
    let task = dir.join(format!("c/{name}.yml"));
    std::fs::write(&task, text).expect("write");
    task
}

#[test]
fn a_task_file_that_is_wrong_is_a_located_error() {
    let cases = [
        (
            "verdict",
            "format_version: '2.0'\ninput_files: arith.c\nproperties:\n  - property_file: \
             ../properties/unreach-call.prp\n    expected_verdict: banana\n",
            ":5:5: expected_verdict is `true` or `false`, not `banana`",
        ),
        (
            "missing-property",
            "format_version: '2.0'\ninput_files: arith.c\nproperties:\n  - property_file: \
             ../properties/unreach-call.prp\n  - property_file: ../properties/none.prp\n",
            ":5:5: ",
        ),
        (
            "two-inputs",
            "format_version: '2.0'\ninput_files: [a.c, b.c]\nproperties: []\n",
            ":2:1: unsupported: the task has 2 input files",
        ),
        (
            "language",
            "format_version: '2.0'\ninput_files: arith.c\nproperties: []\noptions:\n  \
             language: Java\n",
            ":5:3: unsupported: the task's language is Java",
        ),
        (
            "not-yaml",
            "input_files: [unclosed\n",
            ": not a task definition: ",
        ),
        (
            "version",
            "format_version: '3.7'\ninput_files: arith.c\nproperties: []\n",
            ":1:1: format_version `3.7` is not one of 1.0, 1.1, 2.0",
        ),
    ];
    for (name, text, want) in cases {
        let task = scratch_task(name, text);
        let (_, err, code) = verify(&task, &[]);
        assert_eq!(code, 2, "{name}: {err}");
        let located = format!("{}{want}", task.display());
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&located) || (want.starts_with(": ") && first.contains(want)),
            "{name}: {err}"
        );
    }
}
