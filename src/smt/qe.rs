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
        // `qe-light` leaves the variables it cannot eliminate under an existential: opened,
        // they are free, as the caller expects of the variables that remain.
        let fs: Option<Vec<Bool>> = match mode {
            QeMode::Light => fs.iter().map(open_exists).collect(),
            QeMode::Full => Some(fs),
        };
        disjuncts.push(Bool::and(&fs?));
    }
    let out = Dynamic::from_ast(&Bool::or(&disjuncts));
    let mut memo = HashMap::new();
    from_z3(store, &tr.names, &out, &mut memo).ok()
}

/// The body of `f` with its bound variables replaced by constants of their names and sorts
/// when `f` is an existential (the bound variables of a quantifier built from this store's
/// constants keep their names, so the body is over those constants again); `f` itself when it
/// is no quantifier; `None` for a universal or a lambda.
fn open_exists(f: &Bool) -> Option<Bool> {
    if f.kind() != z3::AstKind::Quantifier {
        return Some(f.clone());
    }
    let ctx = z3::Context::thread_local();
    // SAFETY: `f` is a live quantifier of the thread-local context; every AST Z3 returns is
    // wrapped (reference counted) before the next call that could free it, and `consts`
    // outlives the substitution that reads it.
    unsafe {
        let raw = ctx.get_z3_context();
        let a = f.get_z3_ast();
        if !z3_sys::Z3_is_quantifier_exists(raw, a) {
            return None;
        }
        let n = z3_sys::Z3_get_quantifier_num_bound(raw, a);
        let mut consts = Vec::with_capacity(n as usize);
        // De Bruijn indices: variable `i` of the body is bound variable `n - 1 - i`.
        for i in (0..n).rev() {
            let name = z3_sys::Z3_get_quantifier_bound_name(raw, a, i)?;
            let sort = z3_sys::Z3_get_quantifier_bound_sort(raw, a, i)?;
            let c = z3_sys::Z3_mk_const(raw, name, sort)?;
            consts.push(Dynamic::wrap(&ctx, c));
        }
        let body = Bool::wrap(&ctx, z3_sys::Z3_get_quantifier_body(raw, a)?);
        let to: Vec<z3_sys::Z3_ast> = consts.iter().map(|c| c.get_z3_ast()).collect();
        let opened = z3_sys::Z3_substitute_vars(raw, body.get_z3_ast(), n, to.as_ptr())?;
        Some(Bool::wrap(&ctx, opened))
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::{SatResult, Smt};
    use crate::term::Sort;

    #[test]
    fn light_elimination_leaves_the_rest_free() {
        // ∃ h, o. x = h + o ∧ h = o ∧ h >= 0 ∧ o >= 0: `qe-light` substitutes one of `h`, `o`
        // and keeps the other under an existential, which comes back as a free variable.
        let store = TermStore::new();
        let [x, h, o] = ["x", "h", "o"].map(|n| store.new_var(n, Sort::Int));
        let (tx, th, to) = (store.var(x), store.var(h), store.var(o));
        let zero = store.int(0);
        let t = store.and([
            store.eq(tx, store.add([th, to])),
            store.eq(th, to),
            store.ge(th, zero),
            store.ge(to, zero),
        ]);
        let r = eliminate(&store, &[h, o], t, QeMode::Light, Deadline::none())
            .expect("qe-light's partial result is read back");
        let left: Vec<VarId> = store.free_vars(r).into_iter().collect();
        assert!(left.contains(&x), "{}", store.display(r));
        assert!(left.len() < 3, "nothing eliminated: {}", store.display(r));
        // What is left, with its locals existential, is x >= 0 ∧ x even: x = 2 is in, x = 1
        // and x = -2 are out.
        for (value, inside) in [(2, true), (1, false), (-2, false)] {
            let mut smt = Smt::new(&store, Deadline::none());
            smt.assert(r);
            smt.assert(store.eq(tx, store.int(value)));
            let expected = if inside {
                SatResult::Sat
            } else {
                SatResult::Unsat
            };
            assert_eq!(smt.check(), expected, "x = {value}: {}", store.display(r));
        }
    }
}
