//! 11th edition as data (issue 26): the edition, its vocabularies and its markers, read by
//! normalization per datasheet edition, while 10th-edition records keep their own.

use cogitator::edition::Edition;
use cogitator::extract::Extracted;
use cogitator::model::{Datasheet, ModelProfile, WeaponProfile, WeaponType};
use cogitator::normalize;
use cogitator::source::{Location, Provenance};

/// A datasheet of `edition` with one model and one melee weapon carrying `keywords` as printed.
fn datasheet_with_keywords(edition: Edition, keywords: &[&str]) -> Datasheet {
    let mut ds = Datasheet::empty(edition);
    ds.id = format!("{}:test:blade-squad", edition.as_str());
    ds.name = Some("Blade Squad".into());
    ds.faction = Some("Test".into());
    ds.sources = vec![Provenance::at_line("hand-written.json", 1, "0".repeat(64))];
    let mut m = ModelProfile::new(
        edition,
        Some("Blade".into()),
        Location::at_line("hand-written.json", 2),
    );
    for (k, v) in [
        ("M", "6\""),
        ("T", "6"),
        ("Sv", "2+"),
        ("W", "3"),
        ("Ld", "6+"),
        ("OC", "2"),
    ] {
        m.set(k, Some(v.into()));
    }
    ds.models.push(m);
    let mut w = WeaponProfile::new(
        edition,
        "Guardian spear".into(),
        WeaponType::Melee,
        Location::at_line("hand-written.json", 3),
    );
    for (k, v) in [
        ("range", "Melee"),
        ("A", "5"),
        ("skill", "2+"),
        ("S", "7"),
        ("AP", "-2"),
        ("D", "2"),
    ] {
        w.set(k, Some(v.into()));
    }
    w.keywords = keywords.iter().map(|k| k.to_string()).collect();
    ds.weapons.push(w);
    ds
}

fn normalized(ds: Datasheet) -> Extracted {
    let mut ex = Extracted {
        file: "hand-written.json".into(),
        datasheets: vec![ds],
        ..Extracted::default()
    };
    normalize::normalize(&mut ex);
    ex
}

#[test]
fn an_eleventh_edition_keyword_is_read_with_the_eleventh_edition_vocabulary() {
    let printed = ["Cleave 1", "CLOSE\u{2011}QUARTERS", "Blast"];
    let ex = normalized(datasheet_with_keywords(Edition::Eleventh, &printed));
    assert!(ex.quarantine.is_empty(), "{:?}", ex.quarantine);
    assert_eq!(
        ex.datasheets[0].weapons[0].keywords,
        ["BLAST", "CLEAVE 1", "CLOSE-QUARTERS"]
    );
    // a keyword the 11th edition's vocabulary lacks its parameter for is quarantined
    let ex = normalized(datasheet_with_keywords(Edition::Eleventh, &["Cleave"]));
    assert!(ex.datasheets[0].weapons.is_empty());
    assert!(ex.diagnostics.iter().any(|d| d.code.as_str() == "N109"));
}

#[test]
fn a_tenth_edition_keyword_is_unchanged_by_the_eleventh_edition() {
    // CLEAVE and CLOSE-QUARTERS are not 10th-edition weapon abilities: kept verbatim.
    let ex = normalized(datasheet_with_keywords(
        Edition::Tenth,
        &["Cleave 1", "rapid fire 2", "Twin Linked"],
    ));
    assert!(ex.quarantine.is_empty(), "{:?}", ex.quarantine);
    assert_eq!(
        ex.datasheets[0].weapons[0].keywords,
        ["Cleave 1", "RAPID FIRE 2", "TWIN-LINKED"]
    );
    let unique = normalize::unique_keywords(&ex.datasheets, None);
    assert_eq!(unique.len(), 1, "{unique:?}");
    assert!(unique[0].message.contains("schemas/keywords.yaml"));
    // the same print on an 11th-edition datasheet is in its vocabulary
    let ex = normalized(datasheet_with_keywords(Edition::Eleventh, &["Cleave 1"]));
    assert_eq!(ex.datasheets[0].weapons[0].keywords, ["CLEAVE 1"]);
    assert!(normalize::unique_keywords(&ex.datasheets, None).is_empty());
}

#[test]
fn eleventh_edition_records_serialize_with_their_prefix() {
    let ds = datasheet_with_keywords(Edition::Eleventh, &[]);
    let v = serde_json::to_value(&ds).expect("json");
    assert_eq!(v["edition"], "11e");
    assert!(cogitator::normalize::publish::validate("datasheet", &v).is_empty());
    assert_eq!(
        cogitator::ids::datasheet(
            Edition::Eleventh,
            Some("Adeptus Custodes"),
            "Custodian Guard"
        ),
        "11e:adeptus-custodes:custodian-guard"
    );
}

/// The contract's 11th-edition fields: absent when empty (10th-edition records do not move),
/// present and valid against the published schemas when set.
#[test]
fn new_contract_fields_are_absent_when_empty_and_valid_when_set() {
    use cogitator::model::{Detachment, PointsOption, Rule, Translation, UnitRange};
    use cogitator::normalize::publish::validate;
    let rule = |number: Option<&str>| Rule {
        id: "11e:core:hit-rolls".into(),
        name: Some("Hit Rolls".into()),
        kind: "core".into(),
        edition: Edition::Eleventh,
        faction: None,
        flavor: None,
        text: "Roll one D6.".into(),
        bullets: Vec::new(),
        examples: Vec::new(),
        occurrences: Vec::new(),
        tables: Vec::new(),
        variants: Vec::new(),
        number: number.map(str::to_string),
        parent: None,
        children: Vec::new(),
        translations: Default::default(),
    };
    let bare = serde_json::to_value(rule(None)).expect("json");
    for k in ["number", "parent", "children", "translations"] {
        assert!(bare.get(k).is_none(), "{k} written when empty");
    }
    let mut r = rule(Some("05.01"));
    r.parent = Some("11e:core:making-attacks".into());
    r.translations.insert(
        "de".into(),
        Translation {
            name: Some("Trefferwürfe".into()),
            text: None,
        },
    );
    let v = serde_json::to_value(&r).expect("json");
    assert!(
        validate("rule", &v).is_empty(),
        "{:?}",
        validate("rule", &v)
    );
    assert_eq!(
        v["translations"]["de"],
        serde_json::json!({"name": "Trefferwürfe"})
    );
    // a key that is no language tag breaks the schema
    let mut bad = v.clone();
    bad["translations"] = serde_json::json!({"German": {"name": "x"}});
    assert!(!validate("rule", &bad).is_empty());
    let mut bad = v.clone();
    bad["number"] = serde_json::json!("five");
    assert!(!validate("rule", &bad).is_empty());

    let mut ds = datasheet_with_keywords(Edition::Eleventh, &[]);
    ds.points = vec![
        PointsOption {
            models: 4,
            points: 170,
            at: Location::at_line("hand-written.json", 9),
            units: Some(UnitRange {
                from: 1,
                to: Some(3),
            }),
        },
        PointsOption {
            models: 4,
            points: 180,
            at: Location::at_line("hand-written.json", 10),
            units: Some(UnitRange { from: 4, to: None }),
        },
    ];
    ds.supports = vec!["CUSTODIAN GUARD".into()];
    let v = serde_json::to_value(&ds).expect("json");
    assert!(
        validate("datasheet", &v).is_empty(),
        "{:?}",
        validate("datasheet", &v)
    );
    assert_eq!(v["points"][1]["units"], serde_json::json!({"from": 4}));
    let tenth = serde_json::to_value(datasheet_with_keywords(Edition::Tenth, &[])).expect("json");
    assert!(tenth.get("supports").is_none());

    let det = Detachment {
        id: "11e:adeptus-custodes:talons-of-the-emperor".into(),
        name: "Talons of the Emperor".into(),
        edition: Edition::Eleventh,
        faction: Some("Adeptus Custodes".into()),
        rules: Vec::new(),
        enhancements: Vec::new(),
        stratagems: Vec::new(),
        sources: Vec::new(),
        points: Some(3),
        force_disposition: Some("Take and Hold".into()),
        unique_tag: None,
        translations: Default::default(),
    };
    let v = serde_json::to_value(&det).expect("json");
    assert!(
        validate("detachment", &v).is_empty(),
        "{:?}",
        validate("detachment", &v)
    );
    assert!(v.get("unique_tag").is_none());
    let mut bad = v.clone();
    bad["force_disposition"] = serde_json::json!("Hold the Line");
    assert!(!validate("detachment", &bad).is_empty());
    // the schema's Force Dispositions are the vocabulary's
    for d in cogitator::vocab::ELEVENTH.force_dispositions {
        let mut ok = v.clone();
        ok["force_disposition"] = serde_json::json!(d);
        assert!(validate("detachment", &ok).is_empty(), "{d}");
    }
}

// ---------------------------------------------------------------------------------------------
// Points records and the structural lint rules (N114-N116).

fn custodian_guard_points(ranges: [(u32, Option<u32>); 2]) -> cogitator::model::Points {
    use cogitator::model::{PointsOption, Publication, UnitRange};
    let subject = cogitator::ids::datasheet(
        Edition::Eleventh,
        Some("Adeptus Custodes"),
        "Custodian Guard",
    );
    let tier = |points, (from, to), line| PointsOption {
        models: 4,
        points,
        at: Location::at_line("hand-written.yaml", line),
        units: Some(UnitRange { from, to }),
    };
    cogitator::model::Points {
        id: cogitator::ids::points(Edition::Eleventh, "1.1", &subject),
        edition: Edition::Eleventh,
        subject,
        name: "Custodian Guard".into(),
        tiers: vec![tier(170, ranges[0], 3), tier(180, ranges[1], 4)],
        wargear: Vec::new(),
        publication: Publication {
            title: None,
            version: Some("1.1".into()),
            date: Some("2026-07-22".into()),
        },
        kind: Default::default(),
        forge_world: false,
        legends: false,
        sources: vec![Provenance::at_line("hand-written.yaml", 1, "0".repeat(64))],
    }
}

/// `(file, parsed JSON)` of a dataset whose points and rules are `points` and `rules`, the
/// other files empty, as `lint` takes them.
fn dataset_files(
    points: &[cogitator::model::Points],
    rules: serde_json::Value,
) -> Vec<(String, Result<serde_json::Value, String>)> {
    use cogitator::dataset as d;
    let empty = || Ok(serde_json::json!([]));
    vec![
        (d::DATASHEETS.into(), empty()),
        (d::RULES.into(), Ok(rules)),
        (d::STRATAGEMS.into(), empty()),
        (d::ENHANCEMENTS.into(), empty()),
        (d::DETACHMENTS.into(), empty()),
        (d::QUARANTINE.into(), empty()),
        (d::DIAGNOSTICS.into(), empty()),
        (
            d::POINTS.into(),
            Ok(serde_json::to_value(points).expect("json")),
        ),
    ]
}

fn lint_codes(files: &[(String, Result<serde_json::Value, String>)]) -> Vec<String> {
    cogitator::normalize::lint::lint(files)
        .iter()
        .filter(|d| d.code != "N113") // no manifest in these hand-made datasets
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

#[test]
fn lint_catches_overlapping_unit_ranges_in_points_json() {
    let good = custodian_guard_points([(1, Some(3)), (4, None)]);
    assert!(cogitator::normalize::publish::validate(
        "points",
        &serde_json::to_value(&good).expect("json")
    )
    .is_empty());
    assert_eq!(good.id, "11e:points:1-1:adeptus-custodes:custodian-guard");
    assert!(lint_codes(&dataset_files(&[good], serde_json::json!([]))).is_empty());
    let bad = custodian_guard_points([(1, Some(3)), (3, None)]);
    assert_eq!(
        lint_codes(&dataset_files(&[bad], serde_json::json!([]))),
        ["N114 points 11e:points:1-1:adeptus-custodes:custodian-guard: 4 models: units 1-3 and 3+ overlap"]
    );
    let late = custodian_guard_points([(2, Some(3)), (4, None)]);
    assert_eq!(
        lint_codes(&dataset_files(&[late], serde_json::json!([]))).len(),
        1
    );
}

#[test]
fn lint_catches_a_child_whose_parent_does_not_list_it() {
    let rule = |id: &str, number: &str, parent: Option<&str>, children: &[&str]| {
        let mut v = serde_json::json!({
            "id": id, "name": id, "kind": "core", "edition": "11e", "faction": null,
            "flavor": null, "text": "t", "bullets": [], "examples": [], "occurrences": [],
            "number": number,
        });
        if let Some(p) = parent {
            v["parent"] = serde_json::json!(p);
        }
        if !children.is_empty() {
            v["children"] = serde_json::json!(children);
        }
        v
    };
    let good = serde_json::json!([
        rule(
            "11e:core:making-attacks",
            "05",
            None,
            &["11e:core:hit-rolls"]
        ),
        rule(
            "11e:core:hit-rolls",
            "05.01",
            Some("11e:core:making-attacks"),
            &[]
        ),
    ]);
    assert!(lint_codes(&dataset_files(&[], good)).is_empty());
    let unlisted = serde_json::json!([
        rule("11e:core:making-attacks", "05", None, &[]),
        rule(
            "11e:core:hit-rolls",
            "05.01",
            Some("11e:core:making-attacks"),
            &[]
        ),
    ]);
    assert_eq!(
        lint_codes(&dataset_files(&[], unlisted)),
        ["N116 rule 11e:core:hit-rolls: parent 11e:core:making-attacks does not list it among its children"]
    );
    let english = serde_json::json!([{
        "id": "11e:core:hit-rolls", "name": "Hit Rolls", "kind": "core", "edition": "11e",
        "faction": null, "flavor": null, "text": "t", "bullets": [], "examples": [],
        "occurrences": [], "translations": {"en": {"name": "Hit Rolls"}},
    }]);
    let found = lint_codes(&dataset_files(&[], english));
    assert!(found.iter().any(|f| f.starts_with("N115")), "{found:?}");
}

#[test]
fn points_json_is_written_only_when_a_source_prints_points() {
    let mut ds = crate::util::ingest_in_memory::<&[u8]>(&[]);
    let names = |ds: &cogitator::model::Dataset| -> Vec<String> {
        cogitator::emit::files(ds)
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    };
    assert!(!names(&ds).iter().any(|n| n == "points.json"));
    let before = serde_json::to_value(&ds.manifest.totals).expect("json");
    assert!(before.get("points").is_none(), "{before}");
    ds.points
        .push(custodian_guard_points([(1, Some(3)), (4, None)]));
    let files = cogitator::emit::files(&ds);
    let (_, text) = files
        .iter()
        .find(|(p, _)| p == "points.json")
        .expect("points.json");
    let back: Vec<cogitator::model::Points> = serde_json::from_str(text).expect("reads back");
    assert_eq!(back, ds.points);
    let manifest = files
        .iter()
        .find(|(p, _)| p == "manifest.json")
        .expect("manifest");
    assert!(manifest.1.contains("\"points.json\""));
}

/// Every record schema's `edition` enum is the contract's editions (`Edition::ALL`), so the
/// next edition cannot be added to `editions.yaml` and forgotten in one record file.
#[test]
fn every_edition_enum_of_the_schemas_is_every_edition() {
    let c = cogitator::normalize::contract();
    let all: Vec<String> = Edition::ALL
        .iter()
        .map(|e| e.as_str().to_string())
        .collect();
    let mut seen = 0;
    for d in c.defs.values() {
        for f in d.fields.iter().filter(|f| f.name == "edition") {
            assert_eq!(f.values.as_ref(), Some(&all), "{}.edition", d.name);
            seen += 1;
        }
    }
    assert!(
        seen >= 7,
        "datasheet, rule, stratagem, enhancement, detachment, points, manifest input: {seen}"
    );
}
