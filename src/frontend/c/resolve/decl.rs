//! Declarations at file scope: type specifiers, function signatures, globals, prototypes,
//! `extern` declarations and typedefs, with C's rules for declaring a name twice (a tentative
//! definition or `extern` declaration may be repeated with the same type, a prototype with a
//! compatible signature; two definitions, conflicting types, or a name that is both a variable
//! and a function are errors). Part of [`super`]; must not handle statements.

use super::super::ast::*;
use super::super::error::{CError, CErrorKind};
use super::super::ir::*;
use super::super::types::CType;
use super::{const_value, unsupported, Resolver, Sig, BUILTINS};
use num_bigint::BigInt;
use num_traits::Zero;

/// A parameter of a signature: its name (if any), type and place.
pub(super) type ParamDecl = (Option<String>, CType, Span);

impl Resolver {
    pub(super) fn base_type(&self, specs: &Specs) -> Result<Option<CType>, CError> {
        let (mut uns, mut longs, mut short, mut ch, mut bool_, mut int, mut void) =
            (false, 0, false, false, false, false, false);
        let mut named = None;
        for (w, span) in &specs.words {
            match w {
                Spec::Int => int = true,
                Spec::Unsigned => uns = true,
                Spec::Signed => {}
                Spec::Long => longs += 1,
                Spec::Short => short = true,
                Spec::Char => ch = true,
                Spec::Bool => bool_ = true,
                Spec::Void => void = true,
                Spec::Floating => return Err(unsupported(*span, "floating-point types")),
                Spec::Enum(e) => {
                    self.define_enumerators(e)?;
                    int = true;
                }
                Spec::Record(_) => return Err(unsupported(*span, "struct types")),
                Spec::Named(n) => named = Some((n.clone(), *span)),
                Spec::Typedef | Spec::Extern | Spec::Static | Spec::Const | Spec::Ignored => {}
            }
        }
        let _ = int;
        if let Some((n, span)) = named {
            return match self.typedefs.get(&n) {
                Some(t) => Ok(Some(*t)),
                None => Err(unsupported(span, &format!("type `{n}`"))),
            };
        }
        if void {
            return Ok(None);
        }
        if bool_ {
            return Ok(Some(CType::BOOL));
        }
        let rank = if ch {
            1
        } else if short {
            2
        } else if longs >= 2 {
            5
        } else if longs == 1 {
            4
        } else {
            3
        };
        let signed = !uns; // plain and `signed` types are signed (char too, on x86)
        Ok(Some(CType::of_rank(rank, signed, self.model)))
    }

    pub(super) fn check_scalar(&self, d: &Declarator) -> Result<(), CError> {
        too_deep(d)?;
        if d.pointers > 0 {
            return Err(unsupported(d.span, "pointers"));
        }
        for s in &d.suffixes {
            if let Suffix::Array(_, span) = s {
                return Err(unsupported(*span, "arrays here"));
            }
        }
        Ok(())
    }

    pub(super) fn signature(
        &mut self,
        specs: &Specs,
        d: &Declarator,
    ) -> Result<(Option<CType>, Vec<ParamDecl>), CError> {
        too_deep(d)?;
        let Some(Suffix::Params(ps, variadic)) = d.suffixes.first() else {
            return Err(CError::new(
                CErrorKind::Syntax,
                d.span,
                "expected a function",
            ));
        };
        if *variadic || d.suffixes.len() > 1 {
            return Err(unsupported(d.span, "variadic or higher-order functions"));
        }
        if self.needs_ext_sig(specs, d, ps) {
            let name = d.name.clone().unwrap_or_default();
            return self.params_ext(&name, specs, d, ps);
        }
        let ret = self.base_type(specs)?;
        let mut out = vec![];
        for p in ps {
            let t = self.base_type(&p.specs)?;
            if super::is_array(&p.decl) {
                return Err(unsupported(p.decl.span, "array parameters"));
            }
            self.check_scalar(&p.decl)?;
            match t {
                None if ps.len() == 1 && p.decl.name.is_none() => {}
                None => return Err(unsupported(p.decl.span, "void parameters")),
                Some(t) => out.push((p.decl.name.clone(), t, p.decl.span)),
            }
        }
        Ok((ret, out))
    }

    /// A file-scope declaration: typedefs, prototypes, `extern` declarations, globals.
    pub(super) fn top_decl(&mut self, d: &Declaration) -> Result<(), CError> {
        self.enumerators_of(&d.specs)?;
        let is_typedef = d.specs.words.iter().any(|w| w.0 == Spec::Typedef);
        let is_extern = d.specs.words.iter().any(|w| w.0 == Spec::Extern);
        if is_typedef {
            // Of structs: recorded here; what the subset does not support is an error only
            // when used, but what C rejects (a struct containing itself) is one at once.
            ill_formed(self.typedef_ext(d))?;
            // `typedef T name;`: the name arrives as the last (type-name) specifier.
            let mut words = d.specs.words.clone();
            if let Some((Spec::Named(n), _)) = words.last().cloned() {
                words.pop();
                let specs = Specs {
                    words,
                    span: d.specs.span,
                };
                // Typedefs of unsupported types are only an error when used.
                if let Ok(Some(t)) = self.base_type(&specs) {
                    self.typedefs.insert(n, t);
                }
            }
            return Ok(());
        }
        if d.items.is_empty() {
            ill_formed(self.full_type(&d.specs, 0))?; // `struct T { ... };`
        }
        for item in &d.items {
            let name = item.decl.name.clone().unwrap_or_default();
            let span = item.decl.span;
            let is_fn = matches!(item.decl.suffixes.first(), Some(Suffix::Params(..)));
            if is_fn {
                if BUILTINS.contains(&name.as_str()) || name.starts_with("__VERIFIER_nondet_") {
                    continue;
                }
                // A prototype; pointer-typed prototypes of unused externs are harmless.
                if let Ok((ret, params)) = self.signature(&d.specs, &item.decl) {
                    let sig = Sig {
                        ret,
                        params: params.iter().map(|p| p.1).collect(),
                        unspecified: unspecified_params(&item.decl),
                        index: None,
                        span,
                    };
                    self.declare_function(&name, sig)?;
                }
                continue;
            }
            if is_extern && item.init.is_none() {
                // Only a promise that the variable is defined somewhere; outside the subset
                // (pointers, arrays) it is harmless unless used.
                let ty = match (self.check_scalar(&item.decl), self.base_type(&d.specs)) {
                    (Ok(()), Ok(Some(t))) => t,
                    _ => continue,
                };
                self.not_a_function(&name, span)?;
                let earlier = self
                    .global_names
                    .get(&name)
                    .map(|&i| self.globals[i].ty)
                    .or_else(|| self.externs.get(&name).copied());
                if earlier.is_some_and(|t| t != ty) {
                    return Err(conflicting(&name, span));
                }
                self.externs.insert(name, ty);
                continue;
            }
            if self.global_decl_ext(d, item)? {
                continue;
            }
            if super::is_array(&item.decl) && item.decl.pointers == 0 {
                self.global_array(d, item)?;
                continue;
            }
            self.check_scalar(&item.decl)?;
            let Some(ty) = self.base_type(&d.specs)? else {
                return Err(unsupported(span, "void variables"));
            };
            let init = match &item.init {
                None => None,
                Some(e) => {
                    self.scopes.clear();
                    let ie = self.expr(e)?;
                    match const_value(&ie) {
                        Some(v) => Some(ty.convert(&v)),
                        None => {
                            return Err(unsupported(e.span, "non-constant global initialisers"))
                        }
                    }
                }
            };
            self.not_a_function(&name, span)?;
            if self.externs.get(&name).is_some_and(|&t| t != ty) {
                return Err(conflicting(&name, span));
            }
            if let Some(&i) = self.global_names.get(&name) {
                // A tentative definition may be repeated, and completed by one definition.
                if self.globals[i].ty != ty {
                    return Err(conflicting(&name, span));
                }
                if let Some(v) = init {
                    if self.global_defined[i] {
                        return Err(CError::new(
                            CErrorKind::Name,
                            span,
                            format!("redefinition of `{name}`"),
                        ));
                    }
                    self.global_init[i] = v;
                    self.global_defined[i] = true;
                }
                continue;
            }
            self.global_names.insert(name.clone(), self.globals.len());
            if d.specs.words.iter().any(|(w, _)| *w == Spec::Const) {
                self.const_globals.insert(self.globals.len());
            }
            self.globals.push(VarInfo {
                name,
                ty,
                span,
                dims: vec![],
            });
            self.global_defined.push(init.is_some());
            self.global_init.push(init.unwrap_or_else(BigInt::zero));
            self.global_elems.push(vec![]);
        }
        Ok(())
    }

    /// Records a prototype or a definition of a function; a second declaration must have the
    /// same return type and, unless one of them leaves the parameters unspecified (`f()`), the
    /// same parameter types; a second definition is an error.
    pub(super) fn declare_function(&mut self, name: &str, sig: Sig) -> Result<(), CError> {
        if self.global_names.contains_key(name) || self.externs.contains_key(name) {
            return Err(kind_clash(name, sig.span));
        }
        let Some(old) = self.sigs.get(name) else {
            self.sigs.insert(name.to_owned(), sig);
            return Ok(());
        };
        if old.index.is_some() && sig.index.is_some() {
            return Err(CError::new(
                CErrorKind::Name,
                sig.span,
                format!("function `{name}` is defined twice"),
            ));
        }
        let params_agree = old.unspecified || sig.unspecified || old.params == sig.params;
        if old.ret != sig.ret || !params_agree {
            return Err(CError::new(
                CErrorKind::Name,
                sig.span,
                format!("conflicting declarations of function `{name}`"),
            ));
        }
        // The definition wins; between prototypes, the one that lists its parameters.
        if sig.index.is_some() || (old.index.is_none() && old.unspecified) {
            self.sigs.insert(name.to_owned(), sig);
        }
        Ok(())
    }

    /// `extern int g;` in a block: from here on, the name refers to the global `g`.
    pub(super) fn local_extern(&mut self, d: &Declaration, item: &InitDecl) -> Result<(), CError> {
        let name = item.decl.name.clone().unwrap_or_default();
        let span = item.decl.span;
        if item.init.is_some() {
            return Err(CError::new(
                CErrorKind::Name,
                span,
                format!("`extern` variable `{name}` initialised in a block"),
            ));
        }
        self.check_scalar(&item.decl)?;
        let Some(ty) = self.base_type(&d.specs)? else {
            return Err(unsupported(span, "void variables"));
        };
        let Some(&g) = self.global_names.get(&name) else {
            return Err(unsupported(
                span,
                &format!("`extern` variable `{name}` without a definition in the file"),
            ));
        };
        if self.globals[g].ty != ty {
            return Err(conflicting(&name, span));
        }
        self.bind(&name, VarRef::Global(g), span)
    }

    /// `static int n = c;` in a block: a variable initialised once, before `main`, that keeps
    /// its value between calls; a global only this scope names (`f.n` in messages).
    pub(super) fn local_static(&mut self, d: &Declaration, item: &InitDecl) -> Result<(), CError> {
        let name = item.decl.name.clone().unwrap_or_default();
        let span = item.decl.span;
        if super::is_array(&item.decl) && item.decl.pointers == 0 {
            return self.static_array(d, item);
        }
        self.check_scalar(&item.decl)?;
        let Some(ty) = self.base_type(&d.specs)? else {
            return Err(unsupported(span, "void variables"));
        };
        let init = match &item.init {
            None => BigInt::zero(),
            Some(e) => {
                let ie = self.expr(e)?;
                match const_value(&ie) {
                    Some(v) => ty.convert(&v),
                    None => {
                        return Err(unsupported(
                            e.span,
                            "non-constant initialisers of static variables",
                        ))
                    }
                }
            }
        };
        let g = self.globals.len();
        self.bind(&name, VarRef::Global(g), span)?;
        self.globals.push(VarInfo {
            name: format!("{}.{name}", self.func),
            ty,
            span,
            dims: vec![],
        });
        self.global_init.push(init);
        self.global_elems.push(vec![]);
        self.global_defined.push(true);
        Ok(())
    }

    pub(super) fn not_a_function(&self, name: &str, span: Span) -> Result<(), CError> {
        if self.sigs.contains_key(name) {
            return Err(kind_clash(name, span));
        }
        Ok(())
    }
}

/// The error for declarators nested too deeply, or pointing to functions or arrays.
pub(super) fn too_deep(d: &Declarator) -> Result<(), CError> {
    match d.suffixes.first() {
        Some(Suffix::TooDeep(span)) => Err(CError::too_deep(*span, "declarators")),
        Some(Suffix::Indirect(span)) => Err(unsupported(*span, "pointers to functions or arrays")),
        _ => Ok(()),
    }
}

/// Whether a function declarator leaves its parameters unspecified: `f()`, not `f(void)`.
pub(super) fn unspecified_params(d: &Declarator) -> bool {
    matches!(d.suffixes.first(), Some(Suffix::Params(ps, false)) if ps.is_empty())
}

pub(super) fn conflicting(name: &str, span: Span) -> CError {
    CError::new(
        CErrorKind::Name,
        span,
        format!("conflicting types for `{name}`"),
    )
}

fn kind_clash(name: &str, span: Span) -> CError {
    CError::new(
        CErrorKind::Name,
        span,
        format!("`{name}` is declared both as a variable and as a function"),
    )
}

/// The error of a declaration no C compiler accepts; `Ok` for success and for constructs outside
/// the subset (those are an error only where a program uses them).
fn ill_formed<T>(r: Result<T, CError>) -> Result<(), CError> {
    match r {
        Err(e) if e.kind != CErrorKind::Unsupported => Err(e),
        _ => Ok(()),
    }
}
