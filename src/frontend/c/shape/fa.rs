//! Forest automata: a heap split at its cut-points into tree components, each a tree
//! automaton, glued by root references; the values of the pointer variables.
//!
//! Invariants of a normalised forest ([`Forest::normalize`]): every component's root is a heap
//! node (null and undefined pointers are leaves, never components); every component is
//! reachable from a variable (else its nodes are garbage: a leak); a component no variable
//! points to is referenced at least twice, or only by itself (else it is glued back into its
//! one referrer); a reference in a root's field to the root whose field is the one explicit
//! pointer to it is folded into a back-link (`boxes.rs`) when no variable points to the
//! referring root; a component that refers only to itself and that one reference reaches is
//! packed into a box (`closed.rs`); components are numbered in the order a depth-first walk from the
//! variables meets them, so that equal heaps have equal shapes ([`Forest::shape`]); every
//! automaton's signatures are consistent (see `ta.rs`).
//!
//! Distinct components have distinct roots, so two pointers to the roots of components `i`
//! and `j` are equal iff `i == j`.
//!
//! Must not: interpret statements (that is `exec.rs`); decide an answer.

use super::boxes;
use super::closed::BoxLib;
use super::pir::{PointerProgram, StructType};
use super::ta::{Leaf, Sig, Symbol, TreeAut};
use std::fmt::Write as _;

/// The value of a pointer variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    /// `NULL`.
    Null,
    /// Undefined: not initialised, or dangling (its block was freed).
    Undef,
    /// The root of this component.
    Comp(usize),
}

/// A forest automaton: a set of heaps (the product of its components' languages).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Forest {
    /// Per pointer variable (by its slot), its value.
    pub vars: Vec<Val>,
    /// The components.
    pub comps: Vec<TreeAut>,
    /// Per tracked integer variable, its value ([`super::ta::ANY`]: not known). Forests
    /// with different values are never joined.
    pub ints: Vec<i32>,
}

/// What normalisation found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    /// Some node is reachable from no variable (a leak).
    Garbage,
    /// An automaton's trees disagree on their references (an internal inconsistency).
    Inconsistent,
}

/// The key under which forests may be joined: the variables, each component's root
/// signature and the tracked integers.
pub type Shape = (Vec<Val>, Vec<Sig>, Vec<i32>);

impl Forest {
    /// The forest of the empty heap with every variable undefined and `ints` integers not
    /// known.
    pub fn new(vars: usize, ints: usize) -> Self {
        Forest {
            vars: vec![Val::Undef; vars],
            comps: vec![],
            ints: vec![super::ta::ANY; ints],
        }
    }

    /// Each component's root signature (the references it holds, in order).
    fn root_sigs(&self) -> Result<Vec<Sig>, Broken> {
        self.comps
            .iter()
            .map(|c| {
                c.signatures()
                    .map(|s| s[c.root].clone())
                    .ok_or(Broken::Inconsistent)
            })
            .collect()
    }

    /// Removes the components for which `keep` is false and renumbers: references to a
    /// removed component become undefined leaves, variables pointing to one undefined.
    pub fn retain_comps(&mut self, keep: &[bool]) {
        let mut map = vec![None; self.comps.len()];
        let mut n = 0;
        for (i, &k) in keep.iter().enumerate() {
            if k {
                map[i] = Some(n);
                n += 1;
            }
        }
        let comps = std::mem::take(&mut self.comps);
        self.comps = comps
            .into_iter()
            .enumerate()
            .filter(|(i, _)| keep[*i])
            .map(|(_, mut c)| {
                c.rename_refs(&|j| map[j]);
                c
            })
            .collect();
        for v in &mut self.vars {
            if let Val::Comp(c) = *v {
                *v = map[c].map_or(Val::Undef, Val::Comp);
            }
        }
    }

    /// Normalises: trims the automata (`Ok(false)`: the forest's language is empty), checks
    /// for garbage (or, with `collect`, drops it), glues components that are no cut-point
    /// into their referrer, and numbers components canonically.
    ///
    /// A closed structure with one referrer is packed into a box of `lib` (`closed.rs`).
    /// `types` tell which struct types are copies of one struct and which are parts (see
    /// `fold_back` in `boxes.rs`; a type they do not list is its own and no part).
    pub fn normalize(
        &mut self,
        collect: bool,
        lib: &mut BoxLib,
        types: &[StructType],
    ) -> Result<bool, Broken> {
        for c in &mut self.comps {
            if !c.trim() {
                return Ok(false);
            }
        }
        loop {
            let sigs = self.root_sigs()?;
            // Garbage: components no variable reaches.
            let order = self.walk_order(&sigs);
            if order.len() < self.comps.len() {
                if !collect {
                    return Err(Broken::Garbage);
                }
                self.drop_garbage(&order)?;
                continue;
            }
            // A component no variable points to, referenced once, by another component.
            let mut refs = vec![0usize; self.comps.len()];
            let mut from = vec![usize::MAX; self.comps.len()];
            for (i, s) in sigs.iter().enumerate() {
                for &(j, c) in s {
                    refs[j] += usize::from(c);
                    from[j] = i;
                }
            }
            let pointed: Vec<bool> = (0..self.comps.len())
                .map(|c| self.vars.contains(&Val::Comp(c)))
                .collect();
            // Self-loops and back-links first: a root glued in with a reference to its
            // referrer would keep it as a reference from inside the tree.
            if self.fold_own() || self.fold_back(types) || self.flip_back() {
                continue;
            }
            let glue = (0..self.comps.len()).find(|&j| !pointed[j] && refs[j] == 1 && from[j] != j);
            let Some(j) = glue else {
                // Closed structures last, glued as far as they go.
                if self.fold_closed(&sigs, lib) {
                    continue;
                }
                self.renumber(&order);
                return Ok(true);
            };
            let inner = self.comps[j].clone();
            self.comps[from[j]].substitute(j, &inner);
            let mut keep = vec![true; self.comps.len()];
            keep[j] = false;
            self.retain_comps(&keep);
        }
    }

    /// Drops the components not in `reached`. A reached root's back-link to a node being
    /// dropped becomes undefined: the node still exists (unreachable, not freed), but a
    /// back-link means a pointer from a node in the forest, and an undefined pointer only
    /// adds executions (each use of it is a fault).
    fn drop_garbage(&mut self, reached: &[usize]) -> Result<(), Broken> {
        let mut keep = vec![false; self.comps.len()];
        for &c in reached {
            keep[c] = true;
        }
        // The explicit pointers from dropped nodes to kept roots: (target, type, field).
        let mut cut = vec![];
        for g in (0..self.comps.len()).filter(|&g| !keep[g]) {
            let a = &self.comps[g];
            for r in a.rules.iter().flatten() {
                let Symbol::Node(ty, _) = r.sym else { continue };
                for (i, &k) in r.kids.iter().enumerate() {
                    for u in &a.rules[k] {
                        if let Symbol::Leaf(Leaf::Root(j)) = u.sym {
                            if keep[j] {
                                cut.push((j, ty, i));
                            }
                        }
                    }
                }
            }
        }
        for (j, ty, i) in cut {
            let back = Leaf::Back(ty, i);
            if boxes::has_back(self, j, back) {
                *self = boxes::unback(self, j, back, Leaf::Undef).ok_or(Broken::Inconsistent)?;
            }
        }
        self.retain_comps(&keep);
        Ok(())
    }

    /// The components in depth-first order from the variables (in variable order), each
    /// component's references in signature order, after the components its root's
    /// back-links point to.
    fn walk_order(&self, sigs: &[Sig]) -> Vec<usize> {
        let mut seen = vec![false; self.comps.len()];
        let mut order = vec![];
        for v in &self.vars {
            if let Val::Comp(c) = *v {
                let mut stack = vec![c];
                while let Some(c) = stack.pop() {
                    if seen[c] {
                        continue;
                    }
                    seen[c] = true;
                    order.push(c);
                    stack.extend(boxes::back_targets(self, c));
                    stack.extend(sigs[c].iter().rev().map(|e| e.0));
                }
            }
        }
        order
    }

    /// Renumbers the components so that `order[k]` becomes `k`.
    fn renumber(&mut self, order: &[usize]) {
        let mut map = vec![0; self.comps.len()];
        for (k, &c) in order.iter().enumerate() {
            map[c] = k;
        }
        let mut comps: Vec<Option<TreeAut>> = std::mem::take(&mut self.comps)
            .into_iter()
            .map(Some)
            .collect();
        self.comps = order
            .iter()
            .map(|&c| {
                let mut a = comps[c].take().expect("each component once");
                a.rename_refs(&|j| Some(map[j]));
                a
            })
            .collect();
        for v in &mut self.vars {
            if let Val::Comp(c) = *v {
                *v = Val::Comp(map[c]);
            }
        }
    }

    /// The join key (only meaningful on a normalised forest).
    pub fn shape(&self) -> Option<Shape> {
        Some((self.vars.clone(), self.root_sigs().ok()?, self.ints.clone()))
    }

    /// Which node types hold references to which components: `(j, t, f)` for a reference
    /// to component `j` in a node of struct type `t`, with its field `f` when `j`'s root has
    /// a back-link along `(t, f)` (whose node the field decides), sorted. Forests whose
    /// references sit differently are kept apart at joins: their union would pair one
    /// forest's component with the other's referrer (a container's part as a variable's
    /// node, and a node of the part's list below the part in the other forest; a node whose
    /// parent pointer names its parent's left field, held in the right one). Other fields
    /// are left out: a tree's variable below a left or a right child joins.
    pub fn holders(&self) -> Vec<(usize, usize, Option<usize>)> {
        let mut out = vec![];
        for a in &self.comps {
            for r in a.rules.iter().flatten() {
                let Symbol::Node(t, _) = r.sym else { continue };
                for (f, &k) in r.kids.iter().enumerate() {
                    for u in &a.rules[k] {
                        if let Symbol::Leaf(Leaf::Root(j)) = u.sym {
                            let back = boxes::has_back(self, j, Leaf::Back(t, f));
                            out.push((j, t, back.then_some(f)));
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether every heap of `other` is one of this forest's (componentwise inclusion of two
    /// forests of the same shape; a sound, incomplete check).
    pub fn includes(&self, other: &Forest) -> bool {
        self.shape() == other.shape() && self.covers(other, true)
    }

    /// [`Forest::includes`] for a forest already known to have this one's shape (the caller
    /// compared their join keys): by exact inclusion of the automata (`exact`), or by
    /// simulation only ([`TreeAut::simulates`]: cheaper, and nearly always what proves an
    /// inclusion; the exact test mostly spends its time failing).
    pub fn covers(&self, other: &Forest, exact: bool) -> bool {
        self.vars == other.vars
            && self.ints == other.ints
            && self.comps.len() == other.comps.len()
            && self
                .comps
                .iter()
                .zip(&other.comps)
                .all(|(a, b)| match exact {
                    true => a.includes(b),
                    false => a.simulates(b),
                })
    }

    /// The componentwise union of two forests of the same shape.
    pub fn union(&self, other: &Forest) -> Forest {
        Forest {
            vars: self.vars.clone(),
            comps: self
                .comps
                .iter()
                .zip(&other.comps)
                .map(|(a, b)| a.union(b))
                .collect(),
            ints: self.ints.clone(),
        }
    }

    /// The height abstraction of every component, each root kept apart from the nodes below
    /// it.
    pub fn abstracted(&self, k: usize) -> Forest {
        Forest {
            vars: self.vars.clone(),
            comps: self
                .comps
                .iter()
                .map(|c| c.abstract_height(k, true))
                .collect(),
            ints: self.ints.clone(),
        }
    }

    /// The forest in a readable form: variables, then each component's rules, one state a
    /// line, then the boxes of `lib` its leaves name (`prog` names the variables by slot, the
    /// struct types, their pointer fields and tracked integer fields).
    pub fn render(&self, prog: &PointerProgram, lib: &BoxLib) -> String {
        let names = &prog.vars;
        let mut out = String::new();
        let mut vars: Vec<String> = self
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != Val::Undef)
            .map(|(i, v)| format!("{} = {}", names[i], val_text(*v)))
            .collect();
        vars.extend(
            self.ints
                .iter()
                .zip(&prog.ints)
                .filter(|(v, _)| **v != super::ta::ANY)
                .map(|(v, n)| format!("{n} = {v}")),
        );
        let _ = writeln!(
            out,
            "  {}",
            if vars.is_empty() {
                "(no pointers set)".to_owned()
            } else {
                vars.join(", ")
            }
        );
        for (i, c) in self.comps.iter().enumerate() {
            render_aut(&mut out, c, &format!("c{i}"), prog);
        }
        // The boxes named, and the boxes they name in turn.
        let mut named: Vec<usize> = vec![];
        let mut todo: Vec<&TreeAut> = self.comps.iter().collect();
        while let Some(a) = todo.pop() {
            for r in a.rules.iter().flatten() {
                if let Symbol::Leaf(Leaf::Boxed(k)) = r.sym {
                    if !named.contains(&k) {
                        named.push(k);
                        todo.extend(lib.get(k));
                    }
                }
            }
        }
        named.sort_unstable();
        for k in named {
            let _ = writeln!(
                out,
                "  box {k} (its components are c0, c1, ... within; c0 is its entry):"
            );
            for (i, a) in lib.get(k).iter().enumerate() {
                render_aut(&mut out, a, &format!("b{k}.c{i}"), prog);
            }
        }
        out
    }
}

/// An automaton's rules, one state a line, its states named `{name}.q{q}`.
fn render_aut(out: &mut String, c: &TreeAut, name: &str, prog: &PointerProgram) {
    let types = &prog.types;
    for (q, rs) in c.rules.iter().enumerate() {
        let alts: Vec<String> = rs
            .iter()
            .map(|r| match r.sym {
                Symbol::Leaf(Leaf::Back(t, f)) => {
                    format!("back along {}.{}", types[t].name, types[t].pointers[f].0)
                }
                Symbol::Leaf(l) => leaf_text(l),
                Symbol::Node(t, data) => {
                    let ty = &types[t];
                    let mut kids: Vec<String> = r
                        .kids
                        .iter()
                        .zip(&ty.pointers)
                        .map(|(k, (f, _))| format!("{f}: {name}.q{k}"))
                        .collect();
                    for (v, n) in data.iter().zip(&ty.data) {
                        if *v != super::ta::ANY {
                            kids.push(format!("{n} = {v}"));
                        }
                    }
                    format!("{}{{{}}}", ty.name, kids.join(", "))
                }
            })
            .collect();
        let mark = if q == c.root { " (root)" } else { "" };
        let _ = writeln!(out, "  {name}.q{q}{mark} -> {}", alts.join(" | "));
    }
}

/// A value as text.
fn val_text(v: Val) -> String {
    match v {
        Val::Null => "NULL".to_owned(),
        Val::Undef => "undefined".to_owned(),
        Val::Comp(c) => format!("root of c{c}"),
    }
}

/// A leaf as text.
fn leaf_text(l: Leaf) -> String {
    match l {
        Leaf::Null => "NULL".to_owned(),
        Leaf::Undef => "undefined".to_owned(),
        Leaf::Root(c) => format!("ref c{c}"),
        Leaf::Back(t, f) => format!("back along field {f} of type {t}"),
        Leaf::Own => "itself".to_owned(),
        Leaf::Boxed(k) => format!("box {k}"),
    }
}
