//! `hornbeam verify TASK.yml`: an SV-COMP task definition instead of a program. The task names
//! the program (relative to the task file), its data model and its properties; each property
//! Hornbeam checks is verified in turn, and one it does not check is reported as such, never
//! answered.
//!
//! With `--property NAME|FILE.prp` one property of the task is selected (by its name, the stem of
//! its property file, as SV-COMP and BenchExec name it) and the output is exactly a program's.
//! Without, each property gets a block: `NAME: VERDICT` and the verdict's further lines indented
//! by two spaces, or `NAME: unsupported` with the reason on stderr.

use super::{verify_program, Job, VerifyArgs};
use crate::cli::input_error;
use crate::frontend::c::task::{self, Check, Task, TaskProperty};
use std::time::Instant;

/// Runs `verify` on a task file: (stdout, stderr, exit status).
pub(super) fn run(args: &VerifyArgs) -> (String, String, i32) {
    let refused = |code: i32| (String::new(), String::new(), code);
    let task = match task::read(&args.file) {
        Ok(t) => t,
        Err(e) => return refused(input_error(&e.render())),
    };
    if let Some(model) = args.data_model.filter(|m| *m != task.data_model) {
        return refused(input_error(&format!(
            "{}: --data-model {model} contradicts the task's data model {}",
            args.file.display(),
            task.data_model
        )));
    }
    match args.property.as_deref() {
        None => every(args, &task),
        Some(arg) => match selected(&task, arg) {
            Ok(p) => one(args, &task, p),
            Err(message) => refused(input_error(&message)),
        },
    }
}

/// The task property `--property` names: a name, or a property file whose stem is one.
fn selected<'t>(task: &'t Task, arg: &str) -> Result<&'t TaskProperty, String> {
    let name = task::property_name(arg);
    if let Some(p) = task.properties.iter().find(|p| p.name == name) {
        return Ok(p);
    }
    let names: Vec<&str> = task.properties.iter().map(|p| p.name.as_str()).collect();
    Err(format!(
        "{}: the task has no property `{name}` (it has {})",
        task.path.display(),
        names.join(", ")
    ))
}

/// The one selected property, printed as a program's verdict.
fn one(args: &VerifyArgs, task: &Task, p: &TaskProperty) -> (String, String, i32) {
    match &p.check {
        Check::Unsupported(why) => (
            String::new(),
            String::new(),
            input_error(&format!("{}: {why}", p.file.display())),
        ),
        Check::Supported(property) => verify_program(
            args,
            &Job {
                file: &task.program,
                property,
                data_model: task.data_model,
                limit: args.timeout.and_then(|t| t.0),
            },
        ),
    }
}

/// Every property of the task, a block each; the time limit is shared out evenly among the
/// properties still to run.
fn every(args: &VerifyArgs, task: &Task) -> (String, String, i32) {
    let properties: Vec<_> = task.relevant().collect();
    let supported = properties
        .iter()
        .filter(|p| matches!(p.check, Check::Supported(_)))
        .count();
    if supported > 1 && (args.witness.is_some() || args.emit_chc) {
        let what = if args.emit_chc {
            "--emit-chc"
        } else {
            "--witness"
        };
        return (
            String::new(),
            String::new(),
            input_error(&format!(
                "{}: {what} needs one property: the task has {supported} that Hornbeam checks \
                 (choose one with --property)",
                task.path.display()
            )),
        );
    }
    let start = Instant::now();
    let limit = args.timeout.and_then(|t| t.0);
    let (mut out, mut err, mut code) = (String::new(), String::new(), 0);
    let mut left = supported;
    for p in properties {
        let property = match &p.check {
            Check::Unsupported(why) => {
                out.push_str(&format!("{}: unsupported\n", p.name));
                err.push_str(&format!("{}: {why}\n", p.name));
                continue;
            }
            Check::Supported(property) => property,
        };
        let share = limit.map(|l| l.saturating_sub(start.elapsed()) / left.max(1) as u32);
        left -= 1;
        let job = Job {
            file: &task.program,
            property,
            data_model: task.data_model,
            limit: share,
        };
        let (o, e, c) = verify_program(args, &job);
        let mut lines = o.lines();
        // An input error was printed already (the program is the same for every property).
        let verdict = lines
            .next()
            .unwrap_or(if c == 2 { "error" } else { "unknown" });
        out.push_str(&format!("{}: {verdict}\n", p.name));
        for line in lines {
            out.push_str(&format!("  {line}\n"));
        }
        for line in e.lines() {
            err.push_str(&format!("{}: {line}\n", p.name));
        }
        code = code.max(c);
    }
    (out, err, code)
}
