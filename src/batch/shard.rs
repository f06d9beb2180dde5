//! Shards: `batch --shard K/N` solves the K-th of N disjoint parts of the inputs, so that one
//! batch can be spread over the machines of a cluster (one array job per shard) and the parts'
//! results merged afterwards ([`super::merge`]).
//!
//! The partition: the inputs are ordered by the position of the path given on the command line
//! they were found under, then by their path relative to that given path (compared component by
//! component, as bytes); shard K takes the inputs at positions K-1, K-1+N, K-1+2N, ... of that
//! order. So the shards differ in size by at most one input, consecutive files of one directory
//! (often of one difficulty) go to different shards, and the partition depends only on the
//! command line and the files: not on the machine, the mount point of the benchmark set, or the
//! order in which a file system lists a directory. Every shard of one batch must be given the
//! same paths in the same order.
//!
//! Duty: parse and check `K/N`, and select a shard's inputs. Must not: walk, run or print.

use super::Input;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// One part of a partition of the inputs: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a `K/N` text is not a shard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not two numbers separated by `/`.
    #[error("`{text}` is not K/N (two whole numbers, e.g. 1/4)")]
    Syntax {
        /// The text given.
        text: String,
    },
    /// No shards at all.
    #[error("`{text}`: the number of shards must be at least 1")]
    NoShards {
        /// The text given.
        text: String,
    },
    /// K outside 1..=N.
    #[error("`{text}`: the shard must be between 1 and {count}")]
    OutOfRange {
        /// The text given.
        text: String,
        /// N.
        count: u32,
    },
}

impl Shard {
    /// The `index`-th of `count` shards, if `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Result<Self, ShardError> {
        Self::from_str(&format!("{index}/{count}"))
    }

    /// K: which shard, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// N: how many shards.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether the input at `position` (from 0) of the partition order is in this shard.
    fn takes(self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let syntax = || ShardError::Syntax { text: text.into() };
        let (k, n) = text.trim().split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            s.parse::<u32>().map_err(|_| syntax())
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 {
            return Err(ShardError::NoShards { text: text.into() });
        }
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange {
                text: text.into(),
                count,
            });
        }
        Ok(Shard { index, count })
    }
}

impl TryFrom<String> for Shard {
    type Error = ShardError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

/// Where an input stands in the partition order: the position of the path given that it was
/// found under, and its path relative to that path.
fn order_key<'a>(input: &'a Input, roots: &[PathBuf]) -> (usize, &'a Path) {
    let relative = roots
        .get(input.root)
        .and_then(|root| input.path.strip_prefix(root).ok())
        .unwrap_or(&input.path);
    (input.root, relative)
}

/// The inputs of `shard`, in their original order (see the module header for the partition).
/// `roots` are the paths given on the command line, whose positions the inputs' `root` fields
/// are.
pub fn select(inputs: Vec<Input>, roots: &[PathBuf], shard: Shard) -> Vec<Input> {
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    order.sort_by(|&a, &b| order_key(&inputs[a], roots).cmp(&order_key(&inputs[b], roots)));
    let mut keep = vec![false; inputs.len()];
    for (position, &i) in order.iter().enumerate() {
        keep[i] = shard.takes(position);
    }
    inputs
        .into_iter()
        .zip(keep)
        .filter_map(|(input, k)| k.then_some(input))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_bad_ones_say_why() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(" 1/1 ".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["a/b", "1", "1/", "/2", "-1/2", "+1/2", "1/2/3", "1.0/2", ""] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(ShardError::Syntax { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            "0/2".parse::<Shard>(),
            Err(ShardError::OutOfRange { count: 2, .. })
        ));
        assert!(matches!(
            "3/2".parse::<Shard>(),
            Err(ShardError::OutOfRange { count: 2, .. })
        ));
        assert!(matches!(
            "0/0".parse::<Shard>(),
            Err(ShardError::NoShards { .. })
        ));
        let e = "3/2".parse::<Shard>().expect_err("out of range");
        assert_eq!(e.to_string(), "`3/2`: the shard must be between 1 and 2");
        let json = serde_json::to_string(&Shard { index: 2, count: 5 }).expect("json");
        assert_eq!(json, "\"2/5\"");
        assert!(serde_json::from_str::<Shard>("\"6/5\"").is_err());
    }

    fn input(root: usize, path: &str) -> Input {
        Input::new(PathBuf::from(path), None, root)
    }

    #[test]
    fn shards_partition_by_relative_path_whatever_the_root_and_order() {
        let names = ["b/2.smt2", "a/1.smt2", "a/3.smt2", "b/1.smt2", "c.smt2"];
        let on = |root: &str, rev: bool| {
            let mut v: Vec<Input> = names
                .iter()
                .map(|n| input(0, &format!("{root}/{n}")))
                .collect();
            if rev {
                v.reverse();
            }
            let roots = [PathBuf::from(root)];
            (1..=2)
                .map(|k| {
                    let mut got: Vec<String> =
                        select(v.clone(), &roots, Shard::new(k, 2).expect("shard"))
                            .into_iter()
                            .map(|i| {
                                i.path
                                    .strip_prefix(root)
                                    .expect("under root")
                                    .display()
                                    .to_string()
                            })
                            .collect();
                    got.sort();
                    got
                })
                .collect::<Vec<_>>()
        };
        let here = on("/x/bench", false);
        // Sorted: a/1 a/3 b/1 b/2 c; shard 1 takes positions 0, 2, 4.
        assert_eq!(
            here,
            vec![
                vec!["a/1.smt2", "b/1.smt2", "c.smt2"],
                vec!["a/3.smt2", "b/2.smt2"]
            ]
        );
        assert_eq!(on("rel/elsewhere", true), here);
    }

    #[test]
    fn the_order_of_the_paths_given_comes_first_and_order_is_kept() {
        let roots = [PathBuf::from("z"), PathBuf::from("a")];
        let v = vec![
            input(0, "z/q.smt2"),
            input(1, "a/p.smt2"),
            input(0, "z/b.smt2"),
        ];
        let one = select(v.clone(), &roots, Shard::new(1, 2).expect("shard"));
        // Order: z/b, z/q, a/p; shard 1 takes z/b and a/p, kept in input order.
        let paths: Vec<_> = one.iter().map(|i| i.path.display().to_string()).collect();
        assert_eq!(paths, ["a/p.smt2", "z/b.smt2"]);
        let all = select(v, &roots, Shard::new(1, 1).expect("shard"));
        assert_eq!(all.len(), 3);
    }
}
