//! Reconciliation across sources (`cogitator::reconcile`, `reconciliation.json`): the
//! categories on small hand-built readings (naming, version, data error, absent, variants), the
//! matching rules (a pair that must match, pairs that must not), determinism, and golden
//! facts read by hand in the corpus files (values quoted with the `grep` that shows them).

use crate::util;
use cogitator::extract::Extracted;
use cogitator::model::*;
use cogitator::reconcile::{self, Category, FieldReport, Report};
use cogitator::source::{Location, Provenance};
use std::collections::BTreeMap;

// --- hand-built readings ------------------------------------------------------------------

/// A 10th-edition datasheet read from `file`: one model, one ranged weapon (`Lasgun`), two
/// keywords, one points tier.
fn sheet(id: &str, name: &str, faction: &str, file: &str) -> Datasheet {
    let at = Location::at_line(file, 1);
    let mut d = Datasheet::empty(Edition::Tenth);
    d.id = id.into();
    d.name = Some(name.into());
    d.faction = Some(faction.into());
    d.sources = vec![Provenance::at_line(file, 1, "00")];
    let mut m = ModelProfile::new(Edition::Tenth, Some(name.into()), at.clone());
    for (c, v) in [
        ("M", "6\""),
        ("T", "3"),
        ("Sv", "5+"),
        ("W", "1"),
        ("Ld", "7+"),
        ("OC", "1"),
    ] {
        m.set(c, Some(v.into()));
    }
    d.models.push(m);
    d.weapons.push(weapon("Lasgun", "24\"", "-1", &at));
    d.keywords = vec!["Infantry".into(), "Imperium".into()];
    d.points = vec![PointsOption {
        models: 10,
        points: 60,
        at: Default::default(),
        units: Default::default(),
    }];
    d
}

fn weapon(name: &str, range: &str, ap: &str, at: &Location) -> WeaponProfile {
    let mut w = WeaponProfile::new(Edition::Tenth, name.into(), WeaponType::Ranged, at.clone());
    for (c, v) in [
        ("range", range),
        ("A", "1"),
        ("skill", "4+"),
        ("S", "3"),
        ("AP", ap),
        ("D", "1"),
    ] {
        w.set(c, Some(v.into()));
    }
    w
}

/// One file's reading: its path, the faction pack version its page cites, the date the
/// pipeline reads for a structured source.
fn reading(
    file: &str,
    version: Option<(u32, u32)>,
    dated: Option<&str>,
    ds: Vec<Datasheet>,
) -> Extracted {
    Extracted {
        file: file.into(),
        edition: Some(Edition::Tenth),
        version,
        dated: dated.map(str::to_string),
        datasheets: ds,
        ..Extracted::default()
    }
}

/// The manifest's formats of the files (`x.cat` xml, `x.csv` csv, `x.html` html, `x.pdf` pdf).
fn formats(ex: &[Extracted]) -> BTreeMap<String, String> {
    ex.iter()
        .map(|e| {
            let ext = e.file.rsplit('.').next().unwrap_or("");
            let f = match ext {
                "cat" => "xml",
                other => other,
            };
            (e.file.clone(), f.to_string())
        })
        .collect()
}

fn run(mut ex: Vec<Extracted>) -> (cogitator::reconcile::merge::Merged, Option<Report>) {
    let f = formats(&ex);
    let (mut merged, prepared) = reconcile::merge(&mut ex, &f, &[]);
    let report = prepared.report(&mut merged.datasheets);
    (merged, report)
}

fn field<'a>(r: &'a Report, id: &str, path: &str) -> &'a FieldReport {
    r.datasheets
        .iter()
        .find(|d| d.id == id)
        .unwrap_or_else(|| panic!("no datasheet {id} in the report"))
        .fields
        .iter()
        .find(|f| f.field == path)
        .unwrap_or_else(|| panic!("no field {path} of {id}"))
}

fn categories(f: &FieldReport) -> Vec<(&str, Category)> {
    f.differ
        .iter()
        .map(|d| (d.source.as_str(), d.category))
        .collect()
}

const ID: &str = "10e:astra-militarum:guardsmen";
const BS: &str = "bs/Imperium - Astra Militarum.cat";
const CSV: &str = "export/Datasheets.csv";
const PAGE: &str = "pages/guardsmen.html";

/// A part a source does not print at all (a faction pack card without points) is `absent`:
/// not a disagreement, not an `X110`, and it does not erase the other source's value even
/// from the newer publication; a printed, different value is a difference.
#[test]
fn absent_is_not_a_disagreement() {
    let csv = sheet(ID, "Guardsmen", "Astra Militarum", CSV);
    let mut pdf = sheet(ID, "Guardsmen", "Astra Militarum", "card.pdf");
    pdf.points.clear();
    let (merged, report) = run(vec![
        reading("card.pdf", Some((1, 0)), None, vec![pdf.clone()]),
        reading(
            CSV,
            None,
            Some("export 2025-11-14 19:35:22"),
            vec![csv.clone()],
        ),
    ]);
    let r = report.expect("two sources print the datasheet");
    let p = field(&r, ID, "points[10]");
    assert_eq!(p.absent, ["pdf"]);
    assert!(p.differ.is_empty(), "{:?}", p.differ);
    assert_eq!(p.agree, ["export"]);
    assert!(
        merged.diagnostics.iter().all(|d| d.code != "X110"),
        "{:?}",
        merged.diagnostics
    );
    assert_eq!(
        merged.datasheets[0].points, csv.points,
        "the newer card did not erase them"
    );
    // Absent checks are not counted: every counted check agrees.
    let pair = &r.factions[0].pairs[0];
    assert_eq!(pair.sources, ["export".to_string(), "pdf".to_string()]);
    assert_eq!(pair.agree, pair.checks);
    assert_eq!(r.factions[0].categories.get("absent"), Some(&1));

    // The same card printing other points: a difference (`version`: both sides are dated)
    // and one X110.
    pdf.points = vec![PointsOption {
        models: 10,
        points: 65,
        at: Default::default(),
        units: Default::default(),
    }];
    let (merged, report) = run(vec![
        reading("card.pdf", Some((1, 0)), None, vec![pdf]),
        reading(CSV, None, Some("export 2025-11-14 19:35:22"), vec![csv]),
    ]);
    let r = report.expect("report");
    let p = field(&r, ID, "points[10]");
    assert_eq!(
        p.emitted.as_deref(),
        Some("65"),
        "the newer faction pack wins"
    );
    assert_eq!(categories(p), [("export", Category::Version)]);
    let note = p.differ[0].note.as_deref().unwrap_or("");
    assert!(
        note.contains("export 2025-11-14 19:35:22") && note.contains("faction pack v1.0"),
        "{note}"
    );
    let x110 = merged
        .diagnostics
        .iter()
        .filter(|d| d.code == "X110")
        .count();
    assert_eq!(x110, 1);
}

/// The three categories of a difference, on three sources.
#[test]
fn naming_version_and_data_error() {
    let bs = {
        let mut d = sheet(ID, "Guardsmen", "Astra Militarum", BS);
        // Spelled otherwise: singular keyword, split keyword, curly apostrophe.
        d.keywords = vec![
            "Infantry".into(),
            "Imperium".into(),
            "Platoon".into(),
            "Blue".into(),
            "Horrors".into(),
        ];
        d.weapons[0].set("S", Some("4".into())); // contradicted by the two others
        d
    };
    let csv = {
        let mut d = sheet(ID, "Guardsmen", "Astra Militarum", CSV);
        d.keywords = vec![
            "Infantry".into(),
            "Imperium".into(),
            "Platoons".into(),
            "Blue Horrors".into(),
        ];
        d.points[0].points = 65; // the pages print 60, BSData 60
        d
    };
    let page = {
        let mut d = sheet(ID, "Guardsmen", "Astra Militarum", PAGE);
        d.keywords = csv.keywords.clone();
        d
    };
    let (_, report) = run(vec![
        reading(BS, None, Some("revision 24"), vec![bs]),
        reading(CSV, None, Some("export 2025-11-14 19:35:22"), vec![csv]),
        reading(PAGE, Some((1, 4)), None, vec![page]),
    ]);
    let r = report.expect("report");
    // Singular/plural: naming.
    let k = field(&r, ID, "keywords[platoon]");
    assert_eq!(categories(k), [("bsdata", Category::Naming)]);
    // Split vs joined: naming on both sides of the split.
    let k = field(&r, ID, "keywords[blue horror]");
    assert_eq!(categories(k), [("bsdata", Category::Naming)]);
    let k = field(&r, ID, "keywords[blue]");
    assert_eq!(k.value.as_deref(), Some("(missing)"));
    assert_eq!(categories(k), [("bsdata", Category::Naming)]);
    // A 2-of-3 majority: data error on the one that contradicts.
    let s = field(&r, ID, "weapons[lasgun].S");
    assert_eq!(s.value.as_deref(), Some("3"));
    assert_eq!(categories(s), [("bsdata", Category::DataError)]);
    // Same, points: 60 by BSData and the pages, 65 by the export.
    let p = field(&r, ID, "points[10]");
    assert_eq!(categories(p), [("export", Category::DataError)]);
    // All three agree on the rest; every field of this datasheet is printed by all three.
    let all = &r.factions[0].all_sources;
    assert_eq!(all.datasheets, 1);
    assert_eq!(
        all.checks - all.agree,
        6,
        "platoon, blue horror, blue, horrors, S, points"
    );

    // Two sources, both dated, differing: version; one without a date: data error.
    let csv = sheet(ID, "Guardsmen", "Astra Militarum", CSV);
    let mut page = sheet(ID, "Guardsmen", "Astra Militarum", PAGE);
    page.models[0].set("Sv", Some("4+".into()));
    let dated = run(vec![
        reading(
            CSV,
            None,
            Some("export 2025-11-14 19:35:22"),
            vec![csv.clone()],
        ),
        reading(PAGE, Some((1, 4)), None, vec![page.clone()]),
    ]);
    let undated = run(vec![
        reading(CSV, None, Some("export 2025-11-14 19:35:22"), vec![csv]),
        reading(PAGE, None, None, vec![page]),
    ]);
    let f = |r: &Report| field(r, ID, "models[guardsmen].Sv").differ[0].category;
    assert_eq!(f(dated.1.as_ref().expect("report")), Category::Version);
    assert_eq!(f(undated.1.as_ref().expect("report")), Category::DataError);
}

/// A value one source printed in an older reading of its own is a `version` difference, even
/// against a majority (an older scrape of the pages printed the export's points).
#[test]
fn an_older_reading_of_the_majority_explains_a_value() {
    let bs = sheet(ID, "Guardsmen", "Astra Militarum", BS);
    let mut csv = sheet(ID, "Guardsmen", "Astra Militarum", CSV);
    csv.points[0].points = 65;
    let new_page = sheet(ID, "Guardsmen", "Astra Militarum", "pages/b.html");
    let mut old_page = sheet(ID, "Guardsmen", "Astra Militarum", "pages/a.html");
    old_page.points[0].points = 65;
    let (_, report) = run(vec![
        reading(BS, None, Some("revision 24"), vec![bs]),
        reading(CSV, None, Some("export 2025-11-14 19:35:22"), vec![csv]),
        reading("pages/a.html", Some((1, 1)), None, vec![old_page]),
        reading("pages/b.html", Some((1, 4)), None, vec![new_page]),
    ]);
    let r = report.expect("report");
    let p = field(&r, ID, "points[10]");
    assert_eq!(p.emitted.as_deref(), Some("60"), "the newer page wins");
    assert_eq!(categories(p), [("export", Category::Version)]);
    let note = p.differ[0].note.as_deref().unwrap_or("");
    assert!(
        note.contains("pages/a.html") && note.contains("v1.1"),
        "{note}"
    );
}

const TARGET: &str = "10e:chaos-daemons:soul-grinder";

fn grinder(god: Option<&str>, file: &str) -> Datasheet {
    let name = match god {
        Some(g) => format!("{g} Soul Grinder"),
        None => "Soul Grinder".into(),
    };
    let id = format!(
        "10e:chaos-daemons:{}",
        name.to_lowercase().replace(' ', "-")
    );
    let mut d = sheet(&id, &name, "Chaos Daemons", file);
    d.keywords = vec!["Vehicle".into(), "Daemon".into(), "Soul Grinder".into()];
    if let Some(g) = god {
        d.keywords.push(g.into());
        d.weapons.push(weapon(
            &format!("{g} gaze"),
            "18\"",
            "-2",
            &Location::at_line(file, 2),
        ));
    }
    d
}

/// The unit rule, the pair that must match: a unit split into one per god in one source
/// (`Khorne Soul Grinder`, keyword `Khorne`) matches the other source's `Soul Grinder`: one
/// datasheet with every source; what differs between the variants is `naming`, never an
/// `X110` or a data error.
#[test]
fn a_unit_split_per_god_is_one_datasheet_with_variants() {
    let lib = "bs/Chaos - Chaos Daemons Library.cat";
    let (merged, report) = run(vec![
        reading(
            lib,
            None,
            Some("revision 97"),
            vec![grinder(Some("Khorne"), lib), grinder(Some("Nurgle"), lib)],
        ),
        reading(
            CSV,
            None,
            Some("export 2025-11-14 19:35:22"),
            vec![grinder(None, CSV)],
        ),
    ]);
    let ids: Vec<&str> = merged.datasheets.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, [TARGET]);
    let files: Vec<&str> = merged.datasheets[0]
        .sources
        .iter()
        .map(|p| p.file.as_str())
        .collect();
    assert_eq!(files, [lib, CSV]);
    assert!(merged.diagnostics.iter().all(|d| d.code != "X110"));
    let r = report.expect("report");
    let m: Vec<(&str, &str, bool)> = r
        .matches
        .matches
        .iter()
        .map(|m| (m.from.as_str(), m.qualifier.as_str(), m.variant))
        .collect();
    assert_eq!(
        m,
        [
            ("10e:chaos-daemons:khorne-soul-grinder", "khorne", true),
            ("10e:chaos-daemons:nurgle-soul-grinder", "nurgle", true)
        ]
    );
    for path in ["keywords[khorne]", "weapons[nurgle gaze]"] {
        let f = field(&r, TARGET, path);
        assert_eq!(categories(f), [("bsdata", Category::Naming)], "{path}");
        assert!(
            f.differ[0]
                .note
                .as_deref()
                .unwrap_or("")
                .starts_with("variant"),
            "{path}"
        );
    }
    // What every variant prints the same is compared as one reading; a variant's own
    // weapon's characteristics, only among the variants that have it.
    let f = field(&r, TARGET, "weapons[lasgun].AP");
    assert_eq!(f.agree, ["bsdata", "export"]);
    let f = field(&r, TARGET, "weapons[khorne gaze].AP");
    assert_eq!(
        (f.agree.as_slice(), f.differ.len()),
        (["bsdata".to_string()].as_slice(), 0)
    );

    // One variant only: another reading of the unit, merged by the policy (its differences
    // are the merge's X110s like any reading's).
    let (merged, report) = run(vec![
        reading(
            lib,
            None,
            Some("revision 97"),
            vec![grinder(Some("Khorne"), lib)],
        ),
        reading(
            CSV,
            None,
            Some("export 2025-11-14 19:35:22"),
            vec![grinder(None, CSV)],
        ),
    ]);
    assert_eq!(merged.datasheets.len(), 1);
    let r = report.expect("report");
    assert!(!r.matches.matches[0].variant);
    assert!(merged.diagnostics.iter().any(|d| d.code == "X110"));
}

/// The unit rule, the pairs that must not match: a qualifier that is not one of the unit's
/// keywords (`Tyranid Prime with Lash Whip`), a record of the same source, another faction,
/// a unit another source already prints.
#[test]
fn names_that_must_not_match() {
    let prime = |name: &str, faction: &str, file: &str| {
        let id = format!("10e:tyranids:{}", name.to_lowercase().replace(' ', "-"));
        let mut d = sheet(&id, name, faction, file);
        d.keywords = vec![
            "Infantry".into(),
            "Character".into(),
            "Tyranid Prime".into(),
            "Whip".into(),
        ];
        d
    };
    let (merged, report) = run(vec![
        reading(
            BS,
            None,
            None,
            vec![
                prime("Tyranid Prime with Lash Whip", "Tyranids", BS),
                prime("Hive Tyrant", "Tyranids", BS),
            ],
        ),
        reading(
            CSV,
            None,
            None,
            vec![
                prime("Tyranid Prime", "Tyranids", CSV),
                prime("Winged Hive Tyrant", "Tyranids", CSV),
                prime("Hive Tyrant", "Tyranids", CSV),
            ],
        ),
        reading(
            PAGE,
            None,
            None,
            vec![prime("Lash Whip", "Genestealer Cults", PAGE)],
        ),
    ]);
    assert_eq!(merged.datasheets.len(), 5, "only Hive Tyrant merges, by id");
    let r = report.expect("Hive Tyrant is in two sources");
    assert!(r.matches.matches.is_empty(), "{:?}", r.matches.matches);

    // Another faction: `Khorne Soul Grinder` of Chaos Daemons is not Chaos Space Marines'
    // `Soul Grinder`.
    let lib = "bs/Chaos - Chaos Daemons Library.cat";
    let mut csm = grinder(None, PAGE);
    csm.id = "10e:chaos-space-marines:soul-grinder".into();
    csm.faction = Some("Chaos Space Marines".into());
    let (merged, _) = run(vec![
        reading(lib, None, None, vec![grinder(Some("Khorne"), lib)]),
        reading(PAGE, None, None, vec![csm]),
    ]);
    assert_eq!(merged.datasheets.len(), 2);

    // The same source never matches itself: `Khorne Soul Grinder` and `Soul Grinder` both
    // from the export stay two.
    let (merged, report) = run(vec![reading(
        CSV,
        None,
        None,
        vec![grinder(Some("Khorne"), CSV), grinder(None, CSV)],
    )]);
    assert_eq!(merged.datasheets.len(), 2);
    assert!(report.is_none(), "one source: no report");
}

/// A publication twin: a card with the Legends badge and no twin of its own id matches the one
/// of the export's two same-named datasheets (told apart by publication in their ids) that is
/// Legends too; not the other, and not when both or neither are Legends.
#[test]
fn a_legends_card_is_the_legends_publication_twin() {
    const PDF: &str = "pack.pdf";
    let scouts = |id: &str, file: &str, legends: bool| {
        let mut d = sheet(id, "Wolf Scouts", "Space Marines", file);
        d.legends = legends;
        d
    };
    let plain = "10e:space-marines:wolf-scouts";
    let codex = "10e:space-marines:wolf-scouts~space-wolves";
    let old = "10e:space-marines:wolf-scouts~space-wolves-warhammer-legends";
    let export = |legends_of_codex: bool| {
        reading(
            CSV,
            None,
            None,
            vec![scouts(codex, CSV, legends_of_codex), scouts(old, CSV, true)],
        )
    };
    let (merged, report) = run(vec![
        reading(PDF, Some((1, 0)), None, vec![scouts(plain, PDF, true)]),
        export(false),
    ]);
    let ids: Vec<&str> = merged.datasheets.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, [codex, old], "the card merged into its twin");
    let legends = merged
        .datasheets
        .iter()
        .find(|d| d.id == old)
        .expect("twin");
    let files: Vec<&str> = legends.sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files, [CSV, PDF]);
    assert!(legends.legends);
    let r = report.expect("two sources");
    let m: Vec<(&str, &str, &str)> = r
        .matches
        .matches
        .iter()
        .map(|m| (m.from.as_str(), m.to.as_str(), m.qualifier.as_str()))
        .collect();
    assert_eq!(m, [(plain, old, "~space-wolves-warhammer-legends")]);

    // Both twins Legends: ambiguous, nothing merges; a card without the badge: no twin.
    let (merged, report) = run(vec![
        reading(PDF, None, None, vec![scouts(plain, PDF, true)]),
        export(true),
    ]);
    assert_eq!(merged.datasheets.len(), 3);
    assert!(report.is_none_or(|r| r.matches.matches.is_empty()));
    let (merged, _) = run(vec![
        reading(PDF, None, None, vec![scouts(plain, PDF, false)]),
        export(true),
    ]);
    assert_eq!(merged.datasheets.len(), 3);
}

/// The weapon rule: an unpaired weapon on each side with the same characteristics and names
/// sharing their first word is one weapon, spelled differently; other characteristics keep
/// them two.
#[test]
fn weapons_renamed_between_sources_pair_by_characteristics() {
    let with = |file: &str, name: &str, ap: &str| {
        let mut d = sheet(ID, "Guardsmen", "Astra Militarum", file);
        d.weapons
            .push(weapon(name, "24\"", ap, &Location::at_line(file, 3)));
        d
    };
    let go = |ap: &str| {
        run(vec![
            reading(
                CSV,
                None,
                Some("export 2025-11-14 19:35:22"),
                vec![with(CSV, "Master-crafted boltgun", "-1")],
            ),
            reading(
                PAGE,
                Some((1, 8)),
                None,
                vec![with(PAGE, "Master-crafted bolter", ap)],
            ),
        ])
        .1
        .expect("report")
    };
    let r = go("-1");
    let f = field(&r, ID, "weapons[master-crafted bolter]");
    assert_eq!(f.emitted.as_deref(), Some("master-crafted bolter"));
    assert_eq!(categories(f), [("export", Category::Naming)]);
    assert_eq!(
        field(&r, ID, "weapons[master-crafted bolter].AP").agree,
        ["export", "pages"]
    );
    let r = go("-2");
    let f = field(&r, ID, "weapons[master-crafted bolter]");
    assert_eq!(f.differ[0].value.as_deref(), Some("(missing)"));
    assert_ne!(f.differ[0].category, Category::Naming);
    assert!(r.datasheets[0]
        .fields
        .iter()
        .any(|f| f.field == "weapons[master-crafted boltgun]"));
}

/// Same readings, same report; the pipeline's result does not depend on the order of its
/// inputs (hand-written export tables and a BattleScribe catalogue would do; the report is a
/// function of the readings, so readings suffice here).
#[test]
fn the_report_is_deterministic() {
    let make = || {
        let bs = sheet(ID, "Guardsmen", "Astra Militarum", BS);
        let mut csv = sheet(ID, "Guardsmen", "Astra Militarum", CSV);
        csv.keywords.push("Regiment".into());
        vec![
            reading(BS, None, Some("revision 24"), vec![bs]),
            reading(CSV, None, Some("export 2025-11-14 19:35:22"), vec![csv]),
        ]
    };
    let a = cogitator::emit::to_json(&run(make()).1);
    let b = cogitator::emit::to_json(&run(make()).1);
    assert_eq!(a, b);
    assert!(
        !a.contains("/tmp") && !a.contains("/work"),
        "relative paths only"
    );
    // Fields sorted by path within each datasheet.
    let r = run(make()).1.expect("report");
    let paths: Vec<&str> = r.datasheets[0]
        .fields
        .iter()
        .map(|f| f.field.as_str())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
}

/// The seeds are one source each: no reconciliation file.
#[test]
fn one_source_gives_no_report() {
    let ds = util::ingest_in_memory(&[("a.txt", "nothing here\n"), ("b.txt", "nor here\n")]);
    assert!(ds
        .extra_files
        .iter()
        .all(|(p, _)| p != "reconciliation.json"));
}

// --- golden facts from the corpus ---------------------------------------------------------

/// The BattleScribe catalogues, the export, and four pages: two scrapes of Carnifexes, the
/// Maleceptor and the Captain; ingested once for the tests below.
fn corpus_report() -> Option<&'static (Dataset, Report)> {
    static CELL: std::sync::OnceLock<Option<(Dataset, Report)>> = std::sync::OnceLock::new();
    let c = util::corpus()?;
    CELL.get_or_init(|| {
        let ds = ingest_subset(&c, false);
        let json = &ds
            .extra_files
            .iter()
            .find(|(p, _)| p == "reconciliation.json")?
            .1;
        let report = report_of(json);
        Some((ds, report))
    })
    .as_ref()
}

const SUBSET: &[&str] = &[
    "bsdata/wh40k-10e",
    "wahapedia-csv/2025-11-14",
    "wahapedia-html/grimlog/tyranids--Carnifexes.html",
    "wahapedia-html/grimlog/tyranids--Maleceptor.html",
    "wahapedia-html/waaahgame/tyranids--Carnifexes.html",
    "wahapedia-html/waaahgame/space-marines--Captain.html",
];

fn ingest_subset(c: &std::path::Path, reversed: bool) -> Dataset {
    let mut paths: Vec<std::path::PathBuf> = SUBSET.iter().map(|p| c.join(p)).collect();
    if reversed {
        paths.reverse();
    }
    let opts = cogitator::pipeline::Options {
        skip_validation: true,
        ..Default::default()
    };
    cogitator::ingest(&paths, &opts).expect("ingest")
}

/// The report read back from the file (the types are write-only): the fields the tests read.
fn report_of(json: &str) -> Report {
    let v: serde_json::Value = serde_json::from_str(json).expect("reconciliation.json is JSON");
    let mut r = Report::default();
    for d in v["datasheets"].as_array().into_iter().flatten() {
        let fields = d["fields"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| FieldReport {
                field: f["field"].as_str().unwrap_or("").into(),
                emitted: f["emitted"].as_str().map(str::to_string),
                value: f["value"].as_str().map(str::to_string),
                agree: strings(&f["agree"]),
                absent: strings(&f["absent"]),
                differ: f["differ"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| reconcile::Difference {
                        source: x["source"].as_str().unwrap_or("").into(),
                        value: x["value"].as_str().map(str::to_string),
                        category: match x["category"].as_str() {
                            Some("naming") => Category::Naming,
                            Some("version") => Category::Version,
                            _ => Category::DataError,
                        },
                        note: x["note"].as_str().map(str::to_string),
                        at: None,
                        export_at: None,
                    })
                    .collect(),
            })
            .collect();
        r.datasheets.push(reconcile::DatasheetReport {
            id: d["id"].as_str().unwrap_or("").into(),
            name: d["name"].as_str().map(str::to_string),
            faction: d["faction"].as_str().map(str::to_string),
            sources: strings(&d["sources"]),
            kept_from: d["kept_from"].as_str().unwrap_or("").into(),
            policy: BTreeMap::new(),
            fields,
        });
    }
    for m in v["matches"]["matches"].as_array().into_iter().flatten() {
        r.matches.matches.push(reconcile::matching::UnitMatch {
            to: m["to"].as_str().unwrap_or("").into(),
            to_name: m["to_name"].as_str().unwrap_or("").into(),
            from: m["from"].as_str().unwrap_or("").into(),
            from_name: m["from_name"].as_str().unwrap_or("").into(),
            source: m["source"].as_str().unwrap_or("").into(),
            qualifier: m["qualifier"].as_str().unwrap_or("").into(),
            variant: m["variant"].as_bool().unwrap_or(false),
        });
    }
    r
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

/// BSData and the export differ by version on Kairos Fateweaver. Read by hand:
/// `Chaos - Chaos Daemons Library.cat` (root `revision="97"`): the unit's
/// `<cost name="pts" … value="295"/>` (line 4490), `➤ Infernal Gateway - focused witchfire`
/// AP `-2` (line 4465), D `3` (line 4466); the export (`Last_update.csv`: 2025-11-14 19:35:22):
/// `grep '^000001117|' Datasheets_models_cost.csv` → `1 model|270`, `Datasheets_wargear.csv`
/// line 3385: `Infernal Gateway – focused witchfire|…|24|Ranged|D3+6|2|9|-3|D3`.
#[test]
fn kairos_fateweaver_differs_by_version() {
    let Some((_, r)) = corpus_report() else {
        return;
    };
    let id = "10e:chaos-daemons:kairos-fateweaver";
    let p = field(r, id, "points[1]");
    let by: BTreeMap<&str, &str> = std::iter::once(("bsdata", p.value.as_deref().unwrap_or("")))
        .chain(
            p.differ
                .iter()
                .map(|d| (d.source.as_str(), d.value.as_deref().unwrap_or(""))),
        )
        .collect();
    assert_eq!(
        p.agree,
        ["bsdata"],
        "a tie goes to the emitted value (BSData first in path order)"
    );
    assert_eq!(by.get("bsdata"), Some(&"295"));
    assert_eq!(by.get("export"), Some(&"270"));
    assert_eq!(categories(p), [("export", Category::Version)]);
    let note = p.differ[0].note.as_deref().unwrap_or("");
    assert!(
        note.contains("revision 97") && note.contains("export 2025-11-14 19:35:22"),
        "{note}"
    );
    let ap = field(r, id, "weapons[infernal gateway - focused witchfire].AP");
    assert_eq!(ap.value.as_deref(), Some("-2"));
    assert_eq!(ap.differ[0].value.as_deref(), Some("-3"));
    assert_eq!(ap.differ[0].category, Category::Version);
    let d = field(r, id, "weapons[infernal gateway - focused witchfire].D");
    assert_eq!(
        (d.value.as_deref(), d.differ[0].value.as_deref()),
        (Some("3"), Some("D3"))
    );
}

/// Carnifexes in three sources. Read by hand: the export `grep '^000000490|'
/// Datasheets_models_cost.csv` → `1 model|115`, `2 models|230`; the grimlog page (faction
/// pack version 1.0) `PriceTag">115`; the waaahgame page (version 1.4) `PriceTag">90`,
/// `PriceTag">180`; `Tyranids.cat` prints 90 for one Carnifex. The newest page and BSData
/// agree; the export's 115 is the older page's: `version`, not a data error.
#[test]
fn carnifexes_points_three_ways() {
    let Some((ds, r)) = corpus_report() else {
        return;
    };
    let id = "10e:tyranids:carnifexes";
    let p = field(r, id, "points[1]");
    assert_eq!(p.value.as_deref(), Some("90"));
    assert_eq!(p.agree, ["bsdata", "pages"]);
    assert_eq!(p.differ[0].value.as_deref(), Some("115"));
    assert_eq!(categories(p), [("export", Category::Version)]);
    assert!(p.differ[0]
        .note
        .as_deref()
        .unwrap_or("")
        .contains("grimlog/tyranids--Carnifexes.html"));
    let d = ds
        .datasheets
        .iter()
        .find(|d| d.id == id)
        .expect("Carnifexes");
    assert_eq!(d.points.first().map(|p| p.points), Some(90));
    let sheet = r
        .datasheets
        .iter()
        .find(|d| d.id == id)
        .expect("in the report");
    assert_eq!(sheet.sources, ["bsdata", "export", "pages"]);
}

/// `Soul Grinder`: one datasheet in the export (`grep '|Soul Grinder|' Datasheets.csv`), four
/// in BSData (`Khorne Soul Grinder` … `Tzeentch Soul Grinder`, each with
/// `<categoryLink … name="Soul Grinder"` and its god's keyword, `Chaos - Chaos Daemons
/// Library.cat` lines 2946 ff.): one datasheet with both sources, four variant matches.
#[test]
fn soul_grinder_is_one_datasheet() {
    let Some((ds, r)) = corpus_report() else {
        return;
    };
    let grinders: Vec<&Datasheet> = ds
        .datasheets
        .iter()
        .filter(|d| d.id.ends_with("soul-grinder"))
        .collect();
    assert_eq!(
        grinders.len(),
        1,
        "{:?}",
        grinders.iter().map(|d| &d.id).collect::<Vec<_>>()
    );
    let files: Vec<&str> = grinders[0]
        .sources
        .iter()
        .map(|p| p.file.as_str())
        .collect();
    assert!(
        files.contains(&"bsdata/wh40k-10e/Chaos - Chaos Daemons Library.cat"),
        "{files:?}"
    );
    assert!(
        files.contains(&"wahapedia-csv/2025-11-14/Datasheets.csv"),
        "{files:?}"
    );
    let q: Vec<(&str, bool)> = r
        .matches
        .matches
        .iter()
        .filter(|m| m.to == TARGET)
        .map(|m| (m.qualifier.as_str(), m.variant))
        .collect();
    assert_eq!(
        q,
        [
            ("khorne", true),
            ("nurgle", true),
            ("slaanesh", true),
            ("tzeentch", true)
        ]
    );
    assert!(ds
        .diagnostics
        .iter()
        .all(|d| !(d.code == "X110" && d.message.starts_with("Soul Grinder"))));
}

/// A slip on one side against two: `Tyranids.cat` line 2822 links the Maleceptor to the
/// category `Malceptor` (`grep -n Malceptor Tyranids.cat`), where the export and the page print
/// the keyword `Maleceptor`: a data error of BSData's, not a version.
#[test]
fn maleceptor_keyword_slip_is_a_data_error() {
    let Some((_, r)) = corpus_report() else {
        return;
    };
    let id = "10e:tyranids:maleceptor";
    let slip = field(r, id, "keywords[malceptor]");
    assert_eq!(slip.agree, ["export", "pages"]);
    assert_eq!(categories(slip), [("bsdata", Category::DataError)]);
    let right = field(r, id, "keywords[maleceptor]");
    assert_eq!(right.differ[0].value.as_deref(), Some("(missing)"));
    assert_eq!(categories(right), [("bsdata", Category::DataError)]);
}

/// `Master-crafted boltgun` (export, `Datasheets_wargear.csv` line 360: `24|Ranged|2|2|4|-1|2`)
/// and `Master-crafted bolter` (the Captain's page, same characteristics): one weapon, `naming`.
#[test]
fn master_crafted_bolter_is_the_boltgun() {
    let Some((_, r)) = corpus_report() else {
        return;
    };
    let f = field(
        r,
        "10e:space-marines:captain",
        "weapons[master-crafted bolter]",
    );
    assert_eq!(f.agree, ["pages"]);
    assert_eq!(f.differ[0].value.as_deref(), Some("master-crafted boltgun"));
    assert_eq!(categories(f), [("export", Category::Naming)]);
}

/// The file is the same whatever order the inputs are given in.
#[test]
fn the_corpus_report_does_not_depend_on_input_order() {
    let Some((ds, _)) = corpus_report() else {
        return;
    };
    let Some(c) = util::corpus() else { return };
    let again = ingest_subset(&c, true);
    let file = |d: &Dataset| {
        d.extra_files
            .iter()
            .find(|(p, _)| p == "reconciliation.json")
            .map(|(_, s)| s.clone())
    };
    assert_eq!(file(ds), file(&again));
}

/// `cogitator explain ID.FIELD` shows the field's reconciliation entries.
#[test]
fn explain_shows_the_reconciliation_of_a_field() {
    let csv = sheet(ID, "Guardsmen", "Astra Militarum", CSV);
    let mut pdf = sheet(ID, "Guardsmen", "Astra Militarum", "card.pdf");
    pdf.points[0].points = 65;
    let (merged, report) = run(vec![
        reading("card.pdf", Some((1, 0)), None, vec![pdf]),
        reading(CSV, None, Some("export 2025-11-14 19:35:22"), vec![csv]),
    ]);
    let ds = cogitator::dataset::LoadedDataset {
        datasheets: merged.datasheets,
        diagnostics: merged.diagnostics,
        reconciliation: Some(serde_json::to_value(report.expect("report")).expect("json")),
        ..Default::default()
    };
    let out =
        cogitator::cli::explain::explain(&ds, &format!("{ID}.points"), std::path::Path::new("."))
            .expect("explained");
    assert!(
        out.contains("reconciliation (export, pdf; 1 field;"),
        "{out}"
    );
    assert!(
        out.contains("points[10]: 65 (pdf); export 60 — version (export 2025-11-14 19:35:22 vs faction pack v1.0)"),
        "{out}"
    );
    // Another field: its own entries only.
    let out = cogitator::cli::explain::explain(
        &ds,
        &format!("{ID}.weapons[Lasgun].AP"),
        std::path::Path::new("."),
    )
    .expect("explained");
    assert!(
        out.contains("weapons[lasgun].AP: -1 (export, pdf)") && !out.contains("points[10]"),
        "{out}"
    );
}
