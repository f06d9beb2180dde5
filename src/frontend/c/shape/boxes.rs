//! Back-links: the boxes of doubly linked segments, folded into the trees as
//! [`Leaf::Back`] leaves.
//!
//! In a doubly linked list every node is a cut-point (its predecessor's `next` and its
//! successor's `prev` both point to it), so plain forest automata need one component per
//! node. The paper hides each `prev` inside a box over a `next` edge; here the box is the
//! pair of a tree edge (or [`Leaf::Root`] reference) along a field `f` of a node of type `T`
//! and a leaf `Back(T, f)` in a field `g` of its target, meaning: *`g` points to the node
//! whose `f` field is the one explicit pointer to this node*. Explicit pointers are tree
//! edges and root references, never other back-links. A heap glued from trees whose
//! back-link has no such node, or several, is no heap (the forest denotes nothing there);
//! inside a tree the node is its parent (when the parent holds it in `f`), at a component's
//! root it is the node holding the reference to that component. The box shape is found from
//! the heap, not given: any pair of fields of any struct types folds, which covers doubly
//! linked lists, circular ones (one cut-point stays) and parent pointers.
//!
//! Why each operation stays sound (a post must include the concrete successors):
//! - Gluing a component into its one referrer keeps every explicit pointer (the reference
//!   becomes the tree edge in the same field), so back-links keep their node; splitting a
//!   subtree off (materialising a field) likewise.
//! - `Forest::fold_back` rewrites a root reference `Root(i)` in a field `g` of component
//!   `j`'s root into `Back(T, f)` only when [`pred_root`] shows that `i`'s root is the one
//!   explicit `(T, f)` pointer to `j`'s root in every heap, and `i`'s root has no back-link
//!   along `g` of `j`'s type (whose meaning the removed explicit pointer would change).
//! - An execution step that adds or removes an explicit `(T, f)` pointer to a node first
//!   makes that node's `Back(T, f)` leaves explicit ([`unback`]): a store's old target
//!   points back to the stored node, a store's new target to its current predecessor, the
//!   targets of a freed node's fields to freed memory (undefined). A predecessor inside a
//!   tree is first made a component's root by [`cut`], exactly: the trees in which that node
//!   matches a rule `r` of a state `q` are the contexts with a hole at `q` times the trees
//!   of `r`, one forest per such pair (a tree holding the node's target more than once, or
//!   several trees holding pointers to it, and the engine gives up).
//! - The garbage check follows a root's back-link to its node's component only when it
//!   reaches that component's root: the node is the root, or every node on the way down to
//!   it holds a back-link to its parent.
//! - A self-loop, a field of a component's root that refers to that root, becomes the leaf
//!   [`Leaf::Own`] ("this node"), whose meaning is local: the node need not be a cut-point.
//!   It is no explicit pointer, so no back-link is about it; hence it does not fold where
//!   the node has a back-link along that field (the explicit self-pointer may be the one it
//!   names), a load of it yields the loaded node, and a store over it changes no back-link.
//! - `Forest::flip_back` turns a pair round between two struct types: a component nothing
//!   points to explicitly, reached only through a back-link `Back(T, f)` in a field `g` of
//!   another root, becomes that root's explicit `g` target and its own `f` the back-link
//!   `Back(U, g)`; both forests denote the same heaps (each pointer keeps its target), and
//!   the component can then glue into its one referrer.
//! - Abstraction and union only add trees; the meaning is a function of the tuple of trees,
//!   so more tuples mean more heaps, and signatures (hence reference counts per component)
//!   are kept.
//!
//! Must not: execute statements (that is `exec.rs`) or decide answers.

use super::fa::{Forest, Val};
use super::pir::{Storage, StructType};
use super::ta::{Leaf, Rule, State, Symbol, TreeAut};

/// Whether state `q` has the leaf rule `l`.
fn has_leaf(a: &TreeAut, q: State, l: Leaf) -> bool {
    a.rules[q].iter().any(|r| r.sym == Symbol::Leaf(l))
}

/// Whether state `q`'s only rule is the leaf `l`.
fn is_only(a: &TreeAut, q: State, l: Leaf) -> bool {
    a.rules[q].len() == 1 && a.rules[q][0].sym == Symbol::Leaf(l)
}

/// The states reachable from the root, and whether each is some rule's child.
fn reach(a: &TreeAut) -> (Vec<bool>, Vec<bool>) {
    let mut seen = vec![false; a.rules.len()];
    let mut kid = vec![false; a.rules.len()];
    let mut stack = vec![a.root];
    seen[a.root] = true;
    while let Some(q) = stack.pop() {
        for r in &a.rules[q] {
            for &k in &r.kids {
                kid[k] = true;
                if !seen[k] {
                    seen[k] = true;
                    stack.push(k);
                }
            }
        }
    }
    (seen, kid)
}

/// The struct type of component `c`'s root, when all its root rules agree.
pub fn root_type(f: &Forest, c: usize) -> Option<usize> {
    let a = &f.comps[c];
    let mut ty = None;
    for r in &a.rules[a.root] {
        match r.sym {
            Symbol::Node(t, _) if ty.is_none_or(|u| u == t) => ty = Some(t),
            _ => return None,
        }
    }
    ty
}

/// The component whose root is, in every heap of the forest, the one explicit pointer along
/// field `fld` of a node of type `ty` to component `c`'s root; `None` when the automata do
/// not show it (the pointer may sit inside a tree, or there may be several or none).
pub fn pred_root(f: &Forest, c: usize, ty: usize, fld: usize) -> Option<usize> {
    let target = Leaf::Root(c);
    let mut found = None;
    for (d, a) in f.comps.iter().enumerate() {
        let (seen, kid) = reach(a);
        for (q, rs) in a.rules.iter().enumerate() {
            if !seen[q] {
                continue;
            }
            for r in rs {
                let Some(&k) = r.kids.get(fld) else { continue };
                if r.sym.node_type() != Some(ty) || !has_leaf(a, k, target) {
                    continue;
                }
                // Such a pointer only at the root of one component, never below it.
                if q != a.root || kid[q] || found.is_some_and(|e| e != d) {
                    return None;
                }
                found = Some(d);
            }
        }
    }
    let d = found?;
    let a = &f.comps[d];
    a.rules[a.root]
        .iter()
        .all(|r| {
            r.sym.node_type() == Some(ty) && r.kids.get(fld).is_some_and(|&k| is_only(a, k, target))
        })
        .then_some(d)
}

/// The component holding every explicit pointer along field `fld` of a node of type `ty` to
/// component `c`'s root, when that pointer's node reaches its component's root through
/// back-links (each node on the way down from the root holds a back-link to its parent, as
/// in a doubly linked list): then the whole component is reachable from `c`'s back-link.
fn pred_above(f: &Forest, c: usize, ty: usize, fld: usize) -> Option<usize> {
    let mut found = None;
    for (d, a) in f.comps.iter().enumerate() {
        let holds = a.rules.iter().any(|rs| {
            rs.iter().any(|r| {
                r.sym.node_type() == Some(ty)
                    && r.kids
                        .get(fld)
                        .is_some_and(|&k| has_leaf(a, k, Leaf::Root(c)))
            })
        });
        if holds {
            if found.is_some() {
                return None;
            }
            found = Some(d);
        }
    }
    let d = found?;
    let a = &f.comps[d];
    let sig = a.signatures()?;
    let on_path = |q: State| sig[q].iter().any(|&(j, _)| j == c);
    // Every edge on a path from the root to a reference to `c` is a tree edge whose child,
    // unless it is that reference, holds a back-link to its parent in every rule.
    for (q, rs) in a.rules.iter().enumerate() {
        if !on_path(q) {
            continue;
        }
        for r in rs {
            let Symbol::Node(t, _) = r.sym else { continue };
            for (i, &k) in r.kids.iter().enumerate() {
                if !on_path(k) {
                    continue;
                }
                let back = Leaf::Back(t, i);
                let ok = a.rules[k].iter().all(|x| match x.sym {
                    Symbol::Leaf(l) => l == Leaf::Root(c),
                    Symbol::Node(..) => x.kids.iter().any(|&g| is_only(a, g, back)),
                });
                if !ok {
                    return None;
                }
            }
        }
    }
    Some(d)
}

/// Cuts the tree holding the one explicit pointer along field `fld` of a node of type `ty`
/// to component `c`'s root at that pointer's node: one forest per rule that can match the
/// node, that node the root of a new component (or already the root of its own), with the
/// component whose root it is. Exact: the trees where the node matches a rule of a state
/// are the contexts with a hole at that state times that rule's trees. `None` when the
/// pointer is not in one component, or that component's trees hold `c` more than once.
pub fn cut(f: &Forest, c: usize, ty: usize, fld: usize) -> Option<Vec<(Forest, usize)>> {
    let target = Leaf::Root(c);
    let holders: Vec<usize> = (0..f.comps.len())
        .filter(|&d| {
            f.comps[d].rules.iter().flatten().any(|r| {
                r.sym.node_type() == Some(ty)
                    && r.kids
                        .get(fld)
                        .is_some_and(|&k| has_leaf(&f.comps[d], k, target))
            })
        })
        .collect();
    let [d] = holders[..] else { return None };
    let a = &f.comps[d];
    let sig = a.signatures()?;
    if !sig[a.root].contains(&(c, 1)) {
        return None;
    }
    let on_path: Vec<bool> = sig.iter().map(|s| s.iter().any(|&(j, _)| j == c)).collect();
    let n = a.rules.len();
    let new = f.comps.len();
    // hat(q) = n + q: the trees of q with the hole (a reference to the new component) on the
    // path to `c`, at the chosen state; a rule of a state on that path has one child on it
    // (the signature says `c` occurs once).
    let mut out = vec![];
    for (q0, rs) in a.rules.iter().enumerate() {
        for r0 in rs {
            if r0.sym.node_type() != Some(ty)
                || !r0.kids.get(fld).is_some_and(|&k| has_leaf(a, k, target))
            {
                continue;
            }
            // The node is the root of the holder's tree.
            if q0 == a.root {
                let mut g = f.clone();
                let h = &mut g.comps[d];
                let leaf = h.add_state(vec![Rule::leaf(target)]);
                let mut rule = r0.clone();
                rule.kids[fld] = leaf;
                h.root = h.add_state(vec![rule]);
                if h.trim() {
                    out.push((g, d));
                }
            }
            // The node below the root: the context with the hole, and the node's tree.
            let mut ctx = a.clone();
            for q in 0..n {
                let mut hat = vec![];
                if on_path[q] {
                    for r in &a.rules[q] {
                        if let Some(k) = r.kids.iter().position(|&k| on_path[k]) {
                            let mut h = r.clone();
                            h.kids[k] = n + r.kids[k];
                            hat.push(h);
                        }
                    }
                }
                if q == q0 {
                    hat.push(Rule::leaf(Leaf::Root(new)));
                }
                ctx.add_state(hat);
            }
            // The context's root: the root's hatted rules, the hole not at the root itself.
            let top: Vec<Rule> = ctx.rules[n + a.root]
                .iter()
                .filter(|r| r.sym != Symbol::Leaf(Leaf::Root(new)))
                .cloned()
                .collect();
            ctx.root = ctx.add_state(top);
            let mut tree = a.clone();
            let leaf = tree.add_state(vec![Rule::leaf(target)]);
            let mut rule = r0.clone();
            rule.kids[fld] = leaf;
            tree.root = tree.add_state(vec![rule]);
            if ctx.trim() && tree.trim() {
                let mut g = f.clone();
                g.comps[d] = ctx;
                g.comps.push(tree);
                out.push((g, new));
            }
        }
    }
    Some(out)
}

/// Whether component `c`'s root has a back-link `l` among its fields.
pub fn has_back(f: &Forest, c: usize, l: Leaf) -> bool {
    let a = &f.comps[c];
    a.rules[a.root]
        .iter()
        .any(|r| r.kids.iter().any(|&k| has_leaf(a, k, l)))
}

/// The fields of component `c`'s root that hold the leaf `l` (in some rule).
fn fields_with(f: &Forest, c: usize, l: Leaf) -> Vec<usize> {
    let a = &f.comps[c];
    let mut out: Vec<usize> = a.rules[a.root]
        .iter()
        .flat_map(|r| {
            r.kids
                .iter()
                .enumerate()
                .filter(|(_, &k)| has_leaf(a, k, l))
                .map(|(i, _)| i)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether making `j`'s root fields `gs` explicit pointers to `d`'s root (or removing such
/// pointers) would change what a back-link of `d`'s root means: `d`'s root has a
/// `Back(T, g)` leaf with `T` the type of `j`'s root and `g` among `gs`.
pub fn disturbs(f: &Forest, j: usize, gs: &[usize], d: usize) -> bool {
    let Some(t) = root_type(f, j) else {
        return true;
    };
    gs.iter().any(|&g| has_back(f, d, Leaf::Back(t, g)))
}

/// Component `j`'s root with every field (among `only`, when given) that is the leaf `from`
/// in some rule turned into `to` (a fresh root state and fresh field states; nothing below
/// changes). `None` when such a field's state has other rules as well and `to` would make
/// its signature inconsistent.
fn replace_root_leaf(a: &TreeAut, from: Leaf, to: Leaf, only: Option<&[usize]>) -> Option<TreeAut> {
    let mut b = a.clone();
    let mut root_rules = a.rules[a.root].clone();
    for r in &mut root_rules {
        for (i, k) in r.kids.iter_mut().enumerate() {
            if !has_leaf(a, *k, from) || only.is_some_and(|o| !o.contains(&i)) {
                continue;
            }
            if !is_only(a, *k, from) && matches!(to, Leaf::Root(_)) {
                return None;
            }
            let rules: Vec<Rule> = a.rules[*k]
                .iter()
                .map(|x| {
                    if x.sym == Symbol::Leaf(from) {
                        Rule::leaf(to)
                    } else {
                        x.clone()
                    }
                })
                .collect();
            *k = b.add_state(rules);
        }
    }
    b.root = b.add_state(root_rules);
    b.trim();
    Some(b)
}

/// The forest with component `j`'s root's back-links `back` replaced by `to` (an explicit
/// reference to their node, or undefined when that node is freed); `None` when the
/// automaton cannot say it exactly.
pub fn unback(f: &Forest, j: usize, back: Leaf, to: Leaf) -> Option<Forest> {
    let mut g = f.clone();
    g.comps[j] = replace_root_leaf(&f.comps[j], back, to, None)?;
    Some(g)
}

impl Forest {
    /// One folding step: a field of some component's root that refers to that root itself
    /// becomes [`Leaf::Own`]. Returns whether anything changed.
    ///
    /// Not where the root has a back-link along such a field of its own type: the
    /// self-pointer is an explicit pointer that back-link may be about, and [`Leaf::Own`]
    /// is none.
    pub(super) fn fold_own(&mut self) -> bool {
        for j in 0..self.comps.len() {
            let gs = fields_with(self, j, Leaf::Root(j));
            if gs.is_empty() || disturbs(self, j, &gs, j) {
                continue;
            }
            if self.replace_at_root(j, Leaf::Root(j), Leaf::Own) {
                return true;
            }
        }
        false
    }

    /// Component `j`'s root fields holding `from` turned into `to`, when the automaton can
    /// say it exactly and keeps consistent signatures; whether it changed.
    fn replace_at_root(&mut self, j: usize, from: Leaf, to: Leaf) -> bool {
        self.replace_fields_at_root(j, None, from, to)
    }

    /// [`Forest::replace_at_root`] in the fields `only` (all, when `None`).
    fn replace_fields_at_root(
        &mut self,
        j: usize,
        only: Option<&[usize]>,
        from: Leaf,
        to: Leaf,
    ) -> bool {
        match replace_root_leaf(&self.comps[j], from, to, only) {
            Some(b) if b.signatures().is_some() => {
                self.comps[j] = b;
                true
            }
            _ => false,
        }
    }

    /// One folding step: a field of some component's root that is a reference to the one
    /// explicit predecessor of that root along a field `f` (itself a component's root)
    /// becomes the back-link `Back(T, f)`. Returns whether anything changed.
    ///
    /// Only roots no variable points to fold (they then may glue into their referrer): a
    /// fold at a variable's root, while a list is being relinked, would pick the direction
    /// from a transient state and leave back-links to nodes inside trees.
    ///
    /// `types` tell which struct types are copies of one program struct (a part or a struct
    /// variable of the list's own type: the box's direction is then the type's, the later
    /// fields folding) and which are parts (between a container's part field and the part's
    /// field back to it at the same index, the part's field folds: the container's stays
    /// the explicit pointer, which makes the part a component its container holds).
    pub(super) fn fold_back(&mut self, types: &[StructType]) -> bool {
        let pointed: Vec<bool> = (0..self.comps.len())
            .map(|c| self.vars.contains(&Val::Comp(c)))
            .collect();
        for j in (0..self.comps.len()).filter(|&j| !pointed[j]) {
            let a = &self.comps[j];
            // Referenced components among the root's fields.
            let mut cands: Vec<usize> = vec![];
            for r in &a.rules[a.root] {
                for &k in &r.kids {
                    if let [Rule {
                        sym: Symbol::Leaf(Leaf::Root(i)),
                        ..
                    }] = a.rules[k][..]
                    {
                        if i != j && !cands.contains(&i) {
                            cands.push(i);
                        }
                    }
                }
            }
            let tj = root_type(self, j);
            for i in cands {
                let Some(ty) = root_type(self, i) else {
                    continue;
                };
                let arity = self.comps[i].rules[self.comps[i].root][0].kids.len();
                for fld in 0..arity {
                    if pred_root(self, j, ty, fld) != Some(i) {
                        continue;
                    }
                    let gs = fields_with(self, j, Leaf::Root(i));
                    // The box's direction from the struct type: the back-link is the later
                    // field (`prev` after `next`, `parent` after the children); folding the
                    // other way round as well would let a transient state of a relinking
                    // pick the direction, leaving back-links to nodes inside trees. Between
                    // two copies of one struct (a list's head that is a part, and its
                    // nodes), the later fields alone fold.
                    let folded: Vec<usize> = match tj {
                        Some(t) if t == ty && !gs.iter().all(|&g| g > fld) => continue,
                        Some(t) if same_struct(types, t, ty) => {
                            gs.iter().copied().filter(|&g| g > fld).collect()
                        }
                        Some(t)
                            if gs.contains(&fld) && is_part(types, ty) && !is_part(types, t) =>
                        {
                            continue
                        }
                        _ => gs,
                    };
                    if folded.is_empty() {
                        continue;
                    }
                    if disturbs(self, j, &folded, i) {
                        continue;
                    }
                    let back = Leaf::Back(ty, fld);
                    if self.replace_fields_at_root(j, Some(&folded), Leaf::Root(i), back) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

impl Forest {
    /// One turning step: a component `i` that no variable points to and no reference
    /// reaches, whose root's field `f` is the one explicit pointer to component `j`'s root
    /// and which `j`'s root reaches through its back-link `Back(T, f)` in field `g`, turns
    /// the pair round: `g` becomes the explicit pointer `Root(i)` and `f` the back-link
    /// `Back(U, g)` (`U` the type of `j`'s root). Both say the same heap: `f` still points to
    /// the node whose `g` is the one explicit pointer to `i` (only `j`'s `g`, since nothing
    /// else points to `i`), and `g` to `i`. `i` then has one referrer and glues into `j`'s
    /// tree. Returns whether anything changed.
    ///
    /// Only between two struct types (a container and its part, say): which of the pair is
    /// explicit then depends on which node the rest of the heap reaches (a Linux list runs
    /// through the parts, a list of containers through the containers), while a doubly
    /// linked list keeps the direction of its type (`fold_back`).
    pub(super) fn flip_back(&mut self) -> bool {
        for i in 0..self.comps.len() {
            if self.vars.contains(&Val::Comp(i)) || referenced(self, i) {
                continue;
            }
            let Some(ti) = root_type(self, i) else {
                continue;
            };
            let arity = self.comps[i].rules[self.comps[i].root][0].kids.len();
            for j in (0..self.comps.len()).filter(|&j| j != i) {
                let Some(tj) = root_type(self, j) else {
                    continue;
                };
                if tj == ti {
                    continue;
                }
                for fld in 0..arity {
                    if pred_root(self, j, ti, fld) != Some(i)
                        || fields_with(self, i, Leaf::Root(j)) != [fld]
                    {
                        continue;
                    }
                    let back = Leaf::Back(ti, fld);
                    let [g] = fields_with(self, j, back)[..] else {
                        continue;
                    };
                    let a = &self.comps[j];
                    let only = a.rules[a.root].iter().all(|r| is_only(a, r.kids[g], back));
                    if !only || has_back(self, i, Leaf::Back(tj, g)) {
                        continue;
                    }
                    let mut turned = self.clone();
                    if turned.replace_at_root(j, back, Leaf::Root(i))
                        && turned.replace_at_root(i, Leaf::Root(j), Leaf::Back(tj, g))
                    {
                        *self = turned;
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Whether struct types `a` and `b` copy one program struct (a type `types` does not list is
/// its own).
fn same_struct(types: &[StructType], a: usize, b: usize) -> bool {
    a == b || matches!((types.get(a), types.get(b)), (Some(x), Some(y)) if x.origin == y.origin)
}

/// Whether struct type `t`'s nodes are parts of containers.
fn is_part(types: &[StructType], t: usize) -> bool {
    types.get(t).is_some_and(|x| x.storage == Storage::Part)
}

/// Whether some component holds a reference to component `i`'s root.
fn referenced(f: &Forest, i: usize) -> bool {
    f.comps.iter().any(|a| {
        let (seen, _) = reach(a);
        a.rules
            .iter()
            .enumerate()
            .any(|(q, rs)| seen[q] && rs.iter().any(|r| r.sym == Symbol::Leaf(Leaf::Root(i))))
    })
}

/// The components whose roots component `c`'s root's back-links point to (those the
/// automata show; a back-link to a node inside a tree adds nothing: that node's tree above
/// it need not be reachable from it, and the garbage check must not take it as reached).
pub fn back_targets(f: &Forest, c: usize) -> Vec<usize> {
    // A target counts only when it is reached in every heap the component stands for: every
    // rule of the root has a field whose state is that back-link alone. A union at a loop
    // head can give a root one rule with the back-link and one with null in its place; taking
    // "some rule has it" missed the leak of the heaps with null.
    let a = &f.comps[c];
    let mut common: Option<Vec<usize>> = None;
    for r in &a.rules[a.root] {
        let mut here = vec![];
        for &k in &r.kids {
            if let [Rule {
                sym: Symbol::Leaf(Leaf::Back(t, fld)),
                ..
            }] = a.rules[k][..]
            {
                if let Some(d) = pred_root(f, c, t, fld).or_else(|| pred_above(f, c, t, fld)) {
                    if !here.contains(&d) {
                        here.push(d);
                    }
                }
            }
        }
        common = Some(match common {
            None => here,
            Some(before) => before.into_iter().filter(|d| here.contains(d)).collect(),
        });
    }
    common.unwrap_or_default()
}

#[cfg(test)]
#[path = "boxes_tests.rs"]
mod tests;
