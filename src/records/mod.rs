//! Record sources: structured inputs (a set of tables) → records directly, without IR blocks.
//!
//! The pipeline's second seam beside [`crate::decode`]: a decoder turns one document into
//! blocks for `extract`; a record source turns a *group* of structured files into the same
//! [`Extracted`] records `extract` produces, which then go through the same `normalize` and
//! merge. The pipeline hands a source its files as a [`Group`]: every input whose content
//! sniffs as [`Format::Csv`](crate::source::Format::Csv), `Format::Xml` or `Format::Json`, grouped by parent directory, sorted by
//! path. Each registered [`RecordSource`] is asked in turn whether it [claims](RecordSource::claims)
//! the group (from file names and headers, never from the directory name); the first that
//! does reads it. Files of a group no source claims, and files of a claimed group the source
//! does not read, stay `skipped` with `S007`.
//!
//! Adding a structured format is one module beside this one (a `claims` and a `read`
//! function) and one line in [`SOURCES`]. Architecture invariants: a record source never fails
//! (bad content is a diagnostic; a missing table is a diagnostic and it reads what is there),
//! does no I/O (the pipeline loaded the files), imports no parser but its format's own (`csv`
//! here; HTML inside fields goes through `decode::html`), invents nothing, and produces
//! the same output for the same bytes whatever the order of the group's files.

use crate::extract::Extracted;
use crate::source::SourceFile;

pub mod bsdata;
pub mod dates;
pub mod game_datacards;
pub mod mfm_yaml;
pub mod wahapedia_csv;

/// The structured files of one directory, as the pipeline hands them to a record source.
#[derive(Debug, Clone, Copy)]
pub struct Group<'a> {
    /// The directory relative to the input root (`wahapedia-csv/2025-11-14`; empty for the root).
    pub dir: &'a str,
    /// The files, sorted by path.
    pub files: &'a [&'a SourceFile],
}

impl<'a> Group<'a> {
    /// The file of this group named `name` (`Datasheets.csv`).
    pub fn file(&self, name: &str) -> Option<&'a SourceFile> {
        self.files
            .iter()
            .copied()
            .find(|f| file_name(&f.path) == name)
    }
}

/// The last component of a `/`-separated path.
pub fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, n)| n)
}

/// The directory of a `/`-separated path (empty at the root).
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// A registered record source.
#[derive(Debug, Clone, Copy)]
pub struct RecordSource {
    /// Shown in diagnostics and docs (`wahapedia-csv`).
    pub name: &'static str,
    /// Whether this source reads the group: cheap, from file names and first lines only.
    pub claims: fn(&Group) -> bool,
    /// Reads a claimed group: one [`Extracted`] per file it read (`file` = that file's path),
    /// holding the records whose provenance is that file and the diagnostics about it. A file
    /// of the group with no entry was not read and stays `skipped`.
    pub read: fn(&Group) -> Vec<Extracted>,
}

/// The record sources, asked in this order. One line per structured format.
pub const SOURCES: &[RecordSource] = &[
    wahapedia_csv::SOURCE,
    bsdata::SOURCE,
    mfm_yaml::SOURCE,
    game_datacards::SOURCE,
];

/// The faction's name in the edition's vocabulary (`Adeptus Astartes` → Space Marines), else as
/// given: the app's faction files and the MFM data name factions so.
pub(crate) fn faction_of(edition: crate::edition::Edition, name: &str) -> String {
    crate::vocab::of(edition)
        .and_then(|v| v.faction_named(name))
        .map_or_else(|| name.to_string(), str::to_string)
}

/// The first registered source that claims `group`.
pub fn source_for(group: &Group) -> Option<&'static RecordSource> {
    SOURCES.iter().find(|s| (s.claims)(group))
}
