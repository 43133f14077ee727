//! The output contract as data: `schemas/*.yaml`, embedded in the binary and read with
//! serde-saphyr, keeping line and column so a mistake in a schema file is reported at its place.
//!
//! Owns the schema file format ([`SchemaFile`], [`Def`], [`Field`]), the characteristic grammars
//! per edition (`characteristics.yaml` → [`Grammar`]s), the checks of the weapon-ability
//! vocabularies (`keywords.yaml`, `keywords-11e.yaml` → [`Vocabulary`], one per edition that has
//! its own: [`Contract::vocabulary_for`]) and of the editions' profiles
//! (`editions.yaml`), and [`contract`], the loaded and cross-checked whole. The editions, their
//! profiles and the vocabulary's types are the bottom layer's (`crate::edition`), re-exported
//! here; this module adds the grammars and the located errors. It must not read files at run
//! time (the YAML is `include_str!`ed) and knows nothing of JSON Schema (that is `publish`).

use super::grammar::{Alt, Grammar};
pub use crate::edition::{
    profile_fields, KeywordDef, KeywordVocabulary as Vocabulary, Param, EDITIONS_FILE,
    KEYWORDS_11E_FILE, KEYWORDS_FILE, KEYWORD_FILES,
};
use crate::edition::{Edition, ProfileKind};
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The record schema files, in the order the records are documented.
pub const RECORD_FILES: &[(&str, &str)] = &[
    ("common.yaml", include_str!("../../schemas/common.yaml")),
    (
        "datasheet.yaml",
        include_str!("../../schemas/datasheet.yaml"),
    ),
    (
        "model_profile.yaml",
        include_str!("../../schemas/model_profile.yaml"),
    ),
    (
        "weapon_profile.yaml",
        include_str!("../../schemas/weapon_profile.yaml"),
    ),
    ("ability.yaml", include_str!("../../schemas/ability.yaml")),
    ("rule.yaml", include_str!("../../schemas/rule.yaml")),
    (
        "stratagem.yaml",
        include_str!("../../schemas/stratagem.yaml"),
    ),
    (
        "enhancement.yaml",
        include_str!("../../schemas/enhancement.yaml"),
    ),
    (
        "detachment.yaml",
        include_str!("../../schemas/detachment.yaml"),
    ),
    ("points.yaml", include_str!("../../schemas/points.yaml")),
    ("errata.yaml", include_str!("../../schemas/errata.yaml")),
    (
        "diagnostic.yaml",
        include_str!("../../schemas/diagnostic.yaml"),
    ),
    ("manifest.yaml", include_str!("../../schemas/manifest.yaml")),
    (
        "quarantine_entry.yaml",
        include_str!("../../schemas/quarantine_entry.yaml"),
    ),
];

/// `schemas/characteristics.yaml`: the value grammar of every characteristic, per edition.
pub const CHARACTERISTICS_FILE: (&str, &str) = (
    "characteristics.yaml",
    include_str!("../../schemas/characteristics.yaml"),
);

/// The ids of the editions a grammar or a profile may be given for (`Edition::as_str`), in
/// `schemas/editions.yaml` order.
pub fn edition_ids() -> impl Iterator<Item = &'static str> {
    Edition::ALL.iter().map(|e| e.as_str())
}

fn is_edition(id: &str) -> bool {
    Edition::from_id(id).is_some()
}

/// A mistake in a schema file, at its place (1-based line and column; 0 when unknown).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("schemas/{file}:{line}:{column}: {message}")]
pub struct SchemaError {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl SchemaError {
    fn at<T>(file: &str, s: &Spanned<T>, message: String) -> SchemaError {
        SchemaError {
            file: file.to_string(),
            line: s.referenced.line(),
            column: s.referenced.column(),
            message,
        }
    }

    /// A YAML error of `file` (also `diff::policy`'s): the library's first line without its own
    /// `error: line L column C:` prefix, at the library's place.
    pub(crate) fn yaml(file: &str, e: &serde_saphyr::Error) -> SchemaError {
        let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        // The rendered error may carry a source snippet; the first line is the message.
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("invalid YAML");
        // Drop the library's own `error: line L column C:` prefix; the location is ours.
        let t = first.strip_prefix("error: ").unwrap_or(first);
        let message = match t.split_once(": ") {
            Some((head, rest)) if head.starts_with("line ") => rest,
            _ => t,
        }
        .to_string();
        SchemaError {
            file: file.to_string(),
            line,
            column,
            message,
        }
    }
}

/// JSON type of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    String,
    Integer,
    /// Any JSON number (a box's coordinates in PDF points).
    Number,
    Boolean,
    Array,
    Object,
}

/// One field of a record (or the item type of an array field, where `name` is empty).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    #[serde(default)]
    pub name: String,
    #[serde(rename = "type")]
    pub kind: Kind,
    /// `null` allowed.
    #[serde(default)]
    pub nullable: bool,
    /// May be absent from the JSON (every field is present unless this is set).
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub description: Option<String>,
    /// For `object`: the def it is (`provenance`, `model_profile`); none = any object.
    #[serde(default, rename = "ref")]
    pub reference: Option<Spanned<String>>,
    /// For `array`: the item type.
    #[serde(default)]
    pub items: Option<Box<Field>>,
    #[serde(default, rename = "enum")]
    pub values: Option<Vec<String>>,
    #[serde(default)]
    pub minimum: Option<i64>,
    /// For `string`: a regular expression without anchors.
    #[serde(default)]
    pub pattern: Option<Spanned<String>>,
    /// For `string`: the characteristic whose per-edition grammar the value follows.
    #[serde(default)]
    pub characteristic: Option<Spanned<String>>,
    /// For `string`: `weapon` = a weapon ability (`keywords.yaml`).
    #[serde(default)]
    pub keyword: Option<Spanned<String>>,
    /// For `object` without `ref`: a map whose values are this def (`translations`: language
    /// tag → `translation`).
    #[serde(default)]
    pub map_of: Option<Spanned<String>>,
    /// For a `map_of` object: a regular expression (no anchors) every key matches.
    #[serde(default)]
    pub key_pattern: Option<Spanned<String>>,
}

/// A named object type: a record or a shared definition.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Def {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub fields: Vec<Field>,
    /// A profile line: the characteristics of the edition's `kind` profile
    /// (`characteristics.yaml`, `profiles`) are fields of this object too.
    #[serde(default)]
    pub profile: Option<ProfileSpec>,
}

/// Where a profile's edition-dependent characteristics sit among a def's fields.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileSpec {
    /// `model` or `weapon`: which list of `characteristics.yaml` `profiles.<edition>`.
    pub kind: ProfileKind,
    /// The field the characteristics follow in the JSON (none: first).
    #[serde(default)]
    pub after: Option<String>,
}

/// One `schemas/*.yaml` record file: an optional top-level record plus definitions.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaFile {
    #[serde(default)]
    pub record: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub fields: Vec<Field>,
    #[serde(default)]
    pub defs: Vec<Def>,
    #[serde(default)]
    pub profile: Option<ProfileSpec>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CharDef {
    name: Spanned<String>,
    title: String,
    /// Spellings meaning "no value" in every edition (`-`): normalized to `null`.
    #[serde(default)]
    none: Vec<String>,
    editions: BTreeMap<String, Vec<Alt>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CharFile {
    characteristics: Vec<CharDef>,
}

/// Everything `schemas/` defines, loaded and cross-checked.
#[derive(Debug, Clone)]
pub struct Contract {
    /// Top-level records, in file order (`datasheet`, `model_profile`, …).
    pub records: Vec<String>,
    /// Every def by name (records and shared definitions).
    pub defs: BTreeMap<String, Def>,
    /// Characteristic names with their titles, in file order.
    pub characteristics: Vec<(String, String)>,
    /// `(edition, characteristic)` → grammar.
    pub grammars: BTreeMap<(String, String), Grammar>,
    /// Edition → (model characteristics, weapon characteristics).
    pub profiles: ProfilesByEdition,
    /// The 10th-edition weapon-ability vocabulary (`keywords.yaml`).
    pub vocabulary: Vocabulary,
    /// Edition id → its own weapon-ability vocabulary, for the editions whose `editions.yaml`
    /// entry names a file other than `keywords.yaml` (`11e` → `keywords-11e.yaml`).
    pub vocabularies: BTreeMap<String, Vocabulary>,
}

impl Contract {
    /// The grammar of `characteristic` in `edition`, if the edition has one.
    pub fn grammar(&self, edition: &str, characteristic: &str) -> Option<&Grammar> {
        self.grammars
            .get(&(edition.to_string(), characteristic.to_string()))
    }

    /// The grammar of `characteristic` in `edition` (typed: no edition spelled as a string).
    pub fn grammar_of(&self, edition: Edition, characteristic: &str) -> Option<&Grammar> {
        self.grammar(edition.as_str(), characteristic)
    }

    pub fn def(&self, name: &str) -> Option<&Def> {
        self.defs.get(name)
    }

    /// The weapon-ability vocabulary a datasheet of `edition` is normalized with: the
    /// edition's own (`11e`: `keywords-11e.yaml`), else the 10th edition's. The 9th edition and
    /// Horus Heresy keep no vocabulary yet and have always been read with the 10th edition's,
    /// so their outputs do not move.
    pub fn vocabulary_for(&self, edition: Edition) -> &Vocabulary {
        self.vocabularies
            .get(edition.as_str())
            .unwrap_or(&self.vocabulary)
    }

    /// The characteristics `edition` prints on a `kind` profile line, in order (empty when
    /// `characteristics.yaml` lists none).
    pub fn profile_fields(&self, edition: &str, kind: ProfileKind) -> &[String] {
        match (self.profiles.get(edition), kind) {
            (Some((model, _)), ProfileKind::Model) => model,
            (Some((_, weapon)), ProfileKind::Weapon) => weapon,
            (None, _) => &[],
        }
    }

    /// Every characteristic any edition prints on a `kind` profile line: the editions in
    /// [`edition_ids`] order, each adding the names not seen before.
    pub fn profile_union(&self, kind: ProfileKind) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in edition_ids() {
            for n in self.profile_fields(e, kind) {
                if !out.contains(n) {
                    out.push(n.clone());
                }
            }
        }
        out
    }
}

fn parse<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, SchemaError> {
    serde_saphyr::from_str(text).map_err(|e| SchemaError::yaml(file, &e))
}

fn check_field(
    file: &str,
    f: &Field,
    known_defs: &BTreeMap<String, Def>,
    characteristics: &BTreeMap<String, ()>,
) -> Result<(), SchemaError> {
    if let Some(r) = &f.reference {
        if !known_defs.contains_key(&r.value) {
            return Err(SchemaError::at(
                file,
                r,
                format!("field `{}`: unknown ref `{}`", f.name, r.value),
            ));
        }
    }
    if let Some(r) = &f.map_of {
        if !known_defs.contains_key(&r.value) {
            return Err(SchemaError::at(
                file,
                r,
                format!("field `{}`: unknown map_of `{}`", f.name, r.value),
            ));
        }
    }
    for p in f.pattern.iter().chain(&f.key_pattern) {
        if let Err(e) = regex::Regex::new(&p.value) {
            return Err(SchemaError::at(
                file,
                p,
                format!("field `{}`: bad pattern: {e}", f.name),
            ));
        }
    }
    if let Some(c) = &f.characteristic {
        if !characteristics.contains_key(&c.value) {
            return Err(SchemaError::at(
                file,
                c,
                format!("field `{}`: unknown characteristic `{}`", f.name, c.value),
            ));
        }
    }
    if let Some(k) = &f.keyword {
        if k.value != "weapon" {
            return Err(SchemaError::at(
                file,
                k,
                format!(
                    "field `{}`: unknown keyword vocabulary `{}`",
                    f.name, k.value
                ),
            ));
        }
    }
    match (f.kind, &f.items) {
        (Kind::Array, Some(items)) => check_field(file, items, known_defs, characteristics),
        (Kind::Array, None) => Err(SchemaError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: format!("array field `{}` has no `items`", f.name),
        }),
        _ => Ok(()),
    }
}

/// Edition id → (model characteristics, weapon characteristics).
pub type ProfilesByEdition = BTreeMap<String, (Vec<String>, Vec<String>)>;

/// The profiles of every edition of `editions.yaml` (its text given, the embedded one in
/// [`contract`]), each characteristic checked against `names`, every edition present.
fn edition_profiles(
    (efile, etext): (&str, &str),
    names: &BTreeMap<String, ()>,
) -> Result<ProfilesByEdition, SchemaError> {
    let ef: crate::edition::EditionsFile = parse(efile, etext)?;
    let mut profiles = BTreeMap::new();
    for d in &ef.editions {
        let edition = &d.id.value;
        if !is_edition(edition) {
            return Err(SchemaError::at(
                efile,
                &d.id,
                format!("unknown edition `{edition}` (no `Edition` value has this id)"),
            ));
        }
        for n in d.profiles.model.iter().chain(&d.profiles.weapon) {
            if !names.contains_key(n) {
                return Err(SchemaError::at(
                    efile,
                    &d.id,
                    format!("profiles of `{edition}`: unknown characteristic `{n}`"),
                ));
            }
        }
        if let Some(f) = d
            .weapon_abilities
            .as_ref()
            .filter(|f| !KEYWORD_FILES.iter().any(|(n, _)| *n == f.value))
        {
            return Err(SchemaError::at(
                efile,
                f,
                format!("`{edition}`: unknown weapon-ability file `{}`", f.value),
            ));
        }
        let p = (d.profiles.model.clone(), d.profiles.weapon.clone());
        profiles.insert(edition.clone(), p);
    }
    for e in edition_ids() {
        if !profiles.contains_key(e) {
            return Err(SchemaError {
                file: efile.to_string(),
                line: 0,
                column: 0,
                message: format!("no entry for edition `{e}`"),
            });
        }
    }
    Ok(profiles)
}

/// Loads and cross-checks a contract from schema texts (`(file name, YAML)`).
pub fn load(
    record_files: &[(&str, &str)],
    characteristics: (&str, &str),
    keywords: (&str, &str),
) -> Result<Contract, SchemaError> {
    let mut records = Vec::new();
    let mut defs: BTreeMap<String, Def> = BTreeMap::new();
    let mut def_file: BTreeMap<String, String> = BTreeMap::new();
    for (file, text) in record_files {
        let sf: SchemaFile = parse(file, text)?;
        let mut all = sf.defs;
        if let Some(name) = sf.record {
            records.push(name.clone());
            all.push(Def {
                name,
                title: sf.title,
                description: sf.description,
                fields: sf.fields,
                profile: sf.profile,
            });
        }
        for d in all {
            if defs.contains_key(&d.name) {
                return Err(SchemaError {
                    file: file.to_string(),
                    line: 0,
                    column: 0,
                    message: format!("`{}` is defined twice", d.name),
                });
            }
            def_file.insert(d.name.clone(), file.to_string());
            defs.insert(d.name.clone(), d);
        }
    }

    let (cfile, ctext) = characteristics;
    let cf: CharFile = parse(cfile, ctext)?;
    let mut grammars = BTreeMap::new();
    let mut names = BTreeMap::new();
    let mut char_list = Vec::new();
    for c in &cf.characteristics {
        names.insert(c.name.value.clone(), ());
        char_list.push((c.name.value.clone(), c.title.clone()));
        for (edition, alts) in &c.editions {
            if !is_edition(edition) {
                return Err(SchemaError::at(
                    cfile,
                    &c.name,
                    format!("`{}`: unknown edition `{edition}`", c.name.value),
                ));
            }
            for a in alts {
                if let Alt::Pattern(p) = a {
                    if let Err(e) = regex::Regex::new(&p.value) {
                        return Err(SchemaError::at(cfile, p, format!("bad pattern: {e}")));
                    }
                }
            }
            let label = format!("{} ({edition})", c.name.value);
            let g = Grammar::new(label, alts.clone())
                .map_err(|e| {
                    SchemaError::at(cfile, &c.name, format!("grammar does not compile: {e}"))
                })?
                .with_none(c.none.clone());
            grammars.insert((edition.clone(), c.name.value.clone()), g);
        }
    }
    let profiles = edition_profiles(EDITIONS_FILE, &names)?;

    for d in defs.values() {
        let file = def_file.get(&d.name).map_or("?", String::as_str);
        for f in &d.fields {
            check_field(file, f, &defs, &names)?;
        }
        if let Some(after) = d.profile.as_ref().and_then(|p| p.after.as_ref()) {
            if !d.fields.iter().any(|f| &f.name == after) {
                return Err(SchemaError {
                    file: file.to_string(),
                    line: 0,
                    column: 0,
                    message: format!("`{}`: profile after unknown field `{after}`", d.name),
                });
            }
        }
    }

    let vocabulary = weapon_vocabulary(keywords)?;
    let mut vocabularies = BTreeMap::new();
    for d in crate::edition::editions() {
        let Some(f) = d.weapon_abilities.as_ref() else {
            continue;
        };
        if let Some(file) = KEYWORD_FILES
            .iter()
            .find(|(n, _)| *n == f.value && *n != KEYWORDS_FILE.0)
        {
            vocabularies.insert(d.id.value.clone(), weapon_vocabulary(*file)?);
        }
    }

    Ok(Contract {
        records,
        defs,
        characteristics: char_list,
        grammars,
        profiles,
        vocabulary,
        vocabularies,
    })
}

/// One weapon-ability vocabulary file, checked: its order is `alphabetical`, every name upper
/// case.
fn weapon_vocabulary((kfile, ktext): (&str, &str)) -> Result<Vocabulary, SchemaError> {
    let vocabulary: Vocabulary = parse(kfile, ktext)?;
    if vocabulary.order.value != "alphabetical" {
        return Err(SchemaError::at(
            kfile,
            &vocabulary.order,
            format!(
                "order `{}` is not supported (only `alphabetical`)",
                vocabulary.order.value
            ),
        ));
    }
    for k in &vocabulary.keywords {
        let n = &k.name.value;
        if n.is_empty() || *n != n.to_uppercase() {
            return Err(SchemaError::at(
                kfile,
                &k.name,
                format!("keyword `{n}` must be upper case"),
            ));
        }
    }
    Ok(vocabulary)
}

/// The contract embedded in the binary. The embedded files are checked by the tests, so a
/// failure here is a build defect, not bad input.
pub fn contract() -> &'static Contract {
    static C: OnceLock<Contract> = OnceLock::new();
    C.get_or_init(|| {
        load(RECORD_FILES, CHARACTERISTICS_FILE, KEYWORDS_FILE)
            .unwrap_or_else(|e| panic!("embedded schema is invalid: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_schemas_load() {
        let c = load(RECORD_FILES, CHARACTERISTICS_FILE, KEYWORDS_FILE).expect("schemas load");
        for r in [
            "datasheet",
            "model_profile",
            "weapon_profile",
            "ability",
            "rule",
            "stratagem",
            "enhancement",
            "detachment",
            "diagnostic",
            "manifest",
        ] {
            assert!(c.records.iter().any(|x| x == r), "no schema for {r}");
        }
        assert!(c.grammar("10e", "T").is_some());
        assert!(c.grammar("9e", "weapon_type").is_some());
        assert!(c.grammar("hh2", "special_rule").is_some());
        assert!(c.grammar("11e", "Sv").is_some());
        assert_eq!(
            c.vocabulary_for(Edition::Eleventh).rule_prefix,
            "11e:weapon_ability:"
        );
        assert_eq!(
            c.vocabulary_for(Edition::Ninth).rule_prefix,
            c.vocabulary.rule_prefix
        );
    }

    #[test]
    fn broken_yaml_is_reported_at_its_place() {
        let bad = "record: x\nfields:\n  - name: a\n    type: strin\n";
        let e =
            load(&[("x.yaml", bad)], CHARACTERISTICS_FILE, KEYWORDS_FILE).expect_err("must fail");
        assert_eq!(e.file, "x.yaml");
        assert_eq!(e.line, 4, "{e}");
        assert!(e.column > 0, "{e}");
    }

    #[test]
    fn unknown_field_key_is_reported_at_its_place() {
        let bad = "record: x\nfields:\n  - name: a\n    type: string\n    nulable: true\n";
        let e =
            load(&[("x.yaml", bad)], CHARACTERISTICS_FILE, KEYWORDS_FILE).expect_err("must fail");
        assert_eq!(e.line, 5, "{e}");
    }

    #[test]
    fn unknown_ref_is_reported_at_its_place() {
        let bad = "record: x\nfields:\n  - name: a\n    type: object\n    ref: nothing\n";
        let e =
            load(&[("x.yaml", bad)], CHARACTERISTICS_FILE, KEYWORDS_FILE).expect_err("must fail");
        assert_eq!((e.line, e.column), (5, 10), "{e}");
        assert!(e.message.contains("unknown ref"), "{e}");
    }

    #[test]
    fn bad_grammar_pattern_is_reported_at_its_place() {
        let bad = "characteristics:\n  - name: T\n    title: t\n    editions:\n      10e:\n        - pattern: '(['\n";
        let e = load(RECORD_FILES, ("c.yaml", bad), KEYWORDS_FILE).expect_err("must fail");
        assert_eq!(e.line, 6, "{e}");
    }

    #[test]
    fn edition_profiles_are_checked() {
        let c = contract();
        for e in Edition::ALL {
            for k in [ProfileKind::Model, ProfileKind::Weapon] {
                assert_eq!(c.profile_fields(e.as_str(), k), profile_fields(*e, k));
            }
        }
        let names: BTreeMap<String, ()> = [("M".to_string(), ())].into();
        let bad =
            "editions:\n  - id: 10e\n    title: t\n    profiles: {model: [M, Q], weapon: []}\n";
        let e = edition_profiles(("e.yaml", bad), &names).expect_err("must fail");
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("`Q`"), "{e}");
        let bad = "editions:\n  - id: 12e\n    title: t\n    profiles: {model: [M], weapon: []}\n";
        let e = edition_profiles(("e.yaml", bad), &names).expect_err("must fail");
        assert!(e.message.contains("unknown edition `12e`"), "{e}");
    }
}
