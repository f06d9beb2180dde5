//! Sorts of terms: `Bool`, `Int`, `Real`, `(Array S T)` and declared datatypes.
//!
//! Sorts are plain values compared structurally; they know nothing about terms. A datatype sort
//! names a declaration of the store that made it (see `datatype.rs`).

use super::datatype::DatatypeSort;
use std::fmt;

/// The sort (type) of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Mathematical integers.
    Int,
    /// Mathematical reals.
    Real,
    /// Total maps from the first sort to the second.
    Array(Box<Sort>, Box<Sort>),
    /// An algebraic datatype declared in the store.
    Datatype(DatatypeSort),
}

impl Sort {
    /// The array sort from `index` to `elem`.
    pub fn array(index: Sort, elem: Sort) -> Sort {
        Sort::Array(Box::new(index), Box::new(elem))
    }

    /// Whether the sort is `Int` or `Real`.
    pub fn is_arith(&self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::Array(i, e) => write!(f, "(Array {i} {e})"),
            Sort::Datatype(d) => f.write_str(&super::print::symbol(&d.name)),
        }
    }
}
