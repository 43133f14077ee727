//! The GW app's data as game-datacards JSON (`records::game_datacards`): hand-written files
//! named after the trap each tests (`tests/fixtures/game-datacards/`), with reviewed `insta`
//! snapshots of what the pipeline gives, and values read by hand from the corpus's files
//! (`../shared/corpus/game-datacards`).

use crate::util;
use cogitator::model::{Dataset, Datasheet};

/// The fixtures under `tests/fixtures/game-datacards/`.
const FIXTURES: &[&str] = &[
    "names-as-plain-strings-tenth.json",
    "texts-as-language-maps.json",
    "text-without-english.json",
    "additional-cost-after-selections.json",
    "no-edition-marker.json",
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
