use super::*;
use ColumnType::{Number as N, Symbol as S};

fn provided() -> Vec<Table> {
    let rows = |v: &[&[&str]]| {
        v.iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect()
    };
    vec![
        Table {
            name: "edge",
            doc: "",
            columns: &[("p", N), ("q", N)],
            rows: rows(&[&["0", "1"], &["1", "2"], &["2", "1"], &["3", "4"]]),
        },
        Table {
            name: "name",
            doc: "",
            columns: &[("p", N), ("n", S)],
            rows: rows(&[
                &["0", "init"],
                &["1", "loop"],
                &["2", "body"],
                &["3", "x"],
                &["4", "y"],
            ]),
        },
    ]
}

const DECLS: &str = ".decl edge(p: number, q: number)\n.input edge\n\
                     .decl name(p: number, n: symbol)\n.input name\n";

/// The rows of `rel` after evaluating `DECLS` + `rules`.
fn run(rules: &str, rel: &str) -> Vec<String> {
    let src = format!("{DECLS}{rules}");
    let r = Rules::parse(&src, &provided()).unwrap_or_else(|e| panic!("{e}"));
    let out = r.evaluate(&provided()).unwrap_or_else(|e| panic!("{e}"));
    let d = out.into_iter().find(|d| d.name == rel).unwrap();
    d.rows.into_iter().map(|r| r.join(" ")).collect()
}

/// The error of `DECLS` + `rules`, with the line counted from the first line of `rules`.
fn error(rules: &str) -> String {
    let src = format!("{DECLS}{rules}");
    let e = match Rules::parse(&src, &provided()).and_then(|r| r.evaluate(&provided())) {
        Err(e) => e,
        Ok(_) => panic!("no error for {rules}"),
    };
    format!("{}:{}: {}", e.line - 4, e.col, e.message)
}

#[test]
fn transitive_closure() {
    let rules = ".decl path(p: number, q: number)\n.output path\n\
                 path(p, q) :- edge(p, q).\npath(p, r) :- path(p, q), edge(q, r).\n";
    assert_eq!(
        run(rules, "path"),
        ["0 1", "0 2", "1 1", "1 2", "2 1", "2 2", "3 4"]
    );
}

#[test]
fn negation_constants_and_symbols() {
    let rules = ".decl reach(p: number)\n.decl unreached(n: symbol)\n\
                 reach(0).\nreach(q) :- reach(p), edge(p, q).\n\
                 unreached(n) :- name(p, n), !reach(p), n != \"y\".\n";
    assert_eq!(run(rules, "unreached"), ["x"]);
}

#[test]
fn repeated_variables_and_wildcards() {
    let rules = ".decl back(p: number)\n.decl self(p: number)\n\
                 back(p) :- edge(p, q), edge(q, p).\nself(p) :- edge(p, p).\n";
    assert_eq!(run(rules, "back"), ["1", "2"]);
    assert!(run(rules, "self").is_empty());
}

#[test]
fn arithmetic_comparisons_and_bindings() {
    let rules = ".decl step(p: number, k: number)\n\
                 step(q, k) :- edge(p, q), k = p * 10 + q, k % 2 = 0, k >= 10.\n\
                 .decl sum(k: number)\nsum(p + q) :- edge(p, q), p / 0 = 1.\n";
    assert_eq!(run(rules, "step"), ["2 12", "4 34"]);
    assert!(
        run(rules, "sum").is_empty(),
        "division by zero drops the row"
    );
}

#[test]
fn aggregates_group_by_outer_variables() {
    let rules = ".decl out(p: number, n: number)\nout(p, n) :- name(p, _), n = count : { edge(p, _) }.\n\
                 .decl total(s: number)\ntotal(s) :- s = sum q : edge(_, q).\n\
                 .decl top(m: number)\ntop(m) :- m = max q : { edge(_, q) }.\n\
                 .decl low(p: number, m: number)\nlow(p, m) :- name(p, _), m = min q : { edge(p, q) }.\n";
    assert_eq!(run(rules, "out"), ["0 1", "1 1", "2 1", "3 1", "4 0"]);
    assert_eq!(run(rules, "total"), ["8"]);
    assert_eq!(run(rules, "top"), ["4"]);
    assert_eq!(run(rules, "low"), ["0 1", "1 2", "2 1", "3 4"]);
}

#[test]
fn located_errors() {
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- edge(p, q), !r(q).\n"),
        "2:22: `r` depends on itself through negation or an aggregate: the rules cannot be \
         stratified"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(q) :- edge(p, _).\n"),
        "2:3: the head variable `q` is not bound by a positive atom of the body"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- edge(p, _), !edge(x, p).\n"),
        "2:27: the variable `x` is not bound by a positive atom of the rule (every variable \
         of a negation, comparison or head must be)"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- nosuch(p).\n"),
        "2:9: unknown relation `nosuch` (every relation needs a `.decl`)"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- edge(p).\n"),
        "2:9: `edge` has 2 column(s), here it has 1 argument(s)"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- edge(p, _), name(_, p).\n"),
        "2:29: `p` is a number, but a symbol is expected here"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- name(_, p).\n"),
        "2:3: this argument is a symbol, but a number is expected here"
    );
    assert_eq!(
        error(".decl clause(c: number)\n.input clause\n"),
        "2:8: Hornbeam provides no relation `clause` for this input (it provides: edge, name)"
    );
    assert_eq!(
        error("r(p) :- edge(p, _)\n"),
        "2:1: expected `.` at the end of the rule, found the end of the file"
    );
    assert_eq!(
        error(".decl r(p: number)\nr(p) :- edge(p, _); name(p, _).\n"),
        "2:19: disjunction (`;`) is not supported: write one rule per case"
    );
    assert_eq!(error("r(p) :- @.\n"), "1:9: unexpected character `@`");
    assert_eq!(
        error(".decl r(p: float)\n"),
        "1:12: the type `float` is not supported"
    );
    assert_eq!(error(".printsize edge\n"), "1:1: unknown or unsupported directive `.printsize` (supported: .decl, .type, .input, .output)");
}

#[test]
fn runaway_arithmetic_is_stopped() {
    let src = format!("{DECLS}.decl n(x: number)\nn(0).\nn(x + 1) :- n(x).\n");
    let r = Rules::parse(&src, &provided()).unwrap();
    let e = r
        .evaluate_within(&provided(), Limits { max_tuples: 1000 })
        .unwrap_err();
    assert!(e.message.contains("more than"), "{e}");
}

#[test]
fn cat_and_to_string_build_symbols() {
    let rules =
        ".decl label(s: symbol)\nlabel(cat(n, \"#\", to_string(p * 2))) :- name(p, n), p < 2.\n";
    assert_eq!(run(rules, "label"), ["init#0", "loop#2"]);
    assert_eq!(
        error(".decl label(s: symbol)\nlabel(cat(p)) :- edge(p, _).\n"),
        "2:11: this argument of `cat` is a number, but a symbol is expected"
    );
    assert_eq!(
        error(".decl finding(m: symbol)\n"),
        "1:7: `finding` is an agreed relation; its columns are (rule: symbol, \
         severity: symbol, line: number, col: number, message: symbol)"
    );
}
