//! The HTML report: one self-contained page (inline CSS, SVG and one small script that sorts a
//! table by the column clicked and filters the file table; no external asset) comparing one
//! or more runs: the runs' settings and metadata, a summary table per track, a cactus plot
//! (instances solved against the time each took, sorted, log-scale time: [`cactus`]) and, for
//! two or more runs, the per-file comparison with the virtual best ([`compare`]) and a
//! scatter plot of each run against the first ([`scatter`]). A run read from a file that does
//! not state its limits (another tool's CSV) shows them as `-`.
//!
//! Clause systems and C programs share the columns: `sat` and `safe` are counted together
//! (`sat / safe`: no error reachable), as are `unsat` and `unsafe` ([`polarity`]).
//!
//! Duty: render named [`Run`]s. Must not: read files, count a wrong answer as solved, or a
//! witness that failed its check as an ordinary `unknown` (it has its own column).

pub mod cactus;
pub mod compare;
pub mod scatter;

use super::{polarity, Run};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Sorts a table by the column whose header is clicked (numbers as numbers, again to reverse)
/// and filters the file table's rows by the text typed; inline, so the page stays one file.
const SCRIPT: &str = "<script>\n\
document.querySelectorAll('table').forEach(function(t){\n\
 t.querySelectorAll('tr:first-child th').forEach(function(th,i){\n\
  th.style.cursor='pointer';\n\
  th.onclick=function(){\n\
   var rows=Array.prototype.slice.call(t.rows,1), asc=th.dataset.asc!=='1';\n\
   th.dataset.asc=asc?'1':'0';\n\
   rows.sort(function(a,b){\n\
    var x=a.cells[i]?a.cells[i].textContent:'', y=b.cells[i]?b.cells[i].textContent:'';\n\
    var nx=parseFloat(x), ny=parseFloat(y);\n\
    var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);\n\
    return asc?c:-c;});\n\
   rows.forEach(function(r){r.parentNode.appendChild(r);});};});});\n\
var f=document.getElementById('filter');\n\
if(f){f.oninput=function(){var q=f.value.toLowerCase();\n\
 document.querySelectorAll('table.files tr').forEach(function(r,i){\n\
  if(i>0){r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';}});};}\n\
</script>\n";

/// Line colours of the runs, in order.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Counts of one run over one set of records.
#[derive(Default)]
struct Counts {
    files: usize,
    /// `sat` or `safe`.
    sat: usize,
    /// `unsat` or `unsafe`.
    unsat: usize,
    unknown: usize,
    error: usize,
    wrong: usize,
    /// `unknown` because a witness failed its check (not counted in `unknown`).
    witness_failed: usize,
    time_solved: f64,
    /// SV-COMP's score of the C records with an expected verdict (`None`: none).
    score: Option<i64>,
}

fn counts<'a>(records: impl Iterator<Item = &'a super::Record>) -> Counts {
    let mut c = Counts::default();
    for r in records {
        c.files += 1;
        if let Some(s) = super::score::sv_score(r) {
            c.score = Some(c.score.unwrap_or(0) + s);
        }
        if r.wrong {
            c.wrong += 1;
            continue;
        }
        match (polarity(&r.answer), r.answer.as_str()) {
            (Some(true), _) => c.sat += 1,
            (Some(false), _) => c.unsat += 1,
            (None, "unknown") if r.witness_failed() => c.witness_failed += 1,
            (None, "unknown") => c.unknown += 1,
            _ => c.error += 1,
        }
        if r.solved() {
            c.time_solved += r.time;
        }
    }
    c
}

/// The runs' metadata (version, date, host, CPU, command), when any run has it.
fn meta_table(runs: &[(String, Run)]) -> String {
    if runs.iter().all(|(_, r)| r.meta.is_none()) {
        return String::new();
    }
    let mut html = String::from(
        "<table>\n<tr><th class=\"l\">run</th><th class=\"l\">version</th><th class=\"l\">date</th><th class=\"l\">host</th><th class=\"l\">CPU</th><th>cores</th><th class=\"l\">command</th></tr>\n",
    );
    for (name, run) in runs {
        let Some(m) = &run.meta else { continue };
        let _ = writeln!(
            html,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td class=\"l\"><code>{}</code></td></tr>",
            esc(name),
            esc(&m.version),
            esc(&m.date),
            esc(&m.host),
            esc(&m.cpu),
            m.cores,
            esc(&m.command.join(" "))
        );
    }
    html.push_str("</table>\n");
    html
}

/// The CPU seconds of all instances of a run and the largest peak resident set among them, in
/// MB; `None` when no record says (results of other solvers, files written before the fields).
fn usage(run: &Run) -> (Option<f64>, Option<f64>) {
    let cpu: Vec<f64> = run.results.iter().filter_map(|r| r.cpu_secs).collect();
    let rss = run
        .results
        .iter()
        .filter_map(|r| r.peak_rss_mb)
        .reduce(f64::max);
    ((!cpu.is_empty()).then(|| cpu.iter().sum()), rss)
}

/// The page for `runs` (name, run).
pub fn render(runs: &[(String, Run)]) -> String {
    let mut html = String::new();
    html.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Hornbeam batch report</title>\n<style>\n\
         body{font-family:sans-serif;margin:2em;color:#222}\n\
         table{border-collapse:collapse;margin-bottom:2em}\n\
         th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}\n\
         th{background:#eee}td.l,th.l{text-align:left}\n\
         tr.all td{font-weight:bold;border-top:2px solid #555}\n\
         td.bad{background:#f8c0c0;font-weight:bold}\n\
         td.ok{background:#d8f0d8}td.no{color:#888}tr.split td.l{font-weight:bold}\n\
         </style>\n</head>\n<body>\n<h1>Hornbeam batch report</h1>\n",
    );
    html.push_str("<h2>Runs</h2>\n<table>\n<tr><th class=\"l\">run</th><th class=\"l\">solver</th><th>files</th><th>time limit (s)</th><th>memory (MB)</th><th>jobs</th><th>wall time (s)</th><th>CPU time (s)</th><th>largest peak RSS (MB)</th><th class=\"l\">note</th></tr>\n");
    for (name, run) in runs {
        let (cpu, rss) = usage(run);
        let _ = writeln!(
            html,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            esc(name),
            esc(&run.solver),
            run.results.len(),
            if run.timeout > 0.0 { run.timeout.to_string() } else { "-".into() },
            run.memory_mb.map_or("-".into(), |m| m.to_string()),
            if run.jobs > 0 { run.jobs.to_string() } else { "-".into() },
            run.wall_time,
            cpu.map_or("-".into(), |c| format!("{c:.1}")),
            rss.map_or("-".into(), |r| format!("{r:.0}")),
            if run.interrupted { "interrupted" } else { "" }
        );
    }
    html.push_str("</table>\n");
    html.push_str(&meta_table(runs));
    html.push_str(&summary_table(runs));
    html.push_str("<h2>Cactus plot</h2>\n<p>Each line: the instances a run solved (wrong answers excluded), sorted by the time each took (log scale).</p>\n");
    html.push_str(&cactus::render(runs));
    if runs.len() >= 2 {
        let c = compare::compare(runs);
        html.push_str("\n<h2>File by file</h2>\n<p>Each run against the first; ratios are a run's time over the first run's on the files both solved (times below 0.01 s count as 0.01 s). Files that some runs solved and others did not are in bold.</p>\n");
        html.push_str(&c.summary_html());
        html.push_str("<h2>Scatter plots</h2>\n<p>Each run against the first: a point per file (its time under each), log scale; blue both solved it, red only the first, green only the run.</p>\n");
        for k in 1..runs.len() {
            html.push_str(&scatter::render(&c, k));
        }
        html.push_str("<p>Filter the files: <input id=\"filter\" placeholder=\"part of a path, an answer, a run\"> (click a column's header to sort any table by it)</p>\n");
        html.push_str(&c.table_html());
    }
    html.push_str(SCRIPT);
    html.push_str("\n</body>\n</html>\n");
    html
}

fn summary_table(runs: &[(String, Run)]) -> String {
    let tracks: BTreeSet<&str> = runs
        .iter()
        .flat_map(|(_, r)| r.results.iter().map(|x| x.track.as_str()))
        .collect();
    let mut html = String::from(
        "<h2>Summary per track</h2>\n<table class=\"summary\">\n<tr><th class=\"l\">track</th><th class=\"l\">run</th><th>files</th><th>sat / safe</th><th>unsat / unsafe</th><th>solved</th><th>unknown</th><th>error</th><th>wrong</th><th>witness failed</th><th>time of solved (s)</th><th>SV-COMP score</th></tr>\n",
    );
    let row = |html: &mut String, track: &str, name: &str, c: Counts, all: bool| {
        let _ = writeln!(
            html,
            "<tr{}><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td{}>{}</td><td{}>{}</td><td>{:.1}</td><td>{}</td></tr>",
            if all { " class=\"all\"" } else { "" },
            esc(track),
            esc(name),
            c.files,
            c.sat,
            c.unsat,
            c.sat + c.unsat,
            c.unknown,
            c.error,
            if c.wrong > 0 { " class=\"bad\"" } else { "" },
            c.wrong,
            if c.witness_failed > 0 { " class=\"bad\"" } else { "" },
            c.witness_failed,
            c.time_solved,
            c.score.map_or(String::new(), |s| s.to_string())
        );
    };
    for t in &tracks {
        for (name, run) in runs {
            let c = counts(run.results.iter().filter(|r| r.track == *t));
            row(&mut html, t, name, c, false);
        }
    }
    for (name, run) in runs {
        row(&mut html, "all", name, counts(run.results.iter()), true);
    }
    html.push_str("</table>\n");
    html
}
