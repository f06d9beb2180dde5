//! Walks over the resolved program for `lower.rs` and the passes after it: every expression
//! of a body, every node of an expression, renaming variables, the functions that can call
//! themselves, the places before every `return`. Part of [`super`].
//!
//! Must not: change what a program means (only the callers' callbacks do).

use super::super::ast::Span;
use super::super::ir::*;
use super::super::program::Program;

/// Per function: whether it can call itself (directly or not).
pub(super) fn recursive_functions(program: &Program) -> Vec<bool> {
    let n = program.functions.len();
    let mut calls: Vec<Vec<usize>> = vec![vec![]; n];
    for (f, func) in program.functions.iter().enumerate() {
        let mut body = func.body.clone();
        each_stmt_expr(&mut body, &mut |e| {
            visit(e, &mut |x| {
                if let IExprKind::Call(g, _) = x.kind {
                    if g < n {
                        calls[f].push(g);
                    }
                }
            })
        });
    }
    (0..n)
        .map(|f| {
            let mut seen = vec![false; n];
            let mut stack = calls[f].clone();
            while let Some(g) = stack.pop() {
                if g == f {
                    return true;
                }
                if !std::mem::replace(&mut seen[g], true) {
                    stack.extend(&calls[g]);
                }
            }
            false
        })
        .collect()
}

/// Whether some function calls function `f` or starts a thread running it.
pub(super) fn is_called(program: &Program, f: usize) -> bool {
    program.functions.iter().any(|func| {
        let mut body = func.body.clone();
        let mut called = false;
        each_stmt_expr(&mut body, &mut |e| {
            visit(e, &mut |x| called |= matches!(x.kind, IExprKind::Call(g, _) if g == f))
        });
        each_stmt_mut(&mut body, &mut |s| {
            called |= matches!(&s.kind, IStmtKind::Thread(ThreadOp::Create { func, .. }) if *func == f)
        });
        called
    })
}

/// Calls `f` on every expression of the statements (roots only).
pub(super) fn each_stmt_expr(stmts: &mut [IStmt], f: &mut dyn FnMut(&mut IExpr)) {
    for s in stmts {
        match &mut s.kind {
            IStmtKind::Expr(e)
            | IStmtKind::Init(_, Some(e))
            | IStmtKind::Return(Some(e))
            | IStmtKind::Assert(e)
            | IStmtKind::Assume(e) => f(e),
            IStmtKind::If(c, a, b) => {
                f(c);
                each_stmt_expr(a, f);
                each_stmt_expr(b, f);
            }
            IStmtKind::Loop {
                cond, body, step, ..
            } => {
                if let Some(c) = cond {
                    f(c);
                }
                each_stmt_expr(body, f);
                if let Some(s) = step {
                    f(s);
                }
            }
            IStmtKind::Block(b) | IStmtKind::Switch { body: b, .. } => each_stmt_expr(b, f),
            _ => {}
        }
    }
}

/// Calls `f` on every node of an expression, operands first.
pub(super) fn visit(e: &mut IExpr, f: &mut dyn FnMut(&mut IExpr)) {
    for c in e.operands_mut() {
        visit(c, f);
    }
    f(e);
}

pub(super) fn remap_stmts(stmts: &mut [IStmt], remap: &dyn Fn(&mut VarRef)) {
    for s in stmts.iter_mut() {
        match &mut s.kind {
            IStmtKind::Init(v, _) | IStmtKind::Switch { var: v, .. } => remap(v),
            _ => {}
        }
        match &mut s.kind {
            IStmtKind::If(_, a, b) => {
                remap_stmts(a, remap);
                remap_stmts(b, remap);
            }
            IStmtKind::Loop { body: b, .. }
            | IStmtKind::Block(b)
            | IStmtKind::Switch { body: b, .. } => remap_stmts(b, remap),
            _ => {}
        }
    }
    each_stmt_expr(stmts, &mut |e| {
        visit(e, &mut |x| match &mut x.kind {
            IExprKind::Var(v)
            | IExprKind::Assign(v, _)
            | IExprKind::PostIncDec(v, _)
            | IExprKind::Elem(v, _)
            | IExprKind::SetElem { var: v, .. }
            | IExprKind::ArrayDecl { var: v, .. } => remap(v),
            _ => {}
        })
    });
}

/// Calls `f` on every statement, nested ones first; `f` may replace a statement (its
/// replacement is not walked again).
pub(super) fn each_stmt_mut(stmts: &mut [IStmt], f: &mut dyn FnMut(&mut IStmt)) {
    for s in stmts {
        match &mut s.kind {
            IStmtKind::If(_, a, b) => {
                each_stmt_mut(a, f);
                each_stmt_mut(b, f);
            }
            IStmtKind::Loop { body, .. }
            | IStmtKind::Block(body)
            | IStmtKind::Switch { body, .. } => each_stmt_mut(body, f),
            _ => {}
        }
        f(s);
    }
}

/// Puts `before(span, locals)` before every `return` of a body, after the returned value is
/// computed (into a new local, which the statements may not change): what must happen when a
/// function returns, such as a leak check or the end of a block's life.
pub(super) fn before_returns(
    stmts: &mut [IStmt],
    locals: &mut Vec<VarInfo>,
    before: &mut dyn FnMut(Span, &[VarInfo]) -> Vec<IStmt>,
) {
    each_stmt_mut(stmts, &mut |s| {
        let span = s.span;
        let IStmtKind::Return(value) = &mut s.kind else {
            return;
        };
        let mut out = vec![];
        let value = value.take().map(|e| {
            let (l, ty) = (VarRef::Local(locals.len()), e.ty);
            locals.push(VarInfo {
                name: format!("ret@{}", span.start),
                ty,
                span,
                dims: vec![],
            });
            let assign = IExprKind::Assign(l, Box::new(e));
            out.push(IStmt {
                kind: IStmtKind::Expr(IExpr {
                    kind: assign,
                    ty,
                    span,
                }),
                span,
            });
            IExpr {
                kind: IExprKind::Var(l),
                ty,
                span,
            }
        });
        out.extend(before(span, locals));
        out.push(IStmt {
            kind: IStmtKind::Return(value),
            span,
        });
        s.kind = IStmtKind::Block(out);
    });
}
