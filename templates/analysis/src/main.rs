//! An analysis of your own, as a subcommand of Hornbeam's whole command line:
//!
//! ```text
//! my-analysis self-loops FILE.smt2 [--sarif OUT.sarif]
//! my-analysis solve FILE.smt2        # and every other command of `hornbeam`
//! ```
//!
//! The analysis is an ascent rule set over the relations Hornbeam extracts from a clause
//! system (`hornbeam::analysis::rules::chc_input`, and the shipped `chc_graph` for `edge`,
//! declared in `chc_derived`), and
//! it reports findings, which print as `FILE: note: message [rule]` and go to SARIF with
//! `--sarif`. Replace the rules and the findings with yours; `Input::Program` gives a C
//! program's control-flow automata instead.

use hornbeam::analysis::findings::{Finding, Level};
use hornbeam::analysis::Facts;
use hornbeam::chc::PredId;
use hornbeam::cli::{App, CustomAnalysis, Input};

ascent::ascent! {
    /// The rules: the shipped input relations and predicate graph, plus one relation of ours.
    struct SelfLoops;
    include_source!(hornbeam::analysis::rules::chc_input);
    include_source!(hornbeam::analysis::rules::chc_derived);
    include_source!(hornbeam::analysis::rules::chc_graph);

    /// `self_loop(p)`: some clause has `p` both in its body and as its head.
    relation self_loop(hornbeam::chc::PredId);
    self_loop(p) <-- edge(p, q), if p == q;
}

/// Predicates with a clause from themselves to themselves: the loops of one predicate.
struct SelfLoopAnalysis;

impl CustomAnalysis for SelfLoopAnalysis {
    fn name(&self) -> &'static str {
        "self-loops"
    }

    fn about(&self) -> &'static str {
        "Reports the predicates of a clause system with a clause from themselves to themselves"
    }

    fn run(&self, input: &Input<'_>) -> Vec<Finding> {
        let Input::Clauses { store, system } = input else {
            // A C program: this analysis is about clause systems.
            return Vec::new();
        };
        let facts = Facts::extract(system, store);
        let mut prog = SelfLoops::default();
        hornbeam::load_facts!(prog, facts);
        prog.run();
        let mut loops: Vec<PredId> = prog.self_loop.iter().map(|&(p,)| p).collect();
        loops.sort_unstable();
        loops
            .into_iter()
            .map(|p| Finding {
                line: 0,
                col: 0,
                rule: "self-loop".to_string(),
                level: Level::Note,
                message: format!(
                    "`{}` has a clause from itself to itself",
                    system.pred(p).name
                ),
            })
            .collect()
    }
}

fn main() {
    hornbeam::cli::main(App::new().with_analysis(SelfLoopAnalysis))
}
