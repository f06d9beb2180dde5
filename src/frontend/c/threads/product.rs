//! The interleaving product of a [`Concurrent`] program with a fixed set of threads: one
//! sequential program whose `main` simulates every schedule, so that the existing large-block
//! encoding, engines, interpreter and answer read-back apply unchanged.
//!
//! # Encoding: program-counter variables
//!
//! `main`'s CFA is replaced by the product CFA; every other function stays (thread templates
//! are no longer called as functions: their CFAs become trivial). Its locals are `main`'s, then
//! a copy of each thread's template locals (`t1_x` for `x` of thread 1), then per thread a
//! program counter `pcK` (0: not started, -1: ended, else the number of the interleaving point
//! it waits at), the scheduler's choice `sched` and the atomic-section owner `atomic` (0: none,
//! K+1: thread K). The CFA:
//!
//! ```text
//! entry -> [pc0 = entry point of main] -> hub
//! hub   -> sched = nondet() -> [sched == K && (atomic == 0 || atomic == K+1)] -> dispatch K
//! dispatch K -> [pcK == i] -> copy of thread K's point i -> ... thread-local edges ...
//!            -> at the next interleaving point j: pcK = j -> hub
//! ```
//!
//! Thread operations become ordinary operations of the copies: `pthread_create(&t, ...)` of
//! thread J is `t = J; pcJ = its entry point`; `pthread_join(t)` is the assumption `(t == 1 &&
//! pc1 == -1) || ...` (it blocks: a schedule that picks a blocked thread ends there, and the
//! other schedules remain); `lock(&m)` is `[m == 0]; m = 1` with no interleaving point between;
//! a thread's `return` or `pthread_exit` is `pcK = -1`; `main`'s `return` ends the program.
//!
//! Both encodings are built: first the explicit one (`explicit.rs`: one scheduler location per
//! reachable combination of interleaving points, which the engines find invariants for far
//! more easily, measured on the SV-COMP pthread sample), and these program counters when it
//! has more than [`EXPLICIT_STATES`] combinations or a turn creates a thread after its first
//! operation. Counters do not grow exponentially with the number of threads: the hub is one
//! loop head whose predicate the existing encoding builds (live variables, large blocks between
//! interleaving points: a thread-local loop between two of them is a loop of its own inside a
//! step). Either way a counterexample's schedule is just the nondet values of the scheduler's
//! site, which the trace extraction reads back in order.
//!
//! Must not: change the meaning of the threads' operations (the scheduler in
//! `interp/sched.rs` replays the concurrent program itself to check that), or put an
//! interleaving point anywhere but at the concurrent program's points.

use super::Concurrent;
use crate::frontend::c::ast::{BinOp, Span};
use crate::frontend::c::cfa::{self, Cfa, Edge, EdgeId, LocId, LocKind, Location, Op};
use crate::frontend::c::ir::{Dim, IExpr, IExprKind, NondetSite, ThreadOp, VarInfo, VarRef};
use crate::frontend::c::program::Program;
use crate::frontend::c::types::CType;
use std::collections::HashMap;

/// At most this many combinations of interleaving points; beyond, program counters.
pub const EXPLICIT_STATES: usize = 400;

/// The value of a program counter of a thread not started yet.
pub const NOT_STARTED: i64 = 0;
/// The value of a program counter of a thread that has ended.
pub const DONE: i64 = -1;

/// The sequential product and what ties it to the threads.
#[derive(Clone, Debug)]
pub struct Product {
    /// The product program (its `main` runs every thread).
    pub program: Program,
    /// The nondet site of the scheduler's choice: its values, in order, are the schedule.
    pub sched_site: usize,
    /// Per thread, the product local of its first template local.
    pub offsets: Vec<usize>,
}

/// Builds the interleaving product of `c` (see the module documentation).
pub fn product(c: &Concurrent) -> Product {
    let mut p = c.program.clone();
    let main = p.main;
    let mut locals = p.functions[main].locals.clone();
    let mut offsets = vec![0];
    for (k, t) in c.threads.iter().enumerate().skip(1) {
        let off = locals.len();
        offsets.push(off);
        for l in &p.functions[t.func].locals {
            let mut info = l.clone();
            info.name = format!("t{k}_{}", l.name);
            for d in &mut info.dims {
                if let Dim::Var(VarRef::Local(i)) = d {
                    *i += off;
                }
            }
            locals.push(info);
        }
    }
    let span = p.functions[main].span;
    let mut new_local = |name: String| {
        locals.push(VarInfo {
            name,
            ty: CType::INT,
            span,
            dims: vec![],
        });
        VarRef::Local(locals.len() - 1)
    };
    let pcs: Vec<VarRef> = (0..c.threads.len())
        .map(|k| new_local(format!("pc{k}")))
        .collect();
    let sched = new_local("sched".to_owned());
    let atomic = new_local("atomic".to_owned());
    let pcs: Vec<VarRef> = pcs;
    p.nondet_sites.push(NondetSite {
        ty: CType::INT,
        span,
    });
    let sched_site = p.nondet_sites.len() - 1;
    let draw = IExpr {
        kind: IExprKind::Assign(
            sched,
            Box::new(IExpr {
                kind: IExprKind::Nondet(sched_site),
                ty: CType::INT,
                span,
            }),
        ),
        ty: CType::INT,
        span,
    };
    let types: Vec<CType> = locals.iter().map(|l| l.ty).collect();
    let new_builder = || {
        let mut b = Builder {
            c,
            locs: vec![],
            edges: vec![],
            types: types.clone(),
            globals: p.globals.iter().map(|g| g.ty).collect(),
            pcs: pcs.clone(),
            atomic,
            sched,
            draw: draw.clone(),
            offsets: offsets.clone(),
            ids: vec![],
            hub: LocId(3),
            error: LocId(2),
        };
        b.loc(LocKind::Entry, span);
        b.loc(LocKind::Exit, span);
        b.loc(LocKind::Error, span);
        b.loc(LocKind::LoopHead, span);
        // Interleaving points, numbered from 1 per thread.
        for t in &c.threads {
            let mut ids = HashMap::new();
            for (l, &is) in c.points[t.func].iter().enumerate() {
                if is {
                    let n = ids.len() as i64 + 1;
                    ids.insert(LocId(l as u32), n);
                }
            }
            b.ids.push(ids);
        }
        b
    };
    let (entry, exit, error, hub) = (LocId(0), LocId(1), LocId(2), LocId(3));
    let mut b = new_builder();
    let (first, op) = match b.explicit(EXPLICIT_STATES, span) {
        Some(start) => (start, Op::Skip),
        None => {
            b = new_builder();
            (hub, b.counters(hub, span))
        }
    };
    b.edge(entry, first, op, span);
    let cfa = cfa::prune(b.locs, b.edges, entry, exit, error);
    let f = &mut p.functions[main];
    f.locals = locals;
    f.cfa = cfa;
    // Thread functions are only run by the product's main.
    for t in c.threads.iter().skip(1) {
        let g = &mut p.functions[t.func];
        g.cfa = trivial(g.span);
    }
    Product {
        program: p,
        sched_site,
        offsets,
    }
}

/// A CFA that returns at once.
pub(super) fn trivial(span: Span) -> Cfa {
    let locs = vec![
        Location {
            kind: LocKind::Entry,
            span,
        },
        Location {
            kind: LocKind::Exit,
            span,
        },
        Location {
            kind: LocKind::Error,
            span,
        },
    ];
    let edges = vec![Edge {
        from: LocId(0),
        to: LocId(1),
        op: Op::Return(None),
        span,
    }];
    cfa::prune(locs, edges, LocId(0), LocId(1), LocId(2))
}

pub(super) struct Builder<'a> {
    pub(super) c: &'a Concurrent,
    locs: Vec<Location>,
    edges: Vec<Edge>,
    /// Types of the product main's locals.
    types: Vec<CType>,
    /// Types of the globals.
    globals: Vec<CType>,
    pcs: Vec<VarRef>,
    pub(super) atomic: VarRef,
    sched: VarRef,
    /// `sched = nondet()` at the scheduler's site.
    pub(super) draw: IExpr,
    pub(super) offsets: Vec<usize>,
    /// Per thread, the number of each interleaving point.
    pub(super) ids: Vec<HashMap<LocId, i64>>,
    hub: LocId,
    pub(super) error: LocId,
}

impl Builder<'_> {
    /// The number of locations made so far.
    pub(super) fn size(&self) -> usize {
        self.locs.len()
    }

    pub(super) fn loc(&mut self, kind: LocKind, span: Span) -> LocId {
        self.locs.push(Location { kind, span });
        LocId(self.locs.len() as u32 - 1)
    }

    pub(super) fn edge(&mut self, from: LocId, to: LocId, op: Op, span: Span) {
        self.edges.push(Edge { from, to, op, span });
    }

    pub(super) fn branch(&mut self, at: LocId, c: IExpr, yes: LocId, no: LocId) {
        let span = c.span;
        self.edge(at, yes, Op::Assume(c.clone(), true), span);
        self.edge(at, no, Op::Assume(c, false), span);
    }

    fn ty(&self, v: VarRef) -> CType {
        match v {
            VarRef::Global(g) => self.globals[g],
            VarRef::Local(l) => self.types[l],
        }
    }

    pub(super) fn var(&self, v: VarRef, span: Span) -> IExpr {
        IExpr {
            kind: IExprKind::Var(v),
            ty: self.ty(v),
            span,
        }
    }

    pub(super) fn konst(&self, n: i64, ty: CType, span: Span) -> IExpr {
        IExpr {
            kind: IExprKind::Const(n.into()),
            ty,
            span,
        }
    }

    pub(super) fn eq(&self, v: VarRef, n: i64, span: Span) -> IExpr {
        let ty = self.ty(v);
        IExpr {
            kind: IExprKind::Cmp(
                BinOp::Eq,
                Box::new(self.var(v, span)),
                Box::new(self.konst(n, ty, span)),
            ),
            ty: CType::INT,
            span,
        }
    }

    fn logic(&self, op: BinOp, a: IExpr, b: IExpr, span: Span) -> IExpr {
        IExpr {
            kind: IExprKind::Logic(op, Box::new(a), Box::new(b)),
            ty: CType::INT,
            span,
        }
    }

    pub(super) fn and(&self, a: IExpr, b: IExpr, span: Span) -> IExpr {
        self.logic(BinOp::And, a, b, span)
    }

    pub(super) fn or(&self, a: IExpr, b: IExpr, span: Span) -> IExpr {
        self.logic(BinOp::Or, a, b, span)
    }

    /// `v = n` as an operation.
    pub(super) fn set(&self, v: VarRef, n: i64, span: Span) -> Op {
        let ty = self.ty(v);
        Op::Expr(IExpr {
            kind: IExprKind::Assign(v, Box::new(self.konst(n, ty, span))),
            ty,
            span,
        })
    }

    /// The product with program counters: the hub dispatches on the thread chosen and its
    /// counter (see the module documentation).
    /// Returns the operation of the edge from the entry into `hub` (main's counter set).
    fn counters(&mut self, hub: LocId, span: Span) -> Op {
        let main_entry = self.c.program.functions[self.c.program.main].cfa.entry;
        let chosen = self.loc(LocKind::Plain, span);
        self.edge(hub, chosen, Op::Expr(self.draw.clone()), span);
        let mut at = chosen;
        let n = self.c.threads.len();
        for k in 0..n {
            let dispatch = self.loc(LocKind::Plain, span);
            let cond = self.turn(k, span);
            if k + 1 < n {
                let next = self.loc(LocKind::Plain, span);
                self.branch(at, cond, dispatch, next);
                at = next;
            } else {
                self.edge(at, dispatch, Op::Assume(cond, true), span);
            }
            self.thread(k, dispatch);
        }
        self.set(self.pcs[0], self.ids[0][&main_entry], span)
    }

    /// `sched == k && (atomic == 0 || atomic == k + 1)`: thread `k` takes the turn.
    pub(super) fn turn(&self, k: usize, span: Span) -> IExpr {
        self.and(
            self.eq(self.sched, k as i64, span),
            self.or(
                self.eq(self.atomic, 0, span),
                self.eq(self.atomic, k as i64 + 1, span),
                span,
            ),
            span,
        )
    }

    /// A chain of operations from `from` to `to`.
    pub(super) fn chain(&mut self, from: LocId, to: LocId, ops: Vec<Op>, span: Span) {
        let mut at = from;
        let n = ops.len();
        for (i, op) in ops.into_iter().enumerate() {
            let next = if i + 1 == n {
                to
            } else {
                self.loc(LocKind::Plain, span)
            };
            self.edge(at, next, op, span);
            at = next;
        }
        if n == 0 {
            self.edge(from, to, Op::Skip, span);
        }
    }

    /// Thread `k`'s copy of its template, entered at `dispatch` by its program counter.
    fn thread(&mut self, k: usize, dispatch: LocId) {
        let c = self.c;
        let f = c.threads[k].func;
        let cfa = &c.program.functions[f].cfa;
        let off = self.offsets[k];
        let rename = |v: VarRef| match v {
            VarRef::Local(i) => VarRef::Local(i + off),
            g => g,
        };
        let pc = self.pcs[k];
        // The copy of each location (the template's error is the product's).
        let copy: Vec<LocId> = cfa
            .locs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if LocId(i as u32) == cfa.error {
                    return self.error;
                }
                let kind = match l.kind {
                    LocKind::Abort => LocKind::Abort,
                    LocKind::Exit if k == 0 => LocKind::Abort,
                    LocKind::LoopHead => LocKind::LoopHead,
                    _ => LocKind::Plain,
                };
                self.loc(kind, l.span)
            })
            .collect();
        // A thread that returns has ended.
        if k > 0 {
            let span = cfa.loc(cfa.exit).span;
            let done = self.set(pc, DONE, span);
            self.edge(copy[cfa.exit.0 as usize], self.hub, done, span);
        }
        // Edges into an interleaving point yield to the scheduler there.
        let mut yields: HashMap<LocId, LocId> = HashMap::new();
        let mut points: Vec<(LocId, i64)> = self.ids[k].iter().map(|(l, n)| (*l, *n)).collect();
        points.sort_by_key(|p| p.1);
        for &(l, n) in &points {
            let span = cfa.loc(l).span;
            let y = self.loc(LocKind::Plain, span);
            let op = self.set(pc, n, span);
            self.edge(y, self.hub, op, span);
            yields.insert(l, y);
        }
        let target = |l: LocId| yields.get(&l).copied().unwrap_or(copy[l.0 as usize]);
        for (ei, e) in cfa.edges.iter().enumerate() {
            let from = copy[e.from.0 as usize];
            let to = target(e.to);
            let span = e.span;
            match &e.op {
                Op::Skip => self.edge(from, to, Op::Skip, span),
                Op::Expr(x) => self.edge(from, to, Op::Expr(renamed(x, &rename)), span),
                Op::Init(v, x) => {
                    let x = x.as_ref().map(|x| renamed(x, &rename));
                    self.edge(from, to, Op::Init(rename(*v), x), span);
                }
                Op::Assume(x, holds) => {
                    self.edge(from, to, Op::Assume(renamed(x, &rename), *holds), span)
                }
                Op::Return(x) => {
                    let op = match x {
                        Some(x) => Op::Expr(renamed(x, &rename)),
                        None => Op::Skip,
                    };
                    self.edge(from, to, op, span);
                }
                Op::Thread(op) => self.thread_op(k, op, EdgeId(ei as u32), from, to, span),
            }
        }
        // The dispatch on the program counter.
        let mut at = dispatch;
        for (i, &(l, n)) in points.iter().enumerate() {
            let span = cfa.loc(l).span;
            let cond = self.eq(pc, n, span);
            let into = copy[l.0 as usize];
            if i + 1 < points.len() {
                let next = self.loc(LocKind::Plain, span);
                self.branch(at, cond, into, next);
                at = next;
            } else {
                self.edge(at, into, Op::Assume(cond, true), span);
            }
        }
    }

    /// A thread operation of thread `k` (edge `e` of its template) as product operations.
    fn thread_op(
        &mut self,
        k: usize,
        op: &ThreadOp,
        e: EdgeId,
        from: LocId,
        to: LocId,
        span: Span,
    ) {
        let off = self.offsets[k];
        let rename = |v: VarRef| match v {
            VarRef::Local(i) => VarRef::Local(i + off),
            g => g,
        };
        match op {
            ThreadOp::Create { handle, func } => {
                // `analyze` allows creation in main only, once per site.
                let Some(j) = self.c.created_by(e) else {
                    return;
                };
                let entry = self.c.program.functions[*func].cfa.entry;
                let ops = vec![
                    self.set(rename(*handle), j as i64, span),
                    self.set(self.pcs[j], self.ids[j][&entry], span),
                ];
                self.chain(from, to, ops, span);
            }
            ThreadOp::Join(h) => {
                let h = rename(*h);
                let mut cond = self.konst(0, CType::INT, span);
                for j in 1..self.c.threads.len() {
                    let ended = self.and(
                        self.eq(h, j as i64, span),
                        self.eq(self.pcs[j], DONE, span),
                        span,
                    );
                    cond = self.or(cond, ended, span);
                }
                self.edge(from, to, Op::Assume(cond, true), span);
            }
            ThreadOp::Exit => {
                let op = self.set(self.pcs[k], DONE, span);
                self.edge(from, self.hub, op, span);
            }
            ThreadOp::Lock(m) => {
                let ops = vec![
                    Op::Assume(self.eq(*m, 0, span), true),
                    self.set(*m, 1, span),
                ];
                self.chain(from, to, ops, span);
            }
            ThreadOp::AtomicBegin => {
                let op = self.set(self.atomic, k as i64 + 1, span);
                self.edge(from, to, op, span);
            }
            ThreadOp::AtomicEnd => {
                let op = self.set(self.atomic, 0, span);
                self.edge(from, to, op, span);
            }
        }
    }
}

/// A copy of `x` with every variable renamed.
pub(super) fn renamed(x: &IExpr, rename: &dyn Fn(VarRef) -> VarRef) -> IExpr {
    let mut x = x.clone();
    let mut stack = vec![&mut x];
    while let Some(e) = stack.pop() {
        match &mut e.kind {
            IExprKind::Var(v)
            | IExprKind::PostIncDec(v, _)
            | IExprKind::Assign(v, _)
            | IExprKind::Elem(v, _)
            | IExprKind::SetElem { var: v, .. }
            | IExprKind::ArrayDecl { var: v, .. } => *v = rename(*v),
            _ => {}
        }
        match &mut e.kind {
            IExprKind::Const(_)
            | IExprKind::Var(_)
            | IExprKind::Nondet(_)
            | IExprKind::PostIncDec(..)
            | IExprKind::Current => {}
            IExprKind::Arith(_, a, b)
            | IExprKind::Cmp(_, a, b)
            | IExprKind::Logic(_, a, b)
            | IExprKind::Comma(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            IExprKind::Not(a)
            | IExprKind::Neg(a)
            | IExprKind::BitNot(a)
            | IExprKind::Convert(a)
            | IExprKind::Assign(_, a) => stack.push(a),
            IExprKind::Call(_, args) | IExprKind::Elem(_, args) => stack.extend(args.iter_mut()),
            IExprKind::SetElem { index, value, .. } => {
                stack.extend(index.iter_mut());
                stack.push(value);
            }
            IExprKind::ArrayDecl { elems, .. } => stack.extend(elems.iter_mut().map(|(_, v)| v)),
            IExprKind::Cond(a, b, c) => {
                stack.push(a);
                stack.push(b);
                stack.push(c);
            }
        }
    }
    x
}
