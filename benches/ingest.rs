//! Ingest benchmark (plain `fn main`, std::time) for issue 30: the release binary run as a
//! child process (`cogitator ingest DIR --no-validate`, the whole process: start, read,
//! decode, extract, normalize, dedup, emit) against the bare `scraper::Html::parse_document`
//! of the same files held in memory, in the same run, rounds interleaved.
//!
//! - The Wahapedia HTML corpus: end to end vs the bare parse on 2 threads (rayon).
//! - One large page, the corpus's unit pages (not `complete-scrape`, not `faction--`) joined
//!   in path order up to 36 MB, written to a temporary folder: end to end vs the bare parse on
//!   one core, and the child's peak memory (`VmHWM`, polled in runs of its own, not timed) as
//!   a multiple of the page's size.
//!
//! Both sides allocate with jemalloc, as the binary does.
//!
//! A ratio above 1 means the ingest is faster than the bare parse. Run:
//! `cargo bench --bench ingest [-- CORPUS_DIR]` (default `../shared/corpus/wahapedia-html`);
//! `COGITATOR_BIN=/path/to/cogitator cargo bench --bench ingest` measures another build.

use cogitator::decode::html::parse_only;
use rayon::prelude::*;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
#[path = "common/mod.rs"]
mod common;
use common::{files_under, input_arg, mbps, median};

/// The bare parse runs on the allocator the binary uses (jemalloc, `src/main.rs`): the two
/// sides differ in their parsing only. With glibc's malloc the bare parse takes 2–3% longer.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

const ROUNDS: usize = 5;
/// The large page's size (whole pages, up to this many bytes).
const BIG_PAGE: usize = 36_000_000;

/// The binary measured: `COGITATOR_BIN` when set (to measure another build, e.g. the baseline,
/// under the same conditions), else this crate's release binary.
fn binary() -> std::path::PathBuf {
    std::env::var_os("COGITATOR_BIN")
        .map(Into::into)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_cogitator").into())
}

/// The peak resident set (`VmHWM`, bytes) of process `pid`, while it runs.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// One ingest of `input` by the binary as a child process: its wall time and, when `poll`,
/// its peak resident set (bytes), polled from `/proc` every millisecond (the child's own
/// address space: a `wait4` `ru_maxrss` would count the parent's pages the child had before
/// `exec`). The timed runs do not poll: on a 2-core machine the poller's reads take time from
/// the child, which uses both cores; the peak is read in runs of their own.
fn ingest_child(input: &Path, out: &Path, poll: bool) -> (Duration, u64) {
    let t = Instant::now();
    let mut child = Command::new(binary())
        .arg("ingest")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--no-validate", "--fail-on", "never"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run the cogitator binary");
    let mut peak = 0;
    let status = loop {
        if !poll {
            break child.wait().expect("wait for the child");
        }
        if let Some(p) = peak_rss(child.id()) {
            peak = peak.max(p);
        }
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let elapsed = t.elapsed();
    assert!(status.success(), "ingest of {} failed", input.display());
    (elapsed, peak)
}

/// The highest peak resident set of two untimed ingests of `input` (into `out.0`, `out.1`).
fn peak_of(input: &Path, out: &Path) -> u64 {
    (0..2)
        .map(|round| ingest_child(input, &out.with_extension(round.to_string()), true).1)
        .max()
        .unwrap_or(0)
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("2-thread pool");
    println!(
        "corpus: {} files, {:.1} MB, {ROUNDS} rounds (median), {} cores online",
        files.len(),
        bytes as f64 / 1e6,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let tmp = tempfile::tempdir().expect("temporary directory");

    let (mut parse2, mut e2e) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let t = Instant::now();
        let n: usize = pool.install(|| texts.par_iter().map(|s| parse_only(s)).sum());
        std::hint::black_box(n);
        parse2.push(t.elapsed());
        let (d, _) = ingest_child(&dir, &tmp.path().join(format!("corpus-{round}")), false);
        e2e.push(d);
    }
    let corpus_peak = peak_of(&dir, &tmp.path().join("corpus-peak"));
    let (parse2, e2e) = (median(parse2), median(e2e));
    println!(
        "bare scraper parse, 2 threads   {:>8.1} MB/s  ({:.0} ms)",
        mbps(bytes, parse2),
        secs(parse2) * 1e3
    );
    println!(
        "ingest end to end (process)     {:>8.1} MB/s  ({:.0} ms)  ratio to the bare parse: {:.2} \
         (issue 30: >= 2)  peak {:.0} MB",
        mbps(bytes, e2e),
        secs(e2e) * 1e3,
        secs(parse2) / secs(e2e),
        corpus_peak as f64 / 1e6
    );

    // The large page.
    let mut page = String::new();
    for (f, t) in files.iter().zip(&texts) {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.contains("complete-scrape") || name.starts_with("faction--") {
            continue;
        }
        if page.len() + t.len() > BIG_PAGE {
            break;
        }
        page.push_str(t);
    }
    let big = tmp.path().join("joined-unit-pages.html");
    std::fs::write(&big, &page).expect("write the large page");
    let (mut parse1, mut e2e) = (Vec::new(), Vec::new());
    for round in 0..3 {
        let t = Instant::now();
        std::hint::black_box(parse_only(&page));
        parse1.push(t.elapsed());
        let (d, _) = ingest_child(&big, &tmp.path().join(format!("big-{round}")), false);
        e2e.push(d);
    }
    let peak = peak_of(&big, &tmp.path().join("big-peak"));
    let (parse1, e2e) = (median(parse1), median(e2e));
    println!(
        "{}: one page of {:.1} MB: bare parse, 1 core {:.0} ms; ingest end to end {:.0} ms, ratio {:.2} \
         (issue 30: >= 1); peak {:.0} MB = {:.1}x the page (issue 30: <= 3)",
        binary().display(),
        page.len() as f64 / 1e6,
        secs(parse1) * 1e3,
        secs(e2e) * 1e3,
        secs(parse1) / secs(e2e),
        peak as f64 / 1e6,
        peak as f64 / page.len() as f64
    );
}
