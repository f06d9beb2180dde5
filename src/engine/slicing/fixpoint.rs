//! The formula slicing fixpoint (Alg. 2 and 3) adapted to clause systems.
//!
//! Duty: keep one candidate lemma set per predicate (`None` is ⊥, i.e. `false`), seed it from the
//! precondition that first reaches the predicate, and weaken it along every clause into the
//! predicate until all those clauses hold, iterating over the weak topological order of the
//! analyses: a loop is stabilised by repeating passes over its members, inner loops to
//! stability inside each pass of the outer one.
//!
//! Adaptation to clauses. The "precondition" of a clause `B₁(x₁) ∧ … ∧ φ → P(y)` is
//! `φ ∧ ⋀ cand(Bᵢ)(xᵢ)` (non-linear clauses take the conjunction of the body candidates),
//! projected onto `y`. A predicate is seeded with the relaxed CNF of the disjunction of the
//! projected preconditions of all its clauses enabled at that time (every body predicate has a
//! candidate): in the weak topological order these are the clauses entering its loop, and the
//! disjunction keeps case splits such as the two branches of Fig. 1. Every predicate, loop head
//! or not, is then handled like a loop head (as in the paper, where every node kept after
//! large-block encoding is a loop head): each later clause into it weakens its candidate —
//! inductively (Alg. 1) when the predicate is in the clause's body, as an abstract
//! postcondition (Sec. 3.1) otherwise. Lemmas whose variables are all dead arguments are
//! dropped at seeding. Predicates from which no query is reachable are not computed (their
//! interpretation is `true`).
//!
//! Must not: answer for the system (the engine validates the result), print, or call the SMT
//! layer except through the weakening and projection modules.

use super::project::project;
use super::rcnf::rcnf_of_disjunction;
use super::weaken::{self, Problem};
use super::{Slicing, Weakening};
use crate::analysis::Analysis;
use crate::chc::{ClauseId, PredId, System};
use crate::engine::Context;
use crate::term::{TermId, VarId};
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// Counters of one run, reported by `--stats`.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// SMT checks of each weakening that made at least one check.
    pub calls_per_weakening: Vec<u64>,
    /// Lemmas in the seeds (after liveness pruning).
    pub lemmas_seeded: u64,
    /// Lemmas of the seeds dropped because they have no live variable.
    pub lemmas_dead: u64,
    /// Lemmas dropped by weakenings.
    pub lemmas_dropped: u64,
    /// Passes over loop spans (and the top-level pass).
    pub iterations: u64,
    /// Weakenings run (SMT-based or syntactic).
    pub weakenings: u64,
    /// Milliseconds spent seeding (projection and relaxed CNF).
    pub seed_ms: u64,
    /// Milliseconds spent weakening.
    pub weaken_ms: u64,
}

/// The state of the fixpoint computation.
pub struct Fixpoint<'a, 's> {
    cx: &'a Context<'s>,
    system: &'a System,
    analysis: &'a Analysis,
    options: &'a Slicing,
    /// Per predicate: the parameters its lemmas are written over.
    pub params: Vec<Vec<VarId>>,
    /// Per predicate: the candidate (`None` = ⊥).
    pub cand: Vec<Option<Vec<TermId>>>,
    version: Vec<u64>,
    /// Per clause: the versions of its body and head candidates when it last held.
    verified: HashMap<ClauseId, Vec<u64>>,
    /// Per predicate: the loops containing it, outermost first.
    chains: Vec<Vec<usize>>,
    /// Counters for `--stats`.
    pub counters: Counters,
}

impl<'a, 's> Fixpoint<'a, 's> {
    /// A fresh state: every predicate at ⊥.
    pub fn new(
        cx: &'a Context<'s>,
        system: &'a System,
        analysis: &'a Analysis,
        options: &'a Slicing,
    ) -> Self {
        let store = cx.store;
        let params = system
            .pred_ids()
            .map(|p| {
                // Parameters are named after the input's names of the arguments at some
                // occurrence of `p` (not the `arg` variables the normal form introduces).
                let occurrences: Vec<&[VarId]> = system
                    .clauses()
                    .flat_map(|(_, c)| c.body.iter().chain(c.head_atom()))
                    .filter(|a| a.pred == p)
                    .map(|a| a.args.as_slice())
                    .collect();
                system
                    .pred(p)
                    .sorts
                    .iter()
                    .enumerate()
                    .map(|(k, s)| {
                        let base = occurrences
                            .iter()
                            .map(|args| {
                                store
                                    .var_name(args[k])
                                    .split('!')
                                    .next()
                                    .unwrap_or("")
                                    .to_string()
                            })
                            .find(|n| !n.is_empty() && !n.starts_with("arg"))
                            .unwrap_or_else(|| format!("x{k}"));
                        store.new_var(&base, s.clone())
                    })
                    .collect()
            })
            .collect();
        let chains = (0..system.num_preds())
            .map(|p| {
                let mut chain = Vec::new();
                let mut l = analysis.innermost_loop[p];
                while let Some(i) = l {
                    chain.push(i);
                    l = analysis.loops[i].parent;
                }
                chain.reverse();
                chain
            })
            .collect();
        Fixpoint {
            cx,
            system,
            analysis,
            options,
            params,
            cand: vec![None; system.num_preds()],
            version: vec![0; system.num_preds()],
            verified: HashMap::new(),
            chains,
            counters: Counters::default(),
        }
    }

    /// Runs to the fixpoint; `Err` with a reason when the deadline passes or the solver gives up.
    pub fn run(&mut self) -> Result<(), String> {
        let order = self.analysis.order.clone();
        self.span(&order, 0, false)?;
        Ok(())
    }

    /// Stabilises a span of the weak topological order whose members are in `depth` loops.
    fn span(&mut self, preds: &[PredId], depth: usize, is_loop: bool) -> Result<bool, String> {
        let mut any = false;
        loop {
            let mut changed = false;
            let mut i = 0;
            while i < preds.len() {
                let chain = &self.chains[preds[i].0 as usize];
                if chain.len() > depth {
                    let l = chain[depth];
                    let mut j = i;
                    while j < preds.len() && self.chains[preds[j].0 as usize].get(depth) == Some(&l)
                    {
                        j += 1;
                    }
                    changed |= self.span(&preds[i..j], depth + 1, true)?;
                    i = j;
                } else {
                    changed |= self.update(preds[i])?;
                    i += 1;
                }
            }
            self.counters.iterations += 1;
            any |= changed;
            if !is_loop || !changed {
                return Ok(any);
            }
            if self.cx.stopped() {
                return Err("timeout".into());
            }
        }
    }

    fn enabled(&self, c: ClauseId) -> bool {
        self.system
            .clause(c)
            .body
            .iter()
            .all(|a| self.cand[a.pred.0 as usize].is_some())
    }

    fn versions(&self, c: ClauseId) -> Vec<u64> {
        let clause = self.system.clause(c);
        clause
            .body
            .iter()
            .chain(clause.head_atom())
            .map(|a| self.version[a.pred.0 as usize])
            .collect()
    }

    /// A candidate applied to atom arguments.
    fn apply(&self, p: PredId, args: &[VarId]) -> TermId {
        let store = self.cx.store;
        match &self.cand[p.0 as usize] {
            None => store.ff(),
            Some(lemmas) => store.rename(
                store.and(lemmas.iter().copied()),
                &self.params[p.0 as usize],
                args,
            ),
        }
    }

    /// Seeds (if at ⊥) and weakens the candidate of `p` until every enabled clause into it holds.
    fn update(&mut self, p: PredId) -> Result<bool, String> {
        if !self.analysis.co_reachable[p.0 as usize] {
            return Ok(false);
        }
        if self.cx.stopped() {
            return Err("timeout".into());
        }
        let incoming: Vec<ClauseId> = self.system.clauses_defining(p).map(|(c, _)| c).collect();
        let mut changed = false;
        if self.cand[p.0 as usize].is_none() {
            let enabled: Vec<ClauseId> = incoming
                .iter()
                .copied()
                .filter(|&c| self.enabled(c))
                .collect();
            if enabled.is_empty() {
                return Ok(false);
            }
            let started = Instant::now();
            self.seed(p, &enabled);
            self.counters.seed_ms += started.elapsed().as_millis() as u64;
            changed = true;
        }
        loop {
            let mut dropped_any = false;
            for &c in &incoming {
                if !self.enabled(c) || self.verified.get(&c) == Some(&self.versions(c)) {
                    continue;
                }
                let started = Instant::now();
                let keep = self.weaken(p, c);
                self.counters.weaken_ms += started.elapsed().as_millis() as u64;
                let keep = keep?;
                let lemmas = self.cand[p.0 as usize].clone().unwrap_or_default();
                let kept: Vec<TermId> = lemmas
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k)
                    .map(|(l, _)| *l)
                    .collect();
                if kept.len() < lemmas.len() {
                    self.counters.lemmas_dropped += (lemmas.len() - kept.len()) as u64;
                    self.cand[p.0 as usize] = Some(kept);
                    self.version[p.0 as usize] += 1;
                    dropped_any = true;
                    changed = true;
                }
                let v = self.versions(c);
                self.verified.insert(c, v);
            }
            if !dropped_any {
                return Ok(changed);
            }
        }
    }

    /// Sets the candidate of `p` to the relaxed CNF of the disjunction of the projected
    /// preconditions of `clauses`, without lemmas over dead arguments only.
    fn seed(&mut self, p: PredId, clauses: &[ClauseId]) {
        let store = self.cx.store;
        let params = self.params[p.0 as usize].clone();
        let mut sets = Vec::new();
        for &c in clauses {
            let clause = self.system.clause(c);
            let head = clause.head_atom().expect("defining clause has a head");
            let mut parts = vec![clause.constraint];
            parts.extend(clause.body.iter().map(|a| self.apply(a.pred, &a.args)));
            let pre = store.and(parts);
            let keep: BTreeSet<VarId> = head.args.iter().copied().collect();
            let lemmas = project(store, pre, &keep, self.cx.deadline.clone());
            let back: HashMap<VarId, TermId> = head
                .args
                .iter()
                .zip(&params)
                .map(|(a, q)| (*a, store.var(*q)))
                .collect();
            sets.push(
                lemmas
                    .into_iter()
                    .map(|l| store.substitute(l, &back))
                    .collect::<Vec<_>>(),
            );
        }
        let lemmas = if sets.len() == 1 {
            sets.pop().unwrap_or_default()
        } else {
            rcnf_of_disjunction(store, &sets)
        };
        let live = &self.analysis.live[p.0 as usize];
        let (alive, dead): (Vec<TermId>, Vec<TermId>) = lemmas.into_iter().partition(|l| {
            let vars = store.free_vars(*l);
            !self.options.prune_dead
                || vars.is_empty()
                || vars
                    .iter()
                    .any(|v| params.iter().position(|q| q == v).is_some_and(|k| live[k]))
        });
        self.counters.lemmas_seeded += alive.len() as u64;
        self.counters.lemmas_dead += dead.len() as u64;
        self.cand[p.0 as usize] = Some(alive);
        self.version[p.0 as usize] += 1;
        for &c in clauses {
            let v = self.versions(c);
            self.verified.insert(c, v);
        }
    }

    /// Which lemmas of `p`'s candidate survive clause `c`.
    fn weaken(&mut self, p: PredId, c: ClauseId) -> Result<Vec<bool>, String> {
        let store = self.cx.store;
        let clause = self.system.clause(c);
        let head = clause.head_atom().expect("defining clause has a head");
        let lemmas = self.cand[p.0 as usize].clone().unwrap_or_default();
        let mut fixed = vec![clause.constraint];
        let mut self_args: Vec<&[VarId]> = Vec::new();
        for a in &clause.body {
            if a.pred == p {
                self_args.push(&a.args);
            } else {
                fixed.push(self.apply(a.pred, &a.args));
            }
        }
        let pb = Problem {
            fixed: store.and(fixed),
            self_args,
            head_args: &head.args,
            params: &self.params[p.0 as usize],
            lemmas: &lemmas,
        };
        self.counters.weakenings += 1;
        let out = match self.options.weakening {
            Weakening::Cex => weaken::by_counterexamples(store, self.cx.deadline.clone(), &pb)?,
            Weakening::Syntactic => {
                let bodies: Vec<(&[VarId], &[VarId], &[TermId])> = clause
                    .body
                    .iter()
                    .map(|a| {
                        let cand = self.cand[a.pred.0 as usize].as_deref().unwrap_or(&[]);
                        (
                            a.args.as_slice(),
                            self.params[a.pred.0 as usize].as_slice(),
                            cand,
                        )
                    })
                    .collect();
                weaken::syntactic(store, clause.constraint, &pb, &bodies)
            }
        };
        if out.calls > 0 {
            self.counters.calls_per_weakening.push(out.calls);
        }
        Ok(out.keep)
    }
}
