//! Farkas interpolation for conjunctions of linear literals, with a search for small solutions.
//!
//! Duty: given literal lists A and B with A ∧ B unsatisfiable, find multipliers λ ≥ 0 (solved as
//! a mixed linear satisfiability problem through [`Smt`], never Z3's own interpolation or Horn
//! engine) whose combination of A's atoms eliminates A's local variables and contradicts B; the
//! interpolant is that combination `Σ cₓ·x ⋈ t` over the shared variables. Among the
//! combinations it prefers small ones (`Σ|cₓ| + 2|t|`, minimised by bisection). Integer atoms are
//! tightened first ([`tighten`]), so that problems unsatisfiable only over ℤ are caught; if the
//! tightened problem is still rational-satisfiable the answer is `None`. Every result is checked
//! with a solver (A ⇒ I, I ∧ B unsat, vars(I) ⊆ shared) before it is returned. Must not: return
//! an unchecked interpolant. Arithmetic subterms it cannot read (`mod`, `div`, non-linear
//! products, `select`, `ite`) are read as opaque variables (`mod`/`div` by a positive constant
//! with their defining constraints `e = c·q + r`, `0 ≤ r < c`) and translated back before the
//! check; literals it still cannot read are dropped (which keeps the result sound: A only gets
//! weaker, B only weaker).

use super::linear::{
    atom_term, is_integral, lin_atom_with, linearize_with, size, tighten, LinAtom, LinExpr, Rel,
};
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{Op, Sort, Term, TermId, TermStore, Value, VarId};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// A checked interpolant.
#[derive(Clone, Debug)]
pub struct Interpolant {
    /// The formula (an atom, or `true`/`false`).
    pub term: TermId,
    /// Its linear form.
    pub atom: LinAtom,
    /// Its syntactic size ([`size`]).
    pub size: u64,
}

/// Which reused solver of an [`Interpolator`] a check runs on.
#[derive(Clone, Copy, Debug)]
pub(super) enum Slot {
    /// Single checks (implications, unsat cores).
    Scratch,
    /// Farkas multiplier problems (which call single checks while they are open).
    Lp,
}

/// Farkas interpolation with a deadline and a counter of solver checks.
pub struct Interpolator<'s> {
    pub(super) store: &'s TermStore,
    pub(super) deadline: Deadline,
    /// Satisfiability checks made so far.
    pub checks: u64,
    /// Bisection steps allowed when minimising the size.
    pub minimise_steps: u32,
    /// Most time one minimisation check may take; a check that hits it counts as "no smaller
    /// interpolant", so a hard size bound costs at most this much.
    pub minimise_cap: Option<std::time::Duration>,
    /// Most time any other check may take; a capped check counts as a failure (no interpolant),
    /// so one hard query cannot eat the whole time limit.
    pub check_cap: Option<std::time::Duration>,
    /// Arithmetic subterms the linear reader cannot read (`mod`, `div`, non-linear products,
    /// `select`, ...), each read as a fresh variable of its sort; the same term gets the same
    /// variable in A and B. Interpolants are translated back before they are checked.
    opaque: HashMap<TermId, VarId>,
    /// The inverse of `opaque`.
    opaque_back: HashMap<VarId, TermId>,
    /// Reused solvers (each check works in a pushed scope): creating a Z3 solver costs more
    /// than most checks made here. `scratch` serves single checks, `lp` the Farkas problems.
    scratch: Option<Smt<'s>>,
    lp: Option<Smt<'s>>,
}

fn vars_of(atoms: &[LinAtom]) -> BTreeSet<VarId> {
    atoms
        .iter()
        .flat_map(|a| a.expr.coeffs.keys().copied())
        .collect()
}

impl<'s> Interpolator<'s> {
    /// An interpolator over `store`'s terms.
    pub fn new(store: &'s TermStore, deadline: Deadline) -> Self {
        Interpolator {
            store,
            deadline,
            checks: 0,
            minimise_steps: 5,
            minimise_cap: Some(std::time::Duration::from_millis(300)),
            check_cap: Some(std::time::Duration::from_secs(2)),
            opaque: HashMap::new(),
            opaque_back: HashMap::new(),
            scratch: None,
            lp: None,
        }
    }

    /// Runs `f` on a reused solver (see [`Interpolator::scratch`]) in a fresh scope, with this
    /// interpolator's check cap.
    pub(super) fn with_scoped<R>(
        &mut self,
        slot: Slot,
        f: impl FnOnce(&mut Self, &mut Smt<'s>) -> R,
    ) -> R {
        let reused = self.slot(slot).take();
        let mut smt = reused.unwrap_or_else(|| self.solver());
        smt.set_check_cap(self.check_cap);
        smt.push();
        let r = f(self, &mut smt);
        smt.pop(1);
        *self.slot(slot) = Some(smt);
        r
    }

    /// A fresh solver with this interpolator's deadline and check cap.
    pub(super) fn solver(&self) -> Smt<'s> {
        let mut smt = Smt::new(self.store, self.deadline.clone());
        smt.set_check_cap(self.check_cap);
        smt
    }

    fn slot(&mut self, slot: Slot) -> &mut Option<Smt<'s>> {
        match slot {
            Slot::Scratch => &mut self.scratch,
            Slot::Lp => &mut self.lp,
        }
    }

    /// The variable standing for the opaque arithmetic term `t`.
    fn opaque_var(&mut self, t: TermId) -> VarId {
        if let Some(v) = self.opaque.get(&t) {
            return *v;
        }
        let v = self.store.new_var("opaque", self.store.sort(t));
        self.opaque.insert(t, v);
        self.opaque_back.insert(v, t);
        v
    }

    /// Replaces opaque variables by the terms they stand for.
    fn back(&self, t: TermId) -> TermId {
        if self.opaque_back.is_empty() {
            return t;
        }
        let map: HashMap<VarId, TermId> = self
            .store
            .free_vars(t)
            .into_iter()
            .filter_map(|v| self.opaque_back.get(&v).map(|u| (v, *u)))
            .collect();
        self.store.substitute(t, &map)
    }

    /// Linear atoms of the literals (opaque subterms as variables), plus the defining
    /// constraints of opaque `mod`/`div` by positive constants: `e = c·q + r`, `0 ≤ r < c`.
    fn read(&mut self, lits: &[TermId]) -> Vec<LinAtom> {
        let st = self.store;
        let mut seen: Vec<TermId> = Vec::new();
        let mut out: Vec<LinAtom> = Vec::new();
        for &l in lits {
            let mut fresh: Vec<TermId> = Vec::new();
            let a = lin_atom_with(st, l, &mut |t| {
                fresh.push(t);
                Some(self.opaque_var(t))
            });
            let Some(a) = a else { continue };
            out.push(a);
            // defining constraints of mod/div terms met (also nested ones)
            while let Some(t) = fresh.pop() {
                if seen.contains(&t) {
                    continue;
                }
                seen.push(t);
                let Term::App(op, args) = &st.get(t).term else {
                    continue;
                };
                if !matches!(op, Op::Mod | Op::IntDiv) || args.len() != 2 {
                    continue;
                }
                let Some(c) = st
                    .as_number(args[1])
                    .filter(|c| c.is_integer() && c.is_positive())
                else {
                    continue;
                };
                let Some(e) = linearize_with(st, args[0], &mut |u| {
                    fresh.push(u);
                    Some(self.opaque_var(u))
                }) else {
                    continue;
                };
                let q = self.opaque_var(st.app(Op::IntDiv, vec![args[0], args[1]]));
                let r = self.opaque_var(st.app(Op::Mod, vec![args[0], args[1]]));
                // e - c·q - r = 0
                let mut def = e.clone();
                def.add_scaled(&LinExpr::var(q), &-c.clone());
                def.add_scaled(&LinExpr::var(r), &-BigRational::one());
                out.push(LinAtom {
                    expr: def,
                    rel: Rel::Eq,
                });
                // -r ≤ 0
                out.push(LinAtom {
                    expr: LinExpr::var(r).scaled(&-BigRational::one()),
                    rel: Rel::Le,
                });
                // r - (c - 1) ≤ 0
                let mut hi = LinExpr::var(r);
                hi.constant = -(c - BigRational::one());
                out.push(LinAtom {
                    expr: hi,
                    rel: Rel::Le,
                });
            }
        }
        let mut out: Vec<LinAtom> = out
            .into_iter()
            .map(|a| {
                let int = is_integral(st, &a);
                tighten(&a, int)
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn check(&mut self, smt: &mut Smt<'_>) -> SatResult {
        self.checks += 1;
        smt.check()
    }

    /// Whether `premises ⇒ ¬extra` holds, i.e. `premises ∧ extra` is unsatisfiable.
    fn unsat_with(&mut self, premises: &[TermId], extra: TermId) -> bool {
        self.with_scoped(Slot::Scratch, |this, smt| {
            for &p in premises {
                smt.assert(p);
            }
            smt.assert(extra);
            this.check(smt) == SatResult::Unsat
        })
    }

    /// Whether `t` is an interpolant of `A = ∧a` and `B = ∧b`: over their shared variables,
    /// implied by A, inconsistent with B (checked with the solver, as every result here is).
    pub fn is_interpolant(&mut self, a: &[TermId], b: &[TermId], t: TermId) -> bool {
        let st = self.store;
        let vars = |ts: &[TermId]| -> BTreeSet<VarId> {
            ts.iter().flat_map(|&x| st.free_vars(x)).collect()
        };
        let (va, vb) = (vars(a), vars(b));
        st.free_vars(t)
            .iter()
            .all(|x| va.contains(x) && vb.contains(x))
            && self.unsat_with(a, st.not(t))
            && self.unsat_with(b, t)
    }

    /// An interpolant of `A = ∧a` and `B = ∧b` over their shared variables, or `None` when none
    /// is found (A ∧ B satisfiable over the rationals after tightening, non-linear literals,
    /// solver gave up).
    pub fn interpolate(&mut self, a: &[TermId], b: &[TermId]) -> Option<Interpolant> {
        // Posing the problem costs time of its own on large formulas (a multiplier per atom):
        // do not start after the deadline.
        if self.deadline.expired() {
            return None;
        }
        self.with_scoped(Slot::Lp, |this, smt| this.interpolate_in(smt, a, b))
    }

    /// [`Interpolator::interpolate`] with the Farkas problem posed in `smt` (a fresh scope).
    fn interpolate_in(
        &mut self,
        smt: &mut Smt<'s>,
        a: &[TermId],
        b: &[TermId],
    ) -> Option<Interpolant> {
        let st = self.store;
        let aa = self.read(a);
        let bb = self.read(b);
        let va = vars_of(&aa);
        let vb = vars_of(&bb);
        let shared: BTreeSet<VarId> = va.intersection(&vb).copied().collect();
        let integral = aa.iter().chain(&bb).all(|x| is_integral(st, x));
        let real = |r: &BigRational| st.real(r.clone());
        let zero = st.real(BigRational::zero());
        // multipliers
        let combo = |atoms: &[LinAtom], tag: &str, smt: &mut Smt<'_>| {
            let mut sums: BTreeMap<VarId, Vec<TermId>> = BTreeMap::new();
            let (mut konst, mut strict) = (Vec::new(), Vec::new());
            for at in atoms {
                let l = st.var(st.new_var(tag, Sort::Real));
                if at.rel != Rel::Eq {
                    smt.assert(st.ge(l, zero));
                }
                if at.rel == Rel::Lt {
                    strict.push(l);
                }
                for (v, c) in &at.expr.coeffs {
                    sums.entry(*v).or_default().push(st.mul([real(c), l]));
                }
                konst.push(st.mul([real(&at.expr.constant), l]));
            }
            let sum = |xs: Vec<TermId>| if xs.is_empty() { zero } else { st.add(xs) };
            let sums: BTreeMap<VarId, TermId> =
                sums.into_iter().map(|(v, xs)| (v, sum(xs))).collect();
            (sums, sum(konst), sum(strict))
        };
        let (sa, ka, stricta) = combo(&aa, "lambda", smt);
        let (sb, kb, strictb) = combo(&bb, "mu", smt);
        let mut coef: BTreeMap<VarId, TermId> = BTreeMap::new();
        let mut abs_parts = Vec::new();
        for &x in &shared {
            let c = st.var(st.new_var("c", Sort::Int));
            coef.insert(x, c);
            smt.assert(st.eq(sa[&x], st.app(crate::term::Op::ToReal, vec![c])));
            smt.assert(st.eq(sb[&x], st.neg(st.app(crate::term::Op::ToReal, vec![c]))));
            let m = st.var(st.new_var("absc", Sort::Int));
            smt.assert(st.ge(m, c));
            smt.assert(st.ge(m, st.neg(c)));
            abs_parts.push(m);
        }
        for (_, s) in sa.iter().filter(|(x, _)| !shared.contains(x)) {
            smt.assert(st.eq(*s, zero));
        }
        for (_, s) in sb.iter().filter(|(x, _)| !shared.contains(x)) {
            smt.assert(st.eq(*s, zero));
        }
        let tsort = if integral { Sort::Int } else { Sort::Real };
        let tv = st.new_var("t", tsort.clone());
        let t = if integral {
            st.app(crate::term::Op::ToReal, vec![st.var(tv)])
        } else {
            st.var(tv)
        };
        let sv = st.new_var("strict", Sort::Bool);
        let s = st.var(sv);
        let neg_ka = st.neg(ka);
        let pos_sa = st.gt(stricta, zero);
        let pos_sb = st.gt(strictb, zero);
        let nonstrict_ok = st.and([
            st.ge(t, neg_ka),
            st.or([st.lt(t, kb), st.and([st.le(t, kb), pos_sb])]),
        ]);
        let strict_ok = st.and([
            st.or([st.gt(t, neg_ka), st.and([st.ge(t, neg_ka), pos_sa])]),
            st.le(t, kb),
        ]);
        smt.assert(st.ite(s, strict_ok, nonstrict_ok));
        let at = st.var(st.new_var("abst", tsort.clone()));
        smt.assert(st.ge(at, st.var(tv)));
        smt.assert(st.ge(at, st.neg(st.var(tv))));
        let two = st.numeral(2, &tsort);
        let total_int = if integral {
            abs_parts.push(st.mul([two, at]));
            st.add(abs_parts)
        } else {
            let mut parts: Vec<TermId> = abs_parts
                .iter()
                .map(|&m| st.app(crate::term::Op::ToReal, vec![m]))
                .collect();
            parts.push(st.mul([two, at]));
            st.add(parts)
        };
        if self.check(smt) != SatResult::Sat {
            return None;
        }
        let read_model = |smt: &mut Smt<'_>| -> Option<(LinAtom, BigRational)> {
            let mut expr = LinExpr::default();
            for (x, c) in &coef {
                let v = smt.value(st.as_var(*c)?)?.as_rational()?;
                if !v.is_zero() {
                    expr.coeffs.insert(*x, v);
                }
            }
            let tval = smt.value(tv)?.as_rational()?;
            expr.constant = -tval;
            let strict = smt.value(sv)? == Value::Bool(true);
            let atom = LinAtom {
                expr,
                rel: if strict { Rel::Lt } else { Rel::Le },
            };
            let tot = smt.values(st.free_vars(total_int))?;
            let env = tot.into_iter().collect();
            let total = st.eval(total_int, &env).ok()?.as_rational()?;
            Some((atom, total))
        };
        let (mut best, best_total) = read_model(smt)?;
        smt.set_check_cap(self.minimise_cap);
        // bisection on the size bound
        let (mut lo, mut hi) = (BigRational::zero(), best_total);
        // small interpolants are the common case: probe a small bound first
        let probe = BigRational::from_integer(8.into());
        for step in 0..self.minimise_steps {
            if lo >= hi || self.deadline.expired() {
                break;
            }
            let mut mid = ((&lo + &hi) / BigRational::from_integer(2.into())).floor();
            if step == 0 && probe < mid {
                mid = probe.clone();
            }
            smt.push();
            let bound = if integral {
                st.int(mid.to_integer())
            } else {
                st.real(mid.clone())
            };
            smt.assert(st.le(total_int, bound));
            match self.check(smt) {
                SatResult::Sat => {
                    if let Some((a, tot)) = read_model(smt) {
                        best = a;
                        hi = tot;
                    }
                }
                _ => lo = mid + BigRational::one(),
            }
            smt.pop(1);
        }
        let mut atom = if integral { tighten(&best, true) } else { best };
        // an equality is stronger and costs nothing more
        if atom.rel == Rel::Le && !atom.expr.is_constant() {
            let eq = LinAtom {
                expr: atom.expr.clone(),
                rel: Rel::Eq,
            };
            let below = LinAtom {
                expr: atom.expr.clone(),
                rel: Rel::Lt,
            };
            if self.unsat_with(a, self.back(atom_term(st, &below))) {
                atom = eq;
            }
        }
        let term = self.back(atom_term(st, &atom));
        // check: vars ⊆ shared (of the formulas), A ⇒ I, I ∧ B unsat
        let fv = |ts: &[TermId]| -> BTreeSet<VarId> {
            ts.iter().flat_map(|&x| st.free_vars(x)).collect()
        };
        let (fa, fb) = (fv(a), fv(b));
        if !st
            .free_vars(term)
            .iter()
            .all(|x| fa.contains(x) && fb.contains(x))
        {
            return None;
        }
        if !self.unsat_with(a, st.not(term)) || !self.unsat_with(b, term) {
            return None;
        }
        let sz = size(&atom);
        Some(Interpolant {
            term,
            atom,
            size: sz,
        })
    }
}
