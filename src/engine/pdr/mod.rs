//! Property-directed reachability (IC3/PDR after Bradley, generalised to Horn clauses as in
//! Hoder and Bjørner's GPDR and Komuravelli et al.'s Spacer): frames of lemmas per predicate,
//! proof obligations blocked level by level, predecessors and reach facts by model-based
//! projection; non-linear clauses draw their body states from reach facts where they can.
//!
//! Duty: answer `sat` with the first frame equal to its successor (its lemmas are an inductive
//! invariant excluding the queries) or `unsat` with a derivation rebuilt from the reach facts
//! that derive `false`. Lemmas are negated cubes: literals of projected clause
//! constraints, shrunk by unsat cores and then literal by literal while they stay inductive
//! relative to the frame below — so an invariant is a CNF over the input's own atoms, which is
//! what disjunctive transition-system invariants (control modes, min/max over reals) need and
//! what conjunctive abstractions miss. A lemma that fails to move up keeps the derivation that
//! stopped it; propagation re-checks that derivation's body states against the frame by
//! evaluation and calls the solver only when they left it. Seeds (invariants from other
//! engines, handed over by the portfolio) are lemmas of every frame. A run that stops without
//! an answer leaves its lemmas ([`crate::engine::FrameLemmas`]), and the portfolio's next PDR
//! run on the same system starts with each at its level: frames only hold what the clauses
//! derive up to a depth, which does not change between runs, so the next run climbs back to
//! where this one stopped with a propagation check per lemma instead of blocking everything
//! again.
//!
//! A model found without seeds is not validated here: every lemma in it was raised by a
//! check that the clauses keep it from the frame it is in, which is what validation checks
//! again, and every caller validates every answer against the original clauses
//! ([`crate::engine::driver`]; on the public set's `sat` files answered within 1.5 s, checking
//! twice cost 5 % of the median time). A model that fails the driver's check is a witness
//! failure, a bug of this engine. A seeded model (seeds or an earlier run's lemmas) is
//! validated here (by the context's check deadline): seeds are assumed, not proved, and a
//! wrong one leaves the portfolio's next engines to run.
//!
//! Must not: call another engine, or answer without a witness (the derivation is replayed by
//! the caller).

mod block;
mod cex;
mod frames;

use super::{Context, Engine, FrameLemmas, Stats};
use crate::chc::{PredId, System};
use crate::term::{Op, Sort, Term, TermId, TermStore};
use crate::witness::{validate_model, Answer, Interp, Model, ModelCheck, Reason};
use block::{Blocking, ReachFact};
use frames::{BodyStates, Check, Frames, Source, INF};
use std::collections::{BTreeSet, HashMap, HashSet};

/// PDR's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PdrStats {
    /// Lemmas in the frames.
    pub pdr_lemmas: usize,
    /// Reach facts found.
    pub pdr_reach_facts: usize,
    /// Proof obligations handled.
    pub pdr_obligations: usize,
    /// Lemmas taken from the frames of an earlier run.
    pub pdr_imported: usize,
}

/// PDR with a bound on the number of frames.
#[derive(Clone, Debug)]
pub struct Pdr {
    /// Most frames before answering `unknown`.
    pub max_level: usize,
    /// Longest cube whose literals are dropped one by one (longer ones keep their core).
    pub max_drop: usize,
    /// Invariants believed inductive (the portfolio's candidates from other engines): their
    /// conjuncts are lemmas of every frame. A wrong seed can only hide a counterexample, and
    /// then the model it leads to fails validation. `None`: the candidates the context hands
    /// over, if any.
    pub seeds: Option<Model>,
}

impl Default for Pdr {
    fn default() -> Self {
        Pdr {
            max_level: 10_000,
            max_drop: 64,
            seeds: None,
        }
    }
}

impl Engine for Pdr {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let Some(frames) = Frames::new(cx.store, system, cx.deadline.clone()) else {
            *stats = Stats::Pdr(PdrStats::default());
            return Answer::Unknown(Reason::Timeout);
        };
        let mut run = Run {
            cfg: self,
            cx,
            system,
            frames,
            reach: Vec::new(),
            reach_of: HashMap::new(),
            obligations: 0,
            seeded: false,
            imported: 0,
        };
        let answer = match run.solve() {
            // Without seeds the frames' invariant is inductive by the checks that raised its
            // lemmas, and the driver validates it against the original clauses (see the
            // module header); seeds were assumed, so with them it is checked here.
            Answer::Sat(m) if !run.seeded => Answer::Sat(m),
            Answer::Sat(m) => match validate_model(cx.store, system, &m, cx.check_deadline.clone())
            {
                ModelCheck::Valid => Answer::Sat(m),
                ModelCheck::Invalid { clause, .. } => Answer::Unknown(Reason::WitnessFailed(
                    format!("pdr: the model violates clause {}", clause.0),
                )),
                ModelCheck::Unknown(r) => {
                    Answer::Unknown(Reason::Unchecked(format!("pdr: validation: {r}")))
                }
            },
            a => a,
        };
        // The frames for the next run on this system; none (it starts over) when they rest on
        // a seed or an imported lemma that just led to a wrong model.
        if let Answer::Unknown(r) = &answer {
            cx.candidates.leave_frames(match r {
                Reason::WitnessFailed(_) => FrameLemmas::default(),
                _ => run.frames.export(),
            });
        }
        *stats = Stats::Pdr(PdrStats {
            pdr_lemmas: run.frames.lemmas.len(),
            pdr_reach_facts: run.reach.len(),
            pdr_obligations: run.obligations,
            pdr_imported: run.imported,
        });
        answer
    }
}

struct Run<'a, 's> {
    cfg: &'a Pdr,
    cx: &'a Context<'s>,
    system: &'a System,
    frames: Frames<'s>,
    /// Derivable cubes, each with its derivation step.
    reach: Vec<ReachFact>,
    /// The reach facts of each predicate.
    reach_of: HashMap<PredId, Vec<usize>>,
    obligations: usize,
    /// Some seed or imported lemma became a lemma: the model rests on lemmas no check here
    /// proved.
    seeded: bool,
    /// Lemmas taken from the frames of an earlier run.
    imported: usize,
}

impl Run<'_, '_> {
    fn solve(&mut self) -> Answer {
        self.seed();
        let mut n = 1;
        loop {
            if self.cx.stopped() {
                return Answer::Unknown(Reason::Timeout);
            }
            // Every query is blocked with body states from `F_n`.
            for q in self.frames.queries.clone() {
                match self.block(q, n + 1) {
                    Blocking::Blocked => {}
                    Blocking::Reached(fact) => {
                        return match cex::derivation(
                            self.cx.store,
                            self.system,
                            &self.reach,
                            fact,
                            self.cx.deadline.clone(),
                        ) {
                            Ok(d) => Answer::Unsat(d),
                            Err(r) => Answer::Unknown(Reason::GaveUp(format!("pdr: {r}"))),
                        }
                    }
                    Blocking::Unknown(r) => {
                        return Answer::Unknown(Reason::GaveUp(format!("pdr: {r}")))
                    }
                }
            }
            match self.propagate(n) {
                Ok(Some(model)) => return Answer::Sat(model),
                Ok(None) => {}
                Err(r) => return Answer::Unknown(Reason::GaveUp(format!("pdr: {r}"))),
            }
            n += 1;
            if n > self.cfg.max_level {
                return Answer::Unknown(Reason::Limit(format!(
                    "pdr: {} frames",
                    self.cfg.max_level
                )));
            }
        }
    }

    /// The seeds' conjuncts as lemmas of every frame, then the lemmas an earlier run left, each
    /// at its level: the frames go on from where that run stopped (see the module header).
    fn seed(&mut self) {
        let store = self.cx.store;
        if let Some(seeds) = self.cfg.seeds.as_ref().or(self.cx.candidates.seeds()) {
            for p in self.system.pred_ids() {
                let Some(i) = seeds.get(p) else { continue };
                let body = store.rename(i.body, &i.params, &self.frames.params[&p]);
                for c in store.conjuncts(body) {
                    if c != store.tt() {
                        self.frames.add_lemma(p, vec![store.not(c)], INF);
                        self.seeded = true;
                    }
                }
            }
        }
        let Some(given) = self.cx.candidates.frames() else {
            return;
        };
        let sorted = |mut cube: Vec<TermId>| {
            cube.sort();
            cube
        };
        let mut known: HashSet<(PredId, Vec<TermId>)> = (self.frames.lemmas.iter())
            .map(|l| (l.pred, sorted(l.cube.clone())))
            .collect();
        for (p, cube, level) in &given.lemmas {
            let (Some(from), Some(to)) = (given.params.get(p), self.frames.params.get(p)) else {
                continue;
            };
            let cube = sorted(cube.iter().map(|&l| store.rename(l, from, to)).collect());
            if known.insert((*p, cube.clone())) {
                self.frames.add_lemma(*p, cube, *level);
                self.imported += 1;
            }
        }
        self.seeded |= self.imported > 0;
    }

    /// Learns a lemma excluding (a generalisation of) `cube`, refuted at `level`, and pushes it
    /// as high as it goes up to `top - 1` (the frame the root obligation reads).
    fn learn(
        &mut self,
        pred: PredId,
        cube: Vec<TermId>,
        level: usize,
        top: usize,
    ) -> Result<(), String> {
        let cube = split_equalities(self.cx.store, cube);
        let g = self.generalize(pred, cube, level)?;
        let mut at = level;
        let mut blocker = None;
        while at + 1 < top {
            blocker = self.blocker(pred, &g, at, None)?;
            if blocker.is_some() {
                break;
            }
            at += 1;
        }
        self.add_lemma(pred, g, at);
        self.frames.lemmas.last_mut().expect("just added").blocker = blocker;
        Ok(())
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
            let source = Source::Frames {
                level: level - 1,
                avoid: Some(cube),
                prefer: &[],
            };
            match self.frames.open(k, cube, source) {
                Check::Unsat(c) => core.extend(c),
                Check::Sat => {
                    self.frames.close(k);
                    return Ok(None);
                }
                Check::Unknown(r) => return Err(r),
            }
        }
        Ok(Some(core))
    }

    /// A derivation of a state of `cube` from `F_level`, or `None` when no clause has one (so
    /// `¬cube` holds in `F_{level+1}`, given it excludes the facts). The derivation that last
    /// stopped the lemma (`known`) answers without a solver call while its body states stay
    /// inside `F_level`.
    fn blocker(
        &mut self,
        pred: PredId,
        cube: &[TermId],
        level: usize,
        known: Option<&BodyStates>,
    ) -> Result<Option<BodyStates>, String> {
        if let Some(w) = known.filter(|w| self.frames.inside(w, level)) {
            return Ok(Some(w.clone()));
        }
        for k in self.frames.defining(pred) {
            if self.frames.solvers[k].body.is_empty() {
                continue;
            }
            let source = Source::Frames {
                level,
                avoid: None,
                prefer: &[],
            };
            match self.frames.open(k, cube, source) {
                Check::Unsat(_) => {}
                Check::Sat => {
                    let w = self.frames.body_states(k);
                    self.frames.close(k);
                    return w.map(Some).ok_or_else(|| "no model for a blocker".into());
                }
                Check::Unknown(r) => return Err(r),
            }
        }
        Ok(None)
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
                let (pred, cube, known) = (l.pred, l.cube.clone(), l.blocker.clone());
                let blocker = self.blocker(pred, &cube, k, known.as_ref())?;
                if blocker.is_none() {
                    self.frames.raise(i, k + 1);
                }
                self.frames.lemmas[i].blocker = blocker;
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
                .filter(|l| l.pred == p && l.level >= level)
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
}

/// Equalities between integers become two inequalities, so that generalisation can drop
/// either side: a counter's `i = 10` can then become the lemma `i < 10` instead of `i ≠ 10`.
/// Real equalities stay (measured on LRA-TS at 10 s: splitting them too solved 16 files instead
/// of 17, trading four for three).
fn split_equalities(store: &TermStore, cube: Vec<TermId>) -> Vec<TermId> {
    let mut out = Vec::with_capacity(cube.len());
    for lit in cube {
        match &store.get(lit).term {
            Term::App(Op::Eq, args) if args.len() == 2 && store.sort(args[0]) == Sort::Int => {
                out.push(store.le(args[0], args[1]));
                out.push(store.ge(args[0], args[1]));
            }
            _ => out.push(lit),
        }
    }
    out
}
