//! Expressions of `main` read into pointer statements (see `lower.rs`; their types in
//! `lower_types.rs`, conditions in `lower_cond.rs`): pointer expressions in three-address
//! form through temporaries, integer expressions reduced to the dereferences they make (and
//! to the tracked values they set).
//!
//! Must not: evaluate integers (they are abstracted away), or accept an expression whose
//! effect on the heap it does not model.

use super::super::ast::{BinOp, Expr, ExprKind, Span, Spec, UnOp};
use super::lower::{Lower, Name};
use super::pir::{Ending, IntVal, Op, Operand, Storage, Var};

/// Built-in functions whose calls are integer values with no effect on the heap.
fn is_nondet(name: &str) -> bool {
    name.starts_with("__VERIFIER_nondet_") || super::super::resolve::nondet_by_convention(name)
}

impl Lower {
    /// The struct a field access `base->f` (`arrow`) or `base.f` reads from: the pointer
    /// variable holding its address and its struct type.
    pub(super) fn base_var(&mut self, base: &Expr, arrow: bool) -> Result<(Var, usize), String> {
        if !arrow {
            return self.place(base);
        }
        match self.ptr(base)? {
            (Operand::Var(v), Some(t)) => Ok((v, t)),
            // `((struct T *)NULL)->f`: a dereference of a temporary holding null, a fault
            // wherever it is reached.
            (Operand::Null, _) => match &base.kind {
                ExprKind::Cast(tn, _) => {
                    let t = self
                        .type_name(tn)?
                        .ok_or("a cast of a pointer to an integer")?;
                    let v = self.temp();
                    self.edge(Op::Set(v, Operand::Null), base.span);
                    Ok((v, t))
                }
                _ => Err("a dereference of a null constant".into()),
            },
            _ => Err("a dereference of a null constant".into()),
        }
    }

    /// Whether a `malloc`/`calloc` call allocates one block of struct `t`: `malloc(sizeof(T))`,
    /// `malloc(sizeof *p)`, `calloc(1, sizeof(T))`; returns whether it is zeroed.
    pub(super) fn allocation(&mut self, e: &Expr, t: usize) -> Result<Option<bool>, String> {
        let e = match &e.kind {
            // A cast to another type (`(void *)0`, which has no struct) is no allocation of `t`.
            ExprKind::Cast(tn, inner) if self.type_name(tn).ok().flatten() == Some(t) => inner,
            _ => e,
        };
        let ExprKind::Call(f, args) = &e.kind else {
            return Ok(None);
        };
        let ExprKind::Ident(name) = &f.kind else {
            return Ok(None);
        };
        let size = match (name.as_str(), args.as_slice()) {
            ("malloc", [s]) => (s, false),
            ("calloc", [n, s]) | ("calloc", [s, n]) if matches!(&n.kind, ExprKind::Int(x) if x == "1") => {
                (s, true)
            }
            ("malloc" | "calloc", _) => return Err("an allocation of another size".into()),
            _ => return Ok(None),
        };
        let of = match &size.0.kind {
            ExprKind::SizeofType(tn) => {
                let base = self.base_type(&tn.specs)?;
                (tn.pointers == 0 && base.1 == 0)
                    .then_some(base.0)
                    .flatten()
            }
            // `sizeof *p`, `sizeof *p->f`: the struct the pointer expression points to (its
            // operand is not evaluated).
            ExprKind::SizeofExpr(x) => match &x.kind {
                ExprKind::Unary(UnOp::Deref, p) => self.ptr_struct(p),
                _ => None,
            },
            _ => None,
        };
        if of != Some(t) {
            return Err("an allocation whose size is not its pointer's struct".into());
        }
        Ok(Some(size.1))
    }

    /// Whether `e` is a null pointer constant (`NULL`, `0`, a cast of one).
    pub(super) fn is_null(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => n == "NULL" && self.lookup(n).is_none(),
            ExprKind::Int(t) => is_zero(t),
            ExprKind::Cast(_, inner) => self.is_null(inner),
            _ => false,
        }
    }

    /// `v = e` for a pointer variable `v` to struct `t`.
    pub(super) fn assign_var(
        &mut self,
        v: Var,
        t: usize,
        e: &Expr,
        span: Span,
    ) -> Result<(), String> {
        let mark = self.temps.len();
        if self.assign_container(v, t, e, span)? {
            self.release(mark, span);
            return Ok(());
        }
        let mut copied = None;
        if let Some(zeroed) = self.allocation(e, t)? {
            self.alloc(v, t, Storage::Heap, zeroed, span);
        } else if let ExprKind::Member(b, f, arrow) = &e.kind {
            let (bv, bt) = self.base_var(b, *arrow)?;
            let (i, ft) = self
                .field(bt, f)?
                .ok_or("an integer assigned to a pointer")?;
            if ft != t {
                return Err("a pointer of another struct type".into());
            }
            self.edge(Op::Load(v, bv, i), span);
        } else {
            let (op, ot) = self.ptr(e)?;
            if ot.is_some_and(|ot| ot != t) {
                return Err("a pointer of another struct type".into());
            }
            if let Operand::Var(w) = op {
                copied = Some(w);
            }
            self.edge(Op::Set(v, op), span);
        }
        self.update_shadows(v, copied, span);
        self.release(mark, span);
        Ok(())
    }

    /// The pointer `e` stores into a place of struct type `t` (a field, or the field `*pp`
    /// names): a fresh block for an allocation, else `e` as a pointer, which must not point to
    /// another struct type.
    pub(super) fn stored_pointer(&mut self, e: &Expr, t: usize) -> Result<Operand, String> {
        if let Some(zeroed) = self.allocation(e, t)? {
            let n = self.temp();
            self.alloc(n, t, Storage::Heap, zeroed, e.span);
            return Ok(Operand::Var(n));
        }
        match self.ptr(e)? {
            (_, Some(et)) if et != t => Err("a pointer of another struct type".into()),
            (value, _) => Ok(value),
        }
    }

    /// The value of a pointer expression: an operand (a temporary when needed) and its struct
    /// type (`None` for a null constant).
    pub(super) fn ptr(&mut self, e: &Expr) -> Result<(Operand, Option<usize>), String> {
        if self.is_null(e) {
            return Ok((Operand::Null, None));
        }
        if let Some((v, t)) = self.alias_target(e) {
            return Ok((Operand::Var(v), Some(t)));
        }
        match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Ptr(v, t)) => Ok((Operand::Var(v), Some(t))),
                _ => Err(format!("`{n}` as a pointer")),
            },
            ExprKind::Member(b, f, arrow) => {
                let (bv, bt) = self.base_var(b, *arrow)?;
                let (i, ft) = self.field(bt, f)?.ok_or("an integer field as a pointer")?;
                let t = self.temp();
                self.edge(Op::Load(t, bv, i), e.span);
                Ok((Operand::Var(t), Some(ft)))
            }
            ExprKind::Cast(tn, inner) => {
                let to = self
                    .type_name(tn)?
                    .ok_or("a cast of a pointer to an integer")?;
                if let Some((src, _, pt)) = self.container_of(e, to)? {
                    let t = self.temp();
                    self.edge(Op::Container(t, src, pt), e.span);
                    return Ok((Operand::Var(t), Some(to)));
                }
                if let Some(zeroed) = self.allocation(inner, to)? {
                    let t = self.temp();
                    self.alloc(t, to, Storage::Heap, zeroed, e.span);
                    return Ok((Operand::Var(t), Some(to)));
                }
                let (op, ot) = self.ptr(inner)?;
                if ot.is_some_and(|ot| ot != to) {
                    return Err("a cast between struct pointer types".into());
                }
                Ok((op, Some(to)))
            }
            ExprKind::Assign(None, lhs, rhs) => {
                self.assign(lhs, rhs, false, e.span)?;
                self.ptr(lhs)
            }
            ExprKind::Unary(UnOp::Deref, p) if self.field_ptr(p).is_some() => {
                let (v, tag, t) = self.field_ptr(p).expect("tested");
                let out = self.load_field_ptr(v, tag, t, e.span);
                Ok((Operand::Var(out), Some(t)))
            }
            // `&s`, `&x->head`, `&*p`: the node of a struct lvalue.
            ExprKind::Unary(UnOp::AddrOf, x) => {
                let (v, t) = self.place(x)?;
                Ok((Operand::Var(v), Some(t)))
            }
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.ptr(b)
            }
            ExprKind::Cond(c, a, b) => {
                let (al, bl, join) = (self.loc(), self.loc(), self.loc());
                let t = self.temp();
                self.cond(c, al, bl)?;
                let mut ty = None;
                for (l, x) in [(al, a), (bl, b)] {
                    self.cur = l;
                    let mark = self.temps.len();
                    let (op, xt) = self.ptr(x)?;
                    if ty.is_some() && xt.is_some() && ty != xt {
                        return Err("a conditional between struct pointer types".into());
                    }
                    ty = ty.or(xt);
                    self.edge(Op::Set(t, op), x.span);
                    self.release(mark, x.span);
                    self.edge_to(Op::Skip, x.span, join);
                }
                self.cur = join;
                Ok((Operand::Var(t), ty))
            }
            ExprKind::Call(f, args) => match &f.kind {
                ExprKind::Ident(name) if self.returns.contains_key(name) => {
                    match self.inline(name, args, e.span)? {
                        Some((r, t)) => Ok((Operand::Var(r), Some(t))),
                        None => Err(format!("a pointer returned by a call of `{name}`")),
                    }
                }
                ExprKind::Ident(name) => Err(format!("a pointer returned by a call of `{name}`")),
                _ => Err("a pointer returned by a call".to_owned()),
            },
            _ => Err("a pointer expression of this form".into()),
        }
    }

    /// Whether `e` is a pointer expression (by its form; the resolver typed it already).
    pub(super) fn is_ptr(&self, e: &Expr) -> bool {
        if self.alias_target(e).is_some() {
            return true;
        }
        match &e.kind {
            ExprKind::Ident(n) => matches!(self.lookup(n), Some(Name::Ptr(..))) || self.is_null(e),
            ExprKind::Member(..) => self.ptr_struct(e).is_some(),
            ExprKind::Unary(UnOp::AddrOf, x) => self.place_struct(x).is_some(),
            ExprKind::Unary(UnOp::Deref, p) => self.field_ptr(p).is_some(),
            ExprKind::Cast(tn, _) => {
                tn.pointers > 0
                    || matches!(tn.specs.words.first(), Some((Spec::Named(n), _)) if self.typedefs.get(n).is_some_and(|d| d.1 > 0))
            }
            ExprKind::Assign(_, lhs, _) => self.is_ptr(lhs),
            ExprKind::Call(f, _) => matches!(&f.kind, ExprKind::Ident(n)
                if n == "malloc" || n == "calloc" || self.returns.contains_key(n)),
            ExprKind::Comma(_, b) => self.is_ptr(b),
            ExprKind::Cond(_, a, b) => self.is_ptr(a) || self.is_ptr(b),
            _ => false,
        }
    }

    /// The struct a pointer expression points to, by its form (`None`: unknown).
    pub(super) fn ptr_struct(&self, e: &Expr) -> Option<usize> {
        if let Some((_, t)) = self.alias_target(e) {
            return Some(t);
        }
        match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Ptr(_, t)) => Some(t),
                _ => None,
            },
            ExprKind::Member(b, f, arrow) => {
                let t = match arrow {
                    true => self.ptr_struct(b)?,
                    false => self.place_struct(b)?,
                };
                self.records[t]
                    .pointers
                    .iter()
                    .find(|(n, _)| n == f)
                    .map(|p| p.1)
            }
            ExprKind::Unary(UnOp::AddrOf, x) => self.place_struct(x),
            ExprKind::Unary(UnOp::Deref, p) => self.field_ptr(p).map(|f| f.2),
            _ => None,
        }
    }

    /// `lhs = rhs`.
    /// `lhs = rhs` (`compound`: `lhs op= rhs`).
    fn assign(&mut self, lhs: &Expr, rhs: &Expr, compound: bool, span: Span) -> Result<(), String> {
        if let Some((v, t)) = self.alias_target(lhs).filter(|_| !compound) {
            return self.assign_var(v, t, rhs, span);
        }
        if let ExprKind::Unary(UnOp::Deref, p) = &lhs.kind {
            if let Some((v, tag, t)) = self.field_ptr(p).filter(|_| !compound) {
                return self.store_field_ptr(v, tag, t, rhs, span);
            }
        }
        match &lhs.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Ptr(v, t)) => self.assign_var(v, t, rhs, span),
                Some(Name::FieldPtr(v, tag, t)) if !compound => {
                    self.set_field_ptr(v, tag, t, rhs, span)
                }
                Some(Name::Data) => self.data(rhs),
                Some(Name::Int(i)) if compound => {
                    self.data(rhs)?;
                    self.edge(Op::SetInt(i, IntVal::Any), span);
                    Ok(())
                }
                Some(Name::Int(i)) => self.set_int(i, rhs, span),
                _ => Err(format!("an assignment to `{n}`")),
            },
            ExprKind::Member(b, f, arrow) => {
                let (bv, bt) = self.base_var(b, *arrow)?;
                match self.field(bt, f)? {
                    Some((i, ft)) => {
                        let op = self.stored_pointer(rhs, ft)?;
                        self.edge(Op::Store(bv, i, op), span);
                        Ok(())
                    }
                    None => {
                        if self.records[bt].opaque.contains(f) {
                            if compound || !self.is_null(rhs) {
                                return Err(format!(
                                    "a store into the field `{f}`, which points to no struct"
                                ));
                            }
                            self.edge(Op::Check(bv), span);
                            return Ok(());
                        }
                        self.data(rhs)?;
                        let value = if compound {
                            IntVal::Any
                        } else {
                            self.int_val(rhs)
                        };
                        let op = match self.data_field(bt, f) {
                            Some(d) => Op::SetData(bv, d, value),
                            None => Op::Check(bv),
                        };
                        self.edge(op, span);
                        Ok(())
                    }
                }
            }
            _ => Err("an assignment to this kind of place".into()),
        }
    }

    /// An expression evaluated for its effects.
    pub(super) fn effect(&mut self, e: &Expr) -> Result<(), String> {
        if self.is_ptr(e) && !matches!(e.kind, ExprKind::Assign(..)) {
            return self.ptr(e).map(|_| ());
        }
        self.data(e)
    }

    /// An integer expression: only its dereferences and pointer statements matter.
    pub(super) fn data(&mut self, e: &Expr) -> Result<(), String> {
        match &e.kind {
            ExprKind::Int(_)
            | ExprKind::Char(_)
            | ExprKind::Float
            | ExprKind::SizeofType(_)
            | ExprKind::SizeofExpr(_) => Ok(()),
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Data | Name::Int(_) | Name::Ptr(..) | Name::Const(_)) => Ok(()),
                _ if self.is_null(e) => Ok(()),
                _ => Err(format!("the name `{n}`")),
            },
            ExprKind::Member(b, f, arrow) => {
                let (bv, bt) = self.base_var(b, *arrow)?;
                match self.field(bt, f)? {
                    Some((i, _)) => {
                        let t = self.temp();
                        self.edge(Op::Load(t, bv, i), e.span);
                    }
                    None => self.edge(Op::Check(bv), e.span),
                }
                Ok(())
            }
            ExprKind::Binary(BinOp::And | BinOp::Or, ..) | ExprKind::Unary(UnOp::Not, _) => {
                let join = self.loc();
                self.cond(e, join, join)?;
                self.cur = join;
                Ok(())
            }
            ExprKind::Binary(op, a, b) => {
                let cmp = matches!(
                    op,
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                );
                for x in [a, b] {
                    if self.is_ptr(x) {
                        if !cmp {
                            return Err("pointer arithmetic".into());
                        }
                        self.ptr(x)?;
                    } else {
                        self.data(x)?;
                    }
                }
                Ok(())
            }
            ExprKind::Unary(UnOp::Neg | UnOp::Plus | UnOp::BitNot, a) => {
                if self.is_ptr(a) {
                    return Err("arithmetic on a pointer".into());
                }
                self.data(a)
            }
            ExprKind::Unary(..) => Err("`*` or `&` outside `->`".into()),
            ExprKind::Assign(op, lhs, rhs) => {
                if op.is_some() && self.is_ptr(lhs) {
                    return Err("pointer arithmetic".into());
                }
                self.assign(lhs, rhs, op.is_some(), e.span)
            }
            ExprKind::IncDec(_, _, x) => match &x.kind {
                ExprKind::Ident(n) => match self.lookup(n) {
                    Some(Name::Data) => Ok(()),
                    Some(Name::Int(i)) => {
                        self.edge(Op::SetInt(i, IntVal::Any), e.span);
                        Ok(())
                    }
                    _ => Err("`++`/`--` on this".into()),
                },
                ExprKind::Member(b, f, arrow) => {
                    let (bv, bt) = self.base_var(b, *arrow)?;
                    if self.field(bt, f)?.is_some() || self.records[bt].opaque.contains(f) {
                        return Err("pointer arithmetic".into());
                    }
                    let op = match self.data_field(bt, f) {
                        Some(d) => Op::SetData(bv, d, IntVal::Any),
                        None => Op::Check(bv),
                    };
                    self.edge(op, e.span);
                    Ok(())
                }
                _ => Err("`++`/`--` on this".into()),
            },
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Cast(tn, a) => {
                let void = tn.pointers == 0 && tn.specs.words.iter().any(|(w, _)| *w == Spec::Void);
                if self.is_ptr(a) && !void {
                    return Err("a cast of a pointer".into());
                }
                self.type_name(tn)?;
                self.effect(a)
            }
            ExprKind::Cond(c, a, b) => {
                let (al, bl, join) = (self.loc(), self.loc(), self.loc());
                self.cond(c, al, bl)?;
                for (l, x) in [(al, a), (bl, b)] {
                    self.cur = l;
                    if self.is_ptr(x) {
                        return Err("a conditional pointer expression".into());
                    }
                    self.data(x)?;
                    self.edge_to(Op::Skip, x.span, join);
                }
                self.cur = join;
                Ok(())
            }
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.effect(b)
            }
            _ => Err("an expression of this form".into()),
        }
    }

    /// A call evaluated for its effects.
    fn call(&mut self, f: &Expr, args: &[Expr], span: Span) -> Result<(), String> {
        let ExprKind::Ident(name) = &f.kind else {
            return Err("a call through an expression".into());
        };
        if self.diverging.contains(name) {
            for a in args {
                self.data(a)?;
            }
            self.cur = self.loc(); // never returns: nothing after it is reached
            return Ok(());
        }
        if self.inlinable(name) {
            return self.inline(name, args, span).map(|_| ());
        }
        match (name.as_str(), args) {
            (n, []) if is_nondet(n) => Ok(()),
            ("free", [p]) => {
                let mark = self.temps.len();
                match self.ptr(p)? {
                    (Operand::Var(v), Some(t)) => self.free(v, t, span),
                    (Operand::Null, _) => {}
                    _ => return Err("`free` of this".into()),
                }
                self.release(mark, span);
                Ok(())
            }
            ("abort" | "exit" | "reach_error" | "__VERIFIER_error" | "__assert_fail", _) => {
                for a in args {
                    if !matches!(a.kind, ExprKind::Str) {
                        self.data(a)?;
                    }
                }
                let ending = match name.as_str() {
                    "abort" | "exit" => Ending::Abort,
                    _ => Ending::Error,
                };
                self.edge(Op::Exit(ending), span);
                self.cur = self.loc();
                Ok(())
            }
            ("__VERIFIER_assume" | "assume_abort_if_not", [c]) => {
                // Executions where `c` is false stop with no check.
                let (go, stop) = (self.loc(), self.loc());
                self.cond(c, go, stop)?;
                self.cur = go;
                Ok(())
            }
            ("__VERIFIER_assert" | "assert", [c]) => {
                // A failing assertion ends the execution (the violation under unreach-call,
                // an abnormal end under a memory property).
                let (go, fail) = (self.loc(), self.loc());
                self.cond(c, go, fail)?;
                self.cur = fail;
                self.edge(Op::Exit(Ending::Error), span);
                self.cur = go;
                Ok(())
            }
            _ => Err(format!("a call of `{name}`")),
        }
    }
}

/// Whether a name is one of the built-ins whose definitions the front end ignores.
pub(super) fn is_builtin(name: &str) -> bool {
    matches!(
        name,
        "reach_error"
            | "__VERIFIER_error"
            | "__VERIFIER_assert"
            | "__VERIFIER_assume"
            | "assume_abort_if_not"
            | "abort"
            | "exit"
            | "assert"
            | "__assert_fail"
    ) || is_nondet(name)
}

/// Whether an integer literal's text is zero.
pub(super) fn is_zero(text: &str) -> bool {
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    !digits.is_empty() && digits.chars().all(|c| c == '0')
}
