//! Deadlines: the one timing type every layer shares (engines, validation, preprocessing, the
//! SMT back-end, which turns what is left into Z3's per-check limits).
//!
//! It lives at the bottom of the layers so that nothing needs the Z3 layer to measure time.
//! Must not: read a global clock setting or sleep; a deadline is a value passed down.

use std::time::{Duration, Instant};

/// A point in time after which no more work should start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline.
    pub fn none() -> Self {
        Deadline(None)
    }

    /// `d` from now.
    pub fn after(d: Duration) -> Self {
        Deadline(Instant::now().checked_add(d))
    }

    /// Time left (None when unbounded).
    pub fn remaining(&self) -> Option<Duration> {
        self.0.map(|t| t.saturating_duration_since(Instant::now()))
    }

    /// The earlier of this deadline and `d` from now.
    pub fn at_most(&self, d: Duration) -> Self {
        match self.remaining() {
            Some(r) if r <= d => *self,
            _ => Deadline::after(d),
        }
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.remaining() == Some(Duration::ZERO)
    }
}
