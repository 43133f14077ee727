//! Discovery: walk the input paths and hand the pipeline [`OnDisk`] inputs it reads when their
//! turn comes. I/O lives here (reading included: [`OnDisk::load`]). Files that share a size
//! are hashed here, so byte-identical inputs are known before processing.
//!
//! Owns the input root (paths in all output are relative to it), the walk order (sorted, so
//! runs are deterministic) and read errors (`S001`). It does not look inside files beyond
//! hashing their bytes. Files are not kept in memory, so a run's memory does not grow with the
//! number of inputs.

use crate::diag::{Code, Diagnostic};
use crate::source::{sha256_hex, Input, SourceFile};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// A file found and hashed, read again by [`Input::load`] when the pipeline processes it.
#[derive(Debug, Clone)]
pub struct OnDisk {
    /// Path relative to the input root.
    pub path: String,
    abs: PathBuf,
    pub len: u64,
    /// Known before processing only for files that share their size with another file (the
    /// only ones that can be duplicates); the others are hashed when loaded.
    pub sha256: Option<String>,
}

impl Input for OnDisk {
    fn path(&self) -> &str {
        &self.path
    }
    fn sha256(&self) -> Option<&str> {
        self.sha256.as_deref()
    }
    fn len(&self) -> u64 {
        self.len
    }
    fn load(&self) -> Result<std::borrow::Cow<'_, SourceFile>, Diagnostic> {
        let bytes = std::fs::read(&self.abs).map_err(|e| {
            Diagnostic::new(Code::SourceUnreadable, format!("cannot read: {e}")).in_file(&self.path)
        })?;
        let src = SourceFile::new(self.path.clone(), bytes);
        if src.bytes.len() as u64 != self.len
            || self.sha256.as_ref().is_some_and(|h| *h != src.sha256)
        {
            return Err(Diagnostic::new(
                Code::SourceUnreadable,
                "the file changed while cogitator was running; not processed",
            )
            .in_file(&self.path));
        }
        Ok(std::borrow::Cow::Owned(src))
    }
}

/// Files found under `inputs`, hashed, sorted by relative path; plus read failures.
pub struct Discovered {
    pub sources: Vec<OnDisk>,
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
    // Sizes first (cheap); only files that share a size with another can be byte-identical,
    // so only those are read and hashed now. Every other file is hashed when it is processed.
    let mut read: Vec<Result<OnDisk, (String, Diagnostic)>> = abs
        .par_iter()
        .map(|path| {
            let rel = relative(path, &root);
            match std::fs::metadata(path) {
                Ok(meta) => Ok(OnDisk {
                    path: rel,
                    abs: path.clone(),
                    len: meta.len(),
                    sha256: None,
                }),
                Err(e) => Err(unreadable(rel, e)),
            }
        })
        .collect();
    let mut sizes: std::collections::BTreeMap<u64, usize> = std::collections::BTreeMap::new();
    for f in read.iter().flatten() {
        *sizes.entry(f.len).or_insert(0) += 1;
    }
    read.par_iter_mut().for_each(|r| {
        let Ok(f) = r else { return };
        if sizes.get(&f.len).copied().unwrap_or(0) < 2 {
            return;
        }
        match std::fs::read(&f.abs) {
            Ok(bytes) => f.sha256 = Some(sha256_hex(&bytes)),
            Err(e) => *r = Err(unreadable(f.path.clone(), e)),
        }
    });
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

fn unreadable(rel: String, e: std::io::Error) -> (String, Diagnostic) {
    let d = Diagnostic::new(Code::SourceUnreadable, format!("cannot read: {e}")).in_file(&rel);
    (rel, d)
}

fn key(r: &Result<OnDisk, (String, Diagnostic)>) -> &str {
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
