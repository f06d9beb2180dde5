//! Z3 solvers and models through Z3's C API, for what the z3 crate does not offer: calls that
//! report Z3's errors as `None` instead of panicking (the crate unwraps null results, which an
//! interrupt from another thread can cause during a projection).
//!
//! Must not: leak references (every object this module makes is reference-counted and released
//! on drop) or hand out raw pointers; [`super::Smt`] is its only user.

use std::ffi::{CStr, CString};
use z3::ast::{Ast, Bool, Dynamic};
use z3_sys::*;

/// One Z3 solver of this thread's context.
pub(super) struct RawSolver {
    ctx: z3::Context,
    solver: Z3_solver,
}

impl RawSolver {
    /// A fresh solver (Z3's default, combined one) in this thread's context.
    pub(super) fn new() -> Self {
        let ctx = z3::Context::thread_local();
        let c = ctx.get_z3_context();
        // SAFETY: `c` is this thread's live context; the solver is reference-counted from here
        // on and released in `drop`. Creation fails only when Z3 is out of memory.
        let solver = unsafe {
            let s = Z3_mk_solver(c).expect("Z3 could not create a solver (out of memory)");
            Z3_solver_inc_ref(c, s);
            s
        };
        RawSolver { ctx, solver }
    }

    fn c(&self) -> Z3_context {
        self.ctx.get_z3_context()
    }

    /// Asserts `b` (a term of this thread's context, as the solver is).
    pub(super) fn assert(&self, b: &Bool) {
        // SAFETY: solver and term belong to the same live context.
        unsafe { Z3_solver_assert(self.c(), self.solver, b.get_z3_ast()) }
    }

    /// Opens a scope.
    pub(super) fn push(&self) {
        // SAFETY: a live solver of a live context.
        unsafe { Z3_solver_push(self.c(), self.solver) }
    }

    /// Closes `n` scopes (Z3 reports an error, ignored here, if fewer are open).
    pub(super) fn pop(&self, n: u32) {
        // SAFETY: a live solver of a live context.
        unsafe { Z3_solver_pop(self.c(), self.solver, n) }
    }

    /// Makes later checks give up after `ms` milliseconds.
    pub(super) fn set_timeout(&self, ms: u32) {
        let c = self.c();
        let key = CString::new("timeout").expect("no NUL in a literal");
        // SAFETY: the parameter set is reference-counted for the duration of the call; the
        // symbol's name is copied by Z3.
        unsafe {
            let Some(params) = Z3_mk_params(c) else {
                return;
            };
            Z3_params_inc_ref(c, params);
            if let Some(sym) = Z3_mk_string_symbol(c, key.as_ptr()) {
                Z3_params_set_uint(c, params, sym, ms);
                Z3_solver_set_params(c, self.solver, params);
            }
            Z3_params_dec_ref(c, params);
        }
    }

    /// Checks the assertions together with `assumptions`.
    pub(super) fn check_assumptions(&self, assumptions: &[Bool]) -> z3::SatResult {
        let lits: Vec<Z3_ast> = assumptions.iter().map(|a| a.get_z3_ast()).collect();
        // SAFETY: the literals are kept alive by `assumptions` for the call.
        let r = unsafe {
            Z3_solver_check_assumptions(self.c(), self.solver, lits.len() as u32, lits.as_ptr())
        };
        match r {
            Z3_L_TRUE => z3::SatResult::Sat,
            Z3_L_FALSE => z3::SatResult::Unsat,
            _ => z3::SatResult::Unknown,
        }
    }

    /// After `Unknown`: Z3's reason.
    pub(super) fn reason_unknown(&self) -> Option<String> {
        // SAFETY: Z3 returns a string it owns, valid until the next call; it is copied at once.
        unsafe {
            let p = Z3_solver_get_reason_unknown(self.c(), self.solver);
            (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
        }
    }

    /// After `Unsat` under assumptions: the assumptions in Z3's unsat core.
    pub(super) fn unsat_core(&self) -> Vec<Bool> {
        let c = self.c();
        // SAFETY: the vector is reference-counted while read; each element is wrapped (which
        // takes its own reference) before the vector is released.
        unsafe {
            let Some(v) = Z3_solver_get_unsat_core(c, self.solver) else {
                return Vec::new();
            };
            Z3_ast_vector_inc_ref(c, v);
            let out = (0..Z3_ast_vector_size(c, v))
                .filter_map(|i| Z3_ast_vector_get(c, v, i))
                .map(|a| Bool::wrap(&self.ctx, a))
                .collect();
            Z3_ast_vector_dec_ref(c, v);
            out
        }
    }

    /// After `Sat`: the model, or `None` if Z3 has none.
    pub(super) fn model(&self) -> Option<RawModel> {
        let c = self.c();
        // SAFETY: the model is reference-counted from here on and released in its `drop`.
        unsafe {
            let m = Z3_solver_get_model(c, self.solver)?;
            Z3_model_inc_ref(c, m);
            Some(RawModel {
                ctx: self.ctx.clone(),
                model: m,
            })
        }
    }
}

impl Drop for RawSolver {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `new`; the context outlives it (`ctx`).
        unsafe { Z3_solver_dec_ref(self.c(), self.solver) }
    }
}

/// A model of a [`RawSolver`]'s last satisfiable check.
pub(super) struct RawModel {
    ctx: z3::Context,
    model: Z3_model,
}

impl RawModel {
    fn c(&self) -> Z3_context {
        self.ctx.get_z3_context()
    }

    /// The value of `t` in the model, completed with defaults for what it leaves open.
    pub(super) fn eval(&self, t: &Dynamic) -> Option<Dynamic> {
        // Z3 overwrites `out` on success; it starts as a valid term so it is never dangling.
        let mut out: Z3_ast = t.get_z3_ast();
        // SAFETY: model and term belong to the same live context; wrapping takes a reference
        // to the result.
        unsafe {
            Z3_model_eval(self.c(), self.model, t.get_z3_ast(), true, &mut out)
                .then(|| Dynamic::wrap(&self.ctx, out))
        }
    }

    /// Z3's model-based projection of `body` onto the constants outside `vars`; `None` on a Z3
    /// error (an interrupt, a variable that is not a constant).
    pub(super) fn project(&self, vars: &[Dynamic], body: &Bool) -> Option<Bool> {
        let c = self.c();
        // SAFETY: terms and model belong to the same live context; the result is wrapped
        // (referenced) at once.
        unsafe {
            let apps: Vec<Z3_app> = vars
                .iter()
                .map(|v| Z3_to_app(c, v.get_z3_ast()))
                .collect::<Option<_>>()?;
            let r = Z3_qe_model_project(
                c,
                self.model,
                apps.len() as u32,
                apps.as_ptr(),
                body.get_z3_ast(),
            )?;
            Some(Bool::wrap(&self.ctx, r))
        }
    }
}

impl Drop for RawModel {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `RawSolver::model`.
        unsafe { Z3_model_dec_ref(self.c(), self.model) }
    }
}
