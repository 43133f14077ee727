//! The crosscheck report: the summary figures, the datasheet matches and every disagreement,
//! serialized as one JSON object (the `--report` file) and rendered as a short text summary.
//!
//! Owns the report types, the counting (fields compared, agreed, per category, per kind) and
//! the text rendering. It must not compare values or decide categories (that is `compare`),
//! and it holds no timestamps or absolute paths, so the same inputs give the same bytes.

use crate::compare::{against_export, Category};
use crate::diag::Diagnostic;
use serde::Serialize;
use std::collections::BTreeMap;

/// What part of a datasheet a field belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The datasheet itself (no match in the export).
    Datasheet,
    /// A model profile characteristic, a model's presence or name, the invulnerable save.
    Model,
    /// A weapon profile characteristic, its keywords, presence or name.
    Weapon,
    /// The points of one unit size.
    Points,
    /// A keyword or faction keyword.
    Keywords,
    /// An ability name.
    Abilities,
}

/// One field on which the dataset and the export disagree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    pub datasheet_id: String,
    pub datasheet_name: Option<String>,
    /// The export's `datasheet_id`, when the datasheet was matched.
    pub export_datasheet_id: Option<String>,
    pub kind: Kind,
    /// `models[Warboss].T`, `weapons[Kombi-weapon].AP`, `weapons[Power weapon]`,
    /// `points[10 models]`, `keywords[INFANTRY]`, `abilities[Waaagh!]`, `invulnerable_save`.
    pub field: String,
    /// The part of `field` after the bracket, for grouping: `T`, `AP`, `presence`, `name`, …
    pub aspect: String,
    /// Our value (`null`: absent on our side).
    pub ours: Option<String>,
    /// The export's value (`null`: absent in the export).
    pub theirs: Option<String>,
    #[serde(with = "against_export")]
    pub category: Category,
    /// Why this category, in words.
    pub reason: String,
    /// Our source: `file:line` from the datasheet's provenance.
    pub source: Option<String>,
    /// The export's row: `Datasheets_wargear.csv:1234`.
    pub export_source: Option<String>,
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
    /// `faction_and_name`, `faction_keyword_and_name` or `name_only`.
    pub method: String,
    /// Why the faction did not decide the match, when it did not.
    pub note: Option<String>,
    /// Other export datasheets that matched as well (the best-agreeing one was taken).
    pub other_candidates: Vec<String>,
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

/// Compared and agreed fields of one kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub compared: usize,
    pub agreed: usize,
}

/// The figures of a crosscheck.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `Last_update.csv` of the export.
    pub export_last_update: Option<String>,
    pub datasheets: usize,
    pub matched: usize,
    pub unmatched: usize,
    pub fields_compared: usize,
    pub fields_agreed: usize,
    /// `fields_agreed / fields_compared`, in percent (0 when nothing was compared).
    pub agreement_pct: f64,
    /// Agreement with the `changed_since_export` disagreements set aside:
    /// `fields_agreed / (fields_compared - changed_since_export)`.
    pub agreement_pct_excluding_changes: f64,
    pub disagreements: usize,
    /// Disagreements per category (every category listed, zero included).
    #[serde(with = "against_export::map")]
    pub by_category: BTreeMap<Category, usize>,
    /// Compared and agreed per kind of field.
    pub by_kind: BTreeMap<Kind, Tally>,
    /// Disagreements per `kind.aspect` and category, most frequent first.
    pub top_disagreements: Vec<TopKind>,
    /// Fields present in the export that are not compared (add-on point costs, weapon-profile
    /// footnotes, …), per reason.
    pub not_compared: BTreeMap<String, usize>,
    /// Diagnostics reading the export (`C001`, `C002`).
    pub export_diagnostics: usize,
}

/// One line of [`Summary::top_disagreements`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TopKind {
    /// `weapon.AP`, `model.presence`, `abilities.presence`, …
    pub kind: String,
    #[serde(with = "against_export")]
    pub category: Category,
    pub count: usize,
}

/// Everything a crosscheck found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub summary: Summary,
    pub matches: Vec<Match>,
    pub unmatched: Vec<Unmatched>,
    pub disagreements: Vec<Disagreement>,
    pub export_diagnostics: Vec<Diagnostic>,
}

/// A share of `d` in percent, to 1/1000 of a percent; 0 when nothing was compared.
fn pct(n: usize, d: usize) -> f64 {
    crate::compare::percent(n, d, 3, 0.0)
}

impl Summary {
    /// Counts everything from the parts of a report.
    #[allow(clippy::too_many_arguments)]
    pub fn tally(
        export_last_update: Option<String>,
        datasheets: usize,
        matches: &[Match],
        unmatched: &[Unmatched],
        by_kind: BTreeMap<Kind, Tally>,
        disagreements: &[Disagreement],
        not_compared: BTreeMap<String, usize>,
        export_diagnostics: usize,
    ) -> Summary {
        let fields_compared: usize = by_kind.values().map(|t| t.compared).sum();
        let fields_agreed: usize = by_kind.values().map(|t| t.agreed).sum();
        let mut by_category: BTreeMap<Category, usize> =
            Category::ALL.into_iter().map(|c| (c, 0)).collect();
        let mut top: BTreeMap<(String, Category), usize> = BTreeMap::new();
        for d in disagreements {
            *by_category.entry(d.category).or_default() += 1;
            let kind = format!(
                "{}.{}",
                serde_json::to_value(d.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                d.aspect
            );
            *top.entry((kind, d.category)).or_default() += 1;
        }
        let mut top_disagreements: Vec<TopKind> = top
            .into_iter()
            .map(|((kind, category), count)| TopKind {
                kind,
                category,
                count,
            })
            .collect();
        top_disagreements.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then_with(|| a.kind.cmp(&b.kind))
                .then_with(|| a.category.cmp(&b.category))
        });
        let changed = by_category.get(&Category::Version).copied().unwrap_or(0);
        Summary {
            export_last_update,
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
            disagreements: disagreements.len(),
            by_category,
            by_kind,
            top_disagreements,
            not_compared,
            export_diagnostics,
        }
    }

    /// The summary as a few lines of text for the terminal.
    pub fn render(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "crosscheck against the Wahapedia export of {}\n",
            self.export_last_update.as_deref().unwrap_or("(undated)")
        ));
        s.push_str(&format!(
            "datasheets: {} ({} matched, {} without a match in the export)\n",
            self.datasheets, self.matched, self.unmatched
        ));
        s.push_str(&format!(
            "fields: {} compared, {} agreed ({:.2}%); {:.2}% with changes since the export set aside\n",
            self.fields_compared,
            self.fields_agreed,
            self.agreement_pct,
            self.agreement_pct_excluding_changes
        ));
        s.push_str(&format!("disagreements: {}", self.disagreements));
        let cats: Vec<String> = self
            .by_category
            .iter()
            .map(|(c, n)| format!("{} {n}", c.against_export()))
            .collect();
        s.push_str(&format!(" ({})\n", cats.join(", ")));
        for (k, t) in &self.by_kind {
            let name = serde_json::to_value(k)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            s.push_str(&format!(
                "  {name:<10} {:>7} compared {:>7} agreed ({:.2}%)\n",
                t.compared,
                t.agreed,
                pct(t.agreed, t.compared)
            ));
        }
        if !self.top_disagreements.is_empty() {
            s.push_str("most frequent disagreements:\n");
            for t in self.top_disagreements.iter().take(10) {
                s.push_str(&format!(
                    "  {:>6}  {:<24} {}\n",
                    t.count,
                    t.kind,
                    t.category.against_export()
                ));
            }
        }
        if !self.not_compared.is_empty() {
            let parts: Vec<String> = self
                .not_compared
                .iter()
                .map(|(r, n)| format!("{n} {r}"))
                .collect();
            s.push_str(&format!("not compared: {}\n", parts.join(", ")));
        }
        if self.export_diagnostics > 0 {
            s.push_str(&format!(
                "export: {} line(s) could not be used (see export_diagnostics in the report)\n",
                self.export_diagnostics
            ));
        }
        s
    }
}
