//! `cogitator diff` on `points.json` (issue 27): points records paired by what they price, not
//! by their id (which carries the publication), on hand-written dataset folders (a unit added
//! in the Forge World section, one removed, a changed tier, a changed enhancement cost, a
//! changed wargear cost, a new version that prints the same costs), the gate's treatment of
//! them, and the MFM YAML of the corpus ingested twice.

use crate::util;
use cogitator::dataset::DatasetDir;
use cogitator::diff::dataset::{diff_datasets, DatasetDiff, Subject};
use cogitator::diff::policy::{Policy, DEFAULT_POLICY};
use serde_json::{json, Value};
use std::path::Path;

/// One points record of publication `version` (`1.0`): `subject` is `tyranids:carnifexes`
/// (the edition added); `extra` is merged in (`kind`, `forge_world`, `wargear`).
fn record(version: &str, subject: &str, name: &str, tiers: &[(u32, u32)], extra: Value) -> Value {
    let tiers: Vec<Value> = (tiers.iter())
        .map(|(models, points)| json!({"models": models, "points": points}))
        .collect();
    let mut v = json!({
        "id": format!("10e:points:{}:{subject}", version.replace('.', "-")),
        "edition": "10e", "subject": format!("10e:{subject}"), "name": name,
        "tiers": tiers, "wargear": [],
        "publication": {"title": "Munitorum Field Manual", "version": version, "date": null},
        "sources": [{"file": "mfm.pdf", "line": 3, "sha256": "00"}]
    });
    if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
        o.extend(e);
    }
    v
}

/// A dataset folder with no records but `points`.
fn folder(dir: &Path, points: &[Value]) -> cogitator::dataset::LoadedDataset {
    let empty = json!([]);
    let files = [
        "datasheets",
        "stratagems",
        "rules",
        "enhancements",
        "detachments",
    ];
    let mut v = json!({"diagnostics": []});
    for f in files {
        v[f] = empty.clone();
    }
    util::write_dataset(dir, &v);
    let text = serde_json::to_string_pretty(points).expect("json");
    std::fs::write(dir.join("points.json"), text).expect("write");
    DatasetDir::read(dir).expect("read")
}

fn enhancement(version: &str, points: u32) -> Value {
    let subject = "tyranids:invasion-fleet:adaptive-biology";
    let kind = json!({"kind": "enhancement"});
    record(version, subject, "Adaptive Biology", &[(1, points)], kind)
}

fn carnifexes(version: &str, one: u32, bio_plasma: u32) -> Value {
    let wargear = json!({"wargear": [{"item": "Bio-plasma", "points": bio_plasma}]});
    let tiers = [(1, one), (2, 230)];
    record(
        version,
        "tyranids:carnifexes",
        "Carnifexes",
        &tiers,
        wargear,
    )
}

fn version_1_0() -> Vec<Value> {
    vec![
        carnifexes("1.0", 115, 10),
        record(
            "1.0",
            "tyranids:raveners",
            "Raveners",
            &[(3, 75)],
            json!({}),
        ),
        enhancement("1.0", 20),
    ]
}

fn version_1_1() -> Vec<Value> {
    let custodians = "adeptus-custodes:agamatus-custodians";
    let fw = json!({"forge_world": true});
    vec![
        carnifexes("1.1", 90, 15),
        record(
            "1.1",
            custodians,
            "Agamatus Custodians",
            &[(3, 280), (6, 560)],
            fw,
        ),
        enhancement("1.1", 25),
    ]
}

fn lines(d: &DatasetDiff) -> Vec<(Subject, &str)> {
    (d.changes.iter())
        .map(|e| (e.category, e.human.as_str()))
        .collect()
}

#[test]
fn points_changes_are_listed_in_the_games_terms() {
    let tmp = tempfile::tempdir().expect("tmp");
    let old = folder(&tmp.path().join("a"), &version_1_0());
    let new = folder(&tmp.path().join("b"), &version_1_1());
    let d = diff_datasets(&old, &new, &[]);
    assert_eq!(
        lines(&d),
        // Ordered by faction (the scope of the priced datasheet), then record.
        [
            (
                Subject::Record,
                "Agamatus Custodians: added, 3 models 280, 6 models 560 (Forge World)"
            ),
            (Subject::Record, "Raveners: removed (3 models 75)"),
            (Subject::Points, "Carnifexes › points › 1 model: 115 → 90"),
            (
                Subject::Points,
                "Carnifexes › wargear › Bio-plasma › points: 10 → 15"
            ),
            (Subject::Points, "Adaptive Biology › points: 20 → 25"),
        ]
    );
    assert!(d.changes.iter().all(|e| e.record_type == "points"));
    // A change names the NEW record's id (the OLD one's when removed).
    assert_eq!(
        d.changes[0].record,
        "10e:points:1-1:adeptus-custodes:agamatus-custodians"
    );
    assert_eq!(d.changes[1].record, "10e:points:1-0:tyranids:raveners");
    assert_eq!(d.changes[2].record, "10e:points:1-1:tyranids:carnifexes");
    assert_eq!(
        (d.summary.added, d.summary.removed, d.summary.renamed),
        (1, 1, 0)
    );

    // The default gate: a removed record fails, a changed cost does not; `categories:
    // [points]` makes every points change fail.
    let default = Policy::parse("gate-default.yaml", DEFAULT_POLICY).expect("policy");
    let rules: Vec<String> = (default.check(&d, None).violations.into_iter())
        .map(|v| v.rule)
        .collect();
    assert_eq!(rules, ["removed_records"]);
    let strict = Policy::parse("p.yaml", "fail_on:\n  categories: [points]\n").expect("policy");
    assert_eq!(strict.check(&d, None).violations.len(), 3);

    // The command: the same lines, the JSON's record type.
    let [a, b] = ["a", "b"].map(|x| tmp.path().join(x).display().to_string());
    let (code, out, err) = util::cogitator(&["diff", &a, &b]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  Carnifexes › points › 1 model: 115 → 90  [points]"),
        "{out}"
    );
    let (code, out, err) = util::cogitator(&["diff", &a, &b, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let by_faction = &v["summary"]["by_record_type"]["points"];
    assert_eq!(by_faction["adeptus-custodes"], 1, "{out}");
    assert_eq!(by_faction["tyranids"], 4, "{out}");
}

/// The same costs in a new version of the publication (every id and the publication moved) are
/// no change; tiers are told apart by unit count too (11th edition), and an added unit-count
/// tier is one change of that tier.
#[test]
fn a_new_version_with_the_same_costs_is_no_change() {
    let tmp = tempfile::tempdir().expect("tmp");
    let old = folder(&tmp.path().join("a"), &version_1_0());
    let same: Vec<Value> = (version_1_0().into_iter())
        .map(|mut r| {
            r["id"] = json!(r["id"].as_str().unwrap_or("").replace(":1-0:", ":1-1:"));
            r["publication"]["version"] = json!("1.1");
            r
        })
        .collect();
    let new = folder(&tmp.path().join("b"), &same);
    let d = diff_datasets(&old, &new, &[]);
    assert!(d.is_empty(), "{:?}", lines(&d));

    // A range from the first unit with no last is every unit: the same tier.
    let mut every_unit = same.clone();
    every_unit[1]["tiers"] = json!([{"models": 3, "points": 75, "units": {"from": 1}}]);
    let new = folder(&tmp.path().join("d"), &every_unit);
    let d = diff_datasets(&old, &new, &[]);
    assert!(d.is_empty(), "{:?}", lines(&d));

    let mut by_units = same.clone();
    by_units[1]["tiers"] = json!([
        {"models": 3, "points": 75, "units": {"from": 1, "to": 2}},
        {"models": 3, "points": 85, "units": {"from": 3}}
    ]);
    let new = folder(&tmp.path().join("c"), &by_units);
    let d = diff_datasets(&old, &new, &[]);
    assert_eq!(
        lines(&d),
        [
            (
                Subject::Points,
                "Raveners › points › 3 models: removed (75)"
            ),
            (
                Subject::Points,
                "Raveners › points › 3 models (units 1-2): added (75)"
            ),
            (
                Subject::Points,
                "Raveners › points › 3 models (units 3+): added (85)"
            ),
        ]
    );
}

/// The Munitorum Field Manual YAML of the corpus, ingested twice: no change.
#[test]
fn the_mfm_yaml_ingested_twice_is_no_change() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let data = corpus.join("mfm-11e/data").display().to_string();
    let tmp = tempfile::tempdir().expect("tmp");
    let [a, b] = ["a", "b"].map(|x| tmp.path().join(x).display().to_string());
    for out in [&a, &b] {
        let args = [
            "ingest",
            &data,
            "--out",
            out,
            "--no-validate",
            "--fail-on",
            "never",
        ];
        let (code, _, err) = util::cogitator(&args);
        assert_eq!(code, 0, "{err}");
    }
    let old = DatasetDir::read(&a).expect("read");
    assert!(old.points.len() > 1000, "{}", old.points.len());
    let d = diff_datasets(&old, &DatasetDir::read(&b).expect("read"), &[]);
    assert!(d.is_empty(), "{:?}", lines(&d));
    // Without one of its records, NEW lists that unit removed, and nothing else.
    let mut fewer = DatasetDir::read(&b).expect("read");
    let gone = fewer.points.remove(0);
    let d = diff_datasets(&old, &fewer, &[]);
    assert_eq!(d.changes.len(), 1, "{:?}", lines(&d));
    assert!(
        d.changes[0]
            .human
            .starts_with(&format!("{}: removed (", gone.name)),
        "{:?}",
        lines(&d)
    );
}
