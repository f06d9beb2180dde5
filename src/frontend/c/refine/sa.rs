//! The succinct automaton of one side: the compared thread's CFA turned into locations and
//! component edges (one per path of a step, see [`super::exec`]), the variables it ranges
//! over, and the steps of the other threads, from which [`super::env`] builds `Env`.
//!
//! * **Threads.** `main` only creates (and joins) threads: it may not write a global (the
//!   start state is any state the precondition κ allows, as in the paper's Definition 6,
//!   where `Init` plays no part). The compared thread is the first thread `main` creates, or
//!   the first one running the function `--thread` names; every other thread `main` creates
//!   is the environment `C_e`.
//! * **Locations.** Every location of the thread's CFA outside an atomic section
//!   (`__VERIFIER_atomic_begin()` ... `end()`; a call of a `__VERIFIER_atomic_*` function is
//!   one edge already). A step from a location runs to the next one; each of its paths is a
//!   component edge. `Inv` is `true` everywhere (no reachability analysis: a weaker `Inv`
//!   only adds behaviours).
//! * **Actions.** A step leaving a C label named `action_NAME:` is the visible action
//!   `action_NAME`; every other step is the silent action τ.
//!
//! Must not: call a solver, or decide anything about the refinement.

use super::exec::{Exec, SymState};
use crate::frontend::c::ast::Span;
use crate::frontend::c::cfa::{LocId, LocKind, Op};
use crate::frontend::c::error::CError;
use crate::frontend::c::ir::{IExpr, IExprKind, ThreadOp, VarRef};
use crate::frontend::c::program::Program;
use crate::frontend::c::threads;
use crate::term::{Sort, TermId, TermStore, VarId};

/// A variable of a side: a global, or a local of the compared thread.
#[derive(Clone, Debug)]
pub struct SideVar {
    /// Its C name.
    pub name: String,
    /// Which variable.
    pub var: VarRef,
    /// Its term variable (the value before a step).
    pub term: VarId,
    /// Whether it is a parameter of the thread function (its argument, a null pointer:
    /// left out of the default ι and of printed states).
    pub param: bool,
}

/// A component edge: one path of a step.
#[derive(Clone, Debug)]
pub struct SaEdge {
    /// Source location.
    pub from: LocId,
    /// Target location.
    pub to: LocId,
    /// The visible action (`None`: τ).
    pub label: Option<String>,
    /// The step's first statement.
    pub span: Span,
    /// When the path runs, over the variables' terms and [`SaEdge::fresh`].
    pub guard: TermId,
    /// Each variable's value afterwards (indexed like [`Side::vars`]).
    pub post: Vec<TermId>,
    /// Variables for undetermined values (nondet, uninitialised declarations).
    pub fresh: Vec<VarId>,
}

/// A step of an environment thread, over template variables: the globals' values before
/// ([`EnvStep::pre`], shared by all steps of a side), the thread's locals before and the
/// undetermined values (both existential: the environment's local state is not tracked).
#[derive(Clone, Debug)]
pub struct EnvStep {
    /// Globals before (template variables, indexed like the side's globals).
    pub pre: Vec<VarId>,
    /// The thread's locals and fresh values (existential).
    pub hidden: Vec<VarId>,
    /// When it runs.
    pub guard: TermId,
    /// The globals afterwards.
    pub post: Vec<TermId>,
}

/// One side of the refinement question.
pub struct Side {
    /// `a` (abstract) or `c` (concrete): the prefix of its names in κ and ι.
    pub tag: &'static str,
    /// The program (after the thread analysis).
    pub program: Program,
    /// The compared thread's function.
    pub func: usize,
    /// Globals, then the compared thread's locals.
    pub vars: Vec<SideVar>,
    /// How many of [`Side::vars`] are globals.
    pub globals: usize,
    /// The initial location.
    pub init: LocId,
    /// The component edges.
    pub edges: Vec<SaEdge>,
    /// The environment's steps.
    pub env: Vec<EnvStep>,
}

impl Side {
    /// The variable named `name` (a local of the compared thread shadows a global).
    pub fn lookup(&self, name: &str) -> Option<usize> {
        let locals = self.vars[self.globals..]
            .iter()
            .position(|v| v.name == name);
        locals.map(|i| i + self.globals).or_else(|| {
            self.vars[..self.globals]
                .iter()
                .position(|v| v.name == name)
        })
    }

    /// The terms of the variables (the state before a step).
    pub fn terms(&self, store: &TermStore) -> Vec<TermId> {
        self.vars.iter().map(|v| store.var(v.term)).collect()
    }

    /// The source span of a location (its first statement).
    pub fn loc_span(&self, l: LocId) -> Span {
        let cfa = &self.program.functions[self.func].cfa;
        match cfa.out(l).first() {
            Some(&e) => cfa.edge(e).span,
            None => cfa.locs[l.0 as usize].span,
        }
    }

    /// The outgoing component edges of `l`.
    pub fn out(&self, l: LocId) -> impl Iterator<Item = &SaEdge> {
        self.edges.iter().filter(move |e| e.from == l)
    }
}

/// Builds the side of a program: `tag` names it, `thread` picks the compared thread.
pub fn build(
    store: &TermStore,
    program: Program,
    tag: &'static str,
    thread: Option<&str>,
) -> Result<Side, CError> {
    let main_span = program.functions[program.main].span;
    if !threads::is_concurrent(&program) {
        return Err(CError::unsupported(
            main_span,
            "refine: `main` creates no thread (give the compared thread and its environment as threads)",
        ));
    }
    let c = threads::analyze(program)?;
    if let Some(span) = c.unbounded {
        return Err(CError::unsupported(
            span,
            "refine: threads created in a loop",
        ));
    }
    let program = c.program;
    check_main(&program)?;
    let created: Vec<usize> = c.threads[1..].iter().map(|t| t.func).collect();
    let pick = match thread {
        Some(name) => created
            .iter()
            .position(|&f| program.functions[f].name == name)
            .ok_or_else(|| {
                CError::unsupported(
                    main_span,
                    format!("refine: `main` creates no thread running `{name}`"),
                )
            })?,
        None => 0,
    };
    let func = created[pick];
    for (i, g) in program.globals.iter().enumerate() {
        if g.is_array() || !g.ty.signed {
            // Only an error when something uses it: mutexes and thread handles are fine.
            let used = program.functions.iter().any(|f| {
                f.cfa.edges.iter().any(|e| {
                    op_exprs(&e.op)
                        .iter()
                        .any(|x| x.mentions(VarRef::Global(i)))
                })
            });
            if used {
                return Err(CError::unsupported(
                    g.span,
                    format!(
                        "refine: global `{}` (only scalars of signed integer types)",
                        g.name
                    ),
                ));
            }
        }
    }
    let mut vars = vec![];
    for (i, g) in program.globals.iter().enumerate() {
        let term = store.new_var(&format!("{tag}.{}", g.name), Sort::Int);
        vars.push(SideVar {
            name: g.name.clone(),
            var: VarRef::Global(i),
            term,
            param: false,
        });
    }
    let globals = vars.len();
    for (i, l) in program.functions[func].locals.iter().enumerate() {
        let term = store.new_var(&format!("{tag}.{}", l.name), Sort::Int);
        vars.push(SideVar {
            name: l.name.clone(),
            var: VarRef::Local(i),
            term,
            param: i < program.functions[func].params,
        });
    }
    let exec = Exec {
        store,
        program: &program,
        prefix: format!("{tag}."),
    };
    let start = SymState {
        guard: vec![],
        globals: vars[..globals].iter().map(|v| store.var(v.term)).collect(),
        locals: vars[globals..].iter().map(|v| store.var(v.term)).collect(),
        fresh: vec![],
    };
    let edges = steps(&exec, func, &start)?
        .into_iter()
        .map(|(from, to, label, span, st)| SaEdge {
            from,
            to,
            label,
            span,
            guard: store.and(st.guard.iter().copied()),
            post: st.globals.iter().chain(&st.locals).copied().collect(),
            fresh: st.fresh,
        })
        .collect();
    // The environment: every other created thread, over template globals.
    let pre: Vec<VarId> = program
        .globals
        .iter()
        .map(|g| store.new_var(&format!("{tag}.env.{}", g.name), Sort::Int))
        .collect();
    let mut env = vec![];
    for (k, &h) in created.iter().enumerate() {
        if k == pick {
            continue;
        }
        let locals: Vec<VarId> = program.functions[h]
            .locals
            .iter()
            .map(|l| store.new_var(&format!("{tag}.env.{}", l.name), Sort::Int))
            .collect();
        let start = SymState {
            guard: vec![],
            globals: pre.iter().map(|&v| store.var(v)).collect(),
            locals: locals.iter().map(|&v| store.var(v)).collect(),
            fresh: vec![],
        };
        for (_, _, _, _, st) in steps(&exec, h, &start)? {
            let mut hidden = locals.clone();
            hidden.extend(st.fresh.iter().copied());
            env.push(EnvStep {
                pre: pre.clone(),
                hidden,
                guard: store.and(st.guard.iter().copied()),
                post: st.globals.clone(),
            });
        }
    }
    let init = program.functions[func].cfa.entry;
    Ok(Side {
        tag,
        program,
        func,
        vars,
        globals,
        init,
        edges,
        env,
    })
}

type Step = (LocId, LocId, Option<String>, Span, SymState);

/// Every path of every step of function `f`'s CFA from `start`.
fn steps(exec: &Exec, f: usize, start: &SymState) -> Result<Vec<Step>, CError> {
    let program = exec.program;
    let fun = &program.functions[f];
    let cfa = &fun.cfa;
    // Atomic depth of each location (None: unreached).
    let mut depth: Vec<Option<u8>> = vec![None; cfa.locs.len()];
    depth[cfa.entry.0 as usize] = Some(0);
    let mut work = vec![cfa.entry];
    while let Some(l) = work.pop() {
        let d = depth[l.0 as usize].unwrap_or(0);
        for &e in cfa.out(l) {
            let edge = cfa.edge(e);
            let nd = match edge.op {
                Op::Thread(ThreadOp::AtomicBegin) if d == 0 => 1,
                Op::Thread(ThreadOp::AtomicEnd) if d == 1 => 0,
                Op::Thread(ThreadOp::AtomicBegin | ThreadOp::AtomicEnd) => {
                    return Err(CError::unsupported(
                        edge.span,
                        "refine: nested or unmatched atomic sections",
                    ))
                }
                _ => d,
            };
            match depth[edge.to.0 as usize] {
                None => {
                    depth[edge.to.0 as usize] = Some(nd);
                    work.push(edge.to);
                }
                Some(old) if old != nd => {
                    return Err(CError::unsupported(
                        edge.span,
                        "refine: a location both inside and outside an atomic section",
                    ))
                }
                Some(_) => {}
            }
        }
    }
    let inside = |l: LocId| depth[l.0 as usize] == Some(1);
    let mut out = vec![];
    for (i, d) in depth.iter().enumerate() {
        if *d != Some(0) {
            continue;
        }
        let l = LocId(i as u32);
        let label = match cfa.locs[i].kind {
            LocKind::Label(k) if fun.labels[k].name.starts_with("action_") => {
                Some(fun.labels[k].name.clone())
            }
            _ => None,
        };
        let span = match cfa.out(l).first() {
            Some(&e) => cfa.edge(e).span,
            None => continue,
        };
        for (to, st) in exec.step(f, l, start.clone(), &inside)? {
            out.push((l, to, label.clone(), span, st));
        }
    }
    Ok(out)
}

/// The expressions an operation evaluates.
fn op_exprs(op: &Op) -> Vec<&IExpr> {
    match op {
        Op::Expr(e) | Op::Assume(e, _) | Op::Init(_, Some(e)) | Op::Return(Some(e)) => vec![e],
        _ => vec![],
    }
}

/// `main` may not write a global (the start state is κ's business).
fn check_main(program: &Program) -> Result<(), CError> {
    let main = &program.functions[program.main];
    for e in &main.cfa.edges {
        for x in op_exprs(&e.op) {
            let mut stack = vec![x];
            while let Some(x) = stack.pop() {
                let writes = matches!(
                    x.kind,
                    IExprKind::Assign(VarRef::Global(_), _)
                        | IExprKind::PostIncDec(VarRef::Global(_), _)
                        | IExprKind::Call(..)
                );
                if writes {
                    return Err(CError::unsupported(
                        x.span,
                        "refine: `main` may only create and join threads (the start state is given by --pre)",
                    ));
                }
                stack.extend(x.operands());
            }
        }
    }
    Ok(())
}
