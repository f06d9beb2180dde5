//! Arrays in the resolver: declarations of local (also variable-length), global and static
//! arrays of integer types with their dimensions and initialiser lists (nested braces, brace
//! elision, the rest zero), and element accesses (`a[i][j]` as a value, assigned, compound
//! assigned, incremented). An array used as a value is the address of its first element
//! (`pointers.rs`); a row `a[i]` of a two-dimensional array, `sizeof` and whole-array
//! assignments are `unsupported:` errors at their place. Part of [`super`]; must not handle
//! statements other than declarations.

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::decl::{conflicting, too_deep};
use super::{convert, unsupported, Resolver};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};

/// The largest array (in elements) the subset accepts: beyond, sizes are surely a mistake
/// and row-major indices would be huge numbers.
pub(super) const MAX_ELEMENTS: u64 = 1 << 40;

/// Whether a declarator declares an array (`x[...]`).
pub(super) fn is_array(d: &Declarator) -> bool {
    d.suffixes.iter().any(|s| matches!(s, Suffix::Array(..)))
}

/// Initialised elements of a global or static array: (row-major index, value).
type Elems = Vec<(BigInt, BigInt)>;

/// A dimension as written: its size expression (if any) and where its `[` is.
type Written<'a> = (Option<&'a Expr>, Span);

impl Resolver {
    /// `e` with every `const` global that has an initialiser read as that value: `int
    /// set[SIZE]` with `const int SIZE = 100000;` is a variable-length array to C, but its size
    /// cannot change (writing a `const` object is undefined behaviour).
    fn const_globals_read(&self, e: &IExpr) -> IExpr {
        let mut e = e.clone();
        super::walk::visit(&mut e, &mut |x| {
            if let IExprKind::Var(VarRef::Global(g)) = x.kind {
                if self.const_globals.contains(&g) && self.global_defined[g] {
                    x.kind = IExprKind::Const(self.global_init[g].clone());
                }
            }
        });
        e
    }

    /// The element type and the written dimensions of an array declarator.
    fn array_parts<'a>(
        &self,
        d: &Declaration,
        item: &'a InitDecl,
    ) -> Result<(CType, Vec<Written<'a>>), CError> {
        let decl = &item.decl;
        too_deep(decl)?;
        if decl.pointers > 0 {
            return Err(unsupported(decl.span, "pointers"));
        }
        let mut dims = vec![];
        for s in &decl.suffixes {
            match s {
                Suffix::Array(e, span) => dims.push((e.as_deref(), *span)),
                _ => return Err(unsupported(decl.span, "arrays of functions")),
            }
        }
        let Some(ty) = self.base_type(&d.specs)? else {
            return Err(unsupported(decl.span, "void variables"));
        };
        Ok((ty, dims))
    }

    /// The constant sizes of the dimensions, or for a dimension whose size is not constant, the
    /// resolved size expression; a missing first size comes from the initialiser list.
    fn sizes(
        &mut self,
        dims: &[Written<'_>],
        init: Option<&Expr>,
    ) -> Result<Vec<Result<BigInt, IExpr>>, CError> {
        let mut out = vec![];
        for (k, (size, span)) in dims.iter().enumerate() {
            let Some(size) = size else {
                if k > 0 {
                    return Err(CError::new(
                        CErrorKind::Name,
                        *span,
                        "only the first dimension of an array may be left out",
                    ));
                }
                // `int a[] = {...}`: as many (sub-)arrays as the list fills; worked out below.
                out.push(Ok(BigInt::zero()));
                continue;
            };
            let e = self.expr(size)?;
            match fold(&self.const_globals_read(&e)) {
                Some(v) if v.is_positive() => out.push(Ok(v)),
                Some(_) => {
                    return Err(CError::new(
                        CErrorKind::Name,
                        size.span,
                        "the size of an array must be positive",
                    ))
                }
                None => out.push(Err(e)),
            }
        }
        if matches!(dims.first(), Some((None, _))) {
            let Some(Expr {
                kind: ExprKind::InitList(items),
                ..
            }) = init
            else {
                return Err(CError::new(
                    CErrorKind::Name,
                    dims[0].1,
                    "an array without a size needs an initialiser list",
                ));
            };
            let inner: Option<BigInt> = out[1..].iter().map(|d| d.as_ref().ok().cloned()).product();
            let Some(inner) = inner else {
                return Err(unsupported(
                    dims[0].1,
                    "initialisers of variable-length arrays",
                ));
            };
            // Count how far the list reaches with room for every item.
            let mut probe: Vec<BigInt> = vec![BigInt::from(items.len().max(1))];
            probe.extend(out[1..].iter().filter_map(|d| d.as_ref().ok().cloned()));
            let (_, end) = self.flatten_list(items, &probe, CType::INT, true)?;
            let n = end.div_ceil(&inner);
            if !n.is_positive() {
                return Err(CError::new(
                    CErrorKind::Name,
                    dims[0].1,
                    "the size of an array must be positive",
                ));
            }
            out[0] = Ok(n);
        }
        let total: Option<BigInt> = out.iter().map(|d| d.as_ref().ok().cloned()).product();
        if total.is_some_and(|t| t > BigInt::from(MAX_ELEMENTS)) {
            return Err(unsupported(
                dims[0].1,
                &format!("arrays of more than {MAX_ELEMENTS} elements"),
            ));
        }
        Ok(out)
    }

    /// The elements an initialiser list sets, as (row-major index, value converted to `ty`),
    /// for an array of constant `sizes`; also the index after the last one reached. With
    /// `probe`, only counts (the values are resolved but not kept).
    fn flatten_list(
        &mut self,
        items: &[Expr],
        sizes: &[BigInt],
        ty: CType,
        probe: bool,
    ) -> Result<(Vec<(BigInt, IExpr)>, BigInt), CError> {
        let mut out = vec![];
        let end = self.flatten(items, sizes, 0, BigInt::zero(), ty, &mut out)?;
        if probe {
            out.clear();
        }
        Ok((out, end))
    }

    /// One level of [`Self::flatten_list`]: the items of a list for the sub-array of
    /// `sizes[level..]` starting at row-major index `base`; returns the furthest index reached.
    fn flatten(
        &mut self,
        items: &[Expr],
        sizes: &[BigInt],
        level: usize,
        base: BigInt,
        ty: CType,
        out: &mut Vec<(BigInt, IExpr)>,
    ) -> Result<BigInt, CError> {
        let sub: BigInt = sizes[level + 1..].iter().product();
        let limit = &base + &sizes[level] * &sub;
        let mut cursor = base.clone();
        let excess = |span| {
            CError::new(
                CErrorKind::Name,
                span,
                "excess elements in the array initialiser",
            )
        };
        for item in items {
            match &item.kind {
                ExprKind::InitList(inner) if level + 1 < sizes.len() => {
                    // A braced sub-array starts at the next sub-array boundary.
                    let rem = (&cursor - &base).mod_floor(&sub);
                    if !rem.is_zero() {
                        cursor += &sub - rem;
                    }
                    if cursor >= limit {
                        return Err(excess(item.span));
                    }
                    self.flatten(inner, sizes, level + 1, cursor.clone(), ty, out)?;
                    cursor += &sub;
                }
                ExprKind::InitList(inner) => {
                    // A scalar in braces: `{ {1}, {2} }`.
                    if cursor >= limit || inner.len() > 1 {
                        return Err(excess(item.span));
                    }
                    if let Some(e) = inner.first() {
                        let v = self.scalar_item(e, ty)?;
                        out.push((cursor.clone(), v));
                    }
                    cursor += 1;
                }
                _ => {
                    if cursor >= limit {
                        return Err(excess(item.span));
                    }
                    let v = self.scalar_item(item, ty)?;
                    out.push((cursor.clone(), v));
                    cursor += 1;
                }
            }
        }
        Ok(cursor)
    }

    fn scalar_item(&mut self, e: &Expr, ty: CType) -> Result<IExpr, CError> {
        if let ExprKind::InitList(_) = e.kind {
            return Err(CError::new(
                CErrorKind::Name,
                e.span,
                "too many braces around a scalar initialiser",
            ));
        }
        Ok(convert(self.expr(e)?, ty))
    }

    /// A local array declaration: hidden locals for variable-length sizes (set first), the
    /// array variable, and its [`IExprKind::ArrayDecl`].
    pub(super) fn local_array(
        &mut self,
        d: &Declaration,
        item: &InitDecl,
    ) -> Result<Vec<IStmt>, CError> {
        let (ty, written) = self.array_parts(d, item)?;
        let span = item.decl.span;
        let name = item.decl.name.clone().unwrap_or_default();
        let sizes = self.sizes(&written, item.init.as_ref())?;
        let mut out = vec![];
        let mut dims = vec![];
        for (k, size) in sizes.into_iter().enumerate() {
            match size {
                Ok(n) => dims.push(Dim::Const(n)),
                Err(e) => {
                    // Variable-length: the size, evaluated here, in a local no name refers to.
                    let id = self.locals.len();
                    self.locals.push(VarInfo {
                        name: format!("{name}.size{k}"),
                        ty: e.ty,
                        span: e.span,
                        dims: vec![],
                    });
                    let var = VarRef::Local(id);
                    out.push(IStmt {
                        kind: IStmtKind::Init(var, Some(e)),
                        span,
                    });
                    dims.push(Dim::Var(var));
                }
            }
        }
        // The initialiser is resolved before the name is declared (reading the array in its
        // own initialiser would read indeterminate elements).
        let (elems, fill) = match &item.init {
            None => {
                self.sites.push(NondetSite { ty, span });
                (vec![], Fill::Any(self.sites.len() - 1))
            }
            Some(init) => {
                let ExprKind::InitList(items) = &init.kind else {
                    self.expr(init)?;
                    return Err(unsupported(
                        init.span,
                        "initialising an array other than by a list",
                    ));
                };
                let Some(sizes) = const_sizes(&dims) else {
                    return Err(unsupported(
                        init.span,
                        "initialisers of variable-length arrays",
                    ));
                };
                (self.flatten_list(items, &sizes, ty, false)?.0, Fill::Zero)
            }
        };
        let id = self.declare_with(&name, ty, dims, span)?;
        out.push(IStmt {
            kind: IStmtKind::Expr(IExpr {
                kind: IExprKind::ArrayDecl {
                    var: VarRef::Local(id),
                    elems,
                    fill,
                },
                ty: CType::INT,
                span,
            }),
            span,
        });
        Ok(out)
    }

    /// The constant dimensions and the initialised elements (constants) of a global or static
    /// array.
    fn static_parts(
        &mut self,
        d: &Declaration,
        item: &InitDecl,
    ) -> Result<(CType, Vec<Dim>, Option<Elems>), CError> {
        let (ty, written) = self.array_parts(d, item)?;
        let sizes = self.sizes(&written, item.init.as_ref())?;
        let mut dims = vec![];
        for s in sizes {
            match s {
                Ok(n) => dims.push(Dim::Const(n)),
                Err(e) => {
                    return Err(unsupported(
                        e.span,
                        "variable-length arrays outside functions or static",
                    ))
                }
            }
        }
        let elems = match &item.init {
            None => None,
            Some(init) => {
                let ExprKind::InitList(items) = &init.kind else {
                    return Err(unsupported(
                        init.span,
                        "initialising an array other than by a list",
                    ));
                };
                let sizes = const_sizes(&dims).unwrap_or_default();
                let mut out = vec![];
                for (k, e) in self.flatten_list(items, &sizes, ty, false)?.0 {
                    match fold(&e) {
                        Some(v) => out.push((k, ty.convert(&v))),
                        None => {
                            return Err(unsupported(e.span, "non-constant global initialisers"))
                        }
                    }
                }
                Some(out)
            }
        };
        Ok((ty, dims, elems))
    }

    /// A global array: a definition, a tentative definition, or both.
    pub(super) fn global_array(&mut self, d: &Declaration, item: &InitDecl) -> Result<(), CError> {
        let name = item.decl.name.clone().unwrap_or_default();
        let span = item.decl.span;
        self.scopes.clear();
        let (ty, dims, elems) = self.static_parts(d, item)?;
        self.not_a_function(&name, span)?;
        if self.externs.contains_key(&name) {
            return Err(conflicting(&name, span));
        }
        if let Some(&i) = self.global_names.get(&name) {
            if self.globals[i].ty != ty || self.globals[i].dims != dims {
                return Err(conflicting(&name, span));
            }
            if let Some(elems) = elems {
                if self.global_defined[i] {
                    return Err(CError::new(
                        CErrorKind::Name,
                        span,
                        format!("redefinition of `{name}`"),
                    ));
                }
                self.global_elems[i] = elems;
                self.global_defined[i] = true;
            }
            return Ok(());
        }
        self.global_names.insert(name.clone(), self.globals.len());
        self.global_defined.push(elems.is_some());
        self.push_global(name, ty, dims, elems.unwrap_or_default(), span);
        Ok(())
    }

    /// `static int a[N] = {...};` in a block: a global array only this scope names.
    pub(super) fn static_array(&mut self, d: &Declaration, item: &InitDecl) -> Result<(), CError> {
        let name = item.decl.name.clone().unwrap_or_default();
        let span = item.decl.span;
        let (ty, dims, elems) = self.static_parts(d, item)?;
        let g = self.globals.len();
        self.bind(&name, VarRef::Global(g), span)?;
        self.global_defined.push(true);
        let full = format!("{}.{name}", self.func);
        self.push_global(full, ty, dims, elems.unwrap_or_default(), span);
        Ok(())
    }

    fn push_global(
        &mut self,
        name: String,
        ty: CType,
        dims: Vec<Dim>,
        elems: Vec<(BigInt, BigInt)>,
        span: Span,
    ) {
        self.globals.push(VarInfo {
            name,
            ty,
            span,
            dims,
        });
        self.global_init.push(BigInt::zero());
        self.global_elems.push(elems);
    }

    /// `a[i]...[k]` as the array, its element type and the resolved indices; `None` when `e`
    /// is not a subscript or a subscript of an array of structs (`struct_array.rs`).
    pub(super) fn element(
        &mut self,
        e: &Expr,
    ) -> Result<Option<(VarRef, CType, Vec<IExpr>)>, CError> {
        if !matches!(e.kind, ExprKind::Index(..)) || self.is_struct_array_base(e) {
            return Ok(None);
        }
        let mut written = vec![];
        let mut base = e;
        while let ExprKind::Index(a, i) = &base.kind {
            written.push(&**i);
            base = a;
        }
        written.reverse();
        // Subscripts of pointers and of array fields are places (`pointers.rs`).
        let ExprKind::Ident(name) = &base.kind else {
            return Ok(None);
        };
        let Some((v, ty)) = self.lookup(name) else {
            return Err(CError::new(
                CErrorKind::Name,
                base.span,
                format!("undeclared variable `{name}`"),
            ));
        };
        let rank = self.info(v).dims.len();
        if rank == 0 && self.var_fty(v).is_ptr() {
            return Ok(None);
        }
        if rank == 0 {
            return Err(CError::new(
                CErrorKind::Name,
                e.span,
                format!("`{name}` is not an array"),
            ));
        }
        if written.len() < rank {
            return Err(unsupported(e.span, "rows of arrays used as values"));
        }
        if written.len() > rank && self.elem_fty(v).is_ptr() {
            return Ok(None); // `ptrs[i][j]`: a subscript of the pointer `ptrs[i]`
        }
        if written.len() > rank {
            return Err(CError::new(
                CErrorKind::Name,
                e.span,
                format!("too many subscripts for `{name}`"),
            ));
        }
        let mut index = vec![];
        for i in written {
            index.push(self.expr(i)?);
        }
        Ok(Some((v, ty, index)))
    }
}

/// The sizes of dimensions that are all constant.
fn const_sizes(dims: &[Dim]) -> Option<Vec<BigInt>> {
    dims.iter()
        .map(|d| match d {
            Dim::Const(n) => Some(n.clone()),
            Dim::Var(_) => None,
        })
        .collect()
}
