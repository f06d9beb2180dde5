//! Deadlines and cancellation: the timing types every layer shares (engines, validation,
//! preprocessing, the SMT back-end, which turns what is left into Z3's per-check limits).
//!
//! It lives at the bottom of the layers so that nothing needs the Z3 layer to measure time.
//! Must not: read a global clock setting or sleep; a deadline is a value passed down.

use std::time::{Duration, Instant};

/// A point in time after which no more work should start, and the [`Cancel`] flag, if any,
/// that ends it early: once the flag is set the deadline has passed, so every loop and every
/// solver check bounded by the deadline stops too. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    at: Option<Instant>,
    cancel: Option<Cancel>,
}

impl Deadline {
    /// No deadline.
    pub fn none() -> Self {
        Deadline::default()
    }

    /// `d` from now.
    pub fn after(d: Duration) -> Self {
        Deadline {
            at: Instant::now().checked_add(d),
            cancel: None,
        }
    }

    /// This deadline, ended early by `cancel` (in place of the flag it had).
    pub fn with_cancel(&self, cancel: Cancel) -> Self {
        Deadline {
            cancel: Some(cancel),
            ..self.clone()
        }
    }

    /// The flag that ends this deadline early, if any.
    pub fn cancel(&self) -> Option<&Cancel> {
        self.cancel.as_ref()
    }

    /// Whether the flag was set (the time may not have run out).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// Time left: `None` when unbounded, zero once the flag is set.
    pub fn remaining(&self) -> Option<Duration> {
        if self.is_cancelled() {
            return Some(Duration::ZERO);
        }
        self.at.map(|t| t.saturating_duration_since(Instant::now()))
    }

    /// The earlier of this deadline and `d` from now, with the same flag.
    pub fn at_most(&self, d: Duration) -> Self {
        let cut = Instant::now().checked_add(d);
        let at = match (self.at, cut) {
            (Some(a), Some(c)) => Some(a.min(c)),
            (a, c) => a.or(c),
        };
        Deadline {
            at,
            cancel: self.cancel.clone(),
        }
    }

    /// Whether the deadline has passed (or its flag was set).
    pub fn expired(&self) -> bool {
        self.remaining() == Some(Duration::ZERO)
    }
}

impl PartialEq for Deadline {
    /// The same time and the same flag (clones of one [`Cancel`]), or no flag on either.
    fn eq(&self, other: &Self) -> bool {
        let same_flag = match (&self.cancel, &other.cancel) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(&a.0, &b.0),
            _ => false,
        };
        self.at == other.at && same_flag
    }
}

impl Eq for Deadline {}

/// A flag that asks work to stop before its deadline: set by whoever no longer needs the
/// answer (a parallel portfolio whose other engine answered, a batch that was interrupted),
/// read through the [`Deadline`] that carries it. Clones share the flag; a
/// [`child`](Cancel::child) is set by its own `cancel` or by its parent's.
#[derive(Clone, Debug, Default)]
pub struct Cancel(std::sync::Arc<Flag>);

#[derive(Debug, Default)]
struct Flag {
    set: std::sync::atomic::AtomicBool,
    parent: Option<Cancel>,
}

impl Cancel {
    /// A flag nobody has set yet.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// A new flag that is also set whenever this one is (cancelling the child leaves this one
    /// alone).
    pub fn child(&self) -> Self {
        Cancel(std::sync::Arc::new(Flag {
            set: Default::default(),
            parent: Some(self.clone()),
        }))
    }

    /// Asks every holder of a clone (and of a child) to stop.
    pub fn cancel(&self) {
        self.0.set.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called on a clone or on an ancestor's clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.set.load(std::sync::atomic::Ordering::SeqCst)
            || self.0.parent.as_ref().is_some_and(Cancel::is_cancelled)
    }
}

/// A time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso8601_utc(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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

    #[test]
    fn a_set_flag_ends_the_deadline_and_reaches_children() {
        let parent = Cancel::new();
        let child = parent.child();
        let d = Deadline::none().with_cancel(child.clone());
        let sliced = d.at_most(Duration::from_secs(100));
        assert!(!d.expired() && !sliced.expired());
        assert_eq!(d.remaining(), None);
        child.cancel();
        assert!(d.expired() && sliced.expired());
        assert_eq!(d.remaining(), Some(Duration::ZERO));
        assert!(!parent.is_cancelled());
        let other = parent.child();
        let d2 = Deadline::after(Duration::from_secs(100)).with_cancel(other);
        parent.cancel();
        assert!(d2.expired());
    }

    #[test]
    fn times_are_iso_8601() {
        use std::time::UNIX_EPOCH;
        assert_eq!(iso8601_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_709_251_199); // leap year, end of February
        assert_eq!(iso8601_utc(t), "2024-02-29T23:59:59Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_735_689_600);
        assert_eq!(iso8601_utc(t), "2025-01-01T00:00:00Z");
    }
}
