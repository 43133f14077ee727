//! The date or version a structured source carries, for the reconciliation report
//! (`crate::reconcile`): an export's `Last_update.csv` (`2025-11-14 19:35:22`), a BattleScribe
//! file's `revision` attribute on its root element (`revision 124`).
//!
//! Pure: reads the bytes the pipeline loaded; a file that carries no date gives none (never an
//! error, never a guess from the folder or file name).

use super::{file_name, Group};
use std::collections::BTreeMap;

/// What each file of `group` is dated by, by path. Every file of an export shares its
/// `Last_update.csv`; a BattleScribe file is dated by its own `revision`.
pub fn of_group(group: &Group) -> BTreeMap<String, String> {
    let export = group
        .file("Last_update.csv")
        .and_then(|f| last_update(&f.bytes));
    let mut out = BTreeMap::new();
    for f in group.files {
        let dated = if file_name(&f.path).to_ascii_lowercase().ends_with(".csv") {
            export.clone().map(|d| format!("export {d}"))
        } else {
            revision(&f.bytes).map(|r| format!("revision {r}"))
        };
        if let Some(d) = dated {
            out.insert(f.path.clone(), d);
        }
    }
    out
}

/// The first value of `Last_update.csv` (`last_update|` header, then `2025-11-14 19:35:22|`).
pub fn last_update(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim());
    let header = lines.next()?;
    if !header.to_ascii_lowercase().starts_with("last_update") {
        return None;
    }
    let value = lines.find(|l| !l.is_empty())?;
    let value = value.split('|').next()?.trim();
    (!value.is_empty()).then(|| value.to_string())
}

/// The `revision` attribute of an XML file's root element (BattleScribe `catalogue` and
/// `gameSystem`), read from the root element only ([`super::bsdata::header`]).
pub fn revision(bytes: &[u8]) -> Option<String> {
    super::bsdata::header(bytes)?
        .revision
        .map(|r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(
            last_update("\u{feff}last_update|\n2025-11-14 19:35:22|\n".as_bytes()).as_deref(),
            Some("2025-11-14 19:35:22")
        );
        assert_eq!(last_update(b"id|name\n1|x\n"), None);
        let xml = br#"<?xml version="1.0"?><catalogue id="c" name="X" revision="124" library="false"><a/></catalogue>"#;
        assert_eq!(revision(xml).as_deref(), Some("124"));
        assert_eq!(revision(b"<catalogue id=\"c\"/>"), None);
        assert_eq!(revision(b"not xml"), None);
    }
}
