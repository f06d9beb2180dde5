//! From the parsed AST to the resolved program of `ir.rs`: binds names (block scopes, globals,
//! functions), computes types with C's conversions, recognises the SV-COMP built-ins, and
//! rejects everything outside the subset with an `unsupported:` error at its place.
//!
//! Must not: translate to clauses or execute anything.

use super::ast::*;
use super::error::{CError, CErrorKind};
use super::ir::*;
use super::types::CType;
use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::HashMap;

mod expr;

pub use expr::{const_value, convert};

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

struct Sig {
    ret: Option<CType>,
    params: Vec<CType>,
    index: Option<usize>,
    span: Span,
}

struct Resolver {
    globals: Vec<VarInfo>,
    global_init: Vec<BigInt>,
    global_names: HashMap<String, usize>,
    typedefs: HashMap<String, CType>,
    sigs: HashMap<String, Sig>,
    sites: Vec<NondetSite>,
    // Per function:
    locals: Vec<VarInfo>,
    scopes: Vec<HashMap<String, usize>>,
    ret: Option<CType>,
}

fn unsupported(span: Span, what: &str) -> CError {
    CError::unsupported(span, what.to_owned())
}

/// Resolves a parsed translation unit.
pub fn resolve(items: &[Item], src_len: usize) -> Result<Program, CError> {
    let mut r = Resolver {
        globals: vec![],
        global_init: vec![],
        global_names: HashMap::new(),
        typedefs: HashMap::new(),
        sigs: HashMap::new(),
        sites: vec![],
        locals: vec![],
        scopes: vec![],
        ret: None,
    };
    // Pass 1: signatures, globals, typedefs (in order).
    let mut defs = vec![];
    for item in items {
        match item {
            Item::Decl(d) => r.top_decl(d)?,
            Item::Func(f) => {
                let name = f.decl.name.clone().unwrap_or_default();
                if BUILTINS.contains(&name.as_str()) || name.starts_with("__VERIFIER_nondet_") {
                    continue;
                }
                let (ret, params) = r.signature(&f.specs, &f.decl)?;
                if let Some(old) = r.sigs.get(&name) {
                    if old.index.is_some() {
                        return Err(CError::new(
                            CErrorKind::Name,
                            f.decl.span,
                            format!("function `{name}` is defined twice"),
                        ));
                    }
                }
                r.sigs.insert(
                    name.clone(),
                    Sig {
                        ret,
                        params: params.iter().map(|p| p.1).collect(),
                        index: Some(defs.len()),
                        span: f.decl.span,
                    },
                );
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
    Ok(Program {
        globals: r.globals,
        global_init: r.global_init,
        functions,
        main,
        nondet_sites: r.sites,
    })
}

impl Resolver {
    fn base_type(&self, specs: &Specs) -> Result<Option<CType>, CError> {
        let (mut uns, mut longs, mut short, mut ch, mut bool_, mut int, mut void) =
            (false, 0, false, false, false, false, false);
        let mut named = None;
        for (w, span) in &specs.words {
            match w {
                Spec::Int => int = true,
                Spec::Unsigned => uns = true,
                Spec::Signed => {}
                Spec::Long => longs += 1,
                Spec::Short => short = true,
                Spec::Char => ch = true,
                Spec::Bool => bool_ = true,
                Spec::Void => void = true,
                Spec::Floating => return Err(unsupported(*span, "floating-point types")),
                Spec::Aggregate(k) => return Err(unsupported(*span, &format!("{k} types"))),
                Spec::Named(n) => named = Some((n.clone(), *span)),
                Spec::Typedef | Spec::Extern | Spec::Ignored => {}
            }
        }
        let _ = int;
        if let Some((n, span)) = named {
            return match self.typedefs.get(&n) {
                Some(t) => Ok(Some(*t)),
                None => Err(unsupported(span, &format!("type `{n}`"))),
            };
        }
        if void {
            return Ok(None);
        }
        if bool_ {
            return Ok(Some(CType::BOOL));
        }
        let rank = if ch {
            1
        } else if short {
            2
        } else if longs >= 2 {
            5
        } else if longs == 1 {
            4
        } else {
            3
        };
        let signed = !uns; // plain and `signed` types are signed (char too, on x86)
        Ok(Some(CType::of_rank(rank, signed)))
    }

    fn check_scalar(&self, d: &Declarator) -> Result<(), CError> {
        if d.pointers > 0 {
            return Err(unsupported(d.span, "pointers"));
        }
        for s in &d.suffixes {
            if let Suffix::Array(span) = s {
                return Err(unsupported(*span, "arrays"));
            }
        }
        Ok(())
    }

    #[allow(clippy::type_complexity)]
    fn signature(
        &self,
        specs: &Specs,
        d: &Declarator,
    ) -> Result<(Option<CType>, Vec<(Option<String>, CType, Span)>), CError> {
        if d.pointers > 0 {
            return Err(unsupported(d.span, "pointers"));
        }
        let ret = self.base_type(specs)?;
        let Some(Suffix::Params(ps, variadic)) = d.suffixes.first() else {
            return Err(CError::new(
                CErrorKind::Syntax,
                d.span,
                "expected a function",
            ));
        };
        if *variadic || d.suffixes.len() > 1 {
            return Err(unsupported(d.span, "variadic or higher-order functions"));
        }
        let mut out = vec![];
        for p in ps {
            let t = self.base_type(&p.specs)?;
            self.check_scalar(&p.decl)?;
            match t {
                None if ps.len() == 1 && p.decl.name.is_none() => {}
                None => return Err(unsupported(p.decl.span, "void parameters")),
                Some(t) => out.push((p.decl.name.clone(), t, p.decl.span)),
            }
        }
        Ok((ret, out))
    }

    fn top_decl(&mut self, d: &Declaration) -> Result<(), CError> {
        let is_typedef = d.specs.words.iter().any(|w| w.0 == Spec::Typedef);
        let is_extern = d.specs.words.iter().any(|w| w.0 == Spec::Extern);
        if is_typedef {
            // `typedef T name;`: the name arrives as the last (type-name) specifier.
            let mut words = d.specs.words.clone();
            if let Some((Spec::Named(n), _)) = words.last().cloned() {
                words.pop();
                let specs = Specs {
                    words,
                    span: d.specs.span,
                };
                // Typedefs of unsupported types are only an error when used.
                if let Ok(Some(t)) = self.base_type(&specs) {
                    self.typedefs.insert(n, t);
                }
            }
            return Ok(());
        }
        for item in &d.items {
            let name = item.decl.name.clone().unwrap_or_default();
            let is_fn = matches!(item.decl.suffixes.first(), Some(Suffix::Params(..)));
            if is_fn {
                if BUILTINS.contains(&name.as_str()) || name.starts_with("__VERIFIER_nondet_") {
                    continue;
                }
                // A prototype; pointer-typed prototypes of unused externs are harmless.
                if let Ok((ret, params)) = self.signature(&d.specs, &item.decl) {
                    self.sigs.entry(name).or_insert(Sig {
                        ret,
                        params: params.iter().map(|p| p.1).collect(),
                        index: None,
                        span: item.decl.span,
                    });
                }
                continue;
            }
            if is_extern {
                continue;
            }
            self.check_scalar(&item.decl)?;
            let Some(ty) = self.base_type(&d.specs)? else {
                return Err(unsupported(item.decl.span, "void variables"));
            };
            let init = match &item.init {
                None => BigInt::zero(),
                Some(e) => {
                    self.scopes.clear();
                    let ie = self.expr(e)?;
                    match const_value(&ie) {
                        Some(v) => ty.convert(&v),
                        None => {
                            return Err(unsupported(e.span, "non-constant global initialisers"))
                        }
                    }
                }
            };
            if self.global_names.contains_key(&name) {
                continue; // a tentative definition repeated
            }
            self.global_names.insert(name.clone(), self.globals.len());
            self.globals.push(VarInfo {
                name,
                ty,
                span: item.decl.span,
            });
            self.global_init.push(init);
        }
        Ok(())
    }

    fn function(
        &mut self,
        f: &FuncDef,
        params: Vec<(Option<String>, CType, Span)>,
    ) -> Result<Function, CError> {
        self.locals.clear();
        self.scopes = vec![HashMap::new()];
        let name = f.decl.name.clone().unwrap_or_default();
        self.ret = self.sigs[&name].ret;
        let n = params.len();
        for (pname, ty, span) in params {
            let pname = pname.unwrap_or_else(|| format!("_arg{}", self.locals.len()));
            self.declare(&pname, ty, span);
        }
        let body = match &f.body.kind {
            StmtKind::Block(items) => self.block(items)?,
            _ => vec![self.stmt(&f.body)?],
        };
        Ok(Function {
            name,
            ret: self.ret,
            params: n,
            locals: std::mem::take(&mut self.locals),
            body,
            span: f.span,
        })
    }

    fn declare(&mut self, name: &str, ty: CType, span: Span) -> usize {
        let id = self.locals.len();
        self.locals.push(VarInfo {
            name: name.to_owned(),
            ty,
            span,
        });
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_owned(), id);
        }
        id
    }

    fn lookup(&self, name: &str) -> Option<(VarRef, CType)> {
        for s in self.scopes.iter().rev() {
            if let Some(&i) = s.get(name) {
                return Some((VarRef::Local(i), self.locals[i].ty));
            }
        }
        self.global_names
            .get(name)
            .map(|&i| (VarRef::Global(i), self.globals[i].ty))
    }

    fn block(&mut self, items: &[Stmt]) -> Result<Vec<IStmt>, CError> {
        self.scopes.push(HashMap::new());
        let mut out = vec![];
        for s in items {
            match self.stmt(s) {
                Ok(st) => out.push(st),
                Err(e) => {
                    self.scopes.pop();
                    return Err(e);
                }
            }
        }
        self.scopes.pop();
        Ok(out)
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
                let mut out = vec![];
                for item in &d.items {
                    if matches!(item.decl.suffixes.first(), Some(Suffix::Params(..))) {
                        continue; // a local prototype
                    }
                    self.check_scalar(&item.decl)?;
                    let Some(ty) = self.base_type(&d.specs)? else {
                        return Err(unsupported(item.decl.span, "void variables"));
                    };
                    // An uninitialised local holds any value of its type: a nondet site of
                    // its own, so that the interpreter can replay it.
                    let init = match &item.init {
                        Some(e) => convert(self.expr(e)?, ty),
                        None => {
                            self.sites.push(NondetSite {
                                ty,
                                span: item.decl.span,
                            });
                            IExpr {
                                kind: IExprKind::Nondet(self.sites.len() - 1),
                                ty,
                                span: item.decl.span,
                            }
                        }
                    };
                    let init = Some(init);
                    let name = item.decl.name.clone().unwrap_or_default();
                    let id = self.declare(&name, ty, item.decl.span);
                    out.push(IStmt {
                        kind: IStmtKind::Init(VarRef::Local(id), init),
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
                cond: Some(self.expr(c)?),
                body: self.sub(b)?,
                step: None,
                do_while: false,
            },
            StmtKind::DoWhile(b, c) => {
                let body = self.sub(b)?;
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
                    let cond = match c {
                        Some(c) => Some(self.expr(c)?),
                        None => None,
                    };
                    let step = match step {
                        Some(s) => Some(self.expr(s)?),
                        None => None,
                    };
                    let body = self.sub(b)?;
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
            StmtKind::Break => IStmtKind::Break,
            StmtKind::Continue => IStmtKind::Continue,
            StmtKind::Return(e) => {
                let v = match (e, self.ret) {
                    (Some(e), Some(t)) => Some(convert(self.expr(e)?, t)),
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
            StmtKind::Goto(_) => return Err(unsupported(s.span, "goto")),
            StmtKind::Switch => return Err(unsupported(s.span, "switch statements")),
            StmtKind::Label(_, inner) => return self.stmt(inner),
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
