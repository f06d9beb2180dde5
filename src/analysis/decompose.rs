//! Loop decomposition of a directed graph (Terauchi, "Small refinements", Appendix A.4,
//! Algorithm 1): the cyclic strongly connected components, their heads (members entered from
//! outside, or entries of the graph), and recursively the loops among the remaining members.
//! One step's heads come from the `chc_loops` rule set; the components from Tarjan's
//! algorithm. Used for predicate graphs ([`super::Analysis`]) and for programs' control-flow
//! automata (the C front end), whose nodes are plain `u32` ids here.
//!
//! Must not: know what the nodes are.

use super::{programs, scc};
use std::collections::{BTreeSet, HashMap};

/// A loop of the decomposition: a strongly connected set of nodes, entered through its heads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphLoop {
    /// The members with an arc from outside the loop, or entries (several for an irreducible
    /// loop); the smallest member for a cycle no arc enters.
    pub heads: Vec<u32>,
    /// All members, heads and nested loops included, sorted.
    pub members: Vec<u32>,
    /// The index of the enclosing loop, if any.
    pub parent: Option<usize>,
    /// Nesting depth: 0 for an outermost loop.
    pub depth: usize,
}

/// The loops of a graph and a weak topological order of its nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decomposition {
    /// The loops, outer loops before the loops they contain (`parent < index`).
    pub loops: Vec<GraphLoop>,
    /// Every node once: components in topological order; inside a loop, its heads first, then
    /// the order of the remaining members (recursively).
    pub order: Vec<u32>,
}

/// Decomposes the graph on nodes `0..nodes` with the given arcs; `entries` are the nodes
/// entered from outside the graph (facts, a function's entry).
pub fn decompose(nodes: u32, arcs: &[(u32, u32)], entries: &[u32]) -> Decomposition {
    let mut succ: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut pred: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(p, q) in arcs {
        succ.entry(p).or_default().push(q);
        pred.entry(q).or_default().push(p);
    }
    let mut dec = Decomposer {
        succ,
        pred,
        entries: entries.iter().map(|&p| (p,)).collect(),
        loops: Vec::new(),
        order: Vec::new(),
    };
    dec.process((0..nodes).collect(), None, 0);
    Decomposition {
        loops: dec.loops,
        order: dec.order,
    }
}

/// The state of the recursive loop decomposition.
struct Decomposer {
    /// Successors and predecessors in the whole predicate graph.
    succ: HashMap<u32, Vec<u32>>,
    pred: HashMap<u32, Vec<u32>>,
    entries: Vec<(u32,)>,
    loops: Vec<GraphLoop>,
    order: Vec<u32>,
}

impl Decomposer {
    /// `PROCESS(G')` for the subgraph induced by `active`. Each level costs the size of its
    /// subgraph (and the edges entering it); nested loops recurse on their remaining members.
    fn process(&mut self, active: Vec<u32>, parent: Option<usize>, depth: usize) {
        let comps = scc::components(&active, &self.succ);
        let mut prog = programs::LoopStep::default();
        prog.active = active.iter().map(|&p| (p,)).collect();
        prog.arc = active
            .iter()
            .flat_map(|&q| {
                self.pred
                    .get(&q)
                    .into_iter()
                    .flatten()
                    .map(move |&p| (p, q))
            })
            .collect();
        prog.entry = self.entries.clone();
        for (members, &cyclic) in comps.members.iter().zip(&comps.cyclic) {
            let r = members[0];
            prog.scc.extend(members.iter().map(|&p| (p, r)));
            if cyclic {
                prog.cyclic.extend(members.iter().map(|&p| (p,)));
            }
        }
        prog.run();
        let heads: BTreeSet<u32> = prog.cycle_head.iter().map(|&(p,)| p).collect();
        // Components by rank, then by smallest member: a topological order of the condensation
        // that does not depend on how the search visited the graph.
        let mut by_rank: Vec<usize> = (0..comps.members.len()).collect();
        by_rank.sort_by_key(|&c| (comps.rank[c], comps.members[c][0]));
        for c in by_rank {
            let members = &comps.members[c];
            if !comps.cyclic[c] {
                self.order.extend(members.iter().copied());
                continue;
            }
            let mut hds: Vec<u32> = members
                .iter()
                .copied()
                .filter(|p| heads.contains(p))
                .collect();
            if hds.is_empty() {
                hds.push(members[0]);
            }
            let index = self.loops.len();
            self.loops.push(GraphLoop {
                heads: hds.clone(),
                members: members.clone(),
                parent,
                depth,
            });
            self.order.extend(hds.iter().copied());
            let rest: Vec<u32> = members
                .iter()
                .copied()
                .filter(|p| !hds.contains(p))
                .collect();
            if !rest.is_empty() {
                self.process(rest, Some(index), depth + 1);
            }
        }
    }
}
