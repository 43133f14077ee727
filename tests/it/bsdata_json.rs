//! BattleScribe JSON (`records::bsdata::json`: New Recruit's serialization of the `.cat`/`.gst`
//! data model): the one-reader law (the same catalogue as XML and as JSON gives the same
//! records), hand-written fixtures of the format's traps (`tests/fixtures/bsdata-json/`, each
//! named after its trap, with `insta` snapshots), and the 11th-edition corpus
//! (`../shared/corpus/bsdata/wh40k-11e`: skipped without it, failing with
//! `COGITATOR_REQUIRE_CORPUS=1`).

use crate::bsdata::codes;
use crate::util;
use cogitator::edition::Edition;
use cogitator::extract::Extracted;
use cogitator::records::{bsdata, Group};
use cogitator::source::SourceFile;
use serde_json::Value;
use std::path::Path;

/// The files of a fixture directory (recursively, sorted), with paths relative to
/// `tests/fixtures/bsdata-json`.
fn fixture_files(dir: &str) -> Vec<SourceFile> {
    crate::fixtures::files_of("bsdata-json", dir)
        .into_iter()
        .map(|(path, bytes)| SourceFile::new(path, bytes))
        .collect()
}

/// The record source over `files`, as one folder.
fn read(files: &[SourceFile]) -> Vec<Extracted> {
    let refs: Vec<&SourceFile> = files.iter().collect();
    let dir = cogitator::records::dir_of(&files[0].path).to_string();
    bsdata::read(&Group {
        dir: &dir,
        files: &refs,
    })
}

/// A value without its provenance (`at`, `sources`, `occurrences`: file and line differ
/// between the two serializations; everything else must not).
fn without_provenance(mut v: Value) -> Value {
    let mut stack = vec![&mut v];
    while let Some(x) = stack.pop() {
        match x {
            Value::Object(m) => {
                for k in ["at", "sources", "occurrences"] {
                    m.remove(k);
                }
                stack.extend(m.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
    v
}

/// Every record of a reading, by kind, without provenance.
fn records(ex: &[Extracted]) -> Value {
    let all = |f: fn(&Extracted) -> Value| -> Vec<Value> { ex.iter().map(f).collect() };
    without_provenance(serde_json::json!({
        "datasheets": all(|e| serde_json::to_value(&e.datasheets).expect("json")),
        "rules": all(|e| serde_json::to_value(&e.rules).expect("json")),
        "detachments": all(|e| serde_json::to_value(&e.detachments).expect("json")),
        "enhancements": all(|e| serde_json::to_value(&e.enhancements).expect("json")),
        "editions": all(|e| serde_json::to_value(e.edition).expect("json")),
        "factions": all(|e| serde_json::to_value(&e.faction).expect("json")),
    }))
}

#[test]
fn the_same_catalogue_as_xml_and_as_json_gives_the_same_records() {
    let xml = read(&fixture_files("same-catalogue-as-xml-and-json/xml"));
    let json = read(&fixture_files("same-catalogue-as-xml-and-json/json"));
    let (a, b) = (records(&xml), records(&json));
    assert!(
        a["datasheets"].to_string().contains("Warriors"),
        "the fixture gives datasheets: {a}"
    );
    assert_eq!(a, b);
    assert_eq!(codes(&xml), codes(&json));
    // Each sub-record points into its own file, at the line of the object it was read from.
    let file = fixture_files("same-catalogue-as-xml-and-json/json");
    let text = String::from_utf8_lossy(&file[1].bytes).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let ats: Vec<(&str, &cogitator::source::Location)> = json
        .iter()
        .flat_map(|e| &e.datasheets)
        .flat_map(|d| d.weapons.iter().map(|w| (w.name.as_str(), &w.at)))
        .collect();
    // The Scarabs' feeder mandibles among them (Warriors, the test's subject before, have none:
    // the loop below checked nothing).
    assert!(ats.iter().any(|(n, _)| *n == "Feeder mandibles"), "{ats:?}");
    for (name, at) in ats {
        assert!(at.file.ends_with("necrons.json"), "{at:?}");
        let line = at.line as usize;
        assert_eq!(lines[line - 1].trim(), "{", "{name}: {at:?}");
        // The object opened there is the profile: its name is among its first keys.
        let object: String = lines[line..].iter().take(4).copied().collect();
        assert!(object.contains(&format!("\"{name}\"")), "{name}: {object}");
    }
}

/// `tests/fixtures/bsdata-json/NAME` through the pipeline, as the snapshots show it.
fn snapshot(name: &str) -> cogitator::model::Dataset {
    let files = fixture_files(name);
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|f| (f.path.as_str(), f.bytes.as_slice()))
        .collect();
    let ds = util::ingest_in_memory(&refs);
    let key = Path::new(name)
        .with_extension("")
        .to_string_lossy()
        .replace('/', "-");
    for (part, value) in [
        ("datasheets", serde_json::to_value(&ds.datasheets)),
        ("rules", serde_json::to_value(&ds.rules)),
        ("diagnostics", serde_json::to_value(&ds.diagnostics)),
        ("inputs", serde_json::to_value(&ds.manifest.inputs)),
    ] {
        let value = value.expect("json");
        if value.as_array().is_some_and(Vec::is_empty) {
            continue;
        }
        insta::assert_json_snapshot!(format!("bsdata-json-{key}__{part}"), value);
    }
    ds
}

#[test]
fn the_json_pair_through_the_pipeline_is_read_as_battlescribe() {
    let ds = snapshot("same-catalogue-as-xml-and-json/json");
    assert_eq!(ds.manifest.inputs.len(), 2);
    for i in &ds.manifest.inputs {
        assert_eq!(i.format, "json", "{}", i.file);
        assert_eq!(i.status, cogitator::model::InputStatus::Ok, "{}", i.file);
    }
    assert_eq!(ds.datasheets.len(), 3);
}

fn messages<'a>(ds: &'a cogitator::model::Dataset, code: &str) -> Vec<&'a str> {
    ds.diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.message.as_str())
        .collect()
}

fn datasheet<'a>(ds: &'a cogitator::model::Dataset, name: &str) -> &'a cogitator::model::Datasheet {
    ds.datasheets
        .iter()
        .find(|d| d.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no datasheet {name}"))
}

fn tiers(d: &cogitator::model::Datasheet) -> Vec<(u32, u32)> {
    d.points.iter().map(|p| (p.models, p.points)).collect()
}

/// `(models, points, first unit, last unit)` of each tier; `(0, None)` when it prices every unit.
fn tiers_by_unit(d: &cogitator::model::Datasheet) -> Vec<(u32, u32, u32, Option<u32>)> {
    util::tiers_by_unit(&d.points)
}

#[test]
fn the_fourth_unit_costing_more_is_a_tier_of_the_fourth_unit_on() {
    let ds = snapshot("fourth-unit-costs-more.json");
    // `increment 10` when at least 3 earlier Sentinel Guard units are in the army: units 1-3
    // cost 170/215, the 4th on 180/225. (Once the group without `conditions` held as an empty
    // `and`: 180/225 for every unit.)
    assert_eq!(
        tiers_by_unit(datasheet(&ds, "Sentinel Guard")),
        [
            (4, 170, 1, Some(3)),
            (5, 215, 1, Some(3)),
            (4, 180, 4, None),
            (5, 225, 4, None)
        ]
    );
    assert!(messages(&ds, "B010").is_empty());
    // The same count of another unit is not read as this unit's (never applied silently).
    let files = fixture_files("fourth-unit-costs-more.json");
    let text = String::from_utf8_lossy(&files[0].bytes).replace(
        "\"childId\": \"se-guard\",\n                        \"shared\": true,\n                        \"childName\"",
        "\"childId\": \"se-other\",\n                        \"shared\": true,\n                        \"childName\"",
    );
    assert!(text.contains("se-other"), "the fixture's instanceOf moved");
    let ds = util::ingest_in_memory(&[("x/other.json", text.as_bytes())]);
    assert_eq!(
        tiers_by_unit(datasheet(&ds, "Sentinel Guard")),
        [(4, 170, 0, None), (5, 215, 0, None)]
    );
    let b010 = messages(&ds, "B010");
    assert!(
        b010.len() == 1 && b010[0].contains("unit-count condition"),
        "{b010:?}"
    );
    // A condition-group child of another kind is never applied silently either.
    let files = fixture_files("fourth-unit-costs-more.json");
    let text = String::from_utf8_lossy(&files[0].bytes)
        .replace("localConditionGroups", "futureConditionGroups");
    let ds = util::ingest_in_memory(&[("x/future.json", text.as_bytes())]);
    assert_eq!(
        tiers(datasheet(&ds, "Sentinel Guard")),
        [(4, 170), (5, 215)]
    );
    let b010 = messages(&ds, "B010");
    assert!(
        b010.len() == 1 && b010[0].contains("futureConditionGroups"),
        "{b010:?}"
    );
}

#[test]
fn the_insv_column_is_the_invulnerable_save_and_a_disagreeing_ability_is_named() {
    let ds = snapshot("insv-column-and-invuln-ability-disagree.json");
    let prime = datasheet(&ds, "Hive Overseer");
    assert_eq!(prime.invulnerable_save.as_deref(), Some("5+"));
    let b011 = messages(&ds, "B011");
    assert_eq!(b011.len(), 1, "{b011:?}");
    assert!(
        b011[0].contains("4+") && b011[0].contains("5+"),
        "{}",
        b011[0]
    );
    // An empty column is no invulnerable save.
    assert_eq!(datasheet(&ds, "Hive Warden").invulnerable_save, None);
}

#[test]
fn a_repeats_list_on_a_modifier_prices_per_model() {
    let ds = snapshot("repeats-list-on-modifier-int-in-repeat.json");
    assert_eq!(tiers(datasheet(&ds, "Skitter Swarm")), [(10, 40), (20, 80)]);
}

#[test]
fn a_catalogue_linking_an_absent_catalogue_is_one_diagnostic() {
    let ds = snapshot("catalogue-linking-an-absent-catalogue");
    let b009 = messages(&ds, "B009");
    assert_eq!(b009.len(), 1, "{b009:?}");
    assert!(b009[0].contains("3 links"), "{}", b009[0]);
    assert!(messages(&ds, "B003").is_empty());
    assert_eq!(ds.datasheets.len(), 1);
    datasheet(&ds, "Sworn Brother");
}

#[test]
fn a_truncated_catalogue_keeps_what_precedes_and_says_so() {
    let ds = snapshot("truncated-catalogue.json");
    assert_eq!(messages(&ds, "B008").len(), 1);
    assert_eq!(
        ds.manifest.inputs[0].status,
        cogitator::model::InputStatus::Partial
    );
    datasheet(&ds, "Hive Warden");
    // Every prefix of a catalogue: no panic.
    let files = fixture_files("same-catalogue-as-xml-and-json/json");
    let bytes = &files[1].bytes;
    for n in (0..bytes.len()).step_by(89) {
        let cut = [
            files[0].clone(),
            SourceFile::new(files[1].path.clone(), bytes[..n].to_vec()),
        ];
        let _ = read(&cut);
    }
}

#[test]
fn tenth_and_eleventh_edition_in_one_folder_are_read_apart() {
    let ds = snapshot("tenth-and-eleventh-in-one-folder");
    assert_eq!(messages(&ds, "B012").len(), 1);
    assert!(messages(&ds, "S010").is_empty());
    assert_eq!(ds.datasheets.len(), 2);
    // The unit's id is shared by both editions: each edition's copy resolves its weapon in
    // its own file, with its own values.
    for (edition, file, attacks) in [
        (Edition::Tenth, "Tyranids.cat", "3"),
        (Edition::Eleventh, "Tyranids.json", "9"),
    ] {
        let w = ds
            .datasheets
            .iter()
            .find(|d| d.edition == edition)
            .unwrap_or_else(|| panic!("no {edition:?} datasheet"));
        assert_eq!(w.name.as_deref(), Some("Shared Warden"));
        assert_eq!(w.weapons.len(), 1);
        assert!(
            w.weapons[0].at.file.ends_with(file),
            "{:?}",
            w.weapons[0].at
        );
        assert_eq!(w.weapons[0].characteristics.get("A"), Some(attacks));
    }
}

/// The 11th-edition BattleScribe JSON of the corpus, as one folder (`wh40k-11e/NAME`).
fn corpus_eleventh() -> Option<Vec<SourceFile>> {
    let dir = util::corpus()?.join("bsdata/wh40k-11e");
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let e = e.expect("walk corpus");
        if e.file_type().is_file() {
            let name = e.file_name().to_string_lossy().into_owned();
            out.push(SourceFile::new(
                format!("wh40k-11e/{name}"),
                std::fs::read(e.path()).expect("read corpus"),
            ));
        }
    }
    assert!(out.len() >= 6, "{} files in {}", out.len(), dir.display());
    Some(out)
}

#[test]
fn the_eleventh_edition_json_corpus_loads_whole_and_reads_without_panic() {
    let Some(files) = corpus_eleventh() else {
        return;
    };
    for f in &files {
        let mut d = Vec::new();
        let t = bsdata::json::parse(&f.bytes, &f.path, &mut d);
        assert!(d.is_empty() && !t.broken, "{}: {d:?}", f.path);
        let root = t.root().expect("a root element");
        let r = t.node(root);
        assert!(
            matches!(r.tag.as_ref(), "catalogue" | "gameSystem"),
            "{}",
            f.path
        );
        // The header keys come after the root's lists: read all the same.
        assert!(
            r.attr("id").is_some() && r.attr("name").is_some(),
            "{}",
            f.path
        );
        let header = bsdata::header(&f.bytes).expect("a header");
        assert_eq!(header.id.as_deref(), r.attr("id"), "{}", f.path);
        assert!(header.revision.is_some(), "{}", f.path);
        assert!(
            t.nodes.len() > 1000,
            "{}: {} elements",
            f.path,
            t.nodes.len()
        );
    }
    // Custodian Guard's characteristic M is `6"`, its element's text.
    let custodes = files
        .iter()
        .find(|f| f.path.ends_with("Adeptus Custodes.json"))
        .expect("Custodes");
    let mut d = Vec::new();
    let t = bsdata::json::parse(&custodes.bytes, &custodes.path, &mut d);
    let m = t
        .nodes
        .iter()
        .position(|n| n.tag == "characteristic" && n.attr("name") == Some("InSv"));
    assert!(m.is_some(), "an InSv characteristic");
    // The record source reads the folder without a panic, one reading per file.
    let ex = read(&files);
    assert_eq!(ex.len(), files.len());
}

#[test]
fn ultramarines_absent_space_marines_is_one_diagnostic_not_a_flood() {
    let Some(files) = corpus_eleventh() else {
        return;
    };
    let ex = read(&files);
    let ultra = ex
        .iter()
        .find(|e| e.file.ends_with("Imperium - Ultramarines.json"))
        .expect("Ultramarines read");
    let b009: Vec<&str> = ultra
        .diagnostics
        .iter()
        .filter(|d| d.code == "B009")
        .map(|d| d.message.as_str())
        .collect();
    // One per absent catalogue (Space Marines, Imperial Knights Library, Agents), each once.
    assert_eq!(b009.len(), 3, "{b009:?}");
    let marines: Vec<_> = b009
        .iter()
        .filter(|m| m.contains("'Imperium - Space Marines'"))
        .collect();
    assert_eq!(marines.len(), 1, "{b009:?}");
    assert!(ultra.diagnostics.iter().all(|d| d.code != "B003"));
    assert!(ultra.edition.is_some(), "read");
}

#[test]
fn custodian_guard_costs_more_from_the_fourth_unit() {
    // Read by hand from `Imperium - Adeptus Custodes.json`: cost 170, `set` 215 at 5 models
    // (`atLeast 5`, childId `model`), a `4-5 Custodian Guard` group; the `increment 10` under
    // a localConditionGroup (`atLeast 3` of this unit already taken) is the 4th+ unit's.
    let Some(files) = corpus_eleventh() else {
        return;
    };
    let ex = read(&files);
    let guard = ex
        .iter()
        .flat_map(|e| &e.datasheets)
        .find(|d| d.name.as_deref() == Some("Custodian Guard"))
        .expect("Custodian Guard");
    assert_eq!(
        tiers_by_unit(guard),
        [
            (4, 170, 1, Some(3)),
            (5, 215, 1, Some(3)),
            (4, 180, 4, None),
            (5, 225, 4, None)
        ]
    );
    let custodes = ex
        .iter()
        .find(|e| e.file.ends_with("Adeptus Custodes.json"))
        .expect("Custodes");
    assert!(!custodes
        .diagnostics
        .iter()
        .any(|d| d.code == "B010" && d.message.starts_with("'Custodian Guard'")));
}

#[test]
fn description_comment_readme_and_alias_keys_are_elements() {
    let ds = snapshot("description-and-text-keys.json");
    let text = |name: &str| {
        ds.rules
            .iter()
            .find(|r| r.name.as_deref() == Some(name))
            .map(|r| r.text.as_str())
            .unwrap_or_else(|| panic!("no rule {name}"))
    };
    // `description` is the rule's text (markup made plain); `comment` and `readme` are not.
    assert_eq!(
        text("Deep Strike"),
        "When this unit arrives from Reserves, INFANTRY models may be set up anywhere."
    );
    assert_eq!(text("Infantry"), "Infantry models move through ruins.");
    assert_eq!(ds.rules.len(), 2);
    let files = fixture_files("description-and-text-keys.json");
    let mut d = Vec::new();
    let t = bsdata::json::parse(&files[0].bytes, &files[0].path, &mut d);
    let root = t.root().expect("root");
    let readme = t.child(root, "readme").expect("readme element");
    assert_eq!(&*t.node(readme).text, "How to use this data.");
    let rule = t.items(root, "sharedRules", "rule").next().expect("rule");
    let alias: Vec<&str> = t
        .children(rule, "alias")
        .map(|a| &*t.node(a).text)
        .collect();
    assert_eq!(alias, ["DEEP STRIKE", "Deepstrike"]);
    assert!(t.child(rule, "comment").is_some());
}
