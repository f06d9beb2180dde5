//! `hornbeam analyze` (structure of a clause system as text, JSON or Graphviz, and what
//! preprocessing removes; for a C program, its control-flow automata with loops, cut points and
//! live variables) and `hornbeam facts` (the input relations as Soufflé `.facts` files).

use super::{input_error, load, load_script};
use crate::analysis::findings::{findings, to_sarif, Finding};
use crate::analysis::{self, Analysis};
use crate::chc::{PredId, System};
use crate::frontend::c::{self, cfa::report::ProgramAnalysis};
use crate::term::TermStore;
use crate::transform::Preprocess;
use std::fmt::Write as _;
use std::path::Path;

/// Whether `file` names a C program (`.c`, `.i`) rather than a clause system.
pub(super) fn is_program(file: &Path) -> bool {
    matches!(file.extension().and_then(|e| e.to_str()), Some("c" | "i"))
}

/// Reads a C program, or prints its error and gives the exit status.
pub(super) fn read_program(file: &Path) -> Result<(c::Program, String), i32> {
    let name = crate::syntax::display_name(file);
    let src = match crate::syntax::read_text(file) {
        Ok(s) => s,
        Err((e, prefix)) => return Err(input_error(&e.render(&name, &prefix))),
    };
    match c::read_program(&src, c::DataModel::Ilp32) {
        Ok(p) => Ok((p, src)),
        Err(e) => Err(input_error(&e.render(&name, &src))),
    }
}

/// `analyze PROG.c`: the CFA of each function with loops, cut points and live variables.
fn run_program(file: &Path, json: bool, dot: bool) -> i32 {
    let (program, src) = match read_program(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let a = ProgramAnalysis::new(&program);
    if json {
        let lines = crate::syntax::parse::LineIndex::new(&src);
        let line_of = |offset: usize| lines.line_col(offset).0;
        println!("{}", a.to_json(&line_of));
    } else if dot {
        print!("{}", a.to_dot());
    } else {
        print!("{}", a.to_text());
    }
    0
}

/// Every relation Hornbeam provides for `file` (a C program or a clause system), with the
/// comment that opens its schema; or the exit status after an input error.
fn provided(file: &Path) -> Result<(Vec<analysis::Table>, &'static str), i32> {
    if is_program(file) {
        let (program, src) = read_program(file)?;
        let a = ProgramAnalysis::new(&program);
        let lines = crate::syntax::parse::LineIndex::new(&src);
        let pos = |offset: usize| lines.line_col(offset);
        return Ok((a.tables(&pos), c::cfa::relations::SCHEMA_HEADER));
    }
    let store = TermStore::new();
    let (script, src) = load_script(&store, file)?;
    Ok((
        crate::frontend::script::relations(&store, &script, &src),
        analysis::SCHEMA_HEADER,
    ))
}

/// Writes `rows` tab-separated, one tuple per line.
fn write_rows(path: &Path, rows: &[Vec<String>]) -> std::io::Result<()> {
    let mut text = String::new();
    for row in rows {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    std::fs::write(path, text)
}

/// `analyze --rules RULES.dl FILE`: evaluates a rule file over the relations of `file`, prints
/// its `.output` relations (or writes each to `DIR/NAME.csv`) and its findings, and writes the
/// findings as SARIF to `sarif`.
pub fn run_rules(file: &Path, rules: &Path, dir: Option<&Path>, sarif: Option<&Path>) -> i32 {
    let rules_name = crate::syntax::display_name(rules);
    let text = match std::fs::read_to_string(rules) {
        Ok(t) => t,
        Err(e) => return input_error(&format!("{rules_name}:1:1: cannot read the rule file: {e}")),
    };
    let (tables, _) = match provided(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let evaluated = analysis::datalog::Rules::parse(&text, &tables).and_then(|r| {
        let outputs: Vec<String> = r.outputs().iter().map(|s| s.to_string()).collect();
        Ok((outputs, r.evaluate(&tables)?))
    });
    let (outputs, derived) = match evaluated {
        Ok(x) => x,
        Err(e) => return input_error(&e.render(&rules_name)),
    };
    let shown: Vec<_> = derived
        .iter()
        .filter(|d| outputs.contains(&d.name))
        .collect();
    let found = findings(&derived);
    let name = crate::syntax::display_name(file);
    let write = || -> std::io::Result<()> {
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)?;
            for d in &shown {
                write_rows(&dir.join(format!("{}.csv", d.name)), &d.rows)?;
            }
        }
        if let Some(path) = sarif {
            write_sarif(file, &found, path)?;
        }
        Ok(())
    };
    if let Err(e) = write() {
        return input_error(&format!("cannot write the results: {e}"));
    }
    let mut out = String::new();
    if dir.is_none() {
        // Findings are printed as such below.
        for d in shown
            .iter()
            .filter(|d| d.name != analysis::findings::FINDING)
        {
            let cols: Vec<String> = d
                .columns
                .iter()
                .map(|(n, t)| format!("{n}: {}", t.souffle()))
                .collect();
            let _ = writeln!(
                out,
                "# {}({}): {} tuple(s)",
                d.name,
                cols.join(", "),
                d.rows.len()
            );
            for row in &d.rows {
                let _ = writeln!(out, "{}", row.join("\t"));
            }
        }
    }
    out.push_str(&findings_text(&name, &found));
    print!("{out}");
    0
}

/// Writes `found`, the findings in `file`, as a SARIF 2.1.0 log to `path`.
pub(super) fn write_sarif(file: &Path, found: &[Finding], path: &Path) -> std::io::Result<()> {
    let uri = file.to_string_lossy().replace('\\', "/");
    let log = to_sarif(found, &uri, env!("CARGO_PKG_VERSION"));
    std::fs::write(path, format!("{log:#}\n"))
}

/// The findings in the file named `name`, one `NAME:line:col: level: message [rule]` line each.
pub(super) fn findings_text(name: &str, found: &[Finding]) -> String {
    let mut out = String::new();
    for f in found {
        let at = match (f.line, f.col) {
            (0, _) => String::new(),
            (line, 0) => format!(":{line}"),
            (line, col) => format!(":{line}:{col}"),
        };
        let (level, message, rule) = (f.level.name(), &f.message, &f.rule);
        let _ = writeln!(out, "{name}{at}: {level}: {message} [{rule}]");
    }
    out
}

/// Runs `analyze`; returns the exit status.
pub fn run(file: &Path, json: bool, dot: bool, stats: bool) -> i32 {
    if is_program(file) {
        return run_program(file, json, dot);
    }
    let store = TermStore::new();
    let (system, _) = match load(&store, file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let started = std::time::Instant::now();
    let a = analysis::analyze(&system, &store);
    if stats {
        let json = serde_json::json!({
            "predicates": system.num_preds(),
            "clauses": system.num_clauses(),
            "analysis_us": started.elapsed().as_micros() as u64,
        });
        eprintln!("{json}");
    }
    let (_, pipeline) = Preprocess::default().run(&store, &system);
    let pre = pipeline.to_json();
    if json {
        let mut j = a.to_json(&system);
        j["preprocess"] = pre;
        println!("{j}");
    } else if dot {
        print!("{}", to_dot(&system, &a));
    } else {
        print!("{}", to_text(&system, &a));
        println!(
            "preprocessing removes: {} useless predicates, {} inlined predicates, {} dead arguments; clauses {} -> {}",
            pre["predicates_removed"], pre["predicates_inlined"], pre["arguments_removed"],
            pre["clauses"][0], pre["clauses"][1]
        );
    }
    0
}

/// Runs `facts`: every relation as `OUT/NAME.facts` and their declarations as
/// `OUT/schema.dl`; returns the exit status.
pub fn facts(file: &Path, out: &Path) -> i32 {
    let (tables, header) = match provided(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(out)?;
        for t in &tables {
            write_rows(&out.join(format!("{}.facts", t.name)), &t.rows)?;
        }
        std::fs::write(out.join("schema.dl"), analysis::schema(header, &tables))
    };
    match write() {
        Ok(()) => 0,
        Err(e) => input_error(&format!("{}: {e}", out.display())),
    }
}

fn pred_label(system: &System, p: PredId) -> String {
    format!("{}/{}", system.pred(p).name, system.pred(p).sorts.len())
}

/// Human-readable summary.
fn to_text(system: &System, a: &Analysis) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "predicates: {}, clauses: {}",
        system.num_preds(),
        system.num_clauses()
    );
    for p in system.pred_ids() {
        let i = p.0 as usize;
        let live: String = a.live[i]
            .iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect();
        let mut flags = Vec::new();
        if !a.reachable[i] {
            flags.push("unreachable");
        }
        if !a.co_reachable[i] {
            flags.push("cannot-reach-query");
        }
        if a.is_loop_head(p) {
            flags.push("loop-head");
        }
        let _ = writeln!(
            s,
            "  {}  live [{live}]  {}",
            pred_label(system, p),
            flags.join(" ")
        );
    }
    let _ = writeln!(s, "loops: {}", a.loops.len());
    for (k, l) in a.loops.iter().enumerate() {
        let names = |ps: &[PredId]| {
            ps.iter()
                .map(|&p| system.pred(p).name.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let parent = l.parent.map_or("-".to_string(), |p| format!("#{p}"));
        let _ = writeln!(
            s,
            "  #{k} parent {parent} heads [{}] members [{}]",
            names(&l.heads),
            names(&l.members)
        );
    }
    let order: Vec<String> = a
        .order
        .iter()
        .map(|&p| system.pred(p).name.clone())
        .collect();
    let _ = writeln!(s, "order: {}", order.join(" "));
    let lo: Vec<String> = a.loop_order.iter().map(|i| format!("#{i}")).collect();
    let _ = writeln!(s, "loop order (inner first): {}", lo.join(" "));
    let useless: Vec<String> = (0..system.num_clauses())
        .filter(|&c| !a.useful_clauses[c])
        .map(|c| c.to_string())
        .collect();
    let _ = writeln!(
        s,
        "useless clauses: {}",
        if useless.is_empty() {
            "none".into()
        } else {
            useless.join(" ")
        }
    );
    s
}

/// A DOT string literal.
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Graphviz: predicates as nodes (loop heads double circles, unreachable ones dashed), loops as
/// nested clusters, `init` and `false` nodes for fact and query clauses.
fn to_dot(system: &System, a: &Analysis) -> String {
    let mut s = String::from("digraph chc {\n  rankdir=TB;\n  node [shape=ellipse];\n");
    s.push_str(
        "  \"__init\" [shape=point, label=\"\"];\n  \"__false\" [shape=box, label=\"false\"];\n",
    );
    let node = |p: PredId| format!("p{}", p.0);
    let decl = |p: PredId| {
        let i = p.0 as usize;
        let mut attrs = vec![format!("label={}", quote(&pred_label(system, p)))];
        if a.is_loop_head(p) {
            attrs.push("shape=doublecircle".into());
        }
        if !a.reachable[i] {
            attrs.push("style=dashed".into());
        }
        format!("{} [{}];\n", node(p), attrs.join(", "))
    };
    fn cluster(
        k: usize,
        indent: usize,
        a: &Analysis,
        decl: &dyn Fn(PredId) -> String,
        s: &mut String,
    ) {
        let pad = "  ".repeat(indent);
        let _ = writeln!(s, "{pad}subgraph cluster_loop{k} {{");
        let _ = writeln!(s, "{pad}  label=\"loop #{k}\"; style=rounded;");
        for (j, l) in a.loops.iter().enumerate() {
            if l.parent == Some(k) {
                cluster(j, indent + 1, a, decl, s);
            }
        }
        for &p in &a.loops[k].members {
            if a.innermost_loop[p.0 as usize] == Some(k) {
                let _ = write!(s, "{pad}  {}", decl(p));
            }
        }
        let _ = writeln!(s, "{pad}}}");
    }
    for (k, l) in a.loops.iter().enumerate() {
        if l.parent.is_none() {
            cluster(k, 1, a, &decl, &mut s);
        }
    }
    for p in system.pred_ids() {
        if a.innermost_loop[p.0 as usize].is_none() {
            let _ = write!(s, "  {}", decl(p));
        }
    }
    for (c, cl) in system.clauses() {
        let to = cl.head_pred().map_or("\"__false\"".to_string(), node);
        let style = if a.is_useful_clause(c) {
            ""
        } else {
            ", style=dashed"
        };
        if cl.body.is_empty() {
            let _ = writeln!(s, "  \"__init\" -> {to} [label=\"{}\"{style}];", c.0);
        }
        for atom in &cl.body {
            let _ = writeln!(
                s,
                "  {} -> {to} [label=\"{}\"{style}];",
                node(atom.pred),
                c.0
            );
        }
    }
    s.push_str("}\n");
    s
}
