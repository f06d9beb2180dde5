//! The value of a `#if` or `#elif` expression, once `defined` is replaced and macros are
//! expanded: integer constants (decimal, octal, hex, binary, with suffixes; character
//! constants), identifiers (0), the unary `! ~ - +`, the binary operators from `*` to `||` and
//! `?:`, computed as C does in `intmax_t`/`uintmax_t` (64 bits, unsigned when an operand is,
//! wrapping), with division by zero an error where it is evaluated (`0 && 1/0` is fine).
//!
//! Must not: expand macros (the caller does), or recurse beyond [`MAX_IF_NESTING`].

use super::super::ast::Span;
use super::super::error::{CError, CErrorKind};
use super::super::lexer::Tok;
use super::define::ident_text;
use super::macros::PTok;

/// How deeply parentheses, unary operators and `?:` may nest in a `#if` expression.
pub const MAX_IF_NESTING: u32 = 256;

/// Whether the expression `toks` is non-zero; `end` is where a missing token is reported.
pub(super) fn eval(toks: &[PTok], end: Span) -> Result<bool, CError> {
    let mut p = Parser {
        toks,
        pos: 0,
        end,
        depth: 0,
    };
    let v = p.cond(true)?;
    if let Some(t) = toks.get(p.pos) {
        return Err(p.unexpected(t));
    }
    Ok(v.bits != 0)
}

/// A value of the preprocessor's arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Val {
    bits: u64,
    unsigned: bool,
}

impl Val {
    fn signed(v: i64) -> Val {
        Val {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn truth(b: bool) -> Val {
        Val::signed(i64::from(b))
    }
}

struct Parser<'a> {
    toks: &'a [PTok],
    pos: usize,
    end: Span,
    depth: u32,
}

/// The binary operators by precedence (higher binds tighter).
fn binary_op(t: &Tok) -> Option<u8> {
    Some(match t {
        Tok::OrOr => 1,
        Tok::AndAnd => 2,
        Tok::Pipe => 3,
        Tok::Caret => 4,
        Tok::Amp => 5,
        Tok::EqEq | Tok::Ne => 6,
        Tok::Lt | Tok::Gt | Tok::Le | Tok::Ge => 7,
        Tok::Shl | Tok::Shr => 8,
        Tok::Plus | Tok::Minus => 9,
        Tok::Star | Tok::Slash | Tok::Percent => 10,
        _ => return None,
    })
}

fn span(t: &PTok) -> Span {
    Span::new(t.span.0, t.span.1)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn unexpected(&self, t: &PTok) -> CError {
        CError::new(
            CErrorKind::Syntax,
            span(t),
            format!("unexpected `{}` in #if", t.tok.text()),
        )
    }

    /// Enters one more level of nesting at the current token.
    fn deeper(&mut self) -> Result<(), CError> {
        self.depth += 1;
        if self.depth <= MAX_IF_NESTING {
            return Ok(());
        }
        let at = self.toks.get(self.pos).map_or(self.end, span);
        Err(CError::new(
            CErrorKind::Limit,
            at,
            format!("#if expression nested too deeply (more than {MAX_IF_NESTING} levels)"),
        ))
    }

    /// `a ? b : c` (right-associative); `live` is false where the value is not used.
    fn cond(&mut self, live: bool) -> Result<Val, CError> {
        let c = self.binary(1, live)?;
        if self.peek() != Some(&Tok::Question) {
            return Ok(c);
        }
        self.pos += 1;
        self.deeper()?;
        let a = self.cond(live && c.bits != 0)?;
        self.expect(Tok::Colon)?;
        let b = self.cond(live && c.bits == 0)?;
        self.depth -= 1;
        Ok(Val {
            bits: if c.bits != 0 { a.bits } else { b.bits },
            unsigned: a.unsigned || b.unsigned,
        })
    }

    /// Binary operators of precedence `min` and above, left-associative.
    fn binary(&mut self, min: u8, live: bool) -> Result<Val, CError> {
        let mut l = self.unary(live)?;
        while let Some(prec) = self.peek().and_then(binary_op).filter(|p| *p >= min) {
            let op = &self.toks[self.pos];
            self.pos += 1;
            let r_live = match op.tok {
                Tok::AndAnd => live && l.bits != 0,
                Tok::OrOr => live && l.bits == 0,
                _ => live,
            };
            let r = self.binary(prec + 1, r_live)?;
            l = apply(op, l, r, live)?;
        }
        Ok(l)
    }

    fn unary(&mut self, live: bool) -> Result<Val, CError> {
        let op = match self.peek() {
            Some(t @ (Tok::Plus | Tok::Minus | Tok::Tilde | Tok::Bang)) => t.clone(),
            _ => return self.primary(live),
        };
        self.pos += 1;
        self.deeper()?;
        let v = self.unary(live)?;
        self.depth -= 1;
        Ok(match op {
            Tok::Minus => Val {
                bits: v.bits.wrapping_neg(),
                ..v
            },
            Tok::Tilde => Val { bits: !v.bits, ..v },
            Tok::Bang => Val::truth(v.bits == 0),
            _ => v,
        })
    }

    fn primary(&mut self, live: bool) -> Result<Val, CError> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err(CError::new(
                CErrorKind::Syntax,
                self.end,
                "missing expression in #if",
            ));
        };
        self.pos += 1;
        match &t.tok {
            Tok::Int(s) => int_literal(s, span(t)),
            Tok::Char(s) => char_literal(s, span(t)),
            Tok::LParen => {
                self.deeper()?;
                let v = self.cond(live)?;
                self.expect(Tok::RParen)?;
                self.depth -= 1;
                Ok(v)
            }
            Tok::Float(_) => Err(CError::unsupported(
                span(t),
                "floating-point constant in #if",
            )),
            tok if ident_text(tok).is_some() => Ok(Val::signed(0)),
            _ => Err(self.unexpected(t)),
        }
    }

    fn expect(&mut self, want: Tok) -> Result<(), CError> {
        match self.toks.get(self.pos) {
            Some(t) if t.tok == want => {
                self.pos += 1;
                Ok(())
            }
            Some(t) => Err(CError::new(
                CErrorKind::Syntax,
                span(t),
                format!(
                    "expected `{}` in #if, found `{}`",
                    want.text(),
                    t.tok.text()
                ),
            )),
            None => Err(CError::new(
                CErrorKind::Syntax,
                self.end,
                format!("expected `{}` at the end of #if", want.text()),
            )),
        }
    }
}

/// `l op r` with C's usual arithmetic conversions; a division by zero is an error when `live`.
fn apply(op: &PTok, l: Val, r: Val, live: bool) -> Result<Val, CError> {
    let unsigned = l.unsigned || r.unsigned;
    let (a, b) = (l.bits, r.bits);
    let (sa, sb) = (a as i64, b as i64);
    let num = |bits: u64| Val { bits, unsigned };
    Ok(match op.tok {
        Tok::Star => num(a.wrapping_mul(b)),
        Tok::Slash | Tok::Percent if b == 0 => {
            if live {
                return Err(CError::new(
                    CErrorKind::Syntax,
                    span(op),
                    "division by zero in #if",
                ));
            }
            num(0)
        }
        Tok::Slash if unsigned => num(a / b),
        Tok::Slash => num(sa.wrapping_div(sb) as u64),
        Tok::Percent if unsigned => num(a % b),
        Tok::Percent => num(sa.wrapping_rem(sb) as u64),
        Tok::Plus => num(a.wrapping_add(b)),
        Tok::Minus => num(a.wrapping_sub(b)),
        Tok::Shl | Tok::Shr => {
            // The count as a signed number (a huge unsigned one is just huge); a negative
            // count shifts the other way, as GCC does.
            let count = if r.unsigned && sb < 0 {
                i128::from(u64::MAX)
            } else {
                i128::from(sb)
            };
            let left = (op.tok == Tok::Shl) == (count >= 0);
            Val {
                bits: shift(l, count.unsigned_abs(), left),
                unsigned: l.unsigned,
            }
        }
        Tok::Lt if unsigned => Val::truth(a < b),
        Tok::Lt => Val::truth(sa < sb),
        Tok::Gt if unsigned => Val::truth(a > b),
        Tok::Gt => Val::truth(sa > sb),
        Tok::Le if unsigned => Val::truth(a <= b),
        Tok::Le => Val::truth(sa <= sb),
        Tok::Ge if unsigned => Val::truth(a >= b),
        Tok::Ge => Val::truth(sa >= sb),
        Tok::EqEq => Val::truth(a == b),
        Tok::Ne => Val::truth(a != b),
        Tok::Amp => num(a & b),
        Tok::Caret => num(a ^ b),
        Tok::Pipe => num(a | b),
        Tok::AndAnd => Val::truth(a != 0 && b != 0),
        Tok::OrOr => Val::truth(a != 0 || b != 0),
        _ => unreachable!("not a binary operator: {:?}", op.tok),
    })
}

/// `v` shifted by `n` bits, left or right (arithmetically when signed).
fn shift(v: Val, n: u128, left: bool) -> u64 {
    let negative = !v.unsigned && (v.bits as i64) < 0;
    match (left, u32::try_from(n).ok().filter(|n| *n < 64)) {
        (true, Some(n)) => v.bits << n,
        (true, None) => 0,
        (false, Some(n)) if negative => ((v.bits as i64) >> n) as u64,
        (false, Some(n)) => v.bits >> n,
        (false, None) => {
            if negative {
                u64::MAX
            } else {
                0
            }
        }
    }
}

/// An integer constant: decimal, octal (`0`), hex (`0x`) or binary (`0b`), with `u`/`l`/`ll`
/// suffixes; unsigned when suffixed `u` or too large for `intmax_t`.
fn int_literal(s: &str, at: Span) -> Result<Val, CError> {
    let lower = s.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[digits.len()..];
    let invalid = || {
        CError::new(
            CErrorKind::Syntax,
            at,
            format!("invalid integer constant `{s}` in #if"),
        )
    };
    if !matches!(suffix, "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        return Err(invalid());
    }
    let (radix, text) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = digits.strip_prefix("0b") {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if text.is_empty() || !text.chars().all(|c| c.is_digit(radix)) {
        return Err(invalid());
    }
    let bits = u64::from_str_radix(text, radix).map_err(|_| {
        CError::new(
            CErrorKind::Limit,
            at,
            format!("integer constant `{s}` too large for #if"),
        )
    })?;
    Ok(Val {
        bits,
        unsigned: suffix.contains('u') || bits > i64::MAX as u64,
    })
}

/// A one-character constant (`'a'`, `'\n'`, `'\x41'`, `'\101'`), as a signed `char` would be.
fn char_literal(s: &str, at: Span) -> Result<Val, CError> {
    let inner = &s[1..s.len() - 1];
    let unsupported = || CError::unsupported(at, format!("character constant {s} in #if"));
    let byte = if let Some(esc) = inner.strip_prefix('\\') {
        match esc {
            "n" => b'\n',
            "t" => b'\t',
            "r" => b'\r',
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            "\\" | "'" | "\"" | "?" => esc.as_bytes()[0],
            _ => {
                let (radix, digits) = match esc.strip_prefix('x') {
                    Some(h) => (16, h),
                    None => (8, esc),
                };
                u32::from_str_radix(digits, radix)
                    .ok()
                    .and_then(|v| u8::try_from(v).ok())
                    .filter(|_| !digits.is_empty() && (radix == 16 || digits.len() <= 3))
                    .ok_or_else(unsupported)?
            }
        }
    } else {
        match inner.as_bytes() {
            [b] => *b,
            _ => return Err(unsupported()),
        }
    };
    Ok(Val::signed(i64::from(byte as i8)))
}

#[cfg(test)]
mod tests {
    use super::super::super::lexer::lex_raw;
    use super::*;

    fn value(src: &str) -> Result<bool, CError> {
        let toks: Vec<PTok> = lex_raw(src, 0)?
            .into_iter()
            .map(|(s, t, e)| PTok::new(t, (s, e)))
            .collect();
        eval(&toks, Span::new(src.len(), src.len()))
    }

    fn yes(src: &str) {
        assert_eq!(value(src), Ok(true), "{src}");
    }

    fn no(src: &str) {
        assert_eq!(value(src), Ok(false), "{src}");
    }

    #[test]
    fn precedence_and_associativity_are_those_of_c() {
        yes("1 + 2 * 3 == 7");
        yes("(1 + 2) * 3 == 9");
        yes("10 - 4 - 3 == 3");
        yes("1 << 2 + 1 == 8");
        yes("1 | 2 ^ 3 & 1 == 3");
        yes("0 ? 1 : 2 ? 3 : 0");
        no("1 ? 0 : 1");
        yes("!0 && ~0 == -1 && -(-3) == 3 && +4 == 4");
        yes("7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1");
        yes("1 < 2 && 2 <= 2 && 3 > 2 && 2 >= 3 == 0 && 1 != 2");
        yes("0 || 5");
    }

    #[test]
    fn literals_in_every_base_and_identifiers_as_zero() {
        yes("0x1F == 31 && 017 == 15 && 0b101 == 5 && 10UL == 10 && 3ll == 3");
        yes("'a' == 97 && '\\n' == 10 && '\\x41' == 65 && '\\101' == 65 && '\\377' == -1");
        yes("undefined_name == 0 && int == 0");
        assert!(value("08").is_err());
        assert!(value("1x").is_err());
        assert!(value("99999999999999999999").is_err());
    }

    #[test]
    fn unsigned_operands_make_the_operation_unsigned() {
        yes("-1 < 0");
        no("-1 < 0u");
        yes("-1 > 0u");
        yes("0xFFFFFFFFFFFFFFFF > 0");
        yes("(0 ? 1u : -1) > 0");
        yes("-1 >> 70 == -1 && 1 << 64 == 0 && 1 << -1 == 0 && 4 >> -1 == 8");
        yes("-8 >> 1 == -4 && -8u >> 1 > 0");
    }

    #[test]
    fn division_by_zero_is_an_error_only_where_evaluated() {
        let e = value("1 / 0").expect_err("division by zero");
        assert_eq!(e.span.start, 2);
        assert!(e.message.contains("division by zero"), "{e:?}");
        assert!(value("5 % (2 - 2)").is_err());
        no("0 && 1 / 0");
        yes("1 || 1 % 0");
        yes("1 ? 1 : 1 / 0");
        no("0 ? 1 / 0 : 0");
    }

    #[test]
    fn malformed_expressions_are_located_errors() {
        for (src, at) in [
            ("", 0),
            ("1 +", 3),
            ("(1", 2),
            ("1 2", 2),
            ("1 ? 2", 5),
            ("1 = 2", 2),
        ] {
            let e = value(src).expect_err(src);
            assert_eq!(e.span.start, at, "{src}: {e:?}");
        }
        assert_eq!(
            value("1.5").expect_err("float").kind,
            CErrorKind::Unsupported
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let open = "(".repeat(100_000);
        let unary = "- ~".repeat(100_000);
        let ternary = "1 ? ".repeat(100_000);
        let e = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || [value(&open), value(&unary), value(&ternary)])
            .expect("thread")
            .join()
            .expect("no overflow");
        for r in e {
            assert_eq!(r.expect_err("too deep").kind, CErrorKind::Limit);
        }
        yes(&format!("{}1{}", "(".repeat(200), ")".repeat(200)));
    }
}
