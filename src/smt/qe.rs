//! Quantifier elimination through Z3's tactics.
//!
//! `Light` runs `qe-light` (cheap: eliminates variables defined by equalities and simple
//! bounds); `Full` runs `qe` (complete for linear arithmetic, possibly expensive). The result is a
//! term of the same store, or `None` when Z3 fails or leaves quantifiers.

use super::from_z3::from_z3;
use super::translate::ToZ3;
use super::Deadline;
use crate::term::{TermId, TermStore, VarId};
use std::collections::HashMap;
use z3::ast::{Ast, Bool, Dynamic};
use z3::{Goal, Tactic};

/// How hard to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QeMode {
    /// `qe-light`: may leave some variables (the caller checks).
    Light,
    /// `qe`: complete for linear arithmetic.
    Full,
}

/// An equivalent of `∃ vars. t` without `vars` (for `Full`), or with fewer of them (for `Light`:
/// the caller sees which remain through free variables).
pub fn eliminate(
    store: &TermStore,
    vars: &[VarId],
    t: TermId,
    mode: QeMode,
    deadline: Deadline,
) -> Option<TermId> {
    if vars.is_empty() {
        return Some(t);
    }
    let mut tr = ToZ3::new(store);
    let body = tr.bool(t);
    let bound: Vec<Dynamic> = vars.iter().map(|v| tr.var(*v)).collect();
    let refs: Vec<&dyn Ast> = bound.iter().map(|d| d as &dyn Ast).collect();
    let goal = Goal::new(false, false, false);
    goal.assert(&z3::ast::exists_const(&refs, &[], &body));
    let name = match mode {
        QeMode::Light => "qe-light",
        QeMode::Full => "qe",
    };
    let mut tactic = Tactic::new(name);
    if let Some(rem) = deadline.remaining() {
        if rem.is_zero() {
            return None;
        }
        tactic = tactic.try_for(rem);
    }
    let result = tactic.apply(&goal, None).ok()?;
    let mut disjuncts = Vec::new();
    for g in result.list_subgoals() {
        let fs: Vec<Bool> = g.get_formulas();
        disjuncts.push(Bool::and(&fs));
    }
    let out = Dynamic::from_ast(&Bool::or(&disjuncts));
    let mut memo = HashMap::new();
    from_z3(store, &tr.names, &out, &mut memo).ok()
}

/// An equivalent of `t` without quantifiers, or `None` when Z3 cannot find one in time (or the
/// result still has quantifiers). Tries `qe` for half the time left, then `qe2` (model-based
/// projection), which succeeds on different formulas: Boolean-heavy nests of existentials
/// (as in Kind 2's models) suit `qe2`, linear ones with many integer variables `qe`.
pub fn eliminate_quantifiers(store: &TermStore, t: TermId, deadline: Deadline) -> Option<TermId> {
    if !store.has_quantifier(t) {
        return Some(t);
    }
    let mut tr = ToZ3::new(store);
    let body = tr.bool(t);
    for (name, share) in [("qe", 2u32), ("qe2", 1)] {
        let rem = deadline
            .remaining()
            .unwrap_or(std::time::Duration::from_secs(60));
        if rem.is_zero() {
            return None;
        }
        let goal = Goal::new(false, false, false);
        goal.assert(&body);
        let tactic = Tactic::new("simplify")
            .and_then(&Tactic::new(name))
            .and_then(&Tactic::new("simplify"))
            .try_for(rem / share);
        let Ok(result) = tactic.apply(&goal, None) else {
            continue;
        };
        let disjuncts: Vec<Bool> = result
            .list_subgoals()
            .map(|g| Bool::and(&g.get_formulas()))
            .collect();
        let out = Dynamic::from_ast(&Bool::or(&disjuncts));
        let mut memo = HashMap::new();
        if let Ok(r) = from_z3(store, &tr.names, &out, &mut memo) {
            if !store.has_quantifier(r) {
                return Some(r);
            }
        }
    }
    None
}
