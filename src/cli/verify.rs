//! `hornbeam verify PROGRAM.c`: translate a C program to clauses, solve, and answer at the
//! source level: `safe` (with `--invariants`, the loop invariants at their lines), `unsafe`
//! only after the counterexample's nondet values replay concretely to the error (with
//! `--trace`, those values at their lines), or `unknown` with the reason on stderr.
//!
//! With `--property`, SV-COMP's `unreach-call` (the default), `valid-memsafety` and
//! `valid-memcleanup` are accepted (after `unsafe` under a memory property, a second line names
//! the violated sub-property and its place); `--data-model` sets the width
//! of `long`; `--witness FILE` writes the library's SV-COMP witness after `safe` or `unsafe`
//! (none after `unknown`, which says so on stderr). `--stats` prints one JSON object on stderr
//! in the shape of `solve --stats` (`engine`, `answer`, `reason_kind` after `unknown`, sizes,
//! time per phase, the engine's counters), which is how `batch` reads a C program's result.
//!
//! The pipeline is the library's (`frontend::c::verify`); this module reads the arguments,
//! prints the verdict and writes the witness. It runs on a worker thread with a large stack;
//! the main thread enforces the limit.

mod by_task;

use super::limits::{Limits, MemoryLimit, TimeLimit};
use super::{engine_help, input_error, run_on_worker, Outcome};
use crate::chc::SystemPrinter;
use crate::engine::schedule::Selection;
use crate::frontend::c::property::{self, Property};
use crate::frontend::c::task;
use crate::frontend::c::verify::Schedule;
use crate::frontend::c::verify::{Verdict, Verified, VerifyOptions};
use crate::frontend::c::{self, invariants, trace, witness, DataModel, Program};
use crate::term::TermStore;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Options of `hornbeam verify`.
#[derive(clap::Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The C program.
    file: PathBuf,
    /// Time limit in seconds for the whole command, reading the program to printing the
    /// answer (plus a grace of 3 s); default and `inf`: none.
    #[arg(long)]
    timeout: Option<TimeLimit>,
    /// Resident-memory limit in MB: above it the answer is `unknown` (default: 90 % of the
    /// machine's memory).
    #[arg(long)]
    memory: Option<MemoryLimit>,
    /// After `safe`, print the invariant of every loop head as a C expression with its line.
    #[arg(long)]
    invariants: bool,
    /// After `unsafe`, print the nondet values that reach the error, with their lines.
    #[arg(long)]
    trace: bool,
    /// Print the clause system in SMT-LIB and stop (no solving).
    #[arg(long)]
    emit_chc: bool,
    /// Which engines solve the clauses (see `--help`).
    #[arg(long, default_value = "auto", help = engine_help())]
    engine: Selection,
    /// Bound each engine by its work instead of a time slice, as `solve --deterministic` (the
    /// concrete test runs stay bounded by time; `--no-testing` skips them).
    #[arg(long)]
    deterministic: bool,
    /// Threads for the engines, as `solve --threads` (default: the machine's cores, but 1 under
    /// `--deterministic`).
    #[arg(long)]
    threads: Option<usize>,
    /// Skip the concrete test runs (interpreter with chosen nondet values) made before solving.
    #[arg(long)]
    no_testing: bool,
    /// The property: an SV-COMP property file (`.prp`) or a property name: `unreach-call`
    /// (the default), `valid-memsafety` or `valid-memcleanup`.
    #[arg(long, value_name = "FILE.prp|NAME")]
    property: Option<String>,
    /// The data model: ILP32 (`long` of 32 bits, the default) or LP64 (`long` of 64 bits); a
    /// task file states its own.
    #[arg(long, value_name = "ILP32|LP64")]
    data_model: Option<DataModel>,
    /// Write an SV-COMP witness (YAML format 2.0) to FILE after `safe` or `unsafe`.
    #[arg(long, value_name = "FILE")]
    witness: Option<PathBuf>,
    /// Print one JSON object of statistics on stderr (as `solve --stats`: the engine that
    /// answered, or `testing` for the concrete runs; the answer; the kind of an `unknown`'s
    /// reason; the clause system's size; time per phase).
    #[arg(long)]
    stats: bool,
    /// Give cut-point predicates every variable, not only the ones live there (to measure
    /// what the liveness filter does).
    #[arg(long)]
    all_variables: bool,
    /// A rule file (`.dl`) whose relation `loop_hint(f: number, l: number, atom: symbol)`
    /// proposes, at location `l` of function `f` (a `loop_head`), an SMT-LIB formula over the C
    /// names of the variables there (docs/analyze.md). Only the hints that are inductive
    /// together reach the engines, and every answer is checked as always.
    #[arg(long, value_name = "RULES.dl")]
    hints: Option<PathBuf>,
}

/// Runs `verify`; returns the exit status.
pub fn run(args: &VerifyArgs) -> i32 {
    let limits = Limits {
        time: args.timeout.and_then(|t| t.0),
        grace: GRACE,
        memory: MemoryLimit::or_default_guard(args.memory),
        stats: args.stats,
    };
    let worker_args = args.clone();
    run_on_worker("verify", limits, move || {
        let (stdout, stderr, code) = verify(&worker_args);
        Outcome {
            stdout,
            stderr,
            code,
        }
    })
}

/// The property of `--property`: a file's, or a name's; `Err` is the exit status after the
/// message (`FILE:LINE:COL: ...` for a file).
fn property_of(arg: Option<&str>) -> Result<Property, i32> {
    let Some(arg) = arg else {
        return Ok(Property::unreach_call());
    };
    let path = std::path::Path::new(arg);
    if !path.is_file() && !arg.ends_with(".prp") {
        return property::from_name(arg).map_err(|m| input_error(&format!("--property: {m}")));
    }
    let text = match crate::syntax::read_text(path) {
        Ok(t) => t,
        Err((e, prefix)) => return Err(input_error(&e.render(arg, &prefix))),
    };
    property::parse(&text).map_err(|e| input_error(&e.render(arg, &text)))
}

/// One verification: a program, a property, a data model and a time limit.
struct Job<'a> {
    file: &'a Path,
    property: &'a Property,
    data_model: DataModel,
    limit: Option<Duration>,
}

/// (stdout, stderr, exit status)
fn verify(args: &VerifyArgs) -> (String, String, i32) {
    if task::is_task(&args.file) {
        return by_task::run(args);
    }
    let property = match property_of(args.property.as_deref()) {
        Ok(p) => p,
        Err(code) => return (String::new(), String::new(), code),
    };
    let job = Job {
        file: &args.file,
        property: &property,
        data_model: args.data_model.unwrap_or_default(),
        limit: args.timeout.and_then(|t| t.0),
    };
    verify_program(args, &job)
}

/// Reads the rule file of `--hints` and checks it against the relations of the program `src`;
/// prints its first error and gives the exit status when it has one.
fn read_hints(file: &Path, src: &str, model: DataModel) -> Result<std::sync::Arc<str>, i32> {
    let name = crate::syntax::display_name(file);
    let rules = match crate::syntax::read_text(file) {
        Ok(s) => s,
        Err((e, prefix)) => return Err(input_error(&e.render(&name, &prefix))),
    };
    // A program that does not read is reported by `verify` itself, at its own line.
    if let Ok(program) = c::read_program(src, model) {
        if let Err(e) = c::hints::rows(&program, &crate::syntax::parse::LineIndex::new(src), &rules)
        {
            return Err(input_error(&e.render(&name)));
        }
    }
    Ok(std::sync::Arc::from(rules))
}

/// Verifies one program against one property: (stdout, stderr, exit status).
fn verify_program(args: &VerifyArgs, job: &Job) -> (String, String, i32) {
    let start = std::time::Instant::now();
    let property = job.property;
    let name = crate::syntax::display_name(job.file);
    let src = match crate::syntax::read_text(job.file) {
        Ok(s) => s,
        Err((e, prefix)) => {
            return (
                String::new(),
                String::new(),
                input_error(&e.render(&name, &prefix)),
            )
        }
    };
    let store = TermStore::new();
    let failed = |e: c::CError| {
        (
            String::new(),
            String::new(),
            input_error(&e.render(&name, &src)),
        )
    };
    let encode = c::EncodeOptions {
        live_variables_only: !args.all_variables,
    };
    if args.emit_chc {
        return match c::load_checked(&store, &src, job.data_model, &encode, property.checks()) {
            Ok((_, tr)) => (
                SystemPrinter::new(&store, &tr.system).script(),
                String::new(),
                0,
            ),
            Err(e) => failed(e),
        };
    }
    let hints = match &args.hints {
        Some(file) => match read_hints(file, &src, job.data_model) {
            Ok(rules) => Some(rules),
            Err(code) => return (String::new(), String::new(), code),
        },
        None => None,
    };
    let limit = job.limit;
    let options = VerifyOptions {
        hints,
        data_model: job.data_model,
        engine: args.engine.clone(),
        deterministic: args.deterministic,
        threads: args
            .threads
            .unwrap_or_else(|| super::default_threads(args.deterministic)),
        timeout: limit,
        validation_limit: match limit {
            Some(_) => VALIDATION,
            None => VerifyOptions::default().validation_limit,
        },
        testing: !args.no_testing,
        encode,
        forge: super::solve::forgery(),
        checks: property.checks(),
    };
    let Verified {
        program,
        translation: tr,
        verdict,
        engine,
        engine_stats,
        times,
        schedule,
        shape,
        hints,
    } = match c::verify::verify(&store, &src, &options) {
        Ok(v) => v,
        Err(e) => return failed(e),
    };
    let stats = args.stats.then(|| {
        let (answer, reason_kind, violated) = match &verdict {
            Verdict::Safe(_) => ("safe", None, None),
            Verdict::Unsafe { violation, .. } => {
                ("unsafe", None, violation.as_ref().map(|v| v.property))
            }
            Verdict::Unknown(r) => ("unknown", Some(r.kind().name()), None),
        };
        serde_json::json!({
            "engine": engine,
            "answer": answer,
            "reason_kind": reason_kind,
            "violated": violated,
            "functions": program.as_ref().map_or(0, |p| p.functions.len()),
            "predicates": tr.system.num_preds(),
            "clauses": tr.system.num_clauses(),
            "time_ms": {
                "read": times.read,
                "load": times.load,
                "test": times.test,
                "solve": times.solve,
                "total": start.elapsed().as_millis() as u64,
            },
            "engine_stats": engine_stats,
            "hints": hints,
            "shape": shape.as_ref().map(|s| match s {
                c::shape::Outcome::Safe(_) => "safe".to_owned(),
                c::shape::Outcome::Unknown(why) => why.clone(),
            }),
        })
    });
    let line_of = |off: usize| crate::syntax::parse::line_col(&src, off).0;
    let mut out = String::new();
    let mut err = String::new();
    let mut code = 0;
    match verdict {
        Verdict::Safe(model) => {
            out.push_str("safe\n");
            if program.is_none() {
                // A shape proof of a program the clauses do not model: no C invariant to state.
                let text = |task: &witness::Task| witness::correctness_without_invariants(task);
                code = write_witness(args, job, &src, &mut err, text);
            } else if schedule.is_some() {
                // The product's invariants speak of its counters, not of the program.
                no_witness(
                    args,
                    "correctness witnesses of concurrent programs are not supported",
                    &mut err,
                );
            } else if let Some(program) = &program {
                let text = |task: &witness::Task| {
                    let deadline = crate::clock::Deadline::after(options.validation_limit);
                    let invs =
                        invariants::witness_invariants(&store, &tr, program, &model, deadline);
                    Some(witness::correctness(task, program, &invs))
                };
                code = write_witness(args, job, &src, &mut err, text);
            }
            if let (true, Some(c::shape::Outcome::Safe(proof))) = (args.invariants, &shape) {
                // Loop heads of `main` and of the functions inlined into it, by line.
                for (offset, forests) in &proof.heads {
                    out.push_str(&format!(
                        "line {}: {} forest automata\n",
                        line_of(*offset),
                        forests.len()
                    ));
                    for (k, f) in forests.iter().enumerate() {
                        out.push_str(&format!(" forest {}:\n{f}", k + 1));
                    }
                }
            } else if let (true, Some(program)) = (args.invariants, &program) {
                for inv in invariants::invariants(&store, &tr, &model) {
                    let f = &program.functions[inv.func].name;
                    let what = if inv.env {
                        "environment: a step of any thread".to_owned()
                    } else {
                        f.clone()
                    };
                    out.push_str(&format!(
                        "line {} ({what}): {}\n",
                        line_of(inv.offset),
                        inv.text
                    ));
                }
            }
        }
        Verdict::Unsafe {
            values,
            target,
            violation,
        } => {
            // An unsafe verdict comes from the clauses, which model the program.
            let program = program.as_ref();
            out.push_str("unsafe\n");
            if let Some(v) = &violation {
                let (line, col) = crate::syntax::parse::line_col(&src, v.at);
                out.push_str(&format!(
                    "{}: {} at {name}:{line}:{col}\n",
                    v.property, v.what
                ));
            }
            if let (true, Some(program)) = (args.trace, program) {
                out.push_str(&trace_text(program, &values, &src, schedule.as_ref()));
            }
            if schedule.is_some() {
                // The format has no threads: a witness of the product would mislead.
                no_witness(
                    args,
                    "violation witnesses of concurrent programs are not supported",
                    &mut err,
                );
            } else if let Some(program) = program {
                let text = |task: &witness::Task| {
                    // Only the values that decide the path (the others are left to the
                    // validator), checked by a replay for each site left out.
                    let deadline = crate::clock::Deadline::after(options.validation_limit);
                    let essential =
                        c::verify::essential_values(program, &values, target, &line_of, &deadline);
                    Some(witness::violation(task, program, &essential, target))
                };
                code = write_witness(args, job, &src, &mut err, text);
            }
        }
        Verdict::Unknown(reason) => {
            out.push_str("unknown\n");
            err.push_str(&reason.to_string());
            err.push('\n');
            no_witness(args, "the answer is unknown", &mut err);
        }
    }
    if let Some(json) = stats {
        err.push_str(&json.to_string());
        err.push('\n');
    }
    (out, err, code)
}

/// With `--witness`, says on stderr that none is written, and why.
fn no_witness(args: &VerifyArgs, why: &str, err: &mut String) {
    if let Some(path) = &args.witness {
        err.push_str(&format!(
            "no witness written to {}: {why}\n",
            path.display()
        ));
    }
}

/// With `--witness FILE`, writes the witness `text` makes for the task (`None`: none can be
/// made, said on stderr); returns the exit status: 0, or 1 when the file cannot be written
/// (the reason on stderr).
fn write_witness(
    args: &VerifyArgs,
    job: &Job,
    src: &str,
    err: &mut String,
    text: impl FnOnce(&witness::Task) -> Option<String>,
) -> i32 {
    let Some(path) = &args.witness else {
        return 0;
    };
    // The hash is of the file's bytes (the text read may have lost a byte-order mark).
    let bytes = std::fs::read(job.file).unwrap_or_else(|_| src.as_bytes().to_vec());
    let file_name = job.file.display().to_string();
    let task = witness::Task {
        file_name: &file_name,
        file_bytes: &bytes,
        src,
        data_model: job.data_model,
        property: job.property,
    };
    let Some(text) = text(&task) else {
        no_witness(
            args,
            "`main` has no statement to state an invariant at",
            err,
        );
        return 0;
    };
    if text.len() > witness::MAX_WITNESS_BYTES {
        no_witness(
            args,
            &format!(
                "it would take {:.1} MB, above the bound of {} MB (a waypoint per nondet \
                 value of the path)",
                text.len() as f64 / 1048576.0,
                witness::MAX_WITNESS_BYTES >> 20
            ),
            err,
        );
        return 0;
    }
    match std::fs::write(path, text) {
        Ok(()) => 0,
        Err(e) => {
            err.push_str(&format!(
                "cannot write the witness {}: {e}\n",
                path.display()
            ));
            1
        }
    }
}

/// The nondet values, one line each; for a concurrent program, each turn of the schedule as
/// `thread K (function) at line L:C`, followed by the values its step consumed.
fn trace_text(
    program: &Program,
    values: &[trace::NondetValue],
    src: &str,
    schedule: Option<&Schedule>,
) -> String {
    let mut out = String::new();
    let mut turns = schedule.map(|s| s.steps.iter());
    for v in values {
        if let (Some(s), Some(turns)) = (schedule, turns.as_mut()) {
            if v.site == s.site && v.element.is_none() {
                if let Some(step) = turns.next() {
                    let (line, col) = crate::syntax::parse::line_col(src, step.at);
                    let name = program.functions.get(step.func).map_or("?", |f| &f.name);
                    out.push_str(&format!(
                        "thread {} ({name}) at line {line}:{col}\n",
                        step.thread
                    ));
                }
                continue;
            }
        }
        let site = &program.nondet_sites[v.site];
        let (line, col) = crate::syntax::parse::line_col(src, site.span.start);
        let text = src.get(site.span.start..site.span.end).unwrap_or("?");
        // An uninitialised array's element: which one (row-major), of which declaration run.
        let which = match &v.element {
            None => String::new(),
            Some(e) => match &e.index {
                Some(k) => format!(" (#{} element {k})", e.instance),
                None => format!(" (#{} other elements)", e.instance),
            },
        };
        out.push_str(&format!("line {line}:{col}: {text}{which} = {}\n", v.value));
    }
    out
}

/// Time past `--timeout` for the last checks, the concrete replay and printing.
const GRACE: Duration = Duration::from_secs(3);

/// The part of [`GRACE`] the answer's validation may use.
const VALIDATION: Duration = Duration::from_secs(2);
