//! The pointer program the shape engine runs: a control-flow automaton over `main`'s
//! pointer variables whose edges are single pointer statements in three-address form.
//!
//! Integer data is abstracted away but for the tracked constants: integer variables and
//! fields are not represented, a condition on them is a nondeterministic branch, and an
//! access to an integer field only checks that its pointer is valid ([`Op::Check`]); when
//! integer data is tracked, the integer fields and locals `main` compares with constants
//! hold a constant or "any" ([`Op::SetData`], [`Op::SetInt`]) and comparisons of them with
//! constants filter the executions ([`Op::AssumeData`], [`Op::AssumeInt`]).
//!
//! Must not: mention the C syntax or the forest domain; it is plain data.

use super::super::ast::Span;
use super::super::property::PropertyKind;

/// A pointer variable: an index into [`PointerProgram::vars`] (and [`super::fa::Forest::vars`]).
pub type Var = usize;

/// A location of the automaton.
pub type Loc = usize;

/// Where the nodes of a struct type live, which says how they may end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Storage {
    /// A block of its own (`malloc`): ended by `free` of a pointer to it.
    #[default]
    Heap,
    /// A struct variable (`struct T s;`, the node `&s` points to): it ends with its scope
    /// ([`Op::Release`]); `free` of it is a fault and it is never leaked.
    Variable,
    /// A struct inside another (`struct T2 { struct T head; ... }`): the containing node
    /// holds it through a field of its own that the program cannot write; it ends with its
    /// container ([`Op::Release`]), and `free` of it is a fault.
    Part,
}

/// A struct type: its name and its fields.
#[derive(Clone, Debug)]
pub struct StructType {
    /// `struct T` (or its typedef name).
    pub name: String,
    /// Per pointer field, its name and the struct type it points to; then, per struct field
    /// (a [`Storage::Part`] node), its name and struct type.
    pub pointers: Vec<(String, usize)>,
    /// Where its nodes live.
    pub storage: Storage,
    /// The program's struct type this one is a copy of (for a struct variable or a part),
    /// or its own index.
    pub origin: usize,
    /// The integer fields whose constant values the nodes' symbols track (the first
    /// [`super::ta::DATA`] ones), by name.
    pub data: Vec<String>,
}

/// A tracked integer variable: an index into [`PointerProgram::ints`] (and
/// [`super::fa::Forest::ints`]).
pub type Int = usize;

/// An integer value the engine can track: a constant, a tracked variable's or tracked field's
/// value, or anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntVal {
    /// Any value.
    Any,
    /// This constant.
    Const(i32),
    /// A tracked integer variable's value.
    Int(Int),
    /// `x->d` for the tracked integer field `d` (by index): `x` is dereferenced.
    Field(Var, usize),
}

/// A comparison of a tracked integer (variable or field) with a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Cmp {
    /// The comparison that holds exactly where this one does not.
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }

    /// `a cmp b`.
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    /// The same comparison with its operands swapped (`c < x` is `x > c`).
    pub fn swapped(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            c => c,
        }
    }
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
    /// `x = container_of(y, T, f)` for the part copy `ty` of `T.f` (whose last field points
    /// back to its container): that field of `y`'s node when the node is of type `ty`, else
    /// undefined (no fault: nothing is dereferenced yet).
    Container(Var, Var, usize),
    /// `x = &y->f` for the struct field in field `f` of `y`'s node: its part node, undefined
    /// when `y` points to no node (no fault: nothing is dereferenced).
    PartOf(Var, Var, usize),
    /// `x = malloc(sizeof(T))` (`zeroed`: `calloc`, its pointers null).
    Alloc(Var, usize, bool),
    /// `free(x)`: a fault unless `x` is null or points to a [`Storage::Heap`] node.
    Free(Var),
    /// The end of the [`Storage::Variable`] or [`Storage::Part`] node `x` points to (its
    /// scope ends, or its container is freed): pointers to it dangle. Only the reading of
    /// the program makes it, for such nodes.
    Release(Var),
    /// `x` is dereferenced (an integer field of `*x` is read or written).
    Check(Var),
    /// `x->d = v` for the tracked integer field `d` (by index).
    SetData(Var, usize, IntVal),
    /// `i = v` for the tracked integer variable `i`.
    SetInt(Int, IntVal),
    /// Executions go on only where `i cmp c` may hold (all of them where `i`'s value is not
    /// known; `i == c` then makes it known).
    AssumeInt(Int, Cmp, i32),
    /// Executions go on only where `x->d cmp v` may hold (all of them where the value is not
    /// known; `x->d == v` then makes it known).
    AssumeData(Var, usize, Cmp, i32),
    /// Executions go on only where `a == b` (`eq`) or `a != b` (not `eq`).
    Assume(bool, Operand, Operand),
    /// The execution ends: under the memory properties nothing may remain allocated, except
    /// at an abnormal end under valid-memtrack alone; under unreach-call an
    /// [`Ending::Error`] is the fault (see [`PointerProgram::property`]).
    Exit(Ending),
}

/// How an execution ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `return` from `main`, or its end: its variables die.
    Return,
    /// `exit` or `abort`: the variables keep pointing where they did.
    Abort,
    /// An error call (`reach_error`, `__VERIFIER_error`, `__assert_fail`) or a failing
    /// assertion: an abnormal end under the memory properties, the violation under
    /// unreach-call.
    Error,
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

#[cfg(test)]
impl PointerProgram {
    /// A program of these struct types and `vars` variables, without edges, under
    /// valid-memcleanup: what a unit test of single posts needs (a post reads only the
    /// types, the variables and the property).
    pub fn of_types(types: Vec<StructType>, vars: usize) -> Self {
        PointerProgram {
            types,
            vars: (0..vars).map(|i| format!("v{i}")).collect(),
            locs: 1,
            entry: 0,
            edges: vec![],
            heads: vec![],
            globals: vec![],
            property: PropertyKind::MemCleanup,
            ints: vec![],
            trackable: false,
        }
    }
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
    /// What is proved, hence which endings and which heaps are faults:
    /// - valid-memsafety: invalid dereferences and frees, a block no variable reaches (as
    ///   soon as it arises), blocks left at `return` from `main`. Blocks left at an abnormal
    ///   end are none: every block is then still pointed to.
    /// - valid-memcleanup: also blocks left at any end.
    /// - unreach-call: an [`Ending::Error`], and invalid dereferences and frees (the engine
    ///   follows no execution past one). Unreachable blocks are dropped, and blocks left at
    ///   the end do not matter.
    pub property: PropertyKind,
    /// The tracked integer variables' names (by [`Int`]): `main`'s integer locals it
    /// compares with constants, when integer data is tracked.
    pub ints: Vec<String>,
    /// Whether some struct has an integer field, or `main` an integer local, that `main`
    /// compares with a constant (a second run can track it).
    pub trackable: bool,
}
