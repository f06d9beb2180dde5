//! Resolution of expressions: names, C's conversions and operand types, built-in calls inside
//! expressions (nondet values), literals. Part of [`super`]; must not handle statements.

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::{common, CType, DataModel};
use super::{unsupported, Resolver, BUILTINS};
use num_bigint::BigInt;
use num_traits::Num;

impl Resolver {
    pub(super) fn lvalue(&mut self, e: &Expr) -> Result<(VarRef, CType), CError> {
        match &e.kind {
            ExprKind::Ident(n) => {
                let (v, ty) = self.variable(n, e.span)?;
                if self.info(v).is_array() {
                    return Err(unsupported(e.span, "assignments of whole arrays"));
                }
                Ok((v, ty))
            }
            ExprKind::Unsupported(what) => Err(unsupported(e.span, what)),
            ExprKind::TooDeep => Err(CError::too_deep(e.span, "expressions")),
            ExprKind::Unary(UnOp::Deref, _) => Err(unsupported(e.span, "pointers")),
            _ => Err(CError::new(
                CErrorKind::Syntax,
                e.span,
                "the left side of an assignment must be a variable",
            )),
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) -> Result<IExpr, CError> {
        let span = e.span;
        let mk = |kind, ty| IExpr { kind, ty, span };
        Ok(match &e.kind {
            ExprKind::Ident(n) if n == "NULL" && self.lookup(n).is_none() => {
                mk(IExprKind::Const(BigInt::from(0)), self.ptr_ctype())
            }
            ExprKind::SizeofType(_) | ExprKind::SizeofExpr(_) => self.sizeof_value(e)?,
            // Byte offsets need a struct layout, which the per-site arrays of the heap model
            // do not have (the shape engine reads `container_of` itself).
            ExprKind::Offsetof(..) => return Err(unsupported(span, "`__builtin_offsetof`")),
            ExprKind::Ident(n) => {
                if let Some(value) = self.enumerator(n, span)? {
                    return Ok(mk(IExprKind::Const(value), CType::INT));
                }
                let (v, ty) = self.variable(n, span)?;
                if self.info(v).is_array() {
                    // The address of its first element (`pointers.rs`).
                    return self.decay(v, span);
                }
                if matches!(self.var_fty(v), super::structs::FTy::Struct(_)) {
                    return Err(unsupported(span, "struct values here"));
                }
                mk(IExprKind::Var(v), ty)
            }
            ExprKind::Index(..) => match self.element(e)? {
                Some((var, ty, index)) => mk(IExprKind::Elem(var, index), ty),
                // Through a pointer, an array field, or an array of structs.
                None => self.pointer_expr(e)?,
            },
            ExprKind::Unary(UnOp::Deref | UnOp::AddrOf, _) | ExprKind::Member(..) => {
                self.pointer_expr(e)?
            }
            ExprKind::InitList(_) | ExprKind::Designated(..) => {
                return Err(unsupported(span, "initialiser lists here"))
            }
            ExprKind::Int(text) => {
                let (v, ty) = int_literal(text, self.model)
                    .map_err(|m| CError::new(CErrorKind::Syntax, span, m))?;
                mk(IExprKind::Const(v), ty)
            }
            ExprKind::Char(text) => {
                let v = char_literal(text)
                    .ok_or_else(|| unsupported(span, "this character literal"))?;
                mk(IExprKind::Const(BigInt::from(v)), CType::INT)
            }
            ExprKind::Str => return Err(unsupported(span, "strings")),
            ExprKind::Float => return Err(unsupported(span, "floating-point numbers")),
            ExprKind::Unsupported(what) => return Err(unsupported(span, what)),
            ExprKind::TooDeep => return Err(CError::too_deep(span, "expressions")),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a)?;
                match op {
                    UnOp::Plus => {
                        let t = a.ty.promote();
                        convert(a, t)
                    }
                    UnOp::Neg => {
                        let t = a.ty.promote();
                        mk(IExprKind::Neg(Box::new(convert(a, t))), t)
                    }
                    UnOp::BitNot => {
                        let t = a.ty.promote();
                        mk(IExprKind::BitNot(Box::new(convert(a, t))), t)
                    }
                    UnOp::Not => mk(IExprKind::Not(Box::new(a)), CType::INT),
                    UnOp::Deref | UnOp::AddrOf => return Err(unsupported(span, "pointers")),
                }
            }
            ExprKind::Binary(op, a, b) => {
                self.check_binary(*op, a, b)?;
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                binary(*op, a, b, span)
            }
            ExprKind::Assign(op, lhs, rhs) => {
                if let Some((var, ty, index)) = self.element(lhs)? {
                    let dest = self.elem_fty(var);
                    if op.is_none() {
                        self.check_source(&dest, rhs)?;
                    } else if dest.is_ptr() {
                        self.check_binary(BinOp::Add, lhs, rhs)?;
                    }
                    let rhs = self.expr(rhs)?;
                    let value = match op {
                        None => rhs,
                        Some(op) => binary(*op, current(ty, lhs.span), rhs, span),
                    };
                    let value = Box::new(convert(value, ty));
                    let post = false;
                    return Ok(mk(
                        IExprKind::SetElem {
                            var,
                            index,
                            value,
                            post,
                        },
                        ty,
                    ));
                }
                if let Some(x) = self.assign_ext(*op, lhs, rhs, span)? {
                    return Ok(x);
                }
                let (v, ty) = self.lvalue(lhs)?;
                let rhs = self.expr(rhs)?;
                let value = match op {
                    None => rhs,
                    Some(op) => {
                        let cur = IExpr {
                            kind: IExprKind::Var(v),
                            ty,
                            span: lhs.span,
                        };
                        binary(*op, cur, rhs, span)
                    }
                };
                mk(IExprKind::Assign(v, Box::new(convert(value, ty))), ty)
            }
            ExprKind::IncDec(pre, inc, x) => {
                if let Some((var, ty, index)) = self.element(x)? {
                    let one = IExpr {
                        kind: IExprKind::Const(BigInt::from(1)),
                        ty: CType::INT,
                        span,
                    };
                    let op = if *inc { BinOp::Add } else { BinOp::Sub };
                    let value = Box::new(convert(binary(op, current(ty, x.span), one, span), ty));
                    let post = !*pre;
                    return Ok(mk(
                        IExprKind::SetElem {
                            var,
                            index,
                            value,
                            post,
                        },
                        ty,
                    ));
                }
                if let Some(x) = self.incdec_ext(*pre, *inc, x, span)? {
                    return Ok(x);
                }
                let (v, ty) = self.lvalue(x)?;
                if *pre {
                    let cur = IExpr {
                        kind: IExprKind::Var(v),
                        ty,
                        span: x.span,
                    };
                    let one = IExpr {
                        kind: IExprKind::Const(BigInt::from(1)),
                        ty: CType::INT,
                        span,
                    };
                    let op = if *inc { BinOp::Add } else { BinOp::Sub };
                    let value = binary(op, cur, one, span);
                    mk(IExprKind::Assign(v, Box::new(convert(value, ty))), ty)
                } else {
                    mk(IExprKind::PostIncDec(v, *inc), ty)
                }
            }
            ExprKind::Call(f, args) => {
                let ExprKind::Ident(name) = &f.kind else {
                    return Err(unsupported(f.span, "calls through expressions"));
                };
                if let Some(tname) = name.strip_prefix("__VERIFIER_nondet_") {
                    let ty = nondet_type(tname, self.model)
                        .ok_or_else(|| unsupported(span, &format!("`{name}`")))?;
                    self.sites.push(NondetSite { ty, span });
                    return Ok(mk(IExprKind::Nondet(self.sites.len() - 1), ty));
                }
                if let Some(x) = self.heap_call(name, args, span)? {
                    return Ok(x);
                }
                if name == "main" {
                    // `main`'s returns end the execution; calling it is outside the subset.
                    return Err(unsupported(span, "calls of `main`"));
                }
                let Some(sig) = self.sigs.get(name) else {
                    // C89's implicit declaration `int nondet()` (older tasks call TriCera's
                    // `__nondet()` without declaring it).
                    if nondet_by_convention(name) && args.is_empty() {
                        self.sites.push(NondetSite {
                            ty: CType::INT,
                            span,
                        });
                        return Ok(mk(IExprKind::Nondet(self.sites.len() - 1), CType::INT));
                    }
                    if BUILTINS.contains(&name.as_str()) {
                        return Err(unsupported(span, &format!("`{name}` inside an expression")));
                    }
                    return Err(CError::new(
                        CErrorKind::Name,
                        span,
                        format!("call of undeclared function `{name}`"),
                    ));
                };
                let Some(index) = sig.index else {
                    // TriCera's and older tasks' convention: a declared, undefined `nondet()`
                    // (or `__nondet()`, `nondet_T()`) without arguments is any value of its
                    // integer type (not a pointer: those have full types).
                    let by_convention =
                        nondet_by_convention(name) && !self.types.sigs.contains_key(name);
                    if let (Some(ty), true) = (sig.ret, by_convention && args.is_empty()) {
                        self.sites.push(NondetSite { ty, span });
                        return Ok(mk(IExprKind::Nondet(self.sites.len() - 1), ty));
                    }
                    return Err(unsupported(
                        span,
                        &format!("call of `{name}`, which is declared but not defined"),
                    ));
                };
                let (ret, ptys, _) = (sig.ret, sig.params.clone(), sig.span);
                if let Some(iargs) = self.args_ext(name, args, span)? {
                    return Ok(mk(IExprKind::Call(index, iargs), ret.unwrap_or(CType::INT)));
                }
                if ptys.len() != args.len() {
                    return Err(CError::new(
                        CErrorKind::Name,
                        span,
                        format!(
                            "`{name}` takes {} arguments, {} given",
                            ptys.len(),
                            args.len()
                        ),
                    ));
                }
                let mut iargs = vec![];
                for (a, t) in args.iter().zip(ptys) {
                    let ia = self.expr(a)?;
                    iargs.push(convert(ia, t));
                }
                // A void call has no value; give it type int (its value is never used).
                mk(IExprKind::Call(index, iargs), ret.unwrap_or(CType::INT))
            }
            ExprKind::Cast(t, a) => {
                if t.pointers > 0 || self.full_type(&t.specs, 0)?.is_ptr() {
                    return self.cast_ext(t, a, span);
                }
                if self.fty_of(a)?.decayed().is_ptr() {
                    self.ptr_to_int.get_or_insert(span);
                }
                let a = self.expr(a)?;
                match self.base_type(&t.specs)? {
                    Some(ty) => convert(a, ty),
                    None => a, // (void) e
                }
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.expr(c)?;
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                let t = common(a.ty, b.ty);
                mk(
                    IExprKind::Cond(
                        Box::new(c),
                        Box::new(convert(a, t)),
                        Box::new(convert(b, t)),
                    ),
                    t,
                )
            }
            ExprKind::Comma(a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                let t = b.ty;
                mk(IExprKind::Comma(Box::new(a), Box::new(b)), t)
            }
        })
    }
}

/// The element being updated, in the new value of [`IExprKind::SetElem`].
fn current(ty: CType, span: Span) -> IExpr {
    IExpr {
        kind: IExprKind::Current,
        ty,
        span,
    }
}

/// Whether a function declared without a definition is a nondet value by TriCera's and
/// older tasks' convention: `nondet`, `__nondet`, `nondet_T` (besides SV-COMP's
/// `__VERIFIER_nondet_T`, a built-in).
pub fn nondet_by_convention(name: &str) -> bool {
    name == "nondet" || name == "__nondet" || name.starts_with("nondet_")
}

fn nondet_type(name: &str, model: DataModel) -> Option<CType> {
    let t = |rank, signed| CType::of_rank(rank, signed, model);
    Some(match name {
        "int" => CType::INT,
        "uint" | "unsigned_int" | "unsigned" => CType::UINT,
        "bool" | "_Bool" => CType::BOOL,
        "char" => CType::CHAR,
        "uchar" | "unsigned_char" => t(1, false),
        "short" => t(2, true),
        "ushort" | "unsigned_short" => t(2, false),
        "long" => t(4, true),
        "ulong" | "unsigned_long" => t(4, false),
        "longlong" | "long_long" => t(5, true),
        "ulonglong" | "unsigned_long_long" => t(5, false),
        _ => return None,
    })
}

/// Wraps `e` in a conversion to `ty` unless it already has that type.
pub fn convert(e: IExpr, ty: CType) -> IExpr {
    if e.ty == ty {
        return e;
    }
    let span = e.span;
    IExpr {
        kind: IExprKind::Convert(Box::new(e)),
        ty,
        span,
    }
}

pub(super) fn binary(op: BinOp, a: IExpr, b: IExpr, span: Span) -> IExpr {
    use BinOp::*;
    match op {
        And | Or => IExpr {
            kind: IExprKind::Logic(op, Box::new(a), Box::new(b)),
            ty: CType::INT,
            span,
        },
        Lt | Le | Gt | Ge | Eq | Ne => {
            let t = common(a.ty, b.ty);
            IExpr {
                kind: IExprKind::Cmp(op, Box::new(convert(a, t)), Box::new(convert(b, t))),
                ty: CType::INT,
                span,
            }
        }
        Shl | Shr => {
            let t = a.ty.promote();
            let bt = b.ty.promote();
            IExpr {
                kind: IExprKind::Arith(op, Box::new(convert(a, t)), Box::new(convert(b, bt))),
                ty: t,
                span,
            }
        }
        _ => {
            let t = common(a.ty, b.ty);
            IExpr {
                kind: IExprKind::Arith(op, Box::new(convert(a, t)), Box::new(convert(b, t))),
                ty: t,
                span,
            }
        }
    }
}

/// The value of a constant expression (used for global initialisers).
pub fn const_value(e: &IExpr) -> Option<BigInt> {
    match &e.kind {
        IExprKind::Const(v) => Some(v.clone()),
        IExprKind::Convert(a) => const_value(a).map(|v| e.ty.convert(&v)),
        IExprKind::Neg(a) => const_value(a).map(|v| e.ty.convert(&-v)),
        _ => None,
    }
}

/// The longest integer literal read: no integer type has more digits (64 bits are 20
/// decimal, 22 octal, 16 hexadecimal digits), and parsing longer ones could take long.
const MAX_LITERAL_DIGITS: usize = 64;

/// An integer literal's value and type (C11 6.4.4.1), or what is wrong with it.
pub fn int_literal(text: &str, model: DataModel) -> Result<(BigInt, CType), &'static str> {
    let lower = text.to_ascii_lowercase();
    let digits_end = lower.find(['u', 'l']).unwrap_or(lower.len());
    let (digits, suffix) = if let Some(hex) = lower.strip_prefix("0x") {
        let end = hex
            .find(|c: char| !c.is_ascii_hexdigit())
            .map_or(lower.len(), |i| i + 2);
        (&lower[..end], &lower[end..])
    } else {
        (&lower[..digits_end], &lower[digits_end..])
    };
    if digits.len() > MAX_LITERAL_DIGITS {
        return Err("integer literal too large for any integer type");
    }
    let bad = "malformed integer literal";
    let (value, decimal) = if let Some(h) = digits.strip_prefix("0x") {
        (BigInt::from_str_radix(h, 16).map_err(|_| bad)?, false)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (
            BigInt::from_str_radix(&digits[1..], 8).map_err(|_| bad)?,
            false,
        )
    } else {
        (BigInt::from_str_radix(digits, 10).map_err(|_| bad)?, true)
    };
    let uns = suffix.contains('u');
    let longs = suffix.matches('l').count();
    if suffix.chars().any(|c| c != 'u' && c != 'l') || longs > 2 {
        return Err(bad);
    }
    let min_rank = match longs {
        0 => 3,
        1 => 4,
        _ => 5,
    };
    for rank in min_rank..=5u8 {
        for signed in [true, false] {
            if (uns && signed) || (decimal && !uns && !signed) {
                continue;
            }
            let t = CType::of_rank(rank, signed, model);
            if t.contains(&value) {
                return Ok((value, t));
            }
        }
    }
    Err("integer literal too large for any integer type")
}

pub(super) fn char_literal(text: &str) -> Option<i64> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let v = match inner.as_bytes() {
        [c] => *c as i64,
        [b'\\', c] => match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'0' => 0,
            b'\\' => 92,
            b'\'' => 39,
            b'"' => 34,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            _ => return None,
        },
        _ => return None,
    };
    Some(v)
}
