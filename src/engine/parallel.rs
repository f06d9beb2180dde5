//! The portfolio on several threads: each thread runs a part of the schedule (a [`Portfolio`] of
//! the entries marked for it) on its own copy of the system, in its own term store and its own Z3
//! context; the first definite answer wins, and the other threads are stopped at once (their
//! cancellation flag, read through their deadline, and an interrupt of the Z3 check they are
//! in). No thread outlives the call.
//!
//! Each thread does the whole of its solve (the driver's `work`: preprocessing its copy, its
//! part of the schedule, back-translation and validation against the copy of the original
//! system), so an answer arrives checked and the calling thread makes no Z3 context: one costs
//! 10-20 ms of a core on this machine, and the thread that found the answer has its context
//! warm (with one validation solver per model, the `sat` median over the public files answered
//! within 1.5 s went from 0.155 to 0.133 s against validation in the caller; BENCHMARKS.md,
//! session 24). A thread whose witness fails its check answers `unknown` with that reason,
//! and the other threads go on.
//!
//! The calling thread runs no part. (Tried: the first part on the calling thread, interrupted
//! when the other answered, saves a thread start and a Z3 context, 10-15 ms on small files;
//! the caller's validation then rejected a correct model in 3 of 30 runs of
//! `tests/data/sat/term_head_args.smt2`, reported as a witness failure: a context that was
//! interrupted is not trusted with a check. A thread here checks its answer before any
//! interrupt, which only comes once another thread has won.)
//!
//! Duty: move the system to the threads and the answers back (`term::transfer`), stop the
//! losers, record each thread's phases. Must not: run an engine itself, or let an answer out
//! that its thread did not check.

use super::portfolio::{Board, Portfolio};
use super::stats::ThreadRecord;
use super::Stats;
use crate::chc::System;
use crate::clock::{Cancel, Deadline};
use crate::smt::Interrupt;
use crate::term::{TermStore, VarMap};
use crate::witness::{Answer, ExportedDerivation, ExportedModel, Reason};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Waits `d`, or less when `deadline` is cancelled or passes first (polled every
/// millisecond: a winner's answer waits for every thread to end).
fn wait(d: Duration, deadline: &Deadline) {
    let until = Instant::now() + d;
    while Instant::now() < until && !deadline.is_cancelled() && !deadline.expired() {
        std::thread::sleep(
            Duration::from_millis(1).min(until.saturating_duration_since(Instant::now())),
        );
    }
}

/// Gives the calling thread the lowest scheduling priority (Linux: nice 19 for this thread
/// alone), so that a part beyond the machine's cores only takes the time the first parts
/// leave. Elsewhere, or when the system refuses, the thread keeps its priority.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` has no preconditions; `setpriority` on this thread's id changes only
    // its own niceness, and a failure is only a return value, ignored.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

/// The schedule split over `threads` threads by its entries'
/// [`thread`](super::schedule::Entry::thread) (two parts for the default schedule: BMC's slice
/// (without the probe that starts the sequential schedule), PDR and BMC again, beside a quick
/// PDR try (an entry only parts run), slicing,
/// PDR's probe, the samples and CEGAR seeded with
/// what they found; over the reals PDR starts at once, beside the BMC pass; threads 2 and
/// above run other configurations, see `schedule::wide`). There are at most
/// [`Schedule::width`](super::schedule::Schedule::width) parts: more threads would have
/// nothing of their own to do. The parts share a
/// [`Board`]: the candidates slicing and the samples leave over the unsplit system seed a later
/// seeded entry of the other part (the long PDR run) that found none of its own, as in the
/// sequential schedule. The last entry of each part gets all the time left. A part beyond
/// the machine's `cores` starts after the schedule's `oversubscribed_start`, at the lowest
/// priority, so that it takes no core from the first parts: it only uses the time they leave.
pub fn parts(base: &Portfolio, threads: usize, cores: usize) -> Vec<Portfolio> {
    let n = threads.clamp(1, base.schedule.width().max(1));
    let board = Board::default();
    (0..n)
        .map(|t| Portfolio {
            board: Some(board.clone()),
            // The first two parts run as they always did, even on one core.
            oversubscribed: t >= cores.max(2),
            ..Portfolio::new(base.schedule.part(t, n))
        })
        .filter(|p| !p.schedule.entries.is_empty())
        .collect()
}

/// A thread's answer, in a form that crosses threads.
enum Outcome {
    Sat(ExportedModel),
    /// The derivation and the map from the caller's variables to the thread's.
    Unsat(ExportedDerivation, VarMap),
    Unknown(Reason),
}

enum Message<R> {
    /// A thread started; the handle interrupts its Z3 checks.
    Started(Interrupt),
    /// A thread ended: its index, the engine that answered, its answer, its stats and what
    /// else its work reported.
    Done(usize, &'static str, Box<Outcome>, Stats, Option<R>),
}

/// Runs `work` for each of `parts` on one thread each (see the module header), on a copy of
/// `system` in the thread's own store, with `deadline` and a flag that stops the other threads
/// once one answers. `work` must check its answer against the copy it is given: an answer
/// other than `unknown` wins as it is. Returns the engine that answered (`"portfolio"` for
/// `unknown`), the answer in the caller's `store`, and what else the winner's work reported
/// (or, without a winner, the last thread's).
pub fn run<R: Send>(
    parts: &[Portfolio],
    store: &TermStore,
    system: &System,
    deadline: &Deadline,
    stats: &mut Stats,
    work: impl Fn(&Portfolio, &TermStore, &System, Deadline, &mut Stats) -> (&'static str, Answer, R)
        + Sync,
) -> (&'static str, Answer, Option<R>) {
    let exported = system.export(store);
    // Set when a thread answers; a child of the caller's flag, so that the caller's stops the
    // threads too.
    let stop = deadline.cancel().map_or_else(Cancel::new, Cancel::child);
    let (tx, rx) = mpsc::channel::<Message<R>>();
    let mut winner: Option<(&'static str, Answer)> = None;
    let mut report = None;
    let mut reasons = Vec::new();
    let mut threads: Vec<Option<ThreadRecord>> = vec![None; parts.len()];
    let work = &work;
    std::thread::scope(|scope| {
        for (i, part) in parts.iter().enumerate() {
            let (tx, exported) = (tx.clone(), &exported);
            let deadline = deadline.with_cancel(stop.clone());
            // Deep terms recurse: the same stack as the command line's worker.
            let spawned = std::thread::Builder::new()
                .name(format!("portfolio-{i}"))
                .stack_size(512 << 20)
                .spawn_scoped(scope, move || {
                    // Before the thread's Z3 context exists (10-20 ms of a core to make).
                    if part.oversubscribed {
                        lowest_priority();
                        wait(part.schedule.oversubscribed_start, &deadline);
                        // Stopped while it waited (another part answered, or the caller
                        // gave up): nothing to report but the stop.
                        if deadline.is_cancelled() {
                            let stopped = Outcome::Unknown(Reason::Timeout);
                            let _ = tx.send(Message::Done(
                                i,
                                "portfolio",
                                Box::new(stopped),
                                Stats::default(),
                                None,
                            ));
                            return;
                        }
                    }
                    let (interrupt, _registered) = Interrupt::here();
                    let _ = tx.send(Message::Started(interrupt));
                    let store = TermStore::new();
                    let mut sub = Stats::default();
                    let (engine, outcome, r) = match exported.import(&store) {
                        Err(e) => (
                            "portfolio",
                            Outcome::Unknown(Reason::GaveUp(format!("moving the system: {e}"))),
                            None,
                        ),
                        Ok((copy, vars)) => {
                            let (engine, answer, r) = work(part, &store, &copy, deadline, &mut sub);
                            let outcome = match answer {
                                Answer::Sat(m) => Outcome::Sat(m.export(&store)),
                                Answer::Unsat(d) => Outcome::Unsat(d.export(&store), vars),
                                Answer::Unknown(r) => Outcome::Unknown(r),
                            };
                            (engine, outcome, Some(r))
                        }
                    };
                    let _ = tx.send(Message::Done(i, engine, Box::new(outcome), sub, r));
                });
            if let Err(e) = spawned {
                reasons.push(Reason::Resource(format!("cannot start a thread: {e}")));
            }
        }
        drop(tx);
        let mut interrupts = Vec::new();
        let stop_all = |interrupts: &[Interrupt]| {
            stop.cancel();
            for h in interrupts {
                h.interrupt();
            }
        };
        for message in rx {
            match message {
                Message::Started(h) => {
                    if stop.is_cancelled() {
                        h.interrupt();
                    }
                    interrupts.push(h);
                }
                Message::Done(i, engine, outcome, sub, r) => {
                    threads[i] = Some(ThreadRecord { engine, stats: sub });
                    if winner.is_some() {
                        continue;
                    }
                    if r.is_some() {
                        report = r;
                    }
                    let answer = match *outcome {
                        Outcome::Sat(m) => m.import(store).map(|(m, _)| Answer::Sat(m)),
                        Outcome::Unsat(d, vars) => d
                            .import(store, &vars.inverse())
                            .map(|(d, _)| Answer::Unsat(d)),
                        Outcome::Unknown(r) => Ok(Answer::Unknown(r)),
                    };
                    match answer {
                        Ok(Answer::Unknown(r)) => reasons.push(r),
                        Ok(a) => {
                            winner = Some((engine, a));
                            stop_all(&interrupts);
                        }
                        Err(e) => reasons.push(Reason::WitnessFailed(format!(
                            "moving the answer back: {e}"
                        ))),
                    }
                }
            }
            // The caller gave up: stop every thread.
            if deadline.is_cancelled() {
                stop_all(&interrupts);
            }
        }
    });
    stats.portfolio().threads = Some(threads);
    let (engine, answer) =
        winner.unwrap_or(("portfolio", Answer::Unknown(Reason::Phases(reasons))));
    (engine, answer, report)
}
