//! Structure analyses of a clause system: predicate graph and reachability, loop decomposition,
//! iteration order, live arguments.
//!
//! Duty: extract the input relations ([`Facts`]) from a [`System`], run the Datalog rule sets of
//! the top-level `rules/` folder (re-exported as [`rules`]) and return plain structs
//! ([`Analysis`]). Nothing outside this module depends on how the rules are evaluated; the
//! rule sources and [`Facts`] are public so that users can write their own ascent rule sets
//! over the same relations (see `examples/custom_analysis.rs` and [`load_facts!`](crate::load_facts)).
//! Every exported relation is declared once, in `rules/input.rs` and `rules/derived.rs`, with
//! [`relations!`](crate::relations) (`declare.rs`).
//!
//! Must not: change the system, touch the SMT layer, print, or fail (every system, well-formed
//! per `chc`, has an analysis). Uses only `term` and `chc`.

mod atoms;
pub mod datalog;
mod declare;
mod decompose;
mod facts;
pub mod findings;
pub mod hints;
mod programs;
mod relations;
mod report;
mod scc;

/// The ascent rule sets (the top-level `rules/` folder of the repository).
#[path = "../../rules/mod.rs"]
pub mod rules;

pub use declare::{reference, schema, Column, ColumnType, Table};
pub use decompose::{decompose, Decomposition, GraphLoop};
pub use facts::SCHEMA_HEADER;
pub use relations::{relations, relations_without_rows};
pub use rules::{Derived, Facts};

use crate::chc::{ClauseId, PredId, System};

/// The relations whose columns are agreed: a rule file that declares one declares these
/// columns, and Hornbeam reads it ([`findings`] and [`hints`]).
pub const AGREED: [(&str, &[(&str, ColumnType)]); 4] = [
    (findings::FINDING, &findings::FINDING_COLUMNS),
    (hints::HINT, &hints::HINT_COLUMNS),
    (hints::LOOP_HINT, &hints::LOOP_HINT_COLUMNS),
    (hints::DROP_CLAUSE, &hints::DROP_CLAUSE_COLUMNS),
];
use crate::term::TermStore;
use std::collections::BTreeSet;

/// A loop of the decomposition: a strongly connected set of predicates (cyclic), entered
/// through its heads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The members with an edge from outside the loop, or defined by a fact clause (several
    /// for an irreducible loop). When a cycle has no entry at all (it is unreachable), its
    /// smallest member is taken as head so that the decomposition goes on.
    pub heads: Vec<PredId>,
    /// All members, heads and nested loops included, sorted.
    pub members: Vec<PredId>,
    /// The index of the enclosing loop, if any.
    pub parent: Option<usize>,
    /// Nesting depth: 0 for an outermost loop.
    pub depth: usize,
}

/// The results of the structure analyses. Vectors indexed by predicate are indexed by
/// `PredId.0`, those indexed by clause by `ClauseId.0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Per predicate: derivable from facts, ignoring constraints (a clause with several body
    /// atoms needs all of them).
    pub reachable: Vec<bool>,
    /// Per predicate: some path of the predicate graph leads from it to a query's body.
    pub co_reachable: Vec<bool>,
    /// Per predicate: it may occur in a derivation of `false` (it is in the body of a useful
    /// clause).
    pub useful: Vec<bool>,
    /// Per clause: all its body predicates are reachable and its head is `false` or useful.
    /// Dropping the other clauses does not change the answer.
    pub useful_clauses: Vec<bool>,
    /// The loops, outer loops before the loops they contain (`parent < index`).
    pub loops: Vec<Loop>,
    /// Loop indices, inner loops before the loops that contain them (post-order of the
    /// nesting tree, siblings in topological order).
    pub loop_order: Vec<usize>,
    /// Per predicate: the innermost loop containing it.
    pub innermost_loop: Vec<Option<usize>>,
    /// Every predicate once, in a weak topological order: components of the predicate graph in
    /// topological order; inside a loop, its heads first, then the order of the remaining
    /// members (recursively). An engine stabilises a loop by iterating over its span, inner
    /// loops first.
    pub order: Vec<PredId>,
    /// Per predicate and argument: its value can influence whether a query fires.
    pub live: Vec<Vec<bool>>,
}

/// Runs every analysis on `system`, whose terms live in `store`.
pub fn analyze(system: &System, store: &TermStore) -> Analysis {
    Analysis::from_facts(&Facts::extract(system, store))
}

impl Analysis {
    /// Runs every analysis on extracted facts.
    pub fn from_facts(facts: &Facts) -> Analysis {
        Analysis::from_structure(facts, &programs::structure(facts))
    }

    /// The analysis from the facts and the relations the rule sets derived from them.
    fn from_structure(facts: &Facts, prog: &programs::Structure) -> Analysis {
        let n = facts.pred.len();
        let m = facts.clause.len();

        let per_pred = |rel: &[(PredId,)]| {
            let mut v = vec![false; n];
            for &(p,) in rel {
                v[p.0 as usize] = true;
            }
            v
        };
        let reachable = per_pred(&prog.reachable);
        let co_reachable = per_pred(&prog.co_reachable);
        let useful = per_pred(&prog.useful);
        let mut useful_clauses = vec![false; m];
        for &(c,) in &prog.useful_clause {
            useful_clauses[c.0 as usize] = true;
        }
        let mut live: Vec<Vec<bool>> = facts
            .pred
            .iter()
            .map(|&(_, arity)| vec![false; arity as usize])
            .collect();
        for &(p, i) in &prog.live {
            live[p.0 as usize][i as usize] = true;
        }

        // Loop decomposition: Algorithm 1 of Terauchi's Appendix A.4, one rule run per level.
        let arcs: Vec<(u32, u32)> = prog.edge.iter().map(|(p, q)| (p.0, q.0)).collect();
        let fact_clauses: BTreeSet<ClauseId> = facts.fact_clause.iter().map(|&(c,)| c).collect();
        let entries: BTreeSet<u32> = facts
            .head_atom
            .iter()
            .filter(|(c, _)| fact_clauses.contains(c))
            .map(|(_, p)| p.0)
            .collect();
        let entries: Vec<u32> = entries.into_iter().collect();
        let dec = decompose::decompose(n as u32, &arcs, &entries);
        let loops: Vec<Loop> = dec
            .loops
            .into_iter()
            .map(|l| Loop {
                heads: l.heads.into_iter().map(PredId).collect(),
                members: l.members.into_iter().map(PredId).collect(),
                parent: l.parent,
                depth: l.depth,
            })
            .collect();
        let order: Vec<PredId> = dec.order.into_iter().map(PredId).collect();

        let mut innermost_loop = vec![None; n];
        for (i, l) in loops.iter().enumerate() {
            for p in &l.members {
                innermost_loop[p.0 as usize] = Some(i);
            }
        }
        let mut loop_order = Vec::with_capacity(loops.len());
        fn post(i: usize, loops: &[Loop], out: &mut Vec<usize>) {
            for (j, l) in loops.iter().enumerate() {
                if l.parent == Some(i) {
                    post(j, loops, out);
                }
            }
            out.push(i);
        }
        for (i, l) in loops.iter().enumerate() {
            if l.parent.is_none() {
                post(i, &loops, &mut loop_order);
            }
        }

        Analysis {
            reachable,
            co_reachable,
            useful,
            useful_clauses,
            loops,
            loop_order,
            innermost_loop,
            order,
            live,
        }
    }

    /// Whether `p` is a head of some loop.
    pub fn is_loop_head(&self, p: PredId) -> bool {
        self.loops.iter().any(|l| l.heads.contains(&p))
    }

    /// Whether clause `c` may take part in a derivation of `false`.
    pub fn is_useful_clause(&self, c: ClauseId) -> bool {
        self.useful_clauses[c.0 as usize]
    }
}

/// Loads every relation of `chc_input` from a [`Facts`] value into an ascent program that
/// includes that rule set: `hornbeam::load_facts!(prog, facts)` (clones the vectors; the same
/// as [`chc_input_facts!`](crate::analysis::rules::chc_input_facts)).
#[macro_export]
macro_rules! load_facts {
    ($prog:expr, $facts:expr) => {
        $crate::analysis::rules::chc_input_facts!($prog, $facts)
    };
}
