//! The types of `main`'s declarations and expressions as the pointer program sees them (a
//! part of `lower.rs`): struct records by name, pointer depth, fields as pointers or data.
//!
//! Must not: accept a type whose values it cannot tell apart as pointers or integers.

use super::super::ast::{Spec, Specs, TypeName};
use super::lower::{Lower, Name, Record};

impl Lower {
    /// The struct type (if any) and the number of `*` that specifiers denote.
    pub(super) fn base_type(&mut self, specs: &Specs) -> Result<(Option<usize>, usize), String> {
        for (w, _) in &specs.words {
            match w {
                Spec::Record(rs) => {
                    if rs.union {
                        return Err("a union".into());
                    }
                    let id = match rs.tag.as_ref().and_then(|t| self.tags.get(t)) {
                        Some(&id) => id,
                        None => {
                            let name = match &rs.tag {
                                Some(t) => format!("struct {t}"),
                                None => "struct <anonymous>".to_owned(),
                            };
                            self.records.push(Record {
                                name,
                                ..Record::default()
                            });
                            let id = self.records.len() - 1;
                            if let Some(t) = &rs.tag {
                                self.tags.insert(t.clone(), id);
                            }
                            id
                        }
                    };
                    if let Some(fields) = &rs.fields {
                        if self.records[id].defined {
                            return Err(format!("{} defined twice", self.records[id].name));
                        }
                        self.records[id].defined = true;
                        let (mut pointers, mut data, mut inexact) = (vec![], vec![], vec![]);
                        for f in fields {
                            let base = self.base_type(&f.specs)?;
                            for item in &f.items {
                                let name = item.decl.name.clone().unwrap_or_default();
                                if !item.decl.suffixes.is_empty() {
                                    return Err(format!("the array field `{name}`"));
                                }
                                match (base.0, base.1 + item.decl.pointers) {
                                    (Some(t), 1) => pointers.push((name, t)),
                                    (None, 0) => {
                                        if !self.is_int(&f.specs) {
                                            inexact.push(name.clone());
                                        }
                                        data.push(name)
                                    }
                                    _ => return Err(format!("the field `{name}`'s type")),
                                }
                            }
                        }
                        self.records[id].pointers = pointers;
                        self.records[id].data = data;
                        self.records[id].inexact = inexact;
                    }
                    return Ok((Some(id), 0));
                }
                // An `enum` is data; its enumerators are constants of the outermost scope
                // (values other than literals and earlier enumerators: data).
                Spec::Enum(e) => {
                    let mut next = Some(0);
                    for item in e.items.iter().flatten() {
                        let value = match &item.value {
                            None => next,
                            Some(v) => self.constant(v),
                        };
                        next = value.and_then(|v| v.checked_add(1));
                        let name = value.map_or(Name::Data, Name::Const);
                        if let Some(s) = self.scopes.first_mut() {
                            s.insert(item.name.clone(), name);
                        }
                    }
                }
                Spec::Named(n) => {
                    return self
                        .typedefs
                        .get(n)
                        .copied()
                        .ok_or_else(|| format!("the type `{n}`"));
                }
                _ => {}
            }
        }
        Ok((None, 0))
    }

    /// Whether specifiers name an `int`-like type, whose values are exactly the `int`
    /// constants the symbols hold: `int`, `signed`, `long`, an enum, or a typedef of one.
    pub(super) fn is_int(&self, specs: &Specs) -> bool {
        let mut typed = false;
        for (w, _) in &specs.words {
            match w {
                Spec::Int | Spec::Signed | Spec::Long | Spec::Enum(_) => typed = true,
                Spec::Named(n) if self.int_typedefs.contains(n) => typed = true,
                Spec::Typedef | Spec::Extern | Spec::Static | Spec::Ignored => {}
                _ => return false,
            }
        }
        typed
    }

    /// The struct a declarator of `base` with `pointers` more `*` points to (`None`: not a
    /// pointer); pointers to anything but a struct are not followed.
    pub(super) fn ptr_type(
        &self,
        base: (Option<usize>, usize),
        pointers: usize,
    ) -> Result<Option<usize>, String> {
        match (base.0, base.1 + pointers) {
            (_, 0) => Ok(None),
            (Some(t), 1) => Ok(Some(t)),
            _ => Err("a pointer to something other than a struct".into()),
        }
    }

    /// The struct type a type name points to, and whether it is a pointer at all.
    pub(super) fn type_name(&mut self, tn: &TypeName) -> Result<Option<usize>, String> {
        let base = self.base_type(&tn.specs)?;
        self.ptr_type(base, tn.pointers)
    }

    /// A pointer field of a struct: its index and target type; `Ok(None)` for an integer
    /// field.
    pub(super) fn field(&self, t: usize, f: &str) -> Result<Option<(usize, usize)>, String> {
        let r = &self.records[t];
        if let Some(i) = r.pointers.iter().position(|(n, _)| n == f) {
            return Ok(Some((i, r.pointers[i].1)));
        }
        if r.data.iter().any(|n| n == f) {
            return Ok(None);
        }
        Err(format!("the field `{f}` of {}", r.name))
    }
}
