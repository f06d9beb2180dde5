//! The SMT back-end: the only module that touches Z3.
//!
//! It offers an incremental solver over this crate's terms ([`Smt`]: assertions, push/pop,
//! checks under assumptions with unsat cores, models as ground [`Value`]s, per-call time limits
//! bounded by a [`Deadline`]), solvers for the many clauses of a system on a bounded number of Z3
//! solvers ([`Pool`]) and quantifier elimination ([`eliminate`]). Z3 errors are answers
//! (`Unknown`, `None`), never panics. It must not use Z3's
//! Horn engine (fixedpoint/Spacer): engines are this project's own work.

mod from_z3;
mod interrupt;
mod pool;
mod qe;
mod raw;
mod translate;

pub use from_z3::BackError;
pub use interrupt::{Interrupt, Registered};
pub use pool::{Pool, Slot};
pub use qe::{eliminate, eliminate_quantifiers, QeMode};

use crate::term::{Sort, TermId, TermStore, Value, VarId};
use from_z3::from_z3;
use raw::{RawModel, RawSolver};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};
use translate::ToZ3;
use z3::ast::{Bool, Dynamic};

/// The answer of one satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// Satisfiable: a model is available.
    Sat,
    /// Unsatisfiable: an unsat core is available (after a check under assumptions).
    Unsat,
    /// Z3 gave up (time limit, incompleteness); the reason as Z3 states it.
    Unknown(String),
}

/// Re-exported for callers of this layer's functions; the type lives in [`crate::clock`], below Z3.
pub use crate::clock::Deadline;

/// Counters of SMT work, for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SmtStats {
    /// Number of satisfiability checks.
    pub checks: u64,
    /// Total time in checks, in milliseconds.
    pub check_ms: u64,
}

/// An incremental Z3 solver over terms of one store.
pub struct Smt<'s> {
    tr: ToZ3<'s>,
    solver: RawSolver,
    deadline: Deadline,
    /// Assumption literals of the last check, to map unsat cores back.
    assumptions: HashMap<Bool, TermId>,
    stats: SmtStats,
    /// Most time one check may take (besides the deadline); a capped check answers `Unknown`.
    cap: Option<Duration>,
    /// The model of the last `Sat` check, fetched from Z3 once on first use.
    model: Option<RawModel>,
    /// The per-check time limit last given to Z3, in milliseconds: setting solver parameters
    /// is costly (Z3 validates them against every module's descriptors), so it is only
    /// re-set when the limit due now differs noticeably (see [`Smt::check_assuming`]).
    timeout_set: Option<u32>,
}

/// Most time, in milliseconds, a check may run past the deadline because Z3's per-check limit
/// was set earlier (re-setting it before every check would cost more than the checks: see
/// [`Smt::check_assuming`]).
const MAX_OVERRUN_MS: u32 = 100;

/// Whether Z3's per-check limit `set` (ms; `None`: never set) must be re-set for a check with
/// `limit` ms left: when it would end the check more than [`MAX_OVERRUN_MS`] after the deadline,
/// or more than a tenth (at least 20 ms) before it. (With a tenth either way, a check started
/// with 15 s left could run 1.5 s past the deadline: BMC's checks over the reals did, on
/// sally's `om1_with_relays_general_5_20`.)
fn limit_is_stale(set: Option<u32>, limit: u32) -> bool {
    set.is_none_or(|set| {
        if set > limit {
            set - limit > MAX_OVERRUN_MS
        } else {
            limit - set > (limit / 10).max(20)
        }
    })
}

impl<'s> Smt<'s> {
    /// A fresh solver for terms of `store`; checks stop at `deadline`.
    pub fn new(store: &'s TermStore, deadline: Deadline) -> Self {
        Smt {
            tr: ToZ3::new(store),
            solver: RawSolver::new(),
            deadline,
            assumptions: HashMap::new(),
            stats: SmtStats::default(),
            cap: None,
            model: None,
            timeout_set: None,
        }
    }

    /// The store this solver reads terms from.
    pub fn store(&self) -> &'s TermStore {
        self.tr.store
    }

    /// The statistics so far.
    pub fn stats(&self) -> &SmtStats {
        &self.stats
    }

    /// Asserts a Boolean term.
    pub fn assert(&mut self, t: TermId) {
        let b = self.tr.bool(t);
        self.model = None;
        self.solver.assert(&b);
    }

    /// Opens a scope.
    pub fn push(&mut self) {
        self.model = None;
        self.solver.push();
    }

    /// Closes `n` scopes.
    pub fn pop(&mut self, n: u32) {
        self.model = None;
        self.solver.pop(n);
    }

    /// Checks the assertions.
    pub fn check(&mut self) -> SatResult {
        self.check_assuming(&[])
    }

    /// Checks the assertions together with Boolean `assumptions`.
    pub fn check_assuming(&mut self, assumptions: &[TermId]) -> SatResult {
        let Some(limit) = self.limit_ms() else {
            return SatResult::Unknown("timeout".into());
        };
        if limit_is_stale(self.timeout_set, limit) {
            self.solver.set_timeout(limit);
            self.timeout_set = Some(limit);
        }
        self.assumptions.clear();
        let lits: Vec<Bool> = assumptions
            .iter()
            .map(|&a| {
                let b = self.tr.bool(a);
                self.assumptions.insert(b.clone(), a);
                b
            })
            .collect();
        let start = Instant::now();
        self.model = None;
        let r = self.solver.check_assumptions(&lits);
        self.stats.checks += 1;
        self.stats.check_ms += start.elapsed().as_millis() as u64;
        match r {
            z3::SatResult::Sat => SatResult::Sat,
            z3::SatResult::Unsat => SatResult::Unsat,
            z3::SatResult::Unknown if self.deadline.expired() => {
                SatResult::Unknown("timeout".into())
            }
            z3::SatResult::Unknown => SatResult::Unknown(
                self.solver
                    .reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            ),
        }
    }

    /// Makes later checks stop at `deadline` instead (a caller that checks several problems,
    /// each with its own time, in scopes of one solver).
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.deadline = deadline;
    }

    /// The deadline checks stop at.
    pub fn deadline(&self) -> &Deadline {
        &self.deadline
    }

    /// Caps every later check at `cap` (it then answers `Unknown`), within the deadline.
    pub fn set_check_cap(&mut self, cap: Option<Duration>) {
        self.cap = cap;
    }

    fn limit_ms(&self) -> Option<u32> {
        let left = match (self.deadline.remaining(), self.cap) {
            (Some(d), _) if d.is_zero() => return None,
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        match left {
            None => Some(u32::MAX),
            Some(d) => Some(d.as_millis().clamp(1, u32::MAX as u128) as u32),
        }
    }

    /// After `Unsat` under assumptions: the assumptions in the unsat core.
    pub fn unsat_core(&self) -> Vec<TermId> {
        self.solver
            .unsat_core()
            .iter()
            .filter_map(|b| self.assumptions.get(b).copied())
            .collect()
    }

    /// Fetches the last check's model from Z3 unless it is already cached (callers read many
    /// values from one model).
    fn fetch_model(&mut self) {
        if self.model.is_none() {
            self.model = self.solver.model();
        }
    }

    /// After `Sat`: the value of a variable in the model (completed with defaults).
    pub fn value(&mut self, v: VarId) -> Option<Value> {
        self.fetch_model();
        let model = self.model.as_ref()?;
        let d = self.tr.var(v);
        let val = model.eval(&d)?;
        dynamic_value(self.tr.store, &val, &self.store().var_sort(v))
    }

    /// After `Sat`: the values of several variables.
    pub fn values(
        &mut self,
        vars: impl IntoIterator<Item = VarId>,
    ) -> Option<BTreeMap<VarId, Value>> {
        self.fetch_model();
        let model = self.model.as_ref()?;
        let mut out = BTreeMap::new();
        for v in vars {
            let d = self.tr.var(v);
            let val = model.eval(&d)?;
            out.insert(
                v,
                dynamic_value(self.tr.store, &val, &self.store().var_sort(v))?,
            );
        }
        Some(out)
    }

    /// After `Sat`: the values of the copies a renaming maps to, keyed by the variables they
    /// copy (a clause instance's variables read back as the clause's: a derivation step).
    pub fn values_of(&mut self, rename: &HashMap<VarId, VarId>) -> Option<BTreeMap<VarId, Value>> {
        let copies = self.values(rename.values().copied())?;
        Some(
            rename
                .iter()
                .map(|(o, c)| (*o, copies[c].clone()))
                .collect(),
        )
    }
}

impl Smt<'_> {
    /// After `Sat`: a model-based projection of `t` (which must hold in the last model) onto
    /// the variables outside `eliminate` — a quantifier-free formula that holds in the model and
    /// implies `∃ eliminate. t` (an under-approximation of the projection). Z3's projection
    /// handles linear arithmetic, arrays and datatypes; variables it cannot eliminate are
    /// replaced by their model values, which keeps the result an under-approximation. `None`
    /// without a model.
    pub fn project(&mut self, t: TermId, eliminate: &[VarId]) -> Option<TermId> {
        self.fetch_model();
        let model = self.model.as_ref()?;
        let body = self.tr.bool(t);
        let consts: Vec<Dynamic> = eliminate.iter().map(|&v| self.tr.var(v)).collect();
        // A Z3 error (such as the one an interrupt from another thread causes) means "no
        // projection"; Z3 is not called at all once this solver's deadline has passed or its
        // caller has cancelled it.
        let projected = if self.deadline.expired() {
            None
        } else {
            model.project(&consts, &body)
        };
        let store = self.tr.store;
        let mut memo = HashMap::new();
        let back = projected
            .and_then(|p| from_z3(store, &self.tr.names, &Dynamic::from_ast(&p), &mut memo).ok())
            // Z3 failed or introduced something this crate cannot read back: eliminate by
            // model values (the point projection) instead.
            .unwrap_or(t);
        let left: Vec<VarId> = store
            .free_vars(back)
            .into_iter()
            .filter(|v| eliminate.contains(v))
            .collect();
        if left.is_empty() {
            return Some(back);
        }
        let mut map = HashMap::new();
        for v in left {
            let d = self.tr.var(v);
            let val = model.eval(&d)?;
            let val = dynamic_value(store, &val, &store.var_sort(v))?;
            map.insert(v, store.value_term(&val, &store.var_sort(v)));
        }
        Some(store.substitute(back, &map))
    }
}

/// Converts a ground Z3 value (as produced by model evaluation) into a [`Value`].
fn dynamic_value(store: &TermStore, d: &Dynamic, sort: &Sort) -> Option<Value> {
    let mut memo = HashMap::new();
    let t = from_z3(store, &HashMap::new(), d, &mut memo).ok()?;
    let v = store.eval(t, &HashMap::new()).ok()?;
    // Z3 may print an integral real model value as an Int numeral; keep the variable's sort.
    Some(match (sort, v) {
        (Sort::Real, Value::Int(i)) => Value::Real(num_rational::BigRational::from_integer(i)),
        (_, v) => v,
    })
}

/// The version of the Z3 library loaded at run time, as Z3 states it (`Z3 5.3.3.0`).
pub fn z3_version() -> String {
    z3::full_version().to_owned()
}

/// One-shot satisfiability of a Boolean term.
pub fn check_sat(store: &TermStore, t: TermId, deadline: Deadline) -> SatResult {
    let mut smt = Smt::new(store, deadline);
    smt.assert(t);
    smt.check()
}

#[cfg(test)]
mod tests {
    use super::{limit_is_stale, Deadline, MAX_OVERRUN_MS};
    use std::time::Duration;

    /// A limit set with 16.5 s left ends a check begun with 15 s left 1.5 s late: re-set. One
    /// set a little earlier, or a little short of a long time left, stays.
    #[test]
    fn a_limit_that_would_overrun_the_deadline_is_reset() {
        assert!(limit_is_stale(None, 1000));
        assert!(limit_is_stale(Some(16_500), 15_000));
        assert!(!limit_is_stale(Some(15_000 + MAX_OVERRUN_MS), 15_000));
        assert!(!limit_is_stale(Some(14_000), 15_000));
        assert!(limit_is_stale(Some(13_000), 15_000));
        assert!(limit_is_stale(Some(30), 100));
    }

    #[test]
    fn at_most_keeps_the_earlier_deadline() {
        let long = Duration::from_secs(3600);
        let short = Duration::from_millis(100);
        // An unbounded or later deadline is cut to the cap.
        for d in [Deadline::none(), Deadline::after(long)] {
            let capped = d
                .at_most(short)
                .remaining()
                .expect("capped deadline is bounded");
            assert!(capped <= short, "{capped:?}");
        }
        // An earlier deadline stays.
        let early = Deadline::after(Duration::from_millis(10));
        assert_eq!(early.at_most(long), early);
    }
}
