//! What `batch` prints while and after it runs (a part of `batch.rs`): the live counts, the
//! per-instance and summary lines when stderr is not a terminal, and the scores at the end.

use crate::batch::{self, Record, Run};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Live counts for the progress bar.
#[derive(Default)]
pub(super) struct Tally {
    sat: AtomicUsize,
    unsat: AtomicUsize,
    safe: AtomicUsize,
    r#unsafe: AtomicUsize,
    unknown: AtomicUsize,
    error: AtomicUsize,
    wrong: AtomicUsize,
    witness_failed: AtomicUsize,
    pub(super) done: AtomicUsize,
}

impl Tally {
    /// Counts a record; returns how many are counted now.
    pub(super) fn add(&self, r: &Record) -> usize {
        let c = match r.answer.as_str() {
            "sat" => &self.sat,
            "unsat" => &self.unsat,
            "safe" => &self.safe,
            "unsafe" => &self.r#unsafe,
            "unknown" => &self.unknown,
            _ => &self.error,
        };
        c.fetch_add(1, Ordering::SeqCst);
        if r.wrong {
            self.wrong.fetch_add(1, Ordering::SeqCst);
        }
        if r.witness_failed() {
            self.witness_failed.fetch_add(1, Ordering::SeqCst);
        }
        self.done.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// The counts: `sat N unsat N` (and `safe N unsafe N` once a C program answered)
    /// `unknown N error N wrong N` (and `witness-failed N` once a witness failed).
    pub(super) fn line(&self) -> String {
        let g = |a: &AtomicUsize| a.load(Ordering::SeqCst);
        let mut line = format!("sat {} unsat {}", g(&self.sat), g(&self.unsat));
        if g(&self.safe) + g(&self.r#unsafe) > 0 {
            line.push_str(&format!(
                " safe {} unsafe {}",
                g(&self.safe),
                g(&self.r#unsafe)
            ));
        }
        line.push_str(&format!(
            " unknown {} error {} wrong {}",
            g(&self.unknown),
            g(&self.error),
            g(&self.wrong)
        ));
        if g(&self.witness_failed) > 0 {
            line.push_str(&format!(" witness-failed {}", g(&self.witness_failed)));
        }
        line
    }
}

/// The progress line of a finished instance when stderr is not a terminal:
/// `[done/total] answer time path`, and the reason (cut to 160 characters) if any.
pub(super) fn progress_line(done: usize, total: usize, r: &Record) -> String {
    let mut line = format!("[{done}/{total}] {} {:.1} s {}", r.answer, r.time, r.path);
    if !r.reason.is_empty() {
        let reason: String = r.reason.chars().take(160).collect();
        line.push_str(&format!(" ({reason})"));
    }
    line
}

/// The summary line printed every `--progress-every` seconds when stderr is not a terminal.
pub(super) fn summary_line(tally: &Tally, total: usize, elapsed: Duration) -> String {
    format!(
        "progress: {}/{total} done ({}), {:.0} s elapsed",
        tally.done.load(Ordering::SeqCst),
        tally.line(),
        elapsed.as_secs_f64()
    )
}

/// Prints [`summary_line`] every `every` until `finished` is set.
pub(super) fn heartbeat(tally: &Tally, total: usize, every: Duration, finished: &AtomicBool) {
    let started = Instant::now();
    let mut next = every;
    while !finished.load(Ordering::SeqCst) {
        let elapsed = started.elapsed();
        if elapsed >= next {
            eprintln!("{}", summary_line(tally, total, elapsed));
            next += every;
        } else {
            std::thread::sleep((next - elapsed).min(Duration::from_millis(50)));
        }
    }
}

/// Prints the run's scores on stderr: SV-COMP's per category and overall for C records with
/// an expected verdict, solved counts per track for clause systems.
pub(super) fn print_scores(run: &Run) {
    let scores = batch::score::scores(&run.results);
    let line = |name: &str, t: &batch::score::Tally, sv: bool| {
        let score = if sv {
            format!("score {:>5}  ", t.score)
        } else {
            String::new()
        };
        format!(
            "  {name:<28} {score}correct {} (true {}, false {})  wrong {}  of {}",
            t.correct(),
            t.correct_true,
            t.correct_false,
            t.wrong(),
            t.runs
        )
    };
    if scores.svcomp_total.runs > 0 {
        eprintln!("SV-COMP score (+2 true, +1 false, -16 wrong false, -32 wrong true):");
        for (category, t) in &scores.svcomp {
            eprintln!("{}", line(category, t, true));
        }
        eprintln!("{}", line("all", &scores.svcomp_total, true));
    }
    if scores.chccomp_total.runs > 0 && !scores.chccomp.is_empty() {
        eprintln!("CHC-COMP solved (files with an expected answer):");
        for (track, t) in &scores.chccomp {
            eprintln!("{}", line(track, t, false));
        }
        eprintln!("{}", line("all", &scores.chccomp_total, false));
    }
}
