//! Address-taken locals made statically allocated, and the ids of the objects' cells: the
//! first step of the lowering of `lower.rs` (see its point 1). Part of [`super`].
//!
//! Must not: compute points-to sets or lower sites.

use super::super::error::CError;
use super::super::ir::*;
use super::super::program::Program;
use super::lower::Objects;
use super::pointers::{Site, SiteKind};
use super::unsupported;
use super::walk::{recursive_functions, remap_stmts};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};

/// Makes address-taken locals globals, and gives every cell of every object an id.
pub(super) fn make_static(program: &mut Program, sites: &mut [Site]) -> Result<Objects, CError> {
    let recursive = recursive_functions(program);
    // (function, first local) → first global
    let mut moved: HashMap<(usize, usize), usize> = HashMap::new();
    let mut maps: HashMap<usize, HashMap<usize, usize>> = HashMap::new();
    let mut objects = Objects {
        ids: HashMap::new(),
        cells: BTreeMap::new(),
        ranges: HashMap::new(),
        heap: HashMap::new(),
    };
    let mut next_id = 1u32;
    let mut n_objects = 0u32;
    for s in sites.iter_mut() {
        let SiteKind::AddrOf { root, cells, cell } = &mut s.kind else {
            continue;
        };
        let vla = |info: &VarInfo| info.dims.iter().any(|d| matches!(d, Dim::Var(_)));
        let root_info = program.var(s.func, *root);
        if vla(root_info) {
            return Err(unsupported(s.span, "pointers into variable-length arrays"));
        }
        let g = match *root {
            VarRef::Global(g) => g,
            VarRef::Local(l) => {
                // Made static, the local would outlive its function's return: a pointer to it
                // dereferenced afterwards is an invalid dereference the model would not see.
                if program.heap.checks.invalid == InvalidOps::Violation && s.func != program.main {
                    return Err(unsupported(
                        s.span,
                        "the address of a local of a function other than `main` under a memory \
                         property (its lifetime, which ends at the return, is not modelled)",
                    ));
                }
                if recursive[s.func] {
                    return Err(unsupported(
                        s.span,
                        "the address of a local of a recursive function",
                    ));
                }
                *moved.entry((s.func, l)).or_insert_with(|| {
                    let g = program.globals.len();
                    let func = &program.functions[s.func];
                    for k in 0..*cells {
                        let info = &func.locals[l + k];
                        program.globals.push(VarInfo {
                            name: format!("{}.{}", func.name, info.name),
                            ty: info.ty,
                            span: info.span,
                            dims: info.dims.clone(),
                        });
                        program.global_init.push(BigInt::from(0));
                        program.global_elems.push(vec![]);
                        maps.entry(s.func).or_default().insert(l + k, g + k);
                    }
                    g
                })
            }
        };
        if let VarRef::Local(l) = *cell {
            *cell = VarRef::Global(maps[&s.func][&l]);
        }
        *root = VarRef::Global(g);
        if !objects.ids.contains_key(&g) {
            for k in 0..*cells {
                objects.ids.insert(g + k, next_id);
                objects.cells.insert(next_id, (g + k, n_objects));
                next_id += 1;
            }
            n_objects += 1;
        }
    }
    for (f, map) in maps {
        let func = &mut program.functions[f];
        let remap = |v: &mut VarRef| {
            if let VarRef::Local(l) = *v {
                if let Some(&g) = map.get(&l) {
                    *v = VarRef::Global(g);
                }
            }
        };
        remap_stmts(&mut func.body, &remap);
        for scope in &mut func.loop_scopes {
            for (_, v) in &mut scope.names {
                remap(v);
            }
        }
    }
    Ok(objects)
}
