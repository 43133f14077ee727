//! The one typed diff engine: what changed between two readings of a record, or two lists of
//! records, as [`Change`]s `{ record id, kind, field path, old, new }`, each with the
//! positions of the sub-records it is within in each reading (so that a user finds them, to
//! locate the change or weigh the weapon it is in, without pairing keys again).
//!
//! Records are compared as their serialized [`serde_json::Value`], so the engine does not
//! know record shapes and works for every record type and edition. Arrays of named
//! sub-records are matched by key, not by index ([`key_of`]: weapons by `name`, models and
//! abilities by `name`, points by `models`, sources by `file`, model keywords by `model`, priced
//! wargear by `item`), so a
//! re-ordered list is no change and a removed weapon is one change `weapons[X]: removed`;
//! arrays of scalars (keywords) are sets, and give one change per element added or removed.
//! Fields to ignore (provenance) are an [`Options`] choice.
//!
//! Used by `merge` (the `X110` conflicts) and by `cogitator diff`: [`dataset`] is the diff of
//! two datasets in the game's terms (categories, renames, weights, locations), [`policy`] the
//! gate. `crosscheck` decides which paired values of a dataset and the export agree with it.
//! Pure: must not decide which value wins (that is `merge`'s policy table), do I/O, or know
//! diagnostic codes.

pub mod dataset;
pub mod policy;

use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// What happened to the thing at a path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Only in the new reading (`old` is `None`).
    Added,
    /// Only in the old reading (`new` is `None`).
    Removed,
    /// In both, with other values.
    #[default]
    Changed,
    /// A whole record under another id: one only in OLD and one only in NEW paired by content
    /// ([`dataset`]'s renames; the engine compares one record and never gives it).
    Renamed,
}

/// One step of a [`FieldPath`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    /// An object field: `points`.
    Field(String),
    /// An element of a keyed array: `[Storm bolter]`, `[2 models]`.
    Key(String),
    /// An element of an array with no key, by position.
    Index(usize),
}

/// Where in a record: `weapons[Storm bolter].keywords`. Empty for a whole record.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldPath(pub Vec<Segment>);

impl FieldPath {
    fn with(&self, s: Segment) -> FieldPath {
        let mut v = self.0.clone();
        v.push(s);
        FieldPath(v)
    }

    /// The first field name (`weapons` in `weapons[X].keywords`), if any.
    pub fn top(&self) -> Option<&str> {
        match self.0.first() {
            Some(Segment::Field(f)) => Some(f),
            _ => None,
        }
    }

    /// The path for people: `weapons › Storm bolter › keywords`. A last field that repeats the
    /// list it is in (`points › 2 models › points`) is dropped.
    pub fn human(&self) -> String {
        let mut parts: Vec<String> = self
            .0
            .iter()
            .map(|s| match s {
                Segment::Field(f) | Segment::Key(f) => f.clone(),
                Segment::Index(i) => format!("#{}", i + 1),
            })
            .collect();
        if let [.., Segment::Field(list), Segment::Key(_), Segment::Field(last)] = &self.0[..] {
            if list == last {
                parts.pop();
            }
        }
        parts.join(" › ")
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, s) in self.0.iter().enumerate() {
            match s {
                Segment::Field(name) if n > 0 => write!(f, ".{name}")?,
                Segment::Field(name) => f.write_str(name)?,
                Segment::Key(k) => write!(f, "[{k}]")?,
                Segment::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// One difference between two readings.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The record's id (its `id` field; empty when it has none).
    pub record: String,
    pub kind: ChangeKind,
    pub path: FieldPath,
    pub old: Option<Value>,
    pub new: Option<Value>,
    /// The positions in their lists of the sub-records (list elements) the path goes through
    /// in each reading (OLD, NEW), outermost first, as far as that reading has them; an
    /// element added or removed is its reading's last.
    pub within: [Vec<usize>; 2],
}

impl Change {
    /// `Carnifexes › points › 2 models: 230 → 180`, `… › keywords: − RAPID FIRE 2`, with
    /// `label` (a record's name) in place of its id. A whole element or record added or
    /// removed shows its values ([`values`]: `Raveners › points › 5 models: added (115)`); a
    /// changed long text shows the changed words in a little context ([`word_diff`]).
    pub fn human(&self, label: &str) -> String {
        let path = self.path.human();
        let head = if path.is_empty() {
            label.to_string()
        } else {
            format!("{label} › {path}")
        };
        let whole_element = matches!(self.path.0.last(), Some(Segment::Key(_)) | None);
        // The list an element is in (`points` for `points[5 models]`).
        let list = match &self.path.0[..] {
            [.., Segment::Field(l), Segment::Key(_)] => Some(l.as_str()),
            _ => None,
        };
        let with_values = |word: &str, v: &Value| match values(v, list) {
            s if s.is_empty() => format!("{head}: {word}"),
            s => format!("{head}: {word} ({s})"),
        };
        match (self.kind, &self.old, &self.new) {
            (ChangeKind::Added, _, Some(v)) if !whole_element => format!("{head}: + {}", show(v)),
            (ChangeKind::Removed, Some(v), _) if !whole_element => {
                format!("{head}: − {}", show(v))
            }
            (ChangeKind::Added, _, Some(v)) => with_values("added", v),
            (ChangeKind::Removed, Some(v), _) => with_values("removed", v),
            (ChangeKind::Added, _, _) => format!("{head}: added"),
            (ChangeKind::Removed, _, _) => format!("{head}: removed"),
            (ChangeKind::Changed, Some(Value::String(a)), Some(Value::String(b)))
                if a.chars().count().max(b.chars().count()) > WORD_DIFF_ABOVE =>
            {
                format!("{head}: {}", word_diff(a, b))
            }
            (ChangeKind::Changed | ChangeKind::Renamed, o, n) => {
                let [o, n] = [o, n].map(|v| show(v.as_ref().unwrap_or(&Value::Null)));
                format!("{head}: {o} → {n}")
            }
        }
    }
}

/// A value for people: strings without quotes, the rest as compact JSON.
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Longest text (in characters) shown whole as `old → new`; longer texts are shown as a word
/// diff.
pub const WORD_DIFF_ABOVE: usize = 60;

/// Longest text (in characters) of [`word_diff`] and [`values`]; beyond it, `…`.
pub const SHOWN_CHARS: usize = 240;

/// Unchanged words kept on each side of a change by [`word_diff`].
const CONTEXT_WORDS: usize = 3;

/// `s` cut to `max` characters (on a character boundary), with `…` when cut.
pub fn bounded(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s[..i].trim_end()),
        None => s.to_string(),
    }
}

/// The changed words of two texts with a little unchanged context, whitespace folded:
/// `… can re-roll [-Hit-] {+Wound+} rolls of 1 …`; at most [`SHOWN_CHARS`] characters.
pub fn word_diff(old: &str, new: &str) -> String {
    use similar::{ChangeTag, TextDiff};
    /// A run of unchanged words, or one change (words removed, words added).
    enum Piece {
        Same(Vec<String>),
        Change(Vec<String>, Vec<String>),
    }
    let diff = TextDiff::from_words(old, new);
    let mut pieces: Vec<Piece> = Vec::new();
    for c in diff.iter_all_changes() {
        let words = c.value().split_whitespace().map(str::to_string);
        match (c.tag(), pieces.last_mut()) {
            // Whitespace between two changes joins them.
            (ChangeTag::Equal, _) if c.value().trim().is_empty() => {}
            (ChangeTag::Equal, Some(Piece::Same(w))) => w.extend(words),
            (ChangeTag::Equal, _) => pieces.push(Piece::Same(words.collect())),
            (ChangeTag::Delete, Some(Piece::Change(d, _))) => d.extend(words),
            (ChangeTag::Insert, Some(Piece::Change(_, i))) => i.extend(words),
            (ChangeTag::Delete, _) => pieces.push(Piece::Change(words.collect(), Vec::new())),
            (ChangeTag::Insert, _) => pieces.push(Piece::Change(Vec::new(), words.collect())),
        }
    }
    let n = pieces.len();
    let mut out: Vec<String> = Vec::new();
    for (k, p) in pieces.into_iter().enumerate() {
        match p {
            Piece::Same(w) if w.is_empty() => {}
            Piece::Same(w) => {
                // Context after the change before, and before the change after.
                let head = if k == 0 { 0 } else { CONTEXT_WORDS };
                let tail = if k + 1 == n { 0 } else { CONTEXT_WORDS };
                if w.len() <= head + tail {
                    out.push(w.join(" "));
                    continue;
                }
                let cut = [
                    w[..head].join(" "),
                    "…".into(),
                    w[w.len() - tail..].join(" "),
                ];
                out.extend(cut.into_iter().filter(|p| !p.is_empty()));
            }
            Piece::Change(d, i) => {
                let deleted = (!d.is_empty()).then(|| format!("[-{}-]", d.join(" ")));
                let inserted = (!i.is_empty()).then(|| format!("{{+{}+}}", i.join(" ")));
                out.extend(deleted.into_iter().chain(inserted));
            }
        }
    }
    if out.is_empty() {
        // Only whitespace changed.
        return "whitespace changed".into();
    }
    bounded(&out.join(" "), SHOWN_CHARS)
}

/// The values of a whole element or record for people, provenance, its id and its key left
/// out, `points` and `cp` first: `115` (a points tier in `points`), `type ranged; range 24";
/// A 2; …`, `points 1 model 115, 2 models 230; …`; at most [`SHOWN_CHARS`] characters.
/// `list` is the name of the list the element is in: a field of that name is shown alone.
pub fn values(v: &Value, list: Option<&str>) -> String {
    let skipped =
        |f: &str| PROVENANCE_FIELDS.contains(&f) || ["id", "edition", "faction"].contains(&f);
    let Some(o) = v.as_object() else {
        return bounded(&show(v), SHOWN_CHARS);
    };
    let key_field = KEY_FIELDS.iter().find(|k| o.contains_key(**k)).copied();
    let shown = |v: &Value| -> Option<String> {
        match v {
            Value::Null => None,
            Value::String(s) if s.trim().is_empty() => None,
            Value::Array(a) if a.is_empty() => None,
            Value::Array(a) => Some(
                a.iter()
                    .map(|e| match (key_of(e), e.as_object()) {
                        // A keyed element with one value besides its key: `2 models 230`.
                        (Some(k), Some(eo)) => {
                            let rest: Vec<String> = eo
                                .iter()
                                .filter(|(f, _)| !KEY_FIELDS.contains(&f.as_str()) && !skipped(f))
                                .map(|(_, v)| show(v))
                                .collect();
                            match &rest[..] {
                                [one] => format!("{k} {one}"),
                                _ => k,
                            }
                        }
                        _ => show(e),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            other => Some(show(other)),
        }
    };
    let first = ["points", "cp"];
    let fields = first
        .iter()
        .filter_map(|f| o.get_key_value(*f))
        .chain(o.iter().filter(|(k, _)| !first.contains(&k.as_str())));
    let parts: Vec<String> = fields
        .filter(|(k, _)| !skipped(k) && Some(k.as_str()) != key_field)
        .filter_map(|(k, v)| match shown(v)? {
            s if Some(k.as_str()) == list => Some(s),
            s => Some(format!("{k} {s}")),
        })
        .collect();
    bounded(&parts.join("; "), SHOWN_CHARS)
}

/// Field names that are provenance at any depth: a record's `sources` and `occurrences`, the
/// location of a sub-record (`at`; `line` in contract-v1 datasets).
pub const PROVENANCE_FIELDS: [&str; 4] = ["sources", "occurrences", "line", "at"];

/// What to leave out of a comparison (by default nothing).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Field names ignored at any depth.
    pub ignore: BTreeSet<String>,
}

impl Options {
    /// Leave out provenance ([`PROVENANCE_FIELDS`]).
    pub fn without_provenance() -> Self {
        Options {
            ignore: PROVENANCE_FIELDS.map(String::from).into(),
        }
    }
}

/// The differences between two JSON values of record `record`.
pub fn diff_values(record: &str, a: &Value, b: &Value, opts: &Options) -> Vec<Change> {
    diff_readings(record, Some(a), Some(b), opts)
}

/// [`diff_values`] of a record in either reading or both: a record in one reading only is one
/// change, `added` or `removed`, with an empty path.
pub fn diff_readings(
    record: &str,
    a: Option<&Value>,
    b: Option<&Value>,
    opts: &Options,
) -> Vec<Change> {
    let mut out = Vec::new();
    let mut d = Differ {
        record,
        opts,
        out: &mut out,
        within: Vec::new(),
    };
    d.element(FieldPath::default(), a.map(|v| (0, v)), b.map(|v| (0, v)));
    out
}

pub(crate) fn id_of(v: &Value) -> Option<String> {
    v.get("id").and_then(Value::as_str).map(str::to_string)
}

/// Fields that name an element of a list of sub-records, in order of preference.
const KEY_FIELDS: &[&str] = &["name", "models", "model", "file", "item"];

/// The key of an object in a list: `Storm bolter`, `2 models` (points), `a.html` (sources).
pub fn key_of(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    KEY_FIELDS.iter().find_map(|k| match (o.get(*k)?, *k) {
        (Value::Number(n), "models") => Some(match n.as_u64() {
            Some(1) => "1 model".to_string(),
            _ => format!("{n} models"),
        }),
        (Value::String(s), _) => Some(s.clone()),
        (Value::Number(n), _) => Some(n.to_string()),
        _ => None,
    })
}

/// Keys for every element of both lists, unique within each list, or `None` when the lists
/// are not lists of keyed objects. A name two elements share gets the `type` (`Storm bolter
/// (melee)`), then an occurrence number.
pub(crate) fn keys(a: &[Value], b: &[Value]) -> Option<(Vec<String>, Vec<String>)> {
    if a.is_empty() && b.is_empty() {
        return None;
    }
    let base = |v: &[Value]| -> Option<Vec<String>> { v.iter().map(key_of).collect() };
    let (ka, kb) = (base(a)?, base(b)?);
    // A name shared within either list is qualified in both, so the lists still pair up.
    let mut shared: BTreeSet<&String> = BTreeSet::new();
    for k in [&ka, &kb] {
        let mut seen = BTreeSet::new();
        shared.extend(k.iter().filter(|x| !seen.insert(*x)));
    }
    let unique = |v: &[Value], k: &[String]| -> Vec<String> {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        k.iter()
            .zip(v)
            .map(|(k, v)| {
                let k = match v.get("type").and_then(Value::as_str) {
                    Some(t) if shared.contains(k) => format!("{k} ({t})"),
                    _ => k.clone(),
                };
                let n = seen.entry(k.clone()).or_default();
                *n += 1;
                if *n > 1 {
                    format!("{k} #{n}")
                } else {
                    k
                }
            })
            .collect()
    };
    Some((unique(a, &ka), unique(b, &kb)))
}

struct Differ<'a> {
    record: &'a str,
    opts: &'a Options,
    out: &'a mut Vec<Change>,
    /// The positions of the elements entered (OLD, NEW), the record first.
    within: Vec<[Option<usize>; 2]>,
}

impl Differ<'_> {
    fn push(
        &mut self,
        kind: ChangeKind,
        path: FieldPath,
        old: Option<&Value>,
        new: Option<&Value>,
    ) {
        let within = [0, 1].map(|side| self.within.iter().skip(1).map_while(|e| e[side]).collect());
        self.out.push(Change {
            record: self.record.to_string(),
            kind,
            path,
            old: old.cloned(),
            new: new.cloned(),
            within,
        });
    }

    fn value(&mut self, path: &FieldPath, a: &Value, b: &Value) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let names = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
                for k in names {
                    if self.opts.ignore.contains(k) {
                        continue;
                    }
                    // An absent field reads as null (datasets written before it existed).
                    let [va, vb] = [x, y].map(|o| o.get(k).unwrap_or(&Value::Null));
                    self.value(&path.with(Segment::Field(k.clone())), va, vb);
                }
            }
            (Value::Array(x), Value::Array(y)) => self.array(path, x, y),
            _ if a == b => {}
            _ => self.push(ChangeKind::Changed, path.clone(), Some(a), Some(b)),
        }
    }

    fn array(&mut self, path: &FieldPath, a: &[Value], b: &[Value]) {
        let scalar = |v: &Value| !matches!(v, Value::Object(_) | Value::Array(_));
        if a.iter().chain(b).all(scalar) {
            // A set: one change per element only on one side.
            let [sa, sb] = [a, b].map(|l| l.iter().map(|v| v.to_string()).collect::<BTreeSet<_>>());
            let mut seen = BTreeSet::new();
            for v in a.iter().filter(|v| !sb.contains(&v.to_string())) {
                if seen.insert(v.to_string()) {
                    self.push(ChangeKind::Removed, path.clone(), Some(v), None);
                }
            }
            for v in b.iter().filter(|v| !sa.contains(&v.to_string())) {
                if seen.insert(v.to_string()) {
                    self.push(ChangeKind::Added, path.clone(), None, Some(v));
                }
            }
            return;
        }
        if let Some((ka, kb)) = keys(a, b) {
            let ia: BTreeMap<&String, (usize, &Value)> =
                ka.iter().zip(a.iter().enumerate()).collect();
            let ib: BTreeMap<&String, (usize, &Value)> =
                kb.iter().zip(b.iter().enumerate()).collect();
            let key = |k: &String| path.with(Segment::Key(k.clone()));
            for (k, va) in &ia {
                self.element(key(k), Some(*va), ib.get(k).copied());
            }
            for (k, vb) in ib.iter().filter(|(k, _)| !ia.contains_key(*k)) {
                self.element(key(k), None, Some(*vb));
            }
            return;
        }
        for i in 0..a.len().max(b.len()) {
            let [x, y] = [a, b].map(|l| l.get(i).map(|v| (i, v)));
            self.element(path.with(Segment::Index(i)), x, y);
        }
    }

    /// An element of a list at `path` (or the record), in either reading or both, with its
    /// position in its list.
    fn element(&mut self, path: FieldPath, a: Option<(usize, &Value)>, b: Option<(usize, &Value)>) {
        self.within.push([a.map(|e| e.0), b.map(|e| e.0)]);
        let [a, b] = [a, b].map(|e| e.map(|e| e.1));
        match (a, b) {
            (Some(x), Some(y)) => self.value(&path, x, y),
            (Some(_), None) => self.push(ChangeKind::Removed, path, a, None),
            (None, Some(_)) => self.push(ChangeKind::Added, path, None, b),
            (None, None) => {}
        }
        self.within.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn carnifexes(points: u32) -> Value {
        json!({"id": "10e:tyranids:carnifexes", "points": [
            {"models": 1, "points": 115}, {"models": 2, "points": points}],
            "sources": [{"file": "a.html", "line": 1}]})
    }

    #[test]
    fn points_change_is_keyed_by_models() {
        let c = diff_values(
            "c",
            &carnifexes(230),
            &carnifexes(180),
            &Options::without_provenance(),
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].path.to_string(), "points[2 models].points");
        assert_eq!(
            c[0].human("Carnifexes"),
            "Carnifexes › points › 2 models: 230 → 180"
        );
    }

    #[test]
    fn keyword_removed_is_a_set_difference() {
        let a = json!({"keywords": ["ASSAULT", "RAPID FIRE 2"]});
        let b = json!({"keywords": ["ASSAULT"]});
        let c = diff_values("x", &a, &b, &Options::default());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, ChangeKind::Removed);
        assert_eq!(c[0].human("X"), "X › keywords: − RAPID FIRE 2");
    }

    #[test]
    fn shared_names_are_told_apart_by_type() {
        let a = json!({"weapons": [{"name": "Claw", "type": "melee"}, {"name": "Claw", "type": "ranged"}]});
        let b = json!({"weapons": [{"name": "Claw", "type": "ranged"}]});
        let c = diff_values("x", &a, &b, &Options::default());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].path.to_string(), "weapons[Claw (melee)]");
    }

    #[test]
    fn absent_field_reads_as_null() {
        let a = json!({"id": "x"});
        let b = json!({"id": "x", "model_keywords": null});
        assert!(diff_values("x", &a, &b, &Options::default()).is_empty());
    }
}
