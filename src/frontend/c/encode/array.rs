//! Arrays in the encoding (see the module header of [`super`]): an array variable is one slot
//! of sort `(Array Int Int)` over row-major element numbers (multi-dimensional arrays are
//! flattened rather than nested, so that every array slot has the one sort the engines and
//! the model checks know best; with constant inner sizes the flattened index stays linear).
//! Reads are `select`s, writes `store`s; every index is assumed within its dimension (an
//! access out of bounds is undefined behaviour: the execution ends), and a read's value within
//! the element type's range (writes store converted values, so this only constrains elements
//! never written: those of an uninitialised array, a fresh array variable, any values of the
//! type). A variable-length array's sizes are hidden scalar locals set at the declaration,
//! which assumes them positive (a non-positive size is undefined behaviour).
//!
//! Must not: emit clauses or handle statements.

use super::state::{EventKind, State, Val};
use super::Encoder;
use crate::frontend::c::ir::{Dim, Fill, IExpr, VarInfo, VarRef};
use crate::frontend::c::types::CType;
use crate::term::{Op, Sort, TermId, VarId};
use num_bigint::BigInt;

/// The sort of a variable's slot.
pub(super) fn sort_of(v: &VarInfo) -> Sort {
    if v.is_array() {
        array_sort()
    } else {
        Sort::Int
    }
}

/// `(Array Int Int)`.
pub(super) fn array_sort() -> Sort {
    Sort::array(Sort::Int, Sort::Int)
}

impl Encoder<'_> {
    pub(super) fn fresh_sorted(&mut self, name: &str, sort: Sort) -> VarId {
        self.counter += 1;
        self.store
            .new_var(&format!("{name}_{}", self.counter), sort)
    }

    /// A fresh term for a slot of sort `sort`: an integer within `ty`'s range, or an array.
    pub(super) fn fresh_slot(
        &mut self,
        name: &str,
        ty: CType,
        sort: &Sort,
        st: &mut State,
    ) -> TermId {
        if *sort == Sort::Int {
            self.fresh_in(name, ty, st)
        } else {
            let v = self.fresh_sorted(name, sort.clone());
            self.store.var(v)
        }
    }

    /// The sort of each slot of [`Encoder::slot_info`].
    pub(super) fn slot_sorts(&self) -> Vec<Sort> {
        let f = &self.program.functions[self.func];
        let globals = self.program.globals.iter().map(sort_of);
        let locals = f.locals.iter().map(sort_of);
        let entry: Vec<Sort> = if self.snap > 0 {
            let params = f.locals[..f.params].iter().map(sort_of);
            params.chain(globals.clone()).collect()
        } else {
            vec![]
        };
        entry.into_iter().chain(globals).chain(locals).collect()
    }

    /// The array whose every element is `v`.
    pub(super) fn const_array(&self, v: BigInt) -> TermId {
        let s = self.store;
        s.app(Op::ConstArray(array_sort()), vec![s.int(v)])
    }

    /// The initial value of global `g` (an array or a scalar).
    pub(super) fn global_initial(&self, g: usize) -> TermId {
        let s = self.store;
        let p = self.program;
        if !p.globals[g].is_array() {
            return s.int(p.global_init[g].clone());
        }
        let mut t = self.const_array(p.global_init[g].clone());
        for (k, v) in &p.global_elems[g] {
            t = s.app(Op::Store, vec![t, s.int(k.clone()), s.int(v.clone())]);
        }
        t
    }

    /// Evaluates `es` left to right: the states and the integer terms of the values.
    fn eval_seq(&mut self, es: &[&IExpr], st: State) -> Vec<(State, Vec<TermId>)> {
        let mut partial: Vec<(State, Vec<TermId>)> = vec![(st, vec![])];
        for e in es {
            let mut next = vec![];
            for (st, vals) in partial {
                for (st, v) in self.eval(e, st) {
                    let mut vals = vals.clone();
                    vals.push(self.int(v));
                    next.push((st, vals));
                }
            }
            partial = next;
        }
        partial
    }

    /// The size of a dimension in `st`.
    fn dim(&self, d: &Dim, st: &State) -> TermId {
        match d {
            Dim::Const(n) => self.store.int(n.clone()),
            Dim::Var(r) => st.env[self.slot(*r)],
        }
    }

    /// Evaluates the indices of an access to `var`, assumes each within its dimension, and
    /// gives the row-major element number.
    fn element(&mut self, var: VarRef, index: &[IExpr], st: State) -> Vec<(State, TermId)> {
        let s = self.store;
        let dims = self.program.var(self.func, var).dims.clone();
        let refs: Vec<&IExpr> = index.iter().collect();
        let mut out = vec![];
        for (mut st, vals) in self.eval_seq(&refs, st) {
            let mut flat = s.int(0);
            for (k, (i, d)) in vals.into_iter().zip(&dims).enumerate() {
                let size = self.dim(d, &st);
                st.assume(s, s.ge(i, s.int(0)));
                st.assume(s, s.lt(i, size));
                flat = if k == 0 {
                    i
                } else {
                    s.add([s.mul([flat, size]), i])
                };
            }
            out.push((st, flat));
        }
        out
    }

    /// Element `idx` of the array term `arr`, with the element type's range assumed.
    fn read(&mut self, arr: TermId, idx: TermId, ty: CType, st: &mut State) -> TermId {
        let t = self.store.app(Op::Select, vec![arr, idx]);
        self.range(t, ty, st);
        t
    }

    /// `a[i]...[k]`.
    pub(super) fn eval_elem(
        &mut self,
        var: VarRef,
        index: &[IExpr],
        ty: CType,
        st: State,
    ) -> Vec<(State, Val)> {
        let slot = self.slot(var);
        let mut out = vec![];
        for (mut st, idx) in self.element(var, index, st) {
            let arr = st.env[slot];
            let t = self.read(arr, idx, ty, &mut st);
            out.push((st, Val::Int(t)));
        }
        out
    }

    /// [`crate::frontend::c::ir::IExprKind::SetElem`].
    pub(super) fn eval_set_elem(
        &mut self,
        var: VarRef,
        index: &[IExpr],
        value: &IExpr,
        post: bool,
        st: State,
    ) -> Vec<(State, Val)> {
        let s = self.store;
        let slot = self.slot(var);
        let ty = value.ty;
        let mut out = vec![];
        for (st, idx) in self.element(var, index, st) {
            let before = st.env[slot];
            self.current.push((before, idx, ty));
            let results = self.eval(value, st);
            self.current.pop();
            for (mut st, v) in results {
                let new = self.int(v);
                // Into the array as the new value's evaluation left it.
                st.env[slot] = s.app(Op::Store, vec![st.env[slot], idx, new]);
                let result = if post {
                    self.read(before, idx, ty, &mut st)
                } else {
                    new
                };
                out.push((st, Val::Int(result)));
            }
        }
        out
    }

    /// [`crate::frontend::c::ir::IExprKind::Current`].
    pub(super) fn eval_current(&mut self, mut st: State) -> Vec<(State, Val)> {
        let Some(&(arr, idx, ty)) = self.current.last() else {
            unreachable!("`Current` outside an element update");
        };
        let t = self.read(arr, idx, ty, &mut st);
        vec![(st, Val::Int(t))]
    }

    /// [`crate::frontend::c::ir::IExprKind::ArrayDecl`].
    pub(super) fn eval_array_decl(
        &mut self,
        var: VarRef,
        elems: &[(BigInt, IExpr)],
        fill: Fill,
        mut st: State,
    ) -> Vec<(State, Val)> {
        let s = self.store;
        let slot = self.slot(var);
        let info = self.program.var(self.func, var);
        for d in &info.dims {
            if let Dim::Var(_) = d {
                let size = self.dim(d, &st);
                st.assume(s, s.gt(size, s.int(0)));
            }
        }
        let base = match fill {
            Fill::Zero => self.const_array(BigInt::from(0)),
            Fill::Any(site) => {
                let name = format!("{}_undef", info.name.replace('.', "_"));
                let v = self.fresh_sorted(&name, array_sort());
                st.event(s, EventKind::Array(site, v));
                s.var(v)
            }
        };
        let refs: Vec<&IExpr> = elems.iter().map(|e| &e.1).collect();
        let mut out = vec![];
        for (mut st, vals) in self.eval_seq(&refs, st) {
            let mut arr = base;
            for ((k, _), v) in elems.iter().zip(vals) {
                arr = s.app(Op::Store, vec![arr, s.int(k.clone()), v]);
            }
            st.env[slot] = arr;
            out.push((st, Val::Int(s.int(0))));
        }
        out
    }
}
