//! Candidate invariants of the cell abstraction: range facts about one cell, `k < lo ∨ k ≥ hi ∨
//! v = e` ("every cell from `lo` up to `hi` holds `e`", where `e` is a literal, a scalar
//! argument or the index plus a literal, or `v ≠ x` for a scalar argument), and the same for two
//! cells read at one index (`k₁ = k₂ ∧ lo ≤ k₁ < hi → v₁ = v₂`, a copy, perhaps but at one
//! scalar argument). Translated back they are the quantified
//! invariants of array loops (`∀k. 0 ≤ k < i → a[k] = 43`), which the invariant engines of
//! linear arithmetic do not build themselves: a PDR lemma is one conjunction at a time, and the
//! range's bound is a loop counter.
//!
//! Duty: propose, from the predicates' sorts and the system's small integer literals alone.
//! Must not: check anything (the engine that takes them filters them, on samples and by
//! induction), or grow past [`MAX_TEMPLATES`] per predicate.

use super::{slots, Slot};
use crate::chc::System;
use crate::term::{Sort, TermId, TermStore, VarId};
use crate::witness::{Interp, Model};
use num_traits::Signed;

/// Most candidates per predicate, shared by its cells in turn: the simplest ranges first (from
/// 0 or from anywhere, up to a scalar argument or a literal, holding a literal or a scalar),
/// then ranges from a scalar argument.
pub(super) const MAX_TEMPLATES: usize = 2000;

/// Most literals a range bound or a cell value is taken from (smallest first).
const MAX_LITERALS: usize = 12;

/// Largest literal, in bits (the bounds of machine integers are not loop bounds).
const MAX_LITERAL_BITS: u64 = 30;

/// The range candidates of every predicate of `cells`, the cell abstraction of `given`.
pub(super) fn templates(store: &TermStore, given: &System, cells: &System) -> Model {
    let literals: Vec<TermId> = given
        .small_literals(store, MAX_LITERAL_BITS, MAX_LITERALS)
        .into_iter()
        .map(|c| store.int(c))
        .collect();
    let mut model = Model::new();
    for p in cells.pred_ids() {
        let params = cells.fresh_params(store, p);
        let mut cell_pairs: Vec<(VarId, VarId)> = Vec::new();
        let mut scalars: Vec<TermId> = Vec::new();
        for slot in slots(&given.pred(p).sorts, &params) {
            match slot {
                Slot::Cell(k, v) => cell_pairs.push((k, v)),
                Slot::Scalar(x) if store.var_sort(x) == Sort::Int => scalars.push(store.var(x)),
                Slot::Scalar(_) => {}
            }
        }
        // Each cell's candidates, simplest first; the cells share the budget in turn.
        let mut per_cell: Vec<Vec<TermId>> = Vec::new();
        for (n, &(k, v)) in cell_pairs.iter().enumerate() {
            if store.var_sort(k) != Sort::Int {
                continue;
            }
            let cell = store.var(v);
            // A copy: another cell of the same sorts read at the same index, but perhaps at
            // one scalar argument (`if (i != z) b[i] = a[i]`).
            let mut copies = Vec::new();
            for &(k2, v2) in &cell_pairs[n + 1..] {
                if store.var_sort(k2) == Sort::Int && store.var_sort(v2) == store.var_sort(v) {
                    let same = store.eq(store.var(k), store.var(k2));
                    let copied = store.eq(cell, store.var(v2));
                    copies.push(store.implies(same, copied));
                    for &x in &scalars {
                        let except = store.and([same, store.not(store.eq(store.var(k), x))]);
                        copies.push(store.implies(except, copied));
                    }
                }
            }
            // A literal or a scalar argument (the simple values), then not a scalar argument
            // (what a search skipped), the index plus a literal (`a[k] = k + 42`) and copies.
            let mut simple = Vec::new();
            let mut other = Vec::new();
            match store.var_sort(v) {
                Sort::Int => {
                    let equal = |e: TermId| store.eq(cell, e);
                    simple.extend(literals.iter().map(|&c| equal(c)));
                    simple.extend(scalars.iter().map(|&x| equal(x)));
                    other.extend(scalars.iter().map(|&x| store.not(equal(x))));
                    let shifted = literals.iter().map(|&c| store.add([store.var(k), c]));
                    other.extend(shifted.map(equal));
                }
                Sort::Bool => simple.extend([cell, store.not(cell)]),
                _ => {}
            }
            other.extend(copies);
            let mut out = Vec::new();
            ranges(
                store,
                store.var(k),
                &scalars,
                &literals,
                [&simple, &other],
                &mut out,
            );
            per_cell.push(out);
        }
        // The order of two scalar arguments (`i ≤ n`): the samples' own pairs stop at an arity
        // the cells' extra parameters often pass.
        let mut out: Vec<TermId> = scalars
            .iter()
            .flat_map(|&x| {
                scalars
                    .iter()
                    .filter(move |&&y| y != x)
                    .map(move |&y| (x, y))
            })
            .map(|(x, y)| store.le(x, y))
            .collect();
        out.extend(in_turn(per_cell, MAX_TEMPLATES.saturating_sub(out.len())));
        model.set(
            p,
            Interp {
                params,
                body: store.and(out),
            },
        );
    }
    model
}

/// `k < lo ∨ k ≥ hi ∨ value`: first from no lower bound or 0, up to each scalar or positive
/// literal, each simple value then each other value; then from each scalar.
fn ranges(
    store: &TermStore,
    k: TermId,
    scalars: &[TermId],
    literals: &[TermId],
    values: [&[TermId]; 2],
    out: &mut Vec<TermId>,
) {
    let zero = store.int(0);
    let positive = |&&c: &&TermId| store.as_number(c).is_some_and(|c| c.is_positive());
    let his: Vec<TermId> = scalars
        .iter()
        .chain(literals.iter().filter(positive))
        .copied()
        .collect();
    let mut range = |lo: Option<TermId>, hi: TermId, value: TermId| {
        if lo != Some(hi) {
            let below = lo.map(|lo| store.lt(k, lo));
            out.push(store.or(below.into_iter().chain([store.ge(k, hi), value])));
        }
    };
    for vals in values {
        for &hi in &his {
            for &value in vals {
                for lo in [Some(zero), None] {
                    range(lo, hi, value);
                }
            }
        }
    }
    for &lo in scalars {
        for &hi in &his {
            for &value in values.iter().flat_map(|v| v.iter()) {
                range(Some(lo), hi, value);
            }
        }
    }
}

/// The lists' items taken in turn, one of each list per round, at most `max` in all: every
/// cell gets its simplest candidates before any gets its more complex ones.
fn in_turn(lists: Vec<Vec<TermId>>, max: usize) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut iters: Vec<_> = lists.into_iter().map(Vec::into_iter).collect();
    while out.len() < max {
        let before = out.len();
        for it in &mut iters {
            if let Some(t) = it.next() {
                out.push(t);
            }
        }
        if out.len() == before {
            break;
        }
    }
    out.truncate(max);
    out
}
