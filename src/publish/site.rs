//! The static site of a dataset: an index by faction and edition, a page per datasheet, rule
//! and stratagem, every value linked to its source (issue 29).
//!
//! Owns the pages and their assets. Must not run the pipeline or load anything from outside the
//! site directory when viewed.

use crate::dataset::LoadedDataset;
use std::path::Path;

/// Writes the site of `dataset` into the directory `dir`.
pub fn write(_dataset: &LoadedDataset, _dir: &Path) -> anyhow::Result<()> {
    anyhow::bail!("publishing a site is not built yet")
}
