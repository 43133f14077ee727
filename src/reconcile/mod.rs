//! Reconciliation across sources: for every datasheet two or more *sources* print, every
//! compared field, which sources agree, which differ, and why (`reconciliation.json`).
//!
//! A *source* is a kind of input: the record source that read a structured file (`bsdata`
//! for BattleScribe XML and JSON, `export` for Wahapedia's CSV export, `game-datacards`), else
//! named from the format the manifest gives a document: `pages` (HTML
//! pages), `pdf`, `markdown`, `text`. Several files of one source (two scrapes
//! of the site) are one reading of it, merged by the same policy table as the dataset
//! ([`merge`], with [`conflict`] its view of a field; neither imports this file). The matching
//! rules (`Soul Grinder` split into one unit per god; weapon names) are [`matching`]'s; names
//! and categories are the comparison core's (`compare`).
//!
//! **Fields** (the *checks*; a path names each): per model profile (by [`name_key`],
//! the profiles no other reading names paired by position) its presence `models[k]` and each
//! characteristic `models[k].T`; per weapon (keys paired by the weapon rule) `weapons[k]`, each
//! characteristic `weapons[k].AP` and its keyword list `weapons[k].keywords`; per keyword
//! `keywords[k]`; `faction_keywords`; per points tier `points[N]` (N models); per ability name
//! `abilities[k]`; `invulnerable_save` (none is a value).
//!
//! **Categories** of a source's difference from the reference value (the value most sources
//! print; a tie goes to the emitted value):
//! - `naming`: the same thing spelled differently: equal once names are compared by
//!   [`name_key`] (case, apostrophes, dashes, singular/plural, `(Ref. only)`), a
//!   keyword printed split where another source joins it (every word of it is a word of the
//!   source's keywords), a weapon paired by the weapon rule; and the variants of an N-to-1
//!   match that differ among themselves (`note: variant …`);
//! - `version`: a source of the reference printed this value itself in another of its
//!   readings, dated otherwise (an older scrape of the pages printed the export's points);
//! - `data_error`: three or more sources print the field, the reference value is held by two or
//!   more of them and by more sources than this value: one side contradicts the others;
//! - `version`: otherwise, when this source and every source of the reference carry a date
//!   or version ([`Dated`]: a faction pack's version, an export's `Last_update.csv`, a
//!   BattleScribe `revision`) and they differ (the note says which);
//! - `data_error` too when no date explains it (a source without one, or the same);
//! - `absent` (listed apart, not a difference): the source does not print the field at all
//!   (no points, no weapons, no keywords…, or a weapon its card sends to another card for the
//!   profile: `weapons_printed_elsewhere`): it neither agrees nor disagrees.
//!
//! For each field the report gives the emitted value (the merged datasheet's) and the merge
//! policy's reason (the datasheet row of `schemas/merge.yaml`, and the reading the newer-wins
//! fields come from).
//! Per faction: agreement of every pair of sources over the fields both print, and the fields
//! every source of a three-or-more-source datasheet prints and agrees on.
//!
//! Pure and deterministic: sorted maps, relative paths only.

pub mod conflict;
pub mod matching;
pub mod merge;
pub mod points;

use crate::compare::names::name_key;
use crate::compare::percent;
use crate::compare::view::{compare, keyed, split_path, value_at, view, Value, View};
pub use crate::compare::Category;
use crate::extract::Extracted;
use crate::model::Datasheet;
use matching::{Candidate, UnitMatches};
use merge::{Mergeable, Origin, Records};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// An extracted file's source: its record source's (`bsdata` for BattleScribe XML and JSON
/// alike, `export` for Wahapedia's, `game-datacards`), else named from the format the manifest
/// gives the file.
fn source_of<'a>(e: &'a Extracted, formats: &'a BTreeMap<String, String>) -> &'a str {
    match (e.record_source, formats.get(&e.file).map(String::as_str)) {
        (Some("wahapedia-csv"), _) | (None, Some("csv")) => "export",
        (Some(name), _) => name,
        (None, Some("xml")) => "bsdata",
        (None, Some("html")) => "pages",
        (None, format) => format.unwrap_or(""),
    }
}

/// A date or version a reading carries.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Dated {
    pub source: String,
    pub file: String,
    /// `faction pack v1.8`, `export 2025-11-14 19:35:22`, `revision 124`; absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dated: Option<String>,
}

/// One reading of a datasheet, kept for the report.
#[derive(Debug, Clone)]
struct Reading {
    /// Its source, file and date.
    from: Dated,
    version: Option<(u32, u32)>,
    datasheet: Datasheet,
    /// Read as one of several variants of one unit (the unit rule).
    variant: bool,
}

/// What [`prepare`] keeps until the merge is done, for the report ([`Prepared::report`]).
#[derive(Debug, Default)]
pub struct Prepared {
    readings: BTreeMap<String, Vec<Reading>>,
    matches: UnitMatches,
    /// Where each multi-source datasheet's newer-wins fields come from (set by [`merge`]).
    origins: BTreeMap<String, Origin>,
}

/// Before the merge: applies the unit rule (a reading of an unmatched id that matches another
/// source's takes that id; variants are taken out of `extracted`, so they do not enter the
/// merge) and keeps a copy of every datasheet reading for the report. `formats`: file →
/// format, from the manifest.
pub fn prepare(extracted: &mut [Extracted], formats: &BTreeMap<String, String>) -> Prepared {
    // Each extracted file's source, in `extracted`'s order.
    let sources: Vec<String> = extracted
        .iter()
        .map(|e| source_of(e, formats).to_string())
        .collect();
    let cands: Vec<Candidate<'_>> = extracted
        .iter()
        .zip(&sources)
        .flat_map(|(e, s)| {
            e.datasheets.iter().map(move |d| Candidate {
                id: &d.id,
                source: s,
                datasheet: d,
            })
        })
        .collect();
    let matches = matching::match_units(&cands);
    let by_from: BTreeMap<(&str, &str), &matching::UnitMatch> = matches
        .matches
        .iter()
        .map(|m| ((m.from.as_str(), m.source.as_str()), m))
        .collect();
    // Ids two or more sources print once matched: only their readings are kept.
    let mut sources_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in &cands {
        let id = by_from.get(&(c.id, c.source)).map_or(c.id, |m| &m.to);
        let printed_by = sources_of.entry(id.to_string()).or_default();
        printed_by.insert(c.source.to_string());
    }
    let mut readings: BTreeMap<String, Vec<Reading>> = BTreeMap::new();
    for (ex, source) in extracted.iter_mut().zip(&sources) {
        let dated = match ex.version {
            Some((a, b)) => Some(format!("faction pack v{a}.{b}")),
            None => ex.dated.clone(),
        };
        let mut kept = Vec::with_capacity(ex.datasheets.len());
        for mut d in std::mem::take(&mut ex.datasheets) {
            let m = by_from.get(&(d.id.as_str(), source.as_str())).copied();
            if let Some(m) = m {
                d.id = m.to.clone();
            }
            let variant = m.is_some_and(|m| m.variant);
            if sources_of.get(&d.id).map_or(true, |s| s.len() < 2) {
                kept.push(d);
                continue;
            }
            readings.entry(d.id.clone()).or_default().push(Reading {
                from: Dated {
                    source: source.clone(),
                    file: ex.file.clone(),
                    dated: dated.clone(),
                },
                version: ex.version,
                datasheet: d.clone(),
                variant,
            });
            if !variant {
                kept.push(d);
            }
        }
        ex.datasheets = kept;
    }
    Prepared {
        readings,
        matches,
        origins: BTreeMap::new(),
    }
}

fn sources(rs: &[Reading]) -> BTreeSet<&str> {
    rs.iter().map(|r| r.from.source.as_str()).collect()
}

/// The report (`reconciliation.json`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// The rules, in words.
    pub method: Method,
    /// Every file that printed a multi-source datasheet, with its source and date.
    pub sources: Vec<Dated>,
    /// The unit rule's matches (ids merged that differ) and ambiguous ids.
    pub matches: UnitMatches,
    pub factions: Vec<FactionFigures>,
    pub datasheets: Vec<DatasheetReport>,
}

/// The rules the report applied, in words (the module doc of `reconcile` and `matching`).
#[derive(Debug, Clone, Serialize)]
pub struct Method {
    pub units: &'static str,
    pub weapons: &'static str,
    pub categories: &'static str,
}

impl Default for Method {
    fn default() -> Self {
        Method {
            units: "an unmatched datasheet matches an unmatched datasheet of another source, same edition and faction, whose name is a run of whole words at the start or end of its own name, the other words being one of its own keywords; two or more of one source for one are variants (one datasheet, every source; variant differences are naming)",
            weapons: "within a datasheet, two weapon names no reading has both of, with identical type and characteristics, sharing their first word, each the other's only candidate, are one weapon (naming)",
            categories: "naming: equal once names are folded (case, apostrophes, dashes, singular/plural, (Ref. only), split keywords, paired weapons, variants); version: a source of the reference printed this value in another of its readings, dated otherwise; data_error: 3+ sources print it and a value held by 2+ sources and more sources contradicts it; version: otherwise when both sides carry dates/versions and they differ; data_error: otherwise; absent: the source does not print the field at all (no disagreement)",
        }
    }
}

/// Agreement of one pair of sources over the fields both print.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct PairFigures {
    pub sources: [String; 2],
    pub datasheets: usize,
    pub checks: usize,
    pub agree: usize,
    /// Agreeing once `naming` differences are set aside.
    pub agree_up_to_naming: usize,
    pub percent: f64,
    pub percent_up_to_naming: f64,
}

/// The figures of one faction.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FactionFigures {
    pub faction: String,
    /// Datasheets two or more sources print.
    pub datasheets: usize,
    pub pairs: Vec<PairFigures>,
    /// Over datasheets three or more sources print: fields every one of them prints, and
    /// those on which they all agree.
    pub all_sources: AllFigures,
    /// Differences by category; `absent`: (field, source) pairs not printed.
    pub categories: BTreeMap<String, usize>,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct AllFigures {
    pub datasheets: usize,
    pub checks: usize,
    pub agree: usize,
    pub percent: f64,
}

/// One datasheet two or more sources print.
#[derive(Debug, Clone, Serialize)]
pub struct DatasheetReport {
    pub id: String,
    pub name: Option<String>,
    pub faction: Option<String>,
    pub sources: Vec<String>,
    /// Where the merged record's newer-wins fields come from, and why (the merge's origin).
    pub kept_from: String,
    /// The merge policy's row for each compared field group (`points`, `weapons`, …): which
    /// reading wins and why.
    pub policy: BTreeMap<String, String>,
    pub fields: Vec<FieldReport>,
}

/// One compared field.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FieldReport {
    pub field: String,
    /// The merged datasheet's value (absent when the dataset has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emitted: Option<String>,
    /// The reference value: the one most sources print (a tie goes to the emitted value);
    /// absent when no source prints the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The sources that print the reference value.
    pub agree: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differ: Vec<Difference>,
    /// Sources that print the datasheet but not this field at all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
}

/// One source's value that is not the reference.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Difference {
    pub source: String,
    /// Absent when the source prints none (the crosscheck: a value or item missing on our side).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub category: Category,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The crosscheck only: where the source printed it (our `file:line`) and the export's row
    /// (`Datasheets_wargear.csv:5871`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export_at: Option<String>,
}

/// A source's readings of one datasheet, beside its views in [`Keyed`].
struct SourceViews {
    source: String,
    dated: Option<String>,
    /// When the source has several readings of the datasheet: each one's date, file and view
    /// (an older reading may print the value another source prints).
    history: Vec<(Option<String>, String, View)>,
}

/// The merge of every reading of a run (`extracted` in path order; `formats`: file → format,
/// from the manifest) with the matching rules applied first. The records leave `extracted`
/// (rules, errata and quarantine stay). Each datasheet then takes its newest publication's
/// points from `points` ([`points::apply`]). The report over the datasheets two or more
/// sources print is [`Prepared::report`]'s, once the merged datasheets are final (the pipeline
/// applies the errata in between).
pub fn merge(
    extracted: &mut [Extracted],
    formats: &BTreeMap<String, String>,
    points: &[crate::model::Points],
) -> (merge::Merged, Prepared) {
    let mut prepared = prepare(extracted, formats);
    let merger = merge::Merger::of(extracted);
    // Where the newer-wins fields of each datasheet two or more sources print come from.
    prepared.origins = (prepared.readings.iter())
        .filter(|(_, rs)| sources(rs).len() > 1)
        .filter_map(|(id, _)| Some((id.clone(), merger.datasheets.origin(id)?.clone())))
        .collect();
    let mut merged = merger.finish();
    points::apply(&mut merged.datasheets, points, &mut merged.diagnostics);
    points::apply_enhancements(&mut merged.enhancements, points, &mut merged.diagnostics);
    (merged, prepared)
}

impl Prepared {
    /// After the merge: adds the variants' sources to the datasheet they matched, and builds
    /// the report over the datasheets two or more sources print (`None` when there is none).
    /// `merged` is sorted by id (the merge's `Records::into_sorted`).
    pub fn report(self, merged: &mut [Datasheet]) -> Option<Report> {
        let index =
            |merged: &[Datasheet], id: &str| merged.binary_search_by(|d| d.id.as_str().cmp(id));
        // Variants' provenance joins the datasheet they are variants of.
        for (id, rs) in &self.readings {
            let Ok(i) = index(merged, id) else { continue };
            let extra: Vec<_> = rs
                .iter()
                .filter(|r| r.variant)
                .flat_map(|r| r.datasheet.sources.iter().cloned())
                .collect();
            if !extra.is_empty() {
                merged[i].sources.extend(extra);
                merged[i].sort_lists();
            }
        }
        let mut report = Report {
            matches: self.matches,
            ..Report::default()
        };
        let mut files: BTreeSet<Dated> = BTreeSet::new();
        for (id, rs) in &self.readings {
            if sources(rs).len() < 2 {
                continue;
            }
            let Ok(i) = index(merged, id) else { continue };
            files.extend(rs.iter().map(|r| r.from.clone()));
            report
                .datasheets
                .push(datasheet_report(&merged[i], rs, self.origins.get(id)));
        }
        if report.datasheets.is_empty() {
            return None;
        }
        report.sources = files.into_iter().collect();
        report.factions = figures(&report.datasheets);
        Some(report)
    }
}

/// Merges one source's readings (not variants) by the dataset's policy; the date of the
/// reading its newer-wins fields come from.
fn per_source(rs: &[&Reading]) -> Option<(Datasheet, Option<String>)> {
    let mut recs: Records<Datasheet> = Records::default();
    let mut sink = Vec::new();
    for r in rs {
        recs.add(r.datasheet.clone(), r.version, &r.from.file, &mut sink);
    }
    let origin = recs.origin(&rs.first()?.datasheet.id);
    let from = origin.and_then(|(_, f)| rs.iter().find(|r| r.from.file == *f));
    let dated = from.and_then(|r| r.from.dated.clone());
    recs.into_sorted().into_iter().next().map(|d| (d, dated))
}

/// The reading a merged record's newer-wins fields come from: its file and faction pack
/// version (`no_version` when it has none).
fn origin_label((version, file): &Origin, no_version: &str) -> String {
    match version {
        Some((a, b)) => format!("{file} (faction pack v{a}.{b})"),
        None => format!("{file} ({no_version})"),
    }
}

fn reason(field: &str, origin: Option<&Origin>) -> String {
    let top = split_path(field).0;
    let row = merge::table(conflict::RecordKind::Datasheet)
        .iter()
        .find(|r| r.covers(top));
    let from = origin.map_or("-".into(), |o| {
        origin_label(o, "no version; first in path order")
    });
    row.map_or(String::new(), |r| {
        let wins: &str = r.wins.into();
        format!("{wins} wins, from {from}: {}", r.why)
    })
}

fn datasheet_report(
    merged: &Datasheet,
    rs: &[Reading],
    origin: Option<&Origin>,
) -> DatasheetReport {
    // Per source: its own merged reading, or its variants.
    let mut by_source: BTreeMap<&str, (Vec<&Reading>, Vec<&Reading>)> = BTreeMap::new();
    for r in rs {
        let (plain, variants) = by_source.entry(&r.from.source).or_default();
        (if r.variant { variants } else { plain }).push(r);
    }
    // (source, dated, [(variant name, datasheet)])
    type Named = Vec<(String, Datasheet)>;
    let mut readings: Vec<(String, Option<String>, Named)> = Vec::new();
    for (s, (plain, variants)) in &by_source {
        if let Some((d, dated)) = per_source(plain) {
            readings.push((s.to_string(), dated, vec![(String::new(), d)]));
        } else if !variants.is_empty() {
            let name = |r: &&Reading| r.datasheet.name.clone().unwrap_or_default();
            let vs = variants.iter().map(|r| (name(r), r.datasheet.clone()));
            readings.push((s.to_string(), variants[0].from.dated.clone(), vs.collect()));
        }
    }
    let sides: Vec<Vec<(String, &Datasheet)>> = (readings.iter())
        .map(|(_, _, vs)| vs.iter().map(|(n, d)| (n.clone(), d)).collect())
        .collect();
    let keyed = keyed(&sides);
    // Other datasheets (the emitted one, a source's single readings): models keyed like the
    // readings'.
    let known: BTreeSet<&String> = keyed.model_keys.iter().flatten().collect();
    let keys_of = |d: &Datasheet| -> Vec<String> {
        let mut pos = 0;
        d.models
            .iter()
            .map(|m| {
                let key = name_key(m.name.as_deref().unwrap_or(""));
                if known.contains(&key) {
                    key
                } else {
                    pos += 1;
                    format!("#{pos}")
                }
            })
            .collect()
    };
    let sources: Vec<SourceViews> = (readings.iter())
        .map(|(s, dated, _)| {
            // Several readings of one source: each one's view, for the `version` rule.
            let plain = by_source.get(s.as_str()).map_or(&[][..], |p| &p.0[..]);
            let history = (plain.iter().filter(|_| plain.len() > 1))
                .map(|r| {
                    let v = view(&r.datasheet, &keys_of(&r.datasheet), &keyed.alias);
                    (r.from.dated.clone(), r.from.file.clone(), v)
                })
                .collect();
            SourceViews {
                source: s.clone(),
                dated: dated.clone(),
                history,
            }
        })
        .collect();
    let emitted = view(merged, &keys_of(merged), &keyed.alias);
    let mut fields = Vec::new();
    let mut policy = BTreeMap::new();
    for (path, values) in compare(&keyed.views) {
        let emitted_value = emitted.checks.get(&path).map(|(e, _)| e.clone());
        policy
            .entry(split_path(&path).0.to_string())
            .or_insert_with(|| reason(&path, origin));
        fields.push(field_report(&path, &sources, &values, emitted_value));
    }
    DatasheetReport {
        id: merged.id.clone(),
        name: merged.name.clone(),
        faction: merged.faction.clone(),
        sources: sources.iter().map(|s| s.source.clone()).collect(),
        kept_from: origin.map_or(String::new(), |o| origin_label(o, "no version")),
        policy,
        fields,
    }
}

/// One field's report from each source's value there (`values`, in `sources`' order).
fn field_report(
    path: &str,
    sources: &[SourceViews],
    values: &[Value],
    emitted: Option<String>,
) -> FieldReport {
    let mut f = FieldReport {
        field: path.to_string(),
        emitted: emitted.clone(),
        ..FieldReport::default()
    };
    // (source, exact, loose, dated)
    let mut present: Vec<(&str, String, String, Option<&str>)> = Vec::new();
    for (s, value) in sources.iter().zip(values) {
        match value.clone() {
            Value::Absent => f.absent.push(s.source.clone()),
            Value::Skip => {}
            Value::One(e, l) => present.push((&s.source, e, l, s.dated.as_deref())),
            Value::Split(vs) => f.differ.push(Difference {
                source: s.source.clone(),
                value: Some(
                    (vs.iter().map(|(n, v)| format!("{n}: {v}")))
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
                category: Category::Naming,
                note: Some("variant: the source's variants of this unit differ".into()),
                at: None,
                export_at: None,
            }),
        }
    }
    // Groups of equal values; the reference is the largest, a tie going to the emitted value.
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, p) in present.iter().enumerate() {
        groups.entry(p.1.as_str()).or_default().push(i);
    }
    // The largest group, then the emitted value, then the value that sorts first.
    let rank = groups.iter().max_by_key(|(v, m)| {
        let v: &str = v;
        (m.len(), Some(v) == emitted.as_deref(), Reverse(v))
    });
    let Some((&ref_value, ref_members)) = rank else {
        return f;
    };
    let ref_loose = &present[ref_members[0]].2;
    let ref_dates: Vec<Option<&str>> = ref_members.iter().map(|&i| present[i].3).collect();
    f.agree = ref_members
        .iter()
        .map(|&i| present[i].0.to_string())
        .collect();
    f.value = Some(ref_value.to_string());
    for (&value, members) in &groups {
        if value == ref_value {
            continue;
        }
        for &i in members {
            let (source, exact, loose, dated) = &present[i];
            // A source of the reference printed this value in another of its readings, with
            // another date: the versions explain it.
            let earlier = ref_members.iter().find_map(|&m| {
                let sv = sources.iter().find(|s| s.source == present[m].0)?;
                sv.history
                    .iter()
                    .find(|(d, _, v)| {
                        *d != sv.dated
                            && matches!(value_at(v, path), Value::One(ref e, _) if e == exact)
                    })
                    .map(|(d, f, _)| {
                        format!(
                            "{} printed it too in {f} ({}); {} is {}",
                            sv.source,
                            d.as_deref().unwrap_or("no date"),
                            sv.source,
                            sv.dated.as_deref().unwrap_or("not dated")
                        )
                    })
            });
            let (category, note) = if loose == ref_loose {
                (Category::Naming, None)
            } else if let Some(note) = earlier {
                (Category::Version, Some(note))
            } else if present.len() >= 3
                && ref_members.len() >= 2
                && ref_members.len() > members.len()
            {
                (
                    Category::DataError,
                    Some(format!(
                        "{} of {} sources print the other value",
                        ref_members.len(),
                        present.len()
                    )),
                )
            } else if dated.is_some() && ref_dates.iter().all(|d| d.is_some() && d != dated) {
                let theirs: Vec<&str> = ref_dates.iter().flatten().copied().collect();
                (
                    Category::Version,
                    Some(format!("{} vs {}", dated.unwrap_or(""), theirs.join(", "))),
                )
            } else {
                (
                    Category::DataError,
                    Some("no date or version explains it".into()),
                )
            };
            f.differ.push(Difference {
                source: source.to_string(),
                value: Some(exact.clone()),
                category,
                note,
                at: None,
                export_at: None,
            });
        }
    }
    f.differ.sort_by(|a, b| a.source.cmp(&b.source));
    f
}

/// The per-faction figures of the report's datasheets.
fn figures(datasheets: &[DatasheetReport]) -> Vec<FactionFigures> {
    // Per faction: its figures, and its pairs of sources by their names (sorted).
    type Pairs = BTreeMap<[String; 2], PairFigures>;
    let mut by: BTreeMap<String, (FactionFigures, Pairs)> = BTreeMap::new();
    for d in datasheets {
        let faction = d.faction.clone().unwrap_or_default();
        let (ff, pairs) = by.entry(faction.clone()).or_insert_with(|| {
            let ff = FactionFigures {
                faction,
                ..FactionFigures::default()
            };
            (ff, Pairs::new())
        });
        ff.datasheets += 1;
        let mut pairs_seen: BTreeSet<[String; 2]> = BTreeSet::new();
        let all_three = d.sources.len() >= 3;
        if all_three {
            ff.all_sources.datasheets += 1;
        }
        for f in &d.fields {
            for x in &f.differ {
                *ff.categories.entry(x.category.as_str().into()).or_default() += 1;
            }
            if !f.absent.is_empty() {
                *ff.categories.entry("absent".into()).or_default() += f.absent.len();
            }
            // A source's state at this field: `None` when it agrees with the reference, else
            // its category and value; a source whose variants differ among themselves has none.
            let variant =
                |x: &&Difference| x.note.as_deref().is_some_and(|n| n.starts_with("variant"));
            let split = f.differ.iter().any(|x| variant(&x));
            let mut state: BTreeMap<&str, Option<(Category, Option<&str>)>> =
                f.agree.iter().map(|s| (s.as_str(), None)).collect();
            let differ = f.differ.iter().filter(|x| !variant(x));
            state.extend(
                differ.map(|x| (x.source.as_str(), Some((x.category, x.value.as_deref())))),
            );
            let printed: Vec<&str> = state.keys().copied().collect();
            for (i, a) in printed.iter().enumerate() {
                for b in &printed[i + 1..] {
                    let (sa, sb) = (state[a], state[b]);
                    let key = [a.to_string(), b.to_string()];
                    let p = pairs.entry(key.clone()).or_insert_with(|| PairFigures {
                        sources: key.clone(),
                        ..PairFigures::default()
                    });
                    if pairs_seen.insert(key) {
                        p.datasheets += 1;
                    }
                    p.checks += 1;
                    // Both agree with the reference, or both differ with the same value.
                    let same = sa.map(|x| x.1) == sb.map(|x| x.1);
                    let naming = [sa, sb]
                        .iter()
                        .all(|s| s.map_or(true, |x| x.0 == Category::Naming));
                    p.agree += usize::from(same);
                    p.agree_up_to_naming += usize::from(same || naming);
                }
            }
            if all_three && state.len() >= 3 && !split && state.len() == d.sources.len() {
                ff.all_sources.checks += 1;
                ff.all_sources.agree += usize::from(f.differ.is_empty());
            }
        }
    }
    let mut out = Vec::with_capacity(by.len());
    for (mut ff, pairs) in by.into_values() {
        for mut p in pairs.into_values() {
            p.percent = percent(p.agree, p.checks, 1, 100.0);
            p.percent_up_to_naming = percent(p.agree_up_to_naming, p.checks, 1, 100.0);
            ff.pairs.push(p);
        }
        ff.all_sources.percent = percent(ff.all_sources.agree, ff.all_sources.checks, 1, 100.0);
        out.push(ff);
    }
    out
}
