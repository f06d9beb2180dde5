//! Lowering of the pointer sites of `pointers.rs` into scalar operations, once the whole
//! program is resolved. Part of [`super`].
//!
//! 1. **Objects**: every variable whose address is taken (`&x`, `&s.f`, `&a[i]`, an array used
//!    as a pointer) is an object; its cells (the scalars and arrays it is flattened into) get
//!    consecutive *cell ids*, and each cell an *address range*: a scalar one address, an array
//!    one address per element (row-major), each followed by one spare address, so that a
//!    pointer one past a cell (`&x + 1`, `a + n`) never equals another cell's address. Ranges
//!    are laid out from 1 upwards in cell-id order (0 is NULL). A pointer value is an
//!    address: pointer arithmetic inside an array is integer arithmetic on it, and an element of
//!    an array of structs is addressed in the array of its first cell (a field `k` cells further
//!    is the same element of the `k`-th cell's array). Address-taken locals are made *statically
//!    allocated*: each becomes a global (`f.x`), so callees read and write it through pointers
//!    and it travels through function summaries as globals do. That is only sound for
//!    functions that are not recursive (one instance alive at a time); address-taken locals of
//!    recursive functions are `unsupported`. The cells of every allocation site (`heap.rs`)
//!    are objects too, laid out after the others (`heap_lower.rs`).
//! 2. **Points-to sets**: facts (`addr`, `copy`, `load`, `store`, `field_addr`, `cell`) read
//!    off the resolved program by `points_to.rs` go through the Datalog rule set
//!    `cfa_pointsto` (top-level `rules/`), Andersen-style.
//! 3. **Lowering**: with `t` the saved pointer and `c1..cn` its points-to set, `in(c)` says that
//!    `t` lies in `c`'s range (`t == base(c)` for a scalar). A read `t->f` is `in(c1) || ... ?
//!    (in(c1) ? c1.f : ... cn.f) : invalid()`, where `c.f` of an array cell is the element
//!    `t - base(c)` of the field's array; a write updates every target `d` as `d = in(c) ? v : d`
//!    (an array element only under `in(c)`), `&x` is the constant address, `&t->f` is `t` moved
//!    from `c`'s range to the field's. Accesses into variable-length or multi-dimensional
//!    arrays through pointers are `unsupported`. `invalid(t)` is a synthetic
//!    function that aborts: a null, dangling or otherwise invalid dereference is undefined
//!    behaviour, so the execution ends there (not an error), in the clauses and in the
//!    interpreter alike. It takes the address so that the interpreter can check the
//!    points-to sets: an address inside an object (`Program::ranges`, a live heap element)
//!    reaching it means a set missed a target, and the run stops with `Outcome::Gap`.
//!
//! Must not: build CFAs (the caller does, after lowering).

use super::super::ast::{BinOp, Span};
use super::super::error::CError;
use super::super::ir::*;
use super::super::program::{Function, Program};
use super::super::types::CType;
use super::pointers::{Site, SiteKind, SITE_BASE};
use super::points_to::{key, report, Extract, Facts};
use super::unsupported;
use super::walk::{each_stmt_expr, visit};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};

/// The lowering's view of the objects: id per global cell, cell per id, address ranges.
pub(super) struct Objects {
    /// Global index of each address-taken cell → its id.
    pub(super) ids: HashMap<usize, u32>,
    /// id → (global index, object index).
    pub(super) cells: BTreeMap<u32, (usize, u32)>,
    /// id → the cell's first address and its number of elements (`None`: a scalar).
    pub(super) ranges: HashMap<u32, (u64, Option<u64>)>,
    /// id of a heap cell → its allocation site.
    pub(super) heap: HashMap<u32, usize>,
}

impl Objects {
    /// Lays out the address ranges, in cell-id order, one unused address before each.
    fn layout(&mut self, program: &Program) {
        let mut next = 1u64;
        for (&id, &(g, _)) in &self.cells {
            let len = elements(&program.globals[g]);
            self.ranges.insert(id, (next, len));
            next += len.unwrap_or(1) + 1;
        }
    }

    /// The first address of a cell.
    pub(super) fn base(&self, id: u32) -> u64 {
        self.ranges[&id].0
    }
}

/// The number of elements of a global array (`None`: a scalar); one of a variable length
/// takes none.
pub(super) fn elements(info: &VarInfo) -> Option<u64> {
    info.is_array().then(|| {
        info.dims
            .iter()
            .map(|d| match d {
                Dim::Const(n) => u64::try_from(n).unwrap_or(u64::MAX),
                Dim::Var(_) => 0,
            })
            .product::<u64>()
    })
}

/// Lowers every site of `program`; returns the points-to relation as text (for tests).
pub(super) fn lower(program: &mut Program, sites: &[Site]) -> Result<String, CError> {
    let mut sites = sites.to_vec();
    let mut objects = super::statics::make_static(program, &mut sites)?;
    super::heap_lower::register(program, &mut objects);
    super::heap_lower::size_single_blocks(program, &objects);
    objects.layout(program);
    super::heap_lower::bases(program, &objects)?;
    let mut facts = Facts::default();
    for (&id, &(g, o)) in &objects.cells {
        let v = facts.node(key(0, VarRef::Global(g)));
        facts.prog.cell.push((id, v, o));
    }
    let heap_first: Vec<usize> = program.heap.sites.iter().map(|s| s.cells[0]).collect();
    for f in 0..program.functions.len() {
        let body = std::mem::take(&mut program.functions[f].body);
        let mut ex = Extract {
            f,
            facts: &mut facts,
            sites: &sites,
            objects: &objects,
            heap_first: &heap_first,
        };
        ex.stmts(&body);
        program.functions[f].body = body;
    }
    facts.prog.run();
    let mut pts: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(n, c) in &facts.prog.pts {
        pts.entry(n).or_default().push(c);
    }
    for v in pts.values_mut() {
        v.sort_unstable();
    }
    let mut points_to: Vec<(Option<usize>, VarRef, usize)> = pts
        .iter()
        .filter_map(|(&n, cells)| match facts.names[n as usize] {
            (_, VarRef::Local(usize::MAX)) => None,
            (_, v @ VarRef::Global(_)) => Some((None, v, cells)),
            (f, v) => Some((Some(f), v, cells)),
        })
        .flat_map(|(f, v, cells)| {
            let cells_of = &objects.cells;
            cells.iter().map(move |c| (f, v, cells_of[c].0))
        })
        .collect();
    points_to.sort_unstable();
    points_to.dedup();
    program.points_to = points_to;
    let invalid = program.functions.len();
    let violation = invalid + 1;
    let mut used_invalid = false;
    let mut used_violation = false;
    let mut derefs = Vec::new();
    for f in 0..program.functions.len() {
        let mut body = std::mem::take(&mut program.functions[f].body);
        let mut lw = Lower {
            f,
            program,
            sites: &sites,
            objects: &objects,
            facts: &facts,
            pts: &pts,
            invalid,
            violation,
            used_invalid: false,
            used_violation: false,
            ops: vec![],
            derefs: vec![],
            error: None,
        };
        each_stmt_expr(&mut body, &mut |e| lw.expr(e));
        let ops = std::mem::take(&mut lw.ops);
        derefs.extend(lw.derefs.drain(..).map(|(span, temp)| (f, span, temp)));
        used_invalid |= lw.used_invalid;
        used_violation |= lw.used_violation;
        if let Some(e) = lw.error {
            return Err(e);
        }
        program.functions[f].body = body;
        program.heap.ops.extend(ops);
    }
    program.ranges = objects
        .ranges
        .iter()
        .filter(|(id, _)| !objects.heap.contains_key(id))
        .map(|(&id, &(first, len))| AddressRange {
            global: objects.cells[&id].0,
            first,
            len: len.unwrap_or(1),
        })
        .collect();
    program.ranges.sort_by_key(|r| r.first);
    program.derefs = derefs;
    if used_invalid || used_violation {
        let span = Span::new(0, 0);
        program.invalid_fn = Some(program.functions.len());
        program.functions.push(Function {
            name: "__invalid_dereference".to_owned(),
            ret: Some(CType::INT),
            params: 1,
            locals: vec![VarInfo {
                name: "address".to_owned(),
                ty: super::heap_lower::pointer_type(),
                span,
                dims: vec![],
            }],
            body: vec![IStmt {
                kind: IStmtKind::Abort,
                span,
            }],
            cfa: Default::default(),
            loop_scopes: vec![],
            labels: vec![],
            span,
        });
    }
    if used_violation {
        super::heap_lower::add_violation_fn(program);
    }
    Ok(report(program, &facts, &pts, &objects))
}

/// Replaces the sites of one function.
pub(super) struct Lower<'a> {
    pub(super) f: usize,
    pub(super) program: &'a Program,
    sites: &'a [Site],
    pub(super) objects: &'a Objects,
    facts: &'a Facts,
    pts: &'a HashMap<u32, Vec<u32>>,
    pub(super) invalid: usize,
    /// `__memory_violation(kind, at, pointer)` (`heap_lower.rs`).
    pub(super) violation: usize,
    pub(super) used_invalid: bool,
    pub(super) used_violation: bool,
    /// The heap operations met (sites with a heap cell among their targets).
    pub(super) ops: Vec<HeapOp>,
    /// The accesses through pointers replaced: where, and the temporary holding the pointer.
    derefs: Vec<(Span, VarRef)>,
    /// The first access through a pointer to another type (outside the subset).
    error: Option<CError>,
}

impl Lower<'_> {
    fn expr(&mut self, e: &mut IExpr) {
        visit(e, &mut |x| {
            if let IExprKind::Call(k, _) = x.kind {
                if k >= SITE_BASE {
                    *x = self.site(&self.sites[k - SITE_BASE], x.ty, x.span);
                }
            }
        });
    }

    /// The targets of `temp` shifted by `off`: (id of the target, id of the shifted cell).
    pub(super) fn targets(&self, temp: VarRef, off: usize) -> Vec<(u32, u32)> {
        let Some(&n) = self.facts.nodes.get(&key(self.f, temp)) else {
            return vec![];
        };
        let Some(cells) = self.pts.get(&n) else {
            return vec![];
        };
        cells
            .iter()
            .filter_map(|&c| {
                let d = c + off as u32;
                let same = self.objects.cells.get(&d)?.1 == self.objects.cells[&c].1;
                same.then_some((c, d))
            })
            .collect()
    }

    fn site(&mut self, site: &Site, ty: CType, span: Span) -> IExpr {
        self.note_heap_op(site, span);
        let mk = |kind, ty| IExpr { kind, ty, span };
        let (temp, off) = match site.kind {
            SiteKind::AddrOf {
                cell: VarRef::Global(g),
                ..
            } => {
                let base = self.objects.base(self.objects.ids[&g]);
                return mk(IExprKind::Const(BigInt::from(base)), ty);
            }
            SiteKind::AddrOf { .. } => unreachable!("address-taken cells are globals"),
            SiteKind::Alloc { heap, count } => return self.alloc(heap, count, ty, span),
            SiteKind::Free { temp } => {
                let targets = self.targets(temp, 0);
                return self.free(temp, &targets, span);
            }
            SiteKind::Load { temp, off }
            | SiteKind::Store { temp, off, .. }
            | SiteKind::FieldAddr { temp, off } => (temp, off),
        };
        let targets = self.targets(temp, off);
        let access = match site.kind {
            SiteKind::Store { value, .. } => self.program.var(self.f, value).ty,
            _ => ty,
        };
        let is_access = !matches!(site.kind, SiteKind::FieldAddr { .. });
        if is_access {
            self.derefs.push((site.span, temp));
        }
        if is_access && self.error.is_none() {
            self.error = self.check_targets(&targets, access, site.span);
        }
        let pty = self.program.var(self.f, temp).ty;
        let t = || mk(IExprKind::Var(temp), pty);
        // `&t->f` accesses no memory: under valid-deref an address outside every target is
        // no violation yet (it becomes one where it is dereferenced: NULL stands for it).
        let field_addr = matches!(site.kind, SiteKind::FieldAddr { .. });
        let invalid = if field_addr && self.program.heap.checks.invalid != InvalidOps::End {
            mk(IExprKind::Const(BigInt::from(0)), ty)
        } else {
            let call = self.invalid_op(MemViolation::Deref, span, t());
            super::convert(call, ty)
        };
        let num = |n: i128| mk(IExprKind::Const(BigInt::from(n)), pty);
        let cmp = |op, a, b| mk(IExprKind::Cmp(op, Box::new(a), Box::new(b)), CType::INT);
        let and = |a, b| {
            mk(
                IExprKind::Logic(BinOp::And, Box::new(a), Box::new(b)),
                CType::INT,
            )
        };
        let arith = |op, a, b| mk(IExprKind::Arith(op, Box::new(a), Box::new(b)), pty);
        let (ranges, cells) = (&self.objects.ranges, &self.objects.cells);
        let base = |c: u32| i128::from(ranges[&c].0);
        // `t` lies in `c`'s range (for a heap cell: in a live block).
        let inside = |c: u32| match ranges[&c] {
            (b, None) => cmp(BinOp::Eq, t(), num(i128::from(b))),
            (b, Some(n)) => {
                let range = and(
                    cmp(BinOp::Le, num(i128::from(b)), t()),
                    cmp(BinOp::Lt, t(), num(i128::from(b + n))),
                );
                match self.objects.heap.get(&c) {
                    Some(&h) if !field_addr => and(range, self.live_element(h, c, temp, span)),
                    _ => range,
                }
            }
        };
        // The element of `d` that `t` addresses through `c` (`d`'s array, `c`'s index).
        let index = |c: u32| vec![arith(BinOp::Sub, t(), num(base(c)))];
        let cell_var = |d: u32| VarRef::Global(cells[&d].0);
        let vty = |d: u32| self.program.var(self.f, cell_var(d)).ty;
        let conv = |e: IExpr, t: CType| super::convert(e, t);
        let value = |c: u32, d: u32| match site.kind {
            SiteKind::Load { .. } if ranges[&d].1.is_some() => {
                conv(mk(IExprKind::Elem(cell_var(d), index(c)), vty(d)), ty)
            }
            SiteKind::Load { .. } => conv(mk(IExprKind::Var(cell_var(d)), vty(d)), ty),
            SiteKind::FieldAddr { .. } if ranges[&c].1.is_some() => {
                conv(arith(BinOp::Add, t(), num(base(d) - base(c))), ty)
            }
            SiteKind::FieldAddr { .. } => mk(IExprKind::Const(BigInt::from(base(d))), ty),
            _ => unreachable!(),
        };

        let Some((&last, rest)) = targets.split_last() else {
            return invalid;
        };
        let valid = rest.iter().rev().fold(inside(last.0), |acc, &(c, _)| {
            mk(
                IExprKind::Logic(BinOp::Or, Box::new(inside(c)), Box::new(acc)),
                CType::INT,
            )
        });
        let body = match site.kind {
            SiteKind::Store { value: tv, .. } => {
                let tvt = self.program.var(self.f, tv).ty;
                let mut out = mk(IExprKind::Const(BigInt::from(0)), CType::INT);
                for &(c, d) in targets.iter().rev() {
                    let (v, vt) = (cell_var(d), vty(d));
                    let new = conv(mk(IExprKind::Var(tv), tvt), vt);
                    let write = if ranges[&d].1.is_some() {
                        let set = IExprKind::SetElem {
                            var: v,
                            index: index(c),
                            value: Box::new(new),
                            post: false,
                        };
                        let zero = mk(IExprKind::Const(BigInt::from(0)), vt);
                        mk(
                            IExprKind::Cond(
                                Box::new(inside(c)),
                                Box::new(mk(set, vt)),
                                Box::new(zero),
                            ),
                            vt,
                        )
                    } else {
                        let pick = IExprKind::Cond(
                            Box::new(inside(c)),
                            Box::new(new),
                            Box::new(mk(IExprKind::Var(v), vt)),
                        );
                        mk(IExprKind::Assign(v, Box::new(mk(pick, vt))), vt)
                    };
                    out = mk(IExprKind::Comma(Box::new(write), Box::new(out)), CType::INT);
                }
                conv(out, ty)
            }
            _ => rest
                .iter()
                .rev()
                .fold(value(last.0, last.1), |acc, &(c, d)| {
                    mk(
                        IExprKind::Cond(Box::new(inside(c)), Box::new(value(c, d)), Box::new(acc)),
                        ty,
                    )
                }),
        };
        mk(
            IExprKind::Cond(Box::new(valid), Box::new(body), Box::new(invalid)),
            ty,
        )
    }

    /// An error for an access (a read or a write of `access` values) that the targets cannot
    /// take: a cell of another type, a variable-length or multi-dimensional array, an array
    /// reached from a scalar's address.
    fn check_targets(&self, targets: &[(u32, u32)], access: CType, span: Span) -> Option<CError> {
        for &(c, d) in targets {
            let info = &self.program.globals[self.objects.cells[&d].0];
            if info.ty != access {
                return Some(unsupported(
                    span,
                    "accesses through a pointer to another type",
                ));
            }
            if info.dims.iter().any(|x| matches!(x, Dim::Var(_))) {
                return Some(unsupported(span, "pointers into variable-length arrays"));
            }
            if info.dims.len() > 1 {
                return Some(unsupported(span, "pointers into multi-dimensional arrays"));
            }
            let (c_array, d_array) = (
                self.objects.ranges[&c].1.is_some(),
                self.objects.ranges[&d].1.is_some(),
            );
            if c_array != d_array {
                return Some(unsupported(
                    span,
                    "this access to an array through a pointer",
                ));
            }
        }
        None
    }
}
