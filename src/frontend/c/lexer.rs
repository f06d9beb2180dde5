//! Tokeniser of the C subset, used by the lalrpop grammar `grammar/c.lalrpop` as its external
//! lexer.
//!
//! Duty: turn source text into tokens with byte spans, after and around the preprocessing of
//! [`super::preproc`] (comments, directives, macro expansion); drop GCC decorations
//! (`__attribute__((...))`, `__extension__`, `__restrict`, ...); mark names declared by
//! `typedef` as type names (the usual "lexer hack"). Must not: interpret declarations or
//! statements, or evaluate anything.

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::preproc;
use logos::Logos;
use std::collections::HashSet;

/// A token of the C subset.
#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\x0C\x0B]+")]
#[logos(skip r"//[^\n]*")]
pub enum Tok {
    /// An identifier.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |l| l.slice().to_owned())]
    Ident(String),
    /// A name declared by `typedef` (produced by the filter, never by logos).
    TypeName(String),
    /// An integer literal, verbatim (decimal, octal or hex, with suffixes).
    #[regex(r"[0-9][0-9A-Za-z]*", |l| l.slice().to_owned())]
    Int(String),
    /// A floating-point literal (unsupported; lexed to report it clearly).
    #[regex(r"[0-9]*\.[0-9]+([eE][+-]?[0-9]+)?[fFlL]?", |l| l.slice().to_owned())]
    #[regex(r"[0-9]+\.([eE][+-]?[0-9]+)?[fFlL]?", |l| l.slice().to_owned())]
    Float(String),
    /// A character literal, verbatim with quotes.
    #[regex(r"'([^'\\\n]|\\[^\n])+'", |l| l.slice().to_owned())]
    Char(String),
    /// A string literal, verbatim.
    #[regex(r#""([^"\\\n]|\\[^\n])*""#, |l| l.slice().to_owned())]
    Str(String),

    #[token("int")]
    KwInt,
    #[token("unsigned")]
    KwUnsigned,
    #[token("signed")]
    #[token("__signed__")]
    KwSigned,
    #[token("long")]
    KwLong,
    #[token("short")]
    KwShort,
    #[token("char")]
    KwChar,
    #[token("_Bool")]
    KwBool,
    #[token("void")]
    KwVoid,
    #[token("float")]
    KwFloat,
    #[token("double")]
    KwDouble,
    #[token("const")]
    #[token("__const")]
    KwConst,
    #[token("volatile")]
    KwVolatile,
    #[token("static")]
    KwStatic,
    #[token("extern")]
    KwExtern,
    #[token("inline")]
    #[token("__inline")]
    #[token("__inline__")]
    KwInline,
    #[token("register")]
    KwRegister,
    #[token("typedef")]
    KwTypedef,
    #[token("struct")]
    KwStruct,
    #[token("union")]
    KwUnion,
    #[token("enum")]
    KwEnum,
    #[token("sizeof")]
    KwSizeof,
    #[token("__builtin_offsetof")]
    KwOffsetof,
    #[token("if")]
    KwIf,
    #[token("else")]
    KwElse,
    #[token("while")]
    KwWhile,
    #[token("for")]
    KwFor,
    #[token("do")]
    KwDo,
    #[token("break")]
    KwBreak,
    #[token("continue")]
    KwContinue,
    #[token("return")]
    KwReturn,
    #[token("goto")]
    KwGoto,
    #[token("switch")]
    KwSwitch,
    #[token("case")]
    KwCase,
    #[token("default")]
    KwDefault,

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("?")]
    Question,
    #[token(".")]
    Dot,
    #[token("...")]
    Ellipsis,
    #[token("->")]
    Arrow,
    #[token("=")]
    Assign,
    #[token("+=")]
    AddAssign,
    #[token("-=")]
    SubAssign,
    #[token("*=")]
    MulAssign,
    #[token("/=")]
    DivAssign,
    #[token("%=")]
    RemAssign,
    #[token("&=")]
    AndAssign,
    #[token("|=")]
    OrAssign,
    #[token("^=")]
    XorAssign,
    #[token("<<=")]
    ShlAssign,
    #[token(">>=")]
    ShrAssign,
    #[token("++")]
    Inc,
    #[token("--")]
    Dec,
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
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
}

impl Tok {
    /// The token as written in C (the first spelling, for keywords with several).
    pub fn text(&self) -> &str {
        match self {
            Tok::Ident(s)
            | Tok::TypeName(s)
            | Tok::Int(s)
            | Tok::Float(s)
            | Tok::Char(s)
            | Tok::Str(s) => s,
            Tok::KwInt => "int",
            Tok::KwUnsigned => "unsigned",
            Tok::KwSigned => "signed",
            Tok::KwLong => "long",
            Tok::KwShort => "short",
            Tok::KwChar => "char",
            Tok::KwBool => "_Bool",
            Tok::KwVoid => "void",
            Tok::KwFloat => "float",
            Tok::KwDouble => "double",
            Tok::KwConst => "const",
            Tok::KwVolatile => "volatile",
            Tok::KwStatic => "static",
            Tok::KwExtern => "extern",
            Tok::KwInline => "inline",
            Tok::KwRegister => "register",
            Tok::KwTypedef => "typedef",
            Tok::KwStruct => "struct",
            Tok::KwUnion => "union",
            Tok::KwEnum => "enum",
            Tok::KwSizeof => "sizeof",
            Tok::KwOffsetof => "__builtin_offsetof",
            Tok::KwIf => "if",
            Tok::KwElse => "else",
            Tok::KwWhile => "while",
            Tok::KwFor => "for",
            Tok::KwDo => "do",
            Tok::KwBreak => "break",
            Tok::KwContinue => "continue",
            Tok::KwReturn => "return",
            Tok::KwGoto => "goto",
            Tok::KwSwitch => "switch",
            Tok::KwCase => "case",
            Tok::KwDefault => "default",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBrack => "[",
            Tok::RBrack => "]",
            Tok::Semi => ";",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Question => "?",
            Tok::Dot => ".",
            Tok::Ellipsis => "...",
            Tok::Arrow => "->",
            Tok::Assign => "=",
            Tok::AddAssign => "+=",
            Tok::SubAssign => "-=",
            Tok::MulAssign => "*=",
            Tok::DivAssign => "/=",
            Tok::RemAssign => "%=",
            Tok::AndAssign => "&=",
            Tok::OrAssign => "|=",
            Tok::XorAssign => "^=",
            Tok::ShlAssign => "<<=",
            Tok::ShrAssign => ">>=",
            Tok::Inc => "++",
            Tok::Dec => "--",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Amp => "&",
            Tok::Pipe => "|",
            Tok::Caret => "^",
            Tok::Tilde => "~",
            Tok::Bang => "!",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::Ne => "!=",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
        }
    }
}

/// A token with its byte span.
pub type Spanned = (usize, Tok, usize);

/// Decorations dropped from the token stream (GCC extensions that carry no meaning here).
const DROPPED: &[&str] = &["__extension__", "__restrict", "restrict", "__restrict__"];

/// The tokens of `src`, whose byte offsets start at `base`.
pub(super) fn lex_raw(src: &str, base: usize) -> Result<Vec<Spanned>, CError> {
    let mut toks = Vec::new();
    let mut lex = Tok::lexer(src);
    while let Some(res) = lex.next() {
        let r = lex.span();
        let span = Span::new(base + r.start, base + r.end);
        match res {
            Ok(t) => toks.push((span.start, t, span.end)),
            Err(()) => {
                let c = lex.slice().chars().next().unwrap_or(' ');
                let what = match c {
                    '"' => "unterminated string literal".to_owned(),
                    '\'' => "unterminated or empty character literal".to_owned(),
                    c if c.is_control() || c.is_whitespace() => {
                        format!("invalid character U+{:04X}", u32::from(c))
                    }
                    c => format!("invalid character `{c}`"),
                };
                return Err(CError::new(CErrorKind::Syntax, span, what));
            }
        }
    }
    Ok(toks)
}

/// Tokenises a whole translation unit (see the module header for what is done besides).
pub fn tokenize(src: &str) -> Result<Vec<Spanned>, CError> {
    let (text, directives) = preproc::preprocess(src)?;
    let raw = lex_raw(&text, 0)?;
    let toks = preproc::expand(raw, &directives)?;
    // Drop GCC decorations.
    let mut out: Vec<Spanned> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].1 {
            Tok::Ident(n) if n == "__attribute__" || n == "__attribute" || n == "__asm__" => {
                i += 1;
                let mut depth = 0usize;
                while i < toks.len() {
                    match toks[i].1 {
                        Tok::LParen => depth += 1,
                        Tok::RParen => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ if depth == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
            }
            Tok::Ident(n) if DROPPED.contains(&n.as_str()) => i += 1,
            _ => {
                out.push(toks[i].clone());
                i += 1;
            }
        }
    }
    let mut out = skip_builtin_bodies(out);
    mark_typedefs(&mut out);
    Ok(out)
}

/// The type names of `<pthread.h>` known without the header (`#include` is blanked), unless
/// the program declares them itself.
pub const PTHREAD_TYPES: &[&str] = &[
    "pthread_t",
    "pthread_attr_t",
    "pthread_mutex_t",
    "pthread_mutexattr_t",
    "pthread_cond_t",
    "pthread_condattr_t",
];

/// The object-like macros of the system headers the tasks rely on, as `0` when the program
/// does not define them (only names macro expansion left behind get here): `NULL` and
/// `PTHREAD_MUTEX_INITIALIZER` (a free mutex is 0).
const ZERO_MACROS: &[&str] = &["NULL", "PTHREAD_MUTEX_INITIALIZER"];

/// Turns identifiers declared by `typedef` into [`Tok::TypeName`] from their declaration on.
fn mark_typedefs(toks: &mut [Spanned]) {
    let declared = typedef_declared(toks);
    let mut names: HashSet<String> = PTHREAD_TYPES
        .iter()
        .filter(|n| !declared.contains(**n))
        .map(|n| (*n).to_owned())
        .collect();
    for t in toks.iter_mut() {
        if matches!(&t.1, Tok::Ident(n) if ZERO_MACROS.contains(&n.as_str())) {
            t.1 = Tok::Int("0".to_owned());
        }
    }
    let mut i = 0;
    while i < toks.len() {
        if toks[i].1 == Tok::KwTypedef {
            // The declared name: the last identifier before the `;` at brace depth 0.
            let mut depth = 0i32;
            let mut j = i + 1;
            let mut last = None;
            while j < toks.len() {
                match &toks[j].1 {
                    Tok::LBrace => depth += 1,
                    Tok::RBrace => depth -= 1,
                    Tok::Semi if depth <= 0 => break,
                    Tok::Ident(n) if depth <= 0 && !names.contains(n) => last = Some(j),
                    Tok::Ident(n) if names.contains(n) => {
                        toks[j].1 = Tok::TypeName(n.clone());
                    }
                    _ => {}
                }
                j += 1;
            }
            if let Some(k) = last {
                if let Tok::Ident(n) = &toks[k].1 {
                    names.insert(n.clone());
                    // After `*` the name is a declarator (`typedef struct T {...} *P;`), and
                    // so before `[` (`typedef int buf[6];`).
                    let pointer = k > 0 && toks[k - 1].1 == Tok::Star;
                    let array = toks.get(k + 1).is_some_and(|t| t.1 == Tok::LBrack);
                    if !pointer && !array {
                        toks[k].1 = Tok::TypeName(n.clone());
                    }
                }
            }
            i = j;
            continue;
        }
        if let Tok::Ident(n) = &toks[i].1 {
            if names.contains(n) {
                toks[i].1 = Tok::TypeName(n.clone());
            }
        }
        i += 1;
    }
}

/// The identifiers that occur in a `typedef` declaration (before its `;`).
fn typedef_declared(toks: &[Spanned]) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut inside = false;
    for t in toks {
        match &t.1 {
            Tok::KwTypedef => inside = true,
            Tok::Semi => inside = false,
            Tok::Ident(n) if inside => {
                out.insert(n.clone());
            }
            _ => {}
        }
    }
    out
}

/// Replaces the body of `reach_error` by `{}`: it is a built-in (the error location), and
/// SV-COMP's bodies of it use GCC statement expressions outside the subset.
fn skip_builtin_bodies(toks: Vec<Spanned>) -> Vec<Spanned> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let is_def = matches!(&toks[i].1, Tok::Ident(n) if n == "reach_error")
            && matches!(toks.get(i + 1), Some((_, Tok::LParen, _)));
        if is_def {
            // name ( params ) {
            let mut j = i + 2;
            while j < toks.len() && toks[j].1 != Tok::RParen {
                j += 1;
            }
            if matches!(toks.get(j + 1), Some((_, Tok::LBrace, _))) {
                out.extend_from_slice(&toks[i..=j + 1]);
                let mut depth = 0usize;
                let mut k = j + 1;
                while k < toks.len() {
                    match toks[k].1 {
                        Tok::LBrace => depth += 1,
                        Tok::RBrace => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
                if k < toks.len() {
                    out.push(toks[k].clone());
                }
                i = k + 1;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}
