//! Proof obligations and reach facts: blocking one query at one level.
//!
//! An obligation is a cube of states of a predicate (or a query clause, at the root) from
//! which `false` is derivable; it is processed at a level `ℓ` by first trying to derive it
//! from reach facts (cubes of states known to be derivable, each with the clause and the
//! reach facts that derive it), which makes it a new reach fact, and otherwise from
//! `F_{ℓ-1}`: a model there yields a child obligation for the first body atom whose state no
//! reach fact covers; no model yields a lemma. Non-linear clauses are handled like linear
//! ones: body atoms covered by reach facts are fixed to them, the others range over frames.
//! Must not: learn a lemma that was not refuted, or a reach fact that is not derivable (cubes
//! are model-based projections, which under-approximate the states that have a derivation).

use super::frames::{Check, Source};
use super::Run;
use crate::chc::{ClauseId, PredId};
use crate::term::{TermId, Value, VarId};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

/// A cube of derivable states of a predicate (or, empty, of a query clause: `false` is
/// derivable).
#[derive(Clone, Debug)]
pub(super) struct ReachFact {
    pub cube: Vec<TermId>,
    pub clause: ClauseId,
    /// The reach fact each body atom of `clause` was drawn from.
    pub children: Vec<usize>,
}

/// What an obligation is about: a predicate's states, or a query clause.
#[derive(Clone, Copy, Debug)]
enum Target {
    Pred(PredId),
    Query(usize),
}

#[derive(Clone, Debug)]
struct Obligation {
    target: Target,
    cube: Vec<TermId>,
}

/// How blocking a query ended.
pub(super) enum Blocking {
    Blocked,
    /// `false` is derivable: the query's reach fact.
    Reached(usize),
    Unknown(String),
}

impl Run<'_, '_> {
    /// Blocks query solver `q` at level `top` (its body states drawn from `F_{top-1}`), with
    /// every obligation that spawns, or derives `false`.
    pub(super) fn block(&mut self, q: usize, top: usize) -> Blocking {
        let mut obls = vec![Obligation {
            target: Target::Query(q),
            cube: Vec::new(),
        }];
        // Lowest level first; among equals the oldest. Obligations other than the root are
        // retried one level up after blocking, up to the frame the root reads (`top - 1`).
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((top, 0usize)));
        while let Some(Reverse((level, i))) = queue.pop() {
            if self.cx.stopped() {
                return Blocking::Unknown("timeout".into());
            }
            self.obligations += 1;
            let Obligation { target, cube } = obls[i].clone();
            let (solvers, pred) = match target {
                Target::Query(q) => (vec![q], None),
                Target::Pred(p) => (self.frames.defining(p), Some(p)),
            };
            if pred.is_some_and(|p| self.subsumed(p, &cube, level)) {
                if level + 1 < top {
                    queue.push(Reverse((level + 1, i)));
                }
                continue;
            }
            let mut core = BTreeSet::new();
            // Per clause, the reach facts of its body atoms: the states to derive from first,
            // then the ones to prefer in the frame below.
            let known: Vec<Vec<TermId>> = solvers.iter().map(|&k| self.reach_formulas(k)).collect();
            // 1. Derivable from reach facts?
            match self.reach(&solvers, &known, pred, &cube, &mut core) {
                Err(r) => return Blocking::Unknown(r),
                Ok(Some(fact)) if i == 0 => return Blocking::Reached(fact),
                Ok(Some(_)) => continue, // the parent, still queued, will use it
                Ok(None) => {}
            }
            // 2. Derivable from the frame below?
            let mut child = None;
            for (&k, prefer) in solvers.iter().zip(&known) {
                if self.frames.solvers[k].body.is_empty() {
                    continue; // facts were tried with the reach facts
                }
                let source = Source::Frames {
                    level: level - 1,
                    avoid: None,
                    prefer,
                };
                match self.frames.open(k, &cube, source) {
                    Check::Unsat(c) => core.extend(c),
                    Check::Unknown(r) => return Blocking::Unknown(r),
                    Check::Sat => {
                        let c = self.child(k, pred, &cube, level - 1);
                        self.frames.close(k);
                        child = Some(c);
                        break;
                    }
                }
            }
            match child {
                Some(Err(r)) => return Blocking::Unknown(r),
                Some(Ok(Err(fact))) if i == 0 => return Blocking::Reached(fact),
                Some(Ok(Err(_))) => {}
                Some(Ok(Ok(c))) => {
                    obls.push(c);
                    queue.push(Reverse((level - 1, obls.len() - 1)));
                    queue.push(Reverse((level, i)));
                }
                None => {
                    let Some(p) = pred else {
                        return Blocking::Blocked;
                    };
                    let kept: Vec<TermId> = core.iter().map(|&j| cube[j]).collect();
                    if let Err(r) = self.learn(p, kept, level, top) {
                        return Blocking::Unknown(r);
                    }
                    if level + 1 < top {
                        queue.push(Reverse((level + 1, i)));
                    }
                }
            }
        }
        Blocking::Blocked
    }

    /// Tries each clause with every body atom drawn from its predicate's reach facts (`known`,
    /// per clause, from [`Run::reach_formulas`]); on success records and returns the new reach
    /// fact. Adds the cores of refuted facts (their
    /// refutations are the ones blocking needs) to `core`.
    fn reach(
        &mut self,
        solvers: &[usize],
        known: &[Vec<TermId>],
        pred: Option<PredId>,
        cube: &[TermId],
        core: &mut BTreeSet<usize>,
    ) -> Result<Option<usize>, String> {
        for (&k, given) in solvers.iter().zip(known) {
            let is_fact = self.frames.solvers[k].body.is_empty();
            if given.len() < self.frames.solvers[k].body.len() {
                continue; // some body predicate has no reach fact yet
            }
            match self.frames.open(k, cube, Source::Given(given)) {
                Check::Unsat(c) => {
                    if is_fact {
                        core.extend(c);
                    }
                }
                Check::Unknown(r) => return Err(r),
                Check::Sat => {
                    let fact = self.new_reach_fact(k, pred, cube, None);
                    self.frames.close(k);
                    match fact {
                        Ok(Some(f)) => return Ok(Some(f)),
                        Ok(None) => return Err("no reach fact covers a body state".into()),
                        Err(r) => return Err(r),
                    }
                }
            }
        }
        Ok(None)
    }

    /// For each body atom of solver `k`'s clause whose predicate has reach facts, their
    /// disjunction over the atom's arguments.
    fn reach_formulas(&self, k: usize) -> Vec<TermId> {
        let store = self.cx.store;
        let mut out = Vec::new();
        for (p, args) in &self.frames.solvers[k].body {
            let Some(facts) = self.reach_of.get(p) else {
                continue;
            };
            let from = &self.frames.params[p];
            out.push(store.or(facts.iter().map(|&r| {
                store.rename(store.and(self.reach[r].cube.iter().copied()), from, args)
            })));
        }
        out
    }

    /// The reach fact covering each body atom's state in solver `k`'s model (`None` for an
    /// uncovered atom).
    fn covering(&mut self, k: usize) -> Result<Vec<Option<usize>>, String> {
        let store = self.cx.store;
        let body = self.frames.solvers[k].body.clone();
        let mut out = Vec::new();
        for (p, args) in &body {
            let vals = self
                .frames
                .values(k, args)
                .ok_or("no model for the body states")?;
            let from = &self.frames.params[p];
            let env: HashMap<VarId, Value> = from
                .iter()
                .zip(args)
                .map(|(x, a)| (*x, vals[a].clone()))
                .collect();
            let facts = self.reach_of.get(p).cloned().unwrap_or_default();
            let hit = facts.into_iter().find(|&r| {
                let t = store.and(self.reach[r].cube.iter().copied());
                matches!(store.eval(t, &env), Ok(Value::Bool(true)))
            });
            out.push(hit);
        }
        Ok(out)
    }

    /// After a satisfiable check of solver `k`: when every body state is covered by a reach
    /// fact (or `covering` says so), records the head's reach fact — a projection of the clause
    /// with those reach facts onto the head arguments — and returns it.
    fn new_reach_fact(
        &mut self,
        k: usize,
        pred: Option<PredId>,
        cube: &[TermId],
        covering: Option<Vec<Option<usize>>>,
    ) -> Result<Option<usize>, String> {
        let store = self.cx.store;
        let covering = match covering {
            Some(c) => c,
            None => self.covering(k)?,
        };
        let Some(children) = covering.into_iter().collect::<Option<Vec<usize>>>() else {
            return Ok(None);
        };
        let s = &self.frames.solvers[k];
        let (id, constraint, body, head) = (s.id, s.constraint, s.body.clone(), s.head.clone());
        let mut parts = vec![constraint];
        for ((p, args), &r) in body.iter().zip(&children) {
            let from = &self.frames.params[p];
            parts.push(store.rename(store.and(self.reach[r].cube.iter().copied()), from, args));
        }
        let mut fact_cube = Vec::new();
        if let Some((p, args)) = &head {
            let from = self.frames.params[p].clone();
            parts.extend(cube.iter().map(|&l| store.rename(l, &from, args)));
            let projected = self
                .frames
                .project(k, store.and(parts), args)
                .ok_or("no model for a reach fact")?;
            fact_cube = projected
                .iter()
                .map(|&l| store.rename(l, args, &from))
                .collect();
        }
        fact_cube.sort();
        if let Some(p) = pred {
            let known = self.reach_of.get(&p).into_iter().flatten();
            if let Some(&r) = known
                .into_iter()
                .find(|&&r| self.reach[r].cube == fact_cube)
            {
                return Ok(Some(r));
            }
        }
        self.reach.push(ReachFact {
            cube: fact_cube,
            clause: id,
            children,
        });
        let r = self.reach.len() - 1;
        if let Some(p) = pred {
            self.reach_of.entry(p).or_default().push(r);
        }
        Ok(Some(r))
    }

    /// After a satisfiable check of solver `k` against `F_level`: the obligation for the first
    /// body atom no reach fact covers, its cube a projection of the clause (the other atoms
    /// fixed to their reach facts or frames) onto that atom's arguments; or, when reach facts
    /// cover every body state, the new reach fact of the head.
    fn child(
        &mut self,
        k: usize,
        pred: Option<PredId>,
        cube: &[TermId],
        level: usize,
    ) -> Result<Result<Obligation, usize>, String> {
        let store = self.cx.store;
        let covering = self.covering(k)?;
        let Some(j) = covering.iter().position(Option::is_none) else {
            // Every body state happens to be derivable: the cube is reached.
            let fact = self.new_reach_fact(k, pred, cube, Some(covering))?;
            return Ok(Err(fact.ok_or("no reach fact covers a body state")?));
        };
        let s = &self.frames.solvers[k];
        let (constraint, body, head) = (s.constraint, s.body.clone(), s.head.clone());
        let mut parts = vec![constraint];
        if let Some((p, args)) = &head {
            let from = &self.frames.params[p];
            parts.extend(cube.iter().map(|&l| store.rename(l, from, args)));
        }
        for (l, ((p, args), cov)) in body.iter().zip(&covering).enumerate() {
            if l == j {
                continue;
            }
            parts.push(match cov {
                Some(r) => {
                    let from = &self.frames.params[p];
                    store.rename(store.and(self.reach[*r].cube.iter().copied()), from, args)
                }
                None => self.frames.frame(*p, level, args),
            });
        }
        let (p, args) = &body[j];
        let projected = self
            .frames
            .project(k, store.and(parts), args)
            .ok_or("no model for an obligation")?;
        let from = &self.frames.params[p];
        Ok(Ok(Obligation {
            target: Target::Pred(*p),
            cube: projected
                .iter()
                .map(|&l| store.rename(l, args, from))
                .collect(),
        }))
    }
}
