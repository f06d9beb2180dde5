//! Best-effort elimination of intermediate variables (Sec. 4, "Eliminating existentially
//! quantified variables"): the postcondition of a clause, projected onto its head arguments, as
//! relaxed-CNF lemmas.
//!
//! Duty: substitute definitions `v = e` of variables to be eliminated (the term layer's
//! one-point rule, [`TermStore::eliminate_defined`]), run Z3's `qe-light` on
//! what remains, convert to relaxed CNF and drop every lemma that still mentions an eliminated
//! variable. The result over-approximates `∃ others. φ`.
//!
//! Must not: run complete quantifier elimination (it is exponential), or know about predicates,
//! candidates or the fixpoint.

use super::rcnf::rcnf;
use crate::clock::Deadline;
use crate::smt::{eliminate, QeMode};
use crate::term::{TermId, TermStore, VarId};
use std::collections::BTreeSet;

/// Lemmas over `keep` whose conjunction is implied by `∃ (vars(φ) \ keep). φ`.
pub fn project(
    store: &TermStore,
    phi: TermId,
    keep: &BTreeSet<VarId>,
    deadline: Deadline,
) -> Vec<TermId> {
    let defined: BTreeSet<VarId> = store
        .free_vars(phi)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    let mut phi = store.eliminate_defined(&defined, phi);
    let others: Vec<VarId> = store
        .free_vars(phi)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    if !others.is_empty() {
        if let Some(t) = eliminate(store, &others, phi, QeMode::Light, deadline) {
            // qe-light may return a term whose only quantifier-free form is a big formula;
            // it is still equivalent to ∃ others. φ, which is all we need.
            if store
                .free_vars(t)
                .iter()
                .all(|v| keep.contains(v) || others.contains(v))
            {
                phi = t;
            }
        }
    }
    rcnf(store, phi)
        .into_iter()
        .filter(|l| store.free_vars(*l).iter().all(|v| keep.contains(v)))
        .collect()
}
