//! Models: one interpretation (a formula over parameters) per predicate, their printing, and
//! their validation against a system.

use super::clause_check::check_in_scope;
use super::ground::check_by_ground_instances;
use super::instantiate::check_by_instantiation;
use crate::chc::{Atom, ClauseId, Head, PredId, System};
use crate::clock::Deadline;
use crate::smt::{eliminate_quantifiers, SatResult, Smt};
use crate::term::{print::symbol, TermId, TermPrinter, TermStore, Value, VarId};
use std::collections::BTreeMap;

/// The interpretation of one predicate: `λ params. body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interp {
    /// One variable per argument, in order.
    pub params: Vec<VarId>,
    /// A Boolean term over `params`.
    pub body: TermId,
}

/// A candidate solution of a system. Predicates without an interpretation are `false`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    interps: BTreeMap<PredId, Interp>,
}

impl Model {
    /// The empty model (every predicate `false`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the interpretation of `p`.
    pub fn set(&mut self, p: PredId, interp: Interp) {
        self.interps.insert(p, interp);
    }

    /// The interpretation of `p`, if set.
    pub fn get(&self, p: PredId) -> Option<&Interp> {
        self.interps.get(&p)
    }

    /// The interpretations set, by predicate.
    pub fn iter(&self) -> impl Iterator<Item = (PredId, &Interp)> + '_ {
        self.interps.iter().map(|(p, i)| (*p, i))
    }

    /// The interpretation of an atom: the body with parameters renamed to the atom's arguments.
    pub fn apply(&self, store: &TermStore, atom: &Atom) -> TermId {
        match self.interps.get(&atom.pred) {
            None => store.ff(),
            Some(i) => store.rename(i.body, &i.params, &atom.args),
        }
    }

    /// The model as text in `format`; every format reads back with `witness::read_model`.
    pub fn to_text(&self, store: &TermStore, system: &System, format: ModelFormat) -> String {
        let lines = self.to_smtlib(store, system);
        let wrap = |open: &str| {
            let mut out = String::from(open);
            out.push('\n');
            for line in lines.lines() {
                out.push_str("  ");
                out.push_str(line);
                out.push('\n');
            }
            out.push_str(")\n");
            out
        };
        match format {
            ModelFormat::Lines => lines,
            ModelFormat::SmtLib => wrap("("),
            ModelFormat::ChcComp => wrap("(model"),
        }
    }

    /// SMT-LIB text: one `(define-fun P ((x S) ...) Bool body)` line per predicate of the
    /// system, in declaration order, after a `define-fun-rec` line for each datatype size
    /// function ([`TermStore::size_definition`]) the interpretations use.
    pub fn to_smtlib(&self, store: &TermStore, system: &System) -> String {
        let p = TermPrinter::new(store);
        let mut out = String::new();
        // The size functions the interpretations use, defined first.
        let bodies: Vec<TermId> = self.interps.values().map(|i| i.body).collect();
        for d in store.sized_datatypes(&bodies) {
            out.push_str(&store.size_definition(d));
            out.push('\n');
        }
        for id in system.pred_ids() {
            let name = symbol(&system.pred(id).name);
            let (params, body) = match self.interps.get(&id) {
                Some(i) => {
                    let ps: Vec<String> = i
                        .params
                        .iter()
                        .map(|v| format!("({} {})", p.var(*v), store.var_sort(*v)))
                        .collect();
                    (ps.join(" "), p.term(i.body))
                }
                None => {
                    let ps: Vec<String> = system
                        .pred(id)
                        .sorts
                        .iter()
                        .enumerate()
                        .map(|(k, s)| format!("(x!{k} {s})"))
                        .collect();
                    (ps.join(" "), "false".to_string())
                }
            };
            out.push_str(&format!("(define-fun {name} ({params}) Bool {body})\n"));
        }
        out
    }
}

/// Reads a model (ours, Z3's `define-fun` list or a CHC-COMP `(model ...)` block) for
/// `system`; predicates it does not define are `false`.
pub fn read_model(
    store: &TermStore,
    system: &System,
    src: &str,
) -> Result<Model, crate::syntax::Error> {
    let mut model = Model::new();
    for d in crate::syntax::read_definitions(store, system, src)? {
        model.set(
            d.pred,
            Interp {
                params: d.params,
                body: d.body,
            },
        );
    }
    Ok(model)
}

/// How a model is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModelFormat {
    /// One `(define-fun ...)` per line (Hornbeam's own).
    #[default]
    Lines,
    /// The definitions in parentheses, as SMT-LIB 2.6 `(get-model)` answers (Z3, Golem).
    SmtLib,
    /// `(model (define-fun ...) ...)`, as SMT-LIB 2.5 and CHC-COMP's first editions wrote it.
    ChcComp,
}

/// The outcome of validating a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelCheck {
    /// Every clause holds.
    Valid,
    /// A clause is violated (or could not be checked for a definite reason).
    Invalid {
        /// The first violated clause.
        clause: ClauseId,
        /// What is wrong.
        reason: String,
        /// Values of the clause's variables that break it (body and constraint true, head
        /// false under the model), when the solver gives them in the time left; empty if not.
        values: BTreeMap<VarId, Value>,
    },
    /// The solver could not decide a clause.
    Unknown(String),
}

impl Model {
    /// An equivalent model whose interpretations have no quantifiers where Z3's quantifier
    /// elimination finds them in time (the others stay as they are). Models from other solvers
    /// define predicates by nested existentials whose negation (in a clause head) the solver
    /// cannot decide; their quantifier-free equivalents it can. Each quantified interpretation
    /// gets an equal share of the time left.
    pub fn without_quantifiers(&self, store: &TermStore, deadline: Deadline) -> Model {
        let mut out = self.clone();
        let quantified: Vec<PredId> = self
            .interps
            .iter()
            .filter(|(_, i)| store.has_quantifier(i.body))
            .map(|(p, _)| *p)
            .collect();
        for (k, p) in quantified.iter().enumerate() {
            let share = match deadline.remaining() {
                Some(rem) => rem / (quantified.len() - k) as u32,
                None => std::time::Duration::from_secs(30),
            };
            let interp = &self.interps[p];
            if let Some(body) = eliminate_quantifiers(store, interp.body, deadline.at_most(share)) {
                out.interps.insert(
                    *p,
                    Interp {
                        params: interp.params.clone(),
                        body,
                    },
                );
            }
        }
        out
    }
}

/// How long one try at a clause under a quantified model may take at most (instantiation,
/// then the direct check), before quantifier elimination.
pub const QUANTIFIED_FIRST_TRY: std::time::Duration = std::time::Duration::from_secs(10);

/// Checks `model` against every clause of `system`: a clause `body ∧ φ → head` holds when
/// `φ ∧ M(body) ∧ ¬M(head)` is unsatisfiable. Each clause is checked in a scope of one solver:
/// a fresh Z3 solver per clause cost more than most of these checks (1-2 ms each, and the
/// model's interpretations translated again: on Kind 2's node systems back-translated through
/// inlining, a third of the validation).
///
/// Under a quantified model every clause is first checked by ground instances (the
/// `ground` module: the premise's universal lemmas instantiated at the clause's array indices,
/// the head's negated at fresh constants), which proves the cells' models' clauses in
/// milliseconds where Z3's own instantiation takes seconds; what that leaves undecided goes on
/// as follows. Quantified interpretations (from other solvers, or ours back-translated through
/// inlining) make a clause whose head they interpret a universal problem. Such a clause is
/// first checked by instantiating the head's existentials with the clause's variables (the
/// `instantiate` module), then directly; each try gets half the time left, at most
/// `QUANTIFIED_FIRST_TRY` (10 s). The clauses still undecided are checked once more after the
/// model's quantifiers are eliminated ([`Model::without_quantifiers`]): eliminating first would
/// cost models whose quantifiers the solver handles directly.
pub fn validate_model(
    store: &TermStore,
    system: &System,
    model: &Model,
    deadline: Deadline,
) -> ModelCheck {
    let quantified = model.interps.values().any(|i| store.has_quantifier(i.body));
    let first_try = || match deadline.remaining() {
        Some(rem) if quantified => deadline.at_most((rem / 2).min(QUANTIFIED_FIRST_TRY)),
        _ => deadline.clone(),
    };
    let mut smt = Smt::new(store, deadline.clone());
    // Heads are checked as a whole first until one such check runs out of time.
    let mut whole = Some(WHOLE_FIRST);
    let mut deferred = Vec::new();
    for (cid, _) in system.clauses() {
        let (premise, head) = clause_query(store, system, model, cid);
        if quantified {
            smt.set_deadline(first_try());
            if check_by_ground_instances(&mut smt, premise, head) == SatResult::Unsat {
                continue;
            }
        }
        if store.has_quantifier(head) {
            smt.set_deadline(first_try());
            match check_by_instantiation(&mut smt, premise, head) {
                SatResult::Unsat => continue,
                SatResult::Sat => return invalid(store, cid, premise, head, deadline),
                SatResult::Unknown(_) => {}
            }
        }
        smt.set_deadline(first_try());
        match check_in_scope(&mut smt, premise, head, &mut whole) {
            SatResult::Unsat => {}
            SatResult::Sat => return invalid(store, cid, premise, head, deadline),
            SatResult::Unknown(r) if !quantified || deadline.expired() => {
                return ModelCheck::Unknown(format!("clause {}: {r}", cid.0));
            }
            SatResult::Unknown(_) => deferred.push(cid),
        }
    }
    if deferred.is_empty() {
        return ModelCheck::Valid;
    }
    let half = match deadline.remaining() {
        Some(rem) => deadline.at_most(rem / 2),
        None => deadline.clone(),
    };
    let eliminated = model.without_quantifiers(store, half);
    smt.set_deadline(deadline.clone());
    for cid in deferred {
        let (premise, head) = clause_query(store, system, &eliminated, cid);
        match check_in_scope(&mut smt, premise, head, &mut whole) {
            SatResult::Unsat => {}
            SatResult::Sat => return invalid(store, cid, premise, head, deadline),
            SatResult::Unknown(r) => return ModelCheck::Unknown(format!("clause {}: {r}", cid.0)),
        }
    }
    ModelCheck::Valid
}

/// A violated clause, with values of its variables that break it if the solver finds them in
/// a second of what is left (a quantified head may leave it undecided: no values then).
fn invalid(
    store: &TermStore,
    clause: ClauseId,
    premise: TermId,
    head: TermId,
    deadline: Deadline,
) -> ModelCheck {
    let mut smt = Smt::new(store, deadline.at_most(std::time::Duration::from_secs(1)));
    smt.assert(store.and([premise, store.not(head)]));
    let mut vars = store.free_vars(premise);
    vars.extend(store.free_vars(head));
    let values = match smt.check() {
        SatResult::Sat => smt.values(vars).unwrap_or_default(),
        _ => BTreeMap::new(),
    };
    ModelCheck::Invalid {
        clause,
        reason: "the clause has a counterexample under the model".into(),
        values,
    }
}

/// How long the check of a conjunctive head as a whole may take before its conjuncts are
/// checked one at a time.
const WHOLE_FIRST: std::time::Duration = std::time::Duration::from_millis(50);

/// The premise `φ ∧ M(body)` of clause `cid` under `model`, and its head `M(head)` (`false`
/// for a query).
pub(super) fn clause_query(
    store: &TermStore,
    system: &System,
    model: &Model,
    cid: ClauseId,
) -> (TermId, TermId) {
    let clause = system.clause(cid);
    let mut parts = vec![clause.constraint];
    parts.extend(clause.body.iter().map(|a| model.apply(store, a)));
    let head = match &clause.head {
        Head::Atom(h) => model.apply(store, h),
        Head::False => store.ff(),
    };
    // Sizes of datatype values are never negative (see `TermStore::size_bounds`).
    let mut roots = parts.clone();
    roots.push(head);
    parts.extend(store.size_bounds(&roots));
    (store.and(parts), head)
}
