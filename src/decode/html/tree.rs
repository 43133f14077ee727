//! The page's lean tree: html5ever's tree-construction rules (the same algorithm as
//! `scraper`, so implied end tags, misnested formatting and foster parenting give the same
//! shape; the fast builder, [`super::build`], or html5ever's own) driving a sink that keeps only
//! what the renderer reads — element names, the known class names as bits
//! ([`super::render::cls`]), whether there is any class or a `style`, a link's site section and
//! a `logo3` image's title — in an arena of 40-byte nodes linked by index, in fixed chunks.
//! Every other attribute (the site's long `data-tooltip-content`, `style` values, ids) and the
//! text of scripts and styles are dropped as they arrive. The builder is fed by the byte-level
//! tokenizer ([`super::tokenize`]), whose text runs the tree keeps as ranges of the page
//! ([`TextAt`]: nothing copied; runs with references decoded, runs joined, and text from
//! html5ever's tokenizer go to the tree's own text); on its fallback, by html5ever's
//! tokenizer, given the page in 64 KiB pieces with text copied out of them, so no copy of the
//! whole page is held either way. About a quarter of `scraper`'s DOM (`notes/stream-html.md`,
//! `notes/stream-html3.md`).
//!
//! Must not know the site's markup beyond the class bits; reading the tree is `render`'s
//! business. Never panics: a handle the builder passes that is not in the arena is ignored.

use super::memo::{Entry, Memo};
use super::render::Recorded;
use super::tokenize::AsText;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{
    ElemName, ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{local_name, ns, Attribute, LocalName, Namespace, QualName};
use std::borrow::Cow;
use std::cell::{Ref, RefCell};
use std::sync::Arc;

/// No node (the end of a link).
const NONE: u32 = u32::MAX;

/// A handle that is not in the arena (a template without contents, never made): linking it
/// anywhere does nothing.
const DISCARDED: u32 = u32::MAX - 1;

/// The namespaces the tree builder puts elements in, by [`Element::ns`].
const NAMESPACES: usize = 3;

/// An element as the renderer sees it (24 bytes: a page of 36 MB has a million nodes).
pub struct Element {
    local: LocalName,
    /// The known classes, one bit each ([`super::render::cls::bit`]).
    pub flags: u64,
    /// The element's kept `href` (`a`) and `title` (`img`) in [`Tree::attrs`], or [`NONE`].
    attrs: u32,
    /// 0 HTML, 1 SVG, 2 MathML.
    ns: u8,
    /// Whether the element has any class at all.
    pub has_classes: bool,
    /// Whether it has a `class` attribute (maybe empty).
    class_attr: bool,
    /// Whether it has a `style` attribute (its value is never read).
    style: bool,
}

/// An element's kept attribute values: a link's site section, a `logo3` image's title.
#[derive(Default)]
struct Attrs {
    href: Option<Box<str>>,
    title: Option<Box<str>>,
}

fn ns_index(ns: &Namespace) -> u8 {
    match *ns {
        ns!(svg) => 1,
        ns!(mathml) => 2,
        _ => 0,
    }
}

/// What the tree keeps of an element's attributes, read one attribute at a time: from
/// html5ever's `Attribute`s ([`Element::new`]), or by the byte-level tokenizer straight from
/// the page for elements whose attributes the tree builder never reads (no `Attribute` built).
#[derive(Default)]
pub struct Kept {
    flags: u64,
    has_classes: bool,
    class_attr: bool,
    style: bool,
    href: Option<Box<str>>,
    title: Option<Box<str>>,
}

impl Kept {
    /// Reads the attribute `name="value"` (`name` lower-case) of a `tag` element; the first
    /// of a name wins (as the tokenizer's duplicate rule and `add_attrs_if_missing` want).
    /// Only a link's site section and a `logo3` image's title are read (`render`); a `title`
    /// may come before the `class`, so it goes to [`Kept::title`] after all the others.
    pub fn read(&mut self, tag: &str, name: &str, value: &str) {
        match name {
            "class" => self.read_class(|| class_bits(value)),
            "style" => self.style = true,
            "href" if tag == "a" && self.href.is_none() => {
                self.href = site_section(value).map(Box::from);
            }
            _ => {}
        }
    }

    /// html5ever's attributes of a `tag` element, the `title` after the others.
    fn read_attrs(&mut self, tag: &str, attrs: &[Attribute]) {
        for a in attrs {
            self.read(tag, &a.name.local, &a.value);
        }
        if self.title.is_none() {
            if let Some(a) = attrs.iter().find(|a| a.name.local == local_name!("title")) {
                self.title(tag, || a.value.to_string());
            }
        }
    }

    /// The first `class` attribute, by its classes' bits and whether it has any ([`class_bits`],
    /// asked only when this is the first).
    pub fn read_class(&mut self, bits: impl FnOnce() -> (u64, bool)) {
        if !self.class_attr {
            self.class_attr = true;
            (self.flags, self.has_classes) = bits();
        }
    }

    /// An image's first `title`, read after all its attributes: kept when the image is a
    /// `logo3` (the renderer reads no other image's title).
    pub fn title(&mut self, tag: &str, value: impl FnOnce() -> String) {
        if tag == "img" && self.flags & super::render::cls::LOGO3 != 0 {
            self.title = Some(value().into_boxed_str());
        }
    }
}

/// The known classes of a `class` value as bits ([`super::render::cls::bit`]), and whether it
/// names any class at all.
pub fn class_bits(value: &str) -> (u64, bool) {
    let mut any = false;
    let mut flags = 0;
    for c in value.split_ascii_whitespace() {
        any = true;
        flags |= super::render::cls::bit(c);
    }
    (flags, any)
}

impl Element {
    fn new(name: QualName, attrs: Vec<Attribute>, side: &mut Vec<Attrs>) -> Self {
        let mut kept = Kept::default();
        kept.read_attrs(&name.local, &attrs);
        Element::with(name.local, ns_index(&name.ns), kept, side)
    }

    /// An element of namespace `ns` ([`Element::ns`]) with the attributes `kept`.
    fn with(local: LocalName, ns: u8, kept: Kept, side: &mut Vec<Attrs>) -> Self {
        let mut el = Element {
            ns,
            local,
            flags: 0,
            attrs: NONE,
            has_classes: false,
            class_attr: false,
            style: false,
        };
        el.set(kept, side);
        el
    }

    /// Takes the attributes `kept` (the kept values in `side`).
    fn set(&mut self, kept: Kept, side: &mut Vec<Attrs>) {
        self.flags = kept.flags;
        self.has_classes = kept.has_classes;
        self.class_attr = kept.class_attr;
        self.style = kept.style;
        if kept.href.is_none() && kept.title.is_none() {
            return;
        }
        if self.attrs == NONE {
            side.push(Attrs::default());
            self.attrs = (side.len() - 1) as u32;
        }
        if let Some(slot) = side.get_mut(self.attrs as usize) {
            slot.href = kept.href;
            slot.title = kept.title;
        }
    }

    /// Adds the attributes it does not have yet (`add_attrs_if_missing`).
    fn add_attrs(&mut self, attrs: Vec<Attribute>, side: &mut Vec<Attrs>) {
        let had = side.get(self.attrs as usize);
        let mut kept = Kept {
            flags: self.flags,
            has_classes: self.has_classes,
            class_attr: self.class_attr,
            style: self.style,
            href: had.and_then(|a| a.href.clone()),
            title: had.and_then(|a| a.title.clone()),
        };
        kept.read_attrs(&self.local, &attrs);
        self.set(kept, side);
    }

    /// The element's local name.
    pub fn name(&self) -> &str {
        &self.local
    }
}

/// The part of a link that names the site's section (`/wh40k10ed` of
/// `/wh40k10ed/factions/…`), which is all the renderer reads of it; `None` when the link names
/// none (the renderer reads the same section from this part as from the whole link).
fn site_section(href: &str) -> Option<&str> {
    let section = href.strip_prefix('/')?.split('/').next()?;
    (!section.is_empty() && section.len() < 24).then(|| &href[..1 + section.len()])
}

/// Where a text node's text is: a range of the page (the byte-level tokenizer's text runs,
/// not copied), or of the tree's own text (runs with references decoded, runs joined, and
/// text from html5ever's tokenizer). Read through [`NodeRef::text`].
#[derive(Clone, Copy, Debug)]
pub struct TextAt {
    from: usize,
    len: u32,
    own: bool,
}

/// The text of `piece`, of the page `page`.
fn piece_text<'p>(page: &'p str, piece: Piece<'p>) -> &'p str {
    match piece {
        Piece::Page(from, to) => page.get(from..to).unwrap_or_default(),
        Piece::Own(t) => t,
    }
}

/// A piece of text given to the tree.
#[derive(Clone, Copy)]
pub enum Piece<'s> {
    /// `page[from..to]` of the page the tree was made for.
    Page(usize, usize),
    /// Text of its own (copied into the tree).
    Own(&'s str),
}

/// A node's contents.
pub enum Node {
    Document,
    Element(Element),
    Text(TextAt),
    /// Comments, processing instructions, template contents: kept as nodes (the builder
    /// links them) but never read.
    Other,
}

struct Slot {
    node: Node,
    parent: u32,
    next: u32,
    first: u32,
    last: u32,
}

/// How many nodes a chunk of the arena holds: chunks are never reallocated, so the arena
/// grows without the doubling copy (and its transient second arena) of one `Vec`.
const CHUNK: usize = 1 << 14;

/// The nodes, by index, in chunks of [`CHUNK`]. A node's previous sibling is kept beside
/// them, and only for html5ever's tree builder, which inserts before siblings and moves nodes
/// (foster parenting, the adoption agency); the fast builder only appends, and the renderer
/// reads earlier siblings forward from the first child ([`NodeRef::earlier_siblings`]): 8 bytes
/// a node less (a page of 36 MB has 800,000 nodes).
#[derive(Default)]
struct Arena {
    chunks: Vec<Vec<Slot>>,
    len: usize,
    /// Each node's previous sibling, when kept (for html5ever's builder).
    prev: Option<Vec<u32>>,
}

impl Arena {
    fn keeping_prev() -> Self {
        Arena {
            prev: Some(Vec::new()),
            ..Arena::default()
        }
    }

    fn push(&mut self, node: Node) -> u32 {
        if self.len % CHUNK == 0 {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(c) = self.chunks.last_mut() {
            c.push(slot(node));
        }
        if let Some(prev) = &mut self.prev {
            prev.push(NONE);
        }
        self.len += 1;
        (self.len - 1) as u32
    }

    /// The previous sibling of `id` ([`NONE`] for none): kept, or found from the parent's
    /// first child.
    fn prev_of(&self, id: u32) -> u32 {
        if let Some(prev) = &self.prev {
            return prev.get(id as usize).copied().unwrap_or(NONE);
        }
        let Some(parent) = self.get(id).map(|n| n.parent).and_then(|p| self.get(p)) else {
            return NONE;
        };
        let mut before = NONE;
        let mut at = parent.first;
        while at != id && at != NONE {
            before = at;
            at = self.get(at).map_or(NONE, |n| n.next);
        }
        if at == id {
            before
        } else {
            NONE
        }
    }

    fn set_prev(&mut self, id: u32, to: u32) {
        if let Some(p) = self
            .prev
            .as_mut()
            .and_then(|prev| prev.get_mut(id as usize))
        {
            *p = to;
        }
    }

    fn get(&self, id: u32) -> Option<&Slot> {
        let i = id as usize;
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut Slot> {
        let i = id as usize;
        self.chunks.get_mut(i / CHUNK)?.get_mut(i % CHUNK)
    }
}

/// The parsed page; its text nodes read the page (`'t`) or the tree's own text.
pub struct Tree<'t> {
    /// The page text nodes are ranges of ([`TextAt`]).
    page: &'t str,
    /// Text nodes' own text (references decoded, runs joined, html5ever's tokenizer's text).
    own: String,
    slots: Arena,
    /// The kept `href` and `title` values, by [`Element::attrs`].
    attrs: Vec<Attrs>,
    /// What a node outside the arena reads as (never asked: `NodeRef`s are made for nodes).
    other: Node,
    /// The name a handle that is not an element reads as (the builder never asks).
    div: LocalName,
    /// Elements whose subtree was read from the memo (left empty here), by node, in the order
    /// they were made ([`super::memo`]).
    memos: Vec<(u32, Arc<Entry>)>,
}

/// How much of the page the tokenizer is given at once: the page is not copied whole into
/// the parser's buffer, and text is copied out of each piece, so pieces are freed as parsing
/// moves on. (Cut at a character boundary; html5ever's tokenizer carries its state across.)
const PIECE: usize = 1 << 16;

/// Parses `text` into a [`Tree`] with html5ever's tree builder (scripting on, as `scraper`),
/// fed by the byte-level tokenizer ([`super::tokenize`]); a page that tokenizer gives back
/// goes through html5ever's own tokenizer ([`parse_with_html5ever`]), to the same tree. Tags
/// past the depth limits are read as text (`super::limit_depth`'s counting): the answer says
/// how many, and where the first is. Glossary and chrome containers are read from `memo`
/// where they qualify ([`super::memo`]), in the fast builder's tree only (a page it gives up
/// on is parsed again without the memo).
pub fn parse<'t>(text: &'t str, memo: Option<&'t Memo>) -> (Tree<'t>, AsText) {
    parse_fast_memo(text, true, memo)
        .or_else(|| parse_with_tree_builder(text, true))
        .unwrap_or_else(|| parse_with_html5ever_limited(text))
}

/// [`parse_with_html5ever`] after the byte scan's limits ([`super::limit_depth`]: the tags
/// past them written as text).
fn parse_with_html5ever_limited(text: &str) -> (Tree<'static>, AsText) {
    let scan = super::limit_depth(text, super::MAX_DEPTH);
    let Some(&first) = scan.neutralized.first() else {
        return (parse_with_html5ever(text), AsText::default());
    };
    let as_text = AsText {
        tags: scan.neutralized.len(),
        first_line: super::line_at(text, first),
    };
    let limited = super::neutralize(text, &scan.neutralized);
    (parse_with_html5ever(&limited), as_text)
}

/// The page's tree from the fast builder ([`super::build`]), `None` when it gave up; with
/// `limits`, tags past the depth limits read as text.
#[cfg(any(test, feature = "fuzzing"))]
pub fn parse_fast(text: &str, limits: bool) -> Option<(Tree<'_>, AsText)> {
    parse_fast_memo(text, limits, None)
}

fn parse_fast_memo<'t>(
    text: &'t str,
    limits: bool,
    memo: Option<&'t Memo>,
) -> Option<(Tree<'t>, AsText)> {
    // The page as the tokenizer reads it (after a byte-order mark), so its text runs are
    // ranges of the tree's page.
    let page = text.strip_prefix('\u{feff}').unwrap_or(text);
    let builder = super::build::Builder::new(new_sink(page, false)).with_memo(memo);
    let as_text = super::tokenize::run(text, &builder, limits).ok()?;
    Some((builder.finish()?, as_text))
}

/// The page's tree from html5ever's tree builder, fed by the byte-level tokenizer; `None`
/// when that tokenizer gives the page back ([`super::tokenize::Fallback`]). With `limits`, tags
/// past the depth limits read as text.
fn parse_with_tree_builder(text: &str, limits: bool) -> Option<(Tree<'_>, AsText)> {
    let builder = TreeBuilder::new(new_sink(text, true), TreeBuilderOpts::default());
    let as_text = super::tokenize::run(text, &builder, limits).ok()?;
    Some((builder.sink.finish(), as_text))
}

/// The page's tree as [`parse`] builds it but every tag a tag (no depth limits): what the
/// tests and the fuzz target compare with html5ever's tokenizer's tree.
#[cfg(any(test, feature = "fuzzing"))]
pub fn parse_unlimited(text: &str) -> Tree<'_> {
    match parse_fast(text, false).or_else(|| parse_with_tree_builder(text, false)) {
        Some((tree, _)) => tree,
        None => parse_with_html5ever(text),
    }
}

/// A sink for the tree of `page`: for the fast builder (`prev` false: no previous-sibling
/// links) or for html5ever's builder (`prev`).
pub(super) fn new_sink(page: &str, prev: bool) -> Sink<'_> {
    let mut slots = if prev {
        Arena::keeping_prev()
    } else {
        Arena::default()
    };
    slots.push(Node::Document);
    Sink {
        tree: RefCell::new(Tree {
            page,
            own: String::new(),
            slots,
            attrs: Vec::new(),
            other: Node::Other,
            div: local_name!("div"),
            memos: Vec::new(),
        }),
        namespaces: [ns!(html), ns!(svg), ns!(mathml)],
    }
}

/// Parses `text` with html5ever's tokenizer and tree builder: the page is given to the
/// tokenizer in [`PIECE`]s and text is copied out of them.
pub fn parse_with_html5ever(text: &str) -> Tree<'static> {
    // Its text is copied out of the pieces: the tree reads no page.
    let mut parser = html5ever::parse_document(new_sink("", true), Default::default());
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PIECE);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (piece, after) = rest.split_at(cut);
        parser.process(StrTendril::from_slice(piece));
        rest = after;
    }
    parser.finish()
}

fn slot(node: Node) -> Slot {
    Slot {
        node,
        parent: NONE,
        next: NONE,
        first: NONE,
        last: NONE,
    }
}

impl<'t> Tree<'t> {
    /// The text of the text node at `at` (empty if the range is not in the text: never made).
    fn text(&self, at: &TextAt) -> &str {
        let source = if at.own { self.own.as_str() } else { self.page };
        source
            .get(at.from..at.from + at.len as usize)
            .unwrap_or_default()
    }

    /// Adds `piece` to the text node `id` when it is one (joined text is copied to the end of
    /// the tree's own text, unless it is already there or the two pieces are contiguous in the
    /// page).
    fn merge_text(&mut self, id: u32, piece: Piece) -> bool {
        let Some(Node::Text(at)) = self.slots.get(id).map(|n| &n.node) else {
            return false;
        };
        let mut at = *at;
        match piece {
            Piece::Page(from, to) if !at.own && at.from + at.len as usize == from => {
                let Ok(len) = u32::try_from(to.saturating_sub(at.from)) else {
                    return false;
                };
                at.len = len;
            }
            _ => {
                if !(at.own && at.from + at.len as usize == self.own.len()) {
                    let before = self.text(&at).to_string();
                    at = TextAt {
                        from: self.own.len(),
                        len: u32::try_from(before.len()).unwrap_or(at.len),
                        own: true,
                    };
                    self.own.push_str(&before);
                }
                self.own.push_str(piece_text(self.page, piece));
                let Ok(len) = u32::try_from(self.own.len() - at.from) else {
                    return false;
                };
                at.len = len;
            }
        }
        if let Some(Node::Text(t)) = self.slots.get_mut(id).map(|n| &mut n.node) {
            *t = at;
        }
        true
    }

    /// A new text node for `piece` (not linked).
    fn new_text(&mut self, piece: Piece) -> u32 {
        let at = match piece {
            Piece::Page(from, to) if u32::try_from(to.saturating_sub(from)).is_ok() => TextAt {
                from,
                len: to.saturating_sub(from) as u32,
                own: false,
            },
            _ => {
                let text = piece_text(self.page, piece);
                let from = self.own.len();
                self.own.push_str(text);
                TextAt {
                    from,
                    len: u32::try_from(text.len()).unwrap_or(u32::MAX),
                    own: true,
                }
            }
        };
        self.slots.push(Node::Text(at))
    }

    /// A new, unlinked text node for `piece` under `parent`; `None` when the text is dropped
    /// (in a script or style) or joined to `beside`, the text node it would be next to.
    fn text_node(&mut self, parent: u32, beside: u32, piece: Piece) -> Option<u32> {
        if self.slots.drops_text(parent)
            || self.slots.get(parent).is_none()
            || self.merge_text(beside, piece)
        {
            return None;
        }
        Some(self.new_text(piece))
    }

    /// Appends `piece` as the last child of `parent` (joined to a text node there).
    fn append_text(&mut self, parent: u32, piece: Piece) {
        let last = self.slots.get(parent).map_or(NONE, |p| p.last);
        if let Some(id) = self.text_node(parent, last, piece) {
            self.slots.link_last(parent, id);
        }
    }

    /// The document node.
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef { tree: self, id: 0 }
    }

    /// The first element child of the document (`<html>`).
    pub fn root_element(&self) -> Option<ElementRef<'_>> {
        self.root().children().find_map(ElementRef::wrap)
    }

    fn at(&self, id: u32) -> Option<NodeRef<'_>> {
        self.slots.get(id).map(|_| NodeRef { tree: self, id })
    }
}

/// A node of a [`Tree`] (the same interface as `ego_tree`'s, as far as the renderer uses it).
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    tree: &'a Tree<'a>,
    id: u32,
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<'a> NodeRef<'a> {
    /// The node's slot (a `NodeRef` is only made for an index in the arena).
    fn link(&self, of: impl Fn(&Slot) -> u32) -> Option<Self> {
        self.tree.at(self.tree.slots.get(self.id).map_or(NONE, of))
    }

    pub fn value(&self) -> &'a Node {
        self.tree
            .slots
            .get(self.id)
            .map_or(&self.tree.other, |s| &s.node)
    }

    /// The text of a text node.
    pub fn text(&self) -> Option<&'a str> {
        match self.value() {
            Node::Text(at) => Some(self.tree.text(at)),
            _ => None,
        }
    }

    /// One of the kept attributes (`href`, `title`), or `style` (an empty value when there).
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        let Node::Element(e) = self.value() else {
            return None;
        };
        let kept = self.tree.attrs.get(e.attrs as usize);
        match name {
            "href" => kept.and_then(|k| k.href.as_deref()),
            "title" => kept.and_then(|k| k.title.as_deref()),
            "style" => e.style.then_some(""),
            _ => None,
        }
    }

    pub fn parent(&self) -> Option<Self> {
        self.link(|s| s.parent)
    }

    pub fn first_child(&self) -> Option<Self> {
        self.link(|s| s.first)
    }

    pub fn next_sibling(&self) -> Option<Self> {
        self.link(|s| s.next)
    }

    pub fn children(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.first_child(), |n| n.next_sibling())
    }

    pub fn next_siblings(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.next_sibling(), |n| n.next_sibling())
    }

    /// The siblings before this node, first to last (from the parent's first child: the
    /// previous-sibling links are not kept for the fast builder's trees).
    pub fn earlier_siblings(&self) -> impl Iterator<Item = NodeRef<'a>> {
        let me = *self;
        std::iter::successors(self.parent().and_then(|p| p.first_child()), |n| {
            n.next_sibling()
        })
        .take_while(move |n| *n != me)
    }

    /// This node and the nodes below it, in document order (iterative).
    pub fn descendants(&self) -> impl Iterator<Item = NodeRef<'a>> {
        let root = *self;
        std::iter::successors(Some(root), move |&n| next_in(n, root))
    }
}

/// The node after `n` in document order within `root`'s subtree.
fn next_in<'a>(n: NodeRef<'a>, root: NodeRef<'a>) -> Option<NodeRef<'a>> {
    if let Some(c) = n.first_child() {
        return Some(c);
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

/// An element node of a [`Tree`].
#[derive(Clone, Copy)]
pub struct ElementRef<'a> {
    node: NodeRef<'a>,
    el: &'a Element,
}

impl PartialEq for ElementRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<'a> ElementRef<'a> {
    pub fn wrap(node: NodeRef<'a>) -> Option<Self> {
        match node.value() {
            Node::Element(el) => Some(ElementRef { node, el }),
            _ => None,
        }
    }

    pub fn value(&self) -> &'a Element {
        self.el
    }

    pub fn child_elements(&self) -> impl Iterator<Item = ElementRef<'a>> {
        self.node.children().filter_map(ElementRef::wrap)
    }

    pub fn descendent_elements(&self) -> impl Iterator<Item = ElementRef<'a>> {
        self.node.descendants().filter_map(ElementRef::wrap)
    }

    /// The rendering of this element's subtree, when it was read from the memo.
    pub fn memo(&self) -> Option<&'a Recorded> {
        let memos = &self.node.tree.memos;
        let at = memos
            .binary_search_by_key(&self.node.id, |(id, _)| *id)
            .ok()?;
        memos.get(at).map(|(_, e)| &e.rendered)
    }
}

impl<'a> std::ops::Deref for ElementRef<'a> {
    type Target = NodeRef<'a>;
    fn deref(&self) -> &NodeRef<'a> {
        &self.node
    }
}

/// The tree builder's sink: the tree behind a `RefCell` (the builder holds `&self`).
pub(super) struct Sink<'t> {
    tree: RefCell<Tree<'t>>,
    /// HTML, SVG, MathML: the namespaces [`Element::ns`] stands for.
    namespaces: [Namespace; NAMESPACES],
}

/// An element's name as the tree builder asks for it.
#[derive(Debug)]
pub struct Name<'a> {
    local: Ref<'a, LocalName>,
    ns: &'a Namespace,
}

impl ElemName for Name<'_> {
    fn ns(&self) -> &Namespace {
        self.ns
    }

    fn local_name(&self) -> &LocalName {
        &self.local
    }
}

impl Arena {
    fn detach(&mut self, id: u32) {
        let Some(n) = self.get(id) else {
            return;
        };
        let (parent, next) = (n.parent, n.next);
        if parent == NONE {
            return;
        }
        let prev = self.prev_of(id);
        match self.get_mut(prev) {
            Some(p) => p.next = next,
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.first = next;
                }
            }
        }
        match self.get_mut(next) {
            Some(_) => self.set_prev(next, prev),
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.last = prev;
                }
            }
        }
        if let Some(n) = self.get_mut(id) {
            n.parent = NONE;
            n.next = NONE;
        }
        self.set_prev(id, NONE);
    }

    /// Links `id` (detached first) as the last child of `parent`.
    fn link_last(&mut self, parent: u32, id: u32) {
        if parent == id || self.get(id).is_none() {
            return;
        }
        self.detach(id);
        let Some(p) = self.get_mut(parent) else {
            return;
        };
        let last = p.last;
        p.last = id;
        if p.first == NONE {
            p.first = id;
        }
        if let Some(l) = self.get_mut(last) {
            l.next = id;
        }
        if let Some(n) = self.get_mut(id) {
            n.parent = parent;
            n.next = NONE;
        }
        self.set_prev(id, last);
    }

    /// Links the detached `id` just before `sibling` (which has a parent).
    fn link_before(&mut self, sibling: u32, id: u32) {
        if id == sibling || self.get(id).is_none() {
            return;
        }
        let Some(parent) = self.get(sibling).map(|s| s.parent) else {
            return;
        };
        let prev = self.prev_of(sibling);
        self.set_prev(sibling, id);
        match self.get_mut(prev) {
            Some(p) => p.next = id,
            None => {
                if let Some(p) = self.get_mut(parent) {
                    p.first = id;
                }
            }
        }
        if let Some(n) = self.get_mut(id) {
            n.parent = parent;
            n.next = sibling;
        }
        self.set_prev(id, prev);
    }

    /// Whether text under `parent` is never read (scripts and styles).
    fn drops_text(&self, parent: u32) -> bool {
        matches!(
            self.get(parent).map(|p| &p.node),
            Some(Node::Element(e)) if e.ns == 0
                && matches!(e.local, local_name!("script") | local_name!("style"))
        )
    }
}

impl<'t> Sink<'t> {
    /// The page the tree's text nodes are ranges of.
    pub fn page(&self) -> &'t str {
        self.tree.borrow().page
    }

    /// The known classes of element `id` (0 for anything else).
    pub fn flags(&self, id: u32) -> u64 {
        match self.tree.borrow().slots.get(id).map(|n| &n.node) {
            Some(Node::Element(e)) => e.flags,
            _ => 0,
        }
    }

    /// The last node made.
    pub fn last_made(&self) -> u32 {
        (self.tree.borrow().slots.len as u32).wrapping_sub(1)
    }

    /// Element `id`'s subtree was read from the memo as `entry` (nodes are attached in the
    /// order they are made).
    pub fn attach_memo(&self, id: u32, entry: Arc<Entry>) {
        let mut tree = self.tree.borrow_mut();
        let after_last = match tree.memos.last() {
            Some((last, _)) => *last < id,
            None => true,
        };
        if after_last {
            tree.memos.push((id, entry));
        }
    }

    /// Appends `piece` as the last child of `parent` (the fast builder's text).
    pub fn append_piece(&self, parent: u32, piece: Piece) {
        self.tree.borrow_mut().append_text(parent, piece);
    }

    /// Creates an HTML element `local` with the attributes `kept` (read by the byte-level
    /// tokenizer: see [`Kept`]).
    pub fn create_kept(&self, local: LocalName, kept: Kept) -> u32 {
        let mut tree = self.tree.borrow_mut();
        let el = Element::with(local, 0, kept, &mut tree.attrs);
        Sink::push_element(&mut tree, el)
    }

    fn push_element(tree: &mut Tree<'_>, el: Element) -> u32 {
        let template = el.local == local_name!("template");
        let id = tree.slots.push(Node::Element(el));
        if template {
            // The template's contents, a fragment as `scraper` makes it (its first child).
            let contents = tree.slots.push(Node::Other);
            tree.slots.link_last(id, contents);
        }
        id
    }
}

impl<'t> TreeSink for Sink<'t> {
    type Handle = u32;
    type Output = Tree<'t>;
    type ElemName<'a>
        = Name<'a>
    where
        't: 'a;

    fn finish(self) -> Tree<'t> {
        self.tree.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> Name<'a> {
        // The builder only asks about elements it made; anything else reads as `html:div`.
        let tree = self.tree.borrow();
        let ns = match tree.slots.get(*target).map(|n| &n.node) {
            Some(Node::Element(e)) => e.ns as usize,
            _ => 0,
        };
        let local = Ref::map(tree, |t| match t.slots.get(*target).map(|n| &n.node) {
            Some(Node::Element(e)) => &e.local,
            _ => &t.div,
        });
        Name {
            local,
            ns: &self.namespaces[ns.min(NAMESPACES - 1)],
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _: ElementFlags) -> u32 {
        let mut tree = self.tree.borrow_mut();
        let el = Element::new(name, attrs, &mut tree.attrs);
        Sink::push_element(&mut tree, el)
    }

    // Comments and processing instructions stay as (empty) nodes: they keep the text around
    // them in separate nodes, as `scraper` does.
    fn create_comment(&self, _text: StrTendril) -> u32 {
        self.tree.borrow_mut().slots.push(Node::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> u32 {
        self.tree.borrow_mut().slots.push(Node::Other)
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        let mut tree = self.tree.borrow_mut();
        match child {
            NodeOrText::AppendNode(id) => tree.slots.link_last(*parent, id),
            NodeOrText::AppendText(text) => tree.append_text(*parent, Piece::Own(&text)),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self
            .tree
            .borrow()
            .slots
            .get(*element)
            .is_some_and(|n| n.parent != NONE);
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &u32) -> u32 {
        self.tree
            .borrow()
            .slots
            .get(*target)
            .map_or(DISCARDED, |n| n.first)
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        let mut tree = self.tree.borrow_mut();
        let tree = &mut *tree;
        let s = &mut tree.slots;
        if let NodeOrText::AppendNode(id) = new_node {
            s.detach(id);
        }
        let Some(sib) = s.get(*sibling) else {
            return;
        };
        if sib.parent == NONE {
            return;
        }
        let parent = sib.parent;
        let prev = s.prev_of(*sibling);
        match new_node {
            NodeOrText::AppendNode(id) => s.link_before(*sibling, id),
            NodeOrText::AppendText(text) => {
                if let Some(id) = tree.text_node(parent, prev, Piece::Own(&text)) {
                    tree.slots.link_before(*sibling, id);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        let mut tree = self.tree.borrow_mut();
        let Tree {
            slots, attrs: side, ..
        } = &mut *tree;
        if let Some(Node::Element(e)) = slots.get_mut(*target).map(|n| &mut n.node) {
            e.add_attrs(attrs, side);
        }
    }

    fn remove_from_parent(&self, target: &u32) {
        self.tree.borrow_mut().slots.detach(*target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        if node == new_parent {
            return;
        }
        let mut tree = self.tree.borrow_mut();
        let s = &mut tree.slots;
        while let Some(first) = s.get(*node).map(|n| n.first).filter(|&f| f != NONE) {
            s.detach(first);
            s.link_last(*new_parent, first);
        }
    }
}

/// Everything the tree keeps, one line a node in document order (depth, then the node): what
/// the tests and the `html_tokenizers` fuzz target compare between the two tokenizers.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn dump(tree: &Tree<'_>) -> Vec<String> {
    tree.root()
        .descendants()
        .map(|n| {
            let depth = std::iter::successors(n.parent(), |p| p.parent()).count();
            let what = match n.value() {
                Node::Document => "#document".to_string(),
                Node::Other => "#other".to_string(),
                Node::Text(_) => format!("{:?}", n.text().unwrap_or_default()),
                Node::Element(e) => format!(
                    "<{} ns{} flags{:x} c{} s{} href{:?} title{:?}>",
                    e.name(),
                    e.ns,
                    e.flags,
                    e.has_classes,
                    e.style,
                    n.attr("href"),
                    n.attr("title")
                ),
            };
            format!("{depth} {what}")
        })
        .collect()
}

/// Where the two tokenizers' trees of `text` first differ (`None`: the same tree).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn tokenizers_differ(text: &str) -> Option<String> {
    let ours = dump(&parse_unlimited(text));
    let theirs = dump(&parse_with_html5ever(text));
    let i = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
    (ours != theirs).then(|| {
        format!(
            "trees differ at node {i}: ours {:?}, html5ever's {:?}",
            ours.get(i),
            theirs.get(i)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokenizer reads tags past the depth limits as text as the byte-level scan and
    /// `neutralize` had them read (the same tree, the same count, the same first line), on
    /// pages past each limit in each way.
    #[test]
    fn tags_past_the_limits_are_text_as_the_byte_scan_had_them() {
        let deep = |open: &str, close: &str, n: usize| {
            format!("<p>a</p>\n{}deep\n{}", open.repeat(n), close.repeat(n))
        };
        let pages = [
            deep("<div>", "</div>", 600),
            deep("<DIV class=x>", "</Div>", 515),
            deep("<div><span>", "</span></div>", 300),
            deep("<b>", "</b>", 40),
            "<b>x".repeat(3000),
            "<a href=\"#\">x".repeat(500),
            (0..200).map(|i| format!("<p><b id={i}>x</p>")).collect(),
            "<table><tr><td>".repeat(700),
            format!(
                "{}<script>if (a<b) {{}}</script><style>p{{}}</style><br/><img><p title='<b>'>{}",
                "<div>\n".repeat(520),
                "</div>".repeat(520)
            ),
            format!(
                "{}<svg><path/><g/></svg>x{}",
                "<span>".repeat(511),
                "</span>".repeat(511)
            ),
            format!("{}<!-- <div> -->x</div></div>", "<i>".repeat(33)),
            deep("<div>", "</div>", 512),
            deep("<div>", "</div>", 511),
        ];
        for (i, page) in pages.iter().enumerate() {
            let scan = super::super::limit_depth(page, super::super::MAX_DEPTH);
            let expected = super::super::neutralize(page, &scan.neutralized);
            let first_line = scan.neutralized.first().map_or(0, |&at| {
                1 + page[..at].bytes().filter(|&c| c == b'\n').count() as u32
            });
            let (tree, as_text) = parse(page, None);
            assert_eq!(
                (as_text.tags, as_text.first_line),
                (scan.neutralized.len(), first_line),
                "page {i}"
            );
            assert_eq!(dump(&tree), dump(&parse_unlimited(&expected)), "page {i}");
        }
    }

    #[test]
    fn nodes_stay_small() {
        // A page of 36 MB has about a million nodes: each byte here is a megabyte there.
        assert!(
            std::mem::size_of::<Slot>() <= 40,
            "{}",
            std::mem::size_of::<Slot>()
        );
    }

    /// The byte-level tokenizer gives the tree html5ever's tokenizer gives.
    pub(crate) fn assert_same_tree(name: &str, text: &str) {
        if let Some(difference) = tokenizers_differ(text) {
            panic!("{name}: {difference}");
        }
    }

    /// Tokenizer traps: each must build html5ever's tree.
    const TRAPS: &[&str] = &[
        // Text runs joined in one node: two ranges of the page apart, a range and decoded
        // text, decoded text and a range; a line feed dropped after `<pre>` from a range;
        // whitespace ranges split in tables and before `<head>`.
        "<p>a</span>b</em>c&amp;d</i>e&lt;</b>f</p><div>x<!---->y</div>",
        "<pre>\nline</pre><pre>\n\nlines</pre><textarea>\nt</textarea><listing>\nl</listing>",
        "  \n <html> <head> <title>t</title> </head> <body><table> <tr> <td>c</td> </tr> \n</table>",
        "<p>&amp &amp; &ampx &notit; &notin; &not &Aacute &AMP; &#65 &#x41; &#X41 &#; &#x; &#xZ",
        "<p>&#0; &#128; &#x81; &#xD800; &#x110000; &#99999999999; &#1114111; &#xFFFE; &#13;</p>",
        "<p>&unknown; &zzzz &; & &<b>x</b>&#</p>&",
        "<a href='/wh40k10ed?a=1&amp;b=2&copy=3&copy;&notit&not=1'>x</a>\
         <img title=\"&lt;T&gt; &quot;&amp\" class='a &amp; b'>",
        "<p class=dsOuterFrame class=other CLASS=x Style=y>dup</p><A HREF=/aos4/x>U</A><DIV>up</DIV>",
        "line1\r\nline2\rline3\n\r<p title='a\r\nb' class=\"x\ry\">\r</p>",
        "<script>if (a < b) { x = '</scr' + 'ipt>'; } </script ><p>after</p><script>x</SCRIPT>y",
        "<style>p > b { }</style><title>A &amp; B</title><textarea>\n<b>t</b></textarea>\
         <xmp><b>x</b></xmp><iframe><p>i</iframe><noembed>n</noembed><noframes>f</noframes>",
        "<!----><!--><!---><!-- a -- b --!><p>x</p><!-- c --!-->y<!-- unterminated",
        "<!DOCTYPE html><p>a</p>",
        "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p><table><tr><td>q",
        "<!DOCTYPE><p><table>quirks</table>",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\"><p>x",
        "<svg><![CDATA[ <p>cdata</p> ]]]></svg><p><![CDATA[ html ]]></p><math><![CDATA[m",
        "<div class=a id=b data-x=\"y > z\" data-q='\"' title=unq>x</div>\
         <img src=a.png title=a/b/><br/><p/>p</p><input type=HIDDEN><input type=text>",
        "<p>1 < 2 <3 <> </> <? pi ?> </ x> </3> <!x> <!DOCTYPE late>",
        "<p =a a= b=c \"q=1 'r=2 <s=3 ` t>attrs</p><p a\tb\nc\x0cd/e>w</p>",
        "<div class=\"kwb\nkwb2\tx\">ws classes</div><span class=\"\">empty</span><span class>c</span>",
        "<table><tr><td>x</td></tr><input type=hidden><input type=HiDdEn></table>",
        "<select><option>a<option>b</select><frameset><frame></frameset>",
        "<pre>\nfirst newline</pre><pre>\n\nsecond</pre><textarea>\nt</textarea><listing>\nl</listing>",
        "<template><p>t</p></template><svg><font color=red>x</font><a xlink:href=/wh40k10ed/x>s</a></svg>",
        "<math><annotation-xml encoding=\"text/html\"><p>h</p></annotation-xml></math>",
        "<plaintext><p>all text &amp; tags</p></plaintext>",
        // Found by the html_tokenizers fuzz target: an attribute nobody reads tells formatting
        // elements apart for the tree builder's "Noah's Ark" clause (four `<i>`, one with `v`).
        "<di><i v><i><i><i></di>\"",
        "<p><b id=1><b id=1><b id=1><b id=1><b ID=1><b id=2>x</p>y<a data-X=&amp;><a data-x=&>z",
        "\u{feff}<p>bom</p>",
        "<p>eof in tag <b class=\"x",
        "<p>eof in tag <b class=x",
        "<p>eof in name <b",
        "<p>eof after slash <b /",
        "<p>eof in end tag </b",
        "<div>text</div foo=\"a>b\">after</p>",
        "<p>ünïcödé <b class=dsOuterFrame title=ö>ü</b> &eacute;</p>",
        "<title>no end",
        "<script>no end <p>",
        "<noscript><p>ns</p></noscript><p>x</p>",
        "<p>&lt;b&gt;not a tag&lt;/b&gt;</p>",
    ];

    #[test]
    fn tokenizer_traps_build_html5evers_tree() {
        for (i, t) in TRAPS.iter().enumerate() {
            assert_same_tree(&format!("trap {i}: {t:?}"), t);
        }
    }

    #[test]
    fn fallbacks_build_html5evers_tree() {
        for t in [
            "<p>a\0b</p>",
            "<script><!-- <script> </script> --></script><p>x</p>",
        ] {
            assert_same_tree(t, t);
        }
    }

    #[test]
    fn fixture_and_corpus_pages_build_html5evers_tree() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for dir in ["tests/fixtures", "../shared/corpus/wahapedia-html"] {
            for e in walkdir::WalkDir::new(root.join(dir)).sort_by_file_name() {
                let Ok(e) = e else { continue };
                let p = e.path();
                if !p.extension().is_some_and(|x| x == "html" || x == "htm") {
                    continue;
                }
                let Ok(bytes) = std::fs::read(p) else {
                    continue;
                };
                assert_same_tree(&p.display().to_string(), &String::from_utf8_lossy(&bytes));
                seen += 1;
            }
        }
        assert!(seen >= 5, "only {seen} pages compared");
    }

    #[test]
    fn pieces_cut_inside_an_entity_and_a_character_parse_as_whole() {
        let word = "é&amp;".repeat(PIECE / 7 + 3);
        let page = format!("<p>{word}</p>");
        let (tree, _) = parse(&page, None);
        let text: String = tree.root().descendants().filter_map(|n| n.text()).collect();
        assert_eq!(text, word.replace("&amp;", "&"));
    }
}

#[cfg(test)]
mod fast_builder_tests {
    use super::tests::assert_same_tree;
    use super::*;

    /// Tree-builder traps: each must build html5ever's tree (by the fast builder or, where it
    /// gives up, by html5ever's); `true` marks those the fast builder must build itself.
    const TRAPS: &[(bool, &str)] = &[
        (true, "<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p></body></html>"),
        (true, "no doctype, no html <p>quirks<table><tr><td>cell</td></tr></table>"),
        (true, "<!DOCTYPE html><p>closed by <div>a div</div> and then text"),
        (true, "<!DOCTYPE html><p>a<p>b<h2>c</h2><ul><li>1<li>2<ul><li>2.1</ul></ul><dl><dt>t<dd>d</dl>"),
        (true, "<h1>a<h2>b</h2></h1><pre>\nkeep</pre><listing>\n\nl</listing>"),
        (true, "<table> <tr> <td>a<td>b<tr><th>c</table><table><tbody><tr><td><b>bold</td></tr></table>x"),
        (true, "<table><thead><tr><td>h</thead><tbody><tr><td>b</tbody><tfoot><tr><td>f</table>"),
        (true, "<table><tr><td><table><tr><td>nested</td></tr></table>after</td></tr></table>"),
        (true, "<b>a<i>b</i>c</b><a href=/wh40k10ed/x>l</a><a>m</a><nobr>n</nobr><u><s>x</s></u>"),
        (true, "<td>stray cell</td><tr>stray row</tr><caption>c</caption><col>text"),
        (true, "<span>a</div>b</span>c</foo><div><span>d</div>e"),
        (true, "<head><meta charset=utf-8><link rel=x><style>p{}</style><script>1<2</script></head>\
                <script>after head</script><body><p>x"),
        (true, "<html><head></head> <script>between</script> <body>b</body> </html> <!--c--> tail"),
        (true, "<body>x</body><!-- after body -->  <p>reopened</p></html><!--after html-->y"),
        (true, "<select><option>a<option>b<optgroup><option>c</select><input><hr><select><input>"),
        (true, "<form><input type=text><form>nested</form></form><p>after<button>b</button>"),
        (true, "<div><form><span></form>x</span></div>"),
        (true, "<p><textarea>\nt</textarea><xmp><b></xmp><iframe><p></iframe><noscript><p></noscript>"),
        (true, "<object><b>o</object>x<applet>a</applet><marquee>m</marquee>"),
        (true, "<table><tr><td>a</td></tr></table></table>x</td>y"),
        (true, "<table><tr><td><p>open p in a cell</td></tr></table>"),
        (true, "<li>a<div>b<li>c</div></li><dd>d<dt>e</dd>"),
        (true, ""),
        (true, "   "),
        (true, "<!-- only a comment -->"),
        (true, "<p>a</b>b</i>c"),
        (true, "<table><tr><td>1<input type=hidden><td>2</table>"),
        (false, "<b><p>misnested</b>after</p>"),
        (false, "<p><b>cut</p>reconstructed"),
        (false, "<a>1<a>2</a>"),
        (false, "<b><b><b><b>four</b></b></b></b>"),
        (false, "<table>foster<tr><td>x</table>"),
        (false, "<table><div>foster</div></table>"),
        (false, "<svg><circle/></svg><math><mi>x</mi></math>"),
        (false, "<template><p>t</p></template>"),
        (false, "<frameset><frame></frameset>"),
        (true, "<html><body><html class=x><body class=y style=z><p>x</p></body></html><html class=q>\
                <!DOCTYPE html><head><title>t</title></head><body class=w><p>second page</p></body></html>"),
        (true, "<html class=a><head><html title=t></head><html style=s><body><div class=dsOuterFrame>"),
        (false, "</p>"),
        (true, "<p>a</br>b</p>x</br></p>"),
        (true, "<table><tr><td>a</p>b</td></tr></table>"),
        (false, "<image src=x>"),
        (false, "<ruby>a<rt>b</rt></ruby>"),
        (false, "<table><caption>c</caption><colgroup><col></colgroup><tr><td>x</table>"),
        (false, "<table><table>"),
        (false, "<table><form><tr><td>x</table>"),
        (false, "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><p><table>"),
        (false, "<plaintext><p>"),
        (false, "<button><button>x"),
        (false, "<td><b>in a cell without a table</td>text"),
    ];

    #[test]
    fn tree_builder_traps_build_html5evers_tree() {
        for (i, (fast, t)) in TRAPS.iter().enumerate() {
            let name = format!("trap {i}: {t:?}");
            assert_same_tree(&name, t);
            let ours = parse_fast(t, false);
            if *fast {
                let (ours, _) = ours.unwrap_or_else(|| panic!("{name}: the fast builder gave up"));
                assert_eq!(dump(&ours), dump(&parse_with_html5ever(t)), "{name}");
            }
        }
    }

    #[test]
    #[cfg_attr(cogitator_no_corpus, ignore = "../shared/corpus is absent")]
    fn the_fast_builder_builds_every_corpus_page() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        let mut gave_up = Vec::new();
        let mut pages = Vec::new();
        for e in
            walkdir::WalkDir::new(root.join("../shared/corpus/wahapedia-html")).sort_by_file_name()
        {
            let Ok(e) = e else { continue };
            let p = e.path();
            if !p.extension().is_some_and(|x| x == "html") {
                continue;
            }
            let Ok(bytes) = std::fs::read(p) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if pages.len() < 3 && !p.to_string_lossy().contains("complete-scrape") {
                pages.push(text.to_string());
            }
            let page = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let builder = super::super::build::Builder::new(new_sink(page, false));
            let ran = super::super::tokenize::run(&text, &builder, true) == Ok(Default::default());
            seen += 1;
            if let Some(why) = builder.why() {
                gave_up.push(format!("{}: at {why}", p.display()));
                continue;
            }
            let tree = builder
                .finish()
                .filter(|_| ran)
                .unwrap_or_else(|| panic!("{}: the fast builder gave up", p.display()));
            assert_eq!(
                dump(&tree),
                dump(&parse_with_html5ever(&text)),
                "{}",
                p.display()
            );
        }
        assert!(seen >= 70, "only {seen} corpus pages");
        assert!(
            gave_up.is_empty(),
            "the fast builder gave up on {gave_up:#?}"
        );
        // Pages joined into one (as the ingest bench's large page is).
        let joined: String = pages.iter().take(3).map(String::as_str).collect();
        let (tree, _) = parse_fast(&joined, true).expect("the fast builder builds joined pages");
        assert_eq!(dump(&tree), dump(&parse_with_html5ever(&joined)));
    }
}
