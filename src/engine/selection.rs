//! The names of the engines and phases a schedule can run ([`EngineKind`], declared once),
//! of the views of a system they can run on ([`View`]), and what `--engine` of every command
//! asks for ([`Selection`]: `auto`, or a list such as `bmc,cegar@sizes`).
//!
//! Duty: names and their parsing. Must not: build an engine (the schedule does) or know a
//! budget.

use std::fmt;
use std::str::FromStr;

/// The engines and phases a schedule can run, named once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EngineKind {
    /// Formula slicing: invariants only (never `unsat`); leaves its candidates for later
    /// entries even when they do not prove the queries.
    Slicing,
    /// Candidate invariants from sampled reachable states, filtered to an inductive subset:
    /// invariants only; leaves its linear lemmas (with the earlier candidates) for later entries.
    Samples,
    /// Bounded model checking: counterexamples only.
    Bmc,
    /// Explicit-state exploration of finitely many reachable states: both answers, on linear
    /// systems whose states are determined by the states before them.
    Explore,
    /// CEGAR with small refinements: both answers; starts from the candidates it is given.
    Cegar,
    /// Property-directed reachability: both answers; the candidates it is given are lemmas of
    /// every frame.
    Pdr,
    /// k-induction: both answers, on linear systems (read as transition systems).
    Kind,
    /// Interpolation-based model checking: both answers, on transition systems of one
    /// predicate.
    Imc,
}

impl EngineKind {
    /// Every kind, in the order the help text lists them.
    pub const ALL: [EngineKind; 8] = [
        EngineKind::Bmc,
        EngineKind::Explore,
        EngineKind::Slicing,
        EngineKind::Samples,
        EngineKind::Cegar,
        EngineKind::Pdr,
        EngineKind::Kind,
        EngineKind::Imc,
    ];

    /// The name on the command line and in `--stats` (`"engine"`, the phases).
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Slicing => "slicing",
            EngineKind::Samples => "samples",
            EngineKind::Bmc => "bmc",
            EngineKind::Explore => "explore",
            EngineKind::Cegar => "cegar",
            EngineKind::Pdr => "pdr",
            EngineKind::Kind => "kind",
            EngineKind::Imc => "imc",
        }
    }

    /// Whether the kind can answer `unsat` (its derivations are replayed).
    pub fn refutes(self) -> bool {
        matches!(
            self,
            EngineKind::Bmc
                | EngineKind::Explore
                | EngineKind::Cegar
                | EngineKind::Pdr
                | EngineKind::Kind
                | EngineKind::Imc
        )
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The names of every kind, for messages: `bmc, slicing, ...`.
fn names() -> String {
    EngineKind::ALL.map(EngineKind::name).join(", ")
}

/// A `--engine` value that names no engine list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// A name that is not in the table.
    #[error("unknown engine `{name}` (engines: auto, {})", names())]
    Unknown {
        /// The name given.
        name: String,
    },
    /// `a,,b` or a trailing comma.
    #[error("`{list}`: an empty engine name (a list is `a,b,...` of {})", names())]
    Empty {
        /// The list given.
        list: String,
    },
    /// `auto` inside a list.
    #[error("`auto` is the whole portfolio and cannot be part of a list")]
    AutoInList,
    /// A view after `@` that is not one.
    #[error("unknown view `{name}` (views: given, split-booleans, sizes, cells)")]
    UnknownView {
        /// The name given.
        name: String,
    },
}

impl FromStr for EngineKind {
    type Err = SelectionError;

    fn from_str(s: &str) -> Result<Self, SelectionError> {
        EngineKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| SelectionError::Unknown { name: s.into() })
    }
}

/// The system an entry runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The system as given.
    Given,
    /// Split by reachable Boolean valuations (when the schedule splits and the split
    /// succeeds; else the system as given); answers are translated back.
    SplitBooleans,
    /// Every datatype abstracted to its size
    /// ([`SizeAbstraction`](crate::transform::SizeAbstraction)); only models are translated
    /// back (the entry does not run on a system without datatype arguments).
    Sizes,
    /// Every array abstracted to one cell
    /// ([`CellAbstraction`](crate::transform::CellAbstraction)); only models are translated
    /// back (the entry does not run on a system without array arguments).
    Cells,
}

impl View {
    /// The name in `--stats`: `given`, `split-booleans`, `sizes`, `cells`.
    pub fn name(self) -> &'static str {
        match self {
            View::Given => "given",
            View::SplitBooleans => "split-booleans",
            View::Sizes => "sizes",
            View::Cells => "cells",
        }
    }
}

impl std::str::FromStr for View {
    type Err = SelectionError;

    fn from_str(s: &str) -> Result<Self, SelectionError> {
        [View::Given, View::SplitBooleans, View::Sizes, View::Cells]
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| SelectionError::UnknownView { name: s.into() })
    }
}

/// One engine of a `--engine` list and the view of the system it runs on (`cegar@sizes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The engine.
    pub kind: EngineKind,
    /// The system it runs on.
    pub view: View,
}

impl From<EngineKind> for Choice {
    /// The engine on the system as given.
    fn from(kind: EngineKind) -> Self {
        Choice {
            kind,
            view: View::Given,
        }
    }
}

impl FromStr for Choice {
    type Err = SelectionError;

    /// `kind` or `kind@view`.
    fn from_str(s: &str) -> Result<Self, SelectionError> {
        match s.split_once('@') {
            None => Ok(s.parse::<EngineKind>()?.into()),
            Some((k, v)) => Ok(Choice {
                kind: k.trim().parse()?,
                view: v.trim().parse()?,
            }),
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.view {
            View::Given => f.write_str(self.kind.name()),
            v => write!(f, "{}@{}", self.kind.name(), v.name()),
        }
    }
}

/// What `--engine` asks for: the portfolio's own schedule, or chosen engines in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// The default schedule ([`Schedule::default`](super::schedule::Schedule::default)).
    #[default]
    Auto,
    /// These engines, in this order, each on its view, with the portfolio's rules (one engine
    /// on the system as given: that engine alone, with all the time).
    Engines(Vec<Choice>),
}

impl Selection {
    /// One engine alone.
    pub fn only(kind: EngineKind) -> Self {
        Selection::Engines(vec![kind.into()])
    }

    /// One engine on the system as given, which then runs alone (no portfolio around it).
    pub fn alone(&self) -> Option<EngineKind> {
        match self {
            Selection::Engines(cs) if cs.len() == 1 && cs[0].view == View::Given => {
                Some(cs[0].kind)
            }
            _ => None,
        }
    }
}

impl FromStr for Selection {
    type Err = SelectionError;

    /// `auto`, or a comma-separated list of engine names, each with an optional view
    /// (`bmc,pdr`, `samples@sizes,cegar@sizes`).
    fn from_str(s: &str) -> Result<Self, SelectionError> {
        if s.trim() == "auto" {
            return Ok(Selection::Auto);
        }
        let choices = s
            .split(',')
            .map(|n| match n.trim() {
                "" => Err(SelectionError::Empty { list: s.into() }),
                "auto" => Err(SelectionError::AutoInList),
                n => n.parse(),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selection::Engines(choices))
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selection::Auto => f.write_str("auto"),
            Selection::Engines(cs) => {
                let names: Vec<String> = cs.iter().map(Choice::to_string).collect();
                f.write_str(&names.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_lists_parse() {
        for k in EngineKind::ALL {
            assert_eq!(k.name().parse::<EngineKind>(), Ok(k));
        }
        assert_eq!("auto".parse::<Selection>(), Ok(Selection::Auto));
        let s: Selection = "bmc, pdr".parse().unwrap();
        assert_eq!(
            s,
            Selection::Engines(vec![EngineKind::Bmc.into(), EngineKind::Pdr.into()])
        );
        assert_eq!(s.to_string(), "bmc,pdr");
        assert_eq!(s.alone(), None);
        let s: Selection = "samples@sizes,cegar@sizes".parse().unwrap();
        assert_eq!(s.to_string(), "samples@sizes,cegar@sizes");
        assert_eq!(
            Selection::only(EngineKind::Pdr).alone(),
            Some(EngineKind::Pdr)
        );
        assert_eq!("cegar@sizes".parse::<Selection>().unwrap().alone(), None);
        let e = "cegar@lengths"
            .parse::<Selection>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("lengths") && e.contains("sizes"), "{e}");
        assert!("bmc,,pdr".parse::<Selection>().is_err());
        assert!("bmc,auto".parse::<Selection>().is_err());
        let e = "spacer".parse::<Selection>().unwrap_err().to_string();
        assert!(e.contains("spacer") && e.contains("cegar"), "{e}");
    }
}
