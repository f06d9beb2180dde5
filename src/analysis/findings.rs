//! Findings: what a rule file reports at source positions, through the agreed relation
//! `finding(rule: symbol, severity: symbol, line: number, col: number, message: symbol)`, as
//! values, and as a SARIF 2.1.0 log (the format code-scanning tools and editors read).
//!
//! Must not read or write files, or print.

use super::datalog::Derived;
use super::ColumnType;
use serde_json::{json, Value};

/// The name of the agreed relation.
pub const FINDING: &str = "finding";

/// The agreed columns of [`FINDING`].
pub const FINDING_COLUMNS: [(&str, ColumnType); 5] = [
    ("rule", ColumnType::Symbol),
    ("severity", ColumnType::Symbol),
    ("line", ColumnType::Number),
    ("col", ColumnType::Number),
    ("message", ColumnType::Symbol),
];

/// How serious a finding is (SARIF's levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// `error`.
    Error,
    /// `warning` (also any severity other than `error` and `note`).
    Warning,
    /// `note`.
    Note,
}

impl Level {
    /// The SARIF name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// One finding. Line 0 means no position (a clause system has no lines for its predicates).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Where (1-based; 0: nowhere in particular).
    pub line: u64,
    /// The column (1-based; 0: the whole line).
    pub col: u64,
    /// The rule's id.
    pub rule: String,
    /// How serious.
    pub level: Level,
    /// What was found.
    pub message: String,
}

/// The findings among `derived` (none if no relation is named [`FINDING`]), sorted by position.
pub fn findings(derived: &[Derived]) -> Vec<Finding> {
    let Some(rel) = derived.iter().find(|d| d.name == FINDING) else {
        return Vec::new();
    };
    let mut out: Vec<Finding> = rel
        .rows
        .iter()
        .map(|r| Finding {
            rule: r[0].clone(),
            level: match r[1].as_str() {
                "error" => Level::Error,
                "note" => Level::Note,
                _ => Level::Warning,
            },
            line: r[2].parse().unwrap_or(0),
            col: r[3].parse().unwrap_or(0),
            message: r[4].clone(),
        })
        .collect();
    out.sort();
    out
}

/// A SARIF 2.1.0 log of `findings` in the file `uri`, by Hornbeam `version`.
pub fn to_sarif(findings: &[Finding], uri: &str, version: &str) -> Value {
    let mut rules: Vec<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    rules.sort_unstable();
    rules.dedup();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut location = json!({ "artifactLocation": { "uri": uri } });
            if f.line > 0 {
                let mut region = json!({ "startLine": f.line });
                if f.col > 0 {
                    region["startColumn"] = json!(f.col);
                }
                location["region"] = region;
            }
            json!({
                "ruleId": f.rule,
                "ruleIndex": rules.binary_search(&f.rule.as_str()).unwrap_or(0),
                "level": f.level.name(),
                "message": { "text": f.message },
                "locations": [ { "physicalLocation": location } ],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "hornbeam",
                "version": version,
                "rules": rules.iter().map(|r| json!({ "id": r })).collect::<Vec<_>>(),
            }},
            "artifacts": [ { "location": { "uri": uri } } ],
            "results": results,
        }],
    })
}
