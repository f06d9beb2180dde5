//! The gallery of rule files (`rules/gallery/`): each run by `hornbeam analyze --rules` on a
//! small program or clause system, its findings held by an inline snapshot (the dead-store
//! rule's SARIF log checked too).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs hornbeam in `dir` (messages name files as they are given).
fn hornbeam_in(dir: &Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("hornbeam runs")
}

fn scratch(tag: &str) -> PathBuf {
    common::scratch("gallery", tag)
}

fn gallery(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules/gallery")
        .join(name)
}

/// Runs `analyze --rules` with the gallery's `rule` on `file` in `dir`; what it prints.
fn findings(dir: &Path, rule: &str, file: &str) -> String {
    let out = hornbeam_in(
        dir,
        &[
            "analyze".as_ref(),
            "--rules".as_ref(),
            gallery(rule).as_os_str(),
            file.as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_dead_store_rule_reports_at_lines_and_writes_sarif() {
    let dir = scratch("dead-stores");
    let sarif = dir.join("out.sarif");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c");
    let out = hornbeam_in(
        &examples,
        &[
            "analyze".as_ref(),
            "--rules".as_ref(),
            gallery("c_dead_stores.dl").as_os_str(),
            "--sarif".as_ref(),
            sarif.as_os_str(),
            "stores.c".as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout), @r"
    stores.c:10:7: warning: `unused` is assigned a value that is never read [dead-store]
    stores.c:15:3: warning: `sum` is assigned a value that is never read [dead-store]
    ");
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "hornbeam");
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "dead-store");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let region = &results[0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(10), Some(7))
    );
    assert_eq!(results[1]["level"], "warning");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_uninitialised_read_rule_follows_paths_from_declarations() {
    // `sum` is declared without a value and assigned on one branch only: the read in the loop
    // may see no value; its later reads follow `sum = -1` on every path.
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c");
    insta::assert_snapshot!(findings(&examples, "c_uninitialised_reads.dl", "stores.c"), @r"
    stores.c:12:5: warning: `sum` may be read before it is assigned [uninitialised-read]
    ");
}

#[test]
fn the_useless_predicate_rule_names_predicates() {
    let dir = scratch("useless");
    let file = dir.join("useless.smt2");
    std::fs::write(
        &file,
        "(set-logic HORN)\n(declare-fun inv (Int) Bool)\n(declare-fun never (Int) Bool)\n\
         (declare-fun side (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (inv x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))\n\
         (assert (forall ((x Int)) (=> (inv x) (side x))))\n\
         (assert (forall ((x Int)) (=> (never x) (inv x))))\n\
         (assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))\n(check-sat)\n",
    )
    .unwrap();
    insta::assert_snapshot!(findings(&dir, "chc_useless_predicates.dl", "useless.smt2"), @r"
    useless.smt2:3:14: note: `never` is derivable from no fact [unreachable-predicate]
    useless.smt2:4:14: note: `side` cannot reach a query [cannot-reach-query]
    ");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_argument_rules_find_constant_and_duplicated_arguments() {
    let dir = scratch("arguments");
    let file = dir.join("args.smt2");
    // k is 5 throughout, b is a copy of a, x varies.
    std::fs::write(
        &file,
        "(set-logic HORN)\n(declare-fun inv (Int Int Int Int) Bool)\n\
         (assert (forall ((x Int) (k Int) (a Int) (b Int))\n\
           (=> (and (= x 0) (= k 5) (= a 1) (= b 1)) (inv x k a b))))\n\
         (assert (forall ((x Int) (k Int) (a Int) (b Int) (x2 Int) (a2 Int) (b2 Int))\n\
           (=> (and (inv x k a b) (= x2 (+ x 1)) (= a2 (+ a x)) (= b2 a2)) (inv x2 k a2 b2))))\n\
         (assert (forall ((x Int) (k Int) (a Int) (b Int)) (=> (and (inv x k a b) (< a 0)) false)))\n\
         (check-sat)\n",
    )
    .unwrap();
    insta::assert_snapshot!(findings(&dir, "chc_constant_arguments.dl", "args.smt2"), @r"
    args.smt2: note: argument 1 of `inv` is always 5 [constant-argument]
    args.smt2: note: arguments 2 and 3 of `inv` are always equal [duplicated-argument]
    ");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cone_of_influence_rule_names_the_clauses_outside_it() {
    let dir = scratch("cone");
    let file = dir.join("cone.smt2");
    std::fs::write(
        &file,
        "(set-logic HORN)\n(declare-fun inv (Int) Bool)\n(declare-fun side (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (inv x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))\n\
         (assert (forall ((x Int)) (=> (inv x) (side x))))\n\
         (assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))\n(check-sat)\n",
    )
    .unwrap();
    insta::assert_snapshot!(findings(&dir, "chc_cone_of_influence.dl", "cone.smt2"), @r"
    # cone(c: number): 3 tuple(s)
    0
    1
    3
    cone.smt2:6:9: note: clause 2 (deriving `side`) cannot take part in a derivation of false [outside-cone]
    ");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_null_dereference_rule_reports_pointers_without_targets() {
    let dir = scratch("null");
    // `q` is null throughout (the test before its dereference does not matter to the
    // flow-insensitive sets); `p` points to `a` or `b`.
    std::fs::write(
        dir.join("p.c"),
        "int main(void) {\n  int a = 0, b = 0;\n  int *p = &a;\n  int *q = 0;\n  \
         if (a) p = &b;\n  *p = 1;\n  if (q) *q = 2;\n  return a;\n}\n",
    )
    .unwrap();
    insta::assert_snapshot!(findings(&dir, "c_null_derefs.dl", "p.c"), @r"
    p.c:7:10: warning: dereference of a pointer that is never given an address (null, or from outside) [null-dereference]
    ");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tests/data/gallery`, the programs of the rules that need more than a few lines.
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gallery")
}

#[test]
fn the_unreachable_code_rule_reports_the_first_statement_after_each_jump() {
    // After `return 10;` (the rest of `clamp` after the if-else is the same stretch), after
    // `continue;`, and after `goto out;` (up to the label, which the jump reaches).
    insta::assert_snapshot!(findings(&data(), "c_unreachable_code.dl", "branches.c"), @r"
    branches.c:10:5: warning: this statement of `clamp` is never executed: no path from its entry reaches it [unreachable-code]
    branches.c:29:5: warning: this statement of `main` is never executed: no path from its entry reaches it [unreachable-code]
    branches.c:35:3: warning: this statement of `main` is never executed: no path from its entry reaches it [unreachable-code]
    ");
}

#[test]
fn the_constant_condition_rule_skips_loop_idioms_and_assumptions() {
    // `sizeof(int) < 2` and `0` are constant; `while (1)`, the `while (0)` of SWAP and
    // `__VERIFIER_assume(1)` are not reported.
    insta::assert_snapshot!(findings(&data(), "c_constant_conditions.dl", "branches.c"), @r"
    branches.c:22:7: warning: this condition is always false [constant-condition]
    branches.c:31:7: warning: this condition is always false [constant-condition]
    ");
}
