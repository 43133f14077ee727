//! Wahapedia's CSV export as a record source: golden values written by hand from the export's
//! rows (`grep '^000001148|' Datasheets_models.csv` …), the source on tiny hand-written
//! exports (malformed lines, a missing table, a group no source claims), and the merge with a
//! page of the same unit.

use crate::util;
use cogitator::model::{Dataset, Datasheet, InputStatus, WeaponType};
use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;

fn opts() -> Options {
    Options {
        skip_validation: true,
        ..Options::default()
    }
}

fn sheet<'d>(ds: &'d Dataset, id: &str) -> &'d Datasheet {
    ds.datasheets
        .iter()
        .find(|d| d.id == id)
        .unwrap_or_else(|| panic!("no datasheet {id}"))
}

fn profile(d: &Datasheet) -> Vec<Option<&str>> {
    let m = &d.models[0];
    ["M", "T", "Sv", "W", "Ld", "OC"]
        .iter()
        .map(|c| m.get(c))
        .collect()
}

fn codes(ds: &Dataset) -> Vec<(String, Option<String>, Option<u32>)> {
    ds.diagnostics
        .iter()
        .map(|d| (d.code.clone(), d.file.clone(), d.line))
        .collect()
}

// --- the real export ---------------------------------------------------------------------

fn real_export() -> Option<Dataset> {
    let corpus = util::corpus()?;
    let dir = corpus.join("wahapedia-csv/2025-11-14");
    Some(cogitator::ingest(&[dir], &opts()).expect("the export reads"))
}

#[test]
fn export_datasheets_carry_every_value_of_their_rows() {
    let Some(ds) = real_export() else { return };

    // Be'lakor (CD), Datasheets.csv line 404; Datasheets_models.csv:
    // 000001148|1|Be’lakor|12"|11|3+|4||20|6+|5|100mm||
    let b = sheet(&ds, "10e:chaos-daemons:belakor");
    assert_eq!(b.faction.as_deref(), Some("Chaos Daemons"));
    assert_eq!(
        profile(b),
        [
            Some("12\""),
            Some("11"),
            Some("3+"),
            Some("20"),
            Some("6+"),
            Some("5")
        ]
    );
    assert_eq!(b.invulnerable_save.as_deref(), Some("4+"));
    assert_eq!(b.base_size.as_deref(), Some("100mm"));
    assert_eq!(b.sources[0].file, "Datasheets.csv");
    assert_eq!(b.sources[0].line, 404);
    assert_eq!(b.sources[0].sha256.len(), 64);
    // Datasheets_models_cost.csv: 000001148|1|1 model|375|
    assert_eq!(
        b.points
            .iter()
            .map(|p| (p.models, p.points))
            .collect::<Vec<_>>(),
        [(1, 375)]
    );
    // Datasheets_wargear.csv: |The Blade of Shadows – strike|devastating wounds|Melee|Melee|7|2|14|-4|D6+1|
    let strike = b
        .weapons
        .iter()
        .find(|w| w.name == "The Blade of Shadows – strike")
        .expect("strike profile");
    assert_eq!(strike.kind, WeaponType::Melee);
    assert_eq!(strike.get("A"), Some("7"));
    assert_eq!(strike.get("skill"), Some("2+"));
    assert_eq!(strike.get("S"), Some("14"));
    assert_eq!(strike.get("AP"), Some("-4"));
    assert_eq!(strike.get("D"), Some("D6+1"));
    assert_eq!(strike.keywords, ["DEVASTATING WOUNDS"]);
    // Datasheets_abilities.csv: |000008339||||Core|D6| (Deadly Demise), and
    // |The Dark Master (Aura)|…|Datasheet|
    let dd = b
        .abilities
        .iter()
        .find(|a| a.name == "Deadly Demise")
        .expect("Deadly Demise");
    assert_eq!(dd.group, "core");
    assert_eq!(dd.parameter.as_deref(), Some("D6"));
    assert_eq!(dd.rule_id.as_deref(), Some("10e:core:deadly-demise"));
    let dm = b
        .abilities
        .iter()
        .find(|a| a.name == "The Dark Master")
        .expect("The Dark Master");
    assert_eq!(dm.group, "datasheet");
    assert_eq!(dm.tags, ["Aura"]);
    assert!(dm
        .text
        .as_deref()
        .is_some_and(|t| t.starts_with("The area of the battlefield within 6\" of this model")));
    assert!(b
        .special_rules
        .iter()
        .any(|s| s.name == "SUPREME COMMANDER"));
    assert!(b
        .keywords
        .iter()
        .any(|k| k.eq_ignore_ascii_case("Epic Hero")));
    assert_eq!(b.faction_keywords, ["Legiones Daemonica"]);

    // Warboss (ORK), 000000001|1|Warboss|6"|5|4+|5||6|6+|1|40mm||, 1 model 75.
    let w = sheet(&ds, "10e:orks:warboss");
    assert_eq!(
        profile(w),
        [
            Some("6\""),
            Some("5"),
            Some("4+"),
            Some("6"),
            Some("6+"),
            Some("1")
        ]
    );
    assert_eq!(w.invulnerable_save.as_deref(), Some("5+"));
    assert_eq!(w.points[0].points, 75);
    // |Kombi-weapon|anti-infantry 4+, devastating wounds, rapid fire 1|24|Ranged|1|5|4|0|1|
    let kombi = w
        .weapons
        .iter()
        .find(|x| x.name == "Kombi-weapon")
        .expect("kombi");
    assert_eq!(kombi.kind, WeaponType::Ranged);
    assert_eq!(kombi.get("range"), Some("24\""));
    assert_eq!(kombi.get("skill"), Some("5+"));
    assert_eq!(
        kombi.keywords,
        ["ANTI-INFANTRY 4+", "DEVASTATING WOUNDS", "RAPID FIRE 1"]
    );
    // |Twin slugga|pistol, twin-linked|12|Ranged|2|5|4|0|1|
    let slugga = w
        .weapons
        .iter()
        .find(|x| x.name == "Twin slugga")
        .expect("slugga");
    assert_eq!(slugga.keywords, ["PISTOL", "TWIN-LINKED"]);
    assert_eq!(slugga.get("A"), Some("2"));
    assert!(w.abilities.iter().any(|a| a.name == "Might is Right"));
    // Datasheets_options.csv: `This model’s big choppa can be replaced with 1 power klaw.`
    assert!(w
        .wargear_options
        .iter()
        .any(|o| o == "This model’s big choppa can be replaced with 1 power klaw."));

    // Carnifexes (TYR): 1 model 115, 2 models 230; 1-2 Carnifexes; options with a list.
    let c = sheet(&ds, "10e:tyranids:carnifexes");
    assert_eq!(
        c.points
            .iter()
            .map(|p| (p.models, p.points))
            .collect::<Vec<_>>(),
        [(1, 115), (2, 230)]
    );
    assert_eq!(c.unit_composition, ["1-2 Carnifexes"]);
    assert!(c.wargear_options[0].starts_with(
        "Any number of models can each have their Carnifex extra scything talons replaced with one of the following: 1 deathspitters with slimer maggots; 1 devourers"
    ));
    assert_eq!(c.weapons.len(), 10);
}

#[test]
fn export_stratagems_enhancements_and_manifest() {
    let Some(ds) = real_export() else { return };
    // Stratagems.csv line 16: |COMMAND RE-ROLL|000008335002|Core – Battle Tactic Stratagem|1|…
    let s = ds
        .stratagems
        .iter()
        .find(|s| s.id == "10e:core:command-re-roll")
        .expect("command re-roll");
    assert_eq!(s.cp, Some(1));
    assert_eq!(s.category.as_deref(), Some("Battle Tactic"));
    assert!(s
        .when
        .as_deref()
        .is_some_and(|t| t.starts_with("Any phase, just after you make an Advance roll")));
    assert_eq!(
        s.target.as_deref(),
        Some("That unit or model from your army.")
    );
    assert!(s
        .effect
        .as_deref()
        .is_some_and(|t| t.starts_with("You re-roll that roll, test or saving throw.")));
    assert_eq!(s.sources[0].file, "Stratagems.csv");
    assert_eq!(s.sources[0].line, 16);

    // Enhancements.csv line 2: AC|000008395002|Auric Mantle|15|Shield Host|…
    let e = ds
        .enhancements
        .iter()
        .find(|e| e.name.as_deref() == Some("Auric Mantle"))
        .expect("Auric Mantle");
    assert_eq!(e.points, Some(15));
    assert_eq!(e.detachment.as_deref(), Some("Shield Host"));
    assert_eq!(e.faction.as_deref(), Some("Adeptus Custodes"));
    assert!(e
        .text
        .ends_with("model only. Add 2 to the bearer’s Wounds characteristic."));
    let d = ds
        .detachments
        .iter()
        .find(|d| d.id == "10e:adeptus-custodes:shield-host")
        .expect("Shield Host");
    assert!(d.enhancements.contains(&e.id));

    // Every table of the export is `ok`, read as csv, with its sha256.
    assert_eq!(ds.manifest.inputs.len(), 20);
    for i in &ds.manifest.inputs {
        assert_eq!(i.format, "csv", "{}", i.file);
        assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
        assert_eq!(i.sha256.len(), 64, "{}", i.file);
    }
    let strat = ds
        .manifest
        .inputs
        .iter()
        .find(|i| i.file == "Stratagems.csv")
        .expect("Stratagems.csv entry");
    assert_eq!(strat.records.stratagems, 1290);
}

// --- hand-written exports ----------------------------------------------------------------

fn fixture(dir: &str, skip: &[&str]) -> Vec<SourceFile> {
    let tables: &[(&str, &str)] = &[
        ("Last_update.csv", "\u{feff}last_update|\r\n2025-01-02 03:04:05|\r\n"),
        ("Factions.csv", "id|name|link|\r\nTYR|Tyranids|x|\r\n"),
        (
            "Datasheets.csv",
            "id|name|faction_id|source_id|legend|role|loadout|transport|virtual|leader_head|leader_footer|damaged_w|damaged_description|link|\r\n\
             000000001|Grub Beast |TYR|1||Monster|<b>Every model is equipped with:</b> jaws.||false|||1-3|While damaged, <i>subtract</i> 1.|x|\r\n\
             000000002|\r\n",
        ),
        (
            "Datasheets_models.csv",
            "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|base_size_descr|\r\n\
             000000001|1|Grub Beast|8|9|2+|5*|ranged attacks only|8|8+|3|60mm||\r\n\
             000000001|2|oops\r\n\
             000000009|1|Ghost|6\"|4|3+|-||2|7+|1|||\r\n",
        ),
        (
            "Datasheets_wargear.csv",
            "datasheet_id|line|line_in_wargear|dice|name|description|range|type|A|BS_WS|S|AP|D|\r\n\
             000000001|1|1||Jaws|<a href=\"#\">anti-infantry 4+</a>, <a>lance</a>|Melee|Melee|4|3|8|-0|2|\r\n",
        ),
        (
            "Datasheets_models_cost.csv",
            "datasheet_id|line|description|cost|\r\n000000001|1|1 model|95|\r\n000000001|2|Grub tick|+10|\r\n",
        ),
        (
            "Stratagems.csv",
            "faction_id|name|id|type|cp_cost|legend|turn|phase|detachment|detachment_id|description|\r\n\
             TYR|FEEDING FRENZY|000000100|Swarm – Battle Tactic Stratagem|2|Hungry.|Your turn|Fight phase|Swarm|000000050|<b>WHEN:</b> Fight phase.<br><br><b>TARGET:</b> One TYRANIDS unit.<br><br><b>EFFECT:</b> Add 1 to the Hit roll.|\r\n",
        ),
        (
            "Enhancements.csv",
            "faction_id|id|name|cost|detachment|detachment_id|legend|description|\r\n\
             TYR|000000200|Toxic Maw|20|Swarm|000000050||TYRANIDS model only. +1 Damage.|\r\n",
        ),
    ];
    tables
        .iter()
        .filter(|(n, _)| !skip.contains(n))
        .map(|(n, t)| SourceFile::new(format!("{dir}/{n}"), t.as_bytes().to_vec()))
        .collect()
}

#[test]
fn a_tiny_export_becomes_records_with_row_provenance() {
    let ds = run(&fixture("exp", &[]), &[], &opts());
    let d = sheet(&ds, "10e:tyranids:grub-beast");
    assert_eq!(d.name.as_deref(), Some("Grub Beast"));
    assert_eq!(
        profile(d),
        [
            Some("8\""),
            Some("9"),
            Some("2+"),
            Some("8"),
            Some("8+"),
            Some("3")
        ]
    );
    assert_eq!(d.invulnerable_save.as_deref(), Some("5+"));
    assert_eq!(
        d.invulnerable_save_condition.as_deref(),
        Some("ranged attacks only")
    );
    assert_eq!(d.equipment, ["Every model is equipped with: jaws."]);
    assert_eq!(d.weapons[0].keywords, ["ANTI-INFANTRY 4+", "LANCE"]);
    assert_eq!(d.weapons[0].get("AP"), Some("0"));
    assert_eq!(d.weapons[0].get("skill"), Some("3+"));
    // `+10` is an add-on, not a unit size: kept out of the points, with X105.
    assert_eq!(d.points.len(), 1);
    let damaged = d.damaged.as_ref().expect("damaged");
    assert_eq!(damaged.name, "DAMAGED: 1-3 WOUNDS REMAINING");
    assert_eq!(damaged.text, "While damaged, subtract 1.");
    assert_eq!(d.sources[0].file, "exp/Datasheets.csv");
    assert_eq!(d.sources[0].line, 2);

    let s = &ds.stratagems[0];
    assert_eq!(s.id, "10e:swarm:feeding-frenzy");
    assert_eq!(s.cp, Some(2));
    assert_eq!(s.when.as_deref(), Some("Fight phase."));
    assert_eq!(s.target.as_deref(), Some("One TYRANIDS unit."));
    assert_eq!(s.effect.as_deref(), Some("Add 1 to the Hit roll."));
    assert_eq!(ds.enhancements[0].points, Some(20));
    assert_eq!(ds.enhancements[0].id, "10e:tyranids:swarm:toxic-maw");

    let c = codes(&ds);
    // A line with too few fields, a required value missing, a row of an unknown datasheet:
    // diagnostics with file and line, no panic.
    assert!(
        c.contains(&(
            "C001".into(),
            Some("exp/Datasheets_models.csv".into()),
            Some(3)
        )),
        "{c:?}"
    );
    assert!(
        c.contains(&("C001".into(), Some("exp/Datasheets.csv".into()), Some(3))),
        "{c:?}"
    );
    assert!(
        c.contains(&(
            "C002".into(),
            Some("exp/Datasheets_models.csv".into()),
            Some(4)
        )),
        "{c:?}"
    );
    assert!(
        c.contains(&(
            "X105".into(),
            Some("exp/Datasheets_models_cost.csv".into()),
            Some(3)
        )),
        "{c:?}"
    );
    // The tables the fixture lacks are C003 warnings; nothing is an error.
    assert!(c.iter().any(|(code, _, _)| code == "C003"), "{c:?}");
    assert_eq!(ds.manifest.diagnostics.error, 0, "{:#?}", ds.diagnostics);
    for i in &ds.manifest.inputs {
        assert_eq!(
            (i.format.as_str(), i.status),
            ("csv", InputStatus::Ok),
            "{}",
            i.file
        );
    }
    let strat = ds
        .manifest
        .inputs
        .iter()
        .find(|i| i.file == "exp/Stratagems.csv")
        .expect("entry");
    assert_eq!(strat.records.stratagems, 1);
}

#[test]
fn a_missing_table_is_a_diagnostic_and_the_rest_is_read() {
    let ds = run(&fixture("exp", &["Datasheets_wargear.csv"]), &[], &opts());
    let d = sheet(&ds, "10e:tyranids:grub-beast");
    assert!(d.weapons.is_empty());
    assert_eq!(d.models.len(), 1);
    assert!(ds.diagnostics.iter().any(|x| x.code == "C003"
        && x.message.contains("Datasheets_wargear.csv")
        && x.file.as_deref() == Some("exp/Datasheets_wargear.csv")));
    assert_eq!(ds.stratagems.len(), 1);
}

#[test]
fn a_csv_group_no_source_claims_stays_skipped() {
    // Tables with none of the export's names or header shapes: not the export; its files stay
    // skipped with S007. (An export without Last_update.csv is still the export: issue 24,
    // `trust_crash::export_without_last_update_is_still_read_as_the_export`.)
    let other = |dir: &str| {
        vec![
            SourceFile::new(
                format!("{dir}/scores.csv"),
                b"name,score
A,1
B,2
"
                .to_vec(),
            ),
            SourceFile::new(
                format!("{dir}/teams.csv"),
                b"team|city|
X|Y|
"
                .to_vec(),
            ),
        ]
    };
    let ds = run(&other("exp"), &[], &opts());
    assert!(ds.datasheets.is_empty());
    for i in &ds.manifest.inputs {
        assert_eq!(i.status, InputStatus::Skipped, "{}", i.file);
    }
    let s007 = ds.diagnostics.iter().filter(|d| d.code == "S007").count();
    assert_eq!(s007, ds.manifest.inputs.len());
    // Another directory's tables are another group: the export there is still read.
    let mut both = other("a");
    both.extend(fixture("b", &[]));
    let ds = run(&both, &[], &opts());
    assert_eq!(ds.datasheets.len(), 1);
    assert_eq!(ds.datasheets[0].sources[0].file, "b/Datasheets.csv");
}

#[test]
fn export_records_do_not_depend_on_input_order() {
    let a = run(&fixture("exp", &[]), &[], &opts());
    let mut rev = fixture("exp", &[]);
    rev.reverse();
    let b = run(&rev, &[], &opts());
    assert_eq!(a.datasheets, b.datasheets);
    assert_eq!(a.stratagems, b.stratagems);
    assert_eq!(a.diagnostics, b.diagnostics);
    assert_eq!(a.manifest, b.manifest);
}

#[test]
fn a_page_and_the_export_merge_into_one_datasheet_with_both_sources() {
    let Some(corpus) = util::corpus() else { return };
    let page = corpus.join("wahapedia-html/waaahgame/tyranids--Carnifexes.html");
    let export = corpus.join("wahapedia-csv/2025-11-14");
    let mut inputs: Vec<SourceFile> = vec![SourceFile::new(
        "wahapedia-html/waaahgame/tyranids--Carnifexes.html",
        std::fs::read(&page).expect("page"),
    )];
    for e in std::fs::read_dir(&export).expect("export dir") {
        let p = e.expect("entry").path();
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        inputs.push(SourceFile::new(
            format!("wahapedia-csv/2025-11-14/{name}"),
            std::fs::read(&p).expect("table"),
        ));
    }
    let ds = run(&inputs, &[], &opts());
    let c = sheet(&ds, "10e:tyranids:carnifexes");
    let files: Vec<&str> = c.sources.iter().map(|s| s.file.as_str()).collect();
    assert!(
        files.contains(&"wahapedia-csv/2025-11-14/Datasheets.csv"),
        "{files:?}"
    );
    assert!(
        files.contains(&"wahapedia-html/waaahgame/tyranids--Carnifexes.html"),
        "{files:?}"
    );
    // The export (115/230) and the page (faction pack v1.4: 90/180) disagree on points: one
    // X110 names both values and both files; the page, which cites its version, wins.
    let x110: Vec<&str> = ds
        .diagnostics
        .iter()
        .filter(|d| d.code == "X110" && d.message.starts_with("Carnifexes points"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(x110.len(), 1, "{x110:?}");
    let m = x110[0];
    assert!(
        m.contains("1×115, 2×230 (wahapedia-csv/2025-11-14/Datasheets.csv)"),
        "{m}"
    );
    assert!(
        m.contains("1×90, 2×180 (wahapedia-html/waaahgame/tyranids--Carnifexes.html)"),
        "{m}"
    );
    assert_eq!(
        c.points
            .iter()
            .map(|p| (p.models, p.points))
            .collect::<Vec<_>>(),
        [(1, 90), (2, 180)]
    );
}

/// A hand-written export where one faction prints `Grub Beast` twice: in its own faction pack
/// and in a Legends publication (`Source.csv`).
fn same_name_fixture() -> Vec<SourceFile> {
    let mut files: Vec<SourceFile> = fixture("exp", &["Datasheets.csv"])
        .into_iter()
        .filter(|f| !f.path.ends_with("Datasheets_models.csv"))
        .collect();
    let tables: &[(&str, &str)] = &[
        (
            "Datasheets.csv",
            "id|name|faction_id|source_id|legend|role|loadout|transport|virtual|leader_head|leader_footer|damaged_w|damaged_description|link|\r\n\
             000000001|Grub Beast|TYR|000000010||Monster|||false||||||\r\n\
             000000002|Grub Beast|TYR|000000011||Monster|||false||||||\r\n",
        ),
        (
            "Datasheets_models.csv",
            "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|base_size_descr|\r\n\
             000000001|1|Grub Beast|8|9|2+|-||8|8+|3|60mm||\r\n\
             000000002|1|Grub Beast|6|8|3+|-||7|8+|3|60mm||\r\n",
        ),
        (
            "Source.csv",
            "id|name|type|edition|version|errata_date|errata_link|\r\n\
             000000010|Tyranids|Faction Pack|10|1.0|||\r\n\
             000000011|Tyranids (Warhammer Legends)|Faction Pack|0||||\r\n",
        ),
    ];
    files.extend(
        tables
            .iter()
            .map(|(n, t)| SourceFile::new(format!("exp/{n}"), t.as_bytes().to_vec())),
    );
    files
}

#[test]
fn one_name_in_two_publications_is_two_datasheets() {
    let ds = run(&same_name_fixture(), &[], &opts());
    // The faction's own keeps the plain id; the Legends one is told apart by its publication.
    let own = sheet(&ds, "10e:tyranids:grub-beast");
    assert_eq!(own.models[0].get("M"), Some("8\""));
    let legends = sheet(&ds, "10e:tyranids:grub-beast~tyranids-warhammer-legends");
    assert_eq!(legends.models[0].get("M"), Some("6\""));
    assert!(
        ds.diagnostics.iter().all(|d| d.code != "X110"),
        "two datasheets, not one with conflicts"
    );
    // Without Source.csv the export cannot tell them apart: one id, the differences as X110.
    let files: Vec<SourceFile> = same_name_fixture()
        .into_iter()
        .filter(|f| !f.path.ends_with("Source.csv"))
        .collect();
    let ds = run(&files, &[], &opts());
    assert_eq!(
        ds.datasheets
            .iter()
            .filter(|d| d.id.starts_with("10e:tyranids:grub-beast"))
            .count(),
        1
    );
    assert!(ds.diagnostics.iter().any(|d| d.code == "X110"));
}

#[test]
fn export_datasheets_of_one_name_have_distinct_ids_and_no_conflicts() {
    let Some(ds) = real_export() else { return };
    // Read by hand: `grep -n '|Gladiator Lancer|' Datasheets.csv` gives 000002705 (source
    // 000000139, `Space Marines` faction pack) and 000002787 (000000162, `Black Templars`);
    // Karanak 000001104 (`Chaos Daemons`) and 000004102 (`Chaos Daemons (Warhammer Legends)`).
    for id in [
        "10e:space-marines:gladiator-lancer",
        "10e:space-marines:gladiator-lancer~black-templars",
        "10e:chaos-daemons:karanak",
        "10e:chaos-daemons:karanak~chaos-daemons-warhammer-legends",
        "10e:space-marines:wolf-scouts~space-wolves",
        "10e:space-marines:wolf-scouts~space-wolves-warhammer-legends",
    ] {
        sheet(&ds, id);
    }
    let templars = sheet(&ds, "10e:space-marines:gladiator-lancer~black-templars");
    assert!(templars.abilities.iter().any(|a| a.name == "Templar Vows"));
    let x110 = ds.diagnostics.iter().filter(|d| d.code == "X110").count();
    assert_eq!(x110, 0, "one export, no datasheet read twice");
}

/// The `transport` column of `Datasheets.csv` is the TRANSPORT block the pages print: a named
/// box in `special_rules`, its keyword markup made plain, located at the datasheet's row.
#[test]
fn the_transport_column_is_the_transport_block() {
    let Some(ds) = real_export() else { return };
    // Datasheets.csv line 166, Chimera (AM): `This model has a transport capacity of 12 <span
    // …><span class="kwb">ASTRA</span> <span class="kwb">MILITARUM</span> <span
    // class="kwb">INFANTRY</span></span> models. Each …OGRYN… model takes up the space of 3
    // models. It cannot transport …ARTILLERY… models.`
    let c = sheet(&ds, "10e:astra-militarum:chimera");
    let t: Vec<(&str, &str, &str, u32)> = c
        .special_rules
        .iter()
        .filter(|r| r.name == "TRANSPORT")
        .map(|r| {
            (
                r.name.as_str(),
                r.text.as_str(),
                r.at.file.as_str(),
                r.at.line,
            )
        })
        .collect();
    assert_eq!(
        t,
        [(
            "TRANSPORT",
            "This model has a transport capacity of 12 ASTRA MILITARUM INFANTRY models. Each \
             OGRYN model takes up the space of 3 models. It cannot transport ARTILLERY models.",
            "Datasheets.csv",
            166
        )]
    );
    // Be'lakor (line 404) carries nothing in that column: no TRANSPORT block.
    let b = sheet(&ds, "10e:chaos-daemons:belakor");
    assert!(b.special_rules.iter().all(|r| r.name != "TRANSPORT"));
}

/// A datasheet of a Warhammer Legends publication (`Source.csv`: `Space Wolves (Warhammer
/// Legends)`, `Legends: Tyranids`) is a Legends datasheet; one of the codex is not.
#[test]
fn datasheets_of_a_legends_publication_are_legends() {
    let Some(ds) = real_export() else { return };
    // Datasheets.csv: 000000310|Wolf Scouts|SM|000000360 and 000004182|Wolf Scouts|SM|000000036;
    // Source.csv: 000000360 `Space Wolves (Warhammer Legends)`, 000000036 `Space Wolves`.
    let old = sheet(
        &ds,
        "10e:space-marines:wolf-scouts~space-wolves-warhammer-legends",
    );
    assert!(old.legends);
    let codex = sheet(&ds, "10e:space-marines:wolf-scouts~space-wolves");
    assert!(!codex.legends);
    assert!(!sheet(&ds, "10e:chaos-daemons:belakor").legends);
}
