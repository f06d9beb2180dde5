//! The integer fields the nodes' symbols track, as `main` reads and tests them (a part of
//! `lower.rs`): which fields, the constants stored and compared.
//!
//! Must not: track a value it cannot tell exactly (anything but a constant is unknown).

use super::super::ast::{Expr, ExprKind, UnOp};
use super::super::resolve::int_literal;
use super::super::types::DataModel;
use super::lower::{Lower, Name};
use super::ta::ANY;

impl Lower {
    /// `m == v` as a test of a tracked integer field against a constant: the member `m`
    /// (`p->f`) and the constant.
    pub(super) fn data_test<'e>(&self, m: &'e Expr, v: &Expr) -> Option<(&'e Expr, i32)> {
        let ExprKind::Member(base, field, true) = &m.kind else {
            return None;
        };
        let ExprKind::Ident(p) = &base.kind else {
            return None;
        };
        let Some(Name::Ptr(_, t)) = self.lookup(p) else {
            return None;
        };
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

    /// The index of `f` among the tracked integer fields of struct `t`.
    pub(super) fn data_field(&self, t: usize, f: &str) -> Option<usize> {
        self.records[t].tracked(&self.compared).position(|n| n == f)
    }
}
