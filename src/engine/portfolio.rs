//! The portfolio behind `--engine auto`: formula slicing, BMC, CEGAR and PDR run one after the
//! other in time slices, slicing's candidate invariants seed CEGAR, and the first validated
//! answer wins.
//!
//! Duty: compose the engines (they never call each other; only this module does), give each its
//! slice of the caller's deadline, hand slicing's inductive candidates to CEGAR, and report in
//! the stats which engine answered and how long each phase ran. A `sat` counts only when its
//! model was validated (slicing's and PDR's by this module, CEGAR's by CEGAR itself: each model
//! is checked once here, and once more by the driver against the original system); an `unsat` counts only
//! when its derivation replays (ground evaluation, cheap).
//!
//! Systems whose predicates carry Boolean arguments (control state in VMT and Lustre
//! encodings) are split first ([`SplitBooleans`]: one predicate per reachable valuation, at most
//! 2 s): slicing, the sampling phase and CEGAR work on the split system, whose invariants are
//! conjunctive where the original's are disjunctive in the control state; their answers are
//! translated back. BMC keeps the unsplit system, which it unrolls faster (on the public set
//! three kind2 refutations take 0.7 s unsplit and time out split), and so does PDR, whose
//! lemmas are clauses that mention Boolean arguments directly.
//!
//! Must not: print, run engines in parallel (batch already runs one instance per core), or let
//! an unchecked answer out.
//!
//! ## The schedule and the measurement behind it
//!
//! Slicing 2 s, candidates from sampled states 1 s ([`Samples`]: affine and quadratic
//! equalities, bounds and orderings that hold on concrete reachable states, filtered to an
//! inductive subset; validated together with slicing's candidates, a proof when they exclude
//! the queries, else their linear lemmas join CEGAR's seeds), BMC 1 s, CEGAR (seeded) 80 % of
//! the time left but at most 4 s, PDR the rest, BMC whatever PDR leaves. The sampling phase was
//! added after the replay below, for the SV-COMP safe tasks (BENCHMARKS.md, "C programs (issue
//! 7)"); PDR and CEGAR's cap in session 6 (below). The rest was chosen by replaying
//! the single engines' per-file results on the 269 non-ADT files of
//! `../shared/chc-bench/public` (`scripts/portfolio_schedule.py`; tables in BENCHMARKS.md, "The
//! portfolio's schedule"):
//!
//! - slicing (cex weakening, 20 s): all 23 proofs within 0.97 s; 90 % of its `unknown`s end
//!   within 1.03 s, a few run to the limit. Slice: 2 s.
//! - BMC with preprocessing (20 s, the 94 files Z3 refutes): 79 refutations, 90 % within
//!   0.81 s, the slowest 3.9 s. First slice: 1 s; the slow ones are caught by the last phase.
//! - CEGAR (20 s per file): 122 answers (65 `sat`, 57 `unsat`), many of them late, so it gets
//!   most of the time; when it gives up early ("no new predicate") BMC gets the time back.
//!
//! Replayed at 20 s per file this schedule solves 143 (CEGAR's share 0.5: 141, 0.6-0.7: 142,
//! 0.9 or all: 141; BMC alone 81, CEGAR alone 122). The cheap engines go first because they
//! answer or give up within about a second; slicing is first because its candidates are
//! CEGAR's seeds anyway.
//!
//! PDR (session 6, BENCHMARKS.md "PDR"): alone, it solves 26 of the 44 LRA-TS files (the
//! portfolio before it: 10; Z3: 26), 66 of 96 LIA-NonLin at 10 s (the portfolio: 64), and 67 of
//! 105 LIA-Lin at 10 s (the portfolio: 84; PDR diverges where CEGAR's interpolants find parity
//! and linear equalities at once). Its hard answers come late (sally and VMT `sat`s at 10-19
//! s), CEGAR's early: of the portfolio's CEGAR answers that took CEGAR more than 4 s, PDR
//! solves all but one (kind2 FIREFLY_luke_1a). Hence CEGAR first, capped at 4 s, and PDR the
//! rest, its frames seeded with slicing's and the samples' candidates (as CEGAR's are). On
//! systems over the reals PDR goes first, right after a 3 s BMC pass: every LRA-TS file the
//! portfolio solved before PDR, PDR alone solves too, and 8 of its 26 answers needed more than
//! 10 s; the BMC pass is 3 s because BMC refutes `tte_synchro…strict` (2.6 s) and
//! `transmitter.2` (2.1 s) that PDR needs 13-20 s for (session 7).

use super::bmc::Bmc;
use super::cegar::Cegar;
use super::pdr::Pdr;
use super::seeds::{conjoin, Samples};
use super::slicing::Slicing;
use super::{Context, Engine, Stats};
use crate::chc::System;
use crate::smt::Deadline;
use crate::transform::{BackTranslator, SplitBooleans};
use crate::witness::{replay_derivation, validate_model, Answer, Model, ModelCheck, Reason};
use std::time::{Duration, Instant};

/// The portfolio engine: see the module header for the schedule.
#[derive(Clone, Debug)]
pub struct Portfolio {
    /// Time for formula slicing (its proofs and its seeds for CEGAR).
    pub slicing_slice: Duration,
    /// Time for the first BMC pass.
    pub bmc_slice: Duration,
    /// Share of the time left after the first two phases that CEGAR may use; BMC gets the
    /// rest (and whatever CEGAR leaves unused). Without a deadline CEGAR runs until it ends.
    pub cegar_share: f64,
    /// Hand slicing's candidates to CEGAR.
    pub seed_cegar: bool,
    /// Hand the candidates (slicing's and the samples') to PDR as lemmas of every frame.
    pub seed_pdr: bool,
    /// Most time CEGAR gets when PDR follows it.
    pub cegar_pdr_slice: Duration,
    /// Share of the time left after CEGAR that PDR may use (BMC gets the rest); zero skips
    /// PDR (and lifts CEGAR's cap).
    pub pdr_share: f64,
    /// On systems with real-valued predicate arguments, run PDR right after BMC's first pass,
    /// with all the time it takes, before the other engines.
    pub pdr_first_on_reals: bool,
    /// Time for BMC's pass before PDR on systems over the reals.
    pub reals_bmc_slice: Duration,
    /// Time for candidate invariants from sampled states ([`Samples`]); zero skips the phase.
    pub samples_slice: Duration,
    /// Split predicates by their reachable Boolean valuations for slicing, the sampling phase
    /// and CEGAR (BMC keeps the system as it is); `None`: no split.
    pub split_bools: Option<SplitBooleans>,
    /// A deterministic schedule: with bounds, no phase has a time slice; each runs to its
    /// engine's work bound (or the caller's deadline), so that the answer does not depend on
    /// the machine's speed or load. `None`: the time slices above.
    pub bounds: Option<WorkBounds>,
    /// Which phases run (all by default; the parallel portfolio gives each thread a part).
    pub phases: Phases,
}

/// The phases of the schedule that run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phases {
    /// Formula slicing.
    pub slicing: bool,
    /// Candidate invariants from sampled states.
    pub samples: bool,
    /// Both BMC passes.
    pub bmc: bool,
    /// CEGAR.
    pub cegar: bool,
    /// PDR.
    pub pdr: bool,
}

impl Phases {
    /// Every phase.
    pub const ALL: Phases = Phases {
        slicing: true,
        samples: true,
        bmc: true,
        cegar: true,
        pdr: true,
    };
}

/// The work bounds of a deterministic schedule ([`Portfolio::deterministic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkBounds {
    /// Deepest BMC unrolling, in each BMC pass.
    pub bmc_depth: usize,
    /// Most CEGAR refinements.
    pub cegar_iterations: usize,
    /// Most PDR frames.
    pub pdr_frames: usize,
}

impl Default for WorkBounds {
    fn default() -> Self {
        WorkBounds {
            bmc_depth: 20,
            cegar_iterations: 40,
            pdr_frames: 40,
        }
    }
}

impl Default for Portfolio {
    fn default() -> Self {
        Portfolio {
            slicing_slice: Duration::from_secs(2),
            bmc_slice: Duration::from_secs(1),
            cegar_share: 0.8,
            seed_cegar: true,
            seed_pdr: true,
            cegar_pdr_slice: Duration::from_secs(4),
            pdr_share: 1.0,
            pdr_first_on_reals: true,
            reals_bmc_slice: Duration::from_secs(3),
            samples_slice: Duration::from_secs(1),
            split_bools: Some(SplitBooleans::default()),
            bounds: None,
            phases: Phases::ALL,
        }
    }
}

impl Portfolio {
    /// The schedule of [`Portfolio::default`] with work bounds in place of time slices
    /// ([`WorkBounds::default`]): the same answer on any machine that has the time.
    pub fn deterministic() -> Self {
        Portfolio {
            bounds: Some(WorkBounds::default()),
            // The split is bounded by its sizes; its time budget would make it machine-dependent.
            split_bools: Some(SplitBooleans {
                budget: Duration::from_secs(3600),
                ..SplitBooleans::default()
            }),
            ..Portfolio::default()
        }
    }

    /// A phase's time slice, or none under work bounds.
    fn time(&self, slice: Option<Duration>) -> Option<Duration> {
        match self.bounds {
            Some(_) => None,
            None => slice,
        }
    }

    fn bmc_engine(&self) -> Bmc {
        match self.bounds {
            Some(b) => Bmc {
                max_depth: b.bmc_depth,
                ..Bmc::default()
            },
            None => Bmc::default(),
        }
    }
}

/// A deadline `slice` from now, but never past `outer`.
fn sliced(outer: Deadline, slice: Option<Duration>) -> Deadline {
    slice.map_or(outer, |s| outer.at_most(s))
}

/// What one phase did, for `--stats`.
fn record(stats: &mut Stats, name: &str, answer: &Answer, ms: u64, sub: Stats) {
    let mut phase = serde_json::Map::new();
    phase.insert("answer".into(), answer.keyword().into());
    phase.insert("time_ms".into(), ms.into());
    if let Answer::Unknown(r) = answer {
        phase.insert("reason".into(), r.to_string().into());
        phase.insert("reason_kind".into(), r.kind().name().into());
    }
    phase.insert(
        "stats".into(),
        serde_json::to_value(&sub).unwrap_or_default(),
    );
    let mut phases = match stats.0.remove("phases") {
        Some(serde_json::Value::Array(a)) => a,
        _ => Vec::new(),
    };
    phases.push(serde_json::json!({ name: phase }));
    stats.set("phases", phases);
}

impl Portfolio {
    /// Runs the schedule; returns the engine that answered (`"portfolio"` for `unknown`) and
    /// the answer.
    pub fn run(
        &self,
        cx: &Context<'_>,
        system: &System,
        stats: &mut Stats,
    ) -> (&'static str, Answer) {
        let store = cx.store;
        let mut reasons: Vec<Reason> = Vec::new();
        let t = Instant::now();
        let split = self
            .split_bools
            .as_ref()
            .and_then(|s| s.split(store, system));
        if let Some((s, _)) = &split {
            stats.set("split_bools_ms", ms(t));
            stats.set("split_bools_predicates", s.num_preds());
        }
        // The invariant engines' system, and the map of their answers back to `system`.
        let (inv_system, back): (&System, Option<&dyn BackTranslator>) = match &split {
            Some((s, b)) => (s, Some(b.as_ref())),
            None => (system, None),
        };
        let lift = |answer: Answer| -> Answer {
            let Some(b) = back else { return answer };
            match answer {
                Answer::Sat(m) => Answer::Sat(b.model(store, m, cx.deadline)),
                Answer::Unsat(d) => match b.derivation(store, d, cx.deadline) {
                    Ok(d) => Answer::Unsat(d),
                    Err(e) => Answer::Unknown(Reason::WitnessFailed(format!("Boolean split: {e}"))),
                },
                u => u,
            }
        };

        // 0. Systems over the reals: BMC's first pass, then PDR with all the time it takes.
        let pdr_first = self.phases.pdr
            && self.pdr_first_on_reals
            && self.pdr_share > 0.0
            && over_reals(system);
        if pdr_first {
            let slice = Some(self.reals_bmc_slice);
            if self.phases.bmc {
                if let Some(a) = self.bmc(cx, system, stats, slice, &mut reasons) {
                    return ("bmc", a);
                }
            }
            if let Some(a) = self.pdr(cx, system, None, stats, None, &mut reasons) {
                return ("pdr", a);
            }
        }

        // 1. Formula slicing: a proof, or seeds for CEGAR.
        let mut seeds = None;
        if self.phases.slicing {
            let t = Instant::now();
            let sub_cx = Context {
                store,
                deadline: sliced(cx.deadline, self.time(Some(self.slicing_slice))),
                cancel: cx.cancel.clone(),
            };
            let mut sub = Stats::default();
            let answer = match Slicing::default().invariants(&sub_cx, inv_system, &mut sub) {
                Ok(model) => match validate_model(store, inv_system, &model, sub_cx.deadline) {
                    ModelCheck::Valid => Answer::Sat(model),
                    ModelCheck::Invalid { clause, .. } => {
                        seeds = Some(model);
                        Answer::Unknown(Reason::GaveUp(format!(
                            "slicing: the invariants do not exclude clause {}",
                            clause.0
                        )))
                    }
                    ModelCheck::Unknown(r) => {
                        seeds = Some(model);
                        Answer::Unknown(Reason::Unchecked(format!("slicing: validation: {r}")))
                    }
                },
                Err(r) => Answer::Unknown(Reason::GaveUp(r)),
            };
            record(stats, "slicing", &answer, ms(t), sub);
            match answer {
                Answer::Sat(_) => return ("slicing", lift(answer)),
                Answer::Unknown(r) => reasons.push(r),
                Answer::Unsat(_) => unreachable!("slicing never answers unsat"),
            }
        }

        // 1b. Candidates from sampled states: a proof, or more seeds for CEGAR.
        if self.phases.samples && !self.samples_slice.is_zero() && !cx.stopped() {
            let t = Instant::now();
            let sub_cx = Context {
                store,
                deadline: sliced(cx.deadline, self.time(Some(self.samples_slice))),
                cancel: cx.cancel.clone(),
            };
            let mut sub = Stats::default();
            let answer = match Samples::default().invariants(&sub_cx, inv_system, &mut sub) {
                Ok(found) => {
                    let with = |m: &crate::witness::Model| match &seeds {
                        Some(s) => conjoin(store, inv_system, s, m),
                        None => m.clone(),
                    };
                    let mut answer = Answer::Unknown(Reason::GaveUp(
                        "samples: the invariants do not exclude the queries".into(),
                    ));
                    // Each validation gets its own second (the sampling may have used the whole
                    // slice, and a non-linear check the solver cannot decide must not starve the
                    // other); the samples' model alone first, as it is the simpler one.
                    for m in [found.model.clone(), with(&found.model)] {
                        let check = sliced(cx.deadline, Some(Duration::from_secs(1)));
                        if validate_model(store, inv_system, &m, check) == ModelCheck::Valid {
                            answer = Answer::Sat(m);
                            break;
                        }
                    }
                    // CEGAR works in linear arithmetic: it gets the linear lemmas only.
                    seeds = Some(with(&found.linear));
                    answer
                }
                Err(r) => Answer::Unknown(Reason::GaveUp(r)),
            };
            record(stats, "samples", &answer, ms(t), sub);
            match answer {
                Answer::Sat(_) => return ("samples", lift(answer)),
                Answer::Unknown(r) => reasons.push(r),
                Answer::Unsat(_) => unreachable!("samples never answer unsat"),
            }
        }

        // 2. BMC, first pass: shallow counterexamples (done already when PDR went first).
        if !pdr_first && self.phases.bmc {
            if let Some(a) = self.bmc(cx, system, stats, Some(self.bmc_slice), &mut reasons) {
                return ("bmc", a);
            }
        }

        // 3. CEGAR, seeded with slicing's candidates, for its share of the rest (capped when
        //    PDR follows it).
        if self.phases.cegar && !cx.stopped() {
            let t = Instant::now();
            let cegar = Cegar {
                seeds: if self.seed_cegar { seeds.clone() } else { None },
                max_iterations: self
                    .bounds
                    .map_or(Cegar::default().max_iterations, |b| b.cegar_iterations),
                ..Cegar::default()
            };
            let pdr_follows = self.phases.pdr && self.pdr_share > 0.0 && !pdr_first;
            let share = |r: Duration| r.mul_f64(self.cegar_share.clamp(0.0, 1.0));
            let slice = match (cx.deadline.remaining(), pdr_follows) {
                (r, true) => {
                    Some(r.map_or(self.cegar_pdr_slice, |r| share(r).min(self.cegar_pdr_slice)))
                }
                (r, false) => r.map(share),
            };
            let sub_cx = Context {
                store,
                deadline: sliced(cx.deadline, self.time(slice)),
                cancel: cx.cancel.clone(),
            };
            let mut sub = Stats::default();
            // One replay, against `system`, of a derivation translated back from the split.
            let answer = checked(cx, system, lift(cegar.solve(&sub_cx, inv_system, &mut sub)));
            record(stats, "cegar", &answer, ms(t), sub);
            match answer {
                Answer::Unknown(r) => reasons.push(r),
                a => return ("cegar", a),
            }
        }

        // 4. PDR on the unsplit system (it keeps Boolean state in its lemmas).
        if self.phases.pdr && self.pdr_share > 0.0 && !pdr_first && !cx.stopped() {
            let slice = cx
                .deadline
                .remaining()
                .map(|r| r.mul_f64(self.pdr_share.clamp(0.0, 1.0)));
            // The candidates are over the split system's predicates when there is one.
            let seeds = seeds.filter(|_| self.seed_pdr && split.is_none());
            if let Some(a) = self.pdr(cx, system, seeds, stats, slice, &mut reasons) {
                return ("pdr", a);
            }
        }

        // 5. BMC again with whatever time CEGAR and PDR left.
        if self.phases.bmc && !cx.stopped() {
            if let Some(a) = self.bmc(cx, system, stats, None, &mut reasons) {
                return ("bmc", a);
            }
        }
        if cx.stopped() {
            reasons.push(Reason::Timeout);
        }
        reasons.dedup();
        ("portfolio", Answer::Unknown(Reason::Phases(reasons)))
    }

    /// PDR within `slice` on `system`, its frames seeded with `seeds`; `Some` when its model
    /// validates or its derivation replays.
    fn pdr(
        &self,
        cx: &Context<'_>,
        system: &System,
        seeds: Option<Model>,
        stats: &mut Stats,
        slice: Option<Duration>,
        reasons: &mut Vec<Reason>,
    ) -> Option<Answer> {
        let pdr = Pdr {
            seeds,
            max_level: self
                .bounds
                .map_or(Pdr::default().max_level, |b| b.pdr_frames),
            ..Pdr::default()
        };
        let run = |sub_cx: &Context<'_>, sub: &mut Stats| match pdr.solve(sub_cx, system, sub) {
            Answer::Sat(m) => match validate_model(cx.store, system, &m, cx.deadline) {
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
        phase(cx, system, stats, "pdr", self.time(slice), reasons, run)
    }

    /// One BMC pass within `slice`; `Some` when it found a counterexample that replays.
    fn bmc(
        &self,
        cx: &Context<'_>,
        system: &System,
        stats: &mut Stats,
        slice: Option<Duration>,
        reasons: &mut Vec<Reason>,
    ) -> Option<Answer> {
        let bmc = self.bmc_engine();
        let run = |sub_cx: &Context<'_>, sub: &mut Stats| bmc.solve(sub_cx, system, sub);
        phase(cx, system, stats, "bmc", self.time(slice), reasons, run)
    }
}

/// One phase on `system` within `slice`: `run` gets the sliced context; an `unsat` answer's
/// derivation is replayed, the phase recorded in `stats`; `Some` for a definite answer, else
/// its reason joins `reasons`.
fn phase(
    cx: &Context<'_>,
    system: &System,
    stats: &mut Stats,
    name: &str,
    slice: Option<Duration>,
    reasons: &mut Vec<Reason>,
    run: impl FnOnce(&Context<'_>, &mut Stats) -> Answer,
) -> Option<Answer> {
    let t = Instant::now();
    let sub_cx = Context {
        store: cx.store,
        deadline: sliced(cx.deadline, slice),
        cancel: cx.cancel.clone(),
    };
    let mut sub = Stats::default();
    let answer = checked(cx, system, run(&sub_cx, &mut sub));
    record(stats, name, &answer, ms(t), sub);
    match answer {
        Answer::Unknown(r) => {
            reasons.push(r);
            None
        }
        a => Some(a),
    }
}

/// Whether some predicate has a real-valued argument (transition systems over clocks and
/// rates, as in the LRA-TS track).
fn over_reals(system: &System) -> bool {
    system
        .pred_ids()
        .any(|p| system.pred(p).sorts.contains(&crate::term::Sort::Real))
}

/// Replays an `unsat` answer's derivation (a `sat` answer's model was validated by its engine).
fn checked(cx: &Context<'_>, system: &System, answer: Answer) -> Answer {
    match answer {
        Answer::Unsat(d) => match replay_derivation(cx.store, system, &d) {
            Ok(()) => Answer::Unsat(d),
            Err(e) => Answer::Unknown(Reason::WitnessFailed(format!(
                "derivation failed replay: {e}"
            ))),
        },
        a => a,
    }
}

fn ms(t: Instant) -> u64 {
    t.elapsed().as_millis() as u64
}

impl Engine for Portfolio {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let (engine, answer) = self.run(cx, system, stats);
        stats.set("answered_by", engine);
        answer
    }
}
