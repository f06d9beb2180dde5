//! The scheduler: runs a concurrent program ([`Concurrent`]) itself, not its product, following
//! a schedule (the thread that makes each step, in order) and the nondet values of a
//! counterexample. A step of a thread runs from an interleaving point to the next one (the
//! threads module's points), with C's meaning of every operation and the threads' own: a
//! `lock` of a held mutex or a `join` of a running thread blocks, so a schedule that picks a
//! blocked thread, a thread not started or ended, or another thread inside an atomic section
//! is not an execution (the run is stuck, no verdict). So a counterexample of the product's
//! clauses only counts once this independent run reaches the error.
//!
//! Must not: use terms, clauses or a solver; read the product program.

use super::array::{self, ArrayVal};
use super::{Budget, Chooser, Finished, Machine, Outcome, Run, Zeros};
use crate::frontend::c::cfa::{LocId, LocKind, Op};
use crate::frontend::c::ir::ThreadOp;
use crate::frontend::c::threads::Concurrent;
use crate::frontend::c::trace::NondetValue;
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::collections::{HashMap, VecDeque};

/// Where a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    NotStarted,
    Running,
    Done,
}

struct Thread {
    func: usize,
    at: LocId,
    locals: Vec<BigInt>,
    arrays: HashMap<usize, ArrayVal>,
    status: Status,
}

/// One step of a schedule: the thread that ran and where its step began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The thread (0 is `main`).
    pub thread: usize,
    /// The function it runs.
    pub func: usize,
    /// Byte offset of the statement its step began with.
    pub at: usize,
}

/// A run under a schedule: how it ended and the steps made.
#[derive(Clone, Debug)]
pub struct Scheduled {
    /// The run.
    pub finished: Finished,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// With a scheduler site: the turns and nondet values in the product's order.
    pub values: Vec<NondetValue>,
}

/// Who runs next.
pub trait Scheduler {
    /// The thread to run next, given the threads that can (`None`: the run stops) and whether
    /// every thread has been created. A thread outside `runnable` (or no thread's number)
    /// makes the run stuck.
    fn pick(&mut self, runnable: &[usize], all_started: bool) -> Option<usize>;
}

/// A given schedule (a counterexample's): its turns in order.
struct Given<'a> {
    turns: &'a [BigInt],
    next: usize,
}

impl Scheduler for Given<'_> {
    fn pick(&mut self, _: &[usize], _: bool) -> Option<usize> {
        let t = self.turns.get(self.next)?;
        self.next += 1;
        Some(t.to_usize().unwrap_or(usize::MAX))
    }
}

/// Runs `c` under `schedule` (thread numbers) with `values` as the nondet values (per site in
/// order; others zero).
pub fn run_schedule(
    c: &Concurrent,
    schedule: &[BigInt],
    values: &[NondetValue],
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> Scheduled {
    let mut given = Given {
        turns: schedule,
        next: 0,
    };
    run_scheduled(c, &mut given, values, &mut Zeros, None, budget, line_of)
}

/// Runs `c` with `scheduler` picking the threads and the nondet values from `values` (per
/// site in order), then from `chooser`. With `site`, [`Scheduled::values`] lists each turn
/// as a value of that site before the values its step consumed: the counterexample of the
/// product whose scheduler draws its turns at `site`.
pub fn run_scheduled(
    c: &Concurrent,
    scheduler: &mut dyn Scheduler,
    values: &[NondetValue],
    chooser: &mut dyn Chooser,
    site: Option<usize>,
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> Scheduled {
    let p = &c.program;
    let (queues, elements) = array::split_values(values);
    let mut m = Machine::new(p, queues, elements, chooser, budget, line_of);
    // Without a fixed set, threads are made as they are created.
    let fixed = if c.unbounded.is_some() {
        &c.threads[..1]
    } else {
        &c.threads[..]
    };
    let mut threads: Vec<Thread> = fixed
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let f = &p.functions[t.func];
            Thread {
                func: t.func,
                at: f.cfa.entry,
                locals: vec![BigInt::zero(); f.locals.len()],
                arrays: HashMap::new(),
                status: if k == 0 {
                    Status::Running
                } else {
                    Status::NotStarted
                },
            }
        })
        .collect();
    let mut atomic: Option<usize> = None;
    let mut steps = vec![];
    let mut trace = vec![];
    let mut outcome = Outcome::NoError("the schedule ended before the error".to_owned());
    // Threads whose step failed an assumption at its first edge since the last step made: a
    // `__VERIFIER_assume` there (in an atomic function, the tasks' way to wait for a lock)
    // blocks the thread; the step is undone and another thread runs.
    let mut waiting: Vec<usize> = vec![];
    for i in 0.. {
        let runnable: Vec<usize> = (0..threads.len())
            .filter(|&k| !waiting.contains(&k) && can_run(&m, c, &threads, k, atomic))
            .collect();
        let all_started = threads.iter().all(|t| t.status != Status::NotStarted);
        // `main` about to return ends every thread: offered only when no other can run
        // (a given schedule may still pick it).
        let ends = |k: usize| {
            k == 0 && {
                let cfa = &p.functions[threads[0].func].cfa;
                cfa.out(threads[0].at)
                    .iter()
                    .any(|&e| matches!(cfa.edge(e).op, Op::Return(_)))
            }
        };
        let offered: Vec<usize> = runnable.iter().copied().filter(|&k| !ends(k)).collect();
        let offered = if offered.is_empty() {
            &runnable
        } else {
            &offered
        };
        let Some(k) = scheduler.pick(offered, all_started) else {
            break;
        };
        if !runnable.contains(&k) {
            outcome = Outcome::Stuck(format!(
                "step {i} of the schedule picks thread {k}, which cannot run"
            ));
            break;
        }
        let f = threads[k].func;
        let cfa = &p.functions[f].cfa;
        let at = threads[k].at;
        steps.push(Step {
            thread: k,
            func: f,
            at: cfa
                .out(at)
                .first()
                .map_or(cfa.loc(at).span.start, |&e| cfa.edge(e).span.start),
        });
        if let Some(site) = site {
            trace.push(NondetValue::scalar(site, BigInt::from(k)));
        }
        let before = m.consumed.len();
        let undo = Undo {
            globals: m.globals.clone(),
            global_arrays: m.global_arrays.clone(),
            instances: m.instances.clone(),
            nondet: m.nondet.clone(),
            locals: threads[k].locals.clone(),
            arrays: threads[k].arrays.clone(),
            threads: threads.len(),
            atomic,
            trace: trace.len(),
        };
        let arrays = std::mem::take(&mut threads[k].arrays);
        m.frames.push(arrays);
        let r = step(&mut m, c, &mut threads, k, &mut atomic);
        threads[k].arrays = m.frames.pop().unwrap_or_default();
        trace.extend(m.consumed[before..].iter().cloned());
        match r {
            Ok(()) => waiting.clear(),
            Err(Outcome::NoError(why)) if threads[k].at == at && why.starts_with("assumption") => {
                m.globals = undo.globals;
                m.global_arrays = undo.global_arrays;
                m.instances = undo.instances;
                m.nondet = undo.nondet;
                m.consumed.truncate(before);
                m.error_at = None;
                threads[k].locals = undo.locals;
                threads[k].arrays = undo.arrays;
                threads.truncate(undo.threads);
                atomic = undo.atomic;
                trace.truncate(undo.trace);
                steps.pop();
                waiting.push(k);
            }
            Err(o) => {
                outcome = o;
                break;
            }
        }
    }
    Scheduled {
        finished: m.finish(outcome),
        steps,
        values: trace,
    }
}

/// What a step that blocks at its first edge must leave as it found.
struct Undo {
    globals: Vec<BigInt>,
    global_arrays: HashMap<usize, ArrayVal>,
    instances: HashMap<usize, usize>,
    nondet: HashMap<usize, VecDeque<BigInt>>,
    locals: Vec<BigInt>,
    arrays: HashMap<usize, ArrayVal>,
    threads: usize,
    atomic: Option<usize>,
    trace: usize,
}

/// Whether thread `k` may make a step: started, not ended, not kept out by another thread's
/// atomic section, and not about to block (a lock of a held mutex, a join of a running thread).
fn can_run(
    m: &Machine<'_>,
    c: &Concurrent,
    threads: &[Thread],
    k: usize,
    atomic: Option<usize>,
) -> bool {
    let t = &threads[k];
    if t.status != Status::Running || atomic.is_some_and(|a| a != k) {
        return false;
    }
    let cfa = &c.program.functions[t.func].cfa;
    let [e] = *cfa.out(t.at) else {
        return true;
    };
    match &cfa.edge(e).op {
        Op::Thread(ThreadOp::Lock(mx)) => m.get(*mx, &t.locals).is_zero(),
        Op::Thread(ThreadOp::Join(h)) => m
            .get(*h, &t.locals)
            .to_usize()
            .is_some_and(|j| j >= 1 && j < threads.len() && threads[j].status == Status::Done),
        _ => true,
    }
}

/// Thread `k` runs from its interleaving point to the next one (or to its end).
fn step(
    m: &mut Machine<'_>,
    c: &Concurrent,
    threads: &mut Vec<Thread>,
    k: usize,
    atomic: &mut Option<usize>,
) -> Run<()> {
    let f = threads[k].func;
    let cfa = &c.program.functions[f].cfa;
    let line = |m: &Machine<'_>, off: usize| (m.line_of)(off);
    let mut first = true;
    loop {
        let at = threads[k].at;
        if !first && c.is_point(f, at) {
            return Ok(());
        }
        first = false;
        m.tick()?;
        let mut locals = std::mem::take(&mut threads[k].locals);
        let r = (|| -> Run<Option<LocId>> {
            match *cfa.out(at) {
                [] if at == cfa.error => Err(Outcome::Error),
                [] if at == cfa.exit && k > 0 => {
                    threads[k].status = Status::Done;
                    Ok(None)
                }
                [] => {
                    let what = match cfa.loc(at).kind {
                        LocKind::Abort => "abort",
                        LocKind::Exit => "main returned",
                        _ => "end of execution",
                    };
                    Err(Outcome::NoError(format!(
                        "{what} at line {}",
                        line(m, cfa.loc(at).span.start)
                    )))
                }
                [e] => {
                    let id = e;
                    let e = cfa.edge(e);
                    if e.to == cfa.error {
                        m.error_at = Some(e.span);
                    }
                    match &e.op {
                        Op::Skip => {}
                        Op::Expr(x) | Op::Return(Some(x)) => {
                            m.expr(f, x, &mut locals)?;
                        }
                        Op::Return(None) => {}
                        Op::Init(r, init) => {
                            let v = match init {
                                Some(x) => m.expr(f, x, &mut locals)?,
                                None => BigInt::zero(),
                            };
                            m.set(*r, v, &mut locals);
                        }
                        Op::Assume(x, holds) => {
                            if m.truth(f, x, &mut locals)? != *holds {
                                return Err(Outcome::NoError(format!(
                                    "assumption at line {} failed",
                                    line(m, e.span.start)
                                )));
                            }
                        }
                        Op::Thread(op) => {
                            let blocked = |what: &str| {
                                Outcome::Stuck(format!(
                                    "thread {k} blocks at line {} ({what})",
                                    line(m, e.span.start)
                                ))
                            };
                            match op {
                                ThreadOp::Create { handle, func } => {
                                    let g = &c.program.functions[*func];
                                    let j = if c.unbounded.is_some() {
                                        threads.push(Thread {
                                            func: *func,
                                            at: g.cfa.entry,
                                            locals: vec![BigInt::zero(); g.locals.len()],
                                            arrays: HashMap::new(),
                                            status: Status::NotStarted,
                                        });
                                        threads.len() - 1
                                    } else {
                                        match c.created_by(id) {
                                            Some(j) => j,
                                            None => return Err(blocked("an unknown creation")),
                                        }
                                    };
                                    m.set(*handle, BigInt::from(j), &mut locals);
                                    threads[j].at = g.cfa.entry;
                                    threads[j].status = Status::Running;
                                }
                                ThreadOp::Join(h) => {
                                    let v = m.get(*h, &locals);
                                    let ended = v.to_usize().is_some_and(|j| {
                                        j >= 1
                                            && j < threads.len()
                                            && threads[j].status == Status::Done
                                    });
                                    if !ended {
                                        return Err(blocked("join of a thread still running"));
                                    }
                                }
                                ThreadOp::Exit => {
                                    threads[k].status = Status::Done;
                                    return Ok(None);
                                }
                                ThreadOp::Lock(mx) => {
                                    if !m.get(*mx, &locals).is_zero() {
                                        return Err(blocked("lock of a held mutex"));
                                    }
                                    m.set(*mx, BigInt::from(1), &mut locals);
                                }
                                ThreadOp::AtomicBegin => *atomic = Some(k),
                                ThreadOp::AtomicEnd => *atomic = None,
                            }
                        }
                    }
                    Ok(Some(e.to))
                }
                [a, b] => {
                    let (a, b) = (cfa.edge(a), cfa.edge(b));
                    let Op::Assume(x, true) = &a.op else {
                        return Err(Outcome::Stuck("a branch without a condition".to_owned()));
                    };
                    Ok(Some(if m.truth(f, x, &mut locals)? {
                        a.to
                    } else {
                        b.to
                    }))
                }
                _ => Err(Outcome::Stuck("a location with three edges".to_owned())),
            }
        })();
        threads[k].locals = locals;
        match r? {
            Some(to) => threads[k].at = to,
            None => return Ok(()),
        }
    }
}
