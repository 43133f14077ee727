//! The points merge (`reconcile::points`, issue 26): a datasheet takes the newest publication's
//! points from the points records of its own faction's list, with that record's sources; its
//! sources' own points stay in the reconciliation; records pricing no datasheet of the run are
//! one `X113` per publication. Hand-built records, and the corpus's BattleScribe JSON with the
//! Munitorum Field Manual YAML.

use crate::util;
use cogitator::diag::Diagnostic;
use cogitator::extract::Extracted;
use cogitator::ids;
use cogitator::model::*;
use cogitator::reconcile;
use cogitator::source::Provenance;
use std::collections::BTreeMap;

const SUBJECT: &str = "10e:astra-militarum:cadian-shock-troops";

/// The datasheet as `file` prints it: 10 models, `points`.
fn sheet(file: &str, points: u32) -> Extracted {
    let mut d = Datasheet::empty(Edition::Tenth);
    d.id = SUBJECT.into();
    d.name = Some("Cadian Shock Troops".into());
    d.faction = Some("astra-militarum".into());
    d.sources = vec![Provenance::at_line(file, 1, "00")];
    d.points = vec![tier(10, points)];
    Extracted {
        file: file.into(),
        edition: Some(Edition::Tenth),
        datasheets: vec![d],
        ..Extracted::default()
    }
}

fn tier(models: u32, points: u32) -> PointsOption {
    PointsOption {
        models,
        points,
        at: Default::default(),
        units: Some(UnitRange { from: 1, to: None }),
    }
}

/// A points record of `subject` in publication `key` (its version), read from `file`; `list`:
/// another faction's list it is priced in.
fn record(subject: &str, key: &str, list: Option<&str>, file: &str, points: u32) -> Points {
    let publication = list.map_or(key.to_string(), |l| format!("{key} {l}"));
    Points {
        id: ids::points(Edition::Tenth, &publication, subject),
        edition: Edition::Tenth,
        subject: subject.into(),
        name: subject.rsplit(':').next().unwrap_or("").into(),
        tiers: vec![tier(10, points)],
        wargear: Vec::new(),
        publication: Publication {
            title: None,
            version: Some(key.into()),
            date: Some("2026-07-22".into()),
        },
        kind: Default::default(),
        forge_world: false,
        legends: false,
        sources: vec![Provenance::at_line(file, 3, "00")],
    }
}

#[test]
fn the_newest_publication_prices_the_datasheet_and_its_sources_stay_in_the_reconciliation() {
    let mut ex = vec![sheet("a.cat", 60), sheet("b.html", 65)];
    let formats: BTreeMap<String, String> = [("a.cat", "xml"), ("b.html", "html")]
        .map(|(f, k)| (f.to_string(), k.to_string()))
        .into();
    let points = [
        // Version 1.10 is newer than 1.9 (numbers, not text), whatever the path order.
        record(SUBJECT, "1.10", None, "m/new.yaml", 90),
        record(SUBJECT, "1.9", None, "m/old.yaml", 80),
        // Another faction's list prices it too, at its own price: not the datasheet's.
        record(
            SUBJECT,
            "2.0",
            Some("imperial-agents"),
            "m/agents.yaml",
            999,
        ),
        record("10e:astra-militarum:ogryns", "1.10", None, "m/new.yaml", 1),
        record(
            "10e:astra-militarum:bullgryns",
            "1.10",
            None,
            "m/new.yaml",
            2,
        ),
    ];
    let (mut merged, prepared) = reconcile::merge(&mut ex, &formats, &points);
    let report = prepared.report(&mut merged.datasheets);
    let d = &merged.datasheets[0];
    assert_eq!(d.points, [tier(10, 90)]);
    let files: Vec<&str> = d.sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files, ["a.cat", "b.html", "m/new.yaml"]);
    // The reconciliation still compares the two sources' own points; it shows the emitted.
    let report = report.expect("two sources print the datasheet");
    let f = report.datasheets[0]
        .fields
        .iter()
        .find(|f| f.field == "points[10]")
        .expect("points[10]");
    assert_eq!(f.emitted.as_deref(), Some("90"));
    let differ: Vec<&str> = f.differ.iter().map(|x| x.source.as_str()).collect();
    assert_eq!((f.agree.len(), differ.len()), (1, 1), "{f:?}");
    // The two records pricing no datasheet: one X113 for their publication.
    let x113: Vec<&Diagnostic> = merged
        .diagnostics
        .iter()
        .filter(|d| d.code == "X113")
        .collect();
    assert_eq!(x113.len(), 1, "{x113:?}");
    assert!(x113[0]
        .message
        .starts_with("2 points records of publication 1.10"));
    assert!(x113[0].message.contains("bullgryns, ogryns"));
}

#[test]
fn no_points_records_leave_the_datasheet_as_its_sources_print_it() {
    let mut ex = vec![sheet("a.cat", 60)];
    let formats = BTreeMap::from([("a.cat".to_string(), "xml".to_string())]);
    let (merged, _) = reconcile::merge(&mut ex, &formats, &[]);
    assert_eq!(merged.datasheets[0].points, [tier(10, 60)]);
    assert!(merged.diagnostics.is_empty());
}

/// The corpus's 11th-edition BattleScribe JSON and Munitorum Field Manual (1.1, 2026-07-22)
/// in one run: Custodian Guard takes the manual's tiers (adeptus-custodes.yaml:189-200).
#[test]
fn corpus_custodian_guard_takes_the_field_manuals_points() {
    let Some(c) = util::corpus() else {
        return;
    };
    let paths = [c.join("bsdata/wh40k-11e"), c.join("mfm-11e/data")];
    let opts = cogitator::pipeline::Options {
        skip_validation: true,
        ..Default::default()
    };
    let ds = cogitator::ingest(&paths, &opts).expect("ingest");
    let guard = ds
        .datasheets
        .iter()
        .find(|d| d.id == "11e:adeptus-custodes:custodian-guard")
        .expect("Custodian Guard");
    assert_eq!(
        util::tiers_by_unit(&guard.points),
        [
            (4, 170, 1, Some(3)),
            (5, 215, 1, Some(3)),
            (4, 180, 4, None),
            (5, 225, 4, None)
        ]
    );
    assert!(guard
        .sources
        .iter()
        .any(|s| s.file.ends_with("adeptus-custodes.yaml")));
    let x113: Vec<&Diagnostic> = ds.diagnostics.iter().filter(|d| d.code == "X113").collect();
    assert_eq!(x113.len(), 1, "{x113:#?}");
}
