//! Translation between this crate's terms and Z3 ASTs, both ways.
//!
//! Variables become Z3 constants named `v<id>`; translation back maps those names to the same
//! [`VarId`]s. Z3 ASTs never leave this module's parent (`smt`), and they never cross threads.

use crate::term::{DatatypeId, Op, Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;
use std::ffi::CStr;
use std::str::FromStr;
use z3::ast::{Array, Ast, Bool, Dynamic, Int, Real};
use z3::{DatatypeAccessor, DatatypeBuilder, DeclKind, FuncDecl};

/// Why a Z3 AST could not be turned back into a term.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot translate Z3 term back: {0}")]
pub struct BackError(pub String);

thread_local! {
    /// How many size functions this thread's Z3 context has defined (their names' suffixes).
    static SIZE_FUNCTIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A memoising term-to-Z3 translator for one store.
pub(crate) struct ToZ3<'s> {
    pub(crate) store: &'s TermStore,
    cache: HashMap<TermId, Dynamic>,
    /// Z3 constant name to variable, for translating back.
    pub(crate) names: HashMap<String, VarId>,
    /// The Z3 datatype sorts declared so far for the store's datatypes.
    datatypes: HashMap<DatatypeId, z3::DatatypeSort>,
    /// The size functions ([`Op::Size`]) defined so far, by datatype.
    sizes: HashMap<DatatypeId, z3::RecFuncDecl>,
}

fn big_int(i: &BigInt) -> Int {
    Int::from_str(&i.to_string()).expect("decimal integer literal")
}

fn big_real(r: &BigRational) -> Real {
    Real::from_rational_str(&r.numer().to_string(), &r.denom().to_string())
        .expect("rational literal")
}

impl<'s> ToZ3<'s> {
    pub(crate) fn new(store: &'s TermStore) -> Self {
        ToZ3 {
            store,
            cache: HashMap::new(),
            names: HashMap::new(),
            datatypes: HashMap::new(),
            sizes: HashMap::new(),
        }
    }

    /// The Z3 sort of a sort; datatypes are declared to Z3 on first use, a whole declaration
    /// group at a time.
    pub(crate) fn z3_sort(&mut self, s: &Sort) -> z3::Sort {
        match s {
            Sort::Bool => z3::Sort::bool(),
            Sort::Int => z3::Sort::int(),
            Sort::Real => z3::Sort::real(),
            Sort::Array(i, e) => z3::Sort::array(&self.z3_sort(i), &self.z3_sort(e)),
            Sort::Datatype(d) => {
                if !self.datatypes.contains_key(&d.id) {
                    self.declare_group(self.store.datatype(d.id).group);
                }
                self.datatypes[&d.id].sort.clone()
            }
        }
    }

    /// Declares one datatype group to Z3 (after the groups it refers to).
    fn declare_group(&mut self, group: usize) {
        let ids = self.store.datatype_groups()[group].clone();
        let mut builders = Vec::new();
        for &id in &ids {
            let d = self.store.datatype(id);
            let mut b = DatatypeBuilder::new(&*d.name);
            for &c in &d.ctors {
                let c = self.store.ctor(c);
                let mut fields = Vec::new();
                for (f, fs) in &c.fields {
                    let acc = match fs {
                        Sort::Datatype(x) if ids.contains(&x.id) => {
                            DatatypeAccessor::Datatype((*x.name).into())
                        }
                        other => DatatypeAccessor::Sort(self.z3_sort(other)),
                    };
                    fields.push((&**f, acc));
                }
                b = b.variant(&c.name, fields);
            }
            builders.push(b);
        }
        let sorts = z3::datatype_builder::create_datatypes(builders);
        for (id, s) in ids.into_iter().zip(sorts) {
            self.datatypes.insert(id, s);
        }
    }

    /// Applies a constructor (`field` `Some(i)`: its i-th selector; `tester`: its tester).
    fn ctor_app(
        &mut self,
        c: crate::term::CtorId,
        field: Option<u32>,
        tester: bool,
        a: &[Dynamic],
    ) -> Dynamic {
        let sort = self.store.ctor_sort(c);
        self.z3_sort(&sort);
        let Sort::Datatype(ds) = sort else {
            unreachable!("constructor of a non-datatype sort")
        };
        let dt = self.store.datatype(ds.id);
        let k = dt.ctors.iter().position(|&x| x == c).unwrap_or(0);
        let v = &self.datatypes[&ds.id].variants[k];
        let args = refs(a);
        match (field, tester) {
            (Some(i), _) => v.accessors[i as usize].apply(&args),
            (None, true) => v.tester.apply(&args),
            (None, false) => v.constructor.apply(&args),
        }
    }

    /// The size function of datatype `d` ([`Op::Size`]) applied to `arg`; the function is defined to Z3 on first use as a
    /// recursive function: by cases on the constructors, 0 or 1 plus the sizes of the fields of
    /// the same datatype.
    fn size_app(&mut self, d: DatatypeId, arg: &Dynamic) -> Dynamic {
        if !self.sizes.contains_key(&d) {
            self.define_size(d);
        }
        self.sizes[&d].apply(&[arg])
    }

    fn define_size(&mut self, d: DatatypeId) {
        let decl = self.store.datatype(d);
        let sort = self.z3_sort(&Sort::Datatype(crate::term::DatatypeSort {
            id: d,
            name: decl.name.clone(),
        }));
        // Z3 refuses a second definition of a name in one context (the z3 crate then panics),
        // and every solver of a thread shares the thread's context: a name of its own each.
        let n = SIZE_FUNCTIONS.with(|c| c.replace(c.get() + 1));
        let name = format!("{}!{n}", self.store.size_name(d));
        let f = z3::RecFuncDecl::new(name, &[&sort], &z3::Sort::int());
        let x = Dynamic::new_const("x", &sort);
        let variants = &self.datatypes[&d].variants;
        let case = |k: usize| {
            let fields = self.store.size_fields(decl.ctors[k]);
            if fields.is_empty() {
                return Int::from_i64(0);
            }
            let mut parts = vec![Int::from_i64(1)];
            for i in fields {
                let field = variants[k].accessors[i as usize].apply(&[&x]);
                parts.push(f.apply(&[&field]).as_int().expect("an Int size"));
            }
            Int::add(&parts)
        };
        let last = decl.ctors.len() - 1;
        let mut body = case(last);
        for k in (0..last).rev() {
            let is_k = variants[k].tester.apply(&[&x]).as_bool().expect("a tester");
            body = is_k.ite(&case(k), &body);
        }
        f.add_def(&[&x], &body);
        self.sizes.insert(d, f);
    }

    /// The Z3 constant of a variable.
    pub(crate) fn var(&mut self, v: VarId) -> Dynamic {
        let t = self.store.var(v);
        self.term(t)
    }

    /// A Boolean term as a Z3 Bool.
    pub(crate) fn bool(&mut self, t: TermId) -> Bool {
        self.term(t).as_bool().expect("Boolean term")
    }

    /// Any term.
    pub(crate) fn term(&mut self, t: TermId) -> Dynamic {
        if let Some(d) = self.cache.get(&t) {
            return d.clone();
        }
        let node = self.store.get(t);
        let d = match &node.term {
            Term::Var(v) => {
                let name = format!("v{}", v.0);
                self.names.insert(name.clone(), *v);
                Dynamic::new_const(name, &self.z3_sort(&node.sort))
            }
            Term::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
            Term::Int(i) => Dynamic::from_ast(&big_int(i)),
            Term::Real(r) => Dynamic::from_ast(&big_real(r)),
            Term::Quant(q, vars, body) => {
                let bound: Vec<Dynamic> = vars.iter().map(|v| self.var(*v)).collect();
                let refs: Vec<&dyn Ast> = bound.iter().map(|d| d as &dyn Ast).collect();
                let b = self.bool(*body);
                let f = match q {
                    crate::term::Quantifier::Forall => z3::ast::forall_const(&refs, &[], &b),
                    crate::term::Quantifier::Exists => z3::ast::exists_const(&refs, &[], &b),
                };
                Dynamic::from_ast(&f)
            }
            Term::App(op, args) => {
                let a: Vec<Dynamic> = args.iter().map(|&x| self.term(x)).collect();
                self.app(op, &a, &node.sort)
            }
        };
        self.cache.insert(t, d.clone());
        d
    }

    fn app(&mut self, op: &Op, a: &[Dynamic], sort: &Sort) -> Dynamic {
        let bools = || {
            a.iter()
                .map(|x| x.as_bool().expect("Bool"))
                .collect::<Vec<_>>()
        };
        let reals = || a.iter().map(as_real).collect::<Vec<_>>();
        let ints = || {
            a.iter()
                .map(|x| x.as_int().expect("Int"))
                .collect::<Vec<_>>()
        };
        let arith = |f: &dyn Fn(&[Dynamic]) -> Dynamic| -> Dynamic {
            if *sort == Sort::Real {
                let r: Vec<Dynamic> = reals().iter().map(|x| Dynamic::from_ast(x)).collect();
                f(&r)
            } else {
                f(a)
            }
        };
        let d = |b: Bool| Dynamic::from_ast(&b);
        match op {
            Op::Not => d(bools()[0].not()),
            Op::And => d(Bool::and(&bools())),
            Op::Or => d(Bool::or(&bools())),
            Op::Implies => {
                let b = bools();
                d(b[0].implies(&b[1]))
            }
            Op::Xor => {
                let b = bools();
                d(b[0].xor(&b[1]))
            }
            Op::Ite => {
                let c = a[0].as_bool().expect("Bool");
                c.ite(&a[1], &a[2])
            }
            Op::Eq | Op::Distinct => {
                let (x, y) = coerce_pair(&a[0], &a[1]);
                if *op == Op::Eq && a.len() == 2 {
                    d(x.eq(&y))
                } else if a.len() == 2 {
                    d(x.eq(&y).not())
                } else {
                    d(Dynamic::distinct(a))
                }
            }
            Op::Add => arith(&|xs| {
                if xs[0].as_int().is_some() {
                    Dynamic::from_ast(&Int::add(
                        &xs.iter().map(|x| x.as_int().unwrap()).collect::<Vec<_>>(),
                    ))
                } else {
                    Dynamic::from_ast(&Real::add(&xs.iter().map(as_real).collect::<Vec<_>>()))
                }
            }),
            Op::Mul => arith(&|xs| {
                if xs[0].as_int().is_some() {
                    Dynamic::from_ast(&Int::mul(
                        &xs.iter().map(|x| x.as_int().unwrap()).collect::<Vec<_>>(),
                    ))
                } else {
                    Dynamic::from_ast(&Real::mul(&xs.iter().map(as_real).collect::<Vec<_>>()))
                }
            }),
            Op::Sub => arith(&|xs| {
                if xs[0].as_int().is_some() {
                    Dynamic::from_ast(&Int::sub(
                        &xs.iter().map(|x| x.as_int().unwrap()).collect::<Vec<_>>(),
                    ))
                } else {
                    Dynamic::from_ast(&Real::sub(&xs.iter().map(as_real).collect::<Vec<_>>()))
                }
            }),
            Op::Neg => match a[0].as_int() {
                Some(i) => Dynamic::from_ast(&i.unary_minus()),
                None => Dynamic::from_ast(&as_real(&a[0]).unary_minus()),
            },
            Op::Abs => match a[0].as_int() {
                Some(i) => {
                    let zero = Int::from_i64(0);
                    i.ge(&zero)
                        .ite(&Dynamic::from_ast(&i), &Dynamic::from_ast(&i.unary_minus()))
                }
                None => {
                    let r = as_real(&a[0]);
                    let zero = Real::from_rational(0, 1);
                    r.ge(&zero)
                        .ite(&Dynamic::from_ast(&r), &Dynamic::from_ast(&r.unary_minus()))
                }
            },
            Op::RealDiv => {
                let r = reals();
                Dynamic::from_ast(&r[0].div(&r[1]))
            }
            Op::IntDiv => {
                let i = ints();
                Dynamic::from_ast(&i[0].div(&i[1]))
            }
            Op::Mod => {
                let i = ints();
                Dynamic::from_ast(&i[0].modulo(&i[1]))
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                let mixed = a.iter().any(|x| x.as_real().is_some());
                let cmp = |x: &Dynamic, y: &Dynamic| -> Bool {
                    if mixed {
                        let (x, y) = (as_real(x), as_real(y));
                        match op {
                            Op::Le => x.le(&y),
                            Op::Lt => x.lt(&y),
                            Op::Ge => x.ge(&y),
                            _ => x.gt(&y),
                        }
                    } else {
                        let (x, y) = (x.as_int().unwrap(), y.as_int().unwrap());
                        match op {
                            Op::Le => x.le(&y),
                            Op::Lt => x.lt(&y),
                            Op::Ge => x.ge(&y),
                            _ => x.gt(&y),
                        }
                    }
                };
                let cs: Vec<Bool> = a.windows(2).map(|w| cmp(&w[0], &w[1])).collect();
                d(Bool::and(&cs))
            }
            Op::ToReal => Dynamic::from_ast(&as_real(&a[0])),
            Op::ToInt => Dynamic::from_ast(&as_real(&a[0]).to_int()),
            Op::IsInt => {
                let r = as_real(&a[0]);
                d(r.to_int().to_real().eq(&r))
            }
            Op::Select => a[0].as_array().expect("array").select(&a[1]),
            Op::Store => Dynamic::from_ast(&a[0].as_array().expect("array").store(&a[1], &a[2])),
            Op::ConstArray(s) => match s {
                Sort::Array(i, _) => {
                    let i = self.z3_sort(i);
                    Dynamic::from_ast(&Array::const_array(&i, &a[0]))
                }
                _ => unreachable!("const array of non-array sort"),
            },
            Op::Ctor(c) => self.ctor_app(*c, None, false, a),
            Op::Selector(c, i) => self.ctor_app(*c, Some(*i), false, a),
            Op::Tester(c) => self.ctor_app(*c, None, true, a),
            Op::Size(d) => self.size_app(*d, &a[0]),
        }
    }
}

fn refs(a: &[Dynamic]) -> Vec<&dyn Ast> {
    a.iter().map(|x| x as &dyn Ast).collect()
}

fn as_real(x: &Dynamic) -> Real {
    match x.as_int() {
        Some(i) => i.to_real(),
        None => x.as_real().expect("arithmetic term"),
    }
}

fn coerce_pair(x: &Dynamic, y: &Dynamic) -> (Dynamic, Dynamic) {
    let xr = x.as_real().is_some();
    let yr = y.as_real().is_some();
    if xr != yr && (x.as_int().is_some() || y.as_int().is_some()) {
        (
            Dynamic::from_ast(&as_real(x)),
            Dynamic::from_ast(&as_real(y)),
        )
    } else {
        (x.clone(), y.clone())
    }
}

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

    /// Two stores of one thread declaring different datatypes of the same name (as a batch
    /// run on one thread does) each get their own meaning from Z3.
    #[test]
    fn same_named_datatypes_of_two_stores() {
        use crate::smt::{check_sat, Deadline, SatResult};
        let deadline = || Deadline::after(std::time::Duration::from_secs(10));
        let (a, b) = (TermStore::new(), TermStore::new());
        // in `a`, L has one value; in `b`, two.
        let la = a.declare_datatypes(&["L"]);
        let Sort::Datatype(da) = &la[0] else { panic!() };
        a.add_constructor(da.id, "only", vec![]);
        let lb = b.declare_datatypes(&["L"]);
        let Sort::Datatype(db) = &lb[0] else { panic!() };
        b.add_constructor(db.id, "one", vec![]);
        b.add_constructor(db.id, "two", vec![]);
        for _ in 0..2 {
            let (x, y) = (a.new_var("x", la[0].clone()), a.new_var("y", la[0].clone()));
            let ne = a.not(a.eq(a.var(x), a.var(y)));
            assert_eq!(check_sat(&a, ne, deadline()), SatResult::Unsat);
            let (x, y) = (b.new_var("x", lb[0].clone()), b.new_var("y", lb[0].clone()));
            let ne = b.not(b.eq(b.var(x), b.var(y)));
            assert_eq!(check_sat(&b, ne, deadline()), SatResult::Sat);
        }
    }

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
