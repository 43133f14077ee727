//! PDF decoder (lopdf): the text layer, glyph by glyph, laid out into IR blocks with page and box.
//!
//! lopdf parses the file structure (xref, objects, streams, filters); `pdf_content` runs each
//! page's content streams into positioned glyphs and `pdf_font` maps their codes to text. This
//! module lays the glyphs out: lines from baselines, cells from x gaps, regions and reading
//! order by position (an XY cut on an explicit stack), headings from size and weight, and
//! normalizes what the text layer carries that is not text (U+2011, control characters, dot
//! leaders read as U+FFFD, letter-spaced headers, drop caps). Each block is a `Span::on_page`
//! with its box in PDF points.
//!
//! Never fails: a file lopdf cannot read (truncated, encrypted with a password, nested too
//! deep), a page without text or with only images are diagnostics (`S015`, `S016`); a glyph no
//! map knows is dropped and counted (`S017`).

pub use super::pdf_content::Glyph;
use super::pdf_content::{self, Budget, DocCache, Page};
use super::pdf_font;
use crate::diag::{Code, Diagnostic};
use crate::ir::{Block, BlockKind, Document};
use crate::source::{BBox, PageSize, SourceFile, Span};
use lopdf::{Dictionary, Object, ObjectId};

/// Deepest `[`/`<<` nesting accepted outside streams before lopdf parses the file (lopdf's
/// parser recurses on nesting; real files stay below 10).
const MAX_NESTING: usize = 64;

/// Decodes a PDF into blocks: one per laid-out line, in reading order, each with its page and
/// box. Never fails: what cannot be read is a diagnostic.
pub fn decode(src: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Document {
    let mut doc = Document {
        file: src.path.clone(),
        sha256: src.sha256.clone(),
        format: crate::source::Format::Pdf,
        blocks: Vec::new(),
        chrome_dropped: 0,
        meta: Default::default(),
    };
    let Pages { pages, budget_hit } = match read_pages(&src.bytes) {
        Ok(p) => p,
        Err(message) => {
            diagnostics.push(Diagnostic::new(Code::PdfUnreadable, message).in_file(&src.path));
            return doc;
        }
    };
    doc.meta.insert("pages".into(), pages.len().to_string());
    let mut line_no = 0u32;
    let mut unmapped = 0usize;
    let mut without_text: Vec<String> = Vec::new();
    for p in &pages {
        unmapped += p.page.unmapped;
        if let Some(limit) = p.page.limited {
            diagnostics.push(
                Diagnostic::new(
                    Code::PdfUnreadable,
                    format!("page {}: reading stopped at the {limit} limit; the rest of the page is not read", p.number),
                )
                .in_file(&src.path),
            );
        }
        let lines = layout(&p.page);
        if lines.is_empty() {
            without_text.push(if p.page.images > 0 {
                format!("{} (images only)", p.number)
            } else {
                p.number.to_string()
            });
            continue;
        }
        blocks_of_page(&lines, p, &mut line_no, &mut doc.blocks);
    }
    if !without_text.is_empty() {
        let all = without_text.len() == pages.len();
        let message = if all {
            format!(
                "no text layer on any of the {} page(s) (scanned or image-only PDF); nothing read",
                pages.len()
            )
        } else {
            format!(
                "no text layer on page(s) {}; those pages are not read",
                without_text.join(", ")
            )
        };
        diagnostics.push(Diagnostic::new(Code::PdfNoText, message).in_file(&src.path));
    }
    if let Some(message) = budget_hit {
        diagnostics.push(Diagnostic::new(Code::BudgetExceeded, message).in_file(&src.path));
    }
    if unmapped > 0 {
        diagnostics.push(
            Diagnostic::new(
                Code::PdfUnmappedGlyphs,
                format!("{unmapped} glyph(s) with no Unicode mapping (no ToUnicode entry, no encoding name) dropped"),
            )
            .in_file(&src.path),
        );
    }
    doc
}

/// Bullets the cards print before list items, with their depth.
const BULLETS: &[(char, u8)] = &[('■', 1), ('•', 1), ('●', 1), ('◦', 2), ('○', 2), ('▪', 2)];

/// One page's lines → blocks: a line of several cells is a `TableRow`; a bulleted line a
/// `ListItem`; a line set clearly larger than the page's body text a `Heading` (level by
/// size); anything else a `Paragraph`. `blank_before` marks a vertical gap wider than half a
/// line, or a jump to another column. Boxes are moved to the page box's origin (its lower-left
/// corner is `[0, 0]`) and carry the page's size.
fn blocks_of_page(lines: &[Line], p: &PageText, line_no: &mut u32, out: &mut Vec<Block>) {
    let page = p.number;
    let size = p.size();
    let [ox, oy, _, _] = p.bbox;
    // Body size: the size most characters are set in.
    let mut sizes: Vec<(i32, usize)> = Vec::new();
    for l in lines {
        for c in &l.cells {
            let key = (c.size * 2.0).round() as i32;
            match sizes.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += c.text.len(),
                None => sizes.push((key, c.text.len())),
            }
        }
    }
    let body = sizes
        .iter()
        .max_by_key(|(k, n)| (*n, -*k))
        .map_or(10.0, |(k, _)| *k as f32 / 2.0);
    let mut prev: Option<BBox> = None;
    for l in lines {
        *line_no += 1;
        let bbox = l.bbox();
        let [x0, y0, x1, y1] = bbox.0;
        let span = Span::on_page(
            *line_no,
            page,
            BBox([x0 - ox, y0 - oy, x1 - ox, y1 - oy]),
            size,
        );
        let size = l.cells.iter().map(|c| c.size).fold(0.0, f32::max);
        let mut block = if l.cells.len() > 1 {
            let cells =
                crate::ir::Cells::placed(l.cells.iter().map(|c| (c.text.as_str(), c.x0 - ox)));
            let mut b = Block::row_of(cells, *line_no);
            b.span = span;
            b
        } else {
            let text = l.cells.first().map(|c| c.text.as_str()).unwrap_or("");
            let bullet = text
                .chars()
                .next()
                .and_then(|c| BULLETS.iter().find(|(b, _)| *b == c));
            let mut b = match bullet {
                Some((ch, depth)) => {
                    let mut b =
                        Block::new(BlockKind::ListItem, text[ch.len_utf8()..].trim(), *line_no);
                    b.level = *depth;
                    b
                }
                None if size >= body * 1.25 => {
                    let mut b = Block::new(BlockKind::Heading, text, *line_no);
                    b.level = if size >= body * 2.5 {
                        1
                    } else if size >= body * 1.6 {
                        2
                    } else {
                        3
                    };
                    b
                }
                None => Block::new(BlockKind::Paragraph, text, *line_no),
            };
            b.span = span;
            b
        };
        block.blank_before = match prev {
            None => true,
            Some(p) => {
                let gap = p.0[1] - bbox.0[3];
                // A gap wider than half a line, or a jump up or right (another column).
                gap > 0.5 * size || gap < -size || bbox.0[0] > p.0[2]
            }
        };
        prev = Some(bbox);
        out.push(block);
    }
}

/// The text of one page as positioned glyphs, with the page's box (for tests and tools).
#[derive(Debug, Default)]
pub struct PageText {
    pub number: u32,
    /// `[x0, y0, x1, y1]` of the page (CropBox, else MediaBox), in default user space.
    pub bbox: [f32; 4],
    /// `/Rotate`, normalized to 0, 90, 180 or 270.
    pub rotate: u16,
    pub page: Page,
}

impl PageText {
    /// The page's size as records carry it.
    pub fn size(&self) -> PageSize {
        let [x0, y0, x1, y1] = self.bbox;
        PageSize {
            width: x1 - x0,
            height: y1 - y0,
            rotate: self.rotate,
        }
    }
}

/// The pages read, and what stopped the reading when a per-file budget was spent (`S020`).
#[derive(Debug, Default)]
pub struct Pages {
    pub pages: Vec<PageText>,
    pub budget_hit: Option<String>,
}

/// Reads every page's glyphs, within the file's work budget (`pdf_content::Budget`). `Err` is
/// the diagnostic message for a file lopdf cannot read.
pub fn read_pages(bytes: &[u8]) -> Result<Pages, String> {
    if let Some(depth) = too_deep(bytes) {
        return Err(format!(
            "objects nested deeper than {depth} levels; not parsed"
        ));
    }
    // lopdf decodes object and cross-reference streams while it loads: bounded the same way.
    let options = lopdf::LoadOptions {
        max_decompressed_size: Some(
            Budget::bytes_limit(bytes.len()).min(lopdf::DEFAULT_MAX_DECOMPRESSED_SIZE),
        ),
        ..Default::default()
    };
    let mut doc = match lopdf::Document::load_mem_with_options(bytes, options) {
        Ok(d) => d,
        Err(e) => return Err(format!("not a readable PDF ({e})")),
    };
    // Encrypted: read when the user password is empty (permissions only), else reported.
    if doc.trailer.get(b"Encrypt").is_ok() && !(doc.is_encrypted() && doc.decrypt("").is_ok()) {
        return Err("encrypted with a password; not read".to_string());
    }
    let mut cache = DocCache::for_file(bytes.len());
    let mut out = Vec::new();
    let pages: Vec<(u32, ObjectId)> = doc.get_pages().into_iter().collect();
    // Each stream ends with a line break, as if the page's streams were one.
    let newline: std::rc::Rc<[u8]> = std::rc::Rc::from(&b"\n"[..]);
    for (number, id) in pages {
        let Ok(page_dict) = doc.get_dictionary(id) else {
            continue;
        };
        cache.budget.page = number;
        let bbox = page_box(&doc, page_dict);
        let rotate = page_rotation(&doc, page_dict);
        let resources = inherited(&doc, page_dict, b"Resources");
        let mut contents = Vec::new();
        for cid in doc.get_page_contents(id) {
            if let Some(bytes) = cache.stream(&doc, &Object::Reference(cid)) {
                contents.push(bytes);
                contents.push(newline.clone());
            }
        }
        let page = pdf_content::run_page(
            &doc,
            contents,
            resources,
            [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
            &mut cache,
        );
        out.push(PageText {
            number,
            bbox,
            rotate,
            page,
        });
    }
    if out.is_empty() {
        // lopdf recovers what it can: a file cut short may load with no page left.
        return Err("no page found (truncated file or broken page tree)".to_string());
    }
    Ok(Pages {
        pages: out,
        budget_hit: cache.budget.hit,
    })
}

/// The first value `read` finds on the page dictionary or, inherited, on its ancestors in
/// the page tree (at most 32 levels up).
fn inherited_by<'d, T>(
    doc: &'d lopdf::Document,
    page: &'d Dictionary,
    read: impl Fn(&'d Dictionary) -> Option<T>,
) -> Option<T> {
    let mut d = page;
    for _ in 0..32 {
        if let Some(v) = read(d) {
            return Some(v);
        }
        d = pdf_font::get(doc, d, b"Parent").and_then(|o| pdf_font::dict(doc, o))?;
    }
    None
}

/// A dictionary entry of the page, inherited (`/Resources`).
fn inherited<'d>(
    doc: &'d lopdf::Document,
    page: &'d Dictionary,
    key: &[u8],
) -> Option<&'d Dictionary> {
    inherited_by(doc, page, |d| {
        pdf_font::get(doc, d, key).and_then(|o| pdf_font::dict(doc, o))
    })
}

/// The page's box: its CropBox, else its MediaBox (inherited), normalized to
/// `[x0, y0, x1, y1]` with `x0 < x1`, `y0 < y1`; US Letter when neither is readable.
fn page_box(doc: &lopdf::Document, page: &Dictionary) -> [f32; 4] {
    let read = |d: &Dictionary| {
        [&b"CropBox"[..], b"MediaBox"].into_iter().find_map(|key| {
            let Some(Object::Array(a)) = pdf_font::get(doc, d, key) else {
                return None;
            };
            let v: Vec<f32> = a
                .iter()
                .filter_map(|o| pdf_font::deref(doc, o).and_then(pdf_font::num))
                .collect();
            (v.len() == 4).then(|| {
                [
                    v[0].min(v[2]),
                    v[1].min(v[3]),
                    v[0].max(v[2]),
                    v[1].max(v[3]),
                ]
            })
        })
    };
    inherited_by(doc, page, read).unwrap_or([0.0, 0.0, 612.0, 792.0])
}

/// `/Rotate` (inherited): a multiple of 90 normalized to 0..360; anything else is 0.
fn page_rotation(doc: &lopdf::Document, page: &Dictionary) -> u16 {
    let r = inherited_by(doc, page, |d| {
        pdf_font::get(doc, d, b"Rotate").and_then(pdf_font::num)
    });
    match r.map(|r| r.round() as i64) {
        Some(r) if r % 90 == 0 => r.rem_euclid(360) as u16,
        _ => 0,
    }
}

/// The nesting limit when `[`/`<<` outside streams and strings nest deeper than it.
fn too_deep(b: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'<' if b.get(i + 1) == Some(&b'<') => {
                depth += 1;
                i += 1;
            }
            b'>' if b.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'(' => {
                // A literal string (balanced parentheses, escapes) nests nothing.
                i = pdf_content::literal_string(b, i).1;
                continue;
            }
            b's' if b[i..].starts_with(b"stream") => {
                // Skip stream data to `endstream`.
                match b[i..].windows(9).position(|w| w == b"endstream") {
                    Some(p) => i += p + 8,
                    None => return None,
                }
                depth = 0;
            }
            b'e' if b[i..].starts_with(b"endobj") => depth = 0,
            _ => {}
        }
        if depth > MAX_NESTING {
            return Some(MAX_NESTING);
        }
        i += 1;
    }
    None
}

/// A glyph after normalization: its text (empty for a space), whether a space precedes it.
#[derive(Debug, Clone)]
struct Ch {
    text: String,
    x0: f32,
    x1: f32,
    y: f32,
    size: f32,
    bold: bool,
    /// A dot leader (U+FFFD or a run of dots): a cell break, never text.
    leader: bool,
}

/// A run of glyphs on one baseline without a column gap: a table cell or a column's line.
#[derive(Debug, Clone)]
pub struct Segment {
    pub text: String,
    pub x0: f32,
    pub x1: f32,
    /// Baseline.
    pub y: f32,
    /// The largest glyph size.
    pub size: f32,
    /// Most glyphs bold.
    pub bold: bool,
}

impl Segment {
    fn top(&self) -> f32 {
        self.y + self.size * 0.75
    }
    fn bottom(&self) -> f32 {
        self.y - self.size * 0.25
    }
}

/// One line in reading order: its cells (one for running text), on one page.
#[derive(Debug, Clone)]
pub struct Line {
    pub cells: Vec<Segment>,
}

impl Line {
    pub fn bbox(&self) -> BBox {
        let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for s in &self.cells {
            b[0] = b[0].min(s.x0);
            b[1] = b[1].min(s.bottom());
            b[2] = b[2].max(s.x1);
            b[3] = b[3].max(s.top());
        }
        BBox(b)
    }
    pub fn text(&self) -> String {
        let parts: Vec<&str> = self.cells.iter().map(|c| c.text.as_str()).collect();
        parts.join(" | ")
    }
}

/// Text-layer characters that are not text: control characters (U+0007/U+0008 after
/// `KEYWORDS:` and bullets) read as a space, the non-breaking hyphen as a hyphen, ligatures
/// spelled out, soft hyphens dropped. `None` for a dot leader.
fn normalize_glyph(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{FFFD}' => return None,
            '\u{2011}' | '\u{2010}' => out.push('-'),
            '\u{AD}' => {}
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{A0}' | '\u{2002}'..='\u{200B}' => out.push(' '),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    Some(out)
}

/// Lays one page's glyphs out into lines in reading order.
pub fn layout(page: &Page) -> Vec<Line> {
    let mut chars: Vec<Ch> = Vec::with_capacity(page.glyphs.len());
    for g in page.glyphs.iter().filter(|g| g.upright && g.size > 0.5) {
        let bold = page.fonts.get(g.font as usize).is_some_and(|f| f.1);
        let (text, leader) = match normalize_glyph(&g.text) {
            Some(t) => (t, false),
            None => (String::new(), true),
        };
        chars.push(Ch {
            text,
            x0: g.x0,
            x1: g.x1,
            y: g.y,
            size: g.size,
            bold,
            leader,
        });
    }
    let rows = rows(chars);
    let mut units: Vec<Unit> = Vec::new();
    for row in rows {
        units.extend(table_units(segments_of(row)));
    }
    attach_wrapped_names(&mut units);
    reading_order(units)
}

/// A table row printed without its name cell (the name wrapped onto two lines, the values
/// centred between them) takes the text lines just left of it, within a line's height above
/// or below, as its first cell: `Plasma cannon – supercharge` + `[BLAST, HAZARDOUS, HEAVY]`.
fn attach_wrapped_names(units: &mut Vec<Unit>) {
    if units.len() > MAX_CUT_UNITS {
        return;
    }
    let orphan = |u: &Unit| {
        u.cells.len() >= 3 && u.cells.iter().all(|c| c.text.chars().count() <= SHORT_CELL)
    };
    let mut taken = vec![false; units.len()];
    let mut merges: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if !orphan(u) {
            continue;
        }
        let reach = 1.3 * u.size;
        // The nearest text column to the left: units ending left of the row, close in y.
        let mut near: Vec<usize> = (0..units.len())
            .filter(|&j| {
                let l = &units[j];
                j != i
                    && !taken[j]
                    && l.cells.len() == 1
                    && l.x1 <= u.x0
                    && (l.y - u.y).abs() <= reach
            })
            .collect();
        let Some(right_edge) = near.iter().map(|&j| units[j].x0).reduce(f32::max) else {
            continue;
        };
        // Only the column nearest the row (the name column), not text further left.
        near.retain(|&j| (units[j].x0 - right_edge).abs() < 2.0 * u.size);
        near.sort_by(|&a, &b| units[b].y.total_cmp(&units[a].y));
        for &j in &near {
            taken[j] = true;
        }
        merges.push((i, near));
    }
    for (i, names) in &merges {
        let text: Vec<String> = names
            .iter()
            .map(|&j| units[j].cells[0].text.clone())
            .collect();
        let Some(first) = names.first().map(|&j| units[j].cells[0].clone()) else {
            continue;
        };
        let mut name = first;
        name.text = text.join(" ");
        for &j in names {
            let c = &units[j].cells[0];
            name.x0 = name.x0.min(c.x0);
            name.x1 = name.x1.max(c.x1);
        }
        name.y = units[*i].y;
        let mut cells = vec![name];
        cells.extend(units[*i].cells.iter().cloned());
        units[*i] = Unit::new(cells);
    }
    let mut k = 0;
    units.retain(|_| {
        k += 1;
        !taken[k - 1]
    });
}

/// What the XY cut moves as one box: a segment, or the cells of one table row.
#[derive(Debug, Clone)]
struct Unit {
    cells: Vec<Segment>,
    x0: f32,
    x1: f32,
    y: f32,
    size: f32,
    chars: usize,
}

impl Unit {
    fn new(cells: Vec<Segment>) -> Unit {
        let x0 = cells.iter().map(|c| c.x0).fold(f32::MAX, f32::min);
        let x1 = cells.iter().map(|c| c.x1).fold(f32::MIN, f32::max);
        let size = cells.iter().map(|c| c.size).fold(0.0, f32::max);
        let y = cells.first().map_or(0.0, |c| c.y);
        let chars = cells.iter().map(|c| c.text.chars().count()).sum();
        Unit {
            cells,
            x0,
            x1,
            y,
            size,
            chars,
        }
    }
    fn top(&self) -> f32 {
        self.y + self.size * 0.75
    }
    fn bottom(&self) -> f32 {
        self.y - self.size * 0.25
    }
}

/// Most characters a table value cell has (`12"`, `D6+1`, `Melee`, `RANGE`).
const SHORT_CELL: usize = 6;

/// One row's segments as units: a run of three or more short cells, with the cell just left
/// of it (the row's name), is one table row; every other segment is its own unit.
fn table_units(segs: Vec<Segment>) -> Vec<Unit> {
    let short = |s: &Segment| s.text.chars().count() <= SHORT_CELL;
    let mut out = Vec::new();
    let mut i = 0;
    while i < segs.len() {
        let run = segs[i..].iter().take_while(|s| short(s)).count();
        if run >= 3 {
            let mut cells: Vec<Segment> = Vec::new();
            // The name cell before the run, unless it was already taken.
            if i > 0 {
                if let Some(prev) = out.pop() {
                    let Unit { cells: c, .. } = prev;
                    cells.extend(c);
                }
            }
            cells.extend(segs[i..i + run].iter().cloned());
            out.push(Unit::new(cells));
            i += run;
        } else {
            out.push(Unit::new(vec![segs[i].clone()]));
            i += 1;
        }
    }
    out
}

/// Groups glyphs into rows by baseline (top to bottom), each row sorted by x.
fn rows(mut chars: Vec<Ch>) -> Vec<Vec<Ch>> {
    chars.sort_by(|a, b| b.y.total_cmp(&a.y).then(a.x0.total_cmp(&b.x0)));
    let mut rows: Vec<Vec<Ch>> = Vec::new();
    let mut row_y = f32::NAN;
    let mut row_size = 0.0f32;
    for c in chars {
        let tol = 0.3 * row_size.min(c.size).max(1.0);
        if rows.is_empty() || (row_y - c.y).abs() > tol {
            row_y = c.y;
            row_size = c.size;
            rows.push(Vec::new());
        }
        if let Some(r) = rows.last_mut() {
            r.push(c);
        }
    }
    for r in &mut rows {
        r.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    rows
}

/// Splits a row into segments at column gaps and leaders; words at smaller gaps and spaces.
fn segments_of(row: Vec<Ch>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut cur: Option<(Segment, usize, usize)> = None; // segment, glyphs, bold glyphs
    let mut last_x1 = f32::MIN;
    let mut space = false;
    let mut last_text_x0 = f32::MIN;
    for c in row {
        if c.leader {
            if let Some(s) = cur.take() {
                out.push(finish(s));
            }
            space = false;
            continue;
        }
        if c.text.trim().is_empty() {
            // A space marks a word break, unless it lies within the glyph before it (drawn,
            // then overprinted by moving back: `* ` `T` over a second space, `This`); it
            // moves the column-gap reference only when it follows the text closely (a space
            // drawn at the next column's edge does not).
            if c.x1 <= last_x1 + 0.01 * c.size {
                continue;
            }
            space = true;
            if c.x0 - last_x1 <= (0.8 * c.size).max(5.0) {
                last_x1 = last_x1.max(c.x1);
            }
            continue;
        }
        // The same glyph drawn twice at (nearly) the same place (fake bold, shadows).
        if (c.x0 - last_text_x0).abs() < 0.05 * c.size {
            if let Some((s, _, _)) = &cur {
                if s.text.ends_with(c.text.as_str()) {
                    continue;
                }
            }
        }
        let gap = c.x0 - last_x1;
        let column_gap = gap > (0.8 * c.size).max(5.0);
        if column_gap {
            if let Some(s) = cur.take() {
                out.push(finish(s));
            }
        }
        match cur.as_mut() {
            Some((s, n, b)) => {
                if space || gap > 0.18 * c.size {
                    s.text.push(' ');
                }
                s.text.push_str(&c.text);
                s.x1 = s.x1.max(c.x1);
                s.size = s.size.max(c.size);
                *n += 1;
                *b += c.bold as usize;
            }
            None => {
                cur = Some((
                    Segment {
                        text: c.text.clone(),
                        x0: c.x0,
                        x1: c.x1,
                        y: c.y,
                        size: c.size,
                        bold: c.bold,
                    },
                    1,
                    c.bold as usize,
                ));
            }
        }
        space = false;
        last_x1 = c.x1;
        last_text_x0 = c.x0;
    }
    if let Some(s) = cur.take() {
        out.push(finish(s));
    }
    out.into_iter().flat_map(split_leader).collect()
}

/// A segment with a dot leader (`Detachments ......... 2`, four or more dots) is two cells;
/// the dots are dropped.
fn split_leader(s: Segment) -> Vec<Segment> {
    let Some(start) = s.text.find("....") else {
        return vec![s];
    };
    let end = s.text[start..]
        .find(|c: char| c != '.' && c != ' ')
        .map_or(s.text.len(), |e| start + e);
    let (left, right) = (s.text[..start].trim(), s.text[end..].trim());
    let n = s.text.chars().count().max(1) as f32;
    let at = |i: usize| s.x0 + (s.x1 - s.x0) * s.text[..i].chars().count() as f32 / n;
    let mut out = Vec::new();
    if !left.is_empty() {
        out.push(Segment {
            text: left.to_string(),
            x1: at(start),
            ..s.clone()
        });
    }
    if !right.is_empty() {
        out.push(Segment {
            text: right.to_string(),
            x0: at(end),
            ..s.clone()
        });
    }
    out
}

fn finish((mut s, n, bold): (Segment, usize, usize)) -> Segment {
    s.bold = bold * 2 > n;
    s.text = unspace_letters(s.text.trim());
    s
}

/// `W A R H A M M E R` → `WARHAMMER`: a run of three or more single letters separated by
/// single spaces is a letter-spaced word (words of a letter-spaced line are split by wider
/// gaps, which the segment keeps as two spaces).
fn unspace_letters(s: &str) -> String {
    let tokens: Vec<&str> = s.split_whitespace().collect();
    let single = |t: &str| t.chars().count() == 1 && t.chars().all(char::is_uppercase);
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < tokens.len() {
        let run = tokens[i..].iter().take_while(|t| single(t)).count();
        if !out.is_empty() {
            out.push(' ');
        }
        if run >= 3 {
            out.extend(tokens[i..i + run].iter().copied());
            i += run;
        } else {
            out.push_str(tokens[i]);
            i += 1;
        }
    }
    out
}

/// Most units on a page laid out by the XY cut (and searched for wrapped weapon names).
const MAX_CUT_UNITS: usize = 5000;

/// Narrowest vertical gap (points) that can separate columns.
const MIN_COLUMN_GAP: f32 = 4.0;

/// Whether a side of a vertical cut reads as text (a column) rather than a table's value
/// columns: at least 40% of its characters are in units of eight or more characters.
fn texty(units: &[&Unit]) -> bool {
    let total: usize = units.iter().map(|s| s.chars).sum();
    let long: usize = units.iter().map(|s| s.chars).filter(|&n| n >= 8).sum();
    total > 0 && long * 10 >= total * 4
}

/// Reading order by a recursive XY cut, run on an explicit stack: a region is cut at its
/// widest gap, horizontal (between rows) or vertical (between columns, only where both sides
/// read as text, so a table's value columns stay with their rows); a region with no gap left
/// is read row by row, each row's segments its cells.
fn reading_order(segments: Vec<Unit>) -> Vec<Line> {
    let mut lines = Vec::new();
    // Regions to read, last = next; each is a list of segment indices.
    let mut stack: Vec<Vec<usize>> = vec![(0..segments.len()).collect()];
    // The cut is quadratic in the worst case: a page of more units than any real page
    // (a few hundred) is read row by row instead.
    let cut = segments.len() <= MAX_CUT_UNITS;
    while let Some(region) = stack.pop() {
        if region.is_empty() {
            continue;
        }
        match best_cut(&segments, &region).filter(|_| cut) {
            Some(Cut::Horizontal(y)) => {
                let (above, below): (Vec<usize>, Vec<usize>) =
                    region.iter().partition(|&&i| segments[i].bottom() >= y);
                stack.push(below);
                stack.push(above);
            }
            Some(Cut::Vertical(x)) => {
                let (left, right): (Vec<usize>, Vec<usize>) =
                    region.iter().partition(|&&i| segments[i].x1 <= x);
                stack.push(right);
                stack.push(left);
            }
            None => {
                let mut segs: Vec<&Unit> = region.iter().map(|&i| &segments[i]).collect();
                segs.sort_by(|a, b| b.y.total_cmp(&a.y).then(a.x0.total_cmp(&b.x0)));
                let mut row: Vec<Segment> = Vec::new();
                for s in segs {
                    let same = row
                        .first()
                        .is_some_and(|f| (f.y - s.y).abs() <= 0.3 * f.size.min(s.size));
                    if !same && !row.is_empty() {
                        lines.push(Line {
                            cells: std::mem::take(&mut row),
                        });
                    }
                    row.extend(s.cells.iter().cloned());
                }
                if !row.is_empty() {
                    row.sort_by(|a, b| a.x0.total_cmp(&b.x0));
                    lines.push(Line { cells: row });
                }
            }
        }
    }
    for l in &mut lines {
        l.cells.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    lines
}

enum Cut {
    /// Cut at this y: segments whose bottom is above go first.
    Horizontal(f32),
    /// Cut at this x: segments ending left of it go first.
    Vertical(f32),
}

/// The widest gap of a region (horizontal or an accepted vertical one).
fn best_cut(segments: &[Unit], region: &[usize]) -> Option<Cut> {
    if region.len() < 2 {
        return None;
    }
    let mut best: Option<(f32, Cut)> = None;
    // Horizontal gaps: sort by top, sweep the lowest bottom so far.
    let mut by_top: Vec<&Unit> = region.iter().map(|&i| &segments[i]).collect();
    by_top.sort_by(|a, b| b.top().total_cmp(&a.top()));
    let mut low = f32::MAX;
    for (w, s) in by_top.iter().enumerate() {
        if w > 0 && s.top() < low {
            let gap = low - s.top();
            if best.as_ref().map_or(true, |(g, _)| gap > *g) {
                best = Some((gap, Cut::Horizontal((low + s.top()) / 2.0)));
            }
        }
        low = low.min(s.bottom());
    }
    // Vertical gaps.
    let mut by_left: Vec<&Unit> = region.iter().map(|&i| &segments[i]).collect();
    by_left.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    let mut right = f32::MIN;
    for w in 0..by_left.len() {
        let s = by_left[w];
        if w > 0 && s.x0 - right >= MIN_COLUMN_GAP {
            let gap = s.x0 - right;
            let x = (right + s.x0) / 2.0;
            if best.as_ref().map_or(true, |(g, _)| gap > *g)
                && texty(&by_left[..w])
                && texty(&by_left[w..])
            {
                best = Some((gap, Cut::Vertical(x)));
            }
        }
        right = right.max(s.x1);
    }
    best.map(|(_, c)| c)
}
