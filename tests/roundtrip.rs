//! Print/parse round trips of the normalised system for every `tests/data/sat/` and
//! `tests/data/unsat/` file: printing a file, parsing the printed text into a fresh store and
//! printing again gives the same text, with the same predicates and clause count; and the
//! printed normal form of every file matches its `insta` snapshot in `tests/snapshots/`.

mod common;

use common::corpus;
use hornbeam::chc::{System, SystemPrinter};
use hornbeam::syntax::read_system;
use hornbeam::term::TermStore;
use std::path::Path;

/// Parses `src` into a fresh store and prints the normalised system.
fn parse_and_print(name: &str, src: &str) -> Result<(System, String), String> {
    let store = TermStore::new();
    let system = read_system(&store, src).map_err(|e| e.render(name, src))?;
    let printed = SystemPrinter::new(&store, &system).script();
    Ok((system, printed))
}

/// A printed script as s-expressions, to compare two prints up to the order of operands of `=`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

fn sexprs(text: &str) -> Vec<Sx> {
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => stack.push(Vec::new()),
            ')' => {
                let list = stack.pop().expect("balanced parentheses");
                stack
                    .last_mut()
                    .expect("balanced parentheses")
                    .push(Sx::List(list));
            }
            c if c.is_whitespace() => {}
            c => {
                let mut atom = String::from(c);
                let quoted = c == '|';
                while let Some(&d) = chars.peek() {
                    if quoted {
                        atom.push(d);
                        chars.next();
                        if d == '|' {
                            break;
                        }
                    } else if d == '(' || d == ')' || d.is_whitespace() {
                        break;
                    } else {
                        atom.push(d);
                        chars.next();
                    }
                }
                stack
                    .last_mut()
                    .expect("balanced parentheses")
                    .push(Sx::Atom(atom));
            }
        }
    }
    assert_eq!(stack.len(), 1, "unbalanced parentheses in printed text");
    stack.pop().unwrap()
}

/// Sorts the two operands of every `(= a b)`.
fn canonical(x: Sx) -> Sx {
    match x {
        Sx::Atom(_) => x,
        Sx::List(items) => {
            let mut items: Vec<Sx> = items.into_iter().map(canonical).collect();
            if items.len() == 3 && items[0] == Sx::Atom("=".into()) {
                items[1..].sort();
            }
            Sx::List(items)
        }
    }
}

fn same_up_to_eq_order(a: &str, b: &str) -> bool {
    let norm = |t: &str| -> Vec<Sx> { sexprs(t).into_iter().map(canonical).collect() };
    norm(a) == norm(b)
}

/// Round trip of `path`: returns the first print (of the file) and the second (of the first
/// print read back), after checking that they agree up to the order of `=` operands, that the
/// reparsed system has the same predicates and clause count, and that a third print equals the
/// second.
fn round_trip(path: &Path) -> Result<(String, String), String> {
    let name = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let (first, printed) = parse_and_print(&name, &src)?;
    let (second, reprinted) = parse_and_print(&format!("{name} (printed)"), &printed)
        .map_err(|e| format!("the printed text does not parse: {e}\n{printed}"))?;
    if !same_up_to_eq_order(&printed, &reprinted) {
        return Err(format!(
            "{name}: printing the reparsed system differs\n--- first print\n{printed}--- second print\n{reprinted}"
        ));
    }
    let decls = |s: &System| -> Vec<_> { s.pred_ids().map(|p| s.pred(p).clone()).collect() };
    if decls(&first) != decls(&second) || first.num_clauses() != second.num_clauses() {
        return Err(format!(
            "{name}: the reparsed system has other predicates or clauses"
        ));
    }
    let (_, third) = parse_and_print(&format!("{name} (printed twice)"), &reprinted)?;
    if third != reprinted {
        return Err(format!(
            "{name}: the print is not a fixpoint\n--- second print\n{reprinted}--- third print\n{third}"
        ));
    }
    Ok((printed, reprinted))
}

fn snapshot(folder: &str, path: &Path, printed: &str) -> Result<(), String> {
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    let name = format!("{folder}_{stem}");
    let description = format!("hornbeam print tests/data/{folder}/{stem}.smt2");
    std::panic::catch_unwind(|| {
        insta::with_settings!({ description => description, omit_expression => true }, {
            insta::assert_snapshot!(name.as_str(), printed);
        });
    })
    .map_err(|_| format!("{}: snapshot `{name}` does not match", path.display()))
}

/// Round-trips and snapshots every file of a folder; fails with all failures at once.
fn check_folder(folder: &str) {
    let mut failures = Vec::new();
    for path in corpus(folder) {
        let name = path.display().to_string();
        match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|src| parse_and_print(&name, &src))
        {
            Ok((_, printed)) => failures.extend(snapshot(folder, &path, &printed).err()),
            Err(e) => failures.push(e),
        }
        failures.extend(round_trip(&path).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every file: `print`, read back and `print` again gives the same text, byte for byte.
/// Fails today: `TermStore::eq` orders the operands of `=` by term id, i.e. by creation order,
/// which differs between reading the file and reading its print (see the session report).
fn check_folder_strict(folder: &str) {
    let mut failures = Vec::new();
    for path in corpus(folder) {
        match round_trip(&path) {
            Ok((first, second)) if first != second => failures.push(format!(
                "{}: first and second print differ\n--- first\n{first}--- second\n{second}",
                path.display()
            )),
            Ok(_) => {}
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn sat_files_round_trip() {
    check_folder("sat");
}

#[test]
fn unsat_files_round_trip() {
    check_folder("unsat");
}

#[test]
fn sat_files_round_trip_byte_for_byte() {
    check_folder_strict("sat");
}

#[test]
fn unsat_files_round_trip_byte_for_byte() {
    check_folder_strict("unsat");
}
