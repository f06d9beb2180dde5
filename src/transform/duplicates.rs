//! Merging duplicate clauses: clauses equal up to the names of their variables are kept once.
//!
//! Generated systems repeat clauses (one per call site, per copy of a loop body), and every
//! engine pays for each copy: its solver slot, its unrolling, its checks. Two clauses are
//! duplicates when renaming each one's variables, in the order they first occur (body
//! arguments, head arguments, then the constraint's variables by id), to the same canonical
//! variables gives the same atoms and the same constraint (terms are hash-consed, so that is
//! an id comparison). Clauses equal only up to reordered body atoms or a rewritten constraint
//! are not found; that costs a copy, never an answer.
//!
//! Must not: merge clauses that are not renamings of each other. Back-translation: models are
//! unchanged (a model of a clause is one of its renamings); derivation steps name the first
//! clause of each group, whose variables the step's assignment already uses.

use super::{rename_clauses, BackError, BackTranslator, Transform};
use crate::chc::{Atom, Clause, ClauseId, Head, System};
use crate::clock::Deadline;
use crate::term::{Sort, TermId, TermStore, VarId};
use crate::witness::{Derivation, Model};
use std::collections::HashMap;

/// Keeps the first of every group of clauses equal up to variable renaming.
#[derive(Clone, Copy, Debug, Default)]
pub struct MergeDuplicates;

/// Back-translation of [`MergeDuplicates`]: per new clause, its old id.
struct Back {
    old_clause: Vec<ClauseId>,
}

/// A clause with its variables renamed to canonical ones: what duplicates share.
#[derive(PartialEq, Eq, Hash)]
struct Canonical {
    body: Vec<Atom>,
    head: Head,
    constraint: TermId,
}

/// Canonical variables, one per position and sort, made on first use.
#[derive(Default)]
struct Names {
    vars: HashMap<(usize, Sort), VarId>,
}

impl Names {
    fn canonical(&mut self, store: &TermStore, clause: &Clause) -> Canonical {
        let mut order: Vec<VarId> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for a in clause.body.iter().chain(clause.head_atom()) {
            for &v in &a.args {
                if seen.insert(v) {
                    order.push(v);
                }
            }
        }
        for v in store.free_vars(clause.constraint) {
            if seen.insert(v) {
                order.push(v);
            }
        }
        let to: Vec<VarId> = order
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let sort = store.var_sort(v);
                *self
                    .vars
                    .entry((i, sort.clone()))
                    .or_insert_with(|| store.new_var(&format!("dup{i}"), sort))
            })
            .collect();
        let map: HashMap<VarId, VarId> = order.iter().copied().zip(to.iter().copied()).collect();
        let atom = |a: &Atom| Atom {
            pred: a.pred,
            args: a.args.iter().map(|v| map[v]).collect(),
        };
        Canonical {
            body: clause.body.iter().map(atom).collect(),
            head: match &clause.head {
                Head::Atom(h) => Head::Atom(atom(h)),
                Head::False => Head::False,
            },
            constraint: store.rename(clause.constraint, &order, &to),
        }
    }
}

impl Transform for MergeDuplicates {
    fn name(&self) -> &'static str {
        "duplicates"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let mut names = Names::default();
        let mut seen = std::collections::HashSet::new();
        let (new, old_clause) = system.restricted(|_, c| seen.insert(names.canonical(store, c)));
        (new, Box::new(Back { old_clause }))
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
        _store: &TermStore,
        d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        rename_clauses(d, &self.old_clause)
    }
}

#[cfg(test)]
mod tests {
    use super::MergeDuplicates;
    use crate::transform::Transform;

    fn merged(src: &str) -> usize {
        let store = crate::term::TermStore::new();
        let src = format!("{src} (check-sat)");
        let system = crate::syntax::read_system(&store, &src).expect("parses");
        MergeDuplicates.apply(&store, &system).0.num_clauses()
    }

    #[test]
    fn renamings_merge_and_other_clauses_stay() {
        let decls = "(declare-fun p (Int) Bool) (declare-fun q (Int Int) Bool)";
        let same = format!(
            "{decls}
            (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 2))) (p y))))
            (assert (forall ((a Int) (b Int)) (=> (and (p a) (= b (+ a 2))) (p b))))
            (assert (forall ((y Int) (x Int)) (=> (and (p y) (= x (+ y 2))) (p x))))"
        );
        assert_eq!(merged(&same), 1);
        // Another step, the arguments swapped, another predicate: all different.
        let other = format!(
            "{decls}
            (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 2))) (p y))))
            (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 3))) (p y))))
            (assert (forall ((x Int) (y Int)) (=> (and (q x y) (= y (+ x 2))) (q y x))))
            (assert (forall ((x Int) (y Int)) (=> (and (q x y) (= y (+ x 2))) (q x y))))
            (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 2))) false)))"
        );
        assert_eq!(merged(&other), 5);
    }
}
