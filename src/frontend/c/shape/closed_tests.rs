//! Unit tests of closed boxes: packing at normalisation, unpacking on access, and the
//! faults a dropped box must still show.

use super::super::super::ast::Span;
use super::super::exec::{post, Fault};
use super::super::pir::{Ending, Op, Operand, PointerProgram, Storage, StructType};
use super::super::ta::{Rule, UNKNOWN};
use super::*;

/// `struct T { struct T *next; }` is type 0; `struct H { struct H *next; struct T *head; }`
/// type 1, its nodes living in `holder`.
const HEAD: usize = 1;

/// A pointer program with types 0 and 1 and `vars` variables.
fn program(vars: usize, holder: Storage) -> PointerProgram {
    let t = StructType {
        name: "struct T".into(),
        pointers: vec![("next".into(), 0)],
        storage: Storage::Heap,
        origin: 0,
        data: vec![],
    };
    let h = StructType {
        name: "struct H".into(),
        pointers: vec![("next".into(), 1), ("head".into(), 0)],
        storage: holder,
        origin: 1,
        data: vec![],
    };
    PointerProgram::of_types(vec![t, h], vars)
}

/// `x` (variable 0) to an `H` whose `head` reaches a circular list of two `T`s, as three
/// components: the list's first node is a cut-point (its holder and the last node point to
/// it).
fn holder_of_a_cycle() -> Forest {
    Forest {
        vars: vec![Val::Comp(0), Val::Undef],
        comps: vec![
            TreeAut::node(1, UNKNOWN, &[Leaf::Null, Leaf::Root(1)]),
            TreeAut::node(0, UNKNOWN, &[Leaf::Root(2)]),
            TreeAut::node(0, UNKNOWN, &[Leaf::Root(1)]),
        ],
        ints: vec![],
    }
}

/// Whether some rule of the forest's components is the leaf `l`.
fn has(f: &Forest, l: Leaf) -> bool {
    f.comps
        .iter()
        .any(|a| a.rules.iter().flatten().any(|r| r.sym == Symbol::Leaf(l)))
}

/// The forest normalised (garbage is a leak) with `lib`.
fn normal(mut f: Forest, lib: &mut BoxLib) -> Forest {
    assert_eq!(f.normalize(false, lib, &[]), Ok(true));
    f
}

#[test]
fn a_circular_list_below_a_node_is_boxed_once() {
    let mut lib = BoxLib::new();
    let f = normal(holder_of_a_cycle(), &mut lib);
    assert_eq!(f.comps.len(), 1, "{f:?}");
    assert_eq!(lib.len(), 1);
    assert!(has(&f, Leaf::Boxed(0)));
    // The box holds the cycle: two nodes, the second back at the first.
    let b = &lib.get(0)[0];
    let second = TreeAut {
        rules: vec![
            vec![Rule {
                sym: Symbol::Node(0, UNKNOWN),
                kids: vec![1],
            }],
            vec![Rule {
                sym: Symbol::Node(0, UNKNOWN),
                kids: vec![2],
            }],
            vec![Rule::leaf(Leaf::Root(0))],
        ],
        root: 0,
    };
    assert!(b.includes(&second) && second.includes(b), "{b:?}");
    // The same structure again names the same box.
    let g = normal(holder_of_a_cycle(), &mut lib);
    assert_eq!((lib.len(), &g), (1, &f));
}

#[test]
fn no_box_where_a_variable_points_or_two_pointers_reach() {
    let mut lib = BoxLib::new();
    let mut f = holder_of_a_cycle();
    f.vars[1] = Val::Comp(1);
    let f = normal(f, &mut lib);
    assert!(lib.is_empty() && f.comps.len() == 2, "{f:?}");
    // A second holder of the same list.
    let mut g = holder_of_a_cycle();
    g.vars[1] = Val::Comp(3);
    g.comps
        .push(TreeAut::node(1, UNKNOWN, &[Leaf::Null, Leaf::Root(1)]));
    let g = normal(g, &mut lib);
    assert!(lib.is_empty() && g.comps.len() == 3, "{g:?}");
}

#[test]
fn a_boxed_field_is_unpacked_when_loaded_and_packed_again_after() {
    let prog = program(2, Storage::Heap);
    let mut lib = BoxLib::new();
    let f = normal(holder_of_a_cycle(), &mut lib);
    let out = post(&f, &Op::Load(1, 0, HEAD), Span::default(), &prog, &mut lib).unwrap();
    assert_eq!(out.len(), 1);
    let g = &out[0];
    assert_eq!(g.vars[1], Val::Comp(1));
    assert!(!has(g, Leaf::Boxed(0)) && has(g, Leaf::Root(1)), "{g:?}");
    // The list's first node is a cut-point again: its holder and the list refer to it.
    let back = post(g, &Op::Kill(vec![1]), Span::default(), &prog, &mut lib).unwrap();
    assert_eq!((back.len(), lib.len()), (1, 1));
    assert_eq!(back[0], f);
}

#[test]
fn a_box_dropped_by_a_store_or_a_free_is_a_leak() {
    let prog = program(2, Storage::Heap);
    let mut lib = BoxLib::new();
    let f = normal(holder_of_a_cycle(), &mut lib);
    let store = Op::Store(0, HEAD, Operand::Null);
    assert_eq!(
        post(&f, &store, Span::default(), &prog, &mut lib),
        Err(Fault::Leak(Span::default()))
    );
    assert_eq!(
        post(&f, &Op::Free(0), Span::default(), &prog, &mut lib),
        Err(Fault::Leak(Span::default()))
    );
}

#[test]
fn blocks_in_a_box_are_left_at_the_end() {
    // The holder is a struct variable (no block): only the box holds blocks.
    let prog = program(2, Storage::Variable);
    let mut lib = BoxLib::new();
    let f = normal(holder_of_a_cycle(), &mut lib);
    assert!(has(&f, Leaf::Boxed(0)));
    assert_eq!(
        post(
            &f,
            &Op::Exit(Ending::Abort),
            Span::default(),
            &prog,
            &mut lib
        ),
        Err(Fault::End(Span::default()))
    );
}
