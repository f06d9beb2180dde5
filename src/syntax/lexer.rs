//! Tokeniser for SMT-LIB v2 text, used by the lalrpop grammar as its external lexer.
//!
//! Its duty is to turn a `&str` into tokens with byte spans, skipping whitespace and
//! comments, and to report lexical problems as [`LexError`]s (never panicking). It must not
//! interpret tokens beyond that: no knowledge of terms, sorts or commands' arguments.
//! It also guards the parser against absurd nesting (see [`MAX_NESTING`]).

use crate::syntax::ast::Span;
use logos::Logos;
use std::fmt;

/// The deepest parenthesis nesting accepted. Deeper input is rejected with a [`LexError`],
/// so that later recursive passes over the AST (including its `Drop`) cannot overflow the stack.
pub const MAX_NESTING: usize = 2000;

/// A lexical error (or any error raised while tokenising/parsing that is not a grammar
/// mismatch), with a human-readable message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Where the offending text is.
    pub span: Span,
    /// What is wrong, e.g. "unterminated quoted symbol".
    pub message: String,
}

impl LexError {
    /// Builds an error from its span and message.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        LexError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LexError {}

/// The kinds of lexical error logos can report; turned into a [`LexError`] by [`Lexer`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum LexErrorKind {
    /// A character that cannot start any token.
    #[default]
    InvalidChar,
    /// A string literal without its closing quote.
    UnterminatedString,
    /// A quoted symbol without its closing bar.
    UnterminatedQuotedSymbol,
    /// A backslash inside a quoted symbol (forbidden by SMT-LIB).
    BackslashInQuotedSymbol,
    /// Something starting with a digit that is neither a numeral nor a decimal, e.g. `1a`.
    InvalidNumber,
    /// `#` not followed by a valid hexadecimal or binary literal.
    InvalidHash,
}

fn lex_string(lex: &mut logos::Lexer<'_, Tok>) -> Result<String, LexErrorKind> {
    let rest = lex.remainder();
    let mut out = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '"' {
            if let Some(&(_, '"')) = chars.peek() {
                chars.next();
                out.push('"');
            } else {
                lex.bump(i + 1);
                return Ok(out);
            }
        } else {
            out.push(c);
        }
    }
    lex.bump(rest.len());
    Err(LexErrorKind::UnterminatedString)
}

fn lex_quoted(lex: &mut logos::Lexer<'_, Tok>) -> Result<String, LexErrorKind> {
    let rest = lex.remainder();
    match rest.find(['|', '\\']) {
        Some(i) if rest.as_bytes()[i] == b'|' => {
            lex.bump(i + 1);
            Ok(rest[..i].to_owned())
        }
        Some(i) => {
            lex.bump(i + 1);
            Err(LexErrorKind::BackslashInQuotedSymbol)
        }
        None => {
            lex.bump(rest.len());
            Err(LexErrorKind::UnterminatedQuotedSymbol)
        }
    }
}

fn text(lex: &mut logos::Lexer<'_, Tok>) -> String {
    lex.slice().to_owned()
}

fn after_prefix(lex: &mut logos::Lexer<'_, Tok>) -> String {
    lex.slice()[2..].to_owned()
}

fn bad_number(_: &mut logos::Lexer<'_, Tok>) -> Result<(), LexErrorKind> {
    Err(LexErrorKind::InvalidNumber)
}

fn bad_hash(_: &mut logos::Lexer<'_, Tok>) -> Result<(), LexErrorKind> {
    Err(LexErrorKind::InvalidHash)
}

/// A token of SMT-LIB v2. Payloads are owned strings (numerals can be arbitrarily large).
#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(error = LexErrorKind)]
#[logos(skip r"[ \t\r\n\x0C\u{FEFF}]+")]
#[logos(skip r";[^\n]*")]
pub enum Tok {
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// A numeral, text verbatim.
    #[regex(r"[0-9]+", text, priority = 5)]
    Numeral(String),
    /// A decimal, text verbatim.
    #[regex(r"[0-9]+\.[0-9]+", text, priority = 5)]
    Decimal(String),
    /// `#x...`: the digits only.
    #[regex(r"#x[0-9a-fA-F]+", after_prefix)]
    Hex(String),
    /// `#b...`: the digits only.
    #[regex(r"#b[01]+", after_prefix)]
    Binary(String),
    /// A string literal: its unescaped content.
    #[token("\"", lex_string)]
    Str(String),
    /// A keyword, including its colon.
    #[regex(r"[:][a-zA-Z0-9~!@$%^&*_+=<>.?/\-]+", text)]
    Keyword(String),
    /// A simple symbol (text verbatim) or a quoted one (content without bars).
    #[regex(r"[a-zA-Z~!@$%^&*_+=<>.?/\-][a-zA-Z0-9~!@$%^&*_+=<>.?/\-]*", text)]
    #[token("|", lex_quoted)]
    Symbol(String),

    /// Reserved word `let`.
    #[token("let")]
    Let,
    /// Reserved word `forall`.
    #[token("forall")]
    Forall,
    /// Reserved word `exists`.
    #[token("exists")]
    Exists,
    /// Reserved word `!`.
    #[token("!", priority = 10)]
    Bang,
    /// Reserved word `_`.
    #[token("_", priority = 10)]
    Underscore,
    /// Reserved word `as`.
    #[token("as")]
    As,
    /// Reserved word `match`.
    #[token("match")]
    Match,

    /// Command name `set-logic`.
    #[token("set-logic")]
    SetLogic,
    /// Command name `set-info`.
    #[token("set-info")]
    SetInfo,
    /// Command name `set-option`.
    #[token("set-option")]
    SetOption,
    /// Command name `declare-fun`.
    #[token("declare-fun")]
    DeclareFun,
    /// Command name `declare-const`.
    #[token("declare-const")]
    DeclareConst,
    /// Command name `define-fun`.
    #[token("define-fun")]
    DefineFun,
    /// Command name `define-fun-rec` (read in models: the size functions of datatypes).
    #[token("define-fun-rec")]
    DefineFunRec,
    /// Command name `declare-datatypes`.
    #[token("declare-datatypes")]
    DeclareDatatypes,
    /// Command name `declare-datatype`.
    #[token("declare-datatype")]
    DeclareDatatype,
    /// Command name `declare-sort`.
    #[token("declare-sort")]
    DeclareSort,
    /// Command name `assert`.
    #[token("assert")]
    Assert,
    /// Command name `check-sat`.
    #[token("check-sat")]
    CheckSat,
    /// Command name `get-model`.
    #[token("get-model")]
    GetModel,
    /// Command name `exit`.
    #[token("exit")]
    Exit,
    /// Command name `declare-rel` (Z3's fixedpoint format).
    #[token("declare-rel")]
    DeclareRel,
    /// Command name `declare-var` (Z3's fixedpoint format).
    #[token("declare-var")]
    DeclareVar,
    /// Command name `rule` (Z3's fixedpoint format).
    #[token("rule")]
    Rule,
    /// Command name `query` (Z3's fixedpoint format).
    #[token("query")]
    Query,

    /// Never produced: catches `1a`, `1.` and the like to report them as one error.
    #[regex(r"[0-9][0-9a-zA-Z~!@$%^&*_+=<>.?/\-]*", bad_number, priority = 1)]
    BadNumber,
    /// Never produced: catches `#` not followed by a valid literal.
    #[regex(r"#[a-zA-Z0-9]*", bad_hash, priority = 1)]
    BadHash,
}

impl Tok {
    /// The command or reserved word this token stands for, if it is one.
    pub fn reserved_text(&self) -> Option<&'static str> {
        Some(match self {
            Tok::Let => "let",
            Tok::Forall => "forall",
            Tok::Exists => "exists",
            Tok::Bang => "!",
            Tok::Underscore => "_",
            Tok::As => "as",
            Tok::Match => "match",
            Tok::SetLogic => "set-logic",
            Tok::SetInfo => "set-info",
            Tok::SetOption => "set-option",
            Tok::DeclareFun => "declare-fun",
            Tok::DeclareConst => "declare-const",
            Tok::DefineFun => "define-fun",
            Tok::DefineFunRec => "define-fun-rec",
            Tok::DeclareDatatypes => "declare-datatypes",
            Tok::DeclareDatatype => "declare-datatype",
            Tok::DeclareSort => "declare-sort",
            Tok::Assert => "assert",
            Tok::CheckSat => "check-sat",
            Tok::GetModel => "get-model",
            Tok::Exit => "exit",
            Tok::DeclareRel => "declare-rel",
            Tok::DeclareVar => "declare-var",
            Tok::Rule => "rule",
            Tok::Query => "query",
            _ => return None,
        })
    }
}

/// The token stream handed to the parser: `(start, token, end)` triples or a [`LexError`].
/// After the first error it yields nothing more.
pub struct Lexer<'src> {
    inner: logos::Lexer<'src, Tok>,
    depth: usize,
    failed: bool,
}

impl<'src> Lexer<'src> {
    /// Starts tokenising `src`.
    pub fn new(src: &'src str) -> Self {
        Lexer {
            inner: Tok::lexer(src),
            depth: 0,
            failed: false,
        }
    }
}

fn describe(kind: &LexErrorKind, slice: &str) -> String {
    match kind {
        LexErrorKind::InvalidChar => match slice.chars().next() {
            Some(c) if c.is_control() || c.is_whitespace() => {
                format!("invalid character U+{:04X}", c as u32)
            }
            Some(c) => format!("invalid character `{c}`"),
            None => "invalid character".to_owned(),
        },
        LexErrorKind::UnterminatedString => "unterminated string literal".to_owned(),
        LexErrorKind::UnterminatedQuotedSymbol => "unterminated quoted symbol".to_owned(),
        LexErrorKind::BackslashInQuotedSymbol => {
            "a quoted symbol may not contain a backslash".to_owned()
        }
        LexErrorKind::InvalidNumber => format!("invalid number `{}`", abbreviate(slice)),
        LexErrorKind::InvalidHash => format!(
            "invalid literal `{}`: expected `#x` followed by hex digits or `#b` followed by binary digits",
            abbreviate(slice)
        ),
    }
}

/// Shortens `s` to at most 40 characters for use in a message.
pub(crate) fn abbreviate(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<(usize, Tok, usize), LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let res = self.inner.next()?;
        let range = self.inner.span();
        let span = Span::new(range.start, range.end);
        match res {
            Ok(tok) => {
                match tok {
                    Tok::LParen => {
                        self.depth += 1;
                        if self.depth > MAX_NESTING {
                            self.failed = true;
                            return Some(Err(LexError::new(
                                span,
                                format!("parentheses nested too deeply (more than {MAX_NESTING} levels)"),
                            )));
                        }
                    }
                    Tok::RParen => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
                Some(Ok((span.start, tok, span.end)))
            }
            Err(kind) => {
                self.failed = true;
                let msg = describe(&kind, self.inner.slice());
                Some(Err(LexError::new(span, msg)))
            }
        }
    }
}
