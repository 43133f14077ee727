//! The client-side search's index: `search-index.js`, which assigns the global
//! `COGITATOR_INDEX` (a browser blocks `fetch()` of a JSON file from `file://`, a script it
//! loads). One entry per page: `[name, kind, page, edition and faction, text prefix]`.
//!
//! Owns what is searchable and keeping the index small (names and the first
//! [`PREFIX_CHARS`] characters of a record's text). The search itself is `search.js`.

use super::names;
use crate::dataset::LoadedDataset;
use crate::model::Edition;

/// How much of a record's text the index keeps.
pub const PREFIX_CHARS: usize = 60;

/// `[name, kind, page, meta, prefix]`.
type Entry = [String; 5];

fn entry(name: &str, kind: &str, page: String, e: Edition, f: Option<&str>, text: &str) -> Entry {
    let meta = match f {
        Some(f) => format!("{} · {f}", e.as_str()),
        None => e.as_str().to_string(),
    };
    let prefix: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let prefix: String = prefix.chars().take(PREFIX_CHARS).collect();
    [name.to_string(), kind.to_string(), page, meta, prefix]
}

/// Every record of `ds` as an index entry, sorted.
fn entries(ds: &LoadedDataset) -> Vec<Entry> {
    let mut out = Vec::new();
    for d in &ds.datasheets {
        let name = d.name.as_deref().unwrap_or(&d.id);
        let page = names::page(names::DATASHEETS, &d.id);
        let kw = d.keywords.join(", ");
        out.push(entry(
            name,
            "datasheet",
            page,
            d.edition,
            d.faction.as_deref(),
            &kw,
        ));
    }
    for r in &ds.rules {
        let name = r.name.as_deref().unwrap_or(&r.id);
        let page = names::page(names::RULES, &r.id);
        out.push(entry(
            name,
            "rule",
            page,
            r.edition,
            r.faction.as_deref(),
            &r.text,
        ));
    }
    for s in &ds.stratagems {
        let page = names::page(names::STRATAGEMS, &s.id);
        let text = s.effect.as_deref().unwrap_or_default();
        out.push(entry(
            &s.name,
            "stratagem",
            page,
            s.edition,
            s.group.as_deref(),
            text,
        ));
    }
    for e in &ds.enhancements {
        let name = e.name.as_deref().unwrap_or(&e.id);
        let page = names::page(names::ENHANCEMENTS, &e.id);
        out.push(entry(
            name,
            "enhancement",
            page,
            e.edition,
            e.faction.as_deref(),
            &e.text,
        ));
    }
    for d in &ds.detachments {
        let page = names::page(names::DETACHMENTS, &d.id);
        out.push(entry(
            &d.name,
            "detachment",
            page,
            d.edition,
            d.faction.as_deref(),
            "",
        ));
    }
    out.sort();
    out
}

/// The contents of `search-index.js`: one entry per line.
pub fn index_js(ds: &LoadedDataset) -> String {
    let mut out = String::from("window.COGITATOR_INDEX = [\n");
    for e in entries(ds) {
        // A JSON array is a JavaScript array literal; `<` escaped all the same.
        let line = serde_json::to_string(&e)
            .unwrap_or_default()
            .replace('<', "\\u003c");
        out.push_str(&line);
        out.push_str(",\n");
    }
    out.push_str("];\n");
    out
}
