//! `hornbeam check FILE MODEL` (on a worker, within its time limit from reading the files to
//! the verdict) and `hornbeam print FILE`.

use super::limits::{Limits, TimeLimit};
use super::{input_error, load, run_on_worker, Outcome};
use crate::chc::SystemPrinter;
use crate::clock::Deadline;
use crate::term::{TermPrinter, TermStore};
use crate::transform::{CellAbstraction, Preprocess, SplitBooleans};
use crate::witness::{validate_model, DerivationCheck, ModelCheck};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time past `--timeout` for printing the verdict.
const GRACE: Duration = Duration::from_millis(500);

/// Validates a model file against a CHC file, reading both within the time limit.
pub fn run(file: PathBuf, model: PathBuf, timeout: TimeLimit) -> i32 {
    let stdin = Path::new(crate::syntax::STDIN);
    if file == stdin && model == stdin {
        return input_error("standard input (`-`) can be the file or the model, not both");
    }
    let start = Instant::now();
    let limits = Limits {
        time: timeout.0,
        grace: GRACE,
        memory: None,
        stats: false,
    };
    run_on_worker("check", limits, move || {
        check(&file, &model, timeout, start)
    })
}

/// The verdict; input errors are reported here.
fn check(file: &Path, model: &Path, timeout: TimeLimit, start: Instant) -> Outcome {
    let out = |stdout: String, stderr: String, code| Outcome {
        stdout,
        stderr,
        code,
    };
    let store = TermStore::new();
    let (system, _) = match load(&store, file) {
        Ok(x) => x,
        Err(code) => return out(String::new(), String::new(), code),
    };
    let mname = crate::syntax::display_name(model);
    let msrc = match crate::syntax::read_text(model) {
        Ok(s) => s,
        Err((e, prefix)) => {
            return out(
                String::new(),
                String::new(),
                input_error(&e.render(&mname, &prefix)),
            )
        }
    };
    let deadline = match timeout.0 {
        Some(t) => Deadline::after(t.saturating_sub(start.elapsed())),
        None => Deadline::none(),
    };
    if is_derivation(&msrc) {
        return derivation(&store, &system, &mname, &msrc, deadline);
    }
    let m = match crate::witness::read_model(&store, &system, &msrc) {
        Ok(m) => m,
        Err(e) => {
            return out(
                String::new(),
                String::new(),
                input_error(&e.render(&mname, &msrc)),
            )
        }
    };
    let undefined: Vec<&str> = system
        .pred_ids()
        .filter(|&p| m.get(p).is_none())
        .map(|p| system.pred(p).name.as_str())
        .collect();
    if !undefined.is_empty() && undefined.len() == system.num_preds() {
        let message = format!(
            "{mname}:1:1: the model defines none of the predicates of {} ({}): is it a model of \
             this file?",
            crate::syntax::display_name(file),
            abbreviated(&undefined)
        );
        return out(String::new(), String::new(), input_error(&message));
    }
    let mut notes = String::new();
    if !undefined.is_empty() {
        notes = format!(
            "note: the model does not define {}: read as false\n",
            abbreviated(&undefined)
        );
    }
    match validate_model(&store, &system, &m, deadline) {
        ModelCheck::Valid => out("valid\n".to_owned(), notes, 0),
        ModelCheck::Invalid {
            clause,
            reason,
            values,
        } => {
            let printed = SystemPrinter::new(&store, &system).clause(system.clause(clause));
            let mut text = format!("invalid\n; clause {}: {reason}\n", clause.0);
            if !values.is_empty() {
                let p = TermPrinter::new(&store);
                let shown: Vec<String> = values
                    .iter()
                    .map(|(&v, x)| format!("{} = {}", p.var(v), x.to_smtlib(&store.var_sort(v))))
                    .collect();
                text.push_str(&format!("; values that break it: {}\n", shown.join(", ")));
            }
            text.push_str(&printed);
            text.push('\n');
            out(text, notes, 1)
        }
        ModelCheck::Unknown(r) => out("unknown\n".to_owned(), format!("{notes}{r}\n"), 3),
    }
}

/// Whether the text is a counterexample derivation (`(derivation ...)`, after an optional
/// `unsat` line) rather than a model.
fn is_derivation(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.strip_prefix("unsat").map_or(t, str::trim_start);
    t.strip_prefix('(')
        .is_some_and(|r| r.trim_start().starts_with("derivation"))
}

/// Checks a derivation read from text: `valid` (exit 0), `invalid` and the failing step (1),
/// or `unknown` (3).
fn derivation(
    store: &TermStore,
    system: &crate::chc::System,
    name: &str,
    text: &str,
    deadline: Deadline,
) -> Outcome {
    let out = |stdout: String, stderr: String, code| Outcome {
        stdout,
        stderr,
        code,
    };
    let steps = match crate::syntax::derivation::read_derivation(system, text) {
        Ok(s) => s,
        Err(e) => {
            return out(
                String::new(),
                String::new(),
                input_error(&e.render(name, text)),
            )
        }
    };
    let line = |k: usize| {
        steps
            .get(k)
            .map_or(1, |s| crate::syntax::parse::line_col(text, s.span.start).0)
    };
    match crate::witness::check_derivation_text(store, system, &steps, deadline) {
        DerivationCheck::Valid => out("valid\n".to_owned(), String::new(), 0),
        DerivationCheck::Invalid(k, why) => out(
            format!("invalid\n{name}:{}: {why}\n", line(k)),
            String::new(),
            1,
        ),
        DerivationCheck::Unknown(k, why) => {
            out("unknown\n".to_owned(), format!("step {k}: {why}\n"), 3)
        }
    }
}

/// `a, b, c` or `a, b, c and N more`.
fn abbreviated(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let mut s = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    s
}

/// Which views of a system `print` shows, applied in this order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Views {
    /// After the default preprocessing.
    pub preprocessed: bool,
    /// Split by reachable Boolean valuations.
    pub split_bools: bool,
    /// Every array argument abstracted to one cell (unchanged when none can be).
    pub cells: bool,
}

/// Prints the normalised system, seen through `views`.
pub fn print(file: &Path, views: Views) -> i32 {
    let store = TermStore::new();
    let system = match load(&store, file) {
        Ok((system, _)) => system,
        Err(code) => return code,
    };
    let system = match views.preprocessed {
        true => Preprocess::default().run(&store, &system).0,
        false => system,
    };
    let system = match views.split_bools {
        true => SplitBooleans::default()
            .split(&store, &system)
            .map_or(system, |(s, _)| s),
        false => system,
    };
    let system = match views.cells {
        true => CellAbstraction
            .apply(&store, &system)
            .map_or(system, |(s, _)| s),
        false => system,
    };
    print!("{}", SystemPrinter::new(&store, &system).script());
    0
}
