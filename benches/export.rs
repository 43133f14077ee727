//! Export benchmark (plain `fn main`, std::time): Wahapedia's whole CSV export ingested end to
//! end in memory (sniff → record source → normalize → merge → schema check → validate every
//! weapon against the reference panel) against bare `csv` crate parsing of the same tables
//! (pipe delimiter, no quoting, every record read) in the same run. Prints MB/s for each and
//! the end-to-end / bare-parse ratio.
//!
//! Run: `cargo bench --bench export [-- EXPORT_DIR]` (default
//! `../shared/corpus/wahapedia-csv/2025-11-14`).

use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;
use std::path::PathBuf;
use std::time::Instant;
#[path = "common/mod.rs"]
mod common;
use common::{input_arg, mbps, median};

const ROUNDS: usize = 5;

/// Every record of every table, as the `csv` crate reads them (the work cannot be skipped).
fn bare_parse(files: &[SourceFile]) -> usize {
    let mut fields = 0;
    for f in files {
        let mut r = csv::ReaderBuilder::new()
            .delimiter(b'|')
            .quoting(false)
            .flexible(true)
            .from_reader(f.bytes.as_slice());
        for rec in r.records().flatten() {
            fields += rec.len();
        }
    }
    fields
}

fn main() {
    let dir = input_arg("wahapedia-csv/2025-11-14");
    if !dir.is_dir() {
        eprintln!("skipped: export not found at {}", dir.display());
        return;
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("list export")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let files: Vec<SourceFile> = paths
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            SourceFile::new(name, std::fs::read(p).expect("read"))
        })
        .collect();
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    println!(
        "export: {} tables, {:.1} MB, {} threads, {} rounds (median)",
        files.len(),
        bytes as f64 / 1e6,
        rayon::current_num_threads(),
        ROUNDS
    );
    let mut bare = Vec::new();
    let mut full = Vec::new();
    let mut weapons = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        std::hint::black_box(bare_parse(&files));
        bare.push(t.elapsed());
        let t = Instant::now();
        let ds = run(&files, &[], &Options::default());
        full.push(t.elapsed());
        weapons = ds.manifest.totals.weapons;
        std::hint::black_box(ds);
    }
    let (b, f) = (median(bare), median(full));
    println!(
        "bare csv parse   {:>8.1} ms  {:>7.1} MB/s",
        b.as_secs_f64() * 1e3,
        mbps(bytes, b)
    );
    println!(
        "ingest+validate  {:>8.1} ms  {:>7.1} MB/s  ({weapons} weapon profiles validated)",
        f.as_secs_f64() * 1e3,
        mbps(bytes, f)
    );
    println!(
        "ratio            {:>8.1}× the bare parse",
        f.as_secs_f64() / b.as_secs_f64()
    );
}
