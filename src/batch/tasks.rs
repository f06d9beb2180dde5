//! SV-COMP tasks in a batch: BenchExec set files (`*.set`: one glob of task or program files per
//! line, relative to the set file, `#` starting a comment) read into paths, and task
//! definitions expanded into one input per property to run, each with the task's expected
//! verdict.
//!
//! A property Hornbeam does not check is not run: it is counted, by name, among the pairs left
//! out, so the command line can say what was left and why. A task that cannot be read is one
//! `error` input with the task's located message.
//!
//! Must not: run anything, decide answers, or read a task definition itself (the caller passes
//! the reader: the C front end's, which knows which properties are checked).

use super::walk::{Input, Problem, TaskInput};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A property of a task, as the reader passed to [`expand`] gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// Its name (`unreach-call`, ...), as `verify --property` takes it.
    pub name: String,
    /// The task's expected verdict (`true`, `false(valid-deref)`, ...), if it states one.
    pub expected: Option<String>,
    /// Whether Hornbeam checks it.
    pub checked: bool,
}

/// Reads a task definition's properties, or says (located) why it cannot.
pub type TaskReader<'a> = &'a dyn Fn(&Path) -> Result<Vec<TaskProperty>, String>;

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

/// A batch's inputs with its tasks expanded.
#[derive(Debug, Default)]
pub struct Expanded {
    /// Every input to run, tasks as one input per property, in the order given.
    pub inputs: Vec<Input>,
    /// (task, property) pairs not run because Hornbeam does not check the property, counted
    /// by property name.
    pub unsupported: BTreeMap<String, usize>,
}

/// Expands each task among `inputs` into its properties (as `read` gives them): the ones
/// named in `selected`, or (when empty) every one the task states a verdict for or Hornbeam
/// checks. Other inputs pass through unchanged.
pub fn expand(inputs: Vec<Input>, selected: &[String], read: TaskReader) -> Expanded {
    let mut out = Expanded::default();
    for input in inputs {
        if input.problem.is_some() || !super::walk::is_task(&input.path) {
            out.inputs.push(input);
            continue;
        }
        let properties = match read(&input.path) {
            Ok(p) => p,
            Err(reason) => {
                out.inputs.push(Input {
                    problem: Some(Problem::Task { reason }),
                    ..input
                });
                continue;
            }
        };
        // Worth a run or a report, and selected.
        let wanted = |p: &TaskProperty| {
            (p.expected.is_some() || p.checked)
                && (selected.is_empty() || selected.contains(&p.name))
        };
        for p in properties.into_iter().filter(wanted) {
            if !p.checked {
                *out.unsupported.entry(p.name).or_default() += 1;
                continue;
            }
            out.inputs.push(Input {
                task: Some(TaskInput {
                    property: p.name,
                    expected: p.expected,
                }),
                ..input.clone()
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
