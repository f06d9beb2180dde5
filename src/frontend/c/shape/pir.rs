//! The pointer program the shape engine runs: a control-flow automaton over `main`'s
//! pointer variables whose edges are single pointer statements in three-address form.
//!
//! Integer data is not represented: integer variables and fields are abstracted away, a
//! condition on them is a nondeterministic branch, and an access to an integer field only
//! checks that its pointer is valid ([`Op::Check`]).
//!
//! Must not: mention the C syntax or the forest domain; it is plain data.

use super::super::ast::Span;

/// A pointer variable: an index into [`PointerProgram::vars`] (and [`super::fa::Forest::vars`]).
pub type Var = usize;

/// A location of the automaton.
pub type Loc = usize;

/// A struct type: its name and its fields.
#[derive(Clone, Debug)]
pub struct StructType {
    /// `struct T` (or its typedef name).
    pub name: String,
    /// Per pointer field, its name and the struct type it points to.
    pub pointers: Vec<(String, usize)>,
    /// The integer fields whose constant values the nodes' symbols track (the first
    /// [`super::ta::DATA`] ones), by name.
    pub data: Vec<String>,
}

/// An operand of a comparison or a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// `NULL`.
    Null,
    /// A pointer variable's value.
    Var(Var),
}

/// One pointer statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// No effect.
    Skip,
    /// `x = e` for `e` null or a variable.
    Set(Var, Operand),
    /// The variables become undefined: fresh declarations, temporaries and variables whose
    /// scope ends.
    Kill(Vec<Var>),
    /// `x = y->f` (the `f`-th pointer field).
    Load(Var, Var, usize),
    /// `x->f = e`.
    Store(Var, usize, Operand),
    /// `x = malloc(sizeof(T))` (`zeroed`: `calloc`, its pointers null).
    Alloc(Var, usize, bool),
    /// `free(x)`.
    Free(Var),
    /// `x` is dereferenced (an integer field of `*x` is read or written).
    Check(Var),
    /// `x->d = v` for the tracked integer field `d` (by index): a constant, or any value.
    SetData(Var, usize, Option<i32>),
    /// Executions go on only where `x->d == v` (`eq`) or `x->d != v` (not `eq`).
    AssumeData(Var, usize, bool, i32),
    /// Executions go on only where `a == b` (`eq`) or `a != b` (not `eq`).
    Assume(bool, Operand, Operand),
    /// The execution ends: nothing may remain allocated for the engine to claim the memory
    /// properties, except at an [`Ending::Abort`] under valid-memtrack alone (see
    /// [`PointerProgram::cleanup`]).
    Exit(Ending),
}

/// How an execution ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `return` from `main`, or its end: its variables die.
    Return,
    /// `exit`, `abort`, an error call, a failing assertion: the variables keep pointing
    /// where they did.
    Abort,
}

/// An edge.
#[derive(Clone, Debug)]
pub struct Edge {
    /// Source.
    pub from: Loc,
    /// Target.
    pub to: Loc,
    /// The statement.
    pub op: Op,
    /// Where in the source.
    pub span: Span,
}

/// A loop head: where the fixpoint joins and abstracts.
#[derive(Clone, Debug)]
pub struct LoopHead {
    /// The location.
    pub loc: Loc,
    /// Byte offset of the loop statement.
    pub offset: usize,
}

/// `main` as a pointer program.
#[derive(Clone, Debug)]
pub struct PointerProgram {
    /// The struct types.
    pub types: Vec<StructType>,
    /// The pointer variables' names (temporaries are named `tmp#N`).
    pub vars: Vec<String>,
    /// Number of locations.
    pub locs: usize,
    /// The entry location.
    pub entry: Loc,
    /// The edges.
    pub edges: Vec<Edge>,
    /// The loop heads.
    pub heads: Vec<LoopHead>,
    /// Global pointer variables (initially null; the others start undefined).
    pub globals: Vec<Var>,
    /// Whether blocks left at an [`Ending::Abort`] are faults: valid-memcleanup's view (every
    /// block freed however the program ends). Under valid-memtrack alone they are not, since
    /// every block is then still pointed to (a block no variable reaches is a fault as soon
    /// as it arises).
    pub cleanup: bool,
    /// Whether some struct has an integer field that `main` compares with a constant (the
    /// symbols can track it).
    pub trackable: bool,
}
