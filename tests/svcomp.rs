//! SV-COMP conventions of `hornbeam verify` on the files of `tests/data/svcomp/` and
//! `tests/data/c/`: property files and names (`properties/accepted/` are verified,
//! `properties/refused/` fail with exit status 2 at the place their `NAME.expect` sidecar
//! names), data models (`data-model/` programs whose first line says the answer under each),
//! and witness files: every one passes the structure check of the YAML format 2.0
//! (`witness_check.rs`, written from the format's documentation), every violation witness read
//! back with the library's reader replays to its target in the interpreter, and snapshots pin
//! one witness of each kind (with the UUID, time, version and hash redacted).

#[path = "common/witness_check.rs"]
mod witness_check;

use hornbeam::frontend::c::{interp, read_program, verify, witness, DataModel};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

fn data(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder)
}

/// The files of a data folder with an extension, sorted; never empty.
fn files(folder: &str, ext: &str) -> Vec<PathBuf> {
    let dir = data(folder);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} files in {}", dir.display());
    out
}

/// `hornbeam verify --deterministic ARGS...` run in `dir` (answers that do not depend on the
/// machine's load).
fn verify(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(["verify", "--deterministic"])
        .args(args)
        .output()
        .expect("runs")
}

fn describe(out: &Output) -> String {
    format!(
        "status {}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn first_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A scratch file name unique to this test process and call.
fn scratch(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hornbeam-svcomp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir.join(format!("{k}-{name}"))
}

/// The program every property test verifies: safe under ILP32 and quick.
const SAFE: &str = "tests/data/c/safe/count-to-constant.c";

#[test]
fn unreach_call_property_files_and_name_are_accepted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut props: Vec<String> = files("svcomp/properties/accepted", "prp")
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    props.push("unreach-call".to_owned());
    for prop in props {
        let out = verify(root, &["--property", &prop, "--engine", "pdr", SAFE]);
        assert_eq!(first_line(&out), "safe", "{prop}: {}", describe(&out));
    }
}

#[test]
fn other_property_files_are_refused_where_the_text_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for prp in files("svcomp/properties/refused", "prp") {
        let expect = std::fs::read_to_string(prp.with_extension("expect"))
            .unwrap_or_else(|e| panic!("{}: no .expect: {e}", prp.display()));
        let (place, text) = expect.trim().split_once(' ').expect("LINE:COL text");
        let path = prp.display().to_string();
        let out = verify(root, &["--property", &path, SAFE]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            out.status.code() == Some(2)
                && first.starts_with(&format!("{path}:{place}: "))
                && first.contains(text)
                && first.contains("unreach-call")
                && out.stdout.starts_with(b"(error \""),
            "{path}: expected `{place}: ...{text}...`\n{}",
            describe(&out)
        );
    }
}

#[test]
fn other_property_names_and_missing_files_are_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "no-overflow",
        "termination",
        "no-data-race",
        "def-behavior",
        "reach",
    ] {
        let out = verify(root, &["--property", name, SAFE]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(2)
                && stderr.contains(name)
                && stderr.contains("unreach-call"),
            "{name}: {}",
            describe(&out)
        );
    }
    let out = verify(root, &["--property", "missing.prp", SAFE]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        out.stderr.starts_with(b"missing.prp:1:1: "),
        "{}",
        describe(&out)
    );
}

#[test]
fn answers_follow_the_data_model() {
    let dir = data("svcomp");
    for prog in files("svcomp/data-model", "c") {
        let src = std::fs::read_to_string(&prog).expect("readable");
        let header = src.lines().next().unwrap_or_default();
        let expect = header
            .strip_prefix("// expect: ")
            .unwrap_or_else(|| panic!("{}: first line `// expect: ...`", prog.display()));
        let path = prog.display().to_string();
        for part in expect.split(", ") {
            let (model, answer) = part.split_once(' ').expect("MODEL answer");
            let mut args = vec!["--no-testing", "--timeout", "60", "--data-model", model];
            if answer == "unsafe" {
                args.extend(["--engine", "bmc"]);
            }
            args.push(&path);
            let out = verify(&dir, &args);
            assert_eq!(
                first_line(&out),
                answer,
                "{path} {model}: {}",
                describe(&out)
            );
            if model == "ILP32" {
                // ILP32 is the default.
                args.retain(|a| *a != "--data-model" && *a != "ILP32");
                let out = verify(&dir, &args);
                assert_eq!(
                    first_line(&out),
                    answer,
                    "{path} default: {}",
                    describe(&out)
                );
            }
        }
    }
}

/// Verifies `program` (relative to `dir`) with a witness; returns the witness text.
fn witness_of(dir: &Path, program: &str, extra: &[&str], expected: &str) -> String {
    let file = scratch(&format!("{}.yml", program.replace('/', "_")));
    let file_arg = file.display().to_string();
    let mut args = vec!["--timeout", "60", "--no-testing", "--witness", &file_arg];
    args.extend(extra);
    args.push(program);
    let out = verify(dir, &args);
    assert_eq!(first_line(&out), expected, "{program}: {}", describe(&out));
    let text =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{program}: no witness: {e}"));
    let _ = std::fs::remove_file(&file);
    text
}

/// Replays a violation witness of `program` (relative to `dir`) in the interpreter.
fn replay(dir: &Path, program: &str, model: DataModel, yaml: &str) -> Result<(), String> {
    let src = std::fs::read_to_string(dir.join(program)).map_err(|e| e.to_string())?;
    let p = read_program(&src, model).map_err(|e| e.message)?;
    let v = witness::read_violation(yaml, &p, &src)?;
    let run = verify::replay(&p, &v.values, &|_| 0);
    if run.outcome != interp::Outcome::Error {
        return Err(format!("the replay ends with {:?}", run.outcome));
    }
    // Every value of the witness was used, and the error is where the target says.
    if run.consumed.len() < v.values.len() {
        return Err("the replay does not use every value".to_owned());
    }
    let at = run
        .error_at
        .map(|s| hornbeam::syntax::parse::line_col(&src, s.start));
    if at != Some(v.target) {
        return Err(format!(
            "the error is at {at:?}, the target at {:?}",
            v.target
        ));
    }
    Ok(())
}

#[test]
fn violation_witnesses_are_well_formed_and_replay_to_the_error() {
    let dir = data("c");
    // Concurrent programs have no violation witness (the format has no threads).
    let concurrent = |p: &PathBuf| {
        let src = std::fs::read_to_string(p).expect("test file");
        read_program(&src, DataModel::Ilp32)
            .is_ok_and(|prog| hornbeam::frontend::c::threads::is_concurrent(&prog))
    };
    // Programs unsafe under a memory property (a first line `// property: ...`) are unsafe
    // under that property only; their witnesses are not checked here.
    let unreach_call = |p: &PathBuf| {
        !std::fs::read_to_string(p)
            .unwrap_or_default()
            .starts_with("// property: ")
    };
    for p in files("c/unsafe", "c").into_iter().filter(concurrent) {
        let name = format!("unsafe/{}", p.file_name().unwrap().to_string_lossy());
        let file = scratch(&format!("{}.yml", name.replace('/', "_")));
        let file_arg = file.display().to_string();
        let out = verify(&dir, &["--timeout", "60", "--witness", &file_arg, &name]);
        assert_eq!(first_line(&out), "unsafe", "{name}: {}", describe(&out));
        assert!(!file.exists(), "{name}: a witness was written");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("concurrent programs are not supported"),
            "{name}: {}",
            describe(&out)
        );
    }
    let mut programs: Vec<(PathBuf, String, DataModel)> = files("c/unsafe", "c")
        .into_iter()
        .filter(|p| unreach_call(p) && !concurrent(p))
        .map(|p| {
            let name = format!("unsafe/{}", p.file_name().unwrap().to_string_lossy());
            (dir.clone(), name, DataModel::Ilp32)
        })
        .collect();
    programs.push((
        data("svcomp"),
        "data-model/long-range.c".into(),
        DataModel::Lp64,
    ));
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = programs
            .chunks(programs.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    let mut failures = vec![];
                    for (dir, name, model) in chunk {
                        let extra = ["--engine", "bmc", "--data-model", model.name()];
                        let yaml = witness_of(dir, name, &extra, "unsafe");
                        let checked = witness_check::check(&yaml, "violation_sequence")
                            .and_then(|()| replay(dir, name, *model, &yaml));
                        if let Err(e) = checked {
                            failures.push(format!("{name}: {e}\n{yaml}"));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn correctness_witnesses_are_well_formed_with_invariants_at_loop_keywords() {
    let dir = data("c");
    for name in [
        "safe/count-to-constant.c",
        "safe/fs-fig1.c",
        "safe/sr-fig2.c",
        "safe/static-locals.c",
        "safe/functions.c",
    ] {
        let yaml = witness_of(&dir, name, &[], "safe");
        if let Err(e) = witness_check::check(&yaml, "invariant_set") {
            panic!("{name}: {e}\n{yaml}");
        }
        // Each loop invariant is at the first character of `for`, `while` or `do`.
        let src = std::fs::read_to_string(dir.join(name)).expect("readable");
        let lines: Vec<&str> = src.lines().collect();
        for (line, column) in witness_check::invariant_locations(&yaml) {
            let text: String = lines[line - 1].chars().skip(column - 1).collect();
            assert!(
                ["for", "while", "do"].iter().any(|k| text.starts_with(k)),
                "{name}:{line}:{column} is not a loop keyword: {text}\n{yaml}"
            );
        }
        // A program without loops states `1` at `main`'s first statement (the format asks
        // for at least one invariant).
        let at = witness_check::invariants_of_type(&yaml, "location_invariant");
        match name {
            "safe/static-locals.c" => assert_eq!(at, [(7, 3)], "{yaml}"),
            "safe/functions.c" => assert_eq!(at, [(8, 3)], "{yaml}"),
            _ => assert!(at.is_empty(), "{name}: {yaml}"),
        }
    }
}

#[test]
fn no_witness_after_unknown() {
    let dir = data("c");
    let file = scratch("unknown.yml");
    let file_arg = file.display().to_string();
    let args = ["--engine", "bmc", "--timeout", "10", "--witness", &file_arg];
    let out = verify(&dir, &[&args[..], &["approx/bits-variable.c"]].concat());
    assert_eq!(first_line(&out), "unknown", "{}", describe(&out));
    assert!(!file.exists(), "a witness after unknown");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no witness written"), "{stderr}");
}

/// The witness with the values that change from run to run replaced.
fn redacted(yaml: &str) -> String {
    let mut out = String::new();
    for line in yaml.lines() {
        let key = line.trim_start().split(':').next().unwrap_or_default();
        let indent = &line[..line.len() - line.trim_start().len()];
        match key {
            "uuid" | "creation_time" | "version" => {
                out.push_str(&format!("{indent}{key}: '[{key}]'\n"));
            }
            k if k.ends_with(".c") && line.contains(':') && !k.starts_with('-') => {
                out.push_str(&format!("{indent}{k}: '[sha256]'\n"))
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn correctness_witness_of_a_counter() {
    let yaml = witness_of(
        &data("c"),
        "safe/count-to-constant.c",
        &["--engine", "pdr"],
        "safe",
    );
    insta::assert_snapshot!(redacted(&yaml));
}

#[test]
fn violation_witness_of_nondet_values_of_several_kinds() {
    let yaml = witness_of(
        &data("c"),
        "unsafe/nondet-types.c",
        &["--engine", "bmc"],
        "unsafe",
    );
    insta::assert_snapshot!(redacted(&yaml));
}

/// The public SV-COMP sample (`../shared/svcomp/public`, not part of the repository): every
/// answer agrees with the expected verdict, every witness is well-formed, and every violation
/// witness replays to its target. Slow (a few minutes): run it with
/// `cargo test --release --test svcomp -- --ignored`.
#[test]
#[ignore]
fn public_svcomp_tasks_give_well_formed_witnesses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/svcomp/public");
    let Ok(table) = std::fs::read_to_string(dir.join("expected.tsv")) else {
        eprintln!("{} is not there: nothing to do", dir.display());
        return;
    };
    let tasks: Vec<(String, String)> = table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.to_owned(), f.nth(1)?.to_owned()))
        })
        .collect();
    let results: Vec<(String, String, Result<(), String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = tasks
            .chunks(tasks.len().div_ceil(2))
            .map(|chunk| {
                let dir = &dir;
                s.spawn(move || {
                    let mut out = vec![];
                    for (name, expected) in chunk {
                        let file = scratch(&format!("{name}.yml"));
                        let file_arg = file.display().to_string();
                        let o = verify(dir, &["--timeout", "5", "--witness", &file_arg, name]);
                        let answer = first_line(&o);
                        let yaml = std::fs::read_to_string(&file).ok();
                        let _ = std::fs::remove_file(&file);
                        if let Some(y) = &yaml {
                            let n = y.matches("type: loop_invariant").count();
                            let w = y.matches("waypoint:").count();
                            eprintln!("{name}: {answer}, {n} invariants, {w} waypoints");
                        }
                        let checked = match (answer.as_str(), &yaml) {
                            ("safe", Some(y)) => witness_check::check(y, "invariant_set"),
                            ("unsafe", Some(y)) => witness_check::check(y, "violation_sequence")
                                .and_then(|()| replay(dir, name, DataModel::Ilp32, y)),
                            ("unknown", None) => Ok(()),
                            (a, _) if a != "unknown" && a != "safe" && a != "unsafe" => Ok(()),
                            (a, w) => Err(format!("{a} with witness {}", w.is_some())),
                        };
                        let checked =
                            if (answer == "safe" || answer == "unsafe") && answer != *expected {
                                Err(format!("WRONG: {answer}, expected {expected}"))
                            } else {
                                checked
                            };
                        out.push((name.clone(), answer, checked));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let count = |a: &str| results.iter().filter(|r| r.1 == a).count();
    eprintln!(
        "{} tasks: {} safe, {} unsafe, {} unknown, {} other (errors: outside the subset)",
        results.len(),
        count("safe"),
        count("unsafe"),
        count("unknown"),
        results.len() - count("safe") - count("unsafe") - count("unknown")
    );
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(n, _, r)| r.as_ref().err().map(|e| format!("{n}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
