//! The portfolio behind `--engine auto` and `--engine a,b,...`: the entries of a [`Schedule`]
//! (formula slicing, the samples, BMC, CEGAR and PDR by default) run one after the other, each
//! through the [`Engine`] trait within its budget; the candidate invariants an engine leaves
//! seed the entries after it that take them, and the first validated answer wins.
//!
//! Duty: compose the engines (they never call each other; only this module does), give each its
//! slice of the caller's deadline, pass candidates on, and report in the stats which engine
//! answered and how long each phase ran. A `sat` counts only when its model was validated (engines
//! validate their own models but where they are models by construction, explore's and
//! unseeded PDR's; the driver checks every answer against the original system, and a model
//! that fails there is a witness failure);
//! an `unsat` counts only when its derivation replays here (ground evaluation, cheap).
//!
//! An entry runs on a [`View`] of the system: as given, split, or abstracted to sizes.
//! Systems whose predicates carry Boolean arguments (control state in VMT and Lustre encodings) are
//! split first ([`SplitBooleans`](crate::transform::SplitBooleans): one predicate per reachable
//! valuation, at most 2 s) for the entries whose view is `SplitBooleans`: slicing, the sampling phase and CEGAR
//! work on the split system, whose invariants are conjunctive where the original's are disjunctive
//! in the control state; their answers are translated back. BMC keeps the unsplit system, which it
//! unrolls faster (on the public set three kind2 refutations take 0.7 s unsplit and time out
//! split), and so does PDR, whose lemmas are clauses that mention Boolean arguments directly.
//!
//! Must not: print, run engines in parallel (the [`parallel`](super::parallel) module runs a
//! schedule's parts on threads), know an engine beyond its kind, or let an unchecked answer
//! out.
//!
//! ## The schedule and the measurement behind it
//!
//! The list is [`Schedule::default`]. First quick probes (session 16): BMC 50 ms, slicing (its
//! own 2 s entry), PDR 250 ms, CEGAR 250 ms; most files that any engine answers within a second
//! are answered there, and the others lose about half a second. On the public set the median
//! time on the files both Hornbeam and Z3 solve went from 0.76 s to 0.14 s (Z3: 0.05 s), with
//! the same answers but two BMC refutations that sit at the 1 s slice's edge (BENCHMARKS.md,
//! "Quick probes first"): a BMC refutation of depth 3 or a PDR proof of 20 ms had waited
//! behind the samples (0.5-0.9 s when they fail) and a 1 s BMC slice. The probe lengths come
//! from the session-15 run's 218 files both solved: 71 of the 84 BMC refutations took at most
//! 50 ms. Under two threads (session 23) the invariant side starts with PDR alone for 100 ms,
//! before the Boolean split and slicing: on the 114 public `sat` files a first 3 s pass answered
//! within 2.5 s, the median time went from 0.31 to 0.24 s (the `unsat` ones, BMC's on the other
//! thread, unchanged at 0.075 s); a 120 ms PDR try on BMC's thread instead delayed BMC's
//! refutations by as much (BENCHMARKS.md, "Startup of a two-thread solve and PDR's quick
//! try"). Then the schedule measured before the probes: slicing 2 s, candidates from sampled states 1 s
//! ([`Samples`](super::seeds::Samples): affine and quadratic equalities, bounds and orderings that
//! hold on concrete reachable states, filtered to an inductive subset; validated together with
//! slicing's candidates, a proof when they exclude the queries, else their linear lemmas join
//! CEGAR's seeds), BMC 1 s, CEGAR (seeded) 80 % of the time left but at most 4 s, PDR the rest, BMC
//! whatever PDR leaves. The sampling phase was added after the replay below, for the SV-COMP safe
//! tasks (BENCHMARKS.md, "C programs (issue 7)"); PDR and CEGAR's cap in session 6 (below). The
//! rest was chosen by replaying the single engines' per-file results on the 269 non-ADT files of
//! `../shared/chc-bench/public` (`scripts/portfolio_schedule.py`; tables in BENCHMARKS.md, "The
//! portfolio's schedule"):
//!
//! - slicing (cex weakening, 20 s): all 23 proofs within 0.97 s; 90 % of its `unknown`s end
//!   within 1.03 s, a few run to the limit. Slice: 2 s.
//! - BMC with preprocessing (20 s, the 94 files Z3 refutes): 79 refutations, 90 % within
//!   0.81 s, the slowest 3.9 s. First slice: 1 s; the slow ones are caught by the last phase.
//! - CEGAR (20 s per file): 122 answers (65 `sat`, 57 `unsat`), many of them late, so it gets
//!   most of the time; when it gives up early ("no new predicate") BMC gets the time back.
//!
//! Replayed at 20 s per file this schedule solves 143 (CEGAR's share 0.5: 141, 0.6-0.7: 142,
//! 0.9 or all: 141; BMC alone 81, CEGAR alone 122). The cheap engines go first because they
//! answer or give up within about a second; slicing is first because its candidates are
//! CEGAR's seeds anyway.
//!
//! PDR (session 6, BENCHMARKS.md "PDR"): alone, it solves 26 of the 44 LRA-TS files (the
//! portfolio before it: 10; Z3: 26), 66 of 96 LIA-NonLin at 10 s (the portfolio: 64), and 67 of
//! 105 LIA-Lin at 10 s (the portfolio: 84; PDR diverges where CEGAR's interpolants find parity
//! and linear equalities at once). Its hard answers come late (sally and VMT `sat`s at 10-19
//! s), CEGAR's early: of the portfolio's CEGAR answers that took CEGAR more than 4 s, PDR
//! solves all but one (kind2 FIREFLY_luke_1a). Hence CEGAR first, capped at 4 s, and PDR the
//! rest, its frames seeded with slicing's and the samples' candidates (as CEGAR's are). On
//! systems over the reals PDR goes first, right after a 3 s BMC pass: every LRA-TS file the
//! portfolio solved before PDR, PDR alone solves too, and 8 of its 26 answers needed more than
//! 10 s; the BMC pass is 3 s because BMC refutes `tte_synchro…strict` (2.6 s) and
//! `transmitter.2` (2.1 s) that PDR needs 13-20 s for (session 7).
//!
//! k-induction (session 42) comes first, as a 50 ms probe that is also BMC's on linear
//! systems (its base case is BMC; BMC's own probe runs only on non-linear systems, which
//! k-induction leaves at once): where a property is k-inductive for a small k it answers in a
//! few milliseconds, and the `sat` files it does not answer reach PDR and CEGAR no later than
//! before. On the LIA-Lin and LRA-TS files the old binary answered within 2.5 s, one thread,
//! alternating: median ratio 0.93 on `sat` (quartiles 0.38-1.00) and 0.91 on `unsat`, against
//! a spread of 1.00 (BENCHMARKS.md, "k-induction"). A 100 ms probe before BMC's made the
//! `sat` files it did not answer 16 % slower. Not over the reals: on LRA-TS it proved nothing
//! (the sally systems are not k-inductive at a depth its base case reaches), BMC's 3 s pass
//! refutes what it refuted, and PDR after it, with more terms in the store, took another path
//! (`s3_srvr_10`: 3.3 s became 6.3 s, in three runs).
//!
//! Over datatypes (session 20) the samples get 6 s instead of 1 s: their shape facts
//! (`is-cons l ∧ is-nil (tl l) → r = l`) are the invariants of the ADT-LIA files slicing,
//! CEGAR and PDR do not prove, and filtering some 2000 of them takes 2-4 s
//! (`ringen…sort_MSortTDSorts`: 3.5 s alone, none at 2 s). CEGAR's interpolation gives up at
//! once on those systems, so the time is not taken from it.
//!
//! Before them (session 21), the samples (1 s) and CEGAR (2 s) run on the size abstraction
//! ([`SizeAbstraction`]): every datatype value as its size, so that `append(a, b, c) → |c| =
//! |a| + |b|` is a linear invariant (`list_append_len`, which neither Z3 nor the shape facts
//! prove: 1.3 s), and CEGAR on the sizes again as the last entry of its thread (half the time
//! left under one thread: `prop_19`'s `|drop n l| = max(|l| - n, 0)` takes it 22 refinements,
//! 5-9 s). Their models are validated here (at most 5 s), with the recursive size functions,
//! before they count: a solver that cannot decide one leaves the phases after it to run.
//! ADT-LIA at 20 s: 17 solved against Z3's 14 (BENCHMARKS.md, "Datatypes as their sizes").
//!
//! Deep counterexamples (session 27): on two threads, over the integers, BMC runs again as the
//! last entry of the invariant thread, after CEGAR's capped slice. On the public set at 20 s
//! CEGAR answered no integer file after that slice (session 24: its late answers were
//! `prop_19`, on the sizes, and one LRA-TS file), while the three `id_o200`/`id_o1000`
//! refutations (200-1000 steps) were found by no engine: BMC's thread gives it 1 s and PDR the
//! rest. With BMC checking every eighth level of its depth (not every level), `id_o200` takes
//! it 2 s alone (BENCHMARKS.md, "Deep counterexamples"). Over the reals (session 31), BMC has
//! its thread to itself: the slicing, samples and CEGAR slices after its 3 s pass answered no
//! LRA-TS file in the runs of sessions 29 and 30, while BMC alone refutes the VMT
//! `kundu-bug-2` (35 steps, 12 s) and `transmitter.3` (25 steps, 8 s), and a second pass
//! started again from depth 0.
//!
//! Time to an answer (session 28): on two threads BMC's 50 ms probe does not run
//! ([`Runs::Sequential`](super::schedule::Runs)): its thread starts with BMC's slice, which
//! otherwise began again from depth 0 after the probe, so a counterexample found within the
//! slice arrives up to 50 ms sooner (BENCHMARKS.md, "Time to an answer").

use super::schedule::{Schedule, Traits, View};
use super::stats::Phase;
use super::{Candidates, Context, Engine, Stats};
use crate::chc::System;
use crate::clock::Deadline;
use crate::term::TermStore;
use crate::transform::{BackTranslator, SizeAbstraction};
use crate::witness::{replay_derivation, Answer, ExportedModel, Model, Reason};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The portfolio engine: runs its [`Schedule`] (see the module header).
#[derive(Clone, Debug, Default)]
pub struct Portfolio {
    /// What runs, in what order, with what budget.
    pub schedule: Schedule,
    /// Where the parts of a parallel schedule leave candidates for each other (`None`: this
    /// portfolio runs alone).
    pub board: Option<Board>,
    /// Whether this part of a parallel schedule runs on a thread beyond the machine's cores:
    /// it then starts after [`Schedule::oversubscribed_start`], at the lowest priority.
    pub oversubscribed: bool,
}

/// The candidates one part of a parallel schedule leaves for the others: the latest
/// candidate model over the system as given (not split), in a form that crosses threads
/// (each part has its own store). The sequential schedule's hand-over from slicing and the
/// samples to PDR, as a message.
#[derive(Clone, Default)]
pub struct Board(Arc<Mutex<Option<ExportedModel>>>);

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Board")
    }
}

impl Board {
    /// Leaves `model` (over `store`) in place of what was there.
    fn post(&self, store: &TermStore, model: &Model) {
        let exported = model.export(store);
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(exported);
    }

    /// The latest model left, moved into `store`.
    fn read(&self, store: &TermStore) -> Option<Model> {
        let guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref()?.import(store).ok().map(|(m, _)| m)
    }
}

impl Portfolio {
    /// The portfolio of a schedule.
    pub fn new(schedule: Schedule) -> Self {
        Portfolio {
            schedule,
            board: None,
            oversubscribed: false,
        }
    }

    /// The default schedule under work bounds ([`Schedule::deterministic`]).
    pub fn deterministic() -> Self {
        Portfolio::new(Schedule::deterministic())
    }
}

/// A deadline `slice` from now, but never past `outer`.
fn sliced(outer: &Deadline, slice: Option<Duration>) -> Deadline {
    slice.map_or_else(|| outer.clone(), |s| outer.at_most(s))
}

/// The candidates found so far, and the view of the system they are over.
struct Found {
    model: Model,
    view: View,
}

/// The systems made from the given one for the entries that want them (each made when the
/// first such entry runs; the entries before it, quick probes, do not wait for it), with the
/// maps of their answers back. `None` inside: the view could not be made.
#[derive(Default)]
struct Views {
    split: Option<Option<(System, Box<dyn BackTranslator>)>>,
    sizes: Option<Option<(System, Box<dyn BackTranslator>)>>,
}

impl Portfolio {
    /// Runs the schedule; returns the engine that answered (`"portfolio"` for `unknown`) and
    /// the answer.
    pub fn run(
        &self,
        cx: &Context<'_>,
        system: &System,
        stats: &mut Stats,
    ) -> (&'static str, Answer) {
        let store = cx.store;
        let schedule = &self.schedule;
        let entries = schedule.entries_for(Traits::of(system));
        let mut reasons: Vec<Reason> = Vec::new();
        let mut views = Views::default();
        let mut found: Option<Found> = None;
        for (i, entry) in entries.iter().enumerate() {
            if cx.stopped() {
                break;
            }
            let last = i + 1 == entries.len();
            let (view, on, back) = match self.view(cx, system, entry.view, &mut views, stats) {
                Some((on, back)) => (entry.view, on, Some(back)),
                // No sizes without datatypes: the entry has nothing to run on.
                None if entry.view == View::Sizes => {
                    reasons.push(Reason::GaveUp(format!(
                        "{}@sizes: no predicate has a datatype argument",
                        entry.kind.name()
                    )));
                    continue;
                }
                None => (View::Given, system, None),
            };
            let seeds = match (&found, &self.board) {
                _ if !entry.seeded => None,
                (Some(f), _) if f.view == view => Some(f.model.clone()),
                // What another part left, when this part found nothing of its own.
                (None, Some(board)) if view == View::Given => board.read(store),
                _ => None,
            };
            // The user's hints that survived their filter (invariants) go with every seed on
            // the system as given.
            let seeds = match (cx.candidates.seeds(), seeds) {
                (Some(h), Some(s)) if entry.seeded && view == View::Given => {
                    Some(super::seeds::conjoin(store, system, &s, h))
                }
                (Some(h), None) if entry.seeded && view == View::Given => Some(h.clone()),
                (_, s) => s,
            };
            let t = Instant::now();
            let slice = match (schedule.bounds, last) {
                (Some(_), _) | (None, true) => None,
                (None, false) => entry.budget.slice(cx.deadline.remaining()),
            };
            let sub_cx = Context {
                store,
                deadline: sliced(&cx.deadline, slice),
                check_deadline: cx.check_deadline.clone(),
                candidates: Candidates::given(seeds),
            };
            let mut sub = Stats::default();
            let answer = schedule
                .engine_for(entry, last)
                .solve(&sub_cx, on, &mut sub);
            if let Some(model) = sub_cx.candidates.take_left() {
                if let (Some(board), View::Given) = (&self.board, view) {
                    board.post(store, &model);
                }
                found = Some(Found { model, view });
            }
            let answer = checked(cx, system, lift(cx, system, view, back, answer));
            let name = entry.kind.name();
            stats.portfolio().phases.push(Phase {
                view: (view != View::Given).then(|| view.name()),
                ..Phase::new(name, &answer, ms(t), sub)
            });
            match answer {
                Answer::Unknown(r) => reasons.push(r),
                a => return (name, a),
            }
        }
        if cx.stopped() {
            reasons.push(Reason::Timeout);
        }
        reasons.dedup();
        ("portfolio", Answer::Unknown(Reason::Phases(reasons)))
    }

    /// The system of `view` and the map of its answers back (made on first use); `None` for
    /// the system as given, or when the view could not be made.
    fn view<'v>(
        &self,
        cx: &Context<'_>,
        system: &System,
        view: View,
        views: &'v mut Views,
        stats: &mut Stats,
    ) -> Option<(&'v System, &'v dyn BackTranslator)> {
        let store = cx.store;
        let made = match view {
            View::Given => return None,
            View::SplitBooleans => views.split.get_or_insert_with(|| {
                let t = Instant::now();
                let made = self
                    .schedule
                    .split_bools
                    .as_ref()
                    .and_then(|s| s.split(store, system));
                if let Some((s, _)) = &made {
                    let counts = stats.portfolio();
                    counts.split_bools_ms = Some(ms(t));
                    counts.split_bools_predicates = Some(s.num_preds());
                }
                made
            }),
            View::Sizes => views
                .sizes
                .get_or_insert_with(|| SizeAbstraction.apply(store, system)),
        };
        made.as_ref().map(|(s, b)| (s, b.as_ref()))
    }
}

/// The longest check of a size model here (the driver checks it again with all its time): a
/// solver lost in unfolding a recursive size function leaves the time to the phases after it
/// (`list_append_len`'s model checks in 0.05 s).
const SIZES_CHECK: Duration = Duration::from_secs(5);

/// An answer on a view of the system, translated back to the system itself. A model of the
/// size abstraction is validated here, as engines validate theirs: its size functions are
/// recursive, which the solver may fail to decide, and the phases after it should then run.
fn lift(
    cx: &Context<'_>,
    system: &System,
    view: View,
    back: Option<&dyn BackTranslator>,
    answer: Answer,
) -> Answer {
    let Some(b) = back else { return answer };
    match answer {
        Answer::Sat(m) => {
            let m = b.model(cx.store, m, cx.deadline.clone());
            match view {
                View::Sizes => {
                    let check = cx.deadline.at_most(SIZES_CHECK);
                    Answer::Sat(m).validated(cx.store, system, check)
                }
                _ => Answer::Sat(m),
            }
        }
        Answer::Unsat(d) => match b.derivation(cx.store, d, cx.deadline.clone()) {
            Ok(d) => Answer::Unsat(d),
            Err(e) => Answer::Unknown(match e.reason() {
                Reason::WitnessFailed(why) => Reason::WitnessFailed(format!("{view:?}: {why}")),
                r => r,
            }),
        },
        u => u,
    }
}

/// Replays an `unsat` answer's derivation (a `sat` answer's model was validated by its engine,
/// or is one by construction: see the module header).
fn checked(cx: &Context<'_>, system: &System, answer: Answer) -> Answer {
    match answer {
        Answer::Unsat(d) => match replay_derivation(cx.store, system, &d) {
            Ok(()) => Answer::Unsat(d),
            Err(e) => Answer::Unknown(Reason::of_replay(&e)),
        },
        a => a,
    }
}

fn ms(t: Instant) -> u64 {
    t.elapsed().as_millis() as u64
}

impl Engine for Portfolio {
    fn solve(&self, cx: &Context<'_>, system: &System, stats: &mut Stats) -> Answer {
        let (engine, answer) = self.run(cx, system, stats);
        stats.portfolio().answered_by = Some(engine);
        answer
    }
}
