//! Conversion of dataset records ([`WeaponProfile`], [`Datasheet`]) into simulator inputs
//! ([`Weapon`], [`Target`]), and of canonical characteristic strings (`3+`, `N/A`, `-2`,
//! `12"`, `Melee`).
//!
//! Characteristics are read by their names in `schemas/characteristics.yaml` (`T`, `Sv`, `W`
//! on every edition's model line; `A`/`skill`/`S`/`AP`/`D` on a 10th-edition weapon, `S`/`AP`/`D`
//! and the shots of `weapon_type` on a 9th-edition one), never by position.
//!
//! Owns the reading of canonical strings only; it returns typed errors and must not emit
//! diagnostics, print, or guess a value the record lacks.

use super::dice::{Dice, DiceError};
use super::keyword::{parse_threshold, Keyword, KeywordError};
use super::{Target, Weapon};
use crate::model::{Datasheet, WeaponProfile, WeaponType};

/// Why a record cannot become a simulator input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    #[error("{field} is missing")]
    Missing { field: &'static str },
    #[error("{field}: {source}")]
    Dice {
        field: &'static str,
        source: DiceError,
    },
    #[error("{field} not understood: {value:?}")]
    Characteristic { field: &'static str, value: String },
    #[error("{0}")]
    Keyword(KeywordError),
}

/// `3+` → `Some(3)`; `N/A` → `None`.
pub fn parse_skill(s: &str) -> Result<Option<u8>, ProfileError> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("N/A") || t == "-" || t == "–" {
        return Ok(None);
    }
    parse_threshold(t)
        .map(Some)
        .ok_or_else(|| ProfileError::Characteristic {
            field: "skill",
            value: s.to_string(),
        })
}

/// `-2` → -2; `0` → 0.
pub fn parse_ap(s: &str) -> Result<i32, ProfileError> {
    let t = s.trim().replace(['–', '−'], "-");
    match t.parse::<i32>() {
        Ok(v) if (-6..=0).contains(&v) => Ok(v),
        _ => Err(ProfileError::Characteristic {
            field: "AP",
            value: s.to_string(),
        }),
    }
}

/// A positive integer characteristic (S, T, W).
pub fn parse_positive(field: &'static str, s: &str) -> Result<u32, ProfileError> {
    match s.trim().parse::<u32>() {
        Ok(v) if (1..=100).contains(&v) => Ok(v),
        _ => Err(ProfileError::Characteristic {
            field,
            value: s.to_string(),
        }),
    }
}

/// A save characteristic: `3+` → `Some(3)`; `-` → `None` (no save).
pub fn parse_save(field: &'static str, s: &str) -> Result<Option<u8>, ProfileError> {
    let t = s.trim();
    if t == "-" || t == "–" {
        return Ok(None);
    }
    parse_threshold(t)
        .map(Some)
        .ok_or_else(|| ProfileError::Characteristic {
            field,
            value: s.to_string(),
        })
}

/// `12"` → `Some(12)`; `Melee` → `None`.
pub fn parse_range(s: &str) -> Result<Option<u32>, ProfileError> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("melee") {
        return Ok(None);
    }
    let digits = t.trim_end_matches(['"', '\'', '”', '″']).trim();
    digits
        .parse::<u32>()
        .map(Some)
        .map_err(|_| ProfileError::Characteristic {
            field: "range",
            value: s.to_string(),
        })
}

fn required<'a>(field: &'static str, v: Option<&'a str>) -> Result<&'a str, ProfileError> {
    match v.map(str::trim) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(ProfileError::Missing { field }),
    }
}

fn dice(field: &'static str, s: &str) -> Result<Dice, ProfileError> {
    Dice::parse(s).map_err(|source| ProfileError::Dice { field, source })
}

/// The attacks of a weapon: its `A` (10th edition), or the shots its `weapon_type` prints
/// (9th edition: `Rapid Fire 1` → `1`, `Assault 2D3` → `2D3`); `None` when it has neither
/// (a 9th-edition melee weapon takes its attacks from the model).
fn weapon_attacks(p: &WeaponProfile) -> Option<&str> {
    if let Some(a) = p.get("A") {
        return Some(a);
    }
    let t = p.get("weapon_type")?.trim();
    let (_, shots) = t.rsplit_once(' ')?;
    shots
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == 'D')
        .then_some(shots)
}

/// A weapon from a dataset profile, its characteristics read by name: 10th edition `A`,
/// `skill`, `S`, `AP`, `D`; a 9th-edition profile gives its attacks through `weapon_type`
/// and has no `skill` (the model's BS/WS: pass it to the caller's override), so it fails with
/// `skill (BS/WS) is missing` unless one is set. Keywords the simulator does not know are left out and
/// returned (second element) so the caller can report them; a known keyword with a bad
/// parameter (`RAPID FIRE X`) is an error.
pub fn weapon_from_profile(p: &WeaponProfile) -> Result<(Weapon, Vec<String>), ProfileError> {
    let attacks = dice("attacks (A)", required("attacks (A)", weapon_attacks(p))?)?;
    let skill = parse_skill(required("skill (BS/WS)", p.get("skill"))?)?;
    let strength = parse_positive("strength (S)", required("strength (S)", p.get("S"))?)?;
    let ap = parse_ap(required("AP", p.get("AP"))?)?;
    let damage = dice("damage (D)", required("damage (D)", p.get("D"))?)?;
    let melee = match p.get("range") {
        Some(r) if r.trim().eq_ignore_ascii_case("melee") => true,
        _ => p.kind == WeaponType::Melee,
    };
    let mut keywords = Vec::new();
    let mut unknown = Vec::new();
    for k in &p.keywords {
        match Keyword::parse(k) {
            Ok(k) => keywords.push(k),
            Err(KeywordError::Unknown(s)) => unknown.push(s),
            Err(e) => return Err(ProfileError::Keyword(e)),
        }
    }
    let weapon = Weapon {
        name: p.name.clone(),
        melee,
        attacks,
        skill,
        strength,
        ap,
        damage,
        keywords,
    };
    Ok((weapon, unknown))
}

/// A 9th-edition weapon profile as its bearer uses it: the skill is the bearer's BS (ranged)
/// or WS (melee); a melee weapon's attacks are the bearer's A; a strength printed `User`,
/// `+N` or `xN` is the bearer's S, plus N or times N. The bearer is the datasheet's first
/// model profile. Other editions' profiles are returned unchanged.
pub fn bearer_profile(ds: &Datasheet, p: &WeaponProfile) -> Result<WeaponProfile, ProfileError> {
    if ds.edition != crate::model::Edition::Ninth {
        return Ok(p.clone());
    }
    let m = ds.models.first().ok_or(ProfileError::Missing {
        field: "model profile (the bearer)",
    })?;
    let mut w = p.clone();
    let melee = matches!(p.get("range"), Some(r) if r.trim().eq_ignore_ascii_case("melee"));
    let skill = if melee { m.get("WS") } else { m.get("BS") };
    w.set("skill", skill.map(str::to_string));
    if melee {
        w.set("A", m.get("A").map(str::to_string));
    }
    let s = required("strength (S)", p.get("S"))?;
    let user = || parse_positive("bearer strength (S)", required("strength (S)", m.get("S"))?);
    let strength = if s.eq_ignore_ascii_case("user") {
        user()?
    } else if let Some(n) = s.strip_prefix('+') {
        user()? + parse_positive("strength (S)", n)?
    } else if let Some(n) = s.strip_prefix(['x', '×']) {
        user()? * parse_positive("strength (S)", n)?
    } else {
        parse_positive("strength (S)", s)?
    };
    w.set("S", Some(strength.to_string()));
    Ok(w)
}

/// A target from a datasheet: its first model profile's T, Sv and W, its invulnerable save,
/// the model count of its smallest points option (1 if it has none), its keywords, and a
/// `Feel No Pain x+` ability if it has one.
pub fn target_from_datasheet(ds: &Datasheet) -> Result<Target, ProfileError> {
    let m = ds.models.first().ok_or(ProfileError::Missing {
        field: "model profile",
    })?;
    let toughness = parse_positive("toughness (T)", required("toughness (T)", m.get("T"))?)?;
    let save = parse_save("save (Sv)", required("save (Sv)", m.get("Sv"))?)?;
    let wounds = parse_positive("wounds (W)", required("wounds (W)", m.get("W"))?)?;
    let invuln = match ds.invulnerable_save.as_deref() {
        Some(s) if !s.trim().is_empty() => parse_save("invulnerable save", s)?,
        _ => None,
    };
    let models = ds
        .points
        .iter()
        .map(|p| p.models)
        .filter(|&n| n > 0)
        .min()
        .unwrap_or(1);
    let fnp = ds
        .abilities
        .iter()
        .filter(|a| a.name.trim().eq_ignore_ascii_case("feel no pain"))
        .filter_map(|a| a.parameter.as_deref().and_then(parse_threshold))
        .min();
    let mut keywords = ds.keywords.clone();
    keywords.extend(ds.faction_keywords.iter().cloned());
    Ok(Target {
        models,
        toughness,
        save,
        invuln,
        wounds,
        fnp,
        keywords,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characteristics() {
        assert_eq!(parse_skill("3+"), Ok(Some(3)));
        assert_eq!(parse_skill("N/A"), Ok(None));
        assert!(parse_skill("7+").is_err());
        assert_eq!(parse_ap("-2"), Ok(-2));
        assert_eq!(parse_ap("0"), Ok(0));
        assert!(parse_ap("2").is_err());
        assert_eq!(parse_range("24\""), Ok(Some(24)));
        assert_eq!(parse_range("Melee"), Ok(None));
        assert_eq!(parse_save("Sv", "-"), Ok(None));
    }

    fn weapon(edition: crate::model::Edition, vals: &[(&str, &str)]) -> WeaponProfile {
        let mut w = WeaponProfile::new(
            edition,
            "Gun".into(),
            WeaponType::Ranged,
            Default::default(),
        );
        for (k, v) in vals {
            w.set(k, Some(v.to_string()));
        }
        w
    }

    #[test]
    fn characteristics_are_read_by_name_in_every_edition() {
        use crate::model::Edition;
        let tenth = weapon(
            Edition::Tenth,
            &[
                ("range", "24\""),
                ("A", "2"),
                ("skill", "3+"),
                ("S", "4"),
                ("AP", "-1"),
                ("D", "1"),
            ],
        );
        let (w, _) = weapon_from_profile(&tenth).expect("10th-edition weapon");
        assert_eq!((w.strength, w.ap, w.skill), (4, -1, Some(3)));
        // 9th edition: shots from the weapon type; BS lives on the model line.
        let mut ninth = weapon(
            Edition::Ninth,
            &[
                ("range", "24\""),
                ("weapon_type", "Rapid Fire 1"),
                ("S", "4"),
                ("AP", "-1"),
                ("D", "1"),
            ],
        );
        assert_eq!(
            weapon_from_profile(&ninth).map(|_| ()),
            Err(ProfileError::Missing {
                field: "skill (BS/WS)"
            })
        );
        ninth.set("skill", Some("3+".into()));
        let (w, _) = weapon_from_profile(&ninth).expect("9th-edition weapon with a skill");
        assert_eq!(w.attacks, Dice::parse("1").expect("dice"));
        assert_eq!((w.strength, w.ap), (4, -1));
    }
}
