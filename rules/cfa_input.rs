//! The input relations of a program's control-flow automaton (one function): declared once
//! here (the ascent source `cfa_input`, the struct [`CfaFacts`] that
//! `hornbeam::frontend::c::cfa::structure` fills, and the macro
//! [`cfa_input_facts!`](cfa_input_facts) that loads them into an ascent program).
//!
//! Ids: locations and edges are the CFA's `LocId`/`EdgeId` numbers; variables number the
//! program's globals from 0, then the function's locals (parameters first) after them. The
//! columns are `u32`: this layer does not know the C front end's id types. `hornbeam facts
//! PROG.c` exports these relations with the function's index first (the front end's
//! `ProgramFacts`).

crate::relations! {
    /// The input relations of one function's control-flow automaton (no rules).
    pub struct CfaFacts;
    source cfa_input, macro cfa_input_facts = __cfa_input_facts;

    /// Edge `e` leads from location `from` to location `to`.
    cfa_edge(e: u32, from: u32, to: u32);
    /// Location `l` is the function's entry.
    cfa_entry(l: u32);
    /// Edge `e` may read variable `v` before it surely assigns it (a call reads every global;
    /// the return of a function other than `main` reads every global, which its summary passes
    /// on). A temporary the statement assigns and then reads is not used.
    uses(e: u32, v: u32);
    /// Edge `e` may assign variable `v` (a call may assign every global).
    writes(e: u32, v: u32);
    /// Every execution of edge `e` assigns `v` as a whole (a declaration, an assignment not
    /// under a condition): its value before the edge is not what the edge leaves.
    kills(e: u32, v: u32);
}
