//! Moving witnesses to another store (and thread): [`Model::export`] and
//! [`Derivation::export`] make owned, `Send + Sync` snapshots ([`ExportedModel`],
//! [`ExportedDerivation`]) that import into any store.
//!
//! Duty: a witness names the variables of its store (model parameters, the clause variables a
//! derivation assigns); an import renames them through a [`VarMap`]. A derivation is about a
//! system's clauses, so it is imported with the map its system's import made (or that map's
//! inverse, on the way back), and it then refers to the clauses of the system in the target
//! store; unknown variables become fresh ones. Values are plain data (constructor ids line up
//! because the snapshot carries the datatype declarations). It must not check a witness:
//! validation stays with the caller, against whichever system it trusts.

use super::{DerivNode, Derivation, Interp, Model};
use crate::chc::PredId;
use crate::term::{Exported, TermStore, TransferError, VarId, VarMap};

/// An owned snapshot of a [`Model`]: one root per interpretation body, every parameter carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportedModel {
    terms: Exported,
    /// Predicate and parameters (source variables) of each interpretation; the body of the
    /// `i`-th is root `i`.
    interps: Vec<(PredId, Vec<VarId>)>,
}

/// An owned snapshot of a [`Derivation`]: its nodes over the source store's variables, and
/// those variables (names, sorts) with the datatype declarations their values use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportedDerivation {
    vars: Exported,
    nodes: Vec<DerivNode>,
}

const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<ExportedModel>();
    send_sync::<ExportedDerivation>();
};

impl Model {
    /// A snapshot of the model, whose terms live in `store`.
    pub fn export(&self, store: &TermStore) -> ExportedModel {
        let bodies: Vec<_> = self.iter().map(|(_, i)| i.body).collect();
        let params: Vec<VarId> = self
            .iter()
            .flat_map(|(_, i)| i.params.iter().copied())
            .collect();
        ExportedModel {
            terms: store.export_with_vars(&bodies, &params),
            interps: self.iter().map(|(p, i)| (p, i.params.clone())).collect(),
        }
    }
}

impl ExportedModel {
    /// The model in `store`, over fresh variables (model parameters are the model's own, so
    /// this is the common case); and the map from the source's variables to the target's.
    pub fn import(&self, store: &TermStore) -> Result<(Model, VarMap), TransferError> {
        self.import_with(store, &VarMap::new())
    }

    /// [`ExportedModel::import`], reusing the variables `known` maps (see
    /// `TermStore::import_with`).
    pub fn import_with(
        &self,
        store: &TermStore,
        known: &VarMap,
    ) -> Result<(Model, VarMap), TransferError> {
        let imported = store.import_with(&self.terms, known)?;
        let mut model = Model::new();
        for ((p, params), body) in self.interps.iter().zip(imported.roots) {
            let params = params.iter().map(|v| imported.vars.apply(*v)).collect();
            model.set(*p, Interp { params, body });
        }
        Ok((model, imported.vars))
    }
}

impl Derivation {
    /// A snapshot of the derivation, whose variables live in `store`.
    pub fn export(&self, store: &TermStore) -> ExportedDerivation {
        let vars: Vec<VarId> = self
            .nodes
            .iter()
            .flat_map(|n| n.assignment.keys().copied())
            .collect();
        ExportedDerivation {
            vars: store.export_with_vars(&[], &vars),
            nodes: self.nodes.clone(),
        }
    }
}

impl ExportedDerivation {
    /// The derivation in `store`: each assigned variable renamed by `system_vars` (the map
    /// the system's import made, or its inverse on the way back, so that the derivation fits
    /// the system's clauses in `store`), or fresh if it does not map it; and the map from the
    /// source's variables to the target's.
    pub fn import(
        &self,
        store: &TermStore,
        system_vars: &VarMap,
    ) -> Result<(Derivation, VarMap), TransferError> {
        let imported = store.import_with(&self.vars, system_vars)?;
        let vars = imported.vars;
        let nodes = self
            .nodes
            .iter()
            .map(|n| DerivNode {
                clause: n.clause,
                assignment: n
                    .assignment
                    .iter()
                    .map(|(v, x)| (vars.apply(*v), x.clone()))
                    .collect(),
                children: n.children.clone(),
            })
            .collect();
        Ok((Derivation { nodes }, vars))
    }
}
