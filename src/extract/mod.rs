//! Extraction: [`Document`] (IR blocks) → records, with diagnostics.
//!
//! Owns the game-level reading of the IR: which blocks are a datasheet, a weapon table, a rule
//! paragraph, a stratagem. One submodule per record family. Architecture invariants: extractors
//! never see raw bytes or markup (only `ir::Block`s); they never fail (a value they cannot
//! read is `None` plus a diagnostic); they never invent a value the blocks do not contain; the
//! faction comes from the content, never from the file name.

use crate::diag::Diagnostic;
use crate::ir::Document;
pub use crate::model::BlockAccount;
use crate::model::{Datasheet, Detachment, Edition, Enhancement, Rule, Stratagem};

pub mod glossary;
pub mod system;
pub mod ten;
pub mod text;
pub mod wahapedia;

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
            if doc.format == crate::source::Format::Html =>
        {
            wahapedia::extract(doc, &mut out)
        }
        system::System::Warhammer40k10e | system::System::Unknown => ten::extract(doc, &mut out),
        // 9th edition and Horus Heresy get their own extractors (issue 5); until then their
        // paragraphs are read as rule paragraphs only.
        system::System::Warhammer40k9e | system::System::HorusHeresy2 => {
            glossary::extract_rules_only(doc, &mut out)
        }
        system::System::Unsupported(_) => {}
    }
    out
}
