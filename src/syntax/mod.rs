//! The SMT-LIB front-end: runs the lexer and the lalrpop grammar, type-checks, and lowers
//! scripts to CHC systems and models to [`Model`]s. Errors carry spans, rendered as
//! `FILE:LINE:COL: what`.
//!
//! This layer turns text into `chc` values; it must not solve anything.

pub mod ast;
pub mod error;
pub mod lexer;
mod lower;
pub mod parse;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused)]
    pub(crate) grammar,
    "/smtlib.rs"
);

pub use error::{Error, ErrorKind};

use crate::chc::System;
use crate::term::TermStore;
use crate::witness::Model;

/// Parses and lowers a CHC-COMP script into a system over `store`.
pub fn read_system(store: &TermStore, src: &str) -> Result<System, Error> {
    let commands = parse::parse_script(src).map_err(syntax)?;
    lower::lower_script(store, &commands, src.len())
}

/// Parses a model (ours, Z3's `define-fun` list or a CHC-COMP `(model ...)` block) for `system`.
pub fn read_model(store: &TermStore, system: &System, src: &str) -> Result<Model, Error> {
    let defs = parse::parse_model(src).map_err(syntax)?;
    lower::lower_model(store, system, &defs)
}

fn syntax(e: parse::SyntaxError) -> Error {
    Error::at(ErrorKind::Syntax, e.span, e.message)
}

/// Reads a file as UTF-8 text; a non-UTF-8 file is a syntax error at its first bad byte. A
/// leading byte-order mark is dropped (it is invisible, so columns are counted without it).
pub fn read_text(path: &std::path::Path) -> Result<String, (Error, String)> {
    let bytes = std::fs::read(path).map_err(|source| {
        (
            Error::Io {
                path: path.display().to_string(),
                source,
            },
            String::new(),
        )
    })?;
    let bytes = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
            Err((
                Error::at(
                    ErrorKind::Syntax,
                    ast::Span {
                        start: good,
                        end: good + 1,
                    },
                    "the input is not UTF-8 text",
                ),
                prefix,
            ))
        }
    }
}
