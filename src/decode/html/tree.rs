//! The page's lean tree: html5ever's tree builder (the same algorithm as `scraper`, so implied
//! end tags, misnested formatting and foster parenting give the same shape) driving a sink that
//! keeps only what the renderer reads — element names, the known class names as bits
//! ([`super::render::cls`]), whether there is any class, and the `href`, `title` and `style`
//! attributes — in one arena (`Vec` of nodes linked by index). Every other attribute (the
//! site's long `data-tooltip-content`, `style` values, ids) and the text of scripts and styles
//! are dropped as they arrive, so the tree is a fraction of `scraper`'s DOM.
//!
//! Must not know the site's markup beyond the class bits; reading the tree is `render`'s
//! business. Never panics: a handle the builder passes that is not in the arena is ignored.

use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{local_name, Attribute, QualName};
use std::borrow::Cow;
use std::cell::{Ref, RefCell};

/// No node (the end of a link).
const NONE: u32 = u32::MAX;

/// An element as the renderer sees it.
pub struct Element {
    pub name: QualName,
    /// The known classes, one bit each ([`super::render::cls::bit`]).
    pub flags: u64,
    /// Whether the element has any class at all.
    pub has_classes: bool,
    /// Whether it has a `class` attribute (maybe empty).
    class_attr: bool,
    href: Option<StrTendril>,
    title: Option<StrTendril>,
    style: Option<StrTendril>,
}

impl Element {
    fn new(name: QualName, attrs: Vec<Attribute>) -> Self {
        let mut el = Element {
            name,
            flags: 0,
            has_classes: false,
            class_attr: false,
            href: None,
            title: None,
            style: None,
        };
        el.add_attrs(attrs);
        el
    }

    /// Keeps the attributes the renderer reads; the first of a name wins (as the tokenizer's
    /// duplicate rule and `add_attrs_if_missing` want).
    fn add_attrs(&mut self, attrs: Vec<Attribute>) {
        for a in attrs {
            let slot = match a.name.local {
                local_name!("class") => {
                    if !self.class_attr {
                        self.class_attr = true;
                        self.flags = a
                            .value
                            .split_ascii_whitespace()
                            .fold(0, |m, c| m | super::render::cls::bit(c));
                        self.has_classes = a.value.split_ascii_whitespace().next().is_some();
                    }
                    continue;
                }
                local_name!("href") => &mut self.href,
                local_name!("title") => &mut self.title,
                local_name!("style") => &mut self.style,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(a.value);
            }
        }
    }

    /// The element's local name.
    pub fn name(&self) -> &str {
        &self.name.local
    }

    /// One of the kept attributes (`href`, `title`, `style`).
    pub fn attr(&self, name: &str) -> Option<&str> {
        match name {
            "href" => self.href.as_deref(),
            "title" => self.title.as_deref(),
            "style" => self.style.as_deref(),
            _ => None,
        }
    }
}

/// A node's contents.
pub enum Node {
    Document,
    Element(Element),
    Text(StrTendril),
    /// Comments, processing instructions, template contents: kept as nodes (the builder links
    /// them) but never read.
    Other,
}

struct Slot {
    node: Node,
    parent: u32,
    prev: u32,
    next: u32,
    first: u32,
    last: u32,
}

/// The parsed page.
pub struct Tree {
    slots: Vec<Slot>,
}

/// Parses `text` into a [`Tree`] with html5ever's tree builder (scripting on, as `scraper`).
pub fn parse(text: &str) -> Tree {
    let fallback = Element::new(
        QualName::new(None, html5ever::ns!(html), local_name!("div")),
        Vec::new(),
    );
    let sink = Sink {
        slots: RefCell::new(vec![slot(Node::Document), slot(Node::Element(fallback))]),
    };
    html5ever::parse_document(sink, Default::default()).one(text)
}

fn slot(node: Node) -> Slot {
    Slot {
        node,
        parent: NONE,
        prev: NONE,
        next: NONE,
        first: NONE,
        last: NONE,
    }
}

impl Tree {
    /// The document node.
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef { tree: self, id: 0 }
    }

    /// The first element child of the document (`<html>`).
    pub fn root_element(&self) -> Option<ElementRef<'_>> {
        self.root().children().find_map(ElementRef::wrap)
    }

    fn at(&self, id: u32) -> Option<NodeRef<'_>> {
        (id != NONE && (id as usize) < self.slots.len()).then_some(NodeRef { tree: self, id })
    }
}

/// A node of a [`Tree`] (the same interface as `ego_tree`'s, as far as the renderer uses it).
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    tree: &'a Tree,
    id: u32,
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<'a> NodeRef<'a> {
    fn slot(&self) -> &'a Slot {
        &self.tree.slots[self.id as usize]
    }

    pub fn value(&self) -> &'a Node {
        &self.slot().node
    }

    pub fn parent(&self) -> Option<Self> {
        self.tree.at(self.slot().parent)
    }

    pub fn first_child(&self) -> Option<Self> {
        self.tree.at(self.slot().first)
    }

    pub fn next_sibling(&self) -> Option<Self> {
        self.tree.at(self.slot().next)
    }

    pub fn prev_sibling(&self) -> Option<Self> {
        self.tree.at(self.slot().prev)
    }

    pub fn children(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.first_child(), |n| n.next_sibling())
    }

    pub fn next_siblings(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.next_sibling(), |n| n.next_sibling())
    }

    pub fn prev_siblings(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.prev_sibling(), |n| n.prev_sibling())
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
#[derive(Clone, Copy, PartialEq)]
pub struct ElementRef<'a>(NodeRef<'a>);

impl<'a> ElementRef<'a> {
    pub fn wrap(n: NodeRef<'a>) -> Option<Self> {
        matches!(n.value(), Node::Element(_)).then_some(ElementRef(n))
    }

    pub fn value(&self) -> &'a Element {
        match self.0.value() {
            Node::Element(e) => e,
            // `wrap` only wraps elements.
            _ => unreachable!("an ElementRef wraps an element"),
        }
    }

    pub fn child_elements(&self) -> impl Iterator<Item = ElementRef<'a>> {
        self.0.children().filter_map(ElementRef::wrap)
    }

    pub fn descendent_elements(&self) -> impl Iterator<Item = ElementRef<'a>> {
        self.0.descendants().filter_map(ElementRef::wrap)
    }
}

impl<'a> std::ops::Deref for ElementRef<'a> {
    type Target = NodeRef<'a>;
    fn deref(&self) -> &NodeRef<'a> {
        &self.0
    }
}

/// The tree builder's sink: the arena behind a `RefCell` (the builder holds `&self`).
struct Sink {
    /// The document (0), then an element never linked (1, [`FALLBACK`]), then the page.
    slots: RefCell<Vec<Slot>>,
}

/// The slot of an element whose name is reported for a handle that is not an element (the
/// builder never asks); it is never linked into the tree.
const FALLBACK: usize = 1;

impl Sink {
    fn push(&self, node: Node) -> u32 {
        let mut s = self.slots.borrow_mut();
        s.push(slot(node));
        (s.len() - 1) as u32
    }

    /// Whether text under `parent` is never read (scripts and styles).
    fn drops_text(s: &[Slot], parent: u32) -> bool {
        matches!(
            s.get(parent as usize).map(|p| &p.node),
            Some(Node::Element(e)) if matches!(e.name.local, local_name!("script") | local_name!("style"))
        )
    }

    fn detach(s: &mut [Slot], id: u32) {
        let Some(n) = s.get(id as usize) else {
            return;
        };
        let (parent, prev, next) = (n.parent, n.prev, n.next);
        if parent == NONE {
            return;
        }
        match s.get_mut(prev as usize) {
            Some(p) => p.next = next,
            None => {
                if let Some(p) = s.get_mut(parent as usize) {
                    p.first = next;
                }
            }
        }
        match s.get_mut(next as usize) {
            Some(nx) => nx.prev = prev,
            None => {
                if let Some(p) = s.get_mut(parent as usize) {
                    p.last = prev;
                }
            }
        }
        let n = &mut s[id as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    /// Links the parentless `id` as the last child of `parent`.
    fn link_last(s: &mut [Slot], parent: u32, id: u32) {
        if parent as usize >= s.len() || id as usize >= s.len() || parent == id {
            return;
        }
        Self::detach(s, id);
        let last = s[parent as usize].last;
        match s.get_mut(last as usize) {
            Some(l) => l.next = id,
            None => s[parent as usize].first = id,
        }
        s[parent as usize].last = id;
        let n = &mut s[id as usize];
        n.parent = parent;
        n.prev = last;
        n.next = NONE;
    }

    /// Links the parentless `id` just before `sibling` (which has a parent).
    fn link_before(s: &mut [Slot], sibling: u32, id: u32) {
        let Some(sib) = s.get(sibling as usize) else {
            return;
        };
        let (parent, prev) = (sib.parent, sib.prev);
        if id as usize >= s.len() || id == sibling {
            return;
        }
        match s.get_mut(prev as usize) {
            Some(p) => p.next = id,
            None => {
                if let Some(p) = s.get_mut(parent as usize) {
                    p.first = id;
                }
            }
        }
        s[sibling as usize].prev = id;
        let n = &mut s[id as usize];
        n.parent = parent;
        n.prev = prev;
        n.next = sibling;
    }

    /// Appends `text` to the text node `id` when it is one.
    fn merge_text(s: &mut [Slot], id: u32, text: &StrTendril) -> bool {
        match s.get_mut(id as usize).map(|n| &mut n.node) {
            Some(Node::Text(t)) => {
                t.push_tendril(text);
                true
            }
            _ => false,
        }
    }
}

impl TreeSink for Sink {
    type Handle = u32;
    type Output = Tree;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Tree {
        Tree {
            slots: self.slots.into_inner(),
        }
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> Ref<'a, QualName> {
        // The builder only asks about elements; anything else reads as the fallback name.
        Ref::map(self.slots.borrow(), |s| {
            match s.get(*target as usize).map(|n| &n.node) {
                Some(Node::Element(e)) => &e.name,
                _ => match &s[FALLBACK].node {
                    Node::Element(e) => &e.name,
                    _ => unreachable!("the fallback slot holds an element"),
                },
            }
        })
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _: ElementFlags) -> u32 {
        let template = name.local == local_name!("template");
        let id = self.push(Node::Element(Element::new(name, attrs)));
        if template {
            // The template's contents, a fragment as `scraper` makes it (its first child).
            let contents = self.push(Node::Other);
            Self::link_last(&mut self.slots.borrow_mut(), id, contents);
        }
        id
    }

    fn create_comment(&self, _text: StrTendril) -> u32 {
        self.push(Node::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> u32 {
        self.push(Node::Other)
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        let mut s = self.slots.borrow_mut();
        match child {
            NodeOrText::AppendNode(id) => Self::link_last(&mut s, *parent, id),
            NodeOrText::AppendText(text) => {
                if Self::drops_text(&s, *parent) {
                    return;
                }
                let last = s.get(*parent as usize).map_or(NONE, |p| p.last);
                if !Self::merge_text(&mut s, last, &text) {
                    s.push(slot(Node::Text(text)));
                    let id = (s.len() - 1) as u32;
                    Self::link_last(&mut s, *parent, id);
                }
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self
            .slots
            .borrow()
            .get(*element as usize)
            .is_some_and(|n| n.parent != NONE);
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let id = self.push(Node::Other);
        Self::link_last(&mut self.slots.borrow_mut(), 0, id);
    }

    fn get_template_contents(&self, target: &u32) -> u32 {
        self.slots.borrow().get(*target as usize).map_or(0, |n| {
            if n.first == NONE {
                0
            } else {
                n.first
            }
        })
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        let mut s = self.slots.borrow_mut();
        if let NodeOrText::AppendNode(id) = new_node {
            Self::detach(&mut s, id);
        }
        let Some(sib) = s.get(*sibling as usize) else {
            return;
        };
        if sib.parent == NONE {
            return;
        }
        let (parent, prev) = (sib.parent, sib.prev);
        match new_node {
            NodeOrText::AppendNode(id) => Self::link_before(&mut s, *sibling, id),
            NodeOrText::AppendText(text) => {
                if Self::drops_text(&s, parent) {
                    return;
                }
                if !Self::merge_text(&mut s, prev, &text) {
                    s.push(slot(Node::Text(text)));
                    let id = (s.len() - 1) as u32;
                    Self::link_before(&mut s, *sibling, id);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        if let Some(Node::Element(e)) = self
            .slots
            .borrow_mut()
            .get_mut(*target as usize)
            .map(|n| &mut n.node)
        {
            e.add_attrs(attrs);
        }
    }

    fn remove_from_parent(&self, target: &u32) {
        Self::detach(&mut self.slots.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        let mut s = self.slots.borrow_mut();
        if *node == *new_parent {
            return;
        }
        while let Some(first) = s
            .get(*node as usize)
            .map(|n| n.first)
            .filter(|&f| f != NONE)
        {
            Self::detach(&mut s, first);
            Self::link_last(&mut s, *new_parent, first);
        }
    }
}
