//! `hornbeam validate PROGRAM WITNESS`: the witnesses `verify` writes for programs of
//! `tests/data/c` are confirmed (correctness witnesses of loop-free programs with calls
//! included: what they leave open is solved for); mutated ones are rejected where they fail
//! (an invariant made false or too weak, a waypoint's value changed, the target moved); the
//! hand-written witnesses of `tests/data/svcomp/witnesses` (another tool's style: no casts, a
//! column at the `(`) are confirmed or rejected as they deserve; a witness of another program
//! or one that is no witness is not confirmed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn hornbeam(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(args)
        .output()
        .expect("run hornbeam");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The witness `verify` writes for `tests/data/c/<rel>` (its first line must be `answer`).
fn witness_of(rel: &str, answer: &str, name: &str) -> (PathBuf, String) {
    witness_with(rel, answer, name, &[])
}

/// [`witness_of`] with more arguments for `verify` (a property, say).
fn witness_with(rel: &str, answer: &str, name: &str, more: &[&str]) -> (PathBuf, String) {
    let dir = common::scratch("test-validate", name);
    let w = dir.join("w.yml");
    let program = data(&format!("c/{rel}"));
    let mut args = vec![
        "verify",
        program.to_str().expect("utf-8"),
        "--deterministic",
        "--witness",
        w.to_str().expect("utf-8"),
    ];
    args.extend(more);
    let (out, err, _) = hornbeam(&args);
    assert!(out.starts_with(answer), "{rel}: {out}{err}");
    let text = std::fs::read_to_string(&w).unwrap_or_else(|e| panic!("{rel}: {e}: {err}"));
    (program, text)
}

/// `validate` on `program` and the witness `text` (written to a scratch file): its two lines.
fn validate(program: &Path, text: &str, name: &str) -> (String, String) {
    let dir = common::scratch("test-validate", name);
    let w = dir.join("w.yml");
    std::fs::write(&w, text).expect("write");
    let (out, err, code) = hornbeam(&[
        "validate",
        program.to_str().expect("utf-8"),
        w.to_str().expect("utf-8"),
        "--timeout",
        "60",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let mut lines = out.lines();
    let first = lines.next().unwrap_or_default().to_owned();
    (first, lines.next().unwrap_or_default().to_owned())
}

/// Every invariant's value replaced by `value`.
fn with_values(text: &str, value: &str) -> String {
    text.lines()
        .map(|l| match l.split_once("value: ") {
            Some((indent, _)) if !l.contains("\\result") => format!("{indent}value: '{value}'"),
            _ => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn correctness_witnesses_are_confirmed_and_their_mutations_rejected() {
    for (k, rel) in [
        "safe/count-to-constant.c",
        "safe/fs-fig1.c",
        "safe/sr-fig2.c",
        "safe/static-locals.c",
        "safe/functions.c",
        "safe/witness-euclidean-division.c",
        "safe/witness-pointer-bound.c",
        "safe/witness-struct-members.c",
    ]
    .into_iter()
    .enumerate()
    {
        let (program, text) = witness_of(rel, "safe", &format!("c{k}"));
        let (verdict, why) = validate(&program, &text, &format!("c{k}-original"));
        assert_eq!(verdict, "confirmed", "{rel}: {why}\n{text}");
        // `0` does not hold when the loop is first reached, nor at the start of `main` (where
        // the witness states `1` when it has no loop invariant: two programs have no loop, and
        // `*p`'s bound is no C expression over the loop's variables).
        let false_ = with_values(&text, "0");
        let (verdict, why) = validate(&program, &false_, &format!("c{k}-false"));
        assert_eq!(verdict, "rejected", "{rel}: {why}");
    }
    // Too weak: the property needs fs-fig1's loop invariant.
    let (program, text) = witness_of("safe/fs-fig1.c", "safe", "weak");
    let (verdict, why) = validate(&program, &with_values(&text, "1"), "weak-1");
    assert_eq!(verdict, "rejected", "{why}");
    assert!(
        why.contains("fs-fig1.c:12:3: the invariants do not imply the property"),
        "{why}"
    );
}

#[test]
fn a_shape_proof_s_witness_is_confirmed_by_a_proof_of_the_program() {
    // The forests have no C expression: the witness states `1` at `main`'s start, which
    // claims nothing, and the validator proves the program (the shape engine again). The
    // clauses do not model the second program at all (`container_of`): its witness is
    // found in the syntax tree, and validated by the shape engine alone.
    for (k, rel) in [
        "shape-safe/list-of-circular-dlls.c",
        "shape-safe/linux-list.c",
    ]
    .into_iter()
    .enumerate()
    {
        let memsafety = ["--property", "valid-memsafety"];
        let (program, text) = witness_with(rel, "safe", &format!("shape{k}"), &memsafety);
        assert!(text.contains("value: '1'"), "{text}");
        let dir = common::scratch("test-validate", &format!("shape{k}-v"));
        let w = dir.join("w.yml");
        std::fs::write(&w, &text).expect("write");
        let mut args = vec![
            "validate",
            program.to_str().expect("utf-8"),
            w.to_str().expect("utf-8"),
        ];
        args.extend(memsafety);
        let (out, err, code) = hornbeam(&args);
        assert_eq!(code, 0, "{rel}: {out}{err}");
        assert!(out.starts_with("confirmed\n"), "{rel}: {out}");
        assert!(out.contains("proved safe (shape)"), "{rel}: {out}");
        std::fs::write(&w, with_values(&text, "0")).expect("write");
        let (out, err, code) = hornbeam(&args);
        assert_eq!(code, 0, "{rel}: {out}{err}");
        assert!(out.starts_with("rejected\n"), "{rel}: {out}");
    }
}

#[test]
fn violation_witnesses_are_confirmed_and_their_mutations_rejected() {
    let (program, text) = witness_of("unsafe/array-vla.c", "unsafe", "v");
    assert_eq!(validate(&program, &text, "v-original").0, "confirmed");
    // `n` is 7 on the way to the error; 1 takes no path to it.
    let changed = text.replace("\\result == 7", "\\result == 1");
    assert_ne!(changed, text);
    let (verdict, why) = validate(&program, &changed, "v-value");
    assert_eq!(
        (verdict.as_str(), why.contains("does not reach the error")),
        ("rejected", true)
    );
    // The target one line down.
    let moved = text.replace("line: 9\n", "line: 10\n");
    assert_ne!(moved, text);
    let (verdict, why) = validate(&program, &moved, "v-moved");
    assert_eq!(verdict, "rejected");
    assert!(why.ends_with("not at the target 10:30"), "{why}");
}

#[test]
fn violation_witnesses_hold_the_values_that_decide_the_path() {
    // Twenty array values and `k` are drawn; the error needs `a[1] == 3` and `k == 7`.
    let (program, text) = witness_of("unsafe/witness-value-prefix.c", "unsafe", "prefix");
    let returns = text.matches("function_return").count();
    assert_eq!(returns, 3, "{text}");
    assert_eq!(validate(&program, &text, "prefix-original").0, "confirmed");
    let changed = text.replace("\\result == 3", "\\result == 4");
    assert_ne!(changed, text);
    assert_eq!(validate(&program, &changed, "prefix-value").0, "rejected");
}

#[test]
fn witnesses_in_another_tool_s_style_are_read() {
    let program = data("c/safe/fs-fig1.c");
    let read =
        |f: &str| std::fs::read_to_string(data(&format!("svcomp/witnesses/{f}"))).expect("witness");
    let (verdict, why) = validate(&program, &read("fs-fig1.right.yml"), "right");
    assert_eq!(verdict, "confirmed", "{why}");
    let (verdict, why) = validate(&program, &read("fs-fig1.wrong.yml"), "wrong");
    assert_eq!(verdict, "rejected", "{why}");
    assert!(
        why.contains("fs-fig1.c:12:3: the invariant here does not hold"),
        "{why}"
    );
    // For another program: its hash says so.
    let (verdict, why) = validate(
        &data("c/safe/count-to-constant.c"),
        &read("fs-fig1.right.yml"),
        "other",
    );
    assert_eq!(verdict, "unknown", "{why}");
}

#[test]
fn what_is_no_witness_is_a_located_error() {
    let dir = common::scratch("test-validate", "malformed");
    let w = dir.join("w.yml");
    std::fs::write(
        &w,
        "- entry_type: invariant_set\n  content:\n  - invariant: {value: '1'}\n",
    )
    .expect("write");
    let program = data("c/safe/fs-fig1.c");
    let (_, err, code) = hornbeam(&[
        "validate",
        program.to_str().expect("utf-8"),
        w.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("w.yml:3:5: an invariant has a location"),
        "{err}"
    );
    std::fs::write(&w, "- entry_type: [unclosed\n").expect("write");
    let (_, err, code) = hornbeam(&[
        "validate",
        program.to_str().expect("utf-8"),
        w.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not a witness"), "{err}");
}
