//! Applying the published errata, the stage right after the merge (`pipeline`): an [`Erratum`]
//! whose `op` is set and whose target datasheet is in the same run changes the merged
//! datasheet (a keyword added or removed, a characteristic or weapon value set, a weapon
//! ability added or removed, an ability's text replaced, the invulnerable save, a whole
//! profile line), and the changed value's provenance becomes the erratum: the sub-record's `at` is the erratum's place in the errata document,
//! the datasheet's `sources` gain it, and the erratum's `applied_to` names the datasheet
//! (`cogitator explain` prints it).
//!
//! For every (target, section, qualifier) only the newest erratum applies (the highest
//! printed version: Index Card Errata 1.2 repeats 1.0's entries). An erratum whose targets
//! are not in the run is reported once per publication (`E003`); one whose change finds
//! nothing to change, or finds it already made, is reported (`E004`) and changes nothing.
//! Never guesses: an erratum without `op`, or on a stratagem or rule, is not applied here.
//!
//! Not a comparison: it executes a published instruction on a record. Reading the errata
//! documents is `extract::gw_errata`'s; the reconciliation's report (`reconcile`) is built
//! after this stage, on the datasheets as emitted.

use crate::compare::names::name_key;
use crate::diag::{Code, Diagnostic};
use crate::extract::Extracted;
use crate::model::{Characteristics, Datasheet, Erratum, ErratumOp, ErratumOpKind, ErratumTarget};
use crate::source::Location;
use std::collections::BTreeMap;

/// The characteristic key of an op's `set` for the invulnerable save (`gw_errata`'s).
const INVULNERABLE_SAVE: &str = "invulnerable_save";

/// Applies the errata of every reading in `extracted` to `datasheets` (the merged ones).
pub fn apply(datasheets: &mut [Datasheet], extracted: &mut [Extracted], out: &mut Vec<Diagnostic>) {
    let mut errata: Vec<&mut Erratum> = extracted
        .iter_mut()
        .flat_map(|e| e.errata.iter_mut())
        .collect();
    if errata.is_empty() {
        return;
    }
    let newest = newest(&errata);
    let mut absent: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (i, e) in errata.iter_mut().enumerate() {
        let on_datasheet = e.target_kind == ErratumTarget::Datasheet;
        if !on_datasheet {
            continue;
        }
        let mut found = false;
        // The printed target names (the resolved ids are built from them).
        let names: Vec<String> = e.target_printed.split(", ").map(str::to_string).collect();
        for name in names {
            let Some(ds) = find(datasheets, e, &name) else {
                continue;
            };
            found = true;
            if !newest.contains(&i) {
                continue;
            }
            let Some(op) = e.op.clone() else { continue };
            match change(ds, e, &op) {
                Ok(()) => {
                    if let Some(p) = e.sources.first() {
                        ds.sources.push(p.clone());
                        ds.sources.sort();
                        ds.sources.dedup();
                    }
                    e.applied_to.push(ds.id.clone());
                }
                Err(why) => out.push(at(e, Diagnostic::new(Code::ErratumDoesNotApply, why))),
            }
        }
        if !found {
            absent
                .entry(publication(e))
                .or_default()
                .push(e.target_printed.clone());
        }
    }
    report_absent(&errata, absent, out);
}

fn publication(e: &Erratum) -> String {
    let p = &e.publication;
    format!(
        "'{}' {}",
        p.title.as_deref().unwrap_or("errata"),
        p.version.as_deref().unwrap_or("(no version)")
    )
}

fn at(e: &Erratum, d: Diagnostic) -> Diagnostic {
    match e.sources.first() {
        Some(p) => d.at(&p.file, p.line),
        None => d,
    }
}

/// `E003`, one per publication: how many of its errata target nothing in the run, and the
/// first targets.
fn report_absent(
    errata: &[&mut Erratum],
    absent: BTreeMap<String, Vec<String>>,
    out: &mut Vec<Diagnostic>,
) {
    for (publication, targets) in absent {
        let file = errata
            .iter()
            .find(|e| self::publication(e) == publication)
            .and_then(|e| e.sources.first())
            .map(|p| p.file.clone());
        let first: Vec<&str> = targets.iter().take(5).map(String::as_str).collect();
        let more = if targets.len() > first.len() {
            ", …"
        } else {
            ""
        };
        let d = Diagnostic::new(
            Code::ErratumTargetAbsent,
            format!(
                "{} errata of {publication} target records not in this run: {}{more}",
                targets.len(),
                first.join(", ")
            ),
        );
        out.push(match file {
            Some(f) => d.in_file(&f),
            None => d,
        });
    }
}

/// The indexes of the errata that apply: for each (target, section, qualifier), the one of
/// the newest publication (the first read among equals).
fn newest(errata: &[&mut Erratum]) -> Vec<usize> {
    let mut best: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for (i, e) in errata.iter().enumerate() {
        let key = (
            name_key(&e.target_printed),
            name_key(&e.section),
            name_key(e.qualifier.as_deref().unwrap_or("")),
        );
        match best.get(&key) {
            Some(&j)
                if errata[j].publication.version_numbers() >= e.publication.version_numbers() => {}
            _ => {
                best.insert(key, i);
            }
        }
    }
    best.into_values().collect()
}

/// The datasheet the erratum names `name`: its resolved id, else the one datasheet of that
/// name.
fn find<'d>(datasheets: &'d mut [Datasheet], e: &Erratum, name: &str) -> Option<&'d mut Datasheet> {
    if let Some(i) = datasheets
        .iter()
        .position(|d| e.targets.contains(&d.id) && same_name(d, name))
    {
        return datasheets.get_mut(i);
    }
    let hits: Vec<usize> = datasheets
        .iter()
        .enumerate()
        .filter(|(_, d)| same_name(d, name))
        .map(|(i, _)| i)
        .collect();
    match hits.as_slice() {
        [i] => datasheets.get_mut(*i),
        _ => None,
    }
}

fn same_name(d: &Datasheet, name: &str) -> bool {
    d.name
        .as_deref()
        .is_some_and(|n| name_key(n) == name_key(name))
}

/// `op`'s values in their canonical spelling under the datasheet's edition's grammar (`12"`
/// stays, `-1` stays); `Err` (the `E004` message) when one breaks it (an erratum's misprint
/// such as a Move of `5` is never written into a record).
fn checked(ds: &Datasheet, op: &ErratumOp) -> Result<BTreeMap<String, String>, String> {
    use crate::normalize::{canonicalize, Outcome};
    let contract = crate::normalize::schema::contract();
    let mut out = BTreeMap::new();
    for (k, v) in &op.set {
        let value = match contract
            .grammar_of(ds.edition, k)
            .map(|g| canonicalize(g, v))
        {
            None | Some(Outcome::Canonical) | Some(Outcome::Null) => v.clone(),
            Some(Outcome::Fixed { value, .. }) => value,
            Some(Outcome::Broken { rule, .. }) => {
                return Err(format!(
                    "{}: the erratum's {k} '{v}' breaks the grammar ({rule}); not applied",
                    ds.id
                ))
            }
        };
        out.insert(k.clone(), value);
    }
    Ok(out)
}

fn location(e: &Erratum) -> Location {
    e.sources.first().map(|p| p.location()).unwrap_or_default()
}

fn section_is(e: &Erratum, word: &str) -> bool {
    name_key(&e.section).starts_with(&name_key(word))
}

/// Makes the change on `ds`; `Err` (the `E004` message) when there is nothing to change.
fn change(ds: &mut Datasheet, e: &Erratum, op: &ErratumOp) -> Result<(), String> {
    use ErratumOpKind as K;
    let weapon = e.qualifier.is_some()
        && (section_is(e, "Ranged Weapons") || section_is(e, "Melee Weapons"));
    match op.kind {
        K::SetCharacteristic if op.set.contains_key(INVULNERABLE_SAVE) => {
            let v = op.set.get(INVULNERABLE_SAVE).cloned();
            if ds.invulnerable_save == v {
                return Err(format!(
                    "{}: invulnerable save is already {}",
                    ds.id,
                    v.unwrap_or_default()
                ));
            }
            ds.invulnerable_save = v;
            Ok(())
        }
        K::AddKeyword | K::RemoveKeyword | K::SetCharacteristic if weapon => weapons(ds, e, op),
        K::AddKeyword | K::RemoveKeyword => keywords(ds, e, op),
        K::SetCharacteristic | K::ProfileLine => profile(ds, e, op),
        K::ReplaceText => ability_text(ds, e, op),
        _ => Err(format!(
            "{}: '{}' is not applied by this version",
            ds.id,
            op.kind.as_str()
        )),
    }
}

/// The datasheet's keyword list the section names: `Keywords`, `Faction Keywords`.
fn keywords(ds: &mut Datasheet, e: &Erratum, op: &ErratumOp) -> Result<(), String> {
    let list = if section_is(e, "Faction Keywords") {
        &mut ds.faction_keywords
    } else if section_is(e, "Keywords") {
        &mut ds.keywords
    } else {
        return Err(format!(
            "{}: section '{}' holds no keyword list",
            ds.id, e.section
        ));
    };
    edit_list(list, op, &ds.id, "keywords")
}

/// Adds or removes every value, or (one is already there, or missing) changes nothing.
fn edit_list(list: &mut Vec<String>, op: &ErratumOp, id: &str, what: &str) -> Result<(), String> {
    let has = |list: &[String], v: &str| list.iter().any(|k| name_key(k) == name_key(v));
    let add = op.kind == ErratumOpKind::AddKeyword;
    if let Some(v) = op.values.iter().find(|v| has(list, v) == add) {
        return Err(if add {
            format!("{id}: {what} already hold '{v}'")
        } else {
            format!("{id}: {what} do not hold '{v}'")
        });
    }
    for v in &op.values {
        if add {
            list.push(v.clone());
        } else {
            list.retain(|k| name_key(k) != name_key(v));
        }
    }
    Ok(())
}

/// Whether a profile already has every value of `set`.
fn holds(c: &Characteristics, set: &BTreeMap<String, String>) -> bool {
    set.iter().all(|(k, v)| c.get(k) == Some(v.as_str()))
}

fn set_all(c: &mut Characteristics, set: &BTreeMap<String, String>) {
    for (k, v) in set {
        c.set(k, Some(v.clone()));
    }
}

/// The weapons the qualifier names, the weapon itself or each of its profiles
/// (`Astartes grenade launcher – krak` for `Astartes grenade launcher (krak)` too): their
/// abilities (a keyword added or removed) or their characteristics.
fn weapons(ds: &mut Datasheet, e: &Erratum, op: &ErratumOp) -> Result<(), String> {
    let set = match op.kind {
        ErratumOpKind::SetCharacteristic => Some(checked(ds, op)?),
        _ => None,
    };
    let q = name_key(e.qualifier.as_deref().unwrap_or(""));
    let key =
        |n: &str| name_key(&n.replace(" – ", " (").replace(" - ", " (")).replace(['(', ')'], "");
    let q2 = q.replace(['(', ')'], "");
    let named = |n: &str| {
        let n2 = name_key(n);
        n2 == q || key(n) == q2 || n2.starts_with(&format!("{q} – "))
    };
    if !ds.weapons.iter().any(|w| named(&w.name)) {
        return Err(format!(
            "{}: erratum '{} – {}' changes '{}', but the datasheet has no such weapon",
            ds.id,
            e.target_printed,
            e.section,
            e.qualifier.as_deref().unwrap_or("")
        ));
    }
    let id = ds.id.clone();
    for w in ds.weapons.iter_mut().filter(|w| named(&w.name)) {
        match &set {
            Some(set) if holds(&w.characteristics, set) => {
                return Err(format!("{id}: weapon '{}' already has {set:?}", w.name))
            }
            Some(set) => set_all(&mut w.characteristics, set),
            None => {
                let what = format!("weapon '{}' abilities", w.name);
                edit_list(&mut w.keywords, op, &id, &what)?;
            }
        }
        w.at = location(e);
    }
    Ok(())
}

/// A characteristic of the profile line (every model profile of the datasheet).
fn profile(ds: &mut Datasheet, e: &Erratum, op: &ErratumOp) -> Result<(), String> {
    let set = checked(ds, op)?;
    if ds.models.is_empty() {
        return Err(format!("{}: no profile line to change", ds.id));
    }
    if ds.models.iter().all(|m| holds(&m.characteristics, &set)) {
        return Err(format!("{}: profile already has {:?}", ds.id, set));
    }
    for m in &mut ds.models {
        set_all(&mut m.characteristics, &set);
        m.at = location(e);
    }
    Ok(())
}

/// `Abilities, NAME` – `Change to ‘…’`: the named ability's whole text (a leading `NAME:`
/// as printed is the ability's name, not its text).
fn ability_text(ds: &mut Datasheet, e: &Erratum, op: &ErratumOp) -> Result<(), String> {
    let named = section_is(e, "Abilities") && op.values.len() == 1;
    let Some(q) = e.qualifier.as_deref().filter(|_| named) else {
        return Err(format!(
            "{}: '{}' replaces text this version does not locate",
            ds.id, e.section
        ));
    };
    let Some(a) = ds
        .abilities
        .iter_mut()
        .find(|a| name_key(&a.name) == name_key(q))
    else {
        return Err(format!("{}: no ability '{q}'", ds.id));
    };
    let text = op.values[0].as_str();
    let text = text
        .strip_prefix(a.name.as_str())
        .and_then(|t| t.strip_prefix(':'))
        .map_or(text, str::trim);
    if a.text.as_deref() == Some(text) {
        return Err(format!("{}: ability '{q}' already reads so", ds.id));
    }
    a.text = Some(text.to_string());
    a.at = location(e);
    Ok(())
}
