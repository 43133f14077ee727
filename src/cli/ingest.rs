//! `cogitator ingest`: check the output directory, discover inputs, run the pipeline, write the
//! dataset, print a summary.
//!
//! Owns the order of the safety checks: the output directory is checked (what it may replace,
//! overlap with the inputs, writability; `cogitator::emit::prepare`) before any input is read,
//! and leftover notes (`S011`) are printed on stderr. It must not decide itself what may be
//! replaced: that is `emit`'s.

use super::plural;
use crate::diag::Severity;
use crate::model::{Dataset, InputStatus};
use crate::text::escape;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `cogitator ingest`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Files or directories to read (default: `raw/`).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output directory, replaced as a whole and atomically; only a new or empty directory or a
    /// previous cogitator output (see below). A symbolic link is written through.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Replace --out even when it is not a cogitator output or holds entries cogitator did not
    /// write (they are named on stderr, then deleted). Never a git checkout, `.`, or an input.
    #[arg(long)]
    pub force: bool,
    /// Print every warning and error diagnostic, not only the summary.
    #[arg(long, short)]
    pub verbose: bool,
    /// Do not run the weapon profiles through the simulator at the end.
    #[arg(long)]
    pub no_validate: bool,
    /// Largest input file read; larger files are skipped with S012 (bytes, or with a K, M or G
    /// suffix: `200M`).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub max_file_size: u64,
    /// What makes the exit code 1: `error` (an input failed or an error diagnostic exists),
    /// `warning` (also any warning) or `never` (findings are reported, the exit code stays 0;
    /// for CI jobs whose sources carry errors of their own). Usage and I/O errors still exit 2.
    #[arg(long, value_name = "LEVEL", value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
}

/// The `--fail-on` level: the least severe finding that makes `ingest` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// An input failed or an error diagnostic exists.
    Error,
    /// As `error`, or any warning diagnostic.
    Warning,
    /// Never: findings do not change the exit code.
    Never,
}

/// `123`, `64K`, `64M`, `1G` (binary units; `KiB`, `MB` and the like read the same).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size (bytes, or a number with K, M or G)"))?;
    let mult: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => return Err(format!("'{s}': unknown unit '{unit}' (use K, M or G)")),
    };
    match n.checked_mul(mult) {
        Some(v) if v > 0 => Ok(v),
        Some(_) => Err("the size limit must be at least 1 byte".to_string()),
        None => Err(format!("'{s}' is too large")),
    }
}

const AFTER_HELP: &str = "\
The output directory (--out):
  replaced only when it does not exist, is empty, or is a previous cogitator output holding
  nothing but the files its manifest.json lists (an added NOTES.md is refused and named);
  any other directory is refused unless --force (which names what it deletes, then deletes it).
  Refused always: a file, `.`, the current directory, a git checkout (holds .git), an input
  or a directory holding or inside an input. The directory's permissions are kept.
  A symbolic link is written through: its target is replaced, the link kept.
  The swap is atomic: the directory holds the complete old or the complete new dataset at
  every instant; leftovers of an interrupted run (.DIR.tmp-*, .DIR.old-*) are recovered or
  removed by the next run (S011).

Exit codes:
  0  every input processed, no error diagnostic (warnings allowed); with --fail-on never,
     also when there are findings
  1  findings: an input failed or an error diagnostic exists (the output is still written);
     with --fail-on warning, also any warning
  2  usage or fatal error (refused --out, unwritable output, missing input): nothing written
A closed stdout or stderr (`cogitator ingest | head`) is not an error: output stops quietly
and the exit code is the one above.";

pub fn run(args: Args) -> anyhow::Result<i32> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("raw")]
    } else {
        args.paths.clone()
    };
    for p in &paths {
        if !p.exists() {
            errln!("error: input path not found: {}", escape::path(p));
            return Ok(super::EXIT_USAGE);
        }
    }
    let target = crate::emit::prepare(&args.out, &paths, args.force)?;
    for d in &target.notes {
        errln!("{d}");
    }
    if target.replaces == crate::emit::Replaces::Forced {
        let shown = crate::text::escape::path(&args.out);
        if target.foreign.iter().any(|f| f == "*") {
            errln!(
                "warning: --force: {shown} is not a cogitator output; everything in it will be \
                 deleted"
            );
        } else {
            errln!(
                "warning: --force: these entries of {shown} were not written by cogitator and \
                 will be deleted: {}",
                crate::emit::named(&target.foreign)
            );
        }
    }
    let discover_opts = crate::discover::Options {
        max_file_size: args.max_file_size,
        exclude: vec![args.out.clone()],
    };
    let found = match crate::discover::discover_with(&paths, &discover_opts) {
        Ok(found) => found,
        Err(e) => {
            target.abandon();
            return Err(e.into());
        }
    };
    let bar = progress_bar(found.sources.len() as u64);
    let opts = crate::pipeline::Options {
        on_file: bar.as_ref().map(|_| tick as fn()),
        skip_validation: args.no_validate,
        on_input: None,
    };
    let dataset = crate::pipeline::run(&found.sources, &found.failed, &opts);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    for d in crate::emit::commit(&dataset, target)? {
        errln!("{d}");
    }
    print_summary(&dataset, &args.out, args.verbose);
    let failed = dataset
        .manifest
        .inputs
        .iter()
        .any(|i| i.status == InputStatus::Failed);
    let errors = failed || dataset.manifest.diagnostics.error > 0;
    let fail = match args.fail_on {
        FailOn::Error => errors,
        FailOn::Warning => errors || dataset.manifest.diagnostics.warning > 0,
        FailOn::Never => false,
    };
    // The process ends with this command: freeing the dataset's many small allocations one
    // by one would only cost time.
    std::mem::forget(dataset);
    Ok(if fail {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}

static BAR: std::sync::OnceLock<indicatif::ProgressBar> = std::sync::OnceLock::new();

fn tick() {
    if let Some(b) = BAR.get() {
        b.inc(1);
    }
}

/// A progress bar over files, only when stderr is a terminal.
fn progress_bar(len: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let bar = BAR.get_or_init(|| indicatif::ProgressBar::new(0)).clone();
    bar.set_length(len);
    bar.set_position(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} files {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

fn print_summary(ds: &Dataset, out: &std::path::Path, verbose: bool) {
    let m = &ds.manifest;
    let mut by_format: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
    for i in &m.inputs {
        *by_format.entry(i.format.clone()).or_default() += 1;
        *by_status
            .entry(format!("{:?}", i.status).to_lowercase())
            .or_default() += 1;
    }
    let fmt_list = |m: &BTreeMap<String, usize>| {
        m.iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    outln!("cogitator {} — ingest summary", m.version);
    outln!(
        "  inputs       {} ({}); {}",
        plural(m.inputs.len(), "file", "files"),
        fmt_list(&by_format),
        fmt_list(&by_status)
    );
    for line in not_processed(ds, MAX_LISTED, verbose) {
        outln!("{line}");
    }
    outln!("  datasheets   {}", m.totals.datasheets);
    outln!(
        "  weapons      {}",
        plural(m.totals.weapons, "profile", "profiles")
    );
    outln!(
        "  rules        {} (from {} paragraphs)",
        m.totals.rules,
        m.rule_occurrences
    );
    let clusters = ds.rules.iter().filter(|r| !r.variants.is_empty()).count();
    if clusters > 0 {
        let variants: usize = ds.rules.iter().map(|r| r.variants.len()).sum();
        outln!("  clusters     {clusters} rules printed with other wordings ({variants} variants; rule-clusters.json)");
    }
    outln!("  stratagems   {}", m.totals.stratagems);
    outln!("  enhancements {}", m.totals.enhancements);
    outln!("  detachments  {}", m.totals.detachments);
    if let Some((_, csv)) = ds
        .extra_files
        .iter()
        .find(|(p, _)| p.ends_with("expected-damage.csv"))
    {
        let rows = csv.lines().count().saturating_sub(1);
        outln!(
            "  validation   {rows} weapon × target rows simulated (validation/expected-damage.csv)"
        );
    }
    for line in reconciliation_lines(ds) {
        outln!("{line}");
    }
    let chrome: usize = m.inputs.iter().map(|i| i.chrome_dropped).sum();
    outln!(
        "  chrome       {} dropped",
        plural(chrome, "block", "blocks")
    );
    outln!(
        "  diagnostics  {}, {}, {} info",
        plural(m.diagnostics.error, "error", "errors"),
        plural(m.diagnostics.warning, "warning", "warnings"),
        m.diagnostics.info
    );
    let mut by_code: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &ds.diagnostics {
        if d.severity >= Severity::Warning {
            *by_code.entry(d.code.as_str()).or_default() += 1;
        }
    }
    if !by_code.is_empty() {
        let codes: Vec<String> = by_code.iter().map(|(c, n)| format!("{c}×{n}")).collect();
        outln!("               by code: {}", codes.join(" "));
    }
    if verbose {
        for d in ds
            .diagnostics
            .iter()
            .filter(|d| d.severity >= Severity::Warning)
        {
            outln!("  {d}");
        }
    }
    outln!(
        "  written to   {}/ (see manifest.json, diagnostics.json)",
        escape::path(out)
    );
}

/// Lines of the summary's list of inputs not processed.
const MAX_LISTED: usize = 20;

/// The inputs that were skipped or failed: status, path, detected format and the first warning
/// or error diagnostic. Three or more of one folder with the same status, format and finding
/// share a line (`skipped      wahapedia-csv/2025-11-14/ (20 csv files): S007 …`). At most
/// `max` lines unless `all`, then `… and N more`.
fn not_processed(ds: &Dataset, max: usize, all: bool) -> Vec<String> {
    // (status, folder, format, finding) → files, in path order.
    type Key = (String, String, String, String);
    let mut groups: Vec<(Key, Vec<&str>)> = Vec::new();
    for i in &ds.manifest.inputs {
        if !matches!(i.status, InputStatus::Skipped | InputStatus::Failed) {
            continue;
        }
        let status = format!("{:?}", i.status).to_lowercase();
        let folder = i.file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let finding = ds
            .diagnostics
            .iter()
            .find(|d| d.severity >= Severity::Warning && d.file.as_deref() == Some(&i.file))
            .map(|d| format!(": {} {}", d.code, escape::display(&d.message)))
            .unwrap_or_default();
        let key = (status, folder.to_string(), i.format.clone(), finding);
        match groups.last_mut() {
            Some((k, files)) if *k == key => files.push(&i.file),
            _ => groups.push((key, vec![&i.file])),
        }
    }
    let mut lines: Vec<String> = Vec::new();
    for ((status, folder, format, finding), files) in &groups {
        if files.len() >= 3 {
            lines.push(format!(
                "  {status:<12} {}/ ({} {format} files){finding}",
                escape::display(folder),
                files.len()
            ));
        } else {
            for f in files {
                lines.push(format!(
                    "  {status:<12} {} ({format}){finding}",
                    escape::display(f)
                ));
            }
        }
    }
    if !all && lines.len() > max {
        let more = lines.len() - max;
        lines.truncate(max);
        lines.push(format!(
            "  … and {more} more (-v lists them all; every input is in manifest.json)"
        ));
    }
    lines
}

/// The summary's reconciliation table: per faction, the datasheets two or more sources print,
/// each pair's agreement, the fields all of three or more sources agree on, and the
/// differences by category (read back from `reconciliation.json`; none when it is absent).
fn reconciliation_lines(ds: &Dataset) -> Vec<String> {
    let Some((name, json)) = ds
        .extra_files
        .iter()
        .find(|(p, _)| p == "reconciliation.json")
    else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
        return Vec::new();
    };
    let empty = Vec::new();
    let factions = v["factions"].as_array().unwrap_or(&empty);
    let sheets: u64 = factions
        .iter()
        .filter_map(|f| f["datasheets"].as_u64())
        .sum();
    let mut out = vec![format!(
        "  reconciled   {} printed by two or more sources ({name}):",
        plural(sheets as usize, "datasheet", "datasheets")
    )];
    for f in factions {
        let mut parts: Vec<String> = Vec::new();
        for p in f["pairs"].as_array().unwrap_or(&empty) {
            parts.push(format!(
                "{}/{} {:.1}% of {}",
                p["sources"][0].as_str().unwrap_or(""),
                p["sources"][1].as_str().unwrap_or(""),
                p["percent"].as_f64().unwrap_or(0.0),
                p["checks"].as_u64().unwrap_or(0)
            ));
        }
        let all = &f["all_sources"];
        if all["checks"].as_u64().unwrap_or(0) > 0 {
            parts.push(format!(
                "all agree {} of {}",
                all["agree"].as_u64().unwrap_or(0),
                all["checks"].as_u64().unwrap_or(0)
            ));
        }
        let cats: Vec<String> = f["categories"]
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, n)| format!("{k} {}", n.as_u64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        if !cats.is_empty() {
            parts.push(cats.join(", "));
        }
        out.push(format!(
            "    {:<20} {:>4}  {}",
            escape::display(f["faction"].as_str().unwrap_or("-")),
            f["datasheets"].as_u64().unwrap_or(0),
            parts.join(" · ")
        ));
    }
    out
}
