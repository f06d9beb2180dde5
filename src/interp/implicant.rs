//! Implicants: a conjunction of literals that implies a formula and holds in a given model.
//!
//! Duty: turn a quantifier-free formula with disjunctions, implications, Boolean `ite` and
//! arithmetic `ite` into a cube (conjunction of literals) that holds under a ground assignment
//! and implies the formula: at each disjunction the disjunct true in the assignment is taken,
//! each `ite` is resolved by its condition's value, disequalities become the strict inequality
//! that holds. Must not: call a solver, or return literals that are false in the assignment.

use crate::term::{Op, Sort, Term, TermId, TermStore, Value, VarId};
use std::collections::HashMap;

/// Literals, each true under `env`, whose conjunction implies `t`; `None` if `t` is false under
/// `env` or cannot be evaluated.
pub fn implicant(store: &TermStore, t: TermId, env: &HashMap<VarId, Value>) -> Option<Vec<TermId>> {
    let mut out = Vec::new();
    Walk { store, env }.lits(t, true, &mut out)?;
    out.sort();
    out.dedup();
    Some(out)
}

struct Walk<'a> {
    store: &'a TermStore,
    env: &'a HashMap<VarId, Value>,
}

impl Walk<'_> {
    fn truth(&self, t: TermId) -> Option<bool> {
        match self.store.eval(t, self.env).ok()? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Adds literals implying `t` (when `pol`) or `¬t` (otherwise); fails if that does not hold.
    fn lits(&self, t: TermId, pol: bool, out: &mut Vec<TermId>) -> Option<()> {
        let s = self.store;
        if self.truth(t)? != pol {
            return None;
        }
        let node = s.get(t);
        let Term::App(op, args) = &node.term else {
            if !matches!(node.term, Term::Bool(_)) {
                out.push(if pol { t } else { s.not(t) });
            }
            return Some(());
        };
        match op {
            Op::Not => self.lits(args[0], !pol, out),
            Op::And | Op::Or if (*op == Op::And) == pol => {
                for &a in args.iter() {
                    self.lits(a, pol, out)?;
                }
                Some(())
            }
            Op::And | Op::Or => {
                // pick one argument with the required value
                let a = args.iter().copied().find(|&a| self.truth(a) == Some(pol))?;
                self.lits(a, pol, out)
            }
            Op::Implies => {
                // a → b  ≡  ¬a ∨ b
                if pol {
                    if self.truth(args[0]) == Some(false) {
                        self.lits(args[0], false, out)
                    } else {
                        self.lits(args[1], true, out)
                    }
                } else {
                    self.lits(args[0], true, out)?;
                    self.lits(args[1], false, out)
                }
            }
            Op::Ite if node.sort == Sort::Bool => {
                let c = self.truth(args[0])?;
                self.lits(args[0], c, out)?;
                self.lits(if c { args[1] } else { args[2] }, pol, out)
            }
            Op::Eq | Op::Xor | Op::Distinct if s.sort(args[0]) == Sort::Bool && args.len() == 2 => {
                for &a in args.iter() {
                    let v = self.truth(a)?;
                    self.lits(a, v, out)?;
                }
                Some(())
            }
            Op::Distinct if args.len() == 2 => {
                let e = s.eq(args[0], args[1]);
                self.lits(e, !pol, out)
            }
            Op::Eq | Op::Le | Op::Lt | Op::Ge | Op::Gt
                if args.len() == 2 && s.sort(args[0]).is_arith() =>
            {
                let a = self.resolve(args[0], out)?;
                let b = self.resolve(args[1], out)?;
                let lit = match (op, pol) {
                    (Op::Eq, true) => s.eq(a, b),
                    (Op::Eq, false) => {
                        let va = s.eval(a, self.env).ok()?.as_rational()?;
                        let vb = s.eval(b, self.env).ok()?.as_rational()?;
                        if va < vb {
                            s.lt(a, b)
                        } else {
                            s.gt(a, b)
                        }
                    }
                    (op, true) => s.cmp(op.clone(), a, b),
                    (op, false) => s.not(s.cmp(op.clone(), a, b)),
                };
                if s.as_bool(lit).is_none() {
                    out.push(lit);
                }
                Some(())
            }
            _ => {
                out.push(if pol { t } else { s.not(t) });
                Some(())
            }
        }
    }

    /// The term with every `ite` replaced by the branch taken under `env` (conditions recorded).
    fn resolve(&self, t: TermId, out: &mut Vec<TermId>) -> Option<TermId> {
        let s = self.store;
        let node = s.get(t);
        match &node.term {
            Term::App(Op::Ite, args) => {
                let c = self.truth(args[0])?;
                self.lits(args[0], c, out)?;
                self.resolve(if c { args[1] } else { args[2] }, out)
            }
            Term::App(op, args) => {
                let new: Option<Vec<TermId>> = args.iter().map(|&a| self.resolve(a, out)).collect();
                let new = new?;
                if new[..] == args[..] {
                    Some(t)
                } else {
                    Some(s.app(op.clone(), new))
                }
            }
            _ => Some(t),
        }
    }
}
