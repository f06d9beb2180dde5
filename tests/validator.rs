//! The independent witness checkers on the corpus in `tests/data/`: hand-written models of some
//! `sat/` files pass `validate_model`, while the same models with one predicate replaced by
//! `false`, or with a wrong (non-inductive or unsafe) invariant, fail it; BMC derivations of every
//! `unsat/` file replay, and forged variants (a changed value, a dropped premise, a root that is
//! not a query, ...) do not.

mod common;

use hornbeam::chc::System;
use hornbeam::clock::Deadline;
use hornbeam::engine::{bmc::Bmc, Context, Engine, Stats};
use hornbeam::syntax::read_system;
use hornbeam::term::{TermStore, Value};
use hornbeam::witness::read_model;
use hornbeam::witness::{
    replay_derivation, validate_model, Answer, Derivation, ModelCheck, ReplayError,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn load(store: &TermStore, path: &Path) -> System {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_system(store, &src)
        .unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string(), &src)))
}

/// Validates `model` (define-fun text) against `sat/NAME.smt2`.
fn check_model(file: &str, model: &str) -> ModelCheck {
    let store = TermStore::new();
    let system = load(&store, &data(&format!("sat/{file}.smt2")));
    let m = read_model(&store, &system, model)
        .unwrap_or_else(|e| panic!("{file}: bad model: {}\n{model}", e.render("model", model)));
    validate_model(
        &store,
        &system,
        &m,
        Deadline::after(Duration::from_secs(30)),
    )
}

/// A correct model, and wrong variants of it.
struct Case {
    file: &'static str,
    /// One define-fun per predicate.
    good: &'static [(&'static str, &'static str)],
    /// (predicate, wrong definition): each replaces that predicate's good definition.
    wrong: &'static [(&'static str, &'static str)],
}

const CASES: &[Case] = &[
    Case {
        file: "counter",
        good: &[("inv", "(define-fun inv ((x Int)) Bool (<= x 10))")],
        wrong: &[
            // not inductive: 9 steps to 10
            ("inv", "(define-fun inv ((x Int)) Bool (<= x 9))"),
            // inductive but not safe
            ("inv", "(define-fun inv ((x Int)) Bool (>= x 0))"),
            // a conjunction (checked one conjunct at a time) whose last conjunct fails
            ("inv", "(define-fun inv ((x Int)) Bool (and (>= x 0) (<= x 10) (<= x 9)))"),
        ],
    },
    Case {
        file: "two_preds",
        good: &[
            ("p", "(define-fun p ((x Int)) Bool (and (>= x 0) (<= x 5)))"),
            (
                "q",
                "(define-fun q ((x Int) (y Int)) Bool (and (>= y 0) (<= y x)))",
            ),
        ],
        wrong: &[("q", "(define-fun q ((x Int) (y Int)) Bool (> y 0))")],
    },
    Case {
        file: "nonlinear",
        good: &[
            ("nat", "(define-fun nat ((x Int)) Bool (>= x 0))"),
            ("sum", "(define-fun sum ((z Int)) Bool (>= z 0))"),
        ],
        // 0 + 0 = 0 is a sum
        wrong: &[("sum", "(define-fun sum ((z Int)) Bool (> z 0))")],
    },
    Case {
        file: "head_conjunction",
        good: &[
            ("p", "(define-fun p ((x Int)) Bool (and (>= x 0) (<= x 5)))"),
            ("q", "(define-fun q ((x Int)) Bool (and (>= x 0) (<= x 4)))"),
        ],
        wrong: &[("q", "(define-fun q ((x Int)) Bool (and (>= x 0) (<= x 3)))")],
    },
    Case {
        file: "real_step",
        good: &[(
            "inv",
            "(define-fun inv ((x Real)) Bool (and (>= x 0.0) (<= x 1.5)))",
        )],
        // 0.5 < 1 steps to 1.0
        wrong: &[(
            "inv",
            "(define-fun inv ((x Real)) Bool (and (>= x 0.0) (<= x 0.5)))",
        )],
    },
    Case {
        file: "array_fill",
        good: &[(
            "inv",
            "(define-fun inv ((a (Array Int Int)) (i Int) (n Int)) Bool \
             (and (>= i 0) (=> (>= i 1) (= (select a 0) 0))))",
        )],
        // the initial array is arbitrary
        wrong: &[(
            "inv",
            "(define-fun inv ((a (Array Int Int)) (i Int) (n Int)) Bool (= (select a 0) 0))",
        )],
    },
    Case {
        file: "term_head_args",
        good: &[("p", "(define-fun p ((x Int) (y Int)) Bool (= y (* 2 x)))")],
        wrong: &[("p", "(define-fun p ((x Int) (y Int)) Bool (= y (+ x x 1)))")],
    },
    Case {
        file: "bool_ite",
        good: &[("inv", "(define-fun inv ((b Bool) (x Int)) Bool (>= x 0))")],
        // x stays 0 for the first step, with b true
        wrong: &[(
            "inv",
            "(define-fun inv ((b Bool) (x Int)) Bool (and (>= x 0) (not b)))",
        )],
    },
    Case {
        file: "even_step",
        // The head `P y` needs `∀k. y ≠ 2k ∨ k < 0` refuted: eliminated to `y mod 2 = 0 ∧ y ≥ 0`.
        good: &[(
            "P",
            "(define-fun P ((x Int)) Bool (exists ((k Int)) (and (>= k 0) (= x (* 2 k)))))",
        )],
        wrong: &[
            // 0 is not odd
            (
                "P",
                "(define-fun P ((x Int)) Bool (exists ((k Int)) (= x (+ (* 2 k) 1))))",
            ),
            // not inductive: 2 steps to 4
            (
                "P",
                "(define-fun P ((x Int)) Bool (exists ((k Int)) (and (>= k 0) (<= k 1) (= x (* 2 k)))))",
            ),
        ],
    },
    Case {
        file: "list_length",
        good: &[("len", "(define-fun len ((l IntList) (n Int)) Bool (>= n 0))")],
        // not inductive: (cons 0 nil) has length 1
        wrong: &[(
            "len",
            "(define-fun len ((l IntList) (n Int)) Bool (and (>= n 0) ((_ is nil) l)))",
        )],
    },
    Case {
        file: "tree_forest",
        good: &[
            ("size", "(define-fun size ((t Tree) (n Int)) Bool (>= n 1))"),
            (
                "fsize",
                "(define-fun fsize ((f Forest) (n Int)) Bool (and (>= n 0) (=> (is-grow f) (>= n 1))))",
            ),
        ],
        // a leaf (node x empty) has size 1
        wrong: &[("size", "(define-fun size ((t Tree) (n Int)) Bool (>= n 2))")],
    },
];

fn model_text(case: &Case, replace: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    for (pred, def) in case.good {
        let def = match replace {
            Some((p, d)) if p == *pred => d,
            _ => def,
        };
        out.push_str(def);
        out.push('\n');
    }
    out
}

/// `(define-fun P ((x S) ...) Bool false)` for the predicate defined by `def`.
fn falsified(def: &str) -> String {
    let end = def.rfind(" Bool ").expect("a define-fun with range Bool");
    format!("{} Bool false)", &def[..end])
}

#[test]
fn correct_models_are_valid() {
    for case in CASES {
        let text = model_text(case, None);
        assert_eq!(
            check_model(case.file, &text),
            ModelCheck::Valid,
            "{}:\n{text}",
            case.file
        );
    }
}

#[test]
fn a_predicate_replaced_by_false_is_invalid() {
    for case in CASES {
        for (pred, def) in case.good {
            let text = model_text(case, Some((pred, &falsified(def))));
            assert!(
                matches!(check_model(case.file, &text), ModelCheck::Invalid { .. }),
                "{}: `{pred}` := false should be invalid:\n{text}",
                case.file
            );
        }
    }
}

#[test]
fn wrong_invariants_are_invalid() {
    for case in CASES {
        assert!(!case.wrong.is_empty());
        for &(pred, def) in case.wrong {
            let text = model_text(case, Some((pred, def)));
            assert!(
                matches!(check_model(case.file, &text), ModelCheck::Invalid { .. }),
                "{}: should be invalid:\n{text}",
                case.file
            );
        }
    }
}

#[test]
fn quantified_interpretations_are_eliminated_before_checking() {
    let store = TermStore::new();
    let system = load(&store, &data("sat/even_step.smt2"));
    let text = "(define-fun P ((x Int)) Bool (exists ((k Int)) (and (>= k 0) (= x (* 2 k)))))";
    let m = read_model(&store, &system, text).expect("model parses");
    let p = system.pred_ids().next().expect("one predicate");
    assert!(store.has_quantifier(m.get(p).unwrap().body));
    let qf = m.without_quantifiers(&store, Deadline::after(Duration::from_secs(30)));
    assert!(!store.has_quantifier(qf.get(p).unwrap().body));
}

#[test]
fn a_large_quantified_model_prints_back_into_the_same_model() {
    // The printer shares repeated subterms through `let`s in front of the whole term; a shared
    // subterm under `exists` that mentions the bound `k` must not be hoisted out of its scope.
    let store = TermStore::new();
    let system = load(&store, &data("sat/counter.smt2"));
    // Terms whose tree unfolding is large: `v` three times per level.
    let chain = |v: &str| {
        let mut t = format!("(+ {v} 1)");
        for _ in 0..6 {
            t = format!("(ite (> {t} 0) {t} (- {t}))");
        }
        t
    };
    let (on_k, on_x) = (chain("k"), chain("x"));
    let text = format!(
        "(define-fun inv ((x Int)) Bool (exists ((k Int)) \
         (and (= k x) (<= x 10) (>= {on_k} 0) (>= {on_x} 0))))"
    );
    let m = read_model(&store, &system, &text).expect("model parses");
    let printed = m.to_smtlib(&store, &system);
    assert!(
        printed.contains("(let "),
        "large enough to share: {printed}"
    );
    let back = read_model(&store, &system, &printed)
        .unwrap_or_else(|e| panic!("{}\n{printed}", e.render("printed", &printed)));
    let deadline = || Deadline::after(Duration::from_secs(30));
    assert_eq!(
        validate_model(&store, &system, &back, deadline()),
        ModelCheck::Valid
    );
}

#[test]
fn the_empty_model_is_invalid() {
    // Every predicate `false`: the facts fail.
    for case in CASES {
        assert!(
            matches!(check_model(case.file, ""), ModelCheck::Invalid { .. }),
            "{}",
            case.file
        );
    }
}

/// The size function of `L` in `append_lengths.smt2`, as Hornbeam prints it.
const SIZE_OF_L: &str =
    "(define-fun-rec size!L ((x L)) Int (ite ((_ is nil) x) 0 (+ (size!L (tl x)) 1)))";

#[test]
fn models_over_sizes_read_back_and_validate() {
    let good = format!(
        "{SIZE_OF_L}\n\
         (define-fun app ((a L) (b L) (c L)) Bool (= (size!L c) (+ (size!L a) (size!L b))))\n\
         (define-fun len ((l L) (n Int)) Bool (= n (size!L l)))\n"
    );
    assert_eq!(check_model("append_lengths", &good), ModelCheck::Valid);
    // The same shape of model with a wrong invariant is refuted.
    let wrong = good.replace("(+ (size!L a) (size!L b))", "(size!L a)");
    assert!(matches!(
        check_model("append_lengths", &wrong),
        ModelCheck::Invalid { .. }
    ));
}

#[test]
fn a_size_function_that_is_not_the_size_is_refused() {
    let store = TermStore::new();
    let system = load(&store, &data("sat/append_lengths.smt2"));
    let forged =
        "(define-fun-rec size!L ((x L)) Int (ite ((_ is nil) x) 0 (+ (size!L (tl x)) 2)))\n\
                  (define-fun len ((l L) (n Int)) Bool (= n (size!L l)))";
    let e = read_model(&store, &system, forged).unwrap_err();
    assert!(
        e.to_string().contains("not the size function"),
        "{}",
        e.render("model", forged)
    );
    let other = "(define-fun-rec f ((x L)) Int 0)";
    let e = read_model(&store, &system, other).unwrap_err();
    assert!(
        e.to_string().contains("only the size functions"),
        "{}",
        e.render("model", other)
    );
}

fn unsat_files() -> Vec<PathBuf> {
    common::corpus("unsat")
}

/// Runs BMC on a file through the `Engine` trait; the derivation it finds.
fn bmc_derivation(store: &TermStore, system: &System, path: &Path) -> Derivation {
    let cx = Context::new(store, Deadline::after(Duration::from_secs(20)));
    let mut stats = Stats::default();
    match Bmc::default().solve(&cx, system, &mut stats) {
        Answer::Unsat(d) => d,
        other => panic!(
            "{}: BMC answered {} instead of unsat",
            path.display(),
            other.keyword()
        ),
    }
}

/// A different value of the same sort.
fn bump(store: &TermStore, v: &Value) -> Value {
    match v {
        Value::Ctor(c, name, fields) if !fields.is_empty() => {
            let mut fields = fields.clone();
            fields[0] = bump(store, &fields[0]);
            Value::Ctor(*c, name.clone(), fields)
        }
        Value::Ctor(c, ..) => {
            // another constructor of the same datatype, with default fields
            let dt = store.datatype(store.ctor(*c).datatype);
            let other = *dt
                .ctors
                .iter()
                .find(|&&d| d != *c)
                .expect("two constructors");
            let decl = store.ctor(other);
            let fields = decl
                .fields
                .iter()
                .map(|(_, s)| store.default_value(s).expect("a finite value"))
                .collect();
            Value::Ctor(other, decl.name.clone(), fields)
        }
        Value::Bool(b) => Value::Bool(!b),
        Value::Int(i) => Value::Int(i + BigInt::from(1)),
        Value::Real(r) => Value::Real(r + BigRational::from_integer(BigInt::from(1))),
        Value::Array(d, entries) => Value::Array(Box::new(bump(store, d)), entries.clone()),
    }
}

/// The derivation with one premise value changed: the value of the first argument of a body
/// atom, in the first step that has one (it no longer matches the fact its child derived).
fn with_changed_value(store: &TermStore, system: &System, d: &Derivation) -> Option<Derivation> {
    let mut forged = d.clone();
    for node in &mut forged.nodes {
        let clause = system.clause(node.clause);
        if let Some(&v) = clause.body.iter().find_map(|a| a.args.first()) {
            let old = node.assignment.get(&v)?;
            let new = bump(store, old);
            node.assignment.insert(v, new);
            return Some(forged);
        }
    }
    None
}

#[test]
fn bmc_derivations_replay_and_forgeries_do_not() {
    let mut failures = Vec::new();
    for path in unsat_files() {
        let name = path.display().to_string();
        let store = TermStore::new();
        let system = load(&store, &path);
        let d = bmc_derivation(&store, &system, &path);
        let text = d.to_text(&store, &system);
        if let Err(e) = replay_derivation(&store, &system, &d) {
            failures.push(format!(
                "{name}: the BMC derivation does not replay: {e}\n{text}"
            ));
            continue;
        }
        let root = d.nodes.len() - 1;
        assert!(
            system.clause(d.nodes[root].clause).is_query(),
            "{name}: root is not a query"
        );

        let mut forged = Vec::new();
        match with_changed_value(&store, &system, &d) {
            Some(f) => forged.push(("a changed premise value", f)),
            None => failures.push(format!("{name}: no step has a body atom with arguments")),
        }
        if d.nodes[root].children.is_empty() {
            failures.push(format!("{name}: the query step has no premise"));
        } else {
            let mut f = d.clone();
            f.nodes[root].children.pop();
            forged.push(("a dropped premise", f));
        }
        match system.clauses().find(|(_, c)| !c.is_query()) {
            Some((cid, _)) => {
                let mut f = d.clone();
                f.nodes[root].clause = cid;
                forged.push(("a root that is not a query", f));
            }
            None => failures.push(format!("{name}: no non-query clause")),
        }
        let mut f = d.clone();
        f.nodes.truncate(root); // the last remaining step derives a fact, not false
        forged.push(("the query step removed", f));
        if let Some(i) = d.nodes.iter().position(|n| !n.children.is_empty()) {
            let mut f = d.clone();
            f.nodes[i].children[0] = i; // a step cannot be its own premise
            forged.push(("a self-dependent step", f));
        }

        for (what, f) in forged {
            if let Ok(()) = replay_derivation(&store, &system, &f) {
                failures.push(format!(
                    "{name}: a derivation with {what} replays\n{}",
                    f.to_text(&store, &system)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn specific_replay_errors() {
    let path = data("unsat/counter_off_by_one.smt2");
    let store = TermStore::new();
    let system = load(&store, &path);
    let d = bmc_derivation(&store, &system, &path);
    let root = d.nodes.len() - 1;

    assert_eq!(
        replay_derivation(&store, &system, &Derivation::default()),
        Err(ReplayError::Empty)
    );

    let mut f = d.clone();
    f.nodes[root].children.clear();
    assert_eq!(
        replay_derivation(&store, &system, &f),
        Err(ReplayError::Arity(root, 0, 1))
    );

    let mut f = d.clone();
    f.nodes[root].children[0] = root;
    assert_eq!(
        replay_derivation(&store, &system, &f),
        Err(ReplayError::BadChild(root))
    );

    // counter_off_by_one: the fact `x = 0` with x := 1 has a false constraint.
    let mut f = d.clone();
    let first = &mut f.nodes[0];
    assert!(system.clause(first.clause).is_fact());
    for v in first.assignment.values_mut() {
        *v = bump(&store, v);
    }
    assert_eq!(
        replay_derivation(&store, &system, &f),
        Err(ReplayError::ConstraintFalse(0))
    );

    // The root replaced by the fact instance at the end: not a query.
    let mut f = d.clone();
    f.nodes.truncate(1);
    assert_eq!(
        replay_derivation(&store, &system, &f),
        Err(ReplayError::RootNotQuery)
    );
}

/// `check`'s reading of derivations as text: each BMC derivation of `unsat/` printed (as
/// `solve --cex` prints it), read back and completed (the clauses' local variables found by a
/// solver) replays; the same text without its query step, or with a premise dropped, does
/// not. Files whose facts hold arrays or datatypes are refused at the value (not read).
#[test]
fn derivations_read_from_text_replay_and_forgeries_do_not() {
    use hornbeam::syntax::derivation::read_derivation;
    use hornbeam::witness::{check_derivation_text, DerivationCheck};
    let (mut valid, mut refused) = (0, 0);
    let mut failures = Vec::new();
    for path in unsat_files() {
        let name = path.display().to_string();
        let store = TermStore::new();
        let system = load(&store, &path);
        let d = bmc_derivation(&store, &system, &path);
        let text = d.to_text(&store, &system);
        let check = |text: &str| match read_derivation(&system, text) {
            Ok(steps) => Some(check_derivation_text(
                &store,
                &system,
                &steps,
                Deadline::after(Duration::from_secs(20)),
            )),
            Err(_) => None,
        };
        match check(&text) {
            None => refused += 1,
            Some(DerivationCheck::Valid) => valid += 1,
            Some(other) => failures.push(format!("{name}: {other:?}\n{text}")),
        }
        let lines: Vec<&str> = text.lines().collect();
        let n = lines.len();
        // Without the query step (the last before the closing parenthesis).
        let truncated = [&lines[..n - 2], &lines[n - 1..]].concat().join("\n");
        // The query step's `(from ...)` dropped.
        let dropped = text.replacen(
            &lines[n - 2][lines[n - 2].find(" (from").unwrap_or(0)..],
            ")",
            1,
        );
        for (what, forged) in [("no query step", truncated), ("a dropped premise", dropped)] {
            if let Some(DerivationCheck::Valid) = check(&forged) {
                failures.push(format!("{name}: a derivation with {what} checks\n{forged}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        valid >= 8 && refused <= 6,
        "valid {valid}, refused {refused}"
    );
}
