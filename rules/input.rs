//! The input relations of a clause system: declared once here (the ascent source `chc_input`,
//! the struct [`Facts`] that `Facts::extract` fills and `hornbeam facts` writes, and the macro
//! [`chc_input_facts!`](chc_input_facts) that loads them into an ascent program).
//!
//! Ids: predicates, clauses and variables are the system's `PredId`, `ClauseId` and the term
//! store's `VarId`; body positions, argument indices and conjunct indices count from 0
//! (conjuncts are the top-level conjuncts of a clause's constraint). Normal form: a clause's
//! body atoms and its head never share a variable (every argument is a fresh variable; the
//! constraint relates them), so data flow from body to head is read from `definition` and
//! `arg_flow`, not from equal ids.

crate::relations! {
    /// The input relations of a clause system (no rules): what `Facts::extract` computes.
    pub struct Facts;
    source chc_input, macro chc_input_facts = __chc_input_facts;

    /// A declared predicate `p` and its arity.
    pred(p: ::hornbeam::chc::PredId, arity: u32);
    /// The input name of predicate `p`.
    pred_name(p: ::hornbeam::chc::PredId, name: String);
    /// Argument `i` of predicate `p` has an SMT-LIB sort.
    arg_sort(p: ::hornbeam::chc::PredId, i: u32, sort: String);
    /// Predicate `p` is declared at `line:col` (its name; only for a system read from a file).
    pred_at(p: ::hornbeam::chc::PredId, line: u32, col: u32);
    /// A clause `c`.
    clause(c: ::hornbeam::chc::ClauseId);
    /// Clause `c` comes from the assertion at `line:col` (one assertion may give several; only
    /// for a system read from a file).
    clause_at(c: ::hornbeam::chc::ClauseId, line: u32, col: u32);
    /// The body atom at `position` of clause `c` applies predicate `p`.
    body_atom(c: ::hornbeam::chc::ClauseId, position: u32, p: ::hornbeam::chc::PredId);
    /// The head of clause `c` applies predicate `p` (absent for queries).
    head_atom(c: ::hornbeam::chc::ClauseId, p: ::hornbeam::chc::PredId);
    /// Clause `c` has head `false`.
    query(c: ::hornbeam::chc::ClauseId);
    /// Clause `c` has no body atom.
    fact_clause(c: ::hornbeam::chc::ClauseId);
    /// Argument `i` of the body atom at `position` of clause `c` is variable `v`.
    body_arg(c: ::hornbeam::chc::ClauseId, position: u32, i: u32, v: ::hornbeam::term::VarId);
    /// Argument `i` of the head atom of clause `c` is variable `v`.
    head_arg(c: ::hornbeam::chc::ClauseId, i: u32, v: ::hornbeam::term::VarId);
    /// Variable `v` occurs in the constraint of clause `c`.
    constraint_var(c: ::hornbeam::chc::ClauseId, v: ::hornbeam::term::VarId);
    /// The constraint of clause `c` has a top-level conjunct number `k`.
    conjunct(c: ::hornbeam::chc::ClauseId, k: u32);
    /// Variable `v` occurs in conjunct `k` of clause `c`.
    conjunct_var(c: ::hornbeam::chc::ClauseId, k: u32, v: ::hornbeam::term::VarId);
    /// Conjunct `k` of clause `c` is `h = e` (either side), where `h` is a head argument
    /// variable that occurs in no other conjunct and not in `e`: whatever the other variables
    /// are, some value of `h` satisfies it, so it never blocks a derivation.
    definition(c: ::hornbeam::chc::ClauseId, k: u32, h: ::hornbeam::term::VarId);
    /// In clause `c`, argument `i` of a body atom of `p` and argument `j` of the head atom (of
    /// `q`) are the same variable or occur in a common conjunct (a sound over-approximation of
    /// data flow).
    arg_flow(
        c: ::hornbeam::chc::ClauseId,
        p: ::hornbeam::chc::PredId,
        i: u32,
        q: ::hornbeam::chc::PredId,
        j: u32,
    );
    /// The name of variable `v` (every variable occurring in a clause).
    var_name(v: ::hornbeam::term::VarId, name: String);
    /// Conjunct `k` of clause `c` is `v op n`, `n` an integer constant (`op`: `<=`, `<`, `>=`,
    /// `>`, `=`, `!=`).
    bound(
        c: ::hornbeam::chc::ClauseId,
        k: u32,
        v: ::hornbeam::term::VarId,
        op: &'static str,
        n: i64,
    );
    /// Conjunct `k` of clause `c` says `a = b + d`, `d` an integer constant (read both ways).
    step(
        c: ::hornbeam::chc::ClauseId,
        k: u32,
        a: ::hornbeam::term::VarId,
        b: ::hornbeam::term::VarId,
        d: i64,
    );
}
