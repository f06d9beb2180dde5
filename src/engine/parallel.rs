//! The portfolio on several threads: each thread runs a part of the schedule (a [`Portfolio`] of
//! the entries marked for it); the first part runs on the calling thread, on the system itself,
//! each other part on its own thread, on its own copy of the system in its own term store and its
//! own Z3 context. The first definite answer wins, and the other parts are stopped at once (their
//! cancellation flag, read through their deadline, and an interrupt of the Z3 check they are in).
//! No thread outlives the call.
//!
//! Duty: move the system to the threads and the answers back (`term::transfer`), stop the
//! losers, record each thread's phases. Must not: run an engine itself, or let an answer out
//! unchecked (each part validates its own answers as the sequential portfolio does, and the
//! driver validates the winner against the original system).

use super::portfolio::Portfolio;
use super::stats::ThreadRecord;
use super::{Context, Stats};
use crate::chc::System;
use crate::clock::Cancel;
use crate::smt::Interrupt;
use crate::term::{TermStore, VarMap};
use crate::witness::{Answer, ExportedDerivation, ExportedModel, Reason};
use std::sync::mpsc;

/// The schedule split over `threads` threads by its entries'
/// [`thread`](super::schedule::Entry::thread) (two parts for the default schedule: BMC's probe
/// and slice, PDR and BMC again, beside slicing, PDR's probe, the samples and CEGAR seeded with
/// what they found; over the reals PDR starts at once, beside the BMC pass). What a part needs of the other's results it does not get
/// (the long PDR runs without the candidates the sequential schedule hands it); the last entry
/// of each part gets all the time left.
pub fn parts(base: &Portfolio, threads: usize) -> Vec<Portfolio> {
    let n = threads.clamp(1, 2);
    (0..n)
        .map(|t| Portfolio::new(base.schedule.part(t, n)))
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

enum Message {
    /// A thread started; the handle interrupts its Z3 checks.
    Started(Interrupt),
    /// A thread ended: its index, the engine that answered, its answer and its stats.
    Done(usize, &'static str, Box<Outcome>, Stats),
}

/// Runs `parts` on one thread each, the first on the calling thread (see the module header);
/// returns the engine that answered (`"portfolio"` for `unknown`) and the answer, in the
/// caller's store.
pub fn run(
    parts: &[Portfolio],
    cx: &Context<'_>,
    system: &System,
    stats: &mut Stats,
) -> (&'static str, Answer) {
    let Some((first, others)) = parts.split_first() else {
        return ("portfolio", Answer::Unknown(Reason::Phases(Vec::new())));
    };
    // Set when a part answers; a child of the caller's flag, so that the caller's stops the
    // parts too.
    let stop = cx.deadline.cancel().map_or_else(Cancel::new, Cancel::child);
    let deadline = cx.deadline.with_cancel(stop.clone());
    let exported = system.export(cx.store);
    // The other threads stop the calling thread's checks when they answer.
    let (caller, _registered) = Interrupt::here();
    let (tx, rx) = mpsc::channel::<Message>();
    let mut winner: Option<(&'static str, Answer)> = None;
    let mut reasons = Vec::new();
    let mut threads: Vec<Option<ThreadRecord>> = vec![None; parts.len()];
    std::thread::scope(|scope| {
        for (k, part) in others.iter().enumerate() {
            let (tx, exported, caller) = (tx.clone(), &exported, caller.clone());
            let (deadline, stop) = (deadline.clone(), stop.clone());
            // Deep terms recurse: the same stack as the command line's worker.
            let spawned = std::thread::Builder::new()
                .name(format!("portfolio-{}", k + 1))
                .stack_size(512 << 20)
                .spawn_scoped(scope, move || {
                    let (interrupt, _registered) = Interrupt::here();
                    let _ = tx.send(Message::Started(interrupt));
                    let store = TermStore::new();
                    let mut sub = Stats::default();
                    let (engine, outcome) = match exported.import(&store) {
                        Err(e) => (
                            "portfolio",
                            Outcome::Unknown(Reason::GaveUp(format!("moving the system: {e}"))),
                        ),
                        Ok((copy, vars)) => {
                            let wcx = Context::new(&store, deadline);
                            let (engine, answer) = part.run(&wcx, &copy, &mut sub);
                            let outcome = match answer {
                                Answer::Sat(m) => Outcome::Sat(m.export(&store)),
                                Answer::Unsat(d) => Outcome::Unsat(d.export(&store), vars),
                                Answer::Unknown(r) => Outcome::Unknown(r),
                            };
                            (engine, outcome)
                        }
                    };
                    // A definite answer stops the calling thread at once: it reads no
                    // messages while it runs its own part.
                    if !matches!(outcome, Outcome::Unknown(_)) {
                        stop.cancel();
                        caller.interrupt();
                    }
                    let _ = tx.send(Message::Done(k + 1, engine, Box::new(outcome), sub));
                });
            if let Err(e) = spawned {
                reasons.push(Reason::Resource(format!("cannot start a thread: {e}")));
            }
        }
        drop(tx);
        // The first part runs here, on the caller's own system and store: nothing to move,
        // and the Z3 context it starts is the one the caller checks the answer with.
        let mut sub = Stats::default();
        let (engine, answer) =
            first.run(&Context::new(cx.store, deadline.clone()), system, &mut sub);
        threads[0] = Some(ThreadRecord { engine, stats: sub });
        match answer {
            Answer::Unknown(r) => reasons.push(r),
            a => {
                winner = Some((engine, a));
                stop.cancel();
            }
        }
        let mut interrupts = Vec::new();
        let stop_all = |interrupts: &[Interrupt]| {
            stop.cancel();
            for h in interrupts {
                h.interrupt();
            }
        };
        if winner.is_some() {
            stop_all(&interrupts);
        }
        for message in rx {
            match message {
                Message::Started(h) => {
                    if stop.is_cancelled() {
                        h.interrupt();
                    }
                    interrupts.push(h);
                }
                Message::Done(i, engine, outcome, sub) => {
                    threads[i] = Some(ThreadRecord { engine, stats: sub });
                    if winner.is_some() {
                        continue;
                    }
                    let answer = match *outcome {
                        Outcome::Sat(m) => m.import(cx.store).map(|(m, _)| Answer::Sat(m)),
                        Outcome::Unsat(d, vars) => d
                            .import(cx.store, &vars.inverse())
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
            if cx.deadline.is_cancelled() {
                stop_all(&interrupts);
            }
        }
    });
    stats.portfolio().threads = Some(threads);
    winner.unwrap_or(("portfolio", Answer::Unknown(Reason::Phases(reasons))))
}
