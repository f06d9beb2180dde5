//! The syntax tree of a rule file; every node keeps the byte offset where it starts.

/// A binary arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// An argument or arithmetic expression.
#[derive(Clone, Debug)]
pub(super) struct Expr {
    pub at: usize,
    pub kind: ExprKind,
}

#[derive(Clone, Debug)]
pub(super) enum ExprKind {
    Var(String),
    /// `_`.
    Wild,
    Num(i64),
    Str(String),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `cat(s, ...)` or `to_string(n)`.
    Call(String, Vec<Expr>),
}

impl Expr {
    /// The named variables of the expression, with their offsets, in order.
    pub fn vars(&self, out: &mut Vec<(String, usize)>) {
        match &self.kind {
            ExprKind::Var(v) => out.push((v.clone(), self.at)),
            ExprKind::Neg(e) => e.vars(out),
            ExprKind::Bin(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.vars(out)),
            ExprKind::Wild | ExprKind::Num(_) | ExprKind::Str(_) => {}
        }
    }
}

/// `rel(arg, ...)`.
#[derive(Clone, Debug)]
pub(super) struct Atom {
    pub at: usize,
    pub rel: String,
    pub args: Vec<Expr>,
}

/// `count`, `sum e`, `min e`, `max e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AggKind {
    Count,
    Sum,
    Min,
    Max,
}

/// One literal of a rule body.
#[derive(Clone, Debug)]
pub(super) enum Literal {
    Pos(Atom),
    Neg(Atom),
    Cmp(CmpOp, Expr, Expr),
    /// `var = kind [expr] : { atom }`.
    Agg {
        at: usize,
        var: (String, usize),
        kind: AggKind,
        value: Option<Expr>,
        atom: Atom,
    },
}

/// `head :- body.` (a fact when the body is empty).
#[derive(Clone, Debug)]
pub(super) struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
}

/// `.decl name(col: type, ...)`; each column with the offset of its type.
#[derive(Clone, Debug)]
pub(super) struct Decl {
    pub at: usize,
    pub name: String,
    pub columns: Vec<(String, String, usize)>,
}

/// A parsed rule file.
#[derive(Clone, Debug, Default)]
pub(super) struct File {
    /// `.type name <: base`, as (name, base, offset).
    pub types: Vec<(String, String, usize)>,
    pub decls: Vec<Decl>,
    pub inputs: Vec<(String, usize)>,
    pub outputs: Vec<(String, usize)>,
    pub rules: Vec<Rule>,
}
