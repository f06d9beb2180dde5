//! Lowering of a resolved function body (a statement tree) to its [`Cfa`], as the module
//! documentation of [`super`] describes, then dropping the locations `entry` does not reach.
//!
//! Must not: look inside expressions beyond wrapping them in operations.

use super::{Cfa, Edge, EdgeId, LocId, LocKind, Location, Op};
use crate::frontend::c::ast::{BinOp, Span};
use crate::frontend::c::ir::{IExpr, IExprKind, IStmt, IStmtKind, VarRef};
use crate::frontend::c::program::Function;
use crate::frontend::c::types::CType;
use num_bigint::BigInt;

/// Builds the CFA of `f`; `assert_error` is where a failing assertion reaches the error (the
/// error call in the program's own `__VERIFIER_assert`, if it defines one).
pub fn build(f: &Function, assert_error: Option<Span>) -> Cfa {
    let mut b = Builder {
        f,
        assert_error,
        locs: vec![],
        edges: vec![],
        exit: LocId(1),
        error: LocId(2),
        labels: vec![None; f.labels.len()],
        breaks: vec![],
        continues: vec![],
    };
    let entry = b.loc(LocKind::Entry, f.span);
    let exit = b.loc(LocKind::Exit, f.span);
    let error = b.loc(LocKind::Error, f.span);
    debug_assert_eq!((b.exit, b.error), (exit, error));
    let end = b.stmts(&f.body, entry);
    b.edge(end, exit, Op::Return(None), f.span);
    prune(b.locs, b.edges, entry, exit, error)
}

struct Builder<'a> {
    f: &'a Function,
    assert_error: Option<Span>,
    locs: Vec<Location>,
    edges: Vec<Edge>,
    exit: LocId,
    error: LocId,
    /// The location of each label, once created.
    labels: Vec<Option<LocId>>,
    /// Where `break` goes, innermost last (loops and switches).
    breaks: Vec<LocId>,
    /// Where `continue` goes, innermost last (loops).
    continues: Vec<LocId>,
}

impl Builder<'_> {
    fn loc(&mut self, kind: LocKind, span: Span) -> LocId {
        self.locs.push(Location { kind, span });
        LocId(self.locs.len() as u32 - 1)
    }

    fn plain(&mut self, span: Span) -> LocId {
        self.loc(LocKind::Plain, span)
    }

    fn edge(&mut self, from: LocId, to: LocId, op: Op, span: Span) {
        self.edges.push(Edge { from, to, op, span });
    }

    fn skip(&mut self, from: LocId, to: LocId, span: Span) {
        self.edge(from, to, Op::Skip, span);
    }

    /// A two-way branch on `c`.
    fn branch(&mut self, at: LocId, c: &IExpr, yes: LocId, no: LocId) {
        self.edge(at, yes, Op::Assume(c.clone(), true), c.span);
        self.edge(at, no, Op::Assume(c.clone(), false), c.span);
    }

    fn label(&mut self, l: usize) -> LocId {
        if let Some(loc) = self.labels[l] {
            return loc;
        }
        let loc = self.loc(LocKind::Label(l), self.f.labels[l].span);
        self.labels[l] = Some(loc);
        loc
    }

    /// Lowers `ss` starting at `at`; returns where control is after them.
    fn stmts(&mut self, ss: &[IStmt], mut at: LocId) -> LocId {
        for s in ss {
            at = self.stmt(s, at);
        }
        at
    }

    /// A location no edge enters yet (after a jump): code there is unreachable unless a label
    /// inside it is the target of a jump.
    fn after_jump(&mut self, span: Span) -> LocId {
        self.plain(span)
    }

    fn stmt(&mut self, s: &IStmt, at: LocId) -> LocId {
        let span = s.span;
        match &s.kind {
            IStmtKind::Expr(e) => {
                let n = self.plain(span);
                self.edge(at, n, Op::Expr(e.clone()), span);
                n
            }
            IStmtKind::Init(v, e) => {
                let n = self.plain(span);
                self.edge(at, n, Op::Init(*v, e.clone()), span);
                n
            }
            IStmtKind::If(c, a, b) => {
                let yes = self.plain(span);
                let no = self.plain(span);
                self.branch(at, c, yes, no);
                let end_a = self.stmts(a, yes);
                let end_b = self.stmts(b, no);
                if b.is_empty() {
                    self.skip(end_a, end_b, span);
                    end_b
                } else {
                    let join = self.plain(span);
                    self.skip(end_a, join, span);
                    self.skip(end_b, join, span);
                    join
                }
            }
            IStmtKind::Block(b) => self.stmts(b, at),
            IStmtKind::Break => {
                if let Some(&to) = self.breaks.last() {
                    self.skip(at, to, span);
                }
                self.after_jump(span)
            }
            IStmtKind::Continue => {
                if let Some(&to) = self.continues.last() {
                    self.skip(at, to, span);
                }
                self.after_jump(span)
            }
            IStmtKind::Return(e) => {
                self.edge(at, self.exit, Op::Return(e.clone()), span);
                self.after_jump(span)
            }
            IStmtKind::Error => {
                self.skip(at, self.error, span);
                self.after_jump(span)
            }
            IStmtKind::Assert(c) => {
                let ok = self.plain(span);
                let fail = self.plain(span);
                self.branch(at, c, ok, fail);
                self.skip(fail, self.error, self.assert_error.unwrap_or(span));
                ok
            }
            IStmtKind::Assume(c) => {
                let n = self.plain(span);
                self.edge(at, n, Op::Assume(c.clone(), true), span);
                n
            }
            IStmtKind::Thread(op) => {
                let n = self.plain(span);
                self.edge(at, n, Op::Thread(op.clone()), span);
                n
            }
            IStmtKind::Abort => {
                let stop = self.loc(LocKind::Abort, span);
                self.skip(at, stop, span);
                self.after_jump(span)
            }
            IStmtKind::Goto(l) => {
                let to = self.label(*l);
                self.skip(at, to, span);
                self.after_jump(span)
            }
            IStmtKind::Label(l) => {
                let here = self.label(*l);
                self.skip(at, here, span);
                here
            }
            IStmtKind::Loop {
                cond,
                body,
                step,
                do_while,
            } => self.lp(cond.as_ref(), body, step.as_ref(), *do_while, span, at),
            IStmtKind::Switch {
                var,
                cases,
                default,
                body,
            } => self.switch(*var, cases, *default, body, span, at),
        }
    }

    fn lp(
        &mut self,
        cond: Option<&IExpr>,
        body: &[IStmt],
        step: Option<&IExpr>,
        do_while: bool,
        span: Span,
        at: LocId,
    ) -> LocId {
        let head = self.loc(LocKind::LoopHead, span);
        let after = self.plain(span);
        self.skip(at, head, span);
        // Where the body starts, and where the condition is tested after it.
        let (body_at, test) = if do_while {
            (head, self.plain(span))
        } else {
            (self.plain(span), head)
        };
        // `continue` runs the step, then the test.
        let cont = match step {
            Some(_) => self.plain(span),
            None => test,
        };
        self.breaks.push(after);
        self.continues.push(cont);
        let end = self.stmts(body, body_at);
        self.breaks.pop();
        self.continues.pop();
        self.skip(end, cont, span);
        if let Some(step) = step {
            self.edge(cont, test, Op::Expr(step.clone()), step.span);
        }
        match cond {
            Some(c) => self.branch(test, c, body_at, after),
            None if test != body_at => self.skip(test, body_at, span),
            None => {}
        }
        after
    }

    fn switch(
        &mut self,
        var: VarRef,
        cases: &[(BigInt, usize)],
        default: Option<usize>,
        body: &[IStmt],
        span: Span,
        at: LocId,
    ) -> LocId {
        let after = self.plain(span);
        let ty = self.f.locals[match var {
            VarRef::Local(l) => l,
            VarRef::Global(_) => unreachable!("the resolver's switch variable is a local"),
        }]
        .ty;
        let mut cur = at;
        for (value, l) in cases {
            let target = self.label(*l);
            let next = self.plain(span);
            let test = equals(var, ty, value, span);
            self.branch(cur, &test, target, next);
            cur = next;
        }
        let fallback = default.map_or(after, |l| self.label(l));
        self.skip(cur, fallback, span);
        self.breaks.push(after);
        let start = self.after_jump(span);
        let end = self.stmts(body, start);
        self.breaks.pop();
        self.skip(end, after, span);
        after
    }
}

/// `var == value` in `var`'s type.
fn equals(var: VarRef, ty: CType, value: &BigInt, span: Span) -> IExpr {
    let operand = |kind| IExpr { kind, ty, span };
    IExpr {
        kind: IExprKind::Cmp(
            BinOp::Eq,
            Box::new(operand(IExprKind::Var(var))),
            Box::new(operand(IExprKind::Const(value.clone()))),
        ),
        ty: CType::INT,
        span,
    }
}

/// Keeps the locations reachable from `entry` (and `exit`, `error`), renumbered in the order
/// they were made, and the edges between them.
pub(crate) fn prune(
    locs: Vec<Location>,
    edges: Vec<Edge>,
    entry: LocId,
    exit: LocId,
    error: LocId,
) -> Cfa {
    prune_mapped(locs, edges, entry, exit, error).0
}

/// Like [`prune`], with the new number of each old location (`None`: dropped).
pub(crate) fn prune_mapped(
    locs: Vec<Location>,
    edges: Vec<Edge>,
    entry: LocId,
    exit: LocId,
    error: LocId,
) -> (Cfa, Vec<Option<LocId>>) {
    let mut succ: Vec<Vec<usize>> = vec![vec![]; locs.len()];
    for (i, e) in edges.iter().enumerate() {
        succ[e.from.0 as usize].push(i);
    }
    let mut seen = vec![false; locs.len()];
    let mut stack = vec![entry.0 as usize];
    seen[entry.0 as usize] = true;
    while let Some(l) = stack.pop() {
        for &e in &succ[l] {
            let t = edges[e].to.0 as usize;
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    seen[exit.0 as usize] = true;
    seen[error.0 as usize] = true;
    let dead = dead_starts(&locs, &edges, &seen);
    let mut new_id = vec![None; locs.len()];
    let mut kept = vec![];
    for (i, loc) in locs.into_iter().enumerate() {
        if seen[i] {
            new_id[i] = Some(LocId(kept.len() as u32));
            kept.push(loc);
        }
    }
    let id = |l: LocId| new_id[l.0 as usize].expect("kept");
    let mut out = vec![vec![]; kept.len()];
    let mut kept_edges = vec![];
    for e in edges {
        if !seen[e.from.0 as usize] {
            continue;
        }
        let edge = Edge {
            from: id(e.from),
            to: id(e.to),
            ..e
        };
        out[edge.from.0 as usize].push(EdgeId(kept_edges.len() as u32));
        kept_edges.push(edge);
    }
    let cfa = Cfa {
        locs: kept,
        edges: kept_edges,
        out,
        entry: id(entry),
        exit: id(exit),
        error: id(error),
        dead,
    };
    debug_assert_eq!(cfa.malformed_location(), None, "a CFA location's out-edges");
    (cfa, new_id)
}

/// The spans of the statements that start unreachable code: among the edges out of unseen
/// locations that do something (not the jumps and joins the builder adds, nor the implicit
/// return at the end of a body), the first in the source of each connected stretch of unseen
/// locations. Sorted.
fn dead_starts(locs: &[Location], edges: &[Edge], seen: &[bool]) -> Vec<Span> {
    // Union-find over the unseen locations, joined by the edges between them.
    let mut parent: Vec<usize> = (0..locs.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for e in edges.iter().filter(|e| !seen[e.from.0 as usize]) {
        let (a, b) = (e.from.0 as usize, e.to.0 as usize);
        if !seen[b] {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra] = rb;
        }
    }
    let mut first: std::collections::BTreeMap<usize, Span> = Default::default();
    for e in edges.iter().filter(|e| !seen[e.from.0 as usize]) {
        if matches!(e.op, Op::Skip | Op::Return(None)) {
            continue;
        }
        let r = root(&mut parent, e.from.0 as usize);
        let best = first.entry(r).or_insert(e.span);
        if e.span.start < best.start {
            *best = e.span;
        }
    }
    let mut out: Vec<Span> = first.into_values().collect();
    out.sort_by_key(|s| (s.start, s.end));
    out.dedup();
    out
}
