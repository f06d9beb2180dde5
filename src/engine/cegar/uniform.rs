//! Uniform unfolding counterexamples (Terauchi, Section 3.1 and Appendix C) for linear clause
//! systems: every loop of the loop decomposition unfolded the same number `k` of times per
//! entry (nested loops `k` times per copy of the enclosing loop), as a recursion-free DAG of
//! predicate copies; solved as in Appendix D, by node-wise interpolants in topological order.
//!
//! Duty: build the unfolding that contains the abstract counterexample path, decide it with
//! Z3 (feasible: the path it finds, for the tree analysis to turn into a derivation; infeasible:
//! one checked interpolant per copy, added as candidates of the copied symbol). Must not: handle
//! non-linear clauses (the caller falls back to the tree shape), or add an unchecked predicate.

use super::abstraction::{ArtNode, Candidates, Cube};
use crate::analysis::Analysis;
use crate::chc::{ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::interp::{formula_size, Interpolator};
use crate::smt::{SatResult, Smt};
use crate::term::{Sort, TermId, TermStore, Value, VarId};
use std::collections::{HashMap, VecDeque};

/// Most predicate copies of one unfolding; beyond it the caller uses the tree shape.
const MAX_NODES: usize = 40;

/// A copy of a predicate in the unfolding.
struct Node {
    pred: PredId,
    /// One fresh variable per argument.
    vars: Vec<VarId>,
}

/// A clause instance: from a copy (none for a fact) to a copy (none for a query).
struct Edge {
    clause: ClauseId,
    from: Option<usize>,
    to: Option<usize>,
    /// The clause constraint over the copies' variables and fresh locals.
    constraint: TermId,
}

/// What the uniform analysis found.
pub enum Uniform {
    /// The unfolding has a feasible path to a query: the path, as ART nodes with the query
    /// clause and its premise (for the tree analysis, which replays it into a derivation).
    Path(Vec<ArtNode>, ClauseId, Vec<usize>),
    /// Infeasible: the sizes of the candidates added.
    Refined(Vec<u64>),
}

/// Enclosing loops of every predicate, outermost first.
fn enclosing(analysis: &Analysis, p: PredId) -> Vec<usize> {
    let mut out = Vec::new();
    let mut l = analysis.innermost_loop[p.0 as usize];
    while let Some(i) = l {
        out.push(i);
        l = analysis.loops[i].parent;
    }
    out.reverse();
    out
}

/// The number of unfoldings that contains the path `nodes` (a linear ART path): the most
/// occurrences of one predicate on it.
pub fn depth_of(nodes: &[ArtNode], kids: &[usize]) -> usize {
    let mut count: HashMap<PredId, usize> = HashMap::new();
    let mut cur = kids.first().copied();
    while let Some(n) = cur {
        *count.entry(nodes[n].pred).or_default() += 1;
        cur = nodes[n].children.first().copied();
    }
    count.values().copied().max().unwrap_or(1).max(1)
}

/// Builds the uniform unfolding of depth `k`; `None` when it has more than [`MAX_NODES`] copies.
fn build(
    store: &TermStore,
    system: &System,
    analysis: &Analysis,
    k: usize,
    tag: u64,
) -> Option<(Vec<Node>, Vec<Edge>)> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<(PredId, Vec<usize>), usize> = HashMap::new();
    let mut counters: Vec<Vec<usize>> = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut queue: VecDeque<usize> = VecDeque::new();
    let loops_of: Vec<Vec<usize>> = system.pred_ids().map(|p| enclosing(analysis, p)).collect();
    let member = |l: usize, p: PredId| analysis.loops[l].members.contains(&p);
    let head = |l: usize, p: PredId| analysis.loops[l].heads.contains(&p);
    let mut node_of = |p: PredId,
                       cs: Vec<usize>,
                       nodes: &mut Vec<Node>,
                       counters: &mut Vec<Vec<usize>>,
                       queue: &mut VecDeque<usize>|
     -> Option<usize> {
        if let Some(&n) = index.get(&(p, cs.clone())) {
            return Some(n);
        }
        if nodes.len() >= MAX_NODES {
            return None;
        }
        let n = nodes.len();
        let d = system.pred(p);
        let vars = d
            .sorts
            .iter()
            .enumerate()
            .map(|(i, s)| store.new_var(&format!("{}#{i}@u{tag}.{n}", d.name), s.clone()))
            .collect();
        nodes.push(Node { pred: p, vars });
        counters.push(cs.clone());
        index.insert((p, cs), n);
        queue.push_back(n);
        Some(n)
    };
    let instance = |cid: ClauseId, from: Option<&Node>, to: Option<&Node>, e: usize| -> TermId {
        let clause = system.clause(cid);
        let mut map: HashMap<VarId, TermId> = HashMap::new();
        if let (Some(atom), Some(f)) = (clause.body.first(), from) {
            map.extend(
                atom.args
                    .iter()
                    .zip(&f.vars)
                    .map(|(a, v)| (*a, store.var(*v))),
            );
        }
        if let (Some(h), Some(t)) = (clause.head_atom(), to) {
            map.extend(h.args.iter().zip(&t.vars).map(|(a, v)| (*a, store.var(*v))));
        }
        for v in clause.vars(store) {
            map.entry(v).or_insert_with(|| {
                let name = format!("{}@u{tag}.e{e}", store.var_name(v));
                store.var(store.new_var(&name, store.var_sort(v)))
            });
        }
        store.substitute(clause.constraint, &map)
    };
    // facts
    for (cid, clause) in system.clauses().filter(|(_, c)| c.is_fact()) {
        let Some(h) = clause.head_pred() else {
            continue; // a query without body: handled by the abstraction as a real cex
        };
        let cs = vec![0; loops_of[h.0 as usize].len()];
        let to = node_of(h, cs, &mut nodes, &mut counters, &mut queue)?;
        let constraint = instance(cid, None, Some(&nodes[to]), edges.len());
        edges.push(Edge {
            clause: cid,
            from: None,
            to: Some(to),
            constraint,
        });
    }
    while let Some(n) = queue.pop_front() {
        let q = nodes[n].pred;
        for (cid, clause) in system.clauses() {
            if clause.body.first().map(|a| a.pred) != Some(q) {
                continue;
            }
            let to = match clause.head_pred() {
                None => None,
                Some(p) => {
                    let mut cs = Vec::new();
                    let mut closed = false;
                    for &l in &loops_of[p.0 as usize] {
                        let c = if member(l, q) {
                            let at = loops_of[q.0 as usize].iter().position(|&x| x == l);
                            let before = at.map_or(0, |i| counters[n][i]);
                            before + usize::from(head(l, p))
                        } else {
                            0
                        };
                        closed |= c >= k;
                        cs.push(c);
                    }
                    if closed {
                        continue;
                    }
                    Some(node_of(p, cs, &mut nodes, &mut counters, &mut queue)?)
                }
            };
            let constraint = instance(cid, Some(&nodes[n]), to.map(|t| &nodes[t]), edges.len());
            edges.push(Edge {
                clause: cid,
                from: Some(n),
                to,
                constraint,
            });
        }
    }
    Some((nodes, edges))
}

/// Analyses the uniform unfolding of depth `k` (see the module header); `None` when the
/// unfolding is too large, the solver gives up or interpolation fails.
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    store: &TermStore,
    system: &System,
    analysis: &Analysis,
    deadline: Deadline,
    cands: &mut Candidates,
    k: usize,
    tag: u64,
    checks: &mut u64,
) -> Option<Uniform> {
    let (nodes, edges) = build(store, system, analysis, k, tag)?;
    let n = nodes.len();
    let into: Vec<Vec<usize>> = (0..n)
        .map(|m| {
            (0..edges.len())
                .filter(|&e| edges[e].to == Some(m))
                .collect()
        })
        .collect();
    let out_of: Vec<Vec<usize>> = (0..n)
        .map(|m| {
            (0..edges.len())
                .filter(|&e| edges[e].from == Some(m))
                .collect()
        })
        .collect();
    let fresh_bool = |name: &str| store.var(store.new_var(name, Sort::Bool));
    // Forward reachability: r_n ⇒ ∨ s_e (e into n), s_e ⇒ C_e ∧ r_from; some query s_q holds.
    let sel: Vec<TermId> = (0..edges.len()).map(|_| fresh_bool("sel")).collect();
    let reach: Vec<TermId> = (0..n).map(|_| fresh_bool("reach")).collect();
    let mut smt = Smt::new(store, deadline.clone());
    for m in 0..n {
        smt.assert(store.implies(reach[m], store.or(into[m].iter().map(|&e| sel[e]))));
    }
    for (e, edge) in edges.iter().enumerate() {
        let mut body = vec![edge.constraint];
        body.extend(edge.from.map(|f| reach[f]));
        smt.assert(store.implies(sel[e], store.and(body)));
    }
    let queries: Vec<usize> = (0..edges.len())
        .filter(|&e| edges[e].to.is_none())
        .collect();
    smt.assert(store.or(queries.iter().map(|&e| sel[e])));
    *checks += 1;
    match smt.check() {
        SatResult::Unknown(_) => return None,
        SatResult::Sat => {
            let ids: Vec<VarId> = sel.iter().filter_map(|&s| store.as_var(s)).collect();
            let vals = smt.values(ids.iter().copied())?;
            let on = |e: usize| {
                store
                    .as_var(sel[e])
                    .is_some_and(|v| vals.get(&v) == Some(&Value::Bool(true)))
            };
            let q = *queries.iter().find(|&&e| on(e))?;
            // walk back along selected edges
            let mut path: Vec<usize> = Vec::new();
            let mut cur = edges[q].from;
            while let Some(m) = cur {
                let e = *into[m].iter().find(|&&e| on(e))?;
                path.push(e);
                cur = edges[e].from;
                if path.len() > edges.len() {
                    return None;
                }
            }
            path.reverse();
            let art: Vec<ArtNode> = path
                .iter()
                .enumerate()
                .map(|(i, &e)| ArtNode {
                    pred: nodes[edges[e].to.expect("a path edge has a head")].pred,
                    cube: Cube::new(),
                    clause: edges[e].clause,
                    children: if i == 0 { Vec::new() } else { vec![i - 1] },
                })
                .collect();
            let kids = if art.is_empty() {
                Vec::new()
            } else {
                vec![art.len() - 1]
            };
            return Some(Uniform::Path(art, edges[q].clause, kids));
        }
        SatResult::Unsat => {}
    }
    // topological order of the copies
    let mut indeg: Vec<usize> = (0..n)
        .map(|m| into[m].iter().filter(|&&e| edges[e].from.is_some()).count())
        .collect();
    let mut order: Vec<usize> = (0..n).filter(|&m| indeg[m] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let m = order[i];
        i += 1;
        for &e in &out_of[m] {
            if let Some(t) = edges[e].to {
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    order.push(t);
                }
            }
        }
    }
    if order.len() != n {
        return None; // not a DAG: cannot happen for a loop decomposition, but stay safe
    }
    let mut itp = Interpolator::new(store, deadline);
    let mut label: Vec<Option<TermId>> = vec![None; n];
    let mut sizes = Vec::new();
    for &m in &order {
        // A: the ways into m, from the labels of its predecessors
        let ways: Vec<TermId> = into[m]
            .iter()
            .map(|&e| match edges[e].from {
                Some(f) => store.and([label[f].expect("topological order"), edges[e].constraint]),
                None => edges[e].constraint,
            })
            .collect();
        let a: Vec<TermId> = if ways.len() == 1 {
            store.conjuncts(ways[0])
        } else {
            vec![store.or(ways)]
        };
        // B: the paths from m to a query (g_p ⇒ ∨ t_e over edges out of p, t_e ⇒ C_e ∧ g_to)
        let mut b: Vec<TermId> = Vec::new();
        let mut seen = vec![false; n];
        let mut stack = vec![m];
        seen[m] = true;
        let goal: Vec<TermId> = (0..n).map(|_| fresh_bool("goal")).collect();
        while let Some(p) = stack.pop() {
            let mut alts = Vec::new();
            for &e in &out_of[p] {
                let t = fresh_bool("take");
                let mut body = vec![edges[e].constraint];
                if let Some(to) = edges[e].to {
                    body.push(goal[to]);
                    if !seen[to] {
                        seen[to] = true;
                        stack.push(to);
                    }
                }
                b.push(store.implies(t, store.and(body)));
                alts.push(t);
            }
            b.push(store.implies(goal[p], store.or(alts)));
        }
        b.push(goal[m]);
        let i = itp.interpolate_formulas(&a, &b)?;
        label[m] = Some(i);
    }
    *checks += itp.checks;
    for (m, node) in nodes.iter().enumerate() {
        let p = node.pred;
        let map: HashMap<VarId, TermId> = node
            .vars
            .iter()
            .zip(&cands.params[p.0 as usize])
            .map(|(a, x)| (*a, store.var(*x)))
            .collect();
        let i = label[m].expect("every copy labelled");
        for t in store.conjuncts(store.substitute(i, &map)) {
            if cands.add(store, p, t) {
                sizes.push(formula_size(store, t));
            }
        }
    }
    Some(Uniform::Refined(sizes))
}
