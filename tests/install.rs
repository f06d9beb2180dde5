//! A movable binary: the built `hornbeam` finds `libz3.so` next to itself (`$ORIGIN`), or in
//! the build's per-user cache wherever it is copied on this machine; `--version` names the
//! commit and the Z3 version. (`cargo install --path .` gives such a copy; see README
//! "Building".)

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

fn scratch(name: &str) -> PathBuf {
    common::scratch("install", name)
}

/// Runs the README's example with `bin` from another working directory; returns stdout.
fn readme_example(bin: &Path) -> String {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/chc/counter-unsafe.smt2");
    let out = Command::new(bin)
        .args([
            "solve",
            "--deterministic",
            example.to_str().unwrap(),
            "--cex",
        ])
        .current_dir(std::env::temp_dir())
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    assert!(
        out.status.success(),
        "{}: {}",
        bin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_copied_binary_runs() {
    let dir = scratch("copy");
    let copy = dir.join("hornbeam");
    std::fs::copy(BIN, &copy).expect("copy the binary");
    assert!(readme_example(&copy).starts_with("unsat\n"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_binary_with_libz3_beside_it_uses_that_one() {
    let dir = scratch("bundle");
    let copy = dir.join("hornbeam");
    std::fs::copy(BIN, &copy).expect("copy the binary");
    // The library under each of its names (the binary needs it by its soname, `libz3.so.M.m`).
    for entry in std::fs::read_dir(env!("HORNBEAM_Z3_LIB")).expect("the build's Z3") {
        let entry = entry.expect("directory entry");
        if entry.file_name().to_string_lossy().starts_with("libz3.so") {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).expect("copy libz3");
        }
    }
    // The dynamic loader's own account of where libz3 comes from.
    let ldd = Command::new("ldd").arg(&copy).output().expect("ldd runs");
    let ldd = String::from_utf8_lossy(&ldd.stdout);
    let line = ldd
        .lines()
        .find(|l| l.contains("libz3.so"))
        .unwrap_or_else(|| panic!("no libz3 in\n{ldd}"));
    assert!(
        line.contains(dir.to_str().unwrap()),
        "libz3 not taken from beside the binary: {line}"
    );
    assert!(readme_example(&copy).starts_with("unsat\n"));
}

#[test]
fn version_names_commit_and_z3() {
    let out = Command::new(BIN).arg("--version").output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    let want = format!(
        "hornbeam {} (commit {}, Z3 ",
        env!("CARGO_PKG_VERSION"),
        env!("HORNBEAM_COMMIT")
    );
    assert!(text.starts_with(&want), "{text}");
    assert!(text.trim_end().ends_with(')'), "{text}");
}
