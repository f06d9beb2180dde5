//! `hornbeam batch` over hostile directories (a module of `tests/batch.rs`): dangling links,
//! loops of links, FIFOs, names that are not UTF-8 and unreadable directories, made at test
//! time in a scratch folder (never committed), each costing only its own record.

use super::{common, copy_dir, hornbeam, load, scratch};
use ::hornbeam::batch::output;

#[test]
fn hostile_paths_cost_only_their_own_records() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = scratch("hostile");
    let suite = dir.join("suite");
    copy_dir(&common::data_dir("batch/suite"), &suite);
    let t = suite.join("hostile");
    std::fs::create_dir_all(&t).expect("mkdir");
    symlink("/nonexistent/x.smt2", t.join("a-dangling.smt2")).expect("link");
    symlink("b-loop2.smt2", t.join("b-loop1.smt2")).expect("link");
    symlink("b-loop1.smt2", t.join("b-loop2.smt2")).expect("link");
    let fifo = std::ffi::CString::new(t.join("c-fifo.smt2").as_os_str().as_bytes()).expect("nul");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    symlink("nowhere", t.join("d-dangling.txt")).expect("link");
    symlink("../..", t.join("e-up")).expect("link");
    // A solvable file whose name is not UTF-8, in a track of its own.
    let odd_dir = suite.join("sat-odd");
    std::fs::create_dir_all(&odd_dir).expect("mkdir");
    let odd = odd_dir.join(OsStr::from_bytes(b"counter-\xff.smt2"));
    std::fs::copy(suite.join("sat/counter.smt2"), &odd).expect("copy");
    // An unreadable directory (root reads it all the same: then it is just walked).
    let closed = suite.join("closed");
    std::fs::create_dir_all(&closed).expect("mkdir");
    std::fs::copy(suite.join("sat/counter.smt2"), closed.join("x.smt2")).expect("copy");
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;

    let (json, csv) = (dir.join("r.json"), dir.join("r.csv"));
    let out = hornbeam(&[
        "batch",
        suite.to_str().expect("utf-8"),
        "--jobs",
        "2",
        "--json",
        json.to_str().expect("utf-8"),
        "--csv",
        csv.to_str().expect("utf-8"),
    ]);
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("d-dangling.txt: dangling symbolic link (to nowhere)"),
        "{stderr}"
    );
    assert!(stderr.contains("e-up: symbolic link loop"), "{stderr}");
    if !root {
        assert!(
            stderr.contains("closed: cannot read the directory"),
            "{stderr}"
        );
    }
    let run = load(&json);
    let reason = |name: &str| {
        let r = run
            .results
            .iter()
            .find(|r| r.path.ends_with(name))
            .unwrap_or_else(|| panic!("no record of {name}: {run:?}"));
        assert_eq!(r.answer, "error", "{r:?}");
        r.reason.clone()
    };
    assert_eq!(
        reason("a-dangling.smt2"),
        "dangling symbolic link (to /nonexistent/x.smt2)"
    );
    for name in ["b-loop1.smt2", "b-loop2.smt2"] {
        assert!(reason(name).contains("symbolic link loop"), "{run:?}");
    }
    assert_eq!(reason("c-fifo.smt2"), "not a regular file (a FIFO)");
    let odd_rec = run
        .results
        .iter()
        .find(|r| r.track == "sat-odd")
        .expect("the file with a name that is not UTF-8 is recorded");
    assert_eq!(odd_rec.path, odd.to_string_lossy(), "{odd_rec:?}");
    assert_eq!(odd_rec.answer, "sat", "{odd_rec:?}");
    assert!(odd_rec.reason.contains("not UTF-8"), "{odd_rec:?}");
    for r in run
        .results
        .iter()
        .filter(|r| r.track == "sat" || r.track == "unsat")
    {
        assert_eq!(
            (r.answer.as_str(), r.reason.as_str()),
            (r.track.as_str(), ""),
            "{r:?}"
        );
    }
    let solved = run.results.iter().filter(|r| r.solved()).count();
    let expected_total = if root { 10 } else { 9 };
    assert_eq!(run.results.len(), expected_total, "{run:?}");
    assert_eq!(solved, expected_total - 4, "{run:?}");
    // stderr is a pipe here: one progress line per finished instance.
    let progress = stderr.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(progress, expected_total, "{stderr}");
    assert!(
        stderr.contains("c-fifo.smt2 (not a regular file (a FIFO))"),
        "{stderr}"
    );
    let from_csv =
        output::from_csv(&std::fs::read_to_string(&csv).expect("csv"), &csv).expect("csv");
    let key = |r: &::hornbeam::batch::Record| (r.path.clone(), r.answer.clone(), r.reason.clone());
    assert_eq!(
        from_csv.iter().map(key).collect::<Vec<_>>(),
        run.results.iter().map(key).collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
