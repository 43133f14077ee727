//! Games Workshop's errata documents (the Index Card Errata of 10th edition), read from the
//! blocks of the PDF decoder into [`Erratum`] records (`errata.json`).
//!
//! Layout: an A4 page in two columns; faction headings in capitals; an entry is a header line
//! `TARGET – SECTION[, qualifier…]` (en dash; several targets separated by commas; the header
//! may wrap) and then its instruction (`Change to ‘…’.`, `Add ‘PSYKER’.`, `Change AP to ‘-2’.`,
//! `Change to:` with a quoted block, `Add close combat weapon profile:` with a mini-table).
//! Entries, quoted blocks and tables run on across columns and pages. The decoder's reading
//! order interleaves the columns where a row of one column shares a baseline with a row of the
//! other (it may even join them into one table row), so the reader puts the lines back in
//! column order first ([`lines`]), by their boxes: page, then left column top to bottom, then
//! the right one; a row that straddles the gutter is split there (its first cell is the left
//! column's).
//!
//! Owns the entry shape and the classification of an instruction into a mechanical
//! [`ErratumOp`] (`op`); never applies an erratum (that is `errata`), never guesses:
//! an instruction that is not one of the mechanical shapes keeps `op: None` (`E002`), an entry
//! without instruction keeps `instruction: None` (`E001`). Recognising that a PDF is an errata
//! document is [`looks_like`] (small and public: the document-kind classifier calls it).

mod op;

use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::ids;
use crate::ir::{Block, BlockKind, Document};
use crate::model::{Edition, Erratum, ErratumTarget, Publication};
use crate::source::{BBox, Provenance};
use crate::vocab::{Heading, TENTH as V};

/// The verbs an instruction starts with (the vocabulary's, as the document-kind cue reads them).
const VERBS: &[&str] = V.documents.errata_verbs;

/// The dash between an entry's target and its section.
const TARGET_DASH: &str = V.documents.errata_target_dash;

/// What a section ends with when it names a card box (`Keywords section`).
const SECTION_WORD: &str = " section";

/// The target suffix of a card of the faction's rules (`Army Rule Card`, `Stratagems Card`).
const CARD_WORD: &str = "Card";

/// Reads every entry of the errata document `doc` into `out.errata`, with `E001`/`E002`.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let edition = out.edition.unwrap_or(Edition::Tenth);
    let lines = lines(doc);
    let publication = publication(&lines);
    let raw = entries(&lines);
    out.account.in_records = raw.iter().map(|e| e.lines.len()).sum();
    out.account.chrome = doc.blocks.len().saturating_sub(out.account.in_records);
    for (n, e) in raw.iter().enumerate() {
        let erratum = erratum(doc, edition, &publication, n + 1, e);
        report(doc, &erratum, &mut out.diagnostics);
        out.errata.push(erratum);
    }
}

/// One laid-out line in column order: its text, cells (a table row's), page, column and box.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub text: String,
    pub cells: Vec<String>,
    pub kind: BlockKind,
    pub page: u32,
    /// 0: spans both columns (a title), 1: left, 2: right.
    pub column: u8,
    pub bbox: BBox,
    pub block: usize,
}

impl Line {
    fn top(&self) -> f32 {
        self.bbox.0[3]
    }
    fn bottom(&self) -> f32 {
        self.bbox.0[1]
    }
    fn height(&self) -> f32 {
        (self.top() - self.bottom()).max(1.0)
    }
    fn is_row(&self) -> bool {
        self.kind == BlockKind::TableRow
    }
}

/// The document's lines in column order, page furniture (a footer in the bottom margin) left
/// out; a row straddling the gutter split into its left and right parts.
pub(crate) fn lines(doc: &Document) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, b) in doc.blocks.iter().enumerate() {
        let (Some(page), Some(bbox)) = (b.span.page, b.span.bbox) else {
            continue;
        };
        let (width, height) = b
            .span
            .page_size
            .map_or((595.0, 842.0), |s| (s.width, s.height));
        if bbox.0[3] < height * 0.06 {
            continue; // the footer band: `Index Cards  3`
        }
        split_at_gutter(b, i, page, bbox, width / 2.0, &mut out);
    }
    out.sort_by(|a, b| {
        (a.page, a.column)
            .cmp(&(b.page, b.column))
            .then(b.top().total_cmp(&a.top()))
    });
    out
}

fn split_at_gutter(b: &Block, i: usize, page: u32, bbox: BBox, mid: f32, out: &mut Vec<Line>) {
    let [x0, y0, x1, y1] = bbox.0;
    let line = |text: String, cells: Vec<String>, kind, column, bbox| Line {
        text,
        cells,
        kind,
        page,
        column,
        bbox,
        block: i,
    };
    let straddles = x0 < mid - 8.0 && x1 > mid + 8.0;
    if !straddles {
        let column = if x0 < mid { 1 } else { 2 };
        let cells: Vec<String> = b.cells.iter().map(str::to_string).collect();
        out.push(line(b.text.clone(), cells, b.kind, column, bbox));
        return;
    }
    if b.kind != BlockKind::TableRow || b.cells.len() < 2 {
        out.push(line(b.text.clone(), Vec::new(), b.kind, 0, bbox));
        return;
    }
    let first = b.cells.first().unwrap_or_default().to_string();
    let rest: Vec<String> = b.cells.iter().skip(1).map(str::to_string).collect();
    let left_kind = BlockKind::Paragraph;
    out.push(line(
        first,
        Vec::new(),
        left_kind,
        1,
        BBox([x0, y0, mid, y1]),
    ));
    let text = rest.join(" | ");
    let (kind, rest) = match rest.len() {
        1 => (BlockKind::Paragraph, Vec::new()),
        _ => (BlockKind::TableRow, rest),
    };
    out.push(line(text, rest, kind, 2, BBox([mid, y0, x1, y1])));
}

/// The title (the first heading) and version (`VERSION 1.2`) the document prints.
fn publication(lines: &[Line]) -> Publication {
    let title = lines
        .iter()
        .find(|l| l.kind == BlockKind::Heading && !is_version(&l.text))
        .map(|l| title_case(&l.text));
    let version = lines.iter().find_map(|l| version_of(&l.text));
    Publication {
        title,
        version,
        date: None,
    }
}

fn is_version(t: &str) -> bool {
    version_of(t).is_some()
}

/// `VERSION 1.2` → `1.2`.
fn version_of(t: &str) -> Option<String> {
    let (word, number) = t.trim().split_once(' ')?;
    let ok = word.eq_ignore_ascii_case(V.documents.version_word)
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit() || c == '.');
    ok.then(|| number.to_string())
}

/// `INDEX CARDS` → `Index Cards` (a heading printed in capitals; the words as a reader says
/// them); a heading with a lower-case letter is kept as printed.
fn title_case(t: &str) -> String {
    if t.chars().any(char::is_lowercase) {
        return t.to_string();
    }
    crate::text::words::TitleStyle::EVERY_WORD.apply(t)
}

pub(crate) fn starts_with_verb(t: &str) -> bool {
    let first = t.split_whitespace().next().unwrap_or("");
    VERBS.contains(&first)
}

/// Opening quotes minus closing ones (a `’` followed by a letter is an apostrophe).
fn quote_depth(t: &str) -> i32 {
    let mut depth = 0;
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '‘' => depth += 1,
            '’' if !chars.peek().is_some_and(|n| n.is_alphabetic()) => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// A line of capitals alone: a faction heading (`ADEPTA SORORITAS`) or the document's.
fn is_heading(l: &Line) -> bool {
    let t = l.text.trim();
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    !l.is_row()
        && letters >= 3
        && !t.starts_with('‘')
        && !t.chars().any(|c| c.is_lowercase())
        && !t.contains(TARGET_DASH)
}

/// One entry as printed: its faction heading, header and instruction lines.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawEntry {
    pub faction: Option<String>,
    pub header: String,
    /// Each instruction's lines (an entry may hold two).
    pub instructions: Vec<Vec<Line>>,
    pub lines: Vec<Line>,
}

impl RawEntry {
    fn text_line(&mut self, l: &Line) {
        if let Some(last) = self.instructions.last_mut() {
            last.push(l.clone());
        }
        self.lines.push(l.clone());
    }
}

/// Where the reading is: between entries, in a header, in an instruction.
#[derive(Default)]
struct Reader {
    entries: Vec<RawEntry>,
    faction: Option<String>,
    depth: i32,
    prev: Option<(u32, u8, f32)>,
    /// The last line was a heading: the next one starts an entry.
    after_heading: bool,
    /// The last line ended a sentence (`.`, `’`): a header may follow without a gap where the
    /// decoder joined the line to a taller row of the other column (its box hides the gap).
    ended_sentence: bool,
}

/// The entries of the document, in reading order.
pub(crate) fn entries(lines: &[Line]) -> Vec<RawEntry> {
    let mut r = Reader::default();
    for l in lines {
        let t = l.text.trim();
        let after_sentence = r.ended_sentence && r.depth == 0 && !r.in_header();
        let new_para = r.starts_paragraph(l)
            || r.after_heading
            || (after_sentence && !l.is_row() && looks_like_header(t));
        r.prev = Some((l.page, l.column, l.bottom()));
        r.after_heading = false;
        r.line(l, new_para);
        r.ended_sentence = t.ends_with(['.', '’']);
    }
    r.entries.retain(|e| e.header.contains(TARGET_DASH));
    r.entries
}

impl Reader {
    /// A gap above the line larger than most of a line, a new column or page.
    fn starts_paragraph(&self, l: &Line) -> bool {
        match self.prev {
            Some((page, column, bottom)) if page == l.page && column == l.column => {
                bottom - l.top() > 0.8 * l.height().min(10.0)
            }
            _ => true,
        }
    }

    fn current(&mut self) -> Option<&mut RawEntry> {
        self.entries.last_mut()
    }

    fn in_header(&self) -> bool {
        self.entries
            .last()
            .is_some_and(|e| e.instructions.is_empty())
    }

    fn line(&mut self, l: &Line, new_para: bool) {
        let t = l.text.trim();
        if self.depth > 0 && new_para && looks_like_header(t) {
            self.depth = 0; // a quote left open by a misprint ends at the next entry
        }
        let bullet = l.kind == BlockKind::ListItem || t.starts_with('■');
        if self.depth > 0 || l.is_row() || t.starts_with('‘') || bullet {
            self.continuation(l);
            return;
        }
        if l.column == 0 || (is_heading(l) && (new_para || l.kind == BlockKind::Heading)) {
            self.heading(l);
            return;
        }
        let (faction, rest) = leading_heading(t);
        if let Some(f) = faction {
            self.faction = Some(f.to_string());
            self.entries.push(self.fresh(rest, l));
            self.split_instruction();
            return;
        }
        if starts_with_verb(t) && !self.entries.is_empty() {
            self.instruction(l);
        } else if self.in_header() && !new_para {
            self.header_line(l);
        } else if new_para || self.entries.is_empty() {
            self.entries.push(self.fresh(t, l));
            self.split_instruction();
        } else {
            self.continuation(l);
        }
    }

    fn heading(&mut self, l: &Line) {
        if l.column != 0 && !is_version(&l.text) {
            self.faction = Some(l.text.trim().to_string());
        }
        self.depth = 0;
        self.after_heading = true;
    }

    fn fresh(&self, header: &str, l: &Line) -> RawEntry {
        RawEntry {
            faction: self.faction.clone(),
            header: header.to_string(),
            instructions: Vec::new(),
            lines: vec![l.clone()],
        }
    }

    fn header_line(&mut self, l: &Line) {
        if let Some(e) = self.current() {
            e.header.push(' ');
            e.header.push_str(l.text.trim());
            e.lines.push(l.clone());
        }
        self.split_instruction();
    }

    /// A header line that goes on with the instruction (`Gorkanaut – Transport section Add
    /// additional sentence to read:`, where the decoder joined two lines of a column into one
    /// cell): the instruction starts at the first verb after the target dash.
    fn split_instruction(&mut self) {
        let Some(e) = self.entries.last_mut() else {
            return;
        };
        let Some(dash) = e.header.find(TARGET_DASH) else {
            return;
        };
        let after = dash + TARGET_DASH.len();
        let cut = VERBS
            .iter()
            .filter_map(|v| e.header[after..].find(&format!(" {v} ")))
            .min();
        if let Some(at) = cut {
            let instruction = e.header[after + at + 1..].to_string();
            e.header.truncate(after + at);
            let mut l = e.lines.last().cloned().unwrap_or_else(empty_line);
            l.text = instruction.clone();
            e.instructions.push(vec![l]);
            self.depth = quote_depth(&instruction).max(0);
        }
    }

    fn instruction(&mut self, l: &Line) {
        if let Some(e) = self.current() {
            e.instructions.push(vec![l.clone()]);
            e.lines.push(l.clone());
        }
        self.depth = quote_depth(&l.text).max(0);
    }

    fn continuation(&mut self, l: &Line) {
        if self.in_header() {
            // A quoted block or table before any instruction: the header's own (never seen).
            if let Some(e) = self.current() {
                e.instructions.push(Vec::new());
            }
        }
        if let Some(e) = self.current() {
            e.text_line(l);
        }
        self.depth = (self.depth + quote_depth(&l.text)).max(0);
    }
}

/// A line that may start an entry: the target dash, not a bullet or quote.
fn looks_like_header(t: &str) -> bool {
    t.contains(TARGET_DASH)
        && !starts_with_verb(t)
        && t.chars().next().is_some_and(|c| c.is_uppercase())
}

fn empty_line() -> Line {
    Line {
        text: String::new(),
        cells: Vec::new(),
        kind: BlockKind::Paragraph,
        page: 0,
        column: 1,
        bbox: BBox([0.0; 4]),
        block: 0,
    }
}

/// A faction heading the decoder joined to the header after it (`BLOOD ANGELS Death Company
/// Intercessors – …`): the leading words in capitals, and the rest.
fn leading_heading(t: &str) -> (Option<&str>, &str) {
    let mut end = 0;
    for w in t.split(' ') {
        let letters: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
        if letters.len() < 2 || letters.iter().any(|c| c.is_lowercase()) {
            break;
        }
        end += w.len() + 1;
    }
    if end == 0 || end >= t.len() || !t[end..].contains(TARGET_DASH) {
        return (None, t);
    }
    (Some(t[..end].trim()), &t[end..])
}

/// The record of one entry.
fn erratum(
    doc: &Document,
    edition: Edition,
    publication: &Publication,
    n: usize,
    e: &RawEntry,
) -> Erratum {
    let header = Header::parse(&e.header);
    let instruction = instruction_text(e);
    let op = op::classify(&header, e);
    let faction = e
        .faction
        .as_deref()
        .map(|f| V.faction_named(f).unwrap_or(f));
    let targets = match header.kind {
        ErratumTarget::Datasheet => header
            .names
            .iter()
            .map(|n| ids::datasheet(edition, faction, n))
            .collect(),
        _ => Vec::new(),
    };
    Erratum {
        // The title with the version: two errata documents of one version (one per faction)
        // must not share ids.
        id: ids::erratum(
            edition,
            &[publication.title.as_deref(), Some(publication.key())]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" "),
            n,
        ),
        edition,
        target_printed: header.target_printed.clone(),
        targets,
        target_kind: header.kind,
        faction: e.faction.clone(),
        section: header.section.clone(),
        qualifier: header.qualifier.clone(),
        instruction,
        op,
        publication: publication.clone(),
        sources: vec![provenance(doc, e)],
        applied_to: Vec::new(),
    }
}

/// Where the entry is printed: its first line, and the box of its lines on that page.
fn provenance(doc: &Document, e: &RawEntry) -> Provenance {
    let first = e.lines.first();
    let block = first.and_then(|l| doc.blocks.get(l.block));
    let span = block.map(|b| b.span).unwrap_or_default();
    let page = first.map(|l| (l.page, l.column));
    let bbox = e
        .lines
        .iter()
        .filter(|l| Some((l.page, l.column)) == page)
        .map(|l| l.bbox)
        .reduce(BBox::union);
    Provenance {
        bbox: bbox.or(span.bbox),
        ..Provenance::at(doc.file.clone(), span, doc.sha256.clone())
    }
}

/// The instructions as printed: wrapped lines joined by a space, a table row, a bullet or a
/// new instruction on a line of its own.
fn instruction_text(e: &RawEntry) -> Option<String> {
    let mut out = String::new();
    for (i, ins) in e.instructions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (j, l) in ins.iter().enumerate() {
            let t = l.text.trim();
            if j > 0 {
                let own_line = l.is_row() || l.kind == BlockKind::ListItem || t.starts_with('■');
                out.push(if own_line || ins[j - 1].is_row() {
                    '\n'
                } else {
                    ' '
                });
            }
            if l.kind == BlockKind::ListItem {
                out.push_str("■ ");
            }
            out.push_str(t);
        }
    }
    let out = out.trim().to_string();
    (!out.is_empty()).then_some(out)
}

/// An entry's header: `TARGET[, TARGET…] – SECTION[, qualifier…]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Header {
    pub target_printed: String,
    /// The targets' names (a stratagem's without the word `Stratagem`).
    pub names: Vec<String>,
    pub kind: ErratumTarget,
    pub section: String,
    pub qualifier: Option<String>,
}

impl Header {
    pub(crate) fn parse(h: &str) -> Header {
        let h = h.split_whitespace().collect::<Vec<_>>().join(" ");
        let (target, rest) = h.split_once(TARGET_DASH).unwrap_or((h.as_str(), ""));
        let (section, qualifier) = split_first_comma(rest);
        let mut header = Header {
            target_printed: target.trim().to_string(),
            names: target.split(", ").map(|n| n.trim().to_string()).collect(),
            kind: ErratumTarget::Datasheet,
            section,
            qualifier,
        };
        header.kind_from_words();
        header
    }

    /// `Draught of Terror Stratagem`, `Cabal of Sorcerers Army Rule`, `Stratagems Card –
    /// Phantasm Stratagem, Target section`, `Army Rule Card – Strands of Fate`.
    fn kind_from_words(&mut self) {
        let target = self.target_printed.clone();
        if let Some(name) = strip_word(&target, Heading::StratagemType) {
            self.kind = ErratumTarget::Stratagem;
            self.names = vec![name];
        } else if let Some(name) = strip_word(&target, Heading::ArmyRule) {
            self.kind = ErratumTarget::Rule;
            self.names = vec![name];
        } else if target.ends_with(CARD_WORD) {
            let section = self.section.clone();
            let (kind, name) = match strip_word(&section, Heading::StratagemType) {
                Some(name) => (ErratumTarget::Stratagem, name),
                None => (ErratumTarget::Rule, section.clone()),
            };
            self.kind = kind;
            self.names = vec![name];
            self.target_printed = format!("{target}{TARGET_DASH}{section}");
            self.section = String::new();
            if let Some(q) = self.qualifier.take() {
                let (s, q) = split_first_comma(&q);
                self.section = s;
                self.qualifier = q;
            }
        }
    }

    /// The section without ` section` (`Keywords section` → `Keywords`).
    pub(crate) fn section_name(&self) -> &str {
        self.section
            .strip_suffix(SECTION_WORD)
            .unwrap_or(&self.section)
    }
}

/// `Draught of Terror Stratagem` → `Draught of Terror` when the last words are heading `h`.
fn strip_word(t: &str, h: Heading) -> Option<String> {
    let word = V.heading(h);
    let cut = t.len().checked_sub(word.len())?;
    let (name, tail) = (t.get(..cut)?, t.get(cut..)?);
    (tail.eq_ignore_ascii_case(word) && name.ends_with(' ')).then(|| name.trim().to_string())
}

fn split_first_comma(t: &str) -> (String, Option<String>) {
    match t.split_once(", ") {
        Some((a, b)) => (a.trim().to_string(), Some(b.trim().to_string())),
        None => (t.trim().to_string(), None),
    }
}

/// `E001` for an entry without instruction, `E002` for an instruction that is not mechanical.
fn report(doc: &Document, e: &Erratum, out: &mut Vec<Diagnostic>) {
    let at = |d: Diagnostic| match e.sources.first() {
        Some(p) => d.at(&doc.file, p.line),
        None => d.in_file(&doc.file),
    };
    let header = format!("{} – {}", e.target_printed, e.section);
    match (&e.instruction, &e.op) {
        (None, _) => out.push(at(Diagnostic::new(
            Code::ErratumWithoutInstruction,
            format!("erratum '{header}' has no instruction"),
        ))),
        (Some(i), None) => {
            let first = i.lines().next().unwrap_or("");
            out.push(at(Diagnostic::new(
                Code::ErratumNotMechanical,
                format!("erratum '{header}' is not mechanical ('{first}'); reported, not applied"),
            )))
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_kinds() {
        let h = Header::parse("Draught of Terror Stratagem – When and Target sections");
        assert_eq!(h.kind, ErratumTarget::Stratagem);
        assert_eq!(h.names, vec!["Draught of Terror"]);
        let h = Header::parse("Stratagems Card – Phantasm Stratagem, Target section");
        assert_eq!(h.kind, ErratumTarget::Stratagem);
        assert_eq!(h.names, vec!["Phantasm"]);
        assert_eq!(h.section, "Target section");
        let h = Header::parse("Cabal of Sorcerers Army Rule – Temporal Surge");
        assert_eq!(h.kind, ErratumTarget::Rule);
        let h = Header::parse("Gargoyles, Hormagaunts, Termagants – Keywords section");
        assert_eq!(h.names.len(), 3);
        assert_eq!(h.section_name(), "Keywords");
        let h = Header::parse("Autarch – Ranged Weapons, Reaper launcher – starswarm");
        assert_eq!(h.section, "Ranged Weapons");
        assert_eq!(h.qualifier.as_deref(), Some("Reaper launcher – starswarm"));
    }

    #[test]
    fn quotes_and_apostrophes() {
        assert_eq!(quote_depth("‘■ The Cultist Champion’s autopistol"), 1);
        assert_eq!(quote_depth("Add ‘and 1 close combat weapon’ to the end"), 0);
        assert_eq!(quote_depth("launcher and 1 close combat weapon.’"), -1);
    }

    #[test]
    fn heading_joined_to_header() {
        let (f, rest) = leading_heading("BLOOD ANGELS Death Company Intercessors – Ranged");
        assert_eq!(f, Some("BLOOD ANGELS"));
        assert_eq!(rest, "Death Company Intercessors – Ranged");
        assert_eq!(leading_heading("Be’lakor – Keywords").0, None);
    }

    #[test]
    fn version_and_title() {
        assert_eq!(version_of("VERSION 1.2").as_deref(), Some("1.2"));
        assert_eq!(version_of("Version 1.0").as_deref(), Some("1.0"));
        assert_eq!(version_of("Version one"), None);
        assert_eq!(title_case("INDEX CARDS"), "Index Cards");
    }
}
