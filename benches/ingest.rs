//! Ingest benchmark (plain `fn main`, std::time): the whole Wahapedia HTML corpus end to end
//! (read → decode → extract → normalize → dedup → simulate/validate → emit) against the bare
//! `scraper::Html::parse_document` over the same files in the same run, on one core and on
//! all cores. Prints MB/s for each, the end-to-end / bare-parse ratio, and peak memory.
//!
//! Run: `cargo bench --bench ingest [-- CORPUS_DIR]` (default `../shared/corpus/wahapedia-html`).

use cogitator::decode::html::parse_only;
use cogitator::pipeline::Options;
use rayon::prelude::*;
use std::time::Instant;
#[path = "common/mod.rs"]
mod common;
use common::{files_under, input_arg, mbps, median};

const ROUNDS: usize = 7;

/// Peak resident set size of this process, from /proc (Linux), in MB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let dir = input_arg("wahapedia-html");
    if !dir.is_dir() {
        eprintln!("skipped: corpus not found at {}", dir.display());
        return;
    }
    let files = files_under(&dir, &["html"]);
    let texts: Vec<String> = files
        .iter()
        .map(|f| String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let threads = rayon::current_num_threads();
    println!(
        "corpus: {} files, {:.1} MB, {} threads, {} rounds (median)",
        files.len(),
        bytes as f64 / 1e6,
        threads,
        ROUNDS
    );

    // Interleaved rounds, so the bare parse and the ingest see the same machine conditions.
    let tmp = tempfile::tempdir().expect("temporary directory");
    let out = tmp.path();
    let (mut one, mut all, mut ingest_times, mut ingest_no_validate) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let t = Instant::now();
        let n: usize = texts.par_iter().map(|s| parse_only(s)).sum();
        std::hint::black_box(n);
        all.push(t.elapsed());
        // Alternate which ingest comes first, so neither always follows the bare parse.
        let order = if round % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        for validate in order {
            let times = if validate {
                &mut ingest_times
            } else {
                &mut ingest_no_validate
            };
            let t = Instant::now();
            let ds = cogitator::ingest(
                std::slice::from_ref(&dir),
                &Options {
                    skip_validation: !validate,
                    ..Options::default()
                },
            )
            .expect("ingest");
            cogitator::emit::write(&ds, &out.join(format!("out-{round}-{validate}")))
                .expect("emit");
            times.push(t.elapsed());
        }
        let t = Instant::now();
        let n: usize = texts.iter().map(|s| parse_only(s)).sum();
        std::hint::black_box(n);
        one.push(t.elapsed());
    }
    let (parse_one_core, parse_all) = (median(one), median(all));
    let e2e = median(ingest_times);
    let e2e_nv = median(ingest_no_validate);
    println!(
        "bare scraper parse, 1 core      {:>8.1} MB/s  ({:.0} ms)",
        mbps(bytes, parse_one_core),
        parse_one_core.as_secs_f64() * 1e3
    );
    println!(
        "bare scraper parse, {threads} threads   {:>8.1} MB/s  ({:.0} ms)",
        mbps(bytes, parse_all),
        parse_all.as_secs_f64() * 1e3
    );
    println!(
        "ingest end to end               {:>8.1} MB/s  ({:.0} ms)  ratio to bare parse ({threads} threads): {:.2}",
        mbps(bytes, e2e),
        e2e.as_secs_f64() * 1e3,
        parse_all.as_secs_f64() / e2e.as_secs_f64()
    );
    println!(
        "ingest without simulator stage  {:>8.1} MB/s  ({:.0} ms)  ratio: {:.2}",
        mbps(bytes, e2e_nv),
        e2e_nv.as_secs_f64() * 1e3,
        parse_all.as_secs_f64() / e2e_nv.as_secs_f64()
    );
    if let Some(mb) = peak_rss_mb() {
        println!("peak memory (VmHWM)             {mb:>8.0} MB");
    }
}
