//! Liveness of predicate arguments (`live`). Needs `chc_input` and `chc_derived`.
//!
//! An argument `(p, i)` is live when its value can influence whether a query clause fires.
//! A sound over-approximation, conjunct by conjunct:
//! - a *guard* is every conjunct that is not a [`definition`](super::chc_input) `h = e` of a
//!   head variable (all conjuncts of a query are guards). A guard can block a derivation, so
//!   every variable in it is live in its clause;
//! - a definition `h = e` matters only when the head argument holding `h` is live: then the
//!   variables of `e` are live in the clause; a variable passed unchanged to a live head
//!   argument is live too;
//! - a body argument holding a variable live in its clause is a live argument of its predicate.
//!
//! The recursive rules join the growing relation first (see `graph.rs` on why).
//!
//! Dead arguments can be projected away without changing the answer: a dead body argument
//! occurs in no guard and only feeds definitions of dead head arguments, which can always be
//! satisfied whatever its value.

ascent::ascent_source! {
    /// Live arguments of predicates.
    chc_liveness:

    /// `defining(c, k)`: conjunct `k` of `c` is a definition.
    relation defining(::hornbeam::chc::ClauseId, u32);
    defining(c, k) <-- definition(c, k, _);

    /// `guard(c, k)`: conjunct `k` of `c` may block a derivation.
    relation guard(::hornbeam::chc::ClauseId, u32);
    guard(c, k) <-- conjunct(c, k), !defining(c, k);

    /// `live_var(c, v)`: the value of `v` in clause `c` can matter.
    relation live_var(::hornbeam::chc::ClauseId, ::hornbeam::term::VarId);
    live_var(c, v) <-- guard(c, k), conjunct_var(c, k, v);
    live_var(c, v) <-- live_head(c, h), definition(c, k, h), conjunct_var(c, k, v);
    live_var(c, v) <-- live_head(c, v);

    /// `live_head(c, h)`: `h` fills a live argument of the head of `c`.
    relation live_head(::hornbeam::chc::ClauseId, ::hornbeam::term::VarId);
    live_head(c, h) <-- live(q, j), head_atom(c, q), head_arg(c, j, h);

    live(p, i) <-- live_var(c, v), body_arg(c, pos, i, v), body_atom(c, pos, p);
}
