//! The explicit-state engine on the hand-written corpus `tests/data/explore/`: finite-state
//! systems whose invariants are not linear are proved (`sat/`, the model validates), deep
//! counterexamples are found (`unsat/`, the derivation replays), and systems whose states
//! cannot be enumerated (`unknown/`: an input that is read, an unbounded counter) get
//! `unknown`, never an answer. On the whole `sat/` and `unsat/` corpus every answer it gives
//! is the folder's and checks.

mod common;

use common::corpus;
use hornbeam::chc::System;
use hornbeam::clock::Deadline;
use hornbeam::engine::explore::Explore;
use hornbeam::engine::{Context, Engine, Stats};
use hornbeam::term::TermStore;
use hornbeam::witness::{replay_derivation, validate_model, Answer, ModelCheck, Reason};
use std::path::Path;
use std::time::Duration;

/// The engine's answer on a file (at most `max_states` states, 30 s), with the system and
/// whether its witness checks.
fn check(path: &Path, max_states: usize) -> (Answer, bool) {
    let store = TermStore::new();
    let src = std::fs::read_to_string(path).expect("test file");
    let system: System = hornbeam::syntax::read_system(&store, &src).expect("parses");
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(30)));
    let answer = Explore { max_states }.solve(&cx, &system, &mut Stats::default());
    let ok = match &answer {
        Answer::Sat(m) => validate_model(&store, &system, m, Deadline::none()) == ModelCheck::Valid,
        Answer::Unsat(d) => replay_derivation(&store, &system, d).is_ok(),
        Answer::Unknown(_) => true,
    };
    (answer, ok)
}

#[test]
fn finite_state_systems_are_decided_with_checked_witnesses() {
    for (folder, expected) in [("explore/sat", "sat"), ("explore/unsat", "unsat")] {
        for path in corpus(folder) {
            let (answer, ok) = check(&path, 10_000);
            assert_eq!(answer.keyword(), expected, "{}: {answer:?}", path.display());
            assert!(ok, "{}: the witness must check", path.display());
        }
    }
}

#[test]
fn unenumerable_systems_get_unknown_with_the_reason() {
    let read = common::data_dir("explore/unknown").join("input_is_read.smt2");
    let (answer, _) = check(&read, 10_000);
    assert!(
        matches!(&answer, Answer::Unknown(Reason::GaveUp(why)) if why.contains("not determined")),
        "{answer:?}"
    );
    let counter = common::data_dir("explore/unknown").join("unbounded_counter.smt2");
    let (answer, _) = check(&counter, 1_000);
    assert!(
        matches!(&answer, Answer::Unknown(Reason::Limit(why)) if why.contains("1000 states")),
        "{answer:?}"
    );
}

#[test]
fn every_answer_on_the_corpus_is_the_folders_and_checks() {
    for (folder, wrong) in [("sat", "unsat"), ("unsat", "sat")] {
        for path in corpus(folder) {
            let (answer, ok) = check(&path, 2_000);
            assert_ne!(answer.keyword(), wrong, "{}: {answer:?}", path.display());
            assert!(ok, "{}: the witness must check", path.display());
        }
    }
}
