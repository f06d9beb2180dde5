//! Which functions may reach the error, directly or through the functions they call: only
//! those get an `_err` predicate and make their callers consider a failing call.
//! Must not: emit clauses.

use crate::frontend::c::cfa::Op;
use crate::frontend::c::ir::{IExpr, IExprKind, Program};

/// Functions that may reach the error (directly or through calls).
pub(super) fn may_fail(p: &Program) -> Vec<bool> {
    fn expr_calls(e: &IExpr, calls: &mut Vec<usize>) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if let IExprKind::Call(f, _) = e.kind {
                calls.push(f);
            }
            stack.extend(e.operands());
        }
    }
    let n = p.functions.len();
    let mut direct = vec![false; n];
    let mut callees = vec![vec![]; n];
    for (i, f) in p.functions.iter().enumerate() {
        for e in &f.cfa.edges {
            direct[i] |= e.to == f.cfa.error;
            match &e.op {
                Op::Expr(x) | Op::Assume(x, _) | Op::Init(_, Some(x)) | Op::Return(Some(x)) => {
                    expr_calls(x, &mut callees[i])
                }
                Op::Skip | Op::Init(_, None) | Op::Return(None) | Op::Thread(_) => {}
            }
        }
    }
    crate::frontend::c::ir::mark_callers(&mut direct, &callees);
    direct
}
