//! Answer-preserving simplifications of clause systems ("preprocessing"), each with a
//! back-translator that turns a witness of the simplified system into one of its input.
//!
//! Duty: a [`Transform`] maps a system to a smaller one with the same answer (`sat` stays `sat`,
//! `unsat` stays `unsat`) and returns a [`BackTranslator`] that maps a model or a derivation of
//! the new system to a model or derivation of the old one. A [`Pipeline`] chains transforms and
//! their back-translators; [`Preprocess`] is the default chain: replace records by their
//! fields ([`FlattenRecords`]), keep one clause of each group equal up to renaming
//! ([`MergeDuplicates`]), remove useless clauses ([`RemoveUseless`]), remove dead arguments ([`RemoveDeadArgs`]), inline predicates that are
//! not loop heads ([`Inline`]), substitute the locals a clause defines ([`EliminateLocals`]), and
//! remove dead arguments again. [`SplitBooleans`] (one
//! predicate per reachable valuation of Boolean arguments) is not part of it: the portfolio
//! applies it for its invariant engines only. [`SizeAbstraction`] (datatypes to their sizes)
//! is not answer-preserving but an over-approximation: only its models translate back;
//! so is [`CellAbstraction`] (each array to one cell of it).
//!
//! Must not: solve (transforms call no solver, except the Boolean split's bounded enumeration
//! of valuations; back-translation may, to reconstruct values or eliminate quantifiers), print, or trust itself: back-translated
//! witnesses are validated against the original system by the caller. Uses `term`, `chc`,
//! `analysis`, `smt` and `witness`.

mod cells;
mod dead_args;
mod definitions;
mod duplicates;
mod flatten;
mod inline;
mod locals;
mod sizes;
mod split_bools;
mod useless;

pub use cells::CellAbstraction;
pub use dead_args::RemoveDeadArgs;
pub use duplicates::MergeDuplicates;
pub use flatten::FlattenRecords;
pub use inline::Inline;
pub use locals::EliminateLocals;
pub use sizes::SizeAbstraction;
pub use split_bools::SplitBooleans;
pub use useless::{DropClauses, RemoveUseless};

use crate::chc::{PredId, System};
use crate::clock::Deadline;
use crate::term::{Sort, TermStore, Value};
use crate::witness::{Answer, Derivation, Model, Reason};
use std::time::Instant;

/// Why a derivation of a transformed system could not be turned into one of the original.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BackError {
    /// A step names a clause the transformed system does not have.
    #[error("step {0} names a clause that does not exist")]
    NoSuchClause(usize),
    /// A value of an argument removed by preprocessing could not be reconstructed.
    #[error("step {0}: cannot reconstruct the values of removed arguments ({1})")]
    Reconstruct(usize, String),
    /// The derivation does not have the shape its clauses require.
    #[error("step {0}: malformed derivation ({1})")]
    Malformed(usize, String),
    /// Reconstructing a removed value divides by zero, whose value SMT-LIB leaves unspecified:
    /// the derivation holds for some interpretations of division only. Not a bug.
    #[error("step {0}: a removed value divides by zero, whose value SMT-LIB leaves unspecified")]
    Unspecified(usize),
    /// The system was an over-approximation (the named abstraction): its derivations are no
    /// derivations of the original. Not a failed witness: the answer is no answer.
    #[error("a counterexample of the {0} abstraction is not one of the system")]
    Abstraction(&'static str),
}

impl BackError {
    /// Why a derivation that cannot be translated back is no answer: one through a division
    /// by zero or of an over-approximation proves nothing ([`Reason::GaveUp`]); any other
    /// failure is a bug of a transform ([`Reason::WitnessFailed`]).
    pub fn reason(&self) -> Reason {
        match self {
            BackError::Unspecified(_) | BackError::Abstraction(_) => {
                Reason::GaveUp(self.to_string())
            }
            _ => Reason::WitnessFailed(format!(
                "preprocessing could not translate the derivation back: {self}"
            )),
        }
    }
}

/// Maps witnesses of a transformed system back to the system the transform started from.
pub trait BackTranslator {
    /// A model of the original system from a model of the transformed one (never fails; the
    /// result may contain quantifiers when elimination was too hard, which the validator
    /// accepts). `deadline` bounds any quantifier elimination.
    fn model(&self, store: &TermStore, model: Model, deadline: Deadline) -> Model;

    /// A derivation of `false` in the original system from one of the transformed system.
    fn derivation(
        &self,
        store: &TermStore,
        derivation: Derivation,
        deadline: Deadline,
    ) -> Result<Derivation, BackError>;

    /// Candidate invariants of the original system carried onto the transformed one: the one
    /// map that goes forward, for the hints a user gives. Candidates are never trusted (the
    /// engines check what they build from them), so the map may lose some; by default it
    /// keeps none.
    fn hints(&self, _store: &TermStore, _hints: &Model) -> Model {
        Model::new()
    }
}

/// An answer-preserving simplification.
pub trait Transform {
    /// A short name for statistics (`"useless"`, `"inline"`, `"dead_args"`).
    fn name(&self) -> &'static str;

    /// The simplified system and the back-translator of its witnesses. New terms and
    /// variables are added to `store`.
    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>);
}

/// What one step of a pipeline did: sizes before and after.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StepStats {
    /// The transform's name.
    pub transform: &'static str,
    /// Predicates before and after.
    pub predicates: (usize, usize),
    /// Clauses before and after.
    pub clauses: (usize, usize),
    /// Predicate arguments (sum of arities) before and after.
    pub arguments: (usize, usize),
    /// Time taken, in milliseconds.
    pub ms: u64,
}

/// Sum of the arities of a system's predicates.
pub fn num_arguments(system: &System) -> usize {
    system.pred_ids().map(|p| system.pred(p).sorts.len()).sum()
}

/// A chain of applied transforms: back-translates witnesses through every step, last first.
#[derive(Default)]
pub struct Pipeline {
    steps: Vec<(StepStats, Box<dyn BackTranslator>)>,
}

impl Pipeline {
    /// The identity pipeline (no step).
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies `t` to `system`, records the step, and returns the new system.
    pub fn push(&mut self, store: &TermStore, t: &dyn Transform, system: &System) -> System {
        let start = Instant::now();
        let (next, back) = t.apply(store, system);
        let stats = StepStats {
            transform: t.name(),
            predicates: (system.num_preds(), next.num_preds()),
            clauses: (system.num_clauses(), next.num_clauses()),
            arguments: (num_arguments(system), num_arguments(&next)),
            ms: start.elapsed().as_millis() as u64,
        };
        self.steps.push((stats, back));
        next
    }

    /// What each step did, in order.
    pub fn stats(&self) -> Vec<StepStats> {
        self.steps.iter().map(|(s, _)| s.clone()).collect()
    }

    /// A model of the pipeline's input from a model of its output.
    pub fn model(&self, store: &TermStore, mut model: Model, deadline: Deadline) -> Model {
        for (_, back) in self.steps.iter().rev() {
            model = back.model(store, model, deadline.clone());
        }
        model
    }

    /// Candidate invariants of the pipeline's input carried onto its output (see
    /// [`BackTranslator::hints`]).
    pub fn hints(&self, store: &TermStore, hints: &Model) -> Model {
        let mut out = hints.clone();
        for (_, back) in &self.steps {
            out = back.hints(store, &out);
        }
        out
    }

    /// A derivation of the pipeline's input from a derivation of its output.
    pub fn derivation(
        &self,
        store: &TermStore,
        mut d: Derivation,
        deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        for (_, back) in self.steps.iter().rev() {
            d = back.derivation(store, d, deadline.clone())?;
        }
        Ok(d)
    }

    /// Back-translates an answer; a derivation that cannot be translated becomes `Unknown`
    /// with an "internal error" reason (it is a bug of a transform).
    pub fn answer(&self, store: &TermStore, answer: Answer, deadline: Deadline) -> Answer {
        match answer {
            Answer::Sat(m) => Answer::Sat(self.model(store, m, deadline)),
            Answer::Unsat(d) => match self.derivation(store, d, deadline) {
                Ok(d) => Answer::Unsat(d),
                Err(e) => Answer::Unknown(e.reason()),
            },
            u => u,
        }
    }

    /// What the pipeline did: predicates removed as useless, predicates inlined, arguments
    /// removed as dead, clauses before and after, and the steps.
    pub fn summary(&self) -> PreprocessStats {
        let sum = |name: &str, f: &dyn Fn(&StepStats) -> usize| -> usize {
            self.steps
                .iter()
                .filter(|(s, _)| s.transform == name)
                .map(|(s, _)| f(s))
                .sum()
        };
        let preds = |s: &StepStats| s.predicates.0.saturating_sub(s.predicates.1);
        PreprocessStats {
            predicates_removed: sum("useless", &preds),
            predicates_inlined: sum("inline", &preds),
            arguments_removed: sum("dead_args", &|s| {
                s.arguments.0.saturating_sub(s.arguments.1)
            }),
            clauses: match (self.steps.first(), self.steps.last()) {
                (Some((f, _)), Some((l, _))) => Some((f.clauses.0, l.clauses.1)),
                _ => None,
            },
            steps: self.stats(),
        }
    }

    /// [`Pipeline::summary`] as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.summary()).unwrap_or_default()
    }
}

/// What a pipeline did, for `--stats` (`"preprocess"`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PreprocessStats {
    /// Predicates removed as useless.
    pub predicates_removed: usize,
    /// Predicates inlined.
    pub predicates_inlined: usize,
    /// Arguments removed as dead.
    pub arguments_removed: usize,
    /// Clauses before the first step and after the last (`null` without steps).
    pub clauses: Option<(usize, usize)>,
    /// Each step, in order.
    pub steps: Vec<StepStats>,
}

/// The default preprocessing: [`FlattenRecords`], [`MergeDuplicates`], [`RemoveUseless`],
/// [`RemoveDeadArgs`],
/// [`Inline`], [`EliminateLocals`], and [`RemoveDeadArgs`] again.
#[derive(Clone, Debug, Default)]
pub struct Preprocess {
    /// Settings of the inlining step.
    pub inline: Inline,
}

impl Preprocess {
    /// Runs every step on `system`: the simplified system and the pipeline that translates its
    /// witnesses back.
    pub fn run(&self, store: &TermStore, system: &System) -> (System, Pipeline) {
        self.run_after(store, system, Pipeline::new())
    }

    /// Runs every step on `system`, the result of the steps of `p` (whose steps come first in
    /// the pipeline returned).
    pub fn run_after(
        &self,
        store: &TermStore,
        system: &System,
        mut p: Pipeline,
    ) -> (System, Pipeline) {
        // Records only exist where datatypes do (no step recorded otherwise).
        let flat;
        let input = if store.has_datatypes() {
            flat = p.push(store, &FlattenRecords, system);
            &flat
        } else {
            system
        };
        // Generated systems repeat clauses; every engine pays for each copy.
        let s = p.push(store, &MergeDuplicates, input);
        let s = p.push(store, &RemoveUseless, &s);
        // Liveness is syntactic: chains of equalities that inlining creates hide dead
        // arguments, so dead arguments go before inlining (and once more after it).
        let s = p.push(store, &RemoveDeadArgs, &s);
        let s = p.push(store, &self.inline, &s);
        // Inlining leaves a copy per argument passed; every engine's checks carry what stays
        // (on the public set's files answered within 1.5 s: median time 0.053 -> 0.042 s).
        let s = p.push(store, &EliminateLocals, &s);
        let s = p.push(store, &RemoveDeadArgs, &s);
        (s, p)
    }
}

/// The back-translator of a system left as it is.
pub(crate) struct Identity;

impl BackTranslator for Identity {
    fn model(&self, _store: &TermStore, model: Model, _deadline: Deadline) -> Model {
        model
    }

    fn hints(&self, _store: &TermStore, hints: &Model) -> Model {
        hints.clone()
    }

    fn derivation(
        &self,
        _store: &TermStore,
        d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        Ok(d)
    }
}

/// The hints of predicate `old` for a predicate that keeps the arguments where `kept` is true
/// (every one for `None`): the conjuncts over kept arguments only, over the kept parameters.
pub(crate) fn carry(
    store: &TermStore,
    hints: &Model,
    old: PredId,
    kept: Option<&[bool]>,
) -> Option<crate::witness::Interp> {
    let i = hints.get(old)?;
    let Some(kept) = kept else {
        return Some(i.clone());
    };
    let gone: Vec<_> = i
        .params
        .iter()
        .zip(kept)
        .filter(|(_, &k)| !k)
        .map(|(v, _)| *v)
        .collect();
    let body = store.and(
        store
            .conjuncts(i.body)
            .into_iter()
            .filter(|&c| store.free_vars(c).iter().all(|v| !gone.contains(v)))
            .collect::<Vec<_>>(),
    );
    let params = i
        .params
        .iter()
        .zip(kept)
        .filter(|(_, &k)| k)
        .map(|(v, _)| *v)
        .collect();
    Some(crate::witness::Interp { params, body })
}

/// Hints carried through a transform that renumbers predicates (`old_pred[new]`) and keeps
/// their arguments.
pub(crate) fn carry_renumbered(store: &TermStore, hints: &Model, old_pred: &[PredId]) -> Model {
    let mut out = Model::new();
    for (new, &old) in old_pred.iter().enumerate() {
        if let Some(i) = carry(store, hints, old, None) {
            out.set(PredId(new as u32), i);
        }
    }
    out
}

/// `d` with each step's clause renamed from the transformed system's numbering to the
/// original's (`old_clause[new]`), for transforms that only keep some clauses as they are.
pub(crate) fn rename_clauses(
    mut d: Derivation,
    old_clause: &[crate::chc::ClauseId],
) -> Result<Derivation, BackError> {
    for (i, n) in d.nodes.iter_mut().enumerate() {
        n.clause = *old_clause
            .get(n.clause.0 as usize)
            .ok_or(BackError::NoSuchClause(i))?;
    }
    Ok(d)
}

/// A default value of `sort` (a smallest ground constructor term for datatypes).
pub(crate) fn default_value(store: &TermStore, sort: &Sort) -> Value {
    store
        .default_value(sort)
        .unwrap_or_else(|| Value::default_of(sort))
}

/// Fresh variables for the parameters of predicate `p` of `system` (named `x!k`... made
/// unique by the store).
pub(crate) fn fresh_params(
    store: &TermStore,
    system: &System,
    p: PredId,
) -> Vec<crate::term::VarId> {
    system
        .pred(p)
        .sorts
        .iter()
        .enumerate()
        .map(|(k, s)| store.new_var(&format!("x{k}"), s.clone()))
        .collect()
}

/// A system over the predicates of `old` that occur in `clauses` (renumbered in their old
/// order), with `clauses` rewritten to the new numbering; and, per new predicate, its old id.
pub(crate) fn compact(old: &System, clauses: Vec<crate::chc::Clause>) -> (System, Vec<PredId>) {
    use crate::chc::Head;
    let mut used = vec![false; old.num_preds()];
    for c in &clauses {
        for a in c.body.iter().chain(c.head_atom()) {
            used[a.pred.0 as usize] = true;
        }
    }
    let mut new_of_old = vec![None; old.num_preds()];
    let mut old_of_new = Vec::new();
    let mut system = System::new();
    for p in old.pred_ids().filter(|p| used[p.0 as usize]) {
        let d = old.pred(p);
        new_of_old[p.0 as usize] = Some(system.add_pred(d.name.clone(), d.sorts.clone()));
        old_of_new.push(p);
    }
    let map = |a: &mut crate::chc::Atom| {
        a.pred = new_of_old[a.pred.0 as usize].expect("a predicate of a kept clause is kept");
    };
    for mut c in clauses {
        c.body.iter_mut().for_each(map);
        if let Head::Atom(h) = &mut c.head {
            map(h);
        }
        system.add_clause(c);
    }
    (system, old_of_new)
}
