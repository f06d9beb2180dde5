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
use std::collections::BTreeSet;

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
            let none = BTreeSet::new;
            let assigned = match &e.op {
                Op::Skip => none(),
                Op::Expr(x) | Op::Assume(x, _) => acc.expr(x, none()),
                Op::Init(v, x) => {
                    let mut assigned = x.as_ref().map_or_else(none, |x| acc.expr(x, none()));
                    acc.writes.push(*v);
                    assigned.insert(*v);
                    assigned
                }
                Op::Return(x) => {
                    let assigned = x.as_ref().map_or_else(none, |x| acc.expr(x, none()));
                    if !is_main {
                        acc.reads.extend((0..ng as usize).map(VarRef::Global));
                    }
                    assigned
                }
                Op::Thread(t) => {
                    match t {
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
                    }
                    none()
                }
            };
            // A variable surely assigned as a whole (by an assignment or an array's
            // declaration) has lost its old value.
            facts
                .kills
                .extend(assigned.iter().map(|&v| (i, var_number(program, v))));
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

    /// Records what evaluating `e` reads and writes. A read counts only where the variable is
    /// not surely written earlier in the same evaluation (an upward-exposed read): the
    /// temporaries the resolver saves an address or a value in are read right after their
    /// assignment, so they are not live before the statement. Returns the variables surely
    /// assigned as a whole once `e` is evaluated.
    ///
    /// Only the order C (and the encodings) fix is trusted: the left operand of a comma, `&&`
    /// and `||`, the condition of `?:`, and an assignment's value before what follows. Writes
    /// in the operands of any other operator count for no sibling, and writes in a branch that
    /// may not run count for nothing after it. Iterative: expressions nest deeply.
    fn expr(&mut self, e: &IExpr, mut assigned: BTreeSet<VarRef>) -> BTreeSet<VarRef> {
        /// What is left to do, last first.
        enum Step<'e> {
            Visit(&'e IExpr),
            Read(VarRef),
            Write(VarRef),
            /// Remembers the assigned set.
            Save,
            /// Goes back to the set last remembered, and keeps it remembered.
            Restore,
            /// Goes back to the set last remembered, and forgets it.
            Drop,
        }
        let mut saved: Vec<BTreeSet<VarRef>> = vec![];
        let mut steps = vec![Step::Visit(e)];
        // Operands evaluated in no fixed order: each sees only what was assigned before.
        fn apart<'e>(steps: &mut Vec<Step<'e>>, xs: Vec<&'e IExpr>) {
            for x in xs.into_iter().rev() {
                steps.extend([Step::Drop, Step::Visit(x), Step::Save]);
            }
        }
        while let Some(step) = steps.pop() {
            let e = match step {
                Step::Visit(e) => e,
                Step::Read(v) => {
                    self.reads_var(v, &assigned);
                    continue;
                }
                Step::Write(v) => {
                    assigned.insert(v);
                    self.writes.push(v);
                    continue;
                }
                Step::Save => {
                    saved.push(assigned.clone());
                    continue;
                }
                Step::Restore => {
                    assigned = saved.last().cloned().unwrap_or_default();
                    continue;
                }
                Step::Drop => {
                    assigned = saved.pop().unwrap_or_default();
                    continue;
                }
            };
            match &e.kind {
                IExprKind::Const(_) | IExprKind::Nondet(_) | IExprKind::Current => {}
                IExprKind::Var(v) => self.reads_var(*v, &assigned),
                IExprKind::PostIncDec(v, _) => {
                    steps.push(Step::Write(*v));
                    self.reads_var(*v, &assigned);
                }
                IExprKind::Assign(v, x) => steps.extend([Step::Write(*v), Step::Visit(x)]),
                IExprKind::Comma(a, b) => steps.extend([Step::Visit(b), Step::Visit(a)]),
                IExprKind::Logic(_, a, b) => {
                    steps.extend([Step::Drop, Step::Visit(b), Step::Save, Step::Visit(a)]);
                }
                IExprKind::Cond(c, a, b) => steps.extend([
                    Step::Drop,
                    Step::Visit(b),
                    Step::Restore,
                    Step::Visit(a),
                    Step::Save,
                    Step::Visit(c),
                ]),
                IExprKind::Not(a)
                | IExprKind::Neg(a)
                | IExprKind::BitNot(a)
                | IExprKind::Convert(a) => steps.push(Step::Visit(a)),
                IExprKind::Arith(_, a, b) | IExprKind::Cmp(_, a, b) => {
                    apart(&mut steps, vec![a, b])
                }
                IExprKind::Call(_, args) => {
                    self.calls = true;
                    apart(&mut steps, args.iter().collect());
                }
                IExprKind::Elem(a, index) => {
                    steps.push(Step::Read(*a));
                    self.array(*a);
                    apart(&mut steps, index.iter().collect());
                }
                // The other elements keep their values: a read and a write, no kill.
                IExprKind::SetElem {
                    var, index, value, ..
                } => {
                    steps.push(Step::Read(*var));
                    self.writes.push(*var);
                    self.array(*var);
                    apart(&mut steps, index.iter().chain([&**value]).collect());
                }
                // A declaration sets every element.
                IExprKind::ArrayDecl { var, elems, .. } => {
                    steps.push(Step::Write(*var));
                    self.array(*var);
                    apart(&mut steps, elems.iter().map(|(_, x)| x).collect());
                }
            }
        }
        assigned
    }

    /// A read of `v` unless it is surely assigned already.
    fn reads_var(&mut self, v: VarRef, assigned: &BTreeSet<VarRef>) {
        if !assigned.contains(&v) {
            self.reads.push(v);
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
