//! `hornbeam solve`: load, run the chosen engine under a deadline, validate, print.
//!
//! Solving runs on a worker thread with a large stack; the main thread enforces the time limit
//! (answering `unknown` if the worker overruns it) and turns a worker panic into `unknown`.

use super::{load, EngineChoice, WeakeningChoice};
use hornbeam::engine::slicing::{Slicing, Weakening};
use hornbeam::engine::{bmc::Bmc, cegar::Cegar, Context, Engine, Stats};
use hornbeam::smt::Deadline;
use hornbeam::term::TermStore;
use hornbeam::transform::{Pipeline, Preprocess};
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
    let deadline = match args.timeout {
        Some(s) => Deadline::after(Duration::from_secs_f64(s.max(0.0))),
        None => Deadline::none(),
    };
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
    // The engine solves the simplified system; its answer is translated back and validated
    // against the original one.
    let (solved_system, pipeline) = if args.no_preprocess {
        (system.clone(), Pipeline::new())
    } else {
        Preprocess::default().run(&store, &system)
    };
    let preprocessed = start.elapsed();
    let cx = Context {
        store: &store,
        deadline,
    };
    let mut stats = Stats::default();
    let (engine_name, answer) = match args.engine {
        EngineChoice::Auto | EngineChoice::Bmc => {
            ("bmc", Bmc::default().solve(&cx, &solved_system, &mut stats))
        }
        EngineChoice::Slicing => {
            let weakening = match args.weakening {
                WeakeningChoice::Cex => Weakening::Cex,
                WeakeningChoice::Syntactic => Weakening::Syntactic,
            };
            let engine = Slicing {
                weakening,
                ..Slicing::default()
            };
            ("slicing", engine.solve(&cx, &solved_system, &mut stats))
        }
        EngineChoice::Cegar => (
            "cegar",
            Cegar::default().solve(&cx, &solved_system, &mut stats),
        ),
    };
    let solved = start.elapsed();
    // Validation gets its own budget: a correct answer found just before the deadline must not
    // be lost to it.
    let vdeadline = Deadline::after(Duration::from_secs(30));
    let answer = pipeline.answer(&store, answer, vdeadline);
    let answer = answer.validated(&store, &system, vdeadline);
    let validated = start.elapsed();

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
            "engine": engine_name,
            "answer": answer.keyword(),
            "predicates": system.num_preds(),
            "clauses": system.num_clauses(),
            "preprocess": if args.no_preprocess { serde_json::Value::Null } else { pipeline.to_json() },
            "time_ms": {
                "parse": parsed.as_millis() as u64,
                "preprocess": (preprocessed - parsed).as_millis() as u64,
                "solve": (solved - preprocessed).as_millis() as u64,
                "validate": (validated - solved).as_millis() as u64,
                "total": validated.as_millis() as u64,
            },
            "engine_stats": stats,
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
