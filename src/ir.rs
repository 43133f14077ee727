//! The intermediate representation every decoder produces and every extractor reads.
//!
//! A [`Document`] is a flat, ordered list of [`Block`]s (headings, paragraphs, table rows with
//! cells, list items), each with the [`Span`] it came from. Decoders render their format into
//! this shape (an HTML weapon row becomes a `TableRow` whose first cell is
//! `Storm bolter [rapid fire 2]`, exactly as the text dumps print it), so one set of extractors
//! serves every format. Architecture invariant: nothing after `decode` sees raw bytes or markup,
//! and nothing in here knows the game's vocabulary.
//!
//! A block may carry a [`ClassHint`]: the decoder's typed name for the site element it came
//! from (Wahapedia's `dsProfile`, `wProfile`, `tooltip_header`, `str10Name`…). The hint is set
//! in `decode` and matched by `extract` as an enum value; [`ClassHint::as_str`] spells the
//! site's class name for debugging (`examples/dump_ir.rs`) and serialization, and is the one
//! place those names are written outside the decoder's own markup parsing (the `tidy` test
//! keeps the string literals out of the rest of `src/`).

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

/// The decoder's typed hint naming the site element a block came from. Set in `decode`,
/// matched in `extract`; [`ClassHint::as_str`] is the site's class name (what `dump_ir` prints
/// and what the block serializes as).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClassHint {
    /// A flavor paragraph (`ShowFluff`, `legend2`).
    Flavor,
    /// The detachment a faction rule belongs to (`detachName`).
    DetachName,
    /// A worked example box (`redExample`).
    Example,
    /// A rule's summary bullet box (`redSquare`).
    Summary,
    /// Datasheet ability text (`dsAbility`, `dsAbility_noLine`).
    DsAbility,
    /// An enhancement's name and points (`EnhancementsPts` list item).
    EnhancementsPts,
    /// A datasheet's name heading (`dsH2Header`).
    DsH2Header,
    /// A model's base size (`dsModelBase`).
    DsModelBase,
    /// The model a profile row belongs to (`dsModelName`).
    DsModelName,
    /// The characteristic names of a profile (`dsCharName`).
    DsCharName,
    /// The characteristic values of a profile (`dsCharValue`s).
    DsProfile,
    /// An invulnerable save (`dsInvulWrap`).
    DsInvul,
    /// The condition of the invulnerable save (`dsInvulComment`).
    DsInvulComment,
    /// A group of unit keywords (`dsLeftColKW`).
    DsKeywords,
    /// Faction keywords (`dsRightColKW`).
    DsFactionKeywords,
    /// A datasheet section heading (`dsHeader`).
    DsHeader,
    /// A stratagem listed on a datasheet: name, CP, type (`s10Wrap`).
    S10Wrap,
    /// An enhancement listed on a datasheet (`s10EnhWrap`).
    S10EnhWrap,
    /// A weapon table's header row (`wTable`).
    WHeader,
    /// A note row of a weapon table.
    WNote,
    /// A weapon profile row.
    WProfile,
    /// A weapon profile row of a multi-profile weapon (`dsPointy`).
    WProfileMulti,
    /// The empty marker heading between glossary entries.
    Tooltip,
    /// A glossary rule's name (`tooltip_header`).
    TooltipHeader,
    /// A glossary ability card's name (`abName`).
    AbName,
    /// `The X keyword is used in the following …` paragraph.
    KeywordIndex,
    /// A stratagem card's name (`str10Name`).
    Str10Name,
    /// A stratagem card's CP cost (`str10CP`).
    Str10Cp,
    /// A stratagem card's `Group – Category Stratagem` line (`str10Type`).
    Str10Type,
    /// A stratagem card's flavor (`str10Legend`).
    Str10Legend,
    /// A stratagem card's WHEN / TARGET / EFFECT text (`str10Text`).
    Str10Text,
    /// A block whose whole text is strong emphasis (Markdown `**Deep Strike**`): a heading in
    /// all but markup.
    Strong,
}

impl ClassHint {
    /// Every hint, in declaration order.
    pub const ALL: &'static [ClassHint] = &[
        ClassHint::Flavor,
        ClassHint::DetachName,
        ClassHint::Example,
        ClassHint::Summary,
        ClassHint::DsAbility,
        ClassHint::EnhancementsPts,
        ClassHint::DsH2Header,
        ClassHint::DsModelBase,
        ClassHint::DsModelName,
        ClassHint::DsCharName,
        ClassHint::DsProfile,
        ClassHint::DsInvul,
        ClassHint::DsInvulComment,
        ClassHint::DsKeywords,
        ClassHint::DsFactionKeywords,
        ClassHint::DsHeader,
        ClassHint::S10Wrap,
        ClassHint::S10EnhWrap,
        ClassHint::WHeader,
        ClassHint::WNote,
        ClassHint::WProfile,
        ClassHint::WProfileMulti,
        ClassHint::Tooltip,
        ClassHint::TooltipHeader,
        ClassHint::AbName,
        ClassHint::KeywordIndex,
        ClassHint::Str10Name,
        ClassHint::Str10Cp,
        ClassHint::Str10Type,
        ClassHint::Str10Legend,
        ClassHint::Str10Text,
        ClassHint::Strong,
    ];

    /// The site's class name this hint stands for (`dsProfile`, `tooltip_header`…).
    pub fn as_str(self) -> &'static str {
        match self {
            ClassHint::Flavor => "flavor",
            ClassHint::DetachName => "detachName",
            ClassHint::Example => "example",
            ClassHint::Summary => "summary",
            ClassHint::DsAbility => "dsAbility",
            ClassHint::EnhancementsPts => "EnhancementsPts",
            ClassHint::DsH2Header => "dsH2Header",
            ClassHint::DsModelBase => "dsModelBase",
            ClassHint::DsModelName => "dsModelName",
            ClassHint::DsCharName => "dsCharName",
            ClassHint::DsProfile => "dsProfile",
            ClassHint::DsInvul => "dsInvul",
            ClassHint::DsInvulComment => "dsInvulComment",
            ClassHint::DsKeywords => "dsKeywords",
            ClassHint::DsFactionKeywords => "dsFactionKeywords",
            ClassHint::DsHeader => "dsHeader",
            ClassHint::S10Wrap => "s10Wrap",
            ClassHint::S10EnhWrap => "s10EnhWrap",
            ClassHint::WHeader => "wHeader",
            ClassHint::WNote => "wNote",
            ClassHint::WProfile => "wProfile",
            ClassHint::WProfileMulti => "wProfileMulti",
            ClassHint::Tooltip => "tooltip",
            ClassHint::TooltipHeader => "tooltip_header",
            ClassHint::AbName => "abName",
            ClassHint::KeywordIndex => "keyword_index",
            ClassHint::Str10Name => "str10Name",
            ClassHint::Str10Cp => "str10CP",
            ClassHint::Str10Type => "str10Type",
            ClassHint::Str10Legend => "str10Legend",
            ClassHint::Str10Text => "str10Text",
            ClassHint::Strong => "strong",
        }
    }
}

impl std::fmt::Display for ClassHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ClassHint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One structural unit of a source, with its location.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    pub kind: BlockKind,
    /// The block's text, whitespace-trimmed, typography as in the source.
    pub text: String,
    /// Cell texts for `TableRow` (empty otherwise). Trailing empty cells are kept: the dumps'
    /// `| |` endings carry no meaning, but an empty middle cell does.
    pub cells: Cells,
    /// Heading level 1–6 for `Heading`, list depth for `ListItem`, 0 otherwise.
    pub level: u8,
    pub span: Span,
    pub region: Option<Region>,
    /// The decoder's hint naming the source element (e.g. [`ClassHint::DsAbility`]), if any.
    pub class: Option<ClassHint>,
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
            cells: Cells::default(),
            level: 0,
            span: Span::line(line),
            region: None,
            class: None,
            blank_before: false,
        }
    }

    pub fn row<S: AsRef<str>>(cells: impl IntoIterator<Item = S>, line: u32) -> Self {
        Block::row_of(cells.into_iter().collect(), line)
    }

    /// A table row of cells already built (placed ones: [`Cells::placed`]).
    pub fn row_of(cells: Cells, line: u32) -> Self {
        let mut block = Block::new(BlockKind::TableRow, cells.join(" | "), line);
        block.cells = cells;
        block
    }

    pub fn line(&self) -> u32 {
        self.span.line
    }

    /// Non-empty cells of a table row.
    pub fn filled_cells(&self) -> impl Iterator<Item = &str> {
        self.cells.iter().filter(|c| !c.is_empty())
    }
}

/// The cell texts of a table row, in one buffer with each cell's end: two allocations a row
/// instead of one per cell, and one pointer in a block that is not a row (a table of a million
/// rows is the IR's largest user of memory). A decoder that knows where each cell starts on
/// its page (the PDF decoder) records it ([`Cells::x0`]); the other formats leave it empty.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cells(Option<Box<CellBuf>>);

#[derive(Debug, Clone, Default, PartialEq)]
struct CellBuf {
    text: String,
    ends: Vec<u32>,
    /// Each cell's left edge in page points, when the decoder knows it (one per cell, or none).
    x0: Vec<f32>,
}

impl Cells {
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |c| c.ends.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th cell.
    pub fn get(&self, i: usize) -> Option<&str> {
        let c = self.0.as_ref()?;
        let end = *c.ends.get(i)? as usize;
        let start = match i.checked_sub(1) {
            Some(k) => c.ends[k] as usize,
            None => 0,
        };
        c.text.get(start..end)
    }

    pub fn first(&self) -> Option<&str> {
        self.get(0)
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + Clone {
        (0..self.len()).map(|i| self.get(i).unwrap_or(""))
    }

    /// The first cell and the rest.
    pub fn split_first(&self) -> Option<(&str, Vec<&str>)> {
        Some((self.first()?, self.iter().skip(1).collect()))
    }

    pub fn join(&self, sep: &str) -> String {
        self.iter().collect::<Vec<_>>().join(sep)
    }

    pub fn push(&mut self, cell: &str) {
        let c = self.0.get_or_insert_with(Box::default);
        c.text.push_str(cell);
        c.ends.push(u32::try_from(c.text.len()).unwrap_or(u32::MAX));
    }

    /// Cells placed on a page: each text with its left edge (points from the page box's left).
    pub fn placed<S: AsRef<str>>(cells: impl IntoIterator<Item = (S, f32)>) -> Cells {
        let mut out = Cells::default();
        let mut xs = Vec::new();
        for (t, x) in cells {
            out.push(t.as_ref());
            xs.push(x);
        }
        if let Some(c) = out.0.as_mut() {
            c.x0 = xs;
        }
        out
    }

    /// The left edge of the `i`-th cell on its page, when the decoder placed the cells (PDF
    /// rows); `None` for the formats without positions.
    pub fn x0(&self, i: usize) -> Option<f32> {
        self.0.as_ref()?.x0.get(i).copied()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Cells {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut cells = Cells::default();
        for c in iter {
            cells.push(c.as_ref());
        }
        if let Some(c) = cells.0.as_mut() {
            c.text.shrink_to_fit();
            c.ends.shrink_to_fit();
        }
        cells
    }
}

impl std::ops::Index<usize> for Cells {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        self.get(i).unwrap_or("")
    }
}

impl<S: AsRef<str>> PartialEq<[S]> for Cells {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b.as_ref())
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for Cells {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for Cells {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl Serialize for Cells {
    fn serialize<Ser: serde::Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        s.collect_seq(self.iter())
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

#[cfg(test)]
mod tests {
    use super::ClassHint;

    #[test]
    fn class_hint_names_are_distinct_and_round_trip_through_serde() {
        let mut names: Vec<&str> = ClassHint::ALL.iter().map(|h| h.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ClassHint::ALL.len());
        assert_eq!(
            serde_json::to_string(&ClassHint::TooltipHeader)
                .ok()
                .as_deref(),
            Some("\"tooltip_header\"")
        );
    }
}
