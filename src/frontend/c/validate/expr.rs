//! A witness's invariant (a C expression, `format: c_expression`) as a term over a loop head's
//! predicate arguments. Integer expressions mean their mathematical values (the format asks
//! for expressions whose evaluation has no undefined behaviour, so a signed operation that
//! would overflow is outside what a witness may say); `/` and `%` by positive constants
//! truncate toward zero as in C; `&&`, `||`, `!`, comparisons and `?:` mix integers and
//! truth values as C does.
//!
//! Must not: read an expression whose C meaning differs from that reading: an unsigned
//! variable outside a cast to a wider signed type (unsigned arithmetic wraps), bit operators,
//! shifts, calls, assignments, pointers, division by anything but a positive constant. Those
//! are refused with the reason (the validator then answers `unknown`).

use super::super::ast::{BinOp, Expr, ExprKind, Spec, TypeName, UnOp};
use super::super::types::CType;
use crate::term::{Op, TermId, TermStore};
use num_bigint::BigInt;
use std::collections::HashMap;

/// A value of a C expression: an integer term or a truth value.
#[derive(Clone, Copy)]
enum Val {
    Int(TermId),
    Bool(TermId),
}

/// What a name means at the loop head: its argument's variable term and C type.
pub(super) type Names = HashMap<String, (TermId, CType)>;

/// The expression as a Boolean term (an integer `e` is `e != 0`).
pub(super) fn truth(store: &TermStore, e: &Expr, names: &Names) -> Result<TermId, String> {
    let v = value(store, e, names)?;
    Ok(as_bool(store, v))
}

fn as_bool(store: &TermStore, v: Val) -> TermId {
    match v {
        Val::Bool(b) => b,
        Val::Int(i) => store.not(store.eq(i, store.int(0))),
    }
}

fn as_int(store: &TermStore, v: Val) -> TermId {
    match v {
        Val::Int(i) => i,
        Val::Bool(b) => store.ite(b, store.int(1), store.int(0)),
    }
}

fn value(store: &TermStore, e: &Expr, names: &Names) -> Result<Val, String> {
    let int = |e: &Expr| value(store, e, names).map(|v| as_int(store, v));
    let boolean = |e: &Expr| value(store, e, names).map(|v| as_bool(store, v));
    if let Some(n) = path(e) {
        return match names.get(&n) {
            Some((t, ty)) if ty.signed => Ok(Val::Int(*t)),
            Some(_) => Err(format!(
                "the unsigned variable `{n}` outside a cast to a wider signed type"
            )),
            None => Err(format!("`{n}` is not a variable at the loop head")),
        };
    }
    match &e.kind {
        ExprKind::Int(text) => literal(text).map(|i| Val::Int(store.int(i))),
        ExprKind::Unary(UnOp::Neg, a) => Ok(Val::Int(store.app(Op::Neg, vec![int(a)?]))),
        ExprKind::Unary(UnOp::Plus, a) => Ok(Val::Int(int(a)?)),
        ExprKind::Unary(UnOp::Not, a) => Ok(Val::Bool(store.not(boolean(a)?))),
        ExprKind::Binary(op, a, b) => binary(store, *op, a, b, names),
        ExprKind::Cond(c, a, b) => {
            let c = boolean(c)?;
            match (value(store, a, names)?, value(store, b, names)?) {
                (Val::Bool(x), Val::Bool(y)) => Ok(Val::Bool(store.ite(c, x, y))),
                (x, y) => Ok(Val::Int(store.ite(c, as_int(store, x), as_int(store, y)))),
            }
        }
        ExprKind::Cast(tn, a) => cast(store, tn, a, names),
        _ => Err("an expression other than arithmetic, comparisons and logic".to_owned()),
    }
}

fn binary(store: &TermStore, op: BinOp, a: &Expr, b: &Expr, names: &Names) -> Result<Val, String> {
    let int = |e: &Expr| value(store, e, names).map(|v| as_int(store, v));
    let boolean = |e: &Expr| value(store, e, names).map(|v| as_bool(store, v));
    let arith =
        |o: Op| -> Result<Val, String> { Ok(Val::Int(store.app(o, vec![int(a)?, int(b)?]))) };
    let cmp =
        |o: Op| -> Result<Val, String> { Ok(Val::Bool(store.app(o, vec![int(a)?, int(b)?]))) };
    match op {
        BinOp::Add => arith(Op::Add),
        BinOp::Sub => arith(Op::Sub),
        BinOp::Mul => arith(Op::Mul),
        BinOp::Lt => cmp(Op::Lt),
        BinOp::Le => cmp(Op::Le),
        BinOp::Gt => cmp(Op::Gt),
        BinOp::Ge => cmp(Op::Ge),
        BinOp::Eq => Ok(Val::Bool(store.eq(int(a)?, int(b)?))),
        BinOp::Ne => Ok(Val::Bool(store.not(store.eq(int(a)?, int(b)?)))),
        BinOp::And => Ok(Val::Bool(store.and([boolean(a)?, boolean(b)?]))),
        BinOp::Or => Ok(Val::Bool(store.or([boolean(a)?, boolean(b)?]))),
        BinOp::Div | BinOp::Rem => {
            let k = match &b.kind {
                ExprKind::Int(t) => literal(t)?,
                _ => return Err("a division by something other than a constant".to_owned()),
            };
            if k <= BigInt::from(0) {
                return Err("a division by a constant that is not positive".to_owned());
            }
            let x = int(a)?;
            let k = store.int(k);
            let neg_x = store.app(Op::Neg, vec![x]);
            let zero = store.int(0);
            let nonneg = store.app(Op::Ge, vec![x, zero]);
            // C truncates toward zero: for x < 0, x / k = -((-x) / k), x % k = -((-x) % k).
            let o = if op == BinOp::Div {
                Op::IntDiv
            } else {
                Op::Mod
            };
            let pos = store.app(o.clone(), vec![x, k]);
            let neg = store.app(Op::Neg, vec![store.app(o, vec![neg_x, k])]);
            Ok(Val::Int(store.ite(nonneg, pos, neg)))
        }
        BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
            Err("bit operators and shifts".to_owned())
        }
    }
}

/// The name of a variable or of a member of a struct variable (`s.f.g`), as the loop head's
/// arguments are named; `None` for other expressions.
fn path(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Member(base, field, false) => Some(format!("{}.{field}", path(base)?)),
        _ => None,
    }
}

/// A cast to a signed integer type: the identity on a variable (or member) narrower than the
/// target (its value is in range), or on a constant in range; anything else is refused.
fn cast(store: &TermStore, tn: &TypeName, a: &Expr, names: &Names) -> Result<Val, String> {
    let Some(bits) = signed_bits(tn) else {
        return Err("a cast to a type other than a signed integer type".to_owned());
    };
    if let Some(n) = path(a) {
        return match names.get(&n) {
            Some((t, ty)) if ty.bits < bits || (ty.signed && ty.bits <= bits) => Ok(Val::Int(*t)),
            Some(_) => Err(format!(
                "a cast of `{n}` to a type that may not hold its values"
            )),
            None => Err(format!("`{n}` is not a variable at the loop head")),
        };
    }
    match &a.kind {
        ExprKind::Int(text) => {
            let i = literal(text)?;
            let limit = BigInt::from(1) << (bits - 1);
            match -limit.clone() <= i && i < limit {
                true => Ok(Val::Int(store.int(i))),
                false => Err(format!("a cast of {text} out of the type's range")),
            }
        }
        _ => Err("a cast of an expression other than a variable or a constant".to_owned()),
    }
}

/// The width of a signed integer type name (`int`, `long`, `long long`, ...; `long` as 64
/// bits, the wider of the data models, which only matters for variables of 64 bits), or
/// `None` for other types.
fn signed_bits(tn: &TypeName) -> Option<u32> {
    if tn.pointers > 0 {
        return None;
    }
    let mut longs = 0;
    let mut short = false;
    let mut char_ = false;
    for (w, _) in &tn.specs.words {
        match w {
            Spec::Int | Spec::Signed | Spec::Const | Spec::Ignored => {}
            Spec::Long => longs += 1,
            Spec::Short => short = true,
            Spec::Char => char_ = true,
            _ => return None,
        }
    }
    Some(match (char_, short, longs) {
        (true, _, _) => 8,
        (_, true, _) => 16,
        (_, _, 0) => 32,
        _ => 64,
    })
}

/// An integer literal's value (decimal, hex or octal, suffix `l` ignored). An unsigned
/// constant (suffix `u`) is refused: it makes the other operand unsigned.
fn literal(text: &str) -> Result<BigInt, String> {
    if text.contains(['u', 'U']) {
        return Err(format!("the unsigned constant `{text}`"));
    }
    let t = text.trim_end_matches(['l', 'L']);
    let parsed = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        BigInt::parse_bytes(h.as_bytes(), 16)
    } else if t.len() > 1 && t.starts_with('0') {
        BigInt::parse_bytes(&t.as_bytes()[1..], 8)
    } else {
        BigInt::parse_bytes(t.as_bytes(), 10)
    };
    parsed.ok_or_else(|| format!("the number `{text}`"))
}
