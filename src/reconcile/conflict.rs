//! Two sources, one record, different values: the view in which a field is compared, how its
//! values are shown, and the wording of `X110`.
//!
//! Pure. `merge` finds the differences with the diff engine (`crate::diff`) on the views this
//! module gives ([`view`]: keywords and ability names compared without case, ability names
//! also without typography (`’` is `'`, `‑` is `-`), model profiles without their names, a
//! missing invulnerable save as empty) and decides the winner by its
//! policy table; this module only says what the two values look like to a reader
//! ([`show`]) and writes the diagnostic ([`diagnostic`]). Must not decide a winner.

use crate::compare::names::name_key;
use crate::diag::{Code, Diagnostic};
use serde_json::Value;

/// The record types `merge` merges (spelled as `schemas/merge.yaml`'s tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    Datasheet,
    Stratagem,
    Enhancement,
    Detachment,
}

/// A list's strings (`field`: each element's field of that name) in capitals, sorted; `fold`:
/// typography folded too (`text::fold::ascii`: the GW app prints `Martial Ka’tah` where
/// BattleScribe prints `Martial Ka'tah`).
fn upper_strings(v: &Value, field: Option<&str>, fold: bool) -> Vec<String> {
    let items = v.as_array().into_iter().flatten();
    let mut out: Vec<String> = (items
        .filter_map(|x| field.map_or(Some(x), |f| x.get(f))?.as_str()))
    .map(|s| match fold {
        true => s
            .to_uppercase()
            .chars()
            .map(crate::text::fold::ascii)
            .collect(),
        false => s.to_uppercase(),
    })
    .collect();
    out.sort();
    out
}

/// The characteristics of a model profile (its name is not compared).
/// A profile's characteristics as serialized (contract v2: the keys its edition prints, in
/// order), without the fields that are not characteristics.
fn characteristics<'a>(
    profile: &'a Value,
    not: &'a [&'a str],
) -> impl Iterator<Item = (&'a String, &'a Value)> + 'a {
    profile
        .as_object()
        .into_iter()
        .flat_map(|o| o.iter())
        .filter(move |(k, _)| !not.contains(&k.as_str()))
}

/// Fields of a model profile that are not characteristics (`at`, where it was read, is
/// provenance: never compared, never shown).
const MODEL_NON_CHARACTERISTICS: &[&str] = &["name", "at"];
/// Fields of a weapon profile that are not characteristics (`at`, and `line` in contract-v1
/// datasets, are provenance).
const WEAPON_NON_CHARACTERISTICS: &[&str] = &["name", "type", "keywords", "at", "line"];

/// What of a field's value two readings are compared on.
pub fn view(kind: RecordKind, field: &str, v: &Value) -> Value {
    match (kind, field) {
        (RecordKind::Datasheet, "keywords") => upper_strings(v, None, false).into(),
        (RecordKind::Datasheet, "abilities") => upper_strings(v, Some("name"), true).into(),
        (RecordKind::Datasheet, "models") => (v.as_array().into_iter().flatten())
            .map(|m| {
                let c = characteristics(m, MODEL_NON_CHARACTERISTICS);
                Value::Object(c.map(|(k, v)| (k.clone(), v.clone())).collect())
            })
            .collect(),
        (RecordKind::Datasheet, "invulnerable_save") if v.is_null() => Value::String(String::new()),
        // A weapon's name as a name is compared (`Storm Bolter` = `Storm bolter`).
        (RecordKind::Datasheet, "weapons") => (v.as_array().into_iter().flatten())
            .map(|w| {
                let mut w = w.clone();
                if let Some(Value::String(n)) = w.get_mut("name") {
                    *n = name_key(n);
                }
                w
            })
            .collect(),
        _ => v.clone(),
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("-")
}

fn weapon_line(w: &Value) -> String {
    let kws: Vec<&str> = w
        .get("keywords")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let values: Vec<&str> = characteristics(w, WEAPON_NON_CHARACTERISTICS)
        .map(|(_, v)| text(v))
        .collect();
    format!(
        "{} {} [{}]",
        w.get("name").and_then(Value::as_str).unwrap_or(""),
        values.join(" "),
        kws.join(", ")
    )
}

/// A field's value as `X110` shows it; `other` is the other reading's value (weapons show
/// only the profiles the other reading lacks).
pub fn show(kind: RecordKind, field: &str, v: &Value, other: &Value) -> String {
    let items = |v: &Value| v.as_array().cloned().unwrap_or_default();
    match (kind, field) {
        (RecordKind::Datasheet, "points") => items(v)
            .iter()
            .map(|p| {
                format!(
                    "{}×{}",
                    p.get("models").map(Value::to_string).unwrap_or_default(),
                    p.get("points").map(Value::to_string).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        (RecordKind::Datasheet, "models") => items(v)
            .iter()
            .map(|m| {
                characteristics(m, MODEL_NON_CHARACTERISTICS)
                    .map(|(_, v)| text(v))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("; "),
        (RecordKind::Datasheet, "weapons") => {
            let theirs: Vec<String> = items(other).iter().map(weapon_line).collect();
            let mut mine: Vec<String> = items(v)
                .iter()
                .map(weapon_line)
                .filter(|w| !theirs.contains(w))
                .collect();
            mine.sort();
            mine.join("; ")
        }
        (RecordKind::Datasheet, "keywords") => upper_strings(v, None, false).join(", "),
        (RecordKind::Datasheet, "abilities") => upper_strings(v, Some("name"), false).join(", "),
        (RecordKind::Stratagem, "cp") => match v {
            Value::Null => String::new(),
            n => format!("{n}CP"),
        },
        _ => match v {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            Value::Array(a) if a.iter().all(Value::is_string) => a
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        },
    }
}

fn version(v: Option<(u32, u32)>) -> String {
    match v {
        Some((a, b)) => format!("v{a}.{b}"),
        None => "no version".to_string(),
    }
}

/// Why the kept value was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The publication versions decided (or tied, and the first in path order was kept).
    Version,
    /// The policy keeps the first reading in path order, for this reason.
    First(&'static str),
}

/// One side of a conflict: the value as shown, its file, its publication version.
pub type Side<'a> = (&'a str, &'a str, Option<(u32, u32)>);

/// `X110`: both values, both files, and which was kept and why.
pub fn diagnostic(
    record: &str,
    field: &str,
    (old, old_file, old_v): Side<'_>,
    (new, new_file, new_v): Side<'_>,
    kept_new: bool,
    why: Why,
) -> Diagnostic {
    let kept = if kept_new { new } else { old };
    let why = match why {
        Why::Version if kept_new => format!("faction pack {} > {}", version(new_v), version(old_v)),
        Why::Version if old_v == new_v => format!(
            "faction pack same version ({}); first in path order",
            version(old_v)
        ),
        Why::Version => format!("faction pack {} > {}", version(old_v), version(new_v)),
        Why::First(reason) => format!("first in path order: {reason}"),
    };
    let [old, new, kept] = [old, new, kept].map(|s| if s.is_empty() { "(none)" } else { s });
    let text =
        format!("{record} {field}: {old} ({old_file}) vs {new} ({new_file}); kept {kept} ({why})");
    Diagnostic::new(Code::ConflictingValues, text).in_file(new_file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ability_names_are_compared_without_typography() {
        let app = json!([{"name": "Martial Ka\u{2019}tah"}, {"name": "Turbo\u{2011}boost"}]);
        let bs = json!([{"name": "Martial Ka'tah"}, {"name": "Turbo-boost"}]);
        let (a, b) = (
            view(RecordKind::Datasheet, "abilities", &app),
            view(RecordKind::Datasheet, "abilities", &bs),
        );
        assert_eq!(a, b);
        // as shown, each keeps its own
        assert_ne!(
            show(RecordKind::Datasheet, "abilities", &app, &bs),
            show(RecordKind::Datasheet, "abilities", &bs, &app)
        );
    }

    #[test]
    fn weapon_names_are_compared_as_names() {
        let app = json!([{"name": "Storm bolter", "range": "24\"", "keywords": []}]);
        let bs = json!([{"name": "Storm Bolter", "range": "24\"", "keywords": []}]);
        let w = |v| view(RecordKind::Datasheet, "weapons", v);
        assert_eq!(w(&app), w(&bs));
        let other = json!([{"name": "Storm Bolter", "range": "18\"", "keywords": []}]);
        assert_ne!(w(&app), w(&other));
        // A name field that is part of an id keeps its spelling: a difference is reported.
        let d = |v: &str| view(RecordKind::Enhancement, "detachment", &json!(v));
        assert_ne!(d("Lions of the Emperor"), d("Lions Of The Emperor"));
    }
}
