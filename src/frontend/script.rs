//! The relations of a CHC file as rule files and `facts` see them: those of its clause system's
//! analyses ([`analysis::relations`]), with where each predicate and clause stands in the text
//! (`pred_at`, `clause_at`), so that findings about them carry a line.
//!
//! Must not: read files or print (the caller reads the text once and passes it with its script).

use crate::analysis::{self, Facts, Table};
use crate::chc::{ClauseId, PredId};
use crate::syntax::{parse::LineIndex, Script};
use crate::term::TermStore;

/// Every relation of `script` (read from `src`, its terms in `store`), positions included.
pub fn relations(store: &TermStore, script: &Script, src: &str) -> Vec<Table> {
    let mut facts = Facts::extract(&script.system, store);
    let lines = LineIndex::new(src);
    let at = |s: &crate::syntax::ast::Span| {
        let (line, col) = lines.line_col(s.start);
        (line as u32, col as u32)
    };
    let spans = &script.spans;
    facts.pred_at = (spans.preds.iter().enumerate())
        .map(|(i, s)| {
            let (line, col) = at(s);
            (PredId(i as u32), line, col)
        })
        .collect();
    facts.clause_at = (spans.clauses.iter().enumerate())
        .map(|(i, s)| {
            let (line, col) = at(s);
            (ClauseId(i as u32), line, col)
        })
        .collect();
    analysis::relations(&facts)
}
