//! Abstract syntax of the C subset as parsed, with spans. The grammar accepts somewhat more
//! than the subset (pointers, arrays, structs, floats in declarations and expressions) so that
//! the resolver can reject those constructs with a precise `unsupported:` message.
//!
//! Must not: resolve names, compute types, or check the subset (that is `resolve.rs`).

pub use crate::syntax::ast::Span;

/// One word of a declaration's specifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `int`
    Int,
    /// `unsigned`
    Unsigned,
    /// `signed`
    Signed,
    /// `long`
    Long,
    /// `short`
    Short,
    /// `char`
    Char,
    /// `_Bool`
    Bool,
    /// `void`
    Void,
    /// `float` or `double` (unsupported).
    Floating,
    /// `struct`/`union`/`enum` (unsupported).
    Aggregate(&'static str),
    /// A name declared by `typedef`.
    Named(String),
    /// `typedef`
    Typedef,
    /// `extern`
    Extern,
    /// `static`, `inline`, `register`, `const`, `volatile`: no meaning for the subset.
    Ignored,
}

/// Declaration specifiers with their spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Specs {
    /// The words, in order.
    pub words: Vec<(Spec, Span)>,
    /// Where they are.
    pub span: Span,
}

/// `[N]` or `(params)` after a declarator's name.
#[derive(Clone, Debug, PartialEq)]
pub enum Suffix {
    /// An array dimension (unsupported).
    Array(Span),
    /// A parameter list; the flag says whether it ends in `...`.
    Params(Vec<Param>, bool),
}

/// A declarator: pointers, an optional name, suffixes.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// How many `*`.
    pub pointers: usize,
    /// The declared name (absent in abstract declarators of parameters).
    pub name: Option<String>,
    /// Array and function suffixes.
    pub suffixes: Vec<Suffix>,
    /// Where.
    pub span: Span,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its specifiers.
    pub specs: Specs,
    /// Its declarator.
    pub decl: Declarator,
}

/// One declared name with its initialiser.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDecl {
    /// The declarator.
    pub decl: Declarator,
    /// `= expr`, if any.
    pub init: Option<Expr>,
}

/// A declaration: specifiers and declarators.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// The specifiers.
    pub specs: Specs,
    /// The declared names.
    pub items: Vec<InitDecl>,
    /// Where.
    pub span: Span,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncDef {
    /// Return type specifiers.
    pub specs: Specs,
    /// Name and parameters.
    pub decl: Declarator,
    /// The body (a block).
    pub body: Stmt,
    /// Where.
    pub span: Span,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A declaration (globals, prototypes, typedefs).
    Decl(Declaration),
    /// A function definition.
    Func(Box<FuncDef>),
}

/// A statement with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `e;`
    Expr(Expr),
    /// A declaration in a block.
    Decl(Declaration),
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// `if (c) s else s`
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (c) s`
    While(Expr, Box<Stmt>),
    /// `do s while (c);`
    DoWhile(Box<Stmt>, Expr),
    /// `for (init; cond; step) s`; init is a declaration or expression statement.
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return e;`
    Return(Option<Expr>),
    /// `goto L;` (unsupported).
    Goto(String),
    /// `L: s`
    Label(String, Box<Stmt>),
    /// `switch` (unsupported).
    Switch,
    /// `;`
    Empty,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
    /// `*` (unsupported)
    Deref,
    /// `&` (unsupported)
    AddrOf,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
}

/// A type in a cast or `sizeof`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    /// The specifiers.
    pub specs: Specs,
    /// How many `*`.
    pub pointers: usize,
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A name.
    Ident(String),
    /// An integer literal, verbatim.
    Int(String),
    /// A character literal, verbatim with quotes.
    Char(String),
    /// A string literal (only as an ignored argument).
    Str,
    /// A floating literal (unsupported).
    Float,
    /// A unary operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` or `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `++x`, `x--`, ...: (is prefix, is increment).
    IncDec(bool, bool, Box<Expr>),
    /// `f(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `(type) e`.
    Cast(TypeName, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b`.
    Comma(Box<Expr>, Box<Expr>),
    /// `a[i]`, `a.f`, `a->f`, `sizeof` (unsupported).
    Unsupported(&'static str),
}

impl Expr {
    /// Builds an expression.
    pub fn new(kind: ExprKind, l: usize, r: usize) -> Self {
        Expr {
            kind,
            span: Span::new(l, r),
        }
    }
}

impl Stmt {
    /// Builds a statement.
    pub fn new(kind: StmtKind, l: usize, r: usize) -> Self {
        Stmt {
            kind,
            span: Span::new(l, r),
        }
    }
}
