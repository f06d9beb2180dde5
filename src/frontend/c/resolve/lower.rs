//! Lowering of the pointer sites of `pointers.rs` into scalar operations, once the whole
//! program is resolved. Part of [`super`].
//!
//! 1. **Objects**: every variable whose address is taken (`&x`, `&s.f`) is an object; its cells
//!    get consecutive ids from 1 (0 is NULL). Address-taken locals are made *statically
//!    allocated*: each becomes a global (`f.x`), so callees read and write it through pointers
//!    and it travels through function summaries as globals do. That is only sound for
//!    functions that are not recursive (one instance alive at a time); address-taken locals of
//!    recursive functions are `unsupported`.
//! 2. **Points-to sets**: facts (`addr`, `copy`, `load`, `store`, `field_addr`, `cell`) read
//!    off the resolved program go through the Datalog rule set `cfa_pointsto` (top-level
//!    `rules/`), Andersen-style.
//! 3. **Lowering**: with `t` the saved pointer and `c1..cn` its points-to set, a read `t->f` is
//!    `t == c1 || ... ? (t == c1 ? c1.f : ... cn.f) : invalid()`, a write updates every target
//!    `d` as `d = t == id(d) ? v : d`, `&x` is the constant id. `invalid()` is a synthetic
//!    function that aborts: a null, dangling or otherwise invalid dereference is undefined
//!    behaviour, so the execution ends there (not an error), in the clauses and in the
//!    interpreter alike.
//!
//! Must not: build CFAs (the caller does, after lowering).

use super::super::ast::Span;
use super::super::error::CError;
use super::super::ir::*;
use super::super::types::CType;
use super::pointers::{Site, SiteKind, SITE_BASE};
use super::unsupported;
use super::walk::{each_stmt_expr, operands, recursive_functions, remap_stmts, visit};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};

#[allow(missing_docs)]
mod program {
    ascent::ascent! {
        /// Points-to sets of a C program.
        pub(super) struct PointsTo;
        include_source!(crate::analysis::rules::cfa_pointsto);
    }
}

/// A node of the points-to graph: a variable of a function (`usize::MAX` for globals), or a
/// function's return value (`Local(usize::MAX)`).
type NodeKey = (usize, VarRef);

fn key(f: usize, v: VarRef) -> NodeKey {
    match v {
        VarRef::Global(_) => (usize::MAX, v),
        VarRef::Local(_) => (f, v),
    }
}

fn ret_key(f: usize) -> NodeKey {
    (f, VarRef::Local(usize::MAX))
}

#[derive(Default)]
struct Facts {
    nodes: HashMap<NodeKey, u32>,
    names: Vec<NodeKey>,
    prog: program::PointsTo,
}

impl Facts {
    fn node(&mut self, k: NodeKey) -> u32 {
        if let Some(&n) = self.nodes.get(&k) {
            return n;
        }
        let n = self.names.len() as u32;
        self.names.push(k);
        self.nodes.insert(k, n);
        n
    }
}

/// The lowering's view of the objects: id per global cell, cell per id.
struct Objects {
    /// Global index of each address-taken cell → its id.
    ids: HashMap<usize, u32>,
    /// id → (global index, object index).
    cells: BTreeMap<u32, (usize, u32)>,
}

/// Lowers every site of `program`; returns the points-to relation as text (for tests).
pub(super) fn lower(program: &mut Program, sites: &[Site]) -> Result<String, CError> {
    let mut sites = sites.to_vec();
    let objects = make_static(program, &mut sites)?;
    let mut facts = Facts::default();
    for (&id, &(g, o)) in &objects.cells {
        let v = facts.node(key(0, VarRef::Global(g)));
        facts.prog.cell.push((id, v, o));
    }
    for f in 0..program.functions.len() {
        let body = std::mem::take(&mut program.functions[f].body);
        let mut ex = Extract {
            f,
            facts: &mut facts,
            sites: &sites,
            objects: &objects,
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
    let invalid = program.functions.len();
    let mut used_invalid = false;
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
            used_invalid: false,
            error: None,
        };
        each_stmt_expr(&mut body, &mut |e| lw.expr(e));
        used_invalid |= lw.used_invalid;
        if let Some(e) = lw.error {
            return Err(e);
        }
        program.functions[f].body = body;
    }
    if used_invalid {
        let span = Span::new(0, 0);
        program.functions.push(Function {
            name: "__invalid_dereference".to_owned(),
            ret: Some(CType::INT),
            params: 0,
            locals: vec![],
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
    Ok(report(program, &facts, &pts, &objects))
}

/// The points-to relation as text: `node -> cell, cell` per line, sorted.
fn report(
    program: &Program,
    facts: &Facts,
    pts: &HashMap<u32, Vec<u32>>,
    objects: &Objects,
) -> String {
    let fname = |f: usize| program.functions[f].name.clone();
    let mut lines: Vec<String> = pts
        .iter()
        .map(|(&n, cells)| {
            let (f, v) = facts.names[n as usize];
            let name = match v {
                VarRef::Global(g) => program.globals[g].name.clone(),
                VarRef::Local(usize::MAX) => format!("{}::return", fname(f)),
                VarRef::Local(l) => {
                    format!("{}::{}", fname(f), program.functions[f].locals[l].name)
                }
            };
            let targets: Vec<String> = cells
                .iter()
                .map(|c| format!("{}#{c}", program.globals[objects.cells[c].0].name))
                .collect();
            format!("{name} -> {}", targets.join(", "))
        })
        .collect();
    lines.sort();
    lines.join("\n")
}

/// Makes address-taken locals globals, and gives every cell of every object an id.
fn make_static(program: &mut Program, sites: &mut [Site]) -> Result<Objects, CError> {
    let recursive = recursive_functions(program);
    // (function, first local) → first global
    let mut moved: HashMap<(usize, usize), usize> = HashMap::new();
    let mut maps: HashMap<usize, HashMap<usize, usize>> = HashMap::new();
    let mut objects = Objects {
        ids: HashMap::new(),
        cells: BTreeMap::new(),
    };
    let mut next_id = 1u32;
    let mut n_objects = 0u32;
    for s in sites.iter_mut() {
        let SiteKind::AddrOf { root, cells, cell } = &mut s.kind else {
            continue;
        };
        let g = match *root {
            VarRef::Global(g) => g,
            VarRef::Local(l) => {
                if recursive[s.func] {
                    return Err(unsupported(
                        s.span,
                        "the address of a local of a recursive function",
                    ));
                }
                *moved.entry((s.func, l)).or_insert_with(|| {
                    let g = program.globals.len();
                    let func = &program.functions[s.func];
                    for k in 0..*cells {
                        let info = &func.locals[l + k];
                        program.globals.push(VarInfo {
                            name: format!("{}.{}", func.name, info.name),
                            ty: info.ty,
                            span: info.span,
                            dims: info.dims.clone(),
                        });
                        program.global_init.push(BigInt::from(0));
                        program.global_elems.push(vec![]);
                        maps.entry(s.func).or_default().insert(l + k, g + k);
                    }
                    g
                })
            }
        };
        if let VarRef::Local(l) = *cell {
            *cell = VarRef::Global(maps[&s.func][&l]);
        }
        *root = VarRef::Global(g);
        if !objects.ids.contains_key(&g) {
            for k in 0..*cells {
                objects.ids.insert(g + k, next_id);
                objects.cells.insert(next_id, (g + k, n_objects));
                next_id += 1;
            }
            n_objects += 1;
        }
    }
    for (f, map) in maps {
        let func = &mut program.functions[f];
        let remap = |v: &mut VarRef| {
            if let VarRef::Local(l) = *v {
                if let Some(&g) = map.get(&l) {
                    *v = VarRef::Global(g);
                }
            }
        };
        remap_stmts(&mut func.body, &remap);
        for scope in &mut func.loop_scopes {
            for (_, v) in &mut scope.names {
                remap(v);
            }
        }
    }
    Ok(objects)
}

/// Reads the points-to facts off one function.
struct Extract<'a> {
    f: usize,
    facts: &'a mut Facts,
    sites: &'a [Site],
    objects: &'a Objects,
}

impl Extract<'_> {
    fn stmts(&mut self, stmts: &[IStmt]) {
        for s in stmts {
            match &s.kind {
                IStmtKind::Init(v, Some(e)) => {
                    let n = self.facts.node(key(self.f, *v));
                    self.flow(n, e);
                    self.expr(e);
                }
                IStmtKind::Return(Some(e)) => {
                    let n = self.facts.node(ret_key(self.f));
                    self.flow(n, e);
                    self.expr(e);
                }
                IStmtKind::Expr(e) | IStmtKind::Assert(e) | IStmtKind::Assume(e) => self.expr(e),
                IStmtKind::If(c, a, b) => {
                    self.expr(c);
                    self.stmts(a);
                    self.stmts(b);
                }
                IStmtKind::Loop {
                    cond, body, step, ..
                } => {
                    cond.iter().chain(step).for_each(|e| self.expr(e));
                    self.stmts(body);
                }
                IStmtKind::Block(b) | IStmtKind::Switch { body: b, .. } => self.stmts(b),
                _ => {}
            }
        }
    }

    fn expr(&mut self, e: &IExpr) {
        match &e.kind {
            IExprKind::Assign(v, x) => {
                let n = self.facts.node(key(self.f, *v));
                self.flow(n, x);
            }
            IExprKind::Call(g, args) if *g < SITE_BASE => {
                for (i, a) in args.iter().enumerate() {
                    let n = self.facts.node((*g, VarRef::Local(i)));
                    self.flow(n, a);
                }
            }
            IExprKind::Call(k, _) => {
                if let SiteKind::Store { temp, off, value } = self.sites[k - SITE_BASE].kind {
                    let t = self.facts.node(key(self.f, temp));
                    let m = self.facts.node(key(self.f, value));
                    self.facts.prog.store.push((t, off as u32, m));
                }
            }
            _ => {}
        }
        for c in operands(e) {
            self.expr(c);
        }
    }

    /// The facts of `e`'s value flowing into node `n`.
    fn flow(&mut self, n: u32, e: &IExpr) {
        match &e.kind {
            IExprKind::Var(v) => {
                let m = self.facts.node(key(self.f, *v));
                self.facts.prog.copy.push((n, m));
            }
            IExprKind::Call(g, _) if *g < SITE_BASE => {
                let m = self.facts.node(ret_key(*g));
                self.facts.prog.copy.push((n, m));
            }
            IExprKind::Call(k, _) => match self.sites[k - SITE_BASE].kind {
                SiteKind::AddrOf {
                    cell: VarRef::Global(g),
                    ..
                } => self.facts.prog.addr.push((n, self.objects.ids[&g])),
                SiteKind::Load { temp, off } => {
                    let t = self.facts.node(key(self.f, temp));
                    self.facts.prog.load.push((n, t, off as u32));
                }
                SiteKind::FieldAddr { temp, off } => {
                    let t = self.facts.node(key(self.f, temp));
                    self.facts.prog.field_addr.push((n, t, off as u32));
                }
                _ => {}
            },
            IExprKind::Cond(_, a, b) => {
                self.flow(n, a);
                self.flow(n, b);
            }
            IExprKind::Comma(_, x) | IExprKind::Assign(_, x) | IExprKind::Convert(x) => {
                self.flow(n, x)
            }
            _ => {}
        }
    }
}

/// Replaces the sites of one function.
struct Lower<'a> {
    f: usize,
    program: &'a Program,
    sites: &'a [Site],
    objects: &'a Objects,
    facts: &'a Facts,
    pts: &'a HashMap<u32, Vec<u32>>,
    invalid: usize,
    used_invalid: bool,
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
    fn targets(&self, temp: VarRef, off: usize) -> Vec<(u32, u32)> {
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
        let mk = |kind, ty| IExpr { kind, ty, span };
        let cell_var = |d: u32| VarRef::Global(self.objects.cells[&d].0);
        let (temp, off) = match site.kind {
            SiteKind::AddrOf {
                cell: VarRef::Global(g),
                ..
            } => return mk(IExprKind::Const(BigInt::from(self.objects.ids[&g])), ty),
            SiteKind::AddrOf { .. } => unreachable!("address-taken cells are globals"),
            SiteKind::Load { temp, off }
            | SiteKind::Store { temp, off, .. }
            | SiteKind::FieldAddr { temp, off } => (temp, off),
        };
        let targets = self.targets(temp, off);
        let access = match site.kind {
            SiteKind::Store { value, .. } => self.program.var(self.f, value).ty,
            _ => ty,
        };
        let punned = targets
            .iter()
            .any(|&(_, d)| self.program.var(self.f, cell_var(d)).ty != access);
        if punned && !matches!(site.kind, SiteKind::FieldAddr { .. }) && self.error.is_none() {
            self.error = Some(unsupported(
                site.span,
                "accesses through a pointer to another type",
            ));
        }
        let pty = self.program.functions[self.f].locals[match temp {
            VarRef::Local(l) => l,
            VarRef::Global(_) => 0,
        }]
        .ty;
        let eq = |c: u32| {
            mk(
                IExprKind::Cmp(
                    super::super::ast::BinOp::Eq,
                    Box::new(mk(IExprKind::Var(temp), pty)),
                    Box::new(mk(IExprKind::Const(BigInt::from(c)), pty)),
                ),
                CType::INT,
            )
        };
        let conv = |e: IExpr, t: CType| super::convert(e, t);
        let value = |d: u32| match site.kind {
            SiteKind::Load { .. } => {
                let v = cell_var(d);
                conv(mk(IExprKind::Var(v), self.program.var(self.f, v).ty), ty)
            }
            SiteKind::FieldAddr { .. } => mk(IExprKind::Const(BigInt::from(d)), ty),
            _ => unreachable!(),
        };
        self.used_invalid = true;
        let invalid = conv(mk(IExprKind::Call(self.invalid, vec![]), CType::INT), ty);
        let Some((&last, rest)) = targets.split_last() else {
            return invalid;
        };
        let valid = rest.iter().rev().fold(eq(last.0), |acc, &(c, _)| {
            mk(
                IExprKind::Logic(super::super::ast::BinOp::Or, Box::new(eq(c)), Box::new(acc)),
                CType::INT,
            )
        });
        let body = match site.kind {
            SiteKind::Store { value: tv, .. } => {
                let tvt = self.program.var(self.f, tv).ty;
                let mut out = mk(IExprKind::Const(BigInt::from(0)), CType::INT);
                for &(c, d) in targets.iter().rev() {
                    let v = cell_var(d);
                    let vt = self.program.var(self.f, v).ty;
                    let new = conv(mk(IExprKind::Var(tv), tvt), vt);
                    let pick = mk(
                        IExprKind::Cond(
                            Box::new(eq(c)),
                            Box::new(new),
                            Box::new(mk(IExprKind::Var(v), vt)),
                        ),
                        vt,
                    );
                    let assign = mk(IExprKind::Assign(v, Box::new(pick)), vt);
                    out = mk(
                        IExprKind::Comma(Box::new(assign), Box::new(out)),
                        CType::INT,
                    );
                }
                conv(out, ty)
            }
            _ => rest.iter().rev().fold(value(last.1), |acc, &(c, d)| {
                mk(
                    IExprKind::Cond(Box::new(eq(c)), Box::new(value(d)), Box::new(acc)),
                    ty,
                )
            }),
        };
        mk(
            IExprKind::Cond(Box::new(valid), Box::new(body), Box::new(invalid)),
            ty,
        )
    }
}
