//! The scatter plot of a report, as inline SVG: for a run against the first (the baseline),
//! each file both recorded is a point at (the baseline's time, the run's time), log-scale on
//! both axes; a file one of them did not solve (or answered wrong) sits on that run's
//! "unsolved" line past the largest time, so that it is seen and not mistaken for a fast
//! answer. Points below the diagonal are files the run answered faster.
//!
//! Duty: draw. Must not: count a wrong answer as solved, or fetch anything.

use super::compare::Comparison;
use super::esc;
use std::fmt::Write;

/// The smallest time drawn, in seconds (faster answers are drawn there).
const FLOOR: f64 = 0.01;

/// The plot of run `k` (> 0) against the baseline.
pub fn render(c: &Comparison, k: usize) -> String {
    let size = 360.0;
    let (left, top, bottom) = (60.0, 20.0, 50.0);
    let times: Vec<f64> = c
        .rows
        .iter()
        .flat_map(|r| [0, k].map(|i| r.cells[i].as_ref().filter(|x| x.solved).map(|x| x.time)))
        .flatten()
        .collect();
    let max_t = times.iter().copied().fold(1.0, f64::max);
    let (lo, hi) = (FLOOR.log10(), max_t.log10().ceil().max(0.0) + 0.5);
    let unsolved = 10f64.powf(hi - 0.25);
    let pos = |t: f64| (t.max(FLOOR).log10() - lo) / (hi - lo) * size;
    let mut svg = String::new();
    let (w, h) = (left + size + 20.0, top + size + bottom);
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect x=\"{left}\" y=\"{top}\" width=\"{size}\" height=\"{size}\" fill=\"#fafafa\" stroke=\"#444\"/>"
    );
    // Decades and the diagonal.
    let mut d = lo.ceil();
    while d <= hi - 0.5 {
        let p = pos(10f64.powf(d));
        let label = if d < 0.0 {
            format!("{}", 10f64.powf(d))
        } else {
            format!("{:.0}", 10f64.powf(d))
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{b}\" stroke=\"#ddd\"/><line x1=\"{left}\" y1=\"{y}\" x2=\"{r}\" y2=\"{y}\" stroke=\"#ddd\"/><text x=\"{x}\" y=\"{t}\" text-anchor=\"middle\">{label}</text><text x=\"{lx}\" y=\"{ly}\" text-anchor=\"end\">{label}</text>",
            x = left + p,
            b = top + size,
            y = top + size - p,
            r = left + size,
            t = top + size + 15.0,
            lx = left - 5.0,
            ly = top + size - p + 4.0,
        );
        d += 1.0;
    }
    let _ = writeln!(
        svg,
        "<line x1=\"{left}\" y1=\"{b}\" x2=\"{r}\" y2=\"{top}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>",
        b = top + size,
        r = left + size
    );
    for row in &c.rows {
        let t = |i: usize| match &row.cells[i] {
            Some(x) if x.solved => Some(x.time),
            _ => None,
        };
        let (Some(_), Some(_)) = (&row.cells[0], &row.cells[k]) else {
            continue;
        };
        let (a, b) = (t(0), t(k));
        if a.is_none() && b.is_none() {
            continue;
        }
        let colour = match (a, b) {
            (Some(_), Some(_)) => "#1f77b4",
            (Some(_), None) => "#d62728",
            _ => "#2ca02c",
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\" fill-opacity=\"0.6\"><title>{}</title></circle>",
            left + pos(a.unwrap_or(unsolved)),
            top + size - pos(b.unwrap_or(unsolved)),
            esc(&row.path)
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\">{} (s; unsolved at the right edge)</text>\n<text x=\"14\" y=\"{my}\" transform=\"rotate(-90 14 {my})\" text-anchor=\"middle\">{} (s; unsolved at the top)</text>\n</svg>",
        esc(&c.runs[0]),
        esc(&c.runs[k]),
        x = left + size / 2.0,
        y = top + size + 38.0,
        my = top + size / 2.0,
    );
    svg
}
