//! SV-COMP properties: which one `verify` checks, read from a property file (`.prp`) or given
//! by name. Supported: `unreach-call` (`CHECK( init(main()), LTL(G ! call(reach_error())) )`,
//! or its older form with `__VERIFIER_error()`), `valid-memsafety` (the three lines `LTL(G
//! valid-free)`, `LTL(G valid-deref)`, `LTL(G valid-memtrack)`) and `valid-memcleanup`
//! (`LTL(G valid-memcleanup)`). Every other property (overflow, termination, data races, ...)
//! is refused with an error at the offending text.
//!
//! Must not: read files (the caller passes the text) or know how a property is checked.

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::ir::{InvalidOps, MemChecks};

/// Which of SV-COMP's properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    /// No call of the error function.
    UnreachCall,
    /// valid-free, valid-deref and valid-memtrack.
    MemSafety,
    /// Every allocated block freed by the end.
    MemCleanup,
}

/// The properties `verify` checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The function whose call is the error: `reach_error` or `__VERIFIER_error`.
    pub error_function: String,
    /// Which property.
    pub kind: PropertyKind,
}

impl Property {
    /// SV-COMP's `unreach-call` property with `reach_error`, the default.
    pub fn unreach_call() -> Self {
        Property {
            error_function: "reach_error".to_owned(),
            kind: PropertyKind::UnreachCall,
        }
    }

    /// A property of another kind (its error function is `reach_error`).
    pub fn of_kind(kind: PropertyKind) -> Self {
        Property {
            kind,
            ..Property::unreach_call()
        }
    }

    /// The property's name.
    pub fn name(&self) -> &'static str {
        match self.kind {
            PropertyKind::UnreachCall => "unreach-call",
            PropertyKind::MemSafety => "valid-memsafety",
            PropertyKind::MemCleanup => "valid-memcleanup",
        }
    }

    /// What a run checks for this property.
    pub fn checks(&self) -> MemChecks {
        match self.kind {
            PropertyKind::UnreachCall => MemChecks::unreach_call(),
            PropertyKind::MemSafety => MemChecks {
                invalid: InvalidOps::Violation,
                leaks: true,
                cleanup: false,
                error_calls: false,
            },
            PropertyKind::MemCleanup => MemChecks {
                invalid: InvalidOps::End,
                leaks: true,
                cleanup: true,
                error_calls: false,
            },
        }
    }

    /// The property in SV-COMP's format (the `specification` of witnesses).
    pub fn text(&self) -> String {
        let line = |p: &str| format!("CHECK( init(main()), LTL(G {p}) )");
        match self.kind {
            PropertyKind::UnreachCall => line(&format!("! call({}())", self.error_function)),
            PropertyKind::MemSafety => ["valid-free", "valid-deref", "valid-memtrack"]
                .map(line)
                .join("\n"),
            PropertyKind::MemCleanup => line("valid-memcleanup"),
        }
    }
}

/// What `verify` supports, for messages.
const SUPPORTED: &str =
    "verify checks unreach-call (CHECK( init(main()), LTL(G ! call(reach_error())) )), \
     valid-memsafety and valid-memcleanup";

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
        "valid-memsafety" => Ok(Property::of_kind(PropertyKind::MemSafety)),
        "valid-memcleanup" => Ok(Property::of_kind(PropertyKind::MemCleanup)),
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
    let mut memory: Vec<&str> = vec![];
    while k < toks.len() {
        // CHECK ( init ( main ( ) ) , LTL ( G
        let prefix = [
            "CHECK", "(", "init", "(", "main", "(", ")", ")", ",", "LTL", "(", "G",
        ];
        for (j, want) in prefix.iter().enumerate() {
            if toks.get(k + j).map(|t| t.0) != Some(*want) {
                return Err(refusal(&toks, k, k + j, at(k + j)));
            }
        }
        let line = k;
        k += prefix.len();
        // valid-free ) ) | valid-deref ) ) | valid-memtrack ) ) | valid-memcleanup ) )
        let memory_props = [
            "valid-free",
            "valid-deref",
            "valid-memtrack",
            "valid-memcleanup",
        ];
        if let Some(p) = toks
            .get(k)
            .map(|t| t.0)
            .filter(|p| memory_props.contains(p))
        {
            for j in 1..3 {
                if toks.get(k + j).map(|t| t.0) != Some(")") {
                    return Err(refusal(&toks, line, k + j, at(k + j)));
                }
            }
            if function.is_some() || memory.contains(&p) {
                return Err(mixed(at(k)));
            }
            memory.push(p);
            k += 3;
            continue;
        }
        // ! call ( F ( ) ) ) )
        let expected = ["!", "call", "(", "", "(", ")", ")", ")", ")"];
        for (j, want) in expected.iter().enumerate() {
            let got = toks.get(k + j).map(|t| t.0);
            let fine = match (j, got) {
                (3, Some(f)) => {
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
                return Err(refusal(&toks, line, k + j, at(k + j)));
            }
        }
        if !memory.is_empty() {
            return Err(mixed(at(k)));
        }
        k += expected.len();
    }
    let kind = match memory.len() {
        0 => PropertyKind::UnreachCall,
        1 if memory[0] == "valid-memcleanup" => PropertyKind::MemCleanup,
        3 if !memory.contains(&"valid-memcleanup") => PropertyKind::MemSafety,
        _ => {
            return Err(CError::unsupported(
                at(0),
                format!(
                    "this combination of memory properties ({}): {SUPPORTED}",
                    memory.join(", ")
                ),
            ))
        }
    };
    Ok(Property {
        error_function: function.unwrap_or("reach_error").to_owned(),
        kind,
    })
}

/// The error for a property file that mixes unreach-call and memory properties.
fn mixed(span: Span) -> CError {
    CError::unsupported(
        span,
        format!("a property file of several properties: {SUPPORTED}"),
    )
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
    fn memory_properties_are_read() {
        let src = "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n";
        assert_eq!(parse(src).unwrap().kind, PropertyKind::MemSafety);
        let src = "CHECK( init(main()), LTL(G valid-memcleanup) )\n";
        assert_eq!(parse(src).unwrap().kind, PropertyKind::MemCleanup);
        // Only two of the three memory-safety lines: refused.
        let src =
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n";
        assert!(parse(src).is_err());
    }

    #[test]
    fn other_properties_are_refused_at_their_text() {
        let e = parse("CHECK( init(main()), LTL(F end) )").unwrap_err();
        assert!(e.message.contains("termination"), "{}", e.message);
        let e = parse("CHECK( init(start()), LTL(G ! call(reach_error())) )").unwrap_err();
        assert!(e.message.contains("`start`"), "{}", e.message);
    }

    #[test]
    fn names_other_than_unreach_call_are_refused() {
        assert_eq!(from_name("unreach-call"), Ok(Property::unreach_call()));
        assert_eq!(
            from_name("valid-memsafety").unwrap().kind,
            PropertyKind::MemSafety
        );
        for n in ["no-overflow", "termination", "no-data-race"] {
            let e = from_name(n).unwrap_err();
            assert!(e.contains(n) && e.contains("unreach-call"), "{e}");
        }
        assert!(from_name("reachability").is_err());
    }
}
