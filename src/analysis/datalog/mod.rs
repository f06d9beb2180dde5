//! Rule files at run time: a user's Datalog rules, in a subset of Soufflé's language, evaluated
//! over the relations Hornbeam provides for a clause system or a C program.
//!
//! Duty: parse a rule file, check it against the provided relations ([`Table`]s: names, column
//! types) and evaluate it semi-naively on `datafrog`, stratum by stratum; every error in a rule
//! file is located (line:col) and says what is wrong. Must not read files, print, or know where
//! the provided relations come from.
//!
//! The subset (a file in it means the same to Soufflé, given the `.facts` files `hornbeam facts`
//! writes):
//!
//! ```text
//! .type Pred <: number                     // a named number or symbol type
//! .decl edge(p: Pred, q: number)           // number, unsigned (as number), symbol
//! .input edge                              // provided by Hornbeam, same column types
//! .decl path(p: number, q: number)
//! .output path                             // printed, or written to DIR/path.csv
//! path(p, q) :- edge(p, q).
//! path(p, r) :- path(p, q), edge(q, r).
//! far(p) :- pred(p, _), !path(0, p), p != 0.            // stratified negation
//! big(p, n) :- pred(p, _), n = count : { body_atom(_, _, p) }, n > 2.   // count, sum, min, max
//! next(c, i + 1) :- body_atom(c, i, _).    // arithmetic: + - * / % in heads and comparisons
//! label(p, cat(n, "/", to_string(a))) :- pred(p, a), pred_name(p, n).   // the two functors
//! ```
//!
//! Arguments of body atoms are variables, constants (`3`, `"name"`) and `_`; a variable of a
//! negation, comparison, aggregate value or head must be bound by a positive atom (or by an
//! equation `x = e` whose right side is bound). An aggregate ranges over one atom; its variables
//! that occur outside it group the tuples. Negation and aggregates must not go through
//! recursion. Not in the subset: functors but `cat` and `to_string`, records, disjunction, several heads, `eqrel`,
//! `.input`/`.output` options, `float`, the preprocessor.

mod ast;
mod check;
mod eval;
mod lex;
mod parse;
mod plan;

use super::{ColumnType, Table};
use std::cell::RefCell;
use std::collections::HashMap;

/// An error in a rule file: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct RuleError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl RuleError {
    fn at(src: &str, offset: usize, message: impl Into<String>) -> RuleError {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        RuleError {
            line,
            col: before[start..].chars().count() + 1,
            message: message.into(),
        }
    }

    /// `file:line:col: message`.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{}:{}: {}", self.line, self.col, self.message)
    }
}

/// Interned symbols: a symbol is its index.
#[derive(Clone, Debug, Default)]
struct Symbols {
    ids: HashMap<String, i64>,
    names: Vec<String>,
}

impl Symbols {
    fn intern(&mut self, s: &str) -> i64 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as i64;
        self.names.push(s.to_string());
        self.ids.insert(s.to_string(), id);
        id
    }
}

/// What an evaluation may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most tuples all relations may hold together (inputs included).
    pub max_tuples: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_tuples: 50_000_000,
        }
    }
}

/// A relation computed by a rule file, with its tuples printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The relation's name.
    pub name: String,
    /// Column names and types, as declared.
    pub columns: Vec<(String, ColumnType)>,
    /// The tuples, sorted (numbers by value, symbols by text).
    pub rows: Vec<Vec<String>>,
}

/// A rule file, checked against the relations it reads.
#[derive(Clone, Debug)]
pub struct Rules {
    src: String,
    checked: check::Checked,
}

impl Rules {
    /// Parses and checks `src` against `provided` (only their names and column types are read).
    pub fn parse(src: &str, provided: &[Table]) -> Result<Rules, RuleError> {
        let file = parse::parse(src)?;
        let checked = check::check(src, &file, provided)?;
        Ok(Rules {
            src: src.to_string(),
            checked,
        })
    }

    /// The names of the relations the file outputs (`.output`), in declaration order.
    pub fn outputs(&self) -> Vec<&str> {
        self.checked
            .relations
            .iter()
            .filter(|r| r.output)
            .map(|r| r.name.as_str())
            .collect()
    }

    /// An error about the tuples of `relation`, located at its declaration (a derived tuple has
    /// no place of its own); `None` if the file does not declare it.
    pub fn error_at(&self, relation: &str, message: impl Into<String>) -> Option<RuleError> {
        let r = self.checked.relations.iter().find(|r| r.name == relation)?;
        Some(RuleError::at(&self.src, r.at, message))
    }

    /// Evaluates the rules with the tuples of `provided` as input, within the default
    /// [`Limits`]; returns every relation, in declaration order (see [`Rules::outputs`] for the
    /// ones the file asks to see).
    pub fn evaluate(&self, provided: &[Table]) -> Result<Vec<Derived>, RuleError> {
        self.evaluate_within(provided, Limits::default())
    }

    /// [`Rules::evaluate`] within `limits`: a file whose relations grow past them (arithmetic
    /// in a recursive rule can derive without end) gets an error located at a rule of the
    /// stratum that grew.
    pub fn evaluate_within(
        &self,
        provided: &[Table],
        limits: Limits,
    ) -> Result<Vec<Derived>, RuleError> {
        let symbols = RefCell::new(self.checked.symbols.clone());
        let rels = &self.checked.relations;
        let mut contents: Vec<Vec<Vec<i64>>> = vec![Vec::new(); rels.len()];
        for (r, rel) in rels.iter().enumerate() {
            if !rel.input {
                continue;
            }
            let Some(t) = provided.iter().find(|t| t.name == rel.name) else {
                continue;
            };
            contents[r] = t
                .rows
                .iter()
                .map(|row| {
                    row.iter()
                        .zip(&rel.columns)
                        .map(|(cell, (_, ty))| match ty {
                            ColumnType::Number => cell.parse::<i64>().unwrap_or(0),
                            ColumnType::Symbol => symbols.borrow_mut().intern(cell),
                        })
                        .collect()
                })
                .collect();
        }
        eval::run(
            &self.src,
            &self.checked,
            &mut contents,
            &symbols,
            limits.max_tuples,
        )?;
        let symbols = symbols.into_inner();
        Ok(rels
            .iter()
            .zip(contents)
            .map(|(rel, rows)| {
                #[derive(PartialEq, Eq, PartialOrd, Ord)]
                enum Cell<'a> {
                    N(i64),
                    S(&'a str),
                }
                let mut typed: Vec<Vec<Cell>> = rows
                    .iter()
                    .map(|row| {
                        row.iter()
                            .zip(&rel.columns)
                            .map(|(&v, (_, ty))| match ty {
                                ColumnType::Number => Cell::N(v),
                                ColumnType::Symbol => Cell::S(&symbols.names[v as usize]),
                            })
                            .collect()
                    })
                    .collect();
                typed.sort();
                Derived {
                    name: rel.name.clone(),
                    columns: rel.columns.clone(),
                    rows: typed
                        .into_iter()
                        .map(|row| {
                            row.into_iter()
                                .map(|c| match c {
                                    Cell::N(v) => v.to_string(),
                                    Cell::S(s) => s.to_string(),
                                })
                                .collect()
                        })
                        .collect(),
                }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests;
