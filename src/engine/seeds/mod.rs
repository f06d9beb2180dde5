//! Data-driven candidate invariants: concrete reachable states of each predicate ([`sample`]),
//! the linear equalities, bounds, orderings and difference bounds that hold on all of them
//! ([`mod@candidates`], with [`hull`]), filtered to an inductive subset ([`houdini`]); then, in
//! stages on top of that subset, bounds at program constants the samples never reach, shape
//! facts over datatype arguments ([`shapes`]: `is-nil x → z = y`), congruences (`x mod 2 = 0`)
//! and degree-2 equalities. A predicate no sample reached gets `false` as its candidate.
//! Unfiltered candidates the engine is handed ([`Candidates::templates`](super::Candidates::templates):
//! the cell abstraction's ranges) join the linear ones where every sample satisfies them; the
//! non-linear ones among them (`v = k² - 1`) join the degree-2 stage, and where there are such,
//! the linear ones the first filter dropped are tried again in a last stage. Once the inductive
//! lemmas exclude every query the stages are skipped.
//!
//! Duty: find a model whose interpretations are inductive (relative to the facts and every
//! non-query clause) and often contain the affine equalities (`sn = 2 i - 2`) that
//! interpolation and slicing do not find. As an [`Engine`] it validates that model, alone and
//! conjoined with the candidates it was given (`sat` when one excludes the queries), and
//! otherwise leaves its linear lemmas, conjoined with those candidates, for the engines after
//! it (CEGAR and PDR work in linear arithmetic). Must not: answer `unsat`, call other engines,
//! or search past the context's deadline (checks get at most a second each, by the check
//! deadline).

pub mod candidates;
pub mod houdini;
pub mod hull;
pub mod sample;
pub mod shapes;

use super::{Context, Engine, Stats};
use crate::chc::System;
use crate::term::{TermId, TermStore, Value, VarId};
use crate::witness::{validate_model, Answer, Interp, Model, ModelCheck, Reason};
use candidates::{candidates, constant_bounds, constants, modular, quadratic};
use houdini::Lemmas;
use std::collections::{HashMap, HashSet};

/// The samples' counters for `--stats` (those of stages that did not run are absent).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SamplesStats {
    /// SMT checks made collecting states.
    pub sample_checks: u64,
    /// Distinct states kept, over all predicates.
    pub states: u64,
    /// Linear candidates before filtering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u64>,
    /// SMT checks of the Houdini filters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub houdini_checks: Option<u64>,
    /// Linear lemmas kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lemmas: Option<u64>,
    /// Bounds at program constants added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant_candidates: Option<u64>,
    /// Shape facts over datatype arguments added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape_candidates: Option<u64>,
    /// Congruences added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modular_candidates: Option<u64>,
    /// Degree-2 equalities added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quadratic_candidates: Option<u64>,
    /// Linear templates dropped by the first filter and tried again on top of the non-linear
    /// ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retried_candidates: Option<u64>,
    /// Every lemma kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_lemmas: Option<u64>,
}

impl SamplesStats {
    fn add_houdini(&mut self, checks: u64) {
        *self.houdini_checks.get_or_insert(0) += checks;
    }
}

/// Candidate invariants from samples of reachable states.
#[derive(Clone, Debug)]
pub struct Samples {
    /// Most distinct states kept per predicate.
    pub max_states: usize,
    /// Share of the caller's time spent collecting states (the rest filters candidates).
    pub sampling_share: f64,
}

impl Default for Samples {
    fn default() -> Self {
        Samples {
            max_states: 48,
            sampling_share: 0.4,
        }
    }
}

/// What the samples give: inductive lemmas per predicate, all of them and the linear ones.
pub struct Found {
    /// Every lemma kept (linear and, when the quadratic stage succeeded, quadratic).
    pub model: Model,
    /// The linear lemmas only: seeds for engines that work in linear arithmetic.
    pub linear: Model,
}

impl Samples {
    /// The inductive subsets of the candidates as models (every predicate interpreted; `true`
    /// where nothing survived), or the reason there are none. Linear candidates are filtered
    /// first; quadratic ones are then filtered on top of the linear survivors, and a failure
    /// there (timeout, non-linear checks the solver cannot decide) keeps the linear result.
    pub fn invariants(
        &self,
        cx: &Context<'_>,
        system: &System,
        stats: &mut Stats,
    ) -> Result<Found, String> {
        let store = cx.store;
        let sampling = match cx.deadline.remaining() {
            Some(r) => cx.deadline.at_most(r.mul_f64(self.sampling_share)),
            None => cx.deadline.at_most(std::time::Duration::from_secs(1)),
        };
        let (mut states, checks) = sample::collect(store, system, sampling, self.max_states, false);
        if let Some(given) = cx.candidates.states() {
            for (pool, more) in states.iter_mut().zip(given) {
                let seen: HashSet<Vec<Value>> = pool.iter().cloned().collect();
                pool.extend(more.iter().filter(|s| !seen.contains(*s)).cloned());
            }
        }
        let mut counts = SamplesStats {
            sample_checks: checks,
            states: states.iter().map(|s| s.len() as u64).sum::<u64>(),
            ..SamplesStats::default()
        };
        let result = self.filter(cx, system, &states, &mut counts);
        *stats = Stats::Samples(counts);
        result
    }

    /// The candidates of `states`, filtered (see [`Samples::invariants`]).
    fn filter(
        &self,
        cx: &Context<'_>,
        system: &System,
        states: &sample::States,
        stats: &mut SamplesStats,
    ) -> Result<Found, String> {
        let store = cx.store;
        if states.iter().all(|s| s.is_empty()) {
            return Err("samples: no reachable state found".into());
        }
        let mut lemmas = Lemmas {
            params: Vec::new(),
            lemmas: Vec::new(),
            known: vec![0; system.num_preds()],
        };
        // Templates beyond linear arithmetic (the cells' fitted `v = k² - 1`) wait for the
        // degree-2 stage: a check the solver cannot decide drops every new lemma of its head.
        let mut nonlinear_templates: Vec<Vec<TermId>> = Vec::new();
        let mut linear_templates: Vec<Vec<TermId>> = Vec::new();
        for p in system.pred_ids() {
            let params = system.fresh_params(store, p);
            let sampled = &states[p.0 as usize];
            // A predicate no sample reached may be unreachable: `false` is its candidate.
            let mut cands = candidates(store, &params, sampled);
            let (mut nonlinear, mut linear) = (Vec::new(), Vec::new());
            if let Some(t) = cx.candidates.templates().and_then(|m| m.get(p)) {
                for c in holding(store, t, &params, sampled) {
                    if store.is_nonlinear(c) {
                        nonlinear.push(c);
                    } else {
                        linear.push(c);
                    }
                }
            }
            cands.extend(linear.iter().copied());
            nonlinear_templates.push(nonlinear);
            linear_templates.push(linear);
            if sampled.is_empty() {
                cands.push(store.ff());
            }
            lemmas.lemmas.push(cands);
            lemmas.params.push(params);
        }
        stats.candidates = Some(count(&lemmas.lemmas));
        let (done, checks) = houdini::filter(store, system, &mut lemmas, cx.deadline.clone());
        stats.houdini_checks = Some(checks);
        if !done {
            return Err("samples: timeout in the Houdini filter".into());
        }
        stats.lemmas = Some(count(&lemmas.lemmas));
        // Inductive lemmas that already exclude every query are the answer: the stronger
        // candidates below would only delay it (`res1o`'s cells: a second for 25 quadratic
        // candidates and the candidates of every stage computed on 1400 states).
        let model = to_model(store, system, &lemmas);
        let (queries, _) = system.restricted(|_, c| c.is_query());
        let check = cx.check_deadline.at_most(std::time::Duration::from_secs(1));
        if validate_model(store, &queries, &model, check) == ModelCheck::Valid {
            stats.all_lemmas = stats.lemmas;
            return Ok(Found {
                linear: model.clone(),
                model,
            });
        }
        // With non-linear templates, the linear ones the filter dropped are tried again after
        // them: `k < i → a[k] = -1` after `a[i] = a[i] - i*i` holds only where `a[k] = k² - 1`
        // is known.
        let retried: Vec<Vec<TermId>> = if nonlinear_templates.iter().all(|n| n.is_empty()) {
            vec![Vec::new(); lemmas.lemmas.len()]
        } else {
            linear_templates
                .iter()
                .zip(&lemmas.lemmas)
                .map(|(linear, kept)| {
                    let kept: HashSet<TermId> = kept.iter().copied().collect();
                    linear
                        .iter()
                        .copied()
                        .filter(|c| !kept.contains(c))
                        .collect()
                })
                .collect()
        };
        // Stronger candidates on top of the inductive ones, stage by stage: bounds at program
        // constants, shape facts over datatype arguments, congruences, degree-2 equalities
        // (with the non-linear templates), the retried templates. Each stage that has
        // candidates gets an equal share of the time left among those still to come (the last
        // all of it; a stage that finishes early leaves its time to the next); a stage that
        // fails leaves the lemmas as they were.
        let params = lemmas.params.clone();
        let per_pred = |f: &dyn Fn(usize) -> Vec<TermId>| -> Vec<Vec<TermId>> {
            (0..params.len()).map(f).collect()
        };
        let consts = constants(store, system);
        type Counter = fn(&mut SamplesStats) -> &mut Option<u64>;
        let stages: [(Vec<Vec<TermId>>, Counter); 5] = [
            (
                per_pred(&|i| constant_bounds(store, &params[i], &states[i], &consts)),
                |s| &mut s.constant_candidates,
            ),
            (
                per_pred(&|i| shapes::shapes(store, &params[i], &states[i])),
                |s| &mut s.shape_candidates,
            ),
            (per_pred(&|i| modular(store, &params[i], &states[i])), |s| {
                &mut s.modular_candidates
            }),
            (
                per_pred(&|i| {
                    let mut q = quadratic(store, &params[i], &states[i]);
                    q.extend(nonlinear_templates[i].iter().copied());
                    q
                }),
                |s| &mut s.quadratic_candidates,
            ),
            (retried, |s| &mut s.retried_candidates),
        ];
        // The shape stage is the first whose lemmas are not linear arithmetic (the engines
        // that take the lemmas as seeds work in it), and the one stage absent from the stats
        // where it cannot apply (no datatype argument).
        const SHAPES: usize = 1;
        let has = |extra: &[Vec<TermId>]| extra.iter().any(|e| !e.is_empty());
        let mut left = stages.iter().filter(|(e, _)| has(e)).count();
        let mut linear = None;
        for (k, (extra, counter)) in stages.into_iter().enumerate() {
            if k == SHAPES {
                linear = Some(to_model(store, system, &lemmas));
            }
            if !has(&extra) {
                if k != SHAPES {
                    *counter(stats) = Some(0);
                }
                continue;
            }
            let deadline = share_of_remaining(cx.deadline.clone(), left);
            left -= 1;
            let (added, checks) = lemmas.strengthen(store, system, extra, deadline);
            *counter(stats) = Some(added);
            stats.add_houdini(checks);
        }
        stats.all_lemmas = Some(count(&lemmas.lemmas));
        Ok(Found {
            model: to_model(store, system, &lemmas),
            linear: linear.expect("the stages ran"),
        })
    }
}

impl Engine for Samples {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let store = cx.store;
        let found = match self.invariants(cx, system, stats) {
            Ok(found) => found,
            Err(r) => return Answer::Unknown(Reason::GaveUp(r)),
        };
        let with = |m: &Model| match cx.candidates.seeds() {
            Some(s) => conjoin(store, system, s, m),
            None => m.clone(),
        };
        // Each validation gets its own second (the sampling may have used the whole slice,
        // and a non-linear check the solver cannot decide must not starve the other); the
        // samples' model alone first, as it is the simpler one.
        let mut answer = Answer::Unknown(Reason::GaveUp(
            "samples: the invariants do not exclude the queries".into(),
        ));
        for m in [found.model.clone(), with(&found.model)] {
            let check = cx.check_deadline.at_most(std::time::Duration::from_secs(1));
            if validate_model(store, system, &m, check) == ModelCheck::Valid {
                answer = Answer::Sat(m);
                break;
            }
        }
        cx.candidates.leave(with(&found.linear));
        answer
    }
}

/// A deadline `1/n` of the way from now to `d` (`d` itself when it has no limit or `n <= 1`).
fn share_of_remaining(d: crate::clock::Deadline, n: usize) -> crate::clock::Deadline {
    match d.remaining() {
        Some(r) if n > 1 => d.at_most(r / n as u32),
        _ => d,
    }
}

/// The conjuncts of `template` (over its own parameters) that hold on every state of
/// `states` (values of `params`), over `params`.
fn holding(
    store: &TermStore,
    template: &Interp,
    params: &[VarId],
    states: &[Vec<Value>],
) -> Vec<TermId> {
    let body = store.rename(template.body, &template.params, params);
    let envs = environments(params, states);
    store
        .conjuncts(body)
        .into_iter()
        .filter(|&c| {
            envs.iter()
                .all(|env| store.eval(c, env) == Ok(Value::Bool(true)))
        })
        .collect()
}

/// Each sampled state as an assignment of the predicate's parameters.
fn environments(params: &[VarId], states: &[Vec<Value>]) -> Vec<HashMap<VarId, Value>> {
    states
        .iter()
        .map(|s| params.iter().copied().zip(s.iter().cloned()).collect())
        .collect()
}

fn count(l: &[Vec<TermId>]) -> u64 {
    l.iter().map(|x| x.len() as u64).sum()
}

/// The lemmas as a model: their conjunction per predicate.
fn to_model(store: &TermStore, system: &System, lemmas: &Lemmas) -> Model {
    let mut model = Model::new();
    for p in system.pred_ids() {
        let i = p.0 as usize;
        model.set(
            p,
            Interp {
                params: lemmas.params[i].clone(),
                body: store.and(lemmas.lemmas[i].clone()),
            },
        );
    }
    model
}

/// The conjunction of two models, predicate by predicate (a predicate missing from either is
/// `false`, as in a model).
pub fn conjoin(store: &TermStore, system: &System, a: &Model, b: &Model) -> Model {
    let mut out = Model::new();
    for p in system.pred_ids() {
        let (Some(x), Some(y)) = (a.get(p), b.get(p)) else {
            continue;
        };
        let map: HashMap<VarId, TermId> = y
            .params
            .iter()
            .zip(&x.params)
            .map(|(from, to)| (*from, store.var(*to)))
            .collect();
        let yb = store.substitute(y.body, &map);
        out.set(
            p,
            Interp {
                params: x.params.clone(),
                body: store.and([x.body, yb]),
            },
        );
    }
    out
}
