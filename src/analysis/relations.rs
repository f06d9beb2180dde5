//! Every relation of a clause system's analyses as a table: the input relations ([`Facts`])
//! and the relations the rule sets derive from them ([`Derived`]: graph, reachability,
//! liveness, loops). What `hornbeam facts` writes and what a rule file (`analyze --rules`)
//! reads.

use super::rules::chc_derived_facts;
use super::{programs, Analysis, Derived, Facts, Table};

/// The input relations of `facts`, then the derived ones, each with its schema.
pub fn relations(facts: &Facts) -> Vec<Table> {
    let prog = programs::structure(facts);
    let a = Analysis::from_structure(facts, &prog);
    let mut derived = Derived::default();
    chc_derived_facts!(prog => derived);
    for (k, l) in a.loops.iter().enumerate() {
        let k = k as u32;
        derived.loop_head.extend(l.heads.iter().map(|&p| (k, p)));
        derived
            .loop_member
            .extend(l.members.iter().map(|&p| (k, p)));
        if let Some(m) = l.parent {
            derived.loop_parent.push((k, m as u32));
        }
    }
    let mut out = facts.tables();
    out.extend(derived.tables());
    out
}

/// Every relation of a clause system with its schema and no rows: the declarations alone.
pub fn relations_without_rows() -> Vec<Table> {
    let mut out = Facts::default().tables();
    out.extend(Derived::default().tables());
    out
}
