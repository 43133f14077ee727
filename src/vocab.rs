//! The words each edition's sources print to structure their text, in one place per edition:
//! datasheet headings and labels by name ([`Headings`]), the section lists of the dumps and
//! pages, weapon-table labels, faction-page boilerplate headings,
//! stratagem part labels, the faction keywords cards print, the words of a wargear footnote
//! that sends weapons' profiles to another card, the word of a Legends publication's name, the
//! Force Dispositions a detachment grants (11th edition).
//! Readers match these words rather than spell them: the readers of an edition with a
//! vocabulary take every heading and label from it ([`Heading`], [`Vocabulary::heading`];
//! `tests/it/tidy.rs` fails on a heading spelled as a literal). A new edition's sources get a
//! new `Vocabulary` static and a line in [`of`].
//!
//! The weapon-ability vocabulary (`RAPID FIRE`, `ANTI-`, … and their aliases) is data in
//! `schemas/keywords.yaml`, loaded by the contract's bottom layer (`edition`);
//! [`Vocabulary::weapon_abilities`] lists it for the edition, so normalization and the
//! simulator see one list. The model and weapon characteristics are `schemas/editions.yaml`
//! (`ProfileKind::fields`). This module sits just above `edition` (and `text::fold`): it imports
//! neither `model` nor `normalize`.
//!
//! Data only: no parsing beyond matching a label, no I/O.

use crate::edition::{Edition, KeywordDef};

/// One part of a stratagem's rule, by the label its text starts with (`WHEN:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StratagemPart {
    When,
    Target,
    Effect,
    Restrictions,
}

/// Each heading and label a source of the edition prints to structure a datasheet, a
/// stratagem card or a faction page, by what it starts: the names readers match instead of
/// spelling them. [`Vocabulary::heading`] gives its printed form (upper case, as the cards and
/// the dumps print it, without a trailing `:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Heading {
    /// The ranged weapons table (`RANGED WEAPONS`).
    RangedWeapons,
    /// The melee weapons table (`MELEE WEAPONS`).
    MeleeWeapons,
    /// The word a weapon table's header starts with for ranged weapons (`RANGED`).
    Ranged,
    /// The word a weapon table's header starts with for melee weapons (`MELEE`).
    Melee,
    /// The word every weapon table's header ends with (`WEAPONS`).
    Weapons,
    Abilities,
    WargearAbilities,
    WargearOptions,
    UnitComposition,
    /// The characters a unit leads (`LEADER`).
    Leader,
    /// The characters that lead it (`LED BY`).
    LedBy,
    Stratagems,
    DetachmentAbility,
    Enhancements,
    InvulnerableSave,
    /// The keywords line (`KEYWORDS:` in the dumps, `KEYWORDS` on cards).
    Keywords,
    FactionKeywords,
    /// The damaged profile's heading starts with it (`DAMAGED: 1-5 WOUNDS REMAINING`).
    Damaged,
    /// A transport's capacity box.
    Transport,
    /// A model's base size (`BASE SIZE`).
    BaseSize,
    /// The Legends mark a card prints (`WARHAMMER LEGENDS`).
    LegendsMark,
    /// A composition line that names every model rather than one (`ALL MODELS`, or `ALL`).
    AllModels,
    All,
    /// The line of core rule references in an abilities section (`CORE: Deep Strike`).
    CoreReferences,
    /// The line of faction rule references (`FACTION: Oath of Moment`).
    FactionReferences,
    /// The last word of a stratagem card's type line (`BATTLE TACTIC STRATAGEM`).
    StratagemType,
    /// A faction pack's army rules page (`ARMY RULES`; a page may print `ARMY RULE`).
    ArmyRules,
    ArmyRule,
    /// A detachment page's rule box (`DETACHMENT RULE`; a page may print `DETACHMENT RULES`).
    DetachmentRule,
    DetachmentRules,
    /// A detachment rule's or enhancement's restrictions box (`RESTRICTIONS`).
    Restrictions,
    /// A faction pack's running title (`FACTION PACK: SPACE WOLVES`).
    FactionPack,
    /// The first column of a base sizes table (`UNIT | BASE SIZE`).
    Unit,
    /// The units a Support character can join (`SUPPORT`; 11th edition).
    Support,
    /// A detachment's Force Disposition (`FORCE DISPOSITION`; 11th edition).
    ForceDisposition,
    /// A detachment's cost in Detachment Points (`DETACHMENT POINTS`; 11th edition).
    DetachmentPoints,
}

/// The headings only 11th edition prints: every other vocabulary lacks them.
pub const ELEVENTH_ONLY: &[Heading] = &[
    Heading::Support,
    Heading::ForceDisposition,
    Heading::DetachmentPoints,
];

/// A heading's printed form in each reader's upper case, as one table of a [`Vocabulary`].
pub type Headings = &'static [(Heading, &'static str)];

/// The structuring words of one edition's sources.
#[derive(Debug)]
pub struct Vocabulary {
    pub edition: Edition,
    /// Every heading and label the edition prints, by name, as tables read in order (each
    /// [`Heading`] at most once across them; 10th edition has every one but
    /// [`ELEVENTH_ONLY`]'s; 11th edition the 10th edition's table and its own). Read through
    /// [`Vocabulary::all_headings`].
    pub headings: &'static [Headings],
    /// Headings of a datasheet's sections as the text dumps print them (upper case): a line
    /// that is one of them never continues another section.
    pub datasheet_sections: &'static [&'static str],
    /// The sections of a datasheet page (upper case) that are not named rules blocks: any
    /// other section heading on a page starts one (SUPREME COMMANDER, a DAMAGED profile).
    pub page_sections: &'static [&'static str],
    /// A weapon table's column labels when printed one per line (`RANGE`, `A`, `BS`…).
    pub weapon_table_labels: &'static [&'static str],
    /// Headings of a faction page that structure it rather than name a rule or detachment
    /// (lower case).
    pub faction_page_boilerplate: &'static [&'static str],
    /// The labels a stratagem's rule parts start with, in printed order.
    pub stratagem_labels: &'static [(&'static str, StratagemPart)],
    /// Faction keywords as the cards print them (compared folded: case, apostrophes) and the
    /// faction each names, as the other sources scope ids by it (`ADEPTUS ASTARTES` → Space
    /// Marines).
    pub faction_keywords: &'static [(&'static str, &'static str)],
    /// What a wargear footnote says (lower case) when the weapons it marks have their profiles
    /// printed on another card, not on this one (`* The profiles for these weapons can be found
    /// on the Space Wolves Armoury card.`).
    pub profiles_printed_elsewhere: &'static [&'static str],
    /// The word that makes a publication a Warhammer Legends one (`Space Wolves (Warhammer
    /// Legends)`, `Legends: Tyranids`): its datasheets are Legends datasheets.
    pub legends_publication_word: &'static str,
    /// The Force Dispositions a detachment grants (11th edition: `Take and Hold`; the app prints
    /// them so, the Munitorum Field Manual in capitals); empty in editions without them.
    pub force_dispositions: &'static [&'static str],
    /// The words that tell a Games Workshop PDF's kind and structure a points or errata
    /// document (`extract/gw_kind.rs`, `extract/gw_points.rs`).
    pub documents: &'static DocumentWords,
}

/// The words of the documents that are not datasheet cards: a points document (the Munitorum
/// Field Manual: its title, its section headings, the unit of its costs) and an errata
/// document (its heading and the verbs its instructions start with). Compared case-folded
/// where the doc says so; never in [`Vocabulary::words`] (they are no datasheet headings).
#[derive(Debug)]
pub struct DocumentWords {
    /// A points document's title, as printed (`MUNITORUM FIELD MANUAL`, over two lines).
    pub points_titles: &'static [&'static str],
    /// The heading of a faction's Forge World units in a points document.
    pub forge_world_section: &'static str,
    /// The heading of a faction's detachments and their enhancements' costs.
    pub enhancements_section: &'static str,
    /// The unit of a cost (`15 pts`), compared case-folded.
    pub points_unit: &'static str,
    /// The words of a tier's model count (`1 model`, `10 models`), compared case-folded.
    pub model_words: &'static [&'static str],
    /// The word a wrapped line starts with when it continues the line above (`and 10
    /// Neophytes`, `and Pyrithite Spears`), compared case-folded.
    pub continuation_word: &'static str,
    /// The word before a publication's version (`VERSION 1.1`), compared case-folded.
    pub version_word: &'static str,
    /// An errata document's heading, as printed.
    pub errata_title: &'static str,
    /// The verbs an errata instruction starts with (`Change to …`, `Add 'FLY'.`).
    pub errata_verbs: &'static [&'static str],
    /// The dash between an erratum's target and its section (`Be’lakor – Keywords section`).
    pub errata_target_dash: &'static str,
    /// The lists a points document prints apart for a faction's chapters (compared folded),
    /// and the faction whose datasheets their units are (`Space Marines`: every other source
    /// scopes a chapter's units so).
    pub chapters: &'static [(&'static str, &'static str)],
}

/// The documents' words of 10th edition (11th edition's are the same so far).
const DOCUMENT_WORDS: DocumentWords = DocumentWords {
    points_titles: &["MUNITORUM FIELD MANUAL"],
    forge_world_section: "FORGE WORLD POINTS VALUES",
    enhancements_section: "DETACHMENT ENHANCEMENTS",
    points_unit: "pts",
    model_words: &["model", "models"],
    continuation_word: "and",
    version_word: "version",
    errata_title: "ERRATA",
    errata_verbs: &["Change", "Add", "Delete", "Remove", "Replace"],
    errata_target_dash: " \u{2013} ",
    chapters: &[
        ("black templars", "Space Marines"),
        ("blood angels", "Space Marines"),
        ("dark angels", "Space Marines"),
        ("deathwatch", "Space Marines"),
        ("space wolves", "Space Marines"),
    ],
};

impl Vocabulary {
    /// Every heading and label of this vocabulary as printed, in capitals (datasheet and
    /// faction-page headings, section lists, stratagem labels): the words a reader of this
    /// edition matches through the vocabulary and never spells itself (`tests/it/tidy.rs`
    /// checks it). The lower-case boilerplate list is compared folded and is not among them.
    pub fn words(&self) -> Vec<&'static str> {
        let mut w: Vec<&'static str> = self.all_headings().map(|(_, h)| *h).collect();
        w.extend(self.datasheet_sections);
        w.extend(self.page_sections);
        w.extend(self.stratagem_labels.iter().map(|(l, _)| *l));
        w.sort_unstable();
        w.dedup();
        w
    }

    /// How `h` is printed (upper case, no trailing `:`); empty when the vocabulary lacks it
    /// (only [`ELEVENTH_ONLY`]'s, in other editions: tested).
    pub fn heading(&self, h: Heading) -> &'static str {
        self.all_headings()
            .find(|(k, _)| *k == h)
            .map_or("", |(_, w)| w)
    }

    /// The heading `t` is, exactly as printed (upper case, no trailing `:`: readers pass the
    /// line's trimmed upper-case text).
    pub fn heading_of(&self, t: &str) -> Option<Heading> {
        self.all_headings().find(|(_, w)| *w == t).map(|(h, _)| *h)
    }

    /// Every heading of the vocabulary with its printed form, its tables in order.
    pub fn all_headings(&self) -> impl Iterator<Item = &'static (Heading, &'static str)> {
        self.headings.iter().flat_map(|t| t.iter())
    }

    /// Whether `t` is heading `h` in any case (`Ranged Weapons`).
    pub fn is(&self, h: Heading, t: &str) -> bool {
        let w = self.heading(h);
        !w.is_empty() && w.eq_ignore_ascii_case(t)
    }

    /// Whether `t` starts with heading `h` followed by `sep`, as printed (case kept).
    pub fn starts_with(&self, h: Heading, sep: &str, t: &str) -> bool {
        let w = self.heading(h);
        !w.is_empty() && t.strip_prefix(w).is_some_and(|r| r.starts_with(sep))
    }

    /// The text after `t`'s label `h` followed by `sep` (`KEYWORDS` and `:`), trimmed, the
    /// label's case ignored; `None` when `t` does not start with it.
    pub fn after_label<'t>(&self, h: Heading, sep: &str, t: &'t str) -> Option<&'t str> {
        let w = self.heading(h);
        let head = t.get(..w.len())?;
        let rest = t.get(w.len()..)?;
        let rest = (!w.is_empty() && head.eq_ignore_ascii_case(w)).then_some(rest)?;
        Some(rest.strip_prefix(sep)?.trim())
    }

    /// The text after `t`'s label `h` followed by `sep`, exactly as printed (case kept, not
    /// trimmed); `None` when `t` does not start with it.
    pub fn after_printed_label<'t>(&self, h: Heading, sep: &str, t: &'t str) -> Option<&'t str> {
        let w = self.heading(h);
        (!w.is_empty()).then_some(())?;
        t.strip_prefix(w)?.strip_prefix(sep)
    }

    /// Whether `t` starts with one of the stratagem labels (`WHEN:`).
    pub fn starts_with_stratagem_label(&self, t: &str) -> bool {
        self.stratagem_labels.iter().any(|(l, _)| t.starts_with(l))
    }

    /// The part `line` starts with, and the text after its label (trimmed).
    pub fn stratagem_part<'l>(&self, line: &'l str) -> Option<(StratagemPart, &'l str)> {
        self.stratagem_labels
            .iter()
            .find_map(|(label, part)| line.strip_prefix(label).map(|rest| (*part, rest.trim())))
    }

    /// Whether `t` (any case, surrounding space ignored) is one of the dumps' datasheet
    /// section headings.
    pub fn is_datasheet_section(&self, t: &str) -> bool {
        let u = t.trim().to_uppercase();
        self.datasheet_sections.contains(&u.as_str())
    }

    /// Whether a publication's name (`Space Wolves (Warhammer Legends)`) makes its datasheets
    /// Legends datasheets: one of its words is [`Self::legends_publication_word`].
    pub fn is_legends_publication(&self, name: &str) -> bool {
        name.split(|c: char| !c.is_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case(self.legends_publication_word))
    }

    /// The faction `name` names, as a faction keyword the cards print (`Adeptus Astartes` →
    /// Space Marines) or as the faction itself (`Chaos Daemons`); `None` when it is neither.
    pub fn faction_named(&self, name: &str) -> Option<&'static str> {
        let n = crate::text::fold::fold_for_compare(name);
        self.faction_of_keyword(name).or_else(|| {
            self.faction_keywords
                .iter()
                .find(|(_, f)| crate::text::fold::fold_for_compare(f) == n)
                .map(|(_, f)| *f)
        })
    }

    /// The faction a faction keyword names; `None` for a keyword the vocabulary does not know.
    pub fn faction_of_keyword(&self, keyword: &str) -> Option<&'static str> {
        let k = crate::text::fold::fold_for_compare(keyword);
        self.faction_keywords
            .iter()
            .find(|(kw, _)| crate::text::fold::fold_for_compare(kw) == k)
            .map(|(_, f)| *f)
    }

    /// The edition's weapon abilities (`schemas/keywords.yaml`, `schemas/keywords-11e.yaml`:
    /// canonical spelling, printed form, parameter kind, aliases): what normalization spells and
    /// the simulator reads.
    pub fn weapon_abilities(&self) -> &'static [KeywordDef] {
        crate::edition::weapon_abilities(self.edition)
    }

    /// The Force Disposition `name` is, in the vocabulary's spelling (`TAKE AND HOLD` → `Take
    /// and Hold`; case and typography folded); `None` for any other name.
    pub fn force_disposition(&self, name: &str) -> Option<&'static str> {
        let n = crate::text::fold::fold_for_compare(name);
        self.force_dispositions
            .iter()
            .find(|d| crate::text::fold::fold_for_compare(d) == n)
            .copied()
    }
}

/// The datasheet section headings of the text dumps (10th and 11th edition).
const DATASHEET_SECTIONS: &[&str] = &[
    "RANGED WEAPONS",
    "MELEE WEAPONS",
    "WARGEAR OPTIONS",
    "UNIT COMPOSITION",
    "ABILITIES",
    "STRATAGEMS",
    "DETACHMENT ABILITY",
    "INVULNERABLE SAVE",
    "KEYWORDS:",
    "FACTION KEYWORDS:",
];

const WEAPON_TABLE_LABELS: &[&str] = &["RANGE", "A", "BS", "WS", "S", "AP", "D"];

const FACTION_PAGE_BOILERPLATE: &[&str] = &[
    "books",
    "faq",
    "introduction",
    "army rules",
    "army rule",
    "detachment rule",
    "detachment rules",
    "enhancements",
    "stratagems",
    "rules adaptations",
    "mustering a boarding patrol",
    "forming boarding squads",
    "boarding actions",
    "crusade rules",
    "datasheets",
];

const STRATAGEM_LABELS: &[(&str, StratagemPart)] = &[
    ("WHEN:", StratagemPart::When),
    ("TARGET:", StratagemPart::Target),
    ("EFFECT:", StratagemPart::Effect),
    ("RESTRICTIONS:", StratagemPart::Restrictions),
];

/// Faction keywords of 10th and 11th edition and the faction each names.
const FACTION_KEYWORDS: &[(&str, &str)] = &[
    ("adeptus astartes", "Space Marines"),
    ("heretic astartes", "Chaos Space Marines"),
    ("legiones daemonica", "Chaos Daemons"),
    ("astra militarum", "Astra Militarum"),
    ("adeptus custodes", "Adeptus Custodes"),
    ("adepta sororitas", "Adepta Sororitas"),
    ("adeptus mechanicus", "Adeptus Mechanicus"),
    ("tyranids", "Tyranids"),
    ("orks", "Orks"),
    ("necrons", "Necrons"),
    ("t'au empire", "T'au Empire"),
    ("aeldari", "Aeldari"),
    ("drukhari", "Drukhari"),
    ("genestealer cults", "Genestealer Cults"),
    ("leagues of votann", "Leagues of Votann"),
    ("grey knights", "Grey Knights"),
    ("imperial knights", "Imperial Knights"),
    ("chaos knights", "Chaos Knights"),
    ("death guard", "Death Guard"),
    ("thousand sons", "Thousand Sons"),
    ("world eaters", "World Eaters"),
    ("emperor's children", "Emperor's Children"),
    ("agents of the imperium", "Agents of the Imperium"),
];

const PROFILES_PRINTED_ELSEWHERE: &[&str] = &[
    "profiles for these weapons",
    "profile for this weapon",
    "profiles for this weapon",
];

/// The 10th edition's headings as printed (11th edition prints them the same).
const TENTH_HEADINGS: Headings = &[
    (Heading::RangedWeapons, "RANGED WEAPONS"),
    (Heading::MeleeWeapons, "MELEE WEAPONS"),
    (Heading::Ranged, "RANGED"),
    (Heading::Melee, "MELEE"),
    (Heading::Weapons, "WEAPONS"),
    (Heading::Abilities, "ABILITIES"),
    (Heading::WargearAbilities, "WARGEAR ABILITIES"),
    (Heading::WargearOptions, "WARGEAR OPTIONS"),
    (Heading::UnitComposition, "UNIT COMPOSITION"),
    (Heading::Leader, "LEADER"),
    (Heading::LedBy, "LED BY"),
    (Heading::Stratagems, "STRATAGEMS"),
    (Heading::DetachmentAbility, "DETACHMENT ABILITY"),
    (Heading::Enhancements, "ENHANCEMENTS"),
    (Heading::InvulnerableSave, "INVULNERABLE SAVE"),
    (Heading::Keywords, "KEYWORDS"),
    (Heading::FactionKeywords, "FACTION KEYWORDS"),
    (Heading::Damaged, "DAMAGED"),
    (Heading::Transport, "TRANSPORT"),
    (Heading::BaseSize, "BASE SIZE"),
    (Heading::LegendsMark, "WARHAMMER LEGENDS"),
    (Heading::AllModels, "ALL MODELS"),
    (Heading::All, "ALL"),
    (Heading::CoreReferences, "CORE"),
    (Heading::FactionReferences, "FACTION"),
    (Heading::StratagemType, "STRATAGEM"),
    (Heading::ArmyRules, "ARMY RULES"),
    (Heading::ArmyRule, "ARMY RULE"),
    (Heading::DetachmentRule, "DETACHMENT RULE"),
    (Heading::DetachmentRules, "DETACHMENT RULES"),
    (Heading::Restrictions, "RESTRICTIONS"),
    (Heading::FactionPack, "FACTION PACK"),
    (Heading::Unit, "UNIT"),
];

/// The headings 11th edition adds ([`ELEVENTH_ONLY`]).
const ELEVENTH_HEADINGS: Headings = &[
    (Heading::Support, "SUPPORT"),
    (Heading::ForceDisposition, "FORCE DISPOSITION"),
    (Heading::DetachmentPoints, "DETACHMENT POINTS"),
];

/// Warhammer 40,000, 10th edition (Wahapedia's pages and the text dumps of them).
pub static TENTH: Vocabulary = Vocabulary {
    edition: Edition::Tenth,
    headings: &[TENTH_HEADINGS],
    datasheet_sections: DATASHEET_SECTIONS,
    page_sections: &[
        "RANGED WEAPONS",
        "MELEE WEAPONS",
        "WARGEAR OPTIONS",
        "ABILITIES",
        "WARGEAR ABILITIES",
        "UNIT COMPOSITION",
        "LEADER",
        "LED BY",
        "STRATAGEMS",
        "DETACHMENT ABILITY",
        "ENHANCEMENTS",
    ],
    weapon_table_labels: WEAPON_TABLE_LABELS,
    faction_page_boilerplate: FACTION_PAGE_BOILERPLATE,
    stratagem_labels: STRATAGEM_LABELS,
    faction_keywords: FACTION_KEYWORDS,
    profiles_printed_elsewhere: PROFILES_PRINTED_ELSEWHERE,
    legends_publication_word: "legends",
    force_dispositions: &[],
    documents: &DOCUMENT_WORDS,
};

/// Warhammer 40,000, 11th edition (the GW app's data, BattleScribe 11th-edition catalogues, the
/// Munitorum Field Manual): the 10th edition's words, plus Support attach lists, a
/// detachment's Force Disposition and Detachment Points.
pub static ELEVENTH: Vocabulary = Vocabulary {
    edition: Edition::Eleventh,
    headings: &[TENTH_HEADINGS, ELEVENTH_HEADINGS],
    datasheet_sections: DATASHEET_SECTIONS,
    page_sections: &[
        "RANGED WEAPONS",
        "MELEE WEAPONS",
        "WARGEAR OPTIONS",
        "ABILITIES",
        "WARGEAR ABILITIES",
        "UNIT COMPOSITION",
        "LEADER",
        "SUPPORT",
        "LED BY",
        "STRATAGEMS",
        "DETACHMENT ABILITY",
        "ENHANCEMENTS",
    ],
    weapon_table_labels: WEAPON_TABLE_LABELS,
    faction_page_boilerplate: FACTION_PAGE_BOILERPLATE,
    stratagem_labels: STRATAGEM_LABELS,
    faction_keywords: FACTION_KEYWORDS,
    profiles_printed_elsewhere: PROFILES_PRINTED_ELSEWHERE,
    legends_publication_word: "legends",
    force_dispositions: &[
        "Disruption",
        "Priority Assets",
        "Purge the Foe",
        "Reconnaissance",
        "Take and Hold",
    ],
    documents: &DOCUMENT_WORDS,
};

/// Whether a publication's name makes its datasheets Legends datasheets in `edition`
/// ([`Vocabulary::is_legends_publication`]; never in an edition without a vocabulary).
pub fn legends_publication(edition: Edition, name: &str) -> bool {
    of(edition).is_some_and(|v| v.is_legends_publication(name))
}

/// The vocabulary of `edition`'s sources; `None` for an edition no extractor reads yet.
pub fn of(edition: Edition) -> Option<&'static Vocabulary> {
    match edition {
        Edition::Tenth => Some(&TENTH),
        Edition::Eleventh => Some(&ELEVENTH),
        Edition::Ninth | Edition::HorusHeresy2 => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_heading_is_in_the_tenth_edition_vocabulary_once() {
        for (h, w) in TENTH.all_headings() {
            assert_eq!(TENTH.heading(*h), *w);
            assert_eq!(TENTH.all_headings().filter(|(k, _)| k == h).count(), 1);
            assert!(!w.is_empty() && !w.ends_with(':'));
        }
        assert_eq!(
            TENTH.all_headings().count() + ELEVENTH_ONLY.len(),
            Heading::DetachmentPoints as usize + 1
        );
        for h in ELEVENTH_ONLY {
            assert_eq!(TENTH.heading(*h), "", "{h:?} is 11th edition's");
        }
        assert_eq!(TENTH.heading_of("KEYWORDS"), Some(Heading::Keywords));
        assert_eq!(TENTH.heading_of("KEYWORDS:"), None);
        assert_eq!(TENTH.heading_of("Keywords"), None);
        assert!(TENTH.is(Heading::LedBy, "Led by"));
        assert!(TENTH.starts_with(Heading::Keywords, ":", "KEYWORDS: A"));
        assert!(!TENTH.starts_with(Heading::Keywords, ":", "KEYWORDS – A"));
        assert_eq!(
            TENTH.after_label(Heading::Keywords, ":", "Keywords:  Infantry, Psyker"),
            Some("Infantry, Psyker")
        );
        assert_eq!(
            TENTH.after_label(Heading::Keywords, ":", "KEYWORDS – X"),
            None
        );
        assert_eq!(
            TENTH.after_label(Heading::CoreReferences, ":", "CORÉ: x"),
            None
        );
        assert!(TENTH.words().contains(&"WHEN:"));
    }

    #[test]
    fn every_heading_is_in_the_eleventh_edition_vocabulary_once() {
        assert_eq!(
            ELEVENTH.all_headings().count(),
            Heading::DetachmentPoints as usize + 1
        );
        for (h, w) in ELEVENTH.all_headings() {
            assert_eq!(ELEVENTH.heading(*h), *w);
            assert_eq!(ELEVENTH.all_headings().filter(|(k, _)| k == h).count(), 1);
            if !ELEVENTH_ONLY.contains(h) {
                assert_eq!(TENTH.heading(*h), *w, "{h:?} printed as in 10th edition");
            }
        }
        assert_eq!(ELEVENTH.heading(Heading::Support), "SUPPORT");
        assert!(ELEVENTH.is(Heading::ForceDisposition, "Force Disposition"));
        assert_eq!(
            of(Edition::Eleventh).map(|v| v.edition),
            Some(Edition::Eleventh)
        );
    }

    #[test]
    fn force_dispositions_and_factions_of_the_eleventh_edition() {
        assert_eq!(ELEVENTH.force_dispositions.len(), 5);
        assert_eq!(
            ELEVENTH.force_disposition("TAKE AND HOLD"),
            Some("Take and Hold")
        );
        assert_eq!(
            ELEVENTH.force_disposition("Purge The Foe"),
            Some("Purge the Foe")
        );
        assert_eq!(ELEVENTH.force_disposition("Hold the Line"), None);
        assert_eq!(TENTH.force_disposition("Take and Hold"), None);
        assert_eq!(
            ELEVENTH.faction_named("Adeptus Astartes"),
            Some("Space Marines")
        );
        assert_eq!(
            ELEVENTH.faction_named("Adeptus Custodes"),
            Some("Adeptus Custodes")
        );
    }

    #[test]
    fn legends_publications_by_word() {
        assert!(TENTH.is_legends_publication("Space Wolves (Warhammer Legends)"));
        assert!(TENTH.is_legends_publication("Legends: Tyranids"));
        assert!(!TENTH.is_legends_publication("Space Wolves"));
        assert!(!TENTH.is_legends_publication("Legendary Heroes"));
    }

    #[test]
    fn stratagem_parts_by_label() {
        assert_eq!(
            TENTH.stratagem_part("WHEN:  Your Shooting phase."),
            Some((StratagemPart::When, "Your Shooting phase."))
        );
        assert_eq!(TENTH.stratagem_part("when: lower case"), None);
        assert!(TENTH.is_datasheet_section(" abilities "));
        assert!(!TENTH.is_datasheet_section("SUPREME COMMANDER"));
    }
}
