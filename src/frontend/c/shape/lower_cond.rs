//! Conditions of `main` read as branches of the pointer program (a part of `lower.rs`):
//! pointer comparisons and null tests become [`Op::Assume`], comparisons of tracked integer
//! fields and locals with constants [`Op::AssumeData`] and [`Op::AssumeInt`]; every other
//! integer condition is a nondeterministic branch.
//!
//! Must not: drop an execution a condition cannot rule out (each branch's op holds exactly
//! where the condition may be true, resp. false).

use super::super::ast::{BinOp, Expr, ExprKind, Span, UnOp};
use super::lower::Lower;
use super::lower_data::cmp;
use super::lower_expr::is_zero;
use super::pir::{Loc, Op, Operand, Var};

impl Lower {
    /// Branches to `t` where `e` may be true and to `f` where it may be false (integer
    /// conditions are nondeterministic). The current location is left dead.
    pub(super) fn cond(&mut self, e: &Expr, t: Loc, f: Loc) -> Result<(), String> {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                let mid = self.loc();
                self.cond(a, mid, f)?;
                self.cur = mid;
                self.cond(b, t, f)
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let mid = self.loc();
                self.cond(a, t, mid)?;
                self.cur = mid;
                self.cond(b, t, f)
            }
            ExprKind::Unary(UnOp::Not, a) => self.cond(a, f, t),
            ExprKind::Int(x) => {
                let to = if is_zero(x) { f } else { t };
                self.edge_to(Op::Skip, e.span, to);
                Ok(())
            }
            ExprKind::Binary(op, a, b)
                if cmp(*op).is_some()
                    && (self.data_test(a, b).is_some() || self.data_test(b, a).is_some()) =>
            {
                let c = cmp(*op).expect("tested");
                let (m, v, c) = match self.data_test(a, b) {
                    Some((m, v)) => (m, v, c),
                    None => {
                        let (m, v) = self.data_test(b, a).expect("tested");
                        (m, v, c.swapped())
                    }
                };
                let ExprKind::Member(base, field, arrow) = &m.kind else {
                    unreachable!("a data test is on a member")
                };
                let mark = self.temps.len();
                let (bv, bt) = self.base_var(base, *arrow)?;
                let d = self.data_field(bt, field).ok_or("an untracked field")?;
                self.test(
                    Op::AssumeData(bv, d, c, v),
                    Op::AssumeData(bv, d, c.negated(), v),
                    mark,
                    e.span,
                    t,
                    f,
                );
                Ok(())
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if self.is_ptr(a) || self.is_ptr(b) =>
            {
                let mark = self.temps.len();
                let (x, _) = self.ptr(a)?;
                let (y, _) = self.ptr(b)?;
                let eq = *op == BinOp::Eq;
                self.test(
                    Op::Assume(eq, x, y),
                    Op::Assume(!eq, x, y),
                    mark,
                    e.span,
                    t,
                    f,
                );
                Ok(())
            }
            _ if self.int_test(e).is_some() => {
                let (i, c, v) = self.int_test(e).expect("tested");
                let mark = self.temps.len();
                self.test(
                    Op::AssumeInt(i, c, v),
                    Op::AssumeInt(i, c.negated(), v),
                    mark,
                    e.span,
                    t,
                    f,
                );
                Ok(())
            }
            _ if self.is_ptr(e) => {
                let mark = self.temps.len();
                let (x, _) = self.ptr(e)?;
                let (yes, no) = (
                    Op::Assume(false, x, Operand::Null),
                    Op::Assume(true, x, Operand::Null),
                );
                self.test(yes, no, mark, e.span, t, f);
                Ok(())
            }
            _ => {
                let mark = self.temps.len();
                self.data(e)?;
                self.test(Op::Skip, Op::Skip, mark, e.span, t, f);
                Ok(())
            }
        }
    }

    /// The two branches of a test, each killing the temporaries taken since `mark`.
    fn test(&mut self, yes: Op, no: Op, mark: usize, span: Span, t: Loc, f: Loc) {
        let from = self.cur;
        let done: Vec<Var> = self.temps.drain(mark..).collect();
        for (op, to) in [(yes, t), (no, f)] {
            self.cur = from;
            self.edge(op, span);
            if !done.is_empty() {
                self.edge(Op::Kill(done.clone()), span);
            }
            self.edge_to(Op::Skip, span, to);
        }
        self.release_all(done);
    }

    /// Gives temporaries back.
    fn release_all(&mut self, done: Vec<Var>) {
        self.free_temps.extend(done);
    }
}
