//! Checking a clause whose head is interpreted by an existential formula, by instantiating the
//! existential with the clause's own variables.
//!
//! Models from other solvers (and ours, back-translated through inlining) define a predicate
//! as `∃y. φ(x, y)`, where `y` are the local variables of the clauses that define it. The
//! clause check `premise ∧ ¬∃y. φ(args, y)` is then a universally quantified problem that the
//! solver often cannot decide. This module decides it by model-based instantiation restricted
//! to the clause's variables (a CEGIS loop): take a model of the premise together with the
//! negated instances found so far; solve `φ` at that model's head arguments for values of `y`;
//! pick, for each `y_i`, a clause variable that has the same value (or the value itself); add
//! the negation of `φ` under that choice. Once the premise and the negated instances are
//! unsatisfiable, the clause holds (every model of the premise satisfies one instance); a
//! premise model for which `φ` has no solution is a counterexample. Choices are kept across
//! rounds wherever the new sample allows, so for locals that the clause defines functionally
//! the loop converges after few rounds.
//!
//! Must not: trust an instantiation: a clause is reported valid only when the solver proves the
//! premise inconsistent with the negated instances, and violated only when `φ` is unsatisfiable
//! at a concrete model of the premise.

use crate::smt::{Deadline, SatResult, Smt};
use crate::term::{Op, Quantifier, Term, TermId, TermStore, Value, VarId};
use std::collections::HashMap;

/// Most rounds of the instantiation loop for one clause.
const MAX_ROUNDS: usize = 200;

/// Whether `premise ∧ ¬head` is satisfiable, where `head` has existentials in positive
/// positions, by instantiating them with the premise's variables. `Sat` means the clause is
/// violated, `Unsat` that it holds.
pub(super) fn check_by_instantiation(
    store: &TermStore,
    premise: TermId,
    head: TermId,
    deadline: Deadline,
) -> SatResult {
    let mut pull = Prenex::new(store);
    let (ys, matrix) = pull.run(head);
    if ys.is_empty() {
        return SatResult::Unknown("no existential to instantiate".into());
    }
    // The premise's own existentials become free variables (they are witnesses the solver
    // picks), which adds them to the pool of instantiation terms.
    let (_, premise) = pull.run(premise);
    let mut pool: Vec<VarId> = store.free_vars(premise).into_iter().collect();
    let head_free: Vec<VarId> = store
        .free_vars(matrix)
        .into_iter()
        .filter(|v| !ys.contains(v))
        .collect();
    for v in &head_free {
        if !pool.contains(v) {
            pool.push(*v);
        }
    }
    let mut outer = Smt::new(store, deadline);
    outer.assert(premise);
    let mut inner = Smt::new(store, deadline);
    inner.assert(matrix);
    let mut choice: Vec<Option<Choice>> = vec![None; ys.len()];
    let mut score: Vec<HashMap<VarId, u32>> = vec![HashMap::new(); ys.len()];
    for _ in 0..MAX_ROUNDS {
        match outer.check() {
            SatResult::Unsat => return SatResult::Unsat,
            SatResult::Unknown(r) => return SatResult::Unknown(r),
            SatResult::Sat => {}
        }
        let Some(m) = outer.values(pool.iter().copied()) else {
            return SatResult::Unknown("no model of the premise".into());
        };
        let m: HashMap<VarId, Value> = m.into_iter().collect();
        let Some(v) = solve_matrix(store, &mut inner, &head_free, &ys, &choice, &m) else {
            return SatResult::Unknown("cannot solve the head at a premise model".into());
        };
        let Some(v) = v else {
            // No witness for this model of the premise: the clause is violated.
            return SatResult::Sat;
        };
        let mut map = HashMap::new();
        for (i, y) in ys.iter().enumerate() {
            let sort = store.var_sort(*y);
            for w in &pool {
                if store.var_sort(*w) == sort && m[w] == v[y] {
                    *score[i].entry(*w).or_default() += 1;
                }
            }
            let keep = choice[i]
                .as_ref()
                .is_some_and(|c| c.value(&m).as_ref() == Some(&v[y]));
            if !keep {
                let best = pool
                    .iter()
                    .filter(|w| store.var_sort(**w) == sort && m[*w] == v[y])
                    .max_by_key(|w| score[i].get(w).copied().unwrap_or(0));
                choice[i] = Some(match best {
                    Some(w) => Choice::Var(*w),
                    None => Choice::Const(v[y].clone()),
                });
            }
            let term = match choice[i].as_ref().expect("a choice was just made") {
                Choice::Var(w) => store.var(*w),
                Choice::Const(c) => store.value_term(c, &sort),
            };
            map.insert(*y, term);
        }
        outer.assert(store.not(store.substitute(matrix, &map)));
    }
    SatResult::Unknown(format!("no instantiation in {MAX_ROUNDS} rounds"))
}

/// What an existential variable is instantiated with.
#[derive(Clone, Debug)]
enum Choice {
    /// A variable of the clause.
    Var(VarId),
    /// A constant.
    Const(Value),
}

impl Choice {
    fn value(&self, m: &HashMap<VarId, Value>) -> Option<Value> {
        match self {
            Choice::Var(w) => m.get(w).cloned(),
            Choice::Const(c) => Some(c.clone()),
        }
    }
}

/// Values of `ys` satisfying the matrix at the premise model `m` (the head's free variables
/// fixed to their values), as close to the current choices as the solver allows: `Some(None)`
/// when there are none, `None` when the solver cannot tell.
fn solve_matrix(
    store: &TermStore,
    inner: &mut Smt,
    head_free: &[VarId],
    ys: &[VarId],
    choice: &[Option<Choice>],
    m: &HashMap<VarId, Value>,
) -> Option<Option<HashMap<VarId, Value>>> {
    inner.push();
    for v in head_free {
        let sort = store.var_sort(*v);
        inner.assert(store.eq(store.var(*v), store.value_term(&m[v], &sort)));
    }
    let mut prefer: Vec<TermId> = ys
        .iter()
        .zip(choice)
        .filter_map(|(y, c)| {
            let val = c.as_ref()?.value(m)?;
            Some(store.eq(store.var(*y), store.value_term(&val, &store.var_sort(*y))))
        })
        .collect();
    let out = loop {
        match inner.check_assuming(&prefer) {
            SatResult::Sat => {
                break inner
                    .values(ys.iter().copied())
                    .map(|v| Some(v.into_iter().collect()))
            }
            SatResult::Unsat if prefer.is_empty() => break Some(None),
            SatResult::Unsat => {
                let core = inner.unsat_core();
                if core.is_empty() {
                    prefer.clear();
                } else {
                    prefer.retain(|p| !core.contains(p));
                }
            }
            SatResult::Unknown(_) => break None,
        }
    };
    inner.pop(1);
    out
}

/// Pulls existential quantifiers in positive positions (under `and`, `or` and negations of
/// universals) to the front, renaming their variables apart: `∃ys. matrix` implies the input.
/// A quantified subterm shared between positions gets the same variables (sound, since the
/// result only has to imply the input).
struct Prenex<'s> {
    store: &'s TermStore,
    memo: HashMap<(TermId, bool), TermId>,
    vars: Vec<VarId>,
}

impl<'s> Prenex<'s> {
    fn new(store: &'s TermStore) -> Self {
        Prenex {
            store,
            memo: HashMap::new(),
            vars: Vec::new(),
        }
    }

    /// The variables pulled out of `t` and its matrix.
    fn run(&mut self, t: TermId) -> (Vec<VarId>, TermId) {
        let start = self.vars.len();
        let matrix = self.go(t, true);
        (self.vars[start..].to_vec(), matrix)
    }

    /// `t` (if `positive`) or `¬t` with its existential quantifiers pulled out.
    fn go(&mut self, t: TermId, positive: bool) -> TermId {
        if let Some(r) = self.memo.get(&(t, positive)) {
            return *r;
        }
        let store = self.store;
        let node = store.get(t);
        let r = match &node.term {
            Term::Quant(q, bound, body) if (*q == Quantifier::Exists) == positive => {
                let fresh: Vec<VarId> = bound
                    .iter()
                    .map(|v| store.new_var(&store.var_name(*v), store.var_sort(*v)))
                    .collect();
                self.vars.extend(&fresh);
                let body = store.rename(*body, bound, &fresh);
                self.go(body, positive)
            }
            Term::App(Op::Not, args) => self.go(args[0], !positive),
            Term::App(Op::And, args) | Term::App(Op::Or, args) => {
                let parts: Vec<TermId> = args.iter().map(|a| self.go(*a, positive)).collect();
                // ¬(a ∧ b) = ¬a ∨ ¬b: the connective flips with the polarity.
                let conj = matches!(node.term, Term::App(Op::And, _)) == positive;
                if conj {
                    store.and(parts)
                } else {
                    store.or(parts)
                }
            }
            Term::App(Op::Implies, args) => {
                let a = self.go(args[0], !positive);
                let b = self.go(args[1], positive);
                if positive {
                    store.or([a, b])
                } else {
                    store.and([a, b])
                }
            }
            _ if positive => t,
            _ => store.not(t),
        };
        self.memo.insert((t, positive), r);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chc::ClauseId;
    use crate::syntax::{read_model, read_system};
    use crate::witness::model::clause_query;
    use std::time::Duration;

    /// The verdict of instantiation on the first clause of `system` under `model`.
    fn instantiate(system: &str, model: &str) -> SatResult {
        let store = TermStore::new();
        let sys = read_system(&store, system).expect("a well-formed system");
        let m = read_model(&store, &sys, model).expect("a well-formed model");
        let (premise, head) = clause_query(&store, &sys, &m, ClauseId(0));
        check_by_instantiation(
            &store,
            premise,
            head,
            Deadline::after(Duration::from_secs(20)),
        )
    }

    /// A step whose head argument goes through two Boolean locals, as in Lustre encodings.
    const LOCALS: &str = "(declare-fun p (Int Int) Bool)
        (assert (forall ((x Int) (r Int) (c Bool) (d Bool))
          (=> (and (= c (> x 0)) (= d (and c (< x 10))) (= r (ite d 1 0))) (p x r))))
        (check-sat)";

    #[test]
    fn defined_locals_are_instantiated() {
        let good = "(define-fun p ((a Int) (r Int)) Bool
            (exists ((u Bool)) (and (= u (> a 0))
              (exists ((v Bool)) (and (= v (and u (< a 10))) (= r (ite v 1 0)))))))";
        assert_eq!(instantiate(LOCALS, good), SatResult::Unsat);
    }

    #[test]
    fn a_head_without_witness_is_a_counterexample() {
        // r = 1 also for a = 10, where the clause gives r = 0.
        let bad = "(define-fun p ((a Int) (r Int)) Bool
            (exists ((u Bool) (v Bool))
              (and (= u (> a 0)) (= v (and u (<= a 10))) (= r (ite v 1 0)))))";
        assert_eq!(instantiate(LOCALS, bad), SatResult::Sat);
    }

    #[test]
    fn negated_universals_are_existentials() {
        // ¬∀k. ¬(a = k + k) is ∃k. a = k + k; the clause makes every head argument even.
        let sys = "(declare-fun even (Int) Bool)
            (assert (forall ((x Int) (h Int)) (=> (= x (* 2 h)) (even x))))
            (check-sat)";
        let good = "(define-fun even ((a Int)) Bool
            (or (< a 0) (not (forall ((k Int)) (not (= a (+ k k)))))))";
        assert_eq!(instantiate(sys, good), SatResult::Unsat);
        let bad = "(define-fun even ((a Int)) Bool (exists ((k Int)) (= a (+ k k 1))))";
        assert_eq!(instantiate(sys, bad), SatResult::Sat);
    }

    #[test]
    fn a_quantifier_free_head_is_left_to_others() {
        let m = "(define-fun p ((a Int) (r Int)) Bool (>= r 0))";
        assert!(matches!(instantiate(LOCALS, m), SatResult::Unknown(_)));
    }
}
