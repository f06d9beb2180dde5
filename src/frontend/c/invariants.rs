//! Loop invariants for the user: a model's interpretation of each loop head, as a C expression
//! over the program's variable names.
//!
//! Must not: check the model (the witness layer did).

use super::encode::Translation;
use crate::term::{Op, Term, TermId, TermStore, VarId};
use crate::witness::Model;
use std::collections::HashMap;

/// One loop invariant.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// The function's index.
    pub func: usize,
    /// Byte offset of the loop statement.
    pub offset: usize,
    /// The invariant as a C expression.
    pub text: String,
}

/// The invariant of every loop head, in source order.
pub fn invariants(store: &TermStore, tr: &Translation, model: &Model) -> Vec<Invariant> {
    let mut out = vec![];
    for lh in &tr.loops {
        let text = match model.get(lh.pred) {
            None => "0".to_owned(),
            Some(i) => {
                let names: HashMap<VarId, String> = i
                    .params
                    .iter()
                    .zip(&lh.args)
                    .map(|(p, a)| {
                        let n = a
                            .as_ref()
                            .map_or("?".to_owned(), |(n, _)| n.replace('@', "_at_"));
                        (*p, n)
                    })
                    .collect();
                c_expr(store, i.body, &names)
            }
        };
        out.push(Invariant {
            func: lh.func,
            offset: lh.span.start,
            text,
        });
    }
    out.sort_by_key(|i| i.offset);
    out
}

fn join(store: &TermStore, args: &[TermId], sep: &str, names: &HashMap<VarId, String>) -> String {
    let parts: Vec<String> = args.iter().map(|&a| c_expr(store, a, names)).collect();
    format!("({})", parts.join(sep))
}

/// A term as a C expression (integer division and remainder are SMT-LIB's Euclidean ones,
/// which agree with C's on non-negative operands).
pub fn c_expr(store: &TermStore, t: TermId, names: &HashMap<VarId, String>) -> String {
    let node = store.get(t);
    match &node.term {
        Term::Var(v) => names
            .get(v)
            .cloned()
            .unwrap_or_else(|| store.var_name(*v).to_string()),
        Term::Bool(b) => if *b { "1" } else { "0" }.to_owned(),
        Term::Int(i) => i.to_string(),
        Term::Real(r) => r.to_string(),
        Term::Quant(..) => "/* quantified */ 1".to_owned(),
        Term::App(op, args) => {
            let a = |i: usize| c_expr(store, args[i], names);
            match op {
                Op::Not => format!("!{}", a(0)),
                Op::And => join(store, args, " && ", names),
                Op::Or => join(store, args, " || ", names),
                Op::Implies => format!("(!{} || {})", a(0), a(1)),
                Op::Xor => format!("({} != {})", a(0), a(1)),
                Op::Ite => format!("({} ? {} : {})", a(0), a(1), a(2)),
                Op::Eq => format!("({} == {})", a(0), a(1)),
                Op::Distinct => format!("({} != {})", a(0), a(1)),
                Op::Add => {
                    // a + (-b) is written a - b.
                    let mut out = String::from("(");
                    for (k, &t) in args.iter().enumerate() {
                        let node = store.get(t);
                        let negated = match &node.term {
                            Term::App(Op::Neg, inner) => Some(c_expr(store, inner[0], names)),
                            Term::Int(i) if k > 0 && i.sign() == num_bigint::Sign::Minus => {
                                Some((-i).to_string())
                            }
                            _ => None,
                        };
                        match (k, negated) {
                            (0, Some(n)) => out.push_str(&format!("-{n}")),
                            (0, None) => out.push_str(&c_expr(store, t, names)),
                            (_, Some(n)) => out.push_str(&format!(" - {n}")),
                            (_, None) => out.push_str(&format!(" + {}", c_expr(store, t, names))),
                        }
                    }
                    out.push(')');
                    out
                }
                Op::Sub if args.len() == 1 => format!("(-{})", a(0)),
                Op::Sub => join(store, args, " - ", names),
                Op::Neg => format!("(-{})", a(0)),
                Op::Mul => join(store, args, " * ", names),
                Op::IntDiv | Op::RealDiv => format!("({} / {})", a(0), a(1)),
                Op::Mod => format!("({} % {})", a(0), a(1)),
                Op::Le => format!("({} <= {})", a(0), a(1)),
                Op::Lt => format!("({} < {})", a(0), a(1)),
                Op::Ge => format!("({} >= {})", a(0), a(1)),
                Op::Gt => format!("({} > {})", a(0), a(1)),
                Op::Abs => format!("abs({})", a(0)),
                _ => format!("/* {op:?} */ 1"),
            }
        }
    }
}
