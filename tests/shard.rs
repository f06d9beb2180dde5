//! `hornbeam batch --shard K/N` on `tests/data/batch/shards` (seven tiny files: three sat, three
//! unsat, one syntax error): bad shard specifications are refused at parsing; two shards are
//! disjoint, balanced, and merged by `report` they equal one unsharded run's records (times
//! apart); the SLURM scripts of `contrib/slurm` run as array tasks and merge. Records carry the
//! child's CPU time and peak memory.

mod common;

use hornbeam::batch::{output, Record, Run};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `hornbeam ARGS...`; a batch runs its instances with `--deterministic`, since the tests
/// assert their answers (which then do not depend on the machine's load).
fn hornbeam(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hornbeam"));
    cmd.args(args);
    if args.first() == Some(&"batch") {
        cmd.arg("--deterministic");
    }
    cmd.output().expect("run hornbeam")
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("test-shard", name)
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

fn load(p: &Path) -> Run {
    output::load(p).unwrap_or_else(|e| panic!("{e}"))
}

/// A record without what depends on timing: path, track, answer, expected, wrong, validation,
/// reason.
type Timeless = (String, String, String, Option<String>, bool, String, String);

/// A record without what depends on timing: the times, and the engine that answered first.
fn timeless(r: &Record) -> Timeless {
    (
        r.path.clone(),
        r.track.clone(),
        r.answer.clone(),
        r.expected.clone(),
        r.wrong,
        r.validation.clone(),
        r.reason.clone(),
    )
}

fn sorted(run: &Run) -> Vec<Timeless> {
    let mut v: Vec<_> = run.results.iter().map(timeless).collect();
    v.sort();
    v
}

#[test]
fn bad_shards_are_refused_when_parsing() {
    let suite = common::data_dir("batch/shards");
    for (bad, says) in [
        ("0/2", "must be between 1 and 2"),
        ("3/2", "must be between 1 and 2"),
        ("a/b", "is not K/N"),
        ("1/0", "at least 1"),
    ] {
        let out = hornbeam(&["batch", s(&suite), "--shard", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--shard") && stderr.contains(says),
            "{bad}: {stderr}"
        );
    }
}

#[test]
fn two_shards_merged_equal_one_unsharded_run() {
    let suite = common::data_dir("batch/shards");
    let dir = scratch("merge");
    let whole = dir.join("whole.json");
    let out = hornbeam(&[
        "batch",
        s(&suite),
        "--jobs",
        "2",
        "--json",
        s(&whole),
        "--csv",
        s(&dir.join("whole.csv")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let whole = load(&whole);
    assert_eq!(whole.results.len(), 7);
    assert_eq!(whole.shard, None);
    let mut shard_paths = Vec::new();
    for k in 1..=2 {
        let json = dir.join(format!("shard-{k}.json"));
        let out = hornbeam(&[
            "batch",
            s(&suite),
            "--jobs",
            "2",
            "--shard",
            &format!("{k}/2"),
            "--json",
            s(&json),
        ]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let run = load(&json);
        assert_eq!(run.shard.map(|x| x.to_string()), Some(format!("{k}/2")));
        assert_eq!(run.results.len(), if k == 1 { 4 } else { 3 }, "{run:?}");
        shard_paths.push(json);
    }
    let merged = dir.join("merged.json");
    let out = hornbeam(&[
        "report",
        s(&shard_paths[1]),
        s(&shard_paths[0]),
        "--json",
        s(&merged),
        "--out",
        s(&dir.join("merged.html")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let merged = load(&merged);
    assert_eq!(sorted(&merged), sorted(&whole));
    // Merged records come sorted by path, the order of the unsharded walk.
    let paths = |r: &Run| r.results.iter().map(|x| x.path.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&merged), paths(&whole));
    assert_eq!((merged.shard, merged.jobs), (None, 4));

    // Every instance ran as a child: CPU time and peak memory are recorded.
    for r in whole.results.iter().chain(&merged.results) {
        let cpu = r.cpu_secs.unwrap_or_else(|| panic!("no cpu_secs: {r:?}"));
        let rss = r
            .peak_rss_mb
            .unwrap_or_else(|| panic!("no peak_rss_mb: {r:?}"));
        assert!(cpu > 0.0 && cpu < 60.0, "{r:?}");
        assert!(rss > 1.0 && rss < 8192.0, "{r:?}");
    }
    let csv = std::fs::read_to_string(dir.join("whole.csv")).expect("csv");
    // After the run's metadata (`# ` lines), the header.
    let header: Vec<&str> = csv
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("header")
        .split(',')
        .collect();
    assert!(header.contains(&"cpu_secs") && header.contains(&"peak_rss_mb"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slurm_scripts_run_as_array_tasks_and_merge() {
    let suite = common::data_dir("batch/shards");
    let dir = scratch("slurm");
    let contrib = Path::new(env!("CARGO_MANIFEST_DIR")).join("contrib/slurm");
    let out_dir = dir.join("out");
    // An array 0-1: task ids 0 and 1 are shards 1/2 and 2/2.
    for id in ["0", "1"] {
        let out = Command::new("bash")
            .arg(contrib.join("batch.sbatch"))
            .args([s(&suite), s(&out_dir), "--timeout", "20"])
            .env("HORNBEAM", env!("CARGO_BIN_EXE_hornbeam"))
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_CPUS_PER_TASK", "2")
            .output()
            .expect("bash");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    assert!(out_dir.join("shard-1-of-2.json").is_file());
    assert!(out_dir.join("shard-2-of-2.json").is_file());
    let out = Command::new("bash")
        .arg(contrib.join("merge.sbatch"))
        .arg(&out_dir)
        .env("HORNBEAM", env!("CARGO_BIN_EXE_hornbeam"))
        .output()
        .expect("bash");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let merged = load(&out_dir.join("hornbeam.json"));
    assert_eq!(merged.results.len(), 7);
    assert!(out_dir.join("report.html").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
