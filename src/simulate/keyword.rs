//! Weapon abilities the simulator understands, parsed from their canonical spelling
//! (`RAPID FIRE 2`, `SUSTAINED HITS D3`, `ANTI-INFANTRY 4+`).
//!
//! Owns the keyword grammar only; the effect of each keyword lives in the engines. It must
//! not decide whether a keyword applies in a given scenario.

use super::dice::{Dice, DiceError};
use std::fmt;

/// One weapon ability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keyword {
    RapidFire(Dice),
    /// BLAST, or 11th edition's BLAST X (X extra attack dice per five target models).
    Blast(u32),
    /// 11th edition's CLEAVE X (X extra attack dice per five models of the only target).
    Cleave(u32),
    Torrent,
    Heavy,
    Assault,
    Pistol,
    /// 11th edition's [CLOSE-QUARTERS], identical to PISTOL for all rules purposes (24.27).
    CloseQuarters,
    LethalHits,
    SustainedHits(Dice),
    DevastatingWounds,
    /// `ANTI-<keyword> <threshold>+`; the keyword is stored upper case.
    Anti {
        keyword: String,
        threshold: u8,
    },
    TwinLinked,
    Melta(Dice),
    Lance,
    IgnoresCover,
    IndirectFire,
    Hazardous,
    Precision,
    Psychic,
    OneShot,
    ExtraAttacks,
    /// `CONVERSION`: beyond the distance the weapon's rule names (12", 18" or 24"), an
    /// unmodified successful Hit roll of 4+ scores a Critical Hit.
    Conversion,
}

/// Why a keyword string is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeywordError {
    #[error("unknown weapon keyword {0:?}")]
    Unknown(String),
    #[error("bad parameter in weapon keyword {keyword:?}: {source}")]
    Dice { keyword: String, source: DiceError },
    #[error("bad threshold in weapon keyword {0:?} (expected 2+ to 6+)")]
    Threshold(String),
}

impl Keyword {
    /// Parses one keyword, case-insensitive, inner whitespace collapsed.
    pub fn parse(input: &str) -> Result<Keyword, KeywordError> {
        // 11th edition prints abilities in brackets: `[ANTI-VEHICLE 4+]`.
        let bare = input.trim();
        let bare = bare
            .strip_prefix('[')
            .and_then(|b| b.strip_suffix(']'))
            .unwrap_or(bare);
        let norm = bare
            .replace(['\u{2011}', '\u{2010}'], "-")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_uppercase();
        let dice = |param: &str| {
            Dice::parse(param).map_err(|source| KeywordError::Dice {
                keyword: input.to_string(),
                source,
            })
        };
        let simple = match norm.as_str() {
            "BLAST" => Some(Keyword::Blast(1)),
            "TORRENT" => Some(Keyword::Torrent),
            "HEAVY" => Some(Keyword::Heavy),
            "ASSAULT" => Some(Keyword::Assault),
            "PISTOL" => Some(Keyword::Pistol),
            "CLOSE-QUARTERS" | "CLOSE QUARTERS" => Some(Keyword::CloseQuarters),
            "LETHAL HITS" => Some(Keyword::LethalHits),
            "DEVASTATING WOUNDS" => Some(Keyword::DevastatingWounds),
            "TWIN-LINKED" | "TWIN LINKED" => Some(Keyword::TwinLinked),
            "LANCE" => Some(Keyword::Lance),
            "IGNORES COVER" => Some(Keyword::IgnoresCover),
            "INDIRECT FIRE" => Some(Keyword::IndirectFire),
            "HAZARDOUS" => Some(Keyword::Hazardous),
            "PRECISION" => Some(Keyword::Precision),
            "PSYCHIC" => Some(Keyword::Psychic),
            "ONE SHOT" => Some(Keyword::OneShot),
            "EXTRA ATTACKS" => Some(Keyword::ExtraAttacks),
            "CONVERSION" => Some(Keyword::Conversion),
            _ => None,
        };
        if let Some(k) = simple {
            return Ok(k);
        }
        for (prefix, make) in [
            ("BLAST ", Keyword::Blast as fn(u32) -> Keyword),
            ("CLEAVE ", Keyword::Cleave),
        ] {
            if let Some(p) = norm.strip_prefix(prefix) {
                return match p.trim().parse::<u32>() {
                    Ok(x) if (1..=10).contains(&x) => Ok(make(x)),
                    _ => Err(KeywordError::Unknown(input.to_string())),
                };
            }
        }
        if let Some(p) = norm.strip_prefix("RAPID FIRE ") {
            return Ok(Keyword::RapidFire(dice(p)?));
        }
        if let Some(p) = norm.strip_prefix("SUSTAINED HITS ") {
            return Ok(Keyword::SustainedHits(dice(p)?));
        }
        if let Some(p) = norm.strip_prefix("MELTA ") {
            return Ok(Keyword::Melta(dice(p)?));
        }
        if let Some(rest) = norm.strip_prefix("ANTI-") {
            let Some((kw, th)) = rest.rsplit_once(' ') else {
                return Err(KeywordError::Threshold(input.to_string()));
            };
            let threshold =
                parse_threshold(th).ok_or_else(|| KeywordError::Threshold(input.to_string()))?;
            if kw.trim().is_empty() {
                return Err(KeywordError::Unknown(input.to_string()));
            }
            return Ok(Keyword::Anti {
                keyword: kw.trim().to_string(),
                threshold,
            });
        }
        Err(KeywordError::Unknown(input.to_string()))
    }

    /// True for abilities that never change the numbers of a single volley.
    pub fn has_numeric_effect(&self) -> bool {
        !matches!(
            self,
            Keyword::Assault
                | Keyword::Pistol
                | Keyword::CloseQuarters
                | Keyword::Precision
                | Keyword::Psychic
                | Keyword::OneShot
                | Keyword::ExtraAttacks
        )
    }
}

/// `4+` → 4 (2..=6 only).
pub fn parse_threshold(s: &str) -> Option<u8> {
    let n: u8 = s.trim().strip_suffix('+')?.trim().parse().ok()?;
    (2..=6).contains(&n).then_some(n)
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Keyword::RapidFire(d) => write!(f, "RAPID FIRE {d}"),
            Keyword::Blast(1) => f.write_str("BLAST"),
            Keyword::Blast(x) => write!(f, "BLAST {x}"),
            Keyword::Cleave(x) => write!(f, "CLEAVE {x}"),
            Keyword::Torrent => f.write_str("TORRENT"),
            Keyword::Heavy => f.write_str("HEAVY"),
            Keyword::Assault => f.write_str("ASSAULT"),
            Keyword::Pistol => f.write_str("PISTOL"),
            Keyword::CloseQuarters => f.write_str("CLOSE-QUARTERS"),
            Keyword::LethalHits => f.write_str("LETHAL HITS"),
            Keyword::SustainedHits(d) => write!(f, "SUSTAINED HITS {d}"),
            Keyword::DevastatingWounds => f.write_str("DEVASTATING WOUNDS"),
            Keyword::Anti { keyword, threshold } => write!(f, "ANTI-{keyword} {threshold}+"),
            Keyword::TwinLinked => f.write_str("TWIN-LINKED"),
            Keyword::Melta(d) => write!(f, "MELTA {d}"),
            Keyword::Lance => f.write_str("LANCE"),
            Keyword::IgnoresCover => f.write_str("IGNORES COVER"),
            Keyword::IndirectFire => f.write_str("INDIRECT FIRE"),
            Keyword::Hazardous => f.write_str("HAZARDOUS"),
            Keyword::Precision => f.write_str("PRECISION"),
            Keyword::Psychic => f.write_str("PSYCHIC"),
            Keyword::OneShot => f.write_str("ONE SHOT"),
            Keyword::ExtraAttacks => f.write_str("EXTRA ATTACKS"),
            Keyword::Conversion => f.write_str("CONVERSION"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_round_trip() {
        for s in [
            "RAPID FIRE 2",
            "RAPID FIRE D3",
            "BLAST",
            "SUSTAINED HITS 1",
            "SUSTAINED HITS D3",
            "ANTI-INFANTRY 4+",
            "ANTI-FLY 2+",
            "DEVASTATING WOUNDS",
            "TWIN-LINKED",
            "MELTA 2",
            "MELTA D3",
            "LETHAL HITS",
            "ONE SHOT",
        ] {
            let k = Keyword::parse(s).unwrap();
            assert_eq!(k.to_string(), s);
        }
        assert_eq!(
            Keyword::parse(" sustained  hits 2 ").unwrap(),
            Keyword::SustainedHits(Dice::constant(2))
        );
    }

    #[test]
    fn rejects_unknown_and_malformed() {
        assert!(matches!(
            Keyword::parse("SHADOW FORM"),
            Err(KeywordError::Unknown(_))
        ));
        assert_eq!(Keyword::parse("conversion"), Ok(Keyword::Conversion));
        assert!(matches!(
            Keyword::parse("RAPID FIRE X"),
            Err(KeywordError::Dice { .. })
        ));
        assert!(matches!(
            Keyword::parse("ANTI-INFANTRY 7+"),
            Err(KeywordError::Threshold(_))
        ));
        assert!(matches!(
            Keyword::parse("ANTI-INFANTRY"),
            Err(KeywordError::Threshold(_))
        ));
    }
}
