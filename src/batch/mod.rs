//! Batch solving: many input files, one isolated child process per instance, rayon for the
//! parallelism, results as plain records (JSON/CSV) and an HTML report.
//!
//! Duty: find the inputs ([`walk`]: a path that cannot be solved — a dangling link, a loop of
//! links, a FIFO — is that path's `error` record, never the end of the batch), run each under
//! its time and memory limit without letting one instance's crash, loop or memory hunger cost
//! more than its own result ([`runner`]), read what it printed ([`interpret`]),
//! compare answers with expected ones ([`expected`]), keep each record as it arrives
//! ([`journal`], from which a killed batch resumes), select a shard of the inputs when the
//! batch is spread over machines ([`shard`]), write the results ([`output`]), merge result
//! files into runs ([`merge`]) and render the report ([`report`]). Must not: print (the command line owns the terminal; it gets each result
//! through a callback), solve in-process (a crash there would take the whole batch down), or
//! call engines directly: an instance is `hornbeam solve` (for a clause system) or `hornbeam
//! verify` (for a C program, `.c` or `.i`) run as a child of the current executable.
//!
//! Answers are recorded as the child printed them: `sat`/`unsat` for clause systems,
//! `safe`/`unsafe` for C programs (what an SV-COMP `expected.tsv` says), `unknown`, or `error`.
//! `sat` and `safe` are the same verdict (the clauses have a model: the program is safe), as
//! are `unsat` and `unsafe` ([`polarity`]): a wrong answer is a verdict of one polarity against
//! an expectation of the other, whatever words either uses.

pub mod expected;
pub mod interpret;
pub mod journal;
pub mod memory;
pub mod merge;
pub mod meta;
pub mod output;
pub mod report;
pub mod runner;
pub mod score;
pub mod shard;
pub mod tasks;
pub mod walk;

pub use shard::Shard;
pub use walk::{collect, is_input, is_program, is_task, Collected, Input, TaskInput};

use crate::witness::ReasonKind;
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
    /// `sat`, `unsat` (clause systems), `safe`, `unsafe` (C programs), `unknown` or `error`.
    pub answer: String,
    /// The expected answer, when an expected-answers table names the file.
    pub expected: Option<String>,
    /// Whether the answer contradicts the expected one (`sat`/`safe` vs `unsat`/`unsafe`).
    pub wrong: bool,
    /// Wall-clock seconds of the instance.
    pub time: f64,
    /// CPU seconds of the instance's process (user and system), from its resource usage when
    /// it ended; `None` when no process ran or for results that do not say.
    #[serde(default)]
    pub cpu_secs: Option<f64>,
    /// Peak resident set of the instance's process in MB (`ru_maxrss`); `None` as for
    /// `cpu_secs`.
    #[serde(default)]
    pub peak_rss_mb: Option<f64>,
    /// The engine that answered (from the solver's statistics), when known.
    pub engine: Option<String>,
    /// `validated` when the solver checked its witness (Hornbeam always does before it prints
    /// `sat`/`unsat`), `unchecked` for a solver that does not, empty otherwise.
    pub validation: String,
    /// Why the answer is `unknown` or `error` (timeout, out of memory, crash, input error).
    pub reason: String,
    /// The kind of an `unknown`'s reason, as the solver states it (Hornbeam's `--stats`);
    /// `witness-failed` is a bug of the solver and is counted apart from other `unknown`s.
    #[serde(default)]
    pub reason_kind: Option<ReasonKind>,
    /// For an SV-COMP task (`path` is its `.yml`): the property run, by its name
    /// (`unreach-call`, `valid-memsafety`, ...). A task has a record per property.
    #[serde(default)]
    pub property: Option<String>,
    /// After `unsafe` under a memory property: the violated subproperty (`valid-deref`, ...).
    #[serde(default)]
    pub violated: Option<String>,
    /// The witness file the instance wrote (`batch --witness-dir`).
    #[serde(default)]
    pub witness: Option<String>,
}

impl Record {
    /// Whether the answer is definite: `sat`, `unsat`, `safe` or `unsafe`.
    pub fn solved(&self) -> bool {
        polarity(&self.answer).is_some()
    }

    /// Whether the solver withheld an answer because its witness failed its check (a bug).
    pub fn witness_failed(&self) -> bool {
        self.reason_kind == Some(ReasonKind::WitnessFailed)
    }

    /// What identifies the record in a run: its path, and for a task the property after `#`
    /// (`task.yml#unreach-call`).
    pub fn key(&self) -> String {
        match &self.property {
            Some(p) => format!("{}#{p}", self.path),
            None => self.path.clone(),
        }
    }

    /// The answer as SV-COMP states it: `true`, `false`, `false(SUBPROPERTY)` (after `unsafe`
    /// with a violated subproperty), or the answer itself (`unknown`, `error`, and `sat`/
    /// `unsat` of clause systems).
    pub fn verdict(&self) -> String {
        match (self.answer.as_str(), &self.violated) {
            ("safe", _) => "true".into(),
            ("unsafe", Some(v)) => format!("false({v})"),
            ("unsafe", None) => "false".into(),
            (a, _) => a.into(),
        }
    }
}

/// The verdict a definite answer states: `Some(true)` for `sat`, `safe` and SV-COMP's `true`
/// (no error is reachable: the clauses have a model), `Some(false)` for `unsat`, `unsafe` and
/// SV-COMP's `false` or `false(SUBPROPERTY)`, `None` for anything else (`unknown`, `error`, an
/// empty cell).
pub fn polarity(answer: &str) -> Option<bool> {
    match answer {
        "sat" | "safe" | "true" => Some(true),
        "unsat" | "unsafe" | "false" => Some(false),
        a if a.starts_with("false(") && a.ends_with(')') => Some(false),
        _ => None,
    }
}

/// One batch run: its settings and its records.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Run {
    /// Who produced the answers (`hornbeam`, `z3`, ...).
    pub solver: String,
    /// Time limit per instance, in seconds.
    pub timeout: f64,
    /// Memory limit per instance, in MB: the resident set it may reach (`None`: unlimited).
    pub memory_mb: Option<u64>,
    /// Instances run at once.
    pub jobs: usize,
    /// Wall-clock seconds of the whole batch.
    pub wall_time: f64,
    /// The batch was interrupted (Ctrl-C): only finished instances are listed.
    pub interrupted: bool,
    /// The part of the inputs this run solved (`batch --shard K/N`); `None` for all of them.
    #[serde(default)]
    pub shard: Option<Shard>,
    /// Where and how the run was made (`None` in files written before it, or by other tools).
    #[serde(default)]
    pub meta: Option<meta::RunMeta>,
    /// One record per finished instance, in input order (sorted by path in a merged run).
    pub results: Vec<Record>,
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Instances at once (rayon threads).
    pub jobs: usize,
    /// Time limit per instance.
    pub timeout: Duration,
    /// Memory limit per instance, in MB: the resident set size the instance may reach (see
    /// [`runner`] for how it is enforced).
    pub memory_mb: Option<u64>,
    /// The executable to run for each instance (normally the current one).
    pub exe: PathBuf,
    /// The `--engine` value each `solve` or `verify` gets (`None`: its default, the portfolio).
    pub engine: Option<String>,
    /// Each `solve` or `verify` gets `--deterministic` (work bounds instead of time slices).
    pub deterministic: bool,
    /// Each `solve` and `verify` gets `--threads` this (the instances already share the cores: 1 unless
    /// told otherwise).
    pub threads: usize,
    /// The part of the inputs being run, recorded in the [`Run`] (the caller selects the
    /// inputs with [`shard::select`]).
    pub shard: Option<Shard>,
    /// Each `verify` of a program (not of a task, which states its own) gets `--data-model`
    /// this (`None`: its default).
    pub data_model: Option<String>,
    /// Each `solve` gets `--hints` this, and each `verify` too when it is a rule file (`.dl`)
    /// (`None`: no hints).
    pub hints: Option<PathBuf>,
}

/// Gives each C input a witness file under `dir`: `CATEGORY/NAME.PROPERTY.yml` (or
/// `CATEGORY/NAME.yml` for a program), a counter added where two would share a name; creates
/// the folders. `Err` is the folder that cannot be created.
pub fn witness_paths(dir: &Path, inputs: &mut [Input]) -> Result<(), String> {
    let mut taken = std::collections::HashSet::new();
    for input in inputs.iter_mut() {
        if !(is_program(&input.path) || input.task.is_some()) {
            continue;
        }
        let category = track_of(&input.path);
        let stem = input
            .path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let base = match &input.task {
            Some(t) => format!("{stem}.{}", t.property),
            None => stem,
        };
        let folder = dir.join(&category);
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let mut path = folder.join(format!("{base}.yml"));
        let mut k = 2;
        while !taken.insert(path.clone()) {
            path = folder.join(format!("{base}.{k}.yml"));
            k += 1;
        }
        input.witness = Some(path);
    }
    Ok(())
}

/// The track of a file: its parent directory's name.
pub fn track_of(p: &Path) -> String {
    p.parent()
        .and_then(|d| d.file_name())
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The note a record of a path that is not UTF-8 carries in its reason: its `path` (and
/// `track`) are shown lossily.
pub const NOT_UTF8_NOTE: &str =
    "the path is not UTF-8: it is shown with U+FFFD in place of the bytes that are not";

/// A record's path as text (lossy: see [`NOT_UTF8_NOTE`]).
pub fn path_text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// An `error` record for `file` with `reason`, before anything ran.
pub fn error_record(file: &Path, reason: String) -> Record {
    Record {
        path: path_text(file),
        track: track_of(file),
        answer: "error".into(),
        expected: None,
        wrong: false,
        time: 0.0,
        cpu_secs: None,
        peak_rss_mb: None,
        engine: None,
        validation: String::new(),
        reason,
        reason_kind: None,
        property: None,
        violated: None,
        witness: None,
    }
}

/// The [`Record::key`] the record of `input` gets.
pub fn input_key(input: &Input) -> String {
    match &input.task {
        Some(t) => format!("{}#{}", path_text(&input.path), t.property),
        None => path_text(&input.path),
    }
}

/// Adds [`NOT_UTF8_NOTE`] to the reason of a record whose path is not UTF-8.
fn note_path(rec: &mut Record, file: &Path) {
    if file.to_str().is_none() {
        rec.reason = if rec.reason.is_empty() {
            NOT_UTF8_NOTE.to_string()
        } else {
            format!("{}; {NOT_UTF8_NOTE}", rec.reason)
        };
    }
}

/// Runs every input; `on_result` sees each record as it finishes (from worker threads). An
/// input with a [`walk::Problem`] is not run: its record is an `error` with the problem as its
/// reason; nor is an input `finished` has a record for (by path: a resumed batch), whose
/// record is taken as it is (marked against `expected` again). Once `stop` is set no new
/// instance starts and running ones are killed and left out; the returned run then says
/// `interrupted`.
pub fn run(
    inputs: &[Input],
    options: &BatchOptions,
    expected: &expected::Expected,
    finished: &std::collections::HashMap<String, Record>,
    stop: &AtomicBool,
    on_result: &(dyn Fn(&Record) + Sync),
) -> Run {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build();
    let work = || {
        inputs
            .par_iter()
            .with_max_len(1)
            .map(|input| {
                if stop.load(Ordering::SeqCst) {
                    return None;
                }
                let f = &input.path;
                let mut rec = match finished.get(&input_key(input)) {
                    Some(done) => done.clone(),
                    None => {
                        let mut rec = match &input.problem {
                            Some(problem) => error_record(f, problem.to_string()),
                            None => runner::run_one(input, options, stop)?,
                        };
                        rec.property = input.task.as_ref().map(|t| t.property.clone());
                        note_path(&mut rec, f);
                        rec
                    }
                };
                match &input.task {
                    Some(t) => expected::mark_task(&mut rec, t.expected.as_deref()),
                    None => expected.mark(&mut rec, f),
                }
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
        shard: options.shard,
        meta: None,
        results: results.into_iter().flatten().collect(),
    }
}
