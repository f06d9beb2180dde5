//! One instance in isolation: a child process of the Hornbeam executable under an address-space
//! limit (`setrlimit(RLIMIT_AS)` between fork and exec) and a wall-clock kill, its output turned
//! into a [`Record`].
//!
//! Duty: whatever the child does (answer, report bad input, panic, abort on a failed allocation,
//! loop past its deadline, get killed), return one record with a reason, and never more than
//! the instance's own result is lost. Must not: solve in this process, or wait on a child
//! without a limit.
//!
//! The command per input kind ([`command_for`]): `.smt2` runs `solve FILE --timeout T --stats`
//! (with `--engine E` when the options name one);
//! `.smt2.gz` is decompressed (flate2) to a temporary file first. C programs (`.c`, once the
//! front end lands) would run `verify FILE --timeout T` and map `safe`/`unsafe` to
//! `sat`/`unsat`: only [`command_for`] and [`is_input`](super::is_input) need to learn them.

use super::{track_of, BatchOptions, Record};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Time the child gets past its own limit (it answers `unknown` 2 s after its deadline) before
/// it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// How often the parent looks at a running child.
const POLL: Duration = Duration::from_millis(10);

/// A temporary file removed when dropped.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Decompresses a `.gz` input into a fresh temporary `.smt2` file.
fn gunzip(file: &Path) -> Result<TempFile, String> {
    use std::sync::atomic::AtomicU64;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let raw = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(raw)
        .read_to_end(&mut text)
        .map_err(|e| format!("{}: gzip: {e}", file.display()))?;
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let tmp = std::env::temp_dir().join(format!("hornbeam-batch-{}-{n}.smt2", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    Ok(TempFile(tmp))
}

/// The child command for `file` (which may be a decompressed copy of the input).
pub fn command_for(file: &Path, options: &BatchOptions) -> Command {
    let mut cmd = Command::new(&options.exe);
    cmd.arg("solve")
        .arg(file)
        .arg("--timeout")
        .arg(format!("{}", options.timeout.as_secs_f64()))
        .arg("--stats");
    if let Some(engine) = &options.engine {
        cmd.arg("--engine").arg(engine);
    }
    cmd
}

/// Applies the memory limit in the child and puts it in its own process group, so a Ctrl-C at
/// the terminal reaches only the batch, which then kills its children itself.
fn isolate(cmd: &mut Command, memory_mb: Option<u64>) {
    cmd.process_group(0);
    if let Some(mb) = memory_mb {
        let bytes = mb.saturating_mul(1 << 20) as libc::rlim_t;
        // SAFETY: only async-signal-safe calls between fork and exec (setrlimit).
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

/// Reads a pipe to its end on a helper thread.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// How the child ended.
enum Ending {
    Exited(std::process::ExitStatus),
    TimedOut,
    Stopped,
}

fn wait(child: &mut Child, limit: Duration, stop: &AtomicBool) -> Ending {
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ending::Exited(status),
            Ok(None) => {}
            Err(_) => {}
        }
        let stopping = stop.load(Ordering::SeqCst);
        if stopping || started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return if stopping {
                Ending::Stopped
            } else {
                Ending::TimedOut
            };
        }
        std::thread::sleep(POLL);
    }
}

/// Runs one instance; `None` when the batch was stopped before it finished.
pub fn run_one(file: &Path, options: &BatchOptions, stop: &AtomicBool) -> Option<Record> {
    let started = Instant::now();
    let mut rec = Record {
        path: file.display().to_string(),
        track: track_of(file),
        answer: "error".into(),
        expected: None,
        wrong: false,
        time: 0.0,
        engine: None,
        validation: String::new(),
        reason: String::new(),
    };
    let gz = file.extension().is_some_and(|e| e == "gz");
    let tmp = if gz {
        match gunzip(file) {
            Ok(t) => Some(t),
            Err(e) => {
                rec.reason = e;
                rec.time = started.elapsed().as_secs_f64();
                return Some(rec);
            }
        }
    } else {
        None
    };
    let input = tmp.as_ref().map_or(file, |t| t.0.as_path());
    let mut cmd = command_for(input, options);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    isolate(&mut cmd, options.memory_mb);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            rec.reason = format!("cannot start {}: {e}", options.exe.display());
            rec.time = started.elapsed().as_secs_f64();
            return Some(rec);
        }
    };
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let ending = wait(&mut child, options.timeout + GRACE, stop);
    rec.time = started.elapsed().as_secs_f64();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match ending {
        Ending::Stopped => return None,
        Ending::TimedOut => {
            rec.reason = format!(
                "killed at the wall-clock limit ({:.0} s past the time limit)",
                GRACE.as_secs_f64()
            );
        }
        Ending::Exited(status) => interpret(&mut rec, status, &stdout, &stderr, options),
    }
    if let Some(t) = &tmp {
        // Messages name the temporary copy; name the input instead.
        rec.reason = rec
            .reason
            .replace(&t.0.display().to_string(), &file.display().to_string());
    }
    Some(rec)
}

/// Fills in answer, engine, validation and reason from the child's output and exit status.
fn interpret(
    rec: &mut Record,
    status: std::process::ExitStatus,
    stdout: &str,
    stderr: &str,
    options: &BatchOptions,
) {
    let first = stdout.lines().next().unwrap_or("").trim();
    let stats: Option<serde_json::Value> = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok());
    let messages: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with('{') && !l.trim().is_empty())
        .collect();
    let oom = stderr.contains("memory allocation of") || stderr.contains("out of memory");
    if let Some(sig) = status.signal() {
        rec.reason = if oom {
            memory_reason(options)
        } else {
            format!("killed by signal {sig}{}", tail(&messages))
        };
        return;
    }
    match (status.code(), first) {
        (Some(0), "sat" | "unsat" | "unknown") => {
            rec.answer = first.to_string();
            rec.engine = stats
                .as_ref()
                .and_then(|s| s.get("engine"))
                .and_then(|e| e.as_str())
                .map(str::to_string);
            if rec.solved() {
                rec.validation = "validated".into();
            } else {
                rec.reason = messages.join("; ");
                if rec.reason.contains("solver thread") && options.memory_mb.is_some() {
                    rec.answer = "error".into();
                    rec.reason = memory_reason(options);
                }
            }
        }
        (Some(2), _) => {
            rec.reason = messages.first().map_or("input error", |m| m).to_string();
        }
        (Some(101), _) => {
            rec.reason = if oom {
                memory_reason(options)
            } else {
                format!("crashed (panic){}", tail(&messages))
            };
        }
        (code, _) => {
            rec.reason = if oom {
                memory_reason(options)
            } else {
                format!(
                    "exit status {}{}",
                    code.map_or("?".into(), |c| c.to_string()),
                    tail(&messages)
                )
            };
        }
    }
}

fn memory_reason(options: &BatchOptions) -> String {
    match options.memory_mb {
        Some(mb) => format!("out of memory (limit {mb} MB)"),
        None => "out of memory".into(),
    }
}

/// The last message of the child, as context for a crash.
fn tail(messages: &[&str]) -> String {
    match messages.last() {
        Some(m) => format!(": {}", m.chars().take(200).collect::<String>()),
        None => String::new(),
    }
}
