//! One step of loop decomposition (Terauchi, "Small refinements", Appendix A.4, `PROCESS`).
//!
//! Self-contained: it declares its own inputs. The driver (`src/analysis`) fills `arc` with the
//! edges of the whole predicate graph that enter the current subgraph, `entry` with the
//! predicates defined by fact clauses, `active` with the current subgraph (at first every
//! predicate), and `scc`/`cyclic` with the subgraph's strongly connected components. It reads
//! each cyclic component's heads, removes them and runs the rules again on each loop's
//! remaining members — the recursion of Algorithm 1. An irreducible loop simply has several
//! heads.
//!
//! The components themselves come from Tarjan's algorithm in the driver, not from rules: in
//! Datalog they need the transitive closure of the graph (a `path` relation), which is
//! quadratic on a chain of predicates; Tarjan's algorithm is linear in the graph.

ascent::ascent_source! {
    /// The heads of the cyclic components of the active subgraph.
    chc_loops:

    /// `active(p)`: `p` belongs to the subgraph being decomposed.
    relation active(u32);
    /// `arc(p, q)`: an edge of the whole predicate graph (not only the active part).
    relation arc(u32, u32);
    /// `entry(p)`: a fact clause defines `p` (an edge from outside every loop).
    relation entry(u32);
    /// `scc(p, r)`: active `p` is in the strongly connected component named `r` (its smallest
    /// member) of the active subgraph.
    relation scc(u32, u32);
    /// `cyclic(p)`: `p` lies on a cycle of the active subgraph.
    relation cyclic(u32);

    /// `cycle_head(p)`: `p` is in a cyclic component and has an edge from outside it (in the
    /// whole graph), or is defined by a fact clause.
    relation cycle_head(u32);
    cycle_head(p) <-- cyclic(p), arc(q, p), scc(p, r), !scc(q, r);
    cycle_head(p) <-- cyclic(p), entry(p);
}
