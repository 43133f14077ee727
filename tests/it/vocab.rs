//! The edition vocabularies (`cogitator::vocab`): one list of weapon abilities for
//! normalization and the simulator, and the structuring words the readers share.

use cogitator::model::Edition;
use cogitator::normalize::schema::Param;
use cogitator::simulate::keyword::Keyword;
use cogitator::vocab::{self, StratagemPart};

/// Weapon abilities of the vocabulary the simulator cannot read yet (each one makes a weapon
/// that has it a `V303`). Only shrinks: a listed ability the simulator reads fails the test.
const SIMULATOR_GAPS: &[&str] = &[];

/// The 11th edition's weapon abilities the simulator cannot read yet: none since issue 28
/// (`BLAST X`, `CLEAVE X`, `CLOSE-QUARTERS`). Only shrinks.
const SIMULATOR_GAPS_11E: &[&str] = &[];

/// The abilities of `edition`'s vocabulary the simulator cannot parse (each in its
/// parameterised form).
fn unread_by_the_simulator(edition: Edition) -> Vec<&'static str> {
    let v = vocab::of(edition).expect("a vocabulary");
    let mut unread = Vec::new();
    for k in v.weapon_abilities() {
        let name = k.name.value.as_str();
        let example = match k.parameter {
            Param::None => name.to_string(),
            Param::Amount | Param::OptionalAmount => format!("{name} 2"),
            Param::Anti => format!("{name}-INFANTRY 4+"),
        };
        if Keyword::parse(&example).is_err() {
            unread.push(name);
        }
    }
    unread
}

#[test]
fn every_weapon_ability_normalization_spells_is_one_the_simulator_reads() {
    assert_eq!(
        unread_by_the_simulator(Edition::Tenth),
        SIMULATOR_GAPS,
        "vocabulary abilities the simulator cannot read"
    );
    assert!(vocab::TENTH.weapon_abilities().len() >= 20);
    assert_eq!(
        unread_by_the_simulator(Edition::Eleventh),
        SIMULATOR_GAPS_11E,
        "11th-edition abilities the simulator cannot read"
    );
    assert!(vocab::ELEVENTH.weapon_abilities().len() >= 20);
}

#[test]
fn tenth_edition_words() {
    let v = &vocab::TENTH;
    assert_eq!(v.edition, Edition::Tenth);
    assert!(vocab::of(Edition::Ninth).is_none());
    assert_eq!(
        v.stratagem_part("RESTRICTIONS: Once per battle."),
        Some((StratagemPart::Restrictions, "Once per battle."))
    );
    assert_eq!(
        v.stratagem_part("EFFECT:"),
        Some((StratagemPart::Effect, ""))
    );
    assert!(v.is_datasheet_section("Faction Keywords:"));
    assert!(v.page_sections.contains(&"LED BY"));
    assert!(v.faction_page_boilerplate.contains(&"crusade rules"));
    assert_eq!(v.weapon_table_labels.len(), 7);
}

/// Every named heading is one the section lists know, so a reader that matches a heading by
/// name and one that matches the lists agree.
#[test]
fn named_headings_are_in_the_section_lists() {
    use vocab::Heading as H;
    let v = &vocab::TENTH;
    let h = |k| v.heading(k);
    for name in [
        H::RangedWeapons,
        H::MeleeWeapons,
        H::WargearOptions,
        H::UnitComposition,
        H::Abilities,
        H::Stratagems,
        H::DetachmentAbility,
        H::InvulnerableSave,
    ] {
        assert!(v.is_datasheet_section(h(name)), "{name:?}");
    }
    for name in [
        H::RangedWeapons,
        H::MeleeWeapons,
        H::WargearAbilities,
        H::Leader,
        H::LedBy,
        H::Enhancements,
    ] {
        assert!(v.page_sections.contains(&h(name)), "{name:?}");
    }
    assert!(v.is_datasheet_section(&format!("{}:", h(H::Keywords))));
    assert!(v.is_datasheet_section(&format!("{}:", h(H::FactionKeywords))));
    let (ranged, melee, weapons) = (h(H::Ranged), h(H::Melee), h(H::Weapons));
    assert!(h(H::RangedWeapons).starts_with(ranged) && h(H::RangedWeapons).ends_with(weapons));
    assert!(h(H::MeleeWeapons).starts_with(melee) && h(H::MeleeWeapons).ends_with(weapons));
    // and the words are upper case, as printed
    assert!(!v.is_datasheet_section("SUPREME COMMANDER"));
    for (_, w) in v.all_headings() {
        assert_eq!(*w, w.to_uppercase(), "{w}");
    }
}
