//! Trust work on `cogitator diff` and the gate (issue 24): linear pairing of large lists,
//! the values of added and removed tiers and records, word-level text changes, plurals,
//! keywords the simulator does not model, annotation anchors and policy value checks. Every
//! input is generated here.

use cogitator::dataset::LoadedDataset;
use cogitator::diff::dataset::{diff_datasets, DatasetDiff, EntryKind};
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
    let count = |k: EntryKind| d.changes.iter().filter(|e| e.kind == k).count();
    assert_eq!(count(EntryKind::Changed), changed);
    assert_eq!(count(EntryKind::Removed), 10);
    assert_eq!(count(EntryKind::Added), 10);
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
    assert_eq!(gone.kind, EntryKind::Removed);
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
