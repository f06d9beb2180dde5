//! Strongly connected components of a subgraph by Tarjan's algorithm, with an explicit stack
//! (no recursion, so chains of any length are fine), and the ranks of the components in their
//! condensation. Linear in the subgraph's size.
//!
//! Duty: the one graph computation of the loop decomposition that Datalog cannot do without a
//! transitive closure. Must not know about clauses or loops.

use std::collections::HashMap;

/// The components of a subgraph.
pub(super) struct Components {
    /// Each component's members, sorted; components in topological order (every edge between
    /// two components goes from an earlier one to a later one).
    pub(super) members: Vec<Vec<u32>>,
    /// Per component: whether it contains a cycle (two members or more, or a self-loop).
    pub(super) cyclic: Vec<bool>,
    /// Per component: the length of the longest chain of components leading to it.
    pub(super) rank: Vec<u32>,
}

/// The components of the subgraph induced by `nodes` (distinct) in the graph whose successor
/// lists `succ` gives.
pub(super) fn components(nodes: &[u32], succ: &HashMap<u32, Vec<u32>>) -> Components {
    let index_of: HashMap<u32, usize> = nodes.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let n = nodes.len();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|p| {
            succ.get(p)
                .into_iter()
                .flatten()
                .filter_map(|q| index_of.get(q).copied())
                .collect()
        })
        .collect();
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp_of = vec![usize::MAX; n];
    // Components in the order Tarjan's algorithm closes them: reverse topological.
    let mut closed: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // Frames of the depth-first search: (node, next successor to look at).
        let mut frames = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = frames.last_mut() {
            if let Some(&w) = adj[v].get(*k) {
                *k += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(u, _)) = frames.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp_of[w] = closed.len();
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                closed.push(comp);
            }
        }
    }
    // Topological order is the reverse of the closing order.
    let m = closed.len();
    let topo = |c: usize| m - 1 - c;
    let mut members = vec![Vec::new(); m];
    let mut cyclic = vec![false; m];
    for (c, comp) in closed.iter().enumerate() {
        let mut ps: Vec<u32> = comp.iter().map(|&i| nodes[i]).collect();
        ps.sort_unstable();
        cyclic[topo(c)] = comp.len() > 1 || adj[comp[0]].contains(&comp[0]);
        members[topo(c)] = ps;
    }
    let mut rank = vec![0u32; m];
    for c in 0..m {
        // Components in topological order: every predecessor's rank is final.
        for &i in closed[m - 1 - c].iter() {
            for &j in &adj[i] {
                let d = topo(comp_of[j]);
                if d != c {
                    rank[d] = rank[d].max(rank[c] + 1);
                }
            }
        }
    }
    Components {
        members,
        cyclic,
        rank,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(u32, u32)]) -> HashMap<u32, Vec<u32>> {
        let mut g: HashMap<u32, Vec<u32>> = HashMap::new();
        for &(p, q) in edges {
            g.entry(p).or_default().push(q);
        }
        g
    }

    #[test]
    fn cycles_chains_and_self_loops() {
        // 0 -> 1 <-> 2 -> 3 (self-loop) -> 4; 5 alone.
        let g = graph(&[(0, 1), (1, 2), (2, 1), (2, 3), (3, 3), (3, 4)]);
        let c = components(&[0, 1, 2, 3, 4, 5], &g);
        let pos = |p: u32| c.members.iter().position(|m| m.contains(&p)).unwrap();
        assert_eq!(c.members.len(), 5);
        assert_eq!(c.members[pos(1)], vec![1, 2]);
        assert!(pos(0) < pos(1) && pos(1) < pos(3) && pos(3) < pos(4));
        assert!(c.cyclic[pos(1)] && c.cyclic[pos(3)]);
        assert!(!c.cyclic[pos(0)] && !c.cyclic[pos(4)] && !c.cyclic[pos(5)]);
        assert_eq!([0, 1, 3, 4, 5].map(|p| c.rank[pos(p)]), [0, 1, 2, 3, 0]);
    }

    #[test]
    fn subgraph_ignores_other_nodes() {
        // The cycle 1 -> 2 -> 1 is broken when 2 is not in the subgraph.
        let g = graph(&[(1, 2), (2, 1)]);
        let c = components(&[1], &g);
        assert_eq!(c.members, vec![vec![1]]);
        assert_eq!(c.cyclic, vec![false]);
    }

    #[test]
    fn long_chain_is_fine() {
        let edges: Vec<(u32, u32)> = (0..200_000).map(|i| (i, i + 1)).collect();
        let nodes: Vec<u32> = (0..=200_000).collect();
        let c = components(&nodes, &graph(&edges));
        assert_eq!(c.members.len(), 200_001);
        assert_eq!(c.rank[200_000], 200_000);
    }
}
