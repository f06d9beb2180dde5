//! The PDR engine on the hand-written corpus: every answer it gives is right and checked (a
//! validated model, a replayed derivation), and the files under `tests/data/pdr/` — transition
//! systems whose invariants are disjunctive or span two predicates, and a non-linear recursion
//! whose counterexample is a deep call tree — are answered.

mod common;

use common::corpus;
use hornbeam::chc::System;
use hornbeam::clock::Deadline;
use hornbeam::engine::pdr::Pdr;
use hornbeam::engine::{Candidates, Context, Engine, Stats};
use hornbeam::term::{Op, TermStore};
use hornbeam::witness::{replay_derivation, validate_model, Answer, Interp, Model, ModelCheck};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// PDR's answer on a file within `secs`, with the store and system it is about.
fn solve(path: &Path, secs: u64) -> (TermStore, System, Answer) {
    let store = TermStore::new();
    let src = std::fs::read_to_string(path).expect("test file");
    let system = hornbeam::syntax::read_system(&store, &src).expect("parses");
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(secs)));
    let answer = Pdr::default().solve(&cx, &system, &mut Stats::default());
    (store, system, answer)
}

/// PDR's answer on a file within `secs`, and whether its witness checks.
fn check(path: &Path, secs: u64) -> (Answer, bool) {
    let (store, system, answer) = solve(path, secs);
    let ok = match &answer {
        Answer::Sat(m) => validate_model(&store, &system, m, Deadline::none()) == ModelCheck::Valid,
        Answer::Unsat(d) => replay_derivation(&store, &system, d).is_ok(),
        Answer::Unknown(_) => true,
    };
    (answer, ok)
}

#[test]
fn pdr_proves_the_disjunctive_and_multi_predicate_systems() {
    for path in corpus("pdr/sat") {
        let (answer, ok) = check(&path, 30);
        assert_eq!(answer.keyword(), "sat", "{}: {answer:?}", path.display());
        assert!(ok, "{}: the model must validate", path.display());
    }
}

#[test]
fn pdr_finds_the_disjunctive_invariant_of_the_mode_switch() {
    let path = common::data_dir("pdr/sat").join("mode_switch.smt2");
    let (store, system, answer) = solve(&path, 30);
    let Answer::Sat(model) = answer else {
        panic!("PDR must prove mode_switch.smt2");
    };
    // The lemmas are clauses over the file's own atoms: `y <= 0 or x >= 10` among them.
    insta::assert_snapshot!(model.to_smtlib(&store, &system));
}

#[test]
fn pdr_seeded_with_an_invariant_it_cannot_state_proves_with_it() {
    // `x mod 2 = 0` is not a literal of the clauses; the portfolio hands such candidates over.
    let path = common::data_dir("pdr/seeded").join("even_counter.smt2");
    let store = TermStore::new();
    let src = std::fs::read_to_string(&path).expect("test file");
    let system = hornbeam::syntax::read_system(&store, &src).expect("parses");
    let p = system.pred_ids().next().expect("one predicate");
    let params = system.fresh_params(&store, p);
    let x = store.var(params[0]);
    let even = store.eq(store.app(Op::Mod, vec![x, store.int(2)]), store.int(0));
    let mut seeds = Model::new();
    seeds.set(p, Interp { params, body: even });
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(30)));
    let pdr = Pdr {
        seeds: Some(seeds),
        ..Pdr::default()
    };
    let Answer::Sat(model) = pdr.solve(&cx, &system, &mut Stats::default()) else {
        panic!("seeded PDR must prove even_counter.smt2");
    };
    assert_eq!(
        validate_model(&store, &system, &model, Deadline::none()),
        ModelCheck::Valid
    );
}

#[test]
fn pdr_refutes_with_derivations_that_replay() {
    for path in corpus("pdr/unsat") {
        let (answer, ok) = check(&path, 30);
        assert_eq!(answer.keyword(), "unsat", "{}: {answer:?}", path.display());
        assert!(ok, "{}: the derivation must replay", path.display());
    }
}

#[test]
fn pdr_is_never_wrong_on_the_corpus() {
    for (folder, wrong) in [("sat", "unsat"), ("cegar/sat", "unsat"), ("unsat", "sat")] {
        for path in corpus(folder) {
            // Short: PDR diverges on some of these (parity, linear equalities), which is fine.
            let (answer, ok) = check(&path, 3);
            assert_ne!(answer.keyword(), wrong, "{}", path.display());
            assert!(ok, "{}: {answer:?} does not check", path.display());
        }
    }
}

#[test]
fn pdr_goes_on_from_the_frames_an_earlier_run_left() {
    let mut resumed = 0;
    for (folder, expected) in [("pdr/sat", "sat"), ("pdr/unsat", "unsat")] {
        for path in corpus(folder) {
            let store = TermStore::new();
            let src = std::fs::read_to_string(&path).expect("test file");
            let system = hornbeam::syntax::read_system(&store, &src).expect("parses");
            let deadline = || Deadline::after(Duration::from_secs(30));
            // A first run stopped after two frames, as a portfolio's time slice stops it.
            let first_cx = Context::new(&store, deadline());
            let short = Pdr {
                max_level: 2,
                ..Pdr::default()
            };
            let first = short.solve(&first_cx, &system, &mut Stats::default());
            let left = first_cx.candidates.take_left_frames();
            if first.keyword() != "unknown" {
                assert!(
                    left.is_none(),
                    "{}: an answer leaves no frames",
                    path.display()
                );
                continue;
            }
            let left = left.expect("a run without an answer leaves its frames");
            let cx = Context {
                candidates: Candidates::default().with_frames(Some(Arc::new(left))),
                ..Context::new(&store, deadline())
            };
            let mut stats = Stats::default();
            let answer = Pdr::default().solve(&cx, &system, &mut stats);
            let Stats::Pdr(stats) = stats else {
                panic!("PDR's counters")
            };
            assert!(stats.pdr_imported > 0, "{}: {stats:?}", path.display());
            assert_eq!(answer.keyword(), expected, "{}", path.display());
            let ok = match &answer {
                Answer::Sat(m) => {
                    validate_model(&store, &system, m, Deadline::none()) == ModelCheck::Valid
                }
                Answer::Unsat(d) => replay_derivation(&store, &system, d).is_ok(),
                Answer::Unknown(_) => false,
            };
            assert!(ok, "{}: {answer:?} does not check", path.display());
            resumed += 1;
        }
    }
    assert!(
        resumed >= 4,
        "only {resumed} files needed more than two frames"
    );
}
