//! The predicate graph and reachability. Needs `chc_input`.
//!
//! Recursive rules start with (or join first with) the relation that grows: ascent evaluates
//! a rule by iterating its first two body relations (the smaller one first), so a rule whose
//! growing relation comes third would scan a whole relation at every step of a fixpoint that
//! takes as many steps as the longest chain of predicates (quadratic on a chain).

ascent::ascent_source! {
    /// Predicate graph, reachability from facts, co-reachability of queries, useful clauses.
    chc_graph:

    /// `edge(p, q)`: some clause has `p` in its body and `q` as its head.
    relation edge(u32, u32);
    edge(p, q) <-- body_atom(c, _, p), head_atom(c, q);

    /// `has_atom_at(c, i)`: clause `c` has a body atom at position `i`.
    relation has_atom_at(u32, u32);
    has_atom_at(c, i) <-- body_atom(c, i, _);

    /// `atom_ready(c, i)`: the body atom of `c` at position `i` applies a reachable predicate.
    relation atom_ready(u32, u32);
    atom_ready(c, i) <-- reachable(p), body_atom(c, i, p);

    /// `body_ready(c, i)`: the body atoms of `c` at positions `0..i` all apply reachable
    /// predicates (positions are contiguous from 0).
    relation body_ready(u32, u32);
    body_ready(c, 0) <-- clause(c);
    body_ready(c, i + 1) <-- body_ready(c, i), atom_ready(c, i);

    /// `fires(c)`: every body atom of `c` applies a reachable predicate, so the clause can be
    /// used in a derivation from facts (up to its constraint, which is not looked at).
    relation fires(u32);
    fires(c) <-- body_ready(c, i), !has_atom_at(c, i);

    /// `reachable(p)`: `p` is the head of a clause that fires (hyper-graph reachability: a
    /// non-linear clause needs all its body predicates).
    relation reachable(u32);
    reachable(p) <-- fires(c), head_atom(c, p);

    /// `co_reachable(p)`: a path of edges leads from `p` to the body of a query.
    relation co_reachable(u32);
    co_reachable(p) <-- query(c), body_atom(c, _, p);
    co_reachable(p) <-- edge(p, q), co_reachable(q);

    /// `useful_clause(c)`: `c` fires and its head is `false` or a useful predicate: the clause
    /// may be part of a derivation of `false`. Other clauses can be dropped without changing
    /// the answer.
    relation useful_clause(u32);
    useful_clause(c) <-- fires(c), query(c);
    useful_clause(c) <-- useful(q), head_atom(c, q), fires(c);

    /// `useful(p)`: `p` occurs in the body of a useful clause.
    relation useful(u32);
    useful(p) <-- useful_clause(c), body_atom(c, _, p);
}
