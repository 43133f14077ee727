//! Helpers shared by the plain `fn main` benches (each includes this file with
//! `#[path = "common/mod.rs"] mod common;`): the input named on the command line, the files
//! under a folder, the median of timed rounds and MB/s. Timing and reporting stay in each bench.

#![allow(dead_code)] // each bench uses its own subset

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The first argument that is not a flag, else `default` (relative to `../shared/corpus`
/// beside the crate).
pub fn input_arg(default: &str) -> PathBuf {
    std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../shared/corpus")
                .join(default)
        })
}

/// The files under `dir`, in path order, whose extension is one of `exts` (every file when
/// `exts` is empty).
pub fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            exts.is_empty()
                || p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| exts.contains(&x))
        })
        .collect();
    files.sort();
    files
}

pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

pub fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}
