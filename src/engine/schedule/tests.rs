//! The schedule's own tests: its parts, probes and budgets.

use super::*;

#[test]
fn the_two_parts_together_are_the_schedule() {
    let s = Schedule::default();
    let (b, a) = (s.part(0, 2), s.part(1, 2));
    let sequential = s.entries.iter().filter(|e| e.runs == Runs::Sequential);
    // The entries of threads 2 and above (`wide`) run only when split over more.
    let two = s.entries.iter().filter(|e| e.thread < 2).count();
    assert_eq!(a.entries.len() + b.entries.len() + sequential.count(), two);
    // PDR's long run is beside CEGAR, not after it; only its probe runs on CEGAR's thread
    // (and a slice on the cell abstraction, another system).
    assert!(a.entries.iter().all(|e| e.kind != EngineKind::Pdr
        || matches!(e.budget, Budget::Probe(_))
        || (e.view == View::Cells && matches!(e.budget, Budget::Slice(_)))));
    assert!(b.entries.iter().all(|e| e.kind != EngineKind::Cegar));
    assert_eq!(s.part(0, 1).entries, s.entries);
}

#[test]
fn split_entries_run_in_their_part_and_sequential_ones_on_one_thread() {
    let s = Schedule::default();
    let traits = Traits::default();
    let alone = s.entries_for(traits);
    let split: Vec<_> = s
        .entries
        .iter()
        .filter(|e| e.runs == Runs::Split && e.when.holds(traits))
        .collect();
    assert!(!split.is_empty());
    assert!(alone.iter().all(|e| e.runs != Runs::Split));
    let mut every = s.clone();
    every.entries.iter_mut().for_each(|e| e.runs = Runs::Always);
    assert_eq!(alone.len() + split.len(), every.entries_for(traits).len());
    let same = |k: &Entry, e: &Entry| k.kind == e.kind && k.budget == e.budget;
    for e in split {
        let part = s.part(e.thread, 2);
        assert!(part.entries_for(traits).iter().any(|k| same(k, e)));
    }
    // BMC's probe runs right after k-induction's on one thread, and not in its part:
    // there BMC's slice follows k-induction's probe.
    let probe = s
        .entries
        .iter()
        .find(|e| e.runs == Runs::Sequential && e.when.holds(traits));
    let probe = probe.expect("a sequential entry");
    assert!(same(alone[1], probe));
    let part = s.part(probe.thread, 2);
    let second = part.entries_for(traits)[1];
    assert_eq!(second.kind, EngineKind::Bmc);
    assert_eq!(second.budget, Budget::Slice(Duration::from_secs(1)));
}

#[test]
fn beside_pdr_bmc_has_the_time_left() {
    let s = Schedule::default();
    let part = s.part(1, 2);
    let last = part
        .entries_for(Traits::default())
        .last()
        .expect("entries")
        .kind;
    assert_eq!(last, EngineKind::Bmc);
    let reals = Traits {
        over_reals: true,
        ..Traits::default()
    };
    // Over the reals BMC has the thread beside PDR to itself.
    let first = part.entries_for(reals)[0];
    assert_eq!((first.kind, first.budget), (EngineKind::Bmc, Budget::Rest));
    // On one thread PDR keeps the time after CEGAR.
    let alone = s.entries_for(Traits::default());
    let bmcs = alone.iter().filter(|e| e.kind == EngineKind::Bmc).count();
    assert_eq!(bmcs, 3, "probe, slice, rest");
}

#[test]
fn probes_run_first_and_not_under_work_bounds() {
    let s = Schedule::default();
    let entries = s.entries_for(Traits::default());
    assert_eq!(
        (entries[0].kind, entries[1].kind),
        (EngineKind::Kind, EngineKind::Bmc)
    );
    assert!(entries[..2]
        .iter()
        .all(|e| matches!(e.budget, Budget::Probe(_))));
    let bounded = Schedule::deterministic();
    let entries = bounded.entries_for(Traits::default());
    assert!(entries
        .iter()
        .all(|e| !matches!(e.budget, Budget::Probe(_))));
    assert_eq!(entries[0].kind, EngineKind::Slicing);
}

#[test]
fn budgets() {
    let s = Duration::from_secs;
    let share = Budget::Share {
        share: 0.5,
        cap: Some(s(4)),
    };
    assert_eq!(share.slice(Some(s(6))), Some(s(3)));
    assert_eq!(share.slice(Some(s(20))), Some(s(4)));
    assert_eq!(share.slice(None), Some(s(4)));
    assert_eq!(Budget::Rest.slice(Some(s(1))), None);
    let of = Schedule::of(&[EngineKind::Bmc.into(), EngineKind::Pdr.into()]);
    assert_eq!(of.entries[0].budget.slice(Some(s(10))), Some(s(5)));
    assert_eq!(of.entries[1].budget.slice(Some(s(5))), Some(s(5)));
}

#[test]
fn on_one_thread_pdr_answers_before_the_long_slices() {
    let s = Schedule::default();
    // Over the reals: BMC's quick refutations, PDR with most of the time, BMC with the rest.
    let reals = Traits {
        over_reals: true,
        linear: true,
        ..Traits::default()
    };
    let alone: Vec<_> = s
        .entries_for(reals)
        .iter()
        .map(|e| (e.kind, e.budget))
        .take(3)
        .collect();
    let share = Budget::Share {
        share: 0.8,
        cap: None,
    };
    assert_eq!(
        alone,
        [
            (EngineKind::Bmc, Budget::Probe(Duration::from_millis(500))),
            (EngineKind::Pdr, share),
            (EngineKind::Bmc, Budget::Rest),
        ]
    );
    // Over the integers PDR tries again with the quick tries' candidates before BMC's slice
    // and CEGAR's capped one.
    let ints = s.entries_for(Traits::default());
    let bmc = ints.iter().position(|e| {
        e.kind == EngineKind::Bmc && e.budget == Budget::Slice(Duration::from_secs(1))
    });
    let pdr = ints.iter().position(|e| {
        e.kind == EngineKind::Pdr
            && e.seeded
            && e.budget == Budget::Probe(Duration::from_millis(750))
    });
    assert!(pdr.is_some() && pdr < bmc, "{ints:#?}");
}
