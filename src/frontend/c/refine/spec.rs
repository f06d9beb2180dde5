//! The precondition κ and the invariant ι: C expressions over both sides' variables, read
//! with the C parser. `a.x` is the abstract side's variable `x`, `c.x` the concrete side's
//! (a local of the compared thread shadows a global of the same name); integer literals,
//! `+ - *`, comparisons, `! && ||` and `?:` are allowed. The default ι (and κ) is "common
//! variables have equal values": `a.x == c.x` for every name both sides have.
//!
//! Must not: call a solver.

use super::sa::Side;
use crate::frontend::c::ast::{BinOp, Expr, ExprKind, Item, Span, StmtKind, UnOp};
use crate::frontend::c::error::{CError, CErrorKind};
use crate::frontend::c::parse::parse_unit;
use crate::term::{Sort, TermId, TermStore};
use num_bigint::BigInt;

const PREFIX: &str = "int __refine_expr(void) { return (";

/// `a.x == c.x` for every name both sides have, with the names.
pub fn common(store: &TermStore, a: &Side, c: &Side) -> (TermId, Vec<String>) {
    let mut names: Vec<String> = a
        .vars
        .iter()
        .filter(|v| !v.param)
        .map(|v| v.name.clone())
        .collect();
    names.sort();
    names.dedup();
    let mut parts = vec![];
    let mut used = vec![];
    for n in names {
        if let (Some(i), Some(j)) = (a.lookup(&n), c.lookup(&n)) {
            if a.vars[i].param || c.vars[j].param {
                continue;
            }
            parts.push(store.eq(store.var(a.vars[i].term), store.var(c.vars[j].term)));
            used.push(n);
        }
    }
    (store.and(parts), used)
}

/// Parses `text` (an option's value) into a Boolean term over both sides' variables; errors
/// have spans within `text`.
pub fn parse(store: &TermStore, text: &str, a: &Side, c: &Side) -> Result<TermId, CError> {
    let src = format!("{PREFIX}{text}); }}");
    let shift = |e: CError| CError {
        span: Span::new(
            e.span.start.saturating_sub(PREFIX.len()).min(text.len()),
            e.span.end.saturating_sub(PREFIX.len()).min(text.len()),
        ),
        ..e
    };
    let items = parse_unit(&src).map_err(shift)?;
    let expr = items.iter().find_map(|it| match it {
        Item::Func(f) => match &f.body.kind {
            StmtKind::Block(b) => b.iter().find_map(|s| match &s.kind {
                StmtKind::Return(Some(e)) => Some(e.clone()),
                _ => None,
            }),
            _ => None,
        },
        _ => None,
    });
    let Some(expr) = expr else {
        return Err(CError::new(
            CErrorKind::Syntax,
            Span::new(0, text.len()),
            "expected one C expression",
        ));
    };
    let t = Reader { store, a, c }.read(&expr).map_err(shift)?;
    Ok(truth(store, t))
}

fn truth(store: &TermStore, t: TermId) -> TermId {
    if store.sort(t) == Sort::Bool {
        t
    } else {
        store.not(store.eq(t, store.int(0)))
    }
}

fn int(store: &TermStore, t: TermId) -> TermId {
    if store.sort(t) == Sort::Bool {
        store.ite(t, store.int(1), store.int(0))
    } else {
        t
    }
}

struct Reader<'a> {
    store: &'a TermStore,
    a: &'a Side,
    c: &'a Side,
}

impl Reader<'_> {
    fn read(&self, e: &Expr) -> Result<TermId, CError> {
        let s = self.store;
        let bad = |what: String| Err(CError::unsupported(e.span, what));
        Ok(match &e.kind {
            ExprKind::Int(lit) => {
                let digits = lit.trim_end_matches(['u', 'U', 'l', 'L']);
                match digits.parse::<BigInt>() {
                    Ok(v) => s.int(v),
                    Err(_) => return bad(format!("the literal `{lit}` (decimal only)")),
                }
            }
            ExprKind::Ident(name) => {
                return Err(CError::new(
                    CErrorKind::Name,
                    e.span,
                    format!("`{name}`: write `a.{name}` (abstract) or `c.{name}` (concrete)"),
                ))
            }
            ExprKind::Member(base, field, false) => {
                let side = match &base.kind {
                    ExprKind::Ident(n) if n == "a" => self.a,
                    ExprKind::Ident(n) if n == "c" => self.c,
                    _ => return bad("a name other than `a.x` or `c.x`".to_owned()),
                };
                match side.lookup(field) {
                    Some(i) => s.var(side.vars[i].term),
                    None => {
                        let which = if side.tag == "a" {
                            "abstract"
                        } else {
                            "concrete"
                        };
                        return Err(CError::new(
                            CErrorKind::Name,
                            e.span,
                            format!(
                                "the {which} program has no variable `{field}` (a global, or a local of the compared thread)"
                            ),
                        ));
                    }
                }
            }
            ExprKind::Unary(op, x) => {
                let x = self.read(x)?;
                match op {
                    UnOp::Neg => s.neg(int(s, x)),
                    UnOp::Plus => int(s, x),
                    UnOp::Not => s.not(truth(s, x)),
                    _ => return bad("this operator in a relation".to_owned()),
                }
            }
            ExprKind::Binary(op, x, y) => {
                let (x, y) = (self.read(x)?, self.read(y)?);
                match op {
                    BinOp::Add => s.add([int(s, x), int(s, y)]),
                    BinOp::Sub => s.sub(int(s, x), int(s, y)),
                    BinOp::Mul => s.mul([int(s, x), int(s, y)]),
                    BinOp::Lt => s.lt(int(s, x), int(s, y)),
                    BinOp::Le => s.le(int(s, x), int(s, y)),
                    BinOp::Gt => s.gt(int(s, x), int(s, y)),
                    BinOp::Ge => s.ge(int(s, x), int(s, y)),
                    BinOp::Eq => s.eq(int(s, x), int(s, y)),
                    BinOp::Ne => s.not(s.eq(int(s, x), int(s, y))),
                    BinOp::And => s.and([truth(s, x), truth(s, y)]),
                    BinOp::Or => s.or([truth(s, x), truth(s, y)]),
                    _ => {
                        return bad(
                            "this operator in a relation (+ - * comparisons ! && || ?:)".to_owned()
                        )
                    }
                }
            }
            ExprKind::Cond(c, x, y) => {
                let c = truth(s, self.read(c)?);
                let (x, y) = (self.read(x)?, self.read(y)?);
                s.ite(c, int(s, x), int(s, y))
            }
            _ => return bad("this kind of expression in a relation".to_owned()),
        })
    }
}
