//! Systems, models, derivations and terms moved to a fresh store on another thread and back
//! (`term::Exported`, `chc::ExportedSystem`, `witness::{ExportedModel, ExportedDerivation}`):
//! every system of `tests/data/{sat,unsat}` (and of the CEGAR and PDR corpora) prints the same
//! over there and comes back equal; the
//! model `solve` finds for each sat file still validates on both sides, and the BMC derivation
//! of each unsat file still replays on both sides; a 200,000-deep term crosses without
//! recursion, and a DAG of 60 doubling levels crosses in linear size.

mod common;

use common::corpus;
use hornbeam::chc::{System, SystemPrinter};
use hornbeam::clock::Deadline;
use hornbeam::engine::driver::{solve, SolveOptions};
use hornbeam::engine::schedule::{EngineKind, Selection};
use hornbeam::syntax::read_system;
use hornbeam::term::{Op, Term, TermId, TermStore, VarMap};
use hornbeam::witness::read_model;
use hornbeam::witness::{
    replay_derivation, validate_model, Answer, ExportedModel, ModelCheck, ModelFormat,
};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

fn name(path: &Path) -> String {
    let folder = path.parent().and_then(Path::file_name).expect("a folder");
    let file = path.file_stem().expect("a file name");
    format!("{}/{}", folder.to_string_lossy(), file.to_string_lossy())
}

fn read(path: &Path) -> (TermStore, System) {
    let src = std::fs::read_to_string(path).expect("readable test file");
    let store = TermStore::new();
    let system =
        read_system(&store, &src).unwrap_or_else(|e| panic!("{}", e.render(&name(path), &src)));
    (store, system)
}

/// The sat and unsat corpora (with the datatype and array files), and the engines' own.
fn all_files() -> Vec<PathBuf> {
    let folders = [
        "sat",
        "unsat",
        "cegar/sat",
        "cegar/unsat",
        "pdr/sat",
        "pdr/unsat",
    ];
    folders.iter().flat_map(|f| corpus(f)).collect()
}

/// The tests assert answers: work bounds, not time slices.
fn options(engine: Selection) -> SolveOptions {
    SolveOptions {
        engine,
        deterministic: true,
        timeout: Some(Duration::from_secs(30)),
        ..SolveOptions::default()
    }
}

#[test]
fn systems_print_the_same_in_a_fresh_store_on_another_thread_and_come_back_equal() {
    for path in all_files() {
        let name = name(&path);
        let (store, system) = read(&path);
        let printed = SystemPrinter::new(&store, &system).script();
        let exported = system.export(&store);
        let (there, vars, back) = thread::spawn(move || {
            let store = TermStore::new();
            let (system, vars) = exported.import(&store).expect("a fresh store takes it");
            let printed = SystemPrinter::new(&store, &system).script();
            (printed, vars, system.export(&store))
        })
        .join()
        .expect("the other thread does not panic");
        assert_eq!(there, printed, "{name}: printed in the other store");
        // Once more into a third, fresh store: still the same text.
        let third = TermStore::new();
        let (again, _) = back.import(&third).expect("a fresh store takes it");
        assert_eq!(
            SystemPrinter::new(&third, &again).script(),
            printed,
            "{name}"
        );
        // Back home with the original variables: the very same system, no new variable.
        let num_vars = store.num_vars();
        let (home, _) = back
            .import_with(&store, &vars.inverse())
            .expect("the source store takes its own system back");
        assert_eq!(
            home, system,
            "{name}: the same clauses, term ids and variables"
        );
        assert_eq!(store.num_vars(), num_vars, "{name}");
    }
}

#[test]
fn models_still_validate_on_another_thread_and_back_home() {
    let mut solved = 0;
    for path in corpus("sat") {
        let name = name(&path);
        let (store, system) = read(&path);
        let Answer::Sat(model) = solve(&store, &system, &options(Selection::Auto)).answer else {
            continue;
        };
        solved += 1;
        let (exported_system, exported_model) = (system.export(&store), model.export(&store));
        let (check, back, vars) = thread::spawn(move || {
            let store = TermStore::new();
            let (system, _) = exported_system.import(&store).expect("fresh store");
            let (model, vars) = exported_model.import(&store).expect("fresh store");
            let check = validate_model(&store, &system, &model, Deadline::none());
            (check, model.export(&store), vars)
        })
        .join()
        .expect("the other thread does not panic");
        assert_eq!(check, ModelCheck::Valid, "{name}: on the other thread");
        let (home, _) = back.import_with(&store, &vars.inverse()).expect("home");
        assert_eq!(home, model, "{name}: the same model back home");
        // And imported as a stranger (fresh parameters), it still validates.
        let (stranger, _) = back.import(&store).expect("home");
        assert_eq!(
            validate_model(&store, &system, &stranger, Deadline::none()),
            ModelCheck::Valid,
            "{name}: with fresh parameters"
        );
    }
    assert!(solved >= 10, "only {solved} sat files solved");
}

#[test]
fn derivations_still_replay_on_another_thread_and_back_home() {
    for path in corpus("unsat") {
        let name = name(&path);
        let (store, system) = read(&path);
        let Answer::Unsat(derivation) =
            solve(&store, &system, &options(Selection::only(EngineKind::Bmc))).answer
        else {
            panic!("{name}: BMC finds no derivation");
        };
        let (exported_system, exported) = (system.export(&store), derivation.export(&store));
        let (replay, back, vars) = thread::spawn(move || {
            let store = TermStore::new();
            let (system, vars) = exported_system.import(&store).expect("fresh store");
            let (derivation, _) = exported.import(&store, &vars).expect("fresh store");
            let replay = replay_derivation(&store, &system, &derivation);
            (replay, derivation.export(&store), vars)
        })
        .join()
        .expect("the other thread does not panic");
        assert_eq!(replay, Ok(()), "{name}: on the other thread");
        let (home, _) = back.import(&store, &vars.inverse()).expect("home");
        assert_eq!(home, derivation, "{name}: the same derivation back home");
        assert_eq!(replay_derivation(&store, &system, &home), Ok(()), "{name}");
    }
}

/// Sends `roots` to a fresh store on another thread (a 2 MiB stack: recursion would overflow
/// on deep terms) and back; returns them as imported home, and the size of the snapshot.
fn round_trip(store: &TermStore, roots: &[TermId]) -> (Vec<TermId>, usize) {
    let exported = store.export(roots);
    let size = exported.num_terms();
    let (back, vars): (_, VarMap) = thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let store = TermStore::new();
            let imported = store.import(&exported).expect("fresh store");
            assert_eq!(store.len(), exported.num_terms(), "one term per node");
            (store.export(&imported.roots), imported.vars)
        })
        .expect("a thread")
        .join()
        .expect("the other thread does not panic");
    let home = store.import_with(&back, &vars.inverse()).expect("home");
    (home.roots, size)
}

#[test]
fn a_term_200000_deep_crosses_without_recursion() {
    let store = TermStore::new();
    let x = store.var(store.new_var("x", hornbeam::term::Sort::Int));
    let one = store.int(1);
    let mut t = x;
    for _ in 0..200_000 {
        t = store.intern(Term::App(Op::Add, Box::new([t, one])));
    }
    let (back, size) = round_trip(&store, &[t, x]);
    assert_eq!(back, vec![t, x]);
    assert_eq!(size, 200_002);
}

#[test]
fn sharing_is_kept_a_dag_of_60_doubling_levels_exports_in_linear_size() {
    let store = TermStore::new();
    let x = store.var(store.new_var("x", hornbeam::term::Sort::Int));
    let mut t = x;
    for _ in 0..60 {
        t = store.intern(Term::App(Op::Add, Box::new([t, t])));
    }
    let (back, size) = round_trip(&store, &[t]);
    assert_eq!(back, vec![t]);
    assert_eq!(size, 61, "x and one sum per level, not 2^60 nodes");
}

#[test]
fn a_quantified_datatype_model_prints_the_same_on_another_thread() {
    let path = common::data_dir("sat").join("list_length.smt2");
    let (store, system) = read(&path);
    let text = "(define-fun len ((l IntList) (n Int)) Bool (and (>= n 0) (exists ((k Int)) \
                (and (= k n) (or ((_ is nil) l) (>= (+ (head l) k) (head l)))))))";
    let model = read_model(&store, &system, text).expect("well-formed");
    let printed = model.to_text(&store, &system, ModelFormat::Lines);
    let exported: (_, ExportedModel) = (system.export(&store), model.export(&store));
    let (there, check) = thread::spawn(move || {
        let store = TermStore::new();
        let (system, _) = exported.0.import(&store).expect("fresh store");
        let (model, _) = exported.1.import(&store).expect("fresh store");
        let check = validate_model(&store, &system, &model, Deadline::none());
        (model.to_text(&store, &system, ModelFormat::Lines), check)
    })
    .join()
    .expect("the other thread does not panic");
    assert_eq!(check, ModelCheck::Valid);
    assert_eq!(there, printed);
    insta::assert_snapshot!(there);
}
