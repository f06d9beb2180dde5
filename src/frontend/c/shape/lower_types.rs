//! The types of `main`'s declarations and expressions as the pointer program sees them (a
//! part of `lower.rs`): struct records by name, pointer depth, fields as pointers or data.
//!
//! Must not: accept a type whose values it cannot tell apart as pointers or integers.

use super::super::ast::{Declaration, Spec, Specs, TypeName};
use super::lower::{Lower, Name};
use super::pir::Storage;
use super::ta::DATA;
use std::collections::HashSet;

/// A struct type being read: its pointer fields and its other (integer) fields.
#[derive(Clone, Debug, Default)]
pub(super) struct Record {
    pub(super) name: String,
    pub(super) defined: bool,
    pub(super) pointers: Vec<(String, usize)>,
    /// The struct fields: their names and struct types (each a [`Storage::Part`] node that
    /// the node holds through a field after the pointer fields).
    pub(super) parts: Vec<(String, usize)>,
    /// For a copy that is a part of a container the program reaches by `container_of`: the
    /// field (after the parts) pointing back to the container, and the container's type.
    pub(super) container: Option<(String, usize)>,
    /// All fields' names in declaration order (for positional initialisers).
    pub(super) order: Vec<String>,
    /// The fields pointing to something other than a struct (`void *data`): read as
    /// integers, written only with a null pointer.
    pub(super) opaque: Vec<String>,
    pub(super) data: Vec<String>,
    /// The integer fields whose values are not exactly those of `int` (`unsigned`, `char`,
    /// ...): never tracked, since a constant stored there may wrap.
    pub(super) inexact: Vec<String>,
    /// Where its nodes live: [`Storage::Heap`] for the program's own struct types, other
    /// storage for their copies made by `lower_parts.rs`.
    pub(super) storage: Storage,
    /// The program's struct type this one is (its own index) or copies (a copy keeps it).
    pub(super) origin: usize,
    /// Why its definition cannot be read (a header's struct the program may never use): an
    /// error where it is used.
    pub(super) broken: Option<String>,
}

impl Record {
    /// The integer fields the symbols track: the first [`DATA`] of those compared with a
    /// constant.
    pub(super) fn tracked<'a>(
        &'a self,
        compared: &'a HashSet<String>,
    ) -> impl Iterator<Item = &'a String> + 'a {
        self.data
            .iter()
            .filter(|n| compared.contains(*n) && !self.inexact.contains(n))
            .take(DATA)
    }
}

impl Lower {
    /// A file-scope declaration. One that only declares ([`only_declares`]) and cannot be read
    /// is a header's type or prototype the program may never use: an error only where it is
    /// used (its typedef names stay unknown, its structs broken).
    pub(super) fn file_scope_declaration(&mut self, d: &Declaration) -> Result<(), String> {
        let known = self.records.len();
        if let Err(why) = self.declaration(d, true) {
            if !only_declares(d) {
                return Err(why);
            }
            for r in &mut self.records[known..] {
                if !r.defined {
                    r.defined = true;
                    r.broken = Some(why.clone());
                }
            }
        }
        Ok(())
    }

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
                                origin: self.records.len(),
                                ..Record::default()
                            });
                            let id = self.records.len() - 1;
                            if let Some(t) = &rs.tag {
                                self.tags.insert(t.clone(), id);
                            }
                            id
                        }
                    };
                    if let (None, Some(why)) = (&rs.fields, &self.records[id].broken) {
                        return Err(why.clone());
                    }
                    if let Some(fields) = &rs.fields {
                        if self.records[id].defined {
                            return Err(format!("{} defined twice", self.records[id].name));
                        }
                        self.records[id].defined = true;
                        let (mut pointers, mut parts) = (vec![], vec![]);
                        let (mut data, mut inexact) = (vec![], vec![]);
                        let (mut order, mut opaque) = (vec![], vec![]);
                        for f in fields {
                            let base = self.base_type(&f.specs)?;
                            for item in &f.items {
                                let name = item.decl.name.clone().unwrap_or_default();
                                order.push(name.clone());
                                if !item.decl.suffixes.is_empty() {
                                    return Err(format!("the array field `{name}`"));
                                }
                                match (base.0, base.1 + item.decl.pointers) {
                                    (Some(t), 1) => pointers.push((name, t)),
                                    // A struct inside the struct (complete, so not itself).
                                    (Some(t), 0) if t != id && self.records[t].defined => {
                                        parts.push((name, t))
                                    }
                                    (None, 0) => {
                                        if !self.is_int(&f.specs) {
                                            inexact.push(name.clone());
                                        }
                                        data.push(name)
                                    }
                                    // `void *`, `int *`: never followed (see `opaque`).
                                    (None, _) => {
                                        opaque.push(name.clone());
                                        inexact.push(name.clone());
                                        data.push(name)
                                    }
                                    _ => return Err(format!("the field `{name}`'s type")),
                                }
                            }
                        }
                        self.records[id].pointers = pointers;
                        self.records[id].parts = parts;
                        self.records[id].data = data;
                        self.records[id].inexact = inexact;
                        self.records[id].order = order;
                        self.records[id].opaque = opaque;
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
                Spec::Typedef | Spec::Extern | Spec::Static | Spec::Const | Spec::Ignored => {}
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
    /// field (a struct field is neither: see [`Lower::part`]).
    pub(super) fn field(&self, t: usize, f: &str) -> Result<Option<(usize, usize)>, String> {
        let r = &self.records[t];
        if let Some(i) = r.pointers.iter().position(|(n, _)| n == f) {
            return Ok(Some((i, r.pointers[i].1)));
        }
        if r.data.iter().any(|n| n == f) {
            return Ok(None);
        }
        if r.parts.iter().any(|(n, _)| n == f) {
            return Err(format!("the struct field `{f}` of {} as a value", r.name));
        }
        Err(format!("the field `{f}` of {}", r.name))
    }

    /// A struct field of a struct: the index of the field holding its node and its struct
    /// type.
    pub(super) fn part(&self, t: usize, f: &str) -> Option<(usize, usize)> {
        let r = &self.records[t];
        let k = r.parts.iter().position(|(n, _)| n == f)?;
        Some((r.pointers.len() + k, r.parts[k].1))
    }
}

/// Whether a file-scope declaration only declares (a typedef, an `extern` object, prototypes,
/// a struct or enum type) and defines no object: what it cannot read is harmless until used.
fn only_declares(d: &Declaration) -> bool {
    let has = |spec: Spec| d.specs.words.iter().any(|(w, _)| *w == spec);
    let prototypes = d.items.iter().all(|item| {
        item.decl
            .suffixes
            .iter()
            .any(|s| matches!(s, super::super::ast::Suffix::Params(..)))
    });
    has(Spec::Typedef)
        || (has(Spec::Extern) && d.items.iter().all(|i| i.init.is_none()))
        || prototypes
}
