//! Algebraic datatypes: the declarations (sorts, constructors, selectors) a store knows.
//!
//! Declarations live in the [`TermStore`] that uses them, never in global state. A declaration
//! group (one `declare-datatypes` command) may be mutually recursive; sorts are declared first
//! (so that constructor fields can name them) and constructors are added afterwards. This module
//! does not check SMT-LIB well-formedness (the syntax layer does) and knows nothing about Z3.

use super::{Sort, TermStore, Value};
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
        let d = self.datatypes.borrow();
        let dt = d.ctors[id.0 as usize].datatype;
        Sort::Datatype(DatatypeSort {
            id: dt,
            name: d.types[dt.0 as usize].name.clone(),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Op;
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
