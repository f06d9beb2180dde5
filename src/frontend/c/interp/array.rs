//! Arrays in the interpreter: each array is a sparse map from row-major element numbers to
//! values, with what the other elements hold (zero, or for an uninitialised array nothing yet:
//! an element is picked when first read, from the given values of its site, instance and
//! number, else from the chooser, and recorded as consumed). Indices outside their dimension
//! and variable-length arrays of non-positive size are undefined behaviour: the run stops
//! without a verdict. Part of [`super`]; must not execute statements.

use super::{run_full, Budget, Chooser, Finished, Machine, Outcome, Run};
use crate::frontend::c::ir::{Dim, Fill, IExpr, VarRef};
use crate::frontend::c::program::Program;
use crate::frontend::c::trace::{Element, NondetValue};
use crate::frontend::c::types::CType;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::collections::{HashMap, VecDeque};

/// Like [`super::run_traced`], with the nondet values as a list: per site in order, and the
/// elements of uninitialised arrays by (site, instance, element).
pub fn run_given(
    p: &Program,
    values: &[NondetValue],
    chooser: &mut dyn Chooser,
    budget: Budget,
    line_of: &dyn Fn(usize) -> usize,
) -> Finished {
    let (queues, elements) = split_values(values);
    run_full(p, queues, elements, chooser, budget, line_of)
}

/// The nondet values of a list as the machine takes them: per site a queue, and the elements
/// of uninitialised arrays by (site, instance, element).
#[allow(clippy::type_complexity)]
pub(super) fn split_values(
    values: &[NondetValue],
) -> (
    HashMap<usize, VecDeque<BigInt>>,
    HashMap<(usize, usize, Option<BigInt>), BigInt>,
) {
    let mut queues: HashMap<usize, VecDeque<_>> = HashMap::new();
    let mut elements = HashMap::new();
    for v in values {
        match &v.element {
            None => queues.entry(v.site).or_default().push_back(v.value.clone()),
            Some(e) => {
                elements.insert((v.site, e.instance, e.index.clone()), v.value.clone());
            }
        }
    }
    (queues, elements)
}

/// An array's value.
#[derive(Clone, Debug)]
pub(super) struct ArrayVal {
    /// The sizes of its dimensions.
    dims: Vec<BigInt>,
    /// The elements set or read so far.
    pub(super) elems: HashMap<BigInt, BigInt>,
    /// What the other elements hold: zero, or (uninitialised) values still to be picked.
    fill: Option<BigInt>,
    /// For an uninitialised array: its declaration's nondet site and which execution of it.
    origin: (usize, usize),
    /// The element type.
    ty: CType,
}

/// The global arrays at the start of a run.
pub(super) fn globals(p: &Program) -> HashMap<usize, ArrayVal> {
    let mut out = HashMap::new();
    for (g, info) in p.globals.iter().enumerate() {
        if !info.is_array() {
            continue;
        }
        let dims = info
            .dims
            .iter()
            .map(|d| match d {
                Dim::Const(n) => n.clone(),
                Dim::Var(_) => BigInt::zero(), // not made by the resolver
            })
            .collect();
        let elems = p.global_elems[g].iter().cloned().collect();
        let fill = Some(p.global_init[g].clone());
        let ty = info.ty;
        let origin = (0, 0);
        out.insert(
            g,
            ArrayVal {
                dims,
                elems,
                fill,
                origin,
                ty,
            },
        );
    }
    out
}

impl Machine<'_> {
    fn array(&self, var: VarRef) -> Run<&ArrayVal> {
        let a = match var {
            VarRef::Global(g) => self.global_arrays.get(&g),
            VarRef::Local(l) => self.frames.last().and_then(|f| f.get(&l)),
        };
        a.ok_or_else(|| Outcome::Stuck("an array used before its declaration".to_owned()))
    }

    pub(super) fn array_mut(&mut self, var: VarRef) -> Run<&mut ArrayVal> {
        let a = match var {
            VarRef::Global(g) => self.global_arrays.get_mut(&g),
            VarRef::Local(l) => self.frames.last_mut().and_then(|f| f.get_mut(&l)),
        };
        a.ok_or_else(|| Outcome::Stuck("an array used before its declaration".to_owned()))
    }

    /// Evaluates the indices of an access to `var` and checks each against its dimension;
    /// gives the row-major element number.
    pub(super) fn element(
        &mut self,
        f: usize,
        var: VarRef,
        index: &[IExpr],
        e: &IExpr,
        locals: &mut Vec<BigInt>,
    ) -> Run<BigInt> {
        let mut vals = vec![];
        for i in index {
            vals.push(self.expr(f, i, locals)?);
        }
        let dims = self.array(var)?.dims.clone();
        let mut flat = BigInt::zero();
        for (i, d) in vals.iter().zip(&dims) {
            if i.is_negative() || i >= d {
                return Err(self.ub("array index out of bounds", e.span.start));
            }
            flat = flat * d + i;
        }
        Ok(flat)
    }

    /// Element `k` of `var` (picked now if it is an uninitialised one never read).
    pub(super) fn read(&mut self, var: VarRef, k: &BigInt) -> Run<BigInt> {
        let a = self.array(var)?;
        if let Some(v) = a.elems.get(k).or(a.fill.as_ref()) {
            return Ok(v.clone());
        }
        let ((site, instance), ty) = (a.origin, a.ty);
        let given = self
            .elements
            .get(&(site, instance, Some(k.clone())))
            .or_else(|| self.elements.get(&(site, instance, None)))
            .cloned();
        let v = given.unwrap_or_else(|| self.chooser.choose(site, ty));
        let v = ty.convert(&v);
        self.consumed.push(NondetValue {
            site,
            value: v.clone(),
            element: Some(Element {
                instance,
                index: Some(k.clone()),
            }),
        });
        self.array_mut(var)?.elems.insert(k.clone(), v.clone());
        Ok(v)
    }

    /// `a[i] = value` (see [`crate::frontend::c::ir::IExprKind::SetElem`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn update(
        &mut self,
        f: usize,
        var: VarRef,
        index: &[IExpr],
        value: &IExpr,
        post: bool,
        e: &IExpr,
        locals: &mut Vec<BigInt>,
    ) -> Run<BigInt> {
        let k = self.element(f, var, index, e, locals)?;
        let old = if post {
            Some(self.read(var, &k)?)
        } else {
            None
        };
        self.current.push((var, k.clone()));
        let new = self.expr(f, value, locals);
        self.current.pop();
        let new = new?;
        self.array_mut(var)?.elems.insert(k, new.clone());
        Ok(old.unwrap_or(new))
    }

    /// A local array's declaration: sizes checked, initialiser evaluated, array made.
    pub(super) fn declare_array(
        &mut self,
        f: usize,
        var: VarRef,
        init: &[(BigInt, IExpr)],
        fill: Fill,
        e: &IExpr,
        locals: &mut Vec<BigInt>,
    ) -> Run<()> {
        let info = self.p.var(f, var);
        let mut dims = vec![];
        for d in &info.dims {
            let n = match d {
                Dim::Const(n) => n.clone(),
                Dim::Var(r) => self.get(*r, locals),
            };
            if !n.is_positive() {
                return Err(self.ub("array of non-positive size", e.span.start));
            }
            dims.push(n);
        }
        let ty = info.ty;
        let mut elems = HashMap::new();
        for (k, x) in init {
            let v = self.expr(f, x, locals)?;
            elems.insert(k.clone(), v);
        }
        let (fill, origin) = match fill {
            Fill::Zero => (Some(BigInt::zero()), (0, 0)),
            Fill::Any(site) => {
                let count = self.instances.entry(site).or_insert(0);
                let instance = *count;
                *count += 1;
                (None, (site, instance))
            }
        };
        let a = ArrayVal {
            dims,
            elems,
            fill,
            origin,
            ty,
        };
        match var {
            VarRef::Global(g) => {
                self.global_arrays.insert(g, a);
            }
            VarRef::Local(l) => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.insert(l, a);
                }
            }
        }
        Ok(())
    }
}
