//! SMT-LIB printing of sorts, terms and literals.
//!
//! Shared compound subterms of large terms are printed once, bound by `let`, so printing is
//! linear in the DAG size. Printing never fails and never changes the store.

use super::{Op, Quantifier, Term, TermId, TermStore, VarId};
use num_rational::BigRational;
use num_traits::Signed;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Prints terms of one store.
pub struct TermPrinter<'a> {
    store: &'a TermStore,
}

/// Whether `s` can be printed as a simple SMT-LIB symbol.
pub fn is_simple_symbol(s: &str) -> bool {
    const EXTRA: &str = "~!@$%^&*_-+=<>.?/";
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || EXTRA.contains(c))
        && !matches!(
            s,
            "let" | "forall" | "exists" | "!" | "_" | "as" | "match" | "par"
        )
}

/// A symbol as SMT-LIB text: bare when possible, `|quoted|` otherwise.
pub fn symbol(s: &str) -> String {
    if is_simple_symbol(s) {
        s.to_string()
    } else {
        format!("|{s}|")
    }
}

/// A real literal: `1.5`, `(- 2.0)`, `(/ 1.0 3.0)`.
pub fn real_literal(r: &BigRational) -> String {
    let body = |r: &BigRational| {
        if r.is_integer() {
            format!("{}.0", r.numer())
        } else {
            format!("(/ {}.0 {}.0)", r.numer(), r.denom())
        }
    };
    if r.is_negative() {
        format!("(- {})", body(&-r))
    } else {
        body(r)
    }
}

fn op_name(store: &TermStore, op: &Op) -> String {
    match op {
        Op::Not => "not".into(),
        Op::And => "and".into(),
        Op::Or => "or".into(),
        Op::Implies => "=>".into(),
        Op::Xor => "xor".into(),
        Op::Ite => "ite".into(),
        Op::Eq => "=".into(),
        Op::Distinct => "distinct".into(),
        Op::Add => "+".into(),
        Op::Sub | Op::Neg => "-".into(),
        Op::Mul => "*".into(),
        Op::RealDiv => "/".into(),
        Op::IntDiv => "div".into(),
        Op::Mod => "mod".into(),
        Op::Abs => "abs".into(),
        Op::Le => "<=".into(),
        Op::Lt => "<".into(),
        Op::Ge => ">=".into(),
        Op::Gt => ">".into(),
        Op::ToReal => "to_real".into(),
        Op::ToInt => "to_int".into(),
        Op::IsInt => "is_int".into(),
        Op::Select => "select".into(),
        Op::Store => "store".into(),
        Op::ConstArray(s) => format!("(as const {s})"),
        Op::Ctor(c) => symbol(&store.ctor(*c).name),
        Op::Selector(c, i) => symbol(&store.ctor(*c).fields[*i as usize].0),
        Op::Tester(c) => format!("(_ is {})", symbol(&store.ctor(*c).name)),
        Op::Size(d) => symbol(&store.size_name(*d)),
    }
}

/// Terms whose tree unfolding is below this size are printed without `let`.
const LET_THRESHOLD: usize = 200;

impl<'a> TermPrinter<'a> {
    /// A printer for `store`.
    pub fn new(store: &'a TermStore) -> Self {
        TermPrinter { store }
    }

    /// A variable's name as an SMT-LIB symbol.
    pub fn var(&self, v: VarId) -> String {
        symbol(&self.store.var_name(v))
    }

    /// The SMT-LIB text of `t`.
    pub fn term(&self, t: TermId) -> String {
        let shared = self.shared_subterms(t);
        let mut names = HashMap::new();
        let mut out = String::new();
        let mut closing = 0;
        for (i, &s) in shared.iter().enumerate() {
            let mut def = String::new();
            self.write(s, &names, &mut def);
            let name = format!("@s{}", i + 1);
            let _ = write!(out, "(let (({name} {def})) ");
            names.insert(s, name);
            closing += 1;
        }
        self.write(t, &names, &mut out);
        out.extend(std::iter::repeat_n(')', closing));
        out
    }

    /// Compound subterms referenced more than once, in dependency order, when the tree
    /// unfolding of `t` is large; empty otherwise.
    fn shared_subterms(&self, t: TermId) -> Vec<TermId> {
        let mut refs: HashMap<TermId, usize> = HashMap::new();
        let mut order = Vec::new();
        self.count(t, &mut refs, &mut order);
        // tree size, saturating
        let mut size: HashMap<TermId, usize> = HashMap::new();
        for &s in &order {
            let n = match &self.store.get(s).term {
                Term::App(_, args) => args.iter().fold(1usize, |acc, a| {
                    acc.saturating_add(*size.get(a).unwrap_or(&1))
                }),
                Term::Quant(_, _, b) => 1usize.saturating_add(*size.get(b).unwrap_or(&1)),
                _ => 1,
            };
            size.insert(s, n);
        }
        if size.get(&t).copied().unwrap_or(1) < LET_THRESHOLD {
            return Vec::new();
        }
        // The lets go in front of the whole term, outside every quantifier: a subterm that
        // mentions a bound variable (or is quantified itself) must stay where it is.
        let mut bound = HashSet::new();
        for &s in &order {
            if let Term::Quant(_, vars, _) = &self.store.get(s).term {
                bound.extend(vars.iter().copied());
            }
        }
        let mut scoped: HashMap<TermId, bool> = HashMap::new();
        for &s in &order {
            let m = match &self.store.get(s).term {
                Term::Var(v) => bound.contains(v),
                Term::App(_, args) => args.iter().any(|a| scoped[a]),
                Term::Quant(..) => true,
                _ => false,
            };
            scoped.insert(s, m);
        }
        order
            .into_iter()
            .filter(|s| *s != t && refs[s] > 1 && size[s] > 3 && !scoped[s])
            .collect()
    }

    /// Counts references of every subterm; `order` receives them in post-order.
    fn count(&self, t: TermId, refs: &mut HashMap<TermId, usize>, order: &mut Vec<TermId>) {
        let n = refs.entry(t).or_insert(0);
        *n += 1;
        if *n > 1 {
            return;
        }
        match &self.store.get(t).term {
            Term::App(_, args) => {
                for &a in args.iter() {
                    self.count(a, refs, order);
                }
            }
            Term::Quant(_, _, body) => self.count(*body, refs, order),
            _ => {}
        }
        order.push(t);
    }

    fn write(&self, t: TermId, names: &HashMap<TermId, String>, out: &mut String) {
        if let Some(n) = names.get(&t) {
            out.push_str(n);
            return;
        }
        let node = self.store.get(t);
        match &node.term {
            Term::Var(v) => out.push_str(&self.var(*v)),
            Term::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Term::Int(i) if i.is_negative() => {
                let _ = write!(out, "(- {})", -i);
            }
            Term::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Term::Real(r) => out.push_str(&real_literal(r)),
            Term::App(Op::Ctor(c), args) if args.is_empty() => {
                out.push_str(&op_name(self.store, &Op::Ctor(*c)));
            }
            Term::App(op, args) => {
                out.push('(');
                out.push_str(&op_name(self.store, op));
                for &a in args.iter() {
                    out.push(' ');
                    self.write(a, names, out);
                }
                out.push(')');
            }
            Term::Quant(q, vars, body) => {
                let kw = match q {
                    Quantifier::Forall => "forall",
                    Quantifier::Exists => "exists",
                };
                let _ = write!(out, "({kw} (");
                for (i, v) in vars.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    let _ = write!(out, "({} {})", self.var(*v), self.store.var_sort(*v));
                }
                out.push_str(") ");
                self.write(*body, names, out);
                out.push(')');
            }
        }
    }
}

impl TermPrinter<'_> {
    /// One `declare-datatypes` command per declaration group of the store, in declaration
    /// order, each on its own line (empty when the store declares no datatype).
    pub fn datatype_declarations(&self) -> String {
        let mut out = String::new();
        for group in self.store.datatype_groups() {
            let decls: Vec<_> = group.iter().map(|&d| self.store.datatype(d)).collect();
            let heads: Vec<String> = decls
                .iter()
                .map(|d| format!("({} 0)", symbol(&d.name)))
                .collect();
            let bodies: Vec<String> = decls
                .iter()
                .map(|d| {
                    let ctors: Vec<String> = d
                        .ctors
                        .iter()
                        .map(|&c| {
                            let c = self.store.ctor(c);
                            let mut s = format!("({}", symbol(&c.name));
                            for (f, so) in &c.fields {
                                let _ = write!(s, " ({} {so})", symbol(f));
                            }
                            s.push(')');
                            s
                        })
                        .collect();
                    format!("({})", ctors.join(" "))
                })
                .collect();
            let _ = writeln!(
                out,
                "(declare-datatypes ({}) ({}))",
                heads.join(" "),
                bodies.join(" ")
            );
        }
        out
    }
}

impl TermStore {
    /// The SMT-LIB text of a term (shorthand for [`TermPrinter::term`]).
    pub fn display(&self, t: TermId) -> String {
        TermPrinter::new(self).term(t)
    }
}
