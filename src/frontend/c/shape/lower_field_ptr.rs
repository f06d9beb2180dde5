//! Pointers to pointer fields (a part of `lower.rs`): a local `struct T **pp` that holds
//! `&x->f` for pointer fields `f` (`pp = &(*pp)->next`, the idiom that walks a list by the
//! field to update), or `&v` for a pointer variable `v` that lives at least as long as `pp`
//! (`pp = &head`), read and written through `*pp`.
//!
//! Such a variable is a pair: a pointer variable holding the node (`x`) and a tracked integer
//! (a *tag*) naming the field, one value per struct type and pointer field. `*pp` branches
//! over every pointer field to its struct type: each branch assumes that field's tag and
//! loads or stores that field of the node. Forests with different tags are never joined, so
//! the field stays known exactly. A variable `v` is one more tag, whose branch reads or
//! writes `v` itself; a null or uninitialised `pp` has a tag of its own, whose branch
//! dereferences the (null or undefined) node variable: a fault. A field of a struct type defined after some `*pp` was read, or a
//! variable whose address is taken after that, would have no branch there: the reading then
//! gives up ([`Lower::check_field_tags`]).
//!
//! Must not: give `*pp` a field other than the one `pp` was set to; accept any other use of
//! `pp` (comparisons, arithmetic, passing it to a call).

use super::super::ast::{Expr, ExprKind, Span, UnOp};
use super::lower::{Lower, Name};
use super::pir::{Cmp, Int, IntVal, Op, Operand, Var};

impl Lower {
    /// The declaration of the pointer-to-field variable `name`, pointing to fields that
    /// point to struct `t` (in the current scope).
    pub(super) fn field_ptr_var(
        &mut self,
        name: &str,
        t: usize,
        init: Option<&Expr>,
        span: Span,
    ) -> Result<(), String> {
        let v = self.new_var(format!("{name} (node)"));
        self.ints.push(format!("{name} (field)"));
        let tag = self.ints.len() - 1;
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_owned(), Name::FieldPtr(v, tag, t));
        }
        self.field_ptr_depth.insert(v, self.scopes.len() - 1);
        if let Some(vars) = self.scope_vars.last_mut() {
            vars.push(v);
        }
        match init {
            Some(e) => self.set_field_ptr(v, tag, t, e, span),
            None => {
                self.edge(Op::Kill(vec![v]), span);
                self.edge(Op::SetInt(tag, IntVal::Const(NO_PLACE)), span);
                Ok(())
            }
        }
    }

    /// `pp = e` for the pointer-to-field variable (`v`, `tag`) to fields pointing to `t`:
    /// `e` is `&x->f`, `&(*x).f`, null, or another such variable.
    pub(super) fn set_field_ptr(
        &mut self,
        v: Var,
        tag: Int,
        t: usize,
        e: &Expr,
        span: Span,
    ) -> Result<(), String> {
        let mark = self.temps.len();
        let (node, value) = match &e.kind {
            _ if self.is_null(e) => (Operand::Null, IntVal::Const(NO_PLACE)),
            ExprKind::Ident(n) => match self.lookup(n) {
                // Its variables live as long as it does: at least as long as `pp` when it
                // was declared in the same scope or an outer one.
                Some(Name::FieldPtr(w, wtag, wt))
                    if wt == t && self.field_ptr_depth.get(&w) <= self.field_ptr_depth.get(&v) =>
                {
                    (Operand::Var(w), IntVal::Int(wtag))
                }
                _ => return Err(format!("`{n}` as a pointer to a pointer field")),
            },
            ExprKind::Unary(UnOp::AddrOf, x) => {
                if let ExprKind::Ident(n) = &x.kind {
                    let w = self.address_taken(n, t, v)?;
                    self.edge(Op::Set(v, Operand::Null), span);
                    self.edge(Op::SetInt(tag, IntVal::Const(var_tag(w))), span);
                    return Ok(());
                }
                let ExprKind::Member(b, f, arrow) = &x.kind else {
                    return Err("the address of this".into());
                };
                let (bv, bt) = self.base_var(b, *arrow)?;
                let (i, ft) = self
                    .field(bt, f)?
                    .ok_or("the address of an integer field")?;
                if ft != t {
                    return Err("a pointer to a field of another struct type".into());
                }
                let k = self.field_tag(bt, i);
                (Operand::Var(bv), IntVal::Const(k))
            }
            _ => return Err("a pointer to a pointer field of this form".into()),
        };
        self.edge(Op::Set(v, node), span);
        self.edge(Op::SetInt(tag, value), span);
        self.release(mark, span);
        Ok(())
    }

    /// The pointer variable `name` (pointing to `t`) whose address the pointer-to-field
    /// variable `pp` takes: registered, when it lives at least as long as `pp` (declared in
    /// the same scope or an outer one).
    fn address_taken(&mut self, name: &str, t: usize, pp: Var) -> Result<Var, String> {
        let depth = |l: &Lower| l.scopes.iter().rposition(|s| s.contains_key(name));
        let (Some(Name::Ptr(w, wt)), Some(d)) = (self.lookup(name), depth(self)) else {
            return Err(format!("the address of `{name}`"));
        };
        if wt != t {
            return Err("a pointer to a variable of another struct type".into());
        }
        if self.shadows.contains_key(&w) {
            return Err(format!(
                "the address of `{name}`, whose parts' addresses are tracked"
            ));
        }
        if self.field_ptr_depth.get(&pp).is_none_or(|&pd| d > pd) {
            return Err(format!(
                "the address of `{name}`, which dies before the pointer"
            ));
        }
        if !self.var_tags.contains(&(w, t)) {
            self.var_tags.push((w, t));
        }
        Ok(w)
    }

    /// The tag of pointer field `i` of struct `t` (registered, for the final check).
    fn field_tag(&mut self, t: usize, i: usize) -> i32 {
        if !self.field_tags.contains(&(t, i)) {
            self.field_tags.push((t, i));
        }
        tag_of(t, i)
    }

    /// The places `*pp` may be, for a pointer-to-field to fields pointing to `t`: every
    /// pointer field to `t` of the struct types read so far, and every variable whose
    /// address was taken so far, with their tags.
    fn field_cases(&mut self, t: usize) -> Vec<(i32, Case)> {
        let n = self.records.len();
        self.field_reads = Some(self.field_reads.map_or(n, |m| m.min(n)));
        let n = self.var_tags.len();
        self.var_reads = Some(self.var_reads.map_or(n, |m| m.min(n)));
        let mut cases = vec![];
        for (st, r) in self.records.iter().enumerate() {
            for (i, (_, ft)) in r.pointers.iter().enumerate() {
                if *ft == t {
                    cases.push((tag_of(st, i), Case::Field(i)));
                }
            }
        }
        for &(w, wt) in &self.var_tags {
            if wt == t {
                cases.push((var_tag(w), Case::Var(w)));
            }
        }
        // Null or not initialised: `*pp` dereferences the node variable (null or undefined).
        cases.push((NO_PLACE, Case::Nowhere));
        cases
    }

    /// `*pp` for a pointer-to-field variable named by `p`, when `p` is one: its node
    /// variable, tag and target struct type.
    pub(super) fn field_ptr(&self, p: &Expr) -> Option<(Var, Int, usize)> {
        match &p.kind {
            ExprKind::Ident(n) => match self.lookup(n)? {
                Name::FieldPtr(v, tag, t) => Some((v, tag, t)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value of `*pp`: a temporary loaded from the field the tag names.
    pub(super) fn load_field_ptr(&mut self, v: Var, tag: Int, t: usize, span: Span) -> Var {
        let out = self.temp();
        self.branch_on_tag(tag, t, span, |case| match case {
            Case::Field(i) => Op::Load(out, v, i),
            Case::Var(w) => Op::Set(out, Operand::Var(w)),
            Case::Nowhere => Op::Check(v),
        });
        out
    }

    /// `*pp = e`: the store into the field the tag names.
    pub(super) fn store_field_ptr(
        &mut self,
        v: Var,
        tag: Int,
        t: usize,
        e: &Expr,
        span: Span,
    ) -> Result<(), String> {
        let value = self.stored_pointer(e, t)?;
        self.branch_on_tag(tag, t, span, |case| match case {
            Case::Field(i) => Op::Store(v, i, value),
            Case::Var(w) => Op::Set(w, value),
            Case::Nowhere => Op::Check(v),
        });
        Ok(())
    }

    /// One branch per place `*pp` may be (for `pp`'s `tag`, to fields pointing to `t`), each assuming its tag and doing `op` of the place; they join after.
    fn branch_on_tag(&mut self, tag: Int, t: usize, span: Span, op: impl Fn(Case) -> Op) {
        let (from, join) = (self.cur, self.loc());
        for (k, case) in self.field_cases(t) {
            self.cur = from;
            self.edge(Op::AssumeInt(tag, Cmp::Eq, k), span);
            self.edge(op(case), span);
            self.edge_to(Op::Skip, span, join);
        }
        self.cur = join;
    }

    /// After the program: every field a pointer-to-field was set to belongs to a struct
    /// type read before the first `*pp` (else an execution with its tag would have no
    /// branch there).
    pub(super) fn check_field_tags(&self) -> Result<(), String> {
        let late = |&(st, _): &(usize, usize)| self.field_reads.is_some_and(|n| st >= n);
        if self.field_tags.iter().any(late) {
            return Err("a pointer to a field of a struct type defined after a `*pp`".into());
        }
        if self.var_reads.is_some_and(|n| n < self.var_tags.len()) {
            return Err("the address of a variable taken after a `*pp`".into());
        }
        Ok(())
    }
}

/// What `*pp` is under one tag.
#[derive(Clone, Copy)]
enum Case {
    /// This pointer field of the node.
    Field(usize),
    /// This pointer variable.
    Var(Var),
    /// No place: `pp` is null or not initialised, and its node variable too.
    Nowhere,
}

/// The tag of a pointer-to-field that is null or not initialised (its node variable is then
/// null or undefined, so `*pp` is a fault).
const NO_PLACE: i32 = i32::MIN + 1;

/// The tag of the pointer variable `v`: negative, distinct from the fields', from
/// [`NO_PLACE`] and from [`super::ta::ANY`].
fn var_tag(v: Var) -> i32 {
    -1 - i32::try_from(v).unwrap_or(i32::MAX - 1)
}

/// The tag of pointer field `i` of struct type `t`: distinct for distinct pairs.
fn tag_of(t: usize, i: usize) -> i32 {
    i32::try_from(t.saturating_mul(1 << 12).saturating_add(i)).unwrap_or(i32::MAX)
}
