//! The little preprocessing SV-COMP tasks need, before and after lexing: comments become
//! spaces; `#include`, `#pragma`, `#line` and line markers are blanked; object-like
//! `#define NAME tokens` (with `\` line continuations) and `#undef NAME` take effect from their
//! line on, and macros are expanded as C says: the expansion is rescanned, but a macro is never
//! expanded again inside its own expansion (so `#define X X+1` and `#define A B` with
//! `#define B A` terminate), and the whole expansion has a size budget proportional to the
//! input (a body repeating another macro eight times, seventeen levels deep, would be 8^17
//! tokens). Byte offsets of the source are kept throughout.
//!
//! Must not: interpret declarations or statements. Other directives (`#if`, function-like
//! macros) are errors.

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::lexer::{lex_raw, Spanned, Tok};
use std::collections::{HashMap, HashSet};

/// Tokens (and macro-body tokens entered) macro expansion may produce besides
/// [`EXPANSION_PER_TOKEN`] per token of the source.
pub const EXPANSION_BASE: usize = 1_000_000;

/// Expansion budget per token of the source (after blanking directives).
pub const EXPANSION_PER_TOKEN: usize = 16;

/// A `#define` or `#undef`, in source order.
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
    /// `#define NAME body`: the body's text and the byte offset where it starts.
    Define(String, String, usize),
    /// `#undef NAME`.
    Undef(String),
}

/// Blanks comments and preprocessor lines (keeping byte offsets and newlines) and collects the
/// macro directives in order.
pub fn preprocess(src: &str) -> Result<(String, Vec<Directive>), CError> {
    let src = &strip_comments(src)?;
    let mut out = String::with_capacity(src.len());
    let mut directives = vec![];
    let mut offset = 0;
    let mut lines = src.split_inclusive('\n').peekable();
    while let Some(first) = lines.next() {
        let trimmed = first.trim_start();
        let Some(rest) = trimmed.strip_prefix('#') else {
            out.push_str(first);
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
        match word.as_str() {
            "include" | "pragma" | "line" | "" => {}
            w if w.chars().all(|c| c.is_ascii_digit()) => {}
            "define" | "undef" => {
                let body = directive[word.len()..].trim_start();
                let name: String = body
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let after = &body[name.len()..];
                let malformed = name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit());
                if word == "undef" {
                    if malformed || !after.trim().is_empty() {
                        return Err(CError::new(
                            CErrorKind::Syntax,
                            Span::new(at, at + first.trim_end().len()),
                            "malformed #undef",
                        ));
                    }
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Undef(name),
                    });
                } else {
                    if malformed || after.starts_with('(') {
                        return Err(CError::new(
                            CErrorKind::Unsupported,
                            Span::new(at, at + first.trim_end().len()),
                            "function-like or malformed #define",
                        ));
                    }
                    let value_off = end - after.len();
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Define(name, after.trim_end().to_owned(), value_off),
                    });
                }
            }
            other => {
                return Err(CError::new(
                    CErrorKind::Unsupported,
                    Span::new(at, at + 1 + other.len()),
                    format!("preprocessor directive #{other}"),
                ))
            }
        }
        // Blank the directive, keeping newlines and byte offsets (a multi-byte character
        // becomes as many spaces as it has bytes).
        for c in full.chars() {
            if c == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
        offset = end;
    }
    Ok((out, directives))
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

/// Expands the object-like macros in `raw` (the tokens of the blanked source), each token with
/// the macros defined before it. Every token of an expansion gets the span of the macro use.
pub fn expand(raw: Vec<Spanned>, directives: &[Directive]) -> Result<Vec<Spanned>, CError> {
    let budget = EXPANSION_BASE + EXPANSION_PER_TOKEN * raw.len();
    let mut work = 0usize;
    let mut macros: HashMap<String, Vec<Tok>> = HashMap::new();
    let mut pending = directives.iter().peekable();
    let mut out = Vec::with_capacity(raw.len());
    for (s, t, e) in raw {
        while let Some(d) = pending.next_if(|d| d.at < s) {
            match &d.kind {
                DirectiveKind::Define(name, body, off) => {
                    let toks = lex_raw(body, *off)?.into_iter().map(|t| t.1).collect();
                    macros.insert(name.clone(), toks);
                }
                DirectiveKind::Undef(name) => {
                    macros.remove(name);
                }
            }
        }
        let Tok::Ident(name) = &t else {
            out.push((s, t, e));
            continue;
        };
        let Some((first, body)) = macros.get_key_value(name) else {
            out.push((s, t, e));
            continue;
        };
        // Depth-first over nested expansions with an explicit stack (a chain of macros naming
        // each other may be as long as the file); the macros being expanded are disabled.
        let mut active: HashSet<&str> = HashSet::from([first.as_str()]);
        let mut stack: Vec<(&str, &[Tok], usize)> = vec![(first.as_str(), body.as_slice(), 0)];
        while let Some((m, toks, pos)) = stack.last_mut() {
            let Some(tok) = toks.get(*pos) else {
                active.remove(*m);
                stack.pop();
                continue;
            };
            *pos += 1;
            work += 1;
            if work > budget {
                return Err(CError::new(
                    CErrorKind::Limit,
                    Span::new(s, e),
                    format!(
                        "macro expansion too large (more than {budget} tokens; `{name}` is \
                         expanded here)"
                    ),
                ));
            }
            if let Tok::Ident(n) = tok {
                if let Some((k, b)) = macros.get_key_value(n) {
                    if active.insert(k.as_str()) {
                        stack.push((k.as_str(), b.as_slice(), 0));
                        continue;
                    }
                }
            }
            out.push((s, tok.clone(), e));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn texts(src: &str) -> Result<Vec<String>, CError> {
        Ok(tokenize(src)?
            .into_iter()
            .map(|t| t.1.text().to_owned())
            .collect())
    }

    #[test]
    fn a_macro_is_not_expanded_inside_its_own_expansion() {
        let t = texts("#define X X + 1\n#define A B\n#define B A\nX A B").expect("expands");
        assert_eq!(t, ["X", "+", "1", "A", "B"]);
    }

    #[test]
    fn definitions_apply_from_their_line_on() {
        let t = texts("N\n#define N 1\nN\n#undef N\nN\n#define N 2 \\\n + 3\nN").expect("expands");
        assert_eq!(t, ["N", "1", "N", "2", "+", "3"]);
    }

    #[test]
    fn a_long_chain_of_macros_expands_without_recursion() {
        // Run on a small stack: the expansion must not recurse per macro.
        let mut src = String::from("#define A0 7\n");
        for i in 1..20_000 {
            src.push_str(&format!("#define A{i} A{}\n", i - 1));
        }
        src.push_str("A19999\n");
        let t = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || texts(&src))
            .expect("thread")
            .join()
            .expect("no overflow")
            .expect("expands");
        assert_eq!(t, ["7"]);
    }

    #[test]
    fn expansion_stops_at_its_budget_even_when_it_produces_nothing() {
        // Empty bodies produce no token, but entering 8^17 of them is work all the same.
        let mut src = String::from("#define A0\n");
        for i in 1..18 {
            let body = vec![format!("A{}", i - 1); 8].join(" ");
            src.push_str(&format!("#define A{i} {body}\n"));
        }
        src.push_str("int A17 x;\n");
        let e = texts(&src).expect_err("too large");
        assert_eq!(e.kind, CErrorKind::Limit);
        assert!(e.message.starts_with("macro expansion too large"), "{e:?}");
    }
}
