//! `cogitator crosscheck --wahapedia-csv DIR [DATASET_DIR]`: compare a dataset's datasheets with
//! Wahapedia's CSV export.
//!
//! Owns file I/O (reading `DATASET_DIR/datasheets.json` through `crate::dataset`, writing the report file: `--report
//! FILE`, else `DATASET_DIR/crosscheck-report.json` when DATASET_DIR is given explicitly; with
//! the default dataset `output/` no report is written, so the committed output stays as ingest
//! wrote it), printing the summary (text, or one JSON object with
//! `--json`) and the exit code: 0 when the agreement with changes since the export set aside is
//! at least `--min-agreement`, 1 below it, 2 on a usage or I/O error. The comparison is
//! `cogitator::crosscheck::crosscheck`; this file must not compare anything itself, it never
//! changes the dataset files, and it never overwrites a file that is not a previous crosscheck
//! report (refused with exit 2 before comparing).

use crate::crosscheck::{crosscheck, Exported};
use std::path::{Path, PathBuf};

/// Default name of the report file, inside the dataset directory.
pub const REPORT_FILE: &str = "crosscheck-report.json";

/// Arguments of `cogitator crosscheck`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory of Wahapedia's CSV export (`Datasheets.csv`, `Datasheets_models.csv`, …).
    #[arg(long, value_name = "DIR")]
    pub wahapedia_csv: PathBuf,
    /// Dataset directory holding `datasheets.json` [default: output].
    pub dataset_dir: Option<PathBuf>,
    /// Where to write the report of every disagreement (JSON) [default:
    /// DATASET_DIR/crosscheck-report.json when DATASET_DIR is given; none for the default
    /// dataset, so `output/` is never written into]. An existing file is only overwritten when
    /// it is a previous crosscheck report.
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
        errln!(
            "--min-agreement must be a percentage (0 to 100), not {}",
            args.min_agreement
        );
        return Ok(super::EXIT_USAGE);
    }
    let report_path = (args.report.clone())
        .or_else(|| args.dataset_dir.as_ref().map(|dir| dir.join(REPORT_FILE)));
    if let Some(p) = &report_path {
        if let Some(why) = not_a_report(p) {
            errln!(
                "error: refusing to overwrite {}: {why}; nothing was written. Choose another \
                 --report FILE, or remove it yourself",
                crate::text::escape::path(p)
            );
            return Ok(super::EXIT_USAGE);
        }
    }
    let dataset_dir = args.dataset_dir.clone().unwrap_or_else(|| "output".into());
    let export = Exported::read_dir(&args.wahapedia_csv)?;
    let sheets = crate::dataset::DatasetDir::open(&dataset_dir)?.datasheets()?;

    let report = crosscheck(&export, &sheets);
    if let Some(p) = &report_path {
        write_report(p, &crate::emit::to_json(&report))?;
    }
    let where_ = match &report_path {
        Some(p) => format!("every disagreement is in {}", crate::text::escape::path(p)),
        None => format!(
            "no report written (the default dataset {}/ is left as ingest wrote it); \
             pass --report FILE for every disagreement",
            dataset_dir.display()
        ),
    };

    let s = &report.summary;
    let pass = s.fields_compared > 0 && s.agreement_pct_excluding_changes >= args.min_agreement;
    if args.json {
        let mut v = serde_json::to_value(s)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("min_agreement".into(), args.min_agreement.into());
            o.insert("pass".into(), pass.into());
            o.insert(
                "report".into(),
                report_path.as_ref().map(|p| p.display().to_string()).into(),
            );
        }
        outln_raw!("{}", serde_json::to_string(&v)?);
    } else {
        out!("{}", s.render());
        outln!(
            "{}: {:.2}% {} the required {:.2}%; {where_}",
            if pass { "pass" } else { "FAIL" },
            s.agreement_pct_excluding_changes,
            if pass { "meets" } else { "is below" },
            args.min_agreement,
        );
    }
    Ok(if pass {
        super::EXIT_OK
    } else {
        super::EXIT_FINDINGS
    })
}

/// Why `path` must not be overwritten: it exists and is not a previous crosscheck report.
fn not_a_report(path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return Some("it is not a regular file".into());
    }
    let is_report = std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| {
            ["summary", "matches", "unmatched", "disagreements"]
                .iter()
                .all(|k| v.get(k).is_some())
        });
    (!is_report).then(|| "it exists and is not a previous crosscheck report".into())
}

/// Writes the report through an exclusively created sibling temporary file and a rename
/// (`crate::emit::write_atomic`), so a reader never sees half a report and no link planted at
/// the report's name or its temporary name is followed.
fn write_report(path: &Path, json: &str) -> anyhow::Result<()> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        anyhow::bail!(
            "cannot write the report to {}: not a file name in UTF-8",
            crate::text::escape::path(path)
        );
    };
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    crate::emit::write_atomic(dir, name, json.as_bytes()).map(|_| ())
}
