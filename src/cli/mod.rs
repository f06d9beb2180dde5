//! The command line: parsing (clap), the subcommands' drivers, and [`App`], the command line
//! as a value that a crate of the user's extends with analyses of its own
//! (`App::new().with_analysis(...)`, see `templates/analysis/`).
//!
//! Duty: options → library calls → printing; no solving logic of its own. Output contract (see
//! the README): the first stdout line of `solve` is `sat`, `unsat` or `unknown`; ill-formed input
//! prints `FILE:LINE:COL: what` on stderr, `(error "...")` on stdout and exits with status 2.
//! Nothing here may panic on any input. The lowest layer: uses every other, used by none.

mod analyze;
mod app;
mod batch;
mod check;
pub(crate) mod huge_pages;
mod limits;
mod refine;
mod solve;
mod validate;
mod verify;

pub use app::{main, App, CustomAnalysis, Input};

use crate::witness::Reason;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Hornbeam: a constrained-Horn-clause verification engine.
#[derive(Parser, Debug)]
#[command(name = "hornbeam", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The help text of `--engine`, from the one table of engine names
/// ([`crate::engine::schedule::EngineKind`]).
pub(crate) fn engine_help() -> String {
    let names: Vec<&str> = crate::engine::schedule::EngineKind::ALL
        .iter()
        .map(|k| k.name())
        .collect();
    format!(
        "Which engines run: `auto` (the portfolio's schedule), or a comma-separated list of {} \
         (in that order, each with an equal share of the time left, the first validated answer \
         wins; one engine runs alone with all the time); `ENGINE@sizes` runs an engine on the \
         system with every datatype abstracted to its size, `ENGINE@split-booleans` on the \
         system split by its Boolean arguments' values",
        names.join(", ")
    )
}

/// The counterexamples the CEGAR engine refines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CexShapeChoice {
    /// Abstract counterexample trees (paths for linear systems).
    Tree,
    /// Uniform unfoldings: every loop unfolded the same number of times (linear systems).
    Uniform,
    /// Trees, and uniform unfoldings as well once trees alone have not converged.
    Mixed,
}

/// How `solve` prints a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ModelFormatChoice {
    /// One `(define-fun ...)` per line.
    Lines,
    /// The definitions in parentheses, as SMT-LIB 2.6 `(get-model)` answers (Z3, Golem).
    Smtlib,
    /// `(model (define-fun ...) ...)`, CHC-COMP's first format.
    ChcComp,
}

impl From<WeakeningChoice> for crate::engine::slicing::Weakening {
    fn from(c: WeakeningChoice) -> Self {
        match c {
            WeakeningChoice::Cex => Self::Cex,
            WeakeningChoice::Syntactic => Self::Syntactic,
        }
    }
}

impl From<ModelFormatChoice> for crate::witness::ModelFormat {
    fn from(c: ModelFormatChoice) -> Self {
        match c {
            ModelFormatChoice::Lines => Self::Lines,
            ModelFormatChoice::Smtlib => Self::SmtLib,
            ModelFormatChoice::ChcComp => Self::ChcComp,
        }
    }
}

/// How the slicing engine weakens candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum WeakeningChoice {
    /// Counterexamples to induction from the SMT solver.
    Cex,
    /// Drop lemmas over modified arguments (no SMT call).
    Syntactic,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solves a CHC-COMP (SMT-LIB, logic HORN) file: prints sat, unsat or unknown.
    Solve(solve::SolveArgs),
    /// Verifies a C program (SV-COMP conventions): prints safe, unsafe or unknown.
    Verify(verify::VerifyArgs),
    /// Validates an SV-COMP witness of a C program: prints confirmed, rejected or unknown,
    /// and why.
    Validate(validate::ValidateArgs),
    /// Checks whether a thread of a concurrent C program weakly refines the same thread of
    /// another (succinct automata, weak simulation): prints refines, does not refine or
    /// unknown.
    Refine(refine::RefineArgs),
    /// Validates a model for a file: prints valid, or invalid and the first violated clause.
    Check {
        /// The CHC-COMP file.
        file: PathBuf,
        /// The model: define-fun lines, a `(model ...)` block, or a solver's `sat` output; or
        /// a counterexample derivation in `solve --cex`'s format (after `unsat` or alone).
        model: PathBuf,
        /// Time limit in seconds for the whole check, reading the files included (`inf`:
        /// none).
        #[arg(long, default_value = "60")]
        timeout: limits::TimeLimit,
    },
    /// Prints the normalised clause system of a file in SMT-LIB.
    Print {
        /// The CHC-COMP file.
        file: PathBuf,
        /// Print the system the engines see: after the default preprocessing (useless
        /// clauses, dead arguments, inlining).
        #[arg(long)]
        preprocessed: bool,
        /// Also split predicates by their reachable Boolean valuations, as the portfolio
        /// does for slicing, the sampling phase and CEGAR.
        #[arg(long)]
        split_bools: bool,
        /// Also abstract every array argument to one cell (an index and its value), as the
        /// engines' `@cells` view does.
        #[arg(long)]
        cells: bool,
    },
    /// Prints the structure of a file's clause system (reachability, loops, live arguments),
    /// or of a C program (`.c`, `.i`: control-flow automata, loops, cut points, live variables).
    Analyze {
        /// The CHC-COMP file or C program.
        file: PathBuf,
        /// Print one JSON object.
        #[arg(long, conflicts_with = "dot")]
        json: bool,
        /// Print a Graphviz digraph (loops as clusters, heads as double circles).
        #[arg(long)]
        dot: bool,
        /// Print one JSON object with the analysis time on stderr.
        #[arg(long)]
        stats: bool,
        /// Evaluate a rule file (a Soufflé-compatible subset, see docs/analyses.md) over
        /// every relation `facts` writes, and print its `.output` relations.
        #[arg(long, value_name = "FILE.dl", conflicts_with_all = ["json", "dot", "stats"])]
        rules: Option<PathBuf>,
        /// With `--rules`: write each `.output` relation to DIR/NAME.csv (tab-separated)
        /// instead of printing it.
        #[arg(
            short = 'D',
            long = "output-dir",
            value_name = "DIR",
            requires = "rules"
        )]
        output_dir: Option<PathBuf>,
        /// With `--rules`: write the rule file's findings (its relation `finding(rule: symbol,
        /// severity: symbol, line: number, col: number, message: symbol)`) as a SARIF 2.1.0
        /// log to FILE.
        #[arg(long, value_name = "FILE", requires = "rules")]
        sarif: Option<PathBuf>,
    },
    /// Writes every relation of the analyses (input and derived) as Soufflé `.facts` files and
    /// their declarations as `schema.dl` (for a C program: the relations of its control-flow
    /// automata, with source lines and columns).
    Facts {
        /// The CHC-COMP file or C program.
        file: PathBuf,
        /// The output directory (created if missing).
        #[arg(long)]
        out: PathBuf,
    },
    /// Solves many files, each in its own process under time and memory limits; writes
    /// results (JSON, CSV) and an HTML report.
    Batch(batch::BatchArgs),
    /// Writes an HTML report comparing result files of `batch` (or of another solver in the
    /// same shape).
    Report(batch::ReportArgs),
}

/// `0.1.0 (commit 1a2b3c4d5e, Z3 5.3.3.0)`: what `--version` prints and runs record.
pub(crate) fn version() -> String {
    format!(
        "{} (commit {}, Z3 {})",
        env!("CARGO_PKG_VERSION"),
        env!("HORNBEAM_COMMIT"),
        crate::smt::z3_version()
    )
}

/// Runs the command line with the user's analyses as extra subcommands; returns the exit
/// status.
fn run(analyses: Vec<Box<dyn CustomAnalysis>>) -> i32 {
    let mut command = Cli::command().version(version());
    for a in &analyses {
        command = command.subcommand(app::subcommand(a.as_ref()));
    }
    let matches = command.get_matches();
    if let Some((name, sub)) = matches.subcommand() {
        if let Some(a) = analyses.into_iter().find(|a| a.name() == name) {
            return app::run_analysis(a, sub);
        }
    }
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Refine(args) => refine::run(&args),
        Command::Check {
            file,
            model,
            timeout,
        } => check::run(file, model, timeout),
        Command::Print {
            file,
            preprocessed,
            split_bools,
            cells,
        } => run_printing("print", move || {
            let views = check::Views {
                preprocessed,
                split_bools,
                cells,
            };
            check::print(&file, views)
        }),
        Command::Analyze {
            file,
            json,
            dot,
            stats,
            rules,
            output_dir,
            sarif,
        } => run_printing("analyze", move || match rules {
            Some(rules) => {
                analyze::run_rules(&file, &rules, output_dir.as_deref(), sarif.as_deref())
            }
            None => analyze::run(&file, json, dot, stats),
        }),
        Command::Facts { file, out } => run_printing("facts", move || analyze::facts(&file, &out)),
        Command::Batch(args) => batch::run(&args),
        Command::Report(args) => batch::report(&args),
    }
}

/// Reports an input error per the contract and returns exit status 2.
pub(crate) fn input_error(message: &str) -> i32 {
    eprintln!("{message}");
    let escaped = message.replace('\\', "\\\\").replace('"', "\"\"");
    println!("(error \"{escaped}\")");
    2
}

/// Reads and lowers a CHC file, or reports the error (exit status 2).
pub(crate) fn load(
    store: &crate::term::TermStore,
    file: &std::path::Path,
) -> Result<(crate::chc::System, String), i32> {
    load_script(store, file).map(|(script, src)| (script.system, src))
}

/// Like [`load`], with what the script asks (`check-sat` or `query`, `get-model`).
pub(crate) fn load_script(
    store: &crate::term::TermStore,
    file: &std::path::Path,
) -> Result<(crate::syntax::Script, String), i32> {
    let name = crate::syntax::display_name(file);
    let src = match crate::syntax::read_text(file) {
        Ok(s) => s,
        Err((e, prefix)) => return Err(input_error(&e.render(&name, &prefix))),
    };
    match crate::syntax::read_script(store, &src) {
        Ok(script) => Ok((script, src)),
        Err(e) => Err(input_error(&e.render(&name, &src))),
    }
}

/// What a solving worker produced: its output and exit status.
pub(crate) struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Stack size of a worker thread: deep terms and derivations recurse. Only touched pages are
/// backed by memory.
const WORKER_STACK: usize = 512 << 20;

/// The watch answers this long before the time limit plus grace, so that the process has
/// exited (output flushed, memory unmapped) by the limit plus grace, not a few ms after it.
const EXIT_MARGIN: std::time::Duration = std::time::Duration::from_millis(200);

/// How often the main thread looks at the worker's memory.
const POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// Runs `job` on a thread with a large stack and prints its outcome. The calling thread keeps
/// the limits: past the time limit plus its grace, or above the memory limit, it answers
/// `unknown` with the reason itself (the process then exits, ending the worker); a worker panic
/// is `unknown` too. Returns the exit status.
pub(crate) fn run_on_worker(
    name: &str,
    limits: limits::Limits,
    job: impl FnOnce() -> Outcome + Send + 'static,
) -> i32 {
    let now = std::time::Instant::now();
    let start = limits::process_age()
        .and_then(|age| now.checked_sub(age))
        .unwrap_or(now);
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(job());
        });
    if let Err(e) = spawned {
        let reason = Reason::Resource(format!("cannot start the worker thread: {e}"));
        answer_unknown(&reason, limits.stats);
        return 0;
    }
    let until = limits.time.and_then(|l| {
        start.checked_add(l.saturating_add(limits.grace.saturating_sub(EXIT_MARGIN)))
    });
    loop {
        let wait = match (until, limits.memory) {
            (_, Some(_)) => POLL,
            (Some(u), None) => u.saturating_duration_since(std::time::Instant::now()),
            (None, None) => std::time::Duration::MAX,
        };
        let received = if wait == std::time::Duration::MAX {
            rx.recv()
                .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected)
        } else {
            rx.recv_timeout(wait)
        };
        // Above the memory limit when the answer arrives counts as above it before: an answer
        // found between two polls must not depend on when the last one was.
        let over_memory = || {
            let m = limits.memory?;
            let b = crate::batch::memory::rss_bytes(std::process::id())?;
            (b > m.bytes()).then(|| {
                Reason::Resource(format!(
                    "memory limit: resident memory above {} MB",
                    m.megabytes
                ))
            })
        };
        match received {
            Ok(out) => {
                if let Some(reason) = over_memory() {
                    abandon(&reason, limits.stats);
                }
                print!("{}", out.stdout);
                eprint!("{}", out.stderr);
                return out.code;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                println!("unknown");
                eprintln!("internal error: the worker stopped unexpectedly");
                return 0;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if until.is_some_and(|u| std::time::Instant::now() >= u) {
            abandon(&Reason::Timeout, limits.stats);
        }
        if let Some(reason) = over_memory() {
            abandon(&reason, limits.stats);
        }
    }
}

/// Answers `unknown` with `reason` while the worker is still running (with `stats`, then the
/// statistics line with the answer and the reason's kind), and ends the process at once: exit
/// handlers (Z3's global destructors among them) would run beside the worker, which still uses
/// Z3, and take time the limit does not have.
fn abandon(reason: &Reason, stats: bool) -> ! {
    use std::io::Write as _;
    answer_unknown(reason, stats);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: _exit ends the process without running exit handlers; output is flushed above.
    unsafe { libc::_exit(0) }
}

/// Prints `unknown` with `reason` on stderr and, with `stats`, the statistics line with the
/// answer and the reason's kind.
fn answer_unknown(reason: &Reason, stats: bool) {
    println!("unknown");
    eprintln!("{reason}");
    if stats {
        let line = serde_json::json!({ "answer": "unknown", "reason_kind": reason.kind() });
        eprintln!("{line}");
    }
}

/// Runs a command that prints its own output on a worker with a large stack and no limit.
pub(crate) fn run_printing(name: &str, job: impl FnOnce() -> i32 + Send + 'static) -> i32 {
    run_on_worker(name, limits::Limits::none(), move || Outcome {
        stdout: String::new(),
        stderr: String::new(),
        code: job(),
    })
}

/// The machine's cores (1 when the system does not say): the default of `batch --jobs` and of
/// `solve --threads` and `verify --threads`.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--threads` of `solve` and `verify` when not given: the machine's cores (two parts use two
/// of them), one under `--deterministic` (its stats then list the phases in schedule order).
fn default_threads(deterministic: bool) -> usize {
    if deterministic {
        return 1;
    }
    cores()
}
