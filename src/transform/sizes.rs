//! The size abstraction of datatypes: every datatype-valued predicate argument and clause
//! variable becomes an integer, its size ([`Op::Size`]: a list's length, a unary number's
//! value, a tree's count of inner nodes), and every constraint becomes a formula over those
//! sizes that it implies (`l = cons(h, t)` gives `|l| = 1 + |t|`, `is-nil l` gives `|l| = 0`,
//! an atom that reads a datatype some other way gives a fresh variable for what it reads).
//! Invariants over lengths (`append(a, b, c) → |c| = |a| + |b|`) are then linear integer
//! arithmetic, which the invariant engines find and the shape facts of the samples cannot say.
//!
//! Not answer-preserving: an over-approximation. A model of the abstract system, its integer
//! parameters replaced by the sizes of the datatype ones, is a model of the system (each
//! abstract clause is implied by its clause once the sizes are put in); its `define-fun-rec`
//! size functions are part of the printed model, and the validator checks it against the
//! original clauses like any other. A derivation of the abstract system is no derivation of
//! the system: its back-translation is [`BackError::Abstraction`].
//!
//! Must not: call a solver, or drop a fact in positive position without replacing it by one it
//! implies (every rewrite below is an implication, never an equivalence it does not need).

use super::{BackError, BackTranslator};
use crate::chc::{Atom, Clause, Head, System};
use crate::clock::Deadline;
use crate::term::{Op, Sort, Term, TermId, TermStore, VarId};
use crate::witness::{Derivation, Interp, Model};
use std::collections::HashMap;

/// Abstracts every datatype to its size (see the module header).
#[derive(Clone, Copy, Debug, Default)]
pub struct SizeAbstraction;

impl SizeAbstraction {
    /// The abstract system and the translator of its models; `None` when no predicate has a
    /// datatype-valued argument (nothing to abstract).
    pub fn apply(
        &self,
        store: &TermStore,
        system: &System,
    ) -> Option<(System, Box<dyn BackTranslator>)> {
        let sized = |s: &Sort| matches!(s, Sort::Datatype(_));
        if !system
            .pred_ids()
            .any(|p| system.pred(p).sorts.iter().any(sized))
        {
            return None;
        }
        let mut out = System::new();
        for p in system.pred_ids() {
            let d = system.pred(p);
            let sorts = d
                .sorts
                .iter()
                .map(|s| if sized(s) { Sort::Int } else { s.clone() })
                .collect();
            out.add_pred(d.name.clone(), sorts);
        }
        for (_, c) in system.clauses() {
            out.add_clause(Abstractor::new(store).clause(c));
        }
        Some((
            out,
            Box::new(Back {
                orig: system.clone(),
            }),
        ))
    }
}

/// The abstraction of one clause: the size variable of each datatype variable, the fresh
/// variables that stand for what atoms read from datatypes, and the facts about them.
struct Abstractor<'s> {
    store: &'s TermStore,
    /// Datatype variable to its size variable.
    sizes: HashMap<VarId, VarId>,
    /// A term that reads a datatype (a selector's value, a tester) to the variable for it.
    opaque: HashMap<TermId, VarId>,
    /// Whether a term has a datatype-sorted subterm.
    mentions: HashMap<TermId, bool>,
    /// Sizes are not negative.
    facts: Vec<TermId>,
}

impl<'s> Abstractor<'s> {
    fn new(store: &'s TermStore) -> Self {
        Abstractor {
            store,
            sizes: HashMap::new(),
            opaque: HashMap::new(),
            mentions: HashMap::new(),
            facts: Vec::new(),
        }
    }

    fn clause(mut self, c: &Clause) -> Clause {
        let body = c.body.iter().map(|a| self.atom(a)).collect();
        let head = match &c.head {
            Head::Atom(h) => Head::Atom(self.atom(h)),
            Head::False => Head::False,
        };
        let mut parts = vec![self.formula(c.constraint, true)];
        parts.append(&mut self.facts);
        Clause {
            body,
            constraint: self.store.and(parts),
            head,
        }
    }

    fn atom(&mut self, a: &Atom) -> Atom {
        let args = a
            .args
            .iter()
            .map(|&x| match self.store.var_sort(x) {
                Sort::Datatype(_) => self.size_var(x),
                _ => x,
            })
            .collect();
        Atom { pred: a.pred, args }
    }

    /// The size variable of datatype variable `x` (made on first use, with `|x| ≥ 0`).
    fn size_var(&mut self, x: VarId) -> VarId {
        if let Some(&n) = self.sizes.get(&x) {
            return n;
        }
        let n = self
            .store
            .new_var(&format!("size!{}", self.store.var_name(x)), Sort::Int);
        self.non_negative(n);
        self.sizes.insert(x, n);
        n
    }

    fn non_negative(&mut self, n: VarId) {
        let store = self.store;
        self.facts.push(store.ge(store.var(n), store.int(0)));
    }

    /// The variable standing for the value of `t`, a term that reads a datatype (sizes of
    /// such terms are not negative either).
    fn opaque(&mut self, t: TermId) -> TermId {
        if let Some(&v) = self.opaque.get(&t) {
            return self.store.var(v);
        }
        let (sort, is_size) = match self.store.sort(t) {
            Sort::Datatype(_) => (Sort::Int, true),
            s => (s, false),
        };
        let v = self.store.new_var("read", sort);
        if is_size {
            self.non_negative(v);
        }
        self.opaque.insert(t, v);
        self.store.var(v)
    }

    fn mentions_datatype(&mut self, t: TermId) -> bool {
        if let Some(&m) = self.mentions.get(&t) {
            return m;
        }
        let node = self.store.get(t);
        let m = matches!(self.store.sort(t), Sort::Datatype(_))
            || match &node.term {
                Term::App(_, args) => args.iter().any(|&a| self.mentions_datatype(a)),
                Term::Quant(_, vs, body) => {
                    vs.iter()
                        .any(|&v| matches!(self.store.var_sort(v), Sort::Datatype(_)))
                        || self.mentions_datatype(*body)
                }
                _ => false,
            };
        self.mentions.insert(t, m);
        m
    }

    /// The size of `t`, a term of a datatype sort, as a term over size variables.
    fn size(&mut self, t: TermId) -> TermId {
        let node = self.store.get(t);
        match &node.term {
            Term::Var(x) => {
                let n = self.size_var(*x);
                self.store.var(n)
            }
            Term::App(Op::Ctor(c), args) => {
                let fields = self.store.size_fields(*c);
                if fields.is_empty() {
                    return self.store.int(0);
                }
                let mut parts = vec![self.store.int(1)];
                for i in fields {
                    parts.push(self.size(args[i as usize]));
                }
                self.store.add(parts)
            }
            _ => self.opaque(t),
        }
    }

    /// A term of a sort other than a datatype with what it reads from datatypes replaced by
    /// variables: arithmetic and Boolean structure is kept, selectors, testers and anything
    /// with a datatype argument become opaque.
    fn plain(&mut self, t: TermId) -> TermId {
        if !self.mentions_datatype(t) {
            return t;
        }
        let node = self.store.get(t);
        match &node.term {
            Term::App(op, args)
                if !matches!(op, Op::Selector(..) | Op::Tester(_) | Op::Size(_))
                    && args
                        .iter()
                        .all(|&a| !matches!(self.store.sort(a), Sort::Datatype(_))) =>
            {
                let args = args.iter().map(|&a| self.plain(a)).collect();
                self.store.app(op.clone(), args)
            }
            _ => self.opaque(t),
        }
    }

    /// A formula implied by `t` (`positive`) or by `¬t` (not `positive`), over sizes.
    fn formula(&mut self, t: TermId, positive: bool) -> TermId {
        let store = self.store;
        let literal = |f: TermId| if positive { f } else { store.not(f) };
        if !self.mentions_datatype(t) {
            return literal(t);
        }
        let node = store.get(t);
        let Term::App(op, args) = &node.term else {
            // A quantifier over datatypes: nothing is kept.
            return store.tt();
        };
        match op {
            Op::Not => self.formula(args[0], !positive),
            Op::And | Op::Or => {
                let parts: Vec<TermId> = args.iter().map(|&a| self.formula(a, positive)).collect();
                if (*op == Op::And) == positive {
                    store.and(parts)
                } else {
                    store.or(parts)
                }
            }
            Op::Implies => {
                let (a, b) = (
                    self.formula(args[0], !positive),
                    self.formula(args[1], positive),
                );
                if positive {
                    store.or([a, b])
                } else {
                    store.and([a, b])
                }
            }
            Op::Ite if store.sort(t) == Sort::Bool => {
                let (c, nc) = (self.formula(args[0], true), self.formula(args[0], false));
                let (a, b) = (
                    self.formula(args[1], positive),
                    self.formula(args[2], positive),
                );
                store.or([store.and([c, a]), store.and([nc, b])])
            }
            Op::Eq if store.sort(args[0]) == Sort::Bool => {
                let (a, na) = (self.formula(args[0], true), self.formula(args[0], false));
                let (b, nb) = (self.formula(args[1], true), self.formula(args[1], false));
                if positive {
                    store.or([store.and([a, b]), store.and([na, nb])])
                } else {
                    store.or([store.and([a, nb]), store.and([na, b])])
                }
            }
            Op::Eq | Op::Distinct if matches!(store.sort(args[0]), Sort::Datatype(_)) => {
                // Equal values have equal sizes; different values may have any sizes.
                if (*op == Op::Eq) != positive {
                    return store.tt();
                }
                let sizes: Vec<TermId> = args.iter().map(|&a| self.size(a)).collect();
                store.and(sizes.windows(2).map(|w| store.eq(w[0], w[1])))
            }
            Op::Tester(c) => {
                let ctors = store.datatype(store.ctor(*c).datatype).ctors;
                let recursive = |k: &crate::term::CtorId| !store.size_fields(*k).is_empty();
                let others: Vec<bool> = ctors.iter().filter(|k| *k != c).map(recursive).collect();
                let n = self.size(args[0]);
                let (zero, one) = (store.int(0), store.int(1));
                // The constructors `t` may have: a recursive one has size ≥ 1, another size 0.
                let possible = if positive { vec![recursive(c)] } else { others };
                if possible.iter().all(|&r| r) {
                    store.ge(n, one)
                } else if possible.iter().all(|&r| !r) {
                    store.eq(n, zero)
                } else {
                    store.tt()
                }
            }
            _ => literal(self.plain(t)),
        }
    }
}

/// Back-translation of [`SizeAbstraction`].
struct Back {
    /// The system before the abstraction (same predicate ids).
    orig: System,
}

impl BackTranslator for Back {
    fn model(&self, store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        let mut out = Model::new();
        for (p, interp) in model.iter() {
            let params = self.orig.fresh_params(store, p);
            let map: HashMap<VarId, TermId> = interp
                .params
                .iter()
                .zip(&params)
                .map(|(&abstract_param, &x)| {
                    let x = store.var(x);
                    let value = match store.sort(x) {
                        Sort::Datatype(_) => store.size(x),
                        _ => x,
                    };
                    (abstract_param, value)
                })
                .collect();
            out.set(
                p,
                Interp {
                    params,
                    body: store.substitute(interp.body, &map),
                },
            );
        }
        out
    }

    fn derivation(
        &self,
        _store: &TermStore,
        _derivation: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        Err(BackError::Abstraction("sizes"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chc::PredId;

    /// `List = nil | cons(head: Int, tail: List)` in a fresh store: (sort, nil, cons).
    fn list(store: &TermStore) -> (Sort, crate::term::CtorId, crate::term::CtorId) {
        let sorts = store.declare_datatypes(&["List"]);
        let Sort::Datatype(ds) = &sorts[0] else {
            panic!("a datatype sort")
        };
        let nil = store.add_constructor(ds.id, "nil", vec![]);
        let cons = store.add_constructor(
            ds.id,
            "cons",
            vec![
                ("head".into(), Sort::Int),
                ("tail".into(), sorts[0].clone()),
            ],
        );
        (sorts[0].clone(), nil, cons)
    }

    #[test]
    fn constructor_equations_become_size_equations() {
        let store = TermStore::new();
        let (list, nil, cons) = list(&store);
        let mut sys = System::new();
        let p = sys.add_pred("len", vec![list.clone(), Sort::Int]);
        let (l, t, h, n) = (
            store.new_var("l", list.clone()),
            store.new_var("t", list.clone()),
            store.new_var("h", Sort::Int),
            store.new_var("n", Sort::Int),
        );
        let (lv, tv, hv, nv) = (store.var(l), store.var(t), store.var(h), store.var(n));
        // len(t, n) ∧ l = cons(h, t) ∧ head(l) > 0 ∧ ¬is-nil(l) → len(l, n + 1)
        let cons_ht = store.app(Op::Ctor(cons), vec![hv, tv]);
        let head_l = store.app(Op::Selector(cons, 0), vec![lv]);
        let is_nil = store.app(Op::Tester(nil), vec![lv]);
        let m = store.new_var("m", Sort::Int);
        sys.add_clause(Clause {
            body: vec![Atom {
                pred: p,
                args: vec![t, n],
            }],
            constraint: store.and([
                store.eq(lv, cons_ht),
                store.gt(head_l, store.int(0)),
                store.not(is_nil),
                store.eq(store.var(m), store.add([nv, store.int(1)])),
            ]),
            head: Head::Atom(Atom {
                pred: p,
                args: vec![l, m],
            }),
        });
        let (abs, _) = SizeAbstraction
            .apply(&store, &sys)
            .expect("a datatype argument");
        assert_eq!(abs.pred(PredId(0)).sorts, vec![Sort::Int, Sort::Int]);
        let printed = store.display(abs.clause(crate::chc::ClauseId(0)).constraint);
        for part in [
            "(= size!l (+ size!t 1))",
            "(> read 0)",
            "(>= size!l 1)",
            "(>= size!t 0)",
        ] {
            assert!(printed.contains(part), "{part} in {printed}");
        }
    }

    #[test]
    fn disequalities_of_datatypes_say_nothing_and_models_read_sizes() {
        let store = TermStore::new();
        let (list, _, _) = list(&store);
        let mut sys = System::new();
        let p = sys.add_pred("p", vec![list.clone()]);
        let (a, b) = (store.new_var("a", list.clone()), store.new_var("b", list));
        sys.add_clause(Clause {
            body: vec![],
            constraint: store.not(store.eq(store.var(a), store.var(b))),
            head: Head::Atom(Atom {
                pred: p,
                args: vec![a],
            }),
        });
        let (abs, back) = SizeAbstraction
            .apply(&store, &sys)
            .expect("a datatype argument");
        let c = abs.clause(crate::chc::ClauseId(0)).constraint;
        assert_eq!(store.display(c), "(>= size!a 0)");
        // The abstract model `p(n) = n ≥ 0` reads `p(x) = size(x) ≥ 0`.
        let n = store.new_var("n", Sort::Int);
        let mut model = Model::new();
        model.set(
            p,
            Interp {
                params: vec![n],
                body: store.ge(store.var(n), store.int(0)),
            },
        );
        let back = back.model(&store, model, Deadline::none());
        let text = back.to_smtlib(&store, &sys);
        assert!(
            text.starts_with("(define-fun-rec size!List ((x List)) Int"),
            "{text}"
        );
        assert!(text.contains("(>= (size!List "), "{text}");
        assert!(back
            .get(p)
            .is_some_and(|i| store.sizes_in(&[i.body]).len() == 1));
    }
}
