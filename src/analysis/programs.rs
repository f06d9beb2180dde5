//! The ascent programs assembled from the rule sets in `rules/`.
#![allow(missing_docs)]

ascent::ascent! {
    /// Graph, reachability and liveness over the input relations.
    pub(super) struct Structure;
    include_source!(crate::analysis::rules::chc_input);
    include_source!(crate::analysis::rules::chc_derived);
    include_source!(crate::analysis::rules::chc_graph);
    include_source!(crate::analysis::rules::chc_liveness);
}

ascent::ascent! {
    /// One step of loop decomposition.
    pub(super) struct LoopStep;
    include_source!(crate::analysis::rules::chc_loops);
}

/// Runs the graph, reachability and liveness rules on `facts`.
pub(super) fn structure(facts: &super::Facts) -> Structure {
    let mut prog = Structure::default();
    crate::analysis::rules::chc_input_facts!(prog, facts);
    prog.run();
    prog
}
