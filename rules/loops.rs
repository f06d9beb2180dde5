//! One step of loop decomposition (Terauchi, "Small refinements", Appendix A.4, `PROCESS`).
//!
//! Self-contained: it declares its own inputs. The driver (`src/analysis`) fills `arc` with the
//! whole predicate graph, `entry` with the predicates defined by fact clauses, and `active` with
//! the current subgraph (at first every predicate); it reads the strongly connected components,
//! records each cyclic one as a loop with its heads, removes the heads and runs the rules again
//! on each loop's remaining members — the recursion of Algorithm 1. An irreducible loop simply
//! has several heads.

ascent::ascent_source! {
    /// SCCs of the active subgraph, their heads and a topological rank of the condensation.
    chc_loops:

    /// `active(p)`: `p` belongs to the subgraph being decomposed.
    relation active(u32);
    /// `arc(p, q)`: an edge of the whole predicate graph (not only the active part).
    relation arc(u32, u32);
    /// `entry(p)`: a fact clause defines `p` (an edge from outside every loop).
    relation entry(u32);

    /// `path(p, q)`: a non-empty path from `p` to `q` inside the active subgraph.
    relation path(u32, u32);
    path(p, q) <-- arc(p, q), active(p), active(q);
    path(p, r) <-- path(p, q), arc(q, r), active(r);

    /// `cyclic(p)`: `p` lies on a cycle of the active subgraph.
    relation cyclic(u32);
    cyclic(p) <-- path(p, q), if p == q;

    /// `same_scc(p, q)`: `p` and `q` are in the same cyclic strongly connected component.
    relation same_scc(u32, u32);
    same_scc(p, q) <-- path(p, q), path(q, p);

    /// `scc_rep(p, r)`: `r` (the smallest member) names the component of active `p`; a
    /// predicate on no cycle is its own component.
    relation scc_rep(u32, u32);
    scc_rep(p, r) <-- cyclic(p), agg r = ::ascent::aggregators::min(q) in same_scc(p, q);
    scc_rep(p, p) <-- active(p), !cyclic(p);

    /// `loop_head(p)`: `p` is in a cyclic component and has an edge from outside it (in the
    /// whole graph), or is defined by a fact clause.
    relation loop_head(u32);
    loop_head(p) <-- cyclic(p), arc(q, p), !same_scc(p, q);
    loop_head(p) <-- cyclic(p), entry(p);

    /// `scc_edge(r, s)`: an edge between two distinct components of the active subgraph.
    relation scc_edge(u32, u32);
    scc_edge(r, s) <-- arc(p, q), scc_rep(p, r), scc_rep(q, s), if r != s;

    /// `rank(r, n)`: the length of the longest chain of components leading to component `r`
    /// (sorting by rank is a topological order of the condensation).
    lattice rank(u32, u32);
    rank(r, 0) <-- scc_rep(_, r);
    rank(s, n + 1) <-- rank(r, n), scc_edge(r, s);
}
