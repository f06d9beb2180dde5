//! The lives of heap blocks beyond single operations (part of [`super`], after `lower.rs`):
//! a block allocated by `alloca` dies when its function returns, and the blocks of a variable
//! size start with any contents.
//!
//! Design: a stack site keeps the start of the block its function's current call allocated in
//! a local (`HeapSite::stack`), -1 when the call has not allocated yet; every `return` of the
//! function (after its value is computed) and the end of its body mark that block dead (the
//! heap states plus [`STACK_STATE`]), so a dereference through a pointer that outlived the
//! call is invalid. One local per site is enough because `alloca` is refused in loops, and
//! here in functions with labels (a `goto` may repeat it). Blocks are never reused, so the
//! cell arrays of a site of variable-size blocks get any contents once, when `main` starts
//! (a declaration of each array without initialiser); a zeroed (`calloc`) site's stay zero.
//!
//! Must not: lower pointer operations or decide the property's checks (`mem_checks.rs`).

use super::super::ast::Span;
use super::super::error::CError;
use super::super::ir::*;
use super::super::program::Program;
use super::super::types::CType;
use super::heap_lower::Build;
use super::unsupported;

/// Adds the block lives to the lowered `program`.
pub(super) fn add(program: &mut Program) -> Result<(), CError> {
    havoc_variable_cells(program);
    for f in 0..program.functions.len() {
        let sites: Vec<HeapSite> = program
            .heap
            .sites
            .iter()
            .filter(|s| s.stack.is_some_and(|(g, _)| g == f))
            .cloned()
            .collect();
        let Some(first) = sites.first() else {
            continue;
        };
        let func = &mut program.functions[f];
        if !func.labels.is_empty() {
            return Err(unsupported(
                first.span,
                "`alloca` in a function with labels (a `goto` may repeat it)",
            ));
        }
        super::walk::before_returns(&mut func.body, &mut func.locals, &mut |span, locals| {
            kill(&sites, locals, span)
        });
        let end = Span::new(func.span.end.saturating_sub(1), func.span.end);
        let mut body = vec![];
        for s in &sites {
            let (_, slot) = s.stack.expect("a stack site");
            let x = Build::new(s.span);
            let long = func.locals[local_index(slot)].ty;
            body.push(stmt(x.assign(slot, x.int(-1, long), long), s.span));
        }
        body.append(&mut func.body);
        body.extend(kill(&sites, &func.locals, end));
        func.body = body;
    }
    Ok(())
}

/// `main` starts by giving the cells of every site of variable-size blocks (not zeroed) any
/// contents.
fn havoc_variable_cells(program: &mut Program) {
    let mut decls = vec![];
    for s in &program.heap.sites {
        if s.zeroed || matches!(s.block, BlockSize::Fixed(_)) {
            continue;
        }
        for (k, &g) in s.cells.iter().enumerate() {
            let decl = IExprKind::ArrayDecl {
                var: VarRef::Global(g),
                elems: vec![],
                fill: Fill::Any(s.nondet + k),
            };
            let e = IExpr {
                kind: decl,
                ty: program.globals[g].ty,
                span: s.span,
            };
            decls.push(stmt(e, s.span));
        }
    }
    let main = &mut program.functions[program.main];
    decls.append(&mut main.body);
    main.body = decls;
}

fn stmt(e: IExpr, span: Span) -> IStmt {
    IStmt {
        kind: IStmtKind::Expr(e),
        span,
    }
}

fn local_index(v: VarRef) -> usize {
    match v {
        VarRef::Local(l) => l,
        VarRef::Global(_) => unreachable!("a stack site's slot is a local"),
    }
}

/// `if (slot >= 0) { the block at slot is dead }` for each site, at `span`.
fn kill(sites: &[HeapSite], locals: &[VarInfo], span: Span) -> Vec<IStmt> {
    let x = Build::new(span);
    let i32t = CType::INT;
    sites
        .iter()
        .map(|s| {
            let (_, slot) = s.stack.expect("a stack site");
            let long = locals[local_index(slot)].ty;
            let at = |j: i128| x.add(x.local(slot, long), x.int(j, long));
            let dead = |j: i128| x.int(i128::from(STACK_STATE) + j, i32t);
            let mut kill = vec![stmt(x.set(s.state, at(0), dead(2), i32t), span)];
            if let BlockSize::Fixed(n) = s.block {
                for j in 1..i128::from(n) {
                    kill.push(stmt(x.set(s.state, at(j), dead(4), i32t), span));
                }
            }
            let allocated = x.cmp(
                super::super::ast::BinOp::Ge,
                x.local(slot, long),
                x.int(0, long),
            );
            IStmt {
                kind: IStmtKind::If(allocated, kill, vec![]),
                span,
            }
        })
        .collect()
}
