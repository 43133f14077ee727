//! Normalization: the raw strings extractors produce → the canonical values of the output
//! contract, checked against `schemas/`. Pure.
//!
//! Owns the contract (`schema`: `schemas/*.yaml` embedded and read with serde-saphyr), the value
//! grammars per edition (`grammar`), the weapon-ability vocabulary (`keywords`), the published
//! JSON Schemas and record validation (`publish`), the aggregated diagnostics (`report`), and the
//! dataset re-check behind `cogitator lint DATASET_DIR` (`lint`).
//!
//! Profiles are edition-aware (contract v2): a model or weapon profile's characteristics are
//! those `schemas/characteristics.yaml` lists for its datasheet's edition ([`profile_fields`]),
//! each checked against that edition's grammar; a characteristic of another edition breaks it.
//!
//! Two entry points: [`normalize`] per document (values respelled, broken records quarantined)
//! and [`finish`] once per dataset (every record validated against its JSON Schema, unique
//! weapon abilities reported once, schemas published, counts redone).
//!
//! Quarantine policy: the smallest record holding a value that cannot be made canonical goes to
//! `quarantine.json` (a weapon profile, a model profile, an ability; the whole datasheet only for
//! a datasheet-level value such as its invulnerable save); the datasheet keeps everything else,
//! and the error diagnostic names the datasheet id (the quarantine entry's `parent`).
//!
//! It must not read or write files, and it never guesses a value: what no listed fix makes
//! canonical is left as it was, in quarantine.

pub mod grammar;
pub mod keywords;
pub mod lint;
pub mod publish;
pub mod report;
pub mod schema;
pub mod structure;

pub use grammar::{canonicalize, dice_canonical, fold_typography, Fix, Outcome};
pub use keywords::{keyword, KeywordOutcome};
pub use report::Report;
pub use schema::{contract, profile_fields, Contract, SchemaError};

use crate::diag::{count_by_severity, sort_diagnostics, Code, Diagnostic};
use crate::extract::Extracted;
use crate::model::{
    Ability, Characteristics, Dataset, Datasheet, DiagnosticCounts, Edition, ModelProfile,
    ProfileKind, RecordCounts, WeaponProfile,
};
use crate::source::{Location, Provenance};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Canonical characteristic value under the 10th-edition grammar of `characteristic`, or the
/// value unchanged when it cannot be made canonical (or the characteristic is unknown).
pub fn characteristic_10e(characteristic: &str, raw: &str) -> String {
    match contract().grammar_of(Edition::Tenth, characteristic) {
        Some(g) => match canonicalize(g, raw) {
            Outcome::Fixed { value, .. } => value,
            _ => raw.to_string(),
        },
        None => raw.to_string(),
    }
}

/// Canonical 10th-edition weapon keyword (`rapid fire 2` → `RAPID FIRE 2`); verbatim outside
/// the vocabulary.
pub fn weapon_keyword(raw: &str) -> String {
    match keyword(&contract().vocabulary, raw) {
        KeywordOutcome::Respelled(c) => c,
        _ => raw.to_string(),
    }
}

/// Why a record cannot be emitted as is.
#[derive(Debug, Clone)]
struct Break {
    code: Code,
    field: String,
    value: String,
    rule: String,
}

type Pending = Vec<(String, Fix)>;

/// Normalizes records and collects what it changed and what it quarantined.
#[derive(Debug)]
pub struct Normalizer {
    c: &'static Contract,
    /// File named when a record has no source (the document); in lint mode, every diagnostic's file.
    file: String,
    lint_mode: bool,
    pub report: Report,
    /// Quarantine entries (`schemas/quarantine_entry.yaml`).
    pub quarantine: Vec<Value>,
}

impl Normalizer {
    /// A normalizer for one document (`file` is its path relative to the input root).
    pub fn new(file: &str) -> Normalizer {
        Normalizer {
            c: contract(),
            file: file.to_string(),
            lint_mode: false,
            report: Report::default(),
            quarantine: Vec::new(),
        }
    }

    /// A normalizer re-checking a dataset file: diagnostics name `dataset_file`, no line.
    pub fn for_lint(dataset_file: &str) -> Normalizer {
        Normalizer {
            lint_mode: true,
            ..Normalizer::new(dataset_file)
        }
    }

    fn origin(&self, p: Option<&Provenance>, line: Option<u32>) -> (String, Option<u32>) {
        if self.lint_mode {
            return (self.file.clone(), None);
        }
        let file = p.map_or_else(|| self.file.clone(), |p| p.file.clone());
        let line = line.or(p.map(|p| p.line)).filter(|l| *l > 0);
        (file, line)
    }

    /// Where a sub-record's diagnostics point: its own location, else (a dataset written
    /// before sub-records had one) its record's first source.
    fn origin_of(&self, at: &Location, p: Option<&Provenance>) -> (String, Option<u32>) {
        if self.lint_mode || at.file.is_empty() {
            return self.origin(p, None);
        }
        (at.file.clone(), Some(at.line).filter(|l| *l > 0))
    }

    /// Applies the grammars of `edition` to `(characteristic, value)` pairs in place.
    fn values(
        &self,
        edition: &str,
        pairs: &mut [(&str, &mut Option<String>)],
        pending: &mut Pending,
    ) -> Result<(), Break> {
        // Check everything first so a broken record is left exactly as extracted.
        let mut changes: Vec<(usize, Option<String>)> = Vec::new();
        for (i, (name, v)) in pairs.iter().enumerate() {
            let (Some(raw), Some(g)) = (v.as_deref(), self.c.grammar(edition, name)) else {
                continue;
            };
            match canonicalize(g, raw) {
                Outcome::Canonical => {}
                Outcome::Fixed { value, fixes } => {
                    pending.extend(fixes.into_iter().map(|f| (name.to_string(), f)));
                    changes.push((i, Some(value)));
                }
                Outcome::Null => {
                    pending.push((
                        name.to_string(),
                        Fix {
                            code: Code::NormLiteral,
                            from: raw.to_string(),
                            to: "null".to_string(),
                        },
                    ));
                    changes.push((i, None));
                }
                Outcome::Broken { code, rule } => {
                    return Err(Break {
                        code,
                        field: name.to_string(),
                        value: raw.to_string(),
                        rule,
                    })
                }
            }
        }
        for (i, value) in changes {
            if let Some((_, v)) = pairs.get_mut(i) {
                **v = value;
            }
        }
        Ok(())
    }

    /// Applies the grammars of `edition` to a profile's characteristics. A characteristic the
    /// edition does not print on a `kind` line breaks the profile (`N110`): it is not guessed
    /// into another. One the profile lacks is left to the schema check (`required`).
    fn profile(
        &self,
        edition: Edition,
        kind: ProfileKind,
        ch: &mut Characteristics,
        pending: &mut Pending,
    ) -> Result<(), Break> {
        let fields = profile_fields(edition, kind);
        if let Some((name, v)) = ch.iter().find(|(n, _)| !fields.iter().any(|f| f == n)) {
            return Err(Break {
                code: Code::NormGrammar,
                field: name.to_string(),
                value: v.unwrap_or("null").to_string(),
                rule: format!(
                    "{name} is not a characteristic of a {} {} profile ({})",
                    edition.as_str(),
                    match kind {
                        ProfileKind::Model => "model",
                        ProfileKind::Weapon => "weapon",
                    },
                    fields.join(" ")
                ),
            });
        }
        let mut pairs: Vec<(&str, &mut Option<String>)> = ch.iter_mut().collect();
        self.values(edition.as_str(), &mut pairs, pending)
    }

    /// A weapon's keywords in the vocabulary of its datasheet's edition
    /// ([`Contract::vocabulary_for`]).
    fn keywords(
        &self,
        edition: Edition,
        list: &mut Vec<String>,
        pending: &mut Pending,
    ) -> Result<(), Break> {
        let vocab = self.c.vocabulary_for(edition);
        let mut out = Vec::with_capacity(list.len());
        for k in list.iter() {
            if let Some(parts) = keywords::split_glued(vocab, k) {
                pending.push((
                    "keyword".into(),
                    Fix {
                        code: Code::NormKeywordAlias,
                        from: k.clone(),
                        to: parts.join(", "),
                    },
                ));
                out.extend(parts);
                continue;
            }
            match keyword(vocab, k) {
                KeywordOutcome::Canonical | KeywordOutcome::Unique => out.push(k.clone()),
                KeywordOutcome::Respelled(c) => {
                    pending.push((
                        "keyword".into(),
                        Fix {
                            code: Code::NormKeywordAlias,
                            from: k.clone(),
                            to: c.clone(),
                        },
                    ));
                    out.push(c);
                }
                KeywordOutcome::BadParameter(rule) => {
                    return Err(Break {
                        code: Code::NormKeywordParameter,
                        field: "keywords".into(),
                        value: k.clone(),
                        rule,
                    })
                }
            }
        }
        let ordered = keywords::canonical_order(&out);
        if ordered != out {
            pending.push((
                "keywords".into(),
                Fix {
                    code: Code::NormKeywordOrder,
                    from: format!("[{}]", out.join(", ")),
                    to: format!("[{}]", ordered.join(", ")),
                },
            ));
        }
        *list = ordered;
        Ok(())
    }

    fn commit(&mut self, file: &str, line: Option<u32>, pending: Pending) {
        for (what, f) in pending {
            self.report.fix(file, line, &what, f.code, &f.from, &f.to);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn quarantine<T: Serialize>(
        &mut self,
        record_type: &str,
        parent: Option<&str>,
        label: String,
        record: &T,
        b: Break,
        file: &str,
        line: Option<u32>,
    ) {
        let record = serde_json::to_value(record).unwrap_or(Value::Null);
        self.quarantine.push(json!({
            "record_type": record_type,
            "parent": parent,
            "code": b.code.as_str(),
            "field": b.field,
            "value": b.value,
            "rule": b.rule,
            "file": file,
            "line": line,
            "record": record,
        }));
        let d = Diagnostic::new(
            b.code,
            format!(
                "{label} quarantined: {} '{}' breaks {}",
                b.field, b.value, b.rule
            ),
        );
        self.report.errors.push(match line {
            Some(l) => d.at(file, l),
            None => d.in_file(file),
        });
    }

    /// Normalizes one datasheet; `None` when the datasheet itself went to quarantine.
    pub fn datasheet(&mut self, mut ds: Datasheet) -> Option<Datasheet> {
        let edition = ds.edition.as_str();
        let (file, line) = self.origin(ds.sources.first(), None);
        let mut pending = Pending::new();
        let inv = self.values(
            edition,
            &mut [("invulnerable_save", &mut ds.invulnerable_save)],
            &mut pending,
        );
        if let Err(b) = inv {
            let label = format!("datasheet {}", ds.id);
            self.quarantine("datasheet", None, label, &ds, b, &file, line);
            return None;
        }
        self.commit(&file, line, pending);

        for m in std::mem::take(&mut ds.models) {
            if let Some(m) = self.model(&ds, m, &file, line) {
                ds.models.push(m);
            }
        }
        for w in std::mem::take(&mut ds.weapons) {
            if let Some(w) = self.weapon(&ds, w) {
                ds.weapons.push(w);
            }
        }
        for a in std::mem::take(&mut ds.abilities) {
            if let Some(a) = self.ability(&ds, a, &file, line) {
                ds.abilities.push(a);
            }
        }
        Some(ds)
    }

    fn model(
        &mut self,
        ds: &Datasheet,
        mut m: ModelProfile,
        file: &str,
        line: Option<u32>,
    ) -> Option<ModelProfile> {
        let orig = m.clone();
        let mut pending = Pending::new();
        let r = self.profile(
            ds.edition,
            ProfileKind::Model,
            &mut m.characteristics,
            &mut pending,
        );
        match r {
            Ok(()) => {
                self.commit(file, line, pending);
                Some(m)
            }
            Err(b) => {
                let label = match &orig.name {
                    Some(n) => format!("model profile '{n}' of {}", ds.id),
                    None => format!("model profile of {}", ds.id),
                };
                self.quarantine("model_profile", Some(&ds.id), label, &orig, b, file, line);
                None
            }
        }
    }

    fn weapon(&mut self, ds: &Datasheet, mut w: WeaponProfile) -> Option<WeaponProfile> {
        let orig = w.clone();
        let (file, line) = self.origin_of(&w.at, ds.sources.first());
        let mut pending = Pending::new();
        let r = self
            .profile(
                ds.edition,
                ProfileKind::Weapon,
                &mut w.characteristics,
                &mut pending,
            )
            .and_then(|()| self.keywords(ds.edition, &mut w.keywords, &mut pending));
        match r {
            Ok(()) => {
                self.commit(&file, line, pending);
                Some(w)
            }
            Err(b) => {
                let label = format!("weapon '{}' of {}", orig.name, ds.id);
                self.quarantine("weapon_profile", Some(&ds.id), label, &orig, b, &file, line);
                None
            }
        }
    }

    fn ability(
        &mut self,
        ds: &Datasheet,
        mut a: Ability,
        file: &str,
        line: Option<u32>,
    ) -> Option<Ability> {
        let mut pending = Pending::new();
        let r = self.values(
            ds.edition.as_str(),
            &mut [("ability_parameter", &mut a.parameter)],
            &mut pending,
        );
        match r {
            Ok(()) => {
                self.commit(file, line, pending);
                Some(a)
            }
            Err(b) => {
                let label = format!("ability '{}' of {}", a.name, ds.id);
                self.quarantine("ability", Some(&ds.id), label, &a, b, file, line);
                None
            }
        }
    }

    /// The diagnostics (aggregated fixes, then errors) and the quarantine entries.
    pub fn into_parts(self) -> (Vec<Diagnostic>, Vec<Value>) {
        (self.report.into_diagnostics(), self.quarantine)
    }
}

/// Normalizes every value of one document's records in place; aggregated info diagnostics
/// and quarantine errors go to `ex.diagnostics`, quarantined records to `ex.quarantine`.
pub fn normalize(ex: &mut Extracted) {
    let mut n = Normalizer::new(&ex.file);
    for ds in std::mem::take(&mut ex.datasheets) {
        if let Some(ds) = n.datasheet(ds) {
            ex.datasheets.push(ds);
        }
    }
    let (diags, quarantine) = n.into_parts();
    ex.diagnostics.extend(diags);
    ex.quarantine.extend(quarantine);
}

/// Weapon abilities outside the vocabulary of their datasheet's edition: one `N108` per
/// vocabulary and spelling per dataset, with the number of weapons carrying it and the first
/// file (or `file` when given, for lint).
pub fn unique_keywords(datasheets: &[Datasheet], file: Option<&str>) -> Vec<Diagnostic> {
    let c = contract();
    let mut seen: BTreeMap<(&str, &str), (usize, Option<&str>)> = BTreeMap::new();
    for ds in datasheets {
        let vocab = c.vocabulary_for(ds.edition);
        let vocab_file = vocabulary_file_name(c, ds.edition);
        for w in &ds.weapons {
            for k in &w.keywords {
                if keyword(vocab, k) == KeywordOutcome::Unique {
                    let e = seen
                        .entry((vocab_file, k.as_str()))
                        .or_insert((0, ds.sources.first().map(|p| p.file.as_str())));
                    e.0 += 1;
                }
            }
        }
    }
    seen.into_iter()
        .map(|((vocab_file, k), (n, first))| {
            let s = if n == 1 { "" } else { "s" };
            let d = Diagnostic::new(
                Code::NormUniqueKeyword,
                format!(
                    "weapon ability '{k}' is not in the vocabulary (schemas/{vocab_file}); kept verbatim ({n} weapon{s})"
                ),
            );
            match file.or(first) {
                Some(f) => d.in_file(f),
                None => d,
            }
        })
        .collect()
}

/// The file of the vocabulary [`Contract::vocabulary_for`] gives `edition`.
fn vocabulary_file_name(c: &Contract, edition: Edition) -> &'static str {
    match c.vocabularies.contains_key(edition.as_str()) {
        true => edition
            .data()
            .and_then(|d| d.weapon_abilities.as_ref())
            .map_or(schema::KEYWORDS_FILE.0, |f| f.value.as_str()),
        false => schema::KEYWORDS_FILE.0,
    }
}

/// Validates `records` against the schema of `record_type`; failures move to quarantine.
fn schema_check<T: Serialize + Sync>(
    records: &mut Vec<T>,
    record_type: &str,
    origin: impl Fn(&T) -> (String, Option<String>, Option<u32>),
    quarantine: &mut Vec<Value>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    use rayon::prelude::*;
    // Validation in parallel; quarantining in order, so the result does not depend on it.
    let checked: Vec<Option<(Value, Vec<String>)>> = records
        .par_iter()
        .map(|r| {
            let v = serde_json::to_value(r).ok()?;
            let errors = publish::validate(record_type, &v);
            (!errors.is_empty()).then_some((v, errors))
        })
        .collect();
    let mut checked = checked.into_iter();
    records.retain(|r| {
        let Some((v, errors)) = checked.next().flatten() else {
            return true;
        };
        let (id, file, line) = origin(r);
        let rule = errors.join("; ");
        quarantine.push(json!({
            "record_type": record_type,
            "parent": null,
            "code": Code::NormSchemaInvalid.as_str(),
            "field": null,
            "value": null,
            "rule": rule,
            "file": file,
            "line": line,
            "record": v,
        }));
        let d = Diagnostic::new(
            Code::NormSchemaInvalid,
            format!("{record_type} {id} quarantined: {rule}"),
        );
        diagnostics.push(match (file, line) {
            (Some(f), Some(l)) => d.at(&f, l),
            (Some(f), None) => d.in_file(&f),
            _ => d,
        });
        false
    });
}

fn prov(p: Option<&Provenance>) -> (Option<String>, Option<u32>) {
    (
        p.map(|p| p.file.clone()),
        p.map(|p| p.line).filter(|l| *l > 0),
    )
}

/// The record types [`finish`] checks against their schemas.
const CHECKED: [&str; 10] = [
    "datasheet",
    "rule",
    "stratagem",
    "enhancement",
    "detachment",
    "points",
    "errata",
    "quarantine_entry",
    "diagnostic",
    "manifest",
];

/// Compiles the validators [`finish`] uses (once per process; in parallel), so that a caller
/// can have them built beside other work rather than when `finish` first asks.
pub fn prepare_validators() {
    use rayon::prelude::*;
    CHECKED.par_iter().for_each(|r| {
        publish::validator(r);
    });
}

/// Dataset-level checks after merging: every record validated against its published JSON
/// Schema (failures quarantined with `N112`), unique weapon abilities reported once (`N108`),
/// the structural rules of [`structure`] (`N114`–`N116`),
/// `schema/*.schema.json` added to the extra files, totals and diagnostic counts redone.
pub fn finish(ds: &mut Dataset) {
    // The published schema files do not depend on the dataset: written out beside the checks.
    let (schema_files, ()) = rayon::join(publish::files, || check(ds));
    ds.extra_files.retain(|(p, _)| !p.starts_with("schema/"));
    ds.extra_files.extend(schema_files);
}

/// [`finish`]'s checks and counts.
fn check(ds: &mut Dataset) {
    let mut q = Vec::new();
    let mut diags = Vec::new();
    schema_check(
        &mut ds.datasheets,
        "datasheet",
        |d| {
            let (f, l) = prov(d.sources.first());
            (d.id.clone(), f, l)
        },
        &mut q,
        &mut diags,
    );
    schema_check(
        &mut ds.rules,
        "rule",
        |r| {
            let o = r.occurrences.first();
            (
                r.id.clone(),
                o.map(|o| o.file.clone()),
                o.map(|o| o.line).filter(|l| *l > 0),
            )
        },
        &mut q,
        &mut diags,
    );
    schema_check(
        &mut ds.stratagems,
        "stratagem",
        |s| {
            let (f, l) = prov(s.sources.first());
            (s.id.clone(), f, l)
        },
        &mut q,
        &mut diags,
    );
    schema_check(
        &mut ds.enhancements,
        "enhancement",
        |e| {
            let (f, l) = prov(e.sources.first());
            (e.id.clone(), f, l)
        },
        &mut q,
        &mut diags,
    );
    schema_check(
        &mut ds.detachments,
        "detachment",
        |d| {
            let (f, l) = prov(d.sources.first());
            (d.id.clone(), f, l)
        },
        &mut q,
        &mut diags,
    );
    schema_check(
        &mut ds.points,
        "points",
        |p| {
            let (f, l) = prov(p.sources.first());
            (p.id.clone(), f, l)
        },
        &mut q,
        &mut diags,
    );
    schema_check(
        &mut ds.errata,
        "errata",
        |e| {
            let (f, l) = prov(e.sources.first());
            (e.id.clone(), f, l)
        },
        &mut q,
        &mut diags,
    );
    diags.extend(unique_keywords(&ds.datasheets, None));
    let records = structure::Records {
        datasheets: &ds.datasheets,
        rules: &ds.rules,
        stratagems: &ds.stratagems,
        enhancements: &ds.enhancements,
        detachments: &ds.detachments,
        points: &ds.points,
        errata: &ds.errata,
    };
    for f in structure::check(records) {
        let d = Diagnostic::new(f.code, f.message);
        diags.push(match f.at {
            Some((file, line)) => d.at(&file, line),
            None => d.in_file(f.file),
        });
    }
    ds.quarantine.extend(q);
    for (i, entry) in ds.quarantine.iter().enumerate() {
        for e in publish::validate("quarantine_entry", entry) {
            diags.push(Diagnostic::new(
                Code::NormSchemaInvalid,
                format!("quarantine entry {i}: {e}"),
            ));
        }
    }
    for d in &ds.diagnostics {
        let v = serde_json::to_value(d).unwrap_or(Value::Null);
        for e in publish::validate("diagnostic", &v) {
            diags.push(Diagnostic::new(
                Code::NormSchemaInvalid,
                format!("diagnostic {} '{}': {e}", d.code, d.message),
            ));
        }
    }
    ds.diagnostics.extend(diags);
    sort_diagnostics(&mut ds.diagnostics);

    let [info, warning, error] = count_by_severity(&ds.diagnostics);
    ds.manifest.diagnostics = DiagnosticCounts {
        info,
        warning,
        error,
    };
    ds.manifest.totals = RecordCounts {
        datasheets: ds.datasheets.len(),
        weapons: ds.datasheets.iter().map(|d| d.weapons.len()).sum(),
        rules: ds.rules.len(),
        stratagems: ds.stratagems.len(),
        enhancements: ds.enhancements.len(),
        detachments: ds.detachments.len(),
        points: ds.points.len(),
        errata: ds.errata.len(),
    };
    let manifest = serde_json::to_value(&ds.manifest).unwrap_or(Value::Null);
    let manifest_errors = publish::validate("manifest", &manifest);
    if !manifest_errors.is_empty() {
        for e in manifest_errors {
            ds.diagnostics.push(Diagnostic::new(
                Code::NormSchemaInvalid,
                format!("manifest: {e}"),
            ));
        }
        sort_diagnostics(&mut ds.diagnostics);
        let [info, warning, error] = count_by_severity(&ds.diagnostics);
        ds.manifest.diagnostics = DiagnosticCounts {
            info,
            warning,
            error,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_values() {
        assert_eq!(characteristic_10e("range", "24&#34;"), "24\"");
        assert_eq!(characteristic_10e("range", "24\u{201D}"), "24\"");
        assert_eq!(characteristic_10e("AP", "\u{2212}2"), "-2");
        assert_eq!(characteristic_10e("A", "2d6+2"), "2D6+2");
        assert_eq!(characteristic_10e("range", "melee"), "Melee");
        assert_eq!(characteristic_10e("skill", "n/a"), "N/A");
        assert_eq!(characteristic_10e("AP", "-0"), "0");
        assert_eq!(characteristic_10e("S", "8+"), "8+");
        assert_eq!(weapon_keyword("anti-infantry 4+"), "ANTI-INFANTRY 4+");
    }
}
