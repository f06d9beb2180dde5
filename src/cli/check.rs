//! `hornbeam check FILE MODEL` and `hornbeam print FILE`.

use super::{input_error, load};
use hornbeam::chc::SystemPrinter;
use hornbeam::smt::Deadline;
use hornbeam::term::TermStore;
use hornbeam::transform::{Preprocess, SplitBooleans};
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

/// Prints the normalised system; with `preprocessed`, after the default preprocessing; with
/// `split_bools`, also split by reachable Boolean valuations.
pub fn print(file: &Path, preprocessed: bool, split_bools: bool) -> i32 {
    let store = TermStore::new();
    let system = match load(&store, file) {
        Ok((system, _)) => system,
        Err(code) => return code,
    };
    let system = match preprocessed {
        true => Preprocess::default().run(&store, &system).0,
        false => system,
    };
    let system = match split_bools {
        true => SplitBooleans::default()
            .split(&store, &system)
            .map_or(system, |(s, _)| s),
        false => system,
    };
    print!("{}", SystemPrinter::new(&store, &system).script());
    0
}
