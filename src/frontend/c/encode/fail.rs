//! Which functions may reach the error, directly or through the functions they call: only
//! those get an `_err` predicate and make their callers consider a failing call.
//! Must not: emit clauses.

use crate::frontend::c::ir::{IExpr, IStmt, IStmtKind, Program};

/// Functions that may reach the error (directly or through calls).
pub(super) fn may_fail(p: &Program) -> Vec<bool> {
    fn stmts_fail(ss: &[IStmt], calls: &mut Vec<usize>) -> bool {
        let mut fails = false;
        for s in ss {
            fails |= stmt_fail(s, calls);
        }
        fails
    }
    fn expr_calls(e: &IExpr, calls: &mut Vec<usize>) {
        use crate::frontend::c::ir::IExprKind::*;
        match &e.kind {
            Call(f, args) => {
                calls.push(*f);
                args.iter().for_each(|a| expr_calls(a, calls));
            }
            Arith(_, a, b) | Cmp(_, a, b) | Logic(_, a, b) | Comma(a, b) => {
                expr_calls(a, calls);
                expr_calls(b, calls);
            }
            Not(a) | Neg(a) | BitNot(a) | Convert(a) | Assign(_, a) => expr_calls(a, calls),
            Cond(c, a, b) => {
                expr_calls(c, calls);
                expr_calls(a, calls);
                expr_calls(b, calls);
            }
            Const(_) | Var(_) | PostIncDec(..) | Nondet(_) | Current => {}
            Elem(_, index) => index.iter().for_each(|a| expr_calls(a, calls)),
            SetElem { index, value, .. } => {
                index.iter().for_each(|a| expr_calls(a, calls));
                expr_calls(value, calls);
            }
            ArrayDecl { elems, .. } => elems.iter().for_each(|a| expr_calls(&a.1, calls)),
        }
    }
    fn stmt_fail(s: &IStmt, calls: &mut Vec<usize>) -> bool {
        match &s.kind {
            IStmtKind::Error => true,
            IStmtKind::Assert(e) => {
                expr_calls(e, calls);
                true
            }
            IStmtKind::Expr(e)
            | IStmtKind::Assume(e)
            | IStmtKind::Return(Some(e))
            | IStmtKind::Init(_, Some(e)) => {
                expr_calls(e, calls);
                false
            }
            IStmtKind::If(c, a, b) => {
                expr_calls(c, calls);
                let x = stmts_fail(a, calls);
                stmts_fail(b, calls) || x
            }
            IStmtKind::Loop {
                cond, body, step, ..
            } => {
                cond.iter()
                    .chain(step.iter())
                    .for_each(|e| expr_calls(e, calls));
                stmts_fail(body, calls)
            }
            IStmtKind::Block(b) => stmts_fail(b, calls),
            _ => false,
        }
    }
    let n = p.functions.len();
    let mut direct = vec![false; n];
    let mut callees = vec![vec![]; n];
    for (i, f) in p.functions.iter().enumerate() {
        direct[i] = stmts_fail(&f.body, &mut callees[i]);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            if !direct[i] && callees[i].iter().any(|&c| direct[c]) {
                direct[i] = true;
                changed = true;
            }
        }
    }
    direct
}
