//! From the parsed AST to the resolved program of `ir.rs`: binds names (block scopes, globals,
//! functions; a name declared twice in one scope is an error, file-scope declarations in
//! `decl.rs`), computes types with C's conversions, recognises the SV-COMP built-ins, and
//! rejects everything outside the subset with an `unsupported:` error at its place. Arrays
//! (declarations, initialiser lists, element accesses) are in `array.rs`. Structs and
//! pointers: `structs.rs` (full types, flattening into one scalar per field), `pointers.rs`
//! (places, pointer sites), `declare.rs` (their declarations and initialisers), `lower.rs`
//! (object ids, points-to sets, sites lowered to scalar operations before the CFAs are built),
//! `struct_array.rs` (arrays of structs: one integer array per field, elements as places),
//! `heap.rs` and `heap_lower.rs` (`malloc`/`free` as allocation sites), `mem_checks.rs` (the
//! memory property's checks).
//!
//! Must not: translate to clauses or execute anything.

use super::ast::*;
use super::cfa::{self, Cfa};
use super::error::{CError, CErrorKind};
use super::ir::*;
use super::types::{CType, DataModel};
use num_bigint::BigInt;
use std::collections::HashMap;

mod array;
mod decl;
mod declare;
mod expr;
mod heap;
mod heap_lower;
mod jumps;
mod lower;
mod mem_checks;
mod places;
mod pointers;
mod statics;
mod struct_array;
mod structs;
mod walk;

use array::is_array;
use decl::ParamDecl;
pub use expr::{const_value, convert};
use jumps::SwitchCtx;

/// Functions whose definitions are ignored: their meaning is built in.
const BUILTINS: &[&str] = &[
    "reach_error",
    "__VERIFIER_error",
    "__VERIFIER_assert",
    "__VERIFIER_assume",
    "assume_abort_if_not",
    "abort",
    "exit",
    "assert",
    "__assert_fail",
];

/// A function's signature, from its prototype or definition.
struct Sig {
    ret: Option<CType>,
    params: Vec<CType>,
    /// Declared as `f()`: the parameters are unspecified (compatible with any list).
    unspecified: bool,
    /// Its index among the definitions, once defined.
    index: Option<usize>,
    span: Span,
}

struct Resolver {
    globals: Vec<VarInfo>,
    global_init: Vec<BigInt>,
    /// Per global, the initialised elements of an array.
    global_elems: Vec<Vec<(BigInt, BigInt)>>,
    /// Whether each global has had its (one) initialised definition.
    global_defined: Vec<bool>,
    global_names: HashMap<String, usize>,
    /// Types promised by `extern` declarations of variables.
    externs: HashMap<String, CType>,
    typedefs: HashMap<String, CType>,
    sigs: HashMap<String, Sig>,
    sites: Vec<NondetSite>,
    // Per function:
    locals: Vec<VarInfo>,
    /// Block scopes, innermost last; the first holds the parameters and the body's top level.
    scopes: Vec<HashMap<String, VarRef>>,
    ret: Option<CType>,
    /// The function's name.
    func: String,
    /// The widths of `long` and `unsigned long`.
    model: DataModel,
    /// Per loop statement of the current function, the variables its names denote there.
    loop_scopes: Vec<LoopScope>,
    /// The labels of the current function by name (C11 6.2.1p3: one name space per function).
    labels: HashMap<String, usize>,
    /// Per label of the current function (named ones and switch cases): its name, its
    /// definition (`None` while only gotos name it) and the first goto naming it.
    label_defs: Vec<(String, Option<Span>, Option<Span>)>,
    /// The switch statements being resolved, innermost last.
    switches: Vec<SwitchCtx>,
    /// The statements `break` and `continue` may leave, innermost last: `true` for a loop,
    /// `false` for a switch.
    jumps: Vec<bool>,
    /// Struct types and the full types of pointer and struct variables (`structs.rs`).
    types: structs::Types,
    /// The pointer sites emitted so far (`pointers.rs`), lowered by `lower.rs`.
    ptr_sites: Vec<pointers::Site>,
    /// The number of (flattened) parameters of the current function.
    cur_params: usize,
    /// The allocation sites so far (`heap.rs`).
    heap: Heap,
    /// The first cast of a pointer to an integer.
    ptr_to_int: Option<Span>,
}

fn unsupported(span: Span, what: &str) -> CError {
    CError::unsupported(span, what.to_owned())
}

/// Resolves a parsed translation unit under a data model.
pub fn resolve(items: &[Item], src_len: usize, model: DataModel) -> Result<Program, CError> {
    resolve_with_points_to(items, src_len, model).map(|r| r.0)
}

/// Resolves a parsed translation unit under a data model, with the checks of a property.
pub fn resolve_checked(
    items: &[Item],
    src_len: usize,
    model: DataModel,
    checks: MemChecks,
) -> Result<Program, CError> {
    resolve_full(items, src_len, model, checks).map(|r| r.0)
}

/// Resolves a parsed translation unit; also returns the points-to relation of its pointer
/// variables as text, one `variable -> cell#id, ...` per line.
pub fn resolve_with_points_to(
    items: &[Item],
    src_len: usize,
    model: DataModel,
) -> Result<(Program, String), CError> {
    resolve_full(items, src_len, model, MemChecks::unreach_call())
}

fn resolve_full(
    items: &[Item],
    src_len: usize,
    model: DataModel,
    checks: MemChecks,
) -> Result<(Program, String), CError> {
    let mut r = Resolver {
        globals: vec![],
        global_init: vec![],
        global_elems: vec![],
        global_defined: vec![],
        global_names: HashMap::new(),
        externs: HashMap::new(),
        typedefs: HashMap::new(),
        sigs: HashMap::new(),
        sites: vec![],
        locals: vec![],
        scopes: vec![],
        ret: None,
        func: String::new(),
        model,
        loop_scopes: vec![],
        labels: Default::default(),
        label_defs: vec![],
        switches: vec![],
        jumps: vec![],
        types: Default::default(),
        ptr_sites: vec![],
        cur_params: 0,
        heap: Heap::default(),
        ptr_to_int: None,
    };
    // Pass 1: signatures, globals, typedefs (in order).
    let mut defs = vec![];
    let mut assert_error = None;
    for item in items {
        match item {
            Item::Decl(d) => r.top_decl(d)?,
            Item::Func(f) => {
                let name = f.decl.name.clone().unwrap_or_default();
                if BUILTINS.contains(&name.as_str()) || name.starts_with("__VERIFIER_nondet_") {
                    if name == "__VERIFIER_assert" || name == "assert" {
                        assert_error = assert_error.or_else(|| error_call(&f.body));
                    }
                    continue;
                }
                let (ret, params) = r.signature(&f.specs, &f.decl)?;
                let sig = Sig {
                    ret,
                    params: params.iter().map(|p| p.1).collect(),
                    unspecified: false,
                    index: Some(defs.len()),
                    span: f.decl.span,
                };
                r.declare_function(&name, sig)?;
                defs.push((f, params));
            }
        }
    }
    let main = match r.sigs.get("main").and_then(|s| s.index) {
        Some(m) => m,
        None => {
            return Err(CError::new(
                CErrorKind::Name,
                Span::new(src_len, src_len),
                "no definition of `main`",
            ))
        }
    };
    let mut functions = vec![];
    for (f, params) in defs {
        functions.push(r.function(f, params)?);
    }
    if let (Some(span), false) = (r.ptr_to_int, r.heap.sites.is_empty()) {
        // Allocation gives fresh addresses; a real `malloc` may reuse a freed block's
        // address, which only a pointer turned into an integer can observe.
        return Err(unsupported(
            span,
            "casts of pointers to integers in programs that allocate memory",
        ));
    }
    let sites = std::mem::take(&mut r.ptr_sites);
    let mut program = Program {
        globals: r.globals,
        global_init: r.global_init,
        global_elems: r.global_elems,
        functions,
        main,
        nondet_sites: r.sites,
        assert_error,
        heap: std::mem::take(&mut r.heap),
    };
    program.heap.checks = checks;
    let points_to = lower::lower(&mut program, &sites)?;
    mem_checks::property_checks(&mut program)?;
    for i in 0..program.functions.len() {
        let cfa = cfa::build(&program.functions[i], assert_error);
        program.functions[i].cfa = cfa;
    }
    Ok((program, points_to))
}

/// The first error call (`reach_error();`, `__VERIFIER_error();`) among the statements of `s`.
fn error_call(s: &Stmt) -> Option<Span> {
    match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Call(f, _) => match &f.kind {
                ExprKind::Ident(n) if n == "reach_error" || n == "__VERIFIER_error" => Some(e.span),
                _ => None,
            },
            _ => None,
        },
        StmtKind::Block(b) => b.iter().find_map(error_call),
        StmtKind::If(_, a, b) => error_call(a).or_else(|| b.as_deref().and_then(error_call)),
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Label(_, b)
        | StmtKind::Switch(_, b) => error_call(b),
        _ => None,
    }
}

impl Resolver {
    fn function(&mut self, f: &FuncDef, params: Vec<ParamDecl>) -> Result<Function, CError> {
        self.locals.clear();
        self.loop_scopes.clear();
        self.labels.clear();
        self.label_defs.clear();
        self.scopes = vec![HashMap::new()];
        self.types.locals.clear();
        self.types.local_arrays.clear();
        let name = f.decl.name.clone().unwrap_or_default();
        self.ret = self.sigs[&name].ret;
        self.func.clone_from(&name);
        let n = params.len();
        self.cur_params = n;
        for (pname, ty, span) in params {
            match pname {
                Some(pname) => {
                    self.declare(&pname, ty, span)?;
                }
                // Unnamed: a variable no name refers to.
                None => self.locals.push(VarInfo {
                    name: format!("_arg{}", self.locals.len()),
                    ty,
                    span,
                    dims: vec![],
                }),
            }
        }
        let names: Vec<Option<String>> = match f.decl.suffixes.first() {
            Some(Suffix::Params(ps, _)) => ps.iter().map(|p| p.decl.name.clone()).collect(),
            _ => vec![],
        };
        self.bind_params_ext(&names)?;
        // The body's outermost block is the parameters' scope (C11 6.2.1p4).
        let body = match &f.body.kind {
            StmtKind::Block(items) => self.items(items)?,
            _ => vec![self.stmt(&f.body)?],
        };
        let mut labels = vec![];
        for (name, def, used) in std::mem::take(&mut self.label_defs) {
            match (def, used) {
                (Some(span), _) => labels.push(Label { name, span }),
                (None, used) => {
                    return Err(CError::new(
                        CErrorKind::Name,
                        used.unwrap_or(f.span),
                        format!("label `{name}` used but not defined in `{}`", self.func),
                    ))
                }
            }
        }
        Ok(Function {
            name,
            ret: self.ret,
            params: n,
            locals: std::mem::take(&mut self.locals),
            loop_scopes: std::mem::take(&mut self.loop_scopes),
            labels,
            body,
            cfa: Cfa::default(),
            span: f.span,
        })
    }

    /// Binds `name` in the innermost scope; a name declared twice in one scope is an error.
    fn bind(&mut self, name: &str, v: VarRef, span: Span) -> Result<(), CError> {
        if let Some(s) = self.scopes.last_mut() {
            if s.insert(name.to_owned(), v).is_some() {
                return Err(CError::new(
                    CErrorKind::Name,
                    span,
                    format!("redeclaration of `{name}` in the same scope"),
                ));
            }
        }
        Ok(())
    }

    /// Records what each name in scope denotes at the loop statement starting at `start`.
    fn note_loop(&mut self, start: usize) {
        let mut visible: HashMap<&str, VarRef> = self
            .global_names
            .iter()
            .map(|(n, &g)| (n.as_str(), VarRef::Global(g)))
            .collect();
        for scope in &self.scopes {
            for (n, &v) in scope {
                visible.insert(n.as_str(), v);
            }
        }
        let mut names: Vec<(String, VarRef)> = visible
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v))
            .collect();
        names.sort();
        let names = self.scalar_names(names);
        self.loop_scopes.push(LoopScope { start, names });
    }

    /// A new local variable, bound in the innermost scope.
    fn declare(&mut self, name: &str, ty: CType, span: Span) -> Result<usize, CError> {
        self.declare_with(name, ty, vec![], span)
    }

    /// A new local variable (an array when `dims` is not empty), bound in the innermost scope.
    fn declare_with(
        &mut self,
        name: &str,
        ty: CType,
        dims: Vec<Dim>,
        span: Span,
    ) -> Result<usize, CError> {
        let id = self.locals.len();
        self.bind(name, VarRef::Local(id), span)?;
        self.locals.push(VarInfo {
            name: name.to_owned(),
            ty,
            span,
            dims,
        });
        Ok(id)
    }

    /// The declaration of a variable of the current function.
    fn info(&self, v: VarRef) -> &VarInfo {
        match v {
            VarRef::Local(i) => &self.locals[i],
            VarRef::Global(i) => &self.globals[i],
        }
    }

    /// The variable `name` denotes, or an error at `span` if none is declared.
    fn variable(&self, name: &str, span: Span) -> Result<(VarRef, CType), CError> {
        self.lookup(name).ok_or_else(|| {
            CError::new(
                CErrorKind::Name,
                span,
                format!("undeclared variable `{name}`"),
            )
        })
    }

    fn lookup(&self, name: &str) -> Option<(VarRef, CType)> {
        let v = self
            .scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| self.global_names.get(name).map(|&i| VarRef::Global(i)))?;
        let ty = match v {
            VarRef::Local(i) => self.locals[i].ty,
            VarRef::Global(i) => self.globals[i].ty,
        };
        Some((v, ty))
    }

    /// A block: its items in a scope of their own.
    fn block(&mut self, items: &[Stmt]) -> Result<Vec<IStmt>, CError> {
        self.scopes.push(HashMap::new());
        let out = self.items(items);
        self.scopes.pop();
        out
    }

    /// The items of a block, in the innermost scope.
    fn items(&mut self, items: &[Stmt]) -> Result<Vec<IStmt>, CError> {
        items.iter().map(|s| self.stmt(s)).collect()
    }

    /// The body of a loop (`true`) or switch (`false`): what `break` and `continue` leave.
    fn body(&mut self, s: &Stmt, is_loop: bool) -> Result<Vec<IStmt>, CError> {
        self.jumps.push(is_loop);
        let body = self.sub(s);
        self.jumps.pop();
        body
    }

    fn sub(&mut self, s: &Stmt) -> Result<Vec<IStmt>, CError> {
        match &s.kind {
            StmtKind::Block(items) => self.block(items),
            _ => {
                self.scopes.push(HashMap::new());
                let r = self.stmt(s);
                self.scopes.pop();
                Ok(vec![r?])
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<IStmt, CError> {
        let kind = match &s.kind {
            StmtKind::Empty => IStmtKind::Block(vec![]),
            StmtKind::Expr(e) => self.expr_stmt(e)?,
            StmtKind::Decl(d) => {
                if d.specs.words.iter().any(|w| w.0 == Spec::Typedef) {
                    return Err(unsupported(d.span, "local typedefs"));
                }
                let is_extern = d.specs.words.iter().any(|w| w.0 == Spec::Extern);
                let is_static = d.specs.words.iter().any(|w| w.0 == Spec::Static);
                let mut out = vec![];
                if d.items.is_empty() {
                    self.full_type(&d.specs, 0)?; // `struct T { ... };`
                }
                for item in &d.items {
                    if matches!(item.decl.suffixes.first(), Some(Suffix::Params(..))) {
                        continue; // a local prototype
                    }
                    if is_extern {
                        self.local_extern(d, item)?;
                        continue;
                    }
                    if is_static {
                        self.local_static(d, item)?;
                        continue;
                    }
                    if let Some(mut init) = self.local_decl_ext(d, item)? {
                        out.append(&mut init);
                        continue;
                    }
                    if is_array(&item.decl) {
                        out.extend(self.local_array(d, item)?);
                        continue;
                    }
                    self.check_scalar(&item.decl)?;
                    let Some(ty) = self.base_type(&d.specs)? else {
                        return Err(unsupported(item.decl.span, "void variables"));
                    };
                    // The name is in scope from its declarator on, its own initialiser
                    // included (C11 6.2.1p7): `int x = x + 1;` reads the new `x`.
                    let name = item.decl.name.clone().unwrap_or_default();
                    let id = self.declare(&name, ty, item.decl.span)?;
                    let var = VarRef::Local(id);
                    // An uninitialised local holds any value of its type: a nondet site of
                    // its own, so that the interpreter can replay it. So does one whose
                    // initialiser reads it, before the initialiser runs.
                    let any_value = |sites: &mut Vec<NondetSite>| {
                        sites.push(NondetSite {
                            ty,
                            span: item.decl.span,
                        });
                        IExpr {
                            kind: IExprKind::Nondet(sites.len() - 1),
                            ty,
                            span: item.decl.span,
                        }
                    };
                    let init = match &item.init {
                        None => any_value(&mut self.sites),
                        Some(e) => {
                            let init = convert(self.expr(e)?, ty);
                            if init.mentions(var) {
                                let first = any_value(&mut self.sites);
                                out.push(IStmt {
                                    kind: IStmtKind::Init(var, Some(first)),
                                    span: item.decl.span,
                                });
                            }
                            init
                        }
                    };
                    out.push(IStmt {
                        kind: IStmtKind::Init(var, Some(init)),
                        span: item.decl.span,
                    });
                }
                IStmtKind::Block(out)
            }
            StmtKind::Block(items) => IStmtKind::Block(self.block(items)?),
            StmtKind::If(c, t, e) => {
                let c = self.expr(c)?;
                let t = self.sub(t)?;
                let e = match e {
                    Some(e) => self.sub(e)?,
                    None => vec![],
                };
                IStmtKind::If(c, t, e)
            }
            StmtKind::While(c, b) => IStmtKind::Loop {
                cond: Some({
                    self.note_loop(s.span.start);
                    self.expr(c)?
                }),
                body: self.body(b, true)?,
                step: None,
                do_while: false,
            },
            StmtKind::DoWhile(b, c) => {
                self.note_loop(s.span.start);
                let body = self.body(b, true)?;
                IStmtKind::Loop {
                    cond: Some(self.expr(c)?),
                    body,
                    step: None,
                    do_while: true,
                }
            }
            StmtKind::For(init, c, step, b) => {
                self.scopes.push(HashMap::new());
                let res = (|| {
                    let init = match init {
                        Some(i) => Some(self.stmt(i)?),
                        None => None,
                    };
                    self.note_loop(s.span.start);
                    let cond = match c {
                        Some(c) => Some(self.expr(c)?),
                        None => None,
                    };
                    let step = match step {
                        Some(s) => Some(self.expr(s)?),
                        None => None,
                    };
                    let body = self.body(b, true)?;
                    let lp = IStmt {
                        kind: IStmtKind::Loop {
                            cond,
                            body,
                            step,
                            do_while: false,
                        },
                        span: s.span,
                    };
                    Ok(IStmtKind::Block(init.into_iter().chain([lp]).collect()))
                })();
                self.scopes.pop();
                res?
            }
            StmtKind::Break if self.jumps.is_empty() => {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    s.span,
                    "`break` outside a loop or switch",
                ))
            }
            StmtKind::Continue if !self.jumps.contains(&true) => {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    s.span,
                    "`continue` outside a loop",
                ))
            }
            StmtKind::Break => IStmtKind::Break,
            StmtKind::Continue => IStmtKind::Continue,
            StmtKind::Return(e) => {
                let v = match (e, self.ret) {
                    (Some(e), Some(t)) => {
                        self.check_return_ext(e)?;
                        Some(convert(self.expr(e)?, t))
                    }
                    (Some(e), None) => {
                        // `return f();` in a void function: evaluate for effects.
                        let ie = self.expr(e)?;
                        return Ok(IStmt {
                            kind: IStmtKind::Block(vec![
                                IStmt {
                                    kind: IStmtKind::Expr(ie),
                                    span: s.span,
                                },
                                IStmt {
                                    kind: IStmtKind::Return(None),
                                    span: s.span,
                                },
                            ]),
                            span: s.span,
                        });
                    }
                    (None, _) => None,
                };
                IStmtKind::Return(v)
            }
            StmtKind::TooDeep => return Err(CError::too_deep(s.span, "statements")),
            StmtKind::Goto(name) => {
                let l = self.label(name);
                self.label_defs[l].2.get_or_insert(s.span);
                IStmtKind::Goto(l)
            }
            StmtKind::Switch(e, body) => self.switch(e, body, s.span)?,
            StmtKind::Case(e) => self.case(e, s.span)?,
            StmtKind::Default => self.default_label(s.span)?,
            StmtKind::Label(label, inner) => {
                let l = self.label(label);
                if self.label_defs[l].1.replace(s.span).is_some() {
                    return Err(CError::new(
                        CErrorKind::Name,
                        s.span,
                        format!("label `{label}` defined twice in `{}`", self.func),
                    ));
                }
                // A goto may make the label a loop head: its invariant sees these names.
                self.note_loop(s.span.start);
                let inner = self.stmt(inner)?;
                IStmtKind::Block(vec![
                    IStmt {
                        kind: IStmtKind::Label(l),
                        span: s.span,
                    },
                    inner,
                ])
            }
        };
        Ok(IStmt { kind, span: s.span })
    }

    /// Expression statements: built-in calls become statements of their own.
    fn expr_stmt(&mut self, e: &Expr) -> Result<IStmtKind, CError> {
        if let ExprKind::Call(f, args) = &e.kind {
            if let ExprKind::Ident(name) = &f.kind {
                if self.lookup(name).is_none() {
                    match name.as_str() {
                        "reach_error" | "__VERIFIER_error" | "__assert_fail" => {
                            return Ok(IStmtKind::Error)
                        }
                        "abort" | "exit" => return Ok(IStmtKind::Abort),
                        "__VERIFIER_assert"
                        | "assert"
                        | "__VERIFIER_assume"
                        | "assume_abort_if_not" => {
                            if args.len() != 1 {
                                return Err(CError::new(
                                    CErrorKind::Name,
                                    e.span,
                                    format!("`{name}` takes one argument"),
                                ));
                            }
                            let c = self.expr(&args[0])?;
                            return Ok(if name.ends_with("assert") {
                                IStmtKind::Assert(c)
                            } else {
                                IStmtKind::Assume(c)
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(IStmtKind::Expr(self.expr(e)?))
    }
}
