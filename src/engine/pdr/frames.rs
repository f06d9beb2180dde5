//! The frames of PDR: per predicate, lemmas (negated cubes over its parameters) with the level
//! up to which each is known to hold, and one incremental solver per clause that answers
//! "can this clause, from the frame at level `i` of its body predicate, derive a state in this
//! cube?".
//!
//! Frames are delta-encoded: a lemma at level `k` belongs to `F_1 … F_k`, so `F_i` is the
//! conjunction of the lemmas at level `≥ i` (and `F_0` is `false`). In each solver a lemma is
//! asserted as `act_k → ¬cube`, and a check at level `i` assumes `act_j` for every `j ≥ i`.
//! Must not: decide what to block or learn (that is the engine's loop); it only answers checks.

use crate::chc::{ClauseId, PredId, System};
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use std::collections::{BTreeSet, HashMap};

/// Level of a lemma that holds in every frame (an inductive invariant's conjunct).
pub(super) const INF: usize = usize::MAX;

/// A learned lemma: `¬(∧ cube)` over the parameters of `pred`, valid up to `level`.
#[derive(Clone, Debug)]
pub(super) struct Lemma {
    pub pred: PredId,
    pub cube: Vec<TermId>,
    pub level: usize,
}

/// One clause with a head atom or a query, ready for checks.
struct ClauseSolver<'s> {
    id: ClauseId,
    /// The body predicate and its argument variables (linear systems: at most one).
    body: Option<(PredId, Vec<VarId>)>,
    /// The head predicate and its argument variables (`None` for a query).
    head: Option<(PredId, Vec<VarId>)>,
    constraint: TermId,
    smt: Smt<'s>,
}

/// What a successful check found: the clause and a cube over the body predicate's parameters
/// (empty for a fact) whose every state derives a state of the checked cube.
pub(super) struct Predecessor {
    pub clause: ClauseId,
    pub body: Option<(PredId, Vec<TermId>)>,
}

/// The outcome of a check.
pub(super) enum Check {
    /// A predecessor exists.
    Sat(Predecessor),
    /// No predecessor; the positions of the cube's literals the refutation needed.
    Unsat(BTreeSet<usize>),
    /// The solver gave up.
    Unknown(String),
}

/// Frames and the solvers that read them.
pub(super) struct Frames<'s> {
    store: &'s TermStore,
    /// Parameters of each predicate (what cubes and lemmas are written over).
    pub params: HashMap<PredId, Vec<VarId>>,
    pub lemmas: Vec<Lemma>,
    solvers: Vec<ClauseSolver<'s>>,
    /// Indices into `solvers` of the clauses with each head predicate.
    defining: HashMap<PredId, Vec<usize>>,
    /// Indices into `solvers` of the queries.
    pub queries: Vec<usize>,
    /// Activation literals: `acts[k]` guards lemmas at level `k`; `inf` those at [`INF`].
    acts: Vec<VarId>,
    inf: VarId,
    /// Indicator literals for the literals of a checked cube (reused across checks).
    indicators: Vec<VarId>,
}

impl<'s> Frames<'s> {
    /// Solvers for every clause of a linear `system`, each with its constraint asserted.
    pub fn new(store: &'s TermStore, system: &System, deadline: crate::smt::Deadline) -> Self {
        let params = system
            .pred_ids()
            .map(|p| (p, system.fresh_params(store, p)))
            .collect();
        let mut solvers = Vec::new();
        let mut defining: HashMap<PredId, Vec<usize>> = HashMap::new();
        let mut queries = Vec::new();
        for (id, c) in system.clauses() {
            let mut smt = Smt::new(store, deadline);
            smt.assert(c.constraint);
            let k = solvers.len();
            match c.head_atom() {
                Some(h) => defining.entry(h.pred).or_default().push(k),
                None => queries.push(k),
            }
            solvers.push(ClauseSolver {
                id,
                body: c.body.first().map(|a| (a.pred, a.args.clone())),
                head: c.head_atom().map(|h| (h.pred, h.args.clone())),
                constraint: c.constraint,
                smt,
            });
        }
        Frames {
            store,
            params,
            lemmas: Vec::new(),
            solvers,
            defining,
            queries,
            acts: Vec::new(),
            inf: store.new_var("pdr_inf", Sort::Bool),
            indicators: Vec::new(),
        }
    }

    fn act(&mut self, level: usize) -> VarId {
        if level == INF {
            return self.inf;
        }
        while self.acts.len() <= level {
            let v = self
                .store
                .new_var(&format!("pdr_act{}", self.acts.len()), Sort::Bool);
            self.acts.push(v);
        }
        self.acts[level]
    }

    /// The solvers of clauses whose head is `pred`.
    pub fn defining(&self, pred: PredId) -> Vec<usize> {
        self.defining.get(&pred).cloned().unwrap_or_default()
    }

    /// The clause id of solver `k`.
    pub fn clause_of(&self, k: usize) -> ClauseId {
        self.solvers[k].id
    }

    /// Adds a lemma at `level`, asserting it in every solver whose clause body reads `pred`.
    pub fn add_lemma(&mut self, pred: PredId, cube: Vec<TermId>, level: usize) -> usize {
        self.lemmas.push(Lemma { pred, cube, level });
        let i = self.lemmas.len() - 1;
        self.assert_lemma(i, level);
        i
    }

    /// Raises lemma `i` to `level`.
    pub fn raise(&mut self, i: usize, level: usize) {
        self.lemmas[i].level = level;
        self.assert_lemma(i, level);
    }

    fn assert_lemma(&mut self, i: usize, level: usize) {
        let store = self.store;
        let act = store.var(self.act(level));
        let Lemma { pred, cube, .. } = self.lemmas[i].clone();
        let from = self.params[&pred].clone();
        for s in &mut self.solvers {
            if let Some((p, args)) = &s.body {
                if *p == pred {
                    let lemma = store.not(store.and(cube.iter().copied()));
                    s.smt
                        .assert(store.implies(act, store.rename(lemma, &from, args)));
                }
            }
        }
    }

    /// Checks whether solver `k`'s clause derives a state of `cube` (over its head predicate's
    /// parameters; ignored for a query) from `F_level` of its body predicate (`F_0 = false`),
    /// optionally assuming `¬avoid` of the body state too (relative induction). On success
    /// the predecessor cube is a model-based projection of the clause onto its body arguments.
    pub fn check(
        &mut self,
        k: usize,
        cube: &[TermId],
        level: usize,
        avoid: Option<&[TermId]>,
        want_predecessor: bool,
    ) -> Check {
        let store = self.store;
        if self.solvers[k].body.is_some() && level == 0 {
            return Check::Unsat(BTreeSet::new());
        }
        let mut assume: Vec<TermId> = Vec::new();
        if self.solvers[k].body.is_some() {
            let top = self.acts.len().max(level + 1);
            for j in level..top {
                assume.push(store.var(self.act(j)));
            }
            assume.push(store.var(self.inf));
        }
        while self.indicators.len() < cube.len() {
            let v = store.new_var(&format!("pdr_lit{}", self.indicators.len()), Sort::Bool);
            self.indicators.push(v);
        }
        let s = &mut self.solvers[k];
        s.smt.push();
        let mut ind_of = HashMap::new();
        // What a predecessor must satisfy: the constraint and the cube, over clause variables.
        let mut post = vec![s.constraint];
        if let Some((p, args)) = &s.head {
            let from = &self.params[p];
            for (j, &lit) in cube.iter().enumerate() {
                let ind = store.var(self.indicators[j]);
                let lit = store.rename(lit, from, args);
                s.smt.assert(store.implies(ind, lit));
                assume.push(ind);
                ind_of.insert(ind, j);
                post.push(lit);
            }
        }
        if let (Some(avoid), Some((p, args))) = (avoid, &s.body) {
            let from = &self.params[p];
            let bad = store.and(avoid.iter().copied());
            s.smt.assert(store.not(store.rename(bad, from, args)));
        }
        let out = match s.smt.check_assuming(&assume) {
            SatResult::Unsat => Check::Unsat(
                s.smt
                    .unsat_core()
                    .iter()
                    .filter_map(|t| ind_of.get(t).copied())
                    .collect(),
            ),
            SatResult::Unknown(r) => Check::Unknown(r),
            SatResult::Sat if !want_predecessor => Check::Sat(Predecessor {
                clause: s.id,
                body: None,
            }),
            SatResult::Sat => {
                let body = match &s.body {
                    None => Some(None),
                    Some((p, args)) => {
                        predecessor(store, &mut s.smt, store.and(post.iter().copied()), args).map(
                            |c| {
                                let to = &self.params[p];
                                let c = c.iter().map(|&l| store.rename(l, args, to)).collect();
                                Some((*p, c))
                            },
                        )
                    }
                };
                match body {
                    Some(body) => Check::Sat(Predecessor { clause: s.id, body }),
                    None => Check::Unknown("pdr: no model for a predecessor".into()),
                }
            }
        };
        s.smt.pop(1);
        out
    }
}

/// A cube over `keep` (the body arguments) that holds in the solver's model and all of whose
/// states satisfy `∃ others. formula` (the clause constraint and the target cube): the
/// implicant of a model-based projection. Falls back to the model's values of `keep`.
fn predecessor(
    store: &TermStore,
    smt: &mut Smt<'_>,
    formula: TermId,
    keep: &[VarId],
) -> Option<Vec<TermId>> {
    let keep_vals = smt.values(keep.iter().copied())?;
    let point = || -> Vec<TermId> {
        keep_vals
            .iter()
            .map(|(v, val)| {
                let sort = store.var_sort(*v);
                store.eq(store.var(*v), store.value_term(val, &sort))
            })
            .collect()
    };
    let eliminate: Vec<VarId> = store
        .free_vars(formula)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    let Some(projected) = smt.project(formula, &eliminate) else {
        return Some(point());
    };
    let env: HashMap<VarId, Value> = keep_vals.clone().into_iter().collect();
    match crate::interp::implicant(store, projected, &env) {
        Some(lits) => Some(lits),
        None => Some(point()),
    }
}
