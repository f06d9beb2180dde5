//! The names of the engines and phases a schedule can run ([`EngineKind`], declared once)
//! and what `--engine` of every command asks for ([`Selection`]).
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
}

impl EngineKind {
    /// Every kind, in the order the help text lists them.
    pub const ALL: [EngineKind; 6] = [
        EngineKind::Bmc,
        EngineKind::Explore,
        EngineKind::Slicing,
        EngineKind::Samples,
        EngineKind::Cegar,
        EngineKind::Pdr,
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
        }
    }

    /// Whether the kind can answer `unsat` (its derivations are replayed).
    pub fn refutes(self) -> bool {
        matches!(
            self,
            EngineKind::Bmc | EngineKind::Explore | EngineKind::Cegar | EngineKind::Pdr
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

/// What `--engine` asks for: the portfolio's own schedule, or chosen engines in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// The default schedule ([`Schedule::default`](super::schedule::Schedule::default)).
    #[default]
    Auto,
    /// These engines, in this order, with the portfolio's rules (one engine: that engine
    /// alone, with all the time).
    Engines(Vec<EngineKind>),
}

impl Selection {
    /// One engine alone.
    pub fn only(kind: EngineKind) -> Self {
        Selection::Engines(vec![kind])
    }
}

impl FromStr for Selection {
    type Err = SelectionError;

    /// `auto`, or a comma-separated list of engine names (`bmc,pdr`).
    fn from_str(s: &str) -> Result<Self, SelectionError> {
        if s.trim() == "auto" {
            return Ok(Selection::Auto);
        }
        let kinds = s
            .split(',')
            .map(|n| match n.trim() {
                "" => Err(SelectionError::Empty { list: s.into() }),
                "auto" => Err(SelectionError::AutoInList),
                n => n.parse(),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selection::Engines(kinds))
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selection::Auto => f.write_str("auto"),
            Selection::Engines(ks) => {
                let names: Vec<&str> = ks.iter().map(|k| k.name()).collect();
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
            Selection::Engines(vec![EngineKind::Bmc, EngineKind::Pdr])
        );
        assert_eq!(s.to_string(), "bmc,pdr");
        assert!("bmc,,pdr".parse::<Selection>().is_err());
        assert!("bmc,auto".parse::<Selection>().is_err());
        let e = "spacer".parse::<Selection>().unwrap_err().to_string();
        assert!(e.contains("spacer") && e.contains("cegar"), "{e}");
    }
}
