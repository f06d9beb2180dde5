//! Reachability and loop-modified variables of a control-flow automaton. Needs `cfa_input`.
//!
//! The loops themselves (cut points, members) come from the decomposition of the CFA's graph
//! with `chc_loops` (`hornbeam::analysis::decompose`), which fills `loop_member`.

ascent::ascent_source! {
    /// Reachable locations, variables each loop may modify.
    cfa_graph:

    /// `reach(l)`: a path of edges leads from the entry to `l`.
    relation reach(u32);
    reach(l) <-- cfa_entry(l);
    reach(m) <-- reach(l), cfa_edge(_, l, m);

    /// `loop_member(h, l)`: location `l` belongs to the loop whose first head is `h` (input,
    /// from the decomposition).
    relation loop_member(u32, u32);

    /// `modifies(h, v)`: an edge leaving a member of loop `h` may assign `v`.
    relation modifies(u32, u32);
    modifies(h, v) <-- loop_member(h, l), cfa_edge(e, l, _), writes(e, v);
}
