//! Batch solving: many input files, one isolated child process per instance, rayon for the
//! parallelism, results as plain records (JSON/CSV) and an HTML report.
//!
//! Duty: find the inputs ([`collect`]), run each under its time and memory limit without letting
//! one instance's crash, loop or memory hunger cost more than its own result ([`runner`]),
//! compare answers with expected ones ([`expected`]), and write the results ([`output`]) and the
//! report ([`report`]). Must not: print (the command line owns the terminal; it gets each result
//! through a callback), solve in-process (a crash there would take the whole batch down), or
//! call engines directly: an instance is `hornbeam solve` (or, for C programs once the front end
//! lands, `hornbeam verify`) run as a child of the current executable.

pub mod expected;
pub mod output;
pub mod report;
pub mod runner;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The result of one instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The input file as given or found while walking a directory.
    pub path: String,
    /// The benchmark track: the name of the file's parent directory.
    pub track: String,
    /// `sat`, `unsat`, `unknown` or `error`.
    pub answer: String,
    /// The expected answer, when an expected-answers table names the file.
    pub expected: Option<String>,
    /// Whether the answer contradicts the expected one (`sat` vs `unsat`).
    pub wrong: bool,
    /// Wall-clock seconds of the instance.
    pub time: f64,
    /// The engine that answered (from the solver's statistics), when known.
    pub engine: Option<String>,
    /// `validated` when the solver checked its witness (Hornbeam always does before it prints
    /// `sat`/`unsat`), `unchecked` for a solver that does not, empty otherwise.
    pub validation: String,
    /// Why the answer is `unknown` or `error` (timeout, out of memory, crash, input error).
    pub reason: String,
}

impl Record {
    /// Whether the answer is `sat` or `unsat`.
    pub fn solved(&self) -> bool {
        self.answer == "sat" || self.answer == "unsat"
    }
}

/// One batch run: its settings and its records.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Run {
    /// Who produced the answers (`hornbeam`, `z3`, ...).
    pub solver: String,
    /// Time limit per instance, in seconds.
    pub timeout: f64,
    /// Memory limit per instance, in MB (`None`: unlimited).
    pub memory_mb: Option<u64>,
    /// Instances run at once.
    pub jobs: usize,
    /// Wall-clock seconds of the whole batch.
    pub wall_time: f64,
    /// The batch was interrupted (Ctrl-C): only finished instances are listed.
    pub interrupted: bool,
    /// One record per finished instance, in input order.
    pub results: Vec<Record>,
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Instances at once (rayon threads).
    pub jobs: usize,
    /// Time limit per instance.
    pub timeout: Duration,
    /// Address-space limit per instance, in MB.
    pub memory_mb: Option<u64>,
    /// The executable to run for each instance (normally the current one).
    pub exe: PathBuf,
    /// The `--engine` value each `solve` gets (`None`: its default, the portfolio).
    pub engine: Option<String>,
}

/// Input files with the extensions batch solves.
pub fn is_input(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".smt2") || name.ends_with(".smt2.gz")
}

/// The input files under `paths`: files are taken as given, directories are walked (sorted,
/// symbolic links followed) for `.smt2` and `.smt2.gz` files.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            for entry in walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name()
            {
                let entry = entry.map_err(|e| format!("{}: {e}", p.display()))?;
                if entry.file_type().is_file() && is_input(entry.path()) {
                    out.push(entry.into_path());
                }
            }
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

/// The track of a file: its parent directory's name.
pub fn track_of(p: &Path) -> String {
    p.parent()
        .and_then(|d| d.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string()
}

/// Runs every file; `on_result` sees each record as it finishes (from worker threads). Once
/// `stop` is set no new instance starts and running ones are killed and left out; the returned
/// run then says `interrupted`.
pub fn run(
    files: &[PathBuf],
    options: &BatchOptions,
    expected: &expected::Expected,
    stop: &AtomicBool,
    on_result: &(dyn Fn(&Record) + Sync),
) -> Run {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build();
    let work = || {
        files
            .par_iter()
            .with_max_len(1)
            .map(|f| {
                if stop.load(Ordering::SeqCst) {
                    return None;
                }
                let mut rec = runner::run_one(f, options, stop)?;
                expected.mark(&mut rec, f);
                on_result(&rec);
                Some(rec)
            })
            .collect::<Vec<_>>()
    };
    let results = match pool {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    };
    let interrupted = results.iter().any(Option::is_none);
    Run {
        solver: "hornbeam".into(),
        timeout: options.timeout.as_secs_f64(),
        memory_mb: options.memory_mb,
        jobs: options.jobs.max(1),
        wall_time: started.elapsed().as_secs_f64(),
        interrupted,
        results: results.into_iter().flatten().collect(),
    }
}
