//! Diff benchmark (plain `fn main`, std::time, like the other benches; helpers in
//! `benches/common`): two datasets of the whole Wahapedia HTML corpus — all pages, and
//! all pages but the newer Carnifexes page — compared by `cogitator diff`'s engine
//! (`diff::dataset::diff_datasets`, expected-damage weights against the reference panel
//! included), in memory and from the dataset directories (both read with `DatasetDir::read`,
//! then diffed: what the command does before printing).
//!
//! Run: `cargo bench --bench diff` (needs `../shared/corpus/wahapedia-html`; skipped with a
//! message when absent). The two ingests are set-up, not measured.

use cogitator::dataset::{DatasetDir, LoadedDataset};
use cogitator::diff::dataset::diff_datasets;
use cogitator::source::SourceFile;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "common/mod.rs"]
mod common;

/// The median of `rounds` timed runs of `f`.
fn timed<T>(rounds: usize, mut f: impl FnMut() -> T) -> Duration {
    let times = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect();
    common::median(times)
}

fn corpus() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/wahapedia-html");
    d.is_dir().then_some(d)
}

fn ingest(root: &Path, without: &str) -> LoadedDataset {
    let mut files = Vec::new();
    for e in walkdir::WalkDir::new(root).sort_by_file_name() {
        let e = e.expect("walk");
        let rel = e
            .path()
            .strip_prefix(root)
            .expect("prefix")
            .to_string_lossy()
            .into_owned();
        if e.file_type().is_file() && rel != without {
            files.push(SourceFile::new(rel, std::fs::read(e.path()).expect("read")));
        }
    }
    let opts = cogitator::pipeline::Options {
        skip_validation: true,
        ..Default::default()
    };
    cogitator::pipeline::run(&files, &[], &opts).into()
}

fn write(dir: &Path, d: &LoadedDataset) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let put = |name: &str, json: String| std::fs::write(dir.join(name), json).expect("write");
    put(
        "datasheets.json",
        serde_json::to_string_pretty(&d.datasheets).expect("json"),
    );
    put(
        "rules.json",
        serde_json::to_string_pretty(&d.rules).expect("json"),
    );
    put(
        "stratagems.json",
        serde_json::to_string_pretty(&d.stratagems).expect("json"),
    );
    put(
        "enhancements.json",
        serde_json::to_string_pretty(&d.enhancements).expect("json"),
    );
    put(
        "detachments.json",
        serde_json::to_string_pretty(&d.detachments).expect("json"),
    );
    put(
        "diagnostics.json",
        serde_json::to_string_pretty(&d.diagnostics).expect("json"),
    );
}

fn main() {
    let Some(root) = corpus() else {
        eprintln!("skipped: ../shared/corpus/wahapedia-html not found");
        return;
    };
    let new = ingest(&root, "");
    let old = ingest(&root, "waaahgame/tyranids--Carnifexes.html");
    let panel = cogitator::validate::default_panel();
    let d = diff_datasets(&old, &new, &panel);
    eprintln!(
        "{} datasheets; {} changes ({} of meaning)",
        new.datasheets.len(),
        d.summary.changes,
        d.summary.meaning
    );
    let rounds = 10;
    let t = timed(rounds, || diff_datasets(&old, &new, &panel));
    println!("diff/html corpus, in memory: median {t:.2?} of {rounds}");
    let tmp = tempfile::tempdir().expect("tmp");
    let (a, b) = (tmp.path().join("old"), tmp.path().join("new"));
    write(&a, &old);
    write(&b, &new);
    let t = timed(rounds, || {
        let (o, n) = (
            DatasetDir::read(&a).expect("old"),
            DatasetDir::read(&b).expect("new"),
        );
        diff_datasets(&o, &n, &panel)
    });
    println!("diff/html corpus, read both directories and diff: median {t:.2?} of {rounds}");
}
