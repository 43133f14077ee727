//! Merging the records several sources carry (same id → one record with all sources), by one
//! policy table per record type.
//!
//! Owns *which source wins which field, and why*, as data (`schemas/merge.yaml`, read by
//! [`table`]), and applying it. Sources are read in path order; a
//! reading is *newer* when the faction pack version its page cites is higher than that of the
//! reading the merged record takes its newer-wins fields from (no version is lower than any;
//! a tie keeps the first in path order). Every field on which two readings disagree and the
//! policy keeps one of them is one `X110` (found by the diff engine, `crate::diff`, on the
//! field's view from `conflict::view`; worded by `conflict::diagnostic`), whatever the record
//! type. Rules are not merged here: the rule registry is `dedup`'s.
//!
//! A record's merge reads only its own readings, in path order: [`Merger::of`] merges the record
//! types, and within one the ids, apart from each other in parallel, so the records and the
//! `X110`s do not depend on the thread count. A reading equal to the record kept so far only adds
//! its sources; a stratagem, enhancement or detachment stays serialized from its first differing
//! reading to its last (`merge_readings`), read back once.
//!
//! The rows (record type, fields, who wins, when a difference is an `X110`, and why) are
//! `schemas/merge.yaml` only, so the table and its reasons cannot drift apart from this doc.
//!
//! Stratagems whose ids differ only by a plural `s` on the group (`Boarding Action – Epic
//! Deed` / `Boarding Actions – Epic Deed`) are one stratagem: the record of the newest
//! publication is kept (its `group` too, `X110` when the spelling differs), the table applies
//! to the rest with the other as the later reading.
//!
//! Pure: must not do I/O, and must not decide anything outside the tables.

use super::conflict::{self, RecordKind, Why};
use crate::diag::Diagnostic;
use crate::diff::{diff_values, Options};
use crate::model::{Datasheet, Detachment, Enhancement, Stratagem};
use crate::source::Provenance;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// Which reading's value a merged record keeps (`wins:` in `schemas/merge.yaml`; in words for
/// the reconciliation's `policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "lowercase")]
pub enum Wins {
    /// The first reading in path order.
    First,
    /// The first reading in path order that has a value (null, `""` and `[]` have none).
    #[strum(serialize = "first non-null")]
    FirstNonNull,
    /// The newer publication's value, even when it has none.
    Newer,
    /// The newer publication's value when it has one; else the kept one, filled from the
    /// other when it has none.
    #[strum(serialize = "newer non-null")]
    NewerNonNull,
    /// Both readings' items (sorted and deduplicated when the merge ends).
    Union,
}

/// When a disagreement on the field is an `X110` (`report:` in `schemas/merge.yaml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Report {
    Never,
    /// Both readings have a value, and the values differ.
    BothPresent,
    /// The values differ, one of them missing included.
    Always,
}

/// One row of a policy table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldRule {
    /// The fields (as serialized) the row covers.
    pub fields: Vec<String>,
    pub wins: Wins,
    pub report: Report,
    /// Why this source wins; the reason `X110` gives for a first-wins field.
    pub why: String,
}

impl FieldRule {
    /// Whether the row covers `field`.
    pub fn covers(&self, field: &str) -> bool {
        self.fields.iter().any(|f| f == field)
    }
}

/// `schemas/merge.yaml`: the policy table of each record type.
pub const MERGE_FILE: &str = include_str!("../../schemas/merge.yaml");

/// The policy table of a record type (`schemas/merge.yaml`, read once).
pub fn table(kind: RecordKind) -> &'static [FieldRule] {
    static TABLES: OnceLock<BTreeMap<RecordKind, Vec<FieldRule>>> = OnceLock::new();
    let t = TABLES.get_or_init(|| {
        serde_saphyr::from_str(MERGE_FILE)
            .unwrap_or_else(|e| panic!("embedded schemas/merge.yaml is invalid: {e}"))
    });
    t.get(&kind).map_or(&[], Vec::as_slice)
}

/// The publication version a merged record's newer-wins values come from, and its file.
pub type Origin = (Option<(u32, u32)>, String);

/// A record type the tables merge.
pub trait Mergeable: Serialize + DeserializeOwned + Clone + PartialEq {
    const KIND: RecordKind;
    fn id(&self) -> &str;
    /// How `X110` names the record.
    fn label(&self) -> String;
    /// Sorts and deduplicates the record's lists (its `sources`; a detachment's parts too).
    fn sort_lists(&mut self) {
        let sources = self.sources_mut();
        sources.sort();
        sources.dedup();
    }
    /// The record's `sources` (a union in every table): merging moves them aside instead of
    /// serializing a list that grows with every page that repeats the record.
    fn sources_mut(&mut self) -> &mut Vec<Provenance>;
    /// Whether a reading may take parts from another ([`Mergeable::with_parts_from`]): such a
    /// type is merged typed, reading by reading, never as serialized fields (`merge_readings`).
    const TAKES_PARTS: bool = false;
    /// The record with the parts it says are printed elsewhere taken from `other` (a
    /// datasheet's weapons printed on another card); `None` when there is nothing to take.
    fn with_parts_from(&self, _other: &Self) -> Option<Self> {
        None
    }
}

/// The accessors every record type has alike: its kind, its `id`, its `sources`, and how
/// `X110` names it (`label`, a closure over the record).
macro_rules! record_accessors {
    ($kind:expr, $label:expr) => {
        const KIND: RecordKind = $kind;
        fn id(&self) -> &str {
            &self.id
        }
        fn label(&self) -> String {
            ($label)(self)
        }
        fn sources_mut(&mut self) -> &mut Vec<Provenance> {
            &mut self.sources
        }
    };
}

/// A record's name, else its id (a datasheet or enhancement may be unnamed).
fn name_or_id(name: &Option<String>, id: &str) -> String {
    name.clone().unwrap_or_else(|| id.to_string())
}

impl Mergeable for Datasheet {
    record_accessors!(RecordKind::Datasheet, |d: &Self| name_or_id(&d.name, &d.id));
    const TAKES_PARTS: bool = true;
    /// Each weapon of `other` that this datasheet says is printed elsewhere and does not print
    /// itself, after this datasheet's last weapon of the same type (with its own `at`).
    fn with_parts_from(&self, other: &Self) -> Option<Self> {
        use crate::compare::names::{elsewhere_keys, name_key, printed_elsewhere};
        if self.weapons_printed_elsewhere.is_empty() {
            return None;
        }
        let elsewhere = elsewhere_keys(self);
        let have: BTreeSet<String> = self.weapons.iter().map(|w| name_key(&w.name)).collect();
        let mut filled = self.clone();
        let mut added = false;
        for w in &other.weapons {
            let key = name_key(&w.name);
            if !printed_elsewhere(&elsewhere, &key) || have.contains(&key) {
                continue;
            }
            let at = filled
                .weapons
                .iter()
                .rposition(|x| x.kind == w.kind)
                .map_or(filled.weapons.len(), |i| i + 1);
            filled.weapons.insert(at, w.clone());
            added = true;
        }
        added.then_some(filled)
    }
}

impl Mergeable for Stratagem {
    record_accessors!(RecordKind::Stratagem, |s: &Self| s.name.clone());
}

impl Mergeable for Enhancement {
    record_accessors!(RecordKind::Enhancement, |e: &Self| name_or_id(
        &e.name, &e.id
    ));
}

impl Mergeable for Detachment {
    record_accessors!(RecordKind::Detachment, |d: &Self| d.name.clone());
    fn sort_lists(&mut self) {
        for v in [
            &mut self.rules,
            &mut self.enhancements,
            &mut self.stratagems,
        ] {
            v.sort();
            v.dedup();
        }
        self.sources.sort();
        self.sources.dedup();
    }
}

fn present(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => true,
    }
}

/// One field on which two readings disagree and the policy keeps one of them.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// The field as serialized (`points`, `cp`).
    pub field: &'static str,
    /// The kept reading's value and the other's, as `X110` shows them.
    pub kept: String,
    pub other: String,
    /// Whether the other reading's value was taken.
    pub took_other: bool,
    pub why: Why,
}

impl Conflict {
    /// The `X110` of this conflict on record `label` of `kind`: the kept reading came from
    /// `kept` (its version and file), the other from `other`.
    fn diagnostic(
        &self,
        label: &str,
        kind: RecordKind,
        kept: &Origin,
        (file, version): (&str, Option<(u32, u32)>),
    ) -> Diagnostic {
        conflict::diagnostic(
            label,
            field_label(kind, self.field),
            (&self.kept, &kept.1, kept.0),
            (&self.other, file, version),
            self.took_other,
            self.why,
        )
    }
}

/// `kept` (the merged record, or the first reading) with `other` (a later reading in path
/// order) merged in by the table of `T`; `other_newer` says whether `other` is from a newer
/// publication. Returns the merged record and the conflicts.
pub fn merge_pair<T: Mergeable>(kept: &T, other: &T, other_newer: bool) -> (T, Vec<Conflict>) {
    // Parts a reading says another prints are taken from it before anything is compared.
    let filled = (kept.with_parts_from(other), other.with_parts_from(kept));
    let kept = filled.0.as_ref().unwrap_or(kept);
    let other = filled.1.as_ref().unwrap_or(other);
    let (Ok(Value::Object(a)), Ok(Value::Object(b))) =
        (serde_json::to_value(kept), serde_json::to_value(other))
    else {
        return (kept.clone(), Vec::new());
    };
    let FieldMerge { a, conflicts, .. } = merge_fields(T::KIND, kept.id(), a, b, other_newer);
    match serde_json::from_value(Value::Object(a)) {
        Ok(t) => (t, conflicts),
        // Fields swapped between two values of one type: cannot fail; if it did, the
        // record stays as it was.
        Err(_) => (kept.clone(), conflicts),
    }
}

/// What [`merge_fields`] gives.
struct FieldMerge {
    /// The merged fields.
    a: Map<String, Value>,
    conflicts: Vec<Conflict>,
    /// Whether `a` differs from the kept reading's fields (a value taken that was not the
    /// same, a field dropped, a list joined with a non-empty one).
    changed: bool,
}

/// [`merge_pair`] on the two readings' serialized fields (`a` kept, `b` the later reading of
/// record `id`).
fn merge_fields(
    kind: RecordKind,
    id: &str,
    mut a: Map<String, Value>,
    mut b: Map<String, Value>,
    other_newer: bool,
) -> FieldMerge {
    let mut conflicts = Vec::new();
    let mut changed = false;
    // Both readings' values are read by reference; one is moved out of `b` only when it is
    // kept (each field is under one rule: `every_field_has_one_rule`).
    for rule in table(kind) {
        for field in &rule.fields {
            let field = field.as_str();
            let x = a.get(field).unwrap_or(&Value::Null);
            let y = b.get(field).unwrap_or(&Value::Null);
            let take = match rule.wins {
                Wins::First => false,
                Wins::FirstNonNull => !present(x) && present(y),
                Wins::Newer => other_newer,
                Wins::NewerNonNull => present(y) && (other_newer || !present(x)),
                Wins::Union => {
                    if let (Some(Value::Array(xs)), Some(Value::Array(ys))) =
                        (a.get_mut(field), b.remove(field))
                    {
                        changed |= !ys.is_empty();
                        xs.extend(ys);
                    }
                    continue;
                }
            };
            // Equal values cannot disagree: no need to fold and compare them (most readings
            // of a record repeated across pages are equal field for field).
            let unequal = x != y;
            let reported = unequal
                && match rule.report {
                    Report::Never => false,
                    Report::BothPresent => present(x) && present(y),
                    Report::Always => true,
                };
            if reported {
                let [vx, vy] = [x, y].map(|v| conflict::view(kind, field, v));
                let differs = !diff_values(id, &vx, &vy, &Options::without_provenance()).is_empty();
                let [sx, sy] = [(x, y), (y, x)].map(|(v, o)| conflict::show(kind, field, v, o));
                // Two values that read the same to a person are not worth a warning.
                if differs && sx != sy {
                    conflicts.push(Conflict {
                        field,
                        kept: sx,
                        other: sy,
                        took_other: take,
                        why: match rule.wins {
                            Wins::Newer | Wins::NewerNonNull => Why::Version,
                            _ => Why::First(&rule.why),
                        },
                    });
                }
            }
            if take {
                // a different value, or `null` where the field was absent (or the other way)
                changed |= unequal || a.contains_key(field) != b.contains_key(field);
                // A field the other reading does not serialize (skipped when absent, like
                // `legends` or `power_rating`) is absent in the merge too, not `null`.
                match b.remove(field) {
                    Some(y) => a.insert(field.to_string(), y),
                    None => a.remove(field),
                };
            }
        }
    }
    FieldMerge {
        a,
        conflicts,
        changed,
    }
}

/// `X110`'s name for a field.
pub fn field_label(kind: RecordKind, field: &str) -> &str {
    match (kind, field) {
        (RecordKind::Datasheet, "models") => "profiles",
        (RecordKind::Datasheet, "invulnerable_save") => "invulnerable save",
        (RecordKind::Stratagem, "cp") => "CP",
        (_, f) => f,
    }
}

/// One reading of a record: the record, its publication version and its file.
pub type Reading<'a, T> = (T, Option<(u32, u32)>, &'a str);

/// Records of one type by id, each with the origin of its newer-wins values.
#[derive(Debug)]
pub struct Records<T> {
    by_id: BTreeMap<String, (T, Origin)>,
}

impl<T> Default for Records<T> {
    fn default() -> Self {
        Records {
            by_id: BTreeMap::new(),
        }
    }
}

impl<T: Mergeable + Send> Records<T> {
    /// Adds one reading from `file` (publication `version`), merging it into the record with
    /// its id by the type's table; conflicts go to `diagnostics` as `X110`.
    pub fn add(
        &mut self,
        rec: T,
        version: Option<(u32, u32)>,
        file: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        match self.by_id.get_mut(rec.id()) {
            Some(slot) => merge_into(slot, rec, version, file, diagnostics),
            None => {
                self.by_id
                    .insert(rec.id().to_string(), (rec, (version, file.to_string())));
            }
        }
    }

    /// Every reading of one type, in path order, each with its publication version and
    /// file: as [`Records::add`] one after another, but the readings of each id merged apart
    /// from the others' in parallel (a record's merge reads only its own readings, in path
    /// order), so the result and the `X110`s do not depend on the thread count.
    pub fn from_readings(readings: Vec<Reading<'_, T>>) -> (Self, Vec<Diagnostic>) {
        use rayon::prelude::*;
        let mut by_id: BTreeMap<String, Vec<Reading<'_, T>>> = BTreeMap::new();
        for r in readings {
            match by_id.get_mut(r.0.id()) {
                Some(list) => list.push(r),
                None => {
                    by_id.insert(r.0.id().to_string(), vec![r]);
                }
            }
        }
        let merged: Vec<(String, (T, Origin), Vec<Diagnostic>)> = by_id
            .into_iter()
            .collect::<Vec<_>>()
            .into_par_iter()
            .filter_map(|(id, list)| {
                let mut diagnostics = Vec::new();
                let mut list = list.into_iter();
                let (first, version, file) = list.next()?;
                let slot = if T::TAKES_PARTS {
                    let mut slot = (first, (version, file.to_string()));
                    for (rec, version, file) in list {
                        merge_into(&mut slot, rec, version, file, &mut diagnostics);
                    }
                    slot
                } else {
                    merge_readings((first, version, file), list, &mut diagnostics)
                };
                Some((id, slot, diagnostics))
            })
            .collect();
        let mut diagnostics = Vec::new();
        let mut records = Records::default();
        for (id, slot, mut d) in merged {
            diagnostics.append(&mut d);
            records.by_id.insert(id, slot);
        }
        (records, diagnostics)
    }

    /// The origin of a record's newer-wins values.
    pub fn origin(&self, id: &str) -> Option<&Origin> {
        self.by_id.get(id).map(|(_, o)| o)
    }

    /// The merged records, sorted by id, their lists sorted and deduplicated.
    pub fn into_sorted(self) -> Vec<T> {
        self.by_id
            .into_values()
            .map(|(mut r, _)| {
                r.sort_lists();
                r
            })
            .collect()
    }
}

/// One more reading (`rec` from `file`, publication `version`) merged into the record kept so
/// far and the origin of its newer-wins values, by the type's table; conflicts go to
/// `diagnostics` as `X110`. A reading equal to the kept record field for field (its sources
/// aside: most pages repeat a record as printed) only adds its sources.
fn merge_into<T: Mergeable>(
    (kept, from): &mut (T, Origin),
    rec: T,
    version: Option<(u32, u32)>,
    file: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let newer = version > from.0;
    let mut rec = rec;
    let mut sources = std::mem::take(kept.sources_mut());
    sources.append(rec.sources_mut());
    if *kept == rec {
        // The table keeps one of two equal values, or joins two empty source lists: the
        // merge would give `kept` back.
        *kept.sources_mut() = sources;
    } else {
        let (mut merged, conflicts) = merge_pair(kept, &rec, newer);
        *merged.sources_mut() = sources;
        let label = rec.label();
        diagnostics.extend(
            conflicts
                .into_iter()
                .map(|c| c.diagnostic(&label, T::KIND, from, (file, version))),
        );
        *kept = merged;
    }
    if newer {
        *from = (version, file.to_string());
    }
}

/// The readings of one id, in path order, merged as [`merge_into`] one after another, but the
/// record kept as its serialized fields from the first reading that differs from it on: each
/// later reading is serialized once, and the merged record deserialized once at the end (a
/// record a hundred pages repeat is not serialized and read back for every page). Not for a
/// type whose readings take parts from each other ([`Mergeable::with_parts_from`]).
fn merge_readings<'a, T: Mergeable>(
    (mut kept, version, file): Reading<'a, T>,
    rest: impl Iterator<Item = Reading<'a, T>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (T, Origin) {
    let mut from: Origin = (version, file.to_string());
    let mut sources = std::mem::take(kept.sources_mut());
    // `kept`'s fields once a reading differed from it: the record the merge goes on with
    let mut fields: Option<Map<String, Value>> = None;
    // Readings (their sources aside) merged into `fields` since they last changed that left
    // them as they were and reported nothing, and whether each was newer: the same reading
    // again would do the same (pages alternate between a stratagem with its text and
    // without), so it is not serialized again. Whether it was newer is part of the key: no
    // rule of the types merged here takes a value for being newer alone (`newer` with
    // `report: never` is a datasheet's, merged typed), but one could.
    let mut no_ops: Vec<(T, bool)> = Vec::new();
    for (mut rec, version, file) in rest {
        let newer = version > from.0;
        sources.append(rec.sources_mut());
        if fields.is_none() && kept == rec {
            // equal field for field: the merge would give `kept` back
        } else if no_ops.iter().any(|(r, n)| *n == newer && *r == rec) {
            // merged before into these same fields, which it left as they were
        } else {
            let a = match fields.take() {
                Some(a) => Some(a),
                None => match serde_json::to_value(&kept) {
                    Ok(Value::Object(a)) => Some(a),
                    _ => None,
                },
            };
            match (a, serde_json::to_value(&rec)) {
                (Some(a), Ok(Value::Object(b))) if a == b => {
                    fields = Some(a);
                    remember(&mut no_ops, rec, newer);
                }
                (Some(a), Ok(Value::Object(b))) => {
                    let FieldMerge {
                        a: merged,
                        conflicts,
                        changed,
                    } = merge_fields(T::KIND, rec.id(), a, b, newer);
                    let reported = !conflicts.is_empty();
                    let label = rec.label();
                    diagnostics.extend(
                        conflicts
                            .into_iter()
                            .map(|c| c.diagnostic(&label, T::KIND, &from, (file, version))),
                    );
                    if changed {
                        no_ops.clear();
                    } else if !reported {
                        remember(&mut no_ops, rec, newer);
                    }
                    fields = Some(merged);
                }
                // A record that does not serialize (cannot happen) stays as it was, as in
                // `merge_pair`.
                (a, _) => fields = a,
            }
        }
        if newer {
            from = (version, file.to_string());
        }
    }
    if let Some(a) = fields {
        // Fields swapped between values of one type: cannot fail; if it did, the record
        // stays as first read.
        if let Ok(t) = serde_json::from_value(Value::Object(a)) {
            kept = t;
        }
    }
    *kept.sources_mut() = sources;
    (kept, from)
}

/// Remembers `rec` (`newer` or not) among [`merge_readings`]'s readings that changed nothing;
/// the first few only (the list is searched for every later reading).
fn remember<T>(no_ops: &mut Vec<(T, bool)>, rec: T, newer: bool) {
    const KEPT: usize = 4;
    if no_ops.len() < KEPT {
        no_ops.push((rec, newer));
    }
}

/// Every merged record type of a dataset.
#[derive(Debug, Default)]
pub struct Merger {
    pub datasheets: Records<Datasheet>,
    pub stratagems: Records<Stratagem>,
    pub enhancements: Records<Enhancement>,
    pub detachments: Records<Detachment>,
    /// The `X110`s so far.
    pub diagnostics: Vec<Diagnostic>,
}

/// What the merge gives.
#[derive(Debug, Default)]
pub struct Merged {
    pub datasheets: Vec<Datasheet>,
    pub stratagems: Vec<Stratagem>,
    pub enhancements: Vec<Enhancement>,
    pub detachments: Vec<Detachment>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Merger {
    /// Every source's records, `extracted` in path order: each record type, and within it
    /// each id, merged apart from the others in parallel (see [`Records::from_readings`]).
    pub fn of(extracted: &mut [crate::extract::Extracted]) -> Merger {
        let files: Vec<String> = extracted.iter().map(|e| e.file.clone()).collect();
        let mut datasheets: Vec<Reading<'_, Datasheet>> = Vec::new();
        let mut stratagems: Vec<Reading<'_, Stratagem>> = Vec::new();
        let mut enhancements: Vec<Reading<'_, Enhancement>> = Vec::new();
        let mut detachments: Vec<Reading<'_, Detachment>> = Vec::new();
        for (ex, file) in extracted.iter_mut().zip(&files) {
            fn at<'a, T>(
                records: &mut Vec<T>,
                v: Option<(u32, u32)>,
                file: &'a str,
            ) -> impl Iterator<Item = Reading<'a, T>> {
                std::mem::take(records)
                    .into_iter()
                    .map(move |r| (r, v, file))
            }
            let (v, file) = (ex.version, file.as_str());
            datasheets.extend(at(&mut ex.datasheets, v, file));
            stratagems.extend(at(&mut ex.stratagems, v, file));
            enhancements.extend(at(&mut ex.enhancements, v, file));
            detachments.extend(at(&mut ex.detachments, v, file));
        }
        let ((d, s), (e, t)) = rayon::join(
            || {
                rayon::join(
                    || Records::from_readings(datasheets),
                    || Records::from_readings(stratagems),
                )
            },
            || {
                rayon::join(
                    || Records::from_readings(enhancements),
                    || Records::from_readings(detachments),
                )
            },
        );
        let mut diagnostics = Vec::new();
        for list in [d.1, s.1, e.1, t.1] {
            diagnostics.extend(list);
        }
        Merger {
            datasheets: d.0,
            stratagems: s.0,
            enhancements: e.0,
            detachments: t.0,
            diagnostics,
        }
    }

    /// The merged records; stratagems under two spellings of their group made one, and the
    /// datasheets' stratagem lists following the kept id.
    pub fn finish(mut self) -> Merged {
        let renamed = merge_group_spellings(&mut self.stratagems, &mut self.diagnostics);
        let mut datasheets = self.datasheets.into_sorted();
        for d in &mut datasheets {
            if d.stratagems.iter().any(|id| renamed.contains_key(id)) {
                // Keep the order the page lists them in; drop a repeat created by the rename.
                let mut seen = BTreeSet::new();
                let ids = std::mem::take(&mut d.stratagems);
                for id in ids {
                    let id = renamed.get(&id).cloned().unwrap_or(id);
                    if seen.insert(id.clone()) {
                        d.stratagems.push(id);
                    }
                }
            }
        }
        Merged {
            datasheets,
            stratagems: self.stratagems.into_sorted(),
            enhancements: self.enhancements.into_sorted(),
            detachments: self.detachments.into_sorted(),
            diagnostics: self.diagnostics,
        }
    }
}

/// One stratagem printed under two spellings of its group (`Boarding Action – Epic Deed` on an
/// older page, `Boarding Actions – Epic Deed` on a newer one) is one stratagem: the ids differ
/// only by a plural `s` on the group. The record from the newer publication is kept (its
/// group too), the other merged into it by the table as a later, older reading; each
/// differing reported field and the group are an `X110`. Returns old id → kept id.
fn merge_group_spellings(
    stratagems: &mut Records<Stratagem>,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<String, String> {
    let key = |s: &Stratagem| {
        let group = crate::ids::slug(s.group.as_deref().unwrap_or(""));
        let group = group.strip_suffix('s').map(str::to_string).unwrap_or(group);
        (s.edition, group, crate::ids::slug(&s.name))
    };
    let mut by_key: BTreeMap<_, Vec<String>> = BTreeMap::new();
    for (id, (s, _)) in stratagems.by_id.iter() {
        by_key.entry(key(s)).or_default().push(id.clone());
    }
    let mut renamed = BTreeMap::new();
    for mut ids in by_key.into_values().filter(|v| v.len() > 1) {
        let version = |id: &String| stratagems.origin(id).and_then(|(v, _)| *v);
        // Newest publication first; ties by id, so the choice does not depend on input order.
        ids.sort_by(|a, b| version(b).cmp(&version(a)).then(a.cmp(b)));
        let keep = ids[0].clone();
        for other in &ids[1..] {
            let Some((o, (ov, ofile))) = stratagems.by_id.remove(other) else {
                continue;
            };
            let Some((k, (kv, kfile))) = stratagems.by_id.get_mut(&keep) else {
                continue;
            };
            let (merged, mut conflicts) = merge_pair(k, &o, false);
            if o.group != k.group {
                conflicts.push(Conflict {
                    field: "group",
                    kept: k.group.clone().unwrap_or_default(),
                    other: o.group.clone().unwrap_or_default(),
                    took_other: false,
                    why: Why::Version,
                });
            }
            // Shown in reading order: the other (older) reading first, the kept one second.
            for c in conflicts {
                diagnostics.push(conflict::diagnostic(
                    &k.name,
                    field_label(RecordKind::Stratagem, c.field),
                    (&c.other, &ofile, ov),
                    (&c.kept, kfile, *kv),
                    !c.took_other,
                    c.why,
                ));
            }
            *k = merged;
            renamed.insert(other.clone(), keep.clone());
        }
    }
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A datasheet read from `file`: one model, one weapon, one ability, located in `file`.
    fn sheet(file: &str, line: u32) -> Datasheet {
        use crate::model::{Ability, Edition, ModelProfile, WeaponProfile, WeaponType};
        use crate::source::{Location, Provenance};
        let at = Location::at_line(file, line);
        let mut d = Datasheet::empty(Edition::Tenth);
        d.id = "10e:tyranids:carnifexes".into();
        d.name = Some("Carnifexes".into());
        d.sources = vec![Provenance::at_line(file, 1, "00")];
        let mut m = ModelProfile::new(Edition::Tenth, Some("Carnifex".into()), at.clone());
        m.set("T", Some("9".into()));
        d.models.push(m);
        let mut w = WeaponProfile::new(
            Edition::Tenth,
            "Bio-plasma".into(),
            WeaponType::Ranged,
            at.clone(),
        );
        w.set("A", Some("D3".into()));
        d.weapons.push(w);
        d.abilities.push(Ability {
            name: "Blistering Assault".into(),
            group: "datasheet".into(),
            tags: Vec::new(),
            parameter: None,
            rule_id: None,
            text: Some("t".into()),
            at,
            translations: Default::default(),
        });
        d
    }

    /// A card that sends some guns to another card for their profiles takes them from the
    /// reading that prints them, in either order, newer or not; a gun it prints itself stays
    /// its own, and a gun it does not name is not taken.
    #[test]
    fn weapons_printed_elsewhere_are_taken_from_the_reading_that_prints_them() {
        use crate::model::{WeaponProfile, WeaponType};
        use crate::source::Location;
        let mut card = sheet("pack.pdf", 3);
        card.weapons_printed_elsewhere = vec!["plasma gun".into(), "bio-plasma".into()];
        let mut export = sheet("w.csv", 9);
        for (name, kind) in [
            ("Plasma gun – standard", WeaponType::Ranged),
            ("Plasma gun – supercharge", WeaponType::Ranged),
            ("Plasma guns of doom", WeaponType::Ranged),
            ("Claws", WeaponType::Melee),
        ] {
            let at = Location::at_line("w.csv", 9);
            export.weapons.push(WeaponProfile::new(
                crate::model::Edition::Tenth,
                name.into(),
                kind,
                at,
            ));
        }
        for (a, b, newer) in [
            (&card, &export, true),
            (&export, &card, true),
            (&card, &export, false),
        ] {
            let (m, c) = merge_pair(a, b, newer);
            let names: Vec<(&str, &str)> = m
                .weapons
                .iter()
                .map(|w| (w.name.as_str(), w.at.file.as_str()))
                .collect();
            // The card's reading (kept or taken) has its own Bio-plasma and the export's two
            // plasma gun profiles; the export's reading has everything of its own.
            assert!(
                names.contains(&("Plasma gun – standard", "w.csv")),
                "{names:?}"
            );
            assert!(
                names.contains(&("Plasma gun – supercharge", "w.csv")),
                "{names:?}"
            );
            let from_card = m.weapons_printed_elsewhere == card.weapons_printed_elsewhere;
            if from_card {
                assert!(!names
                    .iter()
                    .any(|(n, _)| *n == "Plasma guns of doom" || *n == "Claws"));
                assert_eq!(names.len(), 3, "{names:?}");
                assert!(names.contains(&("Bio-plasma", "pack.pdf")), "{names:?}");
            }
            // The guns sent elsewhere are no difference: the one conflict is the export's
            // Plasma guns of doom and Claws, which the card neither prints nor names.
            assert_eq!(c.len(), 1, "{c:?}");
            assert!(
                c[0].kept.contains("Claws") != c[0].other.contains("Claws"),
                "{c:?}"
            );
        }
    }

    /// Locations are provenance: two readings that differ only where they were read are no
    /// conflict, and the merged sub-records keep the location of the reading they come from.
    #[test]
    fn sub_records_keep_the_location_of_their_reading() {
        let (a, b) = (sheet("a.html", 10), sheet("b.csv", 20));
        let (older_kept, c) = merge_pair(&a, &b, false);
        assert!(c.is_empty(), "{c:?}");
        assert_eq!(older_kept.weapons[0].at.file, "a.html");
        let (newer_taken, c) = merge_pair(&a, &b, true);
        assert!(c.is_empty(), "{c:?}");
        assert_eq!(newer_taken.weapons[0].at.file, "b.csv");
        assert_eq!(newer_taken.models[0].at.line, 20);
        assert_eq!(newer_taken.abilities[0].at.file, "b.csv");
        // A real difference is still one.
        let mut b2 = b.clone();
        b2.weapons[0].set("A", Some("D6".into()));
        let (_, c) = merge_pair(&a, &b2, true);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].field, "weapons");
        assert!(!c[0].kept.contains("a.html") && !c[0].other.contains("b.csv"));
    }

    /// `merge_readings` (serialized fields, readings that changed nothing not merged again)
    /// gives what `merge_into` gives reading by reading (typed, every reading merged), record
    /// and `X110`s, for every sequence of five readings of one stratagem drawn from variants
    /// that pages print: with and without its text, another cost, another category, a newer
    /// or an unversioned publication.
    #[test]
    fn merging_serialized_fields_agrees_with_merging_reading_by_reading() {
        use crate::model::Edition;
        use crate::source::Provenance;
        let base = |file: &str| Stratagem {
            id: "10e:gladius:armour-of-contempt".into(),
            name: "Armour of Contempt".into(),
            edition: Edition::Tenth,
            cp: Some(1),
            group: Some("Gladius Task Force".into()),
            category: Some("Battle Tactic".into()),
            flavor: Some("f".into()),
            when: Some("w".into()),
            target: Some("t".into()),
            effect: Some("e".into()),
            restrictions: None,
            sources: vec![Provenance::at_line(file, 1, "00")],
            translations: Default::default(),
        };
        type Variant = (fn(&mut Stratagem), Option<(u32, u32)>);
        let variants: [Variant; 5] = [
            (|_| {}, Some((1, 0))),
            (
                |s| {
                    s.flavor = None;
                    s.when = None;
                    s.target = None;
                    s.effect = None;
                },
                Some((1, 0)),
            ),
            (|s| s.cp = Some(2), Some((1, 1))),
            (
                |s| {
                    s.category = Some("Strategic Ploy".into());
                    s.restrictions = Some("r".into());
                },
                None,
            ),
            (|s| s.effect = Some("another effect".into()), Some((1, 1))),
        ];
        let files: Vec<String> = (0..5).map(|i| format!("page-{i}.html")).collect();
        let n = variants.len();
        for mut code in 0..n.pow(5) {
            let readings: Vec<Reading<'_, Stratagem>> = files
                .iter()
                .map(|file| {
                    let (change, version) = variants[code % n];
                    code /= n;
                    let mut s = base(file);
                    change(&mut s);
                    (s, version, file.as_str())
                })
                .collect();
            let mut typed_diagnostics = Vec::new();
            let mut rest = readings.clone().into_iter();
            let Some((first, version, file)) = rest.next() else {
                unreachable!("five readings")
            };
            let mut slot = (first, (version, file.to_string()));
            for (rec, version, file) in rest {
                merge_into(&mut slot, rec, version, file, &mut typed_diagnostics);
            }
            let mut diagnostics = Vec::new();
            let mut rest = readings.into_iter();
            let Some(first) = rest.next() else {
                unreachable!("five readings")
            };
            let merged = merge_readings(first, rest, &mut diagnostics);
            assert_eq!(merged, slot);
            assert_eq!(diagnostics, typed_diagnostics);
        }
    }

    /// Every serialized field of every record type has exactly one row in its table.
    #[test]
    fn every_field_has_one_rule() {
        let samples: Vec<(RecordKind, Value)> = vec![
            (
                RecordKind::Datasheet,
                // `power_rating`, `legends`, `weapons_printed_elsewhere`: serialized only when
                // present
                serde_json::to_value(Datasheet {
                    power_rating: Some(5),
                    legends: true,
                    weapons_printed_elsewhere: vec!["flamer".into()],
                    supports: vec!["Custodian Guard".into()],
                    ..Datasheet::empty(crate::model::Edition::Tenth)
                })
                .unwrap(),
            ),
            (
                RecordKind::Stratagem,
                serde_json::json!({"id":"","name":"","edition":"10e","cp":null,"group":null,
                "category":null,"flavor":null,"when":null,"target":null,"effect":null,
                "restrictions":null,"sources":[],"translations":{"de":{}}}),
            ),
            (
                RecordKind::Enhancement,
                serde_json::json!({"id":"","name":null,"edition":"10e","faction":null,
                "detachment":null,"points":null,"flavor":null,"text":"","sources":[],
                "translations":{"de":{}}}),
            ),
            (
                RecordKind::Detachment,
                serde_json::json!({"id":"","name":"","edition":"10e","faction":null,"rules":[],
                "enhancements":[],"stratagems":[],"sources":[],"points":2,
                "force_disposition":"Take and Hold","unique_tag":"Armoury",
                "translations":{"de":{}}}),
            ),
        ];
        for (kind, v) in samples {
            let fields: Vec<&str> = table(kind)
                .iter()
                .flat_map(|r| r.fields.iter().map(String::as_str))
                .collect();
            let obj = v.as_object().unwrap();
            for k in obj.keys() {
                assert_eq!(
                    fields.iter().filter(|f| **f == k.as_str()).count(),
                    1,
                    "{kind:?} {k}"
                );
            }
            assert_eq!(fields.len(), obj.len(), "{kind:?}");
        }
        // The samples are the real shapes.
        let _: Stratagem = serde_json::from_value(
            serde_json::json!({"id":"","name":"","edition":"10e","cp":null,"group":null,
                "category":null,"flavor":null,"when":null,"target":null,"effect":null,
                "restrictions":null,"sources":[]}),
        )
        .unwrap();
    }
}
