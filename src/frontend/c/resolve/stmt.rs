//! Statements in the resolver: blocks and their scopes, `if`, loops, `switch`, `goto`,
//! `return`, declarations among statements, and the SV-COMP built-in calls that stand as
//! statements (`reach_error`, `__VERIFIER_assume`, `abort`, ...). Part of [`super`].
//!
//! Must not: resolve expressions (that is `expr.rs` and the pointer and array modules).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::{convert, is_array, unsupported, Resolver};
use std::collections::HashMap;

impl Resolver {
    /// A block: its items in a scope of their own.
    pub(super) fn block(&mut self, items: &[Stmt]) -> Result<Vec<IStmt>, CError> {
        self.scopes.push(HashMap::new());
        let out = self.items(items);
        self.scopes.pop();
        out
    }

    /// The items of a block, in the innermost scope.
    pub(super) fn items(&mut self, items: &[Stmt]) -> Result<Vec<IStmt>, CError> {
        items.iter().map(|s| self.stmt(s)).collect()
    }

    /// The body of a loop (`true`) or switch (`false`): what `break` and `continue` leave.
    pub(super) fn body(&mut self, s: &Stmt, is_loop: bool) -> Result<Vec<IStmt>, CError> {
        self.jumps.push(is_loop);
        let body = self.sub(s);
        self.jumps.pop();
        body
    }

    pub(super) fn sub(&mut self, s: &Stmt) -> Result<Vec<IStmt>, CError> {
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

    pub(super) fn stmt(&mut self, s: &Stmt) -> Result<IStmt, CError> {
        let kind = match &s.kind {
            StmtKind::Empty => IStmtKind::Block(vec![]),
            StmtKind::Expr(e) => self.expr_stmt(e)?,
            StmtKind::Decl(d) => {
                self.enumerators_of(&d.specs)?;
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
    pub(super) fn expr_stmt(&mut self, e: &Expr) -> Result<IStmtKind, CError> {
        if let ExprKind::Call(f, args) = &e.kind {
            if let ExprKind::Ident(name) = &f.kind {
                if self.lookup(name).is_none() {
                    match name.as_str() {
                        "reach_error" if self.error_returns => return Ok(IStmtKind::Block(vec![])),
                        "reach_error" | "__VERIFIER_error" | "__assert_fail" => {
                            return Ok(IStmtKind::Error)
                        }
                        "abort" | "exit" => return Ok(IStmtKind::Abort),
                        // TriCera's `assume(c)`, unless the program defines its own.
                        "assume" if self.sigs.get(name).is_some_and(|s| s.index.is_some()) => {}
                        "__VERIFIER_assert"
                        | "assert"
                        | "__VERIFIER_assume"
                        | "assume_abort_if_not"
                        | "assume" => {
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
                        _ => {
                            if let Some(k) = self.thread_stmt(name, args, e.span)? {
                                return Ok(k);
                            }
                        }
                    }
                }
            }
        }
        Ok(IStmtKind::Expr(self.expr(e)?))
    }
}
