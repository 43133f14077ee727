//! Extraction: [`Document`] (IR blocks) → records, with diagnostics.
//!
//! Owns the game-level reading of the IR: which blocks are a datasheet, a weapon table, a rule
//! paragraph, a stratagem. One submodule per record family; which one reads a document is the
//! [`EXTRACTORS`] registry, keyed by (game system, format). Architecture invariants: extractors
//! never see raw bytes or markup (only `ir::Block`s); they never fail (a value they cannot
//! read is `None` plus a diagnostic); they never invent a value the blocks do not contain; the
//! faction comes from the content, never from the file name; and no record leaves with an
//! `unknown` scope in its id without an `X112` (a scope-less fragment is dropped with it).

use crate::diag::{Code, Diagnostic};
use crate::ir::{Block, Document};
pub use crate::model::BlockAccount;
use crate::model::{Datasheet, Detachment, Edition, Enhancement, Erratum, Points, Rule, Stratagem};
use crate::source::{Format, Location};
use system::System;

pub mod companion;
pub mod glossary;
pub mod gw_card;
pub mod gw_errata;
pub mod gw_kind;
pub mod gw_points;
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
    /// Points printed apart from datasheets (a record source of 11th edition's points).
    pub points: Vec<Points>,
    /// Errata entries (an errata document's).
    pub errata: Vec<Erratum>,
    pub diagnostics: Vec<Diagnostic>,
    pub account: BlockAccount,
    /// Records `normalize` took out because a value broke the schema (quarantine entries,
    /// `schemas/quarantine_entry.yaml`). Extractors leave this empty.
    pub quarantine: Vec<serde_json::Value>,
    /// The record source that read it (its name in `records::SOURCES`: `bsdata`,
    /// `game-datacards`), set by the pipeline; `None` for a document, whose source is its
    /// format. The reconciliation tells sources apart by it (two JSON sources are two sources).
    pub record_source: Option<&'static str>,
    /// Claimed by content, but of a kind its source does not turn into records (the GW app's
    /// FAQ file): the manifest says `skipped`, and a diagnostic says why.
    pub not_read: bool,
}

/// One extractor and what it reads: the game systems (as [`system::detect`] names them) and
/// the document formats it claims. An extractor registers itself with one entry of
/// [`EXTRACTORS`]; [`extract`] looks the document's (system, format) up there.
pub struct Extractor {
    /// The module that reads (for people and tests).
    pub name: &'static str,
    /// The game systems it reads.
    pub systems: &'static [System],
    /// The formats it reads; empty: any format no other entry of the system claims.
    pub formats: &'static [Format],
    pub read: fn(&Document, &mut Extracted),
}

/// The 10th edition, and a document that names no system at all (read as 10th edition, with
/// `S010` from the pipeline).
const TENTH: &[System] = &[System::Warhammer40k10e, System::Unknown];

/// The extractors, keyed by (game system, format). A format-specific entry wins over the
/// system's any-format entry, whatever the order.
pub static EXTRACTORS: &[Extractor] = &[
    Extractor {
        name: "gw_kind",
        systems: TENTH,
        formats: &[Format::Pdf],
        read: gw_kind::extract,
    },
    Extractor {
        name: "companion",
        systems: TENTH,
        formats: &[Format::Markdown],
        read: companion::extract,
    },
    Extractor {
        name: "wahapedia",
        systems: TENTH,
        formats: &[Format::Html],
        read: wahapedia::extract,
    },
    Extractor {
        name: "ten",
        systems: TENTH,
        formats: &[],
        read: ten::extract,
    },
    Extractor {
        name: "ninth",
        systems: &[System::Warhammer40k9e],
        formats: &[],
        read: ninth::extract,
    },
    // Horus Heresy: the special-rules glossary (glued flavor and rules text).
    Extractor {
        name: "glossary",
        systems: &[System::HorusHeresy2],
        formats: &[],
        read: glossary::extract_rules_only,
    },
];

/// The extractor registered for `system` and `format`: the entry that names the format, else
/// the system's any-format entry; `None` when no entry claims them (another game system).
pub fn extractor_for(system: &System, format: Format) -> Option<&'static Extractor> {
    let of_system = || EXTRACTORS.iter().filter(|e| e.systems.contains(system));
    of_system()
        .find(|e| e.formats.contains(&format))
        .or_else(|| of_system().find(|e| e.formats.is_empty()))
}

/// Reads one document with the extractor registered for the game system its content declares
/// and its format. A document no extractor claims gives no records and one `S005` (the
/// pipeline reports an unsupported system before extraction; this covers direct callers).
pub fn extract(doc: &Document) -> Extracted {
    let mut out = Extracted {
        file: doc.file.clone(),
        sha256: doc.sha256.clone(),
        ..Extracted::default()
    };
    let system = system::detect(doc);
    out.edition = system.edition();
    match extractor_for(&system, doc.format) {
        Some(e) => (e.read)(doc, &mut out),
        None => out.diagnostics.push(
            Diagnostic::new(
                Code::UnsupportedSystem,
                format!("no extractor reads {system:?} in {:?}; skipped", doc.format),
            )
            .in_file(&doc.file),
        ),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry gives every (system, format) the extractor the fixed match gave before it.
    #[test]
    fn registry_keys_by_system_and_format() {
        let name = |s: System, f: Format| extractor_for(&s, f).map(|e| e.name);
        for s in [System::Warhammer40k10e, System::Unknown] {
            assert_eq!(name(s.clone(), Format::Pdf), Some("gw_kind"));
            assert_eq!(name(s.clone(), Format::Markdown), Some("companion"));
            assert_eq!(name(s.clone(), Format::Html), Some("wahapedia"));
            assert_eq!(name(s.clone(), Format::Text), Some("ten"));
        }
        for f in [Format::Text, Format::Html, Format::Pdf, Format::Markdown] {
            assert_eq!(name(System::Warhammer40k9e, f), Some("ninth"));
            assert_eq!(name(System::HorusHeresy2, f), Some("glossary"));
            assert_eq!(name(System::Unsupported("Age of Sigmar"), f), None);
        }
    }

    #[test]
    fn a_document_no_extractor_claims_is_one_s005_and_no_records() {
        let doc = Document {
            file: "aos.txt".into(),
            sha256: String::new(),
            format: Format::Text,
            blocks: vec![Block::new(
                crate::ir::BlockKind::Paragraph,
                "Warhammer Age of Sigmar warscroll",
                1,
            )],
            chrome_dropped: 0,
            meta: Default::default(),
        };
        assert!(matches!(system::detect(&doc), System::Unsupported(_)));
        let ex = extract(&doc);
        assert!(ex.datasheets.is_empty() && ex.rules.is_empty());
        let codes: Vec<&str> = ex.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, [Code::UnsupportedSystem.as_str()]);
    }
}
