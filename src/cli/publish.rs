//! `cogitator publish DATASET_DIR [--sqlite FILE] [--site DIR]`: publish a dataset as an SQLite
//! database and/or a static site.
//!
//! Owns the arguments, progress and exit codes; the artefacts are `crate::publish`'s.

use std::path::PathBuf;

/// Arguments of `cogitator publish`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset directory (what `cogitator ingest --out` wrote).
    pub dataset_dir: PathBuf,
    /// Write an SQLite database with full-text search to FILE.
    #[arg(long, value_name = "FILE")]
    pub sqlite: Option<PathBuf>,
    /// Write a static site into DIR.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.sqlite.is_none() && args.site.is_none() {
        errln!("error: nothing to publish: give --sqlite FILE and/or --site DIR");
        return Ok(super::EXIT_USAGE);
    }
    let dataset = crate::dataset::DatasetDir::read(&args.dataset_dir)?;
    if let Some(path) = &args.sqlite {
        crate::publish::sqlite::write(&dataset, path)?;
    }
    if let Some(dir) = &args.site {
        crate::publish::site::write(&dataset, dir)?;
    }
    Ok(super::EXIT_OK)
}
