//! The k-induction engine: the systems of `tests/data/kind/` (properties that are k-inductive
//! for k = 2 and 3 but not inductive, one of them over two predicates; counterexamples through
//! several initial clauses, steps and queries) are answered, and on every file of the answer corpora it
//! answers right or `unknown`, with a model that validates and a derivation that replays;
//! seeds strengthen its inductive step, and a wrong seed costs an answer, never a wrong one.

mod common;

use hornbeam::clock::Deadline;
use hornbeam::engine::kind::{Kind, KindStats};
use hornbeam::engine::{Candidates, Context, Engine, Stats};
use hornbeam::term::{TermId, TermStore};
use hornbeam::witness::{replay_derivation, validate_model, Answer, Interp, Model, ModelCheck};
use std::path::Path;
use std::time::Duration;

/// k-induction's answer on a file within `secs`, and its counters; panics when the answer's
/// witness does not check.
fn check(path: &Path, secs: u64) -> (Answer, KindStats) {
    let store = TermStore::new();
    let src = std::fs::read_to_string(path).expect("test file reads");
    let system = hornbeam::syntax::read_system(&store, &src).expect("test file parses");
    let cx = Context::new(&store, Deadline::after(Duration::from_secs(secs)));
    let mut stats = Stats::default();
    let answer = Kind::default().solve(&cx, &system, &mut stats);
    match &answer {
        Answer::Sat(m) => assert_eq!(
            validate_model(&store, &system, m, Deadline::none()),
            ModelCheck::Valid,
            "{}: the model must validate",
            path.display()
        ),
        Answer::Unsat(d) => replay_derivation(&store, &system, d)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        Answer::Unknown(_) => {}
    }
    let Stats::Kind(kind) = stats else {
        panic!("{}: k-induction's counters are {stats:?}", path.display())
    };
    (answer, kind)
}

#[test]
fn k_inductive_properties_are_proved_at_their_depth() {
    for path in common::corpus("kind/sat") {
        let (answer, stats) = check(&path, 30);
        assert_eq!(answer.keyword(), "sat", "{}: {answer:?}", path.display());
        let depth = stats.depth.expect("a check was made");
        assert!(
            depth >= 2,
            "{}: not inductive, yet proved at depth {depth}",
            path.display()
        );
        assert_eq!(stats.preimages, depth - 1, "{}", path.display());
    }
}

#[test]
fn counterexamples_are_found_by_the_base_case() {
    for path in common::corpus("kind/unsat") {
        let (answer, _) = check(&path, 30);
        assert_eq!(answer.keyword(), "unsat", "{}: {answer:?}", path.display());
    }
}

#[test]
fn never_a_wrong_answer_on_the_answer_corpora() {
    for (folder, wrong) in [("sat", "unsat"), ("unsat", "sat"), ("pdr/sat", "unsat")] {
        for path in common::corpus(folder) {
            let (answer, _) = check(&path, 2);
            assert_ne!(answer.keyword(), wrong, "{}", path.display());
        }
    }
}

#[test]
fn non_linear_systems_are_left_to_the_other_engines() {
    let path = common::data_dir("pdr/sat").join("fib_nonnegative.smt2");
    let (answer, stats) = check(&path, 5);
    let Answer::Unknown(reason) = answer else {
        panic!("k-induction answered a non-linear system: {answer:?}");
    };
    assert!(reason.to_string().contains("non-linear"), "{reason}");
    assert_eq!(stats.depth, None);
}

/// k-induction on a file with `seed` (over the predicate's parameters `p0, p1, …`) handed
/// over as the candidates of earlier engines.
fn seeded(path: &Path, seed: impl Fn(&TermStore, &[TermId]) -> TermId) -> (Answer, KindStats) {
    let store = TermStore::new();
    let src = std::fs::read_to_string(path).expect("test file reads");
    let system = hornbeam::syntax::read_system(&store, &src).expect("test file parses");
    let p = system.pred_ids().next().expect("a predicate");
    let params = system.fresh_params(&store, p);
    let vars: Vec<TermId> = params.iter().map(|v| store.var(*v)).collect();
    let mut seeds = Model::new();
    seeds.set(
        p,
        Interp {
            body: seed(&store, &vars),
            params,
        },
    );
    let mut cx = Context::new(&store, Deadline::after(Duration::from_secs(30)));
    cx.candidates = Candidates::given(Some(seeds));
    let mut stats = Stats::default();
    let answer = Kind::default().solve(&cx, &system, &mut stats);
    if let Answer::Sat(m) = &answer {
        let check = validate_model(&store, &system, m, Deadline::none());
        assert_eq!(check, ModelCheck::Valid, "{}", path.display());
    }
    let Stats::Kind(kind) = stats else {
        panic!("k-induction's counters are {stats:?}")
    };
    (answer, kind)
}

#[test]
fn seeds_strengthen_the_inductive_step() {
    let path = common::data_dir("kind/sat").join("shift_register.smt2");
    // With the first two stages non-negative, `z >= 0` is inductive.
    let (answer, stats) = seeded(&path, |s, v| {
        s.and([s.ge(v[0], s.int(0)), s.ge(v[1], s.int(0))])
    });
    assert_eq!(answer.keyword(), "sat", "{answer:?}");
    assert_eq!(stats.depth, Some(1));
    // A seed that is not invariant (it excludes the initial state) is no bug of the engine's:
    // whatever it proves with it fails its check, and the answer is `unknown`, not wrong.
    let (answer, _) = seeded(&path, |s, v| s.ge(v[0], s.int(5)));
    let Answer::Unknown(reason) = answer else {
        panic!("a wrong seed gave {answer:?}");
    };
    assert!(!reason.witness_failed(), "{reason}");
}
