//! The words each edition's sources print to structure their text, in one place per edition:
//! datasheet headings and labels by name ([`Headings`]), the section lists of the dumps and
//! pages, weapon-table labels, faction-page boilerplate headings,
//! stratagem part labels, the faction keywords cards print, the words of a wargear footnote
//! that sends weapons' profiles to another card, the word of a Legends publication's name.
//! Readers should match these words rather than spell them (some extractors still spell a
//! heading: `notes/structure-editions.md` lists them). A new edition's sources get a new
//! `Vocabulary` static and a line in [`of`].
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

/// Each heading and label a datasheet prints, by what it starts (upper case, as the cards and
/// the dumps print it): the names readers match instead of spelling them.
#[derive(Debug)]
pub struct Headings {
    /// The ranged weapons table (`RANGED WEAPONS`).
    pub ranged_weapons: &'static str,
    /// The melee weapons table (`MELEE WEAPONS`).
    pub melee_weapons: &'static str,
    /// The word a weapon table's header starts with for ranged weapons (`RANGED`).
    pub ranged: &'static str,
    /// The word a weapon table's header starts with for melee weapons (`MELEE`).
    pub melee: &'static str,
    /// The word every weapon table's header ends with (`WEAPONS`).
    pub weapons: &'static str,
    pub abilities: &'static str,
    pub wargear_abilities: &'static str,
    pub wargear_options: &'static str,
    pub unit_composition: &'static str,
    /// The characters a unit leads (`LEADER`) and those that lead it (`LED BY`).
    pub leader: &'static str,
    pub led_by: &'static str,
    pub stratagems: &'static str,
    pub detachment_ability: &'static str,
    pub enhancements: &'static str,
    pub invulnerable_save: &'static str,
    /// The keywords line (`KEYWORDS:` in the dumps, `KEYWORDS` on cards).
    pub keywords: &'static str,
    pub faction_keywords: &'static str,
    /// The damaged profile's heading starts with it (`DAMAGED: 1-5 WOUNDS REMAINING`).
    pub damaged: &'static str,
    /// A transport's capacity box.
    pub transport: &'static str,
    /// A model's base size (`BASE SIZE`).
    pub base_size: &'static str,
    /// The Legends mark a card prints (`WARHAMMER LEGENDS`).
    pub legends_mark: &'static str,
    /// A composition line that names every model rather than one (`ALL MODELS`).
    pub all_models: &'static str,
}

/// The structuring words of one edition's sources.
#[derive(Debug)]
pub struct Vocabulary {
    pub edition: Edition,
    /// Every datasheet heading and label, by name.
    pub headings: Headings,
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
}

impl Vocabulary {
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

    /// The edition's weapon abilities (`schemas/keywords.yaml`: canonical spelling, printed
    /// form, parameter kind, aliases): what normalization spells and the simulator reads.
    pub fn weapon_abilities(&self) -> &'static [KeywordDef] {
        crate::edition::weapon_abilities(self.edition)
    }
}

/// Warhammer 40,000, 10th edition (Wahapedia's pages and the text dumps of them).
pub static TENTH: Vocabulary = Vocabulary {
    edition: Edition::Tenth,
    headings: Headings {
        ranged_weapons: "RANGED WEAPONS",
        melee_weapons: "MELEE WEAPONS",
        ranged: "RANGED",
        melee: "MELEE",
        weapons: "WEAPONS",
        abilities: "ABILITIES",
        wargear_abilities: "WARGEAR ABILITIES",
        wargear_options: "WARGEAR OPTIONS",
        unit_composition: "UNIT COMPOSITION",
        leader: "LEADER",
        led_by: "LED BY",
        stratagems: "STRATAGEMS",
        detachment_ability: "DETACHMENT ABILITY",
        enhancements: "ENHANCEMENTS",
        invulnerable_save: "INVULNERABLE SAVE",
        keywords: "KEYWORDS",
        faction_keywords: "FACTION KEYWORDS",
        damaged: "DAMAGED",
        transport: "TRANSPORT",
        base_size: "BASE SIZE",
        legends_mark: "WARHAMMER LEGENDS",
        all_models: "ALL MODELS",
    },
    datasheet_sections: &[
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
    ],
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
    weapon_table_labels: &["RANGE", "A", "BS", "WS", "S", "AP", "D"],
    faction_page_boilerplate: &[
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
    ],
    stratagem_labels: &[
        ("WHEN:", StratagemPart::When),
        ("TARGET:", StratagemPart::Target),
        ("EFFECT:", StratagemPart::Effect),
        ("RESTRICTIONS:", StratagemPart::Restrictions),
    ],
    faction_keywords: &[
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
    ],
    profiles_printed_elsewhere: &[
        "profiles for these weapons",
        "profile for this weapon",
        "profiles for this weapon",
    ],
    legends_publication_word: "legends",
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
        Edition::Ninth | Edition::HorusHeresy2 => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
