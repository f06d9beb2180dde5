//! The fixpoint over the pointer program's locations: sets of forest automata per
//! location, joined and abstracted at loop heads, until every edge's post is covered; then
//! an independent check of the result ([`check`]).
//!
//! Must not: answer for the program (that is `mod.rs`); trust its own iteration: the
//! fixpoint is only used after [`check`] accepts it.

use super::exec::{post, Fault};
use super::fa::{Forest, Val};
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
    let mut states: Invariant = vec![vec![]; prog.locs];
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
        if !states[l].contains(&f) {
            continue;
        }
        for &ei in &out[l] {
            let e = &prog.edges[ei];
            for g in post(&f, &e.op, e.span, prog).map_err(Stop::Fault)? {
                add(&mut states, &mut work, &is_head, e.to, g);
            }
        }
    }
    Ok(states)
}

/// Adds a forest to a location unless one there covers it; at a loop head, abstracted and
/// joined with the forest of the same shape.
fn add(
    states: &mut Invariant,
    work: &mut VecDeque<(Loc, Forest)>,
    is_head: &[bool],
    l: Loc,
    f: Forest,
) {
    let f = if is_head[l] { f.abstracted(HEIGHT) } else { f };
    if states[l].iter().any(|h| h.includes(&f)) {
        return;
    }
    if is_head[l] {
        let shape = f.shape();
        if let Some(i) = states[l].iter().position(|h| h.shape() == shape) {
            let joined = states[l][i].union(&f).abstracted(HEIGHT);
            states[l][i] = joined.clone();
            work.push_back((l, joined));
            return;
        }
    }
    states[l].push(f.clone());
    work.push_back((l, f));
}

/// Checks that `inv` is an inductive invariant free of faults: the initial forest is
/// covered at the entry, and every edge's post of every forest at its source is fault-free
/// and covered at its target. Returns the first failure.
pub fn check(prog: &PointerProgram, inv: &Invariant) -> Result<(), String> {
    let init = initial(prog);
    if !inv[prog.entry].iter().any(|h| h.includes(&init)) {
        return Err("the initial heap is not covered".into());
    }
    for e in &prog.edges {
        for f in &inv[e.from] {
            let posts = post(f, &e.op, e.span, prog).map_err(|_| "a post has a fault")?;
            for g in posts {
                if !inv[e.to].iter().any(|h| h.includes(&g)) {
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
