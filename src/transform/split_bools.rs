//! Splitting predicates by the values of their Boolean arguments: `P(b, x)` becomes one
//! predicate `P@v(x)` per valuation `v` of `b` that is reachable in the Boolean skeleton of the
//! system.
//!
//! Transition systems from hardware and program encodings (VMT, Lustre) keep the control state
//! in Boolean arguments; their invariants are then disjunctive (`pc = 3 → x ≤ y`), which
//! conjunctive engines miss. After the split each control state has its own predicate, and its
//! invariant is often a conjunction again.
//!
//! The reachable valuations are enumerated by a fixpoint over the clauses: for every clause and
//! every combination of reachable valuations of its body atoms, the solver enumerates the head
//! valuations its constraint admits (the other arguments are unconstrained, so this
//! over-approximates reachability). Each admitted combination becomes one clause of the new
//! system, its constraint with the Boolean arguments replaced by their values. A predicate with
//! more than [`SplitBooleans::max_valuations`] valuations is not split; when the enumeration
//! costs more than its budget, or the solver cannot decide a step, the system stays as it is.
//!
//! Must not: drop a satisfiable combination (the new system must have the same answer), or
//! keep a variable of a split argument in a new clause. Back-translation: a model of `P` is the
//! disjunction over `v` of `b = v ∧ M(P@v)(x)`; a derivation step gets the Boolean values of
//! its clause instance back.

use super::{BackError, BackTranslator, Identity, Transform};
use crate::chc::{Atom, Clause, ClauseId, Head, PredId, System};
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use crate::witness::{DerivNode, Derivation, Interp, Model};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

/// Splits predicates by their reachable Boolean valuations.
#[derive(Clone, Debug)]
pub struct SplitBooleans {
    /// Most valuations a predicate may have and still be split.
    pub max_valuations: usize,
    /// Most predicates the new system may have.
    pub max_preds: usize,
    /// Most body-valuation combinations enumerated for one clause.
    pub max_combinations: usize,
    /// Time for the whole enumeration; past it the system stays as it is.
    pub budget: Duration,
}

impl Default for SplitBooleans {
    fn default() -> Self {
        SplitBooleans {
            max_valuations: 32,
            max_preds: 64,
            max_combinations: 256,
            budget: Duration::from_secs(2),
        }
    }
}

/// One clause of the new system: a clause of the old one with its split Boolean arguments
/// fixed.
struct Instance {
    clause: ClauseId,
    /// Per body atom: the valuation index of its predicate (`None`: not split).
    body: Vec<Option<usize>>,
    /// The head's valuation index (`None`: a query, or a head that is not split).
    head: Option<usize>,
}

/// The reachable valuations of every predicate, and the clause instances that reach them.
struct Skeleton {
    /// Per predicate: the positions of its Boolean arguments, empty when it is not split.
    split: Vec<Vec<usize>>,
    /// Per predicate: its reachable valuations (of the positions in `split`).
    valuations: Vec<Vec<Vec<bool>>>,
    instances: Vec<Instance>,
}

/// Why the enumeration stopped without a result.
enum Stop {
    /// A predicate has too many valuations: it is not split, and the enumeration restarts.
    Demote(PredId),
    /// Out of budget, too many combinations, or an undecided check: no split at all.
    GiveUp,
}

impl Transform for SplitBooleans {
    fn name(&self) -> &'static str {
        "split_bools"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        self.split(store, system)
            .unwrap_or_else(|| (system.clone(), Box::new(Identity)))
    }
}

impl SplitBooleans {
    /// The split system and its back-translator; `None` when no predicate is split (no
    /// Boolean arguments, too many valuations, or the enumeration ran out of budget).
    pub fn split(
        &self,
        store: &TermStore,
        system: &System,
    ) -> Option<(System, Box<dyn BackTranslator>)> {
        let mut split: Vec<Vec<usize>> = system
            .pred_ids()
            .map(|p| {
                let sorts = &system.pred(p).sorts;
                (0..sorts.len())
                    .filter(|k| sorts[*k] == Sort::Bool)
                    .collect()
            })
            .collect();
        if split.iter().all(Vec::is_empty) {
            return None;
        }
        let deadline = Deadline::after(self.budget);
        let skeleton = loop {
            match self.enumerate(store, system, &split, deadline.clone()) {
                Ok(s) => break s,
                Err(Stop::Demote(p)) => split[p.0 as usize].clear(),
                Err(Stop::GiveUp) => return None,
            }
            if split.iter().all(Vec::is_empty) {
                return None;
            }
        };
        let count: usize = system
            .pred_ids()
            .map(|p| match skeleton.split[p.0 as usize].is_empty() {
                true => 1,
                false => skeleton.valuations[p.0 as usize].len(),
            })
            .sum();
        if count > self.max_preds {
            return None;
        }
        Some(build(store, system, skeleton))
    }
}

impl SplitBooleans {
    /// The fixpoint of reachable valuations for the predicates whose Boolean positions
    /// `split` gives.
    fn enumerate(
        &self,
        store: &TermStore,
        system: &System,
        split: &[Vec<usize>],
        deadline: Deadline,
    ) -> Result<Skeleton, Stop> {
        let mut valuations: Vec<Vec<Vec<bool>>> = vec![Vec::new(); split.len()];
        let mut instances = Vec::new();
        let mut done: HashSet<(ClauseId, Vec<Option<usize>>)> = HashSet::new();
        // One solver for the whole enumeration, a scope per combination (the previous
        // combination's scope is closed when the next one opens): a fresh Z3 solver per check
        // cost most of the split's time on the kind2 systems.
        let mut smt = Smt::new(store, deadline.clone());
        smt.push();
        let mut changed = true;
        while changed {
            changed = false;
            for (cid, c) in system.clauses() {
                for combo in combinations(c, split, &valuations, self.max_combinations)? {
                    if !done.insert((cid, combo.clone())) {
                        continue;
                    }
                    if deadline.expired() {
                        return Err(Stop::GiveUp);
                    }
                    let fixed = body_values(store, c, split, &valuations, &combo);
                    let constraint = store.substitute(c.constraint, &fixed);
                    smt.pop(1);
                    smt.push();
                    smt.assert(constraint);
                    let head = c
                        .head_atom()
                        .filter(|h| !split[h.pred.0 as usize].is_empty());
                    let Some(h) = head else {
                        // A query or an unsplit head: one instance when the constraint is
                        // satisfiable (or undecided, which keeps the clause).
                        if smt.check() != SatResult::Unsat {
                            instances.push(Instance {
                                clause: cid,
                                body: combo,
                                head: None,
                            });
                        }
                        continue;
                    };
                    let p = h.pred.0 as usize;
                    let vars: Vec<VarId> = split[p].iter().map(|k| h.args[*k]).collect();
                    loop {
                        match smt.check() {
                            SatResult::Unsat => break,
                            SatResult::Unknown(_) => return Err(Stop::GiveUp),
                            SatResult::Sat => {}
                        }
                        let Some(vals) = smt.values(vars.iter().copied()) else {
                            return Err(Stop::GiveUp);
                        };
                        let v: Vec<bool> = vars
                            .iter()
                            .map(|x| vals.get(x) == Some(&Value::Bool(true)))
                            .collect();
                        let idx = match valuations[p].iter().position(|w| *w == v) {
                            Some(i) => i,
                            None => {
                                if valuations[p].len() == self.max_valuations {
                                    return Err(Stop::Demote(h.pred));
                                }
                                valuations[p].push(v.clone());
                                changed = true;
                                valuations[p].len() - 1
                            }
                        };
                        instances.push(Instance {
                            clause: cid,
                            body: combo.clone(),
                            head: Some(idx),
                        });
                        smt.assert(store.not(valuation_term(store, &vars, &v)));
                    }
                }
            }
        }
        Ok(Skeleton {
            split: split.to_vec(),
            valuations,
            instances,
        })
    }
}

/// The combinations of valuation indices of `c`'s body atoms (`None` for unsplit
/// predicates), or `GiveUp` when there are more than `max`.
fn combinations(
    c: &Clause,
    split: &[Vec<usize>],
    valuations: &[Vec<Vec<bool>>],
    max: usize,
) -> Result<Vec<Vec<Option<usize>>>, Stop> {
    let mut out: Vec<Vec<Option<usize>>> = vec![Vec::new()];
    for a in &c.body {
        let p = a.pred.0 as usize;
        let options: Vec<Option<usize>> = match split[p].is_empty() {
            true => vec![None],
            false => (0..valuations[p].len()).map(Some).collect(),
        };
        out = out
            .into_iter()
            .flat_map(|prefix| {
                options.iter().map(move |o| {
                    let mut next = prefix.clone();
                    next.push(*o);
                    next
                })
            })
            .collect();
        if out.len() > max {
            return Err(Stop::GiveUp);
        }
    }
    Ok(out)
}

/// The substitution of the split Boolean arguments of `c`'s body atoms by the values of
/// `combo`.
fn body_values(
    store: &TermStore,
    c: &Clause,
    split: &[Vec<usize>],
    valuations: &[Vec<Vec<bool>>],
    combo: &[Option<usize>],
) -> HashMap<VarId, TermId> {
    let mut map = HashMap::new();
    for (a, idx) in c.body.iter().zip(combo) {
        if let Some(i) = idx {
            let p = a.pred.0 as usize;
            for (k, b) in split[p].iter().zip(&valuations[p][*i]) {
                map.insert(a.args[*k], store.bool(*b));
            }
        }
    }
    map
}

/// `⋀ vars[i] = v[i]`.
fn valuation_term(store: &TermStore, vars: &[VarId], v: &[bool]) -> TermId {
    store.and(vars.iter().zip(v).map(|(x, b)| match b {
        true => store.var(*x),
        false => store.not(store.var(*x)),
    }))
}

/// The new system of a skeleton, and its back-translator.
fn build(store: &TermStore, system: &System, sk: Skeleton) -> (System, Box<dyn BackTranslator>) {
    let mut new = System::new();
    // Per predicate: its new predicate per valuation (one entry, index 0, when not split).
    let mut ids: Vec<Vec<PredId>> = Vec::new();
    for p in system.pred_ids() {
        let d = system.pred(p);
        let pos = &sk.split[p.0 as usize];
        if pos.is_empty() {
            ids.push(vec![new.add_pred(d.name.clone(), d.sorts.clone())]);
            continue;
        }
        let sorts: Vec<Sort> = (0..d.sorts.len())
            .filter(|k| !pos.contains(k))
            .map(|k| d.sorts[k].clone())
            .collect();
        let preds = sk.valuations[p.0 as usize]
            .iter()
            .map(|v| {
                let bits: String = v.iter().map(|b| if *b { '1' } else { '0' }).collect();
                new.add_pred(format!("{}@{bits}", d.name), sorts.clone())
            })
            .collect();
        ids.push(preds);
    }
    let atom = |a: &Atom, idx: Option<usize>, fixed: &mut BTreeMap<VarId, Value>| {
        let p = a.pred.0 as usize;
        let pos = &sk.split[p];
        let Some(i) = idx else {
            return Atom {
                pred: ids[p][0],
                args: a.args.clone(),
            };
        };
        for (k, b) in pos.iter().zip(&sk.valuations[p][i]) {
            fixed.insert(a.args[*k], Value::Bool(*b));
        }
        Atom {
            pred: ids[p][i],
            args: (0..a.args.len())
                .filter(|k| !pos.contains(k))
                .map(|k| a.args[k])
                .collect(),
        }
    };
    let mut origin = Vec::with_capacity(sk.instances.len());
    for inst in &sk.instances {
        let c = system.clause(inst.clause);
        let mut fixed = BTreeMap::new();
        let body = c
            .body
            .iter()
            .zip(&inst.body)
            .map(|(a, idx)| atom(a, *idx, &mut fixed))
            .collect();
        let head = match &c.head {
            Head::Atom(h) => Head::Atom(atom(h, inst.head, &mut fixed)),
            Head::False => Head::False,
        };
        let map: HashMap<VarId, TermId> = fixed
            .iter()
            .map(|(v, x)| (*v, store.value_term(x, &Sort::Bool)))
            .collect();
        new.add_clause(Clause {
            body,
            constraint: store.substitute(c.constraint, &map),
            head,
        });
        origin.push((inst.clause, fixed));
    }
    let back = Back {
        orig: system.clone(),
        split: sk.split,
        valuations: sk.valuations,
        ids,
        origin,
    };
    (new, Box::new(back))
}

/// Back-translation of [`SplitBooleans`].
struct Back {
    orig: System,
    split: Vec<Vec<usize>>,
    valuations: Vec<Vec<Vec<bool>>>,
    /// Per old predicate: its new predicates, by valuation.
    ids: Vec<Vec<PredId>>,
    /// Per new clause: the old clause and the values of its split Boolean variables.
    origin: Vec<(ClauseId, BTreeMap<VarId, Value>)>,
}

impl BackTranslator for Back {
    fn model(&self, store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        let mut out = Model::new();
        for p in self.orig.pred_ids() {
            let pos = &self.split[p.0 as usize];
            let ids = &self.ids[p.0 as usize];
            if pos.is_empty() {
                if let Some(i) = model.get(ids[0]) {
                    out.set(p, i.clone());
                }
                continue;
            }
            let params = self.orig.fresh_params(store, p);
            let rest: Vec<VarId> = (0..params.len())
                .filter(|k| !pos.contains(k))
                .map(|k| params[k])
                .collect();
            let bools: Vec<VarId> = pos.iter().map(|k| params[*k]).collect();
            let disjuncts = ids
                .iter()
                .zip(&self.valuations[p.0 as usize])
                .filter_map(|(q, v)| {
                    let i = model.get(*q)?;
                    let body = store.rename(i.body, &i.params, &rest);
                    Some(store.and([valuation_term(store, &bools, v), body]))
                });
            let body = store.or(disjuncts.collect::<Vec<_>>());
            out.set(p, Interp { params, body });
        }
        out
    }

    fn derivation(
        &self,
        _store: &TermStore,
        d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        let nodes = d
            .nodes
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                let (clause, fixed) = self
                    .origin
                    .get(n.clause.0 as usize)
                    .ok_or(BackError::NoSuchClause(i))?;
                let mut assignment = n.assignment;
                assignment.extend(fixed.iter().map(|(v, x)| (*v, x.clone())));
                Ok(DerivNode {
                    clause: *clause,
                    assignment,
                    children: n.children,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Derivation { nodes })
    }
}
