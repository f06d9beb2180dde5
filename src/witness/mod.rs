//! Answers and their witnesses: models for `sat`, derivations for `unsat`, and the independent
//! validator that every answer passes before it is printed.
//!
//! An [`Answer`] is a value, never an error. [`validate_model`] checks a model against every
//! clause with a fresh solver; [`replay_derivation`] checks a derivation by ground evaluation
//! alone (no SMT solver), clause instance by clause instance. Models and derivations move to
//! another store (and thread) as [`ExportedModel`] and [`ExportedDerivation`]. This layer uses
//! `term`, `chc` and `smt`; it must not know any engine.

mod clause_check;
mod derivation;
mod derivation_text;
mod ground;
mod implied;
mod instantiate;
mod model;
mod reason;
mod transfer;

pub use derivation::{replay_derivation, DerivNode, Derivation, ReplayError};
pub use derivation_text::{check_derivation_text, DerivationCheck};
pub use model::{read_model, validate_model, Interp, Model, ModelCheck, ModelFormat};
pub use reason::{Reason, ReasonKind};
pub use transfer::{ExportedDerivation, ExportedModel};

use crate::chc::System;
use crate::clock::Deadline;
use crate::term::TermStore;

/// The result of solving a system.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The system is satisfiable: the program is safe; the model proves it.
    Sat(Model),
    /// The system is unsatisfiable: the derivation reaches `false`.
    Unsat(Derivation),
    /// No answer; the reason says why (time limit, a bound, giving up, a failed check).
    Unknown(Reason),
}

impl Answer {
    /// `sat`, `unsat` or `unknown`.
    pub fn keyword(&self) -> &'static str {
        match self {
            Answer::Sat(_) => "sat",
            Answer::Unsat(_) => "unsat",
            Answer::Unknown(_) => "unknown",
        }
    }

    /// Checks the answer's witness; an answer whose witness fails becomes `Unknown` with the
    /// reason (such a failure is a bug in whatever produced the answer).
    pub fn validated(self, store: &TermStore, system: &System, deadline: Deadline) -> Answer {
        match self {
            Answer::Sat(m) => match validate_model(store, system, &m, deadline) {
                ModelCheck::Valid => Answer::Sat(m),
                ModelCheck::Invalid { clause, reason, .. } => {
                    Answer::Unknown(Reason::WitnessFailed(format!(
                        "model failed validation at clause {}: {reason}",
                        clause.0
                    )))
                }
                ModelCheck::Unknown(r) => Answer::Unknown(Reason::Unchecked(format!(
                    "model could not be validated: {r}"
                ))),
            },
            Answer::Unsat(d) => match replay_derivation(store, system, &d) {
                Ok(()) => Answer::Unsat(d),
                Err(e) => Answer::Unknown(Reason::of_replay(&e)),
            },
            u => u,
        }
    }
}
