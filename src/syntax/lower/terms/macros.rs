//! `define-fun` macros: checked where they are defined (only earlier names visible, so no
//! macro refers to itself or a later one), lowered once over shared parameter variables, and
//! expanded by substitution into that DAG; bodies with predicate applications or quantifiers
//! are lowered again at each use, within a budget.

use super::{arguments, err, lower_sort, Env, Lowered};
use crate::syntax::ast::{self, Span};
use crate::syntax::error::{Error, ErrorKind};
use crate::term::{Sort, TermId, VarId};
use std::collections::HashMap;
use std::rc::Rc;

/// A `define-fun` macro. Its body is checked when it is defined, where only earlier names are
/// visible, so no macro can refer to itself or to a later one: expansion always terminates.
#[derive(Clone, Debug)]
pub(crate) struct Macro {
    pub(crate) params: Vec<(String, Sort)>,
    pub(crate) ret: Sort,
    pub(crate) body: Rc<ast::Term>,
    /// The body lowered once over fresh parameter variables, when it is a quantifier-free term:
    /// a use substitutes its arguments into this shared DAG, so chains of macros that use each
    /// other several times cost their DAG size, not their unfolding. `None` (a body with
    /// predicate applications or quantifiers, whose variables must be fresh at every use): the
    /// body is lowered again at each use, counted against [`MAX_MACRO_EXPANSIONS`].
    pub(crate) lowered: Option<(Vec<VarId>, TermId)>,
}

/// At most this many re-lowerings of macro bodies in one input (they can be exponential).
const MAX_MACRO_EXPANSIONS: usize = 100_000;

impl Env<'_> {
    /// The variable standing for the `i`-th parameter of sort `sort` in every macro body. Sharing
    /// them across macros makes a body that passes its parameters on to another macro the same
    /// DAG as that macro's body. Substitution is simultaneous, so sharing cannot capture.
    fn param_var(&mut self, i: usize, sort: &Sort) -> VarId {
        let store = self.store;
        *self
            .param_vars
            .entry((i, sort.clone()))
            .or_insert_with(|| store.new_var(&format!("@param{i}"), sort.clone()))
    }

    /// Checks and records a `define-fun`. The body is lowered now, seeing the parameters and the
    /// names defined before (not the macro itself: SMT-LIB definitions are not recursive).
    pub(crate) fn define(&mut self, def: &ast::FunDef) -> Result<(), Error> {
        let mut params = Vec::new();
        let mut scope = HashMap::new();
        let mut vars = Vec::new();
        for (i, (sym, so)) in def.params.iter().enumerate() {
            let sort = lower_sort(self.store, so)?;
            let v = self.param_var(i, &sort);
            scope.insert(sym.name.clone(), Lowered::Term(self.store.var(v)));
            params.push((sym.name.clone(), sort));
            vars.push(v);
        }
        let ret = lower_sort(self.store, &def.ret)?;
        let saved = std::mem::replace(&mut self.scopes, vec![scope]);
        let quantifiers = self.quantifiers;
        let body = self.lower(&def.body);
        self.scopes = saved;
        let lowered = match body? {
            Lowered::Term(x) => {
                let x = self.coerce(x, &ret, def.body.span)?;
                (self.quantifiers == quantifiers).then_some((vars, x))
            }
            Lowered::Formula(_) if ret != Sort::Bool => {
                return Err(err(
                    ErrorKind::Sort,
                    def.body.span,
                    format!("expected a term of sort {ret}, found Bool"),
                ))
            }
            Lowered::Formula(_) => None,
        };
        self.macros.insert(
            def.name.name.clone(),
            Macro {
                params,
                ret,
                body: Rc::new(def.body.clone()),
                lowered,
            },
        );
        Ok(())
    }

    pub(super) fn expand_macro(
        &mut self,
        name: &str,
        args: &[ast::Term],
        span: Span,
    ) -> Result<Lowered, Error> {
        let m = self.macros[name].clone();
        if m.params.len() != args.len() {
            return Err(err(
                ErrorKind::Sort,
                span,
                format!(
                    "`{name}` expects {}, got {}",
                    arguments(m.params.len()),
                    args.len()
                ),
            ));
        }
        self.used_macros.insert(name.to_owned());
        let mut lowered_args = Vec::new();
        for ((_, s), a) in m.params.iter().zip(args) {
            lowered_args.push(match self.lower(a)? {
                Lowered::Term(x) => Lowered::Term(self.coerce(x, s, a.span)?),
                f => f,
            });
        }
        if let Some((vars, body)) = &m.lowered {
            let terms: Option<HashMap<VarId, TermId>> = vars
                .iter()
                .zip(&lowered_args)
                .map(|(v, l)| match l {
                    Lowered::Term(x) => Some((*v, *x)),
                    Lowered::Formula(_) => None,
                })
                .collect();
            if let Some(map) = terms {
                // A macro whose body passes its own parameters on unchanged (`(f x)` inside
                // `(define-fun g ((x Int)) ... )`) costs nothing: parameters are shared.
                if map.iter().all(|(v, t)| self.store.as_var(*t) == Some(*v)) {
                    return Ok(Lowered::Term(*body));
                }
                return Ok(Lowered::Term(self.store.substitute(*body, &map)));
            }
        }
        self.expansions += 1;
        if self.expansions > MAX_MACRO_EXPANSIONS {
            return Err(err(
                ErrorKind::Unsupported,
                span,
                format!("more than {MAX_MACRO_EXPANSIONS} expansions of definitions with predicate applications"),
            ));
        }
        let scope = m
            .params
            .iter()
            .map(|(p, _)| p.clone())
            .zip(lowered_args)
            .collect();
        // A macro body sees only its parameters (and global names), not the caller's locals.
        let saved = std::mem::replace(&mut self.scopes, vec![scope]);
        let r = self.lower(&m.body);
        self.scopes = saved;
        let r = r?;
        match &r {
            Lowered::Term(x) => Ok(Lowered::Term(self.coerce(*x, &m.ret, span)?)),
            Lowered::Formula(_) => Ok(r),
        }
    }
}
