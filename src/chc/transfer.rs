//! Moving a [`System`] to another store (and thread): [`System::export`] makes an owned,
//! `Send + Sync` [`ExportedSystem`]; [`ExportedSystem::import`] rebuilds the system in any
//! store.
//!
//! Duty: predicates and clauses keep their ids ([`PredId`](super::PredId),
//! [`ClauseId`](super::ClauseId)) and order, constraints are the same terms (see
//! `term::Exported`), atom arguments are renamed by the import's [`VarMap`], which the caller
//! keeps to rename witnesses (models, derivations) between the two stores. It must not change a
//! clause: no normalisation, no simplification.

use super::{Atom, Clause, Head, PredDecl, System};
use crate::term::{Exported, TermStore, TransferError, VarId, VarMap};

/// An owned snapshot of a system: its terms (one root per clause constraint, every clause
/// variable carried) and its predicates and atoms over the source store's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportedSystem {
    terms: Exported,
    preds: Vec<PredDecl>,
    /// Body atoms and head of each clause, in order; clause `i`'s constraint is root `i`.
    shapes: Vec<(Vec<Atom>, Head)>,
}

const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<ExportedSystem>();
};

impl System {
    /// A snapshot of the system, whose terms live in `store`.
    pub fn export(&self, store: &TermStore) -> ExportedSystem {
        let constraints: Vec<_> = self.clauses.iter().map(|c| c.constraint).collect();
        let atom_vars: Vec<VarId> = self
            .clauses
            .iter()
            .flat_map(|c| c.body.iter().chain(c.head_atom()))
            .flat_map(|a| a.args.iter().copied())
            .collect();
        ExportedSystem {
            terms: store.export_with_vars(&constraints, &atom_vars),
            preds: self.preds.clone(),
            shapes: self
                .clauses
                .iter()
                .map(|c| (c.body.clone(), c.head.clone()))
                .collect(),
        }
    }
}

impl ExportedSystem {
    /// The system in `store` (fresh variables for all of its own), and the map from the
    /// source's variables to the new ones.
    pub fn import(&self, store: &TermStore) -> Result<(System, VarMap), TransferError> {
        self.import_with(store, &VarMap::new())
    }

    /// [`ExportedSystem::import`], reusing the variables `known` maps (see
    /// `TermStore::import_with`): with the inverse of the map the first import made, a system
    /// that went to another store comes back equal to the original.
    pub fn import_with(
        &self,
        store: &TermStore,
        known: &VarMap,
    ) -> Result<(System, VarMap), TransferError> {
        let imported = store.import_with(&self.terms, known)?;
        let vars = imported.vars;
        let atom = |a: &Atom| Atom {
            pred: a.pred,
            args: a.args.iter().map(|v| vars.apply(*v)).collect(),
        };
        let mut system = System::new();
        for p in &self.preds {
            system.add_pred(p.name.clone(), p.sorts.clone());
        }
        for ((body, head), constraint) in self.shapes.iter().zip(imported.roots) {
            system.add_clause(Clause {
                body: body.iter().map(atom).collect(),
                constraint,
                head: match head {
                    Head::Atom(a) => Head::Atom(atom(a)),
                    Head::False => Head::False,
                },
            });
        }
        Ok((system, vars))
    }

    /// The number of distinct terms carried (the DAG size of all constraints).
    pub fn num_terms(&self) -> usize {
        self.terms.num_terms()
    }
}
