//! Symbolic execution of one thread's CFA edges over terms, for the succinct automata of
//! [`super`]: a step runs from one location of the automaton to the next, through the
//! locations inside an atomic section and through calls of `__VERIFIER_atomic_*` functions
//! (whose bodies must be loop-free), and ends as a list of paths, each a guard and the value
//! of every variable afterwards over the values before (and fresh variables for the values
//! nobody determines: uninitialised declarations, nondet calls).
//!
//! Values are mathematical integers (the succinct automata's domain, as in the paper):
//! signed integer types only, no overflow; `/`, `%`, bitwise operators, arrays and pointers
//! are `unsupported` at their place.
//!
//! Must not: decide anything about the refinement, or call a solver.

use crate::frontend::c::ast::{BinOp, Span};
use crate::frontend::c::cfa::{LocId, Op};
use crate::frontend::c::error::CError;
use crate::frontend::c::ir::{IExpr, IExprKind, ThreadOp, VarRef};
use crate::frontend::c::program::Program;
use crate::term::{Sort, TermId, TermStore, VarId};

/// Most paths one step may have (atomic sections with many branches), and most edges a path
/// may run through inside an atomic section.
const MAX_PATHS: usize = 4096;
const MAX_LEN: usize = 2000;

/// A symbolic state: the path condition and the current term of each global and each local
/// of the function running.
#[derive(Clone, Debug)]
pub struct SymState {
    /// Conjuncts of the path condition.
    pub guard: Vec<TermId>,
    /// Current term of each global.
    pub globals: Vec<TermId>,
    /// Current term of each local of the running function.
    pub locals: Vec<TermId>,
    /// Variables created for undetermined values on this path.
    pub fresh: Vec<VarId>,
}

/// The executor: the program, the store, and where a step stops.
pub struct Exec<'a> {
    /// The store terms live in.
    pub store: &'a TermStore,
    /// The program.
    pub program: &'a Program,
    /// Prefix of the names of fresh variables.
    pub prefix: String,
}

/// A finished path of a step: its state and the location it reached.
pub type Reached = (LocId, SymState);

impl<'a> Exec<'a> {
    fn fresh(&self, st: &mut SymState, what: &str) -> TermId {
        let v = self
            .store
            .new_var(&format!("{}{what}", self.prefix), Sort::Int);
        st.fresh.push(v);
        self.store.var(v)
    }

    /// Runs function `f` from `from` along its CFA: through the first edge, then onwards
    /// while `inside(location)` holds (locations inside an atomic section); each path ends at
    /// the first location where `inside` is false. Thread operations other than the atomic
    /// section's begin and end are `unsupported` (they are `main`'s business).
    pub fn step(
        &self,
        f: usize,
        from: LocId,
        start: SymState,
        inside: &dyn Fn(LocId) -> bool,
    ) -> Result<Vec<Reached>, CError> {
        let cfa = &self.program.functions[f].cfa;
        let mut done = vec![];
        let mut work = vec![(from, start, 0usize)];
        while let Some((l, st, len)) = work.pop() {
            if len > 0 && !inside(l) {
                done.push((l, st));
                continue;
            }
            if len > MAX_LEN || done.len() + work.len() > MAX_PATHS {
                return Err(CError::unsupported(
                    cfa.locs[l.0 as usize].span,
                    "refine: a loop (or too many paths) inside an atomic section",
                ));
            }
            for &e in cfa.out(l) {
                let edge = cfa.edge(e);
                if edge.to == cfa.error {
                    return Err(CError::unsupported(
                        edge.span,
                        "refine: an error call or assertion in a thread",
                    ));
                }
                for next in self.op(f, &edge.op, edge.span, st.clone())? {
                    work.push((edge.to, next, len + 1));
                }
            }
        }
        Ok(done)
    }

    /// The states after one operation.
    fn op(&self, f: usize, op: &Op, span: Span, st: SymState) -> Result<Vec<SymState>, CError> {
        Ok(match op {
            Op::Skip | Op::Return(_) => vec![st],
            Op::Thread(ThreadOp::AtomicBegin | ThreadOp::AtomicEnd) => vec![st],
            Op::Thread(_) => {
                return Err(CError::unsupported(
                    span,
                    "refine: thread operations other than atomic sections in a compared thread",
                ))
            }
            Op::Expr(e) => self.eval(f, e, st)?.into_iter().map(|x| x.0).collect(),
            Op::Init(r, init) => {
                self.check_var(f, *r, span)?;
                match init {
                    Some(e) => self
                        .eval(f, e, st)?
                        .into_iter()
                        .map(|(mut s, v)| {
                            self.set(&mut s, *r, v);
                            s
                        })
                        .collect(),
                    None => {
                        let mut s = st;
                        let v = self.fresh(&mut s, "undef");
                        self.set(&mut s, *r, v);
                        vec![s]
                    }
                }
            }
            Op::Assume(c, holds) => self
                .eval(f, c, st)?
                .into_iter()
                .filter_map(|(mut s, v)| {
                    let t = self.truth(v);
                    let t = if *holds { t } else { self.store.not(t) };
                    if self.store.as_bool(t) == Some(false) {
                        return None;
                    }
                    if self.store.as_bool(t) != Some(true) {
                        s.guard.push(t);
                    }
                    Some(s)
                })
                .collect(),
        })
    }

    fn check_var(&self, f: usize, r: VarRef, span: Span) -> Result<(), CError> {
        let info = self.program.var(f, r);
        if info.is_array() {
            return Err(CError::unsupported(span, "refine: arrays"));
        }
        if !info.ty.signed {
            return Err(CError::unsupported(
                span,
                format!(
                    "refine: `{}` of an unsigned type (values are mathematical integers)",
                    info.name
                ),
            ));
        }
        Ok(())
    }

    fn get(&self, st: &SymState, r: VarRef) -> TermId {
        match r {
            VarRef::Global(i) => st.globals[i],
            VarRef::Local(i) => st.locals[i],
        }
    }

    fn set(&self, st: &mut SymState, r: VarRef, v: TermId) {
        match r {
            VarRef::Global(i) => st.globals[i] = v,
            VarRef::Local(i) => st.locals[i] = v,
        }
    }

    /// An integer term of a value (a Boolean becomes 1 or 0).
    fn int(&self, t: TermId) -> TermId {
        let s = self.store;
        if s.sort(t) == Sort::Bool {
            s.ite(t, s.int(1), s.int(0))
        } else {
            t
        }
    }

    /// A Boolean term of a value (non-zero).
    fn truth(&self, t: TermId) -> TermId {
        let s = self.store;
        if s.sort(t) == Sort::Bool {
            t
        } else {
            s.not(s.eq(t, s.int(0)))
        }
    }

    /// The states and values after evaluating `e` in function `f`.
    pub fn eval(
        &self,
        f: usize,
        e: &IExpr,
        st: SymState,
    ) -> Result<Vec<(SymState, TermId)>, CError> {
        let s = self.store;
        let un = |what: &str| Err(CError::unsupported(e.span, format!("refine: {what}")));
        Ok(match &e.kind {
            IExprKind::Const(c) => vec![(st, s.int(c.clone()))],
            IExprKind::Var(r) => {
                self.check_var(f, *r, e.span)?;
                let v = self.get(&st, *r);
                vec![(st, v)]
            }
            IExprKind::Convert(a) => {
                if !e.ty.signed && !e.ty.is_bool() {
                    return un("a conversion to an unsigned type");
                }
                let r = self.eval(f, a, st)?;
                if e.ty.is_bool() {
                    r.into_iter()
                        .map(|(st, v)| (st, self.int(self.truth(v))))
                        .collect()
                } else {
                    r
                }
            }
            IExprKind::Arith(op, a, b) => {
                let mut out = vec![];
                for (st, x) in self.eval(f, a, st)? {
                    for (st, y) in self.eval(f, b, st)? {
                        let (x, y) = (self.int(x), self.int(y));
                        let v = match op {
                            BinOp::Add => s.add([x, y]),
                            BinOp::Sub => s.sub(x, y),
                            BinOp::Mul => s.mul([x, y]),
                            _ => return un("this operator (only +, -, * on integers)"),
                        };
                        out.push((st, v));
                    }
                }
                out
            }
            IExprKind::Neg(a) => self
                .eval(f, a, st)?
                .into_iter()
                .map(|(st, v)| (st, s.neg(self.int(v))))
                .collect(),
            IExprKind::Cmp(op, a, b) => {
                let mut out = vec![];
                for (st, x) in self.eval(f, a, st)? {
                    for (st, y) in self.eval(f, b, st)? {
                        let (x, y) = (self.int(x), self.int(y));
                        let v = match op {
                            BinOp::Lt => s.lt(x, y),
                            BinOp::Le => s.le(x, y),
                            BinOp::Gt => s.gt(x, y),
                            BinOp::Ge => s.ge(x, y),
                            BinOp::Eq => s.eq(x, y),
                            _ => s.not(s.eq(x, y)),
                        };
                        out.push((st, v));
                    }
                }
                out
            }
            IExprKind::Not(a) => self
                .eval(f, a, st)?
                .into_iter()
                .map(|(st, v)| (st, s.not(self.truth(v))))
                .collect(),
            IExprKind::Logic(op, a, b) => {
                // Short-circuit: the right operand runs only when the left does not decide.
                let and = matches!(op, BinOp::And);
                let mut out = vec![];
                for (st, x) in self.eval(f, a, st)? {
                    let x = self.truth(x);
                    let mut decided = st.clone();
                    decided.guard.push(if and { s.not(x) } else { x });
                    out.push((decided, s.bool(!and)));
                    let mut go_on = st;
                    go_on.guard.push(if and { x } else { s.not(x) });
                    for (st, y) in self.eval(f, b, go_on)? {
                        out.push((st, self.truth(y)));
                    }
                }
                out.retain(|(st, _)| st.guard.last().is_none_or(|&g| s.as_bool(g) != Some(false)));
                out
            }
            IExprKind::Cond(c, a, b) => {
                let mut out = vec![];
                for (st, x) in self.eval(f, c, st)? {
                    let x = self.truth(x);
                    let mut yes = st.clone();
                    yes.guard.push(x);
                    out.extend(self.eval(f, a, yes)?);
                    let mut no = st;
                    no.guard.push(s.not(x));
                    out.extend(self.eval(f, b, no)?);
                }
                out
            }
            IExprKind::Comma(a, b) => {
                let mut out = vec![];
                for (st, _) in self.eval(f, a, st)? {
                    out.extend(self.eval(f, b, st)?);
                }
                out
            }
            IExprKind::Assign(r, a) => {
                self.check_var(f, *r, e.span)?;
                self.eval(f, a, st)?
                    .into_iter()
                    .map(|(mut st, v)| {
                        let v = self.int(v);
                        self.set(&mut st, *r, v);
                        (st, v)
                    })
                    .collect()
            }
            IExprKind::PostIncDec(r, inc) => {
                self.check_var(f, *r, e.span)?;
                let mut st = st;
                let old = self.get(&st, *r);
                let new = if *inc {
                    s.add([old, s.int(1)])
                } else {
                    s.sub(old, s.int(1))
                };
                self.set(&mut st, *r, new);
                vec![(st, old)]
            }
            IExprKind::Nondet(_) => {
                if !e.ty.signed {
                    return un("a nondet value of an unsigned type");
                }
                let mut st = st;
                let v = self.fresh(&mut st, "nondet");
                vec![(st, v)]
            }
            IExprKind::Call(g, args) => self.call(f, *g, args, e.span, st)?,
            _ => return un("this kind of expression"),
        })
    }

    /// A call of an atomic function (its body one step: every path through it).
    fn call(
        &self,
        f: usize,
        g: usize,
        args: &[IExpr],
        span: Span,
        st: SymState,
    ) -> Result<Vec<(SymState, TermId)>, CError> {
        let callee = &self.program.functions[g];
        if !callee.name.starts_with("__VERIFIER_atomic_") {
            return Err(CError::unsupported(
                span,
                format!(
                    "refine: a call of `{}` (only `__VERIFIER_atomic_*` functions)",
                    callee.name
                ),
            ));
        }
        if callee.ret.is_some() {
            return Err(CError::unsupported(
                span,
                format!(
                    "refine: a call of `{}`, which returns a value (atomic functions must be `void`)",
                    callee.name
                ),
            ));
        }
        // Arguments, left to right.
        let mut states = vec![(st, vec![])];
        for a in args {
            let mut next = vec![];
            for (st, vals) in states {
                for (st, v) in self.eval(f, a, st)? {
                    let mut vals: Vec<TermId> = vals.clone();
                    vals.push(self.int(v));
                    next.push((st, vals));
                }
            }
            states = next;
        }
        let mut out = vec![];
        for (st, vals) in states {
            let caller_locals = st.locals.clone();
            let mut inner = st;
            inner.locals = vec![];
            for i in 0..callee.locals.len() {
                let v = match vals.get(i) {
                    Some(&v) if i < callee.params => v,
                    _ => self.fresh(&mut inner, "local"),
                };
                inner.locals.push(v);
            }
            let cfa = &callee.cfa;
            let exit = cfa.exit;
            let ends = self.step(g, cfa.entry, inner, &|l| l != exit)?;
            for (_, mut st) in ends {
                st.locals = caller_locals.clone();
                // A `void` function: the call's value is never read.
                out.push((st, self.store.int(0)));
            }
        }
        Ok(out)
    }
}
