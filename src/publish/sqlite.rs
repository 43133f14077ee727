//! The SQLite database of a dataset: a table per record type, provenance on every row, an
//! FTS5 index over rule, ability and stratagem text (issue 29).
//!
//! Owns the schema and the writing of the database file. Must not run the pipeline.

use crate::dataset::LoadedDataset;
use std::path::Path;

/// Writes `dataset` into a new SQLite database at `path`.
pub fn write(_dataset: &LoadedDataset, _path: &Path) -> anyhow::Result<()> {
    anyhow::bail!("publishing to SQLite is not built yet")
}
