//! Expressions of the large-block encoding: the terms of C's integer operations under the
//! encoding of the module header (signed results assumed within range, since an execution
//! ends at undefined behaviour; wrap-around of unsigned arithmetic and conversions by fresh
//! range-constrained variables, C division, shifts by powers of two, bitwise operations exact on
//! masks and constants and otherwise over-approximated).
//!
//! Must not: emit clauses or handle statements.

use super::state::{EventKind, State, Val};
use super::Encoder;
use crate::chc::Atom;
use crate::frontend::c::ast::BinOp;
use crate::frontend::c::ir::{IExpr, IExprKind, VarRef};
use crate::frontend::c::types::CType;
use crate::term::{Op, TermId};
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive};

/// Whether evaluating `e` has no effect and makes no call (so both operands of `&&` may be
/// evaluated unconditionally).
pub fn pure(e: &IExpr) -> bool {
    match &e.kind {
        IExprKind::Const(_) | IExprKind::Var(_) => true,
        IExprKind::Arith(_, a, b) | IExprKind::Cmp(_, a, b) | IExprKind::Logic(_, a, b) => {
            pure(a) && pure(b)
        }
        IExprKind::Comma(a, b) => pure(a) && pure(b),
        IExprKind::Not(a) | IExprKind::Neg(a) | IExprKind::BitNot(a) | IExprKind::Convert(a) => {
            pure(a)
        }
        IExprKind::Cond(c, a, b) => pure(c) && pure(a) && pure(b),
        IExprKind::Elem(_, index) => index.iter().all(pure),
        IExprKind::Current => true,
        IExprKind::SetElem { .. } | IExprKind::ArrayDecl { .. } => false,
        IExprKind::Assign(..)
        | IExprKind::PostIncDec(..)
        | IExprKind::Call(..)
        | IExprKind::Nondet(_) => false,
    }
}

impl Encoder<'_> {
    /// The integer term of a value.
    pub(super) fn int(&self, v: Val) -> TermId {
        match v {
            Val::Int(t) => t,
            Val::Bool(b) => {
                let s = self.store;
                s.ite(b, s.int(1), s.int(0))
            }
        }
    }

    /// The truth of a value (non-zero).
    pub(super) fn truth(&self, v: Val) -> TermId {
        match v {
            Val::Bool(b) => b,
            Val::Int(t) => {
                let s = self.store;
                s.not(s.eq(t, s.int(0)))
            }
        }
    }

    /// A fresh integer variable term, with its type's range assumed in `st`.
    pub(super) fn fresh_in(&mut self, name: &str, ty: CType, st: &mut State) -> TermId {
        let v = self.fresh_var(name);
        let t = self.store.var(v);
        self.range(t, ty, st);
        t
    }

    /// Assumes `min(ty) <= t <= max(ty)`.
    pub(super) fn range(&self, t: TermId, ty: CType, st: &mut State) {
        let s = self.store;
        st.assume(s, s.ge(t, s.int(ty.min())));
        st.assume(s, s.le(t, s.int(ty.max())));
    }

    /// Evaluates `e` in `st`; several results when the evaluation branches (short-circuit
    /// operators with effects, conditional expressions with effects, calls that may fail).
    pub(super) fn eval(&mut self, e: &IExpr, st: State) -> Vec<(State, Val)> {
        let s = self.store;
        match &e.kind {
            IExprKind::Const(v) => vec![(st, Val::Int(s.int(v.clone())))],
            IExprKind::Var(r) => {
                let t = st.env[self.slot(*r)];
                vec![(st, Val::Int(t))]
            }
            IExprKind::Arith(op, a, b) => self.eval2(a, b, st, |me, st, x, y| {
                let (x, y) = (me.int(x), me.int(y));
                Val::Int(me.arith(*op, e.ty, x, y, st))
            }),
            IExprKind::Cmp(op, a, b) => self.eval2(a, b, st, |me, _, x, y| {
                let (x, y) = (me.int(x), me.int(y));
                let s = me.store;
                Val::Bool(match op {
                    BinOp::Lt => s.lt(x, y),
                    BinOp::Le => s.le(x, y),
                    BinOp::Gt => s.gt(x, y),
                    BinOp::Ge => s.ge(x, y),
                    BinOp::Eq => s.eq(x, y),
                    _ => s.not(s.eq(x, y)),
                })
            }),
            IExprKind::Logic(op, a, b) if pure(b) => {
                let mut out = vec![];
                for (st, x) in self.eval(a, st) {
                    let x = self.truth(x);
                    // `b` runs only when `a` does not decide: its assumptions (no undefined
                    // behaviour) hold only then.
                    let when = if *op == BinOp::And { x } else { s.not(x) };
                    for (st, y) in self.eval_under(b, st, when) {
                        let y = self.truth(y);
                        let v = if *op == BinOp::And {
                            s.and([x, y])
                        } else {
                            s.or([x, y])
                        };
                        out.push((st, Val::Bool(v)));
                    }
                }
                out
            }
            IExprKind::Logic(op, a, b) => {
                let mut out = vec![];
                for (st, x) in self.eval(a, st) {
                    let c = self.truth(x);
                    let (mut go_on, mut done) = (st.clone(), st);
                    let (cont, short, short_val) = if *op == BinOp::And {
                        (c, s.not(c), s.ff())
                    } else {
                        (s.not(c), c, s.tt())
                    };
                    go_on.assume(s, cont);
                    done.assume(s, short);
                    out.push((done, Val::Bool(short_val)));
                    for (st2, y) in self.eval(b, go_on) {
                        let t = self.truth(y);
                        out.push((st2, Val::Bool(t)));
                    }
                }
                out
            }
            IExprKind::Not(a) => self
                .eval(a, st)
                .into_iter()
                .map(|(st, x)| {
                    let t = self.truth(x);
                    (st, Val::Bool(s.not(t)))
                })
                .collect(),
            IExprKind::Neg(a) => self.eval1(a, st, |me, st, x| {
                let x = me.int(x);
                let zero = me.store.int(0);
                Val::Int(me.arith(BinOp::Sub, e.ty, zero, x, st))
            }),
            IExprKind::BitNot(a) => self.eval1(a, st, |me, st, x| {
                let x = me.int(x);
                let s = me.store;
                let _ = st;
                // Two's complement: ~x = -x - 1; unsigned: max - x.
                Val::Int(if e.ty.signed {
                    s.sub(s.neg(x), s.int(1))
                } else {
                    s.sub(s.int(e.ty.max()), x)
                })
            }),
            IExprKind::Convert(a) => {
                let from = a.ty;
                self.eval1(a, st, |me, st, x| me.convert(x, from, e.ty, st))
            }
            IExprKind::Assign(r, a) => {
                let slot = self.slot(*r);
                self.eval1(a, st, |me, st, x| {
                    let t = me.int(x);
                    st.env[slot] = t;
                    Val::Int(t)
                })
            }
            IExprKind::PostIncDec(r, inc) => {
                let slot = self.slot(*r);
                let mut st = st;
                let old = st.env[slot];
                let pt = e.ty.promote();
                let one = s.int(1);
                let op = if *inc { BinOp::Add } else { BinOp::Sub };
                let raw = self.arith(op, pt, old, one, &mut st);
                let new = self.convert(Val::Int(raw), pt, e.ty, &mut st);
                st.env[slot] = self.int(new);
                vec![(st, Val::Int(old))]
            }
            IExprKind::Nondet(site) => {
                let mut st = st;
                let name = format!("nondet{site}");
                let v = self.fresh_var(&name);
                let t = s.var(v);
                self.range(t, e.ty, &mut st);
                st.event(s, EventKind::Nondet(*site, v));
                vec![(st, Val::Int(t))]
            }
            IExprKind::Cond(c, a, b) if pure(a) && pure(b) => {
                let mut out = vec![];
                for (st, cv) in self.eval(c, st) {
                    let ct = self.truth(cv);
                    for (st, av) in self.eval_under(a, st, ct) {
                        for (st, bv) in self.eval_under(b, st, s.not(ct)) {
                            let t = s.ite(ct, self.int(av), self.int(bv));
                            out.push((st, Val::Int(t)));
                        }
                    }
                }
                out
            }
            IExprKind::Cond(c, a, b) => {
                let mut out = vec![];
                for (st, cv) in self.eval(c, st) {
                    let ct = self.truth(cv);
                    let (mut st_a, mut st_b) = (st.clone(), st);
                    st_a.assume(s, ct);
                    st_b.assume(s, s.not(ct));
                    out.extend(self.eval(a, st_a));
                    out.extend(self.eval(b, st_b));
                }
                out
            }
            IExprKind::Elem(var, index) => self.eval_elem(*var, index, e.ty, st),
            IExprKind::SetElem {
                var,
                index,
                value,
                post,
            } => self.eval_set_elem(*var, index, value, *post, st),
            IExprKind::Current => self.eval_current(st),
            IExprKind::ArrayDecl { var, elems, fill } => {
                self.eval_array_decl(*var, elems, *fill, st)
            }
            IExprKind::Comma(a, b) => {
                let mut out = vec![];
                for (st, _) in self.eval(a, st) {
                    out.extend(self.eval(b, st));
                }
                out
            }
            IExprKind::Call(f, args) => {
                let mut partial: Vec<(State, Vec<TermId>)> = vec![(st, vec![])];
                for a in args {
                    let mut next = vec![];
                    for (st, vals) in partial {
                        for (st, v) in self.eval(a, st) {
                            let mut vals = vals.clone();
                            vals.push(self.int(v));
                            next.push((st, vals));
                        }
                    }
                    partial = next;
                }
                partial
                    .into_iter()
                    .map(|(st, vals)| self.call(*f, vals, st))
                    .collect()
            }
        }
    }

    /// Evaluates the pure `e` (see [`pure`]) unconditionally although it only runs when
    /// `when` holds: the assumptions its evaluation adds (that no undefined behaviour happens)
    /// become `when → assumptions`, so they do not cut the executions where it does not run.
    fn eval_under(&mut self, e: &IExpr, st: State, when: TermId) -> Vec<(State, Val)> {
        let s = self.store;
        let before = st.guard.len();
        self.eval(e, st)
            .into_iter()
            .map(|(mut st, v)| {
                let added: Vec<TermId> = st.guard.drain(before..).collect();
                if !added.is_empty() {
                    st.assume(s, s.implies(when, s.and(added)));
                }
                (st, v)
            })
            .collect()
    }

    fn eval1(
        &mut self,
        a: &IExpr,
        st: State,
        mut f: impl FnMut(&mut Self, &mut State, Val) -> Val,
    ) -> Vec<(State, Val)> {
        let mut out = vec![];
        for (mut st, x) in self.eval(a, st) {
            let v = f(self, &mut st, x);
            out.push((st, v));
        }
        out
    }

    fn eval_pair(&mut self, a: &IExpr, b: &IExpr, st: State) -> Vec<(State, Val, Val)> {
        let mut out = vec![];
        for (st, x) in self.eval(a, st) {
            for (st, y) in self.eval(b, st) {
                out.push((st, x, y));
            }
        }
        out
    }

    fn eval2(
        &mut self,
        a: &IExpr,
        b: &IExpr,
        st: State,
        mut f: impl FnMut(&mut Self, &mut State, Val, Val) -> Val,
    ) -> Vec<(State, Val)> {
        self.eval_pair(a, b, st)
            .into_iter()
            .map(|(mut st, x, y)| {
                let v = f(self, &mut st, x, y);
                (st, v)
            })
            .collect()
    }

    /// A call of a defined function: the summary atom (and, if the callee may fail, a failing
    /// state sent to the error outcome of the current function).
    fn call(&mut self, f: usize, args: Vec<TermId>, mut st: State) -> (State, Val) {
        let s = self.store;
        let ng = self.program.globals.len();
        let globals: Vec<TermId> = (0..ng).map(|g| st.env[self.global_slot(g)]).collect();
        let inputs: Vec<TermId> = args.iter().chain(globals.iter()).copied().collect();
        let fun = &self.program.functions[f];
        let ret_ty = fun.ret;
        if let Some(err) = self.err_preds[f] {
            let mut est = st.clone();
            let atom_args: Vec<_> = inputs.iter().map(|&t| self.atom_arg(t, &mut est)).collect();
            est.event(s, EventKind::Call(est.atoms.len()));
            est.atoms.push(Atom {
                pred: err,
                args: atom_args,
            });
            self.errors.push(est);
        }
        if !self.may_return[f] {
            // No execution goes on after the call: the state ends here.
            st.assume(s, s.ff());
            return (st, Val::Int(s.int(0)));
        }
        let mut atom_args: Vec<_> = inputs.iter().map(|&t| self.atom_arg(t, &mut st)).collect();
        let ret = ret_ty.map(|t| {
            let v = self.fresh_var("ret");
            self.range(s.var(v), t, &mut st);
            v
        });
        atom_args.extend(ret);
        let mut new_globals = vec![];
        for g in 0..ng {
            let info = &self.program.globals[g];
            let v = self.fresh_sorted(&info.name.clone(), super::array::sort_of(info));
            if !info.is_array() && !self.extra.unbounded.contains(&VarRef::Global(g)) {
                self.range(s.var(v), self.program.globals[g].ty, &mut st);
            }
            new_globals.push(v);
        }
        atom_args.extend(new_globals.iter().copied());
        st.event(s, EventKind::Call(st.atoms.len()));
        st.atoms.push(Atom {
            pred: self.sum_preds[f],
            args: atom_args,
        });
        for (g, v) in new_globals.into_iter().enumerate() {
            let slot = self.global_slot(g);
            st.env[slot] = s.var(v);
        }
        let val = match ret {
            Some(v) => s.var(v),
            None => s.int(0),
        };
        (st, Val::Int(val))
    }

    /// A fresh atom argument equal to `t`.
    fn atom_arg(&mut self, t: TermId, st: &mut State) -> crate::term::VarId {
        let v = self.fresh_sorted("arg", self.store.sort(t));
        st.assume(self.store, self.store.eq(self.store.var(v), t));
        v
    }

    /// Conversion of a value of type `from` to type `to`.
    pub(super) fn convert(&mut self, x: Val, from: CType, to: CType, st: &mut State) -> Val {
        if to.is_bool() {
            return Val::Bool(self.truth(x));
        }
        if from.fits_in(&to) {
            return x;
        }
        let t = self.int(x);
        self.wrap(t, to, st)
    }

    /// `t` reduced modulo `2^bits` into the range of `ty`: exact, by a fresh variable
    /// `r = t - 2^bits * k` within the range.
    fn wrap(&mut self, t: TermId, ty: CType, st: &mut State) -> Val {
        let s = self.store;
        if let Some(n) = s.as_number(t) {
            return Val::Int(s.int(ty.convert(&n.to_integer())));
        }
        let r = self.fresh_in("wrap", ty, st);
        let k = s.var(self.fresh_var("k"));
        st.assume(s, s.eq(r, s.sub(t, s.mul([s.int(ty.modulus()), k]))));
        Val::Int(r)
    }

    /// `t` (the exact result of adding or subtracting two values of the unsigned type `ty`)
    /// wrapped into the range: at most one modulus away, so a disjunction of two cases.
    fn wrap_once(&mut self, t: TermId, ty: CType, st: &mut State) -> TermId {
        let s = self.store;
        if let Some(n) = s.as_number(t) {
            return s.int(ty.convert(&n.to_integer()));
        }
        let v = self.fresh_var("wrap");
        let r = s.var(v);
        let m = s.int(ty.modulus());
        let inside = s.and([s.ge(t, s.int(0)), s.le(t, s.int(ty.max())), s.eq(r, t)]);
        let above = s.and([s.gt(t, s.int(ty.max())), s.eq(r, s.sub(t, m))]);
        let below = s.and([s.lt(t, s.int(0)), s.eq(r, s.add([t, m]))]);
        st.assume(s, s.or([inside, above, below]));
        r
    }

    /// An arithmetic, bitwise or shift operation in type `ty` on operands of that type.
    pub(super) fn arith(
        &mut self,
        op: BinOp,
        ty: CType,
        x: TermId,
        y: TermId,
        st: &mut State,
    ) -> TermId {
        let s = self.store;
        let cx = s.as_number(x).map(|n| n.to_integer());
        let cy = s.as_number(y).map(|n| n.to_integer());
        match op {
            BinOp::Add | BinOp::Sub => {
                let raw = if op == BinOp::Add {
                    s.add([x, y])
                } else {
                    s.sub(x, y)
                };
                if ty.signed {
                    let (x, y) = (bounds(&cx, ty), bounds(&cy, ty));
                    let range = if op == BinOp::Add {
                        (&x.0 + &y.0, &x.1 + &y.1)
                    } else {
                        (&x.0 - &y.1, &x.1 - &y.0)
                    };
                    self.no_overflow(raw, ty, range, st)
                } else {
                    self.wrap_once(raw, ty, st)
                }
            }
            BinOp::Mul => {
                let raw = s.mul([x, y]);
                if ty.signed {
                    let (x, y) = (bounds(&cx, ty), bounds(&cy, ty));
                    let corners = [&x.0 * &y.0, &x.0 * &y.1, &x.1 * &y.0, &x.1 * &y.1];
                    let lo = corners.iter().min().cloned().unwrap_or_default();
                    let hi = corners.iter().max().cloned().unwrap_or_default();
                    self.no_overflow(raw, ty, (lo, hi), st)
                } else {
                    let r = self.wrap(raw, ty, st);
                    self.int(r)
                }
            }
            BinOp::Div | BinOp::Rem => self.division(op, ty, x, y, cy, st),
            BinOp::Shl => match cy.as_ref().and_then(|k| k.to_u32()) {
                Some(k) if k < ty.bits => {
                    let raw = s.mul([x, s.int(BigInt::one() << k)]);
                    if ty.signed {
                        self.signed_shl(x, raw, ty, st)
                    } else {
                        let r = self.wrap(raw, ty, st);
                        self.int(r)
                    }
                }
                _ => {
                    // Shift by a variable amount: one case per amount (amounts out of range
                    // are undefined behaviour: no case, the execution ends).
                    let m = s.var(self.fresh_var("pow"));
                    let cases: Vec<TermId> = (0..ty.bits)
                        .map(|i| s.and([s.eq(y, s.int(i)), s.eq(m, s.int(BigInt::one() << i))]))
                        .collect();
                    st.assume(s, s.or(cases));
                    let raw = s.mul([x, m]);
                    if ty.signed {
                        self.signed_shl(x, raw, ty, st)
                    } else {
                        let r = self.wrap(raw, ty, st);
                        self.int(r)
                    }
                }
            },
            BinOp::Shr => match cy.as_ref().and_then(|k| k.to_u32()) {
                Some(k) if k < ty.bits => s.app(Op::IntDiv, vec![x, s.int(BigInt::one() << k)]),
                _ => {
                    let r = s.var(self.fresh_var("shr"));
                    let cases: Vec<TermId> = (0..ty.bits)
                        .map(|i| {
                            let d = s.app(Op::IntDiv, vec![x, s.int(BigInt::one() << i)]);
                            s.and([s.eq(y, s.int(i)), s.eq(r, d)])
                        })
                        .collect();
                    st.assume(s, s.or(cases));
                    r
                }
            },
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => self.bitwise(op, ty, x, y, cx, cy, st),
            _ => unreachable!("not an arithmetic operator"),
        }
    }

    /// The exact result `t` of a signed operation, whose values lie in `range` (from the
    /// operands' constants or their type's range): an execution where `t` leaves the type's
    /// range has undefined behaviour (signed overflow) and ends there, so the state assumes
    /// the bounds `t` might cross.
    fn no_overflow(&self, t: TermId, ty: CType, range: (BigInt, BigInt), st: &mut State) -> TermId {
        let s = self.store;
        if range.0 < ty.min() {
            st.assume(s, s.ge(t, s.int(ty.min())));
        }
        if range.1 > ty.max() {
            st.assume(s, s.le(t, s.int(ty.max())));
        }
        t
    }

    /// `x << k` of a signed `x`, given `raw = x * 2^k`: defined only for a non-negative `x`
    /// whose product is in range (C11 6.5.7p4); other executions end.
    fn signed_shl(&self, x: TermId, raw: TermId, ty: CType, st: &mut State) -> TermId {
        let s = self.store;
        st.assume(s, s.ge(x, s.int(0)));
        st.assume(s, s.le(raw, s.int(ty.max())));
        raw
    }
}

/// The values an operand may have: its constant, or its type's range.
fn bounds(c: &Option<BigInt>, ty: CType) -> (BigInt, BigInt) {
    match c {
        Some(c) => (c.clone(), c.clone()),
        None => (ty.min(), ty.max()),
    }
}
