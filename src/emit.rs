//! Emit: write a [`Dataset`] as the canonical JSON files of the output contract, and own the
//! output directory: what it may replace, the atomic swap, the leftovers of interrupted runs.
//! I/O lives here. It must not change values, and it must never delete a directory it cannot
//! prove is its own (or that the user explicitly gave up with `--force`).
//!
//! # Output contract (v2)
//! Contract v2 (v1 → v2): model and weapon profiles carry the characteristics of their
//! datasheet's edition, keyed by the names of `schemas/characteristics.yaml`; a 10th-edition
//! dataset is byte-identical to v1 apart from `contract_version` and the published schemas.
//! The output directory holds, each JSON file pretty-printed (2 spaces, trailing newline),
//! arrays sorted by `id`, no timestamps, no absolute paths:
//! `datasheets.json`, `rules.json`, `stratagems.json`, `enhancements.json`, `detachments.json`,
//! `quarantine.json` (records that broke a value rule), `diagnostics.json` (sorted by file, line,
//! code), `manifest.json` (inputs with sha256, bytes, format, status; counts; tool version),
//! `validation/expected-damage.csv`, `rule-clusters.json`, `reconciliation.json` (only when a
//! datasheet is printed by two or more sources: `crate::reconcile`), `schema/*.schema.json`
//! (the published JSON Schemas), and
//! the marker [`MARKER_FILE`] (`.cogitator-output`, naming the tool and the contract version),
//! which says the directory is a cogitator output that the next run may replace. Output is a
//! pure function of the dataset: the same dataset always gives byte-identical files.
//!
//! # What `--out DIR` may replace ([`prepare`])
//! A path that does not exist, an empty directory, or a previous cogitator output
//! ([`is_cogitator_output`]: the marker, or a `manifest.json` with `"tool": "cogitator"`, which
//! is what older versions wrote). Any other directory is refused unless `force` is set. Always
//! refused, `force` or not: a regular file, `.`/`..`/`/`, a directory containing the current
//! directory, and a directory that is an input, contains an input or lies inside an input tree
//! (canonical paths; a missing `DIR` is resolved through its nearest existing ancestor). A
//! symbolic link is written through: the directory it points to is replaced, the link is kept.
//! Every check, the recovery of leftovers and a write probe (creating the staging directory)
//! happen before any input is read, and every error names the path.
//!
//! # Atomic write ([`commit`])
//! The new tree is written into the sibling staging directory `.DIR.tmp-PID` (marker first),
//! every file and directory fsynced, then exchanged with `DIR` in one step (Linux
//! `renameat2(RENAME_EXCHANGE)`); the old tree, now at the staging name, is removed afterwards.
//! At every instant `DIR` is the complete old or the complete new dataset. Where the exchange is
//! refused (another OS, a filesystem without it) the fallback renames the old tree aside to
//! `.DIR.old-PID` and the new one in; a kill between the two leaves `DIR` missing, and the next
//! run restores it.
//!
//! # Leftovers (`S011`)
//! The next run (in [`prepare`]) looks beside `DIR` for `.DIR.tmp-*` and `.DIR.old-*` of processes
//! no longer running: when `DIR` is missing it renames the newest `.DIR.old-*` back; it removes the
//! others when they are cogitator outputs (or empty apart from a marker), marker last, so a kill
//! during the cleanup leaves a leftover the following run still recognizes; anything else is left
//! in place and reported. The `S011` diagnostics go to the caller (the CLI prints them on stderr);
//! they are not part of the dataset, which stays a function of the inputs alone.
//!
//! # Test hooks (not for users, hidden from `--help`)
//! `COGITATOR_TEST_EMIT_DELAY_MS=N` sleeps N ms after each file written and between the swap
//! steps, so the kill test can land kills inside the write window; `COGITATOR_TEST_NO_EXCHANGE=1`
//! forces the rename-aside fallback.

use crate::diag::{Code, Diagnostic};
use crate::model::{Dataset, CONTRACT_VERSION};
use anyhow::{bail, Context};
use serde::Serialize;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// The file that marks a directory as a cogitator output.
pub const MARKER_FILE: &str = ".cogitator-output";

/// The marker's contents: the tool and the contract version.
pub fn marker_contents() -> String {
    format!(
        "cogitator output, contract v{CONTRACT_VERSION}\n\
         This directory is replaced as a whole by the next `cogitator ingest --out` into it; \
         do not keep your own files here.\n"
    )
}

/// Serializes like `serde_json::to_string_pretty`, plus a trailing newline.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("\"{e}\""));
    s.push('\n');
    s
}

/// Every file of the dataset as (relative path, contents), in a fixed order. The marker is not
/// one of them: [`commit`] writes it.
pub fn files(ds: &Dataset) -> Vec<(String, String)> {
    let mut out = vec![
        ("datasheets.json".to_string(), to_json(&ds.datasheets)),
        ("rules.json".to_string(), to_json(&ds.rules)),
        ("stratagems.json".to_string(), to_json(&ds.stratagems)),
        ("enhancements.json".to_string(), to_json(&ds.enhancements)),
        ("detachments.json".to_string(), to_json(&ds.detachments)),
        ("quarantine.json".to_string(), to_json(&ds.quarantine)),
        ("diagnostics.json".to_string(), to_json(&ds.diagnostics)),
        ("manifest.json".to_string(), to_json(&ds.manifest)),
    ];
    out.extend(ds.extra_files.iter().cloned());
    out
}

/// True for a directory written by cogitator: it carries the marker, or its `manifest.json`
/// names the tool (the outputs of versions before the marker).
pub fn is_cogitator_output(dir: &Path) -> bool {
    if !dir.is_dir() {
        return false;
    }
    if let Ok(text) = fs::read_to_string(dir.join(MARKER_FILE)) {
        if text.starts_with("cogitator output") {
            return true;
        }
    }
    fs::read(dir.join("manifest.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v.get("tool").and_then(|t| t.as_str()) == Some("cogitator"))
}

/// What the output directory held when it was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaces {
    /// The path did not exist.
    Nothing,
    /// An empty directory.
    Empty,
    /// A previous cogitator output.
    Previous,
    /// A directory that is not a cogitator output, replaced because of `force`.
    Forced,
}

/// An output directory checked by [`prepare`], with its staging directory created.
#[derive(Debug)]
pub struct Target {
    /// The path as given.
    pub given: PathBuf,
    /// The directory that will be replaced (absolute; a symlink's target).
    pub dir: PathBuf,
    parent: PathBuf,
    name: OsString,
    /// The staging directory `.NAME.tmp-PID` (created, marker inside).
    tmp: PathBuf,
    force: bool,
    pub replaces: Replaces,
    /// `S011` notes about leftovers of interrupted runs, recovered or left in place.
    pub notes: Vec<Diagnostic>,
}

/// Checks that `out` may be replaced by an output of `inputs`, recovers leftovers of interrupted
/// runs beside it and creates its staging directory (the write probe). Reads no input. See the
/// module doc for what is refused; every error names the path.
pub fn prepare(out: &Path, inputs: &[PathBuf], force: bool) -> anyhow::Result<Target> {
    let shown = out.display();
    match out.components().next_back() {
        Some(Component::Normal(_)) => {}
        _ => bail!(
            "refusing --out {shown}: it names the current directory, a parent or the root, not \
             an output directory; nothing was changed. Choose a new or empty directory such as \
             `output`"
        ),
    }
    let dir = resolve(out)?;
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        bail!(
            "refusing --out {shown}: it resolves to the root {}",
            dir.display()
        );
    };
    let (parent, name) = (parent.to_path_buf(), name.to_os_string());
    if let Ok(cwd) = std::env::current_dir().and_then(fs::canonicalize) {
        if cwd.starts_with(&dir) {
            bail!(
                "refusing --out {shown}: it is or contains the current directory {}; nothing was \
                 changed. Choose a new or empty directory",
                cwd.display()
            );
        }
    }
    for input in inputs {
        let inp = resolve(input)?;
        let why = if inp == dir {
            "is the input"
        } else if inp.starts_with(&dir) {
            "contains the input"
        } else if dir.starts_with(&inp) {
            "lies inside the input tree"
        } else {
            continue;
        };
        bail!(
            "refusing --out {shown}: it {why} {}; a run would read its own output or delete its \
             inputs. Nothing was read or written. Choose a directory outside the inputs",
            input.display()
        );
    }
    let mut notes = Vec::new();
    if parent.is_dir() {
        recover_leftovers(&parent, &name, &dir, &mut notes)?;
    }
    let replaces = replaceable(&dir, out, force)?;
    fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create the parent of --out {}", parent.display()))?;
    let tmp = parent.join(leftover_name(&name, "tmp", std::process::id()));
    fs::create_dir(&tmp).with_context(|| {
        format!(
            "cannot write beside --out {shown}: cannot create {}",
            tmp.display()
        )
    })?;
    write_file(&tmp.join(MARKER_FILE), marker_contents().as_bytes())?;
    Ok(Target {
        given: out.to_path_buf(),
        dir,
        parent,
        name,
        tmp,
        force,
        replaces,
        notes,
    })
}

impl Target {
    /// Removes the staging directory (the run stops without writing).
    pub fn abandon(self) {
        let _ = remove_marker_last(&self.tmp);
    }
}

/// Writes the dataset into the staging directory and swaps it with the output directory.
/// Returns `S011` notes for an old tree that could not be removed after the swap (the new
/// dataset is in place then).
pub fn commit(ds: &Dataset, target: Target) -> anyhow::Result<Vec<Diagnostic>> {
    let result = swap_in(ds, &target);
    if result.is_err() && target.tmp.exists() {
        // The staging directory holds the unfinished new tree: remove it now rather than
        // leaving it for the next run.
        let _ = remove_marker_last(&target.tmp);
    }
    result
}

fn swap_in(ds: &Dataset, target: &Target) -> anyhow::Result<Vec<Diagnostic>> {
    let delay = test_delay();
    let tmp = &target.tmp;
    let mut dirs = vec![tmp.clone()];
    for (rel, contents) in files(ds) {
        let path = tmp.join(&rel);
        if let Some(d) = path.parent() {
            if !dirs.iter().any(|x| x == d) {
                fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
                dirs.push(d.to_path_buf());
            }
        }
        write_file(&path, contents.as_bytes())?;
        pause(delay);
    }
    for d in dirs.iter().rev() {
        sync_dir(d)?;
    }
    // The directory may have changed while the pipeline ran: check it again.
    replaceable(&target.dir, &target.given, target.force)?;
    let dir = &target.dir;
    let mut notes = Vec::new();
    if fs::symlink_metadata(dir).is_err() {
        fs::rename(tmp, dir)
            .with_context(|| format!("cannot move {} to {}", tmp.display(), dir.display()))?;
        sync_dir(&target.parent)?;
        return Ok(notes);
    }
    match exchange(tmp, dir) {
        Ok(()) => {
            sync_dir(&target.parent)?;
            pause(delay);
            // The old tree is now at the staging name.
            if let Err(e) = remove_marker_last(tmp) {
                notes.push(Diagnostic::new(
                    Code::OutputLeftover,
                    format!(
                        "the new dataset is in {}, but its previous contents, now at {}, could \
                         not be removed: {e}",
                        dir.display(),
                        tmp.display()
                    ),
                ));
            }
        }
        Err(e) if exchange_unsupported(&e) => {
            let old = target
                .parent
                .join(leftover_name(&target.name, "old", std::process::id()));
            fs::rename(dir, &old).with_context(|| {
                format!("cannot move {} aside to {}", dir.display(), old.display())
            })?;
            pause(delay);
            if let Err(e) = fs::rename(tmp, dir) {
                let _ = fs::rename(&old, dir);
                return Err(e).with_context(|| {
                    format!("cannot move {} to {}", tmp.display(), dir.display())
                });
            }
            sync_dir(&target.parent)?;
            pause(delay);
            if let Err(e) = remove_marker_last(&old) {
                notes.push(Diagnostic::new(
                    Code::OutputLeftover,
                    format!(
                        "the new dataset is in {}, but the previous one, at {}, could not be \
                         removed: {e}",
                        dir.display(),
                        old.display()
                    ),
                ));
            }
        }
        Err(e) => {
            return Err(e)
                .with_context(|| format!("cannot swap {} into {}", tmp.display(), dir.display()))
        }
    }
    Ok(notes)
}

/// Writes the dataset to `out` with the checks of [`prepare`] (no inputs to compare with, no
/// `force`) and the atomic swap of [`commit`]; leftover notes are dropped.
pub fn write(ds: &Dataset, out: &Path) -> anyhow::Result<()> {
    let target = prepare(out, &[], false)?;
    commit(ds, target).map(|_| ())
}

/// `out` made absolute and canonical: a symlink's target; for a path that does not exist, its
/// nearest existing ancestor canonicalized plus the rest.
fn resolve(out: &Path) -> anyhow::Result<PathBuf> {
    let shown = out.display();
    match fs::symlink_metadata(out) {
        Ok(meta) => {
            let dir = fs::canonicalize(out).with_context(|| {
                if meta.file_type().is_symlink() {
                    format!("{shown} is a symbolic link that points nowhere")
                } else {
                    format!("cannot resolve {shown}")
                }
            })?;
            Ok(dir)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let abs = if out.is_absolute() {
                out.to_path_buf()
            } else {
                std::env::current_dir()
                    .context("cannot read the current directory")?
                    .join(out)
            };
            let mut rest: Vec<OsString> = Vec::new();
            let mut base = abs.as_path();
            let resolved = loop {
                if let Ok(c) = fs::canonicalize(base) {
                    break c;
                }
                match (base.parent(), base.file_name()) {
                    (Some(p), Some(n)) => {
                        rest.push(n.to_os_string());
                        base = p;
                    }
                    _ => bail!("cannot resolve {shown}"),
                }
            };
            let mut dir = resolved;
            for part in rest.iter().rev() {
                if part == ".." {
                    dir.pop();
                } else if part != "." {
                    dir.push(part);
                }
            }
            Ok(dir)
        }
        Err(e) => Err(e).with_context(|| format!("cannot inspect {shown}")),
    }
}

/// Whether `dir` may be replaced; the refusal names `given`.
fn replaceable(dir: &Path, given: &Path, force: bool) -> anyhow::Result<Replaces> {
    let shown = given.display();
    let meta = match fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Replaces::Nothing),
        Err(e) => return Err(e).with_context(|| format!("cannot inspect --out {shown}")),
    };
    if !meta.is_dir() {
        bail!(
            "refusing --out {shown}: it is a file, not a directory; nothing was changed. Choose \
             a new or empty directory"
        );
    }
    let empty = fs::read_dir(dir)
        .with_context(|| format!("cannot list --out {shown}"))?
        .next()
        .is_none();
    if empty {
        Ok(Replaces::Empty)
    } else if is_cogitator_output(dir) {
        Ok(Replaces::Previous)
    } else if force {
        Ok(Replaces::Forced)
    } else {
        bail!(
            "refusing to replace --out {shown}: it is not empty and not a previous cogitator \
             output (no {MARKER_FILE} marker, no manifest.json written by cogitator); nothing \
             was read or written. Choose a new or empty directory, or pass --force to replace \
             it and everything in it"
        )
    }
}

fn leftover_name(name: &std::ffi::OsStr, kind: &str, pid: u32) -> OsString {
    let mut s = OsString::from(".");
    s.push(name);
    s.push(format!(".{kind}-{pid}"));
    s
}

/// Recovers `.NAME.old-*` (when `dir` is missing) and removes marked `.NAME.{tmp,old}-*` of
/// processes no longer running, beside `dir`.
fn recover_leftovers(
    parent: &Path,
    name: &std::ffi::OsStr,
    dir: &Path,
    notes: &mut Vec<Diagnostic>,
) -> anyhow::Result<()> {
    let name = name.to_string_lossy();
    let mut found: Vec<(PathBuf, bool)> = Vec::new(); // (path, is an `.old-*`)
    let entries =
        fs::read_dir(parent).with_context(|| format!("cannot list {}", parent.display()))?;
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let Some(rest) = file.strip_prefix(&format!(".{name}.")) else {
            continue;
        };
        let (old, pid) = if let Some(pid) = rest.strip_prefix("old-") {
            (true, pid)
        } else if let Some(pid) = rest.strip_prefix("tmp-") {
            (false, pid)
        } else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let path = entry.path();
        if pid != std::process::id() && process_running(pid) {
            notes.push(Diagnostic::new(
                Code::OutputLeftover,
                format!(
                    "left {} in place: process {pid}, which may be writing it, is running",
                    path.display()
                ),
            ));
            continue;
        }
        found.push((path, old));
    }
    found.sort();
    if fs::symlink_metadata(dir).is_err() {
        // Interrupted between moving the old tree aside and the new one in: restore the newest.
        let newest = found
            .iter()
            .filter(|(p, old)| *old && is_cogitator_output(p))
            .max_by_key(|(p, _)| fs::metadata(p).and_then(|m| m.modified()).ok())
            .map(|(p, _)| p.clone());
        if let Some(old) = newest {
            fs::rename(&old, dir).with_context(|| {
                format!("cannot restore {} to {}", old.display(), dir.display())
            })?;
            notes.push(Diagnostic::new(
                Code::OutputLeftover,
                format!(
                    "restored {} from {} (a run was interrupted while replacing it)",
                    dir.display(),
                    old.display()
                ),
            ));
            found.retain(|(p, _)| *p != old);
        }
    }
    for (path, _) in found {
        if is_cogitator_output(&path) || only_marker(&path) {
            remove_marker_last(&path)
                .with_context(|| format!("cannot remove leftover {}", path.display()))?;
            notes.push(Diagnostic::new(
                Code::OutputLeftover,
                format!("removed leftover {} of an interrupted run", path.display()),
            ));
        } else {
            notes.push(Diagnostic::new(
                Code::OutputLeftover,
                format!(
                    "left {} in place: it is not a cogitator output; remove it yourself if it \
                     is not needed",
                    path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// An empty directory, or one holding only the marker (a staging directory cut short).
fn only_marker(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let mut n = 0;
    for e in entries {
        match e {
            Ok(e) if e.file_name() == MARKER_FILE => {}
            _ => n += 1,
        }
    }
    n == 0
}

/// Removes a tree, its marker and `manifest.json` last, so a removal cut short leaves a
/// directory that is still recognizably cogitator's.
fn remove_marker_last(dir: &Path) -> io::Result<()> {
    const LAST: [&str; 2] = ["manifest.json", MARKER_FILE];
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if LAST.iter().any(|l| entry.file_name() == *l) {
            continue;
        }
        if entry.file_type()?.is_dir() {
            fs::remove_dir_all(entry.path())?;
        } else {
            fs::remove_file(entry.path())?;
        }
    }
    for l in LAST {
        match fs::remove_file(dir.join(l)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    fs::remove_dir(dir)
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut f =
        fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> anyhow::Result<()> {
    fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("cannot sync {}", dir.display()))
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// Exchanges two existing paths in one step.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    if std::env::var_os("COGITATOR_TEST_NO_EXCHANGE").is_some() {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    let ca = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let cb = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both pointers are valid NUL-terminated strings for the duration of the call.
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// The platform or filesystem cannot exchange: use the rename-aside fallback.
fn exchange_unsupported(e: &io::Error) -> bool {
    #[cfg(unix)]
    if matches!(
        e.raw_os_error(),
        Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP)
    ) {
        return true;
    }
    e.kind() == io::ErrorKind::Unsupported
}

#[cfg(unix)]
fn process_running(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn process_running(_pid: u32) -> bool {
    false
}

/// Test hook: `COGITATOR_TEST_EMIT_DELAY_MS` (see the module doc).
fn test_delay() -> Option<std::time::Duration> {
    std::env::var("COGITATOR_TEST_EMIT_DELAY_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(std::time::Duration::from_millis)
}

fn pause(delay: Option<std::time::Duration>) {
    if let Some(d) = delay {
        std::thread::sleep(d);
    }
}
