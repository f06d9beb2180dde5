//! The points-to facts of a resolved program, read off its expressions for the Datalog rule
//! set `cfa_pointsto` (top-level `rules/`, Andersen-style), and the relation printed for
//! tests. Part of [`super`], used by `lower.rs`.
//!
//! Must not: lower sites or lay out addresses (that is `lower.rs`).

use super::super::ir::*;
use super::super::program::Program;
use super::lower::Objects;
use super::pointers::{Site, SiteKind, SITE_BASE};
use std::collections::HashMap;

#[allow(missing_docs)]
pub(super) mod program {
    ascent::ascent! {
        /// Points-to sets of a C program.
        pub(in super::super) struct PointsTo;
        include_source!(crate::analysis::rules::cfa_pointsto);
    }
}

/// A node of the points-to graph: a variable of a function (`usize::MAX` for globals), or a
/// function's return value (`Local(usize::MAX)`).
type NodeKey = (usize, VarRef);

pub(super) fn key(f: usize, v: VarRef) -> NodeKey {
    match v {
        VarRef::Global(_) => (usize::MAX, v),
        VarRef::Local(_) => (f, v),
    }
}

fn ret_key(f: usize) -> NodeKey {
    (f, VarRef::Local(usize::MAX))
}

#[derive(Default)]
pub(super) struct Facts {
    pub nodes: HashMap<NodeKey, u32>,
    pub names: Vec<NodeKey>,
    pub prog: program::PointsTo,
}

impl Facts {
    pub(super) fn node(&mut self, k: NodeKey) -> u32 {
        if let Some(&n) = self.nodes.get(&k) {
            return n;
        }
        let n = self.names.len() as u32;
        self.names.push(k);
        self.nodes.insert(k, n);
        n
    }
}

/// The points-to relation as text: `node -> cell, cell` per line, sorted.
pub(super) fn report(
    program: &Program,
    facts: &Facts,
    pts: &HashMap<u32, Vec<u32>>,
    objects: &Objects,
) -> String {
    let fname = |f: usize| program.functions[f].name.clone();
    let mut lines: Vec<String> = pts
        .iter()
        .map(|(&n, cells)| {
            let (f, v) = facts.names[n as usize];
            let name = match v {
                VarRef::Global(g) => program.globals[g].name.clone(),
                VarRef::Local(usize::MAX) => format!("{}::return", fname(f)),
                VarRef::Local(l) => {
                    format!("{}::{}", fname(f), program.functions[f].locals[l].name)
                }
            };
            let targets: Vec<String> = cells
                .iter()
                .map(|c| format!("{}#{c}", program.globals[objects.cells[c].0].name))
                .collect();
            format!("{name} -> {}", targets.join(", "))
        })
        .collect();
    lines.sort();
    lines.join("\n")
}

/// Reads the points-to facts off one function.
pub(super) struct Extract<'a> {
    pub f: usize,
    pub facts: &'a mut Facts,
    pub sites: &'a [Site],
    pub objects: &'a Objects,
    /// The first cell (global) of each allocation site.
    pub heap_first: &'a [usize],
}

impl Extract<'_> {
    pub(super) fn stmts(&mut self, stmts: &[IStmt]) {
        for s in stmts {
            match &s.kind {
                IStmtKind::Init(v, Some(e)) => {
                    let n = self.facts.node(key(self.f, *v));
                    self.flow(n, e);
                    self.expr(e);
                }
                IStmtKind::Return(Some(e)) => {
                    let n = self.facts.node(ret_key(self.f));
                    self.flow(n, e);
                    self.expr(e);
                }
                IStmtKind::Expr(e) | IStmtKind::Assert(e) | IStmtKind::Assume(e) => self.expr(e),
                IStmtKind::If(c, a, b) => {
                    self.expr(c);
                    self.stmts(a);
                    self.stmts(b);
                }
                IStmtKind::Loop {
                    cond, body, step, ..
                } => {
                    cond.iter().chain(step).for_each(|e| self.expr(e));
                    self.stmts(body);
                }
                IStmtKind::Block(b) | IStmtKind::Switch { body: b, .. } => self.stmts(b),
                _ => {}
            }
        }
    }

    fn expr(&mut self, e: &IExpr) {
        match &e.kind {
            IExprKind::Assign(v, x) => {
                let n = self.facts.node(key(self.f, *v));
                self.flow(n, x);
            }
            IExprKind::Call(g, args) if *g < SITE_BASE => {
                for (i, a) in args.iter().enumerate() {
                    let n = self.facts.node((*g, VarRef::Local(i)));
                    self.flow(n, a);
                }
            }
            IExprKind::SetElem { var, value, .. } => {
                let n = self.facts.node(key(self.f, *var));
                self.flow(n, value);
            }
            IExprKind::Call(k, _) => {
                if let SiteKind::Store { temp, off, value } = self.sites[k - SITE_BASE].kind {
                    let t = self.facts.node(key(self.f, temp));
                    let m = self.facts.node(key(self.f, value));
                    self.facts.prog.store.push((t, off as u32, m));
                }
            }
            _ => {}
        }
        for c in e.operands() {
            self.expr(c);
        }
    }

    /// The facts of `e`'s value flowing into node `n`.
    fn flow(&mut self, n: u32, e: &IExpr) {
        match &e.kind {
            IExprKind::Var(v) => {
                let m = self.facts.node(key(self.f, *v));
                self.facts.prog.copy.push((n, m));
            }
            IExprKind::Call(g, _) if *g < SITE_BASE => {
                let m = self.facts.node(ret_key(*g));
                self.facts.prog.copy.push((n, m));
            }
            IExprKind::Call(k, _) => match self.sites[k - SITE_BASE].kind {
                SiteKind::AddrOf {
                    cell: VarRef::Global(g),
                    ..
                } => self.facts.prog.addr.push((n, self.objects.ids[&g])),
                SiteKind::Load { temp, off } => {
                    let t = self.facts.node(key(self.f, temp));
                    self.facts.prog.load.push((n, t, off as u32));
                }
                SiteKind::FieldAddr { temp, off } => {
                    let t = self.facts.node(key(self.f, temp));
                    self.facts.prog.field_addr.push((n, t, off as u32));
                }
                SiteKind::Alloc { heap, .. } => {
                    let first = self.heap_first[heap];
                    self.facts.prog.addr.push((n, self.objects.ids[&first]));
                }
                // A store's value is the stored temporary's, after it; `free` returns nothing.
                SiteKind::Store { .. } | SiteKind::AddrOf { .. } | SiteKind::Free { .. } => {}
            },
            // The old value of a variable or element (`p++`, `a[i]++`), or the element's.
            IExprKind::Elem(v, _) | IExprKind::PostIncDec(v, _) => {
                let m = self.facts.node(key(self.f, *v));
                self.facts.prog.copy.push((n, m));
            }
            // The new value, or the old one (`Current` in `value`, or `post`): the array's.
            IExprKind::SetElem { var, value, .. } => {
                let m = self.facts.node(key(self.f, *var));
                self.facts.prog.copy.push((n, m));
                self.flow(n, value);
            }
            // Pointer arithmetic stays inside the pointer's object; other operators cannot
            // apply to pointers (the resolver refuses them), followed anyway: an over-
            // approximation costs nothing, a missing flow would make a dereference invalid.
            IExprKind::Cond(_, a, b) | IExprKind::Arith(_, a, b) => {
                self.flow(n, a);
                self.flow(n, b);
            }
            IExprKind::Comma(_, x)
            | IExprKind::Assign(_, x)
            | IExprKind::Convert(x)
            | IExprKind::Neg(x)
            | IExprKind::BitNot(x) => self.flow(n, x),
            // Truth values, constants (NULL), nondet integers, statements: no address.
            IExprKind::Const(_)
            | IExprKind::Cmp(..)
            | IExprKind::Logic(..)
            | IExprKind::Not(_)
            | IExprKind::Nondet(_)
            | IExprKind::Current
            | IExprKind::ArrayDecl { .. } => {}
        }
    }
}
