//! The relations of a CHC file as rule files and `facts` see them: those of its clause system's
//! analyses ([`analysis::relations`]), and where each predicate and clause stands in the text
//! (`pred_at`, `clause_at`), so that findings about them carry a line.
//!
//! Must not: read files or print (the caller reads the text once and passes it with its script).

use crate::analysis::{self, ColumnType, Facts, Table};
use crate::syntax::{parse::LineIndex, Script};
use crate::term::TermStore;
use ColumnType::Number as N;

/// Every relation of `script` (read from `src`, its terms in `store`), positions included.
pub fn relations(store: &TermStore, script: &Script, src: &str) -> Vec<Table> {
    let mut tables = analysis::relations(&Facts::extract(&script.system, store));
    let lines = LineIndex::new(src);
    let at = |spans: &[crate::syntax::ast::Span]| -> Vec<Vec<String>> {
        spans
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (line, col) = lines.line_col(s.start);
                vec![i.to_string(), line.to_string(), col.to_string()]
            })
            .collect()
    };
    tables.push(Table {
        name: "pred_at",
        doc: "predicate p is declared at line:col (its name)",
        columns: &[("p", N), ("line", N), ("col", N)],
        rows: at(&script.spans.preds),
    });
    tables.push(Table {
        name: "clause_at",
        doc: "clause c comes from the assertion at line:col (one assertion may give several)",
        columns: &[("c", N), ("line", N), ("col", N)],
        rows: at(&script.spans.clauses),
    });
    tables
}
