//! Trust work on `cogitator diff` and the gate (issue 24): linear pairing of large lists,
//! the values of added and removed tiers and records, word-level text changes, plurals,
//! keywords the simulator does not model, annotation anchors and policy value checks. Every
//! input is generated here.

use crate::util;
use cogitator::dataset::LoadedDataset;
use cogitator::diff::dataset::{diff_datasets, DatasetDiff};
use cogitator::diff::ChangeKind;
use serde_json::{json, Value};
use std::time::Duration;

fn src(file: &str, line: u32) -> Value {
    json!({"file": file, "line": line, "sha256": "00"})
}

fn weapon(i: usize, a: u32) -> Value {
    json!({"name": format!("Gun {i}"), "type": "ranged", "range": "24\"", "A": a.to_string(),
           "skill": "3+", "S": "4", "AP": "0", "D": "1", "keywords": [],
           "at": {"file": "big.html", "line": 100 + i}})
}

fn datasheet(id: &str, name: &str, weapons: Vec<Value>) -> Value {
    json!({
        "id": id, "name": name, "edition": "10e", "faction": "Tyranids",
        "sources": [src("big.html", 1)],
        "models": [{"name": name, "M": "6\"", "T": "4", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "1"}],
        "invulnerable_save": null, "invulnerable_save_condition": null,
        "weapons": weapons, "abilities": [], "wargear_options": [], "unit_composition": [],
        "equipment": [], "points": [{"models": 5, "points": 100}], "damaged": null,
        "special_rules": [], "leads": [], "keywords": ["INFANTRY"], "model_keywords": [],
        "faction_keywords": ["TYRANIDS"], "stratagems": []
    })
}

fn load(datasheets: Vec<Value>) -> LoadedDataset {
    LoadedDataset {
        datasheets: serde_json::from_value(Value::Array(datasheets)).expect("datasheets"),
        ..Default::default()
    }
}

/// Runs `f` on another thread and fails when it takes longer than `limit` (a guard against
/// a hang, not a measurement).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .expect("diff did not finish within the guard time (quadratic pairing?)")
}

/// A datasheet of `n` weapons: every third weapon's attacks changed, the last ten removed,
/// ten new ones added.
fn big_weapon_diff(n: usize) -> DatasetDiff {
    let old: Vec<Value> = (0..n).map(|i| weapon(i, 2)).collect();
    let mut new: Vec<Value> = (0..n - 10)
        .map(|i| weapon(i, if i % 3 == 0 { 3 } else { 2 }))
        .collect();
    new.extend((n..n + 10).map(|i| weapon(i, 2)));
    // Order does not matter for a keyed list.
    new.reverse();
    let (a, b) = (
        load(vec![datasheet("10e:tyranids:big", "Big", old)]),
        load(vec![datasheet("10e:tyranids:big", "Big", new)]),
    );
    within(Duration::from_secs(300), move || {
        diff_datasets(&a, &b, &cogitator::validate::default_panel())
    })
}

fn check_big_weapon_diff(n: usize) {
    let d = big_weapon_diff(n);
    let changed = (0..n - 10).filter(|i| i % 3 == 0).count();
    let count = |k: ChangeKind| d.changes.iter().filter(|e| e.kind == k).count();
    assert_eq!(count(ChangeKind::Changed), changed);
    assert_eq!(count(ChangeKind::Removed), 10);
    assert_eq!(count(ChangeKind::Added), 10);
    let e = d
        .changes
        .iter()
        .find(|e| e.path == "weapons[Gun 3].A")
        .expect("Gun 3's attacks changed");
    assert_eq!(e.human, "Big › weapons › Gun 3 › A: 2 → 3");
    let at = e.at.as_ref().expect("a location");
    assert_eq!((at.file.as_str(), at.line), ("big.html", 103));
    assert!(
        e.headline_damage().is_some_and(|d| d.delta > 0.0),
        "a changed weapon has its weight"
    );
    let gone = d
        .changes
        .iter()
        .find(|e| e.path == format!("weapons[Gun {}]", n - 1))
        .expect("the last weapon removed");
    assert_eq!(gone.kind, ChangeKind::Removed);
    // Gone from NEW: anchored on the datasheet's own line there.
    assert_eq!(gone.at.as_ref().map(|a| a.line), Some(1));
}

#[test]
fn diff_of_a_datasheet_with_5000_weapons_is_not_quadratic() {
    check_big_weapon_diff(5_000);
}

#[test]
fn diff_of_a_datasheet_with_20000_weapons_is_not_quadratic() {
    check_big_weapon_diff(20_000);
}

#[test]
fn diff_of_5000_renamed_records_with_one_content_is_not_quadratic() {
    let n = 5_000;
    let rec = |p: &str, i: usize| datasheet(&format!("10e:tyranids:{p}-{i}"), "Same", vec![]);
    let old = load((0..n).map(|i| rec("old", i)).collect());
    let new = load((0..n).map(|i| rec("new", i)).collect());
    let d = within(Duration::from_secs(300), move || {
        diff_datasets(&old, &new, &cogitator::validate::default_panel())
    });
    assert_eq!(d.summary.renamed, n);
    assert_eq!(d.summary.added + d.summary.removed, 0);
}

fn with_points(mut d: Value, tiers: &[(u32, u32)]) -> Value {
    d["points"] = tiers
        .iter()
        .map(|(m, p)| json!({"models": m, "points": p}))
        .collect();
    d
}

fn diff_of(old: Vec<Value>, new: Vec<Value>) -> DatasetDiff {
    diff_datasets(
        &load(old),
        &load(new),
        &cogitator::validate::default_panel(),
    )
}

fn humans(d: &DatasetDiff) -> Vec<String> {
    d.changes.iter().map(|e| e.human.clone()).collect()
}

#[test]
fn added_and_removed_points_tiers_show_their_values() {
    let ds = datasheet("10e:tyranids:raveners", "Raveners", vec![weapon(1, 2)]);
    let old = with_points(ds.clone(), &[(3, 75), (6, 150)]);
    let new = with_points(ds, &[(3, 75), (5, 115)]);
    assert_eq!(
        humans(&diff_of(vec![old], vec![new])),
        [
            "Raveners › points › 5 models: added (115)",
            "Raveners › points › 6 models: removed (150)",
        ]
    );
}

#[test]
fn added_and_removed_records_and_weapons_show_their_values() {
    let a = datasheet("10e:tyranids:a", "Alpha", vec![weapon(1, 2)]);
    let mut b = datasheet("10e:tyranids:b", "Beta", vec![weapon(1, 2), weapon(2, 4)]);
    b["models"][0]["T"] = json!("9");
    b["keywords"] = json!(["MONSTER"]);
    let h = humans(&diff_of(vec![], vec![b]));
    assert_eq!(
        h,
        ["Beta: added (points 5 models 100; models Beta; weapons Gun 1, Gun 2; keywords MONSTER; \
          faction_keywords TYRANIDS)"]
    );
    let h = humans(&diff_of(vec![a.clone()], vec![]));
    assert!(
        h[0].starts_with("Alpha: removed (points 5 models 100;"),
        "{h:?}"
    );
    let mut c = a.clone();
    c["weapons"] = json!([]);
    let d = diff_of(vec![a], vec![c]);
    assert_eq!(
        humans(&d),
        ["Alpha › weapons › Gun 1: removed (type ranged; range 24\"; A 2; skill 3+; S 4; AP 0; D 1)"]
    );
    // Bounded: a record of many weapons is cut, not printed whole.
    let many = datasheet(
        "10e:tyranids:m",
        "Many",
        (0..500).map(|i| weapon(i, 2)).collect(),
    );
    let d = diff_of(vec![], vec![many]);
    assert!(
        d.changes[0].human.chars().count() < 300,
        "{}",
        d.changes[0].human
    );
    assert!(d.changes[0].human.ends_with("…)"));
}

fn ability(text: &str) -> Value {
    let mut d = datasheet("10e:tyranids:gaunts", "Gaunts", vec![]);
    d["abilities"] = json!([{"name": "Swarm", "group": "datasheet", "tags": [], "parameter": null,
                             "rule_id": null, "text": text}]);
    d
}

#[test]
fn a_one_word_change_in_a_long_text_shows_the_changed_words() {
    let filler = "While this unit is within range of an objective marker you control, each time a \
                  model in this unit makes an attack";
    let old = format!(
        "{filler}, you can re-roll Hit rolls of 1. {filler} that targets a \
                       MONSTER, add 1 to the Strength characteristic of that attack."
    );
    let new = old.replacen("Hit rolls", "Wound rolls", 1);
    assert!(old.len() > 200);
    let d = diff_of(vec![ability(&old)], vec![ability(&new)]);
    assert_eq!(
        humans(&d),
        ["Gaunts › abilities › Swarm › text: … you can re-roll [-Hit-] {+Wound+} rolls of 1. …"]
    );
    // A text rewritten whole stays bounded.
    let other: String = (0..200).map(|i| format!("word{i} ")).collect();
    let d = diff_of(vec![ability(&old)], vec![ability(&other)]);
    let h = &d.changes[0].human;
    assert!(h.chars().count() < 300, "{h}");
    assert!(h.ends_with('…'));
    // Short values keep the plain form.
    let d = diff_of(vec![ability("Re-roll 1s.")], vec![ability("Re-roll 2s.")]);
    assert_eq!(
        humans(&d),
        ["Gaunts › abilities › Swarm › text: Re-roll 1s. → Re-roll 2s."]
    );
}

fn write_dataset(dir: &std::path::Path, datasheets: Vec<Value>) {
    let empty: [Value; 0] = [];
    util::write_dataset(
        dir,
        &serde_json::json!({
            "datasheets": datasheets,
            "stratagems": empty, "rules": empty, "enhancements": empty,
            "detachments": empty, "diagnostics": empty,
        }),
    );
}

#[test]
fn one_change_and_one_violation_are_singular() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let ds = datasheet("10e:tyranids:raveners", "Raveners", vec![]);
    write_dataset(&a, vec![with_points(ds.clone(), &[(5, 100)])]);
    write_dataset(&b, vec![with_points(ds, &[(5, 110)])]);
    let policy = tmp.path().join("gate.yaml");
    std::fs::write(&policy, "fail_on:\n  categories: [points]\n").expect("write");
    let (p, g) = (policy.to_str().expect("utf-8"), "--gate");
    let (x, y) = (a.to_str().expect("utf-8"), b.to_str().expect("utf-8"));
    let (code, out, _) = util::cogitator(&["diff", x, y, g, p]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            ": 1 change of meaning (0 added, 0 removed, 0 renamed records; 0 became null)"
        ),
        "{out}"
    );
    assert!(out.contains(", 0 new error diagnostics\n"), "{out}");
    assert!(
        out.contains("gate: FAILED (1 violation, 0 accepted"),
        "{out}"
    );
    let (_, md, _) = util::cogitator(&["diff", x, y, g, p, "--format", "markdown"]);
    assert!(
        md.contains("**Gate: FAILED ❌** (1 violation, 0 accepted"),
        "{md}"
    );
    assert!(md.contains("1 change of meaning"), "{md}");
    for text in [&out, &md] {
        for wrong in [
            "1 changes",
            "1 violations",
            "1 new error diagnostics",
            "1 renamed records",
        ] {
            assert!(!text.contains(&format!(" {wrong}")), "{wrong}: {text}");
        }
    }
}

#[test]
fn a_keyword_the_simulator_does_not_model_has_no_zero_weight() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let mut w = weapon(1, 2);
    let ds = |w: Value| datasheet("10e:tyranids:gaunts", "Gaunts", vec![w]);
    write_dataset(&a, vec![ds(w.clone())]);
    w["keywords"] = json!(["GRAVITIC BLAST 3"]);
    write_dataset(&b, vec![ds(w.clone())]);
    let (x, y) = (a.to_str().expect("utf-8"), b.to_str().expect("utf-8"));
    let (_, out, _) = util::cogitator(&["diff", x, y]);
    assert!(
        out.contains("keywords: + GRAVITIC BLAST 3  [keyword]  GRAVITIC BLAST 3 not modelled by the simulator"),
        "{out}"
    );
    assert!(!out.contains("+0.00"), "{out}");
    let (_, md, _) = util::cogitator(&["diff", x, y, "--format", "markdown"]);
    assert!(md.contains("not modelled by the simulator"), "{md}");
    assert!(!md.contains("+0.00"), "{md}");
    let (_, j, _) = util::cogitator(&["diff", x, y, "--format", "json"]);
    let j: Value = serde_json::from_str(&j).expect("json");
    assert_eq!(j["changes"][0]["not_modelled"], json!(["GRAVITIC BLAST 3"]));
    assert!(j["changes"][0].get("damage").is_none());
    // A modelled keyword keeps its weight, a real zero included: PISTOL changes nothing in one
    // volley.
    write_dataset(&a, vec![ds(w.clone())]);
    w["keywords"] = json!(["GRAVITIC BLAST 3", "PISTOL"]);
    write_dataset(&b, vec![ds(w)]);
    let (_, out, _) = util::cogitator(&["diff", x, y]);
    assert!(
        out.contains("keywords: + PISTOL  [keyword]  +0.00 expected damage"),
        "{out}"
    );
}

#[test]
fn gate_policy_values_are_checked_with_their_line() {
    use cogitator::diff::policy::Policy;
    let bad = [
        (
            "fail_on:\n  removed_records: true\n  expected_damage_change: .nan\n",
            3,
        ),
        ("fail_on:\n  expected_damage_change: .inf\n", 2),
        ("fail_on:\n  expected_damage_change: -.inf\n", 2),
        (
            "fail_on:\n  became_null: true\n  expected_damage_change: -0.5\n",
            3,
        ),
        ("fail_on:\n  crosscheck_agreement_below: .NaN\n", 2),
        ("fail_on:\n  crosscheck_agreement_below: 150\n", 2),
        ("fail_on:\n\n  crosscheck_agreement_below: -1\n", 3),
        ("", 1),
        ("# nothing but a comment\n\n", 1),
        ("fail_on: {}\n", 1),
        ("fail_on:\n  removed_records: false\n  categories: []\n", 1),
        ("fail_on:\n  expected_damage_change: null\n", 1),
        ("allow:\n  - record: x\n    reason: y\n", 1),
    ];
    for (yaml, line) in bad {
        let e = Policy::parse("p.yaml", yaml).expect_err(yaml);
        assert_eq!(e.line, line, "{yaml:?}: {e}");
        assert!(e.to_string().starts_with(&format!("p.yaml:{line}:")), "{e}");
    }
    for yaml in [
        "fail_on:\n  expected_damage_change: 0\n",
        "fail_on:\n  expected_damage_change: 2\n",
        "fail_on:\n  crosscheck_agreement_below: 99.5\n",
        "fail_on: {removed_records: true}\n",
        cogitator::diff::policy::DEFAULT_POLICY,
    ] {
        Policy::parse("p.yaml", yaml).expect(yaml);
    }
    // The command: a usage error (exit 2) naming the file and line, before any dataset is read.
    let tmp = tempfile::tempdir().expect("tmp");
    let p = tmp.path().join("gate.yaml");
    std::fs::write(&p, "fail_on:\n  expected_damage_change: .nan\n").expect("write");
    let (code, _, err) = util::cogitator(&["diff", "a", "b", "--gate", p.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("gate.yaml:2:"), "{err}");
    std::fs::write(&p, "").expect("write");
    let (code, _, err) = util::cogitator(&["diff", "a", "b", "--gate", p.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("gate.yaml:1:1: the policy is empty"), "{err}");
}

#[test]
fn gate_schema_refuses_a_policy_with_no_rule() {
    let schema: Value =
        serde_json::from_str(include_str!("../../schemas/gate.schema.json")).expect("schema");
    let v = jsonschema::draft202012::new(&schema).expect("compiles");
    for bad in [
        json!({}),
        json!({"fail_on": {}}),
        json!({"fail_on": {"removed_records": false, "categories": []}}),
        json!({"fail_on": {"expected_damage_change": null}}),
        json!({"fail_on": {"expected_damage_change": -1}}),
        json!({"allow": [{"record": "x", "reason": "y"}]}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
    }
    for good in [
        json!({"fail_on": {"removed_records": true}}),
        json!({"fail_on": {"expected_damage_change": 0}}),
        json!({"fail_on": {"categories": ["points"]}}),
    ] {
        assert!(v.is_valid(&good), "{good}");
    }
    let default: Value =
        serde_saphyr::from_str(cogitator::diff::policy::DEFAULT_POLICY).expect("yaml");
    assert!(v.is_valid(&default));
}

/// A catalogue of one unit whose points cost element is on line 4.
fn catalogue(points: u32) -> String {
    format!(
        r#"<catalogue id="c" name="Xenos - Test" gameSystemId="sys-1" library="false">
  <selectionEntries>
    <selectionEntry id="u" name="Immortals" type="unit">
      <costs><cost name="pts" typeId="pts-1" value="{points}"/></costs>
      <selectionEntries>
        <selectionEntry id="imm" name="Immortal" type="model">
          <constraints>
            <constraint type="min" value="5" field="selections" scope="parent" id="k3"/>
            <constraint type="max" value="5" field="selections" scope="parent" id="k4"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>"#
    )
}

fn bsdata_dataset(points: u32) -> LoadedDataset {
    const GST: &str = include_str!("../fixtures/bsdata/game.gst");
    let cat = catalogue(points);
    crate::util::ingest_in_memory(&[("x/game.gst", GST), ("x/t.cat", cat.as_str())]).into()
}

#[test]
fn a_points_change_is_anchored_on_the_cost_elements_own_line() {
    let (old, new) = (bsdata_dataset(70), bsdata_dataset(75));
    let d = diff_datasets(&old, &new, &[]);
    let e = d
        .changes
        .iter()
        .find(|e| e.path == "points[5 models].points")
        .expect("the points change");
    let at = e.at.as_ref().expect("a location");
    assert_eq!((at.file.as_str(), at.line), ("x/t.cat", 4), "{e:?}");
    let gh = cogitator::cli::diff::github(&d, None, Some("raw"));
    assert!(
        gh.contains("::warning file=raw/x/t.cat,line=4,title=cogitator diff%3A points::"),
        "{gh}"
    );
}

#[test]
fn a_points_tier_is_anchored_on_its_own_line_and_old_datasets_fall_back() {
    let ds = datasheet("10e:tyranids:raveners", "Raveners", vec![]);
    let tiers = |p: u32, at: Value| {
        let mut d = with_points(ds.clone(), &[(3, 75), (6, p)]);
        if !at.is_null() {
            d["points"][1]["at"] = at;
        }
        d
    };
    let own = json!({"file": "big.html", "line": 57});
    let d = diff_of(vec![tiers(150, own.clone())], vec![tiers(160, own)]);
    let at = d.changes[0].at.as_ref().expect("a location");
    assert_eq!((at.file.as_str(), at.line), ("big.html", 57));
    // A dataset written before tiers had a location reads an empty one: the record's source,
    // never a file named "" at line 0.
    let d = diff_of(vec![tiers(150, Value::Null)], vec![tiers(160, Value::Null)]);
    let at = d.changes[0].at.as_ref().expect("a location");
    assert_eq!((at.file.as_str(), at.line), ("big.html", 1));
}

/// Issue 24 (names reach the terminal raw): a newline in a record's name started a line of its
/// own in `diff`'s report (a forged line), in the terminal and in the Markdown comment. Every
/// piece from the data is escaped on its own; the report's own lines stay lines.
#[test]
fn a_newline_in_a_name_does_not_start_a_line_of_the_diff_report() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let forged = "Raveners\ngate: passed \u{1b}[32mok";
    let ds = datasheet("10e:tyranids:raveners", forged, vec![]);
    write_dataset(&a, vec![with_points(ds.clone(), &[(5, 100)])]);
    write_dataset(&b, vec![with_points(ds, &[(5, 110)])]);
    let (x, y) = (a.to_str().expect("utf-8"), b.to_str().expect("utf-8"));
    for format in ["human", "markdown"] {
        let (_, out, _) = util::cogitator(&["diff", x, y, "--format", format]);
        assert!(
            out.lines().all(|l| !l.starts_with("gate: passed")),
            "{format}: {out}"
        );
        assert!(out.contains("Raveners\\ngate: passed"), "{format}: {out}");
        assert!(!out.contains('\u{1b}'), "{format}: {out}");
    }
}
