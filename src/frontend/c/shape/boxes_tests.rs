//! Unit tests of back-links: folding at normalisation, unfolding on access and on free, and
//! inclusion with back-links as symbols.

use super::super::super::ast::Span;
use super::super::closed::BoxLib;
use super::super::exec::{post, Fault};
use super::super::pir::{Op, PointerProgram, Storage, StructType};
use super::super::ta::UNKNOWN;
use super::*;

/// `struct T { struct T *next, *prev; }` is type 0: field 0 `next`, field 1 `prev`.
const NEXT: usize = 0;
const PREV: usize = 1;

/// A pointer program with type 0 and `vars` variables.
fn program(vars: usize) -> PointerProgram {
    let t = StructType {
        name: "struct T".into(),
        pointers: vec![("next".into(), 0), ("prev".into(), 0)],
        storage: Storage::Heap,
        origin: 0,
        data: vec![],
    };
    PointerProgram::of_types(vec![t], vars)
}

/// The post of `op` from `f` (no boxes: none of these forests has a closed structure).
fn run_op(f: &Forest, op: &Op, prog: &PointerProgram) -> Result<Vec<Forest>, Fault> {
    post(f, op, Span::default(), prog, &mut BoxLib::new())
}

/// A node of type 0 with these two fields.
fn node(next: Leaf, prev: Leaf) -> TreeAut {
    TreeAut::node(0, UNKNOWN, &[next, prev])
}

/// The doubly linked list of exactly `n` nodes as one tree: each `prev` below the first a
/// back-link along `next`.
fn dll(n: usize) -> TreeAut {
    let mut a = TreeAut {
        rules: vec![],
        root: 0,
    };
    let null = a.add_state(vec![Rule::leaf(Leaf::Null)]);
    let back = a.add_state(vec![Rule::leaf(Leaf::Back(0, NEXT))]);
    let mut below = null;
    for i in (0..n).rev() {
        let prev = if i == 0 { null } else { back };
        below = a.add_state(vec![Rule {
            sym: Symbol::Node(0, UNKNOWN),
            kids: vec![below, prev],
        }]);
    }
    a.root = below;
    assert!(a.trim());
    a
}

/// How many rules of the automaton are back-links.
fn backs(a: &TreeAut) -> usize {
    a.rules
        .iter()
        .flatten()
        .filter(|r| matches!(r.sym, Symbol::Leaf(Leaf::Back(..))))
        .count()
}

/// `x` to the first of three nodes linked both ways, as three components.
fn three_nodes() -> Forest {
    Forest {
        vars: vec![Val::Comp(0)],
        comps: vec![
            node(Leaf::Root(1), Leaf::Null),
            node(Leaf::Root(2), Leaf::Root(0)),
            node(Leaf::Null, Leaf::Root(1)),
        ],
        ints: vec![],
    }
}

#[test]
fn a_dll_folds_into_one_tree() {
    let mut f = three_nodes();
    assert_eq!(f.normalize(false, &mut BoxLib::new(), &[]), Ok(true));
    assert_eq!(f.comps.len(), 1);
    assert_eq!(backs(&f.comps[0]), 2, "both prev fields below the first");
    // Exactly the list of three: neither more nor less.
    assert!(f.comps[0].includes(&dll(3)) && dll(3).includes(&f.comps[0]));
}

#[test]
fn a_prev_that_is_no_predecessor_does_not_fold() {
    // The second node's prev points to the third node (which `y` holds), not to the first.
    let mut f = Forest {
        vars: vec![Val::Comp(0), Val::Comp(2)],
        comps: vec![
            node(Leaf::Root(1), Leaf::Null),
            node(Leaf::Root(2), Leaf::Root(2)),
            node(Leaf::Null, Leaf::Null),
        ],
        ints: vec![],
    };
    assert_eq!(f.normalize(false, &mut BoxLib::new(), &[]), Ok(true));
    assert!(f.comps.iter().all(|a| backs(a) == 0));
    // Nor does a prev that some other node's next also reaches.
    let mut g = Forest {
        vars: vec![Val::Comp(0), Val::Comp(1)],
        comps: vec![
            node(Leaf::Root(2), Leaf::Null),
            node(Leaf::Root(2), Leaf::Null),
            node(Leaf::Null, Leaf::Root(0)),
        ],
        ints: vec![],
    };
    assert_eq!(g.normalize(false, &mut BoxLib::new(), &[]), Ok(true));
    assert!(g.comps.iter().all(|a| backs(a) == 0));
}

#[test]
fn inclusion_treats_back_links_as_symbols() {
    let abs = dll(2).union(&dll(3)).abstract_height(1, false);
    for n in 2..7 {
        assert!(abs.includes(&dll(n)), "length {n}");
    }
    // The abstraction keeps the first node (prev null) apart from the others.
    let mut wrong = dll(3);
    for rs in &mut wrong.rules {
        for r in rs.iter_mut() {
            if r.sym == Symbol::Leaf(Leaf::Back(0, NEXT)) {
                r.sym = Symbol::Leaf(Leaf::Null);
            }
        }
    }
    assert!(!abs.includes(&wrong));
    assert!(
        !abs.includes(&dll(1)),
        "a single node is no list of two or more"
    );
}

/// `a` to the first node, `b` to the second, whose prev is a back-link; `t` undefined.
fn two_held() -> Forest {
    Forest {
        vars: vec![Val::Comp(0), Val::Comp(1), Val::Undef],
        comps: vec![
            node(Leaf::Root(1), Leaf::Null),
            node(Leaf::Null, Leaf::Back(0, NEXT)),
        ],
        ints: vec![],
    }
}

#[test]
fn reading_a_back_link_gives_its_node() {
    let prog = program(3);
    let out = run_op(&two_held(), &Op::Load(2, 1, PREV), &prog).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].vars[2], out[0].vars[0]);
}

#[test]
fn freeing_a_predecessor_leaves_its_back_link_dangling() {
    let prog = program(3);
    let freed = run_op(&two_held(), &Op::Free(0), &prog).unwrap();
    assert_eq!(freed.len(), 1);
    let read = run_op(&freed[0], &Op::Load(2, 1, PREV), &prog).unwrap();
    assert_eq!(read[0].vars[2], Val::Undef);
    assert!(matches!(
        run_op(&read[0], &Op::Check(2), &prog),
        Err(Fault::Deref(_))
    ));
}

#[test]
fn relinking_makes_back_links_explicit() {
    let prog = program(3);
    // a->next = NULL: the second node's prev still points to the first, explicitly now.
    let cut = run_op(
        &two_held(),
        &Op::Store(0, NEXT, super::super::pir::Operand::Null),
        &prog,
    )
    .unwrap();
    assert_eq!(cut.len(), 1);
    let read = run_op(&cut[0], &Op::Load(2, 1, PREV), &prog).unwrap();
    assert_eq!(read[0].vars[2], read[0].vars[0]);
    assert!(cut[0].comps.iter().all(|a| backs(a) == 0));
}

#[test]
fn a_back_link_into_a_tree_cuts_the_tree() {
    // x -> n1 -> n2 (one tree), y -> n3 whose prev is n2, inside the tree.
    let mut tree = TreeAut {
        rules: vec![],
        root: 0,
    };
    let null = tree.add_state(vec![Rule::leaf(Leaf::Null)]);
    let back = tree.add_state(vec![Rule::leaf(Leaf::Back(0, NEXT))]);
    let to_y = tree.add_state(vec![Rule::leaf(Leaf::Root(1))]);
    let n2 = tree.add_state(vec![Rule {
        sym: Symbol::Node(0, UNKNOWN),
        kids: vec![to_y, back],
    }]);
    tree.root = tree.add_state(vec![Rule {
        sym: Symbol::Node(0, UNKNOWN),
        kids: vec![n2, null],
    }]);
    assert!(tree.trim());
    let f = Forest {
        vars: vec![Val::Comp(0), Val::Comp(1), Val::Undef],
        comps: vec![tree, node(Leaf::Null, Leaf::Back(0, NEXT))],
        ints: vec![],
    };
    assert_eq!(pred_root(&f, 1, 0, NEXT), None);
    // Reading y->prev cuts n2 out of x's tree: three components, t on n2, whose next is y
    // and whose prev is x's node.
    let prog = program(3);
    let out = run_op(&f, &Op::Load(2, 1, PREV), &prog).unwrap();
    assert_eq!(out.len(), 1);
    let g = &out[0];
    assert_eq!(g.comps.len(), 3);
    let Val::Comp(t) = g.vars[2] else {
        panic!("{g:?}")
    };
    assert!(g.vars[0] != g.vars[2] && g.vars[1] != g.vars[2]);
    let next = run_op(g, &Op::Load(2, 2, NEXT), &prog).unwrap();
    assert_eq!(next[0].vars[2], next[0].vars[1]);
    let prev = run_op(g, &Op::Load(2, 2, PREV), &prog).unwrap();
    assert_eq!(prev[0].vars[2], prev[0].vars[0]);
    assert!(t < g.comps.len());
}
