//! Candidate invariants of the cell abstraction: range facts about one cell, `k < lo ∨ k ≥ hi ∨
//! v = e` ("every cell from `lo` up to `hi` holds `e`", where `e` is a literal, a scalar
//! argument or the index plus a literal, or `v ≠ x` for a scalar argument or 0), and the same
//! for two cells read at one index (`k₁ = k₂ ∧ lo ≤ k₁ < hi → v₁ = v₂`, a copy, perhaps but at
//! one scalar argument); where states are given, also `v = c₀ + c₁·k + c₂·k²` fitted to them.
//! Translated back they are the quantified invariants of array loops (`∀k. 0 ≤ k < i → a[k] =
//! 43`), which the invariant engines of linear arithmetic do not build themselves: a PDR lemma
//! is one conjunction at a time, and the range's bound is a loop counter.
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
            if sort(v) == Sort::Int {
                let lits: Vec<i128> = literals.iter().map(|&(_, c)| c).collect();
                let fits = fitted(&states, k, v, &lits).into_iter();
                other.extend(fits.map(Holds::Poly));
            }
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
    /// A polynomial of the index, `c₀ + c₁·k + c₂·k²`, fitted to the states' cells
    /// ([`fitted`]).
    Poly([i128; 3]),
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
            Holds::Poly(c) => poly(c, state[self.k]?),
        }
    }

    /// The kind of value the range holds, as a number.
    fn kind(&self) -> u8 {
        match self.holds {
            Holds::Compare(rel, _) => rel as u8,
            Holds::Shifted(..) => 4,
            Holds::Copy(..) => 5,
            Holds::Truth(_) => 6,
            Holds::Poly(_) => 7,
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
            Holds::Poly(c) => v.zip(poly(c, k)).map(|(v, p)| v == p),
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
            Holds::Poly([c0, c1, c2]) => {
                let value = store.add([
                    store.int(c0),
                    store.mul([store.int(c1), k]),
                    store.mul([store.int(c2), k, k]),
                ]);
                store.eq(v, value)
            }
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

/// Most cells the polynomials are fitted through.
const MAX_FIT_POINTS: usize = 40;

/// Most fitted polynomials per cell.
const MAX_FITTED: usize = 4;

/// The fewest cells a fitted polynomial must explain.
const MIN_SUPPORT: usize = 4;

/// Values that are polynomials of the index, of degree 0 to 2 with integer coefficients
/// (`a[i] = 2i + 2`, `b[i] = i² + i + 1`: arrays filled from their index or their previous
/// cell), fitted to the cells the states hold (index `k`, value `v`): through every two and
/// three cells of distinct indices among at most [`MAX_FIT_POINTS`], spread over them; of
/// those that explain at least [`MIN_SUPPORT`] cells of all, the [`MAX_FITTED`] that explain
/// the most. Constants and `k + c` of the system's literals are values of their own. A cell
/// outside the range a loop filled holds anything, so a polynomial need not explain every
/// cell; the ranges it is tried in must hold in every state.
fn fitted(states: &[Vec<Option<i128>>], k: usize, v: usize, literals: &[i128]) -> Vec<[i128; 3]> {
    let mut points: Vec<(i128, i128)> =
        states.iter().filter_map(|s| Some((s[k]?, s[v]?))).collect();
    points.sort_unstable();
    points.dedup();
    // Small numbers only, spread over the indices (the cells a loop has filled and those it
    // has not are apart; one index may hold several values over the states); not the cells
    // that hold a literal (what memory starts as, mostly, and a value of its own anyway).
    let small = |n: i128| n.unsigned_abs() < 1 << 40;
    let fit: Vec<(i128, i128)> = points
        .iter()
        .copied()
        .filter(|&(x, y)| small(x) && small(y) && !literals.contains(&y))
        .collect();
    let step = fit.len().div_ceil(MAX_FIT_POINTS).max(1);
    let through: Vec<(i128, i128)> = fit.into_iter().step_by(step).collect();
    let mut found: Vec<[i128; 3]> = Vec::new();
    let n = through.len();
    let x = |i: usize| through[i].0;
    for a in 0..n {
        for b in (a + 1..n).filter(|&b| x(b) != x(a)) {
            found.extend(line(through[a], through[b]));
            for c in (b + 1..n).filter(|&c| x(c) != x(a) && x(c) != x(b)) {
                found.extend(parabola(through[a], through[b], through[c]));
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    // `c` and `k + c` of a literal `c` are values of their own.
    found.retain(|&[c0, c1, c2]| c2 != 0 || !(0..=1).contains(&c1) || !literals.contains(&c0));
    let support = |c: [i128; 3]| {
        points
            .iter()
            .filter(|&&(x, y)| poly(c, x) == Some(y))
            .count()
    };
    let mut scored: Vec<(usize, [i128; 3])> = found
        .into_iter()
        .map(|c| (support(c), c))
        .filter(|&(n, _)| n >= MIN_SUPPORT)
        .collect();
    scored.sort_by_key(|&(n, c)| (std::cmp::Reverse(n), c[2] != 0, c));
    scored
        .into_iter()
        .take(MAX_FITTED)
        .map(|(_, c)| c)
        .collect()
}

/// `c₀ + c₁·x + c₂·x²`, `None` on overflow.
fn poly([c0, c1, c2]: [i128; 3], x: i128) -> Option<i128> {
    c2.checked_mul(x)?
        .checked_add(c1)?
        .checked_mul(x)?
        .checked_add(c0)
}

/// The line through two points of distinct abscissae, if its coefficients are integers.
fn line((x1, y1): (i128, i128), (x2, y2): (i128, i128)) -> Option<[i128; 3]> {
    let (dy, dx) = (y2.checked_sub(y1)?, x2.checked_sub(x1)?);
    if dx == 0 || dy % dx != 0 {
        return None;
    }
    let c1 = dy / dx;
    Some([y1.checked_sub(c1.checked_mul(x1)?)?, c1, 0])
}

/// The parabola through three points of distinct abscissae (by divided differences), if its
/// coefficients are integers and it is not a line.
fn parabola(p1: (i128, i128), p2: (i128, i128), p3: (i128, i128)) -> Option<[i128; 3]> {
    let ((x1, y1), (x2, y2), (x3, y3)) = (p1, p2, p3);
    let sub = |a: i128, b: i128| a.checked_sub(b);
    let (dx21, dx32, dx31) = (sub(x2, x1)?, sub(x3, x2)?, sub(x3, x1)?);
    let (dy21, dy32) = (sub(y2, y1)?, sub(y3, y2)?);
    // c₂ = (dy32·dx21 - dy21·dx32) / (dx31·dx21·dx32), exactly, in checked integers.
    let num = sub(dy32.checked_mul(dx21)?, dy21.checked_mul(dx32)?)?;
    let den = dx31.checked_mul(dx21)?.checked_mul(dx32)?;
    if den == 0 || num.checked_rem(den)? != 0 {
        return None;
    }
    let c2 = num / den;
    // c₁ = dy21 / dx21 - c₂·(x₁ + x₂).
    let rest = sub(
        dy21,
        c2.checked_mul(x1.checked_add(x2)?)?.checked_mul(dx21)?,
    )?;
    if rest.checked_rem(dx21)? != 0 {
        return None;
    }
    let c1 = rest / dx21;
    let c0 = sub(
        sub(y1, c1.checked_mul(x1)?)?,
        c2.checked_mul(x1)?.checked_mul(x1)?,
    )?;
    (c2 != 0).then_some([c0, c1, c2])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells `(k, v)` as states of two parameters.
    fn cells(points: &[(i128, i128)]) -> Vec<Vec<Option<i128>>> {
        points
            .iter()
            .map(|&(k, v)| vec![Some(k), Some(v)])
            .collect()
    }

    /// Squares minus one where a loop has been, zeros (a literal) where it has not, and one
    /// index seen with both: the parabola is found, the zeros are no polynomial of their own.
    #[test]
    fn a_parabola_is_fitted_through_the_filled_cells() {
        let mut points: Vec<(i128, i128)> = (0..8).map(|k| (k, k * k - 1)).collect();
        points.extend((3..12).map(|k| (k, 0)));
        assert_eq!(fitted(&cells(&points), 0, 1, &[0, 1]), vec![[-1, 0, 1]]);
    }

    /// A constant that is no literal of the system is a value of its own; `k + 1` is not (the
    /// index plus a literal is).
    #[test]
    fn constants_and_shifts_of_literals_are_left_to_their_own_values() {
        let minus_one: Vec<(i128, i128)> = (0..6).map(|k| (k, -1)).collect();
        assert_eq!(fitted(&cells(&minus_one), 0, 1, &[0, 1]), vec![[-1, 0, 0]]);
        let shifted: Vec<(i128, i128)> = (0..6).map(|k| (k, k + 1)).collect();
        assert!(fitted(&cells(&shifted), 0, 1, &[0, 1]).is_empty());
        let doubled: Vec<(i128, i128)> = (0..6).map(|k| (k, 2 * k + 2)).collect();
        assert_eq!(fitted(&cells(&doubled), 0, 1, &[0, 1]), vec![[2, 2, 0]]);
    }
}
