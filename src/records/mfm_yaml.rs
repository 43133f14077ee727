//! The Munitorum Field Manual as YAML (11th edition's points): a `meta.yaml` (`version`,
//! `lastUpdated`, `notes`, `factions`) and one YAML file per faction (`detachments[]` with
//! `dp`, `objective`, `unique`, `enhancements[]`; `units[]` with `pricing[]` tiers per
//! unit-count `range` and `wargear[]`) → [`Points`] records (one per unit), and
//! [`Detachment`]s and [`Enhancement`]s carrying what the manual prices of them (DP, Force
//! Disposition, unique tag, enhancement points).
//!
//! Owns: claiming such files by content (never by folder name), their typed reading through
//! `serde-saphyr` with a budget in proportion to the file, the unit-count ranges (`[1,3]`,
//! `[4,)`), the edition from the YAML's own markers, the publication (version, date; its title
//! is not in the YAML: `null` with `M004`). Must not: guess a range, an edition or a title
//! (a diagnostic instead), read the saved HTML pages, merge points onto datasheets (the
//! pipeline's and reconcile's job), do I/O.

use crate::diag::{Code, Diagnostic};
use crate::edition::Edition;
use crate::extract::Extracted;
use crate::ids;
use crate::model::{
    Detachment, Enhancement, Points, PointsKind, PointsOption, Publication, UnitRange,
    WargearPoints,
};
use crate::source::{Location, Provenance, SourceFile};
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// The record source (one line of `records::SOURCES`).
pub const SOURCE: super::RecordSource = super::RecordSource {
    name: "mfm-yaml",
    claims,
    read,
};

/// The edition every marker found in this YAML names (the manual is 11th edition's).
const EDITION: Edition = Edition::Eleventh;

/// What a file of the manual is, from its top-level keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `factions`, `version` and `lastUpdated`.
    Meta,
    /// `units` whose entries have `pricing`.
    Faction,
}

/// The kind of a file from its top-level keys (cheap: lines, no parse); `None` for any other
/// YAML.
fn kind(file: &SourceFile) -> Option<Kind> {
    let name = super::file_name(&file.path).to_ascii_lowercase();
    if !(name.ends_with(".yaml") || name.ends_with(".yml") || file.bytes.starts_with(b"%YAML")) {
        return None;
    }
    let text = String::from_utf8_lossy(&file.bytes);
    let top = |key: &str| {
        text.lines().any(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.starts_with(':'))
        })
    };
    if top("factions") && top("version") && top("lastUpdated") {
        Some(Kind::Meta)
    } else if top("units")
        && text
            .lines()
            .any(|l| l.trim_start().starts_with("pricing:") && l.starts_with(' '))
    {
        Some(Kind::Faction)
    } else {
        None
    }
}

/// Claims a group with a file of the manual (a meta or a faction file).
fn claims(group: &super::Group) -> bool {
    group.files.iter().any(|f| kind(f).is_some())
}

#[derive(Debug, Deserialize)]
struct MetaFile {
    version: Option<String>,
    #[serde(rename = "lastUpdated")]
    last_updated: Option<String>,
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
struct FactionFile {
    name: Option<String>,
    version: Option<Spanned<String>>,
    #[serde(default)]
    detachments: Vec<Spanned<DetachmentEntry>>,
    #[serde(default)]
    units: Vec<Spanned<UnitEntry>>,
}

#[derive(Debug, Deserialize)]
struct DetachmentEntry {
    name: String,
    dp: Option<u32>,
    objective: Option<String>,
    unique: Option<String>,
    #[serde(default)]
    enhancements: Vec<Spanned<EnhancementEntry>>,
}

#[derive(Debug, Deserialize)]
struct EnhancementEntry {
    name: String,
    points: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct UnitEntry {
    name: String,
    #[serde(rename = "groupTitle")]
    group_title: Option<String>,
    #[serde(default)]
    pricing: Vec<Spanned<Pricing>>,
    #[serde(default)]
    wargear: Vec<Spanned<WargearEntry>>,
}

#[derive(Debug, Deserialize)]
struct Pricing {
    range: String,
    label: Option<String>,
    #[serde(default)]
    costs: Vec<Spanned<Cost>>,
}

#[derive(Debug, Deserialize)]
struct Cost {
    models: u32,
    points: u32,
    desc: Option<String>,
    #[serde(default)]
    addon: bool,
}

#[derive(Debug, Deserialize)]
struct WargearEntry {
    item: String,
    points: u32,
}

/// The 1-based line of a spanned value (0 when the parser gave none).
fn line_of<T>(s: &Spanned<T>) -> u32 {
    u32::try_from(s.referenced.line()).unwrap_or(0)
}

/// Parses one file of the manual with a budget in proportion to its size (nesting, aliases,
/// nodes): an error is `M001` at its line.
fn parse<T: for<'de> Deserialize<'de>>(file: &SourceFile) -> Result<T, Diagnostic> {
    let text = String::from_utf8_lossy(&file.bytes);
    let nodes = file.bytes.len() / 2 + 10_000;
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: 16,
            max_aliases: 100,
            max_anchors: 100,
            max_nodes: nodes,
            max_events: 2 * nodes,
        },
    };
    serde_saphyr::from_str_with_options::<T>(&text, options).map_err(|e| {
        let line = e
            .location()
            .map_or(0, |l| u32::try_from(l.line()).unwrap_or(0));
        let message = e.to_string();
        let first = message.lines().next().unwrap_or("invalid YAML");
        // The library's own `error: line L column C:` prefix: the location is the diagnostic's.
        let first = first.strip_prefix("error: ").unwrap_or(first);
        let first = match first.split_once(": ") {
            Some((head, rest)) if head.starts_with("line ") => rest,
            _ => first,
        };
        Diagnostic::new(Code::MfmUnreadable, format!("not read: {first}")).at(&file.path, line)
    })
}

/// `[1,3]` → from 1 to 3, `[4,)` → from 4 on; `None` for anything else (`[3,1]`, `[0,2]`,
/// `1-3`).
pub fn unit_range(range: &str) -> Option<UnitRange> {
    let inner = range.trim().strip_prefix('[')?;
    let (from, rest) = inner.split_once(',')?;
    let from: u32 = from.trim().parse().ok()?;
    if from == 0 {
        return None;
    }
    let rest = rest.trim();
    if rest == ")" {
        return Some(UnitRange { from, to: None });
    }
    let to: u32 = rest.strip_suffix(']')?.trim().parse().ok()?;
    (to >= from).then_some(UnitRange { from, to: Some(to) })
}

/// Whether the meta notes carry one of 11th edition's markers (`schemas/editions.yaml`).
fn notes_mark_edition(notes: &str) -> bool {
    let notes = notes.to_lowercase();
    crate::edition::markers(EDITION)
        .iter()
        .any(|m| notes.contains(m.as_str()))
}

/// Reads a claimed group: the meta file (no records; the publication's version and date and
/// the edition's markers for the faction files) and each faction file.
pub fn read(group: &super::Group) -> Vec<Extracted> {
    let mut out = Vec::new();
    let mut meta: Option<(&SourceFile, MetaFile)> = None;
    let mut factions: Vec<&SourceFile> = Vec::new();
    for &f in group.files {
        match kind(f) {
            Some(Kind::Meta) if meta.is_none() => match parse::<MetaFile>(f) {
                Ok(m) => meta = Some((f, m)),
                Err(d) => out.push(diagnostics_only(f, vec![d])),
            },
            Some(Kind::Faction) => factions.push(f),
            _ => {}
        }
    }
    let marked = meta
        .as_ref()
        .and_then(|(_, m)| m.notes.as_deref())
        .is_some_and(notes_mark_edition);
    let version = meta.as_ref().and_then(|(_, m)| m.version.clone());
    let date = meta.as_ref().and_then(|(_, m)| m.last_updated.clone());
    let mut any_points = false;
    for f in factions {
        let ex = read_faction(f, marked, version.as_deref(), date.as_deref());
        any_points |= !ex.points.is_empty();
        out.push(ex);
    }
    let meta_path = meta.as_ref().map(|(f, _)| f.path.clone());
    if let Some((f, _)) = meta {
        let mut ex = diagnostics_only(f, Vec::new());
        ex.edition = marked.then_some(EDITION);
        ex.dated = date.clone();
        out.push(ex);
    }
    // The title: once per group, on the meta file when there is one.
    if any_points {
        let at = out
            .iter()
            .position(|e| meta_path.as_deref() == Some(e.file.as_str()))
            .or_else(|| out.iter().position(|e| !e.points.is_empty()));
        if let Some(k) = at {
            let file = out[k].file.clone();
            out[k].diagnostics.push(
                Diagnostic::new(
                    Code::MfmNoTitle,
                    "the YAML names no publication title; publication.title is null",
                )
                .in_file(&file),
            );
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// An `Extracted` for `file` holding only `diagnostics`.
fn diagnostics_only(file: &SourceFile, diagnostics: Vec<Diagnostic>) -> Extracted {
    Extracted {
        file: file.path.clone(),
        sha256: file.sha256.clone(),
        diagnostics,
        ..Default::default()
    }
}

/// What every record of one faction file shares.
struct Context<'a> {
    file: &'a SourceFile,
    /// The faction the file prices for (its `name` through the vocabulary).
    faction: Option<String>,
    publication: Publication,
}

impl Context<'_> {
    fn at(&self, line: u32) -> Location {
        Location::at_line(self.file.path.clone(), line)
    }

    fn from(&self, line: u32) -> Provenance {
        Provenance::at_line(self.file.path.clone(), line, self.file.sha256.clone())
    }
}

/// One faction file → its points, detachments and enhancements.
fn read_faction(
    file: &SourceFile,
    marked: bool,
    meta_version: Option<&str>,
    date: Option<&str>,
) -> Extracted {
    let parsed: FactionFile = match parse(file) {
        Ok(p) => p,
        Err(d) => return diagnostics_only(file, vec![d]),
    };
    let mut ex = diagnostics_only(file, Vec::new());
    if !marked && !parsed.detachments.iter().any(|d| d.value.dp.is_some()) {
        ex.diagnostics.push(
            Diagnostic::new(
                Code::MfmNoEdition,
                "no edition marker (no meta.yaml notes naming one, no detachment with dp); not read",
            )
            .in_file(&file.path),
        );
        return ex;
    }
    ex.edition = Some(EDITION);
    ex.dated = date.map(str::to_string);
    let faction: Option<String> = parsed
        .name
        .as_deref()
        .map(|n| super::faction_of(EDITION, n));
    ex.faction = faction.clone();
    let version = version_of(
        file,
        parsed.version.as_ref(),
        meta_version,
        &mut ex.diagnostics,
    );
    let publication = Publication {
        title: None,
        version,
        date: date.map(str::to_string),
    };
    let cx = Context {
        file,
        faction,
        publication,
    };
    for unit in &parsed.units {
        if let Some(p) = unit_points(&cx, unit, &mut ex.diagnostics) {
            ex.points.push(p);
        }
    }
    for det in &parsed.detachments {
        detachment(&cx, det, &mut ex);
    }
    ex
}

/// The vocabulary of the manual's edition.
const VOCAB: &crate::vocab::Vocabulary = &crate::vocab::ELEVENTH;

/// The publication version of a faction file: its own `version`, else meta.yaml's (`M003`
/// when both are given and differ).
fn version_of(
    file: &SourceFile,
    own: Option<&Spanned<String>>,
    meta: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    match (own, meta) {
        (Some(v), Some(m)) if v.value != m => {
            diagnostics.push(
                Diagnostic::new(
                    Code::MfmVersionMismatch,
                    format!(
                        "version '{}' differs from meta.yaml's '{m}'; the file's is kept",
                        v.value
                    ),
                )
                .at(&file.path, line_of(v)),
            );
            Some(v.value.clone())
        }
        (Some(v), _) => Some(v.value.clone()),
        (None, m) => m.map(str::to_string),
    }
}

/// One unit's points record: its tiers (per unit-count range), its wargear and add-ons.
/// `None` when nothing of it could be read.
fn unit_points(
    cx: &Context,
    unit: &Spanned<UnitEntry>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Points> {
    let u = &unit.value;
    let unit_faction = u
        .group_title
        .as_deref()
        .and_then(|g| VOCAB.faction_named(g))
        .map(str::to_string)
        .or_else(|| cx.faction.clone());
    let subject = ids::datasheet(EDITION, unit_faction.as_deref(), &u.name);
    // A unit of another faction priced in this faction's list (Space Marines units in the
    // Blood Angels list, at Blood Angels prices) is its own record of the publication.
    let key = if unit_faction != cx.faction {
        let list = cx.faction.as_deref().unwrap_or("unknown");
        format!("{} {list}", cx.publication.key())
    } else {
        cx.publication.key().to_string()
    };
    let mut tiers = Vec::new();
    let mut wargear = Vec::new();
    for pricing in &u.pricing {
        tiers_of(cx, &u.name, pricing, &mut tiers, &mut wargear, diagnostics);
    }
    for w in &u.wargear {
        wargear.push(WargearPoints {
            item: w.value.item.clone(),
            points: w.value.points,
            at: cx.at(line_of(w)),
        });
    }
    if tiers.is_empty() && wargear.is_empty() {
        return None;
    }
    Some(Points {
        id: ids::points(EDITION, &key, &subject),
        edition: EDITION,
        subject,
        name: u.name.clone(),
        tiers,
        wargear,
        publication: cx.publication.clone(),
        kind: PointsKind::Datasheet,
        forge_world: false,
        legends: false,
        sources: vec![cx.from(line_of(unit))],
    })
}

/// The tiers of one `pricing` entry (its unit-count range on each; `M002` and none when the
/// range does not read), its add-ons as wargear, `M006` for model counts priced twice.
fn tiers_of(
    cx: &Context,
    unit: &str,
    pricing: &Spanned<Pricing>,
    tiers: &mut Vec<PointsOption>,
    wargear: &mut Vec<WargearPoints>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let p = &pricing.value;
    let Some(units) = unit_range(&p.range) else {
        diagnostics.push(
            Diagnostic::new(
                Code::MfmRangeUnparsed,
                format!(
                    "{unit}: unit-count range '{}' not understood; tier '{}' dropped",
                    p.range,
                    p.label.as_deref().unwrap_or("")
                ),
            )
            .at(&cx.file.path, line_of(pricing)),
        );
        return;
    };
    let mut by_models: BTreeMap<u32, usize> = BTreeMap::new();
    for c in p.costs.iter().filter(|c| !c.value.addon) {
        *by_models.entry(c.value.models).or_default() += 1;
    }
    for cost in &p.costs {
        let c = &cost.value;
        if c.addon {
            // An optional model bought on top of the unit (Invader ATV): priced per item
            // taken, as wargear is.
            wargear.push(WargearPoints {
                item: c.desc.clone().unwrap_or_else(|| "add-on".into()),
                points: c.points,
                at: cx.at(line_of(cost)),
            });
        } else if by_models.get(&c.models).copied().unwrap_or(0) > 1 {
            diagnostics.push(
                Diagnostic::new(
                    Code::MfmTiersByComposition,
                    format!(
                        "{unit}: {} models cost {} as '{}' and differently as another composition in range '{}'; tier dropped",
                        c.models,
                        c.points,
                        c.desc.as_deref().unwrap_or(""),
                        p.range
                    ),
                )
                .at(&cx.file.path, line_of(cost)),
            );
        } else {
            tiers.push(PointsOption {
                models: c.models,
                points: c.points,
                at: cx.at(line_of(cost)),
                units: Some(units),
            });
        }
    }
}

/// One detachment: its DP, Force Disposition (the vocabulary's spelling) and unique tag, and
/// its enhancements' points (records without text: the manual prints none).
fn detachment(cx: &Context, det: &Spanned<DetachmentEntry>, ex: &mut Extracted) {
    let d = &det.value;
    let faction = cx.faction.as_deref();
    let mut enhancements = Vec::new();
    for e in &d.enhancements {
        let id = ids::enhancement(EDITION, faction, Some(&d.name), &e.value.name);
        enhancements.push(id.clone());
        ex.enhancements.push(Enhancement {
            id,
            name: Some(e.value.name.clone()),
            edition: EDITION,
            faction: cx.faction.clone(),
            detachment: Some(d.name.clone()),
            points: e.value.points,
            flavor: None,
            text: String::new(),
            sources: vec![cx.from(line_of(e))],
            translations: Default::default(),
        });
    }
    ex.detachments.push(Detachment {
        id: ids::detachment(EDITION, faction, &d.name),
        name: d.name.clone(),
        edition: EDITION,
        faction: cx.faction.clone(),
        rules: Vec::new(),
        enhancements,
        stratagems: Vec::new(),
        sources: vec![cx.from(line_of(det))],
        points: d.dp,
        force_disposition: d
            .objective
            .as_deref()
            .and_then(|o| VOCAB.force_disposition(o))
            .map(str::to_string),
        unique_tag: d.unique.clone(),
        translations: Default::default(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_ranges() {
        let r = |from, to| Some(UnitRange { from, to });
        assert_eq!(unit_range("[1,3]"), r(1, Some(3)));
        assert_eq!(unit_range("[4,)"), r(4, None));
        assert_eq!(unit_range(" [ 1 , 1 ] "), r(1, Some(1)));
        for bad in ["[3,1]", "[0,2]", "1-3", "[1,3)", "[a,)", "[1,", "", "[,3]"] {
            assert_eq!(unit_range(bad), None, "{bad}");
        }
    }
}
