//! Arithmetic smart constructors of the [`TermStore`]: sums, differences, negation, products
//! and comparisons, with constant folding and flattening (sums up to `MAX_FLAT` arguments).
//!
//! Like the rest of the store, they do only local, obviously-sound rewrites; they must not
//! reason about more than the arguments in front of them.

use super::store::{TermStore, MAX_FLAT};
use super::{Op, Sort, Term, TermId};
use num_rational::BigRational;
use num_traits::{One, Zero};

impl TermStore {
    // ----- arithmetic ------------------------------------------------------------------

    /// Sum, with literals folded and zeros dropped.
    pub fn add(&self, args: impl IntoIterator<Item = TermId>) -> TermId {
        let args: Vec<TermId> = args.into_iter().collect();
        let sort = self.arith_sort(&args);
        let mut constant = BigRational::zero();
        let mut out = Vec::new();
        let mut stack = args;
        stack.reverse();
        while let Some(a) = stack.pop() {
            let node = self.get(a);
            match &node.term {
                // A nested sum is spliced in only while the result stays short: sums that share
                // subsums (`a2 = a1 + a1`, `a1 = a0 + a0`, ...) would otherwise grow
                // exponentially with their nesting.
                Term::App(Op::Add, inner) if out.len() + stack.len() + inner.len() <= MAX_FLAT => {
                    stack.extend(inner.iter().rev())
                }
                _ => match self.as_number(a) {
                    Some(n) => constant += n,
                    None => out.push(a),
                },
            }
        }
        if !constant.is_zero() || out.is_empty() {
            out.push(self.number(constant, &sort));
        }
        if out.len() == 1 {
            out[0]
        } else {
            self.intern(Term::App(Op::Add, out.into_boxed_slice()))
        }
    }

    /// `a - b`.
    pub fn sub(&self, a: TermId, b: TermId) -> TermId {
        match (self.as_number(a), self.as_number(b)) {
            (Some(x), Some(y)) => self.number(x - y, &self.arith_sort(&[a, b])),
            (_, Some(y)) if y.is_zero() => a,
            _ if a == b => self.numeral(0, &self.sort(a)),
            _ => self.intern(Term::App(Op::Sub, Box::new([a, b]))),
        }
    }

    /// `-a`.
    pub fn neg(&self, a: TermId) -> TermId {
        if let Some(x) = self.as_number(a) {
            return self.number(-x, &self.sort(a));
        }
        if let Term::App(Op::Neg, inner) = &self.get(a).term {
            return inner[0];
        }
        self.intern(Term::App(Op::Neg, Box::new([a])))
    }

    /// Product, with literal factors folded.
    pub fn mul(&self, args: impl IntoIterator<Item = TermId>) -> TermId {
        let args: Vec<TermId> = args.into_iter().collect();
        let sort = self.arith_sort(&args);
        let mut constant = BigRational::one();
        let mut out = Vec::new();
        for a in args {
            match self.as_number(a) {
                Some(n) => constant *= n,
                None => out.push(a),
            }
        }
        if constant.is_zero() {
            return self.number(constant, &sort);
        }
        if !constant.is_one() || out.is_empty() {
            out.insert(0, self.number(constant, &sort));
        }
        if out.len() == 1 {
            out[0]
        } else {
            self.intern(Term::App(Op::Mul, out.into_boxed_slice()))
        }
    }

    fn arith_sort(&self, args: &[TermId]) -> Sort {
        if args.iter().any(|&a| self.sort(a) == Sort::Real) {
            Sort::Real
        } else {
            Sort::Int
        }
    }

    /// A comparison (`Le`, `Lt`, `Ge`, `Gt`), folded on literals.
    pub fn cmp(&self, op: Op, a: TermId, b: TermId) -> TermId {
        if let (Some(x), Some(y)) = (self.as_number(a), self.as_number(b)) {
            let r = match op {
                Op::Le => x <= y,
                Op::Lt => x < y,
                Op::Ge => x >= y,
                Op::Gt => x > y,
                _ => unreachable!("cmp called with {op:?}"),
            };
            return self.bool(r);
        }
        if a == b {
            return self.bool(matches!(op, Op::Le | Op::Ge));
        }
        self.intern(Term::App(op, Box::new([a, b])))
    }

    /// `a <= b`.
    pub fn le(&self, a: TermId, b: TermId) -> TermId {
        self.cmp(Op::Le, a, b)
    }

    /// `a < b`.
    pub fn lt(&self, a: TermId, b: TermId) -> TermId {
        self.cmp(Op::Lt, a, b)
    }

    /// `a >= b`.
    pub fn ge(&self, a: TermId, b: TermId) -> TermId {
        self.cmp(Op::Ge, a, b)
    }

    /// `a > b`.
    pub fn gt(&self, a: TermId, b: TermId) -> TermId {
        self.cmp(Op::Gt, a, b)
    }
}
