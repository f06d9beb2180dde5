//! `int main(int argc, char **argv)` whose body never names its parameters is `int main(void)`:
//! the subset has no object behind `argv` (so pointer parameters of `main` are refused), but a
//! parameter no expression names cannot change an execution. Many SV-COMP tasks declare them
//! and never use them.
//!
//! Must not: drop a parameter whose name the body mentions anywhere (a shadowing declaration
//! counts as a mention too: the check is by name, conservatively), or touch other functions.

use crate::frontend::c::ast::{Declarator, Expr, ExprKind, Item, Stmt, StmtKind, Suffix};
use std::borrow::Cow;

/// The items, with `main`'s parameters removed when it has a pointer parameter and the body
/// names none of them.
pub(super) fn drop_unused_main_params(items: &[Item]) -> Cow<'_, [Item]> {
    let found = items.iter().position(|it| match it {
        Item::Func(f) => f.decl.name.as_deref() == Some("main"),
        Item::Decl(_) => false,
    });
    let Some(k) = found else {
        return Cow::Borrowed(items);
    };
    let Item::Func(f) = &items[k] else {
        return Cow::Borrowed(items);
    };
    let Some(Suffix::Params(ps, false)) = f.decl.suffixes.first() else {
        return Cow::Borrowed(items);
    };
    if f.decl.suffixes.len() != 1 || !ps.iter().any(|p| p.decl.pointers > 0) {
        return Cow::Borrowed(items);
    }
    let names: Vec<&str> = ps.iter().filter_map(|p| p.decl.name.as_deref()).collect();
    if names.len() != ps.len() || names.iter().any(|n| stmt_names(&f.body, n)) {
        return Cow::Borrowed(items);
    }
    let mut out = items.to_vec();
    if let Item::Func(f) = &mut out[k] {
        f.decl.suffixes[0] = Suffix::Params(vec![], false);
    }
    Cow::Owned(out)
}

/// Whether `name` occurs in the statement (iteratively: statements nest deeply).
fn stmt_names(s: &Stmt, name: &str) -> bool {
    let mut stmts = vec![s];
    let mut exprs: Vec<&Expr> = vec![];
    while let Some(s) = stmts.pop() {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => exprs.push(e),
            StmtKind::Decl(d) => {
                for item in &d.items {
                    if declarator_names(&item.decl, name) {
                        return true;
                    }
                    exprs.extend(item.init.iter());
                }
            }
            StmtKind::Block(b) => stmts.extend(b.iter()),
            StmtKind::If(c, a, b) => {
                exprs.push(c);
                stmts.push(a);
                stmts.extend(b.as_deref());
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
                exprs.push(c);
                stmts.push(b);
            }
            StmtKind::For(i, c, st, b) => {
                stmts.extend(i.as_deref());
                exprs.extend(c.iter().chain(st.iter()));
                stmts.push(b);
            }
            StmtKind::Return(e) => exprs.extend(e.iter()),
            StmtKind::Label(_, b) => stmts.push(b),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Goto(_)
            | StmtKind::Default
            | StmtKind::Empty => {}
            // The resolver reports it; conservatively a mention.
            StmtKind::TooDeep => return true,
        }
    }
    exprs.iter().any(|e| expr_names(e, name))
}

/// Whether a declarator's array sizes (or the name it declares) mention `name`.
fn declarator_names(d: &Declarator, name: &str) -> bool {
    d.name.as_deref() == Some(name)
        || d.suffixes.iter().any(|s| match s {
            Suffix::Array(Some(e), _) => expr_names(e, name),
            Suffix::Array(None, _) => false,
            Suffix::Params(..) | Suffix::TooDeep(_) | Suffix::Indirect(_) => true,
        })
}

/// Whether `name` occurs in the expression.
fn expr_names(e: &Expr, name: &str) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Ident(n) if n == name => return true,
            ExprKind::Unsupported(_) | ExprKind::TooDeep => return true,
            _ => stack.extend(e.operands()),
        }
    }
    false
}
