//! The cell abstraction of arrays (Monniaux and Gonnord, "Cell morphing: from array programs
//! to array-free Horn clauses", SAS 2016): every array-valued predicate argument `a` becomes
//! two, an index `k` and the value `a[k]` there, and `P#(x, k, v)` reads "P holds of `x` and
//! of arrays whose cell `k` holds `v`". An invariant over one cell and the scalars
//! (`k < i → v = 0`) is linear arithmetic, which the invariant engines find; translated back
//! it is the invariant quantified over indices (`∀k. k < i → a[k] = 0`) that no engine finds
//! over the arrays themselves.
//!
//! Not answer-preserving: an over-approximation. Read every predicate `P(x, a)` as
//! `∀k. P#(x, k, a[k])` (one bound index per array argument); each abstract clause is then
//! implied by its clause:
//! - the head's cell is a new variable, its value the read of the head's array there;
//! - each body atom is one instance of its universal: at the head's index for the array the
//!   head's array is made from (`b = store(a, i, e)` or `b = a`, also under a disjunction),
//!   else at the first index the clause reads the array at, else at a new variable; each other
//!   index the clause reads an array at makes one more instance (at most [`MAX_INSTANCES`]);
//! - the clause's arrays made from others by `store`, `ite`, constant arrays or equalities are
//!   substituted, reads pushed through writes (`store(a, i, e)[j]` is `ite(j = i, e, a[j])`),
//!   and each read of an array the clause starts from becomes a new variable, equal reads at
//!   equal indices (Ackermann's reduction);
//! - an equality of arrays the premise assumes but does not define by (`x = store(a, i, e)`
//!   under a disjunction, the merge of an `if`) becomes the equalities of their reads at the
//!   indices the clause reads them at; any other atom about arrays becomes a new variable of
//!   its sort. Both only weaken the premise.
//!
//! The abstract system has no array at all. Reachable states of the system project to
//! reachable states of the abstraction (`states.rs`), which a sampler of the abstraction alone
//! rarely finds past a loop's first step. A model of it translates back to a model with one
//! universal quantifier per array argument, which the validator checks against the original
//! clauses like any other; a derivation of the abstract system is no derivation of the system
//! (its back-translation is [`BackError::Abstraction`]).
//!
//! Must not: call a solver; abstract arrays of arrays or arrays of datatypes (a system with a
//! predicate argument of such a sort is left alone).

use super::{BackError, BackTranslator};
use crate::chc::{Atom, Clause, Head, System};
use crate::clock::Deadline;
use crate::term::{Op, Quantifier, Sort, Term, TermId, TermStore, Value, VarId};
use crate::witness::{Derivation, Interp, Model};
use reads::{ackermann, array_equalities, made_from, push_reads, reads_by_array, related};
use std::collections::{BTreeSet, HashMap};

/// Most instances of one body atom: one at the cells the head and the first reads fix, one
/// more for each other index the clause reads an array argument at (the clause is then
/// non-linear).
const MAX_INSTANCES: usize = 3;

/// At most this many reads of one array in one clause are related by Ackermann's constraints
/// (`i = j → a[i] = a[j]`, quadratic in the reads); leaving some out only weakens the premise.
const MAX_RELATED_READS: usize = 16;

/// Abstracts every array argument to one cell (see the module header).
#[derive(Clone, Copy, Debug, Default)]
pub struct CellAbstraction;

impl CellAbstraction {
    /// The abstract system and the translator of its models; `None` when no predicate has an
    /// array-valued argument, or one has an array of arrays or of datatypes.
    pub fn apply(
        &self,
        store: &TermStore,
        system: &System,
    ) -> Option<(System, Box<dyn BackTranslator>)> {
        let sorts = || system.pred_ids().flat_map(|p| &system.pred(p).sorts);
        let arrays = || sorts().filter(|s| matches!(s, Sort::Array(..)));
        if arrays().next().is_none() || !arrays().all(Self::abstracts) {
            return None;
        }
        let mut out = System::new();
        for p in system.pred_ids() {
            let d = system.pred(p);
            let sorts = d
                .sorts
                .iter()
                .flat_map(|s| match s {
                    Sort::Array(i, e) => vec![(**i).clone(), (**e).clone()],
                    _ => vec![s.clone()],
                })
                .collect();
            out.add_pred(d.name.clone(), sorts);
        }
        for (_, c) in system.clauses() {
            out.add_clause(Cells::new(store).clause(c));
        }
        Some((
            out,
            Box::new(Back {
                orig: system.clone(),
            }),
        ))
    }

    /// Whether `sort` is one the abstraction reads as a cell: an array of scalar indices and
    /// elements (not an array of arrays or of datatypes).
    pub fn abstracts(sort: &Sort) -> bool {
        match sort {
            Sort::Array(i, e) => scalar(i) && scalar(e),
            _ => false,
        }
    }

    /// Reachable states of the abstraction of `given` from reachable states of `given` (per
    /// predicate, a value per argument): see `states.rs`.
    pub fn project_states(
        &self,
        given: &System,
        states: &[Vec<Vec<Value>>],
    ) -> Vec<Vec<Vec<Value>>> {
        states::project(given, states)
    }

    /// Candidate invariants of `cells`, the abstraction of `given`: ranges of cells that hold
    /// one value (see `templates.rs`), chosen by `states` (per predicate of `cells`: reachable
    /// states of the abstraction, as [`Self::project_states`] makes them; none: the simplest
    /// ranges). Never trusted: the engine that takes them filters them.
    pub fn templates(
        &self,
        store: &TermStore,
        given: &System,
        cells: &System,
        states: &[Vec<Vec<Value>>],
    ) -> Model {
        templates::templates(store, given, cells, states)
    }
}

/// One argument of a predicate as the abstraction lays its parameters out.
pub(super) enum Slot {
    /// A scalar (or datatype) argument: one parameter.
    Scalar(VarId),
    /// An array argument: its cell's index and value.
    Cell(VarId, VarId),
}

/// The abstract parameters `params` of a predicate whose arguments have the sorts `sorts`,
/// argument by argument (as many as both give).
pub(super) fn slots(sorts: &[Sort], params: &[VarId]) -> Vec<Slot> {
    let mut next = params.iter().copied();
    let mut out = Vec::new();
    for s in sorts {
        let slot = match s {
            Sort::Array(..) => next.next().zip(next.next()).map(|(k, v)| Slot::Cell(k, v)),
            _ => next.next().map(Slot::Scalar),
        };
        match slot {
            Some(slot) => out.push(slot),
            None => break,
        }
    }
    out
}

/// Whether a sort is one a cell may have: not an array, not a datatype.
fn scalar(s: &Sort) -> bool {
    matches!(s, Sort::Bool | Sort::Int | Sort::Real)
}

/// The abstraction of one clause: the facts it adds.
struct Cells<'s> {
    store: &'s TermStore,
    /// Conjuncts of the abstract constraint, besides the clause's own.
    facts: Vec<TermId>,
}

impl<'s> Cells<'s> {
    fn new(store: &'s TermStore) -> Self {
        Cells {
            store,
            facts: Vec::new(),
        }
    }

    fn clause(mut self, c: &Clause) -> Clause {
        let store = self.store;
        let is_array = |x: &VarId| matches!(store.var_sort(*x), Sort::Array(..));
        let given: BTreeSet<VarId> = c
            .body
            .iter()
            .flat_map(|a| a.args.iter().copied())
            .filter(is_array)
            .collect();
        // The arrays a conjunct defines from others, substituted (all rounds, in order).
        let made: BTreeSet<VarId> = c
            .vars(store)
            .into_iter()
            .filter(|x| is_array(x) && !given.contains(x))
            .collect();
        let mut rounds = Vec::new();
        let constraint = store.eliminate_defined_recorded(&made, c.constraint, &mut rounds);
        let definition = |x: VarId| {
            rounds
                .iter()
                .fold(store.var(x), |t, round| store.substitute(t, round))
        };
        // The head's cells: a new index, the value of the head's array there.
        let equalities = array_equalities(store, constraint);
        let mut head_cells: Vec<(BTreeSet<VarId>, VarId)> = Vec::new();
        let head = match &c.head {
            Head::Atom(h) => Head::Atom(Atom {
                pred: h.pred,
                args: h
                    .args
                    .iter()
                    .flat_map(|&x| {
                        let Sort::Array(..) = store.var_sort(x) else {
                            return vec![x];
                        };
                        let array = definition(x);
                        let (k, v) = self.cell_vars(x);
                        let read = store.app(Op::Select, vec![array, store.var(k)]);
                        self.facts.push(store.eq(store.var(v), read));
                        head_cells.push((related(&equalities, made_from(store, array)), k));
                        vec![k, v]
                    })
                    .collect(),
            }),
            Head::False => Head::False,
        };
        // The reads of the premise and of the head's arrays' definitions (a value written
        // into the head's array may read another array: `c = store(b, i, a[i])`).
        let mut premise = vec![constraint];
        premise.extend(self.facts.iter().copied());
        let reads = reads_by_array(store, push_reads(store, store.and(premise)));
        let mut body = Vec::new();
        for a in &c.body {
            // Each array argument's index in the first instance, and the other indices the
            // clause reads it at, each of which makes one more instance.
            let mut first = Vec::new();
            let mut more = Vec::new();
            for (n, &x) in a.args.iter().enumerate() {
                if !is_array(&x) {
                    continue;
                }
                let reads = reads.get(&x).map_or(&[][..], |r| r.as_slice());
                let index = head_cells
                    .iter()
                    .find(|(from, _)| from.contains(&x))
                    .map(|&(_, k)| store.var(k))
                    .or_else(|| reads.first().copied());
                for &i in reads {
                    if Some(i) != index && !more.contains(&(n, i)) {
                        more.push((n, i));
                    }
                }
                first.push((n, index));
            }
            body.push(self.instance(a, &first, false));
            for &(n, i) in more.iter().take(MAX_INSTANCES - 1) {
                let at: Vec<_> = first
                    .iter()
                    .map(|&(m, index)| (m, if m == n { Some(i) } else { index }))
                    .collect();
                body.push(self.instance(a, &at, true));
            }
        }
        let mut parts = vec![constraint];
        parts.append(&mut self.facts);
        let whole = push_reads(store, store.and(parts));
        let whole = Strip::new(store, whole).term(whole, Polarity::Positive);
        Clause {
            body,
            constraint: ackermann(store, whole),
            head,
        }
    }

    /// An instance of body atom `a`: each array argument (by position) read at its index, or
    /// at a new variable (`None`). In a `copy` (an instance after the first) the other
    /// arguments are new variables equal to the atom's, so that no variable is the argument of
    /// two atoms (the normal form of clauses).
    fn instance(&mut self, a: &Atom, at: &[(usize, Option<TermId>)], copy: bool) -> Atom {
        let store = self.store;
        let mut args = Vec::new();
        for (n, &x) in a.args.iter().enumerate() {
            let Some(&(_, index)) = at.iter().find(|&&(m, _)| m == n) else {
                if copy {
                    let y = store.fresh_copy(x);
                    self.facts.push(store.eq(store.var(y), store.var(x)));
                    args.push(y);
                } else {
                    args.push(x);
                }
                continue;
            };
            let (k, v) = self.cell_vars(x);
            if let Some(t) = index {
                self.facts.push(store.eq(store.var(k), t));
            }
            let read = store.app(Op::Select, vec![store.var(x), store.var(k)]);
            self.facts.push(store.eq(store.var(v), read));
            args.extend([k, v]);
        }
        Atom { pred: a.pred, args }
    }

    /// A new index variable and value variable for a cell of array `x`.
    fn cell_vars(&self, x: VarId) -> (VarId, VarId) {
        let Sort::Array(i, e) = self.store.var_sort(x) else {
            unreachable!("cells are made for arrays only")
        };
        let name = self.store.var_name(x);
        (
            self.store.new_var(&format!("{name}!cell"), *i),
            self.store.new_var(&format!("{name}!at"), *e),
        )
    }
}

/// Where a subformula sits in the clause's premise: under an even number of negations, an
/// odd one, or both (an `ite`'s condition, a Boolean equality).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Polarity {
    Positive,
    Negative,
    Both,
}

impl Polarity {
    fn flip(self) -> Self {
        match self {
            Polarity::Positive => Polarity::Negative,
            Polarity::Negative => Polarity::Positive,
            Polarity::Both => Polarity::Both,
        }
    }
}

/// Takes the arrays out of a clause's premise but for reads of array variables: an equality
/// of arrays where the premise assumes it (positive) becomes the equalities of their reads
/// at every index the clause reads either at (`x = store(a, i, e)` under a disjunction, the
/// merge of an `if`), which it implies; any other subterm that takes an array becomes a new
/// variable of its sort. Each is a weakening of the premise, so the abstract clause still
/// holds of every value the clause's terms have.
struct Strip<'s> {
    store: &'s TermStore,
    /// The indices each array variable is read at in the clause.
    reads: HashMap<VarId, Vec<TermId>>,
    memo: HashMap<(TermId, Polarity), TermId>,
}

impl<'s> Strip<'s> {
    /// The reads of `t`'s array variables, each also at every index an array it is assumed
    /// equal to is read at, transitively: in `c = b ∨ …` and `b = store(a, i, e)`, a read of
    /// `c` at `k` makes `b` read at `k`, so that the second equality relates `c[k]` to `a[k]`
    /// too (nested merges of `if`s).
    fn new(store: &'s TermStore, t: TermId) -> Self {
        let known = reads_by_array(store, t);
        let groups = array_equalities(store, t);
        let mut reads = known.clone();
        for &x in groups.iter().flatten() {
            let at = reads.entry(x).or_default();
            for y in related(&groups, BTreeSet::from([x])) {
                for i in known.get(&y).into_iter().flatten() {
                    if !at.contains(i) {
                        at.push(*i);
                    }
                }
            }
        }
        Strip {
            store,
            reads,
            memo: HashMap::new(),
        }
    }

    fn term(&mut self, t: TermId, polarity: Polarity) -> TermId {
        if let Some(&r) = self.memo.get(&(t, polarity)) {
            return r;
        }
        let store = self.store;
        let is_array = |a: &TermId| matches!(store.sort(*a), Sort::Array(..));
        let r = match &store.get(t).term {
            Term::App(Op::Select, args) if store.as_var(args[0]).is_some() => {
                let index = self.term(args[1], Polarity::Both);
                store.app(Op::Select, vec![args[0], index])
            }
            Term::App(Op::Eq, args) if polarity == Polarity::Positive && is_array(&args[0]) => {
                self.pointwise(args[0], args[1])
            }
            Term::App(_, args) if args.iter().any(is_array) => {
                store.var(store.new_var("array!opaque", store.sort(t)))
            }
            Term::App(op, args) => {
                let args = args
                    .iter()
                    .enumerate()
                    .map(|(n, &a)| {
                        let p = match op {
                            Op::And | Op::Or => polarity,
                            Op::Not => polarity.flip(),
                            Op::Implies if n + 1 < args.len() => polarity.flip(),
                            Op::Implies => polarity,
                            Op::Ite if n > 0 => polarity,
                            _ => Polarity::Both,
                        };
                        self.term(a, p)
                    })
                    .collect();
                store.app(op.clone(), args)
            }
            _ => t,
        };
        self.memo.insert((t, polarity), r);
        r
    }

    /// `a = b` of arrays, assumed: their reads equal at every index the clause reads either
    /// side's variable at (`true` where it reads neither).
    fn pointwise(&mut self, a: TermId, b: TermId) -> TermId {
        let store = self.store;
        let mut at: Vec<TermId> = Vec::new();
        for side in [a, b] {
            for &i in store
                .as_var(side)
                .and_then(|x| self.reads.get(&x))
                .into_iter()
                .flatten()
            {
                if !at.contains(&i) {
                    at.push(i);
                }
            }
        }
        let equal = at.into_iter().map(|i| {
            let read = |x| push_reads(store, store.app(Op::Select, vec![x, i]));
            store.eq(read(a), read(b))
        });
        let equal = store.and(equal.collect::<Vec<_>>());
        self.term(equal, Polarity::Positive)
    }
}

/// Translates models of the cell abstraction back: `P(x, a)` is `∀k. P#(x, k, a[k])`.
struct Back {
    /// The system before the abstraction (same predicate ids).
    orig: System,
}

impl BackTranslator for Back {
    fn model(&self, store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        let mut out = Model::new();
        for (p, interp) in model.iter() {
            let params = self.orig.fresh_params(store, p);
            let mut map: HashMap<VarId, TermId> = HashMap::new();
            let mut bound = Vec::new();
            let sorts = &self.orig.pred(p).sorts;
            for (&x, slot) in params.iter().zip(slots(sorts, &interp.params)) {
                match slot {
                    Slot::Scalar(y) => {
                        map.insert(y, store.var(x));
                    }
                    Slot::Cell(k, v) => {
                        let Sort::Array(i, _) = store.var_sort(x) else {
                            unreachable!("a cell stands for an array argument")
                        };
                        let bound_k = store.new_var(&format!("{}!k", store.var_name(x)), *i);
                        let at = store.app(Op::Select, vec![store.var(x), store.var(bound_k)]);
                        map.insert(k, store.var(bound_k));
                        map.insert(v, at);
                        bound.push(bound_k);
                    }
                }
            }
            // `∀k. A ∧ B` as `(∀k. A) ∧ (∀k. B)`, each conjunct over only the cells it
            // reads: a head of hundreds of lemmas is then checked lemma by lemma, each
            // negation one small instance, instead of one quantifier over all of them.
            let body = store.substitute(interp.body, &map);
            let parts = store.conjuncts(body).into_iter().map(|c| {
                let free = store.free_vars(c);
                let over: Vec<VarId> = bound.iter().copied().filter(|k| free.contains(k)).collect();
                store.quant(Quantifier::Forall, over, c)
            });
            let body = store.and(parts.collect::<Vec<_>>());
            out.set(p, Interp { params, body });
        }
        out
    }

    fn derivation(
        &self,
        _store: &TermStore,
        _derivation: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        Err(BackError::Abstraction("cells"))
    }
}

mod reads;
mod states;
mod templates;
#[cfg(test)]
mod tests;
