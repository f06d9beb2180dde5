//! The command line as a value: [`App`] is Hornbeam's whole command line, to which a crate of
//! the user's adds its own analyses, each a subcommand `NAME FILE [--sarif OUT]` that reads a
//! clause system or a C program once, runs the analysis, and reports its findings as
//! `analyze --rules` does (text lines `FILE:line:col: level: message [rule]`, a SARIF 2.1.0
//! log). `templates/analysis/` is such a crate, to copy.
//!
//! Must not: solve, or let a user's analysis see anything but the input it was given.

use super::analyze::{findings_text, is_program, read_program, write_sarif};
use super::{input_error, load, run_printing};
use crate::analysis::findings::Finding;
use crate::chc::System;
use crate::frontend::c;
use crate::term::TermStore;
use clap::{Arg, ArgMatches};
use std::path::PathBuf;

/// What a user's analysis reads: the input, read once.
pub enum Input<'a> {
    /// A clause system (a CHC-COMP file), with the store its terms live in.
    Clauses {
        /// The store of the system's terms.
        store: &'a TermStore,
        /// The system, as `solve` reads it (before preprocessing).
        system: &'a System,
    },
    /// A C program (`.c`, `.i`) and its source text.
    Program {
        /// The program, resolved (functions with their control-flow automata).
        program: &'a c::Program,
        /// The source text (offsets in the program index it).
        src: &'a str,
    },
}

/// An analysis of the user's, run as the subcommand [`CustomAnalysis::name`].
pub trait CustomAnalysis: Send + Sync {
    /// The subcommand's name (`self-loops`).
    fn name(&self) -> &'static str;

    /// One line for `--help`.
    fn about(&self) -> &'static str;

    /// The findings of the analysis on `input`, at source positions (line 0: the file as a
    /// whole, as for clause systems, whose predicates have no lines).
    fn run(&self, input: &Input<'_>) -> Vec<Finding>;
}

/// Hornbeam's command line, with the analyses added to it.
#[derive(Default)]
pub struct App {
    analyses: Vec<Box<dyn CustomAnalysis>>,
}

impl App {
    /// Hornbeam's own command line.
    pub fn new() -> App {
        App::default()
    }

    /// Adds `analysis` as a subcommand.
    pub fn with_analysis(mut self, analysis: impl CustomAnalysis + 'static) -> App {
        self.analyses.push(Box::new(analysis));
        self
    }

    /// Parses the process's arguments and runs the command; returns the exit status.
    pub fn run(self) -> i32 {
        super::run(self.analyses)
    }
}

/// A binary's `main`: runs `app` on the process's arguments and exits with its status.
pub fn main(app: App) -> ! {
    // Before anything else runs (or any thread starts): see `huge_pages`.
    super::huge_pages::reexec();
    // Like other Unix tools, end quietly when the reader of our output goes away
    // (`hornbeam analyze F | head`); Rust's default would make `println!` panic.
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(app.run())
}

/// The subcommand of `analysis`.
pub(super) fn subcommand(analysis: &dyn CustomAnalysis) -> clap::Command {
    clap::Command::new(analysis.name())
        .about(analysis.about())
        .arg(
            Arg::new("file")
                .required(true)
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("The CHC-COMP file or C program (`.c`, `.i`)"),
        )
        .arg(
            Arg::new("sarif")
                .long("sarif")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("Also write the findings as a SARIF 2.1.0 log to FILE"),
        )
}

/// Runs `analysis` as its subcommand's arguments say (on the worker thread the other
/// commands use: a large stack, a panic reported); returns the exit status.
pub(super) fn run_analysis(analysis: Box<dyn CustomAnalysis>, args: &ArgMatches) -> i32 {
    let Some(file) = args.get_one::<PathBuf>("file").cloned() else {
        return input_error("no input file");
    };
    let sarif = args.get_one::<PathBuf>("sarif").cloned();
    run_printing(analysis.name(), move || {
        let found = match findings_of(analysis.as_ref(), &file) {
            Ok(f) => f,
            Err(code) => return code,
        };
        if let Some(path) = &sarif {
            if let Err(e) = write_sarif(&file, &found, path) {
                return input_error(&format!("cannot write {}: {e}", path.display()));
            }
        }
        let name = crate::syntax::display_name(&file);
        print!("{}", findings_text(&name, &found));
        0
    })
}

/// Reads `file` once and runs `analysis` on it, or prints the input error and gives the exit
/// status.
fn findings_of(analysis: &dyn CustomAnalysis, file: &std::path::Path) -> Result<Vec<Finding>, i32> {
    if is_program(file) {
        let (program, src) = read_program(file)?;
        return Ok(analysis.run(&Input::Program {
            program: &program,
            src: &src,
        }));
    }
    let store = TermStore::new();
    let (system, _) = load(&store, file)?;
    Ok(analysis.run(&Input::Clauses {
        store: &store,
        system: &system,
    }))
}
