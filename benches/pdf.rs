//! PDF benchmark (plain `fn main`, std::time): the PDF decoder (lopdf parse, content streams,
//! fonts, layout into blocks) on a faction pack, then decode + extract (the records), and
//! `pdftotext -layout` on the same file in the same run when poppler-utils is installed.
//! Prints MB/s and ms per run (median of the rounds) and the speed ratio to pdftotext.
//!
//! Run: `cargo bench --bench pdf [-- FILE.pdf]` (default: the Space Wolves faction pack in
//! `../shared/corpus/pdf`).

use cogitator::source::SourceFile;
use cogitator::{decode, extract};
use std::time::Instant;
#[path = "common/mod.rs"]
mod common;
use common::{input_arg, mbps, median};

const ROUNDS: usize = 9;

fn main() {
    let path = input_arg("pdf/eng_08-10_warhammer40000_faction_pack_space_wolves.pdf");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} not found", path.display());
        return;
    };
    let src = SourceFile::new("pack.pdf", bytes);
    let n = src.bytes.len();
    let mut decode_times = Vec::new();
    let mut all_times = Vec::new();
    let mut words = 0;
    let mut blocks = 0;
    let mut datasheets = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let d = decode::decode(&src);
        decode_times.push(t.elapsed());
        let t = Instant::now();
        let d2 = decode::decode(&src);
        if let Some(doc) = &d2.document {
            datasheets = extract::extract(doc).datasheets.len();
        }
        all_times.push(t.elapsed());
        if let Some(doc) = d.document {
            blocks = doc.blocks.len();
            words = doc
                .blocks
                .iter()
                .map(|b| b.text.split_whitespace().filter(|w| *w != "|").count())
                .sum();
        }
    }
    let dec = median(decode_times);
    let all = median(all_times);
    println!(
        "{}: {:.1} MB, {blocks} blocks, {words} words, {datasheets} datasheets",
        path.display(),
        n as f64 / 1e6
    );
    println!(
        "pdf decode           {:>8.1} ms  {:>7.1} MB/s  (median of {ROUNDS})",
        dec.as_secs_f64() * 1e3,
        mbps(n, dec)
    );
    println!(
        "pdf decode + extract {:>8.1} ms  {:>7.1} MB/s",
        all.as_secs_f64() * 1e3,
        mbps(n, all)
    );
    let mut oracle = Vec::new();
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let out = std::process::Command::new("pdftotext")
            .arg("-layout")
            .arg(&path)
            .arg("-")
            .output();
        match out {
            Ok(o) if o.status.success() => oracle.push(t.elapsed()),
            _ => break,
        }
    }
    if oracle.is_empty() {
        println!("pdftotext -layout    not installed (poppler-utils): no comparison in this run");
        return;
    }
    let o = median(oracle);
    println!(
        "pdftotext -layout    {:>8.1} ms  {:>7.1} MB/s",
        o.as_secs_f64() * 1e3,
        mbps(n, o)
    );
    println!(
        "decode is {:.1}x pdftotext -layout",
        o.as_secs_f64() / dec.as_secs_f64()
    );
}
