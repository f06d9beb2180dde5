//! `hornbeam refine ABSTRACT.c CONCRETE.c`: whether a thread of a concurrent C program
//! weakly refines a thread of another, in the sense of Zhang et al.'s succinct automata
//! (weak simulation, Definition 6), checked by their Algorithm 2: a greatest fixpoint over
//! `Ψ(q1, q2)` with SMT checks.
//!
//! # Pipeline
//!
//! 1. Each program is read and checked against the thread model ([`super::threads`]); its
//!    compared thread becomes a succinct automaton and its other threads the environment
//!    ([`sa`], [`exec`], [`mod@env`]). κ and ι are read from C expressions ([`spec`]).
//! 2. **Yes run.** The abstract `Env*` is over-approximated by a reflexive, transitive
//!    relation ([`env::closure`]), abstract local paths are enumerated up to a bound
//!    ([`paths`]), and the fixpoint is computed ([`check`]). Fewer abstract paths only shrink
//!    the simulation, a larger `Env*` only adds obligations: a fixpoint found this way whose
//!    initial pair κ implies is a weak simulation. It is re-checked condition by condition
//!    with fresh solvers (with the closure's reflexivity and closure under a step) before
//!    `refines` is answered; a failed re-check is `unknown`. It first runs from a start
//!    strengthened by relations guessed from sampled paired runs ([`guess`]: per pair of
//!    locations, equalities such as `c.i = a.i + 1` and congruences such as `c.i mod 2 = 0`)
//!    with a quarter of the cut budget: where the counters of two loops are out of phase,
//!    the iteration from ι alone cuts an infinite chain of counter bands. The guessed start
//!    only makes `Ψ` smaller, so what it reaches is re-checked like any other; when it
//!    reaches no simulation (a wrong guess), the iteration runs again from ι.
//! 3. **No run**, when the yes run finds no simulation: the abstract `Env*` is
//!    under-approximated by `k` steps (fewer obligations, a larger greatest fixpoint) and the
//!    abstract local paths must be enumerated *completely* (every `τ*` / `τ* σ τ*` path is
//!    finite, e.g. a loop passes a visible action). Then the iteration computes a superset of
//!    the greatest weak simulation (every strengthening is exact, see [`check`]), so once κ
//!    no longer implies `Ψ` of the initial pair, no weak simulation exists: `does not
//!    refine`, with the concrete step (or environment step) that cut the initial pair and a
//!    state κ allows that it excludes. Otherwise: `unknown`.
//!
//! The answer is about the succinct automata this module builds: `Inv` is `true`, `Env` is
//! the location-insensitive union of the other threads' steps (their locals hidden) and the
//! identity, values are mathematical integers.
//!
//! Must not: print, or import Z3 (only through `crate::smt`).

pub mod check;
pub mod env;
pub mod exec;
pub mod guess;
pub mod paths;
pub mod sa;
pub mod spec;

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::types::DataModel;
use crate::smt::{Deadline, SatResult, Smt};
use crate::term::{TermId, TermStore, Value};
use check::{Cause, EnvMode, Fixpoint, Stop};
use sa::Side;
use std::time::Duration;

/// Choices of a refinement check.
#[derive(Clone, Debug)]
pub struct RefineOptions {
    /// κ, a C expression over `a.x` and `c.x` (default: ι).
    pub pre: Option<String>,
    /// ι (default: common variables have equal values).
    pub rel: Option<String>,
    /// The compared thread's function (default: the first thread `main` creates).
    pub thread: Option<String>,
    /// Time for the whole check.
    pub timeout: Option<Duration>,
    /// Longest abstract local path the yes run tries.
    pub depth: usize,
    /// Abstract environment steps the no run takes (`k`).
    pub env_steps: usize,
    /// Most cubes each run may cut from the `Ψ`s before it gives up (`unknown`).
    pub max_cuts: usize,
    /// Widths of the integer types (values are mathematical integers regardless).
    pub data_model: DataModel,
    /// Whether the yes run first tries a start strengthened by guessed relations
    /// ([`guess`]).
    pub guess: bool,
}

impl Default for RefineOptions {
    fn default() -> Self {
        RefineOptions {
            pre: None,
            rel: None,
            thread: None,
            timeout: None,
            depth: 3,
            env_steps: 2,
            max_cuts: 2000,
            data_model: DataModel::default(),
            guess: true,
        }
    }
}

/// Which input an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The abstract program.
    Abstract,
    /// The concrete program.
    Concrete,
    /// `--pre`.
    Pre,
    /// `--rel`.
    Rel,
}

/// Bad input: where, and what.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{error}")]
pub struct RefineError {
    /// Which input.
    pub input: Input,
    /// The located error.
    pub error: CError,
}

/// What a mismatch is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MismatchKind {
    /// A concrete step (its source) the abstract side cannot match.
    Step(Span),
    /// An environment step after which the states are no longer related.
    Env,
}

/// The justification of `does not refine`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What the abstract side cannot follow.
    pub kind: MismatchKind,
    /// The initial state (κ holds) from which it happens: `a.x` / `c.x` and values.
    pub state: Vec<(String, String)>,
}

/// Why there is no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefineUnknown {
    /// The time ran out, or the solver gave up: its words.
    Solver(String),
    /// Quantifiers over an abstract path's undetermined values could not be eliminated.
    Quantifiers,
    /// The iteration cut more cubes than allowed (`--max-cuts`) without reaching a fixpoint.
    Cuts,
    /// The yes run's simulation failed its re-check: which condition.
    WitnessFailed(String),
    /// No simulation was found, and `does not refine` cannot be justified: why.
    Inexact(String),
}

impl RefineUnknown {
    /// A short name for the kind (for tests and statistics).
    pub fn kind(&self) -> &'static str {
        match self {
            RefineUnknown::Solver(_) => "solver",
            RefineUnknown::Quantifiers => "quantifiers",
            RefineUnknown::Cuts => "cuts",
            RefineUnknown::WitnessFailed(_) => "witness-failed",
            RefineUnknown::Inexact(_) => "inexact",
        }
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refinement {
    /// A weak simulation exists (found and re-checked).
    Refines {
        /// Pairs of locations in Θ.
        pairs: usize,
        /// Rounds of the iteration.
        rounds: usize,
        /// Guessed relations the simulation started from (0: the plain iteration).
        guessed: usize,
    },
    /// No weak simulation exists.
    DoesNotRefine(Mismatch),
    /// Neither could be shown.
    Unknown(RefineUnknown),
}

fn read(
    store: &TermStore,
    src: &str,
    tag: &'static str,
    input: Input,
    o: &RefineOptions,
) -> Result<Side, RefineError> {
    let err = |error| RefineError { input, error };
    let program = super::read_program(src, o.data_model).map_err(err)?;
    sa::build(store, program, tag, o.thread.as_deref()).map_err(err)
}

fn stop(s: Stop) -> Refinement {
    Refinement::Unknown(match s {
        Stop::Solver(w) => RefineUnknown::Solver(w),
        Stop::Quantifiers => RefineUnknown::Quantifiers,
        Stop::Cuts => RefineUnknown::Cuts,
        Stop::Broken => RefineUnknown::Inexact("no simulation".to_owned()),
    })
}

/// Checks whether the compared thread of `concrete` weakly refines that of `abstract_`.
pub fn refine(
    store: &TermStore,
    abstract_: &str,
    concrete: &str,
    o: &RefineOptions,
) -> Result<Refinement, RefineError> {
    let a = read(store, abstract_, "a", Input::Abstract, o)?;
    let c = read(store, concrete, "c", Input::Concrete, o)?;
    let parse = |text: &Option<String>, input| -> Result<Option<TermId>, RefineError> {
        text.as_ref()
            .map(|t| spec::parse(store, t, &a, &c).map_err(|error| RefineError { input, error }))
            .transpose()
    };
    let rel = parse(&o.rel, Input::Rel)?;
    let pre = parse(&o.pre, Input::Pre)?;
    let iota = rel.unwrap_or_else(|| spec::common(store, &a, &c).0);
    let kappa = pre.unwrap_or(iota);
    // A global of one side only that no relation mentions is most likely a mistake.
    let mentioned = store.free_vars(store.and([iota, kappa]));
    for (side, other, input) in [(&a, &c, Input::Abstract), (&c, &a, Input::Concrete)] {
        for (i, v) in side.vars[..side.globals].iter().enumerate() {
            let used = side.edges.iter().any(|e| {
                store.free_vars(e.guard).contains(&v.term)
                    || e.post.iter().any(|&p| store.free_vars(p).contains(&v.term))
            });
            if used && other.lookup(&v.name).is_none() && !mentioned.contains(&v.term) {
                let span = side.program.globals[i].span;
                return Err(RefineError {
                    input,
                    error: CError::new(
                        CErrorKind::Name,
                        span,
                        format!(
                            "global `{}` is not in the other program and neither --rel nor --pre mentions it",
                            v.name
                        ),
                    ),
                });
            }
        }
    }
    let deadline = match o.timeout {
        Some(t) => Deadline::after(t),
        None => Deadline::none(),
    };
    // The yes run.
    let (Some(aclosure), Some(cclosure)) = (
        env::closure(store, &a, deadline.clone()),
        env::closure(store, &c, deadline.clone()),
    ) else {
        return Ok(Refinement::Unknown(RefineUnknown::Solver(
            "the environment's closure".to_owned(),
        )));
    };
    let over = EnvMode::Over {
        concrete: &cclosure,
        abstract_: &aclosure,
    };
    if o.guess {
        if let Some(found) = guessed(store, &c, &a, iota, kappa, &over, o, deadline.clone()) {
            return Ok(found);
        }
    }
    let mut yes = Fixpoint::new(store, &c, &a, iota, o.depth, o.max_cuts, deadline.clone());
    match yes.run(&over, kappa) {
        Ok(()) => match yes.initial_holds(kappa) {
            Ok(true) => {
                return Ok(match recheck(&yes, &over, kappa) {
                    Ok(()) => Refinement::Refines {
                        pairs: yes.psi.len(),
                        rounds: yes.rounds,
                        guessed: 0,
                    },
                    Err(why) => Refinement::Unknown(RefineUnknown::WitnessFailed(why)),
                })
            }
            Ok(false) => {}
            Err(s) => return Ok(stop(s)),
        },
        Err(Stop::Broken) => {}
        Err(s) => return Ok(stop(s)),
    }
    // The no run.
    let mut no = Fixpoint::new(store, &c, &a, iota, EXACT_DEPTH, o.max_cuts, deadline);
    if !no.complete {
        return Ok(Refinement::Unknown(RefineUnknown::Inexact(format!(
            "no simulation found; the abstract side has silent local paths longer than {EXACT_DEPTH} edges (a loop without a visible action), so the search is not exhaustive"
        ))));
    }
    match no.run(&EnvMode::Exact(o.env_steps), kappa) {
        Err(Stop::Broken) => Ok(mismatch(&no, kappa)),
        Err(s) => Ok(stop(s)),
        Ok(()) => match no.initial_holds(kappa) {
            Ok(false) => Ok(mismatch(&no, kappa)),
            Ok(true) => Ok(Refinement::Unknown(RefineUnknown::Inexact(format!(
                "a simulation exists with {} abstract environment steps but none was found with the over-approximated closure",
                o.env_steps
            )))),
            Err(s) => Ok(stop(s)),
        },
    }
}

/// The accelerated yes run: the iteration from `Ψ = ι ∧ guessed equalities`, with a
/// quarter of the cut budget. A `refines` only when it reaches a fixpoint whose initial
/// pair κ implies and that passes the re-check; anything else (a wrong guess, too many
/// cuts, a failed re-check) gives `None` and the plain iteration runs. The solver running
/// out of time is also `None`: the plain run then stops at the same deadline.
#[allow(clippy::too_many_arguments)]
fn guessed(
    store: &TermStore,
    c: &Side,
    a: &Side,
    iota: TermId,
    kappa: TermId,
    over: &EnvMode,
    o: &RefineOptions,
    deadline: Deadline,
) -> Option<Refinement> {
    let mut fp = Fixpoint::new(store, c, a, iota, o.depth, o.max_cuts / 4, deadline);
    let g = guess::guess(&fp, kappa, over);
    if g.relations + g.empty == 0 {
        return None;
    }
    for (&pair, &extra) in &g.start {
        fp.strengthen_start(pair, extra);
    }
    fp.run(over, kappa).ok()?;
    if fp.initial_holds(kappa).ok()? && recheck(&fp, over, kappa).is_ok() {
        return Some(Refinement::Refines {
            pairs: fp.psi.len(),
            rounds: fp.rounds,
            guessed: g.relations,
        });
    }
    None
}

/// The path length up to which the no run must enumerate every abstract local path.
const EXACT_DEPTH: usize = 40;

/// The cause of `does not refine`: the first cut of the initial pair that a state κ allows
/// lies in.
fn mismatch(fp: &Fixpoint, kappa: TermId) -> Refinement {
    let s = fp.store;
    let init = (fp.c.init, fp.a.init);
    for (cube, cause) in fp.cuts.get(&init).map(|v| v.as_slice()).unwrap_or(&[]) {
        let mut smt = Smt::new(s, fp.deadline.clone());
        smt.assert(kappa);
        smt.assert(*cube);
        if smt.check() != SatResult::Sat {
            continue;
        }
        let mut state = vec![];
        for (side, tag) in [(fp.a, "a"), (fp.c, "c")] {
            for v in side.vars.iter().filter(|v| !v.param) {
                if let Some(val) = smt.value(v.term) {
                    let text = match val {
                        Value::Int(i) => i.to_string(),
                        other => other.to_string(),
                    };
                    state.push((format!("{tag}.{}", v.name), text));
                }
            }
        }
        let kind = match cause {
            Cause::Env => MismatchKind::Env,
            Cause::Step(k) => MismatchKind::Step(fp.c.edges[*k].span),
        };
        return Refinement::DoesNotRefine(Mismatch { kind, state });
    }
    // κ already excludes states of ι (no cut): the first cut is ι itself.
    Refinement::DoesNotRefine(Mismatch {
        kind: MismatchKind::Env,
        state: vec![],
    })
}

/// Re-checks every condition of Definition 6 for the yes run's `Ψ`, with fresh solvers.
fn recheck(fp: &Fixpoint, mode: &EnvMode, kappa: TermId) -> Result<(), String> {
    let s = fp.store;
    let EnvMode::Over {
        concrete,
        abstract_,
    } = mode
    else {
        return Err("not a simulation of the yes run".to_owned());
    };
    for (side, cl, which) in [(fp.a, abstract_, "abstract"), (fp.c, concrete, "concrete")] {
        match env::recheck(s, side, cl, fp.deadline.clone()) {
            Some(true) => {}
            Some(false) => return Err(format!("the closure of the {which} environment")),
            None => return Err(format!("the closure of the {which} environment: no answer")),
        }
    }
    let valid = |t: TermId, what: &str| -> Result<(), String> {
        let mut smt = Smt::new(s, fp.deadline.clone());
        smt.assert(t);
        match smt.check() {
            SatResult::Unsat => Ok(()),
            SatResult::Sat => Err(format!("{what}: violated")),
            SatResult::Unknown(w) => Err(format!("{what}: no answer ({w})")),
        }
    };
    let init = (fp.c.init, fp.a.init);
    valid(
        s.and([kappa, s.not(fp.psi[&init])]),
        "condition 1 (κ implies Ψ at the initial pair)",
    )?;
    for (&pair, &psi) in &fp.psi {
        valid(s.and([psi, s.not(fp.iota)]), "condition 2 (Ψ implies ι)")?;
        valid(s.and([psi, fp.env_bad(pair, mode)]), "condition 2.a")?;
        for (k, e) in fp.c.edges.iter().enumerate() {
            if e.from == pair.0 {
                valid(s.and([psi, fp.step_bad(pair, k)]), "conditions 2.b/2.c")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "#include <pthread.h>\nint r, t, x;\n";
    const MAIN: &str = "int main(void) { pthread_t p, e; pthread_create(&p, 0, prog, 0); \
                        pthread_create(&e, 0, env, 0); return 0; }\n";

    fn program(body: &str, env: &str) -> String {
        format!(
            "{HEAD}void *prog(void *arg) {{ {body} return 0; }}\n\
             void *env(void *arg) {{ {env} return 0; }}\n{MAIN}"
        )
    }

    fn check(a: &str, c: &str, rel: &str) -> Refinement {
        let store = TermStore::new();
        let o = RefineOptions {
            rel: Some(rel.to_owned()),
            ..RefineOptions::default()
        };
        refine(&store, a, c, &o).expect("well-formed")
    }

    #[test]
    fn a_thread_refines_itself() {
        let p = program("r = 0; t = x + 5; r = t;", "x = x + 1;");
        assert!(matches!(
            check(&p, &p, "a.r == c.r && a.t == c.t && a.x == c.x"),
            Refinement::Refines { .. }
        ));
    }

    #[test]
    fn a_write_the_abstract_side_never_makes_is_a_mismatch() {
        let a = program("r = 0;", "x = x + 1;");
        let c = program("r = 1;", "x = x + 1;");
        match check(&a, &c, "a.r == c.r && a.x == c.x") {
            Refinement::DoesNotRefine(m) => {
                let MismatchKind::Step(span) = m.kind else {
                    panic!("{m:?}")
                };
                assert!(c[span.start..span.end].starts_with("r = 1"));
                assert!(m.state.iter().any(|(n, _)| n == "c.r"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_atomic_increment_is_not_refined_by_a_split_one() {
        let atomic = "void __VERIFIER_atomic_inc(void) { x = x + 1; }\n";
        let a = program("__VERIFIER_atomic_inc();", "x = x + 2;")
            .replace(HEAD, &format!("{HEAD}{atomic}"));
        let split = program("int l = x; x = l + 1;", "x = x + 2;");
        assert!(matches!(
            check(&a, &a, "a.x == c.x"),
            Refinement::Refines { .. }
        ));
        assert!(matches!(
            check(&a, &split, "a.x == c.x"),
            Refinement::DoesNotRefine(_)
        ));
        // Without an environment writing x, the split increment is fine.
        let quiet = |p: &str| p.replace("x = x + 2;", "r = r + 2;");
        assert!(matches!(
            check(&quiet(&a), &quiet(&split), "a.x == c.x && a.r == c.r"),
            Refinement::Refines { .. }
        ));
    }

    #[test]
    fn the_closure_keeps_what_the_environment_does_not_write() {
        let store = TermStore::new();
        let p = program("r = 0;", "x = x + 1;");
        let program = crate::frontend::c::read_program(&p, DataModel::default()).expect("reads");
        let side = sa::build(&store, program, "a", None).expect("builds");
        let cl = env::closure(&store, &side, Deadline::none()).expect("closes");
        assert_eq!(
            env::recheck(&store, &side, &cl, Deadline::none()),
            Some(true)
        );
        // r and t are not written (r' = r), x only grows: `x' <= x` is gone.
        let printed = crate::term::print::TermPrinter::new(&store).term(cl.rel);
        assert!(printed.contains("(= a.r!"), "{printed}");
        assert!(printed.contains("(>= a.x!"), "{printed}");
        assert!(!printed.contains("(<= a.x!"), "{printed}");
    }
}
