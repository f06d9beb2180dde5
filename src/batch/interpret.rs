//! Reading a finished child into its [`Record`]: the verdict on the first line of stdout
//! (`sat`/`unsat` from `solve`, `safe`/`unsafe` from `verify`, or `unknown`), the statistics as
//! the last JSON line on stderr (`engine`, and `reason_kind` after `unknown`; both commands
//! print the same shape with `--stats`), the other stderr lines as messages, and the exit
//! status: 2 is bad input (the first message, located, is the reason), 101 a panic, a signal
//! or a failed allocation a crash or an out-of-memory.
//!
//! Duty: turn whatever the child left into an answer and a reason. Must not: run or wait for the
//! child (the [`runner`](super::runner) does), or judge answers against expectations.

use super::memory::MemoryLimit;
use super::Record;
use crate::witness::ReasonKind;
use std::os::unix::process::ExitStatusExt;

/// Fills in answer, engine, validation and reason from the child's output and exit status
/// (`solve`'s or `verify`'s: the same shape, the verdict on the first line of stdout, the
/// statistics as the last JSON line on stderr, messages on the other lines).
pub fn interpret(
    rec: &mut Record,
    status: std::process::ExitStatus,
    stdout: &str,
    stderr: &str,
    memory: Option<MemoryLimit>,
) {
    let first = stdout.lines().next().unwrap_or("").trim();
    let stats: Option<serde_json::Value> = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok());
    let messages: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with('{') && !l.trim().is_empty())
        .collect();
    let oom = stderr.contains("memory allocation of") || stderr.contains("out of memory");
    if let Some(sig) = status.signal() {
        rec.reason = if oom {
            memory_reason(memory)
        } else {
            format!("killed by signal {sig}{}", tail(&messages))
        };
        return;
    }
    match (status.code(), first) {
        (Some(0), "sat" | "unsat" | "safe" | "unsafe" | "unknown") => {
            rec.answer = first.to_string();
            rec.engine = stats
                .as_ref()
                .and_then(|s| s.get("engine"))
                .and_then(|e| e.as_str())
                .map(str::to_string);
            rec.reason_kind = stats
                .as_ref()
                .and_then(|s| s.get("reason_kind"))
                .and_then(|k| k.as_str())
                .and_then(|k| k.parse().ok());
            rec.violated = stats
                .as_ref()
                .and_then(|s| s.get("violated"))
                .and_then(|k| k.as_str())
                .map(str::to_string);
            if rec.solved() {
                rec.validation = "validated".into();
            } else {
                rec.reason = messages.join("; ");
                // A resource the child lacked under the address-space backstop (its worker
                // thread's stack): the memory limit, not an answer.
                if rec.reason_kind == Some(ReasonKind::Resource) && memory.is_some() {
                    rec.answer = "error".into();
                    rec.reason = memory_reason(memory);
                }
            }
        }
        (Some(2), _) => {
            rec.reason = messages.first().map_or("input error", |m| m).to_string();
        }
        (Some(101), _) => {
            rec.reason = if oom {
                memory_reason(memory)
            } else {
                format!("crashed (panic){}", tail(&messages))
            };
        }
        (code, _) => {
            rec.reason = if oom {
                memory_reason(memory)
            } else {
                format!(
                    "exit status {}{}",
                    code.map_or("?".into(), |c| c.to_string()),
                    tail(&messages)
                )
            };
        }
    }
}

/// The reason of a child whose allocation failed: under a limit, at the address-space backstop.
fn memory_reason(memory: Option<MemoryLimit>) -> String {
    match memory {
        Some(m) => format!(
            "out of memory (an allocation failed at the address-space backstop of {} MB for a \
             limit of {} MB)",
            m.backstop_mb, m.mb
        ),
        None => "out of memory".into(),
    }
}

/// The last message of the child, as context for a crash.
fn tail(messages: &[&str]) -> String {
    match messages.last() {
        Some(m) => format!(": {}", m.chars().take(200).collect::<String>()),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::error_record;
    use std::path::Path;

    #[test]
    fn a_verify_child_is_read_like_a_solve_child() {
        let exited = std::process::ExitStatus::from_raw(0);
        let stats = |answer: &str, kind: &str| {
            format!(r#"{{"engine":"pdr","answer":"{answer}","reason_kind":{kind}}}"#)
        };
        let mut rec = error_record(Path::new("d/p.c"), String::new());
        interpret(&mut rec, exited, "safe\n", &stats("safe", "null"), None);
        assert_eq!(
            (rec.answer.as_str(), rec.engine.as_deref()),
            ("safe", Some("pdr"))
        );
        assert!(rec.solved() && rec.validation == "validated", "{rec:?}");
        let mut rec = error_record(Path::new("d/p.c"), String::new());
        let err = format!(
            "internal error: the counterexample does not replay\n{}",
            stats("unknown", "\"witness-failed\"")
        );
        interpret(&mut rec, exited, "unknown\n", &err, None);
        assert_eq!(rec.answer, "unknown");
        assert!(rec.witness_failed(), "{rec:?}");
        assert_eq!(
            rec.reason,
            "internal error: the counterexample does not replay"
        );
        // A worker that could not start under the backstop is the memory limit, read from
        // the kind, whatever the message says.
        let mut rec = error_record(Path::new("d/p.smt2"), String::new());
        let err = format!(
            "cannot start the worker thread: out of memory\n{}",
            stats("unknown", "\"resource\"")
        );
        let limit = MemoryLimit {
            mb: 100,
            backstop_mb: 1224,
        };
        interpret(&mut rec, exited, "unknown\n", &err, Some(limit));
        assert_eq!(rec.answer, "error", "{rec:?}");
        assert!(rec.reason.contains("limit of 100 MB"), "{rec:?}");
        let mut rec = error_record(Path::new("d/p.c"), String::new());
        let bad = std::process::ExitStatus::from_raw(2 << 8);
        interpret(
            &mut rec,
            bad,
            "",
            "d/p.c:3:5: unsupported: pointers\n",
            None,
        );
        assert_eq!(rec.answer, "error");
        assert_eq!(rec.reason, "d/p.c:3:5: unsupported: pointers");
    }
}
