//! The GW app's data as game-datacards JSON (`records::game_datacards`): hand-written files
//! named after the trap each tests (`tests/fixtures/game-datacards/`), with reviewed `insta`
//! snapshots of what the pipeline gives, and values read by hand from the corpus's files
//! (`../shared/corpus/game-datacards`).

use crate::util;
use cogitator::model::{Dataset, Datasheet, Detachment, Enhancement, Rule, Stratagem};

/// The fixtures under `tests/fixtures/game-datacards/`.
const FIXTURES: &[&str] = &[
    "names-as-plain-strings-tenth.json",
    "texts-as-language-maps.json",
    "text-without-english.json",
    "additional-cost-after-selections.json",
    "no-edition-marker.json",
    "rule-parts-with-order-gaps.json",
    "enhancement-cost-not-a-number.json",
    "stratagem-texts-with-markdown.json",
    "enhancement-html-with-keyword-tags.json",
    "ability-texts-with-markdown.json",
];

fn ingest(name: &str) -> Dataset {
    let path = util::repo()
        .join("tests/fixtures/game-datacards")
        .join(name);
    let bytes = std::fs::read(&path).expect("read fixture");
    util::ingest_in_memory(&[(format!("game-datacards/{name}").as_str(), bytes)])
}

fn codes(ds: &Dataset) -> Vec<&str> {
    util::sorted_codes(ds)
}

fn sheet<'a>(ds: &'a Dataset, name: &str) -> &'a Datasheet {
    ds.datasheets
        .iter()
        .find(|d| d.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no datasheet {name}: {:#?}", ds.datasheets))
}

fn stratagem<'a>(ds: &'a Dataset, name: &str) -> &'a Stratagem {
    ds.stratagems
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no stratagem {name}: {:#?}", ds.stratagems))
}

fn enhancement<'a>(ds: &'a Dataset, name: &str) -> &'a Enhancement {
    ds.enhancements
        .iter()
        .find(|e| e.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no enhancement {name}: {:#?}", ds.enhancements))
}

fn detachment<'a>(ds: &'a Dataset, name: &str) -> &'a Detachment {
    ds.detachments
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no detachment {name}: {:#?}", ds.detachments))
}

fn rule<'a>(ds: &'a Dataset, name: &str) -> &'a Rule {
    ds.rules
        .iter()
        .find(|r| r.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no rule {name}: {:#?}", ds.rules))
}

/// The diagnostics' codes that start with `G` or `X`, sorted.
fn source_codes(ds: &Dataset) -> Vec<&str> {
    codes(ds)
        .into_iter()
        .filter(|c| c.starts_with('G') || c.starts_with('X'))
        .collect()
}

/// (models, points, units from, units to) of each tier (no range: from 0).
fn tiers(d: &Datasheet) -> Vec<(u32, u32, u32, Option<u32>)> {
    util::tiers_by_unit(&d.points)
}

#[test]
fn every_fixture_gives_its_reviewed_snapshots() {
    for name in FIXTURES {
        let ds = ingest(name);
        let key = name.trim_end_matches(".json");
        let parts = [
            ("datasheets", serde_json::to_value(&ds.datasheets)),
            ("stratagems", serde_json::to_value(&ds.stratagems)),
            ("enhancements", serde_json::to_value(&ds.enhancements)),
            ("detachments", serde_json::to_value(&ds.detachments)),
            ("rules", serde_json::to_value(&ds.rules)),
            ("diagnostics", serde_json::to_value(&ds.diagnostics)),
            ("inputs", serde_json::to_value(&ds.manifest.inputs)),
        ];
        for (part, value) in parts {
            let value = value.expect("records serialize");
            if value.as_array().is_some_and(Vec::is_empty) {
                continue;
            }
            insta::assert_json_snapshot!(format!("game-datacards-{key}__{part}"), value);
        }
    }
}

#[test]
fn tenth_edition_texts_are_plain_strings_and_its_edition_comes_from_the_datasheets() {
    let ds = ingest("names-as-plain-strings-tenth.json");
    let d = sheet(&ds, "Tomb Warden");
    assert_eq!(d.id, "10e:necrons:tomb-warden");
    assert_eq!(d.keywords, ["Infantry", "Character", "Tomb Warden"]);
    assert_eq!(d.leads, ["IMMORTALS", "NECRON WARRIORS"], "prose cut");
    assert_eq!(d.invulnerable_save.as_deref(), Some("4+"));
    let groups: Vec<(&str, &str)> = d
        .abilities
        .iter()
        .map(|a| (a.name.as_str(), a.group.as_str()))
        .collect();
    assert_eq!(
        groups,
        [
            ("Leader", "core"),
            ("Reanimation Protocols", "faction"),
            ("Eternal Vigil", "abilities")
        ]
    );
    assert_eq!(tiers(d), [(1, 90, 0, None)]);
    assert_eq!(
        d.damaged.as_ref().map(|b| b.name.as_str()),
        Some("DAMAGED: 1-2 WOUNDS REMAINING")
    );
    assert_eq!(d.base_size.as_deref(), Some("40mm"));
    assert_eq!(
        d.equipment,
        ["This model is equipped with: warden's glaive."]
    );
    assert_eq!(d.sources[0].line, 9, "the line of the datasheet's id");
}

#[test]
fn eleventh_edition_texts_are_language_maps_read_in_english() {
    let ds = ingest("texts-as-language-maps.json");
    let d = sheet(&ds, "Vault Sentinels");
    assert_eq!(d.id, "11e:adeptus-custodes:vault-sentinels");
    assert_eq!(d.keywords, ["Infantry", "Battleline", "Vault Sentinels"]);
    assert_eq!(d.unit_composition, ["4-5 Vault Sentinels"]);
    assert_eq!(d.supports, ["SHIELD-CAPTAIN", "BLADE CHAMPION"]);
    assert_eq!(d.models[0].name.as_deref(), Some("Vault Sentinel"));
    assert_eq!(d.weapons[0].name, "Sentinel spear");
    let watchful = d.abilities.iter().find(|a| a.name == "Watchful");
    assert_eq!(
        watchful.and_then(|a| a.text.as_deref()),
        Some("Each time this unit is selected to shoot, re-roll a Hit roll of 1.")
    );
    let fr = watchful.and_then(|a| a.translations.get("fr"));
    assert_eq!(
        fr.map(|t| (t.name.as_deref(), t.text.as_deref())),
        Some((Some("Vigilant"), Some("Relancez les jets de touche de 1.")))
    );
    assert!(watchful.is_some_and(|a| !a.translations.contains_key("en")));
    assert_eq!(tiers(d), [(4, 150, 0, None), (5, 180, 0, None)]);
    assert!(
        codes(&ds).iter().all(|c| !c.starts_with('G')),
        "{:?}",
        codes(&ds)
    );
}

#[test]
fn a_text_without_english_is_left_out_not_taken_from_another_language() {
    let ds = ingest("text-without-english.json");
    let d = sheet(&ds, "Silent Warden");
    assert_eq!(d.keywords, ["Infantry"]);
    let null_field = d.abilities.iter().find(|a| a.name == "Null Field");
    assert_eq!(null_field.map(|a| a.text.is_none()), Some(true));
    assert_eq!(
        codes(&ds)
            .into_iter()
            .filter(|c| c.starts_with('G'))
            .collect::<Vec<_>>(),
        ["G002", "G002"]
    );
}

#[test]
fn additional_cost_after_selections_prices_the_later_units() {
    let ds = ingest("additional-cost-after-selections.json");
    assert_eq!(
        tiers(sheet(&ds, "Gate Wardens")),
        [
            (4, 160, 1, Some(3)),
            (5, 200, 1, Some(3)),
            (4, 170, 4, None),
            (5, 210, 4, None),
        ]
    );
    // Two costs for 3 models and nothing to tell them apart: neither is kept.
    assert_eq!(
        tiers(sheet(&ds, "Twice-Priced Wardens")),
        [(6, 160, 0, None)]
    );
    assert!(codes(&ds).contains(&"G005"));
    assert!(!codes(&ds).contains(&"N114"), "no overlapping ranges");
}

#[test]
fn a_file_without_one_edition_is_not_read() {
    let ds = ingest("no-edition-marker.json");
    assert!(ds.datasheets.is_empty());
    assert_eq!(codes(&ds), ["G001"]);
}

#[test]
fn corpus_custodian_guard_costs_more_from_the_fourth_unit() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let dir = corpus.join("game-datacards");
    let mut files = Vec::new();
    for sub in ["10th/necrons.json", "11th/adeptuscustodes.json"] {
        files.push((sub.to_string(), std::fs::read(dir.join(sub)).expect("read")));
    }
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let ds = util::ingest_in_memory(&refs);
    // Read by hand: points 215/5 and 170/4, additionalCost 10 after 3 selections.
    let guard = ds
        .datasheets
        .iter()
        .find(|d| d.id == "11e:adeptus-custodes:custodian-guard")
        .expect("Custodian Guard");
    assert_eq!(
        tiers(guard),
        [
            (4, 170, 1, Some(3)),
            (5, 215, 1, Some(3)),
            (4, 180, 4, None),
            (5, 225, 4, None),
        ]
    );
    assert_eq!(guard.invulnerable_save.as_deref(), Some("4+"));
    // 10th edition's Necrons: the edition from the datasheets' `source`; Ghost Ark 115/1.
    let ark = ds
        .datasheets
        .iter()
        .find(|d| d.id == "10e:necrons:ghost-ark")
        .expect("Ghost Ark");
    assert_eq!(tiers(ark), [(1, 115, 0, None)]);
}

#[test]
fn rule_parts_are_read_in_their_order_gaps_and_all() {
    let ds = ingest("rule-parts-with-order-gaps.json");
    let katah = rule(&ds, "Martial Ka’tah");
    assert_eq!(katah.id, "11e:adeptus-custodes/army:martial-katah");
    assert_eq!(katah.kind, "army");
    assert_eq!(katah.faction.as_deref(), Some("Adeptus Custodes"));
    assert_eq!(
        katah.text,
        "Select one of the Ka’tah Stances below:\n\nDacatari Stance\n\nMelee weapons have [SUSTAINED HITS 1].\n\nRendax Stance\n\nMelee weapons have [LETHAL HITS]."
    );
    // German prints three of the five parts: its name is kept, no text (never a partial one).
    let de = katah.translations.get("de");
    assert_eq!(
        de.map(|t| (t.name.as_deref(), t.text.as_deref())),
        Some((Some("Martialisches Ka’tah"), None))
    );
    let descent = rule(&ds, "Rapid Descent");
    assert_eq!(
        descent.text,
        "Select units based on the battle size, as shown below.\n\nThose units have Deep Strike."
    );
    assert_eq!(descent.kind, "detachment");
    assert!(
        ds.rules
            .iter()
            .all(|r| r.name.as_deref() != Some("Only an Image")),
        "a rule with no text is not read"
    );
    let wardens = detachment(&ds, "Drop Wardens");
    assert_eq!(wardens.rules, [descent.id.as_str()]);
    assert_eq!(katah.occurrences[0].line, 7, "the rule object's line");
    assert_eq!(
        source_codes(&ds),
        ["G008", "G008", "G008", "X111"],
        "two images and a part without order; a rule without text"
    );
}

#[test]
fn an_enhancement_cost_that_is_not_a_number_is_null() {
    let ds = ingest("enhancement-cost-not-a-number.json");
    assert_eq!(enhancement(&ds, "Auric Mantle").points, None);
    assert_eq!(enhancement(&ds, "Castellan’s Mark").points, None);
    let p = enhancement(&ds, "Panoptispex");
    assert_eq!(p.points, Some(5));
    assert_eq!(
        p.text,
        "ADEPTUS CUSTODES model only. Ranged weapons have [IGNORES COVER]."
    );
    assert_eq!(p.id, "11e:adeptus-custodes:shield-wardens:panoptispex");
    assert_eq!(p.detachment.as_deref(), Some("Shield Wardens"));
    assert_eq!(p.sources[0].line, 30, "the line of the enhancement's id");
    assert_eq!(detachment(&ds, "Shield Wardens").enhancements.len(), 3);
    assert_eq!(source_codes(&ds), ["G006", "G006"]);
}

#[test]
fn stratagem_texts_lose_their_markdown_and_keep_their_languages() {
    let ds = ingest("stratagem-texts-with-markdown.json");
    let s = stratagem(&ds, "Peerless Warden");
    assert_eq!(s.id, "11e:lion-wardens:peerless-warden");
    assert_eq!(s.cp, Some(1));
    assert_eq!(s.category.as_deref(), Some("Battle Tactic"));
    assert_eq!(s.group.as_deref(), Some("Lion Wardens"));
    assert_eq!(s.when.as_deref(), Some("Fight phase."));
    assert_eq!(
        s.target.as_deref(),
        Some("One ADEPTUS CUSTODES unit from your army.")
    );
    assert_eq!(
        s.effect.as_deref(),
        Some("Until the end of the phase:\n\n• Melee weapons have [PRECISION].\n\n• Add 1 to the Hit roll.")
    );
    assert_eq!(s.flavor.as_deref(), Some("Every strike a lesson."));
    assert!(s.restrictions.is_some());
    let de = s.translations.get("de");
    assert_eq!(
        de.and_then(|t| t.name.as_deref()),
        Some("Unvergleichlicher Wächter")
    );
    assert_eq!(
        de.and_then(|t| t.text.as_deref()),
        Some("WHEN: Kampfphase.\n\nTARGET: Eine ADEPTUS CUSTODES-Einheit.\n\nEFFECT: Bis zum Ende der Phase:\n\n• Nahkampfwaffen haben [PRÄZISION].\n\n• +1 auf Trefferwürfe.\n\nRESTRICTIONS: Nur einmal pro Schlacht.")
    );
    assert!(
        !s.translations.contains_key("fr"),
        "French lacks the effect and the name: nothing"
    );
    let untyped = stratagem(&ds, "Untyped Ploy");
    assert_eq!((untyped.cp, untyped.category.as_deref()), (None, None));
    assert_eq!(untyped.flavor, None);
    let stray = stratagem(&ds, "Stray Gambit");
    assert_eq!(stray.group.as_deref(), Some("Missing Wardens"));
    let lions = detachment(&ds, "Lion Wardens");
    assert_eq!(
        lions.stratagems,
        [
            "11e:lion-wardens:peerless-warden",
            "11e:lion-wardens:untyped-ploy"
        ]
    );
    assert_eq!(source_codes(&ds), ["G007", "X109"]);
}

#[test]
fn enhancement_html_becomes_plain_text_and_its_detachment_is_found_by_id() {
    let ds = ingest("enhancement-html-with-keyword-tags.json");
    let e = enhancement(&ds, "Auramite Sarcophagus (Upgrade)");
    assert_eq!(
        e.text,
        "Adeptus Custodes Walker unit only. This unit’s attacks can:\n\n• Re‑roll hit rolls of 1.\n\n• Or: re‑roll wound rolls of 1.\n\nThen CP & more."
    );
    assert_eq!(e.points, Some(15));
    assert_eq!(e.detachment.as_deref(), Some("Moritoi Wardens"));
    assert_eq!(
        e.translations.get("de").and_then(|t| t.text.as_deref()),
        Some("Nur für eine Adeptus-Custodes-Läufer-Einheit.\n\n• Trefferwürfe von 1 wiederholen.\n\n• Verwundungswürfe von 1 wiederholen.")
    );
    let d = detachment(&ds, "Moritoi Wardens");
    assert_eq!(d.id, "11e:adeptus-custodes:moritoi-wardens");
    assert_eq!(d.points, Some(3));
    assert_eq!(
        d.force_disposition.as_deref(),
        Some("Take and Hold"),
        "the vocabulary's spelling"
    );
    assert_eq!(d.enhancements, [e.id.as_str()]);
    assert_eq!(source_codes(&ds), ["G009"]);
}

#[test]
fn corpus_custodes_army_side_as_read_by_hand() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let path = corpus.join("game-datacards/11th/adeptuscustodes.json");
    let bytes = std::fs::read(path).expect("read");
    let ds = util::ingest_in_memory(&[("game-datacards/11th/adeptuscustodes.json", bytes)]);
    // Counted with python3 -c 'import json; d=json.load(open(…)); print(len(d["stratagems"]), …)'.
    assert_eq!(ds.stratagems.len(), 45);
    assert_eq!(ds.enhancements.len(), 30);
    assert_eq!(ds.detachments.len(), 9);
    let kinds = |k: &str| ds.rules.iter().filter(|r| r.kind == k).count();
    assert_eq!((kinds("army"), kinds("detachment")), (1, 10));
    // Read by hand: Peerless Warrior, `cost: 1`, its target.
    let s = stratagem(&ds, "Peerless Warrior");
    assert_eq!(s.cp, Some(1));
    assert_eq!(
        s.target.as_deref(),
        Some("One ADEPTUS CUSTODES unit from your army that has not been selected to fight this phase.")
    );
    assert_eq!(s.group.as_deref(), Some("Lions of the Emperor"));
    // `cost: "10"`.
    let e = enhancement(&ds, "Psyk-out Grenades (Upgrade)");
    assert_eq!(e.points, Some(10));
    assert_eq!(e.detachment.as_deref(), Some("Silent Hunters"));
    // `detachmentPoints: 2`, `forceDisposition.name.en: "Disruption"`.
    let d = detachment(&ds, "Lions of the Emperor");
    assert_eq!(d.points, Some(2));
    assert_eq!(d.force_disposition.as_deref(), Some("Disruption"));
    assert_eq!(
        d.rules,
        ["11e:adeptus-custodes/detachment:against-all-odds"]
    );
    // Martial Ka'tah's parts are ordered 1, 3, 4, 6, 7.
    let katah = rule(&ds, "Martial Ka’tah");
    assert!(katah.text.starts_with("Each time a unit from your army"));
    assert!(katah.text.contains("Dacatari Stance\n\nMelee weapons"));
}

/// The app's datasheet texts carry Markdown (`**Fall Back**`, `*Hit*`, `■` items): the
/// abilities', the damaged box's, the invulnerable save's note and the other languages' texts
/// read as the house plain text (paragraphs, `• ` items), as the army records' texts do.
#[test]
fn datasheet_texts_lose_their_markdown() {
    let ds = ingest("ability-texts-with-markdown.json");
    let d = sheet(&ds, "Gate Walker");
    let text_of = |name: &str| {
        d.abilities
            .iter()
            .find(|a| a.name == name)
            .and_then(|a| a.text.clone())
    };
    assert_eq!(
        text_of("Warding Stride").as_deref(),
        Some(
            "While an enemy unit is within Engagement Range of this model:\n\n\
             • That unit cannot Fall Back.\n\n• Subtract 1 from its Hit rolls."
        )
    );
    assert_eq!(
        text_of("Sentinel Escort").as_deref(),
        Some("A SHIELD-CAPTAIN can be attached to this unit.")
    );
    assert_eq!(
        text_of("Gate beacon").as_deref(),
        Some("The bearer has the GRENADES keyword.")
    );
    let fr = d
        .abilities
        .iter()
        .find(|a| a.name == "Warding Stride")
        .and_then(|a| a.translations.get("fr"))
        .and_then(|t| t.text.as_deref());
    assert_eq!(
        fr,
        Some("Tant qu'une unité ennemie est à portée :\n\n• Elle ne peut pas Battre en retraite.")
    );
    assert_eq!(
        d.damaged.as_ref().map(|b| b.text.as_str()),
        Some("Each time this model makes an attack, subtract 1 from the Hit roll.")
    );
    assert_eq!(
        d.invulnerable_save_condition.as_deref(),
        Some("Ranged attacks only.")
    );
    assert_eq!(d.unit_composition, ["1 Gate Walker"]);
}
