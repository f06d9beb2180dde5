//! The BMC engine on counterexamples of hundreds of steps (`tests/data/bmc/unsat`): it must
//! find them, its derivations must replay, and it must not check every level on the way
//! (a check per level made a 200-step counterexample cost 200 checks of growing size).

mod common;

use hornbeam::clock::Deadline;
use hornbeam::engine::bmc::{Bmc, BmcStats};
use hornbeam::engine::{Context, Engine, Stats};
use hornbeam::term::TermStore;
use hornbeam::witness::{replay_derivation, Answer};
use std::path::Path;
use std::time::Duration;

/// Solves `path` with BMC alone: its answer and counters; panics when a derivation does not
/// replay.
fn check(path: &Path) -> (Answer, BmcStats) {
    let store = TermStore::new();
    let src = std::fs::read_to_string(path).expect("test file reads");
    let system = hornbeam::syntax::read_system(&store, &src).expect("test file parses");
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(120)));
    let mut stats = Stats::default();
    let answer = Bmc::default().solve(&cx, &system, &mut stats);
    if let Answer::Unsat(d) = &answer {
        replay_derivation(&store, &system, d).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let Stats::Bmc(bmc) = stats else {
        panic!("{}: BMC's counters are {stats:?}", path.display())
    };
    (answer, bmc)
}

#[test]
fn deep_counterexamples_are_found_with_few_checks() {
    for path in common::corpus("bmc/unsat") {
        let (answer, stats) = check(&path);
        assert!(
            matches!(answer, Answer::Unsat(_)),
            "{}: {answer:?}",
            path.display()
        );
        let depth = stats.depth.expect("a check was made");
        assert!(depth >= 150, "{}: depth {depth}", path.display());
        assert!(
            stats.smt_checks * 4 <= depth,
            "{}: {} checks for depth {depth}",
            path.display(),
            stats.smt_checks
        );
    }
}
