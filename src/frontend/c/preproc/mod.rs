//! The preprocessing SV-COMP tasks need, before and after lexing, keeping the byte offsets of
//! the source throughout (every directive and skipped line becomes as many spaces, newlines
//! kept): comments become spaces; `#include`, `#pragma`, `#line`, `#ident`, `#warning` and line
//! markers are blanked; conditional groups (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`,
//! `#endif`, nested) keep the lines of the group taken and blank the others, whose directives
//! count only for nesting; `#if` expressions are expanded and evaluated by [`cond`]; `#error`
//! in a group taken is an error; `#define` (object-like and function-like, parsed by
//! [`define`], with `\` line continuations) and `#undef` take effect from their line on, and
//! [`macros`] expands them as C says: arguments are expanded before substitution, `#` and `##`
//! apply, the expansion is rescanned, a macro is never expanded again inside its own expansion
//! (so `#define X X+1` and `#define A B` with `#define B A` terminate), and the whole expansion
//! has a size budget proportional to the input (a body repeating another macro eight times,
//! seventeen levels deep, would be 8^17 tokens). The tokens of an expansion get the span of the
//! macro's use, from its name to its closing parenthesis.
//!
//! Must not: interpret declarations or statements. Other directives are errors, and so is what
//! C makes one (unbalanced `#endif`, `#else` after `#else`, a wrong number of arguments, a
//! division by zero in `#if`), each located in the source; no input makes it panic or hang.

pub mod cond;
pub mod define;
pub mod macros;

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::lexer::Spanned;
use define::Macro;
use macros::{Expander, Input, PTok};
use std::rc::Rc;

/// Tokens (and macro-body tokens entered) macro expansion may produce besides
/// [`EXPANSION_PER_TOKEN`] per token of the source; `#if` expressions have another such budget
/// together.
pub const EXPANSION_BASE: usize = 1_000_000;

/// Expansion budget per token of the source (after blanking directives).
pub const EXPANSION_PER_TOKEN: usize = 16;

/// A `#define` or `#undef` of a group taken, in source order.
#[derive(Clone, Debug)]
pub struct Directive {
    /// Where the directive's `#` is: it affects the tokens after it.
    pub at: usize,
    /// What it does.
    pub kind: DirectiveKind,
}

/// What a directive does to the macro table.
#[derive(Clone, Debug)]
pub enum DirectiveKind {
    /// `#define NAME body` or `#define NAME(params) body`.
    Define(String, Rc<Macro>),
    /// `#undef NAME`.
    Undef(String),
}

/// A conditional group being read: `#if` ... `#endif`.
struct Group {
    /// Where its `#if` is (for an unterminated group).
    at: Span,
    /// Whether the lines now are kept (the enclosing group is, and this branch is taken).
    live: bool,
    /// Whether the enclosing group is kept.
    outer_live: bool,
    /// Whether a branch was taken already (the later ones are not).
    taken: bool,
    /// Whether `#else` was seen.
    seen_else: bool,
}

/// Blanks comments, preprocessor lines and the lines of conditional groups not taken (keeping
/// byte offsets and newlines) and collects the macro directives of the groups taken, in order.
pub fn preprocess(src: &str) -> Result<(String, Vec<Directive>), CError> {
    let src = &strip_comments(src)?;
    let mut out = String::with_capacity(src.len());
    let mut directives = vec![];
    let mut groups: Vec<Group> = vec![];
    // The macros defined so far, for `#if`.
    let mut table = Expander::new(EXPANSION_BASE);
    let mut offset = 0;
    let mut lines = src.split_inclusive('\n').peekable();
    while let Some(first) = lines.next() {
        let live = groups.last().is_none_or(|g| g.live);
        let trimmed = first.trim_start();
        let Some(rest) = trimmed.strip_prefix('#') else {
            if live {
                out.push_str(first);
            } else {
                blank(&mut out, first);
            }
            offset += first.len();
            continue;
        };
        // The directive and its continuation lines (each ending in `\`), as one stretch of the
        // source with the continuations blanked (same length, so offsets stay exact).
        let mut end = offset + first.len();
        while continues(&src[offset..end]) {
            let Some(next) = lines.next() else { break };
            end += next.len();
        }
        let full = &src[offset..end];
        let joined = full.replace("\\\r\n", "   ").replace("\\\n", "  ");
        let directive = joined[first.len() - rest.len()..].trim_start();
        let word: String = directive
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let at = offset + (first.len() - trimmed.len());
        let line = Span::new(at, at + first.trim_end().len());
        let word_span = Span::new(at, offset + joined.len() - directive.len() + word.len());
        // What follows the directive's name, and where it starts in the source.
        let args = &directive[word.len()..];
        let args_off = end - args.len();
        let misplaced = |what: &str| CError::new(CErrorKind::Syntax, word_span, what);
        match word.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let taken = live && test(&mut table, &word, args, args_off, line)?;
                groups.push(Group {
                    at: word_span,
                    live: taken,
                    outer_live: live,
                    taken,
                    seen_else: false,
                });
            }
            "elif" => {
                let g = groups
                    .last()
                    .ok_or_else(|| misplaced("#elif without #if"))?;
                if g.seen_else {
                    return Err(misplaced("#elif after #else"));
                }
                let taken =
                    g.outer_live && !g.taken && test(&mut table, "if", args, args_off, line)?;
                if let Some(g) = groups.last_mut() {
                    g.live = taken;
                    g.taken |= taken;
                }
            }
            "else" => {
                let g = groups
                    .last_mut()
                    .ok_or_else(|| misplaced("#else without #if"))?;
                if g.seen_else {
                    return Err(misplaced("#else after #else"));
                }
                g.seen_else = true;
                g.live = g.outer_live && !g.taken;
                g.taken = true;
            }
            "endif" => {
                groups
                    .pop()
                    .ok_or_else(|| misplaced("#endif without #if"))?;
            }
            _ if !live => {}
            "include" => {
                // The headers are never read; the few names of theirs the subset knows are
                // defined here (unless the program defined them).
                let header = |h: &str| args.contains(&format!("<{h}>"));
                let mut names: Vec<(&str, &str)> = vec![];
                if header("stdbool.h") {
                    names.extend([("bool", " _Bool"), ("true", " 1"), ("false", " 0")]);
                }
                if header("stdlib.h") {
                    names.extend([("EXIT_SUCCESS", " 0"), ("EXIT_FAILURE", " 1")]);
                }
                for (name, body) in names {
                    if table.macros.contains_key(name) {
                        continue;
                    }
                    let m = Rc::new(Macro::parse(body, at, line)?);
                    table.macros.insert(name.to_owned(), m.clone());
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Define(name.to_owned(), m),
                    });
                }
            }
            "pragma" | "line" | "ident" | "warning" | "" => {}
            w if w.chars().all(|c| c.is_ascii_digit()) => {}
            "error" => {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    line,
                    format!("#error{}", args.trim_end()),
                ))
            }
            "define" | "undef" => {
                let body = args.trim_start();
                let name: String = body
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let after = &body[name.len()..];
                let malformed = name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit());
                if word == "undef" {
                    if malformed || !after.trim().is_empty() {
                        return Err(CError::new(CErrorKind::Syntax, line, "malformed #undef"));
                    }
                    table.macros.remove(&name);
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Undef(name),
                    });
                } else {
                    if malformed {
                        return Err(CError::new(CErrorKind::Syntax, line, "malformed #define"));
                    }
                    let m = Rc::new(Macro::parse(after, end - after.len(), line)?);
                    table.macros.insert(name.clone(), m.clone());
                    directives.push(Directive {
                        at,
                        kind: DirectiveKind::Define(name, m),
                    });
                }
            }
            other => {
                return Err(CError::new(
                    CErrorKind::Unsupported,
                    word_span,
                    format!("preprocessor directive #{other}"),
                ))
            }
        }
        blank(&mut out, full);
        offset = end;
    }
    if let Some(g) = groups.last() {
        return Err(CError::new(
            CErrorKind::Syntax,
            g.at,
            "unterminated conditional (no #endif)",
        ));
    }
    Ok((out, directives))
}

/// Appends `text` as spaces, keeping newlines and byte offsets (a multi-byte character becomes
/// as many spaces as it has bytes).
fn blank(out: &mut String, text: &str) {
    for c in text.chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
}

/// Whether the condition of `#if EXPR`, `#ifdef NAME` or `#ifndef NAME` holds (`args`, at byte
/// `off` of the source, is what follows the directive's name on `line`).
fn test(
    table: &mut Expander,
    word: &str,
    args: &str,
    off: usize,
    line: Span,
) -> Result<bool, CError> {
    if word != "if" {
        let name: String = args
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(CError::new(
                CErrorKind::Syntax,
                line,
                format!("#{word} without a macro name"),
            ));
        }
        return Ok(table.macros.contains_key(&name) == (word == "ifdef"));
    }
    let toks: Vec<PTok> = super::lexer::lex_raw(args, off)?
        .into_iter()
        .map(|(s, t, e)| PTok::new(t, (s, e)))
        .collect();
    if toks.is_empty() {
        return Err(CError::new(
            CErrorKind::Syntax,
            line,
            "#if without an expression",
        ));
    }
    let expanded = table.run_if(toks)?;
    let end = off + args.trim_end().len();
    cond::eval(&expanded, Span::new(end, end))
}

/// Whether a directive's text so far ends in a line continuation (`\` before the newline).
fn continues(text: &str) -> bool {
    text.ends_with('\n') && text.trim_end_matches(['\n', '\r']).ends_with('\\')
}

/// Replaces comments by spaces (newlines kept), leaving string and character literals alone.
fn strip_comments(src: &str) -> Result<String, CError> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                loop {
                    if i + 1 >= b.len() {
                        return Err(CError::new(
                            CErrorKind::Syntax,
                            Span::new(start, start + 2),
                            "unterminated comment",
                        ));
                    }
                    if b[i] == b'*' && b[i + 1] == b'/' {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
                for (k, byte) in out.iter_mut().enumerate().take(i).skip(start) {
                    if b[k] != b'\n' {
                        *byte = b' ';
                    }
                }
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, except inside multi-byte characters of
    // comments; those become spaces too, so the result is valid UTF-8.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Expands the macros in `raw` (the tokens of the blanked source), each token with the macros
/// defined before it. Every token of an expansion gets the span from the macro's name to the
/// end of its use (its arguments' closing parenthesis).
pub fn expand(raw: Vec<Spanned>, directives: &[Directive]) -> Result<Vec<Spanned>, CError> {
    let budget = EXPANSION_BASE.saturating_add(EXPANSION_PER_TOKEN.saturating_mul(raw.len()));
    let toks = raw
        .into_iter()
        .map(|(s, t, e)| PTok::new(t, (s, e)))
        .collect();
    let out = Expander::new(budget).run(&mut Input::new(toks, directives), true)?;
    Ok(out
        .into_iter()
        .map(|t| (t.span.0, t.tok, t.span.1))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn texts(src: &str) -> Result<Vec<String>, CError> {
        Ok(tokenize(src)?
            .into_iter()
            .map(|t| t.1.text().to_owned())
            .collect())
    }

    #[test]
    fn a_macro_is_not_expanded_inside_its_own_expansion() {
        let t = texts("#define X X + 1\n#define A B\n#define B A\nX A B").expect("expands");
        assert_eq!(t, ["X", "+", "1", "A", "B"]);
    }

    #[test]
    fn definitions_apply_from_their_line_on() {
        let t = texts("N\n#define N 1\nN\n#undef N\nN\n#define N 2 \\\n + 3\nN").expect("expands");
        assert_eq!(t, ["N", "1", "N", "2", "+", "3"]);
    }

    #[test]
    fn a_long_chain_of_macros_expands_without_recursion() {
        // Run on a small stack: the expansion must not recurse per macro.
        let mut src = String::from("#define A0 7\n");
        for i in 1..20_000 {
            src.push_str(&format!("#define A{i} A{}\n", i - 1));
        }
        src.push_str("A19999\n");
        let t = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || texts(&src))
            .expect("thread")
            .join()
            .expect("no overflow")
            .expect("expands");
        assert_eq!(t, ["7"]);
    }

    #[test]
    fn expansion_stops_at_its_budget_even_when_it_produces_nothing() {
        // Empty bodies produce no token, but entering 8^17 of them is work all the same.
        let mut src = String::from("#define A0\n");
        for i in 1..18 {
            let body = vec![format!("A{}", i - 1); 8].join(" ");
            src.push_str(&format!("#define A{i} {body}\n"));
        }
        src.push_str("int A17 x;\n");
        let e = texts(&src).expect_err("too large");
        assert_eq!(e.kind, CErrorKind::Limit);
        assert!(e.message.starts_with("macro expansion too large"), "{e:?}");
    }

    fn error(src: &str) -> CError {
        texts(src).expect_err("an error")
    }

    #[test]
    fn function_like_macros_take_arguments_with_nested_parentheses() {
        let t = texts("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(f(1, 2), (3, 4))")
            .expect("expands");
        assert_eq!(
            t.join(" "),
            "( ( f ( 1 , 2 ) ) > ( ( 3 , 4 ) ) ? ( f ( 1 , 2 ) ) : ( ( 3 , 4 ) ) )"
        );
        let t = texts("#define F() 7\n#define G(x) [x]\nF() G() G(F())").expect("expands");
        assert_eq!(t.join(" "), "7 [ ] [ 7 ]");
    }

    #[test]
    fn a_function_like_name_without_parenthesis_is_left_alone() {
        let t = texts("#define F(x) x + 1\nint F; F (2)\n#define APPLY(f, v) f(v)\nAPPLY(F, 3)")
            .expect("expands");
        assert_eq!(t.join(" "), "int F ; 2 + 1 3 + 1");
    }

    #[test]
    fn function_like_macros_are_not_expanded_inside_their_own_expansion() {
        // `f(f)(1)`: the inner `f` is painted while `f` expands, and stays so after.
        let src = "#define f(x) x f\n#define g(x) h(x)\n#define h(x) g(x)\nf(1)(2) g(3)";
        let t = texts(src).expect("expands");
        assert_eq!(t.join(" "), "1 f ( 2 ) g ( 3 )");
        // The example of C11 6.10.3.4: `f(2)(9)` is `2*9*g`, as GCC has it.
        let t = texts("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)").expect("expands");
        assert_eq!(t.join(" "), "2 * 9 * g");
        // An argument naming the macro being expanded is painted when pre-expanded.
        let t = texts("#define id(x) x\n#define loop id(loop)\nloop").expect("expands");
        assert_eq!(t, ["loop"]);
    }

    #[test]
    fn arguments_are_expanded_first_except_next_to_hash() {
        let src = "#define ONE 1\n#define CAT(a, b) a ## b\n#define XCAT(a, b) CAT(a, b)\n\
                   #define STR(a) #a\nCAT(ONE, 2) XCAT(ONE, 2) CAT(x, ONE) STR(ONE + \"q\")";
        let t = texts(src).expect("expands");
        assert_eq!(t, ["ONE2", "12", "xONE", r#""ONE + \"q\"""#]);
        let t = texts("#define K(a, b) a ## b\nK(,) K(x,) K(,y) K(in, t) K(-, >)").expect("pastes");
        assert_eq!(t, ["x", "y", "int", "->"]);
        let e = error("#define K(a, b) a ## b\nint x = K(+, 1);");
        assert!(e.message.contains("pasting `+` and `1`"), "{e:?}");
        assert_eq!(e.span.start, 31);
    }

    #[test]
    fn variadic_macros_collect_the_remaining_arguments() {
        let src =
            "#define CALL(f, ...) f(__VA_ARGS__)\n#define P(fmt, ...) g(fmt, ## __VA_ARGS__)\n\
                   CALL(h, 1, (2, 3)) CALL(h) P(0) P(0, 1)";
        let t = texts(src).expect("expands");
        assert_eq!(t.join(" "), "h ( 1 , ( 2 , 3 ) ) h ( ) g ( 0 ) g ( 0 , 1 )");
    }

    #[test]
    fn expansions_span_the_whole_use() {
        let toks = tokenize("#define F(x) x\nF(\n 1 )").expect("expands");
        assert_eq!(toks.len(), 1);
        assert_eq!((toks[0].0, toks[0].2), (15, 22));
    }

    #[test]
    fn wrong_argument_counts_and_unterminated_uses_are_located_errors() {
        let e = error("#define MAX(a, b) a\nint x = MAX(1);");
        assert_eq!((e.kind, e.span.start), (CErrorKind::Name, 28));
        assert!(e.message.contains("takes 2 arguments, 1 given"), "{e:?}");
        let e = error("#define F() 1\n#define G F(2)\nint x = G;");
        assert_eq!(e.span.start, 37, "{e:?}"); // at the use of `G`
        assert!(error("#define G(a, b, ...) 1\nG(1)")
            .message
            .contains("at least 2 arguments, 1"));
        let e = error("#define F(x) x\nint y = F((1);\n");
        assert_eq!(e.span.start, 23);
        assert!(e.message.starts_with("unterminated argument list"), "{e:?}");
        for bad in [
            "#define F(x",
            "#define F(x,) x",
            "#define F(x, x) x",
            "#define F(1) x",
        ] {
            assert_eq!(error(bad).kind, CErrorKind::Syntax, "{bad}");
        }
        assert_eq!(error("#define F(x) #y").kind, CErrorKind::Syntax);
        assert_eq!(error("#define F(x) ## x").kind, CErrorKind::Syntax);
        assert_eq!(error("#define S #").kind, CErrorKind::Unsupported);
    }

    #[test]
    fn nested_uses_in_arguments_have_a_depth_bound() {
        let n = 5_000;
        let src = format!("#define F(x) x\n{}1{}", "F(".repeat(n), ")".repeat(n));
        let e = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || texts(&src))
            .expect("thread")
            .join()
            .expect("no overflow")
            .expect_err("too deep");
        assert_eq!(e.kind, CErrorKind::Limit);
        let src = format!("#define F(x) x\n{}1{}", "F(".repeat(50), ")".repeat(50));
        assert_eq!(texts(&src).expect("expands"), ["1"]);
    }

    #[test]
    fn function_like_expansion_has_the_budget_too() {
        // Each level doubles: D17 would be 2^17 copies of its argument, sixteen times over.
        let mut src = String::from("#define D0(x) x x\n");
        for i in 1..40 {
            src.push_str(&format!("#define D{i}(x) D{}(D{}(x))\n", i - 1, i - 1));
        }
        src.push_str("int D39(1);\n");
        let e = error(&src);
        assert_eq!(e.kind, CErrorKind::Limit, "{e:?}");
    }

    #[test]
    fn conditional_groups_keep_the_branch_taken() {
        let src = "#define A 2\n#if A > 1 && defined(A) && !defined B\nx\n#elif 1\ny\n#else\nz\n\
                   #endif\n#ifdef B\n#error no\n#elif A == 2\nw\n#endif\n#ifndef A\n#bogus\n\
                   #else\nv\n#endif";
        assert_eq!(texts(src).expect("expands"), ["x", "w", "v"]);
        let nested = "#if 0\n#if 1\na\n#else\nb\n#endif\n#elif 1\n#if 0\nc\n#elif 2\nd\n#endif\n\
                      #endif";
        assert_eq!(texts(nested).expect("expands"), ["d"]);
        // Definitions in a group not taken do not count; macros in `#if` are expanded, names
        // left are 0, and function-like macros take arguments there too.
        let src = "#if 0\n#define X 1\n#endif\n#define F(a, b) ((a) * (b))\n#define Y F(2, 3)\n\
                   #if defined X || Y != 6 || Z\nbad\n#else\ngood\n#endif";
        assert_eq!(texts(src).expect("expands"), ["good"]);
    }

    #[test]
    fn skipped_lines_are_blanked_with_offsets_kept() {
        let src = "#if 0\nit's junk @ \"\n#else\nint x;\n#endif\n";
        let (text, _) = preprocess(src).expect("preprocesses");
        assert_eq!(text.len(), src.len());
        assert_eq!(text.trim(), "int x;");
        assert_eq!(text.find("int"), src.find("int"));
    }

    #[test]
    fn unbalanced_conditionals_are_located_errors() {
        for (src, at, what) in [
            ("int x;\n#endif\n", 7, "#endif without #if"),
            ("#if 1\n#else\n#else\n#endif", 12, "#else after #else"),
            ("#if 1\n#else\n#elif 1\n#endif", 12, "#elif after #else"),
            ("#else\n", 0, "#else without #if"),
            ("#if 1\n#if 0\n#endif\n", 0, "unterminated"),
            ("  #ifdef X\n", 2, "unterminated"),
            ("#ifdef\n#endif", 0, "without a macro name"),
            ("#if\n#endif", 0, "without an expression"),
            ("#if 1 / 0\n#endif", 6, "division by zero"),
            ("#if 1\n#error stop here\n#endif", 6, "#error stop here"),
        ] {
            let e = error(src);
            assert_eq!(e.span.start, at, "{src}: {e:?}");
            assert!(e.message.contains(what), "{src}: {e:?}");
        }
        // `#warning` is ignored, and so is `#error` (and anything else) in a group not taken.
        assert_eq!(
            texts("#warning hm\n#if 0\n#error x\n#foo\n#endif\n1").expect("ok"),
            ["1"]
        );
        // An `#elif` after a branch taken is not evaluated.
        assert_eq!(texts("#if 1\n2\n#elif 1/0\n#endif").expect("ok"), ["2"]);
    }

    #[test]
    fn deep_conditional_nesting_is_fine() {
        let n = 100_000;
        let src = format!("{}1\n{}", "#if 1\n".repeat(n), "#endif\n".repeat(n));
        assert_eq!(texts(&src).expect("nests"), ["1"]);
        let src = "#if 1\n".repeat(n);
        assert!(error(&src).message.contains("unterminated"));
    }
}
