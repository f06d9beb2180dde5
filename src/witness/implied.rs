//! Head conjuncts that a clause's premise implies by its own shape, found without a solver.
//!
//! A model back-translated through inlining interprets an inlined predicate by its definition,
//! `∃ locals. constraint ∧ M(body)` with the locals that the constraint defines substituted
//! away; at the clause that defined it, the validator instantiates the other locals with the
//! clause's own variables, and the head becomes, conjunct by conjunct, the clause's constraint
//! again, up to those substitutions (`x = y ∧ y > 0` in the premise, `x > 0` in the head). Kind
//! 2's node steps have a hundred such conjuncts, and a solver check each (about 0.4 ms apiece)
//! made up most of their validation.
//!
//! [`unimplied`] drops the head conjuncts that equal a premise conjunct, or `true`, once both
//! are rewritten by the definitions the premise makes: conjuncts `x = e` (either way round,
//! `x` a variable not in `e`), `x` and `¬x` (`x` is `true`, `false`). Sound: the premise
//! implies each definition, so in every model of the premise a term and its rewritten form
//! agree, and the rewritten premise conjuncts hold there.
//!
//! Must not: drop a conjunct for any other reason, or call a solver.

use crate::term::{Op, Term, TermId, TermStore, VarId};
use std::collections::{HashMap, HashSet};

/// Heads of fewer conjuncts are compared with the premise as they stand: rewriting a large
/// premise (a model's interpretations of the body atoms) costs a few milliseconds, more than
/// the solver needs for a few conjuncts.
const REWRITE_FROM: usize = 4;

/// The conjuncts of `head` that `premise` does not imply by the rule above, as one conjunction
/// (`true` when it implies them all).
pub(super) fn unimplied(store: &TermStore, premise: TermId, head: TermId) -> TermId {
    let heads = flat_conjuncts(store, head);
    if heads.is_empty() {
        return head;
    }
    let premises = flat_conjuncts(store, premise);
    let defs = match heads.len() < REWRITE_FROM {
        true => Definitions::default(),
        false => Definitions::of(store, &premises),
    };
    let known: HashSet<TermId> = premises.iter().map(|&p| defs.apply(store, p)).collect();
    let implied = |h: TermId| {
        let c = defs.apply(store, h);
        c == store.tt() || known.contains(&c) || known.contains(&flipped(store, c))
    };
    store.and(heads.into_iter().filter(|&h| !implied(h)))
}

/// The conjuncts of `t`, nested conjunctions flattened.
fn flat_conjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut todo = vec![t];
    while let Some(t) = todo.pop() {
        match &store.get(t).term {
            Term::App(Op::And, args) => todo.extend(args.iter().rev().copied()),
            Term::Bool(true) => {}
            _ => out.push(t),
        }
    }
    out
}

/// `b = a` for an equality `a = b` (equalities keep their written order), else `t`.
fn flipped(store: &TermStore, t: TermId) -> TermId {
    match &store.get(t).term {
        Term::App(Op::Eq, args) if args.len() == 2 => store.eq(args[1], args[0]),
        _ => t,
    }
}

/// The definitions a conjunction makes, as one idempotent substitution: no variable it
/// replaces occurs in what it replaces a variable with.
#[derive(Default)]
struct Definitions {
    map: HashMap<VarId, TermId>,
}

impl Definitions {
    /// The definitions of `conjuncts`, read in order, each rewritten by those before it.
    fn of(store: &TermStore, conjuncts: &[TermId]) -> Self {
        let mut defs = Definitions::default();
        for &c in conjuncts {
            // `c` is rewritten already: none of its variables is replaced, so a definition
            // it makes is of a new variable.
            if let Some((x, e, _)) = store.definition(defs.apply(store, c), |_| true) {
                defs.add(store, x, e);
            }
        }
        defs
    }

    /// Adds `x ↦ e` (`x` replaced by nothing yet, `e` rewritten), rewriting the earlier
    /// definitions that mention `x`.
    fn add(&mut self, store: &TermStore, x: VarId, e: TermId) {
        let one = HashMap::from([(x, e)]);
        for r in self.map.values_mut() {
            if store.free_vars(*r).contains(&x) {
                *r = store.substitute(*r, &one);
            }
        }
        self.map.insert(x, e);
    }

    /// `t` with the defined variables replaced.
    fn apply(&self, store: &TermStore, t: TermId) -> TermId {
        if self.map.is_empty() {
            t
        } else {
            store.substitute(t, &self.map)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    #[test]
    fn conjuncts_equal_up_to_copies_are_implied_and_others_are_not() {
        let s = TermStore::new();
        let [x, y, z, w] = ["x", "y", "z", "w"].map(|n| s.var(s.new_var(n, Sort::Int)));
        let one = s.int(1);
        // x = y ∧ y = z ∧ x ≥ 1 ∧ w ≤ 0
        let premise = s.and([s.eq(x, y), s.eq(y, z), s.ge(x, one), s.le(w, s.int(0))]);
        // z ≥ 1 (a copy of x ≥ 1), z = x (true once rewritten), 0 ≥ w (the premise's w ≤ 0
        // is another term: kept), x ≥ 2 (kept)
        let head = s.and([
            s.ge(z, one),
            s.eq(z, x),
            s.ge(s.int(0), w),
            s.ge(x, s.int(2)),
        ]);
        let left = unimplied(&s, premise, head);
        assert_eq!(
            s.conjuncts(left),
            vec![s.ge(s.int(0), w), s.ge(x, s.int(2))]
        );
    }

    #[test]
    fn definitions_by_terms_and_boolean_literals_rewrite_both_sides() {
        let s = TermStore::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| s.var(s.new_var(n, Sort::Int)));
        let [p, q] = ["p", "q"].map(|n| s.var(s.new_var(n, Sort::Bool)));
        let sum = s.add([b, c]);
        // a = b + c ∧ p ∧ ¬q ∧ (p → a ≥ 0)
        let premise = s.and([s.eq(a, sum), p, s.not(q), s.implies(p, s.ge(a, s.int(0)))]);
        // b + c ≥ 0 (the premise's last conjunct, rewritten), p, ¬q, b ≥ 0 (kept)
        let kept = s.ge(b, s.int(0));
        let head = s.and([s.ge(sum, s.int(0)), p, s.not(q), kept]);
        assert_eq!(unimplied(&s, premise, head), kept);
        // A head that contradicts a definition stays: `q` is `false` under the premise.
        assert_eq!(unimplied(&s, premise, q), q);
    }

    #[test]
    fn an_equality_is_implied_in_either_order_and_a_head_of_premises_is_true() {
        let s = TermStore::new();
        let [a, b] = ["a", "b"].map(|n| s.var(s.new_var(n, Sort::Int)));
        let sum = s.add(vec![a, b]);
        let premise = s.and([s.eq(sum, s.int(3)), s.le(a, b)]);
        let head = s.and([s.eq(s.int(3), sum), s.le(a, b)]);
        assert_eq!(unimplied(&s, premise, head), s.tt());
        // Without definitions nothing is rewritten: `b ≥ a` is another term.
        let other = s.and([s.ge(b, a), s.le(a, b)]);
        assert_eq!(unimplied(&s, premise, other), s.ge(b, a));
    }
}
