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
//! An entry runs on a [`View`] of the system: as given, split, or abstracted (datatypes to
//! their sizes, arrays to one cell).
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
//! ## The schedule
//!
//! The list is [`Schedule::default`]; why each entry is where it is, with the measurements
//! behind it (session by session), is in BENCHMARKS.md, "Why the portfolio's schedule is what it
//! is". A change to the schedule is measured there, not described here.

use super::schedule::{Schedule, Traits, View};
use super::seeds::sample::{self, States};
use super::stats::Phase;
use super::{Candidates, Context, Engine, FrameLemmas, Stats};
use crate::chc::System;
use crate::clock::Deadline;
use crate::term::TermStore;
use crate::transform::{BackTranslator, CellAbstraction, SizeAbstraction};
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

/// A system made from the given one, and the map of its answers back.
type Made = (System, Box<dyn BackTranslator>);

/// The systems made from the given one for the entries that want them (each made when the
/// first such entry runs; the entries before it, quick probes, do not wait for it), with the
/// maps of their answers back. `None` inside: the view could not be made.
#[derive(Default)]
struct Views {
    split: Option<Option<Made>>,
    sizes: Option<Option<Made>>,
    /// With the abstraction's range candidates and the projections of the given system's
    /// samples.
    cells: Option<Option<(Made, Model, Arc<States>)>>,
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
        // The cell abstraction's candidates are kept apart: its entries run beside the others
        // over arrays, and what they leave must not hide what the entries before them left
        // for the entries after them.
        let mut found_on_cells: Option<Model> = None;
        // The frame lemmas the last PDR run on each view left, for the next one on that view.
        let mut frames: Vec<(View, Arc<FrameLemmas>)> = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            if cx.stopped() {
                break;
            }
            let last = i + 1 == entries.len();
            let (view, on, back, templates, states) =
                match self.view(cx, system, entry.view, &mut views, stats) {
                    Some((on, back, extra)) => {
                        let (templates, states) = extra.unzip();
                        (entry.view, on, Some(back), templates, states)
                    }
                    // No sizes without datatypes, no cells without arrays: the entry has nothing
                    // to run on.
                    None if matches!(entry.view, View::Sizes | View::Cells) => {
                        let what = match entry.view {
                            View::Sizes => "a datatype argument",
                            _ => "an array argument of scalars (and none of arrays)",
                        };
                        reasons.push(Reason::GaveUp(format!(
                            "{}@{}: no predicate has {what}",
                            entry.kind.name(),
                            entry.view.name()
                        )));
                        continue;
                    }
                    None => (View::Given, system, None, None, None),
                };
            let seeds = match (&found, &self.board) {
                _ if !entry.seeded => None,
                _ if view == View::Cells => found_on_cells.clone(),
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
                candidates: Candidates::given(seeds)
                    .with_templates(templates.cloned())
                    .with_states(states.cloned())
                    .with_frames(
                        (frames.iter().filter(|_| entry.seeded))
                            .find_map(|(v, f)| (*v == view).then(|| f.clone())),
                    ),
            };
            let mut sub = Stats::default();
            let answer = schedule
                .engine_for(entry, last)
                .solve(&sub_cx, on, &mut sub);
            if let Some(left) = sub_cx.candidates.take_left_frames() {
                frames.retain(|(v, _)| *v != view);
                frames.push((view, Arc::new(left)));
            }
            if let Some(model) = sub_cx.candidates.take_left() {
                if let (Some(board), View::Given) = (&self.board, view) {
                    board.post(store, &model);
                }
                match view {
                    View::Cells => found_on_cells = Some(model),
                    _ => found = Some(Found { model, view }),
                }
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

    /// The system of `view`, the map of its answers back and the view's unfiltered candidates
    /// and reachable states (made on first use); `None` for the system as given, or when the
    /// view could not be made.
    #[allow(clippy::type_complexity)]
    fn view<'v>(
        &self,
        cx: &Context<'_>,
        system: &System,
        view: View,
        views: &'v mut Views,
        stats: &mut Stats,
    ) -> Option<(
        &'v System,
        &'v dyn BackTranslator,
        Option<(&'v Model, &'v Arc<States>)>,
    )> {
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
            View::Cells => {
                let made = views.cells.get_or_insert_with(|| {
                    let (cells, back) = CellAbstraction.apply(store, system)?;
                    let budget = cx.deadline.at_most(CELL_SAMPLING);
                    let (states, _) = sample::collect(store, system, budget, CELL_STATES, true);
                    let states = CellAbstraction.project_states(system, &states);
                    let templates = CellAbstraction.templates(store, system, &cells, &states);
                    Some(((cells, back), templates, Arc::new(states)))
                });
                return made
                    .as_ref()
                    .map(|((s, b), t, st)| (s, b.as_ref(), Some((t, st))));
            }
        };
        made.as_ref().map(|(s, b)| (s, b.as_ref(), None))
    }
}

/// The time spent sampling the given system for the cell abstraction's states, once: the
/// samples engine on the cells adds their projections to its own (`cells/states.rs`).
const CELL_SAMPLING: Duration = Duration::from_millis(1000);

/// The most states per predicate of that sampling (more than the samples engine keeps: the
/// loops of array programs run a few times before the states after them are reached).
const CELL_STATES: usize = 200;

/// The longest check of an abstraction's model here (the driver checks it again with all its
/// time): a solver lost in unfolding a recursive size function or instantiating a cell's
/// quantifier leaves the time to the phases after it (`list_append_len`'s model checks in
/// 0.05 s).
const ABSTRACTION_CHECK: Duration = Duration::from_secs(5);

/// An answer on a view of the system, translated back to the system itself. A model of an
/// abstraction is validated here, as engines validate theirs: its size functions are
/// recursive and its cells quantified, which the solver may fail to decide, and the phases
/// after it should then run.
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
                View::Sizes | View::Cells => {
                    let check = cx.deadline.at_most(ABSTRACTION_CHECK);
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
