//! Lowering of the heap: allocation sites' cells as objects of the points-to analysis,
//! `malloc`/`calloc`/`free` as scalar and array operations, and the property's checks
//! (memory violations as error calls, leak checks at the end of `main` and at aborts). Part
//! of [`super`], called by `lower.rs`.
//!
//! Design (the state of [`crate::frontend::c::ir::HeapSite`]): an allocation takes the
//! site's next free index `i` (the execution ends when the site's cell arrays are full),
//! marks elements `i .. i + n` live (1 at the block's start, 3 inside), gives every cell of
//! them any value (or zero for `calloc`), adds one to the live-block count and moves the
//! index past one never-allocated element; its value is the address of element `i` of the
//! first cell. A dereference through a heap cell is valid only where the element is live
//! (`lower.rs` adds that test to the range test). `free(t)`: nothing for `NULL`; for a live
//! block's start, the block's elements become freed (2, 4) and the count drops by one; any
//! other address is an invalid free. Invalid operations call `__memory_violation(kind, at,
//! pointer)` (an error) when the property checks them, else they end the execution
//! (undefined behaviour). The property's other checks are `mem_checks.rs`.
//!
//! Must not: compute points-to sets (that is `lower.rs`) or build CFAs.

use super::super::ast::{BinOp, Span};
use super::super::error::CError;
use super::super::ir::*;
use super::super::types::CType;
use super::lower::{Lower, Objects};
use super::pointers::{Site, SiteKind};
use super::unsupported;
use num_bigint::BigInt;

/// Addresses must stay below this (pointers are `long`, 32 bits under ILP32).
const ADDRESS_LIMIT: u64 = 1 << 31;

/// Gives the cells of every allocation site ids after the address-taken cells' (one object per
/// site).
pub(super) fn register(program: &Program, objects: &mut Objects) {
    let mut next_id = objects.cells.keys().next_back().map_or(1, |k| k + 1);
    let first_obj = objects.cells.values().map(|c| c.1 + 1).max().unwrap_or(0);
    for (obj, (h, site)) in (first_obj..).zip(program.heap.sites.iter().enumerate()) {
        for &g in &site.cells {
            objects.ids.insert(g, next_id);
            objects.cells.insert(next_id, (g, obj));
            objects.heap.insert(next_id, h);
            next_id += 1;
        }
    }
}

/// Records each site's cell addresses; an error when they do not fit.
pub(super) fn bases(program: &mut Program, objects: &Objects) -> Result<(), CError> {
    let end = objects
        .ranges
        .values()
        .map(|(b, n)| b + n.unwrap_or(1) + 1)
        .max()
        .unwrap_or(0);
    for site in &mut program.heap.sites {
        if end >= ADDRESS_LIMIT {
            return Err(unsupported(site.span, "this many allocation sites"));
        }
        site.bases = site
            .cells
            .iter()
            .map(|g| objects.base(objects.ids[g]))
            .collect();
    }
    Ok(())
}

pub(super) fn mk(kind: IExprKind, ty: CType, span: Span) -> IExpr {
    IExpr { kind, ty, span }
}

pub(super) fn int(v: i128, ty: CType, span: Span) -> IExpr {
    mk(IExprKind::Const(BigInt::from(v)), ty, span)
}

pub(super) fn bin(
    kind: fn(BinOp, Box<IExpr>, Box<IExpr>) -> IExprKind,
    op: BinOp,
    a: IExpr,
    b: IExpr,
    ty: CType,
) -> IExpr {
    let span = a.span;
    mk(kind(op, Box::new(a), Box::new(b)), ty, span)
}

pub(super) fn comma(a: IExpr, b: IExpr) -> IExpr {
    let (ty, span) = (b.ty, b.span);
    mk(IExprKind::Comma(Box::new(a), Box::new(b)), ty, span)
}

/// `var[index] = value` (the value of the element type).
fn set(var: usize, index: IExpr, value: IExpr, ty: CType) -> IExpr {
    let span = index.span;
    mk(
        IExprKind::SetElem {
            var: VarRef::Global(var),
            index: vec![index],
            value: Box::new(value),
            post: false,
        },
        ty,
        span,
    )
}

impl Lower<'_> {
    /// The end of an execution at an invalid operation of kind `kind` at `span` on the
    /// address `t`: a memory violation when the property checks it, else undefined behaviour
    /// (the execution ends, no error).
    pub(super) fn invalid_op(&mut self, kind: MemViolation, span: Span, t: IExpr) -> IExpr {
        let mk = |kind, ty| IExpr { kind, ty, span };
        if self.program.heap.checks.deref_free {
            self.used_violation = true;
            let long = t.ty;
            let args = vec![
                mk(IExprKind::Const(BigInt::from(kind as i64)), long),
                mk(IExprKind::Const(BigInt::from(span.start)), long),
                t,
            ];
            mk(IExprKind::Call(self.violation, args), CType::INT)
        } else {
            // The address goes along for the interpreter's check of the points-to sets (see
            // `Program::invalid_fn`); an invalid `free` may well be of an object's address.
            let arg = match kind {
                MemViolation::Deref => t,
                _ => mk(IExprKind::Const(BigInt::from(0)), t.ty),
            };
            self.end_call(arg)
        }
    }

    /// A call of `__invalid_dereference(address)`, which ends the execution without an error.
    pub(super) fn end_call(&mut self, address: IExpr) -> IExpr {
        self.used_invalid = true;
        let span = address.span;
        IExpr {
            kind: IExprKind::Call(self.invalid, vec![address]),
            ty: CType::INT,
            span,
        }
    }

    /// Records `site` in the heap operations when it allocates, frees, or may reach a heap
    /// cell.
    pub(super) fn note_heap_op(&mut self, site: &Site, span: Span) {
        let on_heap = |lw: &Self, temp| {
            lw.targets(temp, 0)
                .iter()
                .any(|(c, _)| lw.objects.heap.contains_key(c))
        };
        let kind = match site.kind {
            SiteKind::Alloc { heap } => HeapOpKind::Alloc(heap),
            SiteKind::Free { temp } => HeapOpKind::Free(temp),
            SiteKind::Load { temp, off } if on_heap(self, temp) => HeapOpKind::Load(temp, off),
            SiteKind::Store { temp, off, .. } if on_heap(self, temp) => {
                HeapOpKind::Store(temp, off)
            }
            SiteKind::FieldAddr { temp, off } if on_heap(self, temp) => {
                HeapOpKind::FieldAddr(temp, off)
            }
            _ => return,
        };
        self.ops.push(HeapOp {
            func: self.f,
            span,
            kind,
        });
    }

    /// The function being lowered.
    pub(super) fn f(&self) -> usize {
        self.f
    }

    /// A call that ends the execution without an error.
    pub(super) fn end_execution(&mut self, span: Span) -> IExpr {
        self.end_call(int(0, pointer_type(), span))
    }

    /// The element of allocation site `h` that `temp` addresses through cell `c` is live.
    pub(super) fn live_element(&self, h: usize, c: u32, temp: VarRef, span: Span) -> IExpr {
        let state = self.program.heap.sites[h].state;
        let pty = self.program.var(self.f(), temp).ty;
        let t = mk(IExprKind::Var(temp), pty, span);
        let base = int(i128::from(self.objects.base(c)), pty, span);
        let idx = bin(IExprKind::Arith, BinOp::Sub, t, base, pty);
        let elem = || {
            mk(
                IExprKind::Elem(VarRef::Global(state), vec![idx.clone()]),
                CType::INT,
                span,
            )
        };
        let is = |v| {
            bin(
                IExprKind::Cmp,
                BinOp::Eq,
                elem(),
                int(v, CType::INT, span),
                CType::INT,
            )
        };
        bin(IExprKind::Logic, BinOp::Or, is(1), is(3), CType::INT)
    }

    /// A new block of site `h`: its address (of type `ty`).
    pub(super) fn alloc(&mut self, h: usize, ty: CType, span: Span) -> IExpr {
        let site = self.program.heap.sites[h].clone();
        let live = self.program.heap.live.expect("a site makes the live count");
        let n = i128::from(site.block);
        let i32t = CType::INT;
        let next = || mk(IExprKind::Var(VarRef::Global(site.next)), i32t, span);
        let at = |j: i128| {
            bin(
                IExprKind::Arith,
                BinOp::Add,
                next(),
                int(j, i32t, span),
                i32t,
            )
        };
        // Full: the execution ends (no NULL is returned).
        let full = bin(
            IExprKind::Cmp,
            BinOp::Gt,
            at(n + 1),
            int(i128::from(site.capacity), i32t, span),
            i32t,
        );
        let stop = self.end_execution(span);
        let mut out = mk(
            IExprKind::Cond(Box::new(full), Box::new(stop), Box::new(int(0, i32t, span))),
            i32t,
            span,
        );
        let mut nondet = site.nondet;
        for j in 0..n {
            let s = if j == 0 { 1 } else { 3 };
            out = comma(out, set(site.state, at(j), int(s, i32t, span), i32t));
            for &g in &site.cells {
                let cty = self.program.globals[g].ty;
                let value = if site.zeroed {
                    int(0, cty, span)
                } else {
                    nondet += 1;
                    mk(IExprKind::Nondet(nondet - 1), cty, span)
                };
                out = comma(out, set(g, at(j), value, cty));
            }
        }
        let var = |g| mk(IExprKind::Var(VarRef::Global(g)), i32t, span);
        let plus = |g, d| {
            bin(
                IExprKind::Arith,
                BinOp::Add,
                var(g),
                int(d, i32t, span),
                i32t,
            )
        };
        out = comma(
            out,
            mk(
                IExprKind::Assign(VarRef::Global(live), Box::new(plus(live, 1))),
                i32t,
                span,
            ),
        );
        out = comma(
            out,
            mk(
                IExprKind::Assign(VarRef::Global(site.next), Box::new(plus(site.next, n + 1))),
                i32t,
                span,
            ),
        );
        let base = int(i128::from(site.bases[0]), ty, span);
        let start = super::convert(
            bin(
                IExprKind::Arith,
                BinOp::Sub,
                next(),
                int(n + 1, i32t, span),
                i32t,
            ),
            ty,
        );
        comma(out, bin(IExprKind::Arith, BinOp::Add, base, start, ty))
    }

    /// `free(temp)` with `temp`'s points-to targets (target cell, shifted cell).
    pub(super) fn free(&mut self, temp: VarRef, targets: &[(u32, u32)], span: Span) -> IExpr {
        let pty = self.program.var(self.f(), temp).ty;
        let i32t = CType::INT;
        let t = || mk(IExprKind::Var(temp), pty, span);
        let mut out = self.invalid_op(MemViolation::Free, span, t());
        let live = self.program.heap.live;
        for &(c, _) in targets.iter().rev() {
            let Some(&h) = self.objects.heap.get(&c) else {
                continue;
            };
            let site = &self.program.heap.sites[h];
            if self.objects.base(c) != site.bases[0] {
                continue; // a pointer to another field than the first is never a block start
            }
            let (b, cap) = (i128::from(site.bases[0]), i128::from(site.capacity));
            let idx = || bin(IExprKind::Arith, BinOp::Sub, t(), int(b, pty, span), pty);
            let cmp = |op, a, x| bin(IExprKind::Cmp, op, a, x, i32t);
            let and = |a, x| bin(IExprKind::Logic, BinOp::And, a, x, i32t);
            let state = || {
                mk(
                    IExprKind::Elem(VarRef::Global(site.state), vec![idx()]),
                    i32t,
                    span,
                )
            };
            let ok = and(
                and(
                    cmp(BinOp::Le, int(b, pty, span), t()),
                    cmp(BinOp::Lt, t(), int(b + cap, pty, span)),
                ),
                cmp(BinOp::Eq, state(), int(1, i32t, span)),
            );
            let mut release = int(0, i32t, span);
            for j in 0..i128::from(site.block) {
                let at = bin(IExprKind::Arith, BinOp::Add, idx(), int(j, pty, span), pty);
                let s = if j == 0 { 2 } else { 4 };
                release = comma(release, set(site.state, at, int(s, i32t, span), i32t));
            }
            if let Some(live) = live {
                let var = mk(IExprKind::Var(VarRef::Global(live)), i32t, span);
                let minus = bin(IExprKind::Arith, BinOp::Sub, var, int(1, i32t, span), i32t);
                release = comma(
                    release,
                    mk(
                        IExprKind::Assign(VarRef::Global(live), Box::new(minus)),
                        i32t,
                        span,
                    ),
                );
            }
            let release = comma(release, int(0, i32t, span));
            out = mk(
                IExprKind::Cond(Box::new(ok), Box::new(release), Box::new(out)),
                i32t,
                span,
            );
        }
        let null = bin(IExprKind::Cmp, BinOp::Eq, t(), int(0, pty, span), i32t);
        mk(
            IExprKind::Cond(Box::new(null), Box::new(int(0, i32t, span)), Box::new(out)),
            i32t,
            span,
        )
    }
}

/// Adds `__memory_violation(kind, at, pointer)`, whose body is the error.
/// The type of the address parameters of the synthetic functions: a 64-bit `long`.
pub(super) fn pointer_type() -> CType {
    CType::of_rank(5, true, super::super::types::DataModel::Lp64)
}

pub(super) fn add_violation_fn(program: &mut Program) {
    if program.heap.violation_fn.is_some() {
        return;
    }
    let span = Span::new(0, 0);
    let long = |name: &str| VarInfo {
        name: name.to_owned(),
        ty: pointer_type(),
        span,
        dims: vec![],
    };
    program.heap.violation_fn = Some(program.functions.len());
    program.functions.push(Function {
        name: "__memory_violation".to_owned(),
        ret: Some(CType::INT),
        params: 3,
        locals: vec![long("kind"), long("at"), long("pointer")],
        body: vec![IStmt {
            kind: IStmtKind::Error,
            span,
        }],
        cfa: Default::default(),
        loop_scopes: vec![],
        labels: vec![],
        span,
    });
}
