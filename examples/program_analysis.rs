//! A user-written analysis of a C program: an ascent rule set over the facts of its
//! control-flow automata (one per function), the program-side companion of
//! `custom_analysis.rs`.
//!
//! Run it with `cargo run --example program_analysis -- FILE.c` (default:
//! `examples/c/stores.c`). It reports, per function, with the variable's name and the line:
//! - locals that **may be read before they are assigned** on some path (a declaration without
//!   initialiser, then no assignment that surely happens, then a read; also `int x = x + 1;`);
//! - **dead stores**: an assignment (or initialiser) whose value no path reads afterwards.
//!
//! Both are may-analyses over all paths of the automaton, whatever the values: a read that
//! only an infeasible path reaches is reported too.
//!
//! How to write your own:
//! 1. include `hornbeam::analysis::rules::cfa_input` (the input relations of one function's
//!    automaton: `cfa_edge(e, from, to)`, `cfa_entry(l)`, `uses(e, v)`, `writes(e, v)`,
//!    `kills(e, v)`; see `rules/cfa_input.rs`), and any shipped rule set you build on
//!    (`cfa_liveness` gives `live(l, v)`, `cfa_graph` gives `reach(l)`);
//! 2. add relations of your own: input relations you fill from the automaton yourself (here
//!    `declared_unset`, from its edges, with `structure::declares_unset`), and your rules;
//! 3. read the program with `hornbeam::frontend::c::read_program`, fill the facts of each
//!    function from `CfaFacts::extract`, `run()`, and read your relations back: edges are
//!    indexes into the function's `cfa.edges` (whose `span` gives the line), variables are
//!    numbered as `structure::var_number` does (`structure::var_name` gives their names).

use hornbeam::frontend::c::cfa::structure::{declares_unset, var_name, var_number, CfaFacts};
use hornbeam::frontend::c::{read_program, DataModel};
use std::collections::BTreeSet;

ascent::ascent! {
    /// The user's program: the automaton's facts, shipped liveness, and rules of its own.
    struct ProgramAnalysis;
    include_source!(hornbeam::analysis::rules::cfa_input);
    include_source!(hornbeam::analysis::rules::cfa_liveness);

    /// `declared_unset(e, v)`: edge `e` declares local `v` without giving it a value (filled
    /// by this program from the automaton's edges).
    relation declared_unset(u32, u32);

    /// `maybe_unset(l, v)`: some path reaches `l` after a declaration of `v` without a value
    /// and no sure assignment (`kills`) since.
    relation maybe_unset(u32, u32);
    maybe_unset(m, v) <-- declared_unset(e, v), cfa_edge(e, _, m);
    maybe_unset(m, v) <-- maybe_unset(l, v), cfa_edge(e, l, m), !kills(e, v);

    /// `unset_read(e, v)`: edge `e` may read `v` while it may not have been assigned.
    relation unset_read(u32, u32);
    unset_read(e, v) <-- maybe_unset(l, v), cfa_edge(e, l, _), uses(e, v);

    /// `dead_store(e, v)`: edge `e` surely assigns `v` (not a bare declaration), and no path
    /// from its target reads `v` before assigning it again.
    relation dead_store(u32, u32);
    dead_store(e, v) <--
        kills(e, v), cfa_edge(e, _, m), !live(m, v), !declared_unset(e, v);
}

/// One finding: function, line, what, variable.
type Finding = (String, usize, &'static str, String);

/// The report on the program `src` (named `name` in messages), or its located error when it is
/// outside the C subset.
pub fn analyse(name: &str, src: &str) -> Result<String, String> {
    let program = read_program(src, DataModel::Ilp32).map_err(|e| e.render(name, src))?;
    let mut findings: BTreeSet<Finding> = BTreeSet::new();
    for (f, func) in program.functions.iter().enumerate() {
        let facts = CfaFacts::extract(&program, f);
        let mut prog = ProgramAnalysis {
            cfa_edge: facts.cfa_edge,
            cfa_entry: facts.cfa_entry,
            uses: facts.uses,
            writes: facts.writes,
            kills: facts.kills,
            ..ProgramAnalysis::default()
        };
        for (e, edge) in func.cfa.edges.iter().enumerate() {
            if let Some(v) = declares_unset(edge) {
                prog.declared_unset
                    .push((e as u32, var_number(&program, v)));
            }
        }
        prog.run();
        let mut note = |e: u32, v: u32, what: &'static str| {
            let span = func.cfa.edges[e as usize].span;
            let line = hornbeam::syntax::parse::line_col(src, span.start).0;
            let var = var_name(&program, f, v).unwrap_or("?").to_string();
            findings.insert((func.name.clone(), line, what, var));
        };
        for &(e, v) in &prog.unset_read {
            note(e, v, "may be read before it is assigned");
        }
        for &(e, v) in &prog.dead_store {
            note(e, v, "is assigned a value that is never read");
        }
    }
    let mut out = format!("program: {name}\n");
    for (func, line, what, var) in &findings {
        out.push_str(&format!("{func}: line {line}: `{var}` {what}\n"));
    }
    let count = |w: &str| findings.iter().filter(|x| x.2.starts_with(w)).count();
    out.push_str(&format!(
        "{} possibly unassigned read(s), {} dead store(s)\n",
        count("may"),
        count("is assigned")
    ));
    Ok(out)
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/c/stores.c".to_string());
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}:1:1: {e}");
            std::process::exit(2);
        }
    };
    // Reading a program recurses over its nesting: a large stack, as `hornbeam verify` uses.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || analyse(&path, &src));
    match worker.map(|w| w.join()) {
        Ok(Ok(Ok(report))) => print!("{report}"),
        Ok(Ok(Err(message))) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
        _ => {
            eprintln!("internal error: the analysis thread failed");
            std::process::exit(1);
        }
    }
}
