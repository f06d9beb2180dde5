//! Hornbeam: a constrained-Horn-clause verification engine.
//!
//! Layers, each using only those listed before it: [`clock`] → [`term`] → [`chc`] → [`syntax`] /
//! [`analysis`] / [`smt`] → [`witness`] → [`transform`], [`interp`] → [`engine`] →
//! [`frontend`] → [`batch`] → [`cli`]: the command line, which only parses arguments and prints
//! (the `hornbeam` binary is `cli::main(cli::App::new())`; a crate of the user's adds its
//! analyses with [`cli::App::with_analysis`]). The README's code map states each module's duty
//! and invariants.
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
//! use hornbeam::engine::driver::{solve, SolveOptions};
//! use hornbeam::engine::schedule::Selection;
//! use hornbeam::witness::{Answer, ModelFormat};
//! use std::time::Duration;
//!
//! let options = SolveOptions {
//!     engine: Selection::Auto,
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
//! use hornbeam::clock::Deadline;
//! use hornbeam::witness::{validate_model, ModelCheck};
//!
//! let good = "(define-fun inv ((x Int)) Bool (and (>= x 0) (<= x 10)))";
//! let model = hornbeam::witness::read_model(&store, &system, good).expect("well-formed");
//! assert_eq!(validate_model(&store, &system, &model, Deadline::none()), ModelCheck::Valid);
//!
//! let not_inductive = "(define-fun inv ((x Int)) Bool (= x 0))";
//! let model = hornbeam::witness::read_model(&store, &system, not_inductive).unwrap();
//! match validate_model(&store, &system, &model, Deadline::none()) {
//!     ModelCheck::Invalid { clause, values, .. } => {
//!         assert_eq!(clause.0, 1); // the loop's step: inv(0) and y = 1, but not inv(1)
//!         assert_eq!(values.len(), 2);
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! **Verify a C program** with [`frontend::c::verify::verify`]: the program is read, checked
//! and translated into clauses, run concretely a few times, and the clauses' answer is read
//! back at the source: a model gives loop invariants as C expressions
//! ([`frontend::c::invariants`]); a derivation gives nondet values that the concrete
//! interpreter must replay to the error before the verdict is `Unsafe`.
//!
//! ```
//! use hornbeam::frontend::c::{invariants, verify};
//! use hornbeam::term::TermStore;
//! use std::time::Duration;
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
//! let options = verify::VerifyOptions {
//!     timeout: Some(Duration::from_secs(20)),
//!     deterministic: true,
//!     ..verify::VerifyOptions::default()
//! };
//! let verified = verify::verify(&store, program, &options).expect("in the C subset");
//! match &verified.verdict {
//!     verify::Verdict::Safe(model) => {
//!         // The program is absent only after a proof by the shape engine alone.
//!         let program = verified.program.as_ref().expect("read by the clauses");
//!         for inv in invariants::invariants(&store, &verified.translation, model) {
//!             let function = &program.functions[inv.func].name;
//!             println!("{function} at byte {}: {}", inv.offset, inv.text);
//!         }
//!     }
//!     verify::Verdict::Unsafe { values, .. } => println!("unsafe with {} nondet values", values.len()),
//!     verify::Verdict::Unknown(reason) => println!("unknown: {reason}"),
//! }
//! assert!(matches!(verified.verdict, verify::Verdict::Safe(_)));
//! ```

/// The crate under its own name, so that the ascent sources in `rules/` name their column
/// types `::hornbeam::...` alike inside the crate and in a user's.
extern crate self as hornbeam;

pub mod analysis;
pub mod batch;
pub mod chc;
pub mod cli;
pub mod clock;
pub mod engine;
pub mod frontend;
pub mod interp;
pub mod smt;
pub mod syntax;
pub mod term;
pub mod transform;
pub mod witness;
