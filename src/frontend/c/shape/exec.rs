//! Symbolic execution of one pointer statement on a forest automaton: the forests of the
//! heaps the statement can lead to, normalised, or the memory fault it can make.
//!
//! A statement that reads or writes a node's field first *unfolds* the component whose root
//! the pointer designates (one forest per rule of its root state, each with a fresh root
//! state of that one rule) and then *materialises* the field (one forest per rule of the
//! field's state: a leaf is kept as the field's value, a node is split off into a
//! component of its own, which the field now references). The field's value is then a
//! variable's value ([`Val`]) and the statement acts on the forest's variables and root
//! rules only.
//!
//! Back-links ([`Leaf::Back`], see `boxes.rs`): a load of one yields its node, made a
//! component's root by cutting the tree holding it where it is not one; a store first makes
//! explicit the back-links of the field's old target (they point to the stored node) and of
//! its new target (they point to its current predecessor, cut out likewise); `free` turns the back-links of the nodes the freed
//! one points to into undefined (dangling) pointers.
//!
//! Boxes ([`Leaf::Boxed`], see `closed.rs`): materialising a field that holds one unpacks
//! its structure as a component of its own; normalisation packs it again once nothing but
//! that field refers to it.
//!
//! Must not: join, abstract or decide (that is `fixpoint.rs`); return a fault for an
//! execution it cannot rule out without saying so.

use super::super::ast::Span;
use super::super::property::PropertyKind as Property;
use super::boxes;
use super::closed::BoxLib;
use super::fa::{Broken, Forest, Val};
use super::pir::{Cmp, Ending, IntVal, Op, Operand, PointerProgram, Storage};
use super::ta::{Leaf, Rule, Symbol, TreeAut, ANY, UNKNOWN};

/// A memory fault some heap of the forest makes (under the abstraction: it may be
/// spurious).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A dereference of a null, undefined or dangling pointer.
    Deref(Span),
    /// `free` of an undefined or dangling pointer.
    Free(Span),
    /// A node reachable from no variable.
    Leak(Span),
    /// The execution ends with blocks still allocated.
    End(Span),
    /// An error call or a failing assertion is reached (unreach-call).
    Error(Span),
    /// An automaton lost the consistency the domain relies on.
    Internal(Span),
    /// A back-link whose node is inside a tree, not a component's root (the engine does not
    /// cut a tree there).
    Box(Span),
}

impl Fault {
    /// The fault as text.
    pub fn describe(&self, line_of: &dyn Fn(usize) -> usize) -> String {
        let (what, s) = match self {
            Fault::Deref(s) => ("a possibly invalid dereference", s),
            Fault::Free(s) => ("a possibly invalid free", s),
            Fault::Leak(s) => ("possibly unreachable memory (a leak)", s),
            Fault::End(s) => ("blocks possibly still allocated at the end", s),
            Fault::Error(s) => ("a possibly reachable error call", s),
            Fault::Internal(s) => ("an inconsistent forest automaton", s),
            Fault::Box(s) => ("a back-link to a node inside a tree (not modelled)", s),
        };
        format!("{what} at line {}", line_of(s.start))
    }
}

/// The forests after `op` from `f` (normalised), or a fault.
pub fn post(
    f: &Forest,
    op: &Op,
    span: Span,
    prog: &PointerProgram,
    lib: &mut BoxLib,
) -> Result<Vec<Forest>, Fault> {
    let out = step(f, op, span, prog, lib)?;
    let mut done = vec![];
    for mut g in out {
        match g.normalize(prog.property == Property::UnreachCall, lib, &prog.types) {
            Ok(true) => done.push(g),
            Ok(false) => {}
            Err(Broken::Garbage) => return Err(Fault::Leak(span)),
            Err(Broken::Inconsistent) => return Err(Fault::Internal(span)),
        }
    }
    Ok(done)
}

/// The forests after `op` from `f`, before normalisation.
fn step(
    f: &Forest,
    op: &Op,
    span: Span,
    prog: &PointerProgram,
    lib: &BoxLib,
) -> Result<Vec<Forest>, Fault> {
    Ok(match op {
        Op::Skip => vec![f.clone()],
        Op::Set(x, e) => {
            let mut g = f.clone();
            g.vars[*x] = operand(f, *e);
            vec![g]
        }
        Op::Kill(xs) => {
            let mut g = f.clone();
            for &x in xs {
                g.vars[x] = Val::Undef;
            }
            vec![g]
        }
        Op::Load(x, y, i) => {
            let c = comp(f, *y).ok_or(Fault::Deref(span))?;
            let mut out = vec![];
            for g in unfold(f, c, span)? {
                load(&g, *x, c, *i, span, lib, &mut out)?;
            }
            out
        }
        // Loads that dereference nothing: where `y`'s node is not what they need, `x` is
        // undefined (its use is the fault).
        Op::Container(x, y, ty) => {
            let up = prog.types[*ty].pointers.len() - 1;
            soft_load(f, *x, *y, span, lib, |t, _| (t == *ty).then_some(up))?
        }
        Op::PartOf(x, y, i) => {
            soft_load(f, *x, *y, span, lib, |_, arity| (*i < arity).then_some(*i))?
        }
        Op::Store(y, i, e) => store(f, *y, *i, operand(f, *e), span, lib)?,
        Op::Alloc(x, t, zeroed) => {
            let fill = if *zeroed { Leaf::Null } else { Leaf::Undef };
            let mut g = f.clone();
            let kids = vec![fill; prog.types[*t].pointers.len()];
            let mut data = UNKNOWN;
            if *zeroed {
                for d in data.iter_mut().take(prog.types[*t].data.len()) {
                    *d = 0;
                }
            }
            g.comps.push(TreeAut::node(*t, data, &kids));
            g.vars[*x] = Val::Comp(g.comps.len() - 1);
            vec![g]
        }
        Op::Free(x) => match f.vars[*x] {
            Val::Null => vec![f.clone()],
            Val::Undef => return Err(Fault::Free(span)),
            Val::Comp(c) if heap_root(f, c, prog) == Some(true) => dispose(f, c, span, lib)?,
            // A struct variable or a part of a block (or a root that may be one).
            Val::Comp(_) => return Err(Fault::Free(span)),
        },
        Op::Release(x) => match comp(f, *x) {
            Some(c) if heap_root(f, c, prog) == Some(false) => dispose(f, c, span, lib)?,
            _ => return Err(Fault::Internal(span)),
        },
        Op::Check(x) => {
            comp(f, *x).ok_or(Fault::Deref(span))?;
            vec![f.clone()]
        }
        Op::SetData(x, d, v) => {
            let mut out = vec![];
            for (g, v) in read(f, *v, span)? {
                let c = comp(&g, *x).ok_or(Fault::Deref(span))?;
                for mut h in unfold(&g, c, span)? {
                    let a = &mut h.comps[c];
                    let root = a.root;
                    if let Symbol::Node(_, data) = &mut a.rules[root][0].sym {
                        data[*d] = v;
                    }
                    out.push(h);
                }
            }
            out
        }
        Op::SetInt(i, v) => read(f, *v, span)?
            .into_iter()
            .map(|(mut g, v)| {
                g.ints[*i] = v;
                g
            })
            .collect(),
        Op::AssumeInt(i, cmp, v) => {
            let mut g = f.clone();
            match assume(&mut g.ints[*i], *cmp, *v) {
                true => vec![g],
                false => vec![],
            }
        }
        Op::AssumeData(x, d, cmp, v) => {
            let c = comp(f, *x).ok_or(Fault::Deref(span))?;
            let mut out = vec![];
            for mut g in unfold(f, c, span)? {
                let a = &mut g.comps[c];
                let root = a.root;
                let Symbol::Node(_, data) = &mut a.rules[root][0].sym else {
                    return Err(Fault::Internal(span));
                };
                if assume(&mut data[*d], *cmp, *v) {
                    out.push(g);
                }
            }
            out
        }
        Op::Assume(eq, a, b) => {
            let same = match (operand(f, *a), operand(f, *b)) {
                (Val::Undef, _) | (_, Val::Undef) => None,
                (x, y) => Some(x == y),
            };
            if same.is_some_and(|s| s != *eq) {
                vec![]
            } else {
                vec![f.clone()]
            }
        }
        Op::Exit(ending) => {
            // Variables' nodes are not blocks; a heap node's parts are left with it.
            let left = f.comps.iter().any(|c| {
                c.rules.iter().flatten().any(|r| match r.sym {
                    Symbol::Node(t, _) => prog.types[t].storage == Storage::Heap,
                    Symbol::Leaf(Leaf::Boxed(k)) => lib.holds_heap(k, prog),
                    Symbol::Leaf(_) => false,
                })
            });
            match (prog.property, ending) {
                (Property::UnreachCall, Ending::Error) => return Err(Fault::Error(span)),
                (Property::UnreachCall, _) => {}
                (Property::MemCleanup, _) | (_, Ending::Return) if left => {
                    return Err(Fault::End(span))
                }
                _ => {}
            }
            vec![]
        }
    })
}

/// The forests after component `c`'s root node ends (freed or released): the nodes it
/// points to lose their back-links to it (they dangle), and pointers to it dangle.
fn dispose(f: &Forest, c: usize, span: Span, lib: &BoxLib) -> Result<Vec<Forest>, Fault> {
    let mut cur = unfold(f, c, span)?;
    let arity = cur
        .first()
        .map_or(0, |g| g.comps[c].rules[g.comps[c].root][0].kids.len());
    for i in 0..arity {
        let mut next = vec![];
        for g in &cur {
            next.extend(materialize(g, c, i, span, lib)?.into_iter().map(|(h, _)| h));
        }
        cur = next;
    }
    let mut out = vec![];
    for mut g in cur {
        // The nodes the ended one points to: their back-links to it dangle.
        let a = &g.comps[c];
        let ty = boxes::root_type(&g, c).ok_or(Fault::Internal(span))?;
        let kids = a.rules[a.root][0].kids.clone();
        for (i, k) in kids.into_iter().enumerate() {
            let a = &g.comps[c];
            if let [Rule {
                sym: Symbol::Leaf(Leaf::Root(j)),
                ..
            }] = a.rules[k][..]
            {
                if j != c {
                    g = boxes::unback(&g, j, Leaf::Back(ty, i), Leaf::Undef)
                        .ok_or(Fault::Internal(span))?;
                }
            }
        }
        let mut keep = vec![true; g.comps.len()];
        keep[c] = false;
        g.retain_comps(&keep);
        out.push(g);
    }
    Ok(out)
}

/// Whether a tracked value (a constant or [`ANY`]) may satisfy `value cmp v`; an unknown value
/// becomes `v` under `==` (only `== v` makes it known: "not v", "below v" are no values the
/// symbols hold, so any stays any).
fn assume(value: &mut i32, cmp: Cmp, v: i32) -> bool {
    if *value != ANY {
        return cmp.holds(*value, v);
    }
    if cmp == Cmp::Eq {
        *value = v;
    }
    true
}

/// The forests in which an integer value is read, each with the value ([`ANY`]: not known);
/// reading a field unfolds its node.
fn read(f: &Forest, v: IntVal, span: Span) -> Result<Vec<(Forest, i32)>, Fault> {
    Ok(match v {
        IntVal::Any => vec![(f.clone(), ANY)],
        IntVal::Const(c) => vec![(f.clone(), c)],
        IntVal::Int(j) => vec![(f.clone(), f.ints[j])],
        IntVal::Field(x, d) => {
            let c = comp(f, x).ok_or(Fault::Deref(span))?;
            let mut out = vec![];
            for g in unfold(f, c, span)? {
                let a = &g.comps[c];
                let Symbol::Node(_, data) = &a.rules[a.root][0].sym else {
                    return Err(Fault::Internal(span));
                };
                let value = data[d];
                out.push((g, value));
            }
            out
        }
    })
}

/// An operand's value.
fn operand(f: &Forest, e: Operand) -> Val {
    match e {
        Operand::Null => Val::Null,
        Operand::Var(v) => f.vars[v],
    }
}

/// Whether component `c`'s root is a [`Storage::Heap`] node in every heap of the forest
/// (`Some(true)`), in none (`Some(false)`), or it depends (`None`).
fn heap_root(f: &Forest, c: usize, prog: &PointerProgram) -> Option<bool> {
    let a = &f.comps[c];
    let mut heap = a.rules[a.root].iter().map(|r| {
        r.sym
            .node_type()
            .map(|t| prog.types[t].storage == Storage::Heap)
    });
    let first = heap.next()??;
    heap.all(|h| h == Some(first)).then_some(first)
}

/// The component a variable points to the root of.
/// `x = y->i` on a forest `g` whose component `c` (`y`'s) is unfolded: one forest per
/// value the field can have, pushed to `out`.
fn load(
    g: &Forest,
    x: usize,
    c: usize,
    i: usize,
    span: Span,
    lib: &BoxLib,
    out: &mut Vec<Forest>,
) -> Result<(), Fault> {
    for (mut h, l) in materialize(g, c, i, span, lib)? {
        let v = match l {
            Leaf::Null => Val::Null,
            Leaf::Undef => Val::Undef,
            Leaf::Root(j) => Val::Comp(j),
            // `y`'s own node, the root of its component.
            Leaf::Own => Val::Comp(c),
            // `materialize` unpacks boxes.
            Leaf::Boxed(_) => return Err(Fault::Internal(span)),
            // The back-link's node, made a component's root.
            Leaf::Back(t, fld) => {
                for (mut k, d) in preds(&h, c, t, fld, span)? {
                    k.vars[x] = Val::Comp(d);
                    out.push(k);
                }
                continue;
            }
        };
        h.vars[x] = v;
        out.push(h);
    }
    Ok(())
}

/// `x = y->i` where `field` gives `i` for the type and arity of `y`'s node, and `x` is
/// undefined where it gives none or `y` points to no node.
fn soft_load(
    f: &Forest,
    x: usize,
    y: usize,
    span: Span,
    lib: &BoxLib,
    field: impl Fn(usize, usize) -> Option<usize>,
) -> Result<Vec<Forest>, Fault> {
    let Some(c) = comp(f, y) else {
        let mut g = f.clone();
        g.vars[x] = Val::Undef;
        return Ok(vec![g]);
    };
    let mut out = vec![];
    for mut g in unfold(f, c, span)? {
        let a = &g.comps[c];
        let r = &a.rules[a.root][0];
        let Symbol::Node(t, _) = r.sym else {
            return Err(Fault::Internal(span));
        };
        match field(t, r.kids.len()) {
            Some(i) => load(&g, x, c, i, span, lib, &mut out)?,
            None => {
                g.vars[x] = Val::Undef;
                out.push(g);
            }
        }
    }
    Ok(out)
}

fn comp(f: &Forest, x: usize) -> Option<usize> {
    match f.vars[x] {
        Val::Comp(c) => Some(c),
        _ => None,
    }
}

/// One forest per rule of component `c`'s root, whose root becomes a fresh state with that
/// rule alone.
fn unfold(f: &Forest, c: usize, span: Span) -> Result<Vec<Forest>, Fault> {
    let a = &f.comps[c];
    let mut out = vec![];
    for r in &a.rules[a.root] {
        if !matches!(r.sym, Symbol::Node(..)) {
            return Err(Fault::Internal(span));
        }
        let mut g = f.clone();
        let root = g.comps[c].add_state(vec![r.clone()]);
        g.comps[c].root = root;
        out.push(g);
    }
    Ok(out)
}

/// With component `c`'s root unfolded: one forest per rule of the state of its `i`-th
/// field, where that field is a leaf (its value) or the root of a new component (a node
/// split off, or a box's structure unpacked).
fn materialize(
    f: &Forest,
    c: usize,
    i: usize,
    span: Span,
    lib: &BoxLib,
) -> Result<Vec<(Forest, Leaf)>, Fault> {
    let a = &f.comps[c];
    let kid = a.rules[a.root][0]
        .kids
        .get(i)
        .copied()
        .ok_or(Fault::Internal(span))?;
    let mut out = vec![];
    for u in &a.rules[kid] {
        let mut g = f.clone();
        let leaf = match u.sym {
            // A box's structure, unpacked as a component of its own.
            Symbol::Leaf(Leaf::Boxed(k)) => {
                let new = g.comps.len();
                g.comps.extend(lib.unpack(k, new));
                Leaf::Root(new)
            }
            Symbol::Leaf(l) => l,
            Symbol::Node(..) => {
                let mut split = g.comps[c].clone();
                split.root = split.add_state(vec![u.clone()]);
                g.comps.push(split);
                Leaf::Root(g.comps.len() - 1)
            }
        };
        let a = &mut g.comps[c];
        let s = a.add_state(vec![Rule::leaf(leaf)]);
        let root = a.root;
        a.rules[root][0].kids[i] = s;
        out.push((g, leaf));
    }
    Ok(out)
}

/// `y->i = v`: the old target's back-link along the field becomes explicit (it points to
/// `y`'s node), the new target's too (it points to its current predecessor, which must be a
/// component's root), then the field is overwritten.
fn store(
    f: &Forest,
    y: usize,
    i: usize,
    v: Val,
    span: Span,
    lib: &BoxLib,
) -> Result<Vec<Forest>, Fault> {
    let c = comp(f, y).ok_or(Fault::Deref(span))?;
    if boxes::root_type(f, c).is_some() {
        return store_typed(f, c, i, v, span, lib);
    }
    // A root of several struct types (a pointer that may point to a block or to a struct
    // variable or part of the same type): one rule at a time.
    let mut out = vec![];
    for g in unfold(f, c, span)? {
        out.extend(store_typed(&g, c, i, v, span, lib)?);
    }
    Ok(out)
}

/// `store` where component `c`'s root has one struct type.
fn store_typed(
    f: &Forest,
    c: usize,
    i: usize,
    v: Val,
    span: Span,
    lib: &BoxLib,
) -> Result<Vec<Forest>, Fault> {
    let ty = boxes::root_type(f, c).ok_or(Fault::Internal(span))?;
    let back = Leaf::Back(ty, i);
    let mut bases = vec![f.clone()];
    if let Val::Comp(j) = v {
        if boxes::has_back(f, j, back) {
            bases = preds(f, j, ty, i, span)?
                .into_iter()
                .map(|(g, d)| explicit(&g, j, back, d).ok_or(Fault::Box(span)))
                .collect::<Result<_, _>>()?;
        }
    }
    let leaf = match v {
        Val::Null => Leaf::Null,
        Val::Undef => Leaf::Undef,
        Val::Comp(j) => Leaf::Root(j),
    };
    let mut out = vec![];
    for g in bases
        .iter()
        .map(|b| unfold(b, c, span))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
    {
        for (mut h, old) in materialize(&g, c, i, span, lib)? {
            if let Leaf::Root(j) = old {
                if boxes::has_back(&h, j, back) {
                    h = explicit(&h, j, back, c).ok_or(Fault::Box(span))?;
                }
            }
            let a = &mut h.comps[c];
            let s = a.add_state(vec![Rule::leaf(leaf)]);
            let root = a.root;
            a.rules[root][0].kids[i] = s;
            out.push(h);
        }
    }
    Ok(out)
}

/// The forests in which the node that component `c`'s root's back-link `Back(t, fld)`
/// points to is a component's root, with that component: the forest itself when it is one,
/// else the forests of the tree holding it cut there.
fn preds(
    f: &Forest,
    c: usize,
    t: usize,
    fld: usize,
    span: Span,
) -> Result<Vec<(Forest, usize)>, Fault> {
    if let Some(d) = boxes::pred_root(f, c, t, fld) {
        return Ok(vec![(f.clone(), d)]);
    }
    boxes::cut(f, c, t, fld).ok_or(Fault::Box(span))
}

/// Component `j`'s root's back-links `back` as explicit references to `d`'s root, unless
/// that would change what a back-link of `d`'s root means.
fn explicit(f: &Forest, j: usize, back: Leaf, d: usize) -> Option<Forest> {
    let g = boxes::unback(f, j, back, Leaf::Root(d))?;
    let a = &f.comps[j];
    let gs: Vec<usize> = a.rules[a.root]
        .iter()
        .flat_map(|r| {
            r.kids
                .iter()
                .enumerate()
                .filter(|(_, &k)| a.rules[k].iter().any(|x| x.sym == Symbol::Leaf(back)))
                .map(|(n, _)| n)
        })
        .collect();
    (!boxes::disturbs(f, j, &gs, d)).then_some(g)
}
