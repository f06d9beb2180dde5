//! Calls of the program's own functions, inlined into the pointer program (part of
//! `lower.rs`): the arguments are evaluated in the caller, each pointer parameter becomes a
//! fresh variable holding its argument, the body is read in a scope that sees only the globals
//! and the parameters, and each `return` stores its value in the call's result variable, kills
//! the callee's variables (their blocks may be leaked) and jumps to the call's end. A callee's
//! loops are loops of the pointer program like `main`'s.
//!
//! Inlining is exact for non-recursive calls, so the engine gives up on recursion (a function
//! already being inlined), on deep or large inlining, on `goto` and labels inside a callee,
//! on struct parameters or results passed by value, and on parameters or results that point
//! to something other than a struct.
//!
//! Must not: track a callee's integer locals (they are abstracted away), or read a callee
//! whose effect on the heap it does not model (when unsure, give up).

use super::super::ast::{Expr, ExprKind, FuncDef, Span, Spec, Suffix, UnOp};
use super::lower::{Lower, Name};
use super::pir::{Loc, Op, Var};
use std::collections::HashMap;

/// How many calls may be inlined inside one another.
const DEPTH: usize = 8;

/// How many edges the pointer program may have before inlining gives up (a program whose
/// calls inline into something this large is better left to the clause engines).
const EDGES: usize = 50_000;

/// A call being inlined: where its `return`s go.
pub(super) struct Inlined {
    /// The function's name.
    name: String,
    /// The location after the call.
    exit: Loc,
    /// The variable receiving the returned pointer, with its struct type.
    result: Option<(Var, usize)>,
    /// The number of variable scopes of the caller (a `return` kills the ones above).
    depth: usize,
}

impl Lower {
    /// Whether `name` is a function of the program that calls inline.
    pub(super) fn inlinable(&self, name: &str) -> bool {
        self.defs.contains_key(name)
    }

    /// Inlines the call `name(args)` at the current location; returns the variable holding
    /// its result when it returns a struct pointer (a temporary of the current statement).
    pub(super) fn inline(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Result<Option<(Var, usize)>, String> {
        if self.inlined.iter().any(|c| c.name == name) {
            return Err(format!("a recursive call of `{name}`"));
        }
        if self.inlined.len() >= DEPTH || self.edges.len() > EDGES {
            return Err(format!(
                "a call of `{name}` too deep or too large to inline"
            ));
        }
        let def: FuncDef = self.defs[name].clone();
        let params = match def.decl.suffixes.first() {
            Some(Suffix::Params(ps, false)) => ps.clone(),
            _ => return Err(format!("the parameters of `{name}`")),
        };
        let params: Vec<_> = params
            .into_iter()
            .filter(|p| {
                // `f(void)`
                !(p.decl.name.is_none()
                    && p.decl.pointers == 0
                    && p.specs.words.iter().any(|(w, _)| *w == Spec::Void))
            })
            .collect();
        if params.len() != args.len() {
            return Err(format!(
                "a call of `{name}` with another number of arguments"
            ));
        }
        // The arguments, in the caller's scope.
        let mut scope = HashMap::new();
        let mut vars = vec![];
        for (p, a) in params.iter().zip(args) {
            let Some(pname) = &p.decl.name else {
                return Err(format!("an unnamed parameter of `{name}`"));
            };
            if !p.decl.suffixes.is_empty() {
                return Err(format!("the parameter `{pname}` of `{name}`"));
            }
            let base = self.base_type(&p.specs)?;
            if let (Some(t), 2) = (base.0, base.1 + p.decl.pointers) {
                let (v, at) = self
                    .address_of(a)
                    .ok_or_else(|| format!("the argument of `{name}`'s parameter `{pname}`"))?;
                if at != t {
                    return Err(format!("a pointer of another struct type for `{pname}`"));
                }
                scope.insert(pname.clone(), Name::Alias(v, t));
                continue;
            }
            match self.ptr_type(base, p.decl.pointers)? {
                Some(t) => {
                    let v = self.new_var(format!("{name}::{pname}"));
                    self.assign_var(v, t, a, a.span)?;
                    scope.insert(pname.clone(), Name::Ptr(v, t));
                    vars.push(v);
                }
                None if base.0.is_some() && base.1 + p.decl.pointers == 0 => {
                    return Err(format!("the struct parameter `{pname}` of `{name}`"));
                }
                None => {
                    self.data(a)?;
                    scope.insert(pname.clone(), Name::Data);
                }
            }
        }
        let base = self.base_type(&def.specs)?;
        let result = match self.ptr_type(base, def.decl.pointers)? {
            Some(t) => Some((self.temp(), t)),
            None if base.0.is_some() && base.1 + def.decl.pointers == 0 => {
                return Err(format!("the struct result of `{name}`"));
            }
            None => None,
        };
        // The body, seeing the globals and the parameters only.
        let globals = self.scopes[0].clone();
        let caller = std::mem::replace(&mut self.scopes, vec![globals, scope]);
        let loops = std::mem::take(&mut self.loops);
        let depth = self.scope_vars.len();
        self.scope_vars.push(vars);
        let exit = self.loc();
        self.inlined.push(Inlined {
            name: name.to_owned(),
            exit,
            result,
            depth,
        });
        let body = self.stmt(&def.body);
        self.inlined.pop();
        self.scopes = caller;
        self.loops = loops;
        body?;
        // Falling off the end: the parameters die (the body's block killed its locals).
        self.leave_scopes(depth, span);
        self.scope_vars.truncate(depth);
        self.edge_to(Op::Skip, span, exit);
        self.cur = exit;
        Ok(result)
    }

    /// The pointer variable whose address `e` is (`&v`, or a parameter that aliases one),
    /// with its struct type.
    fn address_of(&self, e: &Expr) -> Option<(Var, usize)> {
        match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, x) => match self.name_of(x)? {
                Name::Ptr(v, t) => Some((v, t)),
                _ => None,
            },
            _ => self.alias(e),
        }
    }

    /// `*p` for a parameter `p` that aliases a caller's pointer variable: that variable.
    pub(super) fn alias_target(&self, e: &Expr) -> Option<(Var, usize)> {
        match &e.kind {
            ExprKind::Unary(UnOp::Deref, p) => self.alias(p),
            _ => None,
        }
    }

    /// The caller's variable a parameter `e` aliases.
    fn alias(&self, e: &Expr) -> Option<(Var, usize)> {
        match self.name_of(e)? {
            Name::Alias(v, t) => Some((v, t)),
            _ => None,
        }
    }

    /// What `e` denotes when it is a name.
    fn name_of(&self, e: &Expr) -> Option<Name> {
        match &e.kind {
            ExprKind::Ident(n) => self.lookup(n),
            _ => None,
        }
    }

    /// `return e;` inside an inlined call: the result, then the jump to the call's end.
    pub(super) fn inline_return(&mut self, e: Option<&Expr>, span: Span) -> Result<(), String> {
        let ctx = self.inlined.last().expect("inside an inlined call");
        let (exit, result, depth) = (ctx.exit, ctx.result, ctx.depth);
        match (e, result) {
            (Some(e), Some((r, t))) => self.assign_var(r, t, e, span)?,
            (Some(e), None) => {
                let mark = self.temps.len();
                self.data(e)?;
                self.release(mark, span);
            }
            // A pointer function that ends without a value: the result is undefined.
            (None, Some((r, _))) => self.edge(Op::Kill(vec![r]), span),
            (None, None) => {}
        }
        self.leave_scopes(depth, span);
        self.edge_to(Op::Skip, span, exit);
        self.cur = self.loc(); // unreachable
        Ok(())
    }
}
