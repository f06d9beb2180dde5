//! Errors of reading a C program: syntax, names, types and constructs outside the subset, each
//! with a source span, rendered as `FILE:LINE:COL: message`.
//!
//! Must not: decide anything about the program's meaning.

use super::ast::Span;

/// What kind of problem the program has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CErrorKind {
    /// Not well-formed C text.
    Syntax,
    /// An undeclared name, a redefinition, a wrong number of arguments.
    Name,
    /// A construct outside the subset Hornbeam handles (pointers, arrays, structs, floats, ...).
    Unsupported,
    /// An input beyond a limit of the implementation (macro expansion size, nesting depth).
    Limit,
}

/// A located error in a C program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CError {
    /// The kind of problem.
    pub kind: CErrorKind,
    /// Where.
    pub span: Span,
    /// What, for a human.
    pub message: String,
}

impl CError {
    /// A located error.
    pub fn new(kind: CErrorKind, span: Span, message: impl Into<String>) -> Self {
        CError {
            kind,
            span,
            message: message.into(),
        }
    }

    /// An unsupported construct.
    pub fn unsupported(span: Span, what: impl Into<String>) -> Self {
        CError::new(CErrorKind::Unsupported, span, what)
    }

    /// `what` (expressions, statements, declarators) nested beyond [`MAX_NESTING`] levels.
    ///
    /// [`MAX_NESTING`]: super::ast::MAX_NESTING
    pub fn too_deep(span: Span, what: &str) -> Self {
        CError::new(
            CErrorKind::Limit,
            span,
            format!(
                "{what} nested too deeply (more than {} levels)",
                super::ast::MAX_NESTING
            ),
        )
    }

    /// `FILE:LINE:COL: message` (with `unsupported: ` for constructs outside the subset).
    pub fn render(&self, file: &str, src: &str) -> String {
        let (line, col) = crate::syntax::parse::line_col(src, self.span.start.min(src.len()));
        let prefix = match self.kind {
            CErrorKind::Unsupported => "unsupported: ",
            _ => "",
        };
        format!("{file}:{line}:{col}: {prefix}{}", self.message)
    }
}
