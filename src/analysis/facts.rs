//! Extraction of the input relations ([`Facts`], declared in `rules/input.rs`) from a system.
//!
//! Must not: run rules (see `programs.rs`) or know the source text (positions are added by
//! the front end that read it).

use super::Facts;
use crate::chc::{PredId, System};
use crate::term::{TermStore, VarId};
use std::collections::{BTreeMap, BTreeSet};

impl Facts {
    /// Extracts the relations of `system`, whose terms live in `store`.
    pub fn extract(system: &System, store: &TermStore) -> Facts {
        let mut f = Facts::default();
        for p in system.pred_ids() {
            let decl = system.pred(p);
            f.pred.push((p, decl.sorts.len() as u32));
            f.pred_name.push((p, decl.name.clone()));
            for (i, s) in decl.sorts.iter().enumerate() {
                f.arg_sort.push((p, i as u32, s.to_string()));
            }
        }
        let mut vars = BTreeSet::new();
        for (cid, cl) in system.clauses() {
            let c = cid;
            f.clause.push((c,));
            if cl.is_fact() {
                f.fact_clause.push((c,));
            }
            for (pos, atom) in cl.body.iter().enumerate() {
                f.body_atom.push((c, pos as u32, atom.pred));
                for (i, v) in atom.args.iter().enumerate() {
                    f.body_arg.push((c, pos as u32, i as u32, *v));
                    vars.insert(*v);
                }
            }
            let head_vars: BTreeMap<VarId, u32> = match cl.head_atom() {
                Some(h) => {
                    f.head_atom.push((c, h.pred));
                    for (j, v) in h.args.iter().enumerate() {
                        f.head_arg.push((c, j as u32, *v));
                        vars.insert(*v);
                    }
                    h.args
                        .iter()
                        .enumerate()
                        .map(|(j, v)| (*v, j as u32))
                        .collect()
                }
                None => {
                    f.query.push((c,));
                    BTreeMap::new()
                }
            };
            let cvars = store.free_vars(cl.constraint);
            for v in &cvars {
                f.constraint_var.push((c, *v));
                vars.insert(*v);
            }
            let conjuncts = store.conjuncts(cl.constraint);
            let conj_vars: Vec<BTreeSet<VarId>> =
                conjuncts.iter().map(|t| store.free_vars(*t)).collect();
            // How many conjuncts each variable occurs in.
            let mut occurrences: BTreeMap<VarId, usize> = BTreeMap::new();
            for vs in &conj_vars {
                for v in vs {
                    *occurrences.entry(*v).or_default() += 1;
                }
            }
            for (k, (t, vs)) in conjuncts.iter().zip(&conj_vars).enumerate() {
                let k = k as u32;
                f.conjunct.push((c, k));
                for v in vs {
                    f.conjunct_var.push((c, k, *v));
                }
                let defined = defined_vars(store, *t)
                    .into_iter()
                    .find(|h| head_vars.contains_key(h) && occurrences.get(h) == Some(&1));
                if let Some(h) = defined {
                    f.definition.push((c, k, h));
                }
                if let Some((v, op, n)) = super::atoms::bound(store, *t) {
                    f.bound.push((c, k, v, op, n));
                }
                for (a, b, d) in super::atoms::steps(store, *t) {
                    f.step.push((c, k, a, b, d));
                }
            }
            // Argument flow: the same variable, or a common conjunct. Computed with one bit set
            // of body positions per head argument, so that many wide conjuncts cost words, not
            // tuples (wide predicates have tens of thousands of flows).
            if let Some(h) = cl.head_atom() {
                let mut slots: Vec<(PredId, u32)> = Vec::new();
                let mut body_pos: BTreeMap<VarId, Vec<usize>> = BTreeMap::new();
                for atom in &cl.body {
                    for (i, v) in atom.args.iter().enumerate() {
                        body_pos.entry(*v).or_default().push(slots.len());
                        slots.push((atom.pred, i as u32));
                    }
                }
                let words = slots.len().div_ceil(64);
                let mut reach = vec![vec![0u64; words]; h.args.len()];
                let mut add = |j: u32, mask: &[u64]| {
                    for (r, m) in reach[j as usize].iter_mut().zip(mask) {
                        *r |= m;
                    }
                };
                let mut mask = vec![0u64; words];
                for (v, &j) in &head_vars {
                    mask.iter_mut().for_each(|w| *w = 0);
                    for &k in body_pos.get(v).into_iter().flatten() {
                        mask[k / 64] |= 1 << (k % 64);
                    }
                    add(j, &mask);
                }
                for vs in &conj_vars {
                    mask.iter_mut().for_each(|w| *w = 0);
                    for v in vs {
                        for &k in body_pos.get(v).into_iter().flatten() {
                            mask[k / 64] |= 1 << (k % 64);
                        }
                    }
                    for v in vs {
                        if let Some(&j) = head_vars.get(v) {
                            add(j, &mask);
                        }
                    }
                }
                let q = h.pred;
                let mut flow = Vec::new();
                for (j, bits) in reach.iter().enumerate() {
                    for (k, &(p, i)) in slots.iter().enumerate() {
                        if bits[k / 64] >> (k % 64) & 1 == 1 {
                            flow.push((c, p, i, q, j as u32));
                        }
                    }
                }
                flow.sort_unstable();
                flow.dedup();
                f.arg_flow.extend(flow);
            }
        }
        f.var_name = vars
            .into_iter()
            .map(|v| (v, store.var_name(v).to_string()))
            .collect();
        f
    }
}

/// The comment that opens the schema of a clause system's relations.
pub const SCHEMA_HEADER: &str =
    "// Relations of a Hornbeam clause system (written by `hornbeam facts`).\n\
     // Ids: p = predicate, c = clause, v/h = variable, l/m = loop; positions, argument indices\n\
     // (i, j) and conjunct indices (k) count from 0. Each relation is in NAME.facts, one tuple\n\
     // per line, tab-separated. Normal form: a clause's body atoms and its head never share a\n\
     // variable (every argument is a fresh variable; the constraint relates them), so data\n\
     // flow from body to head is read from `definition` and `arg_flow`, not from equal ids.\n\
     // The reference, with a worked example: docs/relations.md in Hornbeam's repository.\n";

/// The variables `v` such that `t` is `v = e` or `e = v` with `v` not occurring in `e` (the left
/// side first).
fn defined_vars(store: &TermStore, t: crate::term::TermId) -> Vec<VarId> {
    let mut out = Vec::new();
    for (a, b) in super::atoms::sides(store, t) {
        if let Some(v) = store.as_var(a) {
            if !store.free_vars(b).contains(&v) {
                out.push(v);
            }
        }
    }
    out
}
