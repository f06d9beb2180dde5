//! A concrete interpreter of the resolved subset, used to confirm counterexamples: it runs the
//! program with given nondet values (per call site, in order) and says whether the error is
//! reached. It follows C's semantics, not the CHC encoding, so an over-approximation in the
//! encoding cannot turn into a wrong `unsafe`. Undefined behaviour ends the execution (the
//! policy of the README, which the encoding follows): signed overflow (`INT_MIN / -1` and
//! `INT_MIN % -1` included), left shifts of negative values, division by zero and shift
//! amounts outside `0..width` stop the run without a verdict, as do the step, call depth and
//! nesting budgets (the last bounds the interpreter's recursion, so a hostile program cannot
//! overflow its stack). Where C leaves a value open (an uninitialised local is a nondet site;
//! a function ending without `return` gives 0, one of the values the encoding allows), the run
//! picks one, so every run is an execution the encoding also has. Arrays (`interp/array.rs`):
//! an access with an index outside its dimension, or a variable-length array of a
//! non-positive size, is undefined behaviour too; the elements of an uninitialised array are
//! picked one by one when first read (given values, else the chooser's).
//!
//! Must not: use terms, clauses or a solver.

use super::ast::{BinOp, Span};
use super::cfa::{LocKind, Op};
use super::ir::{IExpr, IExprKind, VarRef};
use super::program::Program;
use super::trace::NondetValue;
use super::types::CType;
use array::ArrayVal;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The error location was reached.
    Error,
    /// The run ended without reaching the error (the reason says how).
    NoError(String),
    /// The run could not be completed (a budget ran out, a form the interpreter does not run).
    Stuck(String),
    /// The run performed an operation whose behaviour is undefined (an overflow, an index out
    /// of bounds, or, where the property leaves it undecided, an invalid dereference or free):
    /// it ends there, without a verdict.
    Undefined(String),
    /// The run showed the front end's points-to sets incomplete: a dereference lowered as
    /// invalid reached an address inside an object (see [`Program::invalid_fn`]). The
    /// clauses may then miss executions: a bug of the front end, never an answer.
    Gap(String),
}

/// Limits of a run.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Statements and expressions evaluated.
    pub steps: u64,
    /// Call depth.
    pub depth: usize,
    /// Statements, expressions and calls being evaluated at once (the interpreter's recursion
    /// depth: a deep expression around a recursive call multiplies it). The caller's stack
    /// must hold this many frames of the interpreter, a few hundred bytes each.
    pub nesting: usize,
    /// When the run stops without a verdict, whatever its steps (looked at every
    /// [`DEADLINE_STRIDE`] steps).
    pub deadline: Option<Instant>,
}

/// How many steps a run makes between two looks at its [`Budget::deadline`].
pub const DEADLINE_STRIDE: u64 = 1 << 14;

impl Default for Budget {
    fn default() -> Self {
        Budget {
            steps: 20_000_000,
            deadline: None,
            depth: 20_000,
            nesting: NESTING,
        }
    }
}

/// The default [`Budget::nesting`]: within the 512 MB stack `verify` runs on even in a debug
/// build (about 6 KB a level there, 0.4 KB in a release build).
pub const NESTING: usize = 60_000;

mod array;
mod heap;
pub mod sched;

pub use heap::Violation;

type Run<T> = Result<T, Outcome>;

/// Where nondet values come from once the given ones are used up.
pub trait Chooser {
    /// A value of type `ty` for the nondet site `site`.
    fn choose(&mut self, site: usize, ty: CType) -> BigInt;
}

/// Always zero.
pub struct Zeros;

impl Chooser for Zeros {
    fn choose(&mut self, _: usize, _: CType) -> BigInt {
        BigInt::zero()
    }
}

struct Machine<'a> {
    p: &'a Program,
    globals: Vec<BigInt>,
    nondet: HashMap<usize, VecDeque<BigInt>>,
    chooser: &'a mut dyn Chooser,
    consumed: Vec<NondetValue>,
    /// Given values of uninitialised arrays' elements, by (site, instance, element).
    elements: HashMap<(usize, usize, Option<BigInt>), BigInt>,
    /// Per site, how many uninitialised arrays its declaration has made.
    instances: HashMap<usize, usize>,
    /// The arrays of each active call (by local), innermost last.
    frames: Vec<HashMap<usize, ArrayVal>>,
    /// The global arrays.
    global_arrays: HashMap<usize, ArrayVal>,
    /// The elements being updated (array, element number), innermost last.
    current: Vec<(VarRef, BigInt)>,
    error_at: Option<Span>,
    /// The memory violation reached (`interp/heap.rs`).
    violation: Option<Violation>,
    budget: Budget,
    steps: u64,
    depth: usize,
    nesting: usize,
    line_of: &'a dyn Fn(usize) -> usize,
}

/// Runs `main` with the nondet values given per site (missing values are 0, or the nearest
/// value of the type). `line_of` maps byte offsets to lines for messages.
pub fn run(
    p: &Program,
    nondet: HashMap<usize, VecDeque<BigInt>>,
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> Outcome {
    run_with(p, nondet, &mut Zeros, budget, line_of).0
}

/// Like [`run`], with a chooser for the values not given; also returns the nondet values
/// consumed, in order, as (site, value).
pub fn run_with(
    p: &Program,
    nondet: HashMap<usize, VecDeque<BigInt>>,
    chooser: &mut dyn Chooser,
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> (Outcome, Vec<NondetValue>) {
    let r = run_traced(p, nondet, chooser, budget, line_of);
    (r.outcome, r.consumed)
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct Finished {
    /// How it ended.
    pub outcome: Outcome,
    /// The nondet values consumed, in order (the elements of uninitialised arrays as they
    /// are first read).
    pub consumed: Vec<NondetValue>,
    /// With [`Outcome::Error`]: the error call reached (`reach_error()`; for a failing
    /// `__VERIFIER_assert(c)`, the error call of its definition in the program, else the
    /// assertion).
    pub error_at: Option<Span>,
    /// With [`Outcome::Error`] under a memory property: the violation.
    pub violation: Option<Violation>,
}

impl Finished {
    /// Where the run reached the error (the byte offset of the violation under a memory
    /// property, else of the error call), when it ended there at a known place.
    pub fn reached(&self) -> Option<usize> {
        match self.outcome {
            Outcome::Error => self
                .violation
                .as_ref()
                .map(|x| x.at)
                .or(self.error_at.map(|s| s.start)),
            _ => None,
        }
    }
}

/// Like [`run_with`], also saying where the error was reached.
pub fn run_traced(
    p: &Program,
    nondet: HashMap<usize, VecDeque<BigInt>>,
    chooser: &mut dyn Chooser,
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> Finished {
    run_full(p, nondet, HashMap::new(), chooser, budget, line_of)
}

pub use array::run_given;

fn run_full(
    p: &Program,
    nondet: HashMap<usize, VecDeque<BigInt>>,
    elements: HashMap<(usize, usize, Option<BigInt>), BigInt>,
    chooser: &mut dyn Chooser,
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> Finished {
    let mut m = Machine::new(p, nondet, elements, chooser, budget, line_of);
    let nparams = p.functions[p.main].params;
    let args = (0..nparams).map(|_| BigInt::zero()).collect();
    let outcome = match m.call(p.main, args) {
        Ok(_) => Outcome::NoError("main returned".to_owned()),
        Err(o) => o,
    };
    m.finish(outcome)
}

impl<'a> Machine<'a> {
    /// A machine at the start of a run: globals initialised, nothing called yet.
    fn new(
        p: &'a Program,
        nondet: HashMap<usize, VecDeque<BigInt>>,
        elements: HashMap<(usize, usize, Option<BigInt>), BigInt>,
        chooser: &'a mut dyn Chooser,
        budget: Budget,
        line_of: &'a dyn Fn(usize) -> usize,
    ) -> Self {
        Machine {
            p,
            globals: p.global_init.clone(),
            nondet,
            chooser,
            consumed: vec![],
            elements,
            instances: HashMap::new(),
            frames: vec![],
            global_arrays: array::globals(p),
            current: vec![],
            error_at: None,
            violation: None,
            budget,
            steps: 0,
            depth: 0,
            nesting: 0,
            line_of,
        }
    }

    /// What the run that ended with `outcome` leaves.
    fn finish(self, outcome: Outcome) -> Finished {
        Finished {
            error_at: self.error_at.filter(|_| outcome == Outcome::Error),
            violation: self.violation.filter(|_| outcome == Outcome::Error),
            outcome,
            consumed: self.consumed,
        }
    }
}

impl Machine<'_> {
    fn tick(&mut self) -> Run<()> {
        self.steps += 1;
        if self.steps > self.budget.steps {
            return Err(Outcome::Stuck("step budget exhausted".to_owned()));
        }
        if self.steps.is_multiple_of(DEADLINE_STRIDE)
            && self.budget.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Err(Outcome::Stuck("time budget exhausted".to_owned()));
        }
        Ok(())
    }

    /// An undefined operation: the execution ends there, without a verdict.
    fn ub(&self, what: &str, offset: usize) -> Outcome {
        Outcome::Undefined(format!(
            "undefined behaviour ({what}) at line {}",
            (self.line_of)(offset)
        ))
    }

    /// Runs function `f`'s CFA from its entry to its exit.
    fn call(&mut self, f: usize, args: Vec<BigInt>) -> Run<BigInt> {
        self.depth += 1;
        if self.depth > self.budget.depth {
            return Err(Outcome::Stuck("call depth budget exhausted".to_owned()));
        }
        self.enter()?;
        if Some(f) == self.p.invalid_fn {
            if let Some(a) = args.first() {
                self.check_invalid(a)?;
            }
        }
        let fun = &self.p.functions[f];
        let cfa = &fun.cfa;
        let mut locals: Vec<BigInt> = vec![BigInt::zero(); fun.locals.len()];
        for (i, a) in args.into_iter().enumerate() {
            locals[i] = a;
        }
        self.frames.push(HashMap::new());
        let mut at = cfa.entry;
        let mut value = BigInt::zero();
        while at != cfa.exit {
            self.tick()?;
            let loc = cfa.loc(at);
            at = match *cfa.out(at) {
                [] if at == cfa.error && Some(f) == self.p.heap.violation_fn => {
                    return Err(self.memory_violation(&locals));
                }
                [] if at == cfa.error => return Err(Outcome::Error),
                [] => {
                    let what = match loc.kind {
                        LocKind::Abort => "abort",
                        _ => "end of execution",
                    };
                    return Err(Outcome::NoError(format!(
                        "{what} at line {}",
                        (self.line_of)(loc.span.start)
                    )));
                }
                [e] => {
                    let e = cfa.edge(e);
                    if e.to == cfa.error {
                        self.error_at = Some(e.span);
                    }
                    match &e.op {
                        Op::Skip => {}
                        Op::Expr(x) => {
                            self.expr(f, x, &mut locals)?;
                        }
                        Op::Init(r, init) => {
                            let v = match init {
                                Some(x) => self.expr(f, x, &mut locals)?,
                                None => BigInt::zero(),
                            };
                            self.set(*r, v, &mut locals);
                        }
                        Op::Assume(c, holds) => {
                            if self.truth(f, c, &mut locals)? != *holds {
                                return Err(Outcome::NoError(format!(
                                    "assumption at line {} failed",
                                    (self.line_of)(e.span.start)
                                )));
                            }
                        }
                        Op::Thread(_) => {
                            return Err(Outcome::Stuck(format!(
                                "a thread operation at line {} outside the scheduler",
                                (self.line_of)(e.span.start)
                            )))
                        }
                        Op::Return(x) => {
                            value = match x {
                                Some(x) => self.expr(f, x, &mut locals)?,
                                None => BigInt::zero(),
                            };
                        }
                    }
                    e.to
                }
                [a, b] => {
                    let (a, b) = (cfa.edge(a), cfa.edge(b));
                    let Op::Assume(c, true) = &a.op else {
                        unreachable!("a CFA location with two edges is a branch")
                    };
                    if self.truth(f, c, &mut locals)? {
                        a.to
                    } else {
                        b.to
                    }
                }
                _ => unreachable!("a CFA location has at most two edges"),
            };
        }
        self.frames.pop();
        self.nesting -= 1;
        self.depth -= 1;
        Ok(value)
    }

    fn truth(&mut self, f: usize, e: &IExpr, locals: &mut Vec<BigInt>) -> Run<bool> {
        Ok(!self.expr(f, e, locals)?.is_zero())
    }

    /// Enters one more level of the interpreter's recursion.
    fn enter(&mut self) -> Run<()> {
        self.tick()?;
        self.nesting += 1;
        if self.nesting > self.budget.nesting {
            return Err(Outcome::Stuck("nesting budget exhausted".to_owned()));
        }
        Ok(())
    }

    fn get(&self, r: VarRef, locals: &[BigInt]) -> BigInt {
        match r {
            VarRef::Global(g) => self.globals[g].clone(),
            VarRef::Local(l) => locals[l].clone(),
        }
    }

    fn set(&mut self, r: VarRef, v: BigInt, locals: &mut [BigInt]) {
        match r {
            VarRef::Global(g) => self.globals[g] = v,
            VarRef::Local(l) => locals[l] = v,
        }
    }

    /// A result of a signed operation must be in range (overflow is undefined).
    fn checked(&self, v: BigInt, ty: CType, e: &IExpr) -> Run<BigInt> {
        if ty.signed {
            if !ty.contains(&v) {
                return Err(self.ub("signed overflow", e.span.start));
            }
            Ok(v)
        } else {
            Ok(ty.convert(&v))
        }
    }

    fn expr(&mut self, f: usize, e: &IExpr, locals: &mut Vec<BigInt>) -> Run<BigInt> {
        self.enter()?;
        let v = self.expr_in(f, e, locals);
        self.nesting -= 1;
        v
    }

    fn expr_in(&mut self, f: usize, e: &IExpr, locals: &mut Vec<BigInt>) -> Run<BigInt> {
        let b = |x: bool| BigInt::from(u8::from(x));
        Ok(match &e.kind {
            IExprKind::Const(v) => v.clone(),
            IExprKind::Var(r) => self.get(*r, locals),
            IExprKind::Arith(op, x, y) => {
                let x = self.expr(f, x, locals)?;
                let y = self.expr(f, y, locals)?;
                self.arith(*op, e, x, y)?
            }
            IExprKind::Cmp(op, x, y) => {
                let x = self.expr(f, x, locals)?;
                let y = self.expr(f, y, locals)?;
                b(op.compare(&x, &y))
            }
            IExprKind::Logic(op, x, y) => {
                let x = self.truth(f, x, locals)?;
                match (op, x) {
                    (BinOp::And, false) => b(false),
                    (BinOp::Or, true) => b(true),
                    _ => b(self.truth(f, y, locals)?),
                }
            }
            IExprKind::Not(x) => b(!self.truth(f, x, locals)?),
            IExprKind::Neg(x) => {
                let v = -self.expr(f, x, locals)?;
                self.checked(v, e.ty, e)?
            }
            IExprKind::BitNot(x) => {
                let v = self.expr(f, x, locals)?;
                if e.ty.signed {
                    -v - 1
                } else {
                    e.ty.max() - v
                }
            }
            IExprKind::Convert(x) => {
                let v = self.expr(f, x, locals)?;
                e.ty.convert(&v)
            }
            IExprKind::Assign(r, x) => {
                let v = self.expr(f, x, locals)?;
                self.set(*r, v.clone(), locals);
                v
            }
            IExprKind::PostIncDec(r, inc) => {
                let old = self.get(*r, locals);
                let raw = if *inc { &old + 1 } else { &old - 1 };
                let pt = e.ty.promote();
                let new = self.checked(raw, pt, e)?;
                self.set(*r, e.ty.convert(&new), locals);
                old
            }
            IExprKind::Call(g, args) => {
                let mut vals = vec![];
                for a in args {
                    vals.push(self.expr(f, a, locals)?);
                }
                self.call(*g, vals)?
            }
            IExprKind::Nondet(site) => {
                let given = self.nondet.get_mut(site).and_then(|q| q.pop_front());
                let v = match given {
                    Some(v) => v,
                    None => self.chooser.choose(*site, e.ty),
                };
                let v = if e.ty.contains(&v) {
                    v
                } else {
                    e.ty.convert(&v)
                };
                self.consumed.push(NondetValue::scalar(*site, v.clone()));
                v
            }
            IExprKind::Elem(var, index) => {
                let k = self.element(f, *var, index, e, locals)?;
                self.read(*var, &k)?
            }
            IExprKind::SetElem {
                var,
                index,
                value,
                post,
            } => self.update(f, *var, index, value, *post, e, locals)?,
            IExprKind::Current => match self.current.last().cloned() {
                Some((var, k)) => self.read(var, &k)?,
                None => return Err(Outcome::Stuck("no element being updated".to_owned())),
            },
            IExprKind::ArrayDecl { var, elems, fill } => {
                self.declare_array(f, *var, elems, *fill, e, locals)?;
                BigInt::zero()
            }
            IExprKind::Cond(c, x, y) => {
                if self.truth(f, c, locals)? {
                    self.expr(f, x, locals)?
                } else {
                    self.expr(f, y, locals)?
                }
            }
            IExprKind::Comma(x, y) => {
                self.expr(f, x, locals)?;
                self.expr(f, y, locals)?
            }
        })
    }

    fn arith(&self, op: BinOp, e: &IExpr, x: BigInt, y: BigInt) -> Run<BigInt> {
        let ty = e.ty;
        let v = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div | BinOp::Rem => {
                if y.is_zero() {
                    return Err(self.ub("division by zero", e.span.start));
                }
                // C11 6.5.5p6: when the quotient is not representable (`min / -1`), both `/`
                // and `%` are undefined.
                if ty.signed && !ty.contains(&(&x / &y)) {
                    return Err(self.ub("signed overflow in division", e.span.start));
                }
                // BigInt's / and % truncate toward zero, like C.
                if op == BinOp::Div {
                    x / y
                } else {
                    x % y
                }
            }
            BinOp::Shl | BinOp::Shr => {
                let k = match y.to_u32() {
                    Some(k) if k < ty.bits => k,
                    _ => return Err(self.ub("shift by an invalid amount", e.span.start)),
                };
                let p = BigInt::one() << k;
                if op == BinOp::Shl {
                    if ty.signed && x < BigInt::zero() {
                        return Err(self.ub("left shift of a negative value", e.span.start));
                    }
                    x * p
                } else {
                    x.div_floor(&p)
                }
            }
            BinOp::BitAnd => x & y,
            BinOp::BitOr => x | y,
            BinOp::BitXor => x ^ y,
            _ => return Err(Outcome::Stuck("not an arithmetic operator".to_owned())),
        };
        self.checked(v, ty, e)
    }
}

#[cfg(test)]
mod tests;
