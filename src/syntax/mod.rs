//! The SMT-LIB front-end: runs the lexer and the lalrpop grammar, type-checks, and lowers
//! scripts to CHC systems and models to [`Definition`]s. Errors carry spans, rendered as
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

/// Reads an input as UTF-8 text: a file, or standard input for `-`; gzip-compressed input
/// (recognised by its magic bytes, whatever its name) is decompressed. A non-UTF-8 input is a
/// syntax error at its first bad byte. A leading byte-order mark is dropped (it is invisible,
/// so columns are counted without it).
pub fn read_text(path: &std::path::Path) -> Result<String, (Error, String)> {
    let io = |source| {
        (
            Error::Io {
                path: display_name(path),
                source,
            },
            String::new(),
        )
    };
    let bytes = match path.as_os_str() == STDIN {
        true => {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf).map(|_| buf)
        }
        false => std::fs::read(path),
    }
    .map_err(io)?;
    let bytes = match bytes.starts_with(&GZIP_MAGIC) {
        true => gunzip(&bytes).map_err(io)?,
        false => bytes,
    };
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

/// The first two bytes of every gzip stream (RFC 1952); no SMT-LIB or C text starts so.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Decompresses gzip data (also several concatenated members, as `gzip` writes them).
fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(bytes), &mut out)
        .map_err(|e| std::io::Error::new(e.kind(), format!("gzip: {e}")))?;
    Ok(out)
}
