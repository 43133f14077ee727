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
//! code), `points.json` (only when a source prints points apart from datasheets: 11th edition's
//! Munitorum Field Manual), `errata.json` (only when a source is an errata document),
//! `manifest.json` (inputs with sha256, bytes, format, status; counts; tool version),
//! `validation/expected-damage.csv`, `rule-clusters.json`, `reconciliation.json` (only when a
//! datasheet is printed by two or more sources: `crate::reconcile`), `schema/*.schema.json`
//! (the published JSON Schemas), and
//! the marker [`MARKER_FILE`] (`.cogitator-output`, naming the tool and the contract version),
//! which says the directory is a cogitator output that the next run may replace. Output is a
//! pure function of the dataset: the same dataset always gives byte-identical files.
//!
//! # What `--out DIR` may replace ([`prepare`])
//! A path that does not exist, an empty directory, or a previous cogitator output holding
//! nothing cogitator did not write ([`foreign_entries`]): every entry is a regular file or
//! directory that its cogitator `manifest.json` lists in `files` (and a name cogitator writes,
//! so a hand-made list cannot claim `src` or `.git`); for a manifest of a version before the
//! list, or the marker alone, the names cogitator writes. A marker or a copied manifest does not
//! make a directory replaceable: anything else in it is foreign, refused and named (escaped).
//! `force` replaces a directory that is no output or holds foreign entries, after the CLI named
//! them on stderr; an entry that appears during the run is refused even then. Always refused,
//! `force` or not: a regular file, `.`/`..`/`/`, a directory holding `.git` (a checkout), a
//! directory containing the current directory, and a directory that is an input, contains an
//! input or lies inside an input tree (canonical paths; a missing `DIR` is resolved through its
//! nearest existing ancestor). A symbolic link is written through: the directory it points to
//! is replaced, the link is kept. The new tree takes the old directory's permissions.
//! Every check, the recovery of leftovers and a write probe (creating the staging directory)
//! happen before any input is read, and every error names the path.
//!
//! # Atomic write ([`commit`])
//! The new tree is written into the sibling staging directory `.DIR.tmp-PID` (marker first),
//! each file through [`write_atomic`] (the one way cogitator writes a file; the files in
//! parallel, except under the test delay), every file and
//! directory fsynced, then exchanged with `DIR` in one step (Linux
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
use crate::text::escape;
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

/// [`to_json`] of a list, its items serialized in parallel (rayon) and joined in order: the
/// same bytes, since the pretty printer writes an item of a top-level list as the item alone
/// one level deeper ([`ListItem`]).
pub fn list_to_json<T: Serialize + Sync>(items: &[T]) -> String {
    use rayon::prelude::*;
    if items.is_empty() {
        return to_json(items);
    }
    let parts: Result<Vec<Vec<u8>>, _> = items
        .par_iter()
        .map(|item| {
            let mut out = Vec::new();
            let mut ser = serde_json::Serializer::with_formatter(&mut out, ListItem::default());
            item.serialize(&mut ser).map(|()| out)
        })
        .collect();
    let Ok(parts) = parts else {
        // the message of the whole list's error, as `to_json` gives it
        return to_json(items);
    };
    let mut s = Vec::with_capacity(parts.iter().map(|p| p.len() + 4).sum::<usize>() + 4);
    s.push(b'[');
    for (i, part) in parts.iter().enumerate() {
        s.extend_from_slice(if i == 0 { b"\n  " } else { b",\n  " });
        s.extend_from_slice(part);
    }
    s.extend_from_slice(b"\n]\n");
    // serde_json writes UTF-8 only
    String::from_utf8(s).unwrap_or_else(|_| to_json(items))
}

/// `serde_json`'s pretty printing (two spaces an indent) of an item of a top-level list: every
/// line after the first one level deeper, as the list's pretty printing has it.
#[derive(Default)]
struct ListItem {
    /// Levels below the item's own (the list's level, 1, added when indenting).
    depth: usize,
    /// Whether the container being closed has a value (it is then closed on a line of its own).
    has_value: bool,
}

impl ListItem {
    fn indent<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        (0..=self.depth).try_for_each(|_| w.write_all(b"  "))
    }

    fn line<W: ?Sized + io::Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn open<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for ListItem {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Every file of the dataset as (relative path, contents), in a fixed order. The marker is not
/// one of them: [`commit`] writes it. The manifest's `files` lists every path written, the
/// marker and the manifest included: what the next run may replace. The record lists are
/// serialized in parallel ([`list_to_json`]).
pub fn files(ds: &Dataset) -> Vec<(String, String)> {
    let mut out = vec![
        ("datasheets.json".to_string(), list_to_json(&ds.datasheets)),
        ("rules.json".to_string(), list_to_json(&ds.rules)),
        ("stratagems.json".to_string(), list_to_json(&ds.stratagems)),
        (
            "enhancements.json".to_string(),
            list_to_json(&ds.enhancements),
        ),
        (
            "detachments.json".to_string(),
            list_to_json(&ds.detachments),
        ),
        ("quarantine.json".to_string(), list_to_json(&ds.quarantine)),
        (
            "diagnostics.json".to_string(),
            list_to_json(&ds.diagnostics),
        ),
    ];
    if !ds.points.is_empty() {
        out.push(("points.json".to_string(), list_to_json(&ds.points)));
    }
    if !ds.errata.is_empty() {
        out.push(("errata.json".to_string(), list_to_json(&ds.errata)));
    }
    out.extend(ds.extra_files.iter().cloned());
    let mut names: Vec<String> = out
        .iter()
        .map(|(p, _)| p.clone())
        .chain([MANIFEST_FILE.to_string(), MARKER_FILE.to_string()])
        .collect();
    names.sort();
    names.dedup();
    let mut manifest = ds.manifest.clone();
    manifest.files = names;
    out.insert(7, (MANIFEST_FILE.to_string(), to_json(&manifest)));
    out
}

/// The manifest's file name.
pub const MANIFEST_FILE: &str = "manifest.json";

/// A small regular file of a directory cogitator may replace, at most `max` bytes; a link at
/// its name, a device, a FIFO or a larger file reads as absent.
fn read_own_file(path: &Path, max: u64) -> Option<Vec<u8>> {
    crate::fsread::read_regular(path, max, crate::fsread::LastLink::Refuse)
        .ok()
        .filter(|b| b.len() as u64 <= max)
}

/// Largest manifest read back to decide what a directory holds.
const MAX_MANIFEST: u64 = 256 * 1024 * 1024;

/// True for a directory written by cogitator: it carries the marker, or its `manifest.json`
/// names the tool (the outputs of versions before the marker). Whether it may be replaced is
/// [`foreign_entries`]' question: this only says it looks like an output (discovery does not
/// read it as input).
pub fn is_cogitator_output(dir: &Path) -> bool {
    if !dir.is_dir() {
        return false;
    }
    if has_marker(dir) {
        return true;
    }
    manifest_files(dir).is_some()
}

fn has_marker(dir: &Path) -> bool {
    read_own_file(&dir.join(MARKER_FILE), 64 * 1024)
        .is_some_and(|b| b.starts_with(b"cogitator output"))
}

/// The files a cogitator `manifest.json` in `dir` lists (empty for the manifests of versions
/// before the list); `None` when there is no such manifest.
fn manifest_files(dir: &Path) -> Option<Vec<String>> {
    let bytes = read_own_file(&dir.join(MANIFEST_FILE), MAX_MANIFEST)?;
    let v = serde_json::from_slice::<serde_json::Value>(&bytes).ok()?;
    if v.get("tool").and_then(|t| t.as_str()) != Some("cogitator") {
        return None;
    }
    Some(
        v.get("files")
            .and_then(|f| f.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// A path a manifest's `files` may list: relative, no hidden part (the marker apart), a data or
/// report file (`.json`, `.csv`, `.md`, `.txt`, `.yaml`). A hand-made or copied manifest cannot
/// claim `.git`, `src/` or `main.rs`; a file a later version adds to the output is listed by its
/// own manifest and needs no change here.
fn plausible(rel: &str) -> bool {
    if rel == MARKER_FILE {
        return true;
    }
    let parts: Vec<&str> = rel.split('/').collect();
    let ext_ok = [".json", ".csv", ".md", ".txt", ".yaml"]
        .iter()
        .any(|e| rel.ends_with(e));
    ext_ok && parts.iter().all(|p| !p.is_empty() && !p.starts_with('.'))
}

/// A path cogitator writes in an output directory, whatever its version: the fixed files, the
/// published schemas, the validation table, and the temporary files of [`write_atomic`] (of a
/// staging directory cut short). What a manifest without a `files` list (older versions), or a
/// marker alone, vouches for.
fn known_name(rel: &str) -> bool {
    const TOP: [&str; 14] = [
        "datasheets.json",
        "rules.json",
        "stratagems.json",
        "enhancements.json",
        "detachments.json",
        "quarantine.json",
        "diagnostics.json",
        MANIFEST_FILE,
        MARKER_FILE,
        "rule-clusters.json",
        "reconciliation.json",
        "points.json",
        "errata.json",
        "validation/expected-damage.csv",
    ];
    if TOP.contains(&rel) {
        return true;
    }
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    if name.starts_with(TEMP_PREFIX) && (dir.is_empty() || dir == "schema" || dir == "validation") {
        return true;
    }
    dir == "schema"
        && (name.ends_with(".schema.json") || name.ends_with(".json"))
        && !name.starts_with('.')
}

/// The entries of `dir` that cogitator did not write (`/`-separated, a foreign directory
/// named once with a trailing `/`, sorted), or `None` when `dir` is not a cogitator output at
/// all (no marker, no cogitator manifest). What cogitator wrote is what the manifest's `files`
/// lists (each also [`plausible`]); for a manifest without the list or a marker alone, the
/// [`known_name`]s. Symbolic links, devices and the like are always foreign; symbolic links are
/// never followed.
pub fn foreign_entries(dir: &Path) -> Option<Vec<String>> {
    let listed: std::collections::BTreeSet<String> = match manifest_files(dir) {
        Some(list) => list.into_iter().filter(|f| plausible(f)).collect(),
        None if has_marker(dir) => Default::default(),
        None => return None,
    };
    // Every directory on the way to a listed file.
    let listed_dirs: std::collections::BTreeSet<&str> = listed
        .iter()
        .flat_map(|l| l.match_indices('/').map(move |(i, _)| &l[..i]))
        .collect();
    let ours = |rel: &str| -> bool {
        if listed.is_empty() {
            known_name(rel)
        } else {
            listed.contains(rel)
                || (rel
                    .rsplit('/')
                    .next()
                    .is_some_and(|n| n.starts_with(TEMP_PREFIX))
                    && known_name(rel))
        }
    };
    let holds = |prefix: &str| -> bool {
        if listed.is_empty() {
            prefix == "schema" || prefix == "validation"
        } else {
            listed_dirs.contains(prefix)
        }
    };
    let mut foreign = Vec::new();
    let mut stack: Vec<(PathBuf, String)> = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, prefix)) = stack.pop() {
        let Ok(entries) = fs::read_dir(&path) else {
            foreign.push(format!("{prefix}/"));
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let rel = match name.to_str() {
                Some(n) if prefix.is_empty() => n.to_string(),
                Some(n) => format!("{prefix}/{n}"),
                None => {
                    let n = crate::text::escape::os(&name);
                    foreign.push(if prefix.is_empty() {
                        n
                    } else {
                        format!("{prefix}/{n}")
                    });
                    continue;
                }
            };
            match entry.file_type() {
                Ok(t) if t.is_dir() && holds(&rel) => stack.push((entry.path(), rel)),
                Ok(t) if t.is_dir() => foreign.push(format!("{rel}/")),
                Ok(t) if t.is_file() && ours(&rel) => {}
                _ => foreign.push(rel),
            }
        }
    }
    foreign.sort();
    Some(foreign)
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
    /// A directory that is not a cogitator output, or one holding entries cogitator did not
    /// write ([`Target::foreign`]), replaced because of `force`.
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
    /// With [`Replaces::Forced`]: the entries cogitator did not write that the swap deletes
    /// (escaped for the terminal; `*` for a directory that is no output at all).
    pub foreign: Vec<String>,
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
    let (replaces, foreign) = replaceable(&dir, out, force)?;
    fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create the parent of --out {}", parent.display()))?;
    let tmp = parent.join(leftover_name(&name, "tmp", std::process::id()));
    fs::create_dir(&tmp).with_context(|| {
        format!(
            "cannot write beside --out {shown}: cannot create {}",
            tmp.display()
        )
    })?;
    write_atomic(&tmp, MARKER_FILE, marker_contents().as_bytes())?;
    Ok(Target {
        given: out.to_path_buf(),
        dir,
        parent,
        name,
        tmp,
        force,
        replaces,
        foreign,
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
    let files = files(ds);
    // The files are written in parallel, then synced together, one by one (each synced as it
    // is written) under the test delay; the first error in file order is the one reported.
    let written: Vec<anyhow::Result<PathBuf>> = match delay {
        None => {
            use rayon::prelude::*;
            // Every file written, then every file synced (see `write_staged`), before the
            // directories are synced and the tree swapped in.
            let staged: Vec<anyhow::Result<(PathBuf, fs::File)>> = files
                .par_iter()
                .map(|(rel, contents)| write_staged(tmp, rel, contents.as_bytes()))
                .collect();
            sync_all(staged)
        }
        Some(_) => {
            let mut written = Vec::with_capacity(files.len());
            for (rel, contents) in &files {
                let w = write_atomic(tmp, rel, contents.as_bytes());
                let failed = w.is_err();
                written.push(w);
                if failed {
                    break;
                }
                pause(delay);
            }
            written
        }
    };
    drop(files);
    for path in written {
        let path = path?;
        if let Some(d) = path.parent() {
            if !dirs.iter().any(|x| x == d) {
                dirs.push(d.to_path_buf());
            }
        }
    }
    for d in dirs.iter().rev() {
        sync_dir(d)?;
    }
    // The directory may have changed while the pipeline ran: check it again. With `force`,
    // only the foreign entries announced before the run may go.
    let (_, foreign) = replaceable(&target.dir, &target.given, target.force)?;
    if let Some(new) = foreign.iter().find(|f| !target.foreign.contains(f)) {
        bail!(
            "refusing to replace --out {}: {new} appeared in it while cogitator was running; \
             nothing was replaced",
            escape::path(&target.given)
        );
    }
    let dir = &target.dir;
    // The new tree takes the old directory's permissions (a 700 output stays 700).
    if let Ok(meta) = fs::metadata(dir) {
        fs::set_permissions(tmp, meta.permissions())
            .with_context(|| format!("cannot set the permissions of {}", tmp.display()))?;
    }
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

/// Whether `dir` may be replaced, and the foreign entries `force` lets go; the refusal names
/// `given` and the foreign entries (at most [`MAX_NAMED`]).
fn replaceable(dir: &Path, given: &Path, force: bool) -> anyhow::Result<(Replaces, Vec<String>)> {
    let shown = escape::path(given);
    let meta = match fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Replaces::Nothing, vec![])),
        Err(e) => return Err(e).with_context(|| format!("cannot inspect --out {shown}")),
    };
    if !meta.is_dir() {
        bail!(
            "refusing --out {shown}: it is a file, not a directory; nothing was changed. Choose \
             a new or empty directory"
        );
    }
    if fs::symlink_metadata(dir.join(".git")).is_ok() {
        bail!(
            "refusing --out {shown}: it holds .git (a git checkout), which cogitator never \
             replaces, --force or not; nothing was changed. Choose a new or empty directory"
        );
    }
    let empty = fs::read_dir(dir)
        .with_context(|| format!("cannot list --out {shown}"))?
        .next()
        .is_none();
    if empty {
        return Ok((Replaces::Empty, vec![]));
    }
    let foreign = match foreign_entries(dir) {
        Some(f) if f.is_empty() => return Ok((Replaces::Previous, vec![])),
        Some(f) => f
            .into_iter()
            .map(|e| escape::display(&e).into_owned())
            .collect(),
        None if force => return Ok((Replaces::Forced, vec!["*".to_string()])),
        None => bail!(
            "refusing to replace --out {shown}: it is not empty and not a previous cogitator \
             output (no {MARKER_FILE} marker, no manifest.json written by cogitator); nothing \
             was read or written. Choose a new or empty directory, or pass --force to replace \
             it and everything in it"
        ),
    };
    if force {
        return Ok((Replaces::Forced, foreign));
    }
    bail!(
        "refusing to replace --out {shown}: it is a previous cogitator output, but holds \
         {} that cogitator did not write (its manifest.json does not list {}): {}; nothing \
         was read or written. Move {} away, choose another directory, or pass --force to \
         delete {} with the output",
        if foreign.len() == 1 {
            "an entry"
        } else {
            "entries"
        },
        if foreign.len() == 1 { "it" } else { "them" },
        named(&foreign),
        if foreign.len() == 1 { "it" } else { "them" },
        if foreign.len() == 1 { "it" } else { "them" },
    )
}

/// Foreign entries named in a message.
pub const MAX_NAMED: usize = 20;

/// `a, b, c` or `a, b, … and 5 more`.
pub fn named(entries: &[String]) -> String {
    let mut s = entries
        .iter()
        .take(MAX_NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if entries.len() > MAX_NAMED {
        s.push_str(&format!(", … and {} more", entries.len() - MAX_NAMED));
    }
    s
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
        if only_marker(&path) || foreign_entries(&path).is_some_and(|f| f.is_empty()) {
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

/// An empty directory, or one holding only the marker and temporary files of [`write_atomic`]
/// (a staging directory cut short, possibly before its marker was renamed into place).
fn only_marker(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let mut n = 0;
    for e in entries {
        match e {
            Ok(e)
                if e.file_name() == MARKER_FILE
                    || (e.file_type().is_ok_and(|t| t.is_file())
                        && e.file_name()
                            .to_str()
                            .is_some_and(|n| n.starts_with(TEMP_PREFIX))) => {}
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

/// The prefix of the temporary files of [`write_atomic`].
pub const TEMP_PREFIX: &str = ".cogitator-tmp-";

/// Writes `bytes` to `root/rel` (`rel` `/`-separated, without `.`, `..` or empty parts): the
/// file is created exclusively (`O_EXCL`, a fresh name, so no link planted there is
/// followed) in the target directory, written, synced, then renamed over `rel`. Refused, before
/// anything is written: `rel` or a directory on the way below `root` that is a symbolic link
/// (git stores links, so a dataset can ship one pointing anywhere) or not a regular file or
/// directory. Missing directories below `root` are created; `root` itself may be a link (the
/// user named it). Every file cogitator writes goes through here (or [`write_staged`]). Returns
/// the path written.
pub fn write_atomic(root: &Path, rel: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    write_file(root, rel, bytes, true).map(|(path, _)| path)
}

/// [`write_atomic`] into a staging directory that is itself swapped in only once every file in
/// it is synced: the file is renamed into place unsynced and returned, for the caller to sync
/// (all of a dataset's files synced after they are all written, not one by one: each sync of a
/// file written after the others' waits on the disk again).
fn write_staged(root: &Path, rel: &str, bytes: &[u8]) -> anyhow::Result<(PathBuf, fs::File)> {
    write_file(root, rel, bytes, false)
}

fn write_file(
    root: &Path,
    rel: &str,
    bytes: &[u8],
    sync: bool,
) -> anyhow::Result<(PathBuf, fs::File)> {
    let parts: Vec<&str> = rel.split('/').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == "." || *p == "..")
    {
        bail!(
            "cannot write {}: not a plain relative path",
            escape::display(rel)
        );
    }
    let (name, dirs) = parts.split_last().unwrap_or((&"", &[]));
    let mut dir = root.to_path_buf();
    for part in dirs {
        dir.push(part);
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(m) if m.file_type().is_symlink() => bail!(
                "refusing to write {}: {} is a symbolic link; cogitator writes only into \
                 directories it can see are real ones. Remove the link",
                escape::path(&root.join(rel)),
                escape::path(&dir)
            ),
            Ok(_) => bail!(
                "cannot write {}: {} is not a directory",
                escape::path(&root.join(rel)),
                escape::path(&dir)
            ),
            Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e)
                    if e.kind() == io::ErrorKind::AlreadyExists
                        && fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot create {}", escape::path(&dir)))
                }
            },
            Err(e) => {
                return Err(e).with_context(|| format!("cannot inspect {}", escape::path(&dir)))
            }
        }
    }
    let path = dir.join(name);
    match fs::symlink_metadata(&path) {
        Ok(m) if m.is_file() => {}
        Ok(m) => bail!(
            "refusing to write {}: it is {}, not a regular file; nothing was written. Remove it",
            escape::path(&path),
            if m.file_type().is_symlink() {
                "a symbolic link"
            } else {
                "a directory or special file"
            }
        ),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot inspect {}", escape::path(&path))),
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    // The mode `File::create` gives (0o666 less the umask), not tempfile's private 0o600: the
    // dataset is meant to be read by others.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    // The directory pinned by a descriptor opened without following links (Linux): a directory
    // swapped for a link after the checks above is refused, not written through.
    let pinned = pin_dir(root, dirs).with_context(|| {
        format!(
            "refusing to write {}: a directory on the way changed into something else",
            escape::path(&path)
        )
    })?;
    let (write_dir, write_path) = match &pinned {
        Some((_, fd_dir)) => (fd_dir.clone(), fd_dir.join(name)),
        None => (dir.clone(), path.clone()),
    };
    let mut tmp = builder
        .tempfile_in(&write_dir)
        .with_context(|| format!("cannot create a file in {}", escape::path(&dir)))?;
    tmp.write_all(bytes)
        .and_then(|()| {
            if sync {
                tmp.as_file().sync_all()
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("cannot write {}", escape::path(&path)))?;
    let file = tmp
        .persist(&write_path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", escape::path(&path)))?;
    drop(pinned);
    Ok((path, file))
}

/// Syncs every file written (in the order given; an error stays with its file), each on a
/// thread of its own: the file system commits syncs that wait together in one go (ext4's
/// journal does), where one sync after another each waits for the disk.
fn sync_all(written: Vec<anyhow::Result<(PathBuf, fs::File)>>) -> Vec<anyhow::Result<PathBuf>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = written
            .into_iter()
            .map(|w| {
                scope.spawn(move || {
                    let (path, file) = w?;
                    file.sync_all()
                        .with_context(|| format!("cannot write {}", escape::path(&path)))?;
                    Ok(path)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a file's sync panicked")))
            })
            .collect()
    })
}

/// `root/dirs…` opened part by part with `O_NOFOLLOW | O_DIRECTORY` (`root` itself may be a
/// link), and its `/proc/self/fd/N` name, through which the file is created and renamed: the
/// kernel resolves that name to the directory the descriptor holds, whatever the path names by
/// then. `None` where `/proc` is not mounted (the checked path is used then).
#[cfg(target_os = "linux")]
fn pin_dir(root: &Path, dirs: &[&str]) -> io::Result<Option<(std::os::fd::OwnedFd, PathBuf)>> {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    if !Path::new("/proc/self/fd").is_dir() {
        return Ok(None);
    }
    let c = |p: &[u8]| std::ffi::CString::new(p).map_err(io::Error::other);
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
    let croot = c(root.as_os_str().as_bytes())?;
    // SAFETY: a valid NUL-terminated path; the descriptor returned is owned below.
    let fd = unsafe { libc::open(croot.as_ptr(), flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nobody else.
    let mut dir = unsafe { OwnedFd::from_raw_fd(fd) };
    for part in dirs {
        let cpart = c(part.as_bytes())?;
        // SAFETY: `dir` is an open directory and `cpart` a valid NUL-terminated name.
        let fd = unsafe { libc::openat(dir.as_raw_fd(), cpart.as_ptr(), flags | libc::O_NOFOLLOW) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above.
        dir = unsafe { OwnedFd::from_raw_fd(fd) };
    }
    let name = PathBuf::from(format!("/proc/self/fd/{}", dir.as_raw_fd()));
    Ok(Some((dir, name)))
}

#[cfg(not(target_os = "linux"))]
fn pin_dir(_root: &Path, _dirs: &[&str]) -> io::Result<Option<((), PathBuf)>> {
    Ok(None)
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Values nested `depth` deep of every kind the pretty printer lays out differently: empty
    /// and filled arrays and objects, strings with escapes and line breaks, numbers, null.
    fn values(depth: usize) -> Vec<Value> {
        let mut out = vec![
            json!(null),
            json!(true),
            json!(-1.5),
            json!(7),
            json!(""),
            json!("a \"quoted\"\nline\tand é"),
            json!([]),
            json!({}),
        ];
        if depth > 0 {
            let inner = values(depth - 1);
            for (i, v) in inner.iter().enumerate() {
                out.push(json!([v, inner[(i + 3) % inner.len()]]));
                out.push(json!({ "k": v, "empty": [], "z": { "n": v } }));
            }
        }
        out
    }

    /// A list's parallel serialization is the same bytes as serializing it whole.
    #[test]
    fn list_to_json_is_to_json() {
        let all = values(3);
        assert!(all.len() > 100, "{}", all.len());
        assert_eq!(list_to_json(&all), to_json(&all));
        for v in &all {
            let one = std::slice::from_ref(v);
            assert_eq!(list_to_json(one), to_json(one), "{v}");
        }
        let empty: [Value; 0] = [];
        assert_eq!(list_to_json(&empty), "[]\n");
    }
}
