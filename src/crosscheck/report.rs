//! The crosscheck report: the summary figures, the datasheet matches and every disagreement,
//! serialized as one JSON object (the `--report` file) and rendered as a short text summary.
//!
//! A disagreement is the reconciliation's per-field report ([`FieldReport`]) of a two-source
//! comparison: the export's value is the reference (`value`, `agree: ["export"]`), ours the
//! one [`Difference`] (`source: "dataset"`), with its category (the one `compare::Category`),
//! its reason as the `note`, and what only the crosscheck knows as data on it: our `file:line`
//! (`at`) and the export's row (`export_at`).
//!
//! Owns the report types, the counting (fields compared, agreed, per category) and the text
//! rendering. It must not compare values or decide categories (that is `compare`), and it holds
//! no timestamps or absolute paths, so the same inputs give the same bytes.

use crate::compare::Category;
use crate::diag::Diagnostic;
use crate::reconcile::{Difference, FieldReport};
use crate::records::wahapedia_csv::Export;
use serde::Serialize;
use std::collections::BTreeMap;

/// Our side's name in a disagreement's [`Difference`]; the export is the reference.
pub const OURS: &str = "dataset";
pub const EXPORT: &str = "export";

/// A disagreement: the export's value `theirs` the reference, ours the one difference, of
/// `category` for the reason `note`; `at` our `file:line`, `export_at` the export's row.
pub fn disagreement(
    field: String,
    [ours, theirs]: [Option<String>; 2],
    (category, note): (Category, String),
    [at, export_at]: [Option<String>; 2],
) -> FieldReport {
    FieldReport {
        field,
        value: theirs,
        agree: vec![EXPORT.into()],
        differ: vec![Difference {
            source: OURS.into(),
            value: ours,
            category,
            note: Some(note),
            at,
            export_at,
        }],
        ..FieldReport::default()
    }
}

/// How a dataset datasheet was matched to the export.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    pub datasheet_id: String,
    pub datasheet_name: Option<String>,
    pub faction: Option<String>,
    pub export_datasheet_id: String,
    pub export_name: String,
    pub export_faction_id: String,
    /// `id` (the export datasheet built under our id), else `faction_and_name` or `name_only`.
    pub method: String,
    pub compared: usize,
    pub agreed: usize,
}

/// A dataset datasheet with no datasheet of that name in the export.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unmatched {
    pub datasheet_id: String,
    pub datasheet_name: Option<String>,
    pub faction: Option<String>,
    pub reason: String,
    pub source: Option<String>,
}

/// The figures of a crosscheck.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `Last_update.csv` of the export.
    pub export_last_update: Option<String>,
    pub datasheets: usize,
    pub matched: usize,
    pub unmatched: usize,
    /// One `datasheet` field per datasheet (matched or not), and the fields of each match.
    pub fields_compared: usize,
    pub fields_agreed: usize,
    /// `fields_agreed / fields_compared`, in percent (0 when nothing was compared).
    pub agreement_pct: f64,
    /// Agreement with the `version` disagreements (changes since the export) set aside:
    /// `fields_agreed / (fields_compared - version)`.
    pub agreement_pct_excluding_changes: f64,
    pub disagreements: usize,
    /// Disagreements per category (every category listed, zero included).
    pub by_category: BTreeMap<Category, usize>,
    /// Fields present in the export that are not compared (add-on point costs, weapon-profile
    /// footnotes, …), per reason.
    pub not_compared: BTreeMap<String, usize>,
    /// Diagnostics reading the export (`C001`, `C002`).
    pub export_diagnostics: usize,
}

/// Everything a crosscheck found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub summary: Summary,
    pub matches: Vec<Match>,
    pub unmatched: Vec<Unmatched>,
    /// Per dataset datasheet id, the fields on which it and the export disagree (see
    /// [`disagreement`]), by field.
    pub disagreements: BTreeMap<String, Vec<FieldReport>>,
    pub export_diagnostics: Vec<Diagnostic>,
}

/// A share of `d` in percent, to 1/1000 of a percent; 0 when nothing was compared.
fn pct(n: usize, d: usize) -> f64 {
    crate::compare::percent(n, d, 3, 0.0)
}

impl Summary {
    /// Counts everything from the parts of a report.
    pub fn tally(
        export: &Export,
        matches: &[Match],
        unmatched: &[Unmatched],
        disagreements: &BTreeMap<String, Vec<FieldReport>>,
        not_compared: BTreeMap<String, usize>,
    ) -> Summary {
        let datasheets = matches.len() + unmatched.len();
        let fields_compared = datasheets + matches.iter().map(|m| m.compared).sum::<usize>();
        let fields_agreed = matches.len() + matches.iter().map(|m| m.agreed).sum::<usize>();
        let mut by_category: BTreeMap<Category, usize> =
            Category::ALL.iter().map(|&c| (c, 0)).collect();
        let differ = disagreements.values().flatten().flat_map(|f| &f.differ);
        for d in differ {
            *by_category.entry(d.category).or_default() += 1;
        }
        let changed = by_category[&Category::Version];
        Summary {
            export_last_update: export.last_update.clone(),
            datasheets,
            matched: matches.len(),
            unmatched: unmatched.len(),
            fields_compared,
            fields_agreed,
            agreement_pct: pct(fields_agreed, fields_compared),
            agreement_pct_excluding_changes: pct(
                fields_agreed,
                fields_compared.saturating_sub(changed),
            ),
            disagreements: by_category.values().sum(),
            by_category,
            not_compared,
            export_diagnostics: export.diagnostics.len(),
        }
    }

    /// The summary as a few lines of text for the terminal.
    pub fn render(&self) -> String {
        let cats: Vec<String> = (self.by_category.iter())
            .map(|(c, n)| format!("{} {n}", c.as_str()))
            .collect();
        let mut s = format!(
            "crosscheck against the Wahapedia export of {}\n\
             datasheets: {} ({} matched, {} without a match in the export)\n\
             fields: {} compared, {} agreed ({:.2}%); {:.2}% with changes since the export set aside\n\
             disagreements: {} ({})\n",
            self.export_last_update.as_deref().unwrap_or("(undated)"),
            self.datasheets,
            self.matched,
            self.unmatched,
            self.fields_compared,
            self.fields_agreed,
            self.agreement_pct,
            self.agreement_pct_excluding_changes,
            self.disagreements,
            cats.join(", "),
        );
        if !self.not_compared.is_empty() {
            let parts: Vec<String> = (self.not_compared.iter())
                .map(|(r, n)| format!("{n} {r}"))
                .collect();
            s.push_str(&format!("not compared: {}\n", parts.join(", ")));
        }
        if self.export_diagnostics > 0 {
            let n = self.export_diagnostics;
            s.push_str(&format!(
                "export: {n} line(s) could not be used (see export_diagnostics in the report)\n"
            ));
        }
        s
    }
}
