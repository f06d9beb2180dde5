//! The model of an inlined predicate rebuilt from one of its definitions: `∃ locals.
//! constraint ∧ M(body)`, the locals eliminated as far as cheap means go (the one-point rule,
//! C-style flags), then by quantifier elimination under a short cap; what is left stays
//! existentially quantified, which the validator instantiates. Used by [`super::inline`]'s
//! back-translator.
//!
//! Must not: search past its deadline, or return a formula that is not equivalent to the
//! definition's body under the model.

use crate::chc::{Atom, Clause};
use crate::clock::Deadline;
use crate::smt::{eliminate, QeMode};
use crate::term::{Quantifier, TermId, TermStore, VarId};
use crate::witness::Model;
use std::collections::{BTreeSet, HashMap};

/// Most time full quantifier elimination may take for one definition.
const FULL_QE_CAP: std::time::Duration = std::time::Duration::from_secs(1);

/// Most flags [`eliminate_flags`] splits on when no conjunct defines them.
const FLAG_SPLITS: usize = 2;

/// `t` without the arithmetic locals that occur only in one equality each (the C-style flags
/// `0 = x` of compiled programs), equivalent under `∃ locals`: each such equality becomes a
/// Boolean local ([`TermStore::abstract_equalities`]), the Boolean one-point rule removes those
/// a conjunct defines, and at most [`FLAG_SPLITS`] others are split on (`∃b. φ` is
/// `φ[true] ∨ φ[false]`); past that the equalities are put back. Z3's `qe` needs 2-9 ms per
/// definition for what this does in microseconds.
fn eliminate_flags(store: &TermStore, locals: &BTreeSet<VarId>, t: TermId) -> TermId {
    let (abstracted, flags) = store.abstract_equalities(locals, t);
    if flags.is_empty() {
        return t;
    }
    let bools: BTreeSet<VarId> = flags.iter().map(|&(b, _)| b).collect();
    let mut t = store.eliminate_defined(&bools, abstracted);
    let left: Vec<(VarId, TermId)> = {
        let free = store.free_vars(t);
        flags
            .into_iter()
            .filter(|(b, _)| free.contains(b))
            .collect()
    };
    if left.len() > FLAG_SPLITS {
        return store.substitute(t, &left.into_iter().collect());
    }
    for (b, _) in left {
        let case = |value| store.substitute(t, &HashMap::from([(b, store.bool(value))]));
        t = store.or([case(true), case(false)]);
    }
    t
}

/// Most locals left after light elimination for which full elimination is tried: on Kind 2's
/// node steps (50-60 locals, many Boolean; 13 inputs left after the one-point rule) it took
/// 0.3-0.6 s or ran into its cap, while the validator instantiates the existentials of a
/// definition with the definition's own variables at once (25 ms for `DRAGON_10`'s model).
const FULL_QE_MAX_LOCALS: usize = 8;

/// `∃ locals. constraint ∧ M(body)` of definition `d` with its head arguments renamed to
/// `params`: the locals defined by equalities substituted away, and with a deadline
/// (`qe_deadline`) the others eliminated where quantifier elimination manages.
pub(super) fn definition_body(
    store: &TermStore,
    model: &Model,
    d: &Clause,
    params: &[VarId],
    qe_deadline: Option<&Deadline>,
) -> TermId {
    let head = d.head_atom().expect("a definition has a head atom");
    let mut rho: HashMap<VarId, VarId> = head
        .args
        .iter()
        .copied()
        .zip(params.iter().copied())
        .collect();
    for v in d.vars(store) {
        rho.entry(v).or_insert_with(|| store.fresh_copy(v));
    }
    let sub = rho.iter().map(|(k, v)| (*k, store.var(*v))).collect();
    let mut parts = vec![store.substitute(d.constraint, &sub)];
    for a in &d.body {
        let renamed = Atom {
            pred: a.pred,
            args: a.args.iter().map(|v| rho[v]).collect(),
        };
        parts.push(model.apply(store, &renamed));
    }
    let body = store.and(parts);
    let keep: BTreeSet<VarId> = params.iter().copied().collect();
    let locals = |t| -> Vec<VarId> {
        store
            .free_vars(t)
            .into_iter()
            .filter(|v| !keep.contains(v))
            .collect()
    };
    // The one-point rule first: most locals of a definition are copies of others (argument
    // passing), which `qe-light` leaves when they are Boolean (Kind 2's node steps).
    let mut t = store.eliminate_defined(&locals(body).into_iter().collect(), body);
    t = eliminate_flags(store, &locals(t).into_iter().collect(), t);
    // Full elimination gets a short cap: on large Boolean-heavy definitions (Kind 2's node
    // steps) `qe` runs for tens of seconds, while the validator accepts the existential as it
    // stands; on the public set every successful `qe` here took under half a second.
    // Without a deadline the locals stay quantified.
    let modes = match qe_deadline {
        Some(d) => vec![
            (QeMode::Light, d.clone()),
            (QeMode::Full, d.at_most(FULL_QE_CAP)),
        ],
        None => Vec::new(),
    };
    for (mode, deadline) in modes {
        let ls = locals(t);
        if ls.is_empty() {
            return t;
        }
        if mode == QeMode::Full && ls.len() > FULL_QE_MAX_LOCALS {
            break;
        }
        if let Some(r) = eliminate(store, &ls, t, mode, deadline) {
            t = r;
        }
    }
    let ls = locals(t);
    if ls.is_empty() {
        return t;
    }
    // Bound variables must be fresh: rename the remaining locals once more.
    let fresh: Vec<VarId> = ls.iter().map(|&v| store.fresh_copy(v)).collect();
    let sub = ls
        .iter()
        .zip(&fresh)
        .map(|(v, w)| (*v, store.var(*w)))
        .collect();
    store.quant(Quantifier::Exists, fresh, store.substitute(t, &sub))
}
