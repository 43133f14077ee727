//! One matched pair — a dataset datasheet and the datasheet the export's record source built —
//! compared through the comparison core's view of a reading (`compare::view`, the one the
//! reconciliation compares sources with), and the rule that puts every disagreement in a
//! category (see `docs/crosscheck.md`):
//!
//! * `naming`: the view pairs the two things under one key and only their names differ (case,
//!   plural, the weapon rule, a keyword printed split) — for a model paired by position, when
//!   the names are `compare::names::similar` or one side names the model after its unit;
//! * `changed_since_export`: both values are well-formed canonical values of the field (the
//!   dataset's 10th-edition grammars; point costs), the pair otherwise agrees on at least
//!   [`CLOSE_MATCH`] of its fields, and the field is points, a characteristic, the keywords of
//!   a weapon whose characteristics changed too, or a weapon or unit size present on one side
//!   only while the other side has one the first lacks (the list changed as a whole);
//! * `extraction_error`: everything else.
//!
//! What only the export carries (its ids, the line of each points row, footnote stars, points
//! rows that price no unit size) comes with the pair as [`ExportFacts`]; the conditional
//! invulnerable save is the built datasheet's `invulnerable_save_condition`. It must not read
//! files, know unit names, or decide which export datasheet a dataset datasheet is (that is
//! `crosscheck::crosscheck`).

use super::export::{ExportFacts, COSTS, KEYWORDS};
use super::report::Kind;
use crate::compare::names::{name_key, similar};
use crate::compare::view::{compare as compare_readings, keyed, split_path, Value, MISSING};
use crate::compare::Category;
use crate::model::Datasheet;
use crate::normalize::{canonicalize, contract, Outcome};
use crate::source::Location;
use crate::text::fold::fold_name_key;
use std::collections::{BTreeMap, BTreeSet};

/// Share of a datasheet pair's fields that must agree for a difference of well-formed values to
/// count as a change since the export rather than an extraction error.
pub const CLOSE_MATCH: f64 = 0.75;

/// How a disagreeing pair of values relates, before the category is decided.
#[derive(Debug, Clone, PartialEq)]
enum Hint {
    /// The same thing, named differently.
    Naming(String),
    /// Both sides have the value.
    Value { well_formed: bool, note: String },
    /// The keywords of a weapon differ.
    WeaponKeywords,
    /// Present on one side only while the other side has one the first lacks.
    ListChanged(String),
    /// Anything else: an extraction error, for the reason given.
    Other(String),
}

/// One compared field.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub kind: Kind,
    pub field: String,
    pub aspect: String,
    pub ours: Option<String>,
    pub theirs: Option<String>,
    pub agree: bool,
    hint: Hint,
    /// Line of our source, when more precise than the datasheet's (a weapon profile row).
    pub our_line: Option<u32>,
    pub export_source: Option<String>,
}

/// All checks of one datasheet pair, and what of the export was not compared.
#[derive(Debug, Clone, Default)]
pub struct Pair {
    pub checks: Vec<Check>,
    pub not_compared: BTreeMap<String, usize>,
}

impl Pair {
    pub fn compared(&self) -> usize {
        self.checks.len()
    }
    pub fn agreed(&self) -> usize {
        self.checks.iter().filter(|c| c.agree).count()
    }
    /// Agreed share of the compared fields (1 when nothing was compared).
    pub fn ratio(&self) -> f64 {
        if self.checks.is_empty() {
            1.0
        } else {
            self.agreed() as f64 / self.compared() as f64
        }
    }
}

/// A characteristic value is well-formed: its 10th-edition grammar (`schemas/characteristics.yaml`)
/// takes it as it is or respells it.
fn well_formed(grammar: &str, v: &str) -> bool {
    contract()
        .grammar("10e", grammar)
        .is_some_and(|g| !matches!(canonicalize(g, v), Outcome::Broken { .. }))
}

/// An item's printed name and where it was read (`View::printed`).
type Printed = (String, Option<Location>);

/// Compares `ours` with `theirs`, the datasheet the export's record source built, whose
/// export-only facts are `facts`.
pub fn compare(ours: &Datasheet, theirs: &Datasheet, facts: &ExportFacts) -> Pair {
    let (ours, theirs) = (&typed(ours), &typed(theirs));
    let k = keyed(&[vec![(String::new(), ours)], vec![(String::new(), theirs)]]);
    let (vo, vt) = (&k.views[0][0].1, &k.views[1][0].1);
    let table_line = |file: &str| {
        theirs
            .sources
            .iter()
            .find(|p| p.file.ends_with(file))
            .map(|p| format!("{}:{}", p.file, p.line))
    };
    let mut pair = Pair::default();
    for (k, n) in &facts.not_compared {
        *pair.not_compared.entry(k.to_string()).or_default() += n;
    }
    // Weapon-profile footnotes and untitled notes (the export's rows of other types, which its
    // record source files as special rules) that we did not pick up are not compared.
    let ours_names: BTreeSet<String> = (ours.abilities.iter().map(|a| &a.name))
        .chain(ours.special_rules.iter().map(|r| &r.name))
        .map(|n| name_key(n))
        .collect();
    let skipped = (theirs.special_rules.iter())
        .filter(|r| !ours_names.contains(&name_key(&r.name)))
        .count();
    if skipped > 0 {
        pair.not_compared.insert(
            "weapon-profile footnotes and untitled notes among the export's abilities".into(),
            skipped,
        );
    }
    // A field group the export prints and we do not: one disagreement, not one per value.
    for &g in vt.prints.difference(&vo.prints) {
        pair.checks.push(Check {
            kind: kind_of(g),
            field: g.into(),
            aspect: "presence".into(),
            ours: None,
            theirs: Some(g.into()),
            agree: false,
            hint: Hint::Other(format!(
                "no {g} on our side (our source may not print them)"
            )),
            our_line: None,
            export_source: None,
        });
    }
    let compared = compare_readings(&k.views);
    // Items one side has and the other lacks, per group: a list that differs as a whole.
    let lacking = |side: usize, group: &str| {
        compared.iter().any(|(p, vals)| {
            split_path(p).0 == group
                && split_path(p).2.is_none()
                && matches!(&vals[side], Value::One(e, _) if e == MISSING)
        })
    };
    let lacks = [lacking(0, "weapons"), lacking(1, "weapons")];
    let lacks_size = [lacking(0, "points"), lacking(1, "points")];
    for (path, vals) in &compared {
        let (group, item, sub) = split_path(path);
        let [Value::One(eo, lo), Value::One(et, lt)] = &vals[..] else {
            // Not printed by one side (the group, or a weapon sent to another card), or a
            // sub-field of an item one side lacks (its presence check says so).
            continue;
        };
        let item_path = item.map(|i| format!("{group}[{i}]"));
        let printed =
            |m: &BTreeMap<String, Printed>| item_path.as_ref().and_then(|p| m.get(p)).cloned();
        let (po, pt) = (printed(&vo.printed), printed(&vt.printed));
        let label = match (group, item) {
            ("points", Some(n)) => format!("{n} model{}", if n == "1" { "" } else { "s" }),
            (_, Some(i)) => pt.as_ref().or(po.as_ref()).map_or(i, |p| &p.0).to_string(),
            _ => String::new(),
        };
        let field = match (item, sub) {
            (None, _) => group.to_string(),
            (Some(_), None) => format!("{group}[{label}]"),
            (Some(_), Some(s)) => format!("{group}[{label}].{s}"),
        };
        let presence = item.is_some() && sub.is_none() && group != "points";
        let shown = |e: &str, p: &Option<Printed>| match e {
            MISSING | "" => None,
            _ if presence => p.as_ref().map(|p| p.0.clone()),
            _ => Some(e.to_string()),
        };
        let (ours_v, theirs_v) = (shown(eo, &po), shown(et, &pt));
        let agree = eo == et;
        let aspect = match (sub, presence) {
            (Some(s), _) => s.to_string(),
            (None, true) if eo != MISSING && et != MISSING => "name".into(),
            (None, true) => "presence".into(),
            (None, false) if group == "points" => "points".into(),
            (None, false) => group.to_string(),
        };
        let hint = if agree {
            Hint::Other(String::new())
        } else if lo == lt {
            naming(group, &ours_v, &theirs_v, [ours, theirs])
        } else if eo == MISSING || et == MISSING {
            let side = usize::from(eo == MISSING);
            let changed = match group {
                "weapons" => lacks[side],
                "points" => lacks_size[side],
                _ => false,
            };
            if changed {
                Hint::ListChanged(format!(
                    "the other side lacks one of this side's {group} too: the list differs as a whole"
                ))
            } else if eo == MISSING {
                Hint::Other(format!("missing from our {group}"))
            } else {
                Hint::Other(format!("not among the export's {group}"))
            }
        } else {
            value_hint(group, sub, eo, et, &pt, facts, theirs)
        };
        let export_source = match group {
            "points" => item
                .and_then(|n| n.parse().ok())
                .and_then(|n: u32| facts.cost_lines.get(&n))
                .map(|l| format!("{COSTS}:{l}")),
            "keywords" | "faction_keywords" => table_line(KEYWORDS),
            "invulnerable_save" => theirs
                .models
                .first()
                .map(|m| format!("{}:{}", m.at.file, m.at.line)),
            _ => pt
                .and_then(|p| p.1)
                .map(|l| format!("{}:{}", l.file, l.line)),
        };
        let our_line = po.and_then(|p| p.1).filter(|_| group == "weapons");
        pair.checks.push(Check {
            kind: kind_of(group),
            field,
            aspect,
            ours: ours_v,
            theirs: theirs_v,
            agree,
            hint,
            our_line: our_line.map(|l| l.line),
            export_source,
        });
    }
    pair
}

/// A copy of `d` in which the weapons whose name a profile of the other type shares (a spear
/// thrown and wielded) carry their type in brackets, so that the view, which keys weapons by
/// name, compares both profiles (`Singing spear (melee)`).
fn typed(d: &Datasheet) -> Datasheet {
    let mut d = d.clone();
    let mut types: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for w in &d.weapons {
        let t = format!("{:?}", w.kind).to_lowercase();
        types.entry(name_key(&w.name)).or_default().insert(t);
    }
    for w in &mut d.weapons {
        if types.get(&name_key(&w.name)).is_some_and(|t| t.len() > 1) {
            w.name = format!("{} ({})", w.name, format!("{:?}", w.kind).to_lowercase());
        }
    }
    d
}

fn kind_of(group: &str) -> Kind {
    match group {
        "weapons" => Kind::Weapon,
        "points" => Kind::Points,
        "keywords" | "faction_keywords" => Kind::Keywords,
        "abilities" => Kind::Abilities,
        _ => Kind::Model,
    }
}

/// Two names the view pairs under one key: `naming`, except two model profiles paired only by
/// position whose names are not similar and neither of which is the unit's name.
fn naming(group: &str, o: &Option<String>, t: &Option<String>, units: [&Datasheet; 2]) -> Hint {
    let (Some(o), Some(t)) = (o, t) else {
        return Hint::Naming(format!(
            "printed split or joined: every word of it is a word of the other side's {group}"
        ));
    };
    if let Some(r) = similar(o, t) {
        return Hint::Naming(r);
    }
    if name_key(o) == name_key(t) {
        return Hint::Naming("the names differ by a plural or a tag".into());
    }
    if group != "models" {
        return Hint::Naming(
            "a weapon with the same profile and type has another name on each side (the weapon rule)"
                .into(),
        );
    }
    let unit = units.iter().filter_map(|d| d.name.as_deref());
    if unit
        .map(fold_name_key)
        .any(|u| u == fold_name_key(o) || u == fold_name_key(t))
    {
        Hint::Naming("one side names the model after its unit".into())
    } else {
        Hint::Other("the only unpaired models of each side have unrelated names".into())
    }
}

/// Two printed values of one field that differ.
fn value_hint(
    group: &str,
    sub: Option<&str>,
    o: &str,
    t: &str,
    model: &Option<Printed>,
    facts: &ExportFacts,
    theirs: &Datasheet,
) -> Hint {
    let aspect = sub.unwrap_or(group);
    match (group, sub) {
        ("weapons", Some("keywords")) => return Hint::WeaponKeywords,
        ("points", _) => {
            let ok = o.parse::<u32>().is_ok() && t.parse::<u32>().is_ok();
            return Hint::Value {
                well_formed: ok,
                note: String::new(),
            };
        }
        ("invulnerable_save", _) if o == "none" || t == "none" => {
            return Hint::Other(if o == "none" {
                "invulnerable_save missing on our side".into()
            } else {
                "the export has no invulnerable_save".into()
            })
        }
        ("faction_keywords", _) => return Hint::Other("the faction keywords differ".into()),
        _ => {}
    }
    let mut note: Vec<String> = [(o, "our value"), (t, "the export's value")]
        .into_iter()
        .filter(|(v, _)| !well_formed(aspect, v))
        .map(|(_, who)| format!("{who} is not a well-formed {aspect}"))
        .collect();
    let ok = note.is_empty();
    let starred = model
        .as_ref()
        .is_some_and(|m| facts.starred.contains(&(m.0.clone(), aspect.to_string())));
    if group == "models" && starred {
        note.push("the export prints this value with a footnote star".into());
    }
    if let ("invulnerable_save", Some(c)) = (group, &theirs.invulnerable_save_condition) {
        note.push(format!("the export marks it conditional: {c}"));
    }
    Hint::Value {
        well_formed: ok,
        note: note.join("; "),
    }
}

/// The category of each disagreeing check of a pair, with the reason in words.
pub fn categorize(pair: &Pair) -> Vec<(usize, Category, String)> {
    let ratio = pair.ratio();
    let close = ratio >= CLOSE_MATCH;
    let closeness = format!(
        "the datasheet agrees on {:.1}% of its fields",
        ratio * 100.0
    );
    // Weapons with a characteristic change: their keyword change is part of the same change.
    let changed: BTreeSet<&str> = (pair.checks.iter())
        .filter(|c| !c.agree && c.kind == Kind::Weapon)
        .filter(|c| {
            matches!(
                c.hint,
                Hint::Value {
                    well_formed: true,
                    ..
                }
            )
        })
        .filter_map(|c| c.field.rsplit_once('.').map(|(w, _)| w))
        .collect();
    let with_note = |base: String, note: &str| match note {
        "" => base,
        n => format!("{base}; {n}"),
    };
    let mut out = Vec::new();
    for (i, c) in pair.checks.iter().enumerate().filter(|(_, c)| !c.agree) {
        let (cat, reason) = match &c.hint {
            Hint::Naming(r) => (Category::Naming, r.clone()),
            Hint::Value {
                well_formed: true,
                note,
            } => {
                let (cat, base) = if close {
                    let change = "a change since the export";
                    (
                        Category::Version,
                        format!("both values are well-formed and {closeness}: {change}"),
                    )
                } else {
                    let below = format!("below {:.0}%", CLOSE_MATCH * 100.0);
                    (
                        Category::DataError,
                        format!("both values are well-formed but only {closeness}, {below}"),
                    )
                };
                (cat, with_note(base, note))
            }
            Hint::Value { note, .. } => (Category::DataError, note.clone()),
            Hint::WeaponKeywords => {
                let weapon = c.field.rsplit_once('.').map_or("", |(w, _)| w);
                if close && changed.contains(weapon) {
                    (
                        Category::Version,
                        format!("the weapon's characteristics changed too and {closeness}"),
                    )
                } else {
                    (
                        Category::DataError,
                        "the keywords differ while the weapon's characteristics agree".into(),
                    )
                }
            }
            Hint::ListChanged(r) if close => (Category::Version, format!("{r}, and {closeness}")),
            Hint::ListChanged(r) => (Category::DataError, format!("{r}, but only {closeness}")),
            Hint::Other(r) => (Category::DataError, r.clone()),
        };
        out.push((i, cat, reason));
    }
    out
}
