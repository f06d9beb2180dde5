//! `int main(int argc, char **argv)` whose body never names its parameters is `int main(void)`:
//! the subset has no object behind `argv` (so pointer parameters of `main` are refused), but a
//! parameter no expression names cannot change an execution. Many SV-COMP tasks declare them
//! and never use them.
//!
//! Must not: drop a parameter whose name the body mentions anywhere (a shadowing declaration
//! counts as a mention too: the check is by name, conservatively), or touch other functions.

use super::unreferenced::Mentions;
use crate::frontend::c::ast::{Item, Suffix};
use std::borrow::Cow;

/// The items, with `main`'s parameters removed when it has a pointer parameter and the body
/// names none of them.
pub(super) fn drop_unused_main_params(items: &[Item]) -> Cow<'_, [Item]> {
    let found = items.iter().position(|it| match it {
        Item::Func(f) => f.decl.name.as_deref() == Some("main"),
        Item::Decl(_) => false,
    });
    let Some(k) = found else {
        return Cow::Borrowed(items);
    };
    let Item::Func(f) = &items[k] else {
        return Cow::Borrowed(items);
    };
    let Some(Suffix::Params(ps, false)) = f.decl.suffixes.first() else {
        return Cow::Borrowed(items);
    };
    if f.decl.suffixes.len() != 1 || !ps.iter().any(|p| p.decl.pointers > 0) {
        return Cow::Borrowed(items);
    }
    let names: Vec<&str> = ps.iter().filter_map(|p| p.decl.name.as_deref()).collect();
    // Conservatively: a declaration of the name, or anything whose names cannot be read,
    // counts as a mention.
    let mut body = Mentions::default();
    body.stmt(&f.body);
    let named = |n: &str| body.incomplete || body.opaque || body.names.contains(n);
    if names.len() != ps.len() || names.iter().any(|n| named(n)) {
        return Cow::Borrowed(items);
    }
    let mut out = items.to_vec();
    if let Item::Func(f) = &mut out[k] {
        f.decl.suffixes[0] = Suffix::Params(vec![], false);
    }
    Cow::Owned(out)
}
