//! Structural traversals: substitution, free variables, size and bottom-up simplification.
//!
//! All traversals memoise on term ids, so shared subterms are visited once: a term that is a DAG
//! of n nodes costs O(n) however large its tree unfolding is.

use super::{Term, TermId, TermStore, VarId};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::ops::ControlFlow;

impl TermStore {
    /// Renames variables `from[i]` to `to[i]` (simultaneously): a predicate's interpretation
    /// over its parameters, read at an atom's arguments.
    pub fn rename(&self, t: TermId, from: &[VarId], to: &[VarId]) -> TermId {
        debug_assert_eq!(
            from.len(),
            to.len(),
            "renaming between lists of different lengths"
        );
        let map: HashMap<VarId, TermId> = from
            .iter()
            .zip(to)
            .map(|(x, y)| (*x, self.var(*y)))
            .collect();
        self.substitute(t, &map)
    }

    /// Replaces free variables by terms (simultaneously), rebuilding through the smart
    /// constructors. Bound variables are fresh by construction, so no capture can occur.
    pub fn substitute(&self, t: TermId, map: &HashMap<VarId, TermId>) -> TermId {
        if map.is_empty() {
            return t;
        }
        let mut memo = HashMap::new();
        self.rebuild(t, &mut memo, &|v| map.get(&v).copied())
    }

    /// Rebuilds `t` bottom-up through the smart constructors, which folds constants and
    /// flattens connectives.
    pub fn simplify(&self, t: TermId) -> TermId {
        let mut memo = HashMap::new();
        self.rebuild(t, &mut memo, &|_| None)
    }

    fn rebuild(
        &self,
        t: TermId,
        memo: &mut HashMap<TermId, TermId>,
        leaf: &dyn Fn(VarId) -> Option<TermId>,
    ) -> TermId {
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let node = self.get(t);
        let r = match &node.term {
            Term::Var(v) => leaf(*v).unwrap_or(t),
            Term::Bool(_) | Term::Int(_) | Term::Real(_) => t,
            Term::App(op, args) => {
                let new: Vec<TermId> = args.iter().map(|&a| self.rebuild(a, memo, leaf)).collect();
                self.app(op.clone(), new)
            }
            Term::Quant(q, vars, body) => {
                let b = self.rebuild(*body, memo, leaf);
                self.quant(*q, vars.to_vec(), b)
            }
        };
        memo.insert(t, r);
        r
    }

    /// The free variables of a term, in id order.
    pub fn free_vars(&self, t: TermId) -> BTreeSet<VarId> {
        let mut out = BTreeSet::new();
        let mut bound = BTreeSet::new();
        let mut seen = HashSet::new();
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            match &self.get(t).term {
                Term::Var(v) => {
                    out.insert(*v);
                }
                Term::App(_, args) => stack.extend(args.iter()),
                Term::Quant(_, vars, body) => {
                    bound.extend(vars.iter().copied());
                    stack.push(*body);
                }
                _ => {}
            }
        }
        // Bound variables are fresh and never occur free anywhere.
        out.retain(|v| !bound.contains(v));
        out
    }

    /// The number of distinct subterms (DAG size) of a term.
    pub fn dag_size(&self, t: TermId) -> usize {
        let mut n = 0;
        let _ = self.visit_dag(t, |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Whether a quantifier occurs in `t`.
    pub fn has_quantifier(&self, t: TermId) -> bool {
        self.visit_dag(t, |term| match term {
            Term::Quant(..) => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        })
        .is_break()
    }

    /// Calls `f` once on every distinct subterm of `t` (quantifier bodies included) until it
    /// breaks.
    fn visit_dag(&self, t: TermId, mut f: impl FnMut(&Term) -> ControlFlow<()>) -> ControlFlow<()> {
        let mut seen = HashSet::new();
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            let node = self.get(t);
            f(&node.term)?;
            match &node.term {
                Term::App(_, args) => stack.extend(args.iter()),
                Term::Quant(_, _, body) => stack.push(*body),
                _ => {}
            }
        }
        ControlFlow::Continue(())
    }
}
