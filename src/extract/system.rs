//! Which game system and edition a document is for, read from its content.
//!
//! Owns the markers (phrases and table headers) that identify Warhammer 40,000 10th and 9th
//! edition, Horus Heresy and unsupported systems such as Age of Sigmar. Never looks at the file
//! name.

use crate::ir::Document;
use crate::model::Edition;

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
const HH_MARKERS: &[&str] = &["horus heresy", "age of darkness"];
const NINTH_MARKERS: &[&str] = &[
    "/wh40k9ed/",
    "9th edition",
    "power rating",
    "heroic intervention moves",
    "psychic phase",
];
const TENTH_MARKERS: &[&str] = &[
    "ranged weapons",
    "melee weapons",
    "battle-shock",
    "critical hit",
    "critical wound",
    "objective control",
    "10th edition",
    "stratagem",
    "[rapid fire",
    "deep strike",
    "/wh40k10ed/",
];

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
    let score = |markers: &[&str]| markers.iter().filter(|m| hay.contains(*m)).count();
    let meta_hay: String = doc.meta.values().map(|v| v.to_lowercase()).collect();
    if AOS_MARKERS.iter().any(|m| meta_hay.contains(m)) || hay.contains("warhammer age of sigmar") {
        return System::Unsupported("Warhammer Age of Sigmar");
    }
    let (hh, ninth, tenth) = (
        score(HH_MARKERS),
        score(NINTH_MARKERS),
        score(TENTH_MARKERS),
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
