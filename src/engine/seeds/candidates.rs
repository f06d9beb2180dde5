//! Candidate lemmas from sampled states, one generator per shape: the affine hull's equalities,
//! bounds, orderings and difference bounds, Boolean constants and equalities between Boolean
//! arguments ([`candidates`]), bounds at program constants ([`constant_bounds`]), congruences
//! ([`modular`]) and degree-2 equalities ([`quadratic`]).
//!
//! Duty: propose formulas over a predicate's parameters that hold on every sampled state (or,
//! for program constants, beyond them). Must not: check inductiveness (that is
//! [`super::houdini`]'s job) or look at clauses other than for their constants.

use super::hull;
use crate::chc::System;
use crate::term::{Op, Sort, TermId, TermStore, Value, VarId};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::Zero;

/// Most predicate arguments of one sort for which pairwise orderings are proposed.
const MAX_PAIR_ARITY: usize = 12;

/// Most program constants used as bounds.
const MAX_CONSTANTS: usize = 16;

/// Program constants beyond this many bits are type ranges (2^31 - 1, 2^32), not loop bounds.
const MAX_CONSTANT_BITS: u64 = 30;

/// Integer literals of the clause constraints and their neighbours `c - 1`, `c + 1`, small ones
/// first, from at most `MAX_CONSTANTS` literals: loop bounds such as `i < 1000000` that
/// samples never reach.
pub fn constants(store: &TermStore, system: &System) -> Vec<BigInt> {
    let mut out: Vec<BigInt> = system
        .small_literals(store, MAX_CONSTANT_BITS, MAX_CONSTANTS)
        .into_iter()
        .flat_map(|c| [&c - 1, c.clone(), c + 1])
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The values of Int argument `k` on every state (`None` when one is not an integer).
fn int_column(states: &[Vec<Value>], k: usize) -> Option<Vec<BigInt>> {
    states
        .iter()
        .map(|s| match s.get(k) {
            Some(Value::Int(i)) => Some(i.clone()),
            _ => None,
        })
        .collect()
}

/// `x <= c` and `x >= c` for Int arguments `x` and program constants `c` beyond the sampled
/// range of `x` (bounds inside it are the sampled ones). Every such constant is proposed: the
/// filter keeps the inductive one (for `i < 1000000; i++` that is `i <= 1000000`).
pub fn constant_bounds(
    store: &TermStore,
    params: &[VarId],
    states: &[Vec<Value>],
    consts: &[BigInt],
) -> Vec<TermId> {
    let mut out = Vec::new();
    if states.is_empty() || params.len() > MAX_PAIR_ARITY {
        return out;
    }
    for (k, &v) in params.iter().enumerate() {
        if store.var_sort(v) != Sort::Int {
            continue;
        }
        let Some(col) = int_column(states, k) else {
            continue;
        };
        let (Some(lo), Some(hi)) = (col.iter().min(), col.iter().max()) else {
            continue;
        };
        for c in consts {
            if c > hi {
                out.push(store.le(store.var(v), store.int(c.clone())));
            } else if c < lo {
                out.push(store.ge(store.var(v), store.int(c.clone())));
            }
        }
    }
    out
}

/// Moduli tried for congruences.
const MODULI: [u32; 3] = [2, 3, 4];

/// Congruences that hold on every state: `x mod m = r` for Int arguments and `(x - y) mod 2 = r`
/// for pairs, each only when the sampled values of `x` (or `x - y`) are not all equal.
pub fn modular(store: &TermStore, params: &[VarId], states: &[Vec<Value>]) -> Vec<TermId> {
    let mut out = Vec::new();
    if states.is_empty() || params.len() > MAX_PAIR_ARITY {
        return out;
    }
    let cols: Vec<(usize, Vec<BigInt>)> = (0..params.len())
        .filter(|&k| store.var_sort(params[k]) == Sort::Int)
        .filter_map(|k| Some((k, int_column(states, k)?)))
        .collect();
    let mut congruent = |t: TermId, col: &[BigInt], moduli: &[u32]| {
        if col.iter().all(|x| *x == col[0]) {
            return;
        }
        for &m in moduli {
            let m = BigInt::from(m);
            let r = col[0].mod_floor(&m);
            if col.iter().all(|x| x.mod_floor(&m) == r) {
                let md = store.app(Op::Mod, vec![t, store.int(m)]);
                out.push(store.eq(md, store.int(r)));
            }
        }
    };
    for (a, (ka, xa)) in cols.iter().enumerate() {
        congruent(store.var(params[*ka]), xa, &MODULI);
        for (kb, xb) in &cols[a + 1..] {
            let diff: Vec<BigInt> = xa.iter().zip(xb).map(|(x, y)| x - y).collect();
            let t = store.sub(store.var(params[*ka]), store.var(params[*kb]));
            congruent(t, &diff, &MODULI[..1]);
        }
    }
    out.retain(|t| store.as_bool(*t).is_none());
    out
}

/// Most numeric arguments of one predicate for which quadratic monomials are formed.
const MAX_QUADRATIC_ARITY: usize = 6;

/// Equalities over the arguments and their degree-2 monomials (`x*y`, `x*x`) that hold on
/// every state, for Int arguments, only when there are clearly more distinct states than
/// monomials (with fewer, the hull holds accidental equalities that mix with the real ones).
pub fn quadratic(store: &TermStore, params: &[VarId], states: &[Vec<Value>]) -> Vec<TermId> {
    let idx: Vec<usize> = (0..params.len())
        .filter(|&k| store.var_sort(params[k]) == Sort::Int)
        .collect();
    let linear: Option<Vec<Vec<BigRational>>> = states
        .iter()
        .map(|s| idx.iter().map(|&k| s.get(k)?.as_rational()).collect())
        .collect();
    let Some(linear) = linear else {
        return Vec::new();
    };
    // Monomials over the affinely independent arguments only: with a dependent one (o = 2k+1)
    // the hull would also hold its products with the linear equalities, redundant lemmas that
    // make every non-linear check harder.
    let free = hull::independent(&linear, idx.len());
    if free.is_empty() || free.len() > MAX_QUADRATIC_ARITY {
        return Vec::new();
    }
    let mut pairs = Vec::new();
    for (i, &a) in free.iter().enumerate() {
        for &b in &free[i..] {
            pairs.push((a, b));
        }
    }
    let cols = idx.len() + pairs.len();
    if states.len() < 2 * (cols + 1) {
        return Vec::new();
    }
    let points: Option<Vec<Vec<BigRational>>> = states
        .iter()
        .map(|s| {
            let xs: Option<Vec<BigRational>> =
                idx.iter().map(|&k| s.get(k)?.as_rational()).collect();
            let xs = xs?;
            let mut row = xs.clone();
            row.extend(pairs.iter().map(|&(a, b)| &xs[a] * &xs[b]));
            Some(row)
        })
        .collect();
    let Some(points) = points else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for eq in hull::affine_hull(&points, cols) {
        if eq.coeffs[idx.len()..].iter().all(num_traits::Zero::is_zero) {
            continue; // linear: already proposed
        }
        let terms: Vec<TermId> = eq
            .coeffs
            .iter()
            .enumerate()
            .filter(|(_, a)| !num_traits::Zero::is_zero(*a))
            .map(|(j, a)| {
                let m = if j < idx.len() {
                    store.var(params[idx[j]])
                } else {
                    let (x, y) = pairs[j - idx.len()];
                    store.mul([store.var(params[idx[x]]), store.var(params[idx[y]])])
                };
                if num_traits::One::is_one(a) {
                    m
                } else {
                    store.mul([store.int(a.clone()), m])
                }
            })
            .collect();
        out.push(store.eq(store.add(terms), store.int(-eq.constant)));
    }
    out.retain(|t| store.as_bool(*t).is_none());
    out
}

/// Candidate lemmas over `params` that hold on every state: per numeric sort, the affine
/// hull's equalities, lower and upper bounds, and orderings between arguments; constant
/// Booleans and equalities between Boolean arguments. No candidate without states.
pub fn candidates(store: &TermStore, params: &[VarId], states: &[Vec<Value>]) -> Vec<TermId> {
    let mut out = Vec::new();
    if states.is_empty() {
        return out;
    }
    for sort in [Sort::Int, Sort::Real] {
        let idx: Vec<usize> = (0..params.len())
            .filter(|&k| store.var_sort(params[k]) == sort)
            .collect();
        if idx.is_empty() {
            continue;
        }
        let points: Option<Vec<Vec<BigRational>>> = states
            .iter()
            .map(|s| idx.iter().map(|&k| s.get(k)?.as_rational()).collect())
            .collect();
        let Some(points) = points else { continue };
        for eq in hull::affine_hull(&points, idx.len()) {
            let terms: Vec<TermId> = eq
                .coeffs
                .iter()
                .zip(&idx)
                .filter(|(a, _)| !num_traits::Zero::is_zero(*a))
                .map(|(a, &k)| {
                    let v = store.var(params[k]);
                    if num_traits::One::is_one(a) {
                        v
                    } else {
                        store.mul([store.numeral(a.clone(), &sort), v])
                    }
                })
                .collect();
            out.push(store.eq(store.add(terms), store.numeral(-eq.constant, &sort)));
        }
        let num = |r: &BigRational| match sort {
            Sort::Int => store.int(r.to_integer()),
            _ => store.real(r.clone()),
        };
        for (j, &k) in idx.iter().enumerate() {
            let col = points.iter().map(|p| &p[j]);
            let (Some(lo), Some(hi)) = (col.clone().min(), col.max()) else {
                continue;
            };
            if lo == hi {
                // Also a row of the hull, but perhaps mixed with other constant columns
                // (`n - 4a = 0`), which a constant that is no invariant then takes with it.
                out.push(store.eq(store.var(params[k]), num(lo)));
                continue;
            }
            out.push(store.ge(store.var(params[k]), num(lo)));
            out.push(store.le(store.var(params[k]), num(hi)));
        }
        if idx.len() <= MAX_PAIR_ARITY {
            for a in 0..idx.len() {
                for b in a + 1..idx.len() {
                    let le = points.iter().all(|p| p[a] <= p[b]);
                    let ge = points.iter().all(|p| p[a] >= p[b]);
                    let (x, y) = (store.var(params[idx[a]]), store.var(params[idx[b]]));
                    match (le, ge) {
                        (true, false) => out.push(store.le(x, y)),
                        (false, true) => out.push(store.ge(x, y)),
                        _ => {}
                    }
                    if le && ge {
                        continue; // equal on every state: an equality of the hull
                    }
                    // Difference bounds (x - y within the range seen), e.g. `i <= n + 1`.
                    let diffs = points.iter().map(|p| &p[a] - &p[b]);
                    let (Some(lo), Some(hi)) = (diffs.clone().min(), diffs.max()) else {
                        continue;
                    };
                    let d = store.sub(x, y);
                    if !lo.is_zero() && lo != hi {
                        out.push(store.ge(d, num(&lo)));
                    }
                    if !hi.is_zero() && lo != hi {
                        out.push(store.le(d, num(&hi)));
                    }
                }
            }
        }
    }
    out.extend(booleans(store, params, states));
    out.retain(|t| store.as_bool(*t).is_none());
    out
}

/// Boolean arguments constant on every state (`b`, `not b`), and for the others their classes
/// of columns equal up to negation: each member equal to the class's first (`b = a`,
/// `b = not a`). Grammar encodings evaluate one expression on several inputs at once, and a
/// constant expression has one truth value on all of them.
fn booleans(store: &TermStore, params: &[VarId], states: &[Vec<Value>]) -> Vec<TermId> {
    let mut out = Vec::new();
    // Per class: its first argument and column.
    let mut classes: Vec<(TermId, Vec<bool>)> = Vec::new();
    for (k, &v) in params.iter().enumerate() {
        if store.var_sort(v) != Sort::Bool {
            continue;
        }
        let col: Option<Vec<bool>> = states
            .iter()
            .map(|s| match s.get(k) {
                Some(Value::Bool(b)) => Some(*b),
                _ => None,
            })
            .collect();
        let Some(col) = col else { continue };
        let t = store.var(v);
        let Some(&b) = col.first() else { continue };
        if col.iter().all(|&x| x == b) {
            out.push(if b { t } else { store.not(t) });
            continue;
        }
        let negated: Vec<bool> = col.iter().map(|x| !x).collect();
        if let Some(&(rep, _)) = classes.iter().find(|(_, c)| *c == col) {
            out.push(store.eq(t, rep));
        } else if let Some(&(rep, _)) = classes.iter().find(|(_, c)| *c == negated) {
            out.push(store.eq(t, store.not(rep)));
        } else {
            classes.push((t, col));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn a_column_constant_on_every_state_is_a_candidate_of_its_own() {
        let store = TermStore::new();
        let params: Vec<VarId> = ["x", "y", "z"]
            .iter()
            .map(|n| store.new_var(n, Sort::Int))
            .collect();
        let int = |n: i64| Value::Int(BigInt::from(n));
        // x and y constant, z varying: the hull may mix x and y in one row (`y = 4x`).
        let states = vec![vec![int(1), int(4), int(0)], vec![int(1), int(4), int(7)]];
        let cands = candidates(&store, &params, &states);
        for (v, c) in [(params[0], 1), (params[1], 4)] {
            let eq = store.eq(store.var(v), store.int(BigInt::from(c)));
            assert!(cands.contains(&eq), "{}", store.display(eq));
        }
    }
}
