//! Closed boxes: a structure that points only into itself and that one pointer reaches,
//! packed into a single leaf of its referrer.
//!
//! A circular list hanging below each node of an outer list (a list of circular lists, the
//! nested lists of a Linux `list_head` in each item) has a head that two pointers reach: its
//! container's field and the inner list's last node. The head is a cut-point, so plain forest
//! automata need one component per outer node, and their number grows with the outer list.
//! The paper hides each inner list in a box given with the program; here the box is found
//! from the heap: a group of components (an entry and the components it reaches) none of
//! which a variable points to, whose trees refer to no component outside the group, and
//! that exactly one reference from outside reaches (to the entry), becomes the leaf
//! [`Leaf::Boxed`] in that reference's place, once gluing has done what it can. The box's
//! components are kept in a [`BoxLib`] (references among them numbered from 0, the entry
//! 0), so a box is a symbol like any leaf: joins, the abstraction and inclusion treat it as
//! one.
//!
//! Why it stays sound:
//! - The leaf means "a pointer to the entry of one tuple of trees of the box's components,
//!   glued as a forest": the heaps of the forest are those of the forest with the group in
//!   place, so packing keeps them (the group's trees are the box's or a subset: a box is
//!   reused only when its components include the group's one by one, else a new one is
//!   added, abstracted to keep the library finite). Boxes are only ever added, never
//!   changed, so a forest's meaning never changes once computed.
//! - The boxed leaf is the explicit pointer to the entry that the reference was (the same
//!   field of the same node). Nothing outside points into the box but that pointer, and
//!   nothing inside points out, so every back-link keeps its node: one inside the box names
//!   a node of the box, or the holder of the leaf (the entry's back-link along the holder's
//!   field, a part's pointer to its container), whose pointer is that leaf. No operation
//!   looks into a box: back-links are only read at components' roots, and a packed entry is
//!   none.
//! - The statements see boxes only through fields they materialise (`exec.rs`): a
//!   materialised boxed field becomes fresh components of the box's trees, the field a
//!   reference to the entry. Loads, stores and `free` all materialise the fields they touch,
//!   so no box is dropped unseen (a store over it or a `free` of its holder leaves its nodes
//!   unreachable, a leak the garbage check finds).
//! - The end of the program counts the heap nodes inside boxes as blocks left.
//!
//! Must not: execute statements or decide answers; change a box once added.

use super::fa::{Forest, Val};
use super::pir::{PointerProgram, Storage};
use super::ta::{Leaf, Sig, Symbol, TreeAut};

/// The most boxes one run adds: past it, components stay unfolded (the fixpoint then
/// meets its work bound where it would have needed more).
const MAX_BOXES: usize = 64;

/// A box: the components of a closed structure, references among them renumbered from 0,
/// its entry (the node the one outside pointer reaches) the root of component 0.
pub type Closed = Vec<TreeAut>;

/// The boxes of one run of the engine.
#[derive(Clone, Debug, Default)]
pub struct BoxLib {
    boxes: Vec<Closed>,
}

impl BoxLib {
    /// An empty library.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of boxes.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Whether there are no boxes.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// Box `k`'s components.
    pub fn get(&self, k: usize) -> &Closed {
        &self.boxes[k]
    }

    /// Box `k` as components `base`, `base + 1`, ... of a forest (its entry at `base`).
    pub fn unpack(&self, k: usize, base: usize) -> Closed {
        self.boxes[k]
            .iter()
            .map(|a| {
                let mut a = a.clone();
                a.rename_refs(&|i| Some(base + i));
                a
            })
            .collect()
    }

    /// Whether box `k` holds a heap block (a node of a [`Storage::Heap`] type).
    pub fn holds_heap(&self, k: usize, prog: &PointerProgram) -> bool {
        self.boxes[k].iter().any(|a| {
            a.rules.iter().flatten().any(|r| {
                r.sym
                    .node_type()
                    .is_some_and(|t| prog.types[t].storage == Storage::Heap)
            })
        })
    }

    /// The index of a box whose components include those of `group` one by one: an
    /// existing one, or a new one, the abstraction of `group` joined with the latest box
    /// of the same root signatures; `None` when the library is full or a component's trees
    /// disagree on their references.
    fn index_of(&mut self, group: Closed) -> Option<usize> {
        let covers = |b: &Closed| {
            b.len() == group.len()
                && b.iter()
                    .zip(&group)
                    .all(|(x, y)| x.simulates(y) || x.includes(y))
        };
        if let Some(k) = self.boxes.iter().position(covers) {
            return Some(k);
        }
        if self.boxes.len() >= MAX_BOXES {
            return None;
        }
        let sigs = |b: &Closed| {
            b.iter()
                .map(|a| a.signatures().map(|s| s[a.root].clone()))
                .collect::<Option<Vec<_>>>()
        };
        let mine = sigs(&group)?;
        let joined: Closed = match self
            .boxes
            .iter()
            .rev()
            .find(|b| sigs(b).as_ref() == Some(&mine))
        {
            Some(b) => b.iter().zip(&group).map(|(x, y)| x.union(y)).collect(),
            None => group,
        };
        self.boxes
            .push(joined.iter().map(|a| a.abstract_height(1, true)).collect());
        Some(self.boxes.len() - 1)
    }
}

impl Forest {
    /// One boxing step: a group of components closed under references (an entry and the
    /// components it reaches), none of which a variable points to, that refer to nothing
    /// outside the group and that one reference from outside reaches (to the entry),
    /// becomes a [`Leaf::Boxed`] leaf in that reference's place, when gluing cannot fold it
    /// (the entry is referred to from inside, or another member more than once). Returns
    /// whether anything changed.
    ///
    /// `sigs` are the components' root signatures.
    pub(super) fn fold_closed(&mut self, sigs: &[Sig], lib: &mut BoxLib) -> bool {
        let n = self.comps.len();
        let pointed: Vec<bool> = (0..n).map(|c| self.vars.contains(&Val::Comp(c))).collect();
        for j in (0..n).filter(|&j| !pointed[j]) {
            // The group in depth-first order from the entry, references in signature order.
            let mut order = vec![];
            let mut stack = vec![j];
            while let Some(c) = stack.pop() {
                if !order.contains(&c) {
                    order.push(c);
                    stack.extend(sigs[c].iter().rev().map(|e| e.0));
                }
            }
            let inside = |c: usize| order.contains(&c);
            if order.iter().any(|&c| pointed[c]) {
                continue;
            }
            // References into the group: from inside, and the one from outside.
            let mut refs = vec![0u8; n];
            let mut outside = vec![];
            for (d, s) in sigs.iter().enumerate() {
                for &(c, k) in s.iter().filter(|e| inside(e.0)) {
                    refs[c] = refs[c].saturating_add(k);
                    if !inside(d) {
                        outside.push((d, c, k));
                    }
                }
            }
            let [(d, c, 1)] = outside[..] else { continue };
            let cyclic = refs[j] > 1 || order[1..].iter().any(|&c| refs[c] > 1);
            if c != j || !cyclic {
                continue;
            }
            let target = Symbol::Leaf(Leaf::Root(j));
            let group: Closed = order
                .iter()
                .map(|&c| {
                    let mut a = self.comps[c].clone();
                    a.rename_refs(&|i| order.iter().position(|&o| o == i));
                    a
                })
                .collect();
            let Some(k) = lib.index_of(group) else {
                return false;
            };
            for r in self.comps[d].rules.iter_mut().flatten() {
                if r.sym == target {
                    r.sym = Symbol::Leaf(Leaf::Boxed(k));
                }
            }
            let mut keep = vec![true; n];
            for &c in &order {
                keep[c] = false;
            }
            self.retain_comps(&keep);
            return true;
        }
        false
    }
}

#[cfg(test)]
#[path = "closed_tests.rs"]
mod tests;
