//! Fragments: HTML inside a field of a structured source (the CSV export's descriptions, the
//! GW app's texts), parsed whole with `scraper` (fields are small) after the page's limits.
//! Owns the fragment renderings; must not read pages (that is the page renderer's job).

use super::{clean, is_skipped, limit_depth, neutralize, MAX_DEPTH};
use crate::ir::{Block, BlockKind};
use scraper::{Html, Node};
use std::borrow::Cow;

/// Renders an HTML fragment (a field of a structured source, such as a description cell of
/// Wahapedia's CSV export) into blocks: one `Paragraph` per line (`<br>`, `<p>`, `<div>` and
/// list boundaries end a line; empty lines are dropped), one `ListItem` per `<li>` with its
/// list depth in `level`. Entities are decoded, whitespace collapsed, scripts and styles left
/// out; every block has line 0 (the caller knows the row). Walks the tree with an explicit
/// stack, so nesting depth cannot exhaust the stack. Text without `<` or `&` is not parsed.
///
/// A fragment goes through the page's limits ([`limit_depth`]: [`MAX_DEPTH`] nested elements,
/// [`MAX_FORMATTING`](super::MAX_FORMATTING) formatting elements open): a tag past them is
/// read as text, so a field of nested markup costs the parser linear time and memory (a 210 KB
/// field of `<b><p>` re-opened every formatting element in every paragraph, 6 GB; a million
/// nested `<div>`s walked the stack of open elements at every tag).
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
                if is_skipped(name) {
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
            Node::Element(e) if is_skipped(e.name()) => continue,
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
