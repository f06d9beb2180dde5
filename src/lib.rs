//! Hornbeam: a constrained-Horn-clause verification engine.
//!
//! Layers, each using only those listed before it: [`clock`] → [`term`] → [`chc`] → [`syntax`] /
//! [`analysis`] / [`smt`] → [`witness`] → [`transform`], [`interp`] → [`engine`] →
//! [`frontend`] → [`batch`]; the `hornbeam` binary only parses arguments and prints. The
//! README's code map states each module's duty and invariants.
//!
//! # Entry points
//!
//! Every term lives in a [`TermStore`](term::TermStore) that the caller creates and passes
//! down; nothing is global.
//!
//! **Read a CHC-COMP file** ([`syntax::read_text`] reads a path, `-` for standard input, gzip
//! or not; [`syntax::read_system`] lowers the text; errors render as `FILE:LINE:COL: what`):
//!
//! ```
//! use hornbeam::term::TermStore;
//!
//! let src = "(set-logic HORN)
//!            (declare-fun inv (Int) Bool)
//!            (assert (forall ((x Int)) (=> (= x 0) (inv x))))
//!            (assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
//!            (assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
//!            (check-sat)";
//! let store = TermStore::new();
//! let system = hornbeam::syntax::read_system(&store, src).expect("well-formed");
//! assert_eq!((system.num_preds(), system.num_clauses()), (1, 3));
//!
//! let bad = "(assert (> x 0))";
//! let e = hornbeam::syntax::read_system(&store, bad).unwrap_err();
//! assert_eq!(e.render("f.smt2", bad), "f.smt2:1:12: unknown symbol `x`");
//! ```
//!
//! **Solve it with options** ([`engine::driver::solve`]: preprocessing, the chosen engine or
//! the portfolio, translation back, validation). The answer is a value: `Sat` with a model
//! checked against every clause, `Unsat` with a derivation that was replayed, or `Unknown`
//! with the reason; never an error.
//!
//! ```
//! # use hornbeam::term::TermStore;
//! # let src = "(set-logic HORN)(declare-fun inv (Int) Bool)
//! #   (assert (forall ((x Int)) (=> (= x 0) (inv x))))
//! #   (assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
//! #   (assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))(check-sat)";
//! # let store = TermStore::new();
//! # let system = hornbeam::syntax::read_system(&store, src).unwrap();
//! use hornbeam::engine::driver::{solve, EngineChoice, SolveOptions};
//! use hornbeam::witness::{Answer, ModelFormat};
//! use std::time::Duration;
//!
//! let options = SolveOptions {
//!     engine: EngineChoice::Auto,
//!     timeout: Some(Duration::from_secs(20)),
//!     ..SolveOptions::default()
//! };
//! match solve(&store, &system, &options).answer {
//!     Answer::Sat(model) => println!("sat\n{}", model.to_text(&store, &system, ModelFormat::Lines)),
//!     Answer::Unsat(derivation) => println!("unsat\n{}", derivation.to_text(&store, &system)),
//!     Answer::Unknown(reason) => println!("unknown: {reason}"),
//! }
//! ```
//!
//! **Check a model** from anywhere (ours, Z3's, CHC-COMP's `(model ...)`) with
//! [`witness::validate_model`]; an invalid one names a violated clause and values of its
//! variables that break it:
//!
//! ```
//! # use hornbeam::term::TermStore;
//! # let src = "(set-logic HORN)(declare-fun inv (Int) Bool)
//! #   (assert (forall ((x Int)) (=> (= x 0) (inv x))))
//! #   (assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
//! #   (assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))(check-sat)";
//! # let store = TermStore::new();
//! # let system = hornbeam::syntax::read_system(&store, src).unwrap();
//! use hornbeam::smt::Deadline;
//! use hornbeam::witness::{validate_model, ModelCheck};
//!
//! let good = "(define-fun inv ((x Int)) Bool (and (>= x 0) (<= x 10)))";
//! let model = hornbeam::syntax::read_model(&store, &system, good).expect("well-formed");
//! assert_eq!(validate_model(&store, &system, &model, Deadline::none()), ModelCheck::Valid);
//!
//! let not_inductive = "(define-fun inv ((x Int)) Bool (= x 0))";
//! let model = hornbeam::syntax::read_model(&store, &system, not_inductive).unwrap();
//! match validate_model(&store, &system, &model, Deadline::none()) {
//!     ModelCheck::Invalid { clause, values, .. } => {
//!         assert_eq!(clause.0, 1); // the loop's step: inv(0) and y = 1, but not inv(1)
//!         assert_eq!(values.len(), 2);
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! **Verify a C program**: [`frontend::c::load`] reads, checks and translates an SV-COMP-style
//! program into clauses; the answer of the clauses is read back at the source:
//! [`frontend::c::invariants`] renders a model as C expressions at loop heads, and a
//! derivation's nondet values ([`frontend::c::trace`]) are replayed by the concrete
//! interpreter ([`frontend::c::interp`]) before a program is called unsafe (as `hornbeam
//! verify` does).
//!
//! ```
//! use hornbeam::engine::driver::{solve, SolveOptions};
//! use hornbeam::frontend::c;
//! use hornbeam::term::TermStore;
//! use hornbeam::witness::Answer;
//!
//! let program = "extern void reach_error(void);
//!                extern int __VERIFIER_nondet_int(void);
//!                int main(void) {
//!                  int n = __VERIFIER_nondet_int();
//!                  int x = 0;
//!                  while (x < n) x++;
//!                  if (n >= 0 && x != n) reach_error();
//!                  return 0;
//!                }";
//! let store = TermStore::new();
//! let (prog, translation) = c::load(&store, program).expect("in the C subset");
//! let answer = solve(&store, &translation.system, &SolveOptions::default()).answer;
//! let Answer::Sat(model) = answer else { panic!("the program is safe") };
//! for inv in c::invariants::invariants(&store, &translation, &model) {
//!     let function = &prog.functions[inv.func].name;
//!     println!("{function} at byte {}: {}", inv.offset, inv.text);
//! }
//! ```

pub mod analysis;
pub mod batch;
pub mod chc;
pub mod clock;
pub mod engine;
pub mod frontend;
pub mod interp;
pub mod smt;
pub mod syntax;
pub mod term;
pub mod transform;
pub mod witness;
