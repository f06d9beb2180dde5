//! Interpolation: the layer between `smt`/`witness` and the engines that turns refutations into
//! small predicates.
//!
//! Duty: linear forms ([`linear`]), implicants of formulas under a model ([`implicant`](mod@implicant)), Farkas
//! interpolation of conjunctions with a preference for small results ([`Interpolator`]),
//! interpolation of arbitrary quantifier-free formulas by cube enumeration ([`formula`]) or by
//! projecting cubes of A and generalising them against B by unsat cores
//! ([`Interpolator::interpolate_by_projection`]), and tree
//! interpolation of a recursion-free unwinding ([`tree_interpolate`], [`select_cubes`]). Z3 is
//! used only through [`crate::smt::Smt`] as an LP/SMT oracle. Must not: know about engines or
//! predicates of a system (it sees terms and trees of constraints), return an interpolant it has
//! not checked, or use Z3's Horn engine.

pub mod farkas;
pub mod formula;
pub mod implicant;
pub mod linear;
mod projection;

pub use farkas::{Interpolant, Interpolator};
pub use formula::formula_size;
pub use implicant::implicant;

use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{TermId, TermStore};
use std::collections::HashMap;

/// Picks, for each constraint in order, a cube (conjunction of literals) implying it: the one
/// true in a model of the constraint together with the cubes picked before (or of the
/// constraint alone once the prefix is inconsistent). Since each cube implies its constraint, an
/// unsatisfiable conjunction of constraints gives an unsatisfiable conjunction of cubes. `None`
/// if some constraint alone is unsatisfiable or the solver gives up.
pub fn select_cubes(
    store: &TermStore,
    deadline: Deadline,
    constraints: &[TermId],
) -> Option<Vec<Vec<TermId>>> {
    let mut prefix = Smt::new(store, deadline.clone());
    let mut consistent = true;
    let mut out = Vec::new();
    for &c in constraints {
        let vars = store.free_vars(c);
        let mut env = None;
        if consistent {
            prefix.push();
            prefix.assert(c);
            if prefix.check() == SatResult::Sat {
                env = prefix.values(vars.iter().copied());
            } else {
                consistent = false;
            }
            prefix.pop(1);
        }
        if env.is_none() {
            let mut alone = Smt::new(store, deadline.clone());
            alone.assert(c);
            if alone.check() != SatResult::Sat {
                return None;
            }
            env = alone.values(vars.iter().copied());
        }
        let env: HashMap<_, _> = env?.into_iter().collect();
        let cube = implicant(store, c, &env)?;
        if consistent {
            prefix.assert(store.and(cube.iter().copied()));
        }
        out.push(cube);
    }
    Some(out)
}

/// Tree interpolation over an unsatisfiable tree of cubes. `children[n]` are the nodes whose
/// results node `n` consumes (all smaller than `n`); the last node is the root. Returns, for
/// every non-root node, a formula over the variables it shares with the rest of the tree such
/// that the cube of a node and its children's formulas imply its formula, and the root's cube
/// with its children's formulas is unsatisfiable. Nodes are summarised in index order: node `n`
/// is interpolated between its cube with its children's formulas and the rest of the current
/// frontier (cubes of later nodes, formulas of finished subtrees elsewhere), which keeps the
/// frontier unsatisfiable. `None` if some interpolation fails.
pub fn tree_interpolate(
    itp: &mut Interpolator<'_>,
    children: &[Vec<usize>],
    cubes: &[Vec<TermId>],
) -> Option<Vec<TermId>> {
    tree_interpolate_hinted(itp, children, cubes, &[])
}

/// [`tree_interpolate`], trying `hints[n]` (e.g. the cut interpolant of node `n`) first: a hint
/// that passes the solver check as node `n`'s interpolant is taken as it is, which saves the
/// Farkas search and keeps the chain as small as the hints.
pub fn tree_interpolate_hinted(
    itp: &mut Interpolator<'_>,
    children: &[Vec<usize>],
    cubes: &[Vec<TermId>],
    hints: &[Option<TermId>],
) -> Option<Vec<TermId>> {
    let n = cubes.len();
    let mut parent = vec![usize::MAX; n];
    for (p, cs) in children.iter().enumerate() {
        for &c in cs {
            parent[c] = p;
        }
    }
    let mut out: Vec<TermId> = Vec::with_capacity(n);
    for k in 0..n.saturating_sub(1) {
        let mut a: Vec<TermId> = cubes[k].clone();
        a.extend(children[k].iter().map(|&c| out[c]));
        let mut b: Vec<TermId> = cubes[k + 1..].iter().flatten().copied().collect();
        b.extend((0..k).filter(|&d| parent[d] > k).map(|d| out[d]));
        match hints.get(k).copied().flatten() {
            Some(h) if itp.is_interpolant(&a, &b, h) => out.push(h),
            _ => out.push(itp.interpolate_formulas(&a, &b)?),
        }
    }
    Some(out)
}

/// Independent cut interpolants of a tree of cubes: for every non-root node, an interpolant of
/// the cubes of its subtree against all other cubes (`None` where interpolation fails). Unlike
/// [`tree_interpolate`] they need not chain into a proof of the tree, but each sees the whole
/// history of its cut, which lets a small, depth-independent predicate win (for a loop unrolled
/// `k` times, `y = x + z` rather than `y = x + k`).
pub fn cut_interpolants(
    itp: &mut Interpolator<'_>,
    children: &[Vec<usize>],
    cubes: &[Vec<TermId>],
) -> Vec<Option<TermId>> {
    let n = cubes.len();
    let mut inside: Vec<Vec<bool>> = Vec::with_capacity(n);
    for k in 0..n {
        let mut mark = vec![false; n];
        mark[k] = true;
        for &c in &children[k] {
            for (m, slot) in mark.iter_mut().enumerate() {
                *slot |= inside[c][m];
            }
        }
        inside.push(mark);
    }
    (0..n.saturating_sub(1))
        .map(|k| {
            let a: Vec<TermId> = (0..n)
                .filter(|&m| inside[k][m])
                .flat_map(|m| cubes[m].clone())
                .collect();
            let b: Vec<TermId> = (0..n)
                .filter(|&m| !inside[k][m])
                .flat_map(|m| cubes[m].clone())
                .collect();
            itp.interpolate_formulas(&a, &b)
        })
        .collect()
}
