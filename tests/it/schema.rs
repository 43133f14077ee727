//! The output contract: schemas, normalization, quarantine, published JSON Schemas, lint.

use crate::util;
use cogitator::diag::{Code, Diagnostic, Severity};
use cogitator::extract::Extracted;
use cogitator::model::*;
use cogitator::normalize::lint::{lint, DATASET_FILES};
use cogitator::normalize::schema::{self, contract, Kind, Vocabulary};
use cogitator::normalize::{
    self, canonicalize, keyword, keywords, publish, KeywordOutcome, Outcome,
};
use cogitator::source::{BBox, Location, Occurrence, Provenance};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeSet;

fn canon(edition: &str, ch: &str, raw: &str) -> String {
    let g = contract()
        .grammar(edition, ch)
        .unwrap_or_else(|| panic!("no grammar {ch} ({edition})"));
    match canonicalize(g, raw) {
        Outcome::Canonical => raw.to_string(),
        Outcome::Fixed { value, .. } => value,
        Outcome::Null => "null".to_string(),
        Outcome::Broken { code, rule } => panic!("{ch} {raw:?} broken: {code:?} {rule}"),
    }
}

fn broken(edition: &str, ch: &str, raw: &str) -> Code {
    let g = contract().grammar(edition, ch).expect("grammar");
    match canonicalize(g, raw) {
        Outcome::Broken { code, .. } => code,
        o => panic!("{ch} {raw:?} should be broken, got {o:?}"),
    }
}

fn kw(raw: &str) -> String {
    match keyword(&contract().vocabulary, raw) {
        KeywordOutcome::Canonical => raw.to_string(),
        KeywordOutcome::Respelled(c) => c,
        o => panic!("{raw:?}: {o:?}"),
    }
}

#[test]
fn characteristic_aliases_normalize_to_canonical() {
    let cases = [
        ("range", "24&#34;", "24\""),
        ("range", "24\u{201D}", "24\""),
        ("range", "24''", "24\""),
        ("range", "24", "24\""),
        ("range", "melee", "Melee"),
        ("range", "MELEE", "Melee"),
        ("range", "n/a", "N/A"),
        ("skill", "n/a", "N/A"),
        ("skill", "4", "4+"),
        ("skill", "3 +", "3+"),
        ("A", "2d6+2", "2D6+2"),
        ("A", "d6", "D6"),
        ("A", "1D6", "D6"),
        ("A", "d3 + 3", "D3+3"),
        ("D", "D6+1", "D6+1"),
        ("AP", "\u{2212}2", "-2"),
        ("AP", "\u{2013}1", "-1"),
        ("AP", "-0", "0"),
        ("AP", "- 2", "-2"),
        ("S", "\u{00A0}8", "8"),
        ("M", "6\u{2033}", "6\""),
        ("M", "20\"+", "20+\""),
        ("Ld", "7", "7+"),
        ("Sv", "3", "3+"),
        ("T", "04", "4"),
        ("invulnerable_save", "4", "4+"),
        ("ability_parameter", "d6", "D6"),
        ("ability_parameter", "5+", "5+"),
        ("invulnerable_save", "-", "null"),
    ];
    for (ch, raw, want) in cases {
        assert_eq!(canon("10e", ch, raw), want, "{ch} {raw:?}");
    }
    // Per edition: 9th-edition Ld is a plain number, S may be `User`, `+2`, `x2`.
    assert_eq!(canon("9e", "Ld", "8"), "8");
    assert_eq!(canon("9e", "S", "user"), "User");
    assert_eq!(canon("9e", "S", "\u{00D7}2"), "x2");
    assert_eq!(canon("9e", "S", "+2"), "+2");
    assert_eq!(canon("9e", "weapon_type", "Rapid Fire 1"), "Rapid Fire 1");
    assert_eq!(canon("9e", "weapon_type", "Assault 2D3"), "Assault 2D3");
    assert_eq!(canon("9e", "weapon_type", "Grenade D6"), "Grenade D6");
    assert_eq!(canon("9e", "weapon_type", "Pistol 1"), "Pistol 1");
    assert_eq!(canon("9e", "weapon_type", "Melee"), "Melee");
    assert_eq!(canon("hh2", "special_rule", "Rending (5+)"), "Rending (5+)");
    assert_eq!(
        canon("hh2", "special_rule", "Breaching (D3)"),
        "Breaching (D3)"
    );
    assert_eq!(canon("hh2", "special_rule", "Shred"), "Shred");
}

#[test]
fn values_that_cannot_be_made_canonical_are_broken_not_guessed() {
    assert_eq!(broken("10e", "S", "8+"), Code::NormGrammar); // Chainfist
    assert_eq!(broken("10e", "AP", "-"), Code::NormGrammar);
    assert_eq!(broken("10e", "T", "0"), Code::NormOutOfRange);
    assert_eq!(broken("10e", "W", "0"), Code::NormOutOfRange);
    assert_eq!(broken("10e", "Sv", "1+"), Code::NormOutOfRange);
    assert_eq!(broken("10e", "Sv", "8+"), Code::NormOutOfRange);
    assert_eq!(broken("10e", "AP", "+1"), Code::NormOutOfRange);
    assert_eq!(broken("10e", "AP", "2"), Code::NormOutOfRange);
    assert_eq!(broken("10e", "A", "2d7"), Code::NormGrammar);
    assert_eq!(broken("10e", "skill", "1+"), Code::NormOutOfRange);
}

#[test]
fn keyword_aliases_normalize_to_canonical() {
    let cases = [
        ("Twin Linked", "TWIN-LINKED"),
        ("Twin-Linked", "TWIN-LINKED"),
        ("Twin-linked", "TWIN-LINKED"),
        ("Anti-INFANTRY 3+", "ANTI-INFANTRY 3+"),
        ("Anti-Infantry 3+", "ANTI-INFANTRY 3+"),
        ("Anti Vehicle 3+", "ANTI-VEHICLE 3+"),
        ("Anti-FLY 2", "ANTI-FLY 2+"),
        ("rapid fire 2", "RAPID FIRE 2"),
        ("Sustained Hits 1", "SUSTAINED HITS 1"),
        ("devastating wounds", "DEVASTATING WOUNDS"),
        ("[precision]", "PRECISION"),
        ("Ignores\u{00A0}Cover", "IGNORES COVER"),
        ("melta 2", "MELTA 2"),
        ("One Shot", "ONE SHOT"),
    ];
    for (raw, want) in cases {
        assert_eq!(kw(raw), want, "{raw:?}");
    }
}

/// Every weapon-ability vocabulary with the edition id of its rule prefix: `keywords.yaml`
/// (10th edition) and each edition's own (`keywords-11e.yaml`).
fn vocabularies() -> Vec<(&'static str, &'static Vocabulary)> {
    std::iter::once(("10e", &contract().vocabulary))
        .chain(contract().vocabularies.iter().map(|(e, v)| (e.as_str(), v)))
        .collect()
}

#[test]
fn every_alias_in_keywords_yaml_maps_to_its_keyword() {
    assert!(vocabularies().len() >= 2, "10th and 11th edition");
    for (_, v) in vocabularies() {
        for k in &v.keywords {
            for a in &k.aliases {
                let c = match keyword(v, a) {
                    KeywordOutcome::Canonical => a.to_string(),
                    KeywordOutcome::Respelled(c) => c,
                    o => panic!("{a:?}: {o:?}"),
                };
                let e =
                    keywords::entry(v, &c).unwrap_or_else(|| panic!("{a:?} -> {c:?}: no entry"));
                assert_eq!(e.name.value, k.name.value, "{a:?}");
            }
        }
    }
}

#[test]
fn keyword_rule_ids_follow_rule_slug() {
    for (edition, v) in vocabularies() {
        for k in &v.keywords {
            let id = v.rule_id(k);
            assert!(
                id.starts_with(&format!("{edition}:weapon_ability:")),
                "{id}"
            );
            if k.name.value != "ANTI" {
                assert_eq!(
                    k.rule,
                    cogitator::ids::rule_slug(&k.form),
                    "{}",
                    k.name.value
                );
            }
        }
    }
    let v = &contract().vocabulary;
    for k in &v.keywords {
        let id = v.rule_id(k);
        assert!(id.starts_with("10e:weapon_ability:"), "{id}");
        if k.name.value != "ANTI" {
            assert_eq!(
                k.rule,
                cogitator::ids::rule_slug(&k.form),
                "{}",
                k.name.value
            );
        }
    }
    let anti = v
        .keywords
        .iter()
        .find(|k| k.name.value == "ANTI")
        .expect("ANTI");
    assert_eq!(v.rule_id(anti), "10e:weapon_ability:anti");
    let rf = v
        .keywords
        .iter()
        .find(|k| k.name.value == "RAPID FIRE")
        .expect("RAPID FIRE");
    assert_eq!(v.rule_id(rf), "10e:weapon_ability:rapid-fire");
}

#[test]
fn unique_keywords_are_kept_verbatim() {
    let v = &contract().vocabulary;
    assert_eq!(keyword(v, "ZHADSNARK"), KeywordOutcome::Unique);
    assert_eq!(keyword(v, "Plasma Warhead"), KeywordOutcome::Unique);
    assert!(matches!(
        keyword(v, "Rapid Fire"),
        KeywordOutcome::BadParameter(_)
    ));
}

// ---------------------------------------------------------------------------------------------
// Property tests: idempotent, canonical values untouched.

fn canonical_10e() -> impl Strategy<Value = (&'static str, String)> {
    let dice = (
        prop_oneof![Just(String::new()), (2u32..10).prop_map(|n| n.to_string())],
        prop_oneof![Just("3"), Just("6")],
        prop_oneof![Just(String::new()), (1u32..7).prop_map(|n| format!("+{n}"))],
    )
        .prop_map(|(c, s, p)| format!("{c}D{s}{p}"));
    prop_oneof![
        (1u32..40).prop_map(|n| ("T", n.to_string())),
        (1u32..40).prop_map(|n| ("W", n.to_string())),
        (2u32..8).prop_map(|n| ("Sv", format!("{n}+"))),
        (2u32..7).prop_map(|n| ("skill", format!("{n}+"))),
        (0u32..7).prop_map(|n| ("AP", if n == 0 { "0".into() } else { format!("-{n}") })),
        (1u32..100).prop_map(|n| ("range", format!("{n}\""))),
        (0u32..30).prop_map(|n| ("M", format!("{n}\""))),
        dice.clone().prop_map(|d| ("A", d)),
        dice.prop_map(|d| ("D", d)),
        (1u32..30).prop_map(|n| ("S", n.to_string())),
        Just(("range", "Melee".to_string())),
        Just(("skill", "N/A".to_string())),
    ]
}

fn messy() -> impl Strategy<Value = String> {
    "[0-9dDxX+ \u{2212}\u{2013}\u{201D}\u{2033}\u{00A0}\"'/nNaAmMeEl-]{0,7}"
}

const CHARS_10E: &[&str] = &[
    "M",
    "T",
    "Sv",
    "W",
    "Ld",
    "OC",
    "range",
    "A",
    "skill",
    "S",
    "AP",
    "D",
    "invulnerable_save",
    "ability_parameter",
];

proptest! {
    #![proptest_config(crate::util::proptest_config(256))]

    #[test]
    fn canonical_values_are_never_changed((ch, v) in canonical_10e()) {
        let g = contract().grammar("10e", ch).expect("grammar");
        prop_assert_eq!(canonicalize(g, &v), Outcome::Canonical, "{} {:?}", ch, v);
    }

    #[test]
    fn normalization_is_idempotent(raw in messy(), i in 0usize..CHARS_10E.len()) {
        let ch = CHARS_10E[i];
        let g = contract().grammar("10e", ch).expect("grammar");
        match canonicalize(g, &raw) {
            Outcome::Canonical => {}
            Outcome::Fixed { value, fixes } => {
                prop_assert!(!fixes.is_empty());
                prop_assert_eq!(canonicalize(g, &value), Outcome::Canonical, "{} {:?} -> {:?}", ch, raw, value);
            }
            Outcome::Broken { .. } | Outcome::Null => {}
        }
    }

    #[test]
    fn canonical_keywords_are_never_changed(i in 0usize..64, n in 1u32..7, anti in "[A-Z]{3,10}", roll in 2u32..7) {
        let v = &contract().vocabulary;
        let k = &v.keywords[i % v.keywords.len()];
        let canonical = match k.parameter {
            schema::Param::None => k.name.value.clone(),
            schema::Param::Amount | schema::Param::OptionalAmount => format!("{} {n}", k.name.value),
            schema::Param::Anti => format!("ANTI-{anti} {roll}+"),
        };
        prop_assert_eq!(keyword(v, &canonical), KeywordOutcome::Canonical, "{:?}", canonical);
    }

    #[test]
    fn keyword_normalization_is_idempotent(raw in "[a-zA-Z \\-]{0,14}( [0-9dD+]{1,3})?") {
        let v = &contract().vocabulary;
        if let KeywordOutcome::Respelled(c) = keyword(v, &raw) {
            prop_assert_eq!(keyword(v, &c), KeywordOutcome::Canonical, "{:?} -> {:?}", raw, c);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Quarantine.

fn prov(file: &str, line: u32) -> Provenance {
    Provenance::at_line(file, line, "0".repeat(64))
}

/// `p` on page 1 of a paged source, with a box.
fn paged(p: Provenance) -> Provenance {
    Provenance {
        page: Some(1),
        bbox: Some(cogitator::source::BBox([0.0, 0.0, 10.0, 10.0])),
        ..p
    }
}

fn weapon(name: &str, vals: [&str; 6], keywords: &[&str], line: u32) -> WeaponProfile {
    WeaponProfile {
        name: name.into(),
        kind: if vals[0].eq_ignore_ascii_case("melee") {
            WeaponType::Melee
        } else {
            WeaponType::Ranged
        },
        characteristics: Characteristics::default(),
        keywords: keywords.iter().map(|k| k.to_string()).collect(),
        at: Location::at_line("x.txt", line),
    }
    .with(["range", "A", "skill", "S", "AP", "D"], vals)
}

/// Sets characteristics by name, in order (hand-written profiles).
trait With {
    fn with<const N: usize>(self, names: [&str; N], vals: [&str; N]) -> Self;
}

impl With for WeaponProfile {
    fn with<const N: usize>(mut self, names: [&str; N], vals: [&str; N]) -> Self {
        for (n, v) in names.iter().zip(vals) {
            self.set(n, Some(v.to_string()));
        }
        self
    }
}

impl With for ModelProfile {
    fn with<const N: usize>(mut self, names: [&str; N], vals: [&str; N]) -> Self {
        for (n, v) in names.iter().zip(vals) {
            self.set(n, Some(v.to_string()));
        }
        self
    }
}

fn model(name: &str, vals: [&str; 6]) -> ModelProfile {
    ModelProfile {
        name: Some(name.into()),
        characteristics: Characteristics::default(),
        at: Location::at_line("x.txt", 2),
    }
    .with(["M", "T", "Sv", "W", "Ld", "OC"], vals)
}

fn full_datasheet() -> Datasheet {
    Datasheet {
        id: "10e:grey-knights:terminator-squad".into(),
        name: Some("Terminator Squad".into()),
        edition: Edition::Tenth,
        faction: Some("Grey Knights".into()),
        sources: vec![
            prov("x.txt", 1),
            Provenance {
                page: Some(3),
                bbox: Some(BBox([56.0, 400.5, 300.0, 420.0])),
                ..prov("x.pdf", 40)
            },
        ],
        base_size: Some("40mm".into()),
        models: vec![model("Terminator", ["5\"", "5", "2+", "3", "6+", "1"])],
        invulnerable_save: Some("4+".into()),
        invulnerable_save_condition: Some("against ranged attacks".into()),
        weapons: vec![weapon(
            "Storm bolter",
            ["24\"", "2", "3+", "4", "0", "1"],
            &["RAPID FIRE 2"],
            3,
        )],
        abilities: vec![Ability {
            name: "Deep Strike".into(),
            group: "core".into(),
            tags: vec!["Aura".into()],
            parameter: Some("5+".into()),
            rule_id: Some("10e:core:deep-strike".into()),
            text: Some("text".into()),
            at: Location::at_line("x.txt", 4),
            translations: Default::default(),
        }],
        wargear_options: vec!["opt".into()],
        unit_composition: vec!["5 Terminators".into()],
        equipment: vec!["storm bolter".into()],
        points: vec![PointsOption {
            models: 5,
            points: 185,
            at: Default::default(),
            units: Default::default(),
        }],
        damaged: Some(NamedText {
            name: "DAMAGED: 1-4 WOUNDS REMAINING".into(),
            text: "t".into(),
            at: Location::at_line("x.txt", 5),
        }),
        special_rules: vec![NamedText {
            name: "SUPREME COMMANDER".into(),
            text: "t".into(),
            // A paged source's location: page, box and page size too.
            at: Location {
                file: "x.pdf".into(),
                line: 40,
                page: Some(3),
                bbox: Some(BBox([56.0, 400.5, 300.0, 420.0])),
                page_size: Some(cogitator::source::PageSize {
                    width: 538.583,
                    height: 357.165,
                    rotate: 90,
                }),
            },
        }],
        leads: vec!["Strike Squad".into()],
        keywords: vec!["INFANTRY".into()],
        model_keywords: vec![ModelKeywords {
            model: "BROTHER-CAPTAIN".into(),
            keywords: vec!["CHARACTER".into()],
        }],
        faction_keywords: vec!["GREY KNIGHTS".into()],
        stratagems: vec!["10e:core:command-re-roll".into()],
        power_rating: Some(7),
        legends: true,
        weapons_printed_elsewhere: vec!["plasma gun".into()],
        supports: Default::default(),
    }
}

fn extracted(ds: Vec<Datasheet>) -> Extracted {
    Extracted {
        file: "x.txt".into(),
        datasheets: ds,
        ..Extracted::default()
    }
}

fn codes(d: &[Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn bad_weapon_is_quarantined_and_the_datasheet_kept() {
    let mut ds = full_datasheet();
    ds.weapons = vec![
        weapon("Chainfist", ["Melee", "3", "4+", "8+", "-2", "2"], &[], 7),
        weapon(
            "Storm bolter",
            ["24&#34;", "2d6+2", "3", "4", "\u{2212}1", "1"],
            &["Twin Linked", "rapid fire 2", "Anti-FLY 2", "ZHADSNARK"],
            8,
        ),
        weapon(
            "Storm bolter 2",
            ["24\u{201D}", "2d6+2", "3+", "4", "0", "1"],
            &["sustained hits 1. twin-linked"],
            9,
        ),
    ];
    let mut ex = extracted(vec![ds]);
    normalize::normalize(&mut ex);
    let ds = &ex.datasheets[0];
    assert_eq!(ds.weapons.len(), 2, "the Chainfist alone is quarantined");
    let sb = &ds.weapons[0];
    assert_eq!(sb.get("range"), Some("24\""));
    assert_eq!(sb.get("A"), Some("2D6+2"));
    assert_eq!(sb.get("skill"), Some("3+"));
    assert_eq!(sb.get("AP"), Some("-1"));
    assert_eq!(
        sb.keywords,
        ["ANTI-FLY 2+", "RAPID FIRE 2", "TWIN-LINKED", "ZHADSNARK"]
    );

    assert_eq!(ex.quarantine.len(), 1);
    let q = &ex.quarantine[0];
    assert_eq!(q["record_type"], "weapon_profile");
    assert_eq!(q["parent"], "10e:grey-knights:terminator-squad");
    assert_eq!(q["field"], "S");
    assert_eq!(q["value"], "8+");
    assert_eq!(q["code"], "N110");
    assert_eq!(q["line"], 7);
    assert_eq!(q["record"]["S"], "8+", "kept as extracted");
    assert!(publish::validate("quarantine_entry", q).is_empty());

    let errors: Vec<_> = ex
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].message.contains("Chainfist"), "{}", errors[0]);
    assert!(errors[0].message.contains("terminator-squad"));
    assert_eq!(errors[0].line, Some(7));

    // Aggregated: the two `2d6+2` → `2D6+2` fixes are one diagnostic with a count.
    let dice: Vec<_> = ex.diagnostics.iter().filter(|d| d.code == "N102").collect();
    assert_eq!(dice.len(), 1, "{dice:?}");
    assert!(dice[0].message.contains("(2 values)"), "{}", dice[0]);
    assert_eq!(ds.weapons[1].keywords, ["SUSTAINED HITS 1", "TWIN-LINKED"]);
    let c = codes(&ex.diagnostics);
    for code in ["N101", "N103", "N106", "N107"] {
        assert!(c.contains(&code), "{code} missing: {c:?}");
    }
    assert!(
        !c.contains(&"N108"),
        "unique keywords are reported per dataset"
    );
}

#[test]
fn bad_model_profile_and_ability_are_quarantined() {
    let mut ds = full_datasheet();
    ds.models
        .push(model("Broken", ["5\"", "0", "2+", "3", "6+", "1"]));
    ds.abilities[0].parameter = Some("five".into());
    let mut ex = extracted(vec![ds]);
    normalize::normalize(&mut ex);
    let ds = &ex.datasheets[0];
    assert_eq!(ds.models.len(), 1);
    assert!(ds.abilities.is_empty());
    let types: Vec<_> = ex
        .quarantine
        .iter()
        .map(|q| q["record_type"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(types, ["model_profile", "ability"]);
    assert_eq!(ex.quarantine[0]["code"], "N111");
    assert_eq!(ex.quarantine[1]["code"], "N110");
}

#[test]
fn bad_keyword_parameter_quarantines_the_weapon() {
    let mut ds = full_datasheet();
    ds.weapons[0].keywords = vec!["Rapid Fire".into()];
    let mut ex = extracted(vec![ds]);
    normalize::normalize(&mut ex);
    assert!(ex.datasheets[0].weapons.is_empty());
    assert_eq!(ex.quarantine[0]["code"], "N109");
}

#[test]
fn bad_invulnerable_save_quarantines_the_datasheet() {
    let mut ds = full_datasheet();
    ds.invulnerable_save = Some("1+".into());
    let mut ex = extracted(vec![ds]);
    normalize::normalize(&mut ex);
    assert!(ex.datasheets.is_empty());
    assert_eq!(ex.quarantine[0]["record_type"], "datasheet");
    assert_eq!(ex.quarantine[0]["code"], "N111");
}

#[test]
fn normalizing_twice_changes_nothing() {
    let mut ds = full_datasheet();
    ds.weapons[0].keywords = vec![
        "rapid fire 2".into(),
        "Twin Linked".into(),
        "ZHADSNARK".into(),
    ];
    ds.weapons[0].set("A", Some("2d6+2".into()));
    ds.models[0].set("Ld", Some("6".into()));
    let mut ex = extracted(vec![ds]);
    normalize::normalize(&mut ex);
    assert!(!ex.diagnostics.is_empty());
    let once = ex.datasheets.clone();
    let mut again = extracted(once.clone());
    normalize::normalize(&mut again);
    assert_eq!(again.datasheets, once);
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
}

#[test]
fn canonical_datasheet_is_untouched_and_silent() {
    let ds = full_datasheet();
    let mut ex = extracted(vec![ds.clone()]);
    normalize::normalize(&mut ex);
    assert_eq!(ex.datasheets, vec![ds]);
    assert!(ex.diagnostics.is_empty(), "{:?}", ex.diagnostics);
    assert!(ex.quarantine.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Schema drift: every key a fully populated record serializes is declared, and vice versa.

fn check_keys(def: &str, v: &Value, path: &str) {
    check_keys_in("10e", def, v, path)
}

/// A profile's keys are its fields plus the characteristics of `edition`'s profile.
fn check_keys_in(edition: &str, def: &str, v: &Value, path: &str) {
    let c = contract();
    let d = c.def(def).unwrap_or_else(|| panic!("no def {def}"));
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{path}: not an object"));
    let mut declared: BTreeSet<&str> = d.fields.iter().map(|f| f.name.as_str()).collect();
    if let Some(p) = &d.profile {
        declared.extend(c.profile_fields(edition, p.kind).iter().map(String::as_str));
    }
    // Optional fields (a location's page and box) are absent when the source has none.
    let optional: BTreeSet<&str> = d
        .fields
        .iter()
        .filter(|f| f.optional)
        .map(|f| f.name.as_str())
        .collect();
    let actual: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
    let present: BTreeSet<&str> = declared
        .iter()
        .copied()
        .filter(|k| !optional.contains(k) || actual.contains(k))
        .collect();
    assert_eq!(
        actual, present,
        "{path}: Rust output type and schemas/{def} disagree (left: serialized keys, right: schema fields)"
    );
    for f in &d.fields {
        let Some(val) = obj.get(&f.name) else {
            continue;
        };
        let sub = format!("{path}.{}", f.name);
        match (f.kind, &f.reference, &f.items) {
            (Kind::Object, Some(r), _) if !val.is_null() => {
                check_keys_in(edition, &r.value, val, &sub)
            }
            (Kind::Array, _, Some(items)) => {
                if let Some(r) = &items.reference {
                    let arr = val.as_array().expect("array");
                    assert!(!arr.is_empty(), "{sub}: populate it for the drift test");
                    for item in arr {
                        check_keys_in(edition, &r.value, item, &sub);
                    }
                }
            }
            _ => {}
        }
    }
}

fn to_value<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).expect("serialize")
}

#[test]
fn schema_drift() {
    // Fully populated: provenance with a page and a box (a PDF's), as the contract allows.
    let mut ds = full_datasheet();
    ds.sources = vec![paged(prov("x.pdf", 1))];
    check_keys("datasheet", &to_value(&ds), "datasheet");
    let rule = Rule {
        id: "10e:core:deep-strike".into(),
        name: Some("Deep Strike".into()),
        kind: "core".into(),
        edition: Edition::Tenth,
        faction: Some("f".into()),
        flavor: Some("f".into()),
        text: "t".into(),
        bullets: vec!["b".into()],
        examples: vec!["Example: e".into()],
        occurrences: vec![Occurrence {
            page: Some(1),
            bbox: Some(cogitator::source::BBox([0.0, 0.0, 10.0, 10.0])),
            ..Occurrence::at_line("x", 1)
        }],
        tables: vec![cogitator::model::RuleTable {
            columns: vec!["STRENGTH VS TOUGHNESS".into(), "D6 RESULT REQUIRED".into()],
            rows: vec![vec!["S EQUAL to T".into(), "4+".into()]],
            line: 1,
        }],
        variants: vec![cogitator::model::RuleVariant {
            text: "t.".into(),
            occurrences: vec![Occurrence::at_line("y", 2)],
            similarity_permille: 900,
        }],
        number: Default::default(),
        parent: Default::default(),
        children: Default::default(),
        translations: Default::default(),
    };
    check_keys("rule", &to_value(&rule), "rule");
    let strat = Stratagem {
        id: "10e:core:command-re-roll".into(),
        name: "COMMAND RE-ROLL".into(),
        edition: Edition::Tenth,
        cp: Some(1),
        group: Some("Core".into()),
        category: Some("Strategic Ploy".into()),
        flavor: Some("f".into()),
        when: Some("w".into()),
        target: Some("t".into()),
        effect: Some("e".into()),
        restrictions: Some("r".into()),
        sources: vec![paged(prov("x", 1))],
        translations: Default::default(),
    };
    check_keys("stratagem", &to_value(&strat), "stratagem");
    let enh = Enhancement {
        id: "10e:gk:e".into(),
        name: Some("E".into()),
        edition: Edition::Tenth,
        faction: Some("f".into()),
        detachment: Some("d".into()),
        points: Some(10),
        flavor: Some("f".into()),
        text: "t".into(),
        sources: vec![paged(prov("x", 1))],
        translations: Default::default(),
    };
    check_keys("enhancement", &to_value(&enh), "enhancement");
    let det = Detachment {
        id: "10e:gk:d".into(),
        name: "D".into(),
        edition: Edition::Tenth,
        faction: Some("f".into()),
        rules: vec!["r".into()],
        enhancements: vec!["e".into()],
        stratagems: vec!["s".into()],
        sources: vec![paged(prov("x", 1))],
        points: Default::default(),
        force_disposition: Default::default(),
        unique_tag: Default::default(),
        translations: Default::default(),
    };
    check_keys("detachment", &to_value(&det), "detachment");
    let diag = Diagnostic::new(Code::NormDice, "m").at("x", 3);
    check_keys("diagnostic", &to_value(&diag), "diagnostic");
    let counts = RecordCounts::default();
    let manifest = Manifest {
        tool: "cogitator".into(),
        version: "0".into(),
        contract_version: CONTRACT_VERSION,
        inputs: vec![ManifestInput {
            file: "x".into(),
            sha256: "0".repeat(64),
            bytes: 1,
            format: "text".into(),
            edition: Some(Edition::Tenth),
            status: InputStatus::Ok,
            duplicate_of: Some("y".into()),
            blocks: 1,
            chrome_dropped: 0,
            account: BlockAccount::default(),
            records: counts.clone(),
        }],
        totals: counts,
        rule_occurrences: 0,
        stages: StageCounts::default(),
        diagnostics: DiagnosticCounts::default(),
        files: vec!["manifest.json".into()],
    };
    check_keys("manifest", &to_value(&manifest), "manifest");
    let points = cogitator::model::Points {
        id: "11e:points:1-1:x:y".into(),
        edition: Edition::Eleventh,
        subject: "11e:x:y".into(),
        name: "Y".into(),
        tiers: vec![PointsOption {
            models: 4,
            points: 170,
            at: Location::at_line("x", 2),
            units: Some(cogitator::model::UnitRange {
                from: 1,
                to: Some(3),
            }),
        }],
        wargear: vec![cogitator::model::WargearPoints {
            item: "Z".into(),
            points: 5,
            at: Location::at_line("x", 3),
        }],
        publication: cogitator::model::Publication {
            title: None,
            version: Some("1.1".into()),
            date: Some("2026-07-22".into()),
        },
        // Every optional field written, so the schema check sees them.
        kind: cogitator::model::PointsKind::Enhancement,
        forge_world: true,
        legends: true,
        sources: vec![prov("x", 1)],
    };
    check_keys("points", &to_value(&points), "points");
    let erratum = cogitator::model::Erratum {
        id: "10e:erratum:index-cards-1-2:1".into(),
        edition: Edition::Tenth,
        target_printed: "Be’lakor".into(),
        targets: vec!["10e:chaos-daemons:belakor".into()],
        target_kind: cogitator::model::ErratumTarget::Datasheet,
        faction: Some("CHAOS DAEMONS".into()),
        section: "Keywords section".into(),
        qualifier: Some("2nd sentence".into()),
        instruction: Some("Add ‘PSYKER’.".into()),
        op: Some(cogitator::model::ErratumOp {
            kind: cogitator::model::ErratumOpKind::AddKeyword,
            set: [("AP".to_string(), "-2".to_string())].into(),
            values: vec!["PSYKER".into()],
        }),
        publication: cogitator::model::Publication {
            title: Some("Index Cards".into()),
            version: Some("1.2".into()),
            date: None,
        },
        sources: vec![prov("x", 1)],
        applied_to: vec!["10e:chaos-daemons:belakor".into()],
    };
    check_keys("errata", &to_value(&erratum), "errata");
    // Every record schema is exercised above (quarantine entries are built by normalize).
    for r in &contract().records {
        assert!(
            [
                "datasheet",
                "model_profile",
                "weapon_profile",
                "ability",
                "rule",
                "stratagem",
                "enhancement",
                "detachment",
                "diagnostic",
                "manifest",
                "quarantine_entry",
                "points",
                "errata"
            ]
            .contains(&r.as_str()),
            "record {r} has no drift check"
        );
    }
    // And every populated record validates against its published schema.
    for (rec, v) in [
        ("datasheet", to_value(&full_datasheet())),
        ("rule", to_value(&rule)),
        ("stratagem", to_value(&strat)),
        ("enhancement", to_value(&enh)),
        ("detachment", to_value(&det)),
        ("diagnostic", to_value(&diag)),
        ("manifest", to_value(&manifest)),
    ] {
        assert_eq!(publish::validate(rec, &v), Vec::<String>::new(), "{rec}");
    }
}

#[test]
fn published_datasheet_schema_is_edition_exact() {
    // 10th-edition Ld is a roll; 9th-edition Ld a plain number. The union would accept both.
    let mut v = to_value(&full_datasheet());
    assert!(publish::validate("datasheet", &v).is_empty());
    v["models"][0]["Ld"] = Value::from("6");
    assert!(!publish::validate("datasheet", &v).is_empty());
    v["edition"] = Value::from("9e");
    // A 9th-edition model line: M WS BS S T W A Ld Sv, no OC.
    v["models"][0] = serde_json::json!({
        "name": "Terminator", "M": "5\"", "WS": "3+", "BS": "3+", "S": "4", "T": "4",
        "W": "2", "A": "2", "Ld": "6", "Sv": "2+", "at": {"file": "x.txt", "line": 2}
    });
    v["weapons"] = Value::Array(vec![]);
    assert_eq!(publish::validate("datasheet", &v), Vec::<String>::new());
    // A 10th-edition line on a 9th-edition datasheet is not valid: the edition decides.
    v["models"][0] = to_value(&full_datasheet())["models"][0].clone();
    assert!(!publish::validate("datasheet", &v).is_empty());
}

#[test]
fn a_field_missing_from_the_schema_fails_validation() {
    let mut v = to_value(&full_datasheet());
    v["new_field"] = Value::from(1);
    assert!(!publish::validate("datasheet", &v).is_empty());
    let mut v = to_value(&full_datasheet());
    v["weapons"][0]["AP"] = Value::from("+1");
    assert!(!publish::validate("datasheet", &v).is_empty());
}

#[test]
fn broken_schema_string_is_reported_with_line_and_column() {
    let bad =
        "record: thing\nfields:\n  - name: a\n    type: string\n  - name: b\n    type: [oops\n";
    let e = schema::load(
        &[("thing.yaml", bad)],
        schema::CHARACTERISTICS_FILE,
        schema::KEYWORDS_FILE,
    )
    .expect_err("broken YAML");
    assert_eq!(e.file, "thing.yaml");
    assert!(e.line >= 6, "{e}");
    assert!(e.to_string().starts_with("schemas/thing.yaml:"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Published contract, committed output, lint, docs.

#[test]
fn published_schemas_are_json_schema_2020_12() {
    let files = publish::files();
    assert_eq!(files.len(), contract().records.len() + 2);
    let (vocab_path, vocab) = &files[contract().records.len()];
    assert_eq!(vocab_path, "schema/weapon_keywords.json");
    let (path_11e, vocab_11e) = files.last().expect("11th-edition vocabulary");
    assert_eq!(path_11e, "schema/weapon_keywords-11e.json");
    let vocab_11e: Value = serde_json::from_str(vocab_11e).expect("json");
    let cleave = vocab_11e["keywords"]
        .as_array()
        .expect("keywords")
        .iter()
        .find(|k| k["name"] == "CLEAVE")
        .expect("CLEAVE");
    assert_eq!(cleave["rule_id"], "11e:weapon_ability:cleave");
    let vocab: Value = serde_json::from_str(vocab).expect("json");
    let patterns: Vec<regex::Regex> = vocab["keywords"]
        .as_array()
        .expect("keywords")
        .iter()
        .map(|k| regex::Regex::new(k["pattern"].as_str().expect("pattern")).expect("regex"))
        .collect();
    for canonical in [
        "TWIN-LINKED",
        "ANTI-INFANTRY 4+",
        "RAPID FIRE 2",
        "SUSTAINED HITS D3",
    ] {
        assert!(
            patterns.iter().any(|p| p.is_match(canonical)),
            "{canonical}"
        );
    }
    assert!(!patterns.iter().any(|p| p.is_match("ZHADSNARK")));
    for (path, text) in files.iter().filter(|(p, _)| p.ends_with(".schema.json")) {
        assert!(path.starts_with("schema/") && path.ends_with(".schema.json"));
        let v: Value = serde_json::from_str(text).expect("json");
        assert_eq!(v["$schema"], publish::DIALECT);
        // ECMA-262 in Unicode mode (ajv and others) rejects identity escapes such as `\-`.
        assert!(!text.contains("\\\\-"), "{path}: non-ECMA escape");
        jsonschema::draft202012::new(&v).expect("compiles");
    }
}

fn read_dataset(dir: &std::path::Path) -> Vec<(String, Result<Value, String>)> {
    DATASET_FILES
        .iter()
        .filter(|(f, _, _)| dir.join(f).exists())
        .map(|(f, _, _)| {
            let parsed = std::fs::read_to_string(dir.join(f))
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
            (f.to_string(), parsed)
        })
        .collect()
}

#[test]
fn committed_output_validates_against_the_published_schemas() {
    let dir = util::repo().join("output");
    let files = read_dataset(&dir);
    let records: usize = files
        .iter()
        .filter(|(f, _)| f != "manifest.json" && f != "diagnostics.json")
        .filter_map(|(_, v)| v.as_ref().ok())
        .filter_map(Value::as_array)
        .map(Vec::len)
        .sum();
    // An empty or missing output/ is a failure, not a reason to skip (the golden check in
    // `golden.rs` fails too).
    assert!(records > 0, "output/ has no records");
    let findings = lint(&files);
    let schema_errors: Vec<_> = findings
        .iter()
        .filter(|d| d.code == "N112" || d.code == "N113")
        .collect();
    assert!(
        schema_errors.is_empty(),
        "output/ does not match schemas/:\n{}",
        schema_errors
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Published schema files, when committed, are the ones schemas/ generates.
    for (path, text) in publish::files() {
        let p = dir.join(&path);
        if p.exists() {
            let committed = std::fs::read_to_string(&p).expect("read");
            assert_eq!(committed, text, "{path} is stale: re-run ingest");
        }
    }
}

#[test]
fn lint_finds_errors_in_a_dataset_and_exits_1() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut ds = full_datasheet();
    ds.weapons[0].keywords = vec!["Twin Linked".into(), "ZHADSNARK".into()];
    ds.weapons.push(weapon(
        "Chainfist",
        ["Melee", "3", "4+", "8+", "-2", "2"],
        &[],
        7,
    ));
    let write = |name: &str, v: &Value| {
        std::fs::write(tmp.path().join(name), cogitator::emit::to_json(v)).expect("write");
    };
    write("datasheets.json", &Value::Array(vec![to_value(&ds)]));
    for f in [
        "rules.json",
        "stratagems.json",
        "enhancements.json",
        "detachments.json",
        "quarantine.json",
        "diagnostics.json",
    ] {
        write(f, &Value::Array(vec![]));
    }
    let manifest = serde_json::json!({"tool": "cogitator"});
    write("manifest.json", &manifest);

    let findings = lint(&read_dataset(tmp.path()));
    let c = codes(&findings);
    assert!(c.contains(&"N110"), "{c:?}"); // S 8+
    assert!(c.contains(&"N106"), "{c:?}"); // Twin Linked not canonical
    assert!(c.contains(&"N108"), "{c:?}"); // ZHADSNARK
    assert!(c.contains(&"N112"), "{c:?}"); // manifest incomplete

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .arg("lint")
        .arg(tmp.path())
        .output()
        .expect("run cogitator");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("error[N110]"), "{stdout}");
}

#[test]
fn lint_passes_a_clean_dataset() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let ds = cogitator::ingest(&[util::raw()], &Default::default()).expect("ingest");
    cogitator::emit::write(&ds, tmp.path()).expect("write");
    for (path, _) in publish::files() {
        assert!(tmp.path().join(&path).exists(), "{path} not emitted");
    }
    let findings = lint(&read_dataset(tmp.path()));
    let errors: Vec<_> = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn diagnostics_md_is_up_to_date() {
    let path = util::repo().join("docs/diagnostics.md");
    let want = cogitator::cli::lint::docs_markdown();
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/diagnostics.md is out of date; regenerate it with:\n    cargo run -- lint --docs > docs/diagnostics.md"
    );
}

#[test]
fn every_normalize_code_is_documented_with_an_example() {
    let n: Vec<_> = cogitator::diag::CODES
        .iter()
        .filter(|c| c.name.starts_with('N'))
        .collect();
    assert!(n.len() >= 10);
    for c in n {
        assert!(c.explanation.contains("Example:"), "{}", c.name);
    }
}

// ---------------------------------------------------------------------------------------------
// Real data: every characteristic value and weapon keyword of the BattleScribe 10th-edition
// catalogues normalizes, or is one of the few known-broken values (which are quarantined).

fn unescape_xml(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn bsdata_10e_values_normalize() {
    let Some(corpus) = util::corpus() else { return };
    let dir = corpus.join("bsdata/wh40k-10e");
    let re = regex::Regex::new(r#"<characteristic name="([^"]+)"[^>]*>([^<]*)<"#).expect("re");
    let map = [
        ("Range", "range"),
        ("A", "A"),
        ("BS", "skill"),
        ("WS", "skill"),
        ("S", "S"),
        ("AP", "AP"),
        ("D", "D"),
        ("M", "M"),
        ("T", "T"),
        ("SV", "Sv"),
        ("W", "W"),
        ("LD", "Ld"),
        ("OC", "OC"),
    ];
    let mut values = 0usize;
    let mut fixed = 0usize;
    let mut broken: BTreeSet<String> = BTreeSet::new();
    let mut unique: BTreeSet<String> = BTreeSet::new();
    let vocab = &contract().vocabulary;
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} not found", dir.display());
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().and_then(|x| x.to_str()) != Some("cat") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read catalogue");
        for c in re.captures_iter(&text) {
            let (name, raw) = (&c[1], unescape_xml(&c[2]));
            if name == "Keywords" {
                for k in raw
                    .split(',')
                    .map(str::trim)
                    .filter(|k| !k.is_empty() && *k != "-")
                {
                    match keyword(vocab, k) {
                        KeywordOutcome::Unique => {
                            unique.insert(k.to_string());
                        }
                        KeywordOutcome::BadParameter(r) => {
                            broken.insert(format!("keyword {k:?}: {r}"));
                        }
                        _ => {}
                    }
                }
                continue;
            }
            let Some((_, ch)) = map.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            if raw.trim().is_empty() {
                continue;
            }
            values += 1;
            let g = contract().grammar("10e", ch).expect("grammar");
            match canonicalize(g, &raw) {
                Outcome::Canonical => {}
                Outcome::Fixed { .. } | Outcome::Null => fixed += 1,
                Outcome::Broken { code, .. } => {
                    broken.insert(format!("{ch} {raw:?} {code:?}"));
                }
            }
        }
    }
    eprintln!(
        "bsdata 10e: {values} values, {fixed} respelled, broken: {broken:?}, unique keywords: {unique:?}"
    );
    assert!(values > 1000, "{values}");
    // Known: one weapon prints AP `-`; nothing else may break.
    let allowed = ["AP \"-\" NormGrammar"];
    for b in &broken {
        assert!(
            allowed.contains(&b.as_str()),
            "unexpected broken value: {b}"
        );
    }
    for u in ["Plasma Warhead", "Harpooned", "Hive Defences"] {
        assert!(unique.contains(u), "{u} should be a unique ability");
    }
}

#[test]
fn wahapedia_csv_values_normalize() {
    let Some(corpus) = util::corpus() else { return };
    let dir = corpus.join("wahapedia-csv/2025-11-14");
    let tags = regex::Regex::new(r"<[^>]*>").expect("re");
    let vocab = &contract().vocabulary;
    let mut values = 0usize;
    let mut fixed = 0usize;
    let mut broken: std::collections::BTreeMap<String, usize> = Default::default();
    let mut kw_broken: std::collections::BTreeMap<String, usize> = Default::default();
    let mut unique: BTreeSet<String> = BTreeSet::new();
    let mut check = |ch: &str, raw: &str| {
        if raw.trim().is_empty() {
            return;
        }
        values += 1;
        let g = contract().grammar("10e", ch).expect("grammar");
        match canonicalize(g, raw) {
            Outcome::Canonical => {}
            Outcome::Fixed { .. } | Outcome::Null => fixed += 1,
            Outcome::Broken { code, .. } => {
                *broken.entry(format!("{ch} {raw:?} {code:?}")).or_default() += 1;
            }
        }
    };
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let Some(wargear) = read("Datasheets_wargear.csv") else {
        eprintln!("skipped: {} not found", dir.display());
        return;
    };
    for line in wargear.lines().skip(1) {
        let f: Vec<&str> = line.split('|').collect();
        if f.len() < 13 {
            continue;
        }
        let melee = f[7] == "Melee";
        check("range", f[6]);
        check("A", f[8]);
        check("skill", f[9]);
        check("S", f[10]);
        check("AP", f[11]);
        check("D", f[12]);
        let _ = melee;
        let desc = tags.replace_all(f[5], "");
        for k in desc.split(',').map(str::trim).filter(|k| !k.is_empty()) {
            if keywords::split_glued(vocab, k).is_some() {
                continue;
            }
            match keyword(vocab, k) {
                KeywordOutcome::Unique => {
                    unique.insert(k.to_string());
                }
                KeywordOutcome::BadParameter(r) => {
                    *kw_broken.entry(format!("keyword {k:?}: {r}")).or_default() += 1;
                }
                _ => {}
            }
        }
    }
    if let Some(models) = read("Datasheets_models.csv") {
        for line in models.lines().skip(1) {
            let f: Vec<&str> = line.split('|').collect();
            if f.len() < 11 {
                continue;
            }
            check("M", f[3]);
            check("T", f[4]);
            check("Sv", f[5]);
            check("invulnerable_save", f[6]);
            check("W", f[8]);
            check("Ld", f[9]);
            check("OC", f[10]);
        }
    }
    eprintln!(
        "wahapedia csv: {values} values, {fixed} respelled, broken: {broken:?} {kw_broken:?}"
    );
    eprintln!(
        "unique keywords: {} e.g. {:?}",
        unique.len(),
        unique.iter().take(15).collect::<Vec<_>>()
    );
    assert!(values > 10_000, "{values}");
    // Known: wargear rows without a profile (`-`, A `0`) and footnote marks (`5*`, `4*`):
    // quarantined, never guessed. Nothing else may break.
    for b in broken.keys().chain(kw_broken.keys()) {
        let known = b.contains("\"-\"") || b.starts_with("A \"0\"") || b.contains("*\"");
        assert!(known, "unexpected broken value: {b}");
    }
    assert!(kw_broken.is_empty(), "{kw_broken:?}");
}

// ---------------------------------------------------------------------------------------------
// Contract v2: profiles carry the characteristics of their datasheet's edition.

/// A hand-written weapon: name, type, `(characteristic, value)` pairs.
type HandWeapon<'a> = (&'a str, WeaponType, &'a [(&'a str, &'a str)]);

/// A hand-written datasheet of `edition` with one model line and the given weapons (values
/// written here, not read from any source).
fn edition_datasheet(
    edition: Edition,
    id: &str,
    model: (&str, &[(&str, &str)]),
    weapons: &[HandWeapon],
) -> Datasheet {
    let mut ds = Datasheet::empty(edition);
    ds.id = id.into();
    ds.name = Some(model.0.into());
    ds.faction = Some("Test".into());
    ds.sources = vec![prov("hand-written.txt", 1)];
    let mut m = ModelProfile::new(
        edition,
        Some(model.0.into()),
        Location::at_line("hand-written.txt", 2),
    );
    for (k, v) in model.1 {
        m.set(k, Some(v.to_string()));
    }
    ds.models.push(m);
    for (i, (name, kind, vals)) in weapons.iter().enumerate() {
        let at = Location::at_line("hand-written.txt", 5 + i as u32);
        let mut w = WeaponProfile::new(edition, name.to_string(), *kind, at);
        for (k, v) in *vals {
            w.set(k, Some(v.to_string()));
        }
        ds.weapons.push(w);
    }
    ds
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// Serializes with the edition's keys in order, validates against the published schemas,
/// normalizes without quarantine or change, and round-trips through serde.
fn check_edition_datasheet(ds: &Datasheet, model_keys: &[&str], weapon_keys: &[&str]) {
    let v = to_value(ds);
    assert_eq!(keys(&v["models"][0]), model_keys);
    for w in v["weapons"].as_array().expect("weapons") {
        assert_eq!(keys(w), weapon_keys);
    }
    // The keys are the ones characteristics.yaml lists for the edition, in its order.
    let fields = |k| profile_fields_of(ds.edition, k);
    assert_eq!(
        model_keys[1..model_keys.len() - 1],
        fields(ProfileKind::Model)[..]
    );
    assert_eq!(
        weapon_keys[2..weapon_keys.len() - 2],
        fields(ProfileKind::Weapon)[..]
    );
    assert_eq!(publish::validate("datasheet", &v), Vec::<String>::new());
    assert_eq!(
        publish::validate("model_profile", &v["models"][0]),
        Vec::<String>::new()
    );
    for w in v["weapons"].as_array().expect("weapons") {
        assert_eq!(publish::validate("weapon_profile", w), Vec::<String>::new());
    }
    let mut ex = extracted(vec![ds.clone()]);
    normalize::normalize(&mut ex);
    assert!(ex.quarantine.is_empty(), "{:?}", ex.quarantine);
    assert_eq!(ex.datasheets, vec![ds.clone()], "canonical: untouched");
    assert!(ex.diagnostics.is_empty(), "{:?}", ex.diagnostics);
    let text = serde_json::to_string(ds).expect("serialize");
    let back: Datasheet = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(&back, ds);
    assert_eq!(serde_json::to_string(&back).expect("serialize"), text);
}

fn profile_fields_of(e: Edition, k: ProfileKind) -> Vec<&'static str> {
    normalize::profile_fields(e, k)
        .iter()
        .map(String::as_str)
        .collect()
}

#[test]
fn ninth_edition_datasheet_has_its_own_profile() {
    let ds = edition_datasheet(
        Edition::Ninth,
        "9e:necrons:necron-warriors",
        (
            "Necron Warrior",
            &[
                ("M", "5\""),
                ("WS", "3+"),
                ("BS", "3+"),
                ("S", "4"),
                ("T", "4"),
                ("W", "1"),
                ("A", "1"),
                ("Ld", "10"),
                ("Sv", "4+"),
            ],
        ),
        &[
            (
                "Gauss flayer",
                WeaponType::Ranged,
                &[
                    ("range", "24\""),
                    ("weapon_type", "Rapid Fire 1"),
                    ("S", "4"),
                    ("AP", "-1"),
                    ("D", "1"),
                ],
            ),
            (
                "Close combat weapon",
                WeaponType::Melee,
                &[
                    ("range", "Melee"),
                    ("weapon_type", "Melee"),
                    ("S", "User"),
                    ("AP", "0"),
                    ("D", "1"),
                ],
            ),
            (
                "Hyperphase sword",
                WeaponType::Melee,
                &[
                    ("range", "Melee"),
                    ("weapon_type", "Melee"),
                    ("S", "+1"),
                    ("AP", "-3"),
                    ("D", "1"),
                ],
            ),
            (
                "Warscythe",
                WeaponType::Melee,
                &[
                    ("range", "Melee"),
                    ("weapon_type", "Melee"),
                    ("S", "x2"),
                    ("AP", "-4"),
                    ("D", "2"),
                ],
            ),
        ],
    );
    assert_eq!(ds.models[0].get("WS"), Some("3+"));
    assert_eq!(ds.models[0].get("OC"), None);
    assert_eq!(ds.weapons[0].get("weapon_type"), Some("Rapid Fire 1"));
    check_edition_datasheet(
        &ds,
        &[
            "name", "M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "at",
        ],
        &[
            "name",
            "type",
            "range",
            "weapon_type",
            "S",
            "AP",
            "D",
            "abilities",
            "keywords",
            "at",
        ],
    );
    // A 10th-edition grammar does not apply: Ld 10 is a plain number in 9th edition.
    let mut v = to_value(&ds);
    v["models"][0]["Ld"] = Value::from("10+");
    assert!(!publish::validate("datasheet", &v).is_empty());
}

#[test]
fn horus_heresy_datasheet_has_its_own_profile() {
    let ds = edition_datasheet(
        Edition::HorusHeresy2,
        "hh2:legiones-astartes:tactical-squad",
        (
            "Legionary",
            &[
                ("M", "7"),
                ("WS", "4"),
                ("BS", "4"),
                ("S", "4"),
                ("T", "4"),
                ("W", "1"),
                ("I", "4"),
                ("A", "1"),
                ("Ld", "7"),
                ("Sv", "3+"),
            ],
        ),
        &[(
            "Bolter",
            WeaponType::Ranged,
            &[
                ("range", "24\""),
                ("S", "4"),
                ("AP", "5"),
                ("weapon_type", "Rapid Fire"),
                ("special_rule", "Rending (6+)"),
            ],
        )],
    );
    check_edition_datasheet(
        &ds,
        &[
            "name", "M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv", "at",
        ],
        &[
            "name",
            "type",
            "range",
            "S",
            "AP",
            "weapon_type",
            "special_rule",
            "keywords",
            "at",
        ],
    );
}

#[test]
fn a_characteristic_of_another_edition_is_quarantined_not_guessed() {
    let mut ds = edition_datasheet(
        Edition::Ninth,
        "9e:necrons:x",
        ("X", &[("M", "5\""), ("T", "4")]),
        &[],
    );
    ds.models[0].set("OC", Some("2".into()));
    let mut ex = extracted(vec![ds]);
    normalize::normalize(&mut ex);
    assert!(ex.datasheets[0].models.is_empty());
    assert_eq!(ex.quarantine.len(), 1);
    assert_eq!(ex.quarantine[0]["field"], "OC");
    assert_eq!(ex.quarantine[0]["code"], "N110");
}

#[test]
fn a_missing_characteristic_fails_the_published_schema() {
    let ds = edition_datasheet(Edition::Ninth, "9e:necrons:x", ("X", &[]), &[]);
    let mut v = to_value(&ds);
    assert_eq!(publish::validate("datasheet", &v), Vec::<String>::new());
    v["models"][0].as_object_mut().expect("object").remove("WS");
    assert!(!publish::validate("datasheet", &v).is_empty());
    assert!(!publish::validate("model_profile", &v["models"][0]).is_empty());
}

#[test]
fn a_contract_v1_profile_still_deserializes() {
    // Contract v1 wrote 10th-edition profiles with these keys; v2 writes the same.
    let m: ModelProfile = serde_json::from_str(
        r#"{"name":"Be'lakor","M":"12\"","T":"10","Sv":"4+","W":"18","Ld":"6+","OC":"5"}"#,
    )
    .expect("v1 model profile");
    assert_eq!(m.get("T"), Some("10"));
    assert_eq!(m.get("OC"), Some("5"));
    let w: WeaponProfile = serde_json::from_str(
        r#"{"name":"Bolt rifle","type":"ranged","range":"24\"","A":"2","skill":"3+","S":"4","AP":"-1","D":"1","keywords":["ASSAULT"],"line":7}"#,
    )
    .expect("v1 weapon profile");
    assert_eq!(w.get("AP"), Some("-1"));
    assert_eq!(w.get("skill"), Some("3+"));
    // Its v1 `line` (in the datasheet's first source) is kept, without a file; written as
    // contract v2 `at`.
    assert_eq!(w.at, Location::at_line("", 7));
    assert_eq!(
        serde_json::to_string(&w).expect("serialize"),
        r#"{"name":"Bolt rifle","type":"ranged","range":"24\"","A":"2","skill":"3+","S":"4","AP":"-1","D":"1","keywords":["ASSAULT"],"at":{"file":"","line":7}}"#
    );
    assert_eq!(
        m.at,
        Location::default(),
        "a v1 model profile has no location"
    );
}
