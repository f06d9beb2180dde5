//! `hornbeam batch` and `hornbeam report`: options → [`crate::batch`] calls (clause systems
//! and C programs alike: the library picks `solve` or `verify` per file), the walk's
//! warnings, progress on stderr (a bar when it is a terminal, else one line per finished
//! instance and a summary line every `--progress-every` seconds), Ctrl-C, wrong answers on
//! stderr, result files; for `report`, the merge's errors and warnings.
//!
//! Exit status of `batch`: 0, or 1 when any answer contradicts `--expected`, or 2 for bad
//! options, a path given that does not exist, an unreadable `--expected` table or an output
//! that cannot be written (checked before any instance runs; a path found unusable while
//! walking is only its own record), or 128 + the signal when interrupted (130 for Ctrl-C, 143
//! for SIGTERM, 129 for SIGHUP) without a wrong answer among the finished instances (whose
//! results are written all the same). Each finished record is appended to the journal as it
//! arrives; `--resume` goes on from it.

mod progress;

use super::engine_help;
use crate::batch::merge::{self, ResultFile};
use crate::batch::{
    self, expected::Expected, output, report, shard, BatchOptions, Record, Run, Shard,
};
use crate::engine::schedule::Selection;
use crate::frontend::c::task;
use indicatif::{ProgressBar, ProgressStyle};
use progress::{heartbeat, print_scores, progress_line, Tally};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the summary line is printed when stderr is not a terminal (`None`: never).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressEvery(Option<Duration>);

/// A `--progress-every` value that is not a number of seconds.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a number of seconds (0 or more; 0: no summary lines)")]
pub struct ProgressEveryError(String);

impl FromStr for ProgressEvery {
    type Err = ProgressEveryError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let secs: f64 = s.trim().parse().map_err(|_| ProgressEveryError(s.into()))?;
        if !(0.0..=1e7).contains(&secs) {
            return Err(ProgressEveryError(s.into()));
        }
        Ok(ProgressEvery(
            (secs > 0.0).then(|| Duration::from_secs_f64(secs)),
        ))
    }
}

/// Options of `hornbeam batch`.
#[derive(clap::Args, Debug, Clone)]
pub struct BatchArgs {
    /// Files and directories (walked for `.smt2` and `.smt2.gz` clause systems, solved with
    /// `solve`; `.c` and `.i` C programs and `.yml` SV-COMP tasks, verified with `verify`: a
    /// task once per property, and in a folder with tasks the programs only through them),
    /// and BenchExec set files (`.set`: a glob of tasks per line).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The properties of tasks to run, by name or property file (repeatable; default: every
    /// property of each task that Hornbeam checks or the task states a verdict for).
    #[arg(long, value_name = "NAME|FILE.prp")]
    property: Vec<String>,
    /// Keep each C instance's SV-COMP witness in DIR (`DIR/CATEGORY/NAME.PROPERTY.yml`); the
    /// records name it.
    #[arg(long, value_name = "DIR")]
    witness_dir: Option<PathBuf>,
    /// The data model of C programs given as `.c`/`.i` (a task states its own).
    #[arg(long, value_name = "ILP32|LP64")]
    data_model: Option<crate::frontend::c::DataModel>,
    /// Each clause system gets `solve --hints FILE` (a rule file or a model; see `solve`), and
    /// each C program `verify --hints FILE` when FILE is a rule file (`.dl`).
    #[arg(long, value_name = "FILE")]
    hints: Option<PathBuf>,
    /// Instances at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Time limit per instance, in seconds (a positive number; values above 10^7 are 10^7).
    #[arg(long, default_value = "20")]
    timeout: super::limits::TimeLimit,
    /// Memory limit per instance, in MB: the resident set it may reach (0: none).
    #[arg(long, default_value_t = 8192)]
    memory: u64,
    /// Expected answers: a TSV with columns `path` (relative to the TSV) and `expected`
    /// (`sat`/`unsat`, or `safe`/`unsafe` for C programs).
    #[arg(long)]
    expected: Option<PathBuf>,
    /// Write the results as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write the results as CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Write an HTML report (summary table and cactus plot).
    #[arg(long)]
    report: Option<PathBuf>,
    /// The engine each instance runs (as `solve --engine` and `verify --engine`).
    #[arg(long, default_value = "auto", help = engine_help())]
    engine: Selection,
    /// Each instance runs with `--deterministic` (work bounds instead of time slices: the
    /// answers do not depend on the machine's load, within the time limit).
    #[arg(long)]
    deterministic: bool,
    /// Threads of each instance (as `solve --threads` and `verify --threads`): the instances already share
    /// the cores, so one each unless told otherwise.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Solve only shard K of N (1 <= K <= N): the inputs at positions K-1, K-1+N, ... when
    /// ordered by the path given, then by the path relative to it.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// When stderr is not a terminal: print a summary line every SECS seconds (0: never).
    #[arg(long, value_name = "SECS", default_value = "5")]
    progress_every: ProgressEvery,
    /// Append each finished record to this JSON Lines file as it arrives (default: beside
    /// the first of --json, --csv, --report: `OUTPUT.journal.jsonl`), so a killed batch
    /// loses nothing.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Go on from the journal of a batch that was killed: inputs it has a record for are not
    /// run again, and the result files hold every record.
    #[arg(long)]
    resume: bool,
}

impl BatchArgs {
    /// The result files asked for, in the order they are written.
    fn outputs(&self) -> Vec<&Path> {
        [&self.json, &self.csv, &self.report]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }

    /// The journal: `--journal`, or beside the first result file; `None` without either.
    fn journal_path(&self) -> Option<PathBuf> {
        self.journal
            .clone()
            .or_else(|| self.outputs().first().map(|o| batch::journal::beside(o)))
    }
}

/// Options of `hornbeam report`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Result files (JSON, or CSV by extension), each `FILE` or `NAME=FILE`. Files of one name
    /// are merged into one run; a shard's default name is its solver, so the shards of a batch
    /// merge by themselves.
    #[arg(required = true)]
    results: Vec<String>,
    /// The HTML page to write.
    #[arg(long, required_unless_present = "json")]
    out: Option<PathBuf>,
    /// Write the (merged) run as JSON; the results must make exactly one run.
    #[arg(long)]
    json: Option<PathBuf>,
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Sets its flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Writes the requested result files and the report; one that fails does not keep the others
/// from being written. The errors, one per file that failed.
fn write_outputs(args: &BatchArgs, run: &Run) -> Vec<String> {
    let mut errors = Vec::new();
    let mut put = |p: &Option<PathBuf>, text: &dyn Fn() -> String| {
        if let Some(p) = p {
            if let Err(e) = write(p, &text()) {
                errors.push(e);
            }
        }
    };
    put(&args.json, &|| output::to_json(run));
    put(&args.csv, &|| output::to_csv(run));
    put(&args.report, &|| {
        report::render(&[("hornbeam".to_string(), run.clone())])
    });
    errors
}

/// Checks that every result file can be written, before any instance runs: each is created
/// (an existing one is left as it is until the end). The first that cannot, as a message.
fn check_outputs(args: &BatchArgs) -> Result<(), String> {
    for p in args.outputs() {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// The exit status of a batch stopped by `signal`: 128 + its number, as shells report a
/// process the signal ended.
fn signal_status(signal: usize) -> i32 {
    128 + i32::try_from(signal).unwrap_or(0)
}

/// Runs `batch`; returns the exit status.
pub fn run(args: &BatchArgs) -> i32 {
    let collected = match batch::collect(&args.paths) {
        Ok(c) => c,
        Err(e) => return super::input_error(&e.to_string()),
    };
    for w in &collected.warnings {
        eprintln!("warning: {w}");
    }
    let selected: Vec<String> = args
        .property
        .iter()
        .map(|p| task::property_name(p))
        .collect();
    let expanded = batch::tasks::expand(collected.inputs, &selected, &read_task);
    if !expanded.unsupported.is_empty() {
        let counts: Vec<String> = expanded
            .unsupported
            .iter()
            .map(|(p, n)| format!("{p} {n}"))
            .collect();
        eprintln!(
            "note: (task, property) pairs not run, Hornbeam does not check the property: {}",
            counts.join(", ")
        );
    }
    let mut files = match args.shard {
        Some(s) => shard::select(expanded.inputs, &args.paths, s),
        None => expanded.inputs,
    };
    if let Some(dir) = &args.witness_dir {
        if let Err(e) = batch::witness_paths(dir, &mut files) {
            return super::input_error(&e);
        }
    }
    let expected = match &args.expected {
        Some(p) => match Expected::load(p) {
            Ok((e, warnings)) => {
                for w in warnings {
                    eprintln!("warning: {w}");
                }
                e
            }
            Err(e) => return super::input_error(&e),
        },
        None => Expected::none(),
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return super::input_error(&format!("cannot find the hornbeam executable: {e}")),
    };
    // Each instance is killed some seconds past its limit, so the limit must be finite.
    let timeout = args.timeout.0.unwrap_or(super::limits::LONGEST);
    if timeout.is_zero() {
        return super::input_error("--timeout must be a positive number of seconds");
    }
    let jobs = args.jobs.unwrap_or_else(super::cores).max(1);
    let options = BatchOptions {
        jobs,
        timeout,
        memory_mb: (args.memory > 0).then_some(args.memory),
        exe,
        engine: Some(args.engine.to_string()),
        deterministic: args.deterministic,
        threads: args.threads,
        shard: args.shard,
        data_model: args.data_model.map(|m| m.to_string()),
        hints: args.hints.clone(),
    };
    if let Err(e) = check_outputs(args) {
        return super::input_error(&e);
    }
    let journal_path = args.journal_path();
    if args.resume && journal_path.is_none() {
        return super::input_error(
            "--resume needs the journal: name it with --journal or name a result file",
        );
    }
    let done_before: HashMap<String, Record> = match (&journal_path, args.resume) {
        (Some(p), true) => match batch::journal::load(p) {
            Ok(records) => records.into_iter().map(|r| (r.key(), r)).collect(),
            Err(e) => return super::input_error(&e.to_string()),
        },
        _ => HashMap::new(),
    };
    let journal = match journal_path.map(|p| batch::journal::Journal::open(&p, args.resume)) {
        Some(Ok(j)) => Some(j),
        Some(Err(e)) => return super::input_error(&e.to_string()),
        None => None,
    };
    if args.resume {
        eprintln!(
            "resuming: {} instance(s) already finished",
            done_before.len()
        );
    }
    // The signal that stopped the batch (SIGINT, SIGTERM, SIGHUP), 0 while none did: without
    // a handler they would end the batch with nothing written.
    let stopped_by = Arc::new(AtomicUsize::new(0));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register_usize(signal, stopped_by.clone(), signal as usize);
    }
    // Set by the signal handlers themselves, so that an instance the same signal ended is
    // known as stopped with the batch, not as a result.
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Some(bar)
    } else {
        None
    };
    let tally = Tally::default();
    let total = files.len();
    let on_result = |r: &Record| {
        let done = tally.add(r);
        if let Some(j) = &journal {
            if let Err(e) = j.append(r) {
                let msg = format!("warning: {}: {e}", j.path().display());
                match &bar {
                    Some(b) => b.println(msg),
                    None => eprintln!("{msg}"),
                }
            }
        }
        if r.wrong {
            let violated = r
                .violated
                .as_ref()
                .map_or(String::new(), |v| format!(" ({v})"));
            let msg = format!(
                "WRONG ANSWER: {} answered {}{violated}, expected {}",
                r.key(),
                r.answer,
                r.expected.as_deref().unwrap_or("?")
            );
            match &bar {
                Some(b) => b.println(msg),
                None => eprintln!("{msg}"),
            }
        }
        if r.witness_failed() {
            let msg = format!("WITNESS FAILED its check (a bug): {}: {}", r.path, r.reason);
            match &bar {
                Some(b) => b.println(msg),
                None => eprintln!("{msg}"),
            }
        }
        match &bar {
            Some(b) => {
                b.set_message(tally.line());
                b.inc(1);
            }
            None => eprintln!("{}", progress_line(done, total, r)),
        }
    };
    let meta = batch::meta::RunMeta::here(super::version(), std::env::args().collect());
    let finished = AtomicBool::new(false);
    let mut run = std::thread::scope(|scope| {
        if let (None, ProgressEvery(Some(every))) = (&bar, args.progress_every) {
            let (tally, finished) = (&tally, &finished);
            scope.spawn(move || heartbeat(tally, total, every, finished));
        }
        // Set on the way out, a panic included: the scope joins the heartbeat before it ends.
        let _finish = SetOnDrop(&finished);
        batch::run(&files, &options, &expected, &done_before, &stop, &on_result)
    });
    run.meta = Some(meta);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let wrong = run.results.iter().filter(|r| r.wrong).count();
    let failed = run.results.iter().filter(|r| r.witness_failed()).count();
    eprintln!(
        "{} files{}: {} in {:.1} s",
        run.results.len(),
        if run.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        tally.line(),
        run.wall_time
    );
    print_scores(&run);
    let tasks = run.results.iter().any(|r| r.property.is_some());
    if args.expected.is_some() || tasks {
        let without: Vec<String> = run
            .results
            .iter()
            .filter(|r| r.expected.is_none())
            .map(Record::key)
            .collect();
        if !without.is_empty() {
            eprintln!(
                "warning: {} input(s) without an expected verdict: {}{}",
                without.len(),
                without[..without.len().min(5)].join(", "),
                if without.len() > 5 { ", ..." } else { "" }
            );
        }
    }
    let output_errors = write_outputs(args, &run);
    for e in &output_errors {
        eprintln!("{e}");
    }
    if !output_errors.is_empty() {
        return 2;
    }
    if failed > 0 {
        eprintln!("{failed} WITNESS(ES) FAILED THEIR CHECK");
    }
    if wrong > 0 {
        eprintln!("{wrong} WRONG ANSWER(S)");
    }
    if wrong > 0 || failed > 0 {
        1
    } else if run.interrupted {
        signal_status(stopped_by.load(Ordering::SeqCst).max(2))
    } else {
        0
    }
}

/// A task definition's properties for the batch, read by the C front end (which knows which
/// it checks); `Err` is the located message.
fn read_task(path: &Path) -> Result<Vec<batch::tasks::TaskProperty>, String> {
    let t = task::read(path).map_err(|e| e.render())?;
    Ok(t.properties
        .iter()
        .map(|p| batch::tasks::TaskProperty {
            name: p.name.clone(),
            expected: p.expected.as_ref().map(ToString::to_string),
            checked: matches!(p.check, task::Check::Supported(_)),
        })
        .collect())
}

/// Runs `report`; returns the exit status.
pub fn report(args: &ReportArgs) -> i32 {
    let mut files = Vec::new();
    for spec in &args.results {
        let (name, file) = match spec.split_once('=') {
            Some((n, f)) if !n.is_empty() => (Some(n.to_string()), PathBuf::from(f)),
            _ => (None, PathBuf::from(spec)),
        };
        match output::load(&file) {
            Ok(run) => files.push(ResultFile { name, file, run }),
            Err(e) => return super::input_error(&e.to_string()),
        }
    }
    let grouped = match merge::group(files) {
        Ok(g) => g,
        Err(e) => return super::input_error(&e.to_string()),
    };
    for w in &grouped.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(p) = &args.json {
        let [(_, run)] = grouped.runs.as_slice() else {
            let names: Vec<&str> = grouped.runs.iter().map(|(n, _)| n.as_str()).collect();
            return super::input_error(&format!(
                "--json writes one run, but the result files make {} ({}); name the files of \
                 one run alike (NAME=FILE)",
                names.len(),
                names.join(", ")
            ));
        };
        if let Err(e) = write(p, &output::to_json(run)) {
            eprintln!("{e}");
            return 2;
        }
    }
    if let Some(out) = &args.out {
        if let Err(e) = write(out, &report::render(&grouped.runs)) {
            eprintln!("{e}");
            return 2;
        }
    }
    0
}
