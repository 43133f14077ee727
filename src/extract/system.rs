//! Which game system and edition a document is for, read from its content.
//!
//! Owns how the markers decide: each edition's marker phrases are data (`schemas/editions.yaml`
//! `markers`, [`crate::edition::markers`]); this module counts them and decides between
//! Warhammer 40,000 10th and 9th edition and Horus Heresy, and owns the markers of unsupported
//! systems such as Age of Sigmar. Never looks at the file name.

use crate::edition::markers;
use crate::ir::Document;
use crate::model::Edition;
use crate::vocab::Heading;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum System {
    Warhammer40k10e,
    Warhammer40k9e,
    HorusHeresy2,
    /// Another game system; nothing is extracted. Carries its display name.
    Unsupported(&'static str),
    /// No markers found.
    Unknown,
}

impl System {
    pub fn edition(&self) -> Option<Edition> {
        match self {
            System::Warhammer40k10e => Some(Edition::Tenth),
            System::Warhammer40k9e => Some(Edition::Ninth),
            System::HorusHeresy2 => Some(Edition::HorusHeresy2),
            System::Unsupported(_) | System::Unknown => None,
        }
    }
}

const AOS_MARKERS: &[&str] = &["age of sigmar", "/aos", "warscroll"];

/// Detects the system from the document's meta and text (first 400 blocks).
pub fn detect(doc: &Document) -> System {
    let mut hay = String::new();
    for v in doc.meta.values() {
        hay.push_str(&v.to_lowercase());
        hay.push('\n');
    }
    for b in doc.blocks.iter().take(400) {
        hay.push_str(&b.text.to_lowercase());
        hay.push('\n');
    }
    let score = |e: Edition| {
        markers(e)
            .iter()
            .filter(|m| hay.contains(m.as_str()))
            .count()
    };
    let meta_hay: String = doc.meta.values().map(|v| v.to_lowercase()).collect();
    if AOS_MARKERS.iter().any(|m| meta_hay.contains(m)) || hay.contains("warhammer age of sigmar") {
        return System::Unsupported("Warhammer Age of Sigmar");
    }
    let (hh, ninth, tenth) = (
        score(Edition::HorusHeresy2),
        score(Edition::Ninth),
        score(Edition::Tenth),
    );
    if hh > 0 && hh * 3 >= tenth {
        return System::HorusHeresy2;
    }
    if ninth >= 1 && (hay.contains("9th edition") || ninth >= 2) && ninth * 2 >= tenth {
        return System::Warhammer40k9e;
    }
    if tenth >= 2 {
        return System::Warhammer40k10e;
    }
    System::Unknown
}

/// Words only the game's rules use (beside the 10th edition's markers): two distinct ones make a text
/// a glossary of rules (`Deep Strike` / `…Declare Battle Formations step…Reserves`).
const RULES_PHRASES: &[&str] = &[
    "battlefield",
    "battle round",
    "hit roll",
    "wound roll",
    "saving throw",
    "command phase",
    "movement phase",
    "shooting phase",
    "charge phase",
    "fight phase",
    "engagement range",
    "objective marker",
    "declare battle formations",
    "reserves",
    "mortal wound",
    "invulnerable save",
    "this model",
    "this unit",
    "your army",
    "enemy unit",
];

/// Whether a plain-text document has the structure of a rules source, before anything is
/// extracted from it: a datasheet section heading or weapon-table header row as the dumps print
/// them (`vocab`), a stratagem's labelled parts, a 9th-edition or Horus Heresy summary (its
/// markers), or a glossary of rules (two distinct phrases of the game's rules). A LICENSE, a
/// config file, notes or code have none of these (`S021`). Never looks at the file name.
pub fn has_rules_structure(doc: &Document) -> bool {
    let v = &crate::vocab::TENTH;
    let section = doc.blocks.iter().any(|b| {
        let first = b.cells.first().unwrap_or(b.text.as_str()).trim();
        v.datasheet_sections.contains(&first)
            || v.starts_with(Heading::Keywords, ":", first)
            || v.starts_with(Heading::FactionKeywords, ":", first)
    });
    if section {
        return true;
    }
    // a stratagem card's type line (`CORE – STRATEGIC PLOY STRATAGEM`, `BATTLE TACTIC
    // STRATAGEM`), upper case as the cards print it
    let type_line = |t: &str| {
        t.ends_with(v.heading(Heading::StratagemType))
            && t.len() < 80
            && !t.chars().any(char::is_lowercase)
    };
    if doc.blocks.iter().any(|b| type_line(b.text.trim())) {
        return true;
    }
    let labelled = |label: &str| doc.blocks.iter().any(|b| b.text.trim().starts_with(label));
    if v.stratagem_labels
        .iter()
        .filter(|(label, _)| labelled(label))
        .count()
        >= 2
    {
        return true;
    }
    if matches!(detect(doc), System::Warhammer40k9e | System::HorusHeresy2) {
        return true;
    }
    // Block by block (a phrase split over two lines is not counted), stopping at the second.
    let phrases: Vec<&str> = markers(Edition::Tenth)
        .iter()
        .map(String::as_str)
        .chain(RULES_PHRASES.iter().copied())
        .collect();
    let mut seen = vec![false; phrases.len()];
    for b in &doc.blocks {
        let text = b.text.to_lowercase();
        for (k, p) in phrases.iter().enumerate() {
            seen[k] |= text.contains(p);
        }
        if seen.iter().filter(|s| **s).count() >= 2 {
            return true;
        }
    }
    false
}
