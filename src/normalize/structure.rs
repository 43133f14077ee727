//! The dataset's structural rules beyond one record's schema (the 11th edition's fields): the
//! unit ranges of points tiers (`N114`: for one model count, starting at the 1st unit, never
//! overlapping), translation keys (`N115`: language tags, never English) and the rule hierarchy
//! (`N116`: `parent` and `children` symmetric, no rule its own ancestor, a child's `number`
//! extending its parent's) and one record per id in each file (`N117`).
//!
//! Pure: typed records in, [`Finding`]s out; `finish` (every ingest) and `lint` (a dataset on
//! disk) turn them into diagnostics located their own way. Linear in the records: the hierarchy
//! is walked once with colours, never rule by rule up to the root. Must not change a record.

use crate::diag::Code;
use crate::model::{
    Datasheet, Detachment, Enhancement, Erratum, Points, PointsOption, Rule, Stratagem,
    Translations,
};
use crate::source::Provenance;
use std::collections::{BTreeMap, HashMap};

/// One broken structural rule: the dataset file of the record, the code, the message (naming
/// the record), and where the record was read (its first source), when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub file: &'static str,
    pub code: Code,
    pub message: String,
    pub at: Option<(String, u32)>,
}

/// The records a dataset holds, by reference.
#[derive(Debug, Clone, Copy, Default)]
pub struct Records<'d> {
    pub datasheets: &'d [Datasheet],
    pub rules: &'d [Rule],
    pub stratagems: &'d [Stratagem],
    pub enhancements: &'d [Enhancement],
    pub detachments: &'d [Detachment],
    pub points: &'d [Points],
    pub errata: &'d [Erratum],
}

fn first(sources: &[Provenance]) -> Option<(String, u32)> {
    sources.first().map(|p| (p.file.clone(), p.line))
}

/// Every finding of `r`, in record-file order.
pub fn check(r: Records<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut push = |file: &'static str, code: Code, message: String, at: Option<(String, u32)>| {
        out.push(Finding {
            file,
            code,
            message,
            at,
        })
    };
    for d in r.datasheets {
        let at = first(&d.sources);
        for m in unit_ranges(&d.points) {
            push(
                crate::dataset::DATASHEETS,
                Code::NormUnitRanges,
                format!("datasheet {}: {m}", d.id),
                at.clone(),
            );
        }
        for a in &d.abilities {
            for m in translation_keys(&a.translations) {
                push(
                    crate::dataset::DATASHEETS,
                    Code::NormTranslationKey,
                    format!("datasheet {}, ability '{}': {m}", d.id, a.name),
                    at.clone(),
                );
            }
        }
    }
    for rule in r.rules {
        let at = rule.occurrences.first().map(|o| (o.file.clone(), o.line));
        for m in translation_keys(&rule.translations) {
            let message = format!("rule {}: {m}", rule.id);
            push(
                crate::dataset::RULES,
                Code::NormTranslationKey,
                message,
                at.clone(),
            );
        }
    }
    let mut rule_by_id: HashMap<&str, &Rule> = HashMap::new();
    for rule in r.rules {
        rule_by_id.entry(rule.id.as_str()).or_insert(rule);
    }
    for (id, m) in rule_hierarchy(r.rules) {
        let at = rule_by_id
            .get(id.as_str())
            .and_then(|x| x.occurrences.first())
            .map(|o| (o.file.clone(), o.line));
        let message = format!("rule {id}: {m}");
        push(crate::dataset::RULES, Code::NormRuleHierarchy, message, at);
    }
    let translated = r
        .stratagems
        .iter()
        .map(|s| {
            (
                crate::dataset::STRATAGEMS,
                "stratagem",
                &s.id,
                &s.translations,
                &s.sources,
            )
        })
        .chain(r.enhancements.iter().map(|e| {
            let file = crate::dataset::ENHANCEMENTS;
            (file, "enhancement", &e.id, &e.translations, &e.sources)
        }))
        .chain(r.detachments.iter().map(|d| {
            let file = crate::dataset::DETACHMENTS;
            (file, "detachment", &d.id, &d.translations, &d.sources)
        }));
    for (file, kind, id, t, sources) in translated {
        for m in translation_keys(t) {
            let message = format!("{kind} {id}: {m}");
            push(file, Code::NormTranslationKey, message, first(sources));
        }
    }
    let ids = [
        (crate::dataset::DATASHEETS, ids_of(r.datasheets, |d| &d.id)),
        (crate::dataset::RULES, ids_of(r.rules, |x| &x.id)),
        (crate::dataset::STRATAGEMS, ids_of(r.stratagems, |x| &x.id)),
        (
            crate::dataset::ENHANCEMENTS,
            ids_of(r.enhancements, |x| &x.id),
        ),
        (
            crate::dataset::DETACHMENTS,
            ids_of(r.detachments, |x| &x.id),
        ),
        (crate::dataset::POINTS, ids_of(r.points, |x| &x.id)),
        (crate::dataset::ERRATA, ids_of(r.errata, |x| &x.id)),
    ];
    for (file, ids) in ids {
        for id in repeated(ids) {
            push(
                file,
                Code::NormIdRepeated,
                format!("id {id} is held by more than one record"),
                None,
            );
        }
    }
    for p in r.points {
        for m in unit_ranges(&p.tiers) {
            let message = format!("points {}: {m}", p.id);
            push(
                crate::dataset::POINTS,
                Code::NormUnitRanges,
                message,
                first(&p.sources),
            );
        }
    }
    out
}

fn ids_of<T>(records: &[T], id: impl Fn(&T) -> &String) -> Vec<&str> {
    records.iter().map(|r| id(r).as_str()).collect()
}

/// The ids that occur more than once in `ids`, each once, sorted.
pub fn repeated(mut ids: Vec<&str>) -> Vec<&str> {
    ids.sort_unstable();
    let mut out: Vec<&str> = ids
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    out.dedup();
    out
}

/// What is wrong with the unit ranges of `tiers`: for each model count whose tiers carry a
/// range, the ranges start at the 1st unit, each ends at or after its start, and none overlaps
/// the next (only the last may be open); a tier without a range (every unit) beside ranged
/// tiers of its model count overlaps them.
pub fn unit_ranges(tiers: &[PointsOption]) -> Vec<String> {
    let mut by_models: BTreeMap<u32, Vec<&PointsOption>> = BTreeMap::new();
    for t in tiers {
        by_models.entry(t.models).or_default().push(t);
    }
    let mut out = Vec::new();
    for (models, ts) in by_models {
        let mut ranges: Vec<_> = ts.iter().filter_map(|t| t.units).collect();
        if ranges.is_empty() {
            continue;
        }
        let s = if models == 1 { "" } else { "s" };
        if ranges.len() < ts.len() {
            out.push(format!(
                "{models} model{s}: a tier for every unit beside tiers for some units"
            ));
        }
        ranges.sort_by_key(|r| (r.from, r.to));
        let show = |r: &crate::model::UnitRange| match r.to {
            Some(to) => format!("{}-{to}", r.from),
            None => format!("{}+", r.from),
        };
        if let Some(r) = ranges.first().filter(|r| r.from != 1) {
            out.push(format!(
                "{models} model{s}: units {} do not start at the 1st unit",
                show(r)
            ));
        }
        for r in ranges.iter().filter(|r| r.to.is_some_and(|to| to < r.from)) {
            out.push(format!(
                "{models} model{s}: units {} end before they start",
                show(r)
            ));
        }
        for w in ranges.windows(2) {
            if w[0].to.map_or(true, |to| to >= w[1].from) {
                out.push(format!(
                    "{models} model{s}: units {} and {} overlap",
                    show(&w[0]),
                    show(&w[1])
                ));
            }
        }
    }
    out
}

/// What is wrong with the keys of `t`: each a language tag (`de`, `pt-BR`), never English
/// (`en`, `en-GB`: the record's own fields).
pub fn translation_keys(t: &Translations) -> Vec<String> {
    let tag = |k: &str| {
        let mut parts = k.split('-');
        let lang = parts.next().unwrap_or("");
        (2..=3).contains(&lang.len())
            && lang.bytes().all(|b| b.is_ascii_lowercase())
            && parts
                .all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
    };
    t.keys()
        .filter_map(|k| {
            if !tag(k) {
                Some(format!("translation key '{k}' is not a language tag"))
            } else if k == "en" || k.starts_with("en-") {
                Some(format!(
                    "translation key '{k}' is English, the record's own text"
                ))
            } else {
                None
            }
        })
        .collect()
}

/// `(rule id, what is wrong)` for every break of the hierarchy: a parent that does not list
/// its child, a child that names another parent, a parent or child not in the dataset, a
/// number that does not extend the parent's, a rule that is its own ancestor.
pub fn rule_hierarchy(rules: &[Rule]) -> Vec<(String, String)> {
    let by_id: HashMap<&str, &Rule> = rules.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut out = Vec::new();
    for r in rules {
        if let Some(p) = r.parent.as_deref() {
            match by_id.get(p) {
                None => out.push((r.id.clone(), format!("parent {p} is not in the dataset"))),
                Some(parent) => {
                    if !parent.children.contains(&r.id) {
                        out.push((
                            r.id.clone(),
                            format!("parent {p} does not list it among its children"),
                        ));
                    }
                    if let (Some(n), Some(pn)) = (&r.number, &parent.number) {
                        let extends = n
                            .strip_prefix(pn.as_str())
                            .is_some_and(|rest| rest.starts_with('.') && rest.len() > 1);
                        if !extends {
                            out.push((
                                r.id.clone(),
                                format!("number {n} does not extend its parent's {pn}"),
                            ));
                        }
                    }
                }
            }
        }
        for c in &r.children {
            match by_id.get(c.as_str()) {
                None => out.push((r.id.clone(), format!("child {c} is not in the dataset"))),
                Some(child) if child.parent.as_deref() != Some(r.id.as_str()) => out.push((
                    r.id.clone(),
                    format!("child {c} does not name it as its parent"),
                )),
                Some(_) => {}
            }
        }
    }
    for id in cycles(rules, &by_id) {
        out.push((id, "is its own ancestor (a cycle of parents)".to_string()));
    }
    out
}

/// The rules on a cycle of `parent` links, each once, in rule order. Each rule is coloured once
/// (unseen → on the current path → done), so the walk is linear in the rules.
fn cycles(rules: &[Rule], by_id: &HashMap<&str, &Rule>) -> Vec<String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        OnPath,
        Done,
    }
    let mut colour: HashMap<&str, Colour> = HashMap::new();
    let mut on_cycle: Vec<&str> = Vec::new();
    for r in rules {
        let mut path: Vec<&str> = Vec::new();
        let mut at = Some(r.id.as_str());
        while let Some(id) = at {
            match colour.get(id) {
                Some(Colour::Done) => break,
                Some(Colour::OnPath) => {
                    if let Some(i) = path.iter().position(|p| *p == id) {
                        on_cycle.extend(&path[i..]);
                    }
                    break;
                }
                None => {
                    colour.insert(id, Colour::OnPath);
                    path.push(id);
                    at = by_id.get(id).and_then(|x| x.parent.as_deref());
                }
            }
        }
        for p in path {
            colour.insert(p, Colour::Done);
        }
    }
    let on: std::collections::HashSet<&str> = on_cycle.into_iter().collect();
    rules
        .iter()
        .filter(|r| on.contains(r.id.as_str()))
        .map(|r| r.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edition, Translation, UnitRange};
    use crate::source::Location;

    fn tier(models: u32, points: u32, units: Option<(u32, Option<u32>)>) -> PointsOption {
        PointsOption {
            models,
            points,
            at: Location::default(),
            units: units.map(|(from, to)| UnitRange { from, to }),
        }
    }

    #[test]
    fn an_id_held_by_two_records_is_found_once() {
        assert_eq!(repeated(vec!["b", "a", "b", "c", "b"]), vec!["b"]);
        assert!(repeated(vec!["a", "b"]).is_empty());
        let one = rule("10e:core:a", "", None, &[]);
        let rules = [one.clone(), rule("10e:core:b", "", None, &[]), one];
        let found = check(Records {
            rules: &rules,
            ..Records::default()
        });
        let n117: Vec<_> = found
            .iter()
            .filter(|f| f.code == Code::NormIdRepeated)
            .collect();
        assert_eq!(n117.len(), 1, "{found:#?}");
        assert!(n117[0].message.contains("10e:core:a"), "{found:#?}");
    }

    #[test]
    fn unit_ranges_start_at_one_and_do_not_overlap() {
        let good = [
            tier(4, 170, Some((1, Some(3)))),
            tier(4, 180, Some((4, None))),
            tier(5, 215, Some((1, Some(3)))),
            tier(5, 225, Some((4, None))),
            tier(1, 50, None),
        ];
        assert!(unit_ranges(&good).is_empty(), "{:?}", unit_ranges(&good));
        let overlapping = [
            tier(4, 170, Some((1, Some(3)))),
            tier(4, 180, Some((3, None))),
        ];
        assert_eq!(
            unit_ranges(&overlapping),
            ["4 models: units 1-3 and 3+ overlap"]
        );
        let late = [tier(4, 180, Some((2, None)))];
        assert_eq!(
            unit_ranges(&late),
            ["4 models: units 2+ do not start at the 1st unit"]
        );
        let open_first = [tier(1, 10, Some((1, None))), tier(1, 20, Some((4, None)))];
        assert_eq!(unit_ranges(&open_first).len(), 1);
        let mixed = [tier(1, 10, None), tier(1, 20, Some((1, Some(2))))];
        assert_eq!(unit_ranges(&mixed).len(), 1);
        let backwards = [tier(1, 10, Some((1, Some(0))))];
        assert_eq!(unit_ranges(&backwards).len(), 1);
    }

    #[test]
    fn translation_keys_are_language_tags_other_than_english() {
        let t = |k: &str| -> Translations {
            [(k.to_string(), Translation::default())]
                .into_iter()
                .collect()
        };
        for ok in ["de", "fr", "zh", "pt-BR", "ko"] {
            assert!(translation_keys(&t(ok)).is_empty(), "{ok}");
        }
        for bad in ["en", "en-GB", "German", "d", "de_DE", ""] {
            assert_eq!(translation_keys(&t(bad)).len(), 1, "{bad}");
        }
    }

    fn rule(id: &str, number: &str, parent: Option<&str>, children: &[&str]) -> Rule {
        Rule {
            id: id.into(),
            name: None,
            kind: "core".into(),
            edition: Edition::Eleventh,
            faction: None,
            flavor: None,
            text: String::new(),
            bullets: Vec::new(),
            examples: Vec::new(),
            occurrences: Vec::new(),
            tables: Vec::new(),
            variants: Vec::new(),
            number: Some(number.into()),
            parent: parent.map(str::to_string),
            children: children.iter().map(|c| c.to_string()).collect(),
            translations: Translations::new(),
        }
    }

    #[test]
    fn the_rule_hierarchy_is_symmetric_acyclic_and_numbered_by_its_parents() {
        let good = [
            rule("a", "05", None, &["b"]),
            rule("b", "05.01", Some("a"), &["c"]),
            rule("c", "05.01.02", Some("b"), &[]),
        ];
        assert!(
            rule_hierarchy(&good).is_empty(),
            "{:?}",
            rule_hierarchy(&good)
        );
        // a child whose parent does not list it
        let unlisted = [
            rule("a", "05", None, &[]),
            rule("b", "05.01", Some("a"), &[]),
        ];
        assert_eq!(
            rule_hierarchy(&unlisted),
            [(
                "b".to_string(),
                "parent a does not list it among its children".to_string()
            )]
        );
        // a parent listing a child that names no parent
        let orphan = [rule("a", "05", None, &["b"]), rule("b", "05.01", None, &[])];
        assert_eq!(rule_hierarchy(&orphan).len(), 1);
        // a number that does not extend the parent's
        let renumbered = [
            rule("a", "05", None, &["b"]),
            rule("b", "050.1", Some("a"), &[]),
        ];
        assert_eq!(rule_hierarchy(&renumbered).len(), 1);
        // a cycle: both rules reported, once each
        let cycle = [
            rule("a", "1", Some("b"), &["b"]),
            rule("b", "1.1", Some("a"), &["a"]),
        ];
        let found = rule_hierarchy(&cycle);
        let cyclic: Vec<&str> = found
            .iter()
            .filter(|(_, m)| m.contains("own ancestor"))
            .map(|(id, _)| id.as_str())
            .collect();
        assert_eq!(cyclic, ["a", "b"]);
    }
}
