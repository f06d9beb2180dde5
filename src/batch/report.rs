//! The HTML report: one self-contained page (inline CSS and SVG, no script, no external asset)
//! comparing one or more runs: a summary table per track and a cactus plot (instances solved
//! against the time each took, sorted, as in the formula slicing paper's Fig. 4a).
//!
//! Duty: render named [`Run`]s. Must not: read files or count a wrong answer as solved.

use super::Run;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Line colours of the runs, in order.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Counts of one run over one set of records.
#[derive(Default)]
struct Counts {
    files: usize,
    sat: usize,
    unsat: usize,
    unknown: usize,
    error: usize,
    wrong: usize,
    time_solved: f64,
}

fn counts<'a>(records: impl Iterator<Item = &'a super::Record>) -> Counts {
    let mut c = Counts::default();
    for r in records {
        c.files += 1;
        if r.wrong {
            c.wrong += 1;
            continue;
        }
        match r.answer.as_str() {
            "sat" => c.sat += 1,
            "unsat" => c.unsat += 1,
            "unknown" => c.unknown += 1,
            _ => c.error += 1,
        }
        if r.solved() {
            c.time_solved += r.time;
        }
    }
    c
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
         </style>\n</head>\n<body>\n<h1>Hornbeam batch report</h1>\n",
    );
    html.push_str("<h2>Runs</h2>\n<table>\n<tr><th class=\"l\">run</th><th class=\"l\">solver</th><th>files</th><th>time limit (s)</th><th>memory (MB)</th><th>jobs</th><th>wall time (s)</th><th class=\"l\">note</th></tr>\n");
    for (name, run) in runs {
        let _ = writeln!(
            html,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td class=\"l\">{}</td></tr>",
            esc(name),
            esc(&run.solver),
            run.results.len(),
            run.timeout,
            run.memory_mb.map_or("-".into(), |m| m.to_string()),
            run.jobs,
            run.wall_time,
            if run.interrupted { "interrupted" } else { "" }
        );
    }
    html.push_str("</table>\n");
    html.push_str(&summary_table(runs));
    html.push_str("<h2>Cactus plot</h2>\n<p>Each line: the instances a run solved (wrong answers excluded), sorted by the time each took.</p>\n");
    html.push_str(&cactus(runs));
    html.push_str("\n</body>\n</html>\n");
    html
}

fn summary_table(runs: &[(String, Run)]) -> String {
    let tracks: BTreeSet<&str> = runs
        .iter()
        .flat_map(|(_, r)| r.results.iter().map(|x| x.track.as_str()))
        .collect();
    let mut html = String::from(
        "<h2>Summary per track</h2>\n<table class=\"summary\">\n<tr><th class=\"l\">track</th><th class=\"l\">run</th><th>files</th><th>sat</th><th>unsat</th><th>solved</th><th>unknown</th><th>error</th><th>wrong</th><th>time of solved (s)</th></tr>\n",
    );
    let row = |html: &mut String, track: &str, name: &str, c: Counts, all: bool| {
        let _ = writeln!(
            html,
            "<tr{}><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td{}>{}</td><td>{:.1}</td></tr>",
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
            c.time_solved
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

/// A readable tick step for a range of `max`: 1, 2 or 5 times a power of ten, about 5 ticks.
fn tick_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p)
}

fn cactus(runs: &[(String, Run)]) -> String {
    let (w, h) = (720.0, 420.0);
    let (left, right, top, bottom) = (60.0, 170.0, 20.0, 50.0);
    let series: Vec<Vec<f64>> = runs
        .iter()
        .map(|(_, r)| {
            let mut t: Vec<f64> = r
                .results
                .iter()
                .filter(|x| x.solved() && !x.wrong)
                .map(|x| x.time)
                .collect();
            t.sort_by(f64::total_cmp);
            t
        })
        .collect();
    let max_n = series.iter().map(Vec::len).max().unwrap_or(0).max(1) as f64;
    let max_t = runs
        .iter()
        .map(|(_, r)| r.timeout)
        .chain(series.iter().flatten().copied())
        .fold(0.0f64, f64::max)
        .max(1e-3);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let x = |n: f64| left + pw * n / max_n;
    let y = |t: f64| top + ph * (1.0 - t / max_t);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        svg,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"#fafafa\" stroke=\"#444\"/>"
    );
    let xs = tick_step(max_n).max(1.0);
    let mut n = 0.0;
    while n <= max_n + 1e-9 {
        let _ = writeln!(
            svg,
            "<line x1=\"{0:.1}\" y1=\"{1}\" x2=\"{0:.1}\" y2=\"{2}\" stroke=\"#ddd\"/><text x=\"{0:.1}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>",
            x(n),
            top,
            top + ph,
            top + ph + 16.0,
            n
        );
        n += xs;
    }
    let ts = tick_step(max_t);
    let mut t = 0.0;
    while t <= max_t + 1e-9 {
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{1:.1}\" x2=\"{2}\" y2=\"{1:.1}\" stroke=\"#ddd\"/><text x=\"{3}\" y=\"{4:.1}\" text-anchor=\"end\">{5}</text>",
            left,
            y(t),
            left + pw,
            left - 6.0,
            y(t) + 4.0,
            (t * 1000.0).round() / 1000.0
        );
        t += ts;
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">instances solved</text>",
        left + pw / 2.0,
        h - 10.0
    );
    let _ = writeln!(
        svg,
        "<text transform=\"translate(16,{}) rotate(-90)\" text-anchor=\"middle\">time per instance (s)</text>",
        top + ph / 2.0
    );
    for (i, ((name, _), times)) in runs.iter().zip(&series).enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let pts: Vec<String> = times
            .iter()
            .enumerate()
            .map(|(k, t)| format!("{:.1},{:.1}", x(k as f64 + 1.0), y(*t)))
            .collect();
        if !pts.is_empty() {
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
                pts.join(" ")
            );
        }
        let ly = top + 10.0 + 20.0 * i as f64;
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{3}\" y=\"{4}\">{5} ({6})</text>",
            left + pw + 10.0,
            ly,
            left + pw + 35.0,
            left + pw + 40.0,
            ly + 4.0,
            esc(name),
            times.len()
        );
    }
    svg.push_str("</svg>");
    svg
}
