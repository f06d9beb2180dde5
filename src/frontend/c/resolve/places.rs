//! Places in the resolver: where an lvalue lives (variables, behind a pointer, an element of
//! an array), how its cells are read and written, and its address. `x`, `s.f`, `*p`, `p->f`,
//! `a[i]`, `p[i]` (`*(p + i)`), `s.data[i]`, `a[i].f`. Part of [`super`], on top of
//! `pointers.rs` (sites, full types of expressions).
//!
//! Must not: compute points-to sets or addresses (that is `lower.rs`).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::pointers::{comma, mk, SiteKind};
use super::structs::{shift, FTy};
use super::{convert, unsupported, Resolver};

/// Where an lvalue lives.
pub(super) enum Place {
    /// In variables: cells from `first` on; `root`/`cells`: the whole declared variable.
    Cells {
        root: VarRef,
        cells: usize,
        first: VarRef,
        fty: FTy,
    },
    /// Behind a pointer saved in `temp` by `setup`, `off` cells after its target.
    Deref {
        setup: IExpr,
        temp: VarRef,
        off: usize,
        fty: FTy,
    },
    /// An element of an array of structs (`struct_array.rs`), `off` cells into it: `first` is
    /// the array of the struct's first cell, the indices are saved in temporaries by `setup`.
    Elem {
        setup: IExpr,
        first: VarRef,
        index: Vec<(VarRef, CType)>,
        off: usize,
        fty: FTy,
    },
}

impl Resolver {
    /// The place an lvalue denotes.
    pub(super) fn place(&mut self, e: &Expr) -> Result<Place, CError> {
        match &e.kind {
            ExprKind::Ident(n) => {
                let (v, _) = self.variable(n, e.span)?;
                if self.info(v).is_array() {
                    return Err(unsupported(e.span, "this use of an array"));
                }
                let fty = self.var_fty(v);
                let cells = self.cells(&fty).len();
                Ok(Place::Cells {
                    root: v,
                    cells,
                    first: v,
                    fty,
                })
            }
            ExprKind::Member(b, f, arrow) => {
                let base = if *arrow {
                    self.deref_place(b)?
                } else {
                    self.place(b)?
                };
                Ok(match base {
                    Place::Cells {
                        root,
                        cells,
                        first,
                        fty,
                    } => {
                        let (t, off) = self.field(&fty, f, e.span)?;
                        Place::Cells {
                            root,
                            cells,
                            first: shift(first, off),
                            fty: t,
                        }
                    }
                    Place::Deref {
                        setup,
                        temp,
                        off,
                        fty,
                    } => {
                        let (t, k) = self.field(&fty, f, e.span)?;
                        Place::Deref {
                            setup,
                            temp,
                            off: off + k,
                            fty: t,
                        }
                    }
                    Place::Elem {
                        setup,
                        first,
                        index,
                        off,
                        fty,
                    } => {
                        let (t, k) = self.field(&fty, f, e.span)?;
                        Place::Elem {
                            setup,
                            first,
                            index,
                            off: off + k,
                            fty: t,
                        }
                    }
                })
            }
            ExprKind::Unary(UnOp::Deref, p) => self.deref_place(p),
            ExprKind::Index(a, i) => {
                if let Some(p) = self.elem_place(e)? {
                    return Ok(p);
                }
                match self.fty_of(a)? {
                    // `p[i]` is `*(p + i)`; an array variable decays to a pointer only when
                    // its address is needed, so its elements stay plain elements.
                    FTy::Ptr(t) if !self.is_array_name(a) => {
                        let base = self.expr(a)?;
                        let index = self.expr(i)?;
                        let addr = self.ptr_add(base, index, e.span);
                        self.deref_value(addr, *t, e.span)
                    }
                    FTy::Array(t, _) => match self.place(a)? {
                        Place::Cells { first, .. } => {
                            let (setup, index) = self.saved(i)?;
                            Ok(Place::Elem {
                                setup,
                                first,
                                index: vec![index],
                                off: 0,
                                fty: *t,
                            })
                        }
                        Place::Elem { .. } => Err(unsupported(
                            e.span,
                            "arrays in elements of arrays of structs",
                        )),
                        p @ Place::Deref { .. } => {
                            let base = self.place_addr(p, a.span)?;
                            let index = self.expr(i)?;
                            let addr = self.ptr_add(base, index, e.span);
                            self.deref_value(addr, *t, e.span)
                        }
                    },
                    _ => match self.element(e)? {
                        Some((first, _, index)) => {
                            let fty = self.elem_fty(first);
                            let (setup, index) = self.save_indices(index);
                            Ok(Place::Elem {
                                setup,
                                first,
                                index,
                                off: 0,
                                fty,
                            })
                        }
                        None => Err(CError::new(
                            CErrorKind::Name,
                            e.span,
                            "subscript of something that is neither an array nor a pointer",
                        )),
                    },
                }
            }
            ExprKind::Unsupported(what) => Err(unsupported(e.span, what)),
            ExprKind::TooDeep => Err(CError::too_deep(e.span, "expressions")),
            _ => Err(CError::new(
                CErrorKind::Syntax,
                e.span,
                "expected a variable, a field or a dereference",
            )),
        }
    }

    /// `*p` as a place.
    pub(super) fn deref_place(&mut self, p: &Expr) -> Result<Place, CError> {
        let fty = match self.fty_of(p)?.decayed() {
            FTy::Ptr(t) => *t,
            _ => {
                return Err(CError::new(
                    CErrorKind::Name,
                    p.span,
                    "dereference of something that is not a pointer",
                ))
            }
        };
        let value = self.expr(p)?;
        self.deref_value(value, fty, p.span)
    }

    /// The object of type `fty` at the address `value`, as a place (the address saved).
    pub(super) fn deref_value(
        &mut self,
        value: IExpr,
        fty: FTy,
        span: Span,
    ) -> Result<Place, CError> {
        if fty == FTy::Void {
            return Err(unsupported(span, "dereferences of `void *`"));
        }
        let pty = self.ptr_ctype();
        let value = convert(value, pty);
        let temp = self.temp(pty, span);
        let setup = mk(IExprKind::Assign(temp, Box::new(value)), pty, span);
        Ok(Place::Deref {
            setup,
            temp,
            off: 0,
            fty,
        })
    }

    /// `e` evaluated once into a fresh temporary: the assignment and the temporary.
    pub(super) fn saved(&mut self, e: &Expr) -> Result<(IExpr, (VarRef, CType)), CError> {
        let ie = self.expr(e)?;
        let (setup, mut index) = self.save_indices(vec![ie]);
        Ok((setup, index.remove(0)))
    }

    /// Indices evaluated once, in order, into fresh temporaries: the assignments (one
    /// expression) and the temporaries. `index` is not empty.
    pub(super) fn save_indices(&mut self, index: Vec<IExpr>) -> (IExpr, Vec<(VarRef, CType)>) {
        let mut setup: Option<IExpr> = None;
        let mut saved = vec![];
        for ie in index {
            let (ty, span) = (ie.ty, ie.span);
            let t = self.temp(ty, span);
            let save = mk(IExprKind::Assign(t, Box::new(ie)), ty, span);
            setup = Some(match setup {
                None => save,
                Some(s) => comma(s, save),
            });
            saved.push((t, ty));
        }
        (setup.expect("at least one index"), saved)
    }

    /// `p + i` on addresses (an address counts elements: see `lower.rs`).
    pub(super) fn ptr_add(&self, p: IExpr, i: IExpr, span: Span) -> IExpr {
        let pty = self.ptr_ctype();
        let (p, i) = (convert(p, pty), convert(i, pty));
        mk(
            IExprKind::Arith(BinOp::Add, Box::new(p), Box::new(i)),
            pty,
            span,
        )
    }

    /// Whether `e` names an array variable.
    pub(super) fn is_array_name(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Ident(n) if self.lookup(n).is_some_and(|(v, _)| self.info(v).is_array()))
    }

    /// The full type of an array variable's elements.
    pub(super) fn elem_fty(&self, v: VarRef) -> FTy {
        match self.struct_array(v) {
            Some(rec) => FTy::Struct(rec),
            None => self.var_fty(v),
        }
    }

    /// The address of an array variable (`a` as a value): its first element's.
    pub(super) fn decay(&mut self, v: VarRef, span: Span) -> Result<IExpr, CError> {
        let cells = self.addressable_array(v, span)?;
        let kind = SiteKind::AddrOf {
            root: v,
            cells,
            cell: v,
        };
        Ok(self.site(kind, self.ptr_ctype(), span))
    }

    /// The number of cells of an array variable (of structs: one array per field) whose
    /// elements get addresses; an error for arrays pointers cannot go into.
    fn addressable_array(&self, v: VarRef, span: Span) -> Result<usize, CError> {
        let info = self.info(v);
        if info.dims.len() > 1 {
            return Err(unsupported(span, "pointers into multi-dimensional arrays"));
        }
        if info.dims.iter().any(|d| matches!(d, Dim::Var(_))) {
            return Err(unsupported(span, "pointers into variable-length arrays"));
        }
        Ok(self
            .struct_array(v)
            .map_or(1, |rec| self.types.records[rec].cells.len()))
    }

    /// The address of a place, as a pointer value.
    pub(super) fn place_addr(&mut self, p: Place, span: Span) -> Result<IExpr, CError> {
        let pty = self.ptr_ctype();
        Ok(match p {
            Place::Cells {
                root, cells, first, ..
            } => {
                if let VarRef::Local(l) = root {
                    if l < self.cur_params {
                        return Err(unsupported(span, "the address of a parameter"));
                    }
                }
                let kind = SiteKind::AddrOf {
                    root,
                    cells,
                    cell: first,
                };
                self.site(kind, pty, span)
            }
            Place::Elem {
                setup,
                first,
                index,
                off,
                ..
            } => {
                let cells = self.addressable_array(first, span)?;
                let kind = SiteKind::AddrOf {
                    root: first,
                    cells,
                    cell: shift(first, off),
                };
                let a = self.site(kind, pty, span);
                let (i, ity) = index[0];
                let i = mk(IExprKind::Var(i), ity, span);
                comma(setup, self.ptr_add(a, i, span))
            }
            Place::Deref {
                setup, temp, off, ..
            } => {
                if off == 0 {
                    setup
                } else {
                    let a = self.site(SiteKind::FieldAddr { temp, off }, pty, span);
                    comma(setup, a)
                }
            }
        })
    }

    /// The value of cell `k` of a place (already set up), as an expression.
    pub(super) fn read_cell(&mut self, p: &Place, k: usize, ty: CType, span: Span) -> IExpr {
        match p {
            Place::Cells { first, .. } => mk(IExprKind::Var(shift(*first, k)), ty, span),
            Place::Deref { temp, off, .. } => self.site(
                SiteKind::Load {
                    temp: *temp,
                    off: off + k,
                },
                ty,
                span,
            ),
            Place::Elem {
                first, index, off, ..
            } => mk(
                IExprKind::Elem(shift(*first, off + k), Self::elem_index(index, span)),
                ty,
                span,
            ),
        }
    }

    /// Writes `value` (of the cell's type) into cell `k` of a place; the value of the
    /// expression is the value written.
    pub(super) fn write_cell(&mut self, p: &Place, k: usize, value: IExpr, span: Span) -> IExpr {
        let ty = value.ty;
        match p {
            Place::Cells { first, .. } => mk(
                IExprKind::Assign(shift(*first, k), Box::new(value)),
                ty,
                span,
            ),
            Place::Deref { temp, off, .. } => {
                let tv = self.temp(ty, span);
                let save = mk(IExprKind::Assign(tv, Box::new(value)), ty, span);
                let store = self.site(
                    SiteKind::Store {
                        temp: *temp,
                        off: off + k,
                        value: tv,
                    },
                    CType::INT,
                    span,
                );
                comma(save, comma(store, mk(IExprKind::Var(tv), ty, span)))
            }
            Place::Elem {
                first, index, off, ..
            } => mk(
                IExprKind::SetElem {
                    var: shift(*first, off + k),
                    index: Self::elem_index(index, span),
                    value: Box::new(value),
                    post: false,
                },
                ty,
                span,
            ),
        }
    }

    /// The saved indices of an element place, as expressions.
    pub(super) fn elem_index(index: &[(VarRef, CType)], span: Span) -> Vec<IExpr> {
        index
            .iter()
            .map(|&(v, ty)| mk(IExprKind::Var(v), ty, span))
            .collect()
    }

    /// Wraps `e` after the place's setup (the pointer saved), if any.
    pub(super) fn after_setup(p: &Place, e: IExpr) -> IExpr {
        match p {
            Place::Deref { setup, .. } | Place::Elem { setup, .. } => comma(setup.clone(), e),
            Place::Cells { .. } => e,
        }
    }
}
