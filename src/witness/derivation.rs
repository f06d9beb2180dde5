//! Counterexample derivations: trees of ground clause instances ending in a query, their
//! printing, and their replay by ground evaluation.

use crate::chc::{ClauseId, Head, System};
use crate::term::{TermStore, Value, VarId};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// One ground clause instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivNode {
    /// The clause instantiated.
    pub clause: ClauseId,
    /// A value for every variable of the clause.
    pub assignment: BTreeMap<VarId, Value>,
    /// For each body atom of the clause, in order, the index of the node deriving it.
    pub children: Vec<usize>,
}

/// A derivation of `false`: nodes, each child before its parent, the last node the root (an
/// instance of a query clause).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derivation {
    /// The nodes; children always have smaller indices than their parent.
    pub nodes: Vec<DerivNode>,
}

/// Why a derivation does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// No nodes.
    #[error("empty derivation")]
    Empty,
    /// The root is not a query clause instance.
    #[error("the last step is not an instance of a query clause")]
    RootNotQuery,
    /// A node refers to a clause that does not exist.
    #[error("step {0} names a clause that does not exist")]
    NoSuchClause(usize),
    /// A child index is not smaller than its parent's.
    #[error("step {0} depends on a later or missing step")]
    BadChild(usize),
    /// Wrong number of children.
    #[error("step {0} has {1} premises, its clause has {2} body atoms")]
    Arity(usize, usize, usize),
    /// A premise derives a different predicate or different values.
    #[error("step {node}: premise {atom} does not match the fact derived by step {child}")]
    Mismatch {
        /// The parent step.
        node: usize,
        /// The body atom position.
        atom: usize,
        /// The child step.
        child: usize,
    },
    /// The constraint does not evaluate to true.
    #[error("step {0}: the clause constraint is false under the given values")]
    ConstraintFalse(usize),
    /// The constraint could not be evaluated.
    #[error("step {0}: {1}")]
    Eval(usize, String),
    /// The constraint divides by zero, whose value SMT-LIB leaves unspecified: the step holds
    /// for some interpretations of division at most, so it proves nothing. Not a bug of whoever
    /// found it (the SMT solver picks one interpretation).
    #[error(
        "step {0} divides by zero, whose value SMT-LIB leaves unspecified: the counterexample \
         holds for some interpretations of division only"
    )]
    Unspecified(usize),
    /// A value has the wrong sort.
    #[error("step {0}: the value of a variable has the wrong sort")]
    Sort(usize),
}

/// Replays a derivation: every step is an instance of its clause whose constraint evaluates to
/// true, whose premises are exactly the facts derived by its children, and the last step is a
/// query. Uses ground evaluation only.
pub fn replay_derivation(
    store: &TermStore,
    system: &System,
    d: &Derivation,
) -> Result<(), ReplayError> {
    let root = d.nodes.len().checked_sub(1).ok_or(ReplayError::Empty)?;
    for (i, n) in d.nodes.iter().enumerate() {
        if n.clause.0 as usize >= system.num_clauses() {
            return Err(ReplayError::NoSuchClause(i));
        }
        let c = system.clause(n.clause);
        if n.children.len() != c.body.len() {
            return Err(ReplayError::Arity(i, n.children.len(), c.body.len()));
        }
        let env: HashMap<VarId, Value> =
            n.assignment.iter().map(|(k, v)| (*k, v.clone())).collect();
        for (v, val) in &env {
            if !value_has_sort(store, val, &store.var_sort(*v)) {
                return Err(ReplayError::Sort(i));
            }
        }
        match store.eval(c.constraint, &env) {
            Ok(Value::Bool(true)) => {}
            Ok(_) => return Err(ReplayError::ConstraintFalse(i)),
            Err(crate::term::EvalError::DivisionByZero) => return Err(ReplayError::Unspecified(i)),
            Err(e) => return Err(ReplayError::Eval(i, e.to_string())),
        }
        for (j, (atom, &child)) in c.body.iter().zip(&n.children).enumerate() {
            if child >= i {
                return Err(ReplayError::BadChild(i));
            }
            let cn = &d.nodes[child];
            let Head::Atom(h) = &system.clause(cn.clause).head else {
                return Err(ReplayError::Mismatch {
                    node: i,
                    atom: j,
                    child,
                });
            };
            let same = h.pred == atom.pred
                && h.args.iter().zip(&atom.args).all(|(hv, bv)| {
                    matches!((cn.assignment.get(hv), env.get(bv)), (Some(x), Some(y)) if x == y)
                });
            if !same {
                return Err(ReplayError::Mismatch {
                    node: i,
                    atom: j,
                    child,
                });
            }
        }
    }
    if !system.clause(d.nodes[root].clause).is_query() {
        return Err(ReplayError::RootNotQuery);
    }
    Ok(())
}

fn value_has_sort(store: &TermStore, v: &Value, s: &crate::term::Sort) -> bool {
    use crate::term::Sort;
    match (v, s) {
        (Value::Bool(_), Sort::Bool)
        | (Value::Int(_), Sort::Int)
        | (Value::Real(_), Sort::Real) => true,
        (Value::Array(d, entries), Sort::Array(i, e)) => {
            value_has_sort(store, d, e)
                && entries
                    .iter()
                    .all(|(k, x)| value_has_sort(store, k, i) && value_has_sort(store, x, e))
        }
        (Value::Ctor(c, _, fields), Sort::Datatype(ds)) => {
            let decl = store.ctor(*c);
            decl.datatype == ds.id
                && decl.fields.len() == fields.len()
                && decl
                    .fields
                    .iter()
                    .zip(fields)
                    .all(|((_, fs), x)| value_has_sort(store, x, fs))
        }
        _ => false,
    }
}

impl Derivation {
    /// Human- and machine-readable text: one line per step, premises first, e.g.
    /// `(step 1 (inv 1 2) (clause 1) (from 0))`, ending with the `false` step.
    pub fn to_text(&self, store: &TermStore, system: &System) -> String {
        let mut out = String::from("(derivation\n");
        for (i, n) in self.nodes.iter().enumerate() {
            let c = system.clause(n.clause);
            let fact = match &c.head {
                Head::False => "false".to_string(),
                Head::Atom(a) => {
                    let name = crate::term::print::symbol(&system.pred(a.pred).name);
                    let vals: Vec<String> = a
                        .args
                        .iter()
                        .map(|v| {
                            n.assignment
                                .get(v)
                                .map_or("?".into(), |x| x.to_smtlib(&store.var_sort(*v)))
                        })
                        .collect();
                    if vals.is_empty() {
                        name
                    } else {
                        format!("({name} {})", vals.join(" "))
                    }
                }
            };
            let _ = write!(out, "  (step {i} {fact} (clause {})", n.clause.0);
            if !n.children.is_empty() {
                let from: Vec<String> = n.children.iter().map(|c| c.to_string()).collect();
                let _ = write!(out, " (from {})", from.join(" "));
            }
            out.push_str(")\n");
        }
        out.push_str(")\n");
        out
    }
}
