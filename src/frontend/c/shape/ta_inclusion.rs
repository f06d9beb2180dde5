//! Language inclusion of tree automata (part of `ta.rs`): a downward simulation first (a
//! relation between the states proving inclusion, cheap, and in the shape engine's fixpoint
//! nearly always what proves one), then a bottom-up subset construction over the pairs
//! reachable from the smaller automaton, evaluated semi-naively and stopped as soon as a
//! tree of the smaller root is found that the larger root does not accept, with a work bound
//! past which it answers "not included". The sets of the larger automaton's states are bit
//! sets when it has at most 128 states (the shape engine's automata nearly always do: the
//! coverage tests of its fixpoint spend most of their time here), ordered sets otherwise.
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
    /// Whether this automaton's root simulates `small`'s root downwards: a sound,
    /// incomplete and cheap inclusion test (no subset construction), for automata of at most
    /// 128 states (`false` for larger ones).
    pub fn simulates(&self, small: &TreeAut) -> bool {
        self == small || (self.rules.len() <= 128 && simulated(small, self))
    }

    /// Whether the language of `small` is included in this one's. Exact, unless the work
    /// bound is reached: then `false` (a failed inclusion only costs precision).
    pub fn includes(&self, small: &TreeAut) -> bool {
        if self == small {
            return true;
        }
        if self.rules.len() <= 128 {
            simulated(small, self) || included::<u128>(small, self)
        } else {
            included::<BTreeSet<State>>(small, self)
        }
    }
}

/// Whether the root of `big` (at most 128 states) simulates the root of `small` downwards:
/// the largest relation `R` such that `p R q` when every rule `a(p1..pn) -> p` of `small`
/// has a rule `a(q1..qn) -> q` of `big` with `pi R qi`. Then every tree of `p` is one of
/// `q`'s (by induction on the tree), so a related pair of roots proves inclusion; an
/// unrelated one proves nothing (the subset construction decides).
fn simulated(small: &TreeAut, big: &TreeAut) -> bool {
    let all: u128 = if big.rules.len() == 128 {
        u128::MAX
    } else {
        (1u128 << big.rules.len()) - 1
    };
    // First, `p R q` needs `q` to have every symbol of `p`'s rules.
    let mut syms: Vec<Symbol> = small.rules.iter().flatten().map(|r| r.sym).collect();
    syms.sort_unstable();
    syms.dedup();
    let mut rel: Vec<u128> = vec![all; small.rules.len()];
    if syms.len() <= 64 {
        let mask = |rs: &[Rule]| {
            rs.iter()
                .filter_map(|r| syms.binary_search(&r.sym).ok())
                .fold(0u64, |m, i| m | 1 << i)
        };
        let big_masks: Vec<u64> = big.rules.iter().map(|rs| mask(rs)).collect();
        for (p, rs) in small.rules.iter().enumerate() {
            let need = mask(rs);
            rel[p] = big_masks
                .iter()
                .enumerate()
                .filter(|(_, &m)| need & !m == 0)
                .fold(0u128, |r, (q, _)| r | 1 << q);
        }
    }
    loop {
        if rel[small.root] >> big.root & 1 == 0 {
            return false;
        }
        let mut changed = false;
        for (p, rs) in small.rules.iter().enumerate() {
            let mut keep = rel[p];
            let mut qs = rel[p];
            while qs != 0 {
                let q = qs.trailing_zeros() as usize;
                qs &= qs - 1;
                let matched = rs.iter().all(|r| {
                    big.rules[q].iter().any(|br| {
                        br.sym == r.sym
                            && br.kids.len() == r.kids.len()
                            && br
                                .kids
                                .iter()
                                .zip(&r.kids)
                                .all(|(&bk, &k)| rel[k] >> bk & 1 == 1)
                    })
                });
                if !matched {
                    keep &= !(1u128 << q);
                }
            }
            if keep != rel[p] {
                rel[p] = keep;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    rel[small.root] >> big.root & 1 == 1
}

/// Whether `small`'s language is included in `big`'s, with `S` for the sets of `big`'s
/// states.
fn included<S: StateSet>(small: &TreeAut, big: &TreeAut) -> bool {
    // Reachable pairs (p, M): some tree of small's state p is accepted exactly by the
    // states M of the larger automaton. Per state its sets in the order found, and all
    // pairs for membership.
    let mut by_state: Vec<Vec<S>> = vec![vec![]; small.rules.len()];
    let mut seen: BTreeSet<(State, S)> = BTreeSet::new();
    // The larger automaton's rules by symbol.
    let mut by_sym: BTreeMap<Symbol, Vec<(State, &Rule)>> = BTreeMap::new();
    for (q, rs) in big.rules.iter().enumerate() {
        for r in rs {
            by_sym.entry(r.sym).or_default().push((q, r));
        }
    }
    // A symbol of the smaller automaton the larger one lacks: a tree of it is not accepted
    // (when that rule is useful, as after trimming; else this only costs precision).
    if small
        .rules
        .iter()
        .flatten()
        .any(|r| !by_sym.contains_key(&r.sym))
    {
        return false;
    }
    // Semi-naive: a rule is evaluated again only when a child's reached sets grew in the
    // previous round (its other combinations were all tried then).
    let mut grew = vec![true; small.rules.len()];
    let mut first = true;
    let (mut idx, mut found) = (vec![], vec![]);
    loop {
        let mut changed = false;
        let mut grows = vec![false; small.rules.len()];
        for (p, rs) in small.rules.iter().enumerate() {
            for r in rs {
                if !first && !r.kids.iter().any(|&k| grew[k]) {
                    continue;
                }
                // Every combination of the children's reached sets.
                let mut combos = 1usize;
                for &k in &r.kids {
                    combos = combos.saturating_mul(by_state[k].len());
                }
                if combos == 0 {
                    continue;
                }
                if combos > INCLUSION_PAIRS {
                    return false;
                }
                let candidates = by_sym.get(&r.sym).map_or(&[][..], Vec::as_slice);
                idx.clear();
                idx.resize(r.kids.len(), 0usize);
                loop {
                    let mut m = S::empty();
                    for (q, br) in candidates {
                        if br.kids.len() == idx.len()
                            && br
                                .kids
                                .iter()
                                .zip(&r.kids)
                                .zip(&idx)
                                .all(|((&bk, &k), &i)| by_state[k][i].contains(bk))
                        {
                            m.insert(*q);
                        }
                    }
                    found.push(m);
                    // Next combination.
                    let mut i = 0;
                    while i < idx.len() {
                        idx[i] += 1;
                        if idx[i] < by_state[r.kids[i]].len() {
                            break;
                        }
                        idx[i] = 0;
                        i += 1;
                    }
                    if i == idx.len() {
                        break;
                    }
                }
                for m in found.drain(..) {
                    // A tree of the root that the larger automaton's root does not accept.
                    if p == small.root && !m.contains(big.root) {
                        return false;
                    }
                    if seen.insert((p, m.clone())) {
                        by_state[p].push(m);
                        changed = true;
                        grows[p] = true;
                        if seen.len() > INCLUSION_PAIRS {
                            return false;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
        grew = grows;
        first = false;
    }
    by_state[small.root].iter().all(|m| m.contains(big.root))
}
