//! Runs the lexer and the lalrpop grammar over a C translation unit; every failure becomes a
//! [`CError`] with a span. Must not interpret the AST.

use super::ast::{Item, Span};
use super::error::{CError, CErrorKind};
use super::grammar;
use super::lexer::{tokenize, Tok};
use lalrpop_util::ParseError;

/// Parses a whole translation unit.
pub fn parse_unit(src: &str) -> Result<Vec<Item>, CError> {
    let toks = tokenize(src)?;
    let end = src.len();
    let stream = toks.into_iter().map(Ok::<_, ()>);
    grammar::UnitParser::new()
        .parse(stream)
        .map_err(|e| convert(e, end))
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(n) | Tok::TypeName(n) => format!("`{n}`"),
        Tok::Int(n) | Tok::Float(n) | Tok::Char(n) => format!("`{n}`"),
        Tok::Str(_) => "a string literal".to_owned(),
        other => format!("`{}`", format!("{other:?}").to_lowercase()),
    }
}

fn convert(e: ParseError<usize, Tok, ()>, end: usize) -> CError {
    match e {
        ParseError::UnrecognizedToken {
            token: (l, t, r), ..
        } => {
            let msg = match &t {
                Tok::Float(_) => {
                    return CError::unsupported(Span::new(l, r), "floating-point numbers")
                }
                _ => format!("syntax error: unexpected {}", describe(&t)),
            };
            CError::new(CErrorKind::Syntax, Span::new(l, r), msg)
        }
        ParseError::ExtraToken { token: (l, t, r) } => CError::new(
            CErrorKind::Syntax,
            Span::new(l, r),
            format!("syntax error: unexpected {}", describe(&t)),
        ),
        ParseError::UnrecognizedEof { location, .. } => CError::new(
            CErrorKind::Syntax,
            Span::new(location.min(end), end),
            "syntax error: unexpected end of input",
        ),
        ParseError::InvalidToken { location } => CError::new(
            CErrorKind::Syntax,
            Span::new(location, location + 1),
            "syntax error: invalid token",
        ),
        ParseError::User { .. } => CError::new(CErrorKind::Syntax, Span::new(0, 0), "syntax error"),
    }
}
