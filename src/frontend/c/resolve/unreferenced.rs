//! Function definitions that no execution can call are left out before resolving: the ones
//! whose names `main`, the functions it names (transitively) and the file-scope initialisers
//! never mention. Preprocessed SV-COMP tasks (`.i`) carry the C library's header functions
//! (`__bswap_16` calling `__builtin_bswap16`, ...), which would otherwise be refused although
//! the program never runs them.
//!
//! Must not: drop a function any reachable text names (the check is by name, conservatively:
//! a local variable of the same name keeps it too), or drop anything when a body cannot be
//! read whole (a construct nested too deeply): then every definition stays.

use crate::frontend::c::ast::{
    Declaration, Declarator, Expr, ExprKind, Item, Stmt, StmtKind, Suffix,
};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The items without the definitions of functions nothing reachable names (see the module).
pub(super) fn drop_unreferenced_functions(items: &[Item]) -> Cow<'_, [Item]> {
    let mut names_of: HashMap<&str, HashSet<String>> = HashMap::new();
    let mut roots: HashSet<String> = HashSet::from(["main".to_owned()]);
    for item in items {
        let found = match item {
            Item::Func(f) => {
                let mut names = HashSet::new();
                let whole = stmt_names(&f.body, &mut names);
                let name = f.decl.name.as_deref().unwrap_or_default();
                names_of.entry(name).or_default().extend(names);
                whole
            }
            Item::Decl(d) => declaration_names(d, &mut roots),
        };
        if !found {
            return Cow::Borrowed(items);
        }
    }
    let mut reached: HashSet<&str> = HashSet::new();
    let mut work: Vec<String> = roots.into_iter().collect();
    while let Some(n) = work.pop() {
        if let Some((&name, names)) = names_of.get_key_value(n.as_str()) {
            if reached.insert(name) {
                work.extend(names.iter().cloned());
            }
        }
    }
    let keep = |item: &Item| match item {
        Item::Func(f) => reached.contains(f.decl.name.as_deref().unwrap_or_default()),
        Item::Decl(_) => true,
    };
    if items.iter().all(keep) {
        return Cow::Borrowed(items);
    }
    Cow::Owned(items.iter().filter(|i| keep(i)).cloned().collect())
}

/// Adds the names a declaration's initialisers and array sizes mention; `false` when it cannot
/// be read whole.
fn declaration_names(d: &Declaration, out: &mut HashSet<String>) -> bool {
    d.items.iter().all(|item| {
        declarator_names(&item.decl, out) && item.init.as_ref().is_none_or(|e| expr_names(e, out))
    })
}

/// Adds the names a statement mentions (iteratively: statements nest deeply); `false` when it
/// cannot be read whole.
fn stmt_names(s: &Stmt, out: &mut HashSet<String>) -> bool {
    let mut stmts = vec![s];
    let mut exprs: Vec<&Expr> = vec![];
    while let Some(s) = stmts.pop() {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => exprs.push(e),
            StmtKind::Decl(d) => {
                if !declaration_names(d, out) {
                    return false;
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
            StmtKind::TooDeep => return false,
        }
    }
    exprs.iter().all(|e| expr_names(e, out))
}

/// Adds the names in a declarator's array sizes; `false` when it cannot be read whole.
fn declarator_names(d: &Declarator, out: &mut HashSet<String>) -> bool {
    d.suffixes.iter().all(|s| match s {
        Suffix::Array(Some(e), _) => expr_names(e, out),
        Suffix::Array(None, _) | Suffix::Params(..) | Suffix::Indirect(_) => true,
        Suffix::TooDeep(_) => false,
    })
}

/// Adds the names an expression mentions; `false` when it cannot be read whole.
fn expr_names(e: &Expr, out: &mut HashSet<String>) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Ident(n) => {
                out.insert(n.clone());
            }
            ExprKind::TooDeep => return false,
            _ => stack.extend(e.operands()),
        }
    }
    true
}
