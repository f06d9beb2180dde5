//! Extraction of the input relations from a system, and their Soufflé schema.

use crate::chc::System;
use crate::term::{TermStore, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// The input relations of a clause system, as tuples of ids (see `rules/input.rs` for the
/// meaning of each column). The field names and tuple shapes are those of the relations
/// declared by [`rules::chc_input`](super::rules::chc_input), so a user's ascent program loads
/// them with `prog.pred = facts.pred.clone();` and so on. `pred_name` and `var_name` are for
/// output only (they are not declared in `chc_input`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// `(p, arity)`.
    pub pred: Vec<(u32, u32)>,
    /// `(p, name)`: the input name of each predicate.
    pub pred_name: Vec<(u32, String)>,
    /// `(p, i, sort)`: the SMT-LIB sort of each argument.
    pub arg_sort: Vec<(u32, u32, String)>,
    /// `(c,)`.
    pub clause: Vec<(u32,)>,
    /// `(c, position, p)`.
    pub body_atom: Vec<(u32, u32, u32)>,
    /// `(c, p)`.
    pub head_atom: Vec<(u32, u32)>,
    /// `(c,)`: clauses with head `false`.
    pub query: Vec<(u32,)>,
    /// `(c,)`: clauses without body atoms.
    pub fact_clause: Vec<(u32,)>,
    /// `(c, position, i, v)`.
    pub body_arg: Vec<(u32, u32, u32, u32)>,
    /// `(c, i, v)`.
    pub head_arg: Vec<(u32, u32, u32)>,
    /// `(c, v)`.
    pub constraint_var: Vec<(u32, u32)>,
    /// `(c, k)`.
    pub conjunct: Vec<(u32, u32)>,
    /// `(c, k, v)`.
    pub conjunct_var: Vec<(u32, u32, u32)>,
    /// `(c, k, h)`: conjunct `k` is a definition `h = e` of head variable `h`.
    pub definition: Vec<(u32, u32, u32)>,
    /// `(c, p, i, q, j)`.
    pub arg_flow: Vec<(u32, u32, u32, u32, u32)>,
    /// `(v, name)`: the name of every variable occurring in a clause.
    pub var_name: Vec<(u32, String)>,
    /// `(c, k, v, op, n)`: conjunct `k` of clause `c` is `v op n`, `n` an integer constant.
    pub bound: Vec<(u32, u32, u32, &'static str, i64)>,
    /// `(c, k, a, b, d)`: conjunct `k` of clause `c` says `a = b + d`, `d` an integer constant.
    pub step: Vec<(u32, u32, u32, u32, i64)>,
}

/// The type of a column, in Soufflé's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// An id or index (`number`).
    Number,
    /// A name (`symbol`).
    Symbol,
}

impl ColumnType {
    /// Soufflé's name of the type.
    pub fn souffle(self) -> &'static str {
        match self {
            ColumnType::Number => "number",
            ColumnType::Symbol => "symbol",
        }
    }
}

/// One relation of [`Facts`] as a table: its schema and its rows printed as strings.
#[derive(Clone, Debug)]
pub struct Table {
    /// The relation name (also the `.facts` file's stem).
    pub name: &'static str,
    /// What a tuple means.
    pub doc: &'static str,
    /// Column names and types.
    pub columns: &'static [(&'static str, ColumnType)],
    /// The tuples, one string per column (symbols have tabs and line breaks replaced by spaces).
    pub rows: Vec<Vec<String>>,
}

use ColumnType::{Number as N, Symbol as S};

pub(super) fn num<const K: usize>(rows: impl IntoIterator<Item = [u32; K]>) -> Vec<Vec<String>> {
    rows.into_iter()
        .map(|r| r.iter().map(|x| x.to_string()).collect())
        .collect()
}

pub(super) fn sym(rows: &[(u32, String)]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|(i, s)| {
            let clean: String = s
                .chars()
                .map(|ch| {
                    if matches!(ch, '\t' | '\n' | '\r') {
                        ' '
                    } else {
                        ch
                    }
                })
                .collect();
            vec![i.to_string(), clean]
        })
        .collect()
}

impl Facts {
    /// Extracts the relations of `system`, whose terms live in `store`.
    pub fn extract(system: &System, store: &TermStore) -> Facts {
        let mut f = Facts::default();
        for p in system.pred_ids() {
            let decl = system.pred(p);
            f.pred.push((p.0, decl.sorts.len() as u32));
            f.pred_name.push((p.0, decl.name.clone()));
            for (i, s) in decl.sorts.iter().enumerate() {
                f.arg_sort.push((p.0, i as u32, s.to_string()));
            }
        }
        let mut vars = BTreeSet::new();
        for (cid, cl) in system.clauses() {
            let c = cid.0;
            f.clause.push((c,));
            if cl.is_fact() {
                f.fact_clause.push((c,));
            }
            for (pos, atom) in cl.body.iter().enumerate() {
                f.body_atom.push((c, pos as u32, atom.pred.0));
                for (i, v) in atom.args.iter().enumerate() {
                    f.body_arg.push((c, pos as u32, i as u32, v.0));
                    vars.insert(*v);
                }
            }
            let head_vars: BTreeMap<VarId, u32> = match cl.head_atom() {
                Some(h) => {
                    f.head_atom.push((c, h.pred.0));
                    for (j, v) in h.args.iter().enumerate() {
                        f.head_arg.push((c, j as u32, v.0));
                        vars.insert(*v);
                    }
                    h.args
                        .iter()
                        .enumerate()
                        .map(|(j, v)| (*v, j as u32))
                        .collect()
                }
                None => {
                    f.query.push((c,));
                    BTreeMap::new()
                }
            };
            let cvars = store.free_vars(cl.constraint);
            for v in &cvars {
                f.constraint_var.push((c, v.0));
                vars.insert(*v);
            }
            let conjuncts = store.conjuncts(cl.constraint);
            let conj_vars: Vec<BTreeSet<VarId>> =
                conjuncts.iter().map(|t| store.free_vars(*t)).collect();
            // How many conjuncts each variable occurs in.
            let mut occurrences: BTreeMap<VarId, usize> = BTreeMap::new();
            for vs in &conj_vars {
                for v in vs {
                    *occurrences.entry(*v).or_default() += 1;
                }
            }
            for (k, (t, vs)) in conjuncts.iter().zip(&conj_vars).enumerate() {
                let k = k as u32;
                f.conjunct.push((c, k));
                for v in vs {
                    f.conjunct_var.push((c, k, v.0));
                }
                let defined = defined_vars(store, *t)
                    .into_iter()
                    .find(|h| head_vars.contains_key(h) && occurrences.get(h) == Some(&1));
                if let Some(h) = defined {
                    f.definition.push((c, k, h.0));
                }
                if let Some((v, op, n)) = super::atoms::bound(store, *t) {
                    f.bound.push((c, k, v.0, op, n));
                }
                for (a, b, d) in super::atoms::steps(store, *t) {
                    f.step.push((c, k, a.0, b.0, d));
                }
            }
            // Argument flow: the same variable, or a common conjunct. Computed with one bit set
            // of body positions per head argument, so that many wide conjuncts cost words, not
            // tuples (wide predicates have tens of thousands of flows).
            if let Some(h) = cl.head_atom() {
                let mut slots: Vec<(u32, u32)> = Vec::new();
                let mut body_pos: BTreeMap<VarId, Vec<usize>> = BTreeMap::new();
                for atom in &cl.body {
                    for (i, v) in atom.args.iter().enumerate() {
                        body_pos.entry(*v).or_default().push(slots.len());
                        slots.push((atom.pred.0, i as u32));
                    }
                }
                let words = slots.len().div_ceil(64);
                let mut reach = vec![vec![0u64; words]; h.args.len()];
                let mut add = |j: u32, mask: &[u64]| {
                    for (r, m) in reach[j as usize].iter_mut().zip(mask) {
                        *r |= m;
                    }
                };
                let mut mask = vec![0u64; words];
                for (v, &j) in &head_vars {
                    mask.iter_mut().for_each(|w| *w = 0);
                    for &k in body_pos.get(v).into_iter().flatten() {
                        mask[k / 64] |= 1 << (k % 64);
                    }
                    add(j, &mask);
                }
                for vs in &conj_vars {
                    mask.iter_mut().for_each(|w| *w = 0);
                    for v in vs {
                        for &k in body_pos.get(v).into_iter().flatten() {
                            mask[k / 64] |= 1 << (k % 64);
                        }
                    }
                    for v in vs {
                        if let Some(&j) = head_vars.get(v) {
                            add(j, &mask);
                        }
                    }
                }
                let q = h.pred.0;
                let mut flow = Vec::new();
                for (j, bits) in reach.iter().enumerate() {
                    for (k, &(p, i)) in slots.iter().enumerate() {
                        if bits[k / 64] >> (k % 64) & 1 == 1 {
                            flow.push((c, p, i, q, j as u32));
                        }
                    }
                }
                flow.sort_unstable();
                flow.dedup();
                f.arg_flow.extend(flow);
            }
        }
        f.var_name = vars
            .into_iter()
            .map(|v| (v.0, store.var_name(v).to_string()))
            .collect();
        f
    }

    /// Every relation as a table, in a fixed order (the order of the schema).
    pub fn tables(&self) -> Vec<Table> {
        let t = |name, doc, columns, rows| Table {
            name,
            doc,
            columns,
            rows,
        };
        vec![
            t("pred", "a declared predicate and its arity", &[("p", N), ("arity", N)][..],
                num(self.pred.iter().map(|&(a, b)| [a, b]))),
            t("pred_name", "the input name of a predicate", &[("p", N), ("name", S)][..],
                sym(&self.pred_name)),
            t("arg_sort", "argument i of predicate p has an SMT-LIB sort",
                &[("p", N), ("i", N), ("sort", S)][..],
                self.arg_sort.iter().map(|(p, i, s)| vec![p.to_string(), i.to_string(), s.clone()]).collect()),
            t("clause", "a clause", &[("c", N)][..], num(self.clause.iter().map(|&(a,)| [a]))),
            t("body_atom", "the body atom at a position of a clause applies a predicate",
                &[("c", N), ("position", N), ("p", N)][..],
                num(self.body_atom.iter().map(|&(a, b, c)| [a, b, c]))),
            t("head_atom", "the head atom of a clause applies a predicate",
                &[("c", N), ("p", N)][..], num(self.head_atom.iter().map(|&(a, b)| [a, b]))),
            t("query", "a clause whose head is false", &[("c", N)][..],
                num(self.query.iter().map(|&(a,)| [a]))),
            t("fact_clause", "a clause without body atoms", &[("c", N)][..],
                num(self.fact_clause.iter().map(|&(a,)| [a]))),
            t("body_arg", "argument i of the body atom at a position is variable v",
                &[("c", N), ("position", N), ("i", N), ("v", N)][..],
                num(self.body_arg.iter().map(|&(a, b, c, d)| [a, b, c, d]))),
            t("head_arg", "argument i of the head atom is variable v",
                &[("c", N), ("i", N), ("v", N)][..],
                num(self.head_arg.iter().map(|&(a, b, c)| [a, b, c]))),
            t("constraint_var", "variable v occurs in the constraint of clause c",
                &[("c", N), ("v", N)][..],
                num(self.constraint_var.iter().map(|&(a, b)| [a, b]))),
            t("conjunct", "the constraint of clause c has top-level conjunct k",
                &[("c", N), ("k", N)][..], num(self.conjunct.iter().map(|&(a, b)| [a, b]))),
            t("conjunct_var", "variable v occurs in conjunct k of clause c",
                &[("c", N), ("k", N), ("v", N)][..],
                num(self.conjunct_var.iter().map(|&(a, b, c)| [a, b, c]))),
            t("definition",
                "conjunct k of clause c is h = e, h a head variable in no other conjunct nor in e",
                &[("c", N), ("k", N), ("h", N)][..],
                num(self.definition.iter().map(|&(a, b, c)| [a, b, c]))),
            t("arg_flow",
                "in clause c, body argument (p, i) and head argument (q, j) share a variable or a conjunct",
                &[("c", N), ("p", N), ("i", N), ("q", N), ("j", N)][..],
                num(self.arg_flow.iter().map(|&(a, b, c, d, e)| [a, b, c, d, e]))),
            t("var_name", "the name of a variable", &[("v", N), ("name", S)][..],
                sym(&self.var_name)),
            t("bound",
                "conjunct k of clause c is v op n, n an integer (op: <=, <, >=, >, =, !=)",
                &[("c", N), ("k", N), ("v", N), ("op", S), ("n", N)][..],
                self.bound.iter().map(|&(c, k, v, op, n)| {
                    vec![c.to_string(), k.to_string(), v.to_string(), op.to_string(), n.to_string()]
                }).collect()),
            t("step", "conjunct k of clause c says a = b + d, d an integer (read both ways)",
                &[("c", N), ("k", N), ("a", N), ("b", N), ("d", N)][..],
                self.step.iter().map(|&(c, k, a, b, d)| {
                    vec![c.to_string(), k.to_string(), a.to_string(), b.to_string(), d.to_string()]
                }).collect()),
        ]
    }

    /// The Soufflé declarations of every input relation (`.decl` with a comment, and `.input`).
    pub fn souffle_schema(&self) -> String {
        super::schema(SCHEMA_HEADER, &self.tables())
    }
}

/// The comment that opens the schema of a clause system's relations.
pub const SCHEMA_HEADER: &str =
    "// Relations of a Hornbeam clause system (written by `hornbeam facts`).\n\
     // Ids: p = predicate, c = clause, v/h = variable, l/m = loop; positions, argument indices\n\
     // (i, j) and conjunct indices (k) count from 0. Each relation is in NAME.facts, one tuple\n\
     // per line, tab-separated. Normal form: a clause's body atoms and its head never share a\n\
     // variable (every argument is a fresh variable; the constraint relates them), so data\n\
     // flow from body to head is read from `definition` and `arg_flow`, not from equal ids.\n";

/// The variables `v` such that `t` is `v = e` or `e = v` with `v` not occurring in `e` (the left
/// side first).
fn defined_vars(store: &TermStore, t: crate::term::TermId) -> Vec<VarId> {
    let mut out = Vec::new();
    for (a, b) in super::atoms::sides(store, t) {
        if let Some(v) = store.as_var(a) {
            if !store.free_vars(b).contains(&v) {
                out.push(v);
            }
        }
    }
    out
}
