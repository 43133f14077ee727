//! Games Workshop's 10th-edition PDF layouts (faction packs, index cards), read from the blocks
//! the PDF decoder lays out: datasheet cards, stratagem cards, detachment pages.
//!
//! A *card page* starts with the unit's name and ends with `KEYWORDS:` / `FACTION KEYWORDS:`
//! at its foot; the front prints the profile row (`M T SV W LD OC` over its values), the
//! `RANGED WEAPONS` / `MELEE WEAPONS` tables (`RANGE A BS|WS S AP D`) and the abilities
//! column (`CORE:`, `FACTION:`, named abilities, `WARGEAR ABILITIES`, the `INVULNERABLE SAVE`
//! and `DAMAGED:` boxes); the back repeats name and keywords beside `WARGEAR OPTIONS`, `UNIT
//! COMPOSITION`, `LEADER` and other named boxes. Consecutive pages with the same name are one
//! datasheet with both pages in its sources. A paragraph inside a weapon table (`Conversion:`,
//! a profile note) is not a weapon. A *stratagem* is a name, a `GROUP – CATEGORY STRATAGEM`
//! line, flavor, `WHEN:`/`TARGET:`/`EFFECT:`/`RESTRICTIONS:` and an `nCP` box (in the faction
//! pack's gutter, placed by the decoder within the card's lines). A *detachment page* is the
//! detachment's name, `DETACHMENT RULE` with the rule's name, flavor and text, `RESTRICTIONS`
//! (the army the detachment allows: the end of its rule's text, under a `RESTRICTIONS` line, as
//! Wahapedia's export prints it), and `ENHANCEMENTS` (name, flavor, text, points when printed). An `ARMY RULES` heading
//! starts named army rules.
//!
//! Every record carries file, page and box (`Provenance.page`/`bbox`, the union of the boxes
//! of the blocks it was read from). The datasheet's faction is the faction its first faction
//! keyword names ([`crate::vocab::Vocabulary::faction_of_keyword`]), so ids match the other sources'.

use super::sheet::{Finish, PrintedSave, SheetBuilder};
use super::text;
use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::ids;
use crate::ir::{Block, BlockKind, Document};
use crate::model::*;
use crate::source::{BBox, Location, PageSize, Provenance};
use crate::text::words::{ListStyle, TitleStyle};
use crate::vocab::{Heading as H, TENTH as V};
use regex::Regex;
use std::sync::LazyLock;

static STRATAGEM_TYPE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(.+?)\s+[–—-]\s+(.+?)\s+STRATAGEM$").expect("static regex"));
static CP: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\d+)\s*CP$").expect("static regex"));
static POINTS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+) models?$").expect("static regex"));
/// A save value and the text after it (`5+ INVULNERABLE SAVE`).
static SHIELD_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([2-6]\+)\s+(\S.*)$").expect("static regex"));
/// A weapon's range as a card prints it: `24"`, `Melee`, `N/A`, `-`.
static RANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(?i:\d+(?:-\d+)?(?:"|”)|melee|n/a|-)$"#).expect("static regex")
});
static PTS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+)\s*(?:pts|points)$").expect("static regex"));

/// A paragraph: wrapped lines joined (hyphen at a line end kept, no space after it).
#[derive(Debug, Clone)]
struct Para {
    kind: BlockKind,
    text: String,
    cells: Vec<String>,
    level: u8,
    page: u32,
    line: u32,
    bbox: BBox,
    /// The page's size.
    page_size: Option<PageSize>,
    /// Font size of its first line (the height of that line's box).
    size: f32,
}

/// Joins wrapped lines: a paragraph or list-item line followed, without a gap, by a paragraph
/// line in the same column continues it. Table rows and headings stand alone. A stratagem's
/// CP box that the layout puts among a paragraph's lines (it sits in the gutter level with one
/// of them: a line of its own, or a cell beside that line) is held back until the paragraph
/// ends, so the lines after it still continue the paragraph.
fn paragraphs(blocks: &[&Block]) -> Vec<Para> {
    let mut out: Vec<Para> = Vec::new();
    let mut held: Option<Para> = None;
    for b in blocks {
        let p = para(b);
        let cp_cell = (b.kind == BlockKind::TableRow && b.cells.len() == 2)
            .then(|| b.cells.iter().position(|c| CP.is_match(c.trim())))
            .flatten();
        let text_para = |t: &str, p: &Para| Para {
            kind: BlockKind::Paragraph,
            text: t.trim().to_string(),
            cells: Vec::new(),
            ..p.clone()
        };
        let (cp, rest) = match cp_cell {
            Some(k) => (
                text_para(&b.cells[k], &p),
                Some(text_para(&b.cells[1 - k], &p)),
            ),
            None if p.kind != BlockKind::TableRow && CP.is_match(&p.text) => (p, None),
            None => {
                push_line(&mut out, &mut held, p, b.blank_before);
                continue;
            }
        };
        let holds = held.is_none()
            && out.last().is_some_and(|l| {
                l.kind == BlockKind::Paragraph
                    && l.page == cp.page
                    && !STRATAGEM_TYPE.is_match(&l.text)
            });
        if holds {
            held = Some(cp);
        } else {
            out.extend(held.take());
            out.push(cp);
        }
        if let Some(r) = rest {
            push_line(&mut out, &mut held, r, true);
        }
    }
    out.extend(held.take());
    out
}

/// One block as a paragraph of its own.
fn para(b: &Block) -> Para {
    let bbox = b.span.bbox.unwrap_or_default();
    Para {
        kind: b.kind,
        text: b.text.trim().to_string(),
        cells: b.cells.iter().map(str::to_string).collect(),
        level: b.level,
        page: b.span.page.unwrap_or(0),
        line: b.line(),
        bbox,
        page_size: b.span.page_size,
        size: bbox.0[3] - bbox.0[1],
    }
}

/// Adds a line: the continuation of the last paragraph, or a paragraph of its own (after the
/// CP box held back, if any). After a held box, the gap to the paragraph's last line decides,
/// not the jump from the box in the gutter.
fn push_line(out: &mut Vec<Para>, held: &mut Option<Para>, p: Para, blank_before: bool) {
    let joined = match (held.as_ref(), out.last()) {
        (Some(_), Some(l)) => {
            let h = p.size.max(1.0);
            let gap = l.bbox.0[1] - p.bbox.0[3];
            gap < 0.5 * h && gap > -h
        }
        _ => !blank_before,
    };
    let continues = p.kind == BlockKind::Paragraph
        && joined
        && !starts_new(&p.text)
        && out.last().is_some_and(|l| {
            matches!(l.kind, BlockKind::Paragraph | BlockKind::ListItem) && l.page == p.page
        });
    if let Some(l) = out.last_mut().filter(|_| continues) {
        if !l.text.ends_with('-') {
            l.text.push(' ');
        }
        l.text.push_str(&p.text);
        l.bbox = l.bbox.union(p.bbox);
        return;
    }
    out.extend(held.take());
    out.push(p);
}

/// A line that starts a field of its own even without a gap before it.
fn starts_new(t: &str) -> bool {
    V.starts_with_stratagem_label(t)
        || t.starts_with(V.heading(H::Keywords))
        || t.starts_with(V.heading(H::FactionKeywords))
        || V.starts_with(H::CoreReferences, ":", t)
        || V.starts_with(H::FactionReferences, ":", t)
        || CP.is_match(t)
        || STRATAGEM_TYPE.is_match(t)
}

/// Reads one PDF document.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let edition = out.edition.unwrap_or(Edition::Tenth);
    out.version = doc
        .blocks
        .iter()
        .take(20)
        .find(|b| b.text.to_lowercase().contains("version"))
        .and_then(|b| super::wahapedia::pack_version(&b.text.to_lowercase()));
    // Blocks by page.
    let mut pages: Vec<(u32, Vec<&Block>)> = Vec::new();
    for b in &doc.blocks {
        let p = b.span.page.unwrap_or(0);
        match pages.last_mut() {
            Some((n, v)) if *n == p => v.push(b),
            _ => pages.push((p, vec![b])),
        }
    }
    let mut cards: Vec<(String, Vec<Para>)> = Vec::new();
    let mut other: Vec<Para> = Vec::new();
    for (_, blocks) in &pages {
        let columns = abilities_column_apart(blocks);
        let blocks: Vec<&Block> = match &columns {
            Some(v) => v.iter().collect(),
            None => blocks.clone(),
        };
        let paras = paragraphs(&blocks);
        match card_name(&paras) {
            Some(name) => match cards.last_mut() {
                Some((n, v)) if *n == name => v.extend(paras),
                _ => cards.push((name, paras)),
            },
            None => other.extend(paras),
        }
    }
    let sheets: Vec<SheetBuilder> = cards
        .iter()
        .map(|(name, paras)| datasheet(doc, edition, name, paras, out))
        .collect();
    // The document's faction: the one most cards name.
    let mut counts: Vec<(String, usize)> = Vec::new();
    for d in &sheets {
        if let Some(f) = &d.faction {
            match counts.iter_mut().find(|(g, _)| g == f) {
                Some((_, n)) => *n += 1,
                None => counts.push((f.clone(), 1)),
            }
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let faction = counts.first().map(|(f, _)| f.clone());
    out.faction = faction.clone();
    for d in sheets {
        let f = Finish {
            faction: d.faction.clone().or_else(|| faction.clone()),
            file: &doc.file,
            line: d.sources.first().map_or(0, |p| p.line),
            link_references: true,
            publication: None,
        };
        let ds = d.finish(f, &mut out.diagnostics);
        out.datasheets.push(ds);
    }
    faction_pages(doc, edition, faction.as_deref(), &other, out);
}

/// How far left of the abilities gutter (points) a cell may start and still be the column's.
const GUTTER_SLACK: f32 = 2.0;

/// The abilities column of a card's front apart from its weapon tables. The column sits right
/// of the tables and its lines share baselines with weapon rows, so the decoder may lay a
/// weapon row and a line of ability text out as one row (`Scatter laser | 36" | … | Lanced
/// Obliteration: Each time …`). Where the column starts (the gutter) is the left edge of the
/// `ABILITIES` cell a weapon table's header row carries, or of the `ABILITIES` line on that
/// header's baseline. Every block at or below that header which starts right of
/// the gutter, and the part right of it of every row that straddles it, is the column: read
/// after the rest of the page, top to bottom, under an `ABILITIES` line. `None`: no gutter on
/// the page (the page's blocks stand as they are).
fn abilities_column_apart(blocks: &[&Block]) -> Option<Vec<Block>> {
    let is_abilities = |t: &str| V.is(H::Abilities, t.trim());
    let weapon_header = |b: &Block| {
        b.kind == BlockKind::TableRow
            && b.cells
                .first()
                .is_some_and(|first| V.is(H::RangedWeapons, first) || V.is(H::MeleeWeapons, first))
    };
    let headers: Vec<BBox> = (blocks.iter())
        .filter(|b| weapon_header(b))
        .filter_map(|b| b.span.bbox)
        .collect();
    let (h, gutter) = blocks.iter().enumerate().find_map(|(i, b)| {
        if weapon_header(b) {
            let last = b.cells.len().checked_sub(1).filter(|&l| l > 0)?;
            return (is_abilities(&b.cells[last]))
                .then(|| b.cells.x0(last))
                .flatten()
                .map(|x| (i, x));
        }
        // The column's heading alone, on a weapon table header's baseline.
        let bbox = b.span.bbox?;
        let level = headers.iter().any(|hb| level_with(bbox, *hb));
        (b.kind != BlockKind::TableRow && is_abilities(&b.text) && level).then_some((i, bbox.0[0]))
    })?;
    let top = blocks[h].span.bbox?.0[3];
    let at_or_below = |b: &Block| b.span.bbox.is_some_and(|x| x.0[3] <= top + 1.0);
    let mut left: Vec<Block> = Vec::with_capacity(blocks.len());
    let mut right: Vec<Block> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let Some(bbox) = b.span.bbox else {
            left.push((*b).clone());
            continue;
        };
        if i != h && !at_or_below(b) {
            left.push((*b).clone());
            continue;
        }
        if b.kind != BlockKind::TableRow || b.cells.x0(0).is_none() {
            if bbox.0[0] >= gutter - GUTTER_SLACK {
                right.push((*b).clone());
            } else {
                left.push((*b).clone());
            }
            continue;
        }
        let (l, r) = split_row(b, gutter);
        left.extend(l);
        right.extend(r);
    }
    if right.is_empty() {
        return None;
    }
    // The column top to bottom; a line starts a paragraph after a gap wider than half a line.
    right.sort_by(|a, b| {
        let y = |x: &Block| x.span.bbox.map_or(0.0, |b| b.0[3]);
        y(b).total_cmp(&y(a))
    });
    let mut prev: Option<BBox> = None;
    for b in &mut right {
        let Some(bbox) = b.span.bbox else { continue };
        let size = bbox.0[3] - bbox.0[1];
        b.blank_before = prev.map_or(true, |p| {
            let gap = p.0[1] - bbox.0[3];
            gap > 0.5 * size || gap < -size
        });
        prev = Some(bbox);
    }
    left.extend(right);
    Some(left)
}

/// A row's cells left of the gutter (a row, or a line of text when one cell is left) and
/// right of it (one line of the abilities column, its cells joined).
fn split_row(b: &Block, gutter: f32) -> (Option<Block>, Option<Block>) {
    let n = b.cells.len();
    let k = (0..n)
        .find(|&i| b.cells.x0(i).is_some_and(|x| x >= gutter - GUTTER_SLACK))
        .unwrap_or(n);
    match k {
        0 => return (None, Some(b.clone())),
        k if k == n => return (Some(b.clone()), None),
        _ => {}
    }
    let Some(bbox) = b.span.bbox else {
        return (Some(b.clone()), None);
    };
    let piece = |cells: &[&str], x0: f32, x1: f32| -> Block {
        let mut p = match cells {
            [one] => Block::new(BlockKind::Paragraph, *one, b.line()),
            _ => Block::row_of(
                crate::ir::Cells::placed(
                    cells
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (*t, b.cells.x0(i).unwrap_or(x0))),
                ),
                b.line(),
            ),
        };
        p.span = b.span;
        p.span.bbox = Some(BBox([x0, bbox.0[1], x1, bbox.0[3]]));
        p.blank_before = b.blank_before;
        p
    };
    let cells: Vec<&str> = b.cells.iter().collect();
    let right_x0 = b.cells.x0(k).unwrap_or(gutter);
    let mut right = piece(&[], right_x0, bbox.0[2]);
    right.kind = BlockKind::Paragraph;
    right.text = cells[k..].join(" ");
    let left = (k > 0).then(|| piece(&cells[..k], bbox.0[0], right_x0));
    (left, Some(right))
}

/// Where a sub-record of a card was read: its paragraph's line, page, box and page size.
fn location(doc: &Document, p: &Para) -> Location {
    provenance(doc, p).location()
}

fn provenance(doc: &Document, p: &Para) -> Provenance {
    Provenance {
        page: Some(p.page),
        bbox: Some(p.bbox),
        page_size: p.page_size,
        ..Provenance::at_line(doc.file.clone(), p.line, doc.sha256.clone())
    }
}

/// A card page: its first paragraph is an upper-case name and a `KEYWORDS:` line and a
/// `FACTION KEYWORDS` line are on it.
fn card_name(paras: &[Para]) -> Option<String> {
    let first = paras.first()?;
    let has = |l: &str| paras.iter().any(|p| p.text.starts_with(l));
    (first.kind != BlockKind::TableRow
        && text::is_upper(&first.text)
        && has(V.heading(H::Keywords))
        && has(V.heading(H::FactionKeywords)))
    .then(|| first.text.clone())
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Section {
    None,
    Weapons(WeaponType),
    Abilities,
    Wargear,
    Composition,
    Leader,
    Damaged,
    Named,
}

/// Reads one card (all its pages) into a datasheet (finished by the caller, which knows the
/// document's faction).
fn datasheet(
    doc: &Document,
    edition: Edition,
    name: &str,
    paras: &[Para],
    out: &mut Extracted,
) -> SheetBuilder {
    let mut r = CardReader::new(doc, edition, paras);
    while let Some(p) = r.next() {
        if p.text == name && p.kind != BlockKind::TableRow || r.read_apart.contains(&p.line) {
            continue;
        }
        let upper = p.text.to_uppercase();
        if r.profile(p)
            || r.weapon_header(p)
            || r.invulnerable_save(p, &upper, out)
            || r.keywords(p)
            || r.heading(p, &upper)
        {
            continue;
        }
        r.section_content(p, out);
    }
    r.finish(name)
}

/// The state of reading one card, paragraph by paragraph.
struct CardReader<'a> {
    doc: &'a Document,
    edition: Edition,
    paras: &'a [Para],
    /// The next paragraph to read.
    i: usize,
    ds: SheetBuilder,
    section: Section,
    /// The group of the abilities read next (`datasheet`, `wargear`).
    group: String,
    /// The size of ability text: a smaller paragraph in that column is a weapon footnote.
    ability_size: f32,
    /// Per page: the first paragraph read there and the union of the boxes read.
    boxes: Vec<(&'a Para, BBox)>,
    /// Lines already read as part of another field (a shield's `* …` note).
    read_apart: Vec<u32>,
}

impl<'a> CardReader<'a> {
    fn new(doc: &'a Document, edition: Edition, paras: &'a [Para]) -> Self {
        CardReader {
            doc,
            edition,
            paras,
            i: 0,
            ds: SheetBuilder::new(edition),
            section: Section::None,
            group: "datasheet".to_string(),
            ability_size: 0.0,
            boxes: Vec::new(),
            read_apart: Vec::new(),
        }
    }

    /// The next paragraph, its box added to its page's.
    fn next(&mut self) -> Option<&'a Para> {
        let p = self.paras.get(self.i)?;
        self.i += 1;
        match self.boxes.iter_mut().find(|(q, _)| q.page == p.page) {
            Some((_, b)) => *b = b.union(p.bbox),
            None => {
                // A new page (the card's back) starts outside any section: what it prints
                // before its first box (flavor text) does not continue the front's last one.
                if !self.boxes.is_empty() {
                    self.section = Section::None;
                }
                self.boxes.push((p, p.bbox));
            }
        }
        Some(p)
    }

    /// Profile row: header, then one values row per model. A unit of several profiles names
    /// each model beside its values: in a cell of the row, or in a line of its own (smaller
    /// type on another baseline, read before or after the row) level with it.
    fn profile(&mut self, p: &Para) -> bool {
        let header = p.kind == BlockKind::TableRow
            && p.cells.len() >= 6
            && p.cells[0].eq_ignore_ascii_case("M")
            && p.cells[2].eq_ignore_ascii_case("SV");
        if !header {
            return false;
        }
        // The rows and the name lines between them, up to anything else.
        let window: Vec<&Para> = self.paras[self.i..]
            .iter()
            .take_while(|v| profile_cells(v).is_some() || model_label(v))
            .collect();
        let rows: Vec<&Para> = window
            .iter()
            .copied()
            .filter(|v| profile_cells(v).is_some())
            .collect();
        // Each name line goes to the row it is level with.
        let level_row = |l: &Para| rows.iter().position(|r| level_with(l.bbox, r.bbox));
        let taken = window
            .iter()
            .take_while(|v| profile_cells(v).is_some() || level_row(v).is_some())
            .count();
        let mut names: Vec<Vec<&Para>> = vec![Vec::new(); rows.len()];
        for l in &window[..taken] {
            if let Some(k) = level_row(l).filter(|_| profile_cells(l).is_none()) {
                names[k].push(l);
            }
        }
        // The rows read: those among the lines taken (the first ones, in reading order).
        let read = window[..taken]
            .iter()
            .filter(|v| profile_cells(v).is_some())
            .count();
        for (row, labels) in rows.iter().zip(names).take(read) {
            self.profile_row(row, &labels);
        }
        self.i += taken;
        true
    }

    /// One values row of the profile, with the name lines printed beside it (a line above the
    /// row's middle before a name cell of the row, one below after it).
    fn profile_row(&mut self, v: &Para, labels: &[&Para]) {
        let Some((model, vals)) = profile_cells(v) else {
            return;
        };
        let mut at = location(self.doc, v);
        let mut name: Vec<&str> = Vec::new();
        let (above, below): (Vec<&Para>, Vec<&Para>) =
            labels.iter().partition(|l| mid_y(l.bbox) > mid_y(v.bbox));
        name.extend(above.iter().map(|l| l.text.as_str()));
        name.extend(model);
        name.extend(below.iter().map(|l| l.text.as_str()));
        for l in labels {
            at.bbox = at.bbox.map(|b| b.union(l.bbox));
        }
        let name = name.join(" ");
        let name = (!name.is_empty()).then(|| match text::is_upper(&name) {
            true => TitleStyle::CARD.apply(&name),
            false => name,
        });
        self.ds.model_row(name, &vals, at);
    }

    /// `RANGED WEAPONS` / `MELEE WEAPONS` table header.
    fn weapon_header(&mut self, p: &Para) -> bool {
        if p.kind != BlockKind::TableRow || p.cells.len() < 2 {
            return false;
        }
        let kind = if V.is(H::RangedWeapons, &p.cells[0]) {
            WeaponType::Ranged
        } else if V.is(H::MeleeWeapons, &p.cells[0]) {
            WeaponType::Melee
        } else {
            return false;
        };
        self.section = Section::Weapons(kind);
        true
    }

    /// The `INVULNERABLE SAVE` box: a row with its value, or a line with the value after it;
    /// on index cards a shield under the profile, its value first (`5+ | INVULNERABLE SAVE`),
    /// its condition after a starred label on the same baseline (`INVULNERABLE SAVE* | *
    /// Against ranged attacks only`), in the next line, or in a `* …` note elsewhere on the
    /// page.
    fn invulnerable_save(&mut self, p: &Para, upper: &str, out: &mut Extracted) -> bool {
        if let Some((save, rest)) = value_first_shield(p) {
            self.ds.invulnerable_value(Some(save));
            let condition = rest.trim_start_matches(|c: char| c == '*' || c.is_whitespace());
            if !condition.is_empty() {
                self.ds.invulnerable_condition(Some(condition.to_string()));
            } else if rest.starts_with('*') {
                // The note: the next line, else the first `* …` line of the page.
                let note = (self.paras.iter())
                    .filter(|n| n.page == p.page && n.line != p.line)
                    .filter(|n| n.kind != BlockKind::TableRow && n.text.starts_with('*'))
                    .min_by_key(|n| (n.line != p.line + 1, n.line));
                if let Some(n) = note {
                    let c = n
                        .text
                        .trim_start_matches(|c: char| c == '*' || c.is_whitespace());
                    self.ds.invulnerable_condition(Some(c.to_string()));
                    self.read_apart.push(n.line);
                }
            }
            return true;
        }
        if p.kind == BlockKind::TableRow
            && p.cells.len() == 2
            && V.is(H::InvulnerableSave, p.cells[0].trim_end_matches('*'))
        {
            self.ds
                .invulnerable_value(PrintedSave::read(&p.cells[1]).save);
            // `INVULNERABLE SAVE*` with its condition in a `* …` note below.
            let starred = p.cells.iter().any(|c| c.ends_with('*'));
            if let Some(note) = self
                .paras
                .get(self.i)
                .filter(|n| starred && n.text.starts_with('*'))
            {
                self.ds.invulnerable_condition(Some(
                    note.text.trim_start_matches('*').trim().to_string(),
                ));
                self.i += 1;
            }
            return true;
        }
        if upper.starts_with(V.heading(H::InvulnerableSave)) && p.kind != BlockKind::TableRow {
            // Cut on the text itself: its upper-case copy may differ in length (`ß` → `SS`).
            let rest = V
                .after_label(H::InvulnerableSave, "", &p.text)
                .unwrap_or_default();
            if !rest.is_empty() {
                self.ds.invulnerable_value(PrintedSave::read(rest).save);
            }
            // A label with no value beside it, and none read before: not guessed.
            if self.ds.invulnerable_save.is_none() {
                out.diagnostics.push(
                    Diagnostic::new(
                        Code::CardFieldNotRead,
                        format!(
                            "'{}' printed with no value (page {}); invulnerable save left null",
                            p.text, p.page
                        ),
                    )
                    .at(&self.doc.file, p.line),
                );
            }
            return true;
        }
        false
    }

    /// `FACTION KEYWORDS:` and `KEYWORDS:` lines (the latter on both pages, read once).
    /// A label printed alone (`FACTION KEYWORDS:` in its box) or a list ending with a comma
    /// (`KEYWORDS: …, REGIMENT,`) continues on a line of its own below it, which the layout
    /// may not join to it (each line set as a heading on a card's back, or another line
    /// between them in reading order): `KEYWORDS:` left, the faction box right.
    fn keywords(&mut self, p: &Para) -> bool {
        let t = p.text.as_str();
        if let Some(rest) = V.after_printed_label(H::FactionKeywords, ":", t) {
            let mut list = ListStyle::CARD.split(rest);
            if list.is_empty() {
                // The box's value: the next line below the label, at or right of it.
                if let Some(n) = self.line_below(p, |n| n.bbox.0[0] >= p.bbox.0[0] - p.size) {
                    list = ListStyle::CARD.split(&n.text);
                    self.read_apart.push(n.line);
                }
            }
            // The back repeats the front's box: never emptied by an unread repeat.
            if !list.is_empty() {
                self.ds.faction_keywords = list;
            }
            return true;
        }
        if let Some(rest) = V.after_printed_label(H::Keywords, ":", t) {
            let mut text = rest.to_string();
            if text.trim_end().ends_with(',') {
                // The wrapped rest: the next line below, under the list (left of its end).
                let more =
                    self.line_below(p, |n| n.bbox.0[0] < p.bbox.0[2] && !n.text.contains(':'));
                if let Some(n) = more {
                    text.push(' ');
                    text.push_str(&n.text);
                    self.read_apart.push(n.line);
                }
            }
            for k in ListStyle::CARD.split(&text) {
                if !self.ds.keywords.contains(&k) {
                    self.ds.keywords.push(k);
                }
            }
            return true;
        }
        false
    }

    /// The first line after `p` in reading order, on its page, that starts within two lines
    /// below it and passes `keep`.
    fn line_below(&self, p: &Para, keep: impl Fn(&Para) -> bool) -> Option<&'a Para> {
        let h = p.size.max(1.0);
        let paras: &'a [Para] = self.paras;
        paras.get(self.i..)?.iter().find(|n| {
            n.page == p.page
                && n.kind != BlockKind::TableRow
                && !self.read_apart.contains(&n.line)
                && n.bbox.0[3] <= p.bbox.0[1] + 0.5 * h
                && n.bbox.0[3] >= p.bbox.0[1] - 2.0 * h
                && keep(n)
        })
    }

    /// A heading that starts a section: `DAMAGED:`, the named columns and boxes.
    fn heading(&mut self, p: &Para, upper: &str) -> bool {
        let t = p.text.as_str();
        if V.starts_with(H::Damaged, ":", upper) {
            self.section = Section::Damaged;
            self.ds.damaged_box(NamedText {
                name: t.to_string(),
                text: String::new(),
                at: location(self.doc, p),
            });
            return true;
        }
        let (section, group) = match V.heading_of(upper) {
            // The badge of a Legends datasheet (letter-spaced on the card, joined by the decoder).
            Some(H::LegendsMark) => {
                self.ds.legends_mark();
                return true;
            }
            Some(H::Abilities) => (Section::Abilities, Some("datasheet")),
            Some(H::WargearAbilities) => (Section::Abilities, Some("wargear")),
            Some(H::WargearOptions) => (Section::Wargear, None),
            Some(H::UnitComposition) => (Section::Composition, None),
            Some(H::Leader) => (Section::Leader, None),
            _ => return self.named_box(p),
        };
        self.section = section;
        if let Some(g) = group {
            self.group = g.into();
        }
        true
    }

    /// Another named box (ATTACHED UNIT, SUPREME COMMANDER…).
    fn named_box(&mut self, p: &Para) -> bool {
        let t = p.text.as_str();
        let named = p.kind != BlockKind::TableRow
            && p.kind != BlockKind::ListItem
            && text::is_upper(t)
            && t.len() <= 40
            && !t.contains(':')
            && t.split_whitespace().count() <= 5;
        if named {
            self.section = Section::Named;
            self.ds.named_box(NamedText {
                name: t.to_string(),
                text: String::new(),
                at: location(self.doc, p),
            });
        }
        named
    }

    /// A paragraph inside the current section.
    fn section_content(&mut self, p: &Para, out: &mut Extracted) {
        let t = p.text.as_str();
        let ds = &mut self.ds;
        match self.section {
            Section::Weapons(kind) if p.kind == BlockKind::TableRow => {
                // A name printed on the line above its row (the row starts with its keywords).
                let above = (self.i.checked_sub(2))
                    .and_then(|k| self.paras.get(k))
                    .filter(|a| {
                        a.kind == BlockKind::Paragraph
                            && a.page == p.page
                            && !a.text.starts_with('[')
                            && !a.text.contains(':')
                            && a.text.chars().count() <= 60
                    })
                    .map(|a| a.text.as_str());
                weapon(self.doc, self.edition, kind, p, above, ds, out);
            }
            // The rest of a wrapped weapon name: its bracketed abilities on the next line.
            Section::Weapons(_) if t.starts_with('[') && t.ends_with(']') => {
                if let Some(w) = ds.weapons.last_mut() {
                    let (_, more) = text::weapon_name_and_keywords(t);
                    w.keywords.extend(more.iter().map(|k| k.to_uppercase()));
                }
            }
            // A note inside a weapon table (`Conversion:`, a profile footnote): not a weapon.
            Section::Weapons(_) => {}
            Section::Abilities => self.ability(p),
            Section::Wargear => {
                if !t.eq_ignore_ascii_case("None") {
                    ds.wargear_option(t.to_string());
                }
            }
            Section::Composition => {
                if p.kind == BlockKind::ListItem {
                    ds.composition(t.to_string());
                } else if let Some(m) = points(self.doc, p) {
                    ds.points(m.models, m.points, m.at);
                } else {
                    ds.equipment_line(t.to_string());
                }
            }
            Section::Leader => {
                if p.kind == BlockKind::ListItem {
                    ds.can_lead(t.to_string());
                }
            }
            // A footnote of the weapon table set below the column (smaller than the
            // abilities' text) ends no box.
            Section::Damaged | Section::Named if p.size < 0.85 * self.ability_size => {}
            Section::Damaged => {
                if let Some(d) = ds.damaged.as_mut() {
                    push_text(&mut d.text, t);
                }
            }
            Section::Named => {
                if let Some(r) = ds.special_rules.last_mut() {
                    push_text(&mut r.text, t);
                }
            }
            Section::None => {
                if let Some(m) = points(self.doc, p) {
                    ds.points(m.models, m.points, m.at);
                }
            }
        }
    }

    /// A paragraph of the abilities column.
    fn ability(&mut self, p: &Para) {
        if p.size < 0.85 * self.ability_size {
            return; // a footnote of the weapon table set below the abilities
        }
        self.ability_size = self.ability_size.max(p.size);
        // A designer's note explains the ability above it; it is not one: the end of that
        // ability's text (as Wahapedia's export prints it), its box grown to hold it.
        let t = p.text.as_str();
        let lower = t.to_lowercase();
        if lower.starts_with("designer’s note") || lower.starts_with("designer's note") {
            if let Some(a) = self.ds.abilities.last_mut() {
                push_text(a.text.get_or_insert_with(String::new), t);
                if a.at.page == Some(p.page) {
                    a.at.bbox = a.at.bbox.map(|b| b.union(p.bbox));
                }
            }
            return;
        }
        let at = location(self.doc, p);
        self.ds.ability_line(t, &self.group, at);
    }

    /// The datasheet read: badges dropped, name, faction and sources set.
    fn finish(self, name: &str) -> SheetBuilder {
        let mut ds = self.ds;
        // Named boxes with nothing in them are badges (`WARHAMMER LEGENDS`), not rules.
        ds.special_rules.retain(|r| !r.text.is_empty());
        // The name as the keywords spell it when they are not in capitals, else the printed
        // upper-case name in title case (`Wolf Guard Pack Leader in Terminator Armour`).
        let display = ds
            .keywords
            .iter()
            .find(|k| k.eq_ignore_ascii_case(name) && !text::is_upper(k))
            .cloned()
            .unwrap_or_else(|| TitleStyle::CARD.apply(name));
        ds.set_name(display);
        ds.faction = ds
            .faction_keywords
            .first()
            .and_then(|k| V.faction_of_keyword(k).map(str::to_string));
        for (p, bbox) in self.boxes {
            ds.sources.push(Provenance {
                bbox: Some(bbox),
                ..provenance(self.doc, p)
            });
        }
        ds
    }
}

fn push_text(s: &mut String, t: &str) {
    if !s.is_empty() {
        s.push_str("\n\n");
    }
    s.push_str(t);
}

/// An index card's shield, value first: `5+ | INVULNERABLE SAVE* | * condition` (a row or one
/// line) → the save and what follows the label (a star, a condition).
fn value_first_shield(p: &Para) -> Option<(String, String)> {
    let flat = match p.kind {
        BlockKind::TableRow => p.cells.join(" "),
        _ => p.text.clone(),
    };
    let c = SHIELD_VALUE.captures(flat.trim())?;
    let rest = V.after_label(H::InvulnerableSave, "", &c[2])?;
    Some((c[1].to_string(), rest.to_string()))
}

/// A values row of the profile: the model's name cells (before or after) and the six values.
fn profile_cells(v: &Para) -> Option<(Vec<&str>, Vec<&str>)> {
    if v.kind != BlockKind::TableRow {
        return None;
    }
    let cells: Vec<&str> = v.cells.iter().map(String::as_str).collect();
    let is_move = |c: &str| c.ends_with('"') || c == "-";
    if cells.len() >= 6 && is_move(cells[0]) {
        Some((cells[6..].to_vec(), cells[..6].to_vec()))
    } else if cells.len() > 6 && is_move(cells[cells.len() - 6]) {
        let (name, vals) = cells.split_at(cells.len() - 6);
        Some((name.to_vec(), vals.to_vec()))
    } else {
        None
    }
}

/// A line that can name a model beside its profile row: short text, no label (`KEYWORDS:`),
/// not a box of its own (`INVULNERABLE SAVE`).
fn model_label(v: &Para) -> bool {
    let t = v.text.as_str();
    matches!(v.kind, BlockKind::Paragraph | BlockKind::Heading)
        && !t.is_empty()
        && t.chars().count() <= 48
        && !t.contains(':')
        && !t.chars().any(|c| c.is_ascii_digit())
        && !t
            .to_uppercase()
            .starts_with(first_word(V.heading(H::InvulnerableSave)))
}

/// `1 model | 70` or `10 models | 200 pts`.
fn points(doc: &Document, p: &Para) -> Option<PointsOption> {
    if p.kind != BlockKind::TableRow || p.cells.len() != 2 {
        return None;
    }
    let m = POINTS.captures(p.cells[0].trim())?;
    let pts = p.cells[1].trim();
    let pts = PTS
        .captures(pts)
        .map(|c| c[1].to_string())
        .unwrap_or_else(|| pts.to_string());
    Some(PointsOption {
        models: m[1].parse().ok()?,
        points: pts.parse().ok()?,
        at: location(doc, p),
        units: Default::default(),
    })
}

/// One weapon row: name with its bracketed abilities, then the six characteristics. A row
/// that prints only keywords before its range takes its name from the line above (`above`).
fn weapon(
    doc: &Document,
    edition: Edition,
    kind: WeaponType,
    p: &Para,
    above: Option<&str>,
    ds: &mut SheetBuilder,
    out: &mut Extracted,
) {
    // The name is every cell before the range (a keyword cell printed apart, in another
    // colour, joins it); a row with no range-shaped cell keeps its first cell as the name.
    let k = (1..p.cells.len())
        .find(|&i| RANGE.is_match(p.cells[i].trim()))
        .unwrap_or(1.min(p.cells.len()));
    if k == 0 {
        return;
    }
    let first = p.cells[..k].join(" ");
    let vals = &p.cells[k..];
    let (mut name, keywords) = text::weapon_name_and_keywords(&first);
    if name.is_empty() {
        if let Some(a) = above {
            name = a.trim().to_string();
        }
    }
    let fields = ProfileKind::Weapon.fields(edition);
    if vals.len() < fields.len() {
        out.diagnostics.push(
            Diagnostic::new(
                Code::WeaponRowIncomplete,
                format!(
                    "weapon '{name}' has {} of {} values (page {})",
                    vals.len(),
                    fields.len(),
                    p.page
                ),
            )
            .at(&doc.file, p.line),
        );
    }
    let keywords = keywords.iter().map(|k| k.to_uppercase()).collect();
    ds.weapon_fields(name, keywords, kind, location(doc, p), |k, _| {
        vals.get(k).map(|s| s.to_string()).filter(|s| !s.is_empty())
    });
}

/// The first word of a heading (`INVULNERABLE`).
fn first_word(h: &str) -> &str {
    h.split_whitespace().next().unwrap_or(h)
}

/// What the upper-case names read next on a faction page are: the rule of a detachment, its
/// enhancements, army rules.
#[derive(PartialEq, Clone, Copy)]
enum Mode {
    None,
    Rule,
    Enhancements,
    Army,
    Restrictions,
}

/// Detachment pages, stratagem cards and army rules.
fn faction_pages(
    doc: &Document,
    edition: Edition,
    faction: Option<&str>,
    paras: &[Para],
    out: &mut Extracted,
) {
    let mut r = PageReader {
        doc,
        edition,
        faction,
        scope: ids::faction_scope(faction),
        paras,
        detachments: Vec::new(),
        mode: Mode::None,
        last_heading: None,
        restrictions: None,
    };
    let mut i = 0;
    while i < paras.len() {
        if let Some(end) = r.stratagem(i, out) {
            i = end;
            continue;
        }
        let upper = paras[i].text.to_uppercase();
        r.page_title(i, &upper);
        if r.heading(&upper) {
            r.restrictions = (r.mode == Mode::Restrictions).then_some((paras[i].page, false));
            i += 1;
            continue;
        }
        // A CP box is a stratagem's, wherever reading order puts it (`stratagem` finds it).
        if paras[i].kind != BlockKind::TableRow && CP.is_match(paras[i].text.trim()) {
            i += 1;
            continue;
        }
        if let Some(end) = r.named_entry(i, out) {
            i = end;
            continue;
        }
        r.restriction(&paras[i], out);
        i += 1;
    }
    out.detachments.extend(r.detachments);
}

/// The state of reading the pages that are not cards, paragraph by paragraph.
struct PageReader<'a> {
    doc: &'a Document,
    edition: Edition,
    faction: Option<&'a str>,
    /// The faction's id scope.
    scope: String,
    paras: &'a [Para],
    detachments: Vec<Detachment>,
    mode: Mode,
    /// The last big heading: the detachment a `DETACHMENT RULE` heading belongs to.
    last_heading: Option<&'a Para>,
    /// In a `RESTRICTIONS` box: its page, and whether its heading is in the rule's text yet.
    restrictions: Option<(u32, bool)>,
}

/// An entry of a detachment page or army rules: its name, flavor, text, box.
struct Entry<'a> {
    p: &'a Para,
    name: String,
    flavor: Option<String>,
    rest: Vec<&'a Para>,
    bbox: BBox,
}

/// The paragraphs joined, list items bulleted.
fn text_of(v: &[&Para]) -> String {
    v.iter()
        .map(|b| match b.kind {
            BlockKind::ListItem => format!("• {}", b.text),
            _ => b.text.clone(),
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

impl<'a> PageReader<'a> {
    /// A stratagem at `i`: name, type line, text to the next stratagem's name. Returns where
    /// the next read starts.
    fn stratagem(&mut self, i: usize, out: &mut Extracted) -> Option<usize> {
        let paras = self.paras;
        let p = &paras[i];
        let t = p.text.as_str();
        let c = paras
            .get(i + 1)
            .and_then(|n| STRATAGEM_TYPE.captures(&n.text))?;
        if !text::is_upper(t) || p.kind == BlockKind::TableRow {
            return None;
        }
        let group = TitleStyle::CARD.apply(&c[1]);
        let category = TitleStyle::CARD.apply(&c[2]);
        let mut end = i + 2;
        while end < paras.len()
            && !paras
                .get(end + 1)
                .is_some_and(|n| STRATAGEM_TYPE.is_match(&n.text))
            && paras[end].page == p.page
        {
            end += 1;
        }
        let edition = self.edition;
        let mut s = Stratagem {
            id: ids::stratagem(edition, &group, t),
            name: TitleStyle::CARD.apply(t),
            edition,
            cp: None,
            group: Some(group.clone()),
            category: Some(category),
            flavor: None,
            when: None,
            target: None,
            effect: None,
            restrictions: None,
            sources: Vec::new(),
            translations: Default::default(),
        };
        let before = i
            .checked_sub(1)
            .map(|k| &paras[k])
            .filter(|b| b.page == p.page);
        let bbox = stratagem_body(
            &mut s,
            before,
            &paras[i + 2..end],
            p.bbox.union(paras[i + 1].bbox),
        );
        s.sources.push(Provenance {
            bbox: Some(bbox),
            ..provenance(self.doc, p)
        });
        if let Some(d) = self
            .detachments
            .iter_mut()
            .find(|d| ids::slug(&d.name) == ids::slug(&group))
        {
            d.stratagems.push(s.id.clone());
        }
        out.stratagems.push(s);
        Some(end)
    }

    /// A page title (a big heading first on its page) ends what the previous page was
    /// listing; a big heading may name the detachment.
    fn page_title(&mut self, i: usize, upper: &str) {
        let paras = self.paras;
        let p = &paras[i];
        if p.kind == BlockKind::Heading
            && p.level <= 2
            && !upper.starts_with(V.heading(H::FactionPack))
        {
            self.last_heading = Some(p);
            if paras
                .get(i.wrapping_sub(1))
                .map_or(true, |q| q.page != p.page)
            {
                self.mode = Mode::None;
            }
        }
    }

    /// `DETACHMENT RULE`, `ENHANCEMENTS`, `RESTRICTIONS`, `ARMY RULES`: what comes next.
    fn heading(&mut self, upper: &str) -> bool {
        self.mode = match V.heading_of(upper) {
            Some(H::DetachmentRule) => {
                self.detachment();
                Mode::Rule
            }
            Some(H::Enhancements) => Mode::Enhancements,
            Some(H::Restrictions) => Mode::Restrictions,
            Some(H::ArmyRules) => Mode::Army,
            _ => return false,
        };
        true
    }

    /// A paragraph of a detachment's `RESTRICTIONS` box (the army it allows): part of its
    /// rule's text after a `RESTRICTIONS` line, as Wahapedia prints it; the rule's box grows
    /// to hold it.
    fn restriction(&mut self, p: &Para, out: &mut Extracted) {
        let Some((page, started)) = self.restrictions.as_mut() else {
            return;
        };
        if self.mode != Mode::Restrictions || *page != p.page || is_page_number(p) {
            return;
        }
        let Some(id) = self.detachments.last().and_then(|d| d.rules.last()) else {
            return;
        };
        let Some(rule) = out.rules.iter_mut().rev().find(|r| &r.id == id) else {
            return;
        };
        if !*started {
            rule.text.push_str("\n\n");
            rule.text.push_str(V.heading(H::Restrictions));
            *started = true;
        }
        rule.text.push_str("\n\n");
        rule.text.push_str(&p.text);
        if let Some(b) = rule.occurrences.last_mut().and_then(|o| o.bbox.as_mut()) {
            *b = b.union(p.bbox);
        }
    }

    /// The detachment a `DETACHMENT RULE` heading starts: the last big heading before it.
    fn detachment(&mut self) {
        let Some(h) = self.last_heading else {
            return;
        };
        let name = TitleStyle::CARD.apply(&h.text);
        let id = ids::detachment(self.edition, self.faction, &name);
        if !self.detachments.iter().any(|d| d.id == id) {
            self.detachments.push(Detachment {
                id,
                name,
                edition: self.edition,
                faction: self.faction.map(str::to_string),
                rules: Vec::new(),
                enhancements: Vec::new(),
                stratagems: Vec::new(),
                sources: vec![provenance(self.doc, h)],
                points: Default::default(),
                force_disposition: Default::default(),
                unique_tag: Default::default(),
                translations: Default::default(),
            });
        }
    }

    /// An upper-case name at `i` (a rule or enhancement in the current mode) with its flavor
    /// and text to the next name. Returns where the next read starts.
    fn named_entry(&mut self, i: usize, out: &mut Extracted) -> Option<usize> {
        let paras = self.paras;
        let p = &paras[i];
        // `NAME | 15 pts`: an enhancement's name with its points beside it.
        let head_pts: Option<u32> = (p.kind == BlockKind::TableRow && p.cells.len() == 2)
            .then(|| PTS.captures(p.cells[1].trim()))
            .flatten()
            .and_then(|c| c[1].parse().ok());
        let t = match head_pts {
            Some(_) => p.cells[0].as_str(),
            None => p.text.as_str(),
        };
        let is_name = (p.kind != BlockKind::TableRow || head_pts.is_some())
            && p.kind != BlockKind::ListItem
            && text::is_upper(t)
            && !t.contains(':')
            && t.split_whitespace().count() <= 8;
        if !is_name || self.mode == Mode::None || self.mode == Mode::Restrictions {
            return None;
        }
        let end = self.entry_end(i);
        let entry = self.entry(i, end, TitleStyle::CARD.apply(t));
        match self.mode {
            Mode::Rule | Mode::Army => self.rule(entry, out),
            Mode::Enhancements => self.enhancement(entry, head_pts, out),
            _ => {}
        }
        Some(end)
    }

    /// Where the entry at `i` ends: the next upper-case name (or, for a detachment rule, the
    /// page's end).
    fn entry_end(&self, i: usize) -> usize {
        let paras = self.paras;
        let p = &paras[i];
        let mut end = i + 1;
        while end < paras.len() {
            let n = &paras[end];
            let named =
                text::is_upper(&n.text) && n.kind != BlockKind::TableRow && !n.text.contains(':');
            if named || n.page != p.page && self.mode == Mode::Rule {
                break;
            }
            end += 1;
        }
        end
    }

    /// The entry from its name at `i` to `end`: flavor (first paragraph) and the rest.
    fn entry(&self, i: usize, end: usize, name: String) -> Entry<'a> {
        let paras = self.paras;
        let p = &paras[i];
        let body: Vec<&Para> = paras[i + 1..end]
            .iter()
            .filter(|b| !is_page_number(b))
            .collect();
        let mut bbox = p.bbox;
        for b in &body {
            bbox = bbox.union(b.bbox);
        }
        let (flavor, rest) = match body.split_first() {
            Some((f, rest)) if body.len() > 1 && !f.kind.eq(&BlockKind::ListItem) => {
                (Some(f.text.clone()), rest.to_vec())
            }
            _ => (None, body.clone()),
        };
        Entry {
            p,
            name,
            flavor,
            rest,
            bbox,
        }
    }

    /// A detachment rule (of the last detachment) or an army rule.
    fn rule(&mut self, e: Entry, out: &mut Extracted) {
        let edition = self.edition;
        let at = Location {
            bbox: Some(e.bbox),
            ..location(self.doc, e.p)
        };
        let (kind, id) = if self.mode == Mode::Army {
            ("army", ids::army_rule(edition, &self.scope, &e.name))
        } else {
            (
                "detachment",
                ids::detachment_rule(edition, &self.scope, &e.name),
            )
        };
        let rule = Rule {
            variants: Vec::new(),
            id: id.clone(),
            name: Some(e.name),
            kind: kind.into(),
            edition,
            faction: self.faction.map(str::to_string),
            flavor: e.flavor,
            text: text_of(&e.rest),
            bullets: Vec::new(),
            examples: Vec::new(),
            tables: Vec::new(),
            occurrences: vec![at],
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        };
        if self.mode == Mode::Rule {
            if let Some(d) = self.detachments.last_mut() {
                d.rules.push(id);
            }
        }
        out.rules.push(rule);
    }

    /// An enhancement of the last detachment; points printed beside the name or as a
    /// `15 pts` line.
    fn enhancement(&mut self, e: Entry, head_pts: Option<u32>, out: &mut Extracted) {
        let det = self.detachments.last().map(|d| d.name.clone());
        let mut pts = head_pts;
        let mut rest = e.rest;
        rest.retain(|b| match PTS.captures(&b.text) {
            Some(c) => {
                pts = c[1].parse().ok();
                false
            }
            None => true,
        });
        let en = Enhancement {
            id: ids::enhancement(self.edition, self.faction, det.as_deref(), &e.name),
            name: Some(e.name),
            edition: self.edition,
            faction: self.faction.map(str::to_string),
            detachment: det,
            points: pts,
            flavor: e.flavor,
            text: text_of(&rest),
            sources: vec![Provenance {
                bbox: Some(e.bbox),
                ..provenance(self.doc, e.p)
            }],
            translations: Default::default(),
        };
        if let Some(d) = self.detachments.last_mut() {
            d.enhancements.push(en.id.clone());
        }
        out.enhancements.push(en);
    }
}

/// Reads a stratagem's body into it: the CP box, flavor, and the labelled text. Returns the
/// union of `bbox` (its name and type line) and the boxes read. The CP box is the one, among
/// the body's and the box just before the name (`before`: a box level with the name comes
/// first in reading order), whose middle is level with the stratagem's text: a box outside
/// it is a neighbour's (the cards sit in columns with their boxes in the gutter).
fn stratagem_body(s: &mut Stratagem, before: Option<&Para>, body: &[Para], mut bbox: BBox) -> BBox {
    let mut lines: Vec<&str> = Vec::new();
    let mut flavor: Vec<&str> = Vec::new();
    let mut boxes: Vec<(u32, BBox)> = Vec::new();
    let mut cp_box = |t: &str, b: &Para| match CP.captures(t.trim()).map(|c| c[1].parse()) {
        Some(Ok(n)) => {
            boxes.push((n, b.bbox));
            true
        }
        Some(Err(_)) => true,
        None => false,
    };
    if let Some(b) = before.filter(|b| b.kind != BlockKind::TableRow) {
        cp_box(&b.text, b);
    }
    for b in body.iter().filter(|b| !is_page_number(b)) {
        // The CP box, alone or on the baseline of a text line (then a cell).
        let cells: Vec<&str> = match b.kind {
            BlockKind::TableRow => b.cells.iter().map(String::as_str).collect(),
            _ => vec![b.text.as_str()],
        };
        let mut text = false;
        for cell in cells {
            if cp_box(cell, b) {
                continue;
            }
            text = true;
            let labelled = V.starts_with_stratagem_label(cell);
            if lines.is_empty() && !labelled {
                flavor.push(cell);
            } else {
                lines.push(cell);
            }
        }
        if text {
            bbox = bbox.union(b.bbox);
        }
    }
    if let Some((n, b)) = boxes.into_iter().find(|(_, b)| level_with(*b, bbox)) {
        s.cp = Some(n);
        bbox = bbox.union(b);
    }
    if !flavor.is_empty() {
        s.flavor = Some(flavor.join("\n\n"));
    }
    super::glossary::stratagem_text(s, lines);
    bbox
}

/// The height of a box's vertical middle.
fn mid_y(b: BBox) -> f32 {
    (b.0[1] + b.0[3]) / 2.0
}

/// Whether box `a` is level with box `b`: `a`'s middle within `b`'s height.
fn level_with(a: BBox, b: BBox) -> bool {
    (b.0[1]..=b.0[3]).contains(&mid_y(a))
}

/// A page number at the foot of a page: a lone number.
fn is_page_number(p: &Para) -> bool {
    p.text.chars().all(|c| c.is_ascii_digit()) && p.text.len() <= 3
}
