//! Developer tool: wall time of each stage over a directory, single-threaded, to see where
//! ingest spends its time. `cargo run --release --example stage_times -- DIR`.

use std::time::Instant;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpus/wahapedia-html".into());
    let found = cogitator::discover::discover(&[dir.into()]).expect("discover");
    let (mut dec, mut ext, mut norm) = (0f64, 0f64, 0f64);
    let mut extracted = Vec::new();
    let loaded: Vec<_> = found
        .sources
        .iter()
        .map(|s| {
            cogitator::source::Input::load(s)
                .expect("read")
                .into_owned()
        })
        .collect();
    for s in &loaded {
        let t = Instant::now();
        let d = cogitator::decode::decode(s);
        dec += t.elapsed().as_secs_f64();
        let Some(doc) = d.document else { continue };
        let t = Instant::now();
        let mut ex = cogitator::extract::extract(&doc);
        ext += t.elapsed().as_secs_f64();
        let t = Instant::now();
        cogitator::normalize::normalize(&mut ex);
        norm += t.elapsed().as_secs_f64();
        extracted.push(ex);
    }
    let t = Instant::now();
    let ds = cogitator::pipeline::run(
        &found.sources,
        &found.failed,
        &cogitator::pipeline::Options {
            skip_validation: true,
            ..Default::default()
        },
    );
    let run = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let files = cogitator::emit::files(&ds);
    let emit = t.elapsed().as_secs_f64();
    let bare: f64 = loaded
        .iter()
        .map(|s| {
            let t = Instant::now();
            let text = String::from_utf8_lossy(&s.bytes);
            cogitator::decode::html::parse_only(&text);
            t.elapsed().as_secs_f64()
        })
        .sum();
    println!("bare parse {bare:.3}s decode {dec:.3}s extract {ext:.3}s normalize {norm:.3}s | pipeline::run (parallel, all stages) {run:.3}s emit-render {emit:.3}s ({} files)", files.len());
}
