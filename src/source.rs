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

/// Where a record came from: the file (relative), the 1-based line, and the file's sha256.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Provenance {
    pub file: String,
    pub line: u32,
    pub sha256: String,
}

/// An occurrence of a rule: file and line, without the hash (the manifest has it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Occurrence {
    pub file: String,
    pub line: u32,
}

/// A place in a source: 1-based line, and for paged formats the page and position on it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f32>,
}

impl Span {
    pub fn line(line: u32) -> Self {
        Span {
            line,
            ..Span::default()
        }
    }
}
