//! Source files and locations: what an input is, before any decoder has looked at it.
//!
//! Owns [`SourceFile`] (relative path, bytes, sha256), [`Format`] and [`Provenance`]. Paths in
//! here are always relative to the input root with `/` separators, so output never carries an
//! absolute path. This module does no I/O (that is `discover`'s job).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The input formats cogitator recognises, detected from the content (the extension only breaks
/// ties). Only [`Format::Text`] and [`Format::Html`] have a decoder today; every other format is
/// recognised so that it can be skipped by name (`S007`) instead of being read as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A plain-text dump of rules pages (the seed dumps).
    Text,
    /// A scraped HTML page.
    Html,
    /// Markdown text (by extension: `.md`, `.markdown`).
    Markdown,
    /// XML (BattleScribe `.cat`/`.gst` and others).
    Xml,
    /// Delimited values (Wahapedia's pipe-separated export, CSV, TSV).
    Csv,
    /// JSON (for example a cogitator dataset).
    Json,
    /// YAML (`.yaml`/`.yml`, or a `%YAML`/`---` document start): structured data no decoder reads
    /// yet, never read as a text dump.
    Yaml,
    /// PDF (`%PDF-`).
    Pdf,
    /// Text in UTF-16 (a byte-order mark says so).
    Utf16,
    /// An image, an archive or an office document (recognised by its magic bytes).
    Media,
    /// Bytes no detector recognises (NUL bytes, control characters).
    Binary,
    /// Not looked at (the input could not be read, or is over the size limit).
    Unknown,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Xml => "xml",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Pdf => "pdf",
            Format::Utf16 => "utf-16",
            Format::Media => "media",
            Format::Binary => "binary",
            Format::Unknown => "unknown",
        }
    }
}

/// One input file, read into memory.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the input root, `/`-separated (e.g. `000_7d74a1f54db65dd5.txt`).
    pub path: String,
    pub bytes: Vec<u8>,
    /// Lower-case hex sha256 of `bytes`.
    pub sha256: String,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, bytes: Vec<u8>) -> Self {
        let sha256 = sha256_hex(&bytes);
        SourceFile {
            path: path.into(),
            bytes,
            sha256,
        }
    }
}

/// An input the pipeline can process: in memory ([`SourceFile`]) or still on disk
/// ([`crate::discover::OnDisk`]). The pipeline loads each input when its turn comes and drops
/// it when done, so memory does not grow with the number of inputs.
pub trait Input: Sync {
    /// Path relative to the input root.
    fn path(&self) -> &str;
    /// Lower-case hex sha256 of the content, when known before loading (always for an input
    /// in memory; for one on disk, when another input has the same size).
    fn sha256(&self) -> Option<&str>;
    /// Size in bytes.
    fn len(&self) -> u64;
    /// Whether the input is zero bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The content (read now when on disk); a diagnostic when it can no longer be read.
    fn load(&self) -> Result<std::borrow::Cow<'_, SourceFile>, crate::diag::Diagnostic>;
}

impl Input for SourceFile {
    fn path(&self) -> &str {
        &self.path
    }
    fn sha256(&self) -> Option<&str> {
        Some(&self.sha256)
    }
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn load(&self) -> Result<std::borrow::Cow<'_, SourceFile>, crate::diag::Diagnostic> {
        Ok(std::borrow::Cow::Borrowed(self))
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Where a record came from: the file (relative), the 1-based line, and the file's sha256;
/// for paged sources (PDF) also the 1-based page, the box on it and the page's size.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Provenance {
    pub file: String,
    pub line: u32,
    pub sha256: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bbox: Option<BBox>,
    /// The page's size (absent in datasets written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<PageSize>,
}

impl Provenance {
    /// A line of a line-addressed source (text, HTML, CSV row, XML element).
    pub fn at_line(file: impl Into<String>, line: u32, sha256: impl Into<String>) -> Self {
        Provenance {
            file: file.into(),
            line,
            sha256: sha256.into(),
            page: None,
            bbox: None,
            page_size: None,
        }
    }

    /// `file` at `span` (line, and page, box and page size when the span has them).
    pub fn at(file: impl Into<String>, span: Span, sha256: impl Into<String>) -> Self {
        Provenance {
            page: span.page,
            bbox: span.bbox,
            page_size: span.page_size,
            ..Provenance::at_line(file, span.line, sha256)
        }
    }

    /// The same place as a [`Location`] (without the hash).
    pub fn location(&self) -> Location {
        Location {
            file: self.file.clone(),
            line: self.line,
            page: self.page,
            bbox: self.bbox,
            page_size: self.page_size,
        }
    }
}

/// Where a sub-record or a rule occurrence was read: the file (relative), the 1-based line,
/// and for paged sources the page, the box on it and the page's size. The file's hash is in
/// the record's `sources` and the manifest. The default (empty file, line 0) is the location
/// of a sub-record in a dataset written before sub-records carried one.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bbox: Option<BBox>,
    /// The page's size (absent in datasets written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<PageSize>,
}

impl Location {
    /// A line of a line-addressed source.
    pub fn at_line(file: impl Into<String>, line: u32) -> Self {
        Location {
            file: file.into(),
            line,
            page: None,
            bbox: None,
            page_size: None,
        }
    }

    /// `file` at `span` (line, and page, box and page size when the span has them).
    pub fn at(file: impl Into<String>, span: Span) -> Self {
        Location {
            file: file.into(),
            line: span.line,
            page: span.page,
            bbox: span.bbox,
            page_size: span.page_size,
        }
    }
}

/// An occurrence of a rule: where one copy of its text was read.
pub type Occurrence = Location;

/// A box on a page, in PDF points with the origin at the page's lower-left corner:
/// `[x0, y0, x1, y1]` (left, bottom, right, top). Compared and hashed by bit pattern, so it
/// can sit in sorted, deduplicated provenance lists.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct BBox(pub [f32; 4]);

impl BBox {
    fn key(&self) -> [u32; 4] {
        self.0.map(f32::to_bits)
    }

    /// The smallest box holding both.
    pub fn union(self, other: BBox) -> BBox {
        let [a0, a1, a2, a3] = self.0;
        let [b0, b1, b2, b3] = other.0;
        BBox([a0.min(b0), a1.min(b1), a2.max(b2), a3.max(b3)])
    }
}

impl PartialEq for BBox {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for BBox {}
impl std::hash::Hash for BBox {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h)
    }
}
impl PartialOrd for BBox {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for BBox {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.0, other.0);
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    }
}

/// A page's size in PDF points (its CropBox, else MediaBox: `width` × `height`) and the
/// clockwise rotation a viewer shows it with (`/Rotate`: 0, 90, 180 or 270; written only when
/// not 0). Boxes on the page ([`BBox`]) are in the page's unrotated space, origin at its
/// lower-left corner, so `[0, 0, width, height]` is the whole page: to draw a box on a page
/// shown rotated, rotate the box with it. Compared and hashed by bit pattern, like [`BBox`].
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct PageSize {
    pub width: f32,
    pub height: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotate: u16,
}

fn is_zero(r: &u16) -> bool {
    *r == 0
}

impl PageSize {
    fn key(&self) -> (u32, u32, u16) {
        (self.width.to_bits(), self.height.to_bits(), self.rotate)
    }
}

impl PartialEq for PageSize {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for PageSize {}
impl std::hash::Hash for PageSize {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h)
    }
}
impl PartialOrd for PageSize {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PageSize {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.width
            .total_cmp(&other.width)
            .then(self.height.total_cmp(&other.height))
            .then(self.rotate.cmp(&other.rotate))
    }
}

/// A place in a source: a 1-based line (text, HTML, CSV row, XML element), and for paged
/// formats (PDF) the 1-based page, the box on it and the page's size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bbox: Option<BBox>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<PageSize>,
}

impl Span {
    pub fn line(line: u32) -> Self {
        Span {
            line,
            ..Span::default()
        }
    }

    /// A place on a page of `size`: `line` counts the document's lines across pages.
    pub fn on_page(line: u32, page: u32, bbox: BBox, size: PageSize) -> Self {
        Span {
            line,
            page: Some(page),
            bbox: Some(bbox),
            page_size: Some(size),
        }
    }
}
