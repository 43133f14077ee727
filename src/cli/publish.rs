//! `cogitator publish DATASET_DIR [--sqlite FILE] [--site DIR]`: publish a dataset as an SQLite
//! database and/or a static site.
//!
//! Owns the arguments, progress and exit codes; the artefacts are `crate::publish`'s.
//!
//! Exit codes: 0 published, 2 usage or I/O error (the dataset cannot be read, or the target is
//! refused: a file that is not a cogitator database, a symbolic link): nothing is written then.

use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `cogitator publish`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit codes: 0 published; 2 usage or I/O error, or a target refused \
                        (an existing FILE that is not a cogitator database): nothing written."
)]
pub struct Args {
    /// Dataset directory (what `cogitator ingest --out` wrote).
    pub dataset_dir: PathBuf,
    /// Write an SQLite database with full-text search to FILE (replaced atomically; an
    /// existing FILE must be a database cogitator wrote).
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
        let bar = progress_bar(crate::publish::sqlite::record_count(&dataset));
        let mut tick = || {
            if let Some(b) = &bar {
                b.inc(1);
            }
        };
        let written = crate::publish::sqlite::write(&dataset, path, &mut tick);
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        written?;
    }
    if let Some(dir) = &args.site {
        crate::publish::site::write(&dataset, dir)?;
    }
    Ok(super::EXIT_OK)
}

/// Records from which a publish shows a progress bar (the seeds publish at once).
const LONG_PUBLISH: u64 = 2_000;

/// A progress bar over `len` records, on a terminal only and for long publishes only.
fn progress_bar(len: u64) -> Option<indicatif::ProgressBar> {
    if len < LONG_PUBLISH || !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} records {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}
