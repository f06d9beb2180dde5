//! SV-COMP tasks in a batch: task definitions expanded into one input per property to run,
//! each with the task's expected verdict (the set files that list tasks are read by the
//! [`walk`](super::walk)).
//!
//! A property Hornbeam does not check is not run: it is counted, by name, among the pairs left
//! out, so the command line can say what was left and why. A task that cannot be read is one
//! `error` input with the task's located message.
//!
//! Must not: run anything, decide answers, or read a task definition itself (the caller passes
//! the reader: the C front end's, which knows which properties are checked).

use super::walk::{Input, Problem, TaskInput};
use std::collections::BTreeMap;
use std::path::Path;

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
