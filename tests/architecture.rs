//! The layers of `src/`, held by a test rather than by review alone: every `crate::` and
//! `super::` path of the library's sources is resolved to the file it names, and
//!
//! - a module may use only the layers above it in [`LAYERS`] (the README's code map quotes the
//!   table, and a test checks that it still does);
//! - only `src/smt` names `z3`, and only `src/analysis` invokes `ascent!` (the exceptions still
//!   to be moved are listed, and the list must shrink, never grow);
//! - no import cycle between files crosses a folder, and the cycles inside folders do not
//!   grow past their bound here (lower it when a cycle goes).
//!
//! Each check runs on the real tree and, in its own test, on a planted source set that breaks
//! it, so that the checker itself is shown to catch what it is for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's layers, top to bottom: a module uses only modules of the layers before its
/// own (modules of one layer do not use each other). `clock` is below everything.
const LAYERS: &[&[&str]] = &[
    &["clock"],
    &["term"],
    &["chc"],
    &["syntax", "analysis", "smt"],
    &["witness"],
    &["interp", "transform"],
    &["engine"],
    &["frontend"],
    &["batch"],
    &["cli"],
];

/// Files that invoke `ascent!` outside `src/analysis` (issue 57 moves them there).
const ASCENT_OUTSIDE_ANALYSIS: &[&str] = &[
    "src/frontend/c/cfa/structure.rs",
    "src/frontend/c/resolve/points_to.rs",
];

/// Import cycles between files, at most this many (session 42: 12; `frontend/c/lexer.rs` ↔
/// `preproc/mod.rs` went with `tokenize.rs`, `frontend/c/cfa/mod.rs` ↔ `ir.rs` with
/// `program.rs`, the two that crossed a folder; session 55: 10 → 4, the memory limit, set
/// files, `encode`'s values, `#`'s tokens, the explicit product's bound and the check of one
/// clause each moved to the one file both sides read). Lower it when a cycle goes.
const MAX_CYCLES: usize = 4;

/// A source set: path (`src/...`) → text.
type Sources = BTreeMap<String, String>;

/// The library's sources (the binary's `main.rs` is above every layer).
fn library() -> Sources {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Sources::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src reads") {
            let path = entry.expect("entry").path();
            let rel = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                stack.push(path);
            } else if rel.ends_with(".rs") && rel != "src/main.rs" {
                out.insert(rel, std::fs::read_to_string(&path).expect("source reads"));
            }
        }
    }
    out
}

/// The module path of a file: `src/engine/kind/mod.rs` → `engine::kind`.
fn module_of(file: &str) -> Vec<String> {
    let rel = file.trim_start_matches("src/").trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The text without comments (doc comments name paths in links) and without the unit tests
/// at the end (`#[cfg(test)] mod tests`, whose `super::` is the file itself).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    let (mut in_str, mut block) = (false, 0usize);
    while let Some(c) = chars.next() {
        if block > 0 {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                block -= 1;
            } else if c == '/' && chars.peek() == Some(&'*') {
                chars.next();
                block += 1;
            }
            continue;
        }
        if in_str {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                block = 1;
            }
            ('"', _) => in_str = true,
            _ => out.push(c),
        }
    }
    out
}

/// Every path a file names from `crate::` or `super::`, as absolute module paths (segments
/// after the crate), groups `a::{b, c::d}` expanded.
fn paths(file: &str, text: &str) -> Vec<Vec<String>> {
    let here = module_of(file);
    let code = code(text);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let start_ok = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        let base = if !start_ok {
            None
        } else if rest.starts_with("crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if rest.starts_with("super::") {
            let mut base = here.clone();
            let mut len = 0;
            while code[i + len..].starts_with("super::") {
                base.pop();
                len += "super::".len();
            }
            Some((base, len))
        } else {
            None
        };
        match base {
            Some((base, len)) => {
                let (tails, used) = path_tail(&code[i + len..]);
                for t in tails {
                    let mut p = base.clone();
                    p.extend(t);
                    out.push(p);
                }
                i += len + used.max(1);
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

/// The segments of a path from its start (`a::b::{c, d::e}`), expanded; and how many bytes it
/// took.
fn path_tail(s: &str) -> (Vec<Vec<String>>, usize) {
    let mut segs = Vec::new();
    let mut i = 0;
    loop {
        let ident: String = s[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !ident.is_empty() {
            i += ident.len();
            segs.push(ident);
            if s[i..].starts_with("::") {
                i += 2;
                continue;
            }
            return (vec![segs], i);
        }
        if s[i..].starts_with('{') {
            let mut depth = 0;
            let mut end = i;
            for (k, c) in s[i..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + k;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let inner = &s[i + 1..end];
            let mut out = Vec::new();
            for item in split_top(inner) {
                let item = item.trim();
                let (tails, _) = path_tail(item);
                for t in tails {
                    let mut p = segs.clone();
                    p.extend(t.into_iter().filter(|x| x != "self"));
                    out.push(p);
                }
            }
            return (out, end + 1);
        }
        return (vec![segs], i);
    }
}

/// `a, b::{c, d}, e` split at its top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut from) = (Vec::new(), 0, 0);
    for (k, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out
}

/// The file a module path names: the longest prefix that is a module of the set.
fn resolve(modules: &BTreeMap<Vec<String>, String>, path: &[String]) -> Option<String> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get(&path[..n]).cloned())
}

/// File → the files it names (itself left out).
fn graph(src: &Sources) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> =
        src.keys().map(|f| (module_of(f), f.clone())).collect();
    src.iter()
        .map(|(f, text)| {
            let to = paths(f, text)
                .iter()
                .filter_map(|p| resolve(&modules, p))
                .filter(|t| t != f)
                .collect();
            (f.clone(), to)
        })
        .collect()
}

/// The top module of a file (`engine` for `src/engine/kind/mod.rs`; `lib` for the root).
fn top(file: &str) -> String {
    module_of(file)
        .first()
        .cloned()
        .unwrap_or_else(|| "lib".into())
}

/// Imports against [`LAYERS`]: `(file, the top module it must not use)`.
fn layer_violations(src: &Sources) -> Vec<(String, String)> {
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut out = Vec::new();
    for (f, to) in graph(src) {
        let from = top(&f);
        let Some(lf) = layer(&from) else { continue }; // lib.rs: above every layer
        for t in to {
            let m = top(&t);
            // The crate root holds only the module list and `#[macro_export]` macros.
            if m == from || m == "lib" {
                continue;
            }
            match layer(&m) {
                Some(lt) if lt < lf => {}
                _ => out.push((f.clone(), m)),
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(src: &Sources) -> Vec<Vec<String>> {
    let g = graph(src);
    let names: Vec<&String> = g.keys().collect();
    let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = names
        .iter()
        .map(|n| g[*n].iter().filter_map(|t| index.get(t).copied()).collect())
        .collect();
    struct Tarjan {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut Tarjan, adj: &[Vec<usize>], v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &adj[v] {
            match t.index[w] {
                None => {
                    visit(t, adj, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let n = names.len();
    let mut t = Tarjan {
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, &adj, v);
        }
    }
    let mut out: Vec<Vec<String>> = t
        .out
        .into_iter()
        .map(|c| {
            let mut c: Vec<String> = c.into_iter().map(|i| names[i].clone()).collect();
            c.sort();
            c
        })
        .collect();
    out.sort();
    out
}

/// Whether the files of a cycle lie in more than one folder.
fn across_folders(cycle: &[String]) -> bool {
    let dir = |f: &String| f.rsplit_once('/').map(|(d, _)| d.to_string());
    cycle.iter().map(dir).collect::<BTreeSet<_>>().len() > 1
}

/// Files that name `z3` outside `src/smt`, and files that invoke `ascent!` outside
/// `src/analysis`.
fn foreign_dependencies(src: &Sources) -> (Vec<String>, Vec<String>) {
    let mut z3 = Vec::new();
    let mut ascent = Vec::new();
    for (f, text) in src {
        let code = code(text);
        if !f.starts_with("src/smt/") && (code.contains("z3::") || code.contains("use z3")) {
            z3.push(f.clone());
        }
        if !f.starts_with("src/analysis/") && code.contains("ascent!") {
            ascent.push(f.clone());
        }
    }
    (z3, ascent)
}

#[test]
fn every_module_uses_only_the_layers_above_it() {
    let violations = layer_violations(&library());
    assert!(
        violations.is_empty(),
        "imports against the layers: {violations:#?}"
    );
}

#[test]
fn only_smt_names_z3_and_only_analysis_runs_ascent() {
    let (z3, ascent) = foreign_dependencies(&library());
    assert!(z3.is_empty(), "z3 named outside src/smt: {z3:?}");
    assert_eq!(
        ascent, ASCENT_OUTSIDE_ANALYSIS,
        "ascent! outside src/analysis: a new one must not be added, a moved one must leave \
         the list"
    );
}

#[test]
fn import_cycles_do_not_grow_and_none_crosses_a_folder() {
    let cycles = cycles(&library());
    let across: Vec<_> = cycles.iter().filter(|c| across_folders(c)).collect();
    assert!(
        across.is_empty(),
        "import cycles across folders: {across:#?}"
    );
    assert!(
        cycles.len() <= MAX_CYCLES,
        "{} import cycles (at most {MAX_CYCLES}): {cycles:#?}",
        cycles.len()
    );
}

#[test]
fn the_readme_quotes_the_layer_table() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README reads");
    let table: Vec<String> = LAYERS.iter().map(|l| l.join(" / ")).collect();
    let quoted = table.join(" → ");
    assert!(
        readme.contains(&quoted),
        "the README's code map must quote the layer table as `{quoted}`"
    );
}

/// A planted source set: the real tree's shape in miniature, with one import of each kind.
fn planted(extra: &[(&str, &str)]) -> Sources {
    let mut src: Sources = [
        ("src/lib.rs", "pub mod term; pub mod engine; pub mod smt;"),
        ("src/term/mod.rs", "pub struct TermStore;"),
        (
            "src/smt/mod.rs",
            "use crate::term::TermStore; use z3::Solver;",
        ),
        (
            "src/engine/mod.rs",
            "// crate::frontend in a comment is no import\nuse crate::{smt::Smt, term::TermStore};",
        ),
    ]
    .into_iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect();
    for (f, t) in extra {
        src.insert(f.to_string(), t.to_string());
    }
    src
}

#[test]
fn the_checker_catches_a_planted_import_against_the_layers() {
    assert!(layer_violations(&planted(&[])).is_empty());
    // `term` using `engine`, inside a group of a multi-line `use`.
    let bad = planted(&[(
        "src/term/store.rs",
        "use crate::{\n    engine::Context,\n    term::TermStore,\n};",
    )]);
    assert_eq!(
        layer_violations(&bad),
        vec![("src/term/store.rs".to_string(), "engine".to_string())]
    );
}

#[test]
fn the_checker_catches_a_planted_cycle_and_foreign_dependencies() {
    assert!(cycles(&planted(&[])).is_empty());
    let bad = planted(&[
        (
            "src/engine/a.rs",
            "use super::b::B; use crate::engine::kind::K;",
        ),
        ("src/engine/b.rs", "use super::a::A;"),
        (
            "src/engine/kind/mod.rs",
            "use crate::engine::a::A; fn f() { ascent! {} }",
        ),
        ("src/engine/c.rs", "fn g(cx: &z3::Context) {}"),
    ]);
    let found = cycles(&bad);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(across_folders(&found[0]));
    assert_eq!(found[0].len(), 3);
    let (z3, ascent) = foreign_dependencies(&bad);
    assert_eq!(z3, vec!["src/engine/c.rs".to_string()]);
    assert_eq!(ascent, vec!["src/engine/kind/mod.rs".to_string()]);
}
