//! The control-flow automata of C programs (`frontend::c::cfa`): the shape the module promises
//! holds for every program of `tests/data/c/{safe,unsafe,approx}`, snapshots pin the CFA,
//! loops, cut points and live variables of a few programs, and `hornbeam analyze|facts
//! PROG.c` print them.

use hornbeam::frontend::c::cfa::report::ProgramAnalysis;
use hornbeam::frontend::c::cfa::structure::analyze;
use hornbeam::frontend::c::cfa::{LocId, LocKind, Op};
use hornbeam::frontend::c::{read_program, DataModel, Program};
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/c")
        .join(name)
}

/// Runs `f` on a thread with a large stack: reading a program recurses over its nesting (the
/// front end's callers give it one, as `verify` does; a debug build needs several MB).
fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no panic")
}

fn read(name: &str) -> Program {
    let src = std::fs::read_to_string(data(name)).expect("test file");
    big_stack(move || read_program(&src, DataModel::Ilp32).expect("in the subset"))
}

/// The CFAs with their loops, cut points and live variables, as `hornbeam analyze` prints them.
fn check(name: &str) -> String {
    ProgramAnalysis::new(&read(name)).to_text()
}

/// The module's invariant for function `f`; `Err` says what breaks it.
fn shape(p: &Program, f: usize) -> Result<(), String> {
    let cfa = &p.functions[f].cfa;
    let st = analyze(p, f);
    for l in cfa.loc_ids() {
        let out = cfa.out(l);
        match out {
            [] | [_] => {}
            [a, b] => match (&cfa.edge(*a).op, &cfa.edge(*b).op) {
                (Op::Assume(c, true), Op::Assume(d, false)) if c.span == d.span => {}
                _ => return Err(format!("location {} has two edges but no branch", l.0)),
            },
            _ => return Err(format!("location {} has {} edges", l.0, out.len())),
        }
        let reachable = st.reachable[l.0 as usize];
        if !reachable && l != cfa.exit && l != cfa.error {
            return Err(format!("location {} is unreachable", l.0));
        }
    }
    if !cfa.out(cfa.exit).is_empty() || !cfa.out(cfa.error).is_empty() {
        return Err("exit or error has an outgoing edge".into());
    }
    for e in &cfa.edges {
        if (e.to == cfa.exit) != matches!(e.op, Op::Return(_)) {
            return Err(format!("edge {} -> {} and exit disagree", e.from.0, e.to.0));
        }
        if cfa.loc(e.from).kind == LocKind::Abort {
            return Err("an abort location has an outgoing edge".into());
        }
    }
    // Every cycle goes through a cut point: without them the graph has a topological order.
    let n = cfa.locs.len();
    let mut indegree = vec![0usize; n];
    let cut = |l: LocId| st.is_cut_point(l);
    for e in &cfa.edges {
        if !cut(e.to) {
            indegree[e.to.0 as usize] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&l| indegree[l] == 0).collect();
    let mut seen = 0;
    while let Some(l) = ready.pop() {
        seen += 1;
        for &e in cfa.out(LocId(l as u32)) {
            let to = cfa.edge(e).to;
            if !cut(to) {
                indegree[to.0 as usize] -= 1;
                if indegree[to.0 as usize] == 0 {
                    ready.push(to.0 as usize);
                }
            }
        }
    }
    if seen != n {
        return Err("a cycle avoids every cut point".into());
    }
    Ok(())
}

#[test]
fn every_program_has_the_promised_shape() {
    big_stack(every_program_shape);
}

fn every_program_shape() {
    let mut checked = 0;
    for folder in ["safe", "unsafe", "approx"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(data(folder))
            .expect("folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        for file in files {
            let src = std::fs::read_to_string(&file).expect("test file");
            let p = read_program(&src, DataModel::Ilp32).expect("in the subset");
            for f in 0..p.functions.len() {
                shape(&p, f).unwrap_or_else(|e| {
                    panic!("{} `{}`: {e}", file.display(), p.functions[f].name)
                });
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} functions");
}

#[test]
fn an_irreducible_goto_loop_has_two_heads() {
    let p = read("safe/goto-irreducible.c");
    let st = analyze(&p, p.main);
    assert_eq!(st.loops.len(), 1);
    assert_eq!(st.loops[0].heads.len(), 2);
    insta::assert_snapshot!(check("safe/goto-irreducible.c"));
}

#[test]
fn cfa_of_a_switch_with_fall_through_default_and_continue() {
    insta::assert_snapshot!(check("safe/switch-fallthrough.c"));
}

#[test]
fn cfa_of_nested_loops_with_dead_variables() {
    insta::assert_snapshot!(check("safe/fs-fig3.c"));
}

#[test]
fn analyze_prints_json_and_dot_and_facts_are_written() {
    let file = data("safe/goto-irreducible.c");
    let out = Command::new(BIN)
        .arg("analyze")
        .arg(&file)
        .arg("--json")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let main = &j["functions"][0];
    assert_eq!(main["name"], "main");
    assert_eq!(main["cut_points"].as_array().map(Vec::len), Some(2));
    assert_eq!(main["loops"][0]["modified"], serde_json::json!(["x", "y"]));
    let dot = Command::new(BIN)
        .arg("analyze")
        .arg(&file)
        .arg("--dot")
        .output()
        .expect("runs");
    let dot = String::from_utf8_lossy(&dot.stdout);
    assert!(dot.starts_with("digraph cfa {") && dot.contains("doublecircle"));
    let dir = common::scratch("cfa", "facts");
    let out = Command::new(BIN)
        .arg("facts")
        .arg(&file)
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let edges = std::fs::read_to_string(dir.join("cfa_edge.facts")).expect("written");
    assert_eq!(edges.lines().count(), 21);
    assert!(std::fs::read_to_string(dir.join("schema.dl"))
        .expect("written")
        .contains(".decl cfa_edge(f: number, e: number, from: number, to: number)"));
}

#[test]
fn a_bad_program_is_a_located_error_for_analyze() {
    let out = Command::new(BIN)
        .arg("analyze")
        .arg(data("error/goto-undefined-label.c"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("goto-undefined-label.c:4:3:"));
}

#[test]
fn temporaries_read_right_after_their_assignment_are_not_live_at_the_loop_head() {
    insta::assert_snapshot!(check("safe/heap-array-temporaries-dead.c"));
}

#[test]
fn cfa_of_a_pointer_program_with_dereferences_lowered_to_case_splits() {
    insta::assert_snapshot!(check("safe/pointer-alias.c"));
}
