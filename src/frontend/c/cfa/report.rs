//! The structure of a whole program for users (`hornbeam analyze PROG.c`, `hornbeam facts
//! PROG.c`): per function, its CFA with loops, cut points and live variables, as text, JSON
//! or a DOT picture (its relations as tables are in `relations.rs`).
//!
//! Must not: solve, print or write files (the CLI does).

use super::print::{dot, loc_name, op_text};
use super::structure::{analyze, Structure};
use super::LocKind;
use crate::frontend::c::ir::VarRef;
use crate::frontend::c::program::Program;
use serde::Serialize;
use std::fmt::Write;

/// The analyses of every function of a program.
pub struct ProgramAnalysis<'a> {
    pub(super) program: &'a Program,
    /// Per function (indexed like [`Program::functions`]).
    pub functions: Vec<Structure>,
}

/// A function's CFA and structure, as JSON.
#[derive(Serialize)]
struct FunctionJson {
    name: String,
    locations: Vec<LocationJson>,
    edges: Vec<EdgeJson>,
    loops: Vec<LoopJson>,
    cut_points: Vec<u32>,
}

#[derive(Serialize)]
struct LocationJson {
    id: u32,
    name: String,
    kind: &'static str,
    line: usize,
    live: Vec<String>,
}

#[derive(Serialize)]
struct EdgeJson {
    id: u32,
    from: u32,
    to: u32,
    op: String,
    line: usize,
}

#[derive(Serialize)]
struct LoopJson {
    heads: Vec<u32>,
    members: Vec<u32>,
    parent: Option<usize>,
    modified: Vec<String>,
}

impl<'a> ProgramAnalysis<'a> {
    /// Analyses every function of `program`.
    pub fn new(program: &'a Program) -> Self {
        let functions = (0..program.functions.len())
            .map(|f| analyze(program, f))
            .collect();
        ProgramAnalysis { program, functions }
    }

    fn names(&self, f: usize, vars: &[VarRef]) -> Vec<String> {
        vars.iter()
            .map(|&v| self.program.var(f, v).name.clone())
            .collect()
    }

    /// Human-readable: per function, its edges, loops, cut points and the variables live at
    /// each cut point.
    pub fn to_text(&self) -> String {
        let p = self.program;
        let mut s = String::new();
        for (f, st) in self.functions.iter().enumerate() {
            s.push_str(&super::print::text(p, f));
            for (k, l) in st.loops.iter().enumerate() {
                let locs = |ls: &[super::LocId]| {
                    ls.iter()
                        .map(|&l| loc_name(p, f, l))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let _ = writeln!(
                    s,
                    "  loop {k}{}: heads [{}] members [{}] modifies [{}]",
                    l.parent
                        .map(|q| format!(" (in loop {q})"))
                        .unwrap_or_default(),
                    locs(&l.heads),
                    locs(&l.members),
                    self.names(f, &l.modified).join(" ")
                );
            }
            for &c in &st.cut_points {
                let _ = writeln!(
                    s,
                    "  cut point {}: live [{}]",
                    loc_name(p, f, c),
                    self.names(f, &st.live[c.0 as usize]).join(" ")
                );
            }
        }
        s
    }

    /// JSON: `{"functions": [{"name", "locations", "edges", "loops", "cut_points"}]}`.
    pub fn to_json(&self, line_of: &dyn Fn(usize) -> usize) -> serde_json::Value {
        let p = self.program;
        let functions: Vec<FunctionJson> = self
            .functions
            .iter()
            .enumerate()
            .map(|(f, st)| {
                let cfa = &p.functions[f].cfa;
                FunctionJson {
                    name: p.functions[f].name.clone(),
                    locations: cfa
                        .loc_ids()
                        .map(|l| LocationJson {
                            id: l.0,
                            name: loc_name(p, f, l),
                            kind: kind_name(cfa.loc(l).kind),
                            line: line_of(cfa.loc(l).span.start),
                            live: self.names(f, &st.live[l.0 as usize]),
                        })
                        .collect(),
                    edges: cfa
                        .edges
                        .iter()
                        .enumerate()
                        .map(|(i, e)| EdgeJson {
                            id: i as u32,
                            from: e.from.0,
                            to: e.to.0,
                            op: op_text(p, f, &e.op),
                            line: line_of(e.span.start),
                        })
                        .collect(),
                    loops: st
                        .loops
                        .iter()
                        .map(|l| LoopJson {
                            heads: l.heads.iter().map(|h| h.0).collect(),
                            members: l.members.iter().map(|m| m.0).collect(),
                            parent: l.parent,
                            modified: self.names(f, &l.modified),
                        })
                        .collect(),
                    cut_points: st.cut_points.iter().map(|c| c.0).collect(),
                }
            })
            .collect();
        serde_json::json!({ "functions": functions })
    }

    /// A DOT digraph with one cluster per function; cut points have a double circle.
    pub fn to_dot(&self) -> String {
        let mut s = String::from("digraph cfa {\n  node [fontsize=10];\n");
        for (f, st) in self.functions.iter().enumerate() {
            dot(self.program, f, &st.cut_points, &mut s);
        }
        s.push_str("}\n");
        s
    }
}

pub(super) fn kind_name(k: LocKind) -> &'static str {
    match k {
        LocKind::Entry => "entry",
        LocKind::Exit => "exit",
        LocKind::Error => "error",
        LocKind::Abort => "abort",
        LocKind::LoopHead => "loop",
        LocKind::Label(_) => "label",
        LocKind::Plain => "plain",
    }
}
