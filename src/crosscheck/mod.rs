//! Crosscheck: compares a dataset's datasheets with Wahapedia's own CSV export, field by field,
//! and explains every disagreement.
//!
//! The export is read as ingest reads it: its record source (`records::wahapedia_csv`, here
//! `export`) builds `Datasheet`s from the tables (`pipeline::read_group`, normalized), and in
//! `Mode::Crosscheck` checks the tables are all there and gives what only the export carries
//! ([`ExportFacts`]). This module owns matching each dataset datasheet to an export datasheet
//! (by faction and name, tolerant of case, apostrophes, dashes and accents; see
//! [`crosscheck`]) and assembling the [`Report`]; `compare` compares one matched pair through
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
use compare::{compare, Pair};
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
        Ok(Exported::build(
            Export::from_tables(&tables, export::Mode::Crosscheck)?,
            &files.iter().collect::<Vec<_>>(),
        ))
    }

    /// The datasheets the record source builds from `files` (the tables `export` was read
    /// from), each with its facts.
    pub fn build(export: Export, files: &[&crate::source::SourceFile]) -> Exported {
        let mut facts = export.facts();
        let mut datasheets: Vec<(Datasheet, ExportFacts)> = crate::pipeline::read_group("", files)
            .into_iter()
            .flat_map(|e| e.datasheets)
            .filter_map(|d| {
                let p = d.sources.iter().find(|p| p.file == export::DATASHEETS)?;
                let f = facts.remove(&p.line)?;
                Some((d, f))
            })
            .collect();
        datasheets.sort_by(|a, b| a.1.id.cmp(&b.1.id));
        Exported { export, datasheets }
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

/// The export datasheets named `name` (by [`fold_name_key`]) a dataset datasheet of `faction`
/// may be, how they were found (`faction_and_name`, `faction_keyword_and_name`, `name_only`),
/// and why the faction did not decide, when it did not.
fn candidates<'e>(
    exported: &'e Exported,
    name: &str,
    faction: Option<&str>,
) -> (Vec<Theirs<'e>>, &'static str, Option<String>) {
    let key = |s: Option<&str>| s.map(fold_name_key);
    let all = (exported.datasheets.iter()).filter(|t| key(t.0.name.as_deref()) == key(Some(name)));
    let Some(faction) = faction else {
        let note = "the datasheet has no faction".to_string();
        return (all.collect(), "name_only", Some(note));
    };
    let fk = fold_name_key(faction);
    let in_faction = |t: &Theirs| t.0.faction.as_deref().map(fold_name_key) == Some(fk.clone());
    let list: Vec<_> = all.clone().filter(in_faction).collect();
    if !list.is_empty() {
        return (list, "faction_and_name", None);
    }
    // A sub-faction (`Space Wolves`) is a faction keyword of the export, not a faction.
    let by_keyword = |t: &Theirs| t.0.faction_keywords.iter().any(|k| fold_name_key(k) == fk);
    let list: Vec<_> = all.clone().filter(by_keyword).collect();
    if !list.is_empty() {
        let note =
            format!("`{faction}` is not a faction of the export; matched by faction keyword");
        return (list, "faction_keyword_and_name", Some(note));
    }
    let note = if (exported.export.factions.iter()).any(|f| fold_name_key(&f.name) == fk) {
        format!("faction `{faction}` has no datasheet of this name in the export")
    } else {
        format!("`{faction}` is neither a faction nor a faction keyword of the export")
    };
    (all.collect(), "name_only", Some(note))
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
        let found = match d.name.as_deref() {
            None => Err("the datasheet has no name".to_string()),
            Some(name) => match candidates(exported, name, d.faction.as_deref()) {
                (list, ..) if list.is_empty() => {
                    Err(format!("no datasheet named `{name}` in the export"))
                }
                found => Ok(found),
            },
        };
        let (list, method, note) = match found {
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
        // Several candidates (a faction's two datasheets of one name, or name-only matches in
        // several factions): the one that agrees best, ties to the lowest export id.
        let mut best: Option<(Theirs, Pair)> = None;
        for c in &list {
            let p = compare(d, &c.0, &c.1);
            let better = match &best {
                None => true,
                Some((_, bp)) => (p.ratio, p.agreed) > (bp.ratio, bp.agreed),
            };
            if better {
                best = Some((c, p));
            }
        }
        let Some(((_, theirs), pair)) = best else {
            continue;
        };
        for (k, n) in &pair.not_compared {
            *not_compared.entry(k.clone()).or_default() += n;
        }
        if !pair.differ.is_empty() {
            disagreements
                .entry(d.id.clone())
                .or_default()
                .extend(pair.differ);
        }
        let mut others: Vec<String> = list
            .iter()
            .filter(|c| c.1.id != theirs.id)
            .map(|c| c.1.id.clone())
            .collect();
        others.sort();
        matches.push(Match {
            datasheet_id: d.id.clone(),
            datasheet_name: d.name.clone(),
            faction: d.faction.clone(),
            export_datasheet_id: theirs.id.clone(),
            export_name: theirs.name.clone(),
            export_faction_id: theirs.faction_id.clone(),
            method: method.to_string(),
            note,
            other_candidates: others,
            compared: pair.compared,
            agreed: pair.agreed,
        });
    }
    let summary = Summary::tally(
        export.last_update.clone(),
        &matches,
        &unmatched,
        &disagreements,
        not_compared,
        export.diagnostics.len(),
    );
    Report {
        summary,
        matches,
        unmatched,
        disagreements,
        export_diagnostics: export.diagnostics.clone(),
    }
}
