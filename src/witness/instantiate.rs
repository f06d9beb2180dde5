//! Checking a clause whose head is interpreted by an existential formula, by instantiating the
//! existential with the clause's own variables.
//!
//! Models from other solvers (and ours, back-translated through inlining) define a predicate
//! as `∃y. φ(x, y)`, where `y` are the local variables of the clauses that define it. The
//! clause check `premise ∧ ¬∃y. φ(args, y)` is then a universally quantified problem that the
//! solver often cannot decide. This module decides it by model-based instantiation restricted
//! to the clause's variables (a CEGIS loop): take a model of the premise together with the
//! negated instances found so far; solve `φ` at that model's head arguments for values of `y`;
//! pick, for each `y_i`, a term with the same value there: a clause variable or a term that `φ`
//! equates `y_i` with (whichever fitted the most samples so far), else the value itself; add
//! the negation of `φ` under that choice. Once the premise and the negated instances are
//! unsatisfiable, the clause holds (every model of the premise satisfies one instance); a
//! premise model for which `φ` has no solution is a counterexample. Choices are kept across
//! rounds wherever the new sample allows, so for locals that the clause defines functionally
//! the loop converges after few rounds.
//!
//! Must not: trust an instantiation: a clause is reported valid only when the solver proves the
//! premise inconsistent with the negated instances, and violated only when `φ` is unsatisfiable
//! at a concrete model of the premise.

use crate::smt::{SatResult, Smt};
use crate::term::{Op, Quantifier, Term, TermId, TermStore, Value, VarId};
use std::collections::HashMap;

/// Most rounds of the instantiation loop for one clause.
const MAX_ROUNDS: usize = 200;

/// Most defining terms collected per existential variable.
const MAX_DEFS: usize = 8;

/// Whether `premise ∧ ¬head` is satisfiable, where `head` has existentials in positive
/// positions, by instantiating them with the premise's variables, in scopes of `smt` (left as
/// it was, its deadline included) until its deadline. `Sat` means the clause is violated,
/// `Unsat` that it holds.
pub(super) fn check_by_instantiation(
    smt: &mut Smt<'_>,
    premise: TermId,
    head: TermId,
) -> SatResult {
    let store = smt.store();
    let deadline = smt.deadline().clone();
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
    // The existentials of a definition inlined away are copies of its clause's variables; at
    // that clause, those the premise still has are their own instances. The rest is left to
    // the loop, on the smaller problem first: only `Unsat` is conclusive there (a violation
    // under a wrong guess is none), so anything else falls back to the whole problem.
    let known = instance_by_origin(store, &ys, &pool);
    if !known.is_empty() {
        let rest: Vec<VarId> = ys
            .iter()
            .filter(|y| !known.contains_key(y))
            .copied()
            .collect();
        let reduced = store.substitute(matrix, &known);
        let half = deadline
            .remaining()
            .map_or(deadline.clone(), |r| deadline.at_most(r / 2));
        // With every existential known the head is quantifier-free: checked a conjunct at a
        // time, as a clause under a quantifier-free model is (its negation as one disjunction
        // cost Kind 2's node steps ten times more).
        smt.set_deadline(half);
        let reduced_holds = match rest.is_empty() {
            true => super::clause_check::check_in_scope(smt, premise, reduced, &mut None),
            false => instantiate(smt, premise, &pool, &rest, reduced),
        };
        smt.set_deadline(deadline);
        if reduced_holds == SatResult::Unsat {
            return SatResult::Unsat;
        }
    }
    instantiate(smt, premise, &pool, &ys, matrix)
}

/// The instantiation loop for `premise ∧ ¬∃ys. matrix` over the instantiation terms `pool`:
/// the premise and the negated instances go into a scope of `outer`; the head is solved at a
/// premise model with a solver of its own.
fn instantiate(
    outer: &mut Smt<'_>,
    premise: TermId,
    pool: &[VarId],
    ys: &[VarId],
    matrix: TermId,
) -> SatResult {
    let store = outer.store();
    let head_free: Vec<VarId> = store
        .free_vars(matrix)
        .into_iter()
        .filter(|v| !ys.contains(v))
        .collect();
    let mut inner = Smt::new(store, outer.deadline().clone());
    inner.assert(matrix);
    outer.push();
    outer.assert(premise);
    let result = instantiation_rounds(store, outer, &mut inner, pool, ys, matrix, &head_free);
    outer.pop(1);
    result
}

/// The rounds of [`instantiate`]: `outer` holds the premise, `inner` the head's matrix.
fn instantiation_rounds(
    store: &TermStore,
    outer: &mut Smt<'_>,
    inner: &mut Smt<'_>,
    pool: &[VarId],
    ys: &[VarId],
    matrix: TermId,
    head_free: &[VarId],
) -> SatResult {
    let mut chooser = Chooser::new(store, ys, matrix, pool.to_vec());
    for _ in 0..MAX_ROUNDS {
        match outer.check() {
            SatResult::Unsat => return SatResult::Unsat,
            SatResult::Unknown(r) => return SatResult::Unknown(r),
            SatResult::Sat => {}
        }
        let Some(m) = outer.values(chooser.pool.iter().copied()) else {
            return SatResult::Unknown("no model of the premise".into());
        };
        let m: HashMap<VarId, Value> = m.into_iter().collect();
        let prefer = chooser.current_values(&m);
        let Some(v) = solve_matrix(store, inner, head_free, ys, &prefer, &m) else {
            return SatResult::Unknown("cannot solve the head at a premise model".into());
        };
        let Some(v) = v else {
            // No witness for this model of the premise: the clause is violated.
            return SatResult::Sat;
        };
        let map = chooser.choose(&m, &v);
        outer.assert(store.not(store.substitute(matrix, &map)));
    }
    SatResult::Unknown(format!("no instantiation in {MAX_ROUNDS} rounds"))
}

/// The existentials that stand for a variable of `pool`, mapped to it: for each, the nearest
/// variable on its trail of copies ([`TermStore::copy_of`]) that is, or was copied into,
/// exactly one pool variable of its sort. Inlining renames a definition's variables into the
/// existentials of its predicate's interpretation, and the prenex form renames them again.
fn instance_by_origin(store: &TermStore, ys: &[VarId], pool: &[VarId]) -> HashMap<VarId, TermId> {
    let trail = |v: VarId| {
        let mut out = vec![v];
        while let Some(w) = store.copy_of(*out.last().expect("not empty")) {
            out.push(w);
        }
        out
    };
    // Each variable on a pool variable's trail → the pool variables it leads to.
    let mut reach: HashMap<VarId, Vec<VarId>> = HashMap::new();
    for &p in pool {
        for a in trail(p) {
            reach.entry(a).or_default().push(p);
        }
    }
    ys.iter()
        .filter_map(|&y| {
            let p = trail(y)
                .into_iter()
                .find_map(|a| reach.get(&a).filter(|ps| ps.len() == 1).map(|ps| ps[0]))?;
            (store.var_sort(p) == store.var_sort(y)).then(|| (y, store.var(p)))
        })
        .collect()
}

/// The instantiation terms of the existential variables, revised at every sample.
struct Chooser<'s> {
    store: &'s TermStore,
    ys: Vec<VarId>,
    /// Position of each existential in `ys`.
    index: HashMap<VarId, usize>,
    /// The premise's variables: instantiation terms are built over them.
    pool: Vec<VarId>,
    /// Per existential: terms the matrix equates it with (they may mention other existentials).
    defs: Vec<Vec<TermId>>,
    /// Per existential: in how many samples each candidate (defining term or pool variable)
    /// had its value.
    score: Vec<HashMap<TermId, u32>>,
    /// Per existential: the current term, over `pool`.
    choice: Vec<Option<TermId>>,
}

impl<'s> Chooser<'s> {
    fn new(store: &'s TermStore, ys: &[VarId], matrix: TermId, pool: Vec<VarId>) -> Self {
        let index: HashMap<VarId, usize> = ys.iter().enumerate().map(|(i, y)| (*y, i)).collect();
        Chooser {
            store,
            ys: ys.to_vec(),
            defs: defining_terms(store, &index, ys, matrix),
            index,
            pool,
            score: vec![HashMap::new(); ys.len()],
            choice: vec![None; ys.len()],
        }
    }

    /// The current choices' values at the premise model `m`, by existential.
    fn current_values(&self, m: &HashMap<VarId, Value>) -> Vec<Option<Value>> {
        self.choice
            .iter()
            .map(|c| c.and_then(|t| self.store.eval(t, m).ok()))
            .collect()
    }

    /// Revises the choices so that each existential's term has its value `v` at the sample
    /// `m` where possible, and returns them as a substitution. A choice that still fits is
    /// kept; otherwise the fitting candidate (defining term or pool variable) that fitted in
    /// most samples, or else the value itself.
    fn choose(
        &mut self,
        m: &HashMap<VarId, Value>,
        v: &HashMap<VarId, Value>,
    ) -> HashMap<VarId, TermId> {
        let store = self.store;
        let mut env = m.clone();
        env.extend(v.iter().map(|(y, x)| (*y, x.clone())));
        let mut raw = Vec::with_capacity(self.ys.len());
        for (i, y) in self.ys.iter().enumerate() {
            let sort = store.var_sort(*y);
            let fits = |t: TermId| store.eval(t, &env).ok().as_ref() == Some(&v[y]);
            let defs: Vec<TermId> = self.defs[i].iter().copied().filter(|d| fits(*d)).collect();
            let vars = self
                .pool
                .iter()
                .filter(|w| store.var_sort(**w) == sort && m[*w] == v[y]);
            let fitting: Vec<TermId> = defs
                .iter()
                .copied()
                .chain(vars.map(|w| store.var(*w)))
                .collect();
            for t in &fitting {
                *self.score[i].entry(*t).or_default() += 1;
            }
            raw.push(match self.choice[i] {
                Some(t) if fits(t) => Raw::Fixed(t),
                _ => {
                    // The candidate that fitted most often; defining terms first on a tie.
                    let best = fitting.iter().rev().max_by_key(|t| self.score[i][*t]);
                    match best {
                        Some(t) if defs.contains(t) => Raw::Def(*t),
                        Some(t) => Raw::Fixed(*t),
                        None => Raw::Fixed(store.value_term(&v[y], &sort)),
                    }
                }
            });
        }
        let mut state = vec![Resolve::Open; self.ys.len()];
        for i in 0..self.ys.len() {
            let t = self.resolve(i, &raw, &mut state, m, v);
            self.choice[i] = Some(t);
        }
        self.ys
            .iter()
            .zip(&self.choice)
            .map(|(y, c)| (*y, c.expect("every existential was just resolved")))
            .collect()
    }

    /// The pool variable of the right sort with value `val` at `m` that had its value most
    /// often, or `val` itself.
    fn fallback(&self, i: usize, m: &HashMap<VarId, Value>, val: &Value) -> TermId {
        let store = self.store;
        let sort = store.var_sort(self.ys[i]);
        let best = self
            .pool
            .iter()
            .filter(|w| store.var_sort(**w) == sort && &m[*w] == val)
            .max_by_key(|w| self.score[i].get(&store.var(**w)).copied().unwrap_or(0));
        match best {
            Some(w) => store.var(*w),
            None => store.value_term(val, &sort),
        }
    }

    /// The term of existential `i` over the pool: a defining term with the other existentials
    /// it mentions resolved in turn (on a cycle, the fallback breaks it).
    fn resolve(
        &self,
        i: usize,
        raw: &[Raw],
        state: &mut [Resolve],
        m: &HashMap<VarId, Value>,
        v: &HashMap<VarId, Value>,
    ) -> TermId {
        match state[i] {
            Resolve::Done(t) => return t,
            Resolve::Active => return self.fallback(i, m, &v[&self.ys[i]]),
            Resolve::Open => {}
        }
        let t = match raw[i] {
            Raw::Fixed(t) => t,
            Raw::Def(d) => {
                state[i] = Resolve::Active;
                let mut map = HashMap::new();
                for x in self.store.free_vars(d) {
                    if let Some(&j) = self.index.get(&x) {
                        map.insert(x, self.resolve(j, raw, state, m, v));
                    }
                }
                self.store.substitute(d, &map)
            }
        };
        state[i] = Resolve::Done(t);
        t
    }
}

/// A choice before the existentials it mentions are resolved.
#[derive(Clone, Copy)]
enum Raw {
    /// A term over the pool.
    Fixed(TermId),
    /// A defining term that may mention other existentials.
    Def(TermId),
}

/// Progress of resolving one existential's term.
#[derive(Clone, Copy)]
enum Resolve {
    Open,
    Active,
    Done(TermId),
}

/// Per existential of `ys`: the terms `t` with an equality `y = t` somewhere in `matrix` (at
/// most [`MAX_DEFS`], not mentioning `y` itself).
fn defining_terms(
    store: &TermStore,
    index: &HashMap<VarId, usize>,
    ys: &[VarId],
    matrix: TermId,
) -> Vec<Vec<TermId>> {
    let mut defs = vec![Vec::new(); ys.len()];
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![matrix];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let Term::App(op, args) = &store.get(t).term else {
            continue;
        };
        if *op == Op::Eq {
            for (a, b) in [(args[0], args[1]), (args[1], args[0])] {
                let Some(i) = store.as_var(a).and_then(|y| index.get(&y).copied()) else {
                    continue;
                };
                if defs[i].len() < MAX_DEFS
                    && !defs[i].contains(&b)
                    && !store.free_vars(b).contains(&ys[i])
                {
                    defs[i].push(b);
                }
            }
        }
        stack.extend(args.iter().copied());
    }
    defs
}

/// Values of `ys` satisfying the matrix at the premise model `m` (the head's free variables
/// fixed to their values), as close to the values `prefer` of the current choices as the
/// solver allows: `Some(None)`
/// when there are none, `None` when the solver cannot tell.
fn solve_matrix(
    store: &TermStore,
    inner: &mut Smt,
    head_free: &[VarId],
    ys: &[VarId],
    prefer: &[Option<Value>],
    m: &HashMap<VarId, Value>,
) -> Option<Option<HashMap<VarId, Value>>> {
    inner.push();
    for v in head_free {
        let sort = store.var_sort(*v);
        inner.assert(store.eq(store.var(*v), store.value_term(&m[v], &sort)));
    }
    let mut prefer: Vec<TermId> = ys
        .iter()
        .zip(prefer)
        .filter_map(|(y, val)| {
            let val = val.as_ref()?;
            Some(store.eq(store.var(*y), store.value_term(val, &store.var_sort(*y))))
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
                let fresh: Vec<VarId> = bound.iter().map(|v| store.fresh_copy(*v)).collect();
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
    use crate::clock::Deadline;
    use crate::syntax::read_system;
    use crate::witness::model::clause_query;
    use crate::witness::read_model;
    use std::time::Duration;

    /// The verdict of instantiation on the first clause of `system` under `model`.
    fn instantiate(system: &str, model: &str) -> SatResult {
        let store = TermStore::new();
        let sys = read_system(&store, system).expect("a well-formed system");
        let m = read_model(&store, &sys, model).expect("a well-formed model");
        let (premise, head) = clause_query(&store, &sys, &m, ClauseId(0));
        let mut smt = Smt::new(&store, Deadline::after(Duration::from_secs(20)));
        check_by_instantiation(&mut smt, premise, head)
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
    fn existentials_without_a_matching_variable_take_their_defining_terms() {
        // No clause variable has the value of `u` (2a + 1) or `v`: they are instantiated with
        // the terms the head equates them with, `v` through `u`.
        let sys = "(declare-fun p (Int Int) Bool)
            (assert (forall ((x Int) (r Int)) (=> (= r (+ x x x x 2)) (p x r))))
            (check-sat)";
        let good = "(define-fun p ((a Int) (r Int)) Bool
            (exists ((u Int) (v Int)) (and (= u (+ a a 1)) (= v (+ u u)) (= r v))))";
        assert_eq!(instantiate(sys, good), SatResult::Unsat);
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
    fn copies_are_instantiated_with_the_variable_they_copy() {
        let store = TermStore::new();
        let x = store.new_var("x", crate::term::Sort::Int);
        let y = store.new_var("y", crate::term::Sort::Int);
        // x → x1 → x2 (renamed twice, as inlining and the prenex form do); y1 copies y.
        let x1 = store.fresh_copy(x);
        let x2 = store.fresh_copy(x1);
        let y1 = store.fresh_copy(y);
        let fresh = store.new_var("z", crate::term::Sort::Int);
        let got = instance_by_origin(&store, &[x2, y1, fresh], &[x, y]);
        assert_eq!(got.get(&x2), Some(&store.var(x)));
        assert_eq!(got.get(&y1), Some(&store.var(y)));
        assert_eq!(got.get(&fresh), None, "no variable it copies");
        // Two pool variables on one trail: the nearer wins; two copies of one variable in the
        // pool (nothing nearer): no instance.
        let got = instance_by_origin(&store, &[x2], &[x, x1]);
        assert_eq!(got.get(&x2), Some(&store.var(x1)));
        let x1b = store.fresh_copy(x);
        let x3 = store.fresh_copy(x);
        assert!(instance_by_origin(&store, &[x3], &[x1, x1b]).is_empty());
    }

    #[test]
    fn a_quantifier_free_head_is_left_to_others() {
        let m = "(define-fun p ((a Int) (r Int)) Bool (>= r 0))";
        assert!(matches!(instantiate(LOCALS, m), SatResult::Unknown(_)));
    }
}
