//! The per-file comparison of two or more runs: for every input file (matched by its recorded
//! `path`, so give the solvers the same paths), each run's answer and time, which runs solved
//! it, and each later run's time as a ratio of the first run's (the baseline) where both solved
//! it; per run, how many files it and the baseline solved together or alone, and the geometric
//! mean of its time ratios.
//!
//! Times below [`FLOOR_SECS`] count as that much in ratios, so that instances answered at once
//! do not make ratios of noise.
//!
//! Duty: compute the comparison and render it (as an HTML table and as plain text). Must not:
//! count a wrong answer as solved.

use super::esc;
use crate::batch::{Record, Run};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::Path;

/// The smallest time used in a ratio, in seconds.
pub const FLOOR_SECS: f64 = 0.01;

/// One run's result on one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The answer recorded.
    pub answer: String,
    /// Wall-clock seconds.
    pub time: f64,
    /// Solved: `sat`, `unsat`, `safe` or `unsafe`, and not wrong.
    pub solved: bool,
    /// A wrong answer.
    pub wrong: bool,
}

impl Cell {
    fn of(r: &Record) -> Self {
        Cell {
            answer: r.answer.clone(),
            time: r.time,
            solved: r.solved() && !r.wrong,
            wrong: r.wrong,
        }
    }
}

/// One file across the runs.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRow {
    /// The file's recorded path.
    pub path: String,
    /// Each run's result, `None` when the run has no record of the file.
    pub cells: Vec<Option<Cell>>,
    /// For each run after the first: its time over the first run's, when both solved the file.
    pub ratios: Vec<Option<f64>>,
}

impl FileRow {
    /// The runs (by position) that solved the file.
    pub fn solved_by(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].as_ref().is_some_and(|c| c.solved))
            .collect()
    }
}

/// A later run against the first (the baseline).
#[derive(Clone, Debug, PartialEq)]
pub struct Against {
    /// Files both solved.
    pub both: usize,
    /// Files only the baseline solved.
    pub only_baseline: usize,
    /// Files only this run solved.
    pub only_this: usize,
    /// Geometric mean of the time ratios over the files both solved.
    pub mean_ratio: Option<f64>,
}

/// The comparison of the runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The runs' names, the baseline first.
    pub runs: Vec<String>,
    /// One row per file recorded by any run, sorted by path.
    pub rows: Vec<FileRow>,
    /// Each run after the first against the baseline.
    pub against: Vec<Against>,
}

/// Compares `runs` file by file.
pub fn compare(runs: &[(String, Run)]) -> Comparison {
    // By key: a task has a record per property.
    let by_path: Vec<HashMap<String, &Record>> = runs
        .iter()
        .map(|(_, r)| r.results.iter().map(|x| (x.key(), x)).collect())
        .collect();
    let mut paths: Vec<&str> = by_path
        .iter()
        .flat_map(|m| m.keys().map(String::as_str))
        .collect();
    paths.sort_by(|a, b| Path::new(a).cmp(Path::new(b)));
    paths.dedup();
    let rows: Vec<FileRow> = paths
        .into_iter()
        .map(|p| {
            let cells: Vec<Option<Cell>> = by_path
                .iter()
                .map(|m| m.get(p).map(|r| Cell::of(r)))
                .collect();
            let base = cells.first().cloned().flatten().filter(|c| c.solved);
            let ratios = cells
                .iter()
                .skip(1)
                .map(|c| match (&base, c) {
                    (Some(b), Some(c)) if c.solved => {
                        Some(c.time.max(FLOOR_SECS) / b.time.max(FLOOR_SECS))
                    }
                    _ => None,
                })
                .collect();
            FileRow {
                path: p.to_string(),
                cells,
                ratios,
            }
        })
        .collect();
    let against = (1..runs.len())
        .map(|i| {
            let solved = |row: &FileRow, k: usize| row.cells[k].as_ref().is_some_and(|c| c.solved);
            let logs: Vec<f64> = rows
                .iter()
                .filter_map(|r| r.ratios[i - 1])
                .map(f64::ln)
                .collect();
            Against {
                both: rows.iter().filter(|r| solved(r, 0) && solved(r, i)).count(),
                only_baseline: rows
                    .iter()
                    .filter(|r| solved(r, 0) && !solved(r, i))
                    .count(),
                only_this: rows
                    .iter()
                    .filter(|r| !solved(r, 0) && solved(r, i))
                    .count(),
                mean_ratio: (!logs.is_empty())
                    .then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp()),
            }
        })
        .collect();
    Comparison {
        runs: runs.iter().map(|(n, _)| n.clone()).collect(),
        rows,
        against,
    }
}

fn ratio_text(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{r:.2}"))
}

impl Comparison {
    /// Who solved a row, as text: `all`, `none`, or the names.
    fn solved_by_text(&self, row: &FileRow) -> String {
        let by = row.solved_by();
        match by.len() {
            0 => "none".into(),
            n if n == self.runs.len() => "all".into(),
            _ => by
                .iter()
                .map(|&i| self.runs[i].as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The per-run summary against the baseline, as HTML.
    pub fn summary_html(&self) -> String {
        let Some(base) = self.runs.first() else {
            return String::new();
        };
        let mut html = format!(
            "<table class=\"against\">\n<tr><th class=\"l\">run</th><th>solved by both</th><th>only by {0}</th><th>only by the run</th><th>time ratio to {0} (geometric mean)</th></tr>\n",
            esc(base)
        );
        for (name, a) in self.runs.iter().skip(1).zip(&self.against) {
            let _ = writeln!(
                html,
                "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(name),
                a.both,
                a.only_baseline,
                a.only_this,
                ratio_text(a.mean_ratio)
            );
        }
        html.push_str("</table>\n");
        let (solved, time) = self.virtual_best();
        let _ = writeln!(
            html,
            "<p>Virtual best (for each file the fastest correct answer of any run): {solved} \
             files solved, {time:.1} s in all.</p>"
        );
        html
    }

    /// The virtual best solver: the files some run solved (correctly), and the sum over them of
    /// the fastest such answer's time.
    pub fn virtual_best(&self) -> (usize, f64) {
        let best = self.rows.iter().filter_map(|r| {
            r.cells
                .iter()
                .flatten()
                .filter(|c| c.solved)
                .map(|c| c.time)
                .min_by(f64::total_cmp)
        });
        best.fold((0, 0.0), |(n, t), x| (n + 1, t + x))
    }

    /// The per-file table as HTML: a row per file, each run's answer and time, who solved it,
    /// and the time ratios to the baseline. Rows the runs disagree on (some solved it, some
    /// not) are marked, wrong answers too.
    pub fn table_html(&self) -> String {
        let base = self.runs.first().map_or("", String::as_str);
        let mut html = String::from("<table class=\"files\">\n<tr><th class=\"l\">file</th>");
        for n in &self.runs {
            let _ = write!(html, "<th>{}</th><th>time (s)</th>", esc(n));
        }
        html.push_str("<th class=\"l\">solved by</th>");
        for n in self.runs.iter().skip(1) {
            let _ = write!(html, "<th>{} / {}</th>", esc(n), esc(base));
        }
        html.push_str("</tr>\n");
        for row in &self.rows {
            let by = row.solved_by().len();
            let split = by > 0 && by < self.runs.len();
            let _ = write!(
                html,
                "<tr{}><td class=\"l\">{}</td>",
                if split { " class=\"split\"" } else { "" },
                esc(&row.path)
            );
            for c in &row.cells {
                match c {
                    Some(c) => {
                        let class = if c.wrong {
                            "bad"
                        } else if c.solved {
                            "ok"
                        } else {
                            "no"
                        };
                        let _ = write!(
                            html,
                            "<td class=\"{class}\">{}</td><td>{:.2}</td>",
                            esc(&c.answer),
                            c.time
                        );
                    }
                    None => html.push_str("<td class=\"no\">-</td><td>-</td>"),
                }
            }
            let _ = write!(
                html,
                "<td class=\"l\">{}</td>",
                esc(&self.solved_by_text(row))
            );
            for r in &row.ratios {
                let _ = write!(html, "<td>{}</td>", ratio_text(*r));
            }
            html.push_str("</tr>\n");
        }
        html.push_str("</table>\n");
        html
    }

    /// The comparison as aligned plain text: a line per file, then a line per run against the
    /// baseline.
    pub fn to_text(&self) -> String {
        let mut header = vec!["file".to_string()];
        for n in &self.runs {
            header.push(n.clone());
            header.push("time".into());
        }
        header.push("solved by".into());
        for n in self.runs.iter().skip(1) {
            header.push(format!("{n}/{}", self.runs[0]));
        }
        let mut lines = vec![header];
        for row in &self.rows {
            let mut line = vec![row.path.clone()];
            for c in &row.cells {
                match c {
                    Some(c) => {
                        let mark = if c.wrong { " (wrong)" } else { "" };
                        line.push(format!("{}{mark}", c.answer));
                        line.push(format!("{:.2}", c.time));
                    }
                    None => line.extend(["-".to_string(), "-".to_string()]),
                }
            }
            line.push(self.solved_by_text(row));
            line.extend(row.ratios.iter().map(|r| ratio_text(*r)));
            lines.push(line);
        }
        let mut widths: BTreeMap<usize, usize> = BTreeMap::new();
        for l in &lines {
            for (i, c) in l.iter().enumerate() {
                let w = widths.entry(i).or_default();
                *w = (*w).max(c.chars().count());
            }
        }
        let mut out = String::new();
        for l in &lines {
            let cells: Vec<String> = l
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{c:<w$}", w = widths[&i]))
                .collect();
            let _ = writeln!(out, "{}", cells.join("  ").trim_end());
        }
        for (n, a) in self.runs.iter().skip(1).zip(&self.against) {
            let _ = writeln!(
                out,
                "{n} against {}: both {}, only {} {}, only {n} {}, time ratio (geometric mean) {}",
                self.runs[0],
                a.both,
                self.runs[0],
                a.only_baseline,
                a.only_this,
                ratio_text(a.mean_ratio)
            );
        }
        out
    }
}
