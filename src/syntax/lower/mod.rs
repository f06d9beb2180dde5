//! Lowering of a parsed script to a CHC [`System`], and of a parsed model to a [`Model`].
//!
//! Each assertion is turned into clauses `body ∧ constraint → head | false`, whatever its shape:
//! universal quantifiers (and existentials under negation) become clause variables; the formula
//! is put into clausal form over predicate applications, and each clause must have at most one
//! positive application (else it is not Horn). Finally atom arguments are made distinct
//! variables (the `chc` normal form). Constraint-only subformulas are never distributed, so
//! large constraints do not blow up.

mod datatypes;
mod fixedpoint;
mod terms;

use super::ast::{self, CommandKind, Span};
use super::error::{Error, ErrorKind};
use super::{Definition, Question, Script, SourceSpans};
use crate::chc::{Atom, Clause, Head, PredId, System};
use crate::term::{Quantifier, Sort, TermId, TermStore, VarId};
use std::collections::{HashMap, HashSet};
use terms::{lower_sort, Env, Formula};

/// At most this many clauses from one assertion (clausal form can be exponential).
const MAX_CLAUSES_PER_ASSERTION: usize = 10_000;

/// A clause in the making: negative atoms, positive atoms, and constraint disjuncts.
#[derive(Clone, Default)]
struct Proto {
    body: Vec<(PredId, Vec<TermId>)>,
    heads: Vec<(PredId, Vec<TermId>, Span)>,
    /// The clause is `¬body ∨ heads ∨ guard₁ ∨ ...`.
    guard: Vec<TermId>,
}

impl Proto {
    fn merge(&self, other: &Proto) -> Proto {
        let mut p = self.clone();
        p.body.extend(other.body.iter().cloned());
        p.heads.extend(other.heads.iter().cloned());
        p.guard.extend(other.guard.iter().cloned());
        p
    }
}

fn too_many(span: Span) -> Error {
    Error::at(
        ErrorKind::Unsupported,
        span,
        format!("assertion expands to more than {MAX_CLAUSES_PER_ASSERTION} clauses"),
    )
}

/// Clausal form of `f` (if `positive`) or of `¬f`: a conjunction of [`Proto`] clauses.
fn clausify(
    store: &TermStore,
    f: &Formula,
    positive: bool,
    span: Span,
) -> Result<Vec<Proto>, Error> {
    let product = |parts: Vec<Vec<Proto>>| -> Result<Vec<Proto>, Error> {
        let mut acc = vec![Proto::default()];
        for part in parts {
            if acc.len().saturating_mul(part.len()) > MAX_CLAUSES_PER_ASSERTION {
                return Err(too_many(span));
            }
            acc = acc
                .iter()
                .flat_map(|a| part.iter().map(move |b| a.merge(b)))
                .collect();
        }
        Ok(acc)
    };
    let concat = |parts: Vec<Vec<Proto>>| -> Result<Vec<Proto>, Error> {
        let all: Vec<Proto> = parts.into_iter().flatten().collect();
        if all.len() > MAX_CLAUSES_PER_ASSERTION {
            return Err(too_many(span));
        }
        Ok(all)
    };
    match f {
        Formula::Constraint(t) => {
            let g = if positive { *t } else { store.not(*t) };
            Ok(vec![Proto {
                guard: vec![g],
                ..Proto::default()
            }])
        }
        Formula::Atom(p, args, sp) => {
            let mut proto = Proto::default();
            if positive {
                proto.heads.push((*p, args.clone(), *sp));
            } else {
                proto.body.push((*p, args.clone()));
            }
            Ok(vec![proto])
        }
        Formula::Not(g) => clausify(store, g, !positive, span),
        Formula::And(fs) | Formula::Or(fs) => {
            let parts = fs
                .iter()
                .map(|g| clausify(store, g, positive, span))
                .collect::<Result<Vec<_>, _>>()?;
            // A positive conjunction and a negated disjunction are conjunctions of clauses.
            if matches!(f, Formula::And(_)) == positive {
                concat(parts)
            } else {
                product(parts)
            }
        }
        Formula::Implies(a, b) => {
            let na = Formula::Not(a.clone());
            let g = if positive {
                Formula::Or(vec![na, (**b).clone()])
            } else {
                Formula::And(vec![(**a).clone(), Formula::Not(b.clone())])
            };
            clausify(store, &g, true, span)
        }
        Formula::Ite(c, a, b) => {
            let g = Formula::Or(vec![
                Formula::And(vec![Formula::Constraint(*c), (**a).clone()]),
                Formula::And(vec![Formula::Constraint(store.not(*c)), (**b).clone()]),
            ]);
            clausify(store, &g, positive, span)
        }
        Formula::Quant(q, _, body, qspan) => {
            // Universal in a positive position (or existential in a negative one) binds clause
            // variables; the other way round would need Skolem functions.
            if (*q == Quantifier::Forall) == positive {
                clausify(store, body, positive, span)
            } else if *q == Quantifier::Forall {
                Err(Error::at(
                    ErrorKind::NotHorn,
                    *qspan,
                    "universal quantifier in a clause body (it is existential over the \
                     clause: only universally quantified clauses are Horn)",
                ))
            } else {
                Err(Error::at(
                    ErrorKind::NotHorn,
                    *qspan,
                    "existential quantifier over a clause head (only universal clauses are Horn)",
                ))
            }
        }
    }
}

/// Turns a [`Proto`] into a normal-form clause: atom arguments become distinct variables.
fn finish(store: &TermStore, proto: Proto) -> Result<Clause, Error> {
    if proto.heads.len() > 1 {
        return Err(Error::at(
            ErrorKind::NotHorn,
            proto.heads[1].2,
            "more than one positive predicate application in a clause",
        ));
    }
    let mut used: HashSet<VarId> = HashSet::new();
    let mut eqs: Vec<TermId> = Vec::new();
    let mut to_atom = |pred: PredId, args: Vec<TermId>| -> Atom {
        let vars = args
            .into_iter()
            .map(|a| match store.as_var(a) {
                Some(v) if used.insert(v) => v,
                _ => {
                    let sort = store.sort(a);
                    let v = store.new_var("arg", sort);
                    used.insert(v);
                    eqs.push(store.eq(store.var(v), a));
                    v
                }
            })
            .collect();
        Atom { pred, args: vars }
    };
    let head = match proto.heads.into_iter().next() {
        Some((p, args, _)) => Head::Atom(to_atom(p, args)),
        None => Head::False,
    };
    let body: Vec<Atom> = proto.body.into_iter().map(|(p, a)| to_atom(p, a)).collect();
    let negated: Vec<TermId> = proto.guard.iter().map(|&g| store.not(g)).collect();
    eqs.extend(negated);
    Ok(Clause {
        body,
        constraint: store.and(eqs),
        head,
    })
}

/// Lowers a parsed script into a system whose terms live in `store`.
pub fn lower_script(
    store: &TermStore,
    commands: &[ast::Command],
    src_len: usize,
) -> Result<Script, Error> {
    let mut env = Env::new(store);
    let mut system = System::new();
    let mut saw_check_sat = false;
    let mut question = Question::CheckSat;
    let mut get_model = false;
    let mut vars = fixedpoint::Vars::default();
    let mut spans = SourceSpans::default();
    for cmd in commands {
        if saw_check_sat {
            // One query per script: the answer is that of the first `(check-sat)`, so anything
            // that would change it (or ask a second question) is refused, not silently used.
            match &cmd.kind {
                CommandKind::SetInfo(_) | CommandKind::GetModel | CommandKind::Other(..) => {}
                CommandKind::Exit => break,
                _ => {
                    let asked = match question {
                        Question::CheckSat => "(check-sat)",
                        Question::Query => "(query ...)",
                    };
                    return Err(Error::at(
                        ErrorKind::Unsupported,
                        cmd.span,
                        format!(
                            "commands after {asked} other than (get-model), (set-info) and \
                             (exit) (Hornbeam answers one query per script)"
                        ),
                    ));
                }
            }
        }
        match &cmd.kind {
            CommandKind::SetLogic(_) | CommandKind::SetInfo(_) | CommandKind::SetOption(_) => {}
            CommandKind::GetModel => get_model |= saw_check_sat,
            // SMT-LIB: `(exit)` ends the script; what follows it is never read.
            CommandKind::Exit => break,
            CommandKind::CheckSat => saw_check_sat = true,
            CommandKind::DeclareFun(name, args, ret) => {
                declare(&mut env, &mut system, name, args, ret, cmd.span)?;
                spans.preds.push(name.span);
            }
            CommandKind::DeclareConst(name, ret) => {
                declare(&mut env, &mut system, name, &[], ret, cmd.span)?;
                spans.preds.push(name.span);
            }
            CommandKind::DefineFun(def) => {
                check_fresh(&env, &def.name)?;
                env.define(def)?;
            }
            CommandKind::DeclareDatatypes(args) => {
                datatypes::declare_datatypes(&env, args, cmd.span)?;
            }
            CommandKind::DeclareDatatype(args) => {
                datatypes::declare_datatype(&env, args, cmd.span)?;
            }
            CommandKind::DeclareSort(name, _) => {
                return Err(Error::at(
                    ErrorKind::Unsupported,
                    name.span,
                    format!("uninterpreted sort `{}`", name.name),
                ));
            }
            CommandKind::Assert(t) => {
                let f = env.formula(t)?;
                add_clauses(store, &mut system, &f, t.span, &mut spans)?;
            }
            CommandKind::DeclareRel(name, args) => {
                vars.used = true;
                let bool_sort = ast::Sort::Simple(ast::Symbol {
                    name: "Bool".to_owned(),
                    span: name.span,
                });
                declare(&mut env, &mut system, name, args, &bool_sort, cmd.span)?;
                spans.preds.push(name.span);
            }
            CommandKind::DeclareVar(name, sort) => {
                check_fresh(&env, name)?;
                vars.declare(name, sort)?;
            }
            CommandKind::Rule(t) => {
                vars.used = true;
                let f = vars.rule(&mut env, t)?;
                add_clauses(store, &mut system, &f, t.span, &mut spans)?;
            }
            CommandKind::Query(q) => {
                let f = vars.query(&mut env, &system, q)?;
                add_clauses(store, &mut system, &f, q.span, &mut spans)?;
                saw_check_sat = true;
                question = Question::Query;
            }
            CommandKind::Other(name, _) => {
                return Err(Error::at(
                    ErrorKind::Unsupported,
                    name.span,
                    format!("command `{}`", name.name),
                ));
            }
        }
    }
    if !saw_check_sat {
        return Err(Error::at(
            ErrorKind::Missing,
            Span {
                start: src_len,
                end: src_len,
            },
            match vars.used {
                true => "missing (query ...)",
                false => "missing (check-sat)",
            },
        ));
    }
    debug_assert_eq!(spans.preds.len(), system.num_preds());
    debug_assert_eq!(spans.clauses.len(), system.num_clauses());
    Ok(Script {
        system,
        question,
        get_model,
        spans,
    })
}

/// Adds the clauses of a formula asserted as a whole (an `assert` or a `rule`).
fn add_clauses(
    store: &TermStore,
    system: &mut System,
    f: &Formula,
    span: Span,
    spans: &mut SourceSpans,
) -> Result<(), Error> {
    let mut used: HashSet<VarId> = HashSet::new();
    for proto in clausify(store, f, true, span)? {
        let clause = finish(store, proto)?;
        if store.as_bool(clause.constraint) == Some(false) {
            continue; // trivially true clause
        }
        // Clauses of one assertion share its quantified variables: rename apart.
        let clause = rename_apart(store, clause, &mut used);
        system.add_clause(clause);
        spans.clauses.push(span);
    }
    Ok(())
}

/// Renames the variables of `clause` that are in `used` to fresh ones; adds all its variables
/// to `used`. Keeps the clauses of one assertion variable-disjoint, so that each clause's
/// variable names are its own when the system is printed.
fn rename_apart(store: &TermStore, clause: Clause, used: &mut HashSet<VarId>) -> Clause {
    let vars = clause.vars(store);
    let map: HashMap<VarId, VarId> = vars
        .iter()
        .filter(|v| used.contains(v))
        .map(|&v| (v, store.fresh_copy(v)))
        .collect();
    used.extend(vars);
    if map.is_empty() {
        return clause;
    }
    let terms: HashMap<VarId, TermId> = map.iter().map(|(&v, &w)| (v, store.var(w))).collect();
    let rename = |a: Atom| Atom {
        pred: a.pred,
        args: a
            .args
            .iter()
            .map(|v| map.get(v).copied().unwrap_or(*v))
            .collect(),
    };
    used.extend(map.values().copied());
    Clause {
        body: clause.body.into_iter().map(rename).collect(),
        constraint: store.substitute(clause.constraint, &terms),
        head: match clause.head {
            Head::Atom(a) => Head::Atom(rename(a)),
            Head::False => Head::False,
        },
    }
}

fn check_fresh(env: &Env<'_>, name: &ast::Symbol) -> Result<(), Error> {
    if env.preds.contains_key(&name.name)
        || env.macros.contains_key(&name.name)
        || env.store.ctor_by_name(&name.name).is_some()
        || env.store.selector_by_name(&name.name).is_some()
    {
        return Err(Error::at(
            ErrorKind::Sort,
            name.span,
            format!("`{}` is already declared", name.name),
        ));
    }
    Ok(())
}

fn declare(
    env: &mut Env<'_>,
    system: &mut System,
    name: &ast::Symbol,
    args: &[ast::Sort],
    ret: &ast::Sort,
    span: Span,
) -> Result<(), Error> {
    check_fresh(env, name)?;
    let sorts = args
        .iter()
        .map(|a| lower_sort(env.store, a))
        .collect::<Result<Vec<_>, _>>()?;
    if lower_sort(env.store, ret)? != Sort::Bool {
        return Err(Error::at(
            ErrorKind::Unsupported,
            span,
            format!(
                "uninterpreted function or constant `{}` (only predicates, with range Bool, are supported)",
                name.name
            ),
        ));
    }
    let p = system.add_pred(name.name.clone(), sorts.clone());
    env.preds.insert(name.name.clone(), (p, sorts));
    Ok(())
}

/// Lowers a model's definitions for the predicates of `system`. Definitions of names that are not
/// predicates are macros usable by later definitions (one that no definition uses is an error);
/// predicates without a definition are left out (they read as `false`).
pub fn lower_model(
    store: &TermStore,
    system: &System,
    defs: &[ast::FunDef],
) -> Result<Vec<Definition>, Error> {
    let mut env = Env::new(store);
    let mut model: Vec<Definition> = Vec::new();
    let mut helpers = Vec::new();
    for def in defs {
        if def.recursive {
            size_function(&mut env, def)?;
            continue;
        }
        let Some(p) = system.pred_by_name(&def.name.name) else {
            if env.macros.contains_key(&def.name.name) {
                return Err(Error::at(
                    ErrorKind::Sort,
                    def.name.span,
                    format!("`{}` is defined twice", def.name.name),
                ));
            }
            env.define(def)?;
            helpers.push(&def.name);
            continue;
        };
        let params = def
            .params
            .iter()
            .map(|(s, so)| Ok((s.name.clone(), lower_sort(store, so)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let ret = lower_sort(store, &def.ret)?;
        let want = &system.pred(p).sorts;
        let got: Vec<Sort> = params.iter().map(|(_, s)| s.clone()).collect();
        if *want != got || ret != Sort::Bool {
            return Err(Error::at(
                ErrorKind::Sort,
                def.span,
                format!(
                    "definition of `{}` does not match its declaration",
                    def.name.name
                ),
            ));
        }
        if model.iter().any(|d| d.pred == p) {
            return Err(Error::at(
                ErrorKind::Sort,
                def.name.span,
                format!("`{}` is defined twice", def.name.name),
            ));
        }
        let (vars, body) = env.with_vars(&def.params, |env, vars| {
            let body = env.formula(&def.body)?;
            Ok((vars, body))
        })?;
        let Some(body) = pure(store, &body) else {
            return Err(Error::at(
                ErrorKind::Unsupported,
                def.body.span,
                "predicate application inside a model definition",
            ));
        };
        model.push(Definition {
            pred: p,
            params: vars,
            body,
        });
    }
    // A definition that is neither a predicate of the system nor used by one is most likely a
    // model of another file: saying `valid` while ignoring it would mislead.
    if let Some(name) = helpers.iter().find(|n| !env.used_macros.contains(&n.name)) {
        return Err(Error::at(
            ErrorKind::Unknown,
            name.span,
            format!(
                "`{}` is not a predicate of the input (and no definition uses it)",
                name.name
            ),
        ));
    }
    Ok(model)
}

/// Reads a model's `define-fun-rec`: only the size function of a datatype
/// ([`TermStore::size_definition`]), exactly as Hornbeam defines it, is accepted; later
/// definitions may then call it.
fn size_function(env: &mut Env<'_>, def: &ast::FunDef) -> Result<(), Error> {
    let store = env.store;
    let name = &def.name.name;
    let datatype = store
        .datatype_groups()
        .into_iter()
        .flatten()
        .find(|&d| store.size_name(d) == *name)
        .ok_or_else(|| {
            Error::at(
                ErrorKind::Unsupported,
                def.name.span,
                format!(
                    "recursive function `{name}`: a model may define only the size functions of \
                     datatypes (`size!D`)"
                ),
            )
        })?;
    let mismatch = || {
        Error::at(
            ErrorKind::Sort,
            def.span,
            format!("`{name}` is not the size function of its datatype"),
        )
    };
    if def.params.len() != 1 || lower_sort(store, &def.ret)? != Sort::Int {
        return Err(mismatch());
    }
    env.sizes.insert(name.clone(), datatype);
    let (x, body) = env.with_vars(&def.params, |env, vars| {
        let body = env.term_of_sort(&def.body, &Sort::Int)?;
        Ok((vars[0], body))
    })?;
    let is_datatype = matches!(store.var_sort(x), Sort::Datatype(d) if d.id == datatype);
    if !is_datatype || body != store.size_cases(datatype, x) {
        return Err(mismatch());
    }
    Ok(())
}

/// The term of a formula without predicate applications (quantifiers kept).
fn pure(store: &TermStore, f: &Formula) -> Option<TermId> {
    Some(match f {
        Formula::Constraint(t) => *t,
        Formula::Atom(..) => return None,
        Formula::And(fs) => store.and(
            fs.iter()
                .map(|g| pure(store, g))
                .collect::<Option<Vec<_>>>()?,
        ),
        Formula::Or(fs) => store.or(fs
            .iter()
            .map(|g| pure(store, g))
            .collect::<Option<Vec<_>>>()?),
        Formula::Not(g) => store.not(pure(store, g)?),
        Formula::Implies(a, b) => store.implies(pure(store, a)?, pure(store, b)?),
        Formula::Ite(c, a, b) => store.ite(*c, pure(store, a)?, pure(store, b)?),
        Formula::Quant(q, vars, body, _) => store.quant(*q, vars.clone(), pure(store, body)?),
    })
}
