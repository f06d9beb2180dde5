//! Checking a clause under universally quantified lemmas by ground instances: the premise's
//! `∀k. φ(k)` instantiated at the index terms of the clause, the head's `∀k. ψ(k)` negated at
//! a fresh constant.
//!
//! The cells' models read back as conjunctions of lemmas `∀k. φ(k, a[k])` (one per lemma, over
//! the cells it reads). A clause under such a model holds when every head lemma holds at a
//! fresh index `s`; and the cells view proved it from the body lemmas at the indices the clause
//! reads and writes, and at `s`. Instantiating the premise's lemmas at exactly those terms
//! makes the check quantifier-free, where Z3's own instantiation of hundreds of quantified
//! lemmas takes seconds (`res1o`'s model: about 2 s a validation, 0.2 s on the cells view).
//!
//! Must not: report a violation. The instances are consequences of the premise, so an
//! unsatisfiable check proves the clause; a satisfiable one only means that these instances
//! do not suffice (`Unknown`, and the caller's other checks decide).

use crate::smt::{SatResult, Smt};
use crate::term::{Op, Quantifier, Sort, Term, TermId, TermStore, VarId};
use std::collections::{BTreeMap, HashMap};

/// Most ground instances of the premise's lemmas before the check is left to the solver.
const MAX_INSTANCES: usize = 20_000;

/// How long the check of all head lemmas at once may take before they are checked one at a
/// time.
const WHOLE_FIRST: std::time::Duration = std::time::Duration::from_millis(200);

/// Whether `premise ∧ ¬head` is unsatisfiable by ground instances (see the module header), in
/// a scope of `smt` that is left as it was. `Unsat` proves the clause; anything else leaves it
/// undecided.
pub(super) fn check_by_ground_instances(
    smt: &mut Smt<'_>,
    premise: TermId,
    head: TermId,
) -> SatResult {
    let store = smt.store();
    let undecided = |why: &str| SatResult::Unknown(format!("ground instances: {why}"));
    let mut ground = Vec::new();
    let mut universal = Vec::new();
    for c in flat_conjuncts(store, premise) {
        match split_forall(store, c) {
            Some(q) => universal.push(q),
            // Other quantified conjuncts are left out: a weaker premise is still sound.
            None if store.has_quantifier(c) => {}
            None => ground.push(c),
        }
    }
    // Each head lemma's bound variables become fresh constants, the `j`-th of a sort the same
    // constant in every lemma (each lemma is checked on its own).
    let mut skolems: HashMap<(Sort, usize), VarId> = HashMap::new();
    let mut goals = Vec::new();
    for c in flat_conjuncts(store, head) {
        if !store.has_quantifier(c) {
            goals.push(c);
            continue;
        }
        let Some((vars, body)) = split_forall(store, c) else {
            return undecided("a head lemma that is not universal");
        };
        let mut seen: BTreeMap<Sort, usize> = BTreeMap::new();
        let map: HashMap<VarId, TermId> = vars
            .iter()
            .map(|&v| {
                let sort = store.var_sort(v);
                let j = seen.entry(sort.clone()).or_insert(0);
                let key = (sort.clone(), *j);
                *j += 1;
                let s = *skolems
                    .entry(key)
                    .or_insert_with(|| store.new_var("ground!s", sort));
                (v, store.var(s))
            })
            .collect();
        goals.push(store.substitute(body, &map));
    }
    if universal.is_empty() && skolems.is_empty() {
        return undecided("no universal lemma");
    }
    // The index terms: every array index in the ground premise and the goals, and the
    // constants standing for the head's bound variables.
    let mut terms: BTreeMap<Sort, Vec<TermId>> = BTreeMap::new();
    for ((sort, _), &s) in &skolems {
        terms.entry(sort.clone()).or_default().push(store.var(s));
    }
    for &t in ground.iter().chain(&goals) {
        indices(store, t, &mut terms);
    }
    let mut instances = Vec::new();
    for (vars, body) in &universal {
        let choices: Vec<&[TermId]> = vars
            .iter()
            .map(|v| terms.get(&store.var_sort(*v)).map_or(&[][..], |t| &t[..]))
            .collect();
        let count = choices.iter().map(|c| c.len()).product::<usize>();
        if instances.len() + count > MAX_INSTANCES {
            return undecided("too many instances");
        }
        for pick in product(&choices) {
            let map: HashMap<VarId, TermId> = vars.iter().copied().zip(pick).collect();
            instances.push(store.substitute(*body, &map));
        }
    }
    // All head lemmas at once first (one search refutes them in milliseconds where one check
    // per lemma takes a second over hundreds), one at a time if that runs out of time.
    let premise = store.and(ground.into_iter().chain(instances));
    let mut whole = Some(WHOLE_FIRST);
    match super::clause_check::check_in_scope(smt, premise, store.and(goals), &mut whole) {
        SatResult::Unsat => SatResult::Unsat,
        _ => undecided("the instances do not refute the head"),
    }
}

/// The conjuncts of `t`, nested conjunctions flattened.
fn flat_conjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match &store.get(t).term {
            Term::App(Op::And, args) => stack.extend(args.iter().rev()),
            Term::Bool(true) => {}
            _ => out.push(t),
        }
    }
    out
}

/// `∀vars. body` with a quantifier-free body, as its parts.
fn split_forall(store: &TermStore, t: TermId) -> Option<(Vec<VarId>, TermId)> {
    match &store.get(t).term {
        Term::Quant(Quantifier::Forall, vars, body) if !store.has_quantifier(*body) => {
            Some((vars.to_vec(), *body))
        }
        _ => None,
    }
}

/// Adds the index of every array read and write in `t` to `terms`, by sort, once each.
fn indices(store: &TermStore, t: TermId, terms: &mut BTreeMap<Sort, Vec<TermId>>) {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if let Term::App(op, args) = &store.get(t).term {
            if matches!(op, Op::Select | Op::Store) && args.len() >= 2 {
                let i = args[1];
                let sorted = terms.entry(store.sort(i)).or_default();
                if !sorted.contains(&i) {
                    sorted.push(i);
                }
            }
            stack.extend(args.iter());
        }
    }
}

/// Every choice of one term from each list (none when a list is empty).
fn product(choices: &[&[TermId]]) -> Vec<Vec<TermId>> {
    choices.iter().fold(vec![Vec::new()], |acc, options| {
        acc.iter()
            .flat_map(|prefix| {
                options.iter().map(move |&t| {
                    let mut next = prefix.clone();
                    next.push(t);
                    next
                })
            })
            .collect()
    })
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

    /// The verdict of ground instances on the first clause of `system` under `model`.
    fn ground(system: &str, model: &str) -> SatResult {
        let store = TermStore::new();
        let sys = read_system(&store, system).expect("a well-formed system");
        let m = read_model(&store, &sys, model).expect("a well-formed model");
        let (premise, head) = clause_query(&store, &sys, &m, ClauseId(0));
        let mut smt = Smt::new(&store, Deadline::after(Duration::from_secs(20)));
        check_by_ground_instances(&mut smt, premise, head)
    }

    /// A loop that fills `a` with 1 up to `i`.
    const FILL: &str = "(declare-fun p (Int (Array Int Int)) Bool)
        (assert (forall ((i Int) (a (Array Int Int)) (j Int) (b (Array Int Int)))
          (=> (and (p i a) (= b (store a i 1)) (= j (+ i 1))) (p j b))))
        (check-sat)";

    /// The cells' kind of model: one universal lemma per conjunct.
    #[test]
    fn the_written_index_and_a_fresh_one_prove_a_range_lemma() {
        let model = "(define-fun p ((i Int) (a (Array Int Int))) Bool
            (and (>= i 0) (forall ((k Int)) (=> (and (<= 0 k) (< k i)) (= (select a k) 1)))))";
        assert_eq!(ground(FILL, model), SatResult::Unsat);
    }

    /// A lemma that does not hold is never reported violated here (the instances are only
    /// consequences of the premise): the other checks decide.
    #[test]
    fn a_lemma_that_fails_is_left_undecided() {
        let model = "(define-fun p ((i Int) (a (Array Int Int))) Bool
            (forall ((k Int)) (=> (and (<= 0 k) (<= k i)) (= (select a k) 1))))";
        assert!(matches!(ground(FILL, model), SatResult::Unknown(_)));
    }

    /// A head lemma over two cells gets two fresh constants, and the premise's lemmas are
    /// instantiated at both.
    #[test]
    fn lemmas_over_two_cells_get_two_constants() {
        let sys = "(declare-fun p (Int (Array Int Int)) Bool)
            (assert (forall ((i Int) (a (Array Int Int)) (b (Array Int Int)))
              (=> (and (p i a) (= b (store a i 0))) (p i b))))
            (check-sat)";
        let model = "(define-fun p ((i Int) (a (Array Int Int))) Bool
            (forall ((k Int) (l Int)) (=> (and (< k l) (< l i)) (<= (select a k) (select a l)))))";
        assert_eq!(ground(sys, model), SatResult::Unsat);
    }
}
