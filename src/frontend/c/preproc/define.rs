//! Macro definitions: the parameter list and replacement list of a `#define` parsed into
//! tokens, parameters, `#` and `##` (which the lexer has no tokens for), with C's constraints
//! checked; and what `#` (stringification) and `##` (token pasting) make of tokens.
//!
//! Must not: expand anything (see [`super::macros`]).

use super::super::ast::Span;
use super::super::error::{CError, CErrorKind};
use super::super::lexer::{lex_raw, Tok};

/// The name a token spells when it can name a macro (identifiers and keywords).
pub(super) fn ident_text(tok: &Tok) -> Option<&str> {
    match tok {
        Tok::Int(_) | Tok::Float(_) | Tok::Char(_) | Tok::Str(_) => None,
        t => {
            Some(t.text()).filter(|s| s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        }
    }
}

/// One piece of a macro body.
#[derive(Clone, Debug)]
pub(super) enum Part {
    /// A token copied as is.
    Tok(Tok),
    /// The parameter with this index: its argument, expanded unless next to `##`.
    Param(usize),
    /// `#` before the parameter with this index: its argument's spelling as a string literal.
    Stringify(usize),
    /// `##`: pastes the last token before it and the first after it into one.
    Paste,
}

/// A macro definition: object-like (no parameter list) or function-like.
#[derive(Debug)]
pub struct Macro {
    /// The parameter names of a function-like macro (the last is `__VA_ARGS__` when variadic).
    pub(super) params: Option<Vec<String>>,
    /// Whether the parameter list ends in `...`.
    pub(super) variadic: bool,
    /// The replacement list.
    pub(super) body: Vec<Part>,
}

impl Macro {
    /// Parses what follows the macro's name in `#define NAME...`: `text`, starting at byte
    /// `off` of the source. A `(` right after the name starts a parameter list. `at` is where
    /// errors about the definition as a whole point.
    pub(super) fn parse(text: &str, off: usize, at: Span) -> Result<Macro, CError> {
        let Some(list) = text.strip_prefix('(') else {
            let body = parse_body(text, off, None)?;
            return Ok(Macro {
                params: None,
                variadic: false,
                body,
            });
        };
        let Some(close) = list.find(')') else {
            return Err(CError::new(
                CErrorKind::Syntax,
                at,
                "missing `)` in macro parameter list",
            ));
        };
        let mut params: Vec<String> = vec![];
        let mut variadic = false;
        let toks = lex_raw(&list[..close], off + 1)?;
        for (i, (s, t, e)) in toks.iter().enumerate() {
            let want_name = i % 2 == 0;
            let bad = |what: &str| CError::new(CErrorKind::Syntax, Span::new(*s, *e), what);
            if variadic {
                return Err(bad("`...` must end the macro parameter list"));
            }
            match (want_name, t) {
                (true, Tok::Ellipsis) => {
                    variadic = true;
                    params.push("__VA_ARGS__".to_owned());
                }
                (true, t) => {
                    let Some(name) = ident_text(t).filter(|n| *n != "__VA_ARGS__") else {
                        return Err(bad("expected a parameter name"));
                    };
                    if params.iter().any(|p| p == name) {
                        return Err(bad("duplicate macro parameter"));
                    }
                    params.push(name.to_owned());
                }
                (false, Tok::Comma) => {}
                (false, _) => return Err(bad("expected `,` or `)` in macro parameter list")),
            }
        }
        if toks.len() % 2 == 0 && !toks.is_empty() {
            let (s, _, e) = toks[toks.len() - 1];
            return Err(CError::new(
                CErrorKind::Syntax,
                Span::new(s, e),
                "expected a parameter name after `,`",
            ));
        }
        let body_off = close + 2;
        let body = parse_body(&text[body_off..], off + body_off, Some(&params))?;
        Ok(Macro {
            params: Some(params),
            variadic,
            body,
        })
    }

    /// Whether the macro takes arguments.
    pub fn is_function_like(&self) -> bool {
        self.params.is_some()
    }
}

/// Splits a replacement list into parts: tokens, parameters, `#` and `##`.
fn parse_body(text: &str, off: usize, params: Option<&[String]>) -> Result<Vec<Part>, CError> {
    // `#` and `##` are not tokens of the lexer: cut the text at them (outside literals).
    let b = text.as_bytes();
    let mut pieces: Vec<(usize, usize)> = vec![]; // token stretches
    let mut hashes: Vec<(usize, bool)> = vec![]; // (position, is `##`), after pieces[k]
    let mut order: Vec<Result<usize, usize>> = vec![]; // Ok(piece) or Err(hash) in order
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'#' => {
                order.push(Ok(pieces.len()));
                pieces.push((start, i));
                let paste = b.get(i + 1) == Some(&b'#');
                order.push(Err(hashes.len()));
                hashes.push((i, paste));
                i += if paste { 2 } else { 1 };
                start = i;
            }
            _ => i += 1,
        }
    }
    order.push(Ok(pieces.len()));
    pieces.push((start, b.len().max(start)));
    let mut parts = vec![];
    // The spans of the parts, for errors about `#` and `##`.
    let mut spans = vec![];
    for o in order {
        match o {
            Ok(k) => {
                let (s, e) = pieces[k];
                for (ts, t, te) in lex_raw(&text[s..e], off + s)? {
                    let param = params.and_then(|ps| {
                        let name = ident_text(&t)?;
                        ps.iter().position(|p| p == name)
                    });
                    parts.push(param.map_or(Part::Tok(t), Part::Param));
                    spans.push(Span::new(ts, te));
                }
            }
            Err(k) => {
                let (p, paste) = hashes[k];
                parts.push(if paste {
                    Part::Paste
                } else {
                    Part::Stringify(0)
                });
                spans.push(Span::new(off + p, off + p + if paste { 2 } else { 1 }));
            }
        }
    }
    // `#` takes the parameter after it; `##` needs an operand on each side.
    let mut out: Vec<Part> = Vec::with_capacity(parts.len());
    let mut k = 0;
    while k < parts.len() {
        match parts[k] {
            Part::Stringify(_) => match (params, parts.get(k + 1)) {
                (Some(_), Some(Part::Param(p))) => {
                    out.push(Part::Stringify(*p));
                    k += 2;
                    continue;
                }
                (Some(_), _) => {
                    return Err(CError::new(
                        CErrorKind::Syntax,
                        spans[k],
                        "`#` is not followed by a macro parameter",
                    ))
                }
                (None, _) => {
                    return Err(CError::unsupported(spans[k], "`#` in an object-like macro"))
                }
            },
            Part::Paste if k == 0 || k + 1 == parts.len() => {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    spans[k],
                    "`##` cannot be at either end of a macro body",
                ))
            }
            Part::Paste if matches!(parts[k + 1], Part::Paste) => {
                return Err(CError::new(CErrorKind::Syntax, spans[k], "`##` after `##`"))
            }
            _ => out.push(parts[k].clone()),
        }
        k += 1;
    }
    Ok(out)
}

/// `#x`: the argument's tokens, spaced, as a string literal.
pub(super) fn stringify<'a>(arg: impl IntoIterator<Item = &'a Tok>) -> Tok {
    let mut s = String::from("\"");
    for (i, t) in arg.into_iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        match t {
            Tok::Str(x) | Tok::Char(x) => {
                for c in x.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            }
            other => s.push_str(other.text()),
        }
    }
    s.push('"');
    Tok::Str(s)
}

/// `l ## r`: the token their spellings make together, or an error if they make no single
/// token.
pub(super) fn paste(l: &Tok, r: &Tok, span: (usize, usize)) -> Result<Tok, CError> {
    let text = format!("{}{}", l.text(), r.text());
    match lex_raw(&text, 0) {
        Ok(mut v) if v.len() == 1 && v[0].0 == 0 && v[0].2 == text.len() => Ok(v.remove(0).1),
        _ => Err(CError::new(
            CErrorKind::Syntax,
            Span::new(span.0, span.1),
            format!(
                "pasting `{}` and `{}` does not give a valid token",
                l.text(),
                r.text()
            ),
        )),
    }
}
