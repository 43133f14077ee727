//! File names of the site's pages, made from record ids.
//!
//! Owns turning an id into a path that is safe on every file system: lower-case ASCII letters,
//! digits and `-` only (no `/`, no `..`), at most [`MAX_SLUG`] bytes, and a short hash of the
//! exact id, so two ids that differ only in case or in characters the slug drops never share
//! a file, even on a case-insensitive file system. Must not depend on anything but the id.

/// The longest slug kept from an id (the hash follows it).
pub const MAX_SLUG: usize = 60;

/// The folder of each kind of page.
pub const DATASHEETS: &str = "datasheets";
pub const RULES: &str = "rules";
pub const STRATAGEMS: &str = "stratagems";
pub const ENHANCEMENTS: &str = "enhancements";
pub const DETACHMENTS: &str = "detachments";
pub const FACTIONS: &str = "factions";

/// `FOLDER/SLUG-HASH.html`, the page of the record `id` in `folder` (one of the constants).
pub fn page(folder: &str, id: &str) -> String {
    format!("{folder}/{}", file_name(id))
}

/// `SLUG-HASH.html`: the slug of `id` and the first 8 hex digits of its sha256.
pub fn file_name(id: &str) -> String {
    let hash = crate::source::sha256_hex(id.as_bytes());
    format!("{}-{}.html", slug(id), &hash[..8])
}

/// `id` lower-cased, every run of other characters than ASCII letters and digits one `-`.
fn slug(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= MAX_SLUG {
            break;
        }
    }
    let s = out.trim_matches('-');
    if s.is_empty() {
        "record".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_distinct_ignoring_case() {
        let ids = [
            "10e:chaos-daemons:belakor",
            "10e:Chaos-Daemons:Belakor",
            "10e:x:../../etc/passwd",
            "10e:x:a/b",
            "10e:x:a_b",
            "",
        ];
        let names: Vec<String> = ids.iter().map(|i| file_name(i)).collect();
        for n in &names {
            assert!(!n.contains('/') && !n.contains(".."), "{n}");
            assert!(n
                .trim_end_matches(".html")
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        }
        let mut folded: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        folded.sort();
        folded.dedup();
        assert_eq!(folded.len(), ids.len(), "{names:?}");
        assert!(names[0].starts_with("10e-chaos-daemons-belakor-"));
        assert!(file_name(&"x".repeat(500)).len() < MAX_SLUG + 20);
    }
}
