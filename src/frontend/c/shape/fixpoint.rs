//! The fixpoint over the pointer program's locations: sets of forest automata per
//! location, joined and abstracted at loop heads, until every edge's post is covered; then
//! an independent check of the result ([`check`]).
//!
//! Must not: answer for the program (that is `mod.rs`); trust its own iteration: the
//! fixpoint is only used after [`check`] accepts it.

use super::closed::BoxLib;
use super::exec::{post, Fault};
use super::fa::{Forest, Shape, Val};
use super::pir::{Loc, PointerProgram};
use super::ta::{mask_within, Mask, TreeAut};
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

/// Runs the fixpoint, with at most `steps` posts, until `deadline`; the invariant's forests
/// name the boxes of the library returned with it.
pub fn run(
    prog: &PointerProgram,
    steps: usize,
    deadline: Instant,
) -> Result<(Invariant, BoxLib), Stop> {
    let mut lib = BoxLib::new();
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
            for g in post(&f, &e.op, e.span, prog, &mut lib).map_err(Stop::Fault)? {
                add(&mut states, &mut work, &is_head, e.to, g);
            }
        }
    }
    Ok((states.forests, lib))
}

/// The forests of each location, with their keys (computed once: the join key is most of
/// the cost of a coverage test).
struct States {
    forests: Invariant,
    shapes: Vec<Vec<Key>>,
}

/// What a coverage test compares first: the join key, where references sit
/// ([`Forest::holders`]), and per component the mask of its edges
/// ([`TreeAut::edge_mask`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    shape: Option<Shape>,
    holders: Vec<(usize, usize, Option<usize>)>,
    symbols: Vec<Mask>,
}

impl Key {
    /// The key of a forest.
    fn of(f: &Forest) -> Key {
        Key {
            shape: f.shape(),
            holders: f.holders(),
            symbols: f.comps.iter().map(TreeAut::edge_mask).collect(),
        }
    }

    /// Whether forests with these keys are joined at a loop head: the same shape and
    /// references held alike ([`Forest::holders`]).
    fn joins(&self, other: &Key) -> bool {
        self.shape == other.shape && self.holders == other.holders
    }

    /// Whether a forest with this key may cover one with key `other`: the same shape, no
    /// holder of a reference in `other` missing here, and no edge of a
    /// component of `other` missing from this one's (forests are normalised, hence trimmed;
    /// an untrimmed one only costs precision).
    fn may_cover(&self, other: &Key) -> bool {
        self.shape == other.shape
            && other
                .holders
                .iter()
                .all(|h| self.holders.binary_search(h).is_ok())
            && self.symbols.len() == other.symbols.len()
            && self
                .symbols
                .iter()
                .zip(&other.symbols)
                .all(|(a, b)| mask_within(b, a))
    }
}

/// Whether a forest of `forests` (keys `keys`) covers `f` (key `key`): at a loop head by
/// exact inclusion (what makes the iteration stop), elsewhere by simulation only (there a
/// missed inclusion keeps a redundant forest, which the next version of the loop head's
/// forest replaces).
fn covered(forests: &[Forest], keys: &[Key], f: &Forest, key: &Key, head: bool) -> bool {
    // The latest forests first: a loop's later forests are the larger ones.
    forests
        .iter()
        .zip(keys)
        .rev()
        .any(|(h, k)| k.may_cover(key) && h.covers(f, head))
}

/// Adds a forest to a location unless one there covers it; at a loop head, abstracted and
/// joined with the forest of the same shape whose references are held alike.
fn add(
    states: &mut States,
    work: &mut VecDeque<(Loc, Forest)>,
    is_head: &[bool],
    l: Loc,
    f: Forest,
) {
    let f = if is_head[l] { f.abstracted(HEIGHT) } else { f };
    let key = Key::of(&f);
    if covered(&states.forests[l], &states.shapes[l], &f, &key, is_head[l]) {
        return;
    }
    if is_head[l] {
        if let Some(i) = states.shapes[l].iter().position(|k| k.joins(&key)) {
            let joined = states.forests[l][i].union(&f).abstracted(HEIGHT);
            states.shapes[l][i] = Key::of(&joined);
            states.forests[l][i] = joined.clone();
            work.push_back((l, joined));
            return;
        }
    }
    // Forests `f` covers are dropped: a later version of a loop's forest covers the
    // forests that the earlier versions led to, and keeping them costs coverage tests and
    // posts (one still queued is skipped when it comes up).
    let (forests, shapes) = (&mut states.forests[l], &mut states.shapes[l]);
    let mut i = 0;
    while i < forests.len() {
        if key.may_cover(&shapes[i]) && f.covers(&forests[i], false) {
            forests.swap_remove(i);
            shapes.swap_remove(i);
        } else {
            i += 1;
        }
    }
    forests.push(f.clone());
    shapes.push(key);
    work.push_back((l, f));
}

/// Checks that `inv` is an inductive invariant free of faults: the initial forest is
/// covered at the entry, and every edge's post of every forest at its source is fault-free
/// and covered at its target. Returns the first failure. The posts see a copy of `lib`: a
/// box they would add is one no forest of `inv` names, so its forest is not covered.
pub fn check(prog: &PointerProgram, inv: &Invariant, lib: &BoxLib) -> Result<(), String> {
    let mut lib = lib.clone();
    let keys: Vec<Vec<Key>> = inv
        .iter()
        .map(|fs| fs.iter().map(Key::of).collect())
        .collect();
    let mut is_head = vec![false; prog.locs];
    for h in &prog.heads {
        is_head[h.loc] = true;
    }
    let covers = |l: Loc, g: &Forest| covered(&inv[l], &keys[l], g, &Key::of(g), is_head[l]);
    let init = initial(prog);
    if !covers(prog.entry, &init) {
        return Err("the initial heap is not covered".into());
    }
    for e in &prog.edges {
        for f in &inv[e.from] {
            let posts = post(f, &e.op, e.span, prog, &mut lib).map_err(|_| "a post has a fault")?;
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
