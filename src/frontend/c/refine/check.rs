//! The greatest-fixpoint iteration of the paper's Algorithm 2 over `Ψ(q1, q2)`, one formula
//! over both sides' variables per pair of locations of `Θ` (concrete `q1`, abstract `q2`).
//!
//! * **Θ** (`GenPairs`): from the pair of initial locations, for each concrete edge from `q1`
//!   and each abstract local path from `q2` with the same visible action, the pair of their
//!   targets.
//! * **Constraints** per pair: *environment* (condition 2.a): a concrete `Env` step and
//!   abstract `Env*` steps (given by the caller: an over-approximation for a `refines`, `k`
//!   steps for a `does not refine`) that end related by ι end in `Ψ`; *step* (2.b, 2.c): for
//!   each concrete edge, when its guard holds, some abstract local path with its action
//!   reaches a state of the target pair's `Ψ`.
//! * **Strengthening**: a violated constraint is a formula `bad` over the pair's variables
//!   and others (primed states, fresh values); `Ψ := Ψ ∧ ¬∃others. bad`, computed lazily by
//!   model-based projection: each model of `Ψ ∧ bad` gives a cube of `∃others. Ψ ∧ bad`
//!   containing it, which is cut from `Ψ`, until `Ψ ∧ bad` is unsatisfiable (exact: every cut
//!   state is bad, and no bad state is left).
//!
//! Must not: trust its own result (the caller re-checks a `refines`), or print.

use super::env;
use super::paths::{self, LocalPath};
use super::sa::Side;
use crate::frontend::c::cfa::LocId;
use crate::interp::implicant;
use crate::smt::{eliminate_quantifiers, Deadline, SatResult, Smt};
use crate::term::{Quantifier, TermId, TermStore, Value, VarId};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Most cubes one strengthening may cut.
const MAX_CUTS: usize = 400;

/// The environment steps of condition 2.a as the iteration uses them.
pub enum EnvMode<'a> {
    /// For a `refines`: reflexive-transitive over-approximations of the concrete `Env*` (a
    /// stronger obligation than one concrete step: it makes the greatest fixpoint reachable
    /// in finitely many rounds where one step at a time would cut an unbounded chain of
    /// ever-smaller pieces) and of the abstract `Env*`.
    Over {
        /// The concrete side's.
        concrete: &'a env::Closure,
        /// The abstract side's.
        abstract_: &'a env::Closure,
    },
    /// For a `does not refine`: one concrete step, up to `k` abstract steps (exactly what
    /// Definition 6 asks, with fewer abstract steps).
    Exact(usize),
}

/// Why a pair was strengthened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// An environment step (condition 2.a).
    Env,
    /// The concrete edge with this index (conditions 2.b, 2.c).
    Step(usize),
}

/// The state of the iteration.
pub struct Fixpoint<'a> {
    /// The store.
    pub store: &'a TermStore,
    /// The concrete side (`SA_1`).
    pub c: &'a Side,
    /// The abstract side (`SA_2`).
    pub a: &'a Side,
    /// ι.
    pub iota: TermId,
    /// The pairs of Θ with their `Ψ`.
    pub psi: BTreeMap<(LocId, LocId), TermId>,
    /// The cubes cut from each pair, with their causes, in order.
    pub cuts: HashMap<(LocId, LocId), Vec<(TermId, Cause)>>,
    /// The abstract local paths per (location, action).
    pub paths: HashMap<(LocId, Option<String>), Vec<LocalPath>>,
    /// Whether every enumeration was complete.
    pub complete: bool,
    /// Checks are bounded by this.
    pub deadline: Deadline,
    /// Rounds run.
    pub rounds: usize,
    /// Cubes cut so far, and the most the iteration may cut (a deterministic bound: an
    /// infinite descending chain, e.g. a loop counter's bands, stops here).
    pub cut_count: usize,
    /// The bound on [`Fixpoint::cut_count`].
    pub max_cuts: usize,
}

/// Why the iteration stopped without a fixpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The solver did not answer (time, or a formula beyond it): its words.
    Solver(String),
    /// Quantifiers of an abstract path's undetermined values could not be eliminated.
    Quantifiers,
    /// Too many cubes for one strengthening, or in all.
    Cuts,
    /// κ no longer implies `Ψ` of the initial pair (the gfp is below, so no simulation
    /// exists among those the iteration describes).
    Broken,
}

impl<'a> Fixpoint<'a> {
    /// Θ and the initial `Ψ = ι` (Inv is `true`); abstract paths up to `bound` edges; at most
    /// `max_cuts` cubes in all.
    pub fn new(
        store: &'a TermStore,
        c: &'a Side,
        a: &'a Side,
        iota: TermId,
        bound: usize,
        max_cuts: usize,
        deadline: Deadline,
    ) -> Self {
        let mut fp = Fixpoint {
            store,
            c,
            a,
            iota,
            psi: BTreeMap::new(),
            cuts: HashMap::new(),
            paths: HashMap::new(),
            complete: true,
            deadline,
            rounds: 0,
            cut_count: 0,
            max_cuts,
        };
        let mut work = vec![(c.init, a.init)];
        fp.psi.insert((c.init, a.init), iota);
        while let Some((q1, q2)) = work.pop() {
            for e in c.out(q1) {
                let key = (q2, e.label.clone());
                if !fp.paths.contains_key(&key) {
                    let (ps, complete) = paths::enumerate(a, q2, e.label.as_deref(), bound);
                    fp.complete &= complete;
                    fp.paths.insert(key.clone(), ps);
                }
                for p in &fp.paths[&key] {
                    let pair = (e.to, p.end);
                    if let std::collections::btree_map::Entry::Vacant(v) = fp.psi.entry(pair) {
                        v.insert(iota);
                        work.push(pair);
                    }
                }
            }
        }
        fp
    }

    /// The concrete side's variables as terms.
    pub fn xc(&self) -> Vec<TermId> {
        self.c.terms(self.store)
    }

    /// The abstract side's variables as terms.
    pub fn xa(&self) -> Vec<TermId> {
        self.a.terms(self.store)
    }

    /// `Ψ(pair)` over the values `vc` (concrete) and `va` (abstract).
    pub fn psi_at(&self, pair: (LocId, LocId), vc: &[TermId], va: &[TermId]) -> TermId {
        match self.psi.get(&pair) {
            Some(&p) => self.rename(p, vc, va),
            None => self.store.ff(),
        }
    }

    fn iota_at(&self, vc: &[TermId], va: &[TermId]) -> TermId {
        self.rename(self.iota, vc, va)
    }

    /// `t` (over both sides' variables) over the values `vc` (concrete) and `va` (abstract).
    pub fn rename(&self, t: TermId, vc: &[TermId], va: &[TermId]) -> TermId {
        let s = self.store;
        let mut map: HashMap<VarId, TermId> = HashMap::new();
        for (v, &t) in self.c.vars.iter().zip(vc) {
            map.insert(v.term, t);
        }
        for (v, &t) in self.a.vars.iter().zip(va) {
            map.insert(v.term, t);
        }
        s.substitute(t, &map)
    }

    /// Conjoins `extra` to `Ψ(pair)` (a pair outside Θ is ignored): the iteration then
    /// computes the greatest fixpoint below the stronger start, which is still a weak
    /// simulation when κ implies its initial pair.
    pub fn strengthen_start(&mut self, pair: (LocId, LocId), extra: TermId) {
        if let Some(p) = self.psi.get_mut(&pair) {
            *p = self.store.and([*p, extra]);
        }
    }

    /// An environment step of condition 2.a from the pair's variables (as `mode` says): the
    /// concrete and the abstract steps' formulas and the values after them, concrete and
    /// abstract (fresh terms for the globals, the locals unchanged).
    pub fn env_step(&self, mode: &EnvMode) -> ([TermId; 2], Vec<TermId>, Vec<TermId>) {
        let s = self.store;
        let (xc, xa) = (self.xc(), self.xa());
        let primed = |side: &Side, x: &[TermId]| -> Vec<TermId> {
            let mut out: Vec<TermId> = side.vars[..side.globals]
                .iter()
                .map(|v| s.var(s.fresh_copy(v.term)))
                .collect();
            out.extend_from_slice(&x[side.globals..]);
            out
        };
        let (yc, ya) = (primed(self.c, &xc), primed(self.a, &xa));
        let (gc, ga) = (self.c.globals, self.a.globals);
        let (cstep, astep) = match mode {
            EnvMode::Over {
                concrete,
                abstract_,
            } => (
                concrete.at(s, &xc[..gc], &yc[..gc]),
                abstract_.at(s, &xa[..ga], &ya[..ga]),
            ),
            EnvMode::Exact(k) => (
                env::one(s, self.c, &xc[..gc], &yc[..gc]),
                env::up_to(s, self.a, &xa[..ga], &ya[..ga], *k),
            ),
        };
        ([cstep, astep], yc, ya)
    }

    /// The bad states of condition 2.a at `pair`: an environment step on both sides (as `mode`
    /// says) into ι but out of `Ψ`.
    pub fn env_bad(&self, pair: (LocId, LocId), mode: &EnvMode) -> TermId {
        let s = self.store;
        let ([cstep, astep], yc, ya) = self.env_step(mode);
        s.and([
            cstep,
            astep,
            self.iota_at(&yc, &ya),
            s.not(self.psi_at(pair, &yc, &ya)),
        ])
    }

    /// The bad states of conditions 2.b/2.c at `pair` for concrete edge `k`: its guard holds
    /// and no abstract local path with its action reaches the target pair's `Ψ`.
    pub fn step_bad(&self, pair: (LocId, LocId), k: usize) -> TermId {
        let s = self.store;
        let e = &self.c.edges[k];
        let (xc, xa) = (self.xc(), self.xa());
        let (g, post, _) = paths::instance(s, self.c, e.guard, &e.post, &e.fresh, &xc);
        let key = (pair.1, e.label.clone());
        let mut alts = vec![];
        for p in self.paths.get(&key).map(|v| v.as_slice()).unwrap_or(&[]) {
            let (pg, end, fresh) = paths::compose(s, self.a, &p.edges, &xa);
            let body = s.and([pg, self.psi_at((e.to, p.end), &post, &end)]);
            alts.push(if fresh.is_empty() {
                body
            } else {
                s.quant(Quantifier::Exists, fresh, body)
            });
        }
        s.and([g, s.not(s.or(alts))])
    }

    /// Cuts the states of `bad` from `Ψ(pair)`; whether anything was cut.
    fn strengthen(
        &mut self,
        pair: (LocId, LocId),
        bad: TermId,
        cause: Cause,
    ) -> Result<bool, Stop> {
        let s = self.store;
        let bad = if s.has_quantifier(bad) {
            eliminate_quantifiers(s, bad, self.deadline.clone()).ok_or(Stop::Quantifiers)?
        } else {
            bad
        };
        let keep: BTreeSet<VarId> = self
            .c
            .vars
            .iter()
            .chain(&self.a.vars)
            .map(|v| v.term)
            .collect();
        let mut cut = false;
        for _ in 0..MAX_CUTS {
            if self.cut_count >= self.max_cuts {
                return Err(Stop::Cuts);
            }
            let psi = self.psi[&pair];
            let both = s.and([psi, bad]);
            let mut smt = Smt::new(s, self.deadline.clone());
            smt.assert(both);
            match smt.check() {
                SatResult::Unsat => return Ok(cut),
                SatResult::Unknown(why) => return Err(Stop::Solver(why)),
                SatResult::Sat => {}
            }
            let others: Vec<VarId> = s
                .free_vars(both)
                .into_iter()
                .filter(|v| !keep.contains(v))
                .collect();
            let cube = self.cube(&mut smt, bad, &keep, &others)?;
            self.psi.insert(pair, s.and([psi, s.not(cube)]));
            self.cuts.entry(pair).or_default().push((cube, cause));
            self.cut_count += 1;
            cut = true;
        }
        Err(Stop::Cuts)
    }

    /// After a model of `Ψ ∧ bad`: a cube over the pair's variables that holds in the model
    /// and all of whose states satisfy `∃ others. bad` (the implicant of `bad` in the model,
    /// projected by model-based projection, and the implicant of that).
    fn cube(
        &self,
        smt: &mut Smt,
        bad: TermId,
        keep: &BTreeSet<VarId>,
        others: &[VarId],
    ) -> Result<TermId, Stop> {
        let s = self.store;
        let no = || Stop::Solver("no model".to_owned());
        let all: Vec<VarId> = s
            .free_vars(bad)
            .into_iter()
            .chain(keep.iter().copied())
            .collect();
        let vals = smt.values(all.iter().copied()).ok_or_else(no)?;
        let env: HashMap<VarId, Value> = vals.into_iter().collect();
        let lits = implicant(s, bad, &env).ok_or_else(no)?;
        let projected = smt.project(s.and(lits), others).ok_or_else(no)?;
        let point = || {
            s.and(keep.iter().filter_map(|v| {
                env.get(v)
                    .map(|x| s.eq(s.var(*v), s.value_term(x, &s.var_sort(*v))))
            }))
        };
        Ok(match implicant(s, projected, &env) {
            Some(l) => s.and(l),
            None => point(),
        })
    }

    /// Whether `kappa ⇒ Ψ(init)`; `Err` when the solver does not answer.
    pub fn initial_holds(&self, kappa: TermId) -> Result<bool, Stop> {
        let s = self.store;
        let init = (self.c.init, self.a.init);
        let mut smt = Smt::new(s, self.deadline.clone());
        smt.assert(kappa);
        smt.assert(s.not(self.psi[&init]));
        match smt.check() {
            SatResult::Unsat => Ok(true),
            SatResult::Sat => Ok(false),
            SatResult::Unknown(why) => Err(Stop::Solver(why)),
        }
    }

    /// Iterates to the greatest fixpoint; stops early with [`Stop::Broken`] once κ no longer
    /// implies `Ψ` of the initial pair.
    pub fn run(&mut self, mode: &EnvMode, kappa: TermId) -> Result<(), Stop> {
        let pairs: Vec<(LocId, LocId)> = self.psi.keys().copied().collect();
        let init = (self.c.init, self.a.init);
        loop {
            self.rounds += 1;
            let mut changed = false;
            for &pair in &pairs {
                if self.deadline.expired() {
                    return Err(Stop::Solver("timeout".to_owned()));
                }
                let ks: Vec<usize> = (0..self.c.edges.len())
                    .filter(|&k| self.c.edges[k].from == pair.0)
                    .collect();
                for k in ks {
                    let bad = self.step_bad(pair, k);
                    changed |= self.strengthen(pair, bad, Cause::Step(k))?;
                }
                let bad = self.env_bad(pair, mode);
                changed |= self.strengthen(pair, bad, Cause::Env)?;
                if pair == init && !self.initial_holds(kappa)? {
                    return Err(Stop::Broken);
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}
