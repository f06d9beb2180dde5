//! The derived relations of a clause system that `hornbeam facts` exports and rule files read:
//! declared once here (the ascent source `chc_derived`, the struct [`Derived`] and the macro
//! [`chc_derived_facts!`](chc_derived_facts)). The rules that compute them are in `graph.rs`
//! and `liveness.rs` (which need this source and `chc_input`); the loops come from the loop
//! decomposition (`hornbeam::analysis::decompose`), not from rules.

crate::relations! {
    /// The derived relations of a clause system (declarations only).
    pub struct Derived;
    source chc_derived, macro chc_derived_facts = __chc_derived_facts;

    /// Some clause has `p` in its body and `q` as its head.
    edge(p: ::hornbeam::chc::PredId, q: ::hornbeam::chc::PredId);
    /// Every body atom of clause `c` applies a reachable predicate, so the clause can be used
    /// in a derivation from facts (up to its constraint, which is not looked at).
    fires(c: ::hornbeam::chc::ClauseId);
    /// `p` is the head of a clause that fires: derivable from facts, ignoring constraints (a
    /// non-linear clause needs all its body predicates).
    reachable(p: ::hornbeam::chc::PredId);
    /// A path of edges leads from `p` to the body of a query.
    co_reachable(p: ::hornbeam::chc::PredId);
    /// Clause `c` fires and its head is `false` or a useful predicate: it may take part in a
    /// derivation of `false`. The other clauses can be dropped without changing the answer.
    useful_clause(c: ::hornbeam::chc::ClauseId);
    /// `p` occurs in the body of a useful clause.
    useful(p: ::hornbeam::chc::PredId);
    /// Argument `i` of `p` can influence whether a query fires.
    live(p: ::hornbeam::chc::PredId, i: u32);
    /// `p` is a head of loop `l` (loops of the decomposition, numbered outer first).
    loop_head(l: u32, p: ::hornbeam::chc::PredId);
    /// `p` belongs to loop `l` (members of nested loops included).
    loop_member(l: u32, p: ::hornbeam::chc::PredId);
    /// Loop `l` is nested in loop `m`.
    loop_parent(l: u32, m: u32);
}
