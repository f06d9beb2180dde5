//! The environment relations `Env` of a side, over its globals: one step of the
//! environment (the union of the other threads' steps, their locals existential, and the
//! identity: the paper's Algorithm 1 makes `Env` reflexive), `k` steps, and a reflexive and
//! transitive over-approximation of `Env*`.
//!
//! The over-approximation is the conjunction of the candidate relations that survive a
//! Houdini filter: per global `x`, `x' = x`, `x' <= x`, `x' >= x`, and `x' = x ∨ W_x` where
//! `W_x` is the disjunction of the guards (over the globals before) of the steps that write
//! `x`. A candidate is kept when it holds after any step from a pair the conjunction relates
//! (`R(g, g') ∧ step(g', g'') ⇒ c(g, g'')`); every candidate is reflexive, so the result
//! contains `Env*` (induction on the number of steps). [`super::check`] re-checks exactly
//! these two facts before it trusts a `refines` built on it.
//!
//! Must not: decide anything about the refinement.

use super::sa::{EnvStep, Side};
use crate::smt::{Deadline, SatResult, Smt};
use crate::term::{TermId, TermStore, VarId};
use std::collections::HashMap;

/// One instance of an environment step from `pre` to `post` (the globals' terms), its hidden
/// variables renamed apart.
pub fn instance(store: &TermStore, s: &EnvStep, pre: &[TermId], post: &[TermId]) -> TermId {
    let mut map: HashMap<VarId, TermId> = HashMap::new();
    for (v, &t) in s.pre.iter().zip(pre) {
        map.insert(*v, t);
    }
    for &h in &s.hidden {
        map.insert(h, store.var(store.fresh_copy(h)));
    }
    let mut parts = vec![store.substitute(s.guard, &map)];
    for (p, &q) in s.post.iter().zip(post) {
        parts.push(store.eq(q, store.substitute(*p, &map)));
    }
    store.and(parts)
}

/// `pre = post` on every global.
pub fn identity(store: &TermStore, pre: &[TermId], post: &[TermId]) -> TermId {
    store.and(pre.iter().zip(post).map(|(&a, &b)| store.eq(a, b)))
}

/// One environment step (or none) of `side` from `pre` to `post`.
pub fn one(store: &TermStore, side: &Side, pre: &[TermId], post: &[TermId]) -> TermId {
    let mut alts = vec![identity(store, pre, post)];
    alts.extend(side.env.iter().map(|s| instance(store, s, pre, post)));
    store.or(alts)
}

/// Up to `k` environment steps from `pre` to `post` (intermediate states fresh).
pub fn up_to(store: &TermStore, side: &Side, pre: &[TermId], post: &[TermId], k: usize) -> TermId {
    // A chain of k one-steps (each may be the identity) covers every length up to k.
    let mut parts = vec![];
    let mut cur: Vec<TermId> = pre.to_vec();
    for j in 1..=k.max(1) {
        let next: Vec<TermId> = if j == k.max(1) {
            post.to_vec()
        } else {
            side.vars[..side.globals]
                .iter()
                .map(|v| store.var(store.fresh_copy(v.term)))
                .collect()
        };
        parts.push(one(store, side, &cur, &next));
        cur = next;
    }
    store.and(parts)
}

/// A reflexive, transitive relation containing `Env*`, over template variables.
#[derive(Clone, Debug)]
pub struct Closure {
    /// The globals before.
    pub pre: Vec<VarId>,
    /// The globals after.
    pub post: Vec<VarId>,
    /// The relation (a conjunction of candidates).
    pub rel: TermId,
}

impl Closure {
    /// The relation between two states of globals.
    pub fn at(&self, store: &TermStore, pre: &[TermId], post: &[TermId]) -> TermId {
        let mut map = HashMap::new();
        for (v, &t) in self.pre.iter().zip(pre) {
            map.insert(*v, t);
        }
        for (v, &t) in self.post.iter().zip(post) {
            map.insert(*v, t);
        }
        store.substitute(self.rel, &map)
    }
}

/// The Houdini over-approximation of `Env*` (see the module documentation); `None` when a
/// check does not finish.
pub fn closure(store: &TermStore, side: &Side, deadline: Deadline) -> Option<Closure> {
    let n = side.globals;
    let pre: Vec<VarId> = side.vars[..n]
        .iter()
        .map(|v| store.fresh_copy(v.term))
        .collect();
    let post: Vec<VarId> = side.vars[..n]
        .iter()
        .map(|v| store.fresh_copy(v.term))
        .collect();
    let (p, q): (Vec<TermId>, Vec<TermId>) = (
        pre.iter().map(|&v| store.var(v)).collect(),
        post.iter().map(|&v| store.var(v)).collect(),
    );
    let candidates = |q: &[TermId]| -> Vec<TermId> {
        let mut cs = vec![];
        for i in 0..n {
            cs.push(store.eq(q[i], p[i]));
            cs.push(store.le(q[i], p[i]));
            cs.push(store.ge(q[i], p[i]));
            let writers: Vec<TermId> = side
                .env
                .iter()
                .filter(|s| store.as_var(s.post[i]) != Some(s.pre[i]))
                .map(|s| {
                    let map: HashMap<VarId, TermId> =
                        s.pre.iter().copied().zip(p.iter().copied()).collect();
                    let g = store.substitute(s.guard, &map);
                    if store.free_vars(g).iter().any(|v| s.hidden.contains(v)) {
                        store.tt()
                    } else {
                        g
                    }
                })
                .collect();
            cs.push(store.or([store.eq(q[i], p[i]), store.or(writers)]));
        }
        cs
    };
    let cand_q = candidates(&q);
    let mut alive = vec![true; cand_q.len()];
    // A middle state and the step after it.
    let mid: Vec<TermId> = side.vars[..n]
        .iter()
        .map(|v| store.var(store.fresh_copy(v.term)))
        .collect();
    let cand_mid = candidates(&mid);
    loop {
        let mut changed = false;
        for s in &side.env {
            let rel = store.and(cand_mid.iter().zip(&alive).filter(|x| *x.1).map(|x| *x.0));
            let step = instance(store, s, &mid, &q);
            let mut smt = Smt::new(store, deadline.clone());
            smt.assert(rel);
            smt.assert(step);
            for k in 0..cand_q.len() {
                if !alive[k] {
                    continue;
                }
                match smt.check_assuming(&[store.not(cand_q[k])]) {
                    SatResult::Unsat => {}
                    SatResult::Sat => {
                        alive[k] = false;
                        changed = true;
                    }
                    SatResult::Unknown(_) => return None,
                }
            }
        }
        if !changed {
            break;
        }
    }
    let rel = store.and(cand_q.iter().zip(&alive).filter(|x| *x.1).map(|x| *x.0));
    Some(Closure { pre, post, rel })
}

/// Whether `c` is reflexive and closed under one more environment step (so it contains
/// `Env*`): the re-check of a closure before a `refines` rests on it. `None`: unknown.
pub fn recheck(store: &TermStore, side: &Side, c: &Closure, deadline: Deadline) -> Option<bool> {
    let n = side.globals;
    let fresh = |_: usize| -> Vec<TermId> {
        side.vars[..n]
            .iter()
            .map(|v| store.var(store.fresh_copy(v.term)))
            .collect()
    };
    let (a, b, m) = (fresh(0), fresh(1), fresh(2));
    let refl = store.not(c.at(store, &a, &a));
    let step = store.and([
        c.at(store, &a, &m),
        one(store, side, &m, &b),
        store.not(c.at(store, &a, &b)),
    ]);
    for t in [refl, step] {
        let mut smt = Smt::new(store, deadline.clone());
        smt.assert(t);
        match smt.check() {
            SatResult::Unsat => {}
            SatResult::Sat => return Some(false),
            SatResult::Unknown(_) => return None,
        }
    }
    Some(true)
}
