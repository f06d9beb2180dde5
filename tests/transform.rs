//! Preprocessing (`hornbeam::transform`) on tiny inline systems: each transform's output is
//! snapshotted, and its back-translator is checked against the ORIGINAL system — a hand-written
//! model of the transformed system must validate after back-translation (sat cases), and a BMC
//! derivation of the transformed system must replay after back-translation (unsat cases).

use hornbeam::chc::{System, SystemPrinter};
use hornbeam::clock::Deadline;
use hornbeam::engine::{bmc::Bmc, Context, Engine, Stats};
use hornbeam::term::{TermId, TermStore};
use hornbeam::transform::{
    BackTranslator, FlattenRecords, Inline, Pipeline, Preprocess, RemoveDeadArgs, RemoveUseless,
    SplitBooleans, Transform,
};
use hornbeam::witness::{replay_derivation, validate_model, Answer, ModelCheck};
use std::time::Duration;

fn deadline() -> Deadline {
    Deadline::after(Duration::from_secs(60))
}

/// Either one transform or the whole default pipeline.
enum Back {
    One(Box<dyn BackTranslator>),
    All(Pipeline),
}

impl Back {
    fn model(&self, store: &TermStore, m: hornbeam::witness::Model) -> hornbeam::witness::Model {
        match self {
            Back::One(b) => b.model(store, m, deadline()),
            Back::All(p) => p.model(store, m, deadline()),
        }
    }

    fn derivation(
        &self,
        store: &TermStore,
        d: hornbeam::witness::Derivation,
    ) -> hornbeam::witness::Derivation {
        match self {
            Back::One(b) => b.derivation(store, d, deadline()),
            Back::All(p) => p.derivation(store, d, deadline()),
        }
        .expect("the derivation translates back")
    }
}

/// Parses `src` and applies `t` (or the default pipeline when `None`).
fn apply(store: &TermStore, src: &str, t: Option<&dyn Transform>) -> (System, System, Back) {
    let orig = hornbeam::syntax::read_system(store, src).expect("test system parses");
    let (new, back) = match t {
        Some(t) => {
            let (s, b) = t.apply(store, &orig);
            (s, Back::One(b))
        }
        None => {
            let (s, p) = Preprocess::default().run(store, &orig);
            (s, Back::All(p))
        }
    };
    (orig, new, back)
}

/// Sat case: `model` (define-fun text over the transformed system's predicates) must be a
/// model of the transformed system, and its back-translation one of the original. Returns the
/// transformed system's script.
fn sat_case(src: &str, t: Option<&dyn Transform>, model: &str) -> String {
    let store = TermStore::new();
    let (orig, new, back) = apply(&store, src, t);
    let m = hornbeam::witness::read_model(&store, &new, model).expect("test model parses");
    assert_eq!(
        validate_model(&store, &new, &m, deadline()),
        ModelCheck::Valid,
        "model of the transformed system"
    );
    let m = back.model(&store, m);
    assert_eq!(
        validate_model(&store, &orig, &m, deadline()),
        ModelCheck::Valid,
        "back-translated model:\n{}",
        m.to_smtlib(&store, &orig)
    );
    SystemPrinter::new(&store, &new).script()
}

/// Unsat case: BMC must find a derivation of the transformed system, and its back-translation
/// must replay on the original. Returns the transformed system's script.
fn unsat_case(src: &str, t: Option<&dyn Transform>) -> String {
    let store = TermStore::new();
    let (orig, new, back) = apply(&store, src, t);
    let cx = Context::new(&store, deadline());
    let Answer::Unsat(d) = Bmc::default().solve(&cx, &new, &mut Stats::default()) else {
        panic!("BMC finds no derivation of the transformed system")
    };
    replay_derivation(&store, &new, &d)
        .expect("BMC's derivation replays on the transformed system");
    let d = back.derivation(&store, d);
    if let Err(e) = replay_derivation(&store, &orig, &d) {
        panic!(
            "back-translated derivation fails: {e}\n{}",
            d.to_text(&store, &orig)
        );
    }
    SystemPrinter::new(&store, &new).script()
}

/// `orphan` has no fact (unreachable), `sink` is reachable but leads to no query; the clause
/// `orphan → loop` and everything about `sink` go.
const USELESS: &str = r#"
(set-logic HORN)
(declare-fun init (Int) Bool)
(declare-fun loop (Int) Bool)
(declare-fun orphan (Int) Bool)
(declare-fun sink (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (init x))))
(assert (forall ((x Int)) (=> (init x) (loop x))))
(assert (forall ((x Int) (y Int)) (=> (and (loop x) (< x 10) (= y (+ x 1))) (loop y))))
(assert (forall ((x Int)) (=> (orphan x) (loop x))))
(assert (forall ((x Int) (y Int)) (=> (and (loop x) (= y (* 2 x))) (sink y))))
(assert (forall ((x Int)) (=> (and (sink x) (> x 3)) (sink (- x 1)))))
(assert (forall ((x Int)) (=> (and (loop x) (> x LIMIT)) false)))
(check-sat)
"#;

/// A counter `i` up to `n`, with a dead argument `j` doubled on every step.
const DEAD: &str = r#"
(set-logic HORN)
(declare-fun inv (Int Int Int) Bool)
(assert (forall ((i Int) (n Int) (j Int)) (=> (and (= i 0) (>= n 0) (= j 7)) (inv i n j))))
(assert (forall ((i Int) (n Int) (j Int) (i2 Int) (j2 Int))
  (=> (and (inv i n j) (< i n) (= i2 (+ i 1)) (= j2 (* 2 j))) (inv i2 n j2))))
(assert (forall ((i Int) (n Int) (j Int)) (=> (and (inv i n j) QUERY) false)))
(check-sat)
"#;

/// No loop at all: facts `a`, `b` defined twice from `a`, `c` using `b` twice (non-linear):
/// everything is inlined into the query (4 clauses, no predicate left).
const ACYCLIC: &str = r#"
(set-logic HORN)
(declare-fun a (Int) Bool)
(declare-fun b (Int) Bool)
(declare-fun c (Int Int) Bool)
(assert (forall ((x Int)) (=> (and (>= x 0) (<= x 3)) (a x))))
(assert (forall ((x Int) (y Int)) (=> (and (a x) (= y (+ x 1))) (b y))))
(assert (forall ((x Int) (y Int)) (=> (and (a x) (= y (- x 1))) (b y))))
(assert (forall ((x Int) (y Int)) (=> (and (b x) (b y)) (c x y))))
(assert (forall ((x Int) (y Int)) (=> (and (c x y) (> (+ x y) LIMIT)) false)))
(check-sat)
"#;

/// A loop with head `h` and a middle block `mid` (not a head): `mid` is inlined, `h` stays.
/// `h` takes the values 0, 2, ..., 10.
const LOOP: &str = r#"
(set-logic HORN)
(declare-fun h (Int) Bool)
(declare-fun mid (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (h x))))
(assert (forall ((x Int) (y Int)) (=> (and (h x) (< x 10) (= y (+ x 1))) (mid y))))
(assert (forall ((x Int) (y Int)) (=> (and (mid x) (= y (+ x 1))) (h y))))
(assert (forall ((x Int)) (=> (and (h x) (> x LIMIT)) false)))
(check-sat)
"#;

/// Everything at once: an unreachable predicate, a loop with a dead argument `k` and a
/// non-head block, a non-linear join of two copies of the loop's exit.
const ALL: &str = r#"
(set-logic HORN)
(declare-fun never (Int) Bool)
(declare-fun head (Int Int) Bool)
(declare-fun body (Int Int) Bool)
(declare-fun exit (Int) Bool)
(assert (forall ((x Int) (k Int)) (=> (and (= x 0) (= k 5)) (head x k))))
(assert (forall ((x Int) (k Int)) (=> (never x) (head x k))))
(assert (forall ((x Int) (k Int) (y Int) (k2 Int))
  (=> (and (head x k) (< x 4) (= y (+ x 2)) (= k2 (+ k x))) (body y k2))))
(assert (forall ((x Int) (k Int)) (=> (body x k) (head x k))))
(assert (forall ((x Int) (k Int)) (=> (and (head x k) (>= x 4)) (exit x))))
(assert (forall ((x Int) (y Int)) (=> (and (exit x) (exit y) (> (+ x y) LIMIT)) false)))
(check-sat)
"#;

/// A transition system whose control state is two Boolean arguments `(a, b)`: location 00
/// counts `x` to 10, moves to 10 copying `x` into `y`, then to 01. Location 11 is unreachable.
const CONTROL: &str = r#"
(set-logic HORN)
(declare-fun st (Bool Bool Int Int) Bool)
(assert (forall ((a Bool) (b Bool) (x Int) (y Int))
  (=> (and (not a) (not b) (= x 0) (= y 0)) (st a b x y))))
(assert (forall ((a Bool) (b Bool) (x Int) (y Int) (a2 Bool) (b2 Bool) (x2 Int) (y2 Int))
  (=> (and (st a b x y)
           (or (and (not a) (not b) (< x 10) (not a2) (not b2) (= x2 (+ x 1)) (= y2 y))
               (and (not a) (not b) (>= x 10) a2 (not b2) (= x2 x) (= y2 x))
               (and a (not b) (not a2) b2 (= x2 x) (= y2 y))))
      (st a2 b2 x2 y2))))
(assert (forall ((a Bool) (b Bool) (x Int) (y Int))
  (=> (and (st a b x y) (not a) b (not (= y LIMIT))) false)))
(check-sat)
"#;

#[test]
fn split_bools_sat() {
    // One predicate per reachable location, each with a conjunctive invariant.
    let src = CONTROL.replace("LIMIT", "10");
    let model = "(define-fun st@00 ((x Int) (y Int)) Bool (and (>= x 0) (<= x 10) (= y 0)))
                 (define-fun st@10 ((x Int) (y Int)) Bool (and (= x 10) (= y 10)))
                 (define-fun st@01 ((x Int) (y Int)) Bool (and (= x 10) (= y 10)))";
    let split = SplitBooleans::default();
    insta::assert_snapshot!("split_bools", sat_case(&src, Some(&split), model));
}

#[test]
fn split_bools_unsat() {
    unsat_case(
        &CONTROL.replace("LIMIT", "9"),
        Some(&SplitBooleans::default()),
    );
}

#[test]
fn split_bools_keeps_predicates_with_too_many_valuations() {
    let store = TermStore::new();
    let split = SplitBooleans {
        max_valuations: 2,
        ..SplitBooleans::default()
    };
    let (orig, new, _) = apply(&store, &CONTROL.replace("LIMIT", "10"), Some(&split));
    assert_eq!(
        SystemPrinter::new(&store, &new).script(),
        SystemPrinter::new(&store, &orig).script()
    );
}

/// A record (one constructor) holding a record and a Boolean, as Rust's `&mut` is encoded:
/// built, read through selectors, compared whole, tested, chosen by `ite`. The invariant is
/// `cur = k`.
const RECORDS: &str = r#"
(set-logic HORN)
(declare-datatypes ((Mut 0) (Pair 0))
  (((mut (cur Int) (ret Int)))
   ((pair (fst Mut) (flag Bool)))))
(declare-fun inv (Pair Int) Bool)
(assert (forall ((p Pair)) (=> (= p (pair (mut 0 7) true)) (inv p 0))))
(assert (forall ((p Pair) (q Pair) (k Int))
  (=> (and (inv p k) (< k 10) ((_ is pair) p)
           (= q (ite (flag p) (pair (mut (+ (cur (fst p)) 1) (ret (fst p))) true) p)))
      (inv q (+ k 1)))))
(assert (forall ((p Pair) (k Int)) (=> (and (inv p k) QUERY) false)))
(check-sat)
"#;

/// A list is recursive: it stays a datatype, and the system is left as it is.
const LIST: &str = r#"
(set-logic HORN)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun p (L) Bool)
(assert (forall ((l L)) (=> (= l nil) (p l))))
(assert (forall ((l L)) (=> (and (p l) ((_ is cons) l)) false)))
(check-sat)
"#;

#[test]
fn flatten_sat() {
    let src = RECORDS.replace("QUERY", "(not (= (cur (fst p)) k))");
    let model = "(define-fun inv ((c Int) (r Int) (f Bool) (k Int)) Bool
                   (and (= c k) (= r 7) f (<= k 10)))";
    insta::assert_snapshot!("flatten", sat_case(&src, Some(&FlattenRecords), model));
}

#[test]
fn flatten_unsat() {
    let query = "(and (= (cur (fst p)) 6) (distinct p (pair (mut 0 7) true)))";
    unsat_case(&RECORDS.replace("QUERY", query), Some(&FlattenRecords));
    unsat_case(&RECORDS.replace("QUERY", query), None);
}

#[test]
fn flatten_leaves_recursive_datatypes() {
    let store = TermStore::new();
    let (orig, new, _) = apply(&store, LIST, Some(&FlattenRecords));
    assert_eq!(
        SystemPrinter::new(&store, &orig).script(),
        SystemPrinter::new(&store, &new).script()
    );
}

#[test]
fn useless_sat() {
    let src = USELESS.replace("LIMIT", "10");
    let model = "(define-fun init ((x Int)) Bool (= x 0))
                 (define-fun loop ((x Int)) Bool (and (>= x 0) (<= x 10)))";
    insta::assert_snapshot!("useless", sat_case(&src, Some(&RemoveUseless), model));
}

#[test]
fn useless_unsat() {
    unsat_case(&USELESS.replace("LIMIT", "5"), Some(&RemoveUseless));
}

#[test]
fn dead_args_sat() {
    let src = DEAD.replace("QUERY", "(> i n)");
    let model = "(define-fun inv ((i Int) (n Int)) Bool (and (>= i 0) (<= i n)))";
    insta::assert_snapshot!("dead_args", sat_case(&src, Some(&RemoveDeadArgs), model));
}

#[test]
fn dead_args_unsat() {
    unsat_case(&DEAD.replace("QUERY", "(>= i 3)"), Some(&RemoveDeadArgs));
}

#[test]
fn inline_acyclic_sat() {
    let src = ACYCLIC.replace("LIMIT", "8");
    insta::assert_snapshot!(
        "inline_acyclic",
        sat_case(&src, Some(&Inline::default()), "")
    );
}

#[test]
fn inline_acyclic_unsat() {
    unsat_case(&ACYCLIC.replace("LIMIT", "7"), Some(&Inline::default()));
}

#[test]
fn inline_loop_sat() {
    let src = LOOP.replace("LIMIT", "11");
    let model = "(define-fun h ((x Int)) Bool (and (>= x 0) (<= x 11)))";
    insta::assert_snapshot!(
        "inline_loop",
        sat_case(&src, Some(&Inline::default()), model)
    );
}

#[test]
fn inline_loop_unsat() {
    unsat_case(&LOOP.replace("LIMIT", "9"), Some(&Inline::default()));
}

/// `b` is defined from `a` through a local (`x < y`) that the one-point rule leaves.
const LOCAL: &str = r#"
(set-logic HORN)
(declare-fun a (Int) Bool)
(declare-fun b (Int) Bool)
(assert (forall ((x Int)) (=> (and (>= x 0) (<= x 3)) (a x))))
(assert (forall ((x Int) (y Int)) (=> (and (a x) (> y x)) (b y))))
(assert (forall ((y Int)) (=> (and (b y) (< y 1)) false)))
(check-sat)
"#;

/// Inlines every predicate of `src` (eliminating locals with quantifier elimination or not),
/// checks that the back-translated empty model validates against `src`, and returns its
/// interpretation of `b`.
fn inlined_model_of_b(store: &TermStore, src: &str, eliminate_locals: bool) -> TermId {
    let inline = Inline {
        eliminate_locals,
        ..Inline::default()
    };
    let (orig, new, back) = apply(store, src, Some(&inline));
    assert_eq!(new.pred_ids().count(), 0, "everything is inlined");
    let m = hornbeam::witness::read_model(store, &new, "").expect("empty model");
    let m = back.model(store, m);
    assert_eq!(
        validate_model(store, &orig, &m, deadline()),
        ModelCheck::Valid
    );
    let b = orig.pred_by_name("b").expect("b is declared");
    m.get(b).expect("b is interpreted").body
}

/// Models of inlined predicates have their definitions' locals eliminated by default (for
/// reading); without `eliminate_locals` they stay existentially quantified, and the model
/// still validates against the original system.
#[test]
fn inline_eliminates_locals_only_when_asked() {
    for eliminate in [true, false] {
        let store = TermStore::new();
        let body = inlined_model_of_b(&store, LOCAL, eliminate);
        assert_eq!(
            store.has_quantifier(body),
            !eliminate,
            "eliminate: {eliminate}"
        );
    }
}

/// `b` is defined from `a` through C-style flags: `f` and `g` occur only in `0 = f` and
/// `0 = g`, so either equality can be true or false whatever `x` is.
const FLAGS: &str = r#"
(set-logic HORN)
(declare-fun a (Int) Bool)
(declare-fun b (Int) Bool)
(assert (forall ((x Int)) (=> (and (>= x 0) (<= x 3)) (a x))))
(assert (forall ((x Int) (f Int) (g Int))
  (=> (and (a x) (= (= 0 f) (> x 2)) (not (= (= 0 g) (< x 1))) (not (= 0 f)) (= 0 g)) (b x))))
(assert (forall ((x Int)) (=> (and (b x) (> x 2)) false)))
(check-sat)
"#;

/// Flags are eliminated without quantifier elimination (Z3's `qe` took 2-9 ms per
/// definition for them): even with `eliminate_locals` off the model has no quantifier, and it
/// still validates.
#[test]
fn inline_eliminates_flags_without_a_solver() {
    let store = TermStore::new();
    let body = inlined_model_of_b(&store, FLAGS, false);
    assert!(!store.has_quantifier(body), "{}", store.display(body));
}

#[test]
fn inline_respects_the_bound() {
    // b has 2 definitions used twice in one clause: 4 resolvents > max(1, 2 + 1).
    let store = TermStore::new();
    let src = ACYCLIC.replace("LIMIT", "8");
    let (_, new, _) = apply(
        &store,
        &src,
        Some(&Inline {
            max_product: 1,
            ..Inline::default()
        }),
    );
    assert!(
        new.pred_by_name("b").is_some(),
        "b is not inlined under a bound of 1"
    );
    assert!(
        new.pred_by_name("a").is_none(),
        "a (one definition) is inlined"
    );
}

#[test]
fn pipeline_sat() {
    let src = ALL.replace("LIMIT", "12");
    // After preprocessing only the loop head `head` (its dead `k` dropped) remains.
    let model = "(define-fun head ((x Int)) Bool (and (>= x 0) (<= x 5)))";
    insta::assert_snapshot!("pipeline", sat_case(&src, None, model));
}

#[test]
fn pipeline_unsat() {
    unsat_case(&ALL.replace("LIMIT", "7"), None);
}

#[test]
fn pipeline_stats() {
    let store = TermStore::new();
    let orig = hornbeam::syntax::read_system(&store, &ALL.replace("LIMIT", "7")).unwrap();
    let (_, p) = Preprocess::default().run(&store, &orig);
    let mut j = p.to_json();
    for s in j["steps"].as_array_mut().unwrap() {
        s["ms"] = 0.into();
    }
    insta::assert_snapshot!("pipeline_stats", serde_json::to_string_pretty(&j).unwrap());
}

/// The trivial candidates "every predicate true" and "every predicate false" of a transformed
/// system translate back to well-formed models of the original (each one validates or is
/// rejected with a clause, never an error).
#[test]
fn trivial_candidates_translate_back() {
    for src in [
        USELESS.replace("LIMIT", "10"),
        DEAD.replace("QUERY", "(> i n)"),
        ALL.replace("LIMIT", "12"),
    ] {
        let store = TermStore::new();
        let (orig, new, back) = apply(&store, &src, None);
        for value in ["true", "false"] {
            let text: String = new
                .pred_ids()
                .map(|p| {
                    let params: Vec<String> = new
                        .pred(p)
                        .sorts
                        .iter()
                        .enumerate()
                        .map(|(k, s)| format!("(x{k} {s})"))
                        .collect();
                    format!(
                        "(define-fun {} ({}) Bool {value})\n",
                        new.pred(p).name,
                        params.join(" ")
                    )
                })
                .collect();
            let m = hornbeam::witness::read_model(&store, &new, &text).unwrap();
            let m = back.model(&store, m);
            let check = validate_model(&store, &orig, &m, deadline());
            assert!(!matches!(check, ModelCheck::Unknown(_)), "{check:?}");
            // Printing gives define-fun lines that read back for the original system.
            let again = hornbeam::witness::read_model(&store, &orig, &m.to_smtlib(&store, &orig));
            assert!(again.is_ok(), "{:?}", again.err());
        }
    }
}
