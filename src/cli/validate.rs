//! `cogitator validate`: run a dataset's weapon profiles against reference targets.
//!
//! Owns file I/O (the panel; `DIR/datasheets.json` through `crate::dataset`; writing
//! `DIR/validation/expected-damage.csv`), printing and the exit code; the work is
//! `cogitator::validate::validate_datasheets`.

use crate::diag::{count_by_severity, Severity};
use crate::validate::{default_panel, expected_damage_csv, load_panel, validate_datasheets};
use anyhow::{anyhow, Context};
use std::path::PathBuf;

/// Arguments of `cogitator validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset directory holding `datasheets.json`.
    #[arg(default_value = "output")]
    pub dataset_dir: PathBuf,
    /// Reference target panel to use instead of the embedded `schemas/targets.yaml`.
    #[arg(long, value_name = "FILE")]
    pub targets: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let panel = match &args.targets {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            load_panel(&text).map_err(|e| anyhow!("{}:{e}", p.display()))?
        }
        None => default_panel(),
    };
    let sheets = crate::dataset::DatasetDir::open(&args.dataset_dir)?.datasheets()?;
    let (rows, diags) = validate_datasheets(&sheets, &panel);
    // Exclusively created, then renamed; refused through a symbolic link planted in the dataset.
    let csv = crate::emit::write_atomic(
        &args.dataset_dir,
        "validation/expected-damage.csv",
        expected_damage_csv(&rows).as_bytes(),
    )?;
    for d in &diags {
        errln!("{d}");
    }
    let [info, warn, err] = count_by_severity(&diags);
    outln!(
        "validated {} datasheets, {} weapon profiles against {} reference targets: {} rows → {}",
        sheets.len(),
        sheets.iter().map(|d| d.weapons.len()).sum::<usize>(),
        panel.len(),
        rows.len(),
        crate::text::escape::path(&csv)
    );
    outln!("diagnostics: {err} errors, {warn} warnings, {info} info");
    let failed = diags.iter().any(|d| d.severity == Severity::Error);
    Ok(if failed {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
