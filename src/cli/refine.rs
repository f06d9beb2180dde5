//! `hornbeam refine ABSTRACT.c CONCRETE.c`: whether a thread of the concrete program weakly
//! refines the same thread of the abstract one (the library's `frontend::c::refine`). Prints
//! `refines`, `does not refine` (then the concrete step at its line that the abstract side
//! cannot match, and the initial state), or `unknown` (the reason on stderr). Exit status 0,
//! or 2 after bad input (`FILE:LINE:COL: ...`).

use super::limits::{Limits, TimeLimit};
use super::{input_error, run_on_worker, Outcome};
use crate::frontend::c::refine::{
    self, Input, MismatchKind, RefineOptions, RefineUnknown, Refinement,
};
use crate::frontend::c::DataModel;
use crate::term::TermStore;
use std::path::PathBuf;

/// Options of `hornbeam refine`.
#[derive(clap::Args, Debug, Clone)]
pub struct RefineArgs {
    /// The abstract program (its compared thread is the specification).
    abstract_file: PathBuf,
    /// The concrete program.
    concrete_file: PathBuf,
    /// The precondition κ: a C expression over `a.x` (abstract) and `c.x` (concrete)
    /// (default: the invariant ι).
    #[arg(long, value_name = "EXPR")]
    pre: Option<String>,
    /// The invariant ι relating the two programs' variables, as `--pre` (default: variables
    /// of the same name have equal values).
    #[arg(long, value_name = "EXPR")]
    rel: Option<String>,
    /// The compared thread: the first thread `main` creates running this function (default:
    /// the first thread `main` creates).
    #[arg(long, value_name = "NAME")]
    thread: Option<String>,
    /// Longest abstract local path tried when looking for a simulation.
    #[arg(long, default_value = "3")]
    depth: usize,
    /// Abstract environment steps (the paper's k) when justifying `does not refine`.
    #[arg(long, default_value = "2")]
    env_steps: usize,
    /// Most cubes each run of the fixpoint iteration may cut before answering `unknown` (a
    /// bound on work that does not depend on timing).
    #[arg(long, default_value = "2000")]
    max_cuts: usize,
    /// Time limit in seconds (default and `inf`: none).
    #[arg(long)]
    timeout: Option<TimeLimit>,
    /// Do not first try a start strengthened by equalities guessed from sampled paired runs
    /// (the iteration from ι alone).
    #[arg(long)]
    no_guess: bool,
}

/// Runs `refine`; returns the exit status.
pub fn run(args: &RefineArgs) -> i32 {
    let limits = Limits {
        time: args.timeout.and_then(|t| t.0),
        grace: std::time::Duration::from_secs(3),
        memory: None,
        stats: false,
    };
    let a = args.clone();
    run_on_worker("refine", limits, move || {
        let (stdout, stderr, code) = refine_files(&a);
        Outcome {
            stdout,
            stderr,
            code,
        }
    })
}

fn refine_files(args: &RefineArgs) -> (String, String, i32) {
    let read = |p: &PathBuf| -> Result<(String, String), i32> {
        let name = crate::syntax::display_name(p);
        match crate::syntax::read_text(p) {
            Ok(s) => Ok((name, s)),
            Err((e, prefix)) => Err(input_error(&e.render(&name, &prefix))),
        }
    };
    let ((aname, asrc), (cname, csrc)) =
        match (read(&args.abstract_file), read(&args.concrete_file)) {
            (Ok(a), Ok(c)) => (a, c),
            (Err(code), _) | (_, Err(code)) => return (String::new(), String::new(), code),
        };
    let options = RefineOptions {
        pre: args.pre.clone(),
        rel: args.rel.clone(),
        thread: args.thread.clone(),
        timeout: args.timeout.and_then(|t| t.0),
        depth: args.depth,
        env_steps: args.env_steps,
        max_cuts: args.max_cuts,
        data_model: DataModel::default(),
        guess: !args.no_guess,
    };
    let store = TermStore::new();
    match refine::refine(&store, &asrc, &csrc, &options) {
        Err(e) => {
            let empty = String::new();
            let (file, src) = match e.input {
                Input::Abstract => (aname.as_str(), &asrc),
                Input::Concrete => (cname.as_str(), &csrc),
                Input::Pre => ("--pre", options.pre.as_ref().unwrap_or(&empty)),
                Input::Rel => ("--rel", options.rel.as_ref().unwrap_or(&empty)),
            };
            (
                String::new(),
                String::new(),
                input_error(&e.error.render(file, src)),
            )
        }
        Ok(Refinement::Refines {
            pairs,
            rounds,
            guessed,
        }) => (
            "refines\n".to_owned(),
            format!(
                "weak simulation over {pairs} pairs of locations, {rounds} rounds{}, re-checked\n",
                if guessed > 0 {
                    format!(", from {guessed} guessed relations")
                } else {
                    String::new()
                }
            ),
            0,
        ),
        Ok(Refinement::DoesNotRefine(m)) => {
            let mut out = "does not refine\n".to_owned();
            match m.kind {
                MismatchKind::Step(span) => {
                    let (line, col) = crate::syntax::parse::line_col(&csrc, span.start);
                    let text = csrc[span.start.min(csrc.len())..span.end.min(csrc.len())]
                        .lines()
                        .next()
                        .unwrap_or("")
                        .trim();
                    out.push_str(&format!(
                        "{cname}:{line}:{col}: from this step on (`{text}`), no run of the abstract thread matches the concrete one\n"
                    ));
                }
                MismatchKind::Env => out
                    .push_str("an environment step leaves the states unrelated (condition 2.a)\n"),
            }
            if !m.state.is_empty() {
                let vals: Vec<String> = m.state.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                out.push_str(&format!("from the state {}\n", vals.join(", ")));
            }
            (out, String::new(), 0)
        }
        Ok(Refinement::Unknown(r)) => {
            let why = match &r {
                RefineUnknown::Solver(w) => format!("the solver gave no answer ({w})"),
                RefineUnknown::Quantifiers => {
                    "quantifiers over undetermined values could not be eliminated".to_owned()
                }
                RefineUnknown::Cuts => {
                    "the fixpoint iteration cut more cubes than --max-cuts allows".to_owned()
                }
                RefineUnknown::WitnessFailed(w) => {
                    format!("the simulation failed its re-check: {w}")
                }
                RefineUnknown::Inexact(w) => w.clone(),
            };
            (
                "unknown\n".to_owned(),
                format!("unknown ({}): {why}\n", r.kind()),
                0,
            )
        }
    }
}
