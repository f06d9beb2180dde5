//! Counterexamples of PDR: a chain of clauses from a fact to a query, turned into a ground
//! derivation by solving the chain's path formula once.
//!
//! Each obligation's cube is an under-approximation of its successor's pre-image, so the chain
//! is feasible; the values come from one solver call over fresh copies of the clauses'
//! variables, linked head to body. Must not: trust the chain (an infeasible one is reported,
//! and the caller replays the derivation).

use crate::chc::{ClauseId, System};
use crate::smt::{Deadline, SatResult, Smt};
use crate::term::{TermId, TermStore, VarId};
use crate::witness::{DerivNode, Derivation};
use std::collections::{BTreeMap, HashMap};

/// The derivation along `chain` (a fact clause first, a query last, each clause's head feeding
/// the next one's body atom).
pub(super) fn derivation(
    store: &TermStore,
    system: &System,
    chain: &[ClauseId],
    deadline: Deadline,
) -> Result<Derivation, String> {
    let mut smt = Smt::new(store, deadline);
    let mut copies: Vec<HashMap<VarId, VarId>> = Vec::new();
    for (j, &cid) in chain.iter().enumerate() {
        let clause = system.clause(cid);
        let copy: HashMap<VarId, VarId> = clause
            .vars(store)
            .into_iter()
            .map(|v| {
                let name = format!("{}@{j}", store.var_name(v));
                (v, store.new_var(&name, store.var_sort(v)))
            })
            .collect();
        let map: HashMap<VarId, TermId> = copy.iter().map(|(k, v)| (*k, store.var(*v))).collect();
        smt.assert(store.substitute(clause.constraint, &map));
        if j > 0 {
            let prev = system.clause(chain[j - 1]);
            let (Some(head), Some(body)) = (prev.head_atom(), clause.body.first()) else {
                return Err("the counterexample chain is not linked".into());
            };
            for (h, b) in head.args.iter().zip(&body.args) {
                let (h, b) = (store.var(copies[j - 1][h]), store.var(copy[b]));
                smt.assert(store.eq(h, b));
            }
        }
        copies.push(copy);
    }
    match smt.check() {
        SatResult::Sat => {}
        SatResult::Unsat => return Err("the counterexample chain is infeasible".into()),
        SatResult::Unknown(r) => return Err(r),
    }
    let mut nodes = Vec::new();
    for (j, (&cid, copy)) in chain.iter().zip(&copies).enumerate() {
        let mut assignment = BTreeMap::new();
        for (&orig, &v) in copy {
            let value = smt.value(v).ok_or("no value in the counterexample model")?;
            assignment.insert(orig, value);
        }
        nodes.push(DerivNode {
            clause: cid,
            assignment,
            children: if j == 0 { vec![] } else { vec![j - 1] },
        });
    }
    Ok(Derivation { nodes })
}
