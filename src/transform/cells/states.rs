//! Reachable states of the cell abstraction from reachable states of the system it abstracts
//! (part of [`super`]): a state `P(x, a)` gives `P#(x, k, a[k])` for every index `k`, all of
//! them reachable in the abstraction (its least model's back-translation `∀k. P#(x, k, a[k])`
//! is a model of the system, so it holds of every reachable state).
//!
//! Why: the abstraction's clauses read a body atom at several cells at once (one instance per
//! index), and a sampler that fills each instance with a stored state at random almost never
//! draws instances that agree on their scalars, so it rarely gets past the first step of a
//! loop. Projections of one concrete state agree by construction.
//!
//! Must not: invent states (every projected state comes from a given one) or call a solver.

use crate::chc::System;
use crate::term::{Sort, Value};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// Most indices each state is projected at.
const MAX_PROBES: usize = 12;

/// The states of the abstraction of `given`, per predicate, from `states` (per predicate of
/// `given`, a value per argument): each state read at the same index `k` in every array
/// argument, for each `k` among the indices its arrays store apart from their default, the
/// values of its integer arguments, and one index below all of those (at most
/// [`MAX_PROBES`]). A predicate with an array indexed by other than integers gets none.
pub fn project(given: &System, states: &[Vec<Vec<Value>>]) -> Vec<Vec<Vec<Value>>> {
    given
        .pred_ids()
        .map(|p| {
            let sorts = &given.pred(p).sorts;
            let int_indexed = sorts.iter().all(|s| match s {
                Sort::Array(i, _) => **i == Sort::Int,
                _ => true,
            });
            let Some(states) = states.get(p.0 as usize).filter(|_| int_indexed) else {
                return Vec::new();
            };
            states.iter().flat_map(|s| project_one(s)).collect()
        })
        .collect()
}

/// One state read at each of its probe indices.
fn project_one(state: &[Value]) -> Vec<Vec<Value>> {
    let mut probes: BTreeSet<BigInt> = BTreeSet::new();
    for v in state {
        match v {
            Value::Int(n) => {
                probes.insert(n.clone());
            }
            Value::Array(_, entries) => probes.extend(entries.keys().filter_map(|k| match k {
                Value::Int(n) => Some(n.clone()),
                _ => None,
            })),
            _ => {}
        }
    }
    let below = probes.first().map_or(BigInt::from(0), |n| n - 1);
    probes.insert(below);
    probes
        .into_iter()
        .take(MAX_PROBES)
        .map(|k| {
            let k = Value::Int(k);
            state
                .iter()
                .flat_map(|v| match v {
                    Value::Array(default, entries) => {
                        let at = entries.get(&k).unwrap_or(default);
                        vec![k.clone(), at.clone()]
                    }
                    other => vec![other.clone()],
                })
                .collect()
        })
        .collect()
}
