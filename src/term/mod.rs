//! Terms: sorts, hash-consed terms in an explicit [`TermStore`], substitution, free variables,
//! light simplification, ground evaluation, SMT-LIB printing, datatype declarations, and
//! snapshots that move terms between stores (and threads).
//!
//! This is the bottom layer: it uses no other module of the crate. There is no global term
//! factory: every term lives in the store that made it, and a [`TermId`] is meaningful only with
//! that store; a store stays on its thread, and [`Exported`] snapshots carry terms to another
//! store ([`TermStore::export`], [`TermStore::import`]). Terms are quantifier-free except for
//! [`Term::Quant`], which only models read from other solvers contain.

mod arith;
mod datatype;
mod eval;
pub(crate) mod print;
mod sort;
mod store;
mod subst;
mod transfer;

pub use datatype::{Constructor, CtorId, Datatype, DatatypeId, DatatypeSort};
pub use eval::{EvalError, Value};
pub use print::TermPrinter;
pub use sort::Sort;
pub use store::TermStore;
pub use transfer::{Exported, Imported, TransferError, VarMap};

use num_bigint::BigInt;
use num_rational::BigRational;

/// A variable, owned by a [`TermStore`] (which knows its name and sort).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// A hash-consed term in a [`TermStore`]: equal ids mean structurally equal terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

/// The operators of the term language (the SMT-LIB core, arithmetic and array theories).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Boolean negation.
    Not,
    /// n-ary conjunction (n ≥ 2 after simplification).
    And,
    /// n-ary disjunction.
    Or,
    /// Binary implication.
    Implies,
    /// Binary exclusive or.
    Xor,
    /// `(ite c t e)`.
    Ite,
    /// Binary equality (of any sort).
    Eq,
    /// n-ary pairwise distinctness.
    Distinct,
    /// n-ary addition.
    Add,
    /// Binary subtraction.
    Sub,
    /// Unary minus.
    Neg,
    /// n-ary multiplication.
    Mul,
    /// Real division `/`.
    RealDiv,
    /// Integer division `div` (SMT-LIB: Euclidean).
    IntDiv,
    /// Integer remainder `mod` (SMT-LIB: non-negative).
    Mod,
    /// Absolute value.
    Abs,
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// Int to Real.
    ToReal,
    /// Real to Int (floor).
    ToInt,
    /// Whether a real is an integer.
    IsInt,
    /// `(select a i)`.
    Select,
    /// `(store a i v)`.
    Store,
    /// `((as const (Array I E)) v)`: the constant array of the given sort.
    ConstArray(Sort),
    /// A datatype constructor applied to its fields.
    Ctor(CtorId),
    /// A selector: field `.1` of constructor `.0`.
    Selector(CtorId, u32),
    /// A tester `(_ is C)`.
    Tester(CtorId),
    /// The size of a value of the datatype: 0 for a constructor without a field of the same
    /// datatype, else 1 plus the sizes of those fields (a list's length, a unary natural
    /// number's value, a binary tree's count of inner nodes). Never negative. Printed as a
    /// call of the recursive function [`TermStore::size_definition`] defines.
    Size(DatatypeId),
}

/// Quantifier kinds (only in models read from other solvers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantifier {
    /// Universal.
    Forall,
    /// Existential.
    Exists,
}

/// The shape of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A variable.
    Var(VarId),
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal.
    Int(BigInt),
    /// A real literal.
    Real(BigRational),
    /// An operator applied to arguments.
    App(Op, Box<[TermId]>),
    /// A quantified formula; the bound variables are fresh in the store.
    Quant(Quantifier, Box<[VarId]>, TermId),
}
