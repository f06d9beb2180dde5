//! `hornbeam solve`: load, run the chosen engine under a deadline, validate, print.
//!
//! Solving runs on a worker thread with a large stack; the main thread enforces the time limit
//! (answering `unknown` if the worker overruns it) and turns a worker panic into `unknown`.

use super::limits::{Limits, MemoryLimit, TimeLimit};
use super::{
    engine_help, load_script, run_on_worker, CexShapeChoice, ModelFormatChoice, Outcome,
    WeakeningChoice,
};
use crate::engine::cegar::CexShape;
use crate::engine::driver::{self, SolveOptions};
use crate::engine::schedule::Selection;
use crate::frontend::hints;
use crate::syntax::Question;
use crate::term::TermStore;
use crate::witness::{Answer, ModelFormat};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `hornbeam solve`.
#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    /// The CHC-COMP (SMT-LIB, logic HORN) file, or Z3's fixedpoint format (`declare-rel`,
    /// `rule`, `query`); gzip-compressed or not; `-` reads standard input.
    file: PathBuf,
    /// Which engines run (see `--help`).
    #[arg(long, default_value = "auto", help = engine_help())]
    engine: Selection,
    /// How the slicing engine weakens candidates.
    #[arg(long, value_enum, default_value_t = WeakeningChoice::Cex)]
    weakening: WeakeningChoice,
    /// The counterexamples CEGAR refines: abstract trees or uniform loop unfoldings.
    #[arg(long, value_enum, default_value_t = CexShapeChoice::Mixed)]
    cex_shape: CexShapeChoice,
    /// Time limit in seconds for the whole command, reading the file to printing the answer
    /// (plus a grace of 2 s); default and `inf`: none.
    #[arg(long)]
    timeout: Option<TimeLimit>,
    /// Resident-memory limit in MB: above it the answer is `unknown` (default: 90 % of the
    /// machine's memory).
    #[arg(long)]
    memory: Option<MemoryLimit>,
    /// After `sat`, print the model (as `(get-model)` in the input does).
    #[arg(long)]
    model: bool,
    /// How to print the model (implies `--model`); `(get-model)` in the input answers as
    /// SMT-LIB 2.6 does (`smtlib`) unless this says otherwise.
    #[arg(long, value_enum)]
    model_format: Option<ModelFormatChoice>,
    /// After `unsat`, print the counterexample derivation.
    #[arg(long)]
    cex: bool,
    /// Print one JSON object of statistics on stderr.
    #[arg(long)]
    stats: bool,
    /// Solve the clauses as given, without the answer-preserving simplifications (useless
    /// clauses, inlining, dead arguments) that run by default.
    #[arg(long)]
    no_preprocess: bool,
    /// Threads for a schedule of several engines (1: in sequence; 2 or more: under `auto` the
    /// invariant engines beside BMC and PDR, for a list every other engine on the second
    /// thread; the first answer wins). Default: the machine's cores, but 1 under
    /// `--deterministic`.
    #[arg(long)]
    threads: Option<usize>,
    /// For a schedule (`auto` or a list of engines): bound each engine by its work (BMC depth
    /// 20, 40 CEGAR refinements and 3000 SMT checks before PDR, 40 PDR frames) instead of a
    /// time slice, so that the answer does not depend on the machine's speed or load (within
    /// `--timeout`). One engine alone has no time slice and keeps its own bounds.
    #[arg(long)]
    deterministic: bool,
    /// Candidate invariants to start from: a model file (a `define-fun` per predicate, as
    /// `check` reads; each conjunct is a candidate) or a rule file (`.dl`) whose relation
    /// `hint(p: number, atom: symbol)` proposes atoms over the arguments `x0`, `x1`, ... of
    /// predicate `p` (docs/analyze.md). Only the hints that are inductive together reach the
    /// engines, and every answer is checked as always: a wrong hint costs time, not an answer.
    #[arg(long, value_name = "FILE")]
    hints: Option<PathBuf>,
}

/// Time past `--timeout` for translating back, validating and printing.
const GRACE: Duration = Duration::from_secs(2);

/// The part of [`GRACE`] validation may use (the rest is for printing).
const VALIDATION: Duration = Duration::from_millis(1500);

/// Runs `solve`; returns the exit status.
pub fn run(args: &SolveArgs) -> i32 {
    let start = Instant::now();
    let limits = Limits {
        time: args.timeout.and_then(|t| t.0),
        grace: GRACE,
        memory: MemoryLimit::or_default_guard(args.memory),
        stats: args.stats,
    };
    let worker_args = args.clone();
    run_on_worker("solve", limits, move || solve(&worker_args, start))
}

fn solve(args: &SolveArgs, start: Instant) -> Outcome {
    let store = TermStore::new();
    let (script, text) = match load_script(&store, &args.file) {
        Ok(x) => x,
        Err(code) => {
            return Outcome {
                stdout: String::new(),
                stderr: String::new(),
                code,
            };
        }
    };
    let hints = match &args.hints {
        Some(file) => match read_hints(&store, (&script, &text), file) {
            Ok(h) => Some(h),
            Err(code) => {
                return Outcome {
                    stdout: String::new(),
                    stderr: String::new(),
                    code,
                }
            }
        },
        None => None,
    };
    let parsed = start.elapsed();
    let options = SolveOptions {
        hints,
        engine: args.engine.clone(),
        weakening: args.weakening.into(),
        preprocess: !args.no_preprocess,
        // What reading the file left of the limit.
        timeout: args
            .timeout
            .and_then(|t| t.0)
            .map(|t| t.saturating_sub(parsed)),
        cex_shape: match args.cex_shape {
            CexShapeChoice::Tree => CexShape::Tree,
            CexShapeChoice::Uniform => CexShape::Uniform,
            CexShapeChoice::Mixed => CexShape::Mixed,
        },
        forge: forgery(),
        deterministic: args.deterministic,
        threads: args
            .threads
            .unwrap_or_else(|| super::default_threads(args.deterministic)),
        ..SolveOptions::default()
    };
    let options = match options.timeout {
        Some(_) => SolveOptions {
            validation_limit: VALIDATION,
            ..options
        },
        None => options,
    };
    let system = &script.system;
    let solved = driver::solve(&store, system, &options);
    let answer = solved.answer;
    let mut stdout = String::new();
    let mut stderr = String::new();
    stdout.push_str(word(&answer, script.question));
    stdout.push('\n');
    let model_format = match (args.model_format, script.get_model) {
        (Some(f), _) => Some(f.into()),
        (None, true) => Some(ModelFormat::SmtLib),
        (None, false) => args.model.then_some(ModelFormat::Lines),
    };
    match &answer {
        Answer::Sat(m) => {
            if let Some(f) = model_format {
                stdout.push_str(&m.to_text(&store, system, f));
            }
        }
        Answer::Unsat(d) if args.cex => stdout.push_str(&d.to_text(&store, system)),
        Answer::Unknown(reason) => {
            stderr.push_str(&reason.to_string());
            stderr.push('\n');
        }
        _ => {}
    }
    if script.get_model && !matches!(answer, Answer::Sat(_)) {
        // What Z3 answers to `(get-model)` when there is no model.
        stdout.push_str("(error \"model is not available\")\n");
    }
    if args.stats {
        let json = serde_json::json!({
            "engine": solved.engine,
            "answer": word(&answer, script.question),
            "reason_kind": match &answer {
                Answer::Unknown(r) => Some(r.kind().name()),
                _ => None,
            },
            "predicates": system.num_preds(),
            "clauses": system.num_clauses(),
            "preprocess": solved.preprocess,
            "hints": solved.hints,
            "time_ms": {
                "parse": parsed.as_millis() as u64,
                "preprocess": solved.times.preprocess,
                "solve": solved.times.solve,
                "translate": solved.times.translate,
                "validate": solved.times.validate,
                "total": start.elapsed().as_millis() as u64,
            },
            "engine_stats": solved.stats,
        });
        stderr.push_str(&json.to_string());
        stderr.push('\n');
    }
    Outcome {
        stdout,
        stderr,
        code: 0,
    }
}

/// Reads `--hints FILE` for `system`: a rule file (`.dl`) or a model; prints an error and gives
/// the exit status when it cannot.
fn read_hints(
    store: &TermStore,
    (script, text): (&crate::syntax::Script, &str),
    file: &std::path::Path,
) -> Result<driver::Hints, i32> {
    let name = crate::syntax::display_name(file);
    let src = match crate::syntax::read_text(file) {
        Ok(s) => s,
        Err((e, prefix)) => return Err(super::input_error(&e.render(&name, &prefix))),
    };
    let read = match file.extension().and_then(|e| e.to_str()) {
        Some("dl") => hints::from_rules(store, (script, text), &src),
        _ => hints::from_model(store, &script.system, &src),
    };
    match read {
        Ok(h) => Ok(driver::Hints::new(store, &h.model).with_drop(h.drop)),
        Err(e) => Err(super::input_error(&e.render(&name, &src))),
    }
}

/// `HORNBEAM_TEST_FORGE=model|derivation`: the tests' way to make the engine's witness wrong
/// (through `batch` too, whose children inherit the environment; `verify` reads it as well), to
/// show that the checks catch it and that it is reported as a failed witness.
pub(super) fn forgery() -> Option<driver::Forgery> {
    match std::env::var("HORNBEAM_TEST_FORGE").ok()?.as_str() {
        "model" => Some(driver::Forgery::EmptyModel),
        "derivation" => Some(driver::Forgery::EmptyDerivation),
        _ => None,
    }
}

/// The answer's first line. A `(query q)` asks whether `q` is derivable, so it is worded the
/// other way round: `sat` when the clauses have no model (a derivation of `q` exists).
fn word(answer: &Answer, question: Question) -> &'static str {
    match (question, answer) {
        (Question::Query, Answer::Sat(_)) => "unsat",
        (Question::Query, Answer::Unsat(_)) => "sat",
        _ => answer.keyword(),
    }
}
