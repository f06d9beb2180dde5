//! Heap operations in the resolver: `malloc`, `calloc`, `free`, `NULL`, `sizeof`. Part of
//! [`super`]; the allocation sites' operations are lowered by `heap_lower.rs`.
//!
//! Design: every `malloc`/`calloc`/`alloca` call in the source is an *allocation site*. Its
//! size is a number of elements of one type, read off the argument: `sizeof(T)`, `sizeof e`,
//! `n * sizeof(T)` or `sizeof(T) * n` (`calloc(n, sizeof(T))` alike), or a number of bytes (a
//! block of `char`s, which only `char` accesses may read). The site is an unbounded array of
//! such blocks, flattened like an array of structs (`struct_array.rs`): one global integer
//! array per cell of `T`, plus a state array and a next-block counter (see
//! [`crate::frontend::c::ir::HeapSite`]). A constant count from 1 to [`MAX_BLOCK`] gives blocks
//! of that fixed size, every element with its own state ([`CAPACITY`] elements per array);
//! any other count (a variable, zero, a large constant) gives blocks of a variable size, one
//! per [`STRIDE`] elements of [`VAR_CAPACITY`], whose size the site records at the block's
//! start (its elements' contents are the cell arrays' initial ones, any values unless zeroed:
//! blocks are never reused); a site of a variable size in `main` outside loops is marked as
//! allocating once, and `heap_lower::size_single_blocks` gives it one block as large as the
//! addresses allow when that holds for the whole program. For the points-to analysis the site is one abstract object; its
//! cells get addresses like any other object's, so a pointer to a heap element is an address
//! in the first cell's range and `p->f` moves it into `f`'s range. The call itself becomes a
//! pointer site ([`SiteKind::Alloc`], after the count is saved in a temporary when it is
//! variable); `free(p)` saves `p` and becomes [`SiteKind::Free`]. `alloca` makes a *stack*
//! site: the block dies when its function returns (`heap_lower.rs`), so it may not be called
//! in a loop (one block per call of the function).
//!
//! `NULL` (from `<stdlib.h>`/`<stddef.h>`, whose text is never read) is the null pointer
//! constant when the program does not define it. `sizeof` elsewhere is the size in bytes of a
//! scalar or pointer type under the data model; `sizeof` of a struct outside an allocation,
//! `realloc` and allocation sizes of other shapes are `unsupported`.
//!
//! Must not: lay out addresses or lower the sites (that is `lower.rs` and `heap_lower.rs`).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::pointers::{comma, mk, SiteKind};
use super::structs::FTy;
use super::{convert, unsupported, Resolver};
use crate::frontend::c::ir::fold;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// Elements per cell array of an allocation site: allocations beyond it end the execution
/// (an out-of-memory failure the model does not return as `NULL`).
pub(super) const CAPACITY: u64 = 1 << 20;

/// The largest number of elements of a block of a fixed size (each is initialised one by one).
const MAX_BLOCK: u64 = 64;

/// Elements per cell array of a site of blocks of a variable size.
pub(super) const VAR_CAPACITY: u64 = 1 << 22;

/// Elements between the starts of two blocks of a variable size: at most `STRIDE - 1`
/// elements per block, `VAR_CAPACITY / STRIDE` blocks per site.
pub(super) const STRIDE: u64 = 1 << 12;

/// The number of elements of an allocation.
enum Count {
    /// A constant.
    Const(BigInt),
    /// Computed when the program runs (a value of the pointer type).
    Var(IExpr),
}

/// The functions of `<stdlib.h>` this module handles.
pub(super) const HEAP_FUNCTIONS: &[&str] = &["malloc", "calloc", "free", "realloc", "alloca"];

impl Resolver {
    /// A call of a heap function the program does not define: `Ok(None)` for other names.
    pub(super) fn heap_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Result<Option<IExpr>, CError> {
        if !HEAP_FUNCTIONS.contains(&name) || self.sigs.get(name).is_some_and(|s| s.index.is_some())
        {
            return Ok(None);
        }
        let arity = |n: usize| {
            if args.len() == n {
                Ok(())
            } else {
                Err(CError::new(
                    CErrorKind::Name,
                    span,
                    format!("`{name}` takes {n} argument(s), {} given", args.len()),
                ))
            }
        };
        let pty = self.ptr_ctype();
        match name {
            "malloc" | "alloca" => {
                arity(1)?;
                let stack = name == "alloca";
                if stack && self.jumps.contains(&true) {
                    return Err(unsupported(span, "`alloca` in a loop"));
                }
                let (t, n) = self.alloc_size(&args[0], None)?;
                Ok(Some(self.alloc_site(t, n, false, stack, span)?))
            }
            "calloc" => {
                arity(2)?;
                let count = self.expr(&args[0])?;
                let count = match fold(&count) {
                    Some(k) => Count::Const(k),
                    None => Count::Var(convert(count, pty)),
                };
                let (t, n) = self.alloc_size(&args[1], Some(count))?;
                Ok(Some(self.alloc_site(t, n, true, false, span)?))
            }
            "free" => {
                arity(1)?;
                let a = &args[0];
                if !super::pointers::is_null(a) && !self.fty_of(a)?.decayed().is_ptr() {
                    return Err(unsupported(
                        a.span,
                        "`free` of a value that is not a pointer",
                    ));
                }
                let value = convert(self.expr(a)?, pty);
                let temp = self.temp(pty, a.span);
                let save = mk(IExprKind::Assign(temp, Box::new(value)), pty, a.span);
                let site = self.site(SiteKind::Free { temp }, CType::INT, span);
                Ok(Some(comma(save, site)))
            }
            _ => Err(unsupported(span, &format!("`{name}`"))),
        }
    }

    /// The element type and number of elements of an allocation of `size` bytes (times
    /// `count`, for `calloc`).
    fn alloc_size(&mut self, size: &Expr, count: Option<Count>) -> Result<(FTy, Count), CError> {
        let shape = || {
            unsupported(
                size.span,
                "allocation sizes other than a multiple of `sizeof(T)` or a number of bytes",
            )
        };
        let pty = self.ptr_ctype();
        let (t, k) = match &size.kind {
            ExprKind::SizeofType(_) | ExprKind::SizeofExpr(_) => (
                self.sizeof_type(size)?.ok_or_else(shape)?,
                Count::Const(BigInt::from(1)),
            ),
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (s, n) = match self.sizeof_type(a)? {
                    Some(t) => (t, b),
                    None => (self.sizeof_type(b)?.ok_or_else(shape)?, a),
                };
                (s, self.count(n)?)
            }
            // A number of bytes: a block of `char`s (an access through a pointer to another
            // type is refused by the lowering).
            _ => (FTy::Scalar(CType::CHAR), self.count(size)?),
        };
        let total = match (k, count) {
            (k, None) => k,
            (Count::Const(a), Some(Count::Const(b))) => Count::Const(a * b),
            (a, Some(b)) => {
                let value = |c: Count| match c {
                    Count::Const(k) => mk(IExprKind::Const(k), pty, size.span),
                    Count::Var(e) => e,
                };
                let (a, b) = (value(a), value(b));
                Count::Var(mk(
                    IExprKind::Arith(BinOp::Mul, Box::new(a), Box::new(b)),
                    pty,
                    size.span,
                ))
            }
        };
        Ok((t, total))
    }

    /// The number `n` of elements in an allocation size `n * sizeof(T)`.
    fn count(&mut self, n: &Expr) -> Result<Count, CError> {
        let e = self.expr(n)?;
        Ok(match fold(&e) {
            Some(k) => Count::Const(k),
            None => Count::Var(convert(e, self.ptr_ctype())),
        })
    }

    /// The type `sizeof` names, when `e` is a `sizeof`.
    fn sizeof_type(&mut self, e: &Expr) -> Result<Option<FTy>, CError> {
        Ok(match &e.kind {
            ExprKind::SizeofType(t) => Some(self.full_type(&t.specs, t.pointers)?),
            ExprKind::SizeofExpr(x) => {
                // `fty_of` decays arrays to pointers: their size is another matter.
                let array = match &x.kind {
                    ExprKind::Ident(n) => {
                        self.lookup(n).is_some_and(|(v, _)| self.info(v).is_array())
                    }
                    ExprKind::Unary(UnOp::Deref, _) | ExprKind::Member(..) => false,
                    _ => true,
                };
                let t = self.fty_of(x)?;
                if array || matches!(t, FTy::Array(..)) {
                    return Err(unsupported(
                        e.span,
                        "`sizeof` of an array or of this expression",
                    ));
                }
                Some(t)
            }
            _ => None,
        })
    }

    /// `sizeof` as a value: the size in bytes of a scalar or pointer type.
    pub(super) fn sizeof_value(&mut self, e: &Expr) -> Result<IExpr, CError> {
        let t = self.sizeof_type(e)?.unwrap_or(FTy::Void);
        let bytes = match &t {
            FTy::Scalar(c) => u64::from(c.bits.max(8) / 8),
            FTy::Ptr(_) => u64::from(self.ptr_ctype().bits / 8),
            _ => {
                return Err(unsupported(
                    e.span,
                    "`sizeof` of this type outside an allocation",
                ))
            }
        };
        let ty = CType::of_rank(4, false, self.model);
        Ok(mk(IExprKind::Const(BigInt::from(bytes)), ty, e.span))
    }

    /// A new allocation site of `n` elements of type `t`: its globals, and the site (after
    /// the count's temporary for blocks of a variable size). `stack`: an `alloca`.
    fn alloc_site(
        &mut self,
        t: FTy,
        n: Count,
        zeroed: bool,
        stack: bool,
        span: Span,
    ) -> Result<IExpr, CError> {
        if matches!(t, FTy::Void) {
            return Err(unsupported(span, "allocations of `void`"));
        }
        self.check_complete(&t, span)?;
        if self.has_array_cells(&t) {
            return Err(unsupported(
                span,
                "heap blocks of structs with array fields",
            ));
        }
        let pty = self.ptr_ctype();
        let fixed = match &n {
            Count::Const(k) => k.to_u64().filter(|k| (1..=MAX_BLOCK).contains(k)),
            Count::Var(_) => None,
        };
        let capacity = if fixed.is_some() {
            CAPACITY
        } else {
            VAR_CAPACITY
        };
        let index = self.heap.sites.len();
        let label = format!("heap#{index}");
        let mut cells = vec![];
        for (suffix, leaf) in self.cells(&t) {
            let ty = self.leaf_ctype(&leaf);
            cells.push(self.heap_global(format!("{label}{suffix}"), ty, Some(capacity), span));
        }
        let state = self.heap_global(format!("{label}.state"), CType::INT, Some(capacity), span);
        let next = self.heap_global(format!("{label}.next"), CType::INT, None, span);
        let block = match fixed {
            Some(n) => BlockSize::Fixed(n),
            None => BlockSize::Variable {
                sizes: self.heap_global(format!("{label}.size"), pty, Some(capacity), span),
                stride: STRIDE,
            },
        };
        if self.heap.live.is_none() && !stack {
            self.heap.live = Some(self.heap_global("heap.live".to_owned(), CType::INT, None, span));
        }
        let nondet = self.sites.len();
        if !zeroed {
            // Fixed: one nondet site per element and cell; variable: one per cell array.
            for _ in 0..fixed.unwrap_or(1) {
                for &c in &cells {
                    let ty = self.globals[c].ty;
                    self.sites.push(NondetSite { ty, span });
                }
            }
        }
        // Checked again once every function is known (`heap_lower::size_single_blocks`).
        let once = fixed.is_none() && !stack && self.func == "main" && !self.jumps.contains(&true);
        let stack = stack.then(|| (self.func_index(), self.temp(pty, span)));
        self.heap.sites.push(HeapSite {
            nondet,
            span,
            cells,
            bases: vec![],
            state,
            next,
            block,
            capacity,
            zeroed,
            stack,
            once,
        });
        if fixed.is_some() {
            return Ok(self.site(
                SiteKind::Alloc {
                    heap: index,
                    count: None,
                },
                pty,
                span,
            ));
        }
        // A variable size: the count is evaluated into a temporary first.
        let e = match n {
            Count::Var(e) => e,
            Count::Const(k) => mk(IExprKind::Const(k), pty, span),
        };
        let temp = self.temp(pty, span);
        let save = mk(IExprKind::Assign(temp, Box::new(e)), pty, span);
        let alloc = SiteKind::Alloc {
            heap: index,
            count: Some(temp),
        };
        Ok(comma(save, self.site(alloc, pty, span)))
    }

    /// A hidden global of the heap: an array of `capacity` elements or a scalar, zero.
    fn heap_global(&mut self, name: String, ty: CType, capacity: Option<u64>, span: Span) -> usize {
        let g = self.globals.len();
        let dims = capacity.map_or(vec![], |n| vec![Dim::Const(BigInt::from(n))]);
        self.globals.push(VarInfo {
            name,
            ty,
            span,
            dims,
        });
        self.global_init.push(BigInt::from(0));
        self.global_elems.push(vec![]);
        self.global_defined.push(true);
        g
    }
}

/// Whether `name` is `NULL` as the headers define it (the program did not define it).
pub(super) fn is_null_name(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if n == "NULL")
}
