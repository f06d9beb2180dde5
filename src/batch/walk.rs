//! Finding a batch's inputs: the paths given on the command line, directories walked (sorted by
//! name) for clause systems (`.smt2`, `.smt2.gz`) and C programs (`.c`, `.i`: [`is_program`]),
//! each candidate either a regular file to solve or a [`Problem`] that becomes its `error`
//! record. Both kinds may be mixed in one directory and one batch: each file is its own
//! instance, and its name alone decides which command runs it. A BenchExec set file given
//! (`*.set`: one glob of task or program files per line, relative to the set file, `#`
//! starting a comment) stands for the files its globs match.
//!
//! Duty: never let one path stop the walk. A candidate (a file given as such, or a walked entry
//! whose name is an input's, [`is_input`]) that cannot be solved — a dangling symbolic link, a
//! loop of links, a FIFO or other non-regular file, a file whose type cannot be read — is kept
//! with its problem; a path that is not a candidate and cannot be used (an unreadable
//! directory, a link back to a directory being walked, a dangling link of another name) is a
//! [`Warning`]. Names are bytes: a name that is not UTF-8 is a candidate like any other. Only a
//! path given on the command line that does not exist stops the batch ([`CollectError`]).
//!
//! Symbolic links are followed (benchmark sets are often trees of links into a shared pool),
//! the root paths included. A loop of links cannot make the walk endless: walkdir keeps the
//! directories it is inside and reports a link to one of them as a loop instead of entering
//! it (a [`Warning`]); a chain of links that never reaches a file fails to resolve (`ELOOP`).
//!
//! Must not: open a candidate (a FIFO would block the walk; the runner reads the inputs), print
//! (warnings are returned to the command line), or decide answers.

use std::fs::FileType;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// Why a candidate file cannot be solved: its `error` record's reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A symbolic link whose target does not exist.
    #[error("dangling symbolic link (to {target})")]
    DanglingLink {
        /// The link's target as written in the link.
        target: String,
    },
    /// A chain of symbolic links that never reaches a file.
    #[error("symbolic link loop (too many levels of symbolic links)")]
    LinkLoop,
    /// A FIFO, socket or device: reading it could block or never end.
    #[error("not a regular file ({kind})")]
    NotRegular {
        /// What it is instead (`a FIFO`, ...).
        kind: &'static str,
    },
    /// Any other failure to look at the path.
    #[error("cannot read: {reason}")]
    Unreadable {
        /// The operating system's message.
        reason: String,
    },
    /// An SV-COMP task definition that cannot be read (see [`super::tasks`]).
    #[error("{reason}")]
    Task {
        /// The located message (`FILE:LINE:COL: ...`).
        reason: String,
    },
}

/// A path that is not an input and could not be used; the walk went on without it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Warning {
    /// A directory that cannot be listed: files under it are not in the batch.
    #[error("{}: cannot read the directory ({reason}); files under it are not in the batch", .path.display())]
    UnreadableDirectory {
        /// The directory.
        path: PathBuf,
        /// The operating system's message.
        reason: String,
    },
    /// A link to a directory being walked: not entered again.
    #[error("{}: symbolic link loop back to {}; not walked again", .path.display(), .ancestor.display())]
    DirectoryLoop {
        /// The link.
        path: PathBuf,
        /// The directory it leads back to.
        ancestor: PathBuf,
    },
    /// A path whose name is not an input's that has a problem (a dangling link, ...).
    #[error("{}: {problem}; skipped (not an input file)", .path.display())]
    NotAnInput {
        /// The path.
        path: PathBuf,
        /// What is wrong with it.
        problem: Problem,
    },
}

/// Why no batch can run: a path given on the command line does not exist.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    /// The path cannot be looked at (it does not exist, or a directory on the way is closed).
    #[error("{}: {reason}", .path.display())]
    Missing {
        /// The path as given.
        path: PathBuf,
        /// The operating system's message.
        reason: String,
    },
    /// A set file given that cannot be read, or one of whose patterns is not a glob.
    #[error("{}: {reason}", .path.display())]
    Set {
        /// The set file.
        path: PathBuf,
        /// What is wrong (located: `LINE: ...`).
        reason: String,
    },
}

/// One candidate: a file to solve, or one that cannot be solved and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The path as given or found while walking.
    pub path: PathBuf,
    /// Why it cannot be solved (`None`: a regular file, to run).
    pub problem: Option<Problem>,
    /// The position, among the paths given, of the one it was found under (or is).
    pub root: usize,
    /// For a property of an SV-COMP task (`path` is the task file): which, and its
    /// expectation; `None` for a clause system or a program (see [`super::tasks`]).
    pub task: Option<TaskInput>,
    /// Where the instance writes its witness (`batch --witness-dir`).
    pub witness: Option<PathBuf>,
}

impl Input {
    /// A candidate found at `path` under the `root`-th path given.
    pub fn new(path: PathBuf, problem: Option<Problem>, root: usize) -> Self {
        Input {
            path,
            problem,
            root,
            task: None,
            witness: None,
        }
    }
}

/// The property of a task an input runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskInput {
    /// The property's name (`unreach-call`, ...), as `verify --property` takes it.
    pub property: String,
    /// The task's expected verdict (`true`, `false`, `false(valid-deref)`), if it states one.
    pub expected: Option<String>,
}

/// The inputs of a batch, in order, and what the walk skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// Every candidate, in the order given (directories sorted by name).
    pub inputs: Vec<Input>,
    /// Paths that are not inputs and could not be used.
    pub warnings: Vec<Warning>,
}

/// Whether a name is an input's (`.smt2`, `.smt2.gz`, a C program's: [`is_program`], or an
/// SV-COMP task's: [`is_task`]), by its bytes.
pub fn is_input(p: &Path) -> bool {
    let name = p.file_name().map_or(&[][..], |n| n.as_bytes());
    name.ends_with(b".smt2") || name.ends_with(b".smt2.gz") || is_program(p) || is_task(p)
}

/// Whether a name is an SV-COMP task definition's (`.yml`, `.yaml`), by its bytes.
pub fn is_task(p: &Path) -> bool {
    let name = p.file_name().map_or(&[][..], |n| n.as_bytes());
    name.ends_with(b".yml") || name.ends_with(b".yaml")
}

/// Whether a name is a BenchExec set file's (`.set`: one glob of inputs per line).
pub fn is_set(p: &Path) -> bool {
    p.file_name()
        .is_some_and(|n| n.as_bytes().ends_with(b".set"))
}

/// The files a set file's patterns match, pattern by pattern, each pattern's matches sorted; a
/// pattern that matches nothing matches nothing (as in BenchExec). `Err` is a located message
/// (`LINE: ...`) for a pattern that is not a glob, or the reason the set cannot be read.
pub fn read_set(set: &Path) -> Result<Vec<PathBuf>, String> {
    let text = std::fs::read_to_string(set).map_err(|e| e.to_string())?;
    let dir = set.parent().unwrap_or(Path::new("."));
    let mut out = vec![];
    for (k, line) in text.lines().enumerate() {
        let pattern = line.split('#').next().unwrap_or("").trim();
        if pattern.is_empty() {
            continue;
        }
        let full = dir.join(pattern);
        let matches = glob::glob(&full.to_string_lossy())
            .map_err(|e| format!("{}:{}: `{pattern}` is not a glob: {e}", k + 1, e.pos + 1))?;
        let mut found: Vec<PathBuf> = matches.filter_map(Result::ok).collect();
        found.sort();
        out.extend(found);
    }
    Ok(out)
}

/// Whether a name is a C program's (`.c`, or `.i` for preprocessed source), by its bytes: the
/// batch runs `hornbeam verify` on it, and `hornbeam solve` on any other file.
pub fn is_program(p: &Path) -> bool {
    let name = p.file_name().map_or(&[][..], |n| n.as_bytes());
    name.ends_with(b".c") || name.ends_with(b".i")
}

/// What a file type is, for a [`Problem::NotRegular`].
pub fn kind_of(t: FileType) -> &'static str {
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

/// The problem behind an error looking at `path` (following links).
fn problem_of(path: &Path, err: &io::Error) -> Problem {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if err.raw_os_error() == Some(libc::ELOOP) {
        Problem::LinkLoop
    } else if is_link && err.kind() == io::ErrorKind::NotFound {
        Problem::DanglingLink {
            target: std::fs::read_link(path)
                .map_or_else(|_| "?".into(), |t| t.to_string_lossy().into_owned()),
        }
    } else {
        Problem::Unreadable {
            reason: err.to_string(),
        }
    }
}

/// The problem of a candidate whose type (links followed) is known: `None` for a regular file.
pub fn problem_of_type(t: FileType) -> Option<Problem> {
    (!t.is_file()).then(|| Problem::NotRegular { kind: kind_of(t) })
}

/// The inputs under `paths`: a file given is a candidate whatever its name, a directory is
/// walked for candidates by name. See the module header for what becomes of unusable paths.
pub fn collect(paths: &[PathBuf]) -> Result<Collected, CollectError> {
    let mut out = Collected::default();
    for (root, p) in paths.iter().enumerate() {
        if let Err(e) = std::fs::symlink_metadata(p) {
            return Err(CollectError::Missing {
                path: p.clone(),
                reason: e.to_string(),
            });
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, root, &mut out),
            Ok(m) if m.is_file() && is_set(p) => {
                let matched = read_set(p).map_err(|reason| CollectError::Set {
                    path: p.clone(),
                    reason,
                })?;
                for path in matched {
                    let problem = std::fs::metadata(&path).map_or_else(
                        |e| Some(problem_of(&path, &e)),
                        |m| problem_of_type(m.file_type()),
                    );
                    out.inputs.push(Input::new(path, problem, root));
                }
            }
            Ok(m) => out
                .inputs
                .push(Input::new(p.clone(), problem_of_type(m.file_type()), root)),
            Err(e) => out
                .inputs
                .push(Input::new(p.clone(), Some(problem_of(p, &e)), root)),
        }
    }
    Ok(out)
}

/// Walks one directory, the `root`-th path given, into `out`. In a folder that holds task
/// definitions the programs are the tasks' (run through them), not inputs of their own.
fn walk(dir: &Path, root: usize, out: &mut Collected) {
    let first = out.inputs.len();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
    {
        match entry {
            Ok(e) if e.file_type().is_dir() || !is_input(e.path()) => {}
            Ok(e) => {
                let problem = problem_of_type(e.file_type());
                out.inputs.push(Input::new(e.into_path(), problem, root));
            }
            Err(e) => skipped(dir, root, &e, out),
        }
    }
    let with_tasks: std::collections::HashSet<PathBuf> = out.inputs[first..]
        .iter()
        .filter(|i| is_task(&i.path))
        .filter_map(|i| i.path.parent().map(Path::to_path_buf))
        .collect();
    if !with_tasks.is_empty() {
        let mut found = out.inputs.split_off(first);
        found.retain(|i| {
            let tasks_beside = i.path.parent().is_some_and(|d| with_tasks.contains(d));
            !(is_program(&i.path) && tasks_beside)
        });
        out.inputs.extend(found);
    }
}

/// Files an entry the walk could not use: a candidate's problem or a warning.
fn skipped(dir: &Path, root: usize, e: &walkdir::Error, out: &mut Collected) {
    let path = e.path().unwrap_or(dir).to_path_buf();
    if let Some(ancestor) = e.loop_ancestor() {
        out.warnings.push(Warning::DirectoryLoop {
            ancestor: ancestor.to_path_buf(),
            path,
        });
        return;
    }
    let reason = e
        .io_error()
        .map_or_else(|| e.to_string(), ToString::to_string);
    if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
        out.warnings
            .push(Warning::UnreadableDirectory { path, reason });
        return;
    }
    let problem = match e.io_error() {
        Some(io) => problem_of(&path, io),
        None => Problem::Unreadable { reason },
    };
    if is_input(&path) {
        out.inputs.push(Input::new(path, Some(problem), root));
    } else {
        out.warnings.push(Warning::NotAnInput { path, problem });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("hornbeam-unit-walk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch dir");
        d
    }

    fn mkfifo(p: &Path) {
        let c = std::ffi::CString::new(p.as_os_str().as_bytes()).expect("no NUL");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    }

    #[test]
    fn names_are_bytes() {
        assert!(is_input(Path::new("a/b.smt2")));
        assert!(is_input(Path::new("b.smt2.gz")));
        assert!(!is_input(Path::new("b.smt")));
        assert!(is_input(Path::new("p/task.c")) && is_program(Path::new("p/task.c")));
        assert!(is_input(Path::new("task.i")) && is_program(Path::new("task.i")));
        assert!(!is_program(Path::new("b.smt2")) && !is_program(Path::new("b.smt2.gz")));
        assert!(!is_input(Path::new("task.h")) && !is_input(Path::new("task.prp")));
        assert!(is_input(Path::new("c/task.yml")) && is_task(Path::new("c/task.yaml")));
        assert!(!is_program(Path::new("task.yml")) && is_set(Path::new("c/ReachSafety.set")));
        assert!(!is_input(Path::new("task.c.gz")) && !is_program(Path::new("a.cc")));
        let odd = Path::new(OsStr::from_bytes(b"d/\xff\xfe.smt2"));
        assert!(is_input(odd));
    }

    #[test]
    fn hostile_entries_become_problems_or_warnings() {
        use std::os::unix::fs::symlink;
        let d = scratch("hostile");
        std::fs::write(d.join("a.smt2"), "(check-sat)").expect("write");
        symlink("missing.smt2", d.join("b-dangling.smt2")).expect("link");
        symlink("c-loop2.smt2", d.join("c-loop1.smt2")).expect("link");
        symlink("c-loop1.smt2", d.join("c-loop2.smt2")).expect("link");
        mkfifo(&d.join("d-fifo.smt2"));
        mkfifo(&d.join("d-fifo.txt"));
        symlink("nowhere", d.join("e-dangling.txt")).expect("link");
        std::fs::create_dir(d.join("f")).expect("mkdir");
        symlink("..", d.join("f/up")).expect("link");
        let odd = d.join(OsStr::from_bytes(b"g-\xff.smt2"));
        std::fs::write(&odd, "(check-sat)").expect("write");

        let got = collect(std::slice::from_ref(&d)).expect("collects");
        let problems: Vec<(String, Option<Problem>)> = got
            .inputs
            .iter()
            .map(|i| {
                let name = i.path.file_name().expect("name").to_string_lossy();
                (name.into_owned(), i.problem.clone())
            })
            .collect();
        assert_eq!(
            problems,
            vec![
                ("a.smt2".into(), None),
                (
                    "b-dangling.smt2".into(),
                    Some(Problem::DanglingLink {
                        target: "missing.smt2".into()
                    })
                ),
                ("c-loop1.smt2".into(), Some(Problem::LinkLoop)),
                ("c-loop2.smt2".into(), Some(Problem::LinkLoop)),
                (
                    "d-fifo.smt2".into(),
                    Some(Problem::NotRegular { kind: "a FIFO" })
                ),
                ("g-\u{fffd}.smt2".into(), None),
            ]
        );
        assert_eq!(got.inputs[5].path, odd);
        assert_eq!(got.warnings.len(), 2, "{:?}", got.warnings);
        assert!(matches!(
            &got.warnings[0],
            Warning::NotAnInput { path, problem: Problem::DanglingLink { .. } }
                if path.ends_with("e-dangling.txt")
        ));
        assert!(matches!(
            &got.warnings[1],
            Warning::DirectoryLoop { path, .. } if path.ends_with("f/up")
        ));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_given_path_is_a_candidate_whatever_its_name_and_a_missing_one_stops() {
        let d = scratch("given");
        mkfifo(&d.join("fifo"));
        let got = collect(&[d.join("fifo")]).expect("collects");
        assert_eq!(
            got.inputs[0].problem,
            Some(Problem::NotRegular { kind: "a FIFO" })
        );
        let missing = collect(&[d.join("nothing.smt2")]);
        assert!(
            matches!(missing, Err(CollectError::Missing { .. })),
            "{missing:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_set_file_expands_its_globs_relative_to_itself() {
        let dir = tempfile::tempdir().expect("temporary directory");
        for f in ["a/1.yml", "a/2.yml", "b/3.yml", "b/3.c"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "").expect("writes");
        }
        let set = dir.path().join("x.set");
        std::fs::write(
            &set,
            "# a comment\na/*.yml\n\nb/*.yml  # trailing\nnone/*.yml\n",
        )
        .expect("writes");
        let found = read_set(&set).expect("reads");
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(dir.path()).expect("inside").to_owned())
            .collect();
        assert_eq!(
            names,
            ["a/1.yml", "a/2.yml", "b/3.yml"]
                .map(PathBuf::from)
                .to_vec()
        );
        std::fs::write(&set, "a/*.yml\na/[.yml\n").expect("writes");
        let err = read_set(&set).expect_err("refused");
        assert!(err.starts_with("2:"), "{err}");
    }
}
