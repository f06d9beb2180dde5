//! Eliminating a clause's defined locals: the one-point rule applied to every variable of a
//! clause that is no atom argument, where a conjunct of the constraint defines it (`x = e`
//! with `x` not in `e`, or a Boolean `x` / `¬x`).
//!
//! Inlining leaves a copy for every argument passed (`arg = A`, Kind 2's node calls: hundreds
//! per step), and Z3's incremental solver does not eliminate them: every check of every engine
//! carries them as atoms. The clause keeps its atoms and means the same (`∃ x. x = e ∧ φ` is
//! `φ[e/x]`); only the constraint shrinks.
//!
//! Duty: the smaller constraints, and back-translation: models are unchanged (no predicate
//! changes); a derivation's steps get values for the eliminated variables by evaluating their
//! definitions (the last substitution round first), and variables that vanished otherwise
//! (simplified away) any value of their sort. Must not: touch atom arguments (the normal form
//! allows no repeated argument, so copies between atoms stay), or call a solver.

use super::{default_value, BackError, BackTranslator, Transform};
use crate::chc::{Clause, System};
use crate::clock::Deadline;
use crate::term::{TermId, TermStore, Value, VarId};
use crate::witness::{Derivation, Model};
use std::collections::{BTreeSet, HashMap};

/// The transform: see the module header.
#[derive(Clone, Copy, Debug, Default)]
pub struct EliminateLocals;

/// What each clause lost: its variables before, and the substitution rounds.
struct Eliminated {
    vars: BTreeSet<VarId>,
    rounds: Vec<HashMap<VarId, TermId>>,
}

struct Back {
    /// Per clause (same ids in both systems); `None` where nothing was eliminated.
    clauses: Vec<Option<Eliminated>>,
}

impl Transform for EliminateLocals {
    fn name(&self) -> &'static str {
        "locals"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let mut out = System::new();
        for p in system.pred_ids() {
            let d = system.pred(p);
            out.add_pred(d.name.clone(), d.sorts.clone());
        }
        let mut clauses = Vec::with_capacity(system.num_clauses());
        for (_, c) in system.clauses() {
            let mut atom_args = BTreeSet::new();
            for a in c.body.iter().chain(c.head_atom()) {
                atom_args.extend(a.args.iter().copied());
            }
            let locals: BTreeSet<VarId> = store
                .free_vars(c.constraint)
                .into_iter()
                .filter(|v| !atom_args.contains(v))
                .collect();
            let mut rounds = Vec::new();
            let constraint = store.eliminate_defined_recorded(&locals, c.constraint, &mut rounds);
            clauses.push((!rounds.is_empty()).then(|| Eliminated {
                vars: c.vars(store),
                rounds,
            }));
            out.add_clause(Clause {
                body: c.body.clone(),
                constraint,
                head: c.head.clone(),
            });
        }
        (out, Box::new(Back { clauses }))
    }
}

impl BackTranslator for Back {
    /// Same predicates, same arguments.
    fn hints(&self, _store: &TermStore, hints: &Model) -> Model {
        hints.clone()
    }

    fn model(&self, _store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        model
    }

    fn derivation(
        &self,
        store: &TermStore,
        mut d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        for (i, n) in d.nodes.iter_mut().enumerate() {
            let Some(e) = self
                .clauses
                .get(n.clause.0 as usize)
                .ok_or(BackError::NoSuchClause(i))?
            else {
                continue;
            };
            let mut env: HashMap<VarId, Value> =
                std::mem::take(&mut n.assignment).into_iter().collect();
            // Simplified away: no value matters for the constraint left.
            for &v in &e.vars {
                if !env.contains_key(&v) && !e.rounds.iter().any(|r| r.contains_key(&v)) {
                    env.insert(v, default_value(store, &store.var_sort(v)));
                }
            }
            for round in e.rounds.iter().rev() {
                for (&x, &def) in round {
                    let value = store.eval(def, &env).map_err(|err| match err {
                        crate::term::EvalError::DivisionByZero => BackError::Unspecified(i),
                        err => BackError::Reconstruct(i, err.to_string()),
                    })?;
                    env.insert(x, value);
                }
            }
            n.assignment = env
                .into_iter()
                .filter(|(v, _)| e.vars.contains(v))
                .collect();
        }
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chc::ClauseId;
    use crate::witness::DerivNode;

    fn system(store: &TermStore) -> System {
        let src = "(declare-fun p (Int Int) Bool)
            (assert (forall ((x Int) (y Int) (a Int) (c Int) (b Bool))
              (=> (and (= c (* 2 a)) (= a (+ x 1)) (= y (+ c 1)) b) (p x y))))
            (assert (forall ((x Int) (y Int)) (=> (and (p x y) (> y 10)) false)))
            (check-sat)";
        crate::syntax::read_system(store, src).expect("parses")
    }

    #[test]
    fn definitions_of_locals_are_substituted_and_atoms_stay() {
        let store = TermStore::new();
        let s = system(&store);
        let (t, _) = EliminateLocals.apply(&store, &s);
        let fact = t.clause(ClauseId(0));
        let args: BTreeSet<VarId> = fact.head_atom().unwrap().args.iter().copied().collect();
        // `a`, `c` and `b` are gone; `y = 2 (x + 1) + 1` is left over the head's arguments.
        assert!(store.free_vars(fact.constraint).is_subset(&args));
        assert_eq!(t.clause(ClauseId(1)), s.clause(ClauseId(1)));
    }

    #[test]
    fn a_derivation_gets_the_eliminated_values_back() {
        let store = TermStore::new();
        let s = system(&store);
        let (t, back) = EliminateLocals.apply(&store, &s);
        let (f, q) = (ClauseId(0), ClauseId(1));
        let head = s.clause(f).head_atom().unwrap().args.clone();
        let body = s.clause(q).body[0].args.clone();
        // The fact's locals by name: `a` and `c` (defined in two rounds: `c = 2 a` is
        // substituted before `a = x + 1`) and `b`.
        let local = |name: &str| {
            s.clause(f)
                .vars(&store)
                .into_iter()
                .find(|v| !head.contains(v) && store.var_name(*v).starts_with(name))
                .unwrap()
        };
        let int = |n: i64| Value::Int(n.into());
        let fact = DerivNode {
            clause: f,
            assignment: [(head[0], int(5)), (head[1], int(13))]
                .into_iter()
                .collect(),
            children: vec![],
        };
        let query = DerivNode {
            clause: q,
            assignment: [(body[0], int(5)), (body[1], int(13))]
                .into_iter()
                .collect(),
            children: vec![0],
        };
        let d = Derivation {
            nodes: vec![fact, query],
        };
        crate::witness::replay_derivation(&store, &t, &d).expect("a derivation of the new system");
        let got = back
            .derivation(&store, d, Deadline::none())
            .expect("translates");
        let a = &got.nodes[0].assignment;
        assert_eq!(a[&local("a")], int(6));
        assert_eq!(a[&local("c")], int(12));
        assert_eq!(a[&local("b")], Value::Bool(true));
        assert_eq!(a.len(), 5);
        crate::witness::replay_derivation(&store, &s, &got).expect("replays");
    }
}
