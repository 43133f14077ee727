//! `cogitator explain ID[.FIELD] [--dataset DIR] [--inputs DIR]`: where a record or one of its
//! values came from — every source that gave it (file, line, page and box), a short excerpt
//! of the raw text there, the normalization fixes applied in those files to that value, the
//! other sources that disagreed (`X110`), and which reading won and why (the row of the
//! merge policy table, `schemas/merge.yaml`).
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
use crate::discover::{read_regular, LastLink, Unread};
use crate::reconcile::conflict::RecordKind;
use crate::reconcile::merge::{table, FieldRule};
use serde_json::Value;
use std::collections::BTreeMap;
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
            Ok(if m.usage {
                super::EXIT_USAGE
            } else {
                super::EXIT_FINDINGS
            })
        }
    }
}

/// A record of the dataset as JSON, with its type and merge table.
struct Found {
    kind: &'static str,
    value: Value,
    table: &'static [FieldRule],
}

/// The record whose id is the longest prefix of `target` that ends at a `.`, a `[` or the
/// end, and that prefix's length. One pass over the dataset's ids (each compared once with
/// the start of `target`), so the work does not grow with the number of dots in `target`.
fn find(ds: &LoadedDataset, target: &str) -> Option<(Found, usize)> {
    fn best<'a, T: serde::Serialize + 'a>(
        v: impl IntoIterator<Item = (&'a str, &'a T)>,
        target: &str,
        cur: &mut Option<(usize, Value)>,
    ) -> bool {
        let mut hit = false;
        for (id, r) in v {
            let fits = target.starts_with(id)
                && matches!(target.as_bytes().get(id.len()), None | Some(b'.' | b'['));
            if fits && cur.as_ref().map_or(true, |(n, _)| id.len() > *n) {
                if let Ok(v) = serde_json::to_value(r) {
                    *cur = Some((id.len(), v));
                    hit = true;
                }
            }
        }
        hit
    }
    let mut cur = None;
    let mut kind: Option<(&'static str, &'static [FieldRule])> = None;
    let mut pick = |hit: bool, k: &'static str, t: &'static [FieldRule]| {
        if hit {
            kind = Some((k, t));
        }
    };
    pick(
        best(
            ds.datasheets.iter().map(|r| (r.id.as_str(), r)),
            target,
            &mut cur,
        ),
        "datasheet",
        table(RecordKind::Datasheet),
    );
    pick(
        best(
            ds.stratagems.iter().map(|r| (r.id.as_str(), r)),
            target,
            &mut cur,
        ),
        "stratagem",
        table(RecordKind::Stratagem),
    );
    pick(
        best(
            ds.enhancements.iter().map(|r| (r.id.as_str(), r)),
            target,
            &mut cur,
        ),
        "enhancement",
        table(RecordKind::Enhancement),
    );
    pick(
        best(
            ds.detachments.iter().map(|r| (r.id.as_str(), r)),
            target,
            &mut cur,
        ),
        "detachment",
        table(RecordKind::Detachment),
    );
    pick(
        best(
            ds.rules.iter().map(|r| (r.id.as_str(), r)),
            target,
            &mut cur,
        ),
        "rule",
        &[],
    );
    let ((kind, table), (n, value)) = (kind?, cur?);
    Some((Found { kind, value, table }, n))
}

/// `weapons[Heavy venom cannon].S` as a path (`[…]` keys may hold dots and brackets), in one
/// pass.
pub fn parse_path(s: &str) -> Option<FieldPath> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            // Brackets nest: `models[Medusa [Legends]].Sv`.
            let mut depth = 0usize;
            let end = r.char_indices().find_map(|(i, c)| {
                match c {
                    '[' => depth += 1,
                    ']' if depth == 0 => return Some(i),
                    ']' => depth -= 1,
                    _ => {}
                }
                None
            })?;
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

/// Why `explain` gave no explanation: the id or field is not in the dataset (exit 1) or the
/// target is not an id and field path at all (`usage`, exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub usage: bool,
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn not_found(message: String) -> Failure {
    Failure {
        usage: false,
        message,
    }
}

/// Explains `target` (`ID` or `ID.FIELD…`) in `ds`; `Err` when it is not there.
pub fn explain(ds: &LoadedDataset, target: &str, inputs: &Path) -> Result<String, Failure> {
    // The id is the longest prefix before a `.` or `[` that names a record.
    let Some((rec, cut)) = find(ds, target) else {
        return Err(not_found(format!(
            "{target}: no record with this id in the dataset"
        )));
    };
    let (id, field) = target.split_at(cut);
    let path = parse_path(field).ok_or_else(|| Failure {
        usage: true,
        message: format!("{field}: not a field path (FIELD, FIELD[NAME], FIELD[NAME].FIELD …)"),
    })?;
    let walk = walk(&rec.value, &path).map_err(|m| not_found(format!("{id}: {m}")))?;
    let (path, value) = (walk.path, walk.value);
    let name = crate::diff::dataset::label(&rec.value, id);
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
    let inputs = &Inputs::new(inputs, ds, &sources);
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
    errata_applied(&mut o, ds, id);
    let own_at = walk.at;
    if let Some(at) = own_at {
        let (file, line) = (
            at.get("file").and_then(Value::as_str).unwrap_or("?"),
            at.get("line").and_then(Value::as_u64).unwrap_or(0),
        );
        let text = inputs
            .read(file, None)
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        // A characteristic is on its own line below the sub-record's start (a profile's
        // `M`, `T` … each on one), found in the verified text.
        let spot = match (&text, &walk.holder) {
            (Ok(t), Some((h, f))) => {
                let next = next_start(&rec.value, file, line);
                value_spot(t, line..next.unwrap_or(u64::MAX), h, f)
            }
            _ => None,
        };
        let _ = writeln!(
            o,
            "\nthe value's own location: {file}:{}{}{}",
            spot.map_or(line, |s| s.0),
            page_box(at),
            match spot {
                Some((l, _)) if l != line => format!(" (its {} starts at line {line})", walk.item),
                _ => String::new(),
            }
        );
        match (text, spot) {
            (Ok(t), Some((l, c))) => show_at(&mut o, &t, l, c),
            (Ok(t), None) => show(&mut o, &t, line),
            (Err(why), _) => {
                let _ = writeln!(o, "      (no excerpt: {why})");
            }
        }
    } else if let Some(l) = walk.line.and_then(Value::as_u64) {
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
        if let Some(r) = rec.table.iter().find(|r| r.covers(top)) {
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
        Some(Segment::Key(k)) => Some(crate::compare::view::item_key(top, k)),
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
        let (t, i, s) = crate::compare::view::split_path(name);
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
        "\nreconciliation ({sources}; {}; reconciliation.json):",
        super::plural(lines.len(), "field", "fields")
    );
    for l in lines {
        let _ = writeln!(o, "{l}");
    }
}

fn compact(v: &Value) -> String {
    shorten(&crate::diff::show(v), 300)
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

/// The source files under `--inputs`, read only as the dataset recorded them: a relative path
/// resolved inside the root (no absolute path, `..` or symlink out of it), a regular file (no
/// device or FIFO), at most the recorded size, with the recorded sha256.
struct Inputs<'a> {
    root: &'a Path,
    /// The sha256 and size the dataset records for each file (sources, then the manifest).
    known: BTreeMap<&'a str, (&'a str, Option<u64>)>,
}

impl<'a> Inputs<'a> {
    fn new(root: &'a Path, ds: &'a LoadedDataset, sources: &[&'a Value]) -> Self {
        let mut known = BTreeMap::new();
        for i in ds.manifest.iter().flat_map(|m| &m.inputs) {
            known.insert(i.file.as_str(), (i.sha256.as_str(), Some(i.bytes)));
        }
        for s in sources {
            if let (Some(f), Some(h)) = (
                s.get("file").and_then(Value::as_str),
                s.get("sha256").and_then(Value::as_str),
            ) {
                let bytes = known.get(f).filter(|(m, _)| *m == h).and_then(|k| k.1);
                known.insert(f, (h, bytes));
            }
        }
        Inputs { root, known }
    }

    /// The bytes of `file`, or why they are not shown.
    fn read(&self, file: &str, sha: Option<&str>) -> Result<Vec<u8>, String> {
        let (sha, bytes) = match (sha, self.known.get(file)) {
            (Some(h), Some((k, b))) => (h, if *k == h { *b } else { None }),
            (Some(h), None) => (h, None),
            (None, Some((k, b))) => (*k, *b),
            (None, None) => return Err("the dataset records no sha256 for this file".into()),
        };
        let path = self.resolve(file)?;
        let cap = bytes.unwrap_or(crate::discover::DEFAULT_MAX_FILE_SIZE);
        let buf = read_regular(&path, cap, LastLink::Refuse).map_err(|e| match e {
            Unread::NotRegular(_) => "not a regular file".to_string(),
            Unread::Io(_) => "not readable".to_string(),
        })?;
        if bytes.is_some_and(|b| b != buf.len() as u64) {
            return Err("the file changed since it was ingested (size differs)".into());
        }
        if buf.len() as u64 > cap {
            return Err("the file is larger than the dataset records".into());
        }
        if crate::source::sha256_hex(&buf) != sha {
            return Err("the file changed since it was ingested (sha256 differs)".into());
        }
        Ok(buf)
    }

    /// `file` under the root, component by component: only plain names, and the real path
    /// (symlinks followed) still inside the root.
    fn resolve(&self, file: &str) -> Result<PathBuf, String> {
        let outside = || "not a path inside --inputs".to_string();
        let rel = Path::new(file);
        if file.is_empty()
            || file.contains('\0')
            || !rel
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
            || file
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..")
        {
            return Err(outside());
        }
        let root = self
            .root
            .canonicalize()
            .map_err(|_| "--inputs DIR not found".to_string())?;
        let real = root
            .join(rel)
            .canonicalize()
            .map_err(|_| "not found; --inputs DIR".to_string())?;
        if !real.starts_with(&root) {
            return Err(outside());
        }
        Ok(real)
    }
}

/// Up to two lines of text from `line` of `file` under `--inputs`, tags removed, each
/// shortened; nothing from a file that is not the one the dataset was made from.
fn excerpt(o: &mut String, inputs: &Inputs, file: &str, line: u64, sha: Option<&str>) {
    match inputs.read(file, sha) {
        Ok(b) => show(o, &String::from_utf8_lossy(&b), line),
        Err(why) => {
            let _ = writeln!(o, "      (no excerpt: {why})");
        }
    }
}

/// Up to two lines of rules text from `line` of `text` (markup and page scripts skipped).
fn show(o: &mut String, text: &str, line: u64) {
    let mut shown = 0;
    for l in text.lines().skip(line.saturating_sub(1) as usize) {
        let plain = plain(l);
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

/// The text of one source line (`explain`'s excerpts): [`crate::decode::line_text`].
fn plain(l: &str) -> String {
    crate::decode::line_text(l)
}

/// How far below a sub-record's `at` its values are looked for, and how far apart two of its
/// consecutive values may be (lines).
const SUB_RECORD_LINES: usize = 400;
const VALUE_GAP_LINES: usize = 16;

/// Where field `field` of sub-record `holder` is printed in `text`, in `lines` (from the
/// sub-record's `at` to where the next one starts): the sub-record's short values are found in their order (a profile prints `M`, `T`,
/// `Sv` … in that order, one a line in a dump or a BattleScribe file, all on one line in some
/// pages), each after the one before, so a value that also occurs earlier (`3+` for `Sv` and
/// `Ld`) is found at its own place. The 1-based line and the character at which it starts in
/// [`plain`]'s text of that line; `None` when the value is not printed there as it is stored.
fn value_spot(
    text: &str,
    lines: std::ops::Range<u64>,
    holder: &Value,
    field: &str,
) -> Option<(u64, usize)> {
    let line = lines.start;
    let short = |v: &Value| match v {
        Value::String(s) if !s.trim().is_empty() && s.chars().count() <= 40 => {
            Some(crate::text::fold::fold_value(s))
        }
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let seq: Vec<(&str, String)> = holder
        .as_object()?
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "name" | "type" | "at" | "line"))
        .filter_map(|(k, v)| Some((k.as_str(), short(v)?)))
        .collect();
    let end = seq.iter().position(|(k, _)| *k == field)?;
    let first = usize::try_from(line.saturating_sub(1)).ok()?;
    let lines: Vec<Vec<char>> = text
        .lines()
        .skip(first)
        .take(SUB_RECORD_LINES.min(usize::try_from(lines.end - line).unwrap_or(usize::MAX)))
        .map(|l| plain(l).chars().map(fold_char).collect())
        .collect();
    let (mut at_line, mut at_col) = (0usize, 0usize);
    for (k, v) in &seq[..=end] {
        let v: Vec<char> = v.chars().collect();
        let window = at_line..lines.len().min(at_line + VALUE_GAP_LINES);
        // As stored, else as printed before normalization (`4` for `4+`, `20"+` for `20+"`).
        let found = [false, true].into_iter().find_map(|loose| {
            window.clone().find_map(|i| {
                let from = if i == at_line { at_col } else { 0 };
                find_cell(lines.get(i)?, &v, from, loose).map(|(c, e)| (i, c, e))
            })
        });
        match found {
            Some((i, c, _)) if *k == field => return Some((line + i as u64, c)),
            Some((i, _, e)) => (at_line, at_col) = (i, e),
            None if *k == field => return None,
            None => {}
        }
    }
    None
}

/// The first line after `line` where another sub-record of `rec` read from `file` starts:
/// the values of the one at `line` are above it.
fn next_start(rec: &Value, file: &str, line: u64) -> Option<u64> {
    let mut next: Option<u64> = None;
    let mut stack = vec![rec];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if let Some(at) = o.get("at") {
                    if at.get("file").and_then(Value::as_str) == Some(file) {
                        if let Some(l) =
                            at.get("line").and_then(Value::as_u64).filter(|l| *l > line)
                        {
                            next = Some(next.map_or(l, |n| n.min(l)));
                        }
                    }
                }
                stack.extend(o.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    next
}

/// One character folded as values are ([`crate::text::fold::fold_value`]), one for one.
fn fold_char(c: char) -> char {
    match crate::text::fold::class(c) {
        crate::text::fold::Class::Times => 'x',
        _ => crate::text::fold::ascii(c),
    }
}

/// The first place at or after `from` where `word` stands in `hay` as a whole cell (nothing
/// or a space, `(`, `[` before it; nothing or a space, `,`, `)`, `]` after it): its start and
/// end. `loose`: a one-word cell whose letters and digits are the word's (`4` for `4+`).
fn find_cell(hay: &[char], word: &[char], from: usize, loose: bool) -> Option<(usize, usize)> {
    let starts = |i: usize| i == 0 || matches!(hay.get(i - 1), Some(' ' | '(' | '['));
    let ends = |i: usize| matches!(hay.get(i), None | Some(' ' | ',' | ')' | ']'));
    if !loose {
        if word.is_empty() || hay.len() < word.len() {
            return None;
        }
        return (from..=hay.len() - word.len())
            .find(|&i| {
                hay.get(i..i + word.len()) == Some(word) && starts(i) && ends(i + word.len())
            })
            .map(|i| (i, i + word.len()));
    }
    let key =
        |w: &[char]| -> Vec<char> { w.iter().copied().filter(|c| c.is_alphanumeric()).collect() };
    let want = key(word);
    if want.is_empty() || word.contains(&' ') {
        return None;
    }
    (from..hay.len()).filter(|&i| starts(i)).find_map(|i| {
        let e = (i..=hay.len()).find(|&e| ends(e))?;
        (e > i && key(hay.get(i..e)?) == want).then_some((i, e))
    })
}

/// The text of `line` around character `col` (the value's own line), shortened to about 160
/// characters with the value in view.
fn show_at(o: &mut String, text: &str, line: u64, col: usize) {
    let Some(l) = usize::try_from(line.saturating_sub(1))
        .ok()
        .and_then(|n| text.lines().nth(n))
    else {
        return;
    };
    let chars: Vec<char> = plain(l).chars().collect();
    let start = col.saturating_sub(60).min(chars.len());
    let end = (start + 160).min(chars.len());
    let _ = writeln!(
        o,
        "      | {}{}{}",
        if start > 0 { "…" } else { "" },
        chars
            .get(start..end)
            .unwrap_or(&[])
            .iter()
            .collect::<String>(),
        if end < chars.len() { "…" } else { "" }
    );
}

/// The value at a field path in a record, the path as the record spells it, and the deepest
/// `at` and `line` of the sub-records on the way.
struct Walk<'a> {
    value: &'a Value,
    path: FieldPath,
    at: Option<&'a Value>,
    line: Option<&'a Value>,
    /// The object holding the last field of the path and that field (`M` of a model).
    holder: Option<(&'a Value, String)>,
    /// What the deepest keyed element is, for people (`weapon`, `model`, `entry`).
    item: &'static str,
}

/// Follows `path` in `rec` once, segment by segment. A field or a sub-record's name (a weapon,
/// a points tier, an ability) that is not spelled as in the record matches ignoring case when
/// only one does; otherwise the error names the nearest ones.
fn walk<'a>(rec: &'a Value, path: &FieldPath) -> Result<Walk<'a>, String> {
    let mut w = Walk {
        value: rec,
        path: FieldPath(Vec::with_capacity(path.0.len())),
        at: None,
        line: None,
        holder: None,
        item: "entry",
    };
    for s in &path.0 {
        let here = if w.path.0.is_empty() {
            "the record".to_string()
        } else {
            w.path.to_string()
        };
        let seg = match s {
            Segment::Field(f) => {
                let o = w
                    .value
                    .as_object()
                    .ok_or_else(|| format!("no field {f} in {here} (not an object)"))?;
                let names: Vec<&str> = o.keys().map(String::as_str).collect();
                let k = pick_name(&names, f).map_err(|m| format!("no field {f} in {here}{m}"))?;
                w.holder = Some((w.value, k.to_string()));
                w.value = o.get(k).ok_or_else(|| format!("no field {f} in {here}"))?;
                Segment::Field(k.to_string())
            }
            Segment::Key(k) => {
                let xs = w
                    .value
                    .as_array()
                    .ok_or_else(|| format!("no [{k}] in {here} (not a list)"))?;
                let (keys, _) = crate::diff::keys(xs, &[])
                    .ok_or_else(|| format!("no [{k}] in {here} (not a list of named items)"))?;
                let names: Vec<&str> = keys.iter().map(String::as_str).collect();
                let name = pick_name(&names, k).map_err(|m| format!("no [{k}] in {here}{m}"))?;
                let i = names.iter().position(|n| *n == name).unwrap_or(0);
                w.value = xs.get(i).ok_or_else(|| format!("no [{k}] in {here}"))?;
                Segment::Key(name.to_string())
            }
            Segment::Index(i) => {
                w.value = w
                    .value
                    .as_array()
                    .and_then(|a| a.get(*i))
                    .ok_or_else(|| format!("no [{i}] in {here}"))?;
                Segment::Index(*i)
            }
        };
        if !matches!(seg, Segment::Field(_)) {
            w.holder = None;
            w.item = match w.path.0.last() {
                Some(Segment::Field(f)) if f == "models" => "model profile",
                Some(Segment::Field(f)) if f == "weapons" => "weapon profile",
                _ => "entry",
            };
            w.at = w.value.get("at").or(w.at);
            w.line = w.value.get("line").or(w.line);
        }
        w.path.0.push(seg);
    }
    Ok(w)
}

/// `wanted` among `names`: as spelled, else the one name equal ignoring case; `Err` says which
/// names come nearest (`; nearest: Storm bolter, Bolt pistol`).
fn pick_name<'n>(names: &[&'n str], wanted: &str) -> Result<&'n str, String> {
    if let Some(n) = names.iter().find(|n| **n == wanted) {
        return Ok(n);
    }
    let low = wanted.to_lowercase();
    let same: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.to_lowercase() == low)
        .collect();
    match same[..] {
        [one] => return Ok(one),
        [_, _, ..] => {
            return Err(format!(
                "; several differ only in case: {}",
                same.join(", ")
            ))
        }
        [] => {}
    }
    let mut near: Vec<(f64, &str)> = names
        .iter()
        .map(|n| {
            let l = n.to_lowercase();
            let contains = !low.is_empty() && (l.contains(&low) || low.contains(&l));
            let score = strsim::normalized_damerau_levenshtein(&l, &low);
            (if contains { score + 1.0 } else { score }, *n)
        })
        .filter(|(score, _)| *score >= 0.4)
        .collect();
    near.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    near.truncate(5);
    Err(if near.is_empty() {
        String::new()
    } else {
        format!(
            "; nearest: {}",
            near.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
        )
    })
}

/// The errata the merge applied to record `id` (`errata`): `erratum <id> (Index
/// Cards 1.2, p3): Change AP to ‘-2’.`, one line each.
fn errata_applied(o: &mut String, ds: &LoadedDataset, id: &str) {
    let applied: Vec<&crate::model::Erratum> = ds
        .errata
        .iter()
        .filter(|e| e.applied_to.iter().any(|a| a == id))
        .collect();
    if applied.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nerrata applied ({}):", applied.len());
    for e in applied {
        let p = &e.publication;
        let publication = [p.title.as_deref(), p.version.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let page = e
            .sources
            .first()
            .and_then(|s| s.page)
            .map(|n| format!(", p{n}"))
            .unwrap_or_default();
        let instruction = e
            .instruction
            .as_deref()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("");
        let _ = writeln!(
            o,
            "  erratum {} ({publication}{page}): {} – {}: {instruction}",
            e.id, e.target_printed, e.section
        );
    }
}
