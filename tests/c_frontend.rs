//! The C front end end to end (`hornbeam verify`) on the hand-written programs of
//! `tests/data/c/`: every `safe/` program is verified `safe` (never `unsafe`), every `unsafe/`
//! program `unsafe` with a replayed trace of its nondet values (and, for threads, its
//! schedule), every `undecided/` program `unknown` because an execution reaches undefined
//! behaviour the property leaves undecided (an invalid dereference or free under
//! unreach-call), every `error/` program fails
//! with exit status 2 at the place its first-line `// expect: LINE:COL: text` comment names,
//! and every `shape-safe/` program `safe` by the shape engine, which alone reads it (the
//! clauses refuse it: `container_of`, say).
//! A first line `// property: valid-memsafety valid-free` (the second line, after an error
//! program's `// expect:`) checks that property instead of unreach-call and, for an unsafe
//! program, that the answer names the violated sub-property.
//! Snapshots of the emitted clauses pin the encoding of a few programs.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

/// The `.c` files of `tests/data/c/<folder>`, sorted; never empty.
fn programs(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/c")
        .join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .c files in {}", dir.display());
    files
}

/// Checks one program against the folder it is in; `Err` says what went wrong.
fn check(input: &Path) -> Result<(), String> {
    let expected = input
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    let path = input.to_str().expect("UTF-8 path");
    // Without the concrete test runs, so that every answer comes from the clauses, under the
    // deterministic schedule (no time slices); unsafe programs with BMC alone (the full time for the engine that finds counterexamples).
    let mut args = vec![
        "verify",
        "--deterministic",
        "--timeout",
        "60",
        "--trace",
        path,
    ];
    // Threads created in a loop (`threads-loop-*.c`) are unsafe only by a schedule of the
    // threads: their clauses are thread-modular, whose derivations are no counterexamples.
    let loop_threads = input
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("threads-loop-"));
    if !(expected == "unsafe" && loop_threads) {
        args.push("--no-testing");
    }
    // The shape engine's proof prints its forests.
    if expected == "shape-safe" {
        args.push("--invariants");
    }
    if expected == "unsafe" && !loop_threads {
        args.extend(["--engine", "bmc"]);
    }
    // A line `// property: NAME [SUB-PROPERTY]` (first or second) checks that property (default
    // unreach-call); an unsafe program's answer then names the violated sub-property.
    let src = std::fs::read_to_string(input).map_err(|e| e.to_string())?;
    let marker: Vec<String> = src
        .lines()
        .take(2)
        .find_map(|l| l.strip_prefix("// property: "))
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    if let Some(p) = marker.first() {
        args.extend(["--property", p.as_str()]);
    }
    let out = Command::new(BIN)
        .args(&args)
        .output()
        .map_err(|e| format!("cannot run {BIN}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let first = stdout.lines().next().unwrap_or_default();
    let describe = || format!("status {}\nstdout: {stdout}\nstderr: {stderr}", out.status);
    match expected.as_str() {
        "safe" if first == "safe" => Ok(()),
        "shape-safe" if first == "safe" && stdout.contains("forest automata") => Ok(()),
        "undecided" if first == "unknown" && stderr.contains("undefined behaviour") => Ok(()),
        "unsafe" if first == "unsafe" => {
            let mut lines = stdout.lines().skip(1).peekable();
            if let Some(sub) = marker.get(1) {
                let named = lines.next().unwrap_or_default();
                if !named.starts_with(&format!("{sub}: ")) || !named.contains(path) {
                    return Err(format!(
                        "expected `{sub}: ... at {path}:L:C`\n{}",
                        describe()
                    ));
                }
            }
            // The trace lists every nondet value with its line: `line L:C: text = value`; for
            // a concurrent program, each turn of the schedule too: `thread K (f) at line L:C`.
            if lines.all(|l| {
                (l.starts_with("line ") && l.contains(" = "))
                    || (l.starts_with("thread ") && l.contains(" at line "))
            }) {
                Ok(())
            } else {
                Err(format!("malformed trace\n{}", describe()))
            }
        }
        "error" => {
            let src = std::fs::read_to_string(input).map_err(|e| e.to_string())?;
            let expect = src
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("// expect: "))
                .ok_or("the first line must be `// expect: LINE:COL: text`")?;
            let wanted = format!("{path}:{expect}");
            if out.status.code() == Some(2)
                && stdout.starts_with("(error \"")
                && stderr
                    .lines()
                    .next()
                    .is_some_and(|l| l.starts_with(&wanted))
            {
                Ok(())
            } else {
                Err(format!(
                    "expected `{wanted}` and exit status 2\n{}",
                    describe()
                ))
            }
        }
        _ => Err(format!("expected {expected}\n{}", describe())),
    }
}

fn check_folder(folder: &str) {
    let files = programs(folder);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(files.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|f| check(f).err().map(|e| format!("{}: {e}", f.display())))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn safe_programs_are_verified_safe() {
    check_folder("safe");
}

#[test]
fn programs_only_the_shape_engine_reads_are_proved_by_it() {
    check_folder("shape-safe");
}

#[test]
fn undefined_dereferences_leave_unreach_call_undecided() {
    check_folder("undecided");
}

#[test]
fn unsafe_programs_are_verified_unsafe_with_a_trace() {
    check_folder("unsafe");
}

#[test]
fn programs_outside_the_subset_are_rejected_where_the_problem_is() {
    check_folder("error");
}

fn emitted(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/c")
        .join(name);
    let out = Command::new(BIN)
        .args(["verify", "--emit-chc"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn clauses_of_the_small_refinements_example() {
    insta::assert_snapshot!(emitted("safe/sr-fig2.c"));
}

#[test]
fn clauses_of_the_formula_slicing_nested_loops() {
    insta::assert_snapshot!(emitted("safe/fs-fig3.c"));
}

#[test]
fn clauses_of_mutual_recursion() {
    insta::assert_snapshot!(emitted("unsafe/functions.c"));
}

#[test]
fn rely_guarantee_clauses_of_threads_created_in_a_loop() {
    insta::assert_snapshot!(emitted("safe/threads-loop-atomic.c"));
}

#[test]
fn clauses_of_unsigned_wrap_around() {
    insta::assert_snapshot!(emitted("unsafe/unsigned-wrap.c"));
}

#[test]
fn checked_dereferences_do_not_double_the_clauses() {
    // Twelve conditional updates through a pointer, each dereference checked by a call of a
    // helper that never returns: after such a call no path goes on, so the paths merge at
    // every join. When the call's return path was kept (with the call's atom, which a merge
    // cannot join), the clauses doubled with each update.
    let clauses = emitted("safe/many-derefs.c").matches("(assert").count();
    assert!(clauses <= 40, "{clauses} clauses for 12 updates");
}

#[test]
fn over_approximation_never_gives_unsafe() {
    for f in programs("approx") {
        let out = Command::new(BIN)
            .args(["verify", "--engine", "bmc", "--timeout", "10"])
            .arg(&f)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stdout.lines().next(),
            Some("unknown"),
            "{}: {stdout}{stderr}",
            f.display()
        );
        assert!(
            stderr.contains("does not replay"),
            "{}: {stderr}",
            f.display()
        );
    }
}

#[test]
fn concrete_exploration_finds_shallow_errors_and_never_fakes_one() {
    use hornbeam::frontend::c::{explore, read_program, DataModel};
    use std::time::{Duration, Instant};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c");
    // On a thread with a large stack, as `verify` runs the front end: programs nest up to the
    // parser's bound, more than a test thread's stack holds in a debug build.
    let find = |name: &str| {
        let src = std::fs::read_to_string(dir.join(name)).expect("test file");
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let program = read_program(&src, DataModel::Ilp32).expect("in the subset");
                let until = Instant::now() + Duration::from_secs(20);
                explore::search(&program, 64, until, &|_| 0)
            })
            .expect("thread")
            .join()
            .expect("no overflow")
    };
    for name in [
        "unsafe/counter.c",
        "unsafe/recursion.c",
        "unsafe/control.c",
        "unsafe/functions.c",
    ] {
        let found = find(name);
        assert!(
            matches!(found, Some(explore::Found::Error(_))),
            "{name}: no run reaches the error ({found:?})"
        );
    }
    // Nor does any run show the points-to sets incomplete (a dereference lowered as invalid
    // reaching an object).
    for f in programs("safe") {
        let name = format!("safe/{}", f.file_name().unwrap().to_string_lossy());
        let found = find(&name);
        assert!(found.is_none(), "{name}: {found:?}");
    }
}

#[test]
fn emitting_clauses_prints_a_horn_script() {
    let text = emitted("safe/fs-fig1.c");
    assert!(text.starts_with("(set-logic HORN)"), "{text}");
    assert!(text.contains("(check-sat)"));
}

/// The points-to relation (Andersen, over address-taken cells) of a program with pointers
/// to locals passed to callees and an `int **`: pins what the dereferences are lowered to.
#[test]
fn points_to_of_pointers_to_locals() {
    use hornbeam::frontend::c::{parse, resolve, DataModel};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c/safe/pointer-callee.c");
    let src = std::fs::read_to_string(path).expect("readable");
    let items = parse::parse_unit(&src).expect("parses");
    let (_, pts) =
        resolve::resolve_with_points_to(&items, src.len(), DataModel::Ilp32).expect("resolves");
    insta::assert_snapshot!(pts);
}

#[test]
fn threads_created_in_a_loop_are_run_then_proved_thread_modularly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c/threads-loop");
    let verify = |name: &str, extra: &[&str]| {
        let out = Command::new(BIN)
            .args(["verify", "--timeout", "10"])
            .args(extra)
            .arg(dir.join(name))
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // A schedule of the threads themselves reaches the error: unsafe, with the schedule.
    let (code, out, err) = verify("lost-update.c", &["--trace"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("unsafe\n"), "{out}{err}");
    assert!(out.contains("thread 3 (inc) at line"), "{out}");
    // No error found: the rely-guarantee clauses prove it for any number of threads, and the
    // invariants are each template's, at its lines, and the environment's.
    let (code, out, err) = verify("any-number.c", &["--deterministic", "--invariants"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("safe\n"), "{out}{err}");
    assert!(out.contains("line 7 (set): "), "{out}");
    assert!(
        out.contains("line 13 (environment: a step of any thread): "),
        "{out}"
    );
    // A thread-modular proof that is too weak (it cannot count the threads): its derivation is
    // no counterexample, so unknown with the reason, never unsafe.
    let (code, out, err) = verify("too-weak.c", &["--deterministic", "--no-testing"]);
    assert_eq!((code, out.as_str()), (Some(0), "unknown\n"), "{err}");
    assert!(
        err.contains("thread-modular (rely-guarantee) proof is too weak"),
        "{err}"
    );
    // The schedules run first and find nothing there either.
    let (code, out, err) = verify("too-weak.c", &["--deterministic"]);
    assert_eq!((code, out.as_str()), (Some(0), "unknown\n"), "{err}");
    // The clauses: an environment relation among the predicates.
    let (code, out, _) = verify("any-number.c", &["--emit-chc"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("(declare-fun env ("), "{out}");
}

#[test]
fn heap_operations_are_listed_for_engines_over_the_cfa() {
    use hornbeam::frontend::c::ir::HeapOpKind;
    use hornbeam::frontend::c::{read_program, DataModel};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c/safe/heap-dll.c");
    let src = std::fs::read_to_string(path).expect("test file");
    let p = read_program(&src, DataModel::Ilp32).expect("in the subset");
    assert_eq!(p.heap.sites.len(), 2, "one allocation site per malloc call");
    let count = |f: &dyn Fn(&HeapOpKind) -> bool| p.heap.ops.iter().filter(|o| f(&o.kind)).count();
    assert_eq!(count(&|k| matches!(k, HeapOpKind::Alloc(_))), 2);
    assert_eq!(count(&|k| matches!(k, HeapOpKind::Free(_))), 2);
    // a->next = b; a->prev = NULL; b->next = NULL; b->prev = a; and b->prev->v = 2
    assert_eq!(count(&|k| matches!(k, HeapOpKind::Store(..))), 5);
    assert!(count(&|k| matches!(k, HeapOpKind::Load(..))) >= 2);
}

/// A dereference is lowered as a case split over its pointer's points-to set, ending the run
/// quietly when no target matches; a gap in that set would make the clauses miss executions.
/// Emptying the sets after lowering (every dereference's case split made false) must make the
/// interpreter stop with `Outcome::Gap` where the address lies in an object, under
/// unreach-call (`__invalid_dereference`) and under valid-memsafety (`__memory_violation`),
/// and the concrete search must report it.
#[test]
fn a_points_to_gap_is_caught_by_the_interpreter() {
    use hornbeam::frontend::c::cfa::Op;
    use hornbeam::frontend::c::explore::{self, Found};
    use hornbeam::frontend::c::interp::Outcome;
    use hornbeam::frontend::c::ir::{IExpr, IExprKind, MemChecks};
    use hornbeam::frontend::c::{read_program_checked, verify, DataModel};
    use std::time::{Duration, Instant};

    /// Makes every case split that ends in one of `ends` take that end.
    fn empty_sets(e: &mut IExpr, ends: &[usize]) -> usize {
        let mut n = 0;
        if let IExprKind::Cond(c, _, b) = &mut e.kind {
            if matches!(&b.kind, IExprKind::Call(f, _) if ends.contains(f)) {
                c.kind = IExprKind::Const(0.into());
                n += 1;
            }
        }
        n + e
            .operands_mut()
            .into_iter()
            .map(|x| empty_sets(x, ends))
            .sum::<usize>()
    }

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c/gap");
    for (name, checks) in [
        ("deref-local.c", MemChecks::unreach_call()),
        (
            "deref-heap.c",
            hornbeam::frontend::c::property::from_name("valid-memsafety")
                .expect("a property")
                .checks(),
        ),
    ] {
        let src = std::fs::read_to_string(dir.join(name)).expect("test file");
        let mut p = read_program_checked(&src, DataModel::Ilp32, checks).expect("in the subset");
        // Unchanged, no run shows a gap.
        let until = Instant::now() + Duration::from_secs(10);
        let found = explore::search(&p, 16, until, &|_| 0);
        assert!(!matches!(found, Some(Found::Gap(_))), "{name}: {found:?}");
        let ends: Vec<usize> = p
            .invalid_fn
            .into_iter()
            .chain(p.heap.violation_fn)
            .collect();
        let mut emptied = 0;
        for f in &mut p.functions {
            for e in &mut f.cfa.edges {
                match &mut e.op {
                    Op::Expr(x) | Op::Assume(x, _) | Op::Init(_, Some(x)) => {
                        emptied += empty_sets(x, &ends)
                    }
                    _ => {}
                }
            }
        }
        assert!(emptied > 0, "{name}: no dereference found");
        let run = verify::replay(&p, &[], &|_| 0);
        assert!(
            matches!(&run.outcome, Outcome::Gap(why) if why.contains("points-to")),
            "{name}: {:?}",
            run.outcome
        );
        let until = Instant::now() + Duration::from_secs(10);
        let found = explore::search(&p, 16, until, &|_| 0);
        assert!(matches!(found, Some(Found::Gap(_))), "{name}: {found:?}");
    }
}

#[test]
fn the_shape_engine_proves_unbounded_lists_and_prints_its_forests() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/c/safe/shape-sll-reverse.c");
    let out = Command::new(BIN)
        .args([
            "verify",
            "--deterministic",
            "--timeout",
            "60",
            "--no-testing",
        ])
        .args(["--property", "valid-memsafety", "--invariants", "--stats"])
        .arg(&path)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.starts_with("safe\n"), "{stdout}{stderr}");
    assert!(stderr.contains("\"engine\":\"shape\""), "{stderr}");
    // One block per loop head (three loops), each with its forest automata.
    assert_eq!(stdout.matches("forest automata").count(), 3, "{stdout}");
    assert!(stdout.contains("struct node{next: c0.q"), "{stdout}");
    // Under unreach-call it proves the program too (it has no error call; the leaks and
    // frees do not matter there).
    let out = Command::new(BIN)
        .args([
            "verify",
            "--deterministic",
            "--timeout",
            "20",
            "--no-testing",
            "--stats",
        ])
        .arg(&path)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.starts_with("safe\n"), "{stdout}{stderr}");
    assert!(stderr.contains("\"engine\":\"shape\""), "{stderr}");
}

#[test]
fn small_arrays_at_constant_indices_become_scalars_and_no_others() {
    use hornbeam::frontend::c::{read_program, DataModel};
    let src = "extern int __VERIFIER_nondet_int(void);
        int g[2] = {1, 2};
        int h[2];
        int main() {
          int i = __VERIFIER_nondet_int();
          long long sum[1];
          int m[2][2] = {{1, 0}, {0, 1}};
          int by_variable[2], out_of_bounds[2], addressed[2], post[2], large[17];
          sum[0] = m[1][1] + g[1];
          sum[0]++;
          by_variable[i & 1] = 1;
          out_of_bounds[2] = 1;
          int *p = addressed;
          i = post[0]++;
          large[0] = 1;
          h[i & 1] = 1;
          return 0;
        }";
    let p = read_program(src, DataModel::Ilp32).expect("in the subset");
    let main = &p.functions[p.main];
    let arrays = |vars: &[hornbeam::frontend::c::ir::VarInfo]| -> Vec<String> {
        let mut out: Vec<String> = vars
            .iter()
            .filter(|v| v.is_array())
            .map(|v| v.name.clone())
            .collect();
        out.sort();
        out
    };
    assert_eq!(
        arrays(&main.locals),
        ["by_variable", "large", "out_of_bounds", "post"],
        "{:?}",
        main.locals
    );
    // An address-taken local is a global (`resolve/lower.rs`), and stays an array.
    assert_eq!(arrays(&p.globals), ["h", "main.addressed"]);
    let names: Vec<&str> = main.locals.iter().map(|v| v.name.as_str()).collect();
    for scalar in ["sum[0]", "m[0][0]", "m[0][1]", "m[1][0]", "m[1][1]"] {
        assert!(names.contains(&scalar), "{scalar} in {names:?}");
    }
    let globals: Vec<&str> = p.globals.iter().map(|v| v.name.as_str()).collect();
    assert!(
        globals.contains(&"g[0]") && globals.contains(&"g[1]"),
        "{globals:?}"
    );
    let g1 = globals.iter().position(|&n| n == "g[1]").unwrap();
    assert_eq!(p.global_init[g1], 2.into());
}
