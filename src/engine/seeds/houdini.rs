//! The Houdini filter: the largest subset of candidate lemmas that is inductive relative to the
//! clauses (every non-query clause maps the body lemmas to the head lemmas).
//!
//! Duty: drop, clause by clause, every head lemma some model of `body lemmas ∧ constraint`
//! falsifies, until nothing changes. A check the solver cannot decide drops every lemma of that
//! head that is not already known to be inductive (sound: the result only shrinks; lemmas kept
//! by an earlier filter stay inductive when more body lemmas are assumed). Must not: look at
//! queries, or keep a lemma without the checks that justify it (when the deadline passes,
//! `None`).

use crate::chc::{Clause, System};
use crate::clock::Deadline;
use crate::smt::{Pool, SatResult};
use crate::term::{Sort, TermId, TermStore, VarId};
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
    let mut run = Run {
        store,
        solvers: Pool::new(store, system.num_clauses(), deadline.clone()),
        started: vec![false; system.num_clauses()],
        indicators: vec![HashMap::new(); system.num_clauses()],
        heads: vec![HashMap::new(); system.num_clauses()],
        checks: 0,
    };
    run.solvers.set_check_cap(Some(CHECK_CAP));
    // The clauses to check (again): every one at first; once a predicate's lemmas shrink, the
    // clauses that read it (a clause found unsat stays so while its body lemmas stay: fewer
    // head lemmas ask less). A clause is checked until it is unsat, before the next one, so
    // that its readers see its head's lemmas shrink once rather than at every counterexample.
    let mut dirty = vec![true; system.num_clauses()];
    let mut readers: Vec<Vec<usize>> = vec![vec![]; lemmas.lemmas.len()];
    for (cid, c) in system.clauses() {
        for a in &c.body {
            readers[a.pred.0 as usize].push(cid.0 as usize);
        }
    }
    while dirty.iter().any(|&d| d) {
        for (cid, c) in system.clauses() {
            let k = cid.0 as usize;
            let Some(h) = c.head_atom().map(|a| a.pred.0 as usize) else {
                dirty[k] = false;
                continue;
            };
            while dirty[k] && lemmas.lemmas[h].len() > lemmas.known[h] {
                if deadline.expired() {
                    return (false, run.checks);
                }
                match run.check(k, c, lemmas) {
                    SatResult::Unsat => dirty[k] = false,
                    SatResult::Sat => {}
                    SatResult::Unknown(_) => {
                        if deadline.expired() {
                            return (false, run.checks);
                        }
                        lemmas.lemmas[h].truncate(lemmas.known[h]);
                    }
                }
                if dirty[k] {
                    for &r in &readers[h] {
                        dirty[r] = true;
                    }
                }
            }
            dirty[k] = false;
        }
    }
    (true, run.checks)
}

/// The solvers of one filter and what they were told.
struct Run<'a> {
    store: &'a TermStore,
    /// One solver per clause, its constraint asserted once. A body lemma's instance is asserted
    /// once too, as `indicator → instance`, and each check assumes the indicators of the body
    /// lemmas still kept: Z3 takes in each instance once rather than at every check (the cells
    /// view's thousands of candidates made checks cost 30-50 ms each). The negated head
    /// lemmas go in a pushed scope (creating a Z3 solver costs more than most checks).
    solvers: Pool<'a>,
    /// Per clause: whether its constraint is asserted.
    started: Vec<bool>,
    /// Per clause: the indicator of each (body atom, lemma) instance asserted.
    indicators: Vec<HashMap<(usize, TermId), TermId>>,
    /// Per clause: each head lemma's instance.
    heads: Vec<HashMap<TermId, TermId>>,
    /// Solver checks made.
    checks: u64,
}

impl Run<'_> {
    /// Checks whether clause `k` maps its body lemmas to its head lemmas; when a model shows
    /// it does not, drops the head lemmas the model falsifies (all the new ones if it seems to
    /// falsify none: the evaluation then disagrees with the solver, and dropping stays sound).
    fn check(&mut self, k: usize, c: &Clause, lemmas: &mut Lemmas) -> SatResult {
        let store = self.store;
        let head = c.head_atom().expect("a clause with a head");
        let h = head.pred.0 as usize;
        let mut smt = self.solvers.slot(k);
        if !std::mem::replace(&mut self.started[k], true) {
            smt.assert(c.constraint);
        }
        let mut assumptions = Vec::new();
        for (j, a) in c.body.iter().enumerate() {
            let p = a.pred.0 as usize;
            for &l in &lemmas.lemmas[p] {
                let indicator = *self.indicators[k].entry((j, l)).or_insert_with(|| {
                    let b = store.var(store.new_var("houdini", Sort::Bool));
                    smt.assert(store.implies(b, lemmas.instance(store, p, &a.args, l)));
                    b
                });
                assumptions.push(indicator);
            }
        }
        let heads: Vec<TermId> = lemmas.lemmas[h]
            .iter()
            .map(|&l| {
                *self.heads[k]
                    .entry(l)
                    .or_insert_with(|| lemmas.instance(store, h, &head.args, l))
            })
            .collect();
        smt.push();
        smt.assert(store.not(store.and(heads.clone())));
        self.checks += 1;
        let result = smt.check_assuming(&assumptions);
        let values = match result {
            SatResult::Sat => smt.values(c.vars(store).into_iter().collect::<Vec<VarId>>()),
            _ => None,
        };
        smt.pop(1);
        if result == SatResult::Sat {
            let env: HashMap<VarId, _> = values.into_iter().flatten().collect();
            let keep: Vec<bool> = heads
                .iter()
                .map(|&t| matches!(store.eval(t, &env), Ok(crate::term::Value::Bool(true))))
                .collect();
            let known = lemmas.known[h];
            if keep.iter().all(|k| *k) {
                lemmas.lemmas[h].truncate(known);
            } else {
                let mut k = keep.into_iter().enumerate();
                lemmas.lemmas[h].retain(|_| k.next().is_some_and(|(i, keep)| keep || i < known));
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `p`'s lemma `x = 0` falls at the loop clause `q → p`, after `p → q` was found
    /// inductive with it: that clause must be checked again, and drops `q`'s `x = 0`.
    #[test]
    fn a_clause_is_checked_again_when_its_body_lemmas_shrink() {
        let store = TermStore::new();
        let src = "(set-logic HORN) (declare-fun p (Int) Bool) (declare-fun q (Int) Bool)
            (assert (forall ((x Int)) (=> (= x 0) (p x))))
            (assert (forall ((x Int)) (=> (p x) (q x))))
            (assert (forall ((x Int) (y Int)) (=> (and (q x) (= y (+ x 1))) (p y))))
            (check-sat)";
        let system = crate::syntax::read_system(&store, src).expect("parses");
        let mut lemmas = Lemmas {
            params: vec![],
            lemmas: vec![],
            known: vec![0; system.num_preds()],
        };
        for p in system.pred_ids() {
            let params = system.fresh_params(&store, p);
            let x = store.var(params[0]);
            lemmas
                .lemmas
                .push(vec![store.eq(x, store.int(0)), store.ge(x, store.int(0))]);
            lemmas.params.push(params);
        }
        let (done, checks) = filter(&store, &system, &mut lemmas, Deadline::none());
        assert!(done);
        assert!(checks >= 4, "{checks} checks");
        for (p, kept) in lemmas.lemmas.iter().enumerate() {
            let x = store.var(lemmas.params[p][0]);
            assert_eq!(kept, &vec![store.ge(x, store.int(0))], "predicate {p}");
        }
    }
}
