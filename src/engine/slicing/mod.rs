//! Formula slicing (Karpenkov and Monniaux, HVC 2016): inductive invariants obtained by
//! weakening the precondition that reaches each predicate until every clause holds.
//!
//! Duty: run the structure analyses, compute the fixpoint of candidate lemma sets
//! ([`fixpoint`]), turn the candidates into a model and validate it; answer `sat` with the model
//! only when the validator says it is valid, `unknown` otherwise. The invariants do not depend
//! on the queries (the paper's analysis is property-independent): when they are too weak to
//! exclude a query, the answer is `unknown`.
//!
//! Must not: answer `unsat` (the abstraction over-approximates, so it finds no counterexamples),
//! print, or call other engines.
//!
//! Modules: [`rcnf`] (relaxed CNF), [`project`] (elimination of intermediate variables),
//! [`weaken`] (Alg. 1, abstract postcondition, syntactic weakening), [`fixpoint`] (Alg. 2-3 over
//! clauses).

pub mod fixpoint;
pub mod project;
pub mod rcnf;
pub mod weaken;

use super::{Context, Engine, Stats};
use crate::analysis::analyze;
use crate::chc::System;
use crate::witness::{validate_model, Answer, Interp, Model, ModelCheck, Reason};
use std::collections::BTreeMap;
use std::time::Instant;

/// How candidates are weakened along a clause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weakening {
    /// Counterexamples to induction from the SMT solver (Alg. 1): the strongest weakening.
    #[default]
    Cex,
    /// Drop lemmas over arguments the clause changes (Sec. 6.1): no SMT call, less precise.
    Syntactic,
}

/// Formula slicing's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SlicingStats {
    /// `cex` or `syntactic`.
    pub weakening: &'static str,
    /// How many weakenings made each number of SMT checks (keys are the numbers).
    pub smt_calls_per_weakening: BTreeMap<String, u64>,
    /// The median number of SMT checks of a weakening (absent when none made any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_smt_calls_per_weakening: Option<u64>,
    /// Weakenings run.
    pub weakenings: u64,
    /// Lemmas in the seeds (after liveness pruning).
    pub lemmas_seeded: u64,
    /// Lemmas of the seeds dropped because they have no live variable.
    pub lemmas_dead: u64,
    /// Lemmas dropped by weakenings.
    pub lemmas_dropped: u64,
    /// Passes over loop spans.
    pub iterations: u64,
    /// Milliseconds seeding.
    pub seed_ms: u64,
    /// Milliseconds weakening.
    pub weaken_ms: u64,
    /// Milliseconds validating the model (as an engine, after the fixpoint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validate_ms: Option<u64>,
}

/// The formula slicing engine.
#[derive(Clone, Debug)]
pub struct Slicing {
    /// How to weaken.
    pub weakening: Weakening,
    /// Drop seeded lemmas whose variables are all dead arguments (the paper's live-variable
    /// optimisation). Off only to show the paper's run of Fig. 3 lemma by lemma.
    pub prune_dead: bool,
}

impl Default for Slicing {
    fn default() -> Self {
        Slicing {
            weakening: Weakening::Cex,
            prune_dead: true,
        }
    }
}

impl Slicing {
    /// The fixpoint's candidate invariants as a model, before any check against the queries:
    /// what the portfolio hands to other engines as seeds even when it does not prove safety.
    /// Predicates that reach no query are `true`.
    pub fn invariants(
        &self,
        cx: &Context<'_>,
        system: &System,
        stats: &mut Stats,
    ) -> Result<Model, String> {
        let store = cx.store;
        let analysis = analyze(system, store);
        let mut fp = fixpoint::Fixpoint::new(cx, system, &analysis, self);
        let result = fp.run();
        record(stats, &fp.counters, self.weakening);
        result.map_err(|reason| format!("slicing: {reason}"))?;
        let mut model = Model::new();
        for p in system.pred_ids() {
            let i = p.0 as usize;
            let body = if !analysis.co_reachable[i] {
                store.tt()
            } else {
                match &fp.cand[i] {
                    None => store.ff(),
                    Some(lemmas) => store.and(lemmas.iter().map(|l| rcnf::pretty(store, *l))),
                }
            };
            model.set(
                p,
                Interp {
                    params: fp.params[i].clone(),
                    body,
                },
            );
        }
        Ok(model)
    }
}

impl Engine for Slicing {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let store = cx.store;
        let model = match self.invariants(cx, system, stats) {
            Ok(m) => m,
            Err(reason) => return Answer::Unknown(Reason::GaveUp(reason)),
        };
        // Seeds for the engines after this one, whether they prove the queries or not.
        cx.candidates.leave(model.clone());
        let started = Instant::now();
        let check = validate_model(store, system, &model, cx.deadline.clone());
        if let Stats::Slicing(s) = stats {
            s.validate_ms = Some(started.elapsed().as_millis() as u64);
        }
        match check {
            ModelCheck::Valid => Answer::Sat(model),
            ModelCheck::Invalid { clause, .. } if system.clause(clause).is_query() => {
                Answer::Unknown(Reason::GaveUp(format!(
                    "slicing: the invariants do not exclude query clause {}",
                    clause.0
                )))
            }
            ModelCheck::Invalid { clause, reason, .. } => {
                Answer::Unknown(Reason::WitnessFailed(format!(
                    "slicing: clause {} fails under the invariants: {reason}",
                    clause.0
                )))
            }
            ModelCheck::Unknown(r) => {
                Answer::Unknown(Reason::Unchecked(format!("slicing: validation: {r}")))
            }
        }
    }
}

/// The counters as [`SlicingStats`]: the distribution of SMT calls per weakening (the paper's
/// Fig. 4b) as a histogram and its median, lemma counts, iterations.
fn record(stats: &mut Stats, c: &fixpoint::Counters, w: Weakening) {
    let mut hist: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_calls: BTreeMap<u64, u64> = BTreeMap::new();
    for &n in &c.calls_per_weakening {
        *by_calls.entry(n).or_default() += 1;
    }
    for (k, v) in by_calls {
        hist.insert(k.to_string(), v);
    }
    *stats = Stats::Slicing(SlicingStats {
        weakening: match w {
            Weakening::Cex => "cex",
            Weakening::Syntactic => "syntactic",
        },
        smt_calls_per_weakening: hist,
        median_smt_calls_per_weakening: median(&c.calls_per_weakening),
        weakenings: c.weakenings,
        lemmas_seeded: c.lemmas_seeded,
        lemmas_dead: c.lemmas_dead,
        lemmas_dropped: c.lemmas_dropped,
        iterations: c.iterations,
        seed_ms: c.seed_ms,
        weaken_ms: c.weaken_ms,
        validate_ms: None,
    });
}

/// The median (lower middle for even lengths) of a list.
fn median(xs: &[u64]) -> Option<u64> {
    let mut v = xs.to_vec();
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied()
}
