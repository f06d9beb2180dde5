//! Resource limits of the command line: `--timeout` and `--memory` values, and the watch the
//! main thread keeps over a worker (time, resident memory) so that every limit ends in a
//! printed answer, never in a panic or an abort.
//!
//! Nothing here solves: it parses limits and reads the process's age (its resident memory is
//! read with the batch's `memory::rss_bytes`).

use std::str::FromStr;
use std::time::Duration;

/// Limits above this many seconds mean no limit (and cannot overflow the clock).
const MAX_SECONDS: f64 = 1e7;

/// The longest finite limit, for commands that need one (`batch`).
pub const LONGEST: Duration = Duration::from_secs(MAX_SECONDS as u64);

/// A `--timeout` value: a non-negative number of seconds, or `inf` for no limit. Values above
/// 10^7 s (115 days) also mean no limit; `nan`, negative numbers and text are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimit(pub Option<Duration>);

impl FromStr for TimeLimit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}` is not a number of seconds (a number >= 0, or `inf`)");
        let x: f64 = s.trim().parse().map_err(|_| bad())?;
        if x.is_nan() || x < 0.0 {
            return Err(bad());
        }
        if x > MAX_SECONDS {
            return Ok(TimeLimit(None));
        }
        Ok(TimeLimit(Some(Duration::from_secs_f64(x))))
    }
}

/// A `--memory` value in megabytes (a positive integer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimit {
    /// The limit in MB, as given.
    pub megabytes: u64,
}

impl FromStr for MemoryLimit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().parse::<u64>() {
            Ok(mb) if mb > 0 && mb <= 1 << 30 => Ok(MemoryLimit { megabytes: mb }),
            _ => Err(format!(
                "`{s}` is not a number of megabytes (a whole number from 1 to 2^30)"
            )),
        }
    }
}

impl MemoryLimit {
    /// The limit in bytes.
    pub fn bytes(&self) -> u64 {
        self.megabytes << 20
    }

    /// `given`, or else the default guard: 90 % of the machine's memory (Linux's `MemTotal`),
    /// so that exhaustion is an `unknown` with its reason rather than the OOM killer's signal
    /// or a failed allocation's abort. `None` where the machine's memory cannot be read.
    pub fn or_default_guard(given: Option<MemoryLimit>) -> Option<MemoryLimit> {
        given.or_else(|| {
            let info = std::fs::read_to_string("/proc/meminfo").ok()?;
            let kb: u64 = info
                .lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))?
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .ok()?;
            let megabytes = kb / 1024 * 9 / 10;
            (megabytes > 0).then_some(MemoryLimit { megabytes })
        })
    }
}

/// The limits a worker runs under.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// The time limit; `None`: none.
    pub time: Option<Duration>,
    /// Time past `time` for the last checks and printing before the command answers
    /// `unknown` itself.
    pub grace: Duration,
    /// The resident-memory limit; `None`: none.
    pub memory: Option<MemoryLimit>,
    /// `--stats`: an answer the limits force is followed by the statistics line's answer and
    /// reason kind, as the command's own would be (batch reads the kind).
    pub stats: bool,
}

impl Limits {
    /// No limit at all (commands that only read and print).
    pub fn none() -> Self {
        Limits::default()
    }
}

/// How long ago this process started (Linux: `/proc/self/stat` against `/proc/uptime`, to the
/// clock tick), `None` elsewhere. Limits count from the process's start, not from `main`:
/// loading the libraries takes tens of milliseconds on a loaded machine.
pub fn process_age() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = &stat[stat.rfind(')')? + 1..];
    let start_ticks: f64 = rest.split_whitespace().nth(19)?.parse().ok()?;
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    // SAFETY: sysconf has no preconditions; it returns -1 on error, handled below.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks <= 0 {
        return None;
    }
    let age = uptime - start_ticks / ticks as f64;
    (0.0..60.0)
        .contains(&age)
        .then(|| Duration::from_secs_f64(age))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits() {
        let t = |s: &str| s.parse::<TimeLimit>();
        assert_eq!(t("1.5"), Ok(TimeLimit(Some(Duration::from_millis(1500)))));
        assert_eq!(t("0"), Ok(TimeLimit(Some(Duration::ZERO))));
        for none in ["inf", "infinity", "1e20", "1e300", "18446744073709551615"] {
            assert_eq!(t(none), Ok(TimeLimit(None)), "{none}");
        }
        for bad in ["nan", "-1", "-inf", "", "ten"] {
            assert!(t(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn memory_limits() {
        assert_eq!(
            "100".parse::<MemoryLimit>().map(|m| m.bytes()),
            Ok(100 << 20)
        );
        for bad in ["0", "-5", "1.5", "lots", "99999999999999999999"] {
            assert!(bad.parse::<MemoryLimit>().is_err(), "{bad}");
        }
    }

    #[test]
    fn knows_own_age() {
        assert!(process_age().is_some_and(|a| a < Duration::from_secs(60)));
    }
}
