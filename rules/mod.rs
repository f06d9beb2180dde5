//! Ascent rule sets over the facts of a clause system, and of a program's control-flow
//! automata: one concern per file.
//!
//! Each file keeps its rules in an [`ascent::ascent_source!`] block, so that a program (ours in
//! `src/analysis`, or a user's) assembles what it needs with `include_source!`:
//!
//! ```
//! ascent::ascent! {
//!     struct MyAnalysis;
//!     include_source!(hornbeam::analysis::rules::chc_input);
//!     include_source!(hornbeam::analysis::rules::chc_derived);
//!     include_source!(hornbeam::analysis::rules::chc_graph);
//!     relation self_loop(hornbeam::chc::PredId);
//!     self_loop(p) <-- edge(p, q), if p == q;
//! }
//! ```
//!
//! - `chc_input` (`input.rs`): declarations of the input relations, filled by
//!   [`Facts::extract`](crate::analysis::Facts::extract) and loaded with
//!   [`chc_input_facts!`](crate::analysis::rules::chc_input_facts). Every other rule set except
//!   `chc_loops` needs it.
//! - `chc_derived` (`derived.rs`): declarations of the derived relations that are exported
//!   ([`Derived`]); `chc_graph` and `chc_liveness` need it.
//! - `chc_graph` (`graph.rs`): the predicate graph, reachability from facts, predicates that can
//!   reach a query, clauses that can take part in a derivation of `false`.
//! - `chc_loops` (`loops.rs`): one step of loop decomposition (Terauchi, Appendix A.4) over an
//!   active subgraph; self-contained (its own input relations), driven by `src/analysis`.
//! - `chc_liveness` (`liveness.rs`): arguments whose values can influence a query.
//!
//! - `cfa_input` (`cfa_input.rs`): the input relations of one function's control-flow
//!   automaton, filled by `hornbeam::frontend::c::cfa::structure`.
//! - `cfa_graph` (`cfa_graph.rs`): reachable locations, variables each loop may modify (the
//!   loops come from the same decomposition as `chc_loops`'s).
//! - `cfa_liveness` (`cfa_liveness.rs`): live variables per location.
//! - `cfa_pointsto` (`cfa_pointsto.rs`): Andersen-style points-to sets of a C program's
//!   variables over address-taken cells; self-contained (its own input relations), filled by
//!   the C resolver (`hornbeam::frontend::c::resolve`).
//!
//! Each relation of `chc_input` and `chc_derived` is declared once, with typed columns
//! (`PredId`, `ClauseId`, `VarId`; positions and indices are `u32`), by
//! [`relations!`](crate::relations): the ascent declarations, the structs, the `facts` export,
//! the schema and the reference in `docs/relations.md` all come from it. The CFA rule sets
//! keep `u32` columns (the C front end's ids are not known to this layer). All column types are
//! `Send + Sync`, so the rule sets also work in `ascent_par!` programs. The sources may not contain `include_source!` themselves (an
//! ascent restriction), so dependencies are listed in each file's documentation.
//! Items are resolved where a rule set is included, so the rules use only primitive types and
//! fully qualified paths.

mod cfa_graph;
mod cfa_input;
mod cfa_liveness;
mod cfa_pointsto;
mod derived;
mod graph;
mod input;
mod liveness;
mod loops;

pub use cfa_graph::cfa_graph;
pub use cfa_input::{cfa_input, cfa_input_facts, CfaFacts};
pub use cfa_liveness::cfa_liveness;
pub use cfa_pointsto::cfa_pointsto;
pub use derived::{chc_derived, chc_derived_facts, Derived};
pub use graph::chc_graph;
pub use input::{chc_input, chc_input_facts, Facts};
pub use liveness::chc_liveness;
pub use loops::chc_loops;
