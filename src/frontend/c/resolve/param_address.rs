//! Parameters whose address the body takes (`&p`), given a local object: the parameter is
//! renamed `__param_p` and the body starts with `T p = __param_p;`, before resolution. C gives
//! every parameter an object of automatic storage initialised with the argument (C11 6.9.1p10),
//! which is what the copy is; every name `p` of the body then denotes the copy, and the
//! address-taken local is lowered as every other one (`statics.rs`: made static, refused in a
//! recursive function or where several threads run it, with its location). Part of
//! [`super`].
//!
//! Only parameters of integer or pointer type are copied (`int p`, `unsigned char p`, `T *p`,
//! `T **p`); a struct passed by value or a typedef name that may stand for one, and an array
//! parameter, stay as they are, and taking their address stays `unsupported`.
//!
//! Must not: touch a function that takes no parameter's address, or change what a name of the
//! body denotes otherwise (a shadowing declaration in an inner block still shadows the copy:
//! the copy holds the parameter's value, so a mention outside it means the same).

use crate::frontend::c::ast::{
    Declaration, Declarator, Expr, ExprKind, InitDecl, Item, Param, Spec, Stmt, StmtKind, Suffix,
    UnOp,
};
use std::borrow::Cow;

/// The prefix of a parameter whose object became a local.
const RENAMED: &str = "__param_";

/// The items, with every function's address-taken parameters copied into locals (see the
/// module documentation).
pub(super) fn copy_addressed_params(items: &[Item]) -> Cow<'_, [Item]> {
    let mut out: Option<Vec<Item>> = None;
    for (k, it) in items.iter().enumerate() {
        let Item::Func(f) = it else { continue };
        let Some(Suffix::Params(ps, variadic)) = f.decl.suffixes.first() else {
            continue;
        };
        let taken: Vec<(usize, String)> = ps
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((i, copyable(p, &f.body)?)))
            .collect();
        if taken.is_empty() {
            continue;
        }
        let mut f = f.clone();
        let mut params = ps.clone();
        let mut copies = vec![];
        for (i, name) in taken {
            let p = &mut params[i];
            let renamed = format!("{RENAMED}{name}");
            p.decl.name = Some(renamed.clone());
            let span = p.decl.span;
            let decl = Declarator {
                name: Some(name),
                ..p.decl.clone()
            };
            let init = Expr::new(ExprKind::Ident(renamed), span.start, span.end);
            copies.push(Stmt::new(
                StmtKind::Decl(Declaration {
                    specs: p.specs.clone(),
                    items: vec![InitDecl {
                        decl,
                        init: Some(init),
                    }],
                    span,
                }),
                span.start,
                span.end,
            ));
        }
        f.decl.suffixes[0] = Suffix::Params(params, *variadic);
        let body = match &f.body.kind {
            StmtKind::Block(stmts) => copies.into_iter().chain(stmts.iter().cloned()).collect(),
            _ => copies.into_iter().chain([f.body.clone()]).collect(),
        };
        f.body = Stmt::new(StmtKind::Block(body), f.body.span.start, f.body.span.end);
        out.get_or_insert_with(|| items.to_vec())[k] = Item::Func(f);
    }
    match out {
        Some(items) => Cow::Owned(items),
        None => Cow::Borrowed(items),
    }
}

/// `p`'s name, if it is of integer or pointer type, not an array, and `body` has `&p`.
fn copyable(p: &Param, body: &Stmt) -> Option<String> {
    let name = p.decl.name.as_deref()?;
    if !p.decl.suffixes.is_empty() {
        return None;
    }
    let scalar = p.decl.pointers > 0
        || p.specs.words.iter().all(|(w, _)| {
            matches!(
                w,
                Spec::Int
                    | Spec::Unsigned
                    | Spec::Signed
                    | Spec::Long
                    | Spec::Short
                    | Spec::Char
                    | Spec::Bool
                    | Spec::Enum(_)
                    | Spec::Const
                    | Spec::Ignored
            )
        });
    let taken = || {
        body.any_expr(&mut |e| match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, x) => matches!(&x.kind, ExprKind::Ident(n) if n == name),
            _ => false,
        })
    };
    (scalar && taken()).then(|| name.to_owned())
}
