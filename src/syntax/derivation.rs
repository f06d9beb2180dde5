//! Counterexample derivations as text, read back for checking: Hornbeam's `--cex` format,
//! `(derivation (step I FACT (clause C) (from J ...)) ...)` where FACT is `false`, a
//! predicate's name, or `(NAME VALUE ...)` with SMT-LIB values of the predicate's sorts.
//! A leading `unsat` line (a solver's whole output) is skipped.
//!
//! Values read: Booleans, integers (`5`, `(- 5)`) and reals (`1.5`, `(/ 1 2)`, `(- (/ 1 2))`);
//! a fact over arrays or datatypes is refused at its value. Every error is located.
//!
//! Must not: check anything beyond the text's shape and sorts (the witness layer replays it).

use super::ast::Span;
use super::error::{Error, ErrorKind};
use crate::chc::{PredId, System};
use crate::term::{Sort, Value};
use num_bigint::BigInt;
use num_rational::BigRational;

/// One step as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepText {
    /// Where the step is in the text.
    pub span: Span,
    /// Its fact: a predicate and its argument values; `None` for `false`.
    pub fact: Option<(PredId, Vec<Value>)>,
    /// The clause's index (as `print` numbers them: the order of the file).
    pub clause: usize,
    /// The steps deriving the clause's body atoms, in order.
    pub from: Vec<usize>,
}

/// An s-expression with its span.
enum Sexp {
    Atom(String, Span),
    List(Vec<Sexp>, Span),
}

impl Sexp {
    fn span(&self) -> Span {
        match self {
            Sexp::Atom(_, s) | Sexp::List(_, s) => *s,
        }
    }
}

fn err(span: Span, message: impl Into<String>) -> Error {
    Error::at(ErrorKind::Syntax, span, message)
}

/// Reads s-expressions (iteratively: nesting is not bounded by the stack).
fn sexps(src: &str) -> Result<Vec<Sexp>, Error> {
    let bytes = src.as_bytes();
    let mut stack: Vec<(Vec<Sexp>, usize)> = vec![(vec![], 0)];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                stack.push((vec![], i));
                i += 1;
            }
            b')' => {
                if stack.len() <= 1 {
                    return Err(err(Span::new(i, i + 1), "unbalanced `)`"));
                }
                let Some((items, start)) = stack.pop() else {
                    return Err(err(Span::new(i, i + 1), "unbalanced `)`"));
                };
                if let Some((parent, _)) = stack.last_mut() {
                    parent.push(Sexp::List(items, Span::new(start, i + 1)));
                }
                i += 1;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b'|' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'|' {
                    i += 1;
                }
                if i == bytes.len() {
                    return Err(err(Span::new(start, i), "unterminated `|`"));
                }
                i += 1;
                let name = src[start + 1..i - 1].to_owned();
                if let Some((items, _)) = stack.last_mut() {
                    items.push(Sexp::Atom(name, Span::new(start, i)));
                }
            }
            _ => {
                let start = i;
                while i < bytes.len()
                    && !bytes[i].is_ascii_whitespace()
                    && !matches!(bytes[i], b'(' | b')' | b'|' | b';')
                {
                    i += 1;
                }
                let text = src[start..i].to_owned();
                if let Some((items, _)) = stack.last_mut() {
                    items.push(Sexp::Atom(text, Span::new(start, i)));
                }
            }
        }
    }
    if stack.len() > 1 {
        let start = stack.last().map_or(0, |s| s.1);
        return Err(err(Span::new(start, src.len()), "unbalanced `(`"));
    }
    Ok(stack.pop().map(|s| s.0).unwrap_or_default())
}

/// Reads a derivation of `system`'s clauses.
pub fn read_derivation(system: &System, src: &str) -> Result<Vec<StepText>, Error> {
    let top = sexps(src)?;
    let mut items = top
        .iter()
        .skip_while(|s| matches!(s, Sexp::Atom(a, _) if a == "unsat"));
    let Some(Sexp::List(steps, span)) = items.next() else {
        return Err(err(
            Span::new(0, 0),
            "expected `(derivation (step ...) ...)`",
        ));
    };
    match steps.first() {
        Some(Sexp::Atom(head, _)) if head == "derivation" => {}
        _ => return Err(err(*span, "expected `(derivation (step ...) ...)`")),
    }
    if let Some(extra) = items.next() {
        return Err(err(extra.span(), "text after the derivation"));
    }
    let mut out = vec![];
    for (k, step) in steps[1..].iter().enumerate() {
        out.push(read_step(system, step, k)?);
    }
    Ok(out)
}

fn read_step(system: &System, s: &Sexp, k: usize) -> Result<StepText, Error> {
    let Sexp::List(parts, span) = s else {
        return Err(err(s.span(), "expected `(step I FACT (clause C) ...)`"));
    };
    let at = |i: usize| parts.get(i).map_or(*span, Sexp::span);
    match parts.first() {
        Some(Sexp::Atom(w, _)) if w == "step" => {}
        _ => return Err(err(at(0), "expected `step`")),
    }
    match parts.get(1) {
        Some(Sexp::Atom(n, _)) if n.parse::<usize>().ok() == Some(k) => {}
        _ => return Err(err(at(1), format!("expected the step's index {k}"))),
    }
    let fact = match parts.get(2) {
        Some(Sexp::Atom(f, _)) if f == "false" => None,
        Some(Sexp::Atom(name, sp)) => Some((pred(system, name, *sp)?, vec![])),
        Some(Sexp::List(app, _)) => {
            let Some(Sexp::Atom(name, sp)) = app.first() else {
                return Err(err(at(2), "expected a predicate's name"));
            };
            let p = pred(system, name, *sp)?;
            let sorts = &system.pred(p).sorts;
            if sorts.len() != app.len() - 1 {
                return Err(err(
                    at(2),
                    format!(
                        "`{name}` takes {} arguments, not {}",
                        sorts.len(),
                        app.len() - 1
                    ),
                ));
            }
            let values = app[1..]
                .iter()
                .zip(sorts)
                .map(|(v, sort)| value(v, sort))
                .collect::<Result<Vec<_>, _>>()?;
            Some((p, values))
        }
        None => return Err(err(*span, "expected the step's fact")),
    };
    let field = |i: usize, key: &str| -> Result<Vec<usize>, Error> {
        match parts.get(i) {
            Some(Sexp::List(l, _)) if matches!(l.first(), Some(Sexp::Atom(w, _)) if w == key) => l
                [1..]
                .iter()
                .map(|x| match x {
                    Sexp::Atom(n, sp) => n
                        .parse()
                        .map_err(|_| err(*sp, format!("expected a number in `({key} ...)`"))),
                    _ => Err(err(x.span(), format!("expected a number in `({key} ...)`"))),
                })
                .collect(),
            _ => Err(err(at(i), format!("expected `({key} ...)`"))),
        }
    };
    let clause = match field(3, "clause")?.as_slice() {
        [c] => *c,
        _ => return Err(err(at(3), "expected `(clause C)`")),
    };
    let from = match parts.len() {
        4 => vec![],
        5 => field(4, "from")?,
        _ => return Err(err(at(5), "unexpected text in the step")),
    };
    Ok(StepText {
        span: *span,
        fact,
        clause,
        from,
    })
}

fn pred(system: &System, name: &str, span: Span) -> Result<PredId, Error> {
    system.pred_by_name(name).ok_or_else(|| {
        Error::at(
            ErrorKind::Unknown,
            span,
            format!("unknown predicate `{name}`"),
        )
    })
}

/// A value of `sort` (Booleans, integers, reals).
fn value(s: &Sexp, sort: &Sort) -> Result<Value, Error> {
    let number = number(s).map_err(|_| err(s.span(), "expected a number"));
    match sort {
        Sort::Bool => match s {
            Sexp::Atom(b, _) if b == "true" => Ok(Value::Bool(true)),
            Sexp::Atom(b, _) if b == "false" => Ok(Value::Bool(false)),
            _ => Err(err(s.span(), "expected `true` or `false`")),
        },
        Sort::Int => {
            let r = number?;
            match r.is_integer() {
                true => Ok(Value::Int(r.to_integer())),
                false => Err(err(s.span(), "expected an integer")),
            }
        }
        Sort::Real => Ok(Value::Real(number?)),
        other => Err(Error::at(
            ErrorKind::Unsupported,
            s.span(),
            format!("values of sort {other} are not read in derivations (Booleans, integers and reals are)"),
        )),
    }
}

/// `5`, `1.5`, `(- x)`, `(/ x y)`.
fn number(s: &Sexp) -> Result<BigRational, ()> {
    match s {
        Sexp::Atom(t, _) => match t.split_once('.') {
            None => t
                .parse::<BigInt>()
                .map(BigRational::from_integer)
                .map_err(|_| ()),
            Some((i, f)) => {
                let all: BigInt = format!("{i}{f}").parse().map_err(|_| ())?;
                let scale = num_traits::pow(BigInt::from(10), f.len());
                Ok(BigRational::new(all, scale))
            }
        },
        Sexp::List(l, _) => match l.as_slice() {
            [Sexp::Atom(op, _), x] if op == "-" => number(x).map(|v| -v),
            [Sexp::Atom(op, _), x, y] if op == "/" => {
                let d = number(y)?;
                if d == BigRational::from_integer(BigInt::from(0)) {
                    return Err(());
                }
                Ok(number(x)? / d)
            }
            _ => Err(()),
        },
    }
}
