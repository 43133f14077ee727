//! `cogitator ingest`: discover inputs, run the pipeline, write the dataset, print a summary.

use crate::diag::Severity;
use crate::model::{Dataset, InputStatus};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `cogitator ingest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or directories to read (default: `raw/`).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output directory (default: `output/`).
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
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

pub fn run(args: Args) -> anyhow::Result<i32> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("raw")]
    } else {
        args.paths.clone()
    };
    for p in &paths {
        if !p.exists() {
            eprintln!("error: input path not found: {}", p.display());
            return Ok(super::EXIT_USAGE);
        }
    }
    let discover_opts = crate::discover::Options {
        max_file_size: args.max_file_size,
        exclude: vec![args.out.clone()],
    };
    let found = crate::discover::discover_with(&paths, &discover_opts)?;
    let bar = progress_bar(found.sources.len() as u64);
    let opts = crate::pipeline::Options {
        on_file: bar.as_ref().map(|_| tick as fn()),
        skip_validation: args.no_validate,
    };
    let dataset = crate::pipeline::run(&found.sources, &found.failed, &opts);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    crate::emit::write(&dataset, &args.out)?;
    print_summary(&dataset, &args.out, args.verbose);
    let failed = dataset
        .manifest
        .inputs
        .iter()
        .any(|i| i.status == InputStatus::Failed);
    if failed || dataset.manifest.diagnostics.error > 0 {
        Ok(super::EXIT_FINDINGS)
    } else {
        Ok(super::EXIT_OK)
    }
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
        "  inputs       {} files ({}); {}",
        m.inputs.len(),
        fmt_list(&by_format),
        fmt_list(&by_status)
    );
    outln!("  datasheets   {}", m.totals.datasheets);
    outln!("  weapons      {} profiles", m.totals.weapons);
    outln!(
        "  rules        {} (from {} paragraphs)",
        m.totals.rules,
        m.rule_occurrences
    );
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
    let chrome: usize = m.inputs.iter().map(|i| i.chrome_dropped).sum();
    outln!("  chrome       {chrome} blocks dropped");
    outln!(
        "  diagnostics  {} error, {} warning, {} info",
        m.diagnostics.error,
        m.diagnostics.warning,
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
        out.display()
    );
}
