//! Concrete reachable states of every predicate, found by running the clauses forwards one
//! clause instance at a time.
//!
//! Duty: starting from the facts, repeatedly pick a clause whose body predicates already have
//! states, fill its body atoms with stored states (chosen at random), and ask the solver for a
//! head state. Unconstrained values (nondet inputs) are pushed towards pseudo-random small
//! numbers through assumptions (dropped when they conflict, by unsat core) so that the states
//! differ; the same seed always gives the same states. Optionally, runs go beside: from a
//! state a fact made, one clause instance after another, each from the state the last one made,
//! which gets through loops of more than a few steps (the cell abstraction's sampling takes
//! them: the loops of array programs run a while before the states after them exist). Every
//! state is reachable (a derivation exists), so whatever holds on all reachable states holds on
//! the samples.
//!
//! Must not: exceed its deadline (each check is capped), or claim anything about unsampled
//! states.

use crate::chc::{ClauseId, System};
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, TermStore, Value, VarId};

use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// Most time one solver check may take.
const CHECK_CAP: Duration = Duration::from_millis(50);
/// Most assumption sets tried (each dropping the previous unsat core, which often names a
/// single determined variable) before solving without any.
const RETRIES: usize = 16;
/// Most constructors nested in a random value for an unconstrained datatype variable.
const VALUE_DEPTH: usize = 4;

/// A small deterministic pseudo-random generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// A generator from a nonzero seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A value for an unconstrained number: mostly small (loops run a few times), sometimes
    /// larger, so that the samples are not all alike.
    fn small(&mut self) -> i64 {
        match self.below(10) {
            0..=5 => self.below(13) as i64 - 2,
            6..=8 => self.below(71) as i64 - 20,
            _ => self.below(2001) as i64 - 1000,
        }
    }

    /// A random value of `sort` at most `depth` constructors deep (below that, the sort's
    /// smallest value), with small numbers in its fields: an unconstrained list is sometimes
    /// empty, sometimes a few elements long. `None` for arrays and for a datatype without a
    /// finite value.
    fn value(&mut self, store: &TermStore, sort: &Sort, depth: usize) -> Option<Value> {
        match sort {
            Sort::Int => Some(Value::Int(self.small().into())),
            Sort::Real => Some(Value::Real(num_rational::BigRational::from_integer(
                self.small().into(),
            ))),
            Sort::Bool => Some(Value::Bool(self.below(2) == 1)),
            Sort::Array(..) => None,
            Sort::Datatype(_) if depth == 0 => store.default_value(sort),
            Sort::Datatype(d) => {
                let ctors = store.datatype(d.id).ctors;
                let c = ctors[self.below(ctors.len())];
                let decl = store.ctor(c);
                let fields = decl
                    .fields
                    .iter()
                    .map(|(_, s)| self.value(store, s, depth - 1))
                    .collect::<Option<Vec<Value>>>()?;
                Some(Value::Ctor(c, decl.name.clone(), fields))
            }
        }
    }
}

/// Most steps of one run (from a fact, one clause instance after another, each from the state
/// the last one made) before a new one starts.
const MAX_RUN: usize = 32;

/// How many states facts made are drawn to pick where a run starts (the smallest wins).
const START_DRAWS: usize = 3;

/// The state a run has reached, and how many steps it took.
struct Run {
    pred: usize,
    state: Vec<Value>,
    length: usize,
}

/// Reachable states per predicate (indexed by `PredId`), each a value per argument.
pub type States = Vec<Vec<Vec<Value>>>;

/// Collects up to `max_per_pred` distinct states per predicate until `deadline`, or until no
/// clause adds a state for a few rounds. With `runs`, each clause instance on stored states
/// alternates with a step of a run (from a state a fact made, each step from the state the
/// last one made), which gets through loops that take more than a few steps and reaches the
/// predicates after them. Returns the states and the number of solver checks.
pub fn collect(
    store: &TermStore,
    system: &System,
    deadline: Deadline,
    max_per_pred: usize,
    runs: bool,
) -> (States, u64) {
    let n = system.num_preds();
    let mut pools: States = vec![Vec::new(); n];
    let mut seen: Vec<HashSet<Vec<Value>>> = vec![HashSet::new(); n];
    let mut smt = Smt::new(store, deadline.clone());
    smt.set_check_cap(Some(CHECK_CAP));
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let clauses: Vec<ClauseId> = system
        .clauses()
        .filter(|(_, c)| !c.is_query())
        .map(|(id, _)| id)
        .collect();
    // The clauses of one body atom, by its predicate: the steps of a run.
    let mut steps_from: Vec<Vec<ClauseId>> = vec![Vec::new(); n];
    for &cid in &clauses {
        if let [a] = &system.clause(cid).body[..] {
            steps_from[a.pred.0 as usize].push(cid);
        }
    }
    // The states facts made, where runs start.
    let mut initial: Vec<(usize, Vec<Value>)> = Vec::new();
    let mut run: Option<Run> = None;
    // Clause instances in a row that added no state (a body state that does not enable the
    // clause, or a state already seen) before giving up.
    let patience = 30 + 10 * clauses.len();
    let mut idle = 0;
    while idle < patience && !deadline.expired() {
        // Each clause instance on stored states alternates with a step of the current run.
        for &cid in &clauses {
            if deadline.expired() {
                break;
            }
            run = match run.take() {
                _ if !runs => None,
                Some(r) if r.length < MAX_RUN => {
                    go_on(&mut smt, store, system, &steps_from[r.pred], r, &mut rng)
                }
                _ if initial.is_empty() => None,
                // A new run, from a state a fact made: the smallest of a few drawn, since a
                // run from small numbers gets through its loops within its steps.
                _ => {
                    let (pred, state) = (0..START_DRAWS)
                        .map(|_| &initial[rng.below(initial.len())])
                        .min_by_key(|(_, s)| magnitude(s))
                        .cloned()
                        .expect("drawn");
                    Some(Run {
                        pred,
                        state,
                        length: 0,
                    })
                }
            };
            if let Some(r) = &run {
                if pools[r.pred].len() < max_per_pred && seen[r.pred].insert(r.state.clone()) {
                    pools[r.pred].push(r.state.clone());
                    idle = 0;
                }
            }
            let c = system.clause(cid);
            let Some(head) = c.head_atom() else { continue };
            let h = head.pred.0 as usize;
            if pools[h].len() >= max_per_pred
                || c.body.iter().any(|a| pools[a.pred.0 as usize].is_empty())
            {
                continue;
            }
            let mut map: HashMap<VarId, TermId> = HashMap::new();
            for a in &c.body {
                let pool = &pools[a.pred.0 as usize];
                let state = &pool[rng.below(pool.len())];
                fill(store, &a.args, state, &mut map);
            }
            let phi = store.substitute(c.constraint, &map);
            idle += 1;
            if let Some(state) = step(&mut smt, store, phi, &head.args, &mut rng) {
                if seen[h].insert(state.clone()) {
                    if c.body.is_empty() {
                        initial.push((h, state.clone()));
                    }
                    pools[h].push(state);
                    idle = 0;
                }
            }
        }
        if clauses.iter().all(|&cid| {
            let c = system.clause(cid);
            c.head_pred()
                .is_some_and(|h| pools[h.0 as usize].len() >= max_per_pred)
                || c.body.iter().any(|a| pools[a.pred.0 as usize].is_empty())
        }) {
            break; // every clause is full or cannot fire
        }
    }
    let checks = smt.stats().checks;
    (pools, checks)
}

/// Each of an atom's argument variables mapped to its value in `state`.
fn fill(store: &TermStore, args: &[VarId], state: &[Value], map: &mut HashMap<VarId, TermId>) {
    for (v, x) in args.iter().zip(state) {
        map.insert(*v, store.value_term(x, &store.var_sort(*v)));
    }
}

/// The size of a state's numbers: the bits of its integer arguments together (arrays and
/// other values not counted), so that constants all states share weigh the same in each.
fn magnitude(state: &[Value]) -> u64 {
    state
        .iter()
        .map(|v| match v {
            Value::Int(n) => n.bits(),
            _ => 0,
        })
        .sum()
}

/// The next state of a run: an instance of one of `steps` (clauses whose one body atom is of
/// the run's predicate, tried from a random one on) from the run's state; `None` where none
/// applies.
fn go_on(
    smt: &mut Smt<'_>,
    store: &TermStore,
    system: &System,
    steps: &[ClauseId],
    run: Run,
    rng: &mut Rng,
) -> Option<Run> {
    let first = rng.below(steps.len().max(1));
    (0..steps.len()).find_map(|n| {
        let c = system.clause(steps[(first + n) % steps.len()]);
        let head = c.head_atom()?;
        let mut map = HashMap::new();
        fill(store, &c.body[0].args, &run.state, &mut map);
        let phi = store.substitute(c.constraint, &map);
        let state = step(smt, store, phi, &head.args, rng)?;
        Some(Run {
            pred: head.pred.0 as usize,
            state,
            length: run.length + 1,
        })
    })
}

/// One clause instance: a model of `phi` (body already filled in), read at `head`.
fn step(
    smt: &mut Smt<'_>,
    store: &TermStore,
    phi: TermId,
    head: &[VarId],
    rng: &mut Rng,
) -> Option<Vec<Value>> {
    if store.as_bool(phi) == Some(false) {
        return None;
    }
    smt.push();
    smt.assert(phi);
    // Head arguments the constraint does not mention are free too.
    let mut free: Vec<VarId> = store.free_vars(phi).into_iter().collect();
    for v in head {
        if !free.contains(v) {
            free.push(*v);
        }
    }
    let mut assumptions: Vec<TermId> = free
        .iter()
        .filter_map(|v| {
            let s = store.var_sort(*v);
            if !matches!(s, Sort::Int | Sort::Real | Sort::Datatype(_)) {
                return None;
            }
            let value = rng.value(store, &s, VALUE_DEPTH)?;
            Some(store.eq(store.var(*v), store.value_term(&value, &s)))
        })
        .collect();
    let mut result = None;
    let retries = RETRIES.min(assumptions.len() + 1);
    for attempt in 0..=retries {
        if attempt == retries {
            assumptions.clear();
        }
        match smt.check_assuming(&assumptions) {
            SatResult::Sat => {
                result = smt
                    .values(head.iter().copied())
                    .map(|vals| head.iter().map(|v| vals[v].clone()).collect());
                break;
            }
            SatResult::Unsat if !assumptions.is_empty() => {
                let core: HashSet<TermId> = smt.unsat_core().into_iter().collect();
                if core.is_empty() {
                    break; // unsatisfiable without assumptions: the clause does not apply
                }
                assumptions.retain(|a| !core.contains(a));
            }
            _ => break,
        }
    }
    smt.pop(1);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop of 20 steps from one start, and a predicate after it.
    const LONG_LOOP: &str = "(set-logic HORN)
        (declare-fun run (Int Int) Bool)
        (declare-fun after (Int) Bool)
        (assert (forall ((n Int)) (=> (= n 20) (run 0 n))))
        (assert (forall ((i Int) (n Int)) (=> (and (run i n) (< i n)) (run (+ i 1) n))))
        (assert (forall ((i Int) (n Int)) (=> (and (run i n) (>= i n)) (after i))))
        (assert (forall ((x Int)) (=> (and (after x) (< x 0)) false)))
        (check-sat)";

    /// The states of `after` with at most 8 states per predicate.
    fn after_states(runs: bool) -> usize {
        let store = TermStore::new();
        let system = crate::syntax::read_system(&store, LONG_LOOP).expect("the system parses");
        let (states, _) = collect(&store, &system, Deadline::none(), 8, runs);
        let after = system.pred_ids().find(|&p| system.pred(p).name == "after");
        states[after.expect("after is declared").0 as usize].len()
    }

    #[test]
    fn runs_get_past_a_loop_longer_than_the_pool() {
        // Eight stored states of the loop reach `i = 7` at most: only a run that goes on from
        // the state it made, stored or not, gets to `i = 20` and out.
        assert_eq!(after_states(false), 0);
        assert_eq!(after_states(true), 1);
    }
}
