//! Tokeniser of the C subset, used by the lalrpop grammar `grammar/c.lalrpop` as its external
//! lexer, plus the little preprocessing SV-COMP tasks need.
//!
//! Duty: turn source text into tokens with byte spans; skip comments; blank out `#include`,
//! line markers and `#pragma`; expand object-like `#define NAME tokens` macros; drop GCC
//! decorations (`__attribute__((...))`, `__extension__`, `__restrict`, ...); mark names declared
//! by `typedef` as type names (the usual "lexer hack"). Must not: interpret declarations or
//! statements, or evaluate anything. Other directives (`#if`, function-like macros) are errors.

use super::ast::Span;
use super::error::{CError, CErrorKind};
use logos::Logos;
use std::collections::{HashMap, HashSet};

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

/// A token with its byte span.
pub type Spanned = (usize, Tok, usize);

/// Decorations dropped from the token stream (GCC extensions that carry no meaning here).
const DROPPED: &[&str] = &["__extension__", "__restrict", "restrict", "__restrict__"];

/// Blanks preprocessor lines (keeping byte offsets) and collects object-like macros.
/// Object-like macros: name → (replacement text, its byte offset).
type Macros = HashMap<String, (String, usize)>;

fn preprocess(src: &str) -> Result<(String, Macros), CError> {
    let src = &strip_comments(src)?;
    let mut out = String::with_capacity(src.len());
    let mut macros = HashMap::new();
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('#') {
            let directive = rest.trim_start();
            let word: String = directive
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let at = offset + (line.len() - trimmed.len());
            match word.as_str() {
                "include" | "pragma" | "line" | "" => {}
                w if w.chars().all(|c| c.is_ascii_digit()) => {}
                "define" => {
                    let body = directive["define".len()..].trim_start();
                    let name: String = body
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let after = &body[name.len()..];
                    if name.is_empty() || after.starts_with('(') {
                        return Err(CError::new(
                            CErrorKind::Unsupported,
                            Span::new(at, at + line.trim_end().len()),
                            "function-like or malformed #define",
                        ));
                    }
                    let value_off = offset + (line.len() - after.len());
                    macros.insert(name, (after.trim_end().to_owned(), value_off));
                }
                "undef" => {}
                other => {
                    return Err(CError::new(
                        CErrorKind::Unsupported,
                        Span::new(at, at + 1 + other.len()),
                        format!("preprocessor directive #{other}"),
                    ))
                }
            }
            for c in line.chars() {
                out.push(if c == '\n' { '\n' } else { ' ' });
            }
            // Keep byte offsets: pad multi-byte characters.
            let pushed = line.chars().count();
            for _ in pushed..line.len() {
                out.push(' ');
            }
        } else {
            out.push_str(line);
        }
        offset += line.len();
    }
    Ok((out, macros))
}

/// Replaces comments by spaces (newlines kept), leaving string and character literals alone.
fn strip_comments(src: &str) -> Result<String, CError> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                loop {
                    if i + 1 >= b.len() {
                        return Err(CError::new(
                            CErrorKind::Syntax,
                            Span::new(start, start + 2),
                            "unterminated comment",
                        ));
                    }
                    if b[i] == b'*' && b[i + 1] == b'/' {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
                for (k, byte) in out.iter_mut().enumerate().take(i).skip(start) {
                    if b[k] != b'\n' {
                        *byte = b' ';
                    }
                }
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, except inside multi-byte characters of
    // comments; those become spaces too, so the result is valid UTF-8.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn lex_raw(src: &str, base: usize) -> Result<Vec<Spanned>, CError> {
    let mut toks = Vec::new();
    let mut lex = Tok::lexer(src);
    while let Some(res) = lex.next() {
        let r = lex.span();
        let span = Span::new(base + r.start, base + r.end);
        match res {
            Ok(t) => toks.push((span.start, t, span.end)),
            Err(()) => {
                let c = lex.slice().chars().next().unwrap_or(' ');
                return Err(CError::new(
                    CErrorKind::Syntax,
                    span,
                    format!("invalid character `{c}`"),
                ));
            }
        }
    }
    Ok(toks)
}

/// Tokenises a whole translation unit (see the module header for what is done besides).
pub fn tokenize(src: &str) -> Result<Vec<Spanned>, CError> {
    let (text, macros) = preprocess(src)?;
    let raw = lex_raw(&text, 0)?;
    let mut expanded_macros: HashMap<String, Vec<Tok>> = HashMap::new();
    for (name, (value, off)) in &macros {
        let toks = lex_raw(value, *off)?;
        expanded_macros.insert(name.clone(), toks.into_iter().map(|t| t.1).collect());
    }
    // Macro expansion (object-like, expanded repeatedly up to a bound).
    let mut toks: Vec<Spanned> = Vec::with_capacity(raw.len());
    for (s, t, e) in raw {
        expand(&expanded_macros, (s, t, e), &mut toks, 0);
    }
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

fn expand(macros: &HashMap<String, Vec<Tok>>, tok: Spanned, out: &mut Vec<Spanned>, depth: usize) {
    if let Tok::Ident(n) = &tok.1 {
        if depth < 16 {
            if let Some(body) = macros.get(n) {
                for t in body {
                    expand(macros, (tok.0, t.clone(), tok.2), out, depth + 1);
                }
                return;
            }
        }
    }
    out.push(tok);
}

/// Turns identifiers declared by `typedef` into [`Tok::TypeName`] from their declaration on.
fn mark_typedefs(toks: &mut [Spanned]) {
    let mut names: HashSet<String> = HashSet::new();
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
                    toks[k].1 = Tok::TypeName(n.clone());
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
