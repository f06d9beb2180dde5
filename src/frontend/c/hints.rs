//! Hints at a C program's loop heads, from a rule file: the agreed relation
//! `loop_hint(f: number, l: number, atom: symbol)` ([`crate::analysis::hints::LOOP_HINT`])
//! proposes, at location `l` of function `f` (a `loop_head` of the program's relations), an
//! SMT-LIB formula over the C names of the variables there (`x@entry` for a parameter's value at
//! entry).
//!
//! Duty: evaluate the rules over the relations of the program that is encoded, and read each
//! atom over the arguments of its loop head's predicate, into candidate invariants for the
//! driver (which filters them; every answer is validated). An atom that does not read there (a
//! variable not live at that head, one out of scope) is left out: the clauses carry only the
//! variables live at a head. Must not: print, read files, or judge a hint.

use super::cfa::report::ProgramAnalysis;
use super::encode::Translation;
use super::Program;
use crate::analysis::datalog::{RuleError, Rules};
use crate::analysis::hints::loop_hints;
use crate::frontend::hints::add_atom;
use crate::syntax::parse::LineIndex;
use crate::term::TermStore;
use crate::witness::Model;
use std::collections::HashSet;

/// The loop hints a rule file derives for `program` (whose source has the line index
/// `lines`), as `(function, location, atom)`; or the rule file's first error.
pub fn rows(
    program: &Program,
    lines: &LineIndex<'_>,
    rules: &str,
) -> Result<Vec<(usize, u32, String)>, RuleError> {
    let pos = |offset: usize| lines.line_col(offset);
    let tables = ProgramAnalysis::new(program).tables(&pos);
    let derived = Rules::parse(rules, &tables)?.evaluate(&tables)?;
    Ok(loop_hints(&derived))
}

/// The hints of `rows` as candidate invariants of the loop-head predicates of `tr` (atoms that
/// do not read over a head's arguments are left out), and how many atoms were left out.
pub fn model(store: &TermStore, tr: &Translation, rows: &[(usize, u32, String)]) -> (Model, usize) {
    let mut model = Model::new();
    let mut unread = 0;
    for (f, l, atom) in rows {
        let mut read = false;
        for head in tr
            .loops
            .iter()
            .filter(|h| !h.env && h.func == *f && h.loc.0 == *l)
        {
            // Arguments without a C name, or whose name another took, get one no atom can
            // mention.
            let mut taken = HashSet::new();
            let names: Vec<String> = head
                .args
                .iter()
                .enumerate()
                .map(|(k, arg)| match arg {
                    Some((n, _)) if taken.insert(n.clone()) => n.clone(),
                    _ => format!("#arg{k}"),
                })
                .collect();
            read |= add_atom(store, &tr.system, &mut model, head.pred, &names, atom).is_ok();
        }
        if !read {
            unread += 1;
        }
    }
    (model, unread)
}
