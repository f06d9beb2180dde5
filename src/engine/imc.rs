//! Interpolation-based model checking (McMillan, "Interpolation and SAT-based model checking",
//! CAV 2003) on transition systems of one predicate: both answers.
//!
//! The system is read as a transition system as k-induction reads it (`unroll`): the facts are
//! the initial states `I`, the clauses with a body atom and a head atom the steps `T`, the
//! queries the bad states `B`. At each depth `k = 1, 2, …` the unrolling first checks whether an
//! initial state reaches a bad state in exactly `k` steps (`unsat`, with that derivation). If
//! not, it over-approximates the reachable states from `R = I`: an interpolant `P` of
//!
//! ```text
//!   A = R(s_0) ∧ T(s_0, s_1)        B = ∨_{j=1..k} T(s_1, s_2) ∧ … ∧ T(s_{j-1}, s_j) ∧ B(s_j)
//! ```
//!
//! (each disjunct of `B` takes only the steps into its bad state: the steps of a system need
//! not be total, and a state without successors must still count as bad).
//!
//! holds in every successor of `R` and reaches no bad state within `k - 1` steps; `R ∨ P` is
//! the next `R`. When `P ⇒ R`, `R` is an inductive invariant that excludes the bad states (it
//! contains `I`, the successors of its states are in `P`, and neither `I` nor any `P` meets
//! `B`): the model, validated here against every clause. When `A ∧ B` is satisfiable with
//! `R ≠ I`, the over-approximation reached a bad state, maybe spuriously: the next depth starts
//! over from `I` with a longer `B`, whose interpolants are stronger.
//!
//! The interpolants are the project's own (`interp`: Farkas over cubes of the formulas). `R`
//! is kept over the predicate's parameters; the initial states' own variables are eliminated
//! first (Z3's `qe`), and where that fails the engine gives up.
//!
//! Where PDR's lemmas, which are clauses, stall on transition systems over the reals whose
//! invariants are not conjunctions of a few clauses, an interpolant of a whole unrolling can
//! state the reachable states at once. Must not: run on a system of several predicates or a
//! non-linear one (it answers `unknown` at once), or return a model it has not validated.

use super::unroll::{ground_queries, TransitionSystem, Unrolling};
use super::{Context, Engine, Stats};
use crate::chc::{PredId, System};
use crate::interp::Interpolator;
use crate::smt::{eliminate, QeMode, SatResult, Smt};
use crate::term::{TermId, VarId};
use crate::witness::{Answer, Interp, Model, Reason};

/// Interpolation-based model checking's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ImcStats {
    /// The last depth checked (absent when none was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    /// Interpolants computed.
    pub interpolants: u64,
    /// Depths given up because the over-approximation met a bad state.
    pub restarts: u64,
    /// SMT checks of the unrolling (the interpolator's own not counted).
    pub smt_checks: u64,
}

/// Interpolation-based model checking with a depth bound.
#[derive(Clone, Debug)]
pub struct Imc {
    /// Deepest `k` tried before answering `unknown`.
    pub max_depth: usize,
    /// Most cubes of `A` one interpolant by projection covers before the cube-pair
    /// interpolation takes over.
    pub max_cubes: usize,
}

impl Default for Imc {
    fn default() -> Self {
        Imc {
            max_depth: 1_000,
            max_cubes: 64,
        }
    }
}

impl Engine for Imc {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let mut counters = ImcStats::default();
        let answer = self.run(cx, system, &mut counters);
        *stats = Stats::Imc(counters);
        answer
    }
}

/// The predicate and its initial states, over its parameters: where every depth's
/// over-approximation starts.
struct Initial {
    pred: PredId,
    params: Vec<VarId>,
    states: TermId,
}

/// How one depth of the fixpoint ended.
enum Depth {
    /// An answer (or a reason to stop).
    Answer(Answer),
    /// The over-approximation met a bad state: try a deeper `k`.
    Deeper,
}

impl Imc {
    fn run(&self, cx: &Context<'_>, system: &System, stats: &mut ImcStats) -> Answer {
        let store = cx.store;
        let ts = match TransitionSystem::of(system) {
            Ok(ts) => ts,
            Err(why) => return Answer::Unknown(Reason::GaveUp(format!("imc: {why}"))),
        };
        match ground_queries(store, &cx.deadline, system, &ts) {
            Ok(None) => {}
            Ok(Some(d)) => return Answer::Unsat(d),
            Err(why) => return Answer::Unknown(cx.stopped_or("imc", &why)),
        }
        if system.num_preds() == 0 {
            return cx.validated(system, Model::new(), "imc: the invariant of depth 0");
        }
        if system.num_preds() > 1 {
            return Answer::Unknown(Reason::GaveUp("imc: more than one predicate".into()));
        }
        let mut u = Unrolling::new(store, system, &ts, Smt::new(store, cx.deadline.clone()));
        let answer = self.depths(cx, system, &mut u, stats);
        stats.smt_checks += u.smt.stats().checks;
        answer
    }

    fn depths(
        &self,
        cx: &Context<'_>,
        system: &System,
        u: &mut Unrolling<'_, '_>,
        stats: &mut ImcStats,
    ) -> Answer {
        let store = cx.store;
        let pred = system.pred_ids().next().expect("one predicate");
        let params = system.fresh_params(store, pred);
        // The initial states over the parameters.
        let init = u.init_formula();
        let s0 = u.state(0).args[0].clone();
        let locals: Vec<VarId> = store
            .free_vars(init)
            .into_iter()
            .filter(|v| !s0.contains(v))
            .collect();
        let init = eliminate(store, &locals, init, QeMode::Full, cx.deadline.clone())
            .filter(|t| store.free_vars(*t).iter().all(|v| s0.contains(v)));
        let Some(init) = init else {
            return Answer::Unknown(cx.stopped_or("imc", "the initial states' variables"));
        };
        let start = Initial {
            pred,
            states: store.simplify(store.rename(init, &s0, &params)),
            params,
        };
        for k in 0..=self.max_depth {
            if cx.stopped() {
                return Answer::Unknown(Reason::Timeout);
            }
            stats.depth = Some(k as u64);
            while u.depth() < k {
                u.extend();
            }
            let (init_lit, bad) = (u.init_literal(), u.bad_literal(k));
            match u.smt.check_assuming(&[init_lit, bad]) {
                SatResult::Sat => {
                    return match u.derivation(k) {
                        Some(d) => Answer::Unsat(d),
                        None => Answer::Unknown(Reason::GaveUp(
                            "imc: could not read the counterexample".into(),
                        )),
                    }
                }
                SatResult::Unknown(r) => return Answer::Unknown(cx.stopped_or("imc", &r)),
                SatResult::Unsat => {}
            }
            if k == 0 {
                continue;
            }
            match self.fixpoint(cx, system, u, k, &start, stats) {
                Depth::Answer(a) => return a,
                Depth::Deeper => stats.restarts += 1,
            }
        }
        Answer::Unknown(Reason::Limit(format!(
            "imc: depth bound {} reached",
            self.max_depth
        )))
    }

    /// The over-approximation at depth `k` from the initial states.
    fn fixpoint(
        &self,
        cx: &Context<'_>,
        system: &System,
        u: &mut Unrolling<'_, '_>,
        k: usize,
        start: &Initial,
        stats: &mut ImcStats,
    ) -> Depth {
        let store = cx.store;
        let params = &start.params;
        let (s0, s1) = (u.state(0).args[0].clone(), u.state(1).args[0].clone());
        let b = [bad_within(u, k)];
        let step = u.step_formula(0);
        let mut reach = start.states;
        loop {
            if cx.stopped() {
                return Depth::Answer(Answer::Unknown(Reason::Timeout));
            }
            let a = [store.rename(reach, params, &s0), step];
            let mut smt = Smt::new(store, cx.deadline.clone());
            for &t in a.iter().chain(&b) {
                smt.assert(t);
            }
            let result = smt.check();
            stats.smt_checks += smt.stats().checks;
            match result {
                SatResult::Sat => return Depth::Deeper,
                SatResult::Unknown(r) => {
                    return Depth::Answer(Answer::Unknown(cx.stopped_or("imc", &r)))
                }
                SatResult::Unsat => {}
            }
            let mut itp = Interpolator::new(store, cx.deadline.clone());
            let p = itp
                .interpolate_by_projection(&a, &b, self.max_cubes)
                .or_else(|| itp.interpolate_formulas(&a, &b));
            let Some(p) = p else {
                return Depth::Answer(Answer::Unknown(
                    cx.stopped_or("imc", "no interpolant of the unrolling"),
                ));
            };
            stats.interpolants += 1;
            let p = store.rename(p, &s1, params);
            // P ⇒ R: R is inductive.
            let mut smt = Smt::new(store, cx.deadline.clone());
            smt.assert(p);
            smt.assert(store.not(reach));
            let result = smt.check();
            stats.smt_checks += smt.stats().checks;
            match result {
                SatResult::Unsat => {
                    let mut model = Model::new();
                    let params = params.clone();
                    model.set(
                        start.pred,
                        Interp {
                            params,
                            body: reach,
                        },
                    );
                    return Depth::Answer(cx.validated(
                        system,
                        model,
                        &format!("imc: the invariant of depth {k}"),
                    ));
                }
                SatResult::Unknown(r) => {
                    return Depth::Answer(Answer::Unknown(cx.stopped_or("imc", &r)))
                }
                SatResult::Sat => reach = store.simplify(store.or([reach, p])),
            }
        }
    }
}

/// That a bad state is reached from `s_1` within `k - 1` steps: the steps into a bad state
/// only, since a state may have no successor (the steps of a system need not be total).
fn bad_within(u: &mut Unrolling<'_, '_>, k: usize) -> TermId {
    let store = u.store();
    let mut bad = u.bad_formula(k);
    for i in (1..k).rev() {
        let here = u.bad_formula(i);
        bad = store.or([here, store.and([u.step_formula(i), bad])]);
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Deadline;
    use crate::term::TermStore;

    /// Steps only from `x < 0`, bad states `x >= 5`: a bad state without successors is bad
    /// within any number of steps (an unrolling that asks for every step before the last bad
    /// state would miss it, and an interpolant could then take it in).
    #[test]
    fn bad_states_without_successors_count_at_every_depth() {
        let store = TermStore::new();
        let src = "(set-logic HORN) (declare-fun p (Int) Bool)
            (assert (forall ((x Int)) (=> (= x 0) (p x))))
            (assert (forall ((x Int) (y Int)) (=> (and (p x) (< x 0) (= y (- x 1))) (p y))))
            (assert (forall ((x Int)) (=> (and (p x) (>= x 5)) false)))
            (check-sat)";
        let system = crate::syntax::read_system(&store, src).expect("parses");
        let ts = TransitionSystem::of(&system).expect("linear");
        let mut u = Unrolling::new(&store, &system, &ts, Smt::new(&store, Deadline::none()));
        u.extend();
        u.extend();
        let x1 = store.var(u.state(1).args[0][0]);
        let mut smt = Smt::new(&store, Deadline::none());
        smt.assert(bad_within(&mut u, 2));
        smt.assert(store.eq(x1, store.int(7)));
        assert_eq!(smt.check(), SatResult::Sat);
    }
}
