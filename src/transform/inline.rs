//! Inlining predicates that are not loop heads (large-block encoding, formula slicing paper
//! Sec. 2.5): every body occurrence of such a predicate `P` is resolved with each clause
//! defining `P` (over fresh copies of its variables), after which `P` is gone.
//!
//! Must not: inline a loop head or a predicate whose definitions use it (that would not
//! terminate), multiply clauses beyond [`Inline::max_product`], or copy definitions larger than
//! [`Inline::max_vars`]. The variables that filled
//! `P`'s arguments stay as variables of the resolved clause, so a derivation of the new system
//! already holds every intermediate value: splitting a step back into the original clause
//! instances is bookkeeping, no solver. Models of inlined predicates are rebuilt from their
//! definitions in the input system (under the interpretations of the predicates those use),
//! with the intermediate variables eliminated: first without a solver (the one-point rule,
//! and C-style flags, locals seen only in one equality `0 = x`), then by quantifier
//! elimination when it succeeds (an existential quantifier over copies of the definition's
//! variables is kept otherwise, which the validator instantiates with the variables
//! themselves).

use super::definitions::definition_body;
use super::{
    carry_renumbered, compact, default_value, fresh_params, BackError, BackTranslator, Transform,
};
use crate::analysis::analyze;
use crate::chc::{Atom, Clause, ClauseId, PredId, System};
use crate::clock::Deadline;
use crate::term::{TermStore, Value, VarId};
use crate::witness::{DerivNode, Derivation, Interp, Model};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Inlines predicates that are not loop heads, within a bound on clause growth.
#[derive(Clone, Debug)]
pub struct Inline {
    /// A predicate with several definitions and several uses is inlined only if the clauses
    /// replacing its definitions and uses are at most this many (or no more than those).
    pub max_product: usize,
    /// A predicate is inlined only if each of its definitions has at most this many variables.
    /// Each resolution copies the definition with fresh variables, so without a bound a chain
    /// of n predicates, inlined one after the other, costs n^2 time and memory.
    pub max_vars: usize,
    /// Models of inlined predicates get the intermediate variables of their definitions
    /// eliminated by quantifier elimination; without it they keep those that the one-point
    /// rule and the flags rule (no solver) leave existentially quantified. The elimination
    /// costs a few Z3 tactic runs per definition (up to 40 ms of a `sat` answer on Kind 2
    /// systems), but the quantified models can be far slower to
    /// validate (`PLUS_array_sum_5_5`, 707 clauses: 2 s with it, over 10 s without), so the
    /// default pipeline keeps it on.
    pub eliminate_locals: bool,
}

impl Default for Inline {
    fn default() -> Self {
        Inline {
            max_product: 16,
            max_vars: 256,
            eliminate_locals: true,
        }
    }
}

/// Where a clause of the transformed system comes from: a tree of input clause instances.
#[derive(Clone, Debug)]
struct Origin {
    /// The input clause.
    clause: ClauseId,
    /// Each variable of the input clause and the variable standing for it in the new clause.
    rename: Vec<(VarId, VarId)>,
    /// Per body atom of the input clause: where its premise comes from.
    premises: Vec<Premise>,
}

#[derive(Clone, Debug)]
enum Premise {
    /// The body atom at this position of the new clause.
    Body(usize),
    /// An inlined clause instance.
    Inlined(Box<Origin>),
}

impl Origin {
    fn map_vars(&mut self, f: &dyn Fn(VarId) -> VarId) {
        for (_, w) in &mut self.rename {
            *w = f(*w);
        }
        for p in &mut self.premises {
            if let Premise::Inlined(o) = p {
                o.map_vars(f);
            }
        }
    }

    fn vars(&self, out: &mut BTreeSet<VarId>) {
        out.extend(self.rename.iter().map(|(_, w)| *w));
        for p in &self.premises {
            if let Premise::Inlined(o) = p {
                o.vars(out);
            }
        }
    }

    /// Replaces the premise `Body(j)` by `inner` and shifts the positions after `j` by
    /// `extra` (the number of body atoms `inner` brings minus one). `inner`'s own `Body(m)` are
    /// already shifted to `j + m`.
    fn splice(&mut self, j: usize, inner: &mut Option<Origin>, extra: isize) {
        for p in &mut self.premises {
            match p {
                Premise::Body(k) if *k == j => {
                    let o = inner.take().expect("the position is spliced once");
                    *p = Premise::Inlined(Box::new(o));
                }
                Premise::Body(k) if *k > j => *k = (*k as isize + extra) as usize,
                Premise::Body(_) => {}
                Premise::Inlined(o) => o.splice(j, inner, extra),
            }
        }
    }

    fn shift(&mut self, by: usize) {
        for p in &mut self.premises {
            match p {
                Premise::Body(k) => *k += by,
                Premise::Inlined(o) => o.shift(by),
            }
        }
    }
}

/// A clause being transformed and its origin.
#[derive(Clone, Debug)]
struct Work {
    clause: Clause,
    origin: Origin,
}

/// Back-translation of [`Inline`].
struct Back {
    /// Per new predicate, its id in the input system.
    old_pred: Vec<PredId>,
    /// Per new clause, its origin.
    origins: Vec<Origin>,
    /// The input system.
    orig: System,
    /// Inlined predicates, in inlining order.
    inlined: Vec<PredId>,
    /// See [`Inline::eliminate_locals`].
    eliminate_locals: bool,
}

impl Transform for Inline {
    fn name(&self) -> &'static str {
        "inline"
    }

    fn apply(&self, store: &TermStore, system: &System) -> (System, Box<dyn BackTranslator>) {
        let a = analyze(system, store);
        let mut work: Vec<Option<Work>> = system
            .clauses()
            .map(|(id, c)| {
                let rename = c.vars(store).into_iter().map(|v| (v, v)).collect();
                let premises = (0..c.body.len()).map(Premise::Body).collect();
                Some(Work {
                    clause: c.clone(),
                    origin: Origin {
                        clause: id,
                        rename,
                        premises,
                    },
                })
            })
            .collect();
        let mut index = Uses::default();
        for (i, w) in work.iter().enumerate() {
            index.add(i, w.as_ref().expect("all present"));
        }
        let mut inlined = Vec::new();
        for p in a.order.iter().copied().filter(|&p| !a.is_loop_head(p)) {
            if self.inline_one(store, &mut work, &mut index, p) {
                inlined.push(p);
            }
        }
        let (clauses, origins): (Vec<Clause>, Vec<Origin>) = work
            .into_iter()
            .flatten()
            .map(|w| (w.clause, w.origin))
            .unzip();
        let (new, old_pred) = compact(system, clauses);
        let back = Back {
            old_pred,
            origins,
            orig: system.clone(),
            inlined,
            eliminate_locals: self.eliminate_locals,
        };
        (new, Box::new(back))
    }
}

impl Inline {
    /// Inlines `p` if it is not recursive and within bounds; says whether it did.
    fn inline_one(
        &self,
        store: &TermStore,
        work: &mut Vec<Option<Work>>,
        index: &mut Uses,
        p: PredId,
    ) -> bool {
        let uses = |w: &Work| w.clause.body.iter().filter(|a| a.pred == p).count();
        let def_ids: Vec<usize> = index.defs(p);
        let user_ids: Vec<usize> = index.users(p);
        if def_ids.iter().any(|i| user_ids.contains(i)) {
            return false;
        }
        let too_big = |&i: &usize| {
            let w = work[i].as_ref().expect("listed");
            w.clause.vars(store).len() > self.max_vars
        };
        if def_ids.iter().any(too_big) {
            return false;
        }
        let n_defs = def_ids.len();
        let mut produced = 0usize;
        for &i in &user_ids {
            let k = uses(work[i].as_ref().expect("listed")) as u32;
            produced = produced.saturating_add(n_defs.saturating_pow(k));
        }
        if produced > self.max_product.max(n_defs + user_ids.len()) {
            return false;
        }
        let take = |i: usize, work: &mut Vec<Option<Work>>, index: &mut Uses| {
            let w = work[i].take().expect("listed");
            index.remove(i, &w);
            w
        };
        // One definition used once: it is consumed by its only resolution, so its variables
        // need no fresh copies (a chain inlined step by step would copy ever more of them).
        let once = n_defs == 1 && produced == 1;
        let defs: Vec<Work> = def_ids.iter().map(|&i| take(i, work, index)).collect();
        for &i in &user_ids {
            let mut pending = vec![take(i, work, index)];
            let mut done = Vec::new();
            while let Some(w) = pending.pop() {
                match w.clause.body.iter().position(|a| a.pred == p) {
                    None => done.push(w),
                    Some(j) => pending.extend(defs.iter().map(|d| resolve(store, &w, j, d, once))),
                }
            }
            // Keep the resolvents next to the clause they replace (the first in its slot).
            let mut it = done.into_iter().rev();
            if let Some(w) = it.next() {
                index.add(i, &w);
                work[i] = Some(w);
            }
            for w in it {
                index.add(work.len(), &w);
                work.push(Some(w));
            }
        }
        true
    }
}

/// The clauses (slots of the work list) that define and that use each predicate, kept up to
/// date as clauses are resolved, so that each inlining step costs what it touches.
#[derive(Default)]
struct Uses {
    defs: HashMap<PredId, BTreeSet<usize>>,
    users: HashMap<PredId, BTreeSet<usize>>,
}

impl Uses {
    fn add(&mut self, i: usize, w: &Work) {
        if let Some(p) = w.clause.head_pred() {
            self.defs.entry(p).or_default().insert(i);
        }
        for a in &w.clause.body {
            self.users.entry(a.pred).or_default().insert(i);
        }
    }

    fn remove(&mut self, i: usize, w: &Work) {
        if let Some(p) = w.clause.head_pred() {
            self.defs.entry(p).or_default().remove(&i);
        }
        for a in &w.clause.body {
            self.users.entry(a.pred).or_default().remove(&i);
        }
    }

    fn defs(&self, p: PredId) -> Vec<usize> {
        self.defs.get(&p).into_iter().flatten().copied().collect()
    }

    fn users(&self, p: PredId) -> Vec<usize> {
        self.users.get(&p).into_iter().flatten().copied().collect()
    }
}

/// Resolves body atom `j` of `w` (an atom of `d`'s head predicate) with definition `d`. With
/// `once` (this is the only resolution with `d`), `d`'s variables that `w` does not have keep
/// their identity instead of being copied.
fn resolve(store: &TermStore, w: &Work, j: usize, d: &Work, once: bool) -> Work {
    let atom = &w.clause.body[j];
    let head = d.clause.head_atom().expect("a definition has a head atom");
    let mut rho: HashMap<VarId, VarId> = head
        .args
        .iter()
        .copied()
        .zip(atom.args.iter().copied())
        .collect();
    let mut vars = d.clause.vars(store);
    d.origin.vars(&mut vars);
    let mut taken = BTreeSet::new();
    if once {
        taken = w.clause.vars(store);
        w.origin.vars(&mut taken);
    }
    for v in vars {
        rho.entry(v)
            .or_insert_with(|| match once && !taken.contains(&v) {
                true => v,
                false => store.fresh_copy(v),
            });
    }
    let sub: HashMap<VarId, crate::term::TermId> = rho
        .iter()
        .filter(|(k, v)| k != v)
        .map(|(k, v)| (*k, store.var(*v)))
        .collect();
    let rename_atom = |a: &Atom| Atom {
        pred: a.pred,
        args: a.args.iter().map(|v| rho[v]).collect(),
    };
    let mut body: Vec<Atom> = w.clause.body[..j].to_vec();
    body.extend(d.clause.body.iter().map(rename_atom));
    body.extend(w.clause.body[j + 1..].iter().cloned());
    let constraint = store.and([
        w.clause.constraint,
        store.substitute(d.clause.constraint, &sub),
    ]);
    let mut inner = d.origin.clone();
    inner.map_vars(&|v| rho[&v]);
    inner.shift(j);
    let mut origin = w.origin.clone();
    origin.splice(j, &mut Some(inner), d.clause.body.len() as isize - 1);
    Work {
        clause: Clause {
            body,
            constraint,
            head: w.clause.head.clone(),
        },
        origin,
    }
}

impl BackTranslator for Back {
    fn hints(&self, store: &TermStore, hints: &Model) -> Model {
        carry_renumbered(store, hints, &self.old_pred)
    }

    fn model(&self, store: &TermStore, model: Model, deadline: Deadline) -> Model {
        let mut out = Model::new();
        for (new, &old) in self.old_pred.iter().enumerate() {
            if let Some(i) = model.get(PredId(new as u32)) {
                out.set(old, i.clone());
            }
        }
        let mut done = BTreeSet::new();
        for &p in &self.inlined {
            self.rebuild(store, p, &mut done, &mut out, deadline.clone());
        }
        out
    }

    fn derivation(
        &self,
        store: &TermStore,
        d: Derivation,
        _deadline: Deadline,
    ) -> Result<Derivation, BackError> {
        let mut nodes = Vec::new();
        let mut index = Vec::with_capacity(d.nodes.len());
        for (i, n) in d.nodes.iter().enumerate() {
            let origin = self
                .origins
                .get(n.clause.0 as usize)
                .ok_or(BackError::NoSuchClause(i))?;
            if n.children.iter().any(|&c| c >= i) {
                return Err(BackError::Malformed(i, "a premise comes later".into()));
            }
            let root = self.emit(store, origin, n, &index, &mut nodes, i)?;
            index.push(root);
        }
        Ok(Derivation { nodes })
    }
}

impl Back {
    /// Sets the interpretation of inlined predicate `p` in `out`: the disjunction, over its
    /// definitions in the input system, of what each gives under `out` (the inlined predicates
    /// its definitions use first). The strongest interpretation its definitions allow: the
    /// same as rebuilding it from the resolvents, but its existentials are only the
    /// definition's own variables, each a copy of it (which the validator instantiates with
    /// the variable itself), and quantifier elimination works on one clause at a time.
    fn rebuild(
        &self,
        store: &TermStore,
        p: PredId,
        done: &mut BTreeSet<PredId>,
        out: &mut Model,
        deadline: Deadline,
    ) {
        if !done.insert(p) {
            return;
        }
        let defs: Vec<&Clause> = self
            .orig
            .clauses()
            .map(|(_, c)| c)
            .filter(|c| c.head_pred() == Some(p))
            .collect();
        for d in &defs {
            for a in &d.body {
                // Inlining never removes two predicates that use each other, so this ends.
                if self.inlined.contains(&a.pred) {
                    self.rebuild(store, a.pred, done, out, deadline.clone());
                }
            }
        }
        let params = fresh_params(store, &self.orig, p);
        let disjuncts: Vec<_> = defs
            .iter()
            .map(|d| {
                let qe = self.eliminate_locals.then_some(&deadline);
                definition_body(store, out, d, &params, qe)
            })
            .collect();
        out.set(
            p,
            Interp {
                params,
                body: store.or(disjuncts),
            },
        );
    }

    /// Appends the input clause instances of `o` for step `n` (premises first); returns the
    /// index of `o`'s instance.
    fn emit(
        &self,
        store: &TermStore,
        o: &Origin,
        n: &DerivNode,
        index: &[usize],
        nodes: &mut Vec<DerivNode>,
        step: usize,
    ) -> Result<usize, BackError> {
        let mut children = Vec::with_capacity(o.premises.len());
        for p in &o.premises {
            children.push(match p {
                Premise::Body(k) => {
                    let c = n.children.get(*k).ok_or_else(|| {
                        BackError::Malformed(step, "wrong number of premises".into())
                    })?;
                    index[*c]
                }
                Premise::Inlined(inner) => self.emit(store, inner, n, index, nodes, step)?,
            });
        }
        let assignment: BTreeMap<VarId, Value> = o
            .rename
            .iter()
            .map(|(v, w)| {
                let x = n.assignment.get(w).cloned();
                (
                    *v,
                    x.unwrap_or_else(|| default_value(store, &store.var_sort(*v))),
                )
            })
            .collect();
        nodes.push(DerivNode {
            clause: o.clause,
            assignment,
            children,
        });
        Ok(nodes.len() - 1)
    }
}
