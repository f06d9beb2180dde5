//! Rule files at run time (`hornbeam analyze --rules FILE.dl`): a user's rules, written outside
//! the repository, agree with the built-in ascent rule sets on every clause system of
//! `tests/data`; `facts` exports every relation (derived ones and, for C, source positions);
//! malformed rule files get located errors and exit status 2.

use hornbeam::analysis::analyze;
use hornbeam::term::TermStore;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Hyper-graph reachability from facts (as `rules/graph.rs` computes it), co-reachability of
/// queries, and their negations; in the Soufflé subset, with arithmetic in a head.
const REACH: &str = r#"
// Written by a user: reachability over the relations Hornbeam provides.
.decl clause(c: number)
.input clause
.decl pred(p: number, arity: number)
.input pred
.decl body_atom(c: number, position: number, p: number)
.input body_atom
.decl head_atom(c: number, p: number)
.input head_atom
.decl query(c: number)
.input query

.decl has_atom_at(c: number, i: number)
has_atom_at(c, i) :- body_atom(c, i, _).
.decl ready(c: number, i: number)
ready(c, 0) :- clause(c).
ready(c, i + 1) :- ready(c, i), body_atom(c, i, p), reach(p).
.decl reach(p: number)
reach(p) :- ready(c, i), !has_atom_at(c, i), head_atom(c, p).
.decl unreached(p: number)
unreached(p) :- pred(p, _), !reach(p).

.decl coreach(p: number)
coreach(p) :- query(c), body_atom(c, _, p).
coreach(p) :- body_atom(c, _, p), head_atom(c, q), coreach(q).
.decl stuck(p: number)
stuck(p) :- pred(p, _), !coreach(p).
.output reach, unreached, stuck
"#;

fn hornbeam(args: &[&std::ffi::OsStr]) -> std::process::Output {
    hornbeam_in(Path::new("."), args)
}

/// Runs hornbeam in `dir` (messages name files as they are given).
fn hornbeam_in(dir: &Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("hornbeam runs")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hornbeam-rules-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn smt2_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            smt2_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "smt2") {
            out.push(p);
        }
    }
}

/// The predicate ids in `DIR/NAME.csv`, sorted.
fn ids(dir: &Path, name: &str) -> Vec<u32> {
    let text = std::fs::read_to_string(dir.join(format!("{name}.csv"))).unwrap();
    let mut v: Vec<u32> = text.lines().map(|l| l.parse().unwrap()).collect();
    v.sort_unstable();
    v
}

#[test]
fn a_users_reachability_agrees_with_the_built_in_rules_on_every_test_system() {
    let dir = scratch("reach");
    let rules = dir.join("reach.dl");
    std::fs::write(&rules, REACH).unwrap();
    let mut files = Vec::new();
    smt2_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        &mut files,
    );
    let mut compared = 0;
    for file in &files {
        let store = TermStore::new();
        let Ok(src) = std::fs::read_to_string(file) else {
            continue;
        };
        let system = hornbeam::syntax::read_system(&store, &src);
        let out_dir = dir.join(format!("out{compared}"));
        let out = hornbeam(&[
            "analyze".as_ref(),
            "--rules".as_ref(),
            rules.as_os_str(),
            "-D".as_ref(),
            out_dir.as_os_str(),
            file.as_os_str(),
        ]);
        let Ok(system) = system else {
            assert_eq!(
                out.status.code(),
                Some(2),
                "{}: an input error",
                file.display()
            );
            continue;
        };
        assert!(
            out.status.success(),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let a = analyze(&system, &store);
        let with = |v: &[bool], b: bool| -> Vec<u32> {
            (0..v.len() as u32)
                .filter(|&p| v[p as usize] == b)
                .collect()
        };
        assert_eq!(
            ids(&out_dir, "reach"),
            with(&a.reachable, true),
            "{}",
            file.display()
        );
        assert_eq!(
            ids(&out_dir, "unreached"),
            with(&a.reachable, false),
            "{}",
            file.display()
        );
        assert_eq!(
            ids(&out_dir, "stuck"),
            with(&a.co_reachable, false),
            "{}",
            file.display()
        );
        compared += 1;
    }
    assert!(compared >= 90, "only {compared} systems compared");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The relations `facts` writes for `file`: name → rows.
fn facts_of(file: &Path, dir: &Path) -> std::collections::BTreeMap<String, Vec<Vec<String>>> {
    let out = hornbeam(&[
        "facts".as_ref(),
        file.as_os_str(),
        "--out".as_ref(),
        dir.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema = std::fs::read_to_string(dir.join("schema.dl")).unwrap();
    schema
        .lines()
        .filter_map(|l| l.strip_prefix(".decl "))
        .map(|d| {
            let name = d.split('(').next().unwrap().to_string();
            let text = std::fs::read_to_string(dir.join(format!("{name}.facts"))).unwrap();
            let rows = text
                .lines()
                .map(|l| l.split('\t').map(String::from).collect())
                .collect();
            (name, rows)
        })
        .collect()
}

#[test]
fn facts_exports_derived_relations_of_a_clause_system() {
    let dir = scratch("chc-facts");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sat/counter.smt2");
    let rels = facts_of(&file, &dir);
    for name in [
        "pred",
        "clause",
        "body_atom",
        "head_atom",
        "query",
        "arg_flow",
        "edge",
        "reachable",
        "co_reachable",
        "useful_clause",
        "live",
        "loop_head",
        "loop_member",
        "arg_sort",
        "bound",
        "step",
        "pred_at",
        "clause_at",
    ] {
        assert!(rels.contains_key(name), "{name} exported");
    }
    assert!(!rels["loop_head"].is_empty(), "the counter loops");
    // Every clause and predicate has its place in the file, and clause 0 is the first assertion.
    assert_eq!(rels["clause_at"].len(), rels["clause"].len());
    assert_eq!(rels["pred_at"].len(), rels["pred"].len());
    let first_assert = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .position(|l| l.starts_with("(assert"))
        .unwrap()
        + 1;
    assert_eq!(
        rels["clause_at"][0][..2],
        ["0".to_string(), first_assert.to_string()]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn facts_of_a_c_program_carry_lines_and_columns() {
    let dir = scratch("c-facts");
    let file = dir.join("p.c");
    std::fs::write(
        &file,
        "extern void reach_error(void);\nint main(void) {\n  int x = 0;\n  while (x < 3)\n    x++;\n  if (x != 3) reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    let rels = facts_of(&file, &dir.join("facts"));
    for name in [
        "cfa_edge",
        "location",
        "edge_at",
        "edge_op",
        "reach",
        "live",
        "loop_head",
        "cut_point",
        "modifies",
        "uses",
        "writes",
        "kills",
    ] {
        assert!(rels.contains_key(name), "{name} exported");
    }
    // The loop head stands for the `while` at 4:3; an edge into the error location for the
    // call at line 6.
    let loc = &rels["location"];
    assert!(
        loc.iter()
            .any(|r| r[2] == "loop" && r[3] == "4" && r[4] == "3"),
        "{loc:?}"
    );
    let main = rels["function"].iter().find(|r| r[1] == "main").unwrap()[0].clone();
    let error = loc
        .iter()
        .find(|r| r[0] == main && r[2] == "error")
        .unwrap()[1]
        .clone();
    let into_error: Vec<&String> = rels["cfa_edge"]
        .iter()
        .filter(|r| r[0] == main && r[3] == error)
        .map(|r| &r[1])
        .collect();
    assert!(!into_error.is_empty());
    assert!(rels["edge_at"]
        .iter()
        .any(|r| r[0] == main && into_error.contains(&&r[1]) && r[2] == "6"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_over_a_c_program_report_at_source_lines() {
    let dir = scratch("c-rules");
    let file = dir.join("p.c");
    std::fs::write(
        &file,
        "int main(void) {\n  int x = 0;\n  int y = 5;\n  while (x < 3)\n    x++;\n  return x;\n}\n",
    )
    .unwrap();
    let rules = dir.join("heads.dl");
    std::fs::write(
        &rules,
        ".decl location(f: number, l: number, kind: symbol, line: number, col: number)\n\
         .input location\n.decl cut_point(f: number, l: number)\n.input cut_point\n\
         .decl loop_at(line: number, col: number)\n.output loop_at\n\
         loop_at(line, col) :- cut_point(f, l), location(f, l, \"loop\", line, col).\n",
    )
    .unwrap();
    let out = hornbeam(&[
        "analyze".as_ref(),
        "--rules".as_ref(),
        rules.as_os_str(),
        file.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "# loop_at(line: number, col: number): 1 tuple(s)\n4\t3\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_rule_files_get_located_errors() {
    let dir = scratch("errors");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sat/counter.smt2");
    let cases = [
        (".decl r(p: number)\nr(p) :- edge(p, q).\n", "bad.dl:2:9: unknown relation `edge`"),
        (
            ".decl edge(p: number)\n.input edge\n",
            "bad.dl:2:8: `.decl edge(p: number)` does not match the relation Hornbeam provides: \
             edge(p: number, q: number)",
        ),
        (
            ".decl pred(p: number, a: number)\n.input pred\n.decl r(p: number)\nr(p) :- pred(p, _), !r(p).\n",
            "bad.dl:4:22: `r` depends on itself through negation",
        ),
        (
            ".decl pred(p: number, a: number)\n.input pred\n.decl r(p: number)\nr(q) :- pred(p, _).\n",
            "bad.dl:4:3: the head variable `q` is not bound",
        ),
        (".decl r(p: number)\nr(p) :- \n", "bad.dl:3:1: expected a body literal (an atom, `!` and an atom, or a comparison), found the end of the file"),
    ];
    for (text, want) in cases {
        let rules = dir.join("bad.dl");
        std::fs::write(&rules, text).unwrap();
        let out = hornbeam(&[
            "analyze".as_ref(),
            "--rules".as_ref(),
            rules.as_os_str(),
            file.as_os_str(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(want), "{text}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn facts_of_a_c_program_carry_points_to_sets() {
    let dir = scratch("c-points-to");
    let file = dir.join("p.c");
    // `p` may point to `a` or `b`, and so may `set`'s parameter; `q` is null only.
    std::fs::write(
        &file,
        "void set(int *r) { *r = 1; }\nint main(void) {\n  int a = 0, b = 0;\n  int *p = &a;\n  \
         int *q = 0;\n  if (a) p = &b;\n  set(p);\n  if (q) *q = 2;\n  return a;\n}\n",
    )
    .unwrap();
    let rels = facts_of(&file, &dir.join("facts"));
    let name = |f: &str, v: &str| -> String {
        rels["variable"]
            .iter()
            .find(|r| r[0] == f && r[1] == v)
            .map_or_else(|| format!("?{v}"), |r| r[2].clone())
    };
    let fun =
        |f: &str| -> String { rels["function"].iter().find(|r| r[0] == f).unwrap()[1].clone() };
    let mut pts: Vec<String> = rels["points_to"]
        .iter()
        .map(|r| {
            format!(
                "{}: {} -> {}",
                fun(&r[0]),
                name(&r[0], &r[1]),
                name(&r[0], &r[2])
            )
        })
        // The front end's temporaries (`tmp@OFFSET.N`) hold pointers too.
        .filter(|r| !r.contains("tmp@"))
        .collect();
    pts.sort();
    assert_eq!(
        pts,
        [
            "main: p -> main.a",
            "main: p -> main.b",
            "set: r -> main.a",
            "set: r -> main.b"
        ],
        "{pts:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn guards_and_updates_are_exported_as_bounds_and_steps() {
    let dir = scratch("bounds");
    std::fs::write(
        dir.join("shapes.dl"),
        ".decl bound(c: number, k: number, v: number, op: symbol, n: number)\n.input bound\n\
         .decl step(c: number, k: number, a: number, b: number, d: number)\n.input step\n\
         .decl var_name(v: number, name: symbol)\n.input var_name\n\
         .decl arg_sort(p: number, i: number, sort: symbol)\n.input arg_sort\n\
         .decl guard(c: number, x: symbol, op: symbol, n: number)\n.output guard\n\
         guard(c, x, op, n) :- bound(c, _, v, op, n), var_name(v, x).\n\
         .decl update(a: symbol, b: symbol, d: number)\n.output update\n\
         update(x, y, d) :- step(_, _, a, b, d), var_name(a, x), var_name(b, y).\n\
         .output arg_sort\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("shapes.smt2"),
        "(set-logic HORN)\n(declare-fun inv (Int Bool) Bool)\n\
         (assert (forall ((x Int) (b Bool)) (=> (and (= x 0) b) (inv x b))))\n\
         (assert (forall ((x Int) (y Int) (b Bool))\n\
           (=> (and (inv x b) (< x 10) (>= 5 x) (not (<= x (- 3))) (= y (- x 2))) (inv y b))))\n\
         (assert (forall ((x Int) (b Bool)) (=> (and (inv x b) (distinct x 7)) false)))\n\
         (check-sat)\n",
    )
    .unwrap();
    let out = hornbeam_in(
        &dir,
        &[
            "analyze".as_ref(),
            "--rules".as_ref(),
            "shapes.dl".as_ref(),
            "shapes.smt2".as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Negations folded, constants put on the right, each update read both ways (the Boolean
    // argument's copy too: `d` is 0).
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout), @r"
    # arg_sort(p: number, i: number, sort: symbol): 2 tuple(s)
    0	0	Int
    0	1	Bool
    # guard(c: number, x: symbol, op: symbol, n: number): 5 tuple(s)
    0	x	=	0
    1	x!1	<	10
    1	x!1	<=	5
    1	x!1	>	-3
    2	x!2	!=	7
    # update(a: symbol, b: symbol, d: number): 4 tuple(s)
    arg	b!1	0
    b!1	arg	0
    x!1	y	2
    y	x!1	-2
    ");
    let _ = std::fs::remove_dir_all(&dir);
}
