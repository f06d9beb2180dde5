//! The rely-guarantee clauses of a program whose threads are created in a loop: the
//! large-block encoding of the rely program ([`super::super::threads::rely`]), whose cut
//! points are each template's interleaving points, plus an environment relation
//! `env(t, g, g')` over the acting instance's thread identifier and the globals before and
//! after its step, and
//!
//! * a *guarantee* per clause between two cut points of the same template from a location
//!   where other threads may run: the same body and constraint, the head `env(tid, g, g')`
//!   with `tid`, `g` the source's arguments and `g'` the target's (every step of every
//!   template is a step of the environment of every other instance, its own template's too);
//! * a *stability* clause per interleaving point `l` of a template:
//!   `Inv(l, g, x) ∧ env(t, g, g') ∧ t ≠ tid → Inv(l, g', x)` (`tid` among `x`);
//! * the creation clauses, the steps and the error queries are the encoding's own clauses of
//!   the rely program.
//!
//! Every cut-point predicate of the rely program keeps every global and its template's `tid`
//! (live or not) so that guarantees and stability see them. A model is a thread-modular proof
//! for any number of threads (the argument is in the rely program's module documentation); a
//! derivation is not a counterexample (the abstraction forgets how many instances there are
//! and where they are), so the caller answers `unknown` then.
//!
//! Must not: solve, or treat a derivation as a counterexample.

use super::{translate_extra, ClauseInfo, EncodeOptions, ExtraCuts, LoopHead, Translation};
use crate::chc::{Atom, Clause, Head, PredId};
use crate::frontend::c::ir::VarRef;
use crate::frontend::c::threads::rely::Rely;
use crate::frontend::c::types::CType;
use crate::term::{Sort, TermId, TermStore, VarId};
use std::collections::HashMap;

/// The rely-guarantee clauses of a [`Rely`] program.
#[derive(Clone, Debug)]
pub struct RelyTranslation {
    /// The clauses: the rely program's encoding with the guarantees and stability clauses.
    pub translation: Translation,
    /// The environment relation `env(t, g, g')`.
    pub env: PredId,
}

/// A cut point of the rely program's `main`: its predicate and where its globals and
/// identifier are among its arguments.
struct Cut {
    pred: PredId,
    owner: usize,
    shared: bool,
    point: bool,
    /// Per global (ghosts too): the argument position holding it.
    globals: Vec<Option<usize>>,
    tid: Option<usize>,
}

/// Translates the rely program and adds the environment's clauses (see the module
/// documentation).
pub fn translate_rely(store: &TermStore, rely: &Rely) -> RelyTranslation {
    let p = &rely.program;
    let main = p.main;
    let ng = p.globals.len();
    let nlocs = p.functions[main].cfa.locs.len();
    let keep: Vec<Vec<VarRef>> = (0..nlocs)
        .map(|l| match rely.owner[l] {
            Some(k) => (0..ng)
                .map(VarRef::Global)
                .chain(std::iter::once(rely.templates[k].tid))
                .collect(),
            None => vec![],
        })
        .collect();
    let extra = ExtraCuts {
        cuts: rely.cuts.clone(),
        keep,
        unbounded: rely.ghosts.clone(),
    };
    let mut tr = translate_extra(store, p, &EncodeOptions::default(), &extra);
    let mut cuts: HashMap<PredId, Cut> = HashMap::new();
    for lh in tr.loops.iter_mut().filter(|l| l.func == main) {
        let l = lh.loc.0 as usize;
        let Some(owner) = rely.owner[l] else { continue };
        // Printed as the template's (its names are the copy's: `f_x` for `f`'s `x`).
        lh.func = rely.templates[owner].func;
        let pos = |v: VarRef| lh.vars.iter().position(|x| *x == Some(v));
        cuts.insert(
            lh.pred,
            Cut {
                pred: lh.pred,
                owner,
                shared: rely.shared[l],
                point: rely.point[l],
                globals: (0..ng).map(|g| pos(VarRef::Global(g))).collect(),
                tid: pos(rely.templates[owner].tid),
            },
        );
    }
    let gsorts: Vec<Sort> = p.globals.iter().map(super::array::sort_of).collect();
    let mut env_sorts = vec![Sort::Int];
    env_sorts.extend(gsorts.iter().cloned());
    env_sorts.extend(gsorts.iter().cloned());
    let env = tr.system.add_pred("env", env_sorts);
    let mut added = vec![];
    // Guarantees.
    let steps: Vec<Clause> = tr
        .system
        .clauses()
        .filter(|(id, _)| tr.clauses[id.0 as usize].has_source)
        .map(|(_, c)| c.clone())
        .collect();
    for c in steps {
        let (Some(src), Some(Head::Atom(dst))) = (c.body.first(), Some(&c.head)) else {
            continue;
        };
        let (Some(a), Some(b)) = (cuts.get(&src.pred), cuts.get(&dst.pred)) else {
            continue;
        };
        if a.owner != b.owner || !a.shared {
            continue;
        }
        let mut eqs = vec![c.constraint];
        let mut args = vec![];
        let mut arg = |t: Option<TermId>, sort: Sort, eqs: &mut Vec<TermId>| {
            let v = store.new_var("g", sort);
            if let Some(t) = t {
                eqs.push(store.eq(store.var(v), t));
            }
            args.push(v);
        };
        let at = |atom: &Atom, k: Option<usize>| k.map(|k| store.var(atom.args[k]));
        arg(at(src, a.tid), Sort::Int, &mut eqs);
        for (g, sort) in gsorts.iter().enumerate() {
            arg(at(src, a.globals[g]), sort.clone(), &mut eqs);
        }
        for (g, sort) in gsorts.iter().enumerate() {
            arg(at(dst, b.globals[g]), sort.clone(), &mut eqs);
        }
        added.push(Clause {
            body: c.body.clone(),
            constraint: store.and(eqs),
            head: Head::Atom(Atom { pred: env, args }),
        });
    }
    // Stability at the interleaving points.
    let mut points: Vec<&Cut> = cuts.values().filter(|c| c.point).collect();
    points.sort_by_key(|c| c.pred);
    for cut in points {
        let sorts = tr.system.pred(cut.pred).sorts.clone();
        let fresh = |name: &str, sort: &Sort| store.new_var(name, sort.clone());
        let before: Vec<VarId> = sorts.iter().map(|s| fresh("x", s)).collect();
        let after: Vec<VarId> = sorts.iter().map(|s| fresh("y", s)).collect();
        let t = fresh("t", &Sort::Int);
        let g0: Vec<VarId> = gsorts.iter().map(|s| fresh("g", s)).collect();
        let g1: Vec<VarId> = gsorts.iter().map(|s| fresh("h", s)).collect();
        let mut eqs = vec![];
        if let Some(k) = cut.tid {
            eqs.push(store.not(store.eq(store.var(t), store.var(before[k]))));
        }
        let mut is_global = vec![None; sorts.len()];
        for (g, pos) in cut.globals.iter().enumerate() {
            if let Some(k) = *pos {
                is_global[k] = Some(g);
                eqs.push(store.eq(store.var(g0[g]), store.var(before[k])));
            }
        }
        for k in 0..sorts.len() {
            let new = match is_global[k] {
                Some(g) => g1[g],
                None => before[k],
            };
            eqs.push(store.eq(store.var(after[k]), store.var(new)));
        }
        let mut env_args = vec![t];
        env_args.extend(g0.iter().copied());
        env_args.extend(g1.iter().copied());
        added.push(Clause {
            body: vec![
                Atom {
                    pred: cut.pred,
                    args: before,
                },
                Atom {
                    pred: env,
                    args: env_args,
                },
            ],
            constraint: store.and(eqs),
            head: Head::Atom(Atom {
                pred: cut.pred,
                args: after,
            }),
        });
    }
    for c in added {
        tr.system.add_clause(c);
        tr.clauses.push(ClauseInfo::default());
    }
    let names = std::iter::once(("tid".to_owned(), CType::INT))
        .chain(p.globals.iter().map(|g| (g.name.clone(), g.ty)))
        .chain(p.globals.iter().map(|g| (format!("{}_post", g.name), g.ty)));
    tr.loops.push(LoopHead {
        pred: env,
        func: main,
        span: rely.created_in_loop,
        args: names.map(Some).collect(),
        vars: vec![None; 1 + 2 * ng],
        loc: p.functions[main].cfa.entry,
        env: true,
    });
    RelyTranslation {
        translation: tr,
        env,
    }
}
