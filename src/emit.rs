//! Emit: write a [`Dataset`] as the canonical JSON files of the output contract. I/O lives here.
//!
//! # Output contract (v1)
//! The output directory holds, each JSON file pretty-printed (2 spaces, trailing newline),
//! arrays sorted by `id`, no timestamps, no absolute paths:
//! `datasheets.json`, `rules.json`, `stratagems.json`, `enhancements.json`, `detachments.json`,
//! `quarantine.json` (records that broke a value rule), `diagnostics.json` (sorted by file, line,
//! code), `manifest.json` (inputs with sha256, bytes, format, status; counts; tool version),
//! `validation/expected-damage.csv`, and `schema/*.schema.json` (the published JSON Schemas).
//!
//! The directory is written to a sibling temporary directory and renamed into place, so an
//! interrupted run leaves the previous output untouched. Output is a pure function of the
//! dataset: the same dataset always gives byte-identical files.

use crate::model::Dataset;
use serde::Serialize;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Serializes like `serde_json::to_string_pretty`, plus a trailing newline.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("\"{e}\""));
    s.push('\n');
    s
}

/// Every file of the dataset as (relative path, contents), in a fixed order.
pub fn files(ds: &Dataset) -> Vec<(String, String)> {
    let mut out = vec![
        ("datasheets.json".to_string(), to_json(&ds.datasheets)),
        ("rules.json".to_string(), to_json(&ds.rules)),
        ("stratagems.json".to_string(), to_json(&ds.stratagems)),
        ("enhancements.json".to_string(), to_json(&ds.enhancements)),
        ("detachments.json".to_string(), to_json(&ds.detachments)),
        ("quarantine.json".to_string(), to_json(&ds.quarantine)),
        ("diagnostics.json".to_string(), to_json(&ds.diagnostics)),
        ("manifest.json".to_string(), to_json(&ds.manifest)),
    ];
    out.extend(ds.extra_files.iter().cloned());
    out
}

/// Whether `dir` holds a previous cogitator output (its `manifest.json` names the tool).
pub fn is_cogitator_output(dir: &Path) -> bool {
    let Ok(text) = fs::read_to_string(dir.join("manifest.json")) else {
        return false;
    };
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("tool")
                .and_then(|t| t.as_str())
                .map(|t| t == "cogitator")
        })
        .unwrap_or(false)
}

/// Writes the dataset to `out` atomically (temporary sibling directory, then rename).
pub fn write(ds: &Dataset, out: &Path) -> io::Result<()> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent)?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_string());
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        fs::remove_dir_all(&tmp)?;
    }
    fs::create_dir_all(&tmp)?;
    for (rel, contents) in files(ds) {
        let path = tmp.join(&rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        fs::write(path, contents)?;
    }
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    if out.exists() {
        fs::rename(out, &old)?;
    }
    fs::rename(&tmp, out)?;
    if old.exists() {
        fs::remove_dir_all(&old)?;
    }
    Ok(())
}
