//! Text helpers shared by the extractors: glued-paragraph seams, site chrome, headings,
//! damaged-text checks, weapon-name brackets. Pure functions over strings; no records here.

use regex::Regex;
use std::sync::LazyLock;

/// A piece of a block's text after splitting at glue seams, with whether it began the block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    /// True for the first piece of a block (it starts where the source line starts).
    pub head: bool,
    /// True when the block was split (the piece is a head or tail of a glued line).
    pub glued: bool,
}

/// Function words after which the dumps lost a link's text and glued the next paragraph on
/// (`…set up using theThis warrior’s…`).
const GLUE_WORDS: &[&str] = &[
    "the", "a", "an", "and", "or", "not", "of", "in", "within", "per", "your", "to", "at", "on",
    "by", "with", "from", "for", "is", "are", "be", "than", "that", "this", "into", "onto",
    "using",
];

static SENTENCE_SEAM: LazyLock<Regex> = LazyLock::new(|| {
    // End of sentence (., !, ?, :, optionally after ')'), immediately followed by a capital
    // that starts a word: `ability.Mighty`, `time):Some`, `fury.Some`.
    Regex::new(r"[a-z0-9\)\]’'”%][.!?:](?:\))?[A-Z][a-z’']").expect("static regex")
});

static WORD_SEAM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([a-z’']{1,12})([A-Z][a-z]*)\b").expect("static regex"));

/// Splits a line where the dump glued two paragraphs together without a separator.
/// Never splits inside a word that is not a seam; returns one piece for a clean line.
pub fn split_glued(text: &str) -> Vec<Piece> {
    let mut cuts: Vec<usize> = Vec::new();
    for m in SENTENCE_SEAM.find_iter(text) {
        // cut just before the capital letter: the last two chars of the match are "Xy"
        let s = &text[m.start()..m.end()];
        let cap = s
            .char_indices()
            .rev()
            .nth(1)
            .map(|(i, _)| m.start() + i)
            .unwrap_or(m.end());
        // "e.g.X" style abbreviations: a single letter before the dot
        let before = &text[..cap];
        let abbrev = before.len() >= 3
            && before
                .chars()
                .rev()
                .nth(2)
                .is_some_and(|c| c == '.' || c == ' ')
            && before
                .chars()
                .rev()
                .nth(1)
                .is_some_and(|c| c.is_alphabetic());
        if !abbrev {
            cuts.push(cap);
        }
    }
    for c in WORD_SEAM.captures_iter(text) {
        let (Some(left), Some(right)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let l = left.as_str();
        let possessive = l.len() > 3 && (l.ends_with("’s") || l.ends_with("'s"));
        if (GLUE_WORDS.contains(&l) || possessive) && left.start() > 0 {
            // the left word must be preceded by a space (a whole word), and the right word
            // must not be a known camel-cased token
            let prev = text[..left.start()].chars().next_back();
            if prev == Some(' ') {
                cuts.push(right.start());
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let glued = !cuts.is_empty();
    let mut out = Vec::new();
    let mut start = 0;
    for cut in cuts.into_iter().chain(std::iter::once(text.len())) {
        let piece = text[start..cut].trim();
        if !piece.is_empty() {
            out.push(Piece {
                text: piece.to_string(),
                head: start == 0,
                glued,
            });
        }
        start = cut;
    }
    out
}

/// Site chrome of the Wahapedia pages the dumps were made from: never content.
pub fn is_chrome(text: &str) -> bool {
    let t = text.trim();
    const PREFIXES: &[&str] = &[
        "Disable Ads",
        "Boosty subscribers may disable ads",
        "1. Enter e-mail you have used to login on Boosty",
        "2. Press Get new pin code",
        "3. Enter pin code",
        "Note that login database updated once a day",
        "©",
        "This datasheet does not meet the selection criteria",
    ];
    PREFIXES.iter().any(|p| t.starts_with(p)) || t == "]" || t == "["
}

static FACTION_SENTENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^The (.+?) keyword is used in the following (.+?) datasheets:?$")
        .expect("static regex")
});

/// `The INFANTRY keyword is used in the following Grey Knights datasheets:` →
/// `("INFANTRY", "Grey Knights")`.
pub fn keyword_index_sentence(text: &str) -> Option<(String, String)> {
    let c = FACTION_SENTENCE.captures(text.trim())?;
    Some((c[1].to_string(), c[2].to_string()))
}

static MISSING_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(is|are|the|of|to|and|with|within|by|a|an|your|from|for) [,.;:]|%[0-9]{6,}[^%]*%",
    )
    .expect("static regex")
});

/// Describes visible damage in a text (a word missing before punctuation, a broken link
/// placeholder such as `%000015069performing actions%`), or `None` for clean text.
pub fn damage(text: &str) -> Option<String> {
    let m = MISSING_WORD.find(text)?;
    let start = text[..m.start()]
        .char_indices()
        .rev()
        .nth(20)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let end = (m.end() + 12).min(text.len());
    let end = (end..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    let ctx = &text[start..end];
    if m.as_str().starts_with('%') {
        Some(format!("broken link placeholder in \"…{ctx}…\""))
    } else {
        Some(format!("a word is missing in \"…{ctx}…\""))
    }
}

/// A short line that reads as a heading: no closing sentence punctuation, at most 8 words,
/// starts with a capital or a number (`2. Battle-shock`), not a bullet or a value.
pub fn looks_like_heading(text: &str) -> bool {
    let t = text.trim();
    let words = t.split_whitespace().count();
    if t.is_empty() || t.len() > 70 || words > 8 {
        return false;
    }
    if t.ends_with(['.', ':', ';', ',', '!', '?']) || t.starts_with("Example") {
        return false;
    }
    let first = t.chars().next().unwrap_or(' ');
    if !(first.is_uppercase() || first.is_ascii_digit()) {
        return false;
    }
    // values and table cells: `4+`, `12"`, `1CP`
    t.chars().any(|c| c.is_alphabetic() && c != 'D') && !is_cp(t)
}

/// `1CP`, `2 CP`.
pub fn is_cp(text: &str) -> bool {
    cp_value(text).is_some()
}

pub fn cp_value(text: &str) -> Option<u32> {
    let t = text.trim();
    let n = t.strip_suffix("CP")?.trim();
    n.parse().ok()
}

/// All letters upper case (digits and punctuation allowed): `COMMAND RE-ROLL`.
pub fn is_upper(text: &str) -> bool {
    text.chars().any(|c| c.is_alphabetic()) && !text.chars().any(|c| c.is_lowercase())
}

/// `Storm bolter [rapid fire 2]` → (`Storm bolter`, [`rapid fire 2`]).
pub fn weapon_name_and_keywords(text: &str) -> (String, Vec<String>) {
    let t = text.trim();
    if let Some(open) = t.find('[') {
        let name = t[..open].trim().to_string();
        let inner = t[open + 1..].trim_end();
        let inner = inner.strip_suffix(']').unwrap_or(inner);
        let kws = inner
            .split(',')
            .map(|k| k.trim().trim_matches(['[', ']']).trim().to_string())
            .filter(|k| !k.is_empty())
            .collect();
        (name, kws)
    } else {
        (t.to_string(), Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        split_glued(s).into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn splits_sentence_seams() {
        assert_eq!(
            texts("…using the Deep Strike ability.Mighty heroes fight at the forefront of battle."),
            vec![
                "…using the Deep Strike ability.",
                "Mighty heroes fight at the forefront of battle."
            ]
        );
        assert_eq!(
            texts("(resolve each failed test one at a time):Some attacks are so powerful"),
            vec![
                "(resolve each failed test one at a time):",
                "Some attacks are so powerful"
            ]
        );
        assert_eq!(
            texts("with their fury.Some rules inflict"),
            vec!["with their fury.", "Some rules inflict"]
        );
    }

    #[test]
    fn splits_lost_link_seams_but_not_words() {
        assert_eq!(
            texts("model only. Each time the bearer’s unit is set up using theThis warrior’s devotion"),
            vec!["model only. Each time the bearer’s unit is set up using the", "This warrior’s devotion"]
        );
        assert_eq!(
            texts("While the bearer’s unit is notGifted by"),
            vec!["While the bearer’s unit is not", "Gifted by"]
        );
        // clean text and real words stay whole
        assert_eq!(
            texts("Be’lakor and McAllister, e.g. This"),
            vec!["Be’lakor and McAllister, e.g. This"]
        );
        assert_eq!(texts("Storm bolter [rapid fire 2]").len(), 1);
    }

    #[test]
    fn damage_is_found_not_fixed() {
        assert!(damage("If your Anny Faction is , at the end of").is_some());
        assert!(damage("while %000015069performing actions%.").is_some());
        assert!(damage("If your Army Faction is GREY KNIGHTS, at the end").is_none());
    }

    #[test]
    fn weapon_names() {
        assert_eq!(
            weapon_name_and_keywords("Nemesis force weapon [precision, psychic]"),
            (
                "Nemesis force weapon".to_string(),
                vec!["precision".to_string(), "psychic".to_string()]
            )
        );
        assert_eq!(
            weapon_name_and_keywords("Battery close combat weapons")
                .1
                .len(),
            0
        );
    }

    #[test]
    fn headings_and_keywords() {
        assert!(looks_like_heading("DEEP STRIKE"));
        assert!(looks_like_heading("2. Battle-shock"));
        assert!(!looks_like_heading("1CP"));
        assert!(!looks_like_heading("4+"));
        assert!(!looks_like_heading(
            "Some warriors are masters of disguise and concealment."
        ));
    }
}
