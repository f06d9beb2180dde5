//! Control-flow automata: the front end's middle layer. Each function of the resolved program
//! ([`super::ir`]) becomes a [`Cfa`] whose edges carry one operation each; the clause encoding
//! ([`super::encode`]), the concrete interpreter ([`super::interp`]) and the structure analyses
//! ([`structure`]: reachability, loops and cut points, live variables) all read it, so the
//! three agree on what a `goto`, a `switch` or a `break` does.
//!
//! # Shape
//!
//! * **Locations** ([`LocId`]): the function's `entry`, `exit` (reached by `return` and by
//!   falling off the end) and `error` (a call of `reach_error()` or a failing assertion), one
//!   [`LocKind::Abort`] per `abort()`/`exit()`, a [`LocKind::LoopHead`] per loop statement, one
//!   per label (named, `case`, `default`), and plain locations between statements.
//! * **Edges** ([`Edge`]): one [`Op`] each: an expression evaluated for its effects (calls and
//!   nondet values are expressions), a local's initialisation, an assumption, a return, or a
//!   plain move ([`Op::Skip`]: `goto`, `break`, joins).
//! * **Invariant**: a location has no outgoing edge (the execution stops there: `exit`,
//!   `error`, an abort), one edge with any operation, or two edges [`Op::Assume`] on the same
//!   condition with opposite polarity (first the `true` edge). The condition of such a branch
//!   is evaluated once: it may call functions, draw nondet values or assign. A single
//!   `Assume` edge is an assumption: the execution stops where it does not hold. Edges into
//!   `exit` are exactly the [`Op::Return`] edges; `error` and aborts have no outgoing edges.
//! * **Lowering**: `if` and loop conditions branch; `while`/`for` loops get a head location
//!   that the condition leaves (a `for` step runs on the edge back to it); a `do ... while`
//!   head is its body's first location; `switch` compares its (already evaluated) controlling
//!   variable with each case in turn, then goes to `default` or past the body; `break`,
//!   `continue`, `goto` and fall-through are [`Op::Skip`] edges. Code after a jump that no
//!   label makes reachable is dropped: every location is reachable from `entry`, except `exit`
//!   and `error`, which always exist.
//!
//! [`mod@print`] renders a CFA as text and as a DOT picture.
//!
//! Must not: use terms, clauses or a solver; decide anything about values.

mod build;
pub mod print;
pub mod relations;
pub mod report;
pub mod structure;

pub use build::build;
pub(crate) use build::{prune, prune_mapped};

use super::ast::Span;
use super::ir::{IExpr, ThreadOp, VarRef};

/// A location of a [`Cfa`] (an index into [`Cfa::locs`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocId(pub u32);

/// An edge of a [`Cfa`] (an index into [`Cfa::edges`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeId(pub u32);

/// What a location is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocKind {
    /// The function's entry.
    Entry,
    /// After `return` (or the end of the body).
    Exit,
    /// The error location.
    Error,
    /// An `abort()` or `exit()`: the execution stops without error.
    Abort,
    /// The head of a loop statement (for `do ... while`, its body's first location).
    LoopHead,
    /// The label of [`super::program::Function::labels`] with this index.
    Label(usize),
    /// Any other location.
    Plain,
}

/// A location: its kind and the statement it belongs to.
#[derive(Clone, Copy, Debug)]
pub struct Location {
    /// What it is.
    pub kind: LocKind,
    /// The statement (loop, label, abort) or function it stands for.
    pub span: Span,
}

/// The operation of an edge.
#[derive(Clone, Debug)]
pub enum Op {
    /// Nothing happens.
    Skip,
    /// An expression evaluated for its effects.
    Expr(IExpr),
    /// A local declaration: the initialiser's value, or any value of its type.
    Init(VarRef, Option<IExpr>),
    /// The condition evaluates to non-zero (`true`) or zero (`false`).
    Assume(IExpr, bool),
    /// `return` (value converted to the return type; none: an unspecified value).
    Return(Option<IExpr>),
    /// A thread operation: only the concurrent encoding (`threads/`) and the scheduler of the
    /// interpreter execute it; the sequential encoding never sees one.
    Thread(ThreadOp),
}

/// An edge: from, to, what happens, and the source it stands for.
#[derive(Clone, Debug)]
pub struct Edge {
    /// Source location.
    pub from: LocId,
    /// Target location.
    pub to: LocId,
    /// What happens.
    pub op: Op,
    /// Where in the source (for an edge into `error`: the error call reached).
    pub span: Span,
}

/// The control-flow automaton of one function (see the module documentation). The default
/// value is empty: a placeholder until [`build`] runs.
#[derive(Clone, Debug, Default)]
pub struct Cfa {
    /// The locations.
    pub locs: Vec<Location>,
    /// The edges.
    pub edges: Vec<Edge>,
    /// Outgoing edges per location (at most two: see the module's invariant).
    pub out: Vec<Vec<EdgeId>>,
    /// The entry location.
    pub entry: LocId,
    /// The exit location.
    pub exit: LocId,
    /// The error location.
    pub error: LocId,
    /// Where unreachable code starts: the first statement (an expression, declaration,
    /// condition, `return` with a value or thread operation) of each stretch of code that no
    /// path from the entry reaches (after a `return`, `goto`, `break` or `continue`). That code
    /// is not in the automaton.
    pub dead: Vec<Span>,
}

impl Cfa {
    /// The edge `e`.
    pub fn edge(&self, e: EdgeId) -> &Edge {
        &self.edges[e.0 as usize]
    }

    /// The location `l`.
    pub fn loc(&self, l: LocId) -> &Location {
        &self.locs[l.0 as usize]
    }

    /// The outgoing edges of `l`.
    pub fn out(&self, l: LocId) -> &[EdgeId] {
        &self.out[l.0 as usize]
    }

    /// Every location id.
    pub fn loc_ids(&self) -> impl Iterator<Item = LocId> {
        (0..self.locs.len() as u32).map(LocId)
    }

    /// The first location that breaks the module's invariant on out-edges: more than two, or
    /// two that are not a branch (`Assume(c, true)` then `Assume(c, false)` on one condition,
    /// told by its span). The encoding and the interpreter read the second edge of a branch as
    /// the negation of the first, so a transformation that breaks this (say, by prefixing the
    /// same operation to both edges) changes the program's meaning silently.
    pub fn malformed_location(&self) -> Option<LocId> {
        self.loc_ids().find(|&l| match self.out(l) {
            [] | [_] => false,
            [a, b] => !matches!(
                (&self.edge(*a).op, &self.edge(*b).op),
                (Op::Assume(x, true), Op::Assume(y, false)) if x.span == y.span
            ),
            _ => true,
        })
    }

    /// Whether the CFA has a cycle (a loop).
    pub fn has_cycle(&self) -> bool {
        let succ: Vec<Vec<usize>> = self
            .out
            .iter()
            .map(|es| es.iter().map(|&e| self.edge(e).to.0 as usize).collect())
            .collect();
        has_cycle(&succ)
    }
}

impl Op {
    /// The expressions the operation evaluates.
    pub fn exprs(&self) -> Vec<&IExpr> {
        match self {
            Op::Expr(x) | Op::Assume(x, _) | Op::Init(_, Some(x)) | Op::Return(Some(x)) => vec![x],
            Op::Skip | Op::Init(_, None) | Op::Return(None) | Op::Thread(_) => vec![],
        }
    }
}

/// Whether a directed graph (successors per node) has a cycle: Kahn's algorithm.
pub fn has_cycle(succ: &[Vec<usize>]) -> bool {
    let mut indegree = vec![0usize; succ.len()];
    for &s in succ.iter().flatten() {
        indegree[s] += 1;
    }
    let mut stack: Vec<usize> = (0..succ.len()).filter(|&l| indegree[l] == 0).collect();
    let mut seen = 0;
    while let Some(l) = stack.pop() {
        seen += 1;
        for &t in &succ[l] {
            indegree[t] -= 1;
            if indegree[t] == 0 {
                stack.push(t);
            }
        }
    }
    seen < succ.len()
}
