//! The points document (the Munitorum Field Manual as a PDF) → [`Points`] records: one per
//! unit (its tiers in print order, its add-ons as wargear, the Forge World and Legends
//! sections kept apart) and one per enhancement (`kind: enhancement`, per detachment), with
//! the publication's title and version as printed (no date: the manual prints none).
//!
//! Owns the page geometry of such a document: columns from where its lines start; a cost
//! printed right-aligned at the end of a column that the decoder joined to the next column's
//! line goes back to its own column; lines on one baseline of a column are one line; faction
//! headings cut the page across its columns. Owns the reading of a line: a tier (`N models`,
//! a range `10-11 models`, a composition `1 Sword Brother and 9 Initiates`), an add-on (`+N
//! pts`, the `+` possibly a glyph run of its own), a wrapped line (`and …` continues the line
//! above: a tier's text or a unit's name). Must not: merge points onto datasheets or
//! enhancements (`reconcile::points`), guess a faction (`P003`), invent a tier (`P001`).

use super::gw_kind::{cost_of, title_lines};
use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::edition::Edition;
use crate::ids;
use crate::ir::{Block, BlockKind, Document};
use crate::model::{Points, PointsKind, PointsOption, Publication, WargearPoints};
use crate::source::{Location, Provenance, Span};
use crate::vocab::{DocumentWords, Heading, Vocabulary};
use std::collections::BTreeMap;

/// The edition of the points documents read (2023's Munitorum Field Manual).
const EDITION: Edition = Edition::Tenth;

/// Two line starts closer than this (pt) are one column.
const COLUMN_GAP: f32 = 40.0;
/// Two pieces of one column whose middles are this close (pt) are on one baseline.
const BASELINE: f32 = 3.0;
/// How far left of its column's start a line may begin (pt).
const COLUMN_SLACK: f32 = 4.0;

fn vocab() -> &'static Vocabulary {
    &crate::vocab::TENTH
}

fn words() -> &'static DocumentWords {
    vocab().documents
}

/// A piece of a page: one block, or the part of a row that lies in one column.
#[derive(Debug, Clone)]
struct Piece<'d> {
    column: usize,
    middle: f32,
    x0: f32,
    cells: Vec<&'d str>,
    block: &'d Block,
}

/// One line of a column (its pieces on one baseline, left to right), or a heading.
#[derive(Debug, Clone)]
struct Line<'d> {
    cells: Vec<&'d str>,
    block: &'d Block,
    heading: bool,
    /// A heading that cuts the page across its columns (a faction's).
    faction: bool,
}

impl Line<'_> {
    fn text(&self) -> String {
        self.cells
            .iter()
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Reads a points document into `out.points`.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let publication = publication(doc);
    out.version = version_numbers(doc);
    let mut reader = Reader::new(doc, publication);
    let titles = title_lines(doc);
    let title_page = doc
        .blocks
        .iter()
        .find(|b| {
            b.kind == BlockKind::Heading
                && titles
                    .iter()
                    .any(|t| words().points_titles.contains(&t.as_str()) && t.contains(&b.text))
        })
        .and_then(|b| b.span.page);
    for (page, blocks) in pages(doc) {
        if Some(page) == title_page {
            continue;
        }
        for line in page_lines(&blocks) {
            reader.line(&line);
        }
    }
    reader.finish(out);
}

/// The blocks of each page, in page order.
fn pages(doc: &Document) -> Vec<(u32, Vec<&Block>)> {
    let mut pages: BTreeMap<u32, Vec<&Block>> = BTreeMap::new();
    for b in &doc.blocks {
        pages.entry(b.span.page.unwrap_or(0)).or_default().push(b);
    }
    pages.into_iter().collect()
}

/// The publication: the title heading as printed (its lines joined), the version printed
/// after the version word; no date (never the file's).
fn publication(doc: &Document) -> Publication {
    let title = title_lines(doc)
        .into_iter()
        .find(|t| words().points_titles.contains(&t.as_str()));
    let version = version_numbers(doc).map(|(a, b)| format!("{a}.{b}"));
    Publication {
        title,
        version,
        date: None,
    }
}

/// `VERSION 1.1` among the first blocks → (1, 1).
fn version_numbers(doc: &Document) -> Option<(u32, u32)> {
    let word = words().version_word;
    doc.blocks
        .iter()
        .take(20)
        .map(|b| b.text.to_lowercase())
        .find(|t| t.split_whitespace().next() == Some(word))
        .and_then(|t| super::wahapedia::pack_version(&t))
}

/// The box of a block: `[x0, y0, x1, y1]`, zero when the decoder gave none.
fn bbox(b: &Block) -> [f32; 4] {
    b.span.bbox.map_or([0.0; 4], |bb| bb.0)
}

/// Where the page's columns start: the left edges of its text lines that are not costs,
/// clustered.
fn column_starts(blocks: &[&Block]) -> Vec<f32> {
    let mut xs: Vec<f32> = blocks
        .iter()
        .filter(|b| {
            let first = b.cells.first().unwrap_or(b.text.as_str());
            cost_of(first).is_none() && b.span.bbox.is_some() && !is_page_number(b)
        })
        .map(|b| bbox(b)[0])
        .collect();
    xs.sort_by(f32::total_cmp);
    let mut starts: Vec<f32> = Vec::new();
    for x in xs {
        match starts.last() {
            Some(s) if x - s < COLUMN_GAP => {}
            _ => starts.push(x),
        }
    }
    starts
}

fn column_of(starts: &[f32], x: f32) -> usize {
    starts
        .iter()
        .rposition(|s| *s <= x + COLUMN_SLACK)
        .unwrap_or(0)
}

/// A block's pieces: a row that runs over columns (a cost printed at the end of one column,
/// then the next column's line on the same baseline) is cut after each cost that is not its
/// last cell, the parts given to the columns from its first to its last; anything else is one.
fn pieces<'d>(b: &'d Block, starts: &[f32]) -> Vec<Piece<'d>> {
    let [x0, y0, x1, y1] = bbox(b);
    let middle = (y0 + y1) / 2.0;
    let cells: Vec<&str> = if b.cells.is_empty() {
        vec![b.text.as_str()]
    } else {
        b.cells.iter().collect()
    };
    let (first, last) = (column_of(starts, x0), column_of(starts, x1 - 1.0));
    let mut parts: Vec<Vec<&str>> = vec![Vec::new()];
    for (k, c) in cells.iter().enumerate() {
        if let Some(part) = parts.last_mut() {
            part.push(*c);
        }
        if k + 1 < cells.len() && cost_of(c).is_some() && first != last {
            parts.push(Vec::new());
        }
    }
    let n = parts.len();
    parts
        .into_iter()
        .enumerate()
        .map(|(k, cells)| {
            let column = if k == 0 {
                first
            } else if k + 1 == n {
                last
            } else {
                (first + k).min(last)
            };
            let x = if k == 0 {
                x0
            } else {
                starts.get(column).copied().unwrap_or(x0)
            };
            Piece {
                column,
                middle,
                x0: x,
                cells,
                block: b,
            }
        })
        .collect()
}

/// A page's lines in reading order: faction headings cut the page into bands; in each band
/// its columns left to right, each top to bottom, the pieces on one baseline joined.
fn page_lines<'d>(blocks: &[&'d Block]) -> Vec<Line<'d>> {
    let starts = column_starts(blocks);
    let is_skipped = is_page_number;
    let cuts: Vec<&Block> = blocks
        .iter()
        .copied()
        .filter(|b| b.kind == BlockKind::Heading && b.level <= 2)
        .collect();
    let mut bands: Vec<(Option<&Block>, Vec<Piece>)> = vec![(None, Vec::new())];
    for c in &cuts {
        bands.push((Some(*c), Vec::new()));
    }
    // Band of a piece: after the last cut above it (higher y is higher on the page).
    for b in blocks.iter().filter(|b| !is_skipped(b)) {
        if cuts.iter().any(|c| std::ptr::eq(*c, *b)) {
            continue;
        }
        for p in pieces(b, &starts) {
            let band = cuts.iter().filter(|c| middle_of(c) > p.middle).count();
            bands[band].1.push(p);
        }
    }
    let mut out = Vec::new();
    for (cut, band) in bands {
        if let Some(c) = cut {
            out.push(Line {
                cells: vec![c.text.as_str()],
                block: c,
                heading: true,
                faction: true,
            });
        }
        out.extend(band_lines(band, starts.len().max(1)));
    }
    out
}

/// A page number (or an empty line): no line of the list.
fn is_page_number(b: &Block) -> bool {
    let t = b.text.trim();
    t.is_empty() || t.chars().all(|c| c.is_ascii_digit())
}

fn middle_of(b: &Block) -> f32 {
    let [_, y0, _, y1] = bbox(b);
    (y0 + y1) / 2.0
}

/// A band's lines: column by column, top to bottom, pieces on one baseline joined left to
/// right.
fn band_lines(mut band: Vec<Piece>, columns: usize) -> Vec<Line> {
    band.sort_by(|a, b| {
        a.column
            .cmp(&b.column)
            .then(b.middle.total_cmp(&a.middle))
            .then(a.x0.total_cmp(&b.x0))
    });
    let mut out: Vec<Line> = Vec::new();
    let mut group: Vec<Piece> = Vec::new();
    for column in 0..columns.max(band.iter().map(|p| p.column + 1).max().unwrap_or(0)) {
        for p in band.iter().filter(|p| p.column == column) {
            let joins = group
                .last()
                .is_some_and(|g| (g.middle - p.middle).abs() <= BASELINE);
            if !joins {
                out.extend(joined(&mut group));
            }
            group.push(p.clone());
        }
        out.extend(joined(&mut group));
    }
    out
}

/// The pieces of one baseline as one line (a heading stays a line of its own).
fn joined<'d>(group: &mut Vec<Piece<'d>>) -> Vec<Line<'d>> {
    if group.is_empty() {
        return Vec::new();
    }
    group.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    // A cost goes last whatever its estimated x.
    group.sort_by_key(|p| p.cells.len() == 1 && cost_of(p.cells[0]).is_some());
    let pieces = std::mem::take(group);
    let heading = pieces.iter().any(|p| p.block.kind == BlockKind::Heading);
    if heading {
        return pieces
            .into_iter()
            .map(|p| Line {
                heading: p.block.kind == BlockKind::Heading,
                cells: p.cells,
                block: p.block,
                faction: false,
            })
            .collect();
    }
    let block = pieces[0].block;
    vec![Line {
        cells: pieces.into_iter().flat_map(|p| p.cells).collect(),
        block,
        heading: false,
        faction: false,
    }]
}

/// Which part of a faction's list the lines are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Units,
    ForgeWorld,
    Legends,
    Enhancements,
}

/// A unit being read: its name and what is priced under it.
#[derive(Debug)]
struct Unit {
    name: String,
    tiers: Vec<PointsOption>,
    wargear: Vec<WargearPoints>,
    section: Section,
    faction: Option<String>,
    at: Span,
    /// The name may still continue (`and Pyrithite Spears`): nothing priced yet.
    open: bool,
}

/// The reading state over a document's lines.
struct Reader<'d> {
    doc: &'d Document,
    publication: Publication,
    faction: Option<String>,
    section: Section,
    unit: Option<Unit>,
    detachment: Option<String>,
    /// A tier's text wrapped over lines before its cost (`1 Sword Brother, 4 Initiates`).
    pending: Vec<String>,
    units: Vec<Unit>,
    enhancements: Vec<Points>,
    diagnostics: Vec<Diagnostic>,
    /// Headings naming no faction, with their unit count (one `P003` each).
    unknown_factions: BTreeMap<String, (usize, Span)>,
}

impl<'d> Reader<'d> {
    fn new(doc: &'d Document, publication: Publication) -> Self {
        Reader {
            doc,
            publication,
            faction: None,
            section: Section::Units,
            unit: None,
            detachment: None,
            pending: Vec::new(),
            units: Vec::new(),
            enhancements: Vec::new(),
            diagnostics: Vec::new(),
            unknown_factions: BTreeMap::new(),
        }
    }

    fn at(&self, b: &Block) -> Location {
        Location::at(self.doc.file.clone(), b.span)
    }

    fn p001(&mut self, b: &Block, what: &str) {
        let under = self.unit.as_ref().map_or_else(
            || self.detachment.clone().unwrap_or_default(),
            |u| u.name.clone(),
        );
        self.diagnostics.push(
            Diagnostic::new(
                Code::PointsDocLineUnparsed,
                format!("points line not understood under '{under}': '{what}'"),
            )
            .at(&self.doc.file, b.line()),
        );
    }

    fn line(&mut self, line: &Line<'d>) {
        let text = line.text();
        let w = words();
        let section = [w.forge_world_section, w.enhancements_section].contains(&text.as_str())
            || text == vocab().heading(Heading::LegendsMark);
        if line.heading || section {
            self.heading(line, &text);
            return;
        }
        let Some((last, before)) = line.cells.split_last() else {
            return;
        };
        match cost_of(last) {
            Some((points, plus)) => {
                let mut label: Vec<String> = std::mem::take(&mut self.pending);
                label.extend(before.iter().map(|c| c.trim().to_string()));
                let mut label = label.join(" ").trim().to_string();
                let plus = plus || label.ends_with('+');
                if let Some(l) = label.strip_suffix('+') {
                    label = l.trim().to_string();
                }
                self.cost(line.block, label, points, plus);
            }
            None => self.text_line(line.block, text),
        }
    }

    fn heading(&mut self, line: &Line<'d>, text: &str) {
        let w = words();
        self.close_unit();
        self.flush_pending(line.block);
        if text == w.forge_world_section {
            self.section = Section::ForgeWorld;
        } else if text == vocab().heading(Heading::LegendsMark) {
            self.section = Section::Legends;
        } else if text == w.enhancements_section {
            self.section = Section::Enhancements;
            self.detachment = None;
        } else if line.faction {
            self.faction_heading(line.block, text);
        } else {
            self.p001(line.block, text);
        }
    }

    fn faction_heading(&mut self, b: &Block, text: &str) {
        self.section = Section::Units;
        self.detachment = None;
        let chapter = w_chapter(text);
        match chapter.or_else(|| vocab().faction_named(text)) {
            Some(f) => self.faction = Some(f.to_string()),
            None => {
                self.faction = Some(text.to_string());
                self.unknown_factions
                    .entry(text.to_string())
                    .or_insert((0, b.span));
            }
        }
    }

    /// A line without a cost: a tier's text that wraps, a wrapped name, a unit's or a
    /// detachment's name.
    fn text_line(&mut self, b: &'d Block, text: String) {
        let w = words();
        let first = text.split_whitespace().next().unwrap_or("");
        let continues = first.eq_ignore_ascii_case(w.continuation_word);
        if continues && self.pending.is_empty() {
            if let Some(u) = self.unit.as_mut().filter(|u| u.open) {
                u.name = format!("{} {text}", u.name);
                return;
            }
        }
        if continues || first.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            self.pending.push(text);
            return;
        }
        self.flush_pending(b);
        if self.section == Section::Enhancements {
            self.detachment = Some(text);
            return;
        }
        self.close_unit();
        self.unit = Some(Unit {
            name: text,
            tiers: Vec::new(),
            wargear: Vec::new(),
            section: self.section,
            faction: self.faction.clone(),
            at: b.span,
            open: true,
        });
    }

    /// Wrapped tier text no cost followed: `P001`.
    fn flush_pending(&mut self, b: &Block) {
        if !self.pending.is_empty() {
            let text = std::mem::take(&mut self.pending).join(" ");
            self.p001(b, &text);
        }
    }

    fn cost(&mut self, b: &'d Block, label: String, points: u32, plus: bool) {
        if self.section == Section::Enhancements {
            self.enhancement(b, label, points);
            return;
        }
        let at = self.at(b);
        let Some(unit) = self.unit.as_mut() else {
            self.p001(b, &format!("{label} {points}"));
            return;
        };
        unit.open = false;
        if plus {
            unit.wargear.push(WargearPoints {
                item: label,
                points,
                at,
            });
            return;
        }
        match models_of(&label) {
            Some((models, _)) => unit.tiers.push(PointsOption {
                models,
                points,
                at,
                units: None,
            }),
            None => self.p001(b, &format!("{label} {points}")),
        }
    }

    fn enhancement(&mut self, b: &Block, name: String, points: u32) {
        let Some(detachment) = self.detachment.clone() else {
            self.p001(b, &format!("{name} {points}"));
            return;
        };
        let subject = ids::enhancement(EDITION, self.faction.as_deref(), Some(&detachment), &name);
        self.enhancements.push(Points {
            id: ids::points(EDITION, self.publication.key(), &subject),
            edition: EDITION,
            subject,
            name,
            // One enhancement, as a tier of one.
            tiers: vec![PointsOption {
                models: 1,
                points,
                at: self.at(b),
                units: None,
            }],
            wargear: Vec::new(),
            publication: self.publication.clone(),
            kind: PointsKind::Enhancement,
            forge_world: false,
            legends: false,
            sources: vec![Provenance::at(
                self.doc.file.clone(),
                b.span,
                self.doc.sha256.clone(),
            )],
        });
    }

    fn close_unit(&mut self) {
        if let Some(u) = self.unit.take() {
            if !u.tiers.is_empty() || !u.wargear.is_empty() {
                if let Some(f) = u.faction.as_ref() {
                    if let Some(e) = self.unknown_factions.get_mut(f) {
                        e.0 += 1;
                    }
                }
                self.units.push(u);
            }
        }
    }

    fn finish(mut self, out: &mut Extracted) {
        self.close_unit();
        let mut by_subject: BTreeMap<String, usize> = BTreeMap::new();
        let mut records: Vec<Points> = Vec::new();
        for u in std::mem::take(&mut self.units) {
            let p = self.record(u);
            match by_subject.get(&p.subject) {
                Some(&k) => self.priced_twice(&mut records[k], p),
                None => {
                    by_subject.insert(p.subject.clone(), records.len());
                    records.push(p);
                }
            }
        }
        for (heading, (count, span)) in &self.unknown_factions {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::PointsWithoutFaction,
                    format!(
                        "heading '{heading}' names no faction of the 10e vocabulary; its {count} units keep the scope '{}'",
                        ids::slug(heading)
                    ),
                )
                .at(&self.doc.file, span.line),
            );
        }
        out.points.extend(records);
        out.points.append(&mut self.enhancements);
        out.diagnostics.append(&mut self.diagnostics);
    }

    fn record(&self, u: Unit) -> Points {
        let subject = ids::datasheet(EDITION, u.faction.as_deref(), &u.name);
        Points {
            id: ids::points(EDITION, self.publication.key(), &subject),
            edition: EDITION,
            subject,
            name: u.name,
            tiers: u.tiers,
            wargear: u.wargear,
            publication: self.publication.clone(),
            kind: PointsKind::Datasheet,
            forge_world: u.section == Section::ForgeWorld,
            legends: u.section == Section::Legends,
            sources: vec![Provenance::at(
                self.doc.file.clone(),
                u.at,
                self.doc.sha256.clone(),
            )],
        }
    }

    /// The same unit priced again in the publication: its tiers and add-ons join the first
    /// record's, in print order; `P002`.
    fn priced_twice(&mut self, first: &mut Points, again: Points) {
        let page = |p: &Points| {
            p.sources
                .first()
                .and_then(|s| s.page)
                .map_or(String::new(), |n| format!("p{n}"))
        };
        self.diagnostics.push(
            Diagnostic::new(
                Code::UnitPricedTwice,
                format!(
                    "'{}' is priced twice in '{}' {} ({} and {})",
                    first.name,
                    first.publication.title.as_deref().unwrap_or(""),
                    first.publication.key(),
                    page(first),
                    page(&again)
                ),
            )
            .at(&self.doc.file, again.sources.first().map_or(0, |s| s.line)),
        );
        first.tiers.extend(again.tiers);
        first.wargear.extend(again.wargear);
        first.sources.extend(again.sources);
    }
}

/// The faction of a chapter's list (`BLACK TEMPLARS`): its units are that faction's
/// datasheets (`Space Marines`), as every other source scopes them.
fn w_chapter(heading: &str) -> Option<&'static str> {
    let folded = crate::text::fold::fold_for_compare(heading);
    words()
        .chapters
        .iter()
        .find(|(c, _)| crate::text::fold::fold_for_compare(c) == folded)
        .map(|(_, f)| *f)
}

/// The models a tier's text counts, and whether the text is more than `N model(s)` (then it
/// is kept as the tier's label): `10 models` → (10, false); `10-11 models` → (11, true); `1
/// Sword Brother, 4 Initiates and 5 Neophytes` → (10, true); `None` without a number.
fn models_of(label: &str) -> Option<(u32, bool)> {
    let w = words();
    let parts: Vec<&str> = label.split_whitespace().collect();
    if let [n, unit] = parts[..] {
        if w.model_words.iter().any(|m| m.eq_ignore_ascii_case(unit)) {
            if let Ok(n) = n.parse::<u32>() {
                return Some((n, false));
            }
            let (lo, hi) = n.split_once('-')?;
            let (lo, hi): (u32, u32) = (lo.parse().ok()?, hi.parse().ok()?);
            return (hi >= lo).then_some((hi, true));
        }
    }
    let numbers: Vec<u32> = label
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    if numbers.is_empty() {
        return None;
    }
    Some((numbers.iter().sum(), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_of_a_tier() {
        assert_eq!(models_of("10 models"), Some((10, false)));
        assert_eq!(models_of("1 model"), Some((1, false)));
        assert_eq!(models_of("10-11 models"), Some((11, true)));
        assert_eq!(
            models_of("1 Sword Brother, 4 Initiates and 5 Neophytes"),
            Some((10, true))
        );
        assert_eq!(models_of("5 Shadow Spectres"), Some((5, true)));
        assert_eq!(models_of("Shadow Spectre Exarch"), None);
        assert_eq!(models_of("11-10 models"), None);
    }
}
