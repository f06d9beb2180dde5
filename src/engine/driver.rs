//! The solving pipeline every front end shares: preprocess, run the chosen engine under a
//! deadline, translate the answer back, validate it against the original clauses.
//!
//! Duty: turn a system and [`SolveOptions`] into a [`Solved`] whose answer has passed the
//! witness checks (a model valid for every original clause, or a derivation that replays), with
//! the statistics `--stats` prints. Must not: print, read files, or let an unchecked answer out.

use super::cegar::CexShape;
use super::hints::{self as user_hints, HintStats};
use super::portfolio::Portfolio;
use super::schedule::{Schedule, Selection, Settings};
use super::slicing::Weakening;
use super::Candidates;
use super::{Context, Stats};
use crate::chc::{ClauseId, System};
use crate::clock::{Cancel, Deadline};
use crate::term::TermStore;
use crate::transform::{DropClauses, Pipeline, Preprocess};
use crate::witness::{
    validate_model, Answer, Derivation, ExportedModel, Model, ModelCheck, Reason,
};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The engines: the portfolio's schedule, or chosen engines in order (one engine alone
    /// runs with all the time and reports its own counters).
    pub engine: Selection,
    /// Run the answer-preserving simplifications first.
    pub preprocess: bool,
    /// Time limit for preprocessing and the engine (validation has its own).
    pub timeout: Option<Duration>,
    /// Time for translating the answer back and validating it, beyond what is left of
    /// `timeout` when the engine answers: a correct answer found just before the deadline must
    /// not be lost to it, and the whole call ends by `timeout` plus this.
    pub validation_limit: Duration,
    /// The counterexample shape CEGAR refines.
    pub cex_shape: CexShape,
    /// How slicing weakens candidates.
    pub weakening: Weakening,
    /// Replace the engine's witness with a wrong one before the checks (tests of the checks
    /// and of how a failed witness is reported; never set in normal use).
    pub forge: Option<Forgery>,
    /// Stop early when set (a caller that no longer needs the answer): the answer is then
    /// `unknown`.
    pub cancel: Cancel,
    /// Threads for a schedule of several engines: 1 runs it in sequence, 2 or more split it
    /// over two threads ([`super::parallel`]).
    pub threads: usize,
    /// For a schedule (`Auto` or several engines): work bounds instead of time slices
    /// ([`Schedule::with_bounds`]), for answers that do not depend on load. One engine alone
    /// has no slice and keeps its own bounds.
    pub deterministic: bool,
    /// Candidate invariants from the user ([`super::hints`]).
    pub hints: Option<Hints>,
}

/// A user's candidate invariants for the input system, and how long their filter may take.
#[derive(Clone, Debug)]
pub struct Hints {
    /// The candidates, over the input system's predicates (each thread imports them into its
    /// own store).
    pub model: Arc<ExportedModel>,
    /// The filter's longest time (it also takes at most a quarter of the time limit).
    pub filter_time: Duration,
    /// Clauses of the input system the user advises leaving out (`drop_clause` of a rule
    /// file): the engines solve the system without them ([`DropClauses`]); a model is checked
    /// against them too, and one they refute is no answer (`unknown`).
    pub drop: Vec<ClauseId>,
}

impl Hints {
    /// Hints from a model over `store`, with a filter of at most 10 s.
    pub fn new(store: &TermStore, model: &Model) -> Self {
        Hints {
            model: Arc::new(model.export(store)),
            filter_time: Duration::from_secs(10),
            drop: Vec::new(),
        }
    }

    /// The same hints, with the advice to leave out `clauses`.
    pub fn with_drop(self, clauses: Vec<ClauseId>) -> Self {
        Hints {
            drop: clauses,
            ..self
        }
    }
}

/// A wrong witness put in place of the engine's, to show that the checks catch it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forgery {
    /// After `sat`: the empty model (every predicate `false`), which fails every fact.
    EmptyModel,
    /// After `unsat`: the empty derivation, which derives nothing.
    EmptyDerivation,
}

impl Forgery {
    fn apply(self, answer: Answer) -> Answer {
        match (self, answer) {
            (Forgery::EmptyModel, Answer::Sat(_)) => Answer::Sat(Model::new()),
            (Forgery::EmptyDerivation, Answer::Unsat(_)) => Answer::Unsat(Derivation::default()),
            (_, a) => a,
        }
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            engine: Selection::Auto,
            preprocess: true,
            timeout: None,
            validation_limit: Duration::from_secs(30),
            cex_shape: CexShape::Mixed,
            weakening: Weakening::Cex,
            forge: None,
            deterministic: false,
            cancel: Cancel::new(),
            threads: 1,
            hints: None,
        }
    }
}

/// Milliseconds spent per phase (on two threads, the phases of the thread that answered, or
/// without an answer of the last to end).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct PhaseTimes {
    /// Answer-preserving simplifications.
    pub preprocess: u64,
    /// The engine.
    pub solve: u64,
    /// Translating the answer back through preprocessing.
    pub translate: u64,
    /// Validation against the original clauses.
    pub validate: u64,
}

/// A checked answer and how it was found.
#[derive(Debug)]
pub struct Solved {
    /// Validated against the original system (or `unknown`).
    pub answer: Answer,
    /// The engine that produced the answer (under a schedule, the member that answered, or
    /// `"portfolio"` when none did).
    pub engine: &'static str,
    /// The engine's counters.
    pub stats: Stats,
    /// What preprocessing removed (`None` when it was off; on two threads, as for `times`).
    pub preprocess: Option<crate::transform::PreprocessStats>,
    /// Time per phase.
    pub times: PhaseTimes,
    /// What became of the user's hints (`None` without hints; on two threads, as for `times`).
    pub hints: Option<HintStats>,
}

/// Solves `system` as `options` say; the answer is checked against `system` itself.
///
/// With two threads or more, each thread of [`super::parallel`] runs this whole pipeline on its
/// own copy of `system` (preprocessing, its part of the schedule, back-translation and
/// validation), so that an answer arrives checked and the calling thread needs no Z3 context:
/// making one cost 10-30 ms of a sat answer's time on this machine, and the part's own context
/// is warm. A part whose witness fails its check leaves the other part running. Preprocessing
/// thus runs once per thread, side by side (0-50 ms on the public set): its back-translators
/// hold terms of the store they were made in and cannot move to another thread.
pub fn solve(store: &TermStore, system: &System, options: &SolveOptions) -> Solved {
    let deadline = match options.timeout {
        Some(d) => Deadline::after(d),
        None => Deadline::none(),
    }
    .with_cancel(options.cancel.clone());
    let mut schedule = match &options.engine {
        Selection::Auto => Schedule::default(),
        Selection::Engines(kinds) => Schedule::of(kinds),
    };
    // One engine alone has no time slice to replace: its own bounds stay.
    let alone = options.engine.alone();
    if options.deterministic && alone.is_none() {
        schedule = schedule.with_bounds();
    }
    schedule.settings = Settings {
        weakening: options.weakening,
        cex_shape: options.cex_shape,
    };
    let mut stats = Stats::default();
    let (engine, answer, finish) = match alone {
        // One engine alone: all the time, its own counters, no portfolio around it.
        Some(kind) => {
            let engine = schedule.engine(kind);
            solve_here(
                store,
                system,
                options,
                deadline,
                &mut stats,
                |cx, s, stats| (kind.name(), engine.solve(cx, s, stats)),
            )
        }
        None => {
            let portfolio = Portfolio::new(schedule);
            match options.threads {
                0 | 1 => solve_here(store, system, options, deadline, &mut stats, |cx, s, st| {
                    portfolio.run(cx, s, st)
                }),
                n => {
                    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
                    let parts = super::parallel::parts(&portfolio, n, cores);
                    let (engine, answer, finish) = super::parallel::run(
                        &parts,
                        store,
                        system,
                        &deadline,
                        &mut stats,
                        |part, store, copy, deadline, stats| {
                            solve_here(store, copy, options, deadline, stats, |cx, s, st| {
                                part.run(cx, s, st)
                            })
                        },
                    );
                    (engine, answer, finish.unwrap_or_default())
                }
            }
        }
    };
    Solved {
        answer,
        engine,
        stats,
        preprocess: finish.preprocess,
        times: finish.times,
        hints: finish.hints,
    }
}

/// The user's hints over `system` (the preprocessed system, which `pipeline` made): carried
/// through preprocessing and filtered to their inductive subset, which may be an invariant
/// already (`answered` in the counters). The filter and the check together take at most
/// [`Hints::filter_time`] and a quarter of the time left.
fn prepare_hints(
    store: &TermStore,
    system: &System,
    pipeline: &Pipeline,
    hints: &Hints,
    deadline: &Deadline,
) -> (Option<Model>, HintStats) {
    let mut counts = HintStats::default();
    let Ok((given, _)) = hints.model.import(store) else {
        return (None, counts);
    };
    counts.given = user_hints::atoms(store, &given);
    let carried = pipeline.hints(store, &given);
    let limit = match deadline.remaining() {
        Some(r) => hints.filter_time.min(r / 4),
        None => hints.filter_time,
    };
    let within = deadline.at_most(limit);
    let kept = user_hints::filter(store, system, &carried, within.clone(), &mut counts);
    counts.answered = kept.as_ref().is_some_and(|m| {
        counts.kept > 0 && matches!(validate_model(store, system, m, within), ModelCheck::Valid)
    });
    (kept, counts)
}

/// `answer` checked against `system`. With clauses left out on the user's advice, a model is
/// checked against the kept clauses first (a failure there is the engines' bug, as always),
/// then against the left-out ones: a model they refute is no answer, and it is the advice's
/// doing, not a bug (`unknown`, gave up).
fn validated(
    store: &TermStore,
    system: &System,
    advice: &[ClauseId],
    answer: Answer,
    deadline: Deadline,
) -> Answer {
    if advice.is_empty() || !matches!(answer, Answer::Sat(_)) {
        return answer.validated(store, system, deadline);
    }
    let advised: BTreeSet<ClauseId> = advice.iter().copied().collect();
    let (kept, _) = system.restricted(|c, _| !advised.contains(&c));
    match answer.validated(store, &kept, deadline.clone()) {
        Answer::Sat(m) => {
            let (left_out, ids) = system.restricted(|c, _| advised.contains(&c));
            match validate_model(store, &left_out, &m, deadline) {
                ModelCheck::Valid => Answer::Sat(m),
                ModelCheck::Invalid { clause, .. } => Answer::Unknown(Reason::GaveUp(format!(
                    "the model of the system without the clauses the hints advised leaving out \
                     violates clause {}, one of them",
                    ids[clause.0 as usize].0
                ))),
                ModelCheck::Unknown(r) => Answer::Unknown(Reason::Unchecked(format!(
                    "model could not be validated: {r}"
                ))),
            }
        }
        other => other,
    }
}

/// What a solve reports besides its answer and the engines' counters.
#[derive(Debug, Default)]
struct Finish {
    /// What preprocessing removed (`None` when it was off).
    preprocess: Option<crate::transform::PreprocessStats>,
    /// Time per phase.
    times: PhaseTimes,
    /// What became of the user's hints.
    hints: Option<HintStats>,
}

/// The pipeline in the calling thread's store and Z3 context: preprocess `system`, run
/// `engines` on the result, translate the answer back and check it against `system`.
fn solve_here(
    store: &TermStore,
    system: &System,
    options: &SolveOptions,
    deadline: Deadline,
    stats: &mut Stats,
    engines: impl FnOnce(&Context<'_>, &System, &mut Stats) -> (&'static str, Answer),
) -> (&'static str, Answer, Finish) {
    let t0 = Instant::now();
    let advice: &[ClauseId] = options.hints.as_ref().map_or(&[], |h| &h.drop);
    let mut first = Pipeline::new();
    let advised = (!advice.is_empty()).then(|| {
        let drop = DropClauses {
            clauses: advice.to_vec(),
        };
        first.push(store, &drop, system)
    });
    let input = advised.as_ref().unwrap_or(system);
    let (solved_system, pipeline) = if options.preprocess {
        Preprocess::default().run_after(store, input, first)
    } else {
        (input.clone(), first)
    };
    let t1 = Instant::now();
    let (hinted, hint_stats) = match &options.hints {
        Some(h) => {
            let (kept, mut counts) = prepare_hints(store, &solved_system, &pipeline, h, &deadline);
            counts.dropped = advice.len() as u64;
            (kept, Some(counts))
        }
        None => (None, None),
    };
    let answered = hinted
        .as_ref()
        .filter(|_| hint_stats.as_ref().is_some_and(|s| s.answered));
    let (engine, answer) = match answered {
        Some(m) => ("hints", Answer::Sat(m.clone())),
        None => {
            // Hints of which none survived change nothing: the engines run as without.
            let kept = hint_stats.as_ref().is_some_and(|s| s.kept > 0);
            let cx = Context {
                candidates: Candidates::given(hinted.filter(|_| kept)),
                ..Context::new(store, deadline.clone())
            };
            engines(&cx, &solved_system, stats)
        }
    };
    let answer = match options.forge {
        Some(f) => f.apply(answer),
        None => answer,
    };
    let t2 = Instant::now();
    let vdeadline =
        Deadline::after(deadline.remaining().unwrap_or_default() + options.validation_limit);
    // Stopped with the search (a caller or another thread no longer needs the answer).
    let vdeadline = match deadline.cancel() {
        Some(c) => vdeadline.with_cancel(c.clone()),
        None => vdeadline,
    };
    let answer = pipeline.answer(store, answer, vdeadline.clone());
    let t3 = Instant::now();
    let answer = validated(store, system, advice, answer, vdeadline);
    let t4 = Instant::now();
    let ms = |a: Instant, b: Instant| (b - a).as_millis() as u64;
    let finish = Finish {
        preprocess: options.preprocess.then(|| pipeline.summary()),
        hints: hint_stats,
        times: PhaseTimes {
            preprocess: ms(t0, t1),
            solve: ms(t1, t2),
            translate: ms(t2, t3),
            validate: ms(t3, t4),
        },
    };
    (engine, answer, finish)
}
