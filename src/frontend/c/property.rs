//! SV-COMP properties: which one `verify` checks, read from a property file (`.prp`) or given
//! by name. Only `unreach-call` is supported: `CHECK( init(main()), LTL(G ! call(reach_error())) )`,
//! or its older form with `__VERIFIER_error()`. Every other property (memory safety, overflow,
//! termination, data races, ...) is refused with an error at the offending text.
//!
//! Must not: read files (the caller passes the text) or know how a property is checked.

use super::ast::Span;
use super::error::{CError, CErrorKind};

/// The properties `verify` checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The function whose call is the error: `reach_error` or `__VERIFIER_error`.
    pub error_function: String,
}

impl Property {
    /// SV-COMP's `unreach-call` property with `reach_error`, the default.
    pub fn unreach_call() -> Self {
        Property {
            error_function: "reach_error".to_owned(),
        }
    }

    /// The property's name.
    pub fn name(&self) -> &'static str {
        "unreach-call"
    }

    /// The property in SV-COMP's format (the `specification` of witnesses).
    pub fn text(&self) -> String {
        format!(
            "CHECK( init(main()), LTL(G ! call({}())) )",
            self.error_function
        )
    }
}

/// What `verify` supports, for messages.
const SUPPORTED: &str =
    "verify checks only unreach-call: CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// SV-COMP's property names and, for the ones refused, the LTL text that identifies them.
const KNOWN: &[(&str, &str)] = &[
    ("valid-memsafety", "valid-free"),
    ("valid-memsafety", "valid-deref"),
    ("valid-memsafety", "valid-memtrack"),
    ("valid-memcleanup", "valid-memcleanup"),
    ("no-overflow", "overflow"),
    ("termination", "end"),
    ("no-data-race", "data-race"),
    ("def-behavior", "def-behavior"),
    ("unreach-label", "label"),
];

/// A property given by name: `unreach-call`; anything else is refused (the message names what
/// is supported).
pub fn from_name(name: &str) -> Result<Property, String> {
    match name {
        "unreach-call" => Ok(Property::unreach_call()),
        _ if KNOWN.iter().any(|(n, _)| *n == name) => {
            Err(format!("property `{name}` is not supported: {SUPPORTED}"))
        }
        _ => Err(format!(
            "unknown property `{name}` (neither a property file nor a property name): {SUPPORTED}"
        )),
    }
}

/// A token of a property file: its text and byte offset.
type Token<'a> = (&'a str, usize);

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = vec![];
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' || d == '-' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            out.push((&text[i..end], i));
        } else {
            chars.next();
            out.push((&text[i..i + c.len_utf8()], i));
        }
    }
    out
}

/// Reads a property file: one or more lines `CHECK( init(main()), LTL(G ! call(F())) )` with
/// `F` `reach_error` or `__VERIFIER_error` (the same in every line). The error's span is the
/// first token that departs from that form; its message names the property when it is one of
/// SV-COMP's.
pub fn parse(text: &str) -> Result<Property, CError> {
    let toks = tokens(text);
    let at = |k: usize| {
        let start = toks.get(k).map_or(text.len(), |t| t.1);
        let end = toks.get(k).map_or(text.len(), |t| t.1 + t.0.len());
        Span::new(start, end)
    };
    if toks.is_empty() {
        return Err(CError::new(
            CErrorKind::Syntax,
            at(0),
            format!("empty property file: {SUPPORTED}"),
        ));
    }
    let mut k = 0;
    let mut function: Option<&str> = None;
    while k < toks.len() {
        // CHECK ( init ( main ( ) ) , LTL ( G ! call ( F ( ) ) ) )
        let expected = [
            "CHECK", "(", "init", "(", "main", "(", ")", ")", ",", "LTL", "(", "G", "!", "call",
            "(", "", "(", ")", ")", ")", ")",
        ];
        for (j, want) in expected.iter().enumerate() {
            let got = toks.get(k + j).map(|t| t.0);
            let fine = match (j, got) {
                (15, Some(f)) => {
                    let known = f == "reach_error" || f == "__VERIFIER_error";
                    let same = function.is_none_or(|g| g == f);
                    if known && same {
                        function = Some(f);
                    }
                    known && same
                }
                (_, Some(g)) => g == *want,
                (_, None) => false,
            };
            if !fine {
                return Err(refusal(&toks, k, k + j, at(k + j)));
            }
        }
        k += expected.len();
    }
    Ok(Property {
        error_function: function.unwrap_or("reach_error").to_owned(),
    })
}

/// The error for a property line starting at token `line` that departs from `unreach-call` at
/// token `bad`.
fn refusal(toks: &[Token<'_>], line: usize, bad: usize, span: Span) -> CError {
    // The property's name, when the LTL formula is one of SV-COMP's.
    let ltl = toks[line..]
        .iter()
        .position(|t| t.0 == "LTL")
        .map(|p| line + p);
    let named = ltl.and_then(|p| {
        toks[p..]
            .iter()
            .take(6)
            .find_map(|t| KNOWN.iter().find(|(_, key)| *key == t.0).map(|(n, _)| *n))
    });
    let found = toks.get(bad).map_or("the end of the file", |t| t.0);
    match named {
        Some(name) => CError::unsupported(span, format!("property `{name}`: {SUPPORTED}")),
        None if toks.get(bad).is_none() => CError::new(
            CErrorKind::Syntax,
            span,
            format!("the property ends too early: {SUPPORTED}"),
        ),
        None => CError::new(
            CErrorKind::Syntax,
            span,
            format!("unexpected `{found}` in the property: {SUPPORTED}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_unreach_call_forms_are_read() {
        let p = parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\n").unwrap();
        assert_eq!(p, Property::unreach_call());
        let p = parse("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n\n").unwrap();
        assert_eq!(p.error_function, "__VERIFIER_error");
        assert_eq!(
            p.text(),
            "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )"
        );
    }

    #[test]
    fn other_properties_are_refused_at_their_text() {
        let src =
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n";
        let e = parse(src).unwrap_err();
        assert_eq!(&src[e.span.start..e.span.end], "valid-free");
        assert!(e.message.contains("valid-memsafety"), "{}", e.message);
        let e = parse("CHECK( init(main()), LTL(F end) )").unwrap_err();
        assert!(e.message.contains("termination"), "{}", e.message);
        let e = parse("CHECK( init(start()), LTL(G ! call(reach_error())) )").unwrap_err();
        assert!(e.message.contains("`start`"), "{}", e.message);
    }

    #[test]
    fn names_other_than_unreach_call_are_refused() {
        assert_eq!(from_name("unreach-call"), Ok(Property::unreach_call()));
        for n in [
            "valid-memsafety",
            "no-overflow",
            "termination",
            "no-data-race",
        ] {
            let e = from_name(n).unwrap_err();
            assert!(e.contains(n) && e.contains("unreach-call"), "{e}");
        }
        assert!(from_name("reachability").is_err());
    }
}
