//! A program's control-flow automata and their analyses as relations (tables with a schema):
//! what `hornbeam facts PROG.c` writes and what a rule file (`analyze --rules`) reads.
//!
//! Every relation has the function's index `f` first; locations, edges and loops are numbered
//! per function, variables number the globals from 0 and then the function's locals. Each
//! relation is declared once, in [`ProgramFacts`]. Must not print or write files.

use super::print::op_text;
use super::report::{kind_name, ProgramAnalysis};
use super::structure::{var_number, CfaFacts};
use super::{EdgeId, LocId, Op};
use crate::analysis::{Column, ColumnType, Table};
use crate::frontend::c::ir::{fold, IExpr, IExprKind, VarRef};
use num_bigint::BigInt;

/// The comment that opens the schema of a program's relations.
pub const SCHEMA_HEADER: &str =
    "// Relations of the control-flow automata of a C program (written by `hornbeam facts\n\
     // PROG.c`). f is a function's index; locations (l), edges (e) and loops (k) are numbered\n\
     // per function; variables (v) number the globals from 0, then the function's locals.\n\
     // Lines and columns count from 1. Each relation is in NAME.facts, tab-separated.\n\
     // The reference: docs/relations.md in Hornbeam's repository.\n";

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

crate::relations! {
    /// Every relation of a C program's control-flow automata and their analyses, the function's
    /// index `f` first: what `hornbeam facts PROG.c` writes. The relations of `cfa_input` (see
    /// [`CfaFacts`]) are here with `f` added.
    pub struct ProgramFacts;

    /// Function `f` is named `name`.
    function(f: u32, name: String);
    /// Variable `v` of function `f` is named `name`; `scope` is `global`, `parameter` or
    /// `local`.
    variable(f: u32, v: u32, name: String, scope: &'static str);
    /// Edge `e` leads from location `from` to location `to`.
    cfa_edge(f: u32, e: EdgeId, from: LocId, to: LocId);
    /// Location `l` is the entry of function `f`.
    cfa_entry(f: u32, l: LocId);
    /// Edge `e` may read variable `v`.
    uses(f: u32, e: EdgeId, v: u32);
    /// Edge `e` may assign variable `v`.
    writes(f: u32, e: EdgeId, v: u32);
    /// Every execution of edge `e` assigns `v` without reading it first.
    kills(f: u32, e: EdgeId, v: u32);
    /// Location `l` is of a `kind` (`entry`, `exit`, `error`, `abort`, `loop`, `label`,
    /// `plain`) and stands for the statement at `line:col`.
    location(f: u32, l: LocId, kind: &'static str, line: u32, col: u32);
    /// Edge `e` stands for the source at `line:col` (an edge into the error location: the error
    /// call reached).
    edge_at(f: u32, e: EdgeId, line: u32, col: u32);
    /// Edge `e` does what `text` says; `kind` is `skip`, `expr`, `init` (a declaration with an
    /// initialiser), `declare` (without: any value), `assume`, `assume_not`, `return` or
    /// `thread`.
    edge_op(f: u32, e: EdgeId, kind: &'static str, text: String);
    /// Derived: a path of edges leads from the entry to location `l`.
    reach(f: u32, l: LocId);
    /// Derived: the value of variable `v` at location `l` may be read later.
    live(f: u32, l: LocId, v: u32);
    /// Derived: location `l` is a head of loop `k` (loops numbered outer first).
    loop_head(f: u32, k: u32, l: LocId);
    /// Derived: location `l` belongs to loop `k`.
    loop_member(f: u32, k: u32, l: LocId);
    /// Derived: location `l` is a cut point (a head of some loop).
    cut_point(f: u32, l: LocId);
    /// Derived: an edge inside loop `k` may assign variable `v`.
    modifies(f: u32, k: u32, v: u32);
    /// Edge `e` assigns variable `v` any value (a declaration without initialiser, a nondet
    /// call).
    havoc(f: u32, e: EdgeId, v: u32);
    /// Derived: pointer variable `v` may hold an address within variable `t` (a global:
    /// address-taken variables are made globals, each allocation site's blocks are one).
    points_to(f: u32, v: u32, t: u32);
    /// The access through a pointer at `line:col` (a read or write of what it points to) reads
    /// the pointer from variable `v` (a temporary of the front end holding its value).
    deref(f: u32, v: u32, line: u32, col: u32);
    /// The statement at `line:col` starts code that no path from the function's entry reaches
    /// (after a `return`, `goto`, `break` or `continue`): the first statement of each such
    /// stretch. That code is not in the automaton.
    dead_code(f: u32, line: u32, col: u32);
    /// The condition of assume edge `e` is an integer constant expression: the edge's
    /// assumption always holds (`holds` = 1) or never does (0), whatever the variables' values.
    constant_condition(f: u32, e: EdgeId, holds: u32);
}

impl Column for LocId {
    const TYPE: ColumnType = ColumnType::Number;
    fn cell(&self) -> String {
        self.0.to_string()
    }
}

impl Column for EdgeId {
    const TYPE: ColumnType = ColumnType::Number;
    fn cell(&self) -> String {
        self.0.to_string()
    }
}

impl ProgramAnalysis<'_> {
    /// Every relation of every function as tables (see [`ProgramAnalysis::facts`]).
    pub fn tables(&self, pos: &dyn Fn(usize) -> (usize, usize)) -> Vec<Table> {
        self.facts(pos).tables()
    }

    /// Every relation of every function: the CFA (`cfa_input` and names), the source position
    /// of each location and edge (`pos` gives line and column of a byte offset of the source),
    /// and the derived relations (reachability, liveness, loops, cut points, modified variables).
    pub fn facts(&self, pos: &dyn Fn(usize) -> (usize, usize)) -> ProgramFacts {
        let p = self.program;
        let at = |offset: usize| {
            let (line, col) = pos(offset);
            (line as u32, col as u32)
        };
        let mut out = ProgramFacts::default();
        for (f, (func, st)) in p.functions.iter().zip(&self.functions).enumerate() {
            let cfa = &func.cfa;
            let fi = f as u32;
            out.function.push((fi, func.name.clone()));
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
                out.variable.push((fi, var_number(p, v), name, scope));
            }
            let facts = CfaFacts::extract(p, f);
            let (e, l) = (EdgeId, LocId);
            out.cfa_edge.extend(
                facts
                    .cfa_edge
                    .iter()
                    .map(|&(x, a, b)| (fi, e(x), l(a), l(b))),
            );
            out.cfa_entry
                .extend(facts.cfa_entry.iter().map(|&(x,)| (fi, l(x))));
            out.uses
                .extend(facts.uses.iter().map(|&(x, v)| (fi, e(x), v)));
            out.writes
                .extend(facts.writes.iter().map(|&(x, v)| (fi, e(x), v)));
            out.kills
                .extend(facts.kills.iter().map(|&(x, v)| (fi, e(x), v)));
            for l in cfa.loc_ids() {
                let loc = cfa.loc(l);
                let (line, col) = at(loc.span.start);
                out.location.push((fi, l, kind_name(loc.kind), line, col));
                if st.reachable[l.0 as usize] {
                    out.reach.push((fi, l));
                }
                for &v in &st.live[l.0 as usize] {
                    out.live.push((fi, l, var_number(p, v)));
                }
            }
            for (i, edge) in cfa.edges.iter().enumerate() {
                let x = EdgeId(i as u32);
                let (line, col) = at(edge.span.start);
                out.edge_at.push((fi, x, line, col));
                let text = op_text(p, f, &edge.op);
                out.edge_op.push((fi, x, op_kind(p, f, &edge.op), text));
                if let Some(v) = havoc(&edge.op) {
                    out.havoc.push((fi, x, var_number(p, v)));
                }
                if let Op::Assume(c, positive) = &edge.op {
                    if let Some(v) = fold(c) {
                        let holds = (v != BigInt::ZERO) == *positive;
                        out.constant_condition.push((fi, x, u32::from(holds)));
                    }
                }
            }
            for (k, lp) in st.loops.iter().enumerate() {
                let k = k as u32;
                out.loop_head.extend(lp.heads.iter().map(|&h| (fi, k, h)));
                out.loop_member
                    .extend(lp.members.iter().map(|&m| (fi, k, m)));
                let modified = lp.modified.iter().map(|&v| (fi, k, var_number(p, v)));
                out.modifies.extend(modified);
            }
            out.cut_point.extend(st.cut_points.iter().map(|&c| (fi, c)));
            for span in &cfa.dead {
                let (line, col) = at(span.start);
                out.dead_code.push((fi, line, col));
            }
            // A global's targets hold in every function (variables are numbered per function,
            // globals alike in all).
            for &(_, span, v) in p.derefs.iter().filter(|d| d.0 == f) {
                let (line, col) = at(span.start);
                out.deref.push((fi, var_number(p, v), line, col));
            }
            for &(g, v, t) in &p.points_to {
                if g.is_none_or(|g| g == f) {
                    let t = var_number(p, VarRef::Global(t));
                    out.points_to.push((fi, var_number(p, v), t));
                }
            }
        }
        out
    }
}
