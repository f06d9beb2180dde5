//! The cell abstraction of arrays (`--engine ENGINE@cells`): the systems of
//! `tests/data/cells/sat/` need invariants quantified over array indices (a filled range, a
//! copy, one but at an index and merged under a disjunction, a copy of another array's reads,
//! a fill then its sum, values that follow the index, squares of the index, a search, a bound
//! of 100000), which the
//! samples with the abstraction's ranges find and the driver validates against the original
//! clauses; the
//! abstraction over-approximates, so on every unsafe system (`cells/unsat/`, `unsat/`) it
//! never answers `sat`, and its counterexamples are not taken for the system's.

mod common;

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

/// The first line `solve` prints on `path` with the samples and PDR on the cells.
fn check(path: &Path) -> String {
    let out = Command::new(BIN)
        .args([
            "solve",
            "--engine",
            "samples@cells,pdr@cells",
            "--timeout",
            "30",
        ])
        .arg(path)
        .output()
        .expect("hornbeam runs");
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    stdout.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn quantified_invariants_come_from_one_cell() {
    for path in common::corpus("cells/sat") {
        assert_eq!(check(&path), "sat", "{}", path.display());
    }
}

#[test]
fn unsafe_systems_are_never_safe_on_the_cells() {
    for folder in ["cells/unsat", "unsat"] {
        for path in common::corpus(folder) {
            let answer = check(&path);
            assert!(answer != "sat", "{}: {answer}", path.display());
        }
    }
}
