//! A resolved program made ready for the clause back end and the concrete runs, once, for
//! `verify` and for `verify --emit-chc` alike (so that what is printed is what is solved): a
//! sequential program as it is, a concurrent one as its interleaving product or, when `main`
//! creates threads in a loop, as rely-guarantee clauses over the program itself.
//!
//! Must not: solve, run the program, or read the source (it takes the resolved program).

use super::super::threads::{self, Concurrent};
use super::super::unit::Unit;
use super::super::{encode, ir, CError, DataModel, EncodeOptions, Program, Translation};
use crate::term::TermStore;

/// A concurrent program with its product's scheduler site.
pub(super) struct Threads {
    /// The threads as read.
    pub(super) program: Concurrent,
    /// The nondet site whose values are the threads' turns.
    pub(super) site: usize,
}

/// What the back ends of `verify` take.
pub(super) struct Lowered {
    /// What the concrete runs execute and counterexamples replay on: the program, or for
    /// threads their interleaving product (for threads created in a loop, the program with a
    /// nondet site for the turns: there is no product).
    pub(super) program: Program,
    /// The threads, for a concurrent program.
    pub(super) conc: Option<Threads>,
    /// The clauses solved (for threads created in a loop: the rely-guarantee system with the
    /// last-writer ghosts).
    pub(super) translation: Translation,
    /// For threads created in a loop: the rely-guarantee system without the ghosts, which is
    /// solved first.
    pub(super) plain: Option<Translation>,
}

impl Lowered {
    /// Whether `main` creates threads in a loop (the rely-guarantee case).
    pub(super) fn unbounded(&self) -> bool {
        (self.conc.as_ref()).is_some_and(|t| t.program.unbounded.is_some())
    }
}

/// Lowers `read` for the back ends, its clauses over `store`.
pub(super) fn lower(
    store: &TermStore,
    read: Program,
    options: &EncodeOptions,
) -> Result<Lowered, CError> {
    if !threads::is_concurrent(&read) {
        let translation = encode::translate_with(store, &read, options);
        return Ok(Lowered {
            program: read,
            conc: None,
            translation,
            plain: None,
        });
    }
    let c = threads::analyze(read)?;
    if c.unbounded.is_none() {
        let p = threads::product::product(&c);
        let translation = encode::translate_with(store, &p.program, options);
        let conc = Some(Threads {
            program: c,
            site: p.sched_site,
        });
        return Ok(Lowered {
            program: p.program,
            conc,
            translation,
            plain: None,
        });
    }
    // No product: the program itself, with a nondet site for the turns of a trace; its
    // clauses are two rely-guarantee systems, without and with the last-writer ghosts.
    let mut p = c.program.clone();
    let span = p.functions[p.main].span;
    p.nondet_sites.push(ir::NondetSite {
        ty: super::super::types::CType::INT,
        span,
    });
    let site = p.nondet_sites.len() - 1;
    let [plain, translation] = [false, true].map(|writers| {
        let rely = threads::rely::rely(&c, writers);
        encode::rely::translate_rely(store, &rely).translation
    });
    Ok(Lowered {
        program: p,
        conc: Some(Threads { program: c, site }),
        translation,
        plain: Some(plain),
    })
}

/// Parses, resolves and translates a C program into clauses over `store`: the program the
/// concrete runs execute (for threads, their interleaving product; for threads created in a
/// loop, the program itself) and the clauses `verify` solves.
pub fn load(
    store: &TermStore,
    src: &str,
    model: DataModel,
) -> Result<(Program, Translation), CError> {
    load_with(store, src, model, &EncodeOptions::default())
}

/// Like [`load`], with choices of the encoding.
pub fn load_with(
    store: &TermStore,
    src: &str,
    model: DataModel,
    options: &EncodeOptions,
) -> Result<(Program, Translation), CError> {
    load_checked(store, src, model, options, ir::MemChecks::unreach_call())
}

/// Like [`load_with`], with the checks of a property: what `verify --emit-chc` prints.
pub fn load_checked(
    store: &TermStore,
    src: &str,
    model: DataModel,
    options: &EncodeOptions,
    checks: ir::MemChecks,
) -> Result<(Program, Translation), CError> {
    let read = super::super::resolve_unit(&Unit::parse(src)?, model, checks)?;
    let lowered = lower(store, read, options)?;
    Ok((lowered.program, lowered.translation))
}
