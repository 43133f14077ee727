//! The one datasheet builder: every source, text or structured, recognises its own sections
//! and hands what it read to a [`SheetBuilder`] through typed calls (a model row, a weapon row,
//! an ability line or reference, the invulnerable save, points, keywords, composition); one
//! [`SheetBuilder::finish`] sets the faction scope, the id (named or unnamed, `X101` when the
//! source names no unit) and the rule links of core and faction abilities.
//!
//! Owns: how a printed value becomes a field (`-` and an empty cell are null), how an ability
//! line (`Name (Tags): text`, `CORE: a, b`) becomes abilities, how references link to their
//! rules. Must not: recognise a source's layout (the extractors and record sources do that),
//! guess a missing value, or read another source's text.
//!
//! Sections without a typed call yet are filled through the builder's `DerefMut` to the
//! datasheet under construction; a `Datasheet` value is only ever made here or in the model.

use crate::diag::{Code, Diagnostic};
use crate::ids;
use crate::model::*;
use crate::source::{Location, Provenance};
use crate::text::words::split_list;
use crate::vocab::Heading;
use regex::Regex;
use std::ops::{Deref, DerefMut};
use std::sync::LazyLock;

/// `Name (Tags): text` — an ability line as the pages print it.
pub(crate) static ABILITY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([^:()]{2,60}?)(?:\s*\(([^)]*)\))?:\s*(.*)$").expect("static regex")
});
/// `Name (Tags)` — an ability's name as [`ABILITY`] reads it, without the text.
static NAME_AND_TAGS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([^:()]{2,60}?)(?:\s*\(([^)]*)\))?\s*$").expect("static regex"));
/// `Deadly Demise D3`, `Scouts 6"` — a reference's name and its parameter.
static PARAM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(.*?)\s+(\d*D\d+(?:\+\d+)?|\d+\+?|\d+")$"#).expect("static regex")
});

/// `4+ invulnerable save against melee weapons.`, `The bearer has a 5+ invulnerable save.`: a
/// save printed as a sentence, its condition after it.
static SAVE_SENTENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:The bearer has an? )?([2-6]\+) invulnerable save(?: (.+?))?\.?$")
        .expect("static regex")
});

/// An invulnerable save as its text prints it (the one reader of that text; where the text is
/// — a box, a cell, a line after a heading, an ability's first paragraph — is each layout's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrintedSave {
    /// The roll (`4+`); `None` when the text prints none (`-`, empty).
    pub save: Option<String>,
    /// Whether the roll is starred: its condition is printed after the star or in a note.
    pub starred: bool,
    /// The condition printed with the save (`against melee weapons`, after a star or the
    /// sentence).
    pub condition: Option<String>,
}

impl PrintedSave {
    /// The text of a save: `4+`; `4` (the export's spelling: `4+`); `4+*` or `4*` (starred);
    /// `4+* Ranged attacks only` (starred, with its condition); a sentence (`4+ invulnerable
    /// save against melee weapons.`, see [`PrintedSave::sentence`]). `-` and an empty text print
    /// no save.
    pub fn read(t: &str) -> PrintedSave {
        if let Some(s) = PrintedSave::sentence(t) {
            return s;
        }
        let t = t.trim();
        let (roll, starred, condition) = match t.split_once('*') {
            Some((r, c)) => (r.trim(), true, Some(c.trim().to_string())),
            None => (t, false, None),
        };
        let save = match roll {
            "" | "-" => None,
            r if r.bytes().all(|b| b.is_ascii_digit()) => Some(format!("{r}+")),
            r => Some(r.to_string()),
        };
        PrintedSave {
            save,
            starred,
            condition: condition.filter(|c| !c.is_empty()),
        }
    }

    /// A save printed as a sentence (`The bearer has a 4+ invulnerable save.`, `5+
    /// invulnerable save against ranged attacks`), its condition the words after it; `None`
    /// for any other text.
    pub fn sentence(t: &str) -> Option<PrintedSave> {
        let c = SAVE_SENTENCE.captures(t.trim())?;
        Some(PrintedSave {
            save: Some(c[1].to_string()),
            starred: false,
            condition: c.get(2).map(|m| m.as_str().to_string()),
        })
    }
}

/// A datasheet being read. Made with [`SheetBuilder::new`], ended with [`SheetBuilder::finish`].
#[derive(Debug, Clone)]
pub struct SheetBuilder {
    ds: Datasheet,
}

/// What [`SheetBuilder::finish`] needs from its source.
pub struct Finish<'a> {
    /// The faction the datasheet is scoped by (`None`: `unknown`).
    pub faction: Option<String>,
    /// Where the datasheet's diagnostics point: the file and its first line.
    pub file: &'a str,
    pub line: u32,
    /// Whether core and faction abilities are links to the rules of the datasheet's edition (a
    /// 9th-edition card links its abilities to the rules it prints itself).
    pub link_references: bool,
    /// The publication the source says the datasheet is printed in (a page's faction pack, the
    /// export's `Source.csv` row): a Warhammer Legends one makes it a Legends datasheet.
    pub publication: Option<&'a str>,
}

/// The references a `CORE:` or `FACTION:` abilities line makes, names as printed.
pub(crate) enum References {
    Core(Vec<String>),
    Faction(Vec<String>),
}

impl Deref for SheetBuilder {
    type Target = Datasheet;
    fn deref(&self) -> &Datasheet {
        &self.ds
    }
}

impl DerefMut for SheetBuilder {
    fn deref_mut(&mut self) -> &mut Datasheet {
        &mut self.ds
    }
}

/// A printed value as a field, the one rule for every source: an empty cell is null; anything
/// printed is kept, `-` included. Whether a characteristic's `-` means "none" is the
/// contract's (`schemas/characteristics.yaml` `none`, applied by normalization): a
/// fortification's `M -` is a value, a 9th-edition weapon's abilities `-` is none.
pub fn value(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_string())
}

impl SheetBuilder {
    /// A datasheet of `edition` with nothing read yet.
    pub fn new(edition: Edition) -> Self {
        SheetBuilder {
            ds: Datasheet::empty(edition),
        }
    }

    /// The datasheet read so far, without the steps of [`SheetBuilder::finish`].
    pub fn into_inner(self) -> Datasheet {
        self.ds
    }

    /// Adds `p` to the sources (a structured source adds one per row it read).
    pub fn source(&mut self, p: Provenance) {
        self.ds.sources.push(p);
    }

    /// A model row from its printed values in the edition's order (`ProfileKind::fields`); a
    /// value the row lacks or leaves empty is null ([`value`]).
    pub fn model_row(&mut self, name: Option<String>, values: &[&str], at: Location) {
        let edition = self.ds.edition;
        let mut p = ModelProfile::new(edition, name, at);
        for (i, f) in ProfileKind::Model.fields(edition).iter().enumerate() {
            p.set(f, values.get(i).and_then(|v| value(v)));
        }
        self.ds.models.push(p);
    }

    /// A model row whose values are found by characteristic: `field(i, name)` gives the
    /// edition's `i`-th characteristic (`name`), or null.
    pub fn model_fields(
        &mut self,
        name: Option<String>,
        at: Location,
        field: impl Fn(usize, &str) -> Option<String>,
    ) {
        let edition = self.ds.edition;
        let mut p = ModelProfile::new(edition, name, at);
        for (i, f) in ProfileKind::Model.fields(edition).iter().enumerate() {
            p.set(f, field(i, f));
        }
        self.ds.models.push(p);
    }

    /// A weapon row from its printed values in the edition's order (an empty cell is null:
    /// [`value`]).
    /// Returns `(values given, values expected)` when the row is short of values (`X102`).
    pub fn weapon_row(
        &mut self,
        name: String,
        keywords: Vec<String>,
        kind: WeaponType,
        values: &[&str],
        at: Location,
    ) -> Option<(usize, usize)> {
        let edition = self.ds.edition;
        let fields = ProfileKind::Weapon.fields(edition);
        let given = values.iter().filter(|v| !v.is_empty()).count();
        let mut w = WeaponProfile::new(edition, name, kind, at);
        for (i, f) in fields.iter().enumerate() {
            w.set(f, values.get(i).and_then(|v| value(v)));
        }
        w.keywords = keywords;
        self.ds.weapons.push(w);
        (given < fields.len()).then_some((given, fields.len()))
    }

    /// A weapon row whose values are found by characteristic: `field(i, name)` gives the
    /// edition's `i`-th characteristic (`name`), or null.
    pub fn weapon_fields(
        &mut self,
        name: String,
        keywords: Vec<String>,
        kind: WeaponType,
        at: Location,
        field: impl Fn(usize, &str) -> Option<String>,
    ) {
        let edition = self.ds.edition;
        let mut w = WeaponProfile::new(edition, name, kind, at);
        for (i, f) in ProfileKind::Weapon.fields(edition).iter().enumerate() {
            w.set(f, field(i, f));
        }
        w.keywords = keywords;
        self.ds.weapons.push(w);
    }

    /// One line of an abilities section, read with the datasheet's edition's words: see
    /// [`read_ability`].
    pub(crate) fn ability_line(
        &mut self,
        t: &str,
        group: &str,
        at: Location,
    ) -> Option<References> {
        let v = words_of(self.ds.edition);
        read_ability(&mut self.ds.abilities, v, t, group, at)
    }

    /// An ability with its name and text apart (a structured source): the name's bracketed
    /// tags (`Name (Tags)`) are read as a page's ability line's are; the text keeps its
    /// paragraphs.
    pub fn ability(&mut self, name: String, group: &str, text: String, at: Location) {
        let (name, tags) = match NAME_AND_TAGS.captures(&name) {
            Some(c) => (
                c[1].trim().to_string(),
                c.get(2).map(|m| split_list(m.as_str())).unwrap_or_default(),
            ),
            None => (name, Vec::new()),
        };
        self.ds.abilities.push(Ability {
            name,
            group: group.to_string(),
            tags,
            parameter: None,
            rule_id: None,
            text: Some(text).filter(|t| !t.is_empty()),
            at,
            translations: Default::default(),
        });
    }

    /// A reference to a core or faction rule (`group` `core` or `faction`) with its parameter
    /// as given; its rule link is set by [`SheetBuilder::finish`].
    pub fn reference(
        &mut self,
        name: String,
        group: &str,
        parameter: Option<String>,
        at: Location,
    ) {
        self.ds.abilities.push(Ability {
            name,
            group: group.to_string(),
            tags: Vec::new(),
            parameter,
            rule_id: None,
            text: None,
            at,
            translations: Default::default(),
        });
    }

    /// The invulnerable save and the condition it is printed with.
    pub fn invulnerable_save(&mut self, save: Option<String>, condition: Option<String>) {
        self.ds.invulnerable_save = save;
        self.ds.invulnerable_save_condition = condition;
    }

    /// The invulnerable save's value alone, where the layout prints its condition apart (a
    /// note below the box: [`SheetBuilder::invulnerable_condition`]).
    pub fn invulnerable_value(&mut self, save: Option<String>) {
        self.ds.invulnerable_save = save;
    }

    /// The condition of the invulnerable save, printed apart from its value.
    pub fn invulnerable_condition(&mut self, condition: Option<String>) {
        self.ds.invulnerable_save_condition = condition;
    }

    /// One unit size and its cost.
    pub fn points(&mut self, models: u32, points: u32, at: Location) {
        self.ds.points.push(PointsOption {
            models,
            points,
            at,
            units: Default::default(),
        });
    }

    /// A printed keyword list (`Infantry, Character, Grenades`), each keyword as printed.
    pub fn keyword_list(&mut self, list: &str) {
        self.ds.keywords.extend(split_list(list));
    }

    /// A printed faction keyword list.
    pub fn faction_keyword_list(&mut self, list: &str) {
        self.ds.faction_keywords.extend(split_list(list));
    }

    /// The source marks the datasheet as a Warhammer Legends one (a card's badge, a
    /// BattleScribe entry's `[Legends]`).
    pub fn legends_mark(&mut self) {
        self.ds.legends = true;
    }

    /// The unit's name as the source prints it.
    pub fn set_name(&mut self, name: String) {
        self.ds.name = Some(name);
    }

    /// The unit's base size (`32mm`), if the source prints one.
    pub fn set_base_size(&mut self, size: Option<String>) {
        self.ds.base_size = size;
    }

    /// One wargear option as printed.
    pub fn wargear_option(&mut self, line: String) {
        self.ds.wargear_options.push(line);
    }

    /// One line of what the unit is equipped with.
    pub fn equipment_line(&mut self, line: String) {
        self.ds.equipment.push(line);
    }

    /// A unit this one can lead (a Leader's attach list).
    pub fn can_lead(&mut self, unit: String) {
        self.ds.leads.push(unit);
    }

    /// A stratagem the datasheet lists, by id.
    pub fn stratagem(&mut self, id: String) {
        self.ds.stratagems.push(id);
    }

    /// A named box of rules printed on the datasheet (SUPREME COMMANDER, TRANSPORT, a
    /// weapon's note).
    pub fn named_box(&mut self, b: NamedText) {
        self.ds.special_rules.push(b);
    }

    /// The DAMAGED profile box (`DAMAGED: 1-5 WOUNDS REMAINING` and its text).
    pub fn damaged_box(&mut self, b: NamedText) {
        self.ds.damaged = Some(b);
    }

    /// One line of the unit's composition.
    pub fn composition(&mut self, line: String) {
        self.ds.unit_composition.push(line);
    }

    /// The datasheet, finished: scoped by `f.faction`, its id from its name (or, when the
    /// source names no unit, from its content, with `X101`), core and faction abilities linked
    /// to their rules; for every source, a Legends datasheet when its publication is a Legends
    /// one, and the weapons its wargear options' footnote says are printed on another card.
    pub fn finish(self, f: Finish<'_>, diagnostics: &mut Vec<Diagnostic>) -> Datasheet {
        let mut ds = self.ds;
        ds.faction = f.faction;
        ds.legends |= f
            .publication
            .is_some_and(|p| crate::vocab::legends_publication(ds.edition, p));
        if let Some(v) = crate::vocab::of(ds.edition) {
            ds.weapons_printed_elsewhere =
                super::wargear::weapons_printed_elsewhere(&ds.wargear_options, v);
        }
        ds.id = match &ds.name {
            Some(n) => ids::datasheet(ds.edition, ds.faction.as_deref(), n),
            None => {
                diagnostics.push(
                    Diagnostic::new(
                        Code::DatasheetNameMissing,
                        "datasheet has no unit name in the source; kept with name: null",
                    )
                    .at(f.file, f.line),
                );
                ids::unnamed_datasheet(
                    ds.edition,
                    ds.faction.as_deref(),
                    &ids::datasheet_content_key(&ds),
                )
            }
        };
        if f.link_references {
            link_ability_rules(
                ds.edition,
                &mut ds.abilities,
                &ids::faction_scope(ds.faction.as_deref()),
            );
        }
        ds
    }
}

/// The `group` of the abilities under a heading or of a profile type (`Primarch Abilities` →
/// `primarch_abilities`): its id slug with `_` for `-`, the same for every source.
pub fn ability_group(heading: &str) -> String {
    ids::slug(heading).replace('-', "_")
}

/// The words an ability line of `edition` is read with: the edition's vocabulary; an edition
/// without one (9th edition, Horus Heresy) has always been read with the 10th edition's, and
/// still is, so its outputs do not move.
pub(crate) fn words_of(edition: Edition) -> &'static crate::vocab::Vocabulary {
    crate::vocab::of(edition).unwrap_or(&crate::vocab::TENTH)
}

/// Reads one line of an abilities section into `abilities`: `CORE: a, b` and `FACTION: x`
/// references (`v`'s labels; returned, for the glossary's kind decisions), `Name (Tags): text`
/// in `group`, or more text of the ability above. A new ability is located `at` the line.
pub(crate) fn read_ability(
    abilities: &mut Vec<Ability>,
    v: &crate::vocab::Vocabulary,
    t: &str,
    group: &str,
    at: Location,
) -> Option<References> {
    if let Some(rest) = v.after_label(Heading::CoreReferences, ":", t) {
        let names = split_list(rest);
        abilities.extend(names.iter().map(|n| printed_reference(n, "core", &at)));
        return Some(References::Core(names));
    }
    if let Some(rest) = v.after_label(Heading::FactionReferences, ":", t) {
        let names = split_list(rest);
        abilities.extend(names.iter().map(|n| printed_reference(n, "faction", &at)));
        return Some(References::Faction(names));
    }
    if let Some(c) = ABILITY.captures(t) {
        let tags = c.get(2).map(|m| split_list(m.as_str())).unwrap_or_default();
        abilities.push(Ability {
            name: c[1].trim().to_string(),
            group: group.to_string(),
            tags,
            parameter: None,
            rule_id: None,
            text: Some(c[3].trim().to_string()),
            at,
            translations: Default::default(),
        });
    } else if let Some(text) = abilities.last_mut().and_then(|a| a.text.as_mut()) {
        text.push_str("\n\n");
        text.push_str(t);
    } else {
        abilities.push(Ability {
            name: t.to_string(),
            group: group.to_string(),
            tags: Vec::new(),
            parameter: None,
            rule_id: None,
            text: None,
            at,
            translations: Default::default(),
        });
    }
    None
}

/// Core and faction references point at their rules in the datasheet's edition:
/// `10e:core:<name>`, `11e:<faction>/army:<name>`.
pub(crate) fn link_ability_rules(edition: Edition, abilities: &mut [Ability], faction_slug: &str) {
    for a in abilities {
        a.rule_id = Some(match a.group.as_str() {
            "core" => ids::core_rule(edition, &a.name),
            "faction" => ids::army_rule(edition, faction_slug, &a.name),
            _ => continue,
        });
    }
}

/// A printed reference (`Deadly Demise D3`): its name and parameter apart.
fn printed_reference(name: &str, group: &str, at: &Location) -> Ability {
    let (n, param) = match PARAM.captures(name) {
        Some(c) => (c[1].trim().to_string(), Some(c[2].to_string())),
        None => (name.trim().to_string(), None),
    };
    Ability {
        name: n,
        group: group.to_string(),
        tags: Vec::new(),
        parameter: param,
        rule_id: None,
        text: None,
        at: at.clone(),
        translations: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32) -> Location {
        Location::at_line("a.txt".to_string(), line)
    }

    fn finish(b: SheetBuilder, faction: Option<&str>) -> (Datasheet, Vec<Diagnostic>) {
        let mut d = Vec::new();
        let f = Finish {
            faction: faction.map(str::to_string),
            file: "a.txt",
            line: 1,
            link_references: true,
            publication: None,
        };
        (b.finish(f, &mut d), d)
    }

    #[test]
    fn an_eleventh_edition_datasheet_links_to_eleventh_edition_rules() {
        let mut b = SheetBuilder::new(Edition::Eleventh);
        b.name = Some("Custodian Guard".to_string());
        b.ability_line("CORE: Deep Strike", "core", at(4));
        b.ability_line("FACTION: Martial Ka'tah", "faction", at(5));
        let (ds, _) = finish(b, Some("Adeptus Custodes"));
        assert_eq!(ds.id, "11e:adeptus-custodes:custodian-guard");
        let links: Vec<&str> = ds
            .abilities
            .iter()
            .filter_map(|a| a.rule_id.as_deref())
            .collect();
        assert_eq!(
            links,
            [
                "11e:core:deep-strike",
                "11e:adeptus-custodes/army:martial-katah"
            ]
        );
        // the same lines on a 10th-edition datasheet keep their 10th-edition links
        let mut b = SheetBuilder::new(Edition::Tenth);
        b.name = Some("Custodian Guard".to_string());
        b.ability_line("CORE: Deep Strike", "core", at(4));
        let (ds, _) = finish(b, Some("Adeptus Custodes"));
        assert_eq!(
            ds.abilities[0].rule_id.as_deref(),
            Some("10e:core:deep-strike")
        );
    }

    #[test]
    fn a_model_row_keeps_a_printed_dash_and_reads_empty_cells_as_null() {
        let mut b = SheetBuilder::new(Edition::Tenth);
        b.name = Some("Intercessors".to_string());
        b.model_row(None, &["-", "4", "3+", " ", "", "2"], at(3));
        let (ds, d) = finish(b, Some("Space Marines"));
        let v = serde_json::to_value(&ds.models[0]).unwrap_or_default();
        assert_eq!(v["M"], "-");
        assert_eq!(v["Sv"], "3+");
        assert!(v["W"].is_null() && v["Ld"].is_null());
        assert_eq!(v["OC"], "2");
        assert_eq!(ds.id, "10e:space-marines:intercessors");
        assert!(d.is_empty());
    }

    #[test]
    fn a_weapon_with_two_profiles_is_two_rows_and_a_short_row_is_reported() {
        let mut b = SheetBuilder::new(Edition::Tenth);
        let full = ["24\"", "2", "3+", "4", "0", "1"];
        let short = ["24\"", "1", "3+", "9", "-3"];
        assert_eq!(
            b.weapon_row(
                "Plasma gun – standard".into(),
                vec!["Rapid Fire 1".into()],
                WeaponType::Ranged,
                &full,
                at(5)
            ),
            None
        );
        assert_eq!(
            b.weapon_row(
                "Plasma gun – supercharge".into(),
                vec![],
                WeaponType::Ranged,
                &short,
                at(6)
            ),
            Some((5, 6))
        );
        assert_eq!(b.weapons.len(), 2);
        assert_eq!(b.weapons[0].keywords, ["Rapid Fire 1"]);
        let v = serde_json::to_value(&b.weapons[1]).unwrap_or_default();
        assert!(v["D"].is_null());
    }

    #[test]
    fn a_save_is_read_from_each_way_it_is_printed() {
        let read = |t: &str| {
            let s = PrintedSave::read(t);
            (s.save, s.starred, s.condition)
        };
        let some = |s: &str| Some(s.to_string());
        assert_eq!(read(" 4+ "), (some("4+"), false, None));
        assert_eq!(read("4"), (some("4+"), false, None));
        assert_eq!(read("4*"), (some("4+"), true, None));
        assert_eq!(
            read("5+* Ranged only"),
            (some("5+"), true, some("Ranged only"))
        );
        assert_eq!(
            read("4+ invulnerable save against melee weapons."),
            (some("4+"), false, some("against melee weapons"))
        );
        assert_eq!(
            read("The bearer has a 5+ invulnerable save."),
            (some("5+"), false, None)
        );
        assert_eq!(read("-"), (None, false, None));
        assert_eq!(read(""), (None, false, None));
        assert_eq!(PrintedSave::sentence("This model has a 4+ save."), None);
    }

    #[test]
    fn points_tiers_and_keywords_are_kept_in_order() {
        let mut b = SheetBuilder::new(Edition::Tenth);
        b.points(5, 80, at(9));
        b.points(10, 160, at(10));
        b.keyword_list("Infantry, Battleline , ,Grenades");
        b.faction_keyword_list("Adeptus Astartes");
        let got: Vec<(u32, u32)> = b.points.iter().map(|p| (p.models, p.points)).collect();
        assert_eq!(got, [(5, 80), (10, 160)]);
        assert_eq!(b.keywords, ["Infantry", "Battleline", "Grenades"]);
        assert_eq!(b.faction_keywords, ["Adeptus Astartes"]);
    }

    #[test]
    fn abilities_and_references_are_linked_to_their_rules_on_finish() {
        let mut b = SheetBuilder::new(Edition::Tenth);
        b.name = Some("Captain".into());
        assert!(matches!(
            b.ability_line("CORE: Deep Strike, Scouts 6\"", "datasheet", at(2)),
            Some(References::Core(_))
        ));
        b.ability_line("Rites of Battle (Aura): re-roll.", "datasheet", at(3));
        b.ability_line("More text.", "datasheet", at(4));
        b.ability(
            "Iron Halo".into(),
            "wargear",
            "4+ save.\n\nOnce.".into(),
            at(5),
        );
        let tagged = "Guardian (Aura, Psychic)".to_string();
        b.ability(tagged, "datasheet", String::new(), at(6));
        let (ds, _) = finish(b, Some("Space Marines"));
        assert_eq!(ds.abilities.len(), 5);
        assert_eq!(ds.abilities[4].name, "Guardian");
        assert_eq!(ds.abilities[4].tags, ["Aura", "Psychic"]);
        assert_eq!(ds.abilities[4].text, None);
        assert_eq!(ds.abilities[1].parameter.as_deref(), Some("6\""));
        assert_eq!(
            ds.abilities[0].rule_id.as_deref(),
            Some("10e:core:deep-strike")
        );
        assert_eq!(ds.abilities[2].tags, ["Aura"]);
        assert_eq!(
            ds.abilities[2].text.as_deref(),
            Some("re-roll.\n\nMore text.")
        );
        assert_eq!(ds.abilities[3].text.as_deref(), Some("4+ save.\n\nOnce."));
        assert_eq!(ds.abilities[3].rule_id, None);
    }

    #[test]
    fn finish_derives_legends_and_weapons_printed_elsewhere_for_any_source() {
        let read = |publication: Option<&str>| {
            let mut b = SheetBuilder::new(Edition::Tenth);
            b.name = Some("Wolf Guard".into());
            b.wargear_options = vec![
                "This model can be equipped with 1 plasma pistol*".into(),
                "* The profiles for these weapons can be found on the Armoury card.".into(),
            ];
            let mut d = Vec::new();
            let f = Finish {
                faction: Some("Space Wolves".into()),
                file: "export/Datasheets.csv",
                line: 2,
                link_references: true,
                publication,
            };
            b.finish(f, &mut d)
        };
        let ds = read(Some("Space Wolves (Warhammer Legends)"));
        assert!(ds.legends);
        assert_eq!(ds.weapons_printed_elsewhere, ["plasma pistol"]);
        assert!(!read(Some("Codex: Space Wolves")).legends);
        assert!(!read(None).legends);
        let mut b = SheetBuilder::new(Edition::Tenth);
        b.legends_mark();
        assert!(finish(b, None).0.legends);
    }

    #[test]
    fn an_ability_group_is_spelled_the_same_for_every_source() {
        assert_eq!(ability_group("Psychic Powers"), "psychic_powers");
        assert_eq!(ability_group(" Primarch "), "primarch");
        assert_eq!(
            ability_group("Lord-of-War Abilities"),
            "lord_of_war_abilities"
        );
    }

    #[test]
    fn an_unnamed_datasheet_gets_a_content_id_and_x101() {
        let mut b = SheetBuilder::new(Edition::Tenth);
        b.model_row(None, &["6\"", "4", "3+", "2", "6+", "2"], at(3));
        let (ds, d) = finish(b, None);
        assert!(ds.id.starts_with("10e:unknown:"), "{}", ds.id);
        assert_ne!(ds.id, "10e:unknown:");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::DatasheetNameMissing.as_str());
    }
}
