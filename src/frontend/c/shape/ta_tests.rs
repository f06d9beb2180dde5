//! Unit tests of tree-automata inclusion and abstraction.

use super::*;

/// A singly linked list of exactly `n` nodes (type 0, one pointer field) ending in `end`.
fn list(n: usize, end: Leaf) -> TreeAut {
    let mut a = TreeAut {
        rules: vec![],
        root: 0,
    };
    for i in 0..n {
        a.add_state(vec![Rule {
            sym: Symbol::Node(0, UNKNOWN),
            kids: vec![i + 1],
        }]);
    }
    a.add_state(vec![Rule::leaf(end)]);
    assert!(a.trim());
    a
}

/// Appends `b`'s states to `a`; returns the offset of `b`'s states.
fn append(a: &mut TreeAut, b: &TreeAut) -> usize {
    let off = a.rules.len();
    a.rules.extend(b.rules.iter().map(|rs| {
        rs.iter()
            .map(|x| Rule {
                sym: x.sym,
                kids: x.kids.iter().map(|k| k + off).collect(),
            })
            .collect::<Vec<_>>()
    }));
    off
}

/// A binary tree node (type 1, two pointer fields) over two subtrees' automata.
fn tree_of(l: &TreeAut, r: &TreeAut) -> TreeAut {
    let mut a = TreeAut {
        rules: vec![],
        root: 0,
    };
    let lo = append(&mut a, l);
    let ro = append(&mut a, r);
    a.root = a.add_state(vec![Rule {
        sym: Symbol::Node(1, UNKNOWN),
        kids: vec![l.root + lo, r.root + ro],
    }]);
    assert!(a.trim());
    a
}

#[test]
fn inclusion_of_finite_lists() {
    let l2 = list(2, Leaf::Null);
    let l3 = list(3, Leaf::Null);
    assert!(l2.includes(&l2));
    assert!(!l2.includes(&l3));
    assert!(!l3.includes(&l2));
    let u = l2.union(&l3);
    assert!(u.includes(&l2) && u.includes(&l3));
    assert!(!l2.includes(&u));
    assert!(!u.includes(&list(4, Leaf::Null)));
    // Same shape, another leaf.
    assert!(!l2.includes(&list(2, Leaf::Undef)));
}

#[test]
fn inclusion_in_automata_of_more_than_128_states() {
    // Sets of the larger automaton's states are then ordered sets, not bit sets.
    let (l150, l151) = (list(150, Leaf::Null), list(151, Leaf::Null));
    let u = l150.union(&l151);
    assert!(u.rules.len() > 128);
    assert!(u.includes(&l150) && u.includes(&l151));
    assert!(!u.includes(&list(152, Leaf::Null)));
    assert!(!u.includes(&list(150, Leaf::Undef)));
    // A small automaton does not include the large one.
    assert!(!list(2, Leaf::Null).includes(&u));
}

#[test]
fn abstraction_folds_a_list_into_a_segment() {
    let l3 = list(3, Leaf::Null);
    let a = l3.abstract_height(1, false);
    // Every list of at least one node ending in null, and nothing else.
    for n in 1..8 {
        assert!(a.includes(&list(n, Leaf::Null)), "length {n}");
        assert!(!a.includes(&list(n, Leaf::Undef)), "length {n}");
    }
    assert!(a.includes(&l3.union(&list(6, Leaf::Null))));
    assert!(!l3.includes(&a));
    // Fewer states than the list had.
    assert!(a.rules.len() < l3.rules.len());
}

#[test]
fn abstraction_can_keep_the_root_apart() {
    // Merged with the nodes below it, the root generalises to lists of any length; kept
    // apart, to lists of at least two nodes (the root and one or more below).
    let l3 = list(3, Leaf::Null);
    let a = l3.abstract_height(1, true);
    assert!(!a.includes(&list(1, Leaf::Null)));
    for n in 2..8 {
        assert!(a.includes(&list(n, Leaf::Null)), "length {n}");
    }
    assert!(l3.abstract_height(1, false).includes(&list(1, Leaf::Null)));
}

#[test]
fn abstraction_keeps_signatures_apart() {
    // A list ending in a reference to component 0 and the null-terminated one do not mix:
    // merging would forget how often the component is referenced.
    let seg = list(3, Leaf::Root(0));
    let a = seg.abstract_height(1, false);
    let sig = a.signatures().expect("consistent");
    assert_eq!(sig[a.root], vec![(0, 1)]);
    assert!(a.includes(&list(5, Leaf::Root(0))));
    assert!(!a.includes(&list(5, Leaf::Null)));
}

#[test]
fn abstraction_of_trees() {
    let leaf = TreeAut::node(1, UNKNOWN, &[Leaf::Null, Leaf::Null]);
    let t1 = tree_of(&leaf, &leaf);
    let t2 = tree_of(&t1, &leaf);
    let t3 = tree_of(&t2, &t1);
    let a = t3.abstract_height(2, false);
    assert!(a.includes(&t3) && a.includes(&t2) && a.includes(&t1));
    assert!(!t2.includes(&t3));
    assert!(t3.includes(&t3) && !t3.includes(&t1));
}

#[test]
fn trim_detects_empty_languages() {
    // A state whose only rule needs itself accepts no finite tree.
    let mut a = TreeAut {
        rules: vec![vec![Rule {
            sym: Symbol::Node(0, UNKNOWN),
            kids: vec![0],
        }]],
        root: 0,
    };
    assert!(!a.trim());
}

#[test]
fn signatures_find_inconsistent_states() {
    let mut a = list(2, Leaf::Root(3));
    let end = a.add_state(vec![Rule::leaf(Leaf::Null)]);
    a.rules[a.root].push(Rule {
        sym: Symbol::Node(0, UNKNOWN),
        kids: vec![end],
    });
    assert!(a.signatures().is_none());
    let mut b = list(2, Leaf::Root(3));
    b.substitute(3, &list(1, Leaf::Null));
    assert!(b.includes(&list(3, Leaf::Null)) && list(3, Leaf::Null).includes(&b));
}

/// A list node (type 0) over null or over an undefined pointer: one root rule over a state
/// with both leaves (`merged`), or two root rules with one leaf each.
fn one_of_two_leaves(merged: bool) -> TreeAut {
    let node = |k| Rule {
        sym: Symbol::Node(0, UNKNOWN),
        kids: vec![k],
    };
    let mut a = TreeAut {
        rules: vec![],
        root: 0,
    };
    if merged {
        let leaves = a.add_state(vec![Rule::leaf(Leaf::Null), Rule::leaf(Leaf::Undef)]);
        a.root = a.add_state(vec![node(leaves)]);
    } else {
        let null = a.add_state(vec![Rule::leaf(Leaf::Null)]);
        let undef = a.add_state(vec![Rule::leaf(Leaf::Undef)]);
        a.root = a.add_state(vec![node(null), node(undef)]);
    }
    assert!(a.trim());
    a
}

#[test]
fn simulation_proves_inclusion_but_not_every_one() {
    let merged = one_of_two_leaves(true);
    let split = one_of_two_leaves(false);
    // The same language, two automata.
    assert!(merged.includes(&split) && split.includes(&merged));
    // The merged one simulates the split one (each of its states maps to one state)...
    assert!(merged.simulates(&split));
    // ... but not conversely: no single state of `split` accepts both leaves below the node.
    assert!(!split.simulates(&merged));
    // A simulation is an inclusion: never claimed where the languages differ.
    let l2 = list(2, Leaf::Null);
    let l3 = list(3, Leaf::Null);
    assert!(!l2.simulates(&l3) && !l3.simulates(&l2));
    let u = l2.union(&l3);
    assert!(u.simulates(&l2) && u.simulates(&l3) && !l2.simulates(&u));
}

#[test]
fn edge_masks_tell_apart_what_cannot_include() {
    let null = list(1, Leaf::Null);
    let undef = list(1, Leaf::Undef);
    let both = null.union(&undef);
    // A node over null is an edge the list ending undefined lacks.
    assert!(!mask_within(&null.edge_mask(), &undef.edge_mask()));
    // Inclusion implies the masks are within each other's.
    for (big, small) in [(&both, &null), (&both, &undef), (&null, &null)] {
        assert!(big.includes(small));
        assert!(mask_within(&small.edge_mask(), &big.edge_mask()));
    }
}
