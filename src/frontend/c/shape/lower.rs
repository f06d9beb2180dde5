//! Reads `main` from the syntax tree into a [`PointerProgram`]: statements, scopes and
//! control flow (this file), types and expressions (`lower_types.rs`, `lower_expr.rs`),
//! calls of the program's functions inlined (`lower_call.rs`), struct variables and struct
//! fields (`lower_parts.rs`), pointers to pointer fields (`lower_field_ptr.rs`),
//! `container_of` (`lower_container.rs`).
//!
//! The program has already been accepted by the resolver (names bound, types checked), so
//! this reading only decides what the shape engine understands; anything else (recursion,
//! arrays, `&` of an integer, pointer arithmetic, pointers to non-structs but `struct T **`
//! locals, `goto` out of `main`'s outermost block, `switch`, struct values) is a reason to
//! give up, returned as text.
//!
//! Must not: give a construct a meaning other than C's; when unsure, give up.

use super::super::ast::{Declaration, ExprKind, FuncDef, Item, Span, Spec, Stmt, StmtKind};
use super::super::property::PropertyKind;
use super::lower_call::Inlined;
use super::lower_expr::is_zero;
use super::lower_types::Record;
use super::pir::{
    Edge, Ending, Int, IntVal, Loc, LoopHead, Op, PointerProgram, Storage, StructType, Var,
};
use std::collections::{HashMap, HashSet};

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Name {
    /// A pointer variable to the struct type.
    Ptr(Var, usize),
    /// An integer (or other non-pointer scalar) variable: abstracted away.
    Data,
    /// A tracked integer variable.
    Int(Int),
    /// A variable the engine cannot follow (a parameter of `main` of pointer type).
    Opaque,
    /// A parameter of an inlined function pointing to a pointer variable of its caller (a
    /// `struct T **` whose argument was `&v`): `*p` is that variable (`lower_call.rs`).
    Alias(Var, usize),
    /// An enumerator: an integer constant.
    Const(i32),
    /// A struct variable of the struct type: the pointer variable holding its address, whose
    /// node is a [`super::pir::Storage::Variable`] (`lower_parts.rs`).
    Struct(Var, usize),
    /// A pointer to pointer fields that point to the struct type (`struct T **pp = &x->f`):
    /// the variable holding the node and the tracked integer naming the field
    /// (`lower_field_ptr.rs`).
    FieldPtr(Var, Int, usize),
}

/// What a copy of a struct type is made for: the type, the storage of its nodes and, for a
/// part pointing back to its container, the container's type and field index.
pub(super) type CopyKey = (usize, Storage, Option<(usize, usize)>);

/// How many integer locals the symbols track at most (the first declared).
const INTS: usize = 4;

/// A loop's jump targets.
pub(super) struct LoopCtx {
    brk: Loc,
    cont: Loc,
    depth: usize,
}

/// The reader's state.
pub(super) struct Lower {
    pub(super) records: Vec<Record>,
    pub(super) tags: HashMap<String, usize>,
    /// Typedef names: the struct type (if any) and the number of `*`.
    pub(super) typedefs: HashMap<String, (Option<usize>, usize)>,
    pub(super) scopes: Vec<HashMap<String, Name>>,
    /// The pointer variables declared in each scope (killed when it ends).
    pub(super) scope_vars: Vec<Vec<Var>>,
    pub(super) vars: Vec<String>,
    /// Temporaries not in use.
    pub(super) free_temps: Vec<Var>,
    /// Temporaries in use by the current statement or condition.
    pub(super) temps: Vec<Var>,
    pub(super) locs: usize,
    pub(super) cur: Loc,
    pub(super) edges: Vec<Edge>,
    pub(super) heads: Vec<LoopHead>,
    pub(super) loops: Vec<LoopCtx>,
    globals: Vec<Var>,
    /// The functions whose calls are inlined (`lower_call.rs`): the defined ones other than
    /// `main` and the built-ins whose definitions the front end ignores.
    pub(super) defs: HashMap<String, FuncDef>,
    /// Of those, the ones that return a struct pointer, with its struct type.
    pub(super) returns: HashMap<String, usize>,
    /// The calls being inlined, innermost last.
    pub(super) inlined: Vec<Inlined>,
    /// The names of the fields `main` compares with a constant (`p->f == c`): the integer
    /// fields the symbols track, when they are among their struct's first [`DATA`] such.
    pub(super) compared: HashSet<String>,
    /// Per label of `main`'s outermost block: its location and, once it is defined, the
    /// pointer variables declared before it (`lower_goto.rs`).
    pub(super) labels: HashMap<String, (Loc, Option<usize>)>,
    /// Per `goto`: its label and the pointer variables declared before it.
    pub(super) gotos: Vec<(String, usize)>,
    /// The functions that never return (their calls end the execution, unchecked).
    pub(super) diverging: HashSet<String>,
    /// The names of the variables `main` compares with a constant (`v < c`, `!v`, ...).
    pub(super) compared_ints: HashSet<String>,
    /// Whether integer data is tracked (fields and locals).
    pub(super) track_data: bool,
    /// The tracked integer locals' names, by slot.
    pub(super) ints: Vec<String>,
    /// Whether some `int` local is compared with a constant (tracked when data is).
    pub(super) trackable_int: bool,
    /// The typedef names of `int`-like types (`int`, `long`, an enum).
    pub(super) int_typedefs: HashSet<String>,
    /// The copies of struct types for other storage, by struct type, storage and (for a
    /// part whose container it points back to) the container's struct type and field.
    pub(super) copies: HashMap<CopyKey, usize>,
    /// Whether the program uses `__builtin_offsetof` (`container_of`): parts then point back
    /// to their container (`lower_container.rs`).
    pub(super) containers: bool,
    /// Per pointer variable of a struct type with parts, when [`Lower::containers`]: per part
    /// (its field index), the variable holding `&v->part` (`lower_container.rs`).
    pub(super) shadows: HashMap<Var, Vec<(usize, Var)>>,
    /// The local struct variables' address variables, with their struct types: their nodes
    /// are released when their scope ends.
    pub(super) struct_vars: HashMap<Var, usize>,
    /// The pointer fields some pointer-to-field variable was set to, as (struct type, field)
    /// (`lower_field_ptr.rs`).
    pub(super) field_tags: Vec<(usize, usize)>,
    /// The fewest struct types read when some `*pp` was read (`None`: never read).
    pub(super) field_reads: Option<usize>,
    /// The pointer variables whose address some pointer-to-field variable holds, with the
    /// struct type they point to.
    pub(super) var_tags: Vec<(Var, usize)>,
    /// The fewest of those when some `*pp` was read (`None`: never read).
    pub(super) var_reads: Option<usize>,
    /// Per pointer-to-field variable (its node variable), the depth of its scope.
    pub(super) field_ptr_depth: HashMap<Var, usize>,
}

/// Reads the program's `main`, or says why the engine gives up.
pub fn lower(items: &[Item], track_data: bool) -> Result<PointerProgram, String> {
    let mut l = Lower {
        records: vec![],
        tags: HashMap::new(),
        typedefs: HashMap::new(),
        scopes: vec![HashMap::new()],
        scope_vars: vec![vec![]],
        vars: vec![],
        free_temps: vec![],
        temps: vec![],
        locs: 1,
        cur: 0,
        edges: vec![],
        heads: vec![],
        loops: vec![],
        globals: vec![],
        defs: HashMap::new(),
        returns: HashMap::new(),
        inlined: vec![],
        compared: HashSet::new(),
        labels: HashMap::new(),
        gotos: vec![],
        diverging: super::lower_goto::diverging(items),
        compared_ints: HashSet::new(),
        track_data,
        ints: vec![],
        trackable_int: false,
        int_typedefs: HashSet::new(),
        copies: HashMap::new(),
        containers: false,
        shadows: HashMap::new(),
        struct_vars: HashMap::new(),
        field_tags: vec![],
        field_reads: None,
        var_tags: vec![],
        var_reads: None,
        field_ptr_depth: HashMap::new(),
    };
    let mut main = None;
    for item in items {
        if let Item::Func(f) = item {
            match f.decl.name.as_deref() {
                Some("main") => main = Some(f),
                Some(n) if !super::lower_expr::is_builtin(n) && !l.diverging.contains(n) => {
                    l.defs.insert(n.to_owned(), (**f).clone());
                }
                Some(_) => {}
                None => {}
            }
        }
    }
    let main = main.ok_or("no `main`")?;
    l.containers = super::lower_container::uses_offsetof(items);
    for item in items {
        match item {
            Item::Decl(d) => l.file_scope_declaration(d)?,
            Item::Func(f) => {
                if let Some(n) = f.decl.name.as_deref().filter(|n| l.defs.contains_key(*n)) {
                    // Its result type, for `is_ptr` (a type it cannot read: not a pointer).
                    let base = l.base_type(&f.specs);
                    if let Ok(Some(t)) = base.and_then(|b| l.ptr_type(b, f.decl.pointers)) {
                        l.returns.insert(n.to_owned(), t);
                    }
                }
                if f.decl.name.as_deref() != Some("main") {
                    continue;
                }
                for s in &f.decl.suffixes {
                    if let super::super::ast::Suffix::Params(ps, _) = s {
                        for p in ps {
                            let Some(name) = &p.decl.name else { continue };
                            let kind = if p.decl.pointers > 0 {
                                Name::Opaque
                            } else {
                                Name::Data
                            };
                            l.scopes[0].insert(name.clone(), kind);
                        }
                    }
                }
            }
        }
    }
    l.scopes.push(HashMap::new());
    l.scope_vars.push(vec![]);
    let mut compared = super::lower_data::compared_fields(&main.body);
    for def in l.defs.values() {
        compared.extend(super::lower_data::compared_fields(&def.body));
    }
    if track_data {
        l.compared = compared.clone();
    }
    l.compared_ints = super::lower_data::compared_ints(&main.body);
    l.stmt(&main.body)?;
    l.check_gotos()?;
    l.check_field_tags()?;
    l.edge(Op::Exit(Ending::Return), main.body.span);
    if let Some(r) = l.records.iter().find(|r| !r.defined) {
        return Err(format!("{} is used but never defined", r.name));
    }
    let types = l
        .records
        .iter()
        .map(|r| StructType {
            name: r.name.clone(),
            pointers: r
                .pointers
                .iter()
                .chain(&r.parts)
                .chain(&r.container)
                .cloned()
                .collect(),
            storage: r.storage,
            origin: r.origin,
            data: r.tracked(&l.compared).cloned().collect(),
        })
        .collect();
    Ok(PointerProgram {
        types,
        vars: l.vars,
        locs: l.locs,
        entry: 0,
        edges: l.edges,
        heads: l.heads,
        globals: l.globals,
        property: PropertyKind::MemCleanup,
        trackable: l.trackable_int
            || l.records
                .iter()
                .any(|r| r.tracked(&compared).next().is_some()),
        ints: l.ints,
    })
}

impl Lower {
    /// A fresh location.
    pub(super) fn loc(&mut self) -> Loc {
        self.locs += 1;
        self.locs - 1
    }

    /// An edge from the current location to a fresh one, which becomes current.
    pub(super) fn edge(&mut self, op: Op, span: Span) {
        let to = self.loc();
        self.edge_to(op, span, to);
        self.cur = to;
    }

    /// An edge from the current location to `to`.
    pub(super) fn edge_to(&mut self, op: Op, span: Span, to: Loc) {
        self.edges.push(Edge {
            from: self.cur,
            to,
            op,
            span,
        });
    }

    /// A new pointer variable.
    pub(super) fn new_var(&mut self, name: String) -> Var {
        self.vars.push(name);
        self.vars.len() - 1
    }

    /// A temporary for the current statement.
    pub(super) fn temp(&mut self) -> Var {
        let t = match self.free_temps.pop() {
            Some(t) => t,
            None => {
                let n = format!("tmp#{}", self.vars.len());
                self.new_var(n)
            }
        };
        self.temps.push(t);
        t
    }

    /// Kills the temporaries taken since `mark` (an edge from the current location), and
    /// gives them back.
    pub(super) fn release(&mut self, mark: usize, span: Span) {
        let done: Vec<Var> = self.temps.drain(mark..).collect();
        if !done.is_empty() {
            self.edge(Op::Kill(done.clone()), span);
            self.free_temps.extend(done);
        }
    }

    /// What a name denotes.
    pub(super) fn lookup(&self, name: &str) -> Option<Name> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// Opens a scope.
    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.scope_vars.push(vec![]);
    }

    /// Closes a scope: its pointer variables become undefined (their blocks may be leaked).
    fn pop_scope(&mut self, span: Span) {
        self.scopes.pop();
        let vars = self.scope_vars.pop().unwrap_or_default();
        self.end_vars(vars, span);
    }

    /// Kills the variables of the scopes deeper than `depth` (a jump out of them).
    pub(super) fn leave_scopes(&mut self, depth: usize, span: Span) {
        let vars: Vec<Var> = self.scope_vars[depth..].iter().flatten().copied().collect();
        self.end_vars(vars, span);
    }

    /// A declaration (global when `global`): types, typedefs, variables and initialisers.
    /// (See [`Lower::file_scope_declaration`] for the ones whose errors wait for a use.)
    pub(super) fn declaration(&mut self, d: &Declaration, global: bool) -> Result<(), String> {
        let is_typedef = d.specs.words.iter().any(|(w, _)| *w == Spec::Typedef);
        if d.specs.words.iter().any(|(w, _)| *w == Spec::Static) && !global {
            return Err("a static local".into());
        }
        if is_typedef && d.items.is_empty() {
            // `typedef struct {...} Name;`: the parser reads the new name as a type name.
            if let Some((Spec::Named(n), _)) = d.specs.words.last() {
                let mut specs = d.specs.clone();
                specs.words.pop();
                let base = self.base_type(&specs)?;
                self.typedefs.insert(n.clone(), base);
                if self.is_int(&specs) {
                    self.int_typedefs.insert(n.clone());
                }
                return Ok(());
            }
        }
        let base = self.base_type(&d.specs)?;
        for item in &d.items {
            let decl = &item.decl;
            let Some(name) = &decl.name else { continue };
            if decl
                .suffixes
                .iter()
                .any(|s| matches!(s, super::super::ast::Suffix::Params(..)))
            {
                continue; // a prototype
            }
            if !decl.suffixes.is_empty() {
                return Err(format!("the array `{name}`"));
            }
            if let (Some(t), 2, false, false) = (base.0, base.1 + decl.pointers, is_typedef, global)
            {
                self.field_ptr_var(name, t, item.init.as_ref(), decl.span)?;
                continue;
            }
            let ty = self.ptr_type(base, decl.pointers)?;
            if is_typedef {
                self.typedefs
                    .insert(name.clone(), (base.0, base.1 + decl.pointers));
                if decl.pointers == 0 && self.is_int(&d.specs) {
                    self.int_typedefs.insert(name.clone());
                }
                continue;
            }
            let scope = self.scopes.len() - 1;
            match ty {
                Some(t) => {
                    let v = self.new_var(name.clone());
                    self.scopes[scope].insert(name.clone(), Name::Ptr(v, t));
                    if global {
                        self.globals.push(v);
                        if let Some(init) = &item.init {
                            if !self.is_null(init) {
                                return Err(format!("the global pointer `{name}`'s initialiser"));
                            }
                        }
                        continue;
                    }
                    let mut dead = vec![v];
                    dead.extend(self.make_shadows(v, t, name));
                    if let Some(vars) = self.scope_vars.last_mut() {
                        vars.extend(&dead);
                    }
                    match &item.init {
                        Some(init) => self.assign_var(v, t, init, decl.span)?,
                        None => self.edge(Op::Kill(dead), decl.span),
                    }
                }
                None => {
                    if let (Some(t), 0) = (base.0, base.1 + decl.pointers) {
                        self.struct_var(name, t, item.init.as_ref(), global, decl.span)?;
                        continue;
                    }
                    let int = !global
                        && self.inlined.is_empty()
                        && decl.pointers == 0
                        && self.compared_ints.contains(name)
                        && self.is_int(&d.specs);
                    self.trackable_int |= int;
                    if int && self.track_data && self.ints.len() < INTS {
                        let i = self.ints.len();
                        self.ints.push(name.clone());
                        self.scopes[scope].insert(name.clone(), Name::Int(i));
                        let mark = self.temps.len();
                        match &item.init {
                            Some(init) => self.set_int(i, init, decl.span)?,
                            None => self.edge(Op::SetInt(i, IntVal::Any), decl.span),
                        }
                        self.release(mark, decl.span);
                        continue;
                    }
                    self.scopes[scope].insert(name.clone(), Name::Data);
                    if let Some(init) = &item.init {
                        if global {
                            continue; // constants: no effect on the heap
                        }
                        let mark = self.temps.len();
                        self.data(init)?;
                        self.release(mark, decl.span);
                    }
                }
            }
        }
        Ok(())
    }

    /// A statement.
    pub(super) fn stmt(&mut self, s: &Stmt) -> Result<(), String> {
        match &s.kind {
            StmtKind::Expr(e) => {
                let mark = self.temps.len();
                self.effect(e)?;
                self.release(mark, s.span);
            }
            StmtKind::Decl(d) => self.declaration(d, false)?,
            StmtKind::Block(items) => {
                self.push_scope();
                for i in items {
                    self.stmt(i)?;
                }
                self.pop_scope(s.span);
            }
            StmtKind::If(c, t, e) => {
                let (tl, el, join) = (self.loc(), self.loc(), self.loc());
                self.cond(c, tl, el)?;
                self.cur = tl;
                self.stmt(t)?;
                self.edge_to(Op::Skip, s.span, join);
                self.cur = el;
                if let Some(e) = e {
                    self.stmt(e)?;
                }
                self.edge_to(Op::Skip, s.span, join);
                self.cur = join;
            }
            StmtKind::While(c, body) => {
                let head = self.head(s.span);
                let (bl, exit) = (self.loc(), self.loc());
                self.cond(c, bl, exit)?;
                self.cur = bl;
                self.body(body, exit, head)?;
                self.edge_to(Op::Skip, s.span, head);
                self.cur = exit;
            }
            // `do { ... } while (0)` (a macro's statement) runs once: no loop head, where the
            // abstraction would lose what the statements before it established.
            StmtKind::DoWhile(body, c) if matches!(&c.kind, ExprKind::Int(x) if is_zero(x)) => {
                let exit = self.loc();
                self.body(body, exit, exit)?;
                self.edge_to(Op::Skip, s.span, exit);
                self.cur = exit;
            }
            StmtKind::DoWhile(body, c) => {
                let head = self.head(s.span);
                let (cl, exit) = (self.loc(), self.loc());
                self.body(body, exit, cl)?;
                self.edge_to(Op::Skip, s.span, cl);
                self.cur = cl;
                self.cond(c, head, exit)?;
                self.cur = exit;
            }
            StmtKind::For(init, c, step, body) => {
                self.push_scope();
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                let head = self.head(s.span);
                let (bl, sl, exit) = (self.loc(), self.loc(), self.loc());
                match c {
                    Some(c) => self.cond(c, bl, exit)?,
                    None => self.edge_to(Op::Skip, s.span, bl),
                }
                self.cur = bl;
                self.body(body, exit, sl)?;
                self.edge_to(Op::Skip, s.span, sl);
                self.cur = sl;
                if let Some(step) = step {
                    let mark = self.temps.len();
                    self.effect(step)?;
                    self.release(mark, step.span);
                }
                self.edge_to(Op::Skip, s.span, head);
                self.cur = exit;
                self.pop_scope(s.span);
            }
            StmtKind::Break | StmtKind::Continue => {
                let ctx = self.loops.last().ok_or("`break` outside a loop")?;
                let (target, depth) = match s.kind {
                    StmtKind::Break => (ctx.brk, ctx.depth),
                    _ => (ctx.cont, ctx.depth),
                };
                self.leave_scopes(depth, s.span);
                self.edge_to(Op::Skip, s.span, target);
                self.cur = self.loc(); // unreachable
            }
            StmtKind::Return(e) if !self.inlined.is_empty() => {
                self.inline_return(e.as_ref(), s.span)?
            }
            StmtKind::Goto(_) if !self.inlined.is_empty() => {
                return Err("a `goto` in a called function".into())
            }
            // No `goto` of a called function jumps to it (that gives up), and `main`'s cannot.
            StmtKind::Label(_, body) if !self.inlined.is_empty() => self.stmt(body)?,
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let mark = self.temps.len();
                    self.data(e)?;
                    self.release(mark, s.span);
                }
                self.edge(Op::Exit(Ending::Return), s.span);
                self.cur = self.loc();
            }
            StmtKind::Empty => {}
            StmtKind::Goto(name) => self.goto(name, s.span),
            StmtKind::Label(name, body) => self.label(name, body, s.span)?,
            StmtKind::Switch(..) | StmtKind::Case(_) | StmtKind::Default => {
                return Err("`switch`".into())
            }
            StmtKind::TooDeep => return Err("nesting too deep".into()),
        }
        Ok(())
    }

    /// A loop head reached from the current location (which it becomes).
    fn head(&mut self, span: Span) -> Loc {
        let head = self.loc();
        self.edge_to(Op::Skip, span, head);
        self.heads.push(LoopHead {
            loc: head,
            offset: span.start,
        });
        self.cur = head;
        head
    }

    /// A loop body with its jump targets.
    fn body(&mut self, body: &Stmt, brk: Loc, cont: Loc) -> Result<(), String> {
        self.loops.push(LoopCtx {
            brk,
            cont,
            depth: self.scope_vars.len(),
        });
        let r = self.stmt(body);
        self.loops.pop();
        r
    }
}
