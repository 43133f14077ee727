//! The static site of a dataset: an index by faction and edition, a page per datasheet (drawn
//! as a card), rule, stratagem, enhancement and detachment, every value with its source file
//! and line (or PDF page) as a tooltip — `explain` in the browser — and a client-side search.
//!
//! Works offline from `file://`: one stylesheet and two scripts of its own, no external URL,
//! no `fetch()` (the search index is a script assigning a global). Deterministic bytes: pages
//! sorted, no timestamps. Written atomically ([`write`]).
//!
//! Owns the pages and their assets. Must not run the pipeline, change a value, or load
//! anything from outside the site directory when viewed.

mod card;
mod html;
mod index;
mod names;
mod pages;
mod search;
mod write;

pub use html::escape;
pub use names::{file_name, page as page_path, DATASHEETS, RULES, STRATAGEMS};
pub use write::MARKER_FILE;

use crate::dataset::LoadedDataset;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// The site's own assets.
const STYLE: &str = include_str!("site/style.css");
const SEARCH_JS: &str = include_str!("site/search.js");

/// Writes the site of `dataset` into the directory `dir` (see [`write::replace`]).
pub fn write(dataset: &LoadedDataset, dir: &Path) -> anyhow::Result<()> {
    write::replace(dir, &build(dataset))
}

/// The records that have a page, by folder and id: their page and name, for links.
pub struct Links<'a> {
    pages: HashMap<(&'static str, &'a str), &'a str>,
}

impl<'a> Links<'a> {
    fn new(ds: &'a LoadedDataset) -> Self {
        let mut pages = HashMap::new();
        for d in &ds.datasheets {
            pages.insert(
                (DATASHEETS, d.id.as_str()),
                d.name.as_deref().unwrap_or(&d.id),
            );
        }
        for r in &ds.rules {
            pages.insert((RULES, r.id.as_str()), r.name.as_deref().unwrap_or(&r.id));
        }
        for s in &ds.stratagems {
            pages.insert((STRATAGEMS, s.id.as_str()), s.name.as_str());
        }
        for e in &ds.enhancements {
            let name = e.name.as_deref().unwrap_or(&e.id);
            pages.insert((names::ENHANCEMENTS, e.id.as_str()), name);
        }
        for d in &ds.detachments {
            pages.insert((names::DETACHMENTS, d.id.as_str()), d.name.as_str());
        }
        Links { pages }
    }

    /// The page of the record `id` in `folder`, relative to the site's top, if it has one.
    pub fn href(&self, folder: &'static str, id: &str) -> Option<String> {
        self.pages
            .contains_key(&(folder, id))
            .then(|| names::page(folder, id))
    }

    /// The name of the record `id` in `folder` (its id when it has no page).
    pub fn name<'b>(&'b self, folder: &'static str, id: &'b str) -> &'b str {
        self.pages.get(&(folder, id)).copied().unwrap_or(id)
    }
}

/// Every file of the site of `ds`: (relative path, contents), sorted by path, pages rendered
/// in parallel.
pub fn build(ds: &LoadedDataset) -> Vec<(String, Vec<u8>)> {
    let links = Links::new(ds);
    let groups = index::groups(ds);
    let mut files: Vec<(String, String)> = vec![
        ("style.css".to_string(), STYLE.to_string()),
        ("search.js".to_string(), SEARCH_JS.to_string()),
        ("search-index.js".to_string(), search::index_js(ds)),
        ("index.html".to_string(), index::index(&groups)),
    ];
    files.par_extend(
        groups
            .par_iter()
            .map(|(k, g)| (index::faction_path(k.0, &k.1), index::faction_page(k, g))),
    );
    files.par_extend(
        ds.datasheets
            .par_iter()
            .map(|d| (names::page(DATASHEETS, &d.id), card::page(d, &links))),
    );
    files.par_extend(
        ds.rules
            .par_iter()
            .map(|r| (names::page(RULES, &r.id), pages::rule(r, &links))),
    );
    files.par_extend(
        ds.stratagems
            .par_iter()
            .map(|s| (names::page(STRATAGEMS, &s.id), pages::stratagem(s))),
    );
    files.par_extend(ds.enhancements.par_iter().map(|e| {
        (
            names::page(names::ENHANCEMENTS, &e.id),
            pages::enhancement(e),
        )
    }));
    files.par_extend(ds.detachments.par_iter().map(|d| {
        (
            names::page(names::DETACHMENTS, &d.id),
            pages::detachment(d, &links),
        )
    }));
    files.par_sort_by(|a, b| a.0.cmp(&b.0));
    files.dedup_by(|a, b| a.0 == b.0);
    files
        .into_iter()
        .map(|(p, s)| (p, s.into_bytes()))
        .collect()
}
