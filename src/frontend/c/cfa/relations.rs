//! A program's control-flow automata and their analyses as relations (tables with a schema):
//! what `hornbeam facts PROG.c` writes and what a rule file (`analyze --rules`) reads.
//!
//! Every relation has the function's index `f` first; locations, edges and loops are numbered
//! per function, variables number the globals from 0 and then the function's locals. Must not
//! print or write files.

use super::print::op_text;
use super::report::{kind_name, ProgramAnalysis};
use super::structure::{var_number, CfaFacts};
use super::Op;
use crate::analysis::{ColumnType, Table};
use crate::frontend::c::ir::{IExpr, IExprKind, VarRef};
use ColumnType::{Number as N, Symbol as S};

/// The comment that opens the schema of a program's relations.
pub const SCHEMA_HEADER: &str =
    "// Relations of the control-flow automata of a C program (written by `hornbeam facts\n\
     // PROG.c`). f is a function's index; locations (l), edges (e) and loops (k) are numbered\n\
     // per function; variables (v) number the globals from 0, then the function's locals.\n\
     // Lines and columns count from 1. Each relation is in NAME.facts, tab-separated.\n";

/// What an edge of function `f` of `p` does, as one word. A local declared without
/// initialiser is initialised with a nondet value at its declarator (the front end's model of
/// an indeterminate value): that is a declaration, not an initialisation.
fn op_kind(p: &crate::frontend::c::Program, f: usize, op: &Op) -> &'static str {
    match op {
        Op::Skip => "skip",
        Op::Expr(_) => "expr",
        Op::Init(v, Some(e))
            if matches!(e.kind, IExprKind::Nondet(_)) && e.span == p.var(f, *v).span =>
        {
            "declare"
        }
        Op::Init(_, Some(_)) => "init",
        Op::Init(_, None) => "declare",
        Op::Assume(_, true) => "assume",
        Op::Assume(_, false) => "assume_not",
        Op::Return(_) => "return",
        Op::Thread(_) => "thread",
    }
}

/// The variable an edge assigns any value (`int x;`, `x = __VERIFIER_nondet_int()`), if any.
fn havoc(op: &Op) -> Option<VarRef> {
    fn any(e: &IExpr) -> bool {
        match &e.kind {
            IExprKind::Nondet(_) => true,
            IExprKind::Convert(inner) => any(inner),
            _ => false,
        }
    }
    match op {
        Op::Init(v, Some(e)) if any(e) => Some(*v),
        Op::Init(v, None) => Some(*v),
        Op::Expr(IExpr {
            kind: IExprKind::Assign(v, e),
            ..
        }) if any(e) => Some(*v),
        _ => None,
    }
}

impl ProgramAnalysis<'_> {
    /// Every relation of every function: the CFA (`cfa_input` and names), the source position
    /// of each location and edge (`pos` gives line and column of a byte offset of the source),
    /// and the derived relations (reachability, liveness, loops, cut points, modified variables).
    pub fn tables(&self, pos: &dyn Fn(usize) -> (usize, usize)) -> Vec<Table> {
        let p = self.program;
        let mut rows: Vec<Vec<Vec<String>>> = vec![Vec::new(); SCHEMA.len()];
        for (f, (func, st)) in p.functions.iter().zip(&self.functions).enumerate() {
            let cfa = &func.cfa;
            let fs = f.to_string();
            let mut push = |table: usize, cells: Vec<String>| {
                let mut row = vec![fs.clone()];
                row.extend(cells);
                rows[table].push(row);
            };
            let n = |x: u32| x.to_string();
            push(0, vec![func.name.clone()]);
            let vars = (0..p.globals.len())
                .map(VarRef::Global)
                .chain((0..func.locals.len()).map(VarRef::Local));
            for v in vars {
                let scope = match v {
                    VarRef::Global(_) => "global",
                    VarRef::Local(l) if l < func.params => "parameter",
                    VarRef::Local(_) => "local",
                };
                let name = p.var(f, v).name.clone();
                push(1, vec![n(var_number(p, v)), name, scope.into()]);
            }
            let facts = CfaFacts::extract(p, f);
            for &(e, a, b) in &facts.cfa_edge {
                push(2, vec![n(e), n(a), n(b)]);
            }
            for &(l,) in &facts.cfa_entry {
                push(3, vec![n(l)]);
            }
            for (table, rel) in [(4, &facts.uses), (5, &facts.writes), (6, &facts.kills)] {
                for &(e, v) in rel {
                    push(table, vec![n(e), n(v)]);
                }
            }
            for l in cfa.loc_ids() {
                let loc = cfa.loc(l);
                let (line, col) = pos(loc.span.start);
                push(
                    7,
                    vec![
                        n(l.0),
                        kind_name(loc.kind).into(),
                        line.to_string(),
                        col.to_string(),
                    ],
                );
                if st.reachable[l.0 as usize] {
                    push(10, vec![n(l.0)]);
                }
                for &v in &st.live[l.0 as usize] {
                    push(11, vec![n(l.0), n(var_number(p, v))]);
                }
            }
            for (e, edge) in cfa.edges.iter().enumerate() {
                let (line, col) = pos(edge.span.start);
                let e = e as u32;
                push(8, vec![n(e), line.to_string(), col.to_string()]);
                push(
                    9,
                    vec![
                        n(e),
                        op_kind(p, f, &edge.op).into(),
                        op_text(p, f, &edge.op),
                    ],
                );
                if let Some(v) = havoc(&edge.op) {
                    push(16, vec![n(e), n(var_number(p, v))]);
                }
            }
            for (k, lp) in st.loops.iter().enumerate() {
                let k = k as u32;
                for h in &lp.heads {
                    push(12, vec![n(k), n(h.0)]);
                }
                for m in &lp.members {
                    push(13, vec![n(k), n(m.0)]);
                }
                for &v in &lp.modified {
                    push(15, vec![n(k), n(var_number(p, v))]);
                }
            }
            for c in &st.cut_points {
                push(14, vec![n(c.0)]);
            }
            // A global's targets hold in every function (variables are numbered per function,
            // globals alike in all).
            for &(_, span, v) in p.derefs.iter().filter(|d| d.0 == f) {
                let (line, col) = pos(span.start);
                push(
                    18,
                    vec![n(var_number(p, v)), line.to_string(), col.to_string()],
                );
            }
            for &(g, v, t) in &p.points_to {
                if g.is_none_or(|g| g == f) {
                    let t = var_number(p, VarRef::Global(t));
                    push(17, vec![n(var_number(p, v)), n(t)]);
                }
            }
        }
        SCHEMA
            .iter()
            .zip(rows)
            .map(|(&(name, doc, columns), rows)| Table {
                name,
                doc,
                columns,
                rows: rows
                    .into_iter()
                    .map(|r| {
                        r.into_iter()
                            .map(|c| c.replace(['\t', '\n', '\r'], " "))
                            .collect()
                    })
                    .collect(),
            })
            .collect()
    }
}

/// Name, meaning and columns of each relation, in the order of [`ProgramAnalysis::tables`].
type Schema = (
    &'static str,
    &'static str,
    &'static [(&'static str, ColumnType)],
);

const SCHEMA: [Schema; 19] = [
    (
        "function",
        "function f is named name",
        &[("f", N), ("name", S)],
    ),
    (
        "variable",
        "variable v of function f is named name; scope is global, parameter or local",
        &[("f", N), ("v", N), ("name", S), ("scope", S)],
    ),
    (
        "cfa_edge",
        "edge e leads from location from to location to",
        &[("f", N), ("e", N), ("from", N), ("to", N)],
    ),
    (
        "cfa_entry",
        "l is the entry of function f",
        &[("f", N), ("l", N)],
    ),
    (
        "uses",
        "edge e may read variable v",
        &[("f", N), ("e", N), ("v", N)],
    ),
    (
        "writes",
        "edge e may assign variable v",
        &[("f", N), ("e", N), ("v", N)],
    ),
    (
        "kills",
        "every execution of edge e assigns v without reading it first",
        &[("f", N), ("e", N), ("v", N)],
    ),
    (
        "location",
        "location l is of a kind (entry, exit, error, abort, loop, label, plain) and \
        stands for the statement at line:col",
        &[("f", N), ("l", N), ("kind", S), ("line", N), ("col", N)],
    ),
    (
        "edge_at",
        "edge e stands for the source at line:col (an edge into the error location: \
        the error call reached)",
        &[("f", N), ("e", N), ("line", N), ("col", N)],
    ),
    (
        "edge_op",
        "edge e does what text says; kind is skip, expr, init (a declaration with an \
        initialiser), declare (without: any value), assume, assume_not, return or thread",
        &[("f", N), ("e", N), ("kind", S), ("text", S)],
    ),
    (
        "reach",
        "derived: a path of edges leads from the entry to location l",
        &[("f", N), ("l", N)],
    ),
    (
        "live",
        "derived: the value of variable v at location l may be read later",
        &[("f", N), ("l", N), ("v", N)],
    ),
    (
        "loop_head",
        "derived: location l is a head of loop k (outer loops first)",
        &[("f", N), ("k", N), ("l", N)],
    ),
    (
        "loop_member",
        "derived: location l belongs to loop k",
        &[("f", N), ("k", N), ("l", N)],
    ),
    (
        "cut_point",
        "derived: location l is a cut point (a head of some loop)",
        &[("f", N), ("l", N)],
    ),
    (
        "modifies",
        "derived: an edge inside loop k may assign variable v",
        &[("f", N), ("k", N), ("v", N)],
    ),
    (
        "havoc",
        "edge e assigns variable v any value (a declaration without initialiser, a nondet call)",
        &[("f", N), ("e", N), ("v", N)],
    ),
    (
        "points_to",
        "derived: pointer variable v may hold an address within variable t (a global: \
        address-taken variables are made globals, each allocation site's blocks are one)",
        &[("f", N), ("v", N), ("t", N)],
    ),
    (
        "deref",
        "the access through a pointer at line:col (a read or write of what it points to) \
        reads the pointer from variable v (a temporary of the front end holding its value)",
        &[("f", N), ("v", N), ("line", N), ("col", N)],
    ),
];
