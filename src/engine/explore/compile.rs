//! Clause constraints compiled once into guarded commands: the constraint's disjunctive normal
//! form, each cube ordered so that its checks read only variables that have values by then and
//! each of its equations defines one new variable from those. Running a cube on a state is
//! then a straight line of evaluations, the first failing check ending it, where propagation
//! would rediscover the same order for every state.
//!
//! Must not: decide anything propagation would decide differently. A cube that meets what its
//! order did not foresee (a check or a definition that reads a variable standing for any
//! value, an evaluation error) hands the whole instance back to propagation.

use super::propagate::{defined_by, disjuncts, equation, Env};
use crate::term::{Op, Term, TermId, TermStore, Value, VarId};
use std::collections::HashSet;

/// At most this many cubes in a constraint's normal form; beyond, the clause is solved by
/// propagation on every instance.
const MAX_CUBES: usize = 256;

/// One step of a cube.
enum Step {
    /// The literal must be true.
    Check(TermId),
    /// The variable takes the term's value.
    Define(VarId, TermId),
}

/// A conjunction of literals in the order they run, and those no order resolves (left to
/// the instance's solution check).
pub(super) struct Cube {
    steps: Vec<Step>,
    pub(super) open: Vec<TermId>,
}

/// What running a cube gave.
pub(super) enum Run {
    /// The cube's literals hold so far: the values, with the open literals still to satisfy.
    Holds(Env),
    /// A check failed: no instance through this cube.
    Fails,
    /// The cube needs propagation after all.
    Unforeseen,
}

/// A clause constraint as cubes, given the variables that have values (or stand for any
/// value) before it runs: the body's.
pub(super) struct Compiled {
    pub(super) cubes: Vec<Cube>,
}

impl Compiled {
    /// The constraint compiled, or `None` when its normal form has too many cubes.
    pub(super) fn new(store: &TermStore, constraint: TermId, bound: &[VarId]) -> Option<Self> {
        let cubes = dnf(store, constraint)?;
        let bound: HashSet<VarId> = bound.iter().copied().collect();
        Some(Compiled {
            cubes: cubes
                .into_iter()
                .map(|lits| order(store, lits, bound.clone()))
                .collect(),
        })
    }
}

impl Cube {
    /// Runs the cube's steps from `env` (copied only once a step defines a variable: most
    /// cubes fail at their first checks).
    pub(super) fn run(&self, store: &TermStore, env: &Env) -> Run {
        let mut own: Option<Env> = None;
        for step in &self.steps {
            let now = own.as_ref().unwrap_or(env);
            match step {
                Step::Check(lit) => match store.eval_partial(*lit, &now.vals) {
                    Ok(Some(Value::Bool(true))) => {}
                    Ok(Some(Value::Bool(false))) => return Run::Fails,
                    _ => return Run::Unforeseen,
                },
                Step::Define(x, t) => {
                    let Some(val) = defined_by(store, now, *t) else {
                        return Run::Unforeseen;
                    };
                    let e = own.get_or_insert_with(|| env.clone());
                    match val {
                        Some(v) => {
                            e.vals.insert(*x, v);
                        }
                        None => {
                            e.top.insert(*x);
                        }
                    }
                }
            }
        }
        Run::Holds(own.unwrap_or_else(|| env.clone()))
    }
}

/// The cubes of a constraint (negations pushed in as [`disjuncts`] does), `None` past
/// [`MAX_CUBES`].
fn dnf(store: &TermStore, t: TermId) -> Option<Vec<Vec<TermId>>> {
    let node = store.get(t);
    if let Term::App(Op::And, args) = &node.term {
        let mut acc: Vec<Vec<TermId>> = vec![Vec::new()];
        for &a in args.iter() {
            let sub = dnf(store, a)?;
            if acc.len() * sub.len() > MAX_CUBES {
                return None;
            }
            acc = acc
                .iter()
                .flat_map(|c| {
                    sub.iter().map(move |d| {
                        let mut e = c.clone();
                        e.extend(d.iter().copied());
                        e
                    })
                })
                .collect();
        }
        return Some(acc);
    }
    match disjuncts(store, t) {
        Some(ds) => {
            let mut acc = Vec::new();
            for d in ds {
                acc.extend(dnf(store, d)?);
                if acc.len() > MAX_CUBES {
                    return None;
                }
            }
            Some(acc)
        }
        None => Some(vec![vec![t]]),
    }
}

/// Orders a cube's literals: repeatedly, those whose variables are all bound become checks,
/// and equations with one side an unbound variable and the other bound define it.
fn order(store: &TermStore, mut pending: Vec<TermId>, mut bound: HashSet<VarId>) -> Cube {
    let mut steps = Vec::new();
    loop {
        let mut progress = false;
        let mut rest = Vec::new();
        for lit in pending {
            if store.free_vars(lit).iter().all(|x| bound.contains(x)) {
                steps.push(Step::Check(lit));
                progress = true;
            } else if let Some((x, t)) = definition(store, lit, &bound) {
                steps.push(Step::Define(x, t));
                bound.insert(x);
                progress = true;
            } else {
                rest.push(lit);
            }
        }
        pending = rest;
        if !progress {
            break;
        }
    }
    Cube {
        steps,
        open: pending,
    }
}

/// `x = t` (either way round) with `x` an unbound variable and every variable of `t` bound.
fn definition(store: &TermStore, lit: TermId, bound: &HashSet<VarId>) -> Option<(VarId, TermId)> {
    equation(store, lit)?
        .into_iter()
        .find_map(|(x, t)| match store.get(x).term {
            Term::Var(v)
                if !bound.contains(&v) && store.free_vars(t).iter().all(|y| bound.contains(y)) =>
            {
                Some((v, t))
            }
            _ => None,
        })
}
