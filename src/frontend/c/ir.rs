//! The resolved program both the CHC translation and the interpreter read: names bound to
//! variables, every expression typed, implicit conversions explicit, SV-COMP built-ins turned
//! into statements of their own.
//!
//! Arrays: a variable with dimensions ([`VarInfo::dims`]) is an array of its element type
//! `ty`, whose elements are numbered row-major (`a[i][j]` of `int a[N][M]` is element
//! `i * M + j`); each access carries one index per dimension, so that each can be checked
//! against its own bound (an index outside `0..size` is undefined behaviour). The size of a
//! variable-length dimension is a hidden local set at the declaration.
//!
//! The program and its functions, which hold these statements lowered to control-flow
//! automata, are in [`super::program`].
//!
//! Must not: depend on terms or clauses, or on the control-flow automata; it is plain data.

use super::ast::{BinOp, Span};
use super::types::CType;
use num_bigint::BigInt;

mod fold;
mod heap;
pub use fold::fold;
pub use heap::*;

/// A variable: a global or a local (parameters are the first locals) of the current function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarRef {
    /// Index into [`Program::globals`](super::program::Program::globals).
    Global(usize),
    /// Index into the function's [`Function::locals`](super::program::Function::locals).
    Local(usize),
}

/// A declared variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// Its source name (unique names are made by the translation).
    pub name: String,
    /// Its type.
    pub ty: CType,
    /// Where it is declared.
    pub span: Span,
    /// For an array, its dimensions, outermost first (`ty` is then the element type); empty
    /// for a scalar.
    pub dims: Vec<Dim>,
}

impl VarInfo {
    /// Whether the variable is an array.
    pub fn is_array(&self) -> bool {
        !self.dims.is_empty()
    }
}

/// The size of an array dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A constant (positive).
    Const(BigInt),
    /// Variable-length: the (hidden, scalar) local that holds the size evaluated at the
    /// declaration.
    Var(VarRef),
}

/// What the elements of a declared array hold besides those of its initialiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Zero (the array has an initialiser).
    Zero,
    /// Any value of the element type, each element its own (no initialiser): the number is
    /// the declaration's nondet site.
    Any(usize),
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct IExpr {
    /// What it is.
    pub kind: IExprKind,
    /// Its type (after conversions; comparisons and logical operators have type `int`).
    pub ty: CType,
    /// Where.
    pub span: Span,
}

/// The kinds of resolved expression. Operands of arithmetic are already converted to the
/// operation's type (`ty`), except the right operand of shifts.
#[derive(Clone, Debug)]
pub enum IExprKind {
    /// A constant of type `ty`.
    Const(BigInt),
    /// A variable's value.
    Var(VarRef),
    /// Arithmetic, bitwise or shift operation in type `ty`.
    Arith(BinOp, Box<IExpr>, Box<IExpr>),
    /// Comparison of two operands of the same type.
    Cmp(BinOp, Box<IExpr>, Box<IExpr>),
    /// `&&` / `||` (short-circuit), any operand types.
    Logic(BinOp, Box<IExpr>, Box<IExpr>),
    /// `!e`
    Not(Box<IExpr>),
    /// `-e` in type `ty`.
    Neg(Box<IExpr>),
    /// `~e` in type `ty`.
    BitNot(Box<IExpr>),
    /// Conversion of the operand to `ty`.
    Convert(Box<IExpr>),
    /// `x = e`; `e` already has the variable's type; the value is the new value.
    Assign(VarRef, Box<IExpr>),
    /// `x++` / `x--`: the old value; the variable gets `x ± 1` converted to its type.
    PostIncDec(VarRef, bool),
    /// A call of a defined function (arguments converted to the parameter types).
    Call(usize, Vec<IExpr>),
    /// `__VERIFIER_nondet_T()`: any value of `ty`; the number identifies the call site.
    Nondet(usize),
    /// `c ? a : b` (both branches converted to `ty`).
    Cond(Box<IExpr>, Box<IExpr>, Box<IExpr>),
    /// `a, b`
    Comma(Box<IExpr>, Box<IExpr>),
    /// `a[i][j]`: an element's value (of type `ty`, the element type); one index per
    /// dimension, of any integer type (indices are values, not converted).
    Elem(VarRef, Vec<IExpr>),
    /// `a[i][j] = v`, compound assignments and `++`/`--` of elements: the indices are evaluated
    /// once, then `value` (of the element type), in which [`IExprKind::Current`] is the
    /// element's value before; the element gets `value`. The expression's value is the new
    /// value, or with `post` the old one.
    SetElem {
        /// The array.
        var: VarRef,
        /// One index per dimension.
        index: Vec<IExpr>,
        /// The new value.
        value: Box<IExpr>,
        /// Whether the expression's value is the old value (`a[i]++`).
        post: bool,
    },
    /// In the `value` of the innermost enclosing [`IExprKind::SetElem`]: the element's value
    /// before the update.
    Current,
    /// The declaration of a local array (a statement of its own, value 0): variable-length
    /// sizes must be positive (else undefined behaviour), then every element is `fill` except
    /// the initialiser's, given by their row-major indices.
    ArrayDecl {
        /// The array.
        var: VarRef,
        /// Initialised elements: (row-major index, value of the element type), in source order.
        elems: Vec<(BigInt, IExpr)>,
        /// The other elements.
        fill: Fill,
    },
}

impl IExpr {
    /// Whether the expression reads or writes `v` (iteratively: expressions nest deeply).
    pub fn mentions(&self, v: VarRef) -> bool {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            if e.variable() == Some(v) {
                return true;
            }
            stack.extend(e.operands());
        }
        false
    }

    /// The variable this node itself reads or writes (not its operands'): of `x`, `x++`,
    /// `x = e`, an element access or update, an array's declaration.
    pub fn variable(&self) -> Option<VarRef> {
        match &self.kind {
            IExprKind::Var(v)
            | IExprKind::PostIncDec(v, _)
            | IExprKind::Assign(v, _)
            | IExprKind::Elem(v, _)
            | IExprKind::SetElem { var: v, .. }
            | IExprKind::ArrayDecl { var: v, .. } => Some(*v),
            _ => None,
        }
    }

    /// The direct operands, in evaluation order: the one place that knows the shape of every
    /// kind, for walks over expressions.
    pub fn operands(&self) -> Vec<&IExpr> {
        match &self.kind {
            IExprKind::Const(_)
            | IExprKind::Var(_)
            | IExprKind::Nondet(_)
            | IExprKind::PostIncDec(..)
            | IExprKind::Current => vec![],
            IExprKind::Arith(_, a, b)
            | IExprKind::Cmp(_, a, b)
            | IExprKind::Logic(_, a, b)
            | IExprKind::Comma(a, b) => vec![a, b],
            IExprKind::Not(a)
            | IExprKind::Neg(a)
            | IExprKind::BitNot(a)
            | IExprKind::Convert(a)
            | IExprKind::Assign(_, a) => vec![a],
            IExprKind::Call(_, args) | IExprKind::Elem(_, args) => args.iter().collect(),
            IExprKind::SetElem { index, value, .. } => {
                index.iter().chain(std::iter::once(&**value)).collect()
            }
            IExprKind::ArrayDecl { elems, .. } => elems.iter().map(|(_, v)| v).collect(),
            IExprKind::Cond(c, a, b) => vec![c, a, b],
        }
    }

    /// [`IExpr::operands`], to rewrite them.
    pub fn operands_mut(&mut self) -> Vec<&mut IExpr> {
        match &mut self.kind {
            IExprKind::Const(_)
            | IExprKind::Var(_)
            | IExprKind::Nondet(_)
            | IExprKind::PostIncDec(..)
            | IExprKind::Current => vec![],
            IExprKind::Arith(_, a, b)
            | IExprKind::Cmp(_, a, b)
            | IExprKind::Logic(_, a, b)
            | IExprKind::Comma(a, b) => vec![a, b],
            IExprKind::Not(a)
            | IExprKind::Neg(a)
            | IExprKind::BitNot(a)
            | IExprKind::Convert(a)
            | IExprKind::Assign(_, a) => vec![a],
            IExprKind::Call(_, args) | IExprKind::Elem(_, args) => args.iter_mut().collect(),
            IExprKind::SetElem { index, value, .. } => {
                let mut out: Vec<&mut IExpr> = index.iter_mut().collect();
                out.push(value);
                out
            }
            IExprKind::ArrayDecl { elems, .. } => elems.iter_mut().map(|(_, v)| v).collect(),
            IExprKind::Cond(c, a, b) => vec![c, a, b],
        }
    }
}

/// A resolved statement.
#[derive(Clone, Debug)]
pub struct IStmt {
    /// What it is.
    pub kind: IStmtKind,
    /// Where.
    pub span: Span,
}

/// The kinds of resolved statement.
#[derive(Clone, Debug)]
pub enum IStmtKind {
    /// An expression evaluated for its effects.
    Expr(IExpr),
    /// A local declaration: with an initialiser, or any value of its type.
    Init(VarRef, Option<IExpr>),
    /// `if`
    If(IExpr, Vec<IStmt>, Vec<IStmt>),
    /// Every loop: `while (cond) { body; step }`; `do_while` skips the first test.
    Loop {
        /// The condition (`None`: always true).
        cond: Option<IExpr>,
        /// The body.
        body: Vec<IStmt>,
        /// A `for` loop's step (run after the body and on `continue`).
        step: Option<IExpr>,
        /// Whether the first test is skipped.
        do_while: bool,
    },
    /// A nested block.
    Block(Vec<IStmt>),
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `return` (value converted to the return type).
    Return(Option<IExpr>),
    /// `reach_error()`, `__VERIFIER_error()`, `__assert_fail(...)`: the error location.
    Error,
    /// `__VERIFIER_assert(c)`, `assert(c)`: the error if `c` is zero.
    Assert(IExpr),
    /// `__VERIFIER_assume(c)`, `assume_abort_if_not(c)`: executions with `c` zero stop (no error).
    Assume(IExpr),
    /// `abort()`, `exit(...)`: the execution stops (no error).
    Abort,
    /// `goto`: to the label of [`Function::labels`](super::program::Function::labels) with this index.
    Goto(usize),
    /// A label (a named one, or a `case`/`default` of a switch) marking the next statement.
    Label(usize),
    /// `switch`: the controlling value (promoted) is in `var`, set just before; control goes to
    /// the label of the case equal to it, else to `default`, else past the body. `break` in
    /// the body leaves the switch; `continue` belongs to the enclosing loop.
    Switch {
        /// The variable holding the controlling value.
        var: VarRef,
        /// Each case's value (converted to the variable's type) and label, in source order.
        cases: Vec<(BigInt, usize)>,
        /// The label of `default`.
        default: Option<usize>,
        /// The body.
        body: Vec<IStmt>,
    },
    /// A POSIX-threads operation (`pthread_create`, `pthread_join`, `pthread_exit`,
    /// `pthread_mutex_lock`, `__VERIFIER_atomic_begin`, ...): only the concurrent encoding
    /// (`threads/`) and its scheduler (`interp/sched.rs`) give it a meaning.
    Thread(ThreadOp),
}

/// An operation on threads, mutexes or atomic sections (arguments already resolved: handles
/// and mutexes are variables, thread functions are function indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadOp {
    /// `pthread_create(&handle, 0, func, 0)`: starts a new thread running `func`; `handle`
    /// gets its identifier.
    Create {
        /// The `pthread_t` variable whose address is given.
        handle: VarRef,
        /// The thread function (an index into [`Program::functions`](super::program::Program::functions)).
        func: usize,
    },
    /// `pthread_join(handle, ...)`: blocks until the thread `handle` names has ended.
    Join(VarRef),
    /// `pthread_exit(...)`: the calling thread ends.
    Exit,
    /// `pthread_mutex_lock(&m)`: blocks until `m` is free (0), then holds it (1), in one step.
    Lock(VarRef),
    /// `__VERIFIER_atomic_begin()`: no other thread runs until the matching end.
    AtomicBegin,
    /// `__VERIFIER_atomic_end()`.
    AtomicEnd,
}

/// A label of a function: a named one, or the place of a `case`/`default`.
#[derive(Clone, Debug)]
pub struct Label {
    /// Its name (`case 3`, `default` for switch labels).
    pub name: String,
    /// Where it is defined.
    pub span: Span,
}

/// The names in scope at a loop statement or a label (where a loop head's invariant holds) and
/// the variable each denotes there (a local shadows a global; a static local is the global it
/// names).
#[derive(Clone, Debug)]
pub struct LoopScope {
    /// Byte offset of the loop statement (its keyword) or of the labelled statement's label.
    pub start: usize,
    /// Each visible name with its variable, sorted by name.
    pub names: Vec<(String, VarRef)>,
}

/// A nondet call site.
#[derive(Clone, Debug)]
pub struct NondetSite {
    /// The type of the value.
    pub ty: CType,
    /// Where.
    pub span: Span,
}

/// The addresses of one address-taken cell: `first .. first + len` (one per element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressRange {
    /// The cell (a global).
    pub global: usize,
    /// Its first address.
    pub first: u64,
    /// Its number of addresses (1 for a scalar).
    pub len: u64,
}

/// Marks every function that calls a marked one, directly or through other calls (`callees[f]`
/// lists the functions `f` calls): the property spreads up the call graph.
pub fn mark_callers(marked: &mut [bool], callees: &[Vec<usize>]) {
    let mut changed = true;
    while changed {
        changed = false;
        for (f, calls) in callees.iter().enumerate() {
            if !marked[f] && calls.iter().any(|&c| marked[c]) {
                marked[f] = true;
                changed = true;
            }
        }
    }
}
