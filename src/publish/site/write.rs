//! Writing a site atomically: every file into the sibling staging directory `.NAME.site-PID`,
//! then renamed to `DIR`; a previous site at `DIR` is renamed aside first and removed after.
//!
//! Owns the marker [`MARKER_FILE`] (`.cogitator-site`: a first line naming the tool, then
//! every file of the site, sorted) and the rule that only a directory that is empty or holds
//! nothing but what its marker lists is replaced: anything else is refused (exit 2) and left
//! untouched. Must not delete a file cogitator did not write.

use anyhow::{bail, Context};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The marker of a site cogitator wrote.
pub const MARKER_FILE: &str = ".cogitator-site";
const MARKER_HEAD: &str = "cogitator site; files:";

/// The marker's contents for a site of `files` (relative paths).
fn marker(files: &[(String, Vec<u8>)]) -> String {
    let mut out = format!("{MARKER_HEAD}\n");
    for (p, _) in files {
        out.push_str(p);
        out.push('\n');
    }
    out
}

/// The files the marker of `dir` lists, `None` when `dir` has no cogitator site marker.
fn listed(dir: &Path) -> Option<BTreeSet<String>> {
    let text = fs::read_to_string(dir.join(MARKER_FILE)).ok()?;
    let mut lines = text.lines();
    if lines.next() != Some(MARKER_HEAD) {
        return None;
    }
    Some(lines.map(str::to_string).collect())
}

/// Every file and folder under `dir`, relative and `/`-separated (a folder with a final `/`).
fn entries(dir: &Path, rel: &str, out: &mut Vec<String>) -> anyhow::Result<()> {
    for e in fs::read_dir(dir).with_context(|| format!("{}: cannot list", dir.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if e.file_type()?.is_dir() {
            out.push(format!("{path}/"));
            entries(&e.path(), &path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether `dir` may be replaced: it is empty, or it holds only what its marker lists.
fn check_replaceable(dir: &Path) -> anyhow::Result<()> {
    let mut found = Vec::new();
    entries(dir, "", &mut found)?;
    if found.is_empty() {
        return Ok(());
    }
    let Some(ours) = listed(dir) else {
        bail!(
            "{}: not a site cogitator wrote (no {MARKER_FILE} marker); refusing to replace it, \
             nothing was written",
            dir.display()
        );
    };
    let mut foreign: Vec<&String> = found
        .iter()
        .filter(|f| *f != MARKER_FILE && !is_ours(f, &ours))
        .collect();
    foreign.sort();
    if let Some(first) = foreign.first() {
        bail!(
            "{}: holds {} file(s) cogitator did not write ({first} …); refusing to replace it, \
             nothing was written",
            dir.display(),
            foreign.len()
        );
    }
    Ok(())
}

/// Whether `entry` (a file, or a folder ending in `/`) is one the marker lists or holds one.
fn is_ours(entry: &str, ours: &BTreeSet<String>) -> bool {
    if entry.ends_with('/') {
        ours.iter().any(|f| f.starts_with(entry))
    } else {
        ours.contains(entry)
    }
}

/// `dir`'s parent and a sibling name `.NAME.KIND-PID`.
fn sibling(dir: &Path, kind: &str) -> anyhow::Result<PathBuf> {
    let name = dir
        .file_name()
        .with_context(|| format!("{}: not a directory name", dir.display()))?;
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
    let file = format!(".{}.{kind}-{}", name.to_string_lossy(), std::process::id());
    Ok(parent.map_or_else(|| PathBuf::from(&file), |p| p.join(&file)))
}

/// Writes `files` (relative path, contents; sorted) into `dir`, replacing a previous site.
pub fn replace(dir: &Path, files: &[(String, Vec<u8>)]) -> anyhow::Result<()> {
    let exists = dir.symlink_metadata().is_ok();
    if exists {
        if !dir.is_dir() {
            bail!("{}: exists and is not a directory", dir.display());
        }
        check_replaceable(dir)?;
    }
    let tmp = sibling(dir, "site")?;
    if tmp.exists() {
        bail!("{}: a staging directory is in the way", tmp.display());
    }
    if let Err(e) = stage(&tmp, files) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if exists {
        swap(dir, &tmp)
    } else {
        fs::rename(&tmp, dir)
            .with_context(|| format!("{}: cannot rename into place", dir.display()))
    }
}

/// The new site into `tmp`: folders, then the files in parallel, the marker first.
fn stage(tmp: &Path, files: &[(String, Vec<u8>)]) -> anyhow::Result<()> {
    fs::create_dir_all(tmp).with_context(|| format!("{}: cannot create", tmp.display()))?;
    fs::write(tmp.join(MARKER_FILE), marker(files))?;
    let folders: BTreeSet<&str> = files
        .iter()
        .filter_map(|(p, _)| p.rsplit_once('/').map(|(d, _)| d))
        .collect();
    for f in folders {
        fs::create_dir_all(tmp.join(f))?;
    }
    files.par_iter().try_for_each(|(p, bytes)| {
        fs::write(tmp.join(p), bytes)
            .with_context(|| format!("{}: cannot write {p}", tmp.display()))
    })
}

/// The previous site aside, the new one into place, the previous one removed (it was checked
/// to hold only what cogitator wrote).
fn swap(dir: &Path, tmp: &Path) -> anyhow::Result<()> {
    let old = sibling(dir, "site-old")?;
    fs::rename(dir, &old).with_context(|| format!("{}: cannot move aside", dir.display()))?;
    if let Err(e) = fs::rename(tmp, dir) {
        let _ = fs::rename(&old, dir);
        let _ = fs::remove_dir_all(tmp);
        return Err(e).with_context(|| format!("{}: cannot rename into place", dir.display()));
    }
    fs::remove_dir_all(&old).with_context(|| format!("{}: cannot remove", old.display()))
}
