//! The kind of a Games Workshop PDF, from its content, and the reader each kind goes to.
//!
//! Owns the cues of each kind (through `vocab`: the words; the shapes here): an errata
//! document (its `ERRATA` heading and `Target – Section` entries followed by an instruction),
//! a points document (the Munitorum Field Manual's title, or pages of `N models … P pts`
//! lines without a datasheet card), datasheet cards (a `M T SV W LD OC` profile header and a
//! `KEYWORDS:` line on one page: a faction pack, portrait, or index cards, landscape). The
//! first kind in that order whose cues are found is read (`S023` names the others); a PDF of
//! none gives `S022` and no records (the manifest says `skipped`). Must not: read a record
//! (the kinds' readers do), look at the file name, change what `gw_card` reads.

use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::edition::{profile_fields, Edition, ProfileKind};
use crate::ir::{Block, Document};
use crate::vocab::{Heading, Vocabulary};
use std::collections::BTreeMap;

/// What a Games Workshop PDF is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// Datasheet cards on portrait pages, with the faction's rules (a faction pack).
    FactionPack,
    /// Datasheet cards on landscape pages (index cards).
    IndexCards,
    /// A points document (the Munitorum Field Manual).
    Points,
    /// An errata document.
    Errata,
    /// None of the above.
    Unknown,
}

impl DocKind {
    /// The kind for people (diagnostics).
    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::FactionPack => "faction pack",
            DocKind::IndexCards => "index cards",
            DocKind::Points => "points document",
            DocKind::Errata => "errata document",
            DocKind::Unknown => "unknown",
        }
    }
}

/// The share of pages that must be points pages for a document without a points title.
const POINTS_PAGE_SHARE: f32 = 0.3;
/// The `… pts` lines a page needs to be a points page.
const POINTS_LINES_A_PAGE: usize = 5;
/// The `Target – Section` entries (each followed by an instruction) an errata document needs.
const ERRATA_ENTRIES: usize = 3;
/// The first pages whose headings may carry a document's title.
const TITLE_PAGES: u32 = 2;

/// One kind whose cues the document shows, and what showed it (for `S023`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cue {
    pub kind: DocKind,
    pub why: String,
}

/// The words of the 10th edition's documents (the kinds are the same in 11th edition).
fn vocab() -> &'static Vocabulary {
    &crate::vocab::TENTH
}

/// Every kind whose cues `doc` shows, in reading priority: errata, points, cards.
pub fn cues(doc: &Document) -> Vec<Cue> {
    let pages = by_page(doc);
    let mut out = Vec::new();
    if let Some(why) = errata_cue(doc, &pages) {
        out.push(Cue {
            kind: DocKind::Errata,
            why,
        });
    }
    if let Some(why) = points_cue(doc, &pages) {
        out.push(Cue {
            kind: DocKind::Points,
            why,
        });
    }
    if let Some((kind, why)) = cards_cue(&pages) {
        out.push(Cue { kind, why });
    }
    out
}

/// The kind of `doc`: the first kind whose cues it shows, else [`DocKind::Unknown`].
pub fn classify(doc: &Document) -> DocKind {
    cues(doc).first().map_or(DocKind::Unknown, |c| c.kind)
}

/// Classifies `doc` and hands it to its kind's reader; `S023` when another kind's cues are
/// there too, `S022` and no records for a document of no known kind.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let cues = cues(doc);
    let kind = cues.first().map_or(DocKind::Unknown, |c| c.kind);
    if cues.len() > 1 {
        let others: Vec<String> = cues[1..]
            .iter()
            .map(|c| format!("{} ({})", c.kind.as_str(), c.why))
            .collect();
        out.diagnostics.push(
            Diagnostic::new(
                Code::AmbiguousPdfKind,
                format!(
                    "read as {}; it also shows the cues of {}",
                    kind.as_str(),
                    others.join(", ")
                ),
            )
            .in_file(&doc.file),
        );
    }
    match kind {
        DocKind::FactionPack | DocKind::IndexCards => super::gw_card::extract(doc, out),
        DocKind::Points => super::gw_points::extract(doc, out),
        DocKind::Errata => super::gw_errata::extract(doc, out),
        DocKind::Unknown => not_read(
            doc,
            out,
            "PDF of no known kind (no datasheet card, points list or errata entry)",
        ),
    }
}

/// `S022` and no records: the manifest says `skipped`.
fn not_read(doc: &Document, out: &mut Extracted, why: &str) {
    out.not_read = true;
    out.diagnostics
        .push(Diagnostic::new(Code::UnknownPdfKind, format!("{why}; skipped")).in_file(&doc.file));
}

/// The blocks of each page, by page number (a block without a page is page 0).
fn by_page(doc: &Document) -> BTreeMap<u32, Vec<&Block>> {
    let mut pages: BTreeMap<u32, Vec<&Block>> = BTreeMap::new();
    for b in &doc.blocks {
        pages.entry(b.span.page.unwrap_or(0)).or_default().push(b);
    }
    pages
}

/// The headings of the first pages, each line and each run of consecutive lines joined (the
/// title `MUNITORUM` / `FIELD MANUAL` is printed over two).
pub fn title_lines(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for b in doc
        .blocks
        .iter()
        .take_while(|b| b.span.page.unwrap_or(0) <= TITLE_PAGES)
    {
        if b.kind == crate::ir::BlockKind::Heading {
            run.push(b.text.trim());
            out.push(b.text.trim().to_string());
            if run.len() > 1 {
                out.push(run.join(" "));
            }
        } else {
            run.clear();
        }
    }
    out
}

/// The errata cue: enough `Target – Section` lines each followed (the header may wrap once)
/// by a line that starts with an instruction verb, in a document that is not one of datasheet
/// cards (a faction pack's rules-update pages print such entries too, beside its card pages).
/// A document with no card page needs no errata heading (an errata document may title itself
/// otherwise); one with a card page or two needs it.
fn errata_cue(doc: &Document, pages: &BTreeMap<u32, Vec<&Block>>) -> Option<String> {
    let w = vocab().documents;
    let instruction = |t: &str| {
        let first = t.split_whitespace().next().unwrap_or("");
        w.errata_verbs.contains(&first)
    };
    let blocks = &doc.blocks;
    let entries = (0..blocks.len())
        .filter(|&i| {
            let t = blocks[i].text.trim();
            let verb_at = |k: usize| {
                blocks
                    .get(i + k)
                    .is_some_and(|b| instruction(b.text.trim()))
            };
            t.contains(w.errata_target_dash) && !instruction(t) && (verb_at(1) || verb_at(2))
        })
        .count();
    let cards = card_pages(pages).len();
    if entries < ERRATA_ENTRIES || cards >= ERRATA_ENTRIES {
        return None;
    }
    let titled = blocks
        .iter()
        .any(|b| b.kind == crate::ir::BlockKind::Heading && b.text.trim() == w.errata_title);
    // Untitled, a card page makes it a small document of cards whose weapon and ability lines
    // (`Tusks – strike` / `Add 1 to …`) merely look like entries.
    if !titled && cards > 0 {
        return None;
    }
    Some(if titled {
        format!("heading '{}', {entries} entries", w.errata_title)
    } else {
        format!("{entries} entries")
    })
}

/// A block whose last cell is a cost (`70 pts`, `+20 pts`).
pub fn is_cost(t: &str) -> bool {
    cost_of(t).is_some()
}

/// The cost a cell prints (`70 pts` → (70, false), `+ 20 pts` → (20, true)).
pub fn cost_of(t: &str) -> Option<(u32, bool)> {
    let unit = vocab().documents.points_unit;
    let t = t.trim();
    let head = t.len().checked_sub(unit.len())?;
    let (number, tail) = (t.get(..head)?, t.get(head..)?);
    if !tail.eq_ignore_ascii_case(unit) {
        return None;
    }
    let number = number.trim();
    let (number, plus) = match number.strip_prefix('+') {
        Some(n) => (n.trim(), true),
        None => (number, false),
    };
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((number.parse().ok()?, plus))
}

/// The points cue: the points document's title among the first headings, or enough pages of
/// `… pts` lines that carry no datasheet card.
fn points_cue(doc: &Document, pages: &BTreeMap<u32, Vec<&Block>>) -> Option<String> {
    let w = vocab().documents;
    let titles = title_lines(doc);
    if let Some(t) = titles
        .iter()
        .find(|t| w.points_titles.contains(&t.as_str()))
    {
        return Some(format!("title '{t}'"));
    }
    if pages.is_empty() {
        return None;
    }
    let points_pages = pages
        .values()
        .filter(|blocks| {
            let costs = blocks
                .iter()
                .filter(|b| b.text.split(" | ").any(is_cost))
                .count();
            costs >= POINTS_LINES_A_PAGE && !blocks.iter().any(|b| is_profile_header(b))
        })
        .count();
    (points_pages as f32 >= POINTS_PAGE_SHARE * pages.len() as f32 && points_pages > 0)
        .then(|| format!("{points_pages} of {} pages of points lines", pages.len()))
}

/// A row whose cells are the model profile's characteristics (`M T SV W LD OC`).
fn is_profile_header(b: &Block) -> bool {
    let fields = profile_fields(Edition::Tenth, ProfileKind::Model);
    let cells: Vec<&str> = b.filled_cells().collect();
    cells.len() == fields.len()
        && cells
            .iter()
            .zip(fields)
            .all(|(c, f)| c.trim().eq_ignore_ascii_case(f))
}

/// The pages that print a datasheet card: a profile header and a `KEYWORDS:` line.
fn card_pages<'a, 'b>(pages: &'a BTreeMap<u32, Vec<&'b Block>>) -> Vec<&'a Vec<&'b Block>> {
    let v = vocab();
    pages
        .values()
        .filter(|blocks| {
            blocks.iter().any(|b| is_profile_header(b))
                && blocks.iter().any(|b| {
                    let first = b.cells.first().unwrap_or(b.text.as_str()).trim();
                    v.after_label(Heading::Keywords, ":", first).is_some()
                })
        })
        .collect()
}

/// The cards cue: a page with a profile header and a `KEYWORDS:` line; landscape pages make
/// them index cards.
fn cards_cue(pages: &BTreeMap<u32, Vec<&Block>>) -> Option<(DocKind, String)> {
    let card_pages = card_pages(pages);
    let first = card_pages.first()?;
    let landscape = first
        .iter()
        .find_map(|b| b.span.page_size)
        .is_some_and(|s| s.width > s.height);
    let kind = if landscape {
        DocKind::IndexCards
    } else {
        DocKind::FactionPack
    };
    Some((kind, format!("{} datasheet card page(s)", card_pages.len())))
}
