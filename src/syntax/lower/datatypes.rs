//! Lowering of algebraic datatypes: `declare-datatypes` / `declare-datatype` commands become
//! declarations in the term store, and constructor, selector and tester applications (`(C t..)`,
//! `(sel t)`, `((_ is C) t)`, `(is-C t)`, `(as C S)`) become terms.
//!
//! Only monomorphic datatypes are supported (`par` is reported as unsupported); every error
//! carries the span of the offending part. This module does not lower other terms.

use super::super::ast::{Ident, SExpr, Span, Term};
use super::super::error::{Error, ErrorKind};
use super::terms::Env;
use crate::term::{Op, Sort, TermId, TermStore};
use std::collections::HashSet;

fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> Error {
    Error::at(kind, span, msg)
}

fn list(e: &SExpr, what: &str) -> Result<Vec<SExpr>, Error> {
    match e {
        SExpr::List(xs, _) => Ok(xs.clone()),
        SExpr::Atom(_, sp) => Err(err(ErrorKind::Syntax, *sp, format!("expected {what}"))),
    }
}

fn name(e: &SExpr, what: &str) -> Result<String, Error> {
    match e {
        SExpr::Atom(..) => Ok(e.symbol_name().unwrap_or_default().to_string()),
        SExpr::List(_, sp) => Err(err(ErrorKind::Syntax, *sp, format!("expected {what}"))),
    }
}

/// A sort written as an s-expression (inside a datatype declaration).
fn sexpr_sort(store: &TermStore, e: &SExpr) -> Result<Sort, Error> {
    match e {
        SExpr::Atom(_, sp) => match e.symbol_name().unwrap_or_default() {
            "Bool" => Ok(Sort::Bool),
            "Int" => Ok(Sort::Int),
            "Real" => Ok(Sort::Real),
            other => store
                .datatype_sort(other)
                .ok_or_else(|| err(ErrorKind::Unknown, *sp, format!("unknown sort `{other}`"))),
        },
        SExpr::List(xs, sp) => match xs.first().and_then(|x| x.symbol_name()) {
            Some("Array") if xs.len() == 3 => Ok(Sort::array(
                sexpr_sort(store, &xs[1])?,
                sexpr_sort(store, &xs[2])?,
            )),
            _ => Err(err(
                ErrorKind::Unsupported,
                *sp,
                "sort in a datatype field (only Bool, Int, Real, arrays and datatypes)",
            )),
        },
    }
}

/// Whether a name is already taken by a sort, constructor or selector.
fn check_fresh_symbol(store: &TermStore, n: &str, span: Span) -> Result<(), Error> {
    if store.ctor_by_name(n).is_some() || store.selector_by_name(n).is_some() {
        return Err(err(
            ErrorKind::Sort,
            span,
            format!("`{n}` is already declared"),
        ));
    }
    Ok(())
}

/// `(declare-datatypes ((S 0) ...) ((ctor ...) ...))`.
pub(super) fn declare_datatypes(env: &Env<'_>, args: &[SExpr], span: Span) -> Result<(), Error> {
    if args.len() != 2 {
        return Err(err(
            ErrorKind::Syntax,
            span,
            "`declare-datatypes` expects a list of sort declarations and a list of datatype declarations",
        ));
    }
    let decls = list(&args[0], "a list of sort declarations `((S 0) ...)`")?;
    let bodies = list(&args[1], "a list of datatype declarations")?;
    if decls.len() != bodies.len() || decls.is_empty() {
        return Err(err(
            ErrorKind::Syntax,
            args[1].span(),
            format!(
                "{} sorts declared but {} datatype declarations given",
                decls.len(),
                bodies.len()
            ),
        ));
    }
    let mut names = Vec::new();
    for d in &decls {
        let parts = list(d, "a sort declaration `(S 0)`")?;
        if parts.len() != 2 {
            return Err(err(ErrorKind::Syntax, d.span(), "expected `(S arity)`"));
        }
        let n = name(&parts[0], "a sort name")?;
        if parts[1].symbol_name() != Some("0") {
            return Err(err(
                ErrorKind::Unsupported,
                parts[1].span(),
                format!("parametric datatype `{n}` (only arity 0 is supported)"),
            ));
        }
        names.push((n, parts[0].span()));
    }
    define(env.store, &names, &bodies)
}

/// `(declare-datatype S (ctor ...))`.
pub(super) fn declare_datatype(env: &Env<'_>, args: &[SExpr], span: Span) -> Result<(), Error> {
    if args.len() != 2 {
        return Err(err(
            ErrorKind::Syntax,
            span,
            "`declare-datatype` expects a name and a list of constructors",
        ));
    }
    let n = name(&args[0], "a sort name")?;
    define(env.store, &[(n, args[0].span())], &args[1..])
}

fn define(store: &TermStore, names: &[(String, Span)], bodies: &[SExpr]) -> Result<(), Error> {
    let mut seen = HashSet::new();
    for (n, sp) in names {
        if matches!(n.as_str(), "Bool" | "Int" | "Real" | "Array")
            || store.datatype_sort(n).is_some()
            || !seen.insert(n.clone())
        {
            return Err(err(
                ErrorKind::Sort,
                *sp,
                format!("sort `{n}` is already declared"),
            ));
        }
    }
    let refs: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
    // An error leaves the group half-declared; the whole input is rejected then anyway.
    {
        let round = store;
        let sorts = round.declare_datatypes(&refs);
        for ((sort, body), (n, sp)) in sorts.iter().zip(bodies).zip(names) {
            let Sort::Datatype(ds) = sort else {
                continue;
            };
            let ctors = list(body, "a list of constructors")?;
            if let Some(SExpr::Atom(a, asp)) = ctors.first() {
                if a == "par" {
                    return Err(err(
                        ErrorKind::Unsupported,
                        *asp,
                        format!("parametric datatype `{n}`"),
                    ));
                }
            }
            if ctors.is_empty() {
                return Err(err(
                    ErrorKind::Sort,
                    *sp,
                    format!("datatype `{n}` has no constructor"),
                ));
            }
            for c in &ctors {
                let (cname, csp, fields) = match c {
                    SExpr::Atom(..) => (name(c, "a constructor")?, c.span(), Vec::new()),
                    SExpr::List(xs, lsp) if !xs.is_empty() => {
                        (name(&xs[0], "a constructor name")?, *lsp, xs[1..].to_vec())
                    }
                    SExpr::List(_, lsp) => {
                        return Err(err(ErrorKind::Syntax, *lsp, "empty constructor"))
                    }
                };
                check_fresh_symbol(round, &cname, csp)?;
                let mut fs = Vec::new();
                for f in &fields {
                    let parts = list(f, "a selector `(name Sort)`")?;
                    if parts.len() != 2 {
                        return Err(err(ErrorKind::Syntax, f.span(), "expected `(name Sort)`"));
                    }
                    let sel = name(&parts[0], "a selector name")?;
                    check_fresh_symbol(round, &sel, parts[0].span())?;
                    if cname == sel || fs.iter().any(|(s, _): &(String, Sort)| *s == sel) {
                        return Err(err(
                            ErrorKind::Sort,
                            parts[0].span(),
                            format!("`{sel}` is already declared"),
                        ));
                    }
                    fs.push((sel, sexpr_sort(round, &parts[1])?));
                }
                round.add_constructor(ds.id, &cname, fs);
            }
        }
        for (sort, (n, sp)) in sorts.iter().zip(names) {
            if round.default_value(sort).is_none() {
                return Err(err(
                    ErrorKind::Sort,
                    *sp,
                    format!("datatype `{n}` has no finite values (not well-founded)"),
                ));
            }
        }
    }
    Ok(())
}

impl Env<'_> {
    /// A datatype constant: a nullary constructor `C` or `(as C S)`; `None` if `id` is not one.
    pub(super) fn datatype_const(
        &mut self,
        id: &Ident,
        span: Span,
    ) -> Result<Option<TermId>, Error> {
        self.datatype_app(id, &[], span)
    }

    /// A constructor, selector or tester application; `None` if `head` names none of them.
    pub(super) fn datatype_app(
        &mut self,
        head: &Ident,
        args: &[Term],
        span: Span,
    ) -> Result<Option<TermId>, Error> {
        let store = self.store;
        let (n, qualified) = match head {
            Ident::Simple(s) => (s.name.as_str(), None),
            Ident::Qualified(inner, sort, _) => match &**inner {
                Ident::Simple(s) if store.ctor_by_name(&s.name).is_some() => {
                    (s.name.as_str(), Some(sort))
                }
                _ => return Ok(None),
            },
            Ident::Indexed(s, idx, isp) if s.name == "is" => {
                let c = match idx.as_slice() {
                    [c] => store.ctor_by_name(c.trim_matches('|')),
                    _ => None,
                };
                let Some(c) = c else {
                    return Err(err(
                        ErrorKind::Unknown,
                        *isp,
                        "`(_ is C)` needs a declared constructor C",
                    ));
                };
                return self.tester(c, args, span).map(Some);
            }
            Ident::Indexed(..) => return Ok(None),
        };
        if let Some(c) = store.ctor_by_name(n) {
            let decl = store.ctor(c);
            if let Some(sort) = qualified {
                let want = super::terms::lower_sort(store, sort)?;
                if want != store.ctor_sort(c) {
                    return Err(err(
                        ErrorKind::Sort,
                        span,
                        format!("constructor `{n}` does not build sort {want}"),
                    ));
                }
            }
            if decl.fields.len() != args.len() {
                return Err(err(
                    ErrorKind::Sort,
                    span,
                    format!(
                        "constructor `{n}` expects {} arguments, got {}",
                        decl.fields.len(),
                        args.len()
                    ),
                ));
            }
            let mut xs = Vec::new();
            for (a, (_, s)) in args.iter().zip(&decl.fields) {
                xs.push(self.term_of_sort(a, s)?);
            }
            return Ok(Some(store.app(Op::Ctor(c), xs)));
        }
        if let Some((c, i)) = store.selector_by_name(n) {
            let what = format!("selector `{n}`");
            let op = Op::Selector(c, i as u32);
            return self
                .unary(&what, op, &store.ctor_sort(c), args, span)
                .map(Some);
        }
        if let Some(c) = n.strip_prefix("is-").and_then(|c| store.ctor_by_name(c)) {
            return self.tester(c, args, span).map(Some);
        }
        // The size function a model defined (`size!L`, see `lower_model`).
        if let Some(&d) = self.sizes.get(n) {
            let sort = store.sort_of_datatype(d);
            return self
                .unary(&format!("`{n}`"), Op::Size(d), &sort, args, span)
                .map(Some);
        }
        Ok(None)
    }

    fn tester(
        &mut self,
        c: crate::term::CtorId,
        args: &[Term],
        span: Span,
    ) -> Result<TermId, Error> {
        let sort = self.store.ctor_sort(c);
        self.unary("a tester", Op::Tester(c), &sort, args, span)
    }

    /// `(op x)` for a one-argument datatype operation (`what` names it in the arity error),
    /// its argument of sort `sort`.
    fn unary(
        &mut self,
        what: &str,
        op: Op,
        sort: &crate::term::Sort,
        args: &[Term],
        span: Span,
    ) -> Result<TermId, Error> {
        if args.len() != 1 {
            return Err(err(
                ErrorKind::Sort,
                span,
                format!("{what} expects 1 argument, got {}", args.len()),
            ));
        }
        let x = self.term_of_sort(&args[0], sort)?;
        Ok(self.store.app(op, vec![x]))
    }
}
