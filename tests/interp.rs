//! Farkas interpolation (`hornbeam::interp`): for unsatisfiable pairs A ∧ B the interpolant is
//! implied by A, inconsistent with B and over the shared variables — over the rationals and over
//! the integers (where the rational relaxation may be satisfiable and must be repaired).

use hornbeam::clock::Deadline;
use hornbeam::interp::{select_cubes, tree_interpolate, Interpolator};
use hornbeam::smt::{check_sat, SatResult};
use hornbeam::term::{Sort, TermId, TermStore, VarId};
use std::collections::BTreeSet;

fn vars(st: &TermStore, names: &[&str], sort: Sort) -> Vec<TermId> {
    names
        .iter()
        .map(|n| st.var(st.new_var(n, sort.clone())))
        .collect()
}

/// Checks the three interpolant properties independently of the interpolator.
fn assert_interpolant(st: &TermStore, a: &[TermId], b: &[TermId], i: TermId) {
    let fa = st.and(a.iter().copied());
    let fb = st.and(b.iter().copied());
    assert_eq!(
        check_sat(st, st.and([fa, st.not(i)]), Deadline::none()),
        SatResult::Unsat,
        "A does not imply I"
    );
    assert_eq!(
        check_sat(st, st.and([fb, i]), Deadline::none()),
        SatResult::Unsat,
        "I is consistent with B"
    );
    let shared: BTreeSet<VarId> = st
        .free_vars(fa)
        .intersection(&st.free_vars(fb))
        .copied()
        .collect();
    assert!(
        st.free_vars(i).is_subset(&shared),
        "I mentions a non-shared variable"
    );
}

fn run(st: &TermStore, a: &[TermId], b: &[TermId]) -> TermId {
    let mut itp = Interpolator::new(st, Deadline::none());
    let i = itp.interpolate(a, b).expect("an interpolant").term;
    assert_interpolant(st, a, b, i);
    i
}

#[test]
fn rational_chain() {
    let st = TermStore::new();
    let v = vars(&st, &["x", "y", "z"], Sort::Real);
    let (x, y, z) = (v[0], v[1], v[2]);
    // A: x <= y, y <= z ; B: z < x
    let a = [st.le(x, y), st.le(y, z)];
    let b = [st.lt(z, x)];
    run(&st, &a, &b);
}

#[test]
fn rational_strict_on_a_side() {
    let st = TermStore::new();
    let v = vars(&st, &["x", "y"], Sort::Real);
    let zero = st.numeral(0, &Sort::Real);
    // A: x < 0 (needs a strict interpolant); B: x >= 0 with an extra local variable
    let a = [st.lt(v[0], zero)];
    let b = [st.ge(v[0], v[1]), st.ge(v[1], zero)];
    run(&st, &a, &b);
}

#[test]
fn equalities_give_equality_interpolants() {
    let st = TermStore::new();
    let v = vars(&st, &["x", "a", "y", "b", "z", "y1", "z1"], Sort::Int);
    let (x, a, y, b, z, y1, z1) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    let one = st.int(1);
    let zero = st.int(0);
    // A: x = a, y1 = b, z1 = 0, y = y1 + 1, z = z1 + 1  (one loop iteration of the paper's Fig. 2)
    let a_side = [
        st.eq(x, a),
        st.eq(y1, b),
        st.eq(z1, zero),
        st.eq(y, st.add([y1, one])),
        st.eq(z, st.add([z1, one])),
    ];
    // B: y - 1 and z - 1 then z = 0, a = b, x < y
    let b_side = [
        st.eq(st.sub(z, one), zero),
        st.eq(a, b),
        st.lt(x, st.sub(y, one)),
    ];
    run(&st, &a_side, &b_side);
}

#[test]
fn integer_only_unsat() {
    let st = TermStore::new();
    let v = vars(&st, &["x", "y"], Sort::Int);
    let (x, y) = (v[0], v[1]);
    // A: 2x = y ; B: y = 2z + 1 — no integer solution, rationally satisfiable
    let z = st.var(st.new_var("z", Sort::Int));
    let a = [st.eq(st.mul([st.int(2), x]), y)];
    let b = [st.eq(y, st.add([st.mul([st.int(2), z]), st.int(1)]))];
    // Farkas over tightened atoms cannot catch parity: must be rejected or correct, never wrong.
    let mut itp = Interpolator::new(&st, Deadline::none());
    if let Some(i) = itp.interpolate(&a, &b) {
        assert_interpolant(&st, &a, &b, i.term);
    }
    // 0 < x < 1 over the integers: strict tightening repairs it
    let a = [st.lt(st.int(0), x)];
    let b = [st.lt(x, st.int(1))];
    run(&st, &a, &b);
    // 2x <= 1 and 2x >= 1 (x integer): gcd tightening repairs it
    let two_x = st.mul([st.int(2), x]);
    let a = [st.le(two_x, st.int(1)), st.ge(y, x)];
    let b = [st.ge(two_x, st.int(1))];
    run(&st, &a, &b);
}

#[test]
fn satisfiable_pairs_are_rejected() {
    let st = TermStore::new();
    let v = vars(&st, &["x", "y"], Sort::Int);
    let a = [st.le(v[0], v[1])];
    let b = [st.le(v[1], v[0])];
    let mut itp = Interpolator::new(&st, Deadline::none());
    assert!(itp.interpolate(&a, &b).is_none());
}

#[test]
fn prefers_the_small_generalising_interpolant() {
    // A: x = 0, y = 0 followed by 5 steps x+1, y+1 ; B: x = y + 1 at the end.
    let st = TermStore::new();
    let mut xs = vars(&st, &["x0"], Sort::Int);
    let mut ys = vars(&st, &["y0"], Sort::Int);
    let mut a = vec![st.eq(xs[0], st.int(0)), st.eq(ys[0], st.int(0))];
    for i in 1..=5 {
        xs.push(st.var(st.new_var(&format!("x{i}"), Sort::Int)));
        ys.push(st.var(st.new_var(&format!("y{i}"), Sort::Int)));
        a.push(st.eq(xs[i], st.add([xs[i - 1], st.int(1)])));
        a.push(st.eq(ys[i], st.add([ys[i - 1], st.int(1)])));
    }
    let b = [st.eq(xs[5], st.add([ys[5], st.int(1)]))];
    let i = run(&st, &a, &b);
    // x5 - y5 = 0 (size 2), not x5 = 5 ∧ ... (not expressible) nor x5 <= 5 forms
    assert_eq!(st.free_vars(i).len(), 2);
}

#[test]
fn disjunctive_path_via_cubes_and_tree() {
    // x0 = 0 ; x1 = ite(c, x0 + 1, x0 + 2) ; x1 > 2 ∨ x1 < 0 — a path of three constraints.
    let st = TermStore::new();
    let v = vars(&st, &["x0", "x1"], Sort::Int);
    let c = st.var(st.new_var("c", Sort::Bool));
    let steps = [
        st.eq(v[0], st.int(0)),
        st.eq(
            v[1],
            st.ite(c, st.add([v[0], st.int(1)]), st.add([v[0], st.int(2)])),
        ),
        st.or([st.gt(v[1], st.int(2)), st.lt(v[1], st.int(0))]),
    ];
    let cubes = select_cubes(&st, Deadline::none(), &steps).expect("cubes");
    let mut itp = Interpolator::new(&st, Deadline::none());
    let children = vec![vec![], vec![0], vec![1]];
    let its = tree_interpolate(&mut itp, &children, &cubes).expect("tree interpolants");
    assert_eq!(its.len(), 2);
    // the sequence property on the cubes
    let c0 = st.and(cubes[0].iter().copied());
    assert_eq!(
        check_sat(&st, st.and([c0, st.not(its[0])]), Deadline::none()),
        SatResult::Unsat
    );
    let c1 = st.and(cubes[1].iter().copied());
    assert_eq!(
        check_sat(&st, st.and([its[0], c1, st.not(its[1])]), Deadline::none()),
        SatResult::Unsat
    );
    let c2 = st.and(cubes[2].iter().copied());
    assert_eq!(
        check_sat(&st, st.and([its[1], c2]), Deadline::none()),
        SatResult::Unsat
    );
}

fn run_formulas(st: &TermStore, a: &[TermId], b: &[TermId]) -> TermId {
    let mut itp = Interpolator::new(st, Deadline::none());
    let i = itp.interpolate_formulas(a, b).expect("an interpolant");
    assert_interpolant(st, a, b, i);
    i
}

#[test]
fn disjunctive_formulas_on_both_sides() {
    // A: y = ite(x >= 0, x + 1, 1 - x) (so y >= 1) ; B: y <= 0 ∨ y = z ∧ z < 1
    let st = TermStore::new();
    let v = vars(&st, &["x", "y", "z"], Sort::Int);
    let (x, y, z) = (v[0], v[1], v[2]);
    let a = [st.eq(
        y,
        st.ite(
            st.ge(x, st.int(0)),
            st.add([x, st.int(1)]),
            st.sub(st.int(1), x),
        ),
    )];
    let b = [st.or([
        st.le(y, st.int(0)),
        st.and([st.eq(y, z), st.lt(z, st.int(1))]),
    ])];
    let i = run_formulas(&st, &a, &b);
    assert_eq!(st.free_vars(i).len(), 1, "over y only");
}

#[test]
fn boolean_literals_over_shared_variables() {
    // A: p ∧ x = 1 ; B: (¬p ∨ x = 2): the interpolant needs the Boolean p
    let st = TermStore::new();
    let x = vars(&st, &["x"], Sort::Int)[0];
    let p = st.var(st.new_var("p", Sort::Bool));
    let a = [p, st.eq(x, st.int(1))];
    let b = [st.or([st.not(p), st.eq(x, st.int(2))])];
    run_formulas(&st, &a, &b);
}

#[test]
fn mod_and_div_by_constants_with_their_definitions() {
    // A: x = 2k (k local) ; B: x mod 2 = 1. Over the integers unsat; the interpolant can only
    // speak of x (mod, or a parity fact), and is checked like every other.
    let st = TermStore::new();
    let v = vars(&st, &["x", "k"], Sort::Int);
    let (x, k) = (v[0], v[1]);
    let two = st.int(2);
    let a = [st.eq(x, st.mul([two, k]))];
    let b = [st.eq(st.app(hornbeam::term::Op::Mod, vec![x, two]), st.int(1))];
    let mut itp = Interpolator::new(&st, Deadline::none());
    if let Some(i) = itp.interpolate_formulas(&a, &b) {
        assert_interpolant(&st, &a, &b, i);
    }
    // A: x mod 3 = 0 ∧ y = x ; B: y = 3j + 1 (j local): reading mod as a variable with
    // x = 3q + r, 0 <= r < 3 lets Farkas/cubes relate y to div/mod of x.
    let y = vars(&st, &["y"], Sort::Int)[0];
    let j = vars(&st, &["j"], Sort::Int)[0];
    let three = st.int(3);
    let a = [
        st.eq(st.app(hornbeam::term::Op::Mod, vec![x, three]), st.int(0)),
        st.eq(y, x),
    ];
    let b = [st.eq(y, st.add([st.mul([three, j]), st.int(1)]))];
    let mut itp = Interpolator::new(&st, Deadline::none());
    if let Some(i) = itp.interpolate_formulas(&a, &b) {
        assert_interpolant(&st, &a, &b, i);
    }
    // A: x div 4 >= 3 ; B: x <= 11 — linear once div is read with its definition
    let a = [st.ge(
        st.app(hornbeam::term::Op::IntDiv, vec![x, st.int(4)]),
        st.int(3),
    )];
    let b = [st.le(x, st.int(11))];
    run_formulas(&st, &a, &b);
}

#[test]
fn non_linear_subterms_are_opaque() {
    // A: z = x*y + 1 ; B: z <= x*y: the product, shared, is read as one variable
    let st = TermStore::new();
    let v = vars(&st, &["x", "y", "z"], Sort::Int);
    let (x, y, z) = (v[0], v[1], v[2]);
    let xy = st.mul([x, y]);
    let a = [st.eq(z, st.add([xy, st.int(1)]))];
    let b = [st.le(z, xy)];
    run_formulas(&st, &a, &b);
}
