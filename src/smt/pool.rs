//! Solvers for many slots (one per clause of a system) on a bounded number of Z3 solvers.
//!
//! Engines keep a solver per clause (its constraint asserted once, checked many times under
//! other assumptions). A Z3 solver costs about 0.5-0.8 MB once it has checked something, so a
//! solver per clause makes memory grow with the clause count times the engines and threads: a
//! system of 1,000 clauses took 4 GB. A [`Pool`] gives each slot a solver of its own while there
//! are at most [`Pool::MAX_SOLVERS`] slots (the common case: nothing changes there); beyond,
//! neighbouring slots share a solver, each slot's lasting assertions guarded by a literal of its
//! own (`guard → φ`) that is asserted in the slot's scopes and assumed in its checks, so a check
//! of one slot sees the others' assertions switched off.
//!
//! Must not: let two slots of one shared solver have scopes open at once (a check would then
//! assume both guards); callers open, read and close one slot's scope before the next, which
//! [`Slot::push`] asserts in debug builds.

use super::{Deadline, SatResult, Smt, SmtStats};
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use std::collections::BTreeMap;
use std::time::Duration;

/// Solvers for `n` slots, created as slots are first used.
pub struct Pool<'s> {
    store: &'s TermStore,
    deadline: Deadline,
    cap: Option<Duration>,
    /// Slots per solver: slot `k` is on solver `k / per_solver`.
    per_solver: usize,
    solvers: Vec<Option<Smt<'s>>>,
    /// Per slot, its guard once made (shared solvers only).
    guards: Vec<Option<VarId>>,
    /// Per slot, how many scopes it has open.
    depth: Vec<u32>,
}

impl<'s> Pool<'s> {
    /// Most Z3 solvers one pool creates: up to this many slots each get their own.
    pub const MAX_SOLVERS: usize = 64;

    /// A pool for `slots` slots over terms of `store`; checks stop at `deadline`.
    pub fn new(store: &'s TermStore, slots: usize, deadline: Deadline) -> Self {
        Pool::with_max_solvers(store, slots, Pool::MAX_SOLVERS, deadline)
    }

    /// A pool for `slots` slots on at most `max_solvers` solvers.
    pub fn with_max_solvers(
        store: &'s TermStore,
        slots: usize,
        max_solvers: usize,
        deadline: Deadline,
    ) -> Self {
        let per_solver = slots.div_ceil(max_solvers.max(1)).max(1);
        Pool {
            store,
            deadline,
            cap: None,
            per_solver,
            solvers: (0..slots.div_ceil(per_solver)).map(|_| None).collect(),
            guards: vec![None; slots],
            depth: vec![0; slots],
        }
    }

    /// Caps every later check of every slot at `cap`, as [`Smt::set_check_cap`].
    pub fn set_check_cap(&mut self, cap: Option<Duration>) {
        self.cap = cap;
        for s in self.solvers.iter_mut().flatten() {
            s.set_check_cap(cap);
        }
    }

    /// Whether slots share solvers (more slots than [`Pool::MAX_SOLVERS`]).
    pub fn is_shared(&self) -> bool {
        self.per_solver > 1
    }

    /// The counters of every solver made so far, added up.
    pub fn stats(&self) -> SmtStats {
        let mut out = SmtStats::default();
        for s in self.solvers.iter().flatten() {
            out.checks += s.stats().checks;
            out.check_ms += s.stats().check_ms;
        }
        out
    }

    /// Slot `k` (panics if `k` is not below the pool's slot count, a caller's bug).
    pub fn slot(&mut self, k: usize) -> Slot<'_, 's> {
        assert!(
            k < self.depth.len(),
            "slot {k} of a pool of {}",
            self.depth.len()
        );
        Slot { pool: self, k }
    }
}

/// One slot of a [`Pool`]: the calls of an [`Smt`], on the slot's solver, with the slot's
/// guard applied.
pub struct Slot<'p, 's> {
    pool: &'p mut Pool<'s>,
    k: usize,
}

impl<'s> Slot<'_, 's> {
    fn solver(&mut self) -> &mut Smt<'s> {
        let Pool {
            store,
            deadline,
            cap,
            per_solver,
            solvers,
            ..
        } = &mut *self.pool;
        solvers[self.k / *per_solver].get_or_insert_with(|| {
            let mut smt = Smt::new(store, deadline.clone());
            smt.set_check_cap(*cap);
            smt
        })
    }

    /// The slot's guard: `None` when it has its solver to itself.
    fn guard(&mut self) -> Option<TermId> {
        if !self.pool.is_shared() {
            return None;
        }
        let store = self.pool.store;
        let k = self.k;
        let v = *self.pool.guards[k]
            .get_or_insert_with(|| store.new_var(&format!("slot{k}"), Sort::Bool));
        Some(store.var(v))
    }

    /// Asserts `t` for this slot: until the slot's scope closes, or for good outside a scope.
    pub fn assert(&mut self, t: TermId) {
        let t = match (self.pool.depth[self.k], self.guard()) {
            (0, Some(g)) => self.pool.store.implies(g, t),
            _ => t,
        };
        self.solver().assert(t);
    }

    /// Opens a scope of this slot.
    pub fn push(&mut self) {
        let guard = self.guard();
        if self.pool.depth[self.k] == 0 && guard.is_some() {
            let first = self.k / self.pool.per_solver * self.pool.per_solver;
            let last = (first + self.pool.per_solver).min(self.pool.depth.len());
            debug_assert!(
                (first..last).all(|j| self.pool.depth[j] == 0),
                "two slots of one solver with scopes open"
            );
        }
        let depth = self.pool.depth[self.k];
        let smt = self.solver();
        smt.push();
        if let (0, Some(g)) = (depth, guard) {
            smt.assert(g);
        }
        self.pool.depth[self.k] += 1;
    }

    /// Closes `n` scopes of this slot.
    pub fn pop(&mut self, n: u32) {
        self.solver().pop(n);
        let d = &mut self.pool.depth[self.k];
        *d = d.saturating_sub(n);
    }

    /// Checks the slot's assertions.
    pub fn check(&mut self) -> SatResult {
        self.check_assuming(&[])
    }

    /// Checks the slot's assertions together with `assumptions`.
    pub fn check_assuming(&mut self, assumptions: &[TermId]) -> SatResult {
        match (self.pool.depth[self.k], self.guard()) {
            (0, Some(g)) => {
                let mut all = assumptions.to_vec();
                all.push(g);
                self.solver().check_assuming(&all)
            }
            _ => self.solver().check_assuming(assumptions),
        }
    }

    /// After `Unsat` under assumptions: the caller's assumptions in the unsat core.
    pub fn unsat_core(&mut self) -> Vec<TermId> {
        let guard = self.guard();
        let mut core = self.solver().unsat_core();
        core.retain(|&t| Some(t) != guard);
        core
    }

    /// After `Sat`: the value of `v` in the model.
    pub fn value(&mut self, v: VarId) -> Option<Value> {
        self.solver().value(v)
    }

    /// After `Sat`: the values of `vars` in the model.
    pub fn values(
        &mut self,
        vars: impl IntoIterator<Item = VarId>,
    ) -> Option<BTreeMap<VarId, Value>> {
        self.solver().values(vars)
    }

    /// After `Sat`: a model-based projection, as [`Smt::project`].
    pub fn project(&mut self, t: TermId, eliminate: &[VarId]) -> Option<TermId> {
        self.solver().project(t, eliminate)
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;
    use crate::smt::{Deadline, SatResult};
    use crate::term::{Sort, TermStore};

    /// Three slots on one shared solver: each check sees only its own slot's assertions,
    /// lasting or scoped, and cores and values are the slot's.
    #[test]
    fn slots_sharing_a_solver_see_only_their_own_assertions() {
        let store = TermStore::new();
        let x = store.var(store.new_var("x", Sort::Int));
        let a = store.var(store.new_var("a", Sort::Bool));
        let mut pool = Pool::with_max_solvers(&store, 3, 1, Deadline::none());
        assert!(pool.is_shared());
        pool.slot(0).assert(store.lt(x, store.int(0)));
        pool.slot(1).assert(store.gt(x, store.int(5)));
        // Slot 2 asserts nothing: anything goes.
        for (k, lo, hi) in [(0, i64::MIN, -1), (1, 6, i64::MAX)] {
            let mut s = pool.slot(k);
            assert_eq!(s.check(), SatResult::Sat);
            let Some(crate::term::Value::Int(v)) = s.value(store.as_var(x).unwrap()) else {
                panic!("an integer value")
            };
            assert!(v >= lo.into() && v <= hi.into(), "slot {k}: x = {v}");
        }
        assert_eq!(pool.slot(2).check(), SatResult::Sat);
        // A scope of slot 1 with a contradiction under an assumption: unsat, with the
        // assumption (and not the guard) as the core; slot 0 is untouched after the pop.
        let mut s = pool.slot(1);
        s.push();
        s.assert(store.implies(a, store.lt(x, store.int(3))));
        assert_eq!(s.check_assuming(&[a]), SatResult::Unsat);
        assert_eq!(s.unsat_core(), vec![a]);
        s.pop(1);
        assert_eq!(pool.slot(1).check_assuming(&[a]), SatResult::Sat);
        assert_eq!(pool.slot(0).check_assuming(&[a]), SatResult::Sat);
        // A lasting contradiction in slot 2 leaves the others satisfiable.
        pool.slot(2).assert(store.ff());
        assert_eq!(pool.slot(2).check(), SatResult::Unsat);
        assert_eq!(pool.slot(0).check(), SatResult::Sat);
    }

    #[test]
    fn up_to_the_bound_each_slot_has_its_own_solver() {
        let store = TermStore::new();
        let pool = Pool::with_max_solvers(&store, 64, 64, Deadline::none());
        assert!(!pool.is_shared());
        let pool = Pool::with_max_solvers(&store, 65, 64, Deadline::none());
        assert!(pool.is_shared());
    }
}
