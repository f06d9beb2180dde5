//! Local paths of the abstract side (the paper's `Π_σ(q)`): sequences of component edges
//! from a location whose actions read `τ*` (for a silent concrete step) or `τ* σ τ*`, up to
//! a length bound, and their composition into one relation (a guard and the values at the
//! end, over the values at the start and fresh variables renamed apart per use).
//!
//! An enumeration is *complete* when no path was cut by the bound: then every path exists in
//! the list (there are finitely many), which a `does not refine` needs.
//!
//! Must not: call a solver.

use super::sa::Side;
use crate::frontend::c::cfa::LocId;
use crate::term::{TermId, TermStore, VarId};
use std::collections::HashMap;

/// Most paths one enumeration lists.
const MAX_PATHS: usize = 4000;

/// A local path: its edges (indices into [`Side::edges`]) and where it ends.
#[derive(Clone, Debug)]
pub struct LocalPath {
    /// The edges, in order.
    pub edges: Vec<usize>,
    /// The last location.
    pub end: LocId,
}

/// The paths from `from` whose actions read `τ* σ τ*` (`σ` = `label`, or `τ*` for `None`),
/// at most `bound` edges long, and whether the list is complete.
pub fn enumerate(
    side: &Side,
    from: LocId,
    label: Option<&str>,
    bound: usize,
) -> (Vec<LocalPath>, bool) {
    let mut out = vec![];
    let mut complete = true;
    // (edges so far, location, whether σ was taken)
    let mut work = vec![(vec![], from, label.is_none())];
    while let Some((edges, at, seen)) = work.pop() {
        if seen {
            out.push(LocalPath {
                edges: edges.clone(),
                end: at,
            });
        }
        if out.len() > MAX_PATHS {
            return (out, false);
        }
        for (k, e) in side.edges.iter().enumerate() {
            if e.from != at {
                continue;
            }
            let next_seen = match (&e.label, label) {
                (None, _) => seen,
                (Some(l), Some(want)) if l == want && !seen => true,
                _ => continue,
            };
            if edges.len() >= bound {
                complete = false;
                continue;
            }
            let mut more = edges.clone();
            more.push(k);
            work.push((more, e.to, next_seen));
        }
    }
    (out, complete)
}

/// The relation of a run through `edges` from the values `start`: the conjunction of the
/// guards, the values at the end, and the fresh variables it introduced (existential).
pub fn compose(
    store: &TermStore,
    side: &Side,
    edges: &[usize],
    start: &[TermId],
) -> (TermId, Vec<TermId>, Vec<VarId>) {
    let mut cur = start.to_vec();
    let mut guards = vec![];
    let mut fresh = vec![];
    for &k in edges {
        let e = &side.edges[k];
        let (g, post, f) = instance(store, side, e.guard, &e.post, &e.fresh, &cur);
        guards.push(g);
        fresh.extend(f);
        cur = post;
    }
    (store.and(guards), cur, fresh)
}

/// One use of an edge (`guard`, `post`, `fresh`) from the values `start`, its fresh
/// variables renamed apart.
pub fn instance(
    store: &TermStore,
    side: &Side,
    guard: TermId,
    post: &[TermId],
    fresh: &[VarId],
    start: &[TermId],
) -> (TermId, Vec<TermId>, Vec<VarId>) {
    let mut map: HashMap<VarId, TermId> = HashMap::new();
    for (v, &t) in side.vars.iter().zip(start) {
        map.insert(v.term, t);
    }
    let mut renamed = vec![];
    for &f in fresh {
        let n = store.fresh_copy(f);
        renamed.push(n);
        map.insert(f, store.var(n));
    }
    let g = store.substitute(guard, &map);
    let p = post.iter().map(|&t| store.substitute(t, &map)).collect();
    (g, p, renamed)
}
