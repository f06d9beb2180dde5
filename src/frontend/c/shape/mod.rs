//! A shape analysis for memory safety and for unreach-call on heap programs: the forest
//! automata of Habermehl, Holík, Rogalewicz, Šimáček and Vojnar ("Forest automata for
//! verification of heap manipulation"), over the control flow of `main`.
//!
//! The heap is a graph of struct nodes; it is split at its *cut-points* (nodes a variable
//! points to, or that several pointers reach) into trees, each tree's leaves being null,
//! undefined pointers or references to the roots of other trees. A forest automaton has one
//! tree automaton per tree (`ta.rs`, `fa.rs`) and stands for every heap obtained by gluing
//! one tree of each. The engine executes pointer statements on forest automata (`exec.rs`),
//! joins them and abstracts them at loop heads (states merged by their languages of tree
//! prefixes of height 1, respecting the references they hold) until a fixpoint covers every
//! edge (`fixpoint.rs`).
//!
//! Integer data: first abstracted away entirely. When that run finds a possible fault, the
//! engine runs again with node symbols that carry the values of the integer fields `main`
//! compares with constants (`p->f == c`, `p->next->f > c`, at most [`ta::DATA`] per
//! struct), and forests that carry the values of `main`'s integer locals it compares with
//! constants or tests (`status == 2`, `if (flag)`, at most 4): a store of a constant or of
//! a tracked value sets the value, any other store forgets it, and a comparison with a
//! constant keeps the executions where it may hold (a red node is then known to have a
//! successor; a counter tells how long the list is). Forests with different local values
//! are never joined. Only `int`-like types are tracked (`int`, `long`, enums): a constant
//! stored in an `unsigned` or a `char` may wrap. More symbols mean more states, so this is
//! the second try only.
//!
//! Properties ([`PropertyKind`]): under valid-memsafety and valid-memcleanup the faults are
//! invalid dereferences and frees, leaks and blocks left at the end (below). Under
//! unreach-call they are an error call or a failing assertion, and still invalid
//! dereferences and frees (no execution is followed past one); unreachable nodes are then
//! dropped (a reachable root's back-link to a dropped node becomes undefined), and blocks
//! left at the end do not matter.
//!
//! Struct variables and struct fields are nodes too (`lower_parts.rs`): `struct T s;` is a
//! node that `&s` points to for its scope, a `struct T head;` field a node its container
//! holds through a field the program cannot write; neither may be freed, both end with
//! their scope or container.
//!
//! Doubly linked lists fold into single trees: a `prev` field that points to the one node
//! whose `next` points to its node becomes a back-link leaf (`boxes.rs`), so only the nodes
//! variables point to stay cut-points.
//!
//! Where it reads the program: the syntax tree of `main`, with the calls of the program's
//! other functions inlined (`lower.rs`, `lower_expr.rs`, `lower_call.rs`), read
//! into a small pointer program (`pir.rs`) in three-address form. The resolved IR has
//! already made pointers integer addresses into per-site arrays; recovering `x = y->f` from
//! those case splits is more fragile than reading the source's own statements, and the
//! reading gives up (with the reason) on anything outside: recursion, arrays, `&` of an
//! integer, pointer arithmetic but `container_of` (`lower_container.rs`: a part points back
//! to its container), casts between struct pointer types, pointers to non-structs other
//! than a local `struct T **pp` (`lower_field_ptr.rs`: a node and a tag naming the pointer
//! field or variable it points to) and fields such as `void *data` that only ever hold
//! null, labels in nested blocks (`lower_goto.rs`), `switch`, unions, struct values
//! (copies; a struct variable's initialiser list is read field by field), static locals.
//!
//! Soundness (why `safe` holds for valid-memsafety, valid-memcleanup and unreach-call):
//! - Every construct of `main` that the pointer program drops is an integer computation or
//!   an integer condition: integer conditions become nondeterministic branches, which only
//!   add executions (a tracked field's comparison with a constant keeps exactly the trees
//!   whose known value satisfies it, and all whose value is unknown; a store of anything but
//!   a constant, `++` and compound assignments make the value unknown); integer variables and fields hold no pointers (pointer–integer casts
//!   are refused), so the heap's shape does not depend on them. A program whose safety
//!   depends on data is thus at worst not proved.
//! - Each pointer statement's post over-approximates C's: a load, store, integer-field
//!   access or `free` needs its pointer to be the root of a component (an allocated node;
//!   null, uninitialised and dangling pointers are [`fa::Val::Undef`] or null, a fault);
//!   `free` splits off the node's children, so nodes below it that nothing else reaches are
//!   garbage; a node reachable from no variable (after temporaries and variables whose scope
//!   ends are dropped) is a fault (valid-memtrack); `return` from `main` (or its end) with
//!   any node left is a fault (its variables die: both valid-memtrack and
//!   valid-memcleanup). An abnormal end (`exit`, `abort`, a failing assertion or error call)
//!   with nodes left is a fault under valid-memcleanup only: under valid-memsafety every
//!   node then left is still pointed to (the fault above would have caught one that is
//!   not), which is what valid-memtrack asks ("pointed to or deallocated"). Comparisons with
//!   undefined pointers take both branches; `malloc` never fails, as in the rest of the
//!   front end. Nodes of struct variables and struct fields are no blocks: `free` of one is
//!   a fault, and they count neither as leaks nor as blocks left at the end (a part is left
//!   with its block, which counts).
//! - The fixpoint is re-checked by [`fixpoint::check`] with tree-automata inclusion (exact
//!   at loop heads, by simulation elsewhere; both sound): the initial heap is covered, and
//!   each edge's post of each location's forests is fault-free and covered by the target's
//!   forests. An inclusion that cannot be shown within a work bound counts as failed, which
//!   only makes the check fail.
//! - A fault found under the abstraction is never an answer: the engine answers only `safe`
//!   or gives up; `unsafe` stays with the concrete runs and the clause engines.
//!
//! - Back-links ([`ta::Leaf::Back`], the boxes of doubly linked segments) have a meaning that
//!   depends on the whole heap (the one explicit pointer to a node along a field);
//!   `boxes.rs` argues why folding them, gluing and splitting keep it, and the statements
//!   make them explicit before they change that pointer.
//!
//! - Closed boxes ([`ta::Leaf::Boxed`], `closed.rs`): a structure that only points into
//!   itself and that one pointer reaches (a circular list below each node of a list) is
//!   packed into a leaf of its holder and unpacked where a statement reads that field.
//!
//! Not handled (the engine gives up): a back-link whose node the automata do not place in
//! one component, other structures with several cut-points per node (they grow the number
//! of components without bound and hit the work bound: skip lists, trees with parent
//! pointers walked up and down, which the paper gives boxes of their own), recursive calls,
//! integer relations other than with constants (`len < n`).
//!
//! Must not: answer `unsafe`; answer for a property that also asks for memtrack under
//! unreach-call (it drops unreachable nodes there); print.

pub mod boxes;
pub mod closed;
pub mod exec;
pub mod fa;
pub mod fixpoint;
pub mod lower;
mod lower_call;
mod lower_cond;
mod lower_container;
mod lower_data;
mod lower_expr;
mod lower_field_ptr;
mod lower_goto;
mod lower_parts;
mod lower_types;
pub mod pir;
pub mod ta;

use super::ast::Item;
use super::property::PropertyKind;
use std::time::Instant;

/// The work bound of the fixpoint (symbolic steps).
const STEPS: usize = 200_000;

/// The engine's outcome.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// No execution makes a memory fault or leaks: the checked fixpoint's forests at the loop
    /// heads.
    Safe(Proof),
    /// No answer, and why.
    Unknown(String),
}

/// A checked fixpoint, as text for the loop heads.
#[derive(Clone, Debug)]
pub struct Proof {
    /// Per loop head, the byte offset of its loop statement and its forests rendered.
    pub heads: Vec<(usize, Vec<String>)>,
}

/// Runs the shape engine on a parsed program until `deadline`, for `property`.
///
/// First with every integer field abstracted away; when that finds a possible fault, again
/// with the symbols tracking the constants of the fields `main` compares with constants
/// (more precise, but more states).
pub fn analyze(
    items: &[Item],
    property: PropertyKind,
    deadline: Instant,
    line_of: &dyn Fn(usize) -> usize,
) -> Outcome {
    match analyze_with(items, property, false, deadline, line_of) {
        (Outcome::Unknown(first), true) => {
            match analyze_with(items, property, true, deadline, line_of).0 {
                Outcome::Unknown(second) => {
                    let second = second.trim_start_matches("the shape engine ");
                    Outcome::Unknown(format!("{first}; tracking integer fields, it {second}"))
                }
                safe => safe,
            }
        }
        (o, _) => o,
    }
}

/// One run of the engine, with the integer fields tracked or not; whether a fault stopped it
/// while there are fields to track.
fn analyze_with(
    items: &[Item],
    property: PropertyKind,
    track_data: bool,
    deadline: Instant,
    line_of: &dyn Fn(usize) -> usize,
) -> (Outcome, bool) {
    let prog = match lower::lower(items, track_data) {
        Ok(p) => pir::PointerProgram { property, ..p },
        Err(why) => {
            let why = format!("the shape engine does not read {why}");
            return (Outcome::Unknown(why), false);
        }
    };
    let trackable = prog.trackable;
    let (outcome, fault) = fixpoint_outcome(&prog, deadline, line_of);
    (outcome, fault && trackable)
}

/// The outcome of the fixpoint of `prog`, and whether a possible fault stopped it.
fn fixpoint_outcome(
    prog: &pir::PointerProgram,
    deadline: Instant,
    line_of: &dyn Fn(usize) -> usize,
) -> (Outcome, bool) {
    let unknown = |why: String| (Outcome::Unknown(why), false);
    let (inv, lib) = match fixpoint::run(prog, STEPS, deadline) {
        Ok(found) => found,
        Err(fixpoint::Stop::Fault(f)) => {
            let why = format!(
                "the shape engine found {} (under its abstraction)",
                f.describe(line_of)
            );
            return (Outcome::Unknown(why), true);
        }
        Err(fixpoint::Stop::Budget(b)) => return unknown(format!("the shape engine reached {b}")),
    };
    if let Err(why) = fixpoint::check(prog, &inv, &lib) {
        return unknown(format!(
            "the shape engine's fixpoint failed its check: {why}"
        ));
    }
    let heads = prog
        .heads
        .iter()
        .map(|h| {
            let forests = inv[h.loc].iter().map(|f| f.render(prog, &lib)).collect();
            (h.offset, forests)
        })
        .collect();
    (Outcome::Safe(Proof { heads }), false)
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
