//! The verification pipeline of a C program, as a library call: read and translate the program
//! ([`load`]), run it concretely a few times with chosen nondet values
//! ([`explore`]), solve the clauses ([`driver::solve`]), and read the answer
//! back at the source: a model becomes loop invariants ([`invariants`](super::invariants)), a
//! derivation becomes nondet values ([`trace`]) that the interpreter replays
//! ([`interp`]) before the program is called unsafe.
//!
//! A program whose `main` creates threads in a loop has no interleaving product: after the
//! schedules, its rely-guarantee clauses are solved (`solve_rely`); their model proves it safe
//! for any number of threads, their derivation is only a reason for `unknown`.
//!
//! Besides the verdict, [`Verified`] says who answered (the concrete runs or an engine), with
//! the engine's counters and the time of each phase: what `hornbeam verify --stats` prints.
//!
//! Must not: print or write files (`hornbeam verify` prints the [`Verdict`] and writes
//! witnesses); call a program unsafe without a concrete run that reaches the error.

mod by_shape;
mod essential;
mod lower;
use super::error::CErrorKind;
use super::interp::sched::{self, Step};
use super::ir::MemChecks;
use super::shape;
use super::threads;
use super::trace::NondetValue;
use super::unit::Unit;
use super::{explore, interp, trace, CError, DataModel, EncodeOptions, Program, Translation};
use crate::engine::driver::{self, Forgery, Hints, SolveOptions};
use crate::engine::hints::HintStats;
use crate::engine::schedule::{EngineKind, Selection};
use crate::engine::Stats;
use crate::term::TermStore;
use crate::witness::{Answer, Model, Reason};
use by_shape::{shape_alone, shape_engine, shape_safe};
pub use essential::essential_values;
pub use lower::{load, load_checked, load_with};
use lower::{lower, Lowered, Threads};
use std::time::{Duration, Instant};

/// How to verify.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// The widths of `long` and `unsigned long`.
    pub data_model: DataModel,
    /// The engine that solves the clauses.
    pub engine: Selection,
    /// Work bounds instead of time slices for the engines ([`SolveOptions::deterministic`]).
    pub deterministic: bool,
    /// Threads for a schedule of several engines ([`SolveOptions::threads`]).
    pub threads: usize,
    /// Time limit for the concrete runs and the engine (`None`: none).
    pub timeout: Option<Duration>,
    /// Time beyond `timeout` for translating the answer back and validating it.
    pub validation_limit: Duration,
    /// Run the program concretely before solving (20 % of the time limit, at most 3 s).
    pub testing: bool,
    /// Choices of the encoding.
    pub encode: EncodeOptions,
    /// For tests only: replace the engine's witness by a wrong one before it is checked (see
    /// [`Forgery`]), to show that the check catches it.
    pub forge: Option<Forgery>,
    /// What is checked: the property's checks (default: unreach-call).
    pub checks: MemChecks,
    /// A rule file whose relation `loop_hint(f, l, atom)` proposes loop invariants
    /// ([`super::hints`]), evaluated over the program that is encoded.
    pub hints: Option<std::sync::Arc<str>>,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            data_model: DataModel::Ilp32,
            engine: Selection::Auto,
            deterministic: false,
            threads: 1,
            timeout: None,
            validation_limit: SolveOptions::default().validation_limit,
            testing: true,
            encode: EncodeOptions::default(),
            forge: None,
            checks: MemChecks::unreach_call(),
            hints: None,
        }
    }
}

/// The answer about a program.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No execution reaches the error: the model of the clauses proves it (its loop-head
    /// interpretations are the invariants).
    Safe(Model),
    /// An execution reaches the error: these nondet values, replayed concretely, reach it.
    Unsafe {
        /// The values, in the order the run consumed them.
        values: Vec<NondetValue>,
        /// Byte offset of the error call reached (of the invalid operation, for a memory
        /// violation).
        target: usize,
        /// Under a memory property: the violation the run reached.
        violation: Option<interp::Violation>,
    },
    /// No answer, and why.
    Unknown(Reason),
}

/// A program verified: what was read and translated, and the verdict.
pub struct Verified {
    /// The resolved program; `None` only after a shape proof of a program the clauses do
    /// not model even under unreach-call (`__builtin_offsetof`, say).
    pub program: Option<Program>,
    /// Its clauses and what ties them to the source (for threads created in a loop: the
    /// rely-guarantee system whose model answered, else the one with the ghosts).
    pub translation: Translation,
    /// The answer.
    pub verdict: Verdict,
    /// Who answered: [`TESTING`] when a concrete run reached the error, else the engine as
    /// [`driver::Solved::engine`] names it (under `Auto`, the portfolio member that answered).
    pub engine: &'static str,
    /// The engine's counters (empty when the concrete runs answered).
    pub engine_stats: Stats,
    /// Time per phase.
    pub times: VerifyTimes,
    /// For a concurrent program (whose `program` is the interleaving product): the
    /// scheduler's nondet site and, after `unsafe`, the steps of the schedule replayed.
    pub schedule: Option<Schedule>,
    /// What the shape engine ([`SHAPE`]) said, when it ran: after its `safe`, the verdict's
    /// model is empty and the proof is its checked fixpoint at the loop heads.
    pub shape: Option<shape::Outcome>,
    /// What became of the `--hints` (`None` without hints, or when no clauses were solved);
    /// `unread` counts the loop hints that did not read over their head's arguments.
    pub hints: Option<HintStats>,
}

/// The schedule of a concurrent program's counterexample.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The product's nondet site whose values are the threads' turns.
    pub site: usize,
    /// The steps replayed on the concurrent program (empty unless the verdict is unsafe).
    pub steps: Vec<Step>,
}

/// The name [`Verified::engine`] gives the concrete runs made before solving.
pub const TESTING: &str = "testing";

/// The name [`Verified::engine`] gives the shape engine ([`shape`]).
pub const SHAPE: &str = "shape";

/// Milliseconds spent per phase of [`verify`].
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct VerifyTimes {
    /// Preprocessing and parsing the source, once: every later phase takes the parsed unit.
    pub read: u64,
    /// Resolving and translating the program.
    pub load: u64,
    /// The concrete runs.
    pub test: u64,
    /// Solving the clauses, validating the answer and replaying a counterexample.
    pub solve: u64,
}

/// Verifies the C program `src` (terms in `store`). A program outside the subset is an
/// error with a span; every other outcome is a [`Verdict`].
pub fn verify(store: &TermStore, src: &str, options: &VerifyOptions) -> Result<Verified, CError> {
    let started = Instant::now();
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    // Read once: every step below takes this unit (or the program resolved from it).
    let unit = Unit::parse(src)?;
    let read_ms = ms(started.elapsed());
    let read = match super::resolve_unit(&unit, options.data_model, options.checks) {
        Ok(read) => read,
        // Outside what the clauses model under a memory property (the address of a local of
        // a function, say): the shape engine reads the syntax tree itself.
        Err(e) if e.kind == CErrorKind::Unsupported && !options.checks.error_calls => {
            return shape_alone(&unit, options, (started, read_ms), e);
        }
        Err(e) => return Err(e),
    };
    // The shape engine first: a proof needs neither the clauses nor the concrete runs.
    let shape_outcome = if threads::is_concurrent(&read) {
        None
    } else {
        let heap = !read.heap.sites.is_empty();
        shape_engine(&unit, heap, options, started)
    };
    if let Some(shape::Outcome::Safe(_)) = shape_outcome {
        return Ok(shape_safe(Some(read), shape_outcome, (started, read_ms)));
    }
    let lowered = lower(store, read, &options.encode)?;
    let unbounded = lowered.unbounded();
    let Lowered {
        program,
        conc,
        mut translation,
        plain,
    } = lowered;
    let mut times = VerifyTimes {
        read: read_ms,
        load: ms(started.elapsed()).saturating_sub(read_ms),
        ..VerifyTimes::default()
    };
    let line_of = |off: usize| unit.line_of(off);
    let mut hint_stats = None;
    let tested = Instant::now();
    let found = test(&program, conc.as_ref(), options, &line_of);
    times.test = ms(tested.elapsed());
    let (verdict, engine, engine_stats) = match found {
        Some(v) => (v, TESTING, Stats::default()),
        None if unbounded => {
            let solving = Instant::now();
            let left = options.timeout.map(|t| t.saturating_sub(started.elapsed()));
            let plain = plain.unwrap_or_else(|| unreachable!("two systems"));
            let (verdict, engine, stats, plain_answered) =
                solve_rely(store, &translation, &plain, options, left);
            times.solve = ms(solving.elapsed());
            if plain_answered {
                // The invariants to print are the plain system's.
                translation = plain;
            }
            match verdict {
                Verdict::Safe(_) if memtrack_unproved(&program) => {
                    (Verdict::Unknown(memtrack_reason()), engine, stats)
                }
                v => (v, engine, stats),
            }
        }
        None => {
            let solving = Instant::now();
            let left = options.timeout.map(|t| t.saturating_sub(started.elapsed()));
            let solved = solve(
                store,
                (&unit, &program),
                conc.as_ref(),
                &translation,
                options,
                left,
                &line_of,
                &mut hint_stats,
            );
            times.solve = ms(solving.elapsed());
            solved
        }
    };
    let schedule = conc.map(|t| {
        let steps = match &verdict {
            Verdict::Unsafe { values, .. } => schedule_run(&t, values, &line_of).steps,
            _ => vec![],
        };
        Schedule {
            site: t.site,
            steps,
        }
    });
    Ok(Verified {
        program: Some(program),
        translation,
        verdict,
        engine,
        engine_stats,
        times,
        schedule,
        shape: shape_outcome,
        hints: hint_stats,
    })
}

/// Replays a counterexample of the product on the concurrent program itself, under the
/// schedule its scheduler-site values give.
fn schedule_run(
    t: &Threads,
    values: &[NondetValue],
    line_of: &dyn Fn(usize) -> usize,
) -> sched::Scheduled {
    let (turns, rest): (Vec<&NondetValue>, Vec<&NondetValue>) = values
        .iter()
        .partition(|v| v.site == t.site && v.element.is_none());
    let turns: Vec<_> = turns.into_iter().map(|v| v.value.clone()).collect();
    let rest: Vec<NondetValue> = rest.into_iter().cloned().collect();
    sched::run_schedule(
        &t.program,
        &turns,
        &rest,
        interp::Budget::default(),
        line_of,
    )
}

/// Whether a counterexample that reaches the error in the product also does on the
/// concurrent program under its schedule (always, for a sequential program); else why not.
fn confirmed(
    conc: Option<&Threads>,
    values: &[NondetValue],
    line_of: &dyn Fn(usize) -> usize,
) -> Result<(), String> {
    let Some(t) = conc else {
        return Ok(());
    };
    let run = schedule_run(t, values, line_of);
    match run.finished.outcome {
        interp::Outcome::Error => Ok(()),
        interp::Outcome::Stuck(why)
        | interp::Outcome::NoError(why)
        | interp::Outcome::Gap(why)
        | interp::Outcome::Undefined(why) => Err(why),
    }
}

/// The concrete runs: `Some(Unsafe)` when one reaches the error (and its replay does too).
fn test(
    program: &Program,
    conc: Option<&Threads>,
    options: &VerifyOptions,
    line_of: &dyn Fn(usize) -> usize,
) -> Option<Verdict> {
    if !options.testing {
        return None;
    }
    let share = options
        .timeout
        .map_or(3.0, |t| (t.as_secs_f64() * 0.2).min(3.0));
    let until = Instant::now() + Duration::from_secs_f64(share);
    let found = match conc {
        Some(t) => explore::search_threads(&t.program, t.site, 256, until, line_of)?,
        None => explore::search(program, 64, until, line_of)?,
    };
    let values = match found {
        explore::Found::Error(values) => values,
        // The clauses were built on these points-to sets: no answer from them either.
        explore::Found::Gap(why) => {
            return Some(Verdict::Unknown(Reason::WitnessFailed(format!(
                "a concrete run found a bug of the front end ({why})"
            ))))
        }
    };
    if let Some(t) = conc.filter(|t| t.program.unbounded.is_some()) {
        // No product to replay on: the scheduler's own replay is the check.
        let run = schedule_run(t, &values, line_of).finished;
        return (run.outcome == interp::Outcome::Error).then(|| unsafe_verdict(values, run));
    }
    let run = replay(program, &values, line_of);
    let real = run.outcome == interp::Outcome::Error && confirmed(conc, &values, line_of).is_ok();
    real.then(|| unsafe_verdict(values, run))
}

/// The verdict of a run that reached the error.
fn unsafe_verdict(values: Vec<NondetValue>, run: interp::Finished) -> Verdict {
    let target = match &run.violation {
        Some(v) => v.at,
        None => run.error_at.map_or(0, |s| s.start),
    };
    Verdict::Unsafe {
        values,
        target,
        violation: run.violation,
    }
}

/// Solves the clauses and reads the answer back: the verdict, the engine that answered and its
/// counters.
#[allow(clippy::too_many_arguments)]
fn solve(
    store: &TermStore,
    (unit, program): (&Unit<'_>, &Program),
    conc: Option<&Threads>,
    tr: &Translation,
    options: &VerifyOptions,
    timeout: Option<Duration>,
    line_of: &dyn Fn(usize) -> usize,
    hint_stats: &mut Option<HintStats>,
) -> (Verdict, &'static str, Stats) {
    // The interleaving product is one loop head over every thread's counters and variables:
    // measured on the SV-COMP pthread sample, PDR alone answers all the portfolio answers, in
    // about half the time (the portfolio's first phases, tuned on sequential programs, find
    // nothing there). Before it, the explicit states: most of those products have finitely
    // many, and where they do the exploration decides them in well under a second, or in
    // seconds where the invariant is not linear (threads counting to a bound); it gives up at
    // once where an input is nondeterministic.
    let engine = match (&options.engine, conc) {
        (Selection::Auto, Some(_)) => {
            Selection::Engines(vec![EngineKind::Explore.into(), EngineKind::Pdr.into()])
        }
        (e, _) => e.clone(),
    };
    // A rule file that no longer evaluates (it was checked on the program as read) gives no
    // hints: they are advice. The product of a concurrent program has other locations than
    // the program the rules were written for: no hints there.
    let mut unread = 0;
    let hints = options
        .hints
        .as_ref()
        .filter(|_| conc.is_none())
        .and_then(|rules| {
            let rows = super::hints::rows(program, &unit.lines, rules).ok()?;
            let (model, left_out) = super::hints::model(store, tr, &rows);
            unread = left_out as u64;
            Some(Hints::new(store, &model))
        });
    let solve_options = SolveOptions {
        engine,
        deterministic: options.deterministic,
        threads: options.threads,
        timeout,
        validation_limit: options.validation_limit,
        forge: options.forge,
        hints,
        ..SolveOptions::default()
    };
    let solved = driver::solve(store, &tr.system, &solve_options);
    *hint_stats = solved.hints.map(|h| HintStats { unread, ..h });
    let verdict = read_back(program, conc, tr, store, solved.answer, line_of);
    (verdict, solved.engine, solved.stats)
}

/// Solves the rely-guarantee clauses of a program that creates threads in a loop: first the
/// system with the last-writer ghosts (half the time left, less if it finds a derivation),
/// then the one without them (smaller: measured on the pthread sample, each proves tasks the
/// other does not in time). A model is a thread-modular proof for any number of threads; a
/// derivation is no counterexample (the abstraction forgets how many threads there are and
/// where each is), so it is `unknown`. The flag says whether the second (plain) system
/// answered.
fn solve_rely(
    store: &TermStore,
    ghosts: &Translation,
    plain: &Translation,
    options: &VerifyOptions,
    timeout: Option<Duration>,
) -> (Verdict, &'static str, Stats, bool) {
    let engine = match &options.engine {
        Selection::Auto => Selection::only(EngineKind::Pdr),
        e => e.clone(),
    };
    let started = Instant::now();
    let run = |tr: &Translation, timeout: Option<Duration>| {
        let solve_options = SolveOptions {
            engine: engine.clone(),
            deterministic: options.deterministic,
            threads: options.threads,
            timeout,
            validation_limit: options.validation_limit,
            forge: options.forge,
            ..SolveOptions::default()
        };
        driver::solve(store, &tr.system, &solve_options)
    };
    let first = run(ghosts, timeout.map(|t| t / 2));
    if let Answer::Sat(model) = first.answer {
        return (Verdict::Safe(model), first.engine, first.stats, false);
    }
    let left = timeout.map(|t| t.saturating_sub(started.elapsed()));
    let second = run(plain, left);
    let verdict = match second.answer {
        Answer::Sat(model) => return (Verdict::Safe(model), second.engine, second.stats, true),
        Answer::Unknown(reason) => Verdict::Unknown(reason),
        Answer::Unsat(_) => Verdict::Unknown(Reason::GaveUp(
            "threads created in a loop: the schedules run found no error, and the \
             thread-modular (rely-guarantee) proof is too weak: its clauses have a \
             derivation, which is no counterexample of the program (only a schedule of the \
             threads shows an error)"
                .to_owned(),
        )),
    };
    (verdict, second.engine, second.stats, false)
}

/// The verdict of the clauses' answer: a model proves the program safe, a derivation must
/// replay concretely to the error.
fn read_back(
    program: &Program,
    conc: Option<&Threads>,
    tr: &Translation,
    store: &TermStore,
    answer: Answer,
    line_of: &dyn Fn(usize) -> usize,
) -> Verdict {
    match answer {
        Answer::Sat(_) if memtrack_unproved(program) => Verdict::Unknown(memtrack_reason()),
        Answer::Sat(model) => Verdict::Safe(model),
        Answer::Unknown(reason) => Verdict::Unknown(reason),
        Answer::Unsat(d) => {
            let values = trace::extract(store, tr, &d);
            let run = replay(program, &values, line_of);
            match run.outcome {
                interp::Outcome::Error => match confirmed(conc, &values, line_of) {
                    Ok(()) => unsafe_verdict(values, run),
                    // The product reaches the error and the threads under its schedule do
                    // not: a bug of the product.
                    Err(why) => Verdict::Unknown(Reason::WitnessFailed(format!(
                        "the counterexample's schedule does not replay on the threads ({why})"
                    ))),
                },
                interp::Outcome::Stuck(why) => Verdict::Unknown(Reason::GaveUp(format!(
                    "the counterexample of the clauses does not replay on the program ({why})"
                ))),
                // An invalid dereference the property leaves undecided (unreach-call).
                interp::Outcome::Undefined(why) => Verdict::Unknown(Reason::GaveUp(format!(
                    "the counterexample of the clauses ends in {why}: the property is not \
                     decided on such an execution"
                ))),
                interp::Outcome::Gap(why) => Verdict::Unknown(Reason::WitnessFailed(format!(
                    "the replay of the counterexample found a bug of the front end ({why})"
                ))),
                // The run ended without the error: the clauses' counterexample is spurious.
                // With an exact translation that is a bug of the encoding.
                interp::Outcome::NoError(why) if tr.approximate => {
                    Verdict::Unknown(Reason::GaveUp(format!(
                        "the counterexample of the clauses does not replay on the program \
                         ({why}); the translation over-approximates bitwise operations"
                    )))
                }
                interp::Outcome::NoError(why) => Verdict::Unknown(Reason::WitnessFailed(format!(
                    "the counterexample of the clauses does not replay on the program ({why})"
                ))),
            }
        }
    }
}

/// Runs the program concretely with `values` as its nondet values (others are zero).
pub fn replay(
    program: &Program,
    values: &[NondetValue],
    line_of: &dyn Fn(usize) -> usize,
) -> interp::Finished {
    let mut zeros = interp::Zeros;
    interp::run_given(
        program,
        values,
        &mut zeros,
        interp::Budget::default(),
        line_of,
    )
}

/// Why a proof of the clauses leaves valid-memtrack open ([`memtrack_unproved`]).
fn memtrack_reason() -> Reason {
    Reason::GaveUp(
        "the clauses prove that no block is left allocated at any end of the program, which \
         implies valid-memtrack only for programs that always terminate: this one has loops \
         or recursion"
            .to_owned(),
    )
}

/// Whether a proof of the clauses leaves valid-memtrack open: the leak checks only look at the
/// ends of executions, so a block lost in an execution that never ends escapes them; without
/// loops and recursion every execution ends.
fn memtrack_unproved(program: &Program) -> bool {
    let checks = program.heap.checks;
    if !checks.leaks || checks.cleanup || program.heap.live.is_none() {
        return false;
    }
    let loops = program.functions.iter().any(|f| f.cfa.has_cycle());
    loops || super::cfa::has_cycle(&program.callees())
}
