//! The cactus plot of a report, as inline SVG: for each run, the instances it solved (wrong
//! answers excluded) sorted by the time each took; x is the number of instances solved, y the
//! time per instance on a log scale (whole decades from 0.01 s, or from the decade of a smaller
//! time down to [`FLOOR_SECS`], up to the largest time limit or time), so that the many fast
//! instances and the few slow ones both show.
//!
//! Duty: draw. Must not: count a wrong answer as solved, or fetch anything (no script, no
//! external asset).

use super::{esc, COLOURS};
use crate::batch::Run;
use std::fmt::Write;

/// The smallest time drawn, in seconds: faster instances are drawn at it (log scales have no 0).
pub const FLOOR_SECS: f64 = 0.001;

/// The lowest decade always drawn, in seconds.
const LOWEST_TICK: f64 = 0.01;

/// A readable tick step for a linear range of `max`: 1, 2 or 5 times a power of ten, about 5
/// ticks.
fn tick_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p)
}

/// A time as a tick label: `0.01`, `0.1`, `1`, `10`, `100`, ...
fn label(t: f64) -> String {
    let s = format!("{t:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The sorted times of the instances each run solved.
fn series(runs: &[(String, Run)]) -> Vec<Vec<f64>> {
    runs.iter()
        .map(|(_, r)| {
            let mut t: Vec<f64> = r
                .results
                .iter()
                .filter(|x| x.solved() && !x.wrong)
                .map(|x| x.time.max(FLOOR_SECS))
                .collect();
            t.sort_by(f64::total_cmp);
            t
        })
        .collect()
}

/// The plot of `runs` as an `<svg>` element.
pub fn render(runs: &[(String, Run)]) -> String {
    let (w, h) = (720.0, 420.0);
    let (left, right, top, bottom) = (60.0, 170.0, 20.0, 50.0);
    let series = series(runs);
    let max_n = series.iter().map(Vec::len).max().unwrap_or(0).max(1) as f64;
    let max_t = runs
        .iter()
        .map(|(_, r)| r.timeout)
        .chain(series.iter().flatten().copied())
        .fold(LOWEST_TICK * 10.0, f64::max);
    let min_t = series.iter().flatten().copied().fold(LOWEST_TICK, f64::min);
    // Whole decades, at least one.
    let lo = min_t.log10().floor();
    let hi = max_t.log10().ceil().max(lo + 1.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let x = |n: f64| left + pw * n / max_n;
    let y = |t: f64| top + ph * (1.0 - (t.log10() - lo) / (hi - lo));
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
    let mut d = lo;
    while d <= hi + 1e-9 {
        let t = 10f64.powf(d);
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{1:.1}\" x2=\"{2}\" y2=\"{1:.1}\" stroke=\"#ddd\"/><text x=\"{3}\" y=\"{4:.1}\" text-anchor=\"end\">{5}</text>",
            left,
            y(t),
            left + pw,
            left - 6.0,
            y(t) + 4.0,
            label(t)
        );
        d += 1.0;
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">instances solved</text>",
        left + pw / 2.0,
        h - 10.0
    );
    let _ = writeln!(
        svg,
        "<text transform=\"translate(16,{}) rotate(-90)\" text-anchor=\"middle\">time per instance (s, log scale)</text>",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_decades_with_plain_labels() {
        assert_eq!(label(0.01), "0.01");
        assert_eq!(label(1.0), "1");
        assert_eq!(label(100.0), "100");
        assert_eq!(tick_step(12.0), 5.0);
        let run = Run {
            timeout: 20.0,
            ..Run::default()
        };
        let svg = render(&[("empty".into(), run)]);
        for decade in [">0.01<", ">0.1<", ">1<", ">10<", ">100<"] {
            assert!(svg.contains(decade), "{decade}: {svg}");
        }
        assert!(!svg.contains("<polyline"));
    }
}
