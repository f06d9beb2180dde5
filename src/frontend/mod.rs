//! Front ends: programs in other languages translated to CHC systems, with the means to read
//! answers back at the source level.
//!
//! Layer: uses term, chc, syntax (spans, line/column), analysis (rule files), witness and engine;
//! never the CLI.

pub mod c;
pub mod hints;
pub mod script;
