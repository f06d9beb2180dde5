//! Moving terms between stores: an owned, store-independent snapshot ([`Exported`]) of a set of
//! terms and variables, made by [`TermStore::export`] and read into any store (on any thread) by
//! [`TermStore::import`].
//!
//! Duty: a snapshot is one DAG (a shared subterm once, in the source's creation order, so the
//! imported terms are hash-consed exactly as the originals and print the same); it carries the
//! source's datatype declarations, whose ids line up in the target (declared there if missing,
//! compared if present). Variables keep their names where the target store allows it; a
//! [`VarMap`] records old → new variables so that values holding [`VarId`]s (clause atoms, model
//! parameters, derivation assignments) can be renamed, and a known map makes an import reuse
//! existing variables (a round trip back into the source store gives back the same ids).
//!
//! What it must not do: recurse (terms are hundreds of thousands deep), simplify (terms are
//! interned exactly as they were built), or hold anything of a store (no `Rc`, no ids of the
//! source beyond the variable ids the map is keyed by): a snapshot is `Send + Sync`.

use super::{CtorId, DatatypeId, Op, Quantifier, Sort, Term, TermId, TermStore, VarId};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// A mapping of variables of one store to variables of another (old → new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VarMap {
    map: BTreeMap<VarId, VarId>,
}

impl VarMap {
    /// The empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `from` to `to` (replacing an earlier image of `from`).
    pub fn insert(&mut self, from: VarId, to: VarId) {
        self.map.insert(from, to);
    }

    /// The image of `v`, if mapped.
    pub fn get(&self, v: VarId) -> Option<VarId> {
        self.map.get(&v).copied()
    }

    /// The image of `v`.
    ///
    /// # Panics
    /// If `v` is not mapped: callers rename only variables the snapshot carried.
    pub fn apply(&self, v: VarId) -> VarId {
        self.get(v)
            .expect("every variable of an exported value is in its import's map")
    }

    /// The map in the other direction (new → old); for maps made by an import, which are
    /// injective, the inverse takes variables of the target back to those of the source.
    pub fn inverse(&self) -> VarMap {
        VarMap {
            map: self.map.iter().map(|(a, b)| (*b, *a)).collect(),
        }
    }

    /// The pairs, by old variable.
    pub fn iter(&self) -> impl Iterator<Item = (VarId, VarId)> + '_ {
        self.map.iter().map(|(a, b)| (*a, *b))
    }

    /// Number of mapped variables.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Why a snapshot cannot be read into a store.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransferError {
    /// The target store declares datatypes that differ from the snapshot's (ids must line up).
    #[error("datatype declarations differ: {0}")]
    DatatypesDiffer(String),
    /// A variable of the known map has another sort than the snapshot's variable.
    #[error("variable `{name}` has sort {exported} in the snapshot but {target} in the store")]
    SortMismatch {
        /// The snapshot's name of the variable.
        name: String,
        /// Its sort in the snapshot.
        exported: Sort,
        /// The sort of the variable the known map names.
        target: Sort,
    },
}

/// Index of a term in a snapshot (children come before their parents).
type Slot = u32;

/// One term of a snapshot, over the snapshot's slots and variable indices.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Var(u32),
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    App(Op, Box<[Slot]>),
    Quant(Quantifier, Box<[u32]>, Slot),
}

/// A variable of a snapshot: its id in the source store, name and sort.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ExportedVar {
    old: VarId,
    name: Box<str>,
    sort: Sort,
}

/// A constructor declaration as carried in a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CtorDecl {
    name: Arc<str>,
    datatype: DatatypeId,
    fields: Vec<(Arc<str>, Sort)>,
}

/// All datatype declarations of a store: the groups (datatype names; ids are consecutive in
/// group order) and the constructors by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Declarations {
    groups: Vec<Vec<Arc<str>>>,
    ctors: Vec<CtorDecl>,
}

/// An owned, store-independent snapshot of terms (one DAG), the variables they and the
/// exporter name, and the source's datatype declarations. `Send + Sync`: it can go to another
/// thread and be imported into that thread's store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    declarations: Declarations,
    /// By increasing old id, so an import creates them in the source's order.
    vars: Vec<ExportedVar>,
    nodes: Vec<Node>,
    roots: Vec<Slot>,
}

/// The result of an import: the roots' new terms, in order, and old → new variables (every
/// variable the snapshot carries).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The new term of each root, in the order given to the export.
    pub roots: Vec<TermId>,
    /// Old variable → new variable.
    pub vars: VarMap,
}

// A snapshot crosses threads; the compiler checks that nothing of a store slipped in.
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Exported>();
    send_sync::<VarMap>();
    send_sync::<TransferError>();
};

impl Exported {
    /// Number of distinct terms in the snapshot (its DAG size).
    pub fn num_terms(&self) -> usize {
        self.nodes.len()
    }

    /// Number of roots.
    pub fn num_roots(&self) -> usize {
        self.roots.len()
    }

    /// The variables carried, by their ids in the source store (increasing).
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.vars.iter().map(|v| v.old)
    }
}

impl TermStore {
    /// A snapshot of `roots` (and every subterm and variable they contain).
    pub fn export(&self, roots: &[TermId]) -> Exported {
        self.export_with_vars(roots, &[])
    }

    /// A snapshot of `roots` that also carries `vars` (atom arguments, model parameters,
    /// derivation variables: variables a value names outside its terms).
    pub fn export_with_vars(&self, roots: &[TermId], vars: &[VarId]) -> Exported {
        // Reachable terms, by an explicit stack.
        let mut seen: HashSet<TermId> = HashSet::new();
        let mut stack: Vec<TermId> = roots.to_vec();
        let mut var_set: BTreeSet<VarId> = vars.iter().copied().collect();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            match &self.get(t).term {
                Term::Var(v) => {
                    var_set.insert(*v);
                }
                Term::App(_, args) => stack.extend(args.iter().filter(|a| !seen.contains(a))),
                Term::Quant(_, bound, body) => {
                    var_set.extend(bound.iter().copied());
                    stack.push(*body);
                }
                Term::Bool(_) | Term::Int(_) | Term::Real(_) => {}
            }
        }
        // A term's arguments were interned before it: creation order is a topological order,
        // and keeping it makes the target number the terms in the same relative order.
        let mut order: Vec<TermId> = seen.into_iter().collect();
        order.sort_unstable();
        let var_index: HashMap<VarId, u32> = var_set
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, i as u32))
            .collect();
        let slot: HashMap<TermId, Slot> = order
            .iter()
            .enumerate()
            .map(|(i, t)| (*t, i as Slot))
            .collect();
        let nodes = order
            .iter()
            .map(|&t| match &self.get(t).term {
                Term::Var(v) => Node::Var(var_index[v]),
                Term::Bool(b) => Node::Bool(*b),
                Term::Int(i) => Node::Int(i.clone()),
                Term::Real(r) => Node::Real(r.clone()),
                Term::App(op, args) => {
                    Node::App(op.clone(), args.iter().map(|a| slot[a]).collect())
                }
                Term::Quant(q, bound, body) => {
                    Node::Quant(*q, bound.iter().map(|v| var_index[v]).collect(), slot[body])
                }
            })
            .collect();
        Exported {
            declarations: Declarations::of(self),
            vars: var_set
                .into_iter()
                .map(|v| ExportedVar {
                    old: v,
                    name: Box::from(&*self.var_name(v)),
                    sort: self.var_sort(v),
                })
                .collect(),
            nodes,
            roots: roots.iter().map(|r| slot[r]).collect(),
        }
    }

    /// Reads a snapshot into this store: declares its datatypes if the store lacks them (or
    /// checks they are the same), creates a variable for each of the snapshot's (named as in the
    /// source, with a `!n` suffix where the name is taken) and interns every term exactly as
    /// it was.
    pub fn import(&self, e: &Exported) -> Result<Imported, TransferError> {
        self.import_with(e, &VarMap::new())
    }

    /// [`TermStore::import`], but a snapshot variable that `known` maps (by its source id) is
    /// the existing variable it names, of the same sort, instead of a new one. With the inverse
    /// of the map an earlier import made, a value goes back to its source store with its
    /// original variables (and, by hash-consing, its original term ids).
    pub fn import_with(&self, e: &Exported, known: &VarMap) -> Result<Imported, TransferError> {
        // Everything is checked before the store changes: a refused snapshot leaves no trace.
        for v in &e.vars {
            if let Some(w) = known.get(v.old) {
                let target = self.var_sort(w);
                if target != v.sort {
                    return Err(TransferError::SortMismatch {
                        name: v.name.to_string(),
                        exported: v.sort.clone(),
                        target,
                    });
                }
            }
        }
        e.declarations.declare_in(self)?;
        let new_vars: Vec<VarId> = e
            .vars
            .iter()
            .map(|v| match known.get(v.old) {
                Some(w) => w,
                None => self.new_var_like(&v.name, v.sort.clone()),
            })
            .collect();
        let mut terms: Vec<TermId> = Vec::with_capacity(e.nodes.len());
        for node in &e.nodes {
            let term = match node {
                Node::Var(i) => Term::Var(new_vars[*i as usize]),
                Node::Bool(b) => Term::Bool(*b),
                Node::Int(i) => Term::Int(i.clone()),
                Node::Real(r) => Term::Real(r.clone()),
                Node::App(op, args) => Term::App(
                    op.clone(),
                    args.iter().map(|a| terms[*a as usize]).collect(),
                ),
                Node::Quant(q, bound, body) => Term::Quant(
                    *q,
                    bound.iter().map(|i| new_vars[*i as usize]).collect(),
                    terms[*body as usize],
                ),
            };
            terms.push(self.intern(term));
        }
        let mut vars = VarMap::new();
        for (v, id) in e.vars.iter().zip(new_vars) {
            vars.insert(v.old, id);
        }
        Ok(Imported {
            roots: e.roots.iter().map(|r| terms[*r as usize]).collect(),
            vars,
        })
    }
}

impl Declarations {
    /// Every datatype declaration of `store`.
    fn of(store: &TermStore) -> Declarations {
        if !store.has_datatypes() {
            return Declarations::default();
        }
        let mut groups = Vec::new();
        let mut ctors: Vec<(CtorId, CtorDecl)> = Vec::new();
        for group in store.datatype_groups() {
            let mut names = Vec::new();
            for dt in group {
                let decl = store.datatype(dt);
                names.push(decl.name.clone());
                for c in decl.ctors {
                    let ctor = store.ctor(c);
                    ctors.push((
                        c,
                        CtorDecl {
                            name: ctor.name,
                            datatype: ctor.datatype,
                            fields: ctor.fields,
                        },
                    ));
                }
            }
            groups.push(names);
        }
        // Every constructor belongs to a datatype, so these are all of them, ids 0..n.
        ctors.sort_by_key(|(c, _)| *c);
        Declarations {
            groups,
            ctors: ctors.into_iter().map(|(_, d)| d).collect(),
        }
    }

    fn num_datatypes(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }

    /// Makes `store` declare these datatypes with the same ids: what it already declares must
    /// agree (same groups and constructors as far as both go, no extra constructor of one of
    /// these datatypes); the rest is declared. Checks everything before declaring anything.
    fn declare_in(&self, store: &TermStore) -> Result<(), TransferError> {
        if self.groups.is_empty() {
            return Ok(());
        }
        let have = Declarations::of(store);
        if *self == have {
            return Ok(());
        }
        let differ = |what: String| Err(TransferError::DatatypesDiffer(what));
        for (i, (mine, theirs)) in self.groups.iter().zip(&have.groups).enumerate() {
            if mine != theirs {
                return differ(format!(
                    "declaration group {i} is {mine:?} in the snapshot, {theirs:?} in the store"
                ));
            }
        }
        for (i, (mine, theirs)) in self.ctors.iter().zip(&have.ctors).enumerate() {
            if mine != theirs {
                return differ(format!(
                    "constructor {i} is `{}` in the snapshot, `{}` in the store",
                    mine.name, theirs.name
                ));
            }
        }
        let ours = self.num_datatypes();
        if let Some(extra) = have.ctors[self.ctors.len().min(have.ctors.len())..]
            .iter()
            .find(|c| (c.datatype.0 as usize) < ours)
        {
            return differ(format!(
                "the store has constructor `{}` that the snapshot's datatype lacks",
                extra.name
            ));
        }
        for group in &self.groups[have.groups.len().min(self.groups.len())..] {
            let names: Vec<&str> = group.iter().map(|n| &**n).collect();
            store.declare_datatypes(&names);
        }
        for c in &self.ctors[have.ctors.len().min(self.ctors.len())..] {
            let fields = c.fields.iter().map(|(n, s)| (n.to_string(), s.clone()));
            store.add_constructor(c.datatype, &c.name, fields.collect());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::TermPrinter;
    use num_traits::{One, Pow};

    /// `List = nil | cons(head: Int, tail: List)` in `store`.
    fn list(store: &TermStore) -> (Sort, CtorId, CtorId) {
        let sorts = store.declare_datatypes(&["List"]);
        let Sort::Datatype(ds) = &sorts[0] else {
            panic!("a datatype sort")
        };
        let nil = store.add_constructor(ds.id, "nil", vec![]);
        let fields = vec![
            ("head".into(), Sort::Int),
            ("tail".into(), sorts[0].clone()),
        ];
        let cons = store.add_constructor(ds.id, "cons", fields);
        (sorts[0].clone(), nil, cons)
    }

    /// A term with every kind of node: arrays, reals, big integers, a quantifier (and its bound
    /// variable), constructors, selectors and testers.
    fn mixed(store: &TermStore) -> TermId {
        let (list_sort, nil, cons) = list(store);
        let arr = Sort::array(Sort::Int, Sort::Real);
        let a = store.var(store.new_var("a", arr.clone()));
        let i = store.var(store.new_var("i", Sort::Int));
        let r = store.var(store.new_var("r", Sort::Real));
        let l = store.var(store.new_var("l", list_sort));
        let third = store.real(BigRational::new(BigInt::one(), BigInt::from(3)));
        let big = store.int(BigInt::from(2).pow(200u32));
        let k = store.app(Op::ConstArray(arr), vec![third]);
        let stored = store.app(Op::Store, vec![k, i, r]);
        let sel = store.app(Op::Select, vec![stored, i]);
        let b = store.new_var("b", Sort::Int);
        let bt = store.var(b);
        let body = store.and([store.gt(bt, big), store.le(sel, r)]);
        let ex = store.quant(Quantifier::Exists, vec![b], body);
        let empty = store.app(Op::Ctor(nil), vec![]);
        let one = store.app(Op::Ctor(cons), vec![i, empty]);
        let is_cons = store.app(Op::Tester(cons), vec![l]);
        let head = store.app(Op::Selector(cons, 0), vec![l]);
        let same = store.eq(l, one);
        let a_at_i = store.app(Op::Select, vec![a, i]);
        store.and([ex, is_cons, store.ge(head, i), same, store.eq(a_at_i, r)])
    }

    #[test]
    fn every_kind_of_term_round_trips_through_a_fresh_store() {
        let store = TermStore::new();
        let t = mixed(&store);
        let printed = TermPrinter::new(&store).term(t);
        let e = store.export(&[t]);
        let other = TermStore::new();
        let imported = other.import(&e).expect("a fresh store takes any snapshot");
        assert_eq!(TermPrinter::new(&other).term(imported.roots[0]), printed);
        assert_eq!(imported.vars.len(), 5, "a, i, r, l and the bound b");
        let back = other.export(&imported.roots);
        let again = store.import_with(&back, &imported.vars.inverse()).unwrap();
        assert_eq!(again.roots, vec![t], "the same term in its own store");
        assert_eq!(store.num_vars(), 5, "no new variable on the way back");
    }

    #[test]
    fn names_are_kept_where_the_store_allows() {
        let store = TermStore::new();
        let x = store.new_var("x", Sort::Int);
        let x1 = store.new_var("x", Sort::Int);
        let t = store.lt(store.var(x), store.var(x1));
        let e = store.export(&[t]);
        let other = TermStore::new();
        other.new_var("x", Sort::Bool);
        let imported = other.import(&e).unwrap();
        let names: Vec<String> = [x, x1]
            .iter()
            .map(|v| other.var_name(imported.vars.apply(*v)).to_string())
            .collect();
        assert_eq!(names, ["x!1", "x!2"], "unique, and no `x!1!1`");
        assert_eq!(
            TermPrinter::new(&other).term(imported.roots[0]),
            "(< x!1 x!2)"
        );
    }

    #[test]
    fn datatypes_received_before_are_checked_not_declared_again() {
        let store = TermStore::new();
        let t = mixed(&store);
        let e = store.export(&[t]);
        let other = TermStore::new();
        other.import(&e).unwrap();
        other.import(&e).unwrap();
        assert_eq!(other.datatype_groups().len(), 1);
        // A store whose datatypes differ refuses the snapshot, and declares nothing.
        let third = TermStore::new();
        let sorts = third.declare_datatypes(&["List"]);
        let Sort::Datatype(ds) = &sorts[0] else {
            panic!("a datatype sort")
        };
        third.add_constructor(ds.id, "empty", vec![]);
        let err = third.import(&e).unwrap_err();
        assert_eq!(
            err.to_string(),
            "datatype declarations differ: constructor 0 is `nil` in the snapshot, `empty` in the store"
        );
        assert_eq!(third.ctor_by_name("cons"), None);
        // A store with one more constructor for the same datatype refuses it too.
        let fourth = TermStore::new();
        list(&fourth);
        let Some(Sort::Datatype(ds)) = fourth.datatype_sort("List") else {
            panic!("declared")
        };
        fourth.add_constructor(ds.id, "snoc", vec![]);
        assert!(matches!(
            fourth.import(&e),
            Err(TransferError::DatatypesDiffer(_))
        ));
    }

    #[test]
    fn a_known_variable_of_another_sort_is_an_error() {
        let store = TermStore::new();
        let x = store.new_var("x", Sort::Int);
        let other = TermStore::new();
        let y = other.new_var("y", Sort::Real);
        let mut known = VarMap::new();
        known.insert(x, y);
        let e = store.export_with_vars(&[store.var(x)], &[store.new_var("z", Sort::Int)]);
        assert_eq!(
            other.import_with(&e, &known),
            Err(TransferError::SortMismatch {
                name: "x".into(),
                exported: Sort::Int,
                target: Sort::Real
            })
        );
        assert_eq!(
            other.num_vars(),
            1,
            "no variable made for the refused snapshot"
        );
    }

    #[test]
    fn extra_variables_travel_without_terms() {
        let store = TermStore::new();
        let p = store.new_var("p", Sort::Bool);
        let e = store.export_with_vars(&[], &[p]);
        assert_eq!((e.num_terms(), e.num_roots()), (0, 0));
        assert_eq!(e.vars().collect::<Vec<_>>(), vec![p]);
        let other = TermStore::new();
        let imported = other.import(&e).unwrap();
        assert_eq!(&*other.var_name(imported.vars.apply(p)), "p");
    }
}
