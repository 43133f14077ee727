//! PDF benchmark (plain `fn main`, std::time), per kind of Games Workshop PDF: a faction pack
//! (`../shared/corpus/pdf`), index cards (`pdf-index-cards`), points documents (`pdf-points`)
//! and errata (`pdf-errata`). For each kind, over all its files: the PDF decoder alone (lopdf
//! parse, content streams, fonts, layout into blocks), decode + extract (the records), and
//! `pdftotext -layout` on the same files in the same run when poppler-utils is installed.
//! Prints MB/s and ms per run (median of the rounds) and each speed ratio to pdftotext.
//!
//! Run: `cargo bench --bench pdf [-- FILE.pdf]` (a file given: that file alone).

use cogitator::source::SourceFile;
use cogitator::{decode, extract};
use std::path::PathBuf;
use std::time::{Duration, Instant};
#[path = "common/mod.rs"]
mod common;
use common::{files_under, mbps, median};

const ROUNDS: usize = 7;

/// The kinds the bench measures: (name, folder under `../shared/corpus`).
const KINDS: &[(&str, &str)] = &[
    ("faction pack", "pdf"),
    ("index cards", "pdf-index-cards"),
    ("points", "pdf-points"),
    ("errata", "pdf-errata"),
];

fn main() {
    let file = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if let Some(f) = file {
        bench_kind("file", vec![PathBuf::from(f)]);
        return;
    }
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    for (name, dir) in KINDS {
        let files = files_under(&corpus.join(dir), &["pdf"]);
        if files.is_empty() {
            println!(
                "{name}: skipped: no PDF under {}",
                corpus.join(dir).display()
            );
            continue;
        }
        bench_kind(name, files);
    }
}

/// Times decode, decode + extract and `pdftotext -layout` over `files` (each round the sum
/// over the files) and prints one block of figures for the kind.
fn bench_kind(name: &str, files: Vec<PathBuf>) {
    let sources: Vec<SourceFile> = files
        .iter()
        .filter_map(|p| std::fs::read(p).ok().map(|b| SourceFile::new("x.pdf", b)))
        .collect();
    let n: usize = sources.iter().map(|s| s.bytes.len()).sum();
    let (mut decode_times, mut all_times) = (Vec::new(), Vec::new());
    let (mut blocks, mut records) = (0, 0);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let docs: Vec<_> = sources.iter().map(decode::decode).collect();
        decode_times.push(t.elapsed());
        blocks = docs
            .iter()
            .filter_map(|d| d.document.as_ref())
            .map(|d| d.blocks.len())
            .sum();
        let t = Instant::now();
        records = 0;
        for s in &sources {
            if let Some(doc) = &decode::decode(s).document {
                let x = extract::extract(doc);
                records += x.datasheets.len() + x.points.len() + x.errata.len();
            }
        }
        all_times.push(t.elapsed());
    }
    let (dec, all) = (median(decode_times), median(all_times));
    println!(
        "{name}: {} files, {:.1} MB, {blocks} blocks, {records} records (datasheets, points, errata)",
        sources.len(),
        n as f64 / 1e6
    );
    row("pdf decode", n, dec);
    row("pdf decode + extract", n, all);
    let Some(o) = pdftotext(&files) else {
        println!("  pdftotext -layout    not installed (poppler-utils): no comparison in this run");
        return;
    };
    row("pdftotext -layout", n, o);
    println!(
        "  decode is {:.1}x, decode + extract {:.1}x pdftotext -layout",
        o.as_secs_f64() / dec.as_secs_f64(),
        o.as_secs_f64() / all.as_secs_f64()
    );
}

fn row(what: &str, n: usize, d: Duration) {
    println!(
        "  {what:<20} {:>8.1} ms  {:>7.1} MB/s  (median of {ROUNDS})",
        d.as_secs_f64() * 1e3,
        mbps(n, d)
    );
}

/// The median over the rounds of `pdftotext -layout` run on every file in turn; `None` when
/// it is not installed or fails.
fn pdftotext(files: &[PathBuf]) -> Option<Duration> {
    let mut times = Vec::new();
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for f in files {
            let out = std::process::Command::new("pdftotext")
                .arg("-layout")
                .arg(f)
                .arg("-")
                .output()
                .ok()?;
            if !out.status.success() {
                return None;
            }
        }
        times.push(t.elapsed());
    }
    Some(median(times))
}
