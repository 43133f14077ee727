//! Discovery: walk the input paths and hand the pipeline [`OnDisk`] inputs it reads when their
//! turn comes. I/O lives here (reading included: [`OnDisk::load`]). Files that share a size
//! are hashed here, so byte-identical inputs are known before processing.
//!
//! Owns the input root (paths in all output are relative to it), the walk order (sorted, so
//! runs are deterministic) and read errors (`S001`). It does not look inside files beyond
//! hashing their bytes. Files are not kept in memory, so a run's memory does not grow with the
//! number of inputs.

use crate::diag::{Code, Diagnostic};
use crate::fsread::file_kind;
pub use crate::fsread::{read_regular, LastLink, Unread};
use crate::source::{sha256_hex, Input, SourceFile};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The default per-file size limit (64 MiB): larger inputs are skipped with `S012`.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;

/// What discovery may follow and read.
#[derive(Debug, Clone)]
pub struct Options {
    /// Files larger than this are not read (`S012`, status `skipped`).
    pub max_file_size: u64,
    /// Directories never entered (the output directory of this run), compared canonically.
    pub exclude: Vec<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            exclude: Vec::new(),
        }
    }
}

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
    max_file_size: u64,
}

impl OnDisk {
    fn too_large(&self) -> bool {
        self.len > self.max_file_size
    }
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
        if self.too_large() {
            return Err(Diagnostic::new(
                Code::InputTooLarge,
                format!(
                    "{} is over the {} limit (--max-file-size); skipped",
                    human_size(self.len),
                    human_size(self.max_file_size)
                ),
            )
            .in_file(&self.path));
        }
        let bytes =
            read_regular(&self.abs, self.max_file_size, LastLink::Follow).map_err(|e| match e {
                Unread::NotRegular(kind) => not_regular(&self.path, kind),
                Unread::Io(e) => {
                    Diagnostic::new(Code::SourceUnreadable, format!("cannot read: {e}"))
                        .in_file(&self.path)
                }
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

/// `64 MiB`, `1.5 MiB`, `900 KiB`, `12 bytes`.
pub fn human_size(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if n >= MIB {
        let m = n as f64 / MIB as f64;
        if n % MIB == 0 {
            format!("{} MiB", n / MIB)
        } else {
            format!("{m:.1} MiB")
        }
    } else if n >= KIB {
        format!("{} KiB", n / KIB)
    } else {
        format!("{n} bytes")
    }
}

/// Files found under `inputs`, sorted by relative path; plus paths that were not read.
pub struct Discovered {
    pub sources: Vec<OnDisk>,
    /// Paths found but not read: unreadable files and directories (`S001`, status `failed`),
    /// dangling links, link loops and previous outputs (`S014`, status `skipped`).
    pub failed: Vec<(String, Diagnostic)>,
}

/// Walks `inputs` (files or directories) with the default options.
pub fn discover(inputs: &[PathBuf]) -> std::io::Result<Discovered> {
    discover_with(inputs, &Options::default())
}

/// Walks `inputs` (files or directories). Relative paths are taken from the deepest directory
/// containing every input. Hidden files and directories (`.git/`), `README.md` files, the
/// directories in `opts.exclude` and directories that hold a previous cogitator output are not
/// entered; a path that cannot be followed is a diagnostic and the walk goes on. A file reached
/// twice (the same path given twice, or through a link) is read once. The only error is an
/// input path that does not exist.
pub fn discover_with(inputs: &[PathBuf], opts: &Options) -> std::io::Result<Discovered> {
    let root = input_root(inputs)?;
    let exclude: Vec<PathBuf> = opts
        .exclude
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut failed: Vec<(String, Diagnostic)> = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input)?;
        if !meta.is_dir() {
            files.push(input.clone());
            continue;
        }
        let walk = WalkDir::new(input)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !hidden(e.path()));
        let mut walk = walk;
        while let Some(entry) = walk.next() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    failed.push(walk_failure(&e, &root));
                    continue;
                }
            };
            if entry.file_type().is_dir() {
                if entry.depth() > 0 && skipped_dir(entry.path(), &exclude) {
                    let rel = relative(&canonical(entry.path()), &root);
                    let d = Diagnostic::new(
                        Code::PathSkipped,
                        "a cogitator output directory (or this run's --out); not read as input",
                    )
                    .in_file(&rel);
                    failed.push((rel, d));
                    walk.skip_current_dir();
                }
            } else if entry.file_type().is_file() {
                if !skipped(entry.path()) {
                    files.push(entry.into_path());
                }
            } else if !skipped(entry.path()) {
                // A device, FIFO or socket (links are followed): never opened.
                let rel = relative(&canonical(entry.path()), &root);
                let d = not_regular(&rel, file_kind(&entry.file_type()));
                failed.push((rel, d));
            }
        }
    }
    // The same file reached twice (given twice, or through a link) is read once.
    let mut seen = std::collections::BTreeSet::new();
    let abs: Vec<PathBuf> = files
        .iter()
        .map(|f| canonical(f))
        .filter(|a| seen.insert(a.clone()))
        .collect();
    // Sizes first (cheap); only files that share a size with another can be byte-identical,
    // so only those are read and hashed now. Every other file is hashed when it is processed.
    let mut read: Vec<Result<OnDisk, (String, Diagnostic)>> = abs
        .par_iter()
        .map(|path| {
            let rel = relative(path, &root);
            match std::fs::metadata(path) {
                Ok(meta) if !meta.is_file() => {
                    let d = not_regular(&rel, file_kind(&meta.file_type()));
                    Err((rel, d))
                }
                Ok(meta) => Ok(OnDisk {
                    path: rel,
                    abs: path.clone(),
                    len: meta.len(),
                    sha256: None,
                    max_file_size: opts.max_file_size,
                }),
                Err(e) => Err(unreadable(rel, e)),
            }
        })
        .collect();
    let mut sizes: std::collections::BTreeMap<u64, usize> = std::collections::BTreeMap::new();
    for f in read.iter().flatten() {
        *sizes.entry(f.len).or_insert(0) += 1;
    }
    // Each file to hash is a task of its own: in `read`'s order, a few large ones side by side
    // would go to one thread together, the others waiting.
    let mut shared_size: Vec<&mut Result<OnDisk, (String, Diagnostic)>> = read
        .iter_mut()
        .filter(|r| {
            r.as_ref()
                .is_ok_and(|f| sizes.get(&f.len).copied().unwrap_or(0) >= 2 && !f.too_large())
        })
        .collect();
    shared_size.par_iter_mut().with_max_len(1).for_each(|r| {
        let Ok(f) = &mut **r else { return };
        match read_regular(&f.abs, f.max_file_size, LastLink::Follow) {
            Ok(bytes) => f.sha256 = Some(sha256_hex(&bytes)),
            Err(Unread::NotRegular(kind)) => {
                let d = not_regular(&f.path, kind);
                **r = Err((f.path.clone(), d));
            }
            Err(Unread::Io(e)) => **r = Err(unreadable(f.path.clone(), e)),
        }
    });
    read.sort_by(|a, b| key(a).cmp(key(b)));
    let mut out = Discovered {
        sources: Vec::new(),
        failed,
    };
    for r in read {
        match r {
            Ok(s) => out.sources.push(s),
            Err(f) => out.failed.push(f),
        }
    }
    out.failed.sort_by(|a, b| a.0.cmp(&b.0));
    out.failed.dedup_by(|a, b| a.0 == b.0);
    Ok(out)
}

/// A path the walk could not follow, as a diagnostic: a link loop or a dangling link (`S014`),
/// or a directory or file that cannot be read (`S001`).
fn walk_failure(e: &walkdir::Error, root: &Path) -> (String, Diagnostic) {
    let path = e.path().map(Path::to_path_buf).unwrap_or_default();
    let rel = relative(&absolute(&path), root);
    let d = if let Some(ancestor) = e.loop_ancestor() {
        Diagnostic::new(
            Code::PathSkipped,
            format!(
                "symbolic link loop (back to {}), not followed",
                relative(&absolute(ancestor), root)
            ),
        )
    } else if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::metadata(&path).is_err()
    {
        let target = std::fs::read_link(&path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        Diagnostic::new(
            Code::PathSkipped,
            format!("dangling symbolic link (to {target}), not followed"),
        )
    } else {
        let why = e
            .io_error()
            .map(|io| io.to_string())
            .unwrap_or_else(|| e.to_string());
        Diagnostic::new(Code::SourceUnreadable, format!("cannot read: {why}"))
    };
    let d = d.in_file(&rel);
    (rel, d)
}

/// `S019`: the path is not a regular file; not opened, status `skipped`.
fn not_regular(rel: &str, kind: &str) -> Diagnostic {
    Diagnostic::new(
        Code::NotARegularFile,
        format!("not a regular file ({kind}); skipped"),
    )
    .in_file(rel)
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

fn hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

fn skipped(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with('.') || name.eq_ignore_ascii_case("README.md")
}

/// This run's output directory, or a directory holding a previous cogitator output.
fn skipped_dir(path: &Path, exclude: &[PathBuf]) -> bool {
    (!exclude.is_empty() && exclude.contains(&canonical(path)))
        || crate::emit::is_cogitator_output(path)
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| absolute(p))
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
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

/// `path` relative to `root`, `/`-separated. A path outside the root (a link out of the tree)
/// keeps only its file name: output never carries an absolute path. A name that is not UTF-8
/// keeps its bytes as `\xNN` (`crate::text::escape::os`), so two names that differ only there
/// stay two inputs.
fn relative(path: &Path, root: &Path) -> String {
    let rel = match path.strip_prefix(root) {
        Ok(rel) => rel,
        Err(_) => path.file_name().map(Path::new).unwrap_or(path),
    };
    let parts: Vec<String> = rel
        .components()
        .map(|c| crate::text::escape::os(c.as_os_str()))
        .collect();
    parts.join("/")
}
