//! Engines (bmc, slicing, cegar, pdr): one module per engine; the portfolio composes them, each behind the one-method [`Engine`] trait.
//!
//! An engine reads a system and returns an [`Answer`]; it never calls another engine (the
//! portfolio composes them) and never prints. Answers are validated by the caller
//! ([`Answer::validated`]) before anyone sees them.

pub mod bmc;
pub mod cegar;
pub mod driver;
pub mod parallel;
pub mod pdr;
pub mod portfolio;
pub mod seeds;
pub mod slicing;

use crate::chc::System;
use crate::clock::{Cancel, Deadline};
use crate::term::TermStore;
use crate::witness::Answer;
use std::collections::BTreeMap;

/// Counters an engine reports for `--stats` (name → JSON value).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(transparent)]
pub struct Stats(pub BTreeMap<String, serde_json::Value>);

impl Stats {
    /// Sets a counter.
    pub fn set(&mut self, key: &str, value: impl Into<serde_json::Value>) {
        self.0.insert(key.to_string(), value.into());
    }

    /// Adds to an integer counter.
    pub fn add(&mut self, key: &str, n: u64) {
        let cur = self.0.get(key).and_then(|v| v.as_u64()).unwrap_or(0);
        self.0.insert(key.to_string(), (cur + n).into());
    }
}

/// What every engine gets besides the system.
pub struct Context<'a> {
    /// The store holding the system's terms; engines may add terms.
    pub store: &'a TermStore,
    /// Stop by this time and answer `unknown`.
    pub deadline: Deadline,
    /// Stop when this is set (the answer is no longer needed) and answer `unknown`.
    pub cancel: Cancel,
}

impl Context<'_> {
    /// Whether the engine should stop: past the deadline, or cancelled.
    pub fn stopped(&self) -> bool {
        self.deadline.expired() || self.cancel.is_cancelled()
    }
}

/// A solving strategy.
pub trait Engine {
    /// Solves `system`, recording counters in `stats`.
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer;
}
