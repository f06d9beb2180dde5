//! Candidate lemmas over datatype arguments: which constructor a field holds, which fields and
//! arguments are equal, and two-literal disjunctions of those facts (`x = nil → z = y`,
//! `b ∨ x ≠ y`), each kept when every sampled state satisfies it.
//!
//! Duty: propose the shallow shape facts that recursive-list and tree predicates need (the kind
//! Spacer's ADT models are made of) from the samples alone. Every atom is guarded by the
//! testers of the selectors it reads (`is-cons x ∧ is-nil (tail x)`), so it has one value on
//! every state and in every model, whatever SMT-LIB leaves a selector of the wrong constructor
//! to mean. Atoms and pairs that hold by construction (`x ≠ tail x`, `is-nil x ∨ ¬(is-cons x ∧
//! ..)`) are not proposed: they would only crowd out the others. Must not: check inductiveness
//! (that is [`super::houdini`]'s job), look at clauses, or grow past its caps (a predicate with
//! many datatype arguments gets the shallow terms only).

use crate::term::{CtorId, Op, Sort, TermId, TermStore, Value, VarId};
use std::collections::HashSet;

/// Deepest selector chain read (`tail (tail x)` is depth 2; a tester on it sees depth 3).
const MAX_DEPTH: usize = 2;

/// Most terms (arguments and fields) one predicate's atoms are built from.
const MAX_TERMS: usize = 24;

/// Most atoms per predicate.
const MAX_ATOMS: usize = 48;

/// Most candidates per predicate (single literals first, then pairs in atom order, shallow
/// atoms first).
const MAX_CANDIDATES: usize = 400;

/// A constructor test `(term, ctor)`: the term is built by `ctor`.
type Test = (TermId, CtorId);

/// A term over the parameters with the testers that make its selectors well defined.
struct Path {
    term: TermId,
    /// The tests on the terms it is a field of, outermost first.
    guard: Vec<Test>,
    sort: Sort,
    depth: usize,
}

/// A Boolean fact over the parameters.
struct Atom {
    term: TermId,
    /// What the atom being true says about constructors (its guard, and its own test).
    tests: Vec<Test>,
    /// What the atom being false says: for an unguarded test on a two-constructor type, the
    /// other constructor.
    negated: Vec<Test>,
    depth: usize,
}

/// The shape candidates of one predicate (`params`) that hold on every state of `states`;
/// none without states or without a datatype argument.
pub fn shapes(store: &TermStore, params: &[VarId], states: &[Vec<Value>]) -> Vec<TermId> {
    let has_datatype = params
        .iter()
        .any(|&p| matches!(store.var_sort(p), Sort::Datatype(_)));
    if states.is_empty() || !has_datatype {
        return Vec::new();
    }
    let envs = super::environments(params, states);
    // Each atom's value on every state; an atom some state cannot evaluate is dropped.
    let columns: Vec<(Atom, Vec<bool>)> = atoms(store, &paths(store, params))
        .into_iter()
        .filter_map(|a| {
            let col: Option<Vec<bool>> = envs
                .iter()
                .map(|env| match store.eval(a.term, env) {
                    Ok(Value::Bool(b)) => Some(b),
                    _ => None,
                })
                .collect();
            Some((a, col?))
        })
        .collect();
    let mut out = Vec::new();
    // Literals (atom, polarity) that are not constant on the samples pair up; constant ones are
    // candidates alone.
    let mut open: Vec<(&Atom, &[bool], bool)> = Vec::new();
    for (a, col) in &columns {
        if col.iter().all(|&b| b) {
            out.push(a.term);
        } else if col.iter().all(|&b| !b) {
            out.push(store.not(a.term));
        } else {
            open.push((a, col, true));
            open.push((a, col, false));
        }
    }
    let lit = |a: &Atom, pos: bool| if pos { a.term } else { store.not(a.term) };
    'pairs: for i in 0..open.len() {
        for j in i + 1..open.len() {
            if out.len() >= MAX_CANDIDATES {
                break 'pairs;
            }
            let (a, ca, pa) = open[i];
            let (b, cb, pb) = open[j];
            if a.term == b.term || tautology(a, pa, b, pb) {
                continue;
            }
            if ca.iter().zip(cb).all(|(&x, &y)| x == pa || y == pb) {
                out.push(store.or([lit(a, pa), lit(b, pb)]));
            }
        }
    }
    out
}

/// Whether `a ∨ b` (with polarities) holds by construction: the tests its negation makes
/// (`¬a ∧ ¬b`) give one term two constructors.
fn tautology(a: &Atom, pa: bool, b: &Atom, pb: bool) -> bool {
    fn tests_of_negation(x: &Atom, pos: bool) -> &[Test] {
        if pos {
            &x.negated
        } else {
            &x.tests
        }
    }
    let na = tests_of_negation(a, pa);
    let nb = tests_of_negation(b, pb);
    na.iter()
        .any(|&(t, c)| nb.iter().any(|&(u, d)| t == u && c != d))
}

/// The parameters and their selector chains up to [`MAX_DEPTH`], breadth first, at most
/// [`MAX_TERMS`] of them; parameters of every sort come first (an Int argument equal to a list's
/// head is a fact too).
fn paths(store: &TermStore, params: &[VarId]) -> Vec<Path> {
    let mut out: Vec<Path> = params
        .iter()
        .map(|&p| Path {
            term: store.var(p),
            guard: Vec::new(),
            sort: store.var_sort(p),
            depth: 0,
        })
        .collect();
    let mut next = 0;
    while next < out.len() && out.len() < MAX_TERMS {
        let (term, depth, sort) = (out[next].term, out[next].depth, out[next].sort.clone());
        let guard = out[next].guard.clone();
        next += 1;
        let Sort::Datatype(d) = sort else { continue };
        if depth >= MAX_DEPTH {
            continue;
        }
        for c in store.datatype(d.id).ctors {
            for (i, (_, field)) in store.ctor(c).fields.iter().enumerate() {
                if out.len() >= MAX_TERMS {
                    return out;
                }
                let mut g = guard.clone();
                g.push((term, c));
                out.push(Path {
                    term: store.app(Op::Selector(c, i as u32), vec![term]),
                    guard: g,
                    sort: field.clone(),
                    depth: depth + 1,
                });
            }
        }
    }
    out
}

/// Tester atoms on every datatype term, equalities between terms of one sort (not two Int or
/// Real arguments: the linear candidates cover those; not a term and one of its own fields,
/// which differ by construction) and Boolean arguments, shallow first, at most [`MAX_ATOMS`].
fn atoms(store: &TermStore, paths: &[Path]) -> Vec<Atom> {
    let guarded = |tests: &[Test], atom: TermId| {
        let mut parts: Vec<TermId> = tests
            .iter()
            .map(|&(t, c)| store.app(Op::Tester(c), vec![t]))
            .collect();
        parts.push(atom);
        store.and(parts)
    };
    let mut out = Vec::new();
    for p in paths {
        match &p.sort {
            Sort::Bool if p.depth == 0 => out.push(Atom {
                term: p.term,
                tests: Vec::new(),
                negated: Vec::new(),
                depth: 0,
            }),
            Sort::Datatype(d) => {
                let ctors = store.datatype(d.id).ctors;
                // Unguarded, one test of a two-constructor type is the other's negation.
                let two = p.guard.is_empty() && ctors.len() == 2;
                let n = ctors.len() - usize::from(two);
                for (k, &c) in ctors[..n].iter().enumerate() {
                    let mut tests = p.guard.clone();
                    tests.push((p.term, c));
                    out.push(Atom {
                        term: guarded(&p.guard, store.app(Op::Tester(c), vec![p.term])),
                        tests,
                        negated: if two {
                            vec![(p.term, ctors[1 - k])]
                        } else {
                            Vec::new()
                        },
                        depth: p.depth,
                    });
                }
            }
            _ => {}
        }
    }
    let inside = |p: &Path, q: &Path| q.guard.iter().any(|&(t, _)| t == p.term);
    for (i, p) in paths.iter().enumerate() {
        for q in &paths[i + 1..] {
            if p.sort != q.sort
                || (p.sort.is_arith() && p.depth == 0 && q.depth == 0)
                || matches!(p.sort, Sort::Array(..))
                || inside(p, q)
                || inside(q, p)
            {
                continue;
            }
            let mut tests = p.guard.clone();
            for t in &q.guard {
                if !tests.contains(t) {
                    tests.push(*t);
                }
            }
            out.push(Atom {
                term: guarded(&tests, store.eq(p.term, q.term)),
                tests,
                negated: Vec::new(),
                depth: p.depth.max(q.depth),
            });
        }
    }
    // Shallow first (stable: declaration order within a depth).
    out.sort_by_key(|a| a.depth);
    let mut seen = HashSet::new();
    out.into_iter()
        .filter(|a| seen.insert(a.term))
        .take(MAX_ATOMS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Value;
    use std::collections::HashMap;

    /// A store with `L = nil | cons(hd: Int, tl: L)`; its sort and constructors.
    fn lists() -> (TermStore, Sort, CtorId, CtorId) {
        let store = TermStore::new();
        let sort = store.declare_datatypes(&["L"]).remove(0);
        let Sort::Datatype(d) = &sort else {
            unreachable!()
        };
        let nil = store.add_constructor(d.id, "nil", vec![]);
        let fields = vec![
            ("hd".to_string(), Sort::Int),
            ("tl".to_string(), sort.clone()),
        ];
        let cons = store.add_constructor(d.id, "cons", fields);
        (store, sort, nil, cons)
    }

    fn list(nil: CtorId, cons: CtorId, xs: &[i64]) -> Value {
        xs.iter()
            .rev()
            .fold(Value::Ctor(nil, "nil".into(), vec![]), |t, &x| {
                Value::Ctor(cons, "cons".into(), vec![Value::Int(x.into()), t])
            })
    }

    #[test]
    fn an_implication_between_shapes_is_proposed_and_tautologies_are_not() {
        let (store, sort, nil, cons) = lists();
        let (l, r) = (store.new_var("l", sort.clone()), store.new_var("r", sort));
        // rot(l, r): a one-element l comes back unchanged; longer ones do not.
        let states: Vec<Vec<Value>> = [
            (&[][..], &[][..]),
            (&[4], &[4]),
            (&[1, 2], &[2, 1]),
            (&[7], &[7]),
            (&[1, 2, 3], &[2, 3, 1]),
        ]
        .iter()
        .map(|(a, b)| vec![list(nil, cons, a), list(nil, cons, b)])
        .collect();
        let found = shapes(&store, &[l, r], &states);
        let printed: Vec<String> = found
            .iter()
            .map(|&t| store.display(t).to_string())
            .collect();
        let want = "(or (= l r) (not (and ((_ is cons) l) ((_ is nil) (tl l)))))";
        assert!(printed.iter().any(|p| p == want), "{printed:#?}");
        // Every candidate holds on every state.
        for &t in &found {
            for s in &states {
                let env: HashMap<VarId, Value> =
                    [l, r].into_iter().zip(s.iter().cloned()).collect();
                assert_eq!(
                    store.eval(t, &env),
                    Ok(Value::Bool(true)),
                    "{}",
                    store.display(t)
                );
            }
        }
        // No candidate that holds by construction: a list is not its own tail, and a list
        // that is nil is not a cons.
        assert!(
            !printed.iter().any(|p| p.contains("(= l (tl l))")),
            "{printed:#?}"
        );
        let nil_or_cons = "(or (not ((_ is nil) l)) (not (and ((_ is cons) l)";
        assert!(
            !printed.iter().any(|p| p.starts_with(nil_or_cons)),
            "{printed:#?}"
        );
    }

    #[test]
    fn nothing_without_states_or_datatypes() {
        let (store, sort, nil, _) = lists();
        let l = store.new_var("l", sort);
        assert!(shapes(&store, &[l], &[]).is_empty());
        let n = store.new_var("n", Sort::Int);
        assert!(shapes(&store, &[n], &[vec![Value::Int(0.into())]]).is_empty());
        let one = vec![Value::Ctor(nil, "nil".into(), vec![])];
        assert!(!shapes(&store, &[l], &[one]).is_empty());
    }
}
