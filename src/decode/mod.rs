//! Decoding: bytes of one [`SourceFile`] → one [`Document`] of IR blocks.
//!
//! One decoder per format; this is the only module that imports third-party parsers
//! (`scraper`, `pulldown-cmark`, later `quick-xml`, `lopdf`). It knows markup and encodings,
//! not the game: it never decides what a block *means*. It detects the format from the content
//! (extension only as a tie-break: [`sniff`]) before anything is extracted, hands the file to
//! the decoder registered for that format ([`decoder_for`]), and skips every other format by name
//! (`S007`: XML, CSV and JSON without a record source that claims them (BattleScribe JSON is
//! named by its first key, [`battlescribe_json`]), UTF-16,
//! images and archives, zipped BattleScribe data; `S003`: unidentified
//! binary; `S002`: empty) so that no unknown input ever becomes records. It never panics on any
//! byte sequence.

use crate::diag::{Code, Diagnostic};
use crate::ir::Document;
use crate::source::{Format, SourceFile};
use std::borrow::Cow;

pub mod html;
pub mod markdown;
pub mod pdf;
mod pdf_content;
mod pdf_font;
pub mod text;

/// Result of decoding one source: a document (absent when the input was rejected) and what was
/// found on the way.
#[derive(Debug)]
pub struct Decoded {
    pub format: Format,
    pub document: Option<Document>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A document decoder: bytes of one source → blocks, plus diagnostics. Never fails. It may
/// use what the decoders of one run share ([`Shared`]).
pub type DecodeFn = fn(&SourceFile, &Shared, &mut Vec<Diagnostic>) -> Document;

/// What the decoders of one run share across its files: the HTML decoder's memo of glossary
/// subtrees ([`html::memo`]). It changes no output, only how often the same markup is read;
/// one per run (the pipeline's), dropped with it.
#[derive(Default)]
pub struct Shared {
    pub html: html::memo::Memo,
}

/// The decoders, by the format each reads. Adding a document format is a module beside this one
/// and one line here (plus its sniffing rule in [`sniff`]); a recognised format with no line
/// here is skipped with `S007`, never read as text.
const DECODERS: &[(Format, DecodeFn)] = &[
    (Format::Text, |src, _, d| text::decode(src, d)),
    (Format::Html, |src, shared, d| {
        html::decode_with_memo(src, Some(&shared.html), d)
    }),
    (Format::Pdf, |src, _, d| pdf::decode(src, d)),
    (Format::Markdown, |src, _, d| markdown::decode(src, d)),
];

/// The decoder registered for `format`, if any.
pub fn decoder_for(format: Format) -> Option<DecodeFn> {
    DECODERS.iter().find(|(f, _)| *f == format).map(|(_, d)| *d)
}

/// What the content of a file is, with a detail for the message (`BattleScribe catalogue`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sniffed {
    pub format: Format,
    pub detail: Option<&'static str>,
}

/// Detects the format of `src` from its bytes (then its extension).
pub fn detect_format(src: &SourceFile) -> Format {
    sniff(&src.bytes, &src.path).format
}

/// Detects the format from the first bytes of the content, the extension breaking ties. Looks at
/// most at the first 128 KiB (JSON, which is parsed whole, excepted), so it is cheap on any input.
pub fn sniff(bytes: &[u8], path: &str) -> Sniffed {
    let found = |format, detail| Sniffed { format, detail };
    let head = &bytes[..bytes.len().min(128 * 1024)];
    if head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        return found(Format::Utf16, Some("byte-order mark; convert to UTF-8"));
    }
    if head[..head.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
    {
        return found(Format::Pdf, None);
    }
    for (magic, what) in MAGIC {
        if head.starts_with(magic) {
            let lower = path.to_ascii_lowercase();
            if magic.starts_with(b"PK") && (lower.ends_with(".catz") || lower.ends_with(".gstz")) {
                // BattleScribe's zipped data: the bsdata record source unzips it; this is only
                // seen when that failed (its B007 says why).
                return found(
                    Format::Media,
                    Some("zipped BattleScribe data (.catz/.gstz) that could not be unzipped"),
                );
            }
            return found(Format::Media, Some(what));
        }
    }
    if looks_binary(head) {
        return found(Format::Binary, None);
    }
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let trimmed = trim_start(text);
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let ext = ext.as_deref().unwrap_or("");
    // Every needle starts with `<`: jump from one `<` to the next.
    let has = |needle: &[u8]| {
        memchr::memchr_iter(b'<', text).any(|at| {
            text.get(at..at + needle.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(needle))
        })
    };
    if trimmed.starts_with(b"<") {
        match root_element(trimmed) {
            Some(root) if root.eq_ignore_ascii_case(b"html") => return found(Format::Html, None),
            Some(b"catalogue") => return found(Format::Xml, Some("BattleScribe catalogue")),
            Some(b"gameSystem") => return found(Format::Xml, Some("BattleScribe game system")),
            _ => {}
        }
        if has(b"<html") || has(b"<!doctype html") {
            return found(Format::Html, None);
        }
        if trimmed.starts_with(b"<?xml") || matches!(ext, "xml" | "cat" | "gst" | "svg") {
            return found(Format::Xml, None);
        }
        if matches!(ext, "html" | "htm") || has(b"<body") || has(b"<div") {
            return found(Format::Html, None);
        }
    }
    if matches!(ext, "html" | "htm") && (has(b"<body") || has(b"<div")) {
        return found(Format::Html, None);
    }
    if let Some(detail) = battlescribe_json(trimmed) {
        // Read whole by the BattleScribe record source (`B008` when it is not well-formed):
        // not parsed a second time here.
        return found(Format::Json, Some(detail));
    }
    if (trimmed.starts_with(b"{") || trimmed.starts_with(b"["))
        && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
    {
        return found(Format::Json, None);
    }
    // YAML by its name, or by its `%YAML` directive (a `---` line alone is Markdown front matter
    // or a rule in a dump, so it is not enough).
    if matches!(ext, "yaml" | "yml") || trimmed.starts_with(b"%YAML") {
        return found(Format::Yaml, None);
    }
    match ext {
        "md" | "markdown" => return found(Format::Markdown, None),
        "csv" | "tsv" => return found(Format::Csv, None),
        "json" => return found(Format::Json, Some("not valid JSON")),
        "xml" | "cat" | "gst" => return found(Format::Xml, Some("not well-formed")),
        "txt" | "text" => return found(Format::Text, None),
        _ => {}
    }
    if looks_delimited(text) {
        return found(Format::Csv, None);
    }
    if looks_markdown(text) {
        return found(Format::Markdown, None);
    }
    found(Format::Text, None)
}

/// BattleScribe data serialized as JSON (New Recruit's format): an object whose first key is
/// `catalogue` or `gameSystem` and whose value is an object. `text` starts at the first
/// non-blank byte; only its first bytes are looked at.
pub fn battlescribe_json(text: &[u8]) -> Option<&'static str> {
    let rest = trim_start(text.strip_prefix(b"{")?);
    let (rest, detail) = if let Some(r) = rest.strip_prefix(b"\"catalogue\"") {
        (r, "BattleScribe catalogue (JSON)")
    } else {
        (
            rest.strip_prefix(b"\"gameSystem\"")?,
            "BattleScribe game system (JSON)",
        )
    };
    let rest = trim_start(trim_start(rest).strip_prefix(b":")?);
    rest.starts_with(b"{").then_some(detail)
}

/// Markdown without a `.md` name: the first non-empty line is an ATX heading (`# Title`) and a
/// second heading or a table delimiter row (`|---|---|`) follows within the first 200 lines.
/// Bold words and tab tables alone are not enough: the PDF text dumps (seed 002) have both and
/// are read line by line as text; a `.txt` name always means text.
fn looks_markdown(text: &[u8]) -> bool {
    let is_heading = |l: &[u8]| {
        let n = l.iter().take_while(|&&c| c == b'#').count();
        (1..=6).contains(&n) && l.get(n) == Some(&b' ')
    };
    let is_delimiter_row = |l: &[u8]| {
        l.contains(&b'|')
            && l.contains(&b'-')
            && l.iter()
                .all(|c| matches!(c, b'|' | b'-' | b':' | b' ' | b'\t' | b'\r'))
    };
    let mut lines = text
        .split(|&c| c == b'\n')
        .map(trim_start)
        .filter(|l| !l.is_empty())
        .take(200);
    match lines.next() {
        Some(first) if is_heading(first) => lines.any(|l| is_heading(l) || is_delimiter_row(l)),
        _ => false,
    }
}

/// Magic numbers of formats that are never text: images, archives, office documents.
const MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xFF\xD8\xFF", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"RIFF", "RIFF container (WebP, WAV, AVI)"),
    (b"PK\x03\x04", "ZIP archive or office document"),
    (b"PK\x05\x06", "ZIP archive (empty)"),
    (b"\x1F\x8B", "gzip archive"),
    (b"BZh", "bzip2 archive"),
    (b"\xFD7zXZ\x00", "xz archive"),
    (b"7z\xBC\xAF\x27\x1C", "7-Zip archive"),
    (
        b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1",
        "legacy office document",
    ),
    (b"\x7FELF", "executable"),
];

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

/// The name of the first element of markup (skipping `<?…?>`, comments and `<!DOCTYPE …>`).
fn root_element(mut b: &[u8]) -> Option<&[u8]> {
    for _ in 0..64 {
        b = trim_start(b);
        if b.starts_with(b"<?") || b.starts_with(b"<!") {
            let end = if b.starts_with(b"<!--") {
                b.windows(3).position(|w| w == b"-->").map(|i| i + 3)
            } else {
                b.iter().position(|&c| c == b'>').map(|i| i + 1)
            };
            b = &b[end?..];
            continue;
        }
        let rest = b.strip_prefix(b"<")?;
        let n = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b':' | b'-' | b'_'))
            .count();
        return (n > 0).then(|| &rest[..n]);
    }
    None
}

/// Delimited values: at least three lines, every one of the first ten non-empty lines with the
/// same number (two or more) of one delimiter. The text dumps' pipe tables fail this: their
/// table rows are interleaved with plain lines.
fn looks_delimited(text: &[u8]) -> bool {
    let lines: Vec<&[u8]> = text
        .split(|&c| c == b'\n')
        .filter(|l| !trim_start(l).is_empty())
        .take(10)
        .collect();
    if lines.len() < 3 {
        return false;
    }
    [b'|', b',', b';', b'\t'].iter().any(|&d| {
        let count = |l: &[u8]| l.iter().filter(|&&c| c == d).count();
        let first = count(lines[0]);
        first >= 2 && lines.iter().all(|l| count(l) == first)
    })
}

/// NUL bytes, or more than 10% control characters other than whitespace.
fn looks_binary(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return true;
    }
    // Counted in byte lanes, 255 bytes at a time (the compiler vectorizes the `u8` sum).
    let control: usize = bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| n + u8::from(is_control(b)));
            usize::from(n)
        })
        .sum();
    !bytes.is_empty() && control * 10 > bytes.len()
}

/// A control byte of binary data: below space, and not a line break, tab or form feed.
fn is_control(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c)
}

/// Decodes `src` with the decoder registered for its detected format. A format without a
/// decoder is skipped by name (`S007`); bytes no detector recognises are `S003`.
pub fn decode(src: &SourceFile) -> Decoded {
    decode_shared(src, &Shared::default())
}

/// [`decode`], with what the decoders of this run share.
pub fn decode_shared(src: &SourceFile, shared: &Shared) -> Decoded {
    let mut diagnostics = Vec::new();
    if src.bytes.iter().all(|b| b.is_ascii_whitespace()) {
        diagnostics.push(Diagnostic::new(Code::SourceEmpty, "empty input").in_file(&src.path));
        return Decoded {
            format: Format::Unknown,
            document: None,
            diagnostics,
        };
    }
    let sniffed = sniff(&src.bytes, &src.path);
    let format = sniffed.format;
    let document = match decoder_for(format) {
        Some(decode) => {
            let doc = decode(src, shared, &mut diagnostics);
            // A PDF with nothing readable (`S015`, `S016`) is skipped, not read as empty text.
            (format != Format::Pdf || !doc.blocks.is_empty()).then_some(doc)
        }
        None if format == Format::Binary => {
            diagnostics.push(
                Diagnostic::new(
                    Code::SourceBinary,
                    "binary content (NUL bytes or control characters), skipped",
                )
                .in_file(&src.path),
            );
            None
        }
        None => {
            let detail = sniffed
                .detail
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownFormat,
                    format!("format not supported yet: {}{detail}", format.as_str()),
                )
                .in_file(&src.path),
            );
            None
        }
    };
    Decoded {
        format,
        document,
        diagnostics,
    }
}

/// The text of one line of a markup source, for showing it (`cogitator explain`'s excerpts):
/// tags removed (each a space), then entities decoded (`&quot;`, `&#34;`, `&nbsp;`; a line
/// with an unknown one is left as it is), white space collapsed.
pub fn line_text(l: &str) -> String {
    let mut plain = String::new();
    let mut in_tag = false;
    for c in l.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                plain.push(' ');
            }
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let entity = |e: &str| match e {
        "nbsp" => Some(" "),
        e => quick_xml::escape::resolve_xml_entity(e),
    };
    let plain = quick_xml::escape::unescape_with(&plain, entity)
        .map(|c| c.into_owned())
        .unwrap_or(plain);
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
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

/// The non-empty lines of a text: a bound on the blocks the line-based decoders (text,
/// Markdown) make of it, so their block vector is sized once instead of grown by doubling.
pub(crate) fn non_empty_lines(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunked count is the plain count, at every length around the chunks' edges and
    /// every share of control bytes around the 10% line.
    #[test]
    fn binary_detection_counts_control_bytes_as_the_plain_count() {
        let reference = |bytes: &[u8]| {
            let control = bytes.iter().filter(|&&b| is_control(b)).count();
            bytes.contains(&0) || (!bytes.is_empty() && control * 10 > bytes.len())
        };
        let mut seen = [false; 2];
        for len in [
            0, 1, 9, 10, 11, 254, 255, 256, 509, 510, 511, 1000, 2550, 2551,
        ] {
            for every in [2, 7, 9, 10, 11, 13, 50] {
                for control in [0x01u8, 0x1f, b'\n', b'\t'] {
                    let bytes: Vec<u8> = (0..len)
                        .map(|i| if i % every == 0 { control } else { b'a' })
                        .collect();
                    assert_eq!(
                        looks_binary(&bytes),
                        reference(&bytes),
                        "{len} {every} {control}"
                    );
                    seen[usize::from(reference(&bytes))] = true;
                }
            }
        }
        assert_eq!(seen, [true, true], "both answers are tried");
    }

    fn format(bytes: &[u8], path: &str) -> Format {
        sniff(bytes, path).format
    }

    #[test]
    fn formats_are_detected_by_content_first() {
        assert_eq!(format(b"%PDF-1.7\n%\xE2\xE3", "x.txt"), Format::Pdf);
        assert_eq!(format(b"\xFF\xFEa\0b\0", "notes.txt"), Format::Utf16);
        assert_eq!(format(b"\x89PNG\r\n\x1a\nrest", "a.html"), Format::Media);
        assert_eq!(format(b"PK\x03\x04....", "a.txt"), Format::Media);
        assert_eq!(format(b"ab\0cd", "a.txt"), Format::Binary);
        let cat = b"<?xml version=\"1.0\"?>\n<catalogue id=\"x\" name=\"Imperium\"></catalogue>";
        assert_eq!(
            sniff(cat, "a.txt"),
            Sniffed {
                format: Format::Xml,
                detail: Some("BattleScribe catalogue")
            }
        );
        assert_eq!(format(b"<gameSystem/>", "x"), Format::Xml);
        assert_eq!(format(b"<?xml version=\"1.0\"?><root/>", "x"), Format::Xml);
        assert_eq!(
            format(
                b"\xEF\xBB\xBF<!DOCTYPE html><html><body>x</body></html>",
                "x.dat"
            ),
            Format::Html
        );
        assert_eq!(
            format(b"<div class=\"dsH2\">Boyz</div>", "page.html"),
            Format::Html
        );
        assert_eq!(
            format(b"{\"tool\": \"cogitator\"}", "manifest"),
            Format::Json
        );
        assert_eq!(format(b"[1, 2]", "a.txt"), Format::Json);
        // BattleScribe JSON by its first key, without a full parse (a truncated one too).
        for (json, detail) in [
            (
                &b"{\n  \"catalogue\": {\n \"id\": \"x\""[..],
                "BattleScribe catalogue (JSON)",
            ),
            (
                b"\xEF\xBB\xBF { \"gameSystem\" :{}}",
                "BattleScribe game system (JSON)",
            ),
        ] {
            assert_eq!(
                sniff(json, "a.txt"),
                Sniffed {
                    format: Format::Json,
                    detail: Some(detail)
                }
            );
        }
        assert_eq!(
            sniff(b"{\"name\": {\"catalogue\": {}}}", "x.json").detail,
            None
        );
        assert_eq!(sniff(b"{\"catalogue\": \"x\"}", "x.json").detail, None);
        // Points data as YAML is structured data, never a text dump (it gave 228 rules).
        assert_eq!(
            format(b"name: Necrons\nversion: 1.1\n", "necrons.yaml"),
            Format::Yaml
        );
        assert_eq!(format(b"%YAML 1.2\n---\na: 1\n", "points"), Format::Yaml);
        assert_eq!(
            format(b"---\ntitle: x\n---\n# Rules\n", "rules.md"),
            Format::Markdown
        );
    }

    #[test]
    fn text_dumps_stay_text() {
        // A weapon table of a text dump: pipe rows among plain lines, not delimited values.
        let dump = b"RANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n\
            Storm bolter [rapid fire 2] | |||||||\n\
            Storm bolter [rapid fire 2] | 24\" | 2 | 2+ | 4 | 0 | 1 | |\n\
            ABILITIES\nCORE: Deep Strike\n";
        assert_eq!(format(dump, "000.txt"), Format::Text);
        assert_eq!(format(dump, "000"), Format::Text);
        // A bracketed first line that is not JSON is text.
        assert_eq!(format(b"[ Warhammer ]\nrules text", "x"), Format::Text);
        assert_eq!(format(b"# Title\n\ntext", "rules.md"), Format::Markdown);
        // Markdown by content only with a heading first and a second heading or a table.
        assert_eq!(
            format(b"# Title\n\n## Part\ntext", "rules"),
            Format::Markdown
        );
        assert_eq!(
            format(b"# A\n| a | b |\n|---|---|\n", "rules"),
            Format::Markdown
        );
        assert_eq!(
            format(b"# Title\n\n## Part\ntext", "rules.txt"),
            Format::Text
        );
        assert_eq!(format(b"# Title\n\ntext", "rules"), Format::Text);
        assert_eq!(
            format(b"Game: **W40K**\n\n# Head\n## B\n", "002"),
            Format::Text
        );
        assert_eq!(format(b"#hashtag\n## B\n", "x"), Format::Text);
    }

    #[test]
    fn delimited_values_are_csv() {
        let csv = b"id|name|link|\n000000001|Boyz|x|\n000000002|Nobz|y|\n";
        assert_eq!(format(csv, "Datasheets.csv"), Format::Csv);
        assert_eq!(format(csv, "Datasheets"), Format::Csv);
        assert_eq!(format(b"a,b,c\n1,2,3\n4,5,6\n", "t"), Format::Csv);
    }

    #[test]
    fn unsupported_formats_are_skipped_by_name_never_read() {
        let src = SourceFile::new("bs/Tyranids.cat", b"<?xml version=\"1.0\"?>\n<catalogue name=\"Tyranids\"><rule name=\"Synapse\"><description>text</description></rule></catalogue>".to_vec());
        let d = decode(&src);
        assert!(d.document.is_none());
        assert_eq!(d.format, Format::Xml);
        assert_eq!(d.diagnostics.len(), 1);
        assert_eq!(d.diagnostics[0].code, "S007");
        assert!(d.diagnostics[0]
            .message
            .contains("xml (BattleScribe catalogue)"));
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("Deep Strike".encode_utf16().flat_map(|u| u.to_le_bytes()))
            .collect();
        let d = decode(&SourceFile::new("u.txt", utf16));
        assert_eq!(d.format, Format::Utf16);
        assert_eq!(d.diagnostics[0].code, "S007", "UTF-16 is text, not binary");
        let d = decode(&SourceFile::new("b.bin", vec![0, 1, 2, 3]));
        assert_eq!(d.diagnostics[0].code, "S003");
    }
}
