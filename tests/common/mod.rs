//! Helpers shared by the integration tests: where the data corpus lives and how to list it.
//! Nothing here runs Hornbeam; each test file keeps its own `check` helper.
#![allow(dead_code)] // each test crate uses a different subset

use std::path::{Path, PathBuf};

/// `tests/data/<folder>`.
pub fn data_dir(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder)
}

/// The `.smt2` files of a corpus folder, sorted; never empty.
pub fn corpus(folder: &str) -> Vec<PathBuf> {
    let dir = data_dir(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "smt2"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .smt2 files in {}", dir.display());
    files
}

/// A fresh, empty scratch directory `hornbeam-SUITE-PID-NAME` under the system's temporary
/// directory (removed first if a previous run left it).
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hornbeam-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
