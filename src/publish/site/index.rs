//! The site's index (`index.html`: the search box, then every edition's factions) and one page
//! per faction and edition listing its datasheets, detachments, enhancements, stratagems and
//! rules; records without a faction (core rules, core stratagems) on their edition's
//! "No faction" page.
//!
//! Owns grouping records by edition and faction for browsing. Must not drop a record: every
//! page of the site is linked from one faction page.

use super::html::{escape, link, page};
use super::names;
use crate::dataset::LoadedDataset;
use crate::model::Edition;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// One linked record on a faction page: its name, its page.
type Entry = (String, String);

/// The records of one edition and faction, by the heading they are listed under.
#[derive(Default)]
pub struct Group {
    lists: BTreeMap<&'static str, Vec<Entry>>,
}

/// Edition and faction (`None`: no faction) to their records.
pub type Groups = BTreeMap<(Edition, Option<String>), Group>;

/// Every record of `ds` in its edition and faction group, each list sorted.
pub fn groups(ds: &LoadedDataset) -> Groups {
    let mut g = Groups::new();
    let mut add = |e: Edition, f: &Option<String>, heading, name: &str, href: String| {
        let group = g.entry((e, f.clone())).or_default();
        group
            .lists
            .entry(heading)
            .or_default()
            .push((name.to_string(), href));
    };
    for d in &ds.datasheets {
        let href = names::page(names::DATASHEETS, &d.id);
        add(
            d.edition,
            &d.faction,
            "1 Datasheets",
            d.name.as_deref().unwrap_or(&d.id),
            href,
        );
    }
    for d in &ds.detachments {
        let href = names::page(names::DETACHMENTS, &d.id);
        add(d.edition, &d.faction, "2 Detachments", &d.name, href);
    }
    for e in &ds.enhancements {
        let href = names::page(names::ENHANCEMENTS, &e.id);
        add(
            e.edition,
            &e.faction,
            "3 Enhancements",
            e.name.as_deref().unwrap_or(&e.id),
            href,
        );
    }
    let faction_of = stratagem_factions(ds);
    for s in &ds.stratagems {
        let f = faction_of.get(s.id.as_str()).cloned().flatten();
        add(
            s.edition,
            &f,
            "4 Stratagems",
            &s.name,
            names::page(names::STRATAGEMS, &s.id),
        );
    }
    for r in &ds.rules {
        let href = names::page(names::RULES, &r.id);
        add(
            r.edition,
            &r.faction,
            "5 Rules",
            r.name.as_deref().unwrap_or(&r.id),
            href,
        );
    }
    for group in g.values_mut() {
        for list in group.lists.values_mut() {
            list.sort();
        }
    }
    g
}

/// A stratagem's faction: that of a detachment listing it (the first by id).
fn stratagem_factions(ds: &LoadedDataset) -> HashMap<&str, Option<String>> {
    let mut dets: Vec<_> = ds.detachments.iter().collect();
    dets.sort_by(|a, b| a.id.cmp(&b.id));
    let mut out = HashMap::new();
    for d in dets {
        for s in &d.stratagems {
            out.entry(s.as_str()).or_insert_with(|| d.faction.clone());
        }
    }
    out
}

/// The page of one edition and faction group.
pub fn faction_path(edition: Edition, faction: &Option<String>) -> String {
    let key = format!(
        "{}:{}",
        edition.as_str(),
        faction.as_deref().unwrap_or("no-faction")
    );
    names::page(names::FACTIONS, &key)
}

/// The faction page of `key`.
pub fn faction_page(key: &(Edition, Option<String>), group: &Group) -> String {
    let title = format!(
        "{} — {}",
        key.1.as_deref().unwrap_or("No faction"),
        key.0.as_str()
    );
    let mut body = format!("<h1>{}</h1>", escape(&title));
    for (heading, list) in &group.lists {
        let heading = heading.split_once(' ').map_or(*heading, |(_, h)| h);
        let _ = write!(
            body,
            "<h2>{heading} ({})</h2><ul class=\"list\">",
            list.len()
        );
        for (name, href) in list {
            let _ = write!(body, "<li>{}</li>", link(&format!("../{href}"), name));
        }
        body.push_str("</ul>");
    }
    page(&title, "../", &body)
}

/// `index.html`: the search box and results, then each edition's faction pages with counts.
pub fn index(groups: &Groups) -> String {
    let mut body = String::from(
        "<h1>Dataset</h1><section class=\"search\"><form action=\"index.html\" method=\"get\">\
         <input id=\"q\" type=\"search\" name=\"q\" placeholder=\"Search names and text\" \
         aria-label=\"Search\"></form><ol id=\"results\"></ol></section>",
    );
    let mut edition = None;
    for (key, group) in groups {
        if edition != Some(key.0) {
            if edition.is_some() {
                body.push_str("</ul>");
            }
            edition = Some(key.0);
            let _ = write!(body, "<h2>{}</h2><ul class=\"factions\">", key.0.as_str());
        }
        let counts: Vec<String> = group
            .lists
            .iter()
            .map(|(h, l)| format!("{} {}", l.len(), h.split_once(' ').map_or(*h, |(_, h)| h)))
            .collect();
        let name = key.1.as_deref().unwrap_or("No faction");
        let _ = write!(
            body,
            "<li>{} <span class=\"counts\">{}</span></li>",
            link(&faction_path(key.0, &key.1), name),
            escape(&counts.join(", ").to_lowercase())
        );
    }
    if edition.is_some() {
        body.push_str("</ul>");
    }
    body.push_str("<script src=\"search-index.js\"></script><script src=\"search.js\"></script>");
    page("Index", "", &body)
}
