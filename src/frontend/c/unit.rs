//! A C source read once: its text, its syntax tree and the index of its lines. `verify` reads a
//! program into a [`Unit`] and every later step takes it (resolving, the shape engine, positions
//! in traces and witnesses), so that no step preprocesses or parses the text again.
//!
//! Must not: resolve names or types (that is [`super::resolve`], over [`Unit::items`]).

use super::ast::Item;
use super::CError;
use crate::syntax::parse::LineIndex;

/// A program's source, parsed.
pub struct Unit<'a> {
    /// The text as read.
    pub src: &'a str,
    /// Its top-level items (after preprocessing).
    pub items: Vec<Item>,
    /// Its lines, for positions.
    pub lines: LineIndex<'a>,
}

impl<'a> Unit<'a> {
    /// Preprocesses and parses `src`; a syntax error is located in it.
    pub fn parse(src: &'a str) -> Result<Self, CError> {
        Ok(Unit {
            src,
            items: super::parse::parse_unit(src)?,
            lines: LineIndex::new(src),
        })
    }

    /// The line (from 1) of a byte offset of the source.
    pub fn line_of(&self, offset: usize) -> usize {
        self.lines.line_col(offset).0
    }
}
