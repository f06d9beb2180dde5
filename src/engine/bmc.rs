//! Bounded model checking: unrolls derivations backwards from the queries, one level at a
//! time, and answers `unsat` with the derivation it finds, or `unknown` at the bound.
//!
//! Each unrolled node stands for one instance of a predicate and has an "active" literal; a
//! node's clause choices are guarded by selector literals. Unexpanded nodes (the frontier) are
//! assumed inactive in each check, so one incremental solver serves all depths. For linear
//! systems nodes are shared per (predicate, depth), which keeps each level linear in the system
//! size; for non-linear systems nodes form a tree (each body atom its own subtree), bounded by a
//! node budget. This engine never answers `sat`.

use super::{Context, Engine, Stats};
use crate::chc::{ClauseId, PredId, System};
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, VarId};
use crate::witness::{Answer, DerivNode, Derivation};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// A check taking this many milliseconds makes the next one wait one more level.
const CHECK_MS_PER_LEVEL: usize = 100;
/// At most this many levels between checks.
const MAX_STRIDE: usize = 16;

/// BMC with a depth bound and, for non-linear systems, a node budget.
#[derive(Clone, Debug)]
pub struct Bmc {
    /// Deepest unrolling tried before answering `unknown`.
    pub max_depth: usize,
    /// Most unrolled nodes before answering `unknown`.
    pub max_nodes: usize,
}

impl Default for Bmc {
    fn default() -> Self {
        Bmc {
            max_depth: 100_000,
            max_nodes: 20_000,
        }
    }
}

struct Choice {
    clause: ClauseId,
    selector: VarId,
    /// Clause variable → its copy in this node.
    rename: HashMap<VarId, VarId>,
    /// The node of each body atom.
    children: Vec<usize>,
}

struct Node {
    /// `None` for the root, whose choices are the queries.
    pred: Option<PredId>,
    args: Vec<VarId>,
    active: VarId,
    depth: usize,
    choices: Vec<Choice>,
}

struct Unroller<'a, 's> {
    cx: &'a Context<'s>,
    system: &'a System,
    smt: Smt<'s>,
    nodes: Vec<Node>,
    frontier: Vec<usize>,
    /// Linear systems share nodes per (predicate, depth).
    shared: Option<HashMap<(PredId, usize), usize>>,
}

impl<'a, 's> Unroller<'a, 's> {
    fn new_node(&mut self, pred: Option<PredId>, depth: usize) -> usize {
        let store = self.cx.store;
        let args = match pred {
            Some(p) => {
                let d = self.system.pred(p);
                d.sorts
                    .iter()
                    .enumerate()
                    .map(|(k, s)| store.new_var(&format!("{}#{k}@{depth}", d.name), s.clone()))
                    .collect()
            }
            None => Vec::new(),
        };
        let active = store.new_var(&format!("active@{depth}"), Sort::Bool);
        self.nodes.push(Node {
            pred,
            args,
            active,
            depth,
            choices: Vec::new(),
        });
        let id = self.nodes.len() - 1;
        self.frontier.push(id);
        id
    }

    fn child(&mut self, pred: PredId, depth: usize) -> usize {
        if let Some(shared) = &self.shared {
            if let Some(&n) = shared.get(&(pred, depth)) {
                return n;
            }
        }
        let n = self.new_node(Some(pred), depth);
        if let Some(shared) = &mut self.shared {
            shared.insert((pred, depth), n);
        }
        n
    }

    /// Asserts the clause choices of node `n`, creating its children.
    fn expand(&mut self, n: usize) {
        let store = self.cx.store;
        let (pred, depth, args, active) = {
            let node = &self.nodes[n];
            (node.pred, node.depth, node.args.clone(), node.active)
        };
        let clauses: Vec<ClauseId> = match pred {
            None => self.system.queries().map(|(id, _)| id).collect(),
            Some(p) => self.system.clauses_defining(p).map(|(id, _)| id).collect(),
        };
        let mut selectors = Vec::new();
        let mut choices = Vec::new();
        for cid in clauses {
            let clause = self.system.clause(cid).clone();
            let selector = store.new_var(&format!("sel{}@{depth}", cid.0), Sort::Bool);
            let mut rename = HashMap::new();
            if let Some(h) = clause.head_atom() {
                rename.extend(h.args.iter().copied().zip(args.iter().copied()));
            }
            let mut children = Vec::new();
            let mut guards = Vec::new();
            for atom in &clause.body {
                let c = self.child(atom.pred, depth + 1);
                rename.extend(atom.args.iter().copied().zip(self.nodes[c].args.iter().copied()));
                guards.push(store.var(self.nodes[c].active));
                children.push(c);
            }
            for v in clause.vars(store) {
                rename.entry(v).or_insert_with(|| {
                    store.new_var(&format!("{}@{depth}", store.var_name(v)), store.var_sort(v))
                });
            }
            let map: HashMap<VarId, TermId> =
                rename.iter().map(|(k, v)| (*k, store.var(*v))).collect();
            guards.push(store.substitute(clause.constraint, &map));
            let body = store.and(guards);
            let sel = store.var(selector);
            self.smt.assert(store.implies(sel, body));
            selectors.push(sel);
            choices.push(Choice {
                clause: cid,
                selector,
                rename,
                children,
            });
        }
        let act = store.var(active);
        self.smt.assert(store.implies(act, store.or(selectors)));
        self.nodes[n].choices = choices;
    }

    /// Reads the derivation rooted at node `n` from the current model; returns its index.
    fn extract(&mut self, n: usize, out: &mut Derivation, memo: &mut HashMap<usize, usize>) -> Option<usize> {
        if let Some(&i) = memo.get(&n) {
            return Some(i);
        }
        let mut chosen = None;
        for (k, ch) in self.nodes[n].choices.iter().enumerate() {
            if self.smt.value(ch.selector) == Some(crate::term::Value::Bool(true)) {
                chosen = Some(k);
                break;
            }
        }
        let k = chosen?;
        let children = self.nodes[n].choices[k].children.clone();
        let mut child_ids = Vec::new();
        for c in children {
            child_ids.push(self.extract(c, out, memo)?);
        }
        let ch = &self.nodes[n].choices[k];
        let clause = ch.clause;
        let pairs: Vec<(VarId, VarId)> = ch.rename.iter().map(|(a, b)| (*a, *b)).collect();
        let values = self.smt.values(pairs.iter().map(|p| p.1))?;
        let assignment: BTreeMap<_, _> = pairs
            .iter()
            .map(|(orig, copy)| (*orig, values[copy].clone()))
            .collect();
        out.nodes.push(DerivNode {
            clause,
            assignment,
            children: child_ids,
        });
        let i = out.nodes.len() - 1;
        memo.insert(n, i);
        Some(i)
    }
}

impl Engine for Bmc {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let mut u = Unroller {
            cx,
            system,
            smt: Smt::new(cx.store, cx.deadline),
            nodes: Vec::new(),
            frontier: Vec::new(),
            shared: system.is_linear().then(HashMap::new),
        };
        let root = u.new_node(None, 0);
        u.smt.assert(cx.store.var(u.nodes[root].active));
        let mut depth = 0;
        // Levels to unroll before the next check: a check at depth d covers every derivation of
        // depth <= d, so when checks get slow we check less often rather than at every level.
        let mut stride = 1;
        let mut since_check = 0;
        let answer = loop {
            let frontier = std::mem::take(&mut u.frontier);
            let mut out_of_budget = None;
            for &n in &frontier {
                if cx.deadline.expired() {
                    out_of_budget = Some("timeout".to_string());
                    break;
                }
                if u.nodes.len() > self.max_nodes {
                    out_of_budget = Some(format!("bmc: node budget {} reached", self.max_nodes));
                    break;
                }
                u.expand(n);
            }
            if let Some(reason) = out_of_budget {
                break Answer::Unknown(reason);
            }
            since_check += 1;
            if since_check >= stride || u.frontier.is_empty() {
                since_check = 0;
                let assumptions: Vec<TermId> = u
                    .frontier
                    .iter()
                    .map(|&n| cx.store.not(cx.store.var(u.nodes[n].active)))
                    .collect();
                stats.set("depth", depth as u64);
                let started = Instant::now();
                match u.smt.check_assuming(&assumptions) {
                    SatResult::Sat => {
                        let mut d = Derivation::default();
                        break match u.extract(root, &mut d, &mut HashMap::new()) {
                            // The root is the virtual node above the queries: its derivation
                            // node is the query instance itself.
                            Some(_) => Answer::Unsat(d),
                            None => Answer::Unknown("bmc: could not read the counterexample".into()),
                        };
                    }
                    SatResult::Unknown(r) => break Answer::Unknown(format!("bmc: {r}")),
                    SatResult::Unsat => {}
                }
                let took = started.elapsed().as_millis() as usize;
                stride = (took / CHECK_MS_PER_LEVEL).clamp(1, MAX_STRIDE);
                if u.frontier.is_empty() {
                    // Nothing left to unroll: every derivation has been explored. BMC does not
                    // build models, so this is still `unknown`.
                    break Answer::Unknown("bmc: all derivations explored, none reaches false".into());
                }
            }
            depth += 1;
            if depth > self.max_depth {
                break Answer::Unknown(format!("bmc: depth bound {} reached", self.max_depth));
            }
            if cx.deadline.expired() {
                break Answer::Unknown("timeout".into());
            }
        };
        stats.set("nodes", u.nodes.len() as u64);
        stats.add("smt_checks", u.smt.stats().checks);
        answer
    }
}
