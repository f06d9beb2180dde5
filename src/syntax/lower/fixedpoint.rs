//! Z3's fixedpoint format (`declare-rel`, `declare-var`, `rule`, `query`), lowered to the same
//! formulas as `assert`: a rule is a clause universally quantified over the declared
//! variables, and `(query q)` is the clause `q → false`.
//!
//! This module only builds formulas; declaring predicates, clausal form and the one-query rule
//! are the script lowering's (`lower/mod.rs`).

use super::terms::{Env, Formula};
use crate::chc::System;
use crate::syntax::ast;
use crate::syntax::error::{Error, ErrorKind};

/// The variables declared by `(declare-var x S)` so far, in order.
#[derive(Default)]
pub(super) struct Vars {
    decls: Vec<(ast::Symbol, ast::Sort)>,
    /// The script uses the format (a `declare-rel` or a `rule` was seen).
    pub(super) used: bool,
}

impl Vars {
    /// Records `(declare-var x S)`; a name declared twice is an error.
    pub(super) fn declare(&mut self, name: &ast::Symbol, sort: &ast::Sort) -> Result<(), Error> {
        if self.decls.iter().any(|(n, _)| n.name == name.name) {
            return Err(Error::at(
                ErrorKind::Sort,
                name.span,
                format!("variable `{}` is already declared", name.name),
            ));
        }
        self.decls.push((name.clone(), sort.clone()));
        Ok(())
    }

    /// The formula of `(rule t)`: `t` with the declared variables bound.
    pub(super) fn rule(&self, env: &mut Env<'_>, t: &ast::Term) -> Result<Formula, Error> {
        env.with_vars(&self.decls, |env, _| env.formula(t))
    }

    /// The formula of `(query q)`: `¬q` with the declared variables bound. A bare relation
    /// name `R` of arity n stands for `R` applied to n fresh variables.
    pub(super) fn query(
        &self,
        env: &mut Env<'_>,
        system: &System,
        q: &ast::Term,
    ) -> Result<Formula, Error> {
        if let ast::TermKind::Var(ast::Ident::Simple(name)) = &q.kind {
            if let Some((p, _)) = env.preds.get(&name.name) {
                let sorts = &system.pred(*p).sorts;
                if !sorts.is_empty() {
                    let args = sorts
                        .iter()
                        .map(|s| env.store.var(env.store.new_var("query", s.clone())))
                        .collect();
                    return Ok(Formula::Not(Box::new(Formula::Atom(*p, args, q.span))));
                }
            }
        }
        let f = env.with_vars(&self.decls, |env, _| env.formula(q))?;
        Ok(Formula::Not(Box::new(f)))
    }
}
