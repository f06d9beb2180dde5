//! The portfolio on several threads: each thread runs a part of the schedule (a [`Portfolio`]
//! with some [`Phases`]) on its own copy of the system, in its own term store and its own Z3
//! context; the first definite answer wins, and the other threads are stopped at once (their
//! cancellation flag, and an interrupt of the Z3 check they are in). No thread outlives the
//! call.
//!
//! Duty: move the system to the threads and the answers back (`term::transfer`), stop the
//! losers, record each thread's phases. Must not: run an engine itself, or let an answer out
//! unchecked (each part validates its own answers as the sequential portfolio does, and the
//! driver validates the winner against the original system).

use super::portfolio::{Phases, Portfolio};
use super::{Context, Stats};
use crate::chc::System;
use crate::clock::Cancel;
use crate::smt::Interrupt;
use crate::term::{TermStore, VarMap};
use crate::witness::{Answer, ExportedDerivation, ExportedModel, Reason};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the first part runs alone before the others start (unless it ends first).
const STAGGER: Duration = Duration::from_millis(100);

/// The schedule split in two, one part per thread: the invariant engines (slicing, the
/// samples, CEGAR seeded with both, with all the time CEGAR takes) beside the refutation side
/// (BMC, PDR, BMC again). What a part needs of the other's results it does not get (PDR runs
/// without the candidates the sequential schedule hands it).
pub fn two_threads(base: &Portfolio) -> Vec<Portfolio> {
    let invariants = Portfolio {
        phases: Phases {
            slicing: true,
            samples: true,
            bmc: false,
            cegar: true,
            pdr: false,
        },
        cegar_share: 1.0,
        ..base.clone()
    };
    let refutation = Portfolio {
        phases: Phases {
            slicing: false,
            samples: false,
            bmc: true,
            cegar: false,
            pdr: true,
        },
        ..base.clone()
    };
    vec![invariants, refutation]
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

/// Runs `parts` on one thread each (see the module header); returns the engine that
/// answered (`"portfolio"` for `unknown`) and the answer, in the caller's store.
pub fn run(
    parts: &[Portfolio],
    cx: &Context<'_>,
    system: &System,
    stats: &mut Stats,
) -> (&'static str, Answer) {
    let exported = system.export(cx.store);
    let stop = Cancel::new();
    let (tx, rx) = mpsc::channel::<Message>();
    let mut winner: Option<(&'static str, Answer)> = None;
    let mut reasons = Vec::new();
    let mut threads = vec![serde_json::json!({ "started": false }); parts.len()];
    std::thread::scope(|scope| {
        let deadline = cx.deadline;
        let spawn = |i: usize, tx: mpsc::Sender<Message>| {
            let (part, exported, stop) = (&parts[i], &exported, stop.clone());
            // Deep terms recurse: the same stack as the command line's worker.
            std::thread::Builder::new()
                .name(format!("portfolio-{i}"))
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
                            let wcx = Context {
                                store: &store,
                                deadline,
                                cancel: stop,
                            };
                            let (engine, answer) = part.run(&wcx, &copy, &mut sub);
                            let outcome = match answer {
                                Answer::Sat(m) => Outcome::Sat(m.export(&store)),
                                Answer::Unsat(d) => Outcome::Unsat(d.export(&store), vars),
                                Answer::Unknown(r) => Outcome::Unknown(r),
                            };
                            (engine, outcome)
                        }
                    };
                    let _ = tx.send(Message::Done(i, engine, Box::new(outcome), sub));
                })
                .map(|_| ())
        };
        let mut interrupts: Vec<Interrupt> = Vec::new();
        let stop_all = |interrupts: &[Interrupt]| {
            stop.cancel();
            for h in interrupts {
                h.interrupt();
            }
        };
        // The first part starts now; the others after STAGGER, or as soon as the first ends
        // without an answer: most small systems are answered before a second thread would
        // have paid for itself.
        let started = Instant::now();
        let mut sender = Some(tx);
        let mut pending: Vec<usize> = (0..parts.len()).collect();
        let start_pending = |pending: &mut Vec<usize>,
                             sender: &mut Option<mpsc::Sender<Message>>,
                             reasons: &mut Vec<Reason>,
                             threads: &mut Vec<serde_json::Value>| {
            if let Some(tx) = sender.as_ref() {
                for i in pending.drain(..) {
                    match spawn(i, tx.clone()) {
                        Ok(()) => threads[i] = serde_json::json!({ "started": true }),
                        Err(e) => {
                            reasons.push(Reason::Limit(format!("cannot start a thread: {e}")))
                        }
                    }
                }
            }
            pending.clear();
            *sender = None; // every part started: the channel ends with the last thread
        };
        // The first part alone (a clone of the sender: the others are still to start).
        let mut first: Vec<usize> = pending.drain(..pending.len().min(1)).collect();
        let mut first_sender = sender.clone();
        start_pending(&mut first, &mut first_sender, &mut reasons, &mut threads);
        loop {
            let message = if pending.is_empty() {
                sender = None;
                match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            } else {
                let wait = STAGGER.saturating_sub(started.elapsed());
                match rx.recv_timeout(wait) {
                    Ok(m) => m,
                    Err(_) => {
                        if winner.is_none() {
                            start_pending(&mut pending, &mut sender, &mut reasons, &mut threads);
                        }
                        pending.clear();
                        sender = None;
                        continue;
                    }
                }
            };
            match message {
                Message::Started(h) => {
                    if stop.is_cancelled() {
                        h.interrupt();
                    }
                    interrupts.push(h);
                }
                Message::Done(i, engine, outcome, sub) => {
                    threads[i] =
                        serde_json::json!({ "started": true, "engine": engine, "stats": sub });
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
                        Ok(Answer::Unknown(r)) => {
                            reasons.push(r);
                            // The first part gave up early: start the others now.
                            start_pending(&mut pending, &mut sender, &mut reasons, &mut threads);
                        }
                        Ok(a) => {
                            winner = Some((engine, a));
                            pending.clear();
                            sender = None;
                            stop_all(&interrupts);
                        }
                        Err(e) => reasons.push(Reason::WitnessFailed(format!(
                            "moving the answer back: {e}"
                        ))),
                    }
                }
            }
            // The caller gave up: stop every thread.
            if cx.cancel.is_cancelled() {
                stop_all(&interrupts);
            }
        }
    });
    stats.set("threads", threads);
    winner.unwrap_or(("portfolio", Answer::Unknown(Reason::Phases(reasons))))
}
