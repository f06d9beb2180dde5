//! The inductive invariant behind a k-inductive property: the states from which no bad state
//! is reached in fewer than `k` steps.
//!
//! If no initial state reaches a bad state in fewer than `k` steps (the base case) and every
//! path of `k` steps whose first `k` states are good ends in a good state (the inductive step),
//! then `I = ¬(B_0 ∨ … ∨ B_{k-1})`, with `B_0` the bad states and `B_{j+1}` the states with a
//! step into `B_j`, is an inductive invariant that excludes the bad states: the initial states
//! are in `I` by the base case; from a state in `I` every path of `k - 1` steps stays good, so
//! by the inductive step its successor's paths of `k - 1` steps do too. A state's location is
//! its predicate, so each layer is one formula per predicate over its parameters, computed by
//! eliminating the step's target and local variables (Z3's `qe`).
//!
//! Must not: check the invariant (the engine validates its model against the clauses).

use crate::chc::{ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::engine::unroll::{State, TransitionSystem};
use crate::smt::{eliminate, QeMode};
use crate::term::{TermId, TermStore, VarId};
use crate::witness::{Interp, Model};
use std::collections::HashMap;

/// Pre-images of the bad states, per predicate over its parameters, one more per
/// [`Backward::next`].
pub struct Backward<'a> {
    store: &'a TermStore,
    system: &'a System,
    ts: &'a TransitionSystem,
    /// Per predicate, the variables its layers are over.
    params: Vec<Vec<VarId>>,
    /// `B_0, B_1, …` so far, each indexed by predicate.
    layers: Vec<Vec<TermId>>,
}

impl<'a> Backward<'a> {
    /// `B_0`, the bad states (their clauses' other variables eliminated), or `None` when the
    /// elimination fails.
    pub fn new(
        store: &'a TermStore,
        system: &'a System,
        ts: &'a TransitionSystem,
        deadline: &Deadline,
    ) -> Option<Self> {
        let mut b = Backward {
            store,
            system,
            ts,
            params: system
                .pred_ids()
                .map(|p| system.fresh_params(store, p))
                .collect(),
            layers: Vec::new(),
        };
        let bad = b.layer(&ts.queries, None, deadline)?;
        b.layers.push(bad);
        Some(b)
    }

    /// Adds the next layer: the states with a step into the last one.
    pub fn next(&mut self, deadline: &Deadline) -> Option<()> {
        let last = self.layers.last()?.clone();
        let layer = self.layer(&self.ts.steps, Some(&last), deadline)?;
        self.layers.push(layer);
        Some(())
    }

    /// The layers computed so far.
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// That `state` is not bad: in each location, outside `B_0` there.
    pub fn good(&self, state: &State) -> TermId {
        let s = self.store;
        s.and(self.system.pred_ids().filter_map(|p| {
            let i = p.0 as usize;
            // Most locations have no query: nothing to assume there.
            let bad = self.layers[0][i];
            (bad != s.ff()).then(|| {
                let bad = s.rename(bad, &self.params[i], &state.args[i]);
                s.implies(state.at(s, p), s.not(bad))
            })
        }))
    }

    /// The invariant of depth `k` (after `k` layers): no bad state within fewer than `k` steps.
    pub fn invariant(&self, k: usize) -> Model {
        let s = self.store;
        let mut model = Model::new();
        for p in self.system.pred_ids() {
            let i = p.0 as usize;
            let reach = s.or(self.layers[..k].iter().map(|l| l[i]));
            model.set(
                p,
                Interp {
                    params: self.params[i].clone(),
                    body: s.simplify(s.not(reach)),
                },
            );
        }
        model
    }

    /// Per predicate `P`: `∨_c ∃ (c's variables but its body atom's). C_c ∧ target(head)` over
    /// the clauses `c` whose body atom is `P`, the atom's arguments renamed to `P`'s
    /// parameters.
    fn layer(
        &self,
        clauses: &[ClauseId],
        target: Option<&[TermId]>,
        deadline: &Deadline,
    ) -> Option<Vec<TermId>> {
        let s = self.store;
        let mut parts: HashMap<PredId, Vec<TermId>> = HashMap::new();
        for &cid in clauses {
            let clause = self.system.clause(cid);
            let body = clause.body.first()?;
            let params = &self.params[body.pred.0 as usize];
            let mut t = clause.constraint;
            if let (Some(target), Some(head)) = (target, clause.head_atom()) {
                let q = head.pred.0 as usize;
                t = s.and([t, s.rename(target[q], &self.params[q], &head.args)]);
            }
            let map: HashMap<VarId, TermId> = body
                .args
                .iter()
                .zip(params)
                .map(|(a, p)| (*a, s.var(*p)))
                .collect();
            let t = s.simplify(s.substitute(t, &map));
            if t == s.ff() {
                continue;
            }
            let others: Vec<VarId> = s
                .free_vars(t)
                .into_iter()
                .filter(|v| !params.contains(v))
                .collect();
            let projected = eliminate(s, &others, t, QeMode::Full, deadline.clone())?;
            if s.free_vars(projected).iter().any(|v| others.contains(v)) {
                return None;
            }
            parts.entry(body.pred).or_default().push(projected);
        }
        Some(
            self.system
                .pred_ids()
                .map(|p| s.simplify(s.or(parts.remove(&p).unwrap_or_default())))
                .collect(),
        )
    }
}
