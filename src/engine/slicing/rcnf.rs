//! Relaxed conjunctive normal form (Sec. 4 of the formula slicing paper): a formula becomes a
//! conjunction of quantifier-free *lemmas*, the atoms of the lattice of weakenings.
//!
//! Duty: negation normal form over canonical literals, flattening of nested conjunctions,
//! factorisation of common conjuncts out of disjunctions, explicit expansion of a disjunction of
//! conjunctions into a conjunction of disjunctions (only at depth one and under a size limit),
//! and the inverse cosmetic rewrite of literals for printing ([`pretty`]).
//!
//! Must not: change the meaning of a formula (the conjunction of the lemmas is equivalent to the
//! input), call the SMT layer, or know about clauses and predicates.

use crate::term::{Op, Sort, Term, TermId, TermStore};
use std::collections::{HashMap, HashSet};

/// A disjunction is expanded only when it yields at most this many lemmas.
pub const MAX_EXPANSION: usize = 32;

/// Converts `t` to relaxed CNF: lemmas whose conjunction is equivalent to `t`, without `true`
/// lemmas or duplicates. `false` is the single lemma `false`.
pub fn rcnf(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut cx = Rcnf {
        store,
        nnf_memo: HashMap::new(),
        memo: HashMap::new(),
    };
    let n = cx.nnf(t, true);
    let lemmas = cx.lemmas(n, true);
    if lemmas.contains(&store.ff()) {
        return vec![store.ff()];
    }
    lemmas
}

/// Relaxed CNF of a disjunction of lemma sets (each set read as a conjunction).
pub fn rcnf_of_disjunction(store: &TermStore, sets: &[Vec<TermId>]) -> Vec<TermId> {
    let disj = store.or(sets.iter().map(|s| store.and(s.iter().copied())));
    rcnf(store, disj)
}

struct Rcnf<'s> {
    store: &'s TermStore,
    nnf_memo: HashMap<(TermId, bool), TermId>,
    memo: HashMap<(TermId, bool), Vec<TermId>>,
}

impl Rcnf<'_> {
    /// Negation normal form of `t` (of `¬t` when `!pos`), with arithmetic comparisons turned
    /// into canonical literals: `a <= b`, its negation, `a = b` and its negation. Canonical
    /// literals make complementary pairs (`x >= 0`, `x < 0`) syntactically complementary, so
    /// the store folds the tautologies explicit expansion creates.
    fn nnf(&mut self, t: TermId, pos: bool) -> TermId {
        if let Some(&r) = self.nnf_memo.get(&(t, pos)) {
            return r;
        }
        let s = self.store;
        let node = s.get(t);
        let r = match &node.term {
            Term::Bool(b) => s.bool(*b == pos),
            Term::App(op, args) => match op {
                Op::Not => self.nnf(args[0], !pos),
                Op::And | Op::Or => {
                    let parts: Vec<TermId> = args.iter().map(|&a| self.nnf(a, pos)).collect();
                    if (*op == Op::And) == pos {
                        s.and(parts)
                    } else {
                        s.or(parts)
                    }
                }
                Op::Implies if args.len() == 2 => {
                    let d = s.or([s.not(args[0]), args[1]]);
                    self.nnf(d, pos)
                }
                Op::Ite if node.sort == Sort::Bool => {
                    let (c, a, b) = (args[0], args[1], args[2]);
                    let (nc, pc) = (self.nnf(c, false), self.nnf(c, true));
                    let (a, b) = (self.nnf(a, pos), self.nnf(b, pos));
                    s.and([s.or([nc, a]), s.or([pc, b])])
                }
                Op::Eq if args.len() == 2 && s.sort(args[0]) == Sort::Bool => {
                    self.iff(args[0], args[1], pos)
                }
                Op::Xor if args.len() == 2 => self.iff(args[0], args[1], !pos),
                Op::Distinct if args.len() == 2 && s.sort(args[0]) != Sort::Bool => {
                    let e = s.eq(args[0], args[1]);
                    self.literal(e, !pos)
                }
                Op::Le | Op::Lt | Op::Ge | Op::Gt if args.len() == 2 => {
                    let (a, b) = (args[0], args[1]);
                    // a < b == ¬(b <= a); a >= b == b <= a; a > b == ¬(a <= b)
                    let (atom, sign) = match op {
                        Op::Le => (s.le(a, b), true),
                        Op::Ge => (s.le(b, a), true),
                        Op::Lt => (s.le(b, a), false),
                        _ => (s.le(a, b), false),
                    };
                    self.literal(atom, sign == pos)
                }
                _ => self.literal(t, pos),
            },
            _ => self.literal(t, pos),
        };
        self.nnf_memo.insert((t, pos), r);
        r
    }

    fn literal(&self, atom: TermId, pos: bool) -> TermId {
        if pos {
            atom
        } else {
            self.store.not(atom)
        }
    }

    /// `a ⇔ b` (or its negation) as a conjunction of two clauses.
    fn iff(&mut self, a: TermId, b: TermId, pos: bool) -> TermId {
        let s = self.store;
        let (pa, na) = (self.nnf(a, true), self.nnf(a, false));
        let (pb, nb) = (self.nnf(b, true), self.nnf(b, false));
        if pos {
            s.and([s.or([na, pb]), s.or([pa, nb])])
        } else {
            s.and([s.or([pa, pb]), s.or([na, nb])])
        }
    }

    /// The lemmas of an NNF term. `expand`: explicit expansion is allowed here (only for
    /// disjunctions that are not inside another disjunction: depth one).
    fn lemmas(&mut self, t: TermId, expand: bool) -> Vec<TermId> {
        if let Some(r) = self.memo.get(&(t, expand)) {
            return r.clone();
        }
        let s = self.store;
        let node = s.get(t);
        let r = match &node.term {
            Term::Bool(true) => Vec::new(),
            Term::App(Op::And, args) => {
                let mut out = Vec::new();
                for &a in args.iter() {
                    out.extend(self.lemmas(a, expand));
                }
                dedup(out)
            }
            Term::App(Op::Or, args) => {
                let parts: Vec<Vec<TermId>> = args.iter().map(|&a| self.lemmas(a, false)).collect();
                self.disjunction(parts, expand)
            }
            _ => vec![t],
        };
        self.memo.insert((t, expand), r.clone());
        r
    }

    /// Factorisation, then explicit expansion or a single grouped lemma.
    fn disjunction(&self, parts: Vec<Vec<TermId>>, expand: bool) -> Vec<TermId> {
        let s = self.store;
        if parts.iter().any(|p| p.is_empty()) {
            return Vec::new(); // one disjunct is `true`
        }
        let sets: Vec<HashSet<TermId>> =
            parts.iter().map(|p| p.iter().copied().collect()).collect();
        let common: Vec<TermId> = parts[0]
            .iter()
            .copied()
            .filter(|l| sets.iter().all(|set| set.contains(l)))
            .collect();
        let cs: HashSet<TermId> = common.iter().copied().collect();
        let rests: Vec<Vec<TermId>> = parts
            .iter()
            .map(|p| p.iter().copied().filter(|l| !cs.contains(l)).collect())
            .collect();
        let mut out = common;
        if rests.iter().any(|r| r.is_empty()) {
            return out; // (c ∧ a) ∨ c  ==  c
        }
        let product = rests
            .iter()
            .try_fold(1usize, |acc, r| acc.checked_mul(r.len()))
            .unwrap_or(usize::MAX);
        if expand && product <= MAX_EXPANSION {
            let mut picks: Vec<Vec<TermId>> = vec![Vec::new()];
            for r in &rests {
                picks = picks
                    .iter()
                    .flat_map(|p| {
                        r.iter().map(move |&l| {
                            let mut q = p.clone();
                            q.push(l);
                            q
                        })
                    })
                    .collect();
            }
            for p in picks {
                let d = s.or(p);
                if s.as_bool(d) != Some(true) {
                    out.push(d);
                }
            }
        } else {
            out.push(s.or(rests.iter().map(|r| s.and(r.iter().copied()))));
        }
        dedup(out)
    }
}

fn dedup(v: Vec<TermId>) -> Vec<TermId> {
    let mut seen = HashSet::new();
    v.into_iter().filter(|t| seen.insert(*t)).collect()
}

/// Rewrites canonical literals back into the usual comparison forms for printing:
/// `¬(a <= b)` becomes `a > b`, `n <= a` (numeral `n`) becomes `a >= n`. Equivalent to `t`.
pub fn pretty(store: &TermStore, t: TermId) -> TermId {
    let mut memo = HashMap::new();
    pretty_rec(store, t, &mut memo)
}

fn pretty_rec(store: &TermStore, t: TermId, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let node = store.get(t);
    let r = match &node.term {
        Term::App(Op::Not, args) => match &store.get(args[0]).term {
            // ¬(n <= a)  ==  a < n
            Term::App(Op::Le, lb) if store.as_number(lb[0]).is_some() => store.lt(lb[1], lb[0]),
            Term::App(Op::Le, lb) => store.gt(lb[0], lb[1]),
            _ => store.not(pretty_rec(store, args[0], memo)),
        },
        Term::App(Op::Le, args) if store.as_number(args[0]).is_some() => store.ge(args[1], args[0]),
        // numerals to the right of equalities (bypassing the store's canonical argument order)
        Term::App(Op::Eq, args)
            if store.as_number(args[0]).is_some() && store.as_number(args[1]).is_none() =>
        {
            store.intern(Term::App(Op::Eq, Box::new([args[1], args[0]])))
        }
        Term::App(op, args) if matches!(op, Op::And | Op::Or) => {
            let new: Vec<TermId> = args.iter().map(|&a| pretty_rec(store, a, memo)).collect();
            store.app(op.clone(), new)
        }
        _ => t,
    };
    memo.insert(t, r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorises_and_expands() {
        let s = TermStore::new();
        let [a, b, c, d] = ["a", "b", "c", "d"].map(|n| s.var(s.new_var(n, Sort::Bool)));
        // (a ∧ b) ∨ (b ∧ c)  ->  b ∧ (a ∨ c)
        let f = s.or([s.and([a, b]), s.and([b, c])]);
        assert_eq!(rcnf(&s, f), vec![b, s.or([a, c])]);
        // (a ∧ b) ∨ (c ∧ d)  ->  four clauses
        let g = s.or([s.and([a, b]), s.and([c, d])]);
        assert_eq!(rcnf(&s, g).len(), 4);
        // e ∨ (f ∧ ((a ∧ b) ∨ (c ∧ d))): the outer disjunction is expanded, the nested one
        // is not (depth one): e ∨ f, e ∨ ((a ∧ b) ∨ (c ∧ d))
        let [e, f] = ["e", "f"].map(|n| s.var(s.new_var(n, Sort::Bool)));
        let inner = s.or([s.and([a, b]), s.and([c, d])]);
        let h = s.or([e, s.and([f, inner])]);
        assert_eq!(rcnf(&s, h), vec![s.or([e, f]), s.or([e, inner])]);
    }

    #[test]
    fn complementary_comparisons_fold() {
        let s = TermStore::new();
        let x = s.var(s.new_var("x", Sort::Int));
        let p = s.var(s.new_var("p", Sort::Int));
        let zero = s.int(0);
        let pnz = s.not(s.eq(p, zero));
        let f = s.or([
            s.and([pnz, s.ge(x, zero)]),
            s.and([s.eq(p, zero), s.lt(x, zero)]),
        ]);
        let l = rcnf(&s, f);
        assert_eq!(
            l.len(),
            2,
            "tautologies p=0 ∨ p≠0 and x>=0 ∨ x<0 are dropped: {l:?}"
        );
    }
}
