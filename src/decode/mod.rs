//! Decoding: bytes of one [`SourceFile`] → one [`Document`] of IR blocks.
//!
//! One decoder per format; this is the only module that imports third-party parsers
//! (`scraper`, later `pulldown-cmark`, `quick-xml`, `lopdf`). It knows markup and encodings,
//! not the game: it never decides what a block *means*. It detects the format from the content
//! (extension only as a tie-break), rejects binary and empty inputs with a diagnostic, and never
//! panics on any byte sequence.

use crate::diag::{Code, Diagnostic};
use crate::ir::Document;
use crate::source::{Format, SourceFile};
use std::borrow::Cow;

pub mod html;
pub mod text;

/// Result of decoding one source: a document (absent when the input was rejected) and what was
/// found on the way.
#[derive(Debug)]
pub struct Decoded {
    pub format: Format,
    pub document: Option<Document>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Detects the format of `src` from its bytes (then its extension).
pub fn detect_format(src: &SourceFile) -> Format {
    let head = &src.bytes[..src.bytes.len().min(128 * 1024)];
    if looks_binary(head) {
        return Format::Unknown;
    }
    let has = |needle: &[u8]| {
        head.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    if has(b"<html") || has(b"<!doctype html") {
        return Format::Html;
    }
    let ext = src
        .path
        .rsplit('.')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" if has(b"<body") || has(b"<div") => Format::Html,
        "md" | "markdown" => Format::Markdown,
        _ => Format::Text,
    }
}

/// NUL bytes, or more than 10% control characters other than whitespace.
fn looks_binary(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return true;
    }
    let control = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c))
        .count();
    !bytes.is_empty() && control * 10 > bytes.len()
}

/// Decodes `src` with the decoder for its detected format.
pub fn decode(src: &SourceFile) -> Decoded {
    let mut diagnostics = Vec::new();
    if src.bytes.iter().all(|b| b.is_ascii_whitespace()) {
        diagnostics.push(Diagnostic::new(Code::SourceEmpty, "empty input").in_file(&src.path));
        return Decoded {
            format: Format::Unknown,
            document: None,
            diagnostics,
        };
    }
    let format = detect_format(src);
    let document = match format {
        Format::Unknown => {
            diagnostics.push(
                Diagnostic::new(Code::SourceBinary, "binary content, skipped").in_file(&src.path),
            );
            None
        }
        Format::Html => Some(html::decode(src, &mut diagnostics)),
        // Markdown gets its own decoder with the 9th-edition work; its line structure is
        // what the text decoder reads.
        Format::Text | Format::Markdown => Some(text::decode(src, &mut diagnostics)),
    };
    Decoded {
        format,
        document,
        diagnostics,
    }
}

/// UTF-8 text of `src` without a BOM, borrowed from its bytes when they are valid UTF-8 (a
/// page is not held twice); invalid sequences replaced (a copy) and reported (`S004`).
pub fn text_of<'s>(src: &'s SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Cow<'s, str> {
    let bytes = src
        .bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(&src.bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            let s = String::from_utf8_lossy(bytes).into_owned();
            let bad = s.matches('\u{FFFD}').count();
            diagnostics.push(
                Diagnostic::new(
                    Code::SourceLossyUtf8,
                    format!("{bad} invalid UTF-8 sequence(s) replaced with U+FFFD"),
                )
                .at(&src.path, line as u32),
            );
            Cow::Owned(s)
        }
    }
}
