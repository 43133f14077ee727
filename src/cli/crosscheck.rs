//! `cogitator crosscheck --wahapedia-csv DIR [DATASET_DIR]`: compare a dataset's datasheets with
//! Wahapedia's CSV export.
//!
//! Owns file I/O (reading `DATASET_DIR/datasheets.json`, writing the report file, default
//! `DATASET_DIR/crosscheck-report.json`), printing the summary (text, or one JSON object with
//! `--json`) and the exit code: 0 when the agreement with changes since the export set aside is
//! at least `--min-agreement`, 1 below it, 2 on a usage or I/O error. The comparison is
//! `cogitator::crosscheck::crosscheck`; this file must not compare anything itself, and it
//! never changes the dataset files.

use crate::crosscheck::{crosscheck, Export};
use crate::model::Datasheet;
use anyhow::Context;
use std::path::PathBuf;

/// Default name of the report file, inside the dataset directory.
pub const REPORT_FILE: &str = "crosscheck-report.json";

/// Arguments of `cogitator crosscheck`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory of Wahapedia's CSV export (`Datasheets.csv`, `Datasheets_models.csv`, …).
    #[arg(long, value_name = "DIR")]
    pub wahapedia_csv: PathBuf,
    /// Dataset directory holding `datasheets.json`.
    #[arg(default_value = "output")]
    pub dataset_dir: PathBuf,
    /// Where to write the report of every disagreement (JSON) [default:
    /// DATASET_DIR/crosscheck-report.json].
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Print the summary as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Lowest agreement (percent, with changes since the export set aside) that exits 0.
    #[arg(long, value_name = "PCT", default_value_t = 99.5)]
    pub min_agreement: f64,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    if !(0.0..=100.0).contains(&args.min_agreement) {
        eprintln!(
            "--min-agreement must be a percentage (0 to 100), not {}",
            args.min_agreement
        );
        return Ok(super::EXIT_USAGE);
    }
    let export = Export::read_dir(&args.wahapedia_csv)?;
    let path = args.dataset_dir.join("datasheets.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let sheets: Vec<Datasheet> =
        serde_json::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))?;

    let report = crosscheck(&export, &sheets);
    let report_path = args
        .report
        .clone()
        .unwrap_or_else(|| args.dataset_dir.join(REPORT_FILE));
    let mut json = serde_json::to_string_pretty(&report)?;
    json.push('\n');
    std::fs::write(&report_path, json)
        .with_context(|| format!("cannot write {}", report_path.display()))?;

    let s = &report.summary;
    let pass = s.fields_compared > 0 && s.agreement_pct_excluding_changes >= args.min_agreement;
    if args.json {
        let mut v = serde_json::to_value(s)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("min_agreement".into(), args.min_agreement.into());
            o.insert("pass".into(), pass.into());
            o.insert("report".into(), report_path.display().to_string().into());
        }
        outln!("{}", serde_json::to_string(&v)?);
    } else {
        out!("{}", s.render());
        outln!(
            "{}: {:.2}% {} the required {:.2}%; every disagreement is in {}",
            if pass { "pass" } else { "FAIL" },
            s.agreement_pct_excluding_changes,
            if pass { "meets" } else { "is below" },
            args.min_agreement,
            report_path.display()
        );
    }
    Ok(if pass {
        super::EXIT_OK
    } else {
        super::EXIT_FINDINGS
    })
}
