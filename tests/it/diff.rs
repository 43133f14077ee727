//! The typed diff engine (`cogitator::diff`) on hand-written record pairs, its laws as property
//! tests, and the merge policy's conflicts (`X110`) on hand-written sources and the corpus.

use cogitator::diff::{diff_values, Change, ChangeKind, Options};
use cogitator::model::{Datasheet, Edition, PointsOption, WeaponProfile, WeaponType};
use cogitator::source::{Location, Provenance};
use proptest::prelude::*;

fn weapon(name: &str, keywords: &[&str]) -> WeaponProfile {
    let mut w = WeaponProfile::new(
        Edition::Tenth,
        name.to_string(),
        WeaponType::Ranged,
        Location::at_line("a.html", 10),
    );
    for (c, v) in [
        ("range", "24\""),
        ("A", "2"),
        ("skill", "3+"),
        ("S", "4"),
        ("AP", "0"),
        ("D", "1"),
    ] {
        w.set(c, Some(v.into()));
    }
    w.keywords = keywords.iter().map(|k| k.to_string()).collect();
    w
}

fn carnifexes() -> Datasheet {
    let mut d = Datasheet::empty(Edition::Tenth);
    d.id = "10e:tyranids:carnifexes".into();
    d.name = Some("Carnifexes".into());
    d.invulnerable_save = Some("5+".into());
    d.points = vec![
        PointsOption {
            models: 1,
            points: 115,
            at: Default::default(),
            units: Default::default(),
        },
        PointsOption {
            models: 2,
            points: 230,
            at: Default::default(),
            units: Default::default(),
        },
    ];
    d.weapons = vec![
        weapon("Storm bolter", &["RAPID FIRE 2"]),
        weapon("Heavy venom cannon", &["BLAST"]),
    ];
    d.keywords = vec!["MONSTER".into(), "GREAT DEVOURER".into()];
    d.sources = vec![Provenance::at_line("a.html", 1, "aa")];
    d
}

/// The differences between two readings of one datasheet, compared as `merge` and `cogitator
/// diff` compare records: serialized, through the engine.
fn diff_record(a: &Datasheet, b: &Datasheet, opts: &Options) -> Vec<Change> {
    let [va, vb] = [a, b].map(|r| serde_json::to_value(r).unwrap());
    diff_values(&b.id, &va, &vb, opts)
}

/// The same change seen from the other side (old and new swapped).
fn reversed(c: &Change) -> Change {
    let kind = match c.kind {
        ChangeKind::Added => ChangeKind::Removed,
        ChangeKind::Removed => ChangeKind::Added,
        other => other,
    };
    Change {
        kind,
        old: c.new.clone(),
        new: c.old.clone(),
        ..c.clone()
    }
}

fn lines(a: &Datasheet, b: &Datasheet, opts: &Options) -> Vec<String> {
    diff_record(a, b, opts)
        .iter()
        .map(|c| c.human("Carnifexes"))
        .collect()
}

#[test]
fn points_change() {
    let mut b = carnifexes();
    b.points[1].points = 180;
    assert_eq!(
        lines(&carnifexes(), &b, &Options::without_provenance()),
        ["Carnifexes › points › 2 models: 230 → 180"]
    );
    let c = diff_record(&carnifexes(), &b, &Options::default());
    assert_eq!(c[0].record, "10e:tyranids:carnifexes");
    assert_eq!(c[0].path.to_string(), "points[2 models].points");
}

#[test]
fn removed_weapon_is_one_change() {
    let mut b = carnifexes();
    b.weapons.remove(0);
    let c = diff_record(&carnifexes(), &b, &Options::without_provenance());
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].kind, ChangeKind::Removed);
    assert_eq!(c[0].path.to_string(), "weapons[Storm bolter]");
    assert_eq!(
        c[0].human("Carnifexes"),
        "Carnifexes › weapons › Storm bolter: removed (type ranged; range 24\"; A 2; skill 3+; \
         S 4; AP 0; D 1; keywords RAPID FIRE 2)"
    );
}

#[test]
fn weapon_keyword_removed() {
    let mut b = carnifexes();
    b.weapons[0].keywords.clear();
    assert_eq!(
        lines(&carnifexes(), &b, &Options::without_provenance()),
        ["Carnifexes › weapons › Storm bolter › keywords: − RAPID FIRE 2"]
    );
}

#[test]
fn reordered_weapons_and_keywords_are_no_change() {
    let mut b = carnifexes();
    b.weapons.reverse();
    b.keywords.reverse();
    assert!(diff_record(&carnifexes(), &b, &Options::default()).is_empty());
}

#[test]
fn field_becoming_null() {
    let mut b = carnifexes();
    b.invulnerable_save = None;
    assert_eq!(
        lines(&carnifexes(), &b, &Options::without_provenance()),
        ["Carnifexes › invulnerable_save: 5+ → null"]
    );
}

#[test]
fn sources_only_change_is_ignored_when_asked() {
    let mut b = carnifexes();
    b.sources[0].file = "b.html".into();
    b.weapons[0].at.line = 99;
    assert!(diff_record(&carnifexes(), &b, &Options::without_provenance()).is_empty());
    // Asked to compare everything: the source and the line are changes.
    let paths: Vec<String> = diff_record(&carnifexes(), &b, &Options::default())
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "sources[a.html]",
            "sources[b.html]",
            "weapons[Storm bolter].at.line"
        ]
    );
}

fn arb_sheet() -> impl Strategy<Value = Datasheet> {
    let names = prop::collection::btree_set("[A-D][a-c]{0,2}", 0..4);
    let kws = prop::collection::btree_set("[A-C]{1,2}", 0..3);
    let pts = prop::collection::btree_map(1u32..4, 10u32..13, 0..3);
    (
        names,
        kws,
        pts,
        prop::option::of("[2-6]\\+"),
        0u32..3,
        "[ab]\\.html",
    )
        .prop_map(|(names, kws, pts, inv, line, file)| {
            let mut d = carnifexes();
            let kw: Vec<&str> = kws.iter().map(String::as_str).collect();
            d.weapons = names
                .iter()
                .map(|n| {
                    let mut w = weapon(n, &kw);
                    w.at.line = line;
                    w
                })
                .collect();
            d.keywords = kws.into_iter().collect();
            d.points = pts
                .into_iter()
                .map(|(models, points)| PointsOption {
                    models,
                    points,
                    at: Default::default(),
                    units: Default::default(),
                })
                .collect();
            d.invulnerable_save = inv;
            d.sources[0].file = file;
            d
        })
}

/// Equal modulo provenance (the fields `Options::without_provenance` ignores).
fn strip(d: &Datasheet) -> Datasheet {
    let mut d = d.clone();
    d.sources.clear();
    for w in &mut d.weapons {
        w.at = Location::default();
    }
    d
}

proptest! {
    #![proptest_config(crate::util::proptest_config(256))]

    #[test]
    fn diff_of_a_record_with_itself_is_empty(a in arb_sheet()) {
        prop_assert!(diff_record(&a, &a, &Options::default()).is_empty());
    }

    #[test]
    fn diff_is_empty_iff_equal_modulo_ignored(a in arb_sheet(), b in arb_sheet()) {
        let opts = Options::without_provenance();
        prop_assert_eq!(diff_record(&a, &b, &opts).is_empty(), strip(&a) == strip(&b));
        prop_assert_eq!(diff_record(&a, &b, &Options::default()).is_empty(), a == b);
    }

    #[test]
    fn diff_is_symmetric(a in arb_sheet(), b in arb_sheet()) {
        let opts = Options::default();
        let ab = diff_record(&a, &b, &opts);
        let ba = diff_record(&b, &a, &opts);
        prop_assert_eq!(ab.len(), ba.len());
        let key = |c: &Change| format!("{}|{:?}|{:?}|{:?}", c.path, c.kind, c.old, c.new);
        let mut x: Vec<String> = ab.iter().map(|c| key(&reversed(c))).collect();
        let mut y: Vec<String> = ba.iter().map(key).collect();
        x.sort();
        y.sort();
        prop_assert_eq!(x, y);
    }
}

// ---- merge policy: two hand-written readings of one record, the table's winner, one X110 ----

use cogitator::diag::Diagnostic;
use cogitator::model::{Detachment, Enhancement, Stratagem};
use cogitator::reconcile::merge::Records;

fn src(file: &str) -> Vec<Provenance> {
    vec![Provenance::at_line(file, 3, "00")]
}

fn x110(diags: &[Diagnostic]) -> Vec<&str> {
    diags
        .iter()
        .filter(|d| d.code == "X110")
        .map(|d| d.message.as_str())
        .collect()
}

fn stratagem(file: &str, cp: u32, effect: Option<&str>) -> Stratagem {
    Stratagem {
        id: "10e:boarding-actions:insane-bravery".into(),
        name: "INSANE BRAVERY".into(),
        edition: Edition::Tenth,
        cp: Some(cp),
        group: Some("Boarding Actions".into()),
        category: Some("Epic Deed".into()),
        flavor: None,
        when: None,
        target: None,
        effect: effect.map(str::to_string),
        restrictions: None,
        sources: src(file),
        translations: Default::default(),
    }
}

#[test]
fn stratagem_newer_faction_pack_wins_cp_and_text_is_filled() {
    let mut recs = Records::default();
    let mut diags = Vec::new();
    recs.add(
        stratagem("a.html", 2, None),
        Some((1, 0)),
        "a.html",
        &mut diags,
    );
    recs.add(
        stratagem("b.html", 1, Some("Auto-pass.")),
        Some((1, 4)),
        "b.html",
        &mut diags,
    );
    let s = recs.into_sorted();
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].cp, Some(1));
    assert_eq!(s[0].effect.as_deref(), Some("Auto-pass."));
    assert_eq!(s[0].sources.len(), 2);
    assert_eq!(
        x110(&diags),
        ["INSANE BRAVERY CP: 2CP (a.html) vs 1CP (b.html); kept 1CP (faction pack v1.4 > v1.0)"]
    );
    assert_eq!(diags[0].file.as_deref(), Some("b.html"));
}

#[test]
fn stratagem_older_page_later_in_path_order_does_not_win() {
    let mut recs = Records::default();
    let mut diags = Vec::new();
    recs.add(
        stratagem("a.html", 1, None),
        Some((1, 4)),
        "a.html",
        &mut diags,
    );
    recs.add(stratagem("b.html", 2, None), None, "b.html", &mut diags);
    assert_eq!(recs.into_sorted()[0].cp, Some(1));
    assert_eq!(
        x110(&diags),
        ["INSANE BRAVERY CP: 1CP (a.html) vs 2CP (b.html); kept 1CP (faction pack v1.4 > no version)"]
    );
}

fn enhancement(file: &str, points: u32, text: &str) -> Enhancement {
    Enhancement {
        id: "10e:tyranids:invasion-fleet:adaptive-biology".into(),
        name: Some("Adaptive Biology".into()),
        edition: Edition::Tenth,
        faction: Some("Tyranids".into()),
        detachment: Some("Invasion Fleet".into()),
        points: Some(points),
        flavor: None,
        text: text.into(),
        sources: src(file),
        translations: Default::default(),
    }
}

#[test]
fn enhancement_points_conflict_is_reported_and_first_is_kept() {
    let mut recs = Records::default();
    let mut diags = Vec::new();
    recs.add(enhancement("a.html", 25, ""), None, "a.html", &mut diags);
    recs.add(
        enhancement("b.html", 15, "Feel No Pain."),
        None,
        "b.html",
        &mut diags,
    );
    let e = recs.into_sorted();
    assert_eq!(e[0].points, Some(25));
    // Text the first reading lacks is taken from the second, silently.
    assert_eq!(e[0].text, "Feel No Pain.");
    assert_eq!(
        x110(&diags),
        [
            "Adaptive Biology points: 25 (a.html) vs 15 (b.html); kept 25 (first in path order: \
          enhancement points do not yet prefer the newer faction pack)"
        ]
    );
}

fn detachment(file: &str, faction: &str, stratagems: &[&str]) -> Detachment {
    Detachment {
        id: "10e:tyranids:invasion-fleet".into(),
        name: "Invasion Fleet".into(),
        edition: Edition::Tenth,
        faction: Some(faction.into()),
        rules: vec![],
        enhancements: vec![],
        stratagems: stratagems.iter().map(|s| s.to_string()).collect(),
        sources: src(file),
        points: Default::default(),
        force_disposition: Default::default(),
        unique_tag: Default::default(),
        translations: Default::default(),
    }
}

#[test]
fn detachment_lists_are_united_and_a_faction_spelling_is_reported() {
    let mut recs = Records::default();
    let mut diags = Vec::new();
    recs.add(
        detachment("a.html", "Tyranids", &["s2", "s1"]),
        None,
        "a.html",
        &mut diags,
    );
    recs.add(
        detachment("b.html", "TYRANIDS", &["s3", "s1"]),
        None,
        "b.html",
        &mut diags,
    );
    let d = recs.into_sorted();
    assert_eq!(d[0].stratagems, ["s1", "s2", "s3"]);
    assert_eq!(d[0].faction.as_deref(), Some("Tyranids"));
    assert_eq!(
        x110(&diags),
        ["Invasion Fleet faction: Tyranids (a.html) vs TYRANIDS (b.html); kept Tyranids (first in \
          path order: the id is faction + name: a difference is a spelling)"]
    );
}

#[test]
fn datasheet_newer_replaces_the_record_one_x110_per_reported_field() {
    let mut recs = Records::default();
    let mut diags = Vec::new();
    let a = carnifexes();
    let mut b = carnifexes();
    b.points[1].points = 180;
    b.points[0].points = 90;
    b.weapons.remove(0);
    b.sources[0].file = "b.html".into();
    b.unit_composition = vec!["1-2 Carnifexes".into()];
    recs.add(a, Some((1, 0)), "a.html", &mut diags);
    recs.add(b, Some((1, 4)), "b.html", &mut diags);
    let d = recs.into_sorted();
    assert_eq!(d[0].points[1].points, 180);
    assert_eq!(d[0].weapons.len(), 1);
    assert_eq!(d[0].unit_composition, ["1-2 Carnifexes"]);
    assert_eq!(d[0].sources.len(), 2);
    assert_eq!(
        x110(&diags),
        [
            "Carnifexes points: 1×115, 2×230 (a.html) vs 1×90, 2×180 (b.html); kept 1×90, 2×180 \
             (faction pack v1.4 > v1.0)",
            "Carnifexes weapons: Storm bolter 24\" 2 3+ 4 0 1 [RAPID FIRE 2] (a.html) vs (none) \
             (b.html); kept (none) (faction pack v1.4 > v1.0)",
        ]
    );
}

#[test]
fn carnifexes_pages_still_report_230_vs_180_with_both_files() {
    let Some(corpus) = crate::util::corpus() else {
        return;
    };
    let files = [
        "grimlog/tyranids--Carnifexes.html",
        "waaahgame/tyranids--Carnifexes.html",
    ];
    let inputs: Vec<cogitator::source::SourceFile> = files
        .iter()
        .map(|f| {
            cogitator::source::SourceFile::new(
                *f,
                std::fs::read(corpus.join("wahapedia-html").join(f)).expect("page"),
            )
        })
        .collect();
    let opts = cogitator::pipeline::Options {
        skip_validation: true,
        ..Default::default()
    };
    let ds = cogitator::pipeline::run(&inputs, &[], &opts);
    let points: Vec<&str> = x110(&ds.diagnostics)
        .into_iter()
        .filter(|m| m.starts_with("Carnifexes points"))
        .collect();
    assert_eq!(
        points,
        [
            "Carnifexes points: 1×115, 2×230 (grimlog/tyranids--Carnifexes.html) vs 1×90, 2×180 \
          (waaahgame/tyranids--Carnifexes.html); kept 1×90, 2×180 (faction pack v1.4 > v1.0)"
        ]
    );
}

#[test]
fn a_dataset_read_twice_has_no_changes_and_a_points_edit_is_one() {
    use cogitator::dataset::DatasetDir;
    use cogitator::diff::dataset::diff_datasets;
    let dir = crate::util::repo().join("output");
    let old = DatasetDir::read(&dir).expect("seeds output reads");
    assert!(!old.datasheets.is_empty());
    assert!(old.manifest.is_some());
    assert!(diff_datasets(&old, &old, &[]).changes.is_empty());
    let mut new = old.clone();
    let Some(d) = new.datasheets.iter_mut().find(|d| !d.points.is_empty()) else {
        panic!("a seed datasheet with points");
    };
    d.points[0].points += 5;
    let changes = diff_datasets(&old, &new, &[]).changes;
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].record_type, "datasheet");
    assert_eq!(changes[0].kind, ChangeKind::Changed);
    assert!(
        changes[0].path.starts_with("points["),
        "{}",
        changes[0].path
    );
}
