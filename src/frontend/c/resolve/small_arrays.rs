//! Small arrays read and written only at constant indices become one scalar per element,
//! once pointers are lowered. SV-COMP programs keep accumulators in one-element arrays
//! (`long long sum[1]; ... sum[0] = sum[0] + a[i];`): as an array, `sum[0] = 2 * i` relates
//! an array cell to a scalar, which the clause engines' array views reach only through
//! quantified templates; as a scalar it is a linear invariant like any other. The interpreter,
//! the encodings, `refine` and the witnesses all read the IR, so each sees the scalars.
//!
//! An array qualifies when its dimensions are constants with at most [`MAX_ELEMENTS`]
//! elements, it is not a part of a struct (`s.a`: witnesses could not name its elements in
//! C), it has no address (not an object of [`Program::ranges`], not one of the heap's
//! arrays), and every mention of it is an element access, an element update or its
//! declaration, with indices that fold to constants inside its bounds — an access out of
//! bounds keeps the array, so that what the memory checks see does not change. A postfix
//! `a[0]++` whose old value is used keeps it too (the scalar form would need a temporary).
//!
//! Element `k` (row-major) of array `v` is `v` itself for `k = 0`, made a scalar, and a new
//! variable of the element type for the others (a new local of the same function, or a new
//! global); each is named `v[i][j]`, a C expression, and takes `v`'s place in the names each
//! loop head has in scope, so that witness invariants may speak of it. The declaration becomes
//! one declaration per element: the initialiser's value, zero, or any value.
//!
//! Must not: change what a program does — only how its state is split into variables.

use super::super::ast::Span;
use super::super::ir::*;
use super::super::program::Program;
use super::super::types::CType;
use super::walk::{each_stmt_mut, visit};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::collections::{HashMap, HashSet};

/// The most elements an array made scalars may have.
pub(super) const MAX_ELEMENTS: u64 = 16;

/// An array variable: a global, or a local of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Array {
    Global(usize),
    Local(usize, usize),
}

impl Array {
    fn of(func: usize, v: VarRef) -> Array {
        match v {
            VarRef::Global(g) => Array::Global(g),
            VarRef::Local(l) => Array::Local(func, l),
        }
    }
}

/// Replaces the qualifying arrays of `program` by scalars (see the module).
pub(super) fn scalarise(program: &mut Program) {
    let candidates = candidates(program);
    if candidates.is_empty() {
        return;
    }
    let mut refused: HashSet<Array> = HashSet::new();
    for (f, func) in program.functions.iter().enumerate() {
        let mut check = Check {
            func: f,
            candidates: &candidates,
            refused: &mut refused,
        };
        check.stmts(&func.body);
    }
    let chosen: HashMap<Array, Vec<BigInt>> = candidates
        .into_iter()
        .filter(|(a, _)| !refused.contains(a))
        .collect();
    if chosen.is_empty() {
        return;
    }
    // The variables of each chosen array's elements, row-major; new variables in the arrays'
    // order, so that the program is the same at every run.
    let mut elements: HashMap<Array, Vec<VarRef>> = HashMap::new();
    let mut types: HashMap<Array, CType> = HashMap::new();
    let mut order: Vec<(&Array, &Vec<BigInt>)> = chosen.iter().collect();
    order.sort();
    for (&a, dims) in order {
        let count: usize = dims.iter().map(|d| d.to_usize().unwrap_or(0)).product();
        let (vars, at, var): (_, _, fn(usize) -> VarRef) = match a {
            Array::Global(g) => (&mut program.globals, g, VarRef::Global),
            Array::Local(f, l) => (&mut program.functions[f].locals, l, VarRef::Local),
        };
        let base = vars[at].clone();
        types.insert(a, base.ty);
        let mut refs = vec![var(at)];
        for k in 1..count {
            refs.push(var(vars.len()));
            vars.push(VarInfo {
                name: element_name(&base.name, dims, k),
                dims: vec![],
                ..base.clone()
            });
        }
        vars[at].name = element_name(&base.name, dims, 0);
        vars[at].dims.clear();
        if let Array::Global(g) = a {
            let fill = program.global_init[g].clone();
            let given: HashMap<&BigInt, &BigInt> = program.global_elems[g]
                .iter()
                .map(|(i, v)| (i, v))
                .collect();
            let values: Vec<BigInt> = (0..count)
                .map(|k| {
                    given
                        .get(&BigInt::from(k))
                        .map_or(fill.clone(), |v| (*v).clone())
                })
                .collect();
            program.global_elems[g].clear();
            for (k, value) in values.into_iter().enumerate() {
                match k {
                    0 => program.global_init[g] = value,
                    _ => {
                        program.global_init.push(value);
                        program.global_elems.push(vec![]);
                    }
                }
            }
        }
        elements.insert(a, refs);
    }
    for (f, func) in program.functions.iter_mut().enumerate() {
        let rewrite = Rewrite {
            func: f,
            chosen: &chosen,
            elements: &elements,
            types: &types,
        };
        rewrite.stmts(&mut func.body, &mut program.nondet_sites);
        for scope in &mut func.loop_scopes {
            let mut names = vec![];
            for (n, v) in std::mem::take(&mut scope.names) {
                match elements.get(&Array::of(f, v)) {
                    Some(vars) => {
                        let dims = &chosen[&Array::of(f, v)];
                        for (k, &e) in vars.iter().enumerate() {
                            names.push((element_name(&n, dims, k), e));
                        }
                    }
                    None => names.push((n, v)),
                }
            }
            names.sort();
            scope.names = names;
        }
    }
}

/// The arrays that may qualify, with their dimensions: constant, small, not addressed.
fn candidates(program: &Program) -> HashMap<Array, Vec<BigInt>> {
    let mut kept: HashSet<usize> = program.ranges.iter().map(|r| r.global).collect();
    let heap = &program.heap;
    kept.extend(heap.live);
    kept.extend(heap.sites.iter().flat_map(HeapSite::globals));
    let small = |info: &VarInfo| -> Option<Vec<BigInt>> {
        let mut dims = vec![];
        let mut count = BigInt::from(1);
        for d in &info.dims {
            let Dim::Const(n) = d else { return None };
            count *= n;
            dims.push(n.clone());
        }
        // A flattened struct's array (`a.f` of `struct S a[2]`) would name its elements
        // `a.f[0]`, which C cannot say.
        let named = !info.name.contains('.');
        (named && info.is_array() && count <= BigInt::from(MAX_ELEMENTS)).then_some(dims)
    };
    let mut out = HashMap::new();
    let globals_whole = program.global_init.len() == program.globals.len()
        && program.global_elems.len() == program.globals.len();
    for (g, info) in program.globals.iter().enumerate() {
        if let (true, false, Some(dims)) = (globals_whole, kept.contains(&g), small(info)) {
            out.insert(Array::Global(g), dims);
        }
    }
    let stack: HashSet<(usize, VarRef)> =
        program.heap.sites.iter().filter_map(|s| s.stack).collect();
    for (f, func) in program.functions.iter().enumerate() {
        for (l, info) in func.locals.iter().enumerate() {
            if stack.contains(&(f, VarRef::Local(l))) {
                continue;
            }
            if let Some(dims) = small(info) {
                out.insert(Array::Local(f, l), dims);
            }
        }
    }
    out
}

/// `name[i][j]` for the row-major element `k` of an array with these dimensions.
fn element_name(name: &str, dims: &[BigInt], k: usize) -> String {
    let mut index = vec![];
    let mut rest = k;
    for d in dims.iter().rev() {
        let d = d.to_usize().unwrap_or(1).max(1);
        index.push(rest % d);
        rest /= d;
    }
    let suffix: String = index.iter().rev().map(|i| format!("[{i}]")).collect();
    format!("{name}{suffix}")
}

/// The row-major element the indices name, when every one folds to a constant within its
/// dimension.
fn element(dims: &[BigInt], index: &[IExpr]) -> Option<usize> {
    if index.len() != dims.len() {
        return None;
    }
    let mut k = BigInt::from(0);
    for (d, i) in dims.iter().zip(index) {
        let i = fold(i)?;
        if i < BigInt::from(0) || &i >= d {
            return None;
        }
        k = k * d + i;
    }
    k.to_usize()
}

/// Finds the candidates some mention keeps arrays.
struct Check<'a> {
    func: usize,
    candidates: &'a HashMap<Array, Vec<BigInt>>,
    refused: &'a mut HashSet<Array>,
}

impl Check<'_> {
    fn refuse(&mut self, v: VarRef) {
        self.refused.insert(Array::of(self.func, v));
    }

    fn stmts(&mut self, stmts: &[IStmt]) {
        for s in stmts {
            match &s.kind {
                IStmtKind::Expr(e) => match &e.kind {
                    IExprKind::ArrayDecl { var, elems, .. } => {
                        let a = Array::of(self.func, *var);
                        if let Some(dims) = self.candidates.get(&a) {
                            let count: BigInt = dims.iter().product();
                            if elems.iter().any(|(k, _)| k >= &count) {
                                self.refused.insert(a);
                            }
                        }
                        for (_, v) in elems {
                            self.expr(v, true);
                        }
                    }
                    _ => self.expr(e, false),
                },
                IStmtKind::Init(v, e) => {
                    self.refuse(*v);
                    if let Some(e) = e {
                        self.expr(e, true);
                    }
                }
                IStmtKind::Return(Some(e)) | IStmtKind::Assert(e) | IStmtKind::Assume(e) => {
                    self.expr(e, true)
                }
                IStmtKind::If(c, a, b) => {
                    self.expr(c, true);
                    self.stmts(a);
                    self.stmts(b);
                }
                IStmtKind::Loop {
                    cond, body, step, ..
                } => {
                    if let Some(c) = cond {
                        self.expr(c, true);
                    }
                    self.stmts(body);
                    if let Some(s) = step {
                        self.expr(s, false);
                    }
                }
                IStmtKind::Block(b) => self.stmts(b),
                IStmtKind::Switch { var, body, .. } => {
                    self.refuse(*var);
                    self.stmts(body);
                }
                IStmtKind::Thread(op) => match op {
                    ThreadOp::Create { handle: v, .. } | ThreadOp::Join(v) | ThreadOp::Lock(v) => {
                        self.refuse(*v)
                    }
                    ThreadOp::Exit | ThreadOp::AtomicBegin | ThreadOp::AtomicEnd => {}
                },
                IStmtKind::Return(None)
                | IStmtKind::Break
                | IStmtKind::Continue
                | IStmtKind::Error
                | IStmtKind::Abort
                | IStmtKind::Goto(_)
                | IStmtKind::Label(_) => {}
            }
        }
    }

    /// Checks an expression whose value is used (`used`) or discarded.
    fn expr(&mut self, e: &IExpr, used: bool) {
        match &e.kind {
            IExprKind::Elem(v, index) => self.access(*v, index, false),
            IExprKind::SetElem {
                var, index, post, ..
            } => self.access(*var, index, *post && used),
            IExprKind::Var(v)
            | IExprKind::Assign(v, _)
            | IExprKind::PostIncDec(v, _)
            | IExprKind::ArrayDecl { var: v, .. } => self.refuse(*v),
            _ => {}
        }
        match &e.kind {
            IExprKind::Comma(a, b) => {
                self.expr(a, false);
                self.expr(b, used);
            }
            _ => {
                for o in e.operands() {
                    self.expr(o, true);
                }
            }
        }
    }

    fn access(&mut self, v: VarRef, index: &[IExpr], post_used: bool) {
        let Some(dims) = self.candidates.get(&Array::of(self.func, v)) else {
            return;
        };
        if post_used || element(dims, index).is_none() {
            self.refuse(v);
        }
    }
}

/// Rewrites the mentions of the chosen arrays.
struct Rewrite<'a> {
    func: usize,
    chosen: &'a HashMap<Array, Vec<BigInt>>,
    elements: &'a HashMap<Array, Vec<VarRef>>,
    /// The element type of each chosen array.
    types: &'a HashMap<Array, CType>,
}

impl Rewrite<'_> {
    /// The scalar of the element the indices name, when `v` is chosen.
    fn scalar(&self, v: VarRef, index: &[IExpr]) -> Option<VarRef> {
        let a = Array::of(self.func, v);
        let k = element(self.chosen.get(&a)?, index)?;
        Some(self.elements[&a][k])
    }

    /// Rewrites a body; the elements of a declared array without initialiser get nondet sites
    /// of their own (the array's for its first element), so that the interpreter can replay
    /// them.
    fn stmts(&self, stmts: &mut [IStmt], sites: &mut Vec<NondetSite>) {
        each_stmt_mut(stmts, &mut |s| {
            if let IStmtKind::Expr(IExpr {
                kind: IExprKind::ArrayDecl { var, elems, fill },
                ..
            }) = &mut s.kind
            {
                let a = Array::of(self.func, *var);
                if let Some(vars) = self.elements.get(&a) {
                    let elems = std::mem::take(elems);
                    let decls = declarations(vars, self.types[&a], elems, *fill, s.span, sites);
                    s.kind = IStmtKind::Block(decls);
                }
            }
        });
        super::walk::each_stmt_expr(stmts, &mut |e| visit(e, &mut |x| self.node(x)));
    }

    /// Rewrites one node whose operands are rewritten already.
    fn node(&self, e: &mut IExpr) {
        match &mut e.kind {
            IExprKind::Elem(v, index) => {
                if let Some(s) = self.scalar(*v, index) {
                    e.kind = IExprKind::Var(s);
                }
            }
            IExprKind::SetElem {
                var, index, value, ..
            } => {
                if let Some(s) = self.scalar(*var, index) {
                    let mut value = std::mem::replace(
                        &mut **value,
                        IExpr {
                            kind: IExprKind::Current,
                            ty: e.ty,
                            span: e.span,
                        },
                    );
                    replace_current(&mut value, s);
                    e.kind = IExprKind::Assign(s, Box::new(value));
                }
            }
            _ => {}
        }
    }
}

/// The declarations of a chosen array's element variables `vars` (of type `ty`): the
/// initialiser's values in source order, then the other elements, zero or any value (the
/// array's nondet site for the first, new ones for the others).
fn declarations(
    vars: &[VarRef],
    ty: CType,
    elems: Vec<(BigInt, IExpr)>,
    fill: Fill,
    span: Span,
    sites: &mut Vec<NondetSite>,
) -> Vec<IStmt> {
    let init = |v: VarRef, value: IExpr| IStmt {
        kind: IStmtKind::Init(v, Some(value)),
        span,
    };
    let mut set = vec![false; vars.len()];
    let mut decls = vec![];
    for (k, value) in elems {
        if let Some(k) = k.to_usize().filter(|&k| k < vars.len()) {
            set[k] = true;
            decls.push(init(vars[k], value));
        }
    }
    let mut own_site = match fill {
        Fill::Any(site) => Some(site),
        Fill::Zero => None,
    };
    for (&v, _) in vars.iter().zip(set).filter(|(_, set)| !set) {
        let kind = match fill {
            Fill::Zero => IExprKind::Const(BigInt::from(0)),
            Fill::Any(_) => IExprKind::Nondet(own_site.take().unwrap_or_else(|| {
                sites.push(NondetSite { ty, span });
                sites.len() - 1
            })),
        };
        decls.push(init(v, IExpr { kind, ty, span }));
    }
    decls
}

/// Replaces the [`IExprKind::Current`] of an element update (the ones not inside a nested
/// update's value) by the element's scalar.
fn replace_current(e: &mut IExpr, scalar: VarRef) {
    match &mut e.kind {
        IExprKind::Current => e.kind = IExprKind::Var(scalar),
        IExprKind::SetElem { index, .. } => {
            for i in index {
                replace_current(i, scalar);
            }
        }
        _ => {
            for o in e.operands_mut() {
                replace_current(o, scalar);
            }
        }
    }
}
