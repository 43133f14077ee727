//! BattleScribe benchmark (plain `fn main`, std::time): every BattleScribe file of the corpus
//! (the 10th-edition game system and catalogues, the Horus Heresy game system as XML; the
//! 11th-edition ones as JSON) read three ways in the same run: bare parsers (`quick-xml` for
//! the XML, every event, attributes decoded; `json-event-parser` for the JSON, every event),
//! the record source alone (`records::bsdata::read` per folder: parse, index, resolve links,
//! datasheets, rules), and the whole pipeline (sniff → record source → normalize → merge →
//! schema check; validation skipped). Prints MB/s for each and the ratios, and then each format
//! over its own files alone: the bare parser, the loader (bytes → `tree::Tree`: `tree::parse`
//! for XML, `json::parse` for JSON) and the record source over the folders of that format, in
//! MB/s: the JSON source must be at least as fast per MB as the XML one.
//!
//! Run: `cargo bench --bench bsdata [-- BSDATA_DIR]` (default `../shared/corpus/bsdata`).

use cogitator::pipeline::{run, Options};
use cogitator::records::{bsdata, Group};
use cogitator::source::SourceFile;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
#[path = "common/mod.rs"]
mod common;
use common::{files_under, input_arg, mbps, median};

const ROUNDS: usize = 5;

/// Every event of every file, as `quick-xml` reads them, attribute values unescaped (JSON: as
/// `json-event-parser` reads them).
fn bare_parse(files: &[SourceFile]) -> usize {
    let mut n = 0;
    for f in files {
        if bsdata::is_json(&f.bytes) {
            let mut p = json_event_parser::SliceJsonParser::new(&f.bytes);
            while let Ok(e) = p.parse_next() {
                if e == json_event_parser::JsonEvent::Eof {
                    break;
                }
                n += 1;
            }
            continue;
        }
        let mut r = quick_xml::Reader::from_reader(f.bytes.as_slice());
        loop {
            match r.read_event() {
                Ok(quick_xml::events::Event::Eof) | Err(_) => break,
                Ok(quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)) => {
                    for a in e.attributes().flatten() {
                        n += a
                            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .map(|v| v.len())
                            .unwrap_or(0);
                    }
                }
                Ok(_) => n += 1,
            }
        }
    }
    n
}

fn main() {
    let dir = input_arg("bsdata");
    if !dir.is_dir() {
        eprintln!("skipped: BattleScribe data not found at {}", dir.display());
        return;
    }
    let files: Vec<SourceFile> = files_under(&dir, &[])
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            let rel = p
                .strip_prefix(&dir)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            Some(SourceFile::new(rel, bytes))
        })
        .collect();
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    let mut groups: BTreeMap<String, Vec<&SourceFile>> = BTreeMap::new();
    for f in &files {
        groups
            .entry(cogitator::records::dir_of(&f.path).to_string())
            .or_default()
            .push(f);
    }
    println!(
        "bsdata: {} files in {} folders, {:.1} MB, {} threads, {} rounds (median)",
        files.len(),
        groups.len(),
        bytes as f64 / 1e6,
        rayon::current_num_threads(),
        ROUNDS
    );
    let opts = Options {
        skip_validation: true,
        ..Default::default()
    };
    let (mut bare, mut source, mut full) = (Vec::new(), Vec::new(), Vec::new());
    let (mut datasheets, mut rules) = (0, 0);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        std::hint::black_box(bare_parse(&files));
        bare.push(t.elapsed());
        let t = Instant::now();
        for (dir, members) in &groups {
            let ex = bsdata::read(&Group {
                dir,
                files: members,
            });
            std::hint::black_box(ex);
        }
        source.push(t.elapsed());
        let t = Instant::now();
        let ds = run(&files, &[], &opts);
        full.push(t.elapsed());
        datasheets = ds.manifest.totals.datasheets;
        rules = ds.manifest.totals.rules;
        std::hint::black_box(ds);
    }
    // Each format alone, over its own files: the bare parser, the loader (bytes → tree) and the
    // record source (its folders: the 10th-edition and Horus Heresy XML, the 11th-edition JSON).
    for (what, json) in [("xml", false), ("json", true)] {
        let own: Vec<SourceFile> = files
            .iter()
            .filter(|f| bsdata::is_json(&f.bytes) == json)
            .cloned()
            .collect();
        let n: usize = own.iter().map(|f| f.bytes.len()).sum();
        if n == 0 {
            continue;
        }
        let own_groups: Vec<(&String, &Vec<&SourceFile>)> = groups
            .iter()
            .filter(|(_, m)| m.iter().all(|f| bsdata::is_json(&f.bytes) == json))
            .collect();
        let group_bytes: usize = own_groups
            .iter()
            .flat_map(|(_, m)| m.iter())
            .map(|f| f.bytes.len())
            .sum();
        let (mut bare, mut loader, mut source) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let t = Instant::now();
            std::hint::black_box(bare_parse(&own));
            bare.push(t.elapsed());
            let t = Instant::now();
            for f in &own {
                let mut d = Vec::new();
                let tree = if json {
                    bsdata::json::parse(&f.bytes, &f.path, &mut d)
                } else {
                    bsdata::tree::parse(&f.bytes, &f.path, &mut d)
                };
                std::hint::black_box((tree, d));
            }
            loader.push(t.elapsed());
            let t = Instant::now();
            for (dir, members) in &own_groups {
                let ex = bsdata::read(&Group {
                    dir,
                    files: members,
                });
                std::hint::black_box(ex);
            }
            source.push(t.elapsed());
        }
        let (b, l, s) = (median(bare), median(loader), median(source));
        println!(
            "{what:<5} {} files {:.1} MB: bare {:>6.1} MB/s, loader (tree) {:>6.1} MB/s, \
             record source {:>6.1} MB/s ({} folders, {:.1} MB)",
            own.len(),
            n as f64 / 1e6,
            mbps(n, b),
            mbps(n, l),
            mbps(group_bytes, s),
            own_groups.len(),
            group_bytes as f64 / 1e6
        );
    }
    let (b, s, f) = (median(bare), median(source), median(full));
    let line = |what: &str, d: Duration| {
        println!(
            "{what:<16} {:>8.1} ms  {:>7.1} MB/s  {:>5.1}× the bare parse",
            d.as_secs_f64() * 1e3,
            mbps(bytes, d),
            d.as_secs_f64() / b.as_secs_f64()
        );
    };
    line("bare parsers", b);
    line("record source", s);
    line("ingest", f);
    println!("({datasheets} datasheets, {rules} rules)");
}
