//! Counterexamples of PDR: the reach facts that derive `false`, turned into a ground
//! derivation by solving their clauses' conjunction once.
//!
//! Every state of a reach fact is derivable from states of its children's reach facts, so the
//! formula is satisfiable when each use of a reach fact gets its own copy of the clause (a
//! tree). A reach fact used twice is first given one copy (a DAG: small, and enough when the
//! cubes are points, as in recursive functions' call trees); when that is unsatisfiable, the
//! tree is tried, within a bound on its size. Must not: trust the reach facts (an infeasible
//! formula is reported, and the caller replays the derivation).

use super::block::ReachFact;
use crate::chc::System;
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{TermId, TermStore, VarId};
use crate::witness::{DerivNode, Derivation};
use std::collections::{BTreeMap, HashMap};

/// Most clause instances in a tree-shaped counterexample.
const MAX_TREE: usize = 20_000;

/// The derivation of `false` by reach fact `root` (a query's).
pub(super) fn derivation(
    store: &TermStore,
    system: &System,
    reach: &[ReachFact],
    root: usize,
    deadline: Deadline,
) -> Result<Derivation, String> {
    let mut last = String::new();
    for share in [true, false] {
        let mut b = Builder {
            store,
            system,
            reach,
            share,
            memo: HashMap::new(),
            copies: Vec::new(),
            smt: Smt::new(store, deadline.clone()),
        };
        if b.instance(root).is_none() {
            last = "the counterexample tree is too large".into();
            continue;
        }
        match b.smt.check() {
            SatResult::Sat => return b.read(),
            SatResult::Unsat => last = "the reach facts do not derive false".into(),
            SatResult::Unknown(r) => return Err(r),
        }
    }
    Err(last)
}

/// One clause instance of the derivation being built.
struct Copy {
    fact: usize,
    rename: HashMap<VarId, VarId>,
    children: Vec<usize>,
}

struct Builder<'a, 's> {
    store: &'a TermStore,
    system: &'a System,
    reach: &'a [ReachFact],
    share: bool,
    memo: HashMap<usize, usize>,
    copies: Vec<Copy>,
    smt: Smt<'s>,
}

impl Builder<'_, '_> {
    /// Asserts an instance of reach fact `r`'s clause and its children's; the instance index.
    fn instance(&mut self, r: usize) -> Option<usize> {
        if self.share {
            if let Some(&i) = self.memo.get(&r) {
                return Some(i);
            }
        }
        if self.copies.len() >= MAX_TREE {
            return None;
        }
        let store = self.store;
        let fact = &self.reach[r];
        let clause = self.system.clause(fact.clause);
        let mut children = Vec::new();
        for &c in &fact.children {
            children.push(self.instance(c)?);
        }
        let tag = self.copies.len();
        let rename: HashMap<VarId, VarId> = clause
            .vars(store)
            .into_iter()
            .map(|v| {
                let name = format!("{}@{tag}", store.var_name(v));
                (v, store.new_var(&name, store.var_sort(v)))
            })
            .collect();
        let map: HashMap<VarId, TermId> = rename.iter().map(|(k, v)| (*k, store.var(*v))).collect();
        self.smt.assert(store.substitute(clause.constraint, &map));
        for (atom, &c) in clause.body.iter().zip(&children) {
            let child = &self.copies[c];
            let head = self
                .system
                .clause(self.reach[child.fact].clause)
                .head_atom()?;
            for (b, h) in atom.args.iter().zip(&head.args) {
                let eq = store.eq(store.var(rename[b]), store.var(child.rename[h]));
                self.smt.assert(eq);
            }
        }
        self.copies.push(Copy {
            fact: r,
            rename,
            children,
        });
        let i = self.copies.len() - 1;
        self.memo.insert(r, i);
        Some(i)
    }

    /// The derivation from the model (instances are numbered children first).
    fn read(&mut self) -> Result<Derivation, String> {
        let mut nodes = Vec::new();
        for copy in &self.copies {
            let mut assignment = BTreeMap::new();
            for (&orig, &v) in &copy.rename {
                let value = self
                    .smt
                    .value(v)
                    .ok_or("no value in the counterexample model")?;
                assignment.insert(orig, value);
            }
            nodes.push(DerivNode {
                clause: self.reach[copy.fact].clause,
                assignment,
                children: copy.children.clone(),
            });
        }
        Ok(Derivation { nodes })
    }
}
