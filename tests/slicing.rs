//! The formula slicing engine on the paper's examples (Karpenkov and Monniaux, HVC 2016),
//! written as CHC from its text in `tests/data/slicing/`: each must answer `sat` with a model the
//! validator accepts, and the invariants are snapshotted. An unsafe system must never get `sat`.

use hornbeam::chc::System;
use hornbeam::clock::Deadline;
use hornbeam::engine::slicing::{Slicing, Weakening};
use hornbeam::engine::{Context, Engine, Stats};
use hornbeam::term::TermStore;
use hornbeam::witness::{validate_model, Answer, ModelCheck};
use std::time::Duration;

fn load(store: &TermStore, name: &str) -> System {
    let path = format!("{}/tests/data/slicing/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("test file");
    hornbeam::syntax::read_system(store, &src).expect("test system parses")
}

/// Solves `name` with `engine`; returns the answer's keyword, the printed model (if `sat`, after
/// checking it with the validator) and the statistics.
fn solve(name: &str, engine: &Slicing) -> (String, String, Stats) {
    let store = TermStore::new();
    let system = load(&store, name);
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(60)));
    let mut stats = Stats::default();
    let answer = engine.solve(&cx, &system, &mut stats);
    let printed = match &answer {
        Answer::Sat(m) => {
            let check =
                validate_model(&store, &system, m, Deadline::after(Duration::from_secs(60)));
            assert_eq!(check, ModelCheck::Valid, "{name}: model must validate");
            m.to_smtlib(&store, &system)
        }
        Answer::Unsat(_) => panic!("{name}: slicing never answers unsat"),
        Answer::Unknown(r) => r.to_string(),
    };
    (answer.keyword().to_string(), printed, stats)
}

#[test]
fn fig1_sign_of_x_preserved_by_doubling() {
    let (answer, model, stats) = solve("fig1-sign.smt2", &Slicing::default());
    assert_eq!(answer, "sat", "{model}");
    // keeps p ≠ 0 ⇒ x ≥ 0 and p = 0 ⇒ x < 0, drops i = 0
    assert!(
        model.contains("(or (>= x!") && model.contains("(< x!"),
        "{model}"
    );
    assert!(!model.contains("(= i"), "i = 0 must be dropped: {model}");
    assert_eq!(stats.to_json()["lemmas_seeded"], 3);
    assert_eq!(stats.to_json()["lemmas_dropped"], 1);
    insta::assert_snapshot!("fig1", model);
}

#[test]
fn fig1_syntactic_weakening_loses_the_sign() {
    // x is modified by the loop, so the syntactic weakening drops both sign lemmas (Sec. 6.1).
    let engine = Slicing {
        weakening: Weakening::Syntactic,
        ..Slicing::default()
    };
    let (answer, _, stats) = solve("fig1-sign.smt2", &engine);
    assert_eq!(answer, "unknown");
    assert_eq!(stats.to_json()["lemmas_dropped"], 3);
}

#[test]
fn fig3_nested_loops_paper_run() {
    // Without liveness pruning the candidates are those of the run in Sec. 5.1: x = 0, y = 0
    // dropped from A; y = 0 (inner loop) and x = 1 (after A's x = 0 goes) dropped from B;
    // c = 100 kept in B. The paper lists only `s ⇒ p = 1` of the two implications RCNF
    // produces from `(p = 1 ∧ s) ∨ (p = 2 ∧ ¬s)`; `¬s ⇒ p = 2` is inductive as well.
    let engine = Slicing {
        prune_dead: false,
        ..Slicing::default()
    };
    let (answer, model, stats) = solve("fig3-nested.smt2", &engine);
    assert_eq!(answer, "sat", "{model}");
    assert_eq!(stats.to_json()["lemmas_dead"], 0);
    // seeds: A = {x = 0, y = 0, p = 1 ∨ p = 2, s ⇒ p = 1, ¬s ⇒ p = 2}, B = A's lemmas with
    // x = 1 for x = 0, plus c = 100; dropped: y = 0 from B, x = 0 and y = 0 from A, x = 1 from B
    assert_eq!(stats.to_json()["lemmas_seeded"], 11);
    assert_eq!(stats.to_json()["lemmas_dropped"], 4);
    insta::assert_snapshot!("fig3_paper_run", model);
}

#[test]
fn fig3_nested_loops_with_liveness() {
    // x and y are dead (no guard reads them): their lemmas are never seeded.
    let (answer, model, stats) = solve("fig3-nested.smt2", &Slicing::default());
    assert_eq!(answer, "sat", "{model}");
    assert_eq!(stats.to_json()["lemmas_dead"], 2);
    insta::assert_snapshot!("fig3_live", model);
}

#[test]
fn unsafe_system_is_never_sat() {
    for weakening in [Weakening::Cex, Weakening::Syntactic] {
        let engine = Slicing {
            weakening,
            ..Slicing::default()
        };
        let (answer, reason, _) = solve("unsafe-doubling.smt2", &engine);
        assert_eq!(answer, "unknown", "{reason}");
    }
}

#[test]
fn cli_solves_with_slicing() {
    let path = format!(
        "{}/tests/data/slicing/fig1-sign.smt2",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(["solve", &path, "--engine", "slicing", "--stats", "--model"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.starts_with("sat\n(define-fun loop"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(stderr.lines().last().unwrap_or("")).expect("stats JSON");
    assert_eq!(json["engine"], "slicing");
    assert_eq!(json["engine_stats"]["weakening"], "cex");
    assert!(json["engine_stats"]["smt_calls_per_weakening"].is_object());
}
