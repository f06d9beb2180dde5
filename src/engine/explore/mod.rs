//! Explicit-state exploration: every reachable state of every predicate, one at a time, when
//! there are finitely many and few enough.
//!
//! Starting from the facts, each state of a predicate is pushed through every clause whose body
//! is that predicate. The clause constraint, with the body's values, is solved by propagation
//! rather than by an SMT solver: conjuncts that are equations with one unknown side give that
//! variable its value, disjunctions are split, and what remains is decided by evaluation. A
//! head argument whose value no equation determines (a nondeterministic input) makes the state
//! space unenumerable, and the engine gives up at once. When no new state appears and no query
//! is reached, the states are the system's least model: the interpretation of each predicate is
//! the disjunction of its states, validated like every model. A query reached gives the chain
//! of clause instances that led there, a derivation the caller replays.
//!
//! The model is not validated here, unlike other engines' models: it is exact by
//! construction (the closure of the facts under the clauses, over-approximated only where an
//! argument stands for any value), every caller validates every answer against the original
//! clauses ([`crate::engine::driver`]), and on the systems this engine is for (tens of
//! thousands of states) that check is the largest cost of the answer: checking twice
//! doubled it. A model that fails the driver's check is reported as a witness failure, a bug
//! of this engine.
//!
//! This is the engine for finite-state systems whose invariants are not linear: interleavings
//! of threads that count to a bound (the values of `i += j` over all schedules), mutual
//! exclusion protocols over flags. It decides them exactly where the symbolic engines must
//! guess an invariant.
//!
//! Must not: call the SMT solver for a successor (only to decide what propagation leaves open
//! over variables that do not reach the head), explore a non-linear system (a body with two
//! atoms would need every pair of states), or claim anything before the exploration is
//! complete.

mod compile;
mod propagate;

use super::{Context, Engine, Stats};
use crate::chc::{Atom, ClauseId, Head, PredId, System};
use crate::smt::Smt;
use crate::term::{TermId, TermStore, Value, VarId};
use crate::witness::{Answer, DerivNode, Derivation, Interp, Model, Reason};
use compile::{Compiled, Run};
use propagate::{Env, Propagation};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::time::Instant;

/// The explicit-state engine's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ExploreStats {
    /// Distinct states found, over all predicates.
    pub states: u64,
    /// Clause instances solved by propagation.
    pub instances: u64,
    /// SMT checks of what propagation left open.
    pub smt_checks: u64,
    /// Milliseconds the exploration took.
    pub explore_ms: u64,
}

/// Explicit-state exploration with a bound on the states.
#[derive(Clone, Debug)]
pub struct Explore {
    /// Most states (over all predicates) before giving up.
    pub max_states: usize,
}

impl Default for Explore {
    fn default() -> Self {
        Explore { max_states: 50_000 }
    }
}

/// A state with an integer of more bits than this stops the exploration: finite state spaces
/// of programs stay within machine integers, and ever-growing numbers make every step slower.
const MAX_BITS: u64 = 64;

fn too_large(v: &Value) -> bool {
    match v {
        Value::Int(i) => i.bits() > MAX_BITS,
        Value::Real(r) => r.numer().bits() > MAX_BITS || r.denom().bits() > MAX_BITS,
        _ => false,
    }
}

/// Why the exploration stopped without an answer.
enum Stop {
    GaveUp(String),
    Limit(String),
    Timeout,
}

/// A state: the values of a predicate's arguments, `None` for an argument that may have any
/// value (see [`Env::top`]).
type State = Vec<Option<Value>>;

/// The clause instances from a fact to a query: each clause, with the state it derives (none
/// for the query).
type Path = Vec<(ClauseId, Option<usize>)>;

/// How a state was first reached: the clause, and the state of its body predicate (none for a
/// fact).
#[derive(Clone, Copy)]
struct Origin {
    clause: ClauseId,
    parent: Option<usize>,
}

/// The states found so far.
struct Space<'a> {
    store: &'a TermStore,
    system: &'a System,
    /// Per predicate, its states in the order found, their index, and their origins.
    states: Vec<Vec<State>>,
    index: Vec<HashMap<State, usize>>,
    origins: Vec<Vec<Origin>>,
    /// Per predicate, the clauses whose body is that predicate.
    uses: Vec<Vec<ClauseId>>,
    /// Per clause, its constraint compiled (once, at its first instance; `None` inside when
    /// it has too many cubes).
    compiled: Vec<Option<Option<Compiled>>>,
    stats: ExploreStats,
}

impl Engine for Explore {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let started = Instant::now();
        let mut space = Space::new(cx.store, system);
        let result = space.run(cx, self.max_states);
        space.stats.explore_ms = started.elapsed().as_millis() as u64;
        *stats = Stats::Explore(space.stats.clone());
        match result {
            Err(Stop::GaveUp(why)) => Answer::Unknown(Reason::GaveUp(format!("explore: {why}"))),
            Err(Stop::Limit(why)) => Answer::Unknown(Reason::Limit(format!("explore: {why}"))),
            Err(Stop::Timeout) => Answer::Unknown(Reason::Timeout),
            Ok(Some(d)) => Answer::Unsat(d),
            // Not validated here: see the module header.
            Ok(None) => Answer::Sat(space.model()),
        }
    }
}

impl<'a> Space<'a> {
    fn new(store: &'a TermStore, system: &'a System) -> Self {
        let n = system.num_preds();
        let mut uses = vec![Vec::new(); n];
        for (cid, c) in system.clauses() {
            if let [a] = c.body.as_slice() {
                uses[a.pred.0 as usize].push(cid);
            }
        }
        Space {
            store,
            system,
            states: vec![Vec::new(); n],
            index: vec![HashMap::new(); n],
            origins: vec![Vec::new(); n],
            uses,
            compiled: (0..system.num_clauses()).map(|_| None).collect(),
            stats: ExploreStats::default(),
        }
    }

    /// Explores until no new state appears (`Ok(None)`), a query is reached (its derivation), or
    /// a stop.
    fn run(&mut self, cx: &Context<'_>, max_states: usize) -> Result<Option<Derivation>, Stop> {
        if let Some((cid, _)) = self.system.clauses().find(|(_, c)| c.body.len() > 1) {
            return Err(Stop::GaveUp(format!(
                "clause {} is non-linear (explicit states need one body atom)",
                cid.0
            )));
        }
        let mut smt = Smt::new(self.store, cx.deadline.clone());
        let mut work: VecDeque<(PredId, usize)> = VecDeque::new();
        let facts: Vec<ClauseId> = self
            .system
            .clauses()
            .filter(|(_, c)| c.body.is_empty())
            .map(|(id, _)| id)
            .collect();
        for cid in facts {
            if let Some(path) = self.fire(&mut smt, cid, None, &mut work, max_states)? {
                return self.derivation(&mut smt, path).map(Some);
            }
        }
        while let Some((p, i)) = work.pop_front() {
            if cx.stopped() {
                return Err(Stop::Timeout);
            }
            for k in 0..self.uses[p.0 as usize].len() {
                let cid = self.uses[p.0 as usize][k];
                if let Some(path) = self.fire(&mut smt, cid, Some(i), &mut work, max_states)? {
                    return self.derivation(&mut smt, path).map(Some);
                }
            }
        }
        Ok(None)
    }

    /// The clause instances of `cid` from its body state `parent`: new head states are added
    /// to `work`; an instance of a query gives the states that lead to it (see
    /// [`Space::derivation`]).
    fn fire(
        &mut self,
        smt: &mut Smt<'a>,
        cid: ClauseId,
        parent: Option<usize>,
        work: &mut VecDeque<(PredId, usize)>,
        max_states: usize,
    ) -> Result<Option<Path>, Stop> {
        let c = self.system.clause(cid);
        let env = self.body_env(cid, parent);
        self.stats.instances += 1;
        let found = self.solve_compiled(smt, cid, env, c.is_query())?;
        let Head::Atom(Atom { pred, args }) = &c.head else {
            return Ok((!found.is_empty()).then(|| self.path(cid, parent)));
        };
        let h = pred.0 as usize;
        for env in found {
            let state: State = args.iter().map(|v| env.vals.get(v).cloned()).collect();
            if self.index[h].contains_key(&state) {
                continue;
            }
            if self.stats.states as usize >= max_states {
                return Err(Stop::Limit(format!("more than {max_states} states")));
            }
            if state.iter().flatten().any(too_large) {
                return Err(Stop::Limit(format!(
                    "a value beyond {MAX_BITS} bits (the states grow without bound)"
                )));
            }
            let i = self.states[h].len();
            self.index[h].insert(state.clone(), i);
            self.states[h].push(state);
            self.origins[h].push(Origin {
                clause: cid,
                parent,
            });
            self.stats.states += 1;
            work.push_back((*pred, i));
        }
        Ok(None)
    }

    /// The solutions of one clause instance from `env`, by its compiled cubes where they
    /// foresee the instance, else by propagation.
    fn solve_compiled(
        &mut self,
        smt: &mut Smt<'a>,
        cid: ClauseId,
        env: Env,
        first_only: bool,
    ) -> Result<Vec<Env>, Stop> {
        let store = self.store;
        let c = self.system.clause(cid);
        let slot = &mut self.compiled[cid.0 as usize];
        if slot.is_none() {
            let bound: Vec<VarId> = c.body.iter().flat_map(|a| a.args.iter().copied()).collect();
            *slot = Some(Compiled::new(store, c.constraint, &bound));
        }
        let Some(Some(compiled)) = &self.compiled[cid.0 as usize] else {
            return self.solve_instance(smt, cid, env, first_only);
        };
        let mut held = Vec::new();
        for cube in &compiled.cubes {
            match cube.run(store, &env) {
                Run::Holds(e) => held.push((e, &cube.open)),
                Run::Fails => {}
                Run::Unforeseen => return self.solve_instance(smt, cid, env, first_only),
            }
        }
        let head: &[VarId] = match &c.head {
            Head::Atom(a) => &a.args,
            Head::False => &[],
        };
        let mut solver = Propagation {
            store,
            head,
            smt,
            checks: 0,
            first_only,
        };
        let mut found = Vec::new();
        let mut result = Ok(());
        for (e, open) in held {
            result = solver.accept(e, open, &mut found);
            if result.is_err() || (first_only && !found.is_empty()) {
                break;
            }
        }
        self.stats.smt_checks += solver.checks;
        result.map(|()| found)
    }

    /// The solutions of one clause instance from `env`, by propagation.
    fn solve_instance(
        &mut self,
        smt: &mut Smt<'a>,
        cid: ClauseId,
        env: Env,
        first_only: bool,
    ) -> Result<Vec<Env>, Stop> {
        let c = self.system.clause(cid);
        let head: &[VarId] = match &c.head {
            Head::Atom(a) => &a.args,
            Head::False => &[],
        };
        let mut found = Vec::new();
        let mut solver = Propagation {
            store: self.store,
            head,
            smt,
            checks: 0,
            first_only,
        };
        let res = solver.branch(env, vec![c.constraint], &mut found);
        self.stats.smt_checks += solver.checks;
        res.map(|()| found)
    }

    /// The values of a clause's body variables when its body atom holds in state `parent`.
    fn body_env(&self, cid: ClauseId, parent: Option<usize>) -> Env {
        let c = self.system.clause(cid);
        let mut env = Env::default();
        if let (Some(i), [a]) = (parent, c.body.as_slice()) {
            let state = &self.states[a.pred.0 as usize][i];
            for (&x, v) in a.args.iter().zip(state) {
                match v {
                    Some(v) => {
                        env.vals.insert(x, v.clone());
                    }
                    None => {
                        env.top.insert(x);
                    }
                }
            }
        }
        env
    }

    /// The clause instances from a fact to the query `query` fired from state `parent`.
    fn path(&self, query: ClauseId, parent: Option<usize>) -> Path {
        let mut steps = vec![(query, None)];
        let mut at = parent.map(|i| (self.system.clause(query).body[0].pred, i));
        while let Some((p, i)) = at {
            let o = self.origins[p.0 as usize][i];
            steps.push((o.clause, Some(i)));
            at = o
                .parent
                .map(|j| (self.system.clause(o.clause).body[0].pred, j));
        }
        steps.reverse();
        steps
    }

    /// Replays a path with concrete values, from the fact on: each instance starts from the
    /// values its predecessor derived and the values its own state fixes, and gives every
    /// argument a value (those its state leaves open take the solver's or a default).
    fn derivation(&mut self, smt: &mut Smt<'a>, path: Path) -> Result<Derivation, Stop> {
        let mut nodes: Vec<DerivNode> = Vec::new();
        let mut before: Vec<Value> = Vec::new();
        for (k, &(cid, state)) in path.iter().enumerate() {
            let c = self.system.clause(cid);
            let mut env = Env::default();
            if let [a] = c.body.as_slice() {
                env.vals
                    .extend(a.args.iter().copied().zip(before.iter().cloned()));
            }
            if let (Some(i), Head::Atom(a)) = (state, &c.head) {
                let target = &self.states[a.pred.0 as usize][i];
                for (&x, v) in a.args.iter().zip(target) {
                    if let Some(v) = v {
                        env.vals.insert(x, v.clone());
                    }
                }
            }
            let head: Vec<VarId> = c.head_atom().map(|a| a.args.clone()).unwrap_or_default();
            let mut found = self.solve_instance(smt, cid, env, true)?;
            let Some(env) = found.pop() else {
                return Err(Stop::GaveUp(format!(
                    "the path to a query does not replay at clause {}",
                    cid.0
                )));
            };
            let mut vars = self.store.free_vars(c.constraint);
            for a in c.body.iter().chain(c.head_atom()) {
                vars.extend(a.args.iter().copied());
            }
            let assignment: BTreeMap<VarId, Value> = vars
                .into_iter()
                .map(|v| {
                    let x = env.vals.get(&v).cloned().unwrap_or_else(|| {
                        let sort = self.store.var_sort(v);
                        self.store
                            .default_value(&sort)
                            .unwrap_or_else(|| Value::default_of(&sort))
                    });
                    (v, x)
                })
                .collect();
            before = head.iter().map(|v| assignment[v].clone()).collect();
            nodes.push(DerivNode {
                clause: cid,
                assignment,
                children: if k == 0 { vec![] } else { vec![k - 1] },
            });
        }
        Ok(Derivation { nodes })
    }

    /// Each predicate's states as a decision tree: a disjunction over the values of the
    /// argument with the fewest distinct values, each conjoined with the tree of the states
    /// that have it, and so on (an argument a state leaves open is not tested). Equal subtrees
    /// are one term (the store shares them), and a solver checking a clause follows one path
    /// of the tree per state, where a flat disjunction of points would make it visit every
    /// point.
    fn model(&self) -> Model {
        let store = self.store;
        let mut model = Model::new();
        for p in self.system.pred_ids() {
            let params = self.system.fresh_params(store, p);
            let sorts = &self.system.pred(p).sorts;
            let states: Vec<&State> = self.states[p.0 as usize].iter().collect();
            let mut order: Vec<(usize, usize)> = (0..params.len())
                .map(|k| {
                    let distinct: HashSet<&Option<Value>> = states.iter().map(|s| &s[k]).collect();
                    (distinct.len(), k)
                })
                .collect();
            order.sort();
            let order: Vec<usize> = order.into_iter().map(|(_, k)| k).collect();
            let tree = Tree {
                store,
                params: &params,
                sorts,
                order: &order,
            };
            let body = tree.build(&states, 0);
            model.set(p, Interp { params, body });
        }
        model
    }
}

/// The decision tree of a set of states (see [`Space::model`]).
struct Tree<'t> {
    store: &'t TermStore,
    params: &'t [VarId],
    sorts: &'t [crate::term::Sort],
    /// The arguments in the order the tree tests them.
    order: &'t [usize],
}

impl Tree<'_> {
    fn build(&self, states: &[&State], depth: usize) -> TermId {
        let store = self.store;
        if states.is_empty() {
            return store.ff();
        }
        let Some(&k) = self.order.get(depth) else {
            return store.tt();
        };
        let mut groups: BTreeMap<&Option<Value>, Vec<&State>> = BTreeMap::new();
        for s in states {
            groups.entry(&s[k]).or_default().push(s);
        }
        let x = store.var(self.params[k]);
        let branches = groups.into_iter().map(|(v, group)| {
            let rest = self.build(&group, depth + 1);
            match v {
                Some(v) => store.and([store.eq(x, store.value_term(v, &self.sorts[k])), rest]),
                None => rest,
            }
        });
        store.or(branches.collect::<Vec<_>>())
    }
}
