//! Hints for a clause system read from what a user writes: a model file (a `define-fun` per
//! predicate, as `check` reads; each conjunct is a candidate), or a rule file whose agreed
//! relation `hint(p, atom)` proposes atoms over a predicate's arguments `x0`, `x1`, ...
//! ([`crate::analysis::hints`]), and whose `drop_clause(c)` advises leaving clauses out,
//! evaluated over the system's relations as `analyze --rules` does.
//!
//! Duty: turn the text into candidate invariants over the system's predicates, or a located
//! error (a hint that is not a formula over its predicate's arguments is an error in the rule
//! file, placed at the declaration of `hint`). Must not: judge the hints (the driver filters
//! them, and every answer is validated), read files, or print.

use crate::analysis::datalog::{RuleError, Rules};
use crate::analysis::{self, hints::arg_name};
use crate::chc::{ClauseId, PredId, System};
use crate::syntax::Script;
use crate::term::{print::symbol, TermStore};
use crate::witness::{read_model, Interp, Model};

/// Why hints could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HintError {
    /// The model file is not a model of the system's predicates.
    #[error(transparent)]
    Model(#[from] crate::syntax::Error),
    /// The rule file is wrong, or one of its hints is not a formula over its predicate.
    #[error(transparent)]
    Rules(#[from] RuleError),
}

impl HintError {
    /// `file:line:col: message`, where `file` is the hints' name and `src` their text.
    pub fn render(&self, file: &str, src: &str) -> String {
        match self {
            HintError::Model(e) => e.render(file, src),
            HintError::Rules(e) => e.render(file),
        }
    }
}

/// What a user's hints file says: candidate invariants, and clauses to leave out.
#[derive(Clone, Debug, Default)]
pub struct UserHints {
    /// The candidates: per predicate, the conjunction of its hints.
    pub model: Model,
    /// Clauses advised to be left out (`drop_clause`), sorted.
    pub drop: Vec<ClauseId>,
}

/// The hints of a model file: each predicate's definition (its conjuncts are the candidates).
pub fn from_model(store: &TermStore, system: &System, src: &str) -> Result<UserHints, HintError> {
    Ok(UserHints {
        model: read_model(store, system, src)?,
        drop: Vec::new(),
    })
}

/// The hints a rule file (text `src`) derives for `script` (read from `text`): the
/// conjunction, per predicate, of the atoms of its `hint` relation.
pub fn from_rules(
    store: &TermStore,
    (script, text): (&Script, &str),
    src: &str,
) -> Result<UserHints, HintError> {
    let system = &script.system;
    let tables = super::script::relations(store, script, text);
    let rules = Rules::parse(src, &tables)?;
    let derived = rules.evaluate(&tables)?;
    let at_decl = |message: String| {
        rules
            .error_at(analysis::hints::HINT, message)
            .expect("hints come from a declared relation")
    };
    let mut drop = Vec::new();
    for c in analysis::hints::drop_clauses(&derived) {
        if c as usize >= system.num_clauses() {
            let message = format!(
                "`drop_clause` names clause {c}, which the system does not have (clauses are \
                 numbered as in `clause`)"
            );
            let e = rules.error_at(analysis::hints::DROP_CLAUSE, message);
            return Err(e.expect("advice comes from a declared relation").into());
        }
        drop.push(ClauseId(c));
    }
    let mut model = Model::new();
    for (p, atom) in analysis::hints::hints(&derived) {
        if p as usize >= system.num_preds() {
            return Err(at_decl(format!(
                "a hint names predicate {p}, which the system does not have (predicates are \
                 numbered as in `pred`)"
            ))
            .into());
        }
        let decl = system.pred(PredId(p));
        let names: Vec<String> = (0..decl.sorts.len()).map(arg_name).collect();
        add_atom(store, system, &mut model, PredId(p), &names, &atom).map_err(|e| {
            let over = match names.len() {
                0 => "no argument".to_string(),
                1 => "x0".to_string(),
                n => format!("x0..x{}", n - 1),
            };
            at_decl(format!(
                "the hint `{atom}` for `{}` is not a formula over its arguments ({over}): {}",
                decl.name,
                first_line(&e.to_string())
            ))
        })?;
    }
    Ok(UserHints { model, drop })
}

/// Reads `atom`, an SMT-LIB formula over the arguments of `pred` named `names` (in order), and
/// conjoins it to what `model` says of `pred` (the front ends' one way of turning a hint's text
/// into a candidate).
pub(crate) fn add_atom(
    store: &TermStore,
    system: &System,
    model: &mut Model,
    pred: PredId,
    names: &[String],
    atom: &str,
) -> Result<(), crate::syntax::Error> {
    let decl = system.pred(pred);
    let params: Vec<String> = decl
        .sorts
        .iter()
        .zip(names)
        .map(|(s, n)| format!("({} {s})", symbol(n)))
        .collect();
    let text = format!(
        "(define-fun {} ({}) Bool {atom})",
        symbol(&decl.name),
        params.join(" ")
    );
    let Some(one) = read_model(store, system, &text)?.get(pred).cloned() else {
        return Ok(());
    };
    let both = match model.get(pred) {
        Some(all) => Interp {
            params: all.params.clone(),
            body: store.and([all.body, store.rename(one.body, &one.params, &all.params)]),
        },
        None => one,
    };
    model.set(pred, both);
    Ok(())
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}
