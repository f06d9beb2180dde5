"""Where the build's Z3 is: the z3-solver wheel that build.rs fetches into a per-user cache
(the same lookup as build.rs: $HORNBEAM_Z3_DIR, else $XDG_CACHE_HOME/hornbeam/z3-solver-VERSION,
else ~/.cache/hornbeam/z3-solver-VERSION). Scripts use its `z3` binary as the reference
solver, the same build Hornbeam links against."""

import os
from pathlib import Path

WHEEL = "z3-solver-5.3.3.0"  # keep in step with Z3_WHEEL in build.rs


def z3_dir():
    """The wheel's directory (it may not exist before the first build)."""
    if os.environ.get("HORNBEAM_Z3_DIR"):
        return Path(os.environ["HORNBEAM_Z3_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "hornbeam" / WHEEL


def z3_binary():
    """The wheel's `z3` binary, or None if it is not there (build first: `cargo build`)."""
    z3 = z3_dir() / "bin" / "z3"
    return z3 if z3.exists() else None
