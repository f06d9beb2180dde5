//! `hornbeam solve`: load, run the chosen engine under a deadline, validate, print.
//!
//! Solving runs on a worker thread with a large stack; the main thread enforces the time limit
//! (answering `unknown` if the worker overruns it) and turns a worker panic into `unknown`.

use super::{load, EngineChoice, WeakeningChoice};
use hornbeam::engine::driver::{self, SolveOptions};
use hornbeam::engine::slicing::Weakening;
use hornbeam::term::TermStore;
use hornbeam::witness::Answer;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Options of `hornbeam solve`.
#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    /// The CHC-COMP (SMT-LIB, logic HORN) file.
    file: PathBuf,
    /// Which engine to run.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    engine: EngineChoice,
    /// How the slicing engine weakens candidates.
    #[arg(long, value_enum, default_value_t = WeakeningChoice::Cex)]
    weakening: WeakeningChoice,
    /// Time limit in seconds (default: none).
    #[arg(long)]
    timeout: Option<f64>,
    /// After `sat`, print the model as SMT-LIB define-fun lines.
    #[arg(long)]
    model: bool,
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
}

/// What the worker produced.
struct Outcome {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Stack size of the solving thread: deep terms recurse.
const WORKER_STACK: usize = 512 << 20;

/// Runs `solve`; returns the exit status.
pub fn run(args: &SolveArgs) -> i32 {
    let start = Instant::now();
    let limit = args.timeout.map(|s| Duration::from_secs_f64(s.max(0.0)));
    let (tx, rx) = mpsc::channel();
    let worker_args = args.clone();
    let spawned = std::thread::Builder::new()
        .name("solve".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let out = solve(&worker_args, start);
            let _ = tx.send(out);
        });
    if let Err(e) = spawned {
        println!("unknown");
        eprintln!("cannot start the solver thread: {e}");
        return 0;
    }
    // Grace period past the limit for validation and printing.
    let received = match limit {
        Some(l) => rx
            .recv_timeout(l + Duration::from_secs(2))
            .map_err(|e| e.to_string()),
        None => rx.recv().map_err(|e| e.to_string()),
    };
    match received {
        Ok(out) => {
            print!("{}", out.stdout);
            eprint!("{}", out.stderr);
            out.code
        }
        Err(_) if limit.is_some() && start.elapsed() >= limit.unwrap_or_default() => {
            println!("unknown");
            eprintln!("timeout");
            0
        }
        Err(_) => {
            println!("unknown");
            eprintln!("internal error: the solver stopped unexpectedly");
            0
        }
    }
}

fn solve(args: &SolveArgs, start: Instant) -> Outcome {
    let store = TermStore::new();
    let (system, _) = match load(&store, &args.file) {
        Ok(x) => x,
        Err(code) => {
            return Outcome {
                stdout: String::new(),
                stderr: String::new(),
                code,
            };
        }
    };
    let parsed = start.elapsed();
    let engine = match args.engine {
        EngineChoice::Auto => driver::EngineChoice::Auto,
        EngineChoice::Bmc => driver::EngineChoice::Bmc,
        EngineChoice::Cegar => driver::EngineChoice::Cegar,
        EngineChoice::Slicing => driver::EngineChoice::Slicing(match args.weakening {
            WeakeningChoice::Cex => Weakening::Cex,
            WeakeningChoice::Syntactic => Weakening::Syntactic,
        }),
    };
    let options = SolveOptions {
        engine,
        preprocess: !args.no_preprocess,
        timeout: args.timeout.map(|s| Duration::from_secs_f64(s.max(0.0))),
        ..SolveOptions::default()
    };
    let solved = driver::solve(&store, &system, &options);
    let answer = solved.answer;
    let mut stdout = String::new();
    let mut stderr = String::new();
    stdout.push_str(answer.keyword());
    stdout.push('\n');
    match &answer {
        Answer::Sat(m) if args.model => stdout.push_str(&m.to_smtlib(&store, &system)),
        Answer::Unsat(d) if args.cex => stdout.push_str(&d.to_text(&store, &system)),
        Answer::Unknown(reason) => {
            stderr.push_str(reason);
            stderr.push('\n');
        }
        _ => {}
    }
    if args.stats {
        let json = serde_json::json!({
            "engine": solved.engine,
            "answer": answer.keyword(),
            "predicates": system.num_preds(),
            "clauses": system.num_clauses(),
            "preprocess": solved.preprocess,
            "time_ms": {
                "parse": parsed.as_millis() as u64,
                "preprocess": solved.times.preprocess,
                "solve": solved.times.solve,
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
