//! One matched pair — a dataset datasheet and the datasheet the export's record source built —
//! compared through the comparison core's view of a reading (`compare::view`, the one the
//! reconciliation compares sources with), and the rule that puts every disagreement in a
//! category (see `docs/crosscheck.md`):
//!
//! * `naming`: the view pairs the two things under one key and only their names differ (case,
//!   plural, the weapon rule, a keyword printed split) — for a model paired by position, when
//!   the names are `compare::names::similar` or one side names the model after its unit;
//! * `version` (a change since the export): both values are well-formed canonical values of the field (the
//!   dataset's 10th-edition grammars; point costs), the pair otherwise agrees on at least
//!   [`CLOSE_MATCH`] of its fields, and the field is points, a characteristic, the keywords of
//!   a weapon whose characteristics changed too, or a weapon or unit size present on one side
//!   only while the other side has one the first lacks (the list changed as a whole);
//! * `data_error` (an extraction error): everything else.
//!
//! A datasheet of ours with one profile row printed without a model name (an index card, whose
//! one model is the unit) is compared with the export's only model under that model's name:
//! the two rows are the same model, not a `naming` disagreement.
//!
//! What only the export carries (its ids, the line of each points row, footnote stars, points
//! rows that price no unit size) comes with the pair as [`ExportFacts`]; the conditional
//! invulnerable save is the built datasheet's `invulnerable_save_condition`. It must not read
//! files, know unit names, or decide which export datasheet a dataset datasheet is (that is
//! `crosscheck::crosscheck`).

use super::export::{ExportFacts, COSTS, KEYWORDS};
use super::report::disagreement;
use crate::compare::names::{name_key, similar};
use crate::compare::view::{compare as compare_readings, keyed, split_path, Value, MISSING};
use crate::compare::Category;
use crate::model::{Datasheet, WeaponProfile};
use crate::normalize::{canonicalize, contract, Outcome};
use crate::reconcile::FieldReport;
use crate::source::Location;
use crate::text::fold::fold_name_key;
use std::collections::{BTreeMap, BTreeSet};

/// Share of a datasheet pair's fields that must agree for a difference of well-formed values to
/// count as a change since the export rather than an extraction error.
pub const CLOSE_MATCH: f64 = 0.75;

/// One datasheet pair: how many fields were compared and agreed, each disagreement as a field
/// report, and what of the export was not compared.
#[derive(Debug, Clone, Default)]
pub struct Pair {
    pub compared: usize,
    pub agreed: usize,
    pub differ: Vec<FieldReport>,
    pub not_compared: BTreeMap<String, usize>,
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
    let (ours, theirs) = (&typed(ours, Some(theirs)), &typed(theirs, None));
    let k = keyed(&[vec![(String::new(), ours)], vec![(String::new(), theirs)]]);
    let (vo, vt) = (&k.views[0][0].1, &k.views[1][0].1);
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
    let compared = compare_readings(&k.views);
    // The paths both sides print, with both values; the keywords of a weapon last, as their
    // category follows the weapon's characteristics.
    let mut both: Vec<(&str, [(&str, &str); 2])> = (compared.iter())
        .filter_map(|(p, vals)| match &vals[..] {
            [Value::One(eo, lo), Value::One(et, lt)] => {
                Some((p.as_str(), [(&**eo, &**lo), (&**et, &**lt)]))
            }
            _ => None,
        })
        .collect();
    both.sort_by_key(|(p, _)| split_path(p).2 == Some("keywords"));
    // A field group the export prints and we do not: one disagreement, not one per value.
    let unprinted: Vec<&str> = vt.prints.difference(&vo.prints).copied().collect();
    let agreed = (both.iter()).filter(|(_, [o, t])| o.0 == t.0).count();
    (pair.compared, pair.agreed) = (both.len() + unprinted.len(), agreed);
    // The agreed share of the compared fields (1 when nothing was compared).
    let ratio = match pair.compared {
        0 => 1.0,
        n => agreed as f64 / n as f64,
    };
    let mut rule = Rule {
        close: ratio >= CLOSE_MATCH,
        closeness: format!(
            "the datasheet agrees on {:.1}% of its fields",
            ratio * 100.0
        ),
        changed: BTreeSet::new(),
    };
    for g in unprinted {
        let why = format!("no {g} on our side (our source may not print them)");
        let d = (Category::DataError, why);
        let at = [super::our_source(ours, None), None];
        pair.differ
            .push(disagreement(g.into(), [None, Some(g.into())], d, at));
    }
    // Items one side has and the other lacks, per group: a list that differs as a whole.
    let lacking = |side: usize, group: &str| {
        compared.iter().any(|(p, vals)| {
            split_path(p).0 == group
                && split_path(p).2.is_none()
                && matches!(&vals[side], Value::One(e, _) if e == MISSING)
        })
    };
    for (path, [(eo, lo), (et, lt)]) in both {
        if eo == et {
            continue;
        }
        let (group, item, sub) = split_path(path);
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
        let category = if lo == lt {
            naming(group, &ours_v, &theirs_v, [ours, theirs])
        } else if eo == MISSING || et == MISSING {
            let side = usize::from(eo == MISSING);
            if matches!(group, "weapons" | "points") && lacking(side, group) {
                rule.list_changed(group)
            } else if eo == MISSING {
                (Category::DataError, format!("missing from our {group}"))
            } else {
                (
                    Category::DataError,
                    format!("not among the export's {group}"),
                )
            }
        } else {
            let model = pt.as_ref().map(|p| p.0.as_str());
            rule.values(path, [eo, et], model, facts, theirs)
        };
        let export_source = match group {
            "points" => item
                .and_then(|n| n.parse().ok())
                .and_then(|n: u32| facts.cost_lines.get(&n))
                .map(|l| format!("{COSTS}:{l}")),
            "keywords" | "faction_keywords" => (theirs.sources.iter())
                .find(|p| p.file.ends_with(KEYWORDS))
                .map(|p| format!("{}:{}", p.file, p.line)),
            "invulnerable_save" => theirs
                .models
                .first()
                .map(|m| format!("{}:{}", m.at.file, m.at.line)),
            _ => pt
                .and_then(|p| p.1)
                .map(|l| format!("{}:{}", l.file, l.line)),
        };
        let our_line = po.and_then(|p| p.1).filter(|_| group == "weapons");
        let at = super::our_source(ours, our_line.map(|l| l.line));
        let values = [ours_v, theirs_v];
        pair.differ
            .push(disagreement(field, values, category, [at, export_source]));
    }
    pair.differ
        .sort_by(|a, b| (&a.field, &a.value).cmp(&(&b.field, &b.value)));
    pair
}

/// A copy of `d` in which the weapons whose name a profile of the other type shares (a spear
/// thrown and wielded) carry their type in brackets, so that the view, which keys weapons by
/// name, compares both profiles (`Singing spear (melee)`). Given `theirs` (`d` is ours): our
/// single profile row printed without a model name (a card whose one model is the unit) is
/// the export's only model and takes that model's name, so the view pairs the two rows by
/// name as it pairs named ones.
fn typed(d: &Datasheet, theirs: Option<&Datasheet>) -> Datasheet {
    let mut d = d.clone();
    if let ([ours], Some([only])) = (&mut d.models[..], theirs.map(|t| &t.models[..])) {
        if ours.name.is_none() {
            ours.name.clone_from(&only.name);
        }
    }
    let kind = |w: &WeaponProfile| format!("{:?}", w.kind).to_lowercase();
    let mut types: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for w in &d.weapons {
        types.entry(name_key(&w.name)).or_default().insert(kind(w));
    }
    for w in &mut d.weapons {
        if types.get(&name_key(&w.name)).is_some_and(|t| t.len() > 1) {
            w.name = format!("{} ({})", w.name, kind(w));
        }
    }
    d
}

/// Two names the view pairs under one key: `naming`, except two model profiles paired only by
/// position whose names are not similar and neither of which is the unit's name.
fn naming(
    group: &str,
    o: &Option<String>,
    t: &Option<String>,
    units: [&Datasheet; 2],
) -> (Category, String) {
    let (Some(o), Some(t)) = (o, t) else {
        let why = "printed split or joined: every word of it is a word of the other side's";
        return (Category::Naming, format!("{why} {group}"));
    };
    if let Some(r) = similar(o, t) {
        return (Category::Naming, r);
    }
    if name_key(o) == name_key(t) {
        return (
            Category::Naming,
            "the names differ by a plural or a tag".into(),
        );
    }
    if group != "models" {
        let why = "a weapon with the same profile and type has another name on each side";
        return (Category::Naming, format!("{why} (the weapon rule)"));
    }
    let unit = units.iter().filter_map(|d| d.name.as_deref());
    if unit
        .map(fold_name_key)
        .any(|u| u == fold_name_key(o) || u == fold_name_key(t))
    {
        let why = "one side names the model after its unit";
        (Category::Naming, why.into())
    } else {
        let why = "the only unpaired models of each side have unrelated names";
        (Category::DataError, why.into())
    }
}

/// The category rule of one pair, once the pair's share of agreeing fields is known.
struct Rule {
    /// The pair agrees on at least [`CLOSE_MATCH`] of its fields.
    close: bool,
    /// `the datasheet agrees on 97.4% of its fields`.
    closeness: String,
    /// Weapons (item keys) with a characteristic changed since the export.
    changed: BTreeSet<String>,
}

impl Rule {
    /// Present on one side only while the other side has one the first lacks.
    fn list_changed(&self, group: &str) -> (Category, String) {
        let r = format!(
            "the other side lacks one of this side's {group} too: the list differs as a whole"
        );
        match self.close {
            true => (Category::Version, format!("{r}, and {}", self.closeness)),
            false => (
                Category::DataError,
                format!("{r}, but only {}", self.closeness),
            ),
        }
    }

    /// Two printed values of one field that differ (`model`: the export's name of the model).
    fn values(
        &mut self,
        path: &str,
        [o, t]: [&str; 2],
        model: Option<&str>,
        facts: &ExportFacts,
        theirs: &Datasheet,
    ) -> (Category, String) {
        let (group, item, sub) = split_path(path);
        let aspect = sub.unwrap_or(group);
        match (group, sub) {
            // The keywords of a weapon whose characteristics changed changed with them.
            ("weapons", Some("keywords")) => {
                return match item.filter(|i| self.close && self.changed.contains(*i)) {
                    Some(_) => {
                        let why = "the weapon's characteristics changed too and";
                        (Category::Version, format!("{why} {}", self.closeness))
                    }
                    None => {
                        let why = "the keywords differ while the weapon's characteristics agree";
                        (Category::DataError, why.into())
                    }
                };
            }
            ("points", _) if o.parse::<u32>().is_ok() && t.parse::<u32>().is_ok() => {
                return self.both_well_formed("")
            }
            ("points", _) => return (Category::DataError, String::new()),
            ("invulnerable_save", _) if o == "none" || t == "none" => {
                let why = match o {
                    "none" => "invulnerable_save missing on our side",
                    _ => "the export has no invulnerable_save",
                };
                return (Category::DataError, why.into());
            }
            ("faction_keywords", _) => {
                return (Category::DataError, "the faction keywords differ".into())
            }
            _ => {}
        }
        let mut note: Vec<String> = [(o, "our value"), (t, "the export's value")]
            .into_iter()
            .filter(|(v, _)| !well_formed(aspect, v))
            .map(|(_, who)| format!("{who} is not a well-formed {aspect}"))
            .collect();
        let ok = note.is_empty();
        let starred =
            model.is_some_and(|m| facts.starred.contains(&(m.to_string(), aspect.to_string())));
        if group == "models" && starred {
            note.push("the export prints this value with a footnote star".into());
        }
        if let ("invulnerable_save", Some(c)) = (group, &theirs.invulnerable_save_condition) {
            note.push(format!("the export marks it conditional: {c}"));
        }
        if !ok {
            return (Category::DataError, note.join("; "));
        }
        if let ("weapons", Some(i)) = (group, item) {
            self.changed.insert(i.to_string());
        }
        self.both_well_formed(&note.join("; "))
    }

    /// Both values well-formed: a change since the export when the pair otherwise agrees.
    fn both_well_formed(&self, note: &str) -> (Category, String) {
        let (cat, base) = if self.close {
            let change = "a change since the export";
            let why = format!("both values are well-formed and {}", self.closeness);
            (Category::Version, format!("{why}: {change}"))
        } else {
            let below = format!("below {:.0}%", CLOSE_MATCH * 100.0);
            let why = format!("both values are well-formed but only {}", self.closeness);
            (Category::DataError, format!("{why}, {below}"))
        };
        match note {
            "" => (cat, base),
            n => (cat, format!("{base}; {n}")),
        }
    }
}
