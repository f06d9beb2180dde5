//! Abstract syntax tree of SMT-LIB v2 scripts and models, as produced by the parser.
//!
//! This module only describes the *shape* of the input: it must not resolve names,
//! check sorts, or know anything about Horn clauses (that is the lowering's job).
//! Every node carries a [`Span`] of byte offsets into the parsed source.

/// A half-open range `start..end` of byte offsets into the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// Builds a span from its two byte offsets.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// A symbol (simple or quoted). For `|a b|` the `name` is `a b` (no bars),
/// while the span covers the bars.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    /// The symbol's name, without the bars of a quoted symbol.
    pub name: String,
    /// Where it is in the source.
    pub span: Span,
}

/// A sort expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Sort {
    /// A sort name, e.g. `Int`.
    Simple(Symbol),
    /// A parametric sort, e.g. `(Array Int Int)`.
    App(Symbol, Vec<Sort>, Span),
    /// An indexed sort, e.g. `(_ BitVec 32)`; indices are kept as text.
    Indexed(Symbol, Vec<String>, Span),
}

impl Sort {
    /// The span of the whole sort expression.
    pub fn span(&self) -> Span {
        match self {
            Sort::Simple(s) => s.span,
            Sort::App(_, _, sp) | Sort::Indexed(_, _, sp) => *sp,
        }
    }
}

/// A literal constant. The text is kept verbatim, except where noted.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A numeral such as `0` or `123456789012345678901234567890`.
    Numeral(String),
    /// A decimal such as `1.5`.
    Decimal(String),
    /// A hexadecimal literal: the digits only, without the `#x` prefix.
    Hex(String),
    /// A binary literal: the digits only, without the `#b` prefix.
    Binary(String),
    /// A string literal: its content with `""` already unescaped to `"`, without the quotes.
    Str(String),
}

/// An identifier, possibly indexed or qualified with a sort.
#[derive(Clone, Debug, PartialEq)]
pub enum Ident {
    /// A plain symbol.
    Simple(Symbol),
    /// `(_ name idx...)`; indices (numerals or symbols) are kept as text.
    Indexed(Symbol, Vec<String>, Span),
    /// `(as id sort)`.
    Qualified(Box<Ident>, Sort, Span),
}

impl Ident {
    /// The span of the whole identifier.
    pub fn span(&self) -> Span {
        match self {
            Ident::Simple(s) => s.span,
            Ident::Indexed(_, _, sp) | Ident::Qualified(_, _, sp) => *sp,
        }
    }

    /// The underlying symbol (for `(as (_ f 1) S)` this is `f`).
    pub fn symbol(&self) -> &Symbol {
        match self {
            Ident::Simple(s) | Ident::Indexed(s, _, _) => s,
            Ident::Qualified(id, _, _) => id.symbol(),
        }
    }
}

/// A term together with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// What kind of term it is.
    pub kind: TermKind,
    /// Where it is in the source.
    pub span: Span,
}

/// The forms a term can take.
#[derive(Clone, Debug, PartialEq)]
pub enum TermKind {
    /// A literal constant.
    Lit(Literal),
    /// An identifier used as a term (constant or variable).
    Var(Ident),
    /// `(f t1 ... tn)`, n >= 1; the head may be e.g. `(as const (Array Int Int))`.
    App(Ident, Vec<Term>),
    /// `(let ((x t)...) body)`.
    Let(Vec<(Symbol, Term)>, Box<Term>),
    /// `(forall ((x S)...) body)`.
    Forall(Vec<(Symbol, Sort)>, Box<Term>),
    /// `(exists ((x S)...) body)`.
    Exists(Vec<(Symbol, Sort)>, Box<Term>),
    /// `(! t :named n ...)`.
    Annotated(Box<Term>, Vec<Attribute>),
}

/// An attribute `:keyword value?`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The keyword, including its leading colon (e.g. `:named`).
    pub keyword: String,
    /// The value, if any.
    pub value: Option<SExpr>,
    /// Span of the keyword and its value.
    pub span: Span,
}

/// A generic s-expression, used for attribute values and parts the parser does not interpret.
#[derive(Clone, Debug, PartialEq)]
pub enum SExpr {
    /// Any atom, with its source text verbatim (a quoted symbol keeps its bars, a string its
    /// quotes, a hex literal its `#x`).
    Atom(String, Span),
    /// A parenthesised list.
    List(Vec<SExpr>, Span),
}

impl SExpr {
    /// The span of the whole s-expression.
    pub fn span(&self) -> Span {
        match self {
            SExpr::Atom(_, sp) | SExpr::List(_, sp) => *sp,
        }
    }

    /// If this is an atom, its text with the bars of a quoted symbol removed.
    pub fn symbol_name(&self) -> Option<&str> {
        match self {
            SExpr::Atom(text, _) => Some(
                text.strip_prefix('|')
                    .and_then(|t| t.strip_suffix('|'))
                    .unwrap_or(text),
            ),
            SExpr::List(..) => None,
        }
    }
}

/// A function definition `name ((x S)...) R body`, from `define-fun` or a model.
#[derive(Clone, Debug, PartialEq)]
pub struct FunDef {
    /// The function's name.
    pub name: Symbol,
    /// The parameters and their sorts.
    pub params: Vec<(Symbol, Sort)>,
    /// The result sort.
    pub ret: Sort,
    /// The body.
    pub body: Term,
    /// Span of the whole `(define-fun ...)`.
    pub span: Span,
    /// From `define-fun-rec` (in a model: the size function of a datatype).
    pub recursive: bool,
}

/// A script command together with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// Which command it is.
    pub kind: CommandKind,
    /// Span of the whole `( ... )`.
    pub span: Span,
}

/// The commands the parser recognises.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandKind {
    /// `(set-logic L)`.
    SetLogic(Symbol),
    /// `(set-info :k v)`.
    SetInfo(Attribute),
    /// `(set-option :k v)`.
    SetOption(Attribute),
    /// `(declare-fun f (S...) R)`.
    DeclareFun(Symbol, Vec<Sort>, Sort),
    /// `(declare-const c S)`.
    DeclareConst(Symbol, Sort),
    /// `(define-fun f ((x S)...) R body)`.
    DefineFun(FunDef),
    /// `(declare-datatypes ...)`, arguments kept raw.
    DeclareDatatypes(Vec<SExpr>),
    /// `(declare-datatype ...)`, arguments kept raw (the name is the first one).
    DeclareDatatype(Vec<SExpr>),
    /// `(declare-sort U n)`; the arity numeral as text (`"0"` when omitted).
    DeclareSort(Symbol, String),
    /// `(assert t)`.
    Assert(Term),
    /// `(check-sat)`.
    CheckSat,
    /// `(get-model)`.
    GetModel,
    /// `(exit)`.
    Exit,
    /// Z3's fixedpoint format: `(declare-rel R (S...))`, a predicate.
    DeclareRel(Symbol, Vec<Sort>),
    /// Z3's fixedpoint format: `(declare-var x S)`, a variable every later rule quantifies.
    DeclareVar(Symbol, Sort),
    /// Z3's fixedpoint format: `(rule t [name])`, a clause over the declared variables.
    Rule(Term),
    /// Z3's fixedpoint format: `(query t)`: is `t` (a relation or a formula) derivable?
    Query(Term),
    /// Any other command, e.g. `(get-info :reason-unknown)`, with raw arguments.
    Other(Symbol, Vec<SExpr>),
}
