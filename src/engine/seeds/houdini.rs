//! The Houdini filter: the largest subset of candidate lemmas that is inductive relative to the
//! clauses (every non-query clause maps the body lemmas to the head lemmas).
//!
//! Duty: drop, clause by clause, every head lemma some model of `body lemmas ∧ constraint`
//! falsifies, until nothing changes. A check the solver cannot decide drops every lemma of that
//! head that is not already known to be inductive (sound: the result only shrinks; lemmas kept
//! by an earlier filter stay inductive when more body lemmas are assumed). Must not: look at
//! queries, or keep a lemma without the checks that justify it (when the deadline passes,
//! `None`).

use crate::chc::System;
use crate::clock::Deadline;
use crate::smt::{Pool, SatResult};
use crate::term::{TermId, TermStore, VarId};
use std::collections::HashMap;
use std::time::Duration;

/// Most time one solver check may take.
const CHECK_CAP: Duration = Duration::from_millis(300);

/// Lemmas per predicate over its parameters.
pub struct Lemmas {
    /// Per predicate: one variable per argument.
    pub params: Vec<Vec<VarId>>,
    /// Per predicate: the lemmas (formulas over `params`).
    pub lemmas: Vec<Vec<TermId>>,
    /// Per predicate: how many leading lemmas are already known to be inductive (an earlier
    /// filter kept them): they stay, whatever the solver says about the others.
    pub known: Vec<usize>,
}

impl Lemmas {
    /// Adds `extra` (per predicate) on top of the current lemmas, which must be inductive, and
    /// filters the new ones until `deadline`. When that fails the current lemmas stay as they
    /// were. Returns how many candidates were added, and the number of solver checks.
    pub fn strengthen(
        &mut self,
        store: &TermStore,
        system: &System,
        extra: Vec<Vec<TermId>>,
        deadline: Deadline,
    ) -> (u64, u64) {
        let added: u64 = extra.iter().map(|e| e.len() as u64).sum();
        if added == 0 {
            return (0, 0);
        }
        for (i, e) in extra.into_iter().enumerate() {
            self.known[i] = self.lemmas[i].len();
            self.lemmas[i].extend(e);
        }
        let (done, checks) = filter(store, system, self, deadline);
        if !done {
            for (l, &k) in self.lemmas.iter_mut().zip(&self.known) {
                l.truncate(k);
            }
        }
        (added, checks)
    }

    fn instance(&self, store: &TermStore, p: usize, args: &[VarId], t: TermId) -> TermId {
        store.rename(t, &self.params[p], args)
    }
}

/// Shrinks `lemmas` to an inductive subset; `None` when the deadline passed first. Returns the
/// number of solver checks too.
pub fn filter(
    store: &TermStore,
    system: &System,
    lemmas: &mut Lemmas,
    deadline: Deadline,
) -> (bool, u64) {
    let mut checks = 0;
    // One solver per clause, its constraint asserted once; each round's lemmas go in a
    // pushed scope (creating a Z3 solver costs more than most of these checks).
    let mut solvers = Pool::new(store, system.num_clauses(), deadline.clone());
    solvers.set_check_cap(Some(CHECK_CAP));
    let mut started = vec![false; system.num_clauses()];
    loop {
        let mut changed = false;
        for (cid, c) in system.clauses() {
            let Some(head) = c.head_atom() else { continue };
            let h = head.pred.0 as usize;
            if lemmas.lemmas[h].len() <= lemmas.known[h] {
                continue;
            }
            if deadline.expired() {
                return (false, checks);
            }
            let mut parts = Vec::new();
            for a in &c.body {
                let p = a.pred.0 as usize;
                for &l in &lemmas.lemmas[p] {
                    parts.push(lemmas.instance(store, p, &a.args, l));
                }
            }
            let heads: Vec<TermId> = lemmas.lemmas[h]
                .iter()
                .map(|&l| lemmas.instance(store, h, &head.args, l))
                .collect();
            parts.push(store.not(store.and(heads.clone())));
            let mut smt = solvers.slot(cid.0 as usize);
            if !std::mem::replace(&mut started[cid.0 as usize], true) {
                smt.assert(c.constraint);
            }
            smt.push();
            smt.assert(store.and(parts));
            checks += 1;
            let result = smt.check();
            let values = match result {
                SatResult::Sat => smt.values(c.vars(store).into_iter().collect::<Vec<VarId>>()),
                _ => None,
            };
            smt.pop(1);
            match result {
                SatResult::Unsat => continue,
                SatResult::Sat => {
                    let env: HashMap<VarId, _> = values.into_iter().flatten().collect();
                    let keep: Vec<bool> = heads
                        .iter()
                        .map(|&t| matches!(store.eval(t, &env), Ok(crate::term::Value::Bool(true))))
                        .collect();
                    if keep.iter().all(|k| *k) {
                        // The model falsifies the conjunction, so some lemma must be false;
                        // evaluation disagreed with the solver: drop the new ones to stay sound.
                        lemmas.lemmas[h].truncate(lemmas.known[h]);
                    } else {
                        let known = lemmas.known[h];
                        let mut k = keep.into_iter().enumerate();
                        lemmas.lemmas[h]
                            .retain(|_| k.next().is_some_and(|(i, keep)| keep || i < known));
                    }
                    changed = true;
                }
                SatResult::Unknown(_) => {
                    if deadline.expired() {
                        return (false, checks);
                    }
                    lemmas.lemmas[h].truncate(lemmas.known[h]);
                    changed = true;
                }
            }
        }
        if !changed {
            return (true, checks);
        }
    }
}
