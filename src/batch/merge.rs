//! Merging result files into the runs of a report: the shards of one batch (`batch --shard
//! K/N` on several machines) become one run again, as do any result files given one name.
//!
//! Which files merge: those with the same name. A file's name is the `NAME` of `NAME=FILE`;
//! without one it is its solver (e.g. `hornbeam`) when the file is a shard, else its file stem.
//! So `report shard-1.json shard-2.json` shows one run, `hornbeam`, and `report hb=a.json
//! hb=b.json` merges two unsharded files explicitly. Parts must agree on the solver, the time
//! limit and the memory limit, and sharded parts on the number of shards; no shard may come
//! twice, and no file may be in two parts (overlapping shards, or one file given twice): each of
//! these is a [`MergeError`] that names the two files. Missing shards are a [`MergeWarning`].
//!
//! The merged run: records of all parts sorted by path (component by component, which is the
//! order of an unsharded run over one directory), jobs summed (the parts ran side by side),
//! wall time the longest part's, interrupted when any part was, and no shard.
//!
//! Duty: group and merge runs. Must not: read files or print (the command line does both).

use super::{Run, Shard};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A loaded result file and the name it was given.
#[derive(Clone, Debug)]
pub struct ResultFile {
    /// The `NAME` of `NAME=FILE`, if given.
    pub name: Option<String>,
    /// The file (for messages).
    pub file: PathBuf,
    /// Its contents.
    pub run: Run,
}

impl ResultFile {
    /// The name of the run this file belongs to (see the module header).
    pub fn run_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        if self.run.shard.is_some() && !self.run.solver.is_empty() {
            return self.run.solver.clone();
        }
        self.file
            .file_stem()
            .map_or_else(|| "run".into(), |s| s.to_string_lossy().into_owned())
    }
}

/// Why result files cannot be merged into one run.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// One input file is recorded in two parts.
    #[error(
        "run `{run}`: `{path}` is in both {} and {} (overlapping shards, or one result file \
         given twice; to compare the files as separate runs, name them apart with NAME=FILE)",
        .first.display(), .second.display()
    )]
    Duplicate {
        /// The run's name.
        run: String,
        /// The input file recorded twice.
        path: String,
        /// The first result file recording it.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
    /// Two parts were run differently.
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    /// One shard given twice.
    #[error("run `{run}`: shard {shard} is both {} and {}", .first.display(), .second.display())]
    SameShard {
        /// The run's name.
        run: String,
        /// The shard.
        shard: Shard,
        /// The first file.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
}

/// Two parts of one run that were run differently (a [`MergeError::Mismatch`]).
#[derive(Debug, PartialEq, thiserror::Error)]
#[error(
    "run `{run}`: {} and {} cannot be merged: different {what} ({first_value} and \
     {second_value}); name them apart with NAME=FILE to compare them",
    .first.display(), .second.display()
)]
pub struct Mismatch {
    /// The run's name.
    pub run: String,
    /// What differs (`solver`, `time limit`, ...).
    pub what: &'static str,
    /// The first part.
    pub first: PathBuf,
    /// Its value.
    pub first_value: String,
    /// The second part.
    pub second: PathBuf,
    /// Its value.
    pub second_value: String,
}

/// Something about a merge worth telling, that does not stop it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeWarning {
    /// Not every shard of the partition was given: the run is partial.
    #[error("run `{run}`: shard(s) {} of {count} missing; the run covers only part of the inputs", .missing.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))]
    MissingShards {
        /// The run's name.
        run: String,
        /// N.
        count: u32,
        /// The missing K.
        missing: Vec<u32>,
    },
}

/// The named runs of a report, and what the merges found worth a warning.
#[derive(Clone, Debug, Default)]
pub struct Grouped {
    /// The runs in the order their names first appear.
    pub runs: Vec<(String, Run)>,
    /// Warnings of the merges.
    pub warnings: Vec<MergeWarning>,
}

/// Groups result files by run name and merges each group (see the module header).
pub fn group(files: Vec<ResultFile>) -> Result<Grouped, MergeError> {
    let mut order: Vec<String> = Vec::new();
    let mut by_name: BTreeMap<String, Vec<ResultFile>> = BTreeMap::new();
    for f in files {
        let name = f.run_name();
        if !by_name.contains_key(&name) {
            order.push(name.clone());
        }
        by_name.entry(name).or_default().push(f);
    }
    let mut out = Grouped::default();
    for name in order {
        let parts = by_name.remove(&name).unwrap_or_default();
        let run = merge(&name, parts, &mut out.warnings)?;
        out.runs.push((name, run));
    }
    Ok(out)
}

/// The settings parts of one run must share, as text for messages: solver, time limit, memory
/// limit, number of shards (when sharded).
fn settings(run: &Run) -> [(&'static str, Option<String>); 4] {
    [
        ("solver", Some(format!("`{}`", run.solver))),
        ("time limit", Some(format!("{} s", run.timeout))),
        (
            "memory limit",
            Some(run.memory_mb.map_or("none".into(), |m| format!("{m} MB"))),
        ),
        ("number of shards", run.shard.map(|s| s.count().to_string())),
    ]
}

/// Checks that a part was run as the first one was.
fn agree(
    run: &str,
    (first, a): (&Path, &Run),
    (second, b): (&Path, &Run),
) -> Result<(), MergeError> {
    for ((what, x), (_, y)) in settings(a).into_iter().zip(settings(b)) {
        if let (Some(x), Some(y)) = (x, y) {
            if x != y {
                return Err(MergeError::Mismatch(Box::new(Mismatch {
                    run: run.into(),
                    what,
                    first: first.into(),
                    first_value: x,
                    second: second.into(),
                    second_value: y,
                })));
            }
        }
    }
    Ok(())
}

/// Merges the parts of the run `name` into one (a single part is returned as it is).
pub fn merge(
    name: &str,
    parts: Vec<ResultFile>,
    warnings: &mut Vec<MergeWarning>,
) -> Result<Run, MergeError> {
    if parts.len() == 1 {
        return Ok(parts.into_iter().next().map(|p| p.run).unwrap_or_default());
    }
    let Some(first) = parts.first() else {
        return Ok(Run::default());
    };
    let lead = first.file.as_path();
    let mut shards: BTreeMap<Shard, &Path> = BTreeMap::new();
    let mut seen: BTreeMap<String, &Path> = BTreeMap::new();
    for p in &parts {
        let r = &p.run;
        let f = p.file.as_path();
        agree(name, (lead, &first.run), (f, r))?;
        if let Some(s) = r.shard {
            if let Some(other) = shards.insert(s, f) {
                return Err(MergeError::SameShard {
                    run: name.into(),
                    shard: s,
                    first: other.into(),
                    second: f.into(),
                });
            }
        }
        for rec in &r.results {
            if let Some(other) = seen.insert(rec.key(), f) {
                return Err(MergeError::Duplicate {
                    run: name.into(),
                    path: rec.key(),
                    first: other.into(),
                    second: f.into(),
                });
            }
        }
    }
    if shards.len() == parts.len() {
        if let Some(count) = shards.keys().next().map(|s| s.count()) {
            let present: BTreeSet<u32> = shards.keys().map(|s| s.index()).collect();
            let missing: Vec<u32> = (1..=count).filter(|k| !present.contains(k)).collect();
            if !missing.is_empty() {
                warnings.push(MergeWarning::MissingShards {
                    run: name.into(),
                    count,
                    missing,
                });
            }
        }
    }
    let mut merged = Run {
        solver: first.run.solver.clone(),
        timeout: first.run.timeout,
        memory_mb: first.run.memory_mb,
        meta: first.run.meta.clone(),
        ..Run::default()
    };
    for p in parts {
        merged.jobs += p.run.jobs;
        merged.wall_time = merged.wall_time.max(p.run.wall_time);
        merged.interrupted |= p.run.interrupted;
        merged.results.extend(p.run.results);
    }
    merged
        .results
        .sort_by(|a, b| (Path::new(&a.path), &a.property).cmp(&(Path::new(&b.path), &b.property)));
    Ok(merged)
}
