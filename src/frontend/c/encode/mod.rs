//! Translation of a resolved C program to a CHC system by large-block encoding.
//!
//! # Encoding
//!
//! * **Cut points.** Each function gets a control-flow automaton whose only predicates sit at
//!   loop heads (`f_loopK`), plus a summary `f_sum(params, globals_in, [ret], globals_out)` and,
//!   when the function may reach the error, `f_err(params, globals_in)`. Everything between
//!   two cut points is one clause: a block is executed symbolically from its cut point; at
//!   joins of `if` branches the states are merged (disjunction of the branch conditions, fresh
//!   variables for the variables that differ), so a loop body without calls gives one clause
//!   however many branches it has. A state that made a call carries the callee's summary atom
//!   and is not merged with states that did not (body atoms cannot be conditional), so calls
//!   give non-linear clauses; recursion (mutual too) is just a cycle among summaries.
//! * **Arguments.** A loop head of function `f` has one argument per value of the parameters
//!   and globals at entry of `f` (not for `main`; needed to relate entry and exit for the
//!   summary), per global and per local of `f` (every block-scoped declaration is its own
//!   variable). Scalars have sort `Int`; arguments of unsigned or narrow types are assumed
//!   within their range in every clause that reads them.
//! * **Arrays** (`array.rs`): one argument of sort `(Array Int Int)` per array, over row-major
//!   element numbers; `select`/`store`, each index assumed within its dimension (out of
//!   bounds is undefined behaviour), each value read within the element type's range.
//! * **Errors.** `reach_error()`, `__VERIFIER_error()`, `__assert_fail` and a failing
//!   `__VERIFIER_assert`/`assert` send the state to the error outcome: in `main` a query clause
//!   (head `false`), elsewhere a clause for `f_err`; a call of a function that may fail adds a
//!   state whose body holds the callee's `_err` atom. `abort()`, `exit()` and a failing
//!   assumption end the path. Returning from `main` ends the path.
//! * **Values.** Uninitialised locals and `__VERIFIER_nondet_T()` are fresh variables within
//!   `T`'s range (SV-COMP ILP32: char 8, short 16, int and long 32, long long 64 bits), as is
//!   the value of a function that ends without `return`. Undefined behaviour ends the
//!   execution, as in the interpreter and the README: signed arithmetic is mathematical, and
//!   a state assumes that the exact result of each signed `+`, `-`, `*`, unary `-`, `<<`, `/`
//!   lies in the type's range (only the bounds it might cross, from the operands' constants or
//!   types), so executions with a signed overflow (`INT_MIN / -1` and then `INT_MIN % -1`
//!   too) are not continued; `x << k` of a signed `x` needs `x >= 0`. Unsigned `+`/`-` wrap by
//!   a two-case disjunction, unsigned `*`, left shifts and conversions to a type that cannot
//!   hold every value of the source type wrap exactly by a fresh variable `r = t - 2^w k`
//!   within range (conversions to signed types wrap too, as GCC defines them). `/` and `%`
//!   truncate toward zero (cases over the signs on top of SMT-LIB's Euclidean `div`);
//!   division by zero ends the execution. Shifts by a constant are multiplications/divisions by
//!   powers of two (`>>` is floor division, the arithmetic shift); by a variable amount, one
//!   case per amount in `0..width`, so other amounts end the execution. `x & (2^k-1)` is
//!   `x mod 2^k` (exact in two's complement), constants are folded; other `&`, `|`, `^` are
//!   over-approximated by a fresh value bounded when both operands are non-negative
//!   (`0 ≤ x&y ≤ min(x,y)`, `max(x,y) ≤ x|y ≤ x+y`, `0 ≤ x^y ≤ x+y`); the translation is
//!   then marked approximate. Over-approximation keeps `safe` sound; an `unsafe` answer is only
//!   reported after the concrete interpreter replays it.
//! * **Trace events.** Each clause records, in execution order, its nondet values and calls
//!   with the path condition under which they happen (the part of it the clause's constraint
//!   does not already impose), so the nondet values of a derivation can be read back in
//!   execution order ([`super::trace`]).
//!
//! Must not: solve, or print.

mod array;
mod bits;
mod expr;
mod fail;
mod region;
pub mod rely;
mod state;

use fail::may_fail;

pub use state::{Event, EventKind};

use super::ast::Span;
use super::cfa::{structure, LocId};
use super::ir::VarRef;
use super::program::Program;
use super::types::CType;
use crate::chc::{Atom, Clause, Head, PredId, System};
use crate::term::{Sort, TermId, TermStore, VarId};
use state::Val;
use state::{merge, State};
use std::collections::{HashMap, HashSet};

/// A loop head: where it is and what its arguments mean.
#[derive(Clone, Debug)]
pub struct LoopHead {
    /// Its predicate.
    pub pred: PredId,
    /// The function it belongs to.
    pub func: usize,
    /// Where the loop statement starts.
    pub span: Span,
    /// For each argument, its C name (`x@entry` for values at function entry) and type, or
    /// `None` for locals not in scope at the head.
    pub args: Vec<Option<(String, CType)>>,
    /// For each argument, the variable it holds (`None` for values at function entry).
    pub vars: Vec<Option<VarRef>>,
    /// Its location in the function's CFA.
    pub loc: LocId,
    /// Whether this is no cut point but the environment relation of the rely-guarantee
    /// clauses ([`rely`]): arguments the acting thread's identifier, the globals before and
    /// after its step.
    pub env: bool,
}

/// What the trace extraction needs to know about a clause.
#[derive(Clone, Debug, Default)]
pub struct ClauseInfo {
    /// Whether body atom 0 is the source cut point (executed before this block).
    pub has_source: bool,
    /// Nondet values and calls in execution order.
    pub events: Vec<Event>,
}

/// The CHC system of a program and what is needed to read answers back.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The clauses.
    pub system: System,
    /// Every loop head.
    pub loops: Vec<LoopHead>,
    /// Per clause (indexed by `ClauseId`).
    pub clauses: Vec<ClauseInfo>,
    /// Whether some operation was over-approximated.
    pub approximate: bool,
}

/// Choices of the encoding.
#[derive(Clone, Copy, Debug)]
pub struct EncodeOptions {
    /// Cut-point predicates carry only the variables live there (else every variable).
    pub live_variables_only: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            live_variables_only: true,
        }
    }
}

/// Cut points of `main` besides its loop heads, and variables a cut-point predicate of `main`
/// keeps whether or not they are live there: what the rely-guarantee encoding of threads
/// created in a loop ([`super::threads::rely`]) needs of the large-block encoding.
#[derive(Clone, Debug, Default)]
pub struct ExtraCuts {
    /// Further cut points of `main`'s CFA.
    pub cuts: Vec<LocId>,
    /// Per location of `main`'s CFA (or empty): the variables its predicate keeps, if it is a
    /// cut point.
    pub keep: Vec<Vec<VarRef>>,
    /// Variables whose declarations without initialiser (`Op::Init(v, None)`) give any
    /// integer, not only a value of their type, and (globals) whose values at the entry of a
    /// function are not assumed within their type's range: ghost variables that must never
    /// overflow.
    pub unbounded: Vec<VarRef>,
}

/// Translates a resolved program into clauses over `store` with the default options.
pub fn translate(store: &TermStore, program: &Program) -> Translation {
    translate_with(store, program, &EncodeOptions::default())
}

/// Translates a resolved program into clauses over `store`.
pub fn translate_with(
    store: &TermStore,
    program: &Program,
    options: &EncodeOptions,
) -> Translation {
    translate_extra(store, program, options, &ExtraCuts::default())
}

/// Translates a resolved program into clauses over `store`, with `extra` cut points and kept
/// variables in `main`.
pub fn translate_extra(
    store: &TermStore,
    program: &Program,
    options: &EncodeOptions,
    extra: &ExtraCuts,
) -> Translation {
    let may_fail = may_fail(program);
    let mut system = System::new();
    let mut sum_preds = vec![];
    let mut err_preds = vec![];
    let globals: Vec<Sort> = program.globals.iter().map(array::sort_of).collect();
    for (i, f) in program.functions.iter().enumerate() {
        let mut inputs = vec![Sort::Int; f.params];
        inputs.extend(globals.iter().cloned());
        let mut sorts = inputs.clone();
        sorts.extend(f.ret.map(|_| Sort::Int));
        sorts.extend(globals.iter().cloned());
        sum_preds.push(system.add_pred(format!("{}_sum", f.name), sorts));
        err_preds.push(
            (may_fail[i] && i != program.main)
                .then(|| system.add_pred(format!("{}_err", f.name), inputs)),
        );
    }
    // A function whose exit no edge enters never returns (its CFA keeps only what its entry
    // reaches): `__invalid_dereference`, `abort`-like helpers. After a call of it only the
    // error path goes on; a return path would carry the call's atom, and paths that differ in
    // their atoms never merge (the memory checks call such helpers at every dereference, so a
    // region's paths doubled with each).
    let may_return = (program.functions.iter())
        .map(|f| f.cfa.edges.iter().any(|e| e.to == f.cfa.exit))
        .collect();
    let mut enc = Encoder {
        store,
        program,
        system,
        sum_preds,
        err_preds,
        may_return,
        func: 0,
        snap: 0,
        sorts: vec![],
        current: vec![],
        counter: 0,
        errors: vec![],
        returns: vec![],
        options: *options,
        loops: vec![],
        clauses: vec![],
        approximate: false,
        extra,
    };
    for f in 0..program.functions.len() {
        enc.function(f);
    }
    Translation {
        system: enc.system,
        loops: enc.loops,
        clauses: enc.clauses,
        approximate: enc.approximate,
    }
}

/// The translation's working state for one program.
pub(super) struct Encoder<'a> {
    store: &'a TermStore,
    program: &'a Program,
    system: System,
    sum_preds: Vec<PredId>,
    err_preds: Vec<Option<PredId>>,
    /// Per function: some path from its entry returns.
    may_return: Vec<bool>,
    /// The function being translated.
    func: usize,
    /// Number of entry-snapshot slots of the current function.
    snap: usize,
    /// The sort of each slot of the current function.
    sorts: Vec<Sort>,
    /// The elements being updated (array term, element number, element type), innermost
    /// last: what [`super::ir::IExprKind::Current`] reads.
    current: Vec<(TermId, TermId, CType)>,
    counter: usize,
    /// States that reached the error in the current function.
    errors: Vec<State>,
    /// States that returned (the return value is pushed as an extra slot).
    returns: Vec<State>,
    options: EncodeOptions,
    loops: Vec<LoopHead>,
    clauses: Vec<ClauseInfo>,
    approximate: bool,
    /// Cut points and kept variables of `main` besides the loop heads and live variables.
    extra: &'a ExtraCuts,
}

impl Encoder<'_> {
    fn fresh_var(&mut self, name: &str) -> VarId {
        self.fresh_sorted(name, Sort::Int)
    }

    fn global_slot(&self, g: usize) -> usize {
        self.snap + g
    }

    fn slot(&self, r: VarRef) -> usize {
        match r {
            VarRef::Global(g) => self.global_slot(g),
            VarRef::Local(l) => self.snap + self.program.globals.len() + l,
        }
    }

    /// Name and type of each slot of the current function.
    fn slot_info(&self) -> Vec<(String, CType)> {
        let f = &self.program.functions[self.func];
        let mut out = vec![];
        if self.snap > 0 {
            for l in &f.locals[..f.params] {
                out.push((format!("{}@entry", l.name), l.ty));
            }
            for g in &self.program.globals {
                out.push((format!("{}@entry", g.name), g.ty));
            }
        }
        for g in &self.program.globals {
            out.push((g.name.clone(), g.ty));
        }
        for l in &f.locals {
            out.push((l.name.clone(), l.ty));
        }
        out
    }

    /// The variable of each slot of [`Self::slot_info`] (`None` for the entry snapshots).
    fn slot_vars(&self) -> Vec<Option<VarRef>> {
        let f = &self.program.functions[self.func];
        let ng = self.program.globals.len();
        let entry = if self.snap > 0 { f.params + ng } else { 0 };
        let globals = (0..ng).map(|g| Some(VarRef::Global(g)));
        let locals = (0..f.locals.len()).map(|l| Some(VarRef::Local(l)));
        std::iter::repeat_n(None, entry)
            .chain(globals)
            .chain(locals)
            .collect()
    }

    fn function(&mut self, fi: usize) {
        let s = self.store;
        self.func = fi;
        let f = &self.program.functions[fi];
        let is_main = fi == self.program.main;
        let ng = self.program.globals.len();
        self.snap = if is_main { 0 } else { f.params + ng };
        self.errors.clear();
        self.returns.clear();
        let info = self.slot_info();
        self.sorts = self.slot_sorts();
        let mut st = State {
            guard: vec![],
            env: vec![],
            atoms: vec![],
            events: vec![],
            has_source: false,
        };
        // Entry values.
        let mut entry = vec![];
        if !is_main {
            for (k, (name, ty)) in info[..self.snap].iter().enumerate() {
                let sort = self.sorts[k].clone();
                let name = name.trim_end_matches("@entry");
                let ghost =
                    k >= f.params && self.extra.unbounded.contains(&VarRef::Global(k - f.params));
                let t = if ghost {
                    s.var(self.fresh_var(name))
                } else {
                    self.fresh_slot(name, *ty, &sort, &mut st)
                };
                entry.push(t);
            }
        }
        st.env.extend(entry.iter().copied());
        for g in 0..ng {
            let t = if is_main {
                self.global_initial(g)
            } else {
                entry[f.params + g]
            };
            st.env.push(t);
        }
        for l in 0..f.locals.len() {
            let t = if l < f.params {
                if is_main {
                    let (name, ty) = info[self.snap + ng + l].clone();
                    self.fresh_in(&name, ty, &mut st)
                } else {
                    entry[l]
                }
            } else if f.locals[l].is_array() {
                self.const_array(0.into()) // not in scope yet; set by its declaration
            } else {
                s.int(0) // not in scope yet; set by its declaration
            };
            st.env.push(t);
        }
        // The entry's region, then each cut point's.
        let mut structure = structure::analyze(self.program, fi);
        if is_main && !self.extra.cuts.is_empty() {
            structure.cut_points.extend(self.extra.cuts.iter().copied());
            structure.cut_points.sort_unstable();
            structure.cut_points.dedup();
            for (live, keep) in structure.live.iter_mut().zip(&self.extra.keep) {
                live.extend(keep.iter().copied());
                live.sort_unstable();
                live.dedup();
            }
        }
        let mut cuts = HashMap::new();
        for &c in &structure.cut_points {
            let cut = self.cut_point(c, &structure.live[c.0 as usize]);
            cuts.insert(c, cut);
        }
        let entry = self.program.functions[fi].cfa.entry;
        self.region(entry, st, &cuts);
        for &c in &structure.cut_points {
            let head = self.head_state(&cuts[&c]);
            self.region(c, head, &cuts);
        }
        let ret_ty = self.program.functions[fi].ret;
        // Errors.
        let errors = std::mem::take(&mut self.errors);
        let errors = self.merge_states(errors);
        for st in errors {
            match self.err_preds[fi] {
                None => self.emit(st, None),
                Some(p) => {
                    let args = st.env[..self.snap].to_vec();
                    self.emit(st, Some((p, args)));
                }
            }
        }
        // Returns.
        let returns = std::mem::take(&mut self.returns);
        if !is_main {
            let returns = self.merge_states(returns);
            for st in returns {
                let mut args = st.env[..self.snap].to_vec();
                if ret_ty.is_some() {
                    args.push(*st.env.last().unwrap_or(&s.int(0)));
                }
                for g in 0..ng {
                    args.push(st.env[self.global_slot(g)]);
                }
                let p = self.sum_preds[fi];
                self.emit(st, Some((p, args)));
            }
        }
    }

    fn merge_states(&mut self, states: Vec<State>) -> Vec<State> {
        let store = self.store;
        let mut counter = self.counter;
        let sorts = &self.sorts;
        let out = merge(store, states, &mut |slot| {
            counter += 1;
            let sort = sorts.get(slot).cloned().unwrap_or(Sort::Int);
            store.new_var(&format!("phi_{counter}"), sort)
        });
        self.counter = counter;
        out
    }

    /// Emits `atoms ∧ guard → head(args)` (or `→ false`).
    fn emit(&mut self, st: State, head: Option<(PredId, Vec<TermId>)>) {
        let s = self.store;
        if st.dead(s) {
            return;
        }
        let mut guard = st.guard.clone();
        let mut used: HashSet<VarId> = st
            .atoms
            .iter()
            .flat_map(|a| a.args.iter().copied())
            .collect();
        let head = match head {
            None => Head::False,
            Some((pred, terms)) => {
                let mut args = vec![];
                for t in terms {
                    match s.as_var(t) {
                        Some(v) if !used.contains(&v) => {
                            used.insert(v);
                            args.push(v);
                        }
                        _ => {
                            let v = self.fresh_sorted("h", s.sort(t));
                            guard.push(s.eq(s.var(v), t));
                            used.insert(v);
                            args.push(v);
                        }
                    }
                }
                Head::Atom(Atom { pred, args })
            }
        };
        let clause = Clause {
            body: st.atoms,
            constraint: s.and(guard),
            head,
        };
        self.system.add_clause(clause);
        self.clauses.push(ClauseInfo {
            has_source: st.has_source,
            events: st.events,
        });
    }

    fn eval_all(&mut self, e: &super::ir::IExpr, states: Vec<State>) -> Vec<(State, Val)> {
        let mut out = vec![];
        for st in states {
            out.extend(self.eval(e, st));
        }
        out
    }

    /// Splits states by a condition: (true states, false states).
    fn test(&mut self, c: &super::ir::IExpr, states: Vec<State>) -> (Vec<State>, Vec<State>) {
        let s = self.store;
        let (mut yes, mut no) = (vec![], vec![]);
        for (st, v) in self.eval_all(c, states) {
            let t = self.truth(v);
            let (mut a, mut b) = (st.clone(), st);
            a.assume(s, t);
            b.assume(s, s.not(t));
            if !a.dead(s) {
                yes.push(a);
            }
            if !b.dead(s) {
                no.push(b);
            }
        }
        (yes, no)
    }
}
