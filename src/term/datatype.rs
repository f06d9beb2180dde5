//! Algebraic datatypes: the declarations (sorts, constructors, selectors) a store knows.
//!
//! Declarations live in the [`TermStore`] that uses them, never in global state. A declaration
//! group (one `declare-datatypes` command) may be mutually recursive; sorts are declared first
//! (so that constructor fields can name them) and constructors are added afterwards. This module
//! does not check SMT-LIB well-formedness (the syntax layer does) and knows nothing about Z3.

use super::{Op, Sort, TermId, TermStore, Value, VarId};
use std::collections::HashMap;
use std::sync::Arc;

/// A datatype declared in a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DatatypeId(pub u32);

/// A constructor of a datatype declared in a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CtorId(pub u32);

/// The sort of a datatype: its id in the store and its name (for printing).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DatatypeSort {
    /// The datatype in its store.
    pub id: DatatypeId,
    /// Its SMT-LIB name.
    pub name: Arc<str>,
}

/// A datatype declaration.
#[derive(Clone, Debug)]
pub struct Datatype {
    /// Its name.
    pub name: Arc<str>,
    /// Its constructors, in declaration order.
    pub ctors: Vec<CtorId>,
    /// The declaration group (one `declare-datatypes` command) it belongs to.
    pub group: usize,
}

/// A constructor declaration.
#[derive(Clone, Debug)]
pub struct Constructor {
    /// Its name.
    pub name: Arc<str>,
    /// The datatype it builds.
    pub datatype: DatatypeId,
    /// Selector names and field sorts.
    pub fields: Vec<(Arc<str>, Sort)>,
}

/// All datatype declarations of one store.
#[derive(Default, Debug)]
pub(crate) struct Datatypes {
    types: Vec<Datatype>,
    ctors: Vec<Constructor>,
    groups: Vec<Vec<DatatypeId>>,
    sort_names: HashMap<Arc<str>, DatatypeId>,
    ctor_names: HashMap<Arc<str>, CtorId>,
    selector_names: HashMap<Arc<str>, (CtorId, usize)>,
}

impl TermStore {
    /// Declares a group of (possibly mutually recursive) datatypes without constructors yet;
    /// returns their sorts. Add constructors with [`TermStore::add_constructor`].
    pub fn declare_datatypes(&self, names: &[&str]) -> Vec<Sort> {
        let mut d = self.datatypes.borrow_mut();
        let group = d.groups.len();
        let mut ids = Vec::new();
        let mut sorts = Vec::new();
        for &n in names {
            let id = DatatypeId(d.types.len() as u32);
            let name: Arc<str> = Arc::from(n);
            d.types.push(Datatype {
                name: name.clone(),
                ctors: Vec::new(),
                group,
            });
            d.sort_names.insert(name.clone(), id);
            ids.push(id);
            sorts.push(Sort::Datatype(DatatypeSort { id, name }));
        }
        d.groups.push(ids);
        sorts
    }

    /// Adds a constructor with named fields to a declared datatype.
    pub fn add_constructor(
        &self,
        dt: DatatypeId,
        name: &str,
        fields: Vec<(String, Sort)>,
    ) -> CtorId {
        let mut d = self.datatypes.borrow_mut();
        let id = CtorId(d.ctors.len() as u32);
        let name: Arc<str> = Arc::from(name);
        let fields: Vec<(Arc<str>, Sort)> =
            fields.into_iter().map(|(n, s)| (Arc::from(n), s)).collect();
        for (i, (f, _)) in fields.iter().enumerate() {
            d.selector_names.insert(f.clone(), (id, i));
        }
        d.ctor_names.insert(name.clone(), id);
        d.ctors.push(Constructor {
            name,
            datatype: dt,
            fields,
        });
        d.types[dt.0 as usize].ctors.push(id);
        id
    }

    /// The sort of the datatype named `name`, if declared.
    pub fn datatype_sort(&self, name: &str) -> Option<Sort> {
        let d = self.datatypes.borrow();
        let id = *d.sort_names.get(name)?;
        Some(Sort::Datatype(DatatypeSort {
            id,
            name: d.types[id.0 as usize].name.clone(),
        }))
    }

    /// The constructor named `name`, if declared.
    pub fn ctor_by_name(&self, name: &str) -> Option<CtorId> {
        self.datatypes.borrow().ctor_names.get(name).copied()
    }

    /// The selector named `name` (its constructor and field index), if declared.
    pub fn selector_by_name(&self, name: &str) -> Option<(CtorId, usize)> {
        self.datatypes.borrow().selector_names.get(name).copied()
    }

    /// A datatype's declaration.
    pub fn datatype(&self, id: DatatypeId) -> Datatype {
        self.datatypes.borrow().types[id.0 as usize].clone()
    }

    /// A constructor's declaration.
    pub fn ctor(&self, id: CtorId) -> Constructor {
        self.datatypes.borrow().ctors[id.0 as usize].clone()
    }

    /// The sort a constructor builds.
    pub fn ctor_sort(&self, id: CtorId) -> Sort {
        let dt = self.datatypes.borrow().ctors[id.0 as usize].datatype;
        self.sort_of_datatype(dt)
    }

    /// The sort of a declared datatype.
    pub fn sort_of_datatype(&self, id: DatatypeId) -> Sort {
        Sort::Datatype(DatatypeSort {
            id,
            name: self.datatypes.borrow().types[id.0 as usize].name.clone(),
        })
    }

    /// The declaration groups, in declaration order (each a list of datatypes).
    pub fn datatype_groups(&self) -> Vec<Vec<DatatypeId>> {
        self.datatypes.borrow().groups.clone()
    }

    /// Whether any datatype is declared.
    pub fn has_datatypes(&self) -> bool {
        !self.datatypes.borrow().types.is_empty()
    }

    /// A default value of a sort (false, 0, the constant-default array, the smallest ground
    /// constructor term of a datatype). `None` for a datatype without finite values.
    pub fn default_value(&self, sort: &Sort) -> Option<Value> {
        match sort {
            Sort::Datatype(ds) => self.datatype_witness(ds.id, &mut Vec::new()),
            Sort::Array(_, e) => Some(Value::Array(
                Box::new(self.default_value(e)?),
                Default::default(),
            )),
            _ => Some(Value::default_of(sort)),
        }
    }

    fn datatype_witness(&self, dt: DatatypeId, visiting: &mut Vec<DatatypeId>) -> Option<Value> {
        if visiting.contains(&dt) {
            return None;
        }
        visiting.push(dt);
        let decl = self.datatype(dt);
        let mut ctors: Vec<Constructor> = decl.ctors.iter().map(|&c| self.ctor(c)).collect();
        let ids = decl.ctors.clone();
        // Prefer constructors with fewer fields (nullary ones first).
        let mut order: Vec<usize> = (0..ctors.len()).collect();
        order.sort_by_key(|&i| ctors[i].fields.len());
        let mut found = None;
        'ctor: for i in order {
            let mut args = Vec::new();
            for (_, s) in std::mem::take(&mut ctors[i].fields) {
                let v = match &s {
                    Sort::Datatype(ds) => self.datatype_witness(ds.id, visiting),
                    _ => self.default_value(&s),
                };
                match v {
                    Some(v) => args.push(v),
                    None => continue 'ctor,
                }
            }
            found = Some(Value::Ctor(ids[i], ctors[i].name.clone(), args));
            break;
        }
        visiting.pop();
        found
    }

    // ----- sizes (`Op::Size`) -------------------------------------------------------------

    /// The fields of constructor `c` that the size counts: those of `c`'s own datatype.
    pub fn size_fields(&self, c: CtorId) -> Vec<u32> {
        let decl = self.ctor(c);
        (0..decl.fields.len() as u32)
            .filter(|&i| {
                matches!(&decl.fields[i as usize].1, Sort::Datatype(d) if d.id == decl.datatype)
            })
            .collect()
    }

    /// The size of `c` applied to `args`, one step unfolded: 0 when `c` has no field of its
    /// own datatype, else 1 plus the sizes of those fields.
    pub fn size_of_ctor(&self, c: CtorId, args: &[TermId]) -> TermId {
        let fields = self.size_fields(c);
        if fields.is_empty() {
            return self.int(0);
        }
        let datatype = self.ctor(c).datatype;
        let mut parts = vec![self.int(1)];
        parts.extend(
            fields
                .iter()
                .map(|&i| self.app(Op::Size(datatype), vec![args[i as usize]])),
        );
        self.add(parts)
    }

    /// The size of `t`, a term of a datatype sort (see [`Op::Size`]).
    pub fn size(&self, t: TermId) -> TermId {
        match self.sort(t) {
            Sort::Datatype(d) => self.app(Op::Size(d.id), vec![t]),
            s => panic!("the size of a term of sort {s}"),
        }
    }

    /// The distinct size terms (`Op::Size` applications) in `terms`, in order of first
    /// occurrence.
    pub fn sizes_in(&self, terms: &[TermId]) -> Vec<TermId> {
        let mut out = Vec::new();
        self.visit_subterms(terms, |t, term| {
            if let super::Term::App(Op::Size(_), _) = term {
                out.push(t);
            }
        });
        out
    }

    /// The datatypes whose sizes `terms` mention.
    pub fn sized_datatypes(&self, terms: &[TermId]) -> std::collections::BTreeSet<DatatypeId> {
        self.sizes_in(terms)
            .into_iter()
            .filter_map(|t| match &self.get(t).term {
                super::Term::App(Op::Size(d), _) => Some(*d),
                _ => None,
            })
            .collect()
    }

    /// `size(t) ≥ 0` for every subterm `t` of `terms` (variables included) of a datatype whose
    /// size `terms` mention: facts of the definition (each case is 0 or 1 plus sizes, so
    /// sizes are never negative by structural induction) that a solver unfolding the
    /// definition does not find by itself. The subterms cover the values the unfolding of a
    /// size reaches through selectors of constructor equations (`l = cons(h, t)`: `|t|`).
    pub fn size_bounds(&self, terms: &[TermId]) -> Vec<TermId> {
        let sized = self.sized_datatypes(terms);
        if sized.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.visit_subterms(terms, |t, term| {
            let bounded = match self.sort(t) {
                Sort::Datatype(d) => sized.contains(&d.id),
                _ => matches!(term, super::Term::App(Op::Size(_), _)),
            };
            if bounded {
                let size = match term {
                    super::Term::App(Op::Size(_), _) => t,
                    _ => self.size(t),
                };
                out.push(self.ge(size, self.int(0)));
            }
        });
        out
    }

    /// Calls `f` once on every distinct subterm of `terms` outside quantifiers, in order of
    /// first occurrence.
    fn visit_subterms(&self, terms: &[TermId], mut f: impl FnMut(TermId, &super::Term)) {
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<TermId> = terms.iter().rev().copied().collect();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            let node = self.get(t);
            f(t, &node.term);
            if let super::Term::App(_, args) = &node.term {
                stack.extend(args.iter().rev());
            }
        }
    }

    /// The name of the size function of a datatype in printed terms: `size!` and the
    /// datatype's name.
    pub fn size_name(&self, d: DatatypeId) -> String {
        format!("size!{}", self.datatype(d).name)
    }

    /// The size of a value (of the datatype of its constructor; other values have none).
    pub fn value_size(&self, v: &Value) -> Option<u64> {
        let Value::Ctor(c, _, fields) = v else {
            return None;
        };
        let counted = self.size_fields(*c);
        if counted.is_empty() {
            return Some(0);
        }
        counted.iter().try_fold(1u64, |n, &i| {
            Some(n + self.value_size(&fields[i as usize])?)
        })
    }

    /// The body of a datatype's size function over the variable `x`: by cases on the
    /// constructors (testers in declaration order, the last constructor without a test), 0 or
    /// 1 plus the sizes of the fields of the same datatype.
    pub fn size_cases(&self, d: DatatypeId, x: VarId) -> TermId {
        let x = self.var(x);
        let case = |c: CtorId| {
            let fields = self.size_fields(c);
            if fields.is_empty() {
                return self.int(0);
            }
            let mut parts = vec![self.int(1)];
            parts.extend(fields.iter().map(|&i| {
                let field = self.app(Op::Selector(c, i), vec![x]);
                self.app(Op::Size(d), vec![field])
            }));
            self.app(Op::Add, parts)
        };
        let ctors = self.datatype(d).ctors;
        let (last, rest) = ctors.split_last().expect("a datatype has constructors");
        rest.iter().rev().fold(case(*last), |otherwise, &c| {
            let test = self.app(Op::Tester(c), vec![x]);
            self.app(Op::Ite, vec![test, case(c), otherwise])
        })
    }

    /// The SMT-LIB definition of a datatype's size function, as a model prints it before the
    /// interpretations that use it:
    /// `(define-fun-rec size!L ((x L)) Int (ite ((_ is cons) x) (+ 1 (size!L (tail x))) 0))`.
    pub fn size_definition(&self, d: DatatypeId) -> String {
        use super::print::symbol;
        let sort = self.sort_of_datatype(d);
        let x = self.new_var("x", sort.clone());
        let printer = super::TermPrinter::new(self);
        format!(
            "(define-fun-rec {} (({} {sort})) Int {})",
            symbol(&self.size_name(d)),
            printer.var(x),
            printer.term(self.size_cases(d, x))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// `Nat = Z | S(pred: Nat)` in a fresh store.
    fn nat(store: &TermStore) -> (Sort, CtorId, CtorId) {
        let sorts = store.declare_datatypes(&["Nat"]);
        let Sort::Datatype(ds) = &sorts[0] else {
            panic!("a datatype sort")
        };
        let z = store.add_constructor(ds.id, "Z", vec![]);
        let s = store.add_constructor(ds.id, "S", vec![("pred".into(), sorts[0].clone())]);
        (sorts[0].clone(), z, s)
    }

    #[test]
    fn default_value_is_the_base_constructor() {
        let store = TermStore::new();
        let (sort, z, _) = nat(&store);
        assert_eq!(
            store.default_value(&sort),
            Some(Value::Ctor(z, Arc::from("Z"), vec![]))
        );
    }

    #[test]
    fn a_datatype_without_base_case_has_no_value() {
        let store = TermStore::new();
        let sorts = store.declare_datatypes(&["Inf"]);
        let Sort::Datatype(ds) = &sorts[0] else {
            panic!("a datatype sort")
        };
        store.add_constructor(ds.id, "more", vec![("next".into(), sorts[0].clone())]);
        assert_eq!(store.default_value(&sorts[0]), None);
    }

    #[test]
    fn selectors_and_testers_of_constructors_simplify_and_evaluate() {
        let store = TermStore::new();
        let (sort, z, s) = nat(&store);
        let zero = store.app(Op::Ctor(z), vec![]);
        let one = store.app(Op::Ctor(s), vec![zero]);
        assert_eq!(store.app(Op::Selector(s, 0), vec![one]), zero);
        assert_eq!(store.app(Op::Tester(z), vec![one]), store.ff());
        let x = store.new_var("x", sort);
        let px = store.app(Op::Selector(s, 0), vec![store.var(x)]);
        let env: HashMap<_, _> = [(x, store.eval(one, &HashMap::new()).unwrap())].into();
        assert_eq!(store.eval(px, &env), store.eval(zero, &HashMap::new()));
        // the selector of another constructor is unspecified: never guessed
        let env: HashMap<_, _> = [(x, store.eval(zero, &HashMap::new()).unwrap())].into();
        assert!(matches!(
            store.eval(px, &env),
            Err(crate::term::EvalError::WrongConstructor(_))
        ));
        assert_eq!(store.display(one), "(S Z)");
    }
}
