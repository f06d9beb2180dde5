//! Division, remainder and bitwise operations of the encoding (see the module header of
//! [`super`]): C's truncating division over SMT-LIB's Euclidean `div`, exact bitwise operations
//! with constants, bounded fresh values otherwise. Must not: handle statements.

use super::state::State;
use super::Encoder;
use crate::frontend::c::ast::BinOp;
use crate::frontend::c::types::CType;
use crate::term::{Op, TermId};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

impl Encoder<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn division(
        &mut self,
        op: BinOp,
        ty: CType,
        x: TermId,
        y: TermId,
        cy: Option<BigInt>,
        st: &mut State,
    ) -> TermId {
        let s = self.store;
        let zero = s.int(0);
        // Undefined behaviour ends the execution: division by zero, and for signed types the
        // one quotient out of range, `min / -1` (C11 6.5.5p6: then `min % -1` is undefined
        // too).
        st.assume(s, s.not(s.eq(y, zero)));
        if ty.signed {
            let minus_one = s.int(-1);
            st.assume(
                s,
                s.not(s.and([s.eq(x, s.int(ty.min())), s.eq(y, minus_one)])),
            );
        }
        let quotient = if !ty.signed {
            s.app(Op::IntDiv, vec![x, y])
        } else {
            // C truncates toward zero; SMT-LIB's div is Euclidean.
            let q = s.var(self.fresh_var("quot"));
            let neg = |t| s.neg(t);
            let cases = match cy {
                Some(c) if c.is_positive() => vec![
                    s.and([s.ge(x, zero), s.eq(q, s.app(Op::IntDiv, vec![x, y]))]),
                    s.and([
                        s.lt(x, zero),
                        s.eq(q, neg(s.app(Op::IntDiv, vec![neg(x), y]))),
                    ]),
                ],
                _ => vec![
                    s.and([
                        s.ge(x, zero),
                        s.gt(y, zero),
                        s.eq(q, s.app(Op::IntDiv, vec![x, y])),
                    ]),
                    s.and([
                        s.ge(x, zero),
                        s.lt(y, zero),
                        s.eq(q, neg(s.app(Op::IntDiv, vec![x, neg(y)]))),
                    ]),
                    s.and([
                        s.lt(x, zero),
                        s.gt(y, zero),
                        s.eq(q, neg(s.app(Op::IntDiv, vec![neg(x), y]))),
                    ]),
                    s.and([
                        s.lt(x, zero),
                        s.lt(y, zero),
                        s.eq(q, s.app(Op::IntDiv, vec![neg(x), neg(y)])),
                    ]),
                ],
            };
            st.assume(s, s.or(cases));
            q
        };
        if op == BinOp::Div {
            quotient
        } else if !ty.signed {
            s.app(Op::Mod, vec![x, y])
        } else {
            s.sub(x, s.mul([y, quotient]))
        }
    }

    /// `x & c` for a constant `c` of type `ty`, exactly, as the sum of the bits of `x` that
    /// `c` keeps (bit `i` of `x` is `(x div 2^i) mod 2`, two's complement for negative `x`),
    /// or `x - (x & ~c)` when `~c` has fewer bits set. `None` when both have more than 8 bits.
    fn and_const(&self, x: TermId, c: &BigInt, ty: CType) -> Option<TermId> {
        let s = self.store;
        let bits_of =
            |v: &BigInt| -> Vec<u32> { (0..ty.bits).filter(|&i| v.bit(i as u64)).collect() };
        // Work within the type's width: c as an unsigned pattern of `bits` bits.
        let pattern = c.mod_floor(&ty.modulus());
        let ones = bits_of(&pattern);
        let complement = ty.modulus() - BigInt::one() - &pattern;
        let zeros = bits_of(&complement);
        let sum_bits = |idx: &[u32]| -> TermId {
            let terms: Vec<TermId> = idx
                .iter()
                .map(|&i| {
                    let p = BigInt::one() << i;
                    let bit = s.app(
                        Op::Mod,
                        vec![s.app(Op::IntDiv, vec![x, s.int(p.clone())]), s.int(2)],
                    );
                    s.mul([s.int(p), bit])
                })
                .collect();
            s.add(terms)
        };
        // For signed types the top bit stands for -2^(w-1): only patterns without it here.
        let top = ty.bits - 1;
        if ones.len() <= 8 && !(ty.signed && ones.contains(&top)) {
            return Some(if ones.is_empty() {
                s.int(0)
            } else {
                sum_bits(&ones)
            });
        }
        if zeros.len() <= 8 && !ty.signed {
            return Some(s.sub(x, sum_bits(&zeros)));
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn bitwise(
        &mut self,
        op: BinOp,
        ty: CType,
        x: TermId,
        y: TermId,
        cx: Option<BigInt>,
        cy: Option<BigInt>,
        st: &mut State,
    ) -> TermId {
        let s = self.store;
        if let (Some(a), Some(b)) = (&cx, &cy) {
            let v = match op {
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                _ => a ^ b,
            };
            return s.int(ty.convert(&v));
        }
        // Put a constant operand second.
        let (x, cy) = if cx.is_some() { (y, cx) } else { (x, cy) };
        if let Some(c) = &cy {
            if c.is_zero() {
                return if op == BinOp::BitAnd { s.int(0) } else { x };
            }
            let plus1: BigInt = c + 1;
            let is_mask = plus1.is_positive() && (&plus1 & c).is_zero();
            if op == BinOp::BitAnd && is_mask {
                // x & (2^k - 1) = x mod 2^k in two's complement.
                return s.app(Op::Mod, vec![x, s.int(plus1)]);
            }
            if let Some(and) = self.and_const(x, c, ty) {
                let sum = s.add([x, s.int(c.clone())]);
                return match op {
                    BinOp::BitAnd => and,
                    // x | c = x + c - (x & c); x ^ c = x + c - 2 (x & c).
                    BinOp::BitOr => s.sub(sum, and),
                    _ => s.sub(sum, s.mul([s.int(2), and])),
                };
            }
        }
        // Over-approximation: a fresh value with the bounds that always hold.
        self.approximate = true;
        let r = self.fresh_in("bits", ty, st);
        let zero = s.int(0);
        let y = match &cy {
            Some(c) => s.int(c.clone()),
            None => y,
        };
        let nonneg = s.and([s.ge(x, zero), s.ge(y, zero)]);
        let bound = match op {
            BinOp::BitAnd => s.and([s.ge(r, zero), s.le(r, x), s.le(r, y)]),
            BinOp::BitOr => s.and([s.ge(r, x), s.ge(r, y), s.le(r, s.add([x, y]))]),
            _ => s.and([s.ge(r, zero), s.le(r, s.add([x, y]))]),
        };
        st.assume(s, s.implies(nonneg, bound));
        r
    }
}
