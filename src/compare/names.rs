//! The names rule: when two names are one thing. Names are folded once, by `text::fold`
//! (case, apostrophes, dashes, spaces, accents); on top of that:
//!
//! * [`name_key`] is the key records are paired by (reconciliation, merge, weapons printed
//!   elsewhere): the comparison folding, `(Ref. only)` and `[Legends]` dropped, brackets and
//!   commas as spaces, each long word singular (`Biovores` = `Biovore`);
//! * [`similar`] says why two names that are not equal under `text::fold::fold_name_key` name
//!   the same thing (the crosscheck's naming rule): a known synonym ([`SYNONYMS`], data), a
//!   plural, or a normalized edit distance of at most [`NAME_DISTANCE`] (`strsim`).
//!
//! No unit or weapon name is written here except the synonyms table.

use crate::model::Datasheet;
use crate::text::fold::{fold_for_compare, fold_name_key};

/// Largest normalized edit distance (edits / longer length) between two names called the same.
pub const NAME_DISTANCE: f64 = 0.25;

/// Known synonyms of weapon and model names, applied word by word to folded names.
pub const SYNONYMS: &[(&str, &str)] = &[("bolter", "boltgun"), ("bolters", "boltguns")];

/// A name as records are paired by it: folded (`text::fold::fold_for_compare`: case,
/// apostrophes, dashes, spaces), `(Ref. only)` and `[Legends]` dropped, brackets and commas as
/// spaces, and each word of four letters or more without a final `s` (singular and plural
/// profile names, `Biovore`/`Biovores`).
pub fn name_key(s: &str) -> String {
    fold_for_compare(s)
        .replace("(ref. only)", " ")
        .replace("[legends]", " ")
        .replace(['(', ')', '[', ']', ','], " ")
        .split_whitespace()
        .map(singular)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A word of four letters or more without its English plural ending: `-ies` → `-y`,
/// `-xes`/`-ches`/`-shes`/`-zes` → without `es`, else a final `s` dropped (not after `s`, `o`,
/// `u`, `i` — `Chaos`, `Nexus` — nor a possessive `'s`).
fn singular(w: &str) -> String {
    let keep = ["ss", "'s", "os", "us", "is"];
    if w.chars().count() < 4 || keep.iter().any(|e| w.ends_with(e)) {
        return w.to_string();
    }
    if let Some(stem) = w.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for end in ["xes", "ches", "shes", "sses", "zes"] {
        if w.ends_with(end) {
            return w[..w.len() - 2].to_string();
        }
    }
    w.strip_suffix('s').unwrap_or(w).to_string()
}

/// The [`name_key`]s of the weapons `ds` says are printed on another card.
pub fn elsewhere_keys(ds: &Datasheet) -> Vec<String> {
    ds.weapons_printed_elsewhere
        .iter()
        .map(|w| name_key(w))
        .collect()
}

/// Whether the weapon keyed `weapon` ([`name_key`]) is one of those keyed `elsewhere`
/// ([`elsewhere_keys`]): the same key, or that key and a profile (`plasma gun - standard`).
pub fn printed_elsewhere(elsewhere: &[String], weapon: &str) -> bool {
    elsewhere.iter().any(|r| {
        weapon == r
            || weapon
                .strip_prefix(r.as_str())
                .is_some_and(|rest| rest.starts_with(" - "))
    })
}

/// A folded name ([`fold_name_key`]) with [`SYNONYMS`] applied and each word singular (the
/// plural rule of [`name_key`]).
pub fn synonym_key(key: &str) -> String {
    key.split(' ')
        .map(|w| {
            singular(
                SYNONYMS
                    .iter()
                    .find(|(a, _)| *a == w)
                    .map_or(w, |(_, b)| *b),
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why two different names are the same thing, if they are: typography, a synonym or plural,
/// or a small edit distance.
pub fn similar(a: &str, b: &str) -> Option<String> {
    let (ka, kb) = (fold_name_key(a), fold_name_key(b));
    if ka == kb {
        return Some("the names differ only in case, apostrophes or dashes".to_string());
    }
    if synonym_key(&ka) == synonym_key(&kb) {
        return Some("the names differ by a known synonym or a plural".to_string());
    }
    let d = strsim::levenshtein(&ka, &kb);
    let longer = ka.chars().count().max(kb.chars().count()).max(1);
    let r = d as f64 / longer as f64;
    if r <= NAME_DISTANCE {
        return Some(format!(
            "the names differ by {d} character(s) of {longer} (normalized edit distance {r:.2})"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_key_folds_plurals_and_tags() {
        assert_eq!(name_key("Biovores"), name_key("Biovore"));
        assert_eq!(name_key("Carnifexes"), name_key("Carnifex"));
        assert_eq!(name_key("Ripper Swarms"), name_key("Ripper Swarm"));
        assert_eq!(name_key("Attendant's hellblades"), "attendant's hellblade");
        assert_eq!(name_key("Chaos"), "chaos");
        assert_eq!(name_key("Be’lakor"), name_key("Be'lakor"));
        assert_eq!(name_key("Karanak [Legends]"), "karanak");
    }

    #[test]
    fn similar_names() {
        assert!(similar("Master-crafted bolter", "Master-crafted boltgun").is_some());
        assert!(similar("Gaunt’s Ghosts", "Gaunts Ghosts").is_some());
        assert!(similar("Plasma pistol", "Plasma pistols").is_some());
        assert!(similar("Chainsword", "Power fist").is_none());
        // One plural rule for both keys: `-es` and `-ies` plurals too, `Chaos` kept.
        assert_eq!(synonym_key("carnifexes"), synonym_key("carnifex"));
        assert_eq!(synonym_key("bolters"), "boltgun");
        assert_eq!(synonym_key("chaos"), "chaos");
        // 2 edits of 10 characters: 0.2.
        let r = similar("abcdefghij", "abcdefghxy").unwrap_or_default();
        assert!(r.contains("2 character(s) of 10"), "{r}");
    }
}
