//! The nondet values of a counterexample that decide its path, for its violation witness:
//! of each call site, the shortest prefix of its values that still takes the replay (the
//! values past it left to the default, zero) to the same error, so that a witness does not
//! list every element an array was filled with when only the first few matter. Prefixes
//! only: a waypoint applies to the next return at its location, so with a prefix of each
//! site kept the k-th waypoint of a site is still its k-th call, as in the run.
//!
//! Must not: keep a reduction that the replay does not confirm (the same error reached).

use super::super::program::Program;
use super::super::trace::NondetValue;
use super::replay;
use crate::clock::Deadline;
use std::collections::HashMap;

/// `values` with each site cut to the shortest prefix (found by doubling, then bisection;
/// each length replayed) with which the run still reaches `target` (the byte offset of the error call, or
/// of the invalid operation under a memory property); sites with the most values first. What
/// is left when `deadline` passes stays.
pub fn essential_values(
    program: &Program,
    values: &[NondetValue],
    target: usize,
    line_of: &dyn Fn(usize) -> usize,
    deadline: &Deadline,
) -> Vec<NondetValue> {
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for v in values {
        *counts.entry(v.site).or_default() += 1;
    }
    let mut sites: Vec<(usize, usize)> = counts.into_iter().collect();
    // The most values first, then in source order, so the result does not depend on hashing.
    sites.sort_by_key(|&(site, n)| (std::cmp::Reverse(n), site));
    let mut kept = values.to_vec();
    let stop = || deadline.expired() || deadline.is_cancelled();
    for (site, n) in sites {
        let reaches = |len: usize| {
            replay(program, &prefix(&kept, site, len), line_of).reached() == Some(target)
        };
        // `hi` is always a length the replay confirmed (the whole site at first). Lengths
        // 0, 1, 2, 4, ... first: a replay costs a whole run however short the prefix, and the
        // prefix that matters is usually short.
        let (mut lo, mut hi) = (0, n);
        let mut len = 0;
        while len < hi && !stop() {
            if reaches(len) {
                hi = len;
                break;
            }
            lo = len + 1;
            len = (len * 2).max(1);
        }
        while lo < hi && !stop() {
            let mid = (lo + hi) / 2;
            if reaches(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        kept = prefix(&kept, site, hi);
        if stop() {
            break;
        }
    }
    kept
}

/// `values` with only the first `len` of `site`'s.
fn prefix(values: &[NondetValue], site: usize, len: usize) -> Vec<NondetValue> {
    let mut seen = 0;
    values
        .iter()
        .filter(|v| {
            if v.site != site {
                return true;
            }
            seen += 1;
            seen <= len
        })
        .cloned()
        .collect()
}
