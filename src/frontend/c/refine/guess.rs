//! Guessed relations between the two sides: the yes run's acceleration. Where the two
//! programs' loop counters are out of phase (one side steps a counter by 2 against 1, or
//! counts `k` to `5n` against `i` to `n`), the greatest-fixpoint iteration from `Ψ = ι`
//! cuts an infinite descending chain of counter bands. Conjoining, per pair of locations,
//! the linear equalities that hold there (`c.i = a.i + 1`, `a.k = 5·a.i`) makes the chain
//! finite: the iteration then runs from a smaller start.
//!
//! * **Samples.** Paired runs without environment steps: a start state κ allows (random
//!   values, kept where κ permits), then, repeatedly, a concrete component edge whose guard
//!   holds and an abstract local path of Θ with its action whose guard holds and after which
//!   ι relates the two states, chosen in random order (undetermined values random too), by
//!   a depth-first search that backtracks from states the abstract side cannot follow (a
//!   wrong choice of phase) until the run is long enough or the concrete thread returned.
//!   The states of each run found are collected per pair of locations.
//! * **Candidates.** Per pair with more distinct states than variables, their affine hull
//!   (linear equalities over both sides' variables, [`crate::engine::seeds::hull`]) and the
//!   congruences `x mod m = r` (m from 2 to 6) of each variable (the parity of a counter
//!   stepped by 2, which no equality states). A pair with fewer states gets no guess (its
//!   hull would be made-up equalities); a pair of Θ that no sampled run reaches starts
//!   empty (the hull of no state): the simulation is guessed to avoid it.
//! * **Environment filter.** Houdini over condition 2.a: a candidate of a pair is dropped
//!   while an environment step (as the yes run over-approximates it) from a state of
//!   `ι ∧ candidates` into ι leaves it.
//!
//! A guess is only ever a start: the caller iterates below it and re-checks the result
//! condition by condition (a wrong guess ends in no simulation, then the plain iteration
//! runs). Nothing here decides an answer.
//!
//! Must not: answer, print, or claim that a candidate holds.

use super::check::{EnvMode, Fixpoint};
use super::sa::Side;
use crate::engine::seeds::hull::affine_hull;
use crate::engine::seeds::sample::Rng;
use crate::frontend::c::cfa::LocId;
use crate::smt::{SatResult, Smt};
use crate::term::{Op, TermId, TermStore, Value, VarId};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Paired runs sampled.
const RUNS: usize = 40;
/// Concrete steps per run.
const STEPS: usize = 60;
/// Expansions of the search for one paired run.
const EXPANSIONS: usize = 400;
/// Distinct states kept per pair.
const MAX_POINTS: usize = 200;
/// Fixed seed: the samples, and so the guess, are the same from run to run.
const SEED: u64 = 0x5eed_0004;

/// The guessed start per pair of Θ (pairs without a guess are absent), and its size.
pub struct Guess {
    /// A conjunction of equalities and congruences per pair (`false` for a pair no sampled
    /// run reaches).
    pub start: BTreeMap<(LocId, LocId), TermId>,
    /// Equalities and congruences kept in all.
    pub relations: usize,
    /// Pairs that start empty.
    pub empty: usize,
}

/// Samples paired runs, takes each pair's affine hull and congruences, and filters them by
/// condition 2.a. No sample at all (κ unsatisfiable, or no time): no guess.
pub fn guess(fp: &Fixpoint, kappa: TermId, mode: &EnvMode) -> Guess {
    let s = fp.store;
    // The coordinates: both sides' variables but the thread's parameter.
    let coords: Vec<VarId> =
        fp.c.vars
            .iter()
            .chain(&fp.a.vars)
            .filter(|v| !v.param)
            .map(|v| v.term)
            .collect();
    let points = sample(fp, kappa, &coords);
    let mut start = BTreeMap::new();
    let (mut relations, mut empty) = (0, 0);
    if points.is_empty() {
        return Guess {
            start,
            relations,
            empty,
        };
    }
    // A pair no sampled run reaches starts empty (the affine hull of no state).
    for &pair in fp.psi.keys() {
        if !points.contains_key(&pair) {
            start.insert(pair, s.ff());
            empty += 1;
        }
    }
    for (pair, pts) in points {
        // Fewer states than the affine dimension would make up equalities.
        if pts.len() <= coords.len() {
            continue;
        }
        let rows: Vec<Vec<BigRational>> = pts
            .iter()
            .map(|p| p.iter().map(|x| BigRational::from(x.clone())).collect())
            .collect();
        let mut eqs: Vec<TermId> = affine_hull(&rows, coords.len())
            .into_iter()
            .map(|eq| {
                let mut terms: Vec<TermId> = eq
                    .coeffs
                    .iter()
                    .zip(&coords)
                    .filter(|(k, _)| *k != &BigInt::from(0))
                    .map(|(k, &v)| s.mul([s.int(k.clone()), s.var(v)]))
                    .collect();
                terms.push(s.int(eq.constant));
                s.eq(s.add(terms), s.int(0))
            })
            .collect();
        eqs.extend(congruences(s, &coords, &pts));
        let kept = env_filter(fp, pair, mode, eqs);
        if !kept.is_empty() {
            relations += kept.len();
            start.insert(pair, s.and(kept));
        }
    }
    Guess {
        start,
        relations,
        empty,
    }
}

/// Moduli tried for congruences.
const MODULI: std::ops::RangeInclusive<u32> = 2..=6;

/// `x mod m = r` for each coordinate with at least three distinct sampled values (fewer:
/// the equalities say more, or the residue is a coincidence), all congruent modulo `m`: the
/// parity of a counter stepped by 2, which no equality states, makes a band chain finite.
fn congruences(s: &TermStore, coords: &[VarId], pts: &BTreeSet<Vec<BigInt>>) -> Vec<TermId> {
    let mut out = vec![];
    for (k, &v) in coords.iter().enumerate() {
        let col: BTreeSet<&BigInt> = pts.iter().map(|p| &p[k]).collect();
        if col.len() < 3 {
            continue;
        }
        for m in MODULI {
            let m = BigInt::from(m);
            let rs: BTreeSet<BigInt> = col.iter().map(|x| x.mod_floor(&m)).collect();
            if let [r] = &rs.into_iter().collect::<Vec<_>>()[..] {
                let md = s.app(Op::Mod, vec![s.var(v), s.int(m)]);
                out.push(s.eq(md, s.int(r.clone())));
            }
        }
    }
    out
}

/// The candidates of `pair` that every environment step keeps (Houdini, per pair: 2.a
/// relates states at the same pair). None of them when the solver does not answer.
fn env_filter(
    fp: &Fixpoint,
    pair: (LocId, LocId),
    mode: &EnvMode,
    eqs: Vec<TermId>,
) -> Vec<TermId> {
    let s = fp.store;
    let (steps, yc, ya) = fp.env_step(mode);
    let iota_after = fp.rename(fp.iota, &yc, &ya);
    let mut alive = eqs;
    loop {
        let before = s.and([fp.iota, fp.psi[&pair], s.and(alive.iter().copied())]);
        let mut smt = Smt::new(s, fp.deadline.clone());
        smt.assert(before);
        smt.assert(s.and(steps));
        smt.assert(iota_after);
        let mut next = vec![];
        for &e in &alive {
            match smt.check_assuming(&[s.not(fp.rename(e, &yc, &ya))]) {
                SatResult::Unsat => next.push(e),
                SatResult::Sat => {}
                SatResult::Unknown(_) => return vec![],
            }
        }
        if next.len() == alive.len() {
            return alive;
        }
        alive = next;
    }
}

/// A number for an unconstrained value: mostly small (loops run a few times), sometimes
/// larger.
fn small(rng: &mut Rng) -> i64 {
    match rng.below(10) {
        0..=6 => rng.below(15) as i64 - 3,
        _ => rng.below(61) as i64 - 20,
    }
}

/// A start state κ allows: random values, each kept when κ and the values kept so far
/// permit it. None when κ is unsatisfiable or the solver does not answer.
fn start_state(
    smt: &mut Smt,
    store: &TermStore,
    vars: &[VarId],
    rng: &mut Rng,
) -> Option<HashMap<VarId, Value>> {
    let mut fixed = vec![];
    for &v in vars {
        let eq = store.eq(store.var(v), store.int(small(rng)));
        fixed.push(eq);
        match smt.check_assuming(&fixed) {
            SatResult::Sat => {}
            SatResult::Unsat => {
                fixed.pop();
            }
            SatResult::Unknown(_) => return None,
        }
    }
    if smt.check_assuming(&fixed) != SatResult::Sat {
        return None;
    }
    Some(smt.values(vars.iter().copied())?.into_iter().collect())
}

/// Runs `edges` (component edges of `side`) from `env` (its variables' values); the values
/// after, or None when a guard fails or a term cannot be evaluated.
fn run_edges(
    store: &TermStore,
    side: &Side,
    edges: &[usize],
    env: &HashMap<VarId, Value>,
    rng: &mut Rng,
) -> Option<HashMap<VarId, Value>> {
    let mut cur = env.clone();
    for &k in edges {
        let e = &side.edges[k];
        for &f in &e.fresh {
            cur.insert(f, Value::Int(BigInt::from(small(rng))));
        }
        if store.eval(e.guard, &cur).ok()? != Value::Bool(true) {
            return None;
        }
        let post: Vec<Value> = e
            .post
            .iter()
            .map(|&t| store.eval(t, &cur).ok())
            .collect::<Option<_>>()?;
        for f in &e.fresh {
            cur.remove(f);
        }
        for (v, x) in side.vars.iter().zip(post) {
            cur.insert(v.term, x);
        }
    }
    Some(cur)
}

type Node = ((LocId, LocId), HashMap<VarId, Value>);

/// Every move from `node`: a concrete component edge whose guard holds and an abstract
/// local path with its action whose guard holds, after which ι relates the two states;
/// shuffled.
fn moves(fp: &Fixpoint, node: &Node, rng: &mut Rng) -> Vec<Node> {
    let s = fp.store;
    let ((q1, q2), env) = node;
    let mut out = vec![];
    for (k, e) in fp.c.edges.iter().enumerate() {
        if e.from != *q1 {
            continue;
        }
        let Some(cafter) = run_edges(s, fp.c, &[k], env, rng) else {
            continue;
        };
        let key = (*q2, e.label.clone());
        for p in fp.paths.get(&key).map(|v| v.as_slice()).unwrap_or(&[]) {
            let Some(after) = run_edges(s, fp.a, &p.edges, &cafter, rng) else {
                continue;
            };
            if s.eval(fp.iota, &after).ok() == Some(Value::Bool(true)) {
                out.push(((e.to, p.end), after));
            }
        }
    }
    for i in (1..out.len()).rev() {
        out.swap(i, rng.below(i + 1));
    }
    out
}

/// One paired run from `start`: a depth-first search in random order for a run of
/// [`STEPS`] moves, or one that ends where the concrete thread has returned, backtracking
/// from states the abstract side cannot follow, within [`EXPANSIONS`] expansions. The
/// run found, or the longest one tried.
fn paired_run(fp: &Fixpoint, start: Node, rng: &mut Rng) -> Vec<Node> {
    let mut path: Vec<(Node, Option<Vec<Node>>)> = vec![(start, None)];
    let mut best: Vec<Node> = vec![];
    let mut budget = EXPANSIONS;
    while let Some(top) = path.last_mut() {
        if top.1.is_none() {
            if budget == 0 || fp.deadline.expired() {
                break;
            }
            budget -= 1;
            let next = moves(fp, &top.0, rng);
            let returned = fp.c.out((top.0).0 .0).next().is_none();
            top.1 = Some(next);
            if path.len() > best.len() {
                best = path.iter().map(|n| n.0.clone()).collect();
            }
            if returned || path.len() > STEPS {
                return best;
            }
            continue;
        }
        match top.1.as_mut().and_then(|m| m.pop()) {
            Some(n) => path.push((n, None)),
            None => {
                path.pop();
            }
        }
    }
    best
}

/// The states of random paired runs (see the module documentation) at each pair, as
/// integer vectors over `coords`.
fn sample(
    fp: &Fixpoint,
    kappa: TermId,
    coords: &[VarId],
) -> BTreeMap<(LocId, LocId), BTreeSet<Vec<BigInt>>> {
    let s = fp.store;
    let mut rng = Rng::new(SEED);
    let mut out: BTreeMap<(LocId, LocId), BTreeSet<Vec<BigInt>>> = BTreeMap::new();
    let mut smt = Smt::new(s, fp.deadline.clone());
    smt.assert(kappa);
    let all: Vec<VarId> = fp.c.vars.iter().chain(&fp.a.vars).map(|v| v.term).collect();
    let point = |env: &HashMap<VarId, Value>| -> Option<Vec<BigInt>> {
        coords
            .iter()
            .map(|v| match env.get(v) {
                Some(Value::Int(i)) => Some(i.clone()),
                _ => None,
            })
            .collect()
    };
    for _ in 0..RUNS {
        if fp.deadline.expired() {
            break;
        }
        let Some(env) = start_state(&mut smt, s, &all, &mut rng) else {
            break;
        };
        for (pair, env) in paired_run(fp, ((fp.c.init, fp.a.init), env), &mut rng) {
            if let Some(p) = point(&env) {
                let pts = out.entry(pair).or_default();
                if pts.len() < MAX_POINTS {
                    pts.insert(p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::c::refine::{env, sa};
    use crate::frontend::c::DataModel;
    use crate::smt::Deadline;
    use crate::term::print::TermPrinter;

    #[test]
    fn congruences_need_varied_values_with_one_residue() {
        let s = TermStore::new();
        let v = s.new_var("v", crate::term::Sort::Int);
        let pts = |xs: &[i64]| -> BTreeSet<Vec<BigInt>> {
            xs.iter().map(|&x| vec![BigInt::from(x)]).collect()
        };
        let printed = |ts: Vec<TermId>| -> Vec<String> {
            ts.iter().map(|&t| TermPrinter::new(&s).term(t)).collect()
        };
        // Even values: mod 2 only (0, 2, 6 differ modulo 4).
        let even = printed(congruences(&s, &[v], &pts(&[0, 2, 6])));
        assert_eq!(even, vec!["(= (mod v 2) 0)"]);
        // Two values say nothing; neither do values of every parity.
        assert!(congruences(&s, &[v], &pts(&[0, 6])).is_empty());
        assert!(congruences(&s, &[v], &pts(&[0, 1, 2, 3])).is_empty());
    }

    fn side(store: &TermStore, body: &str, tag: &'static str) -> Side {
        let src = format!(
            "#include <pthread.h>\nint i, n, x;\n\
             void *prog(void *arg) {{ {body} return 0; }}\n\
             void *env(void *arg) {{ x = x + 2; return 0; }}\n\
             int main(void) {{ pthread_t p, e; pthread_create(&p, 0, prog, 0); \
             pthread_create(&e, 0, env, 0); return 0; }}\n"
        );
        let program = crate::frontend::c::read_program(&src, DataModel::default()).expect("reads");
        sa::build(store, program, tag, None).expect("builds")
    }

    #[test]
    fn unrolled_counters_are_related_where_the_loops_are_in_phase() {
        let store = TermStore::new();
        let a = side(
            &store,
            "i = 0; while (i < 2 * n) { x = x + 1; i = i + 1; }",
            "a",
        );
        let c = side(
            &store,
            "i = 0; while (i < 2 * n) { x = x + 1; x = x + 1; i = i + 2; }",
            "c",
        );
        let iota =
            crate::frontend::c::refine::spec::parse(&store, "a.n == c.n && a.x == c.x", &a, &c)
                .expect("parses");
        let d = Deadline::none();
        let (ac, cc) = (
            env::closure(&store, &a, d.clone()).expect("closes"),
            env::closure(&store, &c, d.clone()).expect("closes"),
        );
        let over = EnvMode::Over {
            concrete: &cc,
            abstract_: &ac,
        };
        let fp = Fixpoint::new(&store, &c, &a, iota, 3, 100, d);
        let g = guess(&fp, iota, &over);
        assert!(g.relations > 0 && g.empty > 0);
        let all: Vec<String> = g
            .start
            .values()
            .map(|&t| TermPrinter::new(&store).term(t))
            .collect();
        // c.i = a.i at some pairs, c.i = a.i + 1 at others, and c.i is even.
        assert!(
            all.iter()
                .any(|t| t.contains("(= (+ c.i (* (- 1) a.i)) 0)")),
            "{all:?}"
        );
        assert!(
            all.iter().any(|t| t.contains("(= (mod c.i 2) 0)")),
            "{all:?}"
        );
    }
}
