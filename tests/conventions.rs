//! Other solvers' conventions, end to end: standard input (`-`), gzip-compressed files,
//! `(get-model)` in the script, the model formats of `--model-format`, and Z3's fixedpoint
//! format (`tests/data/fixedpoint/{sat,unsat}`: the folder is the answer Z3 prints, `sat` when
//! the query is derivable); and what `check` says about a model that is not one (no
//! definitions for the file's predicates; values that break a violated clause).

mod common;

use common::{corpus, data_dir};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

/// Runs hornbeam with `stdin` piped in; fails on a panic.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    // A command that does not read its input may close the pipe first: not an error here.
    let _ = child.stdin.take().expect("piped").write_all(stdin);
    let out = child.wait_with_output().expect("hornbeam runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "hornbeam {}: {stderr}",
        args.join(" ")
    );
    out
}

/// stdout of a run that must exit with `code`.
fn expect(args: &[&str], stdin: &[u8], code: i32) -> String {
    let out = run(args, stdin);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "hornbeam {}\nstdout {stdout}\nstderr {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("conventions", name)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).expect("compress");
    e.finish().expect("compress")
}

fn safe_file() -> PathBuf {
    data_dir("sat").join("counter.smt2")
}

fn unsafe_file() -> PathBuf {
    corpus("unsat")[0].clone()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn standard_input_is_dash() {
    let src = std::fs::read(safe_file()).unwrap();
    let from_file = expect(
        &["solve", "--deterministic", s(&safe_file()), "--model"],
        b"",
        0,
    );
    let from_stdin = expect(&["solve", "--deterministic", "-", "--model"], &src, 0);
    assert_eq!(from_stdin, from_file);
    // The model can come from standard input too.
    let model: String = from_file
        .lines()
        .skip(1)
        .map(|l| l.to_owned() + "\n")
        .collect();
    assert_eq!(
        expect(&["check", s(&safe_file()), "-"], model.as_bytes(), 0),
        "valid\n"
    );
    // Errors name standard input as such.
    let out = run(&["print", "-"], b"(set-logic HORN)\n(assert");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("<stdin>:2:8: "), "{err}");
}

#[test]
fn gzip_input_everywhere() {
    let dir = scratch("gzip");
    let src = std::fs::read(safe_file()).unwrap();
    let gz = dir.join("safe.smt2.gz");
    std::fs::write(&gz, gzip(&src)).unwrap();
    let plain = expect(&["print", s(&safe_file())], b"", 0);
    assert_eq!(expect(&["print", s(&gz)], b"", 0), plain);
    let solved = expect(&["solve", "--deterministic", s(&gz), "--model"], b"", 0);
    assert!(solved.starts_with("sat\n"), "{solved}");
    let model = dir.join("model.txt.gz");
    let lines: String = solved
        .lines()
        .skip(1)
        .map(|l| l.to_owned() + "\n")
        .collect();
    std::fs::write(&model, gzip(lines.as_bytes())).unwrap();
    assert_eq!(expect(&["check", s(&gz), s(&model)], b"", 0), "valid\n");
    // Recognised by content: compressed standard input works, a misnamed file too.
    assert_eq!(expect(&["print", "-"], &gzip(&src), 0), plain);
    // A damaged stream is an error about the file as a whole.
    let bad = dir.join("bad.smt2.gz");
    let mut bytes = gzip(&src);
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&bad, bytes).unwrap();
    let out = run(&["solve", s(&bad)], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "{}:1:1: cannot read the file: gzip",
            bad.display()
        )),
        "{err}"
    );
}

#[test]
fn get_model_in_the_script() {
    let mut src = std::fs::read_to_string(safe_file()).unwrap();
    src.push_str("(get-model)\n");
    let out = expect(&["solve", "--deterministic", "-"], src.as_bytes(), 0);
    assert!(out.starts_with("sat\n(\n  (define-fun "), "{out}");
    assert!(out.ends_with("\n)\n"), "{out}");
    let model: String = out.lines().skip(1).map(|l| l.to_owned() + "\n").collect();
    let dir = scratch("get-model");
    let m = dir.join("model.smt2");
    std::fs::write(&m, model).unwrap();
    assert_eq!(
        expect(&["check", s(&safe_file()), s(&m)], b"", 0),
        "valid\n"
    );

    let mut src = std::fs::read_to_string(unsafe_file()).unwrap();
    src.push_str("(get-model)\n");
    let out = expect(&["solve", "-", "--engine", "bmc"], src.as_bytes(), 0);
    assert_eq!(out, "unsat\n(error \"model is not available\")\n");
}

#[test]
fn model_formats_read_back() {
    let dir = scratch("formats");
    for (format, start) in [
        ("lines", "(define-fun "),
        ("smtlib", "(\n  (define-fun "),
        ("chc-comp", "(model\n  (define-fun "),
    ] {
        let out = expect(
            &[
                "solve",
                "--deterministic",
                s(&safe_file()),
                "--model-format",
                format,
            ],
            b"",
            0,
        );
        let model = out.strip_prefix("sat\n").expect("sat first");
        assert!(model.starts_with(start), "{format}: {model}");
        let m = dir.join(format!("{format}.txt"));
        std::fs::write(&m, model).unwrap();
        assert_eq!(
            expect(&["check", s(&safe_file()), s(&m)], b"", 0),
            "valid\n",
            "{format}"
        );
    }
}

/// The answer Z3 prints for a fixedpoint file, when its binary is at hand and it answers.
fn z3_answer(path: &Path) -> Option<String> {
    let z3 = env!("HORNBEAM_Z3_BIN");
    let out = Command::new(z3).arg(path).output().ok()?;
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()?
        .to_owned();
    matches!(first.as_str(), "sat" | "unsat").then_some(first)
}

#[test]
fn fixedpoint_format_answers_as_z3() {
    for answer in ["sat", "unsat"] {
        for file in corpus(&format!("fixedpoint/{answer}")) {
            let out = expect(&["solve", "--deterministic", s(&file)], b"", 0);
            assert_eq!(out.lines().next(), Some(answer), "{}", file.display());
            if let Some(z3) = z3_answer(&file) {
                assert_eq!(z3, answer, "Z3 on {}", file.display());
            }
            // Printed, the same clauses are an SMT-LIB script whose question is the opposite
            // one: do the clauses have a model?
            let printed = expect(&["print", s(&file)], b"", 0);
            let horn = expect(&["solve", "--deterministic", "-"], printed.as_bytes(), 0);
            let opposite = if answer == "sat" { "unsat" } else { "sat" };
            assert_eq!(horn.lines().next(), Some(opposite), "{}", file.display());
        }
    }
}

#[test]
fn check_refuses_a_model_that_defines_none_of_the_predicates() {
    for model in ["", "; nothing\n", "sat\n()\n", "(model)\n"] {
        let out = run(&["check", s(&safe_file()), "-"], model.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{model:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("<stdin>:1:1: the model defines none of the predicates of"),
            "{err}"
        );
    }
    let out = run(&["check", "-", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_shows_values_that_break_the_clause() {
    // counter.smt2: x := 0; while (x < 10) x++. This model (x <= 0) is not inductive: from
    // x in [-1, 0] one step reaches y = x + 1 > 0.
    let model = "(define-fun inv ((x Int)) Bool (and (<= x 0) (>= x (- 1))))\n";
    let out = expect(&["check", s(&safe_file()), "-"], model.as_bytes(), 1);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("; values that break it: "))
        .unwrap_or_else(|| panic!("no values in\n{out}"));
    let values: Vec<(String, i64)> = line
        .split(", ")
        .map(|kv| {
            let (k, v) = kv.split_once(" = ").expect("name = value");
            let v = v.replace("(- ", "-").replace(')', "");
            (k.to_owned(), v.parse().expect("an integer"))
        })
        .collect();
    assert_eq!(values.len(), 2, "{line}");
    let (x, y) = match values[0].0.starts_with('x') {
        true => (values[0].1, values[1].1),
        false => (values[1].1, values[0].1),
    };
    assert!((-1..=0).contains(&x) && y == x + 1, "{line}");
}
