//! Ground evaluation of quantifier-free terms under an assignment of values to variables.
//!
//! This is the independent arithmetic used to replay counterexample derivations: it does not
//! call an SMT solver. Integer `div`/`mod` follow SMT-LIB (Euclidean); division by zero and
//! quantifiers are reported as errors, never guessed.

use super::{CtorId, Op, Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

/// A ground value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// An integer.
    Int(BigInt),
    /// A real.
    Real(BigRational),
    /// An array: a default value and finitely many exceptions.
    Array(Box<Value>, BTreeMap<Value, Value>),
    /// A datatype value: a constructor (with its name, for printing) applied to field values.
    Ctor(CtorId, Arc<str>, Vec<Value>),
}

/// Why a term could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A free variable without a value.
    #[error("variable `{0}` has no value")]
    Unbound(String),
    /// Division or remainder by zero (unspecified in SMT-LIB).
    #[error("division by zero")]
    DivisionByZero,
    /// Quantified subterm.
    #[error("cannot evaluate a quantifier")]
    Quantifier,
    /// Operands of unexpected kinds (an ill-sorted term).
    #[error("ill-sorted operands for `{0:?}`")]
    IllSorted(Op),
    /// A selector applied to a value built by another constructor (unspecified in SMT-LIB).
    #[error("selector `{0}` applied to a value of another constructor")]
    WrongConstructor(String),
}

impl Value {
    /// The value as a rational, for Int and Real values.
    pub fn as_rational(&self) -> Option<BigRational> {
        match self {
            Value::Int(i) => Some(BigRational::from_integer(i.clone())),
            Value::Real(r) => Some(r.clone()),
            _ => None,
        }
    }

    /// A default value of a sort (false, 0, the constant-zero array). Datatypes need their
    /// declarations: use [`TermStore::default_value`]; here they get `false`.
    pub fn default_of(sort: &Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::Int => Value::Int(BigInt::zero()),
            Sort::Real => Value::Real(BigRational::zero()),
            Sort::Array(_, e) => Value::Array(Box::new(Value::default_of(e)), BTreeMap::new()),
            Sort::Datatype(_) => Value::Bool(false),
        }
    }

    fn normalised_array(default: Value, mut entries: BTreeMap<Value, Value>) -> Value {
        entries.retain(|_, v| *v != default);
        Value::Array(Box::new(default), entries)
    }
}

impl Value {
    /// SMT-LIB text of the value, which has sort `sort` (needed to name constant arrays).
    pub fn to_smtlib(&self, sort: &Sort) -> String {
        match (self, sort) {
            (Value::Array(d, entries), Sort::Array(i, e)) => {
                let mut s = format!("((as const {sort}) {})", d.to_smtlib(e));
                for (k, v) in entries {
                    s = format!("(store {s} {} {})", k.to_smtlib(i), v.to_smtlib(e));
                }
                s
            }
            (Value::Ctor(..), _) => self.to_string(),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Value {
    /// Scalars print as SMT-LIB literals; arrays need their sort: see [`Value::to_smtlib`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) if i.is_negative() => write!(f, "(- {})", -i),
            Value::Int(i) => write!(f, "{i}"),
            Value::Real(r) => f.write_str(&super::print::real_literal(r)),
            Value::Array(d, entries) => {
                write!(f, "(array default {d}")?;
                for (k, v) in entries {
                    write!(f, " ({k} {v})")?;
                }
                f.write_str(")")
            }
            Value::Ctor(_, name, args) if args.is_empty() => {
                f.write_str(&super::print::symbol(name))
            }
            Value::Ctor(_, name, args) => {
                write!(f, "({}", super::print::symbol(name))?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// SMT-LIB integer division: the unique q with a = q*b + r and 0 <= r < |b|.
pub(crate) fn euclid_div(a: &BigInt, b: &BigInt) -> BigInt {
    let (q, r) = a.div_mod_floor(b);
    if r.is_negative() || (b.is_negative() && !r.is_zero()) {
        // div_mod_floor gives r with the sign of b; fix to 0 <= r < |b|
        q + 1
    } else {
        q
    }
}

/// SMT-LIB remainder: 0 <= a mod b < |b|.
pub(crate) fn euclid_mod(a: &BigInt, b: &BigInt) -> BigInt {
    a - b * euclid_div(a, b)
}

impl TermStore {
    /// A ground term equal to `v`, of sort `sort` (a value read back into a formula).
    pub fn value_term(&self, v: &Value, sort: &Sort) -> TermId {
        match (v, sort) {
            (Value::Bool(b), _) => self.bool(*b),
            (Value::Int(i), _) => self.int(i.clone()),
            (Value::Real(r), _) => self.real(r.clone()),
            (Value::Array(d, entries), Sort::Array(i, e)) => {
                let mut t = self.app(Op::ConstArray(sort.clone()), vec![self.value_term(d, e)]);
                for (k, x) in entries {
                    let kt = self.value_term(k, i);
                    let xt = self.value_term(x, e);
                    t = self.app(Op::Store, vec![t, kt, xt]);
                }
                t
            }
            (Value::Ctor(c, _, fields), _) => {
                let decl = self.ctor(*c);
                let args = fields
                    .iter()
                    .zip(&decl.fields)
                    .map(|(x, (_, s))| self.value_term(x, s))
                    .collect();
                self.app(Op::Ctor(*c), args)
            }
            // An array value for a non-array sort cannot come from a well-sorted model.
            (Value::Array(..), _) => self.ff(),
        }
    }

    /// Evaluates a quantifier-free term under `env`.
    pub fn eval(&self, t: TermId, env: &HashMap<VarId, Value>) -> Result<Value, EvalError> {
        let mut memo = HashMap::new();
        self.eval_memo(t, env, &mut memo)
    }

    /// [`TermStore::eval`] with the memo kept by the caller, for many evaluations under one
    /// `env`: the values of subterms that earlier calls computed are reused. The memo is only
    /// valid for the `env` it was filled under.
    pub fn eval_memo(
        &self,
        t: TermId,
        env: &HashMap<VarId, Value>,
        memo: &mut HashMap<TermId, Value>,
    ) -> Result<Value, EvalError> {
        if let Some(v) = memo.get(&t) {
            return Ok(v.clone());
        }
        let node = self.get(t);
        let v = match &node.term {
            Term::Var(x) => env
                .get(x)
                .cloned()
                .ok_or_else(|| EvalError::Unbound(self.var_name(*x).to_string()))?,
            Term::Bool(b) => Value::Bool(*b),
            Term::Int(i) => Value::Int(i.clone()),
            Term::Real(r) => Value::Real(r.clone()),
            Term::Quant(..) => return Err(EvalError::Quantifier),
            Term::App(op, args) => {
                // Lazy connectives first, so that an irrelevant division by zero does not matter.
                match op {
                    Op::And | Op::Or => {
                        let stop = *op == Op::Or;
                        let mut result = Value::Bool(!stop);
                        for &a in args.iter() {
                            if self.eval_memo(a, env, memo)? == Value::Bool(stop) {
                                result = Value::Bool(stop);
                                break;
                            }
                        }
                        result
                    }
                    Op::Ite => match self.eval_memo(args[0], env, memo)? {
                        Value::Bool(true) => self.eval_memo(args[1], env, memo)?,
                        Value::Bool(false) => self.eval_memo(args[2], env, memo)?,
                        _ => return Err(EvalError::IllSorted(Op::Ite)),
                    },
                    _ => {
                        let vals = args
                            .iter()
                            .map(|&a| self.eval_memo(a, env, memo))
                            .collect::<Result<Vec<_>, _>>()?;
                        self.apply_app(op, vals, &node.sort)?
                    }
                }
            }
        };
        memo.insert(t, v.clone());
        Ok(v)
    }

    /// Evaluates a quantifier-free term under a partial assignment: `Ok(None)` when the value
    /// depends on a variable `env` does not give. Connectives are lazy (a false conjunct makes
    /// a conjunction false whatever the others are; an `ite` whose branches agree needs no
    /// condition), so a term can have a value although some of its variables have none.
    pub fn eval_partial(
        &self,
        t: TermId,
        env: &HashMap<VarId, Value>,
    ) -> Result<Option<Value>, EvalError> {
        let mut memo = HashMap::new();
        self.partial_memo(t, env, &mut memo)
    }

    fn partial_memo(
        &self,
        t: TermId,
        env: &HashMap<VarId, Value>,
        memo: &mut HashMap<TermId, Option<Value>>,
    ) -> Result<Option<Value>, EvalError> {
        if let Some(v) = memo.get(&t) {
            return Ok(v.clone());
        }
        let node = self.get(t);
        let v = match &node.term {
            Term::Var(x) => env.get(x).cloned(),
            Term::Bool(b) => Some(Value::Bool(*b)),
            Term::Int(i) => Some(Value::Int(i.clone())),
            Term::Real(r) => Some(Value::Real(r.clone())),
            Term::Quant(..) => return Err(EvalError::Quantifier),
            Term::App(op, args) => match op {
                Op::And | Op::Or => {
                    let stop = *op == Op::Or;
                    let mut open = false;
                    let mut decided = false;
                    for &a in args.iter() {
                        match self.partial_memo(a, env, memo)? {
                            Some(Value::Bool(b)) if b == stop => {
                                decided = true;
                                break;
                            }
                            Some(Value::Bool(_)) => {}
                            Some(_) => return Err(EvalError::IllSorted(op.clone())),
                            None => open = true,
                        }
                    }
                    match (decided, open) {
                        (true, _) => Some(Value::Bool(stop)),
                        (false, true) => None,
                        (false, false) => Some(Value::Bool(!stop)),
                    }
                }
                Op::Implies => {
                    let a = self.partial_memo(args[0], env, memo)?;
                    let b = self.partial_memo(args[1], env, memo)?;
                    match (a, b) {
                        (Some(Value::Bool(false)), _) | (_, Some(Value::Bool(true))) => {
                            Some(Value::Bool(true))
                        }
                        (Some(Value::Bool(true)), Some(Value::Bool(false))) => {
                            Some(Value::Bool(false))
                        }
                        (Some(a), Some(b)) => Some(apply(op, vec![a, b], &node.sort)?),
                        _ => None,
                    }
                }
                Op::Ite => match self.partial_memo(args[0], env, memo)? {
                    Some(Value::Bool(true)) => self.partial_memo(args[1], env, memo)?,
                    Some(Value::Bool(false)) => self.partial_memo(args[2], env, memo)?,
                    Some(_) => return Err(EvalError::IllSorted(Op::Ite)),
                    None => {
                        let a = self.partial_memo(args[1], env, memo)?;
                        let b = self.partial_memo(args[2], env, memo)?;
                        a.filter(|a| Some(a) == b.as_ref())
                    }
                },
                _ => {
                    let mut vals = Vec::with_capacity(args.len());
                    for &a in args.iter() {
                        match self.partial_memo(a, env, memo)? {
                            Some(v) => vals.push(v),
                            None => {
                                memo.insert(t, None);
                                return Ok(None);
                            }
                        }
                    }
                    Some(self.apply_app(op, vals, &node.sort)?)
                }
            },
        };
        memo.insert(t, v.clone());
        Ok(v)
    }

    /// An operator applied to the values of its operands (all but the lazy connectives).
    fn apply_app(&self, op: &Op, mut vals: Vec<Value>, sort: &Sort) -> Result<Value, EvalError> {
        Ok(match op {
            Op::Ctor(c) => Value::Ctor(*c, self.ctor(*c).name, vals),
            Op::Selector(c, i) => match vals.swap_remove(0) {
                Value::Ctor(d, _, mut fields) if d == *c && (*i as usize) < fields.len() => {
                    fields.swap_remove(*i as usize)
                }
                Value::Ctor(..) => {
                    let name = self.ctor(*c).fields[*i as usize].0.to_string();
                    return Err(EvalError::WrongConstructor(name));
                }
                _ => return Err(EvalError::IllSorted(op.clone())),
            },
            Op::Tester(c) => match &vals[0] {
                Value::Ctor(d, ..) => Value::Bool(d == c),
                _ => return Err(EvalError::IllSorted(op.clone())),
            },
            Op::Size(_) => match self.value_size(&vals[0]) {
                Some(n) => Value::Int(n.into()),
                None => return Err(EvalError::IllSorted(op.clone())),
            },
            _ => apply(op, vals, sort)?,
        })
    }
}

fn apply(op: &Op, vals: Vec<Value>, sort: &Sort) -> Result<Value, EvalError> {
    let ill = || EvalError::IllSorted(op.clone());
    let bool_of = |v: &Value| match v {
        Value::Bool(b) => Ok(*b),
        _ => Err(ill()),
    };
    let num = |v: &Value| v.as_rational().ok_or_else(ill);
    let int = |v: &Value| match v {
        Value::Int(i) => Ok(i.clone()),
        _ => Err(ill()),
    };
    let out_num = |r: BigRational| match sort {
        Sort::Int => Value::Int(r.to_integer()),
        _ => Value::Real(r),
    };
    Ok(match op {
        Op::Not => Value::Bool(!bool_of(&vals[0])?),
        Op::Implies => Value::Bool(!bool_of(&vals[0])? || bool_of(&vals[1])?),
        Op::Xor => Value::Bool(bool_of(&vals[0])? != bool_of(&vals[1])?),
        Op::Eq => Value::Bool(vals.windows(2).all(|w| values_equal(&w[0], &w[1]))),
        Op::Distinct => {
            let mut ok = true;
            for i in 0..vals.len() {
                for j in i + 1..vals.len() {
                    ok &= !values_equal(&vals[i], &vals[j]);
                }
            }
            Value::Bool(ok)
        }
        Op::Add => out_num(vals.iter().map(num).sum::<Result<BigRational, _>>()?),
        Op::Mul => out_num(vals.iter().map(num).product::<Result<BigRational, _>>()?),
        Op::Sub if vals.len() == 1 => out_num(-num(&vals[0])?),
        Op::Sub => {
            let mut acc = num(&vals[0])?;
            for v in &vals[1..] {
                acc -= num(v)?;
            }
            out_num(acc)
        }
        Op::Neg => out_num(-num(&vals[0])?),
        Op::Abs => out_num(num(&vals[0])?.abs()),
        Op::RealDiv => {
            let d = num(&vals[1])?;
            if d.is_zero() {
                return Err(EvalError::DivisionByZero);
            }
            Value::Real(num(&vals[0])? / d)
        }
        Op::IntDiv | Op::Mod => {
            let (a, b) = (int(&vals[0])?, int(&vals[1])?);
            if b.is_zero() {
                return Err(EvalError::DivisionByZero);
            }
            Value::Int(if *op == Op::IntDiv {
                euclid_div(&a, &b)
            } else {
                euclid_mod(&a, &b)
            })
        }
        Op::Le | Op::Lt | Op::Ge | Op::Gt => {
            let mut ok = true;
            for w in vals.windows(2) {
                let (a, b) = (num(&w[0])?, num(&w[1])?);
                ok &= match op {
                    Op::Le => a <= b,
                    Op::Lt => a < b,
                    Op::Ge => a >= b,
                    _ => a > b,
                };
            }
            Value::Bool(ok)
        }
        Op::ToReal => Value::Real(num(&vals[0])?),
        Op::ToInt => Value::Int(num(&vals[0])?.floor().to_integer()),
        Op::IsInt => Value::Bool(num(&vals[0])?.is_integer()),
        Op::Select => match &vals[0] {
            Value::Array(d, entries) => entries.get(&vals[1]).cloned().unwrap_or((**d).clone()),
            _ => return Err(ill()),
        },
        Op::Store => match &vals[0] {
            Value::Array(d, entries) => {
                let mut entries = entries.clone();
                entries.insert(vals[1].clone(), vals[2].clone());
                Value::normalised_array((**d).clone(), entries)
            }
            _ => return Err(ill()),
        },
        Op::ConstArray(_) => Value::Array(Box::new(vals[0].clone()), BTreeMap::new()),
        Op::And
        | Op::Or
        | Op::Ite
        | Op::Ctor(_)
        | Op::Selector(..)
        | Op::Tester(_)
        | Op::Size(_) => {
            unreachable!("handled in eval_memo and apply_app")
        }
    })
}

/// Equality of values; Int and Real values compare numerically (mixed terms only arise from
/// solvers' models).
fn values_equal(a: &Value, b: &Value) -> bool {
    match (a.as_rational(), b.as_rational()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euclidean_division_matches_smtlib() {
        let cases = [
            (7, 2, 3, 1),
            (-7, 2, -4, 1),
            (7, -2, -3, 1),
            (-7, -2, 4, 1),
            (6, 3, 2, 0),
        ];
        for (a, b, q, r) in cases {
            let (a, b) = (BigInt::from(a), BigInt::from(b));
            assert_eq!(euclid_div(&a, &b), BigInt::from(q), "{a} div {b}");
            assert_eq!(euclid_mod(&a, &b), BigInt::from(r), "{a} mod {b}");
        }
    }

    #[test]
    fn partial_evaluation_decides_what_the_known_values_decide() {
        let store = TermStore::new();
        let x = store.new_var("x", Sort::Int);
        let y = store.new_var("y", Sort::Int);
        let (tx, ty) = (store.var(x), store.var(y));
        let env: HashMap<VarId, Value> = [(x, Value::Int(BigInt::from(3)))].into();
        let ev = |t| store.eval_partial(t, &env).expect("evaluates");
        // x = 3 is known; y is not.
        let x_is_3 = store.eq(tx, store.int(3));
        let y_pos = store.app(Op::Gt, vec![ty, store.int(0)]);
        assert_eq!(
            ev(store.app(Op::Add, vec![tx, store.int(1)])),
            Some(Value::Int(4.into()))
        );
        assert_eq!(ev(y_pos), None);
        // A false conjunct or a true disjunct decides whatever y is; otherwise y is needed.
        let not_x_is_3 = store.not(x_is_3);
        assert_eq!(ev(store.and([not_x_is_3, y_pos])), Some(Value::Bool(false)));
        assert_eq!(ev(store.or([x_is_3, y_pos])), Some(Value::Bool(true)));
        assert_eq!(ev(store.and([x_is_3, y_pos])), None);
        assert_eq!(
            ev(store.app(Op::Implies, vec![not_x_is_3, y_pos])),
            Some(Value::Bool(true))
        );
        // An ite whose condition is unknown has a value when both branches agree.
        let same = store.app(Op::Ite, vec![y_pos, tx, store.int(3)]);
        assert_eq!(ev(same), Some(Value::Int(3.into())));
        let differ = store.app(Op::Ite, vec![y_pos, tx, store.int(4)]);
        assert_eq!(ev(differ), None);
    }
}
