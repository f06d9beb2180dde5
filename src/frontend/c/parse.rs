//! Runs the lexer and the lalrpop grammar over a C translation unit; every failure becomes a
//! [`CError`] with a span. Messages name tokens as C writes them (`)`, `if`, an identifier),
//! never by the grammar's terminal names, and list at most a handful of expected tokens:
//! the starts of a statement, a declaration, an expression or the operators are each said in a
//! word. Must not interpret the AST.

use super::ast::{Item, Span};
use super::error::{CError, CErrorKind};
use super::grammar;
use super::lexer::Tok;
use super::tokenize::tokenize;
use lalrpop_util::ParseError;

/// Parses a whole translation unit.
pub fn parse_unit(src: &str) -> Result<Vec<Item>, CError> {
    let toks = tokenize(src)?;
    let end = src.len();
    let stream = toks.into_iter().map(Ok::<_, ()>);
    grammar::UnitParser::new()
        .parse(stream)
        .map_err(|e| convert(e, end))
}

/// Parses one C expression (as a witness states an invariant); offsets are into `src`.
pub fn parse_expr(src: &str) -> Result<super::ast::Expr, CError> {
    let toks = tokenize(src)?;
    let end = src.len();
    let stream = toks.into_iter().map(Ok::<_, ()>);
    grammar::ExprParser::new()
        .parse(stream)
        .map_err(|e| convert(e, end))
}

/// The unexpected token, for a message.
fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(n) => format!("identifier `{n}`"),
        Tok::TypeName(n) => format!("type name `{n}`"),
        Tok::Int(n) => format!("number `{n}`"),
        Tok::Char(c) => format!("character constant {c}"),
        Tok::Str(_) => "a string literal".to_owned(),
        other => format!("`{}`", other.text()),
    }
}

/// A terminal of `grammar/c.lalrpop`, as a C programmer calls it.
fn terminal(name: &str) -> String {
    match name {
        "ident" => "an identifier".to_owned(),
        "typename" => "a type name".to_owned(),
        "int-lit" => "a number".to_owned(),
        "float-lit" => "a floating-point number".to_owned(),
        "char-lit" => "a character constant".to_owned(),
        "string-lit" => "a string literal".to_owned(),
        other => format!("`{other}`"),
    }
}

/// Terminals that start an expression.
const EXPRESSION: &[&str] = &[
    "ident",
    "int-lit",
    "char-lit",
    "string-lit",
    "float-lit",
    "(",
    "-",
    "+",
    "!",
    "~",
    "*",
    "&",
    "++",
    "--",
    "sizeof",
    "__builtin_offsetof",
];

/// Terminals that start a statement other than an expression statement.
const STATEMENT: &[&str] = &[
    "if", "while", "for", "do", "break", "continue", "return", "goto", "switch", "case", "default",
    "{", ";",
];

/// Terminals that start a declaration.
const DECLARATION: &[&str] = &[
    "int", "unsigned", "signed", "long", "short", "char", "_Bool", "void", "float", "double",
    "const", "volatile", "static", "extern", "inline", "register", "typedef", "struct", "union",
    "enum", "typename",
];

/// Terminals that continue an expression.
const OPERATOR: &[&str] = &[
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "?", "||", "&&", "|", "^",
    "&", "==", "!=", "<", ">", "<=", ">=", "<<", ">>", "+", "-", "*", "/", "%", "[", "(", ".",
    "->", "++", "--",
];

/// At most this many alternatives are listed.
const LISTED: usize = 5;

/// What the parser expected, in a few words: `` `}` or a statement ``, `` `;` or `,` ``.
fn expected(names: &[String]) -> Option<String> {
    let names: Vec<&str> = names.iter().map(|n| n.trim_matches('"')).collect();
    let has = |group: &[&str]| group.iter().filter(|g| names.contains(g)).count();
    let mostly = |group: &[&str]| 2 * has(group) > group.len();
    let mut words: Vec<String> = vec![];
    let mut covered: Vec<&str> = vec![];
    if mostly(STATEMENT) {
        // Declarations are among the statements of a block.
        words.push("a statement".to_owned());
        covered.extend(STATEMENT.iter().chain(EXPRESSION).chain(DECLARATION));
    }
    if mostly(DECLARATION) && !mostly(STATEMENT) {
        words.push("a type".to_owned());
        covered.extend(DECLARATION);
    }
    if mostly(EXPRESSION) && !mostly(STATEMENT) {
        words.push("an expression".to_owned());
        covered.extend(EXPRESSION);
    }
    if mostly(OPERATOR) {
        words.push("an operator".to_owned());
        covered.extend(OPERATOR);
    }
    // Punctuation that closes or separates first: it is usually what is missing.
    let mut rest: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !covered.contains(n))
        .collect();
    rest.sort_by_key(|n| !matches!(*n, ";" | ")" | "]" | "}" | "," | ":"));
    words.splice(0..0, rest.into_iter().map(terminal));
    match words.len() {
        0 => None,
        1 => Some(words.remove(0)),
        n if n <= LISTED => {
            let last = words.pop().unwrap_or_default();
            Some(format!("{} or {last}", words.join(", ")))
        }
        _ => Some(format!(
            "{} or another token",
            words[..LISTED - 1].join(", ")
        )),
    }
}

/// `syntax error: unexpected WHAT[, expected ...]`.
fn message(what: &str, names: &[String]) -> String {
    match expected(names) {
        Some(e) => format!("syntax error: unexpected {what}, expected {e}"),
        None => format!("syntax error: unexpected {what}"),
    }
}

fn convert(e: ParseError<usize, Tok, ()>, end: usize) -> CError {
    match e {
        ParseError::UnrecognizedToken {
            token: (l, t, r),
            expected,
        } => {
            if let Tok::Float(_) = t {
                return CError::unsupported(Span::new(l, r), "floating-point numbers");
            }
            CError::new(
                CErrorKind::Syntax,
                Span::new(l, r),
                message(&describe(&t), &expected),
            )
        }
        ParseError::ExtraToken { token: (l, t, r) } => CError::new(
            CErrorKind::Syntax,
            Span::new(l, r),
            message(&describe(&t), &[]),
        ),
        ParseError::UnrecognizedEof { location, expected } => CError::new(
            CErrorKind::Syntax,
            Span::new(location.min(end), end),
            message("end of input", &expected),
        ),
        ParseError::InvalidToken { location } => CError::new(
            CErrorKind::Syntax,
            Span::new(location, location + 1),
            "syntax error: invalid token",
        ),
        ParseError::User { .. } => CError::new(CErrorKind::Syntax, Span::new(0, 0), "syntax error"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::c::lexer::lex_raw;

    /// Every terminal of the grammar has a C spelling in messages: keywords and punctuation
    /// lex back to the token they name and print as written; the others have a description.
    #[test]
    fn every_terminal_is_named_as_c_writes_it() {
        let grammar = include_str!("../../../grammar/c.lalrpop");
        let mut seen = 0;
        for line in grammar.lines() {
            let Some((name, tok)) = line.trim().split_once(" => Tok::") else {
                continue;
            };
            let name = name.trim_matches('"');
            seen += 1;
            if tok.contains('(') {
                assert!(!terminal(name).contains('`'), "{name} has no description");
                continue;
            }
            let toks = lex_raw(name, 0).expect("lexes");
            assert_eq!(toks.len(), 1, "{name}");
            assert_eq!(toks[0].1.text(), name);
            assert_eq!(terminal(name), format!("`{name}`"));
        }
        assert!(seen > 80, "only {seen} terminals found");
    }

    fn error(src: &str) -> String {
        parse_unit(src).expect_err("a syntax error").message
    }

    #[test]
    fn messages_say_what_was_expected_in_a_few_words() {
        assert_eq!(
            error("int main() { if (1) ) return 0; }"),
            "syntax error: unexpected `)`, expected a statement"
        );
        assert_eq!(
            error("int main() { int x = 1 return x; }"),
            "syntax error: unexpected `return`, expected `;`, `,` or an operator"
        );
        assert_eq!(
            error("int main() { x = 3 + ; }"),
            "syntax error: unexpected `;`, expected an expression"
        );
        assert_eq!(
            error("int main() { return 0;"),
            "syntax error: unexpected end of input, expected `}` or a statement"
        );
        assert_eq!(
            error("int main() { while 1) {} }"),
            "syntax error: unexpected number `1`, expected `(`"
        );
    }
}
