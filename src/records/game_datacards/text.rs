//! The app's texts as plain text, the way the other sources' texts read (Wahapedia's export:
//! paragraphs apart by a blank line, list items as `• ` paragraphs, no markup).
//!
//! Owns: the two markups of the app's data, often both in one text: Markdown (`**bold**`,
//! `*italic*`, `■` bullets, a line per paragraph; the datasheets' and stratagems' texts and
//! 10th edition's) and HTML (`<k>` keywords, `<b> <i> <u>`, `<ul><li>`, `<br>`, `<table>`;
//! the enhancements' and rules' texts of 11th edition), read through
//! [`decode::html::fragment_lines`](crate::decode::html::fragment_lines), as the core rules'
//! texts are (`core.rs`); `\r` (the German texts) and `\n` are line breaks; a hexadecimal
//! entity written without its `#` (`&x20;`, 10th edition's stratagems) is the character it
//! names. Must not: change the words (a keyword
//! keeps the case it is printed in), take a text from another language, parse anything but a
//! text.

use crate::decode::html::fragment_lines;
use crate::ir::BlockKind;
use regex::Regex;
use std::sync::LazyLock;

/// `&x20;`: a hexadecimal character reference without its `#`.
static BARE_HEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"&x([0-9A-Fa-f]{1,6});").expect("regex"));

/// `*italic*` (after `**` is gone): a star-delimited run that starts and ends with a non-space.
static ITALIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\*([^*\s](?:[^*]*[^*\s])?)\*").expect("regex"));

/// A paragraph of a text: its words, and whether it is a list item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Para {
    pub(super) text: String,
    pub(super) item: bool,
}

/// The paragraphs of one text in either markup.
pub(super) fn paragraphs(raw: &str) -> Vec<Para> {
    let s = raw.replace("\r\n", "\n").replace('\r', "\n");
    let s = BARE_HEX.replace_all(&s, "&#x$1;");
    let mut out = Vec::new();
    for b in fragment_lines(&s) {
        let mut item = b.kind == BlockKind::ListItem;
        let mut t = markdown(&b.text);
        if let Some(rest) = t.strip_prefix('•') {
            item = true;
            t = rest.trim().to_string();
        }
        let mut parts = t.split('■');
        if let Some(first) = parts.next().map(str::trim).filter(|f| !f.is_empty()) {
            out.push(Para {
                text: first.to_string(),
                item,
            });
        }
        for p in parts.map(str::trim).filter(|p| !p.is_empty()) {
            out.push(Para {
                text: p.to_string(),
                item: true,
            });
        }
    }
    out
}

/// Paragraphs joined as the other sources' texts: a blank line between, items as `• `.
pub(super) fn join(paras: &[Para]) -> String {
    let mut s = String::new();
    for p in paras {
        if !s.is_empty() {
            s.push_str("\n\n");
        }
        if p.item {
            s.push_str("• ");
        }
        s.push_str(&p.text);
    }
    s
}

/// One text as plain text ([`paragraphs`], [`join`]).
pub(super) fn plain(raw: &str) -> String {
    join(&paragraphs(raw))
}

/// Markdown's emphasis marks removed (`**X**`, `*X*`); a lone `*` stays as printed.
fn markdown(t: &str) -> String {
    let t = t.replace("**", "");
    let t = ITALIC.replace_all(&t, "$1");
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_bold_italic_and_squares() {
        assert_eq!(
            plain("One **ADEPTUS CUSTODES** unit.\n\n■ Add 1.\n■ Re-roll **[LETHAL HITS]**."),
            "One ADEPTUS CUSTODES unit.\n\n• Add 1.\n\n• Re-roll [LETHAL HITS]."
        );
        assert_eq!(
            plain("***Example**: a unit.* 4+* stays"),
            "Example: a unit. 4+* stays"
        );
        assert_eq!(
            plain("• This unit can re-roll."),
            "• This unit can re-roll."
        );
    }

    #[test]
    fn html_keywords_lists_and_german_line_breaks() {
        assert_eq!(
            plain("<k>Walker</k> unit only.\r<ul><li>Has +2\" <b>M</b>.</li>\r<li><u>Or:</u> 6\".</li></ul>\rThis <b>detachment</b>."),
            "Walker unit only.\n\n• Has +2\" M.\n\n• Or: 6\".\n\nThis detachment."
        );
        assert_eq!(plain("&x20;Your phase.&x20;"), "Your phase.");
        assert_eq!(plain("a &amp; b"), "a & b");
        assert_eq!(plain(""), "");
    }
}
