//! Discovery: walk the input paths and read every file into a [`SourceFile`]. I/O lives here.
//!
//! Owns the input root (paths in all output are relative to it), the walk order (sorted, so
//! runs are deterministic) and read errors (`S001`). It does not look inside files beyond
//! reading their bytes.

use crate::diag::{Code, Diagnostic};
use crate::source::SourceFile;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// Files found under `inputs`, read, sorted by relative path; plus read failures.
pub struct Discovered {
    pub sources: Vec<SourceFile>,
    /// Files that could not be read: (relative path, diagnostic).
    pub failed: Vec<(String, Diagnostic)>,
}

/// Walks `inputs` (files or directories). Relative paths are taken from the deepest directory
/// containing every input. Hidden files and `README.md` files are skipped.
pub fn discover(inputs: &[PathBuf]) -> std::io::Result<Discovered> {
    let mut files: Vec<PathBuf> = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input)?;
        if meta.is_dir() {
            for entry in WalkDir::new(input).follow_links(true).sort_by_file_name() {
                let entry = entry.map_err(std::io::Error::other)?;
                if entry.file_type().is_file() && !skipped(entry.path()) {
                    files.push(entry.into_path());
                }
            }
        } else {
            files.push(input.clone());
        }
    }
    let abs: Vec<PathBuf> = files
        .iter()
        .map(|f| std::fs::canonicalize(f).unwrap_or_else(|_| f.clone()))
        .collect();
    let root = input_root(inputs)?;
    let mut read: Vec<Result<SourceFile, (String, Diagnostic)>> = abs
        .par_iter()
        .map(|path| {
            let rel = relative(path, &root);
            match std::fs::read(path) {
                Ok(bytes) => Ok(SourceFile::new(rel, bytes)),
                Err(e) => {
                    let d = Diagnostic::new(Code::SourceUnreadable, format!("cannot read: {e}"))
                        .in_file(&rel);
                    Err((rel, d))
                }
            }
        })
        .collect();
    read.sort_by(|a, b| key(a).cmp(key(b)));
    let mut out = Discovered {
        sources: Vec::new(),
        failed: Vec::new(),
    };
    for r in read {
        match r {
            Ok(s) => out.sources.push(s),
            Err(f) => out.failed.push(f),
        }
    }
    Ok(out)
}

fn key(r: &Result<SourceFile, (String, Diagnostic)>) -> &str {
    match r {
        Ok(s) => &s.path,
        Err((p, _)) => p,
    }
}

fn skipped(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with('.') || name.eq_ignore_ascii_case("README.md")
}

/// The deepest directory that contains every input (a file input counts by its parent).
fn input_root(inputs: &[PathBuf]) -> std::io::Result<PathBuf> {
    let mut root: Option<PathBuf> = None;
    for input in inputs {
        let abs = std::fs::canonicalize(input)?;
        let dir = if abs.is_dir() {
            abs
        } else {
            abs.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        root = Some(match root {
            None => dir,
            Some(r) => common_ancestor(&r, &dir),
        });
    }
    Ok(root.unwrap_or_default())
}

fn common_ancestor(a: &Path, b: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for (x, y) in a.components().zip(b.components()) {
        if x != y {
            break;
        }
        out.push(x);
    }
    out
}

fn relative(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}
