//! The portfolio's schedule as data: one list of entries, each an engine kind with its budget
//! (a time slice, a share of the time left, or all of it), the system it runs on (split by
//! Boolean valuations or not), whether it takes the candidate invariants found before it, and
//! the thread that runs it when the schedule is split over threads (two, or up to
//! [`Schedule::width`] with the entries of `schedule/wide.rs`). The engine names
//! ([`EngineKind`]) and `--engine` lists ([`Selection`]) are declared once, in `selection`;
//! [`Schedule::engine`] is the one place a kind becomes an engine.
//!
//! Duty: say what runs, in what order, with what budget. Must not: run an engine (the
//! portfolio does), validate answers, or keep state between solves.

use super::bmc::Bmc;
use super::cegar::{Cegar, CexShape};
use super::explore::Explore;
use super::imc::Imc;
use super::kind::Kind;
use super::pdr::Pdr;
use super::seeds::Samples;
pub use super::selection::{Choice, EngineKind, Selection, SelectionError, View};
use super::slicing::{Slicing, Weakening};
use super::Engine;
use crate::transform::SplitBooleans;
use std::time::Duration;

mod wide;

/// [`Schedule::oversubscribed_start`] by default: most answers of the public files come within
/// a second (the median is near 0.1 s), and a thread that starts later does not slow them.
const OVERSUBSCRIBED_START: Duration = Duration::from_secs(1);

/// How much of the time an entry gets (under work bounds: no time slice at all).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// At most this long.
    Slice(Duration),
    /// A quick first try of at most this long; under work bounds the entry does not run.
    Probe(Duration),
    /// This share of the time left, at most `cap`; without a deadline `cap` (or no limit).
    Share {
        /// Between 0 and 1.
        share: f64,
        /// The longest slice.
        cap: Option<Duration>,
    },
    /// All the time left.
    Rest,
}

impl Budget {
    /// The slice for an entry starting with `remaining` left (`None`: no deadline).
    pub fn slice(self, remaining: Option<Duration>) -> Option<Duration> {
        match self {
            Budget::Slice(d) | Budget::Probe(d) => Some(d),
            Budget::Share { share, cap } => match remaining {
                Some(r) => {
                    let s = r.mul_f64(share.clamp(0.0, 1.0));
                    Some(cap.map_or(s, |c| s.min(c)))
                }
                None => cap,
            },
            Budget::Rest => None,
        }
    }
}

/// Which systems an entry runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Every system.
    Always,
    /// Systems with a real-valued predicate argument (transition systems over clocks).
    OverReals,
    /// The others.
    NotOverReals,
    /// Systems with a datatype-valued predicate argument (lists, trees).
    Datatypes,
    /// The others.
    NoDatatypes,
    /// Systems with neither a real-valued nor a datatype-valued predicate argument (integers,
    /// Booleans and arrays of them).
    Lia,
    /// Systems with a clause of more than one body atom (which k-induction leaves to the
    /// others).
    NonLinear,
    /// Systems with an array-valued predicate argument whose indices and elements are scalars
    /// (the arrays the cell abstraction abstracts).
    Arrays,
}

impl When {
    /// Whether an entry with this condition runs on a system of these traits.
    pub fn holds(self, traits: Traits) -> bool {
        match self {
            When::Always => true,
            When::OverReals => traits.over_reals,
            When::NotOverReals => !traits.over_reals,
            When::Datatypes => traits.datatypes,
            When::NoDatatypes => !traits.datatypes,
            When::Lia => !traits.over_reals && !traits.datatypes,
            When::NonLinear => !traits.linear,
            When::Arrays => traits.arrays,
        }
    }
}

/// What the entries of a schedule are chosen by: the sorts of a system's predicate arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// Some predicate has a real-valued argument (transition systems over clocks and rates,
    /// as in the LRA-TS track).
    pub over_reals: bool,
    /// Some predicate has a datatype-valued argument.
    pub datatypes: bool,
    /// Every clause has at most one body atom.
    pub linear: bool,
    /// Some predicate has an array argument (of scalar indices and elements).
    pub arrays: bool,
}

impl Traits {
    /// The traits of `system`.
    pub fn of(system: &crate::chc::System) -> Self {
        let has = |f: &dyn Fn(&crate::term::Sort) -> bool| {
            system
                .pred_ids()
                .any(|p| system.pred(p).sorts.iter().any(f))
        };
        Traits {
            over_reals: has(&|s| *s == crate::term::Sort::Real),
            datatypes: has(&|s| matches!(s, crate::term::Sort::Datatype(_))),
            linear: system.is_linear(),
            arrays: has(&crate::transform::CellAbstraction::abstracts),
        }
    }
}

/// One step of a schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The engine.
    pub kind: EngineKind,
    /// Its time.
    pub budget: Budget,
    /// The systems it runs on.
    pub when: When,
    /// The system it runs on: the given one, or one made from it whose answers are
    /// translated back.
    pub view: View,
    /// It gets the candidate invariants earlier entries left, and the frame lemmas of the last
    /// PDR run before it (when they are over its system).
    pub seeded: bool,
    /// When the schedule is split: the thread that runs it (0 or 1 on two threads; threads 2
    /// and above, those of `schedule/wide.rs`, only when there are that many).
    pub thread: usize,
    /// Whether it runs on one thread, on two, or both.
    pub runs: Runs,
    /// Its engine's options, where they are not the schedule's.
    pub settings: Option<Settings>,
}

/// Whether an entry runs when the schedule is on one thread, split over two, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// Both.
    Always,
    /// Only split: a quick try beside the other thread's, which on one thread would only delay
    /// the entries after it.
    Split,
    /// Only on one thread: a quick try that on its own thread would only restart the entry
    /// after it (a probe of the engine that comes next there).
    Sequential,
}

impl Entry {
    /// An entry on every system, unsplit, unseeded, on thread 0.
    pub fn new(kind: EngineKind, budget: Budget) -> Self {
        Entry {
            kind,
            budget,
            when: When::Always,
            view: View::Given,
            seeded: false,
            thread: 0,
            runs: Runs::Always,
            settings: None,
        }
    }
}

/// The work bounds of a deterministic schedule ([`Schedule::deterministic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkBounds {
    /// Deepest BMC unrolling, in each BMC pass.
    pub bmc_depth: usize,
    /// Most CEGAR refinements.
    pub cegar_iterations: usize,
    /// Most PDR frames.
    pub pdr_frames: usize,
    /// Deepest k of k-induction.
    pub kind_depth: usize,
    /// Deepest k of interpolation-based model checking.
    pub imc_depth: usize,
    /// Most SMT checks of CEGAR where its time slice has a cap (before PDR): the work
    /// analogue of the 4 s cap of split schedules, kept for the one-thread entry's 2 s cap too
    /// so that deterministic answers did not move (CEGAR makes about 700 checks a second on
    /// the slowest test program, `tests/data/c/safe/goto-into-block.c`, whose proof PDR finds
    /// at once).
    pub capped_cegar_checks: u64,
}

impl Default for WorkBounds {
    fn default() -> Self {
        WorkBounds {
            bmc_depth: 20,
            cegar_iterations: 40,
            pdr_frames: 40,
            kind_depth: 20,
            imc_depth: 20,
            capped_cegar_checks: 3000,
        }
    }
}

/// Options of single engines that a schedule passes on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// How slicing weakens candidates.
    pub weakening: Weakening,
    /// The counterexamples CEGAR refines.
    pub cex_shape: CexShape,
}

/// A list of entries and how to run them: see the module header and the portfolio's.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The entries, in order; on a given system those whose [`When`] holds run, and the last
    /// of them gets all the time left whatever its budget says.
    pub entries: Vec<Entry>,
    /// Split predicates by their reachable Boolean valuations for the entries whose view is
    /// [`View::SplitBooleans`];
    /// `None`: no split.
    pub split_bools: Option<SplitBooleans>,
    /// Work bounds in place of time slices: each entry runs to its engine's bound (or the
    /// caller's deadline), so that the answer does not depend on the machine's speed or load.
    pub bounds: Option<WorkBounds>,
    /// Options of the engines.
    pub settings: Settings,
    /// When a part of a split schedule on a thread beyond the machine's cores starts: late
    /// enough that the answers found within it are not slowed down by threads that share
    /// cores ([`super::parallel::parts`]).
    pub oversubscribed_start: Duration,
}

impl Default for Schedule {
    /// The portfolio's schedule; the measurements behind it are in BENCHMARKS.md, "Why the portfolio's schedule is what it is".
    fn default() -> Self {
        use EngineKind::*;
        let secs = Duration::from_secs;
        let e = Entry::new;
        let only = |when: When| move |e: Entry| Entry { when, ..e };
        let (reals, not_reals) = (only(When::OverReals), only(When::NotOverReals));
        let (datatypes, no_datatypes) = (only(When::Datatypes), only(When::NoDatatypes));
        let split = |e: Entry| Entry {
            view: View::SplitBooleans,
            ..e
        };
        let sizes = |e: Entry| Entry {
            view: View::Sizes,
            ..e
        };
        let cells = |e: Entry| Entry {
            view: View::Cells,
            when: When::Arrays,
            ..e
        };
        let seeded = |e: Entry| Entry { seeded: true, ..e };
        // Under two threads: counterexamples and PDR on one, the invariant side (slicing, the
        // samples, CEGAR, PDR's probe with slicing's candidates) beside them.
        let beside = |e: Entry| Entry { thread: 1, ..e };
        let cegar = |cap| Budget::Share { share: 0.8, cap };
        let probe = |ms| Budget::Probe(Duration::from_millis(ms));
        let capped_cegar = |runs, cap| Entry {
            runs,
            ..beside(split(seeded(not_reals(e(Cegar, cegar(Some(secs(cap))))))))
        };
        let entries = vec![
            // k-induction first: on linear systems whose property is k-inductive for a small k
            // it answers in a few milliseconds, and its base case is BMC's probe there; on
            // non-linear ones it gives up at once. Not over the reals: there it proved nothing
            // (the LRA-TS systems are not k-inductive at a depth it reaches), BMC finds what it
            // refutes, and PDR after it took another path (see the portfolio's header).
            not_reals(e(Kind, probe(25))),
            // Over the reals on one thread: BMC's quick refutations, PDR with most of the time,
            // BMC with the rest (the refutations PDR needs 13-20 s for take BMC 2-3 s). On two
            // threads PDR starts at once, and BMC has all the time beside it: the engines after
            // it on its thread answered no LRA-TS file, while the VMT refutations of 25-35 steps
            // take BMC 8-12 s (BENCHMARKS.md, "Why the portfolio's schedule").
            Entry {
                runs: Runs::Sequential,
                ..reals(e(Bmc, probe(500)))
            },
            Entry {
                runs: Runs::Sequential,
                ..reals(e(
                    Pdr,
                    Budget::Share {
                        share: 0.8,
                        cap: None,
                    },
                ))
            },
            Entry {
                runs: Runs::Sequential,
                ..reals(e(Bmc, Budget::Rest))
            },
            Entry {
                runs: Runs::Split,
                ..beside(reals(e(Bmc, Budget::Rest)))
            },
            Entry {
                runs: Runs::Split,
                ..reals(e(Pdr, Budget::Rest))
            },
            // Quick tries first: shallow counterexamples and easy invariants answer within
            // a few milliseconds, and would otherwise wait behind the slower phases. On two
            // threads BMC's slice comes at once on its thread: a probe there would make it
            // start over after 50 ms. On linear systems k-induction's probe was BMC's.
            Entry {
                runs: Runs::Sequential,
                ..only(When::NonLinear)(e(Bmc, probe(25)))
            },
            // On two threads, PDR alone at once beside BMC, before the Boolean split and
            // slicing: the Kind 2 and VMT systems whose invariants it finds within 100 ms waited
            // 0.1-0.6 s behind them (BENCHMARKS.md, "Why the portfolio's schedule"). On one
            // thread it would delay slicing's quick invariants instead.
            Entry {
                runs: Runs::Split,
                ..beside(not_reals(e(Pdr, probe(100))))
            },
            beside(split(e(Slicing, Budget::Slice(secs(2))))),
            // On two threads, beside BMC and on the thread of slicing's candidates.
            beside(seeded(not_reals(e(Pdr, probe(250))))),
            beside(split(seeded(not_reals(e(Cegar, probe(250)))))),
            beside(split(seeded(no_datatypes(e(
                Samples,
                Budget::Slice(secs(1)),
            ))))),
            // On one thread, PDR again after the quick tries, with their candidates: the
            // answers it finds alone within a second (hcai, llreve, synthesis: 0.3-0.7 s) waited
            // 5-8 s behind BMC's slice and CEGAR's capped one (BENCHMARKS.md, "One thread: PDR
            // sooner"). On two threads the long PDR run has started already.
            Entry {
                runs: Runs::Sequential,
                ..seeded(only(When::Lia)(e(Pdr, probe(750))))
            },
            // Over arrays, every array abstracted to one cell: the samples with the
            // abstraction's ranges find the invariants quantified over indices that array
            // loops need, and PDR on the cells completes what they leave (BENCHMARKS.md,
            // "Arrays as cells"). The samples' Houdini filter takes 2-8 s on the thousands of
            // range candidates of a few array loops (svcomp-more's array-fpi: BENCHMARKS.md,
            // "Small arrays as scalars").
            beside(cells(e(
                Samples,
                Budget::Share {
                    share: 0.4,
                    cap: Some(secs(6)),
                },
            ))),
            beside(cells(seeded(e(Pdr, Budget::Slice(secs(2)))))),
            // Over datatypes, first every datatype abstracted to its size: invariants over
            // lengths, which the shape facts after them cannot say (BENCHMARKS.md, "Why the portfolio's schedule").
            beside(sizes(datatypes(e(Samples, Budget::Slice(secs(1)))))),
            beside(sizes(seeded(datatypes(e(Cegar, Budget::Slice(secs(2))))))),
            // Over datatypes the samples' shape facts are the invariants the other engines
            // do not find, and their filter needs the time (BENCHMARKS.md, "Why the portfolio's schedule").
            beside(split(seeded(datatypes(e(Samples, Budget::Slice(secs(6))))))),
            not_reals(e(Bmc, Budget::Slice(secs(1)))),
            // Capped when PDR follows it: at 4 s on two threads, where PDR runs beside it; at
            // 2 s on one, where PDR waits for it: the answers CEGAR gave there came within 1.7 s,
            // while the PDR answers after it waited all 4 s (hcai, eldarica, synthesis: 8-20 s
            // files; BENCHMARKS.md, "One thread: CEGAR's capped slice").
            capped_cegar(Runs::Split, 4),
            capped_cegar(Runs::Sequential, 2),
            // CEGAR on the sizes again, with the time the shape facts leave (half of it on one
            // thread; on two, the rest of its thread's): `prop_19`'s length of a `drop` takes
            // it 6 s (22 refinements).
            beside(sizes(seeded(datatypes(e(
                Cegar,
                Budget::Share {
                    share: 0.5,
                    cap: None,
                },
            ))))),
            seeded(not_reals(e(
                Pdr,
                Budget::Share {
                    share: 1.0,
                    cap: None,
                },
            ))),
            e(Bmc, Budget::Rest),
            // On two threads, over the integers, BMC again with the time CEGAR leaves: the
            // thread 0 BMC's second slice stops after 1 s and PDR has the rest there, so
            // counterexamples of a few hundred steps (`id(200) = 200`: 200 unrollings, 2 s)
            // were found by nothing. CEGAR rarely answers on the integers after its capped
            // slice (BENCHMARKS.md, "Why the portfolio's schedule").
            Entry {
                runs: Runs::Split,
                ..beside(only(When::Lia)(e(Bmc, Budget::Rest)))
            },
        ];
        Schedule {
            entries: entries.into_iter().chain(wide::entries()).collect(),
            split_bools: Some(SplitBooleans::default()),
            bounds: None,
            settings: Settings::default(),
            oversubscribed_start: OVERSUBSCRIBED_START,
        }
    }
}

impl Schedule {
    /// The default schedule with work bounds in place of time slices
    /// ([`WorkBounds::default`]): the same answer on any machine that has the time.
    pub fn deterministic() -> Self {
        Schedule::default().with_bounds()
    }

    /// This schedule under [`WorkBounds::default`]; the Boolean split is then bounded by its
    /// sizes only (its time budget would make it machine-dependent).
    pub fn with_bounds(self) -> Self {
        Schedule {
            bounds: Some(WorkBounds::default()),
            split_bools: self.split_bools.map(|s| SplitBooleans {
                budget: Duration::from_secs(3600),
                ..s
            }),
            ..self
        }
    }

    /// The chosen engines in order, each with an equal share of the time left when it starts,
    /// on the view of the system it names (the system as given unless `@view`), taking the
    /// candidates earlier ones on the same view left; under two threads they alternate
    /// between the threads.
    pub fn of(choices: &[Choice]) -> Self {
        let n = choices.len();
        let entries = choices
            .iter()
            .enumerate()
            .map(|(i, c)| Entry {
                seeded: true,
                thread: i % 2,
                view: c.view,
                ..Entry::new(
                    c.kind,
                    Budget::Share {
                        share: 1.0 / (n - i) as f64,
                        cap: None,
                    },
                )
            })
            .collect();
        let splits = choices.iter().any(|c| c.view == View::SplitBooleans);
        Schedule {
            entries,
            split_bools: splits.then(SplitBooleans::default),
            bounds: None,
            settings: Settings::default(),
            oversubscribed_start: OVERSUBSCRIBED_START,
        }
    }

    /// The number of threads this schedule gives work to when split: one more than the
    /// highest thread of an entry.
    pub fn width(&self) -> usize {
        self.entries.iter().map(|e| e.thread + 1).max().unwrap_or(1)
    }

    /// The schedule's part for one thread of `threads` (its entries with that thread; under
    /// one thread, the whole schedule).
    pub fn part(&self, thread: usize, threads: usize) -> Schedule {
        Schedule {
            entries: self
                .entries
                .iter()
                .filter(|e| threads <= 1 || e.thread == thread)
                // A part of a split schedule runs as one thread: its split entries always,
                // its sequential ones never.
                .filter(|e| threads <= 1 || e.runs != Runs::Sequential)
                .map(|e| Entry {
                    runs: if threads <= 1 { e.runs } else { Runs::Always },
                    ..e.clone()
                })
                .collect(),
            ..self.clone()
        }
    }

    /// The entries that run on a system of these traits, in order, without those that run
    /// only in a thread's part ([`Runs::Split`]). Under work bounds the probes do not
    /// run: they only save time, and a probe's work bound (PDR's frames) need not be quick.
    pub fn entries_for(&self, traits: Traits) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| e.runs != Runs::Split)
            .filter(|e| self.bounds.is_none() || !matches!(e.budget, Budget::Probe(_)))
            .filter(|e| e.when.holds(traits))
            .collect()
    }

    /// The engine of a kind, under this schedule's work bounds and settings: the one place a
    /// kind becomes an engine.
    pub fn engine(&self, kind: EngineKind) -> Box<dyn Engine> {
        self.build(kind, false, self.settings)
    }

    /// The engine of an entry: as [`Schedule::engine`], and under work bounds an entry whose
    /// time slice has a cap gets the work analogue of that cap, unless it is the `last` to run
    /// (which gets all the time left).
    pub fn engine_for(&self, entry: &Entry, last: bool) -> Box<dyn Engine> {
        let capped = matches!(entry.budget, Budget::Share { cap: Some(_), .. });
        self.build(
            entry.kind,
            capped && !last,
            entry.settings.unwrap_or(self.settings),
        )
    }

    fn build(&self, kind: EngineKind, capped: bool, settings: Settings) -> Box<dyn Engine> {
        let b = self.bounds;
        match kind {
            EngineKind::Slicing => Box::new(Slicing {
                weakening: settings.weakening,
                ..Slicing::default()
            }),
            EngineKind::Samples => Box::new(Samples::default()),
            EngineKind::Bmc => Box::new(Bmc {
                max_depth: b.map_or(Bmc::default().max_depth, |b| b.bmc_depth),
                ..Bmc::default()
            }),
            EngineKind::Explore => Box::new(Explore::default()),
            EngineKind::Cegar => Box::new(Cegar {
                max_iterations: b.map_or(Cegar::default().max_iterations, |b| b.cegar_iterations),
                max_checks: b.filter(|_| capped).map(|b| b.capped_cegar_checks),
                cex_shape: settings.cex_shape,
                ..Cegar::default()
            }),
            EngineKind::Pdr => Box::new(Pdr {
                max_level: b.map_or(Pdr::default().max_level, |b| b.pdr_frames),
                ..Pdr::default()
            }),
            EngineKind::Kind => Box::new(Kind {
                max_depth: b.map_or(Kind::default().max_depth, |b| b.kind_depth),
            }),
            EngineKind::Imc => Box::new(Imc {
                max_depth: b.map_or(Imc::default().max_depth, |b| b.imc_depth),
                ..Imc::default()
            }),
        }
    }
}

#[cfg(test)]
mod tests;
