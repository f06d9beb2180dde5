//! Translation of this crate's terms to Z3 ASTs (the way back is `from_z3`).
//!
//! Variables become Z3 constants named `v<id>`; translation back maps those names to the same
//! [`VarId`]s. Z3 ASTs never leave this module's parent (`smt`), and they never cross threads.

use crate::term::{DatatypeId, Op, Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;
use std::str::FromStr;
use z3::ast::{Array, Ast, Bool, Dynamic, Int, Real};
use z3::{DatatypeAccessor, DatatypeBuilder};

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

    /// The size function of datatype `d` ([`Op::Size`]) applied to `arg`; the function is
    /// defined to Z3 on first use as a recursive function whose body is
    /// [`TermStore::size_cases`].
    fn size_app(&mut self, d: DatatypeId, arg: &Dynamic) -> Dynamic {
        if !self.sizes.contains_key(&d) {
            self.define_size(d);
        }
        self.sizes[&d].apply(&[arg])
    }

    fn define_size(&mut self, d: DatatypeId) {
        let sort = self.store.sort_of_datatype(d);
        let z3_sort = self.z3_sort(&sort);
        // Z3 refuses a second definition of a name in one context (the z3 crate then panics),
        // and every solver of a thread shares the thread's context: a name of its own each.
        let n = SIZE_FUNCTIONS.with(|c| c.replace(c.get() + 1));
        let name = format!("{}!{n}", self.store.size_name(d));
        let f = z3::RecFuncDecl::new(name, &[&z3_sort], &z3::Sort::int());
        // Declared before its body is translated: the body applies it.
        self.sizes.insert(d, f);
        let x = self.store.new_var("x", sort);
        let body = self.term(self.store.size_cases(d, x));
        let x = self.var(x);
        self.sizes[&d].add_def(&[&x], &body);
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
}
