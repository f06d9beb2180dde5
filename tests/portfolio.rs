//! The portfolio (`solve` with the default `--engine auto`, on its deterministic schedule: work
//! bounds, not time slices, so that answers do not depend on load) on the `sat/` and `unsat/`
//! corpora: it never contradicts a file's folder, every counterexample of `unsat/` (fewer than
//! 15 steps) is found, `--stats` names the member that answered and lists the phases run in
//! schedule order (slicing first, or BMC then PDR on systems over the reals), the candidates
//! from sampled states prove a quadratic invariant, and two runs answer alike. `--engine a,b,...`
//! runs exactly the engines listed, in that order, sequentially and on two threads.

mod common;

use std::process::Command;

/// Runs `solve --stats` with the default engine; returns the first stdout line and the stats.
fn solve_auto(path: &std::path::Path) -> (String, serde_json::Value) {
    solve_with(path, &[])
}

/// Runs `solve --stats --deterministic EXTRA...`; returns the first stdout line and the stats.
fn solve_with(path: &std::path::Path, extra: &[&str]) -> (String, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(["solve", "--timeout", "10", "--stats", "--deterministic"])
        .args(extra)
        .arg(path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stats = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| panic!("no stats in {stderr}"));
    (stdout.lines().next().unwrap_or("").to_string(), stats)
}

/// The names of the phases a schedule ran, in order.
fn phase_names(phases: &serde_json::Value) -> Vec<String> {
    phases
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_object()?.keys().next().cloned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_list_of_engines_runs_those_engines_in_order() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    // Invariant engines cannot refute: CEGAR, last, answers, after slicing and the samples.
    let (answer, stats) = solve_with(
        &data.join("unsat/counter_off_by_one.smt2"),
        &["--engine", "slicing,samples,cegar"],
    );
    assert_eq!(answer, "unsat", "{stats}");
    assert_eq!(stats["engine"], "cegar", "{stats}");
    let names = phase_names(&stats["engine_stats"]["phases"]);
    assert_eq!(names, ["slicing", "samples", "cegar"], "{stats}");
    // The first validated answer wins: BMC never proves safety, PDR does.
    let (answer, stats) = solve_with(&data.join("sat/counter.smt2"), &["--engine", "bmc,pdr"]);
    assert_eq!(answer, "sat", "{stats}");
    assert_eq!(stats["engine"], "pdr", "{stats}");
    let names = phase_names(&stats["engine_stats"]["phases"]);
    assert_eq!(names, ["bmc", "pdr"], "{stats}");
    // On two threads the list alternates between them; only the listed engines run.
    let (answer, stats) = solve_with(
        &data.join("sat/counter.smt2"),
        &["--engine", "bmc,pdr", "--threads", "2"],
    );
    assert_eq!(answer, "sat", "{stats}");
    let threads = stats["engine_stats"]["threads"]
        .as_array()
        .expect("threads");
    assert_eq!(threads.len(), 2, "{stats}");
    // A thread stopped before its entry began (the other answered first, as can happen on a
    // loaded machine) ran none.
    let mut ran = 0;
    for t in threads.iter().filter(|t| !t.is_null()) {
        let names = phase_names(&t["stats"]["phases"]);
        assert!(names.len() <= 1, "{stats}");
        assert!(names.iter().all(|n| ["bmc", "pdr"].contains(&n.as_str())));
        ran += names.len();
    }
    assert!(ran >= 1, "{stats}");
    // One engine runs alone, with its own counters and no phases.
    let (_, stats) = solve_with(&data.join("sat/counter.smt2"), &["--engine", "bmc"]);
    assert!(stats["engine_stats"]["phases"].is_null(), "{stats}");
    assert!(stats["engine_stats"]["smt_checks"].is_u64(), "{stats}");
}

#[test]
fn engine_lists_are_checked_against_the_names() {
    for bad in ["spacer", "bmc,,pdr", "bmc,auto", ""] {
        let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
            .args(["solve", "--engine", bad, "examples/chc/counter-unsafe.smt2"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "--engine {bad:?}: {out:?}");
    }
    for cmd in ["verify", "batch"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
            .args([cmd, "--engine", "bmc,nope", "tests/data/c/safe"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{cmd}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("unknown engine `nope`"), "{cmd}: {stderr}");
    }
}

/// The check: the answer agrees with `folder`, the answering engine can give that answer, and
/// the phases start with slicing (or, over the reals, where PDR goes first, with PDR: BMC's probe
/// before it does not run under `--deterministic`).
fn check(folder: &str, must_answer: bool) {
    for path in common::corpus(folder) {
        let (answer, stats) = solve_auto(&path);
        let engine = stats["engine"].as_str().unwrap_or("");
        let phases = stats["engine_stats"]["phases"]
            .as_array()
            .unwrap_or_else(|| panic!("{}: no phases in {stats}", path.display()));
        let names: Vec<&str> = phases
            .iter()
            .filter_map(|p| p.as_object()?.keys().next().map(String::as_str))
            .collect();
        let in_order = names[0] == "slicing" || names[0] == "pdr";
        assert!(in_order, "{}: phases {names:?}", path.display());
        match answer.as_str() {
            "unknown" => {
                assert!(!must_answer, "{}: unknown, {stats}", path.display());
                assert_eq!(engine, "portfolio", "{}", path.display());
            }
            a => {
                assert_eq!(a, folder, "{}: {stats}", path.display());
                let can = match a {
                    "sat" => ["slicing", "samples", "cegar", "pdr"].contains(&engine),
                    _ => ["bmc", "cegar", "pdr"].contains(&engine),
                };
                assert!(can, "{}: {a} from {engine}", path.display());
                let last = phases[phases.len() - 1].as_object().expect("phase");
                assert_eq!(last.keys().next().map(String::as_str), Some(engine));
            }
        }
    }
}

#[test]
fn the_portfolio_never_contradicts_a_safe_file() {
    check("sat", false);
}

#[test]
fn the_portfolio_finds_every_short_counterexample() {
    check("unsat", true);
}

#[test]
fn sampled_states_give_the_quadratic_invariant() {
    // odd_squares.smt2 needs s = k * k: no interpolant of CEGAR's and no slicing lemma says it.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sat/odd_squares.smt2");
    let (answer, stats) = solve_auto(&path);
    assert_eq!(answer, "sat", "{stats}");
    assert_eq!(stats["engine"], "samples", "{stats}");
}

#[test]
fn sampled_states_give_the_shape_invariant() {
    // rotate_singleton.smt2 needs `is-cons l ∧ is-nil (tl l) → r = l`: a fact about the shape
    // of a list that only the samples' shape candidates state.
    let path = common::data_dir("sat").join("rotate_singleton.smt2");
    let (answer, stats) = solve_auto(&path);
    assert_eq!(answer, "sat", "{stats}");
    assert_eq!(stats["engine"], "samples", "{stats}");
}

#[test]
fn sampled_states_give_boolean_equalities() {
    // bool_lockstep.smt2 needs `p = q` over B's two Boolean arguments: the samples propose
    // equalities between Boolean columns, not only constant ones.
    let path = common::data_dir("sat").join("bool_lockstep.smt2");
    let (answer, stats) = solve_with(&path, &["--engine", "samples"]);
    assert_eq!(answer, "sat", "{stats}");
}

#[test]
fn the_deterministic_schedule_answers_alike_twice() {
    for folder in ["sat", "unsat"] {
        for file in common::corpus(folder) {
            let (a, s) = solve_auto(&file);
            let (b, t) = solve_auto(&file);
            assert_eq!(a, b, "{}", file.display());
            assert_eq!(s["engine"], t["engine"], "{}", file.display());
        }
    }
}

/// `solve --threads N` for 2, 4 and 8: the schedule split over threads (time slices, not the
/// deterministic schedule), so only what cannot depend on timing is checked: no answer
/// contradicts a file's folder, and each thread's stats are there (seven at most: the
/// schedule has work for seven).
#[test]
fn split_schedules_never_contradict_a_file() {
    for threads in [2, 4, 8] {
        split_schedule_never_contradicts_a_file(threads);
    }
}

fn split_schedule_never_contradicts_a_file(n: usize) {
    let arg = n.to_string();
    for (folder, wrong) in [("sat", "unsat"), ("unsat", "sat")] {
        for file in common::corpus(folder) {
            let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
                .args(["solve", "--timeout", "10", "--stats", "--threads", &arg])
                .arg(&file)
                .output()
                .expect("runs");
            assert_eq!(out.status.code(), Some(0), "{out:?}");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_ne!(stdout.lines().next(), Some(wrong), "{}", file.display());
            let stderr = String::from_utf8_lossy(&out.stderr);
            // A thread stopped by the other's answer must not report a panic (a Z3 call it
            // was in fails; that is handled, not a crash).
            assert!(!stderr.contains("panicked"), "{}: {stderr}", file.display());
            let stats: serde_json::Value = stderr
                .lines()
                .rev()
                .find(|l| l.starts_with('{'))
                .and_then(|l| serde_json::from_str(l).ok())
                .unwrap_or_else(|| panic!("no stats in {stderr}"));
            // At the time limit the process answers without waiting for the threads (no
            // engine stats): on a loaded machine that says nothing about them.
            if stats["reason_kind"] == "timeout" && stats.get("engine_stats").is_none() {
                continue;
            }
            let threads = stats["engine_stats"]["threads"]
                .as_array()
                .unwrap_or_else(|| panic!("{}: no threads in {stats}", file.display()));
            assert_eq!(threads.len(), n.min(7), "{stats}");
        }
    }
}

/// The caller's flag ends every engine: set before the solve starts, no engine alone and no
/// portfolio (on one thread or two) answers anything but `unknown`, on files every one of them
/// answers at once otherwise (the flag is read through the deadline, so an engine that only
/// looks at its deadline stops too).
#[test]
fn a_set_cancel_flag_stops_every_engine() {
    use hornbeam::clock::Cancel;
    use hornbeam::engine::driver::{solve, SolveOptions};
    use hornbeam::engine::schedule::{EngineKind, Selection};
    use hornbeam::witness::Answer;
    let mut selections: Vec<(Selection, usize)> = EngineKind::ALL
        .into_iter()
        .map(|k| (Selection::only(k), 1))
        .collect();
    selections.push((Selection::Auto, 1));
    selections.push((Selection::Auto, 2));
    for file in ["sat/counter.smt2", "unsat/two_loops.smt2"] {
        let path = common::data_dir("").join(file);
        let src = std::fs::read_to_string(&path).expect("readable");
        let store = hornbeam::term::TermStore::new();
        let system = hornbeam::syntax::read_system(&store, &src).expect("parses");
        for (engine, threads) in &selections {
            let cancel = Cancel::new();
            cancel.cancel();
            let options = SolveOptions {
                engine: engine.clone(),
                threads: *threads,
                cancel,
                ..SolveOptions::default()
            };
            let solved = solve(&store, &system, &options);
            assert!(
                matches!(solved.answer, Answer::Unknown(_)),
                "{file}, {engine} on {threads} thread(s): {:?}",
                solved.answer
            );
        }
    }
}

/// A model found on a thread of a two-thread solve validates: `term_head_args` once lost 3 of
/// 30 two-thread runs to a witness failure, when the caller's own Z3 context, interrupted by
/// the thread that answered, then rejected the (correct) model. (Each thread now validates its
/// own answer before any interrupt.)
#[test]
fn a_model_from_another_thread_validates() {
    use hornbeam::engine::driver::{solve, SolveOptions};
    use hornbeam::witness::Answer;
    let path = common::data_dir("sat").join("term_head_args.smt2");
    let src = std::fs::read_to_string(&path).expect("readable");
    for (engine, runs) in [("bmc,pdr", 30), ("auto", 10)] {
        for _ in 0..runs {
            let store = hornbeam::term::TermStore::new();
            let system = hornbeam::syntax::read_system(&store, &src).expect("parses");
            let options = SolveOptions {
                engine: engine.parse().expect("an engine list"),
                threads: 2,
                ..SolveOptions::default()
            };
            let answer = solve(&store, &system, &options).answer;
            assert!(
                !matches!(&answer, Answer::Unknown(r) if r.witness_failed()),
                "{engine}: {answer:?}"
            );
        }
    }
}

/// A wrong witness on a two-thread solve is caught by the thread that made it and counted as
/// a witness failure, not as an ordinary `unknown` (every thread gives one here).
#[test]
fn a_forged_witness_on_two_threads_is_a_witness_failure() {
    use hornbeam::engine::driver::{solve, Forgery, SolveOptions};
    use hornbeam::witness::Answer;
    for (file, forge) in [
        ("sat/counter.smt2", Forgery::EmptyModel),
        ("unsat/two_loops.smt2", Forgery::EmptyDerivation),
    ] {
        let path = common::data_dir("").join(file);
        let src = std::fs::read_to_string(&path).expect("readable");
        let store = hornbeam::term::TermStore::new();
        let system = hornbeam::syntax::read_system(&store, &src).expect("parses");
        let options = SolveOptions {
            threads: 2,
            deterministic: true,
            forge: Some(forge),
            ..SolveOptions::default()
        };
        let answer = solve(&store, &system, &options).answer;
        assert!(
            matches!(&answer, Answer::Unknown(r) if r.witness_failed()),
            "{file}: {answer:?}"
        );
    }
}

#[test]
fn sizes_give_the_length_invariant() {
    // append_lengths.smt2 needs `app(a, b, c) → |c| = |a| + |b|`: linear arithmetic over the
    // sizes of lists, found on the size abstraction and validated with recursive size
    // functions (twice in one thread: by the portfolio, then by the driver).
    let path = common::data_dir("sat").join("append_lengths.smt2");
    let (answer, stats) = solve_auto(&path);
    assert_eq!(answer, "sat", "{stats}");
    let phases = stats["engine_stats"]["phases"].as_array().expect("phases");
    let last = phases.last().expect("a phase");
    assert_eq!(last["samples"]["view"], "sizes", "{stats}");
}

#[test]
fn an_engine_runs_on_the_view_it_names() {
    let data = common::data_dir("");
    let (answer, stats) = solve_with(
        &data.join("sat/append_lengths.smt2"),
        &["--engine", "samples@sizes"],
    );
    assert_eq!(answer, "sat", "{stats}");
    let phases = stats["engine_stats"]["phases"].as_array().expect("phases");
    assert_eq!(phases.len(), 1, "{stats}");
    assert_eq!(phases[0]["samples"]["view"], "sizes", "{stats}");
    // Without a datatype argument there is nothing to abstract: no answer, and why.
    let (answer, stats) = solve_with(&data.join("sat/counter.smt2"), &["--engine", "cegar@sizes"]);
    assert_eq!(answer, "unknown", "{stats}");
    let out = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(["solve", "--engine", "cegar@sizes"])
        .arg(data.join("sat/counter.smt2"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no predicate has a datatype argument"),
        "{stderr}"
    );
}
