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

    /// Reads a table; an error names the file and what is wrong with it.
    pub fn load(tsv: &Path) -> Result<Self, String> {
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
        let mut by_path = HashMap::new();
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let cells: Vec<&str> = line.split('\t').collect();
            let (Some(p), Some(e)) = (cells.get(pc), cells.get(ec)) else {
                continue;
            };
            let full = base.join(p.trim());
            let key = full.canonicalize().unwrap_or(full);
            by_path.insert(key, e.trim().to_string());
        }
        Ok(Expected { by_path })
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
        rec.expected = self.get(file).map(str::to_string);
        rec.wrong = is_wrong(&rec.answer, rec.expected.as_deref());
    }
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
