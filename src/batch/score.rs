//! Scores of a run, as the competitions count them. For C programs and tasks, SV-COMP's
//! scheme: a correct `true` +2, a correct `false` +1, a wrong `false` −16 (a `false` with
//! another subproperty than the expected one included), a wrong `true` −32, anything else 0;
//! only records with an expected verdict are scored. For clause systems, CHC-COMP's: the
//! number of correct answers, per track, wrong ones counted apart.
//!
//! Categories are the records' tracks (a task's folder, as in sv-benchmarks). The overall
//! score is the plain sum over categories (SV-COMP's meta categories normalise by category
//! size; that weighting is not applied here).
//!
//! Must not: change records, or judge answers (the records' `wrong` flags are the judgement).

use super::{polarity, walk, Record};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The SV-COMP score of one record; `None` for a clause system's record or one without an
/// expected verdict.
pub fn sv_score(r: &Record) -> Option<i64> {
    if !is_c(r) {
        return None;
    }
    let expected = polarity(r.expected.as_deref()?)?;
    Some(match (polarity(&r.answer), r.wrong) {
        (Some(true), false) if expected => 2,
        (Some(false), false) if !expected => 1,
        (Some(false), true) => -16,
        (Some(true), true) => -32,
        _ => 0,
    })
}

/// Whether a record is of a C program or task (its path names one).
fn is_c(r: &Record) -> bool {
    let p = Path::new(&r.path);
    walk::is_program(p) || walk::is_task(p)
}

/// Counts of one category (or of all).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Records counted.
    pub runs: usize,
    /// Correct `true` (SV-COMP) or `sat` (CHC-COMP) answers.
    pub correct_true: usize,
    /// Correct `false` or `unsat` answers.
    pub correct_false: usize,
    /// Wrong `true` or `sat` answers.
    pub wrong_true: usize,
    /// Wrong `false` or `unsat` answers.
    pub wrong_false: usize,
    /// SV-COMP's score (0 for clause systems, whose score is the number solved).
    pub score: i64,
}

impl Tally {
    fn add(&mut self, r: &Record, score: i64) {
        self.runs += 1;
        self.score += score;
        match (polarity(&r.answer), r.wrong) {
            (Some(true), false) if r.expected.is_some() => self.correct_true += 1,
            (Some(false), false) if r.expected.is_some() => self.correct_false += 1,
            (Some(true), true) => self.wrong_true += 1,
            (Some(false), true) => self.wrong_false += 1,
            _ => {}
        }
    }

    /// Correct answers.
    pub fn correct(&self) -> usize {
        self.correct_true + self.correct_false
    }

    /// Wrong answers.
    pub fn wrong(&self) -> usize {
        self.wrong_true + self.wrong_false
    }
}

/// A run's scores: SV-COMP's for C records, solved counts for clause systems.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Scores {
    /// SV-COMP, per category (records with an expected verdict).
    pub svcomp: BTreeMap<String, Tally>,
    /// SV-COMP over all categories.
    pub svcomp_total: Tally,
    /// CHC-COMP, per track (records with an expected answer).
    pub chccomp: BTreeMap<String, Tally>,
    /// CHC-COMP over all tracks.
    pub chccomp_total: Tally,
}

/// Scores the records.
pub fn scores(records: &[Record]) -> Scores {
    let mut out = Scores::default();
    for r in records {
        if r.expected.as_deref().and_then(polarity).is_none() {
            continue;
        }
        match sv_score(r) {
            Some(s) => {
                out.svcomp.entry(r.track.clone()).or_default().add(r, s);
                out.svcomp_total.add(r, s);
            }
            None => {
                out.chccomp.entry(r.track.clone()).or_default().add(r, 0);
                out.chccomp_total.add(r, 0);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(path: &str, answer: &str, expected: &str, violated: Option<&str>) -> Record {
        let mut r = crate::batch::error_record(Path::new(path), String::new());
        r.answer = answer.into();
        r.violated = violated.map(Into::into);
        crate::batch::expected::mark_task(&mut r, Some(expected));
        r
    }

    #[test]
    fn svcomp_scores_each_outcome_as_the_competition_does() {
        let s = |answer, expected, violated| {
            sv_score(&rec("c/t.yml", answer, expected, violated)).expect("scored")
        };
        assert_eq!(s("safe", "true", None), 2);
        assert_eq!(s("unsafe", "false", None), 1);
        assert_eq!(s("unsafe", "false(valid-deref)", Some("valid-deref")), 1);
        assert_eq!(s("unsafe", "false(valid-deref)", Some("valid-free")), -16);
        assert_eq!(s("unsafe", "true", None), -16);
        assert_eq!(s("safe", "false", None), -32);
        assert_eq!(s("unknown", "false", None), 0);
        assert_eq!(s("error", "true", None), 0);
        assert_eq!(sv_score(&rec("x/f.smt2", "sat", "sat", None)), None);
    }

    #[test]
    fn categories_add_up_to_the_total() {
        let records = [
            rec("a/1.c", "safe", "true", None),
            rec("a/2.c", "safe", "false", None),
            rec("b/3.i", "unsafe", "false", None),
            rec("t/f.smt2", "unsat", "unsat", None),
        ];
        let s = scores(&records);
        assert_eq!(s.svcomp["a"].score, 2 - 32);
        assert_eq!(s.svcomp["b"].score, 1);
        assert_eq!(s.svcomp_total.score, 2 - 32 + 1);
        assert_eq!(s.svcomp_total.wrong(), 1);
        assert_eq!(s.chccomp["t"].correct(), 1);
    }
}
