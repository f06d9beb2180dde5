//! Best-effort elimination of intermediate variables (Sec. 4, "Eliminating existentially
//! quantified variables"): the postcondition of a clause, projected onto its head arguments, as
//! relaxed-CNF lemmas.
//!
//! Duty: substitute definitions `v = e` of variables to be eliminated, run Z3's `qe-light` on
//! what remains, convert to relaxed CNF and drop every lemma that still mentions an eliminated
//! variable. The result over-approximates `∃ others. φ`.
//!
//! Must not: run complete quantifier elimination (it is exponential), or know about predicates,
//! candidates or the fixpoint.

use super::rcnf::rcnf;
use crate::clock::Deadline;
use crate::smt::{eliminate, QeMode};
use crate::term::{Op, Term, TermId, TermStore, VarId};
use std::collections::{BTreeSet, HashMap};

/// At most this many rounds of definition substitution.
const MAX_SUBSTITUTIONS: usize = 256;

/// Lemmas over `keep` whose conjunction is implied by `∃ (vars(φ) \ keep). φ`.
pub fn project(
    store: &TermStore,
    phi: TermId,
    keep: &BTreeSet<VarId>,
    deadline: Deadline,
) -> Vec<TermId> {
    let mut phi = substitute_definitions(store, phi, keep);
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

/// Repeatedly replaces a variable `v ∉ keep` defined by a top-level conjunct `v = e` (with `v`
/// not in `e`) by `e`. Equivalent under `∃ v`.
fn substitute_definitions(store: &TermStore, mut phi: TermId, keep: &BTreeSet<VarId>) -> TermId {
    for _ in 0..MAX_SUBSTITUTIONS {
        let Some((v, e)) = find_definition(store, phi, keep) else {
            break;
        };
        let map: HashMap<VarId, TermId> = [(v, e)].into_iter().collect();
        phi = store.substitute(phi, &map);
    }
    phi
}

fn find_definition(
    store: &TermStore,
    phi: TermId,
    keep: &BTreeSet<VarId>,
) -> Option<(VarId, TermId)> {
    let mut fallback = None;
    for c in store.conjuncts(phi) {
        let Term::App(Op::Eq, args) = &store.get(c).term else {
            continue;
        };
        let (a, b) = (args[0], args[1]);
        for (x, e) in [(a, b), (b, a)] {
            let Some(v) = store.as_var(x) else { continue };
            if keep.contains(&v) || store.free_vars(e).contains(&v) {
                continue;
            }
            // Prefer variable-to-variable definitions (renamings): they never grow terms.
            if store.as_var(e).is_some() {
                return Some((v, e));
            }
            fallback.get_or_insert((v, e));
        }
    }
    fallback
}
