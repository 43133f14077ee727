//! The fast tree builder: html5ever's tree-construction rules (version 0.40, `scripting` on,
//! as `scraper` and [`super::tree::parse_with_html5ever`] run them) for the markup pages are
//! made of, and nothing more. It drives the same [`Sink`] html5ever's `TreeBuilder` drives, with
//! the same calls in the same order, so the tree it builds is that builder's tree, node for node.
//!
//! What it does not build it gives up on ([`Builder::gave_up`]), and the caller parses the page
//! again with html5ever's builder: a misnested formatting element (whatever would make the
//! builder reconstruct the active formatting elements or run the adoption agency beyond its
//! first step), foster parenting (text or a stray element directly in a table), foreign content
//! (`svg`, `math`), templates, framesets, a second `<html>` or `<body>`, a `<p>` closed that was
//! never opened, `</br>`, `<image>`, ruby, `<plaintext>`, captions and column groups, a table in
//! a table outside a cell, forms in tables, three same-named formatting elements open after the
//! last marker (the "Noah's Ark" clause), and any doctype but `<!DOCTYPE html>`. The invariant
//! that makes this safe: after every token, each element in the list of active formatting
//! elements is on the stack of open elements, so reconstructing that list never does anything;
//! a token that breaks it gives up.
//!
//! Why: html5ever's builder is written for every page there is (its reconstruction scans the
//! whole stack at each text and inline tag; its names are compared through the sink); on the
//! site's pages, well-nested `div`s and `span`s, it was a fifth of the whole ingest. The oracle
//! is html5ever itself: `tree::tests` compare the two builders' trees on every corpus page,
//! fixture and trap, and the `html_tokenizers` fuzz target compares them on any text.
//!
//! Owns tree construction only: never reads the site's markup (the sink keeps what the renderer
//! reads), never recurses, never panics on input.

use super::memo::{Entry as MemoEntry, Memo};
use super::tree::{Kept, Piece, Sink, Tree};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::{ElementFlags, NodeOrText, TreeSink};
use html5ever::{local_name, ns, Attribute, LocalName, QualName};
use std::cell::RefCell;
use std::sync::Arc;

/// The insertion modes this builder runs in (html5ever's names).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableBody,
    InRow,
    InCell,
    AfterBody,
    AfterAfterBody,
}

/// A start tag as the modes see it: its name and its attributes, as html5ever's
/// `Attribute`s, or as what the tree keeps of them when the byte-level tokenizer read them
/// itself ([`Builder::start_kept`]; the builder then reads none of them).
struct Tag {
    name: LocalName,
    attrs: Vec<Attribute>,
    kept: Option<Kept>,
}

impl Tag {
    /// A tag without attributes.
    fn named(name: LocalName) -> Self {
        Tag {
            name,
            attrs: Vec::new(),
            kept: None,
        }
    }
}

/// Text as the modes see it: a range of the page (the byte-level tokenizer's runs, handed
/// to the tree uncopied) or text of its own (references decoded).
enum Chars {
    Page(usize, usize),
    Own(StrTendril),
}

impl Chars {
    fn as_str<'p>(&'p self, page: &'p str) -> &'p str {
        match self {
            Chars::Page(from, to) => page.get(*from..*to).unwrap_or_default(),
            Chars::Own(t) => t,
        }
    }
}

/// A token as the modes see it.
enum Tk {
    Chars(Chars),
    Comment,
    Start(Tag),
    End(LocalName),
    Eof,
}

#[cfg(test)]
impl Tk {
    fn describe(&self, mode: Mode) -> String {
        match self {
            Tk::Chars(Chars::Own(t)) => format!(
                "{mode:?}: text {:?}",
                t.chars().take(40).collect::<String>()
            ),
            Tk::Chars(Chars::Page(from, to)) => format!("{mode:?}: text at {from}..{to}"),
            Tk::Comment => format!("{mode:?}: comment"),
            Tk::Start(t) => format!("{mode:?}: <{}>", t.name),
            Tk::End(n) => format!("{mode:?}: </{n}>"),
            Tk::Eof => format!("{mode:?}: end of input"),
        }
    }
}

/// What a mode did with a token.
enum Step {
    Done,
    Reprocess(Mode, Tk),
    Raw(RawKind),
    GiveUp,
}

/// An element on the stack of open elements (always in the HTML namespace here).
struct Open {
    id: u32,
    name: LocalName,
    /// Whether it went into the list of active formatting elements.
    fmt: bool,
}

/// An entry of the list of active formatting elements.
enum Entry {
    Marker,
    Element { id: u32, name: LocalName },
}

/// The scopes of "has an element in scope" (HTML elements only: foreign content gives up).
#[derive(Clone, Copy)]
enum Scope {
    Default,
    Button,
    ListItem,
    Table,
}

fn in_default_scope_set(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("applet")
            | local_name!("caption")
            | local_name!("html")
            | local_name!("table")
            | local_name!("td")
            | local_name!("th")
            | local_name!("marquee")
            | local_name!("object")
            | local_name!("select")
            | local_name!("template")
    )
}

impl Scope {
    fn bounds(self, n: &LocalName) -> bool {
        match self {
            Scope::Default => in_default_scope_set(n),
            Scope::Button => in_default_scope_set(n) || *n == local_name!("button"),
            Scope::ListItem => {
                in_default_scope_set(n) || matches!(*n, local_name!("ol") | local_name!("ul"))
            }
            Scope::Table => matches!(
                *n,
                local_name!("html") | local_name!("table") | local_name!("template")
            ),
        }
    }
}

/// html5ever's `cursory_implied_end`.
fn implied_end(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("dd")
            | local_name!("dt")
            | local_name!("li")
            | local_name!("option")
            | local_name!("optgroup")
            | local_name!("p")
            | local_name!("rb")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("rtc")
    )
}

/// html5ever's `special_tag` (HTML namespace).
fn special(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("address")
            | local_name!("applet")
            | local_name!("area")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("blockquote")
            | local_name!("body")
            | local_name!("br")
            | local_name!("button")
            | local_name!("caption")
            | local_name!("center")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("dd")
            | local_name!("details")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("embed")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("form")
            | local_name!("frame")
            | local_name!("frameset")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("head")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("hr")
            | local_name!("html")
            | local_name!("iframe")
            | local_name!("img")
            | local_name!("input")
            | local_name!("isindex")
            | local_name!("li")
            | local_name!("link")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("marquee")
            | local_name!("menu")
            | local_name!("meta")
            | local_name!("nav")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript")
            | local_name!("object")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("param")
            | local_name!("plaintext")
            | local_name!("pre")
            | local_name!("script")
            | local_name!("section")
            | local_name!("select")
            | local_name!("source")
            | local_name!("style")
            | local_name!("summary")
            | local_name!("table")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("template")
            | local_name!("textarea")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("title")
            | local_name!("tr")
            | local_name!("track")
            | local_name!("ul")
            | local_name!("wbr")
            | local_name!("xmp")
    )
}

fn heading(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
    )
}

/// Start tags that close a `<p>` in button scope and are inserted plainly.
fn closes_p_block(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("main")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("search")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("ul")
            | local_name!("menu")
    )
}

/// End tags closed by "generate implied end tags, pop until" when in scope.
fn block_end(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("button")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("pre")
            | local_name!("search")
            | local_name!("section")
            | local_name!("select")
            | local_name!("summary")
            | local_name!("ul")
    )
}

/// How many bytes of ASCII whitespace `text` starts with (html5ever's whitespace).
fn ws_len(text: &str) -> usize {
    text.bytes()
        .take_while(|c| matches!(c, b'\t' | b'\n' | 0x0C | b'\r' | b' '))
        .count()
}

/// Whether `text` is all ASCII whitespace (as html5ever's `any_not_whitespace` reads it).
fn all_ws(text: &str) -> bool {
    ws_len(text) == text.len()
}

/// The builder's state (behind a `RefCell`: the tokenizer holds `&self`).
struct State {
    mode: Mode,
    orig: Mode,
    stack: Vec<Open>,
    active: Vec<Entry>,
    head: Option<u32>,
    form: Option<u32>,
    quirks: bool,
    ignore_lf: bool,
    /// A formatting element left the stack during this token: [`Run::check`] looks.
    dirty: bool,
    gave_up: bool,
    /// Why it gave up (the mode and token), for the tests.
    #[cfg(test)]
    why: Option<String>,
}

/// The fast tree builder (see the module doc), a `TokenSink` for [`super::tokenize::run`].
pub struct Builder<'t> {
    sink: Sink<'t>,
    st: RefCell<State>,
    /// The memo of glossary subtrees this page may read from ([`super::memo`]).
    memo: Option<&'t Memo>,
    /// Whether it reads one element on its own ([`Builder::isolated`]), not a page.
    isolated: bool,
}

impl<'t> Builder<'t> {
    pub fn new(sink: Sink<'t>) -> Self {
        Builder {
            sink,
            st: RefCell::new(State {
                mode: Mode::Initial,
                orig: Mode::InBody,
                stack: Vec::new(),
                active: Vec::new(),
                head: None,
                form: None,
                quirks: false,
                ignore_lf: false,
                dirty: false,
                gave_up: false,
                #[cfg(test)]
                why: None,
            }),
            memo: None,
            isolated: false,
        }
    }

    /// This builder, reading glossary subtrees from `memo`.
    pub fn with_memo(mut self, memo: Option<&'t Memo>) -> Self {
        self.memo = memo;
        self
    }

    /// A builder for one element's subtree read on its own, for the memo: given a doctype,
    /// then the element's start tag (which opens `html`, `body` and the element), it is
    /// [`Builder::done`] once the element is closed.
    pub fn isolated(sink: Sink<'t>) -> Self {
        let b = Builder {
            isolated: true,
            ..Builder::new(sink)
        };
        let doctype = html5ever::tokenizer::Doctype {
            name: Some("html".into()),
            public_id: None,
            system_id: None,
            force_quirks: false,
        };
        let _ = b.process_token(Token::DoctypeToken(doctype), 1);
        b
    }

    /// Whether the element a [`Builder::isolated`] was reading is closed (never, for a page):
    /// its start tag, the first token after the doctype, opens `html`, `body` and the element
    /// and goes in body, and the stack is below three again only once the element is closed.
    pub fn done(&self) -> bool {
        self.isolated && {
            let st = self.st.borrow();
            st.mode == Mode::InBody && st.stack.len() < 3
        }
    }

    /// Whether the subtree read on its own left the builder as it found the element: in body,
    /// `html` and `body` open and nothing else, no formatting element active, no form open.
    pub fn settled(&self) -> bool {
        let st = self.st.borrow();
        !st.gave_up
            && st.mode == Mode::InBody
            && st.stack.len() == 2
            && st.active.is_empty()
            && st.form.is_none()
            && !st.ignore_lf
            && !st.quirks
    }

    /// The memo, when the element just opened may be read from it: a `div` of the memo's
    /// classes ([`super::memo::qualifies`]), opened in
    /// body in standards mode, under `html`, `body` and `div`s of no class the renderer reads,
    /// with no formatting element active and no form open (see [`super::memo`]).
    pub fn memo_for_open(&self) -> Option<&'t Memo> {
        let memo = self.memo?;
        let st = self.st.borrow();
        // Most `div`s are not of the memo's classes: asked first.
        let top = st.stack.last()?;
        if !super::memo::qualifies(self.sink.flags(top.id)) {
            return None;
        }
        if st.gave_up
            || st.mode != Mode::InBody
            || st.quirks
            || st.ignore_lf
            || st.form.is_some()
            || !st.active.is_empty()
        {
            return None;
        }
        let [html, body, rest @ ..] = st.stack.as_slice() else {
            return None;
        };
        let (top, between) = rest.split_last()?;
        let plain = html.name == local_name!("html")
            && body.name == local_name!("body")
            && top.name == local_name!("div")
            && top.id == self.sink.last_made()
            && between.iter().all(|o| o.name == local_name!("div"))
            && [html, body]
                .into_iter()
                .chain(between)
                .all(|o| self.sink.flags(o.id) == 0);
        plain.then_some(memo)
    }

    /// The element just opened ([`Builder::memo_for_open`]) was read from the memo as
    /// `entry`: it is attached to the element, which is closed (its end tag).
    pub fn close_from_memo(&self, entry: Arc<MemoEntry>) {
        let Some((mut st, _)) = self.enter() else {
            return;
        };
        let Some(top) = st.stack.last().map(|o| o.id) else {
            return;
        };
        self.sink.attach_memo(top, entry);
        let _ = self.run(&mut st, Tk::End(local_name!("div")));
    }

    /// Whether the page needs html5ever's builder (the tree built so far is then not the
    /// page's tree).
    pub fn gave_up(&self) -> bool {
        self.st.borrow().gave_up
    }

    /// Why it gave up (the tests' message).
    #[cfg(test)]
    pub fn why(&self) -> Option<String> {
        self.st.borrow().why.clone()
    }

    /// The tree, when this builder built the page whole.
    pub fn finish(self) -> Option<Tree<'t>> {
        let gave_up = self.st.borrow().gave_up;
        (!gave_up).then(|| self.sink.finish())
    }
}

impl TokenSink for Builder<'_> {
    type Handle = u32;

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<u32> {
        let Some((mut st, ignore_lf)) = self.enter() else {
            return TokenSinkResult::Continue;
        };
        let tk = match token {
            Token::DoctypeToken(d) => {
                if st.mode == Mode::Initial {
                    let plain = d.name.as_deref() == Some("html")
                        && d.public_id.is_none()
                        && d.system_id.is_none()
                        && !d.force_quirks;
                    if !plain {
                        st.gave_up = true;
                        return TokenSinkResult::Continue;
                    }
                    self.sink.append_doctype_to_document(
                        d.name.unwrap_or_default(),
                        StrTendril::new(),
                        StrTendril::new(),
                    );
                    st.mode = Mode::BeforeHtml;
                }
                return TokenSinkResult::Continue;
            }
            Token::TagToken(tag) => match tag.kind {
                TagKind::StartTag => Tk::Start(Tag {
                    name: tag.name,
                    attrs: tag.attrs,
                    kept: None,
                }),
                TagKind::EndTag => Tk::End(tag.name),
            },
            Token::CommentToken(_) => Tk::Comment,
            Token::CharacterTokens(mut t) => {
                if ignore_lf && t.starts_with('\n') {
                    t.pop_front(1);
                }
                if t.is_empty() {
                    return TokenSinkResult::Continue;
                }
                Tk::Chars(Chars::Own(t))
            }
            Token::EOFToken => Tk::Eof,
            // The byte-level tokenizer sends neither (NUL bytes go to html5ever's tokenizer).
            Token::NullCharacterToken | Token::ParseError(_) => return TokenSinkResult::Continue,
        };
        self.run(&mut st, tk)
    }
}

impl<'t> Builder<'t> {
    /// The text `text[from..to]` of the tokenizer's `text`: kept as a range when `text` is
    /// the tree's page (it is, unless the tokenizer normalized line ends), else copied.
    pub fn text_at(&self, text: &str, from: usize, to: usize) -> TokenSinkResult<u32> {
        let page = self.sink.page();
        let mut from = from;
        if std::ptr::eq(text, page) {
            let Some((mut st, ignore_lf)) = self.enter() else {
                return TokenSinkResult::Continue;
            };
            if ignore_lf && page.as_bytes().get(from) == Some(&b'\n') {
                from += 1;
            }
            if from >= to {
                return TokenSinkResult::Continue;
            }
            return self.run(&mut st, Tk::Chars(Chars::Page(from, to)));
        }
        let t = StrTendril::from_slice(text.get(from..to).unwrap_or_default());
        self.process_token(Token::CharacterTokens(t), 1)
    }

    /// A start tag whose attributes the tokenizer read itself into what the tree keeps: for
    /// every element but `html`, `body` and `input`, whose attributes the builder reads (and
    /// formatting elements are compared only by name here: three of a name give up).
    /// (`/>` is read by no rule this builder runs.)
    pub fn start_kept(&self, name: LocalName, kept: Kept) -> TokenSinkResult<u32> {
        let Some((mut st, _)) = self.enter() else {
            return TokenSinkResult::Continue;
        };
        let tag = Tag {
            name,
            attrs: Vec::new(),
            kept: Some(kept),
        };
        self.run(&mut st, Tk::Start(tag))
    }

    /// The state for the next token, and whether a line feed at its start is to be dropped
    /// (after `<pre>`, `<listing>`, `<textarea>`: only the next token's); `None` once the
    /// builder gave up.
    fn enter(&self) -> Option<(std::cell::RefMut<'_, State>, bool)> {
        let mut st = self.st.borrow_mut();
        if st.gave_up {
            return None;
        }
        let ignore_lf = std::mem::take(&mut st.ignore_lf);
        Some((st, ignore_lf))
    }

    fn run(&self, st: &mut State, tk: Tk) -> TokenSinkResult<u32> {
        let mut b = Run {
            sink: &self.sink,
            st,
        };
        let answer = b.process(tk);
        if b.st.gave_up {
            return TokenSinkResult::Continue;
        }
        answer
    }
}

/// One token's processing: the state and the sink together.
struct Run<'a, 't> {
    sink: &'a Sink<'t>,
    st: &'a mut State,
}

impl Run<'_, '_> {
    fn process(&mut self, mut tk: Tk) -> TokenSinkResult<u32> {
        // A mode hands a token on at most a few times; the bound only guards a mistake.
        for _ in 0..16 {
            let mode = self.st.mode;
            #[cfg(test)]
            let what = tk.describe(mode);
            match self.step(mode, tk) {
                Step::Done => {
                    self.check();
                    return TokenSinkResult::Continue;
                }
                Step::Reprocess(m, t) => {
                    self.st.mode = m;
                    tk = t;
                }
                Step::Raw(kind) => {
                    self.check();
                    return TokenSinkResult::RawData(kind);
                }
                Step::GiveUp => {
                    #[cfg(test)]
                    {
                        self.st.why = Some(what);
                    }
                    break;
                }
            }
        }
        self.st.gave_up = true;
        TokenSinkResult::Continue
    }

    /// The invariant after a token: every active formatting element is open.
    fn check(&mut self) {
        if !std::mem::take(&mut self.st.dirty) {
            return;
        }
        let stack = &self.st.stack;
        let open = |id: u32| stack.iter().rev().any(|o| o.id == id);
        if self.st.active.iter().any(|e| match e {
            Entry::Marker => false,
            Entry::Element { id, .. } => !open(*id),
        }) {
            self.st.gave_up = true;
            #[cfg(test)]
            {
                self.st.why = Some("a formatting element closed out of order".to_string());
            }
        }
    }

    // ---- the stack of open elements -------------------------------------------------------

    fn current(&self) -> Option<&Open> {
        self.st.stack.last()
    }

    fn current_is(&self, name: &LocalName) -> bool {
        self.current().is_some_and(|o| o.name == *name)
    }

    fn current_id(&self) -> u32 {
        self.current().map_or(0, |o| o.id)
    }

    fn in_scope(&self, scope: Scope, pred: impl Fn(&LocalName) -> bool) -> bool {
        for o in self.st.stack.iter().rev() {
            if pred(&o.name) {
                return true;
            }
            if scope.bounds(&o.name) {
                return false;
            }
        }
        false
    }

    fn in_scope_named(&self, scope: Scope, name: &LocalName) -> bool {
        self.in_scope(scope, |n| n == name)
    }

    fn pop(&mut self) {
        if let Some(o) = self.st.stack.pop() {
            self.st.dirty |= o.fmt;
        }
    }

    /// Removes the open element at `i` (not necessarily the current node).
    fn remove_at(&mut self, i: usize) {
        if i < self.st.stack.len() {
            let o = self.st.stack.remove(i);
            self.st.dirty |= o.fmt;
        }
    }

    fn generate_implied_end(&mut self, except: Option<&LocalName>) {
        while let Some(o) = self.current() {
            if !implied_end(&o.name) || Some(&o.name) == except {
                return;
            }
            self.pop();
        }
    }

    /// Pops until an element named by `pred` has been popped.
    fn pop_until(&mut self, pred: impl Fn(&LocalName) -> bool) {
        while let Some(o) = self.st.stack.pop() {
            self.st.dirty |= o.fmt;
            if pred(&o.name) {
                return;
            }
        }
    }

    /// Pops until the current node is named by `pred`.
    fn pop_until_current(&mut self, pred: impl Fn(&LocalName) -> bool) {
        while self.current().is_some_and(|o| !pred(&o.name)) {
            self.pop();
        }
    }

    fn close_p(&mut self) {
        let p = local_name!("p");
        self.generate_implied_end(Some(&p));
        self.pop_until(|n| *n == p);
    }

    fn close_p_in_button_scope(&mut self) {
        if self.in_scope_named(Scope::Button, &local_name!("p")) {
            self.close_p();
        }
    }

    // ---- the tree --------------------------------------------------------------------------

    fn create(&self, tag: Tag) -> u32 {
        match tag.kept {
            Some(kept) => self.sink.create_kept(tag.name, kept),
            None => self.sink.create_element(
                QualName::new(None, ns!(html), tag.name),
                tag.attrs,
                ElementFlags::default(),
            ),
        }
    }

    /// Inserts an element for `tag` at the current node and pushes it.
    fn insert(&mut self, tag: Tag) -> u32 {
        let name = tag.name.clone();
        let id = self.insert_no_push(tag);
        self.st.stack.push(Open {
            id,
            name,
            fmt: false,
        });
        id
    }

    fn insert_no_push(&mut self, tag: Tag) -> u32 {
        let parent = self.current_id();
        let id = self.create(tag);
        self.sink.append(&parent, NodeOrText::AppendNode(id));
        id
    }

    fn insert_phantom(&mut self, name: LocalName) -> u32 {
        self.insert(Tag::named(name))
    }

    /// `t` cut after its leading whitespace: the whitespace (if any) and the rest (if any), as
    /// html5ever's `SplitWhitespace` cuts it.
    fn split_ws(&self, t: Chars) -> (Option<Chars>, Option<Chars>) {
        match t {
            Chars::Own(t) => {
                let (ws, rest) = split_ws(t);
                (ws.map(Chars::Own), rest.map(Chars::Own))
            }
            Chars::Page(from, to) => {
                let n = ws_len(self.sink.page().get(from..to).unwrap_or_default());
                let cut = from + n;
                (
                    (n > 0).then_some(Chars::Page(from, cut)),
                    (cut < to).then_some(Chars::Page(cut, to)),
                )
            }
        }
    }

    fn append_text(&self, text: Chars) {
        let parent = self.current_id();
        let piece = match &text {
            Chars::Page(from, to) => Piece::Page(*from, *to),
            Chars::Own(t) => Piece::Own(t),
        };
        self.sink.append_piece(parent, piece);
    }

    fn append_comment(&self, parent: u32) {
        let c = self.sink.create_comment(StrTendril::new());
        self.sink.append(&parent, NodeOrText::AppendNode(c));
    }

    fn create_root(&mut self, tag: Option<Tag>) {
        let tag = tag.unwrap_or(Tag::named(local_name!("html")));
        let id = self.create(tag);
        self.st.stack.push(Open {
            id,
            name: local_name!("html"),
            fmt: false,
        });
        self.sink.append(&0, NodeOrText::AppendNode(id));
    }

    /// Raw text (`title`, `style`, `script`, `textarea`, …): the element, then text mode.
    fn raw(&mut self, tag: Tag, kind: RawKind) -> Step {
        self.insert(tag);
        self.st.orig = self.st.mode;
        self.st.mode = Mode::Text;
        Step::Raw(kind)
    }

    // ---- the modes -------------------------------------------------------------------------

    fn step(&mut self, mode: Mode, tk: Tk) -> Step {
        match mode {
            Mode::Initial => match tk {
                Tk::Chars(t) => match self.split_ws(t).1 {
                    None => Step::Done,
                    // No doctype: quirks mode.
                    Some(rest) => {
                        self.st.quirks = true;
                        Step::Reprocess(Mode::BeforeHtml, Tk::Chars(rest))
                    }
                },
                Tk::Comment => {
                    self.append_comment(0);
                    Step::Done
                }
                tk => {
                    self.st.quirks = true;
                    Step::Reprocess(Mode::BeforeHtml, tk)
                }
            },
            Mode::BeforeHtml => match tk {
                Tk::Chars(t) => match self.split_ws(t).1 {
                    None => Step::Done,
                    Some(rest) => {
                        self.create_root(None);
                        Step::Reprocess(Mode::BeforeHead, Tk::Chars(rest))
                    }
                },
                Tk::Comment => {
                    self.append_comment(0);
                    Step::Done
                }
                Tk::Start(tag) if tag.name == local_name!("html") => {
                    self.create_root(Some(tag));
                    self.st.mode = Mode::BeforeHead;
                    Step::Done
                }
                Tk::End(ref n) if !before_end_ok(n) => Step::Done,
                tk => {
                    self.create_root(None);
                    Step::Reprocess(Mode::BeforeHead, tk)
                }
            },
            Mode::BeforeHead => match tk {
                Tk::Chars(t) => match self.split_ws(t).1 {
                    None => Step::Done,
                    Some(rest) => {
                        self.st.head = Some(self.insert_phantom(local_name!("head")));
                        Step::Reprocess(Mode::InHead, Tk::Chars(rest))
                    }
                },
                Tk::Comment => {
                    self.append_comment(self.current_id());
                    Step::Done
                }
                Tk::Start(tag) if tag.name == local_name!("html") => self.start_in_body(tag),
                Tk::Start(tag) if tag.name == local_name!("head") => {
                    self.st.head = Some(self.insert(tag));
                    self.st.mode = Mode::InHead;
                    Step::Done
                }
                Tk::End(ref n) if !before_end_ok(n) => Step::Done,
                tk => {
                    self.st.head = Some(self.insert_phantom(local_name!("head")));
                    Step::Reprocess(Mode::InHead, tk)
                }
            },
            Mode::InHead => self.in_head(tk),
            Mode::AfterHead => match tk {
                Tk::Chars(t) => {
                    let (ws, rest) = self.split_ws(t);
                    if let Some(ws) = ws {
                        self.append_text(ws);
                    }
                    match rest {
                        None => Step::Done,
                        Some(rest) => {
                            self.insert_phantom(local_name!("body"));
                            Step::Reprocess(Mode::InBody, Tk::Chars(rest))
                        }
                    }
                }
                Tk::Comment => {
                    self.append_comment(self.current_id());
                    Step::Done
                }
                Tk::Start(tag) => match tag.name {
                    local_name!("html") => self.start_in_body(tag),
                    local_name!("frameset") | local_name!("template") => Step::GiveUp,
                    local_name!("body") => {
                        self.insert(tag);
                        self.st.mode = Mode::InBody;
                        Step::Done
                    }
                    local_name!("base")
                    | local_name!("basefont")
                    | local_name!("bgsound")
                    | local_name!("link")
                    | local_name!("meta")
                    | local_name!("noframes")
                    | local_name!("script")
                    | local_name!("style")
                    | local_name!("title") => {
                        // The head goes back on the stack for the tag, then leaves it.
                        let Some(head) = self.st.head else {
                            return Step::GiveUp;
                        };
                        self.st.stack.push(Open {
                            id: head,
                            name: local_name!("head"),
                            fmt: false,
                        });
                        let result = self.in_head(Tk::Start(tag));
                        if let Some(i) = self.st.stack.iter().rposition(|o| o.id == head) {
                            self.remove_at(i);
                        }
                        result
                    }
                    local_name!("head") => Step::Done,
                    _ => {
                        self.insert_phantom(local_name!("body"));
                        Step::Reprocess(Mode::InBody, Tk::Start(tag))
                    }
                },
                Tk::End(n) => match n {
                    local_name!("template") => Step::GiveUp,
                    local_name!("body") | local_name!("html") | local_name!("br") => {
                        self.insert_phantom(local_name!("body"));
                        Step::Reprocess(Mode::InBody, Tk::End(n))
                    }
                    _ => Step::Done,
                },
                Tk::Eof => {
                    self.insert_phantom(local_name!("body"));
                    Step::Reprocess(Mode::InBody, Tk::Eof)
                }
            },
            Mode::InBody => self.in_body(tk),
            Mode::Text => match tk {
                Tk::Chars(t) => {
                    self.append_text(t);
                    Step::Done
                }
                Tk::Eof => {
                    self.pop();
                    Step::Reprocess(self.st.orig, Tk::Eof)
                }
                Tk::End(_) => {
                    self.pop();
                    self.st.mode = self.st.orig;
                    Step::Done
                }
                // The tokenizer sends only text and the end tag in a raw-text state.
                Tk::Comment | Tk::Start(_) => Step::GiveUp,
            },
            Mode::InTable => self.in_table(tk),
            Mode::InTableBody => self.in_table_body(tk),
            Mode::InRow => self.in_row(tk),
            Mode::InCell => self.in_cell(tk),
            Mode::AfterBody | Mode::AfterAfterBody => match tk {
                Tk::Chars(t) => {
                    let (ws, rest) = self.split_ws(t);
                    if let Some(ws) = ws {
                        // Whitespace by the "in body" rules, at the current node.
                        self.append_text(ws);
                    }
                    match rest {
                        None => Step::Done,
                        Some(rest) => Step::Reprocess(Mode::InBody, Tk::Chars(rest)),
                    }
                }
                Tk::Comment => {
                    let parent = if mode == Mode::AfterBody {
                        self.st.stack.first().map_or(0, |o| o.id)
                    } else {
                        0
                    };
                    self.append_comment(parent);
                    Step::Done
                }
                Tk::Start(tag) if tag.name == local_name!("html") => self.start_in_body(tag),
                Tk::End(local_name!("html")) if mode == Mode::AfterBody => {
                    self.st.mode = Mode::AfterAfterBody;
                    Step::Done
                }
                Tk::Eof => Step::Done,
                tk => Step::Reprocess(Mode::InBody, tk),
            },
        }
    }

    fn in_head(&mut self, tk: Tk) -> Step {
        match tk {
            Tk::Chars(t) => {
                let (ws, rest) = self.split_ws(t);
                if let Some(ws) = ws {
                    self.append_text(ws);
                }
                match rest {
                    None => Step::Done,
                    Some(rest) => {
                        self.pop();
                        Step::Reprocess(Mode::AfterHead, Tk::Chars(rest))
                    }
                }
            }
            Tk::Comment => {
                self.append_comment(self.current_id());
                Step::Done
            }
            Tk::Start(tag) => match tag.name {
                local_name!("html") => self.start_in_body(tag),
                local_name!("template") => Step::GiveUp,
                local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("link")
                | local_name!("meta") => {
                    self.insert_no_push(tag);
                    Step::Done
                }
                local_name!("title") => self.raw(tag, RawKind::Rcdata),
                local_name!("noframes") | local_name!("style") | local_name!("noscript") => {
                    self.raw(tag, RawKind::Rawtext)
                }
                local_name!("script") => self.raw(tag, RawKind::ScriptData),
                local_name!("head") => Step::Done,
                _ => {
                    self.pop();
                    Step::Reprocess(Mode::AfterHead, Tk::Start(tag))
                }
            },
            Tk::End(n) => match n {
                local_name!("head") => {
                    self.pop();
                    self.st.mode = Mode::AfterHead;
                    Step::Done
                }
                local_name!("template") => Step::GiveUp,
                local_name!("body") | local_name!("html") | local_name!("br") => {
                    self.pop();
                    Step::Reprocess(Mode::AfterHead, Tk::End(n))
                }
                _ => Step::Done,
            },
            Tk::Eof => {
                self.pop();
                Step::Reprocess(Mode::AfterHead, Tk::Eof)
            }
        }
    }

    fn in_body(&mut self, tk: Tk) -> Step {
        match tk {
            Tk::Chars(t) => {
                self.append_text(t);
                Step::Done
            }
            Tk::Comment => {
                self.append_comment(self.current_id());
                Step::Done
            }
            Tk::Eof => Step::Done,
            Tk::Start(tag) => self.start_in_body(tag),
            Tk::End(name) => self.end_in_body(name),
        }
    }

    fn start_in_body(&mut self, tag: Tag) -> Step {
        let name = tag.name.clone();
        match name {
            // Attributes of a second `<html>` or `<body>` go to the first (where missing).
            local_name!("html") => {
                if let Some(html) = self.st.stack.first() {
                    self.sink.add_attrs_if_missing(&html.id, tag.attrs);
                }
                Step::Done
            }
            local_name!("body") => {
                if let Some(body) = self
                    .st
                    .stack
                    .get(1)
                    .filter(|o| o.name == local_name!("body"))
                {
                    self.sink.add_attrs_if_missing(&body.id, tag.attrs);
                }
                Step::Done
            }
            local_name!("frameset")
            | local_name!("template")
            | local_name!("plaintext")
            | local_name!("image")
            | local_name!("rb")
            | local_name!("rtc")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("math")
            | local_name!("svg") => Step::GiveUp,
            local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("noframes")
            | local_name!("script")
            | local_name!("style")
            | local_name!("title") => self.in_head(Tk::Start(tag)),
            n if closes_p_block(&n) => {
                self.close_p_in_button_scope();
                self.insert(tag);
                Step::Done
            }
            n if heading(&n) => {
                self.close_p_in_button_scope();
                if self.current().is_some_and(|o| heading(&o.name)) {
                    self.pop();
                }
                self.insert(tag);
                Step::Done
            }
            local_name!("pre") | local_name!("listing") => {
                self.close_p_in_button_scope();
                self.insert(tag);
                self.st.ignore_lf = true;
                Step::Done
            }
            local_name!("form") => {
                if self.st.form.is_none() {
                    self.close_p_in_button_scope();
                    self.st.form = Some(self.insert(tag));
                }
                Step::Done
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let list = name == local_name!("li");
                let mut to_close = None;
                for o in self.st.stack.iter().rev() {
                    let closes = if list {
                        o.name == local_name!("li")
                    } else {
                        matches!(o.name, local_name!("dd") | local_name!("dt"))
                    };
                    if closes {
                        to_close = Some(o.name.clone());
                        break;
                    }
                    if special(&o.name)
                        && !matches!(
                            o.name,
                            local_name!("address") | local_name!("div") | local_name!("p")
                        )
                    {
                        break;
                    }
                }
                if let Some(n) = to_close {
                    self.generate_implied_end(Some(&n));
                    self.pop_until(|x| *x == n);
                }
                self.close_p_in_button_scope();
                self.insert(tag);
                Step::Done
            }
            local_name!("button") => {
                if self.in_scope_named(Scope::Default, &local_name!("button")) {
                    return Step::GiveUp;
                }
                self.insert(tag);
                Step::Done
            }
            local_name!("a") => {
                if self.active_a() {
                    return Step::GiveUp;
                }
                self.formatting(tag)
            }
            local_name!("nobr") => {
                if self.in_scope_named(Scope::Default, &local_name!("nobr")) {
                    return Step::GiveUp;
                }
                self.formatting(tag)
            }
            n if super::is_formatting(&n) => self.formatting(tag),
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                self.insert(tag);
                self.st.active.push(Entry::Marker);
                Step::Done
            }
            local_name!("table") => {
                if !self.st.quirks {
                    self.close_p_in_button_scope();
                }
                self.insert(tag);
                self.st.mode = Mode::InTable;
                Step::Done
            }
            local_name!("area")
            | local_name!("br")
            | local_name!("embed")
            | local_name!("img")
            | local_name!("keygen")
            | local_name!("wbr")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track") => {
                self.insert_no_push(tag);
                Step::Done
            }
            local_name!("input") => {
                if self.in_scope_named(Scope::Default, &local_name!("select")) {
                    let s = local_name!("select");
                    self.pop_until(|n| *n == s);
                }
                self.insert_no_push(tag);
                Step::Done
            }
            local_name!("hr") => {
                self.close_p_in_button_scope();
                if self.in_scope_named(Scope::Default, &local_name!("select")) {
                    self.generate_implied_end(None);
                }
                self.insert_no_push(tag);
                Step::Done
            }
            local_name!("textarea") => {
                self.st.ignore_lf = true;
                self.raw(tag, RawKind::Rcdata)
            }
            local_name!("xmp") => {
                self.close_p_in_button_scope();
                self.raw(tag, RawKind::Rawtext)
            }
            local_name!("iframe") | local_name!("noembed") | local_name!("noscript") => {
                self.raw(tag, RawKind::Rawtext)
            }
            local_name!("select") => {
                if self.in_scope_named(Scope::Default, &local_name!("select")) {
                    let s = local_name!("select");
                    self.pop_until(|n| *n == s);
                } else {
                    self.insert(tag);
                }
                Step::Done
            }
            local_name!("option") | local_name!("optgroup") => {
                if self.in_scope_named(Scope::Default, &local_name!("select")) {
                    if name == local_name!("option") {
                        self.generate_implied_end(Some(&local_name!("optgroup")));
                    } else {
                        self.generate_implied_end(None);
                    }
                } else if self.current_is(&local_name!("option")) {
                    self.pop();
                }
                self.insert(tag);
                Step::Done
            }
            local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("frame")
            | local_name!("head")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr") => Step::Done,
            _ => {
                self.insert(tag);
                Step::Done
            }
        }
    }

    /// Whether an `a` in the list of active formatting elements comes after its last marker.
    fn active_a(&self) -> bool {
        for e in self.st.active.iter().rev() {
            match e {
                Entry::Marker => return false,
                Entry::Element { name, .. } if *name == local_name!("a") => return true,
                _ => {}
            }
        }
        false
    }

    /// A formatting element: inserted and added to the list (three of the same name after the
    /// last marker would bring in the "Noah's Ark" clause: given up).
    fn formatting(&mut self, tag: Tag) -> Step {
        let mut same = 0;
        for e in self.st.active.iter().rev() {
            match e {
                Entry::Marker => break,
                Entry::Element { name, .. } if *name == tag.name => same += 1,
                _ => {}
            }
        }
        if same >= 3 {
            return Step::GiveUp;
        }
        let name = tag.name.clone();
        let id = self.insert(tag);
        if let Some(o) = self.st.stack.last_mut() {
            o.fmt = true;
        }
        self.st.active.push(Entry::Element { id, name });
        Step::Done
    }

    fn end_in_body(&mut self, name: LocalName) -> Step {
        match name {
            local_name!("template") => Step::GiveUp,
            // `</br>` is a `<br>` without attributes.
            local_name!("br") => {
                self.insert_no_push(Tag::named(name));
                Step::Done
            }
            local_name!("body") | local_name!("html") => {
                if !self.in_scope_named(Scope::Default, &local_name!("body")) {
                    return Step::Done;
                }
                if name == local_name!("body") {
                    self.st.mode = Mode::AfterBody;
                    Step::Done
                } else {
                    Step::Reprocess(Mode::AfterBody, Tk::End(name))
                }
            }
            n if block_end(&n) => {
                if self.in_scope_named(Scope::Default, &n) {
                    self.generate_implied_end(None);
                    self.pop_until(|x| *x == n);
                }
                Step::Done
            }
            local_name!("form") => {
                let Some(form) = self.st.form.take() else {
                    return Step::Done;
                };
                if !self.form_in_scope(form) {
                    return Step::Done;
                }
                self.generate_implied_end(None);
                // Removed from the stack where it is (what is above it stays open).
                if let Some(i) = self.st.stack.iter().rposition(|o| o.id == form) {
                    self.remove_at(i);
                }
                Step::Done
            }
            local_name!("p") => {
                if !self.in_scope_named(Scope::Button, &local_name!("p")) {
                    // A `</p>` with no `<p>`: an empty one.
                    self.insert_phantom(local_name!("p"));
                }
                self.close_p();
                Step::Done
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let scope = if name == local_name!("li") {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.in_scope_named(scope, &name) {
                    self.generate_implied_end(Some(&name));
                    self.pop_until(|x| *x == name);
                }
                Step::Done
            }
            n if heading(&n) => {
                if self.in_scope(Scope::Default, heading) {
                    self.generate_implied_end(None);
                    self.pop_until(heading);
                }
                Step::Done
            }
            n if super::is_formatting(&n) => self.adoption_agency(n),
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                if self.in_scope_named(Scope::Default, &name) {
                    self.generate_implied_end(None);
                    self.pop_until(|x| *x == name);
                    self.clear_to_marker();
                }
                Step::Done
            }
            _ => {
                self.end_tag_in_body(&name);
                Step::Done
            }
        }
    }

    /// Whether the form element `form` is in (default) scope.
    fn form_in_scope(&self, form: u32) -> bool {
        for o in self.st.stack.iter().rev() {
            if o.id == form {
                return true;
            }
            if Scope::Default.bounds(&o.name) {
                return false;
            }
        }
        false
    }

    /// The adoption agency's first steps; anything beyond them gives up.
    fn adoption_agency(&mut self, subject: LocalName) -> Step {
        let Some(cur) = self.current() else {
            return Step::GiveUp;
        };
        let cur_id = cur.id;
        let cur_is_subject = cur.name == subject;
        let cur_active = self
            .st
            .active
            .iter()
            .any(|e| matches!(e, Entry::Element { id, .. } if *id == cur_id));
        if cur_is_subject && !cur_active {
            self.pop();
            return Step::Done;
        }
        // The last element named `subject` after the last marker.
        let mut found = None;
        for (i, e) in self.st.active.iter().enumerate().rev() {
            match e {
                Entry::Marker => break,
                Entry::Element { id, name } if *name == subject => {
                    found = Some((i, *id));
                    break;
                }
                _ => {}
            }
        }
        match found {
            None => {
                self.end_tag_in_body(&subject);
                Step::Done
            }
            Some((i, id)) if id == cur_id => {
                self.pop();
                self.st.active.remove(i);
                Step::Done
            }
            Some(_) => Step::GiveUp,
        }
    }

    /// "Any other end tag" in body.
    fn end_tag_in_body(&mut self, name: &LocalName) {
        let mut at = None;
        for (i, o) in self.st.stack.iter().enumerate().rev() {
            if o.name == *name {
                at = Some(i);
                break;
            }
            if special(&o.name) {
                return;
            }
        }
        let Some(at) = at else {
            return;
        };
        self.generate_implied_end(Some(name));
        while self.st.stack.len() > at {
            self.pop();
        }
    }

    fn clear_to_marker(&mut self) {
        while let Some(e) = self.st.active.pop() {
            if matches!(e, Entry::Marker) {
                break;
            }
        }
    }

    fn table_outer_current(&self) -> bool {
        self.current().is_some_and(|o| {
            matches!(
                o.name,
                local_name!("table")
                    | local_name!("tbody")
                    | local_name!("tfoot")
                    | local_name!("thead")
                    | local_name!("tr")
            )
        })
    }

    /// Table text: whitespace is inserted; anything else would be foster-parented.
    fn table_text(&mut self, t: Chars) -> Step {
        if !self.table_outer_current() || !all_ws(t.as_str(self.sink.page())) {
            return Step::GiveUp;
        }
        self.append_text(t);
        Step::Done
    }

    fn reset_mode(&self) -> Option<Mode> {
        for (i, o) in self.st.stack.iter().enumerate().rev() {
            let last = i == 0;
            match o.name {
                local_name!("td") | local_name!("th") if !last => return Some(Mode::InCell),
                local_name!("tr") => return Some(Mode::InRow),
                local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => {
                    return Some(Mode::InTableBody)
                }
                local_name!("table") => return Some(Mode::InTable),
                local_name!("caption")
                | local_name!("colgroup")
                | local_name!("template")
                | local_name!("frameset") => return None,
                local_name!("head") if !last => return Some(Mode::InHead),
                local_name!("body") => return Some(Mode::InBody),
                local_name!("html") => {
                    return Some(if self.st.head.is_none() {
                        Mode::BeforeHead
                    } else {
                        Mode::AfterHead
                    })
                }
                _ => {}
            }
        }
        Some(Mode::InBody)
    }

    fn in_table(&mut self, tk: Tk) -> Step {
        match tk {
            Tk::Chars(t) => self.table_text(t),
            Tk::Comment => {
                self.append_comment(self.current_id());
                Step::Done
            }
            Tk::Eof => self.in_body(Tk::Eof),
            Tk::Start(tag) => match tag.name {
                local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
                    self.pop_until_current(table_context);
                    self.insert(tag);
                    self.st.mode = Mode::InTableBody;
                    Step::Done
                }
                local_name!("td") | local_name!("th") | local_name!("tr") => {
                    self.pop_until_current(table_context);
                    self.insert_phantom(local_name!("tbody"));
                    Step::Reprocess(Mode::InTableBody, Tk::Start(tag))
                }
                local_name!("style") | local_name!("script") => self.in_head(Tk::Start(tag)),
                local_name!("input") if is_type_hidden(&tag) => {
                    self.insert_no_push(tag);
                    Step::Done
                }
                // caption, colgroup, col, table, template, form, input and anything else
                // (foster parenting).
                _ => Step::GiveUp,
            },
            Tk::End(n) => match n {
                local_name!("table") => {
                    if self.in_scope_named(Scope::Table, &n) {
                        self.pop_until(|x| *x == local_name!("table"));
                        match self.reset_mode() {
                            Some(m) => {
                                self.st.mode = m;
                                Step::Done
                            }
                            None => Step::GiveUp,
                        }
                    } else {
                        Step::Done
                    }
                }
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html")
                | local_name!("tbody")
                | local_name!("td")
                | local_name!("tfoot")
                | local_name!("th")
                | local_name!("thead")
                | local_name!("tr") => Step::Done,
                _ => Step::GiveUp,
            },
        }
    }

    fn in_table_body(&mut self, tk: Tk) -> Step {
        match tk {
            Tk::Start(tag) if tag.name == local_name!("tr") => {
                self.pop_until_current(table_body_context);
                self.insert(tag);
                self.st.mode = Mode::InRow;
                Step::Done
            }
            Tk::Start(tag) if matches!(tag.name, local_name!("td") | local_name!("th")) => {
                self.pop_until_current(table_body_context);
                self.insert_phantom(local_name!("tr"));
                Step::Reprocess(Mode::InRow, Tk::Start(tag))
            }
            Tk::End(n) if table_section(&n) => {
                if self.in_scope_named(Scope::Table, &n) {
                    self.pop_until_current(table_body_context);
                    self.pop();
                    self.st.mode = Mode::InTable;
                }
                Step::Done
            }
            Tk::Start(ref tag)
                if matches!(
                    tag.name,
                    local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("tbody")
                        | local_name!("tfoot")
                        | local_name!("thead")
                ) =>
            {
                self.table_body_out(tk)
            }
            Tk::End(local_name!("table")) => self.table_body_out(tk),
            Tk::End(
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html")
                | local_name!("td")
                | local_name!("th")
                | local_name!("tr"),
            ) => Step::Done,
            tk => self.in_table(tk),
        }
    }

    /// A table body closed by a tag that belongs to the table.
    fn table_body_out(&mut self, tk: Tk) -> Step {
        let outer = |n: &LocalName| {
            matches!(
                *n,
                local_name!("table") | local_name!("tbody") | local_name!("tfoot")
            )
        };
        if self.in_scope(Scope::Table, outer) {
            self.pop_until_current(table_body_context);
            self.pop();
            Step::Reprocess(Mode::InTable, tk)
        } else {
            Step::Done
        }
    }

    fn in_row(&mut self, tk: Tk) -> Step {
        let tr = local_name!("tr");
        match tk {
            Tk::Start(tag) if matches!(tag.name, local_name!("td") | local_name!("th")) => {
                self.pop_until_current(table_row_context);
                self.insert(tag);
                self.st.mode = Mode::InCell;
                self.st.active.push(Entry::Marker);
                Step::Done
            }
            Tk::End(local_name!("tr")) => {
                if self.in_scope_named(Scope::Table, &tr) {
                    self.pop_until_current(table_row_context);
                    self.pop();
                    self.st.mode = Mode::InTableBody;
                }
                Step::Done
            }
            Tk::Start(ref tag)
                if matches!(
                    tag.name,
                    local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("tbody")
                        | local_name!("tfoot")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                self.row_out(tk)
            }
            Tk::End(local_name!("table")) => self.row_out(tk),
            Tk::End(n) if table_section(&n) => {
                if self.in_scope_named(Scope::Table, &n) {
                    self.row_out(Tk::End(n))
                } else {
                    Step::Done
                }
            }
            Tk::End(
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html")
                | local_name!("td")
                | local_name!("th"),
            ) => Step::Done,
            tk => self.in_table(tk),
        }
    }

    /// A row closed by a tag that belongs to its table.
    fn row_out(&mut self, tk: Tk) -> Step {
        if self.in_scope_named(Scope::Table, &local_name!("tr")) {
            self.pop_until_current(table_row_context);
            self.pop();
            Step::Reprocess(Mode::InTableBody, tk)
        } else {
            Step::Done
        }
    }

    fn close_cell(&mut self) {
        self.generate_implied_end(None);
        self.pop_until(|n| matches!(*n, local_name!("td") | local_name!("th")));
        self.clear_to_marker();
    }

    fn in_cell(&mut self, tk: Tk) -> Step {
        match tk {
            Tk::End(n) if matches!(n, local_name!("td") | local_name!("th")) => {
                if self.in_scope_named(Scope::Table, &n) {
                    self.generate_implied_end(None);
                    self.pop_until(|x| *x == n);
                    self.clear_to_marker();
                    self.st.mode = Mode::InRow;
                }
                Step::Done
            }
            Tk::Start(ref tag)
                if matches!(
                    tag.name,
                    local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("tbody")
                        | local_name!("td")
                        | local_name!("tfoot")
                        | local_name!("th")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                let cell = |n: &LocalName| matches!(*n, local_name!("td") | local_name!("th"));
                if self.in_scope(Scope::Table, cell) {
                    self.close_cell();
                    Step::Reprocess(Mode::InRow, tk)
                } else {
                    Step::Done
                }
            }
            Tk::End(
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html"),
            ) => Step::Done,
            Tk::End(n)
                if matches!(
                    n,
                    local_name!("table")
                        | local_name!("tbody")
                        | local_name!("tfoot")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                if self.in_scope_named(Scope::Table, &n) {
                    self.close_cell();
                    Step::Reprocess(Mode::InRow, Tk::End(n))
                } else {
                    Step::Done
                }
            }
            tk => self.in_body(tk),
        }
    }
}

/// html5ever's "clear the stack back to a table context" set.
fn table_context(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("table") | local_name!("template") | local_name!("html")
    )
}

/// `tbody`, `tfoot`, `thead`.
fn table_section(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("tbody") | local_name!("tfoot") | local_name!("thead")
    )
}

fn table_body_context(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("tbody")
            | local_name!("tfoot")
            | local_name!("thead")
            | local_name!("template")
            | local_name!("html")
    )
}

fn table_row_context(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("tr") | local_name!("template") | local_name!("html")
    )
}

/// End tags that the modes before `<head>` treat as "anything else" (others are ignored).
fn before_end_ok(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("head") | local_name!("body") | local_name!("html") | local_name!("br")
    )
}

fn is_type_hidden(tag: &Tag) -> bool {
    tag.attrs
        .iter()
        .find(|a| a.name.local == local_name!("type") && a.name.ns == ns!())
        .is_some_and(|a| a.value.eq_ignore_ascii_case("hidden"))
}

/// `t` cut after its leading whitespace: the whitespace (if any) and the rest (if any), as
/// html5ever's `SplitWhitespace` cuts it.
fn split_ws(mut t: StrTendril) -> (Option<StrTendril>, Option<StrTendril>) {
    let n = ws_len(&t);
    if n == 0 {
        return (None, Some(t));
    }
    if n == t.len() {
        return (Some(t), None);
    }
    let ws = t.subtendril(0, n as u32);
    t.pop_front(n as u32);
    (Some(ws), Some(t))
}
