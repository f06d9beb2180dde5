//! Why there is no answer, as a value every layer above can count: a witness that failed its
//! check (a bug) is a kind of its own, never an `unknown` among others.
//!
//! This module only names and prints reasons; it must not decide them (engines, the validator
//! and the portfolio do).

use std::fmt;

/// Why a solver answered `unknown`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The time limit ran out.
    Timeout,
    /// A bound of the engine was reached (unrolling depth, frames, iterations, instances).
    Limit(String),
    /// A resource of the process ran out: memory above its limit, a thread that could not be
    /// started.
    Resource(String),
    /// The engine cannot decide this input: it is incomplete there, the input uses something it
    /// does not handle, or the SMT solver could not decide a query.
    GaveUp(String),
    /// An answer was found, but its witness could not be checked in time.
    Unchecked(String),
    /// A witness failed its check (a model violates a clause, a derivation does not replay): a
    /// bug of whatever produced it. The answer is withheld.
    WitnessFailed(String),
    /// The reasons of a portfolio's phases, in order.
    Phases(Vec<Reason>),
}

/// The kind of a [`Reason`], as batch records and reports count it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ReasonKind {
    /// See [`Reason::GaveUp`].
    GaveUp,
    /// See [`Reason::Limit`].
    Limit,
    /// See [`Reason::Timeout`].
    Timeout,
    /// See [`Reason::Resource`].
    Resource,
    /// See [`Reason::Unchecked`].
    Unchecked,
    /// See [`Reason::WitnessFailed`].
    WitnessFailed,
}

impl ReasonKind {
    /// The name used in JSON, CSV and on the command line (`witness-failed`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ReasonKind::GaveUp => "gave-up",
            ReasonKind::Limit => "limit",
            ReasonKind::Timeout => "timeout",
            ReasonKind::Resource => "resource",
            ReasonKind::Unchecked => "unchecked",
            ReasonKind::WitnessFailed => "witness-failed",
        }
    }
}

impl ReasonKind {
    /// Every kind, from the least severe to the most (the order [`Reason::kind`] uses).
    pub const ALL: [ReasonKind; 6] = [
        ReasonKind::GaveUp,
        ReasonKind::Limit,
        ReasonKind::Timeout,
        ReasonKind::Resource,
        ReasonKind::Unchecked,
        ReasonKind::WitnessFailed,
    ];
}

impl std::str::FromStr for ReasonKind {
    type Err = String;

    /// The kind named as [`ReasonKind::name`] writes it.
    fn from_str(s: &str) -> Result<Self, String> {
        ReasonKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("`{s}` is not a kind of reason"))
    }
}

impl Reason {
    /// Why a derivation that does not replay is no answer: a counterexample through a
    /// division by zero proves nothing ([`Reason::GaveUp`]); any other failure is a bug
    /// ([`Reason::WitnessFailed`]).
    pub fn of_replay(e: &super::ReplayError) -> Reason {
        match e {
            super::ReplayError::Unspecified(_) => Reason::GaveUp(e.to_string()),
            _ => Reason::WitnessFailed(format!("derivation failed replay: {e}")),
        }
    }

    /// The kind; for a portfolio's phases the most severe one (a failed witness first, then an
    /// unchecked answer, a resource, the time limit, a bound, giving up).
    pub fn kind(&self) -> ReasonKind {
        match self {
            Reason::Timeout => ReasonKind::Timeout,
            Reason::Limit(_) => ReasonKind::Limit,
            Reason::Resource(_) => ReasonKind::Resource,
            Reason::GaveUp(_) => ReasonKind::GaveUp,
            Reason::Unchecked(_) => ReasonKind::Unchecked,
            Reason::WitnessFailed(_) => ReasonKind::WitnessFailed,
            Reason::Phases(rs) => rs
                .iter()
                .map(Reason::kind)
                .max()
                .unwrap_or(ReasonKind::GaveUp),
        }
    }

    /// Whether a witness failed its check here (in any phase).
    pub fn witness_failed(&self) -> bool {
        self.kind() == ReasonKind::WitnessFailed
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Timeout => write!(f, "timeout"),
            Reason::Limit(s) | Reason::Resource(s) | Reason::GaveUp(s) | Reason::Unchecked(s) => {
                write!(f, "{s}")
            }
            Reason::WitnessFailed(s) => write!(f, "internal error: {s}"),
            Reason::Phases(rs) => {
                let mut shown: Vec<String> = Vec::new();
                for r in rs {
                    let text = r.to_string();
                    if shown.last() != Some(&text) {
                        shown.push(text);
                    }
                }
                write!(f, "{}", shown.join("; "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_witness_in_any_phase_is_the_kind_of_the_whole() {
        let r = Reason::Phases(vec![
            Reason::GaveUp("slicing: no invariant".into()),
            Reason::WitnessFailed("pdr: the model violates clause 3".into()),
            Reason::Timeout,
        ]);
        assert_eq!(r.kind(), ReasonKind::WitnessFailed);
        assert!(r.witness_failed());
        assert_eq!(
            r.to_string(),
            "slicing: no invariant; internal error: pdr: the model violates clause 3; timeout"
        );
        assert_eq!(
            Reason::Phases(vec![Reason::Timeout, Reason::Timeout]).to_string(),
            "timeout"
        );
        assert!(!Reason::Unchecked("validation: timeout".into()).witness_failed());
    }

    #[test]
    fn kinds_are_named_once_and_read_back() {
        for k in ReasonKind::ALL {
            assert_eq!(k.name().parse::<ReasonKind>(), Ok(k));
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
        }
        assert_eq!(
            Reason::Phases(vec![Reason::Timeout, Reason::Resource("memory".into())]).kind(),
            ReasonKind::Resource
        );
    }
}
