//! Semi-naive evaluation of checked rules on `datafrog`, one stratum at a time.
//!
//! Each rule becomes a chain of datafrog variables, one per [`Step`]: joins are datafrog's
//! sorted merge joins on the bound columns, negation its antijoin, comparisons and
//! arithmetic filters and maps. Rows are `Vec<i64>` (symbols are interned). Every variable
//! keeps its stable and recent tuples apart, so a round joins only what is new.

use super::ast::{AggKind, CmpOp};
use super::check::Checked;
use super::plan::{Match, Plan, Step};
use super::{RuleError, Symbols};
use datafrog::{Iteration, PrefixFilter, Relation, Variable};
use std::cell::RefCell;
use std::collections::HashMap;

type Row = Vec<i64>;

fn project(t: &[i64], positions: &[usize]) -> Row {
    positions.iter().map(|&i| t[i]).collect()
}

fn compare(op: CmpOp, a: i64, b: i64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// The tuples of `rel` (complete) that match `m`'s pattern, keyed by `m.atom_key`.
fn keyed<'a>(m: &'a Match, rows: &'a [Row]) -> impl Iterator<Item = (Row, &'a Row)> + 'a {
    rows.iter()
        .filter(|t| m.pattern.matches(t))
        .map(|t| (project(t, &m.atom_key), t))
}

/// The datafrog variables of one step.
enum Stage {
    Join {
        left: Variable<(Row, Row)>,
        right: Variable<(Row, Row)>,
        out: Variable<Row>,
    },
    Map(Variable<Row>),
    Anti {
        left: Variable<(Row, Row)>,
        negated: Relation<Row>,
        out: Variable<Row>,
    },
    Agg {
        table: HashMap<Row, i64>,
        out: Variable<Row>,
    },
}

/// Evaluates `checked` over `contents` (one entry per relation, the input tuples filled in);
/// on return every relation holds its derived tuples, sorted. Stops with an error once the
/// relations hold more than `max_tuples` tuples.
pub(super) fn run(
    src: &str,
    checked: &Checked,
    contents: &mut [Vec<Row>],
    symbols: &RefCell<Symbols>,
    max_tuples: usize,
) -> Result<(), RuleError> {
    let mut total: usize = contents.iter().map(Vec::len).sum();
    for stratum in &checked.strata {
        let (own, plans) = (&stratum.relations, &stratum.plans);
        if plans.is_empty() {
            continue;
        }
        let mut it = Iteration::new();
        let mut vars: HashMap<usize, Variable<Row>> = HashMap::new();
        let mut var_of = |it: &mut Iteration, r: usize, contents: &[Vec<Row>]| {
            vars.entry(r)
                .or_insert_with(|| {
                    let v = it.variable::<Row>(&checked.relations[r].name);
                    v.extend(contents[r].iter().cloned());
                    v
                })
                .clone()
        };
        for &r in own {
            var_of(&mut it, r, contents);
        }
        let mut stages: Vec<(Variable<Row>, Vec<Stage>)> = Vec::new();
        let mut inputs: Vec<Vec<Option<Variable<Row>>>> = Vec::new();
        for plan in plans {
            let unit = it.variable::<Row>("unit");
            unit.extend([Row::new()]);
            let mut list = Vec::new();
            let mut ins = Vec::new();
            for step in &plan.steps {
                let stage = match step {
                    Step::Join { m, .. } => {
                        ins.push(Some(var_of(&mut it, m.rel, contents)));
                        Stage::Join {
                            left: it.variable("left"),
                            right: it.variable("right"),
                            out: it.variable("joined"),
                        }
                    }
                    Step::Filter(..) | Step::Bind(_) => {
                        ins.push(None);
                        Stage::Map(it.variable("mapped"))
                    }
                    Step::Anti(m) => {
                        ins.push(None);
                        Stage::Anti {
                            left: it.variable("left"),
                            negated: keyed(m, &contents[m.rel]).map(|(k, _)| k).collect(),
                            out: it.variable("kept"),
                        }
                    }
                    Step::Agg { m, kind, value } => {
                        ins.push(None);
                        let mut table: HashMap<Row, i64> = HashMap::new();
                        for (k, t) in keyed(m, &contents[m.rel]) {
                            let v = value.as_ref().map_or(Some(1), |e| e.eval(t, symbols));
                            let Some(v) = v else { continue };
                            table
                                .entry(k)
                                .and_modify(|acc| {
                                    *acc = match kind {
                                        AggKind::Count | AggKind::Sum => acc.saturating_add(v),
                                        AggKind::Min => (*acc).min(v),
                                        AggKind::Max => (*acc).max(v),
                                    }
                                })
                                .or_insert(v);
                        }
                        Stage::Agg {
                            table,
                            out: it.variable("aggregated"),
                        }
                    }
                };
                list.push(stage);
            }
            stages.push((unit, list));
            inputs.push(ins);
        }
        let heads: Vec<Variable<Row>> = plans
            .iter()
            .map(|p| var_of(&mut it, p.head, contents))
            .collect();
        while it.changed() {
            for (((plan, (unit, list)), ins), head) in
                plans.iter().zip(&stages).zip(&inputs).zip(&heads)
            {
                round(plan, unit, list, ins, head, symbols);
            }
            total += own
                .iter()
                .map(|r| vars[r].recent.borrow().len())
                .sum::<usize>();
            if total > max_tuples {
                let at = plans[0].at;
                return Err(RuleError::at(
                    src,
                    at,
                    format!(
                        "the rules derive more than {max_tuples} tuples (does a recursive rule \
                         compute ever larger numbers?)"
                    ),
                ));
            }
        }
        for &r in own {
            let v = vars
                .remove(&r)
                .expect("every relation of the stratum has a variable");
            contents[r] = v.complete().elements;
        }
    }
    Ok(())
}

/// One round of one rule: every stage consumes its input's recent tuples.
fn round(
    plan: &Plan,
    unit: &Variable<Row>,
    stages: &[Stage],
    inputs: &[Option<Variable<Row>>],
    head: &Variable<Row>,
    symbols: &RefCell<Symbols>,
) {
    let mut cur = unit;
    for ((step, stage), input) in plan.steps.iter().zip(stages).zip(inputs) {
        cur = match (step, stage) {
            (Step::Join { m, fresh }, Stage::Join { left, right, out }) => {
                let atom = input.as_ref().expect("a join reads its relation");
                left.from_map(cur, |r| (project(r, &m.row_key), r.clone()));
                right.from_leapjoin(
                    atom,
                    PrefixFilter::from(|t: &Row| m.pattern.matches(t)),
                    |t, &()| (project(t, &m.atom_key), project(t, fresh)),
                );
                out.from_join(left, right, |_, r, f| {
                    let mut row = r.clone();
                    row.extend_from_slice(f);
                    row
                });
                out
            }
            (Step::Filter(op, a, b), Stage::Map(out)) => {
                out.from_leapjoin(
                    cur,
                    PrefixFilter::from(|r: &Row| match (a.eval(r, symbols), b.eval(r, symbols)) {
                        (Some(x), Some(y)) => compare(*op, x, y),
                        _ => false,
                    }),
                    |r, &()| r.clone(),
                );
                out
            }
            (Step::Bind(e), Stage::Map(out)) => {
                out.from_leapjoin(
                    cur,
                    PrefixFilter::from(|r: &Row| e.eval(r, symbols).is_some()),
                    |r, &()| {
                        let mut row = r.clone();
                        row.push(e.eval(r, symbols).expect("filtered"));
                        row
                    },
                );
                out
            }
            (Step::Anti(m), Stage::Anti { left, negated, out }) => {
                left.from_map(cur, |r| (project(r, &m.row_key), r.clone()));
                out.from_antijoin(left, negated, |_, r| r.clone());
                out
            }
            (Step::Agg { m, kind, .. }, Stage::Agg { table, out }) => {
                let found = |r: &Row| table.get(&project(r, &m.row_key)).copied();
                let dropped = matches!(kind, AggKind::Min | AggKind::Max);
                out.from_leapjoin(
                    cur,
                    PrefixFilter::from(|r: &Row| !dropped || found(r).is_some()),
                    |r, &()| {
                        let mut row = r.clone();
                        row.push(found(r).unwrap_or(0));
                        row
                    },
                );
                out
            }
            _ => unreachable!("stages are built from the steps"),
        };
    }
    let args = &plan.args;
    head.from_leapjoin(
        cur,
        PrefixFilter::from(|r: &Row| args.iter().all(|e| e.eval(r, symbols).is_some())),
        |r, &()| {
            args.iter()
                .map(|e| e.eval(r, symbols).expect("filtered"))
                .collect()
        },
    );
}
