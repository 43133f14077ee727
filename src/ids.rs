//! Stable record ids: built from scope and name, never from text hashes or input order.
//!
//! `slug("Be’lakor")` = `belakor`; `slug("COMMAND RE-ROLL")` = `command-re-roll`. Parameter
//! placeholders (`X`, `x+`) are dropped from rule slugs so `Rapid Fire X` and `RAPID FIRE`
//! name the same rule. Pure.

use unicode_normalization::UnicodeNormalization;

/// Lower-case ASCII slug: accents stripped, apostrophes dropped, other runs of non-alphanumerics
/// become one `-`.
pub fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut dash = false;
    for c in s.nfkd() {
        if c.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        } else if matches!(c, '\'' | '’' | '‘' | '`')
            || !c.is_ascii() && !c.is_whitespace() && !is_dash(c)
        {
            // apostrophes and combining marks vanish
        } else {
            dash = true;
        }
    }
    out
}

fn is_dash(c: char) -> bool {
    matches!(c, '–' | '—' | '‐' | '‑' | '−')
}

/// Slug of a rule name without parameter placeholders: `Feel No Pain x+` → `feel-no-pain`.
pub fn rule_slug(name: &str) -> String {
    let words: Vec<&str> = name
        .split_whitespace()
        .filter(|w| !matches!(w.to_ascii_lowercase().as_str(), "x" | "x+" | "(x)" | "(x+)"))
        .collect();
    slug(&words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Be’lakor"), "belakor");
        assert_eq!(slug("COMMAND RE-ROLL"), "command-re-roll");
        assert_eq!(
            slug("Betraying Shades – witchfire"),
            "betraying-shades-witchfire"
        );
        assert_eq!(slug("Gaunt's Ghosts"), "gaunts-ghosts");
        assert_eq!(slug("  Grey Knights "), "grey-knights");
        assert_eq!(rule_slug("Feel No Pain x+"), "feel-no-pain");
        assert_eq!(rule_slug("RAPID FIRE X"), "rapid-fire");
    }
}
