//! Structure analyses (`hornbeam::analysis`) on tiny hand-written systems, snapshotted as the
//! JSON that `hornbeam analyze --json` prints; and `hornbeam facts` output read back against
//! its `schema.dl`.

use hornbeam::analysis::analyze;
use hornbeam::term::TermStore;

/// The pretty-printed analysis JSON of an inline SMT-LIB system.
fn analysis_json(src: &str) -> String {
    let store = TermStore::new();
    let system = hornbeam::syntax::read_system(&store, src).expect("test system parses");
    let a = analyze(&system, &store);
    serde_json::to_string_pretty(&a.to_json(&system)).unwrap()
}

/// Outer loop over `i` containing an inner loop over `j`; the query reads `i` only.
/// Expected: loop {outer, inner} with head outer (fact), nested loop {inner} with head inner;
/// `outer`'s `j` is dead (reset to 0 before the inner loop), `inner`'s `j` is live (guard).
const NESTED: &str = r#"
(set-logic HORN)
(declare-fun outer (Int Int) Bool)
(declare-fun inner (Int Int) Bool)
(assert (forall ((i Int) (j Int)) (=> (= i 0) (outer i j))))
(assert (forall ((i Int) (j Int)) (=> (and (outer i j) (< i 10)) (inner i 0))))
(assert (forall ((i Int) (j Int)) (=> (and (inner i j) (< j 10)) (inner i (+ j 1)))))
(assert (forall ((i Int) (j Int)) (=> (and (inner i j) (>= j 10)) (outer (+ i 1) j))))
(assert (forall ((i Int) (j Int)) (=> (and (outer i j) (> i 20)) false)))
(check-sat)
"#;

/// Two loops one after the other: `first` counts `x` up, then `second` counts `y` down; the
/// query reads `y` only, `x` is dead in `second` but live in `first` (guard `x < 5`).
const SEQUENTIAL: &str = r#"
(set-logic HORN)
(declare-fun first (Int Int) Bool)
(declare-fun second (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 10)) (first x y))))
(assert (forall ((x Int) (y Int)) (=> (and (first x y) (< x 5)) (first (+ x 1) y))))
(assert (forall ((x Int) (y Int)) (=> (and (first x y) (>= x 5)) (second x y))))
(assert (forall ((x Int) (y Int)) (=> (and (second x y) (> y 0)) (second x (- y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (second x y) (< y 0)) false)))
(check-sat)
"#;

/// An irreducible loop: `a` and `b` call each other and both are entered by a fact clause, so
/// the loop {a, b} has two heads and no nested loop.
const IRREDUCIBLE: &str = r#"
(set-logic HORN)
(declare-fun a (Int) Bool)
(declare-fun b (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (a x))))
(assert (forall ((x Int)) (=> (= x 1) (b x))))
(assert (forall ((x Int) (y Int)) (=> (and (a x) (= y (+ x 2))) (b y))))
(assert (forall ((x Int) (y Int)) (=> (and (b x) (= y (+ x 2))) (a y))))
(assert (forall ((x Int)) (=> (and (a x) (= x 7)) false)))
(check-sat)
"#;

/// Non-linear clauses: `sum` joins two independent loops `p` and `q`; `q`'s second argument is
/// a dead counter; `r` needs `never`, which has no fact, so `r` is unreachable and its clause
/// useless.
const NONLINEAR: &str = r#"
(set-logic HORN)
(declare-fun p (Int) Bool)
(declare-fun q (Int Int) Bool)
(declare-fun sum (Int) Bool)
(declare-fun never (Int) Bool)
(declare-fun r (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (p x) (< x 10)) (p (+ x 1)))))
(assert (forall ((y Int) (k Int)) (=> (= y 0) (q y k))))
(assert (forall ((y Int) (k Int)) (=> (and (q y k) (< y 5)) (q (+ y 1) (+ k 1)))))
(assert (forall ((x Int) (y Int) (k Int)) (=> (and (p x) (q y k)) (sum (+ x y)))))
(assert (forall ((x Int) (z Int)) (=> (and (p x) (never z)) (r (+ x z)))))
(assert (forall ((s Int)) (=> (and (sum s) (> s 15)) false)))
(assert (forall ((s Int)) (=> (and (r s) (> s 15)) false)))
(check-sat)
"#;

/// Dead arguments and unreachable clauses: `main`'s `junk` argument only feeds itself;
/// `ghost` is a cycle with no entry (unreachable, its smallest member becomes the head);
/// `side` is reachable but cannot reach the query; `orphan` is used by the query but never
/// defined.
const DEAD: &str = r#"
(set-logic HORN)
(declare-fun main (Int Int) Bool)
(declare-fun side (Int) Bool)
(declare-fun ghost (Int) Bool)
(declare-fun ghost2 (Int) Bool)
(declare-fun orphan (Int) Bool)
(assert (forall ((x Int) (junk Int)) (=> (= x 0) (main x junk))))
(assert (forall ((x Int) (junk Int)) (=> (main x junk) (main (+ x 1) (* 2 junk)))))
(assert (forall ((x Int) (junk Int)) (=> (main x junk) (side x))))
(assert (forall ((g Int)) (=> (ghost g) (ghost2 (+ g 1)))))
(assert (forall ((g Int)) (=> (ghost2 g) (ghost (+ g 1)))))
(assert (forall ((g Int) (x Int) (junk Int)) (=> (and (ghost g) (main x junk) (= g x)) false)))
(assert (forall ((x Int) (junk Int)) (=> (and (main x junk) (< x 0)) false)))
(assert (forall ((o Int)) (=> (and (orphan o) (> o 0)) false)))
(check-sat)
"#;

#[test]
fn nested_loops() {
    insta::assert_snapshot!("nested_loops", analysis_json(NESTED));
}

#[test]
fn sequential_loops() {
    insta::assert_snapshot!("sequential_loops", analysis_json(SEQUENTIAL));
}

#[test]
fn irreducible_loop() {
    insta::assert_snapshot!("irreducible_loop", analysis_json(IRREDUCIBLE));
}

#[test]
fn nonlinear_clauses() {
    insta::assert_snapshot!("nonlinear_clauses", analysis_json(NONLINEAR));
}

#[test]
fn dead_arguments_and_unreachable_clauses() {
    insta::assert_snapshot!("dead_arguments", analysis_json(DEAD));
}

/// Runs `hornbeam facts` on `src` and checks every `.facts` file against `schema.dl`: one
/// file per declared relation (and no other), `.input` for each, tab-separated rows with the
/// declared number of columns, `number` columns holding integers.
fn check_facts_round_trip(tag: &str, src: &str) {
    let dir = std::env::temp_dir().join(format!("hornbeam-facts-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("input.smt2");
    std::fs::write(&input, src).unwrap();
    let out = dir.join("facts");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .arg("facts")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());

    let schema = std::fs::read_to_string(out.join("schema.dl")).unwrap();
    let mut decls = Vec::new();
    let mut inputs = Vec::new();
    for line in schema.lines() {
        if let Some(rest) = line.strip_prefix(".decl ") {
            let (name, cols) = rest.split_once('(').expect("decl has columns");
            let cols = cols.strip_suffix(')').expect("decl ends with )");
            let types: Vec<String> = cols
                .split(',')
                .map(|c| {
                    c.split_once(':')
                        .expect("typed column")
                        .1
                        .trim()
                        .to_string()
                })
                .collect();
            assert!(types.iter().all(|t| t == "number" || t == "symbol"));
            decls.push((name.to_string(), types));
        } else if let Some(name) = line.strip_prefix(".input ") {
            inputs.push(name.trim().to_string());
        }
    }
    assert!(decls.len() >= 10, "schema declares the relations");
    let declared: Vec<&String> = decls.iter().map(|(n, _)| n).collect();
    assert_eq!(declared, inputs.iter().collect::<Vec<_>>());
    for name in [
        "pred",
        "pred_name",
        "clause",
        "body_atom",
        "head_atom",
        "query",
        "arg_flow",
    ] {
        assert!(declared.iter().any(|d| *d == name), "{name} declared");
    }
    let mut files = 0;
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "facts") {
            files += 1;
            let stem = path.file_stem().unwrap().to_str().unwrap();
            assert!(
                declared.iter().any(|d| *d == stem),
                "{stem}.facts is declared"
            );
        }
    }
    assert_eq!(files, decls.len());
    let mut tuples = 0;
    for (name, types) in &decls {
        let text = std::fs::read_to_string(out.join(format!("{name}.facts"))).unwrap();
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), types.len(), "{name}: {line:?}");
            for (f, t) in fields.iter().zip(types) {
                if t == "number" {
                    f.parse::<i32>()
                        .unwrap_or_else(|_| panic!("{name}: {f:?} is a number"));
                }
            }
            tuples += 1;
        }
    }
    assert!(tuples > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn facts_parse_back_against_schema() {
    check_facts_round_trip("nonlinear", NONLINEAR);
    check_facts_round_trip("nested", NESTED);
}
