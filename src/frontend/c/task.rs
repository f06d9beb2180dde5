//! SV-COMP task definitions (`.yml`, formats 1.0 to 2.0): the program to verify, each property
//! with its expected verdict, the language and the data model. Paths inside a task are relative
//! to the task file's folder; [`read`] resolves them and reads every property file, so that a
//! task is checked whole before anything runs.
//!
//! A property whose file Hornbeam cannot check (termination, overflow, coverage, ...) is kept,
//! as [`Check::Unsupported`] with the reason: the caller reports it and never answers it.
//!
//! Must not: verify, or decide what is run (the caller selects the properties).

use super::ast::Span;
use super::error::{CError, CErrorKind};
use super::property::{self, Property};
use super::types::DataModel;
use serde_yaml_ng::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// An expected verdict: `true`, `false` or `false(SUBPROPERTY)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the property holds.
    pub holds: bool,
    /// For `false`, the violated subproperty the task names (`valid-deref`, ...).
    pub subproperty: Option<String>,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.holds, &self.subproperty) {
            (true, _) => f.write_str("true"),
            (false, None) => f.write_str("false"),
            (false, Some(s)) => write!(f, "false({s})"),
        }
    }
}

/// Whether Hornbeam checks a property of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// It does: the property as `verify` takes it.
    Supported(Property),
    /// It does not, and why (the property file's own refusal message).
    Unsupported(String),
}

/// One property of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// The property's name: its file's stem (`unreach-call` for `unreach-call.prp`), as
    /// SV-COMP and BenchExec name properties.
    pub name: String,
    /// The property file, resolved against the task's folder.
    pub file: PathBuf,
    /// The expected verdict (`None`: the task states none, as for coverage properties).
    pub expected: Option<Verdict>,
    /// Whether Hornbeam checks it.
    pub check: Check,
}

/// A task definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task file.
    pub path: PathBuf,
    /// The program, resolved against the task's folder.
    pub program: PathBuf,
    /// The data model (`options: data_model`; ILP32 when the task has no options, as format
    /// 1.0 implies).
    pub data_model: DataModel,
    /// The properties in the task's order.
    pub properties: Vec<TaskProperty>,
}

impl Task {
    /// The properties worth a run or a report: every one Hornbeam checks or the task states a
    /// verdict for (not, say, a coverage property), in the task's order.
    pub fn relevant(&self) -> impl Iterator<Item = &TaskProperty> {
        self.properties
            .iter()
            .filter(|p| p.expected.is_some() || matches!(p.check, Check::Supported(_)))
    }
}

/// The name a `--property` value selects a task's property by: a property file's stem (as
/// BenchExec passes it), or the name itself.
pub fn property_name(arg: &str) -> String {
    match arg.strip_suffix(".prp") {
        Some(_) => Path::new(arg)
            .file_stem()
            .map_or_else(|| arg.to_owned(), |s| s.to_string_lossy().into_owned()),
        None => arg.to_owned(),
    }
}

/// A task that cannot be read: the file with the problem (the task or one of its property
/// files), its text and the located error.
#[derive(Clone, Debug)]
pub struct TaskError {
    /// The file the error is in.
    pub file: PathBuf,
    /// Its text (empty when it could not be read).
    pub text: String,
    /// What and where.
    pub error: CError,
}

impl TaskError {
    /// `FILE:LINE:COL: message`.
    pub fn render(&self) -> String {
        self.error
            .render(&self.file.display().to_string(), &self.text)
    }
}

/// Whether a path names a task definition (`.yml` or `.yaml`), by its name.
pub fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// Reads a task file and its property files. Errors are located in the file they are in: a
/// task that is not YAML, lacks `input_files` or `properties`, names several input files, a
/// language other than C, an unknown data model or verdict, or a property file that cannot be
/// read.
pub fn read(path: &Path) -> Result<Task, TaskError> {
    let text = read_file(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let fail = |span: Span, message: String| TaskError {
        file: path.to_owned(),
        text: text.clone(),
        error: CError::new(CErrorKind::Syntax, span, message),
    };
    let parsed = parse(&text).map_err(|(span, m)| fail(span, m))?;
    let mut properties = vec![];
    for raw in parsed.properties {
        let file = dir.join(&raw.file);
        // A property file that cannot be read is an error at the task's line naming it.
        let prp = read_file(&file)
            .map_err(|e| fail(raw.at, format!("{}: {}", file.display(), e.error.message)))?;
        let check = match property::parse(&prp) {
            Ok(p) => Check::Supported(p),
            Err(e) => Check::Unsupported(e.message),
        };
        let name = Path::new(&raw.file)
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        properties.push(TaskProperty {
            name,
            file,
            expected: raw.expected,
            check,
        });
    }
    Ok(Task {
        path: path.to_owned(),
        program: dir.join(parsed.program),
        data_model: parsed.data_model,
        properties,
    })
}

/// Reads `file` as text; a failure is located at the file's start.
fn read_file(file: &Path) -> Result<String, TaskError> {
    crate::syntax::read_text(file).map_err(|(e, prefix)| {
        let name = file.display().to_string();
        let rendered = e.render(&name, &prefix);
        // The rendering starts with `FILE:LINE:COL: `; keep the message only.
        let message = rendered
            .strip_prefix(&format!("{name}:"))
            .and_then(|r| r.split_once(": ").map(|(_, m)| m.to_owned()))
            .unwrap_or(rendered);
        TaskError {
            file: file.to_owned(),
            text: String::new(),
            error: CError::new(CErrorKind::Syntax, Span::new(0, 0), message),
        }
    })
}

/// A property entry as written.
struct RawProperty {
    file: String,
    expected: Option<Verdict>,
    /// Where its `property_file` is written.
    at: Span,
}

/// A task as written.
struct RawTask {
    program: String,
    data_model: DataModel,
    properties: Vec<RawProperty>,
}

/// Parses a task's text; an error is (where, what).
fn parse(text: &str) -> Result<RawTask, (Span, String)> {
    let doc: Value = serde_yaml_ng::from_str(text).map_err(|e| {
        let at = e.location().map_or(0, |l| l.index().min(text.len()));
        (Span::new(at, at), format!("not a task definition: {e}"))
    })?;
    let whole = Span::new(0, 0);
    let Value::Mapping(map) = &doc else {
        return Err((whole, "a task definition is a YAML mapping".into()));
    };
    let key_at = |key: &str, from: usize| -> Span {
        match text[from.min(text.len())..].find(key) {
            Some(k) => Span::new(from + k, from + k + key.len()),
            None => whole,
        }
    };
    let get = |key: &str| map.get(Value::String(key.into()));
    if let Some(v) = get("format_version") {
        let version = scalar(v).unwrap_or_default();
        if !["1.0", "1.1", "2.0"].contains(&version.as_str()) {
            return Err((
                key_at("format_version", 0),
                format!("format_version `{version}` is not one of 1.0, 1.1, 2.0"),
            ));
        }
    }
    let program = match get("input_files") {
        None => return Err((whole, "the task has no `input_files`".into())),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Sequence(files)) if files.len() == 1 => match &files[0] {
            Value::String(s) => s.clone(),
            _ => return Err((key_at("input_files", 0), "`input_files` names files".into())),
        },
        Some(Value::Sequence(files)) => {
            return Err((
                key_at("input_files", 0),
                format!(
                    "unsupported: the task has {} input files; Hornbeam verifies one program",
                    files.len()
                ),
            ))
        }
        Some(_) => return Err((key_at("input_files", 0), "`input_files` names files".into())),
    };
    let mut data_model = DataModel::Ilp32;
    if let Some(options) = get("options") {
        let Value::Mapping(options) = options else {
            return Err((key_at("options", 0), "`options` is a mapping".into()));
        };
        let opt = |key: &str| options.get(Value::String(key.into())).and_then(scalar);
        if let Some(language) = opt("language") {
            if language != "C" {
                return Err((
                    key_at("language", 0),
                    format!("unsupported: the task's language is {language}; Hornbeam verifies C"),
                ));
            }
        }
        if let Some(model) = opt("data_model") {
            data_model = model.parse().map_err(|_| {
                (
                    key_at("data_model", 0),
                    format!("unknown data model `{model}` (ILP32 or LP64)"),
                )
            })?;
        }
    }
    let Some(Value::Sequence(entries)) = get("properties") else {
        return Err((
            key_at("properties", 0),
            "the task has no `properties` list".into(),
        ));
    };
    let mut properties = vec![];
    let mut from = key_at("properties", 0).start;
    for entry in entries {
        let at = key_at("property_file", from);
        from = at.end;
        let field = |key: &str| match entry {
            Value::Mapping(m) => m.get(Value::String(key.into())),
            _ => None,
        };
        let Some(file) = field("property_file").and_then(scalar) else {
            return Err((at, "each property has a `property_file`".into()));
        };
        let expected = match field("expected_verdict") {
            None => None,
            Some(v) => {
                let holds = match v {
                    Value::Bool(b) => *b,
                    other => {
                        return Err((
                            key_at("expected_verdict", from),
                            format!(
                                "expected_verdict is `true` or `false`, not `{}`",
                                scalar(other).unwrap_or_else(|| "?".into())
                            ),
                        ))
                    }
                };
                let subproperty = field("subproperty").and_then(scalar);
                if holds && subproperty.is_some() {
                    return Err((
                        key_at("subproperty", from),
                        "a subproperty belongs to the verdict `false`".into(),
                    ));
                }
                Some(Verdict { holds, subproperty })
            }
        };
        properties.push(RawProperty { file, expected, at });
    }
    Ok(RawTask {
        program,
        data_model,
        properties,
    })
}

/// A scalar's text (`None` for a sequence or mapping).
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_of_format_2_reads_whole() {
        let t = parse(
            "format_version: '2.0'\ninput_files: 'a.i'\nproperties:\n  - property_file: \
             ../properties/unreach-call.prp\n    expected_verdict: true\n  - property_file: \
             ../properties/valid-memsafety.prp\n    expected_verdict: false\n    subproperty: \
             valid-deref\n  - property_file: ../properties/coverage-branches.prp\noptions:\n  \
             language: C\n  data_model: LP64\n",
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(t.program, "a.i");
        assert_eq!(t.data_model, DataModel::Lp64);
        let verdicts: Vec<_> = t
            .properties
            .iter()
            .map(|p| p.expected.as_ref().map(|v| v.to_string()))
            .collect();
        assert_eq!(
            verdicts,
            [Some("true".into()), Some("false(valid-deref)".into()), None]
        );
    }

    #[test]
    fn property_files_name_their_property() {
        assert_eq!(
            property_name("../properties/unreach-call.prp"),
            "unreach-call"
        );
        assert_eq!(property_name("valid-memsafety"), "valid-memsafety");
    }

    #[test]
    fn errors_point_at_the_entry_that_is_wrong() {
        let text = "format_version: '2.0'\ninput_files: 'a.c'\nproperties:\n  - property_file: \
                    p.prp\n    expected_verdict: maybe\n";
        let (span, message) = parse(text).err().expect("refused");
        assert_eq!(&text[span.start..span.end], "expected_verdict");
        assert!(message.contains("maybe"), "{message}");
        let (_, message) = parse("input_files: ['a.c', 'b.c']\nproperties: []\n")
            .err()
            .expect("refused");
        assert!(message.contains("2 input files"), "{message}");
        let (_, message) = parse("input_files: a.c\nproperties: []\noptions:\n  language: Java\n")
            .err()
            .expect("refused");
        assert!(message.contains("Java"), "{message}");
    }
}
