//! The one escaping of text from inputs for the terminal, and the one lossless spelling of file
//! names that are not UTF-8.
//!
//! File names, ids, names and messages come from inputs and may hold escape sequences, newlines
//! or bidirectional overrides that would rewrite what a terminal shows (a file named
//! `\x1b[2J…`). Every human-readable output (diagnostics, summaries, `lint`, `validate`,
//! `crosscheck`, `diff`, `explain`, `simulate`) passes such text through [`display`]; JSON
//! outputs are escaped by serde and do not.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Write;

/// True for a character shown escaped by [`display`]: C0 and C1 controls (ESC, newline, tab,
/// carriage return, DEL …) and the invisible bidirectional and line-breaking format characters.
fn escaped(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200E}' | '\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `s` with every control character visible: `\n`, `\r`, `\t`, `\x1b` (C0 and DEL), `\u{9b}`
/// (C1), `\u{202e}` (bidirectional and line-separator format characters). Other text,
/// backslashes included, is unchanged; borrowed when nothing is escaped.
pub fn display(s: &str) -> Cow<'_, str> {
    if !s.chars().any(escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if escaped(c) && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if escaped(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A whole rendered text for the terminal (a report, a table, a diff): like [`display`], but its
/// own line breaks and tabs are kept. With `keep_sgr`, complete colour sequences (`ESC [`
/// digits and `;` `m`, which can only change colours) are kept too: `diff` paints with them;
/// every other escape sequence (cursor moves, titles, hyperlinks) is shown escaped. The one
/// filter `cogitator`'s terminal writes pass through (`crate::cli`).
pub fn terminal(s: &str, keep_sgr: bool) -> Cow<'_, str> {
    let bad = |c: char| escaped(c) && c != '\n' && c != '\t';
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if keep_sgr && c == '\x1b' {
            if let Some(len) = sgr_len(rest) {
                out.push_str(&rest[..len]);
                rest = &rest[len..];
                continue;
            }
        }
        if bad(c) {
            out.push_str(&display(&rest[..c.len_utf8()]));
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of a colour sequence (`ESC [ 1;31 m`) at the start of `s`.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\x1b[")?;
    let n = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    (body.as_bytes().get(n) == Some(&b'm')).then_some(2 + n + 1)
}

/// [`display`] of a path as `Path::display` would show it, with bytes that are not UTF-8 as
/// `\xNN` (see [`os`]).
pub fn path(p: &std::path::Path) -> String {
    display(&os(p.as_os_str())).into_owned()
}

/// A file name as a `String` that keeps two different names different: a UTF-8 name is
/// returned as it is; in a name that is not UTF-8 each invalid byte is written `\xNN` and each
/// backslash `\\`, so the spelling can be read back (unlike `to_string_lossy`, which makes
/// `a\xff` and `a\xfe` both `a\u{fffd}`). Only a UTF-8 name that itself spells such an escape
/// can coincide with one.
pub fn os(s: &OsStr) -> String {
    if let Some(s) = s.to_str() {
        return s.to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in s.as_bytes().utf8_chunks() {
            for c in chunk.valid().chars() {
                if c == '\\' {
                    out.push_str("\\\\");
                } else {
                    out.push(c);
                }
            }
            for b in chunk.invalid() {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_visible_and_plain_text_borrowed() {
        assert_eq!(
            display("a\x1b[2Jb\nc\td\u{9b}e\u{202e}"),
            "a\\x1b[2Jb\\nc\\td\\u{9b}e\\u{202e}"
        );
        assert!(matches!(
            display("Intercessor › bolt rifle"),
            Cow::Borrowed(_)
        ));
        assert_eq!(display("a\\b"), "a\\b");
    }

    #[test]
    fn terminal_text_keeps_lines_and_only_colour_sequences() {
        let s = "a\n\tb\x1b[1;31mred\x1b[0m\x1b]0;title\x07\x1b[2J";
        assert_eq!(
            terminal(s, true),
            "a\n\tb\x1b[1;31mred\x1b[0m\\x1b]0;title\\x07\\x1b[2J"
        );
        assert_eq!(
            terminal(s, false),
            "a\n\tb\\x1b[1;31mred\\x1b[0m\\x1b]0;title\\x07\\x1b[2J"
        );
    }

    #[cfg(unix)]
    #[test]
    fn invalid_bytes_stay_distinct() {
        use std::os::unix::ffi::OsStrExt;
        let a = os(OsStr::from_bytes(b"a\xffb\\"));
        let b = os(OsStr::from_bytes(b"a\xfeb\\"));
        assert_eq!(a, "a\\xffb\\\\");
        assert_ne!(a, b);
        assert_eq!(os(OsStr::new("plain\\name")), "plain\\name");
    }
}
