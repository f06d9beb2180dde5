//! A derivation read from text (ours, `--cex`, or another solver's in that format) made whole
//! and replayed. The text gives each step's fact (its head's values), clause and premises;
//! the values of a clause's other variables (locals of its constraint) are found by a solver
//! from the constraint under the known values, and then the whole derivation is replayed by
//! ground evaluation (`replay_derivation`), which alone decides.
//!
//! Must not: accept a derivation the replay does not.

use super::derivation::{replay_derivation, DerivNode, Derivation, ReplayError};
use crate::chc::{ClauseId, Head, System};
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::syntax::derivation::StepText;
use crate::term::{TermStore, Value, VarId};
use std::collections::BTreeMap;

/// The verdict on a derivation read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DerivationCheck {
    /// It derives `false`: every step replays.
    Valid,
    /// A step does not: which (its index) and why.
    Invalid(usize, String),
    /// The values of a step's local variables could not be found in time.
    Unknown(usize, String),
}

/// Completes and replays the steps (see the module).
pub fn check_derivation_text(
    store: &TermStore,
    system: &System,
    steps: &[StepText],
    deadline: Deadline,
) -> DerivationCheck {
    let mut nodes = vec![];
    for (i, s) in steps.iter().enumerate() {
        let invalid = |why: String| DerivationCheck::Invalid(i, why);
        if s.clause >= system.num_clauses() {
            return invalid(ReplayError::NoSuchClause(i).to_string());
        }
        let cid = ClauseId(s.clause as u32);
        let c = system.clause(cid);
        if s.from.len() != c.body.len() {
            return invalid(ReplayError::Arity(i, s.from.len(), c.body.len()).to_string());
        }
        let mut known: BTreeMap<VarId, Value> = BTreeMap::new();
        match (&c.head, &s.fact) {
            (Head::False, None) => {}
            (Head::Atom(a), Some((p, values))) if a.pred == *p => {
                known.extend(a.args.iter().copied().zip(values.iter().cloned()));
            }
            _ => return invalid(format!("step {i}: its fact is not its clause's head")),
        }
        for (j, (atom, &child)) in c.body.iter().zip(&s.from).enumerate() {
            match steps
                .get(child)
                .filter(|_| child < i)
                .and_then(|x| x.fact.as_ref())
            {
                Some((p, values)) if *p == atom.pred => {
                    known.extend(atom.args.iter().copied().zip(values.iter().cloned()));
                }
                _ => {
                    let why = ReplayError::Mismatch {
                        node: i,
                        atom: j,
                        child,
                    };
                    return invalid(why.to_string());
                }
            }
        }
        let open: Vec<VarId> = c
            .vars(store)
            .into_iter()
            .filter(|v| !known.contains_key(v))
            .collect();
        if !open.is_empty() {
            let mut smt = Smt::new(store, deadline.clone());
            smt.assert(c.constraint);
            for (v, val) in &known {
                let t = store.value_term(val, &store.var_sort(*v));
                smt.assert(store.eq(store.var(*v), t));
            }
            match smt.check() {
                SatResult::Sat => {}
                SatResult::Unsat => {
                    return invalid(ReplayError::ConstraintFalse(i).to_string());
                }
                SatResult::Unknown(why) => return DerivationCheck::Unknown(i, why),
            }
            for v in open {
                match smt.value(v) {
                    Some(val) => {
                        known.insert(v, val);
                    }
                    None => {
                        return DerivationCheck::Unknown(i, "no value from the solver".to_owned())
                    }
                }
            }
        }
        nodes.push(DerivNode {
            clause: cid,
            assignment: known,
            children: s.from.clone(),
        });
    }
    match replay_derivation(store, system, &Derivation { nodes }) {
        Ok(()) => DerivationCheck::Valid,
        Err(e) => {
            let step = match &e {
                ReplayError::NoSuchClause(i)
                | ReplayError::BadChild(i)
                | ReplayError::Arity(i, ..)
                | ReplayError::ConstraintFalse(i)
                | ReplayError::Eval(i, _)
                | ReplayError::Unspecified(i)
                | ReplayError::Sort(i) => *i,
                ReplayError::Mismatch { node, .. } => *node,
                ReplayError::Empty | ReplayError::RootNotQuery => steps.len().saturating_sub(1),
            };
            DerivationCheck::Invalid(step, e.to_string())
        }
    }
}
