//! How long moving a system to another thread's store takes: export, import into a fresh store
//! on another thread, export there, import back home (with the original variables).
//!
//! `cargo run --release --example transfer_timing -- FILE.smt2 [REPEATS]` prints the system's
//! size and the median time of each step over the repeats (default 10).

use hornbeam::chc::SystemPrinter;
use hornbeam::term::TermStore;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: transfer_timing FILE.smt2 [REPEATS]")?;
    let repeats: usize = match args.next() {
        Some(n) => n.parse().map_err(|e| format!("REPEATS: {e}"))?,
        None => 10,
    };
    let src = hornbeam::syntax::read_text(std::path::Path::new(&path))
        .map_err(|(e, text)| e.render(&path, &text))?;
    let store = TermStore::new();
    let t = Instant::now();
    let system = hornbeam::syntax::read_system(&store, &src).map_err(|e| e.render(&path, &src))?;
    let parse = t.elapsed();
    let printed = SystemPrinter::new(&store, &system).script();
    let mut steps: [Vec<Duration>; 4] = Default::default();
    let mut terms = 0;
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        let exported = system.export(&store);
        steps[0].push(t.elapsed());
        terms = exported.num_terms();
        let (there, back, vars, same) = std::thread::spawn(move || {
            let store = TermStore::new();
            let t = Instant::now();
            let (system, vars) = exported.import(&store).expect("a fresh store takes it");
            let import = t.elapsed();
            let t = Instant::now();
            let back = system.export(&store);
            let export = t.elapsed();
            let same = SystemPrinter::new(&store, &system).script();
            ((import, export), back, vars, same)
        })
        .join()
        .map_err(|_| "the other thread panicked")?;
        steps[1].push(there.0);
        steps[2].push(there.1);
        let t = Instant::now();
        let (home, _) = back
            .import_with(&store, &vars.inverse())
            .map_err(|e| e.to_string())?;
        steps[3].push(t.elapsed());
        if home != system || same != printed {
            return Err("the system changed on the way".into());
        }
    }
    println!(
        "{path}: {} predicates, {} clauses, {terms} terms in the snapshot; parsing took {parse:?}",
        system.num_preds(),
        system.num_clauses()
    );
    let names = [
        "export",
        "import (fresh store, other thread)",
        "export there",
        "import home",
    ];
    for (name, times) in names.iter().zip(steps) {
        println!("  {name}: median {:?} over {repeats}", median(times));
    }
    Ok(())
}
