//! A translation unit's tokens as the lalrpop grammar `grammar/c.lalrpop` reads them, as its
//! external lexer.
//!
//! Duty: run the preprocessing of [`super::preproc`] (comments, directives, macro expansion)
//! around the raw lexer of [`super::lexer`]; drop GCC decorations (`__attribute__((...))`,
//! `__extension__`, `__restrict`, ...); mark names declared by `typedef` as type names (the
//! usual "lexer hack"). Must not: interpret declarations or statements, or evaluate anything.

use super::error::CError;
use super::lexer::{lex_raw, Spanned, Tok};
use super::preproc;
use std::collections::HashSet;

/// Decorations dropped from the token stream (GCC extensions that carry no meaning here).
const DROPPED: &[&str] = &["__extension__", "__restrict", "restrict", "__restrict__"];

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
/// does not define them (only names macro expansion left behind get here): `NULL`,
/// `PTHREAD_MUTEX_INITIALIZER` (a free mutex is 0) and `PTHREAD_COND_INITIALIZER` (a
/// condition variable no signal was sent on).
const ZERO_MACROS: &[&str] = &[
    "NULL",
    "PTHREAD_MUTEX_INITIALIZER",
    "PTHREAD_COND_INITIALIZER",
];

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
