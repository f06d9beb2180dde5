//! Sort checking of the arithmetic, comparison, equality and array operators, with Int-to-Real
//! coercion. Connectives and predicate applications are handled by the parent module; this
//! file only turns already-lowered argument terms into one well-sorted term.

use super::{err, Env};
use crate::syntax::ast::{self, Span};
use crate::syntax::error::{Error, ErrorKind};
use crate::term::{Op, Sort, Term, TermId};

impl Env<'_> {
    pub(super) fn typed_app(
        &self,
        op: Op,
        name: &str,
        xs: Vec<TermId>,
        args: &[ast::Term],
        span: Span,
    ) -> Result<TermId, Error> {
        let n = xs.len();
        let bad_arity = |what: &str| {
            err(
                ErrorKind::Sort,
                span,
                format!("`{name}` expects {what}, got {n}"),
            )
        };
        let sorts: Vec<Sort> = xs.iter().map(|&x| self.store.sort(x)).collect();
        let numeric = |xs: Vec<TermId>| -> Result<(Vec<TermId>, Sort), Error> {
            for (i, s) in sorts.iter().enumerate() {
                if !s.is_arith() {
                    return Err(err(
                        ErrorKind::Sort,
                        args[i].span,
                        format!("`{name}` expects numbers, found {s}"),
                    ));
                }
            }
            if sorts.contains(&Sort::Real) {
                Ok((
                    xs.into_iter().map(|x| self.to_real(x)).collect(),
                    Sort::Real,
                ))
            } else {
                Ok((xs, Sort::Int))
            }
        };
        match op {
            Op::Xor => {
                if n != 2 {
                    return Err(bad_arity("2 arguments"));
                }
                for (i, s) in sorts.iter().enumerate() {
                    if *s != Sort::Bool {
                        return Err(err(
                            ErrorKind::Sort,
                            args[i].span,
                            format!("`xor` expects Bool, found {s}"),
                        ));
                    }
                }
                let e = self.store.eq(xs[0], xs[1]);
                Ok(self.store.not(e))
            }
            Op::Eq | Op::Distinct => {
                if n < 2 {
                    return Err(bad_arity("at least 2 arguments"));
                }
                let mut ys = vec![xs[0]];
                for i in 1..n {
                    let (a, b) = self.unify(ys[0], xs[i], args[0].span, args[i].span)?;
                    ys[0] = a;
                    ys.push(b);
                }
                // re-unify the first with all (a Real later may promote the first)
                let ys = if ys.iter().any(|&y| self.store.sort(y) == Sort::Real) {
                    ys.into_iter()
                        .map(|y| {
                            if self.store.sort(y) == Sort::Int {
                                self.to_real(y)
                            } else {
                                y
                            }
                        })
                        .collect()
                } else {
                    ys
                };
                if op == Op::Distinct && n > 2 {
                    return Ok(self
                        .store
                        .intern(Term::App(Op::Distinct, ys.into_boxed_slice())));
                }
                Ok(self.store.app(op, ys))
            }
            Op::Add | Op::Mul => {
                if n < 1 {
                    return Err(bad_arity("at least 1 argument"));
                }
                let (ys, _) = numeric(xs)?;
                Ok(self.store.app(op, ys))
            }
            Op::Sub => {
                if n < 1 {
                    return Err(bad_arity("at least 1 argument"));
                }
                let (ys, _) = numeric(xs)?;
                Ok(self.store.app(op, ys))
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                if n < 2 {
                    return Err(bad_arity("at least 2 arguments"));
                }
                let (ys, _) = numeric(xs)?;
                Ok(self.store.app(op, ys))
            }
            Op::RealDiv => {
                if n < 2 {
                    return Err(bad_arity("at least 2 arguments"));
                }
                let (ys, _) = numeric(xs)?;
                let ys = ys.into_iter().map(|y| self.to_real(y)).collect();
                Ok(self.store.app(op, ys))
            }
            Op::IntDiv | Op::Mod => {
                if n != 2 && !(op == Op::IntDiv && n > 2) {
                    return Err(bad_arity("2 arguments"));
                }
                for (i, s) in sorts.iter().enumerate() {
                    if *s != Sort::Int {
                        return Err(err(
                            ErrorKind::Sort,
                            args[i].span,
                            format!("`{name}` expects Int, found {s}"),
                        ));
                    }
                }
                Ok(self.store.app(op, xs))
            }
            Op::Abs => {
                if n != 1 {
                    return Err(bad_arity("1 argument"));
                }
                let (ys, _) = numeric(xs)?;
                Ok(self.store.app(op, ys))
            }
            Op::ToReal | Op::ToInt | Op::IsInt => {
                if n != 1 {
                    return Err(bad_arity("1 argument"));
                }
                let want = if op == Op::ToReal {
                    Sort::Int
                } else {
                    Sort::Real
                };
                let x = if op == Op::ToReal {
                    if !sorts[0].is_arith() {
                        return Err(err(
                            ErrorKind::Sort,
                            args[0].span,
                            format!("`{name}` expects Int, found {}", sorts[0]),
                        ));
                    }
                    xs[0]
                } else {
                    self.coerce(xs[0], &want, args[0].span)?
                };
                if op == Op::ToReal {
                    return Ok(self.to_real(x));
                }
                Ok(self.store.app(op, vec![x]))
            }
            Op::Select => {
                if n != 2 {
                    return Err(bad_arity("2 arguments"));
                }
                let Sort::Array(i, _) = &sorts[0] else {
                    return Err(err(
                        ErrorKind::Sort,
                        args[0].span,
                        format!("`select` expects an array, found {}", sorts[0]),
                    ));
                };
                let idx = self.coerce(xs[1], i, args[1].span)?;
                Ok(self.store.app(op, vec![xs[0], idx]))
            }
            Op::Store => {
                if n != 3 {
                    return Err(bad_arity("3 arguments"));
                }
                let Sort::Array(i, e) = &sorts[0] else {
                    return Err(err(
                        ErrorKind::Sort,
                        args[0].span,
                        format!("`store` expects an array, found {}", sorts[0]),
                    ));
                };
                let idx = self.coerce(xs[1], i, args[1].span)?;
                let val = self.coerce(xs[2], e, args[2].span)?;
                Ok(self.store.app(op, vec![xs[0], idx, val]))
            }
            _ => unreachable!("connectives are handled by `operator`"),
        }
    }
}
