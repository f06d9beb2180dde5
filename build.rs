//! Build script: compiles the lalrpop grammars in `grammar/` and makes sure the Z3 shared
//! library is present.
//!
//! Z3 comes with the build. The `z3-sys` crate links against `libz3.so` found through
//! `Z3_LIBRARY_PATH_OVERRIDE` (set in `.cargo/config.toml` to `.z3/z3/lib`); this script
//! fills `.z3/` from the PyPI package `z3-solver` when it is missing, and adds an rpath so
//! that binaries and tests find the library at run time without `LD_LIBRARY_PATH`.

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
    println!("cargo:rerun-if-env-changed=HORNBEAM_Z3_DIR");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let z3_dir = std::env::var("HORNBEAM_Z3_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| manifest.join(".z3"));
    let lib_dir = z3_dir.join("z3").join("lib");
    if !lib_dir.join("libz3.so").exists() {
        fetch_z3(&z3_dir);
    }
    let lib_dir = lib_dir.canonicalize().unwrap_or(lib_dir);
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    println!(
        "cargo:rerun-if-changed={}",
        lib_dir.join("libz3.so").display()
    );
}

/// Installs the z3-solver wheel (library and `z3` binary, no Python dependencies) into `dir`.
fn fetch_z3(dir: &Path) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
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
        .arg(dir)
        .arg(Z3_WHEEL)
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => panic!(
            "could not fetch Z3 ({Z3_WHEEL}) into {} with `{python} -m pip`: {other:?}. \
             Install it by hand with `{python} -m pip install --no-deps --target {} {Z3_WHEEL}`.",
            dir.display(),
            dir.display()
        ),
    }
}
