//! Predicate abstraction over a clause system: candidate predicates per predicate symbol,
//! abstract post of a clause, the Cartesian fixpoint (Houdini-style) and an abstract
//! reachability graph (abstract states kept apart, equal or weaker states covering) that yields
//! abstract counterexample trees.
//!
//! Duty: decide, with Z3 through a [`Pool`] of solvers, which candidates a clause instance implies, and say
//! either "no query is reachable" (with the states that prove it) or "this tree of clauses reaches
//! a query". Must not: refine (it never invents predicates) or decide concrete feasibility.

use crate::chc::{Atom, ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::smt::{Pool, SatResult};
use crate::term::{TermId, TermStore, VarId};
use crate::witness::Model;
use std::collections::{BTreeSet, HashMap, HashSet};

/// An abstract state: indices of the candidates of one predicate that hold (their conjunction).
pub type Cube = BTreeSet<usize>;

/// Candidate predicates per predicate symbol, as formulas over fresh parameters.
pub struct Candidates {
    /// Per predicate: one variable per argument.
    pub params: Vec<Vec<VarId>>,
    /// Per predicate: the candidates (formulas over `params`).
    pub preds: Vec<Vec<TermId>>,
}

impl Candidates {
    /// No candidates yet; fresh parameters for every predicate.
    pub fn new(store: &TermStore, system: &System) -> Self {
        let params = system
            .pred_ids()
            .map(|p| system.fresh_params(store, p))
            .collect();
        Candidates {
            params,
            preds: vec![Vec::new(); system.num_preds()],
        }
    }

    /// Adds a candidate for `p` unless it is already there or trivial; whether it was added.
    pub fn add(&mut self, store: &TermStore, p: PredId, t: TermId) -> bool {
        if store.as_bool(t).is_some() || self.preds[p.0 as usize].contains(&t) {
            return false;
        }
        self.preds[p.0 as usize].push(t);
        true
    }

    /// Adds every conjunct of each interpretation in `seeds` as a candidate of its predicate.
    pub fn seed(&mut self, store: &TermStore, system: &System, seeds: &Model) {
        for p in system.pred_ids() {
            let Some(interp) = seeds.get(p) else { continue };
            let map: HashMap<VarId, TermId> = interp
                .params
                .iter()
                .zip(&self.params[p.0 as usize])
                .map(|(x, y)| (*x, store.var(*y)))
                .collect();
            let body = store.substitute(interp.body, &map);
            for c in store.conjuncts(body) {
                self.add(store, p, c);
            }
        }
    }

    /// Candidate `k` of the atom's predicate, over the atom's arguments.
    pub fn instance(&self, store: &TermStore, atom: &Atom, k: usize) -> TermId {
        let p = atom.pred.0 as usize;
        store.rename(self.preds[p][k], &self.params[p], &atom.args)
    }

    /// The conjunction of a cube over the predicate's parameters.
    pub fn cube_term(&self, store: &TermStore, p: PredId, cube: &Cube) -> TermId {
        store.and(cube.iter().map(|&k| self.preds[p.0 as usize][k]))
    }
}

/// Abstract post with memoisation and a check counter.
pub struct Post<'a, 's> {
    pub store: &'s TermStore,
    pub system: &'a System,
    pub cands: &'a Candidates,
    pub deadline: Deadline,
    pub checks: u64,
    memo: HashMap<(ClauseId, Vec<Cube>), Option<Cube>>,
    /// One solver per clause (slot `c` for clause `c`) with its constraint asserted at the base
    /// level; each post works in a pushed scope (creating a Z3 solver costs more than most of
    /// these checks).
    solvers: Pool<'s>,
    /// Whether slot `c` has its clause's constraint.
    started: Vec<bool>,
}

impl<'a, 's> Post<'a, 's> {
    /// A post operator for the current candidates.
    pub fn new(
        store: &'s TermStore,
        system: &'a System,
        cands: &'a Candidates,
        deadline: Deadline,
    ) -> Self {
        Post {
            store,
            system,
            cands,
            solvers: Pool::new(store, system.num_clauses(), deadline.clone()),
            deadline,
            checks: 0,
            memo: HashMap::new(),
            started: vec![false; system.num_clauses()],
        }
    }

    /// The candidates of the head implied by the clause from body states `ins` (`Some(empty)` for
    /// a feasible query), or `None` if the clause instance is infeasible.
    pub fn post(&mut self, c: ClauseId, ins: &[Cube]) -> Option<Cube> {
        let key = (c, ins.to_vec());
        if let Some(r) = self.memo.get(&key) {
            return r.clone();
        }
        let st = self.store;
        let clause = self.system.clause(c);
        let mut smt = self.solvers.slot(c.0 as usize);
        if !std::mem::replace(&mut self.started[c.0 as usize], true) {
            smt.assert(clause.constraint);
        }
        smt.push();
        for (atom, cube) in clause.body.iter().zip(ins) {
            for &k in cube {
                smt.assert(self.cands.instance(st, atom, k));
            }
        }
        self.checks += 1;
        let r = if smt.check() == SatResult::Unsat {
            None
        } else {
            let mut out = Cube::new();
            if let Some(h) = clause.head_atom() {
                for k in 0..self.cands.preds[h.pred.0 as usize].len() {
                    let goal = st.not(self.cands.instance(st, h, k));
                    self.checks += 1;
                    if smt.check_assuming(&[goal]) == SatResult::Unsat {
                        out.insert(k);
                    }
                }
            }
            Some(out)
        };
        smt.pop(1);
        self.memo.insert(key, r.clone());
        r
    }
}

/// Cartesian fixpoint: per predicate the conjunction of candidates that hold in every reachable
/// state (`None`: not reached). Returns the states and whether some query is reachable.
pub fn houdini(post: &mut Post<'_, '_>) -> (Vec<Option<Cube>>, bool) {
    let system = post.system;
    let mut state: Vec<Option<Cube>> = vec![None; system.num_preds()];
    loop {
        let mut changed = false;
        for (cid, clause) in system.clauses() {
            let ins: Option<Vec<Cube>> = clause
                .body
                .iter()
                .map(|a| state[a.pred.0 as usize].clone())
                .collect();
            let Some(ins) = ins else { continue };
            let Some(out) = post.post(cid, &ins) else {
                continue;
            };
            let Some(h) = clause.head_pred() else {
                continue;
            };
            let slot = &mut state[h.0 as usize];
            let new = match slot {
                None => out,
                Some(s) => s.intersection(&out).copied().collect(),
            };
            if slot.as_ref() != Some(&new) {
                *slot = Some(new);
                changed = true;
            }
        }
        if !changed || post.deadline.expired() {
            break;
        }
    }
    let reach = system.queries().any(|(cid, clause)| {
        let ins: Option<Vec<Cube>> = clause
            .body
            .iter()
            .map(|a| state[a.pred.0 as usize].clone())
            .collect();
        ins.is_some_and(|ins| post.post(cid, &ins).is_some())
    });
    (state, reach)
}

/// A node of the abstract reachability graph: a predicate in an abstract state, derived by a
/// clause from earlier nodes.
#[derive(Clone, Debug)]
pub struct ArtNode {
    pub pred: PredId,
    pub cube: Cube,
    pub clause: ClauseId,
    pub children: Vec<usize>,
}

/// The result of exploring the abstract reachability graph.
pub enum ArtResult {
    /// No query reachable: the nodes (their disjunction per predicate is inductive).
    Safe(Vec<ArtNode>),
    /// A query clause instance over these nodes is abstractly feasible.
    Cex(Vec<ArtNode>, ClauseId, Vec<usize>),
    /// Budget or deadline exhausted.
    GaveUp(String),
}

/// Explores abstract states breadth-first; a new state is dropped when an existing state of the
/// same predicate is weaker or equal (covering). Non-linear clauses combine every node of each
/// body predicate (one of them the newest).
pub fn explore(post: &mut Post<'_, '_>, max_nodes: usize) -> ArtResult {
    let system = post.system;
    let mut nodes: Vec<ArtNode> = Vec::new();
    let mut by_pred: Vec<Vec<usize>> = vec![Vec::new(); system.num_preds()];
    let mut tried: HashSet<(ClauseId, Vec<usize>)> = HashSet::new();
    let mut queue: std::collections::VecDeque<(ClauseId, Vec<usize>)> = system
        .clauses()
        .filter(|(_, c)| c.is_fact())
        .map(|(id, _)| (id, Vec::new()))
        .collect();
    while let Some((cid, kids)) = queue.pop_front() {
        if post.deadline.expired() {
            return ArtResult::GaveUp("timeout".into());
        }
        let clause = system.clause(cid);
        let ins: Vec<Cube> = kids.iter().map(|&k| nodes[k].cube.clone()).collect();
        let Some(out) = post.post(cid, &ins) else {
            continue;
        };
        let Some(h) = clause.head_pred() else {
            return ArtResult::Cex(nodes, cid, kids);
        };
        let covered = by_pred[h.0 as usize]
            .iter()
            .any(|&m| nodes[m].cube.is_subset(&out));
        if covered {
            continue;
        }
        if nodes.len() >= max_nodes {
            return ArtResult::GaveUp(format!("cegar: more than {max_nodes} abstract states"));
        }
        let n = nodes.len();
        nodes.push(ArtNode {
            pred: h,
            cube: out,
            clause: cid,
            children: kids,
        });
        by_pred[h.0 as usize].push(n);
        // successors: clauses with `h` in the body, `n` at one such position
        for (c2, cl2) in system.clauses() {
            for (j, atom) in cl2.body.iter().enumerate() {
                if atom.pred != h {
                    continue;
                }
                let mut combos: Vec<Vec<usize>> = vec![Vec::new()];
                for (i, a) in cl2.body.iter().enumerate() {
                    let opts: Vec<usize> = if i == j {
                        vec![n]
                    } else {
                        by_pred[a.pred.0 as usize].clone()
                    };
                    combos = combos
                        .into_iter()
                        .flat_map(|pre| {
                            opts.iter().map(move |&o| {
                                let mut v = pre.clone();
                                v.push(o);
                                v
                            })
                        })
                        .collect();
                    if combos.len() > 10_000 {
                        return ArtResult::GaveUp("cegar: too many premise combinations".into());
                    }
                }
                for combo in combos {
                    if tried.insert((c2, combo.clone())) {
                        queue.push_back((c2, combo));
                    }
                }
            }
        }
    }
    ArtResult::Safe(nodes)
}
