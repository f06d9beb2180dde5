//! Hints: candidate invariants a rule file proposes for the engines, through the agreed
//! relation `hint(p: number, atom: symbol)`: `atom` is an SMT-LIB formula over the arguments of
//! predicate `p` (the `p` of `pred`), named `x0`, `x1`, ... in order.
//!
//! A hint is only a candidate: the solver keeps the hints that are inductive together and
//! checks every answer as always, so a wrong hint costs time, never a wrong answer. Must not
//! read files, parse formulas (the front end reads the atoms against the system) or print.

use super::datalog::Derived;
use super::ColumnType;

/// The name of the agreed relation.
pub const HINT: &str = "hint";

/// The agreed columns of [`HINT`].
pub const HINT_COLUMNS: [(&str, ColumnType); 2] =
    [("p", ColumnType::Number), ("atom", ColumnType::Symbol)];

/// The name of argument `i` of a predicate in a hint's atom.
pub fn arg_name(i: usize) -> String {
    format!("x{i}")
}

/// The hints among `derived` as `(predicate id, atom)` (none if no relation is named
/// [`HINT`]), in the relation's order.
pub fn hints(derived: &[Derived]) -> Vec<(u32, String)> {
    let Some(rel) = derived.iter().find(|d| d.name == HINT) else {
        return Vec::new();
    };
    rel.rows
        .iter()
        .filter_map(|r| Some((r[0].parse().ok()?, r[1].clone())))
        .collect()
}
