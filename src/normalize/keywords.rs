//! Weapon abilities: the raw bracketed keywords of a weapon line → the canonical spelling of
//! the datasheet's edition's vocabulary (`schemas/keywords.yaml`, `schemas/keywords-11e.yaml`:
//! `Twin Linked` → `TWIN-LINKED`, `Anti-FLY 2` → `ANTI-FLY 2+`).
//!
//! Owns keyword matching (case-insensitive, `-` and space alike), parameter checking and the
//! canonical order of a weapon's keyword list. Pure: no diagnostics, no I/O. A keyword outside
//! the vocabulary is returned as [`KeywordOutcome::Unique`] and must be kept verbatim.

use super::grammar::{dice_canonical, fold_typography};
use super::schema::{KeywordDef, Param, Vocabulary};

/// What [`keyword`] made of one raw keyword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeywordOutcome {
    /// Already canonical and in the vocabulary.
    Canonical,
    /// In the vocabulary, spelled another way: the canonical spelling.
    Respelled(String),
    /// Not in the vocabulary: kept verbatim (a datasheet-unique ability).
    Unique,
    /// In the vocabulary, but its parameter is missing or malformed: the rule in words.
    BadParameter(String),
}

fn words(s: &str) -> Vec<&str> {
    s.split([' ', '-']).filter(|w| !w.is_empty()).collect()
}

fn compact(s: &str) -> String {
    s.chars().filter(|c| *c != ' ' && *c != '-').collect()
}

/// The canonical amount (`2`, `D3`, `2D6`) or `None`.
fn amount(s: &str) -> Option<String> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let n: u64 = s.parse().ok()?;
        return (n >= 1).then(|| n.to_string());
    }
    dice_canonical(s)
}

fn anti_roll(s: &str) -> Option<u32> {
    let digits = s.strip_suffix('+').unwrap_or(s);
    let n: u32 = digits.parse().ok()?;
    (2..=6).contains(&n).then_some(n)
}

/// Matches `upper` (folded, upper case) against one vocabulary entry.
fn match_entry(k: &KeywordDef, upper: &str) -> Option<Result<String, String>> {
    let name = &k.name.value;
    let w = words(upper);
    let nw = words(name);
    if k.parameter == Param::Anti {
        if w.first() != Some(&"ANTI") {
            return None;
        }
        let rest = &w[1..];
        let bad = || {
            Err(format!(
                "`{}` needs a target keyword and a roll 2+..6+",
                k.form
            ))
        };
        let Some((last, kw)) = rest.split_last() else {
            return Some(bad());
        };
        if kw.is_empty() {
            return Some(bad());
        }
        return Some(match anti_roll(last) {
            Some(n) => Ok(format!("ANTI-{} {n}+", kw.join(" "))),
            None => bad(),
        });
    }
    if w.len() >= nw.len() && w[..nw.len()] == nw[..] {
        let rest = &w[nw.len()..];
        return match k.parameter {
            Param::None | Param::OptionalAmount if rest.is_empty() => Some(Ok(name.clone())),
            Param::None => None,
            _ => {
                let bad = || {
                    Err(format!(
                        "`{}` needs a number >= 1 or a dice expression",
                        k.form
                    ))
                };
                Some(match rest {
                    [p] => match amount(p) {
                        Some(a) => Ok(format!("{name} {a}")),
                        None => bad(),
                    },
                    _ => bad(),
                })
            }
        };
    }
    if matches!(k.parameter, Param::None | Param::OptionalAmount) && compact(upper) == compact(name)
    {
        return Some(Ok(name.clone()));
    }
    None
}

/// Classifies and respells one raw keyword.
pub fn keyword(vocab: &Vocabulary, raw: &str) -> KeywordOutcome {
    let folded = fold_typography(raw);
    let inner = folded
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim()
        .to_uppercase();
    for k in &vocab.keywords {
        match match_entry(k, &inner) {
            Some(Ok(canon)) if canon == raw => return KeywordOutcome::Canonical,
            Some(Ok(canon)) => return KeywordOutcome::Respelled(canon),
            Some(Err(rule)) => return KeywordOutcome::BadParameter(rule),
            None => {}
        }
    }
    KeywordOutcome::Unique
}

/// The vocabulary entry a canonical keyword belongs to, if any.
pub fn entry<'v>(vocab: &'v Vocabulary, canonical: &str) -> Option<&'v KeywordDef> {
    vocab
        .keywords
        .iter()
        .find(|k| matches!(match_entry(k, canonical), Some(Ok(c)) if c == canonical))
}

/// Puts a weapon's keywords in canonical order: alphabetical (case-insensitive), repeats removed.
pub fn canonical_order(keywords: &[String]) -> Vec<String> {
    let mut v = keywords.to_vec();
    v.sort_by(|a, b| {
        a.to_uppercase()
            .cmp(&b.to_uppercase())
            .then_with(|| a.cmp(b))
    });
    v.dedup();
    v
}

/// Several vocabulary keywords glued into one string by a source (`sustained hits 1. twin-linked`):
/// the canonical parts, when every part is in the vocabulary; otherwise `None`.
pub fn split_glued(vocab: &Vocabulary, k: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = k
        .split([',', '.', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    parts
        .into_iter()
        .map(|p| match keyword(vocab, p) {
            KeywordOutcome::Canonical => Some(p.to_string()),
            KeywordOutcome::Respelled(c) => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::schema::contract;

    fn kw(s: &str) -> KeywordOutcome {
        keyword(&contract().vocabulary, s)
    }

    #[test]
    fn spellings() {
        assert_eq!(kw("TWIN-LINKED"), KeywordOutcome::Canonical);
        assert_eq!(
            kw("Twin Linked"),
            KeywordOutcome::Respelled("TWIN-LINKED".into())
        );
        assert_eq!(
            kw("Anti-FLY 2"),
            KeywordOutcome::Respelled("ANTI-FLY 2+".into())
        );
        assert_eq!(
            kw("Anti Vehicle 3+"),
            KeywordOutcome::Respelled("ANTI-VEHICLE 3+".into())
        );
        assert_eq!(
            kw("sustained hits d3"),
            KeywordOutcome::Respelled("SUSTAINED HITS D3".into())
        );
        assert_eq!(kw("ZHADSNARK"), KeywordOutcome::Unique);
        assert_eq!(kw("Heavy Flamer"), KeywordOutcome::Unique);
        assert!(matches!(kw("Rapid Fire"), KeywordOutcome::BadParameter(_)));
        assert!(matches!(
            kw("Anti-Infantry"),
            KeywordOutcome::BadParameter(_)
        ));
        assert!(matches!(
            kw("Anti-Infantry 7+"),
            KeywordOutcome::BadParameter(_)
        ));
    }

    #[test]
    fn eleventh_edition_spellings() {
        let v = contract().vocabulary_for(crate::model::Edition::Eleventh);
        let kw = |s: &str| keyword(v, s);
        assert_eq!(kw("CLEAVE 1"), KeywordOutcome::Canonical);
        assert_eq!(
            kw("cleave d3"),
            KeywordOutcome::Respelled("CLEAVE D3".into())
        );
        assert!(matches!(kw("Cleave"), KeywordOutcome::BadParameter(_)));
        assert_eq!(
            kw("CLOSE\u{2011}QUARTERS"),
            KeywordOutcome::Respelled("CLOSE-QUARTERS".into())
        );
        assert_eq!(kw("Blast"), KeywordOutcome::Respelled("BLAST".into()));
        assert_eq!(kw("Blast 2"), KeywordOutcome::Respelled("BLAST 2".into()));
        assert!(matches!(kw("BLAST two"), KeywordOutcome::BadParameter(_)));
        // 10th edition: CLEAVE is not a weapon ability, BLAST takes no parameter
        assert_eq!(
            keyword(&contract().vocabulary, "CLEAVE 1"),
            KeywordOutcome::Unique
        );
        assert_eq!(
            keyword(&contract().vocabulary, "BLAST 2"),
            KeywordOutcome::Unique
        );
    }

    #[test]
    fn order() {
        let v: Vec<String> = ["PSYCHIC", "BLAST", "PSYCHIC"].map(String::from).to_vec();
        assert_eq!(canonical_order(&v), vec!["BLAST", "PSYCHIC"]);
    }
}
