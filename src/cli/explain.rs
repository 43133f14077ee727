//! `cogitator explain ID[.FIELD] [--dataset DIR] [--inputs DIR]`: where a record or one of its
//! values came from — every source that gave it (file, line, page and box), a short excerpt
//! of the raw text there, the normalization fixes applied in those files to that value, the
//! other sources that disagreed (`X110`), and which reading won and why (the row of the
//! merge policy table, `merge::DATASHEET` …).
//!
//! The locations come from the dataset itself, no side file: a record's `sources` (rules:
//! `occurrences`), a sub-record's own `at` (or a weapon's `line`), and `diagnostics.json`
//! (`X110` names both files and the kept value; `N1xx` fixes are aggregated per file, code and
//! `from -> to`, so the fixes shown are those of the record's files whose result occurs in
//! the explained value). Excerpts read the input files under `--inputs DIR` (the directory
//! that was ingested; default: the current directory), checked against the recorded sha256.
//!
//! Exit codes: 0 explained, 1 the id or field is not in the dataset, 2 usage or I/O error.

use crate::dataset::{DatasetDir, LoadedDataset};
use crate::diff::{FieldPath, Segment};
use crate::merge::{FieldRule, DATASHEET, DETACHMENT, ENHANCEMENT, STRATAGEM};
use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Arguments of `cogitator explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A record id, optionally with a field path: `10e:tyranids:carnifexes.points`,
    /// `10e:chaos-daemons:belakor.weapons[The Blade of Shadows – strike].S`.
    pub target: String,
    /// The dataset directory.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub dataset: PathBuf,
    /// The directory that was ingested, for the raw-text excerpts [default: the current
    /// directory].
    #[arg(long, value_name = "DIR")]
    pub inputs: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let ds = match DatasetDir::read(&args.dataset) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return Ok(super::EXIT_USAGE);
        }
    };
    let inputs = args.inputs.clone().unwrap_or_else(|| PathBuf::from("."));
    match explain(&ds, &args.target, &inputs) {
        Ok(text) => {
            out!("{text}");
            Ok(super::EXIT_OK)
        }
        Err(m) => {
            errln!("{m}");
            Ok(super::EXIT_FINDINGS)
        }
    }
}

/// A record of the dataset as JSON, with its type and merge table.
struct Found {
    kind: &'static str,
    value: Value,
    table: &'static [FieldRule],
}

fn find(ds: &LoadedDataset, id: &str) -> Option<Found> {
    fn pick<T: serde::Serialize>(v: &[T], id: &str) -> Option<Value> {
        v.iter()
            .filter_map(|r| serde_json::to_value(r).ok())
            .find(|v| v.get("id").and_then(Value::as_str) == Some(id))
    }
    let f = |kind, value, table| Found { kind, value, table };
    pick(&ds.datasheets, id)
        .map(|v| f("datasheet", v, DATASHEET))
        .or_else(|| pick(&ds.stratagems, id).map(|v| f("stratagem", v, STRATAGEM)))
        .or_else(|| pick(&ds.enhancements, id).map(|v| f("enhancement", v, ENHANCEMENT)))
        .or_else(|| pick(&ds.detachments, id).map(|v| f("detachment", v, DETACHMENT)))
        .or_else(|| pick(&ds.rules, id).map(|v| f("rule", v, &[])))
}

/// `weapons[Heavy venom cannon].S` as a path (`[…]` keys may hold dots).
pub fn parse_path(s: &str) -> Option<FieldPath> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let k = &r[..end];
            out.push(match k.parse::<usize>() {
                Ok(i) if k.chars().all(|c| c.is_ascii_digit()) => Segment::Index(i),
                _ => Segment::Key(k.to_string()),
            });
            rest = &r[end + 1..];
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            out.push(Segment::Field(r[..end].to_string()));
            rest = &r[end..];
        }
    }
    Some(FieldPath(out))
}

/// Explains `target` (`ID` or `ID.FIELD…`) in `ds`; `Err` when it is not there.
pub fn explain(ds: &LoadedDataset, target: &str, inputs: &Path) -> Result<String, String> {
    // The id is the longest prefix before a `.` or `[` that names a record.
    let mut cuts: Vec<usize> = target
        .char_indices()
        .filter(|(_, c)| *c == '.' || *c == '[')
        .map(|(i, _)| i)
        .collect();
    cuts.push(target.len());
    let found = cuts
        .iter()
        .rev()
        .find_map(|&i| find(ds, &target[..i]).map(|f| (f, &target[..i], &target[i..])));
    let Some((rec, id, field)) = found else {
        return Err(format!("{target}: no record with this id in the dataset"));
    };
    let path = parse_path(field).ok_or_else(|| format!("{field}: not a field path"))?;
    let value = crate::diff::dataset::element(&rec.value, &path.0, &rec.value)
        .ok_or_else(|| format!("{id}: no field {field}"))?;
    let name = rec
        .value
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or(id)
        .to_string();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}{} — {} {name:?}{}",
        id,
        if path.0.is_empty() {
            String::new()
        } else {
            format!(".{path}")
        },
        rec.kind,
        rec.value
            .get("faction")
            .and_then(Value::as_str)
            .map(|f| format!(", {f}"))
            .unwrap_or_default()
    );
    if !path.0.is_empty() {
        let _ = writeln!(o, "value: {}", compact(value));
    }

    // Sources.
    let sources: Vec<&Value> = rec
        .value
        .get("sources")
        .or_else(|| rec.value.get("occurrences"))
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let files: Vec<String> = sources
        .iter()
        .filter_map(|s| s.get("file").and_then(Value::as_str).map(str::to_string))
        .collect();
    let _ = writeln!(o, "\nsources ({}):", sources.len());
    for s in &sources {
        let (file, line) = (
            s.get("file").and_then(Value::as_str).unwrap_or("?"),
            s.get("line").and_then(Value::as_u64).unwrap_or(0),
        );
        let _ = writeln!(o, "  {file}:{line}{}", page_box(s));
        excerpt(
            &mut o,
            inputs,
            file,
            line,
            s.get("sha256").and_then(Value::as_str),
        );
    }
    let own_at = crate::diff::dataset::element(&rec.value, &path.0, &rec.value)
        .and_then(|_| deepest(&rec.value, &path, "at"));
    if let Some(at) = own_at {
        let (file, line) = (
            at.get("file").and_then(Value::as_str).unwrap_or("?"),
            at.get("line").and_then(Value::as_u64).unwrap_or(0),
        );
        let _ = writeln!(
            o,
            "\nthe value's own location: {file}:{line}{}",
            page_box(at)
        );
        excerpt(&mut o, inputs, file, line, None);
    } else if let Some(l) = deepest(&rec.value, &path, "line").and_then(Value::as_u64) {
        let _ = writeln!(
            o,
            "\nthe value's own location: line {l} of the source its list was taken from (the \
             sub-record carries a line, not yet its file)"
        );
    }

    // Normalization fixes in these files whose result occurs in the value.
    let text = value.to_string();
    let fixes: Vec<String> = ds
        .diagnostics
        .iter()
        .filter(|d| d.code.starts_with('N'))
        .filter(|d| d.file.as_ref().is_some_and(|f| files.contains(f)))
        .filter(|d| {
            d.message
                .rsplit_once(" -> ")
                .map(|(_, to)| to.split(" (").next().unwrap_or(to).trim_matches('\''))
                .is_some_and(|to| !to.is_empty() && text.contains(to))
        })
        .map(|d| {
            format!(
                "  {} {}: {}",
                d.code,
                d.file.as_deref().unwrap_or(""),
                d.message
            )
        })
        .collect();
    let _ = writeln!(o, "\nnormalization fixes ({}):", fixes.len());
    for f in fixes {
        let _ = writeln!(o, "{f}");
    }

    // Disagreements between sources and the policy that decided them.
    let top = path.top().unwrap_or("");
    let x110: Vec<String> = ds
        .diagnostics
        .iter()
        .filter(|d| d.code == "X110")
        .filter(|d| {
            d.message.starts_with(&format!("{name} {top}"))
                || top.is_empty() && d.message.starts_with(&format!("{name} "))
        })
        .filter(|d| files.is_empty() || d.file.as_ref().is_some_and(|f| files.contains(f)))
        .map(|d| format!("  X110 {}", d.message))
        .collect();
    let _ = writeln!(o, "\nother sources that disagreed ({}):", x110.len());
    for x in x110 {
        let _ = writeln!(o, "{x}");
    }
    if !top.is_empty() {
        if let Some(r) = rec.table.iter().find(|r| r.fields.contains(&top)) {
            let _ = writeln!(
                o,
                "\nmerge policy ({} `{top}`): wins {:?}; X110 {:?}; why: {}",
                rec.kind, r.wins, r.report, r.why
            );
        } else if rec.kind == "rule" {
            let _ = writeln!(o, "\nmerge policy: rules are merged by dedup (exact copies, truncated copies, variants)");
        }
    }
    if rec.kind == "datasheet" {
        reconciliation(&mut o, ds, id, &path);
    }
    Ok(o)
}

/// The datasheet's entries in `reconciliation.json` under the explained field: every field
/// of the group (`points`), of the item (`weapons[Storm bolter]`) or the one characteristic.
fn reconciliation(o: &mut String, ds: &LoadedDataset, id: &str, path: &FieldPath) {
    let Some(sheet) = ds.reconciliation.as_ref().and_then(|r| {
        r["datasheets"]
            .as_array()?
            .iter()
            .find(|d| d["id"].as_str() == Some(id))
    }) else {
        return;
    };
    let top = path.top().unwrap_or("");
    let item = match path.0.get(1) {
        Some(Segment::Key(k)) => Some(crate::reconcile::item_key(top, k)),
        _ => None,
    };
    let sub = match path.0.get(2) {
        Some(Segment::Field(f)) => Some(f.as_str()),
        _ => None,
    };
    let list = |v: &Value| -> String {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    let sources = list(&sheet["sources"]);
    let mut lines = Vec::new();
    for f in sheet["fields"].as_array().into_iter().flatten() {
        let name = f["field"].as_str().unwrap_or("");
        let (t, i, s) = crate::reconcile::split_path(name);
        let wanted = (top.is_empty() || t == top)
            && item.as_deref().map_or(true, |k| i == Some(k))
            && sub.map_or(true, |x| s == Some(x));
        if !wanted || (top.is_empty() && f["differ"].is_null()) {
            continue;
        }
        let mut line = format!(
            "  {name}: {} ({})",
            f["value"].as_str().unwrap_or("-"),
            list(&f["agree"])
        );
        for d in f["differ"].as_array().into_iter().flatten() {
            let _ = write!(
                line,
                "; {} {} — {}{}",
                d["source"].as_str().unwrap_or(""),
                d["value"].as_str().unwrap_or(""),
                d["category"].as_str().unwrap_or(""),
                d["note"]
                    .as_str()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            );
        }
        if !f["absent"].is_null() {
            let _ = write!(line, "; not printed by {}", list(&f["absent"]));
        }
        lines.push(line);
    }
    let _ = writeln!(
        o,
        "\nreconciliation ({sources}; {} field{}; reconciliation.json):",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" }
    );
    for l in lines {
        let _ = writeln!(o, "{l}");
    }
}

fn compact(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    shorten(&s, 300)
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

fn page_box(s: &Value) -> String {
    let mut o = String::new();
    if let Some(p) = s.get("page").and_then(Value::as_u64) {
        let _ = write!(o, " page {p}");
    }
    if let Some(b) = s.get("bbox") {
        let _ = write!(o, " box {b}");
    }
    o
}

/// Up to two lines of text from `line` of `inputs/file`, tags removed, each shortened.
fn excerpt(o: &mut String, inputs: &Path, file: &str, line: u64, sha: Option<&str>) {
    let path = inputs.join(file);
    let Ok(bytes) = std::fs::read(&path) else {
        let _ = writeln!(
            o,
            "      (no excerpt: {} not found; --inputs DIR)",
            path.display()
        );
        return;
    };
    if let Some(sha) = sha {
        if crate::source::sha256_hex(&bytes) != sha {
            let _ = writeln!(o, "      (the file changed since it was ingested)");
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut shown = 0;
    for l in text.lines().skip(line.saturating_sub(1) as usize) {
        let mut plain = String::new();
        let mut in_tag = false;
        for c in l.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => {
                    in_tag = false;
                    plain.push(' ');
                }
                c if !in_tag => plain.push(c),
                _ => {}
            }
        }
        let plain = plain.split_whitespace().collect::<Vec<_>>().join(" ");
        // Markup and page scripts are not the rules text.
        if plain.is_empty()
            || plain.contains(['{', '}', ';', '='])
            || !plain
                .chars()
                .any(|c| c.is_uppercase() || c.is_ascii_digit())
        {
            continue;
        }
        let _ = writeln!(o, "      | {}", shorten(&plain, 160));
        shown += 1;
        if shown == 2 {
            break;
        }
    }
}

/// The `field` of the deepest keyed element on `path` that has it (a sub-record's `at`).
fn deepest<'a>(rec: &'a Value, path: &FieldPath, field: &str) -> Option<&'a Value> {
    (1..=path.0.len())
        .rev()
        .filter(|n| matches!(path.0[n - 1], Segment::Key(_) | Segment::Index(_)))
        .find_map(|n| crate::diff::dataset::element(rec, &path.0[..n], rec)?.get(field))
}
