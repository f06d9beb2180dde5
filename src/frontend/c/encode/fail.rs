//! Which functions may reach the error, directly or through the functions they call: only
//! those get an `_err` predicate and make their callers consider a failing call.
//! Must not: emit clauses.

use crate::frontend::c::program::Program;

/// Functions that may reach the error (directly or through calls).
pub(super) fn may_fail(p: &Program) -> Vec<bool> {
    let mut direct: Vec<bool> = p
        .functions
        .iter()
        .map(|f| f.cfa.edges.iter().any(|e| e.to == f.cfa.error))
        .collect();
    let callees = p.callees();
    crate::frontend::c::ir::mark_callers(&mut direct, &callees);
    direct
}
