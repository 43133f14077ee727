//! BattleScribe JSON (`records::bsdata::json`: New Recruit's serialization of the `.cat`/`.gst`
//! data model): the one-reader law (the same catalogue as XML and as JSON gives the same
//! records), hand-written fixtures of the format's traps (`tests/fixtures/bsdata-json/`, each
//! named after its trap, with `insta` snapshots), and the 11th-edition corpus
//! (`../shared/corpus/bsdata/wh40k-11e`: skipped without it, failing with
//! `COGITATOR_REQUIRE_CORPUS=1`).

use crate::util;
use cogitator::extract::Extracted;
use cogitator::records::{bsdata, Group};
use cogitator::source::SourceFile;
use serde_json::Value;
use std::path::Path;

/// The files of a fixture directory (recursively, sorted), with paths relative to
/// `tests/fixtures/bsdata-json`.
fn fixture_files(dir: &str) -> Vec<SourceFile> {
    let base = util::repo().join("tests/fixtures/bsdata-json");
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(base.join(dir)).sort_by_file_name() {
        let e = e.expect("walk fixture");
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(&base).expect("under base");
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.push(SourceFile::new(
                rel,
                std::fs::read(e.path()).expect("read fixture"),
            ));
        }
    }
    assert!(!out.is_empty(), "no files in {dir}");
    out
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

fn codes(ex: &[Extracted]) -> Vec<String> {
    let mut c: Vec<String> = ex
        .iter()
        .flat_map(|e| e.diagnostics.iter().map(|d| d.code.to_string()))
        .collect();
    c.sort();
    c
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
    let ds = json
        .iter()
        .flat_map(|e| &e.datasheets)
        .find(|d| d.name.as_deref() == Some("Warriors"))
        .expect("Warriors");
    for w in &ds.weapons {
        assert!(w.at.file.ends_with("necrons.json"), "{:?}", w.at);
        let line = w.at.line as usize;
        assert_eq!(lines[line - 1].trim(), "{", "{}: {:?}", w.name, w.at);
        let object: String = lines[line..].iter().take(4).copied().collect();
        assert!(object.contains("\"id\""), "{object}");
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
    for i in &ds.manifest.inputs {
        assert_eq!(i.format, "json", "{}", i.file);
        assert_eq!(i.status, cogitator::model::InputStatus::Ok, "{}", i.file);
    }
    assert_eq!(ds.datasheets.len(), 3);
}
