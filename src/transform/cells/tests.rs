use super::*;
use crate::chc::PredId;
use crate::witness::{validate_model, ModelCheck};

/// A system of the text's clauses.
fn system(store: &TermStore, text: &str) -> System {
    crate::syntax::read_system(store, text).expect("the test system parses")
}

const FILL: &str = "(set-logic HORN)
(declare-fun fill ((Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int)) (fill a 0 n)))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (< i n) (= b (store a i 7))) (fill b (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (x Int) (n Int) (i Int))
  (=> (and (fill a i n) (>= x 0) (< x i) (not (= (select a x) 7))) false)))
(check-sat)";

#[test]
fn systems_without_arrays_of_scalars_are_left_alone() {
    let store = TermStore::new();
    let scalars = system(
        &store,
        "(declare-fun p (Int) Bool) (assert (forall ((x Int)) (p x))) (check-sat)",
    );
    assert!(CellAbstraction.apply(&store, &scalars).is_none());
    let nested = system(
        &store,
        "(declare-fun p ((Array Int (Array Int Int))) Bool)
         (assert (forall ((m (Array Int (Array Int Int)))) (p m))) (check-sat)",
    );
    assert!(CellAbstraction.apply(&store, &nested).is_none());
}

#[test]
fn every_array_becomes_a_cell_and_no_clause_keeps_an_array() {
    let store = TermStore::new();
    let given = system(&store, FILL);
    let (cells, _) = CellAbstraction.apply(&store, &given).expect("an array");
    assert_eq!(
        cells.pred(PredId(0)).sorts,
        vec![Sort::Int, Sort::Int, Sort::Int, Sort::Int]
    );
    for (id, c) in cells.clauses() {
        for x in c.vars(&store) {
            assert!(
                !matches!(store.var_sort(x), Sort::Array(..)),
                "clause {}: {} is an array in {}",
                id.0,
                store.var_name(x),
                store.display(c.constraint)
            );
        }
    }
    // The step's head cell is written when it is the loop's index, kept otherwise.
    let step = store.display(cells.clause(crate::chc::ClauseId(1)).constraint);
    assert!(step.contains("(ite (= b!cell i) 7 "), "{step}");
}

#[test]
fn a_model_of_the_cells_is_one_quantified_over_indices() {
    let store = TermStore::new();
    let given = system(&store, FILL);
    let (cells, back) = CellAbstraction.apply(&store, &given).expect("an array");
    // fill#(k, v, i, n) = (k < 0 ∨ k ≥ i ∨ v = 7) ∧ i ≥ 0.
    let params = cells.fresh_params(&store, PredId(0));
    let (k, v, i) = (
        store.var(params[0]),
        store.var(params[1]),
        store.var(params[2]),
    );
    let zero = store.int(0);
    let body = store.and([
        store.or([store.lt(k, zero), store.ge(k, i), store.eq(v, store.int(7))]),
        store.ge(i, zero),
    ]);
    let mut model = Model::new();
    model.set(PredId(0), Interp { params, body });
    let cells_check = validate_model(&store, &cells, &model, Deadline::none());
    assert_eq!(cells_check, ModelCheck::Valid);
    let back = back.model(&store, model, Deadline::none());
    let interp = back.get(PredId(0)).expect("fill is interpreted");
    // One quantifier per lemma, over the cells it reads: `(∀k. k < 0 ∨ ...) ∧ i ≥ 0`.
    let lemmas = store.conjuncts(interp.body);
    assert_eq!(lemmas.len(), 2, "{}", store.display(interp.body));
    assert!(store.has_quantifier(lemmas[0]));
    assert!(!store.has_quantifier(lemmas[1]));
    assert_eq!(
        validate_model(&store, &given, &back, Deadline::none()),
        ModelCheck::Valid
    );
}

#[test]
fn derivations_of_the_cells_are_none_of_the_system() {
    let store = TermStore::new();
    let given = system(&store, FILL);
    let (_, back) = CellAbstraction.apply(&store, &given).expect("an array");
    let d = crate::witness::Derivation { nodes: Vec::new() };
    assert_eq!(
        back.derivation(&store, d, Deadline::none()),
        Err(BackError::Abstraction("cells"))
    );
}

#[test]
fn templates_name_the_ranges_of_each_cell() {
    let store = TermStore::new();
    let given = system(&store, FILL);
    let (cells, _) = CellAbstraction.apply(&store, &given).expect("an array");
    let templates = CellAbstraction.templates(&store, &given, &cells, &[]);
    let t = templates.get(PredId(0)).expect("fill has templates");
    let printed: Vec<String> = store
        .conjuncts(t.body)
        .into_iter()
        .map(|c| store.display(c))
        .collect();
    // Cell (x0, x1), scalars x2 (the loop's index) and x3: from 0 up to the index, 7.
    let wanted = "(or (< |fill#0| 0) (>= |fill#0| |fill#2|) (= |fill#1| 7))";
    assert!(printed.iter().any(|p| p == wanted), "{printed:#?}");
    assert!(
        printed.len() <= templates::MAX_TEMPLATES,
        "{}",
        printed.len()
    );
}

#[test]
fn more_instances_of_an_atom_share_no_argument() {
    // The step reads `a` at the loop's index besides the head's cell: two instances of `find`,
    // whose scalar arguments must be distinct variables (the normal form; `add_clause` checks
    // it in debug builds, and failed here before).
    let store = TermStore::new();
    let given = system(
        &store,
        "(declare-fun find ((Array Int Int) Int Int) Bool)
         (assert (forall ((a (Array Int Int)) (e Int)) (find a 0 e)))
         (assert (forall ((a (Array Int Int)) (i Int) (e Int))
           (=> (and (find a i e) (not (= (select a i) e))) (find a (+ i 1) e))))
         (check-sat)",
    );
    let (cells, _) = CellAbstraction.apply(&store, &given).expect("an array");
    let step = cells.clause(crate::chc::ClauseId(1));
    assert_eq!(
        step.body.len(),
        2,
        "one instance at the head's cell, one at i"
    );
    let args: Vec<VarId> = step
        .body
        .iter()
        .chain(step.head_atom())
        .flat_map(|a| a.args.iter().copied())
        .collect();
    let distinct: BTreeSet<VarId> = args.iter().copied().collect();
    assert_eq!(distinct.len(), args.len());
}

#[test]
fn an_array_is_not_a_version_of_the_arrays_its_values_read() {
    // `c = store(b, i, a[i])`: `c` is made from `b` only. Its body cell is read at `c`'s
    // head index (not at `a`'s), and `a` once more at `i`, the index the written value reads.
    let store = TermStore::new();
    let given = system(
        &store,
        "(declare-fun p ((Array Int Int) (Array Int Int) Int) Bool)
         (assert (forall ((a (Array Int Int)) (b (Array Int Int)) (c (Array Int Int)) (i Int))
           (=> (and (p a b i) (= c (store b i (select a i)))) (p a c (+ i 1)))))
         (check-sat)",
    );
    let (cells, _) = CellAbstraction.apply(&store, &given).expect("an array");
    let step = cells.clause(crate::chc::ClauseId(0));
    let text = store.display(step.constraint).to_string();
    assert!(text.contains("(= b!cell c!cell)"), "{text}");
    assert!(text.contains("!cell!1 i)"), "{text}");
    assert_eq!(step.body.len(), 2, "{text}");
}

#[test]
fn a_state_projects_to_its_cells_at_the_indices_it_names() {
    use num_bigint::BigInt;
    use std::collections::BTreeMap;
    let store = TermStore::new();
    let given = system(
        &store,
        "(declare-fun p ((Array Int Int) Int) Bool) (check-sat)",
    );
    let int = |n: i64| Value::Int(BigInt::from(n));
    let array = Value::Array(Box::new(int(0)), BTreeMap::from([(int(3), int(7))]));
    let projected = CellAbstraction.project_states(&given, &[vec![vec![array, int(5)]]]);
    // At the stored index 3, at the scalar 5, and below them all (2).
    assert_eq!(
        projected[0],
        vec![
            vec![int(2), int(0), int(5)],
            vec![int(3), int(7), int(5)],
            vec![int(5), int(0), int(5)],
        ]
    );
}

#[test]
fn the_cells_of_a_predicate_share_the_templates() {
    // Many scalars and three arrays: each cell gets its simple ranges before any gets more.
    let store = TermStore::new();
    let scalars = (0..12).map(|_| "Int").collect::<Vec<_>>().join(" ");
    let given = system(
        &store,
        &format!(
            "(declare-fun p ((Array Int Int) (Array Int Int) (Array Int Int) {scalars}) Bool)
             (assert (forall ((a (Array Int Int))) (=> (= (select a 0) 5) false)))
             (check-sat)"
        ),
    );
    let (cells, _) = CellAbstraction.apply(&store, &given).expect("arrays");
    let templates = CellAbstraction.templates(&store, &given, &cells, &[]);
    let interp = templates.get(PredId(0)).expect("templates of p");
    let conjuncts = match &store.get(interp.body).term {
        Term::App(Op::And, args) => args.to_vec(),
        _ => vec![interp.body],
    };
    let values = [interp.params[1], interp.params[3], interp.params[5]];
    for v in values {
        // A range of this cell alone (not a copy between two cells).
        let own = conjuncts.iter().any(|&c| {
            let free = store.free_vars(c);
            values.iter().all(|w| free.contains(w) == (*w == v))
        });
        assert!(own, "no range of cell {}", store.var_name(v));
    }
}
