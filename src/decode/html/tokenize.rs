//! A byte-level HTML tokenizer feeding html5ever's tree builder its tokens directly.
//!
//! html5ever's own tokenizer steps one character at a time through tendrils (about 100
//! instructions a byte); a Wahapedia page is mostly tags, and most of a tag is attribute values
//! nobody reads. This one jumps with `memchr` to the next `<` (text) or the end of a quoted
//! value, and builds only the attributes the tree keeps or the tree builder reads ([`KEPT`]),
//! and every attribute of a formatting element (the builder compares those: [`Keep::All`]);
//! every other attribute is skipped without decoding. For the fast builder
//! ([`Feed::reads_kept`]) it builds no attribute at all: it reads the kept ones straight into
//! the tree's [`Kept`] (a `class` value's bits remembered per page), and hands text runs over
//! as ranges of the page ([`Feed::text_at`]), so nothing is copied or allocated per tag or run.
//! With limits on, it counts open tags as it reads them (the [`super::limit_depth`] counter)
//! and reads a tag past the limits as text. It follows the WHATWG tokenizer states
//! as html5ever implements them (character references through html5ever's named-entity table
//! and its numeric rules, first duplicate attribute wins, `<!-->` comments, bogus comments,
//! `</>`, EOF inside a tag drops the tag, CDATA only in foreign content), and honours the tree
//! builder's answers: `RawData` (RCDATA with references, RAWTEXT, script data up to the
//! appropriate end tag) and `Plaintext`. Doctypes other than `<!DOCTYPE html>` are tokenized
//! by html5ever's tokenizer (they decide quirks mode, which shapes the tree).
//!
//! What it does not do itself, and gives back as [`Fallback`] (the caller then parses the page
//! with html5ever's tokenizer, so the tree is the same either way): a page with a NUL byte
//! (its handling differs by state and insertion mode), and a script whose text holds `<!--`
//! before its end tag (script data's escaped states). Neither occurs in the corpus.
//!
//! Repeated containers: at a `div` the builder qualifies for the memo ([`super::memo`]), the
//! tokenizer looks the element's bytes up there, reads it on its own the first time
//! ([`read_alone`], a second tokenizer over the same text with a fresh builder) and moves past
//! its end tag when the memo has it.
//!
//! Owns tokenization only: it must not build or read the tree (the tree builder does), nor
//! know the site's markup. Never recurses, never panics on input (every index is checked).

use super::memo::{Entry, Memo};
use super::tree::Kept;
use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
};
use html5ever::{local_name, ns, Attribute, LocalName, QualName};
use memchr::memmem;
use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

/// The page needs html5ever's own tokenizer (see the module doc).
#[derive(Debug, PartialEq, Eq)]
pub struct Fallback;

/// The attributes passed to the tree builder: what the tree keeps (`class`, `style`, a link's
/// `href`, an image's `title`, and their `xlink:` forms in SVG) and what the tree builder
/// itself reads (`type` of `input`, `encoding` of `annotation-xml`, `color`/`face`/`size` of
/// `font` in foreign content, `form`, `shadowrootmode` of `template`). Every other attribute
/// is skipped: neither the builder nor the tree would look at it.
const KEPT: [&str; 13] = [
    "class",
    "style",
    "href",
    "title",
    "type",
    "encoding",
    "color",
    "face",
    "size",
    "form",
    "xlink:href",
    "xlink:title",
    "shadowrootmode",
];

/// The atom of [`KEPT`]`[i]` (a constant: no hashing per attribute).
fn kept_atom(i: usize) -> LocalName {
    match i {
        0 => local_name!("class"),
        1 => local_name!("style"),
        2 => local_name!("href"),
        3 => local_name!("title"),
        4 => local_name!("type"),
        5 => local_name!("encoding"),
        6 => local_name!("color"),
        7 => local_name!("face"),
        8 => local_name!("size"),
        9 => local_name!("form"),
        i => LocalName::from(KEPT.get(i).copied().unwrap_or_default()),
    }
}

/// A tag name's atom: the common ones as constants (no hashing), any other interned.
fn tag_atom(name: &str) -> LocalName {
    match name {
        "div" => local_name!("div"),
        "span" => local_name!("span"),
        "a" => local_name!("a"),
        "td" => local_name!("td"),
        "tr" => local_name!("tr"),
        "p" => local_name!("p"),
        "b" => local_name!("b"),
        "img" => local_name!("img"),
        "br" => local_name!("br"),
        "li" => local_name!("li"),
        "table" => local_name!("table"),
        "tbody" => local_name!("tbody"),
        "th" => local_name!("th"),
        "i" => local_name!("i"),
        "ul" => local_name!("ul"),
        "script" => local_name!("script"),
        "option" => local_name!("option"),
        "svg" => local_name!("svg"),
        "path" => local_name!("path"),
        "link" => local_name!("link"),
        "meta" => local_name!("meta"),
        _ => LocalName::from(name),
    }
}

/// A tree builder the tokenizer feeds: html5ever's, which builds any page, or the fast
/// [`super::build::Builder`], which may give up on one (the tokenizer then stops, with
/// [`Fallback`]).
pub trait Feed: TokenSink {
    fn gave_up(&self) -> bool {
        false
    }

    /// Whether the tokenizer is to stop (after a tag): the element a subtree read on its own
    /// was reading is closed ([`read_alone`]).
    fn done(&self) -> bool {
        false
    }

    /// The memo, when the element just opened may be read from it ([`super::memo`]).
    fn memo_for_open(&self) -> Option<&Memo> {
        None
    }

    /// The element just opened was read from the memo as `entry`: attach it and close the
    /// element.
    fn close_from_memo(&self, entry: Arc<Entry>) {
        let _ = entry;
    }

    /// Whether start tags (but those of `html`, `body` and `input`) may come as
    /// [`Feed::start_kept`]: attributes read into what the tree keeps, no `Attribute` built.
    fn reads_kept(&self) -> bool {
        false
    }

    /// The text `text[from..to]` (no references in it) of the text the tokenizer reads.
    fn text_at(&self, text: &str, from: usize, to: usize) -> TokenSinkResult<Self::Handle> {
        let chars = StrTendril::from_slice(text.get(from..to).unwrap_or_default());
        self.process_token(Token::CharacterTokens(chars), 1)
    }

    /// A start tag with its attributes read into `kept`. Only a feed that [`Feed::reads_kept`]
    /// is given these (this default, for the others, could not give the attributes back).
    fn start_kept(
        &self,
        name: LocalName,
        self_closing: bool,
        kept: Kept,
    ) -> TokenSinkResult<Self::Handle> {
        let _ = kept;
        self.process_token(
            Token::TagToken(Tag {
                kind: TagKind::StartTag,
                name,
                self_closing,
                attrs: Vec::new(),
                had_duplicate_attributes: false,
            }),
            1,
        )
    }
}

impl<H: Clone, S: html5ever::tree_builder::TreeSink<Handle = H>> Feed
    for html5ever::tree_builder::TreeBuilder<H, S>
{
}

impl Feed for super::build::Builder<'_> {
    fn gave_up(&self) -> bool {
        super::build::Builder::gave_up(self)
    }

    fn done(&self) -> bool {
        super::build::Builder::done(self)
    }

    fn memo_for_open(&self) -> Option<&Memo> {
        super::build::Builder::memo_for_open(self)
    }

    fn close_from_memo(&self, entry: Arc<Entry>) {
        super::build::Builder::close_from_memo(self, entry);
    }

    fn reads_kept(&self) -> bool {
        true
    }

    fn start_kept(&self, name: LocalName, _self_closing: bool, kept: Kept) -> TokenSinkResult<u32> {
        super::build::Builder::start_kept(self, name, kept)
    }

    fn text_at(&self, text: &str, from: usize, to: usize) -> TokenSinkResult<u32> {
        super::build::Builder::text_at(self, text, from, to)
    }
}

/// A tag as read: html5ever's, or a start tag with its attributes read into what the tree
/// keeps ([`Feed::start_kept`]).
enum Read {
    Tag(Tag),
    Kept(LocalName, bool, Kept),
}

impl Read {
    fn name(&self) -> &LocalName {
        match self {
            Read::Tag(t) => &t.name,
            Read::Kept(name, ..) => name,
        }
    }
}

/// The tags read as text because they were past the depth limits ([`super::MAX_DEPTH`],
/// [`super::MAX_FORMATTING`]), counted as [`super::limit_depth`] counts them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AsText {
    /// How many start and end tags.
    pub tags: usize,
    /// The line of the first (1-based; 0 when none).
    pub first_line: u32,
}

/// Tokenizes `text` into `sink` (the tree builder), EOF and `end` included; [`Fallback`] when
/// the page needs html5ever's tokenizer or the builder gave up. With `limits`, a tag past the
/// depth limits is read as text (as [`super::limit_depth`] and `neutralize` would have it
/// read) and counted in the answer; without, every tag is a tag (to compare tokenizers).
pub fn run<S: Feed>(text: &str, sink: &S, limits: bool) -> Result<AsText, Fallback> {
    // html5ever's tokenizer drops one leading byte-order mark, and normalizes CR LF and CR
    // to LF before any state sees them.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if memchr::memchr(0, text.as_bytes()).is_some() {
        return Err(Fallback);
    }
    let text: Cow<str> = if memchr::memchr(b'\r', text.as_bytes()).is_some() {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    };
    let mut t = Tok {
        s: &text,
        sink,
        pos: 0,
        counter: limits.then(|| super::DepthCounter::new(super::MAX_DEPTH)),
        as_text: 0,
        first_as_text: None,
        uncounted_until: 0,
        classes: ClassBits::default(),
    };
    t.data()?;
    let _ = sink.process_token(Token::EOFToken, 1);
    sink.end();
    if sink.gave_up() {
        return Err(Fallback);
    }
    let first_line = t.first_as_text.map_or(0, |at| super::line_at(&text, at));
    Ok(AsText {
        tags: t.as_text,
        first_line,
    })
}

/// An element read on its own ([`read_alone`]): its tree (`html`, `body`, the element), where
/// it ends, and how deep the depth counter went in it.
pub struct Alone<'t> {
    pub tree: super::tree::Tree<'t>,
    /// Past the `>` of the end tag that closed it.
    pub end: usize,
    /// The deepest the counter went, counting the element itself as 1.
    pub max_depth: usize,
    /// The most formatting elements open at once.
    pub max_formatting: usize,
}

/// The element whose start tag is at `lt` of `text` (a page as the tokenizer reads it) read
/// on its own, for the memo ([`super::memo`]): a fresh fast builder given a doctype, then the
/// page from `lt` up to the end tag that closes the element. `None` when the builder gave up or
/// did not end as it started ([`super::build::Builder::settled`]), the page ended first, or a
/// tag in it was past the depth limits (or left the counter elsewhere than it started).
pub fn read_alone(text: &str, lt: usize) -> Option<Alone<'_>> {
    let builder = super::build::Builder::isolated(super::tree::new_sink(text, false));
    let mut t = Tok {
        s: text,
        sink: &builder,
        pos: lt,
        counter: Some(super::DepthCounter::new(super::MAX_DEPTH)),
        as_text: 0,
        first_as_text: None,
        uncounted_until: lt,
        classes: ClassBits::default(),
    };
    t.data().ok()?;
    let end = t.pos;
    let counter = t.counter.as_ref()?;
    let plain = builder.done()
        && builder.settled()
        && t.as_text == 0
        && counter.depth == 0
        && counter.formatting == 0
        && counter.foreign == 0
        && counter.held.is_empty();
    if !plain {
        return None;
    }
    let (max_depth, max_formatting) = (counter.max_depth, counter.max_formatting);
    Some(Alone {
        tree: builder.finish()?,
        end,
        max_depth,
        max_formatting,
    })
}

/// HTML's whitespace (CR is gone by then).
fn is_ws(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0C | b' ')
}

struct Tok<'t, S> {
    s: &'t str,
    sink: &'t S,
    pos: usize,
    /// The depth limits' count of open tags (none: no limits).
    counter: Option<super::DepthCounter>,
    /// Tags read as text so far, and the offset of the first.
    as_text: usize,
    first_as_text: Option<usize>,
    /// The end of the last tag read as text.
    uncounted_until: usize,
    classes: ClassBits<'t>,
}

impl<S: Feed> Tok<'_, S> {
    fn b(&self) -> &[u8] {
        self.s.as_bytes()
    }

    fn emit(&self, token: Token) -> TokenSinkResult<S::Handle> {
        self.sink.process_token(token, 1)
    }

    /// Text `s[from..to]`, character references decoded when `refs`.
    fn text(&self, from: usize, to: usize, refs: bool) {
        let Some(seg) = self.s.get(from..to).filter(|t| !t.is_empty()) else {
            return;
        };
        if refs && memchr::memchr(b'&', seg.as_bytes()).is_some() {
            let mut out = String::with_capacity(seg.len());
            decode_refs(seg, false, &mut out);
            let _ = self.emit(Token::CharacterTokens(StrTendril::from_slice(&out)));
        } else {
            let _ = self.sink.text_at(self.s, from, to);
        }
    }

    /// The data state: text up to each `<`, then the markup it opens.
    fn data(&mut self) -> Result<(), Fallback> {
        let len = self.s.len();
        let mut text_from = self.pos;
        let mut search = self.pos;
        while let Some(k) = memchr::memchr(b'<', self.b().get(search..).unwrap_or_default()) {
            let lt = search + k;
            let next = self.b().get(lt + 1).copied();
            let markup = match next {
                Some(b'!' | b'?') => true,
                Some(b'/') => self.b().get(lt + 2).is_some(),
                Some(c) => c.is_ascii_alphabetic(),
                None => false,
            };
            if !markup {
                // `<` before a non-letter (or `</` at the end) is text.
                search = lt + 1;
                continue;
            }
            self.pos = lt;
            let tag_is_text = self.markup(text_from)?;
            if self.sink.gave_up() {
                return Err(Fallback);
            }
            if tag_is_text {
                // Past the depth limits: its `<` is text, and the text run goes on.
                search = lt + 1;
                continue;
            }
            text_from = self.pos;
            search = self.pos;
            if self.sink.done() {
                return Ok(());
            }
        }
        self.text(text_from, len, true);
        self.pos = len;
        Ok(())
    }

    /// The markup at `self.pos` (a `<` that opens a tag, comment or declaration), after the
    /// text from `text_from`; `true` when it is a tag past the depth limits, to be read as
    /// text (the text from `text_from` is then not emitted yet).
    fn markup(&mut self, text_from: usize) -> Result<bool, Fallback> {
        let lt = self.pos;
        let b = self.s.as_bytes();
        // Where the tag's name starts, and what tag it is; `None` for anything but a tag.
        let tag_at = match b.get(lt + 1) {
            Some(b'/') => match b.get(lt + 2) {
                Some(c) if c.is_ascii_alphabetic() => Some((lt + 2, TagKind::EndTag)),
                _ => None,
            },
            Some(b'!' | b'?') => None,
            _ => Some((lt + 1, TagKind::StartTag)),
        };
        let Some((name_at, kind)) = tag_at else {
            self.text(text_from, lt, true);
            match b.get(lt + 1) {
                Some(b'!') => self.declaration(),
                Some(b'?') => self.bogus_comment(lt + 1),
                _ if b.get(lt + 2) == Some(&b'>') => self.pos = lt + 3,
                _ => self.bogus_comment(lt + 2),
            }
            return Ok(false);
        };
        let Some(tag) = self.read_tag(name_at, kind) else {
            // The input ends inside the tag, which is dropped.
            self.text(text_from, lt, true);
            return Ok(false);
        };
        // A tag inside a tag read as text (`<div title="<b>">`) is read as a tag, but not
        // counted: the byte scan went on after the whole tag.
        if lt >= self.uncounted_until && self.past_limits(&tag) {
            self.as_text += 1;
            self.first_as_text.get_or_insert(lt);
            self.uncounted_until = self.pos;
            return Ok(true);
        }
        self.text(text_from, lt, true);
        let name = tag.name().clone();
        let answer = match tag {
            Read::Tag(tag) => self.emit(Token::TagToken(tag)),
            Read::Kept(name, self_closing, kept) => self.sink.start_kept(name, self_closing, kept),
        };
        if kind == TagKind::StartTag {
            self.after_start_tag(answer, &name)?;
            if name == local_name!("div") {
                if let Some(memo) = self.sink.memo_for_open() {
                    self.read_from_memo(lt, memo);
                }
            }
        }
        Ok(false)
    }

    /// The element whose start tag is at `lt`, just opened and qualified by the builder, read
    /// from `memo` (filled first with a reading of it on its own when it is not there yet):
    /// the tokenizer moves past its end tag. Nothing happens when it does not qualify (its
    /// reading on its own failed, or in this page it would reach the depth limits): it is
    /// then read here, tag by tag.
    fn read_from_memo(&mut self, lt: usize, memo: &Memo) {
        let Some(counter) = &self.counter else {
            return;
        };
        if !counter.held.is_empty() || counter.foreign > 0 || lt < self.uncounted_until {
            return;
        }
        let rest = self.b().get(lt..).unwrap_or_default();
        if rest.len() < super::memo::PREFIX {
            return;
        }
        let (entry, found) = match memo.find(rest) {
            Some(entry) => (entry, true),
            None => match super::memo::first_reading(self.s, lt) {
                Some(entry) => (memo.insert(entry), false),
                None => return,
            },
        };
        // The element's own level is counted in both (`depth` here, 1 in `max_depth`).
        if counter.depth + entry.max_depth > counter.limit + 1
            || counter.formatting + entry.max_formatting > super::MAX_FORMATTING
        {
            return;
        }
        if found {
            memo.hit();
        }
        let end = lt + entry.key.len();
        self.sink.close_from_memo(entry);
        if let Some(counter) = &mut self.counter {
            counter.end("div");
        }
        self.pos = end;
    }

    /// Whether `tag` is past the depth limits (counted as [`super::limit_depth`] counts).
    fn past_limits(&mut self, tag: &Read) -> bool {
        let Some(counter) = &mut self.counter else {
            return false;
        };
        match tag {
            Read::Tag(t) if t.kind == TagKind::EndTag => counter.end(&t.name),
            Read::Tag(t) => counter.start(&t.name, t.self_closing) == super::Opened::AsText,
            Read::Kept(name, self_closing, _) => {
                counter.start(name, *self_closing) == super::Opened::AsText
            }
        }
    }

    /// A comment whose text starts at `from` and ends at the next `>` (or the end).
    fn bogus_comment(&mut self, from: usize) {
        self.pos = match memchr::memchr(b'>', self.b().get(from..).unwrap_or_default()) {
            Some(k) => from + k + 1,
            None => self.s.len(),
        };
        let _ = self.emit(Token::CommentToken(StrTendril::new()));
    }

    /// `<!`: a comment, a doctype, CDATA (in foreign content) or a bogus comment.
    fn declaration(&mut self) {
        let lt = self.pos;
        let b = self.b();
        let rest = b.get(lt + 2..).unwrap_or_default();
        if rest.starts_with(b"--") {
            self.pos = comment_end(b, lt + 4);
            let _ = self.emit(Token::CommentToken(StrTendril::new()));
        } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            let end = memchr::memchr(b'>', rest).map_or(self.s.len(), |k| lt + 2 + k + 1);
            let doctype = self.s.get(lt..end).map(doctype).unwrap_or_default();
            self.pos = end;
            let _ = self.emit(Token::DoctypeToken(doctype));
        } else if rest.starts_with(b"[CDATA[")
            && self
                .sink
                .adjusted_current_node_present_but_not_in_html_namespace()
        {
            let from = lt + 9;
            let to = memmem::find(b.get(from..).unwrap_or_default(), b"]]>")
                .map_or(self.s.len(), |k| from + k);
            self.text(from, to, false);
            self.pos = (to + 3).min(self.s.len());
        } else {
            self.bogus_comment(lt + 2);
        }
    }

    /// Reads the tag whose name starts at `name_at` (`self.pos` then after it); `None` when
    /// the input ends inside the tag (which is then dropped, as html5ever does).
    fn read_tag(&mut self, name_at: usize, kind: TagKind) -> Option<Read> {
        let s = self.s;
        let b = s.as_bytes();
        let len = b.len();
        self.pos = len;
        let name_end = name_at
            + b.get(name_at..)?
                .iter()
                .position(|&c| is_ws(c) || c == b'/' || c == b'>')?;
        let raw = s.get(name_at..name_end)?;
        let name = if raw.bytes().any(|c| c.is_ascii_uppercase()) {
            tag_atom(&raw.to_ascii_lowercase())
        } else {
            tag_atom(raw)
        };
        let kept = kind == TagKind::StartTag
            && self.sink.reads_kept()
            && !matches!(
                name,
                local_name!("html") | local_name!("body") | local_name!("input")
            );
        if kept {
            let (kept, self_closing, end) = kept_attributes(s, name_end, &name, &mut self.classes)?;
            self.pos = end;
            return Some(Read::Kept(name, self_closing, kept));
        }
        let keep = match kind {
            TagKind::EndTag => Keep::Nothing,
            _ if super::is_formatting(&name) => Keep::All,
            _ => Keep::Read,
        };
        let (attrs, self_closing, end) = attributes(s, name_end, keep)?;
        self.pos = end;
        Some(Read::Tag(Tag {
            kind,
            name,
            self_closing,
            attrs,
            had_duplicate_attributes: false,
        }))
    }

    /// Switches state as the tree builder answered a start tag: RCDATA, RAWTEXT and script
    /// data run to the appropriate end tag (which is then read as a tag); PLAINTEXT to the end.
    fn after_start_tag(
        &mut self,
        answer: TokenSinkResult<S::Handle>,
        name: &str,
    ) -> Result<(), Fallback> {
        let kind = match answer {
            TokenSinkResult::RawData(kind) => kind,
            TokenSinkResult::Plaintext => {
                self.text(self.pos, self.s.len(), false);
                self.pos = self.s.len();
                return Ok(());
            }
            _ => return Ok(()),
        };
        let from = self.pos;
        let to = end_tag(self.b(), from, name.as_bytes()).unwrap_or(self.s.len());
        if matches!(kind, RawKind::ScriptData)
            && memmem::find(self.b().get(from..to).unwrap_or_default(), b"<!--").is_some()
        {
            return Err(Fallback);
        }
        self.text(from, to, matches!(kind, RawKind::Rcdata));
        self.pos = to;
        Ok(())
    }
}

/// Where a comment whose text starts at `from` ends (after its `-->`, `--!>`, or the abrupt
/// `<!-->` / `<!--->`; the end of the input when unterminated).
fn comment_end(b: &[u8], from: usize) -> usize {
    let rest = b.get(from..).unwrap_or_default();
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    let mut at = from;
    while let Some(k) = memmem::find(b.get(at..).unwrap_or_default(), b"--") {
        let q = at + k;
        match b.get(q + 2) {
            Some(b'>') => return q + 3,
            Some(b'!') if b.get(q + 3) == Some(&b'>') => return q + 4,
            _ => at = q + 1,
        }
    }
    b.len()
}

/// The `<` of the first appropriate end tag for `name` at or after `from`: `</name` (any
/// case) followed by whitespace, `/` or `>`.
fn end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let q = at + memmem::find(b.get(at..)?, b"</")?;
        let n = q + 2 + name.len();
        let matches = b
            .get(q + 2..n)
            .is_some_and(|w| w.eq_ignore_ascii_case(name))
            && b.get(n)
                .is_some_and(|&c| is_ws(c) || c == b'/' || c == b'>');
        if matches {
            return Some(q);
        }
        at = q + 1;
    }
}

/// Which attributes of a tag are built and given to the tree builder.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// None (an end tag).
    Nothing,
    /// Those of [`KEPT`].
    Read,
    /// Every one: a formatting element's attributes are compared by the tree builder (the
    /// "Noah's Ark" clause drops the earliest of four active formatting elements with the same
    /// name and attributes), so an attribute nobody reads still tells two `<i>`s apart.
    All,
}

/// The attributes of a tag from `from` (just after its name) to its `>`: those `keep` asks for
/// (the first of a name wins, values decoded), whether it closes itself, and the offset after
/// the `>`. `None` when the input ends inside the tag.
fn attributes(s: &str, from: usize, keep: Keep) -> Option<(Vec<Attribute>, bool, usize)> {
    let mut attrs: Vec<Attribute> = Vec::new();
    let (self_closing, end) = scan_attributes(s, from, |name, value| {
        if keep != Keep::Nothing {
            keep_attr(&mut attrs, name, value, keep == Keep::All);
        }
    })?;
    Some((attrs, self_closing, end))
}

/// The attributes a [`Kept`] reads (the rest of [`KEPT`] are read by the tree builder only).
const READ_BY_THE_TREE: [&str; 4] = ["class", "style", "href", "title"];

/// How many `class` values a page's [`ClassBits`] remembers.
const CLASS_VALUES: usize = 4096;

/// The bits of the `class` values read so far ([`super::tree::class_bits`]): a page repeats a
/// few values thousands of times (`kwb`, a filter's sixteen classes), each then split and
/// looked up once. Keys are borrowed from the page.
type ClassBits<'t> = rustc_hash::FxHashMap<&'t str, (u64, bool)>;

/// The attributes of a start tag `tag` read into what the tree keeps ([`Kept`]; the first of
/// a name wins, values decoded), whether it closes itself, and the offset after the `>`.
fn kept_attributes<'t>(
    s: &'t str,
    from: usize,
    tag: &str,
    classes: &mut ClassBits<'t>,
) -> Option<(Kept, bool, usize)> {
    let mut kept = Kept::default();
    // The names seen, by their index in READ_BY_THE_TREE.
    let mut seen = 0u32;
    let mut title = None;
    let (self_closing, end) = scan_attributes(s, from, |name, value| {
        if !matches!(name.len(), 4 | 5) {
            return;
        }
        let Some(i) = READ_BY_THE_TREE
            .iter()
            .position(|k| k.len() == name.len() && k.eq_ignore_ascii_case(name))
        else {
            return;
        };
        if seen & (1 << i) != 0 {
            return;
        }
        seen |= 1 << i;
        let name = READ_BY_THE_TREE[i];
        if name == "title" {
            title = Some(value);
            return;
        }
        match (name, attr_value(value)) {
            // A value as written (no reference in it) is a slice of the page: remembered.
            ("class", Cow::Borrowed(value)) => {
                kept.read_class(|| match classes.get(value) {
                    Some(&bits) => bits,
                    None => {
                        let bits = super::tree::class_bits(value);
                        if classes.len() < CLASS_VALUES {
                            classes.insert(value, bits);
                        }
                        bits
                    }
                });
            }
            (name, value) => kept.read(tag, name, &value),
        }
    })?;
    if let Some(value) = title {
        kept.title(tag, || attr_value(value).into_owned());
    }
    Some((kept, self_closing, end))
}

/// Reads the attributes of a tag from `from` (just after its name) to its `>`, handing each
/// name and value (as written: not lower-cased, references not decoded) to `on`; whether the
/// tag closes itself, and the offset after the `>`. `None` when the input ends inside the tag.
fn scan_attributes<'t>(
    s: &'t str,
    from: usize,
    mut on: impl FnMut(&'t str, &'t str),
) -> Option<(bool, usize)> {
    let b = s.as_bytes();
    let mut i = from;
    loop {
        // Before attribute name.
        while b.get(i).is_some_and(|&c| is_ws(c)) {
            i += 1;
        }
        match *b.get(i)? {
            b'>' => return Some((false, i + 1)),
            b'/' => {
                i += 1;
                if *b.get(i)? == b'>' {
                    return Some((true, i + 1));
                }
                continue;
            }
            _ => {}
        }
        // The name: its first character may be `=`; it ends at whitespace, `/`, `>` or `=`.
        let name_at = i;
        i = name_at
            + 1
            + b.get(name_at + 1..)?
                .iter()
                .position(|&c| is_ws(c) || matches!(c, b'/' | b'>' | b'='))?;
        let name = s.get(name_at..i).unwrap_or_default();
        while b.get(i).is_some_and(|&c| is_ws(c)) {
            i += 1;
        }
        let mut value = (i, i);
        if *b.get(i)? == b'=' {
            i += 1;
            while b.get(i).is_some_and(|&c| is_ws(c)) {
                i += 1;
            }
            match *b.get(i)? {
                q @ (b'"' | b'\'') => {
                    let close = i + 1 + memchr::memchr(q, b.get(i + 1..)?)?;
                    value = (i + 1, close);
                    i = close + 1;
                }
                // A missing value: the attribute is empty and `>` ends the tag.
                b'>' => {}
                _ => {
                    let end = i + b.get(i..)?.iter().position(|&c| is_ws(c) || c == b'>')?;
                    value = (i, end);
                    i = end;
                }
            }
        }
        on(name, s.get(value.0..value.1).unwrap_or_default());
    }
}

/// Adds the attribute `name="value"` to `attrs` when it is one of [`KEPT`] (any name when
/// `all`, lower-cased as html5ever's tokenizer does) and not there yet.
fn keep_attr(attrs: &mut Vec<Attribute>, name: &str, value: &str, all: bool) {
    let kept = KEPT
        .iter()
        .position(|k| k.len() == name.len() && k.eq_ignore_ascii_case(name));
    let atom = match kept {
        Some(i) => kept_atom(i),
        None if all => LocalName::from(name.to_ascii_lowercase()),
        None => return,
    };
    if attrs.iter().any(|a| a.name.local == atom) {
        return;
    }
    attrs.push(Attribute {
        name: QualName::new(None, ns!(), atom),
        value: StrTendril::from_slice(&attr_value(value)),
    });
}

/// An attribute's value as written, its character references decoded (a copy only when it
/// has any).
fn attr_value(value: &str) -> Cow<'_, str> {
    if memchr::memchr(b'&', value.as_bytes()).is_none() {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    decode_refs(value, true, &mut out);
    Cow::Owned(out)
}

/// Appends `seg` to `out` with its character references decoded (html5ever's rules: a named
/// reference is the longest in the table, with or without `;`; in an attribute, one without
/// `;` followed by `=` or a letter or digit is left as it is).
pub fn decode_refs(seg: &str, in_attribute: bool, out: &mut String) {
    let b = seg.as_bytes();
    let mut done = 0;
    let mut at = 0;
    while let Some(k) = memchr::memchr(b'&', b.get(at..).unwrap_or_default()) {
        let amp = at + k;
        match char_ref(seg, amp + 1, in_attribute) {
            Some((chars, next)) => {
                out.push_str(seg.get(done..amp).unwrap_or_default());
                out.extend(chars.into_iter().flatten());
                done = next;
                at = next;
            }
            None => at = amp + 1,
        }
    }
    out.push_str(seg.get(done..).unwrap_or_default());
}

/// The character reference after a `&` (at `at`): its characters and the offset after it, or
/// `None` when the `&` is just a `&`.
fn char_ref(seg: &str, at: usize, in_attribute: bool) -> Option<([Option<char>; 2], usize)> {
    let b = seg.as_bytes();
    match *b.get(at)? {
        b'#' => numeric_ref(b, at + 1),
        c if c.is_ascii_alphanumeric() => named_ref(seg, at, in_attribute),
        _ => None,
    }
}

fn numeric_ref(b: &[u8], at: usize) -> Option<([Option<char>; 2], usize)> {
    let (base, start) = match b.get(at) {
        Some(b'x' | b'X') => (16, at + 1),
        _ => (10, at),
    };
    let mut num: u32 = 0;
    let mut too_big = false;
    let mut j = start;
    while let Some(d) = b.get(j).and_then(|&c| char::from(c).to_digit(base)) {
        num = num.wrapping_mul(base);
        if num > 0x10FFFF {
            too_big = true;
        }
        num = num.wrapping_add(d);
        j += 1;
    }
    if j == start {
        return None;
    }
    if b.get(j) == Some(&b';') {
        j += 1;
    }
    let c = match num {
        n if n > 0x10FFFF || too_big => '\u{fffd}',
        0x00 | 0xD800..=0xDFFF => '\u{fffd}',
        0x80..=0x9F => C1_REPLACEMENTS
            .get((num - 0x80) as usize)
            .copied()
            .flatten()
            .or_else(|| char::from_u32(num))
            .unwrap_or('\u{fffd}'),
        n => char::from_u32(n).unwrap_or('\u{fffd}'),
    };
    Some(([Some(c), None], j))
}

fn named_ref(seg: &str, at: usize, in_attribute: bool) -> Option<([Option<char>; 2], usize)> {
    let b = seg.as_bytes();
    let mut best = None;
    let mut j = at;
    // The name grows one character at a time while it is a prefix of some entity's name.
    while b.get(j).is_some_and(u8::is_ascii) {
        let Some(&(c1, c2)) = seg.get(at..=j).and_then(|k| NAMED_ENTITIES.get(k)) else {
            break;
        };
        if c1 != 0 {
            best = Some((j + 1, c1, c2));
        }
        j += 1;
    }
    let (end, c1, c2) = best?;
    let semicolon = b.get(end - 1) == Some(&b';');
    if !semicolon
        && in_attribute
        && b.get(end)
            .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())
    {
        return None;
    }
    let second = (c2 != 0).then(|| char::from_u32(c2)).flatten();
    Some(([char::from_u32(c1), second], end))
}

/// A doctype as html5ever's tokenizer reads it (`<!DOCTYPE html>` directly; any other through
/// html5ever's tokenizer, as its public and system identifiers decide quirks mode).
fn doctype(markup: &str) -> Doctype {
    let html = markup
        .get(2..)
        .is_some_and(|d| d.eq_ignore_ascii_case("doctype html>"));
    if html {
        return Doctype {
            name: Some(StrTendril::from_slice("html")),
            ..Doctype::default()
        };
    }
    let tokenizer = Tokenizer::new(DoctypeOnly::default(), Default::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(markup));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    let found = tokenizer.sink.0.take();
    found.unwrap_or_default()
}

/// Keeps the doctype html5ever's tokenizer reads.
#[derive(Default)]
struct DoctypeOnly(RefCell<Option<Doctype>>);

impl TokenSink for DoctypeOnly {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let Token::DoctypeToken(d) = token {
            self.0.borrow_mut().get_or_insert(d);
        }
        TokenSinkResult::Continue
    }
}
