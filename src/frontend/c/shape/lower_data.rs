//! The integer fields the nodes' symbols track and the integer locals the forests track, as
//! `main` (and the functions it calls) reads and tests them (a part of `lower.rs`): which fields and locals, the constants
//! stored, copied and compared.
//!
//! Must not: track a value it cannot tell exactly (anything but a constant, or a copy of a
//! tracked value, is unknown), or a variable whose type is not `int`-like (a constant stored
//! in an `unsigned` or a `char` may wrap).

use super::super::ast::{BinOp, Expr, ExprKind, Span, Stmt, UnOp};
use super::super::resolve::int_literal;
use super::super::types::DataModel;
use super::lower::{Lower, Name};
use super::pir::{Cmp, Int, IntVal, Op};
use super::ta::ANY;
use std::collections::HashSet;

/// The names of the fields `body` compares (`==`, `<`, ...) with an integer constant (a
/// literal, a name, a negation).
pub(super) fn compared_fields(body: &Stmt) -> HashSet<String> {
    let mut out = HashSet::new();
    body.each_expr(&mut |e| {
        e.any(&mut |x| {
            if let ExprKind::Binary(
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
                a,
                b,
            ) = &x.kind
            {
                for (m, v) in [(a, b), (b, a)] {
                    let constant = matches!(
                        v.kind,
                        ExprKind::Int(_) | ExprKind::Ident(_) | ExprKind::Unary(UnOp::Neg, _)
                    );
                    if let (ExprKind::Member(_, f, _), true) = (&m.kind, constant) {
                        out.insert(f.clone());
                    }
                }
            }
            false
        });
    });
    out
}

/// The names `body` compares with a constant-looking operand (`v == 3`, `v < N`), tests as
/// a truth value (`if (v)`, `!v`, `v && ...`), or copies a tracked-looking field into (`v =
/// p->f`): the integer locals worth tracking, when their type is `int`-like.
pub(super) fn compared_ints(body: &Stmt) -> HashSet<String> {
    let constant = |e: &Expr| {
        matches!(
            e.kind,
            ExprKind::Int(_) | ExprKind::Ident(_) | ExprKind::Unary(UnOp::Neg, _)
        )
    };
    let mut out = HashSet::new();
    let name = |e: &Expr, out: &mut HashSet<String>| {
        if let ExprKind::Ident(n) = &e.kind {
            out.insert(n.clone());
        }
    };
    body.each_expr(&mut |top| {
        // A whole condition (or expression statement) that is a name.
        name(top, &mut out);
        top.any(&mut |x| {
            match &x.kind {
                ExprKind::Binary(op, a, b) if cmp(*op).is_some() => {
                    for (v, c) in [(a, b), (b, a)] {
                        if constant(c) {
                            name(v, &mut out);
                        }
                    }
                }
                ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
                    name(a, &mut out);
                    name(b, &mut out);
                }
                ExprKind::Unary(UnOp::Not, a) | ExprKind::Cond(a, _, _) => name(a, &mut out),
                _ => {}
            }
            false
        });
    });
    out
}

/// The comparison a binary operator makes, if it is one.
pub(super) fn cmp(op: BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Eq => Cmp::Eq,
        BinOp::Ne => Cmp::Ne,
        BinOp::Lt => Cmp::Lt,
        BinOp::Le => Cmp::Le,
        BinOp::Gt => Cmp::Gt,
        BinOp::Ge => Cmp::Ge,
        _ => return None,
    })
}

impl Lower {
    /// `m == v` as a test of a tracked integer field against a constant: the member `m`
    /// (`p->f`, `p->next->f`, ...) and the constant.
    pub(super) fn data_test<'e>(&self, m: &'e Expr, v: &Expr) -> Option<(&'e Expr, i32)> {
        let ExprKind::Member(base, field, true) = &m.kind else {
            return None;
        };
        let t = self.ptr_struct(base)?;
        self.data_field(t, field)?;
        Some((m, self.constant(v)?))
    }

    /// The value of an integer constant expression the symbols can hold: a literal, its
    /// negation, an enumerator.
    pub(super) fn constant(&self, e: &Expr) -> Option<i32> {
        match &e.kind {
            ExprKind::Int(text) => {
                let (v, _) = int_literal(text, DataModel::Ilp32).ok()?;
                i32::try_from(v).ok().filter(|v| *v != ANY)
            }
            ExprKind::Unary(UnOp::Neg, a) => self.constant(a)?.checked_neg(),
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Const(v)) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    /// The tracked integer local a name denotes.
    fn int(&self, e: &Expr) -> Option<Int> {
        match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Int(i)) => Some(i),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value of an integer expression as far as the engine tracks it (`Any` beyond).
    pub(super) fn int_val(&self, e: &Expr) -> IntVal {
        match (self.constant(e), self.int(e)) {
            (Some(c), _) => IntVal::Const(c),
            (None, Some(j)) => IntVal::Int(j),
            _ => IntVal::Any,
        }
    }

    /// `i = e` for the tracked integer local `i`: a copy of a tracked field reads the node
    /// (through the pointer variable the base names), anything else is evaluated for its
    /// effects and its value taken when it is tracked.
    pub(super) fn set_int(&mut self, i: Int, e: &Expr, span: Span) -> Result<(), String> {
        if let ExprKind::Member(base, field, arrow) = &e.kind {
            if let Some(t) = self.ptr_struct(base).filter(|_| *arrow) {
                if let Some(d) = self.data_field(t, field) {
                    let (bv, _) = self.base_var(base, *arrow)?;
                    self.edge(Op::SetInt(i, IntVal::Field(bv, d)), span);
                    return Ok(());
                }
            }
        }
        self.data(e)?;
        let v = self.int_val(e);
        self.edge(Op::SetInt(i, v), span);
        Ok(())
    }

    /// `e` as a comparison of a tracked integer local with a constant (`v cmp c`, `c cmp v`, or
    /// `v` itself as `v != 0`).
    pub(super) fn int_test(&self, e: &Expr) -> Option<(Int, Cmp, i32)> {
        if let Some(i) = self.int(e) {
            return Some((i, Cmp::Ne, 0));
        }
        let ExprKind::Binary(op, a, b) = &e.kind else {
            return None;
        };
        let c = cmp(*op)?;
        match (self.int(a), self.constant(b), self.int(b), self.constant(a)) {
            (Some(i), Some(v), _, _) => Some((i, c, v)),
            (_, _, Some(i), Some(v)) => Some((i, c.swapped(), v)),
            _ => None,
        }
    }

    /// The index of `f` among the tracked integer fields of struct `t`.
    pub(super) fn data_field(&self, t: usize, f: &str) -> Option<usize> {
        self.records[t].tracked(&self.compared).position(|n| n == f)
    }
}
