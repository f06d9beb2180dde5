//! Result files: a [`Run`] as JSON (settings and records) or CSV (one row per record, the same
//! fields), written and read back so that runs of other solvers in the same shape can be
//! compared in a report. Duty: the two formats and nothing else. Must not: change a record.

use super::{Record, Run};
use std::path::Path;

/// The CSV columns, in order (the fields of [`Record`]).
pub const CSV_COLUMNS: [&str; 9] = [
    "path",
    "track",
    "answer",
    "expected",
    "wrong",
    "time",
    "engine",
    "validation",
    "reason",
];

/// The run as pretty JSON.
pub fn to_json(run: &Run) -> String {
    serde_json::to_string_pretty(run).unwrap_or_default()
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The records as CSV with a header line.
pub fn to_csv(run: &Run) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for r in &run.results {
        let cells = [
            r.path.clone(),
            r.track.clone(),
            r.answer.clone(),
            r.expected.clone().unwrap_or_default(),
            r.wrong.to_string(),
            format!("{:.3}", r.time),
            r.engine.clone().unwrap_or_default(),
            r.validation.clone(),
            r.reason.clone(),
        ];
        let cells: Vec<String> = cells.iter().map(|c| quote(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// Splits CSV text into rows of cells (RFC 4180 quoting).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

/// Reads CSV records written by [`to_csv`] (or another tool, with the same header).
pub fn from_csv(text: &str) -> Result<Vec<Record>, String> {
    let mut rows = parse_csv(text).into_iter();
    let header = rows.next().ok_or("empty CSV")?;
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no `{name}` column"))
    };
    let idx: Vec<usize> = CSV_COLUMNS
        .iter()
        .map(|c| col(c))
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (n, row) in rows.enumerate() {
        let get = |i: usize| row.get(idx[i]).cloned().unwrap_or_default();
        let opt = |s: String| (!s.is_empty()).then_some(s);
        out.push(Record {
            path: get(0),
            track: get(1),
            answer: get(2),
            expected: opt(get(3)),
            wrong: get(4) == "true",
            time: get(5)
                .parse()
                .map_err(|_| format!("row {}: bad time `{}`", n + 2, get(5)))?,
            engine: opt(get(6)),
            validation: get(7),
            reason: get(8),
        });
    }
    Ok(out)
}

/// Reads a result file: JSON (a [`Run`]) or, for a `.csv` name, CSV records.
pub fn load(path: &Path) -> Result<Run, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let is_csv = path.extension().is_some_and(|e| e == "csv");
    if is_csv {
        let results = from_csv(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Run {
            solver: String::new(),
            results,
            ..Run::default()
        })
    } else {
        serde_json::from_str(&text)
            .map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))
    }
}
