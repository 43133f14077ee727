//! The editions as data: the bottom of the contract, read by `model`, `vocab`, `normalize` and
//! every reader. Owns [`Edition`] (one value per entry of `schemas/editions.yaml`, its id the id
//! prefix of the edition's records), [`ProfileKind`], the characteristics each edition prints on
//! a model and a weapon line ([`profile_fields`], `editions.yaml` `profiles`), the
//! weapon-ability vocabularies (`schemas/keywords.yaml`, `schemas/keywords-11e.yaml`:
//! [`KeywordVocabulary`], [`weapon_abilities`], [`vocabulary_of`]) and the BattleScribe game
//! systems of each edition ([`edition_of_battlescribe_system`]).
//!
//! Architecture invariant: this module imports no other module of the crate (it is the lowest
//! layer; `tests/it/tidy.rs` checks there is no import circle). It must not parse sources,
//! normalize values or do I/O: the YAML is `include_str!`ed, and a mistake in it is a build
//! defect the tests catch (`normalize::schema` reports the same files with located errors).

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use std::sync::OnceLock;

/// `schemas/editions.yaml`: the editions, their profiles and their vocabulary files.
pub const EDITIONS_FILE: (&str, &str) = ("editions.yaml", include_str!("../schemas/editions.yaml"));

/// `schemas/keywords.yaml`: the 10th-edition weapon-ability vocabulary.
pub const KEYWORDS_FILE: (&str, &str) = ("keywords.yaml", include_str!("../schemas/keywords.yaml"));

/// `schemas/keywords-11e.yaml`: the 11th-edition weapon-ability vocabulary.
pub const KEYWORDS_11E_FILE: (&str, &str) = (
    "keywords-11e.yaml",
    include_str!("../schemas/keywords-11e.yaml"),
);

/// Every weapon-ability vocabulary file an `editions.yaml` entry may name (`weapon_abilities`).
pub const KEYWORD_FILES: &[(&str, &str)] = &[KEYWORDS_FILE, KEYWORDS_11E_FILE];

/// Game system and edition a record belongs to: one value per entry of `schemas/editions.yaml`,
/// in its order (checked by the tests), serialized as the entry's `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Edition {
    /// Warhammer 40,000, 10th edition.
    #[serde(rename = "10e")]
    Tenth,
    /// Warhammer 40,000, 9th edition.
    #[serde(rename = "9e")]
    Ninth,
    /// Horus Heresy: Age of Darkness (2nd edition).
    #[serde(rename = "hh2")]
    HorusHeresy2,
    /// Warhammer 40,000, 11th edition (current since mid-2026).
    #[serde(rename = "11e")]
    Eleventh,
}

impl Edition {
    /// Every edition, in `schemas/editions.yaml` order.
    pub const ALL: &'static [Edition] = &[
        Edition::Tenth,
        Edition::Ninth,
        Edition::HorusHeresy2,
        Edition::Eleventh,
    ];

    /// The edition's id (`10e`): its records' id prefix, its key in the schemas.
    pub fn as_str(self) -> &'static str {
        match self {
            Edition::Tenth => "10e",
            Edition::Ninth => "9e",
            Edition::HorusHeresy2 => "hh2",
            Edition::Eleventh => "11e",
        }
    }

    /// The edition whose id is `id`.
    pub fn from_id(id: &str) -> Option<Edition> {
        Edition::ALL.iter().copied().find(|e| e.as_str() == id)
    }

    /// The edition's entry of `schemas/editions.yaml` (every edition has one: tested).
    pub fn data(self) -> Option<&'static EditionData> {
        editions().iter().find(|d| d.id.value == self.as_str())
    }
}

/// Which line of a datasheet a profile is: a model's or a weapon's. Each edition prints its
/// own characteristics on each (`schemas/editions.yaml`, `profiles`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProfileKind {
    Model,
    Weapon,
}

impl ProfileKind {
    /// The characteristics of this profile kind in `edition`, in the edition's order, as the
    /// contract (`schemas/editions.yaml`, `profiles`) defines them.
    pub fn fields(self, edition: Edition) -> &'static [String] {
        profile_fields(edition, self)
    }
}

/// The characteristics an edition prints on each profile line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profiles {
    pub model: Vec<String>,
    pub weapon: Vec<String>,
}

impl Profiles {
    /// The characteristics of a `kind` line.
    pub fn of(&self, kind: ProfileKind) -> &[String] {
        match kind {
            ProfileKind::Model => &self.model,
            ProfileKind::Weapon => &self.weapon,
        }
    }
}

/// One entry of `schemas/editions.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditionData {
    pub id: Spanned<String>,
    pub title: String,
    pub profiles: Profiles,
    /// The file of the edition's weapon-ability vocabulary (`keywords.yaml`), if it has one.
    #[serde(default)]
    pub weapon_abilities: Option<Spanned<String>>,
    /// Phrases (lower case) a document of the edition prints: what tells a text's edition.
    #[serde(default)]
    pub markers: Vec<String>,
    /// The ids of the BattleScribe game systems whose data is this edition (a game system's
    /// `id`, a catalogue's `gameSystemId`).
    #[serde(default)]
    pub battlescribe_systems: Vec<String>,
}

/// `schemas/editions.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditionsFile {
    pub editions: Vec<EditionData>,
}

/// Parameter grammar of a weapon ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Param {
    /// No parameter: `BLAST`.
    None,
    /// A number >= 1 or a dice expression: `RAPID FIRE 2`, `SUSTAINED HITS D3`.
    Amount,
    /// A target keyword and a roll 2+..6+: `ANTI-INFANTRY 4+`.
    Anti,
    /// None or an amount: 11th edition's `BLAST` and `BLAST 2`.
    #[serde(rename = "optional_amount")]
    OptionalAmount,
}

/// One weapon ability of the vocabulary.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordDef {
    pub name: Spanned<String>,
    pub form: String,
    pub parameter: Param,
    /// Slug of the rule: rule id is `rule_prefix + rule`.
    pub rule: String,
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// A weapon-ability vocabulary file (`schemas/keywords.yaml`, `schemas/keywords-11e.yaml`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordVocabulary {
    pub rule_prefix: String,
    pub order: Spanned<String>,
    pub keywords: Vec<KeywordDef>,
}

impl KeywordVocabulary {
    /// The rule id a vocabulary keyword refers to (`10e:weapon_ability:rapid-fire`).
    pub fn rule_id(&self, k: &KeywordDef) -> String {
        format!("{}{}", self.rule_prefix, k.rule)
    }
}

/// The embedded `schemas/editions.yaml`, in file order. The file is checked by the tests
/// (`normalize::schema::load` reports it with located errors), so a failure here is a build
/// defect, not bad input.
pub fn editions() -> &'static [EditionData] {
    static E: OnceLock<Vec<EditionData>> = OnceLock::new();
    E.get_or_init(|| {
        serde_saphyr::from_str::<EditionsFile>(EDITIONS_FILE.1)
            .unwrap_or_else(|e| panic!("embedded schemas/editions.yaml is invalid: {e}"))
            .editions
    })
}

/// The characteristics of `edition`'s `kind` profile, in order, as `schemas/editions.yaml`
/// lists them: the one place extraction, normalization, crosscheck and the simulator take
/// them from (10th-edition model: `M T Sv W Ld OC`); empty for an edition without an entry.
pub fn profile_fields(edition: Edition, kind: ProfileKind) -> &'static [String] {
    edition.data().map_or(&[], |d| d.profiles.of(kind))
}

/// The embedded weapon-ability vocabularies ([`KEYWORD_FILES`], in that order). The files are
/// checked by the tests (`normalize::schema::load` reports them with located errors), so a
/// failure here is a build defect, not bad input.
fn keyword_vocabularies() -> &'static [KeywordVocabulary] {
    static V: OnceLock<Vec<KeywordVocabulary>> = OnceLock::new();
    V.get_or_init(|| {
        KEYWORD_FILES
            .iter()
            .map(|(name, text)| {
                serde_saphyr::from_str(text)
                    .unwrap_or_else(|e| panic!("embedded schemas/{name} is invalid: {e}"))
            })
            .collect()
    })
}

/// The embedded 10th-edition weapon-ability vocabulary (`schemas/keywords.yaml`).
pub fn keyword_vocabulary() -> &'static KeywordVocabulary {
    &keyword_vocabularies()[0]
}

/// The embedded vocabulary file `name` of [`KEYWORD_FILES`] (`keywords-11e.yaml`).
pub fn vocabulary_file(name: &str) -> Option<&'static KeywordVocabulary> {
    KEYWORD_FILES
        .iter()
        .position(|(n, _)| *n == name)
        .and_then(|i| keyword_vocabularies().get(i))
}

/// The weapon-ability vocabulary of `edition` (its `weapon_abilities` file of
/// `schemas/editions.yaml`); `None` for an edition without one.
pub fn vocabulary_of(edition: Edition) -> Option<&'static KeywordVocabulary> {
    let file = edition.data()?.weapon_abilities.as_ref()?;
    vocabulary_file(&file.value)
}

/// The edition whose data a BattleScribe game system holds, by the system's id (a game
/// system's `id`, a catalogue's `gameSystemId`: `sys-352e-adc2-7639-d610` → 11th edition), as
/// `schemas/editions.yaml` `battlescribe_systems` lists them; `None` for an id no edition
/// lists. The id, not the system's name, so a catalogue's edition is known without its game
/// system file.
pub fn edition_of_battlescribe_system(id: &str) -> Option<Edition> {
    let id = id.trim();
    Edition::ALL.iter().copied().find(|e| {
        e.data()
            .is_some_and(|d| d.battlescribe_systems.iter().any(|s| s == id))
    })
}

/// The phrases (lower case) that mark a document of `edition` (`editions.yaml` `markers`).
pub fn markers(edition: Edition) -> &'static [String] {
    edition.data().map_or(&[], |d| &d.markers)
}

/// The weapon abilities of `edition` (its `weapon_abilities` file of `schemas/editions.yaml`):
/// canonical spelling, printed form, parameter kind, aliases; empty for an edition without one.
pub fn weapon_abilities(edition: Edition) -> &'static [KeywordDef] {
    vocabulary_of(edition).map_or(&[], |v| &v.keywords)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edition_has_its_entry_in_order() {
        let ids: Vec<&str> = editions().iter().map(|d| d.id.value.as_str()).collect();
        let all: Vec<&str> = Edition::ALL.iter().map(|e| e.as_str()).collect();
        assert_eq!(ids, all);
        for e in Edition::ALL {
            assert_eq!(Edition::from_id(e.as_str()), Some(*e));
            let json = serde_json::to_string(e).expect("serializes");
            assert_eq!(json, format!("\"{}\"", e.as_str()));
        }
    }

    #[test]
    fn profiles_and_abilities_per_edition() {
        assert_eq!(
            profile_fields(Edition::Tenth, ProfileKind::Model),
            ["M", "T", "Sv", "W", "Ld", "OC"]
        );
        assert_eq!(ProfileKind::Weapon.fields(Edition::Ninth)[1], "weapon_type");
        assert!(weapon_abilities(Edition::Tenth).len() >= 20);
        assert!(weapon_abilities(Edition::Ninth).is_empty());
        for e in Edition::ALL {
            assert!(!markers(*e).is_empty(), "{e:?} has markers");
            assert!(markers(*e).iter().all(|m| *m == m.to_lowercase()));
        }
        assert!(markers(Edition::Tenth).iter().any(|m| m == "[rapid fire"));
        assert!(markers(Edition::Eleventh).iter().any(|m| m == "40k-11e"));
    }

    #[test]
    fn eleventh_edition_is_data() {
        assert_eq!(Edition::from_id("11e"), Some(Edition::Eleventh));
        assert_eq!(
            serde_json::to_string(&Edition::Eleventh).expect("serializes"),
            "\"11e\""
        );
        assert_eq!(
            profile_fields(Edition::Eleventh, ProfileKind::Weapon),
            ["range", "A", "skill", "S", "AP", "D"]
        );
        let names = |e| -> Vec<&str> {
            weapon_abilities(e)
                .iter()
                .map(|k| k.name.value.as_str())
                .collect()
        };
        let (tenth, eleventh) = (names(Edition::Tenth), names(Edition::Eleventh));
        for new in ["CLEAVE", "CLOSE-QUARTERS", "EXTRA ATTACKS", "ANTI"] {
            assert!(eleventh.contains(&new), "{new} in 11e");
        }
        assert!(!tenth.contains(&"CLEAVE") && !tenth.contains(&"CLOSE-QUARTERS"));
        let v = vocabulary_of(Edition::Eleventh).expect("11e vocabulary");
        assert_eq!(v.rule_prefix, "11e:weapon_ability:");
        assert!(vocabulary_of(Edition::Ninth).is_none());
    }

    #[test]
    fn battlescribe_game_systems_name_their_edition() {
        assert_eq!(
            edition_of_battlescribe_system("sys-352e-adc2-7639-d610"),
            Some(Edition::Eleventh)
        );
        assert_eq!(
            edition_of_battlescribe_system("sys-352e-adc2-7639-d6a9"),
            Some(Edition::Tenth)
        );
        assert_eq!(
            edition_of_battlescribe_system("28d4-bd2e-4858-ece6"),
            Some(Edition::HorusHeresy2)
        );
        assert_eq!(
            edition_of_battlescribe_system("sys-0000-0000-0000-0000"),
            None
        );
        assert_eq!(edition_of_battlescribe_system(""), None);
    }
}
