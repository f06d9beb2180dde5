//! A user-written analysis: an ascent rule set over Hornbeam's input relations.
//!
//! Run it with `cargo run --example custom_analysis -- FILE` (default:
//! `examples/chc/counter-safe.smt2`). It computes
//! - `self_loop(p)`: predicates with a clause from `p` to `p` (a one-predicate loop), and
//! - `reset_clause(c)`: clauses with body atoms none of whose arguments occurs in the
//!   constraint (the head does not depend on the body's values: the body only acts as a guard
//!   that some state exists).
//!
//! How to write your own:
//! 1. include `hornbeam::analysis::rules::chc_input` (the input relations: `pred`, `clause`,
//!    `body_atom`, `head_atom`, `query`, `fact_clause`, `body_arg`, `head_arg`,
//!    `constraint_var`, `conjunct`, `conjunct_var`, `definition`, `arg_flow`, ...; see
//!    `docs/relations.md`), and any of the shipped rule sets you build on (`chc_graph`, with
//!    the declarations in `chc_derived`, gives `edge`, `reachable`, `co_reachable`, ...);
//! 2. add your relations and rules;
//! 3. extract the facts with `hornbeam::analysis::Facts::extract`, load them with
//!    `hornbeam::load_facts!`, `run()`, and read your relations (vectors of tuples of the system's typed ids,
//!    `PredId`, `ClauseId`, `VarId`, and `u32` positions).

use hornbeam::analysis::Facts;
use hornbeam::term::TermStore;

ascent::ascent! {
    /// The user's program: shipped rule sets plus two rules of its own.
    struct CustomAnalysis;
    include_source!(hornbeam::analysis::rules::chc_input);
    include_source!(hornbeam::analysis::rules::chc_derived);
    include_source!(hornbeam::analysis::rules::chc_graph);

    /// `self_loop(p)`: some clause has `p` both in its body and as its head.
    relation self_loop(hornbeam::chc::PredId);
    self_loop(p) <-- edge(p, q), if p == q;

    /// `body_var_constrained(c)`: some body argument of `c` occurs in its constraint.
    relation body_var_constrained(hornbeam::chc::ClauseId);
    body_var_constrained(c) <-- body_arg(c, _, _, v), constraint_var(c, v);

    /// `reset_clause(c)`: `c` has body atoms, but none of their arguments is constrained.
    relation reset_clause(hornbeam::chc::ClauseId);
    reset_clause(c) <-- body_atom(c, 0, _), !body_var_constrained(c);
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/chc/counter-safe.smt2".to_string());
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let store = TermStore::new();
    let system = match hornbeam::syntax::read_system(&store, &src) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}", e.render(&path, &src));
            std::process::exit(2);
        }
    };

    let facts = Facts::extract(&system, &store);
    let mut prog = CustomAnalysis::default();
    hornbeam::load_facts!(prog, facts);
    prog.run();

    let mut self_loops: Vec<String> = prog
        .self_loop
        .iter()
        .map(|&(p,)| system.pred(p).name.clone())
        .collect();
    self_loops.sort();
    let mut resets: Vec<u32> = prog.reset_clause.iter().map(|&(c,)| c.0).collect();
    resets.sort_unstable();
    println!("file: {path}");
    println!("predicates with self-loops: {}", self_loops.join(" "));
    println!("clauses ignoring their body's values: {resets:?}");
}
