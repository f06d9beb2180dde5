//! Weakening of a lemma set along one clause: counterexample-driven (Alg. 1 and its abstract
//! postcondition variant, Sec. 3.1) and syntactic (Sec. 6.1).
//!
//! Duty: given the lemmas of the head predicate's candidate and one clause into it, return which
//! lemmas to keep so that the clause holds: `fixed ∧ ⋀ kept(self atoms) → ⋀ kept(head)`. Lemmas
//! are guarded by selector literals on one incremental solver; each counterexample to induction
//! drops the kept lemmas its head copy falsifies. When the head predicate also occurs in the
//! body (a loop), the body copies are guarded by the same selectors, so the result is the
//! strongest inductive subset; otherwise it is the strongest abstract postcondition in the
//! lattice of weakenings.
//!
//! Must not: change lemmas (only select them), or know about the iteration order.

use crate::clock::Deadline;
use crate::smt::{SatResult, Smt};
use crate::term::{Op, Sort, Term, TermId, TermStore, Value, VarId};
use std::collections::{BTreeSet, HashMap, HashSet};

/// One weakening problem: keep a subset of `lemmas` (over `params`) such that
/// `fixed ∧ ⋀ kept[params/self_args[k]] → ⋀ kept[params/head_args]` is valid.
pub struct Problem<'a> {
    /// The clause constraint and the candidates of body atoms of other predicates.
    pub fixed: TermId,
    /// Arguments of body atoms of the head predicate itself (lemmas are assumed there too).
    pub self_args: Vec<&'a [VarId]>,
    /// Arguments of the head atom.
    pub head_args: &'a [VarId],
    /// The head predicate's parameters, over which the lemmas are written.
    pub params: &'a [VarId],
    /// The candidate lemmas.
    pub lemmas: &'a [TermId],
}

/// The outcome of a weakening.
pub struct Outcome {
    /// Per lemma: kept.
    pub keep: Vec<bool>,
    /// SMT checks made.
    pub calls: u64,
}

fn renaming(store: &TermStore, params: &[VarId], args: &[VarId]) -> HashMap<VarId, TermId> {
    params
        .iter()
        .zip(args)
        .map(|(p, a)| (*p, store.var(*a)))
        .collect()
}

/// Alg. 1 (counterexample-driven weakening); `Err` when the solver gives up.
pub fn by_counterexamples(
    store: &TermStore,
    deadline: Deadline,
    pb: &Problem<'_>,
) -> Result<Outcome, String> {
    let n = pb.lemmas.len();
    let mut keep = vec![true; n];
    if n == 0 {
        return Ok(Outcome { keep, calls: 0 });
    }
    let mut smt = Smt::new(store, deadline);
    let selectors: Vec<TermId> = (0..n)
        .map(|_| store.var(store.new_var("slice!sel", Sort::Bool)))
        .collect();
    smt.assert(pb.fixed);
    for args in &pb.self_args {
        let map = renaming(store, pb.params, args);
        for (l, s) in pb.lemmas.iter().zip(&selectors) {
            smt.assert(store.or([*s, store.substitute(*l, &map)]));
        }
    }
    let map = renaming(store, pb.params, pb.head_args);
    let heads: Vec<TermId> = pb
        .lemmas
        .iter()
        .map(|l| store.substitute(*l, &map))
        .collect();
    // ¬ ⋀ (s_i ∨ l_i')  ==  ⋁ (¬s_i ∧ ¬l_i')
    let violated = store.or(heads
        .iter()
        .zip(&selectors)
        .map(|(h, s)| store.and([store.not(*s), store.not(*h)])));
    smt.assert(violated);
    let head_vars: BTreeSet<VarId> = heads.iter().flat_map(|h| store.free_vars(*h)).collect();
    let mut calls = 0;
    loop {
        let assumptions: Vec<TermId> = selectors
            .iter()
            .zip(&keep)
            .map(|(s, k)| if *k { store.not(*s) } else { *s })
            .collect();
        calls += 1;
        match smt.check_assuming(&assumptions) {
            SatResult::Unsat => return Ok(Outcome { keep, calls }),
            SatResult::Unknown(r) => return Err(r),
            SatResult::Sat => {}
        }
        let env: HashMap<VarId, Value> = smt
            .values(head_vars.iter().copied())
            .ok_or("weakening: no model")?
            .into_iter()
            .collect();
        let mut dropped = 0;
        let mut undecided = Vec::new();
        for i in 0..n {
            if !keep[i] {
                continue;
            }
            match store.eval(heads[i], &env) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => {
                    keep[i] = false;
                    dropped += 1;
                }
                _ => undecided.push(i),
            }
        }
        if dropped == 0 {
            // Evaluation could not decide (division by zero, arrays): dropping the undecided
            // lemmas is still a weakening, hence sound.
            if undecided.is_empty() {
                return Err("weakening: a counterexample falsifies no lemma".into());
            }
            for i in undecided {
                keep[i] = false;
            }
        }
    }
}

/// Syntactic weakening (Sec. 6.1): a lemma is kept when some body atom's candidate contains
/// it, renamed through arguments the clause passes unchanged (a top-level conjunct
/// `head_arg = body_arg`). No SMT call. `bodies` pairs each body atom's arguments with its
/// predicate's parameters and candidate lemmas.
pub fn syntactic(
    store: &TermStore,
    constraint: TermId,
    pb: &Problem<'_>,
    bodies: &[(&[VarId], &[VarId], &[TermId])],
) -> Outcome {
    // Pairs of variables equated by the constraint.
    let mut equal: HashSet<(VarId, VarId)> = HashSet::new();
    for c in store.conjuncts(constraint) {
        if let Term::App(Op::Eq, args) = &store.get(c).term {
            if let (Some(a), Some(b)) = (store.as_var(args[0]), store.as_var(args[1])) {
                equal.insert((a, b));
                equal.insert((b, a));
            }
        }
    }
    let keep = pb
        .lemmas
        .iter()
        .map(|&l| {
            let vars = store.free_vars(l);
            bodies.iter().any(|(args, params, lemmas)| {
                let mut map = HashMap::new();
                for v in &vars {
                    let Some(j) = pb.params.iter().position(|p| p == v) else {
                        return false;
                    };
                    let h = pb.head_args[j];
                    let Some(k) = args.iter().position(|a| equal.contains(&(h, *a))) else {
                        return false;
                    };
                    map.insert(*v, store.var(params[k]));
                }
                lemmas.contains(&store.substitute(l, &map))
            })
        })
        .collect();
    Outcome { keep, calls: 0 }
}
