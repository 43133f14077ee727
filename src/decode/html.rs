//! Decoder for scraped Wahapedia pages: the DOM (parsed by `scraper`) rendered into IR blocks.
//!
//! Owns everything about the site's markup and nothing about the game: it knows that a
//! `dsProfileWrap` holds characteristic values, that a weapon row's abilities are the `kwb2`
//! spans of its name cell, that `tooltip_templates` hold the glossary, and renders each into
//! blocks with a typed class hint ([`ClassHint`], e.g. `ClassHint::DsProfile`) and a
//! [`Region`]; what the values *mean* is `extract`'s business. The markup's class names are
//! read as strings only here, into the [`cls`] bit set; what leaves the decoder is the enum.
//!
//! Both scrapers' quirks are absorbed here: the re-serialized pages' injected consent scripts,
//! `&#34;` inch marks and `<="" div="">` debris, the raw pages' BOM and malformed
//! `data-tooltip-content="…"</div>` tags (html5ever recovers both), class names spelled with a
//! Cyrillic `С` (`dsLeftСol`), keywords split into one span per word, in any case, sometimes
//! wrapped in literal brackets. Tooltip ids are per-page numbers and are never used.
//!
//! Lines: `scraper` keeps no source positions, so a [`Locator`] walks the raw text forward in
//! document order and gives each block the line where its first word next occurs: the line of
//! the element (or, for markup without text, of the nearest text before it).
//!
//! Depth: the renderer never recurses on the input's depth. It walks the DOM with an explicit
//! stack of tasks ([`Task`]) and reads text with an iterative pre-order walk, so a page costs
//! heap, not call stack, however deep it nests (rayon's workers have 2 MiB of stack). Before
//! parsing, a linear byte-level scan ([`limit_depth`]) counts open tags; a start tag that
//! would nest deeper than [`MAX_DEPTH`] (512; real pages: 18), or open more than
//! [`MAX_FORMATTING`] formatting elements (32; real pages: 2), is read as text with its end
//! tag, and the page gets one `S013` warning. That keeps html5ever's tree builder linear (its
//! scope checks walk the stack of open elements, quadratic on 40,000 nested `<div>`s; each
//! open formatting element is re-opened in every later paragraph) and the tree shallow.
//!
//! Architecture invariant: never panics on any input; never drops text silently (site chrome
//! is counted in `chrome_dropped`).

use crate::diag::{Code, Diagnostic};
use crate::ir::{Block, BlockKind, ClassHint, Document, Region};
use crate::source::{Format, SourceFile, Span};
use scraper::{ElementRef, Html, Node};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

/// Decodes one HTML page.
pub fn decode(src: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Document {
    let text = super::text_of(src, diagnostics);
    let scan = limit_depth(&text, MAX_DEPTH);
    let text = match scan.neutralized.first() {
        None => text,
        Some(&first) => {
            let line = 1 + text.as_bytes()[..first]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            diagnostics.push(
                Diagnostic::new(
                    Code::DocumentTooDeep,
                    format!(
                        "markup nested too deep (more than {MAX_DEPTH} elements or \
                         {MAX_FORMATTING} formatting elements open); {} tag(s) past the \
                         limit read as text",
                        scan.neutralized.len()
                    ),
                )
                .at(&src.path, line as u32),
            );
            Cow::Owned(neutralize(&text, &scan.neutralized))
        }
    };
    let html = Html::parse_document(&text);
    let mut r = Renderer {
        loc: Locator::new(&text),
        blocks: Vec::new(),
        para: String::new(),
        region: None,
        class: None,
        chrome: 0,
        meta: BTreeMap::new(),
        paths: BTreeMap::new(),
        list_depth: 0,
    };
    r.render(html.root_element());
    r.flush();
    if let Some((path, _)) = r
        .paths
        .iter()
        .max_by_key(|(p, n)| (**n, std::cmp::Reverse(*p)))
    {
        r.meta.insert("site_path".to_string(), path.clone());
    }
    if looks_truncated(&text) {
        diagnostics.push(
            Diagnostic::new(Code::TruncatedInput, "document ends before </html>")
                .at(&src.path, r.loc.line_count()),
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

/// Elements that never have contents.
const VOID_TAGS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "basefont", "bgsound", "frame", "image",
];
/// How many formatting elements may be open at once. The parser re-opens every open
/// formatting element in each new block ("reconstruct the active formatting elements"), so
/// each one left open copies itself into every later paragraph: `<p><b id=1>x</p><p><b id=2>…`
/// builds a quadratic tree. The corpus leaves at most 2 open.
pub const MAX_FORMATTING: usize = 32;

/// The formatting elements of the HTML parsing algorithm.
const FORMATTING_TAGS: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

/// Elements whose contents are raw text up to their end tag.
const RAW_TEXT_TAGS: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
];
/// Elements a sibling of their own kind closes implicitly (`<p>…<p>`, `<li>…<li>`): they only
/// nest inside other elements, which are counted, so they are not counted themselves (a page
/// that leaves them open is not deep).
const SELF_CLOSING_SIBLINGS: &[&str] = &[
    "p", "li", "dt", "dd", "td", "th", "tr", "tbody", "thead", "tfoot", "option", "optgroup", "rb",
    "rt", "rp", "rtc", "colgroup", "caption",
];

/// A linear byte-level scan of the tags of `text` (comments, doctypes, raw-text elements and
/// void elements skipped; `/>` honoured inside `svg` and `math` only, as the parser does),
/// estimating how deep open elements nest. Start tags that would nest deeper than `limit`
/// are collected, with the end tags that close them, to be read as text. Never recurses.
pub fn limit_depth(text: &str, limit: usize) -> DepthScan {
    let b = text.as_bytes();
    let mut scan = DepthScan::default();
    let mut depth = 0usize;
    // Names of the neutralized open tags, innermost last: a matching end tag is neutralized too.
    let mut held: Vec<String> = Vec::new();
    let mut foreign = 0usize;
    let mut formatting = 0usize;
    // One buffer for every tag name (lower-cased), so the scan allocates nothing per tag.
    let mut name_buf = String::new();
    let mut i = 0;
    while let Some(off) = text.get(i..).and_then(|t| t.find('<')) {
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
        name_buf.clear();
        name_buf.push_str(text.get(name_at..name_end).unwrap_or_default());
        name_buf.make_ascii_lowercase();
        let name = name_buf.as_str();
        let Some(gt) = tag_end(b, name_end) else {
            break;
        };
        i = gt + 1;
        let self_closing = gt > 0 && b[gt - 1] == b'/';
        if VOID_TAGS.contains(&name) || SELF_CLOSING_SIBLINGS.contains(&name) {
            continue;
        }
        let svg_or_math = name == "svg" || name == "math";
        let is_formatting = foreign == 0 && FORMATTING_TAGS.contains(&name);
        if end_tag {
            if held.last().map(String::as_str) == Some(name) {
                held.pop();
                scan.neutralized.push(lt);
            } else {
                depth = depth.saturating_sub(1);
                if svg_or_math {
                    foreign = foreign.saturating_sub(1);
                }
                if is_formatting {
                    formatting = formatting.saturating_sub(1);
                }
            }
            continue;
        }
        if self_closing && (foreign > 0 || svg_or_math) {
            continue;
        }
        if depth >= limit || (is_formatting && formatting >= MAX_FORMATTING) {
            scan.neutralized.push(lt);
            held.push(name.to_string());
            continue;
        }
        depth += 1;
        scan.max_depth = scan.max_depth.max(depth);
        if svg_or_math {
            foreign += 1;
        }
        if is_formatting {
            formatting += 1;
            scan.max_formatting = scan.max_formatting.max(formatting);
        }
        if RAW_TEXT_TAGS.contains(&name) && foreign == 0 {
            // Contents up to the matching end tag are text; the end tag closes the element.
            let close = format!("</{name}");
            match find_ignore_case(b, i, close.as_bytes()) {
                Some(e) => {
                    depth -= 1;
                    i = tag_end(b, e + close.len()).map_or(b.len(), |g| g + 1);
                }
                None => break,
            }
        } else if name == "plaintext" && foreign == 0 {
            break;
        }
    }
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
        let k = rest
            .iter()
            .position(|&c| c == b'>' || c == b'"' || c == b'\'')?;
        let c = rest[k];
        if let Some(&p) = rest[..k].iter().rev().find(|c| !c.is_ascii_whitespace()) {
            prev = p;
        }
        if c == b'>' {
            return Some(i + k);
        }
        if prev == b'=' {
            // A quote opens a value only after `=` (with optional spaces): skip to its end.
            let close = rest[k + 1..].iter().position(|&x| x == c)?;
            i += k + 1 + close + 1;
        } else {
            i += k + 1;
        }
        prev = c;
    }
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
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
    Html::parse_document(text).tree.nodes().count()
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
}

impl<'t> Locator<'t> {
    pub fn new(text: &'t str) -> Self {
        Locator {
            text,
            cursor: 0,
            line: 1,
            missed: HashSet::new(),
        }
    }

    fn line_count(&self) -> u32 {
        let rest = &self.text.as_bytes()[self.cursor..];
        self.line
            .saturating_add(rest.iter().filter(|&&b| b == b'\n').count() as u32)
    }

    /// Line of the next occurrence of `needle` at or after the cursor (which moves there);
    /// the cursor's line when it does not occur.
    pub fn find(&mut self, needle: &str) -> u32 {
        if needle.is_empty() || self.missed.contains(needle) {
            return self.line;
        }
        match self.text[self.cursor..].find(needle) {
            Some(off) => {
                let passed = &self.text.as_bytes()[self.cursor..self.cursor + off];
                let newlines = passed.iter().filter(|&&b| b == b'\n').count();
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

/// The markup of a profile's characteristic labels and values, where their rows are found.
const CHAR_NAME: &str = "dsCharName";
const CHAR_VALUE: &str = "dsCharValue";

/// The first word of `text` long enough to find in the markup (letters and digits only, so
/// entities and typography do not get in the way).
fn needle(text: &str) -> &str {
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| w.chars().count() >= 3)
        .unwrap_or("")
}

struct Renderer<'t> {
    loc: Locator<'t>,
    blocks: Vec<Block>,
    /// Inline text gathered since the last block boundary.
    para: String,
    region: Option<Region>,
    class: Option<ClassHint>,
    chrome: usize,
    meta: BTreeMap<String, String>,
    /// Counts of the site sections the page links to (`/wh40k10ed/`, `/aos4/`…).
    paths: BTreeMap<String, usize>,
    list_depth: u8,
}

/// The site's class names this decoder reacts to, one bit each, so an element's classes are
/// read once (the class attribute is split once per element, not once per question).
mod cls {
    pub const STR10WRAP: u64 = 1 << 0;
    pub const DSINVULWRAP: u64 = 1 << 1;
    pub const ABNAME: u64 = 1 << 2;
    pub const TOOLTIP_TEMPLATES: u64 = 1 << 3;
    pub const TOOLTIP_HEADER: u64 = 1 << 4;
    pub const DSPOINTY: u64 = 1 << 5;
    pub const DSOUTERFRAME: u64 = 1 << 6;
    pub const DSHEADER: u64 = 1 << 7;
    pub const WTABLE2_LONG: u64 = 1 << 8;
    pub const WTABLE: u64 = 1 << 9;
    pub const STR10TYPE: u64 = 1 << 10;
    pub const STR10TEXT: u64 = 1 << 11;
    pub const STR10NAME: u64 = 1 << 12;
    pub const STR10LEGEND: u64 = 1 << 13;
    pub const STR10CP: u64 = 1 << 14;
    pub const SNFL: u64 = 1 << 15;
    pub const S10WRAP: u64 = 1 << 16;
    pub const S10TYPE: u64 = 1 << 17;
    pub const S10NAME: u64 = 1 << 18;
    pub const S10ENHWRAP: u64 = 1 << 19;
    pub const REDSQUARE: u64 = 1 << 20;
    pub const REDEXAMPLE: u64 = 1 << 21;
    pub const LOGO3: u64 = 1 << 22;
    pub const LEGEND2: u64 = 1 << 23;
    pub const KWB2: u64 = 1 << 24;
    pub const DSVERTLINE: u64 = 1 << 25;
    pub const DSRIGHTCOLKW: u64 = 1 << 26;
    pub const DSPROFILEBASEWRAP: u64 = 1 << 27;
    pub const DSMODELNAME: u64 = 1 << 28;
    pub const DSMODELBASE2: u64 = 1 << 29;
    pub const DSMODELBASE: u64 = 1 << 30;
    pub const DSLEFTCOLKW: u64 = 1 << 31;
    pub const DSINVULCOMMENT: u64 = 1 << 32;
    pub const DSH2HEADER: u64 = 1 << 33;
    pub const DSCHARVALUE: u64 = 1 << 34;
    pub const DSCHARNAME: u64 = 1 << 35;
    pub const DSCHARINVULVALUE: u64 = 1 << 36;
    pub const DSABILITY_NOLINE: u64 = 1 << 37;
    pub const DSABILITY: u64 = 1 << 38;
    pub const DETACHNAME: u64 = 1 << 39;
    pub const ABWRAP: u64 = 1 << 40;
    pub const ABNAMEWRAP: u64 = 1 << 41;
    pub const ABFLEX: u64 = 1 << 42;
    pub const SHOWFLUFF: u64 = 1 << 43;
    pub const ENHANCEMENTSPTS: u64 = 1 << 44;
    pub const WTABLE2_SHORT: u64 = 1 << 45;
    pub const NOPRINT: u64 = 1 << 46;
    pub const PAGE_BREAKER_ADS: u64 = 1 << 47;
    pub const PAGE_ADS_WRAPPER: u64 = 1 << 48;
    pub const SELECTIONWARNING: u64 = 1 << 49;
    pub const DSICONSNARROW: u64 = 1 << 50;
    pub const DSICONSWIDE: u64 = 1 << 51;
    pub const DSPICNARROW: u64 = 1 << 52;
    pub const DSPICWIDE: u64 = 1 << 53;
    pub const DSBANNER: u64 = 1 << 54;
    pub const TOOLTIP_LINK: u64 = 1 << 55;
    pub const CONTENTS: u64 = 1 << 56;
    /// Chrome: ads, print toggles, filter warnings, icon strips.
    pub const CHROME: u64 = NOPRINT
        | PAGE_BREAKER_ADS
        | PAGE_ADS_WRAPPER
        | SELECTIONWARNING
        | DSICONSNARROW
        | DSICONSWIDE
        | DSPICNARROW
        | DSPICWIDE
        | DSBANNER
        | TOOLTIP_LINK
        | CONTENTS;

    /// The bit of one class name (`С` U+0421 read as `C`), 0 for classes of no interest.
    pub fn bit(name: &str) -> u64 {
        if !name.is_ascii() {
            // Only the site's names are of interest, all ASCII once `С` is read as `C`; any
            // other non-ASCII name is of no interest (and is not looked at twice).
            let ascii = name.replace('\u{421}', "C");
            return if ascii.is_ascii() { bit(&ascii) } else { 0 };
        }
        match name {
            "str10Wrap" => STR10WRAP,
            "dsInvulWrap" => DSINVULWRAP,
            "abName" => ABNAME,
            "tooltip_templates" => TOOLTIP_TEMPLATES,
            "tooltip_header" => TOOLTIP_HEADER,
            "dsPointy" => DSPOINTY,
            "dsOuterFrame" => DSOUTERFRAME,
            "dsHeader" => DSHEADER,
            "wTable2_long" => WTABLE2_LONG,
            "wTable" => WTABLE,
            "str10Type" => STR10TYPE,
            "str10Text" => STR10TEXT,
            "str10Name" => STR10NAME,
            "str10Legend" => STR10LEGEND,
            "str10CP" => STR10CP,
            "snFl" => SNFL,
            "s10Wrap" => S10WRAP,
            "s10Type" => S10TYPE,
            "s10Name" => S10NAME,
            "s10EnhWrap" => S10ENHWRAP,
            "redSquare" => REDSQUARE,
            "redExample" => REDEXAMPLE,
            "logo3" => LOGO3,
            "legend2" => LEGEND2,
            "kwb2" => KWB2,
            "dsVertLine" => DSVERTLINE,
            "dsRightColKW" => DSRIGHTCOLKW,
            "dsProfileBaseWrap" => DSPROFILEBASEWRAP,
            "dsModelName" => DSMODELNAME,
            "dsModelBase2" => DSMODELBASE2,
            "dsModelBase" => DSMODELBASE,
            "dsLeftColKW" => DSLEFTCOLKW,
            "dsInvulComment" => DSINVULCOMMENT,
            "dsH2Header" => DSH2HEADER,
            "dsCharValue" => DSCHARVALUE,
            "dsCharName" => DSCHARNAME,
            "dsCharInvulValue" => DSCHARINVULVALUE,
            "dsAbility_noLine" => DSABILITY_NOLINE,
            "dsAbility" => DSABILITY,
            "detachName" => DETACHNAME,
            "abWrap" => ABWRAP,
            "abNameWrap" => ABNAMEWRAP,
            "abFlex" => ABFLEX,
            "ShowFluff" => SHOWFLUFF,
            "EnhancementsPts" => ENHANCEMENTSPTS,
            "wTable2_short" => WTABLE2_SHORT,
            "noprint" => NOPRINT,
            "page_breaker_ads" => PAGE_BREAKER_ADS,
            "page_ads_wrapper" => PAGE_ADS_WRAPPER,
            "selectionWarning" => SELECTIONWARNING,
            "dsIconsNarrow" => DSICONSNARROW,
            "dsIconsWide" => DSICONSWIDE,
            "dsPicNarrow" => DSPICNARROW,
            "dsPicWide" => DSPICWIDE,
            "dsBanner" => DSBANNER,
            "tooltip_link" => TOOLTIP_LINK,
            "contents" => CONTENTS,
            _ => 0,
        }
    }
}

/// The known classes of `el` as bits (see [`cls`]).
fn flags(el: &ElementRef) -> u64 {
    attr(el, "class")
        .map(|a| a.split_ascii_whitespace().fold(0, |m, c| m | cls::bit(c)))
        .unwrap_or(0)
}

/// An attribute's value, compared by name as a string (`Element::attr` interns its argument
/// first, which costs more than the comparison on this hot path).
fn attr<'a>(el: &ElementRef<'a>, name: &str) -> Option<&'a str> {
    el.value().attrs().find(|(k, _)| *k == name).map(|(_, v)| v)
}

fn tag<'a>(el: &ElementRef<'a>) -> &'a str {
    el.value().name()
}

const SKIPPED_TAGS: &[&str] = &[
    "script", "style", "noscript", "select", "option", "iframe", "svg", "template", "input",
    "button", "textarea", "head", "link", "meta",
];
const BLOCK_TAGS: &[&str] = &[
    "html",
    "body",
    "div",
    "p",
    "ul",
    "ol",
    "li",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "nav",
    "aside",
    "form",
    "blockquote",
    "dl",
    "dt",
    "dd",
    "center",
    "hr",
    "label",
];

/// Work left to do while rendering, on an explicit stack (never the call stack: a page can nest
/// elements as deep as it likes). A task pushed later runs earlier, so an element's tasks are
/// pushed closing work first (`EndScope`, `Flush`…), then its children.
enum Task<'a> {
    /// Render this node (element or text), then its following siblings.
    Siblings(Nd<'a>),
    /// Same, inside a list item: a nested list first ends the item's own text.
    ListSiblings(Nd<'a>),
    /// Same, inside a glossary entry (headers, ability wrappers, keyword indexes).
    GlossarySiblings(Nd<'a>),
    /// A glossary entry of a `tooltip_templates` container, then the entries after it.
    TooltipEntry(ElementRef<'a>),
    /// A stratagem card's descendants from `next` on, in document order.
    Stratagem {
        root: Nd<'a>,
        next: Option<Nd<'a>>,
    },
    Flush,
    FlushItem,
    /// The end of a scope: flush, then restore the region and class hint of the parent.
    EndScope(Option<Region>, Option<ClassHint>),
    EndList,
}

/// A node of the parsed page (ego_tree's `NodeRef`, named through `ElementRef`).
type Nd<'a> = <ElementRef<'a> as std::ops::Deref>::Target;

/// The node after `n` in document order within `root`'s subtree: `n`'s first child when
/// `descend`, else the next sibling of `n` or of its nearest ancestor below `root`. Constant
/// memory, no recursion.
fn preorder_next<'a>(n: Nd<'a>, root: Nd<'a>, descend: bool) -> Option<Nd<'a>> {
    if descend {
        if let Some(c) = n.first_child() {
            return Some(c);
        }
    }
    let mut n = n;
    loop {
        if n == root {
            return None;
        }
        if let Some(s) = n.next_sibling() {
            return Some(s);
        }
        n = n.parent()?;
    }
}

/// Visits the nodes below `root` in document order; `visit` says whether to go into a node's
/// children. Iterative: the depth of the tree costs no stack.
fn walk<'a>(root: Nd<'a>, mut visit: impl FnMut(Nd<'a>) -> bool) {
    let mut next = root.first_child();
    while let Some(n) = next {
        let descend = visit(n);
        next = preorder_next(n, root, descend);
    }
}

fn push_children<'a>(st: &mut Vec<Task<'a>>, el: ElementRef<'a>) {
    if let Some(c) = el.first_child() {
        st.push(Task::Siblings(c));
    }
}

impl<'t> Renderer<'t> {
    /// Renders the page from its root element, with an explicit stack of [`Task`]s.
    fn render<'a>(&mut self, root: ElementRef<'a>) {
        let mut st: Vec<Task<'a>> = Vec::new();
        self.element(root, &mut st);
        while let Some(task) = st.pop() {
            match task {
                Task::Siblings(n) => {
                    if let Some(s) = n.next_sibling() {
                        st.push(Task::Siblings(s));
                    }
                    match ElementRef::wrap(n) {
                        Some(c) => self.element(c, &mut st),
                        None => self.node_text(n.value()),
                    }
                }
                Task::ListSiblings(n) => {
                    if let Some(s) = n.next_sibling() {
                        st.push(Task::ListSiblings(s));
                    }
                    match ElementRef::wrap(n) {
                        Some(c) if matches!(tag(&c), "ul" | "ol") => {
                            self.flush_as(BlockKind::ListItem);
                            self.element(c, &mut st);
                        }
                        Some(c) => self.element(c, &mut st),
                        None => self.node_text(n.value()),
                    }
                }
                Task::GlossarySiblings(n) => {
                    if let Some(s) = n.next_sibling() {
                        st.push(Task::GlossarySiblings(s));
                    }
                    self.glossary_node(n, &mut st);
                }
                Task::TooltipEntry(entry) => {
                    if let Some(next) = entry.next_siblings().find_map(ElementRef::wrap) {
                        st.push(Task::TooltipEntry(next));
                    }
                    st.push(Task::Flush);
                    self.tooltip_entry(entry, &mut st);
                }
                Task::Stratagem { root, next } => self.stratagem_card(root, next, &mut st),
                Task::Flush => self.flush(),
                Task::FlushItem => self.flush_as(BlockKind::ListItem),
                Task::EndScope(region, class) => {
                    self.flush();
                    self.region = region;
                    self.class = class;
                }
                Task::EndList => self.list_depth = self.list_depth.saturating_sub(1),
            }
        }
    }

    /// Opens a scope with `region` and `class`: what is pushed after runs inside it; the
    /// `EndScope` pushed here closes it.
    fn scope<'a>(
        &mut self,
        st: &mut Vec<Task<'a>>,
        region: Option<Region>,
        class: Option<ClassHint>,
    ) {
        st.push(Task::EndScope(self.region, self.class));
        self.region = region;
        self.class = class;
    }

    fn img(&mut self, el: ElementRef, f: u64) {
        if f & cls::LOGO3 != 0 {
            if let Some(t) = attr(&el, "title") {
                self.meta
                    .entry("faction_pack".to_string())
                    .or_insert_with(|| t.trim().to_string());
            }
        }
    }

    /// Renders `el` itself; its contents are pushed as tasks (see [`Task`]).
    fn element<'a>(&mut self, el: ElementRef<'a>, st: &mut Vec<Task<'a>>) {
        let f = flags(&el);
        let name = tag(&el);
        if name == "head" {
            self.head(el);
            return;
        }
        if name == "img" {
            self.img(el, f);
            return;
        }
        if name == "a" {
            if let Some(href) = attr(&el, "href") {
                if let Some(section) = href
                    .strip_prefix('/')
                    .and_then(|h| h.split('/').next())
                    .filter(|s| !s.is_empty() && s.len() < 24)
                {
                    *self.paths.entry(format!("/{section}/")).or_insert(0) += 1;
                }
            }
        }
        if SKIPPED_TAGS.contains(&name) || is_repeated_variant(&el, f) {
            return;
        }
        if f & cls::CHROME != 0 {
            // The publication the page cites sits among the datasheet's icons.
            for img in el.descendants().filter_map(ElementRef::wrap) {
                if tag(&img) == "img" {
                    self.img(img, flags(&img));
                }
            }
            self.flush();
            self.chrome += 1;
            return;
        }
        if f & cls::DSOUTERFRAME != 0 {
            self.flush();
            self.scope(st, Some(Region::Datasheet), None);
            push_children(st, el);
            return;
        }
        if f & cls::TOOLTIP_TEMPLATES != 0 {
            self.flush();
            self.scope(st, Some(Region::Glossary), None);
            if let Some(entry) = el.child_elements().next() {
                st.push(Task::TooltipEntry(entry));
            }
            return;
        }
        if f & cls::STR10WRAP != 0 {
            self.flush();
            let region = self.region.or(Some(Region::Faction));
            self.scope(st, region, None);
            st.push(Task::Stratagem {
                root: *el,
                next: Some(*el),
            });
            return;
        }
        if self.region == Some(Region::Datasheet) && self.datasheet_part(el, f) {
            return;
        }
        if name == "ul" && (f & cls::ENHANCEMENTSPTS != 0) {
            self.flush();
            for li in el.child_elements() {
                let cells: Vec<String> = li
                    .child_elements()
                    .map(|s| clean(&inline_text(s)))
                    .filter(|s| !s.is_empty())
                    .collect();
                if !cells.is_empty() {
                    self.row(cells, Some(ClassHint::EnhancementsPts));
                }
            }
            return;
        }
        let class_hint = if (f & cls::SHOWFLUFF != 0) || (f & cls::LEGEND2 != 0) {
            Some(ClassHint::Flavor)
        } else if f & cls::DETACHNAME != 0 {
            Some(ClassHint::DetachName)
        } else if f & cls::REDEXAMPLE != 0 {
            Some(ClassHint::Example)
        } else if f & cls::REDSQUARE != 0 {
            Some(ClassHint::Summary)
        } else if (f & cls::DSABILITY != 0) || (f & cls::DSABILITY_NOLINE != 0) {
            Some(ClassHint::DsAbility)
        } else {
            None
        };
        if !BLOCK_TAGS.contains(&name) {
            // Inline: its text joins the current paragraph.
            // (Block-level descendants, which broken markup can put inside a `span`, still
            // end it.)
            if name == "br" {
                self.flush();
            } else {
                push_children(st, el);
            }
            return;
        }
        self.flush();
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" if holds_structure(el) => {
                // Broken markup (an unclosed heading) can swallow a datasheet: read it as a
                // container rather than as one heading.
                push_children(st, el);
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let level = name[1..].parse().unwrap_or(1);
                let t = clean(&inline_text(el));
                if name == "h1" && !self.meta.contains_key("h1") {
                    self.meta.insert("h1".to_string(), t.clone());
                    if let Some(first) = el.child_elements().next() {
                        let f = clean(&inline_text(first));
                        if !f.is_empty() {
                            self.meta.insert("page_faction".to_string(), f);
                        }
                    }
                }
                if !t.is_empty() {
                    let mut b = self.block(BlockKind::Heading, t, None);
                    b.level = level;
                    self.blocks.push(b);
                }
            }
            "tr" if has_block_content(el) => {
                // A layout table (faction pages put each enhancement in one): its cells
                // are containers, not values.
                let class = class_hint.or(self.class);
                self.scope(st, self.region, class);
                push_children(st, el);
            }
            "tr" => {
                let cells: Vec<String> = el
                    .child_elements()
                    .filter(|c| matches!(tag(c), "td" | "th"))
                    .map(|c| clean(&inline_text(c)))
                    .collect();
                if cells.iter().any(|c| !c.is_empty()) {
                    let class = class_hint.or(self.class);
                    self.row(cells, class);
                }
            }
            "li" => {
                self.list_depth = self.list_depth.saturating_add(1);
                st.push(Task::EndList);
                let class = class_hint.or(self.class);
                self.scope(st, self.region, class);
                st.push(Task::FlushItem);
                if let Some(c) = el.first_child() {
                    st.push(Task::ListSiblings(c));
                }
            }
            _ => {
                st.push(Task::Flush);
                let class = class_hint.or(self.class);
                self.scope(st, self.region, class);
                push_children(st, el);
            }
        }
    }

    fn head(&mut self, el: ElementRef) {
        for d in el.descendants().filter_map(ElementRef::wrap) {
            if tag(&d) == "title" {
                let t = clean(&inline_text(d));
                if !t.is_empty() {
                    self.meta.insert("title".to_string(), t);
                }
            }
        }
    }

    fn node_text(&mut self, node: &Node) {
        if let Node::Text(t) = node {
            self.para.push_str(t);
        }
    }

    fn block(&mut self, kind: BlockKind, text: String, class: Option<ClassHint>) -> Block {
        let line = self.loc.find(needle(&text));
        let mut b = Block::new(kind, text, line);
        b.span = Span::line(line);
        b.region = self.region;
        b.class = class.or(self.class);
        b.blank_before = true;
        b
    }

    /// A heading block of `level` (when the text is not empty).
    fn push_heading(&mut self, text: String, level: u8, class: ClassHint) {
        let before = self.blocks.len();
        self.push(BlockKind::Heading, text, Some(class));
        if self.blocks.len() > before {
            if let Some(b) = self.blocks.last_mut() {
                b.level = level;
            }
        }
    }

    fn push(&mut self, kind: BlockKind, text: String, class: Option<ClassHint>) {
        self.push_clean(kind, clean(&text), class);
    }

    /// Like `push`, for text already cleaned.
    fn push_clean(&mut self, kind: BlockKind, text: String, class: Option<ClassHint>) {
        if text.is_empty() {
            return;
        }
        let mut b = self.block(kind, text, class);
        if kind == BlockKind::ListItem {
            b.level = self.list_depth.max(1);
        }
        self.blocks.push(b);
    }

    fn row(&mut self, cells: Vec<String>, class: Option<ClassHint>) {
        let first = cells
            .iter()
            .find(|c| !c.is_empty())
            .cloned()
            .unwrap_or_default();
        let line = self.loc.find(needle(&first));
        self.row_at(cells, class, line);
    }

    /// A row whose line is known.
    fn row_at(&mut self, cells: Vec<String>, class: Option<ClassHint>, line: u32) {
        let mut b = Block::row(cells, line);
        b.region = self.region;
        b.class = class.or(self.class);
        b.blank_before = true;
        self.blocks.push(b);
    }

    fn flush(&mut self) {
        self.flush_as(BlockKind::Paragraph);
    }

    fn flush_as(&mut self, kind: BlockKind) {
        if self.para.trim().is_empty() {
            self.para.clear();
            return;
        }
        // Cleaning copies the text; the buffer keeps its capacity for the next paragraph.
        let text = clean(&self.para);
        self.para.clear();
        self.push_clean(kind, text, None);
    }

    /// Parts of a datasheet with their own markup. Returns false for anything else.
    fn datasheet_part(&mut self, el: ElementRef, f: u64) -> bool {
        if f & cls::DSH2HEADER != 0 {
            self.flush();
            let name = el
                .child_elements()
                .find(|c| tag(c) == "div" && c.value().classes().next().is_none())
                .map(|c| clean(&inline_text(c)))
                .unwrap_or_default();
            self.push_heading(name, 2, ClassHint::DsH2Header);
            for d in el.descendants().filter_map(ElementRef::wrap) {
                if flags(&d) & cls::DSMODELBASE2 != 0 {
                    self.push(
                        BlockKind::Paragraph,
                        inline_text(d),
                        Some(ClassHint::DsModelBase),
                    );
                }
            }
            return true;
        }
        if f & cls::DSPROFILEBASEWRAP != 0 {
            self.flush();
            let mut names = Vec::new();
            let mut values = Vec::new();
            let mut model = None;
            let mut base = None;
            // An invulnerable save inside the profile block is rendered after the profile.
            let mut invuln = Vec::new();
            // Whether the characteristics come before the model's name in the markup.
            let mut chars_first = None;
            for d in el.descendants().filter_map(ElementRef::wrap) {
                let fd = flags(&d);
                if fd & (cls::DSCHARNAME | cls::DSCHARVALUE | cls::DSMODELNAME) != 0 {
                    chars_first.get_or_insert(fd & cls::DSMODELNAME == 0);
                }
                if fd & cls::DSCHARNAME != 0 {
                    names.push(clean(&inline_text(d)));
                } else if fd & cls::DSCHARVALUE != 0 {
                    values.push(clean(&inline_text(d)));
                } else if fd & cls::DSMODELNAME != 0 {
                    model = Some(clean(&inline_text(d)));
                } else if fd & cls::DSMODELBASE != 0 {
                    base = Some(clean(&inline_text(d)));
                } else if fd & cls::DSINVULWRAP != 0 {
                    invuln.push(d);
                }
            }
            // The rows are found at their own markup (their values are too short to search
            // for), in the order of the page: some print the model's name after them.
            let rows = |r: &mut Self| {
                let n = (!names.is_empty()).then(|| r.loc.find(CHAR_NAME));
                let v = (!values.is_empty()).then(|| r.loc.find(CHAR_VALUE));
                (n, v)
            };
            let early = if chars_first == Some(true) {
                Some(rows(self))
            } else {
                None
            };
            if let Some(m) = model {
                self.push(BlockKind::Paragraph, m, Some(ClassHint::DsModelName));
            }
            if let Some(b) = base {
                self.push(BlockKind::Paragraph, b, Some(ClassHint::DsModelBase));
            }
            let (names_line, values_line) = early.unwrap_or_else(|| rows(self));
            if let Some(line) = names_line {
                self.row_at(names, Some(ClassHint::DsCharName), line);
            }
            if let Some(line) = values_line {
                self.row_at(values, Some(ClassHint::DsProfile), line);
            }
            for d in invuln {
                self.invuln(d);
            }
            return true;
        }
        if f & cls::DSINVULWRAP != 0 {
            self.flush();
            self.invuln(el);
            return true;
        }
        if f & cls::DSINVULCOMMENT != 0 {
            // The condition of the save above (`Ibram Gaunt only.`), printed after its frame.
            self.flush();
            self.push(
                BlockKind::Paragraph,
                inline_text(el),
                Some(ClassHint::DsInvulComment),
            );
            return true;
        }
        if tag(&el) == "table" && (f & cls::WTABLE != 0) {
            self.flush();
            self.weapon_table(el);
            return true;
        }
        if f & cls::DSLEFTCOLKW != 0 {
            self.flush();
            // Per-model groups are separated by `dsVertLine` spans.
            let mut group = String::new();
            for child in el.children() {
                match ElementRef::wrap(child) {
                    Some(c) if (flags(&c) & cls::DSVERTLINE != 0) => {
                        let g = std::mem::take(&mut group);
                        self.push(BlockKind::Paragraph, g, Some(ClassHint::DsKeywords));
                    }
                    Some(c) => group.push_str(&inline_text(c)),
                    None => {
                        if let Node::Text(t) = child.value() {
                            group.push_str(t);
                        }
                    }
                }
            }
            self.push(BlockKind::Paragraph, group, Some(ClassHint::DsKeywords));
            return true;
        }
        if f & cls::DSRIGHTCOLKW != 0 {
            self.flush();
            self.push(
                BlockKind::Paragraph,
                inline_text(el),
                Some(ClassHint::DsFactionKeywords),
            );
            return true;
        }
        if f & cls::DSHEADER != 0 {
            self.flush();
            self.push_heading(inline_text(el), 3, ClassHint::DsHeader);
            return true;
        }
        if f & cls::S10WRAP != 0 {
            self.flush();
            let mut name = String::new();
            let mut cp = String::new();
            let mut kind = String::new();
            for d in el.descendants().filter_map(ElementRef::wrap) {
                let fd = flags(&d);
                if fd & cls::S10NAME != 0 {
                    name = clean(&inline_text(d));
                    if let Some(next) = d
                        .next_siblings()
                        .filter_map(ElementRef::wrap)
                        .find(|n| inline_text(*n).contains("CP"))
                    {
                        cp = clean(&inline_text(next));
                    }
                } else if fd & cls::S10TYPE != 0 {
                    kind = clean(&inline_text(d));
                }
            }
            self.row(vec![name, cp, kind], Some(ClassHint::S10Wrap));
            return true;
        }
        if f & cls::S10ENHWRAP != 0 {
            self.flush();
            let mut cells: Vec<String> = el
                .child_elements()
                .map(|c| clean(&inline_text(c)))
                .filter(|c| !c.is_empty())
                .collect();
            cells.truncate(2);
            if !cells.is_empty() {
                self.row(cells, Some(ClassHint::S10EnhWrap));
            }
            return true;
        }
        false
    }

    fn invuln(&mut self, el: ElementRef) {
        for d in el.descendants().filter_map(ElementRef::wrap) {
            let fd = flags(&d);
            if fd & cls::DSCHARINVULVALUE != 0 {
                self.push(
                    BlockKind::Paragraph,
                    inline_text(d),
                    Some(ClassHint::DsInvul),
                );
            } else if fd & cls::DSINVULCOMMENT != 0 {
                self.push(
                    BlockKind::Paragraph,
                    inline_text(d),
                    Some(ClassHint::DsInvulComment),
                );
            }
        }
    }

    /// Weapon tables: header rows (`RANGED WEAPONS | RANGE | A | BS …`, wherever they sit,
    /// even inside the previous weapon's `tbody`) and one row per profile; the `wTable2_long`
    /// row that repeats each profile's name for narrow screens is the same profile and skipped.
    fn weapon_table(&mut self, table: ElementRef) {
        for tr in table.descendants().filter_map(ElementRef::wrap) {
            if tag(&tr) != "tr" || (flags(&tr) & cls::WTABLE2_LONG != 0) {
                continue;
            }
            let tds: Vec<ElementRef> = tr.child_elements().filter(|c| tag(c) == "td").collect();
            let is_header = tr
                .descendants()
                .filter_map(ElementRef::wrap)
                .any(|d| flags(&d) & cls::DSHEADER != 0);
            if is_header {
                let cells: Vec<String> = tds
                    .iter()
                    .map(|c| clean(&inline_text(*c)))
                    .filter(|c| !c.is_empty())
                    .collect();
                self.row(cells, Some(ClassHint::WHeader));
                continue;
            }
            let Some(pos) = tds.iter().position(|c| flags(c) & cls::WTABLE2_SHORT != 0) else {
                // Notes under a weapon (`dsOptionsComment`) and the like.
                let cells: Vec<String> = tds.iter().map(|c| clean(&inline_text(*c))).collect();
                if cells.iter().any(|c| !c.is_empty()) {
                    self.row(cells, Some(ClassHint::WNote));
                }
                continue;
            };
            let (name, keywords) = weapon_cell(tds[pos]);
            let mut first = name;
            if !keywords.is_empty() {
                first = format!("{first} [{}]", keywords.join(", "));
            }
            let mut cells = vec![first];
            cells.extend(tds[pos + 1..].iter().map(|c| clean(&inline_text(*c))));
            let pointy = tr
                .descendants()
                .filter_map(ElementRef::wrap)
                .any(|d| flags(&d) & cls::DSPOINTY != 0);
            self.row(
                cells,
                Some(if pointy {
                    ClassHint::WProfileMulti
                } else {
                    ClassHint::WProfile
                }),
            );
        }
    }

    /// One entry of a glossary tooltip container: a rule (`tooltip_header`), an ability card
    /// (`abName`), a stratagem card, or a keyword index (`The X keyword is used in the
    /// following …`).
    fn tooltip_entry<'a>(&mut self, entry: ElementRef<'a>, st: &mut Vec<Task<'a>>) {
        let started = entry
            .descendants()
            .filter_map(ElementRef::wrap)
            .take(8)
            .any(|d| flags(&d) & (cls::TOOLTIP_HEADER | cls::ABNAME | cls::STR10WRAP) != 0);
        if !started {
            // Keep entries apart: a marker heading with no text.
            let line = self.loc.find("");
            let mut b = Block::new(BlockKind::Heading, String::new(), line);
            b.region = self.region;
            b.class = Some(ClassHint::Tooltip);
            b.level = 6;
            self.blocks.push(b);
        }
        if let Some(c) = entry.first_child() {
            st.push(Task::GlossarySiblings(c));
        }
    }

    /// One child node of a glossary entry.
    fn glossary_node<'a>(&mut self, child: Nd<'a>, st: &mut Vec<Task<'a>>) {
        let Some(c) = ElementRef::wrap(child) else {
            self.node_text(child.value());
            return;
        };
        let fc = flags(&c);
        if fc & (cls::TOOLTIP_HEADER | cls::ABNAME) != 0 {
            self.flush();
            let class = if fc & cls::ABNAME != 0 {
                ClassHint::AbName
            } else {
                ClassHint::TooltipHeader
            };
            self.push_heading(inline_text(c), 4, class);
        } else if fc & (cls::ABWRAP | cls::ABFLEX | cls::ABNAMEWRAP) != 0 {
            if let Some(first) = c.first_child() {
                st.push(Task::GlossarySiblings(first));
            }
        } else if tag(&c) == "p" && starts_keyword_index(c) {
            self.flush();
            self.push(
                BlockKind::Paragraph,
                inline_text(c),
                Some(ClassHint::KeywordIndex),
            );
        } else {
            self.element(c, st);
        }
    }

    /// A stratagem card (`root`), read from its descendant `next` on: name, CP,
    /// `Group – Category Stratagem`, flavor, then the WHEN / TARGET / EFFECT / RESTRICTIONS
    /// paragraphs. A `str10Text` paragraph is rendered as a container (pushed as tasks); the
    /// card's reading resumes after it.
    fn stratagem_card<'a>(
        &mut self,
        root: Nd<'a>,
        mut next: Option<Nd<'a>>,
        st: &mut Vec<Task<'a>>,
    ) {
        while let Some(n) = next {
            next = preorder_next(n, root, true);
            let Some(d) = ElementRef::wrap(n) else {
                continue;
            };
            let fd = flags(&d);
            let class = if fd & cls::STR10NAME != 0 {
                ClassHint::Str10Name
            } else if fd & cls::STR10CP != 0 {
                ClassHint::Str10Cp
            } else if fd & cls::STR10TYPE != 0 {
                ClassHint::Str10Type
            } else if fd & cls::STR10LEGEND != 0 {
                ClassHint::Str10Legend
            } else if fd & cls::STR10TEXT != 0 {
                self.flush();
                st.push(Task::Stratagem { root, next });
                self.scope(st, self.region, Some(ClassHint::Str10Text));
                push_children(st, d);
                return;
            } else {
                continue;
            };
            if class == ClassHint::Str10Name {
                self.push_heading(inline_text(d), 4, class);
            } else {
                self.push(BlockKind::Paragraph, inline_text(d), Some(class));
            }
        }
    }
}

/// `<p>The <span>X</span> keyword is used in the following … datasheets:</p>`, checked on
/// the paragraph's first text without rendering it.
fn starts_keyword_index(p: ElementRef) -> bool {
    let first = p.children().find_map(|c| match c.value() {
        Node::Text(t) => Some(t.trim_start().starts_with("The")),
        _ => None,
    });
    first == Some(true) && inline_text(p).contains("keyword is used in the following")
}

/// The site prints a keyword once per detachment filter (`snFl` spans, all but one hidden by
/// script): the first variant is the text, the repeats are not.
fn is_repeated_variant(el: &ElementRef, f: u64) -> bool {
    f & cls::SNFL != 0
        && el.value().name() == "span"
        && attr(el, "style").is_some()
        && el
            .prev_siblings()
            .filter_map(ElementRef::wrap)
            .any(|p| flags(&p) & cls::SNFL != 0)
}

/// An element that contains a datasheet, tooltip or stratagem card.
fn holds_structure(el: ElementRef) -> bool {
    el.descendent_elements()
        .any(|d| flags(&d) & (cls::DSOUTERFRAME | cls::TOOLTIP_TEMPLATES | cls::STR10WRAP) != 0)
}

/// A table row whose cells hold paragraphs or lists.
fn has_block_content(tr: ElementRef) -> bool {
    tr.child_elements().any(|td| {
        td.child_elements()
            .any(|c| matches!(tag(&c), "p" | "ul" | "ol" | "table"))
    })
}

/// A weapon's name cell: the name, and its abilities — one `kwb2` span each, possibly split
/// into one span per word, in any case, sometimes wrapped in literal brackets.
fn weapon_cell(td: ElementRef) -> (String, Vec<String>) {
    let mut name = String::new();
    let mut keywords = Vec::new();
    collect_weapon(td, &mut name, &mut keywords);
    (clean(&name), keywords)
}

fn collect_weapon(el: ElementRef, name: &mut String, keywords: &mut Vec<String>) {
    walk(*el, |child| match ElementRef::wrap(child) {
        Some(c) if (flags(&c) & cls::KWB2 != 0) => {
            let k = clean(&inline_text(c));
            let k = k
                .trim_matches(|ch: char| ch == '[' || ch == ']' || ch == ',')
                .trim();
            if !k.is_empty() {
                keywords.push(k.to_string());
            }
            false
        }
        Some(c) if (flags(&c) & cls::DSPOINTY != 0) || SKIPPED_TAGS.contains(&tag(&c)) => false,
        Some(_) => true,
        None => {
            if let Node::Text(t) = child.value() {
                name.push_str(t);
            }
            false
        }
    });
}

/// All text under `el`, `<br>` as a space; scripts, styles and form controls left out.
fn inline_text(el: ElementRef) -> String {
    let mut s = String::new();
    push_text(el, &mut s);
    s
}

fn push_text(el: ElementRef, s: &mut String) {
    walk(*el, |child| match child.value() {
        Node::Text(t) => {
            s.push_str(t);
            false
        }
        Node::Element(e) if e.name() == "br" => {
            s.push(' ');
            false
        }
        Node::Element(e) if SKIPPED_TAGS.contains(&e.name()) => false,
        Node::Element(_) => ElementRef::wrap(child)
            .is_some_and(|c| tag(&c) != "span" || !is_repeated_variant(&c, flags(&c))),
        _ => false,
    });
}

/// Whitespace runs (including non-breaking spaces) collapsed to one space, trimmed.
fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() || c == '\u{a0}' {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
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

// --- Fragments: HTML inside a field of a structured source ------------------------------------

/// Renders an HTML fragment (a field of a structured source, such as a description cell of
/// Wahapedia's CSV export) into blocks: one `Paragraph` per line (`<br>`, `<p>`, `<div>` and
/// list boundaries end a line; empty lines are dropped), one `ListItem` per `<li>` with its
/// list depth in `level`. Entities are decoded, whitespace collapsed, scripts and styles left
/// out; every block has line 0 (the caller knows the row). Walks the tree with an explicit
/// stack, so nesting depth cannot exhaust the stack. Text without `<` or `&` is not parsed.
///
/// A fragment goes through the page's limits ([`limit_depth`]: [`MAX_DEPTH`] nested elements,
/// [`MAX_FORMATTING`] formatting elements open): a tag past them is read as text, so a field
/// of nested markup costs the parser linear time and memory (a 210 KB field of `<b><p>`
/// re-opened every formatting element in every paragraph, 6 GB; a million nested `<div>`s
/// walked the stack of open elements at every tag).
pub fn fragment_blocks(html: &str) -> Vec<Block> {
    fragment_blocks_counted(html).0
}

/// [`fragment_blocks`], and how many tags were past the limits and read as text (a caller
/// with a diagnostics list says so with `S013`).
pub fn fragment_blocks_counted(html: &str) -> (Vec<Block>, usize) {
    let mut out: Vec<Block> = Vec::new();
    if !html.contains(['<', '&']) {
        let t = clean(html);
        if !t.is_empty() {
            out.push(Block::new(BlockKind::Paragraph, t, 0));
        }
        return (out, 0);
    }
    let (doc, neutralized) = parse_limited_fragment(html);
    let mut line = String::new();
    let mut depth: u8 = 0;
    let mut item: Option<u8> = None;
    let flush = |line: &mut String, item: Option<u8>, out: &mut Vec<Block>| {
        let t = clean(line);
        line.clear();
        if t.is_empty() {
            return;
        }
        let mut b = Block::new(
            if item.is_some() {
                BlockKind::ListItem
            } else {
                BlockKind::Paragraph
            },
            t,
            0,
        );
        b.level = item.unwrap_or(0);
        out.push(b);
    };
    // (node, leaving): a node is visited on the way in, and once more on the way out.
    let mut stack = vec![(doc.tree.root(), false)];
    while let Some((node, leaving)) = stack.pop() {
        match node.value() {
            Node::Text(t) if !leaving => line.push_str(t),
            Node::Element(e) => {
                let name = e.name();
                if SKIPPED_TAGS.contains(&name) {
                    continue;
                }
                let block = matches!(
                    name,
                    "p" | "div" | "ul" | "ol" | "li" | "table" | "tr" | "h1" | "h2" | "h3" | "h4"
                );
                if name == "br" {
                    flush(&mut line, item, &mut out);
                    continue;
                }
                if block {
                    flush(&mut line, item, &mut out);
                }
                match (name, leaving) {
                    ("ul" | "ol", false) => depth = depth.saturating_add(1),
                    ("ul" | "ol", true) => depth = depth.saturating_sub(1),
                    ("li", false) => item = Some(depth.max(1)),
                    ("li", true) => item = None,
                    ("td" | "th", _) => line.push(' '),
                    _ => {}
                }
                if !leaving {
                    stack.push((node, true));
                    let children: Vec<_> = node.children().collect();
                    stack.extend(children.into_iter().rev().map(|c| (c, false)));
                }
            }
            _ if !leaving => {
                stack.push((node, true));
                let children: Vec<_> = node.children().collect();
                stack.extend(children.into_iter().rev().map(|c| (c, false)));
            }
            _ => {}
        }
    }
    flush(&mut line, item, &mut out);
    (out, neutralized)
}

/// The text of an HTML fragment on one line: [`fragment_blocks`] joined with spaces.
pub fn fragment_text(html: &str) -> String {
    let blocks = fragment_blocks(html);
    let mut s = String::new();
    for b in blocks {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&b.text);
    }
    s
}

/// A fragment parsed after the page's limits ([`limit_depth`]: a tag past them is text), and
/// how many tags were past them.
fn parse_limited_fragment(html: &str) -> (Html, usize) {
    let scan = limit_depth(html, MAX_DEPTH);
    let limited = if scan.neutralized.is_empty() {
        Cow::Borrowed(html)
    } else {
        Cow::Owned(neutralize(html, &scan.neutralized))
    };
    (Html::parse_fragment(&limited), scan.neutralized.len())
}

/// Renders a fragment whose lines are its text's own newlines (the GW app's texts: `\n\n`
/// between paragraphs, inline `<b> <i> <k> <u>`, `<ul><li>` lists, `<table>`): a `Paragraph`
/// per line (`blank_before` when an empty line precedes it), a `ListItem` per `<li>` (`level`
/// its list depth), a `TableRow` per `<tr>` with its cells (`level` 1 when every cell is a
/// `<th>`: the column headings). Inside a cell a newline or a block element (a stray `<li>`)
/// is a space. The same limits as [`fragment_blocks`]; every block has line 0.
pub fn fragment_lines(html: &str) -> Vec<Block> {
    let (doc, _) = parse_limited_fragment(html);
    let mut w = Lines::default();
    let mut stack = vec![(doc.tree.root(), false)];
    while let Some((node, leaving)) = stack.pop() {
        let name = match node.value() {
            Node::Text(t) if !leaving => {
                w.text(t);
                continue;
            }
            Node::Element(e) if SKIPPED_TAGS.contains(&e.name()) => continue,
            Node::Element(e) => e.name(),
            _ => "",
        };
        w.element(name, leaving);
        if !leaving && name != "br" {
            stack.push((node, true));
            let children: Vec<_> = node.children().collect();
            stack.extend(children.into_iter().rev().map(|c| (c, false)));
        }
    }
    w.flush();
    w.out
}

/// [`fragment_lines`]' state: the blocks so far, the line being read, whether an empty line
/// came before it, the list depth and item, the table row being read (its cells, and whether
/// every cell so far is a `<th>`).
#[derive(Default)]
struct Lines {
    out: Vec<Block>,
    line: String,
    blank: bool,
    newlines: u8,
    depth: u8,
    item: Option<u8>,
    row: Option<(Vec<String>, bool)>,
}

impl Lines {
    fn flush(&mut self) {
        let t = clean(&self.line);
        self.line.clear();
        if t.is_empty() {
            return;
        }
        let kind = if self.item.is_some() {
            BlockKind::ListItem
        } else {
            BlockKind::Paragraph
        };
        let mut b = Block::new(kind, t, 0);
        b.level = self.item.unwrap_or(0);
        b.blank_before = std::mem::take(&mut self.blank);
        self.out.push(b);
    }

    /// A text node: each newline ends a line (outside a table cell); two with nothing
    /// between mark the next block `blank_before`.
    fn text(&mut self, t: &str) {
        if self.row.is_some() {
            self.line.push_str(t);
            return;
        }
        for (i, part) in t.split('\n').enumerate() {
            if i > 0 && self.line.trim().is_empty() {
                self.newlines = self.newlines.saturating_add(1);
                self.blank |= self.newlines > 1 && !self.out.is_empty();
            } else if i > 0 {
                self.flush();
                self.newlines = 1;
            }
            if !part.trim().is_empty() {
                self.newlines = 0;
            }
            self.line.push_str(part);
        }
    }

    fn element(&mut self, name: &str, leaving: bool) {
        match (name, leaving) {
            ("tr", false) => {
                self.flush();
                self.row = Some((Vec::new(), true));
            }
            ("tr", true) => {
                if let Some((cells, heads)) = self.row.take() {
                    let mut b = Block::row(&cells, 0);
                    b.level = u8::from(heads && !cells.is_empty());
                    self.out.push(b);
                }
            }
            ("td" | "th", false) => {
                self.line.clear();
                if let Some(r) = self.row.as_mut().filter(|_| name == "td") {
                    r.1 = false;
                }
            }
            ("td" | "th", true) => {
                if let Some((cells, _)) = self.row.as_mut() {
                    cells.push(clean(&self.line));
                }
                self.line.clear();
            }
            _ if self.row.is_some() && LINE_TAGS.contains(&name) => self.line.push(' '),
            _ if LINE_TAGS.contains(&name) => {
                self.flush();
                self.newlines = 0;
                match (name, leaving) {
                    ("ul" | "ol", false) => self.depth = self.depth.saturating_add(1),
                    ("ul" | "ol", true) => self.depth = self.depth.saturating_sub(1),
                    ("li", false) => self.item = Some(self.depth.max(1)),
                    ("li", true) => self.item = None,
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// Elements that end a line of a fragment (inside a table cell: a space).
const LINE_TAGS: &[&str] = &[
    "br", "p", "div", "ul", "ol", "li", "table", "h1", "h2", "h3", "h4",
];

#[cfg(test)]
mod fragment_tests {
    use super::*;

    #[test]
    fn fragment_lines_keep_newlines_lists_and_table_cells() {
        let b = fragment_lines(
            "One <b>hit roll</b>.\nSame paragraph? No.\n\n<ul><li>a</li>\n<li>b</li></ul>\n<table>\n  <tr>\n    <th> </th><th><b>X</b></th>\n  </tr>\n  <tr><td>Unmodified\n 1</td><td>FAILS<li>(e.g.)</li></td></tr>\n</table>\n\nAfter.",
        );
        let got: Vec<(BlockKind, &str, u8, bool)> = b
            .iter()
            .map(|b| (b.kind, b.text.as_str(), b.level, b.blank_before))
            .collect();
        assert_eq!(
            got,
            [
                (BlockKind::Paragraph, "One hit roll.", 0, false),
                (BlockKind::Paragraph, "Same paragraph? No.", 0, false),
                (BlockKind::ListItem, "a", 1, true),
                (BlockKind::ListItem, "b", 1, false),
                (BlockKind::TableRow, " | X", 1, false),
                (BlockKind::TableRow, "Unmodified 1 | FAILS (e.g.)", 0, false),
                (BlockKind::Paragraph, "After.", 0, true),
            ]
        );
        assert_eq!(b[5].cells.get(1), Some("FAILS (e.g.)"));
        assert!(fragment_lines("").is_empty());
    }

    #[test]
    fn fragments_split_at_breaks_and_list_items() {
        let b = fragment_blocks(
            "<b>WHEN:</b> Your <a href=\"#x\">Shooting phase</a>.<br><br><b>TARGET:</b> One unit\
             &nbsp;from your army.<ul><li>1 a</li><li>1 &amp; b</li></ul>",
        );
        let texts: Vec<(&str, u8)> = b.iter().map(|b| (b.text.as_str(), b.level)).collect();
        assert_eq!(
            texts,
            [
                ("WHEN: Your Shooting phase.", 0),
                ("TARGET: One unit from your army.", 0),
                ("1 a", 1),
                ("1 & b", 1)
            ]
        );
        assert_eq!(b[2].kind, BlockKind::ListItem);
        assert_eq!(fragment_text("plain  text "), "plain text");
        assert_eq!(
            fragment_text("<a>anti-infantry 4+</a>, <a>rapid fire 1</a>"),
            "anti-infantry 4+, rapid fire 1"
        );
        assert!(fragment_blocks("").is_empty());
        assert_eq!(fragment_text("<div><span>unclosed"), "unclosed");
    }
}
