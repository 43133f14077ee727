//! The Munitorum Field Manual YAML (`records::mfm_yaml`): hand-written files named after the
//! trap each tests (`tests/fixtures/mfm-yaml/`), with reviewed `insta` snapshots of what the
//! pipeline gives, and values read by hand from the corpus's YAML
//! (`../shared/corpus/mfm-11e/data`).

use crate::util;
use cogitator::model::{Dataset, Points};
use std::path::Path;

/// The fixtures: a file or a folder under `tests/fixtures/mfm-yaml/`.
const FIXTURES: &[&str] = &[
    "unit-count-ranges.yaml",
    "no-edition-marker.yaml",
    "range-unparseable.yaml",
    "parent-faction-group-title.yaml",
    "addon-tier-and-wargear.yaml",
    "tiers-told-apart-by-composition.yaml",
    "not-well-formed.yaml",
    "meta-version-differs",
];

/// The files of a fixture, as `mfm-yaml/<name>[/<file>]`, in name order.
fn files(name: &str) -> Vec<(String, Vec<u8>)> {
    crate::fixtures::files_of("mfm-yaml", name)
        .into_iter()
        .map(|(path, bytes)| (format!("mfm-yaml/{path}"), bytes))
        .collect()
}

fn ingest(name: &str) -> Dataset {
    let files = files(name);
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    util::ingest_in_memory(&refs)
}

fn codes(ds: &Dataset) -> Vec<&str> {
    util::sorted_codes(ds)
}

fn points<'a>(ds: &'a Dataset, name: &str) -> &'a Points {
    ds.points
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no points for {name}: {:#?}", ds.points))
}

/// (models, points, units from, units to) of each tier.
fn tiers(p: &Points) -> Vec<(u32, u32, u32, Option<u32>)> {
    util::tiers_by_unit(&p.tiers)
}

#[test]
fn every_fixture_gives_its_reviewed_snapshots() {
    for name in FIXTURES {
        let ds = ingest(name);
        let key = Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parts = [
            ("points", serde_json::to_value(&ds.points)),
            ("detachments", serde_json::to_value(&ds.detachments)),
            ("enhancements", serde_json::to_value(&ds.enhancements)),
            ("diagnostics", serde_json::to_value(&ds.diagnostics)),
            ("inputs", serde_json::to_value(&ds.manifest.inputs)),
        ];
        for (part, value) in parts {
            let value = value.expect("records serialize");
            if value.as_array().is_some_and(Vec::is_empty) {
                continue;
            }
            insta::assert_json_snapshot!(format!("mfm-yaml-{key}__{part}"), value);
        }
    }
}

#[test]
fn unit_count_ranges_price_the_first_units_and_the_later_ones() {
    let ds = ingest("unit-count-ranges.yaml");
    let guard = points(&ds, "Sentinel Guard");
    assert_eq!(
        tiers(guard),
        [
            (4, 160, 1, Some(3)),
            (5, 200, 1, Some(3)),
            (4, 170, 4, None),
            (5, 210, 4, None),
        ]
    );
    assert_eq!(guard.subject, "11e:adeptus-custodes:sentinel-guard");
    assert_eq!(guard.id, "11e:points:2-0:adeptus-custodes:sentinel-guard");
    assert_eq!(
        guard.publication.title, None,
        "never the file or folder name"
    );
    assert_eq!(guard.publication.version.as_deref(), Some("2.0"));
    assert_eq!(guard.publication.date, None, "no meta.yaml: no date");
    assert_eq!(
        tiers(points(&ds, "Gilded Champion")),
        [(1, 100, 1, Some(1)), (1, 115, 2, None)]
    );
    let det = &ds.detachments[0];
    assert_eq!(
        (
            det.points,
            det.force_disposition.as_deref(),
            det.unique_tag.as_deref()
        ),
        (Some(2), Some("Take and Hold"), Some("Vigil"))
    );
    let relic = ds
        .enhancements
        .iter()
        .find(|e| e.name.as_deref() == Some("Auric Relic"))
        .expect("enhancement");
    assert_eq!(relic.points, Some(20));
    assert_eq!(codes(&ds), ["M004", "X111", "X111", "X113"]);
    assert_eq!(ds.manifest.diagnostics.error, 0);
}

#[test]
fn a_file_without_an_edition_marker_is_not_read() {
    let ds = ingest("no-edition-marker.yaml");
    assert!(ds.points.is_empty());
    assert_eq!(codes(&ds), ["M005"]);
}

#[test]
fn an_unparseable_range_drops_its_tier_only() {
    let ds = ingest("range-unparseable.yaml");
    // What is left prices from the 4th unit on: the structure check says the 1st to 3rd are
    // missing (never filled in).
    assert_eq!(codes(&ds), ["M002", "M002", "M004", "N114", "X113"]);
    assert_eq!(
        tiers(points(&ds, "Skeletal Warriors")),
        [(10, 100, 4, None)]
    );
}

#[test]
fn a_unit_of_the_parent_faction_prices_its_datasheet_in_this_list() {
    let ds = ingest("parent-faction-group-title.yaml");
    let own = points(&ds, "Oathsworn Squad");
    assert_eq!(own.subject, "11e:black-templars:oathsworn-squad");
    let parent = points(&ds, "Bolter Squad");
    assert_eq!(parent.subject, "11e:space-marines:bolter-squad");
    assert_eq!(
        parent.id,
        "11e:points:2-0-black-templars:space-marines:bolter-squad"
    );
}

#[test]
fn an_addon_is_priced_on_top_like_wargear() {
    let ds = ingest("addon-tier-and-wargear.yaml");
    let outriders = points(&ds, "Outrider Squad");
    assert_eq!(tiers(outriders), [(3, 80, 1, None), (6, 160, 1, None)]);
    let w: Vec<(&str, u32)> = outriders
        .wargear
        .iter()
        .map(|w| (w.item.as_str(), w.points))
        .collect();
    assert_eq!(w, [("Raider ATV", 55)]);
    let w: Vec<(&str, u32)> = points(&ds, "Devastator Team")
        .wargear
        .iter()
        .map(|w| (w.item.as_str(), w.points))
        .collect();
    assert_eq!(w, [("Grav-cannon", 10), ("Lascannon", 5)]);
}

#[test]
fn tiers_told_apart_only_by_composition_are_not_guessed() {
    let ds = ingest("tiers-told-apart-by-composition.yaml");
    assert_eq!(tiers(points(&ds, "Hound Riders")), [(3, 90, 1, None)]);
    assert_eq!(codes(&ds), ["M004", "M006", "M006", "X113"]);
    assert_eq!(ds.manifest.diagnostics.error, 0, "no N114 overlap");
}

#[test]
fn a_value_of_the_wrong_type_is_a_diagnostic_at_its_line() {
    let ds = ingest("not-well-formed.yaml");
    assert!(ds.points.is_empty());
    let d = ds
        .diagnostics
        .iter()
        .find(|d| d.code == "M001")
        .expect("M001");
    assert_eq!(d.line, Some(11), "{d:?}");
}

#[test]
fn meta_gives_edition_and_date_and_a_differing_version_is_named() {
    let ds = ingest("meta-version-differs");
    assert_eq!(codes(&ds), ["M003", "M004", "X113"]);
    let riders = points(&ds, "Wind Riders");
    assert_eq!(riders.edition.as_str(), "11e");
    assert_eq!(riders.publication.version.as_deref(), Some("1.9"));
    assert_eq!(riders.publication.date.as_deref(), Some("2026-03-01"));
    // Harlequins is a faction keyword of the Aeldari: the unit stays an Aeldari datasheet.
    assert_eq!(
        points(&ds, "Masque Troupe").subject,
        "11e:aeldari:masque-troupe"
    );
}

/// Values read by hand from `../shared/corpus/mfm-11e/data` (version 1.1, 2026-07-22).
#[test]
fn corpus_custodian_guard_and_detachments() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let dir = corpus.join("mfm-11e/data");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&dir).expect("mfm-11e/data") {
        let p = e.expect("entry").path();
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        files.push((format!("data/{name}"), std::fs::read(&p).expect("read")));
    }
    files.sort();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let ds = util::ingest_in_memory(&refs);
    assert_eq!(files.len(), 31);
    assert!(ds
        .manifest
        .inputs
        .iter()
        .all(|i| i.status == cogitator::model::InputStatus::Ok));
    assert_eq!(ds.manifest.diagnostics.error, 0, "lint-clean at ingest");
    let guard = ds
        .points
        .iter()
        .find(|p| p.id == "11e:points:1-1:adeptus-custodes:custodian-guard")
        .expect("Custodian Guard");
    // adeptus-custodes.yaml:189-200.
    assert_eq!(
        tiers(guard),
        [
            (4, 170, 1, Some(3)),
            (5, 215, 1, Some(3)),
            (4, 180, 4, None),
            (5, 225, 4, None),
        ]
    );
    assert_eq!(guard.publication.version.as_deref(), Some("1.1"));
    assert_eq!(guard.publication.date.as_deref(), Some("2026-07-22"));
    assert_eq!(guard.publication.title, None);
    // adeptus-custodes.yaml:62-64: Talons Of The Emperor, dp 3, TAKE AND HOLD.
    let talons = ds
        .detachments
        .iter()
        .find(|d| d.id == "11e:adeptus-custodes:talons-of-the-emperor")
        .expect("Talons of the Emperor");
    assert_eq!(talons.points, Some(3));
    assert_eq!(talons.force_disposition.as_deref(), Some("Take and Hold"));
    // Lions Of The Emperor: unique Lions; Admonimortis 30 points.
    let lions = ds
        .detachments
        .iter()
        .find(|d| d.id == "11e:adeptus-custodes:lions-of-the-emperor")
        .expect("Lions of the Emperor");
    assert_eq!(lions.unique_tag.as_deref(), Some("Lions"));
    let admonimortis = ds
        .enhancements
        .iter()
        .find(|e| e.name.as_deref() == Some("Admonimortis"))
        .expect("Admonimortis");
    assert_eq!(admonimortis.points, Some(30));
    // The Blood Angels list prices the Space Marines' Assault Intercessor Squad at 80 for 5
    // models (blood-angels.yaml), the Space Marines list at 75: two records, none lost.
    let tiers_in = |id: &str| {
        tiers(
            ds.points
                .iter()
                .find(|p| p.id == id)
                .unwrap_or_else(|| panic!("{id}")),
        )
    };
    assert_eq!(
        tiers_in("11e:points:1-1-blood-angels:space-marines:assault-intercessor-squad")[0],
        (5, 80, 1, None)
    );
    assert_eq!(
        tiers_in("11e:points:1-1:space-marines:assault-intercessor-squad")[0],
        (5, 75, 1, None)
    );
    let no_title: Vec<_> = ds.diagnostics.iter().filter(|d| d.code == "M004").collect();
    assert_eq!(no_title.len(), 1);
    assert_eq!(no_title[0].file.as_deref(), Some("data/meta.yaml"));
}

/// A faction file around `extra` (an unknown top-level key the reader skips but the parser
/// still reads).
fn faction_file_with(extra: &str) -> String {
    format!(
        "name: Orks\nversion: \"1\"\ndetachments:\n  - {{ name: Waaagh, dp: 1 }}\n{extra}\nunits:\n  - name: Boyz\n    pricing:\n      - range: \"[1,)\"\n        costs:\n          - {{ models: 10, points: 80 }}\n"
    )
}

#[test]
fn alias_bombs_and_deep_nesting_are_over_the_budget_not_a_hang() {
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let j = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{j}"); 10].join(", ")
        ));
    }
    let deep = format!("deep: {}{}", "[".repeat(200), "]".repeat(200));
    for (trap, extra) in [("aliases", bomb), ("nesting", deep)] {
        let text = faction_file_with(&extra);
        let ds = util::ingest_in_memory(&[("m/orks.yaml", text.as_bytes())]);
        assert!(ds.points.is_empty(), "{trap}");
        assert_eq!(codes(&ds), ["M001"], "{trap}: {:#?}", ds.diagnostics);
    }
    // The same file without the trap is read.
    let text = faction_file_with("");
    let ds = util::ingest_in_memory(&[("m/orks.yaml", text.as_bytes())]);
    assert_eq!(ds.points.len(), 1);
}
