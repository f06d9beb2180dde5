//! `container_of`: from a pointer to a struct field back to its container (a part of
//! `lower.rs`), the idiom of Linux lists, whose links are `struct list_head` fields of the
//! items they chain:
//!
//! ```c
//! now = (struct my_item *)((char *)now->link.next - __builtin_offsetof(struct my_item, link));
//! ```
//!
//! A program that uses `__builtin_offsetof` gets parts that point back to their container:
//! the part copy of `T.f` has one more field, after its parts, that the allocation sets to
//! the container and no statement of the program can write ([`Op::Store`] into it only at
//! the allocation). The expression above is then [`Op::Container`]: a load of that field,
//! when the node is the part `f` of a `T`.
//!
//! The loop that walks such a list stops when `&now->link` is the list's head again, a
//! `struct list_head` variable that is no part of any `T`: `now` is then no pointer to a
//! node at all (in C, an address just below the head), yet `&now->link` is the head. So each
//! pointer variable `v` of a struct type with parts has, per part `f`, a shadow variable
//! holding `&v->f`: `v = container_of(e, T, f)` sets it to `e` (and `v` to the container,
//! or undefined where `e` is no such part: any dereference of `v` is then a fault), every
//! copy `v = w` to `w`'s shadow, every other assignment of `v` to `v`'s part ([`Op::PartOf`]: undefined where `v` points to no
//! node, which only adds executions: a comparison with an undefined pointer takes both
//! branches, a dereference is a fault), and `&v->f` reads the shadow. The shadow stays
//! exact as long as every write of `v` goes through [`Lower::assign_var`]: taking the
//! address of such a `v` is refused.
//!
//! Must not: accept pointer arithmetic other than this exact form, or a `container_of`
//! whose field is not a struct field of the type it names.

use super::super::ast::{BinOp, Expr, ExprKind, Item, Span, Spec, TypeName};
use super::lower::{Lower, Name};
use super::pir::{Op, Operand, Storage, Var};

/// Whether an expression of the program (in any function) is a `__builtin_offsetof`.
pub(super) fn uses_offsetof(items: &[Item]) -> bool {
    let mut found = false;
    let mut expr = |e: &Expr| {
        found |= e.any(&mut |x| matches!(x.kind, ExprKind::Offsetof(..)));
    };
    for item in items {
        match item {
            Item::Func(f) => f.body.each_expr(&mut expr),
            Item::Decl(d) => d
                .items
                .iter()
                .filter_map(|i| i.init.as_ref())
                .for_each(&mut expr),
        }
    }
    found
}

impl Lower {
    /// The shadow variables of the pointer variable `v` (named `name`, to struct `t`), one per
    /// part of `t`, when the program uses `container_of`.
    pub(super) fn make_shadows(&mut self, v: Var, t: usize, name: &str) -> Vec<Var> {
        if !self.containers || self.records[t].parts.is_empty() {
            return vec![];
        }
        let first = self.records[t].pointers.len();
        let parts = self.records[t].parts.clone();
        let shadows: Vec<(usize, Var)> = parts
            .iter()
            .enumerate()
            .map(|(k, (f, _))| (first + k, self.new_var(format!("&{name}->{f}"))))
            .collect();
        let vars = shadows.iter().map(|s| s.1).collect();
        self.shadows.insert(v, shadows);
        vars
    }

    /// `&b->f` read from a shadow: `b` a pointer variable with one for its part `f`; the
    /// shadow and the part's struct type.
    pub(super) fn shadow_place(&self, b: &Expr, f: &str) -> Option<(Var, usize)> {
        let ExprKind::Ident(n) = &b.kind else {
            return None;
        };
        let Some(Name::Ptr(v, t)) = self.lookup(n) else {
            return None;
        };
        let (i, pt) = self.part(t, f)?;
        let s = self.shadows.get(&v)?.iter().find(|s| s.0 == i)?;
        Some((s.1, pt))
    }

    /// After `v` was assigned anything but a `container_of`: its shadows follow its parts,
    /// or are `w`'s when `v = w` for a variable `w` with shadows of its own (`now = next`
    /// after `next = container_of(head, ...)`: `&now->link` is the head, as `&next->link`).
    pub(super) fn update_shadows(&mut self, v: Var, copied: Option<Var>, span: Span) {
        let from = copied.and_then(|w| self.shadows.get(&w).cloned());
        for (i, s) in self.shadows.get(&v).cloned().unwrap_or_default() {
            match from.as_ref().and_then(|f| f.iter().find(|e| e.0 == i)) {
                Some(&(_, ws)) => self.edge(Op::Set(s, Operand::Var(ws)), span),
                None => self.edge(Op::PartOf(s, v, i), span),
            }
        }
    }

    /// `v = container_of(e, T, f)` when `e` (of struct `t`'s pointer type) has that form:
    /// `v` becomes `e`'s container, its shadow for `f` becomes `e`. `Ok(false)`: not that
    /// form.
    pub(super) fn assign_container(
        &mut self,
        v: Var,
        t: usize,
        e: &Expr,
        span: Span,
    ) -> Result<bool, String> {
        let Some((src, i, pt)) = self.container_of(e, t)? else {
            return Ok(false);
        };
        self.edge(Op::Container(v, src, pt), span);
        for (j, s) in self.shadows.get(&v).cloned().unwrap_or_default() {
            match j == i {
                true => self.edge(Op::Set(s, Operand::Var(src)), span),
                false => self.edge(Op::PartOf(s, v, j), span),
            }
        }
        Ok(true)
    }

    /// A `container_of(p, T, f)` expression pointing to struct `t`: `p` evaluated into a
    /// variable (a temporary when needed), `f`'s field index in `t` and the part copy of
    /// `T.f` (whose last field points back). `Ok(None)`: not that form.
    pub(super) fn container_of(
        &mut self,
        e: &Expr,
        t: usize,
    ) -> Result<Option<(Var, usize, usize)>, String> {
        let ExprKind::Cast(to, inner) = &e.kind else {
            return Ok(None);
        };
        let ExprKind::Binary(BinOp::Sub, bytes, off) = &inner.kind else {
            return Ok(None);
        };
        let (ExprKind::Cast(ch, p), ExprKind::Offsetof(of, f)) = (&bytes.kind, &off.kind) else {
            return Ok(None);
        };
        let is_char = ch.pointers == 1 && ch.specs.words.iter().any(|(w, _)| *w == Spec::Char);
        if !is_char {
            return Err("pointer arithmetic other than `container_of`".into());
        }
        let (Some(to), Some(of)) = (self.type_name(to)?, self.offsetof_type(of)?) else {
            return Err("a `container_of` of a type other than a struct".into());
        };
        if to != of || to != t {
            return Err("a `container_of` cast to another struct type".into());
        }
        let (i, pt) = self
            .part(t, f)
            .ok_or_else(|| format!("`__builtin_offsetof` of `{f}`, which is no struct field"))?;
        match self.ptr(p)? {
            (Operand::Var(src), Some(st)) if st == pt => Ok(Some((
                src,
                i,
                self.copy_of(pt, Storage::Part, Some((t, i))),
            ))),
            _ => Err("a `container_of` of a pointer of another type".into()),
        }
    }

    /// The struct type `__builtin_offsetof` names (not a pointer).
    fn offsetof_type(&mut self, tn: &TypeName) -> Result<Option<usize>, String> {
        let base = self.base_type(&tn.specs)?;
        Ok(match (base, tn.pointers) {
            ((Some(t), 0), 0) => Some(t),
            _ => None,
        })
    }
}
