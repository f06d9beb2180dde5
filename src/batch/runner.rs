//! One instance in isolation: a child process of the Hornbeam executable under a memory limit
//! and a wall-clock kill, its output turned into a [`Record`].
//!
//! The memory limit (`--memory MB`, [`MemoryLimit`]) is on the child's resident set: the memory it
//! really uses. The parent reads the child's RSS from `/proc/PID/statm` every [`POLL`] and kills it
//! once it is above the limit ("out of memory (RSS above N MB)"). An address-space limit would
//! count what the child only reserves: the solver thread's 512 MB stack, glibc's 64 MB malloc
//! arenas per thread, the mapped code of Z3, so that any limit under about 560 MB failed every
//! instance. `RLIMIT_AS` stays only as a backstop against a burst of allocation faster than the
//! polling: twice the limit plus [`RESERVED_MB`](super::memory::RESERVED_MB) (set between fork and
//! exec); an allocation failing there is also "out of memory". The child runs with
//! `MALLOC_ARENA_MAX=2` (unless the environment sets it) so that its reservations stay small and
//! few. Only the child's own process is measured (`hornbeam solve` starts none); without `/proc`
//! (not Linux) only the backstop applies.
//!
//! The child is reaped with `wait4`, never with `Child::wait`: its resource usage gives the
//! record's `cpu_secs` (user plus system time) and `peak_rss_mb` (`ru_maxrss`), also for a
//! child killed at a limit (its usage up to the kill). A helper thread waits for the child's
//! end without reaping it (`waitid` with `WNOWAIT`), so that a record's time is the child's
//! own and not rounded up to the next look.
//!
//! Duty: whatever the child does (answer, report bad input, panic, abort on a failed allocation,
//! loop past its deadline, get killed), return one record with a reason, and never more than
//! the instance's own result is lost. Must not: solve in this process, wait on a child
//! without a limit, or open an input that is not a regular file (a FIFO would block the
//! worker: inputs are checked again here, since the walk), or read or decompress an input
//! (that is the child's work, under the instance's limits: a gzip bomb costs one record).
//!
//! The command per input kind ([`command_for`]): `.smt2` runs `solve FILE --timeout T --stats`
//! (with `--engine E` when the options name one, and `--deterministic` when asked);
//! `.smt2.gz` goes to `solve` as it is (it decompresses gzip input). A C program (`.c`, `.i`:
//! [`is_program`]) runs `verify FILE --timeout T --stats` (with the same options), whose verdict
//! `safe`/`unsafe` is recorded as such; both commands print the same statistics line on stderr
//! (one JSON object with `engine` and, after `unknown`, `reason_kind`), which
//! [`interpret`](super::interpret) reads the same way.

use super::interpret::interpret;
use super::memory::{rss_bytes, MemoryLimit, MB};
use super::walk::{is_program, problem_of_type, Input, Problem};
use super::{error_record, BatchOptions, Record};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Time the child gets past its own limit (it answers `unknown` 2 s after its deadline) before
/// it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// How often the parent looks at a running child (whether it ended, its resident set).
pub const POLL: Duration = Duration::from_millis(10);

/// Checks that `file` (links followed) is a regular file, without opening it.
fn regular(file: &Path) -> Result<(), Problem> {
    match std::fs::metadata(file) {
        Ok(m) => problem_of_type(m.file_type()).map_or(Ok(()), Err),
        Err(e) => Err(Problem::Unreadable {
            reason: e.to_string(),
        }),
    }
}

/// The child command for an input: `verify` for a C program or a task's property, `solve` for
/// anything else (compressed inputs included).
pub fn command_for(input: &Input, options: &BatchOptions) -> Command {
    let file = &input.path;
    let mut cmd = Command::new(&options.exe);
    let verify = is_program(file) || input.task.is_some();
    cmd.arg(if verify { "verify" } else { "solve" })
        .arg(file)
        .arg("--timeout")
        .arg(format!("{}", options.timeout.as_secs_f64()))
        .arg("--stats");
    if let Some(t) = &input.task {
        cmd.arg("--property").arg(&t.property);
    } else if let (true, Some(model)) = (verify, &options.data_model) {
        cmd.arg("--data-model").arg(model);
    }
    // A rule file gives hints to both (its `hint` and `loop_hint` relations); a model file
    // only to clause systems.
    if let Some(h) = &options.hints {
        if !verify || h.extension().is_some_and(|e| e == "dl") {
            cmd.arg("--hints").arg(h);
        }
    }
    if let (true, Some(w)) = (verify, &input.witness) {
        cmd.arg("--witness").arg(w);
    }
    if let Some(engine) = &options.engine {
        cmd.arg("--engine").arg(engine);
    }
    if options.deterministic {
        cmd.arg("--deterministic");
    }
    cmd.arg("--threads").arg(options.threads.max(1).to_string());
    cmd
}

/// Applies the address-space backstop in the child, makes it die with the batch (Linux's
/// parent-death signal: a batch killed outright, by SIGKILL or the OOM killer, leaves no
/// instance running), and puts it in its own process group, so a Ctrl-C at the terminal
/// reaches only the batch, which then kills its children itself.
fn isolate(cmd: &mut Command, memory: Option<MemoryLimit>) {
    cmd.process_group(0);
    if memory.is_some() && std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        cmd.env("MALLOC_ARENA_MAX", "2");
    }
    let backstop = memory
        .map(|limit| libc::rlim_t::try_from(limit.backstop_bytes()).unwrap_or(libc::RLIM_INFINITY));
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: only async-signal-safe calls between fork and exec (prctl, getppid, setrlimit).
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The batch died before the signal was armed: the child must not outlive it.
            if libc::getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            if let Some(bytes) = backstop {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
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

/// What the child used, from the resource usage `wait4` returns when it is reaped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// User plus system CPU seconds.
    pub cpu_secs: f64,
    /// Peak resident set size in MB (`ru_maxrss`, kilobytes on Linux).
    pub peak_rss_mb: f64,
}

impl Usage {
    fn of(r: &libc::rusage) -> Self {
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        Usage {
            cpu_secs: secs(r.ru_utime) + secs(r.ru_stime),
            peak_rss_mb: r.ru_maxrss as f64 / 1024.0,
        }
    }
}

/// Reaps the child `pid` if it has ended (or waits for it, with `block`): its exit status and
/// resource usage, `None` while it runs (or when it cannot be waited for).
fn reap(pid: u32, block: bool) -> Option<(std::process::ExitStatus, Usage)> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: wait4 writes only through the two valid pointers given.
        let got = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if got == pid {
            return Some((
                std::process::ExitStatus::from_raw(status),
                Usage::of(&usage),
            ));
        }
        let interrupted =
            got < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR);
        if !interrupted {
            return None;
        }
    }
}

/// How the child ended, and what it used.
enum Ending {
    Exited(std::process::ExitStatus),
    TimedOut,
    /// Killed with this resident set size (bytes), above the limit.
    OverMemory(u64),
    Stopped,
}

/// Whether a child that `status` ended was stopped with the batch: killed by a signal that
/// stops a batch (SIGINT, SIGTERM, SIGHUP: this module only ever sends SIGKILL) while `stop`
/// is set, or gets set within 200 ms (the batch's own copy of the signal may come later).
fn stopped_with_batch(status: std::process::ExitStatus, stop: &AtomicBool) -> bool {
    if !matches!(
        status.signal(),
        Some(libc::SIGINT | libc::SIGTERM | libc::SIGHUP)
    ) {
        return false;
    }
    let until = Instant::now() + Duration::from_millis(200);
    while !stop.load(Ordering::SeqCst) {
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    true
}

/// Kills the child and reaps it: its resource usage up to the kill.
fn kill(child: &mut Child) -> Option<Usage> {
    let _ = child.kill();
    reap(child.id(), true).map(|(_, usage)| usage)
}

/// Tells, on a helper thread, when the child `pid` has ended: `waitid` with `WNOWAIT` blocks
/// until then and leaves the child unreaped (a zombie keeps its pid from being reused while
/// [`wait`] may still kill it), so that [`wait`] learns of the end at once instead of at its
/// next look, [`POLL`] later. The thread ends with the child.
fn watch_end(pid: u32) -> std::sync::mpsc::Receiver<()> {
    let (tx, rx) = std::sync::mpsc::channel();
    let pid = libc::id_t::from(pid);
    std::thread::spawn(move || loop {
        // SAFETY: an all-zero siginfo_t is a valid value of the plain C struct.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes only through the one valid pointer given.
        let got =
            unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT) };
        let interrupted =
            got < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR);
        if !interrupted {
            let _ = tx.send(());
            return;
        }
    });
    rx
}

/// Waits for the child, killing it past `limit`, above its memory limit, or once `stop` is set.
/// The child is reaped here with `wait4` (for its resource usage), never by `Child::wait`.
/// Between looks at its resident set the wait ends as soon as the child does ([`watch_end`]).
fn wait(
    child: &mut Child,
    limit: Duration,
    memory: Option<MemoryLimit>,
    stop: &AtomicBool,
) -> (Ending, Option<Usage>) {
    let started = Instant::now();
    let ended = watch_end(child.id());
    loop {
        if let Some((status, usage)) = reap(child.id(), false) {
            return (Ending::Exited(status), Some(usage));
        }
        if let Some(m) = memory {
            if let Some(rss) = rss_bytes(child.id()).filter(|&r| r > m.rss_bytes()) {
                return (Ending::OverMemory(rss), kill(child));
            }
        }
        let stopping = stop.load(Ordering::SeqCst);
        if stopping || started.elapsed() > limit {
            let usage = kill(child);
            let ending = if stopping {
                Ending::Stopped
            } else {
                Ending::TimedOut
            };
            return (ending, usage);
        }
        if ended.recv_timeout(POLL) == Err(std::sync::mpsc::RecvTimeoutError::Disconnected) {
            // No watcher (it could not wait): look again after the interval.
            std::thread::sleep(POLL);
        }
    }
}

/// Runs one instance; `None` when the batch was stopped before it finished.
pub fn run_one(input: &Input, options: &BatchOptions, stop: &AtomicBool) -> Option<Record> {
    let file = input.path.as_path();
    let started = Instant::now();
    let mut rec = error_record(file, String::new());
    let finish = |mut rec: Record, reason: String| {
        rec.reason = reason;
        rec.time = started.elapsed().as_secs_f64();
        Some(rec)
    };
    // Checked again here, not only while walking: the file may have changed since, and opening
    // a FIFO would block this worker.
    if let Err(problem) = regular(file) {
        return finish(rec, problem.to_string());
    }
    // A compressed input goes to the child as it is: the child decompresses it under its
    // limits (the parent never reads an instance, so a gzip bomb costs only its own run).
    // A witness left by an earlier run of the instance must not pass for this run's.
    if let Some(w) = &input.witness {
        let _ = std::fs::remove_file(w);
    }
    let mut cmd = command_for(input, options);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let memory = options.memory_mb.map(MemoryLimit::new);
    isolate(&mut cmd, memory);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            let reason = format!("cannot start {}: {e}", options.exe.display());
            return finish(rec, reason);
        }
    };
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let (ending, usage) = wait(&mut child, options.timeout + GRACE, memory, stop);
    rec.time = started.elapsed().as_secs_f64();
    rec.cpu_secs = usage.map(|u| u.cpu_secs);
    rec.peak_rss_mb = usage.map(|u| u.peak_rss_mb);
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match ending {
        Ending::Stopped => return None,
        // The signal that stops the batch may reach the child first (a scheduler signals the
        // whole job): its end is not its result, and a resumed batch must run it again.
        Ending::Exited(status) if stopped_with_batch(status, stop) => return None,
        Ending::TimedOut => {
            rec.reason = format!(
                "killed at the wall-clock limit ({:.0} s past the time limit)",
                GRACE.as_secs_f64()
            );
        }
        Ending::OverMemory(rss) => {
            let mb = options.memory_mb.unwrap_or_default();
            rec.reason = format!("out of memory (RSS above {mb} MB: {} MB)", rss / MB);
        }
        Ending::Exited(status) => interpret(&mut rec, status, &stdout, &stderr, memory),
    }
    rec.witness = input
        .witness
        .as_ref()
        .filter(|w| rec.solved() && w.is_file())
        .map(|w| super::path_text(w));
    Some(rec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_backstop_leaves_room_for_the_reservations() {
        let m = MemoryLimit::new(100);
        assert_eq!((m.mb, m.backstop_mb), (100, 1224));
        assert_eq!(m.rss_bytes(), 100 << 20);
        // Far above the solver thread's 512 MB stack alone, whatever the limit.
        assert!(MemoryLimit::new(1).backstop_mb > 512 + 128);
        assert_eq!(MemoryLimit::new(u64::MAX).backstop_mb, u64::MAX);
    }

    #[test]
    fn a_reaped_child_reports_its_cpu_time_and_peak_memory() {
        // A tenth of a second or more of shell arithmetic.
        let mut child = Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"])
            .spawn()
            .expect("sh");
        let stop = AtomicBool::new(false);
        let (ending, usage) = wait(&mut child, Duration::from_secs(60), None, &stop);
        assert!(matches!(ending, Ending::Exited(s) if s.success()));
        let usage = usage.expect("usage");
        assert!(usage.cpu_secs > 0.01, "{usage:?}");
        assert!(usage.peak_rss_mb > 0.5, "{usage:?}");
    }

    #[test]
    fn a_killed_child_is_reaped_with_its_usage() {
        let mut child = Command::new("sleep").arg("30").spawn().expect("sleep");
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let (ending, usage) = wait(&mut child, Duration::from_millis(100), None, &stop);
        assert!(matches!(ending, Ending::TimedOut));
        assert!(usage.is_some());
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn the_child_command_follows_the_input_kind() {
        let options = BatchOptions {
            jobs: 1,
            timeout: Duration::from_secs(7),
            memory_mb: None,
            exe: PathBuf::from("hornbeam"),
            engine: Some("bmc".into()),
            deterministic: false,
            threads: 1,
            shard: None,
            data_model: None,
            hints: None,
        };
        let args = |f: &str| {
            let cmd = command_for(&Input::new(f.into(), None, 0), &options);
            let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
            args.join(" ")
        };
        assert_eq!(
            args("a/p.c"),
            "verify a/p.c --timeout 7 --stats --engine bmc --threads 1"
        );
        assert_eq!(
            args("a/p.i"),
            "verify a/p.i --timeout 7 --stats --engine bmc --threads 1"
        );
        assert_eq!(
            args("a/f.smt2"),
            "solve a/f.smt2 --timeout 7 --stats --engine bmc --threads 1"
        );

        // A rule file's hints go to both; a model's to clause systems only.
        for (hints, c, smt2) in [
            ("r.dl", " --hints r.dl", " --hints r.dl"),
            ("m.smt2", "", " --hints m.smt2"),
        ] {
            let options = BatchOptions {
                hints: Some(hints.into()),
                engine: None,
                ..options.clone()
            };
            let args = |f: &str| {
                let cmd = command_for(&Input::new(f.into(), None, 0), &options);
                let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
                args.join(" ")
            };
            assert_eq!(
                args("p.c"),
                format!("verify p.c --timeout 7 --stats{c} --threads 1")
            );
            assert_eq!(
                args("f.smt2"),
                format!("solve f.smt2 --timeout 7 --stats{smt2} --threads 1")
            );
        }
    }

    #[test]
    fn the_resident_set_of_a_live_process_is_read() {
        let own = rss_bytes(std::process::id()).expect("/proc/self/statm");
        assert!(own > 0 && own < 1 << 40, "{own}");
    }
}
