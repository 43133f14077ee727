//! Field-by-field comparison of one dataset datasheet with one export datasheet, and the rule
//! that puts every disagreement in a category.
//!
//! Owns the normalization used for comparing (name keys tolerant of case, apostrophes, dashes
//! and accents; values through the dataset's own 10th-edition grammars, so `3` and `3+` or `-0`
//! and `0` agree; weapon keywords through the weapon-ability vocabulary), the pairing of models,
//! weapons, points, keywords and abilities, and the category rule (see `docs/crosscheck.md`):
//!
//! * `naming`: the two sides name the same thing differently (the core's names rule,
//!   `compare::names::similar`, or a model named after its unit) and pairing them by that name makes the values comparable;
//! * `changed_since_export`: both values are well-formed canonical values of the field (both
//!   pass the grammar; both are point costs), the pair of datasheets otherwise agrees on at least
//!   [`CLOSE_MATCH`] of its fields, and the field is points, a characteristic, the keywords of a
//!   weapon whose characteristics changed too, or a weapon or unit size present on one side
//!   only while the other side has an unpaired one of the same type (the list changed as a whole);
//! * `extraction_error`: everything else (a malformed value, a value or record missing on one
//!   side, a keyword or ability name that differs, any difference on a datasheet that does not
//!   match closely).
//!
//! Which pairs of values agree is decided by the shared diff engine (`crate::diff`), not here:
//! the paired models, weapons and unit sizes of both sides, under the keys the pairing gave
//! them, become two JSON documents of canonical values (`models[M].T`, `invulnerable_save`,
//! `weapons[W].keywords` as a set, `points[2 models].points`), and a field agrees when
//! `diff::diff_values` reports no change at it ([`Pair::settle`]). What stays here is what the
//! engine cannot know: pairing names by the `similar` rule, canonical spelling through the
//! grammars, and the category of each disagreement.
//!
//! Characteristics are compared by name, those of the export's edition (10th) as
//! `schemas/characteristics.yaml` lists them, each export column mapped to its name.
//!
//! It must not read files, know unit names, or decide which datasheet of the export a dataset
//! datasheet is (that is `crosscheck::crosscheck`).

use super::export::{Export, ExportDatasheet, ExportModel, ExportWeapon};
use super::report::Kind;
use crate::compare::names::{similar, synonym_key};
use crate::compare::Category;
use crate::diff::{diff_values, FieldPath, Options, Segment};
use crate::model::{Datasheet, Edition, ModelProfile, ProfileKind, WeaponProfile, WeaponType};
use crate::normalize::{
    canonicalize, contract, fold_typography, keyword, profile_fields, KeywordOutcome, Outcome,
};
use crate::text::fold::fold_name_key;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Share of a datasheet pair's fields that must agree for a difference of well-formed values to
/// count as a change since the export rather than an extraction error.
pub const CLOSE_MATCH: f64 = 0.75;

/// Export ability types that are not datasheet abilities: footnotes of weapon profiles
/// (`One Shot`, a random-profile table) and untitled notes (`Designer's Note`).
pub const UNCOMPARED_ABILITY_TYPES: &[&str] = &["Wargear profile", "Без заголовка"];

/// How a pair of values relates, before the category is decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Hint {
    /// Both sides have the value.
    Value { well_formed: bool, note: String },
    /// The keywords of a weapon differ.
    WeaponKeywords { well_formed: bool },
    /// Present on one side only while the other side has an unpaired one of the same sort.
    ListChanged(String),
    /// The same thing, named differently.
    Naming(String),
    /// Missing on our side, present in the export.
    Missing(String),
    /// Present on our side, absent from the export.
    Extra(String),
    /// Paired, but the names are not similar.
    Mismatch(String),
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
    pub hint: Hint,
    /// Line of our source, when more precise than the datasheet's (a weapon profile row).
    pub our_line: Option<u32>,
    pub export_source: Option<String>,
    /// Checks of the same weapon share a group.
    pub group: Option<String>,
}

/// All checks of one datasheet pair, and what of the export was not compared.
///
/// Name and presence checks are decided while pairing; the value checks of paired records are
/// laid out as two JSON documents (`models[M].T`, `invulnerable_save`, `weapons[W].keywords`,
/// `points[2 models].points`) and decided by the shared diff engine ([`Pair::settle`]).
#[derive(Debug, Clone, Default)]
pub struct Pair {
    pub checks: Vec<Check>,
    pub not_compared: BTreeMap<String, usize>,
    doc: Doc,
}

/// One record's fields on our side and on the export's.
type Sides = (Map<String, Value>, Map<String, Value>);

/// The two sides' compared values, and which check each field decides.
#[derive(Debug, Clone, Default)]
struct Doc {
    top: Sides,
    /// List name → record key → (ours, theirs).
    lists: BTreeMap<&'static str, BTreeMap<String, Sides>>,
    /// Index into `checks` → the path the engine reports a difference of that field at.
    paths: Vec<(usize, FieldPath)>,
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

    /// A new sub-record of `list` labelled `label` in both documents; its key, unique in the list.
    fn record(&mut self, list: &'static str, label: &str) -> String {
        let l = self.doc.lists.entry(list).or_default();
        let (mut key, mut n) = (label.to_string(), 1);
        while l.contains_key(&key) {
            n += 1;
            key = format!("{label} #{n}");
        }
        let named = || Map::from_iter([("name".to_string(), Value::String(key.clone()))]);
        l.insert(key.clone(), (named(), named()));
        key
    }

    /// A value check whose agreement the diff engine decides: the field `aspect` of the record
    /// `at` (a list and key from [`Pair::record`]; `None` for a datasheet field) holds `ours`
    /// on our side and `theirs` on the export's.
    fn field(
        &mut self,
        at: Option<(&'static str, &str)>,
        check: Check,
        ours: Value,
        theirs: Value,
    ) {
        let aspect = check.aspect.clone();
        let (path, sides) = match at {
            Some((list, key)) => (
                vec![
                    Segment::Field(list.to_string()),
                    Segment::Key(key.to_string()),
                    Segment::Field(aspect.clone()),
                ],
                self.doc.lists.get_mut(list).and_then(|l| l.get_mut(key)),
            ),
            None => (
                vec![Segment::Field(aspect.clone())],
                Some(&mut self.doc.top),
            ),
        };
        if let Some((o, t)) = sides {
            o.insert(aspect.clone(), ours);
            t.insert(aspect, theirs);
        }
        self.doc.paths.push((self.checks.len(), FieldPath(path)));
        self.checks.push(check);
    }

    /// [`Pair::field`] of a check whose compared values are its shown ones.
    fn value(&mut self, at: Option<(&'static str, &str)>, check: Check) {
        let (o, t) = (opt(&check.ours), opt(&check.theirs));
        self.field(at, check, o, t);
    }

    /// Diffs the two documents with the shared engine: a value check agrees when
    /// `diff::diff_values` reports no change at its field.
    fn settle(&mut self) {
        let doc = std::mem::take(&mut self.doc);
        let (mut ours, mut theirs) = doc.top;
        for (list, records) in doc.lists {
            let (o, t): (Vec<Value>, Vec<Value>) = records
                .into_values()
                .map(|(o, t)| (Value::Object(o), Value::Object(t)))
                .unzip();
            ours.insert(list.to_string(), Value::Array(o));
            theirs.insert(list.to_string(), Value::Array(t));
        }
        let changed: BTreeSet<FieldPath> = diff_values(
            "crosscheck",
            &Value::Object(ours),
            &Value::Object(theirs),
            &Options::all(),
        )
        .into_iter()
        .map(|c| c.path)
        .collect();
        for (i, path) in doc.paths {
            if let Some(c) = self.checks.get_mut(i) {
                c.agree = !changed
                    .iter()
                    .any(|p| p.0.starts_with(&path.0) || path.0.starts_with(&p.0));
            }
        }
    }
}

fn opt(v: &Option<String>) -> Value {
    v.clone().map_or(Value::Null, Value::String)
}

/// An ability name as a key: trailing bracketed tags (`(Aura)`, `(Psychic)`) dropped.
pub fn ability_key(s: &str) -> String {
    let mut t = s.trim();
    while t.ends_with(')') {
        match t.rfind('(') {
            Some(i) => t = t[..i].trim_end(),
            None => break,
        }
    }
    fold_name_key(t)
}

/// A weapon keyword in canonical spelling (`rapid fire 2` → `RAPID FIRE 2`) and whether the
/// vocabulary knows it; outside the vocabulary, typography-folded upper case.
pub fn weapon_keyword_key(raw: &str) -> (String, bool) {
    match keyword(&contract().vocabulary, raw) {
        KeywordOutcome::Canonical => (raw.trim().to_string(), true),
        KeywordOutcome::Respelled(c) => (c, true),
        _ => (fold_typography(raw).to_uppercase(), false),
    }
}

/// A characteristic value in canonical spelling under the 10th-edition grammar `grammar`, and
/// whether it is well-formed. `None` stays `None` (as does the grammar's "no value", `-`).
pub fn canon(grammar: &str, v: Option<&str>) -> (Option<String>, bool) {
    let Some(v) = v else {
        return (None, true);
    };
    match contract().grammar("10e", grammar) {
        Some(g) => match canonicalize(g, v) {
            Outcome::Canonical => (Some(v.to_string()), true),
            Outcome::Fixed { value, .. } => (Some(value), true),
            Outcome::Null => (None, true),
            Outcome::Broken { .. } => (Some(v.trim().to_string()), false),
        },
        None => (Some(v.trim().to_string()), false),
    }
}

fn at(file: &str, line: u32) -> Option<String> {
    Some(format!("{file}:{line}"))
}

/// Compares `ours` with the export datasheet `theirs`.
pub fn compare(ours: &Datasheet, export: &Export, theirs: &ExportDatasheet) -> Pair {
    let mut pair = Pair::default();
    models(ours, export, theirs, &mut pair);
    weapons(ours, export, theirs, &mut pair);
    points(ours, export, theirs, &mut pair);
    keywords(ours, export, theirs, &mut pair);
    abilities(ours, export, theirs, &mut pair);
    pair.settle();
    pair
}

#[allow(clippy::too_many_arguments)]
fn value_check(
    kind: Kind,
    field: String,
    aspect: &str,
    grammar: &str,
    ours: Option<&str>,
    theirs: Option<&str>,
    note: &str,
    our_line: Option<u32>,
    export_source: Option<String>,
    group: Option<String>,
) -> Check {
    let (o, o_ok) = canon(grammar, ours);
    let (t, t_ok) = canon(grammar, theirs);
    let hint = match (&o, &t) {
        (None, Some(_)) => Hint::Missing(format!("{aspect} missing on our side")),
        (Some(_), None) => Hint::Extra(format!("the export has no {aspect}")),
        _ => {
            let mut n = Vec::new();
            if !o_ok {
                n.push(format!("our value is not a well-formed {aspect}"));
            }
            if !t_ok {
                n.push(format!("the export's value is not a well-formed {aspect}"));
            }
            if !note.is_empty() {
                n.push(note.to_string());
            }
            Hint::Value {
                well_formed: o_ok && t_ok,
                note: n.join("; "),
            }
        }
    };
    Check {
        kind,
        field,
        aspect: aspect.to_string(),
        ours: o,
        theirs: t,
        // Decided by the diff engine (`Pair::settle`).
        agree: false,
        hint,
        our_line,
        export_source,
        group,
    }
}

fn presence(
    kind: Kind,
    field: String,
    ours: Option<String>,
    theirs: Option<String>,
    hint: Hint,
) -> Check {
    let agree = matches!((&ours, &theirs), (Some(a), Some(b)) if a == b);
    let aspect = match hint {
        Hint::Naming(_) | Hint::Mismatch(_) => "name",
        _ => "presence",
    };
    Check {
        kind,
        field,
        aspect: aspect.to_string(),
        ours,
        theirs,
        agree,
        hint,
        our_line: None,
        export_source: None,
        group: None,
    }
}

/// Pairs (our index, their index, why the names differ when they do), then the unpaired
/// indices of each side.
type Pairing = (Vec<(usize, usize, Option<String>)>, Vec<usize>, Vec<usize>);

/// Pairs items of two lists: exact keys first, then similar names. `compatible` says which
/// items may pair at all (a weapon's type).
fn pair_by_name(
    ours: &[String],
    theirs: &[String],
    compatible: &dyn Fn(usize, usize) -> bool,
) -> Pairing {
    let mut pairs = Vec::new();
    let mut used_t = vec![false; theirs.len()];
    let mut left_o = Vec::new();
    for (i, o) in ours.iter().enumerate() {
        let k = fold_name_key(o);
        match (0..theirs.len())
            .find(|&j| !used_t[j] && compatible(i, j) && fold_name_key(&theirs[j]) == k)
        {
            Some(j) => {
                used_t[j] = true;
                pairs.push((i, j, None));
            }
            None => left_o.push(i),
        }
    }
    let mut still_o = Vec::new();
    for i in left_o {
        let found = (0..theirs.len())
            .filter(|&j| !used_t[j] && compatible(i, j))
            .find_map(|j| similar(&ours[i], &theirs[j]).map(|r| (j, r)));
        match found {
            Some((j, r)) => {
                used_t[j] = true;
                pairs.push((i, j, Some(r)));
            }
            None => still_o.push(i),
        }
    }
    let left_t: Vec<usize> = (0..theirs.len()).filter(|&j| !used_t[j]).collect();
    (pairs, still_o, left_t)
}

fn models(ours: &Datasheet, export: &Export, theirs: &ExportDatasheet, pair: &mut Pair) {
    let t_models = export.models_of(&theirs.id);
    if t_models.is_empty() {
        return;
    }
    let unit = ours.name.clone().unwrap_or_default();
    if ours.models.is_empty() {
        pair.checks.push(Check {
            export_source: at(super::export::MODELS, t_models[0].line),
            ..presence(
                Kind::Model,
                "models".into(),
                None,
                Some(format!("{} model profile(s)", t_models.len())),
                Hint::Missing("no model profile on our side".into()),
            )
        });
    } else {
        let o_names: Vec<String> = ours
            .models
            .iter()
            .map(|m| m.name.clone().unwrap_or_else(|| unit.clone()))
            .collect();
        let t_names: Vec<String> = t_models.iter().map(|m| m.name.clone()).collect();
        let (mut pairs, left_o, left_t) = pair_by_name(&o_names, &t_names, &|_, _| true);
        let mut unpaired_o = Vec::new();
        let mut unpaired_t = left_t.clone();
        if left_o.len() == left_t.len() {
            // What is left pairs in order; a model named after its unit is a naming difference.
            for (&i, &j) in left_o.iter().zip(left_t.iter()) {
                let named_after_unit = [&unit, &theirs.name].iter().any(|u| {
                    fold_name_key(u) == fold_name_key(&o_names[i])
                        || fold_name_key(u) == fold_name_key(&t_names[j])
                });
                let why = if named_after_unit {
                    Some("one side names the model after its unit".to_string())
                } else {
                    None
                };
                pairs.push((i, j, why.or(Some(String::new()))));
            }
            unpaired_t.clear();
        } else {
            unpaired_o = left_o;
        }
        pairs.sort();
        for (i, j, why) in pairs {
            let (o, t) = (&ours.models[i], t_models[j]);
            let label = &t_names[j];
            match why {
                None => pair.checks.push(Check {
                    export_source: at(super::export::MODELS, t.line),
                    ..presence(
                        Kind::Model,
                        format!("models[{label}]"),
                        Some(fold_name_key(&o_names[i])),
                        Some(fold_name_key(label)),
                        Hint::Naming(String::new()),
                    )
                }),
                Some(r) => {
                    let hint = if r.is_empty() {
                        Hint::Mismatch(
                            "the only unpaired models of each side have unrelated names".into(),
                        )
                    } else {
                        Hint::Naming(r)
                    };
                    pair.checks.push(Check {
                        export_source: at(super::export::MODELS, t.line),
                        ..presence(
                            Kind::Model,
                            format!("models[{label}]"),
                            Some(o_names[i].clone()),
                            Some(label.clone()),
                            hint,
                        )
                    });
                }
            }
            let key = pair.record("models", label);
            model_values(o, t, label, &key, pair);
        }
        for i in unpaired_o {
            pair.checks.push(presence(
                Kind::Model,
                format!("models[{}]", o_names[i]),
                Some(o_names[i].clone()),
                None,
                Hint::Extra("no model of this name in the export".into()),
            ));
        }
        for j in unpaired_t {
            pair.checks.push(Check {
                export_source: at(super::export::MODELS, t_models[j].line),
                ..presence(
                    Kind::Model,
                    format!("models[{}]", t_names[j]),
                    None,
                    Some(t_names[j].clone()),
                    Hint::Missing("model profile missing on our side".into()),
                )
            });
        }
    }
    invulnerable(ours, &t_models, pair);
}

fn model_values(o: &ModelProfile, t: &ExportModel, label: &str, key: &str, pair: &mut Pair) {
    let src = at(super::export::MODELS, t.line);
    let star = |c: &str| {
        if t.starred.iter().any(|s| s == c) {
            "the export prints this value with a footnote star".to_string()
        } else {
            String::new()
        }
    };
    for aspect in profile_fields(EXPORT_EDITION, ProfileKind::Model) {
        let aspect = aspect.as_str();
        let tv = t.characteristic(aspect).and_then(Option::as_deref);
        pair.value(
            Some(("models", key)),
            value_check(
                Kind::Model,
                format!("models[{label}].{aspect}"),
                aspect,
                aspect,
                o.get(aspect),
                tv,
                &star(aspect),
                None,
                src.clone(),
                None,
            ),
        );
    }
}

fn invulnerable(ours: &Datasheet, t_models: &[&ExportModel], pair: &mut Pair) {
    let Some(first) = t_models.first() else {
        return;
    };
    let theirs: BTreeSet<Option<String>> = t_models.iter().map(|m| m.inv_sv.clone()).collect();
    let (o, _) = canon("invulnerable_save", ours.invulnerable_save.as_deref());
    // Models of one unit with different saves: ours agrees with any of them.
    let chosen = if theirs.contains(&o) {
        o.clone()
    } else {
        first.inv_sv.clone()
    };
    let mut note = String::new();
    if theirs.len() > 1 {
        note = "the export's models have different invulnerable saves".to_string();
    } else if first.inv_sv_conditional {
        note = format!(
            "the export marks it conditional{}",
            first
                .inv_sv_descr
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        );
    }
    pair.value(
        None,
        value_check(
            Kind::Model,
            "invulnerable_save".into(),
            "invulnerable_save",
            "invulnerable_save",
            o.as_deref(),
            chosen.as_deref(),
            &note,
            None,
            at(super::export::MODELS, first.line),
            None,
        ),
    );
}

/// The export's edition: its characteristics are compared (`schemas/characteristics.yaml`).
const EXPORT_EDITION: Edition = Edition::Tenth;

fn weapon_values(w: &WeaponProfile) -> Vec<Option<String>> {
    profile_fields(EXPORT_EDITION, ProfileKind::Weapon)
        .iter()
        .map(|f| canon(f, w.get(f)).0)
        .collect()
}

fn export_weapon_values(w: &ExportWeapon) -> Vec<Option<String>> {
    profile_fields(EXPORT_EDITION, ProfileKind::Weapon)
        .iter()
        .map(|f| canon(f, w.characteristic(f).and_then(Option::as_deref)).0)
        .collect()
}

fn weapon_keys(kws: &[String]) -> (BTreeSet<String>, bool) {
    let mut ok = true;
    let set = kws
        .iter()
        .map(|k| {
            let (c, known) = weapon_keyword_key(k);
            ok &= known;
            c
        })
        .collect();
    (set, ok)
}

fn weapons(ours: &Datasheet, export: &Export, theirs: &ExportDatasheet, pair: &mut Pair) {
    // The export repeats a weapon per model line; identical repeats are one weapon, variants
    // with the same name but other values stay, and ours pairs with its best-agreeing variant.
    let mut t_weapons: Vec<&ExportWeapon> = Vec::new();
    for w in export.weapons_of(&theirs.id) {
        let dup = t_weapons.iter().any(|x| {
            fold_name_key(&x.name) == fold_name_key(&w.name)
                && x.kind == w.kind
                && export_weapon_values(x) == export_weapon_values(w)
        });
        if !dup {
            t_weapons.push(w);
        }
    }
    let mut o_weapons: Vec<&WeaponProfile> = Vec::new();
    for w in &ours.weapons {
        let dup = o_weapons.iter().any(|x| {
            fold_name_key(&x.name) == fold_name_key(&w.name)
                && x.kind == w.kind
                && weapon_values(x) == weapon_values(w)
        });
        if !dup {
            o_weapons.push(w);
        }
    }
    if t_weapons.is_empty() && o_weapons.is_empty() {
        return;
    }
    if o_weapons.is_empty() {
        pair.checks.push(Check {
            export_source: at(super::export::WARGEAR, t_weapons[0].line),
            ..presence(
                Kind::Weapon,
                "weapons".into(),
                None,
                Some(format!("{} weapon profile(s)", t_weapons.len())),
                Hint::Missing("no weapon profile on our side".into()),
            )
        });
        return;
    }
    // Group the export's variants by (name key, type).
    let mut groups: Vec<Vec<&ExportWeapon>> = Vec::new();
    for w in t_weapons {
        match groups
            .iter_mut()
            .find(|g| fold_name_key(&g[0].name) == fold_name_key(&w.name) && g[0].kind == w.kind)
        {
            Some(g) => g.push(w),
            None => groups.push(vec![w]),
        }
    }
    let o_names: Vec<String> = o_weapons.iter().map(|w| w.name.clone()).collect();
    let t_names: Vec<String> = groups.iter().map(|g| g[0].name.clone()).collect();
    let kind_ok = |i: usize, j: usize| groups[j][0].kind.map_or(true, |k| k == o_weapons[i].kind);
    let (mut pairs, left_o, left_t) = pair_by_name(&o_names, &t_names, &kind_ok);
    // Unpaired weapons with identical profiles are one weapon under a new name.
    let mut rest_o = Vec::new();
    let mut used_t: BTreeSet<usize> = BTreeSet::new();
    let mut renamed = Vec::new();
    for i in left_o {
        let v = weapon_values(o_weapons[i]);
        let found = left_t.iter().copied().find(|j| {
            !used_t.contains(j)
                && kind_ok(i, *j)
                && groups[*j].iter().any(|w| export_weapon_values(w) == v)
        });
        match found {
            Some(j) => {
                used_t.insert(j);
                renamed.push((i, j));
            }
            None => rest_o.push(i),
        }
    }
    let rest_t: Vec<usize> = left_t.into_iter().filter(|j| !used_t.contains(j)).collect();
    let kind_of_t = |j: usize| groups[j][0].kind;
    for (i, j, why) in pairs.drain(..) {
        let g = &groups[j];
        let label = g[0].name.clone();
        let hint = match &why {
            None => Hint::Naming(String::new()),
            Some(r) => Hint::Naming(r.clone()),
        };
        let (ov, tv) = match why {
            None => (fold_name_key(&o_names[i]), fold_name_key(&label)),
            Some(_) => (o_names[i].clone(), label.clone()),
        };
        weapon_pair(o_weapons[i], g, &label, ov, tv, hint, pair);
    }
    for (i, j) in renamed {
        let g = &groups[j];
        let label = g[0].name.clone();
        weapon_pair(
            o_weapons[i],
            g,
            &label,
            o_names[i].clone(),
            label.clone(),
            Hint::ListChanged(
                "a weapon with the same profile and type has another name on each side (renamed)"
                    .into(),
            ),
            pair,
        );
    }
    for i in &rest_o {
        let k = o_weapons[*i].kind;
        let hint = if rest_t
            .iter()
            .any(|&j| kind_of_t(j).map_or(true, |t| t == k))
        {
            Hint::ListChanged(format!(
                "the export has an unpaired {} weapon too: the weapon list differs as a whole",
                kind_name(k)
            ))
        } else {
            Hint::Extra("no weapon of this name or profile in the export".into())
        };
        pair.checks.push(Check {
            our_line: Some(o_weapons[*i].at.line),
            group: Some(o_names[*i].clone()),
            ..presence(
                Kind::Weapon,
                format!("weapons[{}]", o_names[*i]),
                Some(o_names[*i].clone()),
                None,
                hint,
            )
        });
    }
    for j in rest_t {
        let g = &groups[j];
        let hint = if rest_o
            .iter()
            .any(|&i| kind_of_t(j).map_or(true, |t| t == o_weapons[i].kind))
        {
            Hint::ListChanged(
                "we have an unpaired weapon of the same type: the weapon list differs as a whole"
                    .into(),
            )
        } else {
            Hint::Missing("weapon profile missing on our side".into())
        };
        pair.checks.push(Check {
            export_source: at(super::export::WARGEAR, g[0].line),
            group: Some(g[0].name.clone()),
            ..presence(
                Kind::Weapon,
                format!("weapons[{}]", g[0].name),
                None,
                Some(g[0].name.clone()),
                hint,
            )
        });
    }
}

fn kind_name(k: WeaponType) -> &'static str {
    match k {
        WeaponType::Ranged => "ranged",
        WeaponType::Melee => "melee",
    }
}

fn weapon_pair(
    o: &WeaponProfile,
    variants: &[&ExportWeapon],
    label: &str,
    o_name: String,
    t_name: String,
    name_hint: Hint,
    pair: &mut Pair,
) {
    let ov = weapon_values(o);
    let best = variants
        .iter()
        .max_by_key(|w| {
            let tv = export_weapon_values(w);
            let n = ov.iter().zip(tv.iter()).filter(|(a, b)| a == b).count();
            (n, std::cmp::Reverse(w.line))
        })
        .copied();
    let Some(t) = best else {
        return;
    };
    let group = Some(label.to_string());
    let src = at(super::export::WARGEAR, t.line);
    let key = pair.record("weapons", label);
    pair.checks.push(Check {
        our_line: Some(o.at.line),
        export_source: src.clone(),
        group: group.clone(),
        ..presence(
            Kind::Weapon,
            format!("weapons[{label}]"),
            Some(o_name),
            Some(t_name),
            name_hint,
        )
    });
    let note = if variants.len() > 1 {
        "the export has several profiles of this name; compared with the closest".to_string()
    } else {
        String::new()
    };
    for aspect in profile_fields(EXPORT_EDITION, ProfileKind::Weapon) {
        let aspect = aspect.as_str();
        let tv = t.characteristic(aspect).and_then(Option::as_deref);
        pair.value(
            Some(("weapons", &key)),
            value_check(
                Kind::Weapon,
                format!("weapons[{label}].{aspect}"),
                aspect,
                aspect,
                o.get(aspect),
                tv,
                &note,
                Some(o.at.line),
                src.clone(),
                group.clone(),
            ),
        );
    }
    let (ok, o_ok) = weapon_keys(&o.keywords);
    let (tk, t_ok) = weapon_keys(&t.keywords);
    let show = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
    let list = |s: &BTreeSet<String>| Value::Array(s.iter().cloned().map(Value::String).collect());
    let (o_list, t_list) = (list(&ok), list(&tk));
    pair.field(
        Some(("weapons", &key)),
        Check {
            kind: Kind::Weapon,
            field: format!("weapons[{label}].keywords"),
            aspect: "keywords".into(),
            ours: Some(show(&ok)),
            theirs: Some(show(&tk)),
            agree: false,
            hint: Hint::WeaponKeywords {
                well_formed: o_ok && t_ok,
            },
            our_line: Some(o.at.line),
            export_source: src,
            group,
        },
        o_list,
        t_list,
    );
}

fn points(ours: &Datasheet, export: &Export, theirs: &ExportDatasheet, pair: &mut Pair) {
    let costs = export.costs_of(&theirs.id);
    let mut t: BTreeMap<u32, (BTreeSet<u32>, u32)> = BTreeMap::new();
    for c in &costs {
        match (c.addon, c.models, c.cost) {
            (true, _, _) => {
                *pair
                    .not_compared
                    .entry("add-on point costs (`+55`)".into())
                    .or_default() += 1
            }
            (false, Some(n), Some(p)) => {
                let e = t.entry(n).or_insert((BTreeSet::new(), c.line));
                e.0.insert(p);
            }
            _ => {
                *pair
                    .not_compared
                    .entry("points lines without a model count or cost".into())
                    .or_default() += 1
            }
        }
    }
    if t.is_empty() {
        return;
    }
    if ours.points.is_empty() {
        let first = t.values().next().map(|v| v.1).unwrap_or(0);
        pair.checks.push(Check {
            export_source: at(super::export::COSTS, first),
            ..presence(
                Kind::Points,
                "points".into(),
                None,
                Some(format!("{} unit size(s)", t.len())),
                Hint::Missing("no points on our side (our source may not print them)".into()),
            )
        });
        return;
    }
    let mut o: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for p in &ours.points {
        o.entry(p.models).or_default().insert(p.points);
    }
    let only_o = o.keys().any(|k| !t.contains_key(k));
    let only_t = t.keys().any(|k| !o.contains_key(k));
    let counts: BTreeSet<u32> = o.keys().chain(t.keys()).copied().collect();
    let show = |s: &BTreeSet<u32>| {
        s.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" or ")
    };
    for n in counts {
        let field = format!("points[{n} model{}]", if n == 1 { "" } else { "s" });
        let src = t.get(&n).and_then(|v| at(super::export::COSTS, v.1));
        let check = match (o.get(&n), t.get(&n)) {
            (Some(a), Some((b, _))) => {
                // A unit size priced several ways: the prices both sides know are compared.
                let common: BTreeSet<u32> = a.intersection(b).copied().collect();
                let costs = |s: &BTreeSet<u32>| {
                    let s = if common.is_empty() { s } else { &common };
                    Value::Array(s.iter().map(|&p| Value::from(p)).collect())
                };
                let (o_costs, t_costs) = (costs(a), costs(b));
                let key = pair.record("points", &field);
                let check = Check {
                    kind: Kind::Points,
                    field,
                    aspect: "points".into(),
                    ours: Some(show(a)),
                    theirs: Some(show(b)),
                    agree: false,
                    hint: Hint::Value {
                        well_formed: true,
                        note: if b.len() > 1 {
                            "the export prices this unit size several ways".into()
                        } else {
                            String::new()
                        },
                    },
                    our_line: None,
                    export_source: src,
                    group: None,
                };
                pair.field(Some(("points", &key)), check, o_costs, t_costs);
                continue;
            }
            (Some(a), None) => presence(
                Kind::Points,
                field,
                Some(show(a)),
                None,
                if only_t {
                    Hint::ListChanged("the export has another unit size instead".into())
                } else {
                    Hint::Extra("no such unit size in the export".into())
                },
            ),
            (None, Some((b, _))) => Check {
                export_source: src,
                ..presence(
                    Kind::Points,
                    field,
                    None,
                    Some(show(b)),
                    if only_o {
                        Hint::ListChanged("we have another unit size instead".into())
                    } else {
                        Hint::Missing("unit size missing on our side".into())
                    },
                )
            },
            (None, None) => continue,
        };
        pair.checks.push(check);
    }
}

/// Compares two sets of names: each name of the union is one check; unpaired names pair up by
/// similarity (a `naming` difference) before being called missing or extra.
#[allow(clippy::too_many_arguments)]
fn name_sets(
    kind: Kind,
    label: &str,
    key: &dyn Fn(&str) -> String,
    ours: &[String],
    theirs: &[(String, u32)],
    also_theirs: &BTreeSet<String>,
    file: &str,
    pair: &mut Pair,
) {
    let mut o: BTreeMap<String, String> = BTreeMap::new();
    for n in ours {
        o.entry(key(n)).or_insert_with(|| n.clone());
    }
    let mut t: BTreeMap<String, (String, u32)> = BTreeMap::new();
    for (n, line) in theirs {
        t.entry(key(n)).or_insert_with(|| (n.clone(), *line));
    }
    let mut left_o: Vec<String> = Vec::new();
    for (k, n) in &o {
        if let Some((_, line)) = t.get(k) {
            pair.checks.push(Check {
                export_source: at(file, *line),
                ..presence(
                    kind,
                    format!("{label}[{n}]"),
                    Some(k.clone()),
                    Some(k.clone()),
                    Hint::Naming(String::new()),
                )
            });
        } else if also_theirs.contains(k) {
            pair.checks.push(presence(
                kind,
                format!("{label}[{n}]"),
                Some(k.clone()),
                Some(k.clone()),
                Hint::Naming(String::new()),
            ));
        } else {
            left_o.push(k.clone());
        }
    }
    let mut left_t: Vec<String> = t.keys().filter(|k| !o.contains_key(*k)).cloned().collect();
    for ko in left_o {
        let n = &o[&ko];
        let found = left_t
            .iter()
            .position(|kt| similar(n, &t[kt].0).is_some() || synonym_key(&ko) == synonym_key(kt));
        match found {
            Some(p) => {
                let kt = left_t.remove(p);
                let (tn, line) = &t[&kt];
                let why = similar(n, tn).unwrap_or_else(|| "the names differ by a plural".into());
                pair.checks.push(Check {
                    export_source: at(file, *line),
                    ..presence(
                        kind,
                        format!("{label}[{tn}]"),
                        Some(n.clone()),
                        Some(tn.clone()),
                        Hint::Naming(why),
                    )
                });
            }
            None => pair.checks.push(presence(
                kind,
                format!("{label}[{n}]"),
                Some(n.clone()),
                None,
                Hint::Extra(format!("not among the export's {label}")),
            )),
        }
    }
    for kt in left_t {
        let (tn, line) = &t[&kt];
        pair.checks.push(Check {
            export_source: at(file, *line),
            ..presence(
                kind,
                format!("{label}[{tn}]"),
                None,
                Some(tn.clone()),
                Hint::Missing(format!("missing from our {label}")),
            )
        });
    }
}

fn keywords(ours: &Datasheet, export: &Export, theirs: &ExportDatasheet, pair: &mut Pair) {
    let kws = export.keywords_of(&theirs.id);
    let plain: Vec<(String, u32)> = kws
        .iter()
        .filter(|k| !k.is_faction)
        .map(|k| (k.keyword.clone(), k.line))
        .collect();
    let faction: Vec<(String, u32)> = kws
        .iter()
        .filter(|k| k.is_faction)
        .map(|k| (k.keyword.clone(), k.line))
        .collect();
    let none = BTreeSet::new();
    for (label, o, t) in [
        ("keywords", &ours.keywords, plain),
        ("faction_keywords", &ours.faction_keywords, faction),
    ] {
        if t.is_empty() && o.is_empty() {
            continue;
        }
        if o.is_empty() {
            pair.checks.push(Check {
                export_source: t.first().and_then(|(_, l)| at(super::export::KEYWORDS, *l)),
                ..presence(
                    Kind::Keywords,
                    label.into(),
                    None,
                    Some(format!("{} keyword(s)", t.len())),
                    Hint::Missing(format!("no {label} on our side")),
                )
            });
            continue;
        }
        name_sets(
            Kind::Keywords,
            label,
            &fold_name_key,
            o,
            &t,
            &none,
            super::export::KEYWORDS,
            pair,
        );
    }
}

fn abilities(ours: &Datasheet, export: &Export, theirs: &ExportDatasheet, pair: &mut Pair) {
    let mut t: Vec<(String, u32)> = Vec::new();
    let mut uncompared: BTreeSet<String> = BTreeSet::new();
    // Name + parameter of parameterised abilities (`Scouts` + `6"`), to recognise a name of
    // ours that carries its parameter.
    let mut with_param: Vec<(String, String, String, u32)> = Vec::new();
    for a in export.abilities_of(&theirs.id) {
        let Some(name) = a.name.clone() else {
            *pair
                .not_compared
                .entry("ability lines whose ability_id is not in Abilities.csv".into())
                .or_default() += 1;
            continue;
        };
        if UNCOMPARED_ABILITY_TYPES.contains(&a.kind.as_str()) {
            uncompared.insert(ability_key(&name));
        } else {
            if let Some(p) = &a.parameter {
                with_param.push((
                    format!("{} {}", ability_key(&name), fold_name_key(p)),
                    name.clone(),
                    p.clone(),
                    a.line,
                ));
            }
            t.push((name, a.line));
        }
    }
    let mut o: Vec<String> = ours
        .abilities
        .iter()
        .map(|a| a.name.clone())
        // A designer's note is commentary printed among the abilities, not an ability.
        .chain(
            ours.special_rules
                .iter()
                .filter(|r| !r.name.to_lowercase().starts_with("designer"))
                .map(|r| r.name.clone()),
        )
        .collect();
    // Weapon-profile footnotes and untitled notes we did not pick up are not counted.
    let o_keys: BTreeSet<String> = o.iter().map(|n| ability_key(n)).collect();
    let skipped = uncompared.iter().filter(|k| !o_keys.contains(*k)).count();
    if skipped > 0 {
        *pair
            .not_compared
            .entry(
                "weapon-profile footnotes and untitled notes among the export's abilities".into(),
            )
            .or_default() += skipped;
    }
    // The export keeps a transport's capacity in `Datasheets.csv`'s `transport` column, not
    // among the abilities; our TRANSPORT block agrees with it when that column is filled.
    if !theirs.transport.is_empty() {
        uncompared.insert(ability_key("Transport"));
    }
    // `Scouts 6"` of ours against `Scouts` with parameter `6"`: one disagreement (the parameter
    // belongs in `parameter`), not a missing and an extra ability.
    let t_keys: BTreeSet<String> = t.iter().map(|(n, _)| ability_key(n)).collect();
    for (joined, name, param, line) in &with_param {
        let Some(i) = o
            .iter()
            .position(|n| ability_key(n) == *joined && !t_keys.contains(&ability_key(n)))
        else {
            continue;
        };
        let ours_name = o.remove(i);
        t.retain(|(n, _)| ability_key(n) != ability_key(name));
        pair.checks.push(Check {
            export_source: at(super::export::DATASHEET_ABILITIES, *line),
            ..presence(
                Kind::Abilities,
                format!("abilities[{name}]"),
                Some(ours_name),
                Some(name.clone()),
                Hint::Mismatch(format!(
                    "our ability name carries its parameter `{param}`, which belongs in `parameter`"
                )),
            )
        });
    }
    if t.is_empty() && o.is_empty() {
        return;
    }
    if o.is_empty() {
        pair.checks.push(Check {
            export_source: t
                .first()
                .and_then(|(_, l)| at(super::export::DATASHEET_ABILITIES, *l)),
            ..presence(
                Kind::Abilities,
                "abilities".into(),
                None,
                Some(format!("{} abilities", t.len())),
                Hint::Missing("no abilities on our side".into()),
            )
        });
        return;
    }
    name_sets(
        Kind::Abilities,
        "abilities",
        &ability_key,
        &o,
        &t,
        &uncompared,
        super::export::DATASHEET_ABILITIES,
        pair,
    );
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
    let changed_groups: BTreeSet<&str> = pair
        .checks
        .iter()
        .filter(|c| {
            !c.agree
                && matches!(
                    c.hint,
                    Hint::Value {
                        well_formed: true,
                        ..
                    }
                )
        })
        .filter_map(|c| c.group.as_deref())
        .collect();
    let with_note = |base: String, note: &str| {
        if note.is_empty() {
            base
        } else {
            format!("{base}; {note}")
        }
    };
    let mut out = Vec::new();
    for (i, c) in pair.checks.iter().enumerate() {
        if c.agree {
            continue;
        }
        let (cat, reason) = match &c.hint {
            Hint::Naming(r) => (
                Category::Naming,
                if r.is_empty() {
                    "the same name spelled differently".to_string()
                } else {
                    r.clone()
                },
            ),
            Hint::Value {
                well_formed: true,
                note,
            } if close => (
                Category::Version,
                with_note(
                    format!(
                        "both values are well-formed and {closeness}: a change since the export"
                    ),
                    note,
                ),
            ),
            Hint::Value {
                well_formed: true,
                note,
            } => (
                Category::DataError,
                with_note(
                    format!(
                        "both values are well-formed but only {closeness}, below {:.0}%",
                        CLOSE_MATCH * 100.0
                    ),
                    note,
                ),
            ),
            Hint::Value { note, .. } => (Category::DataError, note.clone()),
            Hint::WeaponKeywords { well_formed } => {
                let grouped = c
                    .group
                    .as_deref()
                    .is_some_and(|g| changed_groups.contains(g));
                if *well_formed && close && grouped {
                    (
                        Category::Version,
                        format!("the weapon's characteristics changed too and {closeness}"),
                    )
                } else if !*well_formed {
                    (
                        Category::DataError,
                        "the keywords differ and not all are in the weapon-ability vocabulary"
                            .into(),
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
            Hint::Missing(r) | Hint::Extra(r) | Hint::Mismatch(r) => {
                (Category::DataError, r.clone())
            }
        };
        out.push((i, cat, reason));
    }
    out
}
