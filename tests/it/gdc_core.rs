//! The GW app's core rules (`cardType: coreRules`, `records::game_datacards::core`):
//! hand-written files named after the trap each tests (`tests/fixtures/game-datacards/core-*`),
//! with reviewed `insta` snapshots, and values read by hand from the corpus's
//! `game-datacards/11th/core/core_rules.json` (counted with python3, never from our output).

use crate::util;
use cogitator::model::{Dataset, InputStatus, Rule};

/// The core rules fixtures under `tests/fixtures/game-datacards/`.
const FIXTURES: &[&str] = &[
    "core-rules-number-used-twice.json",
    "core-rules-unpadded-number.json",
    "core-rules-accordion-children.json",
    "core-rules-name-used-twice.json",
    "core-rules-html-table.json",
];

fn ingest(name: &str) -> Dataset {
    let path = util::repo()
        .join("tests/fixtures/game-datacards")
        .join(name);
    let bytes = std::fs::read(&path).expect("read fixture");
    util::ingest_in_memory(&[(format!("game-datacards/core/{name}").as_str(), bytes)])
}

fn rule<'a>(ds: &'a Dataset, id: &str) -> &'a Rule {
    ds.rules
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no rule {id}: {:#?}", ds.rules))
}

/// (number, id, parent) of every rule, by number.
fn tree(ds: &Dataset) -> Vec<(String, String, Option<String>)> {
    let mut t: Vec<_> = ds
        .rules
        .iter()
        .map(|r| {
            let n = r.number.clone().unwrap_or_default();
            (n, r.id.clone(), r.parent.clone())
        })
        .collect();
    t.sort();
    t
}

/// The hierarchy breaks `lint` finds (`N116`): none in a reader's output.
fn hierarchy_breaks(ds: &Dataset) -> Vec<String> {
    cogitator::normalize::structure::rule_hierarchy(&ds.rules)
        .into_iter()
        .map(|(id, m)| format!("{id}: {m}"))
        .collect()
}

#[test]
fn every_core_fixture_gives_its_reviewed_snapshots() {
    for name in FIXTURES {
        let ds = ingest(name);
        assert!(
            hierarchy_breaks(&ds).is_empty(),
            "{name}: {:?}",
            hierarchy_breaks(&ds)
        );
        let key = name.trim_end_matches(".json");
        let parts = [
            ("rules", serde_json::to_value(&ds.rules)),
            ("diagnostics", serde_json::to_value(&ds.diagnostics)),
        ];
        for (part, value) in parts {
            let value = value.expect("records serialize");
            insta::assert_json_snapshot!(format!("gdc-{key}__{part}"), value);
        }
    }
}

#[test]
fn a_number_printed_twice_keeps_both_rules_under_one_parent() {
    let ds = ingest("core-rules-number-used-twice.json");
    let fall_back = rule(&ds, "11e:core:fall-back-move");
    assert_eq!(
        fall_back.children,
        [
            "11e:core:desperate-escape",
            "11e:core:desperate-escape-test"
        ]
    );
    assert_eq!(
        rule(&ds, "11e:core:desperate-escape").number.as_deref(),
        Some("09.07.01")
    );
    // A container titled in English only: a text translation, no name translation.
    let more = rule(&ds, "11e:core:more-than-one-normal-move-in-a-phase");
    assert_eq!(more.parent.as_deref(), Some("11e:core:normal-move"));
    assert_eq!(more.translations["de"].name, None);
    assert_eq!(
        more.translations["de"].text.as_deref(),
        Some("Nur eine normale Bewegung je Phase.")
    );
    // behaviourType: labelled lines, the condition before the effect; a stratagem: no rule.
    assert_eq!(
        rule(&ds, "11e:core:normal-move").text,
        "Eligible if: Your unit is unengaged.\n\nEffect: Your unit moves as described in Moving (03)."
    );
    assert!(ds
        .rules
        .iter()
        .all(|r| r.name.as_deref() != Some("Rapid Ingress")));
    assert_eq!(util::sorted_codes(&ds), ["G010", "G011"]);
}

#[test]
fn an_unpadded_number_is_read_with_its_zeros() {
    let ds = ingest("core-rules-unpadded-number.json");
    let t = tree(&ds);
    let numbers: Vec<&str> = t.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(numbers, ["05", "05.03", "05.03.01", "05.03.02"]);
    let modified = rule(&ds, "11e:core:attacks-modified-during-hit-and-wound-rolls");
    assert_eq!(modified.parent.as_deref(), Some("11e:core:save-rolls"));
    assert_eq!(
        modified.translations["fr"].name.as_deref(),
        Some("Attaques modifiées")
    );
    // Section 05's name without its number; control characters and their escapes left out.
    let sequence = rule(&ds, "11e:core:attack-sequence");
    assert_eq!(sequence.number.as_deref(), Some("05"));
    assert_eq!(
        sequence.text,
        "Follow these steps:\n\n1. HIT ROLLS\n2. WOUND ROLLS"
    );
    assert_eq!(
        sequence.translations["fr"].text.as_deref(),
        Some("Suivez ces étapes :\n\n1. JETS DE TOUCHE\n2. JETS DE BLESSURE")
    );
    assert_eq!(util::sorted_codes(&ds), ["G012"]);
}

#[test]
fn accordions_with_numbers_are_child_rules_and_without_are_text() {
    let ds = ingest("core-rules-accordion-children.json");
    let torrent = rule(&ds, "11e:core:torrent");
    assert_eq!(
        torrent.text,
        "Attacks made with this weapon automatically hit.\n\nDesigner's Note\n\nTorrent weapons are flamers."
    );
    assert_eq!(torrent.children.len(), 1);
    // The number-only accordion: a rule without a name, under [TORRENT].
    let untitled = rule(&ds, &torrent.children[0]);
    assert_eq!(untitled.name, None);
    assert_eq!(untitled.number.as_deref(), Some("24.37.01"));
    assert_eq!(
        untitled.text,
        "[TORRENT] weapons cannot have [INDIRECT FIRE]."
    );
    let twin = rule(&ds, "11e:core:twin-linked");
    assert_eq!(
        twin.children,
        ["11e:core:twin-weapons", "11e:core:twin-weapons-again"]
    );
    let core = rule(&ds, "11e:core:core-abilities");
    assert_eq!(core.children, ["11e:core:torrent", "11e:core:twin-linked"]);
    assert!(util::sorted_codes(&ds).contains(&"G014"));
}

#[test]
fn one_name_on_two_numbers_gives_two_ids_never_one_rule() {
    // The two texts are the same: dedup must not merge numbered rules.
    let ds = ingest("core-rules-name-used-twice.json");
    let a = rule(&ds, "11e:core:abilities~02-03");
    let b = rule(&ds, "11e:core:abilities~24-01");
    assert_eq!(a.parent.as_deref(), Some("11e:core:datasheets"));
    assert_eq!(b.parent.as_deref(), Some("11e:core:core-abilities"));
    assert_eq!(a.text, b.text);
    assert!(ds.rules.iter().all(|r| r.id != "11e:core:abilities"));
    assert_eq!(util::sorted_codes(&ds), ["G013"]);
}

#[test]
fn a_table_goes_to_tables_and_a_part_translation_is_left_out() {
    let ds = ingest("core-rules-html-table.json");
    let units = rule(&ds, "11e:core:units-and-models");
    assert_eq!(units.tables.len(), 1);
    assert_eq!(units.tables[0].columns, ["", "STARTING STRENGTH OF 1"]);
    assert_eq!(
        units.tables[0].rows,
        [[
            "BELOW STARTING STRENGTH",
            "Remaining wounds are less than its W."
        ]]
    );
    assert_eq!(
        units.text,
        "The meaning varies, as shown below.\n\nExample: A Captain.\n\nMoving in a straight line\n\nUnits include:\n• INFANTRY units\n• Others"
    );
    // Its second text has no German: no German text (never half a translation).
    assert!(units.translations.is_empty(), "{:?}", units.translations);
    assert_eq!(util::sorted_codes(&ds), ["G010"]);
}

#[test]
fn corpus_core_rules_are_numbered_with_parents() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let sub = "game-datacards/11th/core/core_rules.json";
    let bytes = std::fs::read(corpus.join(sub)).expect("read");
    let ds = util::ingest_in_memory(&[(sub, bytes)]);
    assert!(
        hierarchy_breaks(&ds).is_empty(),
        "{:?}",
        hierarchy_breaks(&ds)
    );
    // Read by hand (python3): 25 sections, 154 containers of type standard or behaviourType,
    // 109 accordions, all numbered; 10 stratagem containers, 36 images.
    assert_eq!(ds.rules.len(), 288);
    let sections = ds
        .rules
        .iter()
        .filter(|r| r.number.as_deref().is_some_and(|n| !n.contains('.')))
        .count();
    assert_eq!(sections, 25);
    let hit = rule(&ds, "11e:core:hit-rolls");
    assert_eq!(hit.number.as_deref(), Some("05.01"));
    assert_eq!(hit.parent.as_deref(), Some("11e:core:attack-sequence"));
    assert_eq!(hit.translations["de"].name.as_deref(), Some("Trefferwürfe"));
    assert_eq!(
        hit.translations["fr"].name.as_deref(),
        Some("Jets de Touche")
    );
    assert_eq!(hit.tables[0].rows[1], ["Unmodified 6", "CRITICAL HIT"]);
    let sequence = rule(&ds, "11e:core:attack-sequence");
    assert_eq!(sequence.number.as_deref(), Some("05"));
    assert_eq!(
        sequence.translations["de"].name.as_deref(),
        Some("Attackenabfolge")
    );
    assert_eq!(sequence.children.len(), 4, "05.01 to 05.04");
    // The traps: 09.07.01 twice, 5.3.2, Abilities twice, the number-only 24.37.01.
    let escape = rule(&ds, "11e:core:fall-back-move");
    assert_eq!(escape.number.as_deref(), Some("09.07"));
    assert_eq!(escape.children.len(), 2);
    let modified = rule(&ds, "11e:core:attacks-modified-during-hit-and-wound-rolls");
    assert_eq!(modified.number.as_deref(), Some("05.03.02"));
    assert_eq!(
        rule(&ds, "11e:core:abilities~24-01").parent.as_deref(),
        Some("11e:core:core-abilities")
    );
    let torrent = rule(&ds, "11e:core:torrent");
    assert_eq!(
        rule(&ds, &torrent.children[0]).number.as_deref(),
        Some("24.37.01")
    );
    assert!(ds
        .rules
        .iter()
        .all(|r| !r.text.contains('<') && !r.text.contains("_x00")));
    let codes = util::sorted_codes(&ds);
    for c in ["G010", "G011", "G012", "G013", "G014"] {
        assert!(codes.contains(&c), "{c}: {codes:?}");
    }
}

#[test]
fn faq_and_keywords_files_give_no_records_and_say_why() {
    let faq =
        br#"{"source": "40k-11e", "cardType": "faq", "faqs": [{"errataHeader": {"en": "X"}}]}"#;
    let keywords = br#"{"source": "40k-11e", "cardType": "keywords", "keywords": [{"key": "deep-strike", "name": "Deep Strike", "description": "Set up later.", "appliesTo": ["abilities"]}]}"#;
    let ds = util::ingest_in_memory(&[
        ("game-datacards/11th/faqs.json", faq.as_slice()),
        ("game-datacards/11th/keywords.json", keywords.as_slice()),
    ]);
    assert!(ds.rules.is_empty());
    assert_eq!(util::sorted_codes(&ds), ["G015", "G015"]);
    assert_eq!(ds.manifest.inputs.len(), 2);
    for i in &ds.manifest.inputs {
        assert_eq!(i.status, InputStatus::Skipped, "{}", i.file);
    }
    // An unknown card type is not ours: skipped as before (`S007`).
    let other = br#"{"source": "40k-11e", "cardType": "missions", "missions": []}"#;
    let ds = util::ingest_in_memory(&[("game-datacards/11th/missions.json", other.as_slice())]);
    assert_eq!(util::sorted_codes(&ds), ["S007"]);
}
