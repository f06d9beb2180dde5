//! SV-COMP witnesses in the YAML format 2.0 of the sv-witnesses project: a correctness witness
//! (one `invariant_set` entry of `loop_invariant`s, C expressions at the loop statements'
//! keywords) after `safe`, a violation witness (one `violation_sequence` entry: a segment per
//! nondet value it is given (the caller passes those that decide the path), a `function_return` waypoint `\result == v` at the closing parenthesis of the
//! `__VERIFIER_nondet_*` call (or TriCera's `nondet()`), then a final segment with the `target` waypoint at the error)
//! after `unsafe`; and a reader of violation witnesses that gives back the nondet values, so a
//! witness can be replayed in [`super::interp`].
//!
//! Lines and columns are 1-based, columns count characters. The value of an uninitialised local
//! has no call to return it: it is an `assumption` waypoint `x == v` (C expression) at the
//! statement after the declaration (one waypoint `x == v && y == w` for the locals of one
//! declaration); a declaration that ends its block (nothing follows in the variable's scope,
//! so its value is never read there) gets none, which leaves the witness valid.
//!
//! Must not: decide an answer, check an invariant or a counterexample (the caller did), touch
//! the file system or print.

use super::ast::{Item, StmtKind};
use super::invariants::Invariant;
use super::ir::{IExprKind, IStmt, IStmtKind, VarRef};
use super::program::Program;
use super::property::Property;
use super::trace::NondetValue;
use super::types::DataModel;
use crate::syntax::parse::line_col;
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::collections::HashMap;

/// What a witness says about the task: the program file and how it was verified.
#[derive(Clone, Debug)]
pub struct Task<'a> {
    /// The program's path as given to `verify` (`input_files` and every location's file).
    pub file_name: &'a str,
    /// The program file's bytes, for its SHA-256 hash.
    pub file_bytes: &'a [u8],
    /// The program's text as read (locations are computed in it).
    pub src: &'a str,
    /// The data model.
    pub data_model: DataModel,
    /// The property checked.
    pub property: &'a Property,
}

/// An entry's provenance.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Metadata {
    /// `"2.0"`.
    pub format_version: String,
    /// A random (version 4) UUID.
    pub uuid: String,
    /// ISO 8601, UTC.
    pub creation_time: String,
    /// Who made it.
    pub producer: Producer,
    /// Of what.
    pub task: TaskInfo,
}

/// The tool.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Producer {
    /// `hornbeam`.
    pub name: String,
    /// The crate's version.
    pub version: String,
}

/// The task as the format records it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TaskInfo {
    /// The program file.
    pub input_files: Vec<String>,
    /// File name to SHA-256 (lower-case hex).
    pub input_file_hashes: BTreeMap<String, String>,
    /// The property's text.
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// `C`.
    pub language: String,
}

/// A place in the program.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Location {
    /// The program file.
    pub file_name: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    /// The enclosing function, where known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub function: Option<String>,
}

/// One entry of a witness file (a file is a list of entries).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry<C> {
    /// `invariant_set` or `violation_sequence`.
    pub entry_type: String,
    /// Provenance.
    pub metadata: Metadata,
    /// Invariants or segments.
    pub content: Vec<C>,
}

/// An element of an `invariant_set`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InvariantItem {
    /// The invariant.
    pub invariant: LoopInvariant,
}

/// A loop invariant at a loop statement.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LoopInvariant {
    /// `loop_invariant`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The loop statement's first keyword character.
    pub location: Location,
    /// The C expression.
    pub value: String,
    /// `c_expression`.
    pub format: String,
}

/// A segment of a `violation_sequence`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Segment {
    /// Its waypoints: any `avoid` ones, then one `follow`.
    pub segment: Vec<WaypointItem>,
}

/// A waypoint of a segment.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WaypointItem {
    /// The waypoint.
    pub waypoint: Waypoint,
}

/// A point an execution passes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Waypoint {
    /// `function_return`, `target` (also `assumption`, `branching`, `function_enter` in files
    /// of other tools).
    #[serde(rename = "type")]
    pub kind: String,
    /// `follow` or `avoid`.
    pub action: String,
    /// Where.
    pub location: Location,
    /// What holds there, if anything.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub constraint: Option<Constraint>,
}

/// A waypoint's constraint.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Constraint {
    /// The expression, e.g. `\result == 5`.
    pub value: String,
    /// `acsl_expression` or `c_expression`.
    pub format: String,
}

/// The entry metadata of a task, with a fresh UUID and the current time.
pub fn metadata(task: &Task<'_>) -> Metadata {
    use sha2::Digest;
    let hash: String = sha2::Sha256::digest(task.file_bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Metadata {
        format_version: "2.0".to_owned(),
        uuid: uuid::Uuid::new_v4().to_string(),
        creation_time: crate::clock::iso8601_utc(std::time::SystemTime::now()),
        producer: Producer {
            name: "hornbeam".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        },
        task: TaskInfo {
            input_files: vec![task.file_name.to_owned()],
            input_file_hashes: BTreeMap::from([(task.file_name.to_owned(), hash)]),
            specification: task.property.text(),
            data_model: task.data_model.name().to_owned(),
            language: "C".to_owned(),
        },
    }
}

fn location(task: &Task<'_>, offset: usize, function: Option<String>) -> Location {
    let (line, column) = line_col(task.src, offset);
    Location {
        file_name: task.file_name.to_owned(),
        line,
        column,
        function,
    }
}

fn to_yaml<C: Serialize>(entry: Entry<C>) -> String {
    // Plain data of strings, numbers, lists and maps: serialising cannot fail.
    serde_yaml_ng::to_string(&[entry]).unwrap_or_default()
}

/// A correctness witness: the loop invariants (as [`super::invariants::witness_invariants`]
/// gives them) at their loop statements. The format asks for at least one invariant: a proof
/// without loop heads (a program without loops) states `1` at the first statement of `main`.
pub fn correctness(task: &Task<'_>, program: &Program, invariants: &[Invariant]) -> String {
    let stated = invariants
        .iter()
        .map(|inv| {
            let f = program.functions[inv.func].name.clone();
            (inv.offset, f, inv.text.clone())
        })
        .collect();
    let main = &program.functions[program.main];
    let first = main.body.iter().map(|s| s.span.start).min();
    invariant_set(task, stated, first)
}

/// The correctness witness of a proof that has no invariant in C (the shape engine's, of a
/// program whose clauses the front end does not build): `1` at the first statement of
/// `main`, found in the syntax tree; `None` when the program has no such statement.
pub fn correctness_without_invariants(task: &Task<'_>) -> Option<String> {
    let first = main_start(task.src)?;
    Some(invariant_set(task, vec![], Some(first)))
}

/// The offset of the first statement of `main` in the program's syntax tree (every execution
/// reaches it); `None` when the program does not parse or `main` has no statement.
pub fn main_start(src: &str) -> Option<usize> {
    let items = super::parse::parse_unit(src).ok()?;
    items.iter().find_map(|item| match item {
        Item::Func(f) if f.decl.name.as_deref() == Some("main") => match &f.body.kind {
            StmtKind::Block(b) => b.first().map(|s| s.span.start),
            _ => None,
        },
        _ => None,
    })
}

/// An `invariant_set` of `loop_invariant`s (offset, function, C expression), or, when there
/// are none, of `1` at `main_start` (the offset of `main`'s first statement).
fn invariant_set(
    task: &Task<'_>,
    stated: Vec<(usize, String, String)>,
    main_start: Option<usize>,
) -> String {
    let mut content: Vec<InvariantItem> = stated
        .into_iter()
        .map(|(offset, function, value)| InvariantItem {
            invariant: LoopInvariant {
                kind: "loop_invariant".to_owned(),
                location: location(task, offset, Some(function)),
                value,
                format: "c_expression".to_owned(),
            },
        })
        .collect();
    if let (true, Some(offset)) = (content.is_empty(), main_start) {
        content.push(InvariantItem {
            invariant: LoopInvariant {
                kind: "location_invariant".to_owned(),
                location: location(task, offset, Some("main".to_owned())),
                value: "1".to_owned(),
                format: "c_expression".to_owned(),
            },
        });
    }
    to_yaml(Entry {
        entry_type: "invariant_set".to_owned(),
        metadata: metadata(task),
        content,
    })
}

fn follow(kind: &str, location: Location, constraint: Option<Constraint>) -> Segment {
    Segment {
        segment: vec![WaypointItem {
            waypoint: Waypoint {
                kind: kind.to_owned(),
                action: "follow".to_owned(),
                location,
                constraint,
            },
        }],
    }
}

/// The offset of the closing parenthesis of nondet site `site`, when it is a call.
fn call_end(program: &Program, src: &str, site: usize) -> Option<usize> {
    let span = program.nondet_sites.get(site)?.span;
    let text = src.get(span.start..span.end)?;
    // `__VERIFIER_nondet_T()`, or TriCera's `nondet()`, `__nondet()`, `nondet_T()`.
    let name = text.split('(').next()?.trim();
    let call = name.starts_with("__VERIFIER_nondet_") || super::resolve::nondet_by_convention(name);
    (call && text.ends_with(')')).then(|| span.end - 1)
}

/// For each uninitialised local's nondet site: the offset of the statement after its
/// declaration (where an assumption about it is evaluated) and the local's name.
fn uninit_sites(program: &Program) -> HashMap<usize, (usize, String)> {
    fn walk(p: &Program, f: usize, ss: &[IStmt], out: &mut HashMap<usize, (usize, String)>) {
        for (k, st) in ss.iter().enumerate() {
            match &st.kind {
                // A declaration statement: a block of initialisations (arrays' included), in
                // the enclosing scope.
                IStmtKind::Block(b) if !b.is_empty() && b.iter().all(declares) => {
                    let Some(next) = ss.get(k + 1).map(|n| n.span.start) else {
                        continue;
                    };
                    // A small array made scalars declares its elements in a block of its own.
                    let mut inits: Vec<&IStmt> = b.iter().collect();
                    while let Some(i) = inits.pop() {
                        match &i.kind {
                            IStmtKind::Init(VarRef::Local(l), Some(e)) => {
                                if let IExprKind::Nondet(site) = e.kind {
                                    if next > i.span.start && e.span == i.span {
                                        let name = p.functions[f].locals[*l].name.clone();
                                        out.insert(site, (next, name));
                                    }
                                }
                            }
                            IStmtKind::Block(inner) => inits.extend(inner),
                            _ => {}
                        }
                    }
                }
                IStmtKind::Block(b) => walk(p, f, b, out),
                IStmtKind::If(_, a, b) => {
                    walk(p, f, a, out);
                    walk(p, f, b, out);
                }
                IStmtKind::Loop { body, .. } => walk(p, f, body, out),
                _ => {}
            }
        }
    }
    let mut out = HashMap::new();
    for (f, func) in program.functions.iter().enumerate() {
        walk(program, f, &func.body, &mut out);
    }
    out
}

/// Whether a statement is part of a declaration: an initialisation, an array's declaration,
/// or a block of those (a small array's elements, `resolve/small_arrays.rs`).
fn declares(s: &IStmt) -> bool {
    match &s.kind {
        IStmtKind::Init(..) => true,
        IStmtKind::Block(b) => !b.is_empty() && b.iter().all(declares),
        IStmtKind::Expr(e) => matches!(e.kind, IExprKind::ArrayDecl { .. }),
        _ => false,
    }
}

/// A C literal of value `v` (suffixed `U` beyond `long long`; its minimum as a difference).
fn c_literal(v: &BigInt) -> String {
    if *v > BigInt::from(i64::MAX) {
        format!("{v}U")
    } else if *v == BigInt::from(i64::MIN) {
        format!("({} - 1)", i64::MIN + 1)
    } else {
        v.to_string()
    }
}

/// The largest witness written, in bytes (1 MB). A violation witness states every nondet
/// value of its path, one segment (about 300 bytes) each: a path through a loop that fills a
/// large array with nondet values would take tens of MB (200,004 segments for
/// `standard_copy1_ground-2.i`), more than validators read. Past the bound the caller writes
/// none and says so.
pub const MAX_WITNESS_BYTES: usize = 1 << 20;

/// A violation witness: the nondet values of a confirmed counterexample, in execution order,
/// and the error call it reaches (at byte offset `target`).
pub fn violation(
    task: &Task<'_>,
    program: &Program,
    values: &[NondetValue],
    target: usize,
) -> String {
    let uninit = uninit_sites(program);
    let mut content: Vec<Segment> = vec![];
    // The assumption being built: its location and conjuncts.
    let mut pending: Option<(usize, Vec<String>)> = None;
    let flush = |pending: &mut Option<(usize, Vec<String>)>, content: &mut Vec<Segment>| {
        if let Some((at, parts)) = pending.take() {
            let constraint = Constraint {
                value: parts.join(" && "),
                format: "c_expression".to_owned(),
            };
            content.push(follow(
                "assumption",
                location(task, at, None),
                Some(constraint),
            ));
        }
    };
    for v in values {
        if let Some(end) = call_end(program, task.src, v.site) {
            flush(&mut pending, &mut content);
            let constraint = Constraint {
                value: format!("\\result == {}", v.value),
                format: "acsl_expression".to_owned(),
            };
            content.push(follow(
                "function_return",
                location(task, end, None),
                Some(constraint),
            ));
        } else if let Some((at, name)) = uninit.get(&v.site) {
            let part = format!("{name} == {}", c_literal(&v.value));
            match &mut pending {
                Some((p, parts)) if p == at => parts.push(part),
                _ => {
                    flush(&mut pending, &mut content);
                    pending = Some((*at, vec![part]));
                }
            }
        }
    }
    flush(&mut pending, &mut content);
    content.push(follow("target", location(task, target, None), None));
    to_yaml(Entry {
        entry_type: "violation_sequence".to_owned(),
        metadata: metadata(task),
        content,
    })
}

/// What a violation witness says: the nondet values of its `function_return` waypoints, in
/// order, and where its `target` waypoint is (line, column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The values, each at the nondet call site whose closing parenthesis the waypoint names.
    pub values: Vec<NondetValue>,
    /// The target's line and column.
    pub target: (usize, usize),
}

/// Reads a violation witness of `program` (whose text is `src`): the `follow` waypoints of type
/// `function_return` with a constraint `\result == N` at a nondet call, of type `assumption`
/// with `x == N && ...` about uninitialised locals declared just before, and the `target`.
/// Other waypoints are refused: this reader is for Hornbeam's own witnesses.
pub fn read_violation(yaml: &str, program: &Program, src: &str) -> Result<Violation, String> {
    let entries: Vec<Entry<Segment>> =
        serde_yaml_ng::from_str(yaml).map_err(|e| format!("not a violation witness: {e}"))?;
    let entry = entries
        .iter()
        .find(|e| e.entry_type == "violation_sequence")
        .ok_or("no violation_sequence entry")?;
    let sites: HashMap<(usize, usize), usize> = (0..program.nondet_sites.len())
        .filter_map(|s| call_end(program, src, s).map(|o| (line_col(src, o), s)))
        .collect();
    let mut declared: HashMap<((usize, usize), &str), usize> = HashMap::new();
    let uninit = uninit_sites(program);
    for (site, (at, name)) in &uninit {
        declared.insert((line_col(src, *at), name.as_str()), *site);
    }
    let mut values = vec![];
    let mut target = None;
    for seg in &entry.content {
        for wp in &seg.segment {
            let w = &wp.waypoint;
            let at = (w.location.line, w.location.column);
            if target.is_some() {
                return Err("waypoints after the target".to_owned());
            }
            match (w.kind.as_str(), w.action.as_str()) {
                ("function_return", "follow") => {
                    let site = *sites
                        .get(&at)
                        .ok_or_else(|| format!("no nondet call ends at {}:{}", at.0, at.1))?;
                    let c = w
                        .constraint
                        .as_ref()
                        .ok_or("a return without a constraint")?;
                    let value = c
                        .value
                        .strip_prefix("\\result")
                        .and_then(|r| r.trim_start().strip_prefix("=="))
                        .and_then(|r| r.trim().parse::<BigInt>().ok())
                        .ok_or_else(|| format!("not `\\result == N`: {}", c.value))?;
                    values.push(NondetValue::scalar(site, value));
                }
                ("assumption", "follow") => {
                    let c = w
                        .constraint
                        .as_ref()
                        .ok_or("an assumption without a constraint")?;
                    for part in c.value.split("&&") {
                        let (name, value) = part
                            .split_once("==")
                            .and_then(|(n, v)| {
                                let v = v.trim().trim_start_matches('(');
                                let v = v.trim_end_matches('U').trim_end_matches(')');
                                let v = match v.split_once(" - ") {
                                    Some((a, b)) => {
                                        a.parse::<BigInt>().ok()? - b.parse::<BigInt>().ok()?
                                    }
                                    None => v.parse::<BigInt>().ok()?,
                                };
                                Some((n.trim(), v))
                            })
                            .ok_or_else(|| format!("not `x == N`: {part}"))?;
                        let site = *declared.get(&(at, name)).ok_or_else(|| {
                            format!("no uninitialised `{name}` before {}:{}", at.0, at.1)
                        })?;
                        values.push(NondetValue::scalar(site, value));
                    }
                }
                ("target", "follow") => target = Some(at),
                (k, a) => return Err(format!("unexpected waypoint {k} ({a})")),
            }
        }
    }
    let target = target.ok_or("no target waypoint")?;
    Ok(Violation { values, target })
}
