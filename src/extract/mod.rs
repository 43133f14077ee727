//! Extraction: [`Document`] (IR blocks) → records, with diagnostics.
//!
//! Owns the game-level reading of the IR: which blocks are a datasheet, a weapon table, a rule
//! paragraph, a stratagem. One submodule per record family. Architecture invariants: extractors
//! never see raw bytes or markup (only `ir::Block`s); they never fail (a value they cannot
//! read is `None` plus a diagnostic); they never invent a value the blocks do not contain; the
//! faction comes from the content, never from the file name; and no record leaves with an
//! `unknown` scope in its id without an `X112` (a scope-less fragment is dropped with it).

use crate::diag::{Code, Diagnostic};
use crate::ir::{Block, Document};
pub use crate::model::BlockAccount;
use crate::model::{Datasheet, Detachment, Edition, Enhancement, Rule, Stratagem};
use crate::source::Location;

pub mod companion;
pub mod glossary;
pub mod gw_card;
pub mod heresy;
pub mod ninth;
pub mod sheet;
pub mod system;
pub mod ten;
pub mod text;
pub mod wahapedia;
pub mod wargear;

/// Records read from one document, before normalization and merging.
#[derive(Debug, Clone, Default)]
pub struct Extracted {
    pub file: String,
    pub sha256: String,
    pub edition: Option<Edition>,
    pub faction: Option<String>,
    /// Version of the publication the page cites (`Faction Pack … version 1.4` → (1, 4)),
    /// used to pick the newer of two sources that disagree.
    pub version: Option<(u32, u32)>,
    /// The date or version the source carries when it is not a faction pack version (an
    /// export's `Last_update.csv`, a BattleScribe file's `revision`): a record source may set
    /// it, else the pipeline does from `records::dates`; shown by the reconciliation report,
    /// never used to pick a winner.
    pub dated: Option<String>,
    pub datasheets: Vec<Datasheet>,
    /// Rule paragraphs, each with exactly one occurrence (dedup merges them).
    pub rules: Vec<Rule>,
    pub stratagems: Vec<Stratagem>,
    pub enhancements: Vec<Enhancement>,
    pub detachments: Vec<Detachment>,
    pub diagnostics: Vec<Diagnostic>,
    pub account: BlockAccount,
    /// Records `normalize` took out because a value broke the schema (quarantine entries,
    /// `schemas/quarantine_entry.yaml`). Extractors leave this empty.
    pub quarantine: Vec<serde_json::Value>,
}

/// Reads one document. Dispatches on the game system the content declares.
pub fn extract(doc: &Document) -> Extracted {
    let mut out = Extracted {
        file: doc.file.clone(),
        sha256: doc.sha256.clone(),
        ..Extracted::default()
    };
    let system = system::detect(doc);
    out.edition = system.edition();
    match system {
        system::System::Warhammer40k10e | system::System::Unknown
            if doc.format == crate::source::Format::Pdf =>
        {
            gw_card::extract(doc, &mut out)
        }
        system::System::Warhammer40k10e | system::System::Unknown
            if doc.format == crate::source::Format::Markdown =>
        {
            companion::extract(doc, &mut out)
        }
        system::System::Warhammer40k10e | system::System::Unknown
            if doc.format == crate::source::Format::Html =>
        {
            wahapedia::extract(doc, &mut out)
        }
        system::System::Warhammer40k10e | system::System::Unknown => ten::extract(doc, &mut out),
        system::System::Warhammer40k9e => ninth::extract(doc, &mut out),
        // Horus Heresy: the special-rules glossary (glued flavor and rules text).
        system::System::HorusHeresy2 => glossary::extract_rules_only(doc, &mut out),
        system::System::Unsupported(_) => {}
    }
    check_scopes(&mut out);
    out
}

/// Where block `b` of `doc` was read: the sub-records' `at`.
pub(crate) fn location(doc: &Document, b: &Block) -> Location {
    Location::at(doc.file.clone(), b.span)
}

/// The scope placeholder an id carries when the content did not say where a record belongs
/// (`10e:unknown:no-retreat`).
const UNKNOWN_SCOPE: &str = ":unknown:";

/// No record leaves extraction with an `unknown` scope silently (`X112`): a stratagem that has
/// neither a group nor any text is a fragment (a list entry whose card is printed elsewhere)
/// and is dropped, with the datasheets' references to it; any other such record (a stratagem
/// with text, an enhancement, a detachment, a datasheet of a page that names no faction) is
/// kept, and the diagnostic says why its scope is unknown.
fn check_scopes(out: &mut Extracted) {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let dropped = drop_scopeless_stratagems(out, &mut diagnostics);
    for d in &mut out.datasheets {
        d.stratagems.retain(|id| !dropped.contains(id));
    }
    report_unknown_scopes(out, &mut diagnostics);
    out.diagnostics.extend(diagnostics);
}

/// `d` at the first of `sources`.
fn at_first(d: Diagnostic, sources: &[crate::source::Provenance]) -> Diagnostic {
    match sources.first() {
        Some(p) => d.at(&p.file, p.line),
        None => d,
    }
}

/// Stratagems with an `unknown` scope: a fragment (no text) is dropped, any other is kept;
/// each is an `X112`. Returns the ids of the dropped ones.
fn drop_scopeless_stratagems(
    out: &mut Extracted,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut dropped: Vec<String> = Vec::new();
    out.stratagems.retain(|s| {
        if !s.id.contains(UNKNOWN_SCOPE) {
            return true;
        }
        // What the type line said, when it said something that is not a group.
        let printed = s
            .category
            .as_deref()
            .map(|c| format!(" (type line '{c}')"))
            .unwrap_or_default();
        let no_text = s.flavor.is_none()
            && s.when.is_none()
            && s.target.is_none()
            && s.effect.is_none()
            && s.restrictions.is_none();
        let message = if no_text {
            format!(
                "stratagem '{}' names no group{printed} and has no text here; fragment dropped",
                s.name
            )
        } else {
            format!(
                "stratagem '{}' names no group{printed}; kept as {}",
                s.name, s.id
            )
        };
        diagnostics.push(at_first(
            Diagnostic::new(Code::ScopeUnknown, message),
            &s.sources,
        ));
        if no_text {
            dropped.push(s.id.clone());
        }
        !no_text
    });
    dropped
}

/// An `X112` for every datasheet, enhancement and detachment kept with an `unknown` scope.
fn report_unknown_scopes(out: &Extracted, diagnostics: &mut Vec<Diagnostic>) {
    let no_faction = "the content names no faction";
    let unknown = |id: &str| id.contains(UNKNOWN_SCOPE);
    for d in out.datasheets.iter().filter(|d| unknown(&d.id)) {
        let name = d.name.as_deref().unwrap_or("(unnamed)");
        diagnostics.push(at_first(
            Diagnostic::new(
                Code::ScopeUnknown,
                format!("datasheet '{name}': {no_faction}; kept as {}", d.id),
            ),
            &d.sources,
        ));
    }
    for e in out.enhancements.iter().filter(|e| unknown(&e.id)) {
        let name = e.name.as_deref().unwrap_or("(unnamed)");
        diagnostics.push(at_first(
            Diagnostic::new(
                Code::ScopeUnknown,
                format!("enhancement '{name}': {no_faction}; kept as {}", e.id),
            ),
            &e.sources,
        ));
    }
    for d in out.detachments.iter().filter(|d| unknown(&d.id)) {
        diagnostics.push(at_first(
            Diagnostic::new(
                Code::ScopeUnknown,
                format!("detachment '{}': {no_faction}; kept as {}", d.name, d.id),
            ),
            &d.sources,
        ));
    }
}
