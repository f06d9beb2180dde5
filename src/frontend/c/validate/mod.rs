//! Validation of SV-COMP witnesses (YAML format 2.0), ours or another tool's, against a program
//! and a property.
//!
//! - A **correctness witness** (`invariant_set`) is confirmed when its invariants hold
//!   initially, are preserved and imply the property, checked as clauses over the program's
//!   CFA (every variable in scope kept at each loop head): the conjunction of the invariants at
//!   a loop head is that head's interpretation. First with `true` everywhere else, checked by
//!   `witness::validate_model` (a fresh solver, every clause). When that fails, what the
//!   witness leaves open (function summaries, cut points without an invariant: format 2.0
//!   cannot state them) is solved for: the clauses with the invariants put in (a fixed body
//!   atom is its invariant, a clause into a loop head a query that the invariant fails) go to
//!   the engines (`engine::driver`, as `verify` does); a model completes the proof (checked
//!   again whole), a counterexample rejects the witness where it ends: an invariant that does
//!   not hold on some execution, or invariants that do not imply the property. A witness that
//!   states no loop head's invariant (only `1` elsewhere: a shape proof's, whose invariants C
//!   cannot state) claims nothing to check: it is confirmed when `verify` proves the program,
//!   every back end included, and rejected when `verify` finds the error reached.
//! - A **violation witness** (`violation_sequence`) is confirmed when the program, run
//!   concretely with the witness's values (its `function_return` and `assumption` waypoints),
//!   reaches the error (or, under a memory property, the violation) at the `target` waypoint;
//!   rejected when the run ends elsewhere.
//!
//! What this validator cannot read (an invariant that is not at a loop head, an expression
//! outside the reading of invariants in `validate/expr.rs`, waypoints of other kinds,
//! concurrent programs) is `unknown`, with the reason: never a confirmation.
//!
//! Must not: confirm without a model of all the program's clauses that holds the witness's
//! invariants (checked whole), reject without a counterexample, or print.

mod expr;

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::property::Property;
use super::types::DataModel;
use super::{interp, threads, verify, witness, EncodeOptions};
use crate::chc::{Head, PredId};
use crate::clock::Deadline;
use crate::engine::driver::{self, SolveOptions};
use crate::term::TermStore;
use crate::witness::{Answer, Interp, Model, ModelCheck};
use serde_yaml_ng::Value;
use std::collections::HashMap;

/// The verdict on a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validation {
    /// The witness is right; what was checked.
    Confirmed(String),
    /// The witness is wrong: where in the program (a byte offset) when known, and why.
    Rejected {
        /// Where.
        at: Option<usize>,
        /// Why.
        why: String,
    },
    /// Neither could be shown; why.
    Unknown(String),
}

/// A witness that cannot be read (an error in the witness file, located in it).
#[derive(Clone, Debug)]
pub struct WitnessError(pub CError);

/// What a validation needs besides the texts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The data model of the program.
    pub data_model: DataModel,
    /// The property the witness is about.
    pub property: Property,
    /// When the model check gives up.
    pub deadline: Deadline,
}

/// What a witness says, as read.
enum Claim {
    Correctness(Vec<Invariant>),
    Violation,
}

/// An invariant of a correctness witness.
struct Invariant {
    line: usize,
    column: usize,
    function: Option<String>,
    value: String,
}

impl Invariant {
    /// Whether the invariant is the constant `1`, which holds anywhere.
    fn is_one(&self) -> bool {
        self.is_constant("1")
    }

    fn is_constant(&self, k: &str) -> bool {
        matches!(super::parse::parse_expr(&self.value),
            Ok(e) if matches!(&e.kind, super::ast::ExprKind::Int(t) if t == k))
    }
}

/// The rejection of a witness that states `0` at the first statement of `main`, which every
/// execution reaches (elsewhere `0` holds where nothing arrives, and is not read).
fn false_at_start(src: &str, invs: &[Invariant]) -> Option<Validation> {
    let zeros: Vec<&Invariant> = invs.iter().filter(|inv| inv.is_constant("0")).collect();
    if zeros.is_empty() {
        return None; // without parsing the program for `main`'s start
    }
    let start = witness::main_start(src)?;
    let line = crate::syntax::parse::line_col(src, start).0;
    let wrong = zeros
        .into_iter()
        .find(|inv| inv.line == line && inv.function.as_deref().is_none_or(|f| f == "main"))?;
    Some(Validation::Rejected {
        at: Some(start),
        why: format!(
            "the invariant `{}` here is false, and every execution reaches the start of `main`",
            wrong.value
        ),
    })
}

/// The witness's `specification` and `data_model` (its metadata), for defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The property text (`CHECK( init(main()), LTL(...) )`).
    pub specification: Option<String>,
    /// `ILP32` or `LP64`.
    pub data_model: Option<String>,
    /// The SHA-256 hashes of the input files (`input_file_hashes`), lower-case hex.
    pub hashes: Vec<String>,
}

/// Reads a witness's metadata (empty where it says nothing).
pub fn metadata(witness_text: &str) -> Metadata {
    let doc: Value = serde_yaml_ng::from_str(witness_text).unwrap_or(Value::Null);
    let task = &doc[0]["metadata"]["task"];
    Metadata {
        specification: task["specification"].as_str().map(str::to_owned),
        data_model: task["data_model"].as_str().map(str::to_owned),
        hashes: task["input_file_hashes"]
            .as_mapping()
            .into_iter()
            .flat_map(|m| m.values())
            .filter_map(|h| h.as_str().map(str::to_ascii_lowercase))
            .collect(),
    }
}

/// Validates a witness of the program `src`. `Err` is a program the front end refuses or a
/// witness that is not one.
pub fn validate(
    store: &TermStore,
    src: &str,
    witness_text: &str,
    options: &Options,
) -> Result<Result<Validation, WitnessError>, CError> {
    let claim = match read(witness_text) {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    if let Claim::Correctness(invs) = &claim {
        if let Some(v) = false_at_start(src, invs) {
            return Ok(Ok(v));
        }
    }
    let program =
        match super::read_program_checked(src, options.data_model, options.property.checks()) {
            Ok(p) => p,
            // The clauses cannot model the program (under a memory property, say), but a witness
            // that claims nothing can still be confirmed by a proof of the program.
            Err(e) => match &claim {
                Claim::Correctness(invs) if invs.iter().all(Invariant::is_one) => {
                    return Ok(Ok(by_verify(store, src, invs.len(), options)))
                }
                _ => return Err(e),
            },
        };
    if threads::is_concurrent(&program) {
        return Ok(Ok(Validation::Unknown(
            "witnesses of concurrent programs are not validated (format 2.0 has no threads)"
                .to_owned(),
        )));
    }
    Ok(Ok(match claim {
        Claim::Violation => violation(src, witness_text, &program),
        Claim::Correctness(invs) => correctness(store, src, &program, &invs, options),
    }))
}

/// Reads the first entry of the witness: its kind and, for a correctness witness, the
/// invariants.
fn read(text: &str) -> Result<Claim, WitnessError> {
    let fail = |at: usize, message: String| {
        WitnessError(CError::new(CErrorKind::Syntax, Span::new(at, at), message))
    };
    let doc: Value = serde_yaml_ng::from_str(text).map_err(|e| {
        let at = e.location().map_or(0, |l| l.index().min(text.len()));
        fail(at, format!("not a witness: {e}"))
    })?;
    let Some(entry) = doc.as_sequence().and_then(|s| s.first()) else {
        return Err(fail(0, "a witness is a list of entries".to_owned()));
    };
    let at_key = |key: &str| text.find(key).unwrap_or(0);
    match entry["entry_type"].as_str() {
        Some("violation_sequence") => Ok(Claim::Violation),
        Some("invariant_set") => {
            let Some(items) = entry["content"].as_sequence() else {
                return Err(fail(
                    at_key("content"),
                    "an invariant_set has a content list".to_owned(),
                ));
            };
            let mut out = vec![];
            for item in items {
                let inv = &item["invariant"];
                let loc = &inv["location"];
                let (Some(line), Some(column), Some(value)) = (
                    loc["line"].as_u64(),
                    loc["column"].as_u64(),
                    inv["value"].as_str(),
                ) else {
                    return Err(fail(
                        at_key("invariant:"),
                        "an invariant has a location (line, column) and a value".to_owned(),
                    ));
                };
                if inv["format"].as_str().is_some_and(|f| f != "c_expression") {
                    return Err(fail(
                        at_key("format"),
                        "an invariant's format is c_expression".to_owned(),
                    ));
                }
                out.push(Invariant {
                    line: line as usize,
                    column: column as usize,
                    function: loc["function"].as_str().map(str::to_owned),
                    value: value.to_owned(),
                });
            }
            Ok(Claim::Correctness(out))
        }
        Some(other) => Err(fail(
            at_key("entry_type"),
            format!(
                "entry_type `{other}` (this validator reads invariant_set and violation_sequence)"
            ),
        )),
        None => Err(fail(0, "the entry has no entry_type".to_owned())),
    }
}

/// A violation witness: the program run with its values.
fn violation(src: &str, text: &str, program: &super::Program) -> Validation {
    let v = match witness::read_violation(text, program, src) {
        Ok(v) => v,
        Err(e) => return Validation::Unknown(format!("the witness's waypoints are not read: {e}")),
    };
    let line_of = |off: usize| crate::syntax::parse::line_col(src, off).0;
    let run = verify::replay(program, &v.values, &line_of);
    let at = |off: usize| crate::syntax::parse::line_col(src, off);
    match run.outcome {
        interp::Outcome::Error => match run.reached() {
            Some(off) if at(off) == v.target => Validation::Confirmed(format!(
                "the program, run with the witness's {} values, reaches the error at its target",
                v.values.len()
            )),
            Some(off) => Validation::Rejected {
                at: Some(off),
                why: format!(
                    "the run reaches the error here, not at the target {}:{}",
                    v.target.0, v.target.1
                ),
            },
            None => Validation::Unknown("the run reaches the error at no known place".to_owned()),
        },
        interp::Outcome::NoError(why) | interp::Outcome::Undefined(why) => Validation::Rejected {
            at: None,
            why: format!("the run along the witness does not reach the error: {why}"),
        },
        interp::Outcome::Stuck(why) | interp::Outcome::Gap(why) => Validation::Unknown(format!(
            "the run along the witness could not be completed: {why}"
        )),
    }
}

/// A correctness witness: its invariants as a model of the program's clauses (see the module).
fn correctness(
    store: &TermStore,
    src: &str,
    program: &super::Program,
    invs: &[Invariant],
    options: &Options,
) -> Validation {
    let encode = EncodeOptions {
        live_variables_only: false,
    };
    let tr = super::translate_with(store, program, &encode);
    let system = &tr.system;
    let params: Vec<Vec<crate::term::VarId>> = system
        .pred_ids()
        .map(|p| system.fresh_params(store, p))
        .collect();
    let mut bodies: HashMap<PredId, Vec<crate::term::TermId>> = HashMap::new();
    let line_col = |off: usize| crate::syntax::parse::line_col(src, off);
    for inv in invs {
        let on_line: Vec<_> = tr
            .loops
            .iter()
            .filter(|lh| !lh.env && line_col(lh.span.start).0 == inv.line)
            .filter(|lh| {
                inv.function
                    .as_ref()
                    .is_none_or(|f| program.functions[lh.func].name == *f)
            })
            .collect();
        let head = on_line
            .iter()
            .find(|lh| line_col(lh.span.start).1 == inv.column)
            .or(on_line.first());
        let Some(head) = head else {
            // `1` holds anywhere: nothing to check.
            if inv.is_one() {
                continue;
            }
            return Validation::Unknown(format!(
                "line {}: an invariant that is not at a loop head (only loop invariants are checked)",
                inv.line
            ));
        };
        let e = match super::parse::parse_expr(&inv.value) {
            Ok(e) => e,
            Err(e) => {
                return Validation::Unknown(format!(
                    "line {}: the invariant `{}` is not read: {}",
                    inv.line, inv.value, e.message
                ))
            }
        };
        let mut names = expr::Names::new();
        for (k, arg) in head.args.iter().enumerate() {
            if let Some((n, ty)) = arg.as_ref().filter(|(n, _)| !n.contains('@')) {
                names.insert(n.clone(), (store.var(params[head.pred.0 as usize][k]), *ty));
            }
        }
        match expr::truth(store, &e, &names) {
            Ok(t) => bodies.entry(head.pred).or_default().push(t),
            Err(why) => {
                return Validation::Unknown(format!(
                    "line {}: the invariant `{}` is not read: {why}",
                    inv.line, inv.value
                ))
            }
        }
    }
    if bodies.is_empty() {
        return by_verify(store, src, invs.len(), options);
    }
    let mut model = Model::new();
    let mut fixed = Model::new();
    for (p, vars) in params.into_iter().enumerate() {
        let p = PredId(p as u32);
        let body = store.and(bodies.get(&p).cloned().unwrap_or_default());
        if bodies.contains_key(&p) {
            fixed.set(
                p,
                Interp {
                    params: vars.clone(),
                    body,
                },
            );
        }
        model.set(p, Interp { params: vars, body });
    }
    let checked = format!(
        "its {} invariant(s) hold initially, are preserved and imply the property",
        invs.len()
    );
    // One step, `true` where the witness says nothing: enough for most witnesses.
    if crate::witness::validate_model(store, system, &model, options.deadline.clone())
        == ModelCheck::Valid
    {
        return Validation::Confirmed(checked);
    }
    // Else what the witness leaves open (function summaries, other cut points) is solved for.
    let (completion, origin) = complete(store, system, &fixed);
    let solve = SolveOptions {
        timeout: options.deadline.remaining(),
        cancel: options.deadline.cancel().cloned().unwrap_or_default(),
        ..SolveOptions::default()
    };
    match driver::solve(store, &completion, &solve).answer {
        Answer::Sat(found) => {
            let mut whole = found;
            for (p, i) in fixed.iter() {
                whole.set(p, i.clone());
            }
            match crate::witness::validate_model(store, system, &whole, options.deadline.clone()) {
                ModelCheck::Valid => Validation::Confirmed(format!(
                    "{checked}, with what it leaves open (function summaries, other cut points) \
                     solved for"
                )),
                ModelCheck::Invalid { reason, .. } | ModelCheck::Unknown(reason) => {
                    Validation::Unknown(format!("the completed proof does not check: {reason}"))
                }
            }
        }
        Answer::Unsat(d) => {
            let root = d.nodes.last().map(|n| origin[n.clause.0 as usize]);
            rejection(src, &tr, root.map(|c| system.clause(c)))
        }
        Answer::Unknown(why) => Validation::Unknown(format!(
            "the invariants are not inductive alone, and what they leave open was not found: {why}"
        )),
    }
}

/// A correctness witness that states no loop head's invariant (its invariants are `1` away
/// from loop heads, as for a program whose proof is the shape engine's): it claims nothing a
/// proof of the program could contradict, so it is confirmed when `verify` proves the program
/// (every back end, the shape engine included; a clause model checked as always) and rejected
/// when `verify` finds an execution that reaches the error.
fn by_verify(store: &TermStore, src: &str, stated: usize, options: &Options) -> Validation {
    let verify_options = verify::VerifyOptions {
        data_model: options.data_model,
        timeout: options.deadline.remaining(),
        checks: options.property.checks(),
        ..verify::VerifyOptions::default()
    };
    match verify::verify(store, src, &verify_options) {
        Err(e) => Validation::Unknown(format!("the program is not verified: {}", e.message)),
        Ok(v) => match v.verdict {
            verify::Verdict::Safe(_) => Validation::Confirmed(format!(
                "its {stated} invariant(s) state nothing at a loop head, and the program is \
                 proved safe ({})",
                v.engine
            )),
            verify::Verdict::Unsafe { target, .. } => Validation::Rejected {
                at: Some(target),
                why: "the program is not safe: an execution reaches the error here".to_owned(),
            },
            verify::Verdict::Unknown(why) => {
                Validation::Unknown(format!("the program is not proved safe: {why}"))
            }
        },
    }
}

/// The clauses with the witness's interpretations (`fixed`) put in: a fixed body atom becomes
/// its invariant in the constraint, a clause with a fixed head a query that the invariant
/// fails. Returns the system and, per new clause, the clause it comes from.
fn complete(
    store: &TermStore,
    system: &crate::chc::System,
    fixed: &Model,
) -> (crate::chc::System, Vec<crate::chc::ClauseId>) {
    let mut out = crate::chc::System::new();
    for p in system.pred_ids() {
        let d = system.pred(p);
        out.add_pred(d.name.clone(), d.sorts.clone());
    }
    let is_fixed = |p: PredId| fixed.get(p).is_some();
    let mut origin = vec![];
    for (cid, c) in system.clauses() {
        let mut parts = vec![c.constraint];
        let mut body = vec![];
        for a in &c.body {
            match is_fixed(a.pred) {
                true => parts.push(fixed.apply(store, a)),
                false => body.push(a.clone()),
            }
        }
        let head = match &c.head {
            Head::Atom(a) if is_fixed(a.pred) => {
                parts.push(store.not(fixed.apply(store, a)));
                Head::False
            }
            h => h.clone(),
        };
        out.add_clause(crate::chc::Clause {
            body,
            constraint: store.and(parts),
            head,
        });
        origin.push(cid);
    }
    (out, origin)
}

/// The rejection of a witness whose completion has a counterexample ending in `clause` (of
/// the program's clauses).
fn rejection(
    src: &str,
    tr: &super::Translation,
    clause: Option<&crate::chc::Clause>,
) -> Validation {
    let line_col = |off: usize| crate::syntax::parse::line_col(src, off);
    let head_of = |p: PredId| tr.loops.iter().find(|lh| lh.pred == p && !lh.env);
    let Some(c) = clause else {
        return Validation::Rejected {
            at: None,
            why: "the invariants have a counterexample".to_owned(),
        };
    };
    let from_head = c.body.first().and_then(|a| head_of(a.pred));
    let from = from_head.map_or("the program's start".to_owned(), |lh| {
        format!("the loop head at line {}", line_col(lh.span.start).0)
    });
    match &c.head {
        Head::Atom(a) => Validation::Rejected {
            at: head_of(a.pred).map(|lh| lh.span.start),
            why: format!(
                "the invariant here does not hold on every execution: a path from {from} reaches \
                 this loop head violating it"
            ),
        },
        Head::False => Validation::Rejected {
            at: from_head.map(|lh| lh.span.start),
            why: format!(
                "the invariants do not imply the property: an execution from {from} satisfying \
                 them reaches the error"
            ),
        },
    }
}
