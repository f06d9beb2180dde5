//! k-induction on linear systems: both answers, on systems whose clauses have at most one body
//! atom, read as transition systems whose location is the predicate that holds (`unroll`):
//! the LRA-TS track's systems of one predicate, and the loops of programs in the LIA ones.
//!
//! At each depth `k = 0, 1, …` one incremental solver (`unroll`) checks the base case (an
//! initial state reaching a bad state in exactly `k` steps: `unsat` with that derivation) and
//! then the inductive step (a path of `k` steps through good states into a bad one). When no
//! such path exists the property is k-inductive, and `invariant` turns it into an inductive
//! invariant by `k - 1` pre-images of the bad states; that model is validated here against
//! every clause. The good states assumed along the path are the bad states' complement with
//! the queries' local variables eliminated; where that elimination (or a pre-image) fails,
//! only the base case goes on: BMC, whose counterexamples still count.
//!
//! Seeds (candidate invariants of the engines before it) are assumed in every state of the
//! unrolling, as k-induction's invariant strengthening: the invariant is then the property's
//! conjoined with them, and fails its check (an `unknown`) where they are not invariant.
//!
//! Where PDR's lemmas over the reals stall (clock synchronisation systems whose property holds
//! after a few steps of every path), the property itself is often k-inductive for a small `k`.
//! Must not: run on a non-linear system (it answers `unknown` at once), or return a model it
//! has not validated.

mod invariant;

use super::unroll::{ground_queries, State, TransitionSystem, Unrolling};
use super::{Context, Engine, Stats};
use crate::chc::System;
use crate::smt::{SatResult, Smt};
use crate::term::{TermId, TermStore};
use crate::witness::{Answer, Interp, Model, Reason};
use invariant::Backward;

/// k-induction's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct KindStats {
    /// The last depth checked (absent when none was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    /// Clause instances in the unrolling.
    pub instances: u64,
    /// SMT checks of the unrolling.
    pub smt_checks: u64,
    /// Pre-images of the bad states computed for the invariant.
    pub preimages: u64,
}

/// k-induction with a depth bound.
#[derive(Clone, Debug)]
pub struct Kind {
    /// Deepest `k` tried before answering `unknown`.
    pub max_depth: usize,
}

impl Default for Kind {
    fn default() -> Self {
        Kind { max_depth: 1_000 }
    }
}

/// That every predicate's seed holds in `state` where the predicate does.
fn assumed(store: &TermStore, system: &System, seeds: &Model, state: &State) -> TermId {
    store.and(system.pred_ids().filter_map(|p| {
        let seed = seeds.get(p)?;
        let args = &state.args[p.0 as usize];
        let holds = store.rename(seed.body, &seed.params, args);
        Some(store.implies(state.at(store, p), holds))
    }))
}

impl Engine for Kind {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let mut counters = KindStats::default();
        let answer = self.run(cx, system, &mut counters);
        *stats = Stats::Kind(counters);
        answer
    }
}

impl Kind {
    fn run(&self, cx: &Context<'_>, system: &System, stats: &mut KindStats) -> Answer {
        let store = cx.store;
        let ts = match TransitionSystem::of(system) {
            Ok(ts) => ts,
            Err(why) => return Answer::Unknown(Reason::GaveUp(format!("kind: {why}"))),
        };
        match ground_queries(cx.store, &cx.deadline, system, &ts) {
            Ok(None) => {}
            Ok(Some(d)) => return Answer::Unsat(d),
            Err(why) => return Answer::Unknown(cx.stopped_or("kind", &why)),
        }
        if system.num_preds() == 0 {
            return cx.validated(system, Model::new(), "kind: the invariant of depth 0");
        }
        // Without the bad states' complement (their local variables not eliminated: over
        // datatypes, say) only the base case runs: BMC, whose counterexamples still count.
        let mut backward = Backward::new(store, system, &ts, &cx.deadline);
        let mut proving = backward.is_some();
        let mut u = Unrolling::new(store, system, &ts, Smt::new(store, cx.deadline.clone()));
        let seeds = cx.candidates.seeds();
        if let Some(seeds) = seeds {
            u.smt.assert(assumed(store, system, seeds, u.state(0)));
        }
        let answer = loop {
            if cx.stopped() {
                break Answer::Unknown(Reason::Timeout);
            }
            let k = u.depth();
            if k > self.max_depth {
                break Answer::Unknown(Reason::Limit(format!(
                    "kind: depth bound {} reached",
                    self.max_depth
                )));
            }
            stats.depth = Some(k as u64);
            let bad = u.bad_literal(k);
            let init = u.init_literal();
            match u.smt.check_assuming(&[init, bad]) {
                SatResult::Sat => {
                    break match u.derivation(k) {
                        Some(d) => Answer::Unsat(d),
                        None => Answer::Unknown(Reason::GaveUp(
                            "kind: could not read the counterexample".into(),
                        )),
                    }
                }
                SatResult::Unknown(r) => break Answer::Unknown(cx.stopped_or("kind", &r)),
                SatResult::Unsat => {}
            }
            if let Some(b) = backward.as_mut().filter(|_| proving) {
                match u.smt.check_assuming(&[bad]) {
                    SatResult::Sat => {}
                    SatResult::Unknown(r) => break Answer::Unknown(cx.stopped_or("kind", &r)),
                    SatResult::Unsat => match self.invariant(cx, system, b, k, stats) {
                        // The pre-images could not be computed: go on with the base case.
                        Answer::Unknown(Reason::GaveUp(_)) if !cx.stopped() => proving = false,
                        answer => break answer,
                    },
                }
            }
            // The state at depth k is good on every path the next checks consider.
            if let Some(b) = &backward {
                u.smt.assert(b.good(u.state(k)));
            }
            u.extend();
            if let Some(seeds) = seeds {
                u.smt.assert(assumed(store, system, seeds, u.state(k + 1)));
            }
        };
        stats.instances = u.instances;
        stats.smt_checks = u.smt.stats().checks;
        answer
    }

    /// The model of a property found k-inductive at depth `k`, validated.
    fn invariant(
        &self,
        cx: &Context<'_>,
        system: &System,
        backward: &mut Backward<'_>,
        k: usize,
        stats: &mut KindStats,
    ) -> Answer {
        while backward.len() < k {
            if backward.next(&cx.deadline).is_none() {
                return Answer::Unknown(cx.stopped_or("kind", "a pre-image could not be computed"));
            }
            stats.preimages += 1;
        }
        let mut model = backward.invariant(k);
        let Some(seeds) = cx.candidates.seeds() else {
            return cx.validated(system, model, &format!("kind: the invariant of depth {k}"));
        };
        // The seeds were assumed in every state: the invariant is the property's with them,
        // and it fails its check (an `unknown`, not a bug) where they are not invariant.
        let store = cx.store;
        for p in system.pred_ids() {
            if let (Some(i), Some(seed)) = (model.get(p).cloned(), seeds.get(p)) {
                let seed = store.rename(seed.body, &seed.params, &i.params);
                let body = store.and([i.body, seed]);
                model.set(p, Interp { body, ..i });
            }
        }
        match cx.validated(system, model, &format!("kind: the invariant of depth {k}")) {
            Answer::Unknown(Reason::WitnessFailed(why)) => Answer::Unknown(Reason::GaveUp(
                format!("{why} (with the seeds it assumed, which are not invariant)"),
            )),
            answer => answer,
        }
    }
}
