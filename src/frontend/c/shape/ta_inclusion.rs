//! Language inclusion of tree automata (part of `ta.rs`): a bottom-up subset construction
//! over the pairs reachable from the smaller automaton, with a work bound past which it
//! answers "not included". The sets of the larger automaton's states are bit sets when it has
//! at most 128 states (the shape engine's automata nearly always do: the coverage tests of
//! its fixpoint spend most of their time here), ordered sets otherwise.
//!
//! Must not: answer "included" without having shown it (a failed test only costs precision).

use super::{Rule, State, Symbol, TreeAut};
use std::collections::{BTreeMap, BTreeSet};

/// The work bound of [`TreeAut::includes`] (pairs of a state and a set of states).
const INCLUSION_PAIRS: usize = 20_000;

/// A set of states of the larger automaton.
trait StateSet: Ord + Clone {
    fn empty() -> Self;
    fn insert(&mut self, q: State);
    fn contains(&self, q: State) -> bool;
}

/// States below 128, one bit each.
impl StateSet for u128 {
    fn empty() -> Self {
        0
    }
    fn insert(&mut self, q: State) {
        *self |= 1 << q;
    }
    fn contains(&self, q: State) -> bool {
        self >> q & 1 == 1
    }
}

impl StateSet for BTreeSet<State> {
    fn empty() -> Self {
        BTreeSet::new()
    }
    fn insert(&mut self, q: State) {
        BTreeSet::insert(self, q);
    }
    fn contains(&self, q: State) -> bool {
        BTreeSet::contains(self, &q)
    }
}

impl TreeAut {
    /// Whether the language of `small` is included in this one's. Exact, unless the work
    /// bound is reached: then `false` (a failed inclusion only costs precision).
    pub fn includes(&self, small: &TreeAut) -> bool {
        if self == small {
            return true;
        }
        if self.rules.len() <= 128 {
            included::<u128>(small, self)
        } else {
            included::<BTreeSet<State>>(small, self)
        }
    }
}

/// Whether `small`'s language is included in `big`'s, with `S` for the sets of `big`'s
/// states.
fn included<S: StateSet>(small: &TreeAut, big: &TreeAut) -> bool {
    // Reachable pairs (p, M): some tree of small's state p is accepted exactly by the
    // states M of the larger automaton.
    let mut by_state: Vec<BTreeSet<S>> = vec![BTreeSet::new(); small.rules.len()];
    // The larger automaton's rules by symbol.
    let mut by_sym: BTreeMap<Symbol, Vec<(State, &Rule)>> = BTreeMap::new();
    for (q, rs) in big.rules.iter().enumerate() {
        for r in rs {
            by_sym.entry(r.sym).or_default().push((q, r));
        }
    }
    let mut total = 0usize;
    loop {
        let mut changed = false;
        for (p, rs) in small.rules.iter().enumerate() {
            for r in rs {
                // Every combination of the children's reached sets.
                let options: Vec<Vec<&S>> = r
                    .kids
                    .iter()
                    .map(|&k| by_state[k].iter().collect())
                    .collect();
                if options.iter().any(|o| o.is_empty()) {
                    continue;
                }
                let mut combos = 1usize;
                for o in &options {
                    combos = combos.saturating_mul(o.len());
                }
                if combos > INCLUSION_PAIRS {
                    return false;
                }
                let candidates = by_sym.get(&r.sym).map_or(&[][..], Vec::as_slice);
                let mut found = vec![];
                let mut idx = vec![0usize; options.len()];
                loop {
                    let mut m = S::empty();
                    for (q, br) in candidates {
                        if br.kids.len() == idx.len()
                            && br
                                .kids
                                .iter()
                                .enumerate()
                                .all(|(i, &bk)| options[i][idx[i]].contains(bk))
                        {
                            m.insert(*q);
                        }
                    }
                    found.push(m);
                    // Next combination.
                    let mut i = 0;
                    while i < idx.len() {
                        idx[i] += 1;
                        if idx[i] < options[i].len() {
                            break;
                        }
                        idx[i] = 0;
                        i += 1;
                    }
                    if i == idx.len() {
                        break;
                    }
                }
                for m in found {
                    if by_state[p].insert(m) {
                        changed = true;
                        total += 1;
                        if total > INCLUSION_PAIRS {
                            return false;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    by_state[small.root].iter().all(|m| m.contains(big.root))
}
