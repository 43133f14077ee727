//! Decoder for scraped Wahapedia pages: a lean tree of the page (`tree`: html5ever's tree
//! builder, so the same shape as a browser's or `scraper`'s, keeping only what is read)
//! rendered into IR blocks (`render`). Submodules: `tokenize` (a byte-level tokenizer feeding
//! the tree builder; html5ever's own tokenizer is its fallback), `build` (the fast tree
//! builder), `tree` (parse), `memo` (repeated glossary and chrome containers), `render` (the
//! site's markup → blocks), `fragment` (HTML inside fields of structured sources, with
//! `scraper`).
//!
//! Owns everything about the site's markup and nothing about the game: it knows that a
//! `dsProfileWrap` holds characteristic values, that a weapon row's abilities are the `kwb2`
//! spans of its name cell, that `tooltip_templates` hold the glossary, and renders each into
//! blocks with a typed class hint ([`ClassHint`](crate::ir::ClassHint), e.g. `ClassHint::DsProfile`) and a
//! [`Region`](crate::ir::Region); what the values *mean* is `extract`'s business. The markup's class names are
//! read as strings only here, into the `render::cls` bit set; what leaves the decoder is the
//! enum.
//!
//! Both scrapers' quirks are absorbed here: the re-serialized pages' injected consent scripts,
//! `&#34;` inch marks and `<="" div="">` debris, the raw pages' BOM and malformed
//! `data-tooltip-content="…"</div>` tags (html5ever recovers both), class names spelled with a
//! Cyrillic `С` (`dsLeftСol`), keywords split into one span per word, in any case, sometimes
//! wrapped in literal brackets. Tooltip ids are per-page numbers and are never used.
//!
//! Lines: the tree keeps no source positions, so a [`Locator`] walks the raw text forward in
//! document order and gives each block the line where its first word next occurs: the line of
//! the element (or, for markup without text, of the nearest text before it).
//!
//! Depth: the renderer never recurses on the input's depth. It walks the tree with an explicit
//! stack of tasks (`render::Task`) and reads text with an iterative pre-order walk, so a page costs
//! heap, not call stack, however deep it nests (rayon's workers have 2 MiB of stack). The
//! tokenizer counts open tags as it reads them (a [`DepthCounter`]; [`limit_depth`], a linear
//! byte-level scan with the same counter, does it for fragments and html5ever's tokenizer); a
//! start tag that would nest deeper than [`MAX_DEPTH`] (512; real pages: 18), or open more
//! than [`MAX_FORMATTING`] formatting elements (32; real pages: 2), is read as text with its
//! end tag, and the page gets one `S013` warning. That keeps html5ever's tree builder linear (its
//! scope checks walk the stack of open elements, quadratic on 40,000 nested `<div>`s; each
//! open formatting element is re-opened in every later paragraph) and the tree shallow.
//!
//! Repeats: a glossary or chrome container printed before (in this page or an earlier one of
//! the run) is not read again but replayed from the run's [`memo`], to the same blocks and lines.
//!
//! Memory: the page's text is borrowed from the input bytes when valid UTF-8 and tokenized in
//! place (each text run a range of the page), and the tree holds 40 bytes a node (about 2.6
//! times a tag-dense page in all, the page included, against 8.7 for `scraper`'s DOM;
//! `notes/stream-html.md`, `notes/stream-html3.md`).
//!
//! Architecture invariant: never panics on any input; never drops text silently (site chrome
//! is counted in `chrome_dropped`).

use crate::diag::{Code, Diagnostic};
use crate::ir::Document;
use crate::source::{Format, SourceFile};
use std::collections::HashSet;

mod build;
mod fragment;
#[cfg(test)]
mod legacy;
pub mod memo;
mod render;
mod tokenize;
mod tree;

pub use fragment::{fragment_blocks, fragment_blocks_counted, fragment_lines, fragment_text};

/// Where the byte-level tokenizer's tree and html5ever's tokenizer's tree of `text` first
/// differ (`None`: the same tree). For the `html_tokenizers` fuzz target only (feature
/// `fuzzing`): the tests compare the two on the corpus, the fixtures and a list of traps; the
/// fuzz target on any text.
#[cfg(feature = "fuzzing")]
pub fn tokenizers_differ(text: &str) -> Option<String> {
    tree::tokenizers_differ(text)
}

/// Where `text` decoded with a memo differs from `text` decoded without one (`None`: the same
/// document and diagnostics). The page is decoded twice with one memo, so that the second time
/// every container that qualifies is read from it. For the fuzz targets only (feature
/// `fuzzing`): the tests compare the two on the corpus and a list of traps.
#[cfg(feature = "fuzzing")]
pub fn memo_differs(text: &str) -> Option<String> {
    let src = SourceFile::new("fuzz.html", text.as_bytes().to_vec());
    let decoded = |memo: Option<&memo::Memo>| {
        let mut diagnostics = Vec::new();
        let doc = decode_with_memo(&src, memo, &mut diagnostics);
        format!(
            "{}\n{}",
            serde_json::to_string(&doc).unwrap_or_default(),
            serde_json::to_string(&diagnostics).unwrap_or_default()
        )
    };
    let without = decoded(None);
    let memo = memo::Memo::new();
    for round in 0..2 {
        let with = decoded(Some(&memo));
        if with != without {
            return Some(format!(
                "round {round} with the memo ({:?}):\n{with}\nwithout:\n{without}",
                memo.stats()
            ));
        }
    }
    None
}

/// The tree the renderer reads: the lean arena of [`tree`].
mod dom {
    pub use super::tree::{ElementRef, Node};

    /// The known classes of `el` as bits (see `render::cls`), read when the page was parsed.
    pub fn flags(el: &ElementRef) -> u64 {
        el.value().flags
    }

    /// One of the attributes the tree keeps (`href`, `title`, `style`).
    pub fn attr<'a>(el: &ElementRef<'a>, name: &str) -> Option<&'a str> {
        el.attr(name)
    }

    /// The recorded rendering of `el`'s subtree, when it was read from the memo.
    pub fn memo<'a>(el: &ElementRef<'a>) -> Option<&'a super::render::Recorded> {
        el.memo()
    }

    pub fn has_classes(el: &ElementRef) -> bool {
        el.value().has_classes
    }

    /// The text of a text node.
    pub fn text<'a>(n: &super::tree::NodeRef<'a>) -> Option<&'a str> {
        n.text()
    }

    pub fn tag<'a>(el: &ElementRef<'a>) -> &'a str {
        el.value().name()
    }

    /// Whether an element before `el` among its siblings satisfies `f`.
    pub fn any_earlier_sibling(el: &ElementRef, f: impl Fn(&ElementRef) -> bool) -> bool {
        el.earlier_siblings()
            .filter_map(ElementRef::wrap)
            .any(|s| f(&s))
    }
}

/// Decodes one HTML page.
pub fn decode(src: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Document {
    decode_with_memo(src, None, diagnostics)
}

/// Decodes one HTML page, its glossary subtrees read from `memo` (shared by the pages of one
/// run: [`memo`]) where they qualify. The blocks are the same with or without it.
pub fn decode_with_memo(
    src: &SourceFile,
    memo: Option<&memo::Memo>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Document {
    let text = super::text_of(src, diagnostics);
    let (tree, as_text) = tree::parse(&text, memo);
    if as_text.tags > 0 {
        diagnostics.push(too_deep(as_text.tags).at(&src.path, as_text.first_line));
    }
    let r = render::render_page(tree.root_element(), &text);
    drop(tree);
    if looks_truncated(&text) {
        diagnostics.push(
            Diagnostic::new(Code::TruncatedInput, "document ends before </html>")
                .at(&src.path, r.last_line),
        );
    }
    Document {
        file: src.path.clone(),
        sha256: src.sha256.clone(),
        format: Format::Html,
        blocks: r.blocks,
        chrome_dropped: r.chrome,
        meta: r.meta,
    }
}

/// The line (1-based) of byte `offset` of `text`.
fn line_at(text: &str, offset: usize) -> u32 {
    let before = text.as_bytes().get(..offset).unwrap_or_default();
    1 + memchr::memchr_iter(b'\n', before).count() as u32
}

/// The page's one `S013` warning, for `tags` tags past the limits read as text.
fn too_deep(tags: usize) -> Diagnostic {
    Diagnostic::new(
        Code::DocumentTooDeep,
        format!(
            "markup nested too deep (more than {MAX_DEPTH} elements or {MAX_FORMATTING} \
             formatting elements open); {tags} tag(s) past the limit read as text"
        ),
    )
}

/// How deep the decoder lets elements nest (open tags, as [`limit_depth`] counts them). The
/// corpus nests at most 18 deep by this count (23 in the parsed tree); a tag past the limit
/// is read as text (`S013`), which keeps html5ever's tree builder linear (its scope checks
/// walk the stack of open elements) and the tree shallow.
pub const MAX_DEPTH: usize = 512;

/// What [`limit_depth`] found: the deepest nesting it counted (up to the limit), and the
/// byte offsets of the `<` of every tag it neutralized.
#[derive(Debug, Default)]
pub struct DepthScan {
    pub max_depth: usize,
    /// The most formatting elements (`b`, `a`, `font`…) counted open at once.
    pub max_formatting: usize,
    pub neutralized: Vec<usize>,
}

/// How many formatting elements may be open at once. The parser re-opens every open
/// formatting element in each new block ("reconstruct the active formatting elements"), so
/// each one left open copies itself into every later paragraph: `<p><b id=1>x</p><p><b id=2>…`
/// builds a quadratic tree. The corpus leaves at most 2 open.
pub const MAX_FORMATTING: usize = 32;

/// Elements that never have contents, and elements a sibling of their own kind closes
/// implicitly (`<p>…<p>`, `<li>…<li>`): the latter only nest inside other elements, which are
/// counted, so they are not counted themselves (a page that leaves them open is not deep).
/// ([`depth_kind`] reads this list and the two below in one `match`; the tests hold it to
/// them.)
#[cfg(test)]
fn is_void_or_self_closing(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
            | "keygen"
            | "basefont"
            | "bgsound"
            | "frame"
            | "image"
            | "p"
            | "li"
            | "dt"
            | "dd"
            | "td"
            | "th"
            | "tr"
            | "tbody"
            | "thead"
            | "tfoot"
            | "option"
            | "optgroup"
            | "rb"
            | "rt"
            | "rp"
            | "rtc"
            | "colgroup"
            | "caption"
    )
}

/// The formatting elements of the HTML parsing algorithm (the tree builder's list of active
/// formatting elements; also the tags whose every attribute the tokenizer keeps).
fn is_formatting(name: &str) -> bool {
    matches!(
        name,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
}

/// Elements whose contents are raw text up to their end tag.
#[cfg(test)]
fn is_raw_text(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "textarea"
            | "title"
            | "xmp"
            | "iframe"
            | "noembed"
            | "noframes"
            | "noscript"
    )
}

/// What [`limit_depth`] does with a tag, by its (lower-case) name: the lists above, read in
/// one `match` on the name's length and then on the name (a few comparisons for `div` and
/// `span`, not sixty; the scan runs for every tag of every page).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DepthKind {
    /// [`is_void_or_self_closing`]: not counted.
    Uncounted,
    /// [`is_formatting`].
    Formatting,
    /// [`is_raw_text`].
    RawText,
    Svg,
    Math,
    Plaintext,
    Other,
}

fn depth_kind(name: &str) -> DepthKind {
    use DepthKind::*;
    match name.len() {
        1 => match name {
            "a" | "b" | "i" | "s" | "u" => Formatting,
            "p" => Uncounted,
            _ => Other,
        },
        2 => match name {
            "br" | "hr" | "li" | "dt" | "dd" | "td" | "th" | "tr" | "rb" | "rt" | "rp" => Uncounted,
            "em" | "tt" => Formatting,
            _ => Other,
        },
        3 => match name {
            "div" => Other,
            "col" | "img" | "wbr" | "rtc" => Uncounted,
            "big" => Formatting,
            "xmp" => RawText,
            "svg" => Svg,
            _ => Other,
        },
        4 => match name {
            "span" => Other,
            "area" | "base" | "link" | "meta" => Uncounted,
            "code" | "font" | "nobr" => Formatting,
            "math" => Math,
            _ => Other,
        },
        5 => match name {
            "embed" | "input" | "param" | "track" | "frame" | "image" | "tbody" | "thead"
            | "tfoot" => Uncounted,
            "small" => Formatting,
            "style" | "title" => RawText,
            _ => Other,
        },
        6 => match name {
            "source" | "keygen" | "option" => Uncounted,
            "strike" | "strong" => Formatting,
            "script" | "iframe" => RawText,
            _ => Other,
        },
        7 => match name {
            "bgsound" | "caption" => Uncounted,
            "noembed" => RawText,
            _ => Other,
        },
        8 => match name {
            "basefont" | "optgroup" | "colgroup" => Uncounted,
            "textarea" | "noframes" | "noscript" => RawText,
            _ => Other,
        },
        9 => match name {
            "plaintext" => Plaintext,
            _ => Other,
        },
        _ => Other,
    }
}

/// The counting of open tags behind the depth limits, tag by tag: the byte-level scan
/// [`limit_depth`] (for fragments and html5ever's tokenizer) and the page tokenizer
/// ([`tokenize`], as it reads each tag) both ask it, so both read a page past the limits the
/// same way. Names are lower-case.
#[derive(Default)]
struct DepthCounter {
    limit: usize,
    depth: usize,
    /// Open `svg` and `math` elements.
    foreign: usize,
    /// Open formatting elements (outside foreign content).
    formatting: usize,
    /// Names of the start tags read as text, innermost last: a matching end tag is text too.
    held: Vec<String>,
    max_depth: usize,
    max_formatting: usize,
}

/// What a start tag is, to the counter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Opened {
    /// Past a limit: the tag is read as text.
    AsText,
    /// Counted open.
    Counted(DepthKind),
    /// Not counted (void, implicitly closed, or self-closing in foreign content).
    Uncounted,
}

impl DepthCounter {
    fn new(limit: usize) -> Self {
        DepthCounter {
            limit,
            ..DepthCounter::default()
        }
    }

    /// A start tag.
    fn start(&mut self, name: &str, self_closing: bool) -> Opened {
        let kind = depth_kind(name);
        if kind == DepthKind::Uncounted {
            return Opened::Uncounted;
        }
        let svg_or_math = matches!(kind, DepthKind::Svg | DepthKind::Math);
        let is_formatting = self.foreign == 0 && kind == DepthKind::Formatting;
        if self_closing && (self.foreign > 0 || svg_or_math) {
            return Opened::Uncounted;
        }
        if self.depth >= self.limit || (is_formatting && self.formatting >= MAX_FORMATTING) {
            self.held.push(name.to_string());
            return Opened::AsText;
        }
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        if svg_or_math {
            self.foreign += 1;
        }
        if is_formatting {
            self.formatting += 1;
            self.max_formatting = self.max_formatting.max(self.formatting);
        }
        Opened::Counted(kind)
    }

    /// An end tag: whether it is read as text (it closes a start tag read as text).
    fn end(&mut self, name: &str) -> bool {
        let kind = depth_kind(name);
        if kind == DepthKind::Uncounted {
            return false;
        }
        if self.held.last().map(String::as_str) == Some(name) {
            self.held.pop();
            return true;
        }
        self.depth = self.depth.saturating_sub(1);
        if matches!(kind, DepthKind::Svg | DepthKind::Math) {
            self.foreign = self.foreign.saturating_sub(1);
        }
        if self.foreign == 0 && kind == DepthKind::Formatting {
            self.formatting = self.formatting.saturating_sub(1);
        }
        false
    }
}

/// A linear byte-level scan of the tags of `text` (comments, doctypes, raw-text elements and
/// void elements skipped; `/>` honoured inside `svg` and `math` only, as the parser does),
/// estimating how deep open elements nest. Start tags that would nest deeper than `limit`
/// are collected, with the end tags that close them, to be read as text. Never recurses.
/// (The page tokenizer counts the tags it reads with the same [`DepthCounter`].)
pub fn limit_depth(text: &str, limit: usize) -> DepthScan {
    let b = text.as_bytes();
    let mut scan = DepthScan::default();
    let mut counter = DepthCounter::new(limit);
    // One buffer for every tag name (lower-cased), so the scan allocates nothing per tag.
    let mut name_buf = String::new();
    let mut i = 0;
    while let Some(off) = b.get(i..).and_then(|t| memchr::memchr(b'<', t)) {
        let lt = i + off;
        let rest = &b[lt + 1..];
        if rest.starts_with(b"!--") {
            match find(b, lt + 2, b"-->") {
                Some(e) => i = e + 3,
                None => break,
            }
            continue;
        }
        if rest.first().is_some_and(|&c| c == b'!' || c == b'?') {
            match find(b, lt + 1, b">") {
                Some(e) => i = e + 1,
                None => break,
            }
            continue;
        }
        let end_tag = rest.first() == Some(&b'/');
        let name_at = lt + 1 + usize::from(end_tag);
        if !b.get(name_at).is_some_and(u8::is_ascii_alphabetic) {
            i = lt + 1;
            continue;
        }
        let name_end = b[name_at..]
            .iter()
            .position(|&c| c.is_ascii_whitespace() || c == b'/' || c == b'>')
            .map_or(b.len(), |p| name_at + p);
        let raw = text.get(name_at..name_end).unwrap_or_default();
        let name = if raw.bytes().any(|c| c.is_ascii_uppercase()) {
            name_buf.clear();
            name_buf.push_str(raw);
            name_buf.make_ascii_lowercase();
            name_buf.as_str()
        } else {
            raw
        };
        let Some(gt) = tag_end(b, name_end) else {
            break;
        };
        i = gt + 1;
        let self_closing = gt > 0 && b[gt - 1] == b'/';
        if end_tag {
            if counter.end(name) {
                scan.neutralized.push(lt);
            }
            continue;
        }
        match counter.start(name, self_closing) {
            Opened::AsText => scan.neutralized.push(lt),
            Opened::Counted(DepthKind::RawText) if counter.foreign == 0 => {
                // Contents up to the matching end tag are text; the end tag closes the element.
                let close = format!("</{name}");
                match find_ignore_case(b, i, close.as_bytes()) {
                    Some(e) => {
                        counter.depth -= 1;
                        i = tag_end(b, e + close.len()).map_or(b.len(), |g| g + 1);
                    }
                    None => break,
                }
            }
            Opened::Counted(DepthKind::Plaintext) if counter.foreign == 0 => break,
            _ => {}
        }
    }
    scan.max_depth = counter.max_depth;
    scan.max_formatting = counter.max_formatting;
    scan
}

/// The `>` ending a tag whose name ends at `from`, quoted attribute values skipped.
fn tag_end(b: &[u8], from: usize) -> Option<usize> {
    // Jumps from one `>` or quote to the next instead of stepping a state machine per byte
    // (attribute values such as Wahapedia's `data-tooltip-content` are long); the same result
    // as the byte-by-byte reading (`tests::tag_end_matches_the_byte_by_byte_reading`).
    let mut i = from;
    // The last byte before `i` that is not whitespace, as far as it matters (`=` or not).
    let mut prev = b' ';
    loop {
        let rest = b.get(i..)?;
        let k = memchr::memchr3(b'>', b'"', b'\'', rest)?;
        let c = rest[k];
        if let Some(&p) = rest[..k].iter().rev().find(|c| !c.is_ascii_whitespace()) {
            prev = p;
        }
        if c == b'>' {
            return Some(i + k);
        }
        if prev == b'=' {
            // A quote opens a value only after `=` (with optional spaces): skip to its end.
            let close = memchr::memchr(c, &rest[k + 1..])?;
            i += k + 1 + close + 1;
        } else {
            i += k + 1;
        }
        prev = c;
    }
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(b.get(from..)?, needle).map(|p| from + p)
}

fn find_ignore_case(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|p| from + p)
}

/// `text` with the `<` at each of `offsets` (ascending) written `&lt;`: those tags become text.
fn neutralize(text: &str, offsets: &[usize]) -> String {
    let mut out = String::with_capacity(text.len() + 3 * offsets.len());
    let mut from = 0;
    for &o in offsets {
        out.push_str(&text[from..o]);
        out.push_str("&lt;");
        from = o + 1;
    }
    out.push_str(&text[from..]);
    out
}

/// The bare parse this decoder builds on, for benchmarks: `scraper::Html::parse_document`
/// over the text, returning the number of DOM nodes (so the work cannot be optimised away).
pub fn parse_only(text: &str) -> usize {
    scraper::Html::parse_document(text).tree.nodes().count()
}

/// A page that has a `<body>` but no closing `</html>` (or `</body>`) was cut short.
fn looks_truncated(text: &str) -> bool {
    let tail = &text[floor_char_boundary(text, text.len().saturating_sub(4096))..];
    let lower_tail = tail.to_ascii_lowercase();
    let has_body = text.len() > 64
        && text
            .get(..text.len().min(1 << 20))
            .is_some_and(|h| h.contains("<body") || h.contains("<BODY") || h.contains("<div"));
    has_body && !lower_tail.contains("</html>") && !lower_tail.contains("</body>")
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Finds the source line of blocks by searching forward from the last found position. The
/// cursor only moves forward and the line is counted on the way, so the whole page is scanned
/// about once and nothing is indexed per line (a page of newlines costs no memory).
pub struct Locator<'t> {
    text: &'t str,
    cursor: usize,
    /// The line of `cursor`.
    line: u32,
    /// Needles a search did not find: the cursor only moves forward, so they are not found
    /// later either, and each costs one scan of the rest of the page, not one per block.
    missed: HashSet<String>,
    /// Recording (a subtree read on its own for the memo): the needles asked for, in order;
    /// each search answers its number (1-based) instead of a line, and the page's locator
    /// runs them where the subtree is used ([`memo`]).
    recorded: Option<Vec<Box<str>>>,
}

impl<'t> Locator<'t> {
    pub fn new(text: &'t str) -> Self {
        Locator {
            text,
            cursor: 0,
            line: 1,
            missed: HashSet::new(),
            recorded: None,
        }
    }

    /// A locator that records its searches (see [`Locator::recorded`]).
    pub fn recording() -> Locator<'static> {
        Locator {
            recorded: Some(Vec::new()),
            ..Locator::new("")
        }
    }

    /// The searches a recording locator was asked for.
    pub fn into_recorded(self) -> Vec<Box<str>> {
        self.recorded.unwrap_or_default()
    }

    fn line_count(&self) -> u32 {
        let rest = &self.text.as_bytes()[self.cursor..];
        self.line
            .saturating_add(rest.iter().filter(|&&b| b == b'\n').count() as u32)
    }

    /// Line of the next occurrence of `needle` at or after the cursor (which moves there);
    /// the cursor's line when it does not occur.
    pub fn find(&mut self, needle: &str) -> u32 {
        if let Some(recorded) = &mut self.recorded {
            recorded.push(needle.into());
            return u32::try_from(recorded.len()).unwrap_or(u32::MAX);
        }
        if needle.is_empty() || self.missed.contains(needle) {
            return self.line;
        }
        match memchr::memmem::find(&self.text.as_bytes()[self.cursor..], needle.as_bytes()) {
            Some(off) => {
                let passed = &self.text.as_bytes()[self.cursor..self.cursor + off];
                let newlines = memchr::memchr_iter(b'\n', passed).count();
                self.line = self.line.saturating_add(newlines as u32);
                self.cursor += off;
            }
            None => {
                self.missed.insert(needle.to_string());
            }
        }
        self.line
    }
}

/// Elements whose contents are never rendered (scripts, forms' controls, the head).
fn is_skipped(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "noscript"
            | "select"
            | "option"
            | "iframe"
            | "svg"
            | "template"
            | "input"
            | "button"
            | "textarea"
            | "head"
            | "link"
            | "meta"
    )
}

/// Whether `c` separates words for [`clean`]: Unicode whitespace or a non-breaking space.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{a0}'
}

/// Whether `s` is empty or only whitespace (`str::trim`'s whitespace; ASCII bytes are read
/// as bytes).
fn is_blank(s: &str) -> bool {
    let b = s.as_bytes();
    match b.iter().position(|c| !matches!(c, b'\t'..=b'\r' | b' ')) {
        None => true,
        Some(i) if b[i] < 0x80 => false,
        Some(i) => s.get(i..).is_some_and(|rest| rest.trim_start().is_empty()),
    }
}

/// Whitespace runs (including non-breaking spaces) collapsed to one space, trimmed.
fn clean(s: &str) -> String {
    // Each word (a maximal run of other characters) is copied whole, after one space unless it
    // is the first; ASCII is classified as bytes (`char::is_whitespace` on ASCII is `\t`..`\r`
    // and space), any other character is decoded and asked.
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let word = i;
        while let Some(&c) = b.get(i) {
            let width = if c < 0x80 {
                (!matches!(c, b'\t'..=b'\r' | b' ')).then_some(1)
            } else {
                s.get(i..)
                    .and_then(|rest| rest.chars().next())
                    .filter(|&ch| !is_space(ch))
                    .map(char::len_utf8)
            };
            let Some(width) = width else { break };
            i += width;
        }
        if i > word {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(s.get(word..i).unwrap_or_default());
        }
        // The space that ended the word.
        i += s
            .get(i..)
            .and_then(|rest| rest.chars().next())
            .map_or(1, char::len_utf8);
    }
    out
}

#[cfg(test)]
mod tests {
    /// Every string of up to five characters over an alphabet of ASCII and non-ASCII spaces
    /// and non-spaces: the byte-level `clean` and `is_blank` read them as the `char` readings
    /// they replaced.
    #[test]
    fn clean_reads_spaces_as_char_is_whitespace_does() {
        let alphabet = [
            ' ', 'a', '\u{a0}', '\u{2003}', '\t', '\r', 'é', '\u{85}', '\u{1c}', '\u{3000}', '中',
        ];
        let reference = |s: &str| {
            s.split(|c: char| c.is_whitespace() || c == '\u{a0}')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut strings = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = strings
                .iter()
                .filter(|s| s.chars().count() == strings.last().map_or(0, |l| l.chars().count()))
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(longer);
        }
        assert!(strings.len() > 160_000, "{}", strings.len());
        for s in &strings {
            assert_eq!(super::clean(s), reference(s), "{s:?}");
            assert_eq!(super::is_blank(s), s.trim().is_empty(), "{s:?}");
        }
    }

    #[test]
    fn depth_kinds_are_the_lists() {
        use super::{depth_kind, is_formatting, is_raw_text, is_void_or_self_closing, DepthKind};
        let names = [
            "area",
            "base",
            "br",
            "col",
            "embed",
            "hr",
            "img",
            "input",
            "link",
            "meta",
            "param",
            "source",
            "track",
            "wbr",
            "keygen",
            "basefont",
            "bgsound",
            "frame",
            "image",
            "p",
            "li",
            "dt",
            "dd",
            "td",
            "th",
            "tr",
            "tbody",
            "thead",
            "tfoot",
            "option",
            "optgroup",
            "rb",
            "rt",
            "rp",
            "rtc",
            "colgroup",
            "caption",
            "a",
            "b",
            "big",
            "code",
            "em",
            "font",
            "i",
            "nobr",
            "s",
            "small",
            "strike",
            "strong",
            "tt",
            "u",
            "script",
            "style",
            "textarea",
            "title",
            "xmp",
            "iframe",
            "noembed",
            "noframes",
            "noscript",
            "svg",
            "math",
            "plaintext",
            "div",
            "span",
            "ul",
            "table",
            "h2",
            "q",
            "abbr",
            "x-custom",
            "select",
            "label",
            "form",
            "section",
            "blockquote",
            "",
            "pre",
            "frameset",
        ];
        for n in names {
            let want = if is_void_or_self_closing(n) {
                DepthKind::Uncounted
            } else if is_formatting(n) {
                DepthKind::Formatting
            } else if is_raw_text(n) {
                DepthKind::RawText
            } else {
                match n {
                    "svg" => DepthKind::Svg,
                    "math" => DepthKind::Math,
                    "plaintext" => DepthKind::Plaintext,
                    _ => DepthKind::Other,
                }
            };
            assert_eq!(depth_kind(n), want, "{n}");
        }
    }

    /// The byte-by-byte reading `tag_end` must agree with.
    fn tag_end_reference(b: &[u8], from: usize) -> Option<usize> {
        let mut quote = None;
        let mut prev = b' ';
        for (k, &c) in b.get(from..)?.iter().enumerate() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if (c == b'"' || c == b'\'') && prev == b'=' => quote = Some(c),
                None if c == b'>' => return Some(from + k),
                None => {}
            }
            if !c.is_ascii_whitespace() {
                prev = c;
            }
        }
        None
    }

    #[test]
    fn tag_end_matches_the_byte_by_byte_reading() {
        let cases: &[&[u8]] = &[
            b"<div class=\"a>b\" id='c>d'>x",
            b"<a href = \"x\">",
            b"<a b\"c>d\">",
            b"<a x='unterminated>",
            b"<p =\"\">",
            b"<img alt=\"\" src=x>",
            b"<a x=\"1\"y='2'>",
            b"<b>",
            b"",
        ];
        for c in cases {
            for from in 0..=c.len() + 1 {
                assert_eq!(
                    super::tag_end(c, from),
                    tag_end_reference(c, from),
                    "{:?} from {from}",
                    String::from_utf8_lossy(c)
                );
            }
        }
        // Every string over a small alphabet up to length 7, from every start.
        let alphabet = [b'a', b'=', b'"', b'\'', b'>', b' '];
        let mut buf = Vec::new();
        for len in 0..=7u32 {
            for mut n in 0..6usize.pow(len) {
                buf.clear();
                for _ in 0..len {
                    buf.push(alphabet[n % 6]);
                    n /= 6;
                }
                for from in 0..=buf.len() {
                    assert_eq!(
                        super::tag_end(&buf, from),
                        tag_end_reference(&buf, from),
                        "{:?} from {from}",
                        String::from_utf8_lossy(&buf)
                    );
                }
            }
        }
    }

    use super::*;
    use crate::ir::ClassHint;

    fn doc(html: &str) -> Document {
        let src = SourceFile::new("t.html", html.as_bytes().to_vec());
        decode(&src, &mut Vec::new())
    }

    #[test]
    fn cyrillic_class_names_match() {
        let d = doc(
            "<html><body><div class=\"dsOuterFrame\"><div class=\"dsLeft\u{421}olKW\">KEYWORDS: \
             <span class=\"kwb\">INFANTRY</span><span class=\"dsVertLine\"></span>SERGEANT: \
             <span>CHARACTER</span></div></div></body></html>",
        );
        let kw: Vec<&str> = d
            .blocks
            .iter()
            .filter(|b| b.class == Some(ClassHint::DsKeywords))
            .map(|b| b.text.as_str())
            .collect();
        assert_eq!(kw, ["KEYWORDS: INFANTRY", "SERGEANT: CHARACTER"]);
    }

    #[test]
    fn weapon_keywords_split_per_word_and_bracketed() {
        let d = doc(
            "<html><body><div class=\"dsOuterFrame\"><table class=\"wTable\"><tr>\
             <td class=\"wTable2_short\"><span>Gun <span class=\"kwb2\"><span>[indirect</span> \
             <span>fire]</span></span> <span class=\"kwb2\"><span>PISTOl</span></span></span></td>\
             <td>24\"</td><td>1</td></tr></table></div></body></html>",
        );
        let row = d
            .blocks
            .iter()
            .find(|b| b.class == Some(ClassHint::WProfile))
            .expect("weapon row");
        assert_eq!(row.cells, ["Gun [indirect fire, PISTOl]", "24\"", "1"]);
    }

    /// The lean tree renders every page as `scraper`'s DOM did: same blocks (lines included),
    /// chrome count and meta.
    fn assert_same_as_scraper(name: &str, text: &str) {
        let (blocks, chrome, meta) = legacy::render(text);
        let d = doc(text);
        assert_eq!(d.blocks.len(), blocks.len(), "{name}: block count");
        for (i, (new, old)) in d.blocks.iter().zip(&blocks).enumerate() {
            assert_eq!(new, old, "{name}: block {i}");
        }
        assert_eq!(d.chrome_dropped, chrome, "{name}: chrome");
        assert_eq!(d.meta, meta, "{name}: meta");
    }

    /// Markup that html5ever's tree builder reshapes: implied end tags, misnested formatting
    /// (the adoption agency), foster parenting out of tables, templates, duplicate `<body>`.
    const RESHAPED: &[&str] = &[
        "<p>one<p>two<ul><li>a<li>b</ul><table><tr><td>x<td>y<tr><td>z</table>",
        "<div class=dsOuterFrame><b>bold <i>both</b> italic</i><p>p <b>x<p>y</b> z</div>",
        "<table class=wTable>stray <tr><td class=wTable2_short>Gun<span class=kwb2>[pistol]</span>\
         <td>12\"</table><table><div>fostered</div><tr><td>cell</table>",
        "<body class=a><template><p>hidden</p></template><body class=dsOuterFrame><p>t</p>",
        "<h2><div class=dsOuterFrame><div class=dsH2Header><div>Name</div></div></div>",
        "<a href=/wh40k10ed/x><div>block in a</div></a><a href=/aos4/y>z</a><select><option>o</select>",
        "<script>var x = '<p>';</script><style>p{}</style><p>after &amp; &nbsp; entities</p>",
        "<table><tr><td><p>para</p><ul><li>item</li></ul></td></tr></table><form><form>f</form>",
        "<svg><p>breakout</p></svg><math><mi>x</mi></math><noscript><p>ns</p></noscript>",
        "<b><b><b><b>deep</b></b></b></b><p>after</p><font><p>f</font>",
        "<a href=/aos4/a>1</a><a href=/aos4>2</a><a href=/>3</a><a href=#x>4</a><a>5</a>\
         <a href=/a-section-name-of-24-chars/x>6</a><a href=//host/x>7</a><a href=/wh40k10ed/>8</a>\
         <a href=/wh40k10ed/b href=/aos4/>9</a><img class=logo3 title=' Pack '><img title=x>",
        "",
        "text only",
    ];

    #[test]
    fn reshaped_markup_renders_as_with_scraper() {
        for (i, html) in RESHAPED.iter().enumerate() {
            assert_same_as_scraper(&format!("snippet {i}"), html);
        }
    }

    #[test]
    fn fixture_and_corpus_pages_render_as_with_scraper() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for dir in ["tests/fixtures", "raw", "../shared/corpus/wahapedia-html"] {
            for e in walkdir::WalkDir::new(root.join(dir)).sort_by_file_name() {
                let Ok(e) = e else { continue };
                let p = e.path();
                let html = p.extension().is_some_and(|x| x == "html" || x == "htm");
                if !html && dir != "raw" {
                    continue;
                }
                let Ok(bytes) = std::fs::read(p) else {
                    continue;
                };
                let text = String::from_utf8_lossy(&bytes);
                if dir == "raw" && !text.contains('<') {
                    continue;
                }
                assert_same_as_scraper(&p.display().to_string(), &text);
                seen += 1;
            }
        }
        assert!(seen >= 5, "only {seen} pages compared");
    }

    #[test]
    fn locator_moves_forward() {
        let text = "a\nfoo\nbar\nfoo\n";
        let mut l = Locator::new(text);
        assert_eq!(l.find("foo"), 2);
        assert_eq!(l.find("bar"), 3);
        assert_eq!(l.find("foo"), 4);
        assert_eq!(l.find("nothing"), 4);
    }
}
