//! Hints: candidate invariants a rule file proposes for the engines, through an agreed relation:
//! for a clause system `hint(p: number, atom: symbol)`, `atom` an SMT-LIB formula over the
//! arguments of predicate `p` (the `p` of `pred`), named `x0`, `x1`, ... in order; for a C
//! program `loop_hint(f: number, l: number, atom: symbol)`, `atom` an SMT-LIB formula over the C
//! names of the variables at location `l` of function `f` (a `loop_head`).
//!
//! Clause-level advice: `drop_clause(c: number)` says clause `c` (the `c` of `clause`) may be
//! left out, for instance because it lies outside the cone of influence; the engines solve the
//! system without it, and a model is still checked against it.
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

/// The name of the agreed relation for C programs.
pub const LOOP_HINT: &str = "loop_hint";

/// The agreed columns of [`LOOP_HINT`].
pub const LOOP_HINT_COLUMNS: [(&str, ColumnType); 3] = [
    ("f", ColumnType::Number),
    ("l", ColumnType::Number),
    ("atom", ColumnType::Symbol),
];

/// The loop hints among `derived` as `(function, location, atom)` (none if no relation is
/// named [`LOOP_HINT`]), in the relation's order.
pub fn loop_hints(derived: &[Derived]) -> Vec<(usize, u32, String)> {
    let Some(rel) = derived.iter().find(|d| d.name == LOOP_HINT) else {
        return Vec::new();
    };
    rel.rows
        .iter()
        .filter_map(|r| Some((r[0].parse().ok()?, r[1].parse().ok()?, r[2].clone())))
        .collect()
}

/// The name of the agreed relation of clause-level advice.
pub const DROP_CLAUSE: &str = "drop_clause";

/// The agreed columns of [`DROP_CLAUSE`].
pub const DROP_CLAUSE_COLUMNS: [(&str, ColumnType); 1] = [("c", ColumnType::Number)];

/// The clauses among `derived` advised to be left out (none if no relation is named
/// [`DROP_CLAUSE`]), sorted, without repeats.
pub fn drop_clauses(derived: &[Derived]) -> Vec<u32> {
    let Some(rel) = derived.iter().find(|d| d.name == DROP_CLAUSE) else {
        return Vec::new();
    };
    let mut out: Vec<u32> = rel.rows.iter().filter_map(|r| r[0].parse().ok()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

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
