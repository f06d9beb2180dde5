//! The memory a batch's child may use: the limit from `--memory MB` ([`MemoryLimit`]: the
//! resident set the runner polls, and the address-space backstop set before exec) and how the
//! resident set of a process is read.
//!
//! Duty: say what the limits are and measure a process. Must not: start, watch or kill a
//! child (the [`runner`](super::runner) does), or read its output.

/// Bytes in a MB.
pub const MB: u64 = 1 << 20;

/// What the address-space backstop allows beyond twice the memory limit, in MB: the solver
/// thread's 512 MB stack reservation, malloc arenas (at most 2 with `MALLOC_ARENA_MAX=2`, 64 MB
/// of address space each), the mapped executable and Z3 library, thread stacks, with room to
/// spare. The backstop is for bursts too fast for the polling, not the limit itself.
pub const RESERVED_MB: u64 = 1024;

/// The memory limits of one child, from `--memory MB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimit {
    /// The limit: the resident set size the child may reach, in MB.
    pub mb: u64,
    /// The address-space backstop (`RLIMIT_AS`), in MB.
    pub backstop_mb: u64,
}

impl MemoryLimit {
    /// The limits for `--memory mb`.
    pub fn new(mb: u64) -> Self {
        MemoryLimit {
            mb,
            backstop_mb: mb.saturating_mul(2).saturating_add(RESERVED_MB),
        }
    }

    pub(super) fn rss_bytes(&self) -> u64 {
        self.mb.saturating_mul(MB)
    }

    pub(super) fn backstop_bytes(&self) -> u64 {
        self.backstop_mb.saturating_mul(MB)
    }
}

/// The resident set size of process `pid` in bytes, from `/proc/PID/statm` (its second field,
/// in pages); `None` when it cannot be read (the process is gone, no `/proc`).
pub fn rss_bytes(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
    Some(pages.saturating_mul(page))
}
