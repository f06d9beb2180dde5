//! Translation of Z3 ASTs back to this crate's terms: models' values, projections and
//! eliminated quantifiers, read in the store the query came from (constants `v<id>` are the
//! variables [`ToZ3`](super::translate::ToZ3) named).
//!
//! Must not: invent operators (an AST it cannot read is a [`BackError`]), or let a Z3 AST out
//! of `smt`.

use crate::term::{Op, Sort, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;
use std::ffi::CStr;
use std::str::FromStr;
use z3::ast::{Ast, Dynamic};
use z3::{DeclKind, FuncDecl};

/// Why a Z3 AST could not be turned back into a term.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot translate Z3 term back: {0}")]
pub struct BackError(pub String);

/// The decimal (or `p/q`) text of a Z3 numeral.
fn numeral_string(d: &Dynamic) -> String {
    let ctx = z3::Context::thread_local();
    // SAFETY: `d` is a live numeral AST of the thread-local context; Z3 returns a
    // NUL-terminated string valid until the next call, which we copy at once.
    unsafe {
        let s = z3_sys::Z3_get_numeral_string(ctx.get_z3_context(), d.get_z3_ast());
        CStr::from_ptr(s).to_string_lossy().into_owned()
    }
}

fn parse_rational(s: &str) -> Option<BigRational> {
    if let Some((n, d)) = s.split_once('/') {
        let n = BigInt::from_str(n.trim()).ok()?;
        let d = BigInt::from_str(d.trim()).ok()?;
        if d == BigInt::from(0) {
            return None;
        }
        return Some(BigRational::new(n, d));
    }
    if let Some((i, f)) = s.split_once('.') {
        let digits = format!("{i}{f}");
        let n = BigInt::from_str(&digits).ok()?;
        let d = num_traits::pow(BigInt::from(10), f.len());
        return Some(BigRational::new(n, d));
    }
    BigInt::from_str(s).ok().map(BigRational::from_integer)
}

fn back_sort(store: &TermStore, s: &z3::Sort) -> Result<Sort, BackError> {
    match s.kind() {
        z3::SortKind::Bool => Ok(Sort::Bool),
        z3::SortKind::Int => Ok(Sort::Int),
        z3::SortKind::Real => Ok(Sort::Real),
        z3::SortKind::Array => {
            let d = s
                .array_domain()
                .ok_or_else(|| BackError("array domain".into()))?;
            let r = s
                .array_range()
                .ok_or_else(|| BackError("array range".into()))?;
            Ok(Sort::array(back_sort(store, &d)?, back_sort(store, &r)?))
        }
        z3::SortKind::Datatype => {
            let name = s.to_string();
            let name = name.trim_matches('|');
            store
                .datatype_sort(name)
                .ok_or_else(|| BackError(format!("unknown datatype {name}")))
        }
        k => Err(BackError(format!("unsupported sort {k:?}"))),
    }
}

/// The name of the constructor a Z3 tester application `d` (with declaration `decl`) tests.
fn tester_ctor_name(d: &Dynamic, decl: &FuncDecl) -> Option<String> {
    let name = decl.name();
    if let Some(c) = name.strip_prefix("is-") {
        return Some(c.to_string());
    }
    let ctx = z3::Context::thread_local();
    // SAFETY: `decl` is a live declaration of the thread-local context; its first parameter is
    // the tested constructor's declaration (Z3's `is` recogniser); its name is copied at once.
    unsafe {
        let raw = ctx.get_z3_context();
        let app = z3_sys::Z3_to_app(raw, d.get_z3_ast())?;
        let fd = z3_sys::Z3_get_app_decl(raw, app)?;
        if z3_sys::Z3_get_decl_num_parameters(raw, fd) < 1 {
            return None;
        }
        let c = z3_sys::Z3_get_decl_func_decl_parameter(raw, fd, 0)?;
        let sym = z3_sys::Z3_get_decl_name(raw, c)?;
        let s = z3_sys::Z3_get_symbol_string(raw, sym);
        if s.is_null() {
            return None;
        }
        Some(CStr::from_ptr(s).to_string_lossy().into_owned())
    }
}

/// Translates a quantifier-free Z3 AST back into a term of `store`; constants must be ones
/// this translator created (or listed in `names`).
pub(crate) fn from_z3(
    store: &TermStore,
    names: &HashMap<String, VarId>,
    d: &Dynamic,
    memo: &mut HashMap<Dynamic, TermId>,
) -> Result<TermId, BackError> {
    if let Some(&t) = memo.get(d) {
        return Ok(t);
    }
    let t = match d.kind() {
        z3::AstKind::Numeral => {
            let r = parse_rational(&numeral_string(d))
                .ok_or_else(|| BackError(format!("numeral {d}")))?;
            match d.sort_kind() {
                z3::SortKind::Int => store.int(r.to_integer()),
                _ => store.real(r),
            }
        }
        z3::AstKind::App => {
            let decl: FuncDecl = d.decl();
            let kids = d
                .children()
                .iter()
                .map(|c| from_z3(store, names, c, memo))
                .collect::<Result<Vec<_>, _>>()?;
            let op = match decl.kind() {
                DeclKind::True => return Ok(store.tt()),
                DeclKind::False => return Ok(store.ff()),
                DeclKind::Uninterpreted if kids.is_empty() => {
                    let name = decl.name();
                    let v = names
                        .get(&name)
                        .ok_or_else(|| BackError(format!("unknown constant {name}")))?;
                    let t = store.var(*v);
                    memo.insert(d.clone(), t);
                    return Ok(t);
                }
                DeclKind::Eq | DeclKind::Iff | DeclKind::Oeq => Op::Eq,
                DeclKind::Distinct => Op::Distinct,
                DeclKind::Ite => Op::Ite,
                DeclKind::And => Op::And,
                DeclKind::Or => Op::Or,
                DeclKind::Xor => Op::Xor,
                DeclKind::Not => Op::Not,
                DeclKind::Implies => Op::Implies,
                DeclKind::Le => Op::Le,
                DeclKind::Ge => Op::Ge,
                DeclKind::Lt => Op::Lt,
                DeclKind::Gt => Op::Gt,
                DeclKind::Add => Op::Add,
                DeclKind::Sub => Op::Sub,
                DeclKind::Uminus => Op::Neg,
                DeclKind::Mul => Op::Mul,
                DeclKind::Div => Op::RealDiv,
                DeclKind::Idiv => Op::IntDiv,
                DeclKind::Mod => Op::Mod,
                DeclKind::ToReal => Op::ToReal,
                DeclKind::ToInt => Op::ToInt,
                DeclKind::IsInt => Op::IsInt,
                DeclKind::Abs => Op::Abs,
                DeclKind::Store => Op::Store,
                DeclKind::Select => Op::Select,
                DeclKind::ConstArray => Op::ConstArray(back_sort(store, &d.get_sort())?),
                DeclKind::DtConstructor => {
                    let name = decl.name();
                    let name = name.trim_matches('|');
                    let c = store
                        .ctor_by_name(name)
                        .ok_or_else(|| BackError(format!("unknown constructor {name}")))?;
                    Op::Ctor(c)
                }
                DeclKind::DtAccessor => {
                    let name = decl.name();
                    let name = name.trim_matches('|');
                    let (c, i) = store
                        .selector_by_name(name)
                        .ok_or_else(|| BackError(format!("unknown selector {name}")))?;
                    Op::Selector(c, i as u32)
                }
                DeclKind::DtRecogniser | DeclKind::DtIs => {
                    let c = tester_ctor_name(d, &decl)
                        .and_then(|n| store.ctor_by_name(n.trim_matches('|')))
                        .ok_or_else(|| BackError(format!("unknown tester {d}")))?;
                    Op::Tester(c)
                }
                k => return Err(BackError(format!("unsupported operator {k:?} in {d}"))),
            };
            store.app(op, kids)
        }
        k => return Err(BackError(format!("unsupported AST kind {k:?}"))),
    };
    memo.insert(d.clone(), t);
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rationals_parse() {
        assert_eq!(
            parse_rational("-5"),
            Some(BigRational::from_integer((-5).into()))
        );
        assert_eq!(
            parse_rational("1/3"),
            Some(BigRational::new(1.into(), 3.into()))
        );
        assert_eq!(
            parse_rational("2.50"),
            Some(BigRational::new(5.into(), 2.into()))
        );
        assert_eq!(parse_rational("1/0"), None);
    }
}
