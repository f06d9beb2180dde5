//! The input relations of a program's control-flow automaton (one function), as `u32` ids.
//!
//! Filled by `hornbeam::frontend::c::cfa::structure`; exported by `hornbeam facts PROG.c` as
//! Soufflé `.facts` files with the same names and columns. Ids: locations and edges are the
//! CFA's `LocId`/`EdgeId` numbers; variables number the program's globals from 0, then the
//! function's locals (parameters first) after them.

ascent::ascent_source! {
    /// Input relations of a control-flow automaton (no rules).
    cfa_input:

    /// `cfa_edge(e, from, to)`: edge `e` leads from location `from` to location `to`.
    relation cfa_edge(u32, u32, u32);
    /// `cfa_entry(l)`: `l` is the function's entry.
    relation cfa_entry(u32);
    /// `uses(e, v)`: edge `e` may read variable `v` (a call reads every global; the return
    /// of a function other than `main` reads every global, which its summary passes on).
    relation uses(u32, u32);
    /// `writes(e, v)`: edge `e` may assign `v` (a call may assign every global).
    relation writes(u32, u32);
    /// `kills(e, v)`: every execution of edge `e` assigns `v`, and the edge does not read `v`
    /// before (a declaration, or an expression statement `v = e`).
    relation kills(u32, u32);
}
