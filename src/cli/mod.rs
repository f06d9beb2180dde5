//! Command-line parsing (clap) and the subcommands' drivers.
//!
//! Output contract (see the README): the first stdout line of `solve` is `sat`, `unsat` or
//! `unknown`; ill-formed input prints `FILE:LINE:COL: what` on stderr, `(error "...")` on stdout
//! and exits with status 2. Nothing here may panic on any input.

mod analyze;
mod batch;
mod check;
mod solve;
mod verify;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Hornbeam: a constrained-Horn-clause verification engine.
#[derive(Parser, Debug)]
#[command(name = "hornbeam", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which engine answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineChoice {
    /// The default schedule of the available engines.
    Auto,
    /// Bounded model checking (finds counterexamples only).
    Bmc,
    /// CEGAR with small refinements (predicate abstraction, Farkas tree interpolation).
    Cegar,
    /// Formula slicing (proves safety only).
    Slicing,
}

/// The counterexamples the CEGAR engine refines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CexShapeChoice {
    /// Abstract counterexample trees (paths for linear systems).
    Tree,
    /// Uniform unfoldings: every loop unfolded the same number of times (linear systems).
    Uniform,
}

/// How the slicing engine weakens candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeakeningChoice {
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
    /// Validates a model for a file: prints valid, or invalid and the first violated clause.
    Check {
        /// The CHC-COMP file.
        file: PathBuf,
        /// The model: define-fun lines, a `(model ...)` block, or a solver's `sat` output.
        model: PathBuf,
        /// Time limit in seconds for the whole check.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
    },
    /// Prints the normalised clause system of a file in SMT-LIB.
    Print {
        /// The CHC-COMP file.
        file: PathBuf,
    },
    /// Prints the structure of a file's clause system: reachability, loops, live arguments.
    Analyze {
        /// The CHC-COMP file.
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
    },
    /// Writes the input relations of the analyses as Soufflé `.facts` files and `schema.dl`.
    Facts {
        /// The CHC-COMP file.
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

/// Runs the command line; returns the exit status.
pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Check {
            file,
            model,
            timeout,
        } => check::run(&file, &model, timeout),
        Command::Print { file } => check::print(&file),
        Command::Analyze {
            file,
            json,
            dot,
            stats,
        } => analyze::run(&file, json, dot, stats),
        Command::Facts { file, out } => analyze::facts(&file, &out),
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
    store: &hornbeam::term::TermStore,
    file: &std::path::Path,
) -> Result<(hornbeam::chc::System, String), i32> {
    let name = file.display().to_string();
    let src = match hornbeam::syntax::read_text(file) {
        Ok(s) => s,
        Err((e, prefix)) => return Err(input_error(&e.render(&name, &prefix))),
    };
    match hornbeam::syntax::read_system(store, &src) {
        Ok(sys) => Ok((sys, src)),
        Err(e) => Err(input_error(&e.render(&name, &src))),
    }
}
