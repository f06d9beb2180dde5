//! `hornbeam check FILE MODEL` and `hornbeam print FILE`.

use super::{input_error, load};
use hornbeam::chc::SystemPrinter;
use hornbeam::smt::Deadline;
use hornbeam::term::TermStore;
use hornbeam::witness::{validate_model, ModelCheck};
use std::path::Path;
use std::time::Duration;

/// Validates a model file against a CHC file.
pub fn run(file: &Path, model: &Path, timeout: f64) -> i32 {
    let store = TermStore::new();
    let (system, _) = match load(&store, file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mname = model.display().to_string();
    let msrc = match hornbeam::syntax::read_text(model) {
        Ok(s) => s,
        Err((e, prefix)) => return input_error(&e.render(&mname, &prefix)),
    };
    let m = match hornbeam::syntax::read_model(&store, &system, &msrc) {
        Ok(m) => m,
        Err(e) => return input_error(&e.render(&mname, &msrc)),
    };
    let deadline = Deadline::after(Duration::from_secs_f64(timeout.max(0.0)));
    match validate_model(&store, &system, &m, deadline) {
        ModelCheck::Valid => {
            println!("valid");
            0
        }
        ModelCheck::Invalid { clause, reason } => {
            println!("invalid");
            let printed = SystemPrinter::new(&store, &system).clause(system.clause(clause));
            println!("; clause {}: {reason}", clause.0);
            println!("{printed}");
            1
        }
        ModelCheck::Unknown(r) => {
            println!("unknown");
            eprintln!("{r}");
            3
        }
    }
}

/// Prints the normalised system.
pub fn print(file: &Path) -> i32 {
    let store = TermStore::new();
    match load(&store, file) {
        Ok((system, _)) => {
            print!("{}", SystemPrinter::new(&store, &system).script());
            0
        }
        Err(code) => code,
    }
}
