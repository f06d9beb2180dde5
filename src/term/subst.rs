//! Structural traversals: substitution, the one-point rule, free variables, size and bottom-up
//! simplification.
//!
//! All traversals memoise on term ids, so shared subterms are visited once: a term that is a DAG
//! of n nodes costs O(n) however large its tree unfolding is.

use super::{Op, Sort, Term, TermId, TermStore, VarId};
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
        self.rebuild(t, &mut memo, &|_, term| match term {
            Term::Var(v) => map.get(v).copied(),
            _ => None,
        })
    }

    /// Rebuilds `t` bottom-up through the smart constructors, which folds constants and
    /// flattens connectives.
    pub fn simplify(&self, t: TermId) -> TermId {
        let mut memo = HashMap::new();
        self.rebuild(t, &mut memo, &|_, _| None)
    }

    /// `t` with the subterms that are keys of `map` replaced by their values (outermost first),
    /// rebuilt through the smart constructors.
    pub fn replace(&self, t: TermId, map: &HashMap<TermId, TermId>) -> TermId {
        if map.is_empty() {
            return t;
        }
        let mut memo = HashMap::new();
        self.rebuild(t, &mut memo, &|u, _| map.get(&u).copied())
    }

    /// Rebuilds `t` bottom-up through the smart constructors; a subterm for which `replaced`
    /// gives a term becomes that term (and is not entered).
    fn rebuild(
        &self,
        t: TermId,
        memo: &mut HashMap<TermId, TermId>,
        replaced: &dyn Fn(TermId, &Term) -> Option<TermId>,
    ) -> TermId {
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let node = self.get(t);
        let r = match (replaced(t, &node.term), &node.term) {
            (Some(r), _) => r,
            (None, Term::Var(_) | Term::Bool(_) | Term::Int(_) | Term::Real(_)) => t,
            (None, Term::App(op, args)) => {
                let new: Vec<TermId> = args
                    .iter()
                    .map(|&a| self.rebuild(a, memo, replaced))
                    .collect();
                self.app(op.clone(), new)
            }
            (None, Term::Quant(q, vars, body)) => {
                let b = self.rebuild(*body, memo, replaced);
                self.quant(*q, vars.to_vec(), b)
            }
        };
        memo.insert(t, r);
        r
    }

    /// `t` with the variables of `locals` that a conjunct of `t` defines replaced by their
    /// definitions (the one-point rule: `∃x. x = e ∧ φ` is `φ[e/x]` when `x` does not occur in
    /// `e`; a Boolean conjunct `x` or `¬x` defines `x` as `true` or `false`). The result is
    /// equivalent to `t` under `∃ locals`; the locals no conjunct defines stay free in it.
    pub fn eliminate_defined(&self, locals: &BTreeSet<VarId>, t: TermId) -> TermId {
        self.eliminate_defined_recorded(locals, t, &mut Vec::new())
    }

    /// [`TermStore::eliminate_defined`], recording the definitions it substituted, one map
    /// per round: a definition of round `k` may mention variables defined in later rounds (and
    /// no others that were eliminated), so evaluating the rounds last first gives every
    /// eliminated variable a value from the values of those left.
    pub fn eliminate_defined_recorded(
        &self,
        locals: &BTreeSet<VarId>,
        t: TermId,
        rounds: &mut Vec<HashMap<VarId, TermId>>,
    ) -> TermId {
        let mut t = t;
        loop {
            // Definitions applied together must not mention each other's variables.
            let mut map: HashMap<VarId, TermId> = HashMap::new();
            let mut mentioned: BTreeSet<VarId> = BTreeSet::new();
            for c in self.conjuncts(t) {
                let Some((x, e, vars)) = self.definition(c, |v| locals.contains(&v)) else {
                    continue;
                };
                if map.contains_key(&x)
                    || mentioned.contains(&x)
                    || vars.iter().any(|v| map.contains_key(v))
                {
                    continue;
                }
                mentioned.extend(vars);
                map.insert(x, e);
            }
            if map.is_empty() {
                return t;
            }
            t = self.substitute(t, &map);
            rounds.push(map);
        }
    }

    /// The first way conjunct `c` defines a variable that `may_define` accepts and that does
    /// not occur in its definition (`x = e` read both ways; `x` and `¬x` as `true` and
    /// `false`; `¬(x = e)` as `x = ¬e` over the Booleans): the variable, its definition and
    /// the definition's free variables.
    pub(crate) fn definition(
        &self,
        c: TermId,
        may_define: impl Fn(VarId) -> bool,
    ) -> Option<(VarId, TermId, BTreeSet<VarId>)> {
        let definable = |t: TermId| self.as_var(t).filter(|&v| may_define(v));
        let readings = match &self.get(c).term {
            Term::Var(v) if may_define(*v) => vec![(*v, self.bool(true))],
            Term::App(Op::Not, args) => match &self.get(args[0]).term {
                // `¬(x = e)` over the Booleans is `x = ¬e`.
                Term::App(Op::Eq, eq) if self.sort(eq[0]) == Sort::Bool => {
                    [(eq[0], eq[1]), (eq[1], eq[0])]
                        .into_iter()
                        .filter_map(|(a, e)| Some((definable(a)?, self.not(e))))
                        .collect()
                }
                _ => definable(args[0])
                    .map(|x| (x, self.bool(false)))
                    .into_iter()
                    .collect(),
            },
            Term::App(Op::Eq, args) => [(args[0], args[1]), (args[1], args[0])]
                .into_iter()
                .filter_map(|(a, e)| Some((definable(a)?, e)))
                .collect(),
            _ => Vec::new(),
        };
        readings.into_iter().find_map(|(x, e)| {
            let vars = self.free_vars(e);
            (!vars.contains(&x)).then_some((x, e, vars))
        })
    }

    /// `t` with each arithmetic variable of `locals` that occurs in `t` only as a side of one
    /// equality `x = e` (and not in `e`) replaced there by a new Boolean variable: under
    /// `∃ locals` that atom can take either truth value whatever the other variables are (`x`
    /// equal to `e` or not), so `∃x. φ[x = e]` is `∃b. φ[b]`, and the Boolean one-point rule
    /// ([`TermStore::eliminate_defined`]) can then remove `b` where `x` had no definition (the
    /// C-style flags `0 = x` of compiled programs). Returns the new term and each new variable
    /// with the atom it stands for.
    pub fn abstract_equalities(
        &self,
        locals: &BTreeSet<VarId>,
        t: TermId,
    ) -> (TermId, Vec<(VarId, TermId)>) {
        // Per local: the one equality atom it is a side of, or `None` once it occurs
        // anywhere else (or in a second atom). The other side is traversed too, so an `x`
        // inside it (`x = x + 1`) counts as an occurrence elsewhere.
        let mut atom: HashMap<VarId, Option<TermId>> = HashMap::new();
        let mut seen = HashSet::new();
        let mut stack = vec![t];
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            match &self.get(u).term {
                Term::Var(v) => {
                    atom.insert(*v, None);
                }
                Term::App(Op::Eq, args) => {
                    let side = [(args[0], args[1]), (args[1], args[0])]
                        .into_iter()
                        .find_map(|(a, e)| {
                            let x = self.as_var(a).filter(|x| locals.contains(x))?;
                            self.var_sort(x).is_arith().then_some((x, e))
                        });
                    match side {
                        Some((x, e)) => {
                            let entry = atom.entry(x).or_insert(Some(u));
                            if *entry != Some(u) {
                                *entry = None;
                            }
                            stack.push(e);
                        }
                        None => stack.extend(args.iter()),
                    }
                }
                Term::App(_, args) => stack.extend(args.iter()),
                Term::Quant(_, _, body) => stack.push(*body),
                _ => {}
            }
        }
        let mut abstracted: Vec<(VarId, TermId)> = atom
            .into_iter()
            .filter_map(|(x, a)| Some((x, a?)))
            .map(|(x, a)| {
                (
                    self.new_var(&format!("{}_eq", self.var_name(x)), Sort::Bool),
                    a,
                )
            })
            .collect();
        abstracted.sort();
        let map: HashMap<TermId, TermId> =
            abstracted.iter().map(|&(b, a)| (a, self.var(b))).collect();
        (self.replace(t, &map), abstracted)
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

    /// Whether `t` multiplies two terms that are not numbers (`k * k`): a formula beyond linear
    /// arithmetic, which the solver may fail to decide.
    pub fn is_nonlinear(&self, t: TermId) -> bool {
        self.visit_dag(t, |term| match term {
            Term::App(Op::Mul, args)
                if args
                    .iter()
                    .filter(|&&a| self.as_number(a).is_none())
                    .count()
                    >= 2 =>
            {
                ControlFlow::Break(())
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    #[test]
    fn the_one_point_rule_replaces_defined_locals() {
        let store = TermStore::new();
        let [x, y, z] = ["x", "y", "z"].map(|n| store.new_var(n, Sort::Int));
        let [b, c] = ["b", "c"].map(|n| store.new_var(n, Sort::Bool));
        let v = |x| store.var(x);
        // ∃x b c. x = y + 1 ∧ b ∧ ¬c ∧ (b ∨ c → x > z) is y + 1 > z.
        let t = store.and([
            store.eq(v(x), store.add([v(y), store.int(1)])),
            v(b),
            store.not(v(c)),
            store.implies(store.or([v(b), v(c)]), store.gt(v(x), v(z))),
        ]);
        let locals = [x, b, c].into_iter().collect();
        let want = store.gt(store.add([v(y), store.int(1)]), v(z));
        assert_eq!(store.eliminate_defined(&locals, t), want);
    }

    #[test]
    fn a_negated_boolean_equality_defines_by_the_negation() {
        let store = TermStore::new();
        let y = store.new_var("y", Sort::Int);
        let b = store.new_var("b", Sort::Bool);
        let v = |x| store.var(x);
        // ∃b. ¬(b = y > 0) ∧ (b → y < 5) is ¬(y > 0) → y < 5.
        let gt = store.gt(v(y), store.int(0));
        let lt = store.lt(v(y), store.int(5));
        let t = store.and([store.not(store.eq(v(b), gt)), store.implies(v(b), lt)]);
        let locals = [b].into_iter().collect();
        let want = store.implies(store.not(gt), lt);
        assert_eq!(store.eliminate_defined(&locals, t), want);
    }

    #[test]
    fn equalities_of_a_local_seen_nowhere_else_become_booleans() {
        let store = TermStore::new();
        let [f, g, h, y] = ["f", "g", "h", "y"].map(|n| store.new_var(n, Sort::Int));
        let v = |x| store.var(x);
        let zero = store.int(0);
        // f occurs only in 0 = f (twice, the same atom); g in 0 = g and g > y; h in two
        // different equalities; y is no local.
        let f0 = store.eq(zero, v(f));
        let t = store.and([
            store.eq(f0, store.gt(v(y), zero)),
            store.not(f0),
            store.eq(zero, v(g)),
            store.gt(v(g), v(y)),
            store.eq(v(h), zero),
            store.eq(v(h), v(y)),
            store.eq(v(y), zero),
        ]);
        let locals = [f, g, h].into_iter().collect();
        let (abstracted, flags) = store.abstract_equalities(&locals, t);
        assert_eq!(flags.len(), 1, "{flags:?}");
        let (b, atom) = flags[0];
        assert_eq!(atom, f0);
        assert_eq!(store.var_sort(b), Sort::Bool);
        let free = store.free_vars(abstracted);
        assert!(!free.contains(&f) && free.contains(&b));
        // Putting the atom back gives the term again.
        let back = store.substitute(abstracted, &[(b, atom)].into_iter().collect());
        assert_eq!(back, t);
        // And the flag is then defined away: ¬(y > 0) is left of it.
        let bools = [b].into_iter().collect();
        let left = store.free_vars(store.eliminate_defined(&bools, abstracted));
        assert!(!left.contains(&b), "{left:?}");
    }

    #[test]
    fn the_one_point_rule_keeps_what_no_conjunct_defines() {
        let store = TermStore::new();
        let [x, y, z] = ["x", "y", "z"].map(|n| store.new_var(n, Sort::Int));
        let v = |x| store.var(x);
        // x = y ∧ y = x defines one of them by the other; x = x + z defines nothing, and a
        // disjunct is no definition.
        let t = store.and([store.eq(v(x), v(y)), store.eq(v(y), v(x))]);
        let locals: BTreeSet<VarId> = [x, y].into_iter().collect();
        let left = store.free_vars(store.eliminate_defined(&locals, t));
        assert!(left.len() <= 1, "one of x, y remains at most: {left:?}");
        let t = store.and([
            store.eq(v(x), store.add([v(x), v(z)])),
            store.or([store.eq(v(y), v(z)), store.gt(v(y), v(z))]),
        ]);
        assert_eq!(store.eliminate_defined(&locals, t), t);
    }
}
