//! The explicit interleaving product: one scheduler location per reachable combination of the
//! threads' interleaving points (the threads' program counters become locations instead of
//! variables), so that each combination gets a predicate of its own where it lies on a cycle.
//! Engines find invariants per combination far more easily than over counter variables; the
//! number of combinations grows exponentially with the threads, so past a bound the product
//! falls back to counters ([`super::product`]).
//!
//! A turn at combination `t` of thread `k` copies `k`'s CFA from its point `t[k]` up to the
//! next points (each edge into a point goes to the combination with `k` there), its end (`k`
//! ended) or the error. Thread operations read the combination: `pthread_join(h)` is `h == j`
//! for the threads `j` ended in `t`; `pthread_create` (only as a turn's first operation, else
//! the product falls back to counters) starts its thread at its entry in the next
//! combinations. Turns are drawn at the scheduler's nondet site as in the counter product, so
//! traces and schedules read the same.
//!
//! Must not: put an interleaving point anywhere but at the concurrent program's points, or
//! merge two combinations.

use super::product::{renamed, Builder, DONE, NOT_STARTED};
use crate::frontend::c::ast::Span;
use crate::frontend::c::cfa::{EdgeId, LocId, LocKind, Op};
use crate::frontend::c::ir::{ThreadOp, VarRef};
use crate::frontend::c::types::CType;
use std::collections::{HashMap, VecDeque};

/// At most this many locations in the explicit product (each combination copies the turns of
/// its threads); beyond, program counters.
const MAX_LOCATIONS: usize = 200_000;

impl Builder<'_> {
    /// Builds the explicit product; returns the first combination's location, or `None` when
    /// it has more than `max` combinations or a turn creates a thread after its first
    /// operation (the builder is then to be dropped).
    pub(super) fn explicit(&mut self, max: usize, span: Span) -> Option<LocId> {
        let c = self.c;
        let n = c.threads.len();
        let main_entry = c.program.functions[c.program.main].cfa.entry;
        let mut start = vec![NOT_STARTED; n];
        start[0] = self.ids[0][&main_entry];
        // Point number → location, per thread.
        let locs: Vec<HashMap<i64, LocId>> = self
            .ids
            .iter()
            .map(|ids| ids.iter().map(|(l, n)| (*n, *l)).collect())
            .collect();
        let mut hubs: HashMap<Vec<i64>, LocId> = HashMap::new();
        let mut queue = VecDeque::new();
        let first = self.loc(LocKind::LoopHead, span);
        hubs.insert(start.clone(), first);
        queue.push_back(start);
        while let Some(t) = queue.pop_front() {
            let hub = hubs[&t];
            let ready: Vec<usize> = (0..n).filter(|&k| t[k] > 0).collect();
            if ready.is_empty() {
                continue; // every thread ended or not started: the execution stops
            }
            let chosen = self.loc(LocKind::Plain, span);
            self.edge(hub, chosen, Op::Expr(self.draw.clone()), span);
            let mut at = chosen;
            for (i, &k) in ready.iter().enumerate() {
                let turn = self.loc(LocKind::Plain, span);
                let cond = self.turn(k, span);
                if i + 1 < ready.len() {
                    let next = self.loc(LocKind::Plain, span);
                    self.branch(at, cond, turn, next);
                    at = next;
                } else {
                    self.edge(at, turn, Op::Assume(cond, true), span);
                }
                if self.size() > MAX_LOCATIONS {
                    return None;
                }
                let q = locs[k][&t[k]];
                for next in self.turn_copy(k, &t, q, turn)? {
                    let (to, target) = next;
                    let hub = match hubs.get(&target) {
                        Some(&h) => h,
                        None => {
                            if hubs.len() >= max {
                                return None;
                            }
                            let h = self.loc(LocKind::LoopHead, span);
                            hubs.insert(target.clone(), h);
                            queue.push_back(target);
                            h
                        }
                    };
                    self.edge(to, hub, Op::Skip, span);
                }
            }
        }
        Some(first)
    }

    /// Copies thread `k`'s turn from its point `q` at combination `t`, entered at `into`;
    /// returns the locations that end it with the combination each goes to.
    fn turn_copy(
        &mut self,
        k: usize,
        t: &[i64],
        q: LocId,
        into: LocId,
    ) -> Option<Vec<(LocId, Vec<i64>)>> {
        let c = self.c;
        let f = c.threads[k].func;
        let cfa = &c.program.functions[f].cfa;
        let off = self.offsets[k];
        let rename = move |v: VarRef| match v {
            VarRef::Local(i) => VarRef::Local(i + off),
            g => g,
        };
        // A creation as the turn's first operation starts its thread in what follows.
        let mut base = t.to_vec();
        let first_edges: Vec<EdgeId> = cfa.out(q).to_vec();
        for &e in &first_edges {
            if let Op::Thread(ThreadOp::Create { func, .. }) = cfa.edge(e).op {
                let j = c.created_by(e)?;
                let entry = c.program.functions[func].cfa.entry;
                base[j] = self.ids[j][&entry];
            }
        }
        let mut ends = vec![];
        let mut copies: HashMap<LocId, LocId> = HashMap::from([(q, into)]);
        let mut work = vec![q];
        while let Some(l) = work.pop() {
            let from = copies[&l];
            for &e in cfa.out(l) {
                let edge = cfa.edge(e);
                let span = edge.span;
                let ended = |k: usize| {
                    let mut u = base.clone();
                    u[k] = DONE;
                    u
                };
                // Where the edge leads in the copy.
                let to = if edge.to == cfa.error {
                    self.error
                } else if c.is_point(f, edge.to) {
                    let y = self.loc(LocKind::Plain, span);
                    let mut u = base.clone();
                    u[k] = self.ids[k][&edge.to];
                    ends.push((y, u));
                    y
                } else if let Some(&to) = copies.get(&edge.to) {
                    to
                } else {
                    let kind = match cfa.loc(edge.to).kind {
                        LocKind::Abort => LocKind::Abort,
                        LocKind::Exit if k == 0 => LocKind::Abort,
                        LocKind::LoopHead => LocKind::LoopHead,
                        _ => LocKind::Plain,
                    };
                    let to = self.loc(kind, cfa.loc(edge.to).span);
                    if edge.to == cfa.exit && k > 0 {
                        ends.push((to, ended(k)));
                    } else {
                        work.push(edge.to);
                    }
                    copies.insert(edge.to, to);
                    to
                };
                let op = match &edge.op {
                    Op::Skip => Op::Skip,
                    Op::Expr(x) => Op::Expr(renamed(x, &rename)),
                    Op::Init(v, x) => Op::Init(rename(*v), x.as_ref().map(|x| renamed(x, &rename))),
                    Op::Assume(x, h) => Op::Assume(renamed(x, &rename), *h),
                    Op::Return(Some(x)) => Op::Expr(renamed(x, &rename)),
                    Op::Return(None) => Op::Skip,
                    Op::Thread(op) => match op {
                        ThreadOp::Create { handle, .. } => {
                            if !first_edges.contains(&e) {
                                return None;
                            }
                            let j = c.created_by(e)?;
                            self.set(rename(*handle), j as i64, span)
                        }
                        ThreadOp::Join(h) => {
                            let h = rename(*h);
                            let mut cond = self.konst(0, CType::INT, span);
                            for (j, &pc) in t.iter().enumerate().skip(1) {
                                if pc == DONE {
                                    cond = self.or(cond, self.eq(h, j as i64, span), span);
                                }
                            }
                            Op::Assume(cond, true)
                        }
                        ThreadOp::Exit => {
                            let y = self.loc(LocKind::Plain, span);
                            self.edge(from, y, Op::Skip, span);
                            ends.push((y, ended(k)));
                            continue;
                        }
                        ThreadOp::Lock(m) => {
                            let mid = self.loc(LocKind::Plain, span);
                            self.edge(from, mid, Op::Assume(self.eq(*m, 0, span), true), span);
                            self.edge(mid, to, self.set(*m, 1, span), span);
                            continue;
                        }
                        ThreadOp::AtomicBegin => self.set(self.atomic, k as i64 + 1, span),
                        ThreadOp::AtomicEnd => self.set(self.atomic, 0, span),
                    },
                };
                self.edge(from, to, op, span);
            }
        }
        Some(ends)
    }
}
