//! The rely-guarantee (thread-modular) view of a [`Concurrent`] program whose `main` creates
//! threads in a loop: one sequential program that holds a copy of each thread *template*
//! (`main`, and each function a creation site runs), so that the large-block encoding gives
//! each template's interleaving points a predicate `Inv_T(l)` over the globals and that
//! template's locals; `encode/rely.rs` then adds the environment relation and the rely and
//! guarantee clauses (seed 004: Zhang et al., Algorithm 1, as Horn clauses; Flanagan and
//! Qadeer's thread-modular model checking).
//!
//! # The program
//!
//! `main`'s CFA becomes the disjoint union of the templates' CFAs (locals renamed apart as
//! `f_x`, each template with a ghost local `f_tid`), entered at `main`'s copy. Every
//! interleaving point of a template (and a thread's exit) is a cut point ([`Rely::cuts`]), so
//! each clause of the encoding between two cut points of a template is a step of one instance
//! of it (thread-local loops and loops inside atomic sections keep their own cut points).
//! Thread operations become ordinary operations:
//!
//! * `pthread_create(&h, 0, f, 0)`: `f_tid = any integer above 1; h = f_tid`, then a nondeterministic choice between going on in the creator and entering `f`'s
//!   copy at its entry: the clause into `f`'s entry is the creation clause (the creator's
//!   invariant implies the new thread's entry invariant, its locals as the copy declares them).
//! * `pthread_join`: no operation. A joined thread may be any of arbitrarily many instances, so
//!   the encoding does not wait for it: an over-approximation (a proof that needs the joined
//!   thread's effects fails, and the answer is `unknown`).
//! * `pthread_mutex_lock(&m)`: `[m == 0]; m = 1`; atomic sections: nothing (the points of a
//!   template are never inside one, so a section is part of one step).
//! * a return or `pthread_exit` of a thread: to its exit, a cut point without successors;
//!   `main`'s return ends its paths (returning from `main` ends the program).
//!
//! # Ghosts, and why the rely cannot release my lock
//!
//! A thread-modular proof sees other threads only through the globals, so it cannot tell that
//! a mutex (or any flag a `__VERIFIER_atomic_*` function sets) is held by *me*. The literature
//! adds thread identifiers; here each template has a ghost local `tid` (1 for `main`, any
//! unbounded integer above 1 for a created thread), and each global `g` written by a template a
//! ghost global `w_g` (0 at first), set to the writer's `tid` by every step that may write `g`.
//! The environment relation is `Env(t, g, g')` with `t` the acting instance's `tid`, and a
//! stability clause only applies steps of another instance (`t != tid`). Identifiers need not
//! be unique in the clauses: the creation clause holds for *every* choice of the new
//! identifier, so a model covers in particular the executions where the `k`-th created thread
//! has identifier `k + 1`, pairwise distinct, and the soundness argument below uses only
//! those (a counter instead would only add a variable to every predicate). "I hold `m`" is then expressible as `m == 1 && w_m == tid`, which no
//! other instance's step can falsify without contradicting its own invariant. Ghosts never
//! flow into the program's own variables, so the program's behaviour is that of the original.
//!
//! # Soundness
//!
//! Every execution is equivalent to one where each thread runs its thread-local stretches
//! right after its previous step (they commute with other threads' steps: the argument of the
//! interleaving points, module `threads`). In such an execution, with the `k`-th created
//! thread's identifier `k + 1`, every reachable configuration maps each instance of template
//! `T` at point `l` to a model of `Inv_T(l)` over the globals and its own locals, by
//! induction over the execution: a step of instance `j` is a clause of its template (its own
//! new state; at a creation also the new instance's entry state), a guarantee
//! `Env(tid_j, g, g')`, and for every other instance `i` (`tid_i != tid_j`) waiting at a
//! point the stability clause gives its new state. Instances
//! of the same template are each other's environment. `main` before its first creation runs
//! alone, so neither stability nor guarantees apply there ([`Rely::shared`]). Where a step
//! passes a cut point that is not an interleaving point (a thread-local loop, a loop inside
//! an atomic section), its global effect is split into guarantees of the parts, which the
//! rely can replay in sequence: more behaviours, never fewer.
//!
//! Must not: use terms, clauses or a solver (the clauses are `encode/rely.rs`'s), or change
//! the fixed-thread path (products).

use super::product::renamed;
use super::{before_creation, Concurrent};
use crate::frontend::c::ast::{BinOp, Span};
use crate::frontend::c::cfa::{self, Edge, LocId, LocKind, Location, Op};
use crate::frontend::c::ir::{IExpr, IExprKind, NondetSite, ThreadOp, VarInfo, VarRef};
use crate::frontend::c::program::Program;
use crate::frontend::c::types::CType;
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// One thread template of the rely-guarantee program.
#[derive(Clone, Debug)]
pub struct Template {
    /// The function it runs.
    pub func: usize,
    /// The rely program's local of its first local.
    pub offset: usize,
    /// Its ghost thread identifier (a local of the rely program).
    pub tid: VarRef,
}

/// The rely-guarantee program of a concurrent program (see the module documentation).
#[derive(Clone, Debug)]
pub struct Rely {
    /// The sequential program: `main` holds every template's copy.
    pub program: Program,
    /// The templates: 0 is `main`.
    pub templates: Vec<Template>,
    /// The cut points the encoding must add to the rely program's `main`.
    pub cuts: Vec<LocId>,
    /// Per location of the rely program's `main`: the template it belongs to (`None` for the
    /// entry, the exit and the error).
    pub owner: Vec<Option<usize>>,
    /// Per location: whether other threads may run there (every location of a thread, and
    /// `main`'s after its first creation).
    pub shared: Vec<bool>,
    /// Per location: whether it is an interleaving point (other threads' steps happen
    /// there: the stability clauses).
    pub point: Vec<bool>,
    /// The number of the concurrent program's own globals (the ghosts follow).
    pub own_globals: usize,
    /// The ghost globals and locals, whose declarations without initialiser give any integer.
    pub ghosts: Vec<VarRef>,
    /// A creation site in a loop of `main` (where the environment relation is reported).
    pub created_in_loop: Span,
}

/// Builds the rely-guarantee program of `c`, with the last-writer ghosts if `writers` (else
/// only the thread identifiers).
pub fn rely(c: &Concurrent, writers: bool) -> Rely {
    let mut p = c.program.clone();
    let main = p.main;
    let span = p.functions[main].span;
    // Templates: main, then each thread function once.
    let mut funcs = vec![main];
    for t in &c.threads[1..] {
        if !funcs.contains(&t.func) {
            funcs.push(t.func);
        }
    }
    let mut locals = p.functions[main].locals.clone();
    let mut templates = vec![];
    for (k, &f) in funcs.iter().enumerate() {
        let offset = if k == 0 { 0 } else { locals.len() };
        if k > 0 {
            let name = p.functions[f].name.clone();
            for l in &p.functions[f].locals {
                let mut info = l.clone();
                info.name = format!("{name}_{}", l.name);
                for d in &mut info.dims {
                    if let crate::frontend::c::ir::Dim::Var(VarRef::Local(i)) = d {
                        *i += offset;
                    }
                }
                locals.push(info);
            }
        }
        templates.push(Template {
            func: f,
            offset,
            tid: VarRef::Local(0), // set below
        });
    }
    for t in &mut templates {
        locals.push(VarInfo {
            name: format!("{}_tid", p.functions[t.func].name),
            ty: CType::INT,
            span,
            dims: vec![],
        });
        t.tid = VarRef::Local(locals.len() - 1);
    }
    // Ghost globals: a last writer per global some template writes.
    let own_globals = p.globals.len();
    let writes = writes_per_function(&p);
    let mut written = BTreeSet::new();
    for &f in funcs.iter().filter(|_| writers) {
        for e in &p.functions[f].cfa.edges {
            written.extend(op_writes(&e.op, &writes));
        }
    }
    let add_global = |p: &mut Program, name: String, init: i64| {
        p.globals.push(VarInfo {
            name,
            ty: CType::INT,
            span,
            dims: vec![],
        });
        p.global_init.push(BigInt::from(init));
        p.global_elems.push(vec![]);
        VarRef::Global(p.globals.len() - 1)
    };
    let mut writer = vec![None; own_globals];
    for &g in &written {
        let name = format!("__writer_{}", p.globals[g].name);
        writer[g] = Some(add_global(&mut p, name, 0));
    }
    p.nondet_sites.push(NondetSite {
        ty: CType::INT,
        span,
    });
    let choice_site = p.nondet_sites.len() - 1;
    let mut ghosts: Vec<VarRef> = vec![];
    ghosts.extend(writer.iter().flatten().copied());
    ghosts.extend(templates.iter().map(|t| t.tid));
    let types: Vec<CType> = locals.iter().map(|l| l.ty).collect();
    let gtypes: Vec<CType> = p.globals.iter().map(|g| g.ty).collect();
    let mut b = Build {
        locs: vec![],
        edges: vec![],
        owner: vec![],
        shared: vec![],
        point: vec![],
        cut: vec![],
        types,
        gtypes,
    };
    let (entry, exit, error) = (
        b.loc(LocKind::Entry, span, None),
        b.loc(LocKind::Exit, span, None),
        b.loc(LocKind::Error, span, None),
    );
    // Copies of every template's locations.
    let mut copies: Vec<Vec<LocId>> = vec![];
    for (k, t) in templates.iter().enumerate() {
        let cfa = &p.functions[t.func].cfa;
        let alone = if k == 0 {
            before_creation(cfa)
        } else {
            vec![false; cfa.locs.len()]
        };
        let copy: Vec<LocId> = cfa
            .locs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let id = LocId(i as u32);
                if id == cfa.error {
                    return error;
                }
                let kind = match l.kind {
                    LocKind::Abort => LocKind::Abort,
                    LocKind::Exit if k == 0 => LocKind::Abort,
                    LocKind::LoopHead => LocKind::LoopHead,
                    _ => LocKind::Plain,
                };
                let at = b.loc(kind, l.span, Some(k));
                let is_point = c.is_point(t.func, id) && !alone[i];
                let i2 = at.0 as usize;
                b.shared[i2] = !alone[i];
                b.point[i2] = is_point;
                b.cut[i2] = c.is_point(t.func, id) || (k > 0 && id == cfa.exit);
                at
            })
            .collect();
        copies.push(copy);
    }
    let main_tid = templates[0].tid;
    let first = copies[0][p.functions[main].cfa.entry.0 as usize];
    let set_tid = b.assign(main_tid, b.konst(1, CType::INT, span), span);
    b.edge(entry, first, set_tid, span);
    for (k, t) in templates.iter().enumerate() {
        let cfa = &p.functions[t.func].cfa;
        let off = t.offset;
        let rename = move |v: VarRef| match v {
            VarRef::Local(i) => VarRef::Local(i + off),
            g => g,
        };
        let copy = &copies[k];
        for e in &cfa.edges {
            let from = copy[e.from.0 as usize];
            let to = copy[e.to.0 as usize];
            let span = e.span;
            let ops: Vec<Op> = match &e.op {
                Op::Skip => vec![],
                Op::Expr(x) => vec![Op::Expr(renamed(x, &rename))],
                Op::Init(v, x) => vec![Op::Init(
                    rename(*v),
                    x.as_ref().map(|x| renamed(x, &rename)),
                )],
                Op::Assume(x, holds) => vec![Op::Assume(renamed(x, &rename), *holds)],
                Op::Return(Some(x)) => vec![Op::Expr(renamed(x, &rename))],
                Op::Return(None) => vec![],
                Op::Thread(ThreadOp::Create { handle, func }) => {
                    let Some(j) = templates.iter().position(|t| t.func == *func) else {
                        continue;
                    };
                    let child = templates[j].tid;
                    let ops = vec![
                        Op::Init(child, None),
                        Op::Assume(b.cmp_const(BinOp::Gt, child, 1, span), true),
                        b.assign(rename(*handle), b.var(child, span), span),
                    ];
                    let ops = b.with_writers(ops, &writes, &writer, t.tid, span);
                    let fork = b.loc(LocKind::Plain, span, Some(k));
                    b.chain(from, fork, ops, span);
                    let entry = copies[j][p.functions[*func].cfa.entry.0 as usize];
                    let pick = IExpr {
                        kind: IExprKind::Nondet(choice_site),
                        ty: CType::INT,
                        span,
                    };
                    b.edge(fork, to, Op::Assume(pick.clone(), true), span);
                    b.edge(fork, entry, Op::Assume(pick, false), span);
                    continue;
                }
                Op::Thread(ThreadOp::Join(_))
                | Op::Thread(ThreadOp::AtomicBegin)
                | Op::Thread(ThreadOp::AtomicEnd) => vec![],
                Op::Thread(ThreadOp::Exit) => {
                    let end = copy[cfa.exit.0 as usize];
                    b.edge(from, end, Op::Skip, span);
                    continue;
                }
                Op::Thread(ThreadOp::Lock(m)) => vec![
                    Op::Assume(b.cmp_const(BinOp::Eq, *m, 0, span), true),
                    b.assign(*m, b.konst(1, b.ty(*m), span), span),
                ],
            };
            let ops = b.with_writers(ops, &writes, &writer, t.tid, span);
            b.chain(from, to, ops, span);
        }
    }
    let (cfa, ids) = cfa::prune_mapped(b.locs, b.edges, entry, exit, error);
    let mut owner = vec![None; cfa.locs.len()];
    let mut shared = vec![false; cfa.locs.len()];
    let mut point = vec![false; cfa.locs.len()];
    let mut cuts = vec![];
    for (old, new) in ids.iter().enumerate() {
        if let Some(new) = *new {
            let i = new.0 as usize;
            owner[i] = b.owner[old];
            shared[i] = b.shared[old];
            point[i] = b.point[old];
            if b.cut[old] {
                cuts.push(new);
            }
        }
    }
    let f = &mut p.functions[main];
    f.locals = locals;
    f.cfa = cfa;
    // Thread functions run only as copies in main.
    for t in &templates[1..] {
        let g = &mut p.functions[t.func];
        g.cfa = super::product::trivial(g.span);
    }
    Rely {
        program: p,
        templates,
        cuts,
        owner,
        shared,
        point,
        own_globals,
        ghosts,
        created_in_loop: c.unbounded.unwrap_or(span),
    }
}

/// The CFA under construction.
struct Build {
    locs: Vec<Location>,
    edges: Vec<Edge>,
    owner: Vec<Option<usize>>,
    shared: Vec<bool>,
    point: Vec<bool>,
    cut: Vec<bool>,
    types: Vec<CType>,
    gtypes: Vec<CType>,
}

impl Build {
    fn loc(&mut self, kind: LocKind, span: Span, owner: Option<usize>) -> LocId {
        self.locs.push(Location { kind, span });
        self.owner.push(owner);
        self.shared.push(owner.is_some());
        self.point.push(false);
        self.cut.push(false);
        LocId(self.locs.len() as u32 - 1)
    }

    fn edge(&mut self, from: LocId, to: LocId, op: Op, span: Span) {
        self.edges.push(Edge { from, to, op, span });
    }

    /// A chain of operations from `from` to `to` (a skip if there are none).
    fn chain(&mut self, from: LocId, to: LocId, ops: Vec<Op>, span: Span) {
        let owner = self.owner[from.0 as usize];
        let shared = self.shared[from.0 as usize];
        let n = ops.len();
        let mut at = from;
        for (i, op) in ops.into_iter().enumerate() {
            let next = if i + 1 == n {
                to
            } else {
                let l = self.loc(LocKind::Plain, span, owner);
                self.shared[l.0 as usize] = shared;
                l
            };
            self.edge(at, next, op, span);
            at = next;
        }
        if n == 0 {
            self.edge(from, to, Op::Skip, span);
        }
    }

    fn ty(&self, v: VarRef) -> CType {
        match v {
            VarRef::Global(g) => self.gtypes[g],
            VarRef::Local(l) => self.types[l],
        }
    }

    fn var(&self, v: VarRef, span: Span) -> IExpr {
        IExpr {
            kind: IExprKind::Var(v),
            ty: self.ty(v),
            span,
        }
    }

    fn konst(&self, n: i64, ty: CType, span: Span) -> IExpr {
        IExpr {
            kind: IExprKind::Const(n.into()),
            ty,
            span,
        }
    }

    fn assign(&self, v: VarRef, x: IExpr, span: Span) -> Op {
        let ty = self.ty(v);
        let x = if x.ty == ty {
            x
        } else {
            IExpr {
                kind: IExprKind::Convert(Box::new(x)),
                ty,
                span,
            }
        };
        Op::Expr(IExpr {
            kind: IExprKind::Assign(v, Box::new(x)),
            ty,
            span,
        })
    }

    fn cmp_const(&self, op: BinOp, a: VarRef, n: i64, span: Span) -> IExpr {
        let ty = self.ty(a);
        IExpr {
            kind: IExprKind::Cmp(
                op,
                Box::new(self.var(a, span)),
                Box::new(self.konst(n, ty, span)),
            ),
            ty: CType::INT,
            span,
        }
    }

    /// `ops`, then `w_g = tid` for every global `g` they may write.
    fn with_writers(
        &self,
        mut ops: Vec<Op>,
        writes: &[BTreeSet<usize>],
        writer: &[Option<VarRef>],
        tid: VarRef,
        span: Span,
    ) -> Vec<Op> {
        let mut gs = BTreeSet::new();
        for op in &ops {
            gs.extend(op_writes(op, writes));
        }
        for g in gs {
            if let Some(w) = writer.get(g).copied().flatten() {
                ops.push(self.assign(w, self.var(tid, span), span));
            }
        }
        ops
    }
}

/// The globals an operation may write (directly, or in a function it calls).
fn op_writes(op: &Op, writes: &[BTreeSet<usize>]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    let xs: Vec<&IExpr> = match op {
        Op::Expr(x) | Op::Assume(x, _) | Op::Init(_, Some(x)) | Op::Return(Some(x)) => vec![x],
        _ => vec![],
    };
    match op {
        Op::Init(VarRef::Global(g), _) | Op::Thread(ThreadOp::Lock(VarRef::Global(g))) => {
            out.insert(*g);
        }
        Op::Thread(ThreadOp::Create {
            handle: VarRef::Global(g),
            ..
        }) => {
            out.insert(*g);
        }
        _ => {}
    }
    for x in xs {
        expr_writes(x, writes, &mut out);
    }
    out
}

fn expr_writes(x: &IExpr, writes: &[BTreeSet<usize>], out: &mut BTreeSet<usize>) {
    let mut stack = vec![x];
    while let Some(e) = stack.pop() {
        match &e.kind {
            IExprKind::Assign(VarRef::Global(g), _)
            | IExprKind::PostIncDec(VarRef::Global(g), _)
            | IExprKind::SetElem {
                var: VarRef::Global(g),
                ..
            }
            | IExprKind::ArrayDecl {
                var: VarRef::Global(g),
                ..
            } => {
                out.insert(*g);
            }
            IExprKind::Call(f, _) => out.extend(writes[*f].iter().copied()),
            _ => {}
        }
        stack.extend(e.operands());
    }
}

/// Per function: the globals it (or a function it calls) may write.
fn writes_per_function(p: &Program) -> Vec<BTreeSet<usize>> {
    let mut w = vec![BTreeSet::new(); p.functions.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, f) in p.functions.iter().enumerate() {
            let mut out = BTreeSet::new();
            for e in &f.cfa.edges {
                out.extend(op_writes(&e.op, &w));
            }
            if out.len() > w[i].len() {
                w[i] = out;
                changed = true;
            }
        }
    }
    w
}
