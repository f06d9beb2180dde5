//! A user's hints (candidate invariants, `solve --hints`) made ready for the engines: the
//! largest subset that is inductive together (the Houdini filter of [`super::seeds::houdini`]),
//! as a model that interprets every predicate.
//!
//! Duty: the driver carries the hints through preprocessing and calls [`filter`]; what survives
//! holds in every reachable state, so the portfolio may hand it to PDR, CEGAR and the samples
//! as seeds (PDR takes seeds as lemmas of every frame), and when it already excludes every
//! query it is the answer (validated as always). Must not: let a hint the filter dropped reach
//! an engine, keep a hint without the checks that justify it (a filter the deadline stops
//! keeps nothing), print, or read files. A wrong hint costs the filter's time, never an answer.

use super::seeds::houdini::{self, Lemmas};
use crate::chc::System;
use crate::clock::Deadline;
use crate::term::TermStore;
use crate::witness::{Interp, Model};
use std::time::Instant;

/// What became of the hints, for `--stats` (`"hints"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct HintStats {
    /// Atoms given (conjuncts of the hints over the input system).
    pub given: u64,
    /// Hints a front end could not read over their predicate (a C loop hint over a variable
    /// the clauses do not carry at that head): not among `given`.
    pub unread: u64,
    /// Atoms left after preprocessing (hints of removed predicates or arguments are lost).
    pub carried: u64,
    /// Atoms kept by the filter: inductive together.
    pub kept: u64,
    /// SMT checks of the filter.
    pub checks: u64,
    /// Whether the filter ended before its deadline (if not, nothing is kept).
    pub finished: bool,
    /// Time taken, in milliseconds.
    pub ms: u64,
    /// Whether the kept hints were an inductive invariant excluding every query: the answer.
    pub answered: bool,
    /// Clauses left out on the user's advice (`drop_clause`).
    pub dropped: u64,
}

/// The number of atoms (top-level conjuncts other than `true`) of `hints`.
pub fn atoms(store: &TermStore, hints: &Model) -> u64 {
    hints
        .iter()
        .map(|(_, i)| {
            store
                .conjuncts(i.body)
                .into_iter()
                .filter(|&c| c != store.tt())
                .count() as u64
        })
        .sum()
}

/// The inductive subset of `hints` (their conjuncts, per predicate of `system`) as a model that
/// interprets every predicate (`true` where no hint survived), found by `deadline` (`None` when
/// the filter did not finish: nothing is kept).
pub fn filter(
    store: &TermStore,
    system: &System,
    hints: &Model,
    deadline: Deadline,
    stats: &mut HintStats,
) -> Option<Model> {
    let start = Instant::now();
    let mut lemmas = Lemmas {
        params: Vec::new(),
        lemmas: Vec::new(),
        known: vec![0; system.num_preds()],
    };
    for p in system.pred_ids() {
        let params = system.fresh_params(store, p);
        let atoms = match hints.get(p) {
            Some(i) if i.params.len() == params.len() => {
                let body = store.rename(i.body, &i.params, &params);
                store
                    .conjuncts(body)
                    .into_iter()
                    .filter(|&c| c != store.tt())
                    .collect()
            }
            _ => Vec::new(),
        };
        lemmas.params.push(params);
        lemmas.lemmas.push(atoms);
    }
    stats.carried = lemmas.lemmas.iter().map(|l| l.len() as u64).sum();
    let (finished, checks) = houdini::filter(store, system, &mut lemmas, deadline);
    stats.checks = checks;
    stats.finished = finished;
    stats.ms = start.elapsed().as_millis() as u64;
    if !finished {
        return None;
    }
    stats.kept = lemmas.lemmas.iter().map(|l| l.len() as u64).sum();
    let mut model = Model::new();
    for (p, (params, kept)) in system
        .pred_ids()
        .zip(lemmas.params.into_iter().zip(lemmas.lemmas))
    {
        model.set(
            p,
            Interp {
                params,
                body: store.and(kept),
            },
        );
    }
    Some(model)
}
