//! Every relation of a clause system's analyses as a table: the input relations ([`Facts`])
//! and the relations the rule sets derive from them (graph, reachability, liveness, loops).
//! What `hornbeam facts` writes and what a rule file (`analyze --rules`) reads.

use super::facts::num;
use super::{programs, Analysis, ColumnType, Facts, Table};
use ColumnType::Number as N;

/// The input relations of `facts`, then the derived ones, each with its schema.
pub fn relations(facts: &Facts) -> Vec<Table> {
    let prog = programs::structure(facts);
    let a = Analysis::from_structure(facts, &prog);
    let t = |name, doc, columns, rows| Table {
        name,
        doc,
        columns,
        rows,
    };
    let unary = |rel: &[(u32,)]| num(rel.iter().map(|&(a,)| [a]));
    let mut loop_head = Vec::new();
    let mut loop_member = Vec::new();
    let mut loop_parent = Vec::new();
    for (k, l) in a.loops.iter().enumerate() {
        let k = k as u32;
        loop_head.extend(l.heads.iter().map(|p| [k, p.0]));
        loop_member.extend(l.members.iter().map(|p| [k, p.0]));
        if let Some(q) = l.parent {
            loop_parent.push([k, q as u32]);
        }
    }
    let mut out = facts.tables();
    out.extend([
        t(
            "edge",
            "derived: some clause has p in its body and q as its head",
            &[("p", N), ("q", N)][..],
            num(prog.edge.iter().map(|&(p, q)| [p, q])),
        ),
        t(
            "fires",
            "derived: every body atom of clause c applies a reachable predicate",
            &[("c", N)][..],
            unary(&prog.fires),
        ),
        t(
            "reachable",
            "derived: p is derivable from facts, ignoring constraints",
            &[("p", N)][..],
            unary(&prog.reachable),
        ),
        t(
            "co_reachable",
            "derived: a path of edges leads from p to the body of a query",
            &[("p", N)][..],
            unary(&prog.co_reachable),
        ),
        t(
            "useful_clause",
            "derived: clause c may take part in a derivation of false",
            &[("c", N)][..],
            unary(&prog.useful_clause),
        ),
        t(
            "useful",
            "derived: p occurs in the body of a useful clause",
            &[("p", N)][..],
            unary(&prog.useful),
        ),
        t(
            "live",
            "derived: argument i of p can influence whether a query fires",
            &[("p", N), ("i", N)][..],
            num(prog.live.iter().map(|&(p, i)| [p, i])),
        ),
        t(
            "loop_head",
            "derived: p is a head of loop l (loops of the decomposition, outer first)",
            &[("l", N), ("p", N)][..],
            num(loop_head),
        ),
        t(
            "loop_member",
            "derived: p belongs to loop l (nested loops included)",
            &[("l", N), ("p", N)][..],
            num(loop_member),
        ),
        t(
            "loop_parent",
            "derived: loop l is nested in loop m",
            &[("l", N), ("m", N)][..],
            num(loop_parent),
        ),
    ]);
    out
}

/// The Soufflé declarations of `tables` (`.decl` with a comment, and `.input`), after `header`
/// (comment lines).
pub fn schema(header: &str, tables: &[Table]) -> String {
    let mut out = String::from(header);
    out.push('\n');
    for t in tables {
        let cols: Vec<String> = t
            .columns
            .iter()
            .map(|(n, ty)| format!("{n}: {}", ty.souffle()))
            .collect();
        out.push_str(&format!("// {}\n", t.doc));
        out.push_str(&format!(".decl {}({})\n", t.name, cols.join(", ")));
        out.push_str(&format!(".input {}\n\n", t.name));
    }
    out
}
