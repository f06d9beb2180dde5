//! Build script: compiles the lalrpop grammars in `grammar/` (into `OUT_DIR`), makes sure the
//! Z3 shared library is present, and records the commit for `--version`.
//!
//! Z3 comes with the build: `libz3.so` from the PyPI package `z3-solver`, fetched once into a
//! cache outside the source tree (`$HORNBEAM_Z3_DIR`, else `$XDG_CACHE_HOME/hornbeam/...` or
//! `~/.cache/hornbeam/...`, else `OUT_DIR`) and shared by every checkout and worktree. This
//! script writes nowhere else. Binaries find the library at run time without
//! `LD_LIBRARY_PATH` through their rpath: first next to the binary (`$ORIGIN`, then
//! `$ORIGIN/../lib`), so a binary shipped with `libz3.so` beside it runs anywhere; then the
//! cache, so a binary copied or installed (`cargo install --path .`) on this machine runs too.
//! The cache's library directory is also handed to the build scripts of crates that depend on
//! this one (`DEP_HORNBEAM_Z3_LIB`), whose binaries need the same rpath.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The z3-solver wheel whose `libz3.so` we link against (Z3 5.3.3).
const Z3_WHEEL: &str = "z3-solver==5.3.3.0";

fn main() {
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .emit_rerun_directives(true)
        .process()
        .expect("lalrpop grammar compilation failed");

    // A grammar added to the folder must rerun the script too (lalrpop names only existing files).
    println!("cargo:rerun-if-changed=grammar");
    for var in ["HORNBEAM_Z3_DIR", "XDG_CACHE_HOME", "HOME"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let z3_dir = z3_dir();
    let lib_dir = z3_dir.join("z3").join("lib");
    if !lib_dir.join("libz3.so").exists() {
        fetch_z3(&z3_dir);
    }
    let lib_dir = lib_dir.canonicalize().unwrap_or(lib_dir);
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    for rpath in ["$ORIGIN", "$ORIGIN/../lib"] {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{rpath}");
    }
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    println!(
        "cargo:rerun-if-changed={}",
        lib_dir.join("libz3.so").display()
    );
    // For the build scripts of crates that depend on this one (`links = "hornbeam"`): their
    // binaries need the same rpath (`DEP_HORNBEAM_Z3_LIB`; templates/analysis/build.rs).
    println!("cargo:z3_lib={}", lib_dir.display());
    // Where the library and the `z3` binary of the wheel are, for tests and `--version`.
    println!("cargo:rustc-env=HORNBEAM_Z3_LIB={}", lib_dir.display());
    println!(
        "cargo:rustc-env=HORNBEAM_Z3_BIN={}",
        z3_dir.join("bin").join("z3").display()
    );
    println!("cargo:rustc-env=HORNBEAM_COMMIT={}", commit());
}

/// Where the Z3 wheel lives: `$HORNBEAM_Z3_DIR`, else a per-user cache, else `OUT_DIR`.
fn z3_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HORNBEAM_Z3_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    let name = Z3_WHEEL.replace("==", "-");
    match cache {
        Some(c) => c.join("hornbeam").join(name),
        None => PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(name),
    }
}

/// Installs the z3-solver wheel (library and `z3` binary, no Python dependencies) into `dir`:
/// first into a private directory beside it, then renamed into place, so that builds running
/// at once (worktrees, CI) never see a half-installed library.
fn fetch_z3(dir: &Path) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let parent = dir.parent().unwrap_or(Path::new("."));
    if let Err(e) = std::fs::create_dir_all(parent) {
        panic!("cannot create {}: {e}", parent.display());
    }
    let tmp = parent.join(format!(".fetch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let status = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--disable-pip-version-check",
        ])
        .arg("--target")
        .arg(&tmp)
        .arg(Z3_WHEEL)
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => panic!(
            "could not fetch Z3 ({Z3_WHEEL}) into {} with `{python} -m pip`: {other:?}. \
             Install it by hand with `{python} -m pip install --no-deps --target {} {Z3_WHEEL}`, \
             or point HORNBEAM_Z3_DIR at such a directory.",
            dir.display(),
            dir.display()
        ),
    }
    if std::fs::rename(&tmp, dir).is_err() {
        // Another build got there first (or left a directory without the library).
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join("z3").join("lib").join("libz3.so").exists() {
            panic!(
                "{} exists but holds no z3/lib/libz3.so: remove it and build again",
                dir.display()
            );
        }
    }
}

/// The commit being built (`abc1234567`), or `unknown` outside a git checkout. Reruns when
/// HEAD moves (not when files change: a build from a changed tree still names its commit).
fn commit() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let mut watched = Vec::new();
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        watched.push(PathBuf::from(dir).join("HEAD"));
    }
    if let (Some(common), Some(head)) = (
        git(&["rev-parse", "--git-common-dir"]),
        git(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        watched.push(PathBuf::from(&common).join(head));
        watched.push(PathBuf::from(&common).join("packed-refs"));
    }
    // A path that does not exist would rerun this script on every build.
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".to_owned())
}
