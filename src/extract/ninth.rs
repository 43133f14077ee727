//! Warhammer 40,000 9th edition: a rules summary with unit cards (seed 002, a PDF turned into
//! markdown-ish text, one block per line).
//!
//! The document is read in three parts, told apart by structure: the cover (everything before
//! the first upper-case heading followed by rules text: newsletter, social links, credits —
//! chrome, counted), the rules (section headings, numbered sequence steps `1. MOVE UNITS`,
//! upper-case `LABEL:` paragraphs, each its own rule; tab-separated tables inside a rule kept as
//! [`RuleTable`] data), and the unit cards (an upper-case title followed by `POWER n`, or with
//! it glued on). A card becomes a [`Datasheet`] with 9th-edition profiles; rules printed on a
//! card (`REANIMATION PROTOCOLS`, `ANGELS OF DEATH`) become faction rules. Emphasis markers
//! (`**bold**`, `*italic*`) are formatting, not text, and are dropped. Nothing is invented: a
//! damaged value is `null` with `X102`, a card cut off by the end of the file has `X111`.

mod card;
mod rules;

use super::Extracted;
use crate::ir::{Block, BlockKind, Document};
use regex::Regex;
use std::sync::LazyLock;

static POWER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:(.+?)\s+)?POWER\s+(\d+)$").expect("static regex"));
static EMPHASIS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\*\*([^*]*)\*\*|\*([^*\s][^*]*)\*").expect("static regex"));

/// Reads a 9th-edition document: cover, rules, unit cards.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let blocks = &doc.blocks;
    let cards = card_starts(blocks);
    let rules_end = cards.first().map_or(blocks.len(), |c| c.index);
    let start = rules_start(&blocks[..rules_end]);
    if start > 0 {
        out.account.chrome += start;
        let d = crate::diag::Diagnostic::new(
            crate::diag::Code::ChromeDropped,
            format!("dropped {start} lines of cover page (newsletter, social links, credits)"),
        )
        .at(&doc.file, blocks[0].line());
        out.diagnostics.push(d);
    }
    rules::read(doc, &blocks[start..rules_end], out);
    for (k, c) in cards.iter().enumerate() {
        let end = cards.get(k + 1).map_or(blocks.len(), |n| n.index);
        let last = k + 1 == cards.len();
        card::read(doc, &blocks[c.index..end], c, last, out);
    }
    link_faction_rules(out);
}

/// Where a unit card starts: its title block, the name and the power rating.
#[derive(Debug, Clone)]
pub(crate) struct CardStart {
    pub index: usize,
    pub name: String,
    pub power: Option<u32>,
    /// Blocks the title takes (1 when `POWER n` is glued on, 2 when on its own line).
    pub title_blocks: usize,
}

/// Unit card titles: an upper-case line with `POWER n` glued on or on the next line.
fn card_starts(blocks: &[Block]) -> Vec<CardStart> {
    let mut out = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let t = plain(&b.text);
        if !is_title(&t) {
            continue;
        }
        if let Some(c) = POWER.captures(&t) {
            if let Some(name) = c.get(1) {
                out.push(CardStart {
                    index: i,
                    name: name.as_str().to_string(),
                    power: c[2].parse().ok(),
                    title_blocks: 1,
                });
            }
            continue;
        }
        let next = blocks.get(i + 1).map(|n| plain(&n.text));
        if let Some(c) = next.as_deref().and_then(|n| POWER.captures(n)) {
            if c.get(1).is_none() {
                out.push(CardStart {
                    index: i,
                    name: t.clone(),
                    power: c[2].parse().ok(),
                    title_blocks: 2,
                });
            }
        }
    }
    out
}

/// An upper-case line with no punctuation of a sentence or a label: a heading.
pub(crate) fn is_title(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty()
        && t.chars().any(|c| c.is_alphabetic())
        && !t.chars().any(|c| c.is_lowercase())
        && !t.contains([':', '\t', '.', '@', '/', '!'])
        && t.split_whitespace().count() <= 8
}

/// The first block of the rules: an upper-case heading followed by a paragraph that speaks
/// of units, models, the army or the battlefield. Everything before it is the cover.
fn rules_start(blocks: &[Block]) -> usize {
    const RULES_WORDS: &[&str] = &[" unit", " model", " army", "battlefield", " roll"];
    for (i, b) in blocks.iter().enumerate() {
        let next = blocks.get(i + 1).map(|n| plain(&n.text).to_lowercase());
        let rules_next = next.is_some_and(|n| RULES_WORDS.iter().any(|w| n.contains(w)));
        if is_title(&plain(&b.text)) && rules_next {
            return i;
        }
    }
    0
}

/// The text without emphasis markers, trimmed.
pub(crate) fn plain(s: &str) -> String {
    let out = EMPHASIS.replace_all(s, |c: &regex::Captures| {
        c.get(1)
            .or_else(|| c.get(2))
            .map_or(String::new(), |m| m.as_str().to_string())
    });
    out.trim().to_string()
}

/// Faction rules printed on one card and referred to by name on others (`Reanimation
/// Protocols`): the ability takes the rule's id.
fn link_faction_rules(out: &mut Extracted) {
    for ds in out.datasheets.iter_mut() {
        for a in ds
            .abilities
            .iter_mut()
            .filter(|a| a.rule_id.is_none() && a.text.is_none())
        {
            let rule = out.rules.iter().find(|r| {
                r.kind == "army"
                    && r.faction == ds.faction
                    && r.name
                        .as_deref()
                        .is_some_and(|n| n.eq_ignore_ascii_case(&a.name))
            });
            if let Some(r) = rule {
                a.rule_id = Some(crate::ids::rule_id(r));
            }
        }
    }
}

/// The non-empty tab-separated cells of a line (doubled tabs leave empty cells: dropped).
pub(crate) fn cells(b: &Block) -> Vec<String> {
    let text = if b.kind == BlockKind::TableRow {
        b.cells.join("\t")
    } else {
        b.text.clone()
    };
    text.split('\t')
        .map(plain)
        .filter(|c| !c.is_empty())
        .collect()
}

/// Appends `next` to `paras`: as a continuation of the last paragraph when that one stops
/// mid-sentence (the PDF broke the line), else as a new paragraph.
pub(crate) fn push_para(paras: &mut Vec<String>, next: String) {
    if let Some(last) = paras.last_mut() {
        let open = !last.ends_with(['.', ':', '!', '?', ')', '"', '”', '’']);
        let lower = next.chars().next().is_some_and(|c| c.is_lowercase());
        if open || lower {
            last.push(' ');
            last.push_str(&next);
            return;
        }
    }
    paras.push(next);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emphasis_is_dropped() {
        assert_eq!(plain(" **ASSAULT:** A *unit*"), "ASSAULT: A unit");
        assert_eq!(plain("<**KEYWORDS**>"), "<KEYWORDS>");
        assert_eq!(plain("2+ and 3*4"), "2+ and 3*4");
    }

    #[test]
    fn titles() {
        assert!(is_title("SKORPEKH LORD"));
        assert!(is_title("ASSAULT INTERCESSOR SQUAD POWER 6"));
        assert!(!is_title("NORMAL MOVE: Each model"));
        assert!(!is_title("PATREON.COM/ESOTERICORDER"));
    }
}
