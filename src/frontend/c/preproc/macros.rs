//! Macro definitions (`#define` bodies parsed into tokens, parameters, `#` and `##`) and their
//! expansion as C describes it, in the manner of GCC.
//!
//! Expansion keeps a stack of contexts, one per macro being expanded; a macro is disabled while
//! its context is on the stack, and a name read while its macro is disabled is painted and never
//! expanded again (so self-reference terminates). A function-like macro's arguments are read
//! through the contexts and on into the input (a context that ends while they are read is left,
//! re-enabling its macro), fully expanded on their own before substitution (not when an operand
//! of `#` or `##`), and the substituted body is rescanned. Every token read, entered or built
//! counts against one budget; argument pre-expansion, the only recursion, has a depth bound.
//!
//! Must not: know about lines, directives or conditionals (see the parent module), or evaluate.

use super::super::ast::Span;
use super::super::error::{CError, CErrorKind};
use super::super::lexer::Tok;
use super::define::{ident_text, paste, stringify, Macro, Part};
use super::{Directive, DirectiveKind, EXPANSION_PER_TOKEN};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// How deeply macro invocations may nest inside the arguments of other invocations (each level
/// is a recursive pre-expansion).
pub const MAX_ARGUMENT_NESTING: usize = 200;

/// A token during expansion: its span (the source token's, or the invocation's for tokens of a
/// macro body) and whether it was painted (named a disabled macro when read; never expanded).
#[derive(Clone, Debug)]
pub(super) struct PTok {
    pub tok: Tok,
    pub span: (usize, usize),
    pub painted: bool,
}

impl PTok {
    /// A fresh (unpainted) token.
    pub fn new(tok: Tok, span: (usize, usize)) -> Self {
        PTok {
            tok,
            span,
            painted: false,
        }
    }
}

/// `#x` in a body expanded at `span`: the argument's tokens as one string literal token.
fn stringified(arg: &[PTok], span: (usize, usize)) -> PTok {
    PTok::new(stringify(arg.iter().map(|t| &t.tok)), span)
}

/// Where expansion reads its tokens from: the source (with its directives, applied as the
/// tokens after them are read), one macro argument, or one `#if` expression.
pub(super) struct Input<'a> {
    toks: Vec<PTok>,
    pos: usize,
    directives: &'a [Directive],
    next_directive: usize,
    /// The end of the last token read.
    last_end: usize,
}

impl<'a> Input<'a> {
    /// `toks`, with `directives` taking effect before the first token after each.
    pub fn new(toks: Vec<PTok>, directives: &'a [Directive]) -> Self {
        Input {
            toks,
            pos: 0,
            directives,
            next_directive: 0,
            last_end: 0,
        }
    }
}

/// A macro being expanded: its name (disabled meanwhile) and its substituted body.
struct Frame {
    name: String,
    toks: Vec<PTok>,
    pos: usize,
}

/// Expands macros, with the macro table, the budget and the set of disabled macros.
pub(super) struct Expander {
    /// The macros defined now.
    pub macros: HashMap<String, Rc<Macro>>,
    /// Macros whose expansion is under way (disabled).
    active: HashSet<String>,
    /// Tokens read, entered and built so far.
    work: usize,
    /// Where `work` stops with an error.
    pub limit: usize,
    /// How many argument pre-expansions are under way.
    depth: usize,
    /// In a `#if` expression: `defined NAME` is an operator.
    in_if: bool,
    /// The outermost macro use being expanded, for the budget's error.
    top: (String, (usize, usize)),
}

impl Expander {
    /// No macros, a budget of `limit`.
    pub fn new(limit: usize) -> Self {
        Expander {
            macros: HashMap::new(),
            active: HashSet::new(),
            work: 0,
            limit,
            depth: 0,
            in_if: false,
            top: (String::new(), (0, 0)),
        }
    }

    /// Expands everything `input` holds. With `respan`, the tokens of each outermost expansion
    /// get the span from the macro's name to the last token of its use.
    pub fn run(&mut self, input: &mut Input, respan: bool) -> Result<Vec<PTok>, CError> {
        let mut out = Vec::with_capacity(input.toks.len());
        let mut no_frames = vec![];
        while let Some(mut t) = self.read_input(input) {
            self.tick()?;
            if self.in_if && matches!(&t.tok, Tok::Ident(n) if n == "defined") {
                out.push(self.defined(&t, &mut no_frames, input)?);
                continue;
            }
            let Some(m) = self.lookup(&t) else {
                out.push(t);
                continue;
            };
            let name = ident_text(&t.tok).unwrap_or_default();
            if self.active.contains(name) {
                t.painted = true;
                out.push(t);
                continue;
            }
            if m.is_function_like() && !peek_lparen(&no_frames, input) {
                out.push(t);
                continue;
            }
            if self.depth == 0 {
                self.top = (name.to_owned(), t.span);
            }
            let start = out.len();
            self.expand_use(&t, m, input, &mut out)?;
            if respan {
                let span = (t.span.0, input.last_end.max(t.span.1));
                for x in &mut out[start..] {
                    x.span = span;
                }
            }
        }
        Ok(out)
    }

    /// Expands a `#if` expression (after which `defined` is no operator again), within the
    /// budget plus [`EXPANSION_PER_TOKEN`] per token of the expression.
    pub fn run_if(&mut self, toks: Vec<PTok>) -> Result<Vec<PTok>, CError> {
        self.limit = self
            .limit
            .saturating_add(EXPANSION_PER_TOKEN.saturating_mul(toks.len()));
        self.in_if = true;
        let r = self.run(&mut Input::new(toks, &[]), false);
        self.in_if = false;
        self.active.clear();
        self.depth = 0;
        r
    }

    /// One more unit of work, or the budget's error.
    fn tick(&mut self) -> Result<(), CError> {
        self.work += 1;
        if self.work <= self.limit {
            return Ok(());
        }
        let (name, (s, e)) = &self.top;
        Err(CError::new(
            CErrorKind::Limit,
            Span::new(*s, *e),
            format!(
                "macro expansion too large (more than {} tokens; `{name}` is expanded here)",
                self.limit
            ),
        ))
    }

    /// The macro a token names, unless painted.
    fn lookup(&self, t: &PTok) -> Option<Rc<Macro>> {
        if t.painted {
            return None;
        }
        self.macros.get(ident_text(&t.tok)?).cloned()
    }

    /// The next token of the input, after applying the directives before it.
    fn read_input(&mut self, input: &mut Input) -> Option<PTok> {
        let t = input.toks.get(input.pos)?.clone();
        while let Some(d) = input.directives.get(input.next_directive) {
            if d.at >= t.span.0 {
                break;
            }
            match &d.kind {
                DirectiveKind::Define(name, m) => {
                    self.macros.insert(name.clone(), m.clone());
                }
                DirectiveKind::Undef(name) => {
                    self.macros.remove(name);
                }
            }
            input.next_directive += 1;
        }
        input.pos += 1;
        input.last_end = t.span.1;
        Some(t)
    }

    /// The next token of the innermost context, leaving (and re-enabling) those that ended,
    /// and then of the input.
    fn read(&mut self, frames: &mut Vec<Frame>, input: &mut Input) -> Option<PTok> {
        loop {
            match frames.last_mut() {
                Some(f) if f.pos < f.toks.len() => {
                    f.pos += 1;
                    return Some(f.toks[f.pos - 1].clone());
                }
                Some(_) => {
                    if let Some(f) = frames.pop() {
                        self.active.remove(&f.name);
                    }
                }
                None => return self.read_input(input),
            }
        }
    }

    /// Expands the use of `m` named by `t` (and whatever its expansion runs into) onto `out`.
    fn expand_use(
        &mut self,
        t: &PTok,
        m: Rc<Macro>,
        input: &mut Input,
        out: &mut Vec<PTok>,
    ) -> Result<(), CError> {
        let mut frames: Vec<Frame> = vec![];
        self.enter(&mut frames, t, &m, input)?;
        loop {
            while frames.last().is_some_and(|f| f.pos == f.toks.len()) {
                if let Some(f) = frames.pop() {
                    self.active.remove(&f.name);
                }
            }
            let Some(f) = frames.last_mut() else {
                return Ok(());
            };
            let mut t = f.toks[f.pos].clone();
            f.pos += 1;
            self.tick()?;
            if self.in_if && matches!(&t.tok, Tok::Ident(n) if n == "defined") {
                let v = self.defined(&t, &mut frames, input)?;
                out.push(v);
                continue;
            }
            let Some(m) = self.lookup(&t) else {
                out.push(t);
                continue;
            };
            if self.active.contains(ident_text(&t.tok).unwrap_or_default()) {
                t.painted = true;
                out.push(t);
            } else if m.is_function_like() && !peek_lparen(&frames, input) {
                out.push(t);
            } else {
                self.enter(&mut frames, &t, &m, input)?;
            }
        }
    }

    /// Starts expanding `m` named by `t`: reads its arguments if it takes some, substitutes
    /// them and pushes the result as a new context with `m` disabled.
    fn enter(
        &mut self,
        frames: &mut Vec<Frame>,
        t: &PTok,
        m: &Macro,
        input: &mut Input,
    ) -> Result<(), CError> {
        let name = ident_text(&t.tok).unwrap_or_default().to_owned();
        self.tick()?;
        let args = match &m.params {
            Some(params) => self.arguments(frames, input, t, &name, params.len(), m.variadic)?,
            None => vec![],
        };
        let toks = self.substitute(m, &args, t.span)?;
        self.active.insert(name.clone());
        frames.push(Frame { name, toks, pos: 0 });
        Ok(())
    }

    /// Reads the parenthesised arguments of the macro `name` named by `t` (the `(` is next).
    fn arguments(
        &mut self,
        frames: &mut Vec<Frame>,
        input: &mut Input,
        t: &PTok,
        name: &str,
        params: usize,
        variadic: bool,
    ) -> Result<Vec<Vec<PTok>>, CError> {
        let _open = self.read(frames, input);
        let mut args: Vec<Vec<PTok>> = vec![vec![]];
        let mut depth = 0usize;
        loop {
            let Some(a) = self.read(frames, input) else {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    Span::new(t.span.0, t.span.1),
                    format!("unterminated argument list of macro `{name}`"),
                ));
            };
            self.tick()?;
            match a.tok {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => break,
                Tok::RParen => depth -= 1,
                Tok::Comma if depth == 0 && !(variadic && args.len() == params) => {
                    args.push(vec![]);
                    continue;
                }
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(a);
            }
        }
        let given = if args.len() == 1 && args[0].is_empty() {
            0
        } else {
            args.len()
        };
        let fits = args.len() == params
            || (given == 0 && params == 0)
            || (variadic && args.len() + 1 == params);
        if !fits {
            let named = if variadic { params - 1 } else { params };
            let expected = match (variadic, named) {
                (true, n) => format!("at least {n} argument{}", if n == 1 { "" } else { "s" }),
                (false, 1) => "1 argument".to_owned(),
                (false, n) => format!("{n} arguments"),
            };
            return Err(CError::new(
                CErrorKind::Name,
                Span::new(t.span.0, t.span.1),
                format!("macro `{name}` takes {expected}, {given} given"),
            ));
        }
        if params == 0 {
            args.clear();
        }
        while args.len() < params {
            args.push(vec![]);
        }
        Ok(args)
    }

    /// The body of `m` with `args` substituted and `#`/`##` applied; its own tokens get `span`.
    fn substitute(
        &mut self,
        m: &Macro,
        args: &[Vec<PTok>],
        span: (usize, usize),
    ) -> Result<Vec<PTok>, CError> {
        let mut out: Vec<PTok> = vec![];
        let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; args.len()];
        // Where the operand before a `##` starts in `out` (it may have no tokens).
        let mut operand = 0;
        let mut k = 0;
        while k < m.body.len() {
            match &m.body[k] {
                Part::Paste => {
                    k += 1;
                    let right: Vec<PTok> = match &m.body[k] {
                        Part::Tok(t) => vec![PTok::new(t.clone(), span)],
                        Part::Param(p) => args[*p].clone(),
                        Part::Stringify(p) => vec![stringified(&args[*p], span)],
                        Part::Paste => vec![],
                    };
                    let comma_va = m.variadic
                        && matches!(m.body[k], Part::Param(p) if p + 1 == args.len())
                        && matches!(out.last(), Some(t) if t.tok == Tok::Comma);
                    if comma_va && right.is_empty() {
                        // GNU `, ## __VA_ARGS__`: the comma goes when there are no arguments.
                        out.pop();
                    } else if comma_va || out.len() == operand || right.is_empty() {
                        for t in right {
                            self.tick()?;
                            out.push(t);
                        }
                    } else {
                        let left = out.pop().map(|t| t.tok);
                        let mut right = right.into_iter();
                        if let (Some(l), Some(r)) = (left, right.next()) {
                            out.push(PTok::new(paste(&l, &r.tok, span)?, span));
                        }
                        for t in right {
                            self.tick()?;
                            out.push(t);
                        }
                    }
                }
                part => {
                    operand = out.len();
                    let raw = matches!(m.body.get(k + 1), Some(Part::Paste));
                    match part {
                        Part::Tok(t) => out.push(PTok::new(t.clone(), span)),
                        Part::Stringify(p) => out.push(stringified(&args[*p], span)),
                        Part::Param(p) if raw => out.extend(args[*p].iter().cloned()),
                        Part::Param(p) => {
                            if expanded[*p].is_none() {
                                expanded[*p] = Some(self.pre_expand(&args[*p], span)?);
                            }
                            out.extend(expanded[*p].iter().flatten().cloned());
                        }
                        Part::Paste => {}
                    }
                    for _ in operand..out.len() {
                        self.tick()?;
                    }
                }
            }
            k += 1;
        }
        Ok(out)
    }

    /// An argument expanded on its own, as if it were the rest of the input.
    fn pre_expand(&mut self, arg: &[PTok], at: (usize, usize)) -> Result<Vec<PTok>, CError> {
        if self.depth >= MAX_ARGUMENT_NESTING {
            return Err(CError::new(
                CErrorKind::Limit,
                Span::new(at.0, at.1),
                format!(
                    "macro uses nested too deeply in arguments (more than \
                     {MAX_ARGUMENT_NESTING} levels)"
                ),
            ));
        }
        self.depth += 1;
        let r = self.run(&mut Input::new(arg.to_vec(), &[]), false);
        self.depth -= 1;
        r
    }

    /// `defined NAME` or `defined ( NAME )` after the `defined` token `t`: `1` or `0`.
    fn defined(
        &mut self,
        t: &PTok,
        frames: &mut Vec<Frame>,
        input: &mut Input,
    ) -> Result<PTok, CError> {
        let at = Span::new(t.span.0, t.span.1);
        let mut next = self.read(frames, input);
        let paren = matches!(
            next,
            Some(PTok {
                tok: Tok::LParen,
                ..
            })
        );
        if paren {
            next = self.read(frames, input);
        }
        let Some(name) = next.as_ref().and_then(|n| ident_text(&n.tok)) else {
            return Err(CError::new(
                CErrorKind::Syntax,
                at,
                "`defined` without a macro name",
            ));
        };
        let value = if self.macros.contains_key(name) {
            "1"
        } else {
            "0"
        };
        if paren
            && !matches!(
                self.read(frames, input),
                Some(PTok {
                    tok: Tok::RParen,
                    ..
                })
            )
        {
            return Err(CError::new(
                CErrorKind::Syntax,
                at,
                "missing `)` after `defined`",
            ));
        }
        Ok(PTok::new(Tok::Int(value.to_owned()), t.span))
    }
}

/// Whether the next token (of the innermost context that has one, else of the input) is `(`.
fn peek_lparen(frames: &[Frame], input: &Input) -> bool {
    let next = frames
        .iter()
        .rev()
        .find_map(|f| f.toks.get(f.pos))
        .or_else(|| input.toks.get(input.pos));
    matches!(
        next,
        Some(PTok {
            tok: Tok::LParen,
            ..
        })
    )
}
