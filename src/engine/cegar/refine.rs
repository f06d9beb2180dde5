//! Counterexample analysis: an abstract counterexample tree becomes a recursion-free clause
//! instance tree over fresh copies of the variables; Z3 decides it. Feasible: a derivation for
//! `unsat`. Infeasible: tree interpolants (small, by [`crate::interp`]) become candidate
//! predicates of the predicate symbols whose instances they label.
//!
//! Duty: build the unwinding, read derivations from models, map interpolants back to predicate
//! parameters. Must not: decide the abstraction or trust an interpolant it did not get checked.

use super::abstraction::{ArtNode, Candidates};
use crate::chc::{ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::interp::{cut_interpolants, formula_size, tree_interpolate_hinted, Interpolator};
use crate::smt::{SatResult, Smt};
use crate::term::{TermId, TermStore, VarId};
use crate::witness::{DerivNode, Derivation};
use std::collections::{BTreeMap, HashMap};

/// One clause instance of the unwinding.
struct Inst {
    clause: ClauseId,
    children: Vec<usize>,
    /// Clause variable → its copy.
    rename: HashMap<VarId, VarId>,
    /// The head's predicate and argument copies (none for the query).
    head: Option<(PredId, Vec<VarId>)>,
    constraint: TermId,
}

/// What counterexample analysis found.
pub enum Analysis {
    /// The counterexample is real.
    Real(Derivation),
    /// Spurious: this many new candidates were added (with their sizes).
    Refined(Vec<u64>),
    /// Neither (interpolation failed, solver gave up).
    Failed(String),
}

/// The tree of the abstract counterexample `(query, kids)` over `nodes`, unfolded (shared nodes
/// are copied), children before parents, the query last.
fn unfold(nodes: &[ArtNode], query: ClauseId, kids: &[usize]) -> Vec<(ClauseId, Vec<usize>)> {
    fn go(nodes: &[ArtNode], n: usize, out: &mut Vec<(ClauseId, Vec<usize>)>) -> usize {
        let kids: Vec<usize> = nodes[n]
            .children
            .iter()
            .map(|&c| go(nodes, c, out))
            .collect();
        out.push((nodes[n].clause, kids));
        out.len() - 1
    }
    let mut out = Vec::new();
    let top: Vec<usize> = kids.iter().map(|&k| go(nodes, k, &mut out)).collect();
    out.push((query, top));
    out
}

fn instantiate(
    store: &TermStore,
    system: &System,
    tree: &[(ClauseId, Vec<usize>)],
    tag: u64,
) -> Vec<Inst> {
    let mut out: Vec<Inst> = Vec::new();
    for (i, (cid, kids)) in tree.iter().enumerate() {
        let clause = system.clause(*cid);
        let mut rename: HashMap<VarId, VarId> = HashMap::new();
        for (atom, &k) in clause.body.iter().zip(kids) {
            let (_, args) = out[k].head.as_ref().expect("a premise has a head");
            rename.extend(atom.args.iter().copied().zip(args.iter().copied()));
        }
        for v in clause.vars(store) {
            rename.entry(v).or_insert_with(|| {
                store.new_var(
                    &format!("{}@{tag}.{i}", store.var_name(v)),
                    store.var_sort(v),
                )
            });
        }
        let head = clause
            .head_atom()
            .map(|h| (h.pred, h.args.iter().map(|a| rename[a]).collect()));
        let map: HashMap<VarId, TermId> = rename.iter().map(|(k, v)| (*k, store.var(*v))).collect();
        let constraint = store.substitute(clause.constraint, &map);
        out.push(Inst {
            clause: *cid,
            children: kids.clone(),
            rename,
            head,
            constraint,
        });
    }
    out
}

/// Analyses one abstract counterexample; adds candidates to `cands` when it is spurious.
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    store: &TermStore,
    system: &System,
    deadline: Deadline,
    cands: &mut Candidates,
    nodes: &[ArtNode],
    query: ClauseId,
    kids: &[usize],
    tag: u64,
    checks: &mut u64,
) -> Analysis {
    let tree = unfold(nodes, query, kids);
    let insts = instantiate(store, system, &tree, tag);
    let mut smt = Smt::new(store, deadline.clone());
    for inst in &insts {
        smt.assert(inst.constraint);
    }
    *checks += 1;
    match smt.check() {
        SatResult::Sat => {
            let mut d = Derivation::default();
            for inst in &insts {
                let pairs: Vec<(VarId, VarId)> =
                    inst.rename.iter().map(|(a, b)| (*a, *b)).collect();
                let Some(vals) = smt.values(pairs.iter().map(|p| p.1)) else {
                    return Analysis::Failed("cegar: could not read the counterexample".into());
                };
                let assignment: BTreeMap<VarId, _> =
                    pairs.iter().map(|(o, c)| (*o, vals[c].clone())).collect();
                d.nodes.push(DerivNode {
                    clause: inst.clause,
                    assignment,
                    children: inst.children.clone(),
                });
            }
            return Analysis::Real(d);
        }
        SatResult::Unknown(r) => return Analysis::Failed(format!("cegar: {r}")),
        SatResult::Unsat => {}
    }
    // Interpolate the exact constraints (disjunctions included), not one cube of them: the
    // predicates must refute every path through this tree's clause instances, else the next
    // abstraction can find the same tree again through another disjunct.
    let cubes: Vec<Vec<TermId>> = insts
        .iter()
        .map(|i| store.conjuncts(i.constraint))
        .collect();
    let children: Vec<Vec<usize>> = insts.iter().map(|i| i.children.clone()).collect();
    let mut itp = Interpolator::new(store, deadline.clone());
    // Independent cut interpolants see whole prefixes and generalise across unrolled copies;
    // chained tree interpolants refute this tree (progress), reusing a cut interpolant wherever
    // it chains (one implication check instead of a Farkas search). Both become candidates.
    let cuts = cut_interpolants(&mut itp, &children, &cubes);
    let chained = tree_interpolate_hinted(&mut itp, &children, &cubes, &cuts);
    *checks += itp.checks;
    let Some(chained) = chained else {
        if deadline.expired() {
            return Analysis::Failed("timeout".into());
        }
        return Analysis::Failed(
            "cegar: interpolation failed (non-linear or integer-only refutation)".into(),
        );
    };
    let mut sizes = Vec::new();
    let labelled = insts
        .iter()
        .zip(&cuts)
        .filter_map(|(inst, c)| c.map(|c| (inst, c)));
    for (inst, i) in insts.iter().zip(chained).chain(labelled) {
        let Some((p, args)) = &inst.head else {
            continue;
        };
        let map: HashMap<VarId, TermId> = args
            .iter()
            .zip(&cands.params[p.0 as usize])
            .map(|(a, x)| (*a, store.var(*x)))
            .collect();
        // conjuncts separately: the Cartesian abstraction then keeps what still holds
        for t in store.conjuncts(store.substitute(i, &map)) {
            if cands.add(store, *p, t) {
                sizes.push(formula_size(store, t));
            }
        }
    }
    Analysis::Refined(sizes)
}
