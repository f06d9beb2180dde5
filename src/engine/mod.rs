//! Engines (bmc, explore, slicing, samples, cegar, pdr, kind, imc): one module per engine, each behind the
//! one-method [`Engine`] trait; the portfolio composes them as its [`schedule`] says.
//!
//! An engine reads a system and returns an [`Answer`]; it never calls another engine (the
//! portfolio composes them: what one engine finds reaches another only as the
//! [`Candidates`] the portfolio hands over) and never prints. An engine returns only models it
//! has validated, except where the model is one by construction: [`explore`]'s (exact, and
//! its check is the largest cost of its answer) and [`pdr`]'s found without seeds (inductive
//! by the checks that raised its lemmas); the driver's check is theirs. Derivations are
//! replayed by the caller, and the driver checks every answer again against the original
//! clauses ([`Answer::validated`]) before anyone sees it.

pub mod bmc;
pub mod cegar;
pub mod driver;
pub mod explore;
pub mod hints;
pub mod imc;
pub mod kind;
pub mod parallel;
pub mod pdr;
pub mod portfolio;
pub mod schedule;
pub mod seeds;
mod selection;
pub mod slicing;
pub mod stats;
pub(crate) mod unroll;

pub use stats::Stats;

use crate::chc::{PredId, System};
use crate::clock::Deadline;
use crate::term::{TermId, TermStore, VarId};
use crate::witness::{validate_model, Answer, Model, ModelCheck, Reason};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// What every engine gets besides the system.
pub struct Context<'a> {
    /// The store holding the system's terms; engines may add terms.
    pub store: &'a TermStore,
    /// Stop by this time, or once its flag is set (the answer is no longer needed), and
    /// answer `unknown`.
    pub deadline: Deadline,
    /// Check an answer found by [`Context::deadline`] by this time (the caller's own deadline:
    /// a portfolio's time slice bounds the search, not the check of what it found).
    pub check_deadline: Deadline,
    /// Candidate invariants handed over by the portfolio, and those the engine leaves.
    pub candidates: Candidates,
}

impl<'a> Context<'a> {
    /// A context with `deadline` (and its flag) for the search and the check, without
    /// candidates.
    pub fn new(store: &'a TermStore, deadline: Deadline) -> Self {
        Context {
            store,
            check_deadline: deadline.clone(),
            deadline,
            candidates: Candidates::default(),
        }
    }

    /// Whether the engine should stop: past the deadline, or cancelled.
    pub fn stopped(&self) -> bool {
        self.deadline.expired()
    }

    /// `Timeout` once stopped, else `engine` giving up for `why`.
    pub fn stopped_or(&self, engine: &str, why: &str) -> Reason {
        if self.stopped() {
            Reason::Timeout
        } else {
            Reason::GaveUp(format!("{engine}: {why}"))
        }
    }

    /// `model` (`what`, for messages) if it satisfies every clause of `system` by
    /// [`Context::check_deadline`]; a model that fails is a witness failure.
    pub fn validated(&self, system: &System, model: Model, what: &str) -> Answer {
        match validate_model(self.store, system, &model, self.check_deadline.clone()) {
            ModelCheck::Valid => Answer::Sat(model),
            ModelCheck::Invalid { clause, reason, .. } => Answer::Unknown(Reason::WitnessFailed(
                format!("{what} fails clause {}: {reason}", clause.0),
            )),
            ModelCheck::Unknown(r) => Answer::Unknown(Reason::Unchecked(format!("{what}: {r}"))),
        }
    }
}

/// Candidate invariants exchanged through the portfolio: those found by the engines before
/// this one (which it may start from), and those it leaves for the engines after it (slicing's
/// fixpoint and the samples' inductive lemmas, even when they do not exclude the queries).
/// Candidates are never an answer: whoever uses them checks what it builds from them.
#[derive(Debug, Default)]
pub struct Candidates {
    given: Option<Model>,
    templates: Option<Model>,
    states: Option<Arc<seeds::sample::States>>,
    frames: Option<Arc<FrameLemmas>>,
    left: RefCell<Option<Model>>,
    left_frames: RefCell<Option<FrameLemmas>>,
}

impl Candidates {
    /// Candidates to hand to an engine.
    pub fn given(seeds: Option<Model>) -> Self {
        Candidates {
            given: seeds,
            templates: None,
            states: None,
            frames: None,
            left: RefCell::new(None),
            left_frames: RefCell::new(None),
        }
    }

    /// These candidates with unfiltered ones beside them (`templates`, say the cell
    /// abstraction's ranges), which an engine that filters candidates (the samples) filters
    /// with its own and the others ignore.
    pub fn with_templates(self, templates: Option<Model>) -> Self {
        Candidates { templates, ..self }
    }

    /// These candidates with reachable states of the engine's system found elsewhere (say
    /// the cell abstraction's projections of the given system's samples), which an engine
    /// that samples adds to its own.
    pub fn with_states(self, states: Option<Arc<seeds::sample::States>>) -> Self {
        Candidates { states, ..self }
    }

    /// These candidates with the lemmas an earlier run of PDR on the same system left (see
    /// [`FrameLemmas`]), which PDR starts from and the others ignore.
    pub fn with_frames(self, frames: Option<Arc<FrameLemmas>>) -> Self {
        Candidates { frames, ..self }
    }

    /// The frame lemmas given, if any: see [`Candidates::with_frames`].
    pub fn frames(&self) -> Option<&FrameLemmas> {
        self.frames.as_deref()
    }

    /// The reachable states given, if any: see [`Candidates::with_states`].
    pub fn states(&self) -> Option<&seeds::sample::States> {
        self.states.as_deref()
    }

    /// The unfiltered candidates, if any: see [`Candidates::with_templates`].
    pub fn templates(&self) -> Option<&Model> {
        self.templates.as_ref()
    }

    /// The candidates the engine was given.
    pub fn seeds(&self) -> Option<&Model> {
        self.given.as_ref()
    }

    /// Leaves candidates for the engines after this one (replacing any left before).
    pub fn leave(&self, model: Model) {
        *self.left.borrow_mut() = Some(model);
    }

    /// What the engine left.
    pub fn take_left(&self) -> Option<Model> {
        self.left.borrow_mut().take()
    }

    /// Leaves frame lemmas for the next run of PDR on the same system.
    pub fn leave_frames(&self, frames: FrameLemmas) {
        *self.left_frames.borrow_mut() = Some(frames);
    }

    /// The frame lemmas the engine left.
    pub fn take_left_frames(&self) -> Option<FrameLemmas> {
        self.left_frames.borrow_mut().take()
    }
}

/// What one run of PDR leaves for the next on the same system, so that a run after a time
/// slice goes on from its frames instead of starting over: its lemmas without its solvers.
/// Each lemma excludes a cube of its predicate's states from every derivation of height at
/// most its level (`usize::MAX`: of any height), given the seeds the run assumed, which come
/// along as lemmas of that level. Like candidates, frame lemmas are never an answer: a model
/// built on them is validated.
#[derive(Clone, Debug, Default)]
pub struct FrameLemmas {
    /// The parameters of each predicate, which its cubes are written over.
    pub params: HashMap<PredId, Vec<VarId>>,
    /// Each lemma: its predicate, the cube it excludes (a conjunction of literals) and its
    /// level.
    pub lemmas: Vec<(PredId, Vec<TermId>, usize)>,
}

/// A solving strategy: one method, as in Golem; the portfolio composes engines through it.
pub trait Engine {
    /// Solves `system`, recording counters in `stats`. A `sat` answer's model has been
    /// validated by the engine that found it (but [`explore`]'s and unseeded [`pdr`]'s by the
    /// driver only), on the system it solved (a portfolio's answer found on the system split
    /// by Boolean valuations is that model translated back; the driver validates every answer
    /// against the original clauses).
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer;
}
