//! The GW app's data as the game-datacards project exports it: one JSON file per faction whose
//! top-level keys include `datasheets` and `detachments` → [`Datasheet`]s (`sheet.rs`), and
//! detachments, stratagems, enhancements, army and detachment rules (`army.rs`), their texts
//! as plain text (`text.rs`); a card file (`cardType: coreRules`, `faq`, `keywords`) →
//! `core.rs` (the core rules as numbered rules; the others with a note).
//!
//! Owns: claiming such files by content (their top-level keys, never the folder name), the
//! edition from the file's `source` (`40k-11e`) or else its datasheets' `source` (10th
//! edition's files carry it there only) through the markers of `schemas/editions.yaml`, the
//! two shapes of a text (a plain string in 10th edition's files, a language map in 11th's:
//! `en` is the text, never filled from another language), each datasheet through
//! [`SheetBuilder`] (stats, weapons with their keywords, abilities, invulnerable save,
//! keywords, composition, leader and support lists, points with the app's unit-count cost
//! `additionalCost {cost, afterSelections}` as tiers with `units` ranges), each datasheet's
//! line. Must not: guess an edition (`G001`), take a text from a language other than English
//! (`G002`), merge points from another source, do I/O.
//!
//! Lines: `serde_json` gives none, so a datasheet's line is the line of its own `"id"` value
//! (a UUID), found by the one walk of the file's JSON events that also places the army records
//! ([`army::object_lines`]); a datasheet without an id is at the line of its file's
//! `"datasheets"` key.

use crate::diag::{Code, Diagnostic};
use crate::edition::Edition;
use crate::extract::Extracted;
use crate::source::SourceFile;
use serde_json::{Map, Value};
use sheet::{datasheet, Cx};

mod army;
mod core;
mod sheet;
mod text;

/// The record source (one line of `records::SOURCES`).
pub const SOURCE: super::RecordSource = super::RecordSource {
    name: "game-datacards",
    claims,
    read,
};

/// Whether a file is a game-datacards faction file: JSON whose top-level keys include
/// `datasheets` and `detachments` (a cheap look for both keys; the read checks the top level).
fn is_faction_file(file: &SourceFile) -> bool {
    let head = file.bytes.iter().find(|b| !b.is_ascii_whitespace());
    head == Some(&b'{')
        && contains(&file.bytes, b"\"datasheets\"")
        && contains(&file.bytes, b"\"detachments\"")
}

/// Whether a file is one of ours: a faction file or a card file [`core`] reads.
fn is_ours(file: &SourceFile) -> bool {
    is_faction_file(file)
        || (file.bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
            && core::is_card_file(&file.bytes))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Claims a group with a faction file.
fn claims(group: &super::Group) -> bool {
    group.files.iter().any(|f| is_ours(f))
}

/// Reads each faction file of a claimed group.
pub fn read(group: &super::Group) -> Vec<Extracted> {
    let mut out: Vec<Extracted> = group
        .files
        .iter()
        .filter(|f| is_ours(f))
        .filter_map(|f| read_file(f))
        .collect();
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// One faction file; `None` when its top level is not an object with both keys (not ours).
fn read_file(file: &SourceFile) -> Option<Extracted> {
    let mut ex = Extracted {
        file: file.path.clone(),
        sha256: file.sha256.clone(),
        ..Default::default()
    };
    let top: Map<String, Value> = match serde_json::from_slice(&file.bytes) {
        Ok(Value::Object(m)) => m,
        Ok(_) => return None,
        Err(e) => {
            ex.diagnostics.push(
                Diagnostic::new(Code::GdcUnreadable, format!("not read: {e}"))
                    .at(&file.path, u32::try_from(e.line()).unwrap_or(0)),
            );
            return Some(ex);
        }
    };
    let card = core::card_type(&top).is_some();
    let faction_file = top.contains_key("datasheets") && top.contains_key("detachments");
    if !(card || faction_file) {
        return None;
    }
    let datasheets = list(&top, "datasheets");
    let Some(edition) = edition_of(&top, datasheets) else {
        ex.diagnostics.push(
            Diagnostic::new(
                Code::GdcNoEdition,
                "no edition: the file's `source` and its datasheets' `source` name no single edition marker; not read",
            )
            .in_file(&file.path),
        );
        return Some(ex);
    };
    ex.edition = Some(edition);
    ex.dated = top
        .get("updated")
        .and_then(Value::as_str)
        .and_then(|u| u.get(..10))
        .map(str::to_string);
    if card {
        core::read(file, &top, edition, &mut ex);
        return Some(ex);
    }
    let faction = top.get("name").and_then(|n| text(n, &mut Vec::new()));
    ex.faction = faction.as_deref().map(|n| super::faction_of(edition, n));
    let base = line_of(&file.bytes, b"\"datasheets\"").unwrap_or(1);
    let lines = army::object_lines(&file.bytes);
    for (i, d) in datasheets.iter().enumerate() {
        let Some(obj) = d.as_object() else { continue };
        let line = obj
            .get("id")
            .and_then(Value::as_str)
            .and_then(|_| lines.get(&format!("datasheets/{i}")).copied())
            .unwrap_or(base);
        let cx = Cx {
            file,
            line,
            edition,
        };
        let ds = datasheet(&cx, obj, ex.faction.clone(), &mut ex.diagnostics);
        ex.datasheets.push(ds);
    }
    army::read(file, &top, edition, lines, &mut ex);
    Some(ex)
}

/// The edition a `source` value names through the editions' markers (`40k-11e`).
fn edition_named(source: &str) -> Option<Edition> {
    let s = source.trim().to_lowercase();
    let found: Vec<Edition> = Edition::ALL
        .iter()
        .copied()
        .filter(|&e| crate::edition::markers(e).contains(&s))
        .collect();
    (found.len() == 1).then(|| found[0])
}

/// The file's edition: its own `source`, else the one edition all its datasheets' `source`
/// name; `None` when none or several.
fn edition_of(top: &Map<String, Value>, datasheets: &[Value]) -> Option<Edition> {
    if let Some(s) = top.get("source").and_then(Value::as_str) {
        return edition_named(s);
    }
    let mut found: Option<Edition> = None;
    for d in datasheets {
        let e = d
            .get("source")
            .and_then(Value::as_str)
            .and_then(edition_named)?;
        if found.is_some_and(|f| f != e) {
            return None;
        }
        found = Some(e);
    }
    found
}

/// The list at `key` of `obj` (empty when absent or not a list).
pub(super) fn list<'a>(obj: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    obj.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A whole number the app writes as a number or a string of digits.
pub(super) fn whole(v: Option<&Value>) -> Option<u32> {
    match v? {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        _ => None,
    }
}

/// The 1-based line of the first occurrence of `needle` in `bytes`.
fn line_of(bytes: &[u8], needle: &[u8]) -> Option<u32> {
    let at = bytes.windows(needle.len()).position(|w| w == needle)?;
    let newlines = bytes[..at].iter().filter(|&&b| b == b'\n').count();
    u32::try_from(newlines + 1).ok()
}

/// A text: a string (10th edition's files), or a language map's `en` (11th's). A map without
/// `en` is `None` and its other languages' keys are pushed to `missing` (for `G002`).
pub(super) fn text(v: &Value, missing: &mut Vec<String>) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Object(m) => match m.get("en").and_then(Value::as_str) {
            Some(s) => Some(s.trim().to_string()),
            None => {
                missing.push(m.keys().cloned().collect::<Vec<_>>().join(", "));
                None
            }
        },
        _ => None,
    }
}
