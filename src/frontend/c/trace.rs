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
    /// For the elements of an uninitialised array (declared at `site`): which of them.
    pub element: Option<Element>,
}

/// Which elements of an uninitialised array a [`NondetValue`] gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// Which execution of the declaration (0 for the first) made the array.
    pub instance: usize,
    /// The element's row-major number; `None`: every element no other value names.
    pub index: Option<BigInt>,
}

impl NondetValue {
    /// The value of a nondet call or of an uninitialised scalar.
    pub fn scalar(site: usize, value: BigInt) -> Self {
        NondetValue {
            site,
            value,
            element: None,
        }
    }
}

/// The nondet values of a derivation of the translation's system, in execution order.
pub fn extract(store: &TermStore, tr: &Translation, d: &Derivation) -> Vec<NondetValue> {
    let mut out = vec![];
    if let Some(root) = d.nodes.len().checked_sub(1) {
        let mut w = Walk {
            out: &mut out,
            instances: HashMap::new(),
        };
        visit(store, tr, d, root, &mut w, 0);
    }
    out
}

/// What the walk collects: the values, and how many arrays each site has declared so far.
struct Walk<'a> {
    out: &'a mut Vec<NondetValue>,
    instances: HashMap<usize, usize>,
}

fn visit(
    store: &TermStore,
    tr: &Translation,
    d: &Derivation,
    i: usize,
    w: &mut Walk,
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
            visit(store, tr, d, c, w, depth + 1);
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
                    w.out.push(NondetValue::scalar(site, v.clone()));
                }
            }
            EventKind::Call(k) => {
                if let Some(&c) = node.children.get(k) {
                    visit(store, tr, d, c, w, depth + 1);
                }
            }
            EventKind::Array(site, var) => {
                let count = w.instances.entry(site).or_insert(0);
                let instance = *count;
                *count += 1;
                if let Some(Value::Array(default, entries)) = env.get(&var) {
                    let mut push = |index: Option<BigInt>, v: &Value| {
                        if let Value::Int(value) = v {
                            let element = Some(Element { instance, index });
                            let value = value.clone();
                            w.out.push(NondetValue {
                                site,
                                value,
                                element,
                            });
                        }
                    };
                    push(None, default);
                    for (k, v) in entries {
                        if let Value::Int(k) = k {
                            push(Some(k.clone()), v);
                        }
                    }
                }
            }
        }
    }
}
