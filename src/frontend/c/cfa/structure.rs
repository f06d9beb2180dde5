//! The structure of a function's CFA, computed by the Datalog rule sets `cfa_graph` and
//! `cfa_liveness` of the top-level `rules/` folder over the facts of `cfa_input`, and by the
//! loop decomposition shared with clause systems ([`crate::analysis::decompose`]): reachable
//! locations, loops with their heads (the cut points of the encoding: an irreducible loop has
//! several), the variables each loop may modify, and the variables live at each location.
//!
//! Must not: use terms, clauses or a solver.

use super::{Cfa, Edge, LocId, Op};
use crate::analysis::decompose;
use crate::frontend::c::ir::{Dim, IExpr, IExprKind, ThreadOp, VarRef};
use crate::frontend::c::program::Program;

/// The `cfa_input` facts of one function (declared in `rules/cfa_input.rs`), filled by
/// [`CfaFacts::extract`].
pub use crate::analysis::rules::CfaFacts;

#[allow(missing_docs)]
mod program {
    ascent::ascent! {
        /// Reachability, loop-modified variables and liveness of one CFA.
        pub(super) struct CfaStructure;
        include_source!(crate::analysis::rules::cfa_input);
        include_source!(crate::analysis::rules::cfa_graph);
        include_source!(crate::analysis::rules::cfa_liveness);
    }
}

/// A loop of a CFA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfaLoop {
    /// Its heads: the members entered from outside the loop (several for an irreducible loop).
    pub heads: Vec<LocId>,
    /// Every member, sorted.
    pub members: Vec<LocId>,
    /// The enclosing loop.
    pub parent: Option<usize>,
    /// The variables an edge inside the loop may assign, sorted.
    pub modified: Vec<VarRef>,
}

/// The structure of one function's CFA.
#[derive(Clone, Debug)]
pub struct Structure {
    /// Per location: a path from the entry reaches it.
    pub reachable: Vec<bool>,
    /// The loops, outer loops before the loops they contain.
    pub loops: Vec<CfaLoop>,
    /// The cut points: every head of every loop, sorted.
    pub cut_points: Vec<LocId>,
    /// Per location: the variables live there, sorted.
    pub live: Vec<Vec<VarRef>>,
}

impl Structure {
    /// Whether `l` is a cut point.
    pub fn is_cut_point(&self, l: LocId) -> bool {
        self.cut_points.binary_search(&l).is_ok()
    }
}

/// The variable number of the facts: globals first, then the function's locals.
pub fn var_number(program: &Program, v: VarRef) -> u32 {
    match v {
        VarRef::Global(g) => g as u32,
        VarRef::Local(l) => (program.globals.len() + l) as u32,
    }
}

/// The variable of a fact's number (the inverse of [`var_number`]): below the number of
/// globals a global, else a local of the function the facts are of.
pub fn var_ref(program: &Program, n: u32) -> VarRef {
    let ng = program.globals.len();
    match n as usize {
        g if g < ng => VarRef::Global(g),
        l => VarRef::Local(l - ng),
    }
}

/// The local an edge declares without giving it a value, if it does: an uninitialised
/// declaration `int x;` (whose value is any of its type: a nondet site the resolver makes,
/// spanning the declaration), or the first of the two edges of `int x = x + 1;` (the value
/// its initialiser reads). An edge `int x = __VERIFIER_nondet_int();` assigns a value.
pub fn declares_unset(edge: &Edge) -> Option<VarRef> {
    match &edge.op {
        Op::Init(v, None) => Some(*v),
        Op::Init(v, Some(e)) if matches!(e.kind, IExprKind::Nondet(_)) && e.span == edge.span => {
            Some(*v)
        }
        _ => None,
    }
}

/// The source name of variable number `n` in the facts of function `f` (names need not be
/// unique: block-scoped locals may share one); `None` for a number the function does not have.
pub fn var_name(program: &Program, f: usize, n: u32) -> Option<&str> {
    let func = program.functions.get(f)?;
    let info = match var_ref(program, n) {
        VarRef::Global(g) => program.globals.get(g),
        VarRef::Local(l) => func.locals.get(l),
    };
    info.map(|v| v.name.as_str())
}

impl CfaFacts {
    /// Extracts the facts of function `f`'s CFA.
    pub fn extract(program: &Program, f: usize) -> CfaFacts {
        let cfa = &program.functions[f].cfa;
        let ng = program.globals.len() as u32;
        let is_main = f == program.main;
        let mut facts = CfaFacts {
            cfa_entry: vec![(cfa.entry.0,)],
            ..CfaFacts::default()
        };
        for (i, e) in cfa.edges.iter().enumerate() {
            let i = i as u32;
            facts.cfa_edge.push((i, e.from.0, e.to.0));
            let mut acc = Accesses {
                program,
                func: f,
                reads: vec![],
                writes: vec![],
                calls: false,
            };
            match &e.op {
                Op::Skip => {}
                Op::Expr(x) | Op::Assume(x, _) => acc.expr(x),
                Op::Init(v, x) => {
                    if let Some(x) = x {
                        acc.expr(x);
                    }
                    acc.writes.push(*v);
                    facts.kills.push((i, var_number(program, *v)));
                }
                Op::Return(x) => {
                    if let Some(x) = x {
                        acc.expr(x);
                    }
                    if !is_main {
                        acc.reads.extend((0..ng as usize).map(VarRef::Global));
                    }
                }
                Op::Thread(t) => match t {
                    ThreadOp::Create { handle, .. } => acc.writes.push(*handle),
                    ThreadOp::Join(h) => acc.reads.push(*h),
                    ThreadOp::Lock(m) => {
                        acc.reads.push(*m);
                        acc.writes.push(*m);
                    }
                    // Other threads may read or write every global meanwhile.
                    ThreadOp::Exit | ThreadOp::AtomicBegin | ThreadOp::AtomicEnd => {
                        acc.reads.extend((0..ng as usize).map(VarRef::Global));
                    }
                },
            }
            // A whole assignment or an array's declaration sets every value of the variable.
            if let Op::Expr(IExpr {
                kind: IExprKind::Assign(v, _) | IExprKind::ArrayDecl { var: v, .. },
                ..
            }) = &e.op
            {
                facts.kills.push((i, var_number(program, *v)));
            }
            if acc.calls {
                acc.reads.extend((0..ng as usize).map(VarRef::Global));
                acc.writes.extend((0..ng as usize).map(VarRef::Global));
            }
            let mut uses: Vec<u32> = acc.reads.iter().map(|&v| var_number(program, v)).collect();
            uses.sort_unstable();
            uses.dedup();
            facts.uses.extend(uses.into_iter().map(|v| (i, v)));
            let mut writes: Vec<u32> = acc.writes.iter().map(|&v| var_number(program, v)).collect();
            writes.sort_unstable();
            writes.dedup();
            facts.writes.extend(writes.into_iter().map(|v| (i, v)));
        }
        facts
    }
}

/// The variables an expression may read and write, and whether it calls a function.
struct Accesses<'a> {
    program: &'a Program,
    func: usize,
    reads: Vec<VarRef>,
    writes: Vec<VarRef>,
    calls: bool,
}

impl Accesses<'_> {
    /// An access to array `a` reads the sizes of its variable-length dimensions (bounds).
    fn array(&mut self, a: VarRef) {
        for d in &self.program.var(self.func, a).dims {
            if let Dim::Var(v) = d {
                self.reads.push(*v);
            }
        }
    }

    /// Iteratively: expressions nest deeply.
    fn expr(&mut self, e: &IExpr) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match e.kind {
                IExprKind::Elem(a, _) => {
                    self.reads.push(a);
                    self.array(a);
                }
                // The other elements keep their values: a read and a write, no kill.
                IExprKind::SetElem { var, .. } => {
                    self.reads.push(var);
                    self.writes.push(var);
                    self.array(var);
                }
                IExprKind::ArrayDecl { var, .. } => {
                    self.writes.push(var);
                    self.array(var);
                }
                IExprKind::Var(v) => self.reads.push(v),
                IExprKind::PostIncDec(v, _) => {
                    self.reads.push(v);
                    self.writes.push(v);
                }
                IExprKind::Assign(v, _) => self.writes.push(v),
                IExprKind::Call(..) => self.calls = true,
                _ => {}
            }
            stack.extend(e.operands());
        }
    }
}

/// The structure of function `f`'s CFA.
pub fn analyze(program: &Program, f: usize) -> Structure {
    analyze_facts(
        program,
        &program.functions[f].cfa,
        &CfaFacts::extract(program, f),
    )
}

fn analyze_facts(program: &Program, cfa: &Cfa, facts: &CfaFacts) -> Structure {
    let n = cfa.locs.len();
    let arcs: Vec<(u32, u32)> = facts.cfa_edge.iter().map(|&(_, a, b)| (a, b)).collect();
    let dec = decompose(n as u32, &arcs, &[cfa.entry.0]);
    let mut prog = program::CfaStructure::default();
    crate::analysis::rules::cfa_input_facts!(prog, facts);
    for l in &dec.loops {
        let h = l.heads[0];
        prog.loop_member.extend(l.members.iter().map(|&m| (h, m)));
    }
    prog.run();
    let mut reachable = vec![false; n];
    for &(l,) in &prog.reach {
        reachable[l as usize] = true;
    }
    let mut live: Vec<Vec<VarRef>> = vec![vec![]; n];
    for &(l, v) in &prog.live {
        live[l as usize].push(var_ref(program, v));
    }
    for vs in &mut live {
        vs.sort_unstable();
    }
    let mut cut_points = vec![];
    let loops = dec
        .loops
        .iter()
        .map(|l| {
            cut_points.extend(l.heads.iter().map(|&h| LocId(h)));
            let h = l.heads[0];
            let mut modified: Vec<VarRef> = prog
                .modifies
                .iter()
                .filter(|&&(g, _)| g == h)
                .map(|&(_, v)| var_ref(program, v))
                .collect();
            modified.sort_unstable();
            CfaLoop {
                heads: l.heads.iter().map(|&h| LocId(h)).collect(),
                members: l.members.iter().map(|&m| LocId(m)).collect(),
                parent: l.parent,
                modified,
            }
        })
        .collect();
    cut_points.sort_unstable();
    cut_points.dedup();
    Structure {
        reachable,
        loops,
        cut_points,
        live,
    }
}
