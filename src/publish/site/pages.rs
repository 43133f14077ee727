//! The pages of rules, stratagems, enhancements and detachments: each value with its source.
//!
//! Owns those pages' HTML. Must not change a value: each is shown as the dataset has it.

use super::html::{escape, link, list_section, page, paragraphs, sources, value, Src};
use super::names;
use super::Links;
use crate::model::{Detachment, Enhancement, Rule, RuleTable, Stratagem};
use std::fmt::Write;

/// `<header>` with the record's name and a line of facts about it.
fn header(name: &str, meta: &[String], rec: &Src) -> String {
    format!(
        "<header>{}<p class=\"meta\"{}>{}</p></header>",
        value("h1", "name", Some(name), rec),
        rec.title(),
        escape(&meta.join(" · "))
    )
}

/// A labelled value (`When: …`), nothing when the dataset has none.
fn field(label: &str, class: &str, v: Option<&str>, rec: &Src) -> String {
    let Some(v) = v else {
        return String::new();
    };
    format!(
        "<section class=\"{class}\"><h2>{}</h2>{}</section>",
        escape(label),
        paragraphs(v, rec)
    )
}

/// Links to the records `ids` of `folder` that have a page; nothing when none does.
fn links_section(heading: &str, folder: &'static str, ids: &[String], links: &Links) -> String {
    let items: Vec<String> = ids
        .iter()
        .filter_map(|id| {
            let href = links.href(folder, id)?;
            Some(format!(
                "<li>{}</li>",
                link(&format!("../{href}"), links.name(folder, id))
            ))
        })
        .collect();
    if items.is_empty() {
        return String::new();
    }
    format!("<h2>{}</h2><ul>{}</ul>", escape(heading), items.concat())
}

pub fn rule(r: &Rule, links: &Links) -> String {
    let srcs: Vec<Src> = r.occurrences.iter().map(Src::of_location).collect();
    let rec = srcs.first().cloned().unwrap_or_default();
    let name = r.name.as_deref().unwrap_or(&r.id);
    let mut meta = vec![r.edition.as_str().to_string(), r.kind.clone()];
    meta.extend(r.number.clone());
    meta.extend(r.faction.clone());
    let mut body = format!(
        "<article class=\"record rule\">{}",
        header(name, &meta, &rec)
    );
    body.push_str(&field("Flavour", "flavor", r.flavor.as_deref(), &rec));
    body.push_str(&format!(
        "<section class=\"text\">{}</section>",
        paragraphs(&r.text, &rec)
    ));
    body.push_str(&list_section("Summary", &r.bullets, &rec));
    body.push_str(&list_section("Examples", &r.examples, &rec));
    for t in &r.tables {
        body.push_str(&table(t, &rec));
    }
    let parent: Vec<String> = r.parent.iter().cloned().collect();
    body.push_str(&links_section("Part of", names::RULES, &parent, links));
    body.push_str(&links_section("Parts", names::RULES, &r.children, links));
    if !r.variants.is_empty() {
        let _ = write!(
            body,
            "<p class=\"variants\">Also printed in {} other wording(s).</p>",
            r.variants.len()
        );
    }
    body.push_str(&sources(&r.id, &srcs));
    body.push_str("</article>");
    page(name, "../", &body)
}

/// A table printed inside a rule; its cells carry the table's line.
fn table(t: &RuleTable, rec: &Src) -> String {
    let at = Src {
        line: t.line,
        ..rec.clone()
    };
    let mut out = String::from("<table class=\"rule-table\">");
    if !t.columns.is_empty() {
        out.push_str("<thead><tr>");
        for c in &t.columns {
            let _ = write!(out, "<th>{}</th>", escape(c));
        }
        out.push_str("</tr></thead>");
    }
    out.push_str("<tbody>");
    for row in &t.rows {
        out.push_str("<tr>");
        for c in row {
            out.push_str(&value("td", "", Some(c), &at));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

pub fn stratagem(s: &Stratagem) -> String {
    let srcs: Vec<Src> = s.sources.iter().map(Src::of_provenance).collect();
    let rec = Src::first(&s.sources);
    let mut meta = vec![s.edition.as_str().to_string()];
    meta.extend(s.cp.map(|c| format!("{c} CP")));
    meta.extend(s.group.clone());
    meta.extend(s.category.clone());
    let mut body = format!(
        "<article class=\"record stratagem\">{}",
        header(&s.name, &meta, &rec)
    );
    if let Some(cp) = s.cp {
        let _ = write!(
            body,
            "<p class=\"cp\">Cost: {} CP</p>",
            value("b", "cp-value", Some(&cp.to_string()), &rec)
        );
    }
    body.push_str(&field("Flavour", "flavor", s.flavor.as_deref(), &rec));
    body.push_str(&field("When", "when", s.when.as_deref(), &rec));
    body.push_str(&field("Target", "target", s.target.as_deref(), &rec));
    body.push_str(&field("Effect", "effect", s.effect.as_deref(), &rec));
    body.push_str(&field(
        "Restrictions",
        "restrictions",
        s.restrictions.as_deref(),
        &rec,
    ));
    body.push_str(&sources(&s.id, &srcs));
    body.push_str("</article>");
    page(&s.name, "../", &body)
}

pub fn enhancement(e: &Enhancement) -> String {
    let srcs: Vec<Src> = e.sources.iter().map(Src::of_provenance).collect();
    let rec = Src::first(&e.sources);
    let name = e.name.as_deref().unwrap_or(&e.id);
    let mut meta = vec![e.edition.as_str().to_string()];
    meta.extend(e.faction.clone());
    meta.extend(e.detachment.clone());
    let mut body = format!(
        "<article class=\"record enhancement\">{}",
        header(name, &meta, &rec)
    );
    if let Some(p) = e.points {
        let _ = write!(
            body,
            "<p class=\"points\">Points: {}</p>",
            value("b", "pts", Some(&p.to_string()), &rec)
        );
    }
    body.push_str(&field("Flavour", "flavor", e.flavor.as_deref(), &rec));
    body.push_str(&field("Rule", "text", Some(&e.text), &rec));
    body.push_str(&sources(&e.id, &srcs));
    body.push_str("</article>");
    page(name, "../", &body)
}

pub fn detachment(d: &Detachment, links: &Links) -> String {
    let srcs: Vec<Src> = d.sources.iter().map(Src::of_provenance).collect();
    let rec = Src::first(&d.sources);
    let mut meta = vec![d.edition.as_str().to_string()];
    meta.extend(d.faction.clone());
    meta.extend(d.points.map(|p| format!("{p} Detachment Points")));
    meta.extend(d.force_disposition.clone());
    meta.extend(d.unique_tag.as_ref().map(|t| format!("Unique: {t}")));
    let mut body = format!(
        "<article class=\"record detachment\">{}",
        header(&d.name, &meta, &rec)
    );
    body.push_str(&links_section("Rules", names::RULES, &d.rules, links));
    body.push_str(&links_section(
        "Enhancements",
        names::ENHANCEMENTS,
        &d.enhancements,
        links,
    ));
    body.push_str(&links_section(
        "Stratagems",
        names::STRATAGEMS,
        &d.stratagems,
        links,
    ));
    body.push_str(&sources(&d.id, &srcs));
    body.push_str("</article>");
    page(&d.name, "../", &body)
}
