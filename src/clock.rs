//! Deadlines and cancellation: the timing types every layer shares (engines, validation,
//! preprocessing, the SMT back-end, which turns what is left into Z3's per-check limits).
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

/// A flag that asks work to stop before its deadline: set by whoever no longer needs the
/// answer (a parallel portfolio whose other engine answered), read by the work at its natural
/// stopping points. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Cancel {
    /// A flag nobody has set yet.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks every holder of a clone to stop.
    pub fn cancel(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called on a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag_across_threads() {
        let c = Cancel::new();
        let seen = c.clone();
        assert!(!seen.is_cancelled());
        std::thread::spawn(move || c.cancel()).join().unwrap();
        assert!(seen.is_cancelled());
    }

    #[test]
    fn deadlines_expire_and_nest() {
        assert!(!Deadline::none().expired());
        assert!(Deadline::after(Duration::ZERO).expired());
        let outer = Deadline::after(Duration::from_secs(100));
        let inner = outer.at_most(Duration::from_millis(1));
        assert!(inner.remaining().unwrap() <= Duration::from_millis(1));
        assert_eq!(outer.at_most(Duration::from_secs(1000)), outer);
    }
}
