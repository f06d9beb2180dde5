//! The large-block walk over a function's CFA: from the entry and from each cut point, the
//! region up to the next cut points is executed symbolically, location by location in
//! topological order, states merged where paths join; states reaching a cut point become
//! clauses for its predicate, whose arguments are the slots of the variables live there.
//!
//! Must not: decide where cut points are (the CFA's structure does) or emit anything but
//! clauses through [`Encoder::emit`].

use super::state::State;
use super::Encoder;
use super::LoopHead;
use crate::chc::{Atom, PredId};
use crate::frontend::c::cfa::{Cfa, LocId, Op};
use crate::frontend::c::ir::VarRef;
use crate::term::Sort;
use std::collections::{BTreeMap, HashMap, HashSet};

impl Encoder<'_> {
    /// Executes the region of the CFA that starts at `source` (the entry or a cut point) and
    /// ends at cut points, `exit`, `error` and stops: the locations in topological order, the
    /// states arriving at each merged, each edge's operation applied to them. States reaching
    /// a cut point become clauses for its predicate.
    pub(super) fn region(&mut self, source: LocId, start: State, cuts: &HashMap<LocId, CutPoint>) {
        let cfa = &self.program.functions[self.func].cfa;
        let order = region_order(cfa, source, cuts);
        let mut pending: HashMap<LocId, Vec<State>> = HashMap::new();
        pending.insert(source, vec![start]);
        let mut at_cuts: BTreeMap<LocId, Vec<State>> = BTreeMap::new();
        for l in order {
            let Some(states) = pending.remove(&l) else {
                continue;
            };
            let states = self.merge_states(states);
            if l == cfa.error {
                self.errors.extend(states);
                continue;
            }
            if l == cfa.exit {
                self.returns.extend(states);
                continue;
            }
            let mut deliver = |to: LocId, states: Vec<State>| {
                if states.is_empty() {
                    return;
                }
                if to != source && !cuts.contains_key(&to) {
                    pending.entry(to).or_default().extend(states);
                } else {
                    at_cuts.entry(to).or_default().extend(states);
                }
            };
            match *cfa.out(l) {
                [] => {}
                [e] => {
                    let e = cfa.edge(e);
                    let next = self.apply(&e.op, states);
                    deliver(e.to, next);
                }
                [a, b] => {
                    let (a, b) = (cfa.edge(a), cfa.edge(b));
                    let Op::Assume(c, true) = &a.op else {
                        unreachable!("a CFA location with two edges is a branch")
                    };
                    let (yes, no) = self.test(c, states);
                    deliver(a.to, yes);
                    deliver(b.to, no);
                }
                _ => unreachable!("a CFA location has at most two edges"),
            }
        }
        for (to, states) in at_cuts {
            let cut = &cuts[&to];
            let pred = cut.pred;
            let slots = cut.slots.clone();
            for st in self.merge_states(states) {
                let args = slots.iter().map(|&k| st.env[k]).collect();
                self.emit(st, Some((pred, args)));
            }
        }
    }

    /// The states after an edge's operation.
    fn apply(&mut self, op: &Op, states: Vec<State>) -> Vec<State> {
        let s = self.store;
        match op {
            Op::Skip => states,
            Op::Expr(e) => self.eval_all(e, states).into_iter().map(|x| x.0).collect(),
            Op::Init(r, init) => {
                let slot = self.slot(*r);
                match init {
                    Some(e) => self
                        .eval_all(e, states)
                        .into_iter()
                        .map(|(mut st, v)| {
                            st.env[slot] = self.int(v);
                            st
                        })
                        .collect(),
                    None if self.func == self.program.main && self.extra.unbounded.contains(r) => {
                        states
                            .into_iter()
                            .map(|mut st| {
                                st.env[slot] = s.var(self.fresh_var("ghost"));
                                st
                            })
                            .collect()
                    }
                    None => {
                        let ty = self.program.var(self.func, *r).ty;
                        states
                            .into_iter()
                            .map(|mut st| {
                                st.env[slot] = self.fresh_in("undef", ty, &mut st);
                                st
                            })
                            .collect()
                    }
                }
            }
            // Concurrent programs are encoded through their interleaving product
            // (`threads::product`), which has no thread operations left; a function that
            // still has one is never called (a thread template), so its paths may end here.
            Op::Thread(_) => vec![],
            Op::Assume(c, holds) => {
                let (yes, no) = self.test(c, states);
                if *holds {
                    yes
                } else {
                    no
                }
            }
            Op::Return(e) => {
                let ret_ty = self.program.functions[self.func].ret;
                match (e, ret_ty) {
                    (Some(e), _) => self
                        .eval_all(e, states)
                        .into_iter()
                        .map(|(mut st, v)| {
                            let t = self.int(v);
                            st.env.push(t);
                            st
                        })
                        .collect(),
                    (None, Some(ty)) => states
                        .into_iter()
                        .map(|mut st| {
                            let v = self.fresh_in("ret", ty, &mut st);
                            st.env.push(v);
                            st
                        })
                        .collect(),
                    (None, None) => states
                        .into_iter()
                        .map(|mut st| {
                            st.env.push(s.int(0));
                            st
                        })
                        .collect(),
                }
            }
        }
    }

    /// The predicate of a cut point, over the entry snapshots and the slots of the variables
    /// live there (every slot without the liveness filter).
    pub(super) fn cut_point(&mut self, at: LocId, live: &[VarRef]) -> CutPoint {
        let info = self.slot_info();
        let vars = self.slot_vars();
        let keep: Vec<usize> = (0..info.len())
            .filter(|&k| match vars[k] {
                None => true,
                Some(v) => !self.options.live_variables_only || live.binary_search(&v).is_ok(),
            })
            .collect();
        let fname = self.program.functions[self.func].name.clone();
        let k = self.loops.len();
        let pred = self.system.add_pred(
            format!("{fname}_loop{k}"),
            keep.iter().map(|&k| self.sorts[k].clone()).collect(),
        );
        let span = self.program.functions[self.func].cfa.loc(at).span;
        self.loops.push(LoopHead {
            pred,
            func: self.func,
            span,
            args: keep.iter().map(|&k| Some(info[k].clone())).collect(),
            vars: keep.iter().map(|&k| vars[k]).collect(),
            loc: at,
            env: false,
        });
        CutPoint { pred, slots: keep }
    }

    /// The state at a cut point: a fresh variable per argument of its predicate (within its
    /// type's range), the atom in the body; the other slots are dead there and hold fresh
    /// unconstrained values.
    pub(super) fn head_state(&mut self, cut: &CutPoint) -> State {
        let s = self.store;
        let info = self.slot_info();
        let mut head = State {
            guard: vec![],
            env: vec![],
            atoms: vec![],
            events: vec![],
            has_source: true,
        };
        for k in 0..info.len() {
            let v = self.fresh_sorted("dead", self.sorts[k].clone());
            head.env.push(s.var(v));
        }
        let mut args = vec![];
        for &k in &cut.slots {
            let (name, ty) = &info[k];
            let clean: String = name
                .chars()
                .map(|c| if c == '@' { '_' } else { c })
                .collect();
            let sort = self.sorts[k].clone();
            let v = self.fresh_sorted(&clean, sort.clone());
            if sort == Sort::Int && !(ty.signed && ty.bits >= 32) {
                self.range(s.var(v), *ty, &mut head);
            }
            args.push(v);
            head.env[k] = s.var(v);
        }
        head.atoms.push(Atom {
            pred: cut.pred,
            args,
        });
        head
    }
}

/// A cut point's predicate and the slots its arguments hold.
pub(super) struct CutPoint {
    pred: PredId,
    slots: Vec<usize>,
}

/// The locations of the region from `source`: reachable from it without passing through a cut
/// point (other than `source`), in topological order (reverse post-order of a depth-first
/// search; the region is acyclic because every cycle of the CFA goes through a cut point).
fn region_order(cfa: &Cfa, source: LocId, cuts: &HashMap<LocId, CutPoint>) -> Vec<LocId> {
    let mut post = vec![];
    let mut seen: HashSet<LocId> = HashSet::new();
    seen.insert(source);
    // (location, index of the next outgoing edge to look at)
    let mut stack = vec![(source, 0usize)];
    while let Some((l, i)) = stack.pop() {
        let out = cfa.out(l);
        if i < out.len() {
            stack.push((l, i + 1));
            let to = cfa.edge(out[i]).to;
            if to != source && !cuts.contains_key(&to) && seen.insert(to) {
                stack.push((to, 0));
            }
        } else {
            post.push(l);
        }
    }
    post.reverse();
    post
}
