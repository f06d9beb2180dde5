//! Calls of `__VERIFIER_atomic_*` functions that pass a variable by address (`cas(&v, e, u,
//! &ret)`), in a concurrent program, inlined before resolution: `*p` in the body becomes the
//! variable itself, the other arguments are evaluated into fresh locals, and the body runs
//! between `__VERIFIER_atomic_begin()` and `__VERIFIER_atomic_end()`. The variable's address is
//! then no longer taken, so a local stays a local of each thread that runs the caller: made
//! a global (as every address-taken local is, `statics.rs`), it would be one variable shared by
//! all of them, which `threads::analyze` must refuse. Part of [`super`].
//!
//! The copy means what the call means: the arguments are evaluated before the atomic step (as
//! C evaluates them before the call), a parameter `p` used only as `*p` and bound to `&x` is an
//! alias of `x` (two parameters bound to the same variable stay aliases), and every other name
//! of the body denotes what it denoted in the function: the call is left alone when a name the
//! body uses freely is declared in the caller (it would be captured), when the body declares a
//! variable passed by address, or a parameter's name again.
//!
//! Must not: touch a sequential program (the atomic section would make it concurrent), a call
//! whose value is used, a body with `return`, `goto`, labels or atomic sections of its own, or
//! a caller that is itself atomic or opens atomic sections (sections do not nest).

use crate::frontend::c::ast::{
    Declaration, Declarator, Expr, ExprKind, InitDecl, Item, Param, Spec, Stmt, StmtKind, Suffix,
    UnOp,
};
use std::borrow::Cow;
use std::collections::HashSet;

/// The prefix of functions whose calls are one atomic step.
const ATOMIC: &str = "__VERIFIER_atomic_";

/// An atomic function whose calls can be inlined.
struct Inlinable<'a> {
    name: &'a str,
    params: &'a [Param],
    /// Per parameter: whether it is a pointer the body only dereferences (`*p`).
    by_ref: Vec<bool>,
    body: &'a Stmt,
    /// The names the body declares.
    declared: HashSet<String>,
    /// The names the body uses that it does not declare (globals, functions), parameters
    /// excepted.
    free: HashSet<String>,
}

/// The items, with the calls described in the module documentation inlined.
pub(super) fn inline_atomic_calls(items: &[Item]) -> Cow<'_, [Item]> {
    if !items.iter().any(|it| match it {
        Item::Func(f) => f.body.any_expr(&mut |e| is_call_of(e, "pthread_create")),
        Item::Decl(_) => false,
    }) {
        return Cow::Borrowed(items);
    }
    let inlinable: Vec<Inlinable> = items
        .iter()
        .filter_map(|it| match it {
            Item::Func(f) => inlinable(f.decl.name.as_deref()?, &f.specs.words, &f.decl, &f.body),
            Item::Decl(_) => None,
        })
        .collect();
    if inlinable.is_empty() {
        return Cow::Borrowed(items);
    }
    let mut out = items.to_vec();
    let mut fresh = 0usize;
    let mut changed = false;
    for it in &mut out {
        let Item::Func(f) = it else { continue };
        let name = f.decl.name.clone().unwrap_or_default();
        if name.starts_with(ATOMIC)
            || f.body.any_expr(&mut |e| {
                is_call_of(e, "__VERIFIER_atomic_begin") || is_call_of(e, "__VERIFIER_atomic_end")
            })
        {
            continue;
        }
        let mut caller = HashSet::new();
        if let Some(Suffix::Params(ps, _)) = f.decl.suffixes.first() {
            caller.extend(ps.iter().filter_map(|p| p.decl.name.clone()));
        }
        declared_names(&f.body, &mut caller);
        changed |= rewrite(&mut f.body, &inlinable, &caller, &mut fresh);
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(items)
    }
}

/// The function as an [`Inlinable`], if its calls can be inlined.
fn inlinable<'a>(
    name: &'a str,
    specs: &[(Spec, crate::frontend::c::ast::Span)],
    decl: &'a Declarator,
    body: &'a Stmt,
) -> Option<Inlinable<'a>> {
    if !name.starts_with(ATOMIC) || name == "__VERIFIER_atomic_begin" {
        return None;
    }
    if name == "__VERIFIER_atomic_end"
        || decl.pointers != 0
        || !specs.iter().any(|(w, _)| *w == Spec::Void)
    {
        return None;
    }
    let [Suffix::Params(params, false)] = &decl.suffixes[..] else {
        return None;
    };
    let names: Vec<&str> = params
        .iter()
        .map(|p| p.decl.name.as_deref())
        .collect::<Option<_>>()?;
    let mut declared = HashSet::new();
    declared_names(body, &mut declared);
    // A body that opens atomic sections itself would close the inlined one early.
    let sections = body.any_expr(&mut |e| {
        is_call_of(e, "__VERIFIER_atomic_begin") || is_call_of(e, "__VERIFIER_atomic_end")
    });
    if names.iter().any(|n| declared.contains(*n)) || !plain(body) || sections {
        return None;
    }
    let mut uses = vec![];
    body.each_expr(&mut |e| idents(e, false, &mut uses));
    let by_ref: Vec<bool> = params
        .iter()
        .zip(&names)
        .map(|(p, n)| {
            p.decl.pointers == 1
                && p.decl.suffixes.is_empty()
                && uses.iter().any(|(u, _)| u == n)
                && uses.iter().all(|(u, deref)| u != n || *deref)
        })
        .collect();
    if !by_ref.iter().any(|&b| b)
        || params
            .iter()
            .zip(&by_ref)
            .any(|(p, &r)| !r && !p.decl.suffixes.is_empty())
    {
        return None;
    }
    let free = uses
        .into_iter()
        .map(|(u, _)| u)
        .filter(|u| !declared.contains(u) && !names.contains(&u.as_str()))
        .collect();
    Some(Inlinable {
        name,
        params,
        by_ref,
        body,
        declared,
        free,
    })
}

/// Replaces the inlinable call statements in `s`; whether any was.
fn rewrite(s: &mut Stmt, fs: &[Inlinable], caller: &HashSet<String>, fresh: &mut usize) -> bool {
    match &mut s.kind {
        StmtKind::Expr(e) => {
            if let Some(block) = inline_call(e, s.span.start, s.span.end, fs, caller, fresh) {
                *s = block;
                return true;
            }
            false
        }
        StmtKind::Block(b) => b
            .iter_mut()
            .fold(false, |c, s| rewrite(s, fs, caller, fresh) | c),
        StmtKind::If(_, a, b) => {
            let a = rewrite(a, fs, caller, fresh);
            b.as_mut().is_some_and(|b| rewrite(b, fs, caller, fresh)) | a
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Label(_, b)
        | StmtKind::Switch(_, b)
        | StmtKind::For(_, _, _, b) => rewrite(b, fs, caller, fresh),
        _ => false,
    }
}

/// The block that replaces the call statement `e`, if it calls an inlinable function with a
/// variable's address for each parameter passed by reference.
fn inline_call(
    e: &Expr,
    l: usize,
    r: usize,
    fs: &[Inlinable],
    caller: &HashSet<String>,
    fresh: &mut usize,
) -> Option<Stmt> {
    let ExprKind::Call(callee, args) = &e.kind else {
        return None;
    };
    let ExprKind::Ident(name) = &callee.kind else {
        return None;
    };
    let f = fs.iter().find(|f| f.name == name)?;
    if args.len() != f.params.len() || f.free.iter().any(|n| caller.contains(n)) {
        return None;
    }
    let mut aliases: Vec<(String, String)> = vec![];
    let mut copies: Vec<(String, String)> = vec![];
    let mut stmts = vec![];
    for ((p, arg), &by_ref) in f.params.iter().zip(args).zip(&f.by_ref) {
        let pname = p.decl.name.clone()?;
        if by_ref {
            let ExprKind::Unary(UnOp::AddrOf, x) = &arg.kind else {
                return None;
            };
            let ExprKind::Ident(x) = &x.kind else {
                return None;
            };
            if f.declared.contains(x) {
                return None;
            }
            aliases.push((pname, x.clone()));
        } else {
            *fresh += 1;
            let local = format!("__atomic_arg{fresh}_{pname}");
            let mut decl = p.decl.clone();
            decl.name = Some(local.clone());
            decl.span = arg.span;
            stmts.push(Stmt::new(
                StmtKind::Decl(Declaration {
                    specs: p.specs.clone(),
                    items: vec![InitDecl {
                        decl,
                        init: Some(arg.clone()),
                    }],
                    span: arg.span,
                }),
                l,
                r,
            ));
            copies.push((pname, local));
        }
    }
    let call = |n: &str| {
        let f = Expr::new(ExprKind::Ident(n.to_owned()), l, r);
        Stmt::new(
            StmtKind::Expr(Expr::new(ExprKind::Call(Box::new(f), vec![]), l, r)),
            l,
            r,
        )
    };
    let mut body = f.body.clone();
    substitute_stmt(&mut body, &aliases, &copies);
    stmts.push(call("__VERIFIER_atomic_begin"));
    stmts.push(body);
    stmts.push(call("__VERIFIER_atomic_end"));
    Some(Stmt::new(StmtKind::Block(stmts), l, r))
}

/// In `s`: `*p` becomes `x` for each `(p, x)` of `aliases`, `p` becomes `c` for each `(p, c)`
/// of `copies`.
fn substitute_stmt(s: &mut Stmt, aliases: &[(String, String)], copies: &[(String, String)]) {
    let mut sub = |e: &mut Expr| substitute(e, aliases, copies);
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::Case(e) => sub(e),
        StmtKind::Decl(d) => d
            .items
            .iter_mut()
            .filter_map(|i| i.init.as_mut())
            .for_each(sub),
        StmtKind::Block(b) => b
            .iter_mut()
            .for_each(|s| substitute_stmt(s, aliases, copies)),
        StmtKind::If(c, a, b) => {
            sub(c);
            substitute_stmt(a, aliases, copies);
            if let Some(b) = b {
                substitute_stmt(b, aliases, copies);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
            sub(c);
            substitute_stmt(b, aliases, copies);
        }
        StmtKind::For(init, c, step, b) => {
            if let Some(i) = init {
                substitute_stmt(i, aliases, copies);
            }
            c.iter_mut().chain(step.iter_mut()).for_each(&mut sub);
            substitute_stmt(b, aliases, copies);
        }
        StmtKind::Label(_, b) => substitute_stmt(b, aliases, copies),
        _ => {}
    }
}

fn substitute(e: &mut Expr, aliases: &[(String, String)], copies: &[(String, String)]) {
    if let ExprKind::Unary(UnOp::Deref, p) = &e.kind {
        if let ExprKind::Ident(p) = &p.kind {
            if let Some((_, x)) = aliases.iter().find(|(q, _)| q == p) {
                e.kind = ExprKind::Ident(x.clone());
                return;
            }
        }
    }
    if let ExprKind::Ident(p) = &e.kind {
        if let Some((_, c)) = copies.iter().find(|(q, _)| q == p) {
            e.kind = ExprKind::Ident(c.clone());
        }
        return;
    }
    for x in e.operands_mut() {
        substitute(x, aliases, copies);
    }
}

/// Every identifier `e` uses, with whether it is dereferenced right there (`*p`, when
/// `deref`: `e` is the operand of a `*`).
fn idents(e: &Expr, deref: bool, out: &mut Vec<(String, bool)>) {
    if let ExprKind::Ident(n) = &e.kind {
        out.push((n.clone(), deref));
        return;
    }
    let under = matches!(e.kind, ExprKind::Unary(UnOp::Deref, _));
    for x in e.operands() {
        idents(x, under, out);
    }
}

fn is_call_of(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Call(f, _) if matches!(&f.kind, ExprKind::Ident(n) if n == name))
}

/// Adds the names `s` declares (in any nested block) to `out`.
fn declared_names(s: &Stmt, out: &mut HashSet<String>) {
    match &s.kind {
        StmtKind::Decl(d) => out.extend(d.items.iter().filter_map(|i| i.decl.name.clone())),
        StmtKind::Block(b) => b.iter().for_each(|s| declared_names(s, out)),
        StmtKind::If(_, a, b) => {
            declared_names(a, out);
            if let Some(b) = b {
                declared_names(b, out);
            }
        }
        StmtKind::For(init, _, _, b) => {
            if let Some(i) = init {
                declared_names(i, out);
            }
            declared_names(b, out);
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Label(_, b)
        | StmtKind::Switch(_, b) => declared_names(b, out),
        _ => {}
    }
}

/// Whether the body has no `return`, `goto` or label (a copy of it must fall through).
fn plain(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Label(..) | StmtKind::TooDeep => false,
        StmtKind::Block(b) => b.iter().all(plain),
        StmtKind::If(_, a, b) => plain(a) && b.as_deref().is_none_or(plain),
        StmtKind::For(init, _, _, b) => init.as_deref().is_none_or(plain) && plain(b),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch(_, b) => plain(b),
        _ => true,
    }
}
