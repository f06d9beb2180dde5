//! Candidate invariants of the cell abstraction: range facts about one cell, `k < lo ∨ k ≥ hi ∨
//! v = e` ("every cell from `lo` up to `hi` holds `e`", where `e` is a literal, a scalar
//! argument or the index plus a literal, or `v ≠ x` for a scalar argument or 0), and the same
//! for two cells read at one index (`k₁ = k₂ ∧ lo ≤ k₁ < hi → v₁ = v₂`, a copy, perhaps but at
//! one scalar argument). Translated back they are the quantified
//! invariants of array loops (`∀k. 0 ≤ k < i → a[k] = 43`), which the invariant engines of
//! linear arithmetic do not build themselves: a PDR lemma is one conjunction at a time, and the
//! range's bound is a loop counter.
//!
//! Where reachable states of a predicate are known, they choose its ranges: only those that
//! hold in every state and contain a cell of one are kept, one of each group the states see
//! alike, so that the budget goes to ranges the data bear out (an in-place update needs `i ≤ k
//! < n → a[k] = 1`, a range from a scalar, which the fixed order reaches late).
//!
//! Duty: propose, from the predicates' sorts, the system's small integer literals and the
//! states given. Must not: check anything by a solver (the engine that takes them filters them,
//! on samples and by induction), or grow past [`MAX_TEMPLATES`] per predicate.

use super::{slots, Slot};
use crate::chc::System;
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use crate::witness::{Interp, Model};
use num_traits::ToPrimitive;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// Most candidates per predicate, shared by its cells in turn: the simplest ranges first (from
/// 0 or from anywhere, up to a scalar argument or a literal, holding a literal or a scalar),
/// then ranges from a scalar argument.
pub(super) const MAX_TEMPLATES: usize = 2000;

/// Most candidates per predicate where states chose them: each costs the filter's checks, and
/// those the states bear out are mostly true, so fewer go further.
const MAX_BORNE_OUT: usize = 600;

/// Most ranges of one cell tried on the states before the cut to [`MAX_TEMPLATES`]: a filter
/// of plain integers, about a microsecond a range on a thousand states.
const MAX_TRIED: usize = 30_000;

/// Most literals a range bound or a cell value is taken from (smallest first).
const MAX_LITERALS: usize = 12;

/// Largest literal, in bits (the bounds of machine integers are not loop bounds).
const MAX_LITERAL_BITS: u64 = 30;

/// The range candidates of every predicate of `cells`, the cell abstraction of `given`.
/// `states` (per predicate of `cells`, a value per parameter: reachable states of the
/// abstraction) choose among them: where a predicate has some, its ranges are the ones that
/// hold in all of them and contain a cell of at least one (a range no state reaches says
/// nothing the states support), so that the budget goes to ranges the data bear out; where it
/// has none, the first ranges in the order above.
pub(super) fn templates(
    store: &TermStore,
    given: &System,
    cells: &System,
    states: &[Vec<Vec<Value>>],
) -> Model {
    let literals: Vec<(TermId, i128)> = given
        .small_literals(store, MAX_LITERAL_BITS, MAX_LITERALS)
        .into_iter()
        .filter_map(|c| Some((store.int(c.clone()), c.to_i128()?)))
        .collect();
    let mut model = Model::new();
    for p in cells.pred_ids() {
        let params = cells.fresh_params(store, p);
        let position = |x: VarId| params.iter().position(|&y| y == x).expect("a parameter");
        let mut cell_pairs: Vec<(usize, usize)> = Vec::new();
        let mut scalars: Vec<usize> = Vec::new();
        for slot in slots(&given.pred(p).sorts, &params) {
            match slot {
                Slot::Cell(k, v) => cell_pairs.push((position(k), position(v))),
                Slot::Scalar(x) if store.var_sort(x) == Sort::Int => scalars.push(position(x)),
                Slot::Scalar(_) => {}
            }
        }
        let sort = |n: usize| store.var_sort(params[n]);
        let states: Vec<Vec<Option<i128>>> = states
            .get(p.0 as usize)
            .into_iter()
            .flatten()
            .map(|s| s.iter().map(number).collect())
            .collect();
        // Each cell's candidates, simplest first; the cells share the budget in turn.
        let zero = Operand::Lit(store.int(0), 0);
        let mut per_cell: Vec<Vec<TermId>> = Vec::new();
        for (n, &(k, v)) in cell_pairs.iter().enumerate() {
            if sort(k) != Sort::Int {
                continue;
            }
            // A copy: another cell of the same sorts read at the same index, but perhaps at
            // one scalar argument (`if (i != z) b[i] = a[i]`).
            let mut copies = Vec::new();
            for &(k2, v2) in &cell_pairs[n + 1..] {
                if sort(k2) == Sort::Int && sort(v2) == sort(v) {
                    copies.push(Holds::Copy(k2, v2, None));
                    copies.extend(scalars.iter().map(|&x| Holds::Copy(k2, v2, Some(x))));
                }
            }
            // A literal or a scalar argument (the simple values), then not a scalar argument
            // (what a search skipped) or not null (a pointer), the index plus a literal
            // (`a[k] = k + 42`) and copies.
            let mut simple = Vec::new();
            let mut other = Vec::new();
            match sort(v) {
                Sort::Int => {
                    let lits = literals.iter().map(|&(t, c)| Operand::Lit(t, c));
                    let vars = scalars.iter().map(|&x| Operand::Param(x));
                    let compare = |rel| move |x| Holds::Compare(rel, x);
                    simple.extend(lits.chain(vars.clone()).map(compare(Rel::Eq)));
                    other.extend(vars.map(compare(Rel::Ne)));
                    other.push(Holds::Compare(Rel::Ne, zero));
                    other.extend(literals.iter().map(|&(t, c)| Holds::Shifted(t, c)));
                }
                Sort::Bool => simple.extend([Holds::Truth(true), Holds::Truth(false)]),
                _ => {}
            }
            other.extend(copies);
            let mut ranges = ranges(k, v, &scalars, &literals, zero, [&simple, &other]);
            if !states.is_empty() {
                ranges.truncate(MAX_TRIED);
                let mut seen = HashSet::new();
                ranges.retain(|r| {
                    r.borne_out(&states)
                        .is_some_and(|seen_as| seen.insert(seen_as))
                });
            }
            per_cell.push(ranges.iter().map(|r| r.term(store, &params)).collect());
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
            .map(|(x, y)| store.le(store.var(params[x]), store.var(params[y])))
            .collect();
        let max = if states.is_empty() {
            MAX_TEMPLATES
        } else {
            MAX_BORNE_OUT
        };
        out.extend(in_turn(per_cell, max.saturating_sub(out.len())));
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

/// An integer value as a plain number (a Boolean as 0 or 1); `None` for any other value, or
/// one too large.
fn number(v: &Value) -> Option<i128> {
    match v {
        Value::Int(n) => n.to_i128(),
        Value::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

/// A bound of a range: a parameter (by position) or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operand {
    Param(usize),
    Lit(TermId, i128),
}

impl Operand {
    fn value(self, state: &[Option<i128>]) -> Option<i128> {
        match self {
            Operand::Param(n) => state[n],
            Operand::Lit(_, c) => Some(c),
        }
    }

    fn term(self, store: &TermStore, params: &[VarId]) -> TermId {
        match self {
            Operand::Param(n) => store.var(params[n]),
            Operand::Lit(t, _) => t,
        }
    }
}

/// How a cell's value compares to an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rel {
    Eq,
    Ne,
}

/// What the cells of a range hold.
#[derive(Clone, Copy, Debug)]
enum Holds {
    /// A value in this relation to the operand (`v ≠ 0`: not null).
    Compare(Rel, Operand),
    /// Their index plus the literal.
    Shifted(TermId, i128),
    /// What the other cell (index, value) holds where it is read at the same index, perhaps
    /// but at the scalar parameter.
    Copy(usize, usize, Option<usize>),
    /// The Boolean.
    Truth(bool),
}

/// `k < lo ∨ k ≥ hi ∨ holds`, of the cell (index `k`, value `v`; parameter positions).
#[derive(Clone, Copy, Debug)]
struct Range {
    k: usize,
    v: usize,
    lo: Option<Operand>,
    hi: Operand,
    holds: Holds,
}

impl Range {
    /// Where the range holds in every state and contains the cell of at least one (a value
    /// that is not a number proves and disproves nothing), what the states see of it: the
    /// states whose cell it contains (a bit set), the kind of value it holds and a hash of
    /// what the value is compared to in each of those. Of two ranges the states see alike
    /// (`k < i → v = 2` and `k < i → v = n` where `n` is 2 in every state), the states cannot
    /// tell which is worth more, and only the first (the simpler) is kept; `v ≠ n` and
    /// `v ≠ m` differ where `n` and `m` do.
    fn borne_out(&self, states: &[Vec<Option<i128>>]) -> Option<(Vec<u64>, u8, u64)> {
        let mut cover = vec![0u64; states.len().div_ceil(64)];
        let mut seen = DefaultHasher::new();
        let mut reached = false;
        for (n, s) in states.iter().enumerate() {
            match self.at(s) {
                Some(Some(false)) => return None,
                Some(Some(true)) => {
                    reached = true;
                    cover[n / 64] |= 1 << (n % 64);
                    self.operand(s).hash(&mut seen);
                }
                _ => {}
            }
        }
        reached.then(|| (cover, self.kind(), seen.finish()))
    }

    /// What the range compares its cell's value to, in `state`.
    fn operand(&self, state: &[Option<i128>]) -> Option<i128> {
        match self.holds {
            Holds::Compare(_, x) => x.value(state),
            Holds::Shifted(_, c) => Some(state[self.k]? + c),
            Holds::Copy(_, v2, _) => state[v2],
            Holds::Truth(b) => Some(i128::from(b)),
        }
    }

    /// The kind of value the range holds, as a number.
    fn kind(&self) -> u8 {
        match self.holds {
            Holds::Compare(rel, _) => rel as u8,
            Holds::Shifted(..) => 4,
            Holds::Copy(..) => 5,
            Holds::Truth(_) => 6,
        }
    }

    /// In `state`: `None` if the cell is outside the range, else whether it holds what the
    /// range says (`None` where a value is not a number).
    fn at(&self, state: &[Option<i128>]) -> Option<Option<bool>> {
        let k = state[self.k]?;
        let inside = self
            .lo
            .map_or(Some(true), |lo| Some(k >= lo.value(state)?))?
            && k < self.hi.value(state)?;
        if !inside {
            return None;
        }
        let v = state[self.v];
        Some(match self.holds {
            Holds::Compare(rel, x) => v.zip(x.value(state)).map(|(v, x)| match rel {
                Rel::Eq => v == x,
                Rel::Ne => v != x,
            }),
            Holds::Shifted(_, c) => v.map(|v| v == k + c),
            Holds::Copy(k2, v2, except) => (|| {
                let same =
                    k == state[k2]? && except.map_or(Some(true), |x| Some(k != state[x]?))?;
                Some(!same || v? == state[v2]?)
            })(),
            Holds::Truth(b) => v.map(|v| (v != 0) == b),
        })
    }

    fn term(&self, store: &TermStore, params: &[VarId]) -> TermId {
        let (k, v) = (store.var(params[self.k]), store.var(params[self.v]));
        let holds = match self.holds {
            Holds::Compare(rel, x) => {
                let x = x.term(store, params);
                match rel {
                    Rel::Eq => store.eq(v, x),
                    Rel::Ne => store.not(store.eq(v, x)),
                }
            }
            Holds::Shifted(c, _) => store.eq(v, store.add([k, c])),
            Holds::Copy(k2, v2, except) => {
                let same = store.eq(k, store.var(params[k2]));
                let same = match except {
                    None => same,
                    Some(x) => store.and([same, store.not(store.eq(k, store.var(params[x])))]),
                };
                store.implies(same, store.eq(v, store.var(params[v2])))
            }
            Holds::Truth(true) => v,
            Holds::Truth(false) => store.not(v),
        };
        let below = self.lo.map(|lo| store.lt(k, lo.term(store, params)));
        let above = store.ge(k, self.hi.term(store, params));
        store.or(below.into_iter().chain([above, holds]))
    }
}

/// The ranges of one cell: first from no lower bound or 0, up to each scalar or positive
/// literal, each simple value then each other value; then from each scalar.
fn ranges(
    k: usize,
    v: usize,
    scalars: &[usize],
    literals: &[(TermId, i128)],
    zero: Operand,
    values: [&[Holds]; 2],
) -> Vec<Range> {
    let his: Vec<Operand> = scalars
        .iter()
        .map(|&x| Operand::Param(x))
        .chain(
            literals
                .iter()
                .filter(|&&(_, c)| c > 0)
                .map(|&(t, c)| Operand::Lit(t, c)),
        )
        .collect();
    let mut out = Vec::new();
    let mut range = |lo: Option<Operand>, hi: Operand, holds: Holds| {
        if lo != Some(hi) {
            out.push(Range {
                k,
                v,
                lo,
                hi,
                holds,
            });
        }
    };
    for vals in values {
        for &hi in &his {
            for &holds in vals {
                for lo in [Some(zero), None] {
                    range(lo, hi, holds);
                }
            }
        }
    }
    for &lo in scalars {
        for &hi in &his {
            for &holds in values.iter().flat_map(|v| v.iter()) {
                range(Some(Operand::Param(lo)), hi, holds);
            }
        }
    }
    out
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
