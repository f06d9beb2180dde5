//! Errors of reading input: I/O, encoding, syntax, sorts, unknown names, unsupported features and
//! non-Horn assertions, each (except I/O) with a source span.

use super::ast::Span;
use super::parse::line_col;

/// What kind of problem the input has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Not well-formed SMT-LIB text.
    Syntax,
    /// Ill-sorted term or wrong arity.
    Sort,
    /// An unknown symbol or sort.
    Unknown,
    /// A feature outside what Hornbeam handles (datatypes, bit-vectors, uninterpreted functions).
    Unsupported,
    /// An assertion that is not a Horn clause.
    NotHorn,
    /// Something required is missing (e.g. `check-sat`).
    Missing,
}

/// A failure to read an input file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The input's text (after decompression) is longer than the cap
    /// ([`super::input::InputCap`]).
    #[error("the input is larger than {} MB", .limit >> 20)]
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// A problem at a place in the input.
    #[error("{message}")]
    At {
        /// The kind of problem.
        kind: ErrorKind,
        /// Where.
        span: Span,
        /// What, for a human.
        message: String,
    },
}

impl Error {
    /// A located error.
    pub fn at(kind: ErrorKind, span: Span, message: impl Into<String>) -> Self {
        Error::At {
            kind,
            span,
            message: message.into(),
        }
    }

    /// `FILE:LINE:COL: message` (an I/O error is placed at `1:1`: the file as a whole).
    pub fn render(&self, file: &str, src: &str) -> String {
        match self {
            Error::Io { source, .. } => format!("{file}:1:1: cannot read the file: {source}"),
            Error::TooLarge { limit } => format!(
                "{file}:1:1: the input is larger than {} MB (after decompression); \
                 HORNBEAM_MAX_INPUT_MB raises the cap",
                limit >> 20
            ),
            Error::At {
                kind,
                span,
                message,
            } => {
                let (line, col) = line_col(src, span.start.min(src.len()));
                let prefix = match kind {
                    ErrorKind::Unsupported => "unsupported: ",
                    ErrorKind::NotHorn => "not a Horn clause: ",
                    _ => "",
                };
                format!("{file}:{line}:{col}: {prefix}{message}")
            }
        }
    }
}
