//! The fixpoint over the pointer program's locations: sets of forest automata per
//! location, joined and abstracted at loop heads, until every edge's post is covered; then
//! an independent check of the result ([`check`]).
//!
//! Must not: answer for the program (that is `mod.rs`); trust its own iteration: the
//! fixpoint is only used after [`check`] accepts it.

use super::exec::{post, Fault};
use super::fa::{Forest, Shape, Val};
use super::pir::{Loc, PointerProgram};
use std::collections::VecDeque;
use std::time::Instant;

/// The height of the abstraction at loop heads.
const HEIGHT: usize = 1;

/// Why no fixpoint was found.
#[derive(Clone, Debug)]
pub enum Stop {
    /// A fault (possibly spurious, under the abstraction).
    Fault(Fault),
    /// The work bound or the deadline.
    Budget(String),
}

/// The forests of each location: every reachable heap is in one of them.
pub type Invariant = Vec<Vec<Forest>>;

/// The initial forest: the empty heap, globals null, locals undefined.
pub fn initial(prog: &PointerProgram) -> Forest {
    let mut f = Forest::new(prog.vars.len(), prog.ints.len());
    for &g in &prog.globals {
        f.vars[g] = Val::Null;
    }
    f
}

/// Runs the fixpoint, with at most `steps` posts, until `deadline`.
pub fn run(prog: &PointerProgram, steps: usize, deadline: Instant) -> Result<Invariant, Stop> {
    let mut out: Vec<Vec<usize>> = vec![vec![]; prog.locs];
    for (i, e) in prog.edges.iter().enumerate() {
        out[e.from].push(i);
    }
    let mut is_head = vec![false; prog.locs];
    for h in &prog.heads {
        is_head[h.loc] = true;
    }
    let mut states = States {
        forests: vec![vec![]; prog.locs],
        shapes: vec![vec![]; prog.locs],
    };
    let mut work: VecDeque<(Loc, Forest)> = VecDeque::new();
    add(&mut states, &mut work, &is_head, prog.entry, initial(prog));
    let mut done = 0usize;
    while let Some((l, f)) = work.pop_front() {
        done += 1;
        if done > steps {
            return Err(Stop::Budget(format!("more than {steps} symbolic steps")));
        }
        if done.is_multiple_of(64) && Instant::now() > deadline {
            return Err(Stop::Budget("the time limit".into()));
        }
        // A forest since replaced by a larger one needs no post of its own.
        if !states.forests[l].contains(&f) {
            continue;
        }
        for &ei in &out[l] {
            let e = &prog.edges[ei];
            for g in post(&f, &e.op, e.span, prog).map_err(Stop::Fault)? {
                add(&mut states, &mut work, &is_head, e.to, g);
            }
        }
    }
    Ok(states.forests)
}

/// The forests of each location, with their join keys (computed once: the key is most of
/// the cost of a coverage test).
struct States {
    forests: Invariant,
    shapes: Vec<Vec<Option<Shape>>>,
}

/// Whether a forest of `forests` (join keys `shapes`) covers `f` (join key `shape`).
fn covered(
    forests: &[Forest],
    shapes: &[Option<Shape>],
    f: &Forest,
    shape: &Option<Shape>,
) -> bool {
    forests
        .iter()
        .zip(shapes)
        .any(|(h, k)| k == shape && h.covers(f))
}

/// Adds a forest to a location unless one there covers it; at a loop head, abstracted and
/// joined with the forest of the same shape.
fn add(
    states: &mut States,
    work: &mut VecDeque<(Loc, Forest)>,
    is_head: &[bool],
    l: Loc,
    f: Forest,
) {
    let f = if is_head[l] { f.abstracted(HEIGHT) } else { f };
    let shape = f.shape();
    if covered(&states.forests[l], &states.shapes[l], &f, &shape) {
        return;
    }
    if is_head[l] {
        if let Some(i) = states.shapes[l].iter().position(|k| *k == shape) {
            let joined = states.forests[l][i].union(&f).abstracted(HEIGHT);
            states.shapes[l][i] = joined.shape();
            states.forests[l][i] = joined.clone();
            work.push_back((l, joined));
            return;
        }
    }
    states.forests[l].push(f.clone());
    states.shapes[l].push(shape);
    work.push_back((l, f));
}

/// Checks that `inv` is an inductive invariant free of faults: the initial forest is
/// covered at the entry, and every edge's post of every forest at its source is fault-free
/// and covered at its target. Returns the first failure.
pub fn check(prog: &PointerProgram, inv: &Invariant) -> Result<(), String> {
    let shapes: Vec<Vec<Option<Shape>>> = inv
        .iter()
        .map(|fs| fs.iter().map(Forest::shape).collect())
        .collect();
    let covers = |l: Loc, g: &Forest| covered(&inv[l], &shapes[l], g, &g.shape());
    let init = initial(prog);
    if !covers(prog.entry, &init) {
        return Err("the initial heap is not covered".into());
    }
    for e in &prog.edges {
        for f in &inv[e.from] {
            let posts = post(f, &e.op, e.span, prog).map_err(|_| "a post has a fault")?;
            for g in posts {
                if !covers(e.to, &g) {
                    return Err(format!(
                        "a post at location {} is not covered at location {}",
                        e.from, e.to
                    ));
                }
            }
        }
    }
    Ok(())
}
