//! 11th edition as data (issue 26): the edition, its vocabularies and its markers, read by
//! normalization per datasheet edition, while 10th-edition records keep their own.

use cogitator::edition::{edition_of_battlescribe_system, Edition};
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
fn battlescribe_game_systems_give_their_edition() {
    assert_eq!(
        edition_of_battlescribe_system("sys-352e-adc2-7639-d610"),
        Some(Edition::Eleventh)
    );
    assert_eq!(
        edition_of_battlescribe_system("sys-352e-adc2-7639-d6a9"),
        Some(Edition::Tenth)
    );
    assert_eq!(
        edition_of_battlescribe_system("sys-352e-adc2-7639-d6a8"),
        None
    );
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
