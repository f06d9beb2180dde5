//! Names, types, safety and stratification of a parsed rule file, and the evaluation plan of
//! each rule.
//!
//! Duty: reject every rule file that has no meaning (unknown relation, wrong arity or type,
//! a variable no positive atom binds, negation through recursion) with a located message, and
//! turn each rule into a sequence of [`Step`]s over a row of bound values. Must not evaluate.

use super::ast::{self, Literal};
use super::plan::{Plan, Planner, Relation};
use super::{RuleError, Symbols};
use crate::analysis::{ColumnType, Table};
use std::collections::HashMap;

/// Relations whose rules depend on each other, with those rules.
#[derive(Clone, Debug)]
pub(super) struct Stratum {
    pub relations: Vec<usize>,
    pub plans: Vec<Plan>,
}

/// A checked rule file.
#[derive(Clone, Debug)]
pub(super) struct Checked {
    pub relations: Vec<Relation>,
    /// Relations with their rules, dependencies first.
    pub strata: Vec<Stratum>,
    pub symbols: Symbols,
}

/// Checks `file` against the relations Hornbeam provides.
pub(super) fn check(src: &str, file: &ast::File, provided: &[Table]) -> Result<Checked, RuleError> {
    let err = |at: usize, m: String| RuleError::at(src, at, m);
    let mut types: HashMap<String, ColumnType> = HashMap::from([
        ("number".into(), ColumnType::Number),
        ("unsigned".into(), ColumnType::Number),
        ("symbol".into(), ColumnType::Symbol),
    ]);
    let resolve = |types: &HashMap<String, ColumnType>, t: &str, at: usize| match types.get(t) {
        Some(ty) => Ok(*ty),
        None if t == "float" => Err(err(at, "the type `float` is not supported".into())),
        None => Err(err(
            at,
            format!("unknown type `{t}` (declare it with `.type {t} <: number`)"),
        )),
    };
    for (name, base, at) in &file.types {
        let ty = resolve(&types, base, *at)?;
        if types.insert(name.clone(), ty).is_some() {
            return Err(err(*at, format!("the type `{name}` is declared twice")));
        }
    }
    let mut relations = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for d in &file.decls {
        if index.contains_key(&d.name) {
            return Err(err(
                d.at,
                format!("the relation `{}` is declared twice", d.name),
            ));
        }
        let mut columns = Vec::new();
        for (col, ty, at) in &d.columns {
            columns.push((col.clone(), resolve(&types, ty, *at)?));
        }
        if let Some((_, agreed)) = crate::analysis::AGREED.iter().find(|(n, _)| *n == d.name) {
            if columns.len() != agreed.len() || columns.iter().zip(*agreed).any(|(a, b)| a.1 != b.1)
            {
                let want: Vec<String> = agreed
                    .iter()
                    .map(|(n, t)| format!("{n}: {}", t.souffle()))
                    .collect();
                return Err(err(
                    d.at,
                    format!(
                        "`{}` is an agreed relation; its columns are ({})",
                        d.name,
                        want.join(", ")
                    ),
                ));
            }
        }
        index.insert(d.name.clone(), relations.len());
        relations.push(Relation {
            name: d.name.clone(),
            columns,
            input: false,
            output: false,
            at: d.at,
        });
    }
    let lookup = |name: &str, at: usize| {
        index.get(name).copied().ok_or_else(|| {
            err(
                at,
                format!("unknown relation `{name}` (every relation needs a `.decl`)"),
            )
        })
    };
    let signature = |cols: &[(String, ColumnType)]| {
        cols.iter()
            .map(|(n, t)| format!("{n}: {}", t.souffle()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (name, at) in &file.inputs {
        let r = lookup(name, *at)?;
        let Some(t) = provided.iter().find(|t| t.name == name) else {
            let known: Vec<&str> = provided.iter().map(|t| t.name).collect();
            return Err(err(
                *at,
                format!(
                    "Hornbeam provides no relation `{name}` for this input (it provides: {})",
                    known.join(", ")
                ),
            ));
        };
        let theirs: Vec<(String, ColumnType)> = t
            .columns
            .iter()
            .map(|(n, ty)| (n.to_string(), *ty))
            .collect();
        let same = theirs.len() == relations[r].columns.len()
            && theirs
                .iter()
                .zip(&relations[r].columns)
                .all(|(a, b)| a.1 == b.1);
        if !same {
            return Err(err(
                *at,
                format!(
                    "`.decl {name}({})` does not match the relation Hornbeam provides: \
                     {name}({})",
                    signature(&relations[r].columns),
                    signature(&theirs)
                ),
            ));
        }
        relations[r].input = true;
    }
    for (name, at) in &file.outputs {
        let r = lookup(name, *at)?;
        relations[r].output = true;
    }

    let mut symbols = Symbols::default();
    let mut plans = Vec::new();
    // (head, body relation, negative, offset of the literal)
    let mut deps: Vec<(usize, usize, bool, usize)> = Vec::new();
    for rule in &file.rules {
        let head = lookup(&rule.head.rel, rule.head.at)?;
        let mut planner = Planner {
            src,
            relations: &relations,
            index: &index,
            symbols: &mut symbols,
            bound: HashMap::new(),
            width: 0,
            steps: Vec::new(),
        };
        planner.body(&rule.body)?;
        let args = planner.head(head, &rule.head)?;
        for lit in &rule.body {
            let (atom, negative) = match lit {
                Literal::Pos(a) => (a, false),
                Literal::Neg(a) => (a, true),
                Literal::Agg { atom, .. } => (atom, true),
                Literal::Cmp(..) => continue,
            };
            deps.push((head, index[&atom.rel], negative, atom.at));
        }
        plans.push(Plan {
            head,
            args,
            steps: planner.steps,
            at: rule.head.at,
        });
    }
    let strata = stratify(src, &relations, &deps, plans)?;
    Ok(Checked {
        relations,
        strata,
        symbols,
    })
}

/// Orders the relations by their dependencies (strongly connected components, dependencies
/// first) and rejects negation or aggregation inside a component.
fn stratify(
    src: &str,
    relations: &[Relation],
    deps: &[(usize, usize, bool, usize)],
    plans: Vec<Plan>,
) -> Result<Vec<Stratum>, RuleError> {
    let n = relations.len() as u32;
    // Edges from a body relation to the head: components in topological order put every
    // relation after the relations it depends on.
    let mut succ: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(h, b, _, _) in deps {
        succ.entry(b as u32).or_default().push(h as u32);
    }
    let nodes: Vec<u32> = (0..n).collect();
    let members = crate::analysis::scc::components(&nodes, &succ).members;
    let mut comp = vec![0; relations.len()];
    for (c, ms) in members.iter().enumerate() {
        for &r in ms {
            comp[r as usize] = c;
        }
    }
    for &(h, b, negative, at) in deps {
        if negative && comp[h] == comp[b] {
            let (head, body) = (&relations[h].name, &relations[b].name);
            let cycle = if h == b {
                format!("`{head}` depends on itself")
            } else {
                format!("`{head}` depends on `{body}`, which depends on `{head}`,")
            };
            return Err(RuleError::at(
                src,
                at,
                format!("{cycle} through negation or an aggregate: the rules cannot be stratified"),
            ));
        }
    }
    let mut strata: Vec<Stratum> = members
        .iter()
        .map(|ms| Stratum {
            relations: ms.iter().map(|&r| r as usize).collect(),
            plans: Vec::new(),
        })
        .collect();
    for plan in plans {
        strata[comp[plan.head]].plans.push(plan);
    }
    Ok(strata)
}
