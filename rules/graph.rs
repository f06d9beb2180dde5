//! The predicate graph and reachability. Needs `chc_input` and `chc_derived` (which declares
//! `edge`, `fires`, `reachable`, `co_reachable`, `useful_clause` and `useful`).
//!
//! Recursive rules start with (or join first with) the relation that grows: ascent evaluates
//! a rule by iterating its first two body relations (the smaller one first), so a rule whose
//! growing relation comes third would scan a whole relation at every step of a fixpoint that
//! takes as many steps as the longest chain of predicates (quadratic on a chain).

ascent::ascent_source! {
    /// Predicate graph, reachability from facts, co-reachability of queries, useful clauses.
    chc_graph:

    // `edge`, `fires`, `reachable`, `co_reachable`, `useful_clause`, `useful`: see
    // `chc_derived` for their meaning.
    edge(p, q) <-- body_atom(c, _, p), head_atom(c, q);

    /// `has_atom_at(c, i)`: clause `c` has a body atom at position `i`.
    relation has_atom_at(::hornbeam::chc::ClauseId, u32);
    has_atom_at(c, i) <-- body_atom(c, i, _);

    /// `atom_ready(c, i)`: the body atom of `c` at position `i` applies a reachable predicate.
    relation atom_ready(::hornbeam::chc::ClauseId, u32);
    atom_ready(c, i) <-- reachable(p), body_atom(c, i, p);

    /// `body_ready(c, i)`: the body atoms of `c` at positions `0..i` all apply reachable
    /// predicates (positions are contiguous from 0).
    relation body_ready(::hornbeam::chc::ClauseId, u32);
    body_ready(c, 0) <-- clause(c);
    body_ready(c, i + 1) <-- body_ready(c, i), atom_ready(c, i);

    fires(c) <-- body_ready(c, i), !has_atom_at(c, i);

    reachable(p) <-- fires(c), head_atom(c, p);

    co_reachable(p) <-- query(c), body_atom(c, _, p);
    co_reachable(p) <-- edge(p, q), co_reachable(q);

    useful_clause(c) <-- fires(c), query(c);
    useful_clause(c) <-- useful(q), head_atom(c, q), fires(c);

    useful(p) <-- useful_clause(c), body_atom(c, _, p);
}
