//! The diff of two datasets in the game's terms (`cogitator diff OLD NEW`): every [`Change`]
//! of every record type, with the record's name and faction, a [`Subject`] from one table,
//! renames matched by content, the NEW value's source location (the deepest sub-record with
//! an `at` among those the change is within), and for changed weapon
//! profiles the change in expected damage against the reference targets.
//!
//! Subjects, what a change is about (the one table, in the JSON and the policy as `category`;
//! why two readings disagree is `compare::Category`; `meaning: false` rows are separated from
//! changes of meaning):
//!
//! | category | what | meaning |
//! | --- | --- | --- |
//! | `record` | a whole record added, removed or renamed | yes |
//! | `points` | `points` (datasheet tiers, enhancement cost; a points record's tiers or cost), a points record's `wargear`, and a stratagem's `cp` | yes |
//! | `characteristic` | model profiles (`models[…]`, `M T Sv W Ld OC` …), `invulnerable_save(_condition)` | yes |
//! | `weapon_profile` | a weapon profile added or removed, or one of its characteristics | yes |
//! | `keyword` | `keywords` anywhere (a weapon's abilities included), `faction_keywords`, `model_keywords` | yes |
//! | `ability` | a datasheet ability (`abilities[…]`) | yes |
//! | `rule_text` | `text`, `flavor`, `when`, `target`, `effect`, `restrictions`, `bullets`, `examples`, `damaged`, `special_rules` | yes |
//! | `composition` | `unit_composition`, `wargear_options`, `equipment`, `leads`, `base_size` | yes |
//! | `reference` | lists of ids: a datasheet's `stratagems`, a detachment's `rules`, `enhancements`, `stratagems` | yes |
//! | `name` | a record's `name` | yes |
//! | `other` | any other field (`faction`, `group`, `category`, `kind`, `detachment`, `edition`) | yes |
//! | `provenance` | `sources`, `occurrences`, and a sub-record's `line` or `at` | no |
//! | `typography` | a text whose folded form (`text::fold::fold_for_compare`: NFKC, quotes, dashes, spaces, case) is unchanged; a set element removed and re-added in another spelling | no |
//!
//! **Renames.** A record only in OLD and one only in NEW, of the same record type, are one
//! renamed record when their content apart from `id`, `name` and provenance is identical, or
//! else when they are each other's closest match and differ in at most a fifth of the old
//! record's leaf values (at least one): matched by content, never by name. The pair is then
//! reported as one `record` change of kind `renamed` followed by its field changes.
//!
//! **Points records** (`points.json`) are keyed by what they price (the datasheet or
//! enhancement), not by id: the id carries the publication (`10e:points:1-0:…` /
//! `10e:points:1-1:…`), and a publication's new version is the same records priced again. A
//! record is compared without its publication, its tiers by unit size and unit count
//! (`Carnifexes › points › 1 model: 115 → 90`), an enhancement's cost as one value, wargear by
//! item; one added or removed is one line with its costs (`Agamatus Custodians: added, 3 models
//! 280, 6 models 560 (Forge World)`). Never renames: two units are not one.
//!
//! Pure: no I/O (the caller reads the datasets), no exit codes, no formatting beyond
//! [`Change::human`].

use super::{
    diff_readings, diff_values, id_of, show, Change, ChangeKind, FieldPath, Options, Segment,
    PROVENANCE_FIELDS,
};
use crate::dataset::LoadedDataset;
use crate::diag::{Diagnostic, Severity};
use crate::model::{Points, PointsKind, PointsOption, WeaponProfile};
use crate::simulate::{self, Conditions};
use crate::source::Location;
use crate::validate::ReferenceTarget;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What a change is about; see the module doc's table (spelled in `snake_case` in the JSON and
/// the policy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum Subject {
    Record,
    Points,
    Characteristic,
    WeaponProfile,
    Keyword,
    Ability,
    RuleText,
    Composition,
    Reference,
    Name,
    #[default]
    Other,
    Provenance,
    Typography,
}

impl Subject {
    /// `false` for provenance-only and typography-only changes.
    pub fn is_meaning(self) -> bool {
        !matches!(self, Subject::Provenance | Subject::Typography)
    }

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Expected damage of one weapon profile (one model, one volley) against one reference
/// target, before and after (`None` when that side has no runnable profile).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DamageDelta {
    pub target: String,
    pub old: Option<f64>,
    pub new: Option<f64>,
    pub delta: f64,
}

/// One reported change.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Entry {
    /// `datasheet`, `rule`, `stratagem`, `enhancement`, `detachment`, `points`.
    pub record_type: &'static str,
    /// The record's id in NEW (in OLD when removed; a points record's id carries its
    /// publication: NEW's).
    pub record: String,
    /// A renamed record's id in OLD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_record: Option<String>,
    /// The record's name (its id when it has none).
    pub name: String,
    pub faction: Option<String>,
    pub kind: ChangeKind,
    /// `points[1 model].points`; empty for a whole record.
    pub path: String,
    pub category: Subject,
    /// `false` for provenance-only and typography-only changes.
    pub meaning: bool,
    /// A value that became `null` (or an empty text).
    pub became_null: bool,
    pub old: Option<Value>,
    pub new: Option<Value>,
    /// `Carnifexes › points › 1 model: 115 → 90`.
    pub human: String,
    /// The NEW value's source (the OLD one's for a removal when NEW lacks the record).
    pub at: Option<Location>,
    /// For a changed weapon profile: expected damage per reference target, old and new.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub damage: Vec<DamageDelta>,
    /// A weapon keyword added or removed that the simulator does not model (its vocabulary,
    /// `simulate::keyword`, does not know it): such a change has no weight (`damage` empty),
    /// rather than a zero one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_modelled: Vec<String>,
    #[serde(skip)]
    pub field_path: FieldPath,
}

impl Entry {
    /// The weapon key when the change is inside `weapons[…]`.
    pub fn weapon(&self) -> Option<&str> {
        match &self.field_path.0[..] {
            [Segment::Field(w), Segment::Key(k), ..] if w == "weapons" => Some(k),
            _ => None,
        }
    }

    /// The target with the largest change in expected damage, if any.
    pub fn headline_damage(&self) -> Option<&DamageDelta> {
        self.damage
            .iter()
            .max_by(|a, b| a.delta.abs().total_cmp(&b.delta.abs()))
    }
}

/// A diagnostic in one dataset and not the other (compared by severity, code, file, message;
/// lines left out, as they move with unrelated edits).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiagnosticChange {
    pub code: String,
    pub severity: Severity,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub message: String,
}

/// Counts of a diff.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub changes: usize,
    pub meaning: usize,
    pub provenance: usize,
    pub typography: usize,
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub became_null: usize,
    /// Changes per category (categories with changes only).
    pub by_category: BTreeMap<&'static str, usize>,
    /// Changes of meaning per record type, then faction (`-` for none).
    pub by_record_type: BTreeMap<&'static str, BTreeMap<String, usize>>,
    pub new_errors: usize,
    pub resolved_errors: usize,
}

/// The diff of two datasets.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DatasetDiff {
    pub summary: Summary,
    /// Ordered by record type, faction, record, path.
    pub changes: Vec<Entry>,
    /// Error diagnostics of NEW that OLD does not have.
    pub new_errors: Vec<DiagnosticChange>,
}

impl DatasetDiff {
    /// No change at all (provenance and typography included) and no new error.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.new_errors.is_empty()
    }
}

fn by_id<T: Serialize>(v: &[T]) -> BTreeMap<String, Value> {
    v.iter()
        .filter_map(|r| serde_json::to_value(r).ok())
        .enumerate()
        .map(|(i, v)| (id_of(&v).unwrap_or_else(|| format!("#{i}")), v))
        .collect()
}

/// Each record type's records by id (points records by what they price), in the report's order.
fn records(d: &LoadedDataset) -> [(&'static str, BTreeMap<String, Value>); 6] {
    let points = d.points.iter().map(|p| (points_key(p), points_view(p)));
    [
        ("datasheet", by_id(&d.datasheets)),
        ("rule", by_id(&d.rules)),
        ("stratagem", by_id(&d.stratagems)),
        ("enhancement", by_id(&d.enhancements)),
        ("detachment", by_id(&d.detachments)),
        ("points", points.collect()),
    ]
}

/// A points record's key: what it prices (`subject`, an enhancement's marked so) and what of
/// the publication part of its id is not the publication's version or date (`-black-templars`,
/// a list of the MFM YAML): never the version, so a new version of a publication pairs with the
/// old one unit by unit.
fn points_key(p: &Points) -> String {
    let publication = p.id.split(':').nth(2).unwrap_or_default();
    let rest = publication.replacen(&crate::ids::slug(p.publication.key()), "", 1);
    let kind = match p.kind {
        PointsKind::Enhancement => " enhancement",
        PointsKind::Datasheet => "",
    };
    format!("{}{kind} {rest}", p.subject)
}

/// A points record as the diff compares it, without its publication (a new version that prints
/// the same costs is no change): its tiers as `points`, keyed by unit size and unit count
/// (`1 model`, `3 models (units 3+)`; `units 1+` is every unit: no range), an enhancement's one
/// cost as `points`.
fn points_view(p: &Points) -> Value {
    let tier = |t: &PointsOption| {
        let s = if t.models == 1 { "" } else { "s" };
        // From the first unit on, with no last: every unit, as a tier without a range.
        let units = t.units.filter(|u| (u.from, u.to) != (1, None));
        let units = units.map(|u| match u.to {
            Some(to) => format!(" (units {}-{to})", u.from),
            None => format!(" (units {}+)", u.from),
        });
        let name = format!("{} model{s}{}", t.models, units.unwrap_or_default());
        serde_json::json!({"name": name, "points": t.points, "at": t.at})
    };
    let mut v = serde_json::to_value(p).unwrap_or_default();
    v["points"] = match (p.kind, &p.tiers[..]) {
        (PointsKind::Enhancement, [one]) => one.points.into(),
        _ => p.tiers.iter().map(tier).collect(),
    };
    if let Some(o) = v.as_object_mut() {
        o.remove("tiers");
        o.remove("publication");
    }
    v
}

/// A points record added or removed, in the game's terms: `Agamatus Custodians: added, 3 models
/// 280, 6 models 560 (Forge World)`, `Raveners: removed (3 models 75)`.
fn points_human(name: &str, kind: ChangeKind, v: &Value) -> String {
    let costs: Vec<String> = match &v["points"] {
        Value::Array(tiers) => (tiers.iter())
            .map(|t| format!("{} {}", show(&t["name"]), t["points"]))
            .collect(),
        one => vec![one.to_string()],
    };
    let wargear = v["wargear"].as_array().into_iter().flatten();
    let wargear = wargear.map(|w| format!("{} +{}", show(&w["item"]), w["points"]));
    let costs = costs
        .into_iter()
        .chain(wargear)
        .collect::<Vec<_>>()
        .join(", ");
    let flags = [("forge_world", " (Forge World)"), ("legends", " (Legends)")];
    let flags: String = (flags.iter())
        .filter(|(f, _)| v[*f] == Value::Bool(true))
        .map(|(_, s)| *s)
        .collect();
    match kind {
        ChangeKind::Removed => format!("{name}: removed ({costs}){flags}"),
        _ => format!("{name}: added, {costs}{flags}"),
    }
}

/// Compares two datasets. `panel` gives changed weapons their expected-damage weight (empty:
/// no weights).
pub fn diff_datasets(
    old: &LoadedDataset,
    new: &LoadedDataset,
    panel: &[ReferenceTarget],
) -> DatasetDiff {
    let targets: Vec<(String, simulate::Target)> = panel
        .iter()
        .filter_map(|t| Some((t.name.clone(), t.to_target().ok()?)))
        .collect();
    // By record type (in `records`' order), then faction, record, path.
    fn order(e: &Entry) -> (&Option<String>, &String, &FieldPath) {
        (&e.faction, &e.record, &e.field_path)
    }
    let mut changes = Vec::new();
    for ((t, a), (_, b)) in records(old).into_iter().zip(records(new)) {
        let start = changes.len();
        diff_type(t, &a, &b, &targets, &mut changes);
        changes[start..].sort_by(|x, y| order(x).cmp(&order(y)));
    }
    mark_set_typography(&mut changes);
    let new_errors = new_error_diagnostics(&old.diagnostics, &new.diagnostics);
    let resolved = new_error_diagnostics(&new.diagnostics, &old.diagnostics).len();
    let summary = summarize(&changes, new_errors.len(), resolved);
    DatasetDiff {
        summary,
        changes,
        new_errors,
    }
}

fn summarize(changes: &[Entry], new_errors: usize, resolved_errors: usize) -> Summary {
    let mut s = Summary {
        changes: changes.len(),
        new_errors,
        resolved_errors,
        ..Summary::default()
    };
    for e in changes {
        *s.by_category.entry(e.category.as_str()).or_default() += 1;
        match e.category {
            Subject::Provenance => s.provenance += 1,
            Subject::Typography => s.typography += 1,
            _ => {
                s.meaning += 1;
                *s.by_record_type
                    .entry(e.record_type)
                    .or_default()
                    .entry(e.faction.clone().unwrap_or_else(|| "-".into()))
                    .or_default() += 1;
            }
        }
        // Whole records.
        match (e.field_path.0.is_empty(), e.kind) {
            (true, ChangeKind::Added) => s.added += 1,
            (true, ChangeKind::Removed) => s.removed += 1,
            (true, ChangeKind::Renamed) => s.renamed += 1,
            _ => {}
        }
        s.became_null += usize::from(e.became_null);
    }
    s
}

fn diff_type(
    t: &'static str,
    a: &BTreeMap<String, Value>,
    b: &BTreeMap<String, Value>,
    targets: &[(String, simulate::Target)],
    out: &mut Vec<Entry>,
) {
    let gone: Vec<&String> = a.keys().filter(|k| !b.contains_key(*k)).collect();
    let came: Vec<&String> = b.keys().filter(|k| !a.contains_key(*k)).collect();
    // Points records are keyed by what they price: two units are never one renamed.
    let renames = match t {
        "points" => Vec::new(),
        _ => match_renames(&gone, &came, a, b),
    };
    let renamed: BTreeSet<&String> = renames.iter().flat_map(|(o, n)| [*o, *n]).collect();
    let ids: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let same = ids.into_iter().filter(|id| !renamed.contains(id));
    // Each record's id in OLD and in NEW (two ids: a rename).
    for (o, n) in same.map(|id| (id, id)).chain(renames) {
        let (va, vb) = (a.get(o), b.get(n));
        let mut c = diff_readings(n, va, vb, &Options::default());
        // A points record's id carries its publication: not a change.
        c.retain(|c| c.path.0 != [Segment::Field("id".into())]);
        let [va, vb] = [va, vb].map(|v| v.unwrap_or(&Value::Null));
        push_changes(t, c, va, vb, [o, n], targets, out);
    }
}

/// The record's content apart from id, name and provenance, and how many leaf values it has.
fn content(v: &Value) -> (Value, usize) {
    let mut v = v.clone();
    if let Value::Object(o) = &mut v {
        o.remove("id");
        o.remove("name");
    }
    // Iterative: no recursion on input depth.
    let (mut stack, mut leaves) = (vec![&mut v], 0);
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                for f in PROVENANCE_FIELDS {
                    o.remove(f);
                }
                stack.extend(o.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => leaves += 1,
        }
    }
    (v, leaves)
}

/// Most candidate pairs compared by content similarity; beyond it only identical content
/// pairs (keeps a diff of two unrelated datasets fast).
const MAX_SIMILARITY_PAIRS: usize = 10_000;

/// Removed and added records that are one record renamed (module doc: the rule).
fn match_renames<'a>(
    gone: &[&'a String],
    came: &[&'a String],
    a: &BTreeMap<String, Value>,
    b: &BTreeMap<String, Value>,
) -> Vec<(&'a String, &'a String)> {
    if gone.is_empty() || came.is_empty() {
        return Vec::new();
    }
    let ca: Vec<(Value, usize)> = gone.iter().map(|k| content(&a[*k])).collect();
    let cb: Vec<(Value, usize)> = came.iter().map(|k| content(&b[*k])).collect();
    let mut out = Vec::new();
    let (mut used_a, mut used_b) = (BTreeSet::new(), BTreeSet::new());
    // Identical content first.
    let mut by_content: BTreeMap<String, VecDeque<usize>> = BTreeMap::new();
    for (j, (v, _)) in cb.iter().enumerate() {
        by_content.entry(v.to_string()).or_default().push_back(j);
    }
    for (i, (v, _)) in ca.iter().enumerate() {
        if let Some(j) = by_content
            .get_mut(&v.to_string())
            .and_then(VecDeque::pop_front)
        {
            used_a.insert(i);
            used_b.insert(j);
            out.push((gone[i], came[j]));
        }
    }
    if gone.len() * came.len() <= MAX_SIMILARITY_PAIRS {
        let opts = Options::default();
        // Each remaining old record's closest new one, and back (ties to the first); the pairs
        // that choose each other.
        let (mut best_for, mut best_back) = (BTreeMap::new(), BTreeMap::new());
        for (i, (x, leaves)) in ca.iter().enumerate().filter(|(i, _)| !used_a.contains(i)) {
            let limit = (leaves / 5).max(1);
            for (j, (y, _)) in cb.iter().enumerate().filter(|(j, _)| !used_b.contains(j)) {
                let n = diff_values("", x, y, &opts).len();
                if n <= limit {
                    let f = best_for.entry(i).or_insert((n, j));
                    *f = (*f).min((n, j));
                    let b = best_back.entry(j).or_insert((n, i));
                    *b = (*b).min((n, i));
                }
            }
        }
        for (&i, &(_, j)) in &best_for {
            if best_back.get(&j).map(|b| b.1) == Some(i) {
                out.push((gone[i], came[j]));
            }
        }
    }
    out
}

/// A record's name for people: its `name`, else its id.
pub fn label(v: &Value, id: &str) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .unwrap_or(id)
        .to_string()
}

/// The record's faction; a points record has none of its own: the scope of the id it prices
/// (`10e:adeptus-custodes:…` → `adeptus-custodes`).
fn faction(va: &Value, vb: &Value) -> Option<String> {
    [vb, va]
        .into_iter()
        .find_map(|v| {
            let subject = || v.get("subject")?.as_str()?.split(':').nth(1);
            v.get("faction").and_then(Value::as_str).or_else(subject)
        })
        .map(str::to_string)
}

/// The category of a change at `path` (module doc: the table).
pub fn categorize(
    path: &FieldPath,
    kind: ChangeKind,
    old: Option<&Value>,
    new: Option<&Value>,
) -> Subject {
    let fields: Vec<&str> = path
        .0
        .iter()
        .filter_map(|s| match s {
            Segment::Field(f) => Some(f.as_str()),
            _ => None,
        })
        .collect();
    if path.0.is_empty() {
        return Subject::Record;
    }
    if fields.iter().any(|f| PROVENANCE_FIELDS.contains(f)) {
        return Subject::Provenance;
    }
    use crate::text::fold::fold_for_compare as fold;
    if let (ChangeKind::Changed, Some(Value::String(a)), Some(Value::String(b))) = (kind, old, new)
    {
        if fold(a) == fold(b) {
            return Subject::Typography;
        }
    }
    let last = fields.last().copied().unwrap_or("");
    if matches!(last, "keywords" | "faction_keywords") || fields.contains(&"model_keywords") {
        return Subject::Keyword;
    }
    match fields.first().copied().unwrap_or("") {
        "points" | "cp" | "wargear" => Subject::Points,
        "models" | "invulnerable_save" | "invulnerable_save_condition" => Subject::Characteristic,
        "weapons" => Subject::WeaponProfile,
        "abilities" => Subject::Ability,
        "text" | "flavor" | "when" | "target" | "effect" | "restrictions" | "bullets"
        | "examples" | "damaged" | "special_rules" => Subject::RuleText,
        "unit_composition" | "wargear_options" | "equipment" | "leads" | "base_size" => {
            Subject::Composition
        }
        "stratagems" | "rules" | "enhancements" => Subject::Reference,
        "name" => Subject::Name,
        _ => Subject::Other,
    }
}

/// A set element removed and re-added in another spelling is typography, both halves.
fn mark_set_typography(changes: &mut [Entry]) {
    // The change's record, path and folded text.
    let key = |e: &Entry, v: &Option<Value>| {
        let folded = crate::text::fold::fold_for_compare(v.as_ref()?.as_str()?);
        Some((e.record.clone(), e.field_path.clone(), folded))
    };
    let mut removed = BTreeMap::new();
    for (i, e) in changes.iter().enumerate() {
        if e.kind == ChangeKind::Removed && e.category.is_meaning() && !e.field_path.0.is_empty() {
            removed.extend(key(e, &e.old).map(|k| (k, i)));
        }
    }
    let mut pairs = Vec::new();
    for (i, e) in changes.iter().enumerate() {
        if e.kind == ChangeKind::Added && e.category.is_meaning() {
            pairs.extend(
                key(e, &e.new)
                    .and_then(|k| removed.remove(&k))
                    .map(|j| [i, j]),
            );
        }
    }
    for k in pairs.into_iter().flatten() {
        changes[k].category = Subject::Typography;
        changes[k].meaning = false;
    }
}

fn became_null(kind: ChangeKind, old: Option<&Value>, new: Option<&Value>) -> bool {
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    };
    kind == ChangeKind::Changed && old.is_some_and(|v| !empty(v)) && new.is_some_and(empty)
}

/// Where a value was read (a source, an occurrence, a sub-record's `at`): the file (relative
/// to the input root), line and page; a PDF box and page size are left out of the report.
fn at_of(v: &Value) -> Option<Location> {
    let at = Location::deserialize(v).ok()?;
    Some(Location {
        bbox: None,
        page_size: None,
        ..at
    })
}

/// A record's sources or occurrences.
fn sources(v: &Value) -> Vec<Location> {
    let list = v.get("sources").or_else(|| v.get("occurrences"));
    let list = list.and_then(Value::as_array).map(Vec::as_slice);
    list.unwrap_or_default().iter().filter_map(at_of).collect()
}

/// The sub-records a change at `path` is within in the reading `v`: the path followed with the
/// positions the engine recorded for that reading ([`Change::within`]).
fn within<'v>(v: &'v Value, path: &FieldPath, positions: &[usize]) -> Vec<&'v Value> {
    let (mut cur, mut positions, mut out) = (Some(v), positions.iter(), Vec::new());
    for s in &path.0 {
        cur = match s {
            Segment::Field(f) => cur.and_then(|v| v.get(f)),
            _ => cur.zip(positions.next()).and_then(|(v, &i)| v.get(i)),
        };
        if !matches!(s, Segment::Field(_)) {
            out.extend(cur);
        }
    }
    out
}

/// The source of a value in the reading `side` (0: OLD, 1: NEW) of a record whose readings
/// have `sources`, inside the sub-records `within` (a change's, on that side): the deepest
/// sub-record's `at` (or its `line` in the record's first source), else the record's first
/// source or occurrence that the other reading lacks (a file that came with the change), else
/// its first.
fn locate(sources: &[Vec<Location>; 2], side: usize, within: &[&Value]) -> Option<Location> {
    let (mine, theirs) = (&sources[side], &sources[1 - side]);
    // A source the other side lacks is where a changed value most likely came from.
    let first = mine
        .iter()
        .find(|a| !theirs.is_empty() && !theirs.iter().any(|t| t.file == a.file))
        .or(mine.first())
        .cloned();
    let mut best = first.clone();
    for e in within {
        // A sub-record's own `at`; one with no file (contract v1, `line` in the record's
        // first source) or no line (a dataset written before it was recorded) falls back.
        let own = e.get("at").and_then(at_of);
        if let Some(a) = own.clone().filter(|a| !a.file.is_empty() && a.line > 0) {
            best = Some(a);
        } else if let (Some(l), Some(f)) = (
            own.map(|a| u64::from(a.line))
                .or_else(|| e.get("line").and_then(Value::as_u64))
                .filter(|l| *l > 0),
            &first,
        ) {
            best = Some(Location {
                line: l as u32,
                page: None,
                ..f.clone()
            });
        }
    }
    best
}

fn expected(w: Option<&Value>, targets: &[(String, simulate::Target)]) -> Option<Vec<f64>> {
    let p: WeaponProfile = serde_json::from_value(w?.clone()).ok()?;
    let (weapon, _) = simulate::profile::weapon_from_profile(&p).ok()?;
    let targets = targets.iter().map(|(_, t)| t);
    simulate::volleys(&weapon, targets, Conditions::default(), None)
        .map(|volley| Some(volley.ok()?.expected_damage))
        .collect()
}

/// Expected damage before and after for the weapon profile a change is `within`.
fn damage(within: &[Vec<&Value>; 2], targets: &[(String, simulate::Target)]) -> Vec<DamageDelta> {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let [o, n] = within
        .each_ref()
        .map(|w| expected(w.first().copied(), targets));
    if o.is_none() && n.is_none() {
        return Vec::new();
    }
    let at = |v: &Option<Vec<f64>>, i: usize| v.as_ref().map(|v| round(v[i]));
    targets
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            let (old, new) = (at(&o, i), at(&n, i));
            DamageDelta {
                target: name.clone(),
                old,
                new,
                delta: round(new.unwrap_or(0.0) - old.unwrap_or(0.0)),
            }
        })
        .collect()
}

/// The entries of one record's changes; `ids` are its id in OLD and in NEW (two ids: a rename).
fn push_changes(
    t: &'static str,
    changes: Vec<Change>,
    va: &Value,
    vb: &Value,
    [old_id, rec_id]: [&String; 2],
    targets: &[(String, simulate::Target)],
    out: &mut Vec<Entry>,
) {
    let renamed_from = (old_id != rec_id).then_some(old_id);
    let side = usize::from(!vb.is_null());
    let sources = [va, vb].map(sources);
    // What every entry of the record shares; as it is, the rename.
    let record = Entry {
        record_type: t,
        record: id_of(if vb.is_null() { va } else { vb }).unwrap_or_else(|| rec_id.clone()),
        old_record: renamed_from.cloned(),
        name: label(if vb.is_null() { va } else { vb }, rec_id),
        faction: faction(va, vb),
        kind: ChangeKind::Renamed,
        category: Subject::Record,
        meaning: true,
        ..Entry::default()
    };
    if let Some(old_id) = renamed_from {
        let old_name = label(va, old_id);
        out.push(Entry {
            human: format!(
                "{old_name} → {}: renamed ({old_id} → {rec_id})",
                record.name
            ),
            old: Some(Value::String(old_name)),
            new: Some(Value::String(record.name.clone())),
            at: locate(&sources, 1, &[]),
            ..record.clone()
        });
    }
    let mut weights: BTreeMap<String, Vec<DamageDelta>> = BTreeMap::new();
    for c in changes {
        let inside = [0, 1].map(|s| within([va, vb][s], &c.path, &c.within[s]));
        let category = categorize(&c.path, c.kind, c.old.as_ref(), c.new.as_ref());
        let mut e = Entry {
            kind: c.kind,
            path: c.path.to_string(),
            category,
            meaning: category.is_meaning(),
            became_null: became_null(c.kind, c.old.as_ref(), c.new.as_ref()),
            human: match (t, &c.old, &c.new) {
                ("points", Some(v), None) | ("points", None, Some(v)) if c.path.0.is_empty() => {
                    points_human(&record.name, c.kind, v)
                }
                _ => c.human(&record.name),
            },
            at: locate(&sources, side, &inside[side]).or_else(|| locate(&sources, 0, &[])),
            old: c.old,
            new: c.new,
            field_path: c.path,
            ..record.clone()
        };
        e.not_modelled = unmodelled_keyword(&e);
        if e.meaning && e.not_modelled.is_empty() {
            if let Some(w) = e.weapon().map(str::to_string) {
                let d = weights.entry(w).or_insert_with(|| damage(&inside, targets));
                e.damage = d.clone();
            }
        }
        out.push(e);
    }
}

/// The weapon keyword a change adds or removes, when the simulator does not model it.
fn unmodelled_keyword(e: &Entry) -> Vec<String> {
    use crate::simulate::keyword::{Keyword, KeywordError};
    let on_weapon_keywords = matches!(&e.field_path.0[..],
        [Segment::Field(w), Segment::Key(_), Segment::Field(k)] if w == "weapons" && k == "keywords");
    if !on_weapon_keywords {
        return Vec::new();
    }
    [&e.old, &e.new]
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|k| matches!(Keyword::parse(k), Err(KeywordError::Unknown(_))))
        .map(str::to_string)
        .collect()
}

fn new_error_diagnostics(old: &[Diagnostic], new: &[Diagnostic]) -> Vec<DiagnosticChange> {
    let key = |d: &Diagnostic| (d.code.clone(), d.file.clone(), d.message.clone());
    let seen: BTreeSet<_> = old
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(key)
        .collect();
    new.iter()
        .filter(|d| d.severity == Severity::Error && !seen.contains(&key(d)))
        .map(|d| DiagnosticChange {
            code: d.code.clone(),
            severity: d.severity,
            file: d.file.clone(),
            line: d.line,
            message: d.message.clone(),
        })
        .collect()
}
