//! Solving one clause instance by propagation and case splits: the values of the body's
//! variables propagate through equations, disjunctions are split, and what remains open is
//! decided by a guess that evaluation confirms or, failing that, by the SMT solver.
//!
//! Must not: give a variable a value that the constraint does not force (apart from the
//! confirmed guesses for variables outside the head), or read a variable that stands for any
//! value.

use super::Stop;
use crate::smt::{SatResult, Smt};
use crate::term::{Op, Term, TermId, TermStore, Value, VarId};
use std::collections::{HashMap, HashSet};

/// The values of a clause instance's variables found so far.
#[derive(Clone, Default)]
pub(super) struct Env {
    pub(super) vals: HashMap<VarId, Value>,
    /// Variables that stand for any value: an argument no equation determined (an
    /// uninitialised local, a nondeterministic input that is overwritten before it is read),
    /// and copies of such arguments. A state with such an argument stands for all its values;
    /// that is sound only while nothing reads them, so a literal that mentions one and is not a
    /// copy makes the engine give up.
    pub(super) top: HashSet<VarId>,
}

impl Env {
    pub(super) fn known(&self, x: VarId) -> bool {
        self.vals.contains_key(&x) || self.top.contains(&x)
    }
}

/// Solves one clause instance by propagation and case splits.
pub(super) struct Propagation<'s, 'a> {
    pub(super) store: &'a TermStore,
    /// The variables that must have values in every solution (the head's).
    pub(super) head: &'a [VarId],
    pub(super) smt: &'s mut Smt<'a>,
    pub(super) checks: u64,
    /// Stop at the first solution (a query needs one).
    pub(super) first_only: bool,
}

impl Propagation<'_, '_> {
    /// Adds to `out` the solutions of the conjunction `todo` extending `env`: in each, every
    /// head variable has a value or stands for any value.
    pub(super) fn branch(
        &mut self,
        mut env: Env,
        mut todo: Vec<TermId>,
        out: &mut Vec<Env>,
    ) -> Result<(), Stop> {
        let store = self.store;
        // Propagate to a fixpoint.
        loop {
            let mut progress = false;
            let mut open = Vec::new();
            while let Some(lit) = todo.pop() {
                let node = store.get(lit);
                if let Term::App(Op::And, args) = &node.term {
                    todo.extend(args.iter().copied());
                    continue;
                }
                match store.eval_partial(lit, &env.vals) {
                    Ok(Some(Value::Bool(true))) => {}
                    Ok(Some(Value::Bool(false))) => return Ok(()),
                    Ok(Some(_)) | Err(_) => {
                        return Err(Stop::GaveUp("a constraint that cannot be evaluated".into()))
                    }
                    Ok(None) => match self.definition(lit, &env) {
                        Some((x, Some(v))) => {
                            env.vals.insert(x, v);
                            progress = true;
                        }
                        Some((x, None)) => {
                            env.top.insert(x);
                            progress = true;
                        }
                        None => open.push(lit),
                    },
                }
            }
            todo = open;
            if !progress {
                break;
            }
        }
        if todo.is_empty() {
            return self.accept(env, &[], out);
        }
        // Split a disjunction (negations pushed inwards first).
        let split = todo
            .iter()
            .enumerate()
            .find_map(|(k, &t)| disjuncts(store, t).map(|ds| (k, ds)));
        if let Some((k, ds)) = split {
            todo.swap_remove(k);
            for d in ds {
                if matches!(
                    store.eval_partial(d, &env.vals),
                    Ok(Some(Value::Bool(false)))
                ) {
                    continue;
                }
                let mut next = todo.clone();
                next.push(d);
                self.branch(env.clone(), next, out)?;
                if self.first_only && !out.is_empty() {
                    return Ok(());
                }
            }
            return Ok(());
        }
        self.accept(env, &todo, out)
    }

    /// `env` is a solution if the literals left open can be satisfied. They must not read a
    /// variable that stands for any value; a head variable without a value comes to stand for
    /// any value (the instance's successors are then over-approximated, which the model's
    /// validation accepts as long as nothing reads that argument, and the engine gives up
    /// when something does).
    pub(super) fn accept(
        &mut self,
        mut env: Env,
        open: &[TermId],
        out: &mut Vec<Env>,
    ) -> Result<(), Stop> {
        let store = self.store;
        for &t in open {
            if let Some(x) = store.free_vars(t).into_iter().find(|x| env.top.contains(x)) {
                return Err(Stop::GaveUp(format!(
                    "`{}` is read but its value is not determined (a nondeterministic input)",
                    store.var_name(x)
                )));
            }
        }
        let undetermined: Vec<VarId> = self
            .head
            .iter()
            .copied()
            .filter(|&x| !env.known(x))
            .collect();
        if !open.is_empty() && !guessed(store, &mut env.vals, open) {
            let map: HashMap<VarId, TermId> = env
                .vals
                .iter()
                .map(|(x, v)| (*x, store.value_term(v, &store.var_sort(*x))))
                .collect();
            let rest = store.substitute(store.and(open.iter().copied()), &map);
            self.checks += 1;
            match self.smt.check_assuming(&[rest]) {
                // The solver's values complete the instance (a derivation needs them all).
                SatResult::Sat => env
                    .vals
                    .extend(self.smt.values(store.free_vars(rest)).unwrap_or_default()),
                SatResult::Unsat => return Ok(()),
                SatResult::Unknown(why) => return Err(Stop::GaveUp(why.to_string())),
            }
        }
        for x in undetermined {
            env.vals.remove(&x);
            env.top.insert(x);
        }
        out.push(env);
        Ok(())
    }

    /// A literal `x = t` (either way round) where `x` has no value and `t` has one (`Some`),
    /// or is a variable that stands for any value (`None`: so does `x`).
    fn definition(&self, lit: TermId, env: &Env) -> Option<(VarId, Option<Value>)> {
        let store = self.store;
        equation(store, lit)?
            .into_iter()
            .find_map(|(x, t)| match store.get(x).term {
                Term::Var(v) if !env.known(v) => defined_by(store, env, t).map(|val| (v, val)),
                _ => None,
            })
    }
}

/// The two ways round of an equation `a = b`, `None` for other literals.
pub(super) fn equation(store: &TermStore, lit: TermId) -> Option<[(TermId, TermId); 2]> {
    match &store.get(lit).term {
        Term::App(Op::Eq, args) if args.len() == 2 => {
            Some([(args[0], args[1]), (args[1], args[0])])
        }
        _ => None,
    }
}

/// What `x = t` gives a variable `x` without a value: `Some(None)` when `t` is a variable
/// that stands for any value (then so does `x`), `Some(Some(v))` when `t` evaluates to `v`,
/// and `None` when `t` needs a value it does not have.
pub(super) fn defined_by(store: &TermStore, env: &Env, t: TermId) -> Option<Option<Value>> {
    if let Term::Var(w) = store.get(t).term {
        if env.top.contains(&w) {
            return Some(None);
        }
    }
    match store.eval_partial(t, &env.vals) {
        Ok(Some(v)) => Some(Some(v)),
        _ => None,
    }
}

/// The disjuncts of a literal that is a disjunction (`or`, a negated `and`, an implication, a
/// Boolean `ite`), with negations pushed one level in; `None` for other literals.
pub(super) fn disjuncts(store: &TermStore, t: TermId) -> Option<Vec<TermId>> {
    let node = store.get(t);
    let Term::App(op, args) = &node.term else {
        return None;
    };
    match op {
        Op::Or => Some(args.to_vec()),
        Op::Implies => Some(vec![store.not(args[0]), args[1]]),
        Op::Ite if store.sort(t) == crate::term::Sort::Bool => Some(vec![
            store.and([args[0], args[1]]),
            store.and([store.not(args[0]), args[2]]),
        ]),
        Op::Not => {
            let inner = store.get(args[0]);
            match &inner.term {
                Term::App(Op::And, xs) => Some(xs.iter().map(|&x| store.not(x)).collect()),
                Term::App(Op::Or, xs) => Some(vec![store.and(xs.iter().map(|&x| store.not(x)))]),
                Term::App(Op::Not, xs) => Some(vec![xs[0]]),
                Term::App(Op::Implies, xs) => Some(vec![store.and([xs[0], store.not(xs[1])])]),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Gives every variable of `open` without a value a default one (0, false) and keeps them if
/// that satisfies every literal of `open`: the usual leftovers are range bounds of inputs that
/// do not reach the head, which need no solver.
fn guessed(store: &TermStore, env: &mut HashMap<VarId, Value>, open: &[TermId]) -> bool {
    let mut guess = env.clone();
    for &t in open {
        for x in store.free_vars(t) {
            guess
                .entry(x)
                .or_insert_with(|| Value::default_of(&store.var_sort(x)));
        }
    }
    let holds = open
        .iter()
        .all(|&t| matches!(store.eval_partial(t, &guess), Ok(Some(Value::Bool(true)))));
    if holds {
        *env = guess;
    }
    holds
}
