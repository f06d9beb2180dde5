//! The analysis as one JSON value (what `hornbeam analyze --json` prints).

use super::Analysis;
use crate::chc::System;
use serde_json::{json, Map, Value};

impl Analysis {
    /// The analysis of `system` as a JSON object, predicates named by their input names:
    /// `predicates` (name, arity, reachable, co_reachable, useful, loop_head), `clauses` (count),
    /// `unreachable` and `cannot_reach_query` (names), `useless_clauses` (clause indices),
    /// `loops` (heads, members, parent index or null, depth), `loop_order` (loop indices, inner
    /// first), `order` (names) and `live` (name → one bool per argument).
    pub fn to_json(&self, system: &System) -> Value {
        let name = |p: crate::chc::PredId| Value::from(system.pred(p).name.clone());
        let names = |ps: &[crate::chc::PredId]| {
            Value::from(ps.iter().map(|&p| name(p)).collect::<Vec<_>>())
        };
        let preds: Vec<Value> = system
            .pred_ids()
            .map(|p| {
                let i = p.0 as usize;
                json!({
                    "name": name(p),
                    "arity": system.pred(p).sorts.len(),
                    "reachable": self.reachable[i],
                    "co_reachable": self.co_reachable[i],
                    "useful": self.useful[i],
                    "loop_head": self.is_loop_head(p),
                })
            })
            .collect();
        let unreachable: Vec<_> = system
            .pred_ids()
            .filter(|p| !self.reachable[p.0 as usize])
            .collect();
        let cannot_reach: Vec<_> = system
            .pred_ids()
            .filter(|p| !self.co_reachable[p.0 as usize])
            .collect();
        let useless: Vec<usize> = (0..self.useful_clauses.len())
            .filter(|&c| !self.useful_clauses[c])
            .collect();
        let loops: Vec<Value> = self
            .loops
            .iter()
            .map(|l| {
                json!({
                    "heads": names(&l.heads),
                    "members": names(&l.members),
                    "parent": l.parent,
                    "depth": l.depth,
                })
            })
            .collect();
        let mut live = Map::new();
        for p in system.pred_ids() {
            live.insert(system.pred(p).name.clone(), json!(self.live[p.0 as usize]));
        }
        json!({
            "predicates": preds,
            "clauses": self.useful_clauses.len(),
            "unreachable": names(&unreachable),
            "cannot_reach_query": names(&cannot_reach),
            "useless_clauses": useless,
            "loops": loops,
            "loop_order": self.loop_order,
            "order": names(&self.order),
            "live": live,
        })
    }
}
