//! How a clause reads its arrays, for the cell abstraction (part of [`super`]): the array
//! equalities it assumes and the arrays each array term is a version of, reads pushed through
//! writes, the reads of each array variable, and Ackermann's reduction of those reads to
//! variables.
//!
//! Must not: choose instances or cells (that is [`super::Cells`]).

use super::MAX_RELATED_READS;
use crate::term::{Op, Sort, Term, TermId, TermStore, VarId};
use std::collections::{BTreeSet, HashMap};

/// The array variables of each equality of arrays in `constraint`, wherever it sits.
pub(super) fn array_equalities(store: &TermStore, constraint: TermId) -> Vec<BTreeSet<VarId>> {
    let mut groups = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![constraint];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if let Term::App(op, args) = &store.get(t).term {
            if *op == Op::Eq && matches!(store.sort(args[0]), Sort::Array(..)) {
                groups.push(args.iter().flat_map(|&a| made_from(store, a)).collect());
            } else {
                stack.extend(args.iter().copied());
            }
        }
    }
    groups
}

/// The array variables the array term `t` is a version of: `t` itself, the array a `store`
/// writes into, both arrays of an `ite` — not the arrays its indices and values read (in
/// `x = store(a, i, b[j])`, `x` is made from `a`, not from `b`).
pub(super) fn made_from(store: &TermStore, t: TermId) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match &store.get(t).term {
            Term::Var(x) => {
                out.insert(*x);
            }
            Term::App(Op::Store, args) => stack.push(args[0]),
            Term::App(Op::Ite, args) => stack.extend([args[1], args[2]]),
            _ => {}
        }
    }
    out
}

/// The array variables an array is made from: `from` (see [`made_from`]) and every array
/// variable one of the `equalities` relates to them, transitively (`x = a2` and
/// `x = store(a2, i, e)` under a disjunction: `x` is made from `a2`).
pub(super) fn related(
    equalities: &[BTreeSet<VarId>],
    mut from: BTreeSet<VarId>,
) -> BTreeSet<VarId> {
    let mut grown = true;
    while grown {
        grown = false;
        for g in equalities {
            if !g.is_disjoint(&from) && !g.is_subset(&from) {
                from.extend(g.iter().copied());
                grown = true;
            }
        }
    }
    from
}

/// `t` with every read of a written, constant or chosen array pushed down to reads of the
/// arrays below it: `store(a, i, e)[j]` is `ite(j = i, e, a[j])`, `const(e)[j]` is `e`,
/// `ite(c, a, b)[j]` is `ite(c, a[j], b[j])`.
pub(super) fn push_reads(store: &TermStore, t: TermId) -> TermId {
    fn read(store: &TermStore, array: TermId, index: TermId) -> TermId {
        match &store.get(array).term {
            Term::App(Op::Store, args) => {
                let below = read(store, args[0], index);
                store.ite(store.eq(index, args[1]), args[2], below)
            }
            Term::App(Op::ConstArray(_), args) => args[0],
            Term::App(Op::Ite, args) => {
                let (a, b) = (read(store, args[1], index), read(store, args[2], index));
                store.ite(args[0], a, b)
            }
            _ => store.app(Op::Select, vec![array, index]),
        }
    }
    fn go(store: &TermStore, t: TermId, memo: &mut HashMap<TermId, TermId>) -> TermId {
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let r = match &store.get(t).term {
            Term::App(op, args) => {
                let args: Vec<TermId> = args.iter().map(|&a| go(store, a, memo)).collect();
                match op {
                    Op::Select => read(store, args[0], args[1]),
                    _ => store.app(op.clone(), args),
                }
            }
            _ => t,
        };
        memo.insert(t, r);
        r
    }
    go(store, t, &mut HashMap::new())
}

/// The reads `a[i]` of array variables in `t` (array, index, the read), in the order of a
/// left-to-right walk (each once).
fn reads_of(store: &TermStore, t: TermId) -> Vec<(VarId, TermId, TermId)> {
    fn go(
        store: &TermStore,
        t: TermId,
        seen: &mut BTreeSet<TermId>,
        out: &mut Vec<(VarId, TermId, TermId)>,
    ) {
        if !seen.insert(t) {
            return;
        }
        if let Term::App(op, args) = &store.get(t).term {
            for &a in args.iter() {
                go(store, a, seen, out);
            }
            if *op == Op::Select {
                if let Some(a) = store.as_var(args[0]) {
                    out.push((a, args[1], t));
                }
            }
        }
    }
    let mut out = Vec::new();
    go(store, t, &mut BTreeSet::new(), &mut out);
    out
}

/// The distinct indices each array variable is read at in `t`, in [`reads_of`]'s order.
pub(super) fn reads_by_array(store: &TermStore, t: TermId) -> HashMap<VarId, Vec<TermId>> {
    let mut reads: HashMap<VarId, Vec<TermId>> = HashMap::new();
    for (a, index, _) in reads_of(store, t) {
        let at = reads.entry(a).or_default();
        if !at.contains(&index) {
            at.push(index);
        }
    }
    reads
}

/// `t` with each read of an array variable replaced by a new variable, and reads of one array
/// at equal indices equal (the first [`MAX_RELATED_READS`] of each array).
pub(super) fn ackermann(store: &TermStore, t: TermId) -> TermId {
    let reads = reads_of(store, t);
    let mut map: HashMap<TermId, TermId> = HashMap::new();
    let mut by_array: HashMap<VarId, Vec<(TermId, TermId)>> = HashMap::new();
    for (a, index, read) in reads {
        let name = format!("{}!read", store.var_name(a));
        let v = store.var(store.new_var(&name, store.sort(read)));
        map.insert(read, v);
        by_array.entry(a).or_default().push((index, v));
    }
    let mut parts = vec![t];
    let mut arrays: Vec<_> = by_array.into_iter().collect();
    arrays.sort_by_key(|(a, _)| *a);
    for (_, reads) in arrays {
        let reads = &reads[..reads.len().min(MAX_RELATED_READS)];
        for (n, &(i, u)) in reads.iter().enumerate() {
            for &(j, w) in &reads[n + 1..] {
                parts.push(store.implies(store.eq(i, j), store.eq(u, w)));
            }
        }
    }
    store.replace(store.and(parts), &map)
}
