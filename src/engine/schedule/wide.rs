//! The schedule's entries for threads 2 to 6 ([`super::Schedule::width`] threads in all),
//! which run only when `--threads` asks for that many: each thread gets work that the two
//! first do not do, rather than a copy of theirs. Thread 0 runs BMC and the long PDR, thread 1
//! slicing, the samples and CEGAR with the default settings (and over the reals BMC alone);
//! here come other configurations of the same engines:
//!
//! - 2: over the reals, the invariant side that thread 1 leaves to BMC there (slicing, the
//!   samples, CEGAR); elsewhere PDR at once on the system as given, unseeded, all the time.
//! - 3: CEGAR refining the abstract counterexample tree only ([`CexShape::Tree`]), unseeded;
//!   over the reals interpolation-based model checking, all the time (it proves some sally
//!   systems in under a second where PDR takes 3-6 s, but its slice before BMC or PDR on the
//!   first two threads delayed their answers by as much: BENCHMARKS.md, "Interpolation-based
//!   model checking").
//! - 4: slicing with syntactic weakening (no SMT call), longer samples, then PDR seeded with
//!   what they found.
//! - 5: CEGAR on uniform unfoldings ([`CexShape::Uniform`]).
//! - 6: PDR on the system split by Boolean valuations.
//!
//! (BMC with all the time would be a seventh, but thread 1 already ends with it on integer
//! systems and runs it alone over the reals.)
//!
//! Must not: repeat an entry of threads 0 and 1 with their settings (a copy only competes
//! for the cores).

use super::{Budget, EngineKind, Entry, Runs, Settings, View, When};
use crate::engine::cegar::CexShape;
use crate::engine::slicing::Weakening;
use std::time::Duration;

/// The entries of threads 2 to 6, each run only when split over more threads than its index.
pub(super) fn entries() -> Vec<Entry> {
    use EngineKind::*;
    let secs = Duration::from_secs;
    let on = |thread: usize, when: When, e: Entry| Entry {
        thread,
        when,
        runs: Runs::Split,
        ..e
    };
    let e = Entry::new;
    let seeded = |e: Entry| Entry { seeded: true, ..e };
    let with = |settings: Settings, e: Entry| Entry {
        settings: Some(settings),
        ..e
    };
    let cex = |cex_shape| Settings {
        cex_shape,
        ..Settings::default()
    };
    let split = |e: Entry| Entry {
        view: View::SplitBooleans,
        ..e
    };
    vec![
        on(2, When::OverReals, e(Slicing, Budget::Slice(secs(2)))),
        on(
            2,
            When::OverReals,
            seeded(e(Samples, Budget::Slice(secs(2)))),
        ),
        on(2, When::OverReals, seeded(e(Cegar, Budget::Rest))),
        on(2, When::NotOverReals, e(Pdr, Budget::Rest)),
        on(
            3,
            When::NotOverReals,
            with(cex(CexShape::Tree), e(Cegar, Budget::Rest)),
        ),
        on(3, When::OverReals, e(Imc, Budget::Rest)),
        on(
            4,
            When::NotOverReals,
            with(
                Settings {
                    weakening: Weakening::Syntactic,
                    ..Settings::default()
                },
                e(Slicing, Budget::Slice(secs(1))),
            ),
        ),
        on(4, When::Lia, seeded(e(Samples, Budget::Slice(secs(4))))),
        on(4, When::NotOverReals, seeded(e(Pdr, Budget::Rest))),
        on(
            5,
            When::NotOverReals,
            with(cex(CexShape::Uniform), e(Cegar, Budget::Rest)),
        ),
        on(6, When::Always, split(e(Pdr, Budget::Rest))),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::Schedule;
    use super::*;

    #[test]
    fn the_wide_threads_repeat_no_entry_of_the_first_two() {
        let s = Schedule::default();
        assert_eq!(s.width(), 7);
        // Over the reals thread 0 runs PDR with all the time; thread 2's is over the others.
        let key = |e: &Entry| (e.kind, e.view, e.seeded, e.settings, e.budget, e.when);
        let first: Vec<_> = s.entries.iter().filter(|e| e.thread < 2).map(key).collect();
        for e in entries() {
            assert_eq!(e.runs, Runs::Split, "{e:?}");
            assert!(!first.contains(&key(&e)), "{e:?}");
        }
        // Each part of seven threads is its thread's entries; the first two are those of two.
        for t in 0..7 {
            let part = s.part(t, 7);
            assert!(!part.entries.is_empty());
            assert!(part.entries.iter().all(|e| e.thread == t));
            if t < 2 {
                assert_eq!(part.entries, s.part(t, 2).entries);
            }
        }
    }
}
