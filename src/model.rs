//! The output types: the records of the dataset, each carrying where it came from.
//!
//! These types *are* the output contract (v2) documented in `emit`, `docs/contract.md` and
//! `schemas/`. Contract v2: model and weapon profiles carry the characteristics of their
//! datasheet's edition ([`Characteristics`], keyed by the names of
//! `schemas/characteristics.yaml`, in the order `schemas/editions.yaml` gives each edition's
//! profile (read through [`crate::edition`], the layer below; this module does not import
//! `normalize`), flattened into the profile's JSON object); a
//! 10th-edition profile serializes exactly as in v1, and v1 datasets still deserialize. Field names follow the game's own words (`WeaponProfile`, `Stratagem`,
//! `RuleParagraph` → [`Rule`]). Architecture invariant: every record has provenance (`sources`
//! or `occurrences`), and every sub-record (model profile, weapon profile, ability, named
//! text) its own location `at` (a [`Location`]: file and line, page and box for paged
//! sources), the file one of its record's `sources`; a value the source lacks is `None` (JSON
//! `null`), never a guess.
//! This module holds data only: no parsing, no I/O.

use crate::diag::Diagnostic;
use crate::source::{Location, Occurrence, Provenance};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the output contract. Bumped on any incompatible change.
pub const CONTRACT_VERSION: u32 = 2;

pub use crate::edition::{Edition, ProfileKind};

/// The characteristics of one profile line, keyed by the names `schemas/characteristics.yaml`
/// gives them (`M`, `T`, `Sv`, … `range`, `A`, `skill`, `weapon_type`), in the order of the
/// edition's profile. A value the source lacks is `None` (JSON `null`).
///
/// Serialized as a map in insertion order; a profile flattens it into its own object, so a
/// 10th-edition model profile is `{name, M, T, Sv, W, Ld, OC}` exactly as in contract v1.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Characteristics(Vec<(String, Option<String>)>);

impl Characteristics {
    /// Every characteristic of `edition`'s `kind` profile, in order, each `None`.
    pub fn of(edition: Edition, kind: ProfileKind) -> Self {
        Characteristics(
            crate::edition::profile_fields(edition, kind)
                .iter()
                .map(|n| (n.clone(), None))
                .collect(),
        )
    }

    /// The value of characteristic `name`, if the profile has it and it is not null.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The slot of characteristic `name`, if the profile has it.
    pub fn slot(&self, name: &str) -> Option<&Option<String>> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The slot of characteristic `name`, if the profile has it.
    pub fn slot_mut(&mut self, name: &str) -> Option<&mut Option<String>> {
        self.0.iter_mut().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Whether the profile has characteristic `name` (null or not).
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }

    /// Sets characteristic `name`; appended at the end when the profile lacks it.
    pub fn set(&mut self, name: &str, value: Option<String>) {
        match self.slot_mut(name) {
            Some(v) => *v = value,
            None => self.0.push((name.to_string(), value)),
        }
    }

    /// `(name, value)` in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_deref()))
    }

    /// `(name, slot)` in order, to change values in place.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Option<String>)> {
        self.0.iter_mut().map(|(n, v)| (n.as_str(), v))
    }

    /// The characteristic names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(n, _)| n.as_str())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Characteristics {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Characteristics {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Characteristics;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of characteristic names to strings or null")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Characteristics, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Option<String>>()? {
                    out.push((k, v));
                }
                Ok(Characteristics(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// One model's characteristics line: its name and the characteristics of its datasheet's
/// edition (10th `M T Sv W Ld OC`; 9th `M WS BS S T W A Ld Sv`; Horus Heresy
/// `M WS BS S T W I A Ld Sv`), as `schemas/editions.yaml` lists them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelProfile {
    pub name: Option<String>,
    #[serde(flatten)]
    pub characteristics: Characteristics,
    /// Where this profile line was read (absent in datasets written before the field existed).
    #[serde(default)]
    pub at: Location,
}

impl ModelProfile {
    /// A profile of `edition` read at `at`, with every characteristic null.
    pub fn new(edition: Edition, name: Option<String>, at: Location) -> Self {
        ModelProfile {
            name,
            characteristics: Characteristics::of(edition, ProfileKind::Model),
            at,
        }
    }

    /// The value of characteristic `name` (`p.get("T")`).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.characteristics.get(name)
    }

    /// Sets characteristic `name` (appended when the profile lacks it).
    pub fn set(&mut self, name: &str, value: Option<String>) {
        self.characteristics.set(name, value);
    }
}

/// Ranged or melee, from the header of the table the profile sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WeaponType {
    Ranged,
    Melee,
}

/// One weapon profile row. A weapon with several profiles (`– standard` / `– supercharge`)
/// is several `WeaponProfile`s, each with its full name. Its characteristics are those of
/// its datasheet's edition: 10th `range A skill S AP D` (skill = BS for ranged, WS for
/// melee); 9th `range weapon_type S AP D` (`weapon_type` with its shots: `Rapid Fire 1`);
/// Horus Heresy `range S AP weapon_type special_rule`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "WeaponProfileIn")]
pub struct WeaponProfile {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: WeaponType,
    #[serde(flatten)]
    pub characteristics: Characteristics,
    /// Weapon abilities in canonical spelling (`RAPID FIRE 2`, `ANTI-INFANTRY 4+`).
    pub keywords: Vec<String>,
    /// Where the profile row was read: its own file and line. (Contract v1 had `line`, the
    /// line in the datasheet's first source: such a profile reads with that line and no file.)
    pub at: Location,
}

/// A weapon profile as read: contract v2 (`at`) or v1 (`line`, which would otherwise land
/// among the flattened characteristics).
#[derive(Deserialize)]
struct WeaponProfileIn {
    name: String,
    #[serde(rename = "type")]
    kind: WeaponType,
    #[serde(flatten)]
    characteristics: Characteristics,
    keywords: Vec<String>,
    #[serde(default)]
    at: Option<Location>,
    #[serde(default)]
    line: Option<u32>,
}

impl From<WeaponProfileIn> for WeaponProfile {
    fn from(w: WeaponProfileIn) -> Self {
        WeaponProfile {
            name: w.name,
            kind: w.kind,
            characteristics: w.characteristics,
            keywords: w.keywords,
            at: w
                .at
                .unwrap_or_else(|| Location::at_line("", w.line.unwrap_or(0))),
        }
    }
}

impl WeaponProfile {
    /// A profile of `edition` read at `at`, with every characteristic null, no keywords.
    pub fn new(edition: Edition, name: String, kind: WeaponType, at: Location) -> Self {
        WeaponProfile {
            name,
            kind,
            characteristics: Characteristics::of(edition, ProfileKind::Weapon),
            keywords: Vec::new(),
            at,
        }
    }

    /// The value of characteristic `name` (`w.get("AP")`).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.characteristics.get(name)
    }

    /// Sets characteristic `name` (appended when the profile lacks it).
    pub fn set(&mut self, name: &str, value: Option<String>) {
        self.characteristics.set(name, value);
    }
}

/// A record's name and text in another language than English, as the source prints them
/// (the GW app's data carries up to eight languages). Either may be absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Translation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A record's translations by language tag (`de`, `fr`, `zh`): never `en`, which is the
/// record's own fields, never filled from another language. Absent from the JSON when empty.
pub type Translations = BTreeMap<String, Translation>;

/// Which of a player's units of one datasheet a points tier prices: the `from`th to the `to`th
/// (11th edition: "Your 1st to 3rd units cost …" is `{from: 1, to: 3}`, "Your 4th+ unit costs
/// …" is `{from: 4}`). A tier without a range prices every unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRange {
    pub from: u32,
    /// The last unit the tier prices; absent: every unit from `from` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u32>,
}

/// One ability on a datasheet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ability {
    pub name: String,
    /// `core`, `faction`, `datasheet`, `wargear`, or the snake-cased heading of a named group
    /// (`shadow_form` for Be'lakor's SHADOW FORM ABILITIES).
    pub group: String,
    /// Tags printed in brackets after the name: `Aura`, `Psychic`.
    pub tags: Vec<String>,
    /// Parameter of a parameterised core ability: `D6` in `Deadly Demise D6`, `5+` in `Feel No Pain 5+`.
    pub parameter: Option<String>,
    /// The rule this ability refers to, when the dataset has it.
    pub rule_id: Option<String>,
    /// The ability's text as printed on the datasheet (null for core/faction references).
    pub text: Option<String>,
    /// Where the ability (its first line) was read.
    #[serde(default)]
    pub at: Location,
    /// The ability's name and text in other languages; absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: Translations,
}

/// Points for one unit size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsOption {
    pub models: u32,
    pub points: u32,
    /// Where the tier was read: its own row or line (a BattleScribe unit's cost element);
    /// absent in datasets written before the field existed (and then not written back).
    #[serde(default, skip_serializing_if = "is_unknown")]
    pub at: Location,
    /// Which of the player's units of the datasheet this tier prices (11th edition); absent:
    /// every unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<UnitRange>,
}

/// The location of a sub-record read from a dataset written before it had one.
fn is_unknown(at: &Location) -> bool {
    *at == Location::default()
}

/// A named block of rules text on a datasheet (DAMAGED profile, SUPREME COMMANDER, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedText {
    pub name: String,
    pub text: String,
    /// Where the block's name was read.
    #[serde(default)]
    pub at: Location,
}

/// The keywords one model of a unit has beyond those of all its models.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelKeywords {
    /// The model as the page names it (`CADIAN COMMANDER`).
    pub model: String,
    pub keywords: Vec<String>,
}

/// A datasheet: one unit's profiles, weapons, abilities, points and keywords.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Datasheet {
    /// `EDITION:faction-slug:unit-slug`, e.g. `10e:chaos-daemons:belakor`.
    pub id: String,
    pub name: Option<String>,
    pub edition: Edition,
    pub faction: Option<String>,
    pub sources: Vec<Provenance>,
    /// As printed, without brackets: `⌀100mm`, `105 x 70mm`.
    pub base_size: Option<String>,
    pub models: Vec<ModelProfile>,
    pub invulnerable_save: Option<String>,
    pub invulnerable_save_condition: Option<String>,
    pub weapons: Vec<WeaponProfile>,
    pub abilities: Vec<Ability>,
    pub wargear_options: Vec<String>,
    pub unit_composition: Vec<String>,
    /// `This model is equipped with: …` lines.
    pub equipment: Vec<String>,
    pub points: Vec<PointsOption>,
    /// The DAMAGED profile: `name` is the wounds range line (`DAMAGED: 1-6 WOUNDS REMAINING`).
    pub damaged: Option<NamedText>,
    /// Other named rules blocks on the datasheet (SUPREME COMMANDER, …).
    pub special_rules: Vec<NamedText>,
    /// Units this CHARACTER can lead (`leader` section), as printed.
    pub leads: Vec<String>,
    /// Every keyword of the unit, including those only some of its models have.
    pub keywords: Vec<String>,
    /// Keywords printed for one model of a mixed unit (`CADIAN COMMANDER: CHARACTER, OFFICER`
    /// beside `KEYWORDS – ALL MODELS: …`); they are in `keywords` too. Absent in datasets
    /// written before the field existed, which read as empty.
    #[serde(default)]
    pub model_keywords: Vec<ModelKeywords>,
    pub faction_keywords: Vec<String>,
    /// Ids of the stratagems listed on the datasheet.
    pub stratagems: Vec<String>,
    /// The unit's Power Rating (9th edition `POWER 7`); absent in editions without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_rating: Option<u32>,
    /// A Legends datasheet (BattleScribe's `… [Legends]`, the tag removed from the name; a
    /// card's `WARHAMMER LEGENDS` badge; the export's datasheet of a Warhammer Legends
    /// publication). Written only when true; absent reads as false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legends: bool,
    /// Weapons the wargear options list whose profiles the datasheet does not print (a
    /// footnote sends the reader to another card: `* The profiles for these weapons can be
    /// found on the Space Wolves Armoury card.`), names as printed. Such a weapon is *absent*
    /// from this reading, not missing from the unit: the merge takes its profile from another
    /// source that prints it. Written only when not empty; absent reads as empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons_printed_elsewhere: Vec<String>,
    /// Units this Support character can join (11th edition's `Support` ability), as printed.
    /// Written only when not empty; absent reads as empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supports: Vec<String>,
}

impl Datasheet {
    /// A datasheet of `edition` with nothing read yet: no id, no name, every list empty.
    pub fn empty(edition: Edition) -> Self {
        Datasheet {
            id: String::new(),
            name: None,
            edition,
            faction: None,
            sources: Vec::new(),
            base_size: None,
            models: Vec::new(),
            invulnerable_save: None,
            invulnerable_save_condition: None,
            weapons: Vec::new(),
            abilities: Vec::new(),
            wargear_options: Vec::new(),
            unit_composition: Vec::new(),
            equipment: Vec::new(),
            points: Vec::new(),
            damaged: None,
            special_rules: Vec::new(),
            leads: Vec::new(),
            keywords: Vec::new(),
            model_keywords: Vec::new(),
            faction_keywords: Vec::new(),
            stratagems: Vec::new(),
            power_rating: None,
            legends: false,
            weapons_printed_elsewhere: Vec::new(),
            supports: Vec::new(),
        }
    }
}

/// A rule paragraph: core rule, weapon ability, army rule, detachment rule or Order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// `EDITION:kind:name-slug` (scope + name, never a text hash), e.g. `10e:core:deep-strike`.
    /// Unnamed rules: `EDITION:kind:unnamed-<first words>`.
    pub id: String,
    pub name: Option<String>,
    /// `core`, `weapon_ability`, `army`, `detachment`, `order`.
    pub kind: String,
    pub edition: Edition,
    /// Faction for army/detachment rules and Orders.
    pub faction: Option<String>,
    pub flavor: Option<String>,
    pub text: String,
    /// The bullet summary some sources print after the rule.
    pub bullets: Vec<String>,
    /// Worked examples printed with the rule (`Example: …`).
    pub examples: Vec<String>,
    /// Every place the rule is printed (its variants' places included).
    pub occurrences: Vec<Occurrence>,
    /// Tables printed inside the rule (9th edition: the wound-roll table, the close combat
    /// weapon profile), as data rather than text. Absent when the rule has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<RuleTable>,
    /// Copies of this rule printed with slightly different wording (a play-reference
    /// shortening, a corrected typo, reworded errata), merged by dedup's near-duplicate pass;
    /// absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<RuleVariant>,
    /// The section number the source prints (11th-edition core rules: `05.01` for Hit Rolls);
    /// absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// The id of the rule this one is a part of (`05.01 Hit Rolls` under `05 Making Attacks`);
    /// absent for a rule under none. Its `number` extends the parent's (`lint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// The ids of the rules that name this one their `parent`, in number order; absent when
    /// none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
    /// The rule's name and text in other languages; absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: Translations,
}

/// A table printed inside a rule: its column headings (empty when the print has none) and
/// its rows, each cell as printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleTable {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Line of the table's first row.
    pub line: u32,
}

/// One wording of a rule other than its own text (see `dedup`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleVariant {
    pub text: String,
    /// Where this wording is printed.
    pub occurrences: Vec<Occurrence>,
    /// Jaccard similarity of the character 5-gram shingles of this text and the rule's text
    /// (canonical forms), in thousandths (0–1000; an integer, so output never depends on
    /// float formatting).
    pub similarity_permille: u32,
}

/// A stratagem. Same name with a different source group is a different stratagem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stratagem {
    /// `EDITION:group-slug:name-slug`, e.g. `10e:core:command-re-roll`.
    pub id: String,
    pub name: String,
    pub edition: Edition,
    pub cp: Option<u32>,
    /// Where it comes from: `Core`, `Boarding Actions`, or a detachment name.
    pub group: Option<String>,
    /// `Battle Tactic`, `Strategic Ploy`, `Epic Deed`, …
    pub category: Option<String>,
    pub flavor: Option<String>,
    pub when: Option<String>,
    pub target: Option<String>,
    pub effect: Option<String>,
    pub restrictions: Option<String>,
    pub sources: Vec<Provenance>,
    /// The stratagem's name and text in other languages; absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: Translations,
}

/// An enhancement a CHARACTER can take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Enhancement {
    pub id: String,
    pub name: Option<String>,
    pub edition: Edition,
    pub faction: Option<String>,
    pub detachment: Option<String>,
    pub points: Option<u32>,
    pub flavor: Option<String>,
    pub text: String,
    pub sources: Vec<Provenance>,
    /// The enhancement's name and text in other languages; absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: Translations,
}

/// A detachment and the ids of its rules, enhancements and stratagems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detachment {
    pub id: String,
    pub name: String,
    pub edition: Edition,
    pub faction: Option<String>,
    pub rules: Vec<String>,
    pub enhancements: Vec<String>,
    pub stratagems: Vec<String>,
    pub sources: Vec<Provenance>,
    /// What the detachment costs in Detachment Points (11th edition); absent when the source
    /// prints none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// The Force Disposition the detachment grants (11th edition: `Take and Hold`), in the
    /// vocabulary's spelling; absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_disposition: Option<String>,
    /// Its "Unique" tag (11th edition: no two detachments of an army share one); absent when
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique_tag: Option<String>,
    /// The detachment's name in other languages; absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: Translations,
}

/// Points a publication prints apart from datasheets (11th edition's Munitorum Field Manual, a
/// points PDF): one unit's tiers, priced per unit count, in one publication. `points.json`;
/// the merge gives a datasheet its newest publication's tiers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Points {
    /// `EDITION:points:<publication>:<subject key>` (`ids::points`).
    pub id: String,
    pub edition: Edition,
    /// The id of the datasheet the record prices.
    pub subject: String,
    /// The unit as the publication prints it (`Custodian Guard`).
    pub name: String,
    /// Points per unit size and unit count (`units`), each with its `at`.
    pub tiers: Vec<PointsOption>,
    /// Wargear priced on top of the unit's cost, per item taken.
    pub wargear: Vec<WargearPoints>,
    pub publication: Publication,
    /// What the record prices: a datasheet (absent) or an enhancement (its id is `subject`).
    #[serde(default, skip_serializing_if = "PointsKind::is_datasheet")]
    pub kind: PointsKind,
    /// Priced in the publication's Forge World section (absent: no).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forge_world: bool,
    /// Priced in the publication's Warhammer Legends section (absent: no).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legends: bool,
    pub sources: Vec<Provenance>,
}

/// What a points record prices.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PointsKind {
    #[default]
    Datasheet,
    Enhancement,
}

impl PointsKind {
    fn is_datasheet(&self) -> bool {
        *self == PointsKind::Datasheet
    }
}

/// One wargear item's cost on top of its unit's (per item taken).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WargearPoints {
    /// The item as printed.
    pub item: String,
    pub points: u32,
    /// Where the item's cost was read.
    #[serde(default, skip_serializing_if = "is_unknown")]
    pub at: Location,
}

/// The publication a points record comes from: what it prints of its title, version and
/// date, each `None` when it does not print it (never the file or folder name).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Publication {
    pub title: Option<String>,
    pub version: Option<String>,
    /// As printed or as the source's data gives it (`2026-07-22`).
    pub date: Option<String>,
}

impl Publication {
    /// The publication's part of a points id: its version, else its date, else `unknown`.
    pub fn key(&self) -> &str {
        self.version
            .as_deref()
            .or(self.date.as_deref())
            .unwrap_or("unknown")
    }

    /// The version as numbers to order publications by (`1.10` → [1, 10], newer than `1.9`);
    /// a part that is not a number counts 0, so no version is `[0]` (oldest).
    pub fn version_numbers(&self) -> Vec<u32> {
        let version = self.version.as_deref().unwrap_or("");
        version
            .split('.')
            .map(|n| n.trim().parse().unwrap_or(0))
            .collect()
    }
}

/// One entry of an errata document (Games Workshop's Index Card Errata): the record it targets
/// as printed and resolved, the part of it (`section`, `qualifier`), the instruction as printed
/// and, when the instruction is a mechanical change, `op`. `errata.json`; a mechanical erratum
/// whose target is in the same run is applied by the merge (`errata`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Erratum {
    /// `EDITION:erratum:<publication>:<n>` (`ids::erratum`: the publication's title and version,
    /// slugged), `n` the entry's place in the document.
    pub id: String,
    pub edition: Edition,
    /// The target as printed (`Daemon Prince of Chaos, Soul Grinder`, `Draught of Terror Stratagem`).
    pub target_printed: String,
    /// The ids the printed targets resolve to, one per target named, in print order.
    pub targets: Vec<String>,
    pub target_kind: ErratumTarget,
    /// The faction heading the entry is printed under (as printed).
    pub faction: Option<String>,
    /// The part of the card it changes, as printed (`Keywords section`, `Ranged Weapons`).
    pub section: String,
    /// What inside the section (a weapon, a bullet, a sentence), as printed.
    pub qualifier: Option<String>,
    /// The instruction text as printed (quoted blocks, bullets and mini-tables included);
    /// `None` when the entry has none (`E001`).
    pub instruction: Option<String>,
    /// The mechanical change the instruction makes; `None` when it is not one (`E002`).
    pub op: Option<ErratumOp>,
    pub publication: Publication,
    pub sources: Vec<Provenance>,
    /// The datasheets of the run the merge changed by this erratum (`errata`);
    /// absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied_to: Vec<String>,
}

/// What kind of record an erratum targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErratumTarget {
    Datasheet,
    Stratagem,
    Rule,
}

/// A mechanical errata instruction: what it does and its values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErratumOp {
    pub kind: ErratumOpKind,
    /// Characteristic → new value (`set_characteristic`, `profile_line`, `add_weapon_profile`),
    /// characteristic names as the card prints them (`AP`, `D`, `LD`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, String>,
    /// The keywords or weapon abilities added or removed, the replacement text, or the added
    /// weapon profile's name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// The mechanical changes an erratum can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErratumOpKind {
    AddKeyword,
    RemoveKeyword,
    SetCharacteristic,
    AddWeaponProfile,
    DeleteWeaponProfile,
    ReplaceText,
    ProfileLine,
}

impl ErratumOpKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErratumOpKind::AddKeyword => "add_keyword",
            ErratumOpKind::RemoveKeyword => "remove_keyword",
            ErratumOpKind::SetCharacteristic => "set_characteristic",
            ErratumOpKind::AddWeaponProfile => "add_weapon_profile",
            ErratumOpKind::DeleteWeaponProfile => "delete_weapon_profile",
            ErratumOpKind::ReplaceText => "replace_text",
            ErratumOpKind::ProfileLine => "profile_line",
        }
    }
}

/// Status of one input in the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputStatus {
    /// Decoded and extracted.
    Ok,
    /// Decoded and extracted, but the input ends early (`S008`, a page cut off): what it
    /// holds is kept; records it cuts short have their own `X111`. Not a failure.
    Partial,
    /// Not extracted (unsupported game system, unknown format, binary, empty).
    Skipped,
    /// Byte-identical to an earlier input; not processed again.
    Duplicate,
    /// Could not be read.
    Failed,
}

/// Per-input account in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestInput {
    pub file: String,
    pub sha256: String,
    pub bytes: u64,
    pub format: String,
    pub edition: Option<Edition>,
    pub status: InputStatus,
    pub duplicate_of: Option<String>,
    pub blocks: usize,
    pub chrome_dropped: usize,
    /// The nothing-lost account: how the document's blocks were used.
    pub account: BlockAccount,
    pub records: RecordCounts,
}

/// The nothing-lost account of one document: every block is either part of a record, chrome,
/// or unassigned (reported with `X108`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockAccount {
    pub in_records: usize,
    pub chrome: usize,
    pub unassigned: usize,
}

/// Records per type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordCounts {
    pub datasheets: usize,
    pub weapons: usize,
    pub rules: usize,
    pub stratagems: usize,
    pub enhancements: usize,
    pub detachments: usize,
    /// Points records (`points.json`); absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub points: usize,
    /// Errata entries (`errata.json`); absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub errata: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What was read and what came out: the run's account, with no timestamps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub contract_version: u32,
    pub inputs: Vec<ManifestInput>,
    /// Records in the dataset (after merging and dedup).
    pub totals: RecordCounts,
    /// Rule paragraphs read before dedup, and the rules they became.
    pub rule_occurrences: usize,
    /// What each stage saw and produced.
    pub stages: StageCounts,
    pub diagnostics: DiagnosticCounts,
    /// Every file written in the output directory, `/`-separated and sorted, this manifest and
    /// the marker included: what the next run may replace (`crate::emit`). Filled by
    /// `crate::emit::files`; absent from the manifests of older versions.
    #[serde(default)]
    pub files: Vec<String>,
}

/// Counts per stage: inputs discovered → decoded → blocks → records extracted → records
/// emitted after merging and dedup.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageCounts {
    pub discovered: usize,
    pub decoded: usize,
    pub blocks: usize,
    pub extracted_records: usize,
    pub emitted_records: usize,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticCounts {
    pub info: usize,
    pub warning: usize,
    pub error: usize,
}

/// Everything one ingest produces; `emit` writes it, nothing else touches the disk.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub datasheets: Vec<Datasheet>,
    pub rules: Vec<Rule>,
    pub stratagems: Vec<Stratagem>,
    pub enhancements: Vec<Enhancement>,
    pub detachments: Vec<Detachment>,
    /// Points printed apart from datasheets (`points.json`, written only when not empty).
    pub points: Vec<Points>,
    /// Errata entries (`errata.json`, written only when not empty).
    pub errata: Vec<Erratum>,
    pub diagnostics: Vec<Diagnostic>,
    /// Records that broke a value rule of the schema, with the rule and their source.
    pub quarantine: Vec<serde_json::Value>,
    pub manifest: Manifest,
    /// Further files (relative path, contents) written with the dataset: the published
    /// schemas, the validation report.
    pub extra_files: Vec<(String, String)>,
}
