//! Tokens of a rule file (a Soufflé-compatible subset), with byte offsets.
//!
//! Duty: turn the text into tokens, skipping white space and comments, and report a character
//! that starts no token as a located error. Must not interpret the tokens.

use super::RuleError;
use logos::Logos;

/// One token.
#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub(super) enum Tok {
    /// `.decl`, `.input`, ...: the name after the dot.
    #[regex(r"\.[A-Za-z_]+", |lex| lex.slice()[1..].to_string())]
    Directive(String),
    /// A relation, type, variable or aggregate name.
    #[regex(r"[A-Za-z?][A-Za-z0-9_?]*|_[A-Za-z0-9_?]+", |lex| lex.slice().to_string())]
    Ident(String),
    /// `_`: an unnamed variable.
    #[token("_")]
    Wild,
    /// A decimal number (the sign is an operator).
    #[regex(r"[0-9]+", |lex| lex.slice().to_string())]
    Number(String),
    /// A string constant, without its quotes, escapes resolved.
    #[regex(r#""([^"\\\n]|\\[^\n])*""#, |lex| unescape(&lex.slice()[1..lex.slice().len() - 1]))]
    Str(String),
    #[token(".")]
    Dot,
    #[token(",")]
    Comma,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(":-")]
    Turnstile,
    #[token(":")]
    Colon,
    #[token("<:")]
    Subtype,
    #[token("!")]
    Not,
    #[token("=")]
    Eq,
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token(";")]
    Semicolon,
    #[token("|")]
    Bar,
    /// A line starting with `#` (the C preprocessor Soufflé runs first).
    #[regex(r"#[^\n]*")]
    Hash,
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The tokens of `src` with their start offsets, followed by nothing (the parser treats the
/// end as its own case).
pub(super) fn tokens(src: &str) -> Result<Vec<(Tok, usize)>, RuleError> {
    let mut out = Vec::new();
    let mut lex = Tok::lexer(src);
    while let Some(t) = lex.next() {
        let at = lex.span().start;
        match t {
            Ok(Tok::Hash) => {
                return Err(RuleError::at(
                    src,
                    at,
                    "preprocessor lines (`#include`, `#define`) are not supported: \
                     write the rules in one file",
                ))
            }
            Ok(t) => out.push((t, at)),
            Err(()) => {
                let rest = &src[at..];
                let message = if rest.starts_with("/*") {
                    "unterminated comment".to_string()
                } else if rest.starts_with('"') {
                    "unterminated string".to_string()
                } else {
                    format!(
                        "unexpected character `{}`",
                        rest.chars().next().unwrap_or(' ')
                    )
                };
                return Err(RuleError::at(src, at, message));
            }
        }
    }
    Ok(out)
}
