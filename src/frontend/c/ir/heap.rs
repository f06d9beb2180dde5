//! The heap's part of the resolved program: the memory properties checked, the kinds of
//! violation, and the allocation sites with their blocks (part of [`super`]; the resolver's
//! `heap.rs`/`heap_lower.rs` make them, the interpreter's heap reads them).
//!
//! Must not: depend on terms or clauses; it is plain data.

use super::super::ast::Span;
use super::VarRef;

/// What a run checks besides the error calls: the memory-safety properties that are errors,
/// and what an invalid dereference or free does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemChecks {
    /// What an invalid dereference or free does.
    pub invalid: InvalidOps,
    /// Blocks still allocated at the end are checked: memtrack (unreachable ones) or, with
    /// `cleanup`, memcleanup (any).
    pub leaks: bool,
    /// The leak check is valid-memcleanup's (every block freed) rather than valid-memtrack's.
    pub cleanup: bool,
    /// The error calls (`reach_error`, failing assertions) are errors (unreach-call).
    pub error_calls: bool,
}

/// The kinds of memory violation, the first argument of the violation function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemViolation {
    /// An invalid dereference (null, freed, out of bounds, a dangling or uninitialised
    /// pointer).
    Deref = 1,
    /// An invalid `free` (not the start of a live heap block).
    Free = 2,
    /// Blocks still allocated when `main` returns.
    LeakAtEnd = 3,
    /// Blocks still allocated at `abort()`/`exit()` (a property-dependent question the
    /// interpreter leaves open).
    LeakAtAbort = 4,
    /// An allocation the model cannot represent (a block of a variable size larger than its
    /// site's stride, or of a negative size): no violation, no answer.
    Limit = 5,
}

/// What an invalid dereference or free (null, freed, dangling, outside its object) does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InvalidOps {
    /// It ends the execution quietly: undefined behaviour the property does not ask about.
    #[default]
    End,
    /// It leaves the property undecided: the clauses reach their error there (so no proof
    /// ignores it), and a run that reaches it ends without a verdict. Under unreach-call:
    /// SV-COMP labels a program that can dereference NULL as violating that property (the
    /// forester-heap tasks), so a proof that the error call is unreachable in the executions
    /// without such a dereference is no answer.
    Undecided,
    /// It violates the property (valid-deref, valid-free), and so does an array index outside
    /// its dimension.
    Violation,
}

impl MemChecks {
    /// SV-COMP's `unreach-call`: the error calls; invalid dereferences and frees leave it
    /// undecided.
    pub fn unreach_call() -> Self {
        MemChecks {
            error_calls: true,
            invalid: InvalidOps::Undecided,
            ..MemChecks::default()
        }
    }
}

impl MemViolation {
    /// The kind with this code.
    pub fn from_code(c: i64) -> Option<Self> {
        Some(match c {
            1 => MemViolation::Deref,
            2 => MemViolation::Free,
            3 => MemViolation::LeakAtEnd,
            4 => MemViolation::LeakAtAbort,
            5 => MemViolation::Limit,
            _ => return None,
        })
    }
}

/// The heap of a program: one allocation site per `malloc`/`calloc`/`alloca` call in the
/// source, each an unbounded array of blocks of one type (see `resolve/heap.rs`).
#[derive(Clone, Debug, Default)]
pub struct Heap {
    /// The allocation sites.
    pub sites: Vec<HeapSite>,
    /// The global counting live blocks (when there is a site).
    pub live: Option<usize>,
    /// The function `__memory_violation(kind, at, pointer)`, when some operation can fail.
    pub violation_fn: Option<usize>,
    /// What is checked.
    pub checks: MemChecks,
    /// The heap operations as the source states them, before they were lowered into array
    /// operations: what an engine over the CFA (a shape domain) reads to recognise them.
    pub ops: Vec<HeapOp>,
}

/// A heap operation of the source: where, in which function, on which pointer.
///
/// The lowering saves the pointer in `pointer` (a local of `func`) just before the
/// operation, and the CFA edge whose span contains `span` performs it (the lowered form is a
/// case split over the points-to targets; see `resolve/lower.rs`).
#[derive(Clone, Debug)]
pub struct HeapOp {
    /// The function (index among the definitions).
    pub func: usize,
    /// The operation's place in the source.
    pub span: Span,
    /// What it does.
    pub kind: HeapOpKind,
}

/// The kinds of [`HeapOp`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapOpKind {
    /// A new block of the allocation site with this index.
    Alloc(usize),
    /// `free(pointer)`.
    Free(VarRef),
    /// Reads the cell `off` cells after the one `pointer` points to (`p->f`, `*p`).
    Load(VarRef, usize),
    /// Writes it.
    Store(VarRef, usize),
    /// Its address (`&p->f`).
    FieldAddr(VarRef, usize),
}

/// An allocation site: per cell of its element type, a global integer array of
/// [`HeapSite::capacity`] elements with its first address; a state array and the index of the
/// next block. States: 0 never allocated, 1 live block start, 2 freed block start, 3 live inside
/// a block, 4 freed inside a block; a stack site's (`alloca`) are the same plus
/// [`STACK_STATE`] (5 live start, 6 dead start, 7 live inside, 8 dead inside). A block of a
/// variable size has a state only at its start (see [`BlockSize::Variable`]).
#[derive(Clone, Debug)]
pub struct HeapSite {
    /// The `malloc`/`calloc`/`alloca` call.
    pub span: Span,
    /// The cells' global arrays, in field order.
    pub cells: Vec<usize>,
    /// The first address of each cell's range (set when addresses are laid out).
    pub bases: Vec<u64>,
    /// The state array.
    pub state: usize,
    /// The next free element.
    pub next: usize,
    /// Elements per block.
    pub block: BlockSize,
    /// Elements per cell array (blocks are separated by at least one never-allocated
    /// element).
    pub capacity: u64,
    /// Whether the block is zeroed (`calloc`), else its elements are any values: then the
    /// nondet sites from this one on give them, element by element, cell by cell (a block of
    /// a variable size: one nondet site per cell, each cell array's initial contents).
    pub zeroed: bool,
    /// The first of the site's nondet sites (when not zeroed).
    pub nondet: usize,
    /// For `alloca`: the function whose return ends the block's life, and its local holding
    /// the start of the block this call allocated (-1 before): such blocks are not freed, not
    /// counted as live heap blocks, and invalid after the return.
    pub stack: Option<(usize, VarRef)>,
    /// The call runs at most once in an execution (a `malloc`/`calloc` of a variable size in
    /// `main`, outside loops, `main` without labels and never called): its one block starts
    /// at element 0 and may hold as many elements as the addresses left allow (its stride is
    /// its capacity; see [`HeapSite::one_block`]).
    pub once: bool,
}

/// What a stack site adds to a heap site's states.
pub const STACK_STATE: i64 = 4;

/// The number of elements of a site's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockSize {
    /// A constant: every element has its own state.
    Fixed(u64),
    /// The allocation's argument: block `k` starts at element `k * stride`, its state and its
    /// size (the global array `sizes`) are at that element; an element is in the block when
    /// its offset from the start is below the size. An allocation of more than `stride - 1`
    /// elements (or of a negative number) calls the violation function with
    /// [`MemViolation::Limit`]: the model cannot say. A site that allocates once has one
    /// block, its stride its capacity ([`HeapSite::one_block`]).
    Variable {
        /// The global array of block sizes.
        sizes: usize,
        /// Elements between block starts.
        stride: u64,
    },
}

impl HeapSite {
    /// Whether the site has a single block of a variable size, starting at element 0 (a site
    /// that allocates [`once`](HeapSite::once)): an element's offset in its block is its
    /// index.
    pub fn one_block(&self) -> bool {
        matches!(self.block, BlockSize::Variable { stride, .. } if stride >= self.capacity)
    }

    /// The site's hidden globals: its cells, state, next-block counter and block sizes.
    pub fn globals(&self) -> impl Iterator<Item = usize> + '_ {
        let sizes = match self.block {
            BlockSize::Variable { sizes, .. } => Some(sizes),
            BlockSize::Fixed(_) => None,
        };
        let own = [self.state, self.next].into_iter().chain(sizes);
        self.cells.iter().copied().chain(own)
    }

    /// What this site adds to the heap states (0, or [`STACK_STATE`] for `alloca`).
    pub fn state_offset(&self) -> i64 {
        if self.stack.is_some() {
            STACK_STATE
        } else {
            0
        }
    }
}
