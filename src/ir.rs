//! The intermediate representation every decoder produces and every extractor reads.
//!
//! A [`Document`] is a flat, ordered list of [`Block`]s (headings, paragraphs, table rows with
//! cells, list items), each with the [`Span`] it came from. Decoders render their format into
//! this shape (an HTML weapon row becomes a `TableRow` whose first cell is
//! `Storm bolter [rapid fire 2]`, exactly as the text dumps print it), so one set of extractors
//! serves every format. Architecture invariant: nothing after `decode` sees raw bytes or markup,
//! and nothing in here knows the game's vocabulary.

use crate::source::{Format, Span};
use serde::Serialize;

/// What kind of structural unit a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockKind {
    /// A heading the source marks as one (HTML `h1`–`h6`, markdown `#`). Text dumps have none:
    /// there a short upper-case line is a `Paragraph` and extractors decide what it is.
    Heading,
    /// A line or paragraph of running text.
    Paragraph,
    /// A row of a table; `cells` holds the cell texts, `text` the cells joined by ` | `.
    TableRow,
    /// A bulleted or numbered list item (bullet removed from `text`).
    ListItem,
}

/// Where in a page a block sits, when the decoder knows it from the markup. Text dumps leave
/// this `None`; extractors must work without it and may use it to skip guesswork.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    /// The body of a datasheet.
    Datasheet,
    /// A glossary entry (Wahapedia tooltip templates): a rule the page refers to.
    Glossary,
    /// Faction-level content: army rules, detachments, enhancements, stratagems.
    Faction,
    /// Navigation, ads, footers: decoders may mark it rather than drop it, so it is counted.
    Chrome,
}

/// One structural unit of a source, with its location.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    pub kind: BlockKind,
    /// The block's text, whitespace-trimmed, typography as in the source.
    pub text: String,
    /// Cell texts for `TableRow` (empty otherwise). Trailing empty cells are kept: the dumps'
    /// `| |` endings carry no meaning, but an empty middle cell does.
    pub cells: Vec<String>,
    /// Heading level 1–6 for `Heading`, list depth for `ListItem`, 0 otherwise.
    pub level: u8,
    pub span: Span,
    pub region: Option<Region>,
    /// A decoder hint naming the source element class (e.g. `dsAbility`), if any.
    pub class: Option<String>,
    /// The source separates this block from the previous one with an empty line (or, in
    /// markup, starts a new paragraph element). Extractors use it to tell a flavor sentence
    /// from the rules text that follows it.
    pub blank_before: bool,
}

impl Block {
    pub fn new(kind: BlockKind, text: impl Into<String>, line: u32) -> Self {
        Block {
            kind,
            text: text.into(),
            cells: Vec::new(),
            level: 0,
            span: Span::line(line),
            region: None,
            class: None,
            blank_before: false,
        }
    }

    pub fn row(cells: Vec<String>, line: u32) -> Self {
        let text = cells.join(" | ");
        Block {
            cells,
            ..Block::new(BlockKind::TableRow, text, line)
        }
    }

    pub fn line(&self) -> u32 {
        self.span.line
    }

    /// Non-empty cells of a table row.
    pub fn filled_cells(&self) -> impl Iterator<Item = &str> {
        self.cells
            .iter()
            .map(|c| c.as_str())
            .filter(|c| !c.is_empty())
    }
}

/// A decoded source: its relative path, hash, format and blocks in source order.
#[derive(Debug, Clone, Serialize)]
pub struct Document {
    pub file: String,
    pub sha256: String,
    pub format: Format,
    pub blocks: Vec<Block>,
    /// Blocks the decoder recognised as chrome and dropped, by count (the nothing-lost account).
    pub chrome_dropped: usize,
    /// Facts the markup states about the page (`title`, `url`, `generator`…), for system
    /// detection and version tie-breaks. Empty for text dumps.
    pub meta: std::collections::BTreeMap<String, String>,
}
