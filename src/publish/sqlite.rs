//! The SQLite database of a dataset (issue 29): a table per record type, sub-records with a
//! `FOREIGN KEY` to their datasheet, provenance (`file`, `line`, `page`, `sha256`) on every row,
//! the dataset's manifest facts in `meta` (no time), and an FTS5 index over the text of rules,
//! stratagems, enhancements and datasheet abilities (`documents_fts`), which [`search`] ranks
//! with names weighted above text.
//!
//! The database is built in memory in one transaction with prepared statements, rows in the
//! dataset's order, so the same dataset gives the same bytes; then written through
//! `emit::write_atomic` (a temporary file in the target's directory, renamed over it). A file
//! already at the target is replaced only when it is a database cogitator wrote (SQLite's
//! header carries cogitator's `application_id`); anything else is refused before anything is
//! written.
//!
//! Owns the schema ([`schema`]), the rows ([`insert`]), the database file and the search query
//! ([`search`]). The only module with `rusqlite` (`tests/it/tidy.rs`). Must not run the
//! pipeline or change a value.

pub mod insert;
pub mod schema;
pub mod search;

pub use search::{search, Hit, Kind, Query};

use crate::dataset::LoadedDataset;
use crate::fsread::{read_regular, LastLink, Unread};
use crate::text::escape;
use anyhow::{bail, Context};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// SQLite's `application_id` of a cogitator database (`PRAGMA application_id`; bytes 68–71
/// of the file): `Cogi`.
pub const APPLICATION_ID: i32 = 0x436f_6769;

/// The layout of the tables (`PRAGMA user_version`, and `meta.schema_version`); bumped on any
/// incompatible change.
pub const SCHEMA_VERSION: i32 = 1;

/// Builds the database of `dataset` in memory: every table filled in one transaction, the
/// full-text index built, the foreign keys checked (`PRAGMA foreign_key_check` must be clean).
/// `tick` is called once per top-level record (for a progress bar).
pub fn build(dataset: &LoadedDataset, tick: &mut dyn FnMut()) -> anyhow::Result<Connection> {
    let mut conn = Connection::open_in_memory().context("cannot open an SQLite database")?;
    conn.execute_batch(&format!(
        "PRAGMA application_id = {APPLICATION_ID};\n\
         PRAGMA user_version = {SCHEMA_VERSION};\n\
         PRAGMA foreign_keys = ON;"
    ))?;
    let tx = conn.transaction()?;
    for t in schema::tables() {
        tx.execute_batch(&t.create_sql())?;
    }
    tx.execute_batch(schema::FTS_SQL)?;
    {
        let mut st = insert::Statements::prepare(&tx)?;
        insert::all(&mut st, dataset, tick).context("cannot publish the dataset")?;
    }
    tx.execute_batch(schema::FTS_REBUILD_SQL)?;
    for sql in schema::INDEX_SQL {
        tx.execute_batch(sql)?;
    }
    tx.commit()?;
    let broken = foreign_key_violations(&conn)?;
    if !broken.is_empty() {
        bail!(
            "the database breaks {} foreign key(s): {}",
            broken.len(),
            broken.join("; ")
        );
    }
    Ok(conn)
}

/// `PRAGMA foreign_key_check`: each violation as `table row N → parent`.
pub fn foreign_key_violations(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare("PRAGMA foreign_key_check")?;
    let rows = st.query_map([], |r| {
        let table: String = r.get(0)?;
        let rowid: Option<i64> = r.get(1)?;
        let parent: String = r.get(2)?;
        Ok(format!("{table} row {} → {parent}", rowid.unwrap_or(0)))
    })?;
    rows.collect()
}

/// Writes the database of `dataset` to `path` atomically. Refused (nothing written) when
/// `path` is a symbolic link, not a regular file, or a file that is not a cogitator database.
pub fn write(dataset: &LoadedDataset, path: &Path, tick: &mut dyn FnMut()) -> anyhow::Result<()> {
    check_target(path)?;
    let (dir, name) = split(path)?;
    let conn = build(dataset, tick)?;
    let bytes = conn
        .serialize(rusqlite::MAIN_DB)
        .context("cannot serialize the database")?;
    crate::emit::write_atomic(dir, name, &bytes)?;
    Ok(())
}

/// The directory and plain file name of the target.
fn split(path: &Path) -> anyhow::Result<(&Path, &str)> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| *n != "." && *n != "..");
    let Some(name) = name else {
        bail!(
            "cannot write {}: give a file name in UTF-8",
            escape::path(path)
        );
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        bail!(
            "cannot write {}: {} is not a directory",
            escape::path(path),
            escape::path(dir)
        );
    }
    Ok((dir, name))
}

/// Refuses a target that cogitator must not replace.
fn check_target(path: &Path) -> anyhow::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot inspect {}", escape::path(path))),
    };
    if meta.file_type().is_symlink() || !meta.is_file() {
        bail!(
            "refusing to write {}: it is {}, not a regular file; nothing was written",
            escape::path(path),
            if meta.file_type().is_symlink() {
                "a symbolic link"
            } else {
                "a directory or special file"
            }
        );
    }
    if !is_cogitator_database(path)? {
        bail!(
            "refusing to overwrite {}: it is not a database cogitator wrote (no cogitator \
             application_id in its SQLite header); nothing was written. Remove it or choose \
             another file",
            escape::path(path)
        );
    }
    Ok(())
}

/// Whether the file at `path` is an SQLite database cogitator wrote: SQLite 3's header with
/// cogitator's [`APPLICATION_ID`]. A symbolic link is refused, never followed.
pub fn is_cogitator_database(path: &Path) -> anyhow::Result<bool> {
    let bytes = match read_regular(path, 100, LastLink::Refuse) {
        Ok(b) => b,
        Err(Unread::NotRegular(kind)) => bail!("{}: a {kind}", escape::path(path)),
        Err(Unread::Io(e)) => {
            return Err(e).with_context(|| format!("cannot read {}", escape::path(path)))
        }
    };
    Ok(bytes.len() >= 100
        && bytes.starts_with(b"SQLite format 3\0")
        && bytes[68..72] == APPLICATION_ID.to_be_bytes())
}

/// Opens a database written by `cogitator publish --sqlite`, read-only. Fails on a file that
/// is not one, or one of another [`SCHEMA_VERSION`].
pub fn open(path: &Path) -> anyhow::Result<Connection> {
    if !is_cogitator_database(path)? {
        bail!(
            "{}: not a database written by `cogitator publish --sqlite`",
            escape::path(path)
        );
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("cannot open {}", escape::path(path)))?;
    let version: i32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version != SCHEMA_VERSION {
        bail!(
            "{}: database layout {version}, this cogitator reads {SCHEMA_VERSION}; publish it again",
            escape::path(path)
        );
    }
    Ok(conn)
}

/// How many top-level records [`build`] calls its `tick` for.
pub fn record_count(dataset: &LoadedDataset) -> u64 {
    let n = dataset.datasheets.len()
        + dataset.rules.len()
        + dataset.stratagems.len()
        + dataset.enhancements.len()
        + dataset.detachments.len()
        + dataset.points.len()
        + dataset.errata.len();
    n as u64
}
