//! Property-directed reachability (IC3/PDR, after Bradley's IC3 and Hoder and Bjørner's
//! generalisation to Horn clauses) for linear systems: frames of lemmas per predicate, proof
//! obligations blocked level by level, predecessors by model-based projection.
//!
//! Duty: answer `sat` with the first frame equal to its successor (its lemmas are an inductive
//! invariant excluding the queries) or `unsat` with a derivation rebuilt from a chain of
//! obligations that reaches a fact. Lemmas are negated cubes: literals of projected clause
//! constraints, shrunk by unsat cores and then literal by literal while they stay inductive
//! relative to the frame below — so an invariant is a CNF over the input's own atoms, which is
//! what disjunctive transition-system invariants (control modes, min/max over reals) need and
//! what conjunctive abstractions miss.
//!
//! Must not: handle non-linear clauses (it answers `unknown`), call another engine, or answer
//! without the witness the caller checks (the model is validated, the derivation replayed).

mod cex;
mod frames;

use super::{Context, Engine, Stats};
use crate::chc::{ClauseId, PredId, System};
use crate::term::TermId;
use crate::witness::{Answer, Interp, Model};
use frames::{Check, Frames, INF};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// PDR with a bound on the number of frames.
#[derive(Clone, Debug)]
pub struct Pdr {
    /// Most frames before answering `unknown`.
    pub max_level: usize,
    /// Longest cube whose literals are dropped one by one (longer ones keep their core).
    pub max_drop: usize,
}

impl Default for Pdr {
    fn default() -> Self {
        Pdr {
            max_level: 10_000,
            max_drop: 64,
        }
    }
}

/// A set of states of `pred` (a cube over its parameters) from which a query is reachable in
/// `level` steps or more; `via` leads from it to its parent (or, for a root, to the query).
#[derive(Clone, Debug)]
struct Obligation {
    pred: PredId,
    cube: Vec<TermId>,
    parent: Option<usize>,
    via: ClauseId,
}

/// How blocking an obligation ended.
enum Blocking {
    Blocked,
    /// A fact reaches the obligation: the clauses from the fact to the query.
    Counterexample(Vec<ClauseId>),
    Unknown(String),
}

impl Engine for Pdr {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        if !system.is_linear() {
            return Answer::Unknown("pdr: non-linear clauses".into());
        }
        let mut run = Run {
            cfg: self,
            cx,
            system,
            frames: Frames::new(cx.store, system, cx.deadline),
            obligations: 0,
        };
        let answer = run.solve();
        stats.set("pdr_lemmas", run.frames.lemmas.len());
        stats.set("pdr_obligations", run.obligations);
        answer
    }
}

struct Run<'a, 's> {
    cfg: &'a Pdr,
    cx: &'a Context<'s>,
    system: &'a System,
    frames: Frames<'s>,
    obligations: usize,
}

impl Run<'_, '_> {
    fn solve(&mut self) -> Answer {
        let mut n = 1;
        loop {
            if self.cx.deadline.expired() {
                return Answer::Unknown("timeout".into());
            }
            for q in self.frames.queries.clone() {
                loop {
                    let pre = match self.frames.check(q, &[], n, None, true) {
                        Check::Unsat(_) => break,
                        Check::Unknown(r) => return Answer::Unknown(format!("pdr: {r}")),
                        Check::Sat(pre) => pre,
                    };
                    let Some((pred, cube)) = pre.body else {
                        return self.counterexample(vec![pre.clause]);
                    };
                    let root = Obligation {
                        pred,
                        cube,
                        parent: None,
                        via: pre.clause,
                    };
                    match self.block(root, n) {
                        Blocking::Blocked => {}
                        Blocking::Counterexample(chain) => return self.counterexample(chain),
                        Blocking::Unknown(r) => return Answer::Unknown(format!("pdr: {r}")),
                    }
                }
            }
            match self.propagate(n) {
                Ok(Some(model)) => return Answer::Sat(model),
                Ok(None) => {}
                Err(r) => return Answer::Unknown(format!("pdr: {r}")),
            }
            n += 1;
            if n > self.cfg.max_level {
                return Answer::Unknown(format!("pdr: {} frames", self.cfg.max_level));
            }
        }
    }

    /// Blocks `root` at level `n`, and every obligation it spawns, or finds a counterexample.
    fn block(&mut self, root: Obligation, n: usize) -> Blocking {
        let mut obls = vec![root];
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((n, 0usize)));
        while let Some(Reverse((level, i))) = queue.pop() {
            if self.cx.deadline.expired() {
                return Blocking::Unknown("timeout".into());
            }
            self.obligations += 1;
            let (pred, cube) = (obls[i].pred, obls[i].cube.clone());
            if self.subsumed(pred, &cube, level) {
                if level < n {
                    queue.push(Reverse((level + 1, i)));
                }
                continue;
            }
            let mut core = BTreeSet::new();
            let mut found = None;
            for k in self.frames.defining(pred) {
                let is_fact = self.system.clause(self.frames.clause_of(k)).is_fact();
                let at = if is_fact { 0 } else { level - 1 };
                match self.frames.check(k, &cube, at, None, !is_fact) {
                    Check::Unsat(c) => core.extend(c),
                    Check::Unknown(r) => return Blocking::Unknown(r),
                    Check::Sat(pre) => {
                        found = Some(pre);
                        break;
                    }
                }
            }
            match found.map(|p| (p.clause, p.body)) {
                Some((fact, None)) => {
                    let mut chain = vec![fact];
                    let mut at = Some(i);
                    while let Some(j) = at {
                        chain.push(obls[j].via);
                        at = obls[j].parent;
                    }
                    return Blocking::Counterexample(chain);
                }
                Some((via, Some((p, c)))) => {
                    obls.push(Obligation {
                        pred: p,
                        cube: c,
                        parent: Some(i),
                        via,
                    });
                    queue.push(Reverse((level - 1, obls.len() - 1)));
                    queue.push(Reverse((level, i)));
                }
                None => {
                    let kept: Vec<TermId> = core.iter().map(|&j| cube[j]).collect();
                    let g = match self.generalize(pred, kept, level) {
                        Ok(g) => g,
                        Err(r) => return Blocking::Unknown(r),
                    };
                    let mut at = level;
                    while at < n {
                        match self.inductive_at(pred, &g, at) {
                            Ok(true) => at += 1,
                            Ok(false) => break,
                            Err(r) => return Blocking::Unknown(r),
                        }
                    }
                    self.add_lemma(pred, g, at);
                    if level < n {
                        queue.push(Reverse((level + 1, i)));
                    }
                }
            }
        }
        Blocking::Blocked
    }

    /// Whether a lemma at `level` or above already excludes `cube` (its cube is a subset).
    fn subsumed(&self, pred: PredId, cube: &[TermId], level: usize) -> bool {
        self.frames
            .lemmas
            .iter()
            .any(|l| l.pred == pred && l.level >= level && l.cube.iter().all(|x| cube.contains(x)))
    }

    /// Adds a lemma, retiring the lemmas it subsumes (level 0: in no frame).
    fn add_lemma(&mut self, pred: PredId, mut cube: Vec<TermId>, level: usize) {
        cube.sort();
        for i in 0..self.frames.lemmas.len() {
            let l = &self.frames.lemmas[i];
            if l.pred == pred
                && l.level <= level
                && l.level > 0
                && cube.iter().all(|x| l.cube.contains(x))
            {
                self.frames.lemmas[i].level = 0;
            }
        }
        self.frames.add_lemma(pred, cube, level);
    }

    /// Drops literals of `cube` (already blocked at `level`) while the rest stays blocked
    /// relative to itself: no fact derives it, and no clause derives it from `F_{level-1}`
    /// states outside it.
    fn generalize(
        &mut self,
        pred: PredId,
        mut cube: Vec<TermId>,
        level: usize,
    ) -> Result<Vec<TermId>, String> {
        if cube.len() > self.cfg.max_drop {
            return Ok(cube);
        }
        let mut j = 0;
        while j < cube.len() {
            let mut cand = cube.clone();
            cand.remove(j);
            match self.blocked_relative(pred, &cand, level)? {
                Some(core) if !cand.is_empty() => {
                    cube = core.iter().map(|&k| cand[k]).collect();
                    j = j.min(cube.len());
                }
                Some(_) => return Ok(cand),
                None => j += 1,
            }
        }
        Ok(cube)
    }

    /// Whether `cube` is blocked at `level` relative to its own negation; the literals the
    /// refutations used.
    fn blocked_relative(
        &mut self,
        pred: PredId,
        cube: &[TermId],
        level: usize,
    ) -> Result<Option<BTreeSet<usize>>, String> {
        let mut core = BTreeSet::new();
        for k in self.frames.defining(pred) {
            let c = self.system.clause(self.frames.clause_of(k));
            let (at, avoid) = if c.is_fact() {
                (0, None)
            } else {
                let own = c.body[0].pred == pred;
                (level - 1, own.then_some(cube))
            };
            match self.frames.check(k, cube, at, avoid, false) {
                Check::Unsat(c) => core.extend(c),
                Check::Sat(_) => return Ok(None),
                Check::Unknown(r) => return Err(r),
            }
        }
        Ok(Some(core))
    }

    /// Whether no clause derives a state of `cube` from `F_level` (so `¬cube` holds in
    /// `F_{level+1}`, given it excludes the facts).
    fn inductive_at(
        &mut self,
        pred: PredId,
        cube: &[TermId],
        level: usize,
    ) -> Result<bool, String> {
        for k in self.frames.defining(pred) {
            if self.system.clause(self.frames.clause_of(k)).is_fact() {
                continue;
            }
            match self.frames.check(k, cube, level, None, false) {
                Check::Unsat(_) => {}
                Check::Sat(_) => return Ok(false),
                Check::Unknown(r) => return Err(r),
            }
        }
        Ok(true)
    }

    /// Pushes lemmas up, level by level; when some level keeps no lemma of its own, the frame
    /// above it is inductive, and its lemmas are the model.
    fn propagate(&mut self, n: usize) -> Result<Option<Model>, String> {
        for k in 1..=n {
            for i in 0..self.frames.lemmas.len() {
                let l = &self.frames.lemmas[i];
                if l.level != k {
                    continue;
                }
                let (pred, cube) = (l.pred, l.cube.clone());
                if self.inductive_at(pred, &cube, k)? {
                    self.frames.raise(i, k + 1);
                }
            }
            if !self.frames.lemmas.iter().any(|l| l.level == k) {
                return Ok(Some(self.model(k + 1)));
            }
        }
        Ok(None)
    }

    /// The frame `F_level` as a model: per predicate, the conjunction of its lemmas at `level`
    /// or above.
    fn model(&self, level: usize) -> Model {
        let store = self.cx.store;
        let mut model = Model::new();
        for p in self.system.pred_ids() {
            let lemmas = self
                .frames
                .lemmas
                .iter()
                .filter(|l| l.pred == p && (l.level >= level || l.level == INF))
                .map(|l| store.not(store.and(l.cube.iter().copied())));
            model.set(
                p,
                Interp {
                    params: self.frames.params[&p].clone(),
                    body: store.and(lemmas),
                },
            );
        }
        model
    }

    fn counterexample(&self, chain: Vec<ClauseId>) -> Answer {
        match cex::derivation(self.cx.store, self.system, &chain, self.cx.deadline) {
            Ok(d) => Answer::Unsat(d),
            Err(r) => Answer::Unknown(format!("pdr: {r}")),
        }
    }
}
