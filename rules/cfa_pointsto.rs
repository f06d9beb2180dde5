//! Andersen-style (inclusion-based, flow- and context-insensitive) points-to sets of a C
//! program's pointer variables, over *cells*: every scalar cell (a scalar variable, or one
//! field of a flattened struct variable) whose address is taken has an id, consecutive within
//! its object. Self-contained (its own input relations), filled by
//! `hornbeam::frontend::c::resolve` (`lower.rs`).
//!
//! Nodes are variables (globals, locals of each function, one return node per function).

ascent::ascent_source! {
    /// Points-to sets of a program's variables.
    cfa_pointsto:

    /// `addr(n, c)`: node `n` is assigned the address of cell `c`.
    relation addr(u32, u32);
    /// `copy(n, m)`: node `n` is assigned the value of node `m` (assignments, arguments to
    /// parameters, returned values to the callee's return node, the return node to the
    /// receiver).
    relation copy(u32, u32);
    /// `load(n, t, k)`: `n` is assigned the cell `k` cells after a target of `t` (`n = t->f`).
    relation load(u32, u32, u32);
    /// `store(t, k, m)`: the cell `k` cells after a target of `t` is assigned `m`.
    relation store(u32, u32, u32);
    /// `field_addr(n, t, k)`: `n` is assigned the address `k` cells after a target of `t`.
    relation field_addr(u32, u32, u32);
    /// `cell(c, v, o)`: cell `c` is the variable node `v`, a part of object `o`.
    relation cell(u32, u32, u32);

    /// `cell_at(c, k, d)`: cell `d` is `k` cells after `c`, in the same object.
    relation cell_at(u32, u32, u32);
    cell_at(c, k, d) <-- cell(c, _, o), cell(d, _, o), if d >= c, let k = d - c;

    /// `pts(n, c)`: node `n` may hold the address of cell `c`.
    relation pts(u32, u32);
    pts(n, c) <-- addr(n, c);
    pts(n, c) <-- copy(n, m), pts(m, c);
    pts(n, x) <-- load(n, t, k), pts(t, c), cell_at(c, k, d), cell(d, v, _), pts(v, x);
    pts(v, x) <-- store(t, k, m), pts(t, c), cell_at(c, k, d), cell(d, v, _), pts(m, x);
    pts(n, d) <-- field_addr(n, t, k), pts(t, c), cell_at(c, k, d);
}
