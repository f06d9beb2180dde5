//! Inlining of the calls a thread makes to functions that touch shared state (other than
//! `__VERIFIER_atomic_*` functions, whose calls are one step): such a call is a sequence of
//! steps of the calling thread, with interleaving points inside, so its callee's CFA is copied
//! into the thread's (main's or a thread function's), its locals becoming locals of the thread
//! (`callee.x`). Only the call shapes whose evaluation order the copy keeps are inlined: a call
//! statement `f(args);`, `v = f(args);` and `T v = f(args);` (with the conversion of the
//! value); the arguments are evaluated into the parameters first, then the body runs, then the
//! returned value is stored. Any other call of such a function stays a call, and the caller
//! (`threads::analyze`) rejects it.
//!
//! Must not: inline a recursive chain (unsupported), or change what a thread executes: the
//! copy runs the same operations in the same order.

use super::product::renamed;
use super::touches_globals;
use crate::frontend::c::ast::Span;
use crate::frontend::c::cfa::{self, Edge, LocId, LocKind, Location, Op};
use crate::frontend::c::error::CError;
use crate::frontend::c::ir::{Dim, IExpr, IExprKind, VarInfo, VarRef};
use crate::frontend::c::program::Program;

/// At most this many locations in a thread's CFA after inlining (chains of functions that
/// each call the next twice would grow exponentially).
const MAX_LOCATIONS: usize = 100_000;

/// How a call's value is used.
#[derive(Clone, Debug)]
enum Use {
    /// `f(args);`
    Ignored,
    /// `v = f(args);` (the expression around the call: the call is replaced by the value).
    Assign(VarRef, IExpr),
    /// `T v = f(args);`
    Init(VarRef, IExpr),
}

/// Inlines, in the CFAs of `roots` (the functions threads run), every call of a shared
/// non-atomic function in a supported shape (see the module documentation).
pub(super) fn inline_calls(p: &mut Program, roots: &[usize]) -> Result<(), CError> {
    let touches = touches_globals(p);
    for &f in roots {
        let needs = p.functions[f]
            .cfa
            .edges
            .iter()
            .any(|e| shape(p, &touches, &e.op).is_some());
        if !needs {
            continue;
        }
        let mut b = Inliner {
            p,
            touches: &touches,
            locs: vec![],
            edges: vec![],
            locals: p.functions[f].locals.clone(),
            error: LocId(0),
        };
        let cfa = &p.functions[f].cfa;
        let map: Vec<LocId> = cfa.locs.iter().map(|l| b.loc(l.kind, l.span)).collect();
        b.error = map[cfa.error.0 as usize];
        let mut stack = vec![f];
        b.copy_edges(f, 0, &map, None, &mut stack)?;
        let (entry, exit, error) = (map[cfa.entry.0 as usize], map[cfa.exit.0 as usize], b.error);
        let new = cfa::prune(b.locs, b.edges, entry, exit, error);
        let locals = b.locals;
        let g = &mut p.functions[f];
        g.cfa = new;
        g.locals = locals;
    }
    Ok(())
}

/// The call an operation makes to a shared non-atomic function, in an inlinable shape.
fn shape(p: &Program, touches: &[bool], op: &Op) -> Option<(usize, Vec<IExpr>, Use)> {
    let call = |e: &IExpr| match &e.kind {
        IExprKind::Call(f, args) => Some((*f, args.clone())),
        _ => None,
    };
    // The call, possibly under one conversion.
    let under = |e: &IExpr| {
        call(e).or_else(|| match &e.kind {
            IExprKind::Convert(a) => call(a),
            _ => None,
        })
    };
    let (f, args, usage) = match op {
        Op::Expr(e) => match &e.kind {
            IExprKind::Call(f, args) => (*f, args.clone(), Use::Ignored),
            IExprKind::Assign(v, x) => {
                let (f, args) = under(x)?;
                (f, args, Use::Assign(*v, (**x).clone()))
            }
            _ => return None,
        },
        Op::Init(v, Some(x)) => {
            let (f, args) = under(x)?;
            (f, args, Use::Init(*v, x.clone()))
        }
        _ => return None,
    };
    let inlined = touches[f]
        && !p.functions[f].name.starts_with("__VERIFIER_atomic_")
        && args.len() == p.functions[f].params;
    inlined.then_some((f, args, usage))
}

/// `around` with its call (at the top or under one conversion) replaced by `value`.
fn replace_call(around: &IExpr, value: IExpr) -> IExpr {
    match &around.kind {
        IExprKind::Call(..) => value,
        IExprKind::Convert(a) if matches!(a.kind, IExprKind::Call(..)) => IExpr {
            kind: IExprKind::Convert(Box::new(value)),
            ..around.clone()
        },
        _ => around.clone(),
    }
}

struct Inliner<'a> {
    p: &'a Program,
    touches: &'a [bool],
    locs: Vec<Location>,
    edges: Vec<Edge>,
    /// The thread function's locals, the inlined callees' appended.
    locals: Vec<VarInfo>,
    error: LocId,
}

/// Where an inlined callee's returns go, and what they do with the value.
struct Return {
    to: LocId,
    usage: Use,
    span: Span,
}

impl Inliner<'_> {
    fn loc(&mut self, kind: LocKind, span: Span) -> LocId {
        // Labels index the function's own label list: a copy is a plain location.
        let kind = match kind {
            LocKind::Label(_) => LocKind::Plain,
            k => k,
        };
        self.locs.push(Location { kind, span });
        LocId(self.locs.len() as u32 - 1)
    }

    fn edge(&mut self, from: LocId, to: LocId, op: Op, span: Span) {
        self.edges.push(Edge { from, to, op, span });
    }

    /// Copies the edges of function `f` (its locals shifted by `off`) between the locations of
    /// `map`; `ret`: where the returns of an inlined callee go (`None`: the thread function's
    /// own returns stay).
    fn copy_edges(
        &mut self,
        f: usize,
        off: usize,
        map: &[LocId],
        ret: Option<&Return>,
        stack: &mut Vec<usize>,
    ) -> Result<(), CError> {
        let p = self.p;
        let cfa = &p.functions[f].cfa;
        let rename = move |v: VarRef| match v {
            VarRef::Local(i) => VarRef::Local(i + off),
            g => g,
        };
        for e in &cfa.edges {
            let from = map[e.from.0 as usize];
            let to = map[e.to.0 as usize];
            if let Some((callee, args, usage)) = shape(p, self.touches, &e.op) {
                if stack.contains(&callee) {
                    return Err(CError::unsupported(
                        e.span,
                        "recursion through functions that access shared variables in a thread",
                    ));
                }
                let args: Vec<IExpr> = args.iter().map(|a| renamed(a, &rename)).collect();
                let usage = match usage {
                    Use::Ignored => Use::Ignored,
                    Use::Assign(v, x) => Use::Assign(rename(v), renamed(&x, &rename)),
                    Use::Init(v, x) => Use::Init(rename(v), renamed(&x, &rename)),
                };
                self.inline(callee, args, usage, from, to, e.span, stack)?;
                continue;
            }
            let op = match (&e.op, ret) {
                (Op::Return(x), Some(r)) => {
                    let x = x.as_ref().map(|x| renamed(x, &rename));
                    self.returned(x, r, e.span)?
                }
                (op, _) => rename_op(op, &rename),
            };
            let to = match (&e.op, ret) {
                (Op::Return(_), Some(r)) => r.to,
                _ => to,
            };
            self.edge(from, to, op, e.span);
        }
        Ok(())
    }

    /// A copy of `callee` between `from` and `to`: parameters set from `args`, then its body.
    #[allow(clippy::too_many_arguments)]
    fn inline(
        &mut self,
        callee: usize,
        args: Vec<IExpr>,
        usage: Use,
        from: LocId,
        to: LocId,
        span: Span,
        stack: &mut Vec<usize>,
    ) -> Result<(), CError> {
        let p = self.p;
        let g = &p.functions[callee];
        if self.locs.len() + g.cfa.locs.len() > MAX_LOCATIONS {
            return Err(CError::unsupported(
                span,
                "calls from a thread inlined beyond 100000 locations",
            ));
        }
        let off = self.locals.len();
        for l in &g.locals {
            let mut info = l.clone();
            info.name = format!("{}.{}", g.name, l.name);
            for d in &mut info.dims {
                if let Dim::Var(VarRef::Local(i)) = d {
                    *i += off;
                }
            }
            self.locals.push(info);
        }
        let map: Vec<LocId> = g
            .cfa
            .locs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if LocId(i as u32) == g.cfa.error {
                    self.error
                } else {
                    let kind = match l.kind {
                        LocKind::Entry | LocKind::Exit => LocKind::Plain,
                        k => k,
                    };
                    self.loc(kind, l.span)
                }
            })
            .collect();
        // The arguments, in order, into the parameters.
        let mut at = from;
        for (i, a) in args.into_iter().enumerate() {
            let next = self.loc(LocKind::Plain, span);
            self.edge(at, next, Op::Init(VarRef::Local(off + i), Some(a)), span);
            at = next;
        }
        self.edge(at, map[g.cfa.entry.0 as usize], Op::Skip, span);
        let ret = Return { to, usage, span };
        stack.push(callee);
        let r = self.copy_edges(callee, off, &map, Some(&ret), stack);
        stack.pop();
        r
    }

    /// The operation of an inlined `return x` for the call's use of the value.
    fn returned(&self, x: Option<IExpr>, r: &Return, span: Span) -> Result<Op, CError> {
        Ok(match (&r.usage, x) {
            (Use::Ignored, Some(x)) => Op::Expr(x),
            (Use::Ignored, None) => Op::Skip,
            (Use::Assign(v, around), Some(x)) => Op::Expr(IExpr {
                kind: IExprKind::Assign(*v, Box::new(replace_call(around, x))),
                ty: self.locals_ty(*v),
                span: r.span,
            }),
            (Use::Init(v, around), Some(x)) => Op::Init(*v, Some(replace_call(around, x))),
            (_, None) => {
                return Err(CError::unsupported(
                    span,
                    "the value of a function that ends without `return`, in a thread",
                ))
            }
        })
    }

    fn locals_ty(&self, v: VarRef) -> crate::frontend::c::types::CType {
        match v {
            VarRef::Local(i) => self.locals[i].ty,
            VarRef::Global(g) => self.p.globals[g].ty,
        }
    }
}

/// An operation with its variables renamed.
fn rename_op(op: &Op, rename: &dyn Fn(VarRef) -> VarRef) -> Op {
    let r = |x: &IExpr| renamed(x, rename);
    match op {
        Op::Skip => Op::Skip,
        Op::Expr(x) => Op::Expr(r(x)),
        Op::Init(v, x) => Op::Init(rename(*v), x.as_ref().map(r)),
        Op::Assume(x, h) => Op::Assume(r(x), *h),
        Op::Return(x) => Op::Return(x.as_ref().map(r)),
        Op::Thread(t) => Op::Thread(rename_thread(t, rename)),
    }
}

fn rename_thread(
    t: &crate::frontend::c::ir::ThreadOp,
    rename: &dyn Fn(VarRef) -> VarRef,
) -> crate::frontend::c::ir::ThreadOp {
    use crate::frontend::c::ir::ThreadOp as T;
    match t {
        T::Create { handle, func } => T::Create {
            handle: rename(*handle),
            func: *func,
        },
        T::Join(h) => T::Join(rename(*h)),
        T::Lock(m) => T::Lock(rename(*m)),
        T::Exit => T::Exit,
        T::AtomicBegin => T::AtomicBegin,
        T::AtomicEnd => T::AtomicEnd,
    }
}
