//! Hints (`solve --hints FILE`): a user's candidate invariants, from a model file or from a rule
//! file's `hint` relation, reach the engines once filtered to their inductive subset; carried
//! through preprocessing; an answer on their own when they exclude the queries; and never
//! change an answer when they are wrong. Malformed hints get located errors and exit status 2.

mod common;

use std::path::Path;
use std::process::Command;

/// Runs `COMMAND --stats EXTRA... FILE`; returns the first stdout line and the stats.
fn run(command: &[&str], file: &Path, extra: &[&str]) -> (String, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(command)
        .arg("--stats")
        .args(extra)
        .arg(file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stats = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| panic!("no stats in {stderr}"));
    (stdout.lines().next().unwrap_or("").to_string(), stats)
}

/// `solve --timeout 10 --stats EXTRA... FILE`.
fn solve(file: &Path, extra: &[&str]) -> (String, serde_json::Value) {
    run(&["solve", "--timeout", "10"], file, extra)
}

fn data(name: &str) -> String {
    common::data_dir("hints")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn gallery() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules/gallery/chc_invariant_hints.dl")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn wrong_hints_never_change_an_answer() {
    let wrong = data("wrong.dl");
    for (folder, right) in [("sat", "sat"), ("unsat", "unsat")] {
        for file in common::corpus(folder) {
            let (answer, stats) = solve(&file, &["--deterministic", "--hints", &wrong]);
            assert!(
                answer == right || answer == "unknown",
                "{}: {answer} with wrong hints",
                file.display()
            );
            if folder == "unsat" {
                // Every counterexample of `unsat/` is found (as without hints).
                assert_eq!(answer, "unsat", "{}", file.display());
            }
            let h = &stats["hints"];
            assert!(h["given"].as_u64().unwrap() > 0, "{}: {h}", file.display());
            assert_eq!(h["answered"], false, "{}: {h}", file.display());
        }
    }
}

#[test]
fn wrong_clause_advice_never_changes_an_answer() {
    // Leaving out clause 0 and every query: a model of what is left fails the clauses left out
    // (`unknown`), a counterexample only uses clauses kept.
    let wrong = data("drop-wrong.dl");
    for (folder, right) in [("sat", "sat"), ("unsat", "unsat")] {
        for file in common::corpus(folder) {
            let (answer, stats) = solve(&file, &["--deterministic", "--hints", &wrong]);
            assert!(
                answer == right || answer == "unknown",
                "{}: {answer} with wrong advice",
                file.display()
            );
            assert!(stats["hints"]["dropped"].as_u64().unwrap() > 0, "{stats}");
        }
    }
}

#[test]
fn advice_from_the_cone_of_influence_leaves_out_what_no_answer_needs() {
    let cone = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/gallery/chc_cone_of_influence.dl");
    let (answer, stats) = solve(
        Path::new(&data("side.smt2")),
        &["--hints", &cone.to_string_lossy()],
    );
    assert_eq!(answer, "sat");
    assert_eq!(stats["hints"]["dropped"], 1, "{stats}");
}

#[test]
fn the_gallery_hints_prove_a_bounded_sum_alone() {
    let (answer, stats) = solve(Path::new(&data("sum.smt2")), &["--hints", &gallery()]);
    assert_eq!(answer, "sat");
    assert_eq!(stats["engine"], "hints", "{stats}");
    assert_eq!(stats["hints"]["answered"], true, "{stats}");
    // Without hints the engines answer too: the hints changed who answered, not what.
    let (answer, stats) = solve(Path::new(&data("sum.smt2")), &[]);
    assert_eq!(answer, "sat");
    assert_ne!(stats["engine"], "hints");
}

#[test]
fn the_gallery_hints_of_a_system_are_these() {
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(["analyze", "--rules", &gallery(), &data("sum.smt2")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
}

#[test]
fn hints_are_carried_through_preprocessing() {
    let (answer, stats) = solve(
        Path::new(&data("sum-preprocessed.smt2")),
        &["--hints", &data("sum-preprocessed.hints.smt2")],
    );
    assert_eq!(answer, "sat");
    let h = &stats["hints"];
    // Four atoms given: the one over the dead z and mid's (inlined) are lost.
    assert_eq!(
        (h["given"].as_u64(), h["carried"].as_u64()),
        (Some(4), Some(2)),
        "{h}"
    );
    assert_eq!(h["answered"], true, "{h}");
}

#[test]
fn pdr_starts_from_the_hints_that_survive() {
    let file = data("parity.smt2");
    let hints = data("parity.hints.smt2");
    let lemmas = |stats: &serde_json::Value| stats["engine_stats"]["pdr_lemmas"].as_u64();
    let (answer, without) = solve(Path::new(&file), &["--engine", "pdr"]);
    assert_eq!(answer, "sat");
    let (answer, with) = solve(Path::new(&file), &["--engine", "pdr", "--hints", &hints]);
    assert_eq!(answer, "sat");
    assert_eq!(with["engine"], "pdr", "{with}");
    assert_eq!(with["hints"]["kept"], 1, "{with}");
    assert!(lemmas(&with) < lemmas(&without), "{with}\n{without}");
}

#[test]
fn malformed_hints_are_located_errors() {
    let dir = common::scratch("hints", "malformed");
    let cases = [
        (
            "unknown-symbol.dl",
            ".decl hint(p: number, atom: symbol)\nhint(0, \"(<= x0 y)\").\n",
            "unknown-symbol.dl:1:7: the hint `(<= x0 y)` for `inv` is not a formula over its \
             arguments (x0..x1): unknown symbol `y`",
        ),
        (
            "no-such-predicate.dl",
            ".decl hint(p: number, atom: symbol)\nhint(3, \"true\").\n",
            "no-such-predicate.dl:1:7: a hint names predicate 3",
        ),
        (
            "no-such-clause.dl",
            ".decl drop_clause(c: number)\ndrop_clause(7).\n",
            "no-such-clause.dl:1:7: `drop_clause` names clause 7",
        ),
        (
            "columns.dl",
            ".decl hint(p: number)\nhint(0).\n",
            "columns.dl:1:7: `hint` is an agreed relation; its columns are (p: number, atom: symbol)",
        ),
        (
            "arity.smt2",
            "(define-fun inv ((a Int)) Bool (<= a 1))\n",
            "arity.smt2:1:1:",
        ),
    ];
    for (name, text, expected) in cases {
        std::fs::write(dir.join(name), text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
            .current_dir(&dir)
            .args(["solve", "--hints", name, &data("sum.smt2")])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(expected), "{name}: {stderr}");
    }
}

/// `verify --timeout 20 --stats --deterministic --no-testing EXTRA... FILE`.
fn verify(file: &str, extra: &[&str]) -> (String, serde_json::Value) {
    let command = [
        "verify",
        "--timeout",
        "20",
        "--deterministic",
        "--no-testing",
    ];
    run(&command, Path::new(file), extra)
}

fn c_gallery() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules/gallery/c_loop_hints.dl")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn loop_hints_reach_the_engines_of_verify() {
    let (answer, stats) = verify(&data("count-to-n.c"), &["--hints", &c_gallery()]);
    assert_eq!(answer, "safe");
    let h = &stats["hints"];
    assert!(h["kept"].as_u64().unwrap() >= 2, "{stats}");
    assert_eq!(h["answered"], true, "{stats}");
}

#[test]
fn wrong_loop_hints_never_change_a_verdict() {
    let wrong = data("wrong-loop.dl");
    for (file, right) in [("count-to-n.c", "safe"), ("count-past-n.c", "unsafe")] {
        let (answer, stats) = verify(&data(file), &["--hints", &wrong]);
        assert_eq!(answer, right, "{file}: {stats}");
        let h = &stats["hints"];
        // The hint over a name no loop head has is left out, not an error.
        assert_eq!(h["unread"], 1, "{file}: {h}");
        assert_eq!(h["answered"], false, "{file}: {h}");
    }
}

#[test]
fn a_loop_hint_rule_with_the_wrong_columns_is_a_located_error() {
    let dir = common::scratch("hints", "loop-columns");
    std::fs::write(
        dir.join("bad.dl"),
        ".decl loop_hint(f: number, atom: symbol)\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .current_dir(&dir)
        .args(["verify", "--hints", "bad.dl", &data("count-to-n.c")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(
            "bad.dl:1:7: `loop_hint` is an agreed relation; its columns are (f: number, \
             l: number, atom: symbol)"
        ),
        "{stderr}"
    );
}
