//! The interpreter's heap: when a run reaches `__memory_violation(kind, at, pointer)` (see
//! `resolve/heap_lower.rs`), it reads the heap (the allocation sites' state arrays) and says
//! which property is violated, how and where, or, for a leak check, whether the blocks still
//! allocated really violate the property checked: for valid-memcleanup any block allocated
//! when `main` returns does; for valid-memtrack only a block no pointer reaches (from the
//! globals, through the live blocks; every integer counts as a possible pointer, so a leak is
//! only reported when it is certain). A leak check at `abort()`/`exit()` is left open (the run
//! stops without a verdict): what SV-COMP expects there is not settled here. Part of
//! [`super`]; must not execute statements.

use super::{Machine, Outcome};
use crate::frontend::c::ir::{BlockSize, HeapSite, InvalidOps, MemViolation};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::collections::BTreeSet;

/// A memory-safety violation found by a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The violated (sub-)property: `valid-deref`, `valid-free`, `valid-memtrack`,
    /// `valid-memcleanup`.
    pub property: &'static str,
    /// What happened (`dereference of a freed pointer`, ...).
    pub what: String,
    /// Byte offset of the operation (or of `main`'s end).
    pub at: usize,
}

/// Element `idx` of the global array `g` (0 where never written).
fn read(m: &Machine<'_>, g: usize, idx: &BigInt) -> BigInt {
    m.global_arrays
        .get(&g)
        .and_then(|a| a.elems.get(idx).cloned())
        .unwrap_or_default()
}

/// The state of element `idx` of site `s` (the codes of [`HeapSite`]: a block of a variable
/// size has its state at its start only; inside it, this gives the start's plus two, as for
/// a block of a fixed size).
fn state(m: &Machine<'_>, s: &HeapSite, idx: &BigInt) -> i64 {
    match s.block {
        BlockSize::Fixed(_) => read(m, s.state, idx).to_i64().unwrap_or(0),
        BlockSize::Variable { sizes, stride } => {
            let offset = idx % BigInt::from(stride);
            let start = idx - &offset;
            let at_start = read(m, s.state, &start).to_i64().unwrap_or(0);
            if at_start == 0 || offset >= read(m, sizes, &start) {
                0
            } else if offset.is_zero() {
                at_start
            } else {
                at_start + 2
            }
        }
    }
}

/// The block that element `idx` of site `s` lies in: its start and number of elements.
fn block_of(m: &Machine<'_>, s: &HeapSite, idx: &BigInt) -> (BigInt, BigInt) {
    match s.block {
        BlockSize::Fixed(n) => {
            let mut start = idx.clone();
            while matches!(state(m, s, &start) - s.state_offset(), 3 | 4) && start > BigInt::zero()
            {
                start -= 1;
            }
            (start, BigInt::from(n))
        }
        BlockSize::Variable { sizes, stride } => {
            let start = idx - idx % BigInt::from(stride);
            let n = read(m, sizes, &start);
            (start, n)
        }
    }
}

/// The site, cell number and element an address lies in.
fn locate<'p>(sites: &'p [HeapSite], v: &BigInt) -> Option<(&'p HeapSite, usize, BigInt)> {
    for s in sites {
        for (k, &b) in s.bases.iter().enumerate() {
            let rel = v - BigInt::from(b);
            if rel >= BigInt::zero() && rel < BigInt::from(s.capacity) {
                return Some((s, k, rel));
            }
        }
    }
    None
}

impl Machine<'_> {
    /// The check of an address that a dereference lowered as invalid reached: inside an
    /// object (a static cell's range, a live heap element) it shows the points-to set the
    /// lowering used incomplete ([`Outcome::Gap`]).
    pub(super) fn check_invalid(&self, address: &BigInt) -> Result<(), Outcome> {
        let gap = |what: String| {
            Err(Outcome::Gap(format!(
                "a dereference lowered as invalid reached {what}: its pointer's points-to set \
                 misses it"
            )))
        };
        let Some(a) = address.to_u64() else {
            return Ok(());
        };
        let at = self.p.ranges.partition_point(|r| r.first <= a);
        if let Some(r) = at.checked_sub(1).map(|k| &self.p.ranges[k]) {
            if a < r.first + r.len {
                return gap(format!("`{}`", self.p.globals[r.global].name));
            }
        }
        if let Some((s, _, i)) = locate(&self.p.heap.sites, address) {
            if matches!(state(self, s, &i) - s.state_offset(), 1 | 3) {
                let line = (self.line_of)(s.span.start);
                return gap(format!("a live block allocated at line {line}"));
            }
        }
        Ok(())
    }

    /// The outcome of reaching `__memory_violation` with these arguments.
    pub(super) fn memory_violation(&mut self, args: &[BigInt]) -> Outcome {
        let code = args.first().and_then(|c| c.to_i64()).unwrap_or(0);
        let at = args.get(1).and_then(|c| c.to_usize()).unwrap_or(0);
        let ptr = args.get(2).cloned().unwrap_or_default();
        let sites = &self.p.heap.sites;
        let found = |property, what: String| Violation { property, what, at };
        let v = match MemViolation::from_code(code) {
            Some(MemViolation::Deref) => {
                let what = if ptr.is_zero() {
                    "dereference of NULL".to_owned()
                } else if ptr == BigInt::from(-1) {
                    "array index out of bounds".to_owned()
                } else {
                    if let Err(gap) = self.check_invalid(&ptr) {
                        return gap;
                    }
                    match locate(sites, &ptr).map(|(s, _, i)| state(self, s, &i)) {
                        Some(2 | 4) => "dereference of a freed pointer".to_owned(),
                        Some(6 | 8) => "dereference of a block allocated by `alloca` after its \
                                        function returned"
                            .to_owned(),
                        Some(_) => "dereference outside an allocated block".to_owned(),
                        None => {
                            "invalid dereference (out of bounds, dangling or uninitialised pointer)"
                                .to_owned()
                        }
                    }
                };
                found("valid-deref", what)
            }
            Some(MemViolation::Free) => {
                let what = match locate(sites, &ptr) {
                    Some((s, 0, i)) => match state(self, s, &i) {
                        1 => {
                            return Outcome::Gap(format!(
                                "the free at line {} of the start of a live block was lowered \
                                 as invalid: the pointer's points-to set misses its site",
                                (self.line_of)(at)
                            ))
                        }
                        2 => "double free",
                        3 | 4 => "free of a pointer into the middle of a block",
                        5..=8 => "free of a block allocated by `alloca`",
                        _ => "free of a pointer that is not the start of an allocated block",
                    },
                    Some(_) => "free of a pointer to a field of a block",
                    None => "free of a pointer that does not point to the heap",
                };
                found("valid-free", what.to_owned())
            }
            Some(MemViolation::LeakAtEnd) => match self.leak(at, "the end of main") {
                Ok(v) => v,
                Err(o) => return o,
            },
            // valid-memcleanup: every block freed when the program ends, however it ends.
            Some(MemViolation::LeakAtAbort) if self.p.heap.checks.cleanup => {
                match self.leak(at, "abort()/exit()") {
                    Ok(v) => v,
                    Err(o) => return o,
                }
            }
            Some(MemViolation::LeakAtAbort) => {
                return Outcome::Stuck(format!(
                    "blocks still allocated at abort()/exit() (line {}): not decided",
                    (self.line_of)(at)
                ))
            }
            Some(MemViolation::Limit) => {
                let stride = sites.iter().find_map(|s| match s.block {
                    BlockSize::Variable { stride, .. } if s.span.start == at => Some(stride),
                    _ => None,
                });
                return Outcome::Stuck(format!(
                    "an allocation of {ptr} elements at line {}: blocks of a variable size hold \
                     from 0 to {} elements in the model",
                    (self.line_of)(at),
                    stride.unwrap_or(1) - 1
                ));
            }
            None => return Outcome::Stuck("an unknown memory violation".to_owned()),
        };
        if self.p.heap.checks.invalid == InvalidOps::Undecided {
            return self.ub(&v.what, at);
        }
        self.violation = Some(v);
        Outcome::Error
    }

    /// The leak check at `main`'s end (or, for memcleanup, at `abort()`/`exit()`: `when`).
    fn leak(&self, at: usize, when: &str) -> Result<Violation, Outcome> {
        let sites = &self.p.heap.sites;
        // Live blocks: (site, start element).
        let mut live: BTreeSet<(usize, BigInt)> = BTreeSet::new();
        for (k, s) in sites.iter().enumerate() {
            if let Some(a) = self.global_arrays.get(&s.state) {
                for (i, v) in &a.elems {
                    if v.to_i64() == Some(1) {
                        live.insert((k, i.clone()));
                    }
                }
            }
        }
        let Some((first_site, first_idx)) = live.iter().next().cloned() else {
            return Err(Outcome::NoError("no block allocated at the end".to_owned()));
        };
        let line = |k: usize| (self.line_of)(sites[k].span.start);
        if self.p.heap.checks.cleanup {
            return Ok(Violation {
                property: "valid-memcleanup",
                what: format!(
                    "{} block(s) not freed at {when} (the first allocated at line {})",
                    live.len(),
                    line(first_site)
                ),
                at,
            });
        }
        let _ = first_idx;
        // Reachability from the globals, through live blocks.
        let heap_globals: BTreeSet<usize> = sites
            .iter()
            .flat_map(HeapSite::globals)
            .chain(self.p.heap.live)
            .collect();
        let mut work: Vec<BigInt> = vec![];
        for (g, v) in self.globals.iter().enumerate() {
            if heap_globals.contains(&g) {
                continue;
            }
            work.push(v.clone());
            if let Some(a) = self.global_arrays.get(&g) {
                work.extend(a.elems.values().cloned());
            }
        }
        let mut reached: BTreeSet<(usize, BigInt)> = BTreeSet::new();
        while let Some(v) = work.pop() {
            let Some((s, _, i)) = locate(sites, &v) else {
                continue;
            };
            let k = sites.iter().position(|x| std::ptr::eq(x, s)).unwrap_or(0);
            let (start, n) = block_of(self, s, &i);
            if state(self, s, &start) != 1 || !reached.insert((k, start.clone())) {
                continue;
            }
            let end = &start + &n;
            let mut e = start;
            while e < end {
                for &c in &s.cells {
                    if let Some(x) = self.global_arrays.get(&c).and_then(|a| a.elems.get(&e)) {
                        work.push(x.clone());
                    }
                }
                e += 1;
            }
        }
        let lost: Vec<&(usize, BigInt)> = live.iter().filter(|b| !reached.contains(b)).collect();
        match lost.first() {
            Some(&&(k, _)) => Ok(Violation {
                property: "valid-memtrack",
                what: format!(
                    "{} block(s) unreachable at the end of main (the first allocated at line {})",
                    lost.len(),
                    line(k)
                ),
                at,
            }),
            None => Err(Outcome::Stuck(
                "the blocks still allocated at the end of main are reachable from globals: \
                 not a memtrack violation"
                    .to_owned(),
            )),
        }
    }
}
