//! SMT-LIB (CHC-COMP format) printing of a [`System`].
//!
//! The output is a complete script (`set-logic HORN`, declarations, one `assert` per clause,
//! `check-sat`) that this crate's parser and other CHC solvers read back.

use super::{Atom, Clause, Head, System};
use crate::term::{print::symbol, TermPrinter, TermStore};
use std::fmt::Write;

/// Prints a system whose terms live in `store`.
pub struct SystemPrinter<'a> {
    store: &'a TermStore,
    system: &'a System,
}

impl<'a> SystemPrinter<'a> {
    /// A printer for `system`.
    pub fn new(store: &'a TermStore, system: &'a System) -> Self {
        SystemPrinter { store, system }
    }

    /// An atom as SMT-LIB text.
    pub fn atom(&self, a: &Atom) -> String {
        let p = TermPrinter::new(self.store);
        let name = symbol(&self.system.pred(a.pred).name);
        if a.args.is_empty() {
            return name;
        }
        let args: Vec<String> = a.args.iter().map(|v| p.var(*v)).collect();
        format!("({name} {})", args.join(" "))
    }

    /// One clause as an `(assert (forall (...) (=> body head)))` command.
    pub fn clause(&self, c: &Clause) -> String {
        let p = TermPrinter::new(self.store);
        let mut body: Vec<String> = c.body.iter().map(|a| self.atom(a)).collect();
        if self.store.as_bool(c.constraint) != Some(true) || body.is_empty() {
            body.push(p.term(c.constraint));
        }
        let body = if body.len() == 1 {
            body.pop().unwrap_or_default()
        } else {
            format!("(and {})", body.join(" "))
        };
        let head = match &c.head {
            Head::Atom(a) => self.atom(a),
            Head::False => "false".to_string(),
        };
        let vars = c.vars(self.store);
        let imp = format!("(=> {body} {head})");
        if vars.is_empty() {
            format!("(assert {imp})")
        } else {
            let decls: Vec<String> = vars
                .iter()
                .map(|v| format!("({} {})", p.var(*v), self.store.var_sort(*v)))
                .collect();
            format!("(assert (forall ({}) {imp}))", decls.join(" "))
        }
    }

    /// The whole system as a CHC-COMP script.
    pub fn script(&self) -> String {
        let mut out = String::from("(set-logic HORN)\n");
        out.push_str(&TermPrinter::new(self.store).datatype_declarations());
        for id in self.system.pred_ids() {
            let d = self.system.pred(id);
            let sorts: Vec<String> = d.sorts.iter().map(|s| s.to_string()).collect();
            let _ = writeln!(
                out,
                "(declare-fun {} ({}) Bool)",
                symbol(&d.name),
                sorts.join(" ")
            );
        }
        for (_, c) in self.system.clauses() {
            out.push_str(&self.clause(c));
            out.push('\n');
        }
        out.push_str("(check-sat)\n");
        out
    }
}
