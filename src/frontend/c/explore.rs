//! Concrete exploration: runs the program in the interpreter with chosen nondet values
//! (pseudo-random values mixing small numbers, type bounds and uniform picks; the second run
//! zeros) looking for an execution that reaches the error. Each run may take half the time
//! left, so one long run (loops over arrays of 10^5 elements) fits; a program that consumes no
//! nondet value is run once, and the search stops after a run its time cut short (the next
//! ones, through the same loops, would be cut short too). Whatever it finds is a real execution of the program
//! under C's semantics (the interpreter stops on undefined behaviour), so it is a sound way to
//! answer `unsafe`; it never answers `safe`. A run that shows the front end's points-to sets
//! incomplete ([`Outcome::Gap`]) is reported as such: the clauses cannot be trusted then.
//!
//! Must not: use terms, clauses or a solver.

use super::cfa::Op;
use super::interp::sched::{self, Scheduler};
use super::interp::{run_with, Budget, Chooser, Outcome};
use super::ir::{IExpr, IExprKind};
use super::program::Program;
use super::threads::Concurrent;
use super::trace::NondetValue;
use super::types::CType;
use num_bigint::BigInt;
use std::collections::HashMap;
use std::time::Instant;

/// What the runs found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A run reached the error: its nondet values in order.
    Error(Vec<NondetValue>),
    /// A run showed the points-to sets incomplete ([`Outcome::Gap`]): why.
    Gap(String),
}

/// A small deterministic generator (xorshift64*), so runs are reproducible.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Chooser for Random {
    fn choose(&mut self, _site: usize, ty: CType) -> BigInt {
        let r = self.next();
        let v = match r % 20 {
            0..=4 => BigInt::from(self.next() % 5),
            5..=9 => BigInt::from((self.next() % 33) as i64 - 16),
            10..=13 => {
                let choices = [
                    ty.min(),
                    ty.max(),
                    BigInt::from(0),
                    BigInt::from(1),
                    BigInt::from(-1),
                    ty.max() - 1,
                    ty.min() + 1,
                ];
                choices[(self.next() % choices.len() as u64) as usize].clone()
            }
            _ => {
                let span = ty.max() - ty.min() + 1;
                let raw = BigInt::from(self.next()) * BigInt::from(self.next());
                ty.min() + raw % span
            }
        };
        ty.convert(&v)
    }
}

/// The budget of the next run and its deadline (`None` once `until` has passed): each run may
/// take half the time left, so short runs leave the rest.
fn next_budget(until: Instant, steps: u64) -> Option<(Budget, Instant)> {
    let now = Instant::now();
    if now >= until {
        return None;
    }
    let deadline = now + until.saturating_duration_since(now) / 2;
    let budget = Budget {
        steps,
        depth: 5_000,
        nesting: super::interp::NESTING / 4,
        deadline: Some(deadline),
    };
    Some((budget, deadline))
}

/// Searches for an execution reaching the error (or showing a gap), until `until` or after
/// `runs` runs.
pub fn search(
    p: &Program,
    runs: usize,
    until: Instant,
    line_of: &dyn Fn(usize) -> usize,
) -> Option<Found> {
    for i in 0..runs {
        let Some((budget, deadline)) = next_budget(until, u64::MAX) else {
            break;
        };
        let (outcome, consumed) = if i == 1 {
            run_with(
                p,
                HashMap::new(),
                &mut super::interp::Zeros,
                budget,
                line_of,
            )
        } else {
            let mut rng = Random(0x9E37_79B9_7F4A_7C15 ^ (i as u64).wrapping_mul(0x1000_0000_01B3));
            run_with(p, HashMap::new(), &mut rng, budget, line_of)
        };
        match outcome {
            Outcome::Error => return Some(Found::Error(consumed)),
            Outcome::Gap(why) => return Some(Found::Gap(why)),
            Outcome::NoError(_) | Outcome::Stuck(_) | Outcome::Undefined(_) => {}
        }
        // A run that needs no nondet value is the only run there is; after a run that its
        // time cut short, the others would be cut short too (loops bounded by nondet values).
        if consumed.is_empty() || Instant::now() >= deadline {
            break;
        }
    }
    None
}

impl Scheduler for Random {
    fn pick(&mut self, runnable: &[usize], _: bool) -> Option<usize> {
        if runnable.is_empty() {
            return None;
        }
        Some(runnable[(self.next() % runnable.len() as u64) as usize])
    }
}

/// Round-robin among the threads that can run, in thread order from the last one picked; once
/// every thread has been created, the threads of `late` only run when no other can.
struct RoundRobin {
    late: Vec<bool>,
    last: usize,
    /// Where the round starts once every thread has been created (taken then).
    restart: Option<usize>,
}

impl Scheduler for RoundRobin {
    fn pick(&mut self, runnable: &[usize], all_started: bool) -> Option<usize> {
        if all_started {
            if let Some(r) = self.restart.take() {
                self.last = r;
            }
        }
        let early: Vec<usize> = runnable
            .iter()
            .copied()
            .filter(|&k| !all_started || !self.late.get(k).copied().unwrap_or(false))
            .collect();
        let pool = if early.is_empty() { runnable } else { &early };
        let next = pool
            .iter()
            .copied()
            .find(|&k| k > self.last)
            .or_else(|| pool.first().copied())?;
        self.last = next;
        Some(next)
    }
}

/// Like [`search`] for a concurrent program, run on the threads themselves; returns the values
/// of the product whose scheduler draws its turns at `site`. Three runs in a row use three
/// kinds of schedule, with random nondet values:
/// - a thread picked uniformly among those that can run, at each turn;
/// - round-robin, with a random set of threads held back until the others cannot run: strict
///   alternations that uniform picks almost never make;
/// - fixed priorities (`Priority`: every other time random ones, else the newest thread
///   first once `main` is done): each thread runs as long as no thread of higher priority can,
///   so one thread can see the effect of all the others, which neither of the first two kinds
///   makes likely once there are more than a few threads. Its nondet values are often the
///   constants the program compares with (`Dictionary`): a bound such as `20 <= n < 40`
///   on the number of threads is then met.
pub fn search_threads(
    c: &Concurrent,
    site: usize,
    runs: usize,
    until: Instant,
    line_of: &dyn Fn(usize) -> usize,
) -> Option<Found> {
    let constants = compared_constants(&c.program);
    for i in 0..runs {
        let Some((budget, _)) = next_budget(until, 1_000_000) else {
            break;
        };
        let mut turns = Random(0x2545_F491_4F6C_DD1D ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9));
        let mut values = Random(0x9E37_79B9_7F4A_7C15 ^ (i as u64).wrapping_mul(0x1000_0000_01B3));
        let mut robin = RoundRobin {
            late: (0..c.threads.len())
                .map(|_| turns.next().is_multiple_of(2))
                .collect(),
            last: 0,
            restart: Some((turns.next() % c.threads.len() as u64) as usize),
        };
        let run = if i % 3 == 2 {
            let random = (i / 3) % 2 == 0;
            let mut priority = Priority {
                random: random.then_some(turns),
                of: vec![],
            };
            let mut dictionary = Dictionary {
                random: values,
                constants: &constants,
            };
            sched::run_scheduled(
                c,
                &mut priority,
                &[],
                &mut dictionary,
                Some(site),
                budget,
                line_of,
            )
        } else {
            let scheduler: &mut dyn Scheduler = if i % 3 == 0 { &mut turns } else { &mut robin };
            sched::run_scheduled(c, scheduler, &[], &mut values, Some(site), budget, line_of)
        };
        match run.finished.outcome {
            Outcome::Error => return Some(Found::Error(run.values)),
            Outcome::Gap(why) => return Some(Found::Gap(why)),
            Outcome::NoError(_) | Outcome::Stuck(_) | Outcome::Undefined(_) => {}
        }
    }
    None
}

/// Fixed priorities, each thread's given when it is first offered: the thread that can run
/// with the highest one runs (a probabilistic concurrency-testing schedule without change
/// points). Random priorities, or without a generator the newest thread first (`main` first of
/// all: it creates the others, and is only offered once none of them can run when about to
/// return).
struct Priority {
    /// The generator of random priorities; `None`: the newest thread first.
    random: Option<Random>,
    /// Each thread's priority, by thread number.
    of: Vec<u64>,
}

impl Scheduler for Priority {
    fn pick(&mut self, runnable: &[usize], _: bool) -> Option<usize> {
        let top = runnable.iter().copied().max().unwrap_or(0);
        while self.of.len() <= top {
            let k = self.of.len();
            let p = match &mut self.random {
                Some(r) => r.next(),
                None if k == 0 => u64::MAX,
                None => k as u64,
            };
            self.of.push(p);
        }
        runnable.iter().copied().max_by_key(|&k| (self.of[k], k))
    }
}

/// Nondet values that are half the time a constant the program compares with, or one off it
/// (`n < 40` with `n` 39, 40 or 41), else [`Random`]'s.
struct Dictionary<'a> {
    random: Random,
    constants: &'a [BigInt],
}

impl Chooser for Dictionary<'_> {
    fn choose(&mut self, site: usize, ty: CType) -> BigInt {
        let r = self.random.next();
        if self.constants.is_empty() || r.is_multiple_of(2) {
            return self.random.choose(site, ty);
        }
        let k = (r / 2) % (3 * self.constants.len() as u64);
        let c = &self.constants[(k / 3) as usize];
        ty.convert(&(c + BigInt::from(k % 3) - 1))
    }
}

/// The constants the program's comparisons compare with (of `x < 40`, 40), sorted, at most 64.
fn compared_constants(p: &Program) -> Vec<BigInt> {
    let mut found = std::collections::BTreeSet::new();
    let mut stack: Vec<&IExpr> = vec![];
    for f in &p.functions {
        for e in &f.cfa.edges {
            match &e.op {
                Op::Expr(x) | Op::Assume(x, _) | Op::Return(Some(x)) | Op::Init(_, Some(x)) => {
                    stack.push(x)
                }
                _ => {}
            }
        }
    }
    while let Some(e) = stack.pop() {
        if let IExprKind::Cmp(_, a, b) = &e.kind {
            for side in [a, b] {
                let mut side: &IExpr = side;
                while let IExprKind::Convert(inner) = &side.kind {
                    side = inner;
                }
                if let IExprKind::Const(v) = &side.kind {
                    found.insert(v.clone());
                }
            }
        }
        stack.extend(e.operands());
    }
    found.into_iter().take(64).collect()
}
