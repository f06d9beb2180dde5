//! Constrained Horn clauses: predicates, clauses and systems, with typed ids, plus SMT-LIB
//! printing.
//!
//! Normal form (the invariant every later layer relies on): each clause is
//! `body atoms ∧ constraint → head atom | false`, where every argument of every atom is a
//! variable and no variable fills two atom argument positions of the same clause. Constraints are
//! quantifier-free terms of the clause's [`TermStore`]. A system moves to another store (and
//! thread) as an [`ExportedSystem`]. This module uses only `term`.

mod print;
mod transfer;

pub use print::SystemPrinter;
pub use transfer::ExportedSystem;

use crate::term::{Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use std::collections::{BTreeSet, HashMap};

/// A predicate symbol of a [`System`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub u32);

/// A clause of a [`System`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClauseId(pub u32);

/// A declared predicate: its name (for printing only) and argument sorts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredDecl {
    /// The name from the input, used only for output.
    pub name: String,
    /// Argument sorts.
    pub sorts: Vec<Sort>,
}

/// An application of a predicate to distinct variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The predicate.
    pub pred: PredId,
    /// One variable per argument.
    pub args: Vec<VarId>,
}

/// The head of a clause: an atom, or `false` for a query.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Head {
    /// A predicate application.
    Atom(Atom),
    /// `false`: the clause is a query (its body must be unreachable).
    False,
}

/// `body ∧ constraint → head`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Body atoms (none for a fact; several for a non-linear clause).
    pub body: Vec<Atom>,
    /// A quantifier-free Boolean term.
    pub constraint: TermId,
    /// The head.
    pub head: Head,
}

impl Clause {
    /// Whether the head is `false`.
    pub fn is_query(&self) -> bool {
        matches!(self.head, Head::False)
    }

    /// Whether the body has no atom.
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }

    /// The head atom, if any.
    pub fn head_atom(&self) -> Option<&Atom> {
        match &self.head {
            Head::Atom(a) => Some(a),
            Head::False => None,
        }
    }

    /// The head predicate, if any.
    pub fn head_pred(&self) -> Option<PredId> {
        self.head_atom().map(|a| a.pred)
    }

    /// All variables of the clause: atom arguments and free variables of the constraint.
    pub fn vars(&self, store: &TermStore) -> BTreeSet<VarId> {
        let mut vs = store.free_vars(self.constraint);
        for a in self.body.iter().chain(self.head_atom()) {
            vs.extend(a.args.iter().copied());
        }
        vs
    }

    /// An instance of the clause: its variables renamed by `fixed` (atom arguments to the
    /// variables an unrolling matches them with), every other variable to a fresh copy named
    /// after it with `tag` appended. Returns the renaming of every variable and the renamed
    /// constraint.
    pub fn instance(
        &self,
        store: &TermStore,
        fixed: impl IntoIterator<Item = (VarId, VarId)>,
        tag: &str,
    ) -> (HashMap<VarId, VarId>, TermId) {
        let mut rename: HashMap<VarId, VarId> = fixed.into_iter().collect();
        for v in self.vars(store) {
            rename.entry(v).or_insert_with(|| {
                store.new_var(&format!("{}{tag}", store.var_name(v)), store.var_sort(v))
            });
        }
        let map: HashMap<VarId, TermId> = rename.iter().map(|(k, v)| (*k, store.var(*v))).collect();
        let constraint = store.substitute(self.constraint, &map);
        (rename, constraint)
    }
}

/// A set of clauses over declared predicates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct System {
    preds: Vec<PredDecl>,
    clauses: Vec<Clause>,
}

impl System {
    /// An empty system.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a predicate.
    pub fn add_pred(&mut self, name: impl Into<String>, sorts: Vec<Sort>) -> PredId {
        self.preds.push(PredDecl {
            name: name.into(),
            sorts,
        });
        PredId(self.preds.len() as u32 - 1)
    }

    /// Adds a clause in normal form.
    ///
    /// # Panics
    /// In debug builds, if the clause breaks the normal form (an atom argument repeated).
    pub fn add_clause(&mut self, clause: Clause) -> ClauseId {
        debug_assert!(
            {
                let mut seen = BTreeSet::new();
                clause
                    .body
                    .iter()
                    .chain(clause.head_atom())
                    .flat_map(|a| a.args.iter())
                    .all(|v| seen.insert(*v))
            },
            "clause not in normal form: repeated atom argument"
        );
        self.clauses.push(clause);
        ClauseId(self.clauses.len() as u32 - 1)
    }

    /// The declaration of a predicate.
    pub fn pred(&self, p: PredId) -> &PredDecl {
        &self.preds[p.0 as usize]
    }

    /// Fresh variables for `p`'s arguments, named `P#k` (what engines interpret `p` over).
    pub fn fresh_params(&self, store: &TermStore, p: PredId) -> Vec<VarId> {
        let d = self.pred(p);
        d.sorts
            .iter()
            .enumerate()
            .map(|(k, s)| store.new_var(&format!("{}#{k}", d.name), s.clone()))
            .collect()
    }

    /// A clause.
    pub fn clause(&self, c: ClauseId) -> &Clause {
        &self.clauses[c.0 as usize]
    }

    /// All predicate ids.
    pub fn pred_ids(&self) -> impl Iterator<Item = PredId> + '_ {
        (0..self.preds.len() as u32).map(PredId)
    }

    /// All clauses with their ids.
    pub fn clauses(&self) -> impl Iterator<Item = (ClauseId, &Clause)> + '_ {
        self.clauses
            .iter()
            .enumerate()
            .map(|(i, c)| (ClauseId(i as u32), c))
    }

    /// The same predicates (same ids) with the clauses `keep` selects, in order, and the id
    /// each kept clause had here.
    pub fn restricted(
        &self,
        mut keep: impl FnMut(ClauseId, &Clause) -> bool,
    ) -> (System, Vec<ClauseId>) {
        let mut out = System {
            preds: self.preds.clone(),
            ..System::new()
        };
        let mut ids = Vec::new();
        for (id, c) in self.clauses() {
            if keep(id, c) {
                out.add_clause(c.clone());
                ids.push(id);
            }
        }
        (out, ids)
    }

    /// Number of predicates.
    pub fn num_preds(&self) -> usize {
        self.preds.len()
    }

    /// Number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.clauses.len()
    }

    /// Looks a predicate up by its input name.
    pub fn pred_by_name(&self, name: &str) -> Option<PredId> {
        self.preds
            .iter()
            .position(|p| p.name == name)
            .map(|i| PredId(i as u32))
    }

    /// Clauses whose head is `p`.
    pub fn clauses_defining(&self, p: PredId) -> impl Iterator<Item = (ClauseId, &Clause)> + '_ {
        self.clauses()
            .filter(move |(_, c)| c.head_pred() == Some(p))
    }

    /// Query clauses (head `false`).
    pub fn queries(&self) -> impl Iterator<Item = (ClauseId, &Clause)> + '_ {
        self.clauses().filter(|(_, c)| c.is_query())
    }

    /// The integer literals of the clause constraints of at most `max_bits` bits, smallest
    /// (in bits) first, at most `max` of them: the loop bounds and stored values a program
    /// compares with, which candidate invariants are built from.
    pub fn small_literals(&self, store: &TermStore, max_bits: u64, max: usize) -> Vec<BigInt> {
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<TermId> = self.clauses.iter().map(|c| c.constraint).collect();
        let mut literals = BTreeSet::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            match &store.get(t).term {
                Term::Int(i) if i.bits() <= max_bits => {
                    literals.insert(i.clone());
                }
                Term::App(_, args) => stack.extend(args.iter().copied()),
                _ => {}
            }
        }
        let mut literals: Vec<BigInt> = literals.into_iter().collect();
        literals.sort_by_key(|c| c.bits());
        literals.truncate(max);
        literals
    }

    /// Whether every clause has at most one body atom.
    pub fn is_linear(&self) -> bool {
        self.clauses.iter().all(|c| c.body.len() <= 1)
    }
}
