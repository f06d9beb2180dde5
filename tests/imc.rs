//! The interpolation-based model checking engine: the systems of `tests/data/imc/` (clocks over
//! the reals, steps that are not total, a counterexample of four steps) are answered; on every
//! file of the answer corpora it answers right or `unknown`, never with a witness that fails its
//! check; systems of several predicates and non-linear ones are left to the other engines.

mod common;

use hornbeam::clock::Deadline;
use hornbeam::engine::imc::{Imc, ImcStats};
use hornbeam::engine::{Context, Engine, Stats};
use hornbeam::term::TermStore;
use hornbeam::witness::{replay_derivation, validate_model, Answer, ModelCheck};
use std::path::Path;
use std::time::Duration;

/// The engine's answer on a file within `secs`, and its counters; panics when the answer's
/// witness does not check.
fn check(path: &Path, secs: u64) -> (Answer, ImcStats) {
    let store = TermStore::new();
    let src = std::fs::read_to_string(path).expect("test file reads");
    let system = hornbeam::syntax::read_system(&store, &src).expect("test file parses");
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(secs)));
    let mut stats = Stats::default();
    let answer = Imc::default().solve(&cx, &system, &mut stats);
    match &answer {
        Answer::Sat(m) => assert_eq!(
            validate_model(&store, &system, m, Deadline::none()),
            ModelCheck::Valid,
            "{}: the model must validate",
            path.display()
        ),
        Answer::Unsat(d) => replay_derivation(&store, &system, d)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        Answer::Unknown(reason) => assert!(
            !reason.witness_failed(),
            "{}: a witness failed its check: {reason}",
            path.display()
        ),
    }
    let Stats::Imc(imc) = stats else {
        panic!("{}: the engine's counters are {stats:?}", path.display())
    };
    (answer, imc)
}

#[test]
fn invariants_are_found_by_interpolation() {
    for path in common::corpus("imc/sat") {
        let (answer, stats) = check(&path, 30);
        assert_eq!(answer.keyword(), "sat", "{}: {answer:?}", path.display());
        assert!(stats.interpolants > 0, "{}: {stats:?}", path.display());
    }
}

#[test]
fn counterexamples_are_found_at_their_depth() {
    for path in common::corpus("imc/unsat") {
        let (answer, stats) = check(&path, 30);
        assert_eq!(answer.keyword(), "unsat", "{}: {answer:?}", path.display());
        // `late_error.smt2` fails after four steps; the depths before it end in restarts.
        assert_eq!(stats.depth, Some(4), "{}", path.display());
        assert_eq!(stats.restarts, 3, "{}", path.display());
    }
}

#[test]
fn never_a_wrong_answer_on_the_answer_corpora() {
    for (folder, wrong) in [
        ("sat", "unsat"),
        ("unsat", "sat"),
        ("pdr/sat", "unsat"),
        ("pdr/unsat", "sat"),
        ("kind/sat", "unsat"),
        ("kind/unsat", "sat"),
    ] {
        for path in common::corpus(folder) {
            let (answer, _) = check(&path, 2);
            assert_ne!(answer.keyword(), wrong, "{}", path.display());
        }
    }
}

#[test]
fn other_systems_are_left_to_the_other_engines() {
    for (folder, file, why) in [
        ("pdr/sat", "fib_nonnegative.smt2", "non-linear"),
        ("kind/sat", "two_locations.smt2", "more than one predicate"),
    ] {
        let path = common::data_dir(folder).join(file);
        let (answer, stats) = check(&path, 5);
        let Answer::Unknown(reason) = answer else {
            panic!("{file}: answered {answer:?}");
        };
        assert!(reason.to_string().contains(why), "{file}: {reason}");
        assert_eq!(stats.depth, None, "{file}");
    }
}
