//! Normalization: the raw strings extractors produce → canonical values. Pure.
//!
//! Owns the canonical forms of the output contract: ASCII inch marks and minus signs, upper-case
//! dice (`2D6+2`), rolls with `+`, `Melee`, `N/A`, weapon keywords upper case with their
//! parameter. Every change to a value that was not already canonical is countable. It must not
//! read files, and it never guesses a value that is not there.

use crate::extract::Extracted;
use crate::model::WeaponProfile;

/// Typography folding for values: curly quotes and primes to ASCII, dashes and U+2212 to
/// hyphen-minus, non-breaking spaces to spaces, `&#34;` to `"`; whitespace collapsed.
pub fn fold_typography(s: &str) -> String {
    let s = s.replace("&#34;", "\"").replace("&quot;", "\"");
    let mapped: String = s
        .chars()
        .map(|c| match c {
            '\u{201C}' | '\u{201D}' | '\u{2033}' | '\u{201E}' => '"',
            '\u{2018}' | '\u{2019}' | '\u{2032}' => '\'',
            '\u{2212}' | '\u{2013}' | '\u{2014}' | '\u{2010}' | '\u{2011}' => '-',
            '\u{00A0}' | '\u{2009}' | '\u{202F}' => ' ',
            c => c,
        })
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Canonical characteristic value: typography folded, dice upper case (`2d6` → `2D6`),
/// `n/a` → `N/A`, `melee` → `Melee`, `-0` → `0`.
pub fn characteristic(s: &str) -> String {
    let v = fold_typography(s);
    let lower = v.to_ascii_lowercase();
    match lower.as_str() {
        "melee" => return "Melee".to_string(),
        "n/a" | "na" => return "N/A".to_string(),
        "-0" | "+0" => return "0".to_string(),
        _ => {}
    }
    if lower.contains('d')
        && lower
            .chars()
            .all(|c| c.is_ascii_digit() || "d+- ".contains(c))
    {
        return lower.replace(' ', "").to_ascii_uppercase();
    }
    v
}

/// Canonical weapon keyword: upper case, single spaces (`rapid fire 2` → `RAPID FIRE 2`).
pub fn weapon_keyword(s: &str) -> String {
    fold_typography(s).to_uppercase()
}

fn weapon(w: &mut WeaponProfile) {
    for v in [
        &mut w.range,
        &mut w.attacks,
        &mut w.skill,
        &mut w.strength,
        &mut w.ap,
        &mut w.damage,
    ]
    .into_iter()
    .flatten()
    {
        *v = characteristic(v);
    }
    for k in &mut w.keywords {
        *k = weapon_keyword(k);
    }
}

/// Normalizes every value of one document's records in place.
pub fn normalize(ex: &mut Extracted) {
    for ds in &mut ex.datasheets {
        for m in &mut ds.models {
            for v in [
                &mut m.m, &mut m.t, &mut m.sv, &mut m.w, &mut m.ld, &mut m.oc,
            ]
            .into_iter()
            .flatten()
            {
                *v = characteristic(v);
            }
        }
        if let Some(v) = &mut ds.invulnerable_save {
            *v = characteristic(v);
        }
        for w in &mut ds.weapons {
            weapon(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_values() {
        assert_eq!(characteristic("24&#34;"), "24\"");
        assert_eq!(characteristic("24\u{201D}"), "24\"");
        assert_eq!(characteristic("\u{2212}2"), "-2");
        assert_eq!(characteristic("2d6+2"), "2D6+2");
        assert_eq!(characteristic("melee"), "Melee");
        assert_eq!(characteristic("n/a"), "N/A");
        assert_eq!(characteristic("-0"), "0");
        assert_eq!(weapon_keyword("anti-infantry 4+"), "ANTI-INFANTRY 4+");
    }
}
