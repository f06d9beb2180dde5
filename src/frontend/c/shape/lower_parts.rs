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
//! Must not: let the program write a part's field of its container, or copy a struct value
//! (both are refused).

use super::super::ast::{Expr, ExprKind, Span, UnOp};
use super::lower::{Lower, Name};
use super::pir::{Op, Operand, Storage, Var};

impl Lower {
    /// The copy of struct type `t` (a type of the program) whose nodes live in `storage`
    /// (made once; `t` itself for the heap).
    fn copy_of(&mut self, t: usize, storage: Storage) -> usize {
        let what = match storage {
            Storage::Heap => return t,
            Storage::Variable => "variable",
            Storage::Part => "part",
        };
        if let Some(&c) = self.copies.get(&(t, storage)) {
            return c;
        }
        let mut r = self.records[t].clone();
        r.name = format!("{} ({what})", r.name);
        r.storage = storage;
        self.records.push(r);
        let c = self.records.len() - 1;
        self.copies.insert((t, storage), c);
        c
    }

    /// `v` = a new node of struct `t` living in `storage` (`zeroed`: its pointers null),
    /// with a part node for each of its struct fields.
    pub(super) fn alloc(&mut self, v: Var, t: usize, storage: Storage, zeroed: bool, span: Span) {
        let ty = self.copy_of(t, storage);
        self.edge(Op::Alloc(v, ty, zeroed), span);
        let first = self.records[t].pointers.len();
        for (k, (_, pt)) in self.records[t].parts.clone().into_iter().enumerate() {
            let mark = self.temps.len();
            let p = self.temp();
            self.alloc(p, pt, Storage::Part, zeroed, span);
            self.edge(Op::Store(v, first + k, Operand::Var(p)), span);
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
        if init.is_some() {
            return Err(format!("the struct variable `{name}`'s initialiser"));
        }
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
        // A global is zero-initialised; its node is made before `main` runs.
        self.alloc(v, t, Storage::Variable, global, span);
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
