//! CEGAR with small refinements (Terauchi, "Explaining the effectiveness of small refinement
//! heuristics"): predicate abstraction over the clause system, abstract counterexamples as
//! derivation trees, refinement by tree interpolation with a preference for small predicates.
//!
//! Each iteration: (1) the Cartesian fixpoint of the current candidates (Houdini-style); if no
//! query is reachable its states are the model. (2) Otherwise the abstract reachability graph
//! (states kept apart, covering by weaker states); if no query is reachable the disjunction of
//! the states per predicate is the model. (3) Otherwise its counterexample tree is checked
//! concretely: feasible gives `unsat` with the derivation; spurious gives small tree
//! interpolants, added as candidates of the predicate symbols (every copy of a symbol feeds the
//! same candidate set). For linear systems the uniform unfolding that contains the abstract path
//! (every loop unfolded the same number of times, see `uniform.rs`) is refined as well: with
//! [`CexShape::Mixed`] (the default) once the trees alone have not converged within
//! [`Cegar::uniform_after`] iterations and then at doubling depths, with [`CexShape::Uniform`]
//! in every iteration; a feasible path of the unfolding replaces the tree (and becomes the
//! derivation). Interpolants are computed over the exact clause constraints (disjunctions
//! included), so that a refinement refutes the whole counterexample. A refinement that adds
//! nothing ends in `unknown`.
//!
//! Must not: call another engine, print, or return a model it has not validated.

mod abstraction;
mod refine;
mod uniform;

use super::{Context, Engine, Stats};
use crate::chc::System;
use crate::witness::{validate_model, Answer, Interp, Model, ModelCheck, Reason};
use abstraction::{explore, houdini, ArtResult, Candidates, Post};
use refine::{analyse, Analysis};
use std::time::{Duration, Instant};

/// The shape of the counterexamples refined. The tree's cut interpolants are small and cheap
/// (Fig. 2 in 5 iterations); uniform unfoldings give depth-independent predicates where trees
/// diverge (`x ≤ 4k` for growing `k`), but their node-wise labels cost more and are often
/// disjunctions (BENCHMARKS.md, "Counterexample shapes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CexShape {
    /// The abstract counterexample tree itself (a path for linear systems).
    Tree,
    /// For linear systems the uniform unfolding containing the tree (every loop unfolded the
    /// same number of times, Terauchi Section 3.1 and Appendix C) in every iteration; the tree
    /// when the unfolding is too large, too slow or not refuted, and for non-linear systems.
    Uniform,
    /// The tree in every iteration; the uniform unfolding as well after
    /// [`Cegar::uniform_after`] iterations, each at least twice as deep as the last: the files
    /// that need one converge in the first, and an unfolding costs more than the trees of its
    /// depth together (BENCHMARKS.md, "CEGAR: unfoldings at doubling depths"). The default: on
    /// LIA-Lin (5 s per file) it answered 69 files, uniform 65 and tree 64, all of uniform's
    /// and all of tree's but two near the time limit.
    #[default]
    Mixed,
}

/// CEGAR's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CegarStats {
    /// Refinement iterations.
    pub iterations: u64,
    /// Uniform unfoldings (linear systems under a shape that uses them).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub uniform: Option<UniformStats>,
    /// SMT checks.
    pub smt_checks: u64,
    /// Milliseconds in abstraction.
    pub time_abstraction_ms: u64,
    /// Milliseconds in refinement.
    pub time_refinement_ms: u64,
    /// Candidates per predicate, by name.
    pub predicates: std::collections::BTreeMap<String, usize>,
    /// The sizes of the predicates refinements added, in order.
    pub predicate_sizes: Vec<u64>,
    /// Their median (0 when there are none).
    pub predicate_size_median: u64,
}

/// Counters of CEGAR's uniform unfoldings.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct UniformStats {
    /// Unfoldings that refined.
    pub uniform_refinements: u64,
    /// Unfoldings that gave nothing (the tree was refined instead).
    pub uniform_fallbacks: u64,
    /// The deepest unfolding.
    pub uniform_max_depth: u64,
}

/// The CEGAR engine.
#[derive(Clone, Debug)]
pub struct Cegar {
    /// Most refinement iterations before answering `unknown`.
    pub max_iterations: usize,
    /// Most SMT checks: no iteration starts past them (`None`: no bound). A work bound in
    /// place of a time slice, for deterministic schedules.
    pub max_checks: Option<u64>,
    /// Most abstract states per exploration.
    pub max_states: usize,
    /// Facts known before the first iteration (for instance invariants from formula slicing):
    /// every conjunct of a seed interpretation starts as a candidate of its predicate. `None`:
    /// the candidates the context hands over, if any.
    pub seeds: Option<Model>,
    /// Which counterexamples are refined.
    pub cex_shape: CexShape,
    /// Iterations refined by trees alone before [`CexShape::Mixed`] adds uniform unfoldings.
    pub uniform_after: usize,
    /// Most time one uniform-unfolding analysis may take, and at most half the time left;
    /// `None`: only the caller's deadline bounds it. A time cap even under work bounds, as the
    /// interpolator's own caps on single checks are (`Interpolator::minimise_cap`): an answer
    /// there may still depend on the machine's speed where a cap is reached.
    pub uniform_budget: Option<Duration>,
}

impl Default for Cegar {
    fn default() -> Self {
        Cegar {
            max_iterations: 500,
            max_checks: None,
            max_states: 20_000,
            seeds: None,
            cex_shape: CexShape::Mixed,
            uniform_after: 6,
            uniform_budget: Some(Duration::from_secs(4)),
        }
    }
}

impl Engine for Cegar {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let store = cx.store;
        let mut cands = Candidates::new(store, system);
        if let Some(seeds) = self.seeds.as_ref().or(cx.candidates.seeds()) {
            cands.seed(store, system, seeds);
        }
        let (mut abs_ms, mut ref_ms, mut checks) = (0u128, 0u128, 0u64);
        let mut sizes: Vec<u64> = Vec::new();
        let mut iterations = 0usize;
        let linear = system.clauses().all(|(_, c)| c.body.len() <= 1);
        let uniform_from = match self.cex_shape {
            CexShape::Tree => usize::MAX,
            CexShape::Uniform => 1,
            CexShape::Mixed => self.uniform_after + 1,
        };
        let analysis =
            (uniform_from != usize::MAX && linear).then(|| crate::analysis::analyze(system, store));
        let (mut uniform_refined, mut uniform_fallbacks, mut uniform_depth) = (0u64, 0u64, 0u64);
        let mut last_uniform = 0usize;
        let answer = loop {
            if cx.stopped() {
                break Answer::Unknown(Reason::Timeout);
            }
            if let Some(m) = self.max_checks.filter(|&m| checks >= m) {
                break Answer::Unknown(Reason::Limit(format!("cegar: {m} SMT checks")));
            }
            if iterations >= self.max_iterations {
                break Answer::Unknown(Reason::Limit(format!(
                    "cegar: {} iterations",
                    self.max_iterations
                )));
            }
            let t0 = Instant::now();
            let mut post = Post::new(store, system, &cands, cx.deadline.clone());
            let (state, reach) = houdini(&mut post);
            let mut model = None;
            let mut cex = None;
            if !reach {
                let mut m = Model::new();
                for p in system.pred_ids() {
                    if let Some(c) = &state[p.0 as usize] {
                        let params = cands.params[p.0 as usize].clone();
                        m.set(
                            p,
                            Interp {
                                params,
                                body: cands.cube_term(store, p, c),
                            },
                        );
                    }
                }
                model = Some(m);
            } else {
                match explore(&mut post, self.max_states) {
                    ArtResult::Safe(nodes) => {
                        let mut m = Model::new();
                        for p in system.pred_ids() {
                            let ds: Vec<_> = nodes
                                .iter()
                                .filter(|n| n.pred == p)
                                .map(|n| cands.cube_term(store, p, &n.cube))
                                .collect();
                            if !ds.is_empty() {
                                let params = cands.params[p.0 as usize].clone();
                                m.set(
                                    p,
                                    Interp {
                                        params,
                                        body: store.or(ds),
                                    },
                                );
                            }
                        }
                        model = Some(m);
                    }
                    ArtResult::Cex(nodes, q, kids) => cex = Some((nodes, q, kids)),
                    ArtResult::GaveUp(r) => {
                        checks += post.checks;
                        break Answer::Unknown(Reason::GaveUp(r));
                    }
                }
            }
            checks += post.checks;
            abs_ms += t0.elapsed().as_millis();
            if let Some(m) = model {
                break match validate_model(store, system, &m, cx.deadline.clone()) {
                    ModelCheck::Valid => Answer::Sat(m),
                    ModelCheck::Invalid { clause, reason, .. } => {
                        Answer::Unknown(Reason::WitnessFailed(format!(
                            "cegar model fails clause {}: {reason}",
                            clause.0
                        )))
                    }
                    ModelCheck::Unknown(r) => {
                        Answer::Unknown(Reason::Unchecked(format!("cegar: model check: {r}")))
                    }
                };
            }
            let Some((nodes, q, kids)) = cex else {
                unreachable!("either a model or a counterexample")
            };
            iterations += 1;
            let t1 = Instant::now();
            let mut tree = (nodes, q, kids);
            // Uniform unfolding first (its feasible path replaces the tree), then the tree
            // analysis, whose cheap, small cut interpolants are added either way.
            let mut uniform_new = Vec::new();
            let k = uniform::depth_of(&tree.0, &tree.2);
            // Mixed: an unfolding at least twice as deep as the last one, so that the
            // unfoldings together cost at most about twice the last (see [`CexShape::Mixed`]).
            let deep_enough = self.cex_shape != CexShape::Mixed || k >= 2 * last_uniform;
            if let Some(an) = analysis
                .as_ref()
                .filter(|_| iterations >= uniform_from && deep_enough)
            {
                last_uniform = k;
                uniform_depth = uniform_depth.max(k as u64);
                let deadline = match self.uniform_budget {
                    Some(cap) => {
                        let budget = cx.deadline.remaining().map_or(cap, |r| (r / 2).min(cap));
                        cx.deadline.at_most(budget)
                    }
                    None => cx.deadline.clone(),
                };
                match uniform::analyse(
                    store,
                    system,
                    an,
                    deadline,
                    &mut cands,
                    k,
                    iterations as u64,
                    &mut checks,
                ) {
                    Some(uniform::Uniform::Refined(new)) if !new.is_empty() => {
                        uniform_refined += 1;
                        uniform_new = new;
                    }
                    // a feasible path of the unfolding: the tree analysis replays it
                    Some(uniform::Uniform::Path(n2, q2, k2)) => tree = (n2, q2, k2),
                    _ => uniform_fallbacks += 1,
                }
            }
            let result = if self.cex_shape == CexShape::Uniform && !uniform_new.is_empty() {
                Analysis::Refined(uniform_new)
            } else {
                match analyse(
                    store,
                    system,
                    cx.deadline.clone(),
                    &mut cands,
                    &tree.0,
                    tree.1,
                    &tree.2,
                    iterations as u64,
                    &mut checks,
                ) {
                    Analysis::Refined(mut new) => {
                        new.extend(uniform_new);
                        Analysis::Refined(new)
                    }
                    // the tree analysis failed but the unfolding refined: progress all the same
                    Analysis::Failed(_) if !uniform_new.is_empty() => {
                        Analysis::Refined(uniform_new)
                    }
                    r => r,
                }
            };
            ref_ms += t1.elapsed().as_millis();
            match result {
                Analysis::Real(d) => break Answer::Unsat(d),
                Analysis::Refined(new) if new.is_empty() => {
                    break Answer::Unknown(Reason::GaveUp(
                        "cegar: refinement found no new predicate".into(),
                    ))
                }
                Analysis::Refined(new) => sizes.extend(new),
                Analysis::Failed(r) => break Answer::Unknown(Reason::GaveUp(r)),
            }
        };
        let predicates = system
            .pred_ids()
            .map(|p| (system.pred(p).name.clone(), cands.preds[p.0 as usize].len()))
            .collect();
        let mut sorted = sizes.clone();
        sorted.sort_unstable();
        *stats = Stats::Cegar(CegarStats {
            iterations: iterations as u64,
            uniform: analysis.is_some().then_some(UniformStats {
                uniform_refinements: uniform_refined,
                uniform_fallbacks,
                uniform_max_depth: uniform_depth,
            }),
            smt_checks: checks,
            time_abstraction_ms: abs_ms as u64,
            time_refinement_ms: ref_ms as u64,
            predicates,
            predicate_size_median: sorted.get(sorted.len() / 2).copied().unwrap_or(0),
            predicate_sizes: sizes,
        });
        answer
    }
}
