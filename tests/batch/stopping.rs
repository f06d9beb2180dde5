//! Batches stopped (a module of `tests/batch.rs`): Ctrl-C and SIGTERM keep what finished and
//! exit with 128 + the signal, an instance the same signal ended is no result, a batch killed
//! outright keeps its journal and leaves no instance running, `--resume` completes it, and a
//! result file that cannot be written stops the batch before it runs.

use super::{common, hornbeam, load, scratch};
use std::path::Path;
use std::process::{Child, Command};

/// `hornbeam batch --deterministic --jobs 1 --timeout 60 --json JSON INPUTS`, running.
fn spawn_batch(json: &Path, inputs: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args([
            "batch",
            "--deterministic",
            "--jobs",
            "1",
            "--timeout",
            "60",
            "--json",
        ])
        .arg(json)
        .arg(inputs)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn")
}

#[test]
fn an_interrupted_batch_keeps_what_finished() {
    let dir = scratch("interrupt");
    std::fs::create_dir_all(dir.join("t")).expect("mkdir");
    // Sorted first: an instance the portfolio answers at once; then one whose only
    // counterexample is a million steps deep, which runs to its 60 s limit unless the batch is
    // stopped (no engine here accelerates loops).
    std::fs::copy(
        common::data_dir("unsat").join("counter_off_by_one.smt2"),
        dir.join("t/a.smt2"),
    )
    .expect("copy");
    std::fs::write(dir.join("t/b.smt2"), DEEP).expect("write");
    let json = dir.join("out.json");
    let started = std::time::Instant::now();
    let mut child = spawn_batch(&json, &dir.join("t"));
    std::thread::sleep(std::time::Duration::from_secs(6));
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().expect("wait");
    assert!(
        started.elapsed().as_secs() < 40,
        "the batch was not stopped"
    );
    assert_eq!(status.code(), Some(130));
    let run = load(&json);
    assert!(run.interrupted);
    for r in &run.results {
        assert!(r.path.ends_with("a.smt2"), "{r:?}");
        assert_eq!(r.answer, "unsat", "{r:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The slow instance of the kill tests: its only counterexample is a million steps deep, so it
/// runs to its time limit unless the batch is stopped.
const DEEP: &str = "(set-logic HORN)\n(declare-fun inv (Int) Bool)\n\
     (assert (forall ((x Int)) (=> (= x 0) (inv x))))\n\
     (assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))\n\
     (assert (forall ((x Int)) (=> (and (inv x) (= x 1000000)) false)))\n(check-sat)\n";

/// The processes other than zombies with `needle` in their command line.
fn processes_with(needle: &str) -> Vec<libc::pid_t> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let pid: libc::pid_t = e.file_name().to_string_lossy().parse().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'));
            (!zombie && String::from_utf8_lossy(&cmdline).contains(needle)).then_some(pid)
        })
        .collect()
}

/// Whether a process other than a zombie runs with `needle` in its command line.
fn process_running(needle: &str) -> bool {
    !processes_with(needle).is_empty()
}

#[test]
fn a_killed_batch_keeps_its_journal_leaves_no_child_and_resumes() {
    let dir = scratch("killed");
    let inputs = dir.join("t");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    // Sorted first, answered at once; the deep one last.
    for (i, name) in ["counter_off_by_one.smt2", "array_write.smt2"]
        .iter()
        .enumerate()
    {
        let from = common::data_dir("unsat").join(name);
        std::fs::copy(from, inputs.join(format!("a{i}.smt2"))).expect("copy");
    }
    std::fs::write(inputs.join("z_deep.smt2"), DEEP).expect("write");
    let (json, csv) = (dir.join("out.json"), dir.join("out.csv"));
    let journal = hornbeam::batch::journal::beside(&json);
    let args = |resume: bool| {
        let mut a: Vec<std::ffi::OsString> = ["batch", "--jobs", "1"]
            .into_iter()
            .map(Into::into)
            .collect();
        a.extend(["--timeout".into(), (if resume { "1" } else { "60" }).into()]);
        a.extend([
            "--json".into(),
            json.clone().into(),
            "--csv".into(),
            csv.clone().into(),
        ]);
        a.push(inputs.clone().into());
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_hornbeam"))
        .args(args(false))
        .arg("--deterministic")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    // Wait until the two quick records are in the journal and the deep one runs.
    let started = std::time::Instant::now();
    let deep = inputs.join("z_deep.smt2").to_string_lossy().into_owned();
    while !(hornbeam::batch::journal::load(&journal).map_or(0, |r| r.len()) == 2
        && process_running(&format!("solve\0{deep}")))
    {
        assert!(
            started.elapsed().as_secs() < 60,
            "the quick instances did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
    child.wait().expect("wait");
    // The instance dies with the batch (parent-death signal), well before its 60 s.
    let killed = std::time::Instant::now();
    while process_running(&format!("solve\0{deep}")) {
        assert!(
            killed.elapsed().as_secs() < 5,
            "the instance outlived the batch"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let kept = hornbeam::batch::journal::load(&journal).expect("journal");
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(kept.iter().all(|r| r.answer == "unsat"), "{kept:?}");
    // Resumed: the finished records are taken as they are, only the deep one runs.
    let out = hornbeam(
        &args(true)
            .iter()
            .map(|a| a.to_str().unwrap())
            .collect::<Vec<_>>(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("resuming: 2 instance(s) already finished"),
        "{stderr}"
    );
    let run = load(&json);
    assert_eq!(run.results.len(), 3, "{:?}", run.results);
    for r in &kept {
        assert!(run.results.contains(r), "{r:?} lost");
    }
    assert_eq!(load(&csv).results.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_result_file_that_cannot_be_written_stops_the_batch_before_it_runs() {
    let dir = scratch("bad-output");
    let out = hornbeam(&[
        "batch",
        "--json",
        "/nonexistent/dir/x.json",
        "--csv",
        dir.join("ok.csv").to_str().unwrap(),
        common::data_dir("batch").join("suite").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("/nonexistent/dir/x.json"), "{stderr}");
    assert!(!stderr.contains("[1/"), "an instance ran: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM ends a batch with 143; a scheduler signals every process of the job, so the
/// instance may die of the same signal first: that is no result of it (a resumed batch must
/// run it again), not an `error` record.
#[test]
fn sigterm_ends_a_batch_with_143_and_the_instance_it_ended_is_no_result() {
    let dir = scratch("sigterm");
    std::fs::create_dir_all(dir.join("t")).expect("mkdir");
    std::fs::write(dir.join("t/deep.smt2"), DEEP).expect("write");
    let json = dir.join("out.json");
    let mut child = spawn_batch(&json, &dir.join("t"));
    let deep = dir.join("t/deep.smt2").to_string_lossy().into_owned();
    let started = std::time::Instant::now();
    let instance = loop {
        if let Some(&pid) = processes_with(&format!("solve\0{deep}")).first() {
            break pid;
        }
        assert!(
            started.elapsed().as_secs() < 30,
            "the instance did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // SAFETY: plain kill(2)s of our child and of its child.
    unsafe {
        libc::kill(instance, libc::SIGTERM);
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    assert_eq!(child.wait().expect("wait").code(), Some(143));
    let run = load(&json);
    assert!(run.interrupted);
    assert!(run.results.is_empty(), "{:?}", run.results);
    let _ = std::fs::remove_dir_all(&dir);
}
