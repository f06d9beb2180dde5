//! Bottom-up tree automata over heap nodes: the components of a forest automaton.
//!
//! A tree's inner symbols are heap nodes ([`Symbol::Node`]: a struct type, one child per
//! pointer field in field order); its leaves are `null`, an undefined pointer, or a reference
//! to the root of another component ([`Leaf::Root`]). Every state carries a *signature*
//! ([`Sig`]): the root references its trees contain, in the order of first occurrence, each
//! with "once" or "more than once". The automata built by the shape engine keep signatures
//! consistent (every tree of a state has the same one), which tells whether a component is
//! referenced exactly once (and may be glued back into its referrer);
//! [`TreeAut::signatures`] checks it.
//!
//! A [`Leaf::Back`] leaf points back to the node's predecessor along one field; it is a
//! plain leaf symbol here (its meaning is `boxes.rs`'s), except that the abstraction keeps
//! states that are back-links apart from the others. A [`Leaf::Own`] leaf points to the
//! node holding it. A [`Leaf::Boxed`] leaf stands for a whole closed structure (`closed.rs`);
//! here it is a plain leaf symbol too.
//!
//! Here: trimming (useless states removed, states renumbered from the root), union, language
//! inclusion (exact, by a bottom-up subset construction over the pairs reachable from the
//! smaller automaton, with a work bound past which it answers "not included"; or sound and
//! cheap, by a downward simulation; and a mask of each automaton's edges that refutes an
//! inclusion at a glance), and the abstraction that merges states with equal languages of
//! tree prefixes up to a height.
//!
//! Must not: know about variables, statements or the program; every operation is on one
//! automaton (or two).

use std::collections::{BTreeSet, HashMap};

/// The size of [`TreeAut::edge_mask`] in bits.
pub const MASK_BITS: usize = 256;

/// A bit set of [`MASK_BITS`] bits: see [`TreeAut::edge_mask`].
pub type Mask = [u64; MASK_BITS / 64];

/// Whether every bit of `b` is in `a`.
pub fn mask_within(b: &Mask, a: &Mask) -> bool {
    b.iter().zip(a).all(|(b, a)| b & !a == 0)
}

/// A state: an index into [`TreeAut::rules`].
pub type State = usize;

/// A leaf of a heap tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Leaf {
    /// The null pointer.
    Null,
    /// An undefined pointer: never initialised, or pointing to freed memory.
    Undef,
    /// A reference to the root of the component with this index.
    Root(usize),
    /// A back-link (the hidden half of a box, see `boxes.rs`): the node whose field of this
    /// index, in a node of this struct type, is the one explicit pointer (tree edge or
    /// [`Leaf::Root`]) to the node holding this leaf.
    Back(usize, usize),
    /// A pointer to the node holding this leaf (a self-loop, `x->opt = x`): its meaning is
    /// local, so a node whose field points to itself need not be a cut-point. It is not an
    /// explicit pointer in the sense of back-links (see `boxes.rs`).
    Own,
    /// A pointer to the root of a closed structure packed into the box of this index of the
    /// shape engine's library (`closed.rs`): a heap node with all the nodes below it, whose
    /// pointers stay among them.
    Boxed(usize),
}

/// How many integer fields of a node the symbols track (the first ones of its struct).
pub const DATA: usize = 2;

/// A tracked integer field whose value is not known.
pub const ANY: i32 = i32::MIN;

/// The tracked integer fields of a node: each a known constant or [`ANY`].
pub type Data = [i32; DATA];

/// Nothing known of a node's integer fields.
pub const UNKNOWN: Data = [ANY; DATA];

/// A tree symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    /// A leaf (no children).
    Leaf(Leaf),
    /// A heap node of the struct type with this index (one child per pointer field), with
    /// what is known of its tracked integer fields.
    Node(usize, Data),
}

impl Symbol {
    /// The struct type of a node.
    pub fn node_type(&self) -> Option<usize> {
        match self {
            Symbol::Node(t, _) => Some(*t),
            Symbol::Leaf(_) => None,
        }
    }
}

/// A transition `sym(kids) -> q`, stored under its target state `q`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule {
    /// The symbol.
    pub sym: Symbol,
    /// The children's states (empty for a leaf).
    pub kids: Vec<State>,
}

impl Rule {
    /// A leaf rule.
    pub fn leaf(l: Leaf) -> Self {
        Rule {
            sym: Symbol::Leaf(l),
            kids: vec![],
        }
    }
}

/// A tree automaton with one root (accepting) state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TreeAut {
    /// Per state, its transitions (sorted, without duplicates after [`TreeAut::trim`]).
    pub rules: Vec<Vec<Rule>>,
    /// The accepting state.
    pub root: State,
}

/// A signature: the root references a state's trees hold, each once in the order of its
/// first occurrence, with how often (1, or 2 for "more than once").
pub type Sig = Vec<(usize, u8)>;

/// A state's tree prefixes one level deeper: its rules' symbols with their children's
/// classes.
type Prefixes = BTreeSet<(Symbol, Vec<usize>)>;

impl TreeAut {
    /// A bit (of [`MASK_BITS`], by a hash) per root symbol and per *edge* of the
    /// automaton's rules: a rule's symbol, a child's position and a symbol of that child's
    /// rules. In a trimmed automaton every such edge occurs in some accepted tree, and a tree
    /// is accepted by `a` only if `a` has each of its edges; so when `b` is trimmed and its
    /// mask has a bit `a`'s lacks, `a` does not include `b`.
    pub fn edge_mask(&self) -> Mask {
        use std::hash::{Hash, Hasher};
        let mut m = [0u64; MASK_BITS / 64];
        let mut set = |x: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            x(&mut h);
            let bit = (h.finish() % MASK_BITS as u64) as usize;
            m[bit / 64] |= 1 << (bit % 64);
        };
        for r in &self.rules[self.root] {
            set(&|h| (0u8, r.sym).hash(h));
        }
        for r in self.rules.iter().flatten() {
            for (i, &k) in r.kids.iter().enumerate() {
                for kr in &self.rules[k] {
                    set(&|h| (1u8, r.sym, i, kr.sym).hash(h));
                }
            }
        }
        m
    }

    /// Adds a state with these rules; returns it.
    pub fn add_state(&mut self, rules: Vec<Rule>) -> State {
        self.rules.push(rules);
        self.rules.len() - 1
    }

    /// The automaton of one tree whose root is a node of type `ty` with integer fields
    /// `data` and leaf children `kids`.
    pub fn node(ty: usize, data: Data, kids: &[Leaf]) -> Self {
        let mut a = TreeAut {
            rules: vec![vec![]],
            root: 0,
        };
        let ks = kids
            .iter()
            .map(|&l| a.add_state(vec![Rule::leaf(l)]))
            .collect();
        a.rules[0].push(Rule {
            sym: Symbol::Node(ty, data),
            kids: ks,
        });
        a
    }

    /// Removes states with an empty language and states the root does not reach, and
    /// renumbers the rest in depth-first order from the root (rules sorted). Returns false when
    /// the language is empty.
    pub fn trim(&mut self) -> bool {
        let n = self.rules.len();
        let mut productive = vec![false; n];
        loop {
            let mut changed = false;
            for q in 0..n {
                if !productive[q]
                    && self.rules[q]
                        .iter()
                        .any(|r| r.kids.iter().all(|&k| productive[k]))
                {
                    productive[q] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if !productive[self.root] {
            return false;
        }
        let mut order: Vec<State> = vec![];
        let mut index: HashMap<State, State> = HashMap::new();
        let mut stack = vec![self.root];
        while let Some(q) = stack.pop() {
            if index.contains_key(&q) {
                continue;
            }
            index.insert(q, order.len());
            order.push(q);
            let mut next = vec![];
            for r in &self.rules[q] {
                if r.kids.iter().all(|&k| productive[k]) {
                    next.extend(r.kids.iter().copied());
                }
            }
            stack.extend(next.into_iter().rev());
        }
        let rules = order
            .iter()
            .map(|&q| {
                let mut rs: Vec<Rule> = self.rules[q]
                    .iter()
                    .filter(|r| r.kids.iter().all(|&k| productive[k]))
                    .map(|r| Rule {
                        sym: r.sym,
                        kids: r.kids.iter().map(|k| index[k]).collect(),
                    })
                    .collect();
                rs.sort();
                rs.dedup();
                rs
            })
            .collect();
        self.rules = rules;
        self.root = 0;
        true
    }

    /// Each state's signature ([`Sig`]), or `None` when some state's trees disagree (or the
    /// state is empty).
    pub fn signatures(&self) -> Option<Vec<Sig>> {
        let n = self.rules.len();
        let mut sig: Vec<Option<Sig>> = vec![None; n];
        loop {
            let mut changed = false;
            for q in 0..n {
                if sig[q].is_some() {
                    continue;
                }
                for r in &self.rules[q] {
                    if let Some(s) = rule_sig(r, &sig) {
                        sig[q] = Some(s);
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for q in 0..n {
            for r in &self.rules[q] {
                if rule_sig(r, &sig) != sig[q] {
                    return None;
                }
            }
        }
        sig.into_iter().collect()
    }

    /// The union: a fresh root with the root rules of both.
    pub fn union(&self, other: &TreeAut) -> TreeAut {
        let off = self.rules.len();
        let mut rules = self.rules.clone();
        rules.extend(other.rules.iter().map(|rs| {
            rs.iter()
                .map(|r| Rule {
                    sym: r.sym,
                    kids: r.kids.iter().map(|k| k + off).collect(),
                })
                .collect::<Vec<_>>()
        }));
        let mut root_rules = rules[self.root].clone();
        root_rules.extend(rules[other.root + off].iter().cloned());
        rules.push(root_rules);
        let root = rules.len() - 1;
        let mut u = TreeAut { rules, root };
        u.trim();
        u
    }

    /// The abstraction: states with the same signature and the same language of tree prefixes
    /// of height `k` (leaves and node symbols, children cut below) are merged. The result's
    /// language includes this one's; signatures stay consistent (only states with equal
    /// signatures merge). With `keep_root` the root state merges with no other: the node a
    /// variable points to (or a cut-point) is not one of the nodes below it, whose fields may
    /// differ from its own only below height 1 (a null field of a list's head, a node in the
    /// links' below it; a head's null `prev` and an inner node's uninitialised one), where a
    /// height-1 prefix cannot tell them apart.
    pub fn abstract_height(&self, k: usize, keep_root: bool) -> TreeAut {
        let Some(sig) = self.signatures() else {
            return self.clone();
        };
        // class_0 = (signature, back-links and self-loops among the state's leaves);
        // class_{i+1} = (signature, set of (symbol, children's class_i)). Back-links apart
        // keep a list's first node (whose back field is null) from merging with the inner
        // ones; self-loops apart keep a node pointing to itself from merging with one that
        // points to a node of its own (`*-optional` lists).
        let mut intern: HashMap<(Sig, Vec<Leaf>, bool), usize> = HashMap::new();
        let mut class: Vec<usize> = sig
            .iter()
            .enumerate()
            .map(|(q, s)| {
                let backs: Vec<Leaf> = self.rules[q]
                    .iter()
                    .filter_map(|r| match r.sym {
                        Symbol::Leaf(l @ (Leaf::Back(..) | Leaf::Own)) => Some(l),
                        _ => None,
                    })
                    .collect();
                let n = intern.len();
                *intern
                    .entry((s.clone(), backs, keep_root && q == self.root))
                    .or_insert(n)
            })
            .collect();
        for _ in 0..k {
            let mut next_intern: HashMap<(Sig, Prefixes, bool), usize> = HashMap::new();
            class = (0..self.rules.len())
                .map(|q| {
                    let shape: Prefixes = self.rules[q]
                        .iter()
                        .map(|r| (r.sym, r.kids.iter().map(|&c| class[c]).collect()))
                        .collect();
                    let n = next_intern.len();
                    let root = keep_root && q == self.root;
                    *next_intern
                        .entry((sig[q].clone(), shape, root))
                        .or_insert(n)
                })
                .collect();
        }
        let classes = class.iter().copied().max().map_or(0, |m| m + 1);
        let mut rules: Vec<Vec<Rule>> = vec![vec![]; classes];
        for (q, rs) in self.rules.iter().enumerate() {
            for r in rs {
                rules[class[q]].push(Rule {
                    sym: r.sym,
                    kids: r.kids.iter().map(|&c| class[c]).collect(),
                });
            }
        }
        let mut a = TreeAut {
            rules,
            root: class[self.root],
        };
        a.trim();
        a
    }

    /// Replaces each leaf `Root(j)` by the trees of `other` (whose references are already
    /// renumbered for this automaton): the component `j` glued back in.
    pub fn substitute(&mut self, j: usize, other: &TreeAut) {
        let off = self.rules.len();
        for rs in &other.rules {
            self.rules.push(
                rs.iter()
                    .map(|r| Rule {
                        sym: r.sym,
                        kids: r.kids.iter().map(|k| k + off).collect(),
                    })
                    .collect(),
            );
        }
        let root_rules = self.rules[other.root + off].clone();
        for q in 0..off {
            let before = self.rules[q].len();
            self.rules[q].retain(|r| r.sym != Symbol::Leaf(Leaf::Root(j)));
            if self.rules[q].len() != before {
                self.rules[q].extend(root_rules.iter().cloned());
            }
        }
        self.trim();
    }

    /// Renames every root reference by `f` (`None`: the reference becomes [`Leaf::Undef`]).
    pub fn rename_refs(&mut self, f: &dyn Fn(usize) -> Option<usize>) {
        for rs in &mut self.rules {
            for r in rs.iter_mut() {
                if let Symbol::Leaf(Leaf::Root(j)) = r.sym {
                    r.sym = Symbol::Leaf(f(j).map_or(Leaf::Undef, Leaf::Root));
                }
            }
            rs.sort();
            rs.dedup();
        }
    }
}

/// A rule's signature from its children's, when all are known.
fn rule_sig(r: &Rule, sig: &[Option<Sig>]) -> Option<Sig> {
    match r.sym {
        Symbol::Leaf(Leaf::Root(j)) => Some(vec![(j, 1)]),
        Symbol::Leaf(_) => Some(vec![]),
        Symbol::Node(..) => {
            let mut s: Sig = vec![];
            for &k in &r.kids {
                for &(j, c) in sig[k].as_ref()? {
                    match s.iter_mut().find(|(i, _)| *i == j) {
                        Some(e) => e.1 = (e.1 + c).min(2),
                        None => s.push((j, c)),
                    }
                }
            }
            Some(s)
        }
    }
}

#[path = "ta_inclusion.rs"]
mod inclusion;

#[cfg(test)]
#[path = "ta_tests.rs"]
mod tests;
