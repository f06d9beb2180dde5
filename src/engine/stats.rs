//! Engine counters for `--stats` as typed values: one struct per engine (declared with its
//! engine), the portfolio's phases and threads here, all under one [`Stats`] that serialises
//! to the JSON keys `--stats` has printed all along (the engine's struct as a flat object,
//! `{}` when nothing ran, optional counters left out when they were never set).
//!
//! Must not: compute counters (the engines do) or print.

use super::bmc::BmcStats;
use super::cegar::CegarStats;
use super::explore::ExploreStats;
use super::imc::ImcStats;
use super::kind::KindStats;
use super::pdr::PdrStats;
use super::seeds::SamplesStats;
use super::slicing::SlicingStats;
use crate::witness::{Answer, ReasonKind};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// What an engine (or the portfolio) reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Stats {
    /// Nothing ran (an answer from the concrete runs of `verify`): `{}`.
    Empty {},
    /// See [`BmcStats`].
    Bmc(BmcStats),
    /// See [`ExploreStats`].
    Explore(ExploreStats),
    /// See [`SlicingStats`].
    Slicing(SlicingStats),
    /// See [`SamplesStats`].
    Samples(SamplesStats),
    /// See [`CegarStats`].
    Cegar(CegarStats),
    /// See [`PdrStats`].
    Pdr(PdrStats),
    /// See [`KindStats`].
    Kind(KindStats),
    /// See [`ImcStats`].
    Imc(ImcStats),
    /// See [`PortfolioStats`].
    Portfolio(PortfolioStats),
}

impl Default for Stats {
    fn default() -> Self {
        Stats::Empty {}
    }
}

impl Stats {
    /// The JSON object `--stats` prints.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// The portfolio's counters, made so if they were something else.
    pub fn portfolio(&mut self) -> &mut PortfolioStats {
        if !matches!(self, Stats::Portfolio(_)) {
            *self = Stats::Portfolio(PortfolioStats::default());
        }
        match self {
            Stats::Portfolio(p) => p,
            _ => unreachable!("set just above"),
        }
    }
}

/// The portfolio's counters (`engine_stats` under a schedule).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PortfolioStats {
    /// Milliseconds the split by Boolean valuations took, when it split.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_bools_ms: Option<u64>,
    /// Predicates of the split system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_bools_predicates: Option<usize>,
    /// The phases run, in order (absent when the schedule ran on threads).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Phase>,
    /// The engine that answered, when the portfolio ran as an [`Engine`](super::Engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<&'static str>,
    /// Per thread of a parallel run, what it did (`null` for a thread that did not report).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<Vec<Option<ThreadRecord>>>,
}

/// One phase of a schedule: `{"bmc": {"answer": ..., "time_ms": ..., "stats": {...}}}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// The engine's name.
    pub name: &'static str,
    /// `sat`, `unsat` or `unknown`.
    pub answer: &'static str,
    /// Wall-clock milliseconds.
    pub time_ms: u64,
    /// After `unknown`: the reason, and its kind.
    pub reason: Option<(String, ReasonKind)>,
    /// The engine's counters.
    pub stats: Stats,
    /// The view of the system it ran on, when not the system as given (`"split-booleans"`,
    /// `"sizes"`).
    pub view: Option<&'static str>,
}

impl Phase {
    /// The record of a phase that answered `answer`.
    pub fn new(name: &'static str, answer: &Answer, time_ms: u64, stats: Stats) -> Self {
        Phase {
            name,
            answer: answer.keyword(),
            time_ms,
            reason: match answer {
                Answer::Unknown(r) => Some((r.to_string(), r.kind())),
                _ => None,
            },
            stats,
            view: None,
        }
    }
}

/// The body of a [`Phase`] under its name.
#[derive(Serialize)]
struct PhaseBody<'a> {
    answer: &'static str,
    time_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason_kind: Option<ReasonKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<&'static str>,
    stats: &'a Stats,
}

impl Serialize for Phase {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let body = PhaseBody {
            answer: self.answer,
            time_ms: self.time_ms,
            reason: self.reason.as_ref().map(|(r, _)| r.as_str()),
            reason_kind: self.reason.as_ref().map(|(_, k)| *k),
            view: self.view,
            stats: &self.stats,
        };
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(self.name, &body)?;
        map.end()
    }
}

/// What one thread of a parallel portfolio did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThreadRecord {
    /// The engine that answered there (`"portfolio"`: none).
    pub engine: &'static str,
    /// Its part's counters.
    pub stats: Stats,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::Reason;

    #[test]
    fn serialises_to_the_keys_stats_always_had() {
        assert_eq!(Stats::default().to_json().to_string(), "{}");
        let mut s = Stats::default();
        let bmc = Stats::Bmc(BmcStats {
            depth: Some(4),
            instances: 11,
            smt_checks: 4,
        });
        s.portfolio()
            .phases
            .push(Phase::new("bmc", &Answer::Unknown(Reason::Timeout), 9, bmc));
        assert_eq!(
            s.to_json().to_string(),
            r#"{"phases":[{"bmc":{"answer":"unknown","reason":"timeout","reason_kind":"timeout","stats":{"depth":4,"instances":11,"smt_checks":4},"time_ms":9}}]}"#
        );
    }
}
