//! `goto` and labels in `main`, and calls of functions that never return, as the pointer
//! program sees them (a part of `lower.rs`).
//!
//! Labels may stand only in `main`'s outermost block; a `goto` leaves the scopes it is in
//! (their pointer variables die) and jumps there. No pointer variable of that block may be
//! declared between a `goto` and its label (the jump would give it a value C leaves
//! indeterminate). Every label is a loop head, so that a backward `goto` loop is abstracted
//! like any other loop. A call of a function whose body only loops forever (SV-COMP's
//! `myexit`: `_EXIT: goto _EXIT;`) ends the execution with no check: it never terminates.
//!
//! Must not: accept a label in a nested block, or a jump whose target it cannot check.

use super::super::ast::{ExprKind, Item, Span, Stmt, StmtKind};
use super::lower::Lower;
use super::lower_expr::is_zero;
use super::pir::{Loc, LoopHead, Op};
use std::collections::HashSet;

/// The depth of `main`'s outermost block in the scopes (globals, `main`'s parameters, its
/// block).
pub(super) const MAIN_BLOCK: usize = 3;

impl Lower {
    /// The location of label `name` (made at its first mention).
    fn label_loc(&mut self, name: &str) -> Loc {
        if let Some(&(loc, _)) = self.labels.get(name) {
            return loc;
        }
        let loc = self.loc();
        self.labels.insert(name.to_owned(), (loc, None));
        loc
    }

    /// The pointer variables declared so far in `main`'s outermost block.
    fn declared(&self) -> usize {
        self.scope_vars.get(MAIN_BLOCK - 1).map_or(0, Vec::len)
    }

    /// `name: s`.
    pub(super) fn label(&mut self, name: &str, s: &Stmt, span: Span) -> Result<(), String> {
        if self.scopes.len() != MAIN_BLOCK {
            return Err("a label inside a block".into());
        }
        let loc = self.label_loc(name);
        let declared = self.declared();
        match self.labels.get_mut(name) {
            Some((_, at @ None)) => *at = Some(declared),
            _ => return Err(format!("the label `{name}` twice")),
        }
        self.edge_to(Op::Skip, span, loc);
        self.cur = loc;
        self.heads.push(LoopHead {
            loc,
            offset: span.start,
        });
        self.stmt(s)
    }

    /// `goto name`.
    pub(super) fn goto(&mut self, name: &str, span: Span) {
        self.leave_scopes(MAIN_BLOCK, span);
        let loc = self.label_loc(name);
        let declared = self.declared();
        self.gotos.push((name.to_owned(), declared));
        self.edge_to(Op::Skip, span, loc);
        self.cur = self.loc(); // unreachable
    }

    /// After `main`: every `goto` has its label, with the same pointer variables declared.
    pub(super) fn check_gotos(&self) -> Result<(), String> {
        for (name, declared) in &self.gotos {
            match self.labels.get(name) {
                Some((_, Some(d))) if d == declared => {}
                Some((_, Some(_))) => return Err("a `goto` past a pointer declaration".into()),
                _ => return Err(format!("a `goto` to the undefined label `{name}`")),
            }
        }
        Ok(())
    }
}

/// The functions whose body only loops forever: `L: goto L;`, `while (1) ;`, `for (;;) ;`.
pub(super) fn diverging(items: &[Item]) -> HashSet<String> {
    let mut out = HashSet::new();
    for item in items {
        let Item::Func(f) = item else { continue };
        let (Some(name), StmtKind::Block(body)) = (&f.decl.name, &f.body.kind) else {
            continue;
        };
        let stmts: Vec<&Stmt> = body
            .iter()
            .filter(|s| !matches!(s.kind, StmtKind::Empty))
            .collect();
        if let [s] = stmts[..] {
            if loops_forever(s) {
                out.insert(name.clone());
            }
        }
    }
    out
}

/// Whether `s` is an empty infinite loop.
fn loops_forever(s: &Stmt) -> bool {
    let empty = |b: &Stmt| match &b.kind {
        StmtKind::Empty => true,
        StmtKind::Block(items) => items.is_empty(),
        _ => false,
    };
    match &s.kind {
        StmtKind::Label(l, body) => matches!(&body.kind, StmtKind::Goto(g) if g == l),
        StmtKind::While(c, body) => {
            matches!(&c.kind, ExprKind::Int(x) if !is_zero(x)) && empty(body)
        }
        StmtKind::For(None, None, None, body) => empty(body),
        _ => false,
    }
}
