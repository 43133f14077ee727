//! One BattleScribe XML file → an arena of elements, each with its attributes, its own text and
//! the 1-based line it starts on. Built with `quick-xml` and an explicit stack of open elements
//! (never recursion on the input's depth); a syntax error or a file that ends inside an element
//! keeps what was read and becomes a diagnostic (`B001`).

use crate::diag::{Code, Diagnostic};
use quick_xml::events::Event;
use quick_xml::Reader;
use std::borrow::Cow;

/// Index of an element in its [`Tree`].
pub type NodeId = usize;

/// One element.
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// The local name (`selectionEntry`), namespace prefix dropped (BattleScribe's own names
    /// are not allocated: [`NAMES`]).
    pub tag: Cow<'static, str>,
    pub attrs: Vec<(Cow<'static, str>, String)>,
    /// The element's own text (character data and references), untrimmed.
    pub text: String,
    pub children: Vec<NodeId>,
    pub parent: Option<NodeId>,
    /// 1-based line of the element's start tag.
    pub line: u32,
}

impl Node {
    /// The value of attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The elements of one file; `nodes[0]` is the root element when the file has one.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// The file ends inside an element or has a syntax error: what precedes it was read.
    pub broken: bool,
}

impl Tree {
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

/// Counts lines up to a byte offset, forward only.
struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

impl Lines<'_> {
    fn at(&mut self, pos: usize) -> u32 {
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
];

fn local(name: &[u8]) -> Cow<'static, str> {
    let n = name.rsplit(|&c| c == b':').next().unwrap_or(name);
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

/// Parses `bytes` (the file `file`) into a tree. Never fails: errors are diagnostics.
pub fn parse(bytes: &[u8], file: &str, diags: &mut Vec<Diagnostic>) -> Tree {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = Reader::from_reader(bytes);
    let cfg = reader.config_mut();
    cfg.trim_text(false);
    cfg.check_end_names = true;
    cfg.expand_empty_elements = false;
    let mut lines = Lines {
        bytes,
        pos: 0,
        line: 1,
    };
    let mut tree = Tree::default();
    let mut stack: Vec<NodeId> = Vec::new();
    let mut done_root = false;
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
                if stack.is_empty() && done_root {
                    diags.push(
                        Diagnostic::new(
                            Code::XmlMalformed,
                            "a second root element; the rest of the file is not read",
                        )
                        .at(file, line),
                    );
                    tree.broken = true;
                    break;
                }
                let mut attrs = Vec::new();
                for a in e.attributes().with_checks(false).flatten() {
                    let raw: &[u8] = &a.value;
                    // Most values need neither entity expansion nor whitespace normalization.
                    let v = if raw
                        .iter()
                        .any(|&b| matches!(b, b'&' | b'\n' | b'\r' | b'\t'))
                    {
                        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .map(|v| v.into_owned())
                            .unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned())
                    } else {
                        String::from_utf8_lossy(raw).into_owned()
                    };
                    attrs.push((local(a.key.as_ref()), v));
                }
                let id = tree.nodes.len();
                let parent = stack.last().copied();
                tree.nodes.push(Node {
                    tag: local(e.name().as_ref()),
                    attrs,
                    text: String::new(),
                    children: Vec::new(),
                    parent,
                    line,
                });
                if let Some(p) = parent {
                    tree.nodes[p].children.push(id);
                }
                if empty {
                    if parent.is_none() {
                        done_root = true;
                    }
                } else {
                    stack.push(id);
                }
            }
            Event::End(_) => {
                stack.pop();
                if stack.is_empty() {
                    done_root = true;
                }
            }
            Event::Text(t) => {
                if let Some(&top) = stack.last() {
                    // Indentation between elements: never part of a value (a container's text
                    // stays empty; a space between two references in a value is kept).
                    if tree.nodes[top].text.is_empty() && t.iter().all(|b| b.is_ascii_whitespace())
                    {
                        continue;
                    }
                    let s = t
                        .xml10_content()
                        .map(|c| c.into_owned())
                        .unwrap_or_else(|_| String::from_utf8_lossy(&t).into_owned());
                    tree.nodes[top].text.push_str(&s);
                }
            }
            Event::CData(t) => {
                if let Some(&top) = stack.last() {
                    tree.nodes[top]
                        .text
                        .push_str(&String::from_utf8_lossy(&t.into_inner()));
                }
            }
            Event::GeneralRef(r) => {
                if let Some(&top) = stack.last() {
                    let name = String::from_utf8_lossy(&r.into_inner()).into_owned();
                    tree.nodes[top].text.push_str(&reference(&name));
                }
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() && !tree.broken {
        let line = lines.at(bytes.len());
        let open = &tree.nodes[stack[stack.len() - 1]];
        diags.push(
            Diagnostic::new(
                Code::XmlMalformed,
                format!(
                    "file ends inside <{}> (line {}): truncated; what precedes is read",
                    open.tag, open.line
                ),
            )
            .at(file, line),
        );
        tree.broken = true;
    }
    tree
}
