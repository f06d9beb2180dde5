//! Loop invariants for the user: a model's interpretation of each loop head, as a C expression
//! over the program's variable names; and, for witness files, the part of it that is a C
//! expression with the same meaning in the program ([`witness_invariants`]). Arrays (arguments of
//! sort `(Array Int Int)`) print as `a[k]` with row-major element numbers `k` in the first
//! and are left out of the second (a conjunct that mentions one is dropped); where what is
//! left is no longer inductive, only the loop heads that lost nothing are stated.
//!
//! Must not: check the model (the witness layer did); only its weakened form is checked here.

use super::encode::Translation;
use super::program::Program;
use super::types::CType;
use crate::chc::PredId;
use crate::clock::Deadline;
use crate::term::{Op, Term, TermId, TermStore, VarId};
use crate::witness::{Interp, Model, ModelCheck};
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
    /// Whether this is the environment relation of threads created in a loop (over `tid`, the
    /// globals before and, suffixed `_post`, after a step of any thread) rather than a loop
    /// or location invariant.
    pub env: bool,
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
            env: lh.env,
        });
    }
    out.sort_by_key(|i| i.offset);
    out
}

/// The invariants a correctness witness states: each loop head's as a C expression that
/// means, evaluated in the program at the loop statement, what the model means: only variables
/// named there (no `x@entry`, no local out of scope or shadowed; a static local by its own
/// name), each variable narrower than 64 bits cast to `long long` so that arithmetic neither
/// wraps nor overflows, division and remainder by constants written Euclidean. A conjunct that
/// cannot be written so (a value at entry, an unsigned 64-bit variable, an array, a constant
/// beyond `long long`) is left out, which weakens the invariant but keeps it one; a loop with
/// nothing left gets `1`. All of them when, so weakened, they are still inductive with `true`
/// at every other predicate (what a validator checks first: each clause, fresh, before
/// `deadline`); else only the loop heads whose invariant lost nothing, since a weakened one may
/// be true yet not inductive, and a loop head the witness leaves out is one a validator solves
/// for.
pub fn witness_invariants(
    store: &TermStore,
    tr: &Translation,
    program: &Program,
    model: &Model,
    deadline: Deadline,
) -> Vec<Invariant> {
    let parts = exact_parts(store, tr, program, model);
    let all = parts.iter().all(|e| e.whole) || {
        let system = &tr.system;
        let mut claimed = Model::new();
        for p in system.pred_ids() {
            let params = system.fresh_params(store, p);
            let body = store.bool(true);
            claimed.set(p, Interp { params, body });
        }
        for e in &parts {
            claimed.set(e.pred, e.claim.clone());
        }
        crate::witness::validate_model(store, system, &claimed, deadline) == ModelCheck::Valid
    };
    let mut out: Vec<Invariant> = parts
        .into_iter()
        .filter(|e| all || e.whole)
        .map(|e| e.invariant)
        .collect();
    out.sort_by_key(|i| i.offset);
    out
}

/// A loop head's invariant as [`witness_invariants`] writes it, with what it means.
struct ExactPart {
    invariant: Invariant,
    /// The loop head's predicate.
    pred: PredId,
    /// The conjuncts written, over the model's parameters.
    claim: Interp,
    /// Whether nothing was left out.
    whole: bool,
}

fn exact_parts(
    store: &TermStore,
    tr: &Translation,
    program: &Program,
    model: &Model,
) -> Vec<ExactPart> {
    let mut out = vec![];
    for lh in &tr.loops {
        let Some(i) = model.get(lh.pred).filter(|_| !lh.env) else {
            continue;
        };
        let func = &program.functions[lh.func];
        let scope = func.loop_scopes.iter().find(|s| s.start == lh.span.start);
        let mut names: HashMap<VarId, (String, CType)> = HashMap::new();
        for ((p, var), arg) in i.params.iter().zip(&lh.vars).zip(&lh.args) {
            let (Some(var), Some((_, ty)), Some(scope)) = (var, arg, scope) else {
                continue;
            };
            if let Some((n, _)) = scope.names.iter().find(|(_, v)| v == var) {
                names.insert(*p, (n.clone(), *ty));
            }
        }
        let mut parts = vec![];
        let mut kept = vec![];
        let mut whole = true;
        for c in conjuncts(store, i.body) {
            match exact(store, c, &names) {
                Some(text) => {
                    kept.push(c);
                    if text != "1" {
                        parts.push(text);
                    }
                }
                None => whole = false,
            }
        }
        // A loop head of which nothing is exact (the proof needs nothing there, or nothing
        // C can say): `1`, which holds, so that every loop head the proof used is stated.
        let text = match parts.is_empty() {
            true => "1".to_owned(),
            false => parts.join(" && "),
        };
        out.push(ExactPart {
            invariant: Invariant {
                func: lh.func,
                offset: lh.span.start,
                text,
                env: false,
            },
            pred: lh.pred,
            claim: Interp {
                params: i.params.clone(),
                body: store.and(kept),
            },
            whole,
        });
    }
    out
}

/// The conjuncts of a formula (itself when it is not a conjunction).
fn conjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    match &store.get(t).term {
        Term::App(Op::And, args) => args.iter().flat_map(|&a| conjuncts(store, a)).collect(),
        _ => vec![t],
    }
}

fn join(store: &TermStore, args: &[TermId], sep: &str, names: &Names, euclid: bool) -> String {
    let parts: Vec<String> = args
        .iter()
        .map(|&a| render(store, a, names, euclid))
        .collect();
    format!("({})", parts.join(sep))
}

type Names = HashMap<VarId, String>;

/// A term as an exact C expression over the named variables, or `None` (see
/// [`witness_invariants`]).
fn exact(store: &TermStore, t: TermId, names: &HashMap<VarId, (String, CType)>) -> Option<String> {
    let limit = num_bigint::BigInt::from(i64::MAX);
    let mut display: HashMap<VarId, String> = HashMap::new();
    let mut ok = true;
    for v in store.free_vars(t) {
        if store.var_sort(v) != crate::term::Sort::Int {
            ok = false;
            continue;
        }
        match names.get(&v) {
            Some((n, ty)) if ty.bits < 64 => {
                display.insert(v, format!("(long long){n}"));
            }
            Some((n, ty)) if ty.signed => {
                display.insert(v, n.clone());
            }
            _ => ok = false,
        }
    }
    ok &= supported(store, t, &limit);
    ok.then(|| render(store, t, &display, true))
}

/// Whether `c_expr` writes `t` with its meaning: integer operators C has (division and
/// remainder by non-zero constants, written Euclidean), constants within `long long`.
fn supported(store: &TermStore, t: TermId, limit: &num_bigint::BigInt) -> bool {
    match &store.get(t).term {
        Term::Var(_) | Term::Bool(_) => true,
        Term::Int(i) => i.magnitude() <= limit.magnitude(),
        Term::Real(_) | Term::Quant(..) => false,
        Term::App(op, args) => {
            let known = match op {
                Op::Mod | Op::IntDiv => matches!(&store.get(args[1]).term,
                    Term::Int(k) if k.sign() != num_bigint::Sign::NoSign),
                Op::Not
                | Op::And
                | Op::Or
                | Op::Implies
                | Op::Xor
                | Op::Ite
                | Op::Eq
                | Op::Distinct
                | Op::Add
                | Op::Sub
                | Op::Neg
                | Op::Mul
                | Op::Le
                | Op::Lt
                | Op::Ge
                | Op::Gt => true,
                _ => false,
            };
            known && args.iter().all(|&a| supported(store, a, limit))
        }
    }
}

fn is_one(store: &TermStore, t: TermId) -> bool {
    matches!(&store.get(t).term, Term::Int(k) if *k == num_bigint::BigInt::from(1))
}

/// A term as a C expression (integer division and remainder are SMT-LIB's Euclidean ones,
/// which agree with C's on non-negative operands).
pub fn c_expr(store: &TermStore, t: TermId, names: &HashMap<VarId, String>) -> String {
    render(store, t, names, false)
}

/// [`c_expr`]; with `euclid`, a remainder by a constant `k` is written
/// `((a % |k|) + |k|) % |k|` and a quotient `(a - that) / |k|` (negated for `k < 0`): Euclidean
/// in C too.
fn render(store: &TermStore, t: TermId, names: &Names, euclid: bool) -> String {
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
            let a = |i: usize| render(store, args[i], names, euclid);
            match op {
                Op::Not => format!("!{}", a(0)),
                Op::And => join(store, args, " && ", names, euclid),
                Op::Or => join(store, args, " || ", names, euclid),
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
                            Term::App(Op::Neg, inner) => {
                                Some(render(store, inner[0], names, euclid))
                            }
                            Term::Int(i) if k > 0 && i.sign() == num_bigint::Sign::Minus => {
                                Some((-i).to_string())
                            }
                            _ => None,
                        };
                        match (k, negated) {
                            (0, Some(n)) => out.push_str(&format!("-{n}")),
                            (0, None) => out.push_str(&render(store, t, names, euclid)),
                            (_, Some(n)) => out.push_str(&format!(" - {n}")),
                            (_, None) => {
                                out.push_str(&format!(" + {}", render(store, t, names, euclid)))
                            }
                        }
                    }
                    out.push(')');
                    out
                }
                Op::Sub if args.len() == 1 => format!("(-{})", a(0)),
                Op::Sub => join(store, args, " - ", names, euclid),
                Op::Neg => format!("(-{})", a(0)),
                Op::Mul => join(store, args, " * ", names, euclid),
                Op::IntDiv | Op::Mod if euclid && is_one(store, args[1]) => match op {
                    Op::IntDiv => a(0),
                    _ => "0".to_owned(),
                },
                Op::IntDiv => match &store.get(args[1]).term {
                    // Euclidean: (a - a mod |k|) / |k|, negated for k < 0; the division is
                    // exact, so C's truncation does not matter.
                    Term::Int(k) if euclid && k.sign() != num_bigint::Sign::NoSign => {
                        let m = k.magnitude();
                        let x = a(0);
                        let q = format!("(({x} - ((({x} % {m}) + {m}) % {m})) / {m})");
                        match k.sign() {
                            num_bigint::Sign::Minus => format!("(-{q})"),
                            _ => q,
                        }
                    }
                    _ => format!("({} / {})", a(0), a(1)),
                },
                Op::RealDiv => format!("({} / {})", a(0), a(1)),
                Op::Mod => match &store.get(args[1]).term {
                    // Euclidean: the remainder by |k|, never negative.
                    Term::Int(k) if euclid && k.sign() != num_bigint::Sign::NoSign => {
                        let m = k.magnitude();
                        format!("((({} % {m}) + {m}) % {m})", a(0))
                    }
                    _ => format!("({} % {})", a(0), a(1)),
                },
                Op::Le => format!("({} <= {})", a(0), a(1)),
                Op::Lt => format!("({} < {})", a(0), a(1)),
                Op::Ge => format!("({} >= {})", a(0), a(1)),
                Op::Gt => format!("({} > {})", a(0), a(1)),
                Op::Abs => format!("abs({})", a(0)),
                Op::Select => format!("{}[{}]", a(0), a(1)),
                Op::Store => format!("store({}, {}, {})", a(0), a(1), a(2)),
                Op::ConstArray(_) => format!("const({})", a(0)),
                _ => format!("/* {op:?} */ 1"),
            }
        }
    }
}
