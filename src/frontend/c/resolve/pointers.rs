//! Pointer and struct expressions in the resolver: `&x`, `*p`, `p->f`, `s.f`, stores through
//! pointers, whole-struct copies, pointer and struct declarations, calls with such arguments.
//! Part of [`super`].
//!
//! Design: a pointer value is an integer, the *object id* of the cell it points to (0 is
//! NULL). The ids are only known once the whole program is resolved (every `&x` seen), and a
//! dereference needs the points-to set of its pointer, so each pointer operation is emitted
//! as a *site*: a placeholder call `Call(SITE_BASE + k, [])` recorded in [`Site`], with the
//! pointer first saved in a fresh temporary local (so it is evaluated once). `lower.rs`
//! replaces every placeholder by scalar operations once the points-to relation is computed:
//! nothing after the resolver ever sees a site.
//!
//! Must not: compute points-to sets or object ids (that is `lower.rs`).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::expr::binary;
use super::structs::{shift, FTy};
use super::{convert, unsupported, Resolver};
use num_bigint::BigInt;

/// Placeholder calls `Call(SITE_BASE + k, [])` stand for the site `k`.
pub const SITE_BASE: usize = usize::MAX / 2;

/// What a pointer site does.
#[derive(Clone, Debug)]
pub(super) enum SiteKind {
    /// `&x`: the id of `cell`, a cell of the variable `root` of `cells` cells.
    AddrOf {
        root: VarRef,
        cells: usize,
        cell: VarRef,
    },
    /// The value of the cell `off` cells after the one `temp` points to.
    Load { temp: VarRef, off: usize },
    /// Writes `value` into the cell `off` cells after the one `temp` points to.
    Store {
        temp: VarRef,
        off: usize,
        value: VarRef,
    },
    /// The address `off` cells after the one `temp` points to (`&p->f`).
    FieldAddr { temp: VarRef, off: usize },
}

/// A pointer site: its function (index among the definitions), kind and place.
#[derive(Clone, Debug)]
pub(super) struct Site {
    pub func: usize,
    pub kind: SiteKind,
    pub span: Span,
}

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

pub(super) fn mk(kind: IExprKind, ty: CType, span: Span) -> IExpr {
    IExpr { kind, ty, span }
}

fn comma(a: IExpr, b: IExpr) -> IExpr {
    let (ty, span) = (b.ty, b.span);
    mk(IExprKind::Comma(Box::new(a), Box::new(b)), ty, span)
}

/// Whether the expression is a null pointer constant (`0`, `(void *)0`, `(T)0`).
pub(super) fn is_null(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(t) => {
            let d = t.to_ascii_lowercase();
            let d = d.trim_end_matches(['u', 'l']);
            let d = d.strip_prefix("0x").unwrap_or(d);
            !d.is_empty() && d.chars().all(|c| c == '0')
        }
        ExprKind::Cast(_, a) => is_null(a),
        _ => false,
    }
}

impl Resolver {
    /// The index of the current function among the definitions.
    fn func_index(&self) -> usize {
        self.sigs.get(&self.func).and_then(|s| s.index).unwrap_or(0)
    }

    /// A placeholder for a new site.
    fn site(&mut self, kind: SiteKind, ty: CType, span: Span) -> IExpr {
        self.ptr_sites.push(Site {
            func: self.func_index(),
            kind,
            span,
        });
        mk(
            IExprKind::Call(SITE_BASE + self.ptr_sites.len() - 1, vec![]),
            ty,
            span,
        )
    }

    /// A fresh temporary local.
    pub(super) fn temp(&mut self, ty: CType, span: Span) -> VarRef {
        let v = VarRef::Local(self.locals.len());
        self.locals.push(VarInfo {
            name: format!("tmp@{}.{}", span.start, self.locals.len()),
            ty,
            span,
            dims: vec![],
        });
        v
    }

    /// The full type of an expression, as far as pointers and structs go (other expressions:
    /// `int`). Pure: names only looked up.
    pub(super) fn fty_of(&mut self, e: &Expr) -> Result<FTy, CError> {
        Ok(match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some((v, _)) => self.var_fty(v),
                None => FTy::Scalar(CType::INT),
            },
            ExprKind::Unary(UnOp::Deref, p) => match self.fty_of(p)? {
                FTy::Ptr(t) => *t,
                _ => FTy::Scalar(CType::INT),
            },
            ExprKind::Unary(UnOp::AddrOf, x) => FTy::Ptr(Box::new(self.fty_of(x)?)),
            ExprKind::Index(..) => self.struct_elem_fty(e).unwrap_or(FTy::Scalar(CType::INT)),
            ExprKind::Member(b, f, arrow) => {
                let mut t = self.fty_of(b)?;
                if *arrow {
                    t = match t {
                        FTy::Ptr(t) => *t,
                        _ => return Ok(FTy::Scalar(CType::INT)),
                    };
                }
                match self.field(&t, f, e.span) {
                    Ok((t, _)) => t,
                    Err(_) => FTy::Scalar(CType::INT),
                }
            }
            ExprKind::Call(f, _) => match &f.kind {
                ExprKind::Ident(n) => match self.types.sigs.get(n) {
                    Some((r, _)) => r.clone(),
                    None => FTy::Scalar(CType::INT),
                },
                _ => FTy::Scalar(CType::INT),
            },
            ExprKind::Cast(t, _) => self.full_type(&t.specs, t.pointers)?,
            ExprKind::Cond(_, a, b) => match self.fty_of(a)? {
                FTy::Ptr(t) => FTy::Ptr(t),
                _ => self.fty_of(b)?,
            },
            ExprKind::Comma(_, b) => self.fty_of(b)?,
            ExprKind::Assign(_, l, _) => self.fty_of(l)?,
            _ => FTy::Scalar(CType::INT),
        })
    }

    /// An error unless `e` may be stored where a value of type `dest` goes: a pointer needs
    /// a pointer or a null pointer constant (integers never become pointers: the points-to
    /// sets could not follow them).
    pub(super) fn check_source(&mut self, dest: &FTy, e: &Expr) -> Result<(), CError> {
        if let ExprKind::Binary(op, a, b) = &e.kind {
            self.check_binary(*op, a, b)?;
        }
        if let ExprKind::Ident(n) = &e.kind {
            if dest.is_ptr() && self.lookup(n).is_some_and(|(v, _)| self.info(v).is_array()) {
                return Err(unsupported(e.span, "arrays used as pointers"));
            }
        }
        if dest.is_ptr() && !is_null(e) && !self.fty_of(e)?.is_ptr() {
            return Err(unsupported(e.span, "conversions of integers to pointers"));
        }
        if matches!(dest, FTy::Struct(_)) {
            return Err(unsupported(e.span, "struct values here"));
        }
        Ok(())
    }

    /// An error unless `e` may be returned by the current function.
    pub(super) fn check_return_ext(&mut self, e: &Expr) -> Result<(), CError> {
        if let Some((r, _)) = self.types.sigs.get(&self.func).cloned() {
            self.check_source(&r, e)?;
        }
        Ok(())
    }

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
            ExprKind::Index(a, _) => {
                if let Some(p) = self.elem_place(e)? {
                    return Ok(p);
                }
                let mut base = &**a;
                while let ExprKind::Index(b, _) = &base.kind {
                    base = b;
                }
                if let ExprKind::Ident(n) = &base.kind {
                    if self.lookup(n).is_some_and(|(v, _)| self.info(v).is_array()) {
                        return Err(unsupported(e.span, "pointers into arrays"));
                    }
                }
                Err(unsupported(
                    e.span,
                    "arrays of pointers, and indexing through pointers",
                ))
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
    fn deref_place(&mut self, p: &Expr) -> Result<Place, CError> {
        let fty = match self.fty_of(p)? {
            FTy::Ptr(t) => *t,
            // The type of an element is not tracked: arrays of pointers are outside the subset.
            _ if matches!(p.kind, ExprKind::Index(..)) => {
                return Err(unsupported(p.span, "arrays of pointers"))
            }
            _ => {
                return Err(CError::new(
                    CErrorKind::Name,
                    p.span,
                    "dereference of something that is not a pointer",
                ))
            }
        };
        if fty == FTy::Void {
            return Err(unsupported(p.span, "dereferences of `void *`"));
        }
        let pty = self.ptr_ctype();
        let value = convert(self.expr(p)?, pty);
        let temp = self.temp(pty, p.span);
        let setup = mk(IExprKind::Assign(temp, Box::new(value)), pty, p.span);
        Ok(Place::Deref {
            setup,
            temp,
            off: 0,
            fty,
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
    fn write_cell(&mut self, p: &Place, k: usize, value: IExpr, span: Span) -> IExpr {
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
    fn elem_index(index: &[(VarRef, CType)], span: Span) -> Vec<IExpr> {
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

    /// `&x`, `*p`, `s.f`, `p->f` as values.
    pub(super) fn pointer_expr(&mut self, e: &Expr) -> Result<IExpr, CError> {
        let span = e.span;
        if let ExprKind::Unary(UnOp::AddrOf, x) = &e.kind {
            if let ExprKind::Unary(UnOp::Deref, p) = &x.kind {
                if !self.fty_of(p)?.is_ptr() {
                    return Err(CError::new(
                        CErrorKind::Name,
                        p.span,
                        "dereference of something that is not a pointer",
                    ));
                }
                let pty = self.ptr_ctype();
                return Ok(convert(self.expr(p)?, pty));
            }
            if let ExprKind::Ident(n) = &x.kind {
                if self.lookup(n).is_none() && self.sigs.contains_key(n) {
                    return Err(unsupported(span, "function pointers"));
                }
            }
            let pty = self.ptr_ctype();
            return Ok(match self.place(x)? {
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
                Place::Elem { .. } => {
                    return Err(unsupported(span, "pointers into arrays of structs"))
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
            });
        }
        let p = self.place(e)?;
        let fty = match &p {
            Place::Cells { fty, .. } | Place::Deref { fty, .. } | Place::Elem { fty, .. } => {
                fty.clone()
            }
        };
        if matches!(fty, FTy::Struct(_)) {
            return Err(unsupported(span, "struct values here"));
        }
        let ty = self.leaf_ctype(&fty);
        let v = self.read_cell(&p, 0, ty, span);
        Ok(Self::after_setup(&p, v))
    }

    /// Assignments `lhs op= rhs` that involve pointers or structs; `None`: a plain one.
    pub(super) fn assign_ext(
        &mut self,
        op: Option<BinOp>,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> Result<Option<IExpr>, CError> {
        let lt = self.fty_of(lhs)?;
        if lt.is_ptr() && op.is_some() {
            return Err(unsupported(span, "pointer arithmetic"));
        }
        if matches!(lt, FTy::Struct(_)) {
            if op.is_some() {
                return Err(unsupported(span, "arithmetic on structs"));
            }
            return self.struct_copy(lhs, rhs, span).map(Some);
        }
        self.check_source(&lt, rhs)?;
        if matches!(lhs.kind, ExprKind::Ident(_)) {
            return Ok(None);
        }
        let p = self.place(lhs)?;
        let ty = self.leaf_ctype(&lt);
        let value = match op {
            None => self.expr(rhs)?,
            Some(op) => {
                let cur = self.read_cell(&p, 0, ty, lhs.span);
                let r = self.expr(rhs)?;
                binary(op, cur, r, span)
            }
        };
        let w = self.write_cell(&p, 0, convert(value, ty), span);
        Ok(Some(Self::after_setup(&p, w)))
    }

    /// `s = t` for structs: cell by cell.
    fn struct_copy(&mut self, lhs: &Expr, rhs: &Expr, span: Span) -> Result<IExpr, CError> {
        let lt = self.fty_of(lhs)?;
        if self.fty_of(rhs)? != lt {
            return Err(unsupported(rhs.span, "this struct assignment"));
        }
        let l = self.place(lhs)?;
        let r = self.place(rhs)?;
        let mut out = mk(IExprKind::Const(BigInt::from(0)), CType::INT, span);
        let cells = self.cells(&lt);
        for (k, (_, leaf)) in cells.iter().enumerate().rev() {
            let ty = self.leaf_ctype(leaf);
            let v = self.read_cell(&r, k, ty, span);
            let w = self.write_cell(&l, k, v, span);
            out = comma(w, out);
        }
        Ok(Self::after_setup(&l, Self::after_setup(&r, out)))
    }

    /// `++x`, `x--` where `x` is a field or a dereference; `None`: a plain variable.
    pub(super) fn incdec_ext(
        &mut self,
        pre: bool,
        inc: bool,
        x: &Expr,
        span: Span,
    ) -> Result<Option<IExpr>, CError> {
        let t = self.fty_of(x)?;
        if t.is_ptr() {
            return Err(unsupported(span, "pointer arithmetic"));
        }
        if matches!(t, FTy::Struct(_)) {
            return Err(unsupported(span, "arithmetic on structs"));
        }
        if matches!(x.kind, ExprKind::Ident(_)) {
            return Ok(None);
        }
        let p = self.place(x)?;
        let ty = self.leaf_ctype(&t);
        let old = self.read_cell(&p, 0, ty, span);
        let keep = self.temp(ty, span);
        let save = mk(IExprKind::Assign(keep, Box::new(old)), ty, span);
        let one = mk(IExprKind::Const(BigInt::from(1)), CType::INT, span);
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let new = binary(op, mk(IExprKind::Var(keep), ty, span), one, span);
        let w = self.write_cell(&p, 0, convert(new, ty), span);
        let value = if pre {
            w
        } else {
            comma(w, mk(IExprKind::Var(keep), ty, span))
        };
        Ok(Some(Self::after_setup(&p, comma(save, value))))
    }

    /// `(T *) e`: pointer to pointer (the same value), or a null pointer constant.
    pub(super) fn cast_ext(&mut self, t: &TypeName, a: &Expr, span: Span) -> Result<IExpr, CError> {
        self.full_type(&t.specs, t.pointers)?;
        let pty = self.ptr_ctype();
        if is_null(a) {
            return Ok(mk(IExprKind::Const(BigInt::from(0)), pty, span));
        }
        if !self.fty_of(a)?.is_ptr() {
            return Err(unsupported(span, "conversions of integers to pointers"));
        }
        Ok(convert(self.expr(a)?, pty))
    }

    /// Arithmetic or ordering on pointers: unsupported.
    pub(super) fn check_binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Result<(), CError> {
        use BinOp::*;
        if matches!(op, Eq | Ne | And | Or) {
            return Ok(());
        }
        for x in [a, b] {
            match self.fty_of(x)? {
                FTy::Ptr(_) => return Err(unsupported(x.span, "pointer arithmetic")),
                FTy::Struct(_) => return Err(unsupported(x.span, "struct values here")),
                _ => {}
            }
        }
        Ok(())
    }
}
