//! Hornbeam: a constrained-Horn-clause verification engine.
//!
//! Layers, each using only those listed before it: [`term`] → [`chc`] → [`smt`] → ...
//! See the README's code map.

pub mod analysis;
pub mod batch;
pub mod chc;
pub mod engine;
pub mod frontend;
pub mod interp;
pub mod smt;
pub mod syntax;
pub mod term;
pub mod transform;
pub mod witness;
