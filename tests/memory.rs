//! Memory in proportion to the input: generated systems of many clauses, gzip bombs and
//! endless inputs, each run as a child whose peak resident memory (`wait4`'s `ru_maxrss`) is
//! bounded. Inputs are generated here, not kept as data files.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hornbeam");

/// What a finished child left: exit code, stdout, stderr and peak resident memory in MB.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    peak_mb: u64,
}

/// Runs `hornbeam ARGS` and measures its peak resident memory (the child is reaped by
/// `wait4`, which `Child::wait` cannot replace: it gives no resource usage).
#[allow(clippy::zombie_processes)]
fn measured(args: &[&str], dir: &Path) -> Run {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("stdout file"))
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which nothing else waits for.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        code,
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
        peak_mb: (usage.ru_maxrss as u64) / 1024,
    }
}

/// One predicate, `P(0)`, `n` self-loop clauses `P(x) ∧ y = x + step(i) → P(y)` and the
/// query `P(x) ∧ x < 0 → false` (safe: every step is positive).
fn self_loops(n: usize, step: impl Fn(usize) -> usize) -> String {
    let mut s = String::from("(set-logic HORN)\n(declare-fun P (Int) Bool)\n");
    s.push_str("(assert (forall ((x Int)) (=> (= x 0) (P x))))\n");
    for i in 0..n {
        s.push_str(&format!(
            "(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (+ x {}))) (P y))))\n",
            step(i)
        ));
    }
    s.push_str("(assert (forall ((x Int)) (=> (and (P x) (< x 0)) false)))\n(check-sat)\n");
    s
}

fn solve_within(name: &str, text: &str, timeout: &str, answers: &[&str], limit_mb: u64) {
    let dir = common::scratch("memory", name);
    let file = dir.join(format!("{name}.smt2"));
    std::fs::write(&file, text).expect("input");
    let run = measured(
        &[
            "solve",
            file.to_str().expect("utf-8 path"),
            "--timeout",
            timeout,
        ],
        &dir,
    );
    let answer = run.stdout.lines().next().unwrap_or_default();
    assert!(
        run.code == Some(0) && answers.contains(&answer),
        "{name}: {answer:?} (status {:?})\n{}",
        run.code,
        run.stderr
    );
    assert!(
        run.peak_mb <= limit_mb,
        "{name}: {} MB, above {limit_mb} MB",
        run.peak_mb
    );
}

/// A thousand copies of one clause: merged, so the system has three clauses (4.0 GB and
/// `unknown` when each copy had a solver per engine and thread).
#[test]
fn a_thousand_identical_clauses() {
    solve_within("same1000", &self_loops(1000, |_| 2), "30", &["sat"], 1024);
}

/// A thousand different clauses: engines keep at most a bounded number of solvers (3.5 GB
/// with one per clause).
#[test]
fn a_thousand_distinct_clauses() {
    solve_within(
        "dist1000",
        &self_loops(1000, |i| i + 1),
        "30",
        &["sat"],
        1024,
    );
}

/// Fifteen thousand distinct clauses within 1.5 GB, whatever the answer in the time.
#[test]
fn fifteen_thousand_clauses() {
    solve_within(
        "dist15000",
        &self_loops(15_000, |i| i + 1),
        "10",
        &["sat", "unknown"],
        1536,
    );
}

/// `member` repeated `times` times: a gzip stream of concatenated members (as `gzip` writes
/// them, and as readers must accept), so a 3 GB bomb is 3 MB to write.
fn repeated_member(dir: &Path, name: &str, head: &[u8], member: &[u8], times: usize) -> PathBuf {
    let gz = |bytes: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(bytes).expect("in memory");
        e.finish().expect("in memory")
    };
    let path = dir.join(name);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("bomb"));
    f.write_all(&gz(head)).expect("bomb");
    let body = gz(member);
    for _ in 0..times {
        f.write_all(&body).expect("bomb");
    }
    f.flush().expect("bomb");
    path
}

/// 3 GB of zeros and 3 GB of spaces behind gzip, and `/dev/zero`: each refused with a located
/// error by `solve` and `verify` within 500 MB; `batch` (which never decompresses in the
/// parent) records them as errors, the parent within 500 MB too.
#[test]
fn bombs_and_endless_inputs_are_refused_in_little_memory() {
    let dir = common::scratch("memory", "bombs");
    let mb = vec![0u8; 1 << 20];
    let zeros = repeated_member(&dir, "zeros.smt2.gz", b"", &mb, 3000);
    let spaces = repeated_member(
        &dir,
        "spaces.smt2.gz",
        b"(set-logic HORN)\n",
        &[b' '; 1 << 20],
        3000,
    );
    let cases = [
        (
            zeros.to_str().unwrap().to_owned(),
            ":1:1: invalid character U+0000",
        ),
        (
            spaces.to_str().unwrap().to_owned(),
            ":1:1: the input is larger than",
        ),
        ("/dev/zero".to_owned(), ":1:1: invalid character U+0000"),
    ];
    for (file, message) in &cases {
        for command in ["solve", "verify"] {
            let run = measured(&[command, file, "--timeout", "20"], &dir);
            let first = run.stderr.lines().next().unwrap_or_default();
            assert!(
                run.code == Some(2) && first.starts_with(&format!("{file}{message}")),
                "{command} {file}: status {:?}, stderr {}",
                run.code,
                run.stderr
            );
            assert!(run.peak_mb <= 500, "{command} {file}: {} MB", run.peak_mb);
        }
    }
    let inputs = common::scratch("memory", "bomb-batch");
    std::fs::rename(&zeros, inputs.join("zeros.smt2.gz")).expect("move");
    std::fs::rename(&spaces, inputs.join("spaces.smt2.gz")).expect("move");
    let run = measured(
        &[
            "batch",
            inputs.to_str().unwrap(),
            "--jobs",
            "1",
            "--memory",
            "500",
            "--timeout",
            "20",
        ],
        &dir,
    );
    assert_eq!(run.code, Some(0), "batch: {}", run.stderr);
    assert!(run.stderr.contains("error 2"), "batch: {}", run.stderr);
    assert!(run.peak_mb <= 500, "batch: {} MB", run.peak_mb);
}
