//! A CFA as text (one line per edge, for snapshots and `hornbeam analyze PROG.c`) and as a DOT
//! picture, with expressions written back in C syntax.
//!
//! Must not: compute anything about the CFA beyond naming its parts.

use super::{Cfa, LocId, LocKind, Op};
use crate::frontend::c::ast::BinOp;
use crate::frontend::c::ir::{Fill, IExpr, IExprKind, ThreadOp, VarRef};
use crate::frontend::c::program::Program;
use std::fmt::Write;

/// A location's name: `entry`, `exit`, `error`, `abort7`, `loop3`, the label's name, or `l5`.
pub fn loc_name(program: &Program, f: usize, l: LocId) -> String {
    let func = &program.functions[f];
    match func.cfa.loc(l).kind {
        LocKind::Entry => "entry".to_owned(),
        LocKind::Exit => "exit".to_owned(),
        LocKind::Error => "error".to_owned(),
        LocKind::Abort => format!("abort{}", l.0),
        LocKind::LoopHead => format!("loop{}", l.0),
        LocKind::Label(k) => format!("{}@{}", func.labels[k].name.replace(' ', "_"), l.0),
        LocKind::Plain => format!("l{}", l.0),
    }
}

/// What an edge does, in C-like syntax.
pub fn op_text(program: &Program, f: usize, op: &Op) -> String {
    let e = |x: &IExpr| expr_text(program, f, x);
    match op {
        Op::Skip => "skip".to_owned(),
        Op::Expr(x) => e(x),
        Op::Init(v, Some(x)) => format!("{} = {}", var_name(program, f, *v), e(x)),
        Op::Init(v, None) => format!("{} = *", var_name(program, f, *v)),
        Op::Assume(x, true) => format!("[{}]", e(x)),
        Op::Assume(x, false) => format!("[!({})]", e(x)),
        Op::Return(Some(x)) => format!("return {}", e(x)),
        Op::Return(None) => "return".to_owned(),
        Op::Thread(t) => thread_text(program, f, t),
    }
}

/// A thread operation in C-like syntax.
fn thread_text(program: &Program, f: usize, op: &ThreadOp) -> String {
    let v = |r: VarRef| var_name(program, f, r);
    match op {
        ThreadOp::Create { handle, func } => format!(
            "pthread_create(&{}, {})",
            v(*handle),
            program.functions[*func].name
        ),
        ThreadOp::Join(h) => format!("pthread_join({})", v(*h)),
        ThreadOp::Exit => "pthread_exit".to_owned(),
        ThreadOp::Lock(m) => format!("pthread_mutex_lock(&{})", v(*m)),
        ThreadOp::AtomicBegin => "atomic_begin".to_owned(),
        ThreadOp::AtomicEnd => "atomic_end".to_owned(),
    }
}

/// The CFA of function `f` as text: a header, then one line per edge.
pub fn text(program: &Program, f: usize) -> String {
    let func = &program.functions[f];
    let cfa = &func.cfa;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "cfa {}: {} locations, {} edges",
        func.name,
        cfa.locs.len(),
        cfa.edges.len()
    );
    for e in &cfa.edges {
        let _ = writeln!(
            s,
            "  {} -> {}: {}",
            loc_name(program, f, e.from),
            loc_name(program, f, e.to),
            op_text(program, f, &e.op)
        );
    }
    s
}

/// Appends the CFA of function `f` to a DOT digraph as a cluster; cut points are drawn with a
/// double circle.
pub fn dot(program: &Program, f: usize, cut_points: &[LocId], out: &mut String) {
    let func = &program.functions[f];
    let cfa: &Cfa = &func.cfa;
    let id = |l: LocId| format!("\"{}_{}\"", func.name, l.0);
    let _ = writeln!(out, "  subgraph \"cluster_{}\" {{", func.name);
    let _ = writeln!(out, "    label=\"{}\";", func.name);
    for l in cfa.loc_ids() {
        let shape = match cfa.loc(l).kind {
            LocKind::Error => "doubleoctagon",
            LocKind::Entry | LocKind::Exit => "box",
            _ if cut_points.contains(&l) => "doublecircle",
            _ => "circle",
        };
        let _ = writeln!(
            out,
            "    {} [label=\"{}\", shape={shape}];",
            id(l),
            escape(&loc_name(program, f, l))
        );
    }
    for e in &cfa.edges {
        let _ = writeln!(
            out,
            "    {} -> {} [label=\"{}\"];",
            id(e.from),
            id(e.to),
            escape(&op_text(program, f, &e.op))
        );
    }
    let _ = writeln!(out, "  }}");
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn var_name(program: &Program, f: usize, v: VarRef) -> String {
    program.var(f, v).name.clone()
}

/// An expression in C syntax (fully parenthesised below the top).
pub fn expr_text(program: &Program, f: usize, e: &IExpr) -> String {
    let mut s = String::new();
    write_expr(program, f, e, &mut s, 0);
    s
}

/// Expressions nest at most as deep as the parser allows, so recursion is bounded.
fn write_expr(program: &Program, f: usize, e: &IExpr, s: &mut String, depth: usize) {
    let paren = depth > 0;
    let sub = |x: &IExpr, s: &mut String| write_expr(program, f, x, s, depth + 1);
    match &e.kind {
        IExprKind::Const(c) => {
            let _ = write!(s, "{c}");
        }
        IExprKind::Var(v) => s.push_str(&var_name(program, f, *v)),
        IExprKind::Arith(op, a, b) | IExprKind::Cmp(op, a, b) | IExprKind::Logic(op, a, b) => {
            if paren {
                s.push('(');
            }
            sub(a, s);
            let _ = write!(s, " {} ", symbol(*op));
            sub(b, s);
            if paren {
                s.push(')');
            }
        }
        IExprKind::Not(a) => {
            s.push('!');
            write_expr(program, f, a, s, 1);
        }
        IExprKind::Neg(a) => {
            s.push('-');
            write_expr(program, f, a, s, 1);
        }
        IExprKind::BitNot(a) => {
            s.push('~');
            write_expr(program, f, a, s, 1);
        }
        IExprKind::Convert(a) => {
            let _ = write!(s, "({})", e.ty.name());
            write_expr(program, f, a, s, 1);
        }
        IExprKind::Assign(v, a) => {
            if paren {
                s.push('(');
            }
            let _ = write!(s, "{} = ", var_name(program, f, *v));
            sub(a, s);
            if paren {
                s.push(')');
            }
        }
        IExprKind::PostIncDec(v, inc) => {
            let _ = write!(
                s,
                "{}{}",
                var_name(program, f, *v),
                if *inc { "++" } else { "--" }
            );
        }
        IExprKind::Call(g, args) => {
            let _ = write!(s, "{}(", program.functions[*g].name);
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_expr(program, f, a, s, 0);
            }
            s.push(')');
        }
        IExprKind::Elem(a, index) => {
            s.push_str(&var_name(program, f, *a));
            for i in index {
                s.push('[');
                write_expr(program, f, i, s, 0);
                s.push(']');
            }
        }
        IExprKind::SetElem {
            var, index, value, ..
        } => {
            if paren {
                s.push('(');
            }
            s.push_str(&var_name(program, f, *var));
            for i in index {
                s.push('[');
                write_expr(program, f, i, s, 0);
                s.push(']');
            }
            s.push_str(" = ");
            sub(value, s);
            if paren {
                s.push(')');
            }
        }
        IExprKind::Current => s.push_str("@old"),
        IExprKind::ArrayDecl { var, elems, fill } => {
            let _ = write!(s, "{} = {{", var_name(program, f, *var));
            for (k, (i, v)) in elems.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "[{i}] = ");
                write_expr(program, f, v, s, 0);
            }
            s.push_str(match fill {
                Fill::Zero => "}",
                Fill::Any(_) => "} else *",
            });
        }
        IExprKind::Nondet(site) => {
            let _ = write!(s, "nondet#{site}()");
        }
        IExprKind::Cond(c, a, b) => {
            if paren {
                s.push('(');
            }
            sub(c, s);
            s.push_str(" ? ");
            sub(a, s);
            s.push_str(" : ");
            sub(b, s);
            if paren {
                s.push(')');
            }
        }
        IExprKind::Comma(a, b) => {
            s.push('(');
            write_expr(program, f, a, s, 0);
            s.push_str(", ");
            write_expr(program, f, b, s, 0);
            s.push(')');
        }
    }
}

/// The C spelling of a binary operator.
fn symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::And => "&&",
        BinOp::Or => "||",
    }
}
