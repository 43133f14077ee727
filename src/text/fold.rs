//! The one Unicode folding table and the few ways the pipeline folds text with it. Pure.
//!
//! [`class`] is the table: which characters count as apostrophes, double quotes, dashes,
//! spaces, the multiplication sign and the plus sign. Four foldings use it, each for one job:
//!
//! | function | used for | NFK? | case | apostrophes | dashes |
//! | --- | --- | --- | --- | --- | --- |
//! | [`fold_for_id`] | id slugs (`ids`) | NFKD, marks dropped | lower | dropped | `-` separator |
//! | [`fold_for_compare`] | rule texts (dedup) | NFKC | lower | `'` | `-` |
//! | [`fold_name_key`] | names (crosscheck) | NFKD, marks dropped | lower | dropped | space |
//! | [`fold_value`] | characteristic values (normalize) | none | kept | `'` | `-` |
//!
//! Every folding is idempotent, except that [`fold_value`] decodes one level of the HTML
//! entities the sources leave in values (`&amp;quot;` → `&quot;`).

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// What a character is, as far as folding goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `'`, `‘`, `’`, `‛`, `′` (prime), `` ` ``.
    Apostrophe,
    /// `"`, `“`, `”`, `„`, `″` (double prime), fullwidth `＂`.
    Quote,
    /// `-`, U+2010 to U+2015 (hyphen, non-breaking hyphen, figure dash, en, em, bar),
    /// `−` (U+2212 minus), small and fullwidth hyphen-minus.
    Dash,
    /// Any Unicode white space: NBSP, thin, narrow and figure spaces included.
    Space,
    /// `×` (multiplication sign), written `x` in values.
    Times,
    /// Fullwidth `＋`.
    Plus,
    /// Anything else.
    Other,
}

/// The folding table.
pub fn class(c: char) -> Class {
    match c {
        '\'' | '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' | '`' => Class::Apostrophe,
        '"' | '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' | '\u{FF02}' => Class::Quote,
        '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => Class::Dash,
        '\u{00D7}' => Class::Times,
        '\u{FF0B}' => Class::Plus,
        c if c.is_whitespace() => Class::Space,
        _ => Class::Other,
    }
}

/// The ASCII spelling of a folded character (`’` → `'`, `–` → `-`, NBSP → space); other
/// characters unchanged. `×` stays: only values write it `x`.
pub fn ascii(c: char) -> char {
    match class(c) {
        Class::Apostrophe => '\'',
        Class::Quote => '"',
        Class::Dash => '-',
        Class::Space => ' ',
        Class::Plus => '+',
        Class::Times | Class::Other => c,
    }
}

/// Id slug: lower-case ASCII letters and digits, runs of anything else one `-`, no `-` at
/// either end. Accents and other combining marks are dropped (NFKD), and so are apostrophes
/// and every other non-ASCII character that is not a space, dash or quote (`Be’lakor` →
/// `belakor`, `COMMAND RE-ROLL` → `command-re-roll`).
pub fn fold_for_id(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut dash = false;
    for c in s.nfkd() {
        if c.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
            continue;
        }
        match class(c) {
            Class::Apostrophe => {}
            Class::Dash | Class::Space | Class::Quote => dash = true,
            _ if c.is_ascii() => dash = true,
            // combining marks and other non-ASCII characters vanish
            _ => {}
        }
    }
    out
}

/// Canonical comparison form of a text: NFKC, apostrophes, quotes and dashes as ASCII,
/// white space collapsed to one space and trimmed, lower case.
pub fn fold_for_compare(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    let mut push = |c: char| {
        let c = match class(c) {
            Class::Times | Class::Plus => c,
            _ => ascii(c),
        };
        if c.is_whitespace() {
            space = true;
            return;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.extend(c.to_lowercase());
    };
    // One pass; the NFKC decomposition only when the quick check says the text needs it.
    if is_nfkc_quick(s.chars()) == IsNormalized::Yes {
        s.chars().for_each(&mut push);
    } else {
        s.nfkc().for_each(&mut push);
    }
    out
}

/// A name as a comparison key: accents dropped, apostrophes removed, dashes as spaces, lower
/// case, white space collapsed (`Gaunt’s Ghosts` = `gaunts ghosts`).
pub fn fold_name_key(s: &str) -> String {
    let folded: String = s
        .nfkd()
        .flat_map(char::to_lowercase)
        .filter(|c| !is_combining_mark(*c))
        .filter_map(|c| match class(c) {
            Class::Apostrophe => None,
            Class::Dash => Some(' '),
            _ => Some(c),
        })
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Typography folding for values: one level of the HTML entities the sources leave
/// (`&#34;`, `&quot;`, `&#43;`, `&amp;`), then quotes, primes, dashes, `−`, fullwidth `＋`
/// and spaces as ASCII, `×` as `x`; white space trimmed and collapsed. Case is kept and no
/// Unicode normalization is applied. Never applied to names.
pub fn fold_value(s: &str) -> String {
    let s = s
        .replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&#43;", "+")
        .replace("&amp;", "&");
    let mapped: String = s
        .chars()
        .map(|c| match class(c) {
            Class::Times => 'x',
            _ => ascii(c),
        })
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_foldings() {
        assert_eq!(fold_for_id("Be’lakor"), "belakor");
        assert_eq!(
            fold_for_id("Betraying Shades – witchfire"),
            "betraying-shades-witchfire"
        );
        assert_eq!(fold_for_id("  Grey Knights "), "grey-knights");
        assert_eq!(
            fold_for_compare("Some  CHARACTER units have ‘Leader’ listed – yes"),
            "some character units have 'leader' listed - yes"
        );
        assert_eq!(fold_name_key("Gaunt’s  Ghosts"), "gaunts ghosts");
        assert_eq!(fold_name_key("Lord-Commissar"), "lord commissar");
        assert_eq!(fold_value("2\u{2033} × D6 \u{2212}1"), "2\" x D6 -1");
        assert_eq!(fold_value("&quot;12&#34;"), "\"12\"");
    }
}
