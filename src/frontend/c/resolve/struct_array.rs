//! Arrays of structs and arrays of pointers (`struct S a[N];`, `int *p[N];`, globals and
//! locals): declarations and elements as places (`a[i].f`, `a[i] = s`, `struct S t = a[i];`).
//! Part of [`super`], on top of `structs.rs` (cells) and `places.rs` (places).
//!
//! Design: like a struct variable, an array of structs is **flattened**: one integer array per
//! cell of the struct (`a.f`, `a.g.h`, the same dimensions, the cell's type as element type),
//! consecutive in the globals (or the function's locals); the name `a` is bound to the first and
//! [`super::structs::Types`] records the struct type by that head variable. An array of
//! pointers is one array of pointer values, its element type recorded as the variable's full
//! type. Global ones are zero (no initialiser lists); local ones hold any values (an
//! `ArrayDecl` with `Fill::Any` per cell array). An element is a [`Place::Elem`]: its indices
//! are saved in temporaries by the place's setup, so a struct copy touching every cell
//! evaluates them once; reading a cell is `Elem(a.f, temps)`, writing it is `SetElem`. A
//! pointer to an element points into the first cell's array (`places.rs`). Initialisers,
//! array fields, variable-length or unsized dimensions, and passing an element of a
//! multi-field struct to a function are `unsupported:` errors.
//!
//! Must not: lower pointer operations or translate element accesses (the arrays are ordinary
//! integer arrays after the resolver).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::decl::conflicting;
use super::places::Place;
use super::pointers::mk;
use super::structs::FTy;
use super::{unsupported, Resolver};
use crate::frontend::c::ir::fold;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

impl Resolver {
    /// The struct type of an array of structs, by its head variable.
    pub(super) fn struct_array(&self, v: VarRef) -> Option<usize> {
        match v {
            VarRef::Global(g) => self.types.global_arrays.get(&g).copied(),
            VarRef::Local(l) => self.types.local_arrays.get(&l).copied(),
        }
    }

    /// The struct type (`None` for pointers) and constant dimensions of an array-of-structs
    /// or array-of-pointers declarator; an error for array fields and non-constant sizes.
    fn struct_array_parts(
        &mut self,
        t: &FTy,
        item: &InitDecl,
    ) -> Result<(Option<usize>, Vec<Dim>), CError> {
        let span = item.decl.span;
        let rec = match t {
            FTy::Struct(rec) => Some(*rec),
            FTy::Ptr(_) => None,
            _ => return Err(unsupported(span, "arrays of this type")),
        };
        self.check_complete(t, span)?;
        if self.has_array_cells(t) {
            return Err(unsupported(span, "arrays of structs with array fields"));
        }
        let mut dims = vec![];
        let mut total = BigInt::from(1);
        for s in &item.decl.suffixes {
            let Suffix::Array(size, sspan) = s else {
                return Err(unsupported(span, "arrays of functions"));
            };
            let Some(size) = size else {
                return Err(unsupported(
                    *sspan,
                    "arrays of structs or pointers without a size",
                ));
            };
            let e = self.expr(size)?;
            match fold(&e) {
                Some(v) if v.is_positive() => {
                    total *= &v;
                    dims.push(Dim::Const(v));
                }
                Some(_) => {
                    return Err(CError::new(
                        CErrorKind::Name,
                        size.span,
                        "the size of an array must be positive",
                    ))
                }
                None => {
                    return Err(unsupported(
                        size.span,
                        "variable-length arrays of structs or pointers",
                    ))
                }
            }
        }
        if total > BigInt::from(super::array::MAX_ELEMENTS) {
            return Err(unsupported(span, "arrays of structs this large"));
        }
        if let Some(init) = &item.init {
            return Err(unsupported(
                init.span,
                "initialisers of arrays of structs or pointers",
            ));
        }
        Ok((rec, dims))
    }

    /// A local array of structs: one array per cell, each declared with any elements.
    pub(super) fn local_struct_array(
        &mut self,
        t: &FTy,
        item: &InitDecl,
    ) -> Result<Vec<IStmt>, CError> {
        let (rec, dims) = self.struct_array_parts(t, item)?;
        let span = item.decl.span;
        let name = item.decl.name.clone().unwrap_or_default();
        let first = self.locals.len();
        let mut out = vec![];
        for (suffix, leaf) in self.cells(t) {
            let ty = self.leaf_ctype(&leaf);
            let var = VarRef::Local(self.locals.len());
            self.locals.push(VarInfo {
                name: format!("{name}{suffix}"),
                ty,
                span,
                dims: dims.clone(),
            });
            self.sites.push(NondetSite { ty, span });
            let fill = Fill::Any(self.sites.len() - 1);
            let decl = IExprKind::ArrayDecl {
                var,
                elems: vec![],
                fill,
            };
            out.push(IStmt {
                kind: IStmtKind::Expr(mk(decl, super::super::types::CType::INT, span)),
                span,
            });
        }
        match rec {
            Some(rec) => {
                self.types.local_arrays.insert(first, rec);
            }
            None => {
                self.types.locals.insert(first, t.clone());
            }
        }
        self.bind(&name, VarRef::Local(first), span)?;
        Ok(out)
    }

    /// A global array of structs (zero): one array per cell.
    pub(super) fn global_struct_array(&mut self, t: &FTy, item: &InitDecl) -> Result<(), CError> {
        let span = item.decl.span;
        let name = item.decl.name.clone().unwrap_or_default();
        self.scopes.clear();
        let (rec, dims) = self.struct_array_parts(t, item)?;
        self.not_a_function(&name, span)?;
        if self.externs.contains_key(&name) {
            return Err(conflicting(&name, span));
        }
        if let Some(&g) = self.global_names.get(&name) {
            // A repeated tentative definition.
            let same = match rec {
                Some(rec) => self.types.global_arrays.get(&g) == Some(&rec),
                None => self.types.globals.get(&g) == Some(t),
            };
            if !same || self.globals[g].dims != dims {
                return Err(conflicting(&name, span));
            }
            return Ok(());
        }
        let first = self.globals.len();
        for (suffix, leaf) in self.cells(t) {
            let ty = self.leaf_ctype(&leaf);
            self.globals.push(VarInfo {
                name: format!("{name}{suffix}"),
                ty,
                span,
                dims: dims.clone(),
            });
            self.global_init.push(BigInt::zero());
            self.global_elems.push(vec![]);
            self.global_defined.push(false);
        }
        match rec {
            Some(rec) => {
                self.types.global_arrays.insert(first, rec);
            }
            None => {
                self.types.globals.insert(first, t.clone());
            }
        }
        self.global_names.insert(name, first);
        Ok(())
    }

    /// The array of structs a subscript expression `a[i]...[k]` indexes (its head variable
    /// and struct type) and the written indices, base first; `None` if it is not one.
    fn struct_subscript<'a>(&self, e: &'a Expr) -> Option<(VarRef, usize, Vec<&'a Expr>)> {
        let mut written = vec![];
        let mut base = e;
        while let ExprKind::Index(a, i) = &base.kind {
            written.push(&**i);
            base = a;
        }
        written.reverse();
        let ExprKind::Ident(name) = &base.kind else {
            return None;
        };
        let (v, _) = self.lookup(name)?;
        let rec = self.struct_array(v)?;
        Some((v, rec, written))
    }

    /// Whether `e` names an array of structs (then `a[i]` is no integer element).
    pub(super) fn is_struct_array_base(&self, e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Index(..)) && self.struct_subscript(e).is_some()
    }

    /// The full type of `a[i]...` when it is an element of an array of structs.
    pub(super) fn struct_elem_fty(&self, e: &Expr) -> Option<FTy> {
        let (v, rec, written) = self.struct_subscript(e)?;
        (written.len() == self.info(v).dims.len()).then_some(FTy::Struct(rec))
    }

    /// `a[i]...[k]` as a place; `None` when `e` is no subscript of an array of structs.
    pub(super) fn elem_place(&mut self, e: &Expr) -> Result<Option<Place>, CError> {
        let Some((v, rec, written)) = self.struct_subscript(e) else {
            return Ok(None);
        };
        let rank = self.info(v).dims.len();
        if written.len() < rank {
            return Err(unsupported(e.span, "rows of arrays used as values"));
        }
        if written.len() > rank {
            return Err(CError::new(
                CErrorKind::Name,
                e.span,
                "too many subscripts for an array of structs",
            ));
        }
        let mut index = vec![];
        for i in written {
            index.push(self.expr(i)?);
        }
        let (setup, index) = self.save_indices(index);
        Ok(Some(Place::Elem {
            setup,
            first: v,
            index,
            off: 0,
            fty: FTy::Struct(rec),
        }))
    }
}
