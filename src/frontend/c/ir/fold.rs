//! Constant folding of integer expressions: what sizes, global initialisers and constant
//! conditions are.
//!
//! Must not: look at variables (an expression reading one is not constant).

use super::IExpr;
use super::IExprKind;
use crate::frontend::c::ast::BinOp;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The value of an integer constant expression (sizes, global initialisers): literals, casts,
/// arithmetic without undefined behaviour, comparisons, `!`, `?:`.
pub fn fold(e: &IExpr) -> Option<BigInt> {
    let b = |x: bool| BigInt::from(u8::from(x));
    let v = match &e.kind {
        IExprKind::Const(v) => v.clone(),
        IExprKind::Convert(a) => e.ty.convert(&fold(a)?),
        IExprKind::Neg(a) => -fold(a)?,
        IExprKind::BitNot(a) => {
            let v = fold(a)?;
            if e.ty.signed {
                -v - 1
            } else {
                e.ty.max() - v
            }
        }
        IExprKind::Not(a) => b(fold(a)?.is_zero()),
        IExprKind::Arith(op, x, y) => {
            let (x, y) = (fold(x)?, fold(y)?);
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div | BinOp::Rem if y.is_zero() => return None,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                BinOp::Shl | BinOp::Shr => {
                    let k = y.to_u32().filter(|&k| k < e.ty.bits)?;
                    if *op == BinOp::Shl {
                        if x.is_negative() {
                            return None;
                        }
                        x * (BigInt::one() << k)
                    } else {
                        x.div_floor(&(BigInt::one() << k))
                    }
                }
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                _ => return None,
            }
        }
        IExprKind::Cmp(op, x, y) => {
            let (x, y) = (fold(x)?, fold(y)?);
            b(op.compare(&x, &y))
        }
        IExprKind::Cond(c, x, y) => {
            if fold(c)?.is_zero() {
                fold(y)?
            } else {
                fold(x)?
            }
        }
        _ => return None,
    };
    // Signed overflow is not a constant; unsigned results wrap.
    if e.ty.signed {
        e.ty.contains(&v).then_some(v)
    } else {
        Some(e.ty.convert(&v))
    }
}
