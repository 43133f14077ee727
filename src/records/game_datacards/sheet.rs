//! One game-datacards datasheet object through [`SheetBuilder`]: profiles, weapons,
//! abilities (with their translations), lists, points tiers (with `additionalCost` as unit
//! ranges). Must not: read a file's top level (the parent's), take a text from a language other
//! than English.

use super::{list, text, whole};
use crate::diag::{Code, Diagnostic};
use crate::edition::Edition;
use crate::extract::sheet::{Finish, SheetBuilder};
use crate::model::{
    Datasheet, NamedText, PointsOption, Translation, Translations, UnitRange, WeaponType,
};
use crate::source::{Location, Provenance, SourceFile};
use serde_json::{Map, Value};

/// What every datasheet of one file shares.
pub(super) struct Cx<'a> {
    pub(super) file: &'a SourceFile,
    /// The datasheet's line.
    pub(super) line: u32,
    pub(super) edition: Edition,
}

impl Cx<'_> {
    fn at(&self) -> Location {
        Location::at_line(self.file.path.clone(), self.line)
    }
}

/// One datasheet object through the builder.
pub(super) fn datasheet(
    cx: &Cx,
    obj: &Map<String, Value>,
    faction: Option<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Datasheet {
    let mut missing = Vec::new();
    let mut b = SheetBuilder::new(cx.edition);
    b.source(Provenance::at_line(
        cx.file.path.clone(),
        cx.line,
        cx.file.sha256.clone(),
    ));
    if let Some(n) = obj.get("name").and_then(|n| text(n, &mut missing)) {
        b.set_name(n);
    }
    for s in list(obj, "stats") {
        let Some(s) = s.as_object() else { continue };
        let name = s.get("name").and_then(|n| text(n, &mut missing));
        b.model_fields(name, cx.at(), |_, f| field(s, &f.to_lowercase()));
    }
    weapons(cx, &mut b, obj, &mut missing);
    abilities(cx, &mut b, obj, &mut missing);
    lists(&mut b, obj, &mut missing);
    points(cx, &mut b, obj, diagnostics);
    let name = b.name.clone().unwrap_or_default();
    for langs in missing {
        diagnostics.push(
            Diagnostic::new(
                Code::GdcNoEnglish,
                format!("'{name}': a text without `en` (languages: {langs}); left out"),
            )
            .at(&cx.file.path, cx.line),
        );
    }
    let finish = Finish {
        faction,
        file: &cx.file.path,
        line: cx.line,
        link_references: true,
        publication: None,
    };
    b.finish(finish, diagnostics)
}

/// Keywords, composition, attach lists, base size, loadout and wargear lines.
fn lists(b: &mut SheetBuilder, obj: &Map<String, Value>, missing: &mut Vec<String>) {
    for k in list(obj, "keywords") {
        if let Some(k) = text(k, missing) {
            b.keywords.push(k);
        }
    }
    for k in list(obj, "factions") {
        if let Some(k) = text(k, missing) {
            b.faction_keywords.push(k);
        }
    }
    for c in list(obj, "composition") {
        if let Some(c) = text(c, missing) {
            b.composition(strip_bold(&c));
        }
    }
    for u in attach_list(obj.get("leader"), missing) {
        b.can_lead(u);
    }
    if obj.get("support").is_some() {
        b.supports = attach_list(obj.get("support"), missing);
    }
    if let Some(size) = obj.get("baseSize").and_then(|v| text(v, missing)) {
        b.set_base_size(crate::extract::sheet::value(&size));
    }
    if let Some(l) = obj.get("loadout").and_then(|v| text(v, missing)) {
        if !l.is_empty() {
            b.equipment_line(strip_bold(&l));
        }
    }
    for w in list(obj, "wargear") {
        if let Some(w) = text(w, missing).filter(|w| !w.is_empty()) {
            b.wargear_option(w);
        }
    }
}

/// A datasheet's text (an ability's, the damaged box's, the invulnerable save's note) as the
/// house plain text ([`text::plain`]: Markdown's `**X**` and `■` items, HTML): the one place
/// the sheet's texts lose their markup.
fn prose(v: &Value, missing: &mut Vec<String>) -> Option<String> {
    text(v, missing).map(|t| text::plain(&t))
}

/// `**BOLD**` marks removed.
fn strip_bold(t: &str) -> String {
    t.replace("**", "").trim().to_string()
}

/// The units a leader or support text lists (`… following units: ■ **A** ■ **B**`): each item
/// after a `■`, its bold marks removed; after the last item's name (its capitals) the text
/// goes on in prose in 10th edition's files, which is cut.
fn attach_list(v: Option<&Value>, missing: &mut Vec<String>) -> Vec<String> {
    let Some(t) = v.and_then(|v| text(v, missing)) else {
        return Vec::new();
    };
    t.split('■')
        .skip(1)
        .filter_map(|item| {
            let item = strip_bold(item);
            let name: Vec<&str> = item
                .split_whitespace()
                .take_while(|w| !w.chars().any(char::is_lowercase))
                .collect();
            (!name.is_empty()).then(|| name.join(" "))
        })
        .collect()
}

/// The ranged and melee weapons, one profile each.
fn weapons(cx: &Cx, b: &mut SheetBuilder, obj: &Map<String, Value>, missing: &mut Vec<String>) {
    for (key, kind) in [
        ("rangedWeapons", WeaponType::Ranged),
        ("meleeWeapons", WeaponType::Melee),
    ] {
        for w in list(obj, key) {
            let Some(w) = w.as_object() else { continue };
            for p in list(w, "profiles") {
                let Some(p) = p.as_object() else { continue };
                let Some(name) = p.get("name").and_then(|n| text(n, missing)) else {
                    continue;
                };
                let keywords = list(p, "keywords")
                    .iter()
                    .filter_map(|k| text(k, missing))
                    .filter(|k| !k.is_empty())
                    .collect();
                b.weapon_fields(name, keywords, kind, cx.at(), |_, f| {
                    let key = match f {
                        "A" => "attacks",
                        "S" => "strength",
                        "D" => "damage",
                        "BS" | "WS" => "skill",
                        other => return field(p, &other.to_lowercase()),
                    };
                    field(p, key)
                });
            }
        }
    }
}

/// A characteristic's printed value.
fn field(p: &Map<String, Value>, key: &str) -> Option<String> {
    p.get(key)
        .and_then(|v| text(v, &mut Vec::new()))
        .and_then(|v| crate::extract::sheet::value(&v))
}

/// Core and faction abilities (references), the others (name and text), the invulnerable
/// save.
fn abilities(cx: &Cx, b: &mut SheetBuilder, obj: &Map<String, Value>, missing: &mut Vec<String>) {
    let Some(a) = obj.get("abilities").and_then(Value::as_object) else {
        return;
    };
    for group in ["core", "faction"] {
        for r in list(a, group) {
            let name = match r {
                Value::Object(o) => o.get("name").and_then(|n| text(n, missing)),
                other => text(other, missing),
            };
            if let Some(n) = name {
                b.reference(n, group, None, cx.at());
            }
        }
    }
    for (key, group) in [
        ("other", "abilities"),
        ("special", "special"),
        ("wargear", "wargear"),
    ] {
        for r in list(a, key) {
            let Some(o) = r.as_object() else { continue };
            let Some(name) = o.get("name").and_then(|n| text(n, missing)) else {
                continue;
            };
            let body = o
                .get("description")
                .and_then(|d| prose(d, missing))
                .unwrap_or_default();
            if key == "special" && name == "Support" {
                b.supports = attach_list(o.get("description"), missing);
            }
            b.ability(name, group, body, cx.at());
            if let Some(last) = b.abilities.last_mut() {
                last.translations = translations(o.get("name"), o.get("description"));
            }
        }
    }
    if let Some(d) = a.get("damaged").and_then(Value::as_object) {
        let shown = d.get("showDamagedAbility").and_then(Value::as_bool);
        let range = d.get("range").and_then(|v| text(v, missing));
        let body = d.get("description").and_then(|v| prose(v, missing));
        if let (Some(range), Some(body), true) = (range, body, shown != Some(false)) {
            if !range.is_empty() {
                b.damaged_box(NamedText {
                    name: format!("DAMAGED: {range}"),
                    text: body,
                    at: cx.at(),
                });
            }
        }
    }
    if let Some(inv) = a.get("invul").and_then(Value::as_object) {
        let value = inv
            .get("value")
            .and_then(|v| text(v, missing))
            .filter(|v| !v.is_empty());
        let info = inv
            .get("info")
            .and_then(|v| prose(v, missing))
            .filter(|v| !v.is_empty());
        if value.is_some() {
            b.invulnerable_save(value, info);
        }
    }
}

/// The points tiers; with `additionalCost {cost, afterSelections: N}` each tier is priced for
/// units 1..=N and again, plus the cost, from unit N+1 on.
fn points(
    cx: &Cx,
    b: &mut SheetBuilder,
    obj: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut tiers = Vec::new();
    for p in list(obj, "points") {
        let Some(p) = p.as_object() else { continue };
        let active = p.get("active").and_then(Value::as_bool).unwrap_or(true);
        let scoped = ["keyword", "detachment"]
            .iter()
            .any(|k| p.get(*k).is_some_and(|v| !v.is_null()));
        match (whole(p.get("models")), whole(p.get("cost"))) {
            (Some(models), Some(points)) if active && !scoped => tiers.push((models, points)),
            _ => {}
        }
    }
    tiers.sort_unstable();
    tiers.dedup();
    let mut doubled: Vec<u32> = tiers
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[0].0)
        .collect();
    // Three costs for one model count give two windows: one `G005` each count.
    doubled.dedup();
    if !doubled.is_empty() {
        let name = b.name.clone().unwrap_or_default();
        for m in &doubled {
            let costs: Vec<String> = tiers
                .iter()
                .filter(|t| t.0 == *m)
                .map(|t| t.1.to_string())
                .collect();
            diagnostics.push(
                Diagnostic::new(
                    Code::GdcTiersAmbiguous,
                    format!(
                        "'{name}': {m} models cost {} in the app's points, with nothing to tell them apart; tier dropped",
                        costs.join(" and ")
                    ),
                )
                .at(&cx.file.path, cx.line),
            );
        }
        tiers.retain(|t| !doubled.contains(&t.0));
    }
    let extra = obj.get("additionalCost").and_then(Value::as_object);
    let extra = extra.and_then(|e| Some((whole(e.get("cost"))?, whole(e.get("afterSelections"))?)));
    if let Some((cost, after)) = extra.filter(|&(_, after)| after >= 1) {
        for &(models, p) in &tiers {
            b.points.push(tier(cx, models, p, 1, Some(after)));
        }
        for &(models, p) in &tiers {
            b.points
                .push(tier(cx, models, p.saturating_add(cost), after + 1, None));
        }
        return;
    }
    if extra.is_some() {
        diagnostics.push(
            Diagnostic::new(
                Code::GdcAdditionalCostUnread,
                "additionalCost with afterSelections 0 (no unit before the cost applies): not applied; the base tiers are given",
            )
            .at(&cx.file.path, cx.line),
        );
    }
    for &(models, p) in &tiers {
        b.points(models, p, cx.at());
    }
}

fn tier(cx: &Cx, models: u32, points: u32, from: u32, to: Option<u32>) -> PointsOption {
    PointsOption {
        models,
        points,
        at: cx.at(),
        units: Some(UnitRange { from, to }),
    }
}

/// The other languages of a name and a text given as language maps (`de`, `fr`, …; never
/// `en`, which is the record's own fields): the contract's `translations`.
fn translations(name: Option<&Value>, body: Option<&Value>) -> Translations {
    let mut out = Translations::new();
    for (v, is_name) in [(name, true), (body, false)] {
        let Some(Value::Object(m)) = v else { continue };
        for (lang, t) in m {
            let Some(t) = t.as_str().map(str::trim).filter(|t| !t.is_empty()) else {
                continue;
            };
            if lang == "en" {
                continue;
            }
            let e: &mut Translation = out.entry(lang.clone()).or_default();
            if is_name {
                e.name = Some(t.to_string());
            } else {
                e.text = Some(text::plain(t));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three costs for one model count: one `G005` (the pipeline drops identical diagnostics,
    /// so only the reader shows a repeat).
    #[test]
    fn three_costs_for_one_count_are_one_g005() {
        let file = SourceFile::new("game-datacards/x.json", Vec::new());
        let cx = Cx {
            file: &file,
            line: 1,
            edition: Edition::Eleventh,
        };
        let obj: Map<String, Value> = serde_json::from_str(
            r#"{"points": [{"cost": "80", "models": "3"}, {"cost": "85", "models": "3"},
                           {"cost": "90", "models": "3"}, {"cost": "160", "models": "6"}]}"#,
        )
        .unwrap_or_default();
        let mut b = SheetBuilder::new(cx.edition);
        let mut diagnostics = Vec::new();
        points(&cx, &mut b, &obj, &mut diagnostics);
        let g005 = diagnostics.iter().filter(|d| d.code == "G005").count();
        assert_eq!(g005, 1, "{diagnostics:?}");
        assert_eq!(b.points.iter().map(|p| p.models).collect::<Vec<_>>(), [6]);
    }
}
