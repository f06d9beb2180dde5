//! Struct variables and struct fields as nodes (a part of `lower.rs`).
//!
//! A struct variable `struct T s;` is a node of its own, of a copy of `T` whose storage is
//! [`Storage::Variable`], and `&s` is a pointer variable (named `&s`) that points to it for
//! its whole scope: `s.f` is `(&s)->f`. A struct field `struct T2 { struct T head; ... }` is
//! a node of a copy of `T` whose storage is [`Storage::Part`], held by its container through
//! a field after the pointer fields that no statement of the program writes: `x->head.f`
//! loads that field and accesses the part, `&x->head` is the part's node. Nodes of both
//! storages end by [`Op::Release`]: a variable's when its scope ends, a part's when its
//! container is freed or released (parts first). So `free` of a pointer to either is a
//! fault (in C, `free(&x->head)` is valid when `head` is at offset 0, and the engine then
//! does not prove the program), a pointer to one dangles after its end, and neither is a
//! leak.
//!
//! Distinct parts and containers are distinct nodes, so a comparison between `&x->head` and
//! `x` would be wrong when `head` is the first field: it needs a cast between struct pointer
//! types, which the reading refuses.
//!
//! A struct variable's initialiser list (`struct list_head h = { &h };`) zeroes the node and
//! assigns each item to its field, in declaration order or by designator.
//!
//! Must not: let the program write a part's field of its container (or a part's field back
//! to it, `lower_container.rs`), or copy a struct value (both are refused).

use super::super::ast::{Expr, ExprKind, Span, UnOp};
use super::lower::{Lower, Name};
use super::pir::{Op, Operand, Storage, Var};

impl Lower {
    /// The copy of struct type `t` (a type of the program) whose nodes live in `storage`
    /// (made once; `t` itself for the heap). `within`: for a part that points back to its
    /// container (`lower_container.rs`), the container's struct type and field index.
    pub(super) fn copy_of(
        &mut self,
        t: usize,
        storage: Storage,
        within: Option<(usize, usize)>,
    ) -> usize {
        let what = match storage {
            Storage::Heap => return t,
            Storage::Variable => "variable".to_owned(),
            Storage::Part => match within {
                Some((c, i)) => format!("part {}.{}", self.records[c].name, self.field_name(c, i)),
                None => "part".to_owned(),
            },
        };
        if let Some(&c) = self.copies.get(&(t, storage, within)) {
            return c;
        }
        let mut r = self.records[t].clone();
        r.name = format!("{} ({what})", r.name);
        r.storage = storage;
        r.container = within.map(|(c, _)| ("(container)".to_owned(), c));
        self.records.push(r);
        let c = self.records.len() - 1;
        self.copies.insert((t, storage, within), c);
        c
    }

    /// The name of field `i` (pointers, then parts) of struct `t`.
    fn field_name(&self, t: usize, i: usize) -> String {
        let r = &self.records[t];
        r.pointers
            .iter()
            .chain(&r.parts)
            .nth(i)
            .map_or_else(String::new, |f| f.0.clone())
    }

    /// `v` = a new node of struct `t` living in `storage` (`zeroed`: its pointers null),
    /// with a part node for each of its struct fields.
    pub(super) fn alloc(&mut self, v: Var, t: usize, storage: Storage, zeroed: bool, span: Span) {
        self.alloc_within(v, t, storage, None, zeroed, span);
    }

    /// [`Lower::alloc`] of a node that is the part `within` of the node `v` points to
    /// (`None`: no part, or a part that does not point back).
    fn alloc_within(
        &mut self,
        v: Var,
        t: usize,
        storage: Storage,
        within: Option<(usize, usize)>,
        zeroed: bool,
        span: Span,
    ) {
        let ty = self.copy_of(t, storage, within);
        self.edge(Op::Alloc(v, ty, zeroed), span);
        let first = self.records[t].pointers.len();
        for (k, (_, pt)) in self.records[t].parts.clone().into_iter().enumerate() {
            let mark = self.temps.len();
            let p = self.temp();
            let back = self.containers.then_some((t, first + k));
            self.alloc_within(p, pt, Storage::Part, back, zeroed, span);
            self.edge(Op::Store(v, first + k, Operand::Var(p)), span);
            if back.is_some() {
                let up = self.records[pt].pointers.len() + self.records[pt].parts.len();
                self.edge(Op::Store(p, up, Operand::Var(v)), span);
            }
            self.release(mark, span);
        }
    }

    /// The end of variables' lifetimes: struct variables' nodes are released, then the
    /// variables become undefined.
    pub(super) fn end_vars(&mut self, vars: Vec<Var>, span: Span) {
        for &v in &vars {
            if let Some(&t) = self.struct_vars.get(&v) {
                self.release_node(v, t, span);
            }
        }
        if !vars.is_empty() {
            self.edge(Op::Kill(vars), span);
        }
    }

    /// The end of the variable or part node `v` (of struct `t`) points to: its parts first.
    pub(super) fn release_node(&mut self, v: Var, t: usize, span: Span) {
        self.release_parts(v, t, span);
        self.edge(Op::Release(v), span);
    }

    /// The end of the parts of the node `v` (of struct `t`) points to.
    fn release_parts(&mut self, v: Var, t: usize, span: Span) {
        let first = self.records[t].pointers.len();
        for (k, (_, pt)) in self.records[t].parts.clone().into_iter().enumerate() {
            let mark = self.temps.len();
            let p = self.temp();
            self.edge(Op::Load(p, v, first + k), span);
            self.release_node(p, pt, span);
            self.release(mark, span);
        }
    }

    /// `free(v)` for a pointer `v` to struct `t`: when it is not null, its parts end first.
    pub(super) fn free(&mut self, v: Var, t: usize, span: Span) {
        if self.records[t].parts.is_empty() {
            self.edge(Op::Free(v), span);
            return;
        }
        let (from, join) = (self.cur, self.loc());
        // Null (a no-op) or undefined (a fault).
        self.edge(Op::Assume(true, Operand::Var(v), Operand::Null), span);
        self.edge(Op::Free(v), span);
        self.edge_to(Op::Skip, span, join);
        self.cur = from;
        self.edge(Op::Assume(false, Operand::Var(v), Operand::Null), span);
        self.release_parts(v, t, span);
        self.edge(Op::Free(v), span);
        self.edge_to(Op::Skip, span, join);
        self.cur = join;
    }

    /// The declaration of the struct variable `name` of struct `t` (in the current scope).
    pub(super) fn struct_var(
        &mut self,
        name: &str,
        t: usize,
        init: Option<&Expr>,
        global: bool,
        span: Span,
    ) -> Result<(), String> {
        let v = self.new_var(format!("&{name}"));
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_owned(), Name::Struct(v, t));
        }
        if !global {
            if let Some(vars) = self.scope_vars.last_mut() {
                vars.push(v);
            }
            self.struct_vars.insert(v, t);
        }
        // A global is zero-initialised; its node is made before `main` runs. So is every field
        // an initialiser does not name.
        self.alloc(v, t, Storage::Variable, global || init.is_some(), span);
        match init.map(|e| &e.kind) {
            None => Ok(()),
            Some(ExprKind::InitList(items)) if !global => self.init_fields(name, t, items, span),
            Some(_) => Err(format!("the struct variable `{name}`'s initialiser")),
        }
    }

    /// The initialiser list `{a, .f = b, ...}` of the struct variable `name` (of struct
    /// `t`): each item assigned to its field, in order (items that are lists: refused).
    fn init_fields(
        &mut self,
        name: &str,
        t: usize,
        items: &[Expr],
        span: Span,
    ) -> Result<(), String> {
        let mut next = 0;
        for item in items {
            let (field, value) = match &item.kind {
                ExprKind::Designated(f, value) => (f.clone(), &**value),
                _ => {
                    let f = self.records[t].order.get(next).cloned();
                    (f.ok_or("an initialiser with too many items")?, item)
                }
            };
            next = 1 + self.records[t]
                .order
                .iter()
                .position(|f| *f == field)
                .unwrap_or(next);
            if matches!(value.kind, ExprKind::InitList(_) | ExprKind::Designated(..)) {
                return Err(format!("the struct variable `{name}`'s nested initialiser"));
            }
            let var = Expr::new(ExprKind::Ident(name.to_owned()), span.start, span.end);
            let place = Expr::new(
                ExprKind::Member(Box::new(var), field, false),
                span.start,
                span.end,
            );
            let assign = Expr::new(
                ExprKind::Assign(None, Box::new(place), Box::new(value.clone())),
                span.start,
                span.end,
            );
            let mark = self.temps.len();
            self.effect(&assign)?;
            self.release(mark, span);
        }
        Ok(())
    }

    /// A struct lvalue (`*p`, `s`, `b.f` or `p->f` for a struct field `f`): the pointer
    /// variable holding its address (a temporary when needed) and its struct type.
    pub(super) fn place(&mut self, e: &Expr) -> Result<(Var, usize), String> {
        match &e.kind {
            ExprKind::Unary(UnOp::Deref, p) => match self.ptr(p)? {
                (Operand::Var(v), Some(t)) => Ok((v, t)),
                _ => Err("a dereference of a null constant".into()),
            },
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Struct(v, t)) => Ok((v, t)),
                _ => Err("a struct value".into()),
            },
            ExprKind::Member(b, f, arrow) => {
                // `&v->f` of a variable with shadows: its shadow (`lower_container.rs`).
                if let Some(place) = self.shadow_place(b, f).filter(|_| *arrow) {
                    return Ok(place);
                }
                let (bv, bt) = self.base_var(b, *arrow)?;
                let (i, pt) = self.part(bt, f).ok_or("a struct value")?;
                let p = self.temp();
                self.edge(Op::Load(p, bv, i), e.span);
                Ok((p, pt))
            }
            _ => Err("a struct value".into()),
        }
    }

    /// The struct type of a struct lvalue, by its form (`None`: not one the reading knows).
    pub(super) fn place_struct(&self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Unary(UnOp::Deref, p) => self.ptr_struct(p),
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Name::Struct(_, t)) => Some(t),
                _ => None,
            },
            ExprKind::Member(b, f, arrow) => {
                let bt = match arrow {
                    true => self.ptr_struct(b)?,
                    false => self.place_struct(b)?,
                };
                self.part(bt, f).map(|p| p.1)
            }
            _ => None,
        }
    }
}
