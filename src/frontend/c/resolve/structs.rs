//! Struct types and the full C types of the resolver (scalars, pointers, structs), and the
//! declarations of variables and parameters of those types. Part of [`super`].
//!
//! Design: structs are **flattened** here. A variable of struct type becomes one scalar
//! variable per (nested) field, consecutive in the function's locals (or in the globals), named
//! `s.f`, `s.g.h`; the name `s` is bound to the first one. A field's *cell offset* is its index
//! in that flattening, so `s.g.h` is the variable `first(s) + offset(g.h)` and the encoding, the
//! CFA, liveness and the interpreter see only scalars. A pointer is a scalar of the width of
//! `unsigned long` whose value is an object id (see `pointers.rs`). Only the resolver knows the
//! full types ([`FTy`]), in side tables keyed by the head variable of each declaration.
//!
//! Arrays *of* structs are flattened the same way, one integer array per cell
//! (`struct_array.rs`). An array field (one dimension, constant size, integer elements) is a
//! cell of its own: an array variable `s.a`. Unions, struct return values, bit fields, and
//! array fields of other kinds are `unsupported`.
//!
//! Must not: lower pointer operations (that is `pointers.rs` and `lower.rs`).

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::{unsupported, Resolver};
use num_bigint::BigInt;
use num_traits::Signed;
use std::collections::HashMap;

/// A full C type as the resolver sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum FTy {
    /// `void` (only behind a pointer).
    Void,
    /// An integer type.
    Scalar(CType),
    /// A pointer to the type.
    Ptr(Box<FTy>),
    /// The struct of [`Types::records`] with this index.
    Struct(usize),
    /// An array field: element type (an integer type) and size.
    Array(Box<FTy>, BigInt),
}

impl FTy {
    /// Whether this is a pointer.
    pub(super) fn is_ptr(&self) -> bool {
        matches!(self, FTy::Ptr(_))
    }

    /// The type of a value of this type: an array is a pointer to its first element.
    pub(super) fn decayed(self) -> FTy {
        match self {
            FTy::Array(t, _) => FTy::Ptr(t),
            t => t,
        }
    }
}

/// A struct type.
#[derive(Clone, Debug)]
pub(super) struct Record {
    /// Its tag (for messages).
    pub tag: Option<String>,
    /// Each field: name, type, cell offset.
    pub fields: Vec<(String, FTy, usize)>,
    /// The flattened cells: name suffix (`.f.g`) and leaf type (scalar or pointer).
    pub cells: Vec<(String, FTy)>,
    /// Whether its fields are known.
    pub complete: bool,
}

/// The resolver's tables of full types.
#[derive(Default)]
pub(super) struct Types {
    /// Every struct type.
    pub records: Vec<Record>,
    /// Struct tags (one name space for the whole file).
    pub tags: HashMap<String, usize>,
    /// Typedefs of non-scalar types.
    pub typedefs: HashMap<String, FTy>,
    /// Full types of globals that are not plain scalars, by head variable.
    pub globals: HashMap<usize, FTy>,
    /// Full types of the current function's locals that are not plain scalars.
    pub locals: HashMap<usize, FTy>,
    /// Why the definition of a tagged struct was rejected (reported where it is used).
    pub broken: HashMap<String, CError>,
    /// Full signatures of functions with a pointer or struct in them: return, parameters.
    pub sigs: HashMap<String, (FTy, Vec<FTy>)>,
    /// Arrays of structs among the globals (`struct_array.rs`): head variable (the array of
    /// the first cell) to the struct type.
    pub global_arrays: HashMap<usize, usize>,
    /// Arrays of structs among the current function's locals.
    pub local_arrays: HashMap<usize, usize>,
}

/// The variable `k` places after `v`.
pub(super) fn shift(v: VarRef, k: usize) -> VarRef {
    match v {
        VarRef::Global(g) => VarRef::Global(g + k),
        VarRef::Local(l) => VarRef::Local(l + k),
    }
}

impl Resolver {
    /// The integer type of pointer values: `long` (addresses are small and positive, and
    /// pointer differences and `p - 1` need no wrap-around).
    pub(super) fn ptr_ctype(&self) -> CType {
        CType::of_rank(4, true, self.model)
    }

    /// The scalar type a leaf (scalar or pointer) is stored in.
    pub(super) fn leaf_ctype(&self, t: &FTy) -> CType {
        match t {
            FTy::Scalar(c) => *c,
            FTy::Array(t, _) => self.leaf_ctype(t),
            _ => self.ptr_ctype(),
        }
    }

    /// The flattened cells of a type: name suffix and leaf type.
    pub(super) fn cells(&self, t: &FTy) -> Vec<(String, FTy)> {
        match t {
            FTy::Struct(i) => self.types.records[*i].cells.clone(),
            _ => vec![(String::new(), t.clone())],
        }
    }

    /// Whether a type has array fields (cells that are arrays).
    pub(super) fn has_array_cells(&self, t: &FTy) -> bool {
        self.cells(t)
            .iter()
            .any(|(_, leaf)| matches!(leaf, FTy::Array(..)))
    }

    /// The full type of a variable.
    pub(super) fn var_fty(&self, v: VarRef) -> FTy {
        let t = match v {
            VarRef::Global(g) => self.types.globals.get(&g),
            VarRef::Local(l) => self.types.locals.get(&l),
        };
        match t {
            Some(t) => t.clone(),
            None => FTy::Scalar(match v {
                VarRef::Global(g) => self.globals[g].ty,
                VarRef::Local(l) => self.locals[l].ty,
            }),
        }
    }

    /// The full type named by specifiers and `pointers` stars; struct definitions among the
    /// specifiers are recorded.
    pub(super) fn full_type(&mut self, specs: &Specs, pointers: usize) -> Result<FTy, CError> {
        let mut base = None;
        for (w, span) in &specs.words {
            match w {
                Spec::Record(r) => base = Some(FTy::Struct(self.record(r, *span)?)),
                Spec::Named(n) if self.types.typedefs.contains_key(n) => {
                    base = Some(self.types.typedefs[n].clone())
                }
                _ => {}
            }
        }
        let mut t = match base {
            Some(t) => t,
            None if pointers > 0 && specs.words.iter().any(|w| w.0 == Spec::Void) => FTy::Void,
            None => match self.base_type(specs)? {
                Some(c) => FTy::Scalar(c),
                None => FTy::Void,
            },
        };
        for _ in 0..pointers {
            t = FTy::Ptr(Box::new(t));
        }
        Ok(t)
    }

    /// The struct type of a `struct ...` specifier (defined if it has fields).
    fn record(&mut self, r: &RecordSpec, span: Span) -> Result<usize, CError> {
        if r.union {
            return Err(unsupported(span, "unions"));
        }
        if let Some(e) = r.tag.as_ref().and_then(|t| self.types.broken.get(t)) {
            return Err(e.clone());
        }
        let res = self.record_def(r, span);
        if let (Err(e), Some(t)) = (&res, &r.tag) {
            self.types.broken.insert(t.clone(), e.clone());
        }
        res
    }

    fn record_def(&mut self, r: &RecordSpec, span: Span) -> Result<usize, CError> {
        let id = match r.tag.as_ref().and_then(|t| self.types.tags.get(t)) {
            Some(&id) if r.fields.is_none() || !self.types.records[id].complete => id,
            _ => {
                let id = self.types.records.len();
                self.types.records.push(Record {
                    tag: r.tag.clone(),
                    fields: vec![],
                    cells: vec![],
                    complete: false,
                });
                if let Some(t) = &r.tag {
                    self.types.tags.insert(t.clone(), id);
                }
                id
            }
        };
        let Some(decls) = &r.fields else {
            return Ok(id);
        };
        let (mut fields, mut cells) = (vec![], vec![]);
        for d in decls {
            for item in &d.items {
                let mut t = self.full_type(&d.specs, item.decl.pointers)?;
                self.check_complete(&t, item.decl.span)?;
                match item.decl.suffixes.as_slice() {
                    [] => {}
                    [Suffix::Array(size, sspan)] => {
                        t = self.array_field(t, size.as_deref(), *sspan)?
                    }
                    [Suffix::Array(..), ..] => {
                        return Err(unsupported(
                            item.decl.span,
                            "multi-dimensional arrays in structs",
                        ))
                    }
                    _ => return Err(unsupported(item.decl.span, "function pointers")),
                }
                let name = item.decl.name.clone().unwrap_or_default();
                if fields.iter().any(|f: &(String, FTy, usize)| f.0 == name) {
                    return Err(CError::new(
                        CErrorKind::Name,
                        item.decl.span,
                        format!("duplicate field `{name}`"),
                    ));
                }
                fields.push((name.clone(), t.clone(), cells.len()));
                for (suffix, leaf) in self.cells(&t) {
                    cells.push((format!(".{name}{suffix}"), leaf));
                }
            }
        }
        if cells.is_empty() {
            return Err(unsupported(span, "structs without fields"));
        }
        let rec = &mut self.types.records[id];
        rec.fields = fields;
        rec.cells = cells;
        rec.complete = true;
        Ok(id)
    }

    /// The type of an array field `t f[size]`: integer elements, a constant positive size.
    fn array_field(&mut self, t: FTy, size: Option<&Expr>, span: Span) -> Result<FTy, CError> {
        if !matches!(t, FTy::Scalar(_)) {
            return Err(unsupported(
                span,
                "arrays of pointers or structs in structs",
            ));
        }
        let Some(size) = size else {
            return Err(unsupported(span, "flexible array members"));
        };
        let e = self.expr(size)?;
        match crate::frontend::c::ir::fold(&e) {
            Some(n) if n.is_positive() && n <= BigInt::from(super::array::MAX_ELEMENTS) => {
                Ok(FTy::Array(Box::new(t), n))
            }
            Some(_) => Err(CError::new(
                CErrorKind::Name,
                size.span,
                "the size of an array must be positive",
            )),
            None => Err(unsupported(size.span, "variable-length arrays in structs")),
        }
    }

    /// An error unless `t` can be a variable's type (void and incomplete structs cannot).
    pub(super) fn check_complete(&self, t: &FTy, span: Span) -> Result<(), CError> {
        match t {
            FTy::Void => Err(unsupported(span, "void variables")),
            FTy::Struct(i) if !self.types.records[*i].complete => Err(CError::new(
                CErrorKind::Name,
                span,
                format!(
                    "variable of incomplete type `struct {}`",
                    self.types.records[*i].tag.clone().unwrap_or_default()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The field `name` of struct type `t`: its type and cell offset.
    pub(super) fn field(&self, t: &FTy, name: &str, span: Span) -> Result<(FTy, usize), CError> {
        let FTy::Struct(i) = t else {
            return Err(CError::new(
                CErrorKind::Name,
                span,
                format!("member `{name}` of something that is not a struct"),
            ));
        };
        let rec = &self.types.records[*i];
        rec.fields
            .iter()
            .find(|f| f.0 == name)
            .map(|f| (f.1.clone(), f.2))
            .ok_or_else(|| {
                CError::new(
                    CErrorKind::Name,
                    span,
                    format!(
                        "`struct {}` has no field `{name}`",
                        rec.tag.clone().unwrap_or_default()
                    ),
                )
            })
    }

    /// Whether a declarator with these specifiers declares something beyond a plain scalar.
    pub(super) fn is_extended(&mut self, specs: &Specs, d: &Declarator) -> Result<bool, CError> {
        if d.pointers > 0 {
            return Ok(true);
        }
        let t = self.full_type(specs, 0)?;
        Ok(!matches!(t, FTy::Scalar(_)))
    }

    /// Whether a signature has a pointer or struct in it.
    pub(super) fn needs_ext_sig(&mut self, specs: &Specs, d: &Declarator, ps: &[Param]) -> bool {
        let plain = |r: &mut Self, s: &Specs| {
            matches!(r.full_type(s, 0), Ok(FTy::Scalar(_) | FTy::Void) | Err(_))
        };
        d.pointers > 0
            || !plain(self, specs)
            || ps.iter().any(|p| {
                p.decl.pointers > 0
                    || !plain(self, &p.specs)
                    || p.decl
                        .suffixes
                        .iter()
                        .any(|s| matches!(s, Suffix::Array(..)))
            })
    }

    /// The names of a loop scope that denote scalars: a struct's name becomes its scalar
    /// fields' (`s.f.g`, valid C in an invariant); pointers are left out (their values are
    /// object ids, meaningless in C).
    pub(super) fn scalar_names(&self, names: Vec<(String, VarRef)>) -> Vec<(String, VarRef)> {
        let mut out = vec![];
        for (n, v) in names {
            if self.struct_array(v).is_some() {
                continue; // arrays, not scalars (no C name for their cells either)
            }
            let t = self.var_fty(v);
            for (k, (suffix, leaf)) in self.cells(&t).into_iter().enumerate() {
                if matches!(leaf, FTy::Scalar(_)) {
                    out.push((format!("{n}{suffix}"), shift(v, k)));
                }
            }
        }
        out.sort();
        out
    }

    /// A typedef of a struct or pointer type (`typedef struct T {...} S;`), recorded.
    pub(super) fn typedef_ext(&mut self, d: &Declaration) -> Result<(), CError> {
        let mut words = d.specs.words.clone();
        if let Some((Spec::Named(n), _)) = words.last().cloned() {
            words.pop();
            if !words.iter().any(|w| matches!(w.0, Spec::Record(_))) {
                return Ok(());
            }
            let specs = Specs {
                words,
                span: d.specs.span,
            };
            let t = self.full_type(&specs, 0)?;
            self.types.typedefs.insert(n, t);
        } else {
            // `typedef struct T {...};`, or declarators: `typedef struct T *P;`.
            let t = self.full_type(&d.specs, 0)?;
            for item in &d.items {
                let (Some(n), true) = (&item.decl.name, item.decl.suffixes.is_empty()) else {
                    continue;
                };
                let mut t = t.clone();
                for _ in 0..item.decl.pointers {
                    t = FTy::Ptr(Box::new(t));
                }
                self.types.typedefs.insert(n.clone(), t);
            }
        }
        Ok(())
    }

    /// A parameter list with pointers and structs: each struct parameter becomes one parameter
    /// per cell (`s.f`); returns the flattened list and records the full signature.
    pub(super) fn params_ext(
        &mut self,
        name: &str,
        specs: &Specs,
        d: &Declarator,
        ps: &[Param],
    ) -> Result<(Option<CType>, Vec<super::decl::ParamDecl>), CError> {
        let ret = self.full_type(specs, d.pointers)?;
        if name == "main" && !ps.is_empty() {
            // `argv`: the points-to sets would know no object behind it.
            return Err(unsupported(d.span, "pointer parameters of `main`"));
        }
        if matches!(ret, FTy::Struct(_)) {
            return Err(unsupported(d.span, "struct return values"));
        }
        let mut out = vec![];
        let mut full = vec![];
        for p in ps {
            // An array parameter `T a[]` or `T a[N]` is a pointer `T *a` (C11 6.7.6.3p7).
            let pointers = match p.decl.suffixes.as_slice() {
                [] => p.decl.pointers,
                [Suffix::Array(..)] => p.decl.pointers + 1,
                [Suffix::Array(..), ..] => {
                    return Err(unsupported(
                        p.decl.span,
                        "multi-dimensional array parameters",
                    ))
                }
                _ => return Err(unsupported(p.decl.span, "function pointers")),
            };
            let t = self.full_type(&p.specs, pointers)?;
            if t == FTy::Void && ps.len() == 1 && p.decl.name.is_none() {
                break;
            }
            self.check_complete(&t, p.decl.span)?;
            if self.has_array_cells(&t) {
                return Err(unsupported(
                    p.decl.span,
                    "struct parameters with array fields",
                ));
            }
            for (suffix, leaf) in self.cells(&t) {
                let pname = p.decl.name.as_ref().map(|n| format!("{n}{suffix}"));
                out.push((pname, self.leaf_ctype(&leaf), p.decl.span));
            }
            full.push(t);
        }
        let ret_c = match &ret {
            FTy::Void => None,
            t => Some(self.leaf_ctype(t)),
        };
        if ret.is_ptr() || full.iter().any(|t| !matches!(t, FTy::Scalar(_))) {
            self.types.sigs.insert(name.to_owned(), (ret, full));
        }
        Ok((ret_c, out))
    }

    /// After the parameters of the current function are declared: binds each struct
    /// parameter's name to its first cell and records the full types.
    pub(super) fn bind_params_ext(&mut self, names: &[Option<String>]) -> Result<(), CError> {
        let Some((_, full)) = self.types.sigs.get(&self.func).cloned() else {
            return Ok(());
        };
        let mut at = 0;
        for (t, name) in full.iter().zip(names) {
            let n = self.cells(t).len();
            if !matches!(t, FTy::Scalar(_)) {
                self.types.locals.insert(at, t.clone());
            }
            if let (FTy::Struct(_), Some(name)) = (t, name) {
                let span = self.locals[at].span;
                self.bind(name, VarRef::Local(at), span)?;
            }
            at += n;
        }
        Ok(())
    }

    /// Declares a variable of full type `t` as consecutive locals (or globals), one per
    /// cell, binds its name to the first and records its type; returns the first.
    pub(super) fn declare_cells(
        &mut self,
        name: &str,
        t: &FTy,
        span: Span,
        global: Option<String>,
    ) -> Result<VarRef, CError> {
        let cells = self.cells(t);
        let first = match &global {
            Some(_) => VarRef::Global(self.globals.len()),
            None => VarRef::Local(self.locals.len()),
        };
        for (k, (suffix, leaf)) in cells.iter().enumerate() {
            let ty = self.leaf_ctype(leaf);
            let dims = match leaf {
                FTy::Array(_, n) => vec![Dim::Const(n.clone())],
                _ => vec![],
            };
            match &global {
                Some(g) => {
                    self.globals.push(VarInfo {
                        name: format!("{g}{suffix}"),
                        ty,
                        span,
                        dims,
                    });
                    self.global_init.push(num_bigint::BigInt::from(0));
                    self.global_elems.push(vec![]);
                    self.global_defined.push(k == 0);
                }
                None => self.locals.push(VarInfo {
                    name: format!("{name}{suffix}"),
                    ty,
                    span,
                    dims,
                }),
            }
        }
        match first {
            VarRef::Global(g) => {
                if !matches!(t, FTy::Scalar(_)) {
                    self.types.globals.insert(g, t.clone());
                }
            }
            VarRef::Local(l) => {
                if !matches!(t, FTy::Scalar(_)) {
                    self.types.locals.insert(l, t.clone());
                }
            }
        }
        Ok(first)
    }
}
