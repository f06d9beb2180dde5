//! `hornbeam refine` end to end on the subjects of `tests/data/refine/` (seed 004, Table 1,
//! and a few of our own): each directory holds `abstract.c`, `concrete.c`, `expect` (the
//! paper's answer: `refines` or `does not refine`) and optionally `args` (more arguments,
//! one per line). A directory with a `gap` file (why) is one where Hornbeam answers
//! `unknown`: the test then accepts `unknown` (with a smaller `--max-cuts`, to stay quick)
//! but never the opposite answer. No time limit is given: answers do not depend on timing.
//! The programs of `tests/data/refine-error/` must fail with `FILE:LINE:COL` and status 2.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

fn root(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(sub)
}

fn refine(dir: &Path, extra: &[&str]) -> (String, String, i32) {
    let mut args: Vec<String> = vec![
        "refine".into(),
        dir.join("abstract.c").to_string_lossy().into_owned(),
        dir.join("concrete.c").to_string_lossy().into_owned(),
    ];
    if let Ok(text) = std::fs::read_to_string(dir.join("args")) {
        args.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_owned));
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(BIN)
        .args(&args)
        .output()
        .expect("run hornbeam");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn subjects_get_the_papers_answers() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root("refine"))
        .expect("tests/data/refine")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("expect").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 13, "the subjects of Table 1 are missing");
    let mut failures = vec![];
    for dir in &dirs {
        let expect = std::fs::read_to_string(dir.join("expect")).expect("expect");
        let expect = expect.trim();
        let gap = dir.join("gap").exists();
        let extra: &[&str] = if gap { &["--max-cuts", "200"] } else { &[] };
        let (stdout, stderr, code) = refine(dir, extra);
        let answer = stdout.lines().next().unwrap_or("");
        let ok = code == 0 && (answer == expect || (gap && answer == "unknown"));
        if !ok {
            failures.push(format!(
                "{}: expected {expect}{}, got {answer:?} (status {code})\n{stdout}{stderr}",
                dir.display(),
                if gap { " or unknown" } else { "" }
            ));
        }
        if answer == "does not refine" {
            // The reason names a step of the concrete program (or the environment) and a state.
            assert!(
                stdout.contains("concrete.c:") || stdout.contains("environment step"),
                "{stdout}"
            );
            assert!(stdout.contains("from the state"), "{stdout}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_guessed_relations_answer_out_of_phase_loops() {
    // Without the guess, the iteration cuts an unbounded chain of counter bands.
    let dir = root("refine/loop-unrolling");
    let (plain, _, code) = refine(&dir, &["--no-guess", "--max-cuts", "200"]);
    assert_eq!(code, 0);
    assert_eq!(plain.lines().next(), Some("unknown"), "{plain}");
    let (stdout, stderr, code) = refine(&dir, &[]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().next(), Some("refines"), "{stdout}");
    assert!(stderr.contains("guessed relations, re-checked"), "{stderr}");
}

fn error(abstract_: &Path, concrete: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "refine".to_owned(),
        abstract_.to_string_lossy().into_owned(),
        concrete.to_string_lossy().into_owned(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(BIN)
        .args(&args)
        .output()
        .expect("run hornbeam");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_input_is_located() {
    let ok = root("refine/wrong-hoisting/abstract.c");
    let bad = |f: &str| root("refine-error").join(f);
    let cases: Vec<(String, &str)> = vec![
        (
            error(&ok, &bad("extra-global.c"), &[]),
            "extra-global.c:3:14: global `g`",
        ),
        (
            error(&ok, &bad("division.c"), &[]),
            "division.c:6:7: unsupported: refine: this operator",
        ),
        (
            error(&bad("main-writes.c"), &ok, &[]),
            "main-writes.c:12:3: unsupported: refine: `main` may only",
        ),
        (
            error(&ok, &ok, &["--rel", "a.x == c.q"]),
            "--rel:1:8: the concrete program has no variable `q`",
        ),
        (
            error(&ok, &ok, &["--pre", "x == 1"]),
            "--pre:1:1: `x`: write `a.x`",
        ),
        (
            error(&ok, &ok, &["--rel", "a.x == "]),
            "--rel:1:8: syntax error",
        ),
        (
            error(&ok, &ok, &["--thread", "nope"]),
            "no thread running `nope`",
        ),
    ];
    for (got, want) in cases {
        assert!(got.contains(want), "expected {want:?} in {got:?}");
    }
}

#[test]
fn the_relation_decides() {
    // Moving `t = x + 5` first is fine while ι ignores t, and observable once ι relates t.
    let dir = root("refine/hoisting-quiet-env");
    let run = |rel: &str| {
        let out = Command::new(BIN)
            .args(["refine", "--rel", rel])
            .arg(dir.join("abstract.c"))
            .arg(dir.join("concrete.c"))
            .output()
            .expect("run hornbeam");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let loose = run("a.r == c.r && a.x == c.x");
    assert_eq!(loose.lines().next(), Some("refines"), "{loose}");
    let tight = run("a.r == c.r && a.x == c.x && a.t == c.t");
    assert_eq!(tight.lines().next(), Some("does not refine"), "{tight}");
    assert!(tight.contains("concrete.c:6:3"), "{tight}");
}
