//! Tests of the preprocessor: directives, conditionals, macro expansion and their errors.

use super::super::tokenize::tokenize;
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
    let t =
        texts("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(f(1, 2), (3, 4))").expect("expands");
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
    let src = "#define CALL(f, ...) f(__VA_ARGS__)\n#define P(fmt, ...) g(fmt, ## __VA_ARGS__)\n\
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
