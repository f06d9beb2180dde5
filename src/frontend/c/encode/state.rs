//! Symbolic states of the large-block encoding: a path condition (conjuncts), the current term
//! of every variable slot, the body atoms collected so far (the block's source cut point and
//! the summaries of the calls made), and the events the trace extraction reads back.
//!
//! Must not: emit clauses (that is `mod.rs`).

use crate::chc::Atom;
use crate::term::{TermId, TermStore, VarId};

/// A value: an integer term, or a Boolean term standing for 1/0.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    /// An integer.
    Int(TermId),
    /// A truth value (1 or 0 as an integer).
    Bool(TermId),
}

/// Something that happened on a path, in execution order, guarded by the path condition at
/// that point (used to extract the nondet values of a counterexample).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A nondet call at a site produced this variable's value.
    Nondet(usize, VarId),
    /// A call: the body atom at this index derives the callee's summary or error.
    Call(usize),
    /// An uninitialised array was declared at a site: this (array-sorted) variable holds its
    /// elements.
    Array(usize, VarId),
}

/// An event with its guard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What.
    pub kind: EventKind,
    /// When it happened, with the conjuncts of the state's path condition left out: a formula
    /// over the clause's variables that, in the emitted clause, holds exactly when the path
    /// condition at the event did (the clause's constraint holds in any derivation step, so its
    /// top-level conjuncts need not be repeated per event).
    pub guard: TermId,
    /// How many of the state's path-condition conjuncts were in force at the event.
    pub at: usize,
}

/// A symbolic state.
#[derive(Clone, Debug)]
pub struct State {
    /// Path condition, as conjuncts.
    pub guard: Vec<TermId>,
    /// Current term of each slot (globals, then the function's locals).
    pub env: Vec<TermId>,
    /// Body atoms: the source cut point first (if any), then call summaries.
    pub atoms: Vec<Atom>,
    /// Events along the path.
    pub events: Vec<Event>,
    /// Whether the first atom is the source cut point.
    pub has_source: bool,
}

impl State {
    /// Adds a conjunct to the path condition.
    pub fn assume(&mut self, store: &TermStore, c: TermId) {
        if store.as_bool(c) == Some(true) || self.dead(store) {
            return;
        }
        self.guard.push(c);
    }

    /// Whether the path condition is syntactically false (a false conjunct is always the last:
    /// nothing is added after it).
    pub fn dead(&self, store: &TermStore) -> bool {
        self.guard
            .last()
            .is_some_and(|&g| store.as_bool(g) == Some(false))
    }

    /// Records an event under the current path condition.
    pub fn event(&mut self, store: &TermStore, kind: EventKind) {
        self.events.push(Event {
            kind,
            guard: store.tt(),
            at: self.guard.len(),
        });
    }
}

/// Merges states that carry the same atoms (a join in the control flow): the path condition
/// becomes the disjunction of the differing suffixes, and slots whose terms differ get a fresh
/// variable equal to each side's term. States with different atoms stay apart (a body atom
/// cannot be conditional).
pub fn merge(
    store: &TermStore,
    states: Vec<State>,
    fresh: &mut dyn FnMut(usize) -> VarId,
) -> Vec<State> {
    let mut groups: Vec<Vec<State>> = vec![];
    for s in states {
        if s.dead(store) {
            continue;
        }
        match groups
            .iter_mut()
            .find(|g| g[0].atoms == s.atoms && g[0].has_source == s.has_source)
        {
            Some(g) => g.push(s),
            None => groups.push(vec![s]),
        }
    }
    groups
        .into_iter()
        .map(|g| {
            if g.len() == 1 {
                g.into_iter().next().unwrap_or_else(|| unreachable!())
            } else {
                merge_group(store, g, fresh)
            }
        })
        .collect()
}

fn merge_group(store: &TermStore, g: Vec<State>, fresh: &mut dyn FnMut(usize) -> VarId) -> State {
    // Common prefix of the path conditions.
    let mut prefix = 0;
    while let Some(&c) = g[0].guard.get(prefix) {
        if g[1..].iter().any(|s| s.guard.get(prefix) != Some(&c)) {
            break;
        }
        prefix += 1;
    }
    let n = g[0].env.len();
    let mut env = g[0].env.clone();
    let mut eqs: Vec<Vec<TermId>> = vec![vec![]; g.len()];
    #[allow(clippy::needless_range_loop)] // `slot` indexes every state's environment
    for slot in 0..n {
        let t0 = g[0].env[slot];
        if g.iter().all(|s| s.env[slot] == t0) {
            continue;
        }
        let v = store.var(fresh(slot));
        env[slot] = v;
        for (i, s) in g.iter().enumerate() {
            eqs[i].push(store.eq(v, s.env[slot]));
        }
    }
    let disjuncts: Vec<TermId> = g
        .iter()
        .zip(eqs)
        .map(|(s, e)| store.and(s.guard[prefix..].iter().copied().chain(e)))
        .collect();
    let mut guard = g[0].guard[..prefix].to_vec();
    guard.push(store.or(disjuncts));
    // The events before the split are shared by every state: kept once (copying them per
    // state would double them at every join, exponentially in a sequence of `if`s).
    let mut shared = 0;
    while let Some(e) = g[0].events.get(shared) {
        if g[1..].iter().any(|s| s.events.get(shared) != Some(e)) {
            break;
        }
        shared += 1;
    }
    // Conjuncts past the common prefix leave the top level: an event's guard takes those that
    // were in force when it happened.
    let lift = |s: &State, e: &Event| {
        if e.at <= prefix {
            return e.clone();
        }
        let guard =
            store.and(std::iter::once(e.guard).chain(s.guard[prefix..e.at].iter().copied()));
        Event {
            kind: e.kind.clone(),
            guard,
            at: prefix,
        }
    };
    let mut events: Vec<Event> = g[0].events[..shared]
        .iter()
        .map(|e| lift(&g[0], e))
        .collect();
    for s in &g {
        events.extend(s.events[shared..].iter().map(|e| lift(s, e)));
    }
    State {
        guard,
        env,
        atoms: g[0].atoms.clone(),
        events,
        has_source: g[0].has_source,
    }
}
