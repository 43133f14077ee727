//! Dedup benchmark (plain `fn main`, std::time, like the other benches): the rule registry
//! (`dedup::merge_rules`: exact copies, truncated copies, near-duplicates by MinHash/LSH, ids,
//! variants) over the rule paragraphs the HTML corpus's pages give (3,463 in a run; most are
//! exact copies, ~300 distinct texts), then over synthetic sets of one and ten copies of each
//! paragraph, every copy with one word changed and its own place (all texts distinct, so the
//! near-duplicate pass does its full work and has real clusters to find). Prints paragraphs,
//! MB of rule text, the median time of each, MB/s, and the time ratio 10× / 1× synthetic
//! (near-linear: close to 10).
//!
//! Run: `cargo bench --bench dedup [-- HTML_DIR]` (default `../shared/corpus/wahapedia-html`).

use cogitator::model::Rule;
use cogitator::source::{Occurrence, SourceFile};
use std::path::Path;
use std::time::{Duration, Instant};
#[path = "common/mod.rs"]
mod common;
use common::{files_under, input_arg, median};

const ROUNDS: usize = 5;

/// The rule paragraphs extraction gives for every page (what dedup receives in a run).
fn paragraphs(dir: &Path) -> Vec<Rule> {
    let paths = files_under(dir, &["html", "htm"]);
    let mut rules = Vec::new();
    for p in paths {
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let rel = p
            .strip_prefix(dir)
            .unwrap_or(&p)
            .to_string_lossy()
            .into_owned();
        let src = SourceFile::new(rel, bytes);
        if let Some(doc) = cogitator::decode::decode(&src).document {
            let mut ex = cogitator::extract::extract(&doc);
            cogitator::normalize::normalize(&mut ex);
            rules.append(&mut ex.rules);
        }
    }
    rules
}

/// `copies` copies of each paragraph; copy k has one word (the (7k)-th, cyclically) replaced
/// by a token of its own and its own file, so every copy is a distinct text, a near-duplicate
/// of its siblings, never an exact one.
fn synthetic(base: &[Rule], copies: usize) -> Vec<Rule> {
    let mut out = Vec::with_capacity(base.len() * copies);
    for (n, r) in base.iter().enumerate() {
        for k in 0..copies {
            let mut c = r.clone();
            let mut words: Vec<&str> = r.text.split(' ').collect();
            let len = words.len();
            let swapped = format!("w{k}x{n}");
            if len > 0 {
                words[(k * 7) % len] = &swapped;
            }
            c.text = words.join(" ");
            c.occurrences = vec![Occurrence::at_line(format!("synthetic/{k}.txt"), n as u32)];
            out.push(c);
        }
    }
    out
}

fn time(rules: &[Rule]) -> (Duration, usize) {
    let mut times = Vec::new();
    let mut kept = 0;
    for _ in 0..ROUNDS {
        let input = rules.to_vec();
        let t = Instant::now();
        let merged = cogitator::dedup::merge_rules(input, &mut Vec::new());
        times.push(t.elapsed());
        kept = merged.len();
    }
    (median(times), kept)
}

fn main() {
    let dir = input_arg("wahapedia-html");
    if !dir.is_dir() {
        eprintln!("skipped: HTML corpus not found at {}", dir.display());
        return;
    }
    let base = paragraphs(&dir);
    let one = synthetic(&base, 1);
    let big = synthetic(&base, 10);
    let mut first = None;
    let sets = [
        ("corpus", &base),
        ("1x synthetic", &one),
        ("10x synthetic", &big),
    ];
    for (label, set) in sets {
        let bytes: usize = set.iter().map(|r| r.text.len()).sum();
        let (t, kept) = time(set);
        println!(
            "{label:>14}: {:>6} paragraphs, {:>6.2} MB -> {:>6} rules in {:>8.1} ms ({:.1} MB/s, {:.1} µs/paragraph)",
            set.len(),
            bytes as f64 / 1e6,
            kept,
            t.as_secs_f64() * 1e3,
            bytes as f64 / 1e6 / t.as_secs_f64(),
            t.as_secs_f64() * 1e6 / set.len().max(1) as f64,
        );
        match (label, first) {
            ("1x synthetic", _) => first = Some(t),
            ("10x synthetic", Some(f)) => println!(
                "{:>14}: {:.1} (10x / 1x synthetic; 10 = linear)",
                "time ratio",
                t.as_secs_f64() / f.as_secs_f64()
            ),
            _ => {}
        }
    }
}
