//! The property's checks on the lowered program (part of [`super`], after `lower.rs`): under a
//! memory property the error calls end the execution instead; under valid-deref an array
//! index outside its dimension calls `__memory_violation` (not undefined behaviour); with leak
//! checks, `main`'s returns and its end, and every `abort()`/`exit()`, first test the
//! live-block count: not zero is an error (the interpreter then decides whether it violates
//! the property).
//!
//! Must not: lower pointer operations or build CFAs.

use super::super::ast::{BinOp, Span};
use super::super::error::CError;
use super::super::ir::*;
use super::super::program::{Function, Program};
use super::super::types::CType;
use super::heap_lower::{add_violation_fn, bin, int, mk};
use super::unsupported;

/// Whether an index expression may be evaluated twice (no effects).
fn pure(e: &IExpr) -> bool {
    match &e.kind {
        IExprKind::Const(_) | IExprKind::Var(_) => true,
        IExprKind::Arith(_, a, b) | IExprKind::Cmp(_, a, b) => pure(a) && pure(b),
        IExprKind::Convert(a) | IExprKind::Neg(a) | IExprKind::BitNot(a) | IExprKind::Not(a) => {
            pure(a)
        }
        _ => false,
    }
}

/// Under valid-deref, an index outside its array's dimension is a violation (not undefined
/// behaviour that ends the execution): every access to a program array first tests its
/// indices. An index with effects is `unsupported` there (it would be evaluated twice).
fn array_bounds(program: &mut Program) -> Result<(), CError> {
    let heap: std::collections::HashSet<usize> = program
        .heap
        .sites
        .iter()
        .flat_map(HeapSite::globals)
        .collect();
    let viol = program.heap.violation_fn.expect("added by the caller");
    let globals = program.globals.clone();
    let mut error = None;
    for f in &mut program.functions {
        if f.name == "__memory_violation" || f.name == "__invalid_dereference" {
            continue;
        }
        let locals = f.locals.clone();
        let info = |v: VarRef| match v {
            VarRef::Global(g) => &globals[g],
            VarRef::Local(l) => &locals[l],
        };
        super::walk::each_stmt_expr(&mut f.body, &mut |e| {
            super::walk::visit(e, &mut |x| {
                let (var, index) = match &x.kind {
                    IExprKind::Elem(v, idx) => (*v, idx),
                    IExprKind::SetElem { var, index, .. } => (*var, index),
                    _ => return,
                };
                if matches!(var, VarRef::Global(g) if heap.contains(&g)) {
                    return;
                }
                if !index.iter().all(pure) {
                    error.get_or_insert_with(|| {
                        unsupported(x.span, "array indices with side effects under valid-deref")
                    });
                    return;
                }
                let span = x.span;
                let i32t = CType::INT;
                let mut ok = int(1, i32t, span);
                for (i, d) in index.iter().zip(&info(var).dims) {
                    let size = match d {
                        Dim::Const(n) => mk(IExprKind::Const(n.clone()), i.ty, span),
                        Dim::Var(v) => {
                            let t = info(*v).ty;
                            super::convert(mk(IExprKind::Var(*v), t, span), i.ty)
                        }
                    };
                    let lo = bin(
                        IExprKind::Cmp,
                        BinOp::Le,
                        int(0, i.ty, span),
                        i.clone(),
                        i32t,
                    );
                    let hi = bin(IExprKind::Cmp, BinOp::Lt, i.clone(), size, i32t);
                    let both = bin(IExprKind::Logic, BinOp::And, lo, hi, i32t);
                    ok = bin(IExprKind::Logic, BinOp::And, ok, both, i32t);
                }
                let long = CType::of_rank(5, true, super::super::types::DataModel::Lp64);
                let args = vec![
                    int(MemViolation::Deref as i128, long, span),
                    int(span.start as i128, long, span),
                    int(-1, long, span),
                ];
                let call = mk(IExprKind::Call(viol, args), i32t, span);
                let ty = x.ty;
                let inner = x.clone();
                *x = mk(
                    IExprKind::Cond(
                        Box::new(ok),
                        Box::new(inner),
                        Box::new(super::convert(call, ty)),
                    ),
                    ty,
                    span,
                );
            })
        });
    }
    error.map_or(Ok(()), Err)
}

/// The property's checks on the lowered program: error calls become aborts when the property
/// is not unreach-call, array bounds are checked under valid-deref, and leak checks are
/// inserted when it checks leaks.
pub(super) fn property_checks(program: &mut Program) -> Result<(), CError> {
    let checks = program.heap.checks;
    if checks.invalid == InvalidOps::Violation {
        add_violation_fn(program);
        array_bounds(program)?;
    }
    let synthetic =
        |f: &Function| f.name == "__memory_violation" || f.name == "__invalid_dereference";
    if !checks.error_calls {
        for f in program.functions.iter_mut().filter(|f| !synthetic(f)) {
            no_error_calls(&mut f.body);
        }
    }
    let Some(live) = program.heap.live.filter(|_| checks.leaks) else {
        return Ok(());
    };
    add_violation_fn(program);
    let viol = program.heap.violation_fn.expect("just added");
    let main = program.main;
    for (k, f) in program.functions.iter_mut().enumerate() {
        if synthetic(f) {
            continue;
        }
        checks_at_aborts(&mut f.body, live, viol);
        if k == main {
            // The value first (it may free), then the check.
            super::walk::before_returns(&mut f.body, &mut f.locals, &mut |span, _| {
                vec![leak_check(live, viol, MemViolation::LeakAtEnd, span)]
            });
            let end = Span::new(f.span.end.saturating_sub(1), f.span.end);
            f.body
                .push(leak_check(live, viol, MemViolation::LeakAtEnd, end));
        }
    }
    Ok(())
}

fn no_error_calls(stmts: &mut [IStmt]) {
    super::walk::each_stmt_mut(stmts, &mut |s| match &s.kind {
        IStmtKind::Error => s.kind = IStmtKind::Abort,
        IStmtKind::Assert(c) => s.kind = IStmtKind::Assume(c.clone()),
        _ => {}
    });
}

/// `if (live != 0) __memory_violation(kind, at, 0);`
fn leak_check(live: usize, viol: usize, kind: MemViolation, span: Span) -> IStmt {
    let i32t = CType::INT;
    let long = CType::of_rank(5, true, super::super::types::DataModel::Lp64);
    let var = mk(IExprKind::Var(VarRef::Global(live)), i32t, span);
    let cond = bin(IExprKind::Cmp, BinOp::Ne, var, int(0, i32t, span), i32t);
    let args = vec![
        int(kind as i128, long, span),
        int(span.start as i128, long, span),
        int(0, long, span),
    ];
    let call = mk(IExprKind::Call(viol, args), i32t, span);
    IStmt {
        kind: IStmtKind::If(
            cond,
            vec![IStmt {
                kind: IStmtKind::Expr(call),
                span,
            }],
            vec![],
        ),
        span,
    }
}

/// Puts a leak check of kind [`MemViolation::LeakAtAbort`] before every `abort()`/`exit()`.
fn checks_at_aborts(stmts: &mut [IStmt], live: usize, viol: usize) {
    super::walk::each_stmt_mut(stmts, &mut |s| {
        if matches!(s.kind, IStmtKind::Abort) {
            let check = leak_check(live, viol, MemViolation::LeakAtAbort, s.span);
            let abort = IStmt {
                kind: IStmtKind::Abort,
                span: s.span,
            };
            s.kind = IStmtKind::Block(vec![check, abort]);
        }
    });
}
