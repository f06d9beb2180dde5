//! A linear system read as a transition system, and its unrolling into one incremental solver.
//!
//! A linear system (every clause has at most one body atom) is a transition system whose
//! state is a location (the predicate that holds) and the arguments of every predicate: facts
//! `C(y) → Q(y)` are the initial states, clauses `P(x) ∧ C(x, y) → Q(y)` the steps and `P(x) ∧
//! C(x) → false` the bad states (a clause's other variables are existential in its instance; a
//! step leaves the arguments of the predicates other than `Q` unconstrained). With one
//! predicate the location is left out. Queries without a body atom (`C → false`) are set apart:
//! they are decided alone, by one check each.
//!
//! The unrolling keeps one copy `s_i` of the state per depth, the steps between consecutive
//! copies asserted for good, and the initial states and the bad states at a depth behind
//! literals that a check assumes, so that the base case (from the initial states) and the
//! inductive step (from anywhere) of k-induction share every clause instance.
//!
//! Besides asserting them, the unrolling keeps the formulas it asserts per part (the initial
//! states, each step, each depth's bad states), so that an engine can hand parts of the
//! unrolling to an interpolator.
//!
//! Shared by the engines that unroll a transition system (k-induction, interpolation-based
//! model checking); it is not an engine. Must not: decide what a check means (the engines do)
//! or answer.

use crate::chc::{ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use crate::witness::{DerivNode, Derivation};
use std::collections::HashMap;

/// The clauses of a linear system by role.
pub struct TransitionSystem {
    /// Facts with a head atom.
    pub inits: Vec<ClauseId>,
    /// Clauses with a body atom and a head atom.
    pub steps: Vec<ClauseId>,
    /// Queries with a body atom.
    pub queries: Vec<ClauseId>,
    /// Queries without a body atom.
    pub ground_queries: Vec<ClauseId>,
}

impl TransitionSystem {
    /// The system as a transition system, or why it is not one (a non-linear clause).
    pub fn of(system: &System) -> Result<TransitionSystem, String> {
        let mut ts = TransitionSystem {
            inits: Vec::new(),
            steps: Vec::new(),
            queries: Vec::new(),
            ground_queries: Vec::new(),
        };
        for (cid, c) in system.clauses() {
            match (c.body.len(), c.is_query()) {
                (0, false) => ts.inits.push(cid),
                (1, false) => ts.steps.push(cid),
                (1, true) => ts.queries.push(cid),
                (0, true) => ts.ground_queries.push(cid),
                _ => return Err("not a transition system: a non-linear clause".into()),
            }
        }
        Ok(ts)
    }
}

/// A derivation of a query without body atoms whose constraint holds (`None` when every such
/// constraint is unsatisfiable), or why none could be read (a check undecided).
pub fn ground_queries(
    store: &TermStore,
    deadline: &Deadline,
    system: &System,
    ts: &TransitionSystem,
) -> Result<Option<Derivation>, String> {
    for &cid in &ts.ground_queries {
        let clause = system.clause(cid);
        let mut smt = Smt::new(store, deadline.clone());
        smt.assert(clause.constraint);
        match smt.check() {
            SatResult::Unsat => continue,
            SatResult::Unknown(r) => return Err(r),
            SatResult::Sat => {}
        }
        let vars = clause.vars(store);
        let values = smt
            .values(vars.iter().copied())
            .ok_or("no values for a ground query")?;
        let node = DerivNode {
            clause: cid,
            assignment: values.into_iter().collect(),
            children: Vec::new(),
        };
        return Ok(Some(Derivation { nodes: vec![node] }));
    }
    Ok(None)
}

/// One copy of the state: the location (absent with one predicate) and every predicate's
/// arguments.
#[derive(Clone)]
pub struct State {
    loc: Option<VarId>,
    /// Per predicate, its arguments' copies.
    pub args: Vec<Vec<VarId>>,
}

impl State {
    /// `p` holds here: the location is `p` (always true with one predicate).
    pub fn at(&self, store: &TermStore, p: PredId) -> TermId {
        match self.loc {
            Some(l) => store.eq(store.var(l), store.int(i64::from(p.0))),
            None => store.tt(),
        }
    }
}

/// One clause instance: the clause's constraint over fresh copies of its variables (the
/// atoms' arguments being the state copies), and the locations of its atoms, asserted under
/// `selector`.
pub struct Instance {
    clause: ClauseId,
    selector: VarId,
    /// Clause variable → its copy.
    rename: HashMap<VarId, VarId>,
}

/// The unrolling `s_0 → s_1 → … → s_depth` in one solver.
pub struct Unrolling<'a, 's> {
    store: &'s TermStore,
    system: &'a System,
    ts: &'a TransitionSystem,
    /// The solver holding the steps, and the initial and bad states behind their literals.
    pub smt: Smt<'s>,
    /// `states[i]`: the copy `s_i`.
    states: Vec<State>,
    /// `steps[i]`: the instances of the steps from `s_i` to `s_{i+1}`.
    steps: Vec<Vec<Instance>>,
    inits: Vec<Instance>,
    /// Implies that `s_0` is initial.
    init: VarId,
    /// That `s_0` is initial: the formula behind [`Unrolling::init_literal`].
    init_formula: TermId,
    /// `step_formulas[i]`: the formula asserted for the step from `s_i` to `s_{i+1}`.
    step_formulas: Vec<TermId>,
    /// Per depth checked, the literal implying that the state there is bad, the query
    /// instances it chooses among, and the formula behind the literal.
    bads: HashMap<usize, (VarId, Vec<Instance>, TermId)>,
    /// Clause instances made.
    pub instances: u64,
}

impl<'a, 's> Unrolling<'a, 's> {
    /// The unrolling of depth 0: `s_0`, initial behind its literal.
    pub fn new(
        store: &'s TermStore,
        system: &'a System,
        ts: &'a TransitionSystem,
        smt: Smt<'s>,
    ) -> Self {
        let init = store.new_var("kind_init", Sort::Bool);
        let mut u = Unrolling {
            store,
            system,
            ts,
            smt,
            states: Vec::new(),
            steps: Vec::new(),
            inits: Vec::new(),
            init,
            init_formula: store.tt(),
            step_formulas: Vec::new(),
            bads: HashMap::new(),
            instances: 0,
        };
        let s0 = u.new_state(0);
        u.states.push(s0.clone());
        let (inits, formula) = u.instances(&ts.inits, None, Some(&s0), "@init");
        u.inits = inits;
        u.init_formula = formula;
        u.smt.assert(store.implies(store.var(init), formula));
        u
    }

    /// The deepest copy's index.
    pub fn depth(&self) -> usize {
        self.states.len() - 1
    }

    /// The store the unrolling's terms are in.
    pub fn store(&self) -> &'s TermStore {
        self.store
    }

    /// The copy `s_i`.
    pub fn state(&self, i: usize) -> &State {
        &self.states[i]
    }

    /// The literal under which `s_0` is initial.
    pub fn init_literal(&self) -> TermId {
        self.store.var(self.init)
    }

    /// That `s_0` is initial, over `s_0` and the initial clauses' own variables.
    pub fn init_formula(&self) -> TermId {
        self.init_formula
    }

    /// The step from `s_i` to `s_{i+1}` (`i` < [`Unrolling::depth`]), over the two copies and
    /// the steps' own variables of that depth.
    pub fn step_formula(&self, i: usize) -> TermId {
        self.step_formulas[i]
    }

    /// That `s_i` is bad, over `s_i` and the queries' own variables of that depth (made on
    /// first use, as [`Unrolling::bad_literal`]).
    pub fn bad_formula(&mut self, i: usize) -> TermId {
        self.bad_literal(i);
        self.bads[&i].2
    }

    fn new_state(&self, i: usize) -> State {
        let store = self.store;
        let loc = (self.system.num_preds() > 1)
            .then(|| store.new_var(&format!("kind_loc@{i}"), Sort::Int));
        let args = self
            .system
            .pred_ids()
            .map(|p| {
                let d = self.system.pred(p);
                d.sorts
                    .iter()
                    .enumerate()
                    .map(|(k, s)| store.new_var(&format!("{}#{k}@{i}", d.name), s.clone()))
                    .collect()
            })
            .collect();
        State { loc, args }
    }

    /// `selector → constraint` of clause `c` with its body atom's arguments renamed to their
    /// copies in `from` and its head's to those in `to`, the other variables to fresh copies,
    /// and the atoms' predicates as the locations of `from` and `to`.
    fn instance(
        &mut self,
        c: ClauseId,
        from: Option<&State>,
        to: Option<&State>,
        tag: &str,
    ) -> (Instance, TermId) {
        let store = self.store;
        let clause = self.system.clause(c);
        let mut fixed = Vec::new();
        let mut parts = Vec::new();
        for (atom, state) in [(clause.body.first(), from), (clause.head_atom(), to)] {
            if let (Some(a), Some(state)) = (atom, state) {
                let copies = &state.args[a.pred.0 as usize];
                fixed.extend(a.args.iter().copied().zip(copies.iter().copied()));
                parts.push(state.at(store, a.pred));
            }
        }
        let (rename, constraint) = clause.instance(store, fixed, tag);
        parts.push(constraint);
        let selector = store.new_var(&format!("sel{}{tag}", c.0), Sort::Bool);
        self.instances += 1;
        let instance = Instance {
            clause: c,
            selector,
            rename,
        };
        (
            instance,
            store.implies(store.var(selector), store.and(parts)),
        )
    }

    /// The instances of `clauses` from `from` to `to`, and their formula: each instance's, and
    /// that one of them is taken (the disjunction of their selectors).
    fn instances(
        &mut self,
        clauses: &[ClauseId],
        from: Option<&State>,
        to: Option<&State>,
        tag: &str,
    ) -> (Vec<Instance>, TermId) {
        let (made, mut parts): (Vec<Instance>, Vec<TermId>) = clauses
            .iter()
            .map(|&c| self.instance(c, from, to, tag))
            .unzip();
        let store = self.store;
        parts.push(store.or(made.iter().map(|i| store.var(i.selector))));
        (made, store.and(parts))
    }

    /// Adds `s_{depth+1}` and a step into it from `s_depth`.
    pub fn extend(&mut self) {
        let i = self.depth();
        let next = self.new_state(i + 1);
        let from = self.states[i].clone();
        let ts = self.ts;
        let (steps, formula) =
            self.instances(&ts.steps, Some(&from), Some(&next), &format!("@{i}"));
        self.smt.assert(formula);
        self.steps.push(steps);
        self.step_formulas.push(formula);
        self.states.push(next);
    }

    /// The literal implying that `s_i` is bad (made on first use).
    pub fn bad_literal(&mut self, i: usize) -> TermId {
        if let Some((lit, ..)) = self.bads.get(&i) {
            return self.store.var(*lit);
        }
        let state = self.states[i].clone();
        let ts = self.ts;
        let (queries, formula) =
            self.instances(&ts.queries, Some(&state), None, &format!("@bad{i}"));
        let store = self.store;
        let lit = store.new_var(&format!("kind_bad@{i}"), Sort::Bool);
        self.smt.assert(store.implies(store.var(lit), formula));
        self.bads.insert(i, (lit, queries, formula));
        store.var(lit)
    }

    /// After a satisfiable check assuming the initial literal and the bad literal of depth
    /// `k`: the derivation the model describes (`None` if the model does not say).
    pub fn derivation(&mut self, k: usize) -> Option<Derivation> {
        let mut d = Derivation::default();
        let chain = std::iter::once(Chosen::Init)
            .chain((0..k).map(Chosen::Step))
            .chain([Chosen::Bad(k)]);
        for which in chain {
            let children = d.nodes.len().checked_sub(1).into_iter().collect();
            let node = self.taken(which, children)?;
            d.nodes.push(node);
        }
        Some(d)
    }

    /// The derivation step of the instance among `which` whose selector the model makes true.
    fn taken(&mut self, which: Chosen, children: Vec<usize>) -> Option<DerivNode> {
        let instances = match which {
            Chosen::Init => &self.inits,
            Chosen::Step(i) => &self.steps[i],
            Chosen::Bad(i) => &self.bads[&i].1,
        };
        let smt = &mut self.smt;
        let inst = instances
            .iter()
            .find(|inst| smt.value(inst.selector) == Some(Value::Bool(true)))?;
        Some(DerivNode {
            clause: inst.clause,
            assignment: smt.values_of(&inst.rename)?,
            children,
        })
    }
}

/// Which instances a derivation step chooses among.
#[derive(Clone, Copy)]
enum Chosen {
    Init,
    Step(usize),
    Bad(usize),
}
