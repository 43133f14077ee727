//! Decoder for plain-text dumps: one block per non-empty line.
//!
//! A line with `|` separators becomes a `TableRow` (cells trimmed, trailing empty cells
//! dropped); a line starting with a bullet (`•`, `-`, `*` followed by a space) becomes a
//! `ListItem`; every other line is a `Paragraph`. Lines are never joined or split here: the
//! dumps glue paragraphs together, and separating them needs the game's vocabulary, which is the
//! extractors' business.

use crate::diag::Diagnostic;
use crate::ir::{Block, BlockKind, Document};
use crate::source::{Format, SourceFile};

pub fn decode(src: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Document {
    let text = super::text_of(src, diagnostics);
    Document {
        file: src.path.clone(),
        sha256: src.sha256.clone(),
        format: Format::Text,
        blocks: blocks_of(&text),
        chrome_dropped: 0,
        meta: Default::default(),
    }
}

/// The blocks of a text, 1-based line numbers.
pub fn blocks_of(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::with_capacity(super::non_empty_lines(text));
    let mut blank = false;
    for (i, raw) in text.lines().enumerate() {
        let line = (i + 1) as u32;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            blank = true;
            continue;
        }
        let before = blocks.len();
        if trimmed.contains('|') && !trimmed.starts_with("**") {
            let mut cells: Vec<&str> = trimmed.split('|').map(str::trim).collect();
            while cells.last().is_some_and(|c| c.is_empty()) {
                cells.pop();
            }
            blocks.push(Block::row(cells, line));
        } else if let Some(item) = bullet(trimmed) {
            let indent = raw.len() - raw.trim_start().len();
            let mut b = Block::new(BlockKind::ListItem, item, line);
            b.level = (1 + indent / 4).min(6) as u8;
            blocks.push(b);
        } else {
            blocks.push(Block::new(BlockKind::Paragraph, trimmed, line));
        }
        if let Some(b) = blocks.get_mut(before) {
            b.blank_before = blank;
        }
        blank = false;
    }
    blocks
}

fn bullet(line: &str) -> Option<&str> {
    for p in ["• ", "•", "- ", "* "] {
        if let Some(rest) = line.strip_prefix(p) {
            let rest = rest.trim();
            if !rest.is_empty() {
                return Some(rest);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_bullets_and_paragraphs() {
        let b = blocks_of("A | B | |\n\n  • one\nplain text\n|\n");
        assert_eq!(b.len(), 4);
        assert_eq!(b[0].kind, BlockKind::TableRow);
        assert_eq!(b[0].cells, vec!["A", "B"]);
        assert_eq!(b[1].kind, BlockKind::ListItem);
        assert_eq!(b[1].text, "one");
        assert_eq!(b[1].line(), 3);
        assert_eq!(b[2].kind, BlockKind::Paragraph);
        assert_eq!(b[3].kind, BlockKind::TableRow);
        assert!(b[3].cells.is_empty());
    }
}
