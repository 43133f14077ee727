//! The golden check, once: the committed `output/` is byte for byte what `cogitator ingest raw`
//! gives today, file for file, with nothing missing and nothing extra; on failure it prints
//! `cogitator diff` of the two. It used to be written twice (in `pipeline.rs`, and as `diff -r`
//! in `.ci/run`, which now relies on this test), and the test copy returned early when
//! `output/manifest.json` was missing, so deleting the committed dataset made it pass.
//! [`golden_problems`] is the check; the known-bad cases below show that it fails.

use crate::util;
use std::collections::BTreeMap;
use std::path::Path;

/// Every regular file under `dir`, by path relative to `dir` (`/`-separated); none when `dir`
/// does not exist.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    if !dir.is_dir() {
        return out;
    }
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.expect("walk");
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(dir).expect("under dir");
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read(e.path()).expect("read"));
        }
    }
    out
}

/// What is wrong with `committed` as the dataset `fresh` (empty: nothing). A missing
/// `manifest.json` (or a missing directory) is a problem, never a reason to skip.
pub fn golden_problems(committed: &Path, fresh: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    if !committed.join("manifest.json").is_file() {
        problems.push(format!("{}/manifest.json is missing", committed.display()));
    }
    let (old, new) = (tree(committed), tree(fresh));
    if new.is_empty() {
        problems.push(format!(
            "the fresh ingest wrote nothing to {}",
            fresh.display()
        ));
    }
    for (rel, bytes) in &new {
        match old.get(rel) {
            None => problems.push(format!("output/{rel} is missing")),
            Some(b) if b != bytes => problems.push(format!("output/{rel} differs")),
            Some(_) => {}
        }
    }
    for rel in old.keys().filter(|r| !new.contains_key(*r)) {
        problems.push(format!("output/{rel} is not written by a fresh ingest"));
    }
    problems
}

/// `cogitator ingest raw --out DIR`: the fresh dataset.
fn fresh_ingest(out: &Path) {
    let raw = util::raw();
    let (code, _, err) = util::cogitator(&[
        "ingest",
        raw.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn committed_output_is_a_fresh_ingest_of_raw() {
    let tmp = tempfile::tempdir().expect("tmp");
    let fresh = tmp.path().join("output");
    fresh_ingest(&fresh);
    let committed = util::repo().join("output");
    let problems = golden_problems(&committed, &fresh);
    if !problems.is_empty() {
        // What changed in the game's terms, and what the default gate thinks of it.
        let (_, report, err) = util::cogitator(&[
            "diff",
            committed.to_str().expect("utf-8 path"),
            fresh.to_str().expect("utf-8 path"),
            "--all",
            "--gate",
            "default",
        ]);
        panic!(
            "output/ is stale: run `cargo run --release -- ingest` and commit the reviewed \
             diff:\n{}\n\n{report}{err}",
            problems.join("\n")
        );
    }
}

/// The check against known-bad copies of the committed output: no manifest, no directory at
/// all, one changed byte, one missing file, one extra file.
#[test]
fn the_golden_check_fails_on_known_bad_outputs() {
    let tmp = tempfile::tempdir().expect("tmp");
    // The committed output is a known-good tree; the bad copies are made from it.
    let fresh = util::repo().join("output");
    let copy = |name: &str| {
        let dir = tmp.path().join(name);
        for (rel, bytes) in tree(&fresh) {
            let p = dir.join(&rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, bytes).expect("write");
        }
        dir
    };
    assert_eq!(golden_problems(&copy("same"), &fresh), Vec::<String>::new());

    let no_manifest = copy("no-manifest");
    std::fs::remove_file(no_manifest.join("manifest.json")).expect("rm");
    let p = golden_problems(&no_manifest, &fresh);
    assert!(
        p.iter().any(|m| m.ends_with("manifest.json is missing")),
        "{p:?}"
    );

    let p = golden_problems(&tmp.path().join("never-written"), &fresh);
    assert!(
        p.iter().any(|m| m.ends_with("manifest.json is missing")),
        "{p:?}"
    );
    assert!(p.len() > 5, "every file is missing: {p:?}");

    let changed = copy("changed");
    let sheets = changed.join("datasheets.json");
    let mut bytes = std::fs::read(&sheets).expect("read");
    let at = bytes.len() / 2;
    bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
    std::fs::write(&sheets, bytes).expect("write");
    assert_eq!(
        golden_problems(&changed, &fresh),
        ["output/datasheets.json differs"]
    );

    let missing = copy("missing");
    std::fs::remove_file(missing.join("validation/expected-damage.csv")).expect("rm");
    assert_eq!(
        golden_problems(&missing, &fresh),
        ["output/validation/expected-damage.csv is missing"]
    );

    let extra = copy("extra");
    std::fs::write(extra.join("notes.txt"), "left over").expect("write");
    assert_eq!(
        golden_problems(&extra, &fresh),
        ["output/notes.txt is not written by a fresh ingest"]
    );
}
