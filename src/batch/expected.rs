//! Expected answers: a tab-separated table with a header naming the columns `path` and
//! `expected` (other columns ignored), paths relative to the table's directory, as in CHC-COMP's
//! `expected.tsv`, or SV-COMP samples' (`expected` = `safe`/`unsafe`). Duty: look files up and
//! mark wrong answers. Must not: judge `unknown` or `error` as wrong (only a definite answer
//! contradicting a definite expectation is wrong: `sat` or `safe` against `unsat` or `unsafe`,
//! or the other way round, see [`polarity`]).

use super::{polarity, Record};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Expected answers by canonical path.
#[derive(Clone, Debug, Default)]
pub struct Expected {
    by_path: HashMap<PathBuf, String>,
}

impl Expected {
    /// No expectations.
    pub fn none() -> Self {
        Expected::default()
    }

    /// Reads a table; an error names the file, the line and what is wrong: a missing column,
    /// a verdict that is not one of [`VERDICTS`], or two rows of one file that contradict each
    /// other. A row naming a file that does not exist is kept, with a warning in the second
    /// result (tables often cover more files than a sample holds).
    pub fn load(tsv: &Path) -> Result<(Self, Vec<String>), String> {
        let text = std::fs::read_to_string(tsv).map_err(|e| format!("{}: {e}", tsv.display()))?;
        let base = tsv.parent().unwrap_or(Path::new("."));
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h.trim() == name)
                .ok_or_else(|| format!("{}:1:1: no `{name}` column", tsv.display()))
        };
        let (pc, ec) = (col("path")?, col("expected")?);
        let mut by_path: HashMap<PathBuf, String> = HashMap::new();
        let mut line_of: HashMap<PathBuf, usize> = HashMap::new();
        let mut missing = Vec::new();
        for (n, line) in lines.enumerate() {
            let line_no = n + 2;
            if line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            let (Some(p), Some(e)) = (cells.get(pc), cells.get(ec)) else {
                return Err(format!(
                    "{}:{line_no}:1: the row has no `path` or no `expected` cell",
                    tsv.display()
                ));
            };
            let e = e.trim();
            let col_no = cells[..ec]
                .iter()
                .map(|c| c.chars().count() + 1)
                .sum::<usize>()
                + 1;
            if !is_verdict(e) {
                return Err(format!(
                    "{}:{line_no}:{col_no}: unknown verdict `{e}` (expected one of {})",
                    tsv.display(),
                    VERDICTS.join(", ")
                ));
            }
            let full = base.join(p.trim());
            if !full.exists() {
                missing.push(format!(
                    "{}:{line_no}: {} does not exist",
                    tsv.display(),
                    full.display()
                ));
            }
            let key = full.canonicalize().unwrap_or(full);
            if let Some(before) = by_path.get(&key) {
                if polarity(before) != polarity(e) {
                    return Err(format!(
                        "{}:{line_no}:{col_no}: `{e}` contradicts `{before}` on line {} for {}",
                        tsv.display(),
                        line_of[&key],
                        p.trim()
                    ));
                }
                continue;
            }
            line_of.insert(key.clone(), line_no);
            by_path.insert(key, e.to_string());
        }
        let warnings = match missing.len() {
            0 => vec![],
            1..=3 => missing,
            n => {
                let mut w: Vec<String> = missing.into_iter().take(3).collect();
                w.push(format!(
                    "{}: {} more rows name files that do not exist",
                    tsv.display(),
                    n - 3
                ));
                w
            }
        };
        Ok((Expected { by_path }, warnings))
    }

    /// Whether the table has no row.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// The expected answer of `file` (a `.gz` file also matches its uncompressed name).
    pub fn get(&self, file: &Path) -> Option<&str> {
        let key = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
        if let Some(e) = self.by_path.get(&key) {
            return Some(e);
        }
        let plain = PathBuf::from(OsStr::from_bytes(
            key.as_os_str().as_bytes().strip_suffix(b".gz")?,
        ));
        self.by_path.get(&plain).map(String::as_str)
    }

    /// Fills in `rec.expected` and `rec.wrong`.
    pub fn mark(&self, rec: &mut Record, file: &Path) {
        mark_task(rec, self.get(file));
    }
}

/// Fills in `rec.expected` (a task's own verdict, or a table's) and `rec.wrong`: a verdict of
/// the other polarity, or `false(X)` against an expected `false(Y)` (SV-COMP counts a wrong
/// subproperty as a wrong answer).
pub fn mark_task(rec: &mut Record, expected: Option<&str>) {
    rec.expected = expected.map(str::to_string);
    rec.wrong = is_wrong(&rec.answer, expected) || wrong_subproperty(rec, expected);
}

/// `false(X)` answered where `false(Y)` was expected, `X != Y`.
fn wrong_subproperty(rec: &Record, expected: Option<&str>) -> bool {
    let want = expected
        .and_then(|e| e.strip_prefix("false("))
        .and_then(|e| e.strip_suffix(')'));
    match (rec.answer.as_str(), want, &rec.violated) {
        ("unsafe", Some(want), Some(got)) => want != got,
        _ => false,
    }
}

/// The words an expected verdict may be: Hornbeam's and CHC-COMP's (`sat`, `unsat`, `safe`,
/// `unsafe`), SV-COMP's (`true`, `false`, `false(SUBPROPERTY)`), or `unknown` (no
/// expectation).
pub const VERDICTS: [&str; 8] = [
    "sat",
    "unsat",
    "safe",
    "unsafe",
    "true",
    "false",
    "false(SUBPROPERTY)",
    "unknown",
];

/// Whether `word` is one of [`VERDICTS`].
pub fn is_verdict(word: &str) -> bool {
    word == "unknown" || polarity(word).is_some()
}

/// A definite answer that contradicts a definite expectation: `sat`/`safe` against
/// `unsat`/`unsafe`, or the other way round.
pub fn is_wrong(answer: &str, expected: Option<&str>) -> bool {
    match (polarity(answer), expected.and_then(polarity)) {
        (Some(a), Some(e)) => a != e,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_wrong;

    #[test]
    fn tables_with_unknown_or_contradicting_verdicts_are_refused_at_their_line() {
        let dir = tempfile::tempdir().expect("temporary directory");
        std::fs::write(dir.path().join("a.c"), "").expect("writes");
        let table = |rows: &str| {
            let p = dir.path().join("expected.tsv");
            std::fs::write(&p, format!("path\texpected\n{rows}")).expect("writes");
            super::Expected::load(&p)
        };
        let (e, warnings) = table("a.c\tfalse(valid-deref)\na.c\tunsafe\n").expect("loads");
        assert!(warnings.is_empty());
        assert_eq!(e.get(&dir.path().join("a.c")), Some("false(valid-deref)"));
        let err = table("a.c\tbanana\n").expect_err("refused");
        assert!(
            err.contains("expected.tsv:2:5: unknown verdict `banana`"),
            "{err}"
        );
        let err = table("a.c\ttrue\n\na.c\tfalse\n").expect_err("refused");
        assert!(
            err.contains("expected.tsv:4:5: `false` contradicts `true` on line 2"),
            "{err}"
        );
        let (_, warnings) = table("b.c\tsafe\n").expect("loads");
        assert!(
            warnings[0].contains("expected.tsv:2: ") && warnings[0].ends_with("does not exist")
        );
    }

    #[test]
    fn only_definite_answers_against_definite_expectations_are_wrong() {
        assert!(is_wrong("sat", Some("unsat")));
        assert!(is_wrong("unsat", Some("sat")));
        assert!(is_wrong("safe", Some("unsafe")));
        assert!(is_wrong("unsafe", Some("safe")));
        assert!(is_wrong("sat", Some("unsafe")));
        assert!(!is_wrong("safe", Some("safe")));
        assert!(!is_wrong("safe", Some("sat")));
        assert!(!is_wrong("unknown", Some("safe")));
        assert!(!is_wrong("error", Some("unsat")));
        assert!(!is_wrong("unsafe", None));
        assert!(!is_wrong("unsafe", Some("maybe")));
    }
}
