//! The re-check of an existing dataset behind `cogitator lint DATASET_DIR`: every record
//! validated against its published JSON Schema, every value against its edition's grammar and
//! the weapon-ability vocabulary, and the dataset's structural rules (`structure`: unit ranges,
//! translation keys, the rule hierarchy), without re-ingesting.
//!
//! Owns the mapping dataset file → record type ([`DATASET_FILES`]) and [`lint`]. Must not read
//! files (the CLI reads them and passes the parsed JSON) and must not change the dataset: a value
//! normalization would change is reported with the code of that normalization. The file names
//! are `crate::dataset`'s.

use super::{publish, structure, unique_keywords, Normalizer};
use crate::dataset;
use crate::diag::{sort_diagnostics, Code, Diagnostic};
use crate::model::Datasheet;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `(file, record type, is an array of records)` for every file of a dataset.
pub const DATASET_FILES: &[(&str, &str, bool)] = &[
    (dataset::DATASHEETS, "datasheet", true),
    (dataset::RULES, "rule", true),
    (dataset::STRATAGEMS, "stratagem", true),
    (dataset::ENHANCEMENTS, "enhancement", true),
    (dataset::DETACHMENTS, "detachment", true),
    (dataset::QUARANTINE, "quarantine_entry", true),
    (dataset::DIAGNOSTICS, "diagnostic", true),
    (dataset::MANIFEST, "manifest", false),
    (dataset::POINTS, "points", true),
    (dataset::ERRATA, "errata", true),
];

/// The files of [`DATASET_FILES`] a dataset may lack: written only when not empty.
pub const OPTIONAL_FILES: &[&str] = &[dataset::POINTS, dataset::ERRATA];

/// The records of file `name` that read as `T` (the others already have their schema errors).
fn typed<T: DeserializeOwned>(files: &[(String, Result<Value, String>)], name: &str) -> Vec<T> {
    let Some((_, Ok(Value::Array(a)))) = files.iter().find(|(f, _)| f == name) else {
        return Vec::new();
    };
    a.iter()
        .filter_map(|v| serde_json::from_value(v.clone()).ok())
        .collect()
}

fn record_label(record_type: &str, i: usize, v: &Value) -> String {
    match v.get("id").and_then(Value::as_str) {
        Some(id) => format!("{record_type} {id}"),
        None => format!("{record_type} #{i}"),
    }
}

/// Lints a dataset given as `(file name, parsed JSON or the read/parse error)`. Files of
/// [`DATASET_FILES`] that are absent are reported (`N113`). Findings sorted.
pub fn lint(files: &[(String, Result<Value, String>)]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, record_type, is_array) in DATASET_FILES {
        let Some((_, content)) = files.iter().find(|(f, _)| f == name) else {
            if !OPTIONAL_FILES.contains(name) {
                let d = Diagnostic::new(Code::NormDatasetUnreadable, "file missing");
                out.push(d.in_file(name));
            }
            continue;
        };
        let value = match content {
            Ok(v) => v,
            Err(e) => {
                out.push(Diagnostic::new(Code::NormDatasetUnreadable, e.clone()).in_file(name));
                continue;
            }
        };
        let records: Vec<&Value> = if *is_array {
            match value.as_array() {
                Some(a) => a.iter().collect(),
                None => {
                    out.push(
                        Diagnostic::new(Code::NormDatasetUnreadable, "expected a JSON array")
                            .in_file(name),
                    );
                    continue;
                }
            }
        } else {
            vec![value]
        };
        let mut datasheets = Vec::new();
        let mut n = Normalizer::for_lint(name);
        for (i, r) in records.iter().enumerate() {
            let label = record_label(record_type, i, r);
            let errors = publish::validate(record_type, r);
            // Datasheets also get the edition-exact value check; its findings name the value
            // and the rule, so they replace the schema's less precise pattern errors.
            let mut explained = false;
            if *record_type == "datasheet" {
                if let Ok(d) = serde_json::from_value::<Datasheet>((*r).clone()) {
                    let before = n.report.errors.len();
                    let _ = n.datasheet(d.clone());
                    explained = n.report.errors.len() > before;
                    datasheets.push(d);
                }
            }
            if explained {
                continue;
            }
            for e in errors {
                out.push(
                    Diagnostic::new(Code::NormSchemaInvalid, format!("{label}: {e}")).in_file(name),
                );
            }
        }
        if !datasheets.is_empty() {
            let (diags, _) = n.into_parts();
            out.extend(diags);
            out.extend(unique_keywords(&datasheets, Some(name)));
        }
    }
    let (datasheets, rules, stratagems, enhancements, detachments, points, errata) = (
        typed(files, dataset::DATASHEETS),
        typed(files, dataset::RULES),
        typed(files, dataset::STRATAGEMS),
        typed(files, dataset::ENHANCEMENTS),
        typed(files, dataset::DETACHMENTS),
        typed(files, dataset::POINTS),
        typed(files, dataset::ERRATA),
    );
    let records = structure::Records {
        datasheets: &datasheets,
        rules: &rules,
        stratagems: &stratagems,
        enhancements: &enhancements,
        detachments: &detachments,
        points: &points,
        errata: &errata,
    };
    for f in structure::check(records) {
        out.push(Diagnostic::new(f.code, f.message).in_file(f.file));
    }
    sort_diagnostics(&mut out);
    out
}
