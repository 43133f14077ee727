//! `cogitator diff` and `cogitator explain`: hand-written pairs of small datasets covering every
//! change category, renames, null regressions, the gate and its allowlist, each output format;
//! `diff output output`; and two real ingests of the HTML corpus (with and without one of the
//! two Carnifexes pages).

use crate::util;
use cogitator::dataset::LoadedDataset;
use cogitator::diff::dataset::{diff_datasets, DatasetDiff, Subject};
use cogitator::diff::policy::Policy;
use cogitator::diff::ChangeKind;
use serde_json::{json, Value};
use std::process::Command;

fn src(file: &str, line: u32) -> Value {
    json!({"file": file, "line": line, "sha256": "00"})
}

/// A small hand-written dataset: one datasheet (Carnifexes, made up values), one stratagem,
/// one rule, one enhancement, one detachment.
fn base() -> Value {
    json!({
      "datasheets": [{
        "id": "10e:tyranids:carnifexes", "name": "Carnifexes", "edition": "10e",
        "faction": "Tyranids", "sources": [src("tyranids.html", 10)], "base_size": "105 x 70mm",
        "models": [{"name": "Carnifex", "M": "8\"", "T": "9", "Sv": "2+", "W": "8", "Ld": "8+", "OC": "3"}],
        "invulnerable_save": "5+", "invulnerable_save_condition": null,
        "weapons": [
          {"name": "Heavy venom cannon", "type": "ranged", "range": "36\"", "A": "D3", "skill": "4+",
           "S": "9", "AP": "-2", "D": "3", "keywords": ["BLAST"], "at": {"file": "tyranids.html", "line": 40}},
          {"name": "Storm bolter", "type": "ranged", "range": "24\"", "A": "2", "skill": "4+",
           "S": "4", "AP": "0", "D": "1", "keywords": ["RAPID FIRE 2"], "at": {"file": "tyranids.html", "line": 41}},
          {"name": "Monstrous scything talons", "type": "melee", "range": "Melee", "A": "5",
           "skill": "4+", "S": "9", "AP": "-2", "D": "3", "keywords": [], "at": {"file": "tyranids.html", "line": 42}}
        ],
        "abilities": [{"name": "Enraged Reserves", "group": "datasheet", "tags": [], "parameter": null,
                       "rule_id": null, "text": "Each time this unit makes a Charge move, it's fine."}],
        "wargear_options": ["Any model can be equipped with 1 storm bolter."],
        "unit_composition": ["1-2 Carnifexes"], "equipment": [],
        "points": [{"models": 1, "points": 115}, {"models": 2, "points": 230}],
        "damaged": null, "special_rules": [], "leads": [],
        "keywords": ["MONSTER", "GREAT DEVOURER", "CARNIFEXES"], "model_keywords": [],
        "faction_keywords": ["TYRANIDS"], "stratagems": []
      }],
      "stratagems": [{
        "id": "10e:core:command-re-roll", "name": "COMMAND RE-ROLL", "edition": "10e", "cp": 1,
        "group": "Core", "category": "Battle Tactic", "flavor": null,
        "when": "Any phase.", "target": "One unit.", "effect": "Re-roll the roll.",
        "restrictions": null, "sources": [src("core.txt", 5)]
      }],
      "rules": [{
        "id": "10e:core:deep-strike", "name": "DEEP STRIKE", "kind": "core", "edition": "10e",
        "faction": null, "flavor": null, "text": "Set it up anywhere more than 9\" away.",
        "bullets": [], "examples": [], "occurrences": [{"file": "core.txt", "line": 20}]
      }],
      "enhancements": [{
        "id": "10e:tyranids:invasion-fleet:adaptive-biology", "name": "Adaptive Biology",
        "edition": "10e", "faction": "Tyranids", "detachment": "Invasion Fleet", "points": 25,
        "flavor": null, "text": "Feel No Pain 5+.", "sources": [src("tyranids.html", 90)]
      }],
      "detachments": [{
        "id": "10e:tyranids:invasion-fleet", "name": "Invasion Fleet", "edition": "10e",
        "faction": "Tyranids", "rules": [], "enhancements": ["10e:tyranids:invasion-fleet:adaptive-biology"],
        "stratagems": [], "sources": [src("tyranids.html", 80)]
      }],
      "diagnostics": []
    })
}

fn load(v: &Value) -> LoadedDataset {
    LoadedDataset {
        datasheets: serde_json::from_value(v["datasheets"].clone()).expect("datasheets"),
        stratagems: serde_json::from_value(v["stratagems"].clone()).expect("stratagems"),
        rules: serde_json::from_value(v["rules"].clone()).expect("rules"),
        enhancements: serde_json::from_value(v["enhancements"].clone()).expect("enhancements"),
        detachments: serde_json::from_value(v["detachments"].clone()).expect("detachments"),
        diagnostics: serde_json::from_value(v["diagnostics"].clone()).expect("diagnostics"),
        ..Default::default()
    }
}

fn diff(old: &Value, new: &Value) -> DatasetDiff {
    diff_datasets(
        &load(old),
        &load(new),
        &cogitator::validate::default_panel(),
    )
}

/// (category, human) of every change.
fn lines(d: &DatasetDiff) -> Vec<(Subject, String)> {
    d.changes
        .iter()
        .map(|e| (e.category, e.human.clone()))
        .collect()
}

#[test]
fn identical_datasets_have_no_changes() {
    let d = diff(&base(), &base());
    assert!(d.is_empty(), "{:?}", lines(&d));
}

#[test]
fn every_category_of_a_datasheet() {
    let old = base();
    let mut new = base();
    let ds = &mut new["datasheets"][0];
    ds["points"][0]["points"] = json!(90);
    ds["models"][0]["T"] = json!("10");
    ds["weapons"][0]["S"] = json!("10");
    ds["weapons"][1]["keywords"] = json!([]);
    ds["abilities"][0]["text"] = json!("Each time this unit makes a Charge move, add 1.");
    ds["unit_composition"] = json!(["1-3 Carnifexes"]);
    ds["stratagems"] = json!(["10e:core:command-re-roll"]);
    ds["faction_keywords"] = json!(["TYRANIDS", "HIVE FLEET"]);
    ds["sources"][0]["line"] = json!(12);
    ds["weapons"][2]["at"]["line"] = json!(44);
    let d = diff(&old, &new);
    let got = lines(&d);
    let want = [
        (Subject::Ability, "Carnifexes › abilities › Enraged Reserves › text: Each time this unit makes a Charge move, it's fine. → Each time this unit makes a Charge move, add 1."),
        (Subject::Keyword, "Carnifexes › faction_keywords: + HIVE FLEET"),
        (Subject::Characteristic, "Carnifexes › models › Carnifex › T: 9 → 10"),
        (Subject::Points, "Carnifexes › points › 1 model: 115 → 90"),
        (Subject::Provenance, "Carnifexes › sources › tyranids.html › line: 10 → 12"),
        (Subject::Reference, "Carnifexes › stratagems: + 10e:core:command-re-roll"),
        (Subject::Composition, "Carnifexes › unit_composition: − 1-2 Carnifexes"),
        (Subject::Composition, "Carnifexes › unit_composition: + 1-3 Carnifexes"),
        (Subject::WeaponProfile, "Carnifexes › weapons › Heavy venom cannon › S: 9 → 10"),
        (Subject::Provenance, "Carnifexes › weapons › Monstrous scything talons › at › line: 42 → 44"),
        (Subject::Keyword, "Carnifexes › weapons › Storm bolter › keywords: − RAPID FIRE 2"),
    ];
    for w in &want {
        assert!(
            got.iter().any(|g| g.0 == w.0 && g.1 == w.1),
            "missing {w:?} in {got:#?}"
        );
    }
    assert_eq!(got.len(), want.len(), "{got:#?}");
    assert_eq!(d.summary.provenance, 2);
    assert_eq!(d.summary.meaning, want.len() - 2);
    // The NEW value's source: a weapon's line in the record's source file.
    let s = d
        .changes
        .iter()
        .find(|e| e.path == "weapons[Heavy venom cannon].S")
        .expect("S change");
    let at = s.at.as_ref().expect("located");
    assert_eq!((at.file.as_str(), at.line), ("tyranids.html", 40));
    // The simulator's weight: S 9 → 10 wounds T10 vehicles on 3+ instead of 4+.
    let vehicle = s
        .damage
        .iter()
        .find(|x| x.target == "vehicle")
        .expect("vehicle row");
    assert!(vehicle.delta > 0.0, "{vehicle:?}");
    let storm = d
        .changes
        .iter()
        .find(|e| e.path == "weapons[Storm bolter].keywords")
        .expect("keyword change");
    // Without RAPID FIRE 2 (not at half range in the reference scenario) nothing changes.
    assert!(
        storm.damage.iter().all(|x| x.delta == 0.0),
        "{:?}",
        storm.damage
    );
}

#[test]
fn typography_only_is_separated_from_meaning() {
    let old = base();
    let mut new = base();
    new["datasheets"][0]["abilities"][0]["text"] =
        json!("Each time this unit makes a Charge move, it’s  fine.");
    new["datasheets"][0]["keywords"] = json!(["Monster", "GREAT DEVOURER", "CARNIFEXES"]);
    let d = diff(&old, &new);
    assert_eq!(d.summary.meaning, 0, "{:#?}", lines(&d));
    assert_eq!(d.summary.typography, 3, "{:#?}", lines(&d));
}

#[test]
fn other_record_types_rule_text_name_other_points_reference() {
    let old = base();
    let mut new = base();
    new["stratagems"][0]["effect"] = json!("Re-roll one roll.");
    new["stratagems"][0]["cp"] = json!(2);
    new["stratagems"][0]["name"] = json!("COMMAND REROLL");
    new["stratagems"][0]["category"] = json!("Strategic Ploy");
    new["rules"][0]["text"] = json!("Set it up anywhere more than 8\" away.");
    new["enhancements"][0]["points"] = json!(30);
    new["detachments"][0]["stratagems"] = json!(["10e:core:command-re-roll"]);
    let d = diff(&old, &new);
    let got = lines(&d);
    assert_eq!(
        got,
        [
            (
                Subject::RuleText,
                "DEEP STRIKE › text: Set it up anywhere more than 9\" away. → Set it up anywhere more than 8\" away.".to_string()
            ),
            (
                Subject::Other,
                "COMMAND REROLL › category: Battle Tactic → Strategic Ploy".into()
            ),
            (Subject::Points, "COMMAND REROLL › cp: 1 → 2".into()),
            (Subject::RuleText, "COMMAND REROLL › effect: Re-roll the roll. → Re-roll one roll.".into()),
            (Subject::Name, "COMMAND REROLL › name: COMMAND RE-ROLL → COMMAND REROLL".into()),
            (Subject::Points, "Adaptive Biology › points: 25 → 30".into()),
            (Subject::Reference, "Invasion Fleet › stratagems: + 10e:core:command-re-roll".into()),
        ]
    );
    let types: Vec<&str> = d.changes.iter().map(|e| e.record_type).collect();
    assert_eq!(
        types,
        [
            "rule",
            "stratagem",
            "stratagem",
            "stratagem",
            "stratagem",
            "enhancement",
            "detachment"
        ]
    );
}

#[test]
fn a_renamed_record_is_one_rename_not_remove_and_add() {
    let old = base();
    let mut new = base();
    new["datasheets"][0]["id"] = json!("10e:tyranids:carnifex-brood");
    new["datasheets"][0]["name"] = json!("Carnifex Brood");
    new["datasheets"][0]["points"][1]["points"] = json!(200);
    let d = diff(&old, &new);
    assert_eq!(d.summary.renamed, 1);
    assert_eq!(d.summary.added + d.summary.removed, 0);
    let first = &d.changes[0];
    assert_eq!(first.kind, ChangeKind::Renamed);
    assert_eq!(first.old_record.as_deref(), Some("10e:tyranids:carnifexes"));
    assert_eq!(first.record, "10e:tyranids:carnifex-brood");
    let rest: Vec<String> = d.changes[1..].iter().map(|e| e.human.clone()).collect();
    assert_eq!(
        rest,
        [
            "Carnifex Brood › name: Carnifexes → Carnifex Brood",
            "Carnifex Brood › points › 2 models: 230 → 200"
        ]
    );
}

#[test]
fn a_record_whose_id_alone_changed_is_a_rename_to_the_new_id() {
    // Only the id changed (a new id scheme): no field change follows the rename, and the
    // rename still names the NEW id (it was empty, taken from the first field change).
    let old = base();
    let mut new = base();
    new["datasheets"][0]["id"] = json!("10e:tyranids:carnifex-brood");
    let d = diff(&old, &new);
    assert_eq!(d.changes.len(), 1);
    assert_eq!(d.changes[0].kind, ChangeKind::Renamed);
    assert_eq!(d.changes[0].record, "10e:tyranids:carnifex-brood");
    assert_eq!(
        d.changes[0].human,
        "Carnifexes → Carnifexes: renamed (10e:tyranids:carnifexes → 10e:tyranids:carnifex-brood)"
    );
}

#[test]
fn unrelated_records_are_removed_and_added() {
    let old = base();
    let mut new = base();
    new["enhancements"][0]["id"] = json!("10e:tyranids:invasion-fleet:other");
    new["enhancements"][0]["name"] = json!("Other");
    new["enhancements"][0]["text"] = json!("Something else entirely, with different words.");
    new["enhancements"][0]["points"] = json!(10);
    new["enhancements"][0]["flavor"] = json!("Flavor.");
    let d = diff(&old, &new);
    assert_eq!(
        (d.summary.added, d.summary.removed, d.summary.renamed),
        (1, 1, 0)
    );
}

#[test]
fn null_regressions_and_removed_weapons_break_the_default_gate() {
    let old = base();
    let mut new = base();
    new["datasheets"][0]["invulnerable_save"] = Value::Null;
    new["datasheets"][0]["weapons"]
        .as_array_mut()
        .expect("weapons")
        .remove(1);
    new["detachments"] = json!([]);
    let d = diff(&old, &new);
    assert_eq!(d.summary.became_null, 1);
    let p = Policy::parse("default", cogitator::diff::policy::DEFAULT_POLICY).expect("policy");
    let v = p.check(&d, None);
    assert!(!v.passed);
    let rules: Vec<&str> = v.violations.iter().map(|x| x.rule.as_str()).collect();
    assert_eq!(
        rules,
        ["became_null", "removed_weapon_profiles", "removed_records"]
    );
    // The allowlist accepts them, with reasons, by record id and field path prefix.
    let allowing = r#"
fail_on: {removed_records: true, removed_weapon_profiles: true, became_null: true}
allow:
  - record: "10e:tyranids:carnifexes"
    field: invulnerable_save
    reason: the 1.4 faction pack dropped it
  - record: "10e:tyranids:carnifexes"
    field: "weapons[Storm bolter]"
    reason: wargear change
  - record: "10e:tyranids:*"
    reason: detachment retired
"#;
    let p = Policy::parse("allow.yaml", allowing).expect("policy");
    let v = p.check(&d, None);
    assert!(v.passed, "{:?}", v.violations);
    assert_eq!(v.allowed.len(), 3);
    assert_eq!(v.allowed[0].reason, "the 1.4 faction pack dropped it");
}

#[test]
fn expected_damage_and_category_rules() {
    let old = base();
    let mut new = base();
    new["datasheets"][0]["weapons"][2]["D"] = json!("6");
    new["datasheets"][0]["points"][0]["points"] = json!(100);
    let d = diff(&old, &new);
    let p = Policy::parse(
        "p.yaml",
        "fail_on:\n  expected_damage_change: 1.0\n  categories: [points]\n",
    )
    .expect("policy");
    let v = p.check(&d, None);
    let rules: Vec<&str> = v.violations.iter().map(|x| x.rule.as_str()).collect();
    assert_eq!(rules, ["categories", "expected_damage_change"]);
    assert!(v.violations[1]
        .message
        .contains("expected damage per volley against"));
    // The crosscheck figure, when computed.
    let p = Policy::parse("p.yaml", "fail_on: {crosscheck_agreement_below: 99.5}\n").expect("p");
    assert!(p.check(&diff(&old, &old), Some(99.9)).passed);
    assert!(!p.check(&diff(&old, &old), Some(98.0)).passed);
}

#[test]
fn new_error_diagnostics_are_found() {
    let old = base();
    let mut new = base();
    new["diagnostics"] = json!([{"severity": "error", "code": "N101", "message": "bad value",
                                 "file": "tyranids.html", "line": 3}]);
    let d = diff(&old, &new);
    assert_eq!(d.new_errors.len(), 1);
    let p = Policy::parse("default", cogitator::diff::policy::DEFAULT_POLICY).expect("policy");
    assert_eq!(
        p.check(&d, None).violations[0].rule,
        "new_error_diagnostics"
    );
}

#[test]
fn policy_mistakes_are_located() {
    let e = Policy::parse("p.yaml", "fail_on:\n  categories: [points, pionts]\n").unwrap_err();
    assert_eq!((e.line, e.file.as_str()), (2, "p.yaml"));
    assert!(e.message.contains("unknown category `pionts`"), "{e}");
    let e = Policy::parse("p.yaml", "fail_on:\n  removed_record: true\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = Policy::parse("p.yaml", "allow:\n  - record: x\n    reason: \"\"\n").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.to_string().starts_with("p.yaml:3:"), "{e}");
}

#[test]
fn command_formats_and_exit_codes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (a, b) = (tmp.path().join("old"), tmp.path().join("new"));
    let mut new = base();
    new["datasheets"][0]["points"][0]["points"] = json!(90);
    new["datasheets"][0]["weapons"]
        .as_array_mut()
        .expect("weapons")
        .remove(1);
    util::write_dataset(&a, &base());
    util::write_dataset(&b, &new);
    let (a, b) = (a.to_str().expect("utf-8"), b.to_str().expect("utf-8"));

    let (code, out, _) = util::cogitator(&["diff", a, b]);
    assert_eq!(code, 0);
    assert!(out.contains("datasheet · Tyranids (2)"), "{out}");
    assert!(
        out.contains("Carnifexes › points › 1 model: 115 → 90  [points]"),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "no colour off a terminal");

    let (code, out, _) = util::cogitator(&["diff", a, b, "--format", "json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).expect("json output");
    assert_eq!(v["schema"], "cogitator-diff/1");
    assert_eq!(v["summary"]["meaning"], 2);
    assert_eq!(v["changes"][0]["category"], "points");
    assert_eq!(v["changes"][0]["at"]["file"], "tyranids.html");
    assert!(v["gate"].is_null());

    let (code, out, _) =
        util::cogitator(&["diff", a, b, "--format", "markdown", "--gate", "default"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("### cogitator diff"), "{out}");
    assert!(out.contains("**Gate: FAILED ❌**"), "{out}");
    assert!(out.contains("| points | 1 |"), "{out}");
    assert!(
        out.contains("<details><summary>datasheet · Tyranids (2)</summary>"),
        "{out}"
    );

    let (code, out, _) = util::cogitator(&[
        "diff",
        a,
        b,
        "--format",
        "github",
        "--gate",
        "default",
        "--source-root",
        "raw",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("::warning file=raw/tyranids.html,line=10,title=cogitator diff%3A points::Carnifexes › points › 1 model: 115 → 90"),
        "{out}"
    );
    assert!(
        out.contains("::error file=raw/tyranids.html,line=10,title=cogitator gate (removed_weapon_profiles)%3A weapon_profile::Carnifexes › weapons › Storm bolter: removed"),
        "{out}"
    );

    let (code, out, _) = util::cogitator(&["diff", a, b, "--gate", "default"]);
    assert_eq!(code, 1);
    assert!(out.contains("gate: FAILED"), "{out}");
    assert!(
        out.contains("[removed_weapon_profiles] Carnifexes › weapons › Storm bolter: removed"),
        "{out}"
    );

    let policy = tmp.path().join("p.yaml");
    std::fs::write(&policy, "fail_on:\n  removed_weapon_profiles: true\nallow:\n  - record: \"10e:tyranids:carnifexes\"\n    field: weapons\n    reason: reviewed\n").expect("write");
    let (code, out, _) =
        util::cogitator(&["diff", a, b, "--gate", policy.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("gate: passed (1 accepted by the allowlist)"),
        "{out}"
    );

    std::fs::write(&policy, "fail_on:\n  removed: true\n").expect("write");
    let (code, _, err) =
        util::cogitator(&["diff", a, b, "--gate", policy.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("p.yaml:2:"), "{err}");
    let (code, _, _) = util::cogitator(&["diff", a, "/nonexistent/cogitator"]);
    assert_eq!(code, 2);
    let (code, _, _) = util::cogitator(&["diff", a]);
    assert_eq!(code, 2);
}

#[test]
fn committed_output_against_itself_is_empty_and_exits_0() {
    let out = crate::util::repo().join("output");
    let out = out.to_str().expect("utf-8");
    let (code, stdout, _) = util::cogitator(&["diff", out, out, "--gate", "default"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("no changes between"), "{stdout}");
    let (code, stdout, _) = util::cogitator(&["diff", out, out, "--format", "github"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn explain_a_value() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut v = base();
    v["diagnostics"] = json!([
        {"severity": "warning", "code": "X110", "file": "tyranids-new.html", "line": null,
         "message": "Carnifexes points: 1×115 (tyranids.html) vs 1×90 (tyranids-new.html); kept 1×115 (faction pack v1.0 > (none))"},
        {"severity": "info", "code": "N106", "file": "tyranids.html", "line": null,
         "message": "keyword 'blast' -> 'BLAST' (1 value)"}
    ]);
    let page = "<html>\n<h1>Carnifexes</h1>\n<td>Heavy venom cannon</td>\n";
    let sha = cogitator::source::sha256_hex(page.as_bytes());
    v["datasheets"][0]["sources"] = json!([
        {"file": "tyranids.html", "line": 2, "sha256": sha},
        src("tyranids-new.html", 1)
    ]);
    let ds = tmp.path().join("ds");
    util::write_dataset(&ds, &v);
    let inputs = tmp.path().join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    std::fs::write(inputs.join("tyranids.html"), page).expect("write");
    let (ds, inputs) = (ds.to_str().expect("utf-8"), inputs.to_str().expect("utf-8"));
    let (code, out, _) = util::cogitator(&[
        "explain",
        "10e:tyranids:carnifexes.points",
        "--dataset",
        ds,
        "--inputs",
        inputs,
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("value: [{\"models\":1,\"points\":115}"),
        "{out}"
    );
    assert!(
        out.contains("  tyranids.html:2\n      | Carnifexes"),
        "{out}"
    );
    assert!(!out.contains("changed since"), "{out}");
    assert!(out.contains("X110 Carnifexes points: 1×115"), "{out}");
    assert!(
        out.contains("merge policy (datasheet `points`): wins Newer"),
        "{out}"
    );
    let (code, out, _) = util::cogitator(&[
        "explain",
        "10e:tyranids:carnifexes.weapons[Heavy venom cannon].keywords",
        "--dataset",
        ds,
        "--inputs",
        inputs,
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("value: [\"BLAST\"]"), "{out}");
    assert!(
        out.contains("N106 tyranids.html: keyword 'blast' -> 'BLAST'"),
        "{out}"
    );
    assert!(
        out.contains("the value's own location: tyranids.html:40"),
        "{out}"
    );
    let (code, _, err) = util::cogitator(&["explain", "10e:tyranids:nope", "--dataset", ds]);
    assert_eq!(code, 1);
    assert!(err.contains("no record"), "{err}");
    let (code, _, _) = util::cogitator(&[
        "explain",
        "10e:tyranids:carnifexes.nofield",
        "--dataset",
        ds,
    ]);
    assert_eq!(code, 1);
}

/// The HTML corpus without the newer Carnifexes page (so with only the older one, 1.0) and
/// the whole corpus (both pages): the points change is found, located at the newer page, and
/// the NEW record has both sources. The corpus with and without the older page differ in
/// provenance only (the newer page wins either way).
#[test]
fn real_ingests_with_and_without_a_carnifexes_page() {
    let Some(corpus) = crate::util::corpus() else {
        return;
    };
    let root = corpus.join("wahapedia-html");
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for e in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let e = e.expect("walk");
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(&root).expect("prefix");
            files.push((
                rel.to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            ));
        }
    }
    let (older, newer) = (
        "grimlog/tyranids--Carnifexes.html",
        "waaahgame/tyranids--Carnifexes.html",
    );
    let ingest = |without: &str| -> LoadedDataset {
        let f: Vec<(&str, &[u8])> = files
            .iter()
            .filter(|(p, _)| p != without)
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .collect();
        crate::util::ingest_in_memory(&f).into()
    };
    let panel = cogitator::validate::default_panel();
    let all = ingest("");
    let no_newer = ingest(newer);
    let d = diff_datasets(&no_newer, &all, &panel);
    let points: Vec<&str> = d
        .changes
        .iter()
        .filter(|e| e.record == "10e:tyranids:carnifexes" && e.category == Subject::Points)
        .map(|e| e.human.as_str())
        .collect();
    assert_eq!(
        points,
        [
            "Carnifexes › points › 1 model: 115 → 90",
            "Carnifexes › points › 2 models: 230 → 180"
        ]
    );
    let e = d
        .changes
        .iter()
        .find(|e| e.record == "10e:tyranids:carnifexes" && e.category == Subject::Points)
        .expect("points change");
    assert_eq!(e.at.as_ref().map(|a| a.file.as_str()), Some(newer));
    let sheet = all
        .datasheets
        .iter()
        .find(|d| d.id == "10e:tyranids:carnifexes")
        .expect("carnifexes");
    let files: Vec<&str> = sheet.sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files, [older, newer]);

    let no_older = ingest(older);
    let d = diff_datasets(&no_older, &all, &panel);
    assert_eq!(d.summary.meaning, 0, "{:#?}", lines(&d));
    assert!(d.summary.provenance > 0);
}

/// `--old-rev HEAD output`: the committed output at HEAD against the working tree's (the same
/// unless someone edited output/ without committing). Skipped outside a git checkout.
#[test]
fn old_rev_reads_the_committed_output() {
    let repo = crate::util::repo();
    let git = Command::new("git")
        .args(["rev-parse", "--verify", "HEAD"])
        .current_dir(&repo)
        .output();
    if !git.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: not a git checkout");
        return;
    }
    let dirty = Command::new("git")
        .args(["status", "--porcelain", "output"])
        .current_dir(&repo)
        .output()
        .expect("git status");
    if !dirty.stdout.is_empty() {
        eprintln!("skipped: output/ has uncommitted changes");
        return;
    }
    let o = Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(["diff", "--old-rev", "HEAD", "output", "--gate", "default"])
        .current_dir(&repo)
        .output()
        .expect("run");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("no changes between HEAD:output and output\n"),
        "{out}"
    );
    assert!(out.contains("gate: passed"), "{out}");
    let o = Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(["diff", "--old-rev", "no-such-revision-xyz", "output"])
        .current_dir(&repo)
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
}
