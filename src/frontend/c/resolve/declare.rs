//! Declarations of pointer and struct variables (locals and globals) with their initialisers
//! (`= {1, {2, 3}}`, brace by brace), and the arguments of calls of functions with pointer or
//! struct parameters (a struct argument is passed cell by cell). Part of [`super`], on top of
//! `structs.rs` (types, cells) and `pointers.rs` (places, sites).
//!
//! Must not: lower pointer operations (that is `lower.rs`).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::places::Place;
use super::pointers::{is_null, mk};
use super::structs::{shift, FTy};
use super::{convert, unsupported, Resolver};
use num_bigint::BigInt;

impl Resolver {
    /// The arguments of a call of a function with pointer or struct parameters; `None` for
    /// other functions.
    pub(super) fn args_ext(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Result<Option<Vec<IExpr>>, CError> {
        let Some((_, full)) = self.types.sigs.get(name).cloned() else {
            return Ok(None);
        };
        if full.len() != args.len() {
            return Err(CError::new(
                CErrorKind::Name,
                span,
                format!(
                    "`{name}` takes {} arguments, {} given",
                    full.len(),
                    args.len()
                ),
            ));
        }
        let mut out = vec![];
        for (a, t) in args.iter().zip(full) {
            match &t {
                FTy::Struct(_) => {
                    if self.fty_of(a)? != t {
                        return Err(unsupported(a.span, "this struct argument"));
                    }
                    if self.has_array_cells(&t) {
                        return Err(unsupported(a.span, "struct arguments with array fields"));
                    }
                    let p = self.place(a)?;
                    let cells = self.cells(&t);
                    if let (Place::Deref { .. }, true) = (&p, cells.len() > 1) {
                        return Err(unsupported(a.span, "struct arguments through pointers"));
                    }
                    if let (Place::Elem { .. }, true) = (&p, cells.len() > 1) {
                        return Err(unsupported(a.span, "struct arguments from arrays"));
                    }
                    for (k, (_, leaf)) in cells.iter().enumerate() {
                        let ty = self.leaf_ctype(leaf);
                        let v = self.read_cell(&p, k, ty, a.span);
                        out.push(Self::after_setup(&p, v));
                    }
                }
                _ => {
                    self.check_source(&t, a)?;
                    let ty = self.leaf_ctype(&t);
                    let v = self.expr(a)?;
                    out.push(convert(v, ty));
                }
            }
        }
        Ok(Some(out))
    }

    /// A local declaration of a pointer or struct variable: its cells and initialisation.
    /// `None`: a plain scalar (the caller declares it).
    pub(super) fn local_decl_ext(
        &mut self,
        d: &Declaration,
        item: &InitDecl,
    ) -> Result<Option<Vec<IStmt>>, CError> {
        if !self.is_extended(&d.specs, &item.decl)? {
            return Ok(None);
        }
        let span = item.decl.span;
        let t = self.full_type(&d.specs, item.decl.pointers)?;
        if super::is_array(&item.decl) {
            return self.local_struct_array(&t, item).map(Some);
        }
        self.check_complete(&t, span)?;
        // `struct S t = s;`: a copy, cell by cell.
        let mut copy = false;
        if let Some(e) = &item.init {
            if matches!(t, FTy::Struct(_)) && !matches!(e.kind, ExprKind::InitList(_)) {
                if self.fty_of(e)? != t {
                    return Err(unsupported(e.span, "this initialiser"));
                }
                if self.has_array_cells(&t) {
                    return Err(unsupported(e.span, "copies of structs with array fields"));
                }
                copy = true;
            } else if !matches!(e.kind, ExprKind::InitList(_)) {
                self.check_source(&t, e)?;
            }
        }
        let name = item.decl.name.clone().unwrap_or_default();
        let first = self.declare_cells(&name, &t, span, None)?;
        self.bind(&name, first, span)?;
        let cells = self.cells(&t);
        let mut values: Vec<Option<IExpr>> = vec![None; cells.len()];
        match &item.init {
            None => {}
            Some(Expr {
                kind: ExprKind::InitList(items),
                span: lspan,
                ..
            }) => self.init_list(&t, items, *lspan, 0, &mut values)?,
            Some(e) if copy => {
                let p = self.place(e)?;
                for (k, (_, leaf)) in cells.iter().enumerate() {
                    let ty = self.leaf_ctype(leaf);
                    let v = self.read_cell(&p, k, ty, e.span);
                    values[k] = Some(if k == 0 { Self::after_setup(&p, v) } else { v });
                }
            }
            Some(e) => values[0] = Some(self.expr(e)?),
        }
        let mut out = vec![];
        for (k, ((_, leaf), v)) in cells.iter().zip(values).enumerate() {
            let ty = self.leaf_ctype(leaf);
            if let FTy::Array(..) = leaf {
                // Zero with an initialiser (it names no array field), else any values.
                let fill = match item.init {
                    Some(_) => Fill::Zero,
                    None => {
                        self.sites.push(NondetSite { ty, span });
                        Fill::Any(self.sites.len() - 1)
                    }
                };
                let var = shift(first, k);
                let decl = IExprKind::ArrayDecl {
                    var,
                    elems: vec![],
                    fill,
                };
                out.push(IStmt {
                    kind: IStmtKind::Expr(mk(decl, super::super::types::CType::INT, span)),
                    span,
                });
                continue;
            }
            let v = match v {
                Some(v) => convert(v, ty),
                None if item.init.is_some() => mk(IExprKind::Const(BigInt::from(0)), ty, span),
                None => {
                    self.sites.push(NondetSite { ty, span });
                    mk(IExprKind::Nondet(self.sites.len() - 1), ty, span)
                }
            };
            out.push(IStmt {
                kind: IStmtKind::Init(shift(first, k), Some(v)),
                span,
            });
        }
        Ok(Some(out))
    }

    /// The values of an initialiser list for type `t` whose first cell is `at`.
    fn init_list(
        &mut self,
        t: &FTy,
        items: &[Expr],
        span: Span,
        at: usize,
        values: &mut [Option<IExpr>],
    ) -> Result<(), CError> {
        let FTy::Struct(i) = t else {
            return Err(unsupported(span, "initialiser lists of scalars"));
        };
        let fields = self.types.records[*i].fields.clone();
        let mut next = 0;
        for item in items {
            // `.f = e` moves on to field `f` (C11 6.7.9p17).
            let item = match &item.kind {
                ExprKind::Designated(name, e) => {
                    next = fields.iter().position(|f| f.0 == *name).ok_or_else(|| {
                        CError::new(
                            CErrorKind::Name,
                            item.span,
                            format!("no field `{name}` to initialise"),
                        )
                    })?;
                    &**e
                }
                _ => item,
            };
            let Some((_, ft, off)) = fields.get(next).cloned() else {
                return Err(unsupported(item.span, "excess initialisers"));
            };
            next += 1;
            match (&item.kind, &ft) {
                (_, FTy::Array(..)) => {
                    return Err(unsupported(item.span, "initialisers of array fields"))
                }
                (ExprKind::InitList(sub), FTy::Struct(_)) => {
                    self.init_list(&ft, sub, item.span, at + off, values)?
                }
                (_, FTy::Struct(_)) => return Err(unsupported(item.span, "this initialiser")),
                _ => {
                    self.check_source(&ft, item)?;
                    values[at + off] = Some(self.expr(item)?);
                }
            }
        }
        Ok(())
    }

    /// A global of pointer or struct type (zero or a constant initialiser list). `false`: a
    /// plain scalar (the caller declares it).
    pub(super) fn global_decl_ext(
        &mut self,
        d: &Declaration,
        item: &InitDecl,
    ) -> Result<bool, CError> {
        if !self.is_extended(&d.specs, &item.decl)? {
            return Ok(false);
        }
        let span = item.decl.span;
        let t = self.full_type(&d.specs, item.decl.pointers)?;
        if super::is_array(&item.decl) {
            self.global_struct_array(&t, item)?;
            return Ok(true);
        }
        self.check_complete(&t, span)?;
        let name = item.decl.name.clone().unwrap_or_default();
        if let Some(&g) = self.global_names.get(&name) {
            if self.var_fty(VarRef::Global(g)) != t || item.init.is_some() {
                return Err(CError::new(
                    CErrorKind::Name,
                    span,
                    format!("conflicting types or redefinition of `{name}`"),
                ));
            }
            return Ok(true);
        }
        let first = self.declare_cells(&name, &t, span, Some(name.clone()))?;
        let VarRef::Global(g) = first else {
            return Ok(true);
        };
        self.global_names.insert(name, g);
        match &item.init {
            None => {}
            Some(e) if is_null(e) && t.is_ptr() => {}
            Some(Expr {
                kind: ExprKind::InitList(items),
                span: lspan,
                ..
            }) => {
                let mut values = vec![None; self.cells(&t).len()];
                self.scopes.clear();
                self.init_list(&t, items, *lspan, 0, &mut values)?;
                for (k, v) in values.into_iter().enumerate() {
                    if let Some(v) = v {
                        let c = super::const_value(&v).ok_or_else(|| {
                            unsupported(v.span, "non-constant global initialisers")
                        })?;
                        self.global_init[g + k] = self.globals[g + k].ty.convert(&c);
                    }
                }
            }
            Some(e) => return Err(unsupported(e.span, "non-constant global initialisers")),
        }
        Ok(true)
    }
}
