//! Interpolation of arbitrary quantifier-free formulas (disjunctions, `ite`, Booleans, literals
//! the linear reader cannot read) by enumeration of cubes, with Farkas interpolation of the cube
//! pairs and literal-level fall-backs.
//!
//! Duty: given `A = ∧a`, `B = ∧b` with `A ∧ B` unsatisfiable, return a formula `I` over their
//! shared variables with `A ⇒ I` and `I ∧ B` unsatisfiable. `I` is built as `∨ᵢ ∧ⱼ Iᵢⱼ`: each
//! disjunct covers one cube of A (an implicant under a model of `A ∧ ¬I`), each conjunct refutes
//! that cube against one cube of B (an implicant under a model of `B ∧ Iᵢ`). A cube pair is
//! interpolated by Farkas ([`Interpolator::interpolate`]), or else by the unsat core of A's
//! literals over shared variables against B's cube, or the negated core of B's shared literals
//! against A's cube (these cover Booleans, `mod`/`div`, arrays and non-linear literals whenever
//! the refutation does not need to combine them with local arithmetic). Must not: return an
//! unchecked formula (the result is checked against the full `A` and `B`), or loop unboundedly
//! (cube counts are capped).

use super::{implicant, Interpolator};
use crate::smt::{SatResult, Smt};
use crate::term::{Term, TermId, TermStore, VarId};
use std::collections::{BTreeSet, HashMap};

/// Most cubes of A (disjuncts) and of B (conjuncts per disjunct) one interpolation may use.
const MAX_CUBES: usize = 24;

/// The free variables of `ts`.
pub(super) fn vars_of(store: &TermStore, ts: &[TermId]) -> BTreeSet<VarId> {
    ts.iter().flat_map(|&t| store.free_vars(t)).collect()
}

/// A cube of `fs` (each conjunct's implicant) under the current model of `smt`.
fn cube_of(smt: &mut Smt<'_>, fs: &[TermId]) -> Option<Vec<TermId>> {
    let store = smt.store();
    let vars = vars_of(store, fs);
    let env: HashMap<VarId, _> = smt.values(vars.iter().copied())?.into_iter().collect();
    let mut out = Vec::new();
    for &f in fs {
        out.extend(implicant(store, f, &env)?);
    }
    out.sort();
    out.dedup();
    Some(out)
}

impl Interpolator<'_> {
    /// An interpolant of two arbitrary quantifier-free formulas (see the module header), or
    /// `None` when the cube budget runs out, some cube pair has no interpolant this module can
    /// find, or the solver gives up.
    pub fn interpolate_formulas(&mut self, a: &[TermId], b: &[TermId]) -> Option<TermId> {
        let st = self.store;
        // Fast path: Farkas over the literals it can read (the rest is dropped, which only
        // weakens A and B; the result is checked against the full formulas).
        if let Some(i) = self.interpolate(a, b) {
            return Some(i.term);
        }
        if self.deadline.expired() {
            return None;
        }
        let shared: BTreeSet<VarId> = vars_of(st, a)
            .intersection(&vars_of(st, b))
            .copied()
            .collect();
        let mut smt_a = self.solver();
        for &f in a {
            smt_a.assert(f);
        }
        let mut disjuncts: Vec<TermId> = Vec::new();
        loop {
            self.checks += 1;
            match smt_a.check() {
                SatResult::Unsat => break,
                SatResult::Unknown(_) => return None,
                SatResult::Sat => {}
            }
            if disjuncts.len() >= MAX_CUBES {
                return None;
            }
            let cube_a = cube_of(&mut smt_a, a)?;
            let j = self.cube_against(&cube_a, b, &shared)?;
            smt_a.assert(st.not(j));
            disjuncts.push(j);
        }
        let i = st.or(disjuncts);
        // vars ⊆ shared, A ⇒ I, I ∧ B unsat, against the full formulas
        if !st.free_vars(i).is_subset(&shared) || !self.is_interpolant(a, b, i) {
            return None;
        }
        Some(i)
    }

    /// A formula over `shared` implied by `cube_a` and inconsistent with `B = ∧b`.
    fn cube_against(
        &mut self,
        cube_a: &[TermId],
        b: &[TermId],
        shared: &BTreeSet<VarId>,
    ) -> Option<TermId> {
        let st = self.store;
        let mut smt_b = self.solver();
        for &f in b {
            smt_b.assert(f);
        }
        let mut conjuncts: Vec<TermId> = Vec::new();
        loop {
            self.checks += 1;
            match smt_b.check() {
                SatResult::Unsat => break,
                SatResult::Unknown(_) => return None,
                SatResult::Sat => {}
            }
            if conjuncts.len() >= MAX_CUBES {
                return None;
            }
            let cube_b = cube_of(&mut smt_b, b)?;
            let j = self.cube_pair(cube_a, &cube_b, shared)?;
            smt_b.assert(j);
            conjuncts.push(j);
        }
        Some(st.and(conjuncts))
    }

    /// An interpolant of two cubes whose conjunction is unsatisfiable, over `shared`.
    fn cube_pair(
        &mut self,
        cube_a: &[TermId],
        cube_b: &[TermId],
        shared: &BTreeSet<VarId>,
    ) -> Option<TermId> {
        let st = self.store;
        if let Some(i) = self.interpolate(cube_a, cube_b) {
            return Some(i.term);
        }
        let over_shared = |ts: &[TermId]| -> Vec<TermId> {
            ts.iter()
                .copied()
                .filter(|&t| st.free_vars(t).is_subset(shared))
                .collect()
        };
        // A's shared literals alone refute B's cube: their unsat core is an interpolant.
        let sa = over_shared(cube_a);
        if let Some(core) = self.core_against(cube_b, &sa) {
            return Some(st.and(core));
        }
        // B's shared literals alone are refuted by A's cube: the negated core is one.
        let sb = over_shared(cube_b);
        if let Some(core) = self.core_against(cube_a, &sb) {
            return Some(st.not(st.and(core)));
        }
        None
    }

    /// An unsat core of `lits` (as assumptions) against the assertions `base`, if `base ∧ lits`
    /// is unsatisfiable.
    fn core_against(&mut self, base: &[TermId], lits: &[TermId]) -> Option<Vec<TermId>> {
        if lits.is_empty() {
            return None;
        }
        self.with_scoped(super::farkas::Slot::Scratch, |this, smt| {
            for &f in base {
                smt.assert(f);
            }
            this.checks += 1;
            if smt.check_assuming(lits) != SatResult::Unsat {
                return None;
            }
            let mut core = smt.unsat_core();
            core.sort();
            core.dedup();
            Some(core)
        })
    }
}

/// Syntactic size of a formula: the sum over its atoms of the linear size ([`super::linear::size`])
/// or, for atoms the linear reader cannot read, the number of nodes.
pub fn formula_size(store: &TermStore, t: TermId) -> u64 {
    let node = store.get(t);
    match &node.term {
        Term::App(op, args)
            if matches!(
                op,
                crate::term::Op::And | crate::term::Op::Or | crate::term::Op::Not
            ) && node.sort == crate::term::Sort::Bool =>
        {
            if *op == crate::term::Op::Not {
                if let Some(a) = super::linear::lin_atom(store, t) {
                    return super::linear::size(&a);
                }
            }
            args.iter().map(|&x| formula_size(store, x)).sum()
        }
        _ => match super::linear::lin_atom(store, t) {
            Some(a) => super::linear::size(&a).max(1),
            None => store.dag_size(t) as u64,
        },
    }
}
