//! The journal of a batch: each finished record appended as one JSON line the moment it
//! arrives, so that a batch killed outright (SIGKILL from a scheduler or the OOM killer) keeps
//! every result it had, and `batch --resume` can go on from it.
//!
//! Duty: append records durably enough (one `write` per line on a file opened for appending, so
//! lines of concurrent writers never interleave) and read a journal back, a last line cut short
//! by a kill included (it is skipped). Must not: decide which inputs to run (the caller skips
//! the ones [`load`] returns) or write the result files (they are rebuilt from the records).

use super::Record;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a journal cannot be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file cannot be created, opened or read.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The journal.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A complete line that is not a record (the file is not a journal).
    #[error("{}:{line}:1: not a batch record: {reason}", .path.display())]
    Malformed {
        /// The journal.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What the JSON reader said.
        reason: String,
    },
}

/// A journal open for appending.
pub struct Journal {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Journal {
    /// Opens `path` for appending: emptied first unless `keep` (a resumed batch).
    pub fn open(path: &Path, keep: bool) -> Result<Journal, JournalError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|f| {
                if !keep {
                    f.set_len(0)?;
                }
                Ok(f)
            })
            .map_err(|source| JournalError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` as one line, written with one call; an error is returned (the batch
    /// goes on: the journal is a safeguard, the result files are written at the end anyway).
    pub fn append(&self, record: &Record) -> std::io::Result<()> {
        let mut line = serde_json::to_string(record).map_err(std::io::Error::other)?;
        line.push('\n');
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        file.write_all(line.as_bytes())
    }
}

/// The records of the journal at `path`, in the order they finished; a last line without its
/// newline (cut short by a kill) is skipped. A missing file has none.
pub fn load(path: &Path) -> Result<Vec<Record>, JournalError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(JournalError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    complete
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| JournalError::Malformed {
                path: path.to_path_buf(),
                line: i + 1,
                reason: e.to_string(),
            })
        })
        .collect()
}

/// The journal of a batch whose first result file is `output`: `OUTPUT.journal.jsonl`.
pub fn beside(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".journal.jsonl");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::{load, Journal};
    use crate::batch::error_record;
    use std::io::Write;
    use std::path::Path;

    #[test]
    fn records_come_back_and_a_cut_line_is_skipped() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("j.jsonl");
        let a = error_record(Path::new("a.smt2"), "one".into());
        let b = error_record(Path::new("b.smt2"), "two".into());
        let j = Journal::open(&path, false).expect("opens");
        j.append(&a).expect("appends");
        j.append(&b).expect("appends");
        // A kill in the middle of a third line.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("opens");
        f.write_all(b"{\"path\":\"c.smt2\",\"tra").expect("writes");
        assert_eq!(load(&path).expect("loads"), vec![a.clone(), b.clone()]);
        // Resuming keeps them; a fresh batch empties the journal.
        drop(Journal::open(&path, true).expect("opens"));
        assert_eq!(load(&path).expect("loads").len(), 2);
        drop(Journal::open(&path, false).expect("opens"));
        assert!(load(&path).expect("loads").is_empty());
    }

    #[test]
    fn a_file_that_is_not_a_journal_is_an_error_at_its_line() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("j.jsonl");
        std::fs::write(&path, "{}\n").expect("writes");
        let e = load(&path).expect_err("refused").to_string();
        assert!(e.contains("j.jsonl:1:1: not a batch record"), "{e}");
    }
}
