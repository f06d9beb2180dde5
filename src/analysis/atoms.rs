//! The simple shapes of a clause's conjuncts that rules reason about without reading terms:
//! a variable compared with an integer constant (`bound`), and a variable equal to another plus
//! an integer constant (`step`).
//!
//! Duty: recognise these shapes syntactically, up to the orientation of the comparison and one
//! negation. Must not: call a solver, or claim a shape a conjunct does not have (a missed shape
//! is only a missed fact).

use crate::term::{Op, Term, TermId, TermStore, VarId};
use num_traits::ToPrimitive;

/// `v op n`: a comparison of a variable with an integer constant, the variable on the left
/// (`op` is one of `<=`, `<`, `>=`, `>`, `=`, `!=`).
pub fn bound(store: &TermStore, t: TermId) -> Option<(VarId, &'static str, i64)> {
    let node = store.get(t);
    let (op, args, negated) = match &node.term {
        Term::App(Op::Not, a) if a.len() == 1 => match &store.get(a[0]).term {
            Term::App(op, args) => (op.clone(), args.clone(), true),
            _ => return None,
        },
        Term::App(op, args) => (op.clone(), args.clone(), false),
        _ => return None,
    };
    if args.len() != 2 {
        return None;
    }
    let (v, n, flipped) = match (store.as_var(args[0]), int(store, args[1])) {
        (Some(v), Some(n)) => (v, n, false),
        _ => (store.as_var(args[1])?, int(store, args[0])?, true),
    };
    let op = match (op, flipped) {
        (Op::Le, false) | (Op::Ge, true) => "<=",
        (Op::Lt, false) | (Op::Gt, true) => "<",
        (Op::Ge, false) | (Op::Le, true) => ">=",
        (Op::Gt, false) | (Op::Lt, true) => ">",
        (Op::Eq, _) => "=",
        _ => return None,
    };
    let op = match (op, negated) {
        (op, false) => op,
        ("<=", true) => ">",
        ("<", true) => ">=",
        (">=", true) => "<",
        (">", true) => "<=",
        (_, true) => "!=",
    };
    Some((v, op, n))
}

/// Every `(a, b, d)` with `a = b + d` said by `t` (`a = b + d`, `a = d + b`, `a = b - d`, or
/// `a = b`, either side of the equality, each read in both directions).
pub fn steps(store: &TermStore, t: TermId) -> Vec<(VarId, VarId, i64)> {
    let mut out = Vec::new();
    for (lhs, rhs) in sides(store, t) {
        let Some(a) = store.as_var(lhs) else { continue };
        if let Some((b, d)) = offset(store, rhs) {
            if a != b {
                out.push((a, b, d));
                out.push((b, a, d.checked_neg().unwrap_or(0)));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The two readings `(left, right)` and `(right, left)` of a binary equality `t`; none for any
/// other term.
pub fn sides(store: &TermStore, t: TermId) -> Vec<(TermId, TermId)> {
    match &store.get(t).term {
        Term::App(Op::Eq, args) if args.len() == 2 => {
            vec![(args[0], args[1]), (args[1], args[0])]
        }
        _ => Vec::new(),
    }
}

/// `(b, d)` when `t` is `b`, `b + d`, `d + b` or `b - d`.
fn offset(store: &TermStore, t: TermId) -> Option<(VarId, i64)> {
    if let Some(b) = store.as_var(t) {
        return Some((b, 0));
    }
    let node = store.get(t);
    let Term::App(op, args) = &node.term else {
        return None;
    };
    if args.len() != 2 {
        return None;
    }
    match op {
        Op::Add => match (store.as_var(args[0]), store.as_var(args[1])) {
            (Some(b), _) => Some((b, int(store, args[1])?)),
            (_, Some(b)) => Some((b, int(store, args[0])?)),
            _ => None,
        },
        Op::Sub => Some((store.as_var(args[0])?, int(store, args[1])?.checked_neg()?)),
        _ => None,
    }
}

/// The value of an integer literal (or its negation) that fits in 64 bits.
fn int(store: &TermStore, t: TermId) -> Option<i64> {
    match &store.get(t).term {
        Term::Int(n) => n.to_i64(),
        Term::App(Op::Neg, a) if a.len() == 1 => int(store, a[0])?.checked_neg(),
        _ => None,
    }
}
