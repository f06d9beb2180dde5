//! The frames of PDR: per predicate, lemmas (negated cubes over its parameters) with the level
//! up to which each is known to hold, and one incremental solver per clause (a slot of a
//! [`Pool`], so that systems of many clauses share a bounded number of Z3 solvers) that answers
//! "can this clause, from the frames (or given states) of its body predicates, derive a state
//! in this cube?".
//!
//! Frames are delta-encoded: a lemma at level `k` belongs to `F_1 … F_k`, so `F_i` is the
//! conjunction of the lemmas at level `≥ i` (and `F_0` is `false`); seeds sit at level [`INF`],
//! in every frame. In each solver a lemma is asserted as `act_k → ¬cube` for every body atom of
//! its predicate (a seed without the guard), and a check at level `i` assumes `act_j` for every
//! `j ≥ i`. Predecessor cubes are projections of the implicant a model picks, normalised
//! (constants propagated through equalities, literals they decide dropped).
//!
//! Must not: decide what to block, reach or learn (that is the engine's loop); it only answers
//! checks and projects their models.

use crate::chc::{ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::engine::FrameLemmas;
use crate::smt::{Pool, SatResult};
use crate::term::{Op, Sort, Term, TermId, TermStore, Value, VarId};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The level of lemmas that hold in every frame (seeds): asserted without an activation
/// literal, never propagated.
pub(super) const INF: usize = usize::MAX;

/// A learned lemma: `¬(∧ cube)` over the parameters of `pred`, valid up to `level` (level 0:
/// retired, subsumed by a stronger lemma).
#[derive(Clone, Debug)]
pub(super) struct Lemma {
    pub pred: PredId,
    pub cube: Vec<TermId>,
    pub level: usize,
    /// Why the lemma did not move up the last time it was tried: a derivation of a cube
    /// state from `F_level`.
    pub blocker: Option<BodyStates>,
}

/// The body states of one clause derivation: the solver and the values of its body atoms'
/// arguments. Frames only grow stronger, so while these states stay inside a frame, the
/// derivation does too.
#[derive(Clone, Debug)]
pub(super) struct BodyStates {
    pub solver: usize,
    pub values: BTreeMap<VarId, Value>,
}

/// One clause, ready for checks on its slot of the frames' pool (slot `k` for `solvers[k]`).
pub(super) struct ClauseSolver {
    pub id: ClauseId,
    /// The body atoms: predicate and argument variables.
    pub body: Vec<(PredId, Vec<VarId>)>,
    /// The head predicate and its argument variables (`None` for a query).
    pub head: Option<(PredId, Vec<VarId>)>,
    pub constraint: TermId,
}

/// What the body states of a check are drawn from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source<'a> {
    /// `F_level` of each body predicate (`F_0 = false`), optionally outside `avoid` (a cube
    /// over the head predicate's parameters, excluded from every body atom of that predicate:
    /// relative induction), preferring models where the `prefer` formulas (over the clause
    /// variables: body states known to be derivable) hold, as many as can.
    Frames {
        level: usize,
        avoid: Option<&'a [TermId]>,
        prefer: &'a [TermId],
    },
    /// The given formulas over the clause variables (reach facts of the body atoms).
    Given(&'a [TermId]),
}

/// The outcome of a check.
pub(super) enum Check {
    /// Satisfiable: the solver's scope stays open for [`Frames::values`] and
    /// [`Frames::project`] until [`Frames::close`].
    Sat,
    /// No such derivation; the positions of the cube's literals the refutation needed.
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
    pub solvers: Vec<ClauseSolver>,
    /// The clauses' solvers: slot `k` for `solvers[k]`.
    pool: Pool<'s>,
    /// Indices into `solvers` of the clauses with each head predicate.
    defining: HashMap<PredId, Vec<usize>>,
    /// Indices into `solvers` of the queries.
    pub queries: Vec<usize>,
    /// Activation literals: `acts[k]` guards lemmas at level `k`.
    acts: Vec<VarId>,
    /// Indicator literals for the literals of a checked cube (reused across checks).
    indicators: Vec<VarId>,
    /// Indicator literals for preferred formulas.
    preferred: Vec<VarId>,
}

impl<'s> Frames<'s> {
    /// Solvers for every clause of `system`, each with its constraint asserted; `None` when
    /// `deadline` passes (or is cancelled) first. On systems of many clauses, Z3's first
    /// assertion into each new solver (about a millisecond) makes this take tens of
    /// milliseconds, which a portfolio thread stopped by a winner must not wait out.
    pub fn new(store: &'s TermStore, system: &System, deadline: Deadline) -> Option<Self> {
        let params = system
            .pred_ids()
            .map(|p| (p, system.fresh_params(store, p)))
            .collect();
        let mut solvers = Vec::new();
        let mut defining: HashMap<PredId, Vec<usize>> = HashMap::new();
        let mut queries = Vec::new();
        let mut pool = Pool::new(store, system.num_clauses(), deadline.clone());
        for (id, c) in system.clauses() {
            if deadline.expired() {
                return None;
            }
            let k = solvers.len();
            pool.slot(k).assert(c.constraint);
            match c.head_atom() {
                Some(h) => defining.entry(h.pred).or_default().push(k),
                None => queries.push(k),
            }
            solvers.push(ClauseSolver {
                id,
                body: c.body.iter().map(|a| (a.pred, a.args.clone())).collect(),
                head: c.head_atom().map(|h| (h.pred, h.args.clone())),
                constraint: c.constraint,
            });
        }
        Some(Frames {
            store,
            params,
            lemmas: Vec::new(),
            solvers,
            pool,
            defining,
            queries,
            acts: Vec::new(),
            indicators: Vec::new(),
            preferred: Vec::new(),
        })
    }

    /// The lemmas in some frame, with the parameters they are over: what a later run on the
    /// same system starts from.
    pub fn export(&self) -> FrameLemmas {
        FrameLemmas {
            params: self.params.clone(),
            lemmas: (self.lemmas.iter())
                .filter(|l| l.level > 0)
                .map(|l| (l.pred, l.cube.clone(), l.level))
                .collect(),
        }
    }

    fn act(&mut self, level: usize) -> VarId {
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

    /// Adds a lemma at `level`, asserting it in every solver whose clause body reads `pred`.
    pub fn add_lemma(&mut self, pred: PredId, cube: Vec<TermId>, level: usize) {
        self.lemmas.push(Lemma {
            pred,
            cube,
            level,
            blocker: None,
        });
        self.assert_lemma(self.lemmas.len() - 1, level);
    }

    /// Raises lemma `i` to `level`.
    pub fn raise(&mut self, i: usize, level: usize) {
        self.lemmas[i].level = level;
        self.assert_lemma(i, level);
    }

    fn assert_lemma(&mut self, i: usize, level: usize) {
        let store = self.store;
        let act = (level != INF).then(|| store.var(self.act(level)));
        let Lemma { pred, cube, .. } = &self.lemmas[i];
        let from = &self.params[pred];
        let lemma = store.not(store.and(cube.iter().copied()));
        for (k, s) in self.solvers.iter().enumerate() {
            for (p, args) in &s.body {
                if p == pred {
                    let l = store.rename(lemma, from, args);
                    self.pool
                        .slot(k)
                        .assert(act.map_or(l, |a| store.implies(a, l)));
                }
            }
        }
    }

    /// `F_level(pred)` over `args`: the lemmas at `level` or above.
    pub fn frame(&self, pred: PredId, level: usize, args: &[VarId]) -> TermId {
        let store = self.store;
        let from = &self.params[&pred];
        if level == 0 {
            return store.ff();
        }
        let lemmas = self
            .lemmas
            .iter()
            .filter(|l| l.pred == pred && l.level >= level)
            .map(|l| store.not(store.rename(store.and(l.cube.iter().copied()), from, args)));
        store.and(lemmas)
    }

    /// After `Sat`: the body states of solver `k`'s model.
    pub fn body_states(&mut self, k: usize) -> Option<BodyStates> {
        let vars: Vec<VarId> = self.solvers[k]
            .body
            .iter()
            .flat_map(|(_, args)| args.iter().copied())
            .collect();
        let values = self.pool.slot(k).values(vars)?;
        Some(BodyStates { solver: k, values })
    }

    /// Whether every body state of `w` lies in `F_level` (evaluation, no solver call; `false`
    /// when some lemma cannot be evaluated).
    pub fn inside(&self, w: &BodyStates, level: usize) -> bool {
        let store = self.store;
        self.solvers[w.solver].body.iter().all(|(p, args)| {
            let env: HashMap<VarId, Value> = self.params[p]
                .iter()
                .zip(args)
                .filter_map(|(x, a)| Some((*x, w.values.get(a)?.clone())))
                .collect();
            self.lemmas
                .iter()
                .filter(|l| l.pred == *p && l.level >= level)
                .all(|l| {
                    let cube = store.and(l.cube.iter().copied());
                    matches!(store.eval(cube, &env), Ok(Value::Bool(false)))
                })
        })
    }

    /// Checks whether solver `k`'s clause derives a state of `cube` (over its head predicate's
    /// parameters; ignored for a query) from body states drawn from `source`. On `Sat` the
    /// solver's scope stays open: read the model, then [`Frames::close`].
    pub fn open(&mut self, k: usize, cube: &[TermId], source: Source<'_>) -> Check {
        let store = self.store;
        let mut assume: Vec<TermId> = Vec::new();
        if let Source::Frames { level, .. } = source {
            if !self.solvers[k].body.is_empty() {
                if level == 0 {
                    return Check::Unsat(BTreeSet::new());
                }
                let top = self.acts.len().max(level + 1);
                for j in level..top {
                    assume.push(store.var(self.act(j)));
                }
            }
        }
        while self.indicators.len() < cube.len() {
            let v = store.new_var(&format!("pdr_lit{}", self.indicators.len()), Sort::Bool);
            self.indicators.push(v);
        }
        let prefer: &[TermId] = match source {
            Source::Frames { prefer, .. } => prefer,
            Source::Given(_) => &[],
        };
        while self.preferred.len() < prefer.len() {
            let v = store.new_var(&format!("pdr_pref{}", self.preferred.len()), Sort::Bool);
            self.preferred.push(v);
        }
        let s = &self.solvers[k];
        let mut smt = self.pool.slot(k);
        smt.push();
        let mut ind_of = HashMap::new();
        if let Some((p, args)) = &s.head {
            let from = &self.params[p];
            for (j, &lit) in cube.iter().enumerate() {
                let ind = store.var(self.indicators[j]);
                smt.assert(store.implies(ind, store.rename(lit, from, args)));
                assume.push(ind);
                ind_of.insert(ind, j);
            }
        }
        match source {
            Source::Frames {
                avoid: Some(avoid), ..
            } => {
                let head = s.head.as_ref().map(|h| h.0);
                let bad = store.and(avoid.iter().copied());
                for (p, args) in &s.body {
                    if Some(*p) == head {
                        let from = &self.params[p];
                        smt.assert(store.not(store.rename(bad, from, args)));
                    }
                }
            }
            Source::Frames { avoid: None, .. } => {}
            Source::Given(given) => {
                for &g in given {
                    smt.assert(g);
                }
            }
        }
        let mut soft: Vec<TermId> = Vec::new();
        for (j, &f) in prefer.iter().enumerate() {
            let ind = store.var(self.preferred[j]);
            smt.assert(store.implies(ind, f));
            soft.push(ind);
        }
        // Drop the last preference a refutation needs, until none is left in the core: one at
        // a time, so that the first body atoms keep theirs (dropping every preference of a
        // core at once let a query with two atoms of one predicate draw both from the frame
        // again and again, each time spawning the obligation a reach fact already covered).
        let result = loop {
            let all: Vec<TermId> = assume.iter().chain(&soft).copied().collect();
            let r = smt.check_assuming(&all);
            if r != SatResult::Unsat || soft.is_empty() {
                break r;
            }
            let core = smt.unsat_core();
            match soft.iter().rposition(|x| core.contains(x)) {
                Some(i) => {
                    soft.remove(i);
                }
                None => break r,
            }
        };
        let out = match result {
            SatResult::Sat => return Check::Sat,
            SatResult::Unsat => Check::Unsat(
                smt.unsat_core()
                    .iter()
                    .filter_map(|t| ind_of.get(t).copied())
                    .collect(),
            ),
            SatResult::Unknown(r) => Check::Unknown(r),
        };
        smt.pop(1);
        out
    }

    /// Closes the scope a satisfiable [`Frames::open`] left open.
    pub fn close(&mut self, k: usize) {
        self.pool.slot(k).pop(1);
    }

    /// After `Sat`: the model's values of `vars`.
    pub fn values(&mut self, k: usize, vars: &[VarId]) -> Option<BTreeMap<VarId, Value>> {
        self.pool.slot(k).values(vars.iter().copied())
    }

    /// After `Sat`: a cube over `keep` that holds in the model and all of whose states satisfy
    /// `∃ others. formula` (a formula true in the model): the implicant of a model-based
    /// projection, or the model's values of `keep` when that fails.
    pub fn project(&mut self, k: usize, formula: TermId, keep: &[VarId]) -> Option<Vec<TermId>> {
        let store = self.store;
        let mut smt = self.pool.slot(k);
        let keep_vals = smt.values(keep.iter().copied())?;
        let point: Vec<TermId> = keep_vals
            .iter()
            .map(|(v, val)| {
                let sort = store.var_sort(*v);
                store.eq(store.var(*v), store.value_term(val, &sort))
            })
            .collect();
        let eliminate: Vec<VarId> = store
            .free_vars(formula)
            .into_iter()
            .filter(|v| !keep.contains(v))
            .collect();
        // Project the literals of the formula that hold in the model (Spacer's implicant
        // first): projecting a cube is much cheaper than projecting the whole clause, and
        // gives shorter cubes.
        let formula = match smt.values(eliminate.iter().copied()) {
            Some(vals) => {
                let mut env: HashMap<VarId, Value> = vals.into_iter().collect();
                env.extend(keep_vals.iter().map(|(v, x)| (*v, x.clone())));
                match crate::interp::implicant(store, formula, &env) {
                    Some(lits) => store.and(lits),
                    None => formula,
                }
            }
            None => formula,
        };
        let Some(projected) = smt.project(formula, &eliminate) else {
            return Some(point);
        };
        let env: HashMap<VarId, Value> = keep_vals.into_iter().collect();
        let cube = crate::interp::implicant(store, projected, &env).unwrap_or(point);
        Some(normalize(store, cube))
    }
}

/// The two sides of a literal `a = b`.
fn equality(store: &TermStore, lit: TermId) -> Option<(TermId, TermId)> {
    match &store.get(lit).term {
        Term::App(Op::Eq, args) if args.len() == 2 => Some((args[0], args[1])),
        _ => None,
    }
}

/// A cube in a normal form for generalisation: every variable its equalities fix to a
/// constant, directly or through a chain of `x = y`, gets its own `x = constant`, and the
/// literals those variables decide are dropped (they hold in the model the cube was read from,
/// so the equalities imply them). Projecting an implicant keeps every guard the model passed
/// (`x < 5` beside `x = 3`) and chains such as `y = x ∧ x = 3`; left in, they make lemmas
/// longer, and relational where a constant would do.
fn normalize(store: &TermStore, cube: Vec<TermId>) -> Vec<TermId> {
    let constant = |t: TermId| matches!(store.get(t).term, Term::Int(_) | Term::Real(_));
    let equalities: Vec<(TermId, TermId)> =
        cube.iter().filter_map(|&l| equality(store, l)).collect();
    let mut fixed: BTreeMap<VarId, TermId> = BTreeMap::new();
    loop {
        let before = fixed.len();
        for &(a, b) in &equalities {
            for (x, y) in [(a, b), (b, a)] {
                let Some(v) = store.as_var(x) else { continue };
                if fixed.contains_key(&v) {
                    continue;
                }
                if constant(y) {
                    fixed.insert(v, y);
                } else if let Some(c) = store.as_var(y).and_then(|w| fixed.get(&w).copied()) {
                    fixed.insert(v, c);
                }
            }
        }
        if fixed.len() == before {
            break;
        }
    }
    let mut out: Vec<TermId> = fixed
        .iter()
        .map(|(&v, &c)| store.eq(store.var(v), c))
        .collect();
    out.extend(
        cube.into_iter()
            .filter(|&l| !store.free_vars(l).iter().all(|v| fixed.contains_key(v))),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::{normalize, Frames};
    use crate::clock::{Cancel, Deadline};
    use crate::term::{Sort, TermStore};

    #[test]
    fn building_the_frames_stops_when_the_search_is_cancelled() {
        let store = TermStore::new();
        let src = "(declare-fun p (Int) Bool)
            (assert (forall ((x Int)) (=> (= x 0) (p x))))
            (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 1))) (p y))))
            (assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))
            (check-sat)";
        let system = crate::syntax::read_system(&store, src).expect("parses");
        assert!(Frames::new(&store, &system, Deadline::none()).is_some());
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = Deadline::none().with_cancel(cancel);
        assert!(Frames::new(&store, &system, stopped).is_none());
    }

    #[test]
    fn normalize_fixes_chained_variables_and_drops_decided_literals() {
        let store = TermStore::new();
        let [x, y, z, w] = ["x", "y", "z", "w"].map(|n| store.var(store.new_var(n, Sort::Int)));
        let three = store.int(3);
        let decided = store.lt(x, store.int(5));
        let open = store.le(z, store.add([y, w]));
        let cube = vec![store.eq(y, x), store.eq(x, three), decided, open];
        let mut got = normalize(&store, cube);
        got.sort();
        let mut want = vec![store.eq(x, three), store.eq(y, three), open];
        want.sort();
        assert_eq!(got, want);
    }
}
