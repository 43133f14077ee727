//! Decoder for Markdown documents (CommonMark + tables), on `pulldown-cmark`'s event stream.
//!
//! Headings become `Heading` blocks (level 1–6); paragraphs become `Paragraph` blocks, one per
//! source line (a soft or hard line break starts a new block, as the converted rules documents
//! break their lines where the printed page did: `WHEN:`, `Q:`/`A:`), the first line of a
//! Markdown paragraph with `blank_before`; list items become `ListItem` blocks with their depth
//! as `level` (the text before a nested list is the item's own block); table header and body
//! rows become `TableRow` blocks with their cells; fenced and indented code is read line by line
//! as paragraphs. Emphasis markers are dropped from the text; a block whose whole text is strong
//! emphasis (`**Deep Strike**`) carries [`ClassHint::Strong`]. Raw HTML is dropped and counted
//! in `chrome_dropped`; thematic breaks (`---`) and images make no block.
//!
//! Lines are 1-based, from the byte offset of each block's first text (`into_offset_iter`).
//! The parser is event-based: nesting (lists in quotes in lists…) is tracked with counters, never
//! by recursion in this module, so input depth costs no stack here.

use crate::diag::Diagnostic;
use crate::ir::{Block, BlockKind, ClassHint, Document};
use crate::source::{Format, SourceFile};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

pub fn decode(src: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Document {
    let text = super::text_of(src, diagnostics);
    let (blocks, chrome_dropped) = blocks_of(&text);
    Document {
        file: src.path.clone(),
        sha256: src.sha256.clone(),
        format: Format::Markdown,
        blocks,
        chrome_dropped,
        meta: Default::default(),
    }
}

/// Byte offset → 1-based line.
#[derive(Default)]
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines(starts)
    }

    fn line(&self, offset: usize) -> u32 {
        let i = self.0.partition_point(|&s| s <= offset);
        u32::try_from(i.max(1)).unwrap_or(u32::MAX)
    }
}

/// The block being filled: its kind, level, text, where its first text was, and whether the
/// whole text so far is strong emphasis.
#[derive(Default)]
struct Builder {
    lines: Lines,
    blocks: Vec<Block>,
    kind: Option<BlockKind>,
    level: u8,
    text: String,
    start: Option<usize>,
    blank_before: bool,
    /// Strong emphasis open now (a counter: `***` and nested `**` are possible).
    strong: u32,
    /// Text seen inside and outside strong emphasis in the current block.
    strong_text: bool,
    plain_text: bool,
    list_depth: u8,
    /// Inside a table: the cells of the current row and the current cell's text.
    cells: Option<Vec<String>>,
    cell: String,
    row_start: Option<usize>,
    code_block: bool,
    chrome: usize,
}

impl Builder {
    fn open(&mut self, kind: BlockKind, level: u8, blank_before: bool) {
        self.flush();
        self.kind = Some(kind);
        self.level = level;
        self.blank_before = blank_before;
    }

    /// Ends the current block (a soft break keeps the kind: the next line is a new block of the
    /// same kind, without `blank_before`).
    fn flush(&mut self) {
        let text = self.text.trim();
        if let (Some(kind), Some(start), false) = (self.kind, self.start, text.is_empty()) {
            let mut b = Block::new(kind, text, self.start_line(start));
            b.level = self.level;
            b.blank_before = self.blank_before;
            if self.strong_text && !self.plain_text {
                b.class = Some(ClassHint::Strong);
            }
            self.blocks.push(b);
            self.blank_before = false;
        }
        self.text.clear();
        self.start = None;
        self.strong_text = false;
        self.plain_text = false;
    }

    fn start_line(&self, start: usize) -> u32 {
        self.lines.line(start)
    }

    fn push_text(&mut self, s: &str, offset: usize) {
        if let Some(_cells) = &self.cells {
            self.cell.push_str(s);
            self.row_start.get_or_insert(offset);
            return;
        }
        if self.kind.is_none() {
            // Text outside any block we opened (e.g. directly in a block quote): a paragraph.
            self.kind = Some(BlockKind::Paragraph);
            self.level = 0;
        }
        if self.code_block {
            // one event may hold several lines: each starts its own block at its own offset
            let mut at = offset;
            for (i, line) in s.split('\n').enumerate() {
                if i > 0 {
                    self.line_break();
                }
                self.append(line, at);
                at += line.len() + 1;
            }
            return;
        }
        self.append(s, offset);
    }

    fn append(&mut self, s: &str, offset: usize) {
        if s.trim().is_empty() {
            self.text.push_str(s);
            return;
        }
        self.start.get_or_insert(offset);
        if self.strong > 0 {
            self.strong_text = true;
        } else {
            self.plain_text = true;
        }
        self.text.push_str(s);
    }

    /// A line break inside a paragraph: the next line is its own block of the same kind.
    fn line_break(&mut self) {
        let (kind, level) = (self.kind, self.level);
        self.flush();
        self.kind = kind;
        self.level = level;
    }
}

/// The blocks of a Markdown text and the number of raw-HTML blocks dropped.
///
/// pulldown-cmark builds the block tree of all the text it is given before the first event
/// (about 25 bytes of tree per byte of a table), so a long text is parsed in pieces cut where
/// no block can go on ([`pieces`]): memory follows the piece, not the file.
pub fn blocks_of(text: &str) -> (Vec<Block>, usize) {
    blocks_in_pieces(text, PIECE)
}

fn blocks_in_pieces(text: &str, piece_size: usize) -> (Vec<Block>, usize) {
    let mut b = Builder {
        lines: Lines::new(text),
        blocks: Vec::with_capacity(super::non_empty_lines(text)),
        ..Builder::default()
    };
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for piece in pieces(text, piece_size) {
        let (base, lead) = (piece.base, piece.head.as_ref().map_or(0, String::len));
        let joined;
        let parsed = match &piece.head {
            Some(head) => {
                joined = format!("{head}{}", piece.text);
                joined.as_str()
            }
            None => piece.text,
        };
        // A piece that goes on with a table starts with the table's header again: its events
        // make no block.
        let mut skip = piece.head.is_some();
        for (event, range) in Parser::new_ext(parsed, options).into_offset_iter() {
            if skip {
                skip = event != Event::End(TagEnd::TableHead);
                continue;
            }
            let at = (base + range.start).saturating_sub(lead);
            match event {
                Event::Start(tag) => start(&mut b, tag),
                Event::End(tag) => end(&mut b, tag),
                Event::Text(s) | Event::Code(s) => b.push_text(&s, at),
                Event::SoftBreak | Event::HardBreak => {
                    if b.cells.is_some() {
                        b.cell.push(' ');
                    } else {
                        b.line_break();
                    }
                }
                Event::Html(_) => b.chrome += 1,
                Event::InlineHtml(_) | Event::Rule | Event::TaskListMarker(_) => {}
                Event::FootnoteReference(s) | Event::InlineMath(s) | Event::DisplayMath(s) => {
                    b.push_text(&s, at)
                }
            }
        }
    }
    b.flush();
    (b.blocks, b.chrome)
}

/// Bytes after which a text is cut into pieces at the next safe place.
const PIECE: usize = 1 << 20;

/// A piece of a text to parse: its offset, its text and, when it goes on with a table cut
/// between two rows, the table's header and delimiter lines to parse before it.
struct Piece<'t> {
    base: usize,
    head: Option<String>,
    text: &'t str,
}

/// The text in pieces of about `size` bytes, each cut before a line that starts a new block
/// whatever came before (after an empty line, at column 0) or before a row of a table whose
/// lines all start with `|` (the piece repeats the table's header); never inside a fenced
/// code block or raw HTML that may hold empty lines (comments, `<pre>`, `<script>`,
/// `<style>`, `<textarea>`). A text with link reference definitions (which apply to the whole
/// document) is one piece.
fn pieces(text: &str, size: usize) -> Vec<Piece<'_>> {
    let whole = |text| Piece {
        base: 0,
        head: None,
        text,
    };
    if text.len() <= size || has_link_definitions(text) {
        return vec![whole(text)];
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut head: Option<String> = None;
    let mut fence: Option<(u8, usize)> = None;
    let mut html_open = 0usize;
    let mut blank = false;
    // The table the previous line belongs to (its header and delimiter lines).
    let mut table: Option<String> = None;
    let mut prev = "";
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let clean = fence.is_none() && html_open == 0 && at - start >= size;
        let new_block = blank && indent == 0 && !trimmed.starts_with(['\t', '\n', '\r']);
        let row = table.is_some() && line.starts_with('|') && !delimiter_row(line);
        if clean && (new_block || row) {
            out.push(Piece {
                base: start,
                head: head.take(),
                text: &text[start..at],
            });
            start = at;
            head = if row { table.clone() } else { None };
        }
        // Fences: ``` or ~~~ (three or more) after at most three spaces.
        if indent <= 3 {
            let c = trimmed.as_bytes().first().copied().unwrap_or(0);
            if c == b'`' || c == b'~' {
                let n = trimmed.bytes().take_while(|&x| x == c).count();
                if n >= 3 {
                    fence = match fence {
                        None => Some((c, n)),
                        Some((fc, fnum))
                            if fc == c && n >= fnum && trimmed[n..].trim().is_empty() =>
                        {
                            None
                        }
                        open => open,
                    };
                }
            }
        }
        if fence.is_none() {
            let lower = line.to_ascii_lowercase();
            for open in ["<!--", "<pre", "<script", "<style", "<textarea"] {
                html_open += lower.matches(open).count();
            }
            for close in ["-->", "</pre", "</script", "</style", "</textarea"] {
                html_open = html_open.saturating_sub(lower.matches(close).count());
            }
        }
        table = match table {
            Some(t) if line.starts_with('|') => Some(t),
            None if line.starts_with('|') && prev.starts_with('|') && delimiter_row(line) => {
                Some(format!("{prev}{line}"))
            }
            _ => None,
        };
        blank = line.trim().is_empty();
        prev = line;
        at += line.len();
    }
    out.push(Piece {
        base: start,
        head,
        text: &text[start..],
    });
    out
}

/// A table's delimiter row: `|---|:--:|`.
fn delimiter_row(line: &str) -> bool {
    let t = line.trim();
    t.contains('-') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// Whether a line looks like a link reference definition (`[label]: destination`).
fn has_link_definitions(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        l.len() - t.len() <= 3 && t.starts_with('[') && t.find("]:").is_some_and(|i| i > 1)
    })
}

fn start(b: &mut Builder, tag: Tag<'_>) {
    match tag {
        Tag::Heading { level, .. } => b.open(BlockKind::Heading, level as u8, true),
        Tag::Paragraph => {
            // A paragraph inside a list item continues the item (loose lists wrap items in
            // paragraphs); elsewhere it is a new block after an empty line.
            if b.kind == Some(BlockKind::ListItem) && b.text.trim().is_empty() {
                return;
            }
            let kind = if b.list_depth > 0 {
                BlockKind::ListItem
            } else {
                BlockKind::Paragraph
            };
            let level = if b.list_depth > 0 { b.list_depth } else { 0 };
            b.open(kind, level, true);
        }
        Tag::List(_) => {
            b.flush();
            b.kind = None;
            b.list_depth = b.list_depth.saturating_add(1).min(6);
        }
        Tag::Item => b.open(BlockKind::ListItem, b.list_depth.max(1), false),
        Tag::CodeBlock(_) => {
            b.open(BlockKind::Paragraph, 0, true);
            b.code_block = true;
        }
        Tag::Table(_) => {
            b.flush();
            b.kind = None;
        }
        Tag::TableHead | Tag::TableRow => {
            b.cells = Some(Vec::new());
            b.row_start = None;
        }
        Tag::TableCell => b.cell.clear(),
        Tag::Strong => b.strong = b.strong.saturating_add(1),
        Tag::HtmlBlock => {}
        _ => {}
    }
}

fn end(b: &mut Builder, tag: TagEnd) {
    match tag {
        TagEnd::Heading(_) | TagEnd::Paragraph | TagEnd::Item | TagEnd::BlockQuote(_) => {
            if tag == TagEnd::Paragraph && b.kind == Some(BlockKind::ListItem) {
                // the item goes on (a nested list or another paragraph may follow)
                b.line_break();
                return;
            }
            b.flush();
            b.kind = None;
        }
        TagEnd::CodeBlock => {
            b.flush();
            b.kind = None;
            b.code_block = false;
        }
        TagEnd::List(_) => {
            b.flush();
            b.list_depth = b.list_depth.saturating_sub(1);
            // back in the enclosing item, if any: later text is that item's again
            b.kind = (b.list_depth > 0).then_some(BlockKind::ListItem);
            b.level = b.list_depth;
        }
        TagEnd::TableCell => {
            if let Some(cells) = b.cells.as_mut() {
                cells.push(b.cell.trim().to_string());
            }
            b.cell.clear();
        }
        TagEnd::TableHead | TagEnd::TableRow => {
            if let Some(cells) = b.cells.take() {
                if cells.iter().any(|c| !c.is_empty()) {
                    let line = b.start_line(b.row_start.unwrap_or(0));
                    b.blocks.push(Block::row(cells, line));
                }
            }
        }
        TagEnd::Strong => b.strong = b.strong.saturating_sub(1),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_cut_only_where_no_block_goes_on() {
        let md = "# A\n\npara\n\n```\ncode\n\nmore\n```\n\n<!--\n\nx\n\n-->\n\n- item\n\n  cont\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nend\n";
        let cuts: Vec<&str> = pieces(md, 1).into_iter().map(|p| p.text).collect();
        assert_eq!(cuts.concat(), md);
        assert_eq!(
            cuts,
            [
                "# A\n\n",
                "para\n\n",
                "```\ncode\n\nmore\n```\n\n",
                "<!--\n\nx\n\n-->\n\n",
                "- item\n\n  cont\n\n",
                "| a | b |\n|---|---|\n",
                "| 1 | 2 |\n\n",
                "end\n"
            ]
        );
        // Cut into pieces or read whole, the blocks are the same.
        let whole = blocks_in_pieces(md, usize::MAX);
        assert_eq!(
            format!("{whole:?}"),
            format!("{:?}", blocks_in_pieces(md, 1))
        );
        assert_eq!(pieces("[x]: http://a\n\npara\n\nmore\n", 1).len(), 1);
    }

    #[test]
    fn headings_paragraph_lines_lists_and_tables() {
        let md = "# Title\n\nFirst line\nsecond *line*\n\n- one\n  - two\n- three\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n**Deep Strike**\n";
        let (b, chrome) = blocks_of(md);
        assert_eq!(chrome, 0);
        let shown: Vec<(BlockKind, &str, u32, u8)> = b
            .iter()
            .map(|b| (b.kind, b.text.as_str(), b.line(), b.level))
            .collect();
        assert_eq!(
            shown,
            vec![
                (BlockKind::Heading, "Title", 1, 1),
                (BlockKind::Paragraph, "First line", 3, 0),
                (BlockKind::Paragraph, "second line", 4, 0),
                (BlockKind::ListItem, "one", 6, 1),
                (BlockKind::ListItem, "two", 7, 2),
                (BlockKind::ListItem, "three", 8, 1),
                (BlockKind::TableRow, "A | B", 10, 0),
                (BlockKind::TableRow, "1 | 2", 12, 0),
                (BlockKind::Paragraph, "Deep Strike", 14, 0),
            ]
        );
        assert!(b[1].blank_before && !b[2].blank_before);
        assert_eq!(b[8].class, Some(ClassHint::Strong));
        assert_eq!(b[1].class, None);
    }
}
