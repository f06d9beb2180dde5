//! Removing dead arguments: argument positions whose value cannot influence whether a query
//! fires (the `live` relation of the analysis) are dropped from every predicate and atom; the
//! variables that filled them become local variables of their clauses.
//!
//! Must not: drop a live argument, or change clause and predicate ids (this transform keeps
//! both; only arities shrink). Back-translation: a model ignores the dropped parameters; a
//! derivation gets the dropped values back step by step, premises first — copied from the
//! premise that derived them, with the head's dropped values recomputed from their defining
//! equations, or, failing that, found by the SMT solver with every kept value fixed.

use super::{carry, default_value, BackError, BackTranslator, Transform};
use crate::analysis::analyze;
use crate::chc::{Atom, Clause, Head, System};
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{Op, Term, TermStore, Value, VarId};
use crate::witness::{DerivNode, Derivation, Interp, Model};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Drops the arguments that the liveness analysis finds dead.
#[derive(Clone, Copy, Debug, Default)]
pub struct RemoveDeadArgs;

/// Back-translation of [`RemoveDeadArgs`].
struct Back {
    /// The system before the transform (same predicate and clause ids).
    orig: System,
    /// Per predicate and argument: kept.
    kept: Vec<Vec<bool>>,
}

impl Transform for RemoveDeadArgs {
    fn name(&self) -> &'static str {
        "dead_args"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let kept = analyze(system, store).live;
        let mut new = System::new();
        for p in system.pred_ids() {
            let d = system.pred(p);
            let sorts = filter(&d.sorts, &kept[p.0 as usize]);
            new.add_pred(d.name.clone(), sorts);
        }
        let project = |a: &Atom| Atom {
            pred: a.pred,
            args: filter(&a.args, &kept[a.pred.0 as usize]),
        };
        for (_, c) in system.clauses() {
            new.add_clause(Clause {
                body: c.body.iter().map(project).collect(),
                constraint: c.constraint,
                head: match &c.head {
                    Head::Atom(h) => Head::Atom(project(h)),
                    Head::False => Head::False,
                },
            });
        }
        (
            new,
            Box::new(Back {
                orig: system.clone(),
                kept,
            }),
        )
    }
}

/// The elements of `xs` whose flag is set.
fn filter<T: Clone>(xs: &[T], keep: &[bool]) -> Vec<T> {
    xs.iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(x, _)| x.clone())
        .collect()
}

impl BackTranslator for Back {
    fn hints(&self, store: &TermStore, hints: &Model) -> Model {
        let mut out = Model::new();
        for p in self.orig.pred_ids() {
            if let Some(i) = carry(store, hints, p, Some(&self.kept[p.0 as usize])) {
                out.set(p, i);
            }
        }
        out
    }

    fn model(&self, store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        let mut out = Model::new();
        for p in self.orig.pred_ids() {
            let Some(i) = model.get(p) else { continue };
            let mut kept_params = i.params.iter();
            let params = self
                .orig
                .pred(p)
                .sorts
                .iter()
                .zip(&self.kept[p.0 as usize])
                .enumerate()
                .map(|(k, (s, &keep))| match keep {
                    true => *kept_params.next().expect("one parameter per kept argument"),
                    false => store.new_var(&format!("dead{k}"), s.clone()),
                })
                .collect();
            out.set(
                p,
                Interp {
                    params,
                    body: i.body,
                },
            );
        }
        out
    }

    fn derivation(
        &self,
        store: &TermStore,
        d: Derivation,
        deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        let mut nodes: Vec<DerivNode> = Vec::with_capacity(d.nodes.len());
        for (i, n) in d.nodes.iter().enumerate() {
            if n.clause.0 as usize >= self.orig.num_clauses() {
                return Err(BackError::NoSuchClause(i));
            }
            let c = self.orig.clause(n.clause);
            if c.body.len() != n.children.len() {
                return Err(BackError::Malformed(i, "wrong number of premises".into()));
            }
            // Values fixed by the new derivation (kept arguments) and by the premises (dropped
            // body arguments).
            let mut fixed: BTreeMap<VarId, Value> = BTreeMap::new();
            for a in c.body.iter().chain(c.head_atom()) {
                for (v, &k) in a.args.iter().zip(&self.kept[a.pred.0 as usize]) {
                    if k {
                        if let Some(x) = n.assignment.get(v) {
                            fixed.insert(*v, x.clone());
                        }
                    }
                }
            }
            for (a, &child) in c.body.iter().zip(&n.children) {
                let Some(cn) = nodes.get(child).filter(|_| child < i) else {
                    return Err(BackError::Malformed(i, "a premise comes later".into()));
                };
                let Head::Atom(h) = &self.orig.clause(cn.clause).head else {
                    return Err(BackError::Malformed(i, "a premise is a query".into()));
                };
                for ((v, hv), &k) in a
                    .args
                    .iter()
                    .zip(&h.args)
                    .zip(&self.kept[a.pred.0 as usize])
                {
                    if !k {
                        let x = cn.assignment.get(hv).cloned().ok_or_else(|| {
                            BackError::Reconstruct(i, "a premise lacks a value".into())
                        })?;
                        fixed.insert(*v, x);
                    }
                }
            }
            let assignment = self
                .reconstruct(store, c, &n.assignment, &fixed, deadline.clone())
                .map_err(|e| BackError::Reconstruct(i, e))?;
            nodes.push(DerivNode {
                clause: n.clause,
                assignment,
                children: n.children.clone(),
            });
        }
        Ok(Derivation { nodes })
    }
}

impl Back {
    /// Values for every variable of `c` that agree with `fixed` and satisfy the constraint:
    /// first the old values with `fixed` on top and dropped head arguments recomputed from
    /// their definitions `h = e`; if that fails, a solver model.
    fn reconstruct(
        &self,
        store: &TermStore,
        c: &Clause,
        old: &BTreeMap<VarId, Value>,
        fixed: &BTreeMap<VarId, Value>,
        deadline: Deadline,
    ) -> Result<BTreeMap<VarId, Value>, String> {
        let vars = c.vars(store);
        let mut env: HashMap<VarId, Value> = vars
            .iter()
            .map(|&v| {
                let x = fixed.get(&v).or_else(|| old.get(&v)).cloned();
                (
                    v,
                    x.unwrap_or_else(|| default_value(store, &store.var_sort(v))),
                )
            })
            .collect();
        let dropped_head: BTreeSet<VarId> = c
            .head_atom()
            .map(|h| filter_not(&h.args, &self.kept[h.pred.0 as usize]))
            .unwrap_or_default();
        for k in store.conjuncts(c.constraint) {
            if let Term::App(Op::Eq, args) = &store.get(k).term {
                for (l, r) in [(args[0], args[1]), (args[1], args[0])] {
                    if let Some(h) = store.as_var(l).filter(|h| dropped_head.contains(h)) {
                        if let Ok(x) = store.eval(r, &env) {
                            env.insert(h, x);
                        }
                        break;
                    }
                }
            }
        }
        if store.eval(c.constraint, &env) == Ok(Value::Bool(true)) {
            return Ok(env.into_iter().collect());
        }
        let mut smt = Smt::new(store, deadline);
        smt.assert(c.constraint);
        for (v, x) in fixed {
            let eq = store.eq(store.var(*v), store.value_term(x, &store.var_sort(*v)));
            smt.assert(eq);
        }
        match smt.check() {
            SatResult::Sat => smt
                .values(vars.iter().copied())
                .ok_or_else(|| "the solver gave no model".to_string()),
            SatResult::Unsat => Err("the kept values admit no instance".into()),
            SatResult::Unknown(r) => Err(r),
        }
    }
}

/// The elements of `xs` whose flag is not set.
fn filter_not<T: Clone + Ord>(xs: &[T], keep: &[bool]) -> BTreeSet<T> {
    xs.iter()
        .zip(keep)
        .filter(|(_, k)| !**k)
        .map(|(x, _)| x.clone())
        .collect()
}
