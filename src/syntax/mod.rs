//! The SMT-LIB front-end: runs the lexer and the lalrpop grammar, type-checks, and lowers
//! scripts to CHC systems and models to [`Definition`]s. Errors carry spans, rendered as
//! `FILE:LINE:COL: what`.
//!
//! This layer turns text into `chc` values; it must not solve anything.

pub mod ast;
pub mod derivation;
pub mod error;
mod input;
pub mod lexer;
mod lower;
pub mod parse;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused)]
    pub(crate) grammar,
    "/smtlib.rs"
);

pub use error::{Error, ErrorKind};
pub use input::{read_text, read_text_capped, InputCap};

use crate::chc::System;
use crate::term::TermStore;

/// Parses and lowers a CHC-COMP script into a system over `store`.
pub fn read_system(store: &TermStore, src: &str) -> Result<System, Error> {
    read_script(store, src).map(|s| s.system)
}

/// Parses and lowers a script (SMT-LIB with `check-sat`, or Z3's fixedpoint format with
/// `query`) into its clause system and what it asks.
pub fn read_script(store: &TermStore, src: &str) -> Result<Script, Error> {
    let commands = parse::parse_script(src).map_err(syntax)?;
    lower::lower_script(store, &commands, src.len())
}

/// A lowered script: its clauses and the question it asks of them.
#[derive(Clone, Debug)]
pub struct Script {
    /// The clauses; the question is always whether they have a model.
    pub system: System,
    /// How the script asked, which fixes how the answer is worded.
    pub question: Question,
    /// `(get-model)` follows the question: print the model after the answer.
    pub get_model: bool,
    /// Where the system's predicates and clauses stand in the text.
    pub spans: SourceSpans,
}

/// Where a script's predicates and clauses stand in its text (byte offsets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceSpans {
    /// Per predicate (by `PredId`): its name in the declaration.
    pub preds: Vec<ast::Span>,
    /// Per clause (by `ClauseId`): the assertion (`assert`, `rule`, `query`) it comes from;
    /// one assertion may give several clauses.
    pub clauses: Vec<ast::Span>,
}

/// How a script asks whether its clauses have a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// SMT-LIB `(check-sat)`: `sat` means the clauses have a model (the query is unreachable).
    CheckSat,
    /// Z3's fixedpoint `(query q)`: `sat` means `q` is derivable, i.e. the clauses have no
    /// model (the opposite wording of [`Question::CheckSat`], as Z3 prints it).
    Query,
}

/// Parses the definitions of a model (ours, Z3's `define-fun` list or a CHC-COMP `(model
/// ...)` block) for `system`: one per predicate it defines, in the order given (helper
/// definitions of other names are expanded). `witness::read_model` makes them a model.
pub fn read_definitions(
    store: &TermStore,
    system: &System,
    src: &str,
) -> Result<Vec<Definition>, Error> {
    let defs = parse::parse_model(src).map_err(syntax)?;
    lower::lower_model(store, system, &defs)
}

/// A predicate's definition read from a model: `pred(params) = body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The predicate defined.
    pub pred: crate::chc::PredId,
    /// One variable per argument, in order.
    pub params: Vec<crate::term::VarId>,
    /// A Boolean term over `params`.
    pub body: crate::term::TermId,
}

fn syntax(e: parse::SyntaxError) -> Error {
    Error::at(ErrorKind::Syntax, e.span, e.message)
}

/// The path that names standard input in every command (`hornbeam solve -`).
pub const STDIN: &str = "-";

/// How messages name an input: `<stdin>` for [`STDIN`], else the path as given.
pub fn display_name(path: &std::path::Path) -> String {
    match path.as_os_str() == STDIN {
        true => "<stdin>".to_owned(),
        false => path.display().to_string(),
    }
}
