//! The one reader of a dataset directory (what `cogitator ingest` wrote): `datasheets.json`,
//! `rules.json`, `stratagems.json`, `enhancements.json`, `detachments.json`,
//! `quarantine.json`, `diagnostics.json`, `manifest.json`, and when written `points.json`,
//! `errata.json`, `reconciliation.json`.
//!
//! Owns the file names of a dataset and turning their JSON into the [`crate::model`] records,
//! with located errors (file, and serde's line and column). Datasets written before a field
//! existed read as far as the model marks that field `#[serde(default)]`. Used by every
//! subcommand that reads a dataset (`lint`, `validate`, `simulate`, `crosscheck`, `diff` and
//! `explain`). Must not change what it reads, validate values (that is
//! `normalize::lint`), or write anything.

use crate::diag::Diagnostic;
use crate::model::{
    Datasheet, Detachment, Enhancement, Erratum, Manifest, Points, Rule, Stratagem,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The files of a dataset, in the order `lint` reports them.
pub const DATASHEETS: &str = "datasheets.json";
pub const RULES: &str = "rules.json";
pub const STRATAGEMS: &str = "stratagems.json";
pub const ENHANCEMENTS: &str = "enhancements.json";
pub const DETACHMENTS: &str = "detachments.json";
pub const QUARANTINE: &str = "quarantine.json";
pub const DIAGNOSTICS: &str = "diagnostics.json";
pub const MANIFEST: &str = "manifest.json";
pub const RECONCILIATION: &str = "reconciliation.json";
/// Written only when a source prints points apart from datasheets.
pub const POINTS: &str = "points.json";
/// Written only when a source is an errata document.
pub const ERRATA: &str = "errata.json";

/// Why a dataset file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("not a directory: {}", .0.display())]
    NotADirectory(PathBuf),
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Invalid JSON, or JSON that is not the record type; `line`/`column` are serde's (1-based).
    #[error("{}:{line}:{column}: {message}", .path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl DatasetError {
    /// The message without the path (the path is the diagnostic's file).
    pub fn detail(&self) -> String {
        match self {
            DatasetError::NotADirectory(_) => "not a directory".to_string(),
            DatasetError::Read { source, .. } => format!("cannot read: {source}"),
            DatasetError::Parse {
                line,
                column,
                message,
                ..
            } => format!("line {line} column {column}: {message}"),
        }
    }
}

/// Every record file of a dataset, read and typed.
#[derive(Debug, Clone, Default)]
pub struct LoadedDataset {
    pub datasheets: Vec<Datasheet>,
    pub rules: Vec<Rule>,
    pub stratagems: Vec<Stratagem>,
    pub enhancements: Vec<Enhancement>,
    pub detachments: Vec<Detachment>,
    /// `points.json` (empty when the dataset has none).
    pub points: Vec<Points>,
    /// `errata.json` (empty when the dataset has none).
    pub errata: Vec<Erratum>,
    pub quarantine: Vec<Value>,
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when the dataset has no `manifest.json`.
    pub manifest: Option<Manifest>,
    /// `reconciliation.json` (`crate::reconcile`), when the dataset has one.
    pub reconciliation: Option<Value>,
}

impl From<crate::model::Dataset> for LoadedDataset {
    /// What `DatasetDir::read` would give for the directory `emit` writes from `d`.
    fn from(d: crate::model::Dataset) -> Self {
        LoadedDataset {
            datasheets: d.datasheets,
            rules: d.rules,
            stratagems: d.stratagems,
            enhancements: d.enhancements,
            detachments: d.detachments,
            points: d.points,
            errata: d.errata,
            quarantine: d.quarantine,
            diagnostics: d.diagnostics,
            manifest: Some(d.manifest),
            reconciliation: d
                .extra_files
                .iter()
                .find(|(p, _)| p == RECONCILIATION)
                .and_then(|(_, s)| serde_json::from_str(s).ok()),
        }
    }
}

/// A dataset directory. Files are read when asked for, so a command that needs only the
/// datasheets reads only `datasheets.json`.
#[derive(Debug, Clone)]
pub struct DatasetDir {
    root: PathBuf,
}

impl DatasetDir {
    /// A dataset directory; fails when `root` is not a directory.
    pub fn open(root: impl AsRef<Path>) -> Result<Self, DatasetError> {
        let root = root.as_ref().to_path_buf();
        if !root.is_dir() {
            return Err(DatasetError::NotADirectory(root));
        }
        Ok(DatasetDir { root })
    }

    /// Opens `root` and reads every record file ([`LoadedDataset`]). The record files are
    /// required; `manifest.json`, `quarantine.json`, `diagnostics.json`, `points.json` and `errata.json`
    /// may be absent.
    pub fn read(root: impl AsRef<Path>) -> Result<LoadedDataset, DatasetError> {
        let d = DatasetDir::open(root)?;
        Ok(LoadedDataset {
            datasheets: d.datasheets()?,
            rules: d.file(RULES)?,
            stratagems: d.file(STRATAGEMS)?,
            enhancements: d.file(ENHANCEMENTS)?,
            detachments: d.file(DETACHMENTS)?,
            points: d.optional(POINTS)?.unwrap_or_default(),
            errata: d.optional(ERRATA)?.unwrap_or_default(),
            quarantine: d.optional(QUARANTINE)?.unwrap_or_default(),
            diagnostics: d.optional(DIAGNOSTICS)?.unwrap_or_default(),
            manifest: d.optional(MANIFEST)?,
            reconciliation: d.optional(RECONCILIATION)?,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of one of the dataset's files.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// `datasheets.json`.
    pub fn datasheets(&self) -> Result<Vec<Datasheet>, DatasetError> {
        self.file(DATASHEETS)
    }

    /// One file of the dataset as `T`.
    pub fn file<T: DeserializeOwned>(&self, name: &str) -> Result<T, DatasetError> {
        let path = self.path(name);
        let text = std::fs::read_to_string(&path).map_err(|source| DatasetError::Read {
            path: path.clone(),
            source,
        })?;
        parse(&path, &text)
    }

    /// One file of the dataset as `T`, `None` when the file does not exist.
    pub fn optional<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, DatasetError> {
        if !self.path(name).exists() {
            return Ok(None);
        }
        self.file(name).map(Some)
    }

    /// The files among `names` that exist, each as untyped JSON or its read/parse error (the
    /// schema re-check of `lint` works on the JSON as written, not on what the model accepts).
    pub fn raw(&self, names: &[&str]) -> Vec<(String, Result<Value, DatasetError>)> {
        names
            .iter()
            .filter(|n| self.path(n).exists())
            .map(|n| (n.to_string(), self.file::<Value>(n)))
            .collect()
    }
}

/// `text` (the contents of `path`) as `T`, with serde's line and column on failure.
pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, DatasetError> {
    serde_json::from_str(text).map_err(|e| DatasetError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })
}

/// serde_json appends ` at line L column C` to its messages; the error carries them apart.
fn strip_position(m: &str) -> String {
    match m.rfind(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (n, t) in files {
            std::fs::write(d.path().join(n), t).unwrap();
        }
        d
    }

    #[test]
    fn parse_error_names_file_line_and_column() {
        let d = dir(&[(DATASHEETS, "[\n  {\"id\": 3}\n]")]);
        let e = DatasetDir::open(d.path())
            .unwrap()
            .datasheets()
            .unwrap_err();
        match &e {
            DatasetError::Parse { line, path, .. } => {
                assert_eq!(*line, 2);
                assert!(path.ends_with(DATASHEETS));
            }
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().contains("datasheets.json:2:"), "{e}");
    }

    #[test]
    fn missing_file_is_a_read_error_and_optional_is_none() {
        let d = dir(&[]);
        let ds = DatasetDir::open(d.path()).unwrap();
        assert!(matches!(ds.datasheets(), Err(DatasetError::Read { .. })));
        assert!(ds.optional::<Manifest>(MANIFEST).unwrap().is_none());
        assert!(ds.raw(&[DATASHEETS]).is_empty());
    }

    #[test]
    fn not_a_directory() {
        assert!(matches!(
            DatasetDir::open("/nonexistent/cogitator"),
            Err(DatasetError::NotADirectory(_))
        ));
    }
}
