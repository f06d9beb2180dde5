//! The input relations: the facts of a clause system, as `u32` ids.
//!
//! Filled by `hornbeam::analysis::Facts::extract`; exported by `hornbeam facts` as Soufflé
//! `.facts` files with the same names and columns. Ids: predicates and clauses are the system's
//! `PredId`/`ClauseId` numbers, variables are the term store's `VarId` numbers; body positions
//! and argument indices count from 0; conjunct indices count the top-level conjuncts of a
//! clause's constraint from 0.

ascent::ascent_source! {
    /// Input relations of a clause system (no rules).
    chc_input:

    /// `pred(p, arity)`: a declared predicate.
    relation pred(u32, u32);
    /// `clause(c)`: a clause.
    relation clause(u32);
    /// `body_atom(c, position, p)`: the body atom at `position` of clause `c` applies `p`.
    relation body_atom(u32, u32, u32);
    /// `head_atom(c, p)`: the head of clause `c` applies `p` (absent for queries).
    relation head_atom(u32, u32);
    /// `query(c)`: clause `c` has head `false`.
    relation query(u32);
    /// `fact_clause(c)`: clause `c` has no body atom.
    relation fact_clause(u32);
    /// `body_arg(c, position, i, v)`: argument `i` of the body atom at `position` is variable `v`.
    relation body_arg(u32, u32, u32, u32);
    /// `head_arg(c, i, v)`: argument `i` of the head atom of `c` is variable `v`.
    relation head_arg(u32, u32, u32);
    /// `constraint_var(c, v)`: variable `v` occurs in the constraint of `c`.
    relation constraint_var(u32, u32);
    /// `conjunct(c, k)`: the constraint of `c` has a top-level conjunct number `k`.
    relation conjunct(u32, u32);
    /// `conjunct_var(c, k, v)`: variable `v` occurs in conjunct `k` of clause `c`.
    relation conjunct_var(u32, u32, u32);
    /// `definition(c, k, h)`: conjunct `k` of `c` is `h = e` (either side), where `h` is a head
    /// argument variable that occurs in no other conjunct and not in `e`: whatever the other
    /// variables are, some value of `h` satisfies it, so it never blocks a derivation.
    relation definition(u32, u32, u32);
    /// `arg_flow(c, p, i, q, j)`: in clause `c`, argument `i` of a body atom of `p` and argument
    /// `j` of the head atom (of `q`) are the same variable or occur in a common conjunct (a sound
    /// over-approximation of data flow).
    relation arg_flow(u32, u32, u32, u32, u32);
}
