//! The mechanical shapes of an errata instruction, each turned into an [`ErratumOp`]:
//! `Add ‘PSYKER’ and ‘FLY’.` (keywords), `Remove the [BLAST] ability.` (a weapon ability),
//! `Change AP to ‘-2’.` / `Change Attacks to ‘3’, Strength to ‘6’ …` (characteristics),
//! `Change to ‘4+’.` on an invulnerable save, `Change to ‘…’.` / `Change to:` + quoted block /
//! `Change ‘a’ to ‘b’.` (text), `Add close combat weapon profile:` + its mini-table, `Change to
//! read:` + an `M T SV W LD OC` table (a profile line), `Delete this weapon profile.`.
//!
//! Owns only the classification: anything else (two instructions in one entry, `Add Attached
//! Unit section`, `Change sub-bullets to:`, `Add ‘…’ to the start of this paragraph`) is `None`,
//! never guessed.

use super::{Header, Line, RawEntry};
use crate::model::{ErratumOp, ErratumOpKind};
use crate::vocab::{Heading, TENTH as V};
use std::collections::BTreeMap;

/// Printed characteristic names (full and abbreviated, any case) → the dataset's
/// characteristic key.
const CHARACTERISTICS: &[(&str, &str)] = &[
    ("move", "M"),
    ("m", "M"),
    ("toughness", "T"),
    ("t", "T"),
    ("save", "Sv"),
    ("sv", "Sv"),
    ("wounds", "W"),
    ("w", "W"),
    ("leadership", "Ld"),
    ("ld", "Ld"),
    ("objective control", "OC"),
    ("oc", "OC"),
    ("range", "range"),
    ("attacks", "A"),
    ("a", "A"),
    ("ballistic skill", "skill"),
    ("bs", "skill"),
    ("weapon skill", "skill"),
    ("ws", "skill"),
    ("strength", "S"),
    ("s", "S"),
    ("armour penetration", "AP"),
    ("ap", "AP"),
    ("damage", "D"),
    ("d", "D"),
];

/// The characteristic key of a printed name (`Leadership characteristic` → `Ld`).
pub(crate) fn characteristic(printed: &str) -> Option<&'static str> {
    let p = printed.trim().to_lowercase();
    let p = p.strip_suffix(" characteristic").unwrap_or(&p);
    CHARACTERISTICS
        .iter()
        .find(|(n, _)| *n == p)
        .map(|(_, k)| *k)
}

/// The key of the invulnerable save in an op's `set`.
pub(crate) const INVULNERABLE_SAVE: &str = "invulnerable_save";

/// The mechanical change of entry `e`, `None` when its instruction is not one.
pub(crate) fn classify(h: &Header, e: &RawEntry) -> Option<ErratumOp> {
    let [ins] = e.instructions.as_slice() else {
        return None;
    };
    let first = ins.first()?.text.trim();
    let text: String = ins
        .iter()
        .filter(|l| !l.is_row())
        .map(|l| l.text.trim())
        .collect::<Vec<_>>()
        .join(" ");
    let rows: Vec<&Line> = ins.iter().filter(|l| l.is_row()).collect();
    if !rows.is_empty() {
        return table_op(h, first, &rows);
    }
    keyword_op(h, &text)
        .or_else(|| characteristic_op(h, &text))
        .or_else(|| text_op(h, &text))
        .or_else(|| delete_profile_op(h, &text))
}

fn op(kind: ErratumOpKind, set: BTreeMap<String, String>, values: Vec<String>) -> ErratumOp {
    ErratumOp { kind, set, values }
}

/// The quoted parts of `t`, in order (`‘PSYKER’ and ‘FLY’` → `PSYKER`, `FLY`), and what is
/// left outside them.
fn quoted(t: &str) -> (Vec<String>, String) {
    let mut parts = Vec::new();
    let mut outside = String::new();
    let mut cur: Option<String> = None;
    let mut chars = t.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        let closes = c == '’' && !chars.peek().is_some_and(|n| n.is_alphabetic());
        let word_start = prev.is_whitespace();
        prev = c;
        match (&mut cur, c) {
            (None, '‘') => cur = Some(String::new()),
            // A misprinted opening quote (`Add ’Firing Deck 2’.`).
            (None, '’') if word_start && !closes => cur = Some(String::new()),
            (Some(s), _) if closes => {
                parts.push(std::mem::take(s).trim().to_string());
                cur = None;
            }
            (Some(s), _) => s.push(c),
            (None, _) => outside.push(c),
        }
    }
    (parts, outside)
}

/// `Add ‘PSYKER’ and ‘FLY’.`, `Delete ‘Retinue’.`, `Add ‘[ASSAULT, RAPID FIRE 1].’`,
/// `Remove the [BLAST] ability.`, `Add the [BLAST] ability.` on a keywords section, the core
/// abilities or a weapon.
fn keyword_op(h: &Header, t: &str) -> Option<ErratumOp> {
    let (verb, rest) = t.split_once(' ')?;
    let kind = match verb {
        "Add" => ErratumOpKind::AddKeyword,
        "Delete" | "Remove" => ErratumOpKind::RemoveKeyword,
        _ => return None,
    };
    let keywords_section = is_keywords_section(h);
    let weapon = is_weapon_section(h) && h.qualifier.is_some();
    if !keywords_section && !weapon {
        return None;
    }
    let values = if let Some(ability) = bracket_ability(rest) {
        vec![ability]
    } else {
        let (parts, outside) = quoted(rest);
        let glue = outside.replace(" and ", "").replace([',', '.', ' '], "");
        if parts.is_empty() || !glue.is_empty() {
            return None;
        }
        parts
    };
    let values: Vec<String> = values
        .iter()
        .flat_map(|v| {
            let v = v.trim().trim_end_matches('.');
            match v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                Some(inner) => inner.split(", ").map(str::to_string).collect(),
                None => vec![v.to_string()],
            }
        })
        .collect();
    if weapon && values.iter().any(|v| v.contains(' ') && !is_ability(v)) {
        return None;
    }
    Some(op(kind, BTreeMap::new(), values))
}

/// `the [BLAST] ability.` → `[BLAST]`.
fn bracket_ability(rest: &str) -> Option<String> {
    let inner = rest.strip_prefix("the ")?.strip_suffix(" ability.")?;
    (inner.starts_with('[') && inner.ends_with(']')).then(|| inner.to_string())
}

fn is_ability(v: &str) -> bool {
    v.chars().all(|c| !c.is_lowercase())
}

fn is_keywords_section(h: &Header) -> bool {
    let s = h.section_name();
    V.is(Heading::Keywords, s)
        || V.is(Heading::FactionKeywords, s)
        || core_abilities(s)
        || V.is(Heading::CoreReferences, s)
}

/// `Core Abilities`: the `CORE:` line of the card's abilities.
fn core_abilities(s: &str) -> bool {
    s.split_once(' ').is_some_and(|(core, rest)| {
        V.is(Heading::CoreReferences, core) && V.is(Heading::Abilities, rest)
    })
}

fn is_weapon_section(h: &Header) -> bool {
    let s = h.section_name();
    V.is(Heading::RangedWeapons, s) || V.is(Heading::MeleeWeapons, s)
}

/// `Change AP to ‘-2’.`, `Change Attacks to ‘3’, Strength to ‘6’ and AP to ‘-1’.`, `Change
/// Leadership characteristic to ‘6+’.`, and `Change to ‘4+’.` on the invulnerable save.
fn characteristic_op(h: &Header, t: &str) -> Option<ErratumOp> {
    let rest = t.strip_prefix("Change ")?;
    let mut set = BTreeMap::new();
    if V.is(Heading::InvulnerableSave, h.section_name()) {
        let (parts, outside) = quoted(rest.strip_prefix("to ")?);
        let [value] = parts.as_slice() else {
            return None;
        };
        if outside.trim_matches(['.', ' ']).is_empty() {
            set.insert(INVULNERABLE_SAVE.to_string(), value.clone());
            return Some(op(ErratumOpKind::SetCharacteristic, set, Vec::new()));
        }
        return None;
    }
    let is_profile = h.section_name().starts_with("Profile");
    let weapon = is_weapon_section(h) && h.qualifier.is_some();
    if !(is_profile || weapon) {
        return None;
    }
    let mut rest = rest.trim_end_matches('.');
    while !rest.is_empty() {
        let (name, after) = rest.split_once(" to ‘")?;
        let (value, tail) = after.split_once('’')?;
        set.insert(characteristic(name)?.to_string(), value.to_string());
        rest = tail
            .trim_start_matches(',')
            .trim_start()
            .trim_start_matches("and ")
            .trim();
    }
    (!set.is_empty()).then(|| op(ErratumOpKind::SetCharacteristic, set, Vec::new()))
}

/// `Change to ‘…’.`, `Change to:` / `Change to read:` + one quoted block, `Change ‘a’ to ‘b’.`:
/// the new text first, then the text it replaces (when printed).
fn text_op(_h: &Header, t: &str) -> Option<ErratumOp> {
    let rest = t.strip_prefix("Change ")?;
    let (parts, outside) = quoted(rest);
    let outside = outside.split_whitespace().collect::<Vec<_>>().join(" ");
    let values = match (parts.as_slice(), outside.trim_end_matches('.').trim()) {
        ([new], "to" | "to:" | "to read:") => vec![new.clone()],
        ([old, new], "to") => vec![new.clone(), old.clone()],
        _ => return None,
    };
    Some(op(ErratumOpKind::ReplaceText, BTreeMap::new(), values))
}

/// `Delete this weapon profile.` (the qualifier names it), `Delete the heavy phosphor blaster
/// profile.`.
fn delete_profile_op(h: &Header, t: &str) -> Option<ErratumOp> {
    if !is_weapon_section(h) {
        return None;
    }
    let rest = t.strip_prefix("Delete ")?.strip_suffix(" profile.")?;
    let name = match rest {
        "this weapon" => h.qualifier.clone()?,
        _ => rest.strip_prefix("the ")?.to_string(),
    };
    Some(op(
        ErratumOpKind::DeleteWeaponProfile,
        BTreeMap::new(),
        vec![name],
    ))
}

/// A mini-table after `Add close combat weapon profile:` / `Add X profile:` (a weapon) or
/// `Change to:` / `Change to read:` on a profile line (`M T SV W LD OC`).
fn table_op(h: &Header, first: &str, rows: &[&Line]) -> Option<ErratumOp> {
    let [head, values] = rows else {
        return None;
    };
    let names: Vec<&str> = head.cells.iter().map(|c| c.trim()).collect();
    let cells: Vec<&str> = values.cells.iter().map(|c| c.trim()).collect();
    let skip = cells.len().checked_sub(names.len())?;
    let mut set = BTreeMap::new();
    for (n, v) in names.iter().zip(&cells[skip..]) {
        set.insert(characteristic(n)?.to_string(), v.to_string());
    }
    if let Some(name) = first
        .strip_prefix("Add ")
        .and_then(|r| r.strip_suffix(" profile:"))
    {
        if !is_weapon_section(h) {
            return None;
        }
        let printed = cells[..skip].join(" ");
        let name = if printed.is_empty() {
            name.to_string()
        } else {
            printed
        };
        return Some(op(ErratumOpKind::AddWeaponProfile, set, vec![name]));
    }
    let (_, outside) = quoted(first.strip_prefix("Change ")?);
    if !matches!(outside.trim(), "to:" | "to read:") || !set.contains_key("M") {
        return None;
    }
    Some(op(ErratumOpKind::ProfileLine, set, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes() {
        let (p, o) = quoted("‘PSYKER’ and ‘FLY’.");
        assert_eq!(p, vec!["PSYKER", "FLY"]);
        assert_eq!(o, " and .");
        let (p, _) = quoted("’Firing Deck 2’.");
        assert_eq!(p, vec!["Firing Deck 2"]);
        let (p, _) = quoted("to ‘1 Cultist’s firearm’.");
        assert_eq!(p, vec!["1 Cultist’s firearm"]);
    }

    #[test]
    fn characteristics() {
        assert_eq!(characteristic("Leadership characteristic"), Some("Ld"));
        assert_eq!(characteristic("Ballistic Skill"), Some("skill"));
        assert_eq!(characteristic("SV"), Some("Sv"));
        assert_eq!(characteristic("Colour"), None);
    }
}
