//! The plan of one rule: its literals in an order that binds every variable before it is
//! read, as [`Step`]s over a row of bound values, with the rule's names and types checked.
//! Must not evaluate.

use super::ast::{self, AggKind, BinOp, CmpOp, ExprKind, Literal};
use super::{RuleError, Symbols};
use crate::analysis::ColumnType;
use std::cell::RefCell;
use std::collections::HashMap;

/// A declared relation.
#[derive(Clone, Debug)]
pub(super) struct Relation {
    pub name: String,
    pub columns: Vec<(String, ColumnType)>,
    /// Filled from the relation Hornbeam provides under the same name.
    pub input: bool,
    pub output: bool,
    /// Where it is declared (a byte offset in the file).
    pub at: usize,
}

/// An expression over a row (or, in an aggregate's value, over the aggregated atom's tuple).
#[derive(Clone, Debug)]
pub(super) enum Ex {
    Col(usize),
    Const(i64),
    Neg(Box<Ex>),
    Bin(BinOp, Box<Ex>, Box<Ex>),
    /// The concatenation of symbols.
    Cat(Vec<Ex>),
    /// A number's decimal text, as a symbol.
    ToString(Box<Ex>),
}

impl Ex {
    /// The value on `row`; `None` on overflow or division by zero (the row is dropped). New
    /// symbols (of `cat`, `to_string`) are interned in `symbols`.
    pub fn eval(&self, row: &[i64], symbols: &RefCell<Symbols>) -> Option<i64> {
        match self {
            Ex::Col(i) => Some(row[*i]),
            Ex::Const(c) => Some(*c),
            Ex::Neg(e) => e.eval(row, symbols)?.checked_neg(),
            Ex::Cat(parts) => {
                let mut text = String::new();
                for p in parts {
                    let id = p.eval(row, symbols)?;
                    text.push_str(&symbols.borrow().names[id as usize]);
                }
                Some(symbols.borrow_mut().intern(&text))
            }
            Ex::ToString(e) => {
                let n = e.eval(row, symbols)?;
                Some(symbols.borrow_mut().intern(&n.to_string()))
            }
            Ex::Bin(op, a, b) => {
                let (a, b) = (a.eval(row, symbols)?, b.eval(row, symbols)?);
                match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => a.checked_div(b),
                    BinOp::Rem => a.checked_rem(b),
                }
            }
        }
    }
}

/// What an atom's tuple must satisfy by itself: constants at positions, equal positions.
#[derive(Clone, Debug, Default)]
pub(super) struct Pattern {
    pub consts: Vec<(usize, i64)>,
    pub eqs: Vec<(usize, usize)>,
}

impl Pattern {
    pub fn matches(&self, t: &[i64]) -> bool {
        self.consts.iter().all(|&(i, c)| t[i] == c) && self.eqs.iter().all(|&(i, j)| t[i] == t[j])
    }
}

/// An atom matched against a row: the atom's positions `atom_key` must equal the row's
/// columns `row_key`.
#[derive(Clone, Debug)]
pub(super) struct Match {
    pub rel: usize,
    pub pattern: Pattern,
    pub row_key: Vec<usize>,
    pub atom_key: Vec<usize>,
}

/// One step of a rule's evaluation: each takes the rows so far and gives the next rows.
#[derive(Clone, Debug)]
pub(super) enum Step {
    /// Join with a positive atom; the atom's positions `fresh` are appended to the row.
    Join { m: Match, fresh: Vec<usize> },
    /// Keep the rows where the comparison holds.
    Filter(CmpOp, Ex, Ex),
    /// Append the expression's value.
    Bind(Ex),
    /// Keep the rows with no matching tuple of a relation of a lower stratum.
    Anti(Match),
    /// Append the aggregate over the matching tuples of a relation of a lower stratum (rows
    /// with no match get 0 for `count` and `sum` and are dropped for `min` and `max`).
    Agg {
        m: Match,
        kind: AggKind,
        value: Option<Ex>,
    },
}

/// A rule ready to run: the head's relation and arguments over the final row.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub head: usize,
    pub args: Vec<Ex>,
    pub steps: Vec<Step>,
    /// Where the rule starts, for messages.
    pub at: usize,
}

/// Plans one rule: binds variables to row columns as the literals are taken in order.
pub(super) struct Planner<'a> {
    pub src: &'a str,
    pub relations: &'a [Relation],
    pub index: &'a HashMap<String, usize>,
    pub symbols: &'a mut Symbols,
    /// Variable → (column, type).
    pub bound: HashMap<String, (usize, ColumnType)>,
    pub width: usize,
    pub steps: Vec<Step>,
}

impl Planner<'_> {
    fn err(&self, at: usize, m: impl Into<String>) -> RuleError {
        RuleError::at(self.src, at, m)
    }

    fn relation(&self, atom: &ast::Atom) -> Result<usize, RuleError> {
        let r = *self.index.get(&atom.rel).ok_or_else(|| {
            self.err(
                atom.at,
                format!(
                    "unknown relation `{}` (every relation needs a `.decl`)",
                    atom.rel
                ),
            )
        })?;
        let arity = self.relations[r].columns.len();
        if atom.args.len() != arity {
            return Err(self.err(
                atom.at,
                format!(
                    "`{}` has {arity} column(s), here it has {} argument(s)",
                    atom.rel,
                    atom.args.len()
                ),
            ));
        }
        Ok(r)
    }

    fn column_type(&self, r: usize, i: usize) -> ColumnType {
        self.relations[r].columns[i].1
    }

    fn type_error(&self, at: usize, what: &str, want: ColumnType, got: ColumnType) -> RuleError {
        self.err(
            at,
            format!(
                "{what} is a {}, but a {} is expected here",
                got.souffle(),
                want.souffle()
            ),
        )
    }

    /// The literals in order of binding: each positive atom, then every other literal as soon
    /// as its variables are bound; aggregates after all positive atoms.
    pub fn body(&mut self, body: &[Literal]) -> Result<(), RuleError> {
        let mut pending: Vec<&Literal> = Vec::new();
        for lit in body {
            match lit {
                Literal::Pos(atom) => {
                    self.join(atom)?;
                    self.flush(&mut pending, false)?;
                }
                other => {
                    pending.push(other);
                    self.flush(&mut pending, false)?;
                }
            }
        }
        self.flush(&mut pending, true)?;
        if let Some(lit) = pending.first() {
            let (at, name) = self.first_unbound(lit);
            return Err(self.err(
                at,
                format!(
                    "the variable `{name}` is not bound by a positive atom of the rule (every \
                     variable of a negation, comparison or head must be)"
                ),
            ));
        }
        Ok(())
    }

    fn first_unbound(&self, lit: &Literal) -> (usize, String) {
        let mut vars = Vec::new();
        match lit {
            Literal::Pos(a) | Literal::Neg(a) => a.args.iter().for_each(|e| e.vars(&mut vars)),
            Literal::Cmp(_, a, b) => {
                a.vars(&mut vars);
                b.vars(&mut vars);
            }
            Literal::Agg { var, .. } => vars.push(var.clone()),
        }
        vars.into_iter()
            .find(|(v, _)| !self.bound.contains_key(v))
            .map(|(v, at)| (at, v))
            .unwrap_or((0, String::new()))
    }

    fn ground(&self, e: &ast::Expr) -> bool {
        let mut vars = Vec::new();
        e.vars(&mut vars);
        vars.iter().all(|(v, _)| self.bound.contains_key(v))
    }

    fn flush(&mut self, pending: &mut Vec<&Literal>, last: bool) -> Result<(), RuleError> {
        loop {
            let mut progress = false;
            let mut k = 0;
            while k < pending.len() {
                if self.try_literal(pending[k], last)? {
                    pending.remove(k);
                    progress = true;
                } else {
                    k += 1;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    fn bind(&mut self, name: &str, ty: ColumnType) {
        self.bound.insert(name.to_string(), (self.width, ty));
        self.width += 1;
    }

    /// Emits the step of `lit` if its variables allow it now.
    fn try_literal(&mut self, lit: &Literal, last: bool) -> Result<bool, RuleError> {
        match lit {
            Literal::Pos(_) => unreachable!("positive atoms are joined in order"),
            Literal::Neg(atom) => {
                let ready = atom.args.iter().all(|e| self.ground(e));
                if ready {
                    let m = self.matching(atom, &mut Vec::new(), false)?;
                    self.steps.push(Step::Anti(m));
                }
                Ok(ready)
            }
            Literal::Cmp(op, a, b) => {
                for e in [a, b] {
                    if matches!(e.kind, ExprKind::Wild) {
                        return Err(self.err(e.at, "`_` stands only for an argument of an atom"));
                    }
                }
                let unbound_var = |e: &ast::Expr| match &e.kind {
                    ExprKind::Var(v) if !self.bound.contains_key(v) => Some(v.clone()),
                    _ => None,
                };
                match (self.ground(a), self.ground(b)) {
                    (true, true) => {
                        let (ea, ta) = self.expr(a)?;
                        let (eb, tb) = self.expr(b)?;
                        if ta != tb {
                            return Err(self.type_error(b.at, "this side", ta, tb));
                        }
                        if ta == ColumnType::Symbol && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                            return Err(
                                self.err(a.at, "symbols are compared with `=` and `!=` only")
                            );
                        }
                        self.steps.push(Step::Filter(*op, ea, eb));
                        Ok(true)
                    }
                    (false, true) | (true, false) if *op == CmpOp::Eq => {
                        let (var, e) = if self.ground(b) { (a, b) } else { (b, a) };
                        let Some(name) = unbound_var(var) else {
                            return Ok(false);
                        };
                        let (ex, ty) = self.expr(e)?;
                        self.steps.push(Step::Bind(ex));
                        self.bind(&name, ty);
                        Ok(true)
                    }
                    _ => Ok(false),
                }
            }
            Literal::Agg {
                at,
                var,
                kind,
                value,
                atom,
            } => {
                if !last {
                    return Ok(false);
                }
                let mut local = Vec::new();
                let m = self.matching(atom, &mut local, true)?;
                if self.relations[m.rel].columns.is_empty() && *kind != AggKind::Count {
                    return Err(self.err(*at, "nothing to aggregate"));
                }
                let value = match value {
                    None => None,
                    Some(e) => {
                        let mut vars = Vec::new();
                        e.vars(&mut vars);
                        for (v, vat) in &vars {
                            if !local.iter().any(|(l, _, _)| l == v) {
                                return Err(self.err(
                                    *vat,
                                    format!("`{v}` must be a variable of the aggregated atom, not bound outside it"),
                                ));
                            }
                        }
                        let cols: HashMap<String, (usize, ColumnType)> = local
                            .iter()
                            .map(|(v, pos, ty)| (v.clone(), (*pos, *ty)))
                            .collect();
                        let (ex, ty) = expr_over(self.src, e, &cols, self.symbols)?;
                        if ty != ColumnType::Number {
                            return Err(self.type_error(
                                e.at,
                                "the aggregated value",
                                ColumnType::Number,
                                ty,
                            ));
                        }
                        Some(ex)
                    }
                };
                self.steps.push(Step::Agg {
                    m,
                    kind: *kind,
                    value,
                });
                let col = self.width;
                self.width += 1;
                match self.bound.get(&var.0) {
                    Some(&(c, ty)) => {
                        if ty != ColumnType::Number {
                            return Err(self.type_error(
                                var.1,
                                "the variable",
                                ColumnType::Number,
                                ty,
                            ));
                        }
                        self.steps
                            .push(Step::Filter(CmpOp::Eq, Ex::Col(c), Ex::Col(col)));
                    }
                    None => {
                        self.bound.insert(var.0.clone(), (col, ColumnType::Number));
                    }
                }
                Ok(true)
            }
        }
    }

    /// How `atom`'s tuples meet the row: bound variables and expressions of bound variables
    /// are not allowed in atoms, only variables, constants and `_`. Unbound variables are
    /// pushed on `fresh` (name, position, type) with repeated ones as equalities; they are
    /// allowed only when `allow_fresh` (a negated atom must be ground).
    fn matching(
        &mut self,
        atom: &ast::Atom,
        fresh: &mut Vec<(String, usize, ColumnType)>,
        allow_fresh: bool,
    ) -> Result<Match, RuleError> {
        let rel = self.relation(atom)?;
        let mut m = Match {
            rel,
            pattern: Pattern::default(),
            row_key: Vec::new(),
            atom_key: Vec::new(),
        };
        for (i, arg) in atom.args.iter().enumerate() {
            let want = self.column_type(rel, i);
            match &arg.kind {
                ExprKind::Wild => {}
                ExprKind::Var(v) => {
                    if let Some(&(col, ty)) = self.bound.get(v) {
                        if ty != want {
                            return Err(self.type_error(arg.at, &format!("`{v}`"), want, ty));
                        }
                        m.row_key.push(col);
                        m.atom_key.push(i);
                    } else if let Some((_, j, ty)) = fresh.iter().find(|(f, _, _)| f == v) {
                        if *ty != want {
                            return Err(self.type_error(arg.at, &format!("`{v}`"), want, *ty));
                        }
                        m.pattern.eqs.push((i, *j));
                    } else if allow_fresh {
                        fresh.push((v.clone(), i, want));
                    } else {
                        unreachable!("negated atoms are planned once ground");
                    }
                }
                ExprKind::Num(_) | ExprKind::Str(_) => {
                    let (value, ty) = match &arg.kind {
                        ExprKind::Num(n) => (*n, ColumnType::Number),
                        ExprKind::Str(s) => (self.symbols.intern(s), ColumnType::Symbol),
                        _ => unreachable!("matched above"),
                    };
                    if want != ty {
                        return Err(self.type_error(arg.at, "this constant", want, ty));
                    }
                    m.pattern.consts.push((i, value));
                }
                ExprKind::Neg(_) | ExprKind::Bin(..) | ExprKind::Call(..) => {
                    return Err(self.err(
                        arg.at,
                        "arithmetic inside a body atom is not supported: bind it first \
                         (`y = x + 1, r(y)`)",
                    ))
                }
            }
        }
        Ok(m)
    }

    fn join(&mut self, atom: &ast::Atom) -> Result<(), RuleError> {
        let mut fresh = Vec::new();
        let m = self.matching(atom, &mut fresh, true)?;
        let positions = fresh.iter().map(|(_, i, _)| *i).collect();
        for (v, _, ty) in fresh {
            self.bind(&v, ty);
        }
        self.steps.push(Step::Join {
            m,
            fresh: positions,
        });
        Ok(())
    }

    fn expr(&mut self, e: &ast::Expr) -> Result<(Ex, ColumnType), RuleError> {
        expr_over(self.src, e, &self.bound, self.symbols)
    }

    pub fn head(&mut self, head: usize, atom: &ast::Atom) -> Result<Vec<Ex>, RuleError> {
        self.relation(atom)?;
        let mut args = Vec::new();
        for (i, e) in atom.args.iter().enumerate() {
            if matches!(e.kind, ExprKind::Wild) {
                return Err(self.err(e.at, "`_` in a head: every head argument needs a value"));
            }
            let mut vars = Vec::new();
            e.vars(&mut vars);
            if let Some((v, at)) = vars.iter().find(|(v, _)| !self.bound.contains_key(v)) {
                return Err(self.err(
                    *at,
                    format!("the head variable `{v}` is not bound by a positive atom of the body"),
                ));
            }
            let (ex, ty) = self.expr(e)?;
            let want = self.column_type(head, i);
            if ty != want {
                return Err(self.type_error(e.at, "this argument", want, ty));
            }
            args.push(ex);
        }
        Ok(args)
    }
}

/// `e` as an [`Ex`] over the columns of `bound` (every variable of `e` is bound), with its type.
fn expr_over(
    src: &str,
    e: &ast::Expr,
    bound: &HashMap<String, (usize, ColumnType)>,
    symbols: &mut Symbols,
) -> Result<(Ex, ColumnType), RuleError> {
    let number = |src: &str, inner: &ast::Expr, ex: (Ex, ColumnType)| {
        if ex.1 == ColumnType::Symbol {
            Err(RuleError::at(src, inner.at, "arithmetic on a symbol"))
        } else {
            Ok(ex.0)
        }
    };
    Ok(match &e.kind {
        ExprKind::Var(v) => {
            let (col, ty) = bound[v];
            (Ex::Col(col), ty)
        }
        ExprKind::Wild => {
            return Err(RuleError::at(
                src,
                e.at,
                "`_` stands only for an argument of an atom",
            ))
        }
        ExprKind::Num(n) => (Ex::Const(*n), ColumnType::Number),
        ExprKind::Str(s) => (Ex::Const(symbols.intern(s)), ColumnType::Symbol),
        ExprKind::Neg(a) => {
            let inner = expr_over(src, a, bound, symbols)?;
            (
                Ex::Neg(Box::new(number(src, a, inner)?)),
                ColumnType::Number,
            )
        }
        ExprKind::Call(name, args) => {
            let mut parts = Vec::new();
            for a in args {
                parts.push(expr_over(src, a, bound, symbols)?);
            }
            let want = if name == "cat" {
                ColumnType::Symbol
            } else {
                ColumnType::Number
            };
            if name == "to_string" && parts.len() != 1 {
                return Err(RuleError::at(src, e.at, "`to_string` takes one number"));
            }
            for ((_, ty), a) in parts.iter().zip(args) {
                if *ty != want {
                    return Err(RuleError::at(
                        src,
                        a.at,
                        format!(
                            "this argument of `{name}` is a {}, but a {} is expected",
                            ty.souffle(),
                            want.souffle()
                        ),
                    ));
                }
            }
            let mut exs = parts.into_iter().map(|(ex, _)| ex);
            let ex = if name == "cat" {
                Ex::Cat(exs.collect())
            } else {
                Ex::ToString(Box::new(exs.next().expect("one argument")))
            };
            (ex, ColumnType::Symbol)
        }
        ExprKind::Bin(op, a, b) => {
            let l = expr_over(src, a, bound, symbols)?;
            let r = expr_over(src, b, bound, symbols)?;
            (
                Ex::Bin(
                    *op,
                    Box::new(number(src, a, l)?),
                    Box::new(number(src, b, r)?),
                ),
                ColumnType::Number,
            )
        }
    })
}
