//! Starting over with glibc's malloc told to use transparent huge pages.
//!
//! Every Z3 context allocates and touches about 16 MB when it is made (two AST managers with
//! their tables, 8.5 MB each); with 4 KB pages that is some 4000 page faults per context, one
//! context per portfolio thread. glibc backs its heaps and large blocks with huge pages only
//! under the tunable `glibc.malloc.hugetlb=1`, which it reads from `GLIBC_TUNABLES` when the
//! process starts; so the command line, started without it, executes itself once more with it
//! set (the environment then carries it to `batch`'s children, which do not start over). On
//! `rtp_8` the page faults halve (11700 to 5800) and the CPU time goes from 135 to 109 ms;
//! over the public files answered within 1.5 s the median wall-time ratio is 0.96, the
//! second start included (BENCHMARKS.md, "Time to an answer").
//!
//! Must not: change anything but the environment of the same program with the same
//! arguments, or fail: when the tunable is present, the program is not at `/proc/self/exe`, or
//! the exec fails, the process goes on as it is.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;

/// The tunable, in `GLIBC_TUNABLES`' syntax.
const TUNABLE: &str = "glibc.malloc.hugetlb=1";

/// Executes this program again with [`TUNABLE`] added to `GLIBC_TUNABLES`, unless it is
/// there (or `HORNBEAM_NO_HUGE_PAGES` is set); returns only when that does not happen.
pub fn reexec() {
    if !cfg!(target_os = "linux") || std::env::var_os("HORNBEAM_NO_HUGE_PAGES").is_some() {
        return;
    }
    let Some(tunables) = with_tunable(&std::env::var_os("GLIBC_TUNABLES").unwrap_or_default())
    else {
        return;
    };
    let mut args = std::env::args_os();
    let Some(arg0) = args.next() else { return };
    // Returns only on failure.
    let _ = std::process::Command::new("/proc/self/exe")
        .arg0(arg0)
        .args(args)
        .env("GLIBC_TUNABLES", tunables)
        .exec();
}

/// `GLIBC_TUNABLES` with [`TUNABLE`] added before the others, or `None` when it sets
/// `glibc.malloc.hugetlb` already (to any value: a user's choice stays).
fn with_tunable(current: &OsStr) -> Option<OsString> {
    if current.to_string_lossy().contains("glibc.malloc.hugetlb") {
        return None;
    }
    let mut tunables = OsString::from(TUNABLE);
    if !current.is_empty() {
        tunables.push(":");
        tunables.push(current);
    }
    Some(tunables)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tunable_goes_first_and_a_set_one_stays() {
        let with = |s: &str| with_tunable(OsStr::new(s)).map(|t| t.into_string().unwrap());
        assert_eq!(with("").as_deref(), Some(TUNABLE));
        assert_eq!(
            with("glibc.malloc.arena_max=2").as_deref(),
            Some("glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2")
        );
        assert_eq!(with("glibc.malloc.hugetlb=0"), None);
        assert_eq!(with(TUNABLE), None);
    }
}
