//! Public entry points of the front-end: parse a script or a solver model into the AST,
//! turning every lexer/parser failure into a human-readable [`SyntaxError`] with a span.
//!
//! It must never panic on any input, and must not interpret the AST (no lowering here).

use crate::syntax::ast::{Command, FunDef, Span};
use crate::syntax::grammar;
use crate::syntax::lexer::{abbreviate, LexError, Lexer, Tok};
use lalrpop_util::ParseError;

/// A syntax error: where it is and what is wrong, in plain words.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// Byte range of the offending text (empty at the end of input for truncated input).
    pub span: Span,
    /// Human-readable description, e.g. "unexpected `)`, expected a term".
    pub message: String,
}

impl SyntaxError {
    /// Formats the error as `line:column: message` for the given source.
    pub fn located(&self, src: &str) -> String {
        let (line, col) = line_col(src, self.span.start);
        format!("{line}:{col}: {}", self.message)
    }
}

/// Parses a whole SMT-LIB v2 script into its commands.
pub fn parse_script(src: &str) -> Result<Vec<Command>, SyntaxError> {
    grammar::ScriptParser::new()
        .parse(src, Lexer::new(src))
        .map_err(|e| convert(src, e))
}

/// Parses a model as printed by solvers: an optional leading `sat`, then either
/// `(model (define-fun ...)*)`, `( (define-fun ...)* )`, or a bare sequence of
/// `(define-fun ...)`. Returns the definitions in order.
pub fn parse_model(src: &str) -> Result<Vec<FunDef>, SyntaxError> {
    grammar::ModelParser::new()
        .parse(src, Lexer::new(src))
        .map_err(|e| convert(src, e))
}

/// The 1-based line and column of byte `offset` in `src`; the column counts characters.
/// Offsets past the end are clamped to the end, offsets inside a character to its start.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// The starts of a text's lines, for many [`line_col`] lookups (a position per clause or per
/// edge): each costs a binary search and the length of its line, not a scan from the start.
pub struct LineIndex<'a> {
    src: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The index of `src`.
    pub fn new(src: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { src, starts }
    }

    /// What [`line_col`] gives for `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.src.len());
        while !self.src.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        (line, self.src[start..offset].chars().count() + 1)
    }
}

fn convert(src: &str, err: ParseError<usize, Tok, LexError>) -> SyntaxError {
    match err {
        ParseError::User { error } => SyntaxError {
            span: error.span,
            message: error.message,
        },
        ParseError::InvalidToken { location } => {
            let len = src
                .get(location..)
                .and_then(|s| s.chars().next())
                .map_or(0, char::len_utf8);
            SyntaxError {
                span: Span::new(location, location + len),
                message: "invalid token".to_owned(),
            }
        }
        ParseError::UnrecognizedEof { expected, .. } => {
            let end = src.len();
            let message = if expected.iter().any(|e| terminal_name(e) == ")") {
                match innermost_unclosed(src) {
                    Some(open) => {
                        let (line, col) = line_col(src, open);
                        format!(
                            "unexpected end of input: missing `)` to close the `(` at line {line}, column {col}"
                        )
                    }
                    None => "unexpected end of input: missing `)`".to_owned(),
                }
            } else {
                format!(
                    "unexpected end of input, expected {}",
                    expected_phrase(&expected, is_command_head(src, end))
                )
            };
            SyntaxError {
                span: Span::new(end, end),
                message,
            }
        }
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => {
            let found = token_phrase(src, l, &tok, r);
            let message = if expected.is_empty() {
                format!("unexpected {found}, expected the end of the input")
            } else {
                format!(
                    "unexpected {found}, expected {}",
                    expected_phrase(&expected, is_command_head(src, l))
                )
            };
            SyntaxError {
                span: Span::new(l, r),
                message,
            }
        }
        ParseError::ExtraToken { token: (l, tok, r) } => SyntaxError {
            span: Span::new(l, r),
            message: format!(
                "unexpected {} after the end of the input",
                token_phrase(src, l, &tok, r)
            ),
        },
    }
}

/// Position of the innermost `(` left open at the end of `src` (only called on EOF errors,
/// so the whole input lexes without error up to the end).
fn innermost_unclosed(src: &str) -> Option<usize> {
    let mut stack = Vec::new();
    for (l, tok, _) in Lexer::new(src).map_while(Result::ok) {
        match tok {
            Tok::LParen => stack.push(l),
            Tok::RParen => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.pop()
}

/// Whether the token starting at byte `at` (or the end of input) directly follows a `(` that
/// opens a top-level command.
fn is_command_head(src: &str, at: usize) -> bool {
    let mut depth = 0usize;
    let mut after_top_open = false;
    for (l, tok, _) in Lexer::new(src).map_while(Result::ok) {
        if l >= at {
            break;
        }
        after_top_open = false;
        match tok {
            Tok::LParen => {
                depth += 1;
                after_top_open = depth == 1;
            }
            Tok::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    after_top_open
}

fn token_phrase(src: &str, l: usize, tok: &Tok, r: usize) -> String {
    let text = abbreviate(src.get(l..r).unwrap_or(""));
    match tok {
        Tok::LParen => "`(`".to_owned(),
        Tok::RParen => "`)`".to_owned(),
        Tok::Numeral(_) => format!("numeral `{text}`"),
        Tok::Decimal(_) => format!("decimal `{text}`"),
        Tok::Hex(_) | Tok::Binary(_) => format!("literal `{text}`"),
        Tok::Str(_) => format!("string literal {text}"),
        Tok::Keyword(_) => format!("keyword `{text}`"),
        Tok::Symbol(_) => format!("symbol `{text}`"),
        other => match other.reserved_text() {
            Some(w) => format!("`{w}`"),
            None => format!("`{text}`"),
        },
    }
}

/// lalrpop lists expected terminals as Rust string literals, e.g. `"\"(\""`.
fn terminal_name(quoted: &str) -> &str {
    quoted
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(quoted)
}

const COMMAND_WORDS: &[&str] = &[
    "set-logic",
    "set-info",
    "set-option",
    "declare-fun",
    "declare-const",
    "define-fun",
    "define-fun-rec",
    "declare-datatypes",
    "declare-datatype",
    "declare-sort",
    "assert",
    "check-sat",
    "get-model",
    "exit",
    "declare-rel",
    "declare-var",
    "rule",
    "query",
];

/// Describes a set of expected terminals in words ("a term", "`)`", "a sort or `)`", ...).
/// `command_head` tells that the position is right after a command's opening `(`.
fn expected_phrase(expected: &[String], command_head: bool) -> String {
    let names: Vec<&str> = expected.iter().map(|e| terminal_name(e)).collect();
    let has = |n: &str| names.contains(&n);
    let lits = ["numeral", "decimal", "hex", "binary", "string"];
    let has_lit = lits.iter().any(|l| has(l));
    let has_sym = has("symbol") || COMMAND_WORDS.iter().any(|w| has(w));
    let mut parts: Vec<String> = Vec::new();
    let mut covered: Vec<&str> = Vec::new();

    if has_lit && has_sym && has("(") {
        parts.push(if has("keyword") {
            "an s-expression".to_owned()
        } else {
            "a term".to_owned()
        });
        covered.extend(lits);
        covered.extend([
            "symbol", "(", "keyword", "let", "forall", "exists", "!", "_", "as", "match",
        ]);
    } else if has_sym && has("(") && !has_lit {
        parts.push("a sort".to_owned());
        covered.extend(["symbol", "("]);
    } else if has("numeral") && has_sym && !has("(") {
        parts.push("an index (numeral or symbol)".to_owned());
        covered.extend(["numeral", "symbol"]);
    } else if has_sym && has("(") {
        parts.push("a symbol".to_owned());
        covered.push("symbol");
    }
    let mut sym_done = covered.contains(&"symbol");
    for n in &names {
        if covered.contains(n) {
            continue;
        }
        if COMMAND_WORDS.contains(n) || *n == "symbol" {
            if !has("symbol") {
                parts.push(format!("`{n}`"));
            } else if !sym_done {
                parts.push(if command_head {
                    "a command name".to_owned()
                } else {
                    "a symbol".to_owned()
                });
                sym_done = true;
            }
            continue;
        }
        let phrase = match *n {
            "numeral" => "a numeral".to_owned(),
            "decimal" => "a decimal".to_owned(),
            "hex" | "binary" => "a literal".to_owned(),
            "string" => "a string literal".to_owned(),
            "keyword" => "an attribute (`:keyword`)".to_owned(),
            other => format!("`{other}`"),
        };
        if !parts.contains(&phrase) {
            parts.push(phrase);
        }
    }
    match parts.len() {
        0 => "something else".to_owned(),
        1 => parts.pop().unwrap_or_default(),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} or {last}", parts.join(", "))
        }
    }
}
