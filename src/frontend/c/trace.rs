//! Reads the nondet values of a counterexample back from a derivation, in execution order.
//!
//! Each clause of the translation recorded its nondet values and calls in execution order,
//! each with the path condition under which it happens ([`super::encode::ClauseInfo`]). A walk
//! of the derivation that first visits a step's source cut point (the block executed before),
//! then the step's events — a nondet value whose condition holds under the step's ground values,
//! or the callee's sub-derivation at a call — lists the values as the program consumes them.
//!
//! Must not: decide whether the counterexample is real (that is [`super::interp`]).

use super::encode::{EventKind, Translation};
use crate::term::{TermStore, Value};
use crate::witness::Derivation;
use num_bigint::BigInt;
use std::collections::HashMap;

/// One nondet value consumed by the counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NondetValue {
    /// The nondet call site (or uninitialised declaration).
    pub site: usize,
    /// The value.
    pub value: BigInt,
}

/// The nondet values of a derivation of the translation's system, in execution order.
pub fn extract(store: &TermStore, tr: &Translation, d: &Derivation) -> Vec<NondetValue> {
    let mut out = vec![];
    if let Some(root) = d.nodes.len().checked_sub(1) {
        visit(store, tr, d, root, &mut out, 0);
    }
    out
}

fn visit(
    store: &TermStore,
    tr: &Translation,
    d: &Derivation,
    i: usize,
    out: &mut Vec<NondetValue>,
    depth: usize,
) {
    let Some(node) = d.nodes.get(i) else { return };
    let Some(info) = tr.clauses.get(node.clause.0 as usize) else {
        return;
    };
    if depth > 100_000 {
        return;
    }
    if info.has_source {
        if let Some(&c) = node.children.first() {
            visit(store, tr, d, c, out, depth + 1);
        }
    }
    let env: HashMap<_, _> = node
        .assignment
        .iter()
        .map(|(k, v)| (*k, v.clone()))
        .collect();
    for ev in &info.events {
        if store.eval(ev.guard, &env) != Ok(Value::Bool(true)) {
            continue;
        }
        match ev.kind {
            EventKind::Nondet(site, var) => {
                if let Some(Value::Int(v)) = env.get(&var) {
                    out.push(NondetValue {
                        site,
                        value: v.clone(),
                    });
                }
            }
            EventKind::Call(k) => {
                if let Some(&c) = node.children.get(k) {
                    visit(store, tr, d, c, out, depth + 1);
                }
            }
        }
    }
}
