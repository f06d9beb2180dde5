//! A structure check of SV-COMP witness files in the YAML format 2.0, written by hand from the
//! format's documentation (sv-witnesses, "Format for Correctness Witnesses, version 2.0" and
//! "Format for Violation Witnesses, version 2.0",
//! https://sosy-lab.gitlab.io/benchmarking/sv-witnesses/yaml/): its JSON schema could not be
//! obtained on these machines, so every key it requires, every closed set of values and the
//! segment rules of violation witnesses are checked here, and unknown keys are refused.
#![allow(dead_code)] // each test crate uses a different subset

use serde_yaml_ng::{Mapping, Value};

type Check = Result<(), String>;

fn map<'a>(v: &'a Value, what: &str) -> Result<&'a Mapping, String> {
    v.as_mapping()
        .ok_or_else(|| format!("{what} is not a mapping"))
}

fn get<'a>(m: &'a Mapping, key: &str, what: &str) -> Result<&'a Value, String> {
    m.get(key).ok_or_else(|| format!("{what} lacks `{key}`"))
}

fn string<'a>(m: &'a Mapping, key: &str, what: &str) -> Result<&'a str, String> {
    get(m, key, what)?
        .as_str()
        .ok_or_else(|| format!("{what}.{key} is not a string"))
}

/// Only the keys `allowed` (required ones are checked by the callers).
fn keys(m: &Mapping, allowed: &[&str], what: &str) -> Check {
    for k in m.keys() {
        let k = k
            .as_str()
            .ok_or_else(|| format!("{what} has a key that is not a string"))?;
        if !allowed.contains(&k) {
            return Err(format!("{what} has an unknown key `{k}`"));
        }
    }
    Ok(())
}

fn one_of(value: &str, allowed: &[&str], what: &str) -> Check {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(format!("{what} is `{value}`, not one of {allowed:?}"))
    }
}

fn hex(s: &str, len: usize) -> bool {
    s.len() == len && s.chars().all(|c| c.is_ascii_hexdigit())
}

/// RFC 4122: 8-4-4-4-12 hexadecimal digits.
fn is_uuid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 5 && parts.iter().zip([8, 4, 4, 4, 12]).all(|(p, n)| hex(p, n))
}

/// ISO 8601 date and time: `YYYY-MM-DDTHH:MM:SS` then a zone (`Z` or `±HH:MM`).
fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
        && (s.ends_with('Z') || s[19..].contains(['+', '-']))
}

fn metadata(v: &Value) -> Result<Vec<String>, String> {
    let m = map(v, "metadata")?;
    keys(
        m,
        &[
            "format_version",
            "uuid",
            "creation_time",
            "producer",
            "task",
        ],
        "metadata",
    )?;
    one_of(
        string(m, "format_version", "metadata")?,
        &["2.0"],
        "format_version",
    )?;
    if !is_uuid(string(m, "uuid", "metadata")?) {
        return Err("metadata.uuid is not a UUID".to_owned());
    }
    if !is_date_time(string(m, "creation_time", "metadata")?) {
        return Err("metadata.creation_time is not ISO 8601".to_owned());
    }
    let p = map(get(m, "producer", "metadata")?, "producer")?;
    keys(
        p,
        &[
            "name",
            "version",
            "configuration",
            "command_line",
            "description",
        ],
        "producer",
    )?;
    string(p, "name", "producer")?;
    string(p, "version", "producer")?;
    let t = map(get(m, "task", "metadata")?, "task")?;
    let allowed = [
        "input_files",
        "input_file_hashes",
        "specification",
        "data_model",
        "language",
    ];
    keys(t, &allowed, "task")?;
    let files: Vec<String> = get(t, "input_files", "task")?
        .as_sequence()
        .ok_or("task.input_files is not a list")?
        .iter()
        .map(|f| {
            f.as_str()
                .map(str::to_owned)
                .ok_or("an input file is not a string")
        })
        .collect::<Result<_, _>>()?;
    if files.is_empty() {
        return Err("task.input_files is empty".to_owned());
    }
    let hashes = map(get(t, "input_file_hashes", "task")?, "input_file_hashes")?;
    for f in &files {
        let h = string(hashes, f, "input_file_hashes")?;
        if !hex(h, 64) {
            return Err(format!("the hash of {f} is not SHA-256 in hex"));
        }
    }
    string(t, "specification", "task")?;
    one_of(
        string(t, "data_model", "task")?,
        &["ILP32", "LP64"],
        "data_model",
    )?;
    one_of(string(t, "language", "task")?, &["C"], "language")?;
    Ok(files)
}

fn location(v: &Value, files: &[String], what: &str) -> Result<(usize, usize), String> {
    let m = map(v, what)?;
    keys(m, &["file_name", "line", "column", "function"], what)?;
    let f = string(m, "file_name", what)?;
    if !files.iter().any(|x| x == f) {
        return Err(format!("{what}.file_name {f} is not an input file"));
    }
    let line = get(m, "line", what)?.as_u64().filter(|&l| l >= 1);
    let line = line.ok_or_else(|| format!("{what}.line is not a positive integer"))?;
    let column = match m.get("column") {
        None => 1,
        Some(c) => c
            .as_u64()
            .filter(|&c| c >= 1)
            .ok_or_else(|| format!("{what}.column is not positive"))?,
    };
    if let Some(f) = m.get("function") {
        f.as_str()
            .ok_or_else(|| format!("{what}.function is not a string"))?;
    }
    Ok((line as usize, column as usize))
}

fn invariant_set(content: &[Value], files: &[String]) -> Check {
    // "a sequence of one or more invariant elements"
    if content.is_empty() {
        return Err("an invariant_set without invariants".to_owned());
    }
    for item in content {
        let m = map(item, "an invariant_set element")?;
        keys(m, &["invariant"], "an invariant_set element")?;
        let inv = map(
            get(m, "invariant", "an invariant_set element")?,
            "invariant",
        )?;
        keys(inv, &["type", "location", "value", "format"], "invariant")?;
        let kind = string(inv, "type", "invariant")?;
        one_of(
            kind,
            &["loop_invariant", "location_invariant"],
            "invariant.type",
        )?;
        location(
            get(inv, "location", "invariant")?,
            files,
            "invariant.location",
        )?;
        string(inv, "value", "invariant")?;
        one_of(
            string(inv, "format", "invariant")?,
            &["c_expression"],
            "invariant.format",
        )?;
    }
    Ok(())
}

fn violation_sequence(content: &[Value], files: &[String]) -> Check {
    if content.is_empty() {
        return Err("a violation_sequence without segments".to_owned());
    }
    for (i, seg) in content.iter().enumerate() {
        let m = map(seg, "a segment element")?;
        keys(m, &["segment"], "a segment element")?;
        let wps = get(m, "segment", "a segment element")?
            .as_sequence()
            .filter(|s| !s.is_empty())
            .ok_or("a segment is not a non-empty list")?;
        for (j, wp) in wps.iter().enumerate() {
            let m = map(wp, "a waypoint element")?;
            keys(m, &["waypoint"], "a waypoint element")?;
            let w = map(get(m, "waypoint", "a waypoint element")?, "waypoint")?;
            keys(w, &["type", "action", "location", "constraint"], "waypoint")?;
            let kind = string(w, "type", "waypoint")?;
            let kinds = [
                "assumption",
                "target",
                "function_enter",
                "function_return",
                "branching",
            ];
            one_of(kind, &kinds, "waypoint.type")?;
            let action = string(w, "action", "waypoint")?;
            one_of(action, &["follow", "avoid"], "waypoint.action")?;
            // Each segment: avoid waypoints, then exactly one follow waypoint at the end.
            let last = j + 1 == wps.len();
            if (action == "follow") != last {
                return Err(format!(
                    "segment {i}: the follow waypoint is not last and alone"
                ));
            }
            // The target is the follow waypoint of the final segment, and only there.
            if (kind == "target") != (last && i + 1 == content.len()) {
                return Err(format!(
                    "segment {i}: a target that does not end the sequence"
                ));
            }
            location(get(w, "location", "waypoint")?, files, "waypoint.location")?;
            match (kind, w.get("constraint")) {
                ("target" | "function_enter", Some(_)) => {
                    return Err(format!("a {kind} waypoint with a constraint"))
                }
                ("assumption" | "function_return" | "branching", None) => {
                    return Err(format!("a {kind} waypoint without a constraint"))
                }
                (_, Some(c)) => {
                    let c = map(c, "constraint")?;
                    keys(c, &["value", "format"], "constraint")?;
                    let value = get(c, "value", "constraint")?;
                    let formats: &[&str] = match kind {
                        "assumption" => &["c_expression"],
                        "function_return" => &["acsl_expression"],
                        _ => &["c_expression", "acsl_expression"],
                    };
                    if kind == "branching" {
                        if value.as_bool().is_none() && value.as_str().is_none() {
                            return Err("a branching constraint that is no truth value".into());
                        }
                    } else {
                        value.as_str().ok_or("constraint.value is not a string")?;
                        let f = c
                            .get("format")
                            .and_then(Value::as_str)
                            .unwrap_or("c_expression");
                        one_of(f, formats, "constraint.format")?;
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Checks a witness file: a non-empty list of entries, each of type `entry_type`.
pub fn check(yaml: &str, entry_type: &str) -> Check {
    let doc: Value = serde_yaml_ng::from_str(yaml).map_err(|e| format!("not YAML: {e}"))?;
    let entries = doc
        .as_sequence()
        .ok_or("the file is not a list of entries")?;
    if entries.is_empty() {
        return Err("no entries".to_owned());
    }
    for e in entries {
        let m = map(e, "an entry")?;
        keys(m, &["entry_type", "metadata", "content"], "an entry")?;
        one_of(
            string(m, "entry_type", "entry")?,
            &[entry_type],
            "entry_type",
        )?;
        let files = metadata(get(m, "metadata", "entry")?)?;
        let content = get(m, "content", "entry")?
            .as_sequence()
            .ok_or("content is not a list")?;
        match entry_type {
            "invariant_set" => invariant_set(content, &files)?,
            _ => violation_sequence(content, &files)?,
        }
    }
    Ok(())
}

/// The (line, column) of every invariant of a correctness witness.
pub fn invariant_locations(yaml: &str) -> Vec<(usize, usize)> {
    invariants_of_type(yaml, "loop_invariant")
}

/// The (line, column) of each invariant of type `kind` in a correctness witness.
pub fn invariants_of_type(yaml: &str, kind: &str) -> Vec<(usize, usize)> {
    let doc: Value = serde_yaml_ng::from_str(yaml).unwrap_or(Value::Null);
    let mut out = vec![];
    for e in doc.as_sequence().into_iter().flatten() {
        for item in e
            .get("content")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            if item["invariant"]["type"].as_str() != Some(kind) {
                continue;
            }
            let loc = &item["invariant"]["location"];
            if let (Some(l), Some(c)) = (loc["line"].as_u64(), loc["column"].as_u64()) {
                out.push((l as usize, c as usize));
            }
        }
    }
    out
}

#[test]
fn the_check_refuses_what_the_format_forbids() {
    let good = "- entry_type: violation_sequence\n  metadata:\n    format_version: '2.0'\n    uuid: 0b4e1d8a-4f0e-4c4a-9a4e-1d2c3b4a5f60\n    creation_time: 2024-01-01T00:00:00Z\n    producer: {name: t, version: '1'}\n    task:\n      input_files: [a.c]\n      input_file_hashes: {a.c: 0000000000000000000000000000000000000000000000000000000000000000}\n      specification: CHECK( init(main()), LTL(G ! call(reach_error())) )\n      data_model: ILP32\n      language: C\n  content:\n  - segment:\n    - waypoint: {type: target, action: follow, location: {file_name: a.c, line: 3, column: 5}}\n";
    assert_eq!(check(good, "violation_sequence"), Ok(()));
    for (from, to) in [
        ("'2.0'", "'0.1'"),
        ("0b4e1d8a-", "0b4e1d8-"),
        ("type: target", "type: goal"),
        ("action: follow", "action: avoid"),
        ("line: 3", "line: 0"),
        ("file_name: a.c, line", "file_name: b.c, line"),
        ("ILP32", "ILP64"),
        ("language: C", "language: C\n      extra: 1"),
        ("{type: target", "{type: function_enter"),
    ] {
        let bad = good.replacen(from, to, 1);
        assert!(check(&bad, "violation_sequence").is_err(), "accepted: {to}");
    }
}
