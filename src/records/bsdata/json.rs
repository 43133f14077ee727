//! One BattleScribe JSON file (New Recruit's serialization of the `.cat`/`.gst` data model) →
//! the same [`Tree`] the XML reader builds, element for element, so that one reader of
//! entries, links, profiles, costs and modifiers (`unit.rs`, `army.rs`) serves both formats.
//!
//! The mapping: the root key (`catalogue`, `gameSystem`) is the root element; in an object, a
//! scalar is an attribute (numbers as their literal text, booleans `true`/`false`, `null`
//! none), `$text` is the element's text, and `description`, `comment`, `readme` are child
//! elements holding their text (as in the XML); an array of objects is a container element
//! whose items are its children, their tag from [`CONTAINERS`] (a table, not a plural rule:
//! `sharedSelectionEntries` → `selectionEntry`); an array of strings is one element per string
//! with the key's name (`alias`), no container. Each element's line is its object's `{` (a
//! container's, its `[`).
//!
//! Events come from `json-event-parser` (a pull parser on an explicit state stack that keeps
//! the byte offset: lines come from it, counted forward); this module keeps its own stack of
//! open objects and arrays, never recursion on the input's depth. Budgets as the XML
//! reader's: one element per [`tree::BYTES_PER_ELEMENT`] bytes (plus
//! [`tree::ELEMENTS_FREE`]), then `S020`; nesting at most [`MAX_DEPTH`]. A syntax error or a
//! file that ends inside a value keeps what precedes, with `B008`.
//!
//! It must not interpret anything: which element means what is `unit.rs`'s and `army.rs`'s.

use super::tree::{self, NodeId, Tree};
use crate::diag::{Code, Diagnostic};
use json_event_parser::{JsonEvent, LowLevelJsonParser};
use std::borrow::Cow;
use std::collections::HashSet;

/// Array keys → the tag of their items: every BattleScribe container of the catalogue and game
/// system schemas.
pub const CONTAINERS: &[(&str, &str)] = &[
    ("associations", "association"),
    ("catalogueLinks", "catalogueLink"),
    ("categoryEntries", "categoryEntry"),
    ("categoryLinks", "categoryLink"),
    ("characteristicTypes", "characteristicType"),
    ("characteristics", "characteristic"),
    ("conditionGroups", "conditionGroup"),
    ("conditions", "condition"),
    ("constraints", "constraint"),
    ("costTypes", "costType"),
    ("costs", "cost"),
    ("entryLinks", "entryLink"),
    ("forceEntries", "forceEntry"),
    ("formatRules", "formatRule"),
    ("infoGroups", "infoGroup"),
    ("infoLinks", "infoLink"),
    ("localConditionGroups", "localConditionGroup"),
    ("modifierGroups", "modifierGroup"),
    ("modifiers", "modifier"),
    ("profileTypes", "profileType"),
    ("profiles", "profile"),
    ("publications", "publication"),
    ("repeats", "repeat"),
    ("rules", "rule"),
    ("selectionEntries", "selectionEntry"),
    ("selectionEntryGroups", "selectionEntryGroup"),
    ("sharedInfoGroups", "infoGroup"),
    ("sharedProfiles", "profile"),
    ("sharedRules", "rule"),
    ("sharedSelectionEntries", "selectionEntry"),
    ("sharedSelectionEntryGroups", "selectionEntryGroup"),
];

/// Keys whose string is a child element's text in the XML, not an attribute.
const TEXT_ELEMENTS: &[&str] = &["description", "comment", "readme"];

/// Deepest nesting of objects and arrays read (real files: about 30).
pub const MAX_DEPTH: usize = 4096;

/// An open object (an element) or array (a container being filled).
enum Frame {
    /// The document's outer object (`{"catalogue": …}`).
    Document,
    /// An element: its packed attributes, children and text so far.
    Element {
        id: NodeId,
        attrs: Vec<u8>,
        children: Vec<NodeId>,
        text: String,
    },
    /// An array under `key` of the element below it on the stack; its container element is
    /// made at the first object item (an array of strings has none).
    List {
        key: Cow<'static, str>,
        item: Cow<'static, str>,
        line: u32,
        container: Option<(NodeId, Vec<NodeId>)>,
    },
}

/// The reading state: the tree, the stack of open values, where the file's lines are.
struct Reader<'a> {
    tree: Tree,
    stack: Vec<Frame>,
    lines: tree::Lines<'a>,
    file: &'a str,
    max_nodes: usize,
    unknown_lists: HashSet<String>,
    /// Nesting levels of a value being skipped (an array in an array).
    skip: usize,
}

/// Parses `bytes` (the file `file`) into a tree. Never fails: errors are diagnostics.
pub fn parse(bytes: &[u8], file: &str, diags: &mut Vec<Diagnostic>) -> Tree {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut r = Reader {
        tree: Tree::default(),
        stack: Vec::new(),
        lines: tree::Lines::new(bytes),
        file,
        max_nodes: tree::element_budget(bytes.len()),
        unknown_lists: HashSet::new(),
        skip: 0,
    };
    let mut parser = LowLevelJsonParser::new().with_max_stack_size(MAX_DEPTH);
    let mut offset = 0usize;
    let mut key: Option<Cow<str>> = None;
    loop {
        let res = parser.parse_next(&bytes[offset.min(bytes.len())..], true);
        offset += res.consumed_bytes;
        let Some(event) = res.event else {
            if res.consumed_bytes == 0 {
                break;
            }
            continue;
        };
        let event = match event {
            Ok(e) => e,
            Err(e) => {
                r.syntax_error(&e, bytes, offset, diags);
                break;
            }
        };
        let line = r.lines.at(offset);
        if matches!(event, JsonEvent::Eof) {
            break;
        }
        if r.skip > 0 {
            match event {
                JsonEvent::StartArray | JsonEvent::StartObject => r.skip += 1,
                JsonEvent::EndArray | JsonEvent::EndObject => r.skip -= 1,
                _ => {}
            }
            continue;
        }
        let go_on = match event {
            JsonEvent::ObjectKey(k) => {
                key = Some(k);
                true
            }
            JsonEvent::StartObject => r.start_object(key.take(), line, diags),
            JsonEvent::StartArray => r.start_array(key.take(), line, diags),
            JsonEvent::EndObject | JsonEvent::EndArray => {
                r.close_top();
                true
            }
            JsonEvent::String(v) => r.scalar(key.take(), Some(v), line, diags),
            JsonEvent::Number(v) => r.scalar(key.take(), Some(v), line, diags),
            JsonEvent::Boolean(b) => {
                let v = if b { "true" } else { "false" };
                r.scalar(key.take(), Some(Cow::Borrowed(v)), line, diags)
            }
            JsonEvent::Null => r.scalar(key.take(), None, line, diags),
            JsonEvent::Eof => false,
        };
        if !go_on {
            break;
        }
    }
    while !r.stack.is_empty() {
        r.close_top();
    }
    r.tree
}

impl Reader<'_> {
    /// `B008` for a syntax error (a file that ends inside a value: truncated); the rest of the
    /// file is not read.
    fn syntax_error(
        &mut self,
        e: &json_event_parser::JsonSyntaxError,
        bytes: &[u8],
        offset: usize,
        diags: &mut Vec<Diagnostic>,
    ) {
        // The parser says so (an unterminated string or value), or only blanks are left.
        let at_end = e.message().starts_with("Unexpected end of file")
            || bytes
                .get(offset..)
                .map_or(true, |rest| rest.iter().all(u8::is_ascii_whitespace));
        let innermost = self.stack.iter().rev().find_map(|f| match f {
            Frame::Element { id, .. } => Some(*id),
            _ => None,
        });
        let msg = match innermost {
            Some(id) if at_end => {
                let n = self.tree.node(id);
                format!(
                    "file ends inside <{}> (line {}): truncated; what precedes is read",
                    n.tag, n.line
                )
            }
            _ => format!(
                "JSON syntax error: {}; the rest of the file is not read",
                e.message()
            ),
        };
        let line = if at_end {
            self.lines.at(bytes.len())
        } else {
            u32::try_from(e.location().start.line + 1).unwrap_or(u32::MAX)
        };
        diags.push(Diagnostic::new(Code::JsonMalformed, msg).at(self.file, line));
        self.tree.broken = true;
    }

    /// Whether one more element fits the budget; `S020` once when it does not.
    fn room(&mut self, line: u32, diags: &mut Vec<Diagnostic>) -> bool {
        let at = (self.file, line);
        !tree::stop_before_element(&mut self.tree, false, self.max_nodes, at, diags)
    }

    /// A new element `tag`, child of the innermost open element or container.
    fn element(&mut self, tag: Cow<'static, str>, line: u32) -> NodeId {
        let (parent, siblings) = match self.stack.last_mut() {
            Some(Frame::Element { id, children, .. }) => (Some(*id), Some(children)),
            Some(Frame::List {
                container: Some((id, children)),
                ..
            }) => (Some(*id), Some(children)),
            _ => (None, None),
        };
        self.tree.push(tag, parent, siblings, line)
    }

    fn start_object(
        &mut self,
        key: Option<Cow<str>>,
        line: u32,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let tag = match self.stack.last() {
            None => {
                self.stack.push(Frame::Document);
                return true;
            }
            Some(Frame::Document) => {
                if !self.tree.nodes.is_empty() {
                    diags.push(
                        Diagnostic::new(
                            Code::JsonMalformed,
                            "a second root key; the rest of the file is not read",
                        )
                        .at(self.file, line),
                    );
                    self.tree.broken = true;
                    return false;
                }
                tree::name_of(key.as_deref().unwrap_or("").as_bytes())
            }
            Some(Frame::Element { .. }) => tree::name_of(key.as_deref().unwrap_or("").as_bytes()),
            Some(Frame::List { item, .. }) => item.clone(),
        };
        if !self.room(line, diags) {
            return false;
        }
        self.open_container(diags);
        let id = self.element(tag, line);
        self.stack.push(Frame::Element {
            id,
            attrs: Vec::new(),
            children: Vec::new(),
            text: String::new(),
        });
        true
    }

    /// The container of the innermost list, made at its first object item.
    /// An array of objects whose key is not in [`CONTAINERS`] gets `B013` (once per key).
    fn open_container(&mut self, diags: &mut Vec<Diagnostic>) {
        let Some(Frame::List {
            key,
            item,
            line,
            container: None,
        }) = self.stack.last()
        else {
            return;
        };
        let (key, line) = (key.clone(), *line);
        if !CONTAINERS.iter().any(|(k, _)| *k == key) && self.unknown_lists.insert(key.to_string())
        {
            diags.push(
                Diagnostic::new(
                    Code::JsonListUnknown,
                    format!(
                        "list '{key}' is not a known BattleScribe container; its items are read \
                         as <{item}>"
                    ),
                )
                .at(self.file, line),
            );
        }
        let parent = self
            .stack
            .len()
            .checked_sub(2)
            .and_then(|i| match &mut self.stack[i] {
                Frame::Element { id, children, .. } => Some((*id, children)),
                _ => None,
            });
        let id = match parent {
            Some((p, children)) => self.tree.push(key, Some(p), Some(children), line),
            None => self.tree.push(key, None, None, line),
        };
        if let Some(Frame::List { container, .. }) = self.stack.last_mut() {
            *container = Some((id, Vec::new()));
        }
    }

    fn start_array(
        &mut self,
        key: Option<Cow<str>>,
        line: u32,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(Frame::Element { .. }) = self.stack.last() else {
            diags.push(
                Diagnostic::new(
                    Code::JsonMalformed,
                    "an array where no BattleScribe element can be (inside an array, or at the \
                     top); skipped",
                )
                .at(self.file, line),
            );
            self.skip = 1;
            return true;
        };
        let key = key.unwrap_or_default();
        let item = match CONTAINERS.iter().find(|(k, _)| *k == key) {
            Some((_, item)) => Cow::Borrowed(*item),
            None => tree::name_of(singular(&key).as_bytes()),
        };
        self.stack.push(Frame::List {
            key: tree::name_of(key.as_bytes()),
            item,
            line,
            container: None,
        });
        true
    }

    /// A string, number, boolean or null (`None`) under `key`.
    fn scalar(
        &mut self,
        key: Option<Cow<str>>,
        value: Option<Cow<str>>,
        line: u32,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(value) = value else { return true };
        let key = key.unwrap_or_default();
        // An array of strings: one element per string, named by the key, no container.
        let text_item = match self.stack.last() {
            Some(Frame::List {
                key,
                container: None,
                ..
            }) => Some(key.clone()),
            Some(Frame::Element { .. }) if TEXT_ELEMENTS.contains(&key.as_ref()) => {
                Some(tree::name_of(key.as_bytes()))
            }
            Some(Frame::Element { .. }) => None,
            // A scalar among objects, or a document that is not an object of elements.
            _ => return true,
        };
        if let Some(tag) = text_item {
            if !self.room(line, diags) {
                return false;
            }
            let i = match self.stack.last() {
                Some(Frame::List { .. }) => self.stack.len().checked_sub(2),
                _ => self.stack.len().checked_sub(1),
            };
            let parent = i.and_then(|i| match &mut self.stack[i] {
                Frame::Element { id, children, .. } => Some((*id, children)),
                _ => None,
            });
            if let Some((p, children)) = parent {
                let id = self.tree.push(tag, Some(p), Some(children), line);
                self.tree.close(id, &[], Vec::new(), value.into_owned());
            }
            return true;
        }
        if let Some(Frame::Element { attrs, text, .. }) = self.stack.last_mut() {
            if key == "$text" {
                text.push_str(&value);
            } else {
                tree::pack_attr(attrs, key.as_bytes(), &value);
            }
        }
        true
    }

    /// Closes the innermost open value.
    fn close_top(&mut self) {
        match self.stack.pop() {
            Some(Frame::Element {
                id,
                attrs,
                children,
                text,
            }) => self.tree.close(id, &attrs, children, text),
            Some(Frame::List {
                container: Some((id, children)),
                ..
            }) => self.tree.close(id, &[], children, String::new()),
            _ => {}
        }
    }
}

/// `widgets` → `widget`, `entries` → `entry`: the item name of an unknown list.
fn singular(key: &str) -> String {
    if let Some(stem) = key.strip_suffix("ies") {
        format!("{stem}y")
    } else {
        key.strip_suffix('s').unwrap_or(key).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(json: &str) -> (Tree, Vec<Diagnostic>) {
        let mut d = Vec::new();
        (parse(json.as_bytes(), "x.json", &mut d), d)
    }

    #[test]
    fn keys_become_attributes_elements_and_text() {
        let (t, d) = tree(
            r#"{
  "catalogue": {
    "sharedRules": [
      {
        "name": "Synapse",
        "hidden": false,
        "alias": ["SYN", "S"],
        "description": "Text"
      }
    ],
    "profiles": [
      {"characteristics": [{"name": "M", "$text": "6\""}]}
    ],
    "id": "c1",
    "revision": 12
  }
}"#,
        );
        assert!(d.is_empty(), "{d:?}");
        let root = t.root().expect("root");
        assert_eq!(t.node(root).tag, "catalogue");
        assert_eq!(t.node(root).attr("id"), Some("c1"));
        assert_eq!(t.node(root).attr("revision"), Some("12"));
        assert_eq!(t.node(root).line, 2);
        let rule = t.items(root, "sharedRules", "rule").next().expect("rule");
        assert_eq!(t.node(rule).line, 4);
        assert_eq!(t.node(rule).attr("hidden"), Some("false"));
        let alias: Vec<&str> = t
            .children(rule, "alias")
            .map(|a| &*t.node(a).text)
            .collect();
        assert_eq!(alias, ["SYN", "S"]);
        let desc = t.child(rule, "description").expect("description");
        assert_eq!(&*t.node(desc).text, "Text");
        let p = t
            .items(root, "profiles", "profile")
            .next()
            .expect("profile");
        let c = t
            .items(p, "characteristics", "characteristic")
            .next()
            .expect("characteristic");
        assert_eq!(&*t.node(c).text, "6\"");
        assert_eq!(
            t.node(c).parent.map(|x| &*t.node(x).tag),
            Some("characteristics")
        );
    }

    #[test]
    fn a_truncated_file_keeps_what_precedes() {
        let (t, d) = tree("{\"catalogue\": {\"id\": \"c\", \"rules\": [{\"name\": \"A\"}, {\"na");
        assert!(t.broken);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, "B008");
        assert!(d[0].message.contains("truncated"), "{}", d[0].message);
        let root = t.root().expect("root");
        assert_eq!(t.node(root).attr("id"), Some("c"));
        assert_eq!(t.items(root, "rules", "rule").count(), 2);
        let (t, d) = tree("{\"catalogue\": {\"id\": \"c\",, }}");
        assert!(t.broken && d[0].message.contains("syntax error"), "{d:?}");
    }

    #[test]
    fn deep_nesting_and_arrays_in_arrays_never_recurse() {
        let deep = format!("{{\"catalogue\": {}", "[".repeat(200_000));
        let (t, d) = tree(&deep);
        assert!(t.broken);
        assert!(d.iter().all(|d| d.code == "B008"), "{d:?}");
        let deep = format!(
            "{{\"catalogue\": {}{}}}",
            "{\"a\": ".repeat(100_000),
            "}".repeat(100_000)
        );
        let (t, d) = tree(&deep);
        assert!(t.nodes.len() <= tree::element_budget(deep.len()));
        assert!(!d.is_empty());
        let (t, _) = tree("{\"catalogue\": {\"rules\": [[{\"name\": \"x\"}], {\"name\": \"y\"}]}}");
        let root = t.root().expect("root");
        let names: Vec<_> = t
            .items(root, "rules", "rule")
            .filter_map(|r| t.node(r).attr("name"))
            .collect();
        assert_eq!(names, ["y"]);
    }

    #[test]
    fn an_unknown_list_is_read_and_named_once() {
        let (t, d) =
            tree(r#"{"catalogue": {"widgets": [{"id": "a"}, {"id": "b"}], "gadgetries": [{}]}}"#);
        let root = t.root().expect("root");
        assert_eq!(t.items(root, "widgets", "widget").count(), 2);
        assert_eq!(t.items(root, "gadgetries", "gadgetry").count(), 1);
        let codes: Vec<_> = d.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["B013", "B013"]);
    }
}
