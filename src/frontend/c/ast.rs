//! Abstract syntax of the C subset as parsed, with spans. The grammar accepts somewhat more
//! than the subset (pointers, arrays, structs, floats in declarations and expressions) so that
//! the resolver can reject those constructs with a precise `unsupported:` message.
//!
//! Nesting is bounded as the tree is built: a node that would be more than [`MAX_NESTING`]
//! levels deep (in expressions, in statements, in declarators) is replaced by a `TooDeep`
//! marker that resolution reports, so no later recursion over the tree, and not even dropping
//! it, can overflow the stack on hostile input.
//!
//! Must not: resolve names, compute types, or check the subset (that is `resolve.rs`).

pub use crate::syntax::ast::Span;

/// The deepest nesting accepted, separately for expressions (each operator or call is a
/// level; parentheses are not), statements and declarators.
pub const MAX_NESTING: u32 = 1000;

/// One word of a declaration's specifiers.
#[derive(Clone, Debug, PartialEq)]
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
    /// `enum T`, `enum T { items }` or `enum { items }`: an `int` whose items are constants.
    Enum(Box<EnumSpec>),
    /// `struct`/`union` with its tag and, when defined here, its fields.
    Record(Box<RecordSpec>),
    /// A name declared by `typedef`.
    Named(String),
    /// `typedef`
    Typedef,
    /// `extern`
    Extern,
    /// `static`: internal linkage at file scope (no meaning for the subset), static storage
    /// in a block.
    Static,
    /// `const`: the object is read-only (a `const` global with a constant initialiser is
    /// read as its value where C wants a constant, the sizes of local arrays).
    Const,
    /// `inline`, `register`, `volatile`: no meaning for the subset.
    Ignored,
}

/// An `enum` specifier: its tag and, when defined here, its enumerators.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    /// The tag.
    pub tag: Option<String>,
    /// The enumerators, in order, when the braces are here.
    pub items: Option<Vec<Enumerator>>,
}

/// `NAME` or `NAME = value` in an `enum`'s braces.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    /// The constant's name.
    pub name: String,
    /// Its explicit value (else one more than the previous, or 0).
    pub value: Option<Expr>,
    /// Where the name is.
    pub span: Span,
}

/// `struct T`, `struct T { fields }` or `struct { fields }` (or `union`).
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSpec {
    /// `union` rather than `struct`.
    pub union: bool,
    /// The tag, if any.
    pub tag: Option<String>,
    /// The field declarations, when the type is defined here.
    pub fields: Option<Vec<Declaration>>,
}

/// Declaration specifiers with their spans.
#[derive(Clone, Debug, PartialEq)]
pub struct Specs {
    /// The words, in order.
    pub words: Vec<(Spec, Span)>,
    /// Where they are.
    pub span: Span,
}

/// `[N]` or `(params)` after a declarator's name.
#[derive(Clone, Debug, PartialEq)]
pub enum Suffix {
    /// An array dimension: its size expression, if written, and where the `[` is.
    Array(Option<Box<Expr>>, Span),
    /// A parameter list; the flag says whether it ends in `...`.
    Params(Vec<Param>, bool),
    /// Parameter lists nested more than [`MAX_NESTING`] deep (an error).
    TooDeep(Span),
    /// A parenthesised pointer declarator, `(*f)(int)` or `(*a)[3]`: a pointer to a function
    /// or an array, outside the subset (an error where used; the only suffix).
    Indirect(Span),
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
    /// Levels of declarators: 1, plus the deepest parameter's.
    pub depth: u32,
}

impl Declarator {
    /// Builds a declarator; parameter lists nested too deeply become [`Suffix::TooDeep`].
    pub fn new(pointers: usize, name: Option<String>, suffixes: Vec<Suffix>, span: Span) -> Self {
        let inner = suffixes
            .iter()
            .flat_map(|s| match s {
                Suffix::Params(ps, _) => ps.iter().map(|p| p.decl.depth).max(),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let (suffixes, depth) = if inner >= MAX_NESTING {
            (vec![Suffix::TooDeep(span)], 1)
        } else {
            (suffixes, inner + 1)
        };
        Declarator {
            pointers,
            name,
            suffixes,
            span,
            depth,
        }
    }
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
    /// Levels of statements: 1, plus the deepest sub-statement's.
    pub depth: u32,
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
    /// `goto L;`
    Goto(String),
    /// `L: s`
    Label(String, Box<Stmt>),
    /// `switch (e) { ... }` (the body is a block).
    Switch(Expr, Box<Stmt>),
    /// `case e:` inside a switch body: a label of the statements after it.
    Case(Expr),
    /// `default:` inside a switch body.
    Default,
    /// `;`
    Empty,
    /// Statements nested more than [`MAX_NESTING`] deep (an error).
    TooDeep,
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

impl BinOp {
    /// The truth of the comparison `x op y` (`!=` for every operator that is no comparison).
    pub fn compare<T: Ord>(self, x: &T, y: &T) -> bool {
        match self {
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            BinOp::Ge => x >= y,
            BinOp::Eq => x == y,
            _ => x != y,
        }
    }
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
    /// Levels of expressions: 1, plus the deepest operand's.
    pub depth: u32,
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
    /// `a[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `a.f` (`false`) or `a->f` (`true`).
    Member(Box<Expr>, String, bool),
    /// `{a, b, ...}` as an initialiser (items may be lists themselves).
    InitList(Vec<Expr>),
    /// `.f = e` in an initialiser list.
    Designated(String, Box<Expr>),
    /// `sizeof(type)`.
    SizeofType(TypeName),
    /// `sizeof e` (`e` is not evaluated).
    SizeofExpr(Box<Expr>),
    /// `__builtin_offsetof(type, field)`: the byte offset of a field in a struct (what
    /// `offsetof` and the Linux `container_of` expand to).
    Offsetof(TypeName, String),
    /// A construct outside the subset, named.
    Unsupported(&'static str),
    /// An expression nested more than [`MAX_NESTING`] deep (an error).
    TooDeep,
}

impl Stmt {
    /// Calls `f` on every expression directly in this statement or the statements it
    /// contains (declarators' array sizes are not visited).
    pub fn each_expr(&self, f: &mut dyn FnMut(&Expr)) {
        match &self.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => f(e),
            StmtKind::Decl(d) => d.items.iter().filter_map(|i| i.init.as_ref()).for_each(f),
            StmtKind::Block(b) => b.iter().for_each(|s| s.each_expr(f)),
            StmtKind::If(c, a, b) => {
                f(c);
                a.each_expr(f);
                if let Some(b) = b {
                    b.each_expr(f);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
                f(c);
                b.each_expr(f);
            }
            StmtKind::For(init, c, step, b) => {
                if let Some(i) = init {
                    i.each_expr(f);
                }
                c.iter().chain(step.iter()).for_each(&mut *f);
                b.each_expr(f);
            }
            StmtKind::Label(_, b) => b.each_expr(f),
            StmtKind::Return(Some(e)) => f(e),
            _ => {}
        }
    }

    /// Whether some expression node of this statement satisfies `p`.
    pub fn any_expr(&self, p: &mut dyn FnMut(&Expr) -> bool) -> bool {
        let mut found = false;
        self.each_expr(&mut |e| found = found || e.any(p));
        found
    }
}

impl Expr {
    /// Whether this expression or one inside it satisfies `p`.
    pub fn any(&self, p: &mut dyn FnMut(&Expr) -> bool) -> bool {
        p(self) || self.operands().into_iter().any(|x| x.any(p))
    }

    /// The direct operands, in source order (a call's callee first): the one place that knows
    /// the shape of every kind, for walks over expressions.
    pub fn operands(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Unary(_, a)
            | ExprKind::IncDec(_, _, a)
            | ExprKind::Cast(_, a)
            | ExprKind::SizeofExpr(a)
            | ExprKind::Member(a, _, _)
            | ExprKind::Designated(_, a) => vec![a],
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => vec![a, b],
            ExprKind::Cond(c, a, b) => vec![c, a, b],
            ExprKind::Call(f, args) => std::iter::once(&**f).chain(args.iter()).collect(),
            ExprKind::InitList(items) => items.iter().collect(),
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Char(_)
            | ExprKind::Str
            | ExprKind::Float
            | ExprKind::SizeofType(_)
            | ExprKind::Offsetof(..)
            | ExprKind::Unsupported(_)
            | ExprKind::TooDeep => vec![],
        }
    }

    /// [`Expr::operands`], to rewrite them.
    pub fn operands_mut(&mut self) -> Vec<&mut Expr> {
        match &mut self.kind {
            ExprKind::Unary(_, a)
            | ExprKind::IncDec(_, _, a)
            | ExprKind::Cast(_, a)
            | ExprKind::SizeofExpr(a)
            | ExprKind::Member(a, _, _)
            | ExprKind::Designated(_, a) => vec![a],
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => vec![a, b],
            ExprKind::Cond(c, a, b) => vec![c, a, b],
            ExprKind::Call(f, args) => std::iter::once(&mut **f).chain(args.iter_mut()).collect(),
            ExprKind::InitList(items) => items.iter_mut().collect(),
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Char(_)
            | ExprKind::Str
            | ExprKind::Float
            | ExprKind::SizeofType(_)
            | ExprKind::Offsetof(..)
            | ExprKind::Unsupported(_)
            | ExprKind::TooDeep => vec![],
        }
    }

    /// Builds an expression; one nested too deeply becomes [`ExprKind::TooDeep`] (its operands
    /// are dropped then, each at most [`MAX_NESTING`] deep).
    pub fn new(kind: ExprKind, l: usize, r: usize) -> Self {
        let inner = match &kind {
            ExprKind::Unary(_, a)
            | ExprKind::IncDec(_, _, a)
            | ExprKind::Cast(_, a)
            | ExprKind::SizeofExpr(a)
            | ExprKind::Member(a, _, _)
            | ExprKind::Designated(_, a) => a.depth,
            ExprKind::InitList(items) => items.iter().map(|a| a.depth).max().unwrap_or(0),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => a.depth.max(b.depth),
            ExprKind::Cond(c, a, b) => c.depth.max(a.depth).max(b.depth),
            ExprKind::Call(f, args) => args.iter().map(|a| a.depth).fold(f.depth, u32::max),
            _ => 0,
        };
        let (kind, depth) = if inner >= MAX_NESTING {
            (ExprKind::TooDeep, 1)
        } else {
            (kind, inner + 1)
        };
        Expr {
            kind,
            span: Span::new(l, r),
            depth,
        }
    }
}

impl Stmt {
    /// Builds a statement; one nested too deeply becomes [`StmtKind::TooDeep`].
    pub fn new(kind: StmtKind, l: usize, r: usize) -> Self {
        let inner = match &kind {
            StmtKind::Block(items) => items.iter().map(|s| s.depth).max().unwrap_or(0),
            StmtKind::If(_, t, e) => e.as_ref().map_or(t.depth, |e| t.depth.max(e.depth)),
            StmtKind::While(_, b)
            | StmtKind::DoWhile(b, _)
            | StmtKind::Label(_, b)
            | StmtKind::Switch(_, b) => b.depth,
            StmtKind::For(init, _, _, b) => init.as_ref().map_or(b.depth, |i| i.depth.max(b.depth)),
            _ => 0,
        };
        let (kind, depth) = if inner >= MAX_NESTING {
            (StmtKind::TooDeep, 1)
        } else {
            (kind, inner + 1)
        };
        Stmt {
            kind,
            span: Span::new(l, r),
            depth,
        }
    }
}
