//! The preprocessing SV-COMP tasks need, before and after lexing, keeping the byte offsets of
//! the source throughout (every directive and skipped line becomes as many spaces, newlines
//! kept): comments become spaces; `#include` of a standard header (never read: an include of
//! any other header is an error), `#pragma`, `#line`, `#ident`, `#warning` and line markers are
//! blanked; conditional groups (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`,
//! `#endif`, nested) keep the lines of the group taken and blank the others, whose directives
//! count only for nesting; `#if` expressions are expanded and evaluated by [`cond`]; `#error`
//! in a group taken is an error; `#define` (object-like and function-like, parsed by
//! [`define`], with `\` line continuations) and `#undef` take effect from their line on, and
//! [`macros`] expands them as C says: arguments are expanded before substitution, `#` and `##`
//! apply, the expansion is rescanned, a macro is never expanded again inside its own expansion
//! (so `#define X X+1` and `#define A B` with `#define B A` terminate), and the whole expansion
//! has a size budget proportional to the input (a body repeating another macro eight times,
//! seventeen levels deep, would be 8^17 tokens). The tokens of an expansion get the span of the
//! macro's use, from its name to its closing parenthesis.
//!
//! Must not: interpret declarations or statements. Other directives are errors, and so is what
//! C makes one (unbalanced `#endif`, `#else` after `#else`, a wrong number of arguments, a
//! division by zero in `#if`), each located in the source; no input makes it panic or hang.

pub mod cond;
pub mod define;
pub mod macros;

/// The headers `#include` may name: the C standard library's, the POSIX ones SV-COMP
/// programs include, and the verifier builtins of Forester's and SV-COMP's tasks. They are
/// not read (the subset knows the names it needs); any other header is an error.
const STANDARD_HEADERS: &[&str] = &[
    "assert.h",
    "complex.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "iso646.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdalign.h",
    "stdarg.h",
    "stdatomic.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "stdnoreturn.h",
    "string.h",
    "tgmath.h",
    "threads.h",
    "time.h",
    "uchar.h",
    "wchar.h",
    "wctype.h",
    "pthread.h",
    "unistd.h",
    "strings.h",
    "alloca.h",
    "malloc.h",
    "sched.h",
    "semaphore.h",
    "sys/types.h",
    "sys/time.h",
    "verifier-builtins.h",
];

/// The header an `#include`'s arguments name: `"name"` or `<name>`.
fn header_name(args: &str) -> Option<&str> {
    let args = args.trim();
    let (open, close) = match args.chars().next()? {
        '"' => ('"', '"'),
        '<' => ('<', '>'),
        _ => return None,
    };
    let rest = args.strip_prefix(open)?;
    let end = rest.find(close)?;
    rest[end + 1..]
        .trim()
        .is_empty()
        .then(|| rest[..end].trim())
}

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::lexer::Spanned;
use define::Macro;
use macros::{Expander, Input, PTok};
use std::rc::Rc;

/// Tokens (and macro-body tokens entered) macro expansion may produce besides
/// [`EXPANSION_PER_TOKEN`] per token of the source; `#if` expressions have another such budget
/// together.
pub const EXPANSION_BASE: usize = 1_000_000;

/// Expansion budget per token of the source (after blanking directives).
pub const EXPANSION_PER_TOKEN: usize = 16;

/// A `#define` or `#undef` of a group taken, in source order.
#[derive(Clone, Debug)]
pub struct Directive {
    /// Where the directive's `#` is: it affects the tokens after it.
    pub at: usize,
    /// What it does.
    pub kind: DirectiveKind,
}

/// What a directive does to the macro table.
#[derive(Clone, Debug)]
pub enum DirectiveKind {
    /// `#define NAME body` or `#define NAME(params) body`.
    Define(String, Rc<Macro>),
    /// `#undef NAME`.
    Undef(String),
}

/// A conditional group being read: `#if` ... `#endif`.
struct Group {
    /// Where its `#if` is (for an unterminated group).
    at: Span,
    /// Whether the lines now are kept (the enclosing group is, and this branch is taken).
    live: bool,
    /// Whether the enclosing group is kept.
    outer_live: bool,
    /// Whether a branch was taken already (the later ones are not).
    taken: bool,
    /// Whether `#else` was seen.
    seen_else: bool,
}

/// Blanks comments, preprocessor lines and the lines of conditional groups not taken (keeping
/// byte offsets and newlines) and collects the macro directives of the groups taken, in order.
pub fn preprocess(src: &str) -> Result<(String, Vec<Directive>), CError> {
    let src = &strip_comments(src)?;
    let mut out = String::with_capacity(src.len());
    let mut directives = vec![];
    let mut groups: Vec<Group> = vec![];
    // The macros defined so far, for `#if`.
    let mut table = Expander::new(EXPANSION_BASE);
    let mut offset = 0;
    let mut lines = src.split_inclusive('\n').peekable();
    while let Some(first) = lines.next() {
        let live = groups.last().is_none_or(|g| g.live);
        let trimmed = first.trim_start();
        let Some(rest) = trimmed.strip_prefix('#') else {
            if live {
                out.push_str(first);
            } else {
                blank(&mut out, first);
            }
            offset += first.len();
            continue;
        };
        // The directive and its continuation lines (each ending in `\`), as one stretch of the
        // source with the continuations blanked (same length, so offsets stay exact).
        let mut end = offset + first.len();
        while continues(&src[offset..end]) {
            let Some(next) = lines.next() else { break };
            end += next.len();
        }
        let full = &src[offset..end];
        let joined = full.replace("\\\r\n", "   ").replace("\\\n", "  ");
        let directive = joined[first.len() - rest.len()..].trim_start();
        let word: String = directive
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let at = offset + (first.len() - trimmed.len());
        let line = Span::new(at, at + first.trim_end().len());
        let word_span = Span::new(at, offset + joined.len() - directive.len() + word.len());
        // What follows the directive's name, and where it starts in the source.
        let args = &directive[word.len()..];
        let args_off = end - args.len();
        let misplaced = |what: &str| CError::new(CErrorKind::Syntax, word_span, what);
        match word.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let taken = live && test(&mut table, &word, args, args_off, line)?;
                groups.push(Group {
                    at: word_span,
                    live: taken,
                    outer_live: live,
                    taken,
                    seen_else: false,
                });
            }
            "elif" => {
                let g = groups
                    .last()
                    .ok_or_else(|| misplaced("#elif without #if"))?;
                if g.seen_else {
                    return Err(misplaced("#elif after #else"));
                }
                let taken =
                    g.outer_live && !g.taken && test(&mut table, "if", args, args_off, line)?;
                if let Some(g) = groups.last_mut() {
                    g.live = taken;
                    g.taken |= taken;
                }
            }
            "else" => {
                let g = groups
                    .last_mut()
                    .ok_or_else(|| misplaced("#else without #if"))?;
                if g.seen_else {
                    return Err(misplaced("#else after #else"));
                }
                g.seen_else = true;
                g.live = g.outer_live && !g.taken;
                g.taken = true;
            }
            "endif" => {
                groups
                    .pop()
                    .ok_or_else(|| misplaced("#endif without #if"))?;
            }
            _ if !live => {}
            "include" => {
                // The headers are never read: only the standard ones are known, and the few
                // names of theirs the subset knows are defined here (unless the program
                // defined them). Any other header would be ignored, and a program read
                // without it answered: that is an error instead.
                let name = header_name(args).ok_or_else(|| {
                    CError::new(
                        CErrorKind::Syntax,
                        line,
                        "#include expects \"FILE\" or <FILE>",
                    )
                })?;
                if !STANDARD_HEADERS.contains(&name) {
                    return Err(CError::new(
                        CErrorKind::Unsupported,
                        line,
                        format!(
                            "#include of `{name}`: only the standard headers are known \
                             (headers are not read; preprocess the program first, e.g. with `cc -E`)"
                        ),
                    ));
                }
                let header = |h: &str| name == h;
                let mut names: Vec<(&str, &str)> = vec![];
                if header("stdbool.h") {
                    names.extend([("bool", " _Bool"), ("true", " 1"), ("false", " 0")]);
                }
                if header("stdlib.h") {
                    names.extend([("EXIT_SUCCESS", " 0"), ("EXIT_FAILURE", " 1")]);
                }
                for (name, body) in names {
                    if table.macros.contains_key(name) {
                        continue;
                    }
                    let m = Rc::new(Macro::parse(body, at, line)?);
                    table.macros.insert(name.to_owned(), m.clone());
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Define(name.to_owned(), m),
                    });
                }
            }
            "pragma" | "line" | "ident" | "warning" | "" => {}
            w if w.chars().all(|c| c.is_ascii_digit()) => {}
            "error" => {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    line,
                    format!("#error{}", args.trim_end()),
                ))
            }
            "define" | "undef" => {
                let body = args.trim_start();
                let name: String = body
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let after = &body[name.len()..];
                let malformed = name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit());
                if word == "undef" {
                    if malformed || !after.trim().is_empty() {
                        return Err(CError::new(CErrorKind::Syntax, line, "malformed #undef"));
                    }
                    table.macros.remove(&name);
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Undef(name),
                    });
                } else {
                    if malformed {
                        return Err(CError::new(CErrorKind::Syntax, line, "malformed #define"));
                    }
                    let m = Rc::new(Macro::parse(after, end - after.len(), line)?);
                    table.macros.insert(name.clone(), m.clone());
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Define(name, m),
                    });
                }
            }
            other => {
                return Err(CError::new(
                    CErrorKind::Unsupported,
                    word_span,
                    format!("preprocessor directive #{other}"),
                ))
            }
        }
        blank(&mut out, full);
        offset = end;
    }
    if let Some(g) = groups.last() {
        return Err(CError::new(
            CErrorKind::Syntax,
            g.at,
            "unterminated conditional (no #endif)",
        ));
    }
    Ok((out, directives))
}

/// Appends `text` as spaces, keeping newlines and byte offsets (a multi-byte character becomes
/// as many spaces as it has bytes).
fn blank(out: &mut String, text: &str) {
    for c in text.chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
}

/// Whether the condition of `#if EXPR`, `#ifdef NAME` or `#ifndef NAME` holds (`args`, at byte
/// `off` of the source, is what follows the directive's name on `line`).
fn test(
    table: &mut Expander,
    word: &str,
    args: &str,
    off: usize,
    line: Span,
) -> Result<bool, CError> {
    if word != "if" {
        let name: String = args
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(CError::new(
                CErrorKind::Syntax,
                line,
                format!("#{word} without a macro name"),
            ));
        }
        return Ok(table.macros.contains_key(&name) == (word == "ifdef"));
    }
    let toks: Vec<PTok> = super::lexer::lex_raw(args, off)?
        .into_iter()
        .map(|(s, t, e)| PTok::new(t, (s, e)))
        .collect();
    if toks.is_empty() {
        return Err(CError::new(
            CErrorKind::Syntax,
            line,
            "#if without an expression",
        ));
    }
    let expanded = table.run_if(toks)?;
    let end = off + args.trim_end().len();
    cond::eval(&expanded, Span::new(end, end))
}

/// Whether a directive's text so far ends in a line continuation (`\` before the newline).
fn continues(text: &str) -> bool {
    text.ends_with('\n') && text.trim_end_matches(['\n', '\r']).ends_with('\\')
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

/// Expands the macros in `raw` (the tokens of the blanked source), each token with the macros
/// defined before it. Every token of an expansion gets the span from the macro's name to the
/// end of its use (its arguments' closing parenthesis).
pub fn expand(raw: Vec<Spanned>, directives: &[Directive]) -> Result<Vec<Spanned>, CError> {
    let budget = EXPANSION_BASE.saturating_add(EXPANSION_PER_TOKEN.saturating_mul(raw.len()));
    let toks = raw
        .into_iter()
        .map(|(s, t, e)| PTok::new(t, (s, e)))
        .collect();
    let out = Expander::new(budget).run(&mut Input::new(toks, directives), true)?;
    Ok(out
        .into_iter()
        .map(|t| (t.span.0, t.tok, t.span.1))
        .collect())
}

#[cfg(test)]
mod tests;
