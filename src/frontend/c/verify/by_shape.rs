//! The shape engine's part of `verify` (`super`): when it runs, with what time, and the
//! verdict of its proof, also on a program whose clauses the front end refused under a
//! memory property.
//!
//! Must not: answer anything but `safe` from the shape engine (its "don't know" leaves the
//! program to the concrete runs and the clause engines, or to the refusal).

use super::super::ir::{InvalidOps, MemChecks};
use super::super::program::Program;
use super::super::property::PropertyKind;
use super::super::shape;
use super::super::unit::Unit;
use super::super::{CError, Translation};
use super::{Verdict, Verified, VerifyOptions, VerifyTimes, SHAPE};
use crate::engine::Stats;
use crate::witness::Model;
use std::time::{Duration, Instant};

/// The shape engine alone, on a program the clauses cannot model under a memory property:
/// its `safe`, else the front end's refusal. The program reported with the proof is the one
/// read under unreach-call's checks where they model it (the report only gives its size;
/// none when the clauses cannot model it at all: `__builtin_offsetof`, say). The
/// engine shares one convention of the front end, that `reach_error()` ends the execution:
/// a program that refutes it stays refused.
pub(super) fn shape_alone(
    unit: &Unit<'_>,
    options: &VerifyOptions,
    (started, read_ms): (Instant, u64),
    refused: CError,
) -> Result<Verified, CError> {
    if super::super::reach_error_stops(unit.src).is_err() {
        return Err(refused);
    }
    let outcome = shape_engine(unit, true, options, started);
    if !matches!(outcome, Some(shape::Outcome::Safe(_))) {
        return Err(refused);
    }
    let checks = MemChecks::unreach_call();
    let program = super::super::resolve_unit(unit, options.data_model, checks).ok();
    Ok(shape_safe(program, outcome, (started, read_ms)))
}

/// The verdict `safe` of the shape engine (`started` is when `verify` began, `read_ms` the
/// time its reading took).
pub(super) fn shape_safe(
    program: Option<Program>,
    shape: Option<shape::Outcome>,
    (started, read_ms): (Instant, u64),
) -> Verified {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    Verified {
        program,
        translation: Translation {
            system: crate::chc::System::new(),
            loops: vec![],
            clauses: vec![],
            approximate: false,
        },
        verdict: Verdict::Safe(Model::new()),
        engine: SHAPE,
        engine_stats: Stats::default(),
        times: VerifyTimes {
            read: read_ms,
            solve: ms(started.elapsed()).saturating_sub(read_ms),
            ..VerifyTimes::default()
        },
        schedule: None,
        shape,
        hints: None,
    }
}

/// The shape engine, under a memory property or, for a program that allocates heap blocks
/// (`heap`), unreach-call (at most half the time limit, 10 s without one); `None` when it
/// does not apply. Its "don't know" leaves the program to the concrete runs and the clause
/// engines.
pub(super) fn shape_engine(
    unit: &Unit<'_>,
    heap: bool,
    options: &VerifyOptions,
    started: Instant,
) -> Option<shape::Outcome> {
    let checks = options.checks;
    let property = if checks.error_calls {
        // Leaks are no fault to the engine under unreach-call: a property that also asks
        // for memtrack is not its to prove.
        if !heap || checks.leaks {
            return None;
        }
        PropertyKind::UnreachCall
    } else if checks.cleanup {
        PropertyKind::MemCleanup
    } else if checks.invalid == InvalidOps::Violation || checks.leaks {
        PropertyKind::MemSafety
    } else {
        return None;
    };
    let share = options.timeout.map_or(Duration::from_secs(10), |t| {
        t.saturating_sub(started.elapsed()) / 2
    });
    Some(shape::analyze(
        &unit.items,
        property,
        Instant::now() + share,
        &|off| unit.line_of(off),
    ))
}
