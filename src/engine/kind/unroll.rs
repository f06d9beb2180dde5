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
//! Must not: decide what a check means (the engine does) or answer.

use crate::chc::{ClauseId, PredId, System};
use crate::smt::Smt;
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use crate::witness::{DerivNode, Derivation};
use std::collections::{BTreeMap, HashMap};

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
    /// Per depth checked, the literal implying that the state there is bad, and the query
    /// instances it chooses among.
    bads: HashMap<usize, (VarId, Vec<Instance>)>,
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
            bads: HashMap::new(),
            instances: 0,
        };
        let s0 = u.new_state(0);
        u.states.push(s0.clone());
        u.inits = ts
            .inits
            .iter()
            .map(|&c| u.instance(c, None, Some(&s0), "@init"))
            .collect();
        let chosen = store.or(u.inits.iter().map(|i| store.var(i.selector)));
        u.smt.assert(store.implies(store.var(init), chosen));
        u
    }

    /// The deepest copy's index.
    pub fn depth(&self) -> usize {
        self.states.len() - 1
    }

    /// The copy `s_i`.
    pub fn state(&self, i: usize) -> &State {
        &self.states[i]
    }

    /// The literal under which `s_0` is initial.
    pub fn init_literal(&self) -> TermId {
        self.store.var(self.init)
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

    /// Asserts `selector → constraint` of clause `c` with its body atom's arguments renamed to
    /// their copies in `from` and its head's to those in `to`, the other variables to fresh
    /// copies, and the atoms' predicates as the locations of `from` and `to`.
    fn instance(
        &mut self,
        c: ClauseId,
        from: Option<&State>,
        to: Option<&State>,
        tag: &str,
    ) -> Instance {
        let store = self.store;
        let clause = self.system.clause(c);
        let mut rename = HashMap::new();
        let mut parts = Vec::new();
        if let (Some(a), Some(from)) = (clause.body.first(), from) {
            let copies = &from.args[a.pred.0 as usize];
            rename.extend(a.args.iter().copied().zip(copies.iter().copied()));
            parts.push(from.at(store, a.pred));
        }
        if let (Some(a), Some(to)) = (clause.head_atom(), to) {
            let copies = &to.args[a.pred.0 as usize];
            rename.extend(a.args.iter().copied().zip(copies.iter().copied()));
            parts.push(to.at(store, a.pred));
        }
        for v in clause.vars(store) {
            rename.entry(v).or_insert_with(|| {
                store.new_var(&format!("{}{tag}", store.var_name(v)), store.var_sort(v))
            });
        }
        let map: HashMap<VarId, TermId> = rename.iter().map(|(k, v)| (*k, store.var(*v))).collect();
        parts.push(store.substitute(clause.constraint, &map));
        let selector = store.new_var(&format!("sel{}{tag}", c.0), Sort::Bool);
        self.smt
            .assert(store.implies(store.var(selector), store.and(parts)));
        self.instances += 1;
        Instance {
            clause: c,
            selector,
            rename,
        }
    }

    /// Adds `s_{depth+1}` and a step into it from `s_depth`.
    pub fn extend(&mut self) {
        let i = self.depth();
        let next = self.new_state(i + 1);
        let from = self.states[i].clone();
        let tag = format!("@{i}");
        let steps: Vec<Instance> = self
            .ts
            .steps
            .clone()
            .into_iter()
            .map(|c| self.instance(c, Some(&from), Some(&next), &tag))
            .collect();
        let store = self.store;
        self.smt
            .assert(store.or(steps.iter().map(|s| store.var(s.selector))));
        self.steps.push(steps);
        self.states.push(next);
    }

    /// The literal implying that `s_i` is bad (made on first use).
    pub fn bad_literal(&mut self, i: usize) -> TermId {
        if let Some((lit, _)) = self.bads.get(&i) {
            return self.store.var(*lit);
        }
        let state = self.states[i].clone();
        let tag = format!("@bad{i}");
        let queries: Vec<Instance> = self
            .ts
            .queries
            .clone()
            .into_iter()
            .map(|c| self.instance(c, Some(&state), None, &tag))
            .collect();
        let store = self.store;
        let lit = store.new_var(&format!("kind_bad@{i}"), Sort::Bool);
        let chosen = store.or(queries.iter().map(|q| store.var(q.selector)));
        self.smt.assert(store.implies(store.var(lit), chosen));
        self.bads.insert(i, (lit, queries));
        store.var(lit)
    }

    /// After a satisfiable check assuming the initial literal and the bad literal of depth
    /// `k`: the derivation the model describes (`None` if the model does not say).
    pub fn derivation(&mut self, k: usize) -> Option<Derivation> {
        let mut d = Derivation::default();
        let first = self.chosen(Chosen::Init)?;
        self.push_node(&mut d, first, Vec::new())?;
        for i in 0..k {
            let step = self.chosen(Chosen::Step(i))?;
            let child = vec![d.nodes.len() - 1];
            self.push_node(&mut d, step, child)?;
        }
        let query = self.chosen(Chosen::Bad(k))?;
        let child = vec![d.nodes.len() - 1];
        self.push_node(&mut d, query, child)?;
        Some(d)
    }

    /// The instance whose selector the model makes true.
    fn chosen(&mut self, which: Chosen) -> Option<(Chosen, usize)> {
        let n = self.instances_of(which).len();
        (0..n).find_map(|j| {
            let sel = self.instances_of(which)[j].selector;
            (self.smt.value(sel) == Some(Value::Bool(true))).then_some((which, j))
        })
    }

    fn instances_of(&self, which: Chosen) -> &[Instance] {
        match which {
            Chosen::Init => &self.inits,
            Chosen::Step(i) => &self.steps[i],
            Chosen::Bad(i) => &self.bads[&i].1,
        }
    }

    fn push_node(
        &mut self,
        d: &mut Derivation,
        (which, j): (Chosen, usize),
        children: Vec<usize>,
    ) -> Option<()> {
        let inst = &self.instances_of(which)[j];
        let clause = inst.clause;
        let pairs: Vec<(VarId, VarId)> = inst.rename.iter().map(|(a, b)| (*a, *b)).collect();
        let values = self.smt.values(pairs.iter().map(|p| p.1))?;
        let assignment: BTreeMap<_, _> =
            pairs.iter().map(|(o, c)| (*o, values[c].clone())).collect();
        d.nodes.push(DerivNode {
            clause,
            assignment,
            children,
        });
        Some(())
    }
}

/// Which instances a derivation step chooses among.
#[derive(Clone, Copy)]
enum Chosen {
    Init,
    Step(usize),
    Bad(usize),
}
