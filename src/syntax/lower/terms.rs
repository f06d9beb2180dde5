//! Lowering of SMT-LIB terms: name resolution, sort checking, Int/Real coercion, `let`,
//! macros (`define-fun`) and predicate applications.
//!
//! A term without predicate applications lowers to a [`TermId`]; one with them lowers to a
//! [`Formula`] tree for the clausifier. Errors carry the span of the offending subterm.

use super::super::ast::{self, Ident, Literal, Span, TermKind};
use super::super::error::{Error, ErrorKind};
use crate::chc::PredId;
use crate::term::{Op, Quantifier, Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;
use std::str::FromStr;

mod macros;
mod ops;

pub(crate) use macros::Macro;

impl Formula {
    /// Number of nodes (connectives, atoms, constraints), without recursion.
    fn size(&self) -> usize {
        let mut n = 0usize;
        let mut stack = vec![self];
        while let Some(f) = stack.pop() {
            n += 1;
            match f {
                Formula::Constraint(_) | Formula::Atom(..) => {}
                Formula::And(fs) | Formula::Or(fs) => stack.extend(fs),
                Formula::Not(g) | Formula::Quant(_, _, g, _) => stack.push(g),
                Formula::Implies(a, b) | Formula::Ite(_, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
        n
    }
}

/// A Boolean formula over predicate applications and constraints, before clausification.
#[derive(Clone, Debug)]
pub(crate) enum Formula {
    /// A quantifier-free constraint.
    Constraint(TermId),
    /// A predicate applied to terms.
    Atom(PredId, Vec<TermId>, Span),
    /// Connectives.
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    /// `(ite c a b)` with a constraint condition.
    Ite(TermId, Box<Formula>, Box<Formula>),
    /// Quantifiers over fresh variables.
    Quant(Quantifier, Vec<VarId>, Box<Formula>, Span),
}

/// The result of lowering a term.
#[derive(Clone, Debug)]
pub(crate) enum Lowered {
    Term(TermId),
    Formula(Formula),
}

impl Lowered {
    fn into_formula(self) -> Formula {
        match self {
            Lowered::Term(t) => Formula::Constraint(t),
            Lowered::Formula(f) => f,
        }
    }
}

/// Names visible while lowering.
pub(crate) struct Env<'a> {
    pub(crate) store: &'a TermStore,
    pub(crate) preds: HashMap<String, (PredId, Vec<Sort>)>,
    pub(crate) macros: HashMap<String, Macro>,
    /// The size functions a model defines (`size!D`), by name.
    pub(crate) sizes: HashMap<String, crate::term::DatatypeId>,
    /// Local bindings, innermost last.
    scopes: Vec<HashMap<String, Lowered>>,
    /// Macro bodies lowered again so far (see [`Macro::lowered`]).
    expansions: usize,
    /// Names of the macros used so far.
    pub(crate) used_macros: std::collections::HashSet<String>,
    /// The shared parameter variables of macro bodies (see [`Env::param_var`]).
    param_vars: HashMap<(usize, Sort), VarId>,
    /// Quantifiers lowered so far (a macro body that lowers one is re-lowered at each use).
    quantifiers: usize,
    /// Nodes of `let`-bound formulas copied so far (see [`MAX_FORMULA_COPIES`]).
    formula_copies: usize,
}

/// At most this many formula nodes copied by uses of `let`-bound formulas in one input.
/// Formulas (with predicate applications or quantifiers) are trees: a chain of bindings that
/// each use the previous one twice would otherwise be copied out exponentially.
const MAX_FORMULA_COPIES: usize = 1_000_000;

/// "1 argument", "2 arguments".
fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".into()
    } else {
        format!("{n} arguments")
    }
}

fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> Error {
    Error::at(kind, span, msg)
}

/// Converts a sort expression.
pub(crate) fn lower_sort(store: &TermStore, s: &ast::Sort) -> Result<Sort, Error> {
    match s {
        ast::Sort::Simple(sym) => match sym.name.as_str() {
            "Bool" => Ok(Sort::Bool),
            "Int" => Ok(Sort::Int),
            "Real" => Ok(Sort::Real),
            other if store.datatype_sort(other).is_some() => {
                Ok(store.datatype_sort(other).unwrap_or(Sort::Bool))
            }
            other => Err(err(
                ErrorKind::Unknown,
                sym.span,
                format!("unknown sort `{other}`"),
            )),
        },
        ast::Sort::App(sym, args, span) if sym.name == "Array" => {
            if args.len() != 2 {
                return Err(err(ErrorKind::Sort, *span, "`Array` takes two sorts"));
            }
            Ok(Sort::array(
                lower_sort(store, &args[0])?,
                lower_sort(store, &args[1])?,
            ))
        }
        ast::Sort::App(sym, _, span) => Err(err(
            ErrorKind::Unknown,
            *span,
            format!("unknown sort `{}`", sym.name),
        )),
        ast::Sort::Indexed(sym, _, span) => Err(err(
            ErrorKind::Unsupported,
            *span,
            format!(
                "sort `(_ {} ...)` (only Bool, Int, Real and arrays are supported)",
                sym.name
            ),
        )),
    }
}

fn op_of(name: &str) -> Option<Op> {
    Some(match name {
        "not" => Op::Not,
        "and" => Op::And,
        "or" => Op::Or,
        "=>" => Op::Implies,
        "xor" => Op::Xor,
        "ite" => Op::Ite,
        "=" => Op::Eq,
        "distinct" => Op::Distinct,
        "+" => Op::Add,
        "-" => Op::Sub,
        "*" => Op::Mul,
        "/" => Op::RealDiv,
        "div" => Op::IntDiv,
        "mod" => Op::Mod,
        "abs" => Op::Abs,
        "<=" => Op::Le,
        "<" => Op::Lt,
        ">=" => Op::Ge,
        ">" => Op::Gt,
        "to_real" => Op::ToReal,
        "to_int" => Op::ToInt,
        "is_int" => Op::IsInt,
        "select" => Op::Select,
        "store" => Op::Store,
        _ => return None,
    })
}

impl<'a> Env<'a> {
    pub(crate) fn new(store: &'a TermStore) -> Self {
        Env {
            store,
            preds: HashMap::new(),
            macros: HashMap::new(),
            sizes: HashMap::new(),
            scopes: Vec::new(),
            expansions: 0,
            used_macros: Default::default(),
            param_vars: HashMap::new(),
            quantifiers: 0,
            formula_copies: 0,
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&Lowered> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Binds fresh variables for a quantifier's declarations, runs `f`, and unbinds.
    pub(crate) fn with_vars<T>(
        &mut self,
        decls: &[(ast::Symbol, ast::Sort)],
        f: impl FnOnce(&mut Self, Vec<VarId>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut scope = HashMap::new();
        let mut vars = Vec::new();
        for (sym, sort) in decls {
            let s = lower_sort(self.store, sort)?;
            let v = self.store.new_var(&sym.name, s);
            scope.insert(sym.name.clone(), Lowered::Term(self.store.var(v)));
            vars.push(v);
        }
        self.scopes.push(scope);
        let r = f(self, vars);
        self.scopes.pop();
        r
    }

    /// Lowers a term that must not contain predicate applications.
    pub(crate) fn term(&mut self, t: &ast::Term) -> Result<TermId, Error> {
        match self.lower(t)? {
            Lowered::Term(x) => Ok(x),
            Lowered::Formula(_) => Err(err(
                ErrorKind::Unsupported,
                t.span,
                "predicate application inside a constraint term",
            )),
        }
    }

    /// Lowers a term of the given sort (with Int-to-Real coercion).
    pub(crate) fn term_of_sort(&mut self, t: &ast::Term, sort: &Sort) -> Result<TermId, Error> {
        let x = self.term(t)?;
        self.coerce(x, sort, t.span)
    }

    fn coerce(&self, x: TermId, sort: &Sort, span: Span) -> Result<TermId, Error> {
        let s = self.store.sort(x);
        if s == *sort {
            return Ok(x);
        }
        if s == Sort::Int && *sort == Sort::Real {
            return Ok(self.to_real(x));
        }
        Err(err(
            ErrorKind::Sort,
            span,
            format!("expected a term of sort {sort}, found {s}"),
        ))
    }

    fn to_real(&self, x: TermId) -> TermId {
        if self.store.sort(x) == Sort::Real {
            return x; // already Real: `to_real` of a Real term is ill-sorted
        }
        match &self.store.get(x).term {
            Term::Int(i) => self.store.real(BigRational::from_integer(i.clone())),
            _ => self.store.app(Op::ToReal, vec![x]),
        }
    }

    /// Lowers a Boolean term that may contain predicate applications.
    pub(crate) fn formula(&mut self, t: &ast::Term) -> Result<Formula, Error> {
        let l = self.lower(t)?;
        if let Lowered::Term(x) = &l {
            if self.store.sort(*x) != Sort::Bool {
                return Err(err(
                    ErrorKind::Sort,
                    t.span,
                    format!("expected a Boolean term, found {}", self.store.sort(*x)),
                ));
            }
        }
        Ok(l.into_formula())
    }

    fn lower(&mut self, t: &ast::Term) -> Result<Lowered, Error> {
        match &t.kind {
            TermKind::Lit(lit) => self.literal(lit, t.span).map(Lowered::Term),
            TermKind::Var(id) => self.ident(id, t.span),
            TermKind::Annotated(inner, _) => self.lower(inner),
            TermKind::Let(binds, body) => {
                let mut scope = HashMap::new();
                for (sym, bt) in binds {
                    scope.insert(sym.name.clone(), self.lower(bt)?);
                }
                self.scopes.push(scope);
                let r = self.lower(body);
                self.scopes.pop();
                r
            }
            TermKind::Forall(decls, body) | TermKind::Exists(decls, body) => {
                self.quantifiers += 1;
                let q = if matches!(t.kind, TermKind::Forall(..)) {
                    Quantifier::Forall
                } else {
                    Quantifier::Exists
                };
                let span = t.span;
                self.with_vars(decls, |env, vars| {
                    let f = env.formula(body)?;
                    Ok(Lowered::Formula(Formula::Quant(q, vars, Box::new(f), span)))
                })
            }
            TermKind::App(head, args) => self.app(head, args, t.span),
        }
    }

    fn literal(&self, lit: &Literal, span: Span) -> Result<TermId, Error> {
        match lit {
            Literal::Numeral(s) => BigInt::from_str(s)
                .map(|i| self.store.int(i))
                .map_err(|_| err(ErrorKind::Syntax, span, format!("bad numeral `{s}`"))),
            Literal::Decimal(s) => {
                let (i, f) = s.split_once('.').unwrap_or((s, ""));
                let n = BigInt::from_str(&format!("{i}{f}"))
                    .map_err(|_| err(ErrorKind::Syntax, span, format!("bad decimal `{s}`")))?;
                let d = num_traits::pow(BigInt::from(10), f.len());
                Ok(self.store.real(BigRational::new(n, d)))
            }
            Literal::Hex(_) | Literal::Binary(_) => Err(err(
                ErrorKind::Unsupported,
                span,
                "bit-vector literals (only Bool, Int, Real and arrays are supported)",
            )),
            Literal::Str(_) => Err(err(ErrorKind::Unsupported, span, "string literals")),
        }
    }

    fn ident(&mut self, id: &Ident, span: Span) -> Result<Lowered, Error> {
        let local = matches!(id, Ident::Simple(s) if self.lookup(&s.name).is_some());
        if !local {
            if let Some(t) = self.datatype_const(id, span)? {
                return Ok(Lowered::Term(t));
            }
        }
        let Ident::Simple(sym) = id else {
            return Err(err(
                ErrorKind::Unsupported,
                span,
                "indexed or qualified identifier",
            ));
        };
        let name = sym.name.as_str();
        if let Some(l) = self.lookup(name) {
            if let Lowered::Formula(f) = l {
                let copies = self.formula_copies.saturating_add(f.size());
                if copies > MAX_FORMULA_COPIES {
                    return Err(err(
                        ErrorKind::Unsupported,
                        span,
                        format!(
                            "uses of `let`-bound formulas copy more than {MAX_FORMULA_COPIES} \
                             formula nodes (a formula with predicate applications or \
                             quantifiers is copied at each use)"
                        ),
                    ));
                }
                self.formula_copies = copies;
            }
            let l = self.lookup(name).expect("found above");
            return Ok(l.clone());
        }
        match name {
            "true" => return Ok(Lowered::Term(self.store.tt())),
            "false" => return Ok(Lowered::Term(self.store.ff())),
            _ => {}
        }
        if let Some((p, sorts)) = self.preds.get(name) {
            if !sorts.is_empty() {
                return Err(err(
                    ErrorKind::Sort,
                    span,
                    format!(
                        "predicate `{name}` expects {}, got 0",
                        arguments(sorts.len())
                    ),
                ));
            }
            return Ok(Lowered::Formula(Formula::Atom(*p, Vec::new(), span)));
        }
        if self.macros.contains_key(name) {
            return self.expand_macro(name, &[], span);
        }
        let hint = match name.strip_prefix('-') {
            Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.') => {
                format!(" (a negative number is written `(- {n})`)")
            }
            _ => String::new(),
        };
        Err(err(
            ErrorKind::Unknown,
            sym.span,
            format!("unknown symbol `{name}`{hint}"),
        ))
    }

    fn app(&mut self, head: &Ident, args: &[ast::Term], span: Span) -> Result<Lowered, Error> {
        let local = matches!(head, Ident::Simple(s) if self.lookup(&s.name).is_some());
        if !local {
            if let Some(t) = self.datatype_app(head, args, span)? {
                return Ok(Lowered::Term(t));
            }
        }
        let name = match head {
            Ident::Simple(s) => s.name.as_str(),
            Ident::Qualified(inner, sort, _) if matches!(&**inner, Ident::Simple(s) if s.name == "const") =>
            {
                let sort = lower_sort(self.store, sort)?;
                let Sort::Array(_, elem) = &sort else {
                    return Err(err(
                        ErrorKind::Sort,
                        span,
                        "`(as const S)` needs an array sort",
                    ));
                };
                if args.len() != 1 {
                    return Err(err(
                        ErrorKind::Sort,
                        span,
                        "a constant array takes one argument",
                    ));
                }
                let v = self.term_of_sort(&args[0], elem)?;
                return Ok(Lowered::Term(self.store.app(Op::ConstArray(sort), vec![v])));
            }
            _ => {
                return Err(err(
                    ErrorKind::Unsupported,
                    head.span(),
                    "indexed or qualified function",
                ))
            }
        };
        if self.lookup(name).is_some() {
            return Err(err(
                ErrorKind::Sort,
                head.span(),
                format!("`{name}` is not a function"),
            ));
        }
        if let Some((p, sorts)) = self.preds.get(name).cloned() {
            if sorts.len() != args.len() {
                return Err(err(
                    ErrorKind::Sort,
                    span,
                    format!(
                        "predicate `{name}` expects {}, got {}",
                        arguments(sorts.len()),
                        args.len()
                    ),
                ));
            }
            let mut xs = Vec::new();
            for (a, s) in args.iter().zip(&sorts) {
                xs.push(self.term_of_sort(a, s)?);
            }
            return Ok(Lowered::Formula(Formula::Atom(p, xs, span)));
        }
        if self.macros.contains_key(name) {
            return self.expand_macro(name, args, span);
        }
        let Some(op) = op_of(name) else {
            return Err(err(
                ErrorKind::Unknown,
                head.span(),
                format!("unknown function `{name}`"),
            ));
        };
        self.operator(op, name, args, span)
    }

    fn operator(
        &mut self,
        op: Op,
        name: &str,
        args: &[ast::Term],
        span: Span,
    ) -> Result<Lowered, Error> {
        let arity = |ok: bool, what: &str| -> Result<(), Error> {
            if ok {
                Ok(())
            } else {
                Err(err(
                    ErrorKind::Sort,
                    span,
                    format!("`{name}` expects {what}, got {}", args.len()),
                ))
            }
        };
        match op {
            Op::And | Op::Or | Op::Not | Op::Implies => {
                match op {
                    Op::Not => arity(args.len() == 1, "1 argument")?,
                    Op::Implies => arity(args.len() >= 2, "at least 2 arguments")?,
                    _ => {}
                }
                let fs = args
                    .iter()
                    .map(|a| self.formula(a))
                    .collect::<Result<Vec<_>, _>>()?;
                if fs.iter().all(|f| matches!(f, Formula::Constraint(_))) {
                    let ts = fs
                        .into_iter()
                        .map(|f| match f {
                            Formula::Constraint(t) => t,
                            _ => unreachable!(),
                        })
                        .collect();
                    return Ok(Lowered::Term(self.store.app(op, ts)));
                }
                Ok(Lowered::Formula(match op {
                    Op::And => Formula::And(fs),
                    Op::Or => Formula::Or(fs),
                    Op::Not => Formula::Not(Box::new(fs.into_iter().next().unwrap())),
                    _ => {
                        let mut it = fs.into_iter().rev();
                        let last = it.next().unwrap();
                        it.fold(last, |acc, a| Formula::Implies(Box::new(a), Box::new(acc)))
                    }
                }))
            }
            Op::Ite => {
                arity(args.len() == 3, "3 arguments")?;
                let c = self.term(&args[0])?;
                self.expect_sort(c, &Sort::Bool, args[0].span)?;
                let (a, b) = (self.lower(&args[1])?, self.lower(&args[2])?);
                match (a, b) {
                    (Lowered::Term(x), Lowered::Term(y)) => {
                        let (x, y) = self.unify(x, y, args[1].span, args[2].span)?;
                        Ok(Lowered::Term(self.store.ite(c, x, y)))
                    }
                    (a, b) => Ok(Lowered::Formula(Formula::Ite(
                        c,
                        Box::new(a.into_formula()),
                        Box::new(b.into_formula()),
                    ))),
                }
            }
            _ => {
                let xs = args
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<Vec<_>, _>>()?;
                self.typed_app(op, name, xs, args, span).map(Lowered::Term)
            }
        }
    }

    fn expect_sort(&self, x: TermId, s: &Sort, span: Span) -> Result<(), Error> {
        let got = self.store.sort(x);
        if got == *s {
            Ok(())
        } else {
            Err(err(
                ErrorKind::Sort,
                span,
                format!("expected {s}, found {got}"),
            ))
        }
    }

    /// Makes two terms the same sort (Int is promoted to Real).
    fn unify(&self, x: TermId, y: TermId, sx: Span, sy: Span) -> Result<(TermId, TermId), Error> {
        let (a, b) = (self.store.sort(x), self.store.sort(y));
        if a == b {
            return Ok((x, y));
        }
        match (&a, &b) {
            (Sort::Int, Sort::Real) => Ok((self.to_real(x), y)),
            (Sort::Real, Sort::Int) => Ok((x, self.to_real(y))),
            _ => Err(err(
                ErrorKind::Sort,
                (sx.start.min(sy.start)..sy.end.max(sx.end)).into(),
                format!("mismatched sorts {a} and {b}"),
            )),
        }
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Self {
        Span {
            start: r.start,
            end: r.end,
        }
    }
}
