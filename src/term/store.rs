//! The term store: hash-consing, variables, sort inference and smart constructors.
//!
//! The store uses interior mutability so that code holding `&TermStore` (engines, validators)
//! can build terms; it is deliberately neither `Send` nor `Sync`: one store per thread (terms
//! cross threads as snapshots, see `transfer.rs`). The smart
//! constructors do only local, obviously-sound rewrites (constant folding, flattening,
//! neutral and absorbing elements); anything deeper belongs to the SMT layer.

use super::{Op, Quantifier, Sort, Term, TermId, VarId};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Sums, conjunctions and disjunctions are flattened up to this many arguments (see
/// [`TermStore::add`] and [`TermStore::and`]).
pub(super) const MAX_FLAT: usize = 1024;

/// A term together with its sort, as stored.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TermNode {
    /// The term's shape.
    pub term: Term,
    /// Its sort.
    pub sort: Sort,
}

#[derive(Debug)]
struct VarInfo {
    name: Rc<str>,
    sort: Sort,
    /// The variable this one is a [`TermStore::fresh_copy`] of.
    copy_of: Option<VarId>,
}

#[derive(Default, Debug)]
struct Inner {
    nodes: Vec<Rc<TermNode>>,
    index: HashMap<Rc<TermNode>, TermId>,
    vars: Vec<VarInfo>,
    names: HashSet<Rc<str>>,
    /// For each requested base name, the next `!n` suffix to try: fresh names are found in
    /// amortised constant time however often a name is reused.
    next_suffix: HashMap<Rc<str>, u32>,
}

/// `name` without the `!n` suffixes that making names unique added.
fn base_name(name: &str) -> &str {
    let mut base = name;
    while let Some((stem, n)) = base.rsplit_once('!') {
        if stem.is_empty() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        base = stem;
    }
    base
}

/// An explicit, per-thread store of hash-consed terms and variables.
#[derive(Default, Debug)]
pub struct TermStore {
    inner: RefCell<Inner>,
    /// Datatype declarations (see `datatype.rs`).
    pub(super) datatypes: RefCell<super::datatype::Datatypes>,
}

impl TermStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    // ----- variables -------------------------------------------------------------------

    /// A new variable. Names are made unique in the store (a clash gets a `!n` suffix), so
    /// printed terms never confuse two variables.
    pub fn new_var(&self, name: &str, sort: Sort) -> VarId {
        let mut inner = self.inner.borrow_mut();
        let mut candidate: Rc<str> = Rc::from(name);
        if inner.names.contains(&candidate) {
            // Suffixes below the remembered one are all taken; a user's own `x!7` may still
            // take one above it, hence the loop.
            let mut n = inner.next_suffix.get(name).copied().unwrap_or(1);
            loop {
                candidate = Rc::from(format!("{name}!{n}"));
                n += 1;
                if !inner.names.contains(&candidate) {
                    break;
                }
            }
            inner.next_suffix.insert(Rc::from(name), n);
        }
        inner.names.insert(candidate.clone());
        let id = VarId(inner.vars.len() as u32);
        inner.vars.push(VarInfo {
            name: candidate,
            sort,
            copy_of: None,
        });
        id
    }

    /// A fresh variable of `v`'s sort, named after `v` without the `!n` suffixes that earlier
    /// copies added (so names stay short however often a variable is copied).
    pub fn fresh_copy(&self, v: VarId) -> VarId {
        let copy = self.new_var(base_name(&self.var_name(v)), self.var_sort(v));
        self.inner.borrow_mut().vars[copy.0 as usize].copy_of = Some(v);
        copy
    }

    /// The variable `v` is a [`TermStore::fresh_copy`] of, if it is one: the renamings of
    /// transformations leave this trail, which the model validator follows to instantiate a
    /// renamed existential with the variable it stands for.
    pub fn copy_of(&self, v: VarId) -> Option<VarId> {
        self.inner.borrow().vars[v.0 as usize].copy_of
    }

    /// A new variable named `name` if that is free, else named after it as
    /// [`TermStore::fresh_copy`] names copies (a variable that comes from another store).
    pub fn new_var_like(&self, name: &str, sort: Sort) -> VarId {
        let taken = self.inner.borrow().names.contains(name);
        self.new_var(if taken { base_name(name) } else { name }, sort)
    }

    /// The variable's (unique) name.
    pub fn var_name(&self, v: VarId) -> Rc<str> {
        self.inner.borrow().vars[v.0 as usize].name.clone()
    }

    /// The variable's sort.
    pub fn var_sort(&self, v: VarId) -> Sort {
        self.inner.borrow().vars[v.0 as usize].sort.clone()
    }

    /// Number of variables created so far.
    pub fn num_vars(&self) -> usize {
        self.inner.borrow().vars.len()
    }

    // ----- raw access ------------------------------------------------------------------

    /// The stored node of a term.
    pub fn get(&self, t: TermId) -> Rc<TermNode> {
        self.inner.borrow().nodes[t.0 as usize].clone()
    }

    /// The sort of a term.
    pub fn sort(&self, t: TermId) -> Sort {
        self.inner.borrow().nodes[t.0 as usize].sort.clone()
    }

    /// Number of distinct terms in the store.
    pub fn len(&self) -> usize {
        self.inner.borrow().nodes.len()
    }

    /// Whether the store holds no term.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Interns a term exactly as given (no simplification). The arguments must be well sorted;
    /// the sort is inferred from the operator and the first arguments.
    pub fn intern(&self, term: Term) -> TermId {
        let sort = self.infer_sort(&term);
        let node = TermNode { term, sort };
        let mut inner = self.inner.borrow_mut();
        if let Some(&id) = inner.index.get(&node) {
            return id;
        }
        let id = TermId(inner.nodes.len() as u32);
        let node = Rc::new(node);
        inner.nodes.push(node.clone());
        inner.index.insert(node, id);
        id
    }

    fn infer_sort(&self, term: &Term) -> Sort {
        match term {
            Term::Var(v) => self.var_sort(*v),
            Term::Bool(_) | Term::Quant(..) => Sort::Bool,
            Term::Int(_) => Sort::Int,
            Term::Real(_) => Sort::Real,
            Term::App(op, args) => match op {
                Op::Not
                | Op::And
                | Op::Or
                | Op::Implies
                | Op::Xor
                | Op::Eq
                | Op::Distinct
                | Op::Le
                | Op::Lt
                | Op::Ge
                | Op::Gt
                | Op::IsInt => Sort::Bool,
                Op::Ite => self.sort(args[1]),
                Op::Add | Op::Sub | Op::Neg | Op::Mul | Op::Abs => {
                    if args.iter().any(|&a| self.sort(a) == Sort::Real) {
                        Sort::Real
                    } else {
                        Sort::Int
                    }
                }
                Op::RealDiv | Op::ToReal => Sort::Real,
                Op::IntDiv | Op::Mod | Op::ToInt => Sort::Int,
                Op::Select => match self.sort(args[0]) {
                    Sort::Array(_, e) => *e,
                    other => other,
                },
                Op::Store => self.sort(args[0]),
                Op::ConstArray(s) => s.clone(),
                Op::Tester(_) => Sort::Bool,
                Op::Size(_) => Sort::Int,
                Op::Ctor(c) => self.ctor_sort(*c),
                Op::Selector(c, i) => self.ctor(*c).fields[*i as usize].1.clone(),
            },
        }
    }

    // ----- leaves ----------------------------------------------------------------------

    /// The term of a variable.
    pub fn var(&self, v: VarId) -> TermId {
        self.intern(Term::Var(v))
    }

    /// A Boolean literal.
    pub fn bool(&self, b: bool) -> TermId {
        self.intern(Term::Bool(b))
    }

    /// `true`.
    pub fn tt(&self) -> TermId {
        self.bool(true)
    }

    /// `false`.
    pub fn ff(&self) -> TermId {
        self.bool(false)
    }

    /// An integer literal.
    pub fn int(&self, i: impl Into<BigInt>) -> TermId {
        self.intern(Term::Int(i.into()))
    }

    /// A real literal.
    pub fn real(&self, r: BigRational) -> TermId {
        self.intern(Term::Real(r))
    }

    /// The numeral `n` of sort `sort` (Int or Real).
    pub fn numeral(&self, n: impl Into<BigInt>, sort: &Sort) -> TermId {
        let n = n.into();
        match sort {
            Sort::Real => self.real(BigRational::from_integer(n)),
            _ => self.int(n),
        }
    }

    /// The Boolean value of a literal term, if it is one.
    pub fn as_bool(&self, t: TermId) -> Option<bool> {
        match self.get(t).term {
            Term::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The numeric value of an Int or Real literal, as a rational.
    pub fn as_number(&self, t: TermId) -> Option<BigRational> {
        match &self.get(t).term {
            Term::Int(i) => Some(BigRational::from_integer(i.clone())),
            Term::Real(r) => Some(r.clone()),
            _ => None,
        }
    }

    /// The variable of a variable term.
    pub fn as_var(&self, t: TermId) -> Option<VarId> {
        match self.get(t).term {
            Term::Var(v) => Some(v),
            _ => None,
        }
    }

    pub(super) fn number(&self, r: BigRational, sort: &Sort) -> TermId {
        match sort {
            Sort::Int if r.is_integer() => self.int(r.to_integer()),
            _ => self.real(r),
        }
    }

    // ----- Boolean connectives ---------------------------------------------------------

    /// Negation, with double negation and literals folded.
    pub fn not(&self, t: TermId) -> TermId {
        let node = self.get(t);
        match &node.term {
            Term::Bool(b) => self.bool(!b),
            Term::App(Op::Not, args) => args[0],
            _ => self.intern(Term::App(Op::Not, Box::new([t]))),
        }
    }

    /// Conjunction: flattened (up to `MAX_FLAT` = 1024 arguments), `true` dropped, `false`
    /// absorbing, duplicates removed, complementary literals give `false`.
    pub fn and(&self, args: impl IntoIterator<Item = TermId>) -> TermId {
        self.junction(Op::And, args)
    }

    /// Disjunction, dual to [`TermStore::and`].
    pub fn or(&self, args: impl IntoIterator<Item = TermId>) -> TermId {
        self.junction(Op::Or, args)
    }

    fn junction(&self, op: Op, args: impl IntoIterator<Item = TermId>) -> TermId {
        let unit = op == Op::And;
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        // Nested junctions already spliced in: a shared one is visited once (the connective is
        // idempotent), so flattening costs the DAG's size, not its unfolding.
        let mut spliced = HashSet::new();
        let mut stack: Vec<TermId> = args.into_iter().collect();
        stack.reverse();
        while let Some(a) = stack.pop() {
            let node = self.get(a);
            match &node.term {
                Term::Bool(b) if *b == unit => continue,
                Term::Bool(_) => return self.bool(!unit),
                // Spliced in only while the result stays short (as for sums): growing a long
                // conjunction one conjunct at a time would otherwise copy it at every step.
                Term::App(o, inner)
                    if *o == op && out.len() + stack.len() + inner.len() <= MAX_FLAT =>
                {
                    if spliced.insert(a) {
                        stack.extend(inner.iter().rev());
                    }
                    continue;
                }
                _ => {}
            }
            if seen.insert(a) {
                out.push(a);
            }
        }
        for &a in &out {
            if let Term::App(Op::Not, inner) = &self.get(a).term {
                if seen.contains(&inner[0]) {
                    return self.bool(!unit);
                }
            }
        }
        match out.len() {
            0 => self.bool(unit),
            1 => out[0],
            _ => self.intern(Term::App(op, out.into_boxed_slice())),
        }
    }

    /// `a => b`, as `(or (not a) b)`.
    pub fn implies(&self, a: TermId, b: TermId) -> TermId {
        let na = self.not(a);
        self.or([na, b])
    }

    /// If-then-else with literal conditions and equal branches folded.
    pub fn ite(&self, c: TermId, t: TermId, e: TermId) -> TermId {
        if let Some(b) = self.as_bool(c) {
            return if b { t } else { e };
        }
        if t == e {
            return t;
        }
        if self.sort(t) == Sort::Bool {
            match (self.as_bool(t), self.as_bool(e)) {
                (Some(true), Some(false)) => return c,
                (Some(false), Some(true)) => return self.not(c),
                (Some(true), None) => return self.or([c, e]),
                (Some(false), None) => {
                    let nc = self.not(c);
                    return self.and([nc, e]);
                }
                (None, Some(true)) => {
                    let nc = self.not(c);
                    return self.or([nc, t]);
                }
                (None, Some(false)) => return self.and([c, t]),
                _ => {}
            }
        }
        self.intern(Term::App(Op::Ite, Box::new([c, t, e])))
    }

    /// Equality, folded on identical terms, on literals and on a term against its negation.
    pub fn eq(&self, a: TermId, b: TermId) -> TermId {
        if a == b {
            return self.tt();
        }
        let (na, nb) = (self.get(a), self.get(b));
        match (&na.term, &nb.term) {
            (Term::Bool(x), Term::Bool(y)) => return self.bool(x == y),
            (Term::Bool(true), _) => return b,
            (_, Term::Bool(true)) => return a,
            (Term::Bool(false), _) => return self.not(b),
            (_, Term::Bool(false)) => return self.not(a),
            _ => {}
        }
        if let (Some(x), Some(y)) = (self.as_number(a), self.as_number(b)) {
            return self.bool(x == y);
        }
        // `¬p = p` (what the one-point rule leaves of a definition `¬(x = e)` of a Boolean).
        let negation_of = |n: &Term, t: TermId| matches!(n, Term::App(Op::Not, x) if x[0] == t);
        if negation_of(&na.term, b) || negation_of(&nb.term, a) {
            return self.ff();
        }
        // Operands keep their written order: ordering them by id would make printing depend on
        // the order in which terms were created (and so change across a print/parse round trip).
        self.intern(Term::App(Op::Eq, Box::new([a, b])))
    }

    // ----- generic ---------------------------------------------------------------------

    /// Applies `op` through the smart constructor for it (the generic entry point used by the
    /// parser's lowering and by [`TermStore::simplify`]).
    pub fn app(&self, op: Op, args: Vec<TermId>) -> TermId {
        match op {
            Op::Not => self.not(args[0]),
            Op::And => self.and(args),
            Op::Or => self.or(args),
            Op::Implies => {
                // right-associative chain: a => b => c  ==  a => (b => c)
                let mut it = args.into_iter().rev();
                let last = it.next().expect("implies needs arguments");
                it.fold(last, |acc, a| self.implies(a, acc))
            }
            Op::Ite => self.ite(args[0], args[1], args[2]),
            Op::Eq if args.len() == 2 => self.eq(args[0], args[1]),
            Op::Eq => {
                let eqs: Vec<_> = args.windows(2).map(|w| self.eq(w[0], w[1])).collect();
                self.and(eqs)
            }
            Op::Distinct if args.len() == 2 => {
                let e = self.eq(args[0], args[1]);
                self.not(e)
            }
            Op::Add => self.add(args),
            Op::Mul => self.mul(args),
            Op::Sub if args.len() == 1 => self.neg(args[0]),
            Op::Sub if args.len() == 2 => self.sub(args[0], args[1]),
            Op::Sub => {
                let mut it = args.into_iter();
                let first = it.next().expect("sub needs arguments");
                it.fold(first, |acc, a| self.sub(acc, a))
            }
            Op::Neg => self.neg(args[0]),
            Op::Le | Op::Lt | Op::Ge | Op::Gt if args.len() == 2 => self.cmp(op, args[0], args[1]),
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                let cs: Vec<_> = args
                    .windows(2)
                    .map(|w| self.cmp(op.clone(), w[0], w[1]))
                    .collect();
                self.and(cs)
            }
            Op::IntDiv | Op::Mod | Op::RealDiv => self.division(op, args),
            Op::Abs => match self.as_number(args[0]) {
                Some(x) => self.number(x.abs(), &self.sort(args[0])),
                None => self.intern(Term::App(op, args.into_boxed_slice())),
            },
            Op::ToReal => match self.as_number(args[0]) {
                Some(x) => self.real(x),
                None => self.intern(Term::App(op, args.into_boxed_slice())),
            },
            // A selector or tester of a constructor application is decided locally (a selector
            // of another constructor is unspecified and stays as it is).
            Op::Selector(c, i) => match &self.get(args[0]).term {
                Term::App(Op::Ctor(d), xs) if *d == c => xs[i as usize],
                _ => self.intern(Term::App(op, args.into_boxed_slice())),
            },
            Op::Tester(c) => match &self.get(args[0]).term {
                Term::App(Op::Ctor(d), _) => self.bool(*d == c),
                _ => self.intern(Term::App(op, args.into_boxed_slice())),
            },
            // The size of a constructor application is unfolded one step.
            Op::Size(_) => match &self.get(args[0]).term {
                Term::App(Op::Ctor(c), xs) => self.size_of_ctor(*c, xs),
                _ => self.intern(Term::App(op, args.into_boxed_slice())),
            },
            _ => self.intern(Term::App(op, args.into_boxed_slice())),
        }
    }

    fn division(&self, op: Op, args: Vec<TermId>) -> TermId {
        if args.len() == 2 {
            if let (Some(x), Some(y)) = (self.as_number(args[0]), self.as_number(args[1])) {
                if !y.is_zero() {
                    return match op {
                        Op::RealDiv => self.real(x / y),
                        Op::IntDiv => {
                            self.int(super::eval::euclid_div(&x.to_integer(), &y.to_integer()))
                        }
                        _ => self.int(super::eval::euclid_mod(&x.to_integer(), &y.to_integer())),
                    };
                }
            }
            if op == Op::RealDiv {
                if let Some(y) = self.as_number(args[1]) {
                    if y.is_one() {
                        return args[0];
                    }
                }
            }
            return self.intern(Term::App(op, args.into_boxed_slice()));
        }
        // left-associative chain
        let mut it = args.into_iter();
        let first = it.next().expect("division needs arguments");
        it.fold(first, |acc, a| self.division(op.clone(), vec![acc, a]))
    }

    /// A quantified formula over fresh bound variables.
    pub fn quant(&self, q: Quantifier, vars: Vec<VarId>, body: TermId) -> TermId {
        if vars.is_empty() {
            return body;
        }
        self.intern(Term::Quant(q, vars.into_boxed_slice(), body))
    }

    /// The conjuncts of a term (the term itself unless it is an `and`).
    pub fn conjuncts(&self, t: TermId) -> Vec<TermId> {
        match &self.get(t).term {
            Term::App(Op::And, args) => args.to_vec(),
            Term::Bool(true) => Vec::new(),
            _ => vec![t],
        }
    }
}
