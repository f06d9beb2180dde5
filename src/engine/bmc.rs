//! Bounded model checking: builds derivations bottom-up, one level at a time, and answers
//! `unsat` with the derivation it finds, or `unknown` at the bound.
//!
//! Level `ℓ` holds one instance ("node") of every predicate: its arguments, an "active" literal
//! (the instance is derived) and, per defining clause, a selector literal guarding the clause's
//! constraint over fresh copies of its variables. A body atom of a node at level `ℓ` is matched
//! to an active node of its predicate at level `ℓ-1` (linear systems: a derivation is a chain)
//! or, through pick literals, at any lower level (non-linear systems: a derivation is a DAG of
//! facts, and giving each distinct fact its own level makes one instance per level enough).
//! The goal (a query clause whose body atoms match nodes up to the current level) is asserted
//! under an assumption literal, so one incremental solver serves all depths. Every model is a
//! well-founded derivation, which the caller replays. This engine never answers `sat`.
//!
//! Checks are spaced: a check at depth `d` covers every derivation of at most `d` levels (facts
//! hold at every level, so a shorter derivation fits below the top), so the engine checks after
//! every level while checks are quick and the unrolling shallow, then once per `d / 8` levels
//! (at most 16) or per 100 ms the last check took: a counterexample of 200 steps costs about 40
//! checks instead of 200, each of them of the whole unrolling.
//!
//! A linear system without recursion has no derivation deeper than its number of predicates:
//! once a check covers that depth, the engine gives up at once (nothing deeper exists), and the
//! time goes to the engines that can answer `sat`.

use super::{Context, Engine, Stats};
use crate::chc::{ClauseId, PredId, System};
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, Value, VarId};
use crate::witness::{Answer, DerivNode, Derivation, Reason};
use std::collections::HashMap;
use std::time::Instant;

/// A check taking this many milliseconds makes the next one wait one more level.
const CHECK_MS_PER_LEVEL: usize = 100;
/// Deep unrollings are checked less often however quick the checks: one more level between
/// checks per this many levels of depth.
const DEPTH_PER_STRIDE: usize = 8;
/// At most this many levels between checks.
const MAX_STRIDE: usize = 16;

/// BMC's counters for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct BmcStats {
    /// The depth of the last check (absent when none was made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    /// Unrolled clause instances.
    pub instances: u64,
    /// SMT checks.
    pub smt_checks: u64,
}

/// BMC with a depth bound and a budget on unrolled clause instances.
#[derive(Clone, Debug)]
pub struct Bmc {
    /// Deepest unrolling tried before answering `unknown`.
    pub max_depth: usize,
    /// Most unrolled clause instances before answering `unknown`.
    pub max_instances: usize,
}

impl Default for Bmc {
    fn default() -> Self {
        Bmc {
            max_depth: 100_000,
            max_instances: 200_000,
        }
    }
}

/// One way a body atom can be matched: a node, chosen when `pick` holds (or always).
struct Option_ {
    node: usize,
    pick: Option<VarId>,
}

/// A clause instance that can derive a node.
struct Choice {
    clause: ClauseId,
    selector: VarId,
    /// Clause variable → its copy in this instance.
    rename: HashMap<VarId, VarId>,
    /// Per body atom, the nodes it may be matched to.
    premises: Vec<Vec<Option_>>,
}

/// One predicate instance at one level (or a goal, which has no predicate).
struct Node {
    args: Vec<VarId>,
    active: VarId,
    choices: Vec<Choice>,
}

struct Unroller<'a, 's> {
    cx: &'a Context<'s>,
    system: &'a System,
    smt: Smt<'s>,
    nodes: Vec<Node>,
    /// `levels[ℓ][p]`: the node of predicate `p` at level `ℓ`.
    levels: Vec<HashMap<PredId, usize>>,
    /// Body atoms may match any lower level (non-linear systems), not just the one below.
    any_lower: bool,
    instances: usize,
}

impl<'a, 's> Unroller<'a, 's> {
    /// Nodes a body atom of `pred` may match from a node at level `level`.
    fn candidates(&self, pred: PredId, level: usize) -> Vec<usize> {
        let range = if self.any_lower {
            0..level
        } else {
            level.saturating_sub(1)..level
        };
        range
            .filter_map(|l| self.levels[l].get(&pred).copied())
            .collect()
    }

    /// Asserts the clause instances deriving a node with arguments `args` from nodes below
    /// `level`; returns the choices (selectors to disjoin under the node's active literal), or
    /// `None` when the engine was stopped on the way (a large unrolling takes tens of
    /// milliseconds per level, which the answer of another thread should not wait for).
    fn instances_of(
        &mut self,
        clauses: &[ClauseId],
        args: &[VarId],
        level: usize,
        tag: &str,
    ) -> Option<Vec<Choice>> {
        let store = self.cx.store;
        let mut choices = Vec::new();
        'clauses: for &cid in clauses {
            if self.cx.stopped() {
                return None;
            }
            let clause = self.system.clause(cid).clone();
            let mut premises = Vec::new();
            for atom in &clause.body {
                let cands = self.candidates(atom.pred, level);
                if cands.is_empty() {
                    continue 'clauses; // no instance of this premise exists yet
                }
                premises.push(cands);
            }
            self.instances += 1;
            let selector = store.new_var(&format!("sel{}{tag}", cid.0), Sort::Bool);
            let head = clause.head_atom().map(|h| h.args.as_slice()).unwrap_or(&[]);
            let fixed = head.iter().copied().zip(args.iter().copied());
            let (rename, constraint) = clause.instance(store, fixed, tag);
            let mut parts = vec![constraint];
            let mut options = Vec::new();
            for (atom, cands) in clause.body.iter().zip(premises) {
                let mut opts = Vec::new();
                let mut picks = Vec::new();
                for n in cands {
                    let node = &self.nodes[n];
                    let mut eqs = vec![store.var(node.active)];
                    for (a, x) in atom.args.iter().zip(&node.args) {
                        eqs.push(store.eq(store.var(rename[a]), store.var(*x)));
                    }
                    let matched = store.and(eqs);
                    if self.any_lower {
                        let pick = store.new_var(&format!("pick{tag}"), Sort::Bool);
                        self.smt.assert(store.implies(store.var(pick), matched));
                        picks.push(store.var(pick));
                        opts.push(Option_ {
                            node: n,
                            pick: Some(pick),
                        });
                    } else {
                        parts.push(matched);
                        opts.push(Option_ {
                            node: n,
                            pick: None,
                        });
                    }
                }
                if !picks.is_empty() {
                    parts.push(store.or(picks));
                }
                options.push(opts);
            }
            let body = store.and(parts);
            self.smt.assert(store.implies(store.var(selector), body));
            choices.push(Choice {
                clause: cid,
                selector,
                rename,
                premises: options,
            });
        }
        Some(choices)
    }

    fn add_node(&mut self, args: Vec<VarId>, choices: Vec<Choice>, tag: &str) -> usize {
        let store = self.cx.store;
        let active = store.new_var(&format!("active{tag}"), Sort::Bool);
        let sels: Vec<TermId> = choices.iter().map(|c| store.var(c.selector)).collect();
        self.smt
            .assert(store.implies(store.var(active), store.or(sels)));
        self.nodes.push(Node {
            args,
            active,
            choices,
        });
        self.nodes.len() - 1
    }

    /// Adds level `ℓ = levels.len()`: one node per predicate that has an instance; `false`
    /// when the engine was stopped before the level was complete (it is then unusable).
    fn add_level(&mut self) -> bool {
        let store = self.cx.store;
        let level = self.levels.len();
        let mut here = HashMap::new();
        for p in self.system.pred_ids() {
            let clauses: Vec<ClauseId> = self.system.clauses_defining(p).map(|(c, _)| c).collect();
            let d = self.system.pred(p);
            let tag = format!("@{level}");
            let args: Vec<VarId> = d
                .sorts
                .iter()
                .enumerate()
                .map(|(k, s)| store.new_var(&format!("{}#{k}{tag}", d.name), s.clone()))
                .collect();
            let Some(choices) = self.instances_of(&clauses, &args, level, &tag) else {
                return false;
            };
            if choices.is_empty() {
                continue;
            }
            let n = self.add_node(args, choices, &tag);
            here.insert(p, n);
        }
        self.levels.push(here);
        true
    }

    /// A goal node over the queries, matching premises up to the top level (`None`: stopped
    /// on the way).
    fn add_goal(&mut self) -> Option<usize> {
        let top = self.levels.len();
        let queries: Vec<ClauseId> = self.system.queries().map(|(c, _)| c).collect();
        let tag = format!("@goal{top}");
        let choices = self.instances_of(&queries, &[], top, &tag)?;
        Some(self.add_node(Vec::new(), choices, &tag))
    }

    fn is_true(&mut self, v: VarId) -> bool {
        self.smt.value(v) == Some(Value::Bool(true))
    }

    /// Reads the derivation of node `n` from the current model; returns its step index.
    fn extract(
        &mut self,
        n: usize,
        out: &mut Derivation,
        memo: &mut HashMap<usize, usize>,
    ) -> Option<usize> {
        if let Some(&i) = memo.get(&n) {
            return Some(i);
        }
        let k = (0..self.nodes[n].choices.len()).find(|&k| {
            let s = self.nodes[n].choices[k].selector;
            self.is_true(s)
        })?;
        let mut children = Vec::new();
        for j in 0..self.nodes[n].choices[k].premises.len() {
            let picked = (0..self.nodes[n].choices[k].premises[j].len()).find(|&o| {
                match self.nodes[n].choices[k].premises[j][o].pick {
                    None => true,
                    Some(p) => self.is_true(p),
                }
            })?;
            let child = self.nodes[n].choices[k].premises[j][picked].node;
            children.push(self.extract(child, out, memo)?);
        }
        let ch = &self.nodes[n].choices[k];
        let clause = ch.clause;
        let assignment = self.smt.values_of(&ch.rename)?;
        out.nodes.push(DerivNode {
            clause,
            assignment,
            children,
        });
        memo.insert(n, out.nodes.len() - 1);
        Some(out.nodes.len() - 1)
    }
}

/// For a linear system without recursion (no loop in the analysis' decomposition), the most
/// levels a derivation can take: each predicate occurs at most once along its chain. `None`
/// otherwise.
fn recursion_free_depth(store: &crate::term::TermStore, system: &System) -> Option<usize> {
    let linear = system.is_linear();
    (linear && crate::analysis::analyze(system, store).loops.is_empty())
        .then_some(system.num_preds().max(1))
}

impl Engine for Bmc {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let mut u = Unroller {
            cx,
            system,
            smt: Smt::new(cx.store, cx.deadline.clone()),
            nodes: Vec::new(),
            levels: Vec::new(),
            any_lower: !system.is_linear(),
            instances: 0,
        };
        // Levels to add before the next check: a check at depth d covers every derivation of
        // depth <= d, so when checks get slow we check less often rather than at every level.
        let mut stride = 1;
        let mut since_check = 0;
        let mut depth = None;
        // Every derivation has at most this many levels.
        let complete_at = recursion_free_depth(cx.store, system);
        let answer = loop {
            if cx.stopped() {
                break Answer::Unknown(Reason::Timeout);
            }
            if u.instances > self.max_instances {
                break Answer::Unknown(Reason::Limit(format!(
                    "bmc: budget of {} clause instances reached",
                    self.max_instances
                )));
            }
            if u.levels.len() > self.max_depth {
                break Answer::Unknown(Reason::Limit(format!(
                    "bmc: depth bound {} reached",
                    self.max_depth
                )));
            }
            if !u.add_level() {
                break Answer::Unknown(Reason::Timeout);
            }
            since_check += 1;
            if since_check < stride {
                continue;
            }
            since_check = 0;
            let Some(goal) = u.add_goal() else {
                break Answer::Unknown(Reason::Timeout);
            };
            depth = Some(u.levels.len() as u64);
            let started = Instant::now();
            let active = cx.store.var(u.nodes[goal].active);
            match u.smt.check_assuming(&[active]) {
                SatResult::Sat => {
                    let mut d = Derivation::default();
                    break match u.extract(goal, &mut d, &mut HashMap::new()) {
                        Some(_) => Answer::Unsat(d),
                        None => Answer::Unknown(Reason::GaveUp(
                            "bmc: could not read the counterexample".into(),
                        )),
                    };
                }
                SatResult::Unknown(r) => {
                    break Answer::Unknown(Reason::GaveUp(format!("bmc: {r}")))
                }
                SatResult::Unsat => {}
            }
            if complete_at.is_some_and(|d| u.levels.len() >= d) {
                break Answer::Unknown(Reason::GaveUp(
                    "bmc: no counterexample of any depth (linear, without recursion)".into(),
                ));
            }
            let took = started.elapsed().as_millis() as usize;
            stride = (took / CHECK_MS_PER_LEVEL)
                .max(u.levels.len() / DEPTH_PER_STRIDE)
                .clamp(1, MAX_STRIDE);
        };
        *stats = Stats::Bmc(BmcStats {
            depth,
            instances: u.instances as u64,
            smt_checks: u.smt.stats().checks,
        });
        answer
    }
}
