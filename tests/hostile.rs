//! Hostile and degenerate input, end to end: inputs too large to keep as data files are
//! generated here (chains of definitions, of predicates, reused names), and the limits of the
//! command line are exercised (`--timeout` values, `--memory`, a FIFO where a file is expected,
//! a closed pipe). Every case must end with an answer or a located error: no panic, no abort,
//! no signal, no unbounded run. Sizes are the smallest that failed before the fixes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

fn scratch(name: &str) -> PathBuf {
    common::scratch("hostile", name)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

/// Fails unless the run ended normally with `code` and without a panic or Rust's runtime
/// errors on stderr; returns stdout.
fn expect(args: &[&str], code: i32) -> String {
    let out = run(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let what = format!(
        "hornbeam {}\nstatus {}\nstdout {stdout}\nstderr {stderr}",
        args.join(" "),
        out.status
    );
    assert_eq!(out.status.code(), Some(code), "{what}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("fatal runtime error"),
        "{what}"
    );
    stdout
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or_default()
}

/// `(define-fun d_i ((x Int)) Int (ite (> x i) (d_{i-1} x) (* 2 x)))`: a term as deep as the
/// chain is long (it overflowed the main thread's stack in every command but `solve`).
fn definition_chain(n: usize) -> String {
    let mut s = String::from("(set-logic HORN)\n(declare-fun P (Int) Bool)\n");
    s.push_str("(define-fun d0 ((x Int)) Int x)\n");
    for i in 1..n {
        s.push_str(&format!(
            "(define-fun d{i} ((x Int)) Int (ite (> x {i}) (d{} x) (* 2 x)))\n",
            i - 1
        ));
    }
    s.push_str(&format!(
        "(assert (forall ((x Int)) (=> (= x (d{} 1)) (P x))))\n",
        n - 1
    ));
    s.push_str("(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))\n(check-sat)\n");
    s
}

/// A chain of `n` predicates whose clauses all use the variable names `x` and `y`.
fn predicate_chain(n: usize) -> String {
    let mut s = String::from("(set-logic HORN)\n");
    for i in 0..n {
        s.push_str(&format!("(declare-fun P{i} (Int Int) Bool)\n"));
    }
    s.push_str("(assert (forall ((x Int) (y Int)) (=> (= x 0) (P0 x y))))\n");
    for i in 1..n {
        s.push_str(&format!(
            "(assert (forall ((x Int) (y Int)) (=> (and (P{} x y) (= y (+ x 1))) (P{i} y x))))\n",
            i - 1
        ));
    }
    s.push_str(&format!(
        "(assert (forall ((x Int) (y Int)) (=> (and (P{} x y) (< x 0)) false)))\n(check-sat)\n",
        n - 1
    ));
    s
}

#[test]
fn long_definition_chain_in_every_command() {
    let dir = scratch("defs");
    let file = write(&dir, "defs.smt2", &definition_chain(3000));
    let f = file.to_str().unwrap();
    let model = write(
        &dir,
        "model.smt2",
        "(define-fun P ((x Int)) Bool (>= x 0))\n",
    );
    assert_eq!(
        first_line(&expect(
            &["solve", "--deterministic", "--timeout", "20", f],
            0
        )),
        "sat"
    );
    expect(&["print", f], 0);
    expect(&["analyze", f], 0);
    expect(
        &["facts", f, "--out", dir.join("facts").to_str().unwrap()],
        0,
    );
    let checked = expect(&["check", f, model.to_str().unwrap()], 0);
    assert_eq!(first_line(&checked), "valid");
}

#[test]
fn chains_of_predicates_load_and_analyze() {
    let dir = scratch("chain");
    let file = write(&dir, "chain.smt2", &predicate_chain(2000));
    let f = file.to_str().unwrap();
    let analyzed = expect(&["analyze", "--json", f], 0);
    assert!(analyzed.contains("\"loops\":[]"), "{analyzed}");
    expect(&["print", "--preprocessed", f], 0);
    let answer = expect(&["solve", "--timeout", "20", f], 0);
    assert_ne!(first_line(&answer), "unsat");
}

#[test]
fn time_limits_parse_or_are_refused() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/unsat/counter_off_by_one.smt2"
    );
    for t in ["inf", "1e20", "1e300", "18446744073709551615", "0.5"] {
        let out = expect(&["solve", "--engine", "bmc", "--timeout", t, file], 0);
        assert_eq!(first_line(&out), "unsat", "--timeout {t}");
    }
    for t in ["nan", "-1", "soon"] {
        let out = run(&["solve", "--timeout", t, file]);
        assert_eq!(out.status.code(), Some(2), "--timeout {t}");
    }
    let out = run(&["batch", "--timeout", "1e300", "--jobs", "1", file]);
    assert_eq!(out.status.code(), Some(0), "batch --timeout 1e300");
}

#[test]
fn memory_limit_is_an_answer() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sat/counter.smt2");
    let out = run(&["solve", "--memory", "1", file]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(first_line(&String::from_utf8_lossy(&out.stdout)), "unknown");
    assert!(String::from_utf8_lossy(&out.stderr).contains("memory limit"));
    // With --stats the forced answer still has its statistics line, with the reason's kind.
    let out = run(&["solve", "--memory", "1", "--stats", file]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stats: serde_json::Value = stderr
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| panic!("no statistics line in {stderr}"));
    assert_eq!(stats["answer"], "unknown", "{stats}");
    assert_eq!(stats["reason_kind"], "resource", "{stats}");
}

#[cfg(unix)]
#[test]
fn a_fifo_as_model_is_bounded_by_the_time_limit() {
    let dir = scratch("fifo");
    let fifo = dir.join("model");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sat/counter.smt2");
    let out = expect(
        &["check", "--timeout", "1", file, fifo.to_str().unwrap()],
        0,
    );
    assert_eq!(first_line(&out), "unknown");
}

#[test]
fn a_model_for_another_file_is_an_error() {
    let dir = scratch("model");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sat/counter.smt2");
    let model = write(&dir, "model.smt2", "(define-fun Q ((x Int)) Bool true)\n");
    let out = run(&["check", file, model.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":1:13: `Q` is not a predicate"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sat/counter.smt2");
    let mut child = Command::new(BIN)
        .args(["print", file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hornbeam");
    drop(child.stdout.take()); // the reader goes away before anything is read
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_unreadable_file_is_placed_at_1_1() {
    let dir = scratch("unreadable");
    let missing = dir.join("missing.smt2");
    let path = missing.to_str().unwrap();
    let out = run(&["print", path]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!("{path}:1:1: cannot read the file")),
        "{stderr}"
    );
    assert_eq!(stderr.matches(path).count(), 1, "the path once: {stderr}");
}

#[test]
fn division_by_zero_is_unspecified_not_an_internal_error() {
    for file in common::corpus("undecided") {
        let path = file.to_str().unwrap();
        for extra in [&[][..], &["--no-preprocess"][..], &["--engine", "bmc"][..]] {
            let mut args = vec!["solve", path, "--timeout", "3", "--stats"];
            args.extend(extra);
            let out = run(&args);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(first_line(&stdout), "unknown", "{path} {extra:?}: {stderr}");
            assert!(
                !stderr.contains("internal error"),
                "{path} {extra:?}: {stderr}"
            );
            assert!(
                stderr.contains("\"reason_kind\":\"gave-up\"")
                    || stderr.contains("\"reason_kind\":\"timeout\""),
                "{path} {extra:?}: {stderr}"
            );
        }
    }
}
