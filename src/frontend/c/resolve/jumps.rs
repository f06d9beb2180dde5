//! Labels, `goto`, `switch`, `case` and `default`, and the statements `break` and `continue`
//! may leave: the resolver's side of the jumps the CFA lowers. Part of [`super`].
//!
//! Must not: lower control flow (the CFA does), or look at expressions beyond a case's value.

use super::super::ast::{Expr, Span, Stmt};
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::expr::{const_value, convert};
use super::Resolver;
use num_bigint::BigInt;

/// The cases of a switch statement being resolved.
pub(super) struct SwitchCtx {
    /// The promoted type of the controlling expression.
    pub(super) ty: CType,
    pub(super) cases: Vec<(BigInt, usize)>,
    pub(super) default: Option<usize>,
}

impl Resolver {
    /// The index of the label `name` of the current function (created on first mention).
    pub(super) fn label(&mut self, name: &str) -> usize {
        if let Some(&i) = self.labels.get(name) {
            return i;
        }
        let i = self.label_defs.len();
        self.label_defs.push((name.to_owned(), None, None));
        self.labels.insert(name.to_owned(), i);
        i
    }

    /// A label for a `case`/`default` (no name refers to it).
    pub(super) fn switch_label(&mut self, name: String, span: Span) -> usize {
        let i = self.label_defs.len();
        self.label_defs.push((name, Some(span), None));
        i
    }

    /// `switch (e) body`: the promoted value goes to a fresh local, the body's `case` and
    /// `default` labels are collected.
    pub(super) fn switch(
        &mut self,
        e: &Expr,
        body: &Stmt,
        span: Span,
    ) -> Result<IStmtKind, CError> {
        let value = self.expr(e)?;
        let ty = value.ty.promote();
        let value = convert(value, ty);
        let var = VarRef::Local(self.locals.len());
        self.locals.push(VarInfo {
            name: format!("switch@{}", span.start),
            ty,
            span: e.span,
            dims: vec![],
        });
        self.switches.push(SwitchCtx {
            ty,
            cases: vec![],
            default: None,
        });
        let body = self.body(body, false);
        let ctx = self.switches.pop().expect("pushed above");
        let body = body?;
        let init = IStmt {
            kind: IStmtKind::Init(var, Some(value)),
            span: e.span,
        };
        let switch = IStmt {
            kind: IStmtKind::Switch {
                var,
                cases: ctx.cases,
                default: ctx.default,
                body,
            },
            span,
        };
        Ok(IStmtKind::Block(vec![init, switch]))
    }

    /// `case e:`: a label of the innermost switch.
    pub(super) fn case(&mut self, e: &Expr, span: Span) -> Result<IStmtKind, CError> {
        let v = self.expr(e)?;
        let Some(ty) = self.switches.last().map(|c| c.ty) else {
            return Err(CError::new(
                CErrorKind::Syntax,
                span,
                "`case` outside a switch statement".to_owned(),
            ));
        };
        let value = const_value(&v).ok_or_else(|| {
            CError::new(
                CErrorKind::Syntax,
                e.span,
                "a case label must be an integer constant expression".to_owned(),
            )
        })?;
        let value = ty.convert(&value);
        let label = self.switch_label(format!("case {value}"), span);
        let ctx = self.switches.last_mut().expect("checked above");
        if ctx.cases.iter().any(|(v, _)| *v == value) {
            return Err(CError::new(
                CErrorKind::Name,
                span,
                format!("duplicate case value {value}"),
            ));
        }
        ctx.cases.push((value, label));
        Ok(IStmtKind::Label(label))
    }

    /// `default:`: a label of the innermost switch.
    pub(super) fn default_label(&mut self, span: Span) -> Result<IStmtKind, CError> {
        match self.switches.last().map(|c| c.default.is_some()) {
            None => Err(CError::new(
                CErrorKind::Syntax,
                span,
                "`default` outside a switch statement".to_owned(),
            )),
            Some(true) => Err(CError::new(
                CErrorKind::Name,
                span,
                "more than one `default` in a switch statement".to_owned(),
            )),
            Some(false) => {
                let label = self.switch_label("default".to_owned(), span);
                if let Some(ctx) = self.switches.last_mut() {
                    ctx.default = Some(label);
                }
                Ok(IStmtKind::Label(label))
            }
        }
    }
}
