//! Live variables of a control-flow automaton (backward may-analysis). Needs `cfa_input`.
//!
//! A variable is live at a location when some path from it reads the variable before every
//! assignment that surely happens (`kills`): its value at the location can matter. A variable
//! that is dead at a cut point need not be an argument of the cut point's predicate.
//!
//! The recursive rule joins the growing relation first (see `graph.rs` on why).

ascent::ascent_source! {
    /// Live variables per location.
    cfa_liveness:

    /// `live(l, v)`: the value of `v` at location `l` may be read later.
    relation live(u32, u32);
    live(l, v) <-- cfa_edge(e, l, _), uses(e, v);
    live(l, v) <-- live(m, v), cfa_edge(e, l, m), !kills(e, v);
}
