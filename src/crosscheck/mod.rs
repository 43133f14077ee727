//! Crosscheck: compares a dataset's datasheets with Wahapedia's own CSV export, field by field,
//! and explains every disagreement.
//!
//! The export is read as ingest reads it: its record source (`records::wahapedia_csv`, here
//! `export`) builds `Datasheet`s from the tables (`pipeline::read_group`, normalized), and in
//! `Mode::Crosscheck` checks the tables are all there and gives what only the export carries
//! ([`ExportFacts`]). This module owns matching each dataset datasheet to an export datasheet
//! (by id as ingest pairs sources, else by name, tolerant of case, apostrophes, dashes and
//! accents; see `find`) and assembling the [`Report`]; `compare` compares one matched pair through
//! the comparison core's view (`compare::view`, shared with the reconciliation) and decides
//! the category of each disagreement (`version`: a change since the export, `naming`,
//! `data_error`: an extraction error); `report` holds the report types and the summary figures
//! (each disagreement is the reconciliation's per-field report of the two sides).
//!
//! Pure: it must not read or write files other than through [`Exported::read_dir`], must not
//! change the dataset, and must not know unit names (no list of expected differences): the
//! known real changes between the dated export and later pages have to show up in the report
//! by the general rule. Output is deterministic: sorted, no timestamps, no absolute paths.

pub mod compare;
pub mod report;

pub use crate::compare::Category;
/// The export's reader lives with the pipeline's record sources.
pub use crate::records::wahapedia_csv as export;
pub use export::{Export, ExportError, ExportFacts};
pub use report::{Match, Report, Summary, Unmatched};

use crate::model::Datasheet;
use crate::reconcile::FieldReport;
use crate::text::fold::fold_name_key;
use compare::compare;
use report::disagreement;
use std::collections::BTreeMap;

/// The export as the crosscheck compares it: its tables (read in `Mode::Crosscheck`: the
/// diagnostics of reading them, `Last_update.csv`, the factions) and every datasheet its
/// record source builds, with that datasheet's [`ExportFacts`], in export id order.
#[derive(Debug, Default)]
pub struct Exported {
    pub export: Export,
    pub datasheets: Vec<(Datasheet, ExportFacts)>,
}

impl Exported {
    /// Reads an export directory: the crosscheck's only I/O. A missing table or column is an
    /// [`ExportError`].
    pub fn read_dir(dir: &std::path::Path) -> Result<Exported, ExportError> {
        if !dir.is_dir() {
            return Err(ExportError::NotADirectory(dir.to_path_buf()));
        }
        let mut files = Vec::new();
        for name in export::READ.iter().chain(export::NOT_READ) {
            let path = dir.join(name);
            if !path.is_file() {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|source| ExportError::Read {
                file: name.to_string(),
                source,
            })?;
            files.push(crate::source::SourceFile::new(*name, bytes));
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let tables = export::Tables {
            prefix: String::new(),
            files: files.iter().map(|f| (f.path.clone(), f)).collect(),
        };
        let export = Export::from_tables(&tables, export::Mode::Crosscheck)?;
        // The datasheets the record source builds from the same tables, each with its facts.
        let mut facts = export.facts();
        let files: Vec<&crate::source::SourceFile> = files.iter().collect();
        let mut datasheets: Vec<(Datasheet, ExportFacts)> = crate::pipeline::read_group("", &files)
            .into_iter()
            .flat_map(|e| e.datasheets)
            .filter_map(|d| {
                let p = d.sources.iter().find(|p| p.file == export::DATASHEETS)?;
                let f = facts.remove(&p.line)?;
                Some((d, f))
            })
            .collect();
        datasheets.sort_by(|a, b| a.1.id.cmp(&b.1.id));
        Ok(Exported { export, datasheets })
    }
}

/// `file:line` of a datasheet's first source, or of a line in that file.
pub(crate) fn our_source(d: &Datasheet, line: Option<u32>) -> Option<String> {
    d.sources
        .first()
        .map(|p| format!("{}:{}", p.file, line.unwrap_or(p.line)))
}

/// An export datasheet as built, with its facts.
type Theirs<'e> = &'e (Datasheet, ExportFacts);

/// The export datasheet a dataset datasheet is, and how it was found: `id` — the one built
/// under its id, as ingest pairs the sources (every source scopes ids by faction and name
/// alike); else by name ([`fold_name_key`]): `faction_and_name` — the one of its faction,
/// `name_only` — the first (lowest export id). `Err`: why none.
fn find<'e>(exported: &'e Exported, d: &Datasheet) -> Result<(Theirs<'e>, &'static str), String> {
    if let Some(t) = exported.datasheets.iter().find(|t| t.0.id == d.id) {
        return Ok((t, "id"));
    }
    let Some(name) = d.name.as_deref() else {
        return Err("the datasheet has no name".into());
    };
    let key = |s: Option<&str>| s.map(fold_name_key);
    let named =
        || (exported.datasheets.iter()).filter(|t| key(t.0.name.as_deref()) == key(Some(name)));
    let faction = key(d.faction.as_deref());
    if let Some(t) = named().find(|t| faction.is_some() && key(t.0.faction.as_deref()) == faction) {
        return Ok((t, "faction_and_name"));
    }
    let t = named().next();
    t.map(|t| (t, "name_only"))
        .ok_or_else(|| format!("no datasheet named `{name}` in the export"))
}

/// Compares every datasheet of the dataset with the export and explains each disagreement.
pub fn crosscheck(exported: &Exported, datasheets: &[Datasheet]) -> Report {
    let export = &exported.export;
    let mut sorted: Vec<&Datasheet> = datasheets.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));

    let mut matches = Vec::new();
    let mut unmatched = Vec::new();
    let mut disagreements: BTreeMap<String, Vec<FieldReport>> = BTreeMap::new();
    let mut not_compared: BTreeMap<String, usize> = BTreeMap::new();

    for d in sorted {
        let (theirs, method) = match find(exported, d) {
            Ok(found) => found,
            Err(reason) => {
                // No export datasheet: one disagreeing `datasheet` field.
                let at = [our_source(d, None), None];
                let why = (Category::DataError, reason.clone());
                let f = disagreement("datasheet".into(), [d.name.clone(), None], why, at);
                disagreements.entry(d.id.clone()).or_default().push(f);
                unmatched.push(Unmatched {
                    datasheet_id: d.id.clone(),
                    datasheet_name: d.name.clone(),
                    faction: d.faction.clone(),
                    reason,
                    source: our_source(d, None),
                });
                continue;
            }
        };
        let pair = compare(d, &theirs.0, &theirs.1);
        let theirs = &theirs.1;
        for (k, n) in &pair.not_compared {
            *not_compared.entry(k.clone()).or_default() += n;
        }
        if !pair.differ.is_empty() {
            disagreements
                .entry(d.id.clone())
                .or_default()
                .extend(pair.differ);
        }
        matches.push(Match {
            datasheet_id: d.id.clone(),
            datasheet_name: d.name.clone(),
            faction: d.faction.clone(),
            export_datasheet_id: theirs.id.clone(),
            export_name: theirs.name.clone(),
            export_faction_id: theirs.faction_id.clone(),
            method: method.to_string(),
            compared: pair.compared,
            agreed: pair.agreed,
        });
    }
    let summary = Summary::tally(export, &matches, &unmatched, &disagreements, not_compared);
    Report {
        summary,
        matches,
        unmatched,
        disagreements,
        export_diagnostics: export.diagnostics.clone(),
    }
}
