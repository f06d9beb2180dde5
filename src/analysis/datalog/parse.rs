//! A recursive-descent parser of the rule-file subset (see the module header of
//! [`datalog`](super) for the grammar). Syntax only: names are resolved by `check`.

use super::ast::*;
use super::lex::{tokens, Tok};
use super::RuleError;

/// Parses `src` into its syntax tree.
pub(super) fn parse(src: &str) -> Result<File, RuleError> {
    let toks = tokens(src)?;
    let mut p = Parser { src, toks, pos: 0 };
    let mut file = File::default();
    while p.peek().is_some() {
        p.item(&mut file)?;
    }
    Ok(file)
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

fn describe(t: Option<&Tok>) -> String {
    match t {
        None => "the end of the file".into(),
        Some(Tok::Directive(d)) => format!("`.{d}`"),
        Some(Tok::Ident(s)) => format!("`{s}`"),
        Some(Tok::Number(s)) => format!("`{s}`"),
        Some(Tok::Str(s)) => format!("\"{s}\""),
        Some(t) => {
            let s = match t {
                Tok::Wild => "_",
                Tok::Dot => ".",
                Tok::Comma => ",",
                Tok::LParen => "(",
                Tok::RParen => ")",
                Tok::LBrace => "{",
                Tok::RBrace => "}",
                Tok::Turnstile => ":-",
                Tok::Colon => ":",
                Tok::Subtype => "<:",
                Tok::Not => "!",
                Tok::Eq => "=",
                Tok::Ne => "!=",
                Tok::Lt => "<",
                Tok::Le => "<=",
                Tok::Gt => ">",
                Tok::Ge => ">=",
                Tok::Plus => "+",
                Tok::Minus => "-",
                Tok::Star => "*",
                Tok::Slash => "/",
                Tok::Percent => "%",
                Tok::Semicolon => ";",
                Tok::Bar => "|",
                _ => "#",
            };
            format!("`{s}`")
        }
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.pos + 1).map(|(t, _)| t)
    }

    /// The offset of the next token (the end of the file when there is none).
    fn here(&self) -> usize {
        self.toks
            .get(self.pos)
            .map_or(self.src.len(), |(_, at)| *at)
    }

    fn error<T>(&self, at: usize, message: impl Into<String>) -> Result<T, RuleError> {
        Err(RuleError::at(self.src, at, message))
    }

    fn unexpected<T>(&self, wanted: &str) -> Result<T, RuleError> {
        self.error(
            self.here(),
            format!("expected {wanted}, found {}", describe(self.peek())),
        )
    }

    fn bump(&mut self) -> Option<(Tok, usize)> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, t: Tok, wanted: &str) -> Result<usize, RuleError> {
        let at = self.here();
        if self.eat(&t) {
            Ok(at)
        } else {
            self.unexpected(wanted)
        }
    }

    fn ident(&mut self, wanted: &str) -> Result<(String, usize), RuleError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                let at = self.here();
                self.pos += 1;
                Ok((s, at))
            }
            _ => self.unexpected(wanted),
        }
    }

    fn item(&mut self, file: &mut File) -> Result<(), RuleError> {
        let at = self.here();
        match self.peek() {
            Some(Tok::Directive(d)) => {
                let d = d.clone();
                self.pos += 1;
                self.directive(&d, at, file)
            }
            Some(Tok::Ident(_)) => {
                let rule = self.rule()?;
                file.rules.push(rule);
                Ok(())
            }
            _ => self.unexpected("a directive (`.decl`, `.input`, `.output`, `.type`) or a rule"),
        }
    }

    fn directive(&mut self, d: &str, at: usize, file: &mut File) -> Result<(), RuleError> {
        match d {
            "decl" => {
                let (name, name_at) = self.ident("a relation name")?;
                self.expect(Tok::LParen, "`(`")?;
                let mut columns = Vec::new();
                if !self.eat(&Tok::RParen) {
                    loop {
                        let (col, _) = self.ident("a column name")?;
                        self.expect(Tok::Colon, "`:` and the column's type")?;
                        let (ty, ty_at) = self.ident("a type (`number`, `unsigned`, `symbol`)")?;
                        columns.push((col, ty, ty_at));
                        if self.eat(&Tok::RParen) {
                            break;
                        }
                        self.expect(Tok::Comma, "`,` or `)`")?;
                    }
                }
                // Soufflé's representation qualifiers change nothing here; `eqrel` would.
                while let Some(Tok::Ident(q)) = self.peek() {
                    if self.peek2() == Some(&Tok::LParen) {
                        break;
                    }
                    match q.as_str() {
                        "btree" | "brie" | "btree_delete" | "inline" | "no_inline" | "magic"
                        | "no_magic" => self.pos += 1,
                        "eqrel" => {
                            return self.error(self.here(), "`eqrel` relations are not supported")
                        }
                        _ => break,
                    }
                }
                file.decls.push(Decl {
                    at: name_at,
                    name,
                    columns,
                });
                Ok(())
            }
            "input" | "output" => {
                loop {
                    let name = self.ident("a relation name")?;
                    if self.peek() == Some(&Tok::LParen) {
                        return self.error(
                            self.here(),
                            format!(
                                "`.{d}` options (IO=..., filename=...) are not supported: \
                                 Hornbeam provides the input relations and prints or writes \
                                 the output relations itself"
                            ),
                        );
                    }
                    if d == "input" {
                        file.inputs.push(name);
                    } else {
                        file.outputs.push(name);
                    }
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                Ok(())
            }
            "type" => {
                let (name, name_at) = self.ident("a type name")?;
                if !self.eat(&Tok::Subtype) && !self.eat(&Tok::Eq) {
                    return self.unexpected("`<:` and a base type");
                }
                let (base, _) = self.ident("a base type (`number`, `unsigned`, `symbol`)")?;
                if self.peek() == Some(&Tok::Bar) {
                    return self.error(self.here(), "union types are not supported");
                }
                file.types.push((name, base, name_at));
                Ok(())
            }
            other => self.error(
                at,
                format!(
                    "unknown or unsupported directive `.{other}` (supported: .decl, .type, \
                     .input, .output)"
                ),
            ),
        }
    }

    fn rule(&mut self) -> Result<Rule, RuleError> {
        let head = self.atom()?;
        let mut body = Vec::new();
        if self.peek() == Some(&Tok::Comma) {
            return self.error(self.here(), "rules with several heads are not supported");
        }
        if self.eat(&Tok::Turnstile) {
            loop {
                body.push(self.literal()?);
                if self.peek() == Some(&Tok::Semicolon) {
                    return self.error(
                        self.here(),
                        "disjunction (`;`) is not supported: write one rule per case",
                    );
                }
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Dot, "`.` at the end of the rule")?;
        Ok(Rule { head, body })
    }

    fn atom(&mut self) -> Result<Atom, RuleError> {
        let (rel, at) = self.ident("a relation name")?;
        self.expect(Tok::LParen, "`(` after the relation name")?;
        let args = self.args()?;
        Ok(Atom { at, rel, args })
    }

    /// `arg, ...)`: the arguments after an opening parenthesis, and the closing one.
    fn args(&mut self) -> Result<Vec<Expr>, RuleError> {
        let mut args = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                args.push(self.expr()?);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, "`,` or `)`")?;
            }
        }
        Ok(args)
    }

    fn literal(&mut self) -> Result<Literal, RuleError> {
        let at = self.here();
        if matches!(self.peek(), None | Some(Tok::Dot)) {
            return self.unexpected("a body literal (an atom, `!` and an atom, or a comparison)");
        }
        if self.eat(&Tok::Not) {
            return Ok(Literal::Neg(self.atom()?));
        }
        if matches!(self.peek(), Some(Tok::Ident(_))) && self.peek2() == Some(&Tok::LParen) {
            return Ok(Literal::Pos(self.atom()?));
        }
        let left = self.expr()?;
        let op = match self.bump().map(|(t, _)| t) {
            Some(Tok::Eq) => CmpOp::Eq,
            Some(Tok::Ne) => CmpOp::Ne,
            Some(Tok::Lt) => CmpOp::Lt,
            Some(Tok::Le) => CmpOp::Le,
            Some(Tok::Gt) => CmpOp::Gt,
            Some(Tok::Ge) => CmpOp::Ge,
            _ => {
                self.pos -= 1;
                return self.unexpected("a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)");
            }
        };
        if let (CmpOp::Eq, ExprKind::Var(v), Some(Tok::Ident(k))) = (op, &left.kind, self.peek()) {
            let kind = match k.as_str() {
                "count" => Some(AggKind::Count),
                "sum" => Some(AggKind::Sum),
                "min" => Some(AggKind::Min),
                "max" => Some(AggKind::Max),
                _ => None,
            };
            if let Some(kind) = kind.filter(|_| self.peek2() != Some(&Tok::LParen)) {
                self.pos += 1;
                let value = if kind == AggKind::Count {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(Tok::Colon, "`:` after the aggregate")?;
                let braced = self.eat(&Tok::LBrace);
                let atom = self.atom()?;
                if braced {
                    if self.peek() == Some(&Tok::Comma) {
                        return self.error(
                            self.here(),
                            "an aggregate ranges over one atom here: define a relation for a \
                             longer body",
                        );
                    }
                    self.expect(Tok::RBrace, "`}`")?;
                }
                return Ok(Literal::Agg {
                    at,
                    var: (v.clone(), left.at),
                    kind,
                    value,
                    atom,
                });
            }
        }
        let right = self.expr()?;
        Ok(Literal::Cmp(op, left, right))
    }

    fn expr(&mut self) -> Result<Expr, RuleError> {
        self.binary(Self::product, |t| match t {
            Tok::Plus => Some(BinOp::Add),
            Tok::Minus => Some(BinOp::Sub),
            _ => None,
        })
    }

    fn product(&mut self) -> Result<Expr, RuleError> {
        self.binary(Self::unary, |t| match t {
            Tok::Star => Some(BinOp::Mul),
            Tok::Slash => Some(BinOp::Div),
            Tok::Percent => Some(BinOp::Rem),
            _ => None,
        })
    }

    /// A left-associative chain of `operand`s joined by the operators `op` recognises.
    fn binary(
        &mut self,
        operand: fn(&mut Self) -> Result<Expr, RuleError>,
        op: fn(&Tok) -> Option<BinOp>,
    ) -> Result<Expr, RuleError> {
        let mut left = operand(self)?;
        while let Some(op) = self.peek().and_then(op) {
            self.pos += 1;
            let right = operand(self)?;
            left = Expr {
                at: left.at,
                kind: ExprKind::Bin(op, Box::new(left), Box::new(right)),
            };
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, RuleError> {
        let at = self.here();
        if self.eat(&Tok::Minus) {
            let inner = self.unary()?;
            return Ok(match inner.kind {
                ExprKind::Num(n) => Expr {
                    at,
                    kind: ExprKind::Num(-n),
                },
                _ => Expr {
                    at,
                    kind: ExprKind::Neg(Box::new(inner)),
                },
            });
        }
        let kind = match self.bump() {
            Some((Tok::Number(s), _)) => match s.parse::<i64>() {
                Ok(n) => ExprKind::Num(n),
                Err(_) => return self.error(at, format!("the number {s} is too large")),
            },
            Some((Tok::Str(s), _)) => ExprKind::Str(s),
            Some((Tok::Ident(s), _)) => {
                if self.peek() == Some(&Tok::LParen) {
                    if s != "cat" && s != "to_string" {
                        return self.error(
                            at,
                            format!(
                                "`{s}(...)` here: the functors are `cat` and `to_string`; \
                                 atoms go in the body, not inside terms"
                            ),
                        );
                    }
                    self.pos += 1;
                    let args = self.args()?;
                    return Ok(Expr {
                        at,
                        kind: ExprKind::Call(s, args),
                    });
                }
                ExprKind::Var(s)
            }
            Some((Tok::Wild, _)) => ExprKind::Wild,
            Some((Tok::LParen, _)) => {
                let e = self.expr()?;
                self.expect(Tok::RParen, "`)`")?;
                return Ok(e);
            }
            _ => {
                self.pos -= 1;
                return self.unexpected("a variable, a number, a string or `_`");
            }
        };
        Ok(Expr { at, kind })
    }
}
