//! Flattening of records: a datatype with a single constructor whose fields are Booleans,
//! numbers or such records again (non-recursive: a Rust `&mut` as `(cur, ret)`, a pair, a
//! struct) is replaced by its fields. A predicate argument or variable of a record sort
//! becomes one argument or variable per leaf field; a constructor term becomes the list of its
//! fields' terms, a selector the field's, an equality of records the conjunction of their
//! fields' equalities, a tester `true`. The engines then see integers and Booleans only where
//! the system had records, which most of them handle far better than datatypes.
//!
//! Must not: touch a datatype with several constructors, a recursive one, one that occurs
//! inside an array sort, or a system whose constraints use a record in any other way (a
//! quantifier, an operator this module does not know): it then returns the system unchanged.
//! Clause and predicate ids are kept (only arities change). Back-translation: a model reads
//! each leaf of a record parameter through its selectors; a derivation gets each record
//! variable's value rebuilt from its leaves with the constructor.

use super::{default_value, BackError, BackTranslator, Identity, Transform};
use crate::chc::{Atom, Clause, Head, System};
use crate::clock::Deadline;
use crate::term::{CtorId, DatatypeId, Op, Sort, Term, TermId, TermStore, Value, VarId};
use crate::witness::{DerivNode, Derivation, Interp, Model};
use std::collections::{BTreeMap, HashMap};

/// Replaces records by their fields (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct FlattenRecords;

/// A record datatype: its constructor and its fields' sorts.
#[derive(Clone, Debug)]
struct Record {
    ctor: CtorId,
    name: std::sync::Arc<str>,
    fields: Vec<Sort>,
}

/// The records of a store and the leaves of each.
struct Records {
    records: HashMap<DatatypeId, Record>,
}

impl Records {
    /// The datatypes of `store` that can be flattened in `system`.
    fn of(store: &TermStore, system: &System) -> Records {
        let mut candidates: HashMap<DatatypeId, Record> = HashMap::new();
        for group in store.datatype_groups() {
            for d in group {
                let dt = store.datatype(d);
                if let [c] = dt.ctors[..] {
                    let ctor = store.ctor(c);
                    candidates.insert(
                        d,
                        Record {
                            ctor: c,
                            name: ctor.name.clone(),
                            fields: ctor.fields.iter().map(|(_, s)| s.clone()).collect(),
                        },
                    );
                }
            }
        }
        // Drop every candidate with a field that is not a leaf or a candidate, until none
        // changes; then the recursive ones (a cycle of candidates).
        loop {
            let bad: Vec<DatatypeId> = candidates
                .iter()
                .filter(|(_, r)| {
                    r.fields.iter().any(|s| match s {
                        Sort::Bool | Sort::Int | Sort::Real => false,
                        Sort::Datatype(d) => !candidates.contains_key(&d.id),
                        Sort::Array(..) => true,
                    })
                })
                .map(|(d, _)| *d)
                .collect();
            if bad.is_empty() {
                break;
            }
            for d in bad {
                candidates.remove(&d);
            }
        }
        let ids: Vec<DatatypeId> = candidates.keys().copied().collect();
        for d in ids {
            if reaches_itself(&candidates, d) {
                candidates.remove(&d);
            }
        }
        // A record inside an array sort (of a predicate or of a variable) stays.
        let mut in_arrays = vec![];
        for p in system.pred_ids() {
            for s in &system.pred(p).sorts {
                array_datatypes(s, false, &mut in_arrays);
            }
        }
        for (_, c) in system.clauses() {
            for v in store.free_vars(c.constraint) {
                array_datatypes(&store.var_sort(v), false, &mut in_arrays);
            }
        }
        for d in in_arrays {
            candidates.remove(&d);
        }
        Records {
            records: candidates,
        }
    }

    fn get(&self, s: &Sort) -> Option<&Record> {
        match s {
            Sort::Datatype(d) => self.records.get(&d.id),
            _ => None,
        }
    }

    /// The leaf sorts of `s` (itself when it is not a record).
    fn leaf_sorts(&self, s: &Sort) -> Vec<Sort> {
        match self.get(s) {
            Some(r) => r.fields.iter().flat_map(|f| self.leaf_sorts(f)).collect(),
            None => vec![s.clone()],
        }
    }

    /// The number of leaves of `s`.
    fn width(&self, s: &Sort) -> usize {
        self.leaf_sorts(s).len()
    }
}

/// Whether record `d` has itself among the records its fields hold, directly or not.
fn reaches_itself(records: &HashMap<DatatypeId, Record>, d: DatatypeId) -> bool {
    let mut stack = vec![d];
    let mut seen = vec![];
    while let Some(x) = stack.pop() {
        for f in &records[&x].fields {
            if let Sort::Datatype(e) = f {
                if e.id == d {
                    return true;
                }
                if !seen.contains(&e.id) && records.contains_key(&e.id) {
                    seen.push(e.id);
                    stack.push(e.id);
                }
            }
        }
    }
    false
}

/// Adds the datatypes inside array sorts of `s` to `out`.
fn array_datatypes(s: &Sort, inside: bool, out: &mut Vec<DatatypeId>) {
    match s {
        Sort::Array(i, e) => {
            array_datatypes(i, true, out);
            array_datatypes(e, true, out);
        }
        Sort::Datatype(d) if inside => out.push(d.id),
        _ => {}
    }
}

/// The rewriting of one system's terms.
struct Rewriter<'a> {
    store: &'a TermStore,
    records: &'a Records,
    /// Per record variable, its leaf variables.
    leaves: HashMap<VarId, Vec<VarId>>,
    memo: HashMap<TermId, Vec<TermId>>,
}

impl Rewriter<'_> {
    /// The leaf variables of `v` (itself when not a record).
    fn leaf_vars(&mut self, v: VarId) -> Vec<VarId> {
        let sort = self.store.var_sort(v);
        if self.records.get(&sort).is_none() {
            return vec![v];
        }
        if let Some(l) = self.leaves.get(&v) {
            return l.clone();
        }
        let name = self.store.var_name(v);
        let l: Vec<VarId> = self
            .records
            .leaf_sorts(&sort)
            .into_iter()
            .enumerate()
            .map(|(k, s)| self.store.new_var(&format!("{name}.{k}"), s))
            .collect();
        self.leaves.insert(v, l.clone());
        l
    }

    /// The terms of `t`'s leaves (one term, rewritten, when `t` is not a record); `None`
    /// for a form this module does not flatten.
    fn flat(&mut self, t: TermId) -> Option<Vec<TermId>> {
        if let Some(r) = self.memo.get(&t) {
            return Some(r.clone());
        }
        let node = self.store.get(t);
        let record = self.records.get(&node.sort).is_some();
        let out: Vec<TermId> = match &node.term {
            Term::Var(v) => self
                .leaf_vars(*v)
                .into_iter()
                .map(|x| self.store.var(x))
                .collect(),
            Term::Bool(_) | Term::Int(_) | Term::Real(_) => vec![t],
            Term::Quant(..) => return None,
            Term::App(op, args) => {
                let args = args.to_vec();
                let of = |s: &Self, a: TermId| s.records.get(&s.store.sort(a)).is_some();
                match op {
                    Op::Ctor(_) if record => {
                        let mut out = vec![];
                        for a in args {
                            out.extend(self.flat(a)?);
                        }
                        out
                    }
                    Op::Selector(c, i) if of(self, args[0]) => {
                        let parent = self.flat(args[0])?;
                        let fields = self.store.ctor(*c).fields;
                        let offset: usize = fields[..*i as usize]
                            .iter()
                            .map(|(_, s)| self.records.width(s))
                            .sum();
                        let width = self.records.width(&fields[*i as usize].1);
                        parent.get(offset..offset + width)?.to_vec()
                    }
                    Op::Tester(_) if of(self, args[0]) => vec![self.store.tt()],
                    Op::Ite if record => {
                        let c = single(self.flat(args[0])?)?;
                        let a = self.flat(args[1])?;
                        let b = self.flat(args[2])?;
                        a.into_iter()
                            .zip(b)
                            .map(|(x, y)| self.store.ite(c, x, y))
                            .collect()
                    }
                    Op::Eq if of(self, args[0]) => {
                        let a = self.flat(args[0])?;
                        let b = self.flat(args[1])?;
                        let eqs: Vec<TermId> = a
                            .into_iter()
                            .zip(b)
                            .map(|(x, y)| self.store.eq(x, y))
                            .collect();
                        vec![self.store.and(eqs)]
                    }
                    Op::Distinct if of(self, args[0]) => {
                        let flats: Vec<Vec<TermId>> =
                            args.iter().map(|&a| self.flat(a)).collect::<Option<_>>()?;
                        let mut pairs = vec![];
                        for i in 0..flats.len() {
                            for j in i + 1..flats.len() {
                                let differ: Vec<TermId> = flats[i]
                                    .iter()
                                    .zip(&flats[j])
                                    .map(|(&x, &y)| self.store.not(self.store.eq(x, y)))
                                    .collect();
                                pairs.push(self.store.or(differ));
                            }
                        }
                        vec![self.store.and(pairs)]
                    }
                    // Any other operator producing or reading a record: not flattened.
                    _ if record || args.iter().any(|&a| of(self, a)) => return None,
                    _ => {
                        let args: Vec<TermId> = args
                            .into_iter()
                            .map(|a| self.flat(a).and_then(single))
                            .collect::<Option<_>>()?;
                        vec![self.store.app(op.clone(), args)]
                    }
                }
            }
        };
        self.memo.insert(t, out.clone());
        Some(out)
    }

    /// The atom with its record arguments replaced by their leaves.
    fn atom(&mut self, a: &Atom) -> Atom {
        Atom {
            pred: a.pred,
            args: a.args.iter().flat_map(|&v| self.leaf_vars(v)).collect(),
        }
    }
}

/// The only element of `v`.
fn single(v: Vec<TermId>) -> Option<TermId> {
    match v[..] {
        [t] => Some(t),
        _ => None,
    }
}

/// Back-translation of [`FlattenRecords`].
struct Back {
    orig: System,
    records: Records,
    /// Per record variable of the original clauses, its leaf variables.
    leaves: HashMap<VarId, Vec<VarId>>,
}

impl Transform for FlattenRecords {
    fn name(&self) -> &'static str {
        "flatten"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let unchanged =
            || -> (System, Box<dyn BackTranslator>) { (system.clone(), Box::new(Identity)) };
        if !store.has_datatypes() {
            return unchanged();
        }
        let records = Records::of(store, system);
        let touched = system.pred_ids().any(|p| {
            system
                .pred(p)
                .sorts
                .iter()
                .any(|s| records.get(s).is_some())
        }) || system.clauses().any(|(_, c)| {
            store
                .free_vars(c.constraint)
                .iter()
                .any(|&v| records.get(&store.var_sort(v)).is_some())
        });
        if records.records.is_empty() || !touched {
            return unchanged();
        }
        let mut new = System::new();
        for p in system.pred_ids() {
            let d = system.pred(p);
            let sorts = d.sorts.iter().flat_map(|s| records.leaf_sorts(s)).collect();
            new.add_pred(d.name.clone(), sorts);
        }
        let mut rw = Rewriter {
            store,
            records: &records,
            leaves: HashMap::new(),
            memo: HashMap::new(),
        };
        for (_, c) in system.clauses() {
            let Some(constraint) = rw.flat(c.constraint).and_then(single) else {
                return unchanged();
            };
            new.add_clause(Clause {
                body: c.body.iter().map(|a| rw.atom(a)).collect(),
                constraint,
                head: match &c.head {
                    Head::Atom(h) => Head::Atom(rw.atom(h)),
                    Head::False => Head::False,
                },
            });
        }
        let leaves = rw.leaves;
        (
            new,
            Box::new(Back {
                orig: system.clone(),
                records,
                leaves,
            }),
        )
    }
}

impl Back {
    /// The terms reading the leaves of `x` (of sort `s`) through selectors, in leaf order.
    fn selectors(&self, store: &TermStore, x: TermId, s: &Sort, out: &mut Vec<TermId>) {
        match self.records.get(s) {
            Some(r) => {
                for (i, f) in r.fields.iter().enumerate() {
                    let field = store.app(Op::Selector(r.ctor, i as u32), vec![x]);
                    self.selectors(store, field, f, out);
                }
            }
            None => out.push(x),
        }
    }

    /// The value of sort `s` whose leaves `values` gives in order (consumed).
    fn rebuild(
        &self,
        store: &TermStore,
        s: &Sort,
        values: &mut dyn Iterator<Item = Value>,
    ) -> Value {
        match self.records.get(s) {
            Some(r) => {
                let fields = r
                    .fields
                    .iter()
                    .map(|f| self.rebuild(store, f, values))
                    .collect();
                Value::Ctor(r.ctor, r.name.clone(), fields)
            }
            None => values.next().unwrap_or_else(|| default_value(store, s)),
        }
    }
}

impl BackTranslator for Back {
    /// The hints of predicates without a record argument (their arguments are unchanged).
    fn hints(&self, _store: &TermStore, hints: &Model) -> Model {
        let mut out = Model::new();
        for p in self.orig.pred_ids() {
            let flat = self
                .orig
                .pred(p)
                .sorts
                .iter()
                .all(|s| self.records.get(s).is_none());
            if let (true, Some(i)) = (flat, hints.get(p)) {
                out.set(p, i.clone());
            }
        }
        out
    }

    fn model(&self, store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        let mut out = Model::new();
        for p in self.orig.pred_ids() {
            let Some(i) = model.get(p) else { continue };
            let mut leaf_params = i.params.iter().copied();
            let mut map: HashMap<VarId, TermId> = HashMap::new();
            let mut params = vec![];
            for (k, s) in self.orig.pred(p).sorts.iter().enumerate() {
                if self.records.get(s).is_none() {
                    params.extend(leaf_params.next());
                    continue;
                }
                let x = store.new_var(&format!("x{k}"), s.clone());
                let mut reads = vec![];
                self.selectors(store, store.var(x), s, &mut reads);
                for r in reads {
                    if let Some(l) = leaf_params.next() {
                        map.insert(l, r);
                    }
                }
                params.push(x);
            }
            let body = store.substitute(i.body, &map);
            out.set(p, Interp { params, body });
        }
        out
    }

    fn derivation(
        &self,
        store: &TermStore,
        d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        let mut nodes = Vec::with_capacity(d.nodes.len());
        for (i, n) in d.nodes.into_iter().enumerate() {
            if n.clause.0 as usize >= self.orig.num_clauses() {
                return Err(BackError::NoSuchClause(i));
            }
            let c = self.orig.clause(n.clause);
            let mut assignment: BTreeMap<VarId, Value> = BTreeMap::new();
            for v in c.vars(store) {
                let value = match self.leaves.get(&v) {
                    Some(leaves) => {
                        let mut values = leaves.iter().map(|l| {
                            n.assignment
                                .get(l)
                                .cloned()
                                .unwrap_or_else(|| default_value(store, &store.var_sort(*l)))
                        });
                        self.rebuild(store, &store.var_sort(v), &mut values)
                    }
                    None => match n.assignment.get(&v) {
                        Some(x) => x.clone(),
                        None => continue,
                    },
                };
                assignment.insert(v, value);
            }
            nodes.push(DerivNode {
                clause: n.clause,
                assignment,
                children: n.children,
            });
        }
        Ok(Derivation { nodes })
    }
}
