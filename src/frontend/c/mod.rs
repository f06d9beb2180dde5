//! The C front end: SV-COMP-style programs over integer scalars (see the README for the
//! subset) translated to CHC systems, and answers read back at the source level.
//!
//! Pipeline: [`preproc`] and [`lexer`] and the lalrpop grammar (`grammar/c.lalrpop`) → [`ast`] →
//! [`resolve`] (names, types, built-ins; rejects what is outside the subset) → [`ir`] →
//! [`cfa`] (a control-flow automaton per function, its loops, cut points and live variables
//! computed by Datalog rules) → [`encode`] (large-block encoding into clauses); after solving, [`trace`] reads the nondet
//! values of a counterexample derivation, [`interp`] replays them concretely, and
//! [`invariants`] prints a model's loop-head interpretations as C expressions; [`witness`]
//! writes both as SV-COMP witness files (and reads violation witnesses back), for the
//! [`property`] checked under a [`DataModel`]. A program with POSIX threads is checked
//! against the model of [`threads`] and verified through its interleaving product
//! ([`threads::product`]) or, when `main` creates threads in a loop, through rely-guarantee
//! clauses ([`threads::rely`], [`encode::rely`]); `interp::sched` replays a counterexample's
//! schedule on the threads themselves.
//!
//! Reading, translating and interpreting recurse over the program's nesting, which the parser
//! bounds ([`ast::MAX_NESTING`]), and the interpreter's recursion has a budget: at the bound,
//! reading takes about 4 MB of stack in a release build (several times that in a debug build),
//! so callers run the front end on a thread with a large stack, as `verify` does (512 MB).
//!
//! Must not: solve (the caller runs the engine), or print.

pub mod ast;
pub mod cfa;
pub mod encode;
pub mod error;
pub mod explore;
pub mod hints;
pub mod interp;
pub mod invariants;
pub mod ir;
pub mod lexer;
pub mod parse;
pub mod preproc;
pub mod program;
pub mod property;
pub mod refine;
pub mod resolve;
pub mod shape;
pub mod task;
pub mod threads;
pub mod tokenize;
pub mod trace;
pub mod types;
pub mod unit;
pub mod validate;
pub mod verify;
pub mod witness;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused)]
    pub(crate) grammar,
    "/c.rs"
);

pub use encode::{
    translate, translate_extra, translate_with, EncodeOptions, ExtraCuts, Translation,
};
pub use error::{CError, CErrorKind};
pub use program::Program;
pub use types::DataModel;
pub use verify::{load, load_checked, load_with};

/// Parses and resolves a C program under a data model (the widths of `long`).
pub fn read_program(src: &str, model: DataModel) -> Result<Program, CError> {
    let items = parse::parse_unit(src)?;
    resolve::resolve(&items, src.len(), model)
}

/// Parses and resolves a C program with the checks of a property (see [`ir::MemChecks`]).
pub fn read_program_checked(
    src: &str,
    model: DataModel,
    checks: ir::MemChecks,
) -> Result<Program, CError> {
    resolve_unit(&unit::Unit::parse(src)?, model, checks)
}

/// Resolves a parsed C program with the checks of a property: [`read_program_checked`] on a
/// source already read.
pub fn resolve_unit(
    unit: &unit::Unit<'_>,
    model: DataModel,
    checks: ir::MemChecks,
) -> Result<Program, CError> {
    let error_returns = !checks.error_calls && reach_error_returns(unit.src)?;
    resolve::resolve_checked(&unit.items, unit.src.len(), model, checks, error_returns)
}

/// Under a memory property a call of `reach_error()` is no error: the execution goes on as the
/// program's definition says. The front end replaces that definition (it is a built-in), so it
/// reads the definitions' text: one that ends the execution (`assert(0)`, `__assert_fail`,
/// `abort()`, `exit`, `__VERIFIER_error`, a `goto`) makes the call end it, an empty one makes
/// the call do nothing (`Ok(true)`: the resolver drops the calls), and any other definition
/// that may return is `unsupported`.
fn reach_error_returns(src: &str) -> Result<bool, CError> {
    let mut empty = false;
    for (span, def) in reach_error_definitions(src) {
        match def {
            ErrorDef::Stops => {}
            ErrorDef::Empty => empty = true,
            ErrorDef::Other => return Err(may_return(span)),
        }
    }
    Ok(empty)
}

/// For the shape engine, which reads `reach_error()` as the end of an execution: whether that
/// holds under a memory property: every definition ends the execution, or is empty and every
/// call is followed at once by `abort()` or `exit(...)` (`ERROR: {reach_error();abort();}`).
pub(crate) fn reach_error_stops(src: &str) -> Result<(), CError> {
    for (span, def) in reach_error_definitions(src) {
        match def {
            ErrorDef::Stops => {}
            ErrorDef::Empty if calls_then_stop(src) => {}
            ErrorDef::Empty | ErrorDef::Other => return Err(may_return(span)),
        }
    }
    Ok(())
}

fn may_return(span: ast::Span) -> CError {
    CError::unsupported(
        span,
        "a definition of `reach_error` that may return, under a memory property".to_owned(),
    )
}

/// What a definition of `reach_error` does, read from its text.
enum ErrorDef {
    /// It ends the execution.
    Stops,
    /// Its body is empty: it returns at once.
    Empty,
    /// Anything else (it may return after doing something).
    Other,
}

/// The definitions `reach_error(void) { ... }` in `src` (the first `}` ends a body), by the
/// name's span.
fn reach_error_definitions(src: &str) -> Vec<(ast::Span, ErrorDef)> {
    let mut out = vec![];
    let mut from = 0;
    while let Some(k) = src[from..].find("reach_error") {
        let at = from + k;
        from = at + "reach_error".len();
        let rest = &src[from..];
        let Some(close) = rest.find(')') else { break };
        let params = rest[..close].trim_start();
        if !params.starts_with('(') || params[1..].trim().trim_start_matches("void").trim() != "" {
            continue;
        }
        let after = rest[close + 1..].trim_start();
        if !after.starts_with('{') {
            continue; // a declaration or a call
        }
        let body = &after[1..after.find('}').unwrap_or(after.len())];
        let stops = ["assert", "abort", "exit", "__VERIFIER_error", "goto"];
        let def = if stops.iter().any(|s| body.contains(s)) {
            ErrorDef::Stops
        } else if body
            .trim_matches(|c: char| c.is_whitespace() || c == ';')
            .is_empty()
        {
            ErrorDef::Empty
        } else {
            ErrorDef::Other
        };
        out.push((ast::Span::new(at, at + "reach_error".len()), def));
    }
    out
}

/// Whether every call of `reach_error` in `src` is a statement of a block (after `{`, `}`,
/// `;` or a label's `:`) followed at once by `abort()` or `exit(`: then, whatever the call
/// does, the execution ends there. A call elsewhere (the body of an `if` or a loop, inside an
/// expression) or followed by anything else answers `false`, as does a text that does not
/// lex. The name after a type (`void reach_error()`) is its declaration or definition.
fn calls_then_stop(src: &str) -> bool {
    use lexer::Tok;
    let Ok(toks) = tokenize::tokenize(src) else {
        return false;
    };
    let tok = |k: usize| toks.get(k).map(|t| &t.1);
    let named = |k: usize, n: &str| matches!(tok(k), Some(Tok::Ident(x)) if x == n);
    for (k, (_, t, _)) in toks.iter().enumerate() {
        if !matches!(t, Tok::Ident(n) if n == "reach_error") {
            continue;
        }
        let before = k.checked_sub(1).and_then(tok);
        match before {
            Some(Tok::LBrace | Tok::RBrace | Tok::Semi | Tok::Colon) => {}
            // A type before the name: its declaration or definition.
            Some(
                Tok::KwVoid
                | Tok::KwInt
                | Tok::KwLong
                | Tok::KwShort
                | Tok::KwChar
                | Tok::KwUnsigned
                | Tok::KwSigned
                | Tok::KwBool
                | Tok::KwFloat
                | Tok::KwDouble
                | Tok::Ident(_)
                | Tok::TypeName(_),
            ) => continue,
            _ => return false,
        }
        let call = matches!(
            (tok(k + 1), tok(k + 2), tok(k + 3)),
            (Some(Tok::LParen), Some(Tok::RParen), Some(Tok::Semi))
        );
        let stops = (named(k + 4, "abort") || named(k + 4, "exit"))
            && matches!(tok(k + 5), Some(Tok::LParen));
        if !(call && stops) {
            return false;
        }
    }
    true
}
