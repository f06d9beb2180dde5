//! The check of one clause under a model: whether its premise and the negation of its head
//! have a model, in a scope of a solver the caller keeps (the validation of models, and of the
//! ground and instantiated checks of quantified ones, all go through it).
//!
//! Must not: build the premise or head (the callers do), or decide what a result means for
//! the model.

use super::implied::unimplied;
use crate::smt::{SatResult, Smt};
use crate::term::TermId;
use std::time::Duration;

/// Whether `premise ∧ ¬head` (a clause under a model) is satisfiable, checked in a scope of
/// `smt`, which is left as it was. Head conjuncts that the premise implies by its shape
/// ([`unimplied`]) are not checked. A conjunctive head is checked as
/// a whole for at most the bound in `whole` (50 ms for a model's clauses: `model.rs`), while
/// there is one (a check that runs out of time clears it: the model's other heads are likely
/// as hard), then, unless that decided it, one conjunct at a time on top of the premise:
/// PDR's models are conjunctions of hundreds of lemmas, whose negation as one disjunction the
/// solver sometimes splits on far more slowly than it refutes each lemma (LRA-TS `approx.5`:
/// over 4 s at once), but mostly refutes at once (over the public set's `sat` files, the median
/// validation went from 16 to 10 ms, the total from 7.9 to 5.1 s).
pub(super) fn check_in_scope(
    smt: &mut Smt<'_>,
    premise: TermId,
    head: TermId,
    whole: &mut Option<Duration>,
) -> SatResult {
    let store = smt.store();
    // What the premise implies by its shape needs no check (see `implied`).
    let head = unimplied(store, premise, head);
    if head == store.tt() {
        return SatResult::Unsat;
    }
    let parts = store.conjuncts(head);
    if let Some(bound) = whole.filter(|_| parts.len() >= 2) {
        let outer = smt.deadline().clone();
        smt.set_deadline(outer.at_most(bound));
        smt.push();
        smt.assert(store.and([premise, store.not(head)]));
        let at_once = smt.check();
        smt.pop(1);
        smt.set_deadline(outer);
        // Decided as a whole (a `sat` is a violation, whichever conjunct it breaks).
        if !matches!(at_once, SatResult::Unknown(_)) {
            return at_once;
        }
        *whole = None;
    }
    smt.push();
    let result = if parts.len() < 2 {
        smt.assert(store.and([premise, store.not(head)]));
        smt.check()
    } else {
        smt.assert(premise);
        let mut result = SatResult::Unsat;
        for c in parts {
            smt.push();
            smt.assert(store.not(c));
            let r = smt.check();
            smt.pop(1);
            if r != SatResult::Unsat {
                result = r;
                break;
            }
        }
        result
    };
    smt.pop(1);
    result
}
