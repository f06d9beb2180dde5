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
    let mut roots = Mentions::default();
    roots.names.insert("main".to_owned());
    for item in items {
        let incomplete = match item {
            Item::Func(f) => {
                let mut m = Mentions::default();
                m.stmt(&f.body);
                let name = f.decl.name.as_deref().unwrap_or_default();
                names_of.entry(name).or_default().extend(m.names);
                m.incomplete
            }
            // A file-scope declaration's names are not uses (a prototype keeps nothing).
            Item::Decl(d) => {
                roots.declaration(d, false);
                roots.incomplete
            }
        };
        if incomplete {
            return Cow::Borrowed(items);
        }
    }
    let mut reached: HashSet<&str> = HashSet::new();
    let mut work: Vec<String> = roots.names.into_iter().collect();
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

/// The names a piece of a body mentions: identifiers in its expressions and array sizes, and
/// the names its declarations declare.
#[derive(Debug, Default)]
pub(super) struct Mentions {
    /// The names.
    pub(super) names: HashSet<String>,
    /// Something nested too deeply to be read: the names may be incomplete.
    pub(super) incomplete: bool,
    /// Something whose names are not read (an unsupported expression, a declarator with
    /// parameters or a parenthesised one): it may mention anything.
    pub(super) opaque: bool,
}

impl Mentions {
    /// Adds what a statement mentions (iteratively: statements nest deeply).
    pub(super) fn stmt(&mut self, s: &Stmt) {
        let mut stmts = vec![s];
        let mut exprs: Vec<&Expr> = vec![];
        while let Some(s) = stmts.pop() {
            match &s.kind {
                StmtKind::Expr(e) | StmtKind::Case(e) => exprs.push(e),
                StmtKind::Decl(d) => self.declaration(d, true),
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
                StmtKind::TooDeep => self.incomplete = true,
            }
        }
        for e in exprs {
            self.expr(e);
        }
    }

    /// Adds what a declaration mentions: its array sizes and initialisers, and with
    /// `declared` the names it declares.
    pub(super) fn declaration(&mut self, d: &Declaration, declared: bool) {
        for item in &d.items {
            if declared {
                self.names.extend(item.decl.name.iter().cloned());
            }
            self.declarator(&item.decl);
            if let Some(e) = &item.init {
                self.expr(e);
            }
        }
    }

    fn declarator(&mut self, d: &Declarator) {
        for s in &d.suffixes {
            match s {
                Suffix::Array(Some(e), _) => self.expr(e),
                Suffix::Array(None, _) => {}
                Suffix::Params(..) | Suffix::Indirect(_) => self.opaque = true,
                Suffix::TooDeep(_) => self.incomplete = true,
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Ident(n) => {
                    self.names.insert(n.clone());
                }
                ExprKind::TooDeep => self.incomplete = true,
                ExprKind::Unsupported(_) => self.opaque = true,
                _ => stack.extend(e.operands()),
            }
        }
    }
}
