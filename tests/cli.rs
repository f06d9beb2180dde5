//! End-to-end tests of the `hornbeam` binary on the hand-written corpus in `tests/data/`:
//! every `unsat/` file is refuted by BMC with a printed derivation, no `sat/` file is ever
//! answered `unsat` (and each prints), and every `error/` file fails with exit status 2, an
//! `(error "...")` line on stdout and `PATH:LINE:COL:` on stderr at the place its `.expect`
//! sidecar names (see `tests/data/README.md`).

mod common;

use common::{corpus, data_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

fn hornbeam(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Describes a run for a failure message.
fn describe(args: &[&str], out: &Output) -> String {
    format!(
        "hornbeam {}\n  status: {}\n  stdout: {}\n  stderr: {}",
        args.join(" "),
        out.status,
        text(&out.stdout).trim_end().replace('\n', "\n          "),
        text(&out.stderr).trim_end().replace('\n', "\n          "),
    )
}

/// Runs `check` on every file, a few at a time (the solver runs are slow but single-threaded),
/// and fails with the list of all files that failed.
fn check_all(files: &[PathBuf], check: fn(&Path) -> Result<(), String>) {
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(file) = files.get(i) else { break };
                if let Err(why) = check(file) {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{}: {why}", file.display()));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("corpus paths are UTF-8")
}

/// `solve --engine bmc` answers `unsat` and prints a non-empty derivation ending in `false`.
fn check_unsat(path: &Path) -> Result<(), String> {
    let args = [
        "solve",
        "--engine",
        "bmc",
        "--timeout",
        "20",
        "--cex",
        path_str(path),
    ];
    let out = hornbeam(&args);
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    if !out.status.success() || lines.next() != Some("unsat") {
        return Err(format!("expected `unsat`\n{}", describe(&args, &out)));
    }
    let rest: Vec<&str> = lines.collect();
    let steps: Vec<&&str> = rest
        .iter()
        .filter(|l| l.trim_start().starts_with("(step "))
        .collect();
    let well_formed = rest.first() == Some(&"(derivation")
        && rest.last() == Some(&")")
        && !steps.is_empty()
        && steps.last().is_some_and(|l| l.contains(" false (clause "));
    if !well_formed {
        return Err(format!(
            "expected a derivation ending in `false`\n{}",
            describe(&args, &out)
        ));
    }
    Ok(())
}

/// `solve` never answers `unsat` (`sat` or `unknown` only), and `print` succeeds.
fn check_sat(path: &Path) -> Result<(), String> {
    let args = ["solve", "--timeout", "5", path_str(path)];
    let out = hornbeam(&args);
    let stdout = text(&out.stdout);
    let first = stdout.lines().next();
    if !out.status.success() || !matches!(first, Some("sat" | "unknown")) {
        return Err(format!(
            "expected `sat` or `unknown`\n{}",
            describe(&args, &out)
        ));
    }
    let args = ["print", path_str(path)];
    let out = hornbeam(&args);
    let stdout = text(&out.stdout);
    if !out.status.success()
        || !out.stderr.is_empty()
        || !stdout.starts_with("(set-logic HORN)\n")
        || !stdout.ends_with("(check-sat)\n")
    {
        return Err(format!("`print` failed\n{}", describe(&args, &out)));
    }
    Ok(())
}

/// What an error file must produce: `LINE:COL` and a piece of the message.
fn expectation(path: &Path) -> Result<(String, String), String> {
    let sidecar = path.with_extension("expect");
    let raw = std::fs::read_to_string(&sidecar)
        .map_err(|e| format!("cannot read {}: {e}", sidecar.display()))?;
    let line = raw.lines().next().unwrap_or_default();
    let (loc, needle) = line.split_once(' ').unwrap_or((line, ""));
    let ok = loc
        .split_once(':')
        .is_some_and(|(l, c)| l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok());
    if !ok {
        return Err(format!(
            "{}: expected `LINE:COL text`, found {line:?}",
            sidecar.display()
        ));
    }
    Ok((loc.to_string(), needle.trim().to_string()))
}

/// Every subcommand that reads the file fails on it with status 2, `(error "...")` on stdout
/// and `PATH:LINE:COL: message` on stderr.
fn check_error(path: &Path) -> Result<(), String> {
    let (loc, needle) = expectation(path)?;
    let p = path_str(path);
    let prefix = format!("{p}:{loc}: ");
    for args in [
        vec!["print", p],
        vec!["solve", "--timeout", "5", p],
        vec!["check", p, p],
    ] {
        let out = hornbeam(&args);
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        let first_err = stderr.lines().next().unwrap_or_default();
        let problems = [
            (out.status.code() != Some(2), "exit status 2".to_string()),
            (
                !stdout.starts_with("(error \"") || !stdout.ends_with("\")\n"),
                "stdout `(error \"...\")`".to_string(),
            ),
            (
                !first_err.starts_with(&prefix),
                format!("stderr starting with `{prefix}`"),
            ),
            (
                !first_err.contains(&needle),
                format!("a message containing `{needle}`"),
            ),
        ];
        let missing: Vec<&str> = problems
            .iter()
            .filter(|(bad, _)| *bad)
            .map(|(_, w)| w.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "expected {}\n{}",
                missing.join(", "),
                describe(&args, &out)
            ));
        }
    }
    Ok(())
}

#[test]
fn unsat_files_are_refuted_by_bmc() {
    check_all(&corpus("unsat"), check_unsat);
}

#[test]
fn sat_files_are_never_refuted() {
    check_all(&corpus("sat"), check_sat);
}

#[test]
fn error_files_fail_at_the_expected_place() {
    check_all(&corpus("error"), check_error);
}

/// Every error file has an expectation and every expectation a file; the corpus covers the
/// error kinds it is meant to.
#[test]
fn error_corpus_is_complete() {
    let dir = data_dir("error");
    let stems = |ext: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&dir)
            .expect("error corpus")
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let smt2 = stems("smt2");
    let expect = stems("expect");
    assert_eq!(
        smt2, expect,
        "every error/NAME.smt2 needs error/NAME.expect and vice versa"
    );
    assert!(smt2.len() >= 15, "only {} error files", smt2.len());
    let empty = std::fs::read(dir.join("empty.smt2")).expect("empty.smt2");
    assert!(empty.is_empty(), "empty.smt2 must stay empty");
    let garbage = std::fs::read(dir.join("binary_garbage.smt2")).expect("binary_garbage.smt2");
    assert!(
        String::from_utf8(garbage).is_err(),
        "binary_garbage.smt2 must not be UTF-8"
    );
}

/// `print --preprocessed --split-bools` shows the system the portfolio's invariant engines see:
/// `bool_ite`'s flag `b` becomes two predicates, and the printed system solves to `sat` again.
#[test]
fn print_shows_the_split_system() {
    let path = data_dir("sat").join("bool_ite.smt2");
    let args = [
        "print",
        path.to_str().expect("UTF-8 path"),
        "--preprocessed",
        "--split-bools",
    ];
    let out = hornbeam(&args);
    assert!(out.status.success(), "{}", describe(&args, &out));
    let printed = text(&out.stdout);
    insta::assert_snapshot!("print_split_bools", printed);
    let dir = std::env::temp_dir().join(format!("hornbeam-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("split.smt2");
    std::fs::write(&file, &printed).expect("write the printed system");
    let solve = [
        "solve",
        "--deterministic",
        file.to_str().expect("UTF-8 path"),
    ];
    let out = hornbeam(&solve);
    assert_eq!(
        text(&out.stdout).trim(),
        "sat",
        "{}",
        describe(&solve, &out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check FILE CEX` reads a derivation as `solve --cex` prints it (after `unsat`): `valid`
/// (exit 0); a step changed so that its clause's constraint fails, `invalid` at its line
/// (exit 1).
#[test]
fn check_replays_a_printed_derivation() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/chc/counter-unsafe.smt2");
    let file = file.to_str().expect("UTF-8 path");
    let out = hornbeam(&["solve", file, "--cex"]);
    let cex = text(&out.stdout);
    assert!(cex.starts_with("unsat\n(derivation"), "{cex}");
    let dir = std::env::temp_dir().join(format!("hornbeam-cex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("cex.txt");
    let check = |cex: &str| {
        std::fs::write(&path, cex).expect("write");
        hornbeam(&["check", file, path.to_str().expect("UTF-8 path")])
    };
    let out = check(&cex);
    assert_eq!(
        (text(&out.stdout).as_str(), out.status.code()),
        ("valid\n", Some(0))
    );
    // Step 2 claims a counter value that one step from step 1's cannot reach.
    let forged = cex.replacen("(inv 4)", "(inv 5)", 1);
    assert_ne!(forged, cex);
    let out = check(&forged);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("invalid\n")
            && text(&out.stdout).contains("cex.txt:5: step 2: the clause constraint is false"),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
