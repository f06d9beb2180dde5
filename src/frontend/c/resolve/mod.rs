//! From the parsed AST to the resolved program of `ir.rs`: binds names (block scopes, globals,
//! functions; a name declared twice in one scope is an error, file-scope declarations in
//! `decl.rs`), computes types with C's conversions, recognises the SV-COMP built-ins, and
//! rejects everything outside the subset with an `unsupported:` error at its place. Arrays
//! (declarations, initialiser lists, element accesses) are in `array.rs`, statements in
//! `stmt.rs`, `goto`/labels/`switch` in `jumps.rs`. Structs and pointers: `structs.rs` (full
//! types, flattening into one scalar or array per field), `pointers.rs` (pointer sites, full
//! types of expressions), `places.rs` (where an lvalue lives, its address), `declare.rs` (their
//! declarations and initialisers), `points_to.rs` (the points-to facts), `statics.rs`
//! (address-taken locals made globals, cell ids), `lower.rs` (addresses, points-to sets, sites
//! lowered to scalar operations before the CFAs are built), `struct_array.rs` (arrays of
//! structs and of pointers: one integer array per field, elements as places). The heap:
//! `heap.rs` and `heap_lower.rs` (`malloc`/`free` as allocation sites), `mem_checks.rs` (the
//! memory property's checks). Before resolution, `by_reference.rs` inlines the calls of atomic
//! functions that pass variables by address (in concurrent programs).
//!
//! Must not: translate to clauses or execute anything.

use super::ast::*;
use super::cfa::{self, Cfa};
use super::error::{CError, CErrorKind};
use super::ir::*;
use super::program::{Function, Program};
use super::types::{CType, DataModel};
use num_bigint::BigInt;
use std::collections::HashMap;

mod array;
mod by_reference;
mod decl;
mod declare;
mod enums;
mod expr;
mod heap;
mod heap_lower;
mod jumps;
mod lifetimes;
mod lower;
mod main_args;
mod mem_checks;
mod param_address;
mod places;
mod pointers;
mod points_to;
mod small_arrays;
mod statics;
mod stmt;
mod struct_array;
mod structs;
mod threads;
mod unreferenced;
mod walk;

use array::is_array;
use decl::ParamDecl;
pub use expr::{const_value, convert, int_literal, nondet_by_convention};
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
    /// The scalar globals declared `const` (read-only: writing one is undefined behaviour).
    const_globals: std::collections::HashSet<usize>,
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
    /// A call of `reach_error()` does nothing (see [`resolve_checked`]).
    error_returns: bool,
    /// The allocation sites so far (`heap.rs`).
    heap: Heap,
    /// The first cast of a pointer to an integer.
    ptr_to_int: Option<Span>,
    /// The enumerators defined so far: value and place (`enums.rs`).
    enumerators: std::cell::RefCell<HashMap<String, (BigInt, Span)>>,
}

fn unsupported(span: Span, what: &str) -> CError {
    CError::unsupported(span, what.to_owned())
}

/// Resolves a parsed translation unit under a data model.
pub fn resolve(items: &[Item], src_len: usize, model: DataModel) -> Result<Program, CError> {
    resolve_with_points_to(items, src_len, model).map(|r| r.0)
}

/// Resolves a parsed translation unit under a data model, with the checks of a property;
/// with `error_returns` (a memory property, and the program's `reach_error` has an empty
/// body, which the tokenizer drops) a call of `reach_error()` does nothing.
pub fn resolve_checked(
    items: &[Item],
    src_len: usize,
    model: DataModel,
    checks: MemChecks,
    error_returns: bool,
) -> Result<Program, CError> {
    resolve_full(items, src_len, model, checks, error_returns).map(|r| r.0)
}

/// Resolves a parsed translation unit; also returns the points-to relation of its pointer
/// variables as text, one `variable -> cell#id, ...` per line.
pub fn resolve_with_points_to(
    items: &[Item],
    src_len: usize,
    model: DataModel,
) -> Result<(Program, String), CError> {
    resolve_full(items, src_len, model, MemChecks::unreach_call(), false)
}

fn resolve_full(
    items: &[Item],
    src_len: usize,
    model: DataModel,
    checks: MemChecks,
    error_returns: bool,
) -> Result<(Program, String), CError> {
    let items = main_args::drop_unused_main_params(items);
    let items = match unreferenced::drop_unreferenced_functions(&items) {
        std::borrow::Cow::Owned(fewer) => std::borrow::Cow::Owned(fewer),
        std::borrow::Cow::Borrowed(_) => items,
    };
    let items = by_reference::inline_atomic_calls(&items);
    let items = param_address::copy_addressed_params(&items);
    let items = &items[..];
    let mut r = Resolver {
        globals: vec![],
        global_init: vec![],
        global_elems: vec![],
        global_defined: vec![],
        const_globals: Default::default(),
        global_names: HashMap::new(),
        externs: HashMap::new(),
        typedefs: threads::builtin_typedefs(),
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
        error_returns,
        heap: Heap::default(),
        ptr_to_int: None,
        enumerators: Default::default(),
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
        ranges: vec![],
        invalid_fn: None,
        points_to: vec![],
        derefs: vec![],
    };
    program.heap.checks = checks;
    let points_to = lower::lower(&mut program, &sites)?;
    small_arrays::scalarise(&mut program);
    lifetimes::add(&mut program)?;
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
}
