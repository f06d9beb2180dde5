//! Pointer and struct expressions in the resolver: `&x`, `&a[i]`, `*p`, `p->f`, `s.f`, `p[i]`,
//! pointer arithmetic inside one array, stores through pointers, whole-struct copies, the full
//! types of expressions. Part of [`super`]; places (where an lvalue lives) are `places.rs`.
//!
//! Design: a pointer value is an integer, the *address* of the cell or array element it
//! points to (0 is NULL; `lower.rs` lays addresses out). The addresses are only known once
//! the whole program is resolved (every `&x` seen), and a dereference needs the points-to set
//! of its pointer, so each pointer operation is emitted as a *site*: a placeholder call
//! `Call(SITE_BASE + k, [])` recorded in [`Site`], with the pointer first saved in a fresh
//! temporary local (so it is evaluated once). Arithmetic on addresses is plain integer
//! arithmetic in the pointer type (`long`): an address counts elements, not bytes. `lower.rs`
//! replaces every placeholder by scalar operations once the points-to relation is computed:
//! nothing after the resolver ever sees a site.
//!
//! Must not: compute points-to sets or addresses (that is `lower.rs`).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::expr::binary;
use super::places::Place;
use super::structs::FTy;
use super::{convert, unsupported, Resolver};
use num_bigint::BigInt;

/// Placeholder calls `Call(SITE_BASE + k, [])` stand for the site `k`.
pub const SITE_BASE: usize = usize::MAX / 2;

/// What a pointer site does.
#[derive(Clone, Debug)]
pub(super) enum SiteKind {
    /// `&x`: the address of `cell`, a cell of the variable `root` of `cells` cells.
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
    /// A new block of the allocation site `heap` (`resolve/heap.rs`): its address. A site of
    /// blocks of a variable size reads their number of elements from `count`.
    Alloc { heap: usize, count: Option<VarRef> },
    /// `free` of the address in `temp`.
    Free { temp: VarRef },
}

/// A pointer site: its function (index among the definitions), kind and place.
#[derive(Clone, Debug)]
pub(super) struct Site {
    pub func: usize,
    pub kind: SiteKind,
    pub span: Span,
}

pub(super) fn mk(kind: IExprKind, ty: CType, span: Span) -> IExpr {
    IExpr { kind, ty, span }
}

pub(super) fn comma(a: IExpr, b: IExpr) -> IExpr {
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
        _ => super::heap::is_null_name(e),
    }
}

impl Resolver {
    /// The index of the current function among the definitions.
    pub(super) fn func_index(&self) -> usize {
        self.sigs.get(&self.func).and_then(|s| s.index).unwrap_or(0)
    }

    /// A placeholder for a new site.
    pub(super) fn site(&mut self, kind: SiteKind, ty: CType, span: Span) -> IExpr {
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
                // An array is a pointer to its first element wherever it is a value.
                Some((v, _)) if self.info(v).is_array() => FTy::Ptr(Box::new(self.elem_fty(v))),
                Some((v, _)) => self.var_fty(v),
                None => FTy::Scalar(CType::INT),
            },
            ExprKind::Unary(UnOp::Deref, p) => match self.fty_of(p)?.decayed() {
                FTy::Ptr(t) => *t,
                _ => FTy::Scalar(CType::INT),
            },
            ExprKind::Unary(UnOp::AddrOf, x) => FTy::Ptr(Box::new(self.fty_of(x)?)),
            ExprKind::Index(a, _) => match self.struct_elem_fty(e) {
                Some(t) => t,
                None => match self.fty_of(a)? {
                    FTy::Ptr(t) | FTy::Array(t, _) => *t,
                    _ => FTy::Scalar(CType::INT),
                },
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                match (self.fty_of(a)?.decayed(), self.fty_of(b)?.decayed()) {
                    (FTy::Ptr(_), FTy::Ptr(_)) => FTy::Scalar(self.ptr_ctype()),
                    (t @ FTy::Ptr(_), _) => t,
                    (_, t @ FTy::Ptr(_)) if *op == BinOp::Add => t,
                    _ => FTy::Scalar(CType::INT),
                }
            }
            ExprKind::IncDec(_, _, x) => self.fty_of(x)?,
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
                ExprKind::Ident(n)
                    if super::heap::HEAP_FUNCTIONS.contains(&n.as_str())
                        && n != "free"
                        && self.sigs.get(n).is_none_or(|s| s.index.is_none()) =>
                {
                    FTy::Ptr(Box::new(FTy::Void))
                }
                ExprKind::Ident(n) => match self.types.sigs.get(n) {
                    Some((r, _)) => r.clone(),
                    None => FTy::Scalar(CType::INT),
                },
                _ => FTy::Scalar(CType::INT),
            },
            ExprKind::Cast(t, _) => self.full_type(&t.specs, t.pointers)?,
            ExprKind::Cond(_, a, b) => match self.fty_of(a)?.decayed() {
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
        if dest.is_ptr() && !is_null(e) && !self.fty_of(e)?.decayed().is_ptr() {
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
            let p = self.place(x)?;
            return self.place_addr(p, span);
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
        if let FTy::Array(..) = fty {
            return self.place_addr(p, span);
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
        if let Some(op) = op.filter(|_| lt.is_ptr()) {
            self.check_binary(op, lhs, rhs)?;
        }
        if let FTy::Array(..) = lt {
            return Err(unsupported(span, "assignments of whole arrays"));
        }
        if matches!(lt, FTy::Struct(_)) {
            if op.is_some() {
                return Err(unsupported(span, "arithmetic on structs"));
            }
            return self.struct_copy(lhs, rhs, span).map(Some);
        }
        if op.is_none() {
            self.check_source(&lt, rhs)?;
        }
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
        if self.has_array_cells(&lt) {
            return Err(unsupported(span, "copies of structs with array fields"));
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
        if matches!(t, FTy::Struct(_) | FTy::Array(..)) {
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

    /// An error for operations on pointers outside the subset: pointer arithmetic is `p ± i`
    /// and `p - q`, orderings compare two pointers; structs are no operands.
    pub(super) fn check_binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Result<(), CError> {
        use BinOp::*;
        if matches!(op, Eq | Ne | And | Or) {
            return Ok(());
        }
        let (ta, tb) = (self.fty_of(a)?.decayed(), self.fty_of(b)?.decayed());
        for (x, t) in [(a, &ta), (b, &tb)] {
            if let FTy::Struct(_) = t {
                return Err(unsupported(x.span, "struct values here"));
            }
        }
        let ok = match (ta.is_ptr(), tb.is_ptr()) {
            (false, false) => true,
            (true, false) => matches!(op, Add | Sub),
            (false, true) => op == Add,
            (true, true) => matches!(op, Sub | Lt | Le | Gt | Ge),
        };
        if !ok {
            let x = if ta.is_ptr() { a } else { b };
            return Err(unsupported(x.span, "this pointer arithmetic"));
        }
        Ok(())
    }
}
