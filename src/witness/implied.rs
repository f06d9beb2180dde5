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
//! are rewritten by the definitions the premise makes (conjuncts `x = e` either way round, `x`
//! a variable not in `e`; `x` and `¬x`: `x` is `true`, `false`) and put in a
//! [canonical form](Canonical) up to the order of connectives' arguments and De Morgan's laws
//! (the constraint simplified on the way to the model says `(or a b)` where the clause says
//! `(or b a)`, or `¬(p ∧ q)` for `¬p ∨ ¬q`). Sound: the premise implies each definition, so in
//! every model of the premise a term and its rewritten form agree, the canonical form of a
//! formula is equivalent to it, and the rewritten premise conjuncts hold there.
//!
//! Must not: drop a conjunct for any other reason, or call a solver.

use crate::term::{Op, Term, TermId, TermStore, VarId};
use std::collections::{HashMap, HashSet};

/// Heads of fewer conjuncts are compared with the premise as they stand (equalities either way
/// round): rewriting a large premise (a model's interpretations of the body atoms) or putting
/// it in canonical form costs a few milliseconds, more than the solver needs for a few
/// conjuncts (the canonical form on every head: 0.3 → 4.8 ms in all for the small heads of 30
/// public `sat` files).
const REWRITE_FROM: usize = 4;

/// The conjuncts of `head` that `premise` does not imply by the rule above, as one conjunction
/// (`true` when it implies them all).
pub(super) fn unimplied(store: &TermStore, premise: TermId, head: TermId) -> TermId {
    let heads = flat_conjuncts(store, head);
    if heads.is_empty() {
        return head;
    }
    let premises = flat_conjuncts(store, premise);
    let rewrite = heads.len() >= REWRITE_FROM;
    let defs = match rewrite {
        true => Definitions::of(store, &premises),
        false => Definitions::default(),
    };
    // Small heads: the premise as it stands, each head conjunct also the other way round.
    let mut canonical = Canonical::new(store);
    let mut known = HashSet::new();
    for &p in &premises {
        match rewrite {
            true => known.extend(flat_conjuncts(store, canonical.of(defs.apply(store, p)))),
            false => _ = known.insert(p),
        }
    }
    let mut implied = |h: TermId| match rewrite {
        true => flat_conjuncts(store, canonical.of(defs.apply(store, h)))
            .iter()
            .all(|c| known.contains(c)),
        false => known.contains(&h) || known.contains(&flipped(store, h)),
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

/// Formulas in negation normal form over their atoms, with the arguments of `and` and `or`
/// flattened, without duplicates and sorted by id, and the two sides of an equality sorted by
/// id (Boolean ones in this form too): formulas equal up to those laws get the same term.
/// Memoised per store for one [`unimplied`] call.
struct Canonical<'s> {
    store: &'s TermStore,
    /// (term, positive) → its canonical form, or that of its negation.
    memo: HashMap<(TermId, bool), TermId>,
}

impl<'s> Canonical<'s> {
    fn new(store: &'s TermStore) -> Self {
        Canonical {
            store,
            memo: HashMap::new(),
        }
    }

    /// The canonical form of `t`.
    fn of(&mut self, t: TermId) -> TermId {
        self.form(t, true)
    }

    /// The canonical form of `t` (`positive`) or of `¬t`.
    fn form(&mut self, t: TermId, positive: bool) -> TermId {
        if let Some(&c) = self.memo.get(&(t, positive)) {
            return c;
        }
        let store = self.store;
        let c = match &store.get(t).term {
            Term::App(Op::Not, args) => self.form(args[0], !positive),
            Term::App(op @ (Op::And | Op::Or), args) => {
                // ¬(a ∧ b) is ¬a ∨ ¬b, and dually.
                let conjunction = (*op == Op::And) == positive;
                let join = if conjunction { Op::And } else { Op::Or };
                let mut parts = Vec::new();
                for &a in args.iter() {
                    let f = self.form(a, positive);
                    match &store.get(f).term {
                        Term::App(o, inner) if *o == join => parts.extend(inner.iter().copied()),
                        _ => parts.push(f),
                    }
                }
                parts.sort_unstable();
                parts.dedup();
                match conjunction {
                    true => store.and(parts),
                    false => store.or(parts),
                }
            }
            Term::App(Op::Eq, args) if args.len() == 2 => {
                let side = |c: &mut Self, a: TermId| match store.sort(a) == crate::term::Sort::Bool
                {
                    true => c.of(a),
                    false => a,
                };
                let (a, b) = (side(self, args[0]), side(self, args[1]));
                let eq = store.eq(a.min(b), a.max(b));
                match positive {
                    true => eq,
                    false => store.not(eq),
                }
            }
            _ if positive => t,
            _ => store.not(t),
        };
        self.memo.insert((t, positive), c);
        c
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
    fn conjuncts_equal_up_to_argument_order_and_de_morgan_are_implied() {
        let s = TermStore::new();
        let [a, b] = ["a", "b"].map(|n| s.var(s.new_var(n, Sort::Int)));
        let [p, q] = ["p", "q"].map(|n| s.var(s.new_var(n, Sort::Bool)));
        let (a1, b0) = (s.ge(a, s.int(1)), s.le(b, s.int(0)));
        // (p ∨ a ≥ 1) ∧ ¬(q ∧ b ≤ 0) ∧ (a = b)
        let premise = s.and([s.or([p, a1]), s.not(s.and([q, b0])), s.eq(a, b)]);
        // (a ≥ 1 ∨ p), ¬q ∨ ¬(b ≤ 0), b = a: the same up to the laws; ¬(p ∧ q) is not implied.
        let kept = s.not(s.and([p, q]));
        let head = s.and([s.or([a1, p]), s.or([s.not(q), s.not(b0)]), s.eq(b, a), kept]);
        assert_eq!(unimplied(&s, premise, head), kept);
        // A premise conjunct in another form implies each of its conjuncts: ¬(p ∨ a ≥ 1)
        // gives ¬p and ¬(a ≥ 1).
        let premise = s.and([s.not(s.or([p, a1])), b0]);
        let other = s.le(a, s.int(5));
        let head = s.and([s.not(a1), s.not(p), b0, other]);
        assert_eq!(unimplied(&s, premise, head), other);
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
