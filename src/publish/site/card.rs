//! A datasheet's page, drawn as a card: the characteristics of each model, the ranged and
//! melee weapons with their keywords, abilities, invulnerable save, points tiers, keywords and
//! faction keywords, every value with its source as a tooltip.
//!
//! Owns the card's HTML. Must not change a value: each is shown as the dataset has it.

use super::html::{escape, list_section, paragraphs, sources, value, Src};
use super::names;
use super::Links;
use crate::model::{Ability, Datasheet, ModelProfile, PointsOption, WeaponProfile, WeaponType};
use std::fmt::Write;

/// The page of `d` (its path is `names::page(names::DATASHEETS, &d.id)`).
pub fn page(d: &Datasheet, links: &Links) -> String {
    let rec = Src::first(&d.sources);
    let name = d.name.as_deref().unwrap_or(&d.id);
    let mut body = format!("<article class=\"card\" id=\"card\">{}", header(d, &rec));
    body.push_str(&models(&d.models, &rec));
    body.push_str(&invulnerable(d, &rec));
    body.push_str(&weapons(d, WeaponType::Ranged, &rec));
    body.push_str(&weapons(d, WeaponType::Melee, &rec));
    body.push_str(&abilities(&d.abilities, &rec, links));
    body.push_str(&named_texts(d, &rec));
    body.push_str(&points(&d.points, &rec));
    body.push_str(&keywords("Keywords", "keywords", &d.keywords, &rec));
    body.push_str(&keywords(
        "Faction keywords",
        "faction-keywords",
        &d.faction_keywords,
        &rec,
    ));
    body.push_str(&list_section("Unit composition", &d.unit_composition, &rec));
    body.push_str(&list_section("Wargear options", &d.wargear_options, &rec));
    body.push_str(&list_section("Equipment", &d.equipment, &rec));
    body.push_str(&list_section("Leader", &d.leads, &rec));
    body.push_str(&stratagems(&d.stratagems, links));
    let srcs: Vec<Src> = d.sources.iter().map(Src::of_provenance).collect();
    body.push_str(&sources(&d.id, &srcs));
    body.push_str("</article>");
    super::html::page(name, "../", &body)
}

fn header(d: &Datasheet, rec: &Src) -> String {
    let mut meta = vec![d.edition.as_str().to_string()];
    meta.extend(d.faction.clone());
    meta.extend(d.base_size.as_ref().map(|b| format!("base {b}")));
    meta.extend(d.power_rating.map(|p| format!("Power {p}")));
    if d.legends {
        meta.push("Legends".to_string());
    }
    format!(
        "<header>{}<p class=\"meta\"{}>{}</p></header>",
        value("h1", "name", Some(d.name.as_deref().unwrap_or(&d.id)), rec),
        rec.title(),
        escape(&meta.join(" · "))
    )
}

/// The characteristics table: one row per model, the edition's columns in order.
fn models(models: &[ModelProfile], rec: &Src) -> String {
    let Some(first) = models.first() else {
        return String::new();
    };
    let cols: Vec<&str> = first.characteristics.names().collect();
    let mut out = String::from("<table class=\"profiles\"><thead><tr><th>Model</th>");
    for c in &cols {
        let _ = write!(out, "<th>{}</th>", escape(c));
    }
    out.push_str("</tr></thead><tbody>");
    for m in models {
        let at = Src::own_or(&m.at, rec);
        out.push_str("<tr>");
        out.push_str(&value("td", "model", m.name.as_deref(), &at));
        for c in &cols {
            out.push_str(&value("td", "", m.get(c), &at));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn invulnerable(d: &Datasheet, rec: &Src) -> String {
    let Some(sv) = &d.invulnerable_save else {
        return String::new();
    };
    let cond = d
        .invulnerable_save_condition
        .as_deref()
        .map(|c| format!(" <span class=\"condition\">{}</span>", escape(c)))
        .unwrap_or_default();
    format!(
        "<p class=\"invulnerable\">Invulnerable save {}{cond}</p>",
        value("b", "invulnerable-save", Some(sv), rec)
    )
}

/// The weapons of one type, with the characteristic columns they have (in their order).
fn weapons(d: &Datasheet, kind: WeaponType, rec: &Src) -> String {
    let ws: Vec<&WeaponProfile> = d.weapons.iter().filter(|w| w.kind == kind).collect();
    let Some(first) = ws.first() else {
        return String::new();
    };
    let (heading, class) = match kind {
        WeaponType::Ranged => ("Ranged weapons", "ranged"),
        WeaponType::Melee => ("Melee weapons", "melee"),
    };
    let cols: Vec<&str> = first.characteristics.names().collect();
    let mut out =
        format!("<h2>{heading}</h2><table class=\"weapons {class}\"><thead><tr><th>Weapon</th>");
    for c in &cols {
        let _ = write!(out, "<th>{}</th>", escape(column_label(c, kind)));
    }
    out.push_str("<th>Keywords</th></tr></thead><tbody>");
    for w in ws {
        out.push_str(&weapon_row(w, &cols, rec));
    }
    out.push_str("</tbody></table>");
    out
}

/// A characteristic's column heading as cards print it (10th edition's `skill`: BS or WS).
fn column_label(c: &str, kind: WeaponType) -> &str {
    match (c, kind) {
        ("skill", WeaponType::Ranged) => "BS",
        ("skill", WeaponType::Melee) => "WS",
        ("range", _) => "Range",
        ("weapon_type", _) => "Type",
        ("special_rule", _) => "Special rules",
        _ => c,
    }
}

fn weapon_row(w: &WeaponProfile, cols: &[&str], rec: &Src) -> String {
    let at = Src::own_or(&w.at, rec);
    let mut out = String::from("<tr>");
    out.push_str(&value("td", "weapon", Some(&w.name), &at));
    for c in cols {
        out.push_str(&value("td", "", w.get(c), &at));
    }
    let kw = w.keywords.join(", ");
    out.push_str(&value("td", "weapon-keywords", Some(&kw), &at));
    out.push_str("</tr>");
    out
}

fn abilities(abilities: &[Ability], rec: &Src, links: &Links) -> String {
    if abilities.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2>Abilities</h2><dl class=\"abilities\">");
    for a in abilities {
        out.push_str(&ability(a, rec, links));
    }
    out.push_str("</dl>");
    out
}

fn ability(a: &Ability, rec: &Src, links: &Links) -> String {
    let at = Src::own_or(&a.at, rec);
    let mut name = a.name.clone();
    if let Some(p) = &a.parameter {
        name = format!("{name} {p}");
    }
    let tags = if a.tags.is_empty() {
        String::new()
    } else {
        format!(
            " <span class=\"tags\">[{}]</span>",
            escape(&a.tags.join(", "))
        )
    };
    let dt = match a
        .rule_id
        .as_deref()
        .and_then(|r| links.href(names::RULES, r))
    {
        Some(href) => format!(
            "<dt class=\"{}\"{}><a href=\"../{}\">{}</a>{tags}</dt>",
            escape(&a.group),
            at.title(),
            escape(&href),
            escape(&name)
        ),
        None => format!(
            "<dt class=\"{}\"{}>{}{tags}</dt>",
            escape(&a.group),
            at.title(),
            escape(&name)
        ),
    };
    let dd = a
        .text
        .as_deref()
        .map(|t| format!("<dd>{}</dd>", paragraphs(t, &at)))
        .unwrap_or_default();
    dt + &dd
}

/// DAMAGED and the other named rules blocks.
fn named_texts(d: &Datasheet, rec: &Src) -> String {
    let mut out = String::new();
    for t in d.damaged.iter().chain(&d.special_rules) {
        let at = Src::own_or(&t.at, rec);
        let _ = write!(
            out,
            "<section class=\"named-text\">{}{}</section>",
            value("h3", "", Some(&t.name), &at),
            paragraphs(&t.text, &at)
        );
    }
    out
}

fn points(tiers: &[PointsOption], rec: &Src) -> String {
    if tiers.is_empty() {
        return String::new();
    }
    let units = tiers.iter().any(|t| t.units.is_some());
    let mut out = String::from(
        "<h2>Points</h2><table class=\"points\"><thead><tr><th>Models</th><th>Points</th>",
    );
    if units {
        out.push_str("<th>Units</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for t in tiers {
        let at = Src::own_or(&t.at, rec);
        out.push_str("<tr>");
        out.push_str(&value("td", "models", Some(&t.models.to_string()), &at));
        out.push_str(&value("td", "pts", Some(&t.points.to_string()), &at));
        if units {
            let u = t.units.map(|u| match u.to {
                Some(to) => format!("{}–{to}", u.from),
                None => format!("{}+", u.from),
            });
            out.push_str(&value("td", "units", u.as_deref(), &at));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn keywords(heading: &str, class: &str, kw: &[String], rec: &Src) -> String {
    if kw.is_empty() {
        return String::new();
    }
    format!(
        "<h2>{heading}</h2>{}",
        value("p", class, Some(&kw.join(", ")), rec)
    )
}

fn stratagems(ids: &[String], links: &Links) -> String {
    let items: Vec<String> = ids
        .iter()
        .filter_map(|id| {
            let href = links.href(names::STRATAGEMS, id)?;
            Some(format!(
                "<li>{}</li>",
                super::html::link(&format!("../{href}"), links.name(names::STRATAGEMS, id))
            ))
        })
        .collect();
    if items.is_empty() {
        return String::new();
    }
    format!("<h2>Stratagems</h2><ul>{}</ul>", items.concat())
}
