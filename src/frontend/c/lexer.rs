//! The tokens of the C subset and the raw lexer: text to tokens with byte spans, nothing
//! else. The preprocessor ([`super::preproc`]) lexes directives and macro bodies with it, and
//! [`super::tokenize`] runs the whole pipeline the lalrpop grammar `grammar/c.lalrpop` reads.
//!
//! Must not: preprocess, interpret declarations or statements, or evaluate anything.

use super::ast::Span;
use super::error::{CError, CErrorKind};
use logos::Logos;

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
