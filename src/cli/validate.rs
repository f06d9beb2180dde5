//! `hornbeam validate PROGRAM WITNESS.yml`: an SV-COMP witness (ours or another tool's)
//! checked against the program (a `.c`/`.i` file, or a task definition naming it). The first
//! line is `confirmed`, `rejected` or `unknown`; the second says why, located
//! (`FILE:LINE:COL: ...`) where the witness fails at a place. The property and data model are
//! `--property` and `--data-model`, else the task's, else the witness's own metadata, else
//! `unreach-call` and ILP32.
//!
//! The checks are the library's (`frontend::c::validate`); this module reads the files and
//! prints.

use super::input_error;
use super::limits::{Limits, TimeLimit};
use super::{run_on_worker, Outcome};
use crate::clock::Deadline;
use crate::frontend::c::property::{self, Property};
use crate::frontend::c::task::{self, Check};
use crate::frontend::c::validate::{self, Validation};
use crate::frontend::c::DataModel;
use crate::term::TermStore;
use sha2::Digest;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Options of `hornbeam validate`.
#[derive(clap::Args, Debug, Clone)]
pub struct ValidateArgs {
    /// The program (`.c`, `.i`) or an SV-COMP task definition (`.yml`) naming it.
    program: PathBuf,
    /// The witness (YAML format 2.0: `invariant_set` or `violation_sequence`).
    witness: PathBuf,
    /// The property: a property file or name (default: the task's, else the witness's
    /// `specification`, else `unreach-call`).
    #[arg(long, value_name = "FILE.prp|NAME")]
    property: Option<String>,
    /// The data model (default: the task's, else the witness's, else ILP32).
    #[arg(long, value_name = "ILP32|LP64")]
    data_model: Option<DataModel>,
    /// Time limit in seconds (`inf`: none).
    #[arg(long)]
    timeout: Option<TimeLimit>,
}

/// Runs `validate`; returns the exit status.
pub fn run(args: &ValidateArgs) -> i32 {
    let limits = Limits {
        time: args.timeout.and_then(|t| t.0),
        grace: Duration::from_secs(1),
        memory: None,
        stats: false,
    };
    let args = args.clone();
    run_on_worker("validate", limits, move || {
        let (stdout, code) = validate(&args);
        Outcome {
            stdout,
            stderr: String::new(),
            code,
        }
    })
}

/// Reads a file, or reports the error (exit status 2).
fn read(path: &Path) -> Result<String, i32> {
    crate::syntax::read_text(path)
        .map_err(|(e, prefix)| input_error(&e.render(&crate::syntax::display_name(path), &prefix)))
}

/// (stdout, exit status)
fn validate(args: &ValidateArgs) -> (String, i32) {
    let fail = |code: i32| (String::new(), code);
    let witness_text = match read(&args.witness) {
        Ok(t) => t,
        Err(code) => return fail(code),
    };
    let meta = validate::metadata(&witness_text);
    // The program, and what a task says of it.
    let (program, task_model, task_property) = if task::is_task(&args.program) {
        let t = match task::read(&args.program) {
            Ok(t) => t,
            Err(e) => return fail(input_error(&e.render())),
        };
        let supported: Vec<Property> = t
            .properties
            .iter()
            .filter_map(|p| match &p.check {
                Check::Supported(p) => Some(p.clone()),
                Check::Unsupported(_) => None,
            })
            .collect();
        let one = (supported.len() == 1).then(|| supported[0].clone());
        (t.program.clone(), Some(t.data_model), one)
    } else {
        (args.program.clone(), None, None)
    };
    let property = match (&args.property, task_property, &meta.specification) {
        (Some(arg), _, _) => match property_of(arg) {
            Ok(p) => p,
            Err(code) => return fail(code),
        },
        (None, Some(p), _) => p,
        (None, None, Some(spec)) => match of_specification(spec) {
            Ok(p) => p,
            Err(why) => {
                let name = args.witness.display().to_string();
                return fail(input_error(&format!(
                    "{name}: the witness's specification: {why} (name the property with \
                     --property)"
                )));
            }
        },
        (None, None, None) => Property::unreach_call(),
    };
    let data_model = args
        .data_model
        .or(task_model)
        .or_else(|| meta.data_model.as_deref().and_then(|m| m.parse().ok()))
        .unwrap_or_default();
    let src = match read(&program) {
        Ok(s) => s,
        Err(code) => return fail(code),
    };
    // A witness names its program by hash: one for another version says nothing of this one.
    let bytes = std::fs::read(&program).unwrap_or_else(|_| src.as_bytes().to_vec());
    let hash: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if !meta.hashes.is_empty() && !meta.hashes.contains(&hash) {
        let why = "the witness is for another program: its input_file_hashes do not include \
                   the program's SHA-256";
        return (format!("unknown\n{why}\n"), 0);
    }
    let options = validate::Options {
        data_model,
        property,
        deadline: match args.timeout.and_then(|t| t.0) {
            Some(t) => Deadline::after(t),
            None => Deadline::none(),
        },
    };
    let store = TermStore::new();
    let name = program.display().to_string();
    let verdict = match validate::validate(&store, &src, &witness_text, &options) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            let wname = args.witness.display().to_string();
            return fail(input_error(&e.0.render(&wname, &witness_text)));
        }
        Err(e) => return fail(input_error(&e.render(&name, &src))),
    };
    let out = match verdict {
        Validation::Confirmed(what) => format!("confirmed\n{what}\n"),
        Validation::Rejected { at: Some(at), why } => {
            let (line, col) = crate::syntax::parse::line_col(&src, at);
            format!("rejected\n{name}:{line}:{col}: {why}\n")
        }
        Validation::Rejected { at: None, why } => format!("rejected\n{why}\n"),
        Validation::Unknown(why) => format!("unknown\n{why}\n"),
    };
    (out, 0)
}

/// The property `--property` names: a file's (by its text) or a name.
fn property_of(arg: &str) -> Result<Property, i32> {
    let path = Path::new(arg);
    if !path.is_file() && !arg.ends_with(".prp") {
        return property::from_name(arg).map_err(|m| input_error(&format!("--property: {m}")));
    }
    let text = read(path)?;
    property::parse(&text).map_err(|e| input_error(&e.render(arg, &text)))
}

/// The property a witness's `specification` states: a property file's text, or only its
/// LTL formula as some tools write it (`G ! call(reach_error())`, `G valid-memcleanup`).
fn of_specification(spec: &str) -> Result<Property, String> {
    let e = match property::parse(spec) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let compact: String = spec.chars().filter(|c| !c.is_whitespace()).collect();
    let named = if compact.contains("call(reach_error())") {
        "unreach-call"
    } else if compact.contains("valid-memcleanup") {
        "valid-memcleanup"
    } else if compact.contains("valid-deref") || compact.contains("valid-free") {
        "valid-memsafety"
    } else {
        return Err(e.message);
    };
    property::from_name(named)
}
