//! The C front end (placeholder header, completed below).

pub mod ast;
pub mod error;
pub mod lexer;
pub mod parse;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused)]
    pub(crate) grammar,
    "/c.rs"
);
