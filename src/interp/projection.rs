//! Interpolants by projection: `A`'s cubes projected onto the shared variables and generalised
//! against `B` by unsat cores.
//!
//! Duty: given `A = ∧a`, `B = ∧b` with `A ∧ B` unsatisfiable, return `I = ∨ᵢ Cᵢ` over the
//! shared variables with `A ⇒ I` and `I ∧ B` unsatisfiable. Each `Cᵢ` starts from a model of
//! `A ∧ ¬I`: the implicant of `A` there, projected onto the shared variables (Z3's model-based
//! projection: every state of the projection extends to a model of the implicant, so the
//! projection is inconsistent with `B`), then cut down to the literals of an unsat core
//! against `B`. Where [`super::formula`] refutes cube pairs one by one (one Farkas interpolant
//! per pair of cubes, at most 24 of each side), this takes one core per cube of `A` however
//! many cubes `B` has: the shape of interpolants that an unrolling's `B` (a disjunction per
//! step) needs.
//!
//! Must not: return an unchecked formula (the result is checked against the full `A` and `B`)
//! or loop unboundedly (at most `max_cubes` disjuncts).

use super::formula::vars_of;
use super::{implicant, Interpolator};
use crate::smt::{SatResult, Smt};
use crate::term::{TermId, VarId};
use std::collections::HashMap;

impl Interpolator<'_> {
    /// An interpolant of `A = ∧a` and `B = ∧b` over `shared` by projection (see the module
    /// header), or `None` when `A ∧ B` is satisfiable, more than `max_cubes` disjuncts would be
    /// needed, or the solver gives up.
    pub fn interpolate_by_projection(
        &mut self,
        a: &[TermId],
        b: &[TermId],
        max_cubes: usize,
    ) -> Option<TermId> {
        let st = self.store;
        let (va, vb) = (vars_of(st, a), vars_of(st, b));
        let local: Vec<VarId> = va.difference(&vb).copied().collect();
        let a_all = st.and(a.iter().copied());
        let mut smt_a = Smt::new(st, self.deadline.clone());
        smt_a.assert(a_all);
        let mut smt_b = Smt::new(st, self.deadline.clone());
        for &t in b {
            smt_b.assert(t);
        }
        let mut disjuncts = Vec::new();
        loop {
            self.checks += 1;
            match smt_a.check() {
                SatResult::Unsat => break,
                SatResult::Unknown(_) => return None,
                SatResult::Sat => {}
            }
            if disjuncts.len() >= max_cubes {
                return None;
            }
            let env: HashMap<VarId, _> = smt_a.values(va.iter().copied())?.into_iter().collect();
            let cube = st.and(implicant(st, a_all, &env)?);
            let projected = smt_a.project(cube, &local)?;
            let lits = implicant(st, projected, &env)?;
            self.checks += 1;
            if smt_b.check_assuming(&lits) != SatResult::Unsat {
                return None;
            }
            let core = st.and(smt_b.unsat_core());
            smt_a.assert(st.not(core));
            disjuncts.push(core);
        }
        let i = st.or(disjuncts);
        self.is_interpolant(a, b, i).then_some(i)
    }
}
