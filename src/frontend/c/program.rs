//! The whole resolved program: globals, functions with their bodies in the IR ([`super::ir`])
//! and as control-flow automata ([`super::cfa`]), nondet sites, the heap and address ranges.
//! The resolver builds it; every back end reads it.
//!
//! Must not: depend on terms or clauses; it is plain data.

use super::ast::Span;
use super::cfa::Cfa;
use super::ir::{
    AddressRange, Heap, IExprKind, IStmt, Label, LoopScope, NondetSite, VarInfo, VarRef,
};
use super::types::CType;
use num_bigint::BigInt;

/// A function definition.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Return type (`None` for `void`).
    pub ret: Option<CType>,
    /// Number of parameters: locals `0..params`.
    pub params: usize,
    /// Parameters then every other local, each block-scoped declaration its own variable.
    pub locals: Vec<VarInfo>,
    /// The body as the resolver reads it.
    pub body: Vec<IStmt>,
    /// The body as a control-flow automaton, lowered from [`Self::body`]: what the encoding
    /// and the interpreter run.
    pub cfa: Cfa,
    /// The names in scope at each loop statement and label, in source order.
    pub loop_scopes: Vec<LoopScope>,
    /// Its labels, indexed by [`IStmtKind::Goto`](super::ir::IStmtKind::Goto) and [`IStmtKind::Label`](super::ir::IStmtKind::Label).
    pub labels: Vec<Label>,
    /// Where.
    pub span: Span,
}

/// A whole resolved program.
#[derive(Clone, Debug)]
pub struct Program {
    /// Global variables.
    pub globals: Vec<VarInfo>,
    /// Their initial values (zero when not initialised), constants of their types; for an
    /// array, the value of the elements [`Program::global_elems`] does not list.
    pub global_init: Vec<BigInt>,
    /// Per global array, its initialised elements (row-major index, value); empty for
    /// scalars.
    pub global_elems: Vec<Vec<(BigInt, BigInt)>>,
    /// Defined functions.
    pub functions: Vec<Function>,
    /// The index of `main`.
    pub main: usize,
    /// Every nondet call site, indexed by [`IExprKind::Nondet`].
    pub nondet_sites: Vec<NondetSite>,
    /// The error call in the program's own definition of `__VERIFIER_assert` (or `assert`),
    /// which the built-in replaces: where a failing assertion reaches the error.
    pub assert_error: Option<Span>,
    /// The heap: its allocation sites and what is checked (see [`Heap`]).
    pub heap: Heap,
    /// The address range of every address-taken cell outside the heap, by first address.
    pub ranges: Vec<AddressRange>,
    /// `__invalid_dereference(address)`, which ends an execution at an invalid dereference
    /// (undefined behaviour), when the lowering needed it. A dereference is lowered as a case
    /// split over the pointer's points-to set, so an address that lies in an object (a range
    /// of [`Program::ranges`], or a live heap element) reaching this call shows that set
    /// incomplete: the interpreter stops such a run with [`crate::frontend::c::interp::Outcome::Gap`].
    pub invalid_fn: Option<usize>,
    /// The points-to sets the lowering split dereferences over (Andersen: inclusion-based,
    /// flow- and context-insensitive): `(f, v, g)` when variable `v` (of function `f`, or a
    /// global for `None`) may hold an address within global `g` (address-taken variables are
    /// made globals, and each allocation site's blocks are one).
    pub points_to: Vec<(Option<usize>, VarRef, usize)>,
    /// Every access through a pointer (`*p`, `p->f`, `p[i]` of a pointer) that the lowering
    /// replaced by a case split over the pointer's points-to set: the function, where, and the
    /// temporary that holds the pointer (its points-to set is the pointer's).
    pub derefs: Vec<(usize, Span, VarRef)>,
}

impl Program {
    /// The call graph read off the CFAs: per function, the functions its edges call.
    pub fn callees(&self) -> Vec<Vec<usize>> {
        self.functions
            .iter()
            .map(|f| {
                let mut out = vec![];
                for e in &f.cfa.edges {
                    let mut stack = e.op.exprs();
                    while let Some(x) = stack.pop() {
                        if let IExprKind::Call(g, _) = x.kind {
                            out.push(g);
                        }
                        stack.extend(x.operands());
                    }
                }
                out
            })
            .collect()
    }

    /// The declaration of a variable of function `f`.
    pub fn var(&self, f: usize, v: VarRef) -> &VarInfo {
        match v {
            VarRef::Global(i) => &self.globals[i],
            VarRef::Local(i) => &self.functions[f].locals[i],
        }
    }
}
