//! Removing useless clauses and predicates: those that cannot take part in a derivation of
//! `false` because a body predicate is not derivable from facts, or the head cannot lead to a
//! query (the `useful_clauses` of the analysis); and leaving out the clauses a user advises
//! dropping ([`DropClauses`]), the same way.
//!
//! Must not: remove a clause the analysis calls useful (unless advised to), or look at constraints (it is purely
//! structural). Back-translation: models interpret removed predicates by `true` when they are
//! derivable from facts and by `false` otherwise; derivations only have clause ids renamed.

use super::{
    carry_renumbered, compact, fresh_params, rename_clauses, BackError, BackTranslator, Transform,
};
use crate::analysis::analyze;
use crate::chc::{ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::term::TermStore;
use crate::witness::{Derivation, Interp, Model};
use std::collections::BTreeSet;

/// Keeps only the clauses that may occur in a derivation of `false`, and the predicates they
/// mention (renumbered).
#[derive(Clone, Copy, Debug, Default)]
pub struct RemoveUseless;

/// Back-translation of [`RemoveUseless`].
struct Back {
    /// Per new predicate, its old id.
    old_pred: Vec<PredId>,
    /// Per new clause, its old id.
    old_clause: Vec<ClauseId>,
    /// Removed predicates with their interpretation (`true` if derivable from facts), and
    /// fresh parameters.
    removed: Vec<(PredId, Interp)>,
}

impl Transform for RemoveUseless {
    fn name(&self) -> &'static str {
        "useless"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let a = analyze(system, store);
        keep_clauses(store, system, &a.reachable, |c| a.is_useful_clause(c))
    }
}

/// Leaves out the given clauses of a system (a user's advice, `drop_clause` of a rule file:
/// clauses outside the cone of influence, say) and the predicates only they mention, as
/// [`RemoveUseless`] does for the clauses it finds. Nothing checks the advice here: a model
/// translated back interprets a left-out predicate by `true` when facts derive it and `false`
/// otherwise, and the driver checks it against the left-out clauses too (a clause that was
/// needed costs the answer, never a wrong one); a derivation only uses clauses that are kept.
#[derive(Clone, Debug, Default)]
pub struct DropClauses {
    /// The clauses to leave out.
    pub clauses: Vec<ClauseId>,
}

impl Transform for DropClauses {
    fn name(&self) -> &'static str {
        "advice"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let a = analyze(system, store);
        let dropped: BTreeSet<ClauseId> = self.clauses.iter().copied().collect();
        keep_clauses(store, system, &a.reachable, |c| !dropped.contains(&c))
    }
}

/// The clauses of `system` that `keep` says, with the predicates they mention (renumbered),
/// and the back-translation: a removed predicate is `true` when `reachable` (derivable from
/// facts, ignoring constraints), `false` otherwise.
fn keep_clauses(
    store: &TermStore,
    system: &System,
    reachable: &[bool],
    keep: impl Fn(ClauseId) -> bool,
) -> (System, Box<dyn BackTranslator>) {
    let kept: Vec<ClauseId> = system
        .clauses()
        .map(|(c, _)| c)
        .filter(|&c| keep(c))
        .collect();
    let clauses = kept.iter().map(|&c| system.clause(c).clone()).collect();
    let (new, old_pred) = compact(system, clauses);
    let mut is_kept = vec![false; system.num_preds()];
    for p in &old_pred {
        is_kept[p.0 as usize] = true;
    }
    let removed = system
        .pred_ids()
        .filter(|p| !is_kept[p.0 as usize])
        .map(|p| {
            let body = store.bool(reachable[p.0 as usize]);
            (
                p,
                Interp {
                    params: fresh_params(store, system, p),
                    body,
                },
            )
        })
        .collect();
    let back = Back {
        old_pred,
        old_clause: kept,
        removed,
    };
    (new, Box::new(back))
}

impl BackTranslator for Back {
    fn hints(&self, store: &TermStore, hints: &Model) -> Model {
        carry_renumbered(store, hints, &self.old_pred)
    }

    fn model(&self, _store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        let mut out = Model::new();
        for (new, &old) in self.old_pred.iter().enumerate() {
            if let Some(i) = model.get(PredId(new as u32)) {
                out.set(old, i.clone());
            }
        }
        for (p, i) in &self.removed {
            out.set(*p, i.clone());
        }
        out
    }

    fn derivation(
        &self,
        _store: &TermStore,
        d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        rename_clauses(d, &self.old_clause)
    }
}
