//! Concurrent programs: a resolved program whose CFAs hold thread operations
//! ([`Op::Thread`]: `pthread_create`, `pthread_join`, `pthread_exit`, `pthread_mutex_lock`,
//! atomic sections) seen as a fixed set of threads, each running its own template's CFA.
//!
//! # Model
//!
//! * **Threads.** Thread 0 runs `main`; each `pthread_create` site of `main` starts one more
//!   thread (numbered from 1 in the order of the sites in `main`'s CFA) running the thread
//!   function it names, with its own copy of that function's locals. A site on a cycle of
//!   `main`'s CFA (a loop) may start any number of threads ([`Concurrent::unbounded`]): no
//!   product then, but runs of the scheduler (each executed creation a new thread, numbered
//!   in creation order) and the thread-modular clauses of [`rely`]; sites in other functions
//!   are `unsupported`.
//! * **Semantics.** Sequential consistency: globals are shared, locals are thread-local; a
//!   step of a thread is one CFA edge, executed atomically (the granularity of SV-COMP's
//!   reference tools: an expression statement reading two shared variables is one step).
//!   `pthread_mutex_lock` waits until the mutex is 0 and sets it to 1 in one step;
//!   `pthread_join` waits until the joined thread has ended; `__VERIFIER_atomic_begin()` lets
//!   no other thread run until `__VERIFIER_atomic_end()`; a call of a function named
//!   `__VERIFIER_atomic_*` is one step (the call is one edge). Returning from `main` ends the
//!   program (threads still running are not continued: every state they could reach is also
//!   reached with `main` waiting before its return, so no error is lost).
//! * **Interleaving points** ([`Concurrent::points`]): a thread's entry, and every location
//!   with an edge that touches shared state (reads or writes a global, calls a function that
//!   does, a thread operation, a `return` of a thread function, which ends the thread). Only
//!   there may another thread run: between two of them a thread executes thread-local edges
//!   only, which commute with every other thread's steps, so merging them into the step
//!   before loses no reachable state. Only calls of `__VERIFIER_atomic_*` functions may touch
//!   shared state (a call of another function that does would be a sequence of steps: not
//!   modelled yet, so `unsupported`).
//!
//! [`product`] turns a concurrent program into a sequential one (the interleaving product)
//! that the existing encoding and interpreter read; [`rely`] one whose encoding, completed by
//! `encode/rely.rs`, is a rely-guarantee proof for any number of threads; `interp/sched.rs`
//! replays a schedule on the concurrent program itself.
//!
//! Must not: use terms, clauses or a solver; accept a program whose threads this model does
//! not describe exactly (each such construct is an `unsupported` error at its place).

mod explicit;
mod inline;
pub mod product;
pub mod rely;

use super::ast::Span;
use super::cfa::{Cfa, EdgeId, LocId, Op};
use super::error::CError;
use super::ir::{IExpr, IExprKind, ThreadOp, VarRef};
use super::program::Program;

/// One thread of a concurrent program.
#[derive(Clone, Debug)]
pub struct Thread {
    /// The function it runs.
    pub func: usize,
    /// The `pthread_create` edge of `main`'s CFA that starts it (`None` for `main` itself).
    pub created_at: Option<EdgeId>,
}

/// A program with threads, checked against the model of the module documentation.
#[derive(Clone, Debug)]
pub struct Concurrent {
    /// The resolved program (its CFAs hold the thread operations).
    pub program: Program,
    /// The threads: 0 is `main`, then one per creation site.
    pub threads: Vec<Thread>,
    /// Per function, per location: whether it is an interleaving point (empty for functions
    /// no thread runs directly).
    pub points: Vec<Vec<bool>>,
    /// A creation site on a cycle of `main`'s CFA, if any: then any number of threads may
    /// run, [`Concurrent::threads`] lists the sites (not the threads), no product exists:
    /// the scheduler runs the program (a thread per creation executed) and [`rely`] gives
    /// its thread-modular clauses.
    pub unbounded: Option<Span>,
}

impl Concurrent {
    /// The thread a creation edge of `main` starts.
    pub fn created_by(&self, e: EdgeId) -> Option<usize> {
        self.threads.iter().position(|t| t.created_at == Some(e))
    }

    /// Whether location `l` of function `f` is an interleaving point.
    pub fn is_point(&self, f: usize, l: LocId) -> bool {
        self.points[f].get(l.0 as usize).copied().unwrap_or(false)
    }
}

/// Whether the program has thread operations (else it is sequential, and stays as it is).
pub fn is_concurrent(p: &Program) -> bool {
    p.functions
        .iter()
        .any(|f| f.cfa.edges.iter().any(|e| matches!(e.op, Op::Thread(_))))
}

fn unsupported(span: Span, what: &str) -> CError {
    CError::unsupported(span, what.to_owned())
}

/// Checks a program with thread operations against the model and computes its threads and
/// interleaving points.
pub fn analyze(mut program: Program) -> Result<Concurrent, CError> {
    let main = program.main;
    let mut roots = vec![main];
    for f in &program.functions {
        for e in &f.cfa.edges {
            if let Op::Thread(ThreadOp::Create { func, .. }) = e.op {
                if !roots.contains(&func) {
                    roots.push(func);
                }
            }
        }
    }
    // Before inlining, while calls still show which functions each thread runs.
    let (_, _, runs) = threads_of(&program);
    check_static_locals(&program, &instances(&program, &runs))?;
    inline::inline_calls(&mut program, &roots)?;
    let program = program;
    let touches = touches_globals(&program);
    let (threads, unbounded, runs) = threads_of(&program);
    let instances = instances(&program, &runs);
    for (fi, f) in program.functions.iter().enumerate() {
        if instances[fi] == 0 {
            continue; // never executed
        }
        for e in &f.cfa.edges {
            if let Op::Thread(op) = &e.op {
                if runs[fi] == 0 {
                    return Err(unsupported(
                        e.span,
                        "thread operations in a function that is not a thread's start",
                    ));
                }
                if fi != main && matches!(op, ThreadOp::Create { .. }) {
                    return Err(unsupported(e.span, "threads created by threads"));
                }
            }
            for x in e.op.exprs() {
                check_calls(&program, x, runs[fi] > 0, &runs, &touches)?;
            }
        }
    }
    let points = program
        .functions
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            if runs[fi] == 0 {
                return vec![];
            }
            let atomic = inside_atomic(&f.cfa);
            let alone = if fi == main {
                before_creation(&f.cfa)
            } else {
                vec![false; f.cfa.locs.len()]
            };
            f.cfa
                .loc_ids()
                .map(|l| {
                    let i = l.0 as usize;
                    l == f.cfa.entry
                        || (!atomic[i]
                            && !alone[i]
                            && f.cfa
                                .out(l)
                                .iter()
                                .any(|&e| shared_edge(&f.cfa.edge(e).op, &touches)))
                })
                .collect()
        })
        .collect();
    Ok(Concurrent {
        program,
        threads,
        points,
        unbounded,
    })
}

/// Whether an edge touches shared state (see the module documentation).
fn shared_edge(op: &Op, touches: &[bool]) -> bool {
    match op {
        Op::Thread(_) | Op::Return(_) => true,
        Op::Init(VarRef::Global(_), _) => true,
        _ => op.exprs().iter().any(|x| expr_shared(x, touches)),
    }
}

/// Whether an expression reads or writes a global, or calls a function that may.
fn expr_shared(x: &IExpr, touches: &[bool]) -> bool {
    let mut stack = vec![x];
    while let Some(e) = stack.pop() {
        if matches!(e.variable(), Some(VarRef::Global(_))) {
            return true;
        }
        if let IExprKind::Call(f, _) = e.kind {
            if touches[f] {
                return true;
            }
        }
        stack.extend(e.operands());
    }
    false
}

/// Per function: whether it (or a function it calls) reads or writes a global.
fn touches_globals(p: &Program) -> Vec<bool> {
    let n = p.functions.len();
    let mut direct = vec![false; n];
    let mut callees = vec![vec![]; n];
    for (i, f) in p.functions.iter().enumerate() {
        for e in &f.cfa.edges {
            for x in e.op.exprs() {
                let mut stack = vec![x];
                while let Some(e) = stack.pop() {
                    direct[i] |= matches!(e.variable(), Some(VarRef::Global(_)));
                    if let IExprKind::Call(c, _) = e.kind {
                        callees[i].push(c);
                    }
                    stack.extend(e.operands());
                }
            }
            direct[i] |= matches!(e.op, Op::Init(VarRef::Global(_), _) | Op::Thread(_));
        }
    }
    crate::frontend::c::ir::mark_callers(&mut direct, &callees);
    direct
}

/// In a thread's code, a call of a function that touches shared state must be one atomic
/// step: a `__VERIFIER_atomic_*` function. Thread functions are never called.
fn check_calls(
    p: &Program,
    x: &IExpr,
    in_thread: bool,
    runs: &[usize],
    touches: &[bool],
) -> Result<(), CError> {
    let mut stack = vec![x];
    while let Some(e) = stack.pop() {
        if let IExprKind::Call(f, _) = e.kind {
            let name = &p.functions[f].name;
            if runs[f] > 0 {
                return Err(unsupported(
                    e.span,
                    &format!("a call of `{name}`, which also runs as a thread"),
                ));
            }
            if in_thread && touches[f] && !name.starts_with("__VERIFIER_atomic_") {
                return Err(unsupported(
                    e.span,
                    &format!(
                        "a call of `{name}`, which accesses shared variables, from a thread \
                         (only `__VERIFIER_atomic_*` functions run as one step)"
                    ),
                ));
            }
        }
        stack.extend(e.operands());
    }
    Ok(())
}

/// The threads, in the order of the creation sites in main's CFA (0 is `main`); the first
/// creation site on a cycle (any number of threads), if any; and per function the number of
/// threads that start in it (2 for "several", a site on a cycle counting as several).
fn threads_of(program: &Program) -> (Vec<Thread>, Option<Span>, Vec<usize>) {
    let main = program.main;
    let mut threads = vec![Thread {
        func: main,
        created_at: None,
    }];
    let cfa = &program.functions[main].cfa;
    let cyclic = on_cycles(cfa);
    let mut unbounded = None;
    let mut runs = vec![0usize; program.functions.len()];
    runs[main] = 1;
    for (i, e) in cfa.edges.iter().enumerate() {
        if let Op::Thread(ThreadOp::Create { func, .. }) = e.op {
            let many = cyclic[e.from.0 as usize];
            if many {
                unbounded.get_or_insert(e.span);
            }
            runs[func] += if many { 2 } else { 1 };
            threads.push(Thread {
                func,
                created_at: Some(EdgeId(i as u32)),
            });
        }
    }
    (threads, unbounded, runs)
}

/// Refuses a local made static (a `static` local, or one whose address is taken: the resolver
/// made it a global) of a function that several threads may run at once, directly or through
/// calls (`instances`): each thread would need its own copy, and one global shared by them
/// would let one thread's write reach another (a wrong `unsafe` as much as a wrong `safe`).
fn check_static_locals(program: &Program, instances: &[usize]) -> Result<(), CError> {
    for (fi, f) in program.functions.iter().enumerate() {
        if instances[fi] > 1 {
            if let Some(g) = program
                .globals
                .iter()
                .find(|g| g.span.start >= f.span.start && g.span.end <= f.span.end)
            {
                return Err(unsupported(
                    g.span,
                    "a static or address-taken local in a function several threads run",
                ));
            }
        }
    }
    Ok(())
}

/// Per function: how many thread instances may run it at once, counting the threads that start
/// in it (`runs`) and, through calls, its callers' instances; saturated at 2 ("several").
/// Zero for a function no thread runs or calls.
fn instances(p: &Program, runs: &[usize]) -> Vec<usize> {
    let mut callers: Vec<Vec<usize>> = vec![vec![]; p.functions.len()];
    for (f, gs) in p.callees().into_iter().enumerate() {
        for g in gs {
            if g < callers.len() && !callers[g].contains(&f) {
                callers[g].push(f);
            }
        }
    }
    let mut count: Vec<usize> = runs.iter().map(|&r| r.min(2)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for g in 0..p.functions.len() {
            let from_callers: usize = callers[g].iter().map(|&f| count[f]).sum();
            let n = (runs[g] + from_callers).min(2);
            if n > count[g] {
                count[g] = n;
                changed = true;
            }
        }
    }
    count
}

/// Per location: whether every path from the entry to it is inside an atomic section (its
/// last `__VERIFIER_atomic_begin` is after its last `end`). No other thread can run there.
fn inside_atomic(cfa: &Cfa) -> Vec<bool> {
    let n = cfa.locs.len();
    let mut inside = vec![true; n];
    inside[cfa.entry.0 as usize] = false;
    let mut changed = true;
    while changed {
        changed = false;
        for e in &cfa.edges {
            let after = match e.op {
                Op::Thread(ThreadOp::AtomicBegin) => true,
                Op::Thread(ThreadOp::AtomicEnd) => false,
                _ => inside[e.from.0 as usize],
            };
            let to = e.to.0 as usize;
            if inside[to] && !after {
                inside[to] = false;
                changed = true;
            }
        }
    }
    inside
}

/// Per location of `main`: whether no path from the entry to it creates a thread (so `main`
/// runs alone there).
pub(super) fn before_creation(cfa: &Cfa) -> Vec<bool> {
    let n = cfa.locs.len();
    let mut after = vec![false; n];
    let mut stack: Vec<usize> = cfa
        .edges
        .iter()
        .filter(|e| matches!(e.op, Op::Thread(ThreadOp::Create { .. })))
        .map(|e| e.to.0 as usize)
        .collect();
    while let Some(l) = stack.pop() {
        if !std::mem::replace(&mut after[l], true) {
            stack.extend(cfa.out[l].iter().map(|&e| cfa.edge(e).to.0 as usize));
        }
    }
    after.into_iter().map(|a| !a).collect()
}

/// Per location: whether it lies on a cycle of the CFA.
fn on_cycles(cfa: &Cfa) -> Vec<bool> {
    let n = cfa.locs.len();
    let succ = |l: usize| cfa.out[l].iter().map(|&e| cfa.edge(e).to.0 as usize);
    (0..n)
        .map(|start| {
            let mut seen = vec![false; n];
            let mut stack: Vec<usize> = succ(start).collect();
            while let Some(l) = stack.pop() {
                if l == start {
                    return true;
                }
                if !std::mem::replace(&mut seen[l], true) {
                    stack.extend(succ(l));
                }
            }
            false
        })
        .collect()
}
