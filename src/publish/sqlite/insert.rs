//! Filling the tables of [`super::schema`] from a dataset: one row per record and sub-record,
//! in the dataset's order, each with its provenance (a record's first source, a sub-record's
//! own `at`, the sha256 of its file from the record's sources or the manifest).
//!
//! Owns the mapping of record fields to columns and of records to the searchable `documents`.
//! Must not change a value, create tables or commit (the caller owns the transaction).

use super::schema;
use crate::dataset::LoadedDataset;
use crate::model::{
    Datasheet, Detachment, Enhancement, Erratum, Manifest, Points, PointsOption, Rule, Stratagem,
};
use crate::source::{Location, Provenance};
use rusqlite::{Connection, Statement, ToSql};
use std::collections::HashMap;

/// The provenance columns of one row.
#[derive(Debug, Clone, Copy, Default)]
struct Prov<'a> {
    file: Option<&'a str>,
    line: Option<u32>,
    page: Option<u32>,
    sha256: Option<&'a str>,
}

impl<'a> Prov<'a> {
    fn of(p: &'a Provenance) -> Self {
        Prov {
            file: Some(&p.file),
            line: Some(p.line),
            page: p.page,
            sha256: Some(&p.sha256),
        }
    }

    /// A record's first source (none: every column null).
    fn first(sources: &'a [Provenance]) -> Self {
        sources.first().map(Prov::of).unwrap_or_default()
    }
}

/// The sha256 of every input file the dataset names: its manifest's inputs and its records'
/// sources (a dataset without a manifest still has them there).
struct Hashes<'a>(HashMap<&'a str, &'a str>);

impl<'a> Hashes<'a> {
    fn new(ds: &'a LoadedDataset) -> Self {
        let mut m: HashMap<&'a str, &'a str> = HashMap::new();
        let sources = ds
            .datasheets
            .iter()
            .flat_map(|d| &d.sources)
            .chain(ds.stratagems.iter().flat_map(|s| &s.sources))
            .chain(ds.enhancements.iter().flat_map(|e| &e.sources))
            .chain(ds.detachments.iter().flat_map(|d| &d.sources))
            .chain(ds.points.iter().flat_map(|p| &p.sources))
            .chain(ds.errata.iter().flat_map(|e| &e.sources));
        for s in sources {
            m.entry(&s.file).or_insert(&s.sha256);
        }
        for i in ds.manifest.iter().flat_map(|m| &m.inputs) {
            m.insert(&i.file, &i.sha256);
        }
        Hashes(m)
    }

    /// The provenance of a sub-record read at `at` (an unknown location: every column null).
    fn at(&self, at: &'a Location) -> Prov<'a> {
        if at.file.is_empty() {
            return Prov::default();
        }
        Prov {
            file: Some(&at.file),
            line: Some(at.line),
            page: at.page,
            sha256: self.0.get(at.file.as_str()).copied(),
        }
    }
}

/// Runs `st` with `values` then the four provenance columns.
fn row(st: &mut Statement<'_>, values: &[&dyn ToSql], p: Prov<'_>) -> rusqlite::Result<()> {
    let mut all: Vec<&dyn ToSql> = Vec::with_capacity(values.len() + 4);
    all.extend_from_slice(values);
    all.extend([&p.file as &dyn ToSql, &p.line, &p.page, &p.sha256]);
    st.execute(all.as_slice()).map(drop)
}

/// A list or map as JSON text (`null` when empty, so a column of lists reads as absent).
fn json<T: serde::Serialize + ?Sized>(v: &T, empty: bool) -> Option<String> {
    if empty {
        return None;
    }
    serde_json::to_string(v).ok()
}

/// A record's id in the search index for a datasheet's ability: `explain`'s path syntax
/// (`10e:chaos-daemons:belakor.abilities[Shadow Form]`).
pub fn ability_record_id(datasheet: &str, ability: &str) -> String {
    format!("{datasheet}.abilities[{ability}]")
}

/// Every statement of the run, prepared once.
pub struct Statements<'c> {
    by_table: HashMap<&'static str, Statement<'c>>,
}

impl<'c> Statements<'c> {
    pub fn prepare(conn: &'c Connection) -> rusqlite::Result<Self> {
        let mut by_table = HashMap::new();
        for t in schema::tables() {
            by_table.insert(t.name, conn.prepare(&t.insert_sql())?);
        }
        Ok(Statements { by_table })
    }

    fn get(&mut self, table: &'static str) -> rusqlite::Result<&mut Statement<'c>> {
        self.by_table
            .get_mut(table)
            .ok_or_else(|| rusqlite::Error::InvalidParameterName(table.to_string()))
    }
}

/// Fills every table from `ds`, calling `tick` once per top-level record. A failure names
/// the record (a duplicate id breaks its table's primary key).
pub fn all(
    st: &mut Statements<'_>,
    ds: &LoadedDataset,
    tick: &mut dyn FnMut(),
) -> anyhow::Result<()> {
    use anyhow::Context;
    let h = Hashes::new(ds);
    meta(st, ds.manifest.as_ref())?;
    inputs(st, ds.manifest.as_ref())?;
    for d in &ds.datasheets {
        datasheet(st, &h, d).with_context(|| format!("datasheet {}", d.id))?;
        tick();
    }
    for r in &ds.rules {
        rule(st, &h, r).with_context(|| format!("rule {}", r.id))?;
        tick();
    }
    for s in &ds.stratagems {
        stratagem(st, s).with_context(|| format!("stratagem {}", s.id))?;
        tick();
    }
    for e in &ds.enhancements {
        enhancement(st, e).with_context(|| format!("enhancement {}", e.id))?;
        tick();
    }
    for d in &ds.detachments {
        detachment(st, d).with_context(|| format!("detachment {}", d.id))?;
        tick();
    }
    for p in &ds.points {
        points(st, &h, p).with_context(|| format!("points {}", p.id))?;
        tick();
    }
    for e in &ds.errata {
        erratum(st, e).with_context(|| format!("erratum {}", e.id))?;
        tick();
    }
    Ok(diagnostics(st, ds, &h)?)
}

/// The facts of the dataset's manifest, no time: what wrote it, its contract and its totals.
fn meta(st: &mut Statements<'_>, m: Option<&Manifest>) -> rusqlite::Result<()> {
    let mut facts: Vec<(String, String)> = vec![
        ("schema_version".into(), super::SCHEMA_VERSION.to_string()),
        (
            "publisher".into(),
            format!("cogitator {}", env!("CARGO_PKG_VERSION")),
        ),
    ];
    if let Some(m) = m {
        facts.push(("dataset_tool".into(), m.tool.clone()));
        facts.push(("dataset_version".into(), m.version.clone()));
        facts.push(("contract_version".into(), m.contract_version.to_string()));
        facts.push(("inputs".into(), m.inputs.len().to_string()));
        facts.push(("rule_occurrences".into(), m.rule_occurrences.to_string()));
        if let Ok(serde_json::Value::Object(t)) = serde_json::to_value(&m.totals) {
            for (k, v) in t {
                facts.push((format!("totals.{k}"), v.to_string()));
            }
        }
        for (k, n) in [
            ("errors", m.diagnostics.error),
            ("warnings", m.diagnostics.warning),
            ("infos", m.diagnostics.info),
        ] {
            facts.push((format!("diagnostics.{k}"), n.to_string()));
        }
    }
    let s = st.get("meta")?;
    for (k, v) in &facts {
        s.execute([k, v])?;
    }
    Ok(())
}

/// The manifest's inputs: every file read or skipped, its hash, format and status.
fn inputs(st: &mut Statements<'_>, m: Option<&Manifest>) -> rusqlite::Result<()> {
    let s = st.get("inputs")?;
    for i in m.iter().flat_map(|m| &m.inputs) {
        let status = serde_json::to_value(i.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string));
        s.execute(rusqlite::params![
            i.file,
            i.sha256,
            i.bytes,
            i.format,
            i.edition.map(|e| e.as_str()),
            status,
            i.duplicate_of,
        ])?;
    }
    Ok(())
}

/// Every source of a record, in order (`sources`).
fn sources<'a>(
    st: &mut Statements<'_>,
    kind: &str,
    id: &str,
    provs: impl Iterator<Item = Prov<'a>>,
) -> rusqlite::Result<()> {
    let s = st.get("sources")?;
    for (i, p) in provs.enumerate() {
        row(s, &[&kind, &id, &i], p)?;
    }
    Ok(())
}

/// A record's name and text in other languages (`translations`), by language tag.
fn translations(
    st: &mut Statements<'_>,
    kind: &str,
    id: &str,
    t: &crate::model::Translations,
    p: Prov<'_>,
) -> rusqlite::Result<()> {
    let s = st.get("translations")?;
    for (language, tr) in t {
        row(s, &[&kind, &id, language, &tr.name, &tr.text], p)?;
    }
    Ok(())
}

/// One searchable text (`documents`), when it has a name or text.
#[allow(clippy::too_many_arguments)]
fn document(
    st: &mut Statements<'_>,
    kind: &str,
    id: &str,
    name: &str,
    text: &str,
    edition: &str,
    datasheet: Option<&str>,
    p: Prov<'_>,
) -> rusqlite::Result<()> {
    if name.trim().is_empty() && text.trim().is_empty() {
        return Ok(());
    }
    let none: Option<i64> = None;
    let key = crate::text::fold::fold_name_key(name);
    row(
        st.get("documents")?,
        &[&none, &kind, &id, &name, &text, &key, &edition, &datasheet],
        p,
    )
}

fn datasheet(st: &mut Statements<'_>, h: &Hashes<'_>, d: &Datasheet) -> rusqlite::Result<()> {
    let first = Prov::first(&d.sources);
    row(
        st.get("datasheets")?,
        &[
            &d.id,
            &d.name,
            &d.edition.as_str(),
            &d.faction,
            &d.base_size,
            &d.invulnerable_save,
            &d.invulnerable_save_condition,
            &d.power_rating,
            &d.legends,
        ],
        first,
    )?;
    sources(st, "datasheet", &d.id, d.sources.iter().map(Prov::of))?;
    let words: Vec<&str> = d
        .keywords
        .iter()
        .chain(&d.faction_keywords)
        .map(String::as_str)
        .collect();
    let (name, ed) = (d.name.as_deref().unwrap_or(""), d.edition.as_str());
    let text = words.join(", ");
    document(st, "datasheet", &d.id, name, &text, ed, Some(&d.id), first)?;
    models(st, h, d)?;
    weapons(st, h, d)?;
    abilities(st, h, d)?;
    keywords(st, d, first)?;
    tiers(st, "datasheet_points", &d.id, &d.points, h)?;
    texts(st, h, d, first)?;
    let s = st.get("datasheet_stratagems")?;
    for (i, id) in d.stratagems.iter().enumerate() {
        row(s, &[&d.id, &i, id], first)?;
    }
    Ok(())
}

fn models(st: &mut Statements<'_>, h: &Hashes<'_>, d: &Datasheet) -> rusqlite::Result<()> {
    let columns = schema::characteristic_columns(crate::model::ProfileKind::Model);
    let s = st.get("models")?;
    for (i, m) in d.models.iter().enumerate() {
        let values: Vec<Option<&str>> = columns.iter().map(|c| m.get(c)).collect();
        let all = json(&m.characteristics, m.characteristics.is_empty());
        let mut p: Vec<&dyn ToSql> = vec![&d.id, &i, &m.name];
        p.extend(values.iter().map(|v| v as &dyn ToSql));
        p.push(&all);
        row(s, &p, h.at(&m.at))?;
    }
    Ok(())
}

fn weapons(st: &mut Statements<'_>, h: &Hashes<'_>, d: &Datasheet) -> rusqlite::Result<()> {
    let columns = schema::characteristic_columns(crate::model::ProfileKind::Weapon);
    let s = st.get("weapons")?;
    for (i, w) in d.weapons.iter().enumerate() {
        let kind = match w.kind {
            crate::model::WeaponType::Ranged => "ranged",
            crate::model::WeaponType::Melee => "melee",
        };
        let values: Vec<Option<&str>> = columns.iter().map(|c| w.get(c)).collect();
        let keywords = json(&w.keywords, w.keywords.is_empty());
        let all = json(&w.characteristics, w.characteristics.is_empty());
        let mut p: Vec<&dyn ToSql> = vec![&d.id, &i, &w.name, &kind];
        p.extend(values.iter().map(|v| v as &dyn ToSql));
        p.push(&keywords);
        p.push(&all);
        row(s, &p, h.at(&w.at))?;
    }
    Ok(())
}

/// Abilities, and those with text as searchable documents.
fn abilities(st: &mut Statements<'_>, h: &Hashes<'_>, d: &Datasheet) -> rusqlite::Result<()> {
    for (i, a) in d.abilities.iter().enumerate() {
        let tags = json(&a.tags, a.tags.is_empty());
        let p = h.at(&a.at);
        row(
            st.get("abilities")?,
            &[
                &d.id,
                &i,
                &a.name,
                &a.group,
                &tags,
                &a.parameter,
                &a.rule_id,
                &a.text,
            ],
            p,
        )?;
        let id = ability_record_id(&d.id, &a.name);
        translations(st, "ability", &id, &a.translations, p)?;
        if let Some(text) = a.text.as_deref().filter(|t| !t.trim().is_empty()) {
            let ed = d.edition.as_str();
            document(st, "ability", &id, &a.name, text, ed, Some(&d.id), p)?;
        }
    }
    Ok(())
}

/// The unit's keywords (`unit`), its faction keywords (`faction`) and those printed for one
/// model of a mixed unit (`model`, with the model).
fn keywords(st: &mut Statements<'_>, d: &Datasheet, p: Prov<'_>) -> rusqlite::Result<()> {
    let s = st.get("keywords")?;
    let none: Option<&str> = None;
    let mut n = 0usize;
    for (kind, list) in [("unit", &d.keywords), ("faction", &d.faction_keywords)] {
        for k in list {
            row(s, &[&d.id, &n, k, &kind, &none], p)?;
            n += 1;
        }
    }
    for m in &d.model_keywords {
        for k in &m.keywords {
            row(s, &[&d.id, &n, k, &"model", &m.model], p)?;
            n += 1;
        }
    }
    Ok(())
}

/// Points tiers of a datasheet or a points record.
fn tiers(
    st: &mut Statements<'_>,
    table: &'static str,
    parent: &str,
    tiers: &[PointsOption],
    h: &Hashes<'_>,
) -> rusqlite::Result<()> {
    let s = st.get(table)?;
    for (i, t) in tiers.iter().enumerate() {
        let from = t.units.map(|u| u.from);
        let to = t.units.and_then(|u| u.to);
        row(
            s,
            &[&parent, &i, &t.models, &t.points, &from, &to],
            h.at(&t.at),
        )?;
    }
    Ok(())
}

/// The datasheet's printed lists and named blocks (`datasheet_texts`), each under its section.
fn texts(
    st: &mut Statements<'_>,
    h: &Hashes<'_>,
    d: &Datasheet,
    first: Prov<'_>,
) -> rusqlite::Result<()> {
    let s = st.get("datasheet_texts")?;
    let none: Option<&str> = None;
    let lists = [
        ("wargear_option", &d.wargear_options),
        ("unit_composition", &d.unit_composition),
        ("equipment", &d.equipment),
        ("leads", &d.leads),
        ("supports", &d.supports),
        ("printed_elsewhere", &d.weapons_printed_elsewhere),
    ];
    for (section, list) in lists {
        for (i, t) in list.iter().enumerate() {
            row(s, &[&d.id, &section, &i, &none, t], first)?;
        }
    }
    let named = d
        .damaged
        .iter()
        .map(|n| ("damaged", n))
        .chain(d.special_rules.iter().map(|n| ("special_rule", n)));
    for (i, (section, n)) in named.enumerate() {
        row(s, &[&d.id, &section, &i, &n.name, &n.text], h.at(&n.at))?;
    }
    Ok(())
}

fn rule(st: &mut Statements<'_>, h: &Hashes<'_>, r: &Rule) -> rusqlite::Result<()> {
    let p = r.occurrences.first().map(|o| h.at(o)).unwrap_or_default();
    let bullets = json(&r.bullets, r.bullets.is_empty());
    let examples = json(&r.examples, r.examples.is_empty());
    let tables = json(&r.tables, r.tables.is_empty());
    let ed = r.edition.as_str();
    row(
        st.get("rules")?,
        &[
            &r.id, &r.name, &r.kind, &ed, &r.faction, &r.number, &r.parent, &r.flavor, &r.text,
            &bullets, &examples, &tables,
        ],
        p,
    )?;
    sources(st, "rule", &r.id, r.occurrences.iter().map(|o| h.at(o)))?;
    translations(st, "rule", &r.id, &r.translations, p)?;
    let s = st.get("rule_variants")?;
    for (i, v) in r.variants.iter().enumerate() {
        let vp = v.occurrences.first().map(|o| h.at(o)).unwrap_or(p);
        row(s, &[&r.id, &i, &v.text, &v.similarity_permille], vp)?;
    }
    let text: Vec<&str> = std::iter::once(r.text.as_str())
        .chain(r.bullets.iter().map(String::as_str))
        .chain(r.examples.iter().map(String::as_str))
        .collect();
    let name = r.name.as_deref().unwrap_or("");
    document(st, "rule", &r.id, name, &text.join("\n"), ed, None, p)
}

fn stratagem(st: &mut Statements<'_>, s: &Stratagem) -> rusqlite::Result<()> {
    let p = Prov::first(&s.sources);
    let ed = s.edition.as_str();
    row(
        st.get("stratagems")?,
        &[
            &s.id,
            &s.name,
            &ed,
            &s.cp,
            &s.group,
            &s.category,
            &s.flavor,
            &s.when,
            &s.target,
            &s.effect,
            &s.restrictions,
        ],
        p,
    )?;
    sources(st, "stratagem", &s.id, s.sources.iter().map(Prov::of))?;
    translations(st, "stratagem", &s.id, &s.translations, p)?;
    let text: Vec<&str> = [&s.when, &s.target, &s.effect, &s.restrictions]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    document(
        st,
        "stratagem",
        &s.id,
        &s.name,
        &text.join("\n"),
        ed,
        None,
        p,
    )
}

fn enhancement(st: &mut Statements<'_>, e: &Enhancement) -> rusqlite::Result<()> {
    let p = Prov::first(&e.sources);
    let ed = e.edition.as_str();
    row(
        st.get("enhancements")?,
        &[
            &e.id,
            &e.name,
            &ed,
            &e.faction,
            &e.detachment,
            &e.points,
            &e.flavor,
            &e.text,
        ],
        p,
    )?;
    sources(st, "enhancement", &e.id, e.sources.iter().map(Prov::of))?;
    translations(st, "enhancement", &e.id, &e.translations, p)?;
    let name = e.name.as_deref().unwrap_or("");
    document(st, "enhancement", &e.id, name, &e.text, ed, None, p)
}

fn detachment(st: &mut Statements<'_>, d: &Detachment) -> rusqlite::Result<()> {
    let p = Prov::first(&d.sources);
    row(
        st.get("detachments")?,
        &[
            &d.id,
            &d.name,
            &d.edition.as_str(),
            &d.faction,
            &d.points,
            &d.force_disposition,
            &d.unique_tag,
        ],
        p,
    )?;
    sources(st, "detachment", &d.id, d.sources.iter().map(Prov::of))?;
    translations(st, "detachment", &d.id, &d.translations, p)?;
    let s = st.get("detachment_parts")?;
    let parts = [
        ("rule", &d.rules),
        ("enhancement", &d.enhancements),
        ("stratagem", &d.stratagems),
    ];
    for (kind, ids) in parts {
        for (i, id) in ids.iter().enumerate() {
            row(s, &[&d.id, &kind, &i, id], p)?;
        }
    }
    Ok(())
}

fn points(st: &mut Statements<'_>, h: &Hashes<'_>, r: &Points) -> rusqlite::Result<()> {
    let p = Prov::first(&r.sources);
    let kind = match r.kind {
        crate::model::PointsKind::Datasheet => "datasheet",
        crate::model::PointsKind::Enhancement => "enhancement",
    };
    let pb = &r.publication;
    row(
        st.get("points")?,
        &[
            &r.id,
            &r.edition.as_str(),
            &r.subject,
            &r.name,
            &kind,
            &r.forge_world,
            &r.legends,
            &pb.title,
            &pb.version,
            &pb.date,
        ],
        p,
    )?;
    sources(st, "points", &r.id, r.sources.iter().map(Prov::of))?;
    tiers(st, "points_tiers", &r.id, &r.tiers, h)?;
    let s = st.get("points_wargear")?;
    for (i, w) in r.wargear.iter().enumerate() {
        row(s, &[&r.id, &i, &w.item, &w.points], h.at(&w.at))?;
    }
    Ok(())
}

fn erratum(st: &mut Statements<'_>, e: &Erratum) -> rusqlite::Result<()> {
    let p = Prov::first(&e.sources);
    let target_kind = serde_json::to_value(e.target_kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string));
    let op_kind = e.op.as_ref().map(|o| o.kind.as_str());
    let op = e.op.as_ref().and_then(|o| serde_json::to_string(o).ok());
    let targets = json(&e.targets, e.targets.is_empty());
    let applied = json(&e.applied_to, e.applied_to.is_empty());
    let pb = &e.publication;
    row(
        st.get("errata")?,
        &[
            &e.id,
            &e.edition.as_str(),
            &e.target_printed,
            &targets,
            &target_kind,
            &e.faction,
            &e.section,
            &e.qualifier,
            &e.instruction,
            &op_kind,
            &op,
            &pb.title,
            &pb.version,
            &pb.date,
            &applied,
        ],
        p,
    )?;
    sources(st, "erratum", &e.id, e.sources.iter().map(Prov::of))
}

/// The dataset's diagnostics, each at its file and line.
fn diagnostics(
    st: &mut Statements<'_>,
    ds: &LoadedDataset,
    h: &Hashes<'_>,
) -> rusqlite::Result<()> {
    let s = st.get("diagnostics")?;
    for d in &ds.diagnostics {
        let severity = serde_json::to_value(d.severity)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string));
        let p = Prov {
            file: d.file.as_deref(),
            line: d.line,
            page: None,
            sha256: d.file.as_deref().and_then(|f| h.0.get(f).copied()),
        };
        row(s, &[&severity, &d.code, &d.message], p)?;
    }
    Ok(())
}
