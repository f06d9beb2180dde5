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
use super::super::program::{Function, Program};
use super::super::types::CType;
use super::lower::{elements, Lower, Objects};
use super::pointers::{Site, SiteKind};
use super::unsupported;
use num_bigint::BigInt;
use std::collections::HashSet;

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

/// Gives the sites that allocate [`once`](HeapSite::once) one block each, as large as the
/// addresses below [`ADDRESS_LIMIT`] that the other cells leave allow, shared evenly by their
/// cells. A `main` with labels, or called by the program, may run such a call again: then
/// they keep the strided blocks of every other site of a variable size.
pub(super) fn size_single_blocks(program: &mut Program, objects: &Objects) {
    let main = program.main;
    let again = !program.functions[main].labels.is_empty() || super::walk::is_called(program, main);
    let once: Vec<usize> = (0..program.heap.sites.len())
        .filter(|&h| std::mem::take(&mut program.heap.sites[h].once) && !again)
        .collect();
    let mine: HashSet<usize> = once
        .iter()
        .flat_map(|&h| program.heap.sites[h].cells.iter().copied())
        .collect();
    // The addresses the other cells take, each after an unused one (`Objects::layout`).
    let taken: u64 = 1 + objects
        .cells
        .values()
        .filter(|(g, _)| !mine.contains(g))
        .map(|&(g, _)| elements(&program.globals[g]).unwrap_or(1) + 1)
        .sum::<u64>();
    let Some(share) = ADDRESS_LIMIT
        .checked_sub(taken + 2)
        .and_then(|left| (left / (mine.len().max(1) as u64)).checked_sub(1))
        .filter(|&n| n > super::heap::VAR_CAPACITY)
    else {
        return;
    };
    for h in once {
        let site = &mut program.heap.sites[h];
        site.once = true;
        site.capacity = share;
        if let BlockSize::Variable { stride, .. } = &mut site.block {
            *stride = share;
        }
        for g in site.globals() {
            let info = &mut program.globals[g];
            if info.is_array() {
                info.dims = vec![Dim::Const(BigInt::from(share))];
            }
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

impl Lower<'_> {
    /// The end of an execution at an invalid operation of kind `kind` at `span` on the
    /// address `t`: a memory violation when the property checks it, else undefined behaviour
    /// (the execution ends, no error).
    pub(super) fn invalid_op(&mut self, kind: MemViolation, span: Span, t: IExpr) -> IExpr {
        let mk = |kind, ty| IExpr { kind, ty, span };
        if self.program.heap.checks.invalid != InvalidOps::End {
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
            SiteKind::Alloc { heap, .. } => HeapOpKind::Alloc(heap),
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

    /// The element of allocation site `h` that `temp` addresses through cell `c` is live (the
    /// address is known to lie in `c`'s range).
    pub(super) fn live_element(&self, h: usize, c: u32, temp: VarRef, span: Span) -> IExpr {
        let site = &self.program.heap.sites[h];
        let pty = self.program.var(self.f(), temp).ty;
        let x = Build::new(span);
        let idx = x.sub(
            x.local(temp, pty),
            x.int(i128::from(self.objects.base(c)), pty),
        );
        let live = 1 + site.state_offset();
        match site.block {
            BlockSize::Fixed(_) => {
                let is = |code: i64| {
                    let state = x.elem(site.state, idx.clone(), CType::INT);
                    x.eq(state, x.int(code.into(), CType::INT))
                };
                x.or(is(live), is(live + 2))
            }
            BlockSize::Variable { sizes, .. } if site.one_block() => {
                // The block starts at element 0: the offset is the index.
                let state = x.elem(site.state, x.int(0, pty), CType::INT);
                let size = x.elem(sizes, x.int(0, pty), pty);
                x.and(
                    x.eq(state, x.int(live.into(), CType::INT)),
                    x.and(
                        x.cmp(BinOp::Le, x.int(0, pty), idx.clone()),
                        x.cmp(BinOp::Lt, idx, size),
                    ),
                )
            }
            BlockSize::Variable { sizes, stride } => {
                let offset = x.rem(idx.clone(), x.int(stride.into(), pty));
                let start = x.sub(idx, offset.clone());
                let state = x.elem(site.state, start.clone(), CType::INT);
                let size = x.elem(sizes, start, pty);
                x.and(
                    x.eq(state, x.int(live.into(), CType::INT)),
                    x.cmp(BinOp::Lt, offset, size),
                )
            }
        }
    }

    /// A new block of site `h` (of `count` elements when the site's blocks have a variable
    /// size): its address (of type `ty`).
    pub(super) fn alloc(
        &mut self,
        h: usize,
        count: Option<VarRef>,
        ty: CType,
        span: Span,
    ) -> IExpr {
        let site = self.program.heap.sites[h].clone();
        let x = Build::new(span);
        let i32t = CType::INT;
        let next = || x.global(site.next, i32t);
        let at = |j: i128| x.add(next(), x.int(j, i32t));
        let step = match site.block {
            BlockSize::Fixed(n) => i128::from(n) + 1,
            BlockSize::Variable { stride, .. } => i128::from(stride),
        };
        let mut out = if site.one_block() {
            // A second block of a site that allocates once: the model has no room for it (it
            // cannot happen, but the model never ends an execution it does not understand).
            let again = x.cmp(BinOp::Gt, next(), x.int(0, i32t));
            let count = count.expect("a variable size has its count");
            let n = x.local(count, self.program.var(self.f(), count).ty);
            let limit = self.violation_call(MemViolation::Limit, n, span);
            x.cond(again, limit, x.int(0, i32t), i32t)
        } else {
            // Full: the execution ends (no NULL is returned).
            let full = x.cmp(BinOp::Gt, at(step), x.int(i128::from(site.capacity), i32t));
            let stop = self.end_execution(span);
            x.cond(full, stop, x.int(0, i32t), i32t)
        };
        let offset = site.state_offset();
        match site.block {
            BlockSize::Fixed(n) => {
                let mut nondet = site.nondet;
                for j in 0..i128::from(n) {
                    let s = if j == 0 { 1 } else { 3 } + offset;
                    out = comma(out, x.set(site.state, at(j), x.int(s.into(), i32t), i32t));
                    for &g in &site.cells {
                        let cty = self.program.globals[g].ty;
                        let value = if site.zeroed {
                            x.int(0, cty)
                        } else {
                            nondet += 1;
                            mk(IExprKind::Nondet(nondet - 1), cty, span)
                        };
                        out = comma(out, x.set(g, at(j), value, cty));
                    }
                }
            }
            BlockSize::Variable { sizes, stride } => {
                let count = count.expect("a variable size has its count");
                let cty = self.program.var(self.f(), count).ty;
                let n = || x.local(count, cty);
                // More than the stride allows (or negative): the model cannot say.
                let over = x.or(
                    x.cmp(BinOp::Lt, n(), x.int(0, cty)),
                    x.cmp(BinOp::Ge, n(), x.int(i128::from(stride), cty)),
                );
                let limit = self.violation_call(MemViolation::Limit, n(), span);
                out = comma(out, x.cond(over, limit, x.int(0, i32t), i32t));
                out = comma(
                    out,
                    x.set(site.state, at(0), x.int((1 + offset).into(), i32t), i32t),
                );
                out = comma(out, x.set(sizes, at(0), n(), cty));
            }
        }
        if let Some((_, slot)) = site.stack {
            let sty = self.program.var(self.f(), slot).ty;
            let start = super::convert(next(), sty);
            out = comma(out, mk(IExprKind::Assign(slot, Box::new(start)), sty, span));
        } else {
            let live = self
                .program
                .heap
                .live
                .expect("a heap site makes the live count");
            let plus = x.add(x.global(live, i32t), x.int(1, i32t));
            out = comma(out, x.assign(VarRef::Global(live), plus, i32t));
        }
        out = comma(out, x.assign(VarRef::Global(site.next), at(step), i32t));
        let start = super::convert(x.sub(next(), x.int(step, i32t)), ty);
        comma(out, x.add(x.int(i128::from(site.bases[0]), ty), start))
    }

    /// A call of the violation function: `kind` at `span`, about `value` (a pointer or a
    /// count).
    fn violation_call(&mut self, kind: MemViolation, value: IExpr, span: Span) -> IExpr {
        self.used_violation = true;
        let x = Build::new(span);
        let args = vec![
            x.int(kind as i128, pointer_type()),
            x.int(span.start as i128, pointer_type()),
            super::convert(value, pointer_type()),
        ];
        mk(IExprKind::Call(self.violation, args), CType::INT, span)
    }

    /// `free(temp)` with `temp`'s points-to targets (target cell, shifted cell).
    pub(super) fn free(&mut self, temp: VarRef, targets: &[(u32, u32)], span: Span) -> IExpr {
        let pty = self.program.var(self.f(), temp).ty;
        let i32t = CType::INT;
        let x = Build::new(span);
        let t = || x.local(temp, pty);
        let mut out = self.invalid_op(MemViolation::Free, span, t());
        let live = self.program.heap.live;
        for &(c, _) in targets.iter().rev() {
            let Some(&h) = self.objects.heap.get(&c) else {
                continue;
            };
            let site = &self.program.heap.sites[h];
            if self.objects.base(c) != site.bases[0] || site.stack.is_some() {
                // A pointer to another field than the first is never a block start, and a
                // stack block is never freed.
                continue;
            }
            let (b, cap) = (i128::from(site.bases[0]), i128::from(site.capacity));
            let idx = || x.sub(t(), x.int(b, pty));
            let state = || x.elem(site.state, idx(), i32t);
            let inside = x.and(
                x.cmp(BinOp::Le, x.int(b, pty), t()),
                x.cmp(BinOp::Lt, t(), x.int(b + cap, pty)),
            );
            let live_start = x.eq(state(), x.int(1, i32t));
            let mut release = x.int(0, i32t);
            let ok = match site.block {
                BlockSize::Fixed(n) => {
                    for j in 0..i128::from(n) {
                        let at = x.add(idx(), x.int(j, pty));
                        let s = if j == 0 { 2 } else { 4 };
                        release = comma(release, x.set(site.state, at, x.int(s, i32t), i32t));
                    }
                    x.and(inside, live_start)
                }
                BlockSize::Variable { stride, .. } => {
                    // Only a block's start; the start's state stands for the whole block.
                    let start = if site.one_block() {
                        x.eq(idx(), x.int(0, pty))
                    } else {
                        let offset = x.rem(idx(), x.int(i128::from(stride), pty));
                        x.eq(offset, x.int(0, pty))
                    };
                    release = comma(release, x.set(site.state, idx(), x.int(2, i32t), i32t));
                    x.and(inside, x.and(start, live_start))
                }
            };
            if let Some(live) = live {
                let minus = x.sub(x.global(live, i32t), x.int(1, i32t));
                release = comma(release, x.assign(VarRef::Global(live), minus, i32t));
            }
            let release = comma(release, x.int(0, i32t));
            out = x.cond(ok, release, out, i32t);
        }
        let null = x.eq(t(), x.int(0, pty));
        x.cond(null, x.int(0, i32t), out, i32t)
    }
}

/// Expressions of the lowering at one place (`span`).
pub(super) struct Build {
    span: Span,
}

impl Build {
    pub(super) fn new(span: Span) -> Self {
        Build { span }
    }

    pub(super) fn int(&self, v: i128, ty: CType) -> IExpr {
        int(v, ty, self.span)
    }

    pub(super) fn global(&self, g: usize, ty: CType) -> IExpr {
        mk(IExprKind::Var(VarRef::Global(g)), ty, self.span)
    }

    pub(super) fn local(&self, v: VarRef, ty: CType) -> IExpr {
        mk(IExprKind::Var(v), ty, self.span)
    }

    fn arith(&self, op: BinOp, a: IExpr, b: IExpr) -> IExpr {
        let ty = a.ty;
        bin(IExprKind::Arith, op, a, b, ty)
    }

    pub(super) fn add(&self, a: IExpr, b: IExpr) -> IExpr {
        self.arith(BinOp::Add, a, b)
    }

    pub(super) fn sub(&self, a: IExpr, b: IExpr) -> IExpr {
        self.arith(BinOp::Sub, a, b)
    }

    pub(super) fn rem(&self, a: IExpr, b: IExpr) -> IExpr {
        self.arith(BinOp::Rem, a, b)
    }

    pub(super) fn cmp(&self, op: BinOp, a: IExpr, b: IExpr) -> IExpr {
        bin(IExprKind::Cmp, op, a, b, CType::INT)
    }

    pub(super) fn eq(&self, a: IExpr, b: IExpr) -> IExpr {
        self.cmp(BinOp::Eq, a, b)
    }

    pub(super) fn and(&self, a: IExpr, b: IExpr) -> IExpr {
        bin(IExprKind::Logic, BinOp::And, a, b, CType::INT)
    }

    pub(super) fn or(&self, a: IExpr, b: IExpr) -> IExpr {
        bin(IExprKind::Logic, BinOp::Or, a, b, CType::INT)
    }

    pub(super) fn cond(&self, c: IExpr, a: IExpr, b: IExpr, ty: CType) -> IExpr {
        mk(
            IExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            ty,
            self.span,
        )
    }

    /// Element `index` of the global array `g`.
    pub(super) fn elem(&self, g: usize, index: IExpr, ty: CType) -> IExpr {
        mk(
            IExprKind::Elem(VarRef::Global(g), vec![index]),
            ty,
            self.span,
        )
    }

    /// `g[index] = value` (the value of the element type).
    pub(super) fn set(&self, g: usize, index: IExpr, value: IExpr, ty: CType) -> IExpr {
        mk(
            IExprKind::SetElem {
                var: VarRef::Global(g),
                index: vec![index],
                value: Box::new(value),
                post: false,
            },
            ty,
            self.span,
        )
    }

    pub(super) fn assign(&self, v: VarRef, value: IExpr, ty: CType) -> IExpr {
        mk(IExprKind::Assign(v, Box::new(value)), ty, self.span)
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
