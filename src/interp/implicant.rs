//! Implicants: a conjunction of literals that implies a formula and holds in a given model.
//!
//! Duty: turn a quantifier-free formula with disjunctions, implications, Boolean `ite` and
//! arithmetic `ite` into a cube (conjunction of literals) that holds under a ground assignment
//! and implies the formula: at each disjunction the disjunct true in the assignment is taken,
//! each `ite` is resolved by its condition's value, disequalities become the strict inequality
//! that holds. The walk visits each subterm once per polarity, so its work is linear in the
//! formula as a DAG (sally's transition relations share subterms at many levels, and a walk of
//! the tree they unfold to did not end in seconds). Must not: call a solver, or return literals
//! that are false in the assignment.

use crate::term::{Op, Sort, Term, TermId, TermStore, Value, VarId};
use std::collections::{HashMap, HashSet};

/// Literals, each true under `env`, whose conjunction implies `t`; `None` if `t` is false under
/// `env` or cannot be evaluated.
pub fn implicant(store: &TermStore, t: TermId, env: &HashMap<VarId, Value>) -> Option<Vec<TermId>> {
    walk(store, t, env).0
}

/// [`implicant`], and the number of subterm visits it took.
fn walk(store: &TermStore, t: TermId, env: &HashMap<VarId, Value>) -> (Option<Vec<TermId>>, usize) {
    let mut w = Walk {
        store,
        env,
        values: HashMap::new(),
        done: HashSet::new(),
        resolved: HashMap::new(),
        visits: 0,
    };
    let mut out = Vec::new();
    let found = w.lits(t, true, &mut out).map(|()| {
        out.sort();
        out.dedup();
        out
    });
    (found, w.visits)
}

/// One walk under one assignment. Each memo is exact: a subterm's value, the literals it adds
/// and the term it resolves to depend only on the subterm and the assignment, and a failure
/// anywhere fails the whole walk, so a second visit would add nothing new.
struct Walk<'a> {
    store: &'a TermStore,
    env: &'a HashMap<VarId, Value>,
    /// Values of the subterms evaluated so far.
    values: HashMap<TermId, Value>,
    /// The subterms, with their polarity, whose literals are in the output.
    done: HashSet<(TermId, bool)>,
    /// The subterms resolved so far, with their conditions' literals in the output.
    resolved: HashMap<TermId, TermId>,
    visits: usize,
}

impl Walk<'_> {
    fn value(&mut self, t: TermId) -> Option<Value> {
        self.store.eval_memo(t, self.env, &mut self.values).ok()
    }

    fn truth(&mut self, t: TermId) -> Option<bool> {
        match self.value(t)? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Adds literals implying `t` (when `pol`) or `¬t` (otherwise); fails if that does not hold.
    fn lits(&mut self, t: TermId, pol: bool, out: &mut Vec<TermId>) -> Option<()> {
        let s = self.store;
        if self.truth(t)? != pol {
            return None;
        }
        if !self.done.insert((t, pol)) {
            return Some(());
        }
        self.visits += 1;
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
                        let va = self.value(a)?.as_rational()?;
                        let vb = self.value(b)?.as_rational()?;
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
    fn resolve(&mut self, t: TermId, out: &mut Vec<TermId>) -> Option<TermId> {
        if let Some(&r) = self.resolved.get(&t) {
            return Some(r);
        }
        self.visits += 1;
        let s = self.store;
        let node = s.get(t);
        let r = match &node.term {
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
        }?;
        self.resolved.insert(t, r);
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subterms shared at every level (`b' = (b ∨ y > 5) ∧ (b ∨ y < 3)`, `a' = a + a`) are
    /// walked once each: the tree they unfold to has 2^depth leaves.
    #[test]
    fn shared_subterms_are_walked_once() {
        let s = TermStore::new();
        let (x, y) = (s.new_var("x", Sort::Int), s.new_var("y", Sort::Int));
        let (tx, ty) = (s.var(x), s.var(y));
        let zero = s.int(0);
        let x_pos = s.gt(tx, zero);
        let (mut a, mut b) = (s.ite(x_pos, tx, ty), x_pos);
        let depth = 16;
        for _ in 0..depth {
            a = s.add([a, a]);
            let (hi, lo) = (s.gt(ty, s.int(5)), s.lt(ty, s.int(3)));
            b = s.and([s.or([b, hi]), s.or([b, lo])]);
        }
        let f = s.and([b, s.gt(a, zero)]);
        let env = HashMap::from([(x, Value::Int(1.into())), (y, Value::Int(0.into()))]);
        let (cube, visits) = walk(&s, f, &env);
        let cube = cube.expect("f holds under env");
        assert!(cube.contains(&x_pos), "{cube:?}");
        for &l in &cube {
            assert_eq!(s.eval(l, &env), Ok(Value::Bool(true)));
        }
        assert!(visits <= 10 * depth, "{visits} visits");
    }
}
