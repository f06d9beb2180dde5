//! `enum` types: an `enum` is an `int`, and its enumerators are named `int` constants (C11
//! 6.7.2.2). Part of [`super`].
//!
//! Design: a specifier with braces defines its enumerators when the resolver first reads its
//! type (`base_type`, which may read the same specifier again, through a typedef: a
//! definition is known by its place). Their values are folded here from literals, earlier
//! enumerators and integer operators. Enumerators have one name space (a later definition
//! of the same name elsewhere is refused), and a name that is both an enumerator and a
//! variable is refused where it is used, since which one it denotes depends on scopes this
//! resolver does not keep for constants.
//!
//! Must not: give enumerators storage (they are constants, never variables).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::{unsupported, Resolver};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

impl Resolver {
    /// Defines the enumerators of a declaration's specifiers (errors in them are errors even
    /// where the type is only an error when used).
    pub(super) fn enumerators_of(&self, specs: &Specs) -> Result<(), CError> {
        for (w, _) in &specs.words {
            if let Spec::Enum(e) = w {
                self.define_enumerators(e)?;
            }
        }
        Ok(())
    }

    /// Defines the enumerators of `e` (once per definition).
    pub(super) fn define_enumerators(&self, e: &EnumSpec) -> Result<(), CError> {
        let Some(items) = &e.items else {
            return Ok(());
        };
        let mut next = BigInt::zero();
        for item in items {
            let value = match &item.value {
                None => next.clone(),
                Some(v) => self.fold_enum_value(v)?,
            };
            if value < BigInt::from(i32::MIN) || value > BigInt::from(i32::MAX) {
                return Err(unsupported(item.span, "an enumerator outside `int`"));
            }
            let mut known = self.enumerators.borrow_mut();
            match known.get(&item.name) {
                Some((_, at)) if *at == item.span => return Ok(()), // read before
                Some(_) => {
                    return Err(CError::new(
                        CErrorKind::Name,
                        item.span,
                        format!("enumerator `{}` defined twice", item.name),
                    ))
                }
                None => {}
            }
            known.insert(item.name.clone(), (value.clone(), item.span));
            next = value + 1;
        }
        Ok(())
    }

    /// The value of the enumerator `name`, if it is one; an error where `name` is both an
    /// enumerator and a variable.
    pub(super) fn enumerator(&self, name: &str, span: Span) -> Result<Option<BigInt>, CError> {
        let Some((value, _)) = self.enumerators.borrow().get(name).cloned() else {
            return Ok(None);
        };
        if self.lookup(name).is_some() {
            return Err(unsupported(
                span,
                &format!("a variable named like the enumerator `{name}`"),
            ));
        }
        Ok(Some(value))
    }

    /// An enumerator's explicit value: a constant expression of literals, earlier
    /// enumerators and integer operators.
    fn fold_enum_value(&self, e: &Expr) -> Result<BigInt, CError> {
        let bad = || unsupported(e.span, "this enumerator value");
        Ok(match &e.kind {
            ExprKind::Int(text) => {
                super::expr::int_literal(text, self.model)
                    .map_err(|m| CError::new(CErrorKind::Syntax, e.span, m))?
                    .0
            }
            ExprKind::Char(text) => BigInt::from(super::expr::char_literal(text).ok_or_else(bad)?),
            ExprKind::Ident(n) => self.enumerator(n, e.span)?.ok_or_else(|| {
                CError::new(
                    CErrorKind::Name,
                    e.span,
                    format!("`{n}` is not an enumerator defined before"),
                )
            })?,
            ExprKind::Unary(UnOp::Neg, a) => -self.fold_enum_value(a)?,
            ExprKind::Unary(UnOp::BitNot, a) => !self.fold_enum_value(a)?,
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.fold_enum_value(a)?, self.fold_enum_value(b)?);
                let shift = || y.to_u32().filter(|s| *s < 63).ok_or_else(bad);
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Shl => x << shift()?,
                    BinOp::Shr => x >> shift()?,
                    BinOp::BitOr => x | y,
                    BinOp::BitAnd => x & y,
                    BinOp::BitXor => x ^ y,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(bad()),
        })
    }
}
