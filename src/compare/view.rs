//! One reading of a datasheet as the comparisons see it: a [`View`], paths (`models[k].T`,
//! `weapons[k].keywords`, `points[2]`, `invulnerable_save`) → (exact value, value as `naming`
//! compares it), and a reading's [`Value`] at a path — printed, *absent* (the reading does not
//! print that field group, or sends the weapon to another card), *skip* (a sub-field of an item
//! it lacks), missing, or *covered* (a keyword printed split where another reading joins it).
//!
//! Owns the keys that pair records across readings: model profiles by [`name_key`] then
//! position (`model_keys`), weapons by [`name_key`] and the weapon rule (`pair_weapons`:
//! two names no reading has both of, one and the same profile, the same first word). Used by
//! the reconciliation (every source against the reference value) and the export crosscheck
//! (a dataset's datasheet against the export's); it must not decide categories, read files or
//! know unit names.

use super::names::{elsewhere_keys, name_key, printed_elsewhere};
use crate::model::{Datasheet, WeaponProfile};
use crate::source::Location;
use crate::text::fold::fold_for_compare;
use std::collections::{BTreeMap, BTreeSet};

/// A report field's path as (field group, item key, characteristic): `weapons[lasgun].AP` →
/// (`weapons`, `lasgun`, `AP`); `invulnerable_save` → (`invulnerable_save`, none, none).
pub fn split_path(path: &str) -> (&str, Option<&str>, Option<&str>) {
    let Some((top, rest)) = path.split_once('[') else {
        return (path, None, None);
    };
    match rest.split_once(']') {
        Some((item, sub)) => (
            top,
            Some(item),
            sub.strip_prefix('.').filter(|s| !s.is_empty()),
        ),
        None => (top, None, None),
    }
}

/// The report's item key for an item as a dataset path names it (`points[2 models]` → `2`,
/// `weapons[Storm bolter]` → `storm bolter`).
pub fn item_key(top: &str, item: &str) -> String {
    match top {
        "points" => item.split_whitespace().next().unwrap_or("").to_string(),
        _ => name_key(item),
    }
}

pub const MISSING: &str = "(missing)";
pub const PRESENT: &str = "present";

/// One reading's checks: path → (exact value, value as `naming` compares it).
#[derive(Debug, Default, Clone)]
pub struct View {
    pub checks: BTreeMap<String, (String, String)>,
    /// The top-level fields the reading prints (non-empty).
    pub prints: BTreeSet<&'static str>,
    /// The words of its keywords and ability names (split/joined spellings).
    pub words: BTreeMap<&'static str, BTreeSet<String>>,
    /// The keys of the weapons it says are printed on another card (`name_key`).
    pub elsewhere: Vec<String>,
    /// Item path (`weapons[lasgun]`) → the item's printed name (a model's, else its unit's)
    /// and where it was read (none for a keyword), for report labels and sources.
    pub printed: BTreeMap<String, (String, Option<Location>)>,
}

/// Keys of each reading's model profiles: [`name_key`] of the name when another reading names
/// a profile so; the others by position among them (`#1`, `#2`).
fn model_keys(ds: &[&Datasheet]) -> Vec<Vec<String>> {
    let keys: Vec<Vec<String>> = ds
        .iter()
        .map(|d| {
            d.models
                .iter()
                .map(|m| name_key(m.name.as_deref().unwrap_or("")))
                .collect()
        })
        .collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for ks in &keys {
        for k in ks.iter().collect::<BTreeSet<_>>() {
            *count.entry(k).or_default() += 1;
        }
    }
    // Keys two or more readings name, in the order they first appear.
    let mut shared: Vec<&str> = Vec::new();
    for k in keys.iter().flatten() {
        if count.get(k.as_str()).copied().unwrap_or(0) > 1 && !shared.contains(&k.as_str()) {
            shared.push(k);
        }
    }
    keys.iter()
        .map(|ks| {
            // A profile no other reading names takes, in order, a shared name this reading
            // lacks (a third source names it otherwise), else its position among the rest.
            let mut lacking = shared.iter().filter(|k| !ks.iter().any(|x| x == *k));
            let mut pos = 0;
            ks.iter()
                .map(|k| {
                    if count.get(k.as_str()).copied().unwrap_or(0) > 1 || ds.len() == 1 {
                        k.clone()
                    } else if let Some(s) = lacking.next() {
                        s.to_string()
                    } else {
                        pos += 1;
                        format!("#{pos}")
                    }
                })
                .collect()
        })
        .collect()
}

/// `items` sorted and joined by `, ` (a list compared as one value).
fn joined(items: impl Iterator<Item = String>) -> String {
    let mut items: Vec<String> = items.collect();
    items.sort();
    items.join(", ")
}

pub fn view(d: &Datasheet, model_keys: &[String], weapon_alias: &BTreeMap<String, String>) -> View {
    let mut v = View::default();
    let put = |v: &mut View, path: String, exact: String, loose: String| {
        v.checks.entry(path).or_insert((exact, loose));
    };
    // An item (a model profile, weapon, keyword or ability): its printed name and where it was
    // read, and its presence check (exact: its name as compared).
    let item = |v: &mut View, path: String, name: &str, exact: String, at: Option<&Location>| {
        (v.printed.entry(path.clone())).or_insert_with(|| (name.to_string(), at.cloned()));
        put(v, path, exact, PRESENT.into());
    };
    if !d.models.is_empty() {
        v.prints.insert("models");
    }
    for (m, k) in d.models.iter().zip(model_keys) {
        let unit = d.name.as_deref().unwrap_or_default();
        let name = m.name.as_deref().unwrap_or(unit);
        let exact = fold_for_compare(m.name.as_deref().unwrap_or(""));
        item(&mut v, format!("models[{k}]"), name, exact, Some(&m.at));
        for (c, val) in m.characteristics.iter() {
            let val = val.unwrap_or("").to_string();
            put(&mut v, format!("models[{k}].{c}"), val.clone(), val);
        }
    }
    if !d.weapons.is_empty() {
        v.prints.insert("weapons");
    }
    v.elsewhere = elsewhere_keys(d);
    for w in &d.weapons {
        let k = name_key(&w.name);
        let k = weapon_alias.get(&k).cloned().unwrap_or(k);
        let exact = fold_for_compare(&w.name);
        item(&mut v, format!("weapons[{k}]"), &w.name, exact, Some(&w.at));
        for (c, val) in w.characteristics.iter() {
            let val = val.unwrap_or("").to_string();
            put(&mut v, format!("weapons[{k}].{c}"), val.clone(), val);
        }
        let kws = joined(w.keywords.iter().map(|x| fold_for_compare(x)));
        put(&mut v, format!("weapons[{k}].keywords"), kws.clone(), kws);
    }
    let keywords: Vec<(&String, Option<&Location>)> =
        d.keywords.iter().map(|k| (k, None)).collect();
    let abilities = d.abilities.iter().map(|a| (&a.name, Some(&a.at))).collect();
    for (top, items) in [("keywords", keywords), ("abilities", abilities)] {
        if !items.is_empty() {
            v.prints.insert(top);
        }
        for (name, at) in items {
            let key = name_key(name);
            let words = v.words.entry(top).or_default();
            words.extend(key.split(' ').map(str::to_string));
            item(
                &mut v,
                format!("{top}[{key}]"),
                name,
                fold_for_compare(name),
                at,
            );
        }
    }
    if !d.faction_keywords.is_empty() {
        v.prints.insert("faction_keywords");
        let exact = joined(d.faction_keywords.iter().map(|x| fold_for_compare(x)));
        let loose = joined(d.faction_keywords.iter().map(|x| name_key(x)));
        put(&mut v, "faction_keywords".into(), exact, loose);
    }
    if !d.points.is_empty() {
        v.prints.insert("points");
    }
    for p in &d.points {
        let n = p.points.to_string();
        put(&mut v, format!("points[{}]", p.models), n.clone(), n);
    }
    v.prints.insert("invulnerable_save");
    let inv = d.invulnerable_save.clone().unwrap_or_else(|| "none".into());
    put(&mut v, "invulnerable_save".into(), inv.clone(), inv);
    v
}

/// A reading's value at a path ([`value_at`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// The source does not print the field.
    Absent,
    /// The sub-field of an item the source does not have (its presence check says so).
    Skip,
    One(String, String),
    /// Variants that differ: (variant's name, exact value).
    Split(Vec<(String, String)>),
}

pub fn value_at(v: &View, path: &str) -> Value {
    let (top, item, _) = split_path(path);
    if !v.prints.contains(top) {
        return Value::Absent;
    }
    if let Some((e, l)) = v.checks.get(path) {
        return Value::One(e.clone(), l.clone());
    }
    // A weapon the reading sends to another card for its profile: not printed here.
    if top == "weapons" && item.is_some_and(|i| printed_elsewhere(&v.elsewhere, i)) {
        return Value::Absent;
    }
    if path.contains("].") {
        return Value::Skip;
    }
    // A missing item; a keyword or ability whose every word the source prints is spelled
    // split or joined there.
    let covered = matches!(top, "keywords" | "abilities")
        && item.is_some_and(|item| {
            v.words
                .get(top)
                .is_some_and(|w| item.split(' ').all(|x| w.contains(x)))
        });
    let loose = if covered { PRESENT } else { MISSING };
    Value::One(MISSING.into(), loose.into())
}

/// One datasheet's readings keyed alike for a comparison: per side (a source, or one side of a
/// crosscheck), its views, each named (a variant's name; empty for a side's one reading).
pub struct Keyed {
    pub views: Vec<Vec<(String, View)>>,
    /// Each reading's model keys, in the order of the sides and their readings.
    pub model_keys: Vec<Vec<String>>,
    /// The weapon rule's renames over every reading.
    pub alias: BTreeMap<String, String>,
}

/// Keys every reading of `sides` alike (`model_keys` and the weapon rule over all of them)
/// and builds its [`View`].
pub fn keyed(sides: &[Vec<(String, &Datasheet)>]) -> Keyed {
    let all: Vec<&Datasheet> = sides.iter().flatten().map(|(_, d)| *d).collect();
    let model_keys = model_keys(&all);
    let sigs: Vec<BTreeMap<String, String>> = (all.iter())
        .map(|d| {
            (d.weapons.iter())
                .map(|w| (name_key(&w.name), weapon_signature(w)))
                .collect()
        })
        .collect();
    let alias = pair_weapons(&sigs);
    let mut keys = model_keys.iter();
    let views = (sides.iter())
        .map(|rs| {
            (rs.iter().zip(&mut keys))
                .map(|((n, d), k)| (n.clone(), view(d, k, &alias)))
                .collect()
        })
        .collect();
    Keyed {
        views,
        model_keys,
        alias,
    }
}

/// A side's value at a path: its one reading's, or its variants' when they agree (a
/// sub-field of an item some variants lack is compared among those that have it), else
/// [`Value::Split`].
pub fn side_value(views: &[(String, View)], path: &str) -> Value {
    let mut vals: Vec<(String, Value)> = (views.iter())
        .map(|(n, v)| (n.clone(), value_at(v, path)))
        .collect();
    if vals.iter().any(|(_, v)| *v != Value::Skip) {
        vals.retain(|(_, v)| *v != Value::Skip);
    }
    let first = (vals.first()).map_or(Value::Absent, |(_, v)| v.clone());
    if vals.iter().all(|(_, v)| *v == first) {
        return first;
    }
    Value::Split(
        vals.into_iter()
            .map(|(n, v)| match v {
                Value::One(e, _) => (n, e),
                _ => (n, "(not printed)".into()),
            })
            .collect(),
    )
}

/// The one comparison of readings: every path any side's views have, in order, with each
/// side's [`side_value`] there. The reconciliation and the crosscheck build their reports
/// from it; what agrees and why is theirs.
pub fn compare(sides: &[Vec<(String, View)>]) -> Vec<(String, Vec<Value>)> {
    let paths: BTreeSet<&String> = (sides.iter().flatten())
        .flat_map(|(_, v)| v.checks.keys())
        .collect();
    (paths.into_iter())
        .map(|p| (p.clone(), sides.iter().map(|s| side_value(s, p)).collect()))
        .collect()
}

/// A weapon's characteristics as the weapon rule compares them: its type and every
/// characteristic of its profile, in order (not its keywords, not its name).
fn weapon_signature(w: &WeaponProfile) -> String {
    let values = w.characteristics.iter();
    let values: String = values
        .map(|(n, v)| format!("|{n}={}", v.unwrap_or("")))
        .collect();
    format!("{:?}{values}", w.kind)
}

/// The weapon rule (see the module doc) over the weapon keys of one datasheet's readings:
/// `keys[r]` maps reading `r`'s weapon keys ([`name_key`]) to their signatures. Returns the
/// renames (key → the key it pairs with, the one that sorts first kept).
fn pair_weapons(keys: &[BTreeMap<String, String>]) -> BTreeMap<String, String> {
    // key → (readings that have it, its one signature if every reading agrees)
    let mut all: BTreeMap<&str, (BTreeSet<usize>, BTreeSet<&str>)> = BTreeMap::new();
    for (r, m) in keys.iter().enumerate() {
        for (k, sig) in m {
            let e = all.entry(k.as_str()).or_default();
            e.0.insert(r);
            e.1.insert(sig.as_str());
        }
    }
    let first_word = |k: &str| k.split(' ').next().unwrap_or("").to_string();
    let mut cands: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, (ra, sa)) in &all {
        for (b, (rb, sb)) in &all {
            if a == b
                || sa.len() != 1
                || sa != sb
                || !ra.is_disjoint(rb)
                || first_word(a) != first_word(b)
            {
                continue;
            }
            cands.entry(a).or_default().push(b);
        }
    }
    let mut out = BTreeMap::new();
    for (a, bs) in &cands {
        if let [b] = bs[..] {
            if cands.get(b).is_some_and(|back| back[..] == [*a]) && a > &b {
                out.insert(a.to_string(), b.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weapons_pair_only_one_to_one() {
        let m = |v: &[(&str, &str)]| -> BTreeMap<String, String> {
            v.iter()
                .map(|(k, s)| (k.to_string(), s.to_string()))
                .collect()
        };
        let a = m(&[("master-crafted bolter", "x"), ("bolt pistol", "p")]);
        let b = m(&[("master-crafted boltgun", "x"), ("bolt pistol", "p")]);
        let r = pair_weapons(&[a.clone(), b]);
        assert_eq!(
            r.get("master-crafted boltgun").map(String::as_str),
            Some("master-crafted bolter")
        );
        // Different characteristics: no pair.
        let c = m(&[("master-crafted boltgun", "y"), ("bolt pistol", "p")]);
        assert!(pair_weapons(&[a.clone(), c]).is_empty());
        // Two candidates: no pair.
        let d = m(&[
            ("master-crafted boltgun", "x"),
            ("master-crafted rifle", "x"),
        ]);
        assert!(pair_weapons(&[a, d]).is_empty());
    }
}
