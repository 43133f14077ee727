//! Stable ids: the same records get the same ids across file renames, unrelated edits and
//! input order, unnamed datasheets and rule variants included.

use super::util;
use cogitator::model::Dataset;
use std::path::{Path, PathBuf};

/// Every record's id, by record type, sorted.
fn ids(d: &Dataset) -> Vec<(&'static str, Vec<String>)> {
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    vec![
        (
            "datasheets",
            sorted(d.datasheets.iter().map(|r| r.id.clone()).collect()),
        ),
        (
            "rules",
            sorted(d.rules.iter().map(|r| r.id.clone()).collect()),
        ),
        (
            "stratagems",
            sorted(d.stratagems.iter().map(|r| r.id.clone()).collect()),
        ),
        (
            "enhancements",
            sorted(d.enhancements.iter().map(|r| r.id.clone()).collect()),
        ),
        (
            "detachments",
            sorted(d.detachments.iter().map(|r| r.id.clone()).collect()),
        ),
    ]
}

fn seeds() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(util::raw())
        .expect("raw/ is readable")
        .map(|e| e.expect("raw/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn ingest(inputs: &[PathBuf]) -> Dataset {
    cogitator::ingest(inputs, &Default::default()).expect("inputs are readable")
}

fn copy(from: &Path, to: &Path, append: &str) {
    let mut bytes = std::fs::read(from).expect("seed is readable");
    bytes.extend_from_slice(append.as_bytes());
    std::fs::write(to, bytes).expect("temp dir is writable");
}

#[test]
fn ids_survive_renames_unrelated_edits_and_input_order() {
    let files = seeds();
    let before = ingest(&files);
    let unnamed = before
        .datasheets
        .iter()
        .filter(|d| d.id.contains(":unnamed-"))
        .count();
    let variants = before.rules.iter().filter(|r| r.id.contains('~')).count();
    assert!(unnamed >= 2, "the seeds hold unnamed datasheets");
    assert!(variants >= 1, "the seeds hold rule variants");

    // Every seed renamed (the file holding an unnamed datasheet now sorts last, the one
    // holding the variants too) and an unrelated line appended to each.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut renamed = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let to = dir.path().join(format!("renamed_{}.txt", files.len() - i));
        copy(f, &to, "\n© Copyright Games Workshop Limited 2023\n");
        renamed.push(to);
    }
    same_ids("renamed and edited", &ingest(&renamed), &before);

    // Reversed input order.
    let mut reversed = files.clone();
    reversed.reverse();
    same_ids("reversed", &ingest(&reversed), &before);
}

/// Asserts both datasets hold the same ids, listing the ones only one of them has.
fn same_ids(what: &str, got: &Dataset, want: &Dataset) {
    for ((kind, g), (_, w)) in ids(got).into_iter().zip(ids(want)) {
        let only_got: Vec<&String> = g.iter().filter(|i| !w.contains(i)).collect();
        let only_want: Vec<&String> = w.iter().filter(|i| !g.contains(i)).collect();
        assert!(
            only_got.is_empty() && only_want.is_empty(),
            "{what}: {kind} ids changed\n  new: {only_got:?}\n  gone: {only_want:?}"
        );
    }
}
