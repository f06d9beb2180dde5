//! Linear forms over terms: `Σ cᵢ·xᵢ + c ⋈ 0` with rational coefficients and `⋈ ∈ {≤, <, =}`.
//!
//! Duty: read arithmetic literals of a [`TermStore`] as [`LinAtom`]s (a small normaliser over
//! `+`, `-`, `*` by constants, `to_real`, division by constants), tighten atoms over integer
//! variables (strict → non-strict, division by the gcd of the coefficients), and build terms back
//! from linear forms. Must not: call a solver, or accept anything non-linear (it returns `None`).

use crate::term::{Op, Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, HashMap};

/// A linear expression `Σ coeffs[x]·x + constant` (no zero coefficients are stored).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct LinExpr {
    /// Non-zero coefficients.
    pub coeffs: BTreeMap<VarId, BigRational>,
    /// The constant term.
    pub constant: BigRational,
}

/// The relation of a [`LinAtom`] to zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    /// `e ≤ 0`
    Le,
    /// `e < 0`
    Lt,
    /// `e = 0`
    Eq,
}

/// `expr ⋈ 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinAtom {
    /// The left-hand side.
    pub expr: LinExpr,
    /// The relation to zero.
    pub rel: Rel,
}

impl LinExpr {
    /// The constant `c`.
    pub fn constant(c: BigRational) -> Self {
        LinExpr {
            coeffs: BTreeMap::new(),
            constant: c,
        }
    }

    /// `1·v`.
    pub fn var(v: VarId) -> Self {
        let mut coeffs = BTreeMap::new();
        coeffs.insert(v, BigRational::one());
        LinExpr {
            coeffs,
            constant: BigRational::zero(),
        }
    }

    /// `self + k·other`.
    pub fn add_scaled(&mut self, other: &LinExpr, k: &BigRational) {
        for (v, c) in &other.coeffs {
            let e = self.coeffs.entry(*v).or_insert_with(BigRational::zero);
            *e += c * k;
            if e.is_zero() {
                self.coeffs.remove(v);
            }
        }
        self.constant += &other.constant * k;
    }

    /// `k·self`.
    pub fn scaled(&self, k: &BigRational) -> LinExpr {
        let mut out = LinExpr::default();
        out.add_scaled(self, k);
        out
    }

    /// Whether there is no variable.
    pub fn is_constant(&self) -> bool {
        self.coeffs.is_empty()
    }
}

/// Reads an arithmetic term as a linear expression, or `None` if it is not linear (or contains
/// `ite`, `div`, `mod`, arrays...).
pub fn linearize(store: &TermStore, t: TermId) -> Option<LinExpr> {
    linearize_with(store, t, &mut |_| None)
}

/// [`linearize`], reading every arithmetic subterm it cannot read (non-linear products, `div`,
/// `mod`, `select`, `ite`, ...) as the variable `opaque` gives for it (`None`: not linear).
///
/// Each shared subterm is read once: a term is a DAG, and a chain of `let`s that doubles a
/// value (`x2 = x1 + x1`, ...) would otherwise take time exponential in its length.
pub fn linearize_with(
    store: &TermStore,
    t: TermId,
    opaque: &mut dyn FnMut(TermId) -> Option<VarId>,
) -> Option<LinExpr> {
    linearize_memo(store, t, opaque, &mut HashMap::new())
}

/// [`linearize_with`] with the subterms read so far.
fn linearize_memo(
    store: &TermStore,
    t: TermId,
    opaque: &mut dyn FnMut(TermId) -> Option<VarId>,
    memo: &mut HashMap<TermId, Option<LinExpr>>,
) -> Option<LinExpr> {
    if let Some(r) = memo.get(&t) {
        return r.clone();
    }
    let mut r = linearize_inner(store, t, opaque, memo);
    if r.is_none() && store.sort(t).is_arith() {
        if let Some(v) = opaque(t) {
            r = Some(LinExpr::var(v));
        }
    }
    memo.insert(t, r.clone());
    r
}

fn linearize_inner(
    store: &TermStore,
    t: TermId,
    opaque: &mut dyn FnMut(TermId) -> Option<VarId>,
    memo: &mut HashMap<TermId, Option<LinExpr>>,
) -> Option<LinExpr> {
    let mut linearize =
        |store: &TermStore, t: TermId| linearize_memo(store, t, &mut *opaque, &mut *memo);
    let node = store.get(t);
    match &node.term {
        Term::Var(v) if node.sort.is_arith() => Some(LinExpr::var(*v)),
        Term::Int(i) => Some(LinExpr::constant(BigRational::from_integer(i.clone()))),
        Term::Real(r) => Some(LinExpr::constant(r.clone())),
        Term::App(op, args) => match op {
            Op::Add => {
                let mut out = LinExpr::default();
                for &a in args.iter() {
                    out.add_scaled(&linearize(store, a)?, &BigRational::one());
                }
                Some(out)
            }
            Op::Sub if args.len() == 2 => {
                let mut out = linearize(store, args[0])?;
                out.add_scaled(&linearize(store, args[1])?, &-BigRational::one());
                Some(out)
            }
            Op::Neg => Some(linearize(store, args[0])?.scaled(&-BigRational::one())),
            Op::ToReal => linearize(store, args[0]),
            Op::Mul => {
                let mut k = BigRational::one();
                let mut rest: Option<LinExpr> = None;
                for &a in args.iter() {
                    let l = linearize(store, a)?;
                    if l.is_constant() {
                        k *= &l.constant;
                    } else if rest.is_none() {
                        rest = Some(l);
                    } else {
                        return None;
                    }
                }
                Some(match rest {
                    Some(l) => l.scaled(&k),
                    None => LinExpr::constant(k),
                })
            }
            Op::RealDiv if args.len() == 2 => {
                let d = store.as_number(args[1])?;
                if d.is_zero() {
                    return None;
                }
                Some(linearize(store, args[0])?.scaled(&d.recip()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Reads a literal (a comparison or its negation; not a disequality) as a linear atom.
pub fn lin_atom(store: &TermStore, lit: TermId) -> Option<LinAtom> {
    lin_atom_with(store, lit, &mut |_| None)
}

/// [`lin_atom`] with opaque subterms read as variables (see [`linearize_with`]).
pub fn lin_atom_with(
    store: &TermStore,
    lit: TermId,
    opaque: &mut dyn FnMut(TermId) -> Option<VarId>,
) -> Option<LinAtom> {
    let node = store.get(lit);
    let (neg, inner) = match &node.term {
        Term::App(Op::Not, a) => (true, a[0]),
        _ => (false, lit),
    };
    let Term::App(op, args) = &store.get(inner).term else {
        return None;
    };
    if args.len() != 2 || !store.sort(args[0]).is_arith() {
        return None;
    }
    let a = linearize_with(store, args[0], opaque)?;
    let b = linearize_with(store, args[1], opaque)?;
    let diff = |x: &LinExpr, y: &LinExpr| {
        let mut d = x.clone();
        d.add_scaled(y, &-BigRational::one());
        d
    };
    let (expr, rel) = match (op, neg) {
        (Op::Le, false) | (Op::Gt, true) => (diff(&a, &b), Rel::Le),
        (Op::Lt, false) | (Op::Ge, true) => (diff(&a, &b), Rel::Lt),
        (Op::Ge, false) | (Op::Lt, true) => (diff(&b, &a), Rel::Le),
        (Op::Gt, false) | (Op::Le, true) => (diff(&b, &a), Rel::Lt),
        (Op::Eq, false) => (diff(&a, &b), Rel::Eq),
        _ => return None,
    };
    Some(LinAtom { expr, rel })
}

fn lcm_denoms(e: &LinExpr) -> BigInt {
    e.coeffs
        .values()
        .chain(std::iter::once(&e.constant))
        .fold(BigInt::one(), |acc, c| acc.lcm(c.denom()))
}

/// Whether every variable of the atom is an integer variable.
pub fn is_integral(store: &TermStore, a: &LinAtom) -> bool {
    a.expr
        .coeffs
        .keys()
        .all(|v| store.var_sort(*v) == Sort::Int)
}

/// An equivalent atom with integer coefficients; over integer variables also tightened: strict
/// becomes non-strict (`e < 0` → `e + 1 ≤ 0`) and coefficients are divided by their gcd (the
/// constant rounded accordingly). Equivalent over the integers when `integral`, over the
/// rationals otherwise.
pub fn tighten(a: &LinAtom, integral: bool) -> LinAtom {
    let m = BigRational::from_integer(lcm_denoms(&a.expr));
    let mut expr = a.expr.scaled(&m);
    let mut rel = a.rel;
    if !integral || expr.coeffs.is_empty() {
        return LinAtom { expr, rel };
    }
    if rel == Rel::Lt {
        expr.constant += BigRational::one();
        rel = Rel::Le;
    }
    let g = expr
        .coeffs
        .values()
        .fold(BigInt::zero(), |acc, c| acc.gcd(&c.to_integer()));
    if g > BigInt::one() {
        let gr = BigRational::from_integer(g);
        let c = &expr.constant / &gr;
        if rel == Rel::Eq && !c.is_integer() {
            // g·L + c = 0 has no integer solution: the atom is false.
            return LinAtom {
                expr: LinExpr::constant(BigRational::one()),
                rel: Rel::Le,
            };
        }
        for v in expr.coeffs.values_mut() {
            *v = &*v / &gr;
        }
        expr.constant = c.ceil();
    }
    LinAtom { expr, rel }
}

/// The term `Σ c·x` (sort Int when every variable is Int and every coefficient integral).
fn sum_term(store: &TermStore, e: &LinExpr, int: bool) -> TermId {
    let parts: Vec<TermId> = e
        .coeffs
        .iter()
        .map(|(v, c)| {
            let x = if int || store.var_sort(*v) == Sort::Real {
                store.var(*v)
            } else {
                store.app(Op::ToReal, vec![store.var(*v)])
            };
            if c.is_one() {
                x
            } else if (-c).is_one() {
                store.neg(x)
            } else {
                store.mul([num(store, c, int), x])
            }
        })
        .collect();
    match parts.len() {
        0 => num(store, &BigRational::zero(), int),
        1 => parts[0],
        _ => store.add(parts),
    }
}

fn num(store: &TermStore, c: &BigRational, int: bool) -> TermId {
    if int {
        store.int(c.to_integer())
    } else {
        store.real(c.clone())
    }
}

/// The term of `L ⋈ t` written as `Σ c·x ⋈ -constant`.
pub fn atom_term(store: &TermStore, a: &LinAtom) -> TermId {
    let int = a
        .expr
        .coeffs
        .iter()
        .all(|(v, c)| store.var_sort(*v) == Sort::Int && c.is_integer())
        && a.expr.constant.is_integer();
    if a.expr.coeffs.is_empty() {
        let c = &a.expr.constant;
        return store.bool(match a.rel {
            Rel::Le => !c.is_positive(),
            Rel::Lt => c.is_negative(),
            Rel::Eq => c.is_zero(),
        });
    }
    // `e = 0` and `-e = 0` are one predicate: equalities lead with a positive coefficient
    let flipped;
    let expr = match a.expr.coeffs.values().next() {
        Some(c) if a.rel == Rel::Eq && c.is_negative() => {
            flipped = LinExpr {
                coeffs: a.expr.coeffs.iter().map(|(v, c)| (*v, -c)).collect(),
                constant: -a.expr.constant.clone(),
            };
            &flipped
        }
        _ => &a.expr,
    };
    let lhs = sum_term(store, expr, int);
    let rhs = num(store, &-expr.constant.clone(), int);
    match a.rel {
        Rel::Le => store.le(lhs, rhs),
        Rel::Lt => store.lt(lhs, rhs),
        Rel::Eq => store.eq(lhs, rhs),
    }
}

/// Syntactic size of an atom: the sum of the absolute values of its (integer) coefficients plus
/// that of its constant.
pub fn size(a: &LinAtom) -> u64 {
    let s: BigRational =
        a.expr.coeffs.values().map(|c| c.abs()).sum::<BigRational>() + a.expr.constant.abs();
    s.ceil().to_integer().try_into().unwrap_or(u64::MAX)
}
