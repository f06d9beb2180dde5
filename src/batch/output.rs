//! Result files: a [`Run`] as JSON (settings and records) or CSV (one row per record, the same
//! fields), written and read back so that runs of other solvers can be compared in a report:
//! in the same shape, or as a CSV with only `path`, `answer` and `time` ([`CSV_REQUIRED`]).
//! Duty: the two formats and nothing else. Must not: change a record (beyond filling in what
//! a shorter CSV leaves out, see [`from_csv`]).

use super::expected::is_wrong;
use super::{Record, Run};
use std::path::{Path, PathBuf};

/// The CSV columns written, in order (the fields of [`Record`], then the record's SV-COMP
/// score, which is derived and not read back).
pub const CSV_COLUMNS: [&str; 16] = [
    "path",
    "track",
    "answer",
    "expected",
    "wrong",
    "time",
    "cpu_secs",
    "peak_rss_mb",
    "engine",
    "validation",
    "reason",
    "reason_kind",
    "property",
    "violated",
    "witness",
    "score",
];

/// The CSV columns a result file must have; the others of [`CSV_COLUMNS`] are optional, in any
/// order, and unknown columns are ignored.
pub const CSV_REQUIRED: [&str; 3] = ["path", "answer", "time"];

/// Why a result file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file cannot be read.
    #[error("{}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The JSON is not a run.
    #[error("{}:{}:{}: {source}", .path.display(), .source.line(), .source.column())]
    Json {
        /// The file.
        path: PathBuf,
        /// What serde found.
        source: serde_json::Error,
    },
    /// The CSV has no header line.
    #[error("{}: empty CSV (no header line)", .path.display())]
    EmptyCsv {
        /// The file.
        path: PathBuf,
    },
    /// A required column is missing.
    #[error("{}:1: no `{column}` column (needed: {})", .path.display(), CSV_REQUIRED.join(", "))]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column.
        column: &'static str,
    },
    /// A record states something impossible: a negative or non-finite time, an answer that
    /// is no answer, a wrong answer without an expectation.
    #[error("{}: record {index} ({record}): {what}", .path.display())]
    Impossible {
        /// The file.
        path: PathBuf,
        /// The record's position, from 1.
        index: usize,
        /// The record's path.
        record: String,
        /// What is impossible.
        what: String,
    },
    /// A number cell is not a number.
    #[error("{}:{line}: bad {column} `{value}` (seconds or MB as a decimal number)", .path.display())]
    BadNumber {
        /// The file.
        path: PathBuf,
        /// The line of the row (the header is line 1; a quoted cell may span lines).
        line: usize,
        /// The column.
        column: &'static str,
        /// The cell.
        value: String,
    },
}

/// The run as pretty JSON, with its [`scores`](super::score::scores) under `scores` (derived:
/// not read back).
pub fn to_json(run: &Run) -> String {
    /// The run's fields in their order, then the scores.
    #[derive(serde::Serialize)]
    struct WithScores<'a> {
        #[serde(flatten)]
        run: &'a Run,
        scores: super::score::Scores,
    }
    let with = WithScores {
        run,
        scores: super::score::scores(&run.results),
    };
    serde_json::to_string_pretty(&with).unwrap_or_default()
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The records as CSV with a header line, after the run's metadata as `# key: value` lines.
pub fn to_csv(run: &Run) -> String {
    let mut out = String::new();
    for line in run.meta.iter().flat_map(|m| m.lines()) {
        out.push_str(&format!("# {}\n", line.replace(['\n', '\r'], " ")));
    }
    out.push_str(&CSV_COLUMNS.join(","));
    out.push('\n');
    let number =
        |x: Option<f64>, digits: usize| x.map_or(String::new(), |x| format!("{x:.digits$}"));
    for r in &run.results {
        let cells = [
            r.path.clone(),
            r.track.clone(),
            r.answer.clone(),
            r.expected.clone().unwrap_or_default(),
            r.wrong.to_string(),
            format!("{:.3}", r.time),
            number(r.cpu_secs, 3),
            number(r.peak_rss_mb, 1),
            r.engine.clone().unwrap_or_default(),
            r.validation.clone(),
            r.reason.clone(),
            r.reason_kind.map_or(String::new(), |k| k.name().to_owned()),
            r.property.clone().unwrap_or_default(),
            r.violated.clone().unwrap_or_default(),
            r.witness.clone().unwrap_or_default(),
            super::score::sv_score(r).map_or(String::new(), |s| s.to_string()),
        ];
        let cells: Vec<String> = cells.iter().map(|c| quote(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// Splits CSV text into rows of cells (RFC 4180 quoting).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

/// Reads CSV records written by [`to_csv`], or by another tool with at least the columns of
/// [`CSV_REQUIRED`]: a missing `track` is the parent directory's name, a missing `wrong` is
/// computed from `answer` and `expected`, other missing cells are empty. Answers are trimmed
/// and lower-cased (`SAT` is `sat`). `file` names the file in errors.
pub fn from_csv(text: &str, file: &Path) -> Result<Vec<Record>, LoadError> {
    // Leading `# ` lines are the run's metadata (see `to_csv`).
    let skipped: usize = text
        .split_inclusive('\n')
        .take_while(|l| l.starts_with('#'))
        .map(str::len)
        .sum();
    let comments = text[..skipped].matches('\n').count();
    let rows = parse_csv(&text[skipped..]);
    let mut rows = rows.into_iter();
    let header = rows.next().ok_or_else(|| LoadError::EmptyCsv {
        path: file.to_path_buf(),
    })?;
    let col = |name: &str| header.iter().position(|h| h.trim() == name);
    for column in CSV_REQUIRED {
        if col(column).is_none() {
            return Err(LoadError::MissingColumn {
                path: file.to_path_buf(),
                column,
            });
        }
    }
    let idx: Vec<Option<usize>> = CSV_COLUMNS.iter().map(|c| col(c)).collect();
    let mut out = Vec::new();
    for (n, row) in rows.enumerate() {
        if row.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let get = |i: usize| {
            idx[i]
                .and_then(|k| row.get(k))
                .map_or(String::new(), |c| c.trim().to_string())
        };
        let opt = |s: String| (!s.is_empty()).then_some(s);
        let number = |i: usize| -> Result<Option<f64>, LoadError> {
            let cell = get(i);
            if cell.is_empty() {
                return Ok(None);
            }
            match cell.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
                _ => Err(LoadError::BadNumber {
                    path: file.to_path_buf(),
                    line: comments + n + 2,
                    column: CSV_COLUMNS[i],
                    value: cell,
                }),
            }
        };
        let path = get(0);
        let answer = get(2).to_lowercase();
        let expected = opt(get(3)).map(|e| e.to_lowercase());
        let wrong = match idx[4] {
            Some(_) => get(4) == "true",
            None => is_wrong(&answer, expected.as_deref()),
        };
        let track = match idx[1] {
            Some(_) => get(1),
            None => super::track_of(Path::new(&path)),
        };
        out.push(Record {
            track,
            answer,
            expected,
            wrong,
            time: number(5)?.ok_or_else(|| LoadError::BadNumber {
                path: file.to_path_buf(),
                line: comments + n + 2,
                column: "time",
                value: String::new(),
            })?,
            cpu_secs: number(6)?,
            peak_rss_mb: number(7)?,
            engine: opt(get(8)),
            validation: get(9),
            reason: get(10),
            reason_kind: get(11).parse().ok(),
            property: opt(get(12)),
            violated: opt(get(13)),
            witness: opt(get(14)),
            path,
        });
    }
    Ok(out)
}

/// Reads a result file: JSON (a [`Run`]; records may lack `cpu_secs` and `peak_rss_mb`, as
/// files written before them do) or, for a `.csv` name, CSV records (see [`from_csv`]).
pub fn load(path: &Path) -> Result<Run, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let is_csv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let run = if is_csv {
        Run {
            results: from_csv(&text, path)?,
            meta: super::meta::RunMeta::from_lines(
                text.lines()
                    .take_while(|l| l.starts_with('#'))
                    .map(|l| l.trim_start_matches('#').trim_start()),
            ),
            ..Run::default()
        }
    } else {
        serde_json::from_str(&text).map_err(|source| LoadError::Json {
            path: path.to_path_buf(),
            source,
        })?
    };
    check_records(&run.results, path)?;
    let mut run = run;
    // Other tools' words for running out of a limit: no answer, for the reason they name.
    for r in &mut run.results {
        if matches!(r.answer.as_str(), "timeout" | "memout") {
            if r.reason.is_empty() {
                r.reason = r.answer.clone();
            }
            r.answer = "unknown".to_owned();
        }
    }
    Ok(run)
}

/// The answers a record may have: a verdict (either side's words), `unknown`, `error`, or
/// `timeout` and `memout` as other tools write them.
const ANSWERS: [&str; 10] = [
    "sat", "unsat", "safe", "unsafe", "true", "false", "unknown", "error", "timeout", "memout",
];

/// Refuses records that state something impossible (see [`LoadError::Impossible`]).
fn check_records(records: &[Record], file: &Path) -> Result<(), LoadError> {
    for (i, r) in records.iter().enumerate() {
        let impossible = |what: String| LoadError::Impossible {
            path: file.to_path_buf(),
            index: i + 1,
            record: r.path.clone(),
            what,
        };
        let times = [Some(r.time), r.cpu_secs, r.peak_rss_mb];
        if let Some(t) = times
            .into_iter()
            .flatten()
            .find(|t| !t.is_finite() || *t < 0.0)
        {
            return Err(impossible(format!("negative or infinite number {t}")));
        }
        if !ANSWERS.contains(&r.answer.as_str()) && super::polarity(&r.answer).is_none() {
            return Err(impossible(format!(
                "unknown answer `{}` (one of {})",
                r.answer,
                ANSWERS.join(", ")
            )));
        }
        if let Some(e) = &r.expected {
            if !super::expected::is_verdict(e) {
                return Err(impossible(format!("unknown expected verdict `{e}`")));
            }
        }
        if r.wrong && r.expected.is_none() {
            return Err(impossible("wrong, but nothing was expected".into()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{load, to_json, LoadError};
    use crate::batch::{error_record, Run};
    use std::path::Path;

    #[test]
    fn other_tools_timeouts_are_unknown_answers() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let p = dir.path().join("z3.csv");
        std::fs::write(
            &p,
            "path,answer,time\nt/a.smt2,timeout,20\nt/b.smt2,sat,1\n",
        )
        .expect("w");
        let run = load(&p).expect("loads");
        assert_eq!(
            (
                run.results[0].answer.as_str(),
                run.results[0].reason.as_str()
            ),
            ("unknown", "timeout")
        );
        assert_eq!(run.results[1].answer, "sat");
    }

    /// A result file with one record changed by `edit`, loaded back.
    fn loaded(edit: impl Fn(&mut crate::batch::Record)) -> Result<Run, LoadError> {
        let mut rec = error_record(Path::new("t/a.smt2"), String::new());
        rec.answer = "sat".into();
        edit(&mut rec);
        let run = Run {
            results: vec![rec],
            ..Run::default()
        };
        let dir = tempfile::tempdir().expect("temporary directory");
        let p = dir.path().join("r.json");
        std::fs::write(&p, to_json(&run)).expect("writes");
        load(&p)
    }

    #[test]
    fn impossible_records_are_refused() {
        assert!(loaded(|_| {}).is_ok());
        assert!(loaded(|r| r.answer = "SAT!".into()).is_err());
        assert!(loaded(|r| r.time = -1.0).is_err());
        assert!(loaded(|r| r.wrong = true).is_err());
        assert!(loaded(|r| r.expected = Some("banana".into())).is_err());
        let ok = loaded(|r| {
            r.expected = Some("false(valid-free)".into());
            r.wrong = true;
        });
        assert!(ok.is_ok());
        let e = loaded(|r| r.wrong = true).expect_err("refused").to_string();
        assert!(
            e.contains("record 1 (t/a.smt2): wrong, but nothing was expected"),
            "{e}"
        );
    }
}
