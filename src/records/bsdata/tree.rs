//! One BattleScribe XML file → an arena of elements, each with its attributes, its own text and
//! the 1-based line it starts on. Built with `quick-xml` and an explicit stack of open elements
//! (never recursion on the input's depth); a syntax error or a file that ends inside an element
//! keeps what was read and becomes a diagnostic (`B001`).

use crate::diag::{Code, Diagnostic};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::borrow::Cow;

/// Index of an element in its [`Tree`].
pub type NodeId = usize;

/// One element. Its parts are stored exactly sized (boxed slices, one packed buffer for all
/// attributes, no per-value allocation): the tree of a real catalogue is a small multiple of
/// the file's size (a 60 MB catalogue was 2.5 GB of memory when each value was a `String`).
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// The local name (`selectionEntry`), namespace prefix dropped (BattleScribe's own names
    /// are not allocated: [`NAMES`]).
    pub tag: Cow<'static, str>,
    /// The attributes, packed ([`Node::attr`] reads them): per attribute its name (a byte: the
    /// index in [`NAMES`], or [`OTHER_NAME`] then the name's length as 2 bytes and the name),
    /// then the value's length as 4 bytes and the value (UTF-8), little-endian.
    attrs: Box<[u8]>,
    /// The element's own text (character data and references), untrimmed.
    pub text: Box<str>,
    pub children: Box<[NodeId]>,
    pub parent: Option<NodeId>,
    /// 1-based line of the element's start tag.
    pub line: u32,
}

/// The name byte of an attribute whose name is not in [`NAMES`] (the name follows).
const OTHER_NAME: u8 = u8::MAX;

impl Node {
    /// The value of attribute `name` (the first, when the element repeats it).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs().find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// The attributes in document order: (name, value).
    pub fn attrs(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut rest: &[u8] = &self.attrs;
        std::iter::from_fn(move || {
            let (&k, after) = rest.split_first()?;
            let (name, after) = if k == OTHER_NAME {
                let (len, after) = split_len::<2>(after)?;
                let (name, after) = split_at_checked(after, len)?;
                (std::str::from_utf8(name).ok()?, after)
            } else {
                (*NAMES.get(usize::from(k))?, after)
            };
            let (len, after) = split_len::<4>(after)?;
            let (value, after) = split_at_checked(after, len)?;
            rest = after;
            Some((name, std::str::from_utf8(value).ok()?))
        })
    }
}

/// A little-endian length of `N` bytes and what follows it.
fn split_len<const N: usize>(b: &[u8]) -> Option<(usize, &[u8])> {
    let (len, rest) = split_at_checked(b, N)?;
    let len = len
        .iter()
        .rev()
        .fold(0usize, |a, &x| (a << 8) | usize::from(x));
    Some((len, rest))
}

fn split_at_checked(b: &[u8], at: usize) -> Option<(&[u8], &[u8])> {
    (at <= b.len()).then(|| b.split_at(at))
}

/// Appends one attribute to a packed buffer ([`Node::attrs`]); a name or value too long for
/// its length field is cut (no BattleScribe name nears 64 KB; no value 4 GB).
pub(super) fn pack_attr(buf: &mut Vec<u8>, name: &[u8], value: &str) {
    match NAMES.iter().position(|k| k.as_bytes() == name) {
        Some(i) if i < usize::from(OTHER_NAME) => buf.push(i as u8),
        _ => {
            let name = String::from_utf8_lossy(name);
            let mut end = name.len().min(usize::from(u16::MAX));
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            buf.push(OTHER_NAME);
            buf.extend_from_slice(&(end as u16).to_le_bytes());
            buf.extend_from_slice(&name.as_bytes()[..end]);
        }
    }
    let mut end = value.len().min(u32::MAX as usize);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    buf.extend_from_slice(&(end as u32).to_le_bytes());
    buf.extend_from_slice(&value.as_bytes()[..end]);
}

/// The elements of one file; `nodes[0]` is the root element when the file has one.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// The file ends inside an element or has a syntax error: what precedes it was read.
    pub broken: bool,
}

impl Tree {
    /// A new element, child of `parent` (its id appended to `siblings`, the parent's children
    /// being read): its attributes, children and text are set when it closes ([`Tree::close`]).
    pub(super) fn push(
        &mut self,
        tag: Cow<'static, str>,
        parent: Option<NodeId>,
        siblings: Option<&mut Vec<NodeId>>,
        line: u32,
    ) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node {
            tag,
            parent,
            line,
            ..Node::default()
        });
        if let Some(s) = siblings {
            s.push(id);
        }
        id
    }

    /// Sets what was read of element `id`: attributes (packed), children, text.
    pub(super) fn close(&mut self, id: NodeId, attrs: &[u8], children: Vec<NodeId>, text: String) {
        if let Some(n) = self.nodes.get_mut(id) {
            n.attrs = attrs.into();
            n.children = children.into_boxed_slice();
            n.text = text.into_boxed_str();
        }
    }

    pub fn root(&self) -> Option<NodeId> {
        (!self.nodes.is_empty()).then_some(0)
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// Children of `id` with tag `tag`.
    pub fn children<'a>(&'a self, id: NodeId, tag: &'a str) -> impl Iterator<Item = NodeId> + 'a {
        self.nodes[id]
            .children
            .iter()
            .copied()
            .filter(move |&c| self.nodes[c].tag == tag)
    }

    /// The first child of `id` with tag `tag`.
    pub fn child(&self, id: NodeId, tag: &str) -> Option<NodeId> {
        self.children(id, tag).next()
    }

    /// Grandchildren of `id` through the container `list` (`profiles` → `profile`).
    pub fn items<'a>(
        &'a self,
        id: NodeId,
        list: &'a str,
        tag: &'a str,
    ) -> impl Iterator<Item = NodeId> + 'a {
        self.children(id, list)
            .flat_map(move |l| self.children(l, tag).collect::<Vec<_>>())
    }
}

/// Counts lines up to a byte offset, forward only (also the GW app's reader's line walk).
pub(crate) struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Lines {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    pub(crate) fn at(&mut self, pos: usize) -> u32 {
        let pos = pos.min(self.bytes.len());
        if pos > self.pos {
            self.line += self.bytes[self.pos..pos]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u32;
            self.pos = pos;
        }
        self.line
    }
}

/// Element and attribute names of the BattleScribe schemas, shared instead of allocated.
const NAMES: &[&str] = &[
    "id",
    "name",
    "hidden",
    "type",
    "typeId",
    "typeName",
    "targetId",
    "value",
    "field",
    "scope",
    "childId",
    "shared",
    "import",
    "primary",
    "includeChildSelections",
    "includeChildForces",
    "collective",
    "sortIndex",
    "publicationId",
    "page",
    "library",
    "repeats",
    "roundUp",
    "defaultSelectionEntryId",
    "percentValue",
    "exclusive",
    "characteristic",
    "characteristics",
    "condition",
    "conditions",
    "constraint",
    "constraints",
    "modifier",
    "modifiers",
    "cost",
    "costs",
    "entryLink",
    "entryLinks",
    "categoryLink",
    "categoryLinks",
    "profile",
    "profiles",
    "selectionEntry",
    "selectionEntries",
    "selectionEntryGroup",
    "selectionEntryGroups",
    "infoLink",
    "infoLinks",
    "conditionGroup",
    "conditionGroups",
    "modifierGroup",
    "modifierGroups",
    "repeat",
    "comment",
    "rule",
    "rules",
    "description",
    "categoryEntry",
    "categoryEntries",
    "infoGroup",
    "infoGroups",
    "sharedSelectionEntries",
    "sharedSelectionEntryGroups",
    "sharedRules",
    "sharedProfiles",
    "catalogueLink",
    "catalogueLinks",
    "catalogue",
    "gameSystem",
    "gameSystemId",
    "alias",
    "association",
    "associations",
    "costType",
    "costTypes",
    "profileType",
    "profileTypes",
    "characteristicType",
    "characteristicTypes",
    "publication",
    "publications",
    "forceEntry",
    "forceEntries",
    // Attributes and elements that BattleScribe JSON (New Recruit's serialization) carries.
    "localConditionGroup",
    "localConditionGroups",
    "affects",
    "join",
    "childName",
    "arg",
    "position",
    "flatten",
    "automatic",
    "importRootEntries",
    "readme",
    "sharedInfoGroups",
    "formatRule",
    "formatRules",
    "shortName",
];

fn local(name: &[u8]) -> Cow<'static, str> {
    name_of(name.rsplit(|&c| c == b':').next().unwrap_or(name))
}

/// An element's name, one of [`NAMES`] shared instead of allocated.
pub(super) fn name_of(n: &[u8]) -> Cow<'static, str> {
    match NAMES.iter().find(|k| k.as_bytes() == n) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(String::from_utf8_lossy(n).into_owned()),
    }
}

/// Resolves a reference's name (`quot`, `#34`, `#x22`); an unknown entity is kept as written.
fn reference(name: &str) -> String {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse().ok(),
        };
        if let Some(c) = code.and_then(char::from_u32) {
            return c.to_string();
        }
    } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(name) {
        return s.to_string();
    }
    format!("&{name};")
}

/// An element being read: its children and its text so far.
struct Open {
    id: NodeId,
    children: Vec<NodeId>,
    text: String,
}

impl Open {
    /// Moves what was read into the element's node.
    fn close(self, tree: &mut Tree) {
        if let Some(n) = tree.nodes.get_mut(self.id) {
            n.children = self.children.into_boxed_slice();
            n.text = self.text.into_boxed_str();
        }
    }
}

/// Parses `bytes` (the file `file`) into a tree. Never fails: errors are diagnostics.
/// A file's elements are read up to one per this many bytes (plus [`ELEMENTS_FREE`]): a node
/// costs about 100 bytes, so the tree stays within a small multiple of the file (real
/// catalogues have one element per ~200 bytes; 5 million `<rule id=""/>` in 65 MB have one per
/// 13 and would take 11 times the file).
pub const BYTES_PER_ELEMENT: usize = 24;
/// Elements any file may have whatever its size.
pub const ELEMENTS_FREE: usize = 10_000;

pub(super) fn element_budget(len: usize) -> usize {
    len / BYTES_PER_ELEMENT + ELEMENTS_FREE
}

/// Whether reading stops before the element that starts at `line`: a second root element
/// (`B001`) or one element past the file's budget (`S020`). Either way the rest of the file is
/// not read and the tree is marked broken.
pub(super) fn stop_before_element(
    tree: &mut Tree,
    second_root: bool,
    max_nodes: usize,
    (file, line): (&str, u32),
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let d = if second_root {
        Diagnostic::new(
            Code::XmlMalformed,
            "a second root element; the rest of the file is not read",
        )
    } else if tree.nodes.len() >= max_nodes {
        Diagnostic::new(
            Code::BudgetExceeded,
            format!(
                "more than {max_nodes} elements (one per {BYTES_PER_ELEMENT} bytes of the \
                 file); the rest of the file is not read"
            ),
        )
    } else {
        return false;
    };
    diags.push(d.at(file, line));
    tree.broken = true;
    true
}

pub fn parse(bytes: &[u8], file: &str, diags: &mut Vec<Diagnostic>) -> Tree {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = Reader::from_reader(bytes);
    let cfg = reader.config_mut();
    cfg.trim_text(false);
    cfg.check_end_names = true;
    cfg.expand_empty_elements = false;
    let mut lines = Lines::new(bytes);
    let mut tree = Tree::default();
    // The open elements, innermost last: each with its children and text so far (moved into
    // the node, exactly sized, when it closes).
    let mut stack: Vec<Open> = Vec::new();
    let mut attrs: Vec<u8> = Vec::new();
    let mut done_root = false;
    let max_nodes = element_budget(bytes.len());
    loop {
        let start = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let line = lines.at(reader.error_position() as usize);
                diags.push(
                    Diagnostic::new(
                        Code::XmlMalformed,
                        format!("XML syntax error: {e}; the rest of the file is not read"),
                    )
                    .at(file, line),
                );
                tree.broken = true;
                break;
            }
        };
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                // Skip leading whitespace inside the event's span (none for tags).
                let line = lines.at(start);
                let second_root = stack.is_empty() && done_root;
                if stop_before_element(&mut tree, second_root, max_nodes, (file, line), diags) {
                    break;
                }
                pack_attrs(&mut attrs, e);
                let parent = open_element(
                    &mut tree,
                    &mut stack,
                    local(e.name().as_ref()),
                    &attrs,
                    line,
                    empty,
                );
                if empty && parent.is_none() {
                    done_root = true;
                }
            }
            Event::End(_) => {
                if let Some(o) = stack.pop() {
                    o.close(&mut tree);
                }
                done_root |= stack.is_empty();
            }
            Event::Eof => break,
            other => {
                if let Some(top) = stack.last_mut() {
                    element_text(top, other);
                }
            }
        }
    }
    let end = lines.at(bytes.len());
    close_left_open(&mut tree, stack, end, file, diags);
    tree
}

/// The elements left open at the end (a syntax error, a truncated file) keep what they hold;
/// a file that ends inside an element without a syntax error is truncated (`end`: its last
/// line).
fn close_left_open(
    tree: &mut Tree,
    mut stack: Vec<Open>,
    end: u32,
    file: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let innermost = stack.last().map(|o| o.id);
    while let Some(o) = stack.pop() {
        o.close(tree);
    }
    if let (Some(top), false) = (innermost, tree.broken) {
        let open = &tree.nodes[top];
        diags.push(
            Diagnostic::new(
                Code::XmlMalformed,
                format!(
                    "file ends inside <{}> (line {}): truncated; what precedes is read",
                    open.tag, open.line
                ),
            )
            .at(file, end),
        );
        tree.broken = true;
    }
}

/// The attributes of a start tag into `out` (packed, local names), values with entities
/// expanded and whitespace normalized where they need it.
fn pack_attrs(out: &mut Vec<u8>, e: &BytesStart<'_>) {
    out.clear();
    for a in e.attributes().with_checks(false).flatten() {
        let raw: &[u8] = &a.value;
        // Most values need neither entity expansion nor whitespace normalization.
        let v: Cow<str> = if raw
            .iter()
            .any(|&b| matches!(b, b'&' | b'\n' | b'\r' | b'\t'))
        {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| Cow::Owned(v.into_owned()))
                .unwrap_or_else(|_| String::from_utf8_lossy(raw))
        } else {
            String::from_utf8_lossy(raw)
        };
        let key = a.key.as_ref();
        pack_attr(out, key.rsplit(|&c| c == b':').next().unwrap_or(key), &v);
    }
}

/// A new element (a child of the innermost open one); it stays open unless `empty`. Returns
/// its parent.
fn open_element(
    tree: &mut Tree,
    stack: &mut Vec<Open>,
    tag: Cow<'static, str>,
    attrs: &[u8],
    line: u32,
    empty: bool,
) -> Option<NodeId> {
    let id = tree.nodes.len();
    let parent = stack.last().map(|o| o.id);
    tree.nodes.push(Node {
        tag,
        attrs: attrs.into(),
        text: Box::default(),
        children: Box::default(),
        parent,
        line,
    });
    if let Some(p) = stack.last_mut() {
        p.children.push(id);
    }
    if !empty {
        stack.push(Open {
            id,
            children: Vec::new(),
            text: String::new(),
        });
    }
    parent
}

/// Text, CDATA or an entity reference inside the open element `top`; other events add none.
fn element_text(top: &mut Open, event: Event<'_>) {
    match event {
        Event::Text(t) => {
            // Indentation between elements: never part of a value (a container's text stays
            // empty; a space between two references in a value is kept).
            if top.text.is_empty() && t.iter().all(|b| b.is_ascii_whitespace()) {
                return;
            }
            let s = t
                .xml10_content()
                .unwrap_or_else(|_| String::from_utf8_lossy(&t).into_owned().into());
            top.text.push_str(&s);
        }
        Event::CData(t) => top.text.push_str(&String::from_utf8_lossy(&t.into_inner())),
        Event::GeneralRef(r) => {
            let name = String::from_utf8_lossy(&r.into_inner()).into_owned();
            top.text.push_str(&reference(&name));
        }
        _ => {}
    }
}
