//! Integration tests of the SMT-LIB front-end: the public benchmark corpus, every command and
//! term form, error reporting on truncated/garbage input, and solver model shapes.
//! These tests only parse; they must not depend on any lowering or solving.

use hornbeam::syntax::ast::*;
use hornbeam::syntax::parse::{line_col, parse_model, parse_script, LineIndex, SyntaxError};
use std::path::{Path, PathBuf};
use std::time::Instant;

const BENCH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/chc-bench/public");

fn collect_smt2(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_smt2(&p, out);
        } else if p.extension().is_some_and(|x| x == "smt2") {
            out.push(p);
        }
    }
}

fn one(src: &str) -> CommandKind {
    let mut cmds = parse_script(src).unwrap_or_else(|e| panic!("{}: {src}", e.located(src)));
    assert_eq!(cmds.len(), 1);
    cmds.remove(0).kind
}

fn assert_term(src: &str) -> Term {
    match one(&format!("(assert {src})")) {
        CommandKind::Assert(t) => t,
        other => panic!("not an assert: {other:?}"),
    }
}

fn err(src: &str) -> SyntaxError {
    match parse_script(src) {
        Ok(c) => panic!("expected an error for {src:?}, got {c:?}"),
        Err(e) => e,
    }
}

fn sym(t: &Term) -> &str {
    match &t.kind {
        TermKind::Var(Ident::Simple(s)) => &s.name,
        other => panic!("not a simple variable: {other:?}"),
    }
}

#[test]
fn public_benchmarks_parse() {
    let mut files = Vec::new();
    collect_smt2(Path::new(BENCH_DIR), &mut files);
    if files.is_empty() {
        eprintln!("skipping: no benchmarks under {BENCH_DIR}");
        return;
    }
    files.sort();
    let sources: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|p| {
            let s = std::fs::read_to_string(&p).expect("benchmark is UTF-8");
            (p, s)
        })
        .collect();
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut commands = 0;
    for (p, src) in &sources {
        match parse_script(src) {
            Ok(c) => commands += c.len(),
            Err(e) => failures.push(format!("{}:{}", p.display(), e.located(src))),
        }
    }
    let elapsed = start.elapsed();
    eprintln!(
        "parsed {} files ({} commands, {} bytes) in {:?}",
        sources.len(),
        commands,
        sources.iter().map(|(_, s)| s.len()).sum::<usize>(),
        elapsed
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

#[test]
fn commands() {
    assert!(matches!(one("(set-logic HORN)"), CommandKind::SetLogic(s) if s.name == "HORN"));
    match one("(set-info :status sat)") {
        CommandKind::SetInfo(a) => {
            assert_eq!(a.keyword, ":status");
            assert!(matches!(a.value, Some(SExpr::Atom(ref v, _)) if v == "sat"));
        }
        o => panic!("{o:?}"),
    }
    match one("(set-info :source |multi\nline\tdescription|)") {
        CommandKind::SetInfo(a) => {
            let v = a.value.unwrap();
            assert_eq!(v.symbol_name(), Some("multi\nline\tdescription"));
        }
        o => panic!("{o:?}"),
    }
    match one("(set-option :produce-models true)") {
        CommandKind::SetOption(a) => assert_eq!(a.keyword, ":produce-models"),
        o => panic!("{o:?}"),
    }
    match one("(set-option :print-success)") {
        CommandKind::SetOption(a) => assert_eq!(a.value, None),
        o => panic!("{o:?}"),
    }
    match one("(declare-fun |inv@1| ( Int (Array Int Int) (_ BitVec 32) ) Bool)") {
        CommandKind::DeclareFun(f, args, ret) => {
            assert_eq!(f.name, "inv@1");
            assert_eq!(f.span, Span::new(13, 20));
            assert_eq!(args.len(), 3);
            assert!(matches!(&args[1], Sort::App(a, xs, _) if a.name == "Array" && xs.len() == 2));
            assert!(
                matches!(&args[2], Sort::Indexed(b, idx, _) if b.name == "BitVec" && idx == &["32"])
            );
            assert!(matches!(ret, Sort::Simple(s) if s.name == "Bool"));
        }
        o => panic!("{o:?}"),
    }
    assert!(
        matches!(one("(declare-fun p () Bool)"), CommandKind::DeclareFun(_, a, _) if a.is_empty())
    );
    assert!(
        matches!(one("(declare-const x Real)"), CommandKind::DeclareConst(x, Sort::Simple(s)) if x.name == "x" && s.name == "Real")
    );
    match one("(define-fun f ((x Int) (y Int)) Int (+ x y))") {
        CommandKind::DefineFun(d) => {
            assert_eq!(d.name.name, "f");
            assert_eq!(d.params.len(), 2);
            assert_eq!(d.span, Span::new(0, 44));
            assert!(matches!(d.body.kind, TermKind::App(..)));
        }
        o => panic!("{o:?}"),
    }
    match one("(declare-datatypes ((Lst 0)) (((cons (hd Int) (tl Lst)) (nil))))") {
        CommandKind::DeclareDatatypes(xs) => assert_eq!(xs.len(), 2),
        o => panic!("{o:?}"),
    }
    match one("(declare-datatype Pair ((mk (fst Int) (snd Int))))") {
        CommandKind::DeclareDatatype(xs) => assert_eq!(xs[0].symbol_name(), Some("Pair")),
        o => panic!("{o:?}"),
    }
    assert!(
        matches!(one("(declare-sort U 0)"), CommandKind::DeclareSort(u, n) if u.name == "U" && n == "0")
    );
    assert!(matches!(one("(declare-sort U)"), CommandKind::DeclareSort(_, n) if n == "0"));
    assert_eq!(one("(check-sat)"), CommandKind::CheckSat);
    assert_eq!(one("( get-model )"), CommandKind::GetModel);
    assert_eq!(one("(exit)"), CommandKind::Exit);
    match one("(get-info :reason-unknown)") {
        CommandKind::Other(s, args) => {
            assert_eq!(s.name, "get-info");
            assert_eq!(args.len(), 1);
        }
        o => panic!("{o:?}"),
    }
    assert!(
        matches!(one("(check-sat-assuming (a b))"), CommandKind::Other(s, _) if s.name == "check-sat-assuming")
    );
    assert!(matches!(one("(push 1)"), CommandKind::Other(s, _) if s.name == "push"));
    let cmds = parse_script("; header\n(set-logic HORN) ; trailing\n\n(check-sat)\n(exit)\n; end")
        .unwrap();
    assert_eq!(cmds.len(), 3);
    assert_eq!(cmds[1].span, Span::new(38, 49));
    assert!(parse_script("").unwrap().is_empty());
    assert!(parse_script("  ; only a comment").unwrap().is_empty());
}

#[test]
fn terms() {
    let t = assert_term("(let ((a!1 (+ x 1)) (b 2)) (< a!1 b))");
    match &t.kind {
        TermKind::Let(bs, body) => {
            assert_eq!(bs.len(), 2);
            assert_eq!(bs[0].0.name, "a!1");
            assert!(matches!(body.kind, TermKind::App(..)));
        }
        o => panic!("{o:?}"),
    }
    assert_eq!(t.span, Span::new(8, 45));

    let t = assert_term("(forall ((A Int) (B (Array Int Bool))) (=> (p A) (q B)))");
    assert!(matches!(&t.kind, TermKind::Forall(vs, _) if vs.len() == 2 && vs[1].0.name == "B"));
    let t = assert_term("(exists ((x Real)) (> x 0.0))");
    assert!(matches!(&t.kind, TermKind::Exists(vs, _) if vs.len() == 1));

    let t = assert_term("(! (=> (p x) false) :named c1 :weight 2 :pattern ((p x)))");
    match &t.kind {
        TermKind::Annotated(inner, attrs) => {
            assert!(matches!(inner.kind, TermKind::App(..)));
            assert_eq!(attrs.len(), 3);
            assert_eq!(attrs[0].keyword, ":named");
            assert_eq!(
                attrs[0].value.as_ref().and_then(SExpr::symbol_name),
                Some("c1")
            );
            assert!(matches!(attrs[2].value, Some(SExpr::List(..))));
        }
        o => panic!("{o:?}"),
    }

    let t = assert_term("(= x (_ bv 3 8))");
    match &t.kind {
        TermKind::App(Ident::Simple(eq), args) => {
            assert_eq!(eq.name, "=");
            assert!(matches!(&args[1].kind,
                TermKind::Var(Ident::Indexed(s, idx, _)) if s.name == "bv" && idx == &["3", "8"]));
        }
        o => panic!("{o:?}"),
    }
    let t = assert_term("((_ extract 7 0) x)");
    assert!(
        matches!(&t.kind, TermKind::App(Ident::Indexed(s, _, _), a) if s.name == "extract" && a.len() == 1)
    );
    let t = assert_term("((_ is cons) l)");
    assert!(
        matches!(&t.kind, TermKind::App(Ident::Indexed(s, idx, _), _) if s.name == "is" && idx == &["cons"])
    );

    let t = assert_term("(= a ((as const (Array Int Int)) 0))");
    match &t.kind {
        TermKind::App(_, args) => match &args[1].kind {
            TermKind::App(Ident::Qualified(id, Sort::App(arr, _, _), _), xs) => {
                assert_eq!(id.symbol().name, "const");
                assert_eq!(arr.name, "Array");
                assert_eq!(xs[0].kind, TermKind::Lit(Literal::Numeral("0".into())));
            }
            o => panic!("{o:?}"),
        },
        o => panic!("{o:?}"),
    }
    let t = assert_term("(as nil (List Int))");
    assert!(matches!(&t.kind, TermKind::Var(Ident::Qualified(..))));

    let t = assert_term("(= (- 1) -x)");
    match &t.kind {
        TermKind::App(_, args) => {
            match &args[0].kind {
                TermKind::App(Ident::Simple(m), xs) => {
                    assert_eq!(m.name, "-");
                    assert_eq!(xs[0].kind, TermKind::Lit(Literal::Numeral("1".into())));
                }
                o => panic!("{o:?}"),
            }
            assert_eq!(sym(&args[1]), "-x");
        }
        o => panic!("{o:?}"),
    }

    let t =
        assert_term("(f 1.5 0.0 123456789012345678901234567890 #xFf #b0101 \"say \"\"hi\"\"\")");
    match &t.kind {
        TermKind::App(_, args) => {
            let lits: Vec<_> = args.iter().map(|a| a.kind.clone()).collect();
            assert_eq!(
                lits,
                vec![
                    TermKind::Lit(Literal::Decimal("1.5".into())),
                    TermKind::Lit(Literal::Decimal("0.0".into())),
                    TermKind::Lit(Literal::Numeral("123456789012345678901234567890".into())),
                    TermKind::Lit(Literal::Hex("Ff".into())),
                    TermKind::Lit(Literal::Binary("0101".into())),
                    TermKind::Lit(Literal::Str("say \"hi\"".into())),
                ]
            );
        }
        o => panic!("{o:?}"),
    }

    let t = assert_term("(|a b| |let| |multi\nline| |x!0|)");
    match &t.kind {
        TermKind::App(Ident::Simple(f), args) => {
            assert_eq!(f.name, "a b");
            assert_eq!(f.span, Span::new(9, 14));
            assert_eq!(sym(&args[0]), "let");
            assert_eq!(sym(&args[1]), "multi\nline");
            assert_eq!(sym(&args[2]), "x!0");
        }
        o => panic!("{o:?}"),
    }
    // Command names are still usable as ordinary symbols.
    let t = assert_term("(assert exit)");
    assert!(matches!(&t.kind, TermKind::App(Ident::Simple(a), _) if a.name == "assert"));
    // Comments inside terms.
    let t = assert_term("(and ; first\n true ; second\n false)");
    assert!(matches!(&t.kind, TermKind::App(_, a) if a.len() == 2));
}

#[test]
fn error_messages() {
    let e = err("(assert )");
    assert_eq!(e.message, "unexpected `)`, expected a term");
    assert_eq!(e.span, Span::new(8, 9));

    let src = "(set-logic HORN)\n(assert (forall ((x Int)) (p x)";
    let e = err(src);
    assert_eq!(e.span, Span::new(src.len(), src.len()));
    assert!(
        e.message
            .starts_with("unexpected end of input: missing `)`"),
        "{}",
        e.message
    );
    assert!(e.message.contains("line 2"), "{}", e.message);

    let src = "(assert (and x y) ; comment\n";
    let e = err(src);
    assert_eq!(e.span, Span::new(src.len(), src.len()));
    assert!(e.message.contains("line 1, column 1"), "{}", e.message);

    let e = err("(assert");
    assert_eq!(e.message, "unexpected end of input, expected a term");
    assert_eq!(e.span, Span::new(7, 7));

    let e = err("(declare-fun f (Int) Bool))");
    assert_eq!(e.span, Span::new(26, 27));
    assert_eq!(e.message, "unexpected `)`, expected `(`");

    let e = err("(declare-fun f (Int) ())");
    assert!(e.message.starts_with("unexpected `)`"), "{}", e.message);

    let e = err("(assert (f x) \"open string");
    assert_eq!(e.message, "unterminated string literal");
    assert_eq!(e.span, Span::new(14, 26));

    let e = err("(assert |open\nquoted");
    assert_eq!(e.message, "unterminated quoted symbol");
    assert_eq!(e.span.start, 8);

    let e = err("(assert |back\\slash|)");
    assert!(e.message.contains("backslash"), "{}", e.message);

    let e = err("(assert (f 1a))");
    assert_eq!(e.message, "invalid number `1a`");
    let e = err("(assert (f #z1))");
    assert!(
        e.message.starts_with("invalid literal `#z1`"),
        "{}",
        e.message
    );

    let e = err("(assert (f x {))");
    assert_eq!(e.message, "invalid character `{`");
    assert_eq!(e.span, Span::new(13, 14));

    let e = err("(assert (match l ((nil 0) ((cons h t) h))))");
    assert!(e.message.contains("`match`"), "{}", e.message);

    let e = err("(assert (let x 1))");
    assert!(
        e.message.starts_with("unexpected symbol `x`"),
        "{}",
        e.message
    );

    let e = err("(assert (forall ((x)) true))");
    assert_eq!(e.message, "unexpected `)`, expected a sort");

    let e = err("(assert (! x))");
    assert!(e.message.contains("attribute"), "{}", e.message);

    let e = err("(assert (_ bv))");
    assert!(e.message.contains("index"), "{}", e.message);

    assert_eq!(
        err("(let x)").message,
        "unexpected `let`, expected a command name"
    );
    assert_eq!(
        err("(check-sat)\n(").message,
        "unexpected end of input, expected a command name"
    );
    assert_eq!(
        err("(declare-fun 1 () Bool)").message,
        "unexpected numeral `1`, expected a symbol"
    );
    assert_eq!(
        err("(declare-const x (Array))").message,
        "unexpected `)`, expected a sort"
    );
    assert_eq!(
        parse_model("(model (declare-fun x () Int))")
            .unwrap_err()
            .message,
        "unexpected `declare-fun`, expected `define-fun` or `define-fun-rec`"
    );
    assert_eq!(
        parse_model("(model) (define-fun y () Int 1)")
            .unwrap_err()
            .message,
        "unexpected `(`, expected the end of the input"
    );

    let e = err(")");
    assert_eq!(e.message, "unexpected `)`, expected `(`");

    let e = err("(set-logic HORN)\n(assert (p é))");
    assert!(e.message.contains("é"), "{}", e.message);
    assert_eq!(
        line_col("(set-logic HORN)\n(assert (p é))", e.span.start),
        (2, 12)
    );
}

#[test]
fn truncated_inputs_never_panic() {
    let src = "(set-logic HORN)\n(declare-fun |inv x| (Int (Array Int Int)) Bool)\n\
        (assert (forall ((x Int) (y Int)) (! (=> (and (inv x) (let ((a!1 (+ x (- 1)))) (> a!1 0.5))) \
        (inv ((as const (Array Int Int)) #x0F))) :named |c 1|)))\n(set-info :status \"s\"\"at\")\n(check-sat)\n(exit)\n";
    parse_script(src).unwrap();
    for cut in 0..src.len() {
        if !src.is_char_boundary(cut) {
            continue;
        }
        let part = &src[..cut];
        if let Err(e) = parse_script(part) {
            assert!(
                e.span.start <= e.span.end && e.span.end <= part.len(),
                "{e:?} at {cut}"
            );
            assert!(!e.message.is_empty());
        }
        let _ = parse_model(part);
    }
}

#[test]
fn garbage_is_an_error() {
    for g in [
        "\u{0}\u{1}\u{2}",
        "@@@ ((( ]]] {{{",
        "(assert (and",
        "))))",
        "(assert 1 2)",
        "(\"str\")",
        "((((",
        "(set-logic)",
        "(check-sat 1)",
        "(declare-fun)",
        "#",
        "|",
        "\"",
        "(assert (forall () ))",
    ] {
        let e = err(g);
        assert!(e.span.end <= g.len(), "{g:?}: {e:?}");
        assert!(!e.message.is_empty());
    }
    // A deterministic pseudo-random byte soup, made valid UTF-8 lossily.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for len in [1usize, 7, 64, 500, 4096] {
        for _ in 0..50 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Bias towards SMT-LIB characters so that the parser gets deep.
                    b"()(): |\"#xb019aZ_!-; \n\xff\xc3"[(x % 22) as usize]
                })
                .collect();
            let s = String::from_utf8_lossy(&bytes);
            let _ = parse_script(&s);
            let _ = parse_model(&s);
        }
    }
}

#[test]
fn deep_nesting() {
    // Depth 1000 is accepted (and dropped) without overflowing the test thread's stack.
    let depth = 1000;
    let src = format!("(assert {}x{})", "(not ".repeat(depth), ")".repeat(depth));
    let cmds = parse_script(&src).unwrap();
    assert_eq!(cmds.len(), 1);
    let cloned = cmds.clone();
    assert_eq!(cloned, cmds);
    // Up to the limit (the `assert` takes one level), parsing and dropping are still fine on a
    // 2 MiB test thread even in debug builds (deep `clone`/`==` need more stack in debug).
    let depth = hornbeam::syntax::lexer::MAX_NESTING - 1;
    let src = format!("(assert {}x{})", "(not ".repeat(depth), ")".repeat(depth));
    assert_eq!(parse_script(&src).unwrap().len(), 1);
    let src = format!(
        "(assert {}x{})",
        "(! ".repeat(depth),
        " :named a)".repeat(depth)
    );
    parse_script(&src).unwrap();
    let src = format!(
        "(assert {}x{})",
        "(not ".repeat(depth + 1),
        ")".repeat(depth + 1)
    );
    assert!(err(&src).message.contains("nested too deeply"));
    // Absurd depth is a clean error, not a crash.
    let depth = 200_000;
    let src = format!("(assert {}x{})", "(not ".repeat(depth), ")".repeat(depth));
    let e = err(&src);
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
}

#[test]
fn models() {
    let m = parse_model(
        "sat\n(\n  (define-fun inv ((x!0 Int) (x!1 Int)) Bool\n    (and (<= x!0 x!1) (>= x!0 0)))\n)\n",
    )
    .unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].name.name, "inv");
    assert_eq!(m[0].params[1].0.name, "x!1");
    assert!(
        matches!(&m[0].body.kind, TermKind::App(Ident::Simple(a), xs) if a.name == "and" && xs.len() == 2)
    );

    let m = parse_model("(model (define-fun |p| ((A Int)) Bool (>= A 0)))").unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].name.name, "p");
    assert_eq!(m[0].span, Span::new(7, 47));

    let m = parse_model(
        "(define-fun p ((A Int)) Bool true)\n(define-fun q ((A Real)) Bool (let ((a!1 (* 2.0 A))) (> a!1 1.0)))\n",
    )
    .unwrap();
    assert_eq!(m.len(), 2);
    assert_eq!(sym(&m[0].body), "true");
    assert!(matches!(&m[1].body.kind, TermKind::Let(..)));
    assert!(matches!(&m[1].params[0].1, Sort::Simple(s) if s.name == "Real"));

    assert!(parse_model("sat\n(model\n)").unwrap().is_empty());
    assert!(parse_model("()").unwrap().is_empty());
    assert!(parse_model("").unwrap().is_empty());
    assert!(parse_model("unsat").is_err());
    assert!(parse_model("(foo (define-fun p () Bool true))").is_err());
    let e = parse_model("sat\n(model (define-fun p () Bool").unwrap_err();
    assert_eq!(e.span.start, 32);
}

#[test]
fn line_col_counts_chars() {
    let s = "ab\ncdé\nf";
    assert_eq!(line_col(s, 0), (1, 1));
    assert_eq!(line_col(s, 2), (1, 3));
    assert_eq!(line_col(s, 3), (2, 1));
    assert_eq!(line_col(s, 7), (2, 4)); // the newline after é (é is 2 bytes)
    assert_eq!(line_col(s, 6), (2, 3)); // inside é: clamped to its start
    assert_eq!(line_col(s, 8), (3, 1));
    assert_eq!(line_col(s, 100), (3, 2));
}

#[test]
fn the_line_index_agrees_with_line_col_everywhere() {
    let src = "(set-logic HORN)\n; é ü\n\n(assert (=> (inv x) false))\nlast line without end";
    let index = LineIndex::new(src);
    for offset in 0..=src.len() + 3 {
        assert_eq!(
            index.line_col(offset),
            line_col(src, offset),
            "offset {offset}"
        );
    }
}
